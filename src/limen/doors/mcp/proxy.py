"""The relay core: one agent connection, one downstream server, every call, read and prompt decided.

It works on raw JSON-RPC messages. A request is parsed only to route it; what the proxy does not need
to change leaves as the exact bytes that came in. `tools/call`, `resources/read` and `prompts/get`
requests are decided before they are forwarded; their results, the listings the model reads and every
server error are reviewed before the agent sees them; and every forwarded request carries a deadline,
so a crashed, hung or babbling server ends in `downstream_error` rather than a stuck agent. What the
server sends that is not one well-formed JSON-RPC message is dropped, never relayed. A large message is
decided or screened on a worker thread, so the event loop keeps relaying other calls and deadlines keep
firing. An AUTH request is put to the human through the client's elicitation form when the client offers
one (handshake era; the package docstring says what that trusts), else refused. Transports (stdio,
Streamable HTTP) plug in on both sides.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from limen.doors.mcp.guard import (
    PROMPT_TOOL,
    RESOURCE_TOOL,
    SERVER_UNSCREENED,
    Guard,
    Refusal,
    Withheld,
    failure_reason,
)
from limen.doors.mcp.messages import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    JSON,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    REFUSED,
    encode,
    error,
    id_key,
    is_request,
    is_response,
    params_of,
    parse,
    parse_batch,
    protocol_version,
    response,
    salvage_id,
    tool_error_result,
    well_formed,
)
from limen.model import ReasonCode

Sink = Callable[[bytes], None]
T = TypeVar("T")
# Messages at least this large are decided or screened on a worker thread: screening costs time in
# proportion to size (about a second per megabyte), and the event loop must keep relaying meanwhile.
OFFLOAD_BYTES = 16 * 1024
HOLD_MARGIN = 5.0  # seconds before the request timeout at which a call held for a human's approval is refused
MAX_LIST_PAGES = 50  # a server paging its tool list forever must not stall a call
LONG_LIVED = frozenset({"subscriptions/listen"})  # open by design until cancelled: no deadline
DECIDED = frozenset({"tools/call", "resources/read", "prompts/get"})  # decided before they go out
# What a client may send without an id and without a decision: notifications that ask for no work. Any
# other message without an id is decided (DECIDED) or refused: servers that dispatch on `method` run it.
PURE_NOTIFICATIONS = frozenset(
    {
        "notifications/initialized",
        "notifications/cancelled",
        "notifications/progress",
        "notifications/roots/list_changed",
    }
)
# listings whose entries' descriptions the model reads: method -> the result's list
LISTINGS = {
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
}
# The requests a client may make of an MCP server (both eras). Any other method is refused, not relayed: a
# server that dispatches on `method` would run it, and Limen could not say what it asks for.
CLIENT_REQUESTS = frozenset(
    {
        "initialize",
        "ping",
        "server/discover",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
        "subscriptions/listen",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "logging/setLevel",
        "tasks/get",
        "tasks/list",
        "tasks/result",
        "tasks/cancel",
    }
)
# server requests whose answer from the client (a model's reply, a form's values) is scanned for secrets
SERVER_ANSWER_SCREENED = frozenset({"sampling/createMessage", "elicitation/create"})
MAX_SERVER_ASKS = 1024
HANDSHAKES = frozenset({"initialize", "server/discover"})  # their `instructions` reach the model
TASK_RESULT = "tasks/result"  # a task-augmented tool call's result comes back through it
REVIEWED = frozenset({"tools/list", *DECIDED, *LISTINGS, *HANDSHAKES, TASK_RESULT})  # screened results


class DownstreamUnavailable(Exception):
    """The server cannot take a message: not started, exited, or unreachable."""


class MalformedAnswer(Exception):
    """The server's answer is JSON-RPC but not the shape its method requires."""


class Downstream(Protocol):
    """A server connection. It hands every message to `proxy.from_server` and reports failures."""

    @property
    def alive(self) -> bool: ...

    async def start(self, proxy: Proxy) -> None: ...

    async def send(self, message: JSON, raw: bytes) -> None: ...

    async def close(self) -> None: ...


@dataclass(slots=True)
class _Pending:
    """A request forwarded to the server and not yet answered."""

    method: str
    message_id: Any
    modern: bool
    name: Any = None
    arguments: Any = None
    timer: asyncio.TimerHandle | None = None
    deadline: float = 0.0


