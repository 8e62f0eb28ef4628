"""The turn gate's repeat memory on Redis: every replica and host sharing the store shares it.

`RedisRepeatTracker` implements `limen.turngate.repeat.RepeatTracker` (the interface the SQLite file and the
in-memory tracker implement): a turn's record is one hash `{p}turn:{fingerprint}` (blocks, challenged,
denials, locked_until, last_seen), replaced by `update` in one optimistic transaction (WATCH, read, MULTI,
write; retried when another writer got there first), so two processes resubmitting the same turn at once
count two blocks and issue one challenge, exactly as the SQLite file's IMMEDIATE transaction does. Records
expire `max_age_s` after they were last seen, never while a lockout runs. Fingerprints are keyed HMACs
(`RepeatGate.fingerprint`): the turn's text never reaches Redis.

`open_repeat_tracker(home)` picks the tracker the configuration names: Redis when the session store is
Redis (`LIMEN_STATE_URL`, as `limen.state.open_store` reads it), else the SQLite file under Limen's home.
A lost Redis (restarted without persistence, flushed) forgets challenges and lockouts: a resubmitted turn is
then challenged again rather than let through, since a forgotten record starts from a block.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import redis

    from limen.turngate.repeat import RepeatTracker, Step, TurnRecord

_FIELDS = ("blocks", "challenged", "denials", "locked_until", "last_seen")
MAX_RETRIES = 50  # optimistic transactions lost to other writers before giving up (the gate then adds AUTH)


class RedisRepeatTracker:
    """A `RepeatTracker` on one Redis database. Thread-safe (redis-py keeps a connection pool)."""

    def __init__(
        self, url: str, *, prefix: str = "limen:", max_age_s: float = 7 * 86400.0, timeout_s: float = 5.0
    ) -> None:
        import redis as redis_lib

        self.url = url
        self.prefix = prefix
        self._max_age = max_age_s
        self._db: redis.Redis = redis_lib.Redis.from_url(
            url, socket_timeout=timeout_s, socket_connect_timeout=min(timeout_s, 2.0)
        )

    def _key(self, fingerprint: str) -> str:
        return f"{self.prefix}turn:{fingerprint}"

    def update(self, fingerprint: str, step: Step) -> tuple[TurnRecord, TurnRecord]:
        """Atomically replace the record (an empty one when absent) by `step(record)`: (before, after)."""
        import redis as redis_lib

        key = self._key(fingerprint)
        for _ in range(MAX_RETRIES):
            with self._db.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(key)  # type: ignore[no-untyped-call]
                    before = _record(pipe.hmget(key, _FIELDS))
                    after = step(before)
                    pipe.multi()
                    pipe.hset(
                        key,
                        mapping={
                            "blocks": after.blocks,
                            "challenged": int(after.challenged),
                            "denials": after.denials,
                            "locked_until": repr(after.locked_until),
                            "last_seen": repr(after.last_seen),
                        },
                    )
                    keep = max(after.last_seen + self._max_age, after.locked_until) - after.last_seen
                    pipe.expire(key, max(int(keep) + 1, 1))
                    pipe.execute()
                    return before, after
                except redis_lib.WatchError:
                    continue
        raise RuntimeError("the repeat record kept changing under concurrent writers")

    def close(self) -> None:
        self._db.close()


def _record(values: list[bytes | str | None]) -> TurnRecord:
    from limen.turngate.repeat import TurnRecord

    if all(v is None for v in values):
        return TurnRecord()
    blocks, challenged, denials, locked_until, last_seen = (
        v.decode() if isinstance(v, bytes) else (v or "0") for v in values
    )
    return TurnRecord(int(blocks), challenged == "1", int(denials), float(locked_until), float(last_seen))


def open_repeat_tracker(home: str, url: str | None = None) -> RepeatTracker:
    """The repeat memory the configuration names: Redis for `url` (or `LIMEN_STATE_URL`) when it is a Redis
    URL, else the SQLite file `turn_repeats.sqlite` under `home` that every hook process shares."""
    where = url or os.environ.get("LIMEN_STATE_URL") or ""
    if where.startswith(("redis://", "rediss://", "unix://")):
        return RedisRepeatTracker(where)
    from limen.turngate.repeat import SqliteRepeatTracker

    os.makedirs(home, mode=0o700, exist_ok=True)
    return SqliteRepeatTracker(os.path.join(home, "turn_repeats.sqlite"))
