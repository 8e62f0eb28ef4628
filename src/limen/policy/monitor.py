"""Monitor mode: the call goes through and the would-be verdict is recorded, for tuning a policy.

Monitor needs `acknowledge: [monitor]` and the drift gate's approval. It never lets through what no
waiver could mute either (`limen.policy.unmutable.UNMUTABLE`): a hard floor, an error signal, a
protected path or a secret leaving keeps its verdict.
"""

from __future__ import annotations

from limen.model import Decision, StageResult, Verdict
from limen.policy.unmutable import UNMUTABLE


def monitored(decision: Decision) -> None:
    """Turn an AUTH or BLOCK into PASS, recording what it would have been (in place)."""
    if decision.verdict is Verdict.PASS:
        return
    kept = [r for r in decision.reasons if r in UNMUTABLE]
    if kept:
        note = f"monitor: not muted ({', '.join(r.value for r in kept)} keeps its verdict)"
        decision.evidence.append(
            StageResult("monitor", decision.verdict, decision.risk, tuple(kept), (note,))
        )
        return
    would = decision.verdict.name
    decision.evidence.append(
        StageResult("monitor", Verdict.PASS, decision.risk, decision.reasons, (f"would be {would}",))
    )
    decision.verdict = Verdict.PASS
    decision.explanation = f"PASS (monitor; would be {decision.explanation})"
