"""The mitmproxy addon: every proxied request translated into one `Runtime.decide` call and back.

Events (mitmproxy's own addon model):
- `http_connect`: the client's credential names its session (`limen.proxy.sessions`; a bad one: 407, no
  tunnel). A pass-through host (configured for clients that pin certificates) is decided here on its
  destination alone (`CONNECT https://host:port/`), and the decision's audit record is followed by a
  `proxy_pass_through` event saying so; on PASS, `tls_clienthello` leaves its TLS alone.
- `request`: the request, decrypted, becomes a `network.request` call (`limen.proxy.translate`) decided with
  the session's state, on the URL mitmproxy connects to (and, when its Host header names another host,
  on that host's URL as well: both must pass); anything but PASS is answered with a 403 naming the
  verdict, reason codes and decision id, and nothing reaches the server; an AUTH that opened an approval
  request is held for a human (`Runtime.hold`) and, granted, decided again. A body is read without its
  content codings (gzip, deflate, br, zstd, stacked: `limen.proxy.codings`), the cap counted on the
  decoded size (a decompression bomb is decoded up to the cap, no further); a body over the cap, or one
  that cannot be decoded (read as far as it decodes, then as sent), is decided on what was read, and a
  `proxy_body_partly_read` event (with the decision id and why) says so. MCP JSON-RPC bodies are decided
  per tool call as well (`limen.proxy.mcp`).
- `websocket_message`: each message a client sends after an upgrade is decided like a body to that URL.
- `tcp_start`: a raw TCP relay (anything but TLS and HTTP inside a CONNECT) is closed and audited; with
  mitmproxy's `rawtcp` off such traffic is read as HTTP and fails before that.
- `responseheaders` / `response`: nothing large is held. A text response of up to 256 kB is held by
  mitmproxy and scanned right after it is relayed; a longer one is streamed (`flow.response.stream` with a
  callable) and scanned in windows as it passes (`Runtime.observe_output`: secrets taint the session,
  instructions flag it); either way the text is read without its content coding, at most 4 MiB of it
  decoded (a compressed answer may be a bomb), and what was not read is said (`proxy_response_unscreened`);
  binary and pass-through traffic streams untouched; MCP answers are screened event by event before they
  are relayed.
Any failure in a hook answers the request with a 403 (`proxy_handler_error`) or cuts the response: never a
request forwarded undecided. The addon never decides: the verdict is always `Runtime`'s, or `limen serve`'s
when `LIMEN_SERVER` names one (`limen.serve.client.RemoteRuntime`: unreachable or garbled, a 403 BLOCK).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from limen.model import Action, Decision, ReasonCode, Verdict
from limen.proxy import codings, translate
from limen.proxy.config import Injection
from limen.proxy.mcp import Guards, Pending, SseScreen, json_rpc, screen_json, server_name
from limen.proxy.sessions import Sessions

if TYPE_CHECKING:
    from mitmproxy import http, tls
    from mitmproxy.proxy import server_hooks

    from limen.runtime import Runtime
    from limen.serve.client import RemoteRuntime

SESSION_KEY = "limen_session"
PASS_THROUGH_KEY = "limen_pass_through"
RESOLVED_KEY = "limen_resolved_from"
MCP_KEY = "limen_mcp"  # a tools/call's answer to screen (`mcp.Pending`)
ACTION_KEY = "limen_action"  # the request's decided `Action`, reused by the response's scan
HELD_KEY = "limen_held"  # a small text response held whole, (content type, coding): scanned in `response`
URL_KEY = "limen_url"  # the request's URL as decided (read once)
OBSERVE_WINDOW = 256 << 10  # bytes of response text scanned per observation
OBSERVE_OVERLAP = 1024  # carried into the next window, so a secret across a boundary is seen
MAX_OBSERVED = 4 << 20  # text per response scanned; past it, a `proxy_response_unscreened` event
BUFFERED_TEXT = 256 << 10  # a text response up to this (by Content-Length) is held whole, not streamed
MAX_JSON_ANSWER = 16 << 20  # a plain-JSON MCP answer held for screening; longer: withheld
_TEXTUAL = ("text/", "json", "xml", "javascript", "x-www-form-urlencoded", "event-stream", "yaml", "x-ndjson")
_AS_SENT = codings.Decoded(None)  # a body with no content coding
HOLD_SECONDS = 120.0  # an AUTH waits this long at most for a human (capped by `approvals.wait_seconds`)


@dataclass
class ProxyConfig:
    """What `limen proxy` was started with."""

    sessions: Sessions
    pass_through: tuple[str, ...] = ()  # host globs (`facts.hosts.host_in`)
    max_body: int = translate.DEFAULT_MAX_BODY
    resolve: dict[tuple[str, int], tuple[str, int]] = field(default_factory=dict)  # (host, port) -> address
    inject: tuple[Injection, ...] = ()  # credentials added after the decision (`config.Injection`)
    cwd: str = ""


class LimenAddon:
    def __init__(self, runtime: Runtime | RemoteRuntime, config: ProxyConfig) -> None:
        self.runtime = runtime
        self.config = config
        self.guards = Guards(runtime, config.cwd or runtime.workspace)
        from limen.runtime import Runtime

        self._remote = not isinstance(runtime, Runtime)  # `limen serve` decides (`LIMEN_SERVER`)
        self._holds: set[Any] = set()  # the tasks holding requests for a human (kept from collection)

    # -- connections -----------------------------------------------------------------------------------
    def http_connect(self, flow: http.HTTPFlow) -> None:
        try:
            session = self._session(flow)
            if session is None:
                return
            flow.client_conn.__dict__[SESSION_KEY] = session
            from limen.facts.hosts import host_in

            host, port = flow.request.host, flow.request.port
            if self.config.pass_through and host_in(host.lower(), self.config.pass_through):
                url = f"https://{_authority(host, port)}/"
                decision = self._decide(session, {"url": url, "method": "CONNECT"})
                self.runtime.audit_event(
                    "proxy_pass_through",
                    decision=decision.decision_id,
                    session=session,
                    host=host,
                    port=port,
                    verdict=decision.verdict.name,
                    note="decided on the destination only: the tunnel's contents are not read",
                )
                if decision.verdict is not Verdict.PASS:
                    self._refuse(flow, decision, f"CONNECT {host}:{port}")
                    return
                flow.client_conn.__dict__[PASS_THROUGH_KEY] = True
        except Exception as exc:
            self._fail(flow, exc)

    def tls_clienthello(self, data: tls.ClientHelloData) -> None:
        if data.context.client.__dict__.get(PASS_THROUGH_KEY):
            data.ignore_connection = True

    def tcp_start(self, flow: Any) -> None:
        """A raw TCP relay Limen cannot read (a pass-through tunnel is not one: it raises no TCP events):
        closed before a byte is relayed, and audited."""
        self.runtime.audit_event(
            "proxy_raw_tcp_refused",
            session=flow.client_conn.__dict__.get(SESSION_KEY, ""),
            address=str(flow.server_conn.address)[:200],
        )
        flow.kill()

    def server_connect(self, data: server_hooks.ServerConnectionHookData) -> None:
        """`--resolve HOST:PORT:ADDR`: connect there, still verifying the certificate for HOST."""
        address = data.server.address
        if address is not None and self.config.resolve:
            target = self.config.resolve.get((str(address[0]).lower(), int(address[1])))
            if target is not None:
                data.server.__dict__[RESOLVED_KEY] = address
                data.server.address = target

    def server_connected(self, data: server_hooks.ServerConnectionHookData) -> None:
        """Once connected, the connection is named by the host again, so later requests to it reuse it
        (mitmproxy matches connections by address; it refuses the attribute's setter on an open one)."""
        original = data.server.__dict__.pop(RESOLVED_KEY, None)
        if original is not None:
            data.server.__dict__["address"] = original

    # -- requests --------------------------------------------------------------------------------------
    def request(self, flow: http.HTTPFlow) -> Awaitable[None] | None:
        """With the local Runtime, decided in the event loop's own turn (no coroutine per request); with
        `limen serve`, a coroutine mitmproxy awaits, the round trip in a thread (the other flows go on)."""
        if self._remote:
            return self._request_remote(flow)
        try:
            self._hold_if_asked(flow, self._request(flow))
        except Exception as exc:
            self._fail(flow, exc)
        return None

    async def _request_remote(self, flow: http.HTTPFlow) -> None:
        try:
            self._hold_if_asked(flow, await asyncio.to_thread(self._request, flow))
        except Exception as exc:
            self._fail(flow, exc)

    def _hold_if_asked(self, flow: http.HTTPFlow, held: tuple[str, dict[str, Any], Decision] | None) -> None:
        if held is not None:  # paused until a human answers (or the wait ends): off the event loop
            flow.intercept()  # type: ignore[no-untyped-call]
            self._holds.add(asyncio.get_running_loop().create_task(self._hold(flow, *held)))

    def _request(self, flow: http.HTTPFlow) -> tuple[str, dict[str, Any], Decision] | None:
        """Decide the request; a refusal is answered here. Returns what to hold for a human when the
        decision is an AUTH that opened an approval request."""
        session = flow.client_conn.__dict__.get(SESSION_KEY) or self._session(flow)
        if session is None:
            return None
        flow.metadata[SESSION_KEY] = session  # the response's scan and a websocket's messages count here
        request = flow.request
        # the headers read once (each lookup in mitmproxy's Headers is a scan of all of them)
        fields: list[tuple[str, str]] = list(request.headers.items(multi=True))  # type: ignore[no-untyped-call]
        named = _joined_values(fields)
        if "proxy-authorization" in named:
            request.headers.pop("Proxy-Authorization", None)
        encoding = named.get("content-encoding", "").strip().lower()
        raw = request.raw_content or b""
        body = codings.decode(encoding, raw, self.config.max_body) if encoding else _AS_SENT
        decoded = body.data
        host, port = request.host, request.port
        url = flow.metadata[URL_KEY] = request.url  # the response's scan reads it again
        found = translate.arguments(
            request.method,
            url,  # where mitmproxy connects (a Host header naming another host is decided too)
            fields,
            raw,
            decoded,
            self.config.max_body,
            authority=(host, f"{host}:{port}"),
        )
        arguments, what = found.arguments, f"{request.method} {host}"
        decision = self._decide(session, arguments)
        if not raw and decision.action is not None:
            flow.metadata[ACTION_KEY] = decision.action  # the scan need not normalise the call again
        if decision.verdict is Verdict.PASS and _names_another_host(request, named.get("host")):
            # the server it goes to may hand it on by its Host header (domain fronting): both must pass
            arguments = {**arguments, "url": request.pretty_url}
            what = f"{request.method} {request.pretty_host} (its Host header; sent to {host})"
            decision = self._decide(session, arguments)
        if found.truncated or body.problem:
            why = "over the body cap"
            if body.problem:  # the detectors read what was decoded, then the bytes as sent
                why = f"content encoding {encoding[:40]!r} not decoded: {body.problem}"
            self.runtime.audit_event(
                "proxy_body_partly_read",
                decision=decision.decision_id,
                session=session,
                body_bytes=found.body_size,
                read_bytes=found.body_read,
                why=why,
                note="decided on the part of the body that was read",
            )
        if decision.verdict is not Verdict.PASS:
            self._refuse(flow, decision, what)
            if decision.verdict is Verdict.AUTH and decision.approval_id:
                return session, arguments, decision
            return None
        self._after_pass(flow, session, raw, decoded, found.truncated)
        return None

    async def _hold(
        self, flow: http.HTTPFlow, session: str, arguments: dict[str, Any], decision: Decision
    ) -> None:
        """An AUTH with an approval request: put it to the approval channels and wait in a thread; a grant
        decides the identical request again, which passes once. The 403 already set stands otherwise."""
        import time

        try:
            status, _reached = await asyncio.to_thread(
                self.runtime.hold, decision, door=translate.DOOR, until=time.time() + HOLD_SECONDS
            )
            if status == "granted":
                again = self._decide(session, arguments)
                if again.verdict is Verdict.PASS:
                    flow.response = None
                    raw = flow.request.raw_content or b""
                    encoding = flow.request.headers.get("content-encoding", "").strip().lower()
                    decoded = codings.decode(encoding, raw, self.config.max_body).data
                    self._after_pass(flow, session, raw, decoded, False)
                else:
                    self._refuse(flow, again, f"{flow.request.method} {flow.request.host}")
        except Exception as exc:
            self._fail(flow, exc)
        finally:
            flow.resume()  # type: ignore[no-untyped-call]
            self._holds.discard(asyncio.current_task())

    def _inject(self, flow: http.HTTPFlow, session: str) -> None:
        """Add the configured credential for this host, after the decision (which never saw it), over
        HTTPS only. The event names the host and header, never the value."""
        from limen.facts.hosts import host_in

        request = flow.request
        if request.scheme != "https":
            return
        for injection in self.config.inject:
            if host_in(request.host.lower(), (injection.host,)):
                value = injection.value()
                if value is None:
                    _note(f"no value in {injection.value_env} for {injection.host}: nothing added")
                    continue
                request.headers[injection.header] = value
                self.runtime.audit_event(
                    "proxy_credential_added", session=session, host=request.host, header=injection.header
                )

    def _after_pass(
        self, flow: http.HTTPFlow, session: str, raw: bytes, decoded: bytes | None, truncated: bool
    ) -> None:
        if flow.request.method == "POST" and raw and not truncated:
            message = json_rpc(decoded if decoded is not None else raw)
            if message is not None:
                self._mcp(flow, session, message)
        if self.config.inject and flow.response is None:
            self._inject(flow, session)

    def _mcp(self, flow: http.HTTPFlow, session: str, message: Any) -> None:
        from mitmproxy import http as mhttp

        from limen.proxy.mcp import check

        request = flow.request
        remote = not _loopback(request.host)
        guard = self.guards.get(session, server_name(request.host, request.port, request.scheme), remote)
        answer, pending = check(guard, message)
        if answer is not None:
            status = 200 if answer else 202
            flow.response = mhttp.Response.make(status, answer, {"Content-Type": "application/json"})
            return
        if pending is not None:
            flow.metadata[MCP_KEY] = pending

    def websocket_message(self, flow: http.HTTPFlow) -> None:
        """After an upgrade each message the client sends is a request of its own: decided like a POST of
        its content to the same URL (at most the body cap of it); a refused one is dropped and the
        connection closed, so nothing reaches the server undecided."""
        if flow.websocket is None or not flow.websocket.messages:
            return
        message = flow.websocket.messages[-1]
        if not message.from_client:
            return
        try:
            session = flow.metadata.get(SESSION_KEY, "")
            found = translate.arguments(
                "WEBSOCKET", flow.request.url, [], message.content, None, self.config.max_body
            )
            decision = self._decide(session, found.arguments) if session else None
            refused = decision is None or decision.verdict is not Verdict.PASS
        except Exception as exc:
            _note(f"websocket message refused: the proxy raised {type(exc).__name__}")
            refused = True
        if refused:
            message.drop()  # type: ignore[no-untyped-call]
            flow.kill()  # type: ignore[no-untyped-call]

    # -- responses -------------------------------------------------------------------------------------
    def responseheaders(self, flow: http.HTTPFlow) -> None:
        response = flow.response
        if response is None:
            return
        try:
            pending: Pending | None = flow.metadata.get(MCP_KEY)
            named = _joined_values(response.headers.items(multi=True))  # type: ignore[no-untyped-call]
            kind = named.get("content-type", "").lower()
            if pending is not None:
                _rewritable(response)
                if "event-stream" in kind:
                    response.stream = SseScreen(pending)
                else:
                    response.stream = _JsonHold(pending)
                return
            session = flow.metadata.get(SESSION_KEY, "")
            if flow.client_conn.__dict__.get(PASS_THROUGH_KEY) or not any(t in kind for t in _TEXTUAL):
                response.stream = True
                return
            length = named.get("content-length", "")
            coding = named.get("content-encoding", "").strip().lower()
            if length.isdigit() and int(length) <= BUFFERED_TEXT and "event-stream" not in kind:
                # held whole by mitmproxy (cheaper than streaming a small body): scanned in `response`
                flow.metadata[HELD_KEY] = (kind, coding)
                return
            url = flow.metadata.get(URL_KEY) or flow.request.url
            response.stream = _Observer(self, session, url, coding, flow.metadata.get(ACTION_KEY))
        except Exception as exc:
            _note(f"response screening failed to start: {type(exc).__name__}")
            response.stream = _cut

    def response(self, flow: http.HTTPFlow) -> None:
        """A small text response held whole (`responseheaders` said so; never Limen's own answers, which
        raise no `responseheaders`): scanned once it has been sent on (the next event the loop runs, before
        it reads the client's next request), so the client waits neither for the scan nor for its text to
        be decoded."""
        response = flow.response
        held = flow.metadata.get(HELD_KEY)
        if response is None or held is None or not response.raw_content:
            return
        metadata = flow.metadata
        arguments = {"url": metadata.get(URL_KEY) or flow.request.url, "method": flow.request.method}
        session, action = metadata.get(SESSION_KEY, ""), metadata.get(ACTION_KEY)
        _later(self._scan_held, session, arguments, response.raw_content, held, action)

    def _scan_held(
        self,
        session: str,
        arguments: dict[str, Any],
        raw: bytes,
        held: tuple[str, str],
        action: Action | None,
    ) -> None:
        """The held text (`held`: its content type and coding), without its content coding (bounded: a
        small compressed answer may expand to gigabytes, so at most MAX_OBSERVED bytes are decoded); what
        could not be decoded, or lies past MAX_OBSERVED, is said in a `proxy_response_unscreened` event, and
        what was read is scanned."""
        kind, encoding = held
        text = ""
        try:
            body = codings.decode(encoding, raw, MAX_OBSERVED) if encoding else _AS_SENT
            data = raw if body.data is None else body.data
            why = f"content encoding {encoding[:40]!r} not decoded: {body.problem}" if body.problem else ""
            if len(data) > MAX_OBSERVED:
                why, data = why or f"text past the first {MAX_OBSERVED} bytes", data[:MAX_OBSERVED]
            text = _text(data, kind)
        except Exception as exc:
            _note(f"response scan failed: {type(exc).__name__}")
            why = f"the scan raised {type(exc).__name__}"
        if why:
            self.runtime.audit_event(
                "proxy_response_unscreened", session=session, url_host=arguments["url"][:200], why=why
            )
        if text.strip():
            self._observe(session, arguments, text, action)

    def _observe(
        self, session: str, arguments: dict[str, Any], text: str, action: Action | None = None
    ) -> None:
        """`action`: the request's decided call (a bodyless one), so the scan does not normalise it again."""
        self.runtime.observe_output(
            translate.TOOL, arguments, text, session_id=session or None, door=translate.DOOR, action=action
        )

    # -- helpers ---------------------------------------------------------------------------------------
    def _session(self, flow: http.HTTPFlow) -> str | None:
        """The request's session, or None after answering 407 (the credential is missing or wrong)."""
        from mitmproxy import http as mhttp

        session = self.config.sessions.resolve(flow.request.headers.get("Proxy-Authorization"))
        if session is None:
            self.runtime.audit_event(
                "proxy_credential_refused", host=flow.request.host, method=flow.request.method
            )
            flow.response = mhttp.Response.make(
                407,
                b"Limen: this proxy needs the session's credential (Proxy-Authorization)\n",
                {"Proxy-Authenticate": 'Basic realm="limen"', "Content-Type": "text/plain"},
            )
        return session

    def _decide(self, session: str, arguments: dict[str, Any]) -> Decision:
        decision: Decision = self.runtime.decide(
            translate.TOOL, arguments, session_id=session, door=translate.DOOR, cwd=self.config.cwd or None
        )
        return decision

    def _refuse(self, flow: http.HTTPFlow, decision: Decision, what: str) -> None:
        from mitmproxy import http as mhttp

        status, headers, body = translate.refusal(decision, what)
        flow.response = mhttp.Response.make(status, body, headers)

    def _fail(self, flow: http.HTTPFlow, exc: Exception) -> None:
        """A hook failed: the request is answered with a 403, never forwarded undecided."""
        from mitmproxy import http as mhttp

        from limen.runtime import _failure

        decision = _failure(
            Verdict.BLOCK, ReasonCode.PROXY_HANDLER_ERROR, f"the proxy raised {type(exc).__name__}"
        )
        self.runtime.audit_event(
            "proxy_handler_error",
            decision=decision.decision_id,
            error=type(exc).__name__,
            host=flow.request.host,
        )
        _note(f"request refused: the proxy raised {type(exc).__name__}")
        status, headers, body = translate.refusal(decision, f"{flow.request.method} {flow.request.host}")
        flow.response = mhttp.Response.make(status, body, headers)


class _Observer:
    """A streamed text response scanned in windows as it passes (`Runtime.observe_output`); the bytes go on
    unchanged. Its content coding (gzip, deflate, br, zstd) is undone for the scan, at most MAX_OBSERVED
    bytes of it (`codings.Stream`); a coding not decoded, a stream that fails, and text past MAX_OBSERVED
    are said in a `proxy_response_unscreened` event."""

    def __init__(
        self, addon: LimenAddon, session: str, url: str, coding: str, action: Action | None = None
    ) -> None:
        self.addon = addon
        self.session = session
        self.arguments = {"url": url, "method": "GET"}
        self.action = action
        self.stream = codings.Stream(coding)
        self.window = bytearray()
        self.decoded = 0  # bytes of text decoded so far (at most MAX_OBSERVED are)
        self.reported = False

    def __call__(self, chunk: bytes) -> bytes:
        try:
            self._take(chunk)
        except Exception as exc:
            _note(f"response scan failed: {type(exc).__name__}")
            self._unscreened(f"the scan raised {type(exc).__name__}")
        return chunk

    def _take(self, chunk: bytes) -> None:
        data = b""
        if self.decoded >= MAX_OBSERVED:
            if chunk:
                self._unscreened(f"text past the first {MAX_OBSERVED} bytes")
        elif not self.stream.problem:
            data = self.stream.feed(chunk, MAX_OBSERVED - self.decoded)
            self.decoded += len(data)
            if self.decoded > MAX_OBSERVED:
                data = data[: len(data) - (self.decoded - MAX_OBSERVED)]
                self._unscreened(f"text past the first {MAX_OBSERVED} bytes")
        if self.stream.problem:  # what was decoded before is still scanned
            self._unscreened(f"content encoding not decoded: {self.stream.problem}")
        self.window += data
        last = not chunk or self.decoded >= MAX_OBSERVED or bool(self.stream.problem)  # nothing follows
        if self.window and (last or len(self.window) >= OBSERVE_WINDOW):
            self._observe(bytes(self.window))
            if last:
                self.window.clear()
            else:
                del self.window[: max(0, len(self.window) - OBSERVE_OVERLAP)]

    def _observe(self, data: bytes) -> None:
        text = data.decode("utf-8", errors="replace")
        _later(self.addon._observe, self.session, self.arguments, text, self.action)

    def _unscreened(self, why: str) -> None:
        if not self.reported:
            self.reported = True
            self.addon.runtime.audit_event(
                "proxy_response_unscreened",
                session=self.session,
                url_host=self.arguments["url"][:200],
                why=why,
            )


class _JsonHold:
    """A plain-JSON MCP answer: held (up to MAX_JSON_ANSWER) and screened whole when it ends. Returns lists
    of chunks: an empty bytes chunk would end a chunked HTTP/1.1 body early."""

    def __init__(self, pending: Pending) -> None:
        self.pending = pending
        self.body = bytearray()
        self.over = False

    def __call__(self, chunk: bytes) -> list[bytes]:
        if chunk:
            if not self.over:
                self.body += chunk
                if len(self.body) > MAX_JSON_ANSWER:
                    self.over = True
                    self.body.clear()
            return []
        from limen.proxy.mcp import withheld

        if self.over:
            return [withheld(self.pending, "it is too long to screen")]
        try:
            return [screen_json(self.pending, bytes(self.body))]
        except Exception as exc:
            _note(f"MCP answer screening failed: {type(exc).__name__}")
            return [withheld(self.pending, "screening it failed")]


def _later(scan: Callable[..., None], *args: Any) -> None:
    """Scan on the event loop's next turn: after what was just relayed is written, before the loop reads
    the next request (so the session's taint is current when that request is decided)."""

    def run() -> None:
        try:
            scan(*args)
        except Exception as exc:
            _note(f"response scan failed: {type(exc).__name__}")

    try:
        asyncio.get_running_loop().call_soon(run)
    except RuntimeError:  # no loop (called outside the proxy): scan now
        run()


def _text(data: bytes, content_type: str) -> str:
    """A body's text as mitmproxy reads it (the charset its Content-Type or markup names; else latin-1,
    which keeps every byte), undecodable bytes replaced."""
    from mitmproxy.net.http.headers import infer_content_encoding

    try:
        return data.decode(infer_content_encoding(content_type, data), errors="replace")
    except LookupError:  # a charset Python does not know
        return data.decode("utf-8", errors="replace")


def _rewritable(response: Any) -> None:
    """A streamed answer whose length the screen may change: no Content-Length (HTTP/1.1: chunked)."""
    response.headers.pop("content-length", None)
    if response.http_version == "HTTP/1.1":
        response.headers["transfer-encoding"] = "chunked"


def _cut(chunk: bytes) -> list[bytes]:
    """A response whose screening could not start: nothing of it reaches the client."""
    return []


def _joined_values(fields: list[tuple[str, str]]) -> dict[str, str]:
    """Each header's values joined with ", " in order, by its lower-case name: what `Headers.get` answers
    (a repeated Content-Encoding reads `identity, gzip`, not `identity`)."""
    joined: dict[str, str] = {}
    for name, value in fields:
        lowered = name.lower()
        joined[lowered] = f"{joined[lowered]}, {value}" if lowered in joined else value
    return joined


def _names_another_host(request: http.Request, host_header: str | None) -> bool:
    """Whether the Host header (`host_header`, its values joined; HTTP/2 and 3: `:authority` first) names
    another host than the one the request is sent to (mitmproxy connects to the CONNECT target, or to the
    host of an absolute-form URL)."""
    named, host = host_header, request.host
    if request.is_http2 or request.is_http3:
        named = request.authority or host_header
    if not named or named == host or (named.startswith(f"{host}:") and named[len(host) + 1 :].isdigit()):
        return False
    return request.pretty_host.lower().rstrip(".") != host.lower().rstrip(".")


def _authority(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


def _note(text: str) -> None:
    print(f"limen proxy: {text}", file=sys.stderr, flush=True)
