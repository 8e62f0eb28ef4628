"""Soft, raise-only detectors for hidden-token and encode-and-exfiltrate shapes (AUTH at most).

(Not named `limen.subjective.detectors`: importing such a submodule would rebind the package's
`detectors()` registry function to the module object.)

- `anomalous_token_pattern`: characters that are unusual rather than proof of an attack: a word mixing Latin
  with look-alike letters (`pаssword`, Cyrillic а) anywhere; fullwidth or mathematical letters that NFKC
  folds to ASCII, and C0/C1 control characters, in a command, path or URL; private-use code points anywhere.
- `oversized_encoded_blob`: a base64-looking run (shape and size only, never decoded) above the mode's size
  in an action that can send data out (light 16 KiB, balanced 4 KiB, strict 2 KiB, paranoid 1 KiB).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator

from limen.context import Context
from limen.model import Action, Finding, Mode, ReasonCode, Verdict
from limen.rules.secrets import action_texts, reaches_outside
from limen.subjective import Detector

_PRIVATE_USE = re.compile(r"[\uE000-\uF8FF\U000F0000-\U000FFFFD\U00100000-\U0010FFFD]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_WORD = re.compile(r"\w{2,}")
_LOOKALIKE_SCRIPTS = ("CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE")
_B64_RUN = re.compile(r"[A-Za-z0-9+/=_\-\r\n]+")
BLOB_LIMITS = {Mode.LIGHT: 16384, Mode.BALANCED: 4096, Mode.STRICT: 2048, Mode.PARANOID: 1024}


def _mixed_script_word(text: str) -> bool:
    for match in _WORD.finditer(text):
        word = match.group(0)
        if word.isascii() or not any(ch.isascii() and ch.isalpha() for ch in word):
            continue
        for ch in word:
            if not ch.isascii() and ch.isalpha():
                name = unicodedata.name(ch, "")
                if name.startswith(_LOOKALIKE_SCRIPTS):
                    return True
    return False


def _folds_to_ascii(text: str) -> bool:
    """Fullwidth `ｒｍ`, mathematical `𝐫𝐦`: letters that NFKC turns into ASCII ones."""
    return any(
        not ch.isascii() and ch.isalnum() and unicodedata.normalize("NFKC", ch).isascii() for ch in text
    )


def _visible_texts(action: Action) -> Iterator[str]:
    if action.command_line:
        yield action.command_line
    yield from action.paths
    yield from (d.url for d in action.destinations if d.url)


def anomalous_token_pattern(action: Action, ctx: Context) -> Iterable[Finding]:
    """Look-alike, compatibility, control and private-use characters (soft signal)."""
    reasons: list[str] = []
    for text in _visible_texts(action):
        if _CONTROL.search(text):
            reasons.append("control characters in a command, path or URL")
        if not text.isascii():
            if _folds_to_ascii(text):
                reasons.append("fullwidth or mathematical letters that fold to ASCII")
            if _mixed_script_word(text):
                reasons.append("a word mixing Latin and look-alike letters")
            if _PRIVATE_USE.search(text):
                reasons.append("private-use characters")
    for payload in action.payloads:
        if not payload.isascii():
            if _PRIVATE_USE.search(payload):
                reasons.append("private-use characters in a payload")
            if _mixed_script_word(payload):
                reasons.append("a payload word mixing Latin and look-alike letters")
    if not reasons:
        return []
    return [Finding(ReasonCode.ANOMALOUS_TOKEN_PATTERN, Verdict.AUTH, 55, reasons[0])]


def _longest_blob(text: str, limit: int) -> int:
    best = 0
    for match in _B64_RUN.finditer(text):
        run = match.group(0)
        if len(run) < limit:
            continue
        body = run.replace("\n", "").replace("\r", "")
        if (
            len(body) >= limit
            and any(c.isdigit() for c in body)
            and any(c.isupper() for c in body)
            and any(c.islower() for c in body)
        ):
            best = max(best, len(body))
    return best


def oversized_encoded_blob(action: Action, ctx: Context) -> Iterable[Finding]:
    """A large base64-looking argument in an action that can carry it out (shape and size only)."""
    limit = BLOB_LIMITS[ctx.mode]
    if len(repr(action.arguments)) < limit and all(len(p) < limit for p in action.payloads):
        return []  # no string can hold a blob this large (repr only lengthens strings)
    if not (reaches_outside(action) or action.capability == "shell.execute"):
        return []
    size = max((_longest_blob(t, limit) for t in action_texts(action) if len(t) >= limit), default=0)
    if not size:
        return []
    return [
        Finding(
            ReasonCode.OVERSIZED_ENCODED_BLOB,
            Verdict.AUTH,
            55,
            f"a {size // 1024} KiB base64-looking blob in an outbound action",
        )
    ]


DETECTORS: tuple[Detector, ...] = (anomalous_token_pattern, oversized_encoded_blob)
