"""Real clients, certificate verification on, through `limen proxy` to a real HTTPS upstream on loopback:
each gets its answer through the intercepting proxy (Limen's CA), and a request Limen refuses gets the 403
that names the reason codes and the decision id."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from tests.proxy.conftest import World


def test_httpx_passes_to_a_trusted_host_and_is_refused_with_reasons_elsewhere(world: World) -> None:
    import httpx

    with httpx.Client(proxy=world.proxy_url(), verify=world.bundle, timeout=20) as client:
        ok = client.get(world.url("pypi.org", "/echo?page=1"))
        assert ok.status_code == 200 and ok.json()["path"] == "/echo?page=1"
        refused = client.post(world.url("collector.example"), content=b"hello")
    assert refused.status_code == 403
    body = refused.json()
    assert body["limen"] in ("AUTH", "BLOCK") and "unknown_external_destination" in body["reasons"]
    assert body["decision_id"] and refused.headers["X-Limen-Decision"] == body["decision_id"]
    assert not any(s["host"].startswith("collector.example") for s in world.upstream.seen)


def test_a_credential_sent_to_a_host_that_did_not_issue_it_is_blocked(world: World) -> None:
    import httpx

    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    with httpx.Client(proxy=world.proxy_url(), verify=world.bundle, timeout=20) as client:
        sent = client.post(world.url("pypi.org"), headers={"Authorization": f"token {token}"})
    assert sent.status_code == 403
    assert sent.json()["limen"] == "BLOCK" and "secret_exfiltration" in sent.json()["reasons"]


def test_curl_verifies_the_proxy_certificate_with_limens_bundle(world: World) -> None:
    out = subprocess.run(
        ["curl", "-sS", "--fail", world.url("github.com", "/echo")],
        env=world.env(),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["method"] == "GET"
    untrusting = subprocess.run(  # without Limen's CA the interception is visible: curl refuses
        ["curl", "-sS", "--cacert", str(world.upstream.ca), "-x", world.proxy_url(), world.url("github.com")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert untrusting.returncode == 60  # peer certificate cannot be authenticated


def test_git_ls_remote_over_https(world: World) -> None:
    out = subprocess.run(
        ["git", "ls-remote", world.url("github.com", "/repo.git")],
        env={**world.env(), "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(world.home)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 0, out.stderr
    assert "refs/heads/main" in out.stdout


def test_pip_download_from_a_loopback_index(world: World, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = subprocess.run(
        [
            "pip",
            "download",
            "--no-deps",
            "--disable-pip-version-check",
            "--no-cache-dir",
            "-d",
            str(tmp_path),
            "--index-url",
            world.url("pypi.org", "/simple"),
            "demo==1.0",
        ],
        env={**world.env(), "PIP_CONFIG_FILE": "/dev/null", "PIP_PROXY": world.proxy_url()},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert (tmp_path / "demo-1.0-py3-none-any.whl").exists()


# Node 20's fetch reads no proxy variable: the script routes it through undici's ProxyAgent (the same
# library fetch is built on), and trusts Limen's CA only through NODE_EXTRA_CA_CERTS.
NODE_FETCH = """
const {ProxyAgent, setGlobalDispatcher} = require('undici');
setGlobalDispatcher(new ProxyAgent(process.env.HTTPS_PROXY));
fetch(process.argv[1]).then(async r => { console.log(r.status, await r.text()); })
  .catch(e => { console.error(String(e.cause || e)); process.exit(3); });
"""
NODE_MODULES = Path(__file__).parent / "node_modules"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.skipif(not (NODE_MODULES / "undici").is_dir(), reason="npm ci --prefix tests/proxy has not run")
def test_node_fetch_trusts_limens_ca_through_node_extra_ca_certs(world: World) -> None:
    env = {**world.env(), "NODE_PATH": str(NODE_MODULES)}
    for name in ("SSL_CERT_FILE", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE"):
        env.pop(name)
    out = subprocess.run(
        ["node", "-e", NODE_FETCH, world.url("github.com", "/echo")],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("200")


def test_a_configured_credential_is_added_by_the_proxy_for_its_host_only(world: World) -> None:
    """The client never holds the key: the proxy adds it after the decision, to github.com only, and the
    audit names the host and header, never the value."""
    from tests.proxy.conftest import INJECTED_VALUE

    with httpx.Client(proxy=world.proxy_url(), verify=world.bundle, timeout=20) as client:
        assert client.get(world.url("github.com")).json()["api_key"] == f"Key {INJECTED_VALUE}"
        assert client.get(world.url("pypi.org")).json()["api_key"] is None
    log = (world.home / "audit" / "decisions.jsonl").read_text()
    assert '"event":"proxy_credential_added"' in log.replace(" ", "") and INJECTED_VALUE not in log


def test_limen_run_keeps_an_injected_credential_from_the_agent(world: World, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from tests.proxy.conftest import INJECTED_VARIABLE

    from limen.cli.run import Egress, child_environment

    monkeypatch.setenv("LIMEN_HOME", str(world.home))
    monkeypatch.setenv(INJECTED_VARIABLE, "held-outside")
    env = child_environment(("127.0.0.1", world.port), "none", Egress("127.0.0.1", world.port, "run:x", "t"))
    assert INJECTED_VARIABLE not in env and env["LIMEN_SESSION"] == "run:x"
    assert env["SSL_CERT_FILE"] == world.bundle
