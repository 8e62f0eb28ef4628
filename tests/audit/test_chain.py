"""The line a record is chained as: a decision record's written-out encoding is byte for byte the general
canonical JSON, whatever its values hold, and anything of another shape takes the general encoder."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from limen.audit.chain import _CANONICAL, _decision_body, canonical, decode, encode

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30) | st.sampled_from(
    ["", '"', "\\", "\n\t\x00\x1f\x7f", "\u2028\u2029", "é中😀", "</script>"]
)
NUMBER = st.integers(-(10**18), 10**18) | st.floats(allow_nan=False, allow_infinity=False)
# What a careless caller might put in a field: the general encoder decides what these become.
ODD = (
    st.booleans()
    | st.none()
    | st.just(math.nan)
    | st.just(math.inf)
    | st.tuples(TEXT)
    | st.just({"a": 1})
    | st.integers().map(float)
    | TEXT.map(lambda t: [t, 1])
    | TEXT  # a text where a list belongs
)


def _stage(odd: bool) -> st.SearchStrategy[dict[str, Any]]:
    field = (lambda base: base | ODD) if odd else (lambda base: base)
    return st.fixed_dictionaries(
        {
            "reasons": field(st.lists(TEXT, max_size=3)),
            "risk": field(NUMBER),
            "stage": field(TEXT),
            "us": field(NUMBER),
            "verdict": field(st.sampled_from(["PASS", "AUTH", "BLOCK"])),
        }
    )


def _record(odd: bool) -> st.SearchStrategy[dict[str, Any]]:
    field = (lambda base: base | ODD) if odd else (lambda base: base)
    texts = {
        k: field(TEXT) for k in ("agent", "args", "cap", "door", "expl", "id", "kind", "prev", "session")
    }
    lists = {k: field(st.lists(TEXT, max_size=4)) for k in ("cmds", "hosts", "keys", "paths", "reasons")}
    numbers = {k: field(NUMBER) for k in ("risk", "seq", "ts", "us")}
    return st.fixed_dictionaries(
        {
            **texts,
            **lists,
            **numbers,
            "stages": field(st.lists(_stage(odd), max_size=3)),
            "tool": field(TEXT),
            "verdict": field(TEXT),
        }
    )


@settings(max_examples=400, deadline=None)
@given(_record(odd=False))
def test_a_decision_record_is_written_out_as_the_general_encoder_would(
    record: dict[str, Any],
) -> None:
    body = _decision_body(record)
    assert body is not None
    assert body == _CANONICAL.encode(record)


@settings(max_examples=400, deadline=None)
@given(_record(odd=True))
def test_values_of_any_other_type_give_the_general_encoding(record: dict[str, Any]) -> None:
    assert canonical(record) == _CANONICAL.encode(record)


def test_a_record_of_another_shape_takes_the_general_encoder() -> None:
    event = {"kind": "event", "event": "session_halt", "ts": 1.5, "seq": 3, "prev": "0" * 64}
    assert canonical(event) == json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_an_encoded_decision_decodes_with_an_intact_hash() -> None:
    record = {
        "agent": "",
        "args": "ab",
        "cap": "shell.execute",
        "cmds": ["git"],
        "door": "hook",
        "expl": 'PASS: "quoted" é',
        "hosts": [],
        "id": "01",
        "keys": ["command"],
        "kind": "decision",
        "paths": [],
        "prev": "0" * 64,
        "reasons": [],
        "risk": 20,
        "seq": 1,
        "session": "s",
        "stages": [{"reasons": [], "risk": 20, "stage": "objective", "us": 12.5, "verdict": "PASS"}],
        "tool": "Bash",
        "ts": 1796160363.686,
        "us": 80.1,
        "verdict": "PASS",
    }
    line, digest = encode(record)
    decoded, claimed, intact = decode(line.rstrip("\n"))
    assert decoded == record and claimed == digest and intact
