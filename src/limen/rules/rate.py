"""Objective rule: the session's rate window.

`rate_limited` (AUTH): more calls in one session within the window than it allows: limen.yaml's `rate:`
(calls, seconds) where set, else the mode's (`context.RATE_LIMITS`: none in light; 240, 120 and 60 a
minute in balanced, strict and paranoid). A burst
far beyond what a person can follow is a runaway loop or an agent working through a list an injection gave
it; a human looks before it goes on. The runtime records each call in the session store before deciding,
so the window holds across hook processes. The window is fixed (it restarts once its start has passed),
which costs one statement per call; a burst straddling two windows can reach twice the limit.
"""

from __future__ import annotations

from collections.abc import Iterator

from limen.context import Context
from limen.model import Action, Finding, ReasonCode, Verdict
from limen.rules import rule


@rule(ReasonCode.RATE_LIMITED)
def rate_window(action: Action, ctx: Context) -> Iterator[Finding]:
    """More calls in one session within the window than it allows (limen.yaml's `rate:`, else the mode's):
    AUTH, a runaway loop or a list an injection handed over."""
    if ctx.session is None or ctx.rate_limit is None:
        return
    limit, seconds = ctx.rate_limit
    calls = ctx.session.calls_in_window
    if calls > limit:
        yield Finding(
            ReasonCode.RATE_LIMITED,
            Verdict.AUTH,
            65,
            f"{calls} calls in {seconds:.0f} s (the window allows {limit})",
        )
