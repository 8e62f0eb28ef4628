"""The runtime every door uses: normalise, decide with this session's view, remember, audit, answer.

One `Runtime` per workspace (a hook call, the daemon's pool, an MCP proxy, `limen.evaluate()`'s cache).
It opens its session store and audit log on first use, once, and never raises: an internal failure answers
BLOCK (or AUTH) with a reason code. Logging never changes a decision unless `audit_failure="deny"` says a
decision that cannot be logged is denied.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from time import perf_counter_ns
from typing import TYPE_CHECKING, Any

from limen.model import FETCHED_FILE, Action, Decision, Finding, ReasonCode, StageResult, Verdict

if TYPE_CHECKING:
    from limen.approvals.service import Approvals
    from limen.audit.writer import AuditWriter
    from limen.context import Context
    from limen.normalize.tools import ToolSpec
    from limen.state import SessionStore
    from limen.state.keys import Fingerprinter
    from limen.state.view import StoredSession

# The most of a written file's text a session keeps (as much of a script as the shell analysis reads)
MAX_REMEMBERED = 128 * 1024


def _failure(verdict: Verdict, code: ReasonCode, detail: str) -> Decision:
    finding = Finding(code, verdict, 95 if verdict is Verdict.BLOCK else 60, detail)
    return Decision(
        verdict,
        finding.risk,
        (code,),
        f"{verdict.name}: {code.value} ({detail})",
        [StageResult("runtime", verdict, finding.risk, (code,))],
        (finding,),
        decision_id=os.urandom(8).hex(),
    )


def DISCARD(record: dict[str, Any]) -> None:
    """The sink of a caller that keeps no record (`limen explain`, an SDK guard built with `audit=False`):
    given it, the runtime does not build the record at all."""
    del record


def _why(exc: Exception, where: str) -> str:
    """A failure's one line: a broken policy file says where it is broken, a state file that cannot be
    opened says which and what to do; anything else only its type (its message may carry an argument
    value)."""
    from limen.policy import PolicyError
    from limen.state.sqlite import StateUnavailable

    if isinstance(exc, PolicyError):
        return exc.summary()
    if isinstance(exc, StateUnavailable):
        return str(exc)
    return f"{where} raised {type(exc).__name__}"


class Runtime:
    def __init__(
        self,
        *,
        workspace: str,
        mode: str | None = None,
        state_path: str | None = None,
        audit_dir: str | None = None,
        store: SessionStore | None = None,
        audit_failure: str = "stand",
        fsync_every: int = 64,
        approvals_path: str | None = None,
    ) -> None:
        if audit_failure not in ("stand", "deny"):
            raise ValueError("audit_failure must be 'stand' or 'deny'")
        self.workspace = os.path.abspath(workspace)
        self.mode = mode
        self.audit_failure = audit_failure
        self._state_path = state_path
        self._audit_dir = audit_dir
        self._fsync_every = fsync_every
        self._store = store
        self._approvals_path = approvals_path
        self._approvals: Approvals | None = None
        self._writer: AuditWriter | None = None
        self._fingerprint: Fingerprinter | None = None
        self._audit_warned = False
        self._contexts: Any = None  # a threading.local: each thread's copy of the context (`_own_context`)

    # -- lazily opened parts ---------------------------------------------------------------------------
    @property
    def store(self) -> SessionStore:
        if self._store is None:
            from limen.state import open_store

            self._store = open_store(self._state_path)
        return self._store

    @property
    def fingerprint(self) -> Fingerprinter:
        if self._fingerprint is None:
            from limen.state.keys import fingerprinter

            self._fingerprint = fingerprinter()
        return self._fingerprint

    @property
    def approvals(self) -> Approvals:
        """Single-use approvals (`limen.approvals`), audited in this runtime's log."""
        if self._approvals is None:
            from limen.approvals.service import Approvals
            from limen.approvals.sqlite import SqliteApprovalStore

            self._approvals = Approvals(SqliteApprovalStore(self._approvals_path), audit=self.audit_event)
        return self._approvals

    @property
    def context(self) -> Context:
        """The policy's context for this workspace and mode (no session attached)."""
        return _path().load_context(self.workspace, mode=self.mode)

    def _own_context(self) -> Context:
        """What `context` returns, without a copy per decision: this thread keeps one copy of the cached
        context and copies again only when the policy changed (a new cached object). A decision changes
        nothing on it but `session`, which is cleared here; a decision started inside another one on this
        thread (none does today) gets a copy of its own."""
        path = _path()
        shared = path.shared_context(self.workspace, mode=self.mode)
        mine = self._contexts
        if mine is None:  # two threads racing here each keep a copy; one of them is made again later
            mine = self._contexts = path.local()
        if getattr(mine, "busy", False):
            return path.copied(shared)
        if getattr(mine, "source", None) is not shared:
            mine.context, mine.source = path.copied(shared), shared
        ctx: Context = mine.context
        ctx.session = None
        mine.busy = True
        return ctx

    def _release_context(self, ctx: Context | None) -> None:
        """The decision is done with this thread's context: it keeps no session view until the next."""
        mine = self._contexts
        if ctx is None or mine is None:
            return
        owned: Context | None = getattr(mine, "context", None)
        if owned is not None and owned is ctx:
            owned.session = None
            mine.busy = False

    def session(self, session_id: str | None) -> StoredSession:
        """The session's view; a call without a session gets a throwaway one, so nothing carries over."""
        path = _path()
        if not session_id:
            return path.StoredSession(path.MemoryStore(), "", self.fingerprint)
        return path.StoredSession(self.store, session_id, self.fingerprint)

    # -- the two entry points ----------------------------------------------------------------------------
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
        sink: Callable[[dict[str, Any]], None] | None = None,
        spec: ToolSpec | None = None,
    ) -> Decision:
        """Decide one tool call. Never raises. `role` comes from the caller's code, never the model.
        With `sink`, the audit record goes there instead of the log: a door that may still fail to deliver
        the answer appends it once the answer is certain (`AuditWriter.append_once`). `spec`: the tool's
        capability and argument roles as the application registered them (the SDK door); a tool map in
        the policy files takes precedence."""
        started = perf_counter_ns()
        ctx: Context | None = None
        try:
            try:
                ctx = self._own_context()
                decision = self._decide(ctx, tool, arguments, session_id, door, cwd, agent, role, spec)
            except Exception as exc:
                decision = _failure(
                    Verdict.BLOCK,
                    ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,
                    _why(exc, "the decision path"),
                )
            if decision.verdict is Verdict.AUTH and ctx is not None:
                decision = self._settle(ctx, decision, tool, arguments, session_id, door, cwd)
            return self._audited("decision", decision, ctx, started, sink)
        finally:
            self._release_context(ctx)

    def hold(self, decision: Decision, *, door: str, until: float) -> tuple[str, tuple[str, ...]]:
        """Put an AUTH decision's approval request to the configured channels and wait for the answer
        until `until` (epoch seconds, capped by `approvals.wait_seconds`). Returns the request's status
        then (`granted`: decide the identical call again, it passes once; `pending`: nobody answered in
        time) and the channel that reached a human (none: nothing was held). Never raises: a failure is
        `denied`. It reads only the approval store, so a door may hold outside its per-workspace lock."""
        import time

        if decision.verdict is not Verdict.AUTH or not decision.approval_id:
            return "denied", ()
        try:
            from limen.approvals.config import load

            config = load(self.workspace)
            until = min(until, time.time() + config.wait_seconds)
            if until <= time.time():
                return "pending", ()
            reached = self.approvals.offer(decision.approval_id, config, door=door, until=until)
            if not reached:
                return "pending", ()
            return self.approvals.wait(decision.approval_id, until), reached
        except Exception as exc:
            self._report(f"could not hold the call for approval: {type(exc).__name__}")
            return "denied", ()

    def observe_output(
        self,
        tool: str,
        arguments: dict[str, Any],
        output: str,
        *,
        session_id: str | None,
        door: str,
        untrusted: bool | None = None,
        sink: Callable[[dict[str, Any]], None] | None = None,
        spec: ToolSpec | None = None,
        action: Action | None = None,
    ) -> Decision:
        """Scan what a tool returned; update the session; answer what the door should do with the output.
        `sink` as in `decide`. `action`: the call as `decide` normalised it (its `Decision.action`), which
        a door that holds it passes so the call is not normalised twice."""
        started = perf_counter_ns()
        ctx: Context | None = None
        try:
            try:
                ctx = self._own_context()
                decision = self._observe(
                    ctx, tool, arguments, output, session_id, door, untrusted, spec, action
                )
            except Exception as exc:
                decision = _failure(
                    Verdict.BLOCK,
                    ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,
                    _why(exc, "the output scan"),
                )
            return self._audited("output", decision, ctx, started, sink)
        finally:
            self._release_context(ctx)

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
        sink: Callable[[dict[str, Any]], None] | None = None,
    ) -> Decision:
        """BLOCK a call its door could not even read (arguments that fail the tool's own signature), with
        `code`, audited like any decision. `detail` must not carry argument values."""
        started = perf_counter_ns()
        decision = _failure(Verdict.BLOCK, code, detail)
        decision.action = Action(
            tool=tool, capability=capability, arguments={}, door=door, session_id=session_id, agent=agent
        )
        return self._audited("decision", decision, None, started, sink)

    def observe_prompt(self, text: str, *, session_id: str | None) -> None:
        """The user's own words: the values they name are trusted in this session. Never raises."""
        try:
            from limen.scan import extract_values
            from limen.state import TRUSTED

            if session_id:
                self.store.add_values(
                    session_id, TRUSTED, {self.fingerprint(v) for v in extract_values(text)}
                )
        except Exception as exc:
            self._report(f"could not record the prompt's values: {type(exc).__name__}")

    # -- internals ---------------------------------------------------------------------------------------
    def _settle(
        self,
        ctx: Context,
        decision: Decision,
        tool: str,
        arguments: Any,
        session_id: str | None,
        door: str,
        cwd: str | None,
    ) -> Decision:
        """An AUTH decision: let it pass once on a matching grant, else open its approval request. A failure
        leaves the AUTH as it is (without an approval id, so it cannot be approved)."""
        try:
            from limen.approvals.config import load

            return self.approvals.settle(
                decision,
                tool=tool,
                arguments=arguments,
                cwd=cwd or self.workspace,
                session=session_id or "",
                workspace=self.workspace,
                door=door,
                fingerprinter=self.fingerprint,
                strong_threshold=ctx.thresholds.strong,
                config=load(self.workspace),
            )
        except Exception as exc:
            self._report(f"approvals are unavailable: {_why(exc, 'the approval store')}")
            decision.approval_id = ""
            return decision

    def _action(
        self,
        ctx: Context,
        tool: str,
        arguments: Any,
        session_id: str | None,
        door: str,
        cwd: str | None,
        agent: str,
        role: str = "",
        spec: ToolSpec | None = None,
    ) -> Action:
        tools = ctx.policy.tool_specs if ctx.policy is not None else None
        if spec is not None and not (tools and tool in tools):
            tools = {tool: spec}
        return _path().normalize(
            tool,
            arguments,
            cwd=cwd or self.workspace,
            door=door,
            session_id=session_id,
            agent=agent,
            role=role,
            mode=ctx.mode,
            home=ctx.home,
            tools=tools,
        )

    def _decide(
        self,
        ctx: Context,
        tool: str,
        arguments: Any,
        session_id: str | None,
        door: str,
        cwd: str | None,
        agent: str,
        role: str,
        spec: ToolSpec | None = None,
    ) -> Decision:
        path = _path()
        correlator, toolpin = path.correlator, path.toolpin
        view = self.session(session_id)
        if ctx.rate_limit is not None and session_id:
            view.count_call(ctx.rate_limit[1])  # and reads the session's flags with it
        # files this session wrote that the disk here does not show are read as it wrote them
        written = self.store.files(view.session_id) if path.WROTE_UNSEEN in view.flags else {}
        with path.decision_scope(written):
            action = self._action(ctx, tool, arguments, session_id, door, cwd, agent, role, spec)
            if view.has_untrusted_content():
                action.provenance = action.provenance | {"untrusted_content"}
            if toolpin.is_pending(action.tool, self.store):
                action.notes = (*action.notes, toolpin.NOTE)
            ctx.session = view
            decision = path.decide(action, ctx)
            decision = path.review(
                action, ctx, decision
            )  # the LLM judge, when configured: raise-only, never raises
        if decision.verdict is not Verdict.PASS and session_id and _writes_one_file(action):
            # a write refused or held: a later call that runs the file is judged by what was to be in it
            self._remember_written(action, view)
        path.learn(action, ctx, decision)  # the workflow baseline learns unflagged, unsteered calls only
        if path.STATE_LOST in view.flags and decision.verdict is not Verdict.PASS:  # say why, and the way out
            decision.explanation += (
                f"; {self.store.state_lost()}, so this session counts as tainted until a person runs "
                f"`limen session clear {session_id}`"
            )
        entry = correlator.features(action, ctx, decision)
        if correlator.worth_keeping(entry, view.flags):
            view.store.append_history(view.session_id, entry)
        fetched = [n[len(FETCHED_FILE) :] for n in action.notes if n.startswith(FETCHED_FILE)]
        if fetched and session_id and decision.verdict is not Verdict.BLOCK:
            # what the session downloaded or cloned: a later call that runs it is judged as one line would be
            view.remember_fetched(fetched, installer=path.official_install(action))
        flags = {path.BROAD} if entry["broad"] else set()
        if entry["private"]:
            flags.add(path.TAINTED)
        if decision.verdict is not Verdict.BLOCK and _fetches_untrusted(action, ctx):
            flags.add(path.UNTRUSTED)
        if flags - view.flags:  # most calls add nothing the session does not already hold
            view.store.set_flags(view.session_id, flags - view.flags)
        return decision

    def _observe(
        self,
        ctx: Context,
        tool: str,
        arguments: Any,
        output: str,
        session_id: str | None,
        door: str,
        untrusted: bool | None,
        spec: ToolSpec | None = None,
        decided: Action | None = None,
    ) -> Decision:
        from limen.engine import explain
        from limen.scan import apply_scan

        started = perf_counter_ns()
        action = decided or self._action(
            ctx, tool, arguments if isinstance(arguments, dict) else {}, session_id, door, None, "", "", spec
        )
        if untrusted is None and _fetches_untrusted(action, ctx):
            untrusted = True
        view = self.session(session_id)
        findings = apply_scan(
            view.store,
            self.fingerprint,
            view.session_id,
            output if isinstance(output, str) else str(output),
            untrusted,
            ctx.mode,
            printed_credential=_prints_credential(action),
            named_by_user=bool(untrusted)
            and bool(action.destinations)
            and all(view.value_origin(d.host) == "user" for d in action.destinations),
        )
        if session_id and _writes_one_file(action):
            self._remember_written(action, view)
        verdict = max((f.verdict for f in findings), default=Verdict.PASS)
        risk = max((f.risk for f in findings), default=0)
        reasons = tuple(dict.fromkeys(f.code for f in findings))
        stage = StageResult("output_scan", verdict, risk, reasons, (), (perf_counter_ns() - started) / 1000)
        decision = Decision(verdict, risk, reasons, "", [stage], tuple(findings), action, os.urandom(8).hex())
        if verdict is Verdict.AUTH and isinstance(output, str):  # cut in place where the door can: balanced
            from limen.scan import instruction_spans

            spans = instruction_spans(output)  # None: too many pieces to cut; the whole output goes
            decision.removed = tuple(spans) if spans is not None else (output,)
        decision.explanation = explain(decision)
        from limen.judge import review_output

        # Tier 2 unsure about untrusted text: ask the judge, when one is configured (raise-only)
        return review_output(output, ctx, decision, untrusted=bool(untrusted), session=view)

    def _remember_written(self, action: Action, view: StoredSession) -> None:
        """A tool wrote one file (Write, Edit, MultiEdit and their kind), or was refused or held writing it:
        when the disk here does not show the text (the agent's files live elsewhere, or the write did not
        happen), keep that text in the session, so that a later call that runs or reads the file is judged
        by what the session put there or meant to (until the disk's file changes after it: `written_text`).
        A failure keeps nothing (and is reported): the file is then judged as the disk holds it."""
        path = _path()
        if len(str(action.arguments.get("content", ""))) > MAX_REMEMBERED:
            return
        target = action.write_paths[0]
        try:
            on_disk = path.read_text(target, MAX_REMEMBERED + 1)
            before = on_disk  # an Edit builds on what the session wrote there before, when it did
            if path.WROTE_UNSEEN in view.flags and target in (known := self.store.files(view.session_id)):
                with path.decision_scope(known):
                    before = path.read_text(target, MAX_REMEMBERED + 1)
            after = path.text_after(action.arguments, before)
            if after is None or len(after) > MAX_REMEMBERED:
                return
            if on_disk == after:
                return  # the disk shows what was written: it is read from there
            self.store.remember_file(view.session_id, target, after)
            if path.WROTE_UNSEEN not in view.flags:
                self.store.set_flags(view.session_id, {path.WROTE_UNSEEN})
        except Exception as exc:
            self._report(f"could not remember a written file: {type(exc).__name__}")

    @property
    def writer(self) -> AuditWriter:
        if self._writer is None:
            from limen.audit.writer import AuditWriter

            self._writer = AuditWriter(self._audit_dir, fsync_every=self._fsync_every)
        return self._writer

    def _audited(
        self,
        kind: str,
        decision: Decision,
        ctx: Context | None,
        started: int,
        sink: Callable[[dict[str, Any]], None] | None = None,
    ) -> Decision:
        """Append the decision's record (or hand it to `sink`; none is built for `DISCARD`); on failure
        report it and apply the configured policy."""
        if sink is DISCARD:
            return decision
        try:
            home = ctx.home if ctx is not None else os.path.expanduser("~")
            record = _recorder()(
                kind, decision, self.fingerprint, workspace=self.workspace, home=home, started_ns=started
            )
            if sink is not None:
                sink(record)
                return decision
            self.writer.append(record)
        except Exception as exc:
            self._report(f"audit log write failed: {type(exc).__name__}")
            if self.audit_failure == "deny" and decision.verdict is not Verdict.BLOCK:
                finding = Finding(
                    ReasonCode.AUDIT_UNAVAILABLE, Verdict.BLOCK, 95, "the audit log is unavailable"
                )
                decision.verdict, decision.risk = Verdict.BLOCK, max(decision.risk, 95)
                decision.reasons = (*decision.reasons, ReasonCode.AUDIT_UNAVAILABLE)
                decision.findings = (*decision.findings, finding)
                decision.explanation = "BLOCK: audit_unavailable (the audit log is unavailable)"
        return decision

    def halt(self, session_id: str, *, reason: str) -> bool:
        """Stop a session: every further call is BLOCK until `limen session clear --all`. Audited."""
        from limen.state import HALTED

        try:
            self.store.set_flags(session_id, {HALTED})
        except Exception as exc:
            self._report(f"could not halt session: {type(exc).__name__}")
            return False
        self.audit_event("session_halt", session=session_id, reason=reason[:120])
        return True

    def audit_event(self, event: str, **fields: Any) -> bool:
        """Record a non-decision event (a session cleared, a pin approved). False when it could not be."""
        import time

        try:
            self.writer.append({"kind": "event", "event": event, "ts": round(time.time(), 3), **fields})
            return True
        except Exception as exc:
            self._report(f"audit log write failed: {type(exc).__name__}")
            return False

    def _report(self, message: str) -> None:
        if not self._audit_warned:
            print(f"limen: {message}", file=sys.stderr)
            self._audit_warned = True

    def close(self) -> None:
        if self._approvals is not None:
            self._approvals.close()
            self._approvals = None
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._store is not None:
            self._store.close()
            self._store = None


