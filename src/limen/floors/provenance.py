"""Provenance floor: a side effect whose arguments echo a value only untrusted content supplied.

The attack shape of indirect prompt injection: content the agent read names a recipient, an account, a URL
or a file, and a later call sends to it. Values from the user's prompt and from clean output are trusted, so
acting on the user's own data stays quiet.
- echo of content flagged as carrying injected instructions: AUTH (BLOCK in strict/paranoid);
- echo of content from an untrusted source that screened clean: AUTH in strict/paranoid only.
"""

from __future__ import annotations

from limen.context import Context
from limen.floors.egress import is_side_effect, mode_verdict, strings
from limen.model import Action, Decision, Finding, ReasonCode, Verdict


def floor(action: Action, ctx: Context, decision: Decision) -> list[Finding]:
    session = ctx.session
    if session is None or not is_side_effect(action) or not session.has_untrusted_content():
        return []
    source = session.echo_source(list(strings(action.arguments)))
    if source == "injected":
        return [
            Finding(
                ReasonCode.UNTRUSTED_VALUE_ECHO,
                mode_verdict(ctx),
                85,
                "an argument echoes a value that only content carrying injected instructions supplied",
            )
        ]
    if source == "untrusted" and ctx.mode.strict_or_above:
        return [
            Finding(
                ReasonCode.UNTRUSTED_VALUE_ECHO,
                Verdict.AUTH,
                70,
                "an argument echoes a value that only untrusted content supplied",
            )
        ]
    return []
