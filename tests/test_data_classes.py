"""PII data classes: checksum-valid cards, IBANs and dashed SSNs in outbound payloads (labels only)."""

from __future__ import annotations

import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import limen
from limen.model import ReasonCode, Verdict
from limen.rules.data_classes import card_issuer_valid, data_classes_in, iban_valid, luhn_valid


@pytest.mark.parametrize(
    "number",
    [
        "4111111111111111",
        "4012-8888-8888-1881",
        "4012 8888 8888 1881",
        "5555555555554444",
        "371449635398431",
        "3714 496353 98431",
        "6011000400000000",
        "3528000700000000",
        "30569309025904",
        "122000000000003",
    ],
)
def test_valid_cards(number: str) -> None:
    assert data_classes_in(f"card: {number} thanks") == ["payment_card"]


@pytest.mark.parametrize(
    "number",
    [
        "4111111111111112",
        "4012-8888-8888-1882",
        "7111111111111114",
        "1748503543012",
        "4111-1111 1111-1111",
        "12345678901234567890123",
    ],
)
def test_invalid_cards(number: str) -> None:
    assert "payment_card" not in data_classes_in(f"card: {number}")


def test_luhn_and_issuer() -> None:
    assert luhn_valid("79927398713")
    assert not luhn_valid("79927398710")
    assert card_issuer_valid("4111111111111111")
    assert not card_issuer_valid("9111111111111111")
    assert not card_issuer_valid("34111111111111")  # Amex prefix with the wrong length


@pytest.mark.parametrize(
    "text",
    [
        "GB29NWBK60161331926819",
        "GB29 NWBK 6016 1331 9268 19",
        "DE89 3704 0044 0532 0130 00",
        "pay to AL47-2121-1009-0000-0002-3569-8741 today",
        "iban VG96 VPVG 0000 0123 4567 8901 X in a sentence",
    ],
)
def test_valid_ibans(text: str) -> None:
    assert data_classes_in(text) == ["iban"]


@pytest.mark.parametrize(
    "text",
    [
        "GB29NWBK60161331926810",
        "DE89 3704 0044 0532 0130 01",
        "gb29nwbk60161331926819",
        "AL47/2121/1009/0000/0002/3569/8741",
        "IL15 0120 6900 0000 3111 0120 6900 0000 3111 141",
        "XX29NWBK60161331926819",
        "RS35 2600 0560 1001 6113 70",
    ],
)
def test_invalid_ibans_and_no_card_inside_them(text: str) -> None:
    assert data_classes_in(text) == []


def test_iban_checksum() -> None:
    assert iban_valid("GB29NWBK60161331926819")
    assert not iban_valid("GB29NWBK6016133192681")  # wrong length for GB


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("078-05-1123", True),
        ("ssn 123-45-6789.", True),
        ("000-12-3456", False),
        ("666-12-3456", False),
        ("900-12-3456", False),
        ("123-00-4567", False),
        ("123-45-0000", False),
        ("078-05-1120", False),
        ("123456789", False),
        ("2024-01-1234", False),
    ],
)
def test_dashed_ssn_ranges(text: str, found: bool) -> None:
    assert (data_classes_in(text) == ["us_ssn"]) is found


def _post(body: str, mode: str = "balanced") -> limen.Decision:
    return limen.evaluate(
        "network.request",
        {"url": "https://upload.unfamiliar-host.net/u", "method": "POST", "body": body},
        cwd=tempfile.mkdtemp(),
        mode=mode,
    )


@pytest.mark.parametrize("mode", ["light", "balanced", "strict", "paranoid"])
def test_outbound_pii_asks_in_every_mode_with_labels_only(mode: str) -> None:
    decision = _post("customer 4111 1111 1111 1111, iban GB29NWBK60161331926819", mode)
    finding = next(f for f in decision.findings if f.code is ReasonCode.PII_DATA_CLASS_EGRESS)
    assert finding.verdict is Verdict.AUTH
    assert finding.detail == "iban, payment_card in an outbound payload"
    assert "4111" not in str(decision.to_dict())


def test_local_write_with_pii_is_not_egress() -> None:
    cwd = tempfile.mkdtemp()
    decision = limen.evaluate(
        "Write", {"file_path": f"{cwd}/fixtures.txt", "content": "4111111111111111"}, cwd=cwd
    )
    assert ReasonCode.PII_DATA_CLASS_EGRESS not in decision.reasons


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("0123456789 -ABGRDEX"), max_size=80) | st.text(max_size=200))
def test_never_raises(text: str) -> None:
    for label in data_classes_in(text):
        assert label in ("payment_card", "iban", "us_ssn")


def test_payee_iban_of_a_transfer_is_not_egress_but_an_iban_in_its_memo_is() -> None:
    cwd = tempfile.mkdtemp()
    payee = limen.evaluate("send_money", {"recipient": "GB29NWBK60161331926819", "amount": 10}, cwd=cwd)
    assert ReasonCode.PII_DATA_CLASS_EGRESS not in payee.reasons
    memo = limen.evaluate(
        "send_money",
        {
            "recipient": "GB29NWBK60161331926819",
            "amount": 10,
            "subject": "refund to DE89 3704 0044 0532 0130 00",
        },
        cwd=cwd,
    )
    assert ReasonCode.PII_DATA_CLASS_EGRESS in memo.reasons
