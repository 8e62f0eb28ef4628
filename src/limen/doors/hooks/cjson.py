"""Compact JSON for the hook process through the interpreter's C accelerator (`_json`) alone.

`import json` costs a hook process about 10 ms: its Python layer imports `re`, which imports `enum`,
`functools` and `collections`. The hook process only needs to encode and decode plain JSON, which `_json`
does by itself (the same C code `json` uses for both), so this module drives it directly and produces
byte for byte what `json.dumps(value, separators=(",", ":"), ensure_ascii=...)` produces and accepts what
`json.loads` accepts. On an interpreter without the accelerator, or one whose accelerator takes other
arguments, it falls back to `json` itself.
"""

from __future__ import annotations

TYPE_CHECKING = False  # importing typing would cost every hook process milliseconds
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def _unencodable(value: object) -> object:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _constant(name: str) -> object:
    return float(name.replace("Infinity", "inf"))  # NaN, Infinity, -Infinity, as `json.loads` reads them


class _Decoding:
    """The settings `_json.make_scanner` reads from a decoder: those of `json.JSONDecoder()`."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = staticmethod(_constant)


_WHITESPACE = " \t\n\r"

try:
    import _json

    # typeshed types the argument as a scanner; the accelerator reads the decoder settings off any object
    _scan: Callable[[str, int], tuple[Any, int]] = _json.make_scanner(_Decoding)  # type: ignore[arg-type]
    _encoders = {
        ascii_only: _json.make_encoder(
            None,
            _unencodable,
            _json.encode_basestring_ascii if ascii_only else _json.encode_basestring,
            None,
            ":",
            ",",
            False,
            False,
            True,
        )
        for ascii_only in (True, False)
    }
except (ImportError, TypeError, AttributeError):  # pragma: no cover - no accelerator, or another one
    _json = None  # type: ignore[assignment]


def dumps(value: Any, *, ascii_only: bool = True) -> str:
    """`json.dumps(value, separators=(",", ":"), ensure_ascii=ascii_only)`."""
    if _json is None:  # pragma: no cover
        import json

        return json.dumps(value, separators=(",", ":"), ensure_ascii=ascii_only)
    return "".join(_encoders[ascii_only](value, 0))


def loads(text: str | bytes) -> Any:
    """`json.loads(text)`: one JSON value, surrounded by whitespace at most; ValueError otherwise."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if _json is None:  # pragma: no cover
        import json

        return json.loads(text)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as exc:
        raise ValueError(f"Expecting value at {exc.value}") from None
    except SystemError:  # the accelerator raises its errors from `json.decoder`, loaded only on demand
        import json

        return json.loads(text)
    if text[end:].strip(_WHITESPACE):
        raise ValueError(f"Extra data at {end}")
    return value
