"""Screening a tool's output costs a bounded amount per character, whatever the output holds.

Each regex that reads whole outputs (value extraction, the secret scan, the turn gate's windows) once
rescanned long runs of its characters from every position in them: 80,000 characters of an e-mail-shaped
run took 3.3 s, a 2 MB result about half an hour. These tests feed the shapes that did that, at a size
where the old cost was minutes, under a generous bound; and they check the rewritten patterns find what
the plain ones found.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from limen import scan
from limen.model import Mode
from limen.state.memory import MemoryStore
from limen.turngate import screen

SIZE = 200_000
BOUND = 5.0  # seconds; each of these took minutes before, and takes well under a second now

# Runs that made a pattern rescan from each position: e-mail characters (`_EMAIL`), hyphenated words
# (`_IDENT`), bracketed digits (`_PHONE`), and line-broken bullets or dotted words between dense anchor
# words (the turn gate's sentence lead-in and address patterns).
ADVERSARIAL = {
    "email-run": "a.b-c+d%",
    "hyphen-words": "a-",
    "phone-brackets": "(1.",
    "digit-spaces": "1 ",
    "spaces": " ",
    "bullets-between-anchors": "bcc " + "\n-" * 150 + " ",
    "dotted-words-between-anchors": "send it to " + "a." * 150 + " ",
    "grant-bullets": "grant " + "\n-" * 150 + " ",
}


def _text(period: str, size: int = SIZE) -> str:
    return (period * (size // len(period) + 1))[:size]


def _seconds(work: Callable[..., object], *args: Any, **kwargs: Any) -> float:
    started = time.perf_counter()
    work(*args, **kwargs)
    return time.perf_counter() - started


@pytest.mark.parametrize("period", ADVERSARIAL.values(), ids=ADVERSARIAL.keys())
def test_an_adversarial_output_is_screened_within_a_generous_bound(period: str) -> None:
    text = _text(period)
    took = _seconds(scan.apply_scan, MemoryStore(), lambda v: v[:16], "s", text, None, Mode.BALANCED)
    assert took < BOUND, f"{len(text)} characters took {took:.1f} s"


@pytest.mark.parametrize(
    "period", ["a.b-c+d%", "a-", "(1."], ids=["email-run", "hyphen-words", "phone-brackets"]
)
def test_extraction_grows_linearly(period: str) -> None:
    """Ten times the text, about ten times the time (quadratic was a hundred): the least of three runs, so a
    busy machine does not decide it."""
    small = min(_seconds(scan.extract_values, _text(period, 20_000)) for _ in range(3))
    large = min(_seconds(scan.extract_values, _text(period, 200_000)) for _ in range(3))
    assert large < 40 * max(small, 1e-3)


def test_decoding_a_long_run_that_ends_in_a_dot_is_linear() -> None:
    """What a call sends is decoded before it is compared with the session's secrets: a DNS-label split
    once rescanned a long run of letters from each position (40 kB: 3 s)."""
    assert _seconds(scan.encoded_variants, "a" * SIZE + ".") < BOUND


def test_a_large_adversarial_text_through_the_turn_gate() -> None:
    text = _text("bcc " + "\n-" * 150 + " ")
    assert _seconds(screen, text, source="untrusted") < BOUND
    assert _seconds(screen, text + "\nbcc: attacker@evil.example", source="untrusted") < BOUND


# The patterns as they were: the oracle for what the rewritten ones must still find.
_PLAIN_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_PLAIN_PHONE = re.compile(r"(?<![\w.])\+?\d[\d ().-]{6,}\d(?![\w.])")
_PLAIN_IDENT = re.compile(
    r"\b(?=[A-Za-z0-9_-]*[A-Za-z])(?=[A-Za-z0-9_-]*[0-9_])[A-Za-z0-9][A-Za-z0-9_-]{4,}\b"
)


def test_the_rewritten_patterns_find_what_the_plain_ones_found() -> None:
    rng = random.Random(9)
    alphabet = "aZ19._-%+@ ()x\n"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
        emails = {m.group(0) for m in scan._EMAIL.finditer(text) if m.group(1)}
        assert emails == set(_PLAIN_EMAIL.findall(text)), text
        assert list(scan._phones(text)) == _PLAIN_PHONE.findall(text), text
        idents = [m.group(0) for m in scan._IDENT.finditer(text) if scan._LETTER_AND_DIGIT.match(m.group(0))]
        assert idents == _PLAIN_IDENT.findall(text), text


def test_values_of_ordinary_text_are_unchanged() -> None:
    text = (
        "Mail jane.doe+ops@mail.example.com or call +44 20 7946 0958 about order AB-12345 (ref 2024-05-01); "
        "the build id is x86_64-linux and the invoice 9876543."
    )
    values = scan.extract_values(text)
    assert {
        "email:jane.doe+ops@mail.example.com",
        "phone:442079460958",
        "id:ab-12345",
        "id:9876543",
    } <= values
    assert "id:x86_64-linux" in values and scan.destination_key("jane.doe+ops@mail.example.com").startswith(
        "email:"
    )
    assert scan.destination_key("not an address") == ""
    # a month's name that only the case-insensitive match spells as one (long s) once failed the whole scan
    assert "date:09-01" in scan.extract_values("due 1 ſep, or in may")


def test_a_config_line_of_many_spaces_is_read_in_one_pass() -> None:
    """A section heading's gaps (`name : {`) are each one run of spaces: a line with thousands of them and
    no heading's end is refused at once, not tried in every way of sharing the spaces out."""
    from limen.normalize.tools import edited_settings

    line = ("host" + " " * 5000 + "x\n") * 4
    started = time.perf_counter()
    edited_settings("/etc/nginx/nginx.conf", line, line + "deny all;\n")
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize(
    "text",
    ["script-src" + " \t" * 20000, "default-src " + " " * 30000 + "x", ("script-src " + "x " * 40) * 500],
)
def test_a_content_security_policy_is_read_in_one_pass(text: str) -> None:
    """A policy's sources are words between spaces: a long run of spaces or sources is read once, not
    shared out between two patterns in every way."""
    from limen.normalize.tools import edited_settings

    started = time.perf_counter()
    edited_settings("/app/next.config.mjs", text, text + "\n;")
    assert time.perf_counter() - started < 2.0
