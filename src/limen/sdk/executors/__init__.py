"""Controlled executors: tools whose effects stay confined whatever arguments the model chose.

Each method that is a tool declares its capability and argument roles (`declares`), so
`guard.register(executor.method)` needs nothing else; an application may still pass its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def declares(capability: str, params: Mapping[str, str | None] | None = None) -> Callable[[F], F]:
    """Mark a method with the capability and roles `Guard.register` uses when none are given."""

    def mark(fn: F) -> F:
        fn.limen_capability = capability  # type: ignore[attr-defined]
        fn.limen_params = dict(params or {})  # type: ignore[attr-defined]
        return fn

    return mark
