"""Long alternations searched only where they can match: at the literal text each alternative starts with.

Python's `re` tries every alternative of a pattern at every position of the text. The rules' broad patterns
(dozens of framework guard calls, every way to switch a check off) cost up to a millisecond per kilobyte
that way, and a whole file written is read by several of them. When every alternative of a pattern begins
with literal text (after zero-width assertions such as `\\b` or a look-behind), a match can only start
where one of those literals occurs: `prefiltered(source)` finds those places with `str.find` and tries
the pattern at each, in order, which gives exactly what the pattern's own `search`, `finditer` and
`findall` would. A pattern without such literals is returned as it is.

Case-insensitive literals are found in the lower-cased text only when the text is ASCII: Unicode case
folding is not one character to one (`ſ` matches `s`), so other text is searched by the pattern itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

_SHORTEST = 3  # a shorter leading literal occurs too often to save anything
_COMBINED = 64  # at most this many literals from one literal run and the group after it
_CLASS_WIDTH = 4  # a leading class of at most this many characters (`[Cc]`) is tried one character at a time
_ZERO_WIDTH = frozenset((sre.AT, sre.ASSERT, sre.ASSERT_NOT))
_SHORT_TEXT = 256  # a shorter text costs the pattern less than finding its literals
# Past this share of positions tried one by one, one search from the first of them costs less.
_DENSE = 16


class Prefiltered:
    """A compiled pattern with the literals its matches must start with. Searched like the pattern."""

    __slots__ = ("_exact", "_folded", "groups", "pattern")

    def __init__(self, pattern: re.Pattern[str], exact: tuple[str, ...], folded: tuple[str, ...]) -> None:
        self.pattern = pattern
        self.groups = pattern.groups
        self._exact, self._folded = exact, folded

    def _starts(self, text: str, pos: int) -> list[int] | None:
        """Where a match may start, in order; None when the pattern must search the text itself."""
        if len(text) < _SHORT_TEXT:
            return None
        found: set[int] = set()
        if self._folded:
            if not text.isascii():
                return None
            lowered = text.lower()
            for literal in self._folded:
                at = lowered.find(literal, pos)
                while at >= 0:
                    found.add(at)
                    at = lowered.find(literal, at + 1)
        for literal in self._exact:
            at = text.find(literal, pos)
            while at >= 0:
                found.add(at)
                at = text.find(literal, at + 1)
        if len(found) * _DENSE > len(text):
            return None
        return sorted(found)

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        starts = self._starts(text, pos)
        if starts is None:
            return self.pattern.search(text, pos)
        match = self.pattern.match
        for at in starts:
            found = match(text, at)
            if found is not None:
                return found
        return None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        starts = self._starts(text, 0)
        if starts is None:
            yield from self.pattern.finditer(text)
            return
        match, end = self.pattern.match, 0
        for at in starts:
            if at < end:
                continue
            found = match(text, at)
            if found is not None:
                yield found
                end = max(found.end(), at + 1)

    def findall(self, text: str) -> list[Any]:
        if self.groups == 0:
            return [m.group(0) for m in self.finditer(text)]
        if self.groups == 1:
            return [m.group(1) or "" for m in self.finditer(text)]
        return [m.groups("") for m in self.finditer(text)]

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.pattern.match(text, pos)

    def sub(self, replacement: Any, text: str, count: int = 0) -> str:
        return self.pattern.sub(replacement, text, count)


def prefiltered(source: str, flags: int = 0) -> Prefiltered | re.Pattern[str]:
    """`re.compile(source, flags)`, searched only where one of its alternatives' leading literals occurs; the
    compiled pattern itself when an alternative does not start with literal text at least `_SHORTEST`
    characters long."""
    pattern = re.compile(source, flags)
    parsed = sre_parse.parse(source, pattern.flags)
    literals = _leading(list(parsed), bool(parsed.state.flags & re.IGNORECASE))
    if not literals or any(len(text) < _SHORTEST and text.isascii() for text, _ in literals):
        return pattern  # (a character of another script is rare enough alone)
    exact = _minimal({text for text, folded in literals if not folded})
    folded = _minimal({text for text, folded in literals if folded})
    return Prefiltered(pattern, tuple(sorted(exact)), tuple(sorted(folded)))


def _leading(items: list[tuple[Any, Any]], ignore_case: bool) -> set[tuple[str, bool]] | None:
    """The literal texts a match of `items` must start with, each with whether it is case-insensitive;
    None when some way through `items` starts otherwise."""
    index = 0
    while index < len(items) and items[index][0] in _ZERO_WIDTH:
        index += 1
    if index == len(items):
        return None
    op, value = items[index]
    if op is sre.SUBPATTERN:
        _, add, remove, inner = value
        inner_case = (ignore_case or bool(add & re.IGNORECASE)) and not remove & re.IGNORECASE
        if inner_case != ignore_case:  # (what follows the group is read with other flags: left out)
            return _leading(list(inner), inner_case)
        return _leading(list(inner) + items[index + 1 :], ignore_case)
    if op is sre.BRANCH:
        found: set[tuple[str, bool]] = set()
        for alternative in value[1]:
            leading = _leading(list(alternative) + items[index + 1 :], ignore_case)
            if leading is None:
                return None
            found |= leading
        return found
    heads: list[str]
    if op is sre.LITERAL:
        heads = [chr(value)]
    elif op is sre.IN and len(value) <= _CLASS_WIDTH and all(kind is sre.LITERAL for kind, _ in value):
        heads = [chr(code) for _, code in value]
    else:
        return None
    index += 1
    while index < len(items) and items[index][0] is sre.LITERAL:
        heads = [head + chr(items[index][1]) for head in heads]
        index += 1
    if index < len(items) and items[index][0] in (sre.SUBPATTERN, sre.BRANCH):
        # `:(?:lock|reset)`: the literal goes on into each way through the group
        tails = _leading(items[index:], ignore_case)
        if (
            tails is not None
            and len(tails) * len(heads) <= _COMBINED
            and all(folded == ignore_case for _, folded in tails)
        ):
            heads = [head + tail for head in heads for tail, _ in tails]
    if not ignore_case:
        return {(head, False) for head in heads}
    if any(not char.isascii() and not _never_ascii(char) for head in heads for char in head):
        return None  # (`K`, the Kelvin sign, is `k` to a case-insensitive pattern)
    return {(head.lower(), True) for head in heads}


def _never_ascii(char: str) -> bool:
    """Whether `char`, read case-insensitively, can never match an ASCII character."""
    return not (char.lower().isascii() or char.upper().isascii())


def _minimal(texts: set[str]) -> set[str]:
    """Without a text another one starts with: wherever the longer occurs, the shorter does."""
    return {t for t in texts if not any(o != t and t.startswith(o) for o in texts)}
