"""The per-workflow baseline: a call unlike what this workflow usually does raises its risk (raise-only).

A workflow is one workspace and one agent identity (agent, role), both from the door and the caller's code,
never from the model. For each workflow the baseline keeps streaming counts of what its calls touched:

    tool      T:<tool name>             capability  C:<capability>
    program   G:<shell program>         target      P:<path class> (workspace, home, tmp, system, other)
    host      H:<keyed fingerprint>     host class  D:<loopback, private, public...>
    recipient R:<keyed fingerprint>     transition  X:<previous tool>><tool>

Hosts and recipients are stored as keyed fingerprints (`limen.state.keys`), never in clear.

Surprise: for each feature of a call, `-log2` of its additively smoothed probability among the workflow's
features of that kind; bits above `NORMAL_BITS` count (a feature in one call out of four is ordinary), up to
`SATURATED_BITS` (one never seen in 64 calls is wholly new), weighted by kind (`WEIGHTS`) and by what the
capability can do (`IMPACT`: a novel read weighs half a novel payment). The sum, capped at `MAX_RAISE`
points, is added to the capability's baseline risk. The finding is AUTH (`unusual_for_workflow`, risk below
the mode's deny line) only for a familiar tool going somewhere new (see `AUTH_RAISE`); otherwise it only
records a raised risk, kept below the ask threshold. It never says BLOCK, and it says nothing until the
workflow has `min_history` learnt calls (a kind of feature is scored once `MIN_KIND` calls carried one).
A recipient the user's prompt named in this session counts for nothing.

Poisoning: a call is learnt only when it was decided PASS with no finding at all, in a session with a
session id that holds no untrusted or injected content, no taint and no lost state. A call an injection may
have steered, or one any rule flagged, never becomes "usual".

Cost: scoring reads an in-memory copy of the workflow's counts (loaded once per process, refreshed every
`RELOAD_SECONDS`); learning adds to in-memory deltas that are written to SQLite (`baseline.sqlite` beside the
session store: additive upserts, so processes merge) every `FLUSH_SECONDS`, every `FLUSH_CALLS` learnt
calls and at exit.
`bench/bench_baseline.py` prints the per-decision cost.

Off by default: `baseline: {enabled: true}` in a policy file, or `LIMEN_BASELINE=1` (`0` forces it off).
"""

from __future__ import annotations

import atexit
import contextlib
import math
import os
import sqlite3
import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from limen.context import Context
from limen.engine import CAPABILITY_BASELINE
from limen.model import Action, Decision, Finding, ReasonCode, Verdict
from limen.policy.paths import environ_get
from limen.state import HALTED, INJECTED, STATE_LOST, TAINTED, UNTRUSTED
from limen.subjective import Detector

if TYPE_CHECKING:
    from limen.state.keys import Fingerprinter

NORMAL_BITS = 2.0
SATURATED_BITS = 6.0
SMOOTHING = 0.5
MIN_KIND = 10
MAX_RAISE = 40
# The finding asks a human only for a familiar tool (used in `FAMILIAR_TOOL` learnt calls) that goes somewhere
# new: at least `AUTH_RAISE` points, of which a new host or recipient makes `AUTH_DESTINATION`. A tool the
# workflow never used only raises the risk (every new task would otherwise ask, and a call that asked is
# never learnt); what a new tool does is the objective rules' to judge.
FAMILIAR_TOOL = 3
AUTH_RAISE = 20
AUTH_DESTINATION = 12
DESTINATION_KINDS = frozenset({"H", "R"})
DEFAULT_MIN_HISTORY = 30
WEIGHTS = {"T": 16.0, "C": 12.0, "G": 10.0, "P": 8.0, "H": 14.0, "D": 8.0, "R": 20.0, "X": 10.0}
IMPACT = {
    "filesystem.read": 0.5,
    "agent.delegate": 0.5,
    "shell.execute": 0.8,
    "filesystem.write": 0.8,
    "mcp.call": 0.8,
    "unknown": 0.8,
}  # anything else (delete, network, email, message, payments, repository and database writes): 1.0
RECIPIENT_CAPABILITIES = frozenset(
    {"email.send", "message.send", "payments.transfer", "unknown", "mcp.call", "network.request"}
)
SYSTEM_PREFIXES = ("/etc/", "/usr/", "/var/", "/opt/", "/bin/", "/sbin/", "/lib", "/boot/", "/proc/", "/sys/")
RELOAD_SECONDS = 5.0
FLUSH_SECONDS = 1.0
FLUSH_CALLS = 256  # learnt calls
CLOSE_ATTEMPTS = 3  # flushes tried on close while another process holds the file
MAX_KEYS = 20_000  # features per workflow (memory and file): a new one beyond it is not kept
MAX_SESSIONS = 4096  # sessions whose last tool is remembered in memory
# A session holding any of these learns nothing: what it does may be steered (`limen.state` flags).
UNLEARNT_FLAGS = frozenset({UNTRUSTED, INJECTED, TAINTED, STATE_LOST, HALTED})

