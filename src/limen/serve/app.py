"""The decision service: `limen.runtime.Runtime` behind HTTP, JSON in, `Decision` out (a raw ASGI app).

Routes (JSON bodies; every `/v1/` route needs `Authorization: Bearer <token>` of a configured identity):

    POST /v1/decide       {tool, arguments, session?, cwd?, role?, door?}  -> Decision.to_dict()
    POST /v1/observe      {tool, arguments, output, session?, untrusted?, door?}  -> the output's Decision
    POST /v1/prompt       {text, session}  -> {}     (the user's own words: values they name are trusted)
    GET  /v1/approvals/ID                  -> the approval request (its status), for its session's owner
    POST /v1/event        {event, session?, door?, fields}  -> {}   a door's own event (a tool hidden, a
                          refusal it made before deciding), audited with the caller's identity
    POST /v1/halt         {session, reason}  -> {}   stop the session (the SDK's failed verification)
    GET  /v1/sessions/ID                   -> {halted}, for the session's owner
    POST /v1/tools/pin    {server, tools: [{name, description, inputSchema}]}  -> {changed: [names]}
                          the MCP doors' tool pins, kept in the shared store (`floors.toolpin`)

`/v1/decide` and `/v1/observe` also take `spec` {capability, paths, commands, urls, payloads,
recipients, write, required}: the SDK door's registration of the tool (a tool map in the policy files
takes precedence, as in-process).
    GET  /healthz  the process answers;  GET /readyz  policy, session store and audit sink all usable;
    GET  /metrics  Prometheus text;  OpenTelemetry spans and metrics when an SDK is configured (telemetry.py)

A replica keeps nothing of its own: sessions live in the configured store (Redis for a fleet), the audit in
the configured sink (PostgreSQL for a fleet), so any replica answers any call of any session. The first
identity to use a session id owns it (`owners.py`); another identity's call in it is an audited BLOCK
(policy_denied, HTTP 403); a session store that cannot say who owns it, an audited BLOCK (HTTP 503). The
decision is made and audited by the Runtime exactly as in-process; this module only translates, and answers
every malformed request with a 4xx that the client turns into a BLOCK.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from limen.model import Decision, ReasonCode
from limen.runtime import Runtime
from limen.serve import telemetry
from limen.serve.config import Identities, ServeConfig
from limen.serve.metrics import Metrics

if TYPE_CHECKING:
    from limen.approvals.service import Approvals
    from limen.audit.writer import AuditWriter
    from limen.normalize.tools import ToolSpec
    from limen.serve.owners import SessionOwners

_T = TypeVar("_T")
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

MAX_BODY = 16 * 1024 * 1024  # a tool's output may be large; anything beyond is refused, not cut
MAX_NAME = 256
MAX_EVENT = 16 * 1024  # a door's event is a few names and codes: anything larger is refused
MAX_TOOLS = 1000  # tools pinned per call
DOORS = frozenset({"sdk", "hook", "mcp", "proxy", "serve"})
# A door's own event names: its door's prefix and lowercase words (never a decision's kind).
_EVENT = re.compile(r"^(?:mcp|sdk|proxy)_[a-z_]{1,60}$")
_RESERVED_FIELDS = frozenset({"kind", "event", "ts", "agent", "door", "session", "seq", "prev", "h", "mac"})
WORKERS = 8  # decisions run on threads: the event loop keeps answering health checks meanwhile


class ServeRuntime(Runtime):
    """The Runtime with the audit sink the configuration names: a PostgreSQL database or a directory."""

    def __init__(self, *, audit_sink: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.audit_sink = audit_sink

    @property
    def writer(self) -> AuditWriter:
        if self._writer is None:
            from limen.audit.postgres import is_dsn

            if is_dsn(self.audit_sink):
                from limen.audit.postgres import PostgresAuditWriter

                # Duck-typed: the Runtime calls only append() and close() on its writer.
                self._writer = cast("AuditWriter", PostgresAuditWriter(self.audit_sink))
            else:
                from limen.audit.writer import AuditWriter

                self._writer = AuditWriter(self.audit_sink or None, fsync_every=self._fsync_every)
        return self._writer

    @property
    def approvals(self) -> Approvals:
        """On a Redis session store, approvals live in the same Redis (`limen.state.redis_approvals`), so a
        request opened through one replica is answered once and used once fleet-wide."""
        if self._approvals is None:
            from limen.state.redis import RedisStore

            store = self.store
            if isinstance(store, RedisStore):
                from limen.approvals.service import Approvals
                from limen.state.redis_approvals import RedisApprovalStore

                self._approvals = Approvals(
                    RedisApprovalStore(store.url, prefix=store.prefix), audit=self.audit_event
                )
        return super().approvals


def build(config: ServeConfig) -> tuple[ServeRuntime, SessionOwners]:
    """The runtime and the session owners for this configuration."""
    from limen.serve.owners import SqliteOwners
    from limen.state import open_store

    store = open_store(config.state or None)
    runtime = ServeRuntime(
        workspace=config.workspace or os.getcwd(),
        mode=config.mode,
        store=store,
        audit_sink=config.audit,
        audit_failure="deny",  # a central service that cannot record a decision must not let it through
    )
    owners = cast("SessionOwners", store) if hasattr(store, "claim_session") else SqliteOwners()
    return runtime, owners


class BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class DecisionService:
    def __init__(
        self,
        runtime: ServeRuntime,
        owners: SessionOwners,
        identities: Identities,
        *,
        workers: int = WORKERS,
    ) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.runtime = runtime
        self.owners = owners
        self.identities = identities
        self.metrics = Metrics()
        self.started = time.time()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="limen-serve")
        telemetry.start(pending=lambda: len(self.runtime.approvals.pending()))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        method, path = scope["method"], scope["path"]
        route = (
            "/v1/approvals/{id}"
            if path.startswith("/v1/approvals/")
            else "/v1/sessions/{id}"
            if path.startswith("/v1/sessions/")
            else path
        )
        self.metrics.in_flight += 1
        try:
            status, body, kind = await self._route(scope, receive, method, path)
        except BadRequest as exc:
            self.metrics.refuse(f"http_{exc.status}")
            status, body, kind = exc.status, _json({"error": str(exc)}), "application/json"
        except Exception as exc:  # never a traceback to the agent: the client turns a 500 into a BLOCK
            print(f"limen serve: {type(exc).__name__} answering {route}", file=sys.stderr)
            status, body, kind = (
                500,
                _json({"error": f"internal error ({type(exc).__name__})"}),
                "application/json",
            )
        finally:
            self.metrics.in_flight -= 1
        self.metrics.request(route if status != 404 else "other", status)
        headers = [(b"content-type", kind.encode()), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _route(self, scope: Scope, receive: Receive, method: str, path: str) -> tuple[int, bytes, str]:
        if path == "/healthz" and method == "GET":
            return 200, _json({"status": "ok"}), "application/json"
        if path == "/readyz" and method == "GET":
            problems = await self._thread(self._readiness)
            return (
                (503 if problems else 200),
                _json({"ready": not problems, "problems": problems}),
                "application/json",
            )
        if path == "/metrics" and method == "GET":
            text = self.metrics.render(
                {
                    "limen_identities": self.identities.count(),
                    "limen_uptime_seconds": time.time() - self.started,
                }
            )
            return 200, text.encode(), "text/plain; version=0.0.4; charset=utf-8"
        handlers = {
            "/v1/decide": self._decide,
            "/v1/observe": self._observe,
            "/v1/prompt": self._prompt,
            "/v1/event": self._event,
            "/v1/halt": self._halt,
            "/v1/tools/pin": self._pin,
        }
        if path in handlers or path.startswith(("/v1/approvals/", "/v1/sessions/")):
            identity = self._identity(scope)
            if path.startswith("/v1/sessions/"):
                if method != "GET":
                    raise BadRequest(405, "sessions are read here")
                return await self._thread(self._session, identity, path.rsplit("/", 1)[1])
            if path.startswith("/v1/approvals/"):
                if method != "GET":
                    raise BadRequest(
                        405, "approvals are read here; a person answers them with `limen serve approve`"
                    )
                return await self._thread(self._approval, identity, path.rsplit("/", 1)[1])
            if method != "POST":
                raise BadRequest(405, f"{path} takes POST")
            request = await _read_json(receive)
            return await self._thread(handlers[path], identity, request)
        return 404, _json({"error": "no such route"}), "application/json"

    async def _thread(self, func: Callable[..., _T], *args: Any) -> _T:
        import asyncio

        return await asyncio.get_running_loop().run_in_executor(self._pool, func, *args)

    def _identity(self, scope: Scope) -> str:
        header = next((v for k, v in scope.get("headers", ()) if k == b"authorization"), b"")
        identity = self.identities.identity(header.decode("latin-1"))
        if identity is None:
            raise BadRequest(401, "a bearer token of a configured agent identity is required")
        return identity

    # -- routes (on a worker thread) ------------------------------------------------------------------------
    def _owned(self, identity: str, session: str | None, tool: str, door: str) -> tuple[int, Decision] | None:
        """None when the identity may act in the session; else the HTTP status and the audited BLOCK that
        says it may not (403), or that its owner could not be checked (503: the store is down)."""
        if not session:
            return None
        try:
            owner = self.owners.claim_session(session, identity)
        except Exception as exc:
            self.metrics.refuse("session_store_unavailable")
            code, why, status = (
                ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,
                f"the session's owner could not be checked ({type(exc).__name__})",
                503,
            )
        else:
            if owner == identity:
                return None
            self.metrics.refuse("session_owned_by_another_identity")
            code, why, status = ReasonCode.POLICY_DENIED, "the session belongs to another agent identity", 403
        refused = self.runtime.refuse(
            tool, code, why, capability="unknown", session_id=session, door=door, agent=identity
        )
        return status, refused

    def _decide(self, identity: str, request: dict[str, Any]) -> tuple[int, bytes, str]:
        started = time.perf_counter()
        tool, arguments, session, door = _call(request)
        cwd = _optional_text(request, "cwd", 4096)
        role = _optional_text(request, "role", MAX_NAME) or ""
        spec = _spec(request)
        refused = self._owned(identity, session, tool, door)
        if refused is not None:
            return refused[0], _json(refused[1].to_dict()), "application/json"
        with telemetry.decision_span("decision", identity, door) as finish:
            decision = self.runtime.decide(
                tool,
                arguments,
                session_id=session,
                door=door,
                cwd=cwd,
                agent=identity,
                role=role,
                spec=spec,
            )
            return self._answer("decision", decision, started, finish)

    def _observe(self, identity: str, request: dict[str, Any]) -> tuple[int, bytes, str]:
        started = time.perf_counter()
        tool, arguments, session, door = _call(request)
        output = request.get("output")
        if not isinstance(output, str):
            raise BadRequest(400, "output: expected a string")
        untrusted = request.get("untrusted")
        if untrusted is not None and not isinstance(untrusted, bool):
            raise BadRequest(400, "untrusted: expected true, false or null")
        spec = _spec(request)
        refused = self._owned(identity, session, tool, door)
        if refused is not None:
            return refused[0], _json(refused[1].to_dict()), "application/json"
        with telemetry.decision_span("output", identity, door) as finish:
            decision = self.runtime.observe_output(
                tool, arguments, output, session_id=session, door=door, untrusted=untrusted, spec=spec
            )
            return self._answer("output", decision, started, finish)

    def _prompt(self, identity: str, request: dict[str, Any]) -> tuple[int, bytes, str]:
        text = request.get("text")
        session = _optional_text(request, "session", MAX_NAME)
        if not isinstance(text, str) or not session:
            raise BadRequest(400, "expected text (a string) and session")
        refused = self._owned(identity, session, "prompt", "serve")
        if refused is not None:
            return refused[0], _json({"error": refused[1].explanation}), "application/json"
        self.runtime.observe_prompt(text, session_id=session)
        return 200, _json({}), "application/json"

    def _event(self, identity: str, request: dict[str, Any]) -> tuple[int, bytes, str]:
        """A door's own event, recorded with the identity that sent it; it decides nothing."""
        event = request.get("event")
        if not isinstance(event, str) or not _EVENT.match(event):
            raise BadRequest(400, "event: expected a door's event name (mcp_, sdk_ or proxy_ and a-z_)")
        fields = request.get("fields", {})
        if not isinstance(fields, dict) or _RESERVED_FIELDS.intersection(fields):
            raise BadRequest(400, f"fields: expected an object without {', '.join(sorted(_RESERVED_FIELDS))}")
        if len(_json(fields)) > MAX_EVENT:
            raise BadRequest(413, f"fields: at most {MAX_EVENT} bytes")
        session = _optional_text(request, "session", MAX_NAME)
        door = request.get("door")
        door = door if door in DOORS else "serve"
        if session:
            refused = self._owned(identity, session, event, door)
            if refused is not None:
                return refused[0], _json({"error": refused[1].explanation}), "application/json"
        extra = {"session": session} if session else {}
        if not self.runtime.audit_event(event, agent=identity, door=door, **extra, **fields):
            return 503, _json({"error": "the audit sink did not take the event"}), "application/json"
        return 200, _json({}), "application/json"

    def _halt(self, identity: str, request: dict[str, Any]) -> tuple[int, bytes, str]:
        session = _optional_text(request, "session", MAX_NAME)
        reason = _optional_text(request, "reason", 4096) or ""
        if not session:
            raise BadRequest(400, "session: required")
        refused = self._owned(identity, session, "halt", "serve")
        if refused is not None:
            return refused[0], _json({"error": refused[1].explanation}), "application/json"
        if not self.runtime.halt(session, reason=reason[:160]):
            return 503, _json({"error": "the session store did not take the halt"}), "application/json"
        return 200, _json({"halted": True}), "application/json"

    def _session(self, identity: str, session: str) -> tuple[int, bytes, str]:
        from limen.state import HALTED

        if not session or len(session) > MAX_NAME:
            raise BadRequest(400, "session: expected a name")
        if self.owners.claim_session(session, identity) != identity:
            return 404, _json({"error": "no such session of this identity"}), "application/json"
        return 200, _json({"halted": HALTED in self.runtime.store.flags(session)}), "application/json"

    def _pin(self, identity: str, request: dict[str, Any]) -> tuple[int, bytes, str]:
        """Pin each listed tool on first sight (the shared store: every replica and door sees the same
        pins); the names that changed since their pin (a call of one is `tool_schema_changed`)."""
        from limen.floors import toolpin

        server, tools = request.get("server"), request.get("tools")
        if not isinstance(server, str) or not server or len(server) > MAX_NAME or "__" in server:
            raise BadRequest(400, "server: expected a server name")
        if not isinstance(tools, list) or len(tools) > MAX_TOOLS:
            raise BadRequest(400, f"tools: expected a list of at most {MAX_TOOLS}")
        changed = []
        for tool in tools:
            name = tool.get("name") if isinstance(tool, dict) else None
            if not isinstance(name, str) or not name or len(name) > MAX_NAME:
                raise BadRequest(400, "tools: each needs a name")
            description = tool.get("description") or ""
            if not isinstance(description, str):
                raise BadRequest(400, "tools: a description must be a string")
            schema = tool.get("inputSchema")
            if toolpin.check_and_pin(server, name, description, schema, store=self.runtime.store):
                changed.append(name)
        if changed:  # a listing that matches its pins is routine; a change is what a person must see
            self.runtime.audit_event("mcp_tools_changed", agent=identity, server=server, tools=changed)
        return 200, _json({"changed": changed}), "application/json"

    def _approval(self, identity: str, request_id: str) -> tuple[int, bytes, str]:
        found = self.runtime.approvals.get(request_id)
        if (
            found is None
            or not found.session
            or self.owners.claim_session(found.session, identity) != identity
        ):
            return (
                404,
                _json({"error": "no such approval request in this identity's sessions"}),
                "application/json",
            )
        return 200, _json(found.to_dict()), "application/json"

    def _answer(
        self, kind: str, decision: Decision, started: float, finish: Callable[[Decision, float], None]
    ) -> tuple[int, bytes, str]:
        reasons = [r.value for r in decision.reasons]
        seconds = time.perf_counter() - started
        self.metrics.decided(kind, decision.verdict.name, reasons, seconds)
        finish(decision, seconds)
        return 200, _json(decision.to_dict()), "application/json"

    def _readiness(self) -> list[str]:
        problems: list[str] = []
        from limen.policy import PolicyError

        try:
            self.runtime.context  # noqa: B018  (loads and checks the policy files)
        except PolicyError as exc:
            problems.append(exc.summary())
        except Exception as exc:
            problems.append(f"the policy cannot be loaded ({type(exc).__name__})")
        try:
            store = self.runtime.store
            ping = getattr(store, "ping", None)
            if ping is not None:
                ping()
            else:
                store.flags("")
        except Exception as exc:
            problems.append(f"the session store is unavailable ({type(exc).__name__})")
        try:
            writer = self.runtime.writer
            check = getattr(writer, "ping", None)
            if check is not None:
                check()
        except Exception as exc:
            problems.append(f"the audit sink is unavailable ({type(exc).__name__})")
        if self.identities.problem:
            problems.append(
                f"the tokens could not be re-read; the last good list is in use: {self.identities.problem}"
            )
        if not self.identities.count():
            problems.append("no agent identity is configured (limen serve token add NAME)")
        return problems


