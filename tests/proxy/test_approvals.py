"""AUTH through the proxy: the 403 names the approval request; `limen approve ID` lets the identical request
through once, and only once."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import httpx
from tests.proxy.conftest import World


def test_an_approved_request_passes_once(world: World) -> None:
    session = f"approve:{secrets.token_hex(4)}"
    url = world.url("collector.example", f"/echo/{secrets.token_hex(3)}")
    with httpx.Client(proxy=world.proxy_url(session), verify=world.bundle, timeout=20) as client:
        first = client.post(url, content=b"weekly report")
        assert first.status_code == 403 and first.json()["limen"] == "AUTH"
        approval = first.json()["approval_id"]
        assert approval and first.headers["X-Limen-Approval"] == approval
        assert f"limen approve {approval}" in first.json()["approval"]
        answer = subprocess.run(
            [sys.executable, "-m", "limen", "approve", approval],
            env={**os.environ, "LIMEN_HOME": str(world.home)},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert answer.returncode == 0, answer.stderr
        again = client.post(url, content=b"weekly report")
        assert again.status_code == 200 and again.json()["method"] == "POST"
        third = client.post(url, content=b"weekly report")
        assert third.status_code == 403  # the grant was single-use
        other = client.post(url, content=b"another report")
        assert other.status_code == 403  # and bound to that one request
