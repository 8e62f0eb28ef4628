"""The append path: one `os.write` per record on an O_APPEND descriptor, under an exclusive `flock`.

Many processes (one hook process per call, the daemon, the MCP proxy) append to one log. Under the lock a
writer learns the chain's head from the end of the file (cached while the file is the one it opened and its
size is what it last wrote), writes its record, and re-signs `head.json` and its anchor. The record is in the
OS before `append` returns, so a process killed afterwards loses nothing it answered. `fsync` (which only
matters for a power loss) is batched: every `fsync_every` records or `fsync_interval` seconds a background
thread flushes, off the decision path; `fsync_every=1` flushes every record before `append` returns; `0`
leaves it to the OS.

The head is checked before it is re-signed. Whenever the file is not what this writer last left (another
writer appended, or someone else touched it), the file's last record must be the one the signed head and its
anchor name, or come within one write after them (a writer killed between its record and its signature).
Anything else (a truncated tail, a rewritten record, a deleted log, a head that is missing or not signed with
this installation's key) is a break. A break is never signed over silently, and it never costs a record:
the append still happens, behind a `chain_break` record that chains to what the file now ends with and names
the head that was expected and the tail that was found. `limen audit verify` reports every `chain_break` as a
problem for as long as the log exists; deleting the break record again breaks the chain, the head and the
anchor. The decision that found the break still stands as decided, so its record stays equal to the answer
the agent got: the break is about the log's past, and the log is where it is kept.
"""

from __future__ import annotations

import contextlib
import fcntl
import hmac
import json
import os
import threading
import time
from typing import Any

from limen.audit import CHECKPOINT_EVERY, GENESIS, HEAD_NAME, LOG_NAME, MAX_LAG, anchor_path, default_dir
from limen.audit.chain import decode, encode, mac
from limen.state.keys import installation_key