def _call(request: dict[str, Any]) -> tuple[str, dict[str, Any], str | None, str]:
    tool = request.get("tool")
    if not isinstance(tool, str) or not tool or len(tool) > MAX_NAME:
        raise BadRequest(400, f"tool: expected a name of 1 to {MAX_NAME} characters")
    arguments = request.get("arguments", {})
    if not isinstance(arguments, dict):
        raise BadRequest(400, "arguments: expected an object")
    session = _optional_text(request, "session", MAX_NAME)
    door = request.get("door", "serve")
    return tool, arguments, session or None, door if door in DOORS else "serve"


_SPEC_LISTS = ("paths", "commands", "urls", "payloads", "recipients", "required")


def _spec(request: dict[str, Any]) -> ToolSpec | None:
    """The SDK door's registration of the tool (`normalize.tools.ToolSpec`), or None."""
    raw = request.get("spec")
    if raw is None:
        return None
    from limen.normalize.tools import ToolSpec
    from limen.sdk.tools import _CAPABILITY  # the capability names the SDK registers

    if not isinstance(raw, dict) or not set(raw) <= {"capability", "write", *_SPEC_LISTS}:
        raise BadRequest(400, f"spec: expected an object of capability, write, {', '.join(_SPEC_LISTS)}")
    capability = raw.get("capability")
    if not isinstance(capability, str) or not _CAPABILITY.match(capability):
        raise BadRequest(400, "spec.capability: expected a name like filesystem.read or db.query")
    lists: dict[str, tuple[str, ...]] = {}
    for key in _SPEC_LISTS:
        names = raw.get(key, [])
        if not isinstance(names, list) or not all(isinstance(n, str) and len(n) <= MAX_NAME for n in names):
            raise BadRequest(400, f"spec.{key}: expected a list of argument names")
        lists[key] = tuple(names)
    if not isinstance(raw.get("write", False), bool):
        raise BadRequest(400, "spec.write: expected true or false")
    return ToolSpec(
        capability,
        paths=lists["paths"],
        commands=lists["commands"],
        urls=lists["urls"],
        payloads=lists["payloads"],
        recipients=lists["recipients"],
        write=bool(raw.get("write", False)),
        required=lists["required"],
    )


def _optional_text(request: dict[str, Any], key: str, limit: int) -> str | None:
    value = request.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit or "\x00" in value:
        raise BadRequest(400, f"{key}: expected a string of at most {limit} characters")
    return value


async def _read_json(receive: Receive) -> dict[str, Any]:
    chunks: list[bytes] = []
    size = 0
    while True:
        event = await receive()
        if event["type"] == "http.disconnect":
            raise BadRequest(400, "the client went away")
        chunk = event.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            raise BadRequest(413, f"the body exceeds {MAX_BODY} bytes")
        chunks.append(chunk)
        if not event.get("more_body"):
            break
    try:
        request = json.loads(b"".join(chunks))
    except (ValueError, UnicodeDecodeError):
        raise BadRequest(400, "the body is not JSON") from None
    if not isinstance(request, dict):
        raise BadRequest(400, "the body must be a JSON object")
    return request


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
