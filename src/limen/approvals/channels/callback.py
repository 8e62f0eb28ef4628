"""The signed approve/deny links the remote channels carry, and the loopback server that answers them.

A link names one request and one verb and carries its expiry and an HMAC-SHA256 over the three under the
installation key `approvals` (`LIMEN_HOME/keys/approvals.key`, never sent anywhere). A link is good once:
it only answers a request that is still pending, so after the first click every other link of the request
is spent. Opening a link (GET) only shows a confirmation page: chat services fetch links to preview them,
and a preview must not approve anything. The page's button POSTs; a push action (ntfy `http`) POSTs
directly. A request that needs the strong factor is approved only with the TOTP code or password typed
into that page. Anything malformed, unsigned, expired or already answered is refused and changes nothing.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import html
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from limen.approvals.records import ApprovalError

if TYPE_CHECKING:
    from limen.approvals.config import ApprovalConfig
    from limen.approvals.records import ApprovalRequest
    from limen.approvals.service import Approvals

VERBS = ("approve", "deny")
MAX_FORM_BYTES = 4096
# (listen address, the Approvals it answers for when the port is 0) -> (server, base URL)
_servers: dict[tuple[str, int], tuple[CallbackServer, str]] = {}
_lock = threading.Lock()


def _key() -> bytes:
    from limen.state.keys import installation_key

    return installation_key("approvals")


def signature(request_id: str, verb: str, expires: int) -> str:
    return hmac.new(_key(), f"{request_id}\n{verb}\n{expires}".encode(), hashlib.sha256).hexdigest()


def links(base_url: str, request: ApprovalRequest) -> dict[str, str]:
    """The request's signed links, by verb."""
    expires = int(request.expires)
    return {
        verb: f"{base_url.rstrip('/')}/approval/{request.id}/{verb}?exp={expires}"
        f"&sig={signature(request.id, verb, expires)}"
        for verb in VERBS
    }


def verify(path: str) -> tuple[str, str]:
    """(request id, verb) of a correctly signed, unexpired link path; ApprovalError otherwise."""
    parts = urlsplit(path)
    segments = parts.path.strip("/").split("/")
    query = parse_qs(parts.query, max_num_fields=4)
    if len(segments) != 3 or segments[0] != "approval" or segments[2] not in VERBS:
        raise ApprovalError("not an approval link")
    request_id, verb = segments[1], segments[2]
    exp, sig = query.get("exp", [""])[0], query.get("sig", [""])[0]
    if not (request_id.isalnum() and exp.isdigit() and len(sig) == 64):
        raise ApprovalError("a malformed approval link")
    if not hmac.compare_digest(sig, signature(request_id, verb, int(exp))):
        raise ApprovalError("the link's signature does not verify")
    if int(exp) <= time.time():
        raise ApprovalError("the link has expired")
    return request_id, verb


def serve(approvals: Approvals, config: ApprovalConfig) -> str:
    """The base URL of the links: this process's callback server on `config.listen`, started on first use
    (a daemon thread: it lives as long as this process), or `public_url` when a tunnel fronts it. A fixed
    port another process already serves is used as it is: every Limen process answers every link (one
    store, one key); port 0 gives each `Approvals` a server of its own."""
    host, _, port = config.listen.rpartition(":")
    key = (config.listen, id(approvals) if port == "0" else 0)
    with _lock:
        running = _servers.get(key)
        if running is None:
            try:
                server = CallbackServer((host.strip("[]"), int(port)), approvals)
            except OSError as exc:
                if port == "0" or exc.errno != errno.EADDRINUSE:
                    raise
                return config.public_url or f"http://{config.listen}"
            bound_host, bound_port = str(server.server_address[0]), int(server.server_address[1])
            shown = f"[{bound_host}]" if ":" in bound_host else bound_host
            running = (server, f"http://{shown}:{bound_port}")
            threading.Thread(target=server.serve_forever, name="limen-approval-links", daemon=True).start()
            _servers[key] = running
    return config.public_url or running[1]


