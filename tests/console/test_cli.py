"""`limen console` as a person runs it: a real process that prints a login URL that works once, stops on
Ctrl-C, and refuses to listen beyond loopback without TLS and a password."""

from __future__ import annotations

import http.client
import signal
import subprocess
import sys
from urllib.parse import urlsplit


def test_limen_console_prints_a_url_that_logs_in_once_and_stops_on_ctrl_c(workspace: str) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "limen", "console", "--workspace", workspace],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith("Limen console: http://127.0.0.1:"), first
        url = urlsplit(first.split(": ", 1)[1].strip())
        statuses = []
        for _ in range(2):
            conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
            conn.request("GET", f"{url.path}?{url.query}", headers={"Host": url.netloc})
            statuses.append(conn.getresponse().status)
            conn.close()
        assert statuses == [303, 403]
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 0  # at once on a quiet machine; CI machines can be loaded
        assert process.stderr is not None
        log = process.stderr.read()
        assert "Traceback" not in log and url.query not in log  # the token never reaches the log
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_limen_console_refuses_a_public_address_without_tls_and_a_password() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "limen", "console", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1 and "only with TLS" in result.stderr and not result.stdout
    helped = subprocess.run(
        [sys.executable, "-m", "limen", "console", "--help"], capture_output=True, text=True, timeout=60
    )
    assert helped.returncode == 0 and "--tls-cert" in helped.stdout
