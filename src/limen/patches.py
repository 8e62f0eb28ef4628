"""The patch formats agents write files with: Codex's `apply_patch` envelope and unified diffs.

One grammar for the normaliser, which lifts a patch's target files into written paths (for every door and
tool that writes with a patch: Codex's `apply_patch`, an MCP server's, `patch` and `git apply` in a shell
line), and for the rule that reads what a patch adds. Codex trims each line before it matches a header, so
` *** Add File: x` writes `x`: headers are matched the same way here.
"""

from __future__ import annotations

from limen.prefilter import prefiltered

# `*** Add File: P`, `*** Update File: P`, `*** Delete File: P`, `*** Move to: P` (Codex), `+++ b/P` (diff).
_HEADER = prefiltered(r"(?:\*\*\* (?:Add File|Update File|Delete File|Move to):|\+\+\+ (?:b/)?)\s*(.+?)\s*$")


def header_target(line: str) -> str | None:
    """The file a patch line's header names (after trimming, as Codex does), else None."""
    match = _HEADER.match(line.strip())
    return match.group(1) if match else None


def targets(patch: str) -> list[str]:
    """Every file a patch writes, moves to or deletes, in order, without repeats."""
    found: dict[str, None] = {}
    for line in patch.splitlines():
        target = header_target(line)
        if target:
            found.setdefault(target, None)
    return list(found)
