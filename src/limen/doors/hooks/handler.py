"""One agent event in, one answer out: parse in the agent's dialect, decide, answer in the dialect.

The daemon and the in-process fallback both call `handle()`, so the answer and the audit record are the
same whichever path served the event. The record travels with the answer and is appended only once the
hook client has settled on giving that answer (see `limen.doors.hooks.client`): one record per answer,
equal to it. Nothing here raises: every failure is that agent's deny.
"""

from __future__ import annotations

import importlib
import json
import ntpath
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

from limen.doors.hooks import events as ev
from limen.doors.hooks.wire import HOLD_UNTIL, HOOK_CWD, audit_size

if TYPE_CHECKING:
    from limen.model import Decision, Finding
    from limen.runtime import Runtime
    from limen.serve.client import RemoteRuntime

    DoorRuntime = Runtime | RemoteRuntime
    from limen.turngate.repeat import RepeatGate, RepeatTracker

DOOR = "hook"
# Asked just before anything is recorded; False means another process decides this event (see `wire`).
Claim = Callable[[], bool]


class Superseded(Exception):
    """The client stopped waiting and decides the event itself: this copy must record nothing."""


class Dialect(Protocol):
    def parse(self, payload: dict[str, Any], env: dict[str, str]) -> ev.HookEvent: ...

    def render(self, event: ev.HookEvent, outcome: ev.Outcome) -> ev.Answer: ...

    def fail_closed(self, event_name: str | None, why: str) -> ev.Answer: ...


def dialect(agent: str) -> Dialect:
    """The dialect module of a supported agent; raises KeyError for any other name."""
    return cast(Dialect, importlib.import_module(f"limen.doors.hooks.{ev.DIALECTS[agent]}"))


class RuntimePool:
    """Runtimes by workspace. The daemon keeps a few warm for many agents and sessions at once; calls on
    one runtime are serialised, calls on different workspaces run in parallel.

    With `LIMEN_SERVER` set where the daemon (or the in-process fallback) starts, which is the agent's own
    environment, each runtime is `limen serve`'s (`limen.serve.client.RemoteRuntime`): the server decides,
    holds the session and records the decision; when it cannot be reached, the call is a BLOCK recorded
    in the local audit log."""

    def __init__(self, limit: int = 16) -> None:
        self._limit = limit
        self._slots: OrderedDict[str, tuple[DoorRuntime, threading.Lock]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, workspace: str) -> tuple[DoorRuntime, threading.Lock]:
        with self._lock:
            slot = self._slots.get(workspace)
            if slot is None:
                slot = (_open_runtime(workspace), threading.Lock())
                self._slots[workspace] = slot
                if len(self._slots) > self._limit:
                    _close_idle(*self._slots.popitem(last=False)[1])
            self._slots.move_to_end(workspace)
            return slot

    def close(self) -> None:
        """Close the runtimes no request is using; one stuck in a hung request dies with the process."""
        with self._lock:
            for runtime, lock in self._slots.values():
                _close_idle(runtime, lock)
            self._slots.clear()


def _open_runtime(workspace: str) -> DoorRuntime:
    if os.environ.get("LIMEN_SERVER"):
        from limen.serve.client import door_runtime

        return door_runtime(workspace, None)
    from limen.runtime import Runtime

    return Runtime(workspace=workspace)


def _log_size(runtime: DoorRuntime) -> int:
    """The local audit log's size before the decision (see `ev.Answer.since`); 0 for `limen serve`, which
    records its decisions itself (the answer then carries no record for the client to append)."""
    writer = getattr(runtime, "writer", None)
    return int(writer.size()) if writer is not None else 0


def _close_idle(runtime: DoorRuntime, lock: threading.Lock) -> None:
    """Close a runtime unless a request still holds it after a second (a hung one dies with the process)."""
    if lock.acquire(timeout=1.0):
        try:
            runtime.close()
        finally:
            lock.release()


