"""A message body without its content codings, for the detectors: bounded, and failing closed.

`decode(encoding, data, limit)` undoes a `Content-Encoding` (lower case; repeated headers joined with ", ";
codings applied in order, so undone in reverse; `identity` adds none): gzip / x-gzip (every member),
deflate (zlib-wrapped or raw, as mitmproxy reads it), br and zstd (every frame). The size that counts is
the DECODED one: each coding is undone incrementally and stops one byte past `limit`, so a decompression
bomb costs at most `limit` plus one decoder step of memory, never the whole expansion (zlib: nothing past
the limit; zstd, fed 64 bytes at a time: at most 16 blocks of 128 KiB; brotli 1.1, which takes no output
limit either, fed 16 bytes at a time: at most a few meta-blocks of up to 16 MiB). A zstd frame asking for
a window over 8 MiB (more than levels 1-19 use) is refused rather than allocated.

Nothing passes unsaid: `Decoded.problem` names why a body was not decoded whole (an unknown coding, a
corrupt or truncated stream, bytes after the stream's end), and `Decoded.data` is then what was decoded
followed by the coding's input as sent, so the detectors still read a plain-text secret that a server
might take from a body its decoder stopped short of.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

BROTLI_STEP = 16  # bytes of brotli input per decoder call (its output per call has no limit)
ZSTD_MAX_WINDOW = 1 << 23  # zstd levels 1-19 use at most this; a frame asking for more is refused
ZSTD_STEP = 64  # bytes of zstd input per decoder call: at most ~2 MiB of output (16 blocks)


@dataclass(frozen=True, slots=True)
class Decoded:
    data: bytes | None  # None: no coding to undo (the body is read as sent)
    problem: str = ""  # why the body was not decoded whole; "" when it was (or was cut at `limit`)


class _Failed(Exception):
    def __init__(self, why: str, partial: bytes) -> None:
        super().__init__(why)
        self.why, self.partial = why, partial


def codings(encoding: str) -> list[str]:
    """The codings a Content-Encoding value (lower case; repeated headers joined) applies, `identity`
    left out: `identity, gzip` is gzip."""
    return [c for c in (part.strip() for part in encoding.split(",")) if c and c != "identity"]


def decode(encoding: str, data: bytes, limit: int) -> Decoded:
    """`data` without the codings `encoding` names: at most `limit` + 1 bytes of it (more than `limit`:
    the caller reads `limit` and says the body was over its cap)."""
    steps = codings(encoding)
    if not steps:
        return Decoded(None)
    for done, coding in enumerate(reversed(steps)):
        make = _INFLATERS.get(coding)
        if make is None:
            return Decoded(data, f"{coding[:20]!r} is not a coding Limen decodes")
        if not data:
            return Decoded(b"")
        inflater = make()
        try:
            out = inflater.feed(data, limit)
            if len(out) <= limit and not inflater.ended():
                raise _Failed("stream ends early", out)
        except _Failed as failed:
            return Decoded(failed.partial + b"\n" + data, f"{coding} {failed.why}")
        if len(out) > limit and done < len(steps) - 1:
            return Decoded(out, f"{coding} decoded past the cap before the codings under it")
        data = out
    return Decoded(data)


class Stream:
    """A streamed body's coding undone chunk by chunk: `feed(chunk, room)` answers at most `room` + 1
    decoded bytes (past `room` the caller stops feeding: what is left of the input is not decoded). One
    coding at most: a stream in stacked or unknown codings has a `problem` from the start, and one that
    fails or ends early gets one (`feed` then answers what was decoded before)."""

    def __init__(self, encoding: str) -> None:
        steps = codings(encoding)
        self.problem = ""
        self._inflater: _Inflater | None = None
        if len(steps) > 1:
            self.problem = f"stacked codings {encoding[:40]!r} are not decoded in a stream"
        elif steps:
            make = _INFLATERS.get(steps[0])
            if make is None:
                self.problem = f"{steps[0][:20]!r} is not a coding Limen decodes"
            else:
                self._inflater = make()

    def feed(self, chunk: bytes, room: int) -> bytes:
        """`chunk` decoded (b"": the end of the body, checked for a stream left unfinished)."""
        if self.problem:
            return b""
        if self._inflater is None:
            return chunk
        try:
            if not chunk:
                if self._inflater.fed and not self._inflater.ended():
                    self.problem = "stream ends early"
                return b""
            return self._inflater.feed(chunk, room)
        except _Failed as failed:
            self.problem = failed.why
            return failed.partial


class _Inflater:
    """One coding undone incrementally; `feed` answers at most `room` + 1 bytes (more input past that is
    dropped: the caller is done) and raises `_Failed` with what it decoded before a failure."""

    fed = False

    def feed(self, data: bytes, room: int) -> bytes:
        raise NotImplementedError

    def ended(self) -> bool:
        raise NotImplementedError


class _Zlib(_Inflater):
    """gzip (every member, zero padding after the last ignored) or deflate (zlib-wrapped, or raw when its
    first two bytes are no zlib header, as mitmproxy reads it)."""

    def __init__(self, gzip: bool) -> None:
        self.gzip = gzip
        self.inflate: Any = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzip else None
        self.head = b""  # deflate: the first byte, until the second says which wrapper it is
        self.done = False

    def feed(self, data: bytes, room: int) -> bytes:
        self.fed = True
        if self.inflate is None:
            data, self.head = self.head + data, b""
            if len(data) < 2:
                self.head = data
                return b""
            zlib_header = data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
            self.inflate = zlib.decompressobj(zlib.MAX_WBITS if zlib_header else -zlib.MAX_WBITS)
        out = bytearray()
        while data:
            if self.done:
                if not data.strip(b"\0"):
                    break
                if not self.gzip:
                    raise _Failed("stream is followed by other bytes", bytes(out))
                self.inflate, self.done = zlib.decompressobj(16 + zlib.MAX_WBITS), False
            try:
                out += self.inflate.decompress(data, room + 1 - len(out))
            except zlib.error as exc:
                raise _Failed(f"stream is corrupt ({exc})", bytes(out)) from None
            if len(out) > room:
                break
            self.done = self.inflate.eof
            data = self.inflate.unused_data if self.done else b""
        return bytes(out)

    def ended(self) -> bool:
        return self.done


class _Brotli(_Inflater):
    def __init__(self) -> None:
        import brotli  # type: ignore[import-untyped]

        self.error = brotli.error
        self.inflate = brotli.Decompressor()

    def feed(self, data: bytes, room: int) -> bytes:
        self.fed = True
        parts: list[bytes] = []
        size = 0
        for start in range(0, len(data), BROTLI_STEP):
            try:
                part = self.inflate.process(data[start : start + BROTLI_STEP])
            except self.error:
                finished = self.inflate.is_finished()
                why = "stream is followed by other bytes" if finished else "stream is corrupt"
                raise _Failed(why, b"".join(parts)) from None
            if part:
                parts.append(part)
                size += len(part)
                if size > room:
                    return b"".join(parts)[: room + 1]
        return b"".join(parts)

    def ended(self) -> bool:
        return bool(self.inflate.is_finished())


class _Zstd(_Inflater):
    """Frame after frame (a decompressobj reads one), ZSTD_STEP bytes of input a call."""

    def __init__(self) -> None:
        import zstandard

        self.error = zstandard.ZstdError
        self.decompressor = zstandard.ZstdDecompressor(max_window_size=ZSTD_MAX_WINDOW)
        self.inflate = self.decompressor.decompressobj()

    def feed(self, data: bytes, room: int) -> bytes:
        self.fed = True
        out = bytearray()
        while data:
            step, data = data[:ZSTD_STEP], data[ZSTD_STEP:]
            if self.inflate.eof:
                self.inflate = self.decompressor.decompressobj()
            try:
                out += self.inflate.decompress(step)
            except self.error as exc:
                raise _Failed(f"stream is corrupt ({str(exc)[:80]})", bytes(out)) from None
            if len(out) > room:
                return bytes(out[: room + 1])
            if self.inflate.eof and self.inflate.unused_data:
                data = self.inflate.unused_data + data
        return bytes(out)

    def ended(self) -> bool:
        return bool(self.inflate.eof)


_INFLATERS: dict[str, Callable[[], _Inflater]] = {
    "gzip": lambda: _Zlib(gzip=True),
    "x-gzip": lambda: _Zlib(gzip=True),
    "deflate": lambda: _Zlib(gzip=False),
    "br": _Brotli,
    "zstd": _Zstd,
}
