"""The approval store on Redis (`limen.approvals.ApprovalStore`): approvals shared by every replica of
`limen serve`, so a request opened through one replica is answered once and its grant used once, whichever
replica the retried call reaches.

    {p}ap:{id}        the request as created, JSON (the `ApprovalRequest` fields)
    {p}ap:{id}:state  hash: what changes (status, expiry, answer, use), compare-and-set by the scripts
    {p}ap:fp:{fp}     set of the ids bound to one call fingerprint
    {p}ap:open        sorted set (by creation) of the requests still pending or granted
    {p}ap:all         sorted set (by creation) of every request, for `recent`

Every transition (grant, deny, claim, expire) is one Lua script: it reads the request, checks its status and
expiry, and writes it back, atomically in Redis, so of any number of concurrent answers or claims across
processes and replicas exactly one succeeds, as the SQLite store's `UPDATE ... WHERE status` guarantees.
A request is kept for a day after it expires (`RETAIN_SECONDS`), then Redis drops it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Any

from limen.approvals.records import (
    DENIED,
    GRANTED,
    PENDING,
    USED,
    ApprovalError,
    ApprovalRequest,
)

if TYPE_CHECKING:
    import redis

RETAIN_SECONDS = 86400

# KEYS[1] the request's state hash, KEYS[2] the open set; ARGV: now, new status, allowed statuses (comma
# list), the id, then field/value pairs to set. Returns {'ok'} on change, else {'no', status or ''}.
_TRANSITION = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'no', ''} end
local allowed = false
for s in string.gmatch(ARGV[3], '[^,]+') do
  if status == s then allowed = true end
end
local expires = tonumber(redis.call('HGET', KEYS[1], 'expires'))
if not allowed or expires <= tonumber(ARGV[1]) then return {'no', status} end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
for i = 5, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
if ARGV[2] ~= 'granted' and ARGV[2] ~= 'pending' then redis.call('ZREM', KEYS[2], ARGV[4]) end
return {'ok'}
"""

