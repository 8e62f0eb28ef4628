"""`limen.prefilter`: a prefiltered pattern finds exactly what the pattern finds, only faster."""

from __future__ import annotations

import random
import re

import pytest

from limen.prefilter import Gated, Prefiltered, prefiltered

PATTERNS = [
    r"\bmiddleware\(|\bhash_equals\(|@limiter\.limit|\[Authorize\b|\b[Cc]ertificatePinner\b",
    r"(?<=[\s,]):(?:lock|reset)_password\b|\bverify(?:Header|Signature)\(",
    r"(?i)verify\s*=\s*false|rejectUnauthorized|(?-i:InsecureSkipVerify)\s*:\s*true",
    r"(?m)^import\s+pickle|^from\s+marshal\b|(eval|exec)\(\s*(request|input)\b",
    r"(?i)passwort|пароль|contraseña|api[ _-]?keys?",
]
WORDS = [
    "middleware(",
    "hash_equals(",
    "@limiter.limit",
    "[Authorize]",
    "CertificatePinner",
    "certificatePinner",
    " :lock_password",
    ",:reset_password",
    ":lock_password",
    "verifyHeader(",
    "VERIFY = false",
    "verify=False",
    "rejectunauthorized",
    "InsecureSkipVerify: true",
    "insecureskipverify: true",
    "import pickle",
    "\n  import pickle",
    "from marshal",
    "eval(request",
    "exec( input",
    "Passwort",
    "ПАРОЛЬ",
    "Contraseña",
    "API-KEYS",
    "apikey",
    "ſecret",
    "\u212a",
    "x",
    " ",
    "\n",
    "(",
    "é",
    "middleware",
    "hash_equal(",
]


def _texts(seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(300):
        size = rng.choice([3, 20, 80, 200])
        texts.append("".join(rng.choice(WORDS) for _ in range(size)))
    return texts


@pytest.mark.parametrize("source", PATTERNS)
def test_finds_what_the_pattern_finds(source: str) -> None:
    plain, fast = re.compile(source), prefiltered(source)
    assert isinstance(fast, Prefiltered)
    for text in _texts(len(source)):
        for start in (0, 7):
            expected, found = plain.search(text, start), fast.search(text, start)
            assert (expected and expected.span()) == (found and found.span())
        assert [m.span() for m in plain.finditer(text)] == [m.span() for m in fast.finditer(text)]
        assert plain.findall(text) == fast.findall(text)


def test_patterns_without_literals_every_match_needs_are_left_as_they_are() -> None:
    for source in (r"\w+=\d", r"[a-z]{3}\(|foo", r"(?i)a|bcd", r"(?:ab)?c+"):
        assert isinstance(prefiltered(source), re.Pattern)
    assert isinstance(prefiltered(r"\s*secret"), Gated)  # (no match starts with it, every match holds it)


def test_a_case_insensitive_literal_is_not_looked_for_by_lowering_text_that_is_not_ascii() -> None:
    fast = prefiltered(r"(?i)secret_key|tokens")
    assert isinstance(fast, Prefiltered)
    long = "x" * 300
    for text in (long + "ſecret_key", long + "SECRET_KEY", long + "TOKENſ", long + "\u212aey tokens"):
        assert (fast.search(text) is None) == (re.search(r"(?i)secret_key|tokens", text) is None)


def test_the_rules_broad_patterns_stay_prefiltered() -> None:
    """A pattern edited so that one way no longer starts with literal text silently loses the prefilter
    (and costs ten times as much on every file written): these are those the rules read whole files with."""
    from limen.rules import code_changes, commands, written

    for pattern in (
        written._GUARDS,
        written._REQUEST_READ,
        written._SENDS_IN_CODE,
        code_changes._DISARMED,
        code_changes._REQUEST_INPUT,
        code_changes._GUARD_CALL,
        commands._SOCKET_CODE,
        commands._SPAWN_CODE,
    ):
        assert isinstance(pattern, Prefiltered), pattern


GATED = [
    r"(?i)\b\w*?(?<![a-z])(?:insecure|danger|disable)\w*?(?:verif|cert|ssl)\w*\s*\(",
    r"\b(\w+)\s*=\s*(?:await\s+)?(?:[\w.]+\.)?(?:verify|validate)\w*\s*\(",
    r"[^\n]{0,80}?(?:sessions?|tokens?)\.(?:find|get)\w*\([^)]*\)",
]
GATED_WORDS = [
    "insecure_skip_verify(",
    "danger_accept_invalid_certs(",
    "DisableSSL (",
    "x",
    "(",
    "\n",
    " ",
    "=",
    "evt = wh.verify(p)",
    "claims = await jwt.validateToken(",
    "sessions.findOne(id)",
    "token.get(a)",
    "ſ",
]


@pytest.mark.parametrize("source", GATED)
def test_a_gated_pattern_finds_what_the_pattern_finds(source: str) -> None:
    plain, gated = re.compile(source), prefiltered(source)
    assert isinstance(gated, Gated)
    rng = random.Random(len(source))
    for _ in range(300):
        text = "".join(rng.choice(GATED_WORDS) for _ in range(rng.choice([3, 40, 120])))
        found, expected = gated.search(text), plain.search(text)
        assert (found and found.span()) == (expected and expected.span())
        assert plain.findall(text) == gated.findall(text)
        assert [m.span() for m in plain.finditer(text)] == [m.span() for m in gated.finditer(text)]