def handle(
    agent: str, text: str, env: dict[str, str], pool: RuntimePool, claim: Claim | None = None
) -> ev.Answer:
    """The agent's answer to one raw event. Never raises, except `Superseded` when `claim` says another
    process decides the event."""
    speaker = dialect(agent)

    def refuse(name: str | None, why: str) -> ev.Answer:
        answer = speaker.fail_closed(name, why)
        answer.record, answer.since = ev.fail_closed_record(agent, name, why), audit_size()
        return answer

    if not text.strip():
        return refuse(None, "empty event")
    try:
        payload = json.loads(text)
    except ValueError:
        return refuse(None, "the event is not valid JSON")
    if not isinstance(payload, dict):
        return refuse(None, "the event is not a JSON object")
    name = payload.get("hook_event_name")
    name = name if isinstance(name, str) else None
    try:
        event = speaker.parse(payload, env)
    except ValueError as exc:  # our own messages: they name the field, never a value
        return refuse(name, str(exc))
    except Exception as exc:
        return refuse(name, f"{type(exc).__name__} while reading the event")
    base = env.get(HOOK_CWD, "")
    relative = [p for p in (event.cwd, event.workspace) if not ntpath.isabs(p)]  # `C:\\x` and `/x` are not
    if relative and not os.path.isabs(base):
        return refuse(name, "a relative cwd, and no hook directory to resolve it against")
    if relative:  # the daemon's own directory never decides what a relative one means
        event.cwd, event.workspace = os.path.join(base, event.cwd), os.path.join(base, event.workspace)
    try:
        decided = evaluate(agent, event, pool, claim, hold_until(env))
        answer = speaker.render(event, decided)
        answer.record, answer.since = decided.record, decided.since
        return answer
    except Superseded:
        raise
    except Exception as exc:  # the message could quote a secret: only the type is shown
        return refuse(name, f"{type(exc).__name__} while deciding")


def take(claim: Claim | None) -> None:
    """Raise `Superseded` unless this process may record the event."""
    if claim is not None and not claim():
        raise Superseded


def evaluate(
    agent: str, event: ev.HookEvent, pool: RuntimePool, claim: Claim | None = None, until: float = 0.0
) -> ev.Outcome:
    """Decide the event through the runtime (tool calls, outputs) or the turn gate (prompts). The claim is
    taken under the workspace's lock, right before the first write, so work queued behind a slow call is
    dropped when its client has given up on it. `until`: how long an AUTH may be held for a human."""
    if event.kind == ev.SESSION_START:
        return ev.Outcome(ev.PASS, (), ev.status_line(event.workspace))
    runtime, lock = pool.get(event.workspace)
    if event.kind == ev.PROMPT:
        with lock:
            take(claim)  # the repeat tracker is written below
            screened = screen_prompt(event.prompt, event.session_id)
            if screened.verdict != ev.BLOCK:  # the values the user names are trusted in this session
                runtime.observe_prompt(event.prompt, session_id=event.session_id)
        return screened
    records: list[dict[str, Any]] = []  # the client appends the record of the answer it gives
    with lock:
        take(claim)
        since = _log_size(runtime)
        if event.kind == ev.POST_TOOL:
            decision = runtime.observe_output(
                event.tool,
                event.arguments,
                event.output,
                session_id=event.session_id,
                door=DOOR,
                sink=records.append,
            )
        else:
            decision = runtime.decide(
                event.tool,
                event.arguments,
                session_id=event.session_id,
                door=DOOR,
                cwd=event.cwd,
                agent=agent,
                sink=records.append,
            )
            if decision.approval_id and decision.verdict.name == ev.AUTH and not can_ask(agent, event):
                decision = held(runtime, lock, decision, event, agent, until, records)
            if event.output and decision.verdict.name == ev.PASS:  # content known before it is read (Cursor)
                records.clear()  # one record per answer: the output's decision is the one answered
                decision = runtime.observe_output(
                    event.tool,
                    event.arguments,
                    event.output,
                    session_id=event.session_id,
                    door=DOOR,
                    sink=records.append,
                )
    return outcome(decision, records[-1] if records else None, since)


def can_ask(agent: str, event: ev.HookEvent) -> bool:
    """Whether the agent puts an AUTH to its user itself (`ask`): Claude Code, and Cursor except before a
    file read. The others (Gemini CLI, Codex) deny an AUTH, so Limen holds the call for an answer."""
    return agent == "claude-code" or (agent == "cursor" and event.name != "beforeReadFile")


def hold_until(env: dict[str, str]) -> float:
    """Until when (epoch seconds) the hook client can wait for this event's answer: its deadline minus
    the margin it needs to record and answer (`wire.HOLD_UNTIL`); 0 when it did not say."""
    try:
        return float(env.get(HOLD_UNTIL, "0"))
    except ValueError:
        return 0.0


