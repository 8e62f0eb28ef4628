"""Post-hoc scanning of what a tool returned, and the value matching the session floors rely on.

- `encoded_variants`: a text plus what its URL-encoded, base64 and hex parts decode to, so a secret cannot
  leave by being encoded first.
- `contains_fingerprint`: whether a text holds a value whose keyed fingerprint (and length) is known, without
  ever having the value: candidate windows start where a token starts; `secret_fingerprints` also keeps
  normalised forms and fixed-length windows, so case, separators, reversal and partial copies match too.
- `extract_values`: the distinctive values a text mentions (emails, URLs and host names, IBANs, phone numbers,
  file names, identifiers, quoted strings, proper names, calendar days), normalised, for provenance;
  `destination_key`: the same key for one address or host name, so a destination can be looked up.
- `segments`: an output split into records, so injected instructions mark only the record that carries them.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from limen.model import Finding, Mode, ReasonCode, Verdict

if TYPE_CHECKING:
    from limen.state import SessionStore

_B64 = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX = re.compile(r"\b(?:[0-9a-fA-F]{2}){8,}\b")
_TOKEN_START = re.compile(r"(?:^|(?<=[^A-Za-z0-9]))[A-Za-z0-9]")
MAX_SCAN_CHARS = 2_000_000
# Value label of clean tool output. The user's own words keep `limen.state.TRUSTED` (from
# `Runtime.observe_prompt`), so a rule can tell "the user named it" from "the agent looked it up".
CLEAN = "clean"


def _printable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text or sum(ch.isprintable() or ch in "\n\r\t" for ch in text) < 0.9 * len(text):
        return None
    return text


def _decode_b64(blob: str) -> str | None:
    padded = blob + "=" * (-len(blob) % 4)
    for decoder in (lambda b: base64.b64decode(b, validate=True), base64.urlsafe_b64decode):
        try:
            text = _printable(decoder(padded))
        except (binascii.Error, ValueError):
            continue
        if text:
            return text
    return None


# Encodings spread over lines or pairs: base64 wrapped at any width, hex written `5a:6b:...` or `5a 6b ...`.
# Both start only where a run starts and never give back what they read, so a long run is read once.
_WRAPPED_B64 = re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{8,}+(?:\r?\n[ \t]*+[A-Za-z0-9+/]{4,}+={0,2})++")
_SPACED_HEX = re.compile(r"(?<![0-9a-fA-F])[0-9a-fA-F]{2}(?:[ :][0-9a-fA-F]{2}){8,}+")
_SPREAD_SEPARATORS = re.compile(r"[\s:]+")
# An encoding cut into DNS labels (`<label>.<label>.evil.example`), and base32, the encoding DNS allows.
# Tried once per run of letters and digits (a start inside a run can only fail where its start failed),
# so a long run is not rescanned from each of its positions.
_DOTTED = re.compile(r"(?<![A-Za-z0-9])((?:[A-Za-z0-9]{12,}+\.){2,}+)([A-Za-z0-9]{1,11}+)?")
_B32 = re.compile(r"(?<![A-Za-z0-9])[A-Za-z2-7]{16,}+=*")


def _decode_b32(blob: str) -> str | None:
    core = blob.rstrip("=").upper()
    while len(core) % 8 in (1, 3, 6):
        core = core[:-1]  # no base32 text ends there: a label cut it, decode what came before
    try:
        return _printable(base64.b32decode(core + "=" * (-len(core) % 8)))
    except (binascii.Error, ValueError):
        return None


def _decode_once(text: str) -> list[str]:
    out: list[str] = []
    if "%" in text:
        decoded = unquote(text)
        if decoded != text:
            out.append(decoded)
    if "+" in text and "%" in text:
        out.append(unquote(text.replace("+", " ")))
    if "\n" in text:
        out.extend(_SPREAD_SEPARATORS.sub("", m.group(0)) for m in _WRAPPED_B64.finditer(text))
    if " " in text or ":" in text:
        out.extend(_SPREAD_SEPARATORS.sub("", m.group(0)) for m in _SPACED_HEX.finditer(text))
    for blob in _B64.findall(text):
        decoded_b64 = _decode_b64(blob)
        if decoded_b64:
            out.append(decoded_b64)
    for blob in _HEX.findall(text):
        decoded_hex = _printable(bytes.fromhex(blob))
        if decoded_hex:
            out.append(decoded_hex)
    if "." in text:
        for m in _DOTTED.finditer(text):  # the long labels, and with the short one that may end them
            out.append(m.group(1).replace(".", ""))
            if m.group(2):
                out.append(m.group(0).replace(".", ""))
    for blob in _B32.findall(text):
        decoded_b32 = _decode_b32(blob)
        if decoded_b32:
            out.append(decoded_b32)
    return out


def encoded_variants(text: str, depth: int = 2) -> list[str]:
    """The text and every decoding of its URL-encoded, base64, base32 and hex parts (base64 wrapped over
    lines, hex written in spaced or colon-separated pairs, an encoding cut into DNS labels included),
    nested up to `depth` levels."""
    variants = [text[:MAX_SCAN_CHARS]]
    frontier = variants[:]
    for _ in range(depth + 1):  # one more round: a spread encoding is first joined, then decoded
        found = [d for t in frontier for d in _decode_once(t) if d not in variants]
        if not found:
            break
        variants.extend(found)
        frontier = found
    return variants


# --------------------------------------------------------------------------- taint that survives reformatting
#
# A secret read in a session is kept as keyed fingerprints, never as itself (`secret_fingerprints`):
# - the value as read, with its length (> 0 in the taint map): found where a token starts, unless its
#   normalised forms already find every copy of it (`COVERED` is added to the length then);
# - its normalised form (lower case, letters and digits only, so case, separators and whitespace do not
#   matter): when short, the whole form and its reverse (`SHORT_MARK - length`), found where a token starts;
#   else every window of `WINDOW` characters, forwards and reversed (`WINDOW_MARK`). An outgoing text is
#   normalised alike and probed every `WINDOW_STEP` characters, so any run of `WINDOW + WINDOW_STEP - 1`
#   normalised characters it shares with a secret (16 of a 40-character token) holds a probed window.
# Probing costs one keyed hash per `WINDOW_STEP` characters (and one per token start for short secrets);
# decodings (URL, base64, hex, wrapped or spaced) come from `encoded_variants`.
WINDOW = 12
WINDOW_STEP = 4
WINDOW_MARK = -1
SHORT_MARK = -100
MIN_NORMALISED = 8
MAX_WINDOWS = 2048
MAX_REVERSED_WINDOWS = 256
MAX_TAINT_ENTRIES = 8192  # per output scanned: a dump of many keys still costs a bounded taint table
MAX_PROBE_CHARS = 1_000_000
COVERED = 1 << 30  # added to a value's length when its normalised forms find every copy of it
_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
_PEM_ARMOUR = re.compile(r"-----[A-Z0-9 ]+-----|^[A-Za-z-]+: .*$", re.MULTILINE)
_JWT = re.compile(r"^eyJ[\w-]+\.[\w-]+\.([\w-]+)$")
# Public keys are meant to be shared, and an ssh private key holds its public half: they never match by
# window (their exact value still does).
_PUBLIC_MATERIAL = re.compile(
    r"-----BEGIN (?:[A-Z0-9 ]*PUBLIC KEY|CERTIFICATE)-----.*?(?:-----END[^\n]*|\Z)|"
    r"(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com) AAAA[A-Za-z0-9+/=]++",
    re.DOTALL,
)
_PREAMBLE = 64  # characters of a key body that every key of its kind shares (ASN.1 or openssh header)
_derived: dict[int, tuple[Callable[[str], str], bytes]] = {}


def _normalised(text: str) -> str:
    return _NOT_ALNUM.sub("", text.lower())


def _distinctive_core(secret: str) -> str:
    """The part of a secret that only it has: a key's body without its armour and preamble, a JWT's
    signature (every JWT of an issuer shares its header, most its claims' names)."""
    if "-----BEGIN" in secret:
        body = _normalised(_PEM_ARMOUR.sub("", secret))
        return body[_PREAMBLE:] if len(body) > 2 * _PREAMBLE else body
    jwt = _JWT.match(secret)
    if jwt is not None and len(jwt.group(1)) >= 16:
        return jwt.group(1)
    return secret


def _normal_key(fingerprint: Callable[[str], str]) -> bytes:
    """A key for the normalised forms, derived from the installation's fingerprint key (so just as secret),
    for a keyed BLAKE2b: one call per probe, cheaper than the HMAC."""
    entry = _derived.get(id(fingerprint))
    if entry is None or entry[0] is not fingerprint:
        if len(_derived) >= 16:
            _derived.clear()
        seed = fingerprint("limen:normalised-taint:v1")
        entry = (fingerprint, hashlib.sha256(seed.encode()).digest())
        _derived[id(fingerprint)] = entry
    return entry[1]


def _nfp(key: bytes, value: str) -> str:
    return hashlib.blake2b(value.encode(), key=key, digest_size=16).hexdigest()


def _distinctive(window: str) -> bool:
    """A window that could only come from a token: letters and digits, and not a run of few characters."""
    return not window.isalpha() and not window.isdigit() and len(set(window)) >= 6


PRINTED_LINES = 32  # lines of a printed credential kept as secrets (a password manager's item is short)
_PRINTED_VALUE = re.compile(r"^\s*(?:[\w .-]{1,40}\s*[:=]\s*)?(\S.{6,4095}?)\s*$")


def printed_values(output: str) -> list[str]:
    """The values a credential-printing command wrote: each line's value (after a `key:` or `KEY=` label,
    when it has one), 8 characters or longer; what matches no secret shape is a secret all the same."""
    values: list[str] = []
    for line in output.splitlines()[:PRINTED_LINES]:
        match = _PRINTED_VALUE.match(line)
        if match:
            values.append(match.group(1).strip("\"'"))
    return [v for v in values if len(v) >= 8]


def secret_fingerprints(secrets: Iterable[str], fingerprint: Callable[[str], str]) -> dict[str, int]:
    """The taint entries of secrets read: keyed fingerprints only (see above), a bounded number per secret."""
    out: dict[str, int] = {}
    key = b""
    for secret in secrets:
        raw = fingerprint(secret)
        out[raw] = len(secret)
        normal = _normalised(_distinctive_core(secret))
        if len(normal) < MIN_NORMALISED:
            continue
        key = key or _normal_key(fingerprint)
        if len(normal) < WINDOW + WINDOW_STEP - 1:
            out[_nfp(key, normal)] = SHORT_MARK - len(normal)
            out[_nfp(key, normal[::-1])] = SHORT_MARK - len(normal)
            out[raw] = len(secret) + COVERED
            continue
        kept = 0
        for i in range(len(normal) - WINDOW + 1):
            window = normal[i : i + WINDOW]
            if len(out) >= MAX_TAINT_ENTRIES:
                break  # past the bound, later secrets keep their exact fingerprint only
            if not _distinctive(window):
                continue
            out[_nfp(key, window)] = WINDOW_MARK
            if kept < MAX_REVERSED_WINDOWS:
                out[_nfp(key, window[::-1])] = WINDOW_MARK
            kept += 1
            if kept >= MAX_WINDOWS:
                break
        if kept:  # every copy of it holds a window: no need to probe it raw
            out[raw] = len(secret) + COVERED
    return out


def _normalised_starts(text: str) -> tuple[str, list[int]]:
    """The normalised text and where, in it, each token of the original starts."""
    parts: list[str] = []
    starts: list[int] = []
    length = pos = 0
    for match in _TOKEN_START.finditer(text):
        part = _normalised(text[pos : match.start()])
        parts.append(part)
        length += len(part)
        starts.append(length)
        pos = match.start()
    parts.append(_normalised(text[pos:]))
    return "".join(parts), starts


def _contains_normalised(
    text: str, marks: set[int], fingerprint: Callable[[str], str], targets: Mapping[str, int]
) -> bool:
    if "-----BEGIN" in text or "AAAA" in text:
        text = _PUBLIC_MATERIAL.sub(" ", text)
    text = text[:MAX_PROBE_CHARS]
    key = _normal_key(fingerprint)
    short = sorted(SHORT_MARK - m for m in marks if m <= SHORT_MARK)
    if short:
        normal, starts = _normalised_starts(text)
        for start in starts:
            for size in short:
                if start + size > len(normal):
                    break
                if _nfp(key, normal[start : start + size]) in targets:
                    return True
    else:
        normal = _normalised(text)
    if WINDOW_MARK in marks:
        for start in range(0, len(normal) - WINDOW + 1, WINDOW_STEP):
            if _nfp(key, normal[start : start + WINDOW]) in targets:
                return True
    return False


def contains_fingerprint(
    text: str, lengths: Iterable[int], fingerprint: Callable[[str], str], targets: Mapping[str, int]
) -> bool:
    """True when a substring of `text` that starts a token has one of the `targets` fingerprints, or when
    the text, normalised, holds a secret's normalised form or a window of it (negative lengths)."""
    marks = set(lengths)
    sizes = sorted(size for size in marks if 0 < size < COVERED)
    for match in _TOKEN_START.finditer(text) if sizes else ():
        start = match.start()
        for size in sizes:
            if start + size > len(text):
                break
            if fingerprint(text[start : start + size]) in targets:
                return True
    if any(mark < 0 for mark in marks):
        return _contains_normalised(text, {m for m in marks if m < 0}, fingerprint, targets)
    return False


def secret_leaves(
    texts: Iterable[str], fingerprint: Callable[[str], str], targets: Mapping[str, int]
) -> bool:
    """Whether any text, or any decoding of it, carries a fingerprinted secret."""
    if not targets:
        return False
    lengths = set(targets.values())
    return any(
        contains_fingerprint(variant, lengths, fingerprint, targets)
        for text in texts
        for variant in encoded_variants(text)
    )


# Provenance values. Each pattern yields a kind and a normalised value; the same extractor runs on untrusted
# content and on the arguments of a later call, so both sides normalise alike.
# These run over whole tool outputs (megabytes), so each costs a bounded amount per character: no
# unbounded run is rescanned from every position inside it (`tests/test_scan_linear.py` measures them).
# `_EMAIL` reads a run of address characters once (possessive) and a domain only where an `@` ends it;
# `_PHONE` is tried once per run of phone characters (`_phones`); `_IDENT` checks for its letter and its
# digit in the match (`_LETTER_AND_DIGIT`) instead of looking ahead from every word boundary of a run.
# Where a pattern starts at a word boundary, it starts with its first character's class and checks the
# boundary after it (`_WORD_START`): the engine then skips in C to the characters that can start a match
# instead of trying every position. And a pattern runs only when the text holds what it needs (an `@`,
# `://`, a month's name).
_WORD_START = r"(?<!\w.)"  # after a first character that is a word character: `\b` before it
_EMAIL = re.compile(r"[A-Za-z0-9._%+-]++(@[A-Za-z0-9-]++(?:\.[A-Za-z0-9-]++)+)?")
_URL = re.compile(r"\b(?:https?|ftp)://[^\s<>\"'`)\]}]+", re.IGNORECASE)
_LABEL = r"(?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\."  # the rest of a host name's label, after its first character
_HOST = re.compile(
    rf"[A-Za-z0-9](?<![@\w.-].){_LABEL}(?:[A-Za-z0-9]{_LABEL})*[A-Za-z](?:[A-Za-z0-9-]{{0,22}}[A-Za-z0-9])(?![\w@-])"
)
_IBAN = re.compile(rf"[A-Z]{_WORD_START}[A-Z]\d{{2}}(?: ?[A-Z0-9]){{10,30}}\b")
_PHONE_RUN = re.compile(r"[+\d](?<![\w.].)(?:(?<=\+)\d|(?<=\d))[\d ().-]*+")
_PHONE = re.compile(r"\+?\d[\d ().-]{6,}\d(?![\w.])")
_IDENT = re.compile(rf"[A-Za-z0-9]{_WORD_START}[A-Za-z0-9_-]{{4,}}\b")
_LETTER_AND_DIGIT = re.compile(r"(?=[^A-Za-z]*+[A-Za-z])[^0-9_]*+[0-9_]")
_LONG_NUMBER = re.compile(rf"\d{_WORD_START}\d{{5,}}\b")
_QUOTED = re.compile(r"'([^'\n]{2,80})'|\"([^\"\n]{2,80})\"|`([^`\n]{2,80})`|“([^”\n]{2,80})”")
_PROPER = re.compile(rf"[A-Z]{_WORD_START}[a-z]+(?:[ -](?:[A-Z][a-z]+|of|de|la|van|von)){{1,4}}\b")
_SPACES = re.compile(r"\s+")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_ISO_DATE = re.compile(rf"\d{_WORD_START}\d{{3}}-(\d{{2}})-(\d{{2}})\b")
_DAY_MONTH = re.compile(
    rf"(\d{_WORD_START}\d?)(?:st|nd|rd|th)?(?:\s*(?:to|until|through|and|-|–)\s*(?:the\s+)?{_DAY})?\s+(?:of\s+)?"
    rf"{_MONTH}\b",
    re.IGNORECASE,
)
_MONTH_DAY = re.compile(rf"\b{_MONTH}\s+{_DAY}\b(?!:)", re.IGNORECASE)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _norm(value: str) -> str:
    return _SPACES.sub(" ", value).strip().strip(".,;:!?").lower()


def extract_values(text: str) -> set[str]:
    """Distinctive values a text mentions, as `kind:normalised` strings (never stored: fingerprinted)."""
    if len(text) <= CACHED_VALUES_TEXT:
        return set(_values_of_short_text(text))
    return _extract_values(text)


# Texts up to this size have their values remembered (extraction is a pure function of the text): the
# provenance floor extracts the values of every argument of every side effect once a session took in
# untrusted content, and an agent repeats its arguments.
CACHED_VALUES_TEXT = 4096


@lru_cache(maxsize=1024)
def _values_of_short_text(text: str) -> frozenset[str]:
    return frozenset(_extract_values(text))


def _extract_values(text: str) -> set[str]:
    text = text[:MAX_SCAN_CHARS]
    values: set[str] = set()
    if "@" in text:
        values.update("email:" + m.group(0).lower().strip(".") for m in _EMAIL.finditer(text) if m.group(1))
    for url in _URL.findall(text) if "://" in text else ():
        values.add("url:" + url.lower().rstrip(".,;:!?/"))
    for host in _HOST.findall(text):
        values.update("host:" + h for h in _host_readings(host))
    for iban in _IBAN.findall(text):
        values.add("iban:" + iban.replace(" ", ""))
    for phone in _phones(text):
        digits = re.sub(r"\D", "", phone)
        if 8 <= len(digits) <= 15 and not _DATE.match(phone):
            values.add("phone:" + digits)
    values.update(
        "id:" + m.group(0).lower() for m in _IDENT.finditer(text) if _LETTER_AND_DIGIT.match(m.group(0))
    )
    for number in _LONG_NUMBER.findall(text):
        values.add("id:" + number)
    for groups in _QUOTED.findall(text):
        quoted = _norm(next(g for g in groups if g))
        if quoted:
            values.add("quote:" + quoted)
    values |= _dates(text)
    for name in _PROPER.findall(text):
        words = _norm(name).split(" ")
        values.add("name:" + " ".join(words))
        if len(words) > 2:  # the first word may only be capitalised because it starts a sentence
            values.add("name:" + " ".join(words[1:]))
    return values


def _phones(text: str) -> Iterator[str]:
    """What `_PHONE` finds, tried once per run of phone characters: when the run's first start does not
    match, no later start in it can (it only has fewer characters to end on), and when it does, the match
    ends at the run's last possible end, so the rest of the run holds no other."""
    for run in _PHONE_RUN.finditer(text):
        phone = _PHONE.match(text, run.start())
        if phone is not None:
            yield phone.group(0)


def _host_readings(host: str) -> list[str]:
    """A host name as keyed, and without a capitalised last label when the writer left out the space after a
    full stop (`our-company.com.They`): TLDs are not written capitalised, sentences are."""
    labels = host.split(".")
    readings = [host.lower()]
    if len(labels) > 2 and labels[-1][0].isupper() and labels[-2].islower():
        readings.append(".".join(labels[:-1]).lower())
    return [h[4:] if h.startswith("www.") else h for h in readings]


def destination_key(value: str) -> str:
    """The `extract_values` key of one email address or host name as a whole ("" if it is neither), so a
    destination matches only what a text spelled in full: `evil.example.com` is not `example.com`."""
    value = value.strip()
    email = _EMAIL.fullmatch(value)
    if email is not None and email.group(1):
        return "email:" + value.lower().strip(".")
    if _HOST.fullmatch(value):
        host = value.lower()
        return "host:" + (host[4:] if host.startswith("www.") else host)
    return ""


def _dates(text: str) -> set[str]:
    """Calendar days however written (`2024-05-01`, `May 1st`, `the 1st to the 5th of May`), as month-day.
    The month patterns run only when a month's name occurs (case-folded, as they match it)."""
    days: set[tuple[int, int]] = (
        {(int(m), int(d)) for m, d in _ISO_DATE.findall(text)} if "-" in text else set()
    )
    folded = text.casefold()
    if any(month in folded for month in _MONTHS):
        for first, last, month in _DAY_MONTH.findall(text):
            days.update((_month_number(month), int(d)) for d in (first, last) if d)
        for month, day in _MONTH_DAY.findall(text):
            days.add((_month_number(month), int(day)))
    return {f"date:{m:02d}-{d:02d}" for m, d in days if 1 <= m <= 12 and 1 <= d <= 31}


def _month_number(name: str) -> int:
    """1-12 for a month's name as the case-insensitive patterns match it (`ſep` folds to `sep`), else 0."""
    folded = name.casefold()[:3]
    return _MONTHS.index(folded) + 1 if folded in _MONTHS else 0


def argument_values(strings: Iterable[str]) -> set[str]:
    """The values a call's arguments carry: what `extract_values` finds, and each short argument whole."""
    values: set[str] = set()
    for text in strings:
        values |= extract_values(text)
        whole = _norm(text)
        if 2 <= len(whole) <= 80:
            values.add("quote:" + whole)
            if " " in whole:
                values.add("name:" + whole)
    return values


_TOP_ITEM = re.compile(r"^- ", re.MULTILINE)


def segments(output: str) -> list[str]:
    """Records of an output: its top-level YAML/Markdown list items, else the whole output.

    Never finer than a record: an injected block spreads its instructions and its payload (the address, the
    account) over several paragraphs, and they must stay together.
    """
    output = output[:MAX_SCAN_CHARS]
    starts = [m.start() for m in _TOP_ITEM.finditer(output)]
    if len(starts) < 2:
        return [output]
    bounds = sorted({0, *starts, len(output)})
    return [output[a:b] for a, b in pairwise(bounds) if output[a:b].strip()]


def secret_values(text: str) -> list[str]:
    """Secret values in a text, per `limen.rules.secrets.find_secrets` at credential confidence (not entropy
    alone: a commit hash must not taint a session, so the entropy heuristic is not even run: it weighs every
    long token character by character, the slowest part of the scan). Used only to fingerprint them."""
    from limen.rules.secrets import KEYWORD, find_secrets

    text = text[:MAX_SCAN_CHARS]
    values = [
        text[hit.start : hit.end] for hit in find_secrets(text, weak=False) if hit.confidence >= KEYWORD
    ]
    # a URL's `user:password` is kept whole and as its password, which leaves on its own as often
    values += [v.partition(":")[2] for v in values if ":" in v and not any(c.isspace() for c in v)]
    return [v for v in values if len(v) >= 8]


def _grade(text: str) -> tuple[Verdict, list[Finding]]:
    from limen.turngate import screen

    findings = [f for f in screen(text, source="untrusted") if f.verdict is not Verdict.PASS]
    return max((f.verdict for f in findings), default=Verdict.PASS), findings


@lru_cache(maxsize=4)  # the output scan and the span removal that follows it screen the same output once
def _screened(output: str) -> tuple[dict[Verdict, list[str]], list[Finding]]:
    """The output's records by the screen's grade of each (BLOCK: injected, AUTH: suspicious, PASS: clean),
    and the screen's findings on the whole output.

    Only a signature-grade (BLOCK) finding marks content as injected; a heuristic one or a screen error
    leaves it suspicious (the caller labels it untrusted). Either marks only the records that carry it, so
    one odd e-mail does not make the whole inbox untrusted; a finding no single record carries (it spans
    records) marks the whole output.
    """
    grade, findings = _grade(output)
    parts = segments(output) if grade is not Verdict.PASS else [output]
    grades = [_grade(p)[0] for p in parts] if len(parts) > 1 else [grade]
    if max(grades) < grade:
        parts, grades = [output], [grade]
    graded: dict[Verdict, list[str]] = {v: [] for v in Verdict}
    for part, part_grade in zip(parts, grades, strict=True):
        graded[part_grade].append(part)
    return graded, findings


_FENCE = re.compile(r"^[ \t]*(?:```|~~~)", re.MULTILINE)
MAX_SPANS = 32  # past this many flagged pieces an output is withheld whole, not cut


def _quoted_ranges(output: str) -> list[tuple[int, int]]:
    """Where `output` quotes text rather than says it: fenced code blocks, and `>` block-quote lines."""
    ranges: list[tuple[int, int]] = []
    fences = [m.start() for m in _FENCE.finditer(output)]
    for start, end in zip(fences[::2], fences[1::2], strict=False):
        ranges.append((start, end))
    for m in re.finditer(r"^[ \t]*>[^\n]*", output, re.MULTILINE):
        ranges.append(m.span())
    return ranges


def instruction_spans(output: str) -> list[str] | None:
    """The pieces of an output that read as instructions to the agent, for removal in place. Within each
    record the screen flags, a piece runs from a line the screen flags on its own to the end of that line's
    paragraph (an instruction's payload, the address or the account, follows it); when no line is flagged
    alone, the whole record is the piece. Text the output quotes (a code block, a `>` quotation:
    documentation, a security question, a test corpus) is told apart and kept; the door warns about it
    instead. None when the output cannot be cut safely (too many pieces): then it is withheld whole."""
    output = output[:MAX_SCAN_CHARS]
    graded, _ = _screened(output)
    flagged = [part for verdict in (Verdict.BLOCK, Verdict.AUTH) for part in graded[verdict]]
    if not flagged:
        return []
    quoted = _quoted_ranges(output)
    spans: list[str] = []
    for part in flagged:
        lines = part.splitlines(keepends=True)
        pieces: list[str] = []
        i = 0
        while i < len(lines):
            line_grade, line_findings = _grade(lines[i]) if lines[i].strip() else (Verdict.PASS, [])
            if line_grade is not Verdict.PASS and _only_task_drift(line_findings):
                pieces.extend(_planted(lines[i]) or [lines[i].strip()])  # a task, not a payload: no paragraph
                i += 1
            elif line_grade is not Verdict.PASS:
                j = i + 1
                while j < len(lines) and lines[j].strip() and not _FENCE.match(lines[j]):
                    j += 1  # the rest of the paragraph goes with it (a code fence ends it)
                line = lines[i]
                start = max(line.find(_from_first_flagged_sentence(line)), 0)
                pieces.append((line[start:] + "".join(lines[i + 1 : j])).strip())
                i = j
            else:
                i += 1
        for piece in pieces or _planted(part) or [part.strip()]:
            at = output.find(piece)
            if at >= 0 and any(a <= at and at + len(piece) <= b for a, b in quoted):
                continue  # quoted, not said: kept, and warned about
            spans.append(piece)
    spans = list(dict.fromkeys(spans))
    if len(spans) > MAX_SPANS:
        return None
    return sorted(spans, key=len, reverse=True)  # longest first: a piece inside another goes with it


def _only_task_drift(findings: list[Finding]) -> bool:
    """Whether only the task-drift screen flagged a line (a planted task: its sentence goes, not the
    paragraph after it, which an instruction's payload would fill)."""
    from limen.turngate import drift

    return all(f.detail.startswith(drift.DETAIL) for f in findings)


def _planted(part: str) -> list[str]:
    """The sentences the task-drift screen reads as planted in a flagged record when no line is flagged on
    its own (a task for the assistant inside an email is a bare request alone): cut those, keep the record."""
    from limen.turngate import drift

    try:
        return drift.planted_tasks(part) if drift.enabled() else []
    except Exception:  # the record is then cut whole, as before
        return []


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def _from_first_flagged_sentence(line: str) -> str:
    """A flagged line from its first sentence the screen flags on its own (`Welcome to my blog. IMPORTANT:
    ignore ...` keeps its welcome); when no sentence is flagged alone, from the last start where the rest
    of the line still is; else the whole line."""
    starts = [0, *(m.end() for m in _SENTENCE_END.finditer(line))][:64]
    for k, at in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(line)
        if _grade(line[at:end])[0] is not Verdict.PASS:
            return line[at:].strip()
    for at in reversed(starts):
        if _grade(line[at:])[0] is not Verdict.PASS:
            return line[at:].strip()
    return line.strip()


def cut(value: Any, spans: Iterable[str], marker: str, keep: frozenset[str] = frozenset()) -> Any:
    """A copy of `value` (a string, or a tool's output object of dicts and lists) with every span replaced by
    `marker` in the strings that hold it, keys in `keep` left alone (shape fields such as `type`): same keys,
    same types, so an agent takes it in place of the original. None when some span lies in no single string
    (split across fields): the caller withholds the whole output instead."""
    wanted = tuple(spans)
    found: set[str] = set()

    def walk(item: Any, depth: int) -> Any:
        if isinstance(item, str):
            for span in wanted:
                if span in item:
                    found.add(span)
                    item = item.replace(span, marker)
            return item
        if depth > 16:
            return item
        if isinstance(item, dict):
            return {k: v if k in keep else walk(v, depth + 1) for k, v in item.items()}
        if isinstance(item, list):
            return [walk(v, depth + 1) for v in item]
        return item

    result = walk(value, 0)
    return result if found == set(wanted) else None


def apply_scan(
    store: SessionStore,
    fingerprint: Callable[[str], str],
    session_id: str,
    output: str,
    untrusted: bool | None,
    mode: Mode,
    printed_credential: bool = False,
    named_by_user: bool = False,
) -> list[Finding]:
    """Scan one tool output into the session (taint, flags, value labels); the findings for the output itself.

    `named_by_user`: the content came from a source the user named in this session ("her address is on
    www.dora-website.com"): the parts that screen clean are labelled `clean`, as the user's own data is,
    since the user sent the agent there for them. Parts the screen doubts stay `untrusted` or `injected`,
    and the session is flagged untrusted all the same.

    `printed_credential`: the call was a command that prints a credential (`op read`, `pass show`,
    `gh auth token`): its output is the secret whatever its shape, so its values taint the session too.

    `untrusted`: True for content from an untrusted source (web pages, remote MCP results), False for content
    the user vouches for, None to let the screen decide. Values of records carrying injected instructions are
    labelled `injected`; of other untrusted content `untrusted`; of clean content `clean`.
    """
    from limen.state import INJECTED, TAINTED, UNTRUSTED

    findings: list[Finding] = []
    harsh = Verdict.BLOCK if mode.strict_or_above else Verdict.AUTH
    if len(output) > MAX_SCAN_CHARS:  # what is not screened is not trusted
        output, untrusted = output[:MAX_SCAN_CHARS], True
    secrets = secret_values(output)
    if printed_credential:
        secrets = list(dict.fromkeys([*secrets, *printed_values(output)]))
    if secrets:
        # The flag first: a session holding fingerprints is always flagged, so the floors ask the flag and
        # never load the fingerprints of a session that has none (a failure between the two fails closed).
        store.set_flags(session_id, {TAINTED})
        store.add_taint(session_id, secret_fingerprints(secrets, fingerprint))
        if mode is not Mode.LIGHT:
            findings.append(
                Finding(
                    ReasonCode.SENSITIVE_SECRET_ACCESS,
                    harsh,
                    80,
                    f"{len(secrets)} secret(s) in the output; the session is tainted",
                )
            )
    if untrusted is False:
        store.add_values(session_id, CLEAN, {fingerprint(v) for v in extract_values(output)})
        return findings
    graded, screen_findings = _screened(output)
    injected, suspicious = graded[Verdict.BLOCK], graded[Verdict.AUTH]
    flags = {UNTRUSTED} if untrusted or suspicious else set()
    if injected:
        flags.add(INJECTED)
    labelled = (
        (INJECTED, injected),
        (UNTRUSTED, suspicious),
        (UNTRUSTED if untrusted and not named_by_user else CLEAN, graded[Verdict.PASS]),
    )
    for label, parts in labelled:
        if parts:
            store.add_values(
                session_id, label, {fingerprint(v) for part in parts for v in extract_values(part)}
            )
    if flags:
        store.set_flags(session_id, flags)
    for f in screen_findings:
        if f.code is ReasonCode.TURN_GATE_ERROR:
            findings.append(f)
        elif mode is not Mode.LIGHT:
            verdict = min(f.verdict, harsh)  # the screen's own confidence, capped at AUTH below strict
            findings.append(Finding(f.code, verdict, f.risk, "in tool output: " + f.detail[:120]))
    return findings
