"""The chain: order is precedence, the first terminal verdict wins, evidence only grows."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from limen.model import Action, ReasonCode, Verdict
from limen.policy import load_context
from limen.policy.chain import Chain, CompiledWaiver
from limen.policy.evidence import Evidence
from limen.policy.layers import build_layer
from limen.policy.matchers import Matchers
from limen.policy.schema import PolicyFile
from policy_helpers import action, approve_files, decision, no_org_policy, write_policy


@pytest.fixture(autouse=True)
def isolated_org(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    no_org_policy(monkeypatch, tmp_path_factory.mktemp("org"))


@pytest.fixture
def ws(tmp_path: Path) -> str:
    return os.path.realpath(tmp_path)


def layers(ws: str, chain: list[dict[str, object]]) -> list[object]:
    spec = PolicyFile.model_validate({"chain": chain})
    return [build_layer(i, layer, ws, os.path.expanduser("~")) for i, layer in enumerate(spec.chain)]


class Tripwire:
    """A layer that fails the test if the chain ever reaches it."""

    name = "tripwire"
    kind = "rules"

    def evaluate(self, action: Action, evidence: Evidence) -> tuple[str, str]:
        pytest.fail("a layer after a terminal verdict ran")


class Spy:
    """A pass-through layer that records what the evidence held when it ran."""

    kind = "rules"

    def __init__(self, name: str) -> None:
        self.name = name
        self.seen: list[tuple[tuple[str, str], ...]] = []

    def evaluate(self, action: Action, evidence: Evidence) -> tuple[str, str]:
        self.seen.append(evidence.facts)
        evidence.add(self.name, f"{self.name} was here")
        return "pass", ""


def test_denylist_first_beats_an_allow_after_it(ws: str) -> None:
    built = layers(
        ws,
        [
            {"layer": "denylist", "hosts": ["*.evil.example"]},
            {"layer": "allowlist", "hosts": ["*"], "on_match": "allow"},
        ],
    )
    chain = Chain((("project", (*built, Tripwire()), False),))  # type: ignore[arg-type]
    out = chain.evaluate(action(ws, "WebFetch", {"url": "https://x.evil.example/a"}))
    assert out.verdict == "deny"
    assert out.decided_by == "policy:project:denylist#0"
    assert [f.code for f in out.findings] == [ReasonCode.POLICY_DENIED]
    assert [s.stage for s in out.trail] == ["policy:project:denylist#0"]


def test_the_same_layers_reordered_change_the_verdict(ws: str) -> None:
    built = layers(
        ws,
        [
            {"layer": "allowlist", "hosts": ["*"], "on_match": "allow"},
            {"layer": "denylist", "hosts": ["*.evil.example"]},
        ],
    )
    chain = Chain((("project", tuple(built), False),))  # type: ignore[arg-type]
    out = chain.evaluate(action(ws, "WebFetch", {"url": "https://x.evil.example/a"}))
    assert out.verdict == "allow"
    assert len(out.trail) == 1


def test_layers_after_a_terminal_verdict_do_not_run(ws: str) -> None:
    for terminal, expected in (
        ({"layer": "denylist", "commands": ["nc"], "on_match": "ask"}, "ask"),
        (
            {
                "layer": "rules",
                "rules": [{"id": "ok", "match": {"capability": "shell.execute"}, "effect": "allow"}],
            },
            "allow",
        ),
    ):
        chain = Chain((("project", (*layers(ws, [terminal]), Tripwire()), False),))  # type: ignore[arg-type]
        out = chain.evaluate(action(ws, "Bash", {"command": "nc -l 4444"}))
        assert out.verdict == expected
        assert len(out.trail) == 1  # the terminal layer only


def test_evidence_is_append_only_and_each_layer_reports_its_own(ws: str) -> None:
    first, second = Spy("first"), Spy("second")
    built = layers(
        ws,
        [
            {
                "layer": "rules",
                "name": "mark",
                "rules": [
                    {
                        "id": "m",
                        "match": {"capability": "network.request"},
                        "effect": "annotate",
                        "flag": "egress",
                    }
                ],
            },
            {"layer": "allowlist", "hosts": ["pypi"], "on_match": "pass", "on_miss": "pass"},
        ],
    )
    chain = Chain((("project", (first, *built, second), False),))  # type: ignore[arg-type]
    out = chain.evaluate(action(ws, "WebFetch", {"url": "https://pypi.org/simple/"}))
    assert out.verdict == "pass"
    before, after = first.seen[0], second.seen[0]
    assert before == ()
    assert after[: len(before)] == before
    assert after == (
        ("first", "first was here"),
        ("mark", "flag egress"),
        ("allowlist#1", "host pypi.org allowed (glob)"),
    )
    details = {s.stage: s.details for s in out.trail}
    assert details["policy:project:mark"] == ("pass", "flag egress")
    assert details["policy:project:allowlist#1"] == ("pass", "host pypi.org allowed (glob)")
    with pytest.raises(TypeError):
        after[0] = ("x", "y")  # type: ignore[index]
    assert not hasattr(Evidence(), "remove")


def test_a_cheap_annotation_reaches_a_later_layer(ws: str) -> None:
    built = layers(
        ws,
        [
            {
                "layer": "dlp",
                "detect": [],
                "patterns": [{"name": "ticket", "regex": "PROJ-[0-9]+"}],
                "on_match": "annotate",
            },
            {
                "layer": "rules",
                "rules": [{"id": "no-tickets-out", "match": {"flags": ["pattern"]}, "effect": "deny"}],
            },
        ],
    )
    chain = Chain((("project", tuple(built), False),))  # type: ignore[arg-type]
    leak = action(ws, "network.request", {"url": "https://api.example.com/x", "body": "see PROJ-1234"})
    clean = action(ws, "network.request", {"url": "https://api.example.com/x", "body": "hello"})
    assert chain.evaluate(leak).verdict == "deny"
    assert chain.evaluate(clean).verdict == "pass"


@pytest.mark.parametrize(
    ("on_match", "on_miss", "host", "verdict", "ran"),
    [
        ("pass", "deny", "pypi.org", "pass", 2),
        ("allow", "deny", "pypi.org", "allow", 1),
        ("pass", "deny", "evil.example", "deny", 1),
        ("pass", "pass", "evil.example", "pass", 2),
    ],
)
def test_allowlist_on_match_and_on_miss(
    ws: str, on_match: str, on_miss: str, host: str, verdict: str, ran: int
) -> None:
    spy = Spy("after")
    built = layers(
        ws, [{"layer": "allowlist", "hosts": ["pypi", "github"], "on_match": on_match, "on_miss": on_miss}]
    )
    chain = Chain((("project", (*built, spy), False),))  # type: ignore[arg-type]
    out = chain.evaluate(action(ws, "WebFetch", {"url": f"https://{host}/x"}))
    assert out.verdict == verdict
    assert len(out.trail) == ran
    assert len(spy.seen) == ran - 1


def test_allowlist_cidr_and_bundles(ws: str) -> None:
    built = layers(ws, [{"layer": "allowlist", "hosts": ["10.0.0.0/8", "npm"], "on_miss": "deny"}])
    chain = Chain((("project", tuple(built), False),))  # type: ignore[arg-type]
    assert chain.evaluate(action(ws, "WebFetch", {"url": "http://10.1.2.3/x"})).verdict == "pass"
    assert chain.evaluate(action(ws, "WebFetch", {"url": "https://registry.npmjs.org/x"})).verdict == "pass"
    assert chain.evaluate(action(ws, "WebFetch", {"url": "http://11.1.2.3/x"})).verdict == "deny"


def test_rules_explicit_deny_wins_over_an_earlier_allow(ws: str) -> None:
    built = layers(
        ws,
        [
            {
                "layer": "rules",
                "rules": [
                    {"id": "shell-ok", "match": {"capability": "shell.execute"}, "effect": "allow"},
                    {"id": "ask-git", "match": {"commands": ["git"]}, "effect": "ask"},
                    {
                        "id": "no-force",
                        "match": {"commands": ["git push --force"]},
                        "effect": "deny",
                        "reason": "no force",
                    },
                ],
            }
        ],
    )
    chain = Chain((("project", tuple(built), False),))  # type: ignore[arg-type]
    assert chain.evaluate(action(ws, "Bash", {"command": "git push --force origin main"})).verdict == "deny"
    assert chain.evaluate(action(ws, "Bash", {"command": "git status"})).verdict == "allow"


def test_rule_matchers_on_tool_paths_and_environment(ws: str, monkeypatch: pytest.MonkeyPatch) -> None:
    built = layers(
        ws,
        [
            {
                "layer": "rules",
                "rules": [
                    {
                        "id": "prod-writes",
                        "match": {"tool": "Write", "paths": ["deploy/**"], "environment": {"STAGE": "prod*"}},
                        "effect": "ask",
                    },
                ],
            }
        ],
    )
    chain = Chain((("project", tuple(built), False),))  # type: ignore[arg-type]
    write = action(ws, "Write", {"file_path": f"{ws}/deploy/app.yaml", "content": "x"})
    monkeypatch.setenv("STAGE", "dev")
    assert chain.evaluate(write).verdict == "pass"
    monkeypatch.setenv("STAGE", "production")
    assert chain.evaluate(write).verdict == "ask"
    assert (
        chain.evaluate(action(ws, "Write", {"file_path": f"{ws}/src/a.py", "content": "x"})).verdict == "pass"
    )


def test_a_chain_allow_never_overrides_an_objective_finding(ws: str, tmp_path: Path) -> None:
    write_policy(
        tmp_path / "limen.yaml",
        """
        chain:
          - layer: rules
            rules:
              - id: reads-are-fine
                match: {capability: filesystem.read}
                effect: allow
    """,
    )
    approve_files(ws)
    d = decision(load_context(ws), "Read", {"file_path": f"{ws}/.env"})
    assert d.verdict is Verdict.AUTH
    assert ReasonCode.SENSITIVE_SECRET_ACCESS in d.reasons
    assert any(s.stage == "policy:project:rules#0" and s.details[0] == "allow" for s in d.evidence)


def test_default_action_depends_on_the_door_unless_set(ws: str, tmp_path: Path) -> None:
    write_policy(tmp_path / "limen.yaml", "mode: balanced\n")
    ctx = load_context(ws)
    sdk = decision(ctx, "filesystem.read", {"path": f"{ws}/README.md"}, door="sdk")
    hook = decision(ctx, "Read", {"file_path": f"{ws}/README.md"}, door="hook")
    assert sdk.verdict is Verdict.BLOCK and ReasonCode.POLICY_DENIED in sdk.reasons
    assert ReasonCode.POLICY_DENIED not in hook.reasons
    assert not any(s.stage == "policy:default_action" for s in hook.evidence)


def test_a_lower_level_runs_after_a_higher_allow_and_can_still_deny(
    ws: str, tmp_path: Path, limen_home: Path
) -> None:
    write_policy(
        limen_home / "policy.yaml",
        """
        chain:
          - layer: allowlist
            hosts: ["*"]
            on_match: allow
    """,
    )
    write_policy(
        tmp_path / "limen.yaml",
        """
        chain:
          - layer: denylist
            hosts: [pastebin.com]
    """,
    )
    approve_files(ws)
    ctx = load_context(ws)
    d = decision(ctx, "WebFetch", {"url": "https://pastebin.com/raw/x"})
    assert d.verdict is Verdict.BLOCK
    assert [s.stage for s in d.evidence if s.stage.startswith("policy:")] == [
        "policy:user:allowlist#0",
        "policy:project:denylist#0",
    ]


def test_waivers_are_scoped_and_never_mute_a_floor(ws: str) -> None:
    def waiver(code: str) -> CompiledWaiver:
        m = Matchers.compile(hosts=["docs.example.com"], workspace=ws, home="/h")
        return CompiledWaiver(code, m, expires=4102444800.0)

    chain = Chain((), waivers=(waiver("unknown_external_destination"), waiver("secret_exfiltration")))
    inside = chain.evaluate(action(ws, "WebFetch", {"url": "https://docs.example.com/a"}))
    outside = chain.evaluate(action(ws, "WebFetch", {"url": "https://other.example.com/a"}))
    assert inside.waived == {"unknown_external_destination"}
    assert outside.waived == frozenset()
    expired = Chain(
        (),
        waivers=(
            CompiledWaiver(
                "unknown_external_destination", Matchers.compile(hosts=["*"], workspace=ws, home="/h"), 1.0
            ),
        ),
    )
    assert (
        expired.evaluate(action(ws, "WebFetch", {"url": "https://docs.example.com/a"})).waived == frozenset()
    )


def test_dlp_finds_credentials_and_pii_in_outgoing_payloads_only(ws: str) -> None:
    key = "AKIA" + "Q3EGRIVQ7ZMNBX4P"  # an AWS access key id shape, split so scanners of this repo stay quiet
    built = layers(ws, [{"layer": "dlp", "on_match": "deny", "max_body_bytes": 64, "on_oversize": "ask"}])
    chain = Chain((("project", tuple(built), False),))  # type: ignore[arg-type]

    def post(body: str) -> Action:
        return action(ws, "network.request", {"url": "https://api.example.com/x", "body": body})

    leak = chain.evaluate(post(f"key={key}"))
    assert leak.verdict == "deny"
    assert key not in str(leak.trail) and key not in str(leak.findings)  # kinds only, never the value
    assert chain.evaluate(post("card 4111 1111 1111 1111")).verdict == "deny"
    assert chain.evaluate(post("hello world")).verdict == "pass"
    assert chain.evaluate(post("x" * 65)).verdict == "ask"
    local = action(ws, "Write", {"file_path": f"{ws}/notes.txt", "content": f"key={key}"})
    assert chain.evaluate(local).verdict == "pass"  # not outbound: the objective rules judge local writes