def held(
    runtime: DoorRuntime,
    lock: threading.Lock,
    decision: Decision,
    event: ev.HookEvent,
    agent: str,
    until: float,
    records: list[dict[str, Any]],
) -> Decision:
    """Hold an AUTH for a human through the configured channels, until the client's deadline. Called with
    the workspace lock held; it is released while waiting, so other calls are not held up. Granted: the
    identical call is decided again (it passes once) and that decision is the one answered and recorded.
    Denied or unanswered: the AUTH stands, its explanation says which."""
    import time

    if until <= time.time():
        return decision
    lock.release()
    try:
        status, reached = runtime.hold(decision, door=DOOR, until=until)
    finally:
        lock.acquire()
    if status == "granted":
        records.clear()
        return runtime.decide(
            event.tool,
            event.arguments,
            session_id=event.session_id,
            door=DOOR,
            cwd=event.cwd,
            agent=agent,
            sink=records.append,
        )
    if reached:
        answer = "denied it" if status == "denied" else f"gave no answer in time ({status})"
        decision.explanation += f"; asked via {reached[0]}, a person {answer}"
    return decision


def outcome(decision: Decision, record: dict[str, Any] | None = None, since: int = 0) -> ev.Outcome:
    decided = ev.Outcome(
        decision.verdict.name,
        tuple(r.value for r in decision.reasons),
        decision.explanation,
        decision.decision_id,
        decision.approval_id if decision.verdict.name == ev.AUTH else "",
    )
    decided.record, decided.since = record, since
    decided.removed = decision.removed
    return decided


# Tier 0 signature codes: in a prompt they block its first submission (see `screen_prompt`).
TIER0 = frozenset(
    {
        "instruction_nullification",
        "authority_override",
        "secret_export",
        "encoded_payload",
        "indirect_injection",
    }
)
_gates: dict[str, tuple[RepeatGate, RepeatTracker]] = {}
_gates_lock = threading.Lock()


def repeat_gate() -> tuple[RepeatGate, RepeatTracker]:
    """The turn gate's repeat memory for this Limen home: an SQLite file every hook process shares, or
    Redis when `LIMEN_STATE_URL` names it (a fleet's agents then share their challenges and lockouts)."""
    from limen.home import limen_home

    home = limen_home()
    with _gates_lock:
        gate = _gates.get(home)
        if gate is None:
            from limen.state.keys import installation_key
            from limen.state.redis_repeat import open_repeat_tracker
            from limen.turngate.repeat import RepeatGate

            tracker = open_repeat_tracker(home)
            gate = _gates[home] = (RepeatGate(tracker, installation_key("turn_repeats")), tracker)
        return gate


def spent_challenge(gate: RepeatGate, tracker: RepeatTracker, prompt: str, session_id: str) -> bool:
    """Whether this blocked turn already had its one-time challenge and is not yet locked out."""
    try:
        record = tracker.update(gate.fingerprint(prompt, scope=session_id), lambda r: r)[1]
    except Exception:  # the block stands; only the lockout waits
        return False
    return record.challenged and record.denials == 0


def screen_prompt(prompt: str, session_id: str) -> ev.Outcome:
    """The turn gate on what the user typed, with its repeat rules.

    No agent can `ask` about a prompt, so a Tier 0 signature in one (AUTH by the gate's own rule) blocks
    its first submission, as AUTH is a deny on every agent that cannot ask; sending the identical prompt
    again is the person's approval: `repeat_after_block` lets it through once, with the warning and the
    flagged-content note for the model. No agent reports a person refusing that challenge, so the turn
    coming back once more, its one-time pass already spent, is what counts as the challenge denied: it is
    blocked, and the next resubmission is locked out for the cooldown (`turn_blocked_repeatedly`), so a
    loop cannot grind the gate. Tier 1 heuristics only warn. A tracker failure adds an AUTH finding,
    never a silent PASS.
    """
    from dataclasses import replace

    from limen.model import Verdict
    from limen.turngate import screen, verdict_of

    findings: list[Finding] = [
        replace(f, verdict=Verdict.BLOCK) if f.code.value in TIER0 and f.verdict is Verdict.AUTH else f
        for f in screen(prompt, source="user")
    ]
    if verdict_of(findings) is Verdict.BLOCK:
        gate, tracker = repeat_gate()
        findings = gate.check(prompt, findings, scope=session_id)
        if verdict_of(findings) is Verdict.BLOCK and spent_challenge(gate, tracker, prompt, session_id):
            gate.challenge_denied(prompt, scope=session_id)
    if not findings:
        return ev.Outcome(ev.PASS, (), "PASS: no rule objected")
    strongest = max(findings, key=lambda f: (f.verdict, f.risk))
    reasons = tuple(dict.fromkeys(f.code.value for f in findings))
    detail = f" ({strongest.detail})" if strongest.detail else ""
    return ev.Outcome(strongest.verdict.name, reasons, f"{strongest.code.value}{detail}")
