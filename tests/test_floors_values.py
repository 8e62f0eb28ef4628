"""The value matching under the provenance and taint floors: both sides normalise alike."""

from __future__ import annotations

import base64
from urllib.parse import quote

from limen.scan import argument_values, encoded_variants, extract_values, secret_leaves, segments
from limen.state.keys import fingerprinter


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
