"""The drift gate: tightening applies at once, loosening waits for a possession factor, all recorded."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pyotp
import pytest

from limen.cli import main as limen
from limen.model import Mode, ReasonCode, Verdict
from limen.policy import drift, effective, load_context
from policy_helpers import approve_files, decision, no_org_policy, write_policy


@pytest.fixture(autouse=True)
def isolated_org(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    no_org_policy(monkeypatch, tmp_path_factory.mktemp("org"))


@pytest.fixture
def ws(tmp_path: Path) -> str:
    return os.path.realpath(tmp_path)


def totp_secret(capsys: pytest.CaptureFixture[str]) -> pyotp.TOTP:
    assert limen(["policy", "factor", "totp"]) == 0
    uri = capsys.readouterr().out.strip().splitlines()[-1]
    totp = pyotp.parse_uri(uri)
    assert isinstance(totp, pyotp.TOTP)
    return totp


def test_tightening_applies_at_once_and_becomes_the_approved_policy(ws: str) -> None:
    write_policy(Path(ws, "limen.yaml"), "mode: strict\n")
    ctx = load_context(ws)
    assert ctx.mode is Mode.STRICT and ctx.thresholds.ask == 41
    assert ctx.policy is not None and ctx.policy.notes == ()
    entries = drift.history(ws)
    assert [e["kind"] for e in entries] == ["tighten"]
    write_policy(
        Path(ws, "limen.yaml"), "mode: paranoid\nchain:\n  - layer: denylist\n    hosts: [x.example]\n"
    )
    assert load_context(ws).mode is Mode.PARANOID
    assert [e["kind"] for e in drift.history(ws)] == ["tighten", "tighten"]


def test_a_loosening_edit_is_refused_until_approved_with_totp(
    ws: str, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = Path(ws, "limen.yaml")
    write_policy(
        policy,
        """
        mode: strict
        chain:
          - layer: denylist
            hosts: [pastebin.com]
    """,
    )
    assert load_context(ws).mode is Mode.STRICT
    totp = totp_secret(capsys)

    # A hand edit lowers the mode and removes the deny: refused, the approved policy still applies.
    write_policy(policy, "mode: light\n")
    ctx = load_context(ws)
    assert ctx.mode is Mode.STRICT
    assert ctx.policy is not None and "mode strict -> light" in ctx.policy.notes[-1]
    d = decision(ctx, "WebFetch", {"url": "https://pastebin.com/raw/x"})
    assert d.verdict is Verdict.BLOCK and ReasonCode.POLICY_DENIED in d.reasons
    assert d.evidence[0].stage == "policy:drift"

    # `config check` reports it, then the change is proposed and approved with a real TOTP code.
    assert limen(["config", "check", "--workspace", ws]) == 1
    assert "not approved yet: mode strict -> light" in capsys.readouterr().out
    assert limen(["policy", "--workspace", ws, "status"]) == 0
    assert "waiting for approval: mode strict -> light" in capsys.readouterr().out
    assert limen(["policy", "--workspace", ws, "propose"]) == 0
    change_id = capsys.readouterr().out.split()[0]
    assert limen(["policy", "--workspace", ws, "pending"]) == 0
    assert capsys.readouterr().out.startswith(change_id)
    stale = totp.at(time.time() - 3600)
    assert limen(["policy", "--workspace", ws, "approve", change_id, "--code", stale]) == 1
    assert load_context(ws).mode is Mode.STRICT
    assert limen(["policy", "--workspace", ws, "approve", change_id, "--code", totp.now()]) == 0
    ctx = load_context(ws)
    assert ctx.mode is Mode.LIGHT and ctx.policy is not None and ctx.policy.notes == ()
    assert decision(ctx, "WebFetch", {"url": "https://pastebin.com/raw/x"}).verdict is not Verdict.BLOCK

    approved = drift.history(ws)[-1]
    assert approved["kind"] == "approve" and approved["factor"] == "totp" and approved["who"]
    assert "mode strict -> light" in approved["diff"]


def test_a_totp_code_cannot_be_replayed(ws: str, capsys: pytest.CaptureFixture[str]) -> None:
    totp = totp_secret(capsys)
    code = totp.now()
    assert drift.verify_factor(code=code, password=None) == "totp"
    with pytest.raises(drift.DriftError):
        drift.verify_factor(code=code, password=None)


def test_an_edit_after_the_proposal_must_be_proposed_again(ws: str) -> None:
    drift.setup_password("correct horse battery")
    write_policy(Path(ws, "limen.yaml"), "mode: light\n")
    current, fp, default = effective.from_files(ws)
    record = drift.propose(ws, current, fp, default)
    write_policy(Path(ws, "limen.yaml"), "mode: light\ntrusted_hosts: {add: [evil.example]}\n")
    _, new_fp, _ = effective.from_files(ws)
    with pytest.raises(drift.DriftError, match="changed after this proposal"):
        drift.approve(
            ws,
            record["id"],
            current=current,
            current_fp=new_fp,
            default=default,
            password="correct horse battery",
        )
    with pytest.raises(drift.DriftError, match="password does not verify"):
        drift.approve(
            ws, record["id"], current=current, current_fp=fp, default=default, password="wrong password!"
        )


def test_the_edit_keeps_its_tightenings_while_its_loosening_waits(ws: str) -> None:
    write_policy(
        Path(ws, "limen.yaml"), "mode: light\nchain:\n  - layer: denylist\n    hosts: [pastebin.com]\n"
    )
    ctx = load_context(ws)
    assert ctx.mode is Mode.BALANCED  # light waits for approval
    assert decision(ctx, "WebFetch", {"url": "https://pastebin.com/x"}).verdict is Verdict.BLOCK


def test_an_approved_waiver_mutes_one_code_for_its_scope_only(ws: str) -> None:
    env = Path(ws, ".env")
    env.write_text("A=1\n")
    write_policy(
        Path(ws, "limen.yaml"),
        """
        waivers:
          - code: sensitive_secret_access
            paths: ["${workspace}/.env"]
            expires: 2099-12-31
            reason: the app reads its own local settings
    """,
    )
    before = decision(load_context(ws), "Read", {"file_path": str(env)})
    assert ReasonCode.SENSITIVE_SECRET_ACCESS in before.reasons  # not approved yet
    approve_files(ws)
    ctx = load_context(ws)
    assert ReasonCode.SENSITIVE_SECRET_ACCESS not in decision(ctx, "Read", {"file_path": str(env)}).reasons
    other = decision(ctx, "Read", {"file_path": str(Path(ws, "sub", ".env"))})
    assert ReasonCode.SENSITIVE_SECRET_ACCESS in other.reasons


def test_a_damaged_ledger_falls_back_to_the_defaults(ws: str) -> None:
    write_policy(Path(ws, "limen.yaml"), "mode: light\n")
    approve_files(ws)
    assert load_context(ws).mode is Mode.LIGHT
    ledger = Path(drift.ledger_path(ws))
    entry = json.loads(ledger.read_text().splitlines()[-1])
    entry["policy"]["mode"] = "light"
    entry["who"] = "mallory"
    ledger.write_text(json.dumps(entry) + "\n")
    ctx = load_context(ws)
    assert ctx.mode is Mode.BALANCED
    assert ctx.policy is not None and any("damaged" in n for n in ctx.policy.notes)


def test_history_lists_who_when_and_what(
    ws: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(drift, "_now", lambda: "2026-03-01T09:30:00+00:00")  # the ledger's clock
    write_policy(Path(ws, "limen.yaml"), "mode: light\n")
    approve_files(ws)
    assert limen(["policy", "--workspace", ws, "history", "--json"]) == 0
    entries = json.loads(capsys.readouterr().out)
    assert entries[-1]["kind"] == "approve" and entries[-1]["factor"] == "password"
    assert "mode balanced -> light" in entries[-1]["diff"]
    assert entries[-1]["at"] == "2026-03-01T09:30:00+00:00"


def test_an_unapproved_allow_rule_allows_nothing(ws: str) -> None:
    write_policy(
        Path(ws, "limen.yaml"),
        """
        chain:
          - layer: rules
            rules:
              - id: reads-ok
                match: {capability: filesystem.read}
                effect: allow
    """,
    )
    ctx = load_context(ws)
    read = {"path": f"{ws}/README.md"}
    held = decision(ctx, "filesystem.read", read, door="sdk")
    assert held.verdict is Verdict.BLOCK and ReasonCode.POLICY_DENIED in held.reasons  # SDK default deny
    assert any(
        s.stage == "policy:project+unapproved:rules#0" and s.details[0] == "allow" for s in held.evidence
    )
    approve_files(ws)
    assert (
        ReasonCode.POLICY_DENIED
        not in decision(load_context(ws), "filesystem.read", read, door="sdk").reasons
    )
