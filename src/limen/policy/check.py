"""`limen config check`: every error and warning of the policy files, each with file, line and key."""

from __future__ import annotations

import os

from limen.policy.errors import Problem
from limen.policy.loader import Source, read_source
from limen.policy.paths import policy_paths
from limen.policy.semantics import check_source


def check_file(path: str, level: str = "project", known: frozenset[str] = frozenset()) -> list[Problem]:
    """All problems of one file checked on its own."""
    source, problems = read_source(path, level)
    if source is None:
        return problems
    return check_source(source, known)


def files_in(paths: list[str]) -> list[str]:
    """The files named, with directories expanded to the YAML files directly inside them."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            out += sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith((".yaml", ".yml")))
        else:
            out.append(path)
    return out


def check_workspace(workspace: str) -> list[Problem]:
    """The three levels as Limen would load them: per-file problems, merge warnings and drift status."""
    from limen.policy import drift, effective

    problems: list[Problem] = []
    sources: list[Source] = []
    known: frozenset[str] = frozenset()
    for level, path, required in policy_paths(workspace):
        if not os.path.exists(path):
            if required:
                problems.append(
                    Problem("error", path, 0, "", "LIMEN_ORG_POLICY names a file that does not exist")
                )
            continue
        source, found = read_source(path, level)
        problems += found
        if source is not None:
            known |= set(source.policy.capabilities)
            problems += check_source(source, known)
            sources.append(source)
    if any(p.severity == "error" for p in problems) or not sources:
        return problems
    current, warnings = effective.merge(sources)
    problems += warnings
    default, _ = effective.merge([])
    base, note = drift.approved(workspace, default)
    if note:
        problems.append(Problem("error", drift.ledger_path(workspace), 0, "", note))
    for change in drift.loosenings(base, current):
        problems.append(
            Problem(
                "error",
                "effective policy",
                0,
                "",
                f"not approved yet: {change} (run `limen policy propose`, then `limen policy approve`)",
            )
        )
    return problems