class Proxy:
    """Relay between one client and one downstream, deciding and screening on the way."""

    def __init__(
        self,
        guard: Guard,
        downstream: Downstream,
        to_client: Sink,
        *,
        timeout: float,
        startup_timeout: float = 30.0,
        restart: bool = False,
        ask: bool = True,
    ) -> None:
        self.guard = guard
        self.downstream = downstream
        self.to_client = to_client
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.restart = restart
        self.ask = ask
        self._pending: dict[str, _Pending] = {}
        self._screening: dict[str, _Pending] = {}  # answered by the server, being screened off the loop
        self._handshake: list[JSON] = []  # initialize + initialized, replayed after a restart
        self._internal: dict[str, asyncio.Future[JSON]] = {}
        self._ids = itertools.count(1)
        self._id_prefix = (
            f"limen-{os.urandom(4).hex()}"  # the proxy's own request ids, unguessable by a client
        )
        self._tasks: set[asyncio.Task[None]] = set()
        self._listed = False  # whether the server's current tool list has been pinned in this connection
        self._heard = False  # whether the server has said anything yet (until then it may still be starting)
        self._can_ask = False  # the client offered an elicitation form: a human can allow an AUTH call
        self._asks: dict[str, asyncio.Future[JSON]] = {}
        # decided by `limen serve`: every decision and screen is a network round trip, kept off the loop
        self._offload_all = guard.decides_remotely()
        # the server's sampling requests and elicitations relayed to the client, unanswered: id -> method
        self._server_asks: dict[str, str] = {}

    async def start(self) -> None:
        try:
            await self.downstream.start(self)
        except Exception as exc:  # the agent still gets answers: each request ends in downstream_error
            _note(f"downstream did not start ({type(exc).__name__})")

    async def drain(self) -> None:
        """Wait (at most one timeout) for the answers still owed to a client that stopped sending."""
        deadline = asyncio.get_running_loop().time() + self.timeout
        while (self._pending or self._screening) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        for key in list(self._pending):
            self._fail(key, "the proxy is shutting down")
        for key in list(self._screening):
            self._answer_failure(
                self._unscreened(key), ReasonCode.DOWNSTREAM_ERROR, "the proxy is shutting down"
            )
        await self.downstream.close()

    # client -> server

    async def from_client(self, raw: bytes) -> None:
        """Handle one message from the agent. Never raises; a failure answers `proxy_handler_error`."""
        message = parse(raw)
        if message is None:
            batch = parse_batch(raw)
            if batch is not None:
                await self._batch(batch)
                return
            self._send(error(None, PARSE_ERROR, "Parse error: expected one JSON-RPC message"))
            return
        try:
            await self._from_client(message, raw)
        except Exception as exc:
            code, what = failure_reason(exc)
            _note(f"proxy handler failed: {what}")
            if is_request(message):
                self._forget(message["id"])  # one answer per request, even if it was already forwarded
                self._answer_failure(
                    _Pending(
                        str(message["method"]),
                        message["id"],
                        bool(protocol_version(message)),
                        params_of(message).get("name"),
                    ),
                    code,
                    what,
                )

    async def _batch(self, batch: list[Any]) -> None:
        """A JSON-RPC batch (2025-03-26) is split: each element is handled, decided and answered as if it
        had come alone, so no call in a batch escapes its decision. The server never sees a batch."""
        if not batch:
            self._send(error(None, INVALID_REQUEST, "Invalid request: an empty batch"))
        for element in batch:
            if isinstance(element, dict):
                await self.from_client(encode(element))
            else:
                self._send(error(None, INVALID_REQUEST, "Invalid request: a batch element is not an object"))

    async def _from_client(self, message: JSON, raw: bytes) -> None:
        method = message.get("method")
        if not is_request(message):
            waiter = self._asks.pop(id_key(message.get("id")), None) if is_response(message) else None
            if (
                waiter is not None
            ):  # the human's answer to the proxy's own question, not the server's business
                if not waiter.done():
                    waiter.set_result(message)
                return
            asked = self._server_asks.pop(id_key(message.get("id")), None) if is_response(message) else None
            if asked is not None and not await self._answer_clean(asked, message, raw):
                return
            if method is not None and method not in PURE_NOTIFICATIONS:
                await self._notification(message, raw)
                return
            if method == "notifications/initialized":
                self._handshake[1:] = [message]
            elif method == "notifications/cancelled":
                self._forget(params_of(message).get("requestId"))
            await self._send_down(message, raw)
            return
        pending = _Pending(str(method), message["id"], bool(protocol_version(message)))
        if method not in CLIENT_REQUESTS:
            codes = (ReasonCode.UNCLASSIFIED_ACTION.value,)
            self.guard.refused_request(str(method), codes)
            refused = error(
                message["id"], METHOD_NOT_FOUND, f"Method not found: Limen relays no {method!s:.80}"
            )
            refused["error"]["data"] = {"reason": list(codes)}
            self._send(refused)
            return
        if method in DECIDED:
            refusal = await self._decide(pending, message, heavy=self._heavy(raw))
            if refusal is not None and refusal.approvable and self._can_ask and not pending.modern:
                self._spawn(self._ask_then_forward(pending, message, raw, refusal))
                return
            if refusal is not None and refusal.held is not None and pending.message_id is not None:
                self._spawn(self._hold_then_forward(pending, message, raw, refusal))
                return
            if refusal is not None:
                self._send(self._refusal(pending, refusal.text, refusal.codes))
                return
        elif method == "initialize":
            self._handshake = [message]
            self._can_ask = self.ask and _offers_elicitation(params_of(message))
        await self._forward(pending, message, raw)

    async def _notification(self, message: JSON, raw: bytes) -> None:
        """A message without an id that asks the server to act: a server dispatching on `method` runs it
        all the same. A call, read or prompt fetch is decided like a request and forwarded only when
        allowed; anything else that is not a pure notification is refused. A refusal cannot be answered
        (there is no id): it is dropped, noted in the operator's log and audited."""
        method = str(message.get("method"))
        pending = _Pending(method, None, bool(protocol_version(message)))
        if method in DECIDED:
            refusal = await self._decide(pending, message, heavy=self._heavy(raw))
            if refusal is None:
                await self._send_down(message, raw)
                return
            codes = refusal.codes
        else:
            codes = (ReasonCode.UNCLASSIFIED_ACTION.value,)
        self.guard.refused_notification(method, pending.name, codes)
        _note(f"refused a {method} without an id ({', '.join(codes)}); it was not forwarded")

    def _heavy(self, raw: bytes) -> bool:
        """Whether the guard's work on this message runs on a worker thread rather than on the loop."""
        return self._offload_all or len(raw) >= OFFLOAD_BYTES

    async def _decide(self, pending: _Pending, message: JSON, *, heavy: bool) -> Refusal | None:
        """Decide a tool call, a resource read or a prompt fetch; note what the answer is screened as."""
        params = params_of(message)
        if pending.method == "tools/call":
            if not self._listed:
                await self._list_for_pins(message)
            pending.name, pending.arguments = params.get("name"), params.get("arguments")
            return await _run(heavy, self.guard.check_call, pending.name, pending.arguments)
        if pending.method == "resources/read":
            pending.name = RESOURCE_TOOL
            pending.arguments, refusal = await _run(heavy, self.guard.check_resource, params.get("uri"))
            return refusal
        pending.name = PROMPT_TOOL
        pending.arguments, refusal = await _run(
            heavy, self.guard.check_prompt, params.get("name"), params.get("arguments")
        )
        return refusal

    def _refusal(self, pending: _Pending, text: str, codes: tuple[str, ...]) -> JSON:
        """A refused tool call is an `isError` result; a refused read or prompt a JSON-RPC error."""
        if pending.method == "tools/call":
            return response(pending.message_id, tool_error_result(text, modern=pending.modern))
        answer = error(pending.message_id, REFUSED, text)
        answer["error"]["data"] = {"reason": list(codes)}
        return answer

    async def _forward(self, pending: _Pending, message: JSON, raw: bytes) -> None:
        key = id_key(pending.message_id)
        self._pending[key] = pending
        if pending.method not in LONG_LIVED:
            pending.deadline = self._deadline()
            pending.timer = asyncio.get_running_loop().call_later(pending.deadline, self._expire, key)
        try:
            await self._send_down(message, raw, request=True)
        except DownstreamUnavailable:
            self._fail(key, "the MCP server is not running")

    async def _ask_then_forward(self, pending: _Pending, message: JSON, raw: bytes, refusal: Refusal) -> None:
        """Ask the human; forward the call only on an explicit yes (single use: this request only)."""
        approved = await self._ask(refusal.question)
        self.guard.record_approval(str(pending.name), refusal, approved)
        if approved:
            await self._forward(pending, message, raw)
        else:
            self._send(self._refusal(pending, refusal.unanswered, refusal.codes))

    async def _hold_then_forward(
        self, pending: _Pending, message: JSON, raw: bytes, refusal: Refusal
    ) -> None:
        """Hold an AUTH call while a human answers through Limen's approval channels (at most the request
        timeout minus a margin); granted, the identical call is decided again (it passes once) and
        forwarded; otherwise it is refused with the approval id, so a later approval lets the retry
        through once."""
        until = time.time() + max(self.timeout - HOLD_MARGIN, 0.0)
        status, reached = await asyncio.to_thread(self.guard.hold, refusal, until)
        if status == "granted":
            again = await self._decide(pending, message, heavy=True)
            if again is None:
                await self._forward(pending, message, raw)
                return
            refusal = again
        text = refusal.text
        if reached and status != "granted":
            answer = "denied it" if status == "denied" else "gave no answer in time"
            text += f"\nLimen asked via {reached[0]}; a person {answer}."
        self._send(self._refusal(pending, text, refusal.codes))

    async def _ask(self, question: str) -> bool:
        """The client's elicitation form, one boolean. A decline, a cancel, a timeout, an error or a
        malformed answer all mean no."""
        schema = {
            "type": "object",
            "properties": {"allow": {"type": "boolean", "title": "Allow this one call", "default": False}},
            "required": ["allow"],
        }
        request = {
            "jsonrpc": "2.0",
            "id": f"{self._id_prefix}-ask-{next(self._ids)}",
            "method": "elicitation/create",
            "params": {"message": question, "requestedSchema": schema},
        }
        key = id_key(request["id"])
        waiter: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._asks[key] = waiter
        self._send(request)
        try:
            answer = await asyncio.wait_for(waiter, self.timeout)
        except TimeoutError:
            return False
        finally:
            self._asks.pop(key, None)
        result = answer.get("result")
        content = result.get("content") if isinstance(result, dict) else None
        return (
            isinstance(result, dict)
            and result.get("action") == "accept"
            and isinstance(content, dict)
            and content.get("allow") is True
        )

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_down(self, message: JSON, raw: bytes, *, request: bool = False) -> None:
        if not self.downstream.alive and self.restart and message.get("method") != "initialize":
            await self._restart()
        try:
            await self.downstream.send(message, raw)
        except DownstreamUnavailable:
            if request:
                raise

    async def _list_for_pins(self, call: JSON) -> None:
        """Pin the server's current tools before a call when the agent has not listed them here (a client
        with a cached list, or a server that announced a change): a changed tool is caught either way."""
        params: JSON = {}
        meta = params_of(call).get("_meta")
        if protocol_version(call) and isinstance(meta, dict):
            params["_meta"] = {k: v for k, v in meta.items() if k.startswith("io.modelcontextprotocol/")}
        cursor: Any = None
        try:
            for _ in range(MAX_LIST_PAGES):
                page = dict(params, cursor=cursor) if cursor else params
                request = {
                    "jsonrpc": "2.0",
                    "id": f"{self._id_prefix}-list-{next(self._ids)}",
                    "method": "tools/list",
                }
                answer = await self._internal_request(dict(request, params=page))
                result = answer.get("result")
                if not isinstance(result, dict) or not isinstance(result.get("tools"), list):
                    return
                self.guard.review_tools(result["tools"])
                cursor = result.get("nextCursor")
                if not isinstance(cursor, str) or not cursor:
                    break
        except (TimeoutError, DownstreamUnavailable):
            return  # the call itself then meets the same failure and answers downstream_error
        self._listed = True

    async def _internal_request(self, request: JSON) -> JSON:
        """Send a request of the proxy's own and wait for its answer, which the agent never sees."""
        key = id_key(request["id"])
        waiter: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._internal[key] = waiter
        try:
            await self.downstream.send(request, encode(request))
            return await asyncio.wait_for(waiter, self._deadline())
        finally:
            self._internal.pop(key, None)

    def _deadline(self) -> float:
        """Seconds a request may take: a server that has not spoken yet also gets its start-up time."""
        return self.timeout if self._heard else self.timeout + self.startup_timeout

    async def _restart(self) -> None:
        """Start the server again and replay the agent's handshake so the session continues."""
        _note("restarting the MCP server")
        await self.downstream.close()
        self._heard = False
        try:
            await self.downstream.start(self)
        except Exception as exc:
            raise DownstreamUnavailable("restart failed") from exc
        if not self._handshake:
            return
        init = dict(self._handshake[0], id=f"{self._id_prefix}-restart-{next(self._ids)}")
        try:
            await self._internal_request(init)
        except TimeoutError as exc:
            raise DownstreamUnavailable("restart failed") from exc
        for notification in self._handshake[1:]:
            await self.downstream.send(notification, encode(notification))

    # server -> client

    async def from_server(self, raw: bytes) -> None:
        """Handle one message from the server: answers are reviewed, other well-formed messages relayed as
        they came, and anything else dropped (failing the request it answers, when that can be told)."""
        self._heard = True
        message = parse(raw)
        if message is None or not well_formed(message):
            self._malformed(message, raw)
            return
        if not is_response(message):
            method = message.get("method")
            if method == "notifications/tools/list_changed":
                self._listed = False
            if method not in SERVER_UNSCREENED and not await self._server_message_clean(message, raw):
                return
            if is_request(message) and method in SERVER_ANSWER_SCREENED:
                if len(self._server_asks) >= MAX_SERVER_ASKS:  # a server asking and never hearing back
                    self._server_asks.pop(next(iter(self._server_asks)))
                self._server_asks[id_key(message["id"])] = str(method)
            self._send_raw(raw)
            return
        key = id_key(message["id"])
        waiter = self._internal.pop(key, None)
        if waiter is not None:
            if not waiter.done():
                waiter.set_result(message)
            return
        pending = self._pending.pop(key, None)
        if pending is None:
            return  # answered already (timed out or cancelled): the agent must not get two answers
        if not self._heavy(raw):
            if pending.timer is not None:
                pending.timer.cancel()
            self._relay_answer(raw, self._answer_for(pending, message))
            return
        self._screening[key] = pending  # its deadline still runs: a screen that overruns it is a failure
        self._spawn(self._screen_off_loop(key, pending, message, raw))

    async def _answer_clean(self, method: str, message: JSON, raw: bytes) -> bool:
        """The client's answer to a server's sampling request or elicitation goes to the server: one that
        carries a secret (the model's reply, a value typed into a form) is replaced by an error."""
        try:
            codes = await _run(
                self._heavy(raw), self.guard.screen_client_answer, method, message.get("result")
            )
        except Exception as exc:
            codes = (failure_reason(exc)[0].value,)
        if not codes:
            return True
        refusal = error(message.get("id"), REFUSED, f"Limen withheld the answer to this {method} request")
        refusal["error"]["data"] = {"reason": list(codes)}
        with contextlib.suppress(DownstreamUnavailable):
            await self._send_down(refusal, encode(refusal))
        return False

    async def _server_message_clean(self, message: JSON, raw: bytes) -> bool:
        """Screen a server's own request or notification (sampling, elicitation, log and progress messages,
        anything else carrying text). A refused request is answered to the server with an error (the
        client never sees it); a refused notification is dropped."""
        method = str(message.get("method"))
        try:
            codes = await _run(self._heavy(raw), self.guard.screen_server_message, method, params_of(message))
        except Exception as exc:
            codes = (failure_reason(exc)[0].value,)
        if not codes:
            return True
        if is_request(message):
            text = f"Limen refused this {method} request: reason codes {', '.join(codes)}"
            refusal = error(message["id"], REFUSED, text)
            refusal["error"]["data"] = {"reason": list(codes)}
            with contextlib.suppress(DownstreamUnavailable):
                await self.downstream.send(refusal, encode(refusal))
        return False

    async def _screen_off_loop(self, key: str, pending: _Pending, message: JSON, raw: bytes) -> None:
        try:
            answer = await asyncio.to_thread(self._answer_for, pending, message)
        except Exception as exc:  # no worker thread to run it on (the loop is closing)
            code, what = failure_reason(exc)
            answer = self._failure(pending, code, what)
        if self._screening.pop(key, None) is None:
            return  # the deadline passed, the agent cancelled, or the proxy closed: it was answered already
        if pending.timer is not None:
            pending.timer.cancel()
        self._relay_answer(raw, answer)

    def _answer_for(self, pending: _Pending, message: JSON) -> JSON | None:
        """What the agent gets for a server's answer (None: the answer as it came). Never raises."""
        try:
            return self._review(pending, message)
        except MalformedAnswer:
            return self._failure(
                pending, ReasonCode.DOWNSTREAM_ERROR, "the MCP server sent a malformed answer"
            )
        except Exception as exc:
            code, what = failure_reason(exc)
            _note(f"reviewing a {pending.method} answer failed: {what}")
            return self._failure(pending, code, what)

    def _relay_answer(self, raw: bytes, answer: JSON | None) -> None:
        if answer is None:
            self._send_raw(raw)
        else:
            self._send(answer)

    def _malformed(self, message: JSON | None, raw: bytes) -> None:
        """Drop what is not one JSON-RPC message. When it was an answer to a request still open (its id can
        be read), that request fails now instead of waiting for its deadline."""
        what = "not JSON" if message is None else "not a JSON-RPC message"
        _note(f"dropped a malformed message from the MCP server ({what}, {len(raw)} bytes)")
        if message is None:
            message_id = salvage_id(raw)
        elif "method" in message:
            return  # a broken request or notification of the server's own: no request of ours to fail
        else:
            message_id = message.get("id")
        if message_id is None:
            return
        key = id_key(message_id)
        waiter = self._internal.pop(key, None)
        if waiter is not None and not waiter.done():
            waiter.set_exception(DownstreamUnavailable("malformed answer"))
        pending = self._pending.pop(key, None)
        if pending is not None:
            if pending.timer is not None:
                pending.timer.cancel()
            self._answer_failure(
                pending, ReasonCode.DOWNSTREAM_ERROR, "the MCP server sent a malformed answer"
            )

    def _review(self, pending: _Pending, message: JSON) -> JSON | None:
        """None to relay the answer unchanged, else what the agent gets instead."""
        if "error" in message:
            return self._review_error(pending, message["error"])
        if pending.method not in REVIEWED:
            return None
        result = message.get("result")
        if not isinstance(result, dict):
            raise MalformedAnswer
        if pending.method in HANDSHAKES:
            cleaned = self.guard.screen_instructions(result)
            return None if cleaned is None else response(pending.message_id, cleaned)
        if pending.method == "tools/list":
            tools = result.get("tools")
            if not isinstance(tools, list):
                raise MalformedAnswer
            kept = self.guard.review_tools(tools)
            self._listed = True
            return None if len(kept) == len(tools) else response(pending.message_id, dict(result, tools=kept))
        if pending.method in LISTINGS:
            entries = result.get(LISTINGS[pending.method])
            if not isinstance(entries, list):
                raise MalformedAnswer
            kept = self.guard.review_listing(pending.method, entries)
            if len(kept) == len(entries):
                return None
            return response(pending.message_id, dict(result, **{LISTINGS[pending.method]: kept}))
        if result.get("resultType") == "input_required":
            codes = self.guard.screen_input_requests(result)
            if codes:
                what = "the MCP server's request for input"
                return self._refusal(pending, _withheld_input(what, codes), codes)
            return None  # the retry carrying the input is a new request, decided again
        if pending.method in ("tools/call", TASK_RESULT):
            name = str(pending.name) if pending.method == "tools/call" else "tasks_result"
            screened = self.guard.screen_result(name, pending.arguments, result, modern=pending.modern)
            return None if screened is None else response(pending.message_id, screened)
        answer = self.guard.screen_answer(pending.method, pending.arguments, result)
        if isinstance(answer, Withheld):
            return self._refusal(pending, answer.text, answer.codes)
        return None if answer is None else response(pending.message_id, answer)

    def _review_error(self, pending: _Pending, err: Any) -> JSON | None:
        """A server's error is screened like a result; one that must not be shown becomes downstream_error."""
        name = str(pending.name) if pending.name is not None else pending.method.replace("/", "_")
        screened = self.guard.screen_error(name, pending.arguments, err)
        if isinstance(screened, Withheld):
            what = f"its error message was withheld ({', '.join(screened.codes)})"
            return self._failure(pending, ReasonCode.DOWNSTREAM_ERROR, what)
        if screened is None:
            return None
        return {"jsonrpc": "2.0", "id": pending.message_id, "error": screened}

    # failures

    def server_failed(self, message_id: Any = None, *, what: str = "the MCP server stopped") -> None:
        """Fail one request (an id) or every outstanding one (None, the connection is gone)."""
        keys = [id_key(message_id)] if message_id is not None else [*self._pending, *self._internal]
        for key in keys:
            self._fail(key, what)
            waiter = self._internal.get(key)
            if waiter is not None and not waiter.done():
                waiter.set_exception(DownstreamUnavailable(what))

    def _expire(self, key: str) -> None:
        if key in self._screening:
            late = self._unscreened(key)
            what = f"its answer could not be screened within {late.deadline:g} s"
            self._answer_failure(late, ReasonCode.PROXY_HANDLER_ERROR, what)
            return
        pending = self._pending.get(key)
        if pending is None:
            return
        self._fail(key, f"the MCP server did not answer within {pending.deadline:g} s")
        cancel = {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": pending.message_id, "reason": "timeout"},
        }
        self._spawn(self._send_down(cancel, encode(cancel)))

    def _fail(self, key: str, what: str) -> None:
        pending = self._pending.pop(key, None)
        if pending is None:
            return
        if pending.timer is not None:
            pending.timer.cancel()
        self._answer_failure(pending, ReasonCode.DOWNSTREAM_ERROR, what)

    def _forget(self, message_id: Any) -> None:
        key = id_key(message_id)
        pending = self._pending.pop(key, None) or self._screening.pop(key, None)
        if pending is not None and pending.timer is not None:
            pending.timer.cancel()

    def _unscreened(self, key: str) -> _Pending:
        """Take a request out of screening (its late result is then dropped) and stop its deadline."""
        pending = self._screening.pop(key)
        if pending.timer is not None:
            pending.timer.cancel()
        return pending

    def _answer_failure(self, pending: _Pending, code: ReasonCode, what: str) -> None:
        self._send(self._failure(pending, code, what))

    @staticmethod
    def _failure(pending: _Pending, code: ReasonCode, what: str) -> JSON:
        """`isError` result for a tool call, JSON-RPC error otherwise; never the server's own error text."""
        if pending.method == "tools/call":
            text = (
                f"Limen could not complete the call to {pending.name}: {what} ({code.value}). "
                "The tool may or may not have run; check before retrying."
            )
            return response(pending.message_id, tool_error_result(text, modern=pending.modern))
        answer = error(pending.message_id, INTERNAL_ERROR, f"{code.value}: {what}")
        answer["error"]["data"] = {"reason": code.value}
        return answer

    def _send(self, message: JSON) -> None:
        self._send_raw(encode(message))

    def _send_raw(self, raw: bytes) -> None:
        try:
            self.to_client(raw)
        except Exception as exc:  # the client went away; nothing left to tell it
            _note(f"could not write to the client ({type(exc).__name__})")


async def _run(heavy: bool, work: Callable[..., T], *args: Any) -> T:
    """Guard work inline when the message is small, on a worker thread when it is large."""
    return await asyncio.to_thread(work, *args) if heavy else work(*args)


def _withheld_input(what: str, codes: tuple[str, ...]) -> str:
    return (
        f"Limen refused {what}: it carries instructions aimed at the model or asks for a secret. "
        f"Reason codes: {', '.join(codes)}. The request was not shown; a human can inspect `limen log`."
    )


def _offers_elicitation(params: JSON) -> bool:
    """Whether the client's `initialize` offers elicitation forms (`{}` meant forms before URL mode)."""
    capabilities = params.get("capabilities")
    offered = capabilities.get("elicitation") if isinstance(capabilities, dict) else None
    return isinstance(offered, dict) and ("form" in offered or not offered)


def _note(text: str) -> None:
    """Operator-facing note in the MCP client's server log (stderr, timestamped), never on the protocol
    stream."""
    from limen.logs import logger

    logger("mcp").warning(text)
