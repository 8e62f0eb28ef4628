"""Deciding through `limen serve`: what the doors do when `LIMEN_SERVER` is set.

    LIMEN_SERVER=https://limen.internal:8787[,https://other-replica:8787]
    LIMEN_SERVER_TOKEN=lmn_...        # the agent identity's bearer token (`limen serve token add NAME`)
    LIMEN_SERVER_TIMEOUT=10           # seconds per call (default 10)
    LIMEN_SERVER_CA=/path/ca.pem      # a private CA for https (default: the system's)
    LIMEN_SERVER_APPROVAL_WAIT=0      # seconds a door holds an AUTH for a person's answer on the server
                                      # (`limen serve approve ID`); default 0: the AUTH comes back at once

`RemoteRuntime` has the Runtime's door-facing methods (`decide`, `observe_output`, `observe_prompt`,
`refuse`, `audit_event`, `hold`, `halt`, `close`) plus what a door cannot do for itself once the session
store is the server's (`halted`, `pin_tools`), so every door (`limen.evaluate`, the MCP proxy, the egress
proxy, `limen.Guard`) holds either, opened by `door_runtime`. A door asks `isinstance(runtime, Runtime)`
before it reads a policy, approval or session store: the server's are out of its reach, and it never
reads local ones in their place. It never raises and never passes what it could not have decided:

- a replica that refuses the connection (down, restarting) is skipped for the next one listed: nothing was
  sent, so nothing can be decided twice;
- any failure after the request was sent (a replica killed mid-call, a timeout, a malformed answer), a
  missing token, a refused token, or any answer that is not a decision is a BLOCK with reason code
  `objective_guardrail_error` whose explanation says what happened. It is not retried (the replica may have
  decided and audited it), and it is recorded in the local audit log (`Runtime.refuse`);
- a door's own event (a tool hidden, a call refused before deciding) is recorded by the server with the
  caller's identity, and in the local audit log when the server does not take it.

Standard library only (`http.client`), one keep-alive connection per thread and server; a connection the
server closed while idle is noticed before a request is written on it, so it is never mistaken for a
failure mid-call.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import select
import ssl
import threading
import time
import urllib.parse
from typing import TYPE_CHECKING, Any

from limen.model import Decision, ReasonCode, StageResult, Verdict

if TYPE_CHECKING:
    from limen.normalize.tools import ToolSpec
    from limen.runtime import Runtime


class ServerUnavailable(Exception):
    """No decision came back; the message is Limen's own words (no argument values)."""


class _Connections(threading.local):
    def __init__(self) -> None:
        self.open: dict[str, http.client.HTTPConnection] = {}
        self.used: dict[str, float] = {}  # when each connection last carried a call (monotonic seconds)


# Servers close idle keep-alive connections (uvicorn after 5 s). One idle nearly that long is not reused:
# the server could close it just as the next request is written, and that would look like a call that
# failed mid-way (a BLOCK) when nothing was sent.
IDLE_REUSE_SECONDS = 3.0
APPROVAL_POLL_SECONDS = 0.25  # how often a held AUTH asks the server for its request's status