HEAD_SIZE = 256
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_FIRST_CHUNK = 8192


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
        self._log_path = os.path.join(self.directory, LOG_NAME)
        self._fd = self._read_fd = -1
        self._log_id: tuple[int, int] | None = None
        self._size = -1  # file size after our last write; anything else means another writer appended
        self._seq = 0
        self._hash = GENESIS
        self._replaced: tuple[int, str] | None = None  # our last record, in a log that left the path
        self._open_log()
        anchor = anchor_path(self.directory, home)
        self._head = _SignedFile(os.path.join(self.directory, HEAD_NAME))
        self._anchor = _SignedFile(anchor)
        self._lock = threading.Lock()
        self.fsync_every = fsync_every
        self.fsync_interval = fsync_interval
        self._unsynced = 0
        self._synced_at = time.monotonic()
        self._flusher: threading.Thread | None = None
        self._wake = threading.Event()
        self._closed = False

    def _open_log(self) -> None:
        """(Re)open the log at its path, creating it (and its directory) when it is gone. A log this writer
        appended to that is no longer at the path is a break of its own, even when the signed head and the
        anchor went with it: this writer still knows the last record it wrote."""
        if self._size >= 0:
            self._replaced = (self._seq, self._hash)
        for fd in (self._fd, self._read_fd):
            if fd >= 0:
                os.close(fd)
        os.makedirs(self.directory, mode=0o700, exist_ok=True)
        self._fd = os.open(self._log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _CLOEXEC, 0o600)
        self._read_fd = os.open(self._log_path, os.O_RDONLY | _CLOEXEC)
        info = os.fstat(self._fd)
        self._log_id = (info.st_dev, info.st_ino)
        self._size = -1

    def append(self, record: dict[str, Any]) -> int:
        """Chain, write and sign one record; returns its sequence number. Raises OSError on failure."""
        with self._lock:
            while True:
                fcntl.flock(self._fd, fcntl.LOCK_EX)
                size = self._locked_size()
                if size >= 0:
                    break
                # The path names another file than the one locked (deleted or replaced): follow the path,
                # so nothing is written where no reader will look.
                fcntl.flock(self._fd, fcntl.LOCK_UN)
                self._open_log()
            try:
                return self._append_locked(record, size)
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def size(self) -> int:
        """The log's size now: a record appended from here on lies past it (see `append_once`)."""
        return os.fstat(self._fd).st_size

    def append_once(self, record: dict[str, Any], *, since: int, timeout: float = 2.0) -> bool:
        """Append `record` unless a record with its `id` was appended past offset `since`; False when it
        was. Two processes that may both hold the record of one answer (the hook client and the daemon that
        decided it) both call this, and the lock makes exactly one of them write it. Raises TimeoutError
        when the lock is not free within `timeout` (a writer stopped while holding it)."""
        needle = f'"id":{json.dumps(record["id"])}'.encode()
        with self._lock:
            end = time.monotonic() + timeout
            while True:
                self._lock_file(end)
                size = self._locked_size()
                if size >= 0:
                    break
                fcntl.flock(self._fd, fcntl.LOCK_UN)
                self._open_log()
            try:
                if self._written_since(needle, since, size):
                    return False
                self._append_locked(record, size)
                return True
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def _lock_file(self, end: float) -> None:
        while True:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= end:
                    raise TimeoutError("the audit log stayed locked") from None
                time.sleep(0.005)

    def _written_since(self, needle: bytes, since: int, size: int) -> bool:
        """Whether `needle` occurs in the log between `since` and `size` (read in bounded chunks)."""
        offset, overlap = max(0, min(since, size)), b""
        while offset < size:
            chunk = os.pread(self._read_fd, min(1 << 20, size - offset), offset)
            if not chunk:
                return False
            if needle in overlap + chunk:
                return True
            overlap, offset = chunk[-len(needle) :], offset + len(chunk)
        return False

    def _locked_size(self) -> int:
        """The log's size when its path still names the file we locked, else -1."""
        try:
            info = os.stat(self._log_path)
        except FileNotFoundError:
            return -1
        return info.st_size if (info.st_dev, info.st_ino) == self._log_id else -1

    def _append_locked(self, record: dict[str, Any], size: int) -> int:
        seq = self._seq + 1
        if size == self._size and seq % CHECKPOINT_EVERY:  # the file is as we left it; no checkpoint due
            line, digest = encode({**record, "seq": seq, "prev": self._hash})
            return self._written(line.encode(), seq, digest, size, checkpoint=False)
        records = [record]
        prefix = ""
        if size != self._size:
            tail = _Tail(self._read_fd, size)
            prefix = "\n" if tail.partial else ""  # never glue a record onto a torn line
            found = self._check(tail)
            if found is not None:
                records.insert(0, found)
        out = [prefix]
        seq, prev, checkpoint = self._seq, self._hash, False  # the head moves only once the write is done
        for item in records:
            seq += 1
            if seq % CHECKPOINT_EVERY == 0:
                line, prev = encode(
                    {
                        "seq": seq,
                        "prev": prev,
                        "kind": "checkpoint",
                        "ts": round(time.time(), 3),
                        "mac": mac(self._key, seq, prev),
                    }
                )
                out.append(line)
                seq, checkpoint = seq + 1, True
            line, prev = encode({**item, "seq": seq, "prev": prev})
            out.append(line)
        return self._written("".join(out).encode(), seq, prev, size, checkpoint)

    def _written(self, data: bytes, seq: int, digest: str, size: int, checkpoint: bool) -> int:
        """Write `data` (ending with record `seq`, hashed `digest`) at the end of a log of `size` bytes, move
        the head there and sign it; fsync as configured."""
        written = os.write(self._fd, data)
        if written != len(data):
            raise OSError("short write to the audit log")
        self._seq, self._hash, self._size = seq, digest, size + len(data)
        self._sign(seq, digest)
        self._unsynced += 1
        if self.fsync_every == 1:
            os.fsync(self._fd)
            self._unsynced = 0
        elif self.fsync_every > 0 and (checkpoint or self._due()):
            self._unsynced, self._synced_at = 0, time.monotonic()
            self._flush_soon()
        return seq

    def _check(self, tail: _Tail) -> dict[str, Any] | None:
        """Take the chain's head from the file's last record and hold it against the signed head and its
        anchor; the `chain_break` record to write first when they disagree, else None."""
        last = tail.last()
        self._seq, self._hash = (last.seq, last.digest) if last else (0, GENESIS)
        problems = [f"the log ends with {tail.junk} line(s) that are not records"] if tail.junk else []
        if last is not None and not last.intact:
            problems.append(f"record {last.seq} does not match its hash")
        claims: list[tuple[int, str]] = []
        if self._replaced is not None:
            claims.append(self._replaced)
            problems.append(f"the log this writer appended to (up to seq {self._replaced[0]}) left its path")
            self._replaced = None
        seen: dict[bytes, tuple[int, str] | None] = {}
        for where, signed in (("head.json", self._head), ("the anchor", self._anchor)):
            raw = signed.load()
            if not raw or not raw.strip():
                continue
            if raw not in seen:
                seen[raw] = self._verified(raw)
            claim = seen[raw]
            if claim is None:
                problems.append(f"{where} is not signed with this installation's key")
                continue
            claims.append(claim)
            if not tail.contains(*claim):
                problems.append(f"{where} names seq {claim[0]}, which the log does not end with")
        if not seen and self._seq:
            problems.append("the log holds records but neither head.json nor its anchor exists")
        if not problems:
            if not seen:  # a new log: sign the empty chain first, so dying mid-append leaves a head
                self._sign(0, GENESIS)
            return None
        expected = max(claims, default=None)
        return {
            "kind": "chain_break",
            "ts": round(time.time(), 3),
            "why": "; ".join(problems),
            "expected": {"seq": expected[0], "h": expected[1]} if expected else None,
            "found": {"seq": self._seq, "h": self._hash},
        }

    def _verified(self, raw: bytes) -> tuple[int, str] | None:
        """(seq, hash) of a signed head, or None when it is unreadable or not signed with our key."""
        try:
            head = json.loads(raw)
            seq, digest = int(head["seq"]), str(head["h"])
            signature = str(head["mac"])
        except (ValueError, KeyError, TypeError):
            return None
        return (seq, digest) if hmac.compare_digest(signature, mac(self._key, seq, digest)) else None

    def _sign(self, seq: int, digest: str) -> None:
        head = f'{{"seq": {seq}, "h": "{digest}", "mac": "{mac(self._key, seq, digest)}"}}'.encode()
        data = head.ljust(HEAD_SIZE)
        self._head.store(data)
        self._anchor.store(data)

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
            # A descriptor may have been reopened under us (the log or a head replaced): the next round
            # flushes the new one, so a failed flush is not a reason to stop flushing.
            with contextlib.suppress(OSError):
                os.fsync(self._fd)
                self._head.sync()
                self._anchor.sync()

    def sync(self) -> None:
        with self._lock:
            os.fsync(self._fd)
            self._head.sync()
            self._anchor.sync()
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
                    self._head.sync()
                    self._anchor.sync()
            for fd in (self._fd, self._read_fd):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._head.close()
            self._anchor.close()


