"""`limen.doors.hooks.cjson` must be `json` to everything that reads the hook's messages and answers: the
same bytes out, the same values in, and a ValueError for whatever `json.loads` refuses."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from limen.doors.hooks import cjson

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


def same(a: object, b: object) -> bool:
    """Equal, counting NaN equal to NaN (JSON carries it; `==` never holds for it)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


@given(VALUES)
def test_dumps_writes_what_json_writes(value: object) -> None:
    for ascii_only in (True, False):
        expected = json.dumps(value, separators=(",", ":"), ensure_ascii=ascii_only)
        assert cjson.dumps(value, ascii_only=ascii_only) == expected


@given(VALUES, st.sampled_from(["", " ", "\n", "\t\r\n "]))
def test_loads_reads_what_json_reads(value: object, padding: str) -> None:
    text = padding + json.dumps(value, indent=1) + padding
    assert same(cjson.loads(text), json.loads(text))
    assert same(cjson.loads(text.encode()), json.loads(text))


@pytest.mark.parametrize(
    "text",
    ["", "   ", "{not json", "[1,", '"open', '{"a":1,}', "[1] 2", "nul", "{'a': 1}", "\ufeff{}", "[1]\x00"],
)
def test_loads_refuses_what_json_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        cjson.loads(text)


def test_dumps_refuses_what_json_refuses() -> None:
    for value in (object(), {1j: 1}, {"a": {1, 2}}):
        with pytest.raises(TypeError):
            json.dumps(value)
        with pytest.raises(TypeError):
            cjson.dumps(value)
