"""What a security review found: codes nothing mutes, the SDK door's default, broken files, threads."""

from __future__ import annotations

import ast
import os
import pkgutil
import sys
import threading
import time
import traceback
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from limen import floors
from limen.cli import main as limen
from limen.cli.tune import suggestions
from limen.floors import FLOOR_CODES
from limen.model import Decision, ReasonCode, Verdict
from limen.policy import PolicyError, load_context
from limen.policy.check import check_workspace
from limen.policy.doors import AGENT_DOORS
from limen.policy.monitor import monitored
from limen.policy.schema import PolicyFile
from limen.policy.unmutable import ERROR_SIGNALS, UNMUTABLE, UNWAIVABLE
from limen.runtime import Runtime
from policy_helpers import approve_files, decision, no_org_policy, write_policy

MONITOR = """
enforcement: monitor
acknowledge: [monitor]
chain:
  - layer: denylist
    hosts: [pastebin.com]
"""


@pytest.fixture(autouse=True)
def isolated_org(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    no_org_policy(monkeypatch, tmp_path_factory.mktemp("org"))


@pytest.fixture
def ws(tmp_path: Path) -> str:
    return os.path.realpath(tmp_path)


# -- 1. one list of codes nothing mutes -------------------------------------------------------------


def test_a_halted_session_stays_blocked_under_approved_monitor_mode(ws: str) -> None:
    write_policy(Path(ws, "limen.yaml"), MONITOR)
    approve_files(ws)
    rt = Runtime(workspace=ws)
    try:
        read = {"file_path": f"{ws}/README.md"}
        assert rt.decide("Read", read, session_id="h", door="hook").verdict is Verdict.PASS
        assert limen(["session", "halt", "h", "--reason", "runaway agent"]) == 0
        halted = rt.decide("Read", read, session_id="h", door="hook")
        assert halted.verdict is Verdict.BLOCK and ReasonCode.SESSION_HALTED in halted.reasons
        assert halted.evidence[-1].stage == "monitor" and "session_halted" in halted.evidence[-1].details[0]
        listed = rt.decide("WebFetch", {"url": "https://pastebin.com/raw/x"}, session_id="other", door="hook")
        assert listed.verdict is Verdict.PASS  # monitor still lets a policy denial through
    finally:
        rt.close()


def test_the_unmutable_list_covers_floors_errors_and_protections() -> None:
    assert FLOOR_CODES <= UNMUTABLE and ERROR_SIGNALS <= UNMUTABLE
    assert {ReasonCode.PROTECTED_PATH_BLOCKED, ReasonCode.SECRET_EXFILTRATION} <= UNMUTABLE
    assert UNMUTABLE | {ReasonCode.POLICY_DENIED, ReasonCode.POLICY_ASK} == UNWAIVABLE


def test_floor_codes_lists_every_code_a_floor_can_raise() -> None:
    """A floor code missing from FLOOR_CODES would be muted by monitor mode and offered a waiver."""
    raised = set()
    for module in pkgutil.iter_modules(floors.__path__):
        source = Path(floors.__path__[0], f"{module.name}.py").read_text()
        for node in ast.walk(ast.parse(source)):
            value = node.value if isinstance(node, ast.Attribute) else None
            if isinstance(node, ast.Attribute) and isinstance(value, ast.Name) and value.id == "ReasonCode":
                raised.add(ReasonCode[node.attr])
    assert raised and raised <= FLOOR_CODES, raised - FLOOR_CODES


@pytest.mark.parametrize("code", sorted(UNMUTABLE))
def test_monitor_mode_keeps_the_verdict_of_every_unmutable_code(code: ReasonCode) -> None:
    d = Decision(Verdict.BLOCK, 90, (ReasonCode.POLICY_DENIED, code), "BLOCK: x")
    monitored(d)
    assert d.verdict is Verdict.BLOCK and d.evidence[-1].reasons == (code,)


def test_monitor_mode_lets_through_what_can_be_muted() -> None:
    d = Decision(Verdict.AUTH, 70, (ReasonCode.DESTRUCTIVE_COMMAND,), "AUTH: destructive_command")
    monitored(d)
    assert d.verdict is Verdict.PASS and d.evidence[-1].details == ("would be AUTH",)


def test_no_waiver_and_no_tune_suggestion_for_a_halted_session(ws: str) -> None:
    write_policy(
        Path(ws, "limen.yaml"),
        """
        waivers:
          - code: session_halted
            paths: ["/tmp/**"]
            expires: 2099-01-01
            reason: friction
        """,
    )
    with pytest.raises(PolicyError) as raised:
        load_context(ws)
    assert [(p.key, p.severity) for p in raised.value.problems] == [("waivers[0].code", "error")]
    assert "cannot be waived" in raised.value.problems[0].message
    record = {"verdict": "BLOCK", "reasons": ["session_halted"], "tool": "Read"}
    [entry] = suggestions([record], date(2099, 1, 1))
    assert entry["waiver"] is None
    [entry] = suggestions([{**record, "reasons": ["destructive_command"]}], date(2099, 1, 1))
    assert entry["waiver"]["code"] == "destructive_command"


# -- 2. the SDK door's default is explicit ----------------------------------------------------------


def test_an_unset_default_denies_for_the_sdk_and_unknown_doors_only(ws: str) -> None:
    write_policy(Path(ws, "limen.yaml"), "mode: balanced\n")
    ctx = load_context(ws)
    read = {"file_path": f"{ws}/README.md"}
    for door in ("sdk", "SDK", "my-agent", ""):
        d = decision(ctx, "Read", read, door=door)
        assert d.verdict is Verdict.BLOCK and ReasonCode.POLICY_DENIED in d.reasons, door
    for door in sorted(AGENT_DOORS):
        assert ReasonCode.POLICY_DENIED not in decision(ctx, "Read", read, door=door).reasons, door


def test_by_door_is_the_explicit_spelling_of_unset(ws: str) -> None:
    assert PolicyFile.model_validate({"default_action": "by_door"}).default_action is None
    write_policy(Path(ws, "limen.yaml"), "default_action: by_door\n")
    ctx = load_context(ws)
    read = {"file_path": f"{ws}/README.md"}
    assert ReasonCode.POLICY_DENIED in decision(ctx, "Read", read, door="sdk").reasons
    assert ReasonCode.POLICY_DENIED not in decision(ctx, "Read", read, door="hook").reasons
    assert check_workspace(ws) == []


def test_config_check_warns_when_default_action_is_unset_and_says_what_each_door_does(
    ws: str, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = write_policy(Path(ws, "limen.yaml"), "mode: strict\n")
    assert limen(["config", "check", "--workspace", ws]) == 0  # a warning, not an error
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{policy}: warning: default_action: default_action is unset: ")
    assert (
        "denied through the SDK door" in out[0] and "left to the guardrails through the agent doors" in out[0]
    )
    assert out[-1] == "0 error(s), 1 warning(s)"


# -- 3. a broken file says where --------------------------------------------------------------------


def test_policy_error_summary_names_the_first_problem_without_values(ws: str) -> None:
    policy = write_policy(
        Path(ws, "limen.yaml"),
        """
        mode: balanced
        waivers:
          - code: ghp_notarealtokenbutavalue
            expires: 2099-01-01
            reason: r
        """,
    )
    with pytest.raises(PolicyError) as raised:
        load_context(ws)
    summary = raised.value.summary()
    assert summary.startswith(f"policy error: {policy}:")
    assert "ghp_notarealtokenbutavalue" not in summary
    assert summary.endswith("(+1 more); run `limen config check`")
    assert summary.startswith(f"policy error: {policy}:4: waivers[0].code: unknown reason code '…'")


def test_a_cached_policy_error_does_not_grow_with_each_call(ws: str) -> None:
    """The daemon asks once per decision: a re-raised cached exception would keep every traceback."""
    write_policy(Path(ws, "limen.yaml"), "mode: lenient\n")
    depths = []
    for _ in range(3):
        with pytest.raises(PolicyError) as raised:
            load_context(ws)
        depths.append(len(traceback.extract_tb(raised.value.__traceback__)))
    assert depths[0] == depths[1] == depths[2]


def test_a_broken_file_blocks_every_call(ws: str) -> None:
    write_policy(Path(ws, "limen.yaml"), "mode: lenient\n")
    rt = Runtime(workspace=ws)
    try:
        d = rt.decide("Read", {"file_path": f"{ws}/README.md"}, session_id="s", door="hook")
    finally:
        rt.close()
    assert d.verdict is Verdict.BLOCK


# -- 4. the compiled-policy cache under threads ------------------------------------------------------


class YieldingDict(dict[Any, Any]):
    """The cache, handing the GIL to another thread after each insert: the race window made wide."""

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        time.sleep(0)


def test_load_context_is_safe_from_many_threads(ws: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """More keys than the cache holds, so threads clear it while others insert and read."""
    import limen.policy as policy

    monkeypatch.setattr(policy, "_cache", YieldingDict())
    workspaces = [os.path.join(ws, f"w{i}") for i in range(30)]
    for w in workspaces:
        write_policy(Path(w, "limen.yaml"), "mode: strict\n")
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def worker(n: int) -> None:
        start.wait()
        try:
            for i in range(300):  # 30 workspaces x 3 modes: 90 keys
                w = workspaces[(n * 7 + i) % len(workspaces)]
                ctx = load_context(w, mode=("strict", "paranoid", None)[(n + i // 30) % 3])
                assert ctx.workspace == w
        except BaseException as exc:  # the test reports whatever a thread hit
            errors.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