_SCHEMA = """
CREATE TABLE IF NOT EXISTS counts (scope TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (scope, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS last_tool (session TEXT PRIMARY KEY, tool TEXT NOT NULL) WITHOUT ROWID;
"""


class Workflow:
    """One workflow's counts in memory: per feature, per kind (`#k`), and learnt calls (`#n`)."""

    __slots__ = ("counts", "distinct", "loaded_at")

    def __init__(self, counts: dict[str, int], loaded_at: float) -> None:
        self.counts = counts
        self.loaded_at = loaded_at
        self.distinct: dict[str, int] = {}
        for key in counts:
            if key[0] != "#":
                self.distinct[key[0]] = self.distinct.get(key[0], 0) + 1

    @property
    def calls(self) -> int:
        return self.counts.get("#n", 0)

    def add(self, keys: Iterable[str]) -> list[str]:
        """Count the keys; a new feature beyond `MAX_KEYS` is left out. Returns the keys counted."""
        counts = self.counts
        counted: list[str] = []
        for key in keys:
            seen = counts.get(key)
            if seen is None:
                if len(counts) >= MAX_KEYS and key[0] != "#":
                    continue
                if key[0] != "#":
                    self.distinct[key[0]] = self.distinct.get(key[0], 0) + 1
                counts[key] = 1
            else:
                counts[key] = seen + 1
            counted.append(key)
        return counted

    def surprise(self, keys: Iterable[str], discount: dict[str, float]) -> tuple[float, float, str]:
        """Weighted bits above the ordinary, the part of them a new destination (host, recipient) makes,
        and the kind that contributed most. A transition counts only
        when its tool is known (a new tool's transitions are all new: one fact, counted once); `discount`
        scales a key's part (a recipient the user named counts for nothing)."""
        counts = self.counts
        total = destination = 0.0
        worst, worst_kind = 0.0, ""
        for key in keys:
            kind = key[0]
            seen_of_kind = counts.get("#" + kind, 0)
            if seen_of_kind < MIN_KIND:
                continue
            if kind == "X" and not counts.get("T:" + key[2:].rsplit(">", 1)[-1]):
                continue
            p = (counts.get(key, 0) + SMOOTHING) / (
                seen_of_kind + SMOOTHING * (self.distinct.get(kind, 0) + 1)
            )
            bits = min(-math.log2(p), SATURATED_BITS) - NORMAL_BITS
            if bits <= 0:
                continue
            part = WEIGHTS[kind] * bits / (SATURATED_BITS - NORMAL_BITS) * discount.get(key, 1.0)
            total += part
            if kind in DESTINATION_KINDS:
                destination += part
            if part > worst:
                worst, worst_kind = part, kind
        return total, destination, worst_kind


KIND_NAMES = {
    "T": "tool",
    "C": "capability",
    "G": "program",
    "P": "target",
    "H": "host",
    "D": "host class",
    "R": "recipient",
    "X": "tool sequence",
}


