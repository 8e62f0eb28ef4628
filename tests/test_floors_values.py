"""The value matching under the provenance and taint floors: both sides normalise alike."""

from __future__ import annotations

import base64
from urllib.parse import quote

import pytest

from limen.scan import (
    MAX_TAINT_ENTRIES,
    MAX_WINDOWS,
    argument_values,
    encoded_variants,
    extract_values,
    secret_fingerprints,
    secret_leaves,
    secret_values,
    segments,
)
from limen.state.keys import Fingerprinter, fingerprinter


def test_an_argument_matches_the_value_as_the_text_spelled_it() -> None:
    text = (
        "Please wire it to GB29 NWBK 6016 1331 9268 19, cc Mark.Black@Example.com, "
        "see www.Drop-Box.example/x. "
        "Book the Riverside View Hotel from the 13th to the 17th of May, and set the password to hunter_2024."
    )
    told = extract_values(text)
    for argument in (
        "GB29NWBK60161331926819",
        "mark.black@example.com",
        "https://drop-box.example/x",
        "Riverside View Hotel",
        "2024-05-13",
        "hunter_2024",
    ):
        assert argument_values([argument]) & told, argument


def test_ordinary_words_and_numbers_are_not_values() -> None:
    assert extract_values("the meeting went well and we agreed on 3 points") == set()


def test_records_split_only_at_top_level_items() -> None:
    output = "- id: 1\n  body: |\n    hello\n\n    - a nested bullet\n- id: 2\n  body: bye\n"
    parts = segments(output)
    assert len(parts) == 2 and "nested bullet" in parts[0]
    assert segments("one paragraph\n\nanother paragraph") == ["one paragraph\n\nanother paragraph"]


def test_encodings_are_unwrapped() -> None:
    secret = "sk-live-4f9aQ2mZ7xK1vB8n"
    inner = f"key={secret}"
    for wrapped in (
        base64.b64encode(inner.encode()).decode(),
        inner.encode().hex(),
        quote(inner, safe=""),
        quote(base64.b64encode(inner.encode()).decode(), safe=""),
    ):
        assert any(secret in v for v in encoded_variants(f"data {wrapped} end")), wrapped


def test_secret_leaves_only_for_the_fingerprinted_value() -> None:
    fp = fingerprinter()
    secret = "sk-live-4f9aQ2mZ7xK1vB8n"
    targets = {fp(secret): len(secret)}
    assert secret_leaves([f"token: {secret}."], fp, targets)
    assert not secret_leaves([f"token: {secret[:-1]}X."], fp, targets)
    assert not secret_leaves(["nothing here"], fp, {})


# --------------------------------------------------------------------------- taint that survives reformatting

SECRET40 = "Zk7Qp2Lm9Xw4Rt8Vb3Nc6Hy1Jd5Gf0Ks2Ae7Uo9"  # 40 characters, made up


def _tainted(*secrets: str) -> tuple[Fingerprinter, dict[str, int]]:
    fp = fingerprinter()
    return fp, secret_fingerprints(list(secrets), fp)


def _leaves(texts: list[str], *secrets: str) -> bool:
    fp, targets = _tainted(*(secrets or (SECRET40,)))
    return secret_leaves(texts, fp, targets)


def _spaced(value: str, every: int, sep: str) -> str:
    return sep.join(value[i : i + every] for i in range(0, len(value), every))


@pytest.mark.parametrize(
    "text",
    [
        f"token={SECRET40}",
        f"token={SECRET40.lower()}",
        f"token={SECRET40.upper()}",
        _spaced(SECRET40, 4, "-"),
        _spaced(SECRET40, 1, " "),
        _spaced(SECRET40, 5, "\n"),
        _spaced(SECRET40, 8, "."),
        f"note: {SECRET40[3:19]} end",  # 16 characters of 40
        f"note: {SECRET40[-17:]}",
        f"k={SECRET40[::-1]}",
        f"k={SECRET40.lower()[::-1]}",
        base64.b64encode(SECRET40.encode()).decode(),
        base64.b64encode(SECRET40.lower().encode()).decode(),
        base64.b64encode(SECRET40[::-1].encode()).decode(),
        SECRET40.encode().hex(),
        _spaced(SECRET40.encode().hex(), 2, ":"),
        _spaced(base64.b64encode(f"secret is {SECRET40}".encode()).decode(), 10, "\n"),
        quote(_spaced(SECRET40, 4, " "), safe=""),
        # DNS exfiltration: base32 or hex cut into labels
        _spaced(base64.b32encode(SECRET40.encode()).decode().rstrip("=").lower(), 30, ".") + ".x.example.net",
        _spaced(base64.b32encode(SECRET40.encode()).decode().rstrip("="), 31, ".") + ".x.example.net",
        _spaced(SECRET40.encode().hex(), 25, ".") + ".x.example.net",
    ],
)
def test_a_reformatted_secret_is_still_recognised(text: str) -> None:
    assert _leaves([text]), text


@pytest.mark.parametrize(
    "text",
    [
        "nothing to see here",
        f"token={SECRET40[:11]}",  # too short a piece to say
        "Zk7Qp2Lm9Xw is not the secret, nor 4Rt8Vb3Nc",  # pieces of 11
        "".join(c if i % 6 else "x" for i, c in enumerate(SECRET40)),  # every sixth character changed
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHv0eJX6m7TQd6a5bB2k dev@laptop",
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----",
        "a" * 5000,
        "abcdefghijklmnopqrstuvwxyz0123456789" * 20,
    ],
)
def test_look_alikes_of_a_secret_are_not_it(text: str) -> None:
    assert not _leaves([text]), text