class ServerClient:
    """JSON over HTTP(S) to one of several replicas, with failover on refused connections only."""

    def __init__(
        self, servers: list[str], token: str, *, timeout: float = 10.0, cafile: str | None = None
    ) -> None:
        if not servers:
            raise ValueError("no server given")
        self.servers = [s.rstrip("/") for s in servers]
        self.token = token
        self.timeout = timeout
        self._context = ssl.create_default_context(cafile=cafile) if cafile else ssl.create_default_context()
        self._local = _Connections()
        self._next = 0
        self._lock = threading.Lock()

    def _start(self) -> int:
        """Spread threads over the replicas (a load balancer does this when there is one)."""
        with self._lock:
            self._next = (self._next + 1) % len(self.servers)
            return self._next

    def _connection(self, server: str) -> http.client.HTTPConnection:
        conn = self._local.open.get(server)
        if conn is not None and conn.sock is not None:
            idle = time.monotonic() - self._local.used.get(server, 0.0)
            readable, _, _ = select.select([conn.sock], [], [], 0)
            if readable or idle > IDLE_REUSE_SECONDS:  # readable when idle: the server closed it
                conn.close()
                conn = None
        if conn is None:
            parts = urllib.parse.urlsplit(server)
            if parts.scheme == "https":
                conn = http.client.HTTPSConnection(
                    parts.hostname or "", parts.port, timeout=self.timeout, context=self._context
                )
            elif parts.scheme == "http":
                conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=self.timeout)
            else:
                raise ServerUnavailable(f"{server} is not an http(s) URL")
            self._local.open[server] = conn
        return conn

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        """(status, JSON answer). Raises ServerUnavailable when no replica answered."""
        payload = (
            json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode() if body is not None else b""
        )
        headers = {"authorization": f"Bearer {self.token}", "content-type": "application/json"}
        start = self._start()
        refused: list[str] = []
        for offset in range(len(self.servers)):
            server = self.servers[(start + offset) % len(self.servers)]
            conn = self._connection(server)
            try:
                if conn.sock is None:
                    conn.connect()
            except OSError as exc:  # refused, unreachable, TLS failure: nothing was sent, try the next
                conn.close()
                refused.append(f"{_host(server)}: {type(exc).__name__}")
                continue
            try:
                conn.request(method, path, body=payload, headers=headers)
                response = conn.getresponse()
                raw = response.read()
                self._local.used[server] = time.monotonic()
            except (OSError, http.client.HTTPException) as exc:
                conn.close()
                raise ServerUnavailable(
                    f"the decision server {_host(server)} failed mid-call ({type(exc).__name__})"
                ) from None
            try:
                return response.status, json.loads(raw) if raw else None
            except ValueError:
                raise ServerUnavailable(
                    f"the decision server {_host(server)} answered HTTP {response.status} without JSON"
                ) from None
        raise ServerUnavailable(f"no decision server is reachable ({'; '.join(refused)})")

    def close(self) -> None:
        for conn in self._local.open.values():
            conn.close()
        self._local.open.clear()


def _host(server: str) -> str:
    parts = urllib.parse.urlsplit(server)
    return parts.netloc.rpartition("@")[2] or server


def decision_from(data: Any) -> Decision:
    """A Decision from the server's JSON (`Decision.to_dict`). Raises ValueError on anything else. Reason
    codes this version does not know are dropped; the verdict stands as the server gave it."""
    if not isinstance(data, dict):
        raise ValueError("not an object")
    verdict = Verdict[str(data["verdict"])]
    risk = int(data["risk"])
    if not 0 <= risk <= 100:
        raise ValueError("risk out of range")
    known = {code.value: code for code in ReasonCode}
    reasons = tuple(known[r] for r in data.get("reasons", []) if r in known)
    evidence = [
        StageResult(
            str(s["stage"]),
            Verdict[str(s["verdict"])],
            int(s["risk"]),
            tuple(known[r] for r in s.get("reasons", []) if r in known),
            tuple(str(d) for d in s.get("details", [])),
            float(s.get("us", 0.0)),
        )
        for s in data.get("evidence", [])
    ]
    return Decision(
        verdict,
        risk,
        reasons,
        str(data.get("explanation", "")),
        evidence,
        decision_id=str(data.get("id") or ""),
        approval_id=str(data.get("approval_id") or ""),
    )


def door_runtime(workspace: str, mode: str | None) -> Runtime | RemoteRuntime:
    """What a door decides with: `limen serve` when `LIMEN_SERVER` names one, else the local Runtime."""
    remote = RemoteRuntime.from_environment(workspace, mode)
    if remote is not None:
        return remote
    from limen.runtime import Runtime

    return Runtime(workspace=workspace, mode=mode)