class Baseline:
    """All workflows of one state directory (or of one process, without a path)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._workflows: dict[str, Workflow] = {}
        self._pending: dict[str, dict[str, int]] = {}  # scope -> feature -> count not yet written
        self._pending_calls = 0
        self._pending_last: dict[str, str] = {}
        self._last: dict[str, str] = {}
        self._flushed_at = time.monotonic()
        self._db: sqlite3.Connection | None = None
        if path is not None:
            atexit.register(self._flush_at_exit)

    def _conn(self) -> sqlite3.Connection | None:
        """The database, opened once. A file that is not a database (or not ours) is moved aside and the
        error raised: this decision fails upward (`subjective_guardrail_error`, AUTH), the next ones start
        a fresh history, which says nothing until `min_history` calls are learnt again."""
        if self.path is None:
            return None
        if self._db is None:
            db = sqlite3.connect(self.path, timeout=5.0, isolation_level=None, check_same_thread=False)
            try:
                self._prepare(db)
            except sqlite3.OperationalError:
                db.close()
                raise  # another process held the file past the wait: nothing is wrong with it, keep it
            except sqlite3.DatabaseError:
                db.close()
                self._set_aside()
                raise
            os.chmod(self.path, 0o600)
            self._db = db
        return self._db

    @staticmethod
    def _prepare(db: sqlite3.Connection) -> None:
        """WAL mode and the schema. Two processes opening a new file at once may find it locked while the
        other switches its journal (SQLite does not wait for that): tried again for up to five seconds."""
        deadline = time.monotonic() + 5.0
        while True:
            try:
                db.execute("PRAGMA busy_timeout = 5000")
                if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = NORMAL")
                db.executescript(_SCHEMA)
                return
            except sqlite3.OperationalError as exc:
                if ("locked" not in str(exc) and "busy" not in str(exc)) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _set_aside(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        self._workflows.clear()
        if self.path is not None:
            with contextlib.suppress(OSError):
                os.replace(self.path, f"{self.path}.corrupt-{int(time.time())}")
            for suffix in ("-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.unlink(self.path + suffix)

    def workflow(self, scope: str) -> Workflow:
        """The workflow's counts, loaded from disk once and refreshed every `RELOAD_SECONDS`."""
        now = time.monotonic()
        found = self._workflows.get(scope)
        if found is not None and (self.path is None or now - found.loaded_at < RELOAD_SECONDS):
            return found
        with self._lock:
            if found is not None:
                self._flush_locked()  # our deltas first, so the reload includes them
            db = self._conn()
            counts: dict[str, int] = {}
            if db is not None:
                try:
                    counts = dict(
                        db.execute("SELECT key, n FROM counts WHERE scope = ?", (scope,)).fetchall()
                    )
                except sqlite3.DatabaseError:
                    self._set_aside()
                    raise
            elif found is not None:
                counts = found.counts
            workflow = Workflow(counts, now)
            self._workflows[scope] = workflow
            return workflow

    def last_tool(self, session: str) -> str:
        if not session:
            return ""
        found = self._last.get(session)
        if found is not None:
            return found
        db = self._conn()
        row = (
            db.execute("SELECT tool FROM last_tool WHERE session = ?", (session,)).fetchone() if db else None
        )
        tool = str(row[0]) if row else ""
        self._remember(session, tool)
        return tool

    def _remember(self, session: str, tool: str) -> None:
        if len(self._last) >= MAX_SESSIONS:
            self._last.clear()
        self._last[session] = tool

    def record(self, scope: str, session: str, tool: str, keys: list[str] | None) -> None:
        """The session's last tool is now `tool`; with `keys`, the call is learnt into the workflow."""
        with self._lock:
            if session:
                self._remember(session, tool)
                self._pending_last[session] = tool
            if keys is not None:
                # `#n` counts learnt calls, `#T`, `#H`... the learnt calls that carried a feature of that kind
                learnt = keys + ["#n"] + ["#" + kind for kind in {key[0] for key in keys}]
                workflow = self._workflows.get(scope)
                if workflow is not None:
                    learnt = workflow.add(learnt)  # what the memory kept is what the file gets
                pending = self._pending.get(scope)
                if pending is None:
                    pending = self._pending[scope] = {}
                for key in learnt:
                    pending[key] = pending.get(key, 0) + 1
                self._pending_calls += 1
            if self._pending_calls >= FLUSH_CALLS or time.monotonic() - self._flushed_at >= FLUSH_SECONDS:
                self._flush_locked()

    def flush(self) -> None:
        with self._lock:
            self._flush_locked()

    def _flush_at_exit(self) -> None:
        """The last flush of a process: its state folder may be gone by then (a test's, a deleted home), and
        what it held only makes the baseline quieter when lost; an exiting process prints no traceback."""
        try:
            self.flush()
        except (sqlite3.Error, OSError):
            self._pending.clear()
            self._pending_last.clear()

    def _flush_locked(self) -> None:
        self._flushed_at = time.monotonic()
        self._pending_calls = 0
        db = self._conn()
        if db is None:
            self._pending.clear()
            self._pending_last.clear()
            return
        if not self._pending and not self._pending_last:
            return
        rows = [(scope, key, n) for scope, counts in self._pending.items() for key, n in counts.items()]
        last = list(self._pending_last.items())
        self._pending.clear()
        self._pending_last.clear()
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(
                "INSERT INTO counts VALUES (?, ?, ?) "
                "ON CONFLICT (scope, key) DO UPDATE SET n = n + excluded.n",
                rows,
            )
            db.executemany("INSERT OR REPLACE INTO last_tool VALUES (?, ?)", last)
            db.execute("COMMIT")
        except sqlite3.Error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            # kept for the next flush (another process held the file past the wait); were it lost, the
            # baseline would only be quieter, since it never lowers a verdict
            for scope, key, n in rows:
                counts = self._pending.setdefault(scope, {})
                counts[key] = counts.get(key, 0) + n
            for session, tool in last:
                self._pending_last.setdefault(session, tool)

    def close(self) -> None:
        for _ in range(CLOSE_ATTEMPTS):  # the last flush of what this process learnt, retried while busy
            self.flush()
            if not self._pending and not self._pending_last:
                break
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


