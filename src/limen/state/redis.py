"""Redis session store: sessions shared by every replica of `limen serve` (and any process given the URL).

The same contract as `SqliteStore`, one key family per session under a prefix (default `limen:`):

    {p}s:{session}:flags   set of flags
    {p}s:{session}:taint   hash fingerprint -> secret length (first length kept, as SQLite's INSERT OR IGNORE)
    {p}s:{session}:vals    hash fingerprint -> labels joined by "," (merged atomically by a script)
    {p}s:{session}:hist    list of JSON entries, trimmed to the most recent HISTORY_LIMIT in the same MULTI
    {p}s:{session}:calls   sorted set of call times: the rate window, a true sliding window kept atomic by a
                           script that reads Redis's own clock (replicas with skewed clocks count alike)
    {p}sessions            set of session ids that hold anything
    {p}pins                hash tool key -> JSON [fingerprint, pending]
    {p}marker              written when the store is first set up: its disappearance means Redis lost data

A Redis that restarted without persistence, was flushed or evicted keys would silently forget every taint.
So the store remembers (in-process, and in a file under Limen's home named by the URL) that it has seen the
marker; when the marker is gone afterwards, the loss is recorded (`{p}state_lost`) and every session counts
as tainted and untrusted until a person clears it or acknowledges the loss, as with a damaged SQLite file.
Run Redis with `maxmemory-policy noeviction` and persistence (AOF) so that this never fires.

Every method is one round trip or one atomic script; a connection error propagates, and the runtime turns it
into a BLOCK with a reason code (fail closed).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from limen.state import FILES_LIMIT, HISTORY_LIMIT, STATE_LOST, TAINTED, UNTRUSTED

if TYPE_CHECKING:
    import redis

_LOST_FLAGS = frozenset({STATE_LOST, TAINTED, UNTRUSTED})

# KEYS[1] = the session's call window, KEYS[2] its call counter; ARGV[1] = window seconds. Drop what fell
# out, add this call. The member is the time plus a per-call counter, so two calls in one microsecond are both
# counted.
_WINDOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('INCR', KEYS[2])
redis.call('ZADD', KEYS[1], now, t[1] .. '.' .. t[2] .. ':' .. n)
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000) + 1000)
redis.call('PEXPIRE', KEYS[2], math.ceil(window * 1000) + 1000)
"""
_COUNT_CALL = _WINDOW + "return redis.call('ZCARD', KEYS[1])\n"
# The same, and what `flags` reads, in one round trip: KEYS[3] = the session's flags, KEYS[4] the loss
# marker, KEYS[5] the sessions a person cleared since; ARGV[2] = the session.
_COUNT_CALL_FLAGS = _WINDOW + (
    "return {redis.call('ZCARD', KEYS[1]), redis.call('SMEMBERS', KEYS[3]), "
    "redis.call('EXISTS', KEYS[4]), redis.call('SISMEMBER', KEYS[5], ARGV[2])}\n"
)

# KEYS[1] = the session's value hash; ARGV[1] = label; ARGV[2..] = fingerprints. Merge the label in.
_ADD_VALUES = """
local label = ARGV[1]
for i = 2, #ARGV do
  local have = redis.call('HGET', KEYS[1], ARGV[i])
  if not have then
    redis.call('HSET', KEYS[1], ARGV[i], label)
  else
    local found = false
    for l in string.gmatch(have, '[^,]+') do
      if l == label then found = true end
    end
    if not found then redis.call('HSET', KEYS[1], ARGV[i], have .. ',' .. label) end
  end
end
return 0
"""