class RemoteRuntime:
    """The Runtime's door-facing methods, answered by `limen serve`. Never raises."""

    def __init__(
        self,
        client: ServerClient,
        *,
        workspace: str,
        mode: str | None = None,
        approval_wait: float = 0.0,
        audit_dir: str | None = None,
    ) -> None:
        self.client = client
        self.workspace = os.path.abspath(workspace)
        self.mode = mode
        self.approval_wait = approval_wait
        # The local log (default LIMEN_HOME's) and Runtime that record what the server could not.
        self.audit_dir = audit_dir
        self._local: Runtime | None = None

    @classmethod
    def from_environment(
        cls, workspace: str, mode: str | None = None, *, audit_dir: str | None = None
    ) -> RemoteRuntime | None:
        """The remote runtime `LIMEN_SERVER` names, or None when it is not set. A missing token still
        gives one: every call it answers is then a BLOCK saying so."""
        servers = [s.strip() for s in os.environ.get("LIMEN_SERVER", "").split(",") if s.strip()]
        if not servers:
            return None
        try:
            timeout = float(os.environ.get("LIMEN_SERVER_TIMEOUT", "10"))
        except ValueError:
            timeout = 10.0
        try:
            wait = max(float(os.environ.get("LIMEN_SERVER_APPROVAL_WAIT", "0")), 0.0)
        except ValueError:
            wait = 0.0
        client = ServerClient(
            servers,
            os.environ.get("LIMEN_SERVER_TOKEN", ""),
            timeout=timeout if timeout > 0 else 10.0,
            cafile=os.environ.get("LIMEN_SERVER_CA") or None,
        )
        return cls(client, workspace=workspace, mode=mode, approval_wait=wait, audit_dir=audit_dir)

    def decide(
        self,
        tool: str,
        arguments: dict[str, Any],
        *,
        session_id: str | None,
        door: str,
        cwd: str | None = None,
        agent: str = "",
        role: str = "",
        sink: Any = None,
        spec: ToolSpec | None = None,
    ) -> Decision:
        """`agent` is the token's identity on the server; `sink` does not apply (the server records every
        decision it makes)."""
        body: dict[str, Any] = {
            "tool": tool,
            "arguments": arguments,
            "session": session_id,
            "cwd": cwd or self.workspace,
            "role": role,
            "door": door,
        }
        if spec is not None:
            body["spec"] = _spec_json(spec)
        return self._decision("/v1/decide", body, tool, session_id, door)

    def observe_output(
        self,
        tool: str,
        arguments: dict[str, Any],
        output: str,
        *,
        session_id: str | None,
        door: str,
        untrusted: bool | None = None,
        sink: Any = None,
        spec: ToolSpec | None = None,
        action: Any = None,
    ) -> Decision:
        """`sink` and `action` do not apply: the server normalises the call and records the output scan."""
        body: dict[str, Any] = {
            "tool": tool,
            "arguments": arguments,
            "output": output,
            "session": session_id,
            "untrusted": untrusted,
            "door": door,
        }
        if spec is not None:
            body["spec"] = _spec_json(spec)
        return self._decision("/v1/observe", body, tool, session_id, door)

    def refuse(
        self,
        tool: str,
        code: ReasonCode,
        detail: str,
        *,
        capability: str,
        session_id: str | None,
        door: str,
        agent: str = "",
        sink: Any = None,
    ) -> Decision:
        """A call its door could not even read, BLOCKed with `code` by the door's translation (never sent
        to be decided): recorded by the server as the door's `<door>_call_refused` event, locally when the
        server does not take it."""
        from limen.runtime import _failure

        decision = _failure(Verdict.BLOCK, code, detail)
        self.audit_event(
            f"{door if door in ('sdk', 'mcp', 'proxy') else 'sdk'}_call_refused",
            door=door,
            session=session_id,
            decision=decision.decision_id,
            tool=tool[:200],
            capability=capability,
            reasons=[code.value],
            why=detail[:200],
        )
        return decision

    def audit_event(self, event: str, **fields: Any) -> bool:
        """A door's event, recorded by the server with this token's identity; in the local audit log when
        the server does not take it (unreachable, or it refused the event)."""
        session = fields.pop("session", None) or None
        door = fields.pop("door", None)
        body = {"event": event, "session": session, "door": door, "fields": fields}
        if self.client.token:
            try:
                status, _ = self.client.call("POST", "/v1/event", body)
                if status == 200:
                    return True
            except Exception:  # ServerUnavailable, or fields that are not JSON: recorded here instead
                pass
        try:
            extra = {k: v for k, v in (("session", session), ("door", door)) if v}
            recorded: bool = self._runtime().audit_event(event, **extra, **fields, server_unrecorded=True)
            return recorded
        except Exception:
            return False

    def hold(self, decision: Decision, *, door: str, until: float) -> tuple[str, tuple[str, ...]]:
        """Wait for a person's answer to the AUTH's approval request on the server (`limen serve approve`)
        until `until`, at most `LIMEN_SERVER_APPROVAL_WAIT` seconds (default 0: not at all). Returns the
        request's status then (`granted`: decide the identical call again, it passes once) and the channel
        (`limen serve`) when it waited. Never raises: a failure is `denied`."""
        if decision.verdict is not Verdict.AUTH or not decision.approval_id:
            return "denied", ()
        until = min(until, time.time() + self.approval_wait)
        if until <= time.time():
            return "pending", ()
        while True:
            try:
                status, answer = self.client.call("GET", f"/v1/approvals/{decision.approval_id}")
            except ServerUnavailable:
                return "denied", ("limen serve",)
            found = answer.get("status") if status == 200 and isinstance(answer, dict) else None
            if not isinstance(found, str):
                return "denied", ("limen serve",)
            if found != "pending" or time.time() >= until:
                return found, ("limen serve",)
            time.sleep(min(APPROVAL_POLL_SECONDS, max(until - time.time(), 0.0)))

    def halt(self, session_id: str, *, reason: str) -> bool:
        """Stop the session on the server (every replica then BLOCKs its calls). False when it could not."""
        try:
            status, _ = self.client.call("POST", "/v1/halt", {"session": session_id, "reason": reason[:160]})
        except ServerUnavailable:
            return False
        return status == 200

    def halted(self, session_id: str) -> bool:
        """Whether the server holds the session halted. True when it cannot say: no call of the session
        can pass then anyway (each fails closed)."""
        try:
            status, answer = self.client.call("GET", f"/v1/sessions/{session_id}")
        except ServerUnavailable:
            return True
        return not (status == 200 and isinstance(answer, dict) and answer.get("halted") is False)

    def pin_tools(self, server: str, tools: list[dict[str, Any]]) -> list[str] | None:
        """Pin an MCP server's tools in the server's store; the names changed since their pin, or None when
        the server did not answer (the caller withholds the tools: an unpinned change must not slip by)."""
        entries = [
            {
                "name": t.get("name"),
                "description": t.get("description") or "",
                "inputSchema": t.get("inputSchema"),
            }
            for t in tools
        ]
        try:
            status, answer = self.client.call("POST", "/v1/tools/pin", {"server": server, "tools": entries})
        except Exception:
            return None
        changed = answer.get("changed") if status == 200 and isinstance(answer, dict) else None
        if not isinstance(changed, list) or not all(isinstance(n, str) for n in changed):
            return None
        return changed

    def observe_prompt(self, text: str, *, session_id: str | None) -> None:
        if not session_id:
            return
        # The prompt only ever vouches for values: missing it can only make later calls stricter.
        with contextlib.suppress(ServerUnavailable):
            self.client.call("POST", "/v1/prompt", {"text": text, "session": session_id})

    def _decision(
        self, path: str, body: dict[str, Any], tool: str, session: str | None, door: str
    ) -> Decision:
        if not self.client.token:
            return self._refused(tool, session, door, "LIMEN_SERVER is set but LIMEN_SERVER_TOKEN is not")
        try:
            status, answer = self.client.call("POST", path, body)
        except ServerUnavailable as exc:
            return self._refused(tool, session, door, str(exc))
        except Exception as exc:  # e.g. arguments that cannot be sent as JSON
            return self._refused(tool, session, door, f"the call could not be sent ({type(exc).__name__})")
        # 403 and 503 with a decision: an audited BLOCK (another identity's session; the store is down)
        if status in (200, 403) or (status == 503 and isinstance(answer, dict) and "verdict" in answer):
            try:
                return decision_from(answer)
            except (ValueError, KeyError, TypeError):
                return self._refused(
                    tool, session, door, f"the decision server answered HTTP {status} without a decision"
                )
        said = answer.get("error") if isinstance(answer, dict) else None
        why = {401: "the decision server did not accept LIMEN_SERVER_TOKEN"}.get(status) or (
            f"the decision server refused the call: HTTP {status}" + (f" ({str(said)[:200]})" if said else "")
        )
        return self._refused(tool, session, door, why)

    def _runtime(self) -> Runtime:
        """The local Runtime: only its audit log is used (what the server could not record)."""
        if self._local is None:
            from limen.runtime import Runtime

            self._local = Runtime(workspace=self.workspace, mode=self.mode, audit_dir=self.audit_dir)
        return self._local

    def _refused(self, tool: str, session: str | None, door: str, why: str) -> Decision:
        """Fail closed: BLOCK, recorded in the local audit log (or, when even that fails, still BLOCK)."""
        try:
            decision: Decision = self._runtime().refuse(
                tool,
                ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,
                why,
                capability="unknown",
                session_id=session,
                door=door,
            )
            return decision
        except Exception:
            from limen.runtime import _failure

            return _failure(Verdict.BLOCK, ReasonCode.OBJECTIVE_GUARDRAIL_ERROR, why)

    def close(self) -> None:
        self.client.close()
        if self._local is not None:
            self._local.close()
            self._local = None


def _spec_json(spec: ToolSpec) -> dict[str, Any]:
    """A registered tool's spec as `/v1/decide` takes it."""
    return {
        "capability": spec.capability,
        "paths": list(spec.paths),
        "commands": list(spec.commands),
        "urls": list(spec.urls),
        "payloads": list(spec.payloads),
        "recipients": list(spec.recipients),
        "write": spec.write,
        "required": list(spec.required),
    }