_baselines: dict[str, Baseline] = {}
_by_store: dict[int, tuple[object, Baseline]] = {}
_registry_lock = threading.Lock()
_fingerprints: dict[str, Fingerprinter] = {}
_fp_cache: dict[tuple[int, str], str] = {}


def baseline_for(ctx: Context) -> Baseline:
    """The baseline beside the session store: `baseline.sqlite` next to a SQLite store's file; a process
    memory one for an in-memory store (the SDK). Looked up by the store object, so a decision pays one
    dictionary look-up."""
    store = getattr(ctx.session, "store", None)
    entry = _by_store.get(id(store))
    if entry is not None and entry[0] is store:
        return entry[1]
    path = getattr(store, "path", None)
    with _registry_lock:
        if isinstance(path, str):
            db_path = os.path.join(os.path.dirname(os.path.abspath(path)), "baseline.sqlite")
            found = _baselines.get(db_path)
            if found is None:
                found = _baselines[db_path] = Baseline(db_path)
        else:
            found = Baseline(None)
        if len(_by_store) > 256:
            _by_store.clear()
        _by_store[id(store)] = (store, found)
        return found


def _fingerprinter() -> Fingerprinter:
    """The installation's keyed fingerprints (the session store's), per Limen home."""
    from limen.state.keys import fingerprinter, key_path

    path = key_path("fingerprint")
    found = _fingerprints.get(path)
    if found is None:
        found = _fingerprints[path] = fingerprinter()
    return found


