"""The one list of reason codes nothing may mute: no waiver, no monitor mode, no `limen tune` suggestion.

`UNMUTABLE` is what a floor raises, what signals Limen itself failed (a muted error is a silent PASS),
and what guards Limen's own files and the user's secrets. Waivers additionally exclude the policy's own
codes: those change by editing the policy, not by waiving it. Everything else derives from these two.
"""

from __future__ import annotations

from limen.floors import FLOOR_CODES
from limen.model import ReasonCode

ERROR_SIGNALS: frozenset[ReasonCode] = frozenset(
    {
        ReasonCode.NORMALIZATION_FAILED,
        ReasonCode.OBJECTIVE_GUARDRAIL_ERROR,
        ReasonCode.SUBJECTIVE_GUARDRAIL_ERROR,
        ReasonCode.RULE_ERROR,
        ReasonCode.AUDIT_UNAVAILABLE,
        ReasonCode.TURN_GATE_ERROR,
        ReasonCode.PROXY_HANDLER_ERROR,
    }
)

PROTECTIONS: frozenset[ReasonCode] = frozenset(
    {ReasonCode.PROTECTED_PATH_BLOCKED, ReasonCode.SECRET_EXFILTRATION}
)

UNMUTABLE: frozenset[ReasonCode] = FLOOR_CODES | ERROR_SIGNALS | PROTECTIONS

POLICY_CODES: frozenset[ReasonCode] = frozenset({ReasonCode.POLICY_DENIED, ReasonCode.POLICY_ASK})

UNWAIVABLE: frozenset[ReasonCode] = UNMUTABLE | POLICY_CODES
