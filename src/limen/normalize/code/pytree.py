"""Python sources parsed once per decision.

One decision may read the same source with several rules (a written file's effects, its checks, its web
handlers) and the analyser; each used to parse it again. Standard library only, so any rule may import it.
"""

from __future__ import annotations

import ast
import functools

# Sources up to this size keep their tree for the next asker; a larger one (a big tree) is parsed for each
_KEPT_SOURCE = 64 * 1024


@functools.lru_cache(maxsize=8)
def _kept_tree(source: str) -> ast.Module | None:
    return _tree(source)


def _tree(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def python_tree(source: str) -> ast.Module | None:
    """`ast.parse(source)`, None when it does not parse. The tree is shared with every other asker of the same
    source: read it, never change it."""
    return _kept_tree(source) if len(source) <= _KEPT_SOURCE else _tree(source)


@functools.lru_cache(maxsize=8)
def _kept_nodes(source: str) -> tuple[ast.AST, ...]:
    tree = _kept_tree(source)
    return tuple(ast.walk(tree)) if tree is not None else ()


def python_nodes(source: str) -> tuple[ast.AST, ...]:
    """Every node of `python_tree(source)` in `ast.walk` order (none when it does not parse): the walk a rule
    makes over a whole file, made once per source."""
    if len(source) <= _KEPT_SOURCE:
        return _kept_nodes(source)
    tree = _tree(source)
    return tuple(ast.walk(tree)) if tree is not None else ()