def _fp(value: str) -> str:
    """A host's or recipient's keyed fingerprint (memoised per process: the same few recur)."""
    fingerprinter = _fingerprinter()
    key = (id(fingerprinter), value)
    found = _fp_cache.get(key)
    if found is None:
        if len(_fp_cache) > 4096:
            _fp_cache.clear()
        found = _fp_cache[key] = fingerprinter(value.strip().lower())[:16]
    return found


def _named_by_user(view: Any, value: str) -> bool:
    """The user's prompt in this session named the value (an address, a host, an account, an id)."""
    if view.value_origin(value) == "user":
        return True
    from limen.scan import argument_values
    from limen.state import TRUSTED

    keys = [key for key in argument_values([value]) if not key.startswith("quote:")]
    store = getattr(view, "store", None)
    if not keys or store is None:
        return False
    labels = store.value_labels(view.session_id, [_fingerprinter()(key) for key in keys])
    return any(TRUSTED in seen for seen in labels.values())


def scope_of(action: Action, ctx: Context) -> str:
    return f"{ctx.workspace}\x1f{action.agent}\x1f{action.role}"


def _path_class(path: str, ctx: Context) -> str:
    workspace = ctx.workspace
    if workspace and (path == workspace or path.startswith(workspace.rstrip("/") + "/")):
        return "workspace"
    if path.startswith(("/tmp/", "/var/tmp/", "/dev/shm/")):
        return "tmp"
    if ctx.home and path.startswith(ctx.home.rstrip("/") + "/"):
        return "home"
    if path.startswith(SYSTEM_PREFIXES):
        return "system"
    return "other"


def _recipients(action: Action, ctx: Context) -> list[str]:
    from limen.normalize.tools import KNOWN_TOOLS, classify

    tools = ctx.policy.tool_specs if ctx.policy is not None else None
    spec = (tools.get(action.tool) if tools else None) or KNOWN_TOOLS.get(action.tool)
    if spec is None:
        spec = classify(action.tool, action.arguments)
    found: list[str] = []
    for key in spec.recipients:
        value = action.arguments.get(key)
        values = value if isinstance(value, list) else [value]
        found.extend(str(v) for v in values if isinstance(v, (str, int)) and str(v).strip())
    return found


def features(action: Action, ctx: Context, previous: str) -> tuple[list[str], dict[str, str]]:
    """The call's features (see the module's table), hosts and recipients as keyed fingerprints; and the
    recipients' feature keys with their values (to ask the session where each came from). The detector's
    answer for an action is reused by `learn` for the same action."""
    last = _last_features[0]  # one tuple, replaced whole: a thread never sees another call's half
    if last is not None and last[0] is action and last[1] == previous:
        return last[2], last[3]
    keys, recipients = _features(action, ctx, previous)
    _last_features[0] = (action, previous, keys, recipients)
    return keys, recipients


def _features(action: Action, ctx: Context, previous: str) -> tuple[list[str], dict[str, str]]:
    keys = [f"T:{action.tool}", f"C:{action.capability}"]
    if previous:
        keys.append(f"X:{previous}>{action.tool}")
    for command in action.commands[:8]:
        keys.append(f"G:{command.name}")
    for path in action.paths[:8]:
        keys.append(f"P:{_path_class(path, ctx)}")
    for destination in action.destinations[:8]:
        keys.append(f"H:{_fp(destination.host)}")
        keys.append(f"D:{destination.host_class.value}")
    recipients: dict[str, str] = {}
    if action.capability in RECIPIENT_CAPABILITIES and action.arguments:
        for value in _recipients(action, ctx)[:8]:
            key = f"R:{_fp(value)}"
            keys.append(key)
            recipients[key] = value
    return list(dict.fromkeys(keys)), recipients


# (action, previous tool, keys, recipients) of the latest call scored
_last_features: list[tuple[Action, str, list[str], dict[str, str]] | None] = [None]
_settings: dict[int, tuple[object, tuple[bool, int]]] = {}