SHORT = "Pa55w0rd-9xQ"  # a password: its normalised form (`pa55w0rd9xq`) is shorter than a probed window


@pytest.mark.parametrize(
    "text",
    [
        SHORT,
        f"db user app / password {SHORT} host db.internal",
        "PA55W0RD 9XQ",
        SHORT[::-1],
        base64.b64encode(SHORT.encode()).decode(),
    ],
)
def test_a_short_secret_is_recognised_as_itself_and_reformatted(text: str) -> None:
    assert _leaves([text], SHORT), text


@pytest.mark.parametrize("text", ["the password is in the vault", "Pa55w0rd-9xR", "xPa55w0rd9xQ"])
def test_look_alikes_of_a_short_secret_are_not_it(text: str) -> None:
    assert not _leaves([text], SHORT), text


def test_a_url_password_read_is_kept_as_itself_too() -> None:
    """`postgres://app:PASSWORD@host` taints the password alone, which leaves without its user name."""
    read = secret_values("DATABASE_URL=postgres://app:Pa55w0rd-9xQ@db.acme.internal:5432/app\n")
    fp, targets = _tainted(*read)
    assert secret_leaves(["password: Pa55w0rd-9xQ"], fp, targets)
    assert not secret_leaves(["user: app, host: db.acme.internal"], fp, targets)


def test_common_frames_of_a_secret_do_not_match_other_secrets() -> None:
    """A JWT's header and a private key's ASN.1 preamble are shared by every token and key of their kind:
    sending another one is not sending this one."""
    head = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    jwt = head + ".eyJzdWIiOiJ1c2VyLTQ0MiJ9.q8Zt3Lm2Wk9Xr7Pv1Nb4Jc6Hd0Gf5Ks8Ae2Uo3Yi"
    other = head + ".eyJzdWIiOiJ1c2VyLTk5MSJ9.Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8Ii9Jj0Kk1Ll2Mm3Nn"
    assert _leaves([f"auth {jwt}"], jwt)
    assert not _leaves([f"auth {other}"], jwt)
    body = (
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ"
        + "Xq7Lm2Pz9Rt4Wk8Vn3Bc6Jh1Gd5Fs0Ka2Ye7Uo9Ti4Rp" * 6
    )
    key = "-----BEGIN PRIVATE KEY-----\n" + _spaced(body, 64, "\n") + "\n-----END PRIVATE KEY-----"
    public = (
        "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw"
    )
    assert _leaves([key.replace("\n", "")], key)
    assert not _leaves([f"-----BEGIN PUBLIC KEY-----\n{public}\n-----END PUBLIC KEY-----"], key)


def test_the_taint_holds_fingerprints_only_and_a_bounded_number() -> None:
    _, targets = _tainted(SECRET40)
    assert SECRET40 not in repr(targets) and SECRET40.lower() not in repr(targets)
    assert all(len(k) == 32 for k in targets)
    _, many = _tainted(
        "-----BEGIN PRIVATE KEY-----\n" + "Qx7Lm2Pz9Rt4Wk8V" * 2000 + "\n-----END PRIVATE KEY-----"
    )
    assert len(many) <= 2 * MAX_WINDOWS + 4


def test_old_taint_entries_still_match() -> None:
    """A session tainted before windows existed holds the value's fingerprint and length only."""
    fp = fingerprinter()
    assert secret_leaves([f"x {SECRET40} y"], fp, {fp(SECRET40): len(SECRET40)})


def test_matching_cost_grows_linearly_with_the_text() -> None:
    import time

    fp, targets = _tainted(SECRET40, "Px9Lk2Qw7Zr4Tm")
    small = "lorem ipsum dolor sit amet, 42 " * 300
    large = small * 8

    def timed(text: str) -> float:
        start = time.perf_counter()
        for _ in range(3):
            secret_leaves([text], fp, targets)
        return time.perf_counter() - start

    timed(small)
    assert timed(large) < 8 * timed(small) * 4  # linear, with room for a noisy machine


def test_a_dump_of_many_keys_keeps_a_bounded_taint_table() -> None:
    keys = [
        "-----BEGIN PRIVATE KEY-----\n" + (f"Qx{i}Lm2Pz9Rt4Wk8V" * 120) + "\n-----END PRIVATE KEY-----"
        for i in range(12)
    ]
    _, targets = _tainted(*keys)
    assert len(targets) <= MAX_TAINT_ENTRIES + 2 * len(keys)
    fp = fingerprinter()
    assert all(fp(k) in targets for k in keys)  # every key keeps its exact fingerprint


@pytest.mark.parametrize(
    "text",
    [
        "A" * 200_000 + "!\n",  # a base64 run with no line after it
        "ab " * 66_000 + "!",  # spaced hex pairs that end without a pair
        "ab " * 66_000 + "ab0",
        ("A" * 76 + "\n") * 1000 + "B" * 120_000,
        "-----BEGIN PUBLIC KEY-----\n" * 7000,
        "ssh-rsa AAAA" + "A" * 200_000,
        ("q" * 30 + ".") * 6000,  # DNS-label-shaped runs
    ],
)
def test_the_taint_match_reads_each_run_once(text: str) -> None:
    import time

    fp, targets = _tainted(SECRET40, "Px9Lk2Qw7Zr4Tm")
    started = time.perf_counter()
    assert not secret_leaves([text], fp, targets)
    assert time.perf_counter() - started < 5.0  # quadratic, these took minutes
