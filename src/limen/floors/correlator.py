"""Correlator: a broad read or archive, then (a later call) a shell command, then egress to an untrusted host.

`correlated_destructive_flow` (AUTH; BLOCK in strict/paranoid) reads the session's recent history: the
entries `features()` computes after each decision and the runtime keeps when `worth_keeping()` says a floor
could ever read them.
"""

from __future__ import annotations

from typing import Any

from limen.context import Context
from limen.floors.egress import is_external_egress, mode_verdict, reads_private
from limen.model import Action, Capability, Command, Decision, Finding, ReasonCode, Verdict
from limen.normalize.paths import is_within
from limen.state import BROAD

ARCHIVERS = frozenset({"tar", "zip", "7z", "7za", "rar", "gzip", "bzip2", "xz", "zstd", "cpio", "pax", "jar"})
ENUMERATORS = frozenset({"find", "locate", "tree", "du", "rg", "fd", "rsync"})
# Broad only when recursive: the short flags that make each one so.
RECURSIVE_FLAGS = {"ls": {"R"}, "grep": {"r", "R"}, "egrep": {"r", "R"}, "cp": {"r", "R", "a"}, "scp": {"r"}}


def _enumerates(command: Command) -> bool:
    if command.name in ENUMERATORS:
        return True
    recursive = RECURSIVE_FLAGS.get(command.name)
    if recursive is None:
        return False
    flags = [a for a in command.argv[1:] if a.startswith("-") and not a.startswith("--")]
    return any(set(f[1:]) & recursive for f in flags) or "--recursive" in command.argv


def _broad(action: Action, ctx: Context) -> bool:
    """An archive anywhere, or an enumeration/recursive copy reaching outside the workspace."""
    if any(c.name in ARCHIVERS for c in action.commands):
        return True
    if any(_enumerates(c) for c in action.commands) and any(
        not (ctx.workspace and is_within(p, ctx.workspace)) for p in action.paths
    ):  # the commands first: most calls run none, and every path would be resolved against the workspace
        return True
    return action.capability == Capability.FILESYSTEM_READ.value and (
        len(action.paths) >= ctx.bulk_threshold or any("**" in str(v) for v in action.arguments.values())
    )


def worth_keeping(entry: dict[str, Any], flags: frozenset[str]) -> bool:
    """Only what a floor can read later: a broad read, a private read, a shell command after a broad read.
    Most calls are none of these, so most decisions write nothing to the session."""
    return bool(entry["broad"] or entry["private"] or (entry["shell"] and BROAD in flags))


def features(action: Action, ctx: Context, decision: Decision) -> dict[str, Any]:
    """The redacted history entry the correlator and the trifecta read later. Computed after every decision,
    so it holds only what a reader reads (whether the call itself sent data out is not among it)."""
    private = decision.verdict is not Verdict.BLOCK and reads_private(action, ctx)
    return {
        "cap": action.capability,
        "v": int(decision.verdict),
        "shell": action.capability == _SHELL,
        "broad": _broad(action, ctx),
        "private": private,
        # private data put into a file where Limen could not see it go (`printenv > docs/env.txt`): a later
        # push may carry values the session's fingerprints never held
        "stashed": private and stashes_private(action),
    }


def stashes_private(action: Action) -> bool:
    """A shell line that reads private data and writes a file: what it wrote is not known to Limen."""
    return action.capability == _SHELL and bool(action.write_paths)


_SHELL = Capability.SHELL_EXECUTE.value


def floor(action: Action, ctx: Context, decision: Decision) -> list[Finding]:
    session = ctx.session
    if session is None or not is_external_egress(action, ctx):
        return []
    history = session.recent()
    first_broad = next((i for i, e in enumerate(history) if e.get("broad")), None)
    if first_broad is not None and any(e.get("shell") for e in history[first_broad + 1 :]):
        return [
            Finding(
                ReasonCode.CORRELATED_DESTRUCTIVE_FLOW,
                mode_verdict(ctx),
                80,
                "a broad read or archive and a shell command earlier in this session, now egress",
            )
        ]
    return []
