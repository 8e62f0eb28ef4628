"""The evidence a decision accumulates on its way down the chain: append-only facts and flags.

A layer adds facts ("host pypi.org matched bundle pypi") and flags ("credential_like") and can read what
earlier layers added, but there is no way to change or remove another layer's entry: the trail emitted
in the audit record is exactly what each layer said.
"""

from __future__ import annotations


class Evidence:
    """Facts as `(layer, text)` pairs and flags as `name -> layer that raised it`; both only grow."""

    __slots__ = ("_facts", "_flags")

    def __init__(self) -> None:
        self._facts: list[tuple[str, str]] = []
        self._flags: dict[str, str] = {}

    def add(self, layer: str, fact: str) -> None:
        self._facts.append((layer, fact))

    def flag(self, layer: str, name: str) -> None:
        """Raise a flag for later layers; the first layer to raise it keeps the credit."""
        self._flags.setdefault(name, layer)
        self._facts.append((layer, f"flag {name}"))

    def has(self, name: str) -> bool:
        return name in self._flags

    @property
    def facts(self) -> tuple[tuple[str, str], ...]:
        return tuple(self._facts)

    @property
    def flags(self) -> frozenset[str]:
        return frozenset(self._flags)

    def since(self, mark: int) -> tuple[str, ...]:
        """The facts added after `mark` (a length from `len()`), as the trail's details."""
        return tuple(fact for _, fact in self._facts[mark:])

    def __len__(self) -> int:
        return len(self._facts)
