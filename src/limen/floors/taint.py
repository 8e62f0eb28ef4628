"""Taint floor: a session that read a secret must not send it, nor egress unchecked.

- `confirmed_exfil` (BLOCK in every mode): what the call sends holds a secret this session read (its keyed
  fingerprints): raw or URL/base64/hex-encoded, in another case, with separators or whitespace inserted or
  removed, reversed, as a long enough part (16 characters of a 40-character token), or split across fields.
- `multi_step_exfil` (AUTH; BLOCK in strict/paranoid): the session is tainted and this call egresses in a
  way that could carry what it read: every egress (a push to any remote, `gh` writes, package publishing, a
  send to a trusted service included) except a request that carries nothing (`carries_nothing`: a plain GET
  with no body, upload or data-bearing header) to a host the user trusts, a documentation site or an API
  issuer. Reading the Python docs after `cat .env` is not a way to send `.env`.
"""

from __future__ import annotations

from limen.context import Context
from limen.floors.egress import carries_nothing, is_egress, known_plain, mode_verdict, outgoing_texts
from limen.model import Action, Decision, Finding, ReasonCode, Verdict
from limen.scan import MAX_SCAN_CHARS


def floor(action: Action, ctx: Context, decision: Decision) -> list[Finding]:
    session = ctx.session
    if session is None or not is_egress(action) or not session.is_tainted():
        return []
    texts = outgoing_texts(action)
    # One text of them all, so a secret split across fields (or across a URL and a body) is seen whole.
    joined = ["\x00".join(texts)] if sum(map(len, texts)) <= MAX_SCAN_CHARS else texts
    if any(session.matches_secret(text) for text in joined):
        return [
            Finding(
                ReasonCode.CONFIRMED_EXFIL,
                Verdict.BLOCK,
                100,
                "an outgoing value matches a secret this session read (keyed fingerprint)",
            )
        ]
    if carries_nothing(action) and all(known_plain(d, ctx) for d in action.destinations):
        return []
    return [
        Finding(
            ReasonCode.MULTI_STEP_EXFIL,
            mode_verdict(ctx),
            80,
            "this session read a secret earlier and this call sends data out",
        )
    ]
