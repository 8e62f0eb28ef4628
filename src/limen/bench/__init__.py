"""`limen bench`: detection quality on labelled corpora (`../shared/corpora/README.md` schema).

Each item kind has a runner `run(items, mode) -> list[ItemResult]`:
    shell, secret, toolcall -> limen.bench.calls
    text                    -> limen.bench.text      (the turn gate)
    session                 -> limen.bench.sessions  (whole-session replay)
The summary (ASR, FPR, latency) is computed the same way for every kind in `limen.cli.bench`.
"""

from __future__ import annotations

from dataclasses import dataclass

from limen.model import ReasonCode, Verdict


@dataclass(slots=True, frozen=True)
class ItemResult:
    """One corpus item's outcome; `verdict` is None when the item could not be scored (an error)."""

    id: str
    label: str  # "attack" | "benign"
    verdict: Verdict | None
    reasons: tuple[ReasonCode, ...] = ()
    us: float = 0.0  # decision time in microseconds
    group: str = ""  # e.g. the AgentDojo suite, for per-group summaries
    risk_hints: bool = False  # benign shell items whose plain-regex hints flagged something
