"""The decision engine: one path for every door.

    policy chain -> objective rules -> subjective layer -> risk thresholds -> hard floors
    (each later stage is merged with `combine()`, so none can lower what an earlier one decided)

Invariants (each property-tested in tests/test_engine_invariants.py):
- `combine()` uses only max over verdicts and risks and a union of reasons: it never lowers anything.
- An objective non-PASS is final: the subjective layer does not run and cannot observe it.
- A subjective BLOCK stands only with a reason on `HARD_BLOCK_ALLOWLIST`; otherwise it becomes AUTH.
- Errors are signals: a rule that raises -> `rule_error` (AUTH; BLOCK for a plug-in), the objective
  guardrail failing as a whole -> BLOCK, the subjective layer failing -> AUTH, a call that could not be
  normalised -> `normalization_failed`, escalated to AUTH (never passed through raw).
- Floors run last and ignore waivers.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable
from time import perf_counter_ns

from limen import floors, rules, subjective
from limen.context import Context
from limen.model import (
    Action,
    Decision,
    Finding,
    ReasonCode,
    StageResult,
    Verdict,
)
from limen.rules import derived

# Decision ids: unique across processes (random prefix) without a system call per decision.
_ID_PREFIX = os.urandom(5).hex()
_sequence = itertools.count()

HARD_BLOCK_ALLOWLIST = frozenset({ReasonCode.LETHAL_TRIFECTA})

# Where a capability's risk starts before any finding (the SDK spec's baselines, tuned for coding agents).
CAPABILITY_BASELINE: dict[str, int] = {
    "filesystem.read": 5,
    "filesystem.write": 20,
    "filesystem.delete": 45,
    "shell.execute": 20,
    "repository.write": 35,
    "network.request": 25,
    "email.send": 40,
    "message.send": 40,
    "payments.transfer": 45,
    # a statement that changes rows or tables (INSERT, UPDATE ... WHERE, CREATE): below the ask threshold, as
    # the same statement through `psql -c` is; one that destroys data is `destructive_command`'s
    "db.write": 45,
    "agent.delegate": 10,
    "mcp.call": 20,
    "unknown": 30,
}

SubjectiveDetector = Callable[[Action, Context], Iterable[Finding]]


def combine(a: StageResult, b: StageResult, stage: str = "combine") -> StageResult:
    """The higher verdict, the higher risk, the union of reasons: never lower than either input."""
    reasons = a.reasons + tuple(r for r in b.reasons if r not in a.reasons)
    return StageResult(stage, max(a.verdict, b.verdict), max(a.risk, b.risk), reasons, a.details + b.details)


def _stage(name: str, findings: list[Finding], baseline: int, started: int) -> StageResult:
    if not findings:  # the common case: nothing to merge
        return StageResult(
            name, Verdict.PASS, min(baseline, 100), micros=(perf_counter_ns() - started) / 1000
        )
    verdict = Verdict.PASS
    risk = baseline
    reasons: list[ReasonCode] = []
    details: list[str] = []
    for f in findings:
        verdict = max(verdict, f.verdict)
        risk = max(risk, f.risk)
        if f.code not in reasons:
            reasons.append(f.code)
        if f.detail:
            details.append(f"{f.code.value}: {f.detail}")
    return StageResult(
        name, verdict, min(risk, 100), tuple(reasons), tuple(details), (perf_counter_ns() - started) / 1000
    )


def _run_objective(action: Action, ctx: Context, waived: frozenset[str]) -> list[Finding]:
    findings: list[Finding] = []
    if "normalization_failed" in action.notes:
        findings.append(
            Finding(ReasonCode.NORMALIZATION_FAILED, Verdict.AUTH, 80, "the call could not be normalised")
        )
    asked_again = derived.ASKED_AGAIN  # rules a floor or the runtime asks again (`derived.rule_findings`)
    append = findings.append
    for rule in rules.runnable(rules.filled_fields(action)):  # those with something to judge
        check = rule.check
        mark = len(findings)
        try:
            for found in check(action, ctx):  # what it yielded before raising is kept too
                append(found)
            if check in asked_again:
                derived.memo(action)[check] = (ctx, findings[mark:])
        except Exception as exc:  # a rule's failure is a signal, never a skipped rule
            verdict = Verdict.BLOCK if rule.plugin else Verdict.AUTH
            append(
                Finding(
                    ReasonCode.RULE_ERROR,
                    verdict,
                    95 if rule.plugin else 60,
                    f"{rule.name} raised {type(exc).__name__}",
                )
            )
    if waived:
        findings = [f for f in findings if f.code.value not in waived]
    return findings


def _run_subjective(action: Action, ctx: Context) -> list[Finding]:
    findings: list[Finding] = []
    for detect in subjective.detectors():
        findings.extend(detect(action, ctx))
    clamped: list[Finding] = []
    for f in findings:
        if f.verdict is Verdict.BLOCK and f.code not in HARD_BLOCK_ALLOWLIST:
            clamped.append(Finding(f.code, Verdict.AUTH, min(f.risk, 90), f.detail))
            clamped.append(
                Finding(
                    ReasonCode.SUBJECTIVE_BLOCK_CLAMPED,
                    Verdict.AUTH,
                    min(f.risk, 90),
                    f"{f.code.value} clamped to AUTH",
                )
            )
        else:
            clamped.append(f)
    return clamped


def _threshold_findings(result: StageResult, ctx: Context) -> list[Finding]:
    t = ctx.thresholds
    if result.risk >= t.deny and result.verdict < Verdict.BLOCK:
        return [
            Finding(ReasonCode.RISK_THRESHOLD, Verdict.BLOCK, result.risk, f"risk {result.risk} >= {t.deny}")
        ]
    if result.risk >= t.ask and result.verdict < Verdict.AUTH:
        return [
            Finding(ReasonCode.RISK_THRESHOLD, Verdict.AUTH, result.risk, f"risk {result.risk} >= {t.ask}")
        ]
    return []


def decide(action: Action, ctx: Context) -> Decision:
    """Decide one normalised action. Never raises: every failure is itself a finding."""
    evidence: list[StageResult] = []
    all_findings: list[Finding] = []
    baseline = CAPABILITY_BASELINE.get(action.capability, CAPABILITY_BASELINE["unknown"])
    waived = ctx.waived

    # 1. Policy chain: the first terminal layer wins; "allow" only means "no policy objection".
    if ctx.chain is not None:
        started = perf_counter_ns()
        try:
            outcome = ctx.chain.evaluate(action)
            chain_findings = list(outcome.findings)
            evidence.extend(outcome.trail)
            waived = waived | outcome.waived
        except Exception as exc:
            chain_findings = [
                Finding(
                    ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,
                    Verdict.BLOCK,
                    95,
                    f"policy chain raised {type(exc).__name__}",
                )
            ]
        all_findings.extend(chain_findings)
        evidence.append(_stage("policy", chain_findings, 0, started))

    # 2. Objective rules: deterministic; any non-PASS is final.
    started = perf_counter_ns()
    try:
        objective_findings = _run_objective(action, ctx, waived)
    except Exception as exc:
        objective_findings = [
            Finding(
                ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,
                Verdict.BLOCK,
                95,
                f"objective guardrail raised {type(exc).__name__}",
            )
        ]
    all_findings.extend(objective_findings)
    objective = _stage("objective", objective_findings, baseline, started)
    evidence.append(objective)
    result = combine(evidence[-2], objective) if ctx.chain is not None else objective

    # 3. Subjective layer: only when nothing objective objected; raise-only, BLOCK clamped.
    if result.verdict is Verdict.PASS:
        started = perf_counter_ns()
        try:
            subjective_findings = _run_subjective(action, ctx)
        except Exception as exc:
            subjective_findings = [
                Finding(
                    ReasonCode.SUBJECTIVE_GUARDRAIL_ERROR,
                    Verdict.AUTH,
                    60,
                    f"subjective layer raised {type(exc).__name__}",
                )
            ]
        all_findings.extend(subjective_findings)
        subjective = _stage("subjective", subjective_findings, 0, started)
        evidence.append(subjective)
        if subjective_findings:
            result = combine(result, subjective)

    # 4. Risk thresholds of the mode turn a high score into AUTH or BLOCK (raise only).
    threshold = _threshold_findings(result, ctx)
    if threshold:
        all_findings.extend(threshold)
        result = combine(result, _stage("thresholds", threshold, 0, perf_counter_ns()))

    decision = Decision(
        result.verdict, result.risk, result.reasons, "", evidence, tuple(all_findings), action
    )

    # 5. Hard floors: cannot be waived or approved away.
    started = perf_counter_ns()
    try:
        floor_findings = floors.run_floors(action, ctx, decision)
    except Exception as exc:
        floor_findings = [
            Finding(
                ReasonCode.OBJECTIVE_GUARDRAIL_ERROR, Verdict.BLOCK, 95, f"floors raised {type(exc).__name__}"
            )
        ]
    if floor_findings:
        floor_stage = _stage("floors", floor_findings, 0, started)
        evidence.append(floor_stage)
        result = combine(result, floor_stage)
        all_findings.extend(floor_findings)

    decision.verdict, decision.risk, decision.reasons = result.verdict, result.risk, result.reasons
    decision.findings = tuple(all_findings)
    decision.explanation = explain(decision)
    decision.decision_id = f"{_ID_PREFIX}{next(_sequence):06x}"
    if ctx.policy is not None and ctx.policy.monitor:  # approved monitor mode: record, let through
        from limen.policy.monitor import monitored

        monitored(decision)
    return decision


def explain(decision: Decision) -> str:
    """One line a person can act on: the verdict, the strongest finding and its detail."""
    if decision.verdict is Verdict.PASS:
        return "PASS: no rule objected"
    strongest = max(decision.findings, key=lambda f: (f.verdict, f.risk), default=None)
    if strongest is None:
        return f"{decision.verdict.name}: {', '.join(r.value for r in decision.reasons)}"
    more = len(decision.reasons) - 1
    tail = f" (+{more} more)" if more > 0 else ""
    detail = f" ({strongest.detail})" if strongest.detail else ""
    return f"{decision.verdict.name}: {strongest.code.value}{detail}{tail}"
