"""The console's pages and answers, as plain request -> response functions (`server.py` speaks HTTP).

The console decides nothing itself: an approval is `limen.approvals.Approvals.grant`/`deny` (the same
rules, factor check and audit records as `limen approve`), a tool pin is `limen.floors.toolpin.approve`
recorded as `limen tools approve` records it, a policy loosening is `limen.policy.drift.approve`. It
reads the audit log backwards a page at a time (`logread.LogReader`), sessions from the session store and
tool pins and the policy ledger from where their commands read them. Every value shown is escaped
(`html.render`). One lock serialises the handlers: the console has one user, and the stores it touches
are then used from one thread at a time.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from limen.console import auth
from limen.console.html import Markup, join, link, render, table, when
from limen.console.logread import Entry, Filters, LogReader

if TYPE_CHECKING:
    from limen.approvals import ApprovalRequest, Approvals
    from limen.audit.postgres import PostgresLogReader
    from limen.runtime import Runtime

PAGE_SIZE = 50
REFRESH_SECONDS = 5
RECENT_APPROVALS = 200  # how many of the latest approval requests a "why" page looks through
MAX_SESSIONS = 200
MAX_FIELD = 200
VERDICTS = ("PASS", "AUTH", "BLOCK")
NAV = (("/", "Approvals"), ("/log", "Decision log"), ("/sessions", "Sessions"), ("/tools", "Tool pins"))
FLAG_MEANINGS = {
    "untrusted": "content from an untrusted source came in",
    "injected": "content carrying injected instructions came in",
    "tainted": "a secret (or a secret file) was read",
    "halted": "stopped: every further call is denied",
    "trusted": "values the user named in the prompt",
}
SECURITY_HEADERS = (
    (
        "Content-Security-Policy",
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'",
    ),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
)
CSS = b"""
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{display:flex;gap:1.5em;align-items:center;padding:.6em 1.2em;background:#1b1f24;color:#fff}
header a{color:#cfe3ff;text-decoration:none;margin-right:1em}header a.here{color:#fff;font-weight:600}
header form{margin-left:auto}main{padding:1em 1.5em;max-width:1200px}
table{border-collapse:collapse;width:100%;background:#fff;margin:.5em 0 1.2em}
th,td{border-bottom:1px solid #e3e6ea;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#eef1f4;font-weight:600}pre{white-space:pre-wrap;word-break:break-all;margin:0}
.card{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:.8em 1em;margin:0 0 1em}
.PASS{color:#116329}.AUTH{color:#9a6700}.BLOCK{color:#cf222e;font-weight:600}
.flash-ok{background:#dafbe1;padding:.5em 1em}.flash-error{background:#ffebe9;padding:.5em 1em}
.empty{color:#57606a}form.inline{display:inline-block;margin-right:.5em}
.filters input,.filters select{margin-right:.6em}code{background:#eef1f4;padding:0 .2em}
"""


class Shown(NamedTuple):
    """A page: its title, body and status; `refresh` reloads it after that many seconds (0: never)."""

    title: str
    body: Markup
    status: int = 200
    refresh: int = 0


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str] = field(default_factory=dict)
    form: dict[str, str] = field(default_factory=dict)
    session_id: str = ""  # the cookie's value


@dataclass
class Response:
    status: int
    body: bytes
    headers: list[tuple[str, str]] = field(default_factory=list)
    content_type: str = "text/html; charset=utf-8"


def redirect(to: str, headers: list[tuple[str, str]] | None = None) -> Response:
    return Response(303, b"", [("Location", to), *(headers or [])])


class Console:
    """One console process: the gate (who is logged in), the stores, the log reader."""

    def __init__(
        self,
        *,
        workspace: str,
        gate: auth.Gate,
        secure: bool = False,
        audit_dir: str | None = None,
        approvals: Approvals | None = None,
        reader: LogReader | PostgresLogReader | None = None,
    ) -> None:
        from limen.approvals import open_approvals
        from limen.runtime import Runtime

        self.workspace = workspace
        self.gate = gate
        self.secure = secure
        self.runtime: Runtime = Runtime(workspace=workspace, audit_dir=audit_dir, fsync_every=1)
        self.approvals = approvals or open_approvals(audit_dir=audit_dir)
        self.reader = reader or LogReader(audit_dir)  # a fleet's PostgreSQL chain, given one
        self._decisions: OrderedDict[str, Entry] = OrderedDict()  # a few recent lookups by id
        self._lock = threading.Lock()
        self._session: auth.Session | None = None  # the session being served (under the lock)

    def close(self) -> None:
        self.approvals.close()
        self.runtime.close()

    # -- dispatch --------------------------------------------------------------------------------------
    def handle(self, request: Request) -> Response:
        try:
            with self._lock:
                self._session = None
                response = self._route(request)
        except Exception as exc:  # a page that fails says so, without a traceback to the browser
            print(f"limen console: {request.method} {request.path}: {type(exc).__name__}", file=sys.stderr)
            response = Response(
                500, self._bare("Error", Markup("<p>This page failed; see the console's log.</p>"))
            )
        response.headers.extend(SECURITY_HEADERS)
        return response

    def _route(self, request: Request) -> Response:
        if request.path == "/static/console.css":
            return Response(200, CSS, content_type="text/css; charset=utf-8")
        if request.path == "/login":
            return self._login(request)
        session = self.gate.session(request.session_id)
        if session is None:
            body = Markup(
                "<p>Not logged in. Open the URL <code>limen console</code> printed (it works once), "
                "or run <code>limen console</code> again.</p>"
            )
            return Response(401, self._bare("Log in", body))
        self._session = session
        if request.method == "POST":
            if not auth.csrf_ok(session, request.form.get("csrf", "")):
                return Response(403, self._bare("Refused", Markup("<p>Missing or wrong form token.</p>")))
            posts = {
                "/approve": self._approve,
                "/deny": self._deny,
                "/tools/approve": self._tool_approve,
                "/policy/approve": self._policy_approve,
            }
            if request.path == "/logout":
                self.gate.logout(request.session_id)
                return redirect("/login", [("Set-Cookie", self._cookie("", 0))])
            handler = posts.get(request.path)
            if handler is None:
                return Response(404, self._bare("Not found", Markup("")))
            to, message = handler(request.form)
            session.flash.append(message)
            return redirect(to)
        pages = {
            "/": self._approvals_page,
            "/log": self._log_page,
            "/why": self._why_page,
            "/sessions": self._sessions_page,
            "/session": self._session_page,
            "/tools": self._tools_page,
            "/policy": self._policy_page,
        }
        page = pages.get(request.path)
        if page is None:
            return Response(404, self._bare("Not found", Markup("<p>No such page.</p>")))
        shown = page(request.query)
        flash, session.flash = session.flash, []
        refresh = [("Refresh", str(shown.refresh))] if shown.refresh else []
        return Response(shown.status, self._layout(shown.title, shown.body, request.path, flash), refresh)

    # -- login -----------------------------------------------------------------------------------------
    def _login(self, request: Request) -> Response:
        token = (request.form if request.method == "POST" else request.query).get("token", "")
        if self.gate.password is not None and request.method != "POST":
            if self.gate.locked_out():
                return Response(429, self._bare("Log in", Markup("<p>Too many wrong passwords; wait.</p>")))
            form = render(
                '<form method="post" action="/login"><input type="hidden" name="token" value="$token">'
                '<label>Console password <input type="password" name="password" autofocus></label> '
                "<button>Log in</button></form>",
                token=token,
            )
            return Response(200, self._bare("Log in", form))
        session_id = self.gate.login(token, request.form.get("password"))
        if session_id is None:
            body = Markup(
                "<p>This login link is used up, expired or wrong. Run <code>limen console</code> again for "
                "a new one.</p>"
            )
            return Response(403, self._bare("Log in", body))
        return redirect("/", [("Set-Cookie", self._cookie(session_id, int(auth.SESSION_SECONDS)))])

    def _cookie(self, value: str, max_age: int) -> str:
        secure = "; Secure" if self.secure else ""
        return f"{auth.COOKIE}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}"

    # -- layout ----------------------------------------------------------------------------------------
    def _bare(self, title: str, body: Markup) -> bytes:
        page = render(
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>$title · Limen console</title>'
            '<link rel="stylesheet" href="/static/console.css"></head><body><main><h1>$title</h1>$body</main>'
            "</body></html>",
            title=title,
            body=body,
        )
        return page.encode()

    def _layout(self, title: str, body: Markup, here: str, flash: list[tuple[str, str]]) -> bytes:
        nav = join(
            render(
                '<a href="$href" class="$cls">$label</a>',
                href=href,
                label=label,
                cls="here" if here == href else "",
            )
            for href, label in (*NAV, ("/policy", "Policy"))
        )
        notes = join(render('<p class="flash-$kind">$text</p>', kind=kind, text=text) for kind, text in flash)
        page = render(
            '<!doctype html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<title>$title · Limen console</title><link rel="stylesheet" href="/static/console.css"></head>'
            "<body><header><strong>Limen</strong><nav>$nav</nav>"
            '<form method="post" action="/logout">$csrf<button>Log out</button></form></header>'
            "<main><h1>$title</h1>$notes$body</main></body></html>",
            title=title,
            nav=nav,
            csrf=self._csrf(),
            notes=notes,
            body=body,
        )
        return page.encode()

    def _csrf(self) -> Markup:
        """The hidden field every form carries: the CSRF token of the session being served."""
        token = self._session.csrf if self._session is not None else ""
        return render('<input type="hidden" name="csrf" value="$token">', token=token)

    def _form(self, action: str, fields: dict[str, str], button: str, factor: bool = False) -> Markup:
        hidden = join(
            render('<input type="hidden" name="$name" value="$value">', name=k, value=v)
            for k, v in fields.items()
        )
        extra = (
            Markup(
                '<input type="password" name="factor" autocomplete="one-time-code" '
                'placeholder="TOTP code or password" required> '
            )
            if factor
            else Markup("")
        )
        return render(
            '<form class="inline" method="post" action="$action">$csrf$hidden$extra'
            "<button>$button</button></form>",
            action=action,
            csrf=self._csrf(),
            hidden=hidden,
            extra=extra,
            button=button,
        )

    # -- approvals -------------------------------------------------------------------------------------
    def _approvals_page(self, query: dict[str, str]) -> Shown:
        cards = [self._request_card(r) for r in self.approvals.pending()]
        answered = [r for r in self.approvals.recent(20) if r.status != "pending"]
        rows = [
            (
                r.id,
                r.status,
                r.tool,
                r.answered_by or "-",
                when(r.answered_at) if r.answered_at else "-",
                r.used_by or "-",
            )
            for r in answered
        ]
        body = render(
            "<h2>Waiting ($count)</h2>$cards<h2>Recently answered</h2>$recent",
            count=len(cards),
            cards=join(cards) or Markup('<p class="empty">No approval request is waiting.</p>'),
            recent=table(
                ("id", "status", "tool", "answered by", "at", "used by decision"), rows, "None yet."
            ),
        )
        # while nothing waits, the page looks again every few seconds; with a request shown it stays still,
        # so a half-typed code is never wiped
        return Shown("Approvals", body, 200, refresh=0 if cards else REFRESH_SECONDS)

    def _request_card(self, request: ApprovalRequest) -> Markup:
        left = max(int(request.expires - time.time()), 0)
        entry = self._decision(request.decision_id, request.created)
        if entry is None:
            evidence = Markup('<p class="empty">The decision record is not in the recent log.</p>')
        else:
            evidence = self._evidence(entry.record)
        strong = " — needs the TOTP code or password" if request.strong else ""
        return render(
            '<section class="card" id="req-$id"><h3>$tool <small>request $id</small></h3>'
            '<pre class="action">$action</pre>'
            "<p>risk <b>$risk</b>$strong · reasons: $reasons · session $session · door $door · "
            'expires in $mins m $secs s · <a href="$why">why</a></p>$evidence'
            "<p>$approve $deny</p></section>",
            id=request.id,
            tool=request.tool,
            action=request.action,
            risk=request.risk,
            strong=strong,
            reasons=", ".join(request.reasons) or "-",
            session=request.session,
            door=request.door,
            mins=left // 60,
            secs=f"{left % 60:02d}",
            why=link("/why", {"id": request.decision_id, "at": entry.offset if entry else ""}),
            evidence=evidence,
            approve=self._form("/approve", {"id": request.id}, "Approve once", factor=request.strong),
            deny=self._form("/deny", {"id": request.id}, "Deny"),
        )

    def _approve(self, form: dict[str, str]) -> tuple[str, tuple[str, str]]:
        from limen.approvals import ApprovalError
        from limen.approvals.service import who

        factor = form.get("factor") or None
        try:
            request = self.approvals.grant(
                form.get("id", ""), by=f"console:{who()}", code=factor, password=factor
            )
        except ApprovalError as exc:
            return "/", ("error", str(exc))
        return "/", ("ok", f"approved once: {request.id} ({request.tool}); the identical call may run once")

    def _deny(self, form: dict[str, str]) -> tuple[str, tuple[str, str]]:
        from limen.approvals import ApprovalError
        from limen.approvals.service import who

        try:
            request = self.approvals.deny(form.get("id", ""), by=f"console:{who()}")
        except ApprovalError as exc:
            return "/", ("error", str(exc))
        return "/", ("ok", f"denied: {request.id} ({request.tool})")

    def _decision(self, decision_id: str, near: float) -> Entry | None:
        """The AUTH decision of a request (written at `near`), remembered once found."""
        entry = self._decisions.get(decision_id)
        if entry is None:
            entry = self.reader.find(decision_id, near=near)
            if entry is None:
                return None
            self._decisions[decision_id] = entry
            while len(self._decisions) > 256:
                self._decisions.popitem(last=False)
        return entry

    def _evidence(self, record: dict[str, Any]) -> Markup:
        rows = [
            (
                s.get("stage", ""),
                render('<span class="$v">$v</span>', v=s.get("verdict", "")),
                s.get("risk", ""),
                ", ".join(s.get("reasons") or []) or "-",
                s.get("us", ""),
            )
            for s in record.get("stages") or []
            if isinstance(s, dict)
        ]
        facts = [
            f"{label}: {', '.join(str(v) for v in record[key])}"
            for key, label in (
                ("paths", "path classes"),
                ("hosts", "hosts"),
                ("cmds", "commands"),
                ("keys", "argument names"),
            )
            if record.get(key)
        ]
        return render(
            "<p>$expl</p><p>$facts</p>$stages",
            expl=record.get("expl", ""),
            facts=" · ".join(facts),
            stages=table(("stage", "verdict", "risk", "reasons", "µs"), rows, "No stage recorded."),
        )

    # -- the decision log ------------------------------------------------------------------------------
    def _log_page(self, query: dict[str, str]) -> Shown:
        problems: list[str] = []
        verdict = query.get("verdict", "")
        if verdict not in ("", *VERDICTS):
            problems.append("verdict must be PASS, AUTH or BLOCK")
            verdict = ""
        since, until = (_time(query, name, problems) for name in ("since", "until"))
        text = {name: query.get(name, "")[:MAX_FIELD] for name in ("reason", "tool", "session")}
        filters = Filters(verdict=verdict, since=since, until=until, **text)
        before = _int(query.get("before", ""))
        page = self.reader.page(filters, before=before, limit=PAGE_SIZE)
        params = {
            **text,
            "verdict": verdict,
            "since": query.get("since", ""),
            "until": query.get("until", ""),
        }
        rows = [self._log_row(entry) for entry in page.entries]
        options = join(
            render(
                '<option value="$v"$sel>$label</option>',
                v=v,
                label=v or "any",
                sel=Markup(" selected") if v == verdict else "",
            )
            for v in ("", *VERDICTS)
        )
        form = render(
            '<form class="filters" method="get" action="/log">'
            '<label>verdict <select name="verdict">$options</select></label>'
            '<label>reason <input name="reason" value="$reason" size="18"></label>'
            '<label>tool <input name="tool" value="$tool" size="14"></label>'
            '<label>session <input name="session" value="$session" size="14"></label>'
            '<label>since <input type="datetime-local" name="since" value="$since"></label>'
            '<label>until <input type="datetime-local" name="until" value="$until"></label>'
            "<button>Filter</button></form>",
            options=options,
            since=params["since"],
            until=params["until"],
            **text,
        )
        notes = join(render('<p class="flash-error">$p</p>', p=p) for p in problems)
        more = Markup("")
        if page.older > 0:
            reason = (
                " (this page read its share of the log; older records may match)" if page.budget_spent else ""
            )
            more = render(
                '<p><a href="$href" id="older">Older records</a>$reason</p>',
                href=link("/log", {**params, "before": page.older}),
                reason=reason,
            )
        listing = table(
            ("time", "verdict", "risk", "reasons", "tool", "session", "door", ""),
            rows,
            "No decision matches.",
        )
        return Shown("Decision log", join((form, notes, listing, more)), 400 if problems else 200)

    def _log_row(self, entry: Entry) -> tuple[Any, ...]:
        record = entry.record
        verdict = str(record.get("verdict", ""))
        return (
            when(record.get("ts")),
            render('<span class="$v">$v</span>', v=verdict),
            record.get("risk", ""),
            ", ".join(str(r) for r in record.get("reasons") or []) or "-",
            record.get("tool", ""),
            record.get("session", ""),
            record.get("door", ""),
            render(
                '<a href="$href">why</a>', href=link("/why", {"id": record.get("id", ""), "at": entry.offset})
            ),
        )

    def _why_page(self, query: dict[str, str]) -> Shown:
        decision_id = query.get("id", "")
        at = _int(query.get("at", ""), default=-1)
        entry = self.reader.find(decision_id, at=at)
        if entry is None:
            body = render(
                "<p>No decision $id in the recent log; try <code>limen log --why $id</code>.</p>",
                id=decision_id[:40],
            )
            return Shown("Why", body, 404)
        record = entry.record
        verdict = str(record.get("verdict", ""))
        head = render(
            '<p><span class="$v">$v</span> · risk $risk · $reasons</p>'
            "<p>decision $id · seq $seq · $kind · door $door · session "
            '<a href="$session_href">$session</a> · $ts</p>'
            "<p>tool $tool · capability $cap · arguments fingerprint $args</p>",
            v=verdict,
            risk=record.get("risk", ""),
            reasons=", ".join(str(r) for r in record.get("reasons") or []) or "-",
            id=record.get("id", ""),
            seq=record.get("seq", ""),
            kind=record.get("kind", ""),
            door=record.get("door", ""),
            session=record.get("session", ""),
            session_href=link("/session", {"id": record.get("session", "")}),
            ts=when(record.get("ts")),
            tool=record.get("tool", ""),
            cap=record.get("cap", ""),
            args=record.get("args", ""),
        )
        parts = [head, Markup("<h2>Evidence</h2>"), self._evidence(record), self._approval_of(record)]
        return Shown("Why", join(parts), 200)

    def _approval_of(self, record: dict[str, Any]) -> Markup:
        """The approval request an AUTH decision opened, or the one a PASS used, when still among the
        recent ones (the store's view: status, who answered, which call used it)."""
        decision_id = record.get("id")
        for request in self.approvals.recent(RECENT_APPROVALS):
            if decision_id in (request.decision_id, request.used_by):
                return render(
                    "<h2>Approval</h2><p>approval request $id: $status$by$used</p>",
                    id=request.id,
                    status=request.status,
                    by=f" by {request.answered_by}" if request.answered_by else "",
                    used=self._used_link(request.used_by),
                )
        return Markup("")

    @staticmethod
    def _used_link(decision_id: str) -> Markup:
        if not decision_id:
            return Markup("")
        href = link("/why", {"id": decision_id})
        return render(', used by decision <a href="$href">$id</a>', href=href, id=decision_id)

    # -- sessions --------------------------------------------------------------------------------------
    def _sessions_page(self, query: dict[str, str]) -> Shown:
        store = self.runtime.store
        names = store.sessions()
        rows = []
        for name in names[:MAX_SESSIONS]:
            flags = sorted(store.flags(name))
            taint = sum(1 for length in store.taint(name).values() if length > 0)
            rows.append(
                (
                    render('<a href="$href">$name</a>', href=link("/session", {"id": name}), name=name),
                    ", ".join(flags) or "-",
                    taint,
                )
            )
        lost = store.state_lost()
        body = render(
            "$lost$listing$more",
            lost=render('<p class="flash-error">$l</p>', l=lost) if lost else "",
            listing=table(
                ("session", "flags (taint, untrusted content, provenance)", "secrets read"),
                rows,
                "No session yet.",
            ),
            more=f"{len(names) - MAX_SESSIONS} more not shown" if len(names) > MAX_SESSIONS else "",
        )
        return Shown("Sessions", body, 200)

    def _session_page(self, query: dict[str, str]) -> Shown:
        name = query.get("id", "")[:MAX_FIELD]
        store = self.runtime.store
        flags = sorted(store.flags(name))
        taint = sum(1 for length in store.taint(name).values() if length > 0)
        flag_rows = [(f, FLAG_MEANINGS.get(f, "")) for f in flags]
        history = [
            (", ".join(f"{k}={v}" for k, v in sorted(entry.items())),)
            for entry in reversed(store.history(name, 20))
        ]
        body = render(
            '<p>session <b>$name</b> · $taint secret value(s) read · <a href="$log">its decisions</a></p>'
            "<h2>Flags</h2>$flags<h2>Recent calls kept for correlation</h2>$history",
            name=name,
            taint=taint,
            log=link("/log", {"session": name}),
            flags=table(("flag", "meaning"), flag_rows, "No flag: nothing untrusted or secret came in."),
            history=table(("features",), history, "Nothing kept."),
        )
        return Shown("Session", body, 200)

    # -- tool pins -------------------------------------------------------------------------------------
    def _tools_page(self, query: dict[str, str]) -> Shown:
        from limen.floors import toolpin

        rows = [
            (key, self._form("/tools/approve", {"key": key}, "Accept the new contract"))
            for key in toolpin.pending()
        ]
        body = render(
            "<p>MCP tools whose name, description or input schema changed since they were pinned. Until "
            "accepted, every call of one is asked about (or blocked in strict modes).</p>$listing",
            listing=table(("server/tool", ""), rows, "No tool awaits re-approval."),
        )
        return Shown("Tool pins", body, 200)

    def _tool_approve(self, form: dict[str, str]) -> tuple[str, tuple[str, str]]:
        from limen.floors import toolpin

        server, _, tool = form.get("key", "").partition("/")
        if not (server and tool and toolpin.approve(server, tool)):
            return "/tools", ("error", f"nothing awaits approval for {form.get('key', '')[:MAX_FIELD]}")
        if not self.runtime.audit_event("tool_pin_approved", server=server, tool=tool):
            return "/tools", ("error", f"approved {server}/{tool}, but the audit log could not record it")
        return "/tools", ("ok", f"approved the new contract of {server}/{tool}")

    # -- policy ----------------------------------------------------------------------------------------
    def _policy_page(self, query: dict[str, str]) -> Shown:
        from limen.policy import drift

        problems: list[str] = []
        entries: list[dict[str, Any]] = []
        waiting: list[dict[str, Any]] = []
        try:
            entries = list(reversed(drift.history(self.workspace)))
        except drift.DriftError as exc:
            problems.append(f"policy history: {exc}")
        try:
            waiting = drift.pending(self.workspace)
        except drift.DriftError as exc:
            problems.append(f"pending changes: {exc}")
        pending_rows = [
            (
                record.get("id", ""),
                f"{record.get('at', '')} by {record.get('who', '')}",
                join(render("<div>$c</div>", c=c) for c in record.get("diff") or []),
                self._form("/policy/approve", {"id": str(record.get("id", ""))}, "Approve", factor=True),
            )
            for record in waiting
        ]
        history_rows = [
            (
                f"#{e.get('seq')}",
                e.get("at", ""),
                e.get("kind", ""),
                f"{e.get('who', '')}" + (f" with {e['factor']}" if e.get("factor") else ""),
                str(e.get("fingerprint", ""))[:12],
                join(render("<div>$c</div>", c=c) for c in e.get("diff") or []) or "-",
            )
            for e in entries
        ]
        body = render(
            "<p>workspace <code>$ws</code></p>$problems<h2>Loosenings waiting for approval</h2>$pending"
            "<p>Propose one with <code>limen policy propose</code> in the workspace.</p>"
            "<h2>History</h2>$history",
            ws=self.workspace,
            problems=join(render('<p class="flash-error">$p</p>', p=p) for p in problems),
            pending=table(("id", "proposed", "changes", ""), pending_rows, "No loosening is waiting."),
            history=table(
                ("entry", "at", "kind", "by", "policy", "changes"), history_rows, "No ledger entry yet."
            ),
        )
        return Shown("Policy", body, 200)

    def _policy_approve(self, form: dict[str, str]) -> tuple[str, tuple[str, str]]:
        from limen.policy import drift, effective

        factor = form.get("factor") or None
        try:
            current, fingerprint, default = effective.from_files(self.workspace)
            entry = drift.approve(
                self.workspace,
                form.get("id", "")[:MAX_FIELD],
                current=current,
                current_fp=fingerprint,
                default=default,
                code=factor,
                password=factor,
            )
        except drift.DriftError as exc:
            return "/policy", ("error", str(exc))
        return "/policy", ("ok", f"approved policy #{entry['seq']} with {entry['factor']}")


def _int(text: str, default: int = 0) -> int:
    return int(text) if text.isdigit() and len(text) < 19 else default


def _time(query: dict[str, str], name: str, problems: list[str]) -> float:
    text = query.get(name, "")
    if not text:
        return 0.0
    try:
        return datetime.fromisoformat(text[:40]).timestamp()
    except ValueError:
        problems.append(f"{name}: not a date and time (YYYY-MM-DDTHH:MM)")
        return 0.0


__all__ = ["Console", "Request", "Response", "Shown"]
