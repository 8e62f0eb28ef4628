"""Configuration problems, each naming the file, the line and the dotted key it is about."""

from __future__ import annotations

import re
from dataclasses import dataclass

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


@dataclass(slots=True, frozen=True)
class Problem:
    """One finding of the loader or of `limen config check`."""

    severity: str  # "error" or "warning"
    file: str
    line: int  # 1-based; 0 when the problem is about the file as a whole
    key: str  # dotted path such as `chain[2].paths[0]`; empty for the whole file
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        key = f" {self.key}:" if self.key else ""
        return f"{where}: {self.severity}:{key} {self.message}"

    def to_dict(self) -> dict[str, object]:
        return {
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "key": self.key,
            "message": self.message,
        }


class PolicyError(Exception):
    """Raised instead of starting on a policy Limen cannot read: never guess what the user meant."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    def summary(self) -> str:
        """One line for a decision's explanation: where the first error is, what it is, how many more.

        Quoted values are elided: the file may hold anything, and explanations reach the agent and the log.
        """
        errors = [p for p in self.problems if p.severity == "error"] or self.problems
        if not errors:
            return "policy error (run `limen config check`)"
        first = errors[0]
        where = f"{first.file}:{first.line}" if first.line else first.file
        key = f" {first.key}:" if first.key else ""
        more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
        message = _QUOTED.sub("'…'", first.message)
        return f"policy error: {where}:{key} {message}{more}; run `limen config check`"


def dotted(path: tuple[str | int, ...]) -> str:
    """`("chain", 2, "paths", 0)` -> `chain[2].paths[0]`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out
