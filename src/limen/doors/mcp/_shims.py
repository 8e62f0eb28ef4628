"""A stand-in for `limen.turngate.screen` until it is committed. Temporary: goes once it lands."""

from __future__ import annotations

import re

from limen.model import Finding, ReasonCode, Verdict

_IGNORE = re.compile(
    r"\b(ignore|disregard)\b.{0,40}\b(previous|prior|above)\b.{0,20}\binstructions\b", re.I | re.S
)


def screen(text: str, *, source: str) -> list[Finding]:
    if _IGNORE.search(text) or re.search(r"~/\.ssh|id_rsa", text):
        return [Finding(ReasonCode.INDIRECT_INJECTION, Verdict.BLOCK, 90, f"instruction in {source}")]
    return []
