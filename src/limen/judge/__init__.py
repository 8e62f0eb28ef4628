"""The raise-only LLM judge (the seeds' adjudicator): a second opinion where the engine is unsure.

Where it hooks in (`limen.runtime.Runtime`, after `engine.decide`, and after the output scan):

- `review(action, ctx, decision)`: a tool call the engine put in the AUTH zone (a human will be asked
  anyway). PASS and BLOCK decisions are never sent: a PASS the judge disliked would have to be raised on the
  judge's word alone, and a BLOCK cannot go higher.
- `review_output(text, ctx, decision)`: untrusted content (a tool result, a fetched page) whose Tier 2 score
  (`limen.turngate.tier2`) lies in the uncertain band just below its threshold (`tier2_band`).

What it may do: in `shadow` mode (the first mode to run), nothing: what it would have said is a `judge_shadow`
stage of the evidence (and so of the audit record). In `enforce` mode, an AUTH or BLOCK answer adds
`judge_objection` (AUTH; a BLOCK is clamped to AUTH with `subjective_block_clamped`, as any subjective BLOCK
is, risk at most 90): the call still goes to a human, with a higher risk (possibly strong approval) and the
judge's reason; a PASS answer changes nothing. It never lowers a verdict or a risk.

What leaves: the masked call and evidence only (`limen.judge.request`). A timeout, an error status, a refused
connection, a malformed or off-schema answer, an open breaker: no verdict, a `judge` stage saying why, and the
decision as the engine made it. Configuration: the `judge:` section (`limen.judge.config`, docs/policy.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from limen.model import Decision, Finding, ReasonCode, StageResult, Verdict

if TYPE_CHECKING:
    from limen.context import Context, SessionView
    from limen.judge.client import Outcome
    from limen.judge.config import JudgeConfig
    from limen.judge.request import Masker
    from limen.model import Action
    from limen.state.keys import Fingerprinter

MAX_JUDGE_RISK = 90  # as the engine clamps a subjective BLOCK: below balanced's deny threshold


def review(action: Action, ctx: Context, decision: Decision) -> Decision:
    """The judge's opinion on an AUTH decision, when a judge is configured. Never raises, never lowers."""
    if decision.verdict is not Verdict.AUTH:
        return decision
    try:
        from limen.judge.config import judge_config

        config = judge_config(ctx)
        if not config.enabled:
            return decision
        from limen.judge.request import action_request

        masker = _masker(ctx)
        view = ctx.session
        untrusted = bool(view is not None and view.has_untrusted_content())
        request = action_request(action, decision, masker, _fingerprint(), untrusted)
        from limen.judge.client import shared

        return _apply(config, shared().ask(config, request), decision, masker, ReasonCode.JUDGE_OBJECTION)
    except Exception as exc:
        return _note(decision, f"judge raised {type(exc).__name__}")


def review_output(
    text: str, ctx: Context, decision: Decision, *, untrusted: bool, session: SessionView | None = None
) -> Decision:
    """The judge's opinion on untrusted text Tier 2 is unsure about. Never raises, never lowers. A text
    that carries a secret this session read (`session`) is not sent at all."""
    if not untrusted or decision.verdict is Verdict.BLOCK or not isinstance(text, str) or not text.strip():
        return decision
    try:
        from limen.judge.config import judge_config

        config = judge_config(ctx)
        if not config.enabled:
            return decision
        if not _in_band(text, ctx, config.tier2_band):
            return decision
        from limen.judge.client import shared
        from limen.judge.request import SESSION_SECRET, Masker, text_request

        masker = Masker(session.matches_secret if session is not None else None)
        if masker.text(text) == SESSION_SECRET:
            return _note(decision, "not sent: the text carries a secret this session read")
        outcome = shared().ask(config, text_request(text, masker))
        return _apply(config, outcome, decision, masker, ReasonCode.INDIRECT_INJECTION)
    except Exception as exc:
        return _note(decision, f"judge raised {type(exc).__name__}")


def _in_band(text: str, ctx: Context, band: float) -> bool:
    """Tier 2's calibrated score lies in [threshold - band, threshold) for the context's mode."""
    from limen.turngate import tier2

    model = tier2.model()
    threshold = model.thresholds.get(ctx.mode.value, model.thresholds["balanced"])
    return threshold - band <= model.score(text) < threshold


def _masker(ctx: Context) -> Masker:
    from limen.judge.request import Masker

    view = ctx.session
    return Masker(view.matches_secret if view is not None else None)


def _fingerprint() -> Fingerprinter:
    from limen.state.keys import fingerprinter

    return fingerprinter()


def _note(decision: Decision, detail: str) -> Decision:
    """A stage saying why the judge gave no verdict; the decision is otherwise untouched."""
    decision.evidence.append(StageResult("judge", decision.verdict, decision.risk, (), (detail,)))
    return decision


def _apply(
    config: JudgeConfig, outcome: Outcome, decision: Decision, masker: Masker, code: ReasonCode
) -> Decision:
    micros = outcome.millis * 1000
    answer = outcome.verdict
    if answer is None:
        decision.evidence.append(
            StageResult(
                "judge", decision.verdict, decision.risk, (), (f"no verdict: {outcome.status}",), micros
            )
        )
        return decision
    reason = masker.text(answer.reason, 300)
    said = f"{answer.verdict.name} risk {answer.risk} ({outcome.status}): {reason}"
    objects = answer.verdict is not Verdict.PASS
    if config.mode != "enforce":
        decision.evidence.append(
            StageResult(
                "judge_shadow",
                answer.verdict,
                answer.risk,
                (code,) if objects else (),
                (f"would say {said}",),
                micros,
            )
        )
        return decision
    if not objects:  # the judge agrees the call is fine: it still goes to the human (never lowered)
        decision.evidence.append(
            StageResult("judge", decision.verdict, decision.risk, (), (f"said {said}",), micros)
        )
        return decision
    risk = min(answer.risk, MAX_JUDGE_RISK)
    findings = [Finding(code, Verdict.AUTH, risk, f"judge: {reason}")]
    if answer.verdict is Verdict.BLOCK:
        findings.append(
            Finding(ReasonCode.SUBJECTIVE_BLOCK_CLAMPED, Verdict.AUTH, risk, "judge BLOCK clamped to AUTH")
        )
    codes = tuple(f.code for f in findings)
    decision.evidence.append(StageResult("judge", Verdict.AUTH, risk, codes, (f"said {said}",), micros))
    decision.verdict = max(decision.verdict, Verdict.AUTH)
    decision.risk = max(decision.risk, risk)
    decision.reasons = decision.reasons + tuple(c for c in codes if c not in decision.reasons)
    decision.findings = decision.findings + tuple(findings)
    from limen.engine import explain

    decision.explanation = explain(decision)
    return decision