class _SignedFile:
    """One copy of the signed head: `head.json`, or its anchor. It is read by path, because someone may
    have replaced or deleted it since this writer last wrote, and written through a descriptor that follows
    the path whenever a read finds it names another file."""

    __slots__ = ("_fd", "_id", "path")

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd = -1
        self._id: tuple[int, int] | None = None

    def load(self) -> bytes | None:
        """The file's bytes, or None when there is no file at the path."""
        try:
            info = os.stat(self.path)
            if (info.st_dev, info.st_ino) != self._id:
                self.close()
                self._open(os.O_RDWR)
        except FileNotFoundError:
            self.close()
            return None
        return os.pread(self._fd, HEAD_SIZE, 0)

    def store(self, data: bytes) -> None:
        if self._fd < 0:
            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)  # deleting it stops nothing
            self._open(os.O_RDWR | os.O_CREAT)
        os.pwrite(self._fd, data, 0)

    def _open(self, flags: int) -> None:
        self._fd = os.open(self.path, flags | _CLOEXEC, 0o600)
        info = os.fstat(self._fd)
        self._id = (info.st_dev, info.st_ino)

    def sync(self) -> None:
        if self._fd >= 0:
            os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)
        self._fd, self._id = -1, None


class _Record:
    __slots__ = ("digest", "intact", "prev", "seq")

    def __init__(self, seq: int, prev: str, digest: str, intact: bool) -> None:
        self.seq, self.prev, self.digest, self.intact = seq, prev, digest, intact


class _Tail:
    """The log's last records, read backwards on demand: the common check decodes only the last one."""

    def __init__(self, fd: int, size: int) -> None:
        self._fd, self._size, self._chunk = fd, size, _FIRST_CHUNK
        self._lines: list[bytes] = []
        self._start = size
        self.partial = False
        self.junk = 0  # complete lines after the last record that hold no record
        self._records: list[_Record] = []  # decoded from the end
        self._next = 0  # index (from the end) of the next line to decode
        if size:
            self._read()

    def _read(self) -> None:
        start = max(0, self._size - self._chunk)
        data = os.pread(self._fd, self._size - start, start)
        self.partial = not data.endswith(b"\n")
        lines = data.split(b"\n")[:-1]  # what follows the last newline is empty or a torn write
        self._lines = [ln for ln in (lines if start == 0 else lines[1:]) if ln]
        self._start = start

    def _record(self, index: int) -> _Record | None:
        """The index-th record from the end (0 is the last), or None when the log holds fewer."""
        while len(self._records) <= index:
            while self._next >= len(self._lines) and self._start > 0:
                self._chunk *= 4
                self._read()
            if self._next >= len(self._lines):
                return None
            line = self._lines[-1 - self._next]
            self._next += 1
            try:
                record, digest, intact = decode(line.decode())
                found = _Record(int(record["seq"]), str(record.get("prev")), digest, intact)
            except (ValueError, KeyError, TypeError, UnicodeDecodeError):
                if not self._records:
                    self.junk += 1
                continue
            self._records.append(found)
        return self._records[index]

    def last(self) -> _Record | None:
        return self._record(0)

    def contains(self, seq: int, digest: str) -> bool:
        """Whether the chain the file ends with runs through the record (seq, digest): it is the last
        record, or the record after it (within one write of the end) chains to it."""
        last = self.last()
        if last is None:
            return seq == 0 and digest == GENESIS
        if seq == last.seq:
            return digest == last.digest
        for index in range(MAX_LAG):
            record = self._record(index)
            if record is None or record.seq <= seq:
                return False
            if record.seq == seq + 1:
                return record.prev == digest
        return False
