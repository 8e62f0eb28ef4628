"""The append path: one `os.write` per record on an O_APPEND descriptor, under an exclusive `flock`.

Many processes (one hook process per call, the daemon, the MCP proxy) append to one log. Under the lock a
writer learns the chain's head from the end of the file (cached while the file size is what it last wrote),
writes its record, and re-signs `head.json`. The record is in the OS before `append` returns, so a process
killed afterwards loses nothing it answered. `fsync` (which only matters for a power loss) is batched: every
`fsync_every` records or `fsync_interval` seconds a background thread flushes, off the decision path;
`fsync_every=1` flushes every record before `append` returns; `0` leaves it to the OS.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from typing import Any

from limen.audit import CHECKPOINT_EVERY, GENESIS, HEAD_NAME, LOG_NAME, default_dir
from limen.audit.chain import decode, encode, mac
from limen.state.keys import installation_key

HEAD_SIZE = 256
_TAIL_CHUNK = 65536


class AuditWriter:
    def __init__(
        self,
        directory: str | None = None,
        *,
        fsync_every: int = 64,
        fsync_interval: float = 1.0,
        home: str | None = None,
    ) -> None:
        self.directory = directory or default_dir()
        os.makedirs(self.directory, mode=0o700, exist_ok=True)
        self._key = installation_key("audit", home)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        self._fd = os.open(os.path.join(self.directory, LOG_NAME), flags, 0o600)
        self._read_fd = os.open(
            os.path.join(self.directory, LOG_NAME), os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
        )
        self._head_fd = os.open(os.path.join(self.directory, HEAD_NAME), os.O_RDWR | os.O_CREAT, 0o600)
        self._lock = threading.Lock()
        self._size = -1  # file size after our last write; anything else means another writer appended
        self._seq = 0
        self._hash = GENESIS
        self.fsync_every = fsync_every
        self.fsync_interval = fsync_interval
        self._unsynced = 0
        self._synced_at = time.monotonic()
        self._flusher: threading.Thread | None = None
        self._wake = threading.Event()
        self._closed = False

    def _head_from_file(self, size: int) -> tuple[int, str, bool]:
        """(last seq, last hash, file ends mid-line) read from the end of the log."""
        if size == 0:
            return 0, GENESIS, False
        chunk = _TAIL_CHUNK
        while True:
            start = max(0, size - chunk)
            data = os.pread(self._read_fd, size - start, start)
            partial = not data.endswith(b"\n")
            lines = data.rstrip(b"\n").split(b"\n") if not partial else data.split(b"\n")[:-1]
            complete = [ln for ln in (lines if start == 0 else lines[1:]) if ln]
            if complete:
                record, digest, _ = decode(complete[-1].decode())
                return int(record["seq"]), digest, partial
            if start == 0:
                return 0, GENESIS, partial
            chunk *= 4

    def append(self, record: dict[str, Any]) -> int:
        """Chain, write and sign one record; returns its sequence number. Raises OSError on failure."""
        with self._lock:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                return self._append_locked(record)
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def _append_locked(self, record: dict[str, Any]) -> int:
        size = os.fstat(self._fd).st_size
        prefix = ""
        if size != self._size:
            self._seq, self._hash, partial = self._head_from_file(size)
            prefix = "\n" if partial else ""  # never glue a record onto a torn line
        out = [prefix]
        seq = self._seq + 1
        checkpoint = seq % CHECKPOINT_EVERY == 0
        if checkpoint:
            line, self._hash = encode(
                {
                    "seq": seq,
                    "prev": self._hash,
                    "kind": "checkpoint",
                    "ts": round(time.time(), 3),
                    "mac": mac(self._key, seq, self._hash),
                }
            )
            out.append(line)
            seq += 1
        line, digest = encode({**record, "seq": seq, "prev": self._hash})
        out.append(line)
        data = "".join(out).encode()
        written = os.write(self._fd, data)
        if written != len(data):
            raise OSError("short write to the audit log")
        self._seq, self._hash, self._size = seq, digest, size + len(data)
        self._sign_head()
        self._unsynced += 1
        if self.fsync_every == 1:
            os.fsync(self._fd)
            self._unsynced = 0
        elif self.fsync_every > 0 and (checkpoint or self._due()):
            self._unsynced, self._synced_at = 0, time.monotonic()
            self._flush_soon()
        return seq

    def _due(self) -> bool:
        return self._unsynced >= self.fsync_every or time.monotonic() - self._synced_at >= self.fsync_interval

    def _flush_soon(self) -> None:
        if self._flusher is None:
            self._flusher = threading.Thread(target=self._flush_loop, name="limen-audit-fsync", daemon=True)
            self._flusher.start()
        self._wake.set()

    def _flush_loop(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._closed:
                return
            try:
                os.fsync(self._fd)
                os.fsync(self._head_fd)
            except OSError:
                return

    def _sign_head(self) -> None:
        head = (
            f'{{"seq": {self._seq}, "h": "{self._hash}", "mac": "{mac(self._key, self._seq, self._hash)}"}}'
        )
        os.pwrite(self._head_fd, head.encode().ljust(HEAD_SIZE), 0)

    def sync(self) -> None:
        with self._lock:
            os.fsync(self._fd)
            os.fsync(self._head_fd)
            self._unsynced = 0

    def close(self) -> None:
        """Stop the flusher, flush what is pending, close the files."""
        self._closed = True
        if self._flusher is not None:
            self._wake.set()
            self._flusher.join(timeout=5)
        with self._lock:
            if self._unsynced or self._flusher is not None:
                with contextlib.suppress(OSError):
                    os.fsync(self._fd)
                    os.fsync(self._head_fd)
            for fd in (self._fd, self._read_fd, self._head_fd):
                with contextlib.suppress(OSError):
                    os.close(fd)