# KEYS[1] the open set; ARGV[1] now, ARGV[2] the key prefix of requests. Expire what is past its time;
# returns the ids this call expired.
_EXPIRE = """
local now = tonumber(ARGV[1])
local changed = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local key = ARGV[2] .. id .. ':state'
  local status = redis.call('HGET', key, 'status')
  if status == 'pending' or status == 'granted' then
    if tonumber(redis.call('HGET', key, 'expires')) <= now then
      redis.call('HSET', key, 'status', 'expired')
      redis.call('ZREM', KEYS[1], id)
      table.insert(changed, id)
    end
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return changed
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _request(raw: bytes | str, state: dict[Any, Any]) -> ApprovalRequest:
    f: dict[str, Any] = json.loads(raw)
    st = {_text(k): _text(v) for k, v in state.items()}
    return ApprovalRequest(
        id=str(f["id"]),
        fingerprint=str(f["fingerprint"]),
        tool=str(f["tool"]),
        action=str(f["action"]),
        reasons=tuple(str(r) for r in f["reasons"]),
        risk=int(f["risk"]),
        strong=bool(f["strong"]),
        session=str(f["session"]),
        workspace=str(f["workspace"]),
        door=str(f["door"]),
        decision_id=str(f["decision_id"]),
        created=float(f["created"]),
        expires=float(f["expires"]),
        status=st.get("status", str(f["status"])),
        answered_at=float(st.get("answered_at") or 0.0),
        answered_by=st.get("answered_by", ""),
        factor=st.get("factor", ""),
        used_at=float(st.get("used_at") or 0.0),
        used_by=st.get("used_by", ""),
    )


class RedisApprovalStore:
    """`ApprovalStore` on Redis. The request itself is written once (JSON); what changes (status, answer,
    use) lives in a hash beside it, which the scripts compare-and-set. Thread-safe (a connection pool)."""

    def __init__(self, url: str, *, prefix: str = "limen:") -> None:
        import redis as redis_lib

        self.prefix = prefix
        self._db: redis.Redis = redis_lib.Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=2.0)
        self._transition_script = self._db.register_script(_TRANSITION)
        self._expire_script = self._db.register_script(_EXPIRE)

    def _key(self, request_id: str) -> str:
        return f"{self.prefix}ap:{request_id}"

    def _many(self, ids: list[Any]) -> list[ApprovalRequest]:
        if not ids:
            return []
        pipe = self._db.pipeline(transaction=False)
        for rid in ids:
            pipe.get(self._key(_text(rid)))
            pipe.hgetall(self._key(_text(rid)) + ":state")
        found = pipe.execute()
        return [_request(raw, state) for raw, state in zip(found[::2], found[1::2], strict=True) if raw]

    def create(self, request: ApprovalRequest) -> None:
        ttl = max(1, int(request.expires - request.created) + RETAIN_SECONDS)
        key = self._key(request.id)
        fields = dataclasses.asdict(request)
        state: dict[Any, Any] = {
            "status": request.status,
            "expires": repr(request.expires),
            "answered_at": repr(request.answered_at),
            "answered_by": request.answered_by,
            "factor": request.factor,
            "used_at": repr(request.used_at),
            "used_by": request.used_by,
        }
        if not self._db.set(key, json.dumps(fields, separators=(",", ":")), nx=True, ex=ttl):
            raise ApprovalError(f"approval request {request.id} exists already")
        pipe = self._db.pipeline(transaction=True)
        pipe.hset(f"{key}:state", mapping=state)
        pipe.expire(f"{key}:state", ttl)
        pipe.sadd(f"{self.prefix}ap:fp:{request.fingerprint}", request.id)
        pipe.expire(f"{self.prefix}ap:fp:{request.fingerprint}", ttl)
        pipe.zadd(f"{self.prefix}ap:open", {request.id: request.created})
        pipe.zadd(f"{self.prefix}ap:all", {request.id: request.created})
        pipe.execute()

    def get(self, request_id: str) -> ApprovalRequest | None:
        found = self._many([request_id])
        return found[0] if found else None

    def open_for(self, fingerprint: str, now: float) -> list[ApprovalRequest]:
        found = self._many(sorted(self._db.smembers(f"{self.prefix}ap:fp:{fingerprint}")))
        live = [r for r in found if r.status in (PENDING, GRANTED) and r.expires > now]
        return sorted(live, key=lambda r: r.created)

    def pending(self, now: float) -> list[ApprovalRequest]:
        found = self._many(self._db.zrange(f"{self.prefix}ap:open", 0, -1))
        return [r for r in found if r.status == PENDING and r.expires > now]

    def recent(self, limit: int = 100) -> list[ApprovalRequest]:
        return self._many(self._db.zrevrange(f"{self.prefix}ap:all", 0, max(limit, 1) - 1))

    def _transition(
        self, request_id: str, status: str, allowed: tuple[str, ...], now: float, **fields: Any
    ) -> ApprovalRequest | None:
        """The request after the change, or None when it was not in an allowed status or had expired."""
        args: list[Any] = [repr(now), status, ",".join(allowed), request_id]
        for name, value in fields.items():
            args += [name, repr(value) if isinstance(value, float) else value]
        keys = [self._key(request_id) + ":state", f"{self.prefix}ap:open"]
        outcome = self._transition_script(keys=keys, args=args)
        return self.get(request_id) if _text(outcome[0]) == "ok" else None

    def _refused(self, request_id: str, allowed: tuple[str, ...]) -> ApprovalError:
        current = self.get(request_id)
        if current is None:
            return ApprovalError(f"no approval request {request_id!r}")
        if current.status in allowed:  # still open, so it is past its expiry
            return ApprovalError(f"approval request {request_id} has expired")
        return ApprovalError(f"approval request {request_id} is already {current.status}")

    def grant(self, request_id: str, *, by: str, factor: str, now: float) -> ApprovalRequest:
        changed = self._transition(
            request_id, GRANTED, (PENDING,), now, answered_at=now, answered_by=by, factor=factor
        )
        if changed is None:
            raise self._refused(request_id, (PENDING,))
        return changed

    def deny(self, request_id: str, *, by: str, now: float, revoke: bool = True) -> ApprovalRequest:
        allowed = (PENDING, GRANTED) if revoke else (PENDING,)
        changed = self._transition(request_id, DENIED, allowed, now, answered_at=now, answered_by=by)
        if changed is None:
            raise self._refused(request_id, allowed)
        return changed

    def claim(self, request_id: str, *, decision_id: str, now: float) -> ApprovalRequest | None:
        return self._transition(request_id, USED, (GRANTED,), now, used_at=now, used_by=decision_id)

    def expire(self, now: float) -> list[ApprovalRequest]:
        ids = self._expire_script(keys=[f"{self.prefix}ap:open"], args=[repr(now), f"{self.prefix}ap:"])
        return self._many(list(ids))

    def close(self) -> None:
        self._db.close()