def settings(ctx: Context) -> tuple[bool, int]:
    """(enabled, min_history): `LIMEN_BASELINE` when set, else the policy files' `baseline:` section."""
    policy = ctx.policy
    entry = _settings.get(id(policy))
    if entry is None or entry[0] is not policy:
        from limen.judge.config import merged_section

        chosen = merged_section(ctx, "baseline")
        value = (
            bool(chosen.get("enabled", False)),
            int(chosen.get("min_history", DEFAULT_MIN_HISTORY)),
        )
        if len(_settings) > 32:
            _settings.clear()
        entry = _settings[id(policy)] = (policy, value)
    enabled, min_history = entry[1]
    flag = (environ_get("LIMEN_BASELINE") or "").strip().lower()  # read twice per decision: no KeyError
    if flag in ("1", "on", "true", "yes"):
        enabled = True
    elif flag in ("0", "off", "false", "no"):
        enabled = False
    return enabled, min_history


def unusual_for_workflow(action: Action, ctx: Context) -> Iterable[Finding]:
    """Raise the risk of a call unlike its workflow's learnt history (AUTH at most)."""
    enabled, min_history = settings(ctx)
    if not enabled:
        return []
    view = ctx.session
    session = view.session_id if view is not None else ""
    if not session:  # a call outside any session has a throwaway store: no history to compare with
        return []
    baseline = baseline_for(ctx)
    workflow = baseline.workflow(scope_of(action, ctx))
    if workflow.calls < min_history:
        return []
    keys, recipients = features(action, ctx, baseline.last_tool(session))
    discount: dict[str, float] = {}
    for key, value in recipients.items():
        if _named_by_user(view, value):  # the user asked for this recipient
            discount[key] = 0.0
    bits, destination, kind = workflow.surprise(keys, discount)
    raise_by = round(min(bits, MAX_RAISE) * IMPACT.get(action.capability, 1.0))
    if raise_by <= 0:
        return []
    start = CAPABILITY_BASELINE.get(action.capability, CAPABILITY_BASELINE["unknown"])
    risk = min(start + raise_by, 100)
    familiar = workflow.counts.get(f"T:{action.tool}", 0) >= FAMILIAR_TOOL
    if familiar and raise_by >= AUTH_RAISE and destination >= AUTH_DESTINATION and risk >= ctx.thresholds.ask:
        verdict, risk = Verdict.AUTH, min(risk, ctx.thresholds.deny - 1)  # AUTH at most, never the deny line
    else:  # a new tool, or an oddity that sends nothing anywhere new: only the risk rises, below asking
        verdict, risk = Verdict.PASS, min(risk, ctx.thresholds.ask - 1)
    detail = (
        f"{KIND_NAMES.get(kind, kind)} unlike this workflow's {workflow.calls} learnt calls (+{raise_by})"
    )
    return [Finding(ReasonCode.UNUSUAL_FOR_WORKFLOW, verdict, risk, detail)]


def learn(action: Action, ctx: Context, decision: Decision) -> None:
    """After a decision: remember the session's last tool, and learn the call if nothing could have steered
    or flagged it. Never raises (a baseline that cannot learn only stays quieter)."""
    try:
        if not settings(ctx)[0]:
            return
        view: Any = ctx.session
        session = view.session_id if view is not None else ""
        if not session:
            return
        baseline = baseline_for(ctx)
        scope = scope_of(action, ctx)
        clean = (
            decision.verdict is Verdict.PASS
            and all(f.code is ReasonCode.UNUSUAL_FOR_WORKFLOW for f in decision.findings)
            and not (view.flags & UNLEARNT_FLAGS)
            and not action.opaque
        )
        keys = features(action, ctx, baseline.last_tool(session))[0] if clean else None
        if keys is not None:
            baseline.workflow(scope)  # loaded, so the in-memory counts follow what is learnt
        baseline.record(scope, session, action.tool, keys)
    except Exception:
        return


DETECTORS: tuple[Detector, ...] = (unusual_for_workflow,)