def release(approvals: Approvals) -> None:
    """Stop the servers that answer for `approvals` (it is closing): their links stop working."""
    with _lock:
        mine = [key for key, (server, _) in _servers.items() if server.approvals is approvals]
        stopped = [_servers.pop(key)[0] for key in mine]
    for server in stopped:
        server.shutdown()
        server.server_close()


class CallbackServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], approvals: Approvals) -> None:
        if ":" in address[0]:
            import socket

            self.address_family = socket.AF_INET6
        self.approvals = approvals
        super().__init__(address, _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: CallbackServer
    server_version = "limen-approvals"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # the request line holds the signature
        return

    def do_GET(self) -> None:
        try:
            request_id, verb = verify(self.path)
            request = self.server.approvals.get(request_id)
            if request is None:
                raise ApprovalError("no such approval request")
        except ApprovalError as exc:
            self._page(403, "Refused", str(exc))
            return
        except Exception as exc:
            self._page(503, "Not answered", f"Limen could not read the request ({type(exc).__name__}).")
            return
        self._page(200, "Limen approval", _form(request, verb, self.path))

    def do_POST(self) -> None:
        try:
            request_id, verb = verify(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_FORM_BYTES or length < 0:
                raise ApprovalError("the form is too large")
            form = parse_qs(self.rfile.read(length).decode("utf-8", "replace"), max_num_fields=8)
            secret = form.get("code", [""])[0].strip()
            approvals = self.server.approvals
            if verb == "approve":
                code, password = (secret, None) if secret.isdigit() else (None, secret or None)
                approvals.grant(request_id, by="link", code=code, password=password)
                self._page(200, "Approved once", f"Approval {request_id}: the call may run once.")
            else:
                approvals.deny(request_id, by="link", revoke=False)
                self._page(200, "Denied", f"Approval {request_id}: the call is denied.")
        except (ApprovalError, ValueError) as exc:
            message = str(exc) if isinstance(exc, ApprovalError) else "a malformed request"
            self._page(409 if "already" in message or "expired" in message else 403, "Refused", message)
        except Exception as exc:  # a store that cannot be read or written: nothing was approved
            self._page(503, "Not answered", f"Limen could not record the answer ({type(exc).__name__}).")

    def _page(self, status: int, title: str, body: str) -> None:
        content = (
            "<!doctype html><html><head><meta charset='utf-8'><title>"
            f"{html.escape(title)}</title></head><body><h1>{html.escape(title)}</h1>{_para(body)}</body></html>"
        ).encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(content)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Content-Security-Policy", "default-src 'none'; form-action 'self'")
        self.send_header("Referrer-Policy", "no-referrer")
        self.end_headers()
        self.wfile.write(content)


def _para(body: str) -> str:
    return body if body.startswith("<") else f"<p>{html.escape(body)}</p>"


def _form(request: ApprovalRequest, verb: str, path: str) -> str:
    """The confirmation page: what is asked, and one button (with the factor field when it is needed)."""
    from limen.approvals.records import PENDING

    facts = (
        f"<p>Call: <code>{html.escape(request.action)}</code></p>"
        f"<p>Reason codes: {html.escape(', '.join(request.reasons))}; risk {request.risk}</p>"
        f"<p>Approval {html.escape(request.id)}, status {html.escape(request.status)}</p>"
    )
    if request.status != PENDING:
        return facts + "<p>This request was already answered; this link is spent.</p>"
    field = ""
    if verb == "approve" and request.strong:
        field = (
            "<p><label>TOTP code or approval password "
            "<input name='code' type='password' autocomplete='one-time-code' required></label></p>"
        )
    label = "Approve this one call" if verb == "approve" else "Deny this call"
    return (
        facts
        + f"<form method='post' action='{html.escape(path, quote=True)}'>{field}"
        + f"<button type='submit'>{label}</button></form>"
    )
