"""Every module binds each of its top-level names once: a second `_PATTERN = ...` further down a long module
silently replaces the first for every function that reads it (ruff does not report a constant rebound)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src" / "limen"
MODULES = sorted(SOURCE.rglob("*.py"))


def _bound_twice(path: Path) -> list[str]:
    counts: Counter[str] = Counter()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            counts.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            counts[node.target.id] += 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            counts[node.name] += 1
    return sorted(name for name, n in counts.items() if n > 1)


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(SOURCE)) for p in MODULES])
def test_no_top_level_name_is_bound_twice(path: Path) -> None:
    assert _bound_twice(path) == []
