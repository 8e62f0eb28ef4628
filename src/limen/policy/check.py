"""`limen config check`: every error and warning of the policy files, each with file, line and key."""

from __future__ import annotations

import os

from limen.policy.errors import Problem
from limen.policy.loader import Source, read_levels, read_source
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


def _unset_default(sources: list[Source]) -> list[Problem]:
    """A warning when no level says what happens to calls no layer decides: it differs by door."""
    if any("default_action" in s.policy.model_fields_set for s in sources):
        return []
    from limen.policy.doors import describe

    message = f"default_action is unset: {describe()}; write `default_action: by_door` to keep that"
    return [Problem("warning", sources[-1].path, 0, "default_action", message)]


def check_workspace(workspace: str) -> list[Problem]:
    """The three levels as Limen would load them: per-file problems, merge warnings and drift status."""
    from limen.policy import drift, effective

    sources, problems = read_levels(workspace)
    if any(p.severity == "error" for p in problems) or not sources:
        return problems
    current, warnings = effective.merge(sources)
    problems += warnings + _unset_default(sources)
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
