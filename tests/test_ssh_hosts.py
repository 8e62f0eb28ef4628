"""`limen.ssh_hosts`: the hosts the user's own ssh knows are the user's machines, not made-up destinations."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
from pathlib import Path

import limen
from limen import ssh_hosts
from limen.context import Context
from limen.model import Mode, ReasonCode


def _home(tmp_path: Path) -> str:
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir(parents=True)
    salt = b"0123456789abcdefghij"
    digest = hmac.new(salt, b"build-7.corp.example", hashlib.sha1).digest()
    hashed = f"|1|{base64.b64encode(salt).decode()}|{base64.b64encode(digest).decode()}"
    (ssh / "known_hosts").write_text(
        f"{hashed} ssh-ed25519 AAAAC3Nz\n[10.0.0.12]:2222,git.corp.example ssh-ed25519 AAAAC3Nz\n"
        "@cert-authority *.corp.example ssh-ed25519 AAAAC3Nz\n"
    )
    (ssh / "config").write_text("Host devbox staging-*\n  HostName devbox.corp.example\n  User dev\n")
    return str(tmp_path / "home")


def test_hosts_from_config_and_known_hosts_plain_and_hashed(tmp_path: Path) -> None:
    home = _home(tmp_path)
    for host in ("devbox", "devbox.corp.example", "build-7.corp.example", "10.0.0.12", "git.corp.example"):
        assert ssh_hosts.known(host, home), host
    for host in ("staging-1", "evil.example", "corp.example", "build-8.corp.example"):
        assert not ssh_hosts.known(host, home), host


def test_ssh_to_a_known_host_passes_and_to_a_stranger_asks(tmp_path: Path, workspace: str) -> None:
    ctx = dataclasses.replace(Context.for_mode(Mode.BALANCED, workspace), home=_home(tmp_path))

    def reasons(line: str) -> tuple[ReasonCode, ...]:
        return limen.evaluate("Bash", {"command": line}, cwd=workspace, context=ctx).reasons

    assert ReasonCode.UNKNOWN_EXTERNAL_DESTINATION not in reasons("ssh devbox 'systemctl status app'")
    assert ReasonCode.UNKNOWN_EXTERNAL_DESTINATION not in reasons("ssh build-7.corp.example uptime")
    assert ReasonCode.UNKNOWN_EXTERNAL_DESTINATION in reasons("ssh evil.example 'systemctl restart app'")
    assert ReasonCode.UNKNOWN_EXTERNAL_DESTINATION in reasons("ssh -A evil.example uptime")  # its agent lent
