"""What the proxy hands the decision core, and what it answers a client the core refused.

A request becomes a call of the generic `network.request` tool (`limen.normalize.tools.KNOWN_TOOLS`):
`url` (scheme, host, port, path and query: the destination rules and the taint floor read all of it),
`method`, `headers` (every header that can carry data, as `Name: value` lines, so the secret detectors see
`Authorization: Bearer ...` as they do on a command line), `protocol_headers` (the ones a client sets on its
own: Accept, User-Agent...; still scanned for secrets and taint, but they do not make a plain GET a request
that sends something) and `body` (decoded text of at most the body cap). Nothing here decides.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from limen.model import Decision, Verdict

TOOL = "network.request"
DOOR = "proxy"
DEFAULT_MAX_BODY = (
    768 << 10
)  # bytes of a request body the detectors read; beyond it: decided on what was read
# The most a body may be read: the normaliser analyses at most 1,000,000 characters of arguments in all
# (`limen.normalize.MAX_ARGUMENT_CHARS`; beyond: `normalization_failed`), URL and headers included.
MAX_BODY_LIMIT = 900_000

# Headers every client sends on its own; the rest go to `headers` (cookies, credentials, custom ones).
PROTOCOL_HEADERS = frozenset(
    {
        "host",
        "accept",
        "accept-encoding",
        "accept-language",
        "user-agent",
        "connection",
        "keep-alive",
        "cache-control",
        "pragma",
        "te",
        "upgrade-insecure-requests",
        "if-none-match",
        "if-modified-since",
        "range",
        "content-type",
        "content-length",
        "transfer-encoding",
        "git-protocol",
        "sec-fetch-mode",
        "sec-fetch-site",
        "sec-fetch-dest",
        "upgrade",  # a websocket handshake: its messages are decided one by one (`websocket_message`)
        "sec-websocket-key",
        "sec-websocket-version",
        "sec-websocket-extensions",
    }
)
# Never shown to the core: the proxy's own credential (it names the session, and is the agent's to hold).
HIDDEN_HEADERS = frozenset({"proxy-authorization", "proxy-connection"})


@dataclass(frozen=True)
class Translated:
    arguments: dict[str, Any]
    body_size: int  # bytes of the body as sent
    body_read: int  # bytes of it the detectors saw
    truncated: bool


def body_text(raw: bytes, decoded: bytes | None, cap: int) -> tuple[str, int, bool]:
    """The body's text for the detectors: the decoded content (gzip, br...) where it could be decoded, else
    the bytes as sent; at most `cap` bytes of it."""
    data = decoded if decoded is not None else raw
    truncated = len(data) > cap
    data = data[:cap]
    return data.decode("utf-8", errors="replace"), len(data), truncated


def arguments(
    method: str,
    url: str,
    headers: list[tuple[str, str]],
    raw_body: bytes,
    decoded: bytes | None,
    cap: int,
    authority: tuple[str, ...] = (),
) -> Translated:
    """`authority`: the spellings of the URL's own host (`host`, `host:port`); a Host header that is one
    of them says nothing the URL does not, and is left out (one that names another host stays)."""
    data_headers: list[str] = []
    protocol: list[str] = []
    for name, value in headers:
        lowered = name.lower()
        if lowered in HIDDEN_HEADERS or (lowered == "host" and value in authority):
            continue
        (protocol if lowered in PROTOCOL_HEADERS else data_headers).append(f"{name}: {value}")
    args: dict[str, Any] = {"url": url, "method": method.upper()}
    if data_headers:
        args["headers"] = data_headers
    if protocol:
        args["protocol_headers"] = protocol
    text, read, truncated = body_text(raw_body, decoded, cap)
    if text:
        args["body"] = text
    return Translated(args, len(raw_body), read, truncated)


def approval_text(decision: Decision) -> str:
    """How a human lets an AUTH through: once, by its approval request, or by a standing waiver."""
    if decision.approval_id:
        return (
            f"approval request {decision.approval_id}: a human runs `limen approve {decision.approval_id}`, "
            "then the identical request passes once"
        )
    return (
        "no approval request was opened: a standing waiver (`limen tune`, `limen policy propose`) allows it"
    )


def refusal(decision: Decision, what: str) -> tuple[int, dict[str, str], bytes]:
    """The 403 a refused request gets: status, headers and a JSON body naming the verdict, reason codes and
    decision id (no argument value: the explanation is already redacted)."""
    verdict = decision.verdict.name
    codes = [r.value for r in decision.reasons]
    body: dict[str, Any] = {
        "limen": verdict,
        "reasons": codes,
        "decision_id": decision.decision_id,
        "explanation": decision.explanation,
        "request": what,
    }
    if decision.verdict is Verdict.AUTH:
        body["approval"] = approval_text(decision)
        body["approval_id"] = decision.approval_id or None
    headers = {
        "Content-Type": "application/json",
        "X-Limen-Verdict": verdict,
        "X-Limen-Reasons": ",".join(codes),
        "X-Limen-Decision": decision.decision_id,
    }
    if decision.approval_id:
        headers["X-Limen-Approval"] = decision.approval_id
    return 403, headers, (json.dumps(body) + "\n").encode()