def _writes_one_file(action: Action) -> bool:
    """A tool's write of one file whose text the call gives (Write, Edit, MultiEdit and their kind), not a
    shell line's."""
    return action.capability == "filesystem.write" and len(action.write_paths) == 1 and not action.commands


def _prints_credential(action: Action) -> bool:
    """The call ran a command that prints a credential (`limen.facts.secrets.printer`)."""
    if not action.commands:
        return False
    from limen.facts.secrets import printer

    return any(printer(command.argv) is not None for command in action.commands)


def _fetches_untrusted(action: Action, ctx: Context) -> bool:
    return (
        action.capability == "network.request"
        and bool(action.destinations)
        and _path().is_external_egress(action, ctx)
    )


class _DecisionPath:
    """What deciding a call uses, imported on the first decision rather than with this module, and then
    reached without an import statement per call (a decision made one in each of its steps)."""

    def __init__(self) -> None:
        from threading import local

        from limen.engine import decide
        from limen.facts.hosts import official_install
        from limen.floors import correlator, toolpin
        from limen.floors.egress import is_external_egress
        from limen.judge import review
        from limen.normalize import normalize
        from limen.normalize.paths import decision_scope, read_text, text_after
        from limen.policy import copied, load_context, shared_context
        from limen.state import BROAD, STATE_LOST, TAINTED, UNTRUSTED, WROTE_UNSEEN
        from limen.state.memory import MemoryStore
        from limen.state.view import StoredSession
        from limen.subjective.baseline import learn

        self.decide, self.review, self.learn = decide, review, learn
        self.correlator, self.toolpin, self.is_external_egress = correlator, toolpin, is_external_egress
        self.normalize, self.load_context = normalize, load_context
        self.shared_context, self.copied, self.local = shared_context, copied, local
        self.MemoryStore, self.StoredSession = MemoryStore, StoredSession
        self.BROAD, self.STATE_LOST, self.TAINTED, self.UNTRUSTED = BROAD, STATE_LOST, TAINTED, UNTRUSTED
        self.official_install = official_install
        self.decision_scope, self.read_text, self.text_after = decision_scope, read_text, text_after
        self.WROTE_UNSEEN = WROTE_UNSEEN


_loaded: _DecisionPath | None = None
_decision_record: Callable[..., dict[str, Any]] | None = None


def _recorder() -> Callable[..., dict[str, Any]]:
    """`limen.audit.redact.decision_record`, imported on the first record and kept: apart from the decision
    path, so that a decision whose path failed to import is still recorded."""
    global _decision_record
    if _decision_record is None:
        from limen.audit.redact import decision_record

        _decision_record = decision_record
    return _decision_record


def _path() -> _DecisionPath:
    global _loaded
    if _loaded is None:
        _loaded = _DecisionPath()
    return _loaded
