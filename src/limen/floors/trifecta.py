"""Lethal trifecta: untrusted input, private data and an outbound channel together.

- `lethal_trifecta`: this call itself carries private data (a secret file, the environment, a credential in
  its payload) out, while acting under untrusted provenance.
- `correlated_trifecta`: the legs come from separate calls: untrusted content came into this session, it read
  private data earlier, and this call egresses.
Both AUTH in light/balanced, BLOCK in strict/paranoid.
"""

from __future__ import annotations

from limen.context import Context
from limen.floors.egress import carries_private, is_external_egress, mode_verdict
from limen.model import Action, Decision, Finding, ReasonCode


def floor(action: Action, ctx: Context, decision: Decision) -> list[Finding]:
    if not is_external_egress(action, ctx):
        return []
    session = ctx.session
    untrusted = "untrusted_content" in action.provenance or (
        session is not None and session.has_untrusted_content()
    )
    if not untrusted:
        return []
    if carries_private(action, ctx):
        return [
            Finding(
                ReasonCode.LETHAL_TRIFECTA,
                mode_verdict(ctx),
                90,
                "private data leaves in a call made after untrusted content came in",
            )
        ]
    if session is not None and (session.is_tainted() or any(e.get("private") for e in session.recent())):
        return [
            Finding(
                ReasonCode.CORRELATED_TRIFECTA,
                mode_verdict(ctx),
                85,
                "this session took in untrusted content and read private data; this call egresses",
            )
        ]
    return []