class RedisStore:
    """The store on one Redis database. Thread-safe: redis-py's client keeps a connection pool."""

    follow_every = 1.0  # seconds between looks at whether Redis still holds the marker

    def __init__(self, url: str, *, prefix: str = "limen:", home: str | None = None) -> None:
        import redis as redis_lib

        self.url = url
        self.prefix = prefix
        self._db: redis.Redis = redis_lib.Redis.from_url(
            url, socket_timeout=5.0, socket_connect_timeout=2.0, health_check_interval=30
        )
        self._count_call = self._db.register_script(_COUNT_CALL)
        self._count_call_flags = self._db.register_script(_COUNT_CALL_FLAGS)
        self._add_values = self._db.register_script(_ADD_VALUES)
        self._note = _note_path(url, prefix, home)
        self._lock = threading.Lock()
        self._seen_marker = False
        self._lost = False
        self._followed_at = 0.0
        self._follow()

    # -- keys ----------------------------------------------------------------------------------------------
    def _key(self, session_id: str, part: str) -> str:
        return f"{self.prefix}s:{session_id}:{part}"

    # -- data loss -----------------------------------------------------------------------------------------
    def _follow(self) -> None:
        """Check the marker: set it up on a new store, record a loss when it vanished after being seen."""
        self._followed_at = time.monotonic()
        marker = f"{self.prefix}marker"
        if self._db.exists(marker):
            if not self._seen_marker:
                self._seen_marker = True
                _touch(self._note)
        elif self._seen_marker or os.path.exists(self._note):
            why = {
                "at": time.time(),
                "why": "lost its data (restarted without persistence, flushed or evicted)",
            }
            pipe = self._db.pipeline(transaction=True)
            pipe.set(f"{self.prefix}state_lost", json.dumps(why), nx=True)
            pipe.set(marker, str(time.time()))
            pipe.execute()
            self._seen_marker = True
        else:
            self._db.set(marker, str(time.time()), nx=True)
            self._seen_marker = True
            _touch(self._note)
        self._lost = bool(self._db.exists(f"{self.prefix}state_lost"))

    def _check(self) -> None:
        if time.monotonic() - self._followed_at >= self.follow_every:
            with self._lock:
                if time.monotonic() - self._followed_at >= self.follow_every:
                    self._follow()

    # -- the store -------------------------------------------------------------------------------------------
    def flags(self, session_id: str) -> frozenset[str]:
        self._check()
        if not self._lost:
            return frozenset(_text(f) for f in self._db.smembers(self._key(session_id, "flags")))
        pipe = self._db.pipeline(transaction=False)
        pipe.smembers(self._key(session_id, "flags"))
        pipe.exists(f"{self.prefix}state_lost")
        pipe.sismember(f"{self.prefix}reviewed", session_id)
        members, lost, reviewed = pipe.execute()
        flags = frozenset(_text(f) for f in members)
        return flags | _LOST_FLAGS if lost and not reviewed else flags

    def set_flags(self, session_id: str, flags: Iterable[str]) -> None:
        wanted = list(flags)
        if wanted:
            pipe = self._db.pipeline(transaction=True)
            pipe.sadd(self._key(session_id, "flags"), *wanted)
            pipe.sadd(f"{self.prefix}sessions", session_id)
            pipe.execute()

    def taint(self, session_id: str) -> dict[str, int]:
        return {_text(k): int(v) for k, v in self._db.hgetall(self._key(session_id, "taint")).items()}

    def add_taint(self, session_id: str, fingerprints: Mapping[str, int]) -> None:
        if not fingerprints:
            return
        pipe = self._db.pipeline(transaction=True)
        for fp, length in fingerprints.items():
            pipe.hsetnx(self._key(session_id, "taint"), fp, int(length))
        pipe.sadd(f"{self.prefix}sessions", session_id)
        pipe.execute()

    def add_values(self, session_id: str, label: str, fingerprints: Iterable[str]) -> None:
        fps = list(fingerprints)
        if fps:
            self._add_values(keys=[self._key(session_id, "vals")], args=[label, *fps])

    def value_labels(self, session_id: str, fingerprints: Sequence[str]) -> dict[str, set[str]]:
        if not fingerprints:
            return {}
        found = self._db.hmget(self._key(session_id, "vals"), list(fingerprints))
        return {fp: set(_text(v).split(",")) for fp, v in zip(fingerprints, found, strict=True) if v}

    def append_history(self, session_id: str, entry: Mapping[str, Any]) -> None:
        """Append, and drop this session's entries beyond the most recent `HISTORY_LIMIT`."""
        pipe = self._db.pipeline(transaction=True)
        pipe.rpush(self._key(session_id, "hist"), json.dumps(entry, separators=(",", ":")))
        pipe.ltrim(self._key(session_id, "hist"), -HISTORY_LIMIT, -1)
        pipe.sadd(f"{self.prefix}sessions", session_id)
        pipe.execute()

    def history(self, session_id: str, limit: int = HISTORY_LIMIT) -> list[dict[str, Any]]:
        if limit <= 0:
            return []
        rows = self._db.lrange(self._key(session_id, "hist"), -limit, -1)
        return [json.loads(r) for r in rows]

    def remember_file(self, session_id: str, path: str, text: str) -> None:
        """A hash of path -> [text, time] and a list of paths, oldest first, trimmed to `FILES_LIMIT`."""
        pipe = self._db.pipeline(transaction=True)
        pipe.hset(self._key(session_id, "files"), path, json.dumps([text, time.time()]))
        pipe.lrem(self._key(session_id, "fileorder"), 0, path)
        pipe.rpush(self._key(session_id, "fileorder"), path)
        pipe.lrange(self._key(session_id, "fileorder"), 0, -FILES_LIMIT - 1)
        pipe.ltrim(self._key(session_id, "fileorder"), -FILES_LIMIT, -1)
        pipe.sadd(f"{self.prefix}sessions", session_id)
        dropped = pipe.execute()[3]
        if dropped:
            self._db.hdel(self._key(session_id, "files"), *dropped)

    def files(self, session_id: str) -> dict[str, tuple[str, float]]:
        order = [_text(p) for p in self._db.lrange(self._key(session_id, "fileorder"), 0, -1)]
        found = self._db.hmget(self._key(session_id, "files"), order) if order else []
        kept = {}
        for path, raw in zip(order, found, strict=True):
            if raw is not None:
                text, when = json.loads(raw)
                kept[path] = (str(text), float(when))
        return kept

    def count_call(self, session_id: str, window: float) -> int:
        """A sliding window: the calls whose time (Redis's clock) lies within the last `window` seconds."""
        keys = [self._key(session_id, "calls"), self._key(session_id, "callseq")]
        return int(self._count_call(keys=keys, args=[max(float(window), 0.0)]))

    def count_call_and_flags(self, session_id: str, window: float) -> tuple[int, frozenset[str]]:
        """One script, one round trip: the window as `count_call` keeps it, the flags as `flags` reads them
        (the loss marker read live, as `flags` does once it knows of a loss)."""
        self._check()
        keys = [
            self._key(session_id, "calls"),
            self._key(session_id, "callseq"),
            self._key(session_id, "flags"),
            f"{self.prefix}state_lost",
            f"{self.prefix}reviewed",
        ]
        count, members, lost, reviewed = self._count_call_flags(
            keys=keys, args=[max(float(window), 0.0), session_id]
        )
        flags = frozenset(_text(f) for f in members)
        return int(count), flags | _LOST_FLAGS if lost and not reviewed else flags

    def clear(self, session_id: str, *, taint_only: bool) -> None:
        parts = (
            ("taint",)
            if taint_only
            else ("taint", "flags", "vals", "hist", "calls", "callseq", "files", "fileorder")
        )
        pipe = self._db.pipeline(transaction=True)
        pipe.delete(*(self._key(session_id, p) for p in parts))
        pipe.srem(self._key(session_id, "flags"), TAINTED)
        if not taint_only:
            pipe.srem(f"{self.prefix}sessions", session_id)
        if self._lost or self._db.exists(f"{self.prefix}state_lost"):
            pipe.sadd(f"{self.prefix}reviewed", session_id)  # a person cleared it: the loss no longer counts
        pipe.execute()

    def state_lost(self) -> str:
        raw = self._db.get(f"{self.prefix}state_lost")
        if raw is None:
            return ""
        try:
            lost = json.loads(raw)
            when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(lost["at"])))
            return f"session state was lost at {when}: Redis at {_safe(self.url)} {lost['why']}"
        except (ValueError, KeyError, TypeError):
            return "session state was lost (its record is unreadable)"

    def acknowledge_state_loss(self) -> None:
        self._db.delete(f"{self.prefix}state_lost", f"{self.prefix}reviewed")
        self._lost = False

    def sessions(self) -> list[str]:
        """Sessions holding flags, taint or history (as SQLite lists them)."""
        ids = sorted(_text(s) for s in self._db.smembers(f"{self.prefix}sessions"))
        if not ids:
            return []
        pipe = self._db.pipeline(transaction=False)
        for sid in ids:
            pipe.exists(self._key(sid, "flags"), self._key(sid, "taint"), self._key(sid, "hist"))
        return [sid for sid, n in zip(ids, pipe.execute(), strict=True) if n]

    def get_pin(self, key: str) -> tuple[str, str | None] | None:
        raw = self._db.hget(f"{self.prefix}pins", key)
        if raw is None:
            return None
        fp, pending = json.loads(raw)
        return str(fp), (str(pending) if pending is not None else None)

    def set_pin(self, key: str, fingerprint: str, pending: str | None) -> None:
        self._db.hset(f"{self.prefix}pins", key, json.dumps([fingerprint, pending]))

    def pending_pins(self) -> list[str]:
        pins = self._db.hgetall(f"{self.prefix}pins")
        return sorted(_text(k) for k, v in pins.items() if json.loads(v)[1] is not None)

    # -- beyond the session contract: which agent identity a session belongs to (`limen serve`) ----------
    def claim_session(self, session_id: str, identity: str) -> str:
        """Bind the session to `identity` unless it is bound already; the identity it is bound to."""
        key = f"{self.prefix}owner:{session_id}"
        pipe = self._db.pipeline(transaction=True)
        pipe.set(key, identity, nx=True)
        pipe.get(key)
        _, owner = pipe.execute()
        return _text(owner)

    def ping(self) -> bool:
        return bool(self._db.ping())

    def close(self) -> None:
        self._db.close()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _safe(url: str) -> str:
    """The URL without its password (it may reach an error message or the log)."""
    import urllib.parse

    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def _note_path(url: str, prefix: str, home: str | None) -> str:
    """Where this machine remembers it has used the store at `url` (named by a hash, no password in it)."""
    from limen.home import limen_home

    name = hashlib.sha256(f"{_safe(url)}\x00{prefix}".encode()).hexdigest()[:24]
    return os.path.join(home or limen_home(), "state-seen", f"redis-{name}")


def _touch(path: str) -> None:
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        with open(path, "a"):
            pass
    except OSError:
        pass  # only weakens loss detection on a fresh process; the in-process memory still holds
