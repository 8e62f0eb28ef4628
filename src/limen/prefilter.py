"""Long alternations searched only where they can match: at the literal text each alternative starts with.

Python's `re` tries every alternative of a pattern at every position of the text. The rules' broad patterns
(dozens of framework guard calls, every way to switch a check off) cost up to a millisecond per kilobyte
that way, and a whole file written is read by several of them. When every alternative of a pattern begins
with literal text (after zero-width assertions such as `\\b` or a look-behind), a match can only start
where one of those literals occurs: `prefiltered(source)` finds those places with `str.find` and tries
the pattern at each, in order, which gives exactly what the pattern's own `search`, `finditer` and
`findall` would. A pattern whose matches need not start with literal text often still cannot match
without some literal text (`\\w*(?:insecure|danger)\\w*\\(`): where none of those literals is in the
text, the pattern is not run at all (`Gated`). A pattern with neither is returned as it is.

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


class _Screened:
    """A compiled pattern and literals its matches need (`_exact` as written, `_folded` lower-cased)."""

    __slots__ = ("_exact", "_folded", "groups", "pattern")

    def __init__(self, pattern: re.Pattern[str], exact: tuple[str, ...], folded: tuple[str, ...]) -> None:
        self.pattern = pattern
        self.groups = pattern.groups
        self._exact, self._folded = exact, folded

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.pattern.match(text, pos)

    def sub(self, replacement: Any, text: str, count: int = 0) -> str:
        return self.pattern.sub(replacement, text, count)


class Prefiltered(_Screened):
    """A compiled pattern with the literals its matches must start with. Searched like the pattern."""

    __slots__ = ()

    def _starts(self, text: str, pos: int) -> list[int] | None:
        """Where a match may start, in order; None when the pattern must search the text itself."""
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
        if len(text) < _SHORT_TEXT:  # (most texts a rule reads: a name, a word, a line)
            return self.pattern.search(text, pos)
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
        starts = self._starts(text, 0) if len(text) >= _SHORT_TEXT else None
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
        if len(text) < _SHORT_TEXT:
            return self.pattern.findall(text)
        if self.groups == 0:
            return [m.group(0) for m in self.finditer(text)]
        if self.groups == 1:
            return [m.group(1) or "" for m in self.finditer(text)]
        return [m.groups("") for m in self.finditer(text)]


class Gated(_Screened):
    """A compiled pattern run only on text that holds one of the literals every match contains."""

    __slots__ = ()

    def _may_match(self, text: str) -> bool:
        if any(literal in text for literal in self._exact):
            return True
        if not self._folded:
            return False
        if not text.isascii():
            return True
        lowered = text.lower()
        return any(literal in lowered for literal in self._folded)

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        if len(text) < _SHORT_TEXT or self._may_match(text):
            return self.pattern.search(text, pos)
        return None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        if len(text) < _SHORT_TEXT or self._may_match(text):
            return self.pattern.finditer(text)
        return iter(())

    def findall(self, text: str) -> list[Any]:
        if len(text) < _SHORT_TEXT or self._may_match(text):
            return self.pattern.findall(text)
        return []


def prefiltered(source: str, flags: int = 0) -> Prefiltered | Gated | re.Pattern[str]:
    """`re.compile(source, flags)`, searched only where one of its alternatives' leading literals occurs, or
    else run only on text that holds a literal each of its alternatives needs; the compiled pattern itself
    when an alternative has no literal text at least `_SHORTEST` characters long."""
    pattern = re.compile(source, flags)
    parsed = sre_parse.parse(source, pattern.flags)
    ignore_case = bool(parsed.state.flags & re.IGNORECASE)
    literals = _leading(list(parsed), ignore_case)
    if literals and not _short(literals):
        exact = _minimal({text for text, folded in literals if not folded})
        folded = _minimal({text for text, folded in literals if folded})
        return Prefiltered(pattern, tuple(sorted(exact)), tuple(sorted(folded)))
    needed = _required(list(parsed), ignore_case)
    if needed and not _short(needed):
        exact = _inner_minimal({text for text, folded in needed if not folded})
        folded = _inner_minimal({text for text, folded in needed if folded})
        return Gated(pattern, tuple(sorted(exact)), tuple(sorted(folded)))
    return pattern


def _short(literals: set[tuple[str, bool]]) -> bool:
    """Some literal is too short to be worth looking for (a character of another script is rare enough)."""
    return any(len(text) < _SHORTEST and text.isascii() for text, _ in literals)


def _required(items: list[tuple[Any, Any]], ignore_case: bool) -> set[tuple[str, bool]] | None:
    """Literal texts one of which every match of `items` contains (each with whether it is case-insensitive),
    from the first item or run of items that has them; None when no item has."""
    run = ""
    for op, value in items:
        if op is sre.LITERAL:
            run += chr(value)
            continue
        if len(run) >= _SHORTEST:
            return _case(run, ignore_case)
        run = ""
        found: set[tuple[str, bool]] | None = None
        if op is sre.SUBPATTERN:
            _, add, remove, inner = value
            inner_case = (ignore_case or bool(add & re.IGNORECASE)) and not remove & re.IGNORECASE
            found = _required(list(inner), inner_case)
        elif op is sre.BRANCH:
            ways = [_required(list(alternative), ignore_case) for alternative in value[1]]
            found = set().union(*ways) if ways and all(ways) else None  # type: ignore[arg-type]
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and value[0] >= 1:
            found = _required(list(value[2]), ignore_case)
        if found and not _short(found):
            return found
    return _case(run, ignore_case) if len(run) >= _SHORTEST else None


def _case(text: str, ignore_case: bool) -> set[tuple[str, bool]] | None:
    if not ignore_case:
        return {(text, False)}
    if any(not char.isascii() and not _never_ascii(char) for char in text):
        return None  # (`K`, the Kelvin sign, is `k` to a case-insensitive pattern)
    return {(text.lower(), True)}


def _inner_minimal(texts: set[str]) -> set[str]:
    """Without a text that holds another one: wherever the longer occurs, the shorter does."""
    return {t for t in texts if not any(o != t and o in t for o in texts)}


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
    literals: set[tuple[str, bool]] = set()
    for head in heads:
        literal = _case(head, ignore_case)
        if literal is None:
            return None
        literals |= literal
    return literals


def _never_ascii(char: str) -> bool:
    """Whether `char`, read case-insensitively, can never match an ASCII character."""
    return not (char.lower().isascii() or char.upper().isascii())


def _minimal(texts: set[str]) -> set[str]:
    """Without a text another one starts with: wherever the longer occurs, the shorter does."""
    return {t for t in texts if not any(o != t and t.startswith(o) for o in texts)}
