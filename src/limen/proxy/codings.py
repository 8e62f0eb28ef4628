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
from dataclasses import dataclass

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
        undo = _DECODERS.get(coding)
        if undo is None:
            return Decoded(data, f"{coding[:20]!r} is not a coding Limen decodes")
        try:
            out = undo(data, limit) if data else b""
        except _Failed as failed:
            return Decoded(failed.partial + b"\n" + data, f"{coding} {failed.why}")
        if len(out) > limit and done < len(steps) - 1:
            return Decoded(out, f"{coding} decoded past the cap before the codings under it")
        data = out
    return Decoded(data)


def _gzip(data: bytes, limit: int) -> bytes:
    return _zlib(data, limit, 16 + zlib.MAX_WBITS, members=True)


def _deflate(data: bytes, limit: int) -> bytes:
    try:
        return _zlib(data, limit, zlib.MAX_WBITS, members=False)
    except _Failed as failed:
        if failed.partial:
            raise
        return _zlib(data, limit, -zlib.MAX_WBITS, members=False)  # raw deflate, no zlib header


def _zlib(data: bytes, limit: int, wbits: int, members: bool) -> bytes:
    out = bytearray()
    rest = data
    while rest:
        inflate = zlib.decompressobj(wbits)
        try:
            out += inflate.decompress(rest, limit + 1 - len(out))
        except zlib.error as exc:
            raise _Failed(f"stream is corrupt ({exc})", bytes(out)) from None
        if len(out) > limit:
            return bytes(out)
        if not inflate.eof:
            raise _Failed("stream ends early", bytes(out))
        rest = inflate.unused_data
        if not rest.strip(b"\0"):  # zero padding after the last member (gzip reads it so)
            break
        if not members:
            raise _Failed("stream is followed by other bytes", bytes(out))
    return bytes(out)


def _brotli(data: bytes, limit: int) -> bytes:
    import brotli  # type: ignore[import-untyped]

    inflate = brotli.Decompressor()
    parts: list[bytes] = []
    size = 0
    for start in range(0, len(data), BROTLI_STEP):
        try:
            part = inflate.process(data[start : start + BROTLI_STEP])
        except brotli.error:
            why = "stream is followed by other bytes" if inflate.is_finished() else "stream is corrupt"
            raise _Failed(why, b"".join(parts)) from None
        if part:
            parts.append(part)
            size += len(part)
            if size > limit:
                return b"".join(parts)[: limit + 1]
    if not inflate.is_finished():
        raise _Failed("stream ends early", b"".join(parts))
    return b"".join(parts)


def _zstd(data: bytes, limit: int) -> bytes:
    import zstandard

    decompressor = zstandard.ZstdDecompressor(max_window_size=ZSTD_MAX_WINDOW)
    out = bytearray()
    rest = data
    while rest:  # frame by frame (a decompressobj reads one)
        inflate = decompressor.decompressobj()
        start = 0
        while start < len(rest) and not inflate.eof:
            try:
                out += inflate.decompress(rest[start : start + ZSTD_STEP])
            except zstandard.ZstdError as exc:
                raise _Failed(f"stream is corrupt ({str(exc)[:80]})", bytes(out)) from None
            if len(out) > limit:
                return bytes(out[: limit + 1])
            start += ZSTD_STEP
        if not inflate.eof:
            raise _Failed("stream ends early", bytes(out))
        rest = inflate.unused_data + rest[start:]
    return bytes(out)


_DECODERS = {
    "gzip": _gzip,
    "x-gzip": _gzip,
    "deflate": _deflate,
    "br": _brotli,
    "zstd": _zstd,
}
