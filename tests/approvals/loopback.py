"""Test helpers: a loopback HTTP server that records what a channel sends (a Slack/Teams incoming webhook,
an ntfy topic), a human following a signed link, and policy files with an `approvals:` section."""

from __future__ import annotations

import json
import os
import queue
import re
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import yaml


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Recorder:
    """An HTTP server on 127.0.0.1 answering every POST with `status` and recording it."""

    def __init__(self, status: int = 200, answer: bytes = b"ok") -> None:
        self.received: queue.Queue[Received] = queue.Queue()
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                recorder.received.put(Received(self.path, dict(self.headers.items()), body))
                self.send_response(status)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def next(self, timeout: float = 15.0) -> Received:
        return self.received.get(timeout=timeout)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def http(method: str, url: str, data: bytes | None = None) -> tuple[int, str]:
    """One request as a browser or a push app would send it; (status, body) whatever the status."""
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=15) as answer:
            return int(answer.status), answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def click(url: str, code: str = "") -> tuple[int, str]:
    """A human's click on a link in a message: open the page (GET), then press its button (POST the form,
    typing `code` into the factor field when the page has one)."""
    status, page = http("GET", url)
    if status != 200 or "<form" not in page:
        return status, page
    action = re.search(r"<form method='post' action='([^']+)'", page)
    assert action is not None, page
    target = url.split("/approval/")[0] + action.group(1).replace("&amp;", "&")
    form = f"code={code}".encode() if "name='code'" in page else b""
    return http("POST", target, form)


def write_policy(workspace: str, approvals: dict[str, Any], **more: Any) -> str:
    path = os.path.join(workspace, "limen.yaml")
    with open(path, "w") as fh:
        yaml.safe_dump({"version": 1, "approvals": approvals, **more}, fh)
    return path


FACTOR_PASSWORD = "correct horse battery"


def approved_policy(workspace: str, approvals: dict[str, Any]) -> None:
    """A project policy with an `approvals:` section that SDK calls run under as they do with no file
    (every call the policy does not forbid is left to the guardrails: `default_action: allow`). Allowing
    by default loosens the built-in policy, so it is approved through the drift gate with a password, as
    a person would."""
    from limen.policy import drift, effective

    write_policy(workspace, approvals, default_action="allow", acknowledge=["allow_by_default"])
    current, fp, default = effective.from_files(workspace)
    if not drift.has_factor():
        drift.setup_password(FACTOR_PASSWORD)
    change = drift.propose(workspace, current, fp, default)
    drift.approve(
        workspace, change["id"], current=current, current_fp=fp, default=default, password=FACTOR_PASSWORD
    )
