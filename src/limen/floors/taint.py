"""Taint floor: a session that read a secret must not send it, nor egress unchecked.

- `confirmed_exfil` (BLOCK in every mode): an outgoing value, raw or URL/base64/hex-encoded, has the keyed
  fingerprint of a secret this session read.
- `multi_step_exfil` (AUTH; BLOCK in strict/paranoid): the session is tainted and this call egresses.
"""

from __future__ import annotations

from limen.context import Context
from limen.floors.egress import is_egress, mode_verdict, outgoing_texts
from limen.model import Action, Decision, Finding, ReasonCode, Verdict


def floor(action: Action, ctx: Context, decision: Decision) -> list[Finding]:
    session = ctx.session
    if session is None or not is_egress(action) or not session.is_tainted():
        return []
    if any(session.matches_secret(text) for text in outgoing_texts(action)):
        return [
            Finding(
                ReasonCode.CONFIRMED_EXFIL,
                Verdict.BLOCK,
                100,
                "an outgoing value matches a secret this session read (keyed fingerprint)",
            )
        ]
    return [
        Finding(
            ReasonCode.MULTI_STEP_EXFIL,
            mode_verdict(ctx),
            80,
            "this session read a secret earlier and this call sends data out",
        )
    ]
