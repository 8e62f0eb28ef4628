"""`limen.evaluate` never raises: bad input ends in AUTH or BLOCK with a reason code."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import limen
from limen.model import Decision, ReasonCode, Verdict

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)
tool_names = (
    st.sampled_from(["Bash", "Read", "Write", "WebFetch", "mcp__x__send_email", "Task", "??"]) | st.text()
)


def _assert_sound(decision: Decision) -> None:
    assert isinstance(decision.verdict, Verdict)
    assert 0 <= decision.risk <= 100
    if decision.verdict is not Verdict.PASS:
        assert decision.reasons, "a non-PASS decision always names a reason"
    assert decision.explanation
    # Errors are escalated, but the fuzzed input must be decided, not crash a stage.
    crashes = {
        ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,
        ReasonCode.RULE_ERROR,
        ReasonCode.SUBJECTIVE_GUARDRAIL_ERROR,
    }
    assert not crashes & set(decision.reasons), decision.explanation


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tool=tool_names, arguments=json_values)
def test_any_json_never_raises(tool: str, arguments: Any, workspace: str) -> None:
    decision = limen.evaluate(tool, arguments, cwd=workspace)
    _assert_sound(decision)
    if not isinstance(arguments, dict) or not tool:
        assert decision.verdict >= Verdict.AUTH
        assert ReasonCode.NORMALIZATION_FAILED in decision.reasons


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.text(alphabet=st.characters(codec=None), max_size=300))
def test_any_shell_text_never_raises(command: str, workspace: str) -> None:
    _assert_sound(limen.evaluate("Bash", {"command": command}, cwd=workspace))


@pytest.mark.parametrize(
    "arguments",
    [
        {"command": "\ud800\udfff invalid surrogates \udc80"},
        {"command": "x" * 2_000_000},
        {"command": "echo " + "$(" * 600 + "x" + ")" * 600},
        {"command": "echo " + "'" * 999},
        {"file_path": None},
        {"command": ["rm", "-rf", "/"]},
    ],
    ids=["surrogates", "huge", "deep-nesting", "unbalanced-quotes", "null-path", "argv-list"],
)
def test_hostile_arguments_are_decided(arguments: dict[str, Any], workspace: str) -> None:
    _assert_sound(limen.evaluate("Bash", arguments, cwd=workspace))


def test_huge_arguments_escalate(workspace: str) -> None:
    decision = limen.evaluate("Write", {"file_path": "a.txt", "content": "x" * 2_000_000}, cwd=workspace)
    assert decision.verdict is Verdict.AUTH
    assert ReasonCode.NORMALIZATION_FAILED in decision.reasons


def test_malformed_json_event_is_refused_by_explain() -> None:
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "limen", "explain"], input="{not json", capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_unknown_mode_does_not_loosen(workspace: str) -> None:
    decision = limen.evaluate("Read", {"file_path": "~/.ssh/id_rsa"}, cwd=workspace, mode="yolo")
    assert decision.verdict >= Verdict.AUTH


def test_decision_serialises_to_json(workspace: str) -> None:
    decision = limen.evaluate("Read", {"file_path": "~/.ssh/id_rsa"}, cwd=workspace)
    assert json.loads(json.dumps(decision.to_dict()))["verdict"] in ("AUTH", "BLOCK")
