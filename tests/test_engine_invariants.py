"""The decision invariants of DESIGN.md, each checked as a property or with a rule that misbehaves."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

import limen.rules
import limen.subjective
from limen.context import Context
from limen.engine import combine, decide
from limen.model import Action, Finding, Mode, ReasonCode, StageResult, Verdict
from limen.normalize import normalize
from limen.rules import Rule

verdicts = st.sampled_from(list(Verdict))
codes = st.sampled_from(list(ReasonCode))
stages = st.builds(
    StageResult,
    stage=st.just("s"),
    verdict=verdicts,
    risk=st.integers(0, 100),
    reasons=st.lists(codes, max_size=4, unique=True).map(tuple),
)


@given(stages, stages)
def test_combine_never_lowers_anything(a: StageResult, b: StageResult) -> None:
    c = combine(a, b)
    assert c.verdict >= a.verdict and c.verdict >= b.verdict
    assert c.risk >= a.risk and c.risk >= b.risk
    assert set(a.reasons) | set(b.reasons) == set(c.reasons)


@pytest.fixture
def extra_rules(monkeypatch: pytest.MonkeyPatch) -> list[Rule]:
    """Rules appended to the loaded registry for one test."""
    added: list[Rule] = []
    base = limen.rules.objective_rules()

    def loaded() -> tuple[Rule, ...]:
        return (*base, *added)

    monkeypatch.setattr(limen.rules, "objective_rules", loaded)
    return added


@pytest.fixture
def extra_detectors(monkeypatch: pytest.MonkeyPatch) -> list[limen.subjective.Detector]:
    added: list[limen.subjective.Detector] = []
    base = limen.subjective.detectors()
    monkeypatch.setattr(limen.subjective, "detectors", lambda: (*base, *added))
    return added


def _finding(verdict: Verdict, code: ReasonCode = ReasonCode.UNUSUAL_FOR_WORKFLOW) -> Finding:
    return Finding(code, verdict, {Verdict.PASS: 0, Verdict.AUTH: 60, Verdict.BLOCK: 95}[verdict])


def _read(workspace: str, name: str = "README.md") -> Action:
    return normalize("Read", {"file_path": f"{workspace}/{name}"}, cwd=workspace)


@given(verdict=verdicts)
def test_objective_non_pass_is_final(verdict: Verdict) -> None:
    """The subjective layer neither runs nor sees an objective AUTH/BLOCK."""
    import tempfile

    seen: list[Action] = []

    def spy(action: Action, ctx: Context) -> Iterable[Finding]:
        seen.append(action)
        return [_finding(Verdict.AUTH)]

    def objective(action: Action, ctx: Context) -> Iterator[Finding]:
        if verdict is not Verdict.PASS:
            yield _finding(verdict, ReasonCode.DESTRUCTIVE_COMMAND)

    base_rules, base_detectors = limen.rules.objective_rules(), limen.subjective.detectors()
    rules_before, detectors_before = limen.rules.objective_rules, limen.subjective.detectors
    limen.rules.objective_rules = lambda: (*base_rules, Rule("test.objective", frozenset(), objective))  # type: ignore[assignment]
    limen.subjective.detectors = lambda: (*base_detectors, spy)  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as ws:
            decision = decide(_read(ws), Context.for_mode(Mode.BALANCED, ws))
    finally:
        limen.rules.objective_rules, limen.subjective.detectors = rules_before, detectors_before
    assert (len(seen) == 0) == (verdict is not Verdict.PASS)
    assert decision.verdict >= verdict


def test_subjective_block_is_clamped_unless_allowlisted(workspace: str, extra_detectors: list) -> None:
    extra_detectors.append(lambda a, c: [_finding(Verdict.BLOCK, ReasonCode.UNUSUAL_FOR_DEPLOYMENT)])
    decision = decide(_read(workspace), Context.for_mode(Mode.BALANCED, workspace))
    assert decision.verdict is Verdict.AUTH
    assert ReasonCode.SUBJECTIVE_BLOCK_CLAMPED in decision.reasons

    extra_detectors.append(lambda a, c: [_finding(Verdict.BLOCK, ReasonCode.LETHAL_TRIFECTA)])
    decision = decide(_read(workspace), Context.for_mode(Mode.BALANCED, workspace))
    assert decision.verdict is Verdict.BLOCK
    assert ReasonCode.LETHAL_TRIFECTA in decision.reasons


def _raises(action: Action, ctx: Context) -> Iterable[Finding]:
    raise RuntimeError("boom")


def test_a_rule_that_raises_is_rule_error_auth(workspace: str, extra_rules: list[Rule]) -> None:
    extra_rules.append(Rule("test.broken", frozenset(), _raises))
    decision = decide(_read(workspace), Context.for_mode(Mode.BALANCED, workspace))
    assert decision.verdict is Verdict.AUTH
    assert decision.reasons == (ReasonCode.RULE_ERROR,)
    assert "boom" not in decision.explanation  # exception messages never leak


def test_a_plugin_that_raises_blocks(workspace: str, extra_rules: list[Rule]) -> None:
    extra_rules.append(Rule("plugin:broken", frozenset(), _raises, plugin=True))
    decision = decide(_read(workspace), Context.for_mode(Mode.BALANCED, workspace))
    assert decision.verdict is Verdict.BLOCK
    assert ReasonCode.RULE_ERROR in decision.reasons


def test_objective_guardrail_failure_blocks(workspace: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_registry() -> tuple[Rule, ...]:
        raise ImportError("rule module missing")

    monkeypatch.setattr(limen.rules, "objective_rules", broken_registry)
    decision = decide(_read(workspace), Context.for_mode(Mode.BALANCED, workspace))
    assert decision.verdict is Verdict.BLOCK
    assert decision.reasons == (ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,)


def test_subjective_failure_escalates_to_auth(workspace: str, extra_detectors: list) -> None:
    extra_detectors.append(_raises)
    decision = decide(_read(workspace), Context.for_mode(Mode.BALANCED, workspace))
    assert decision.verdict is Verdict.AUTH
    assert decision.reasons == (ReasonCode.SUBJECTIVE_GUARDRAIL_ERROR,)


def test_floor_failure_blocks(workspace: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import limen.floors

    def broken(action: Action, ctx: Context, decision: object) -> list[Finding]:
        raise RuntimeError("floor broke")

    monkeypatch.setattr(limen.floors, "FLOORS", (*limen.floors.FLOORS, broken))
    decision = decide(_read(workspace), Context.for_mode(Mode.BALANCED, workspace))
    assert decision.verdict is Verdict.BLOCK
    assert ReasonCode.OBJECTIVE_GUARDRAIL_ERROR in decision.reasons


@pytest.mark.parametrize("mode", list(Mode))
def test_risk_thresholds_raise_per_mode(mode: Mode, workspace: str, extra_detectors: list) -> None:
    ctx = Context.for_mode(mode, workspace)
    extra_detectors.append(
        lambda a, c: [Finding(ReasonCode.UNUSUAL_FOR_WORKFLOW, Verdict.PASS, ctx.thresholds.ask)]
    )
    decision = decide(_read(workspace), ctx)
    assert decision.verdict is Verdict.AUTH
    assert ReasonCode.RISK_THRESHOLD in decision.reasons


def test_waivers_do_not_reach_floors(workspace: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import limen.floors

    def floor(action: Action, ctx: Context, decision: object) -> list[Finding]:
        return [Finding(ReasonCode.CONFIRMED_EXFIL, Verdict.BLOCK, 100)]

    monkeypatch.setattr(limen.floors, "FLOORS", (floor,))
    ctx = Context.for_mode(Mode.LIGHT, workspace, waived=frozenset({"confirmed_exfil"}))
    assert decide(_read(workspace), ctx).verdict is Verdict.BLOCK


def test_a_rule_that_needs_a_field_is_skipped_only_when_it_is_empty(
    workspace: str, extra_rules: list[Rule]
) -> None:
    seen: list[str] = []

    def spy(action: Action, ctx: Context) -> Iterable[Finding]:
        seen.append(action.tool)
        return []

    extra_rules.append(Rule("test.needs_commands", frozenset(), spy, needs=("commands",)))
    ctx = Context.for_mode(Mode.BALANCED, workspace)
    decide(_read(workspace), ctx)
    decide(normalize("Bash", {"command": "ls"}, cwd=workspace), ctx)
    assert seen == ["Bash"]


def test_a_rule_that_needs_either_of_two_fields_runs_when_one_is_set(
    workspace: str, extra_rules: list[Rule]
) -> None:
    seen: list[str] = []

    def spy(action: Action, ctx: Context) -> Iterable[Finding]:
        seen.append(action.tool)
        return []

    extra_rules.append(Rule("test.needs_either", frozenset(), spy, needs=("commands", "write_paths")))
    ctx = Context.for_mode(Mode.BALANCED, workspace)
    decide(_read(workspace), ctx)
    decide(normalize("Write", {"file_path": "a.txt", "content": "x"}, cwd=workspace), ctx)
    decide(normalize("Bash", {"command": "ls"}, cwd=workspace), ctx)
    assert seen == ["Write", "Bash"]
