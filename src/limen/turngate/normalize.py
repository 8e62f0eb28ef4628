"""Text normalisation for the turn gate: one canonical form so that spelling tricks cannot dodge a pattern.

Attackers hide instructions with compatibility characters, zero-width or Unicode-tag characters, spaced-out
letters and leetspeak. `prepare()` undoes these once per text; the signatures and heuristics then match
plain lowercase words. What was undone is counted, because hiding text is itself a signal.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

# Unicode tag characters (U+E0020..U+E007E) mirror printable ASCII: "ASCII smuggling" hides text in them.
_TAG_BASE = 0xE0000
_TAG_FIRST, _TAG_LAST = 0xE0020, 0xE007E
_TAG_ANY = re.compile("[\U000e0000-\U000e007f]")
# Characters that render as nothing. ZWJ/ZWNJ are legitimate inside emoji and some scripts, so they only
# count as hiding when they sit between two Latin letters; BOM and soft hyphen are common in honest web
# text (Wikipedia coordinates, hyphenation), so they are removed without counting.
_INVISIBLE = re.compile("[\u200b\u2060-\u2064\u180e\u202a-\u202e\u2066-\u2069]")
_HARMLESS_INVISIBLE = re.compile("[\u00ad\ufeff]")
_JOINER_IN_WORD = re.compile("(?<=[A-Za-z])[\u200c\u200d]+(?=[A-Za-z])")
# Text after a right-to-left override (U+202E) is shown reversed, up to the pop (U+202C) or the line's end:
# "elif eht dnes" displays as "send the file". The screen reads it as displayed.
_RTL_OVERRIDE = re.compile("\u202e([^\u202c\n]*)\u202c?")
# Letters spread out by a separator, words by a wider gap: "p l e a s e   f o r w a r d", "s-e-n-d  t-h-e".
# Collapsing blanks would run the words together, so each word is joined before that: a run of at least four
# spread letters (or "@"), separated by one to three spaces, dots, dashes, stars or underscores. Digits are
# left alone (a version, a date, an address). A gap is two blanks, or a dot, "@" or dash between blanks,
# which is kept: "m a i l . e x a m p l e" is "mail.example".
_SPREAD_RUN = re.compile(r"(?<!\S)(?:[^\W\d_@]|@)(?:[ .*_-]{1,3}(?:[^\W\d_]|@)){3,}(?!\S)")
_SPREAD_GAP = re.compile(r"(\s{2,}|\s+[.@-]\s+)")
_SPREAD_SEPARATOR = re.compile(r"[ .*_-]")
# Four or more single letters separated by single spaces: "i g n o r e" (starts with a literal: fast).
_SPACED = re.compile(r" (?:[a-z] ){3,}[a-z](?![a-z])")
# A leet digit before a letter: where a leet-spelt word may be; the word is then found around it.
_LEET_HINT = re.compile(r"[013457][a-z]")
_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789@$")
_LEET = str.maketrans("013457@$", "oieastas")
# A Greek or Cyrillic look-alike of a Latin letter touching a Latin one inside a word (starts on the rare
# class: fast), and those look-alikes mapped back to Latin. Greek letters that look like no Latin one are
# notation, not disguise ("ΔS = Q/T", "λx", "5 μm").
_LOOKALIKES = "аеорсухіѕјԁһӏԛԝαεικνορτυχ"
_MIXED_SCRIPT = re.compile(f"[{_LOOKALIKES}](?:(?<=[a-zA-Z][{_LOOKALIKES}])|(?=[a-zA-Z]))")
_CONFUSABLES = str.maketrans(
    _LOOKALIKES,
    "aeopcyxisjdhlqwaeikvoptux",
)
# Small capitals have no compatibility mapping, so NFKC leaves "ꜱᴇɴᴅ" alone; they only ever imitate letters.
_SMALL_CAPS = str.maketrans("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ", "abcdefghijklmnoprstuvwyz")
_SMALL_CAPS_ANY = re.compile("[ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ]")
# Bytes that belong to a word; everything else splits words (non-ASCII bytes too: triggers are ASCII).
_WORD_BYTES = bytes(c if (97 <= c <= 122 or 48 <= c <= 57) else 32 for c in range(256))

# Words whose leet or spaced spelling is only ever used to slip past a filter.
TRIGGER_WORDS = frozenset(
    {
        "ignore",
        "disregard",
        "forget",
        "previous",
        "instructions",
        "instruction",
        "system",
        "prompt",
        "password",
        "passwords",
        "secret",
        "secrets",
        "admin",
        "jailbreak",
        "bypass",
        "override",
        "reveal",
        "credentials",
        "token",
    }
)


@dataclass(slots=True, frozen=True)
class Prepared:
    """A text in the forms the matchers need, and what normalisation had to undo."""

    raw: str  # NFKC form with hidden characters removed, case kept (for encodings and addresses)
    norm: str  # lowercased, whitespace collapsed (newlines kept as one "\n")
    flat: str  # `norm` with spaced letters joined, leet words and look-alike letters decoded
    hidden_chars: int  # zero-width, bidi and tag characters removed
    mixed_script: bool  # a word mixes Latin with Greek or Cyrillic look-alikes (undone in `flat`)
    smuggled: str  # text that was hidden in Unicode tag characters, decoded
    disguised_triggers: int  # trigger words written in leet or spaced letters
    words: frozenset[bytes]  # the distinct ASCII words of `flat`, for gates


class Lazy:
    """A pattern compiled on first use. The gate has dozens of large patterns and a text usually opens
    only a few of their gates, so a hook process that lives for one call compiles only those."""

    __slots__ = ("_compiled", "source")

    def __init__(self, source: str) -> None:
        self.source = source
        self._compiled: re.Pattern[str] | None = None

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        if self._compiled is None:
            self._compiled = re.compile(self.source)
        return self._compiled.search(text, pos, endpos)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        if self._compiled is None:
            self._compiled = re.compile(self.source)
        return self._compiled.finditer(text)


# How far a pattern's match may start before, and end after, one of its anchor words.
_BACK, _FORWARD = 160, 320
# The most text one pattern search reads. Windows around nearby anchors are searched together, but never
# more than this at once: dense anchors (a word repeated through a megabyte) must not turn the whole text
# into one window that a pattern rescans from every sentence start in it. Each window still lies whole in
# one search, so what a window can match is found.
_SPAN = 8 * (_BACK + _FORWARD)


@dataclass(slots=True, frozen=True)
class Gate:
    """Anchors for an expensive pattern: it can only match near one of these words or substrings.

    Python's regex engine costs tens of nanoseconds per position for patterns that start with a word
    boundary, so scanning a long text with a dozen patterns is slow. A gate first checks the anchors
    against the text's word set (O(1) each), then runs the pattern only on windows around them.
    """

    words: frozenset[bytes] = frozenset()
    subs: tuple[str, ...] = ()
    needs: str = ""  # a substring every match contains, checked before anything else
    also: frozenset[bytes] = frozenset()  # when set, every match also contains one of these words

    def _possible(self, p: Prepared, text: str) -> bool:
        return (not self.needs or self.needs in text) and (not self.also or not self.also.isdisjoint(p.words))

    def open(self, p: Prepared) -> bool:
        if not self._possible(p, p.flat):
            return False
        return not self.words.isdisjoint(p.words) or any(s in p.flat for s in self.subs)

    def search(self, pattern: Lazy, p: Prepared, text: str) -> bool:
        """Whether `pattern` matches `text` (a form of `p`) in a window around an anchor."""
        if not self._possible(p, text):
            return False
        anchors = [w.decode() for w in self.words & p.words] + [s for s in self.subs if s in text]
        spans: list[tuple[int, int]] = []
        for anchor in anchors:
            at = text.find(anchor)
            while at >= 0:
                spans.append((max(0, at - _BACK), at + len(anchor) + _FORWARD))
                at = text.find(anchor, at + 1)
        spans.sort()
        lo, hi = -1, -1
        for start, end in spans:
            if start > hi or end - lo > _SPAN:
                if hi > lo and pattern.search(text, lo, hi):
                    return True
                lo, hi = start, end
            else:
                hi = max(hi, end)
        return hi > lo and pattern.search(text, lo, hi) is not None


def gate(words: str = "", subs: tuple[str, ...] = (), needs: str = "", also: str = "") -> Gate:
    """A gate from space-separated words (as `Prepared.words` splits them) and substrings."""
    return Gate(
        frozenset(w.encode() for w in words.split()), subs, needs, frozenset(w.encode() for w in also.split())
    )


def _untag(text: str) -> tuple[str, str]:
    """Remove tag characters, returning the text without them and what they spelled."""
    hidden = "".join(chr(ord(c) - _TAG_BASE) for c in text if _TAG_FIRST <= ord(c) <= _TAG_LAST)
    return _TAG_ANY.sub("", text), hidden


def _collapse(text: str) -> str:
    """Runs of blanks become one space, runs of line breaks one newline (str.split is much faster than re)."""
    return "\n".join(line for line in (" ".join(part.split()) for part in text.splitlines()) if line)


def _unleet(text: str) -> tuple[str, int]:
    """Decode words written with leet digits ("1gn0r3" -> "ignore"); count the trigger words among them."""
    pieces: list[str] = []
    last = 0
    examined = 0  # end of the last token looked at: each token is expanded once, so this stays linear
    triggers = 0
    for hint in _LEET_HINT.finditer(text):
        start, end = hint.start(), hint.end()
        if start < examined:
            continue
        while start > last and text[start - 1] in _TOKEN_CHARS:
            start -= 1
        while end < len(text) and text[end] in _TOKEN_CHARS:
            end += 1
        examined = end
        word = text[start:end].translate(_LEET)
        if word.isalpha():
            pieces += (text[last:start], word)
            last = end
            triggers += word in TRIGGER_WORDS
    pieces.append(text[last:])
    return "".join(pieces), triggers


def _unspread(text: str) -> tuple[str, int]:
    """Each run of spread letters as its words (single characters joined, a wider gap kept as one space,
    or as its dot, "@" or dash); the trigger words among them are counted."""
    triggers = 0

    def words(match: re.Match[str]) -> str:
        nonlocal triggers
        parts = _SPREAD_GAP.split(match.group(0))
        joined = "".join(
            (part.strip() or " ") if i % 2 else _SPREAD_SEPARATOR.sub("", part)
            for i, part in enumerate(parts)
        )
        triggers += sum(w in TRIGGER_WORDS for w in joined.split())
        return joined

    return _SPREAD_RUN.sub(words, text), triggers


def prepare(text: str) -> Prepared:
    """Normalise once; every matcher reads the result."""
    text = unicodedata.normalize("NFKC", text)
    hidden = 0
    if "\u202e" in text:
        text = _RTL_OVERRIDE.sub(lambda m: m.group(1)[::-1], text)
        hidden += 3  # text written backwards behind an override is hiding, whatever it says
    smuggled = ""
    if _TAG_ANY.search(text):
        before = len(text)
        text, smuggled = _untag(text)
        hidden += before - len(text)
    stripped = _INVISIBLE.sub("", text)
    if "\u200c" in stripped or "\u200d" in stripped:
        stripped = _JOINER_IN_WORD.sub("", stripped)
    hidden += len(text) - len(stripped)
    stripped = _HARMLESS_INVISIBLE.sub("", stripped)
    raw = stripped if not smuggled else f"{stripped}\n{smuggled}"
    disguised = 0
    lowered = raw.lower()
    if _SMALL_CAPS_ANY.search(lowered):
        lowered = lowered.translate(_SMALL_CAPS)
    if _SPREAD_RUN.search(lowered):
        lowered, disguised = _unspread(lowered)
    norm = _collapse(lowered)

    def join(match: re.Match[str]) -> str:
        nonlocal disguised
        word = match.group(0).replace(" ", "")
        disguised += word in TRIGGER_WORDS
        return " " + word

    padded = " " + norm  # the spaced-letter pattern starts with a space
    flat = _SPACED.sub(join, padded)[1:] if _SPACED.search(padded) else norm
    mixed = _MIXED_SCRIPT.search(norm) is not None
    if mixed:
        flat = flat.translate(_CONFUSABLES)
    if _LEET_HINT.search(flat):
        flat, leet_triggers = _unleet(flat)
        disguised += leet_triggers
    words = frozenset(flat.encode("utf-8", "ignore").translate(_WORD_BYTES).split())
    return Prepared(raw, norm, flat, hidden, mixed, smuggled, disguised, words)
