"""Objective rules: tokens smuggled through characters a person reviewing the call cannot see.

`smuggled_token_channel` fires on deterministic signatures with next to no legitimate use:
- Unicode tag characters (U+E0000-E007F, "ASCII smuggling") and runs of variation selectors (bytes hidden
  behind one visible glyph), anywhere in a command, path, host or payload: BLOCK. The emoji subdivision
  flags (black flag + tags + cancel tag) are the one legitimate tag sequence and are ignored.
- Bidirectional controls (U+202A-202E, U+2066-2069; "Trojan Source"): BLOCK in a command line, a path or a
  host, where they make what runs differ from what is shown; AUTH in a payload, where right-to-left text has
  rare legitimate uses.
- Zero-width characters (U+200B-200D, U+2060, U+FEFF, U+180E) between letters or digits, i.e. inside an
  identifier, a word of a command, a path or a host name: AUTH (a byte-order mark at the very start of a
  text, and a zero-width joiner inside an emoji sequence, are normal).
- A host whose letters mix Latin with a look-alike script, or are wholly look-alike (`normalize.net` flags
  "homoglyph"), or that had invisible characters stripped: BLOCK when its confusable skeleton equals a
  trusted host's (a spoof of a host the user trusts), AUTH otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from limen.context import Context
from limen.model import Action, Destination, Finding, ReasonCode, Verdict
from limen.normalize.net import skeleton, to_unicode
from limen.rules import rule

_TAGS = re.compile(r"[\U000E0000-\U000E007F]")
_FLAG_SEQUENCE = re.compile(r"\U0001F3F4[\U000E0020-\U000E007E]+\U000E007F")
_VARIATION_RUN = re.compile(r"[\uFE00-\uFE0F\U000E0100-\U000E01EF]{2,}")
_BIDI = re.compile(r"[\u202A-\u202E\u2066-\u2069]")
_ZERO_WIDTH_INSIDE = re.compile(r"(?<=[A-Za-z0-9_])[\u200B-\u200D\u2060\uFEFF\u180E]+(?=[A-Za-z0-9_])")

BLOCK_RISK = 95
AUTH_RISK = 70


def _tags(text: str) -> bool:
    return bool(_TAGS.search(_FLAG_SEQUENCE.sub("", text))) or bool(_VARIATION_RUN.search(text))


def text_signatures(text: str, *, visible_context: bool) -> list[tuple[Verdict, str]]:
    """Token-channel signatures in one text. `visible_context`: a command, path or host (bidi is BLOCK)."""
    if text.isascii():
        return []
    found: list[tuple[Verdict, str]] = []
    if _tags(text):
        found.append((Verdict.BLOCK, "invisible Unicode tag or variation-selector characters"))
    if _BIDI.search(text):
        found.append((Verdict.BLOCK if visible_context else Verdict.AUTH, "bidirectional control characters"))
    if _ZERO_WIDTH_INSIDE.search(text):
        found.append((Verdict.AUTH, "zero-width characters inside a word"))
    return found


def _trusted_skeletons(ctx: Context) -> set[str]:
    return {skeleton(h.lstrip("*.")) for h in ctx.trusted_hosts if h.strip("*.")}


def _host_signature(dest: Destination, ctx: Context) -> tuple[Verdict, str] | None:
    if not {"homoglyph", "invisible_chars", "nfkc_mapped"} & set(dest.flags):
        return None
    shown = to_unicode(dest.host)
    key = skeleton(shown)
    trusted = _trusted_skeletons(ctx)
    spoof = any(key == t or key.endswith("." + t) for t in trusted)
    if "homoglyph" in dest.flags:
        if spoof:
            return Verdict.BLOCK, f"{dest.host} imitates a trusted host with look-alike letters"
        return Verdict.AUTH, f"{dest.host} mixes look-alike scripts"
    return Verdict.AUTH, f"{dest.host} was written with invisible or compatibility characters"


def _texts(action: Action) -> Iterator[tuple[str, bool]]:
    """(text, visible_context) pairs: command line, paths and URLs are visible context; payloads are not."""
    if action.command_line:
        yield action.command_line, True
    for path in action.paths:
        yield path, True
    for dest in action.destinations:
        if dest.url:
            yield dest.url, True
    for payload in action.payloads:
        yield payload, False


@rule(ReasonCode.SMUGGLED_TOKEN_CHANNEL)
def smuggled_tokens(action: Action, ctx: Context) -> Iterable[Finding]:
    """Hidden channels in what an action carries: Unicode tag characters, bidirectional overrides and
    zero-width characters inside words, and look-alike (homoglyph or punycode) hosts: AUTH or BLOCK by how
    clearly hidden. Quiet: ordinary non-ASCII text, emoji sequences, real internationalised hosts."""
    signatures: list[tuple[Verdict, str]] = []
    for text, visible in _texts(action):
        signatures.extend(text_signatures(text, visible_context=visible))
    for dest in action.destinations:
        host_sig = _host_signature(dest, ctx)
        if host_sig is not None:
            signatures.append(host_sig)
    if not signatures:
        return []
    verdict, detail = max(signatures, key=lambda s: s[0])
    return [
        Finding(
            ReasonCode.SMUGGLED_TOKEN_CHANNEL,
            verdict,
            BLOCK_RISK if verdict is Verdict.BLOCK else AUTH_RISK,
            detail,
        )
    ]
