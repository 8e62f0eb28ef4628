"""`limen.evaluate(mode=...)`: a mode name the caller misspelt is refused with a reason code, and audited."""

from __future__ import annotations

import limen
from limen.model import ReasonCode, Verdict


def test_an_unknown_mode_name_is_refused_with_a_reason_code(workspace: str) -> None:
    decision = limen.evaluate("Read", {"file_path": "README.md"}, cwd=workspace, mode="balancd")
    assert decision.verdict is Verdict.BLOCK
    assert decision.reasons == (ReasonCode.INVALID_ARGUMENTS,)
    assert "unknown mode" in decision.explanation
    assert decision.decision_id


def test_a_known_mode_name_decides_as_usual(workspace: str) -> None:
    decision = limen.evaluate("Read", {"file_path": "README.md"}, cwd=workspace, mode="balanced")
    assert decision.verdict is Verdict.PASS
