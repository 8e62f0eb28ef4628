"""The policy chain: ordered layers per level, the first terminal verdict wins, evidence carried along.

Levels run highest first (organisation, user, project). Within a level the first layer answering
`allow | ask | deny` ends that level; `deny` also ends the whole chain. A lower level therefore always
runs after a higher level's `allow` and can only add objections: it tightens, never loosens. When no
level gave a terminal verdict, `default_action` applies (unset or `by_door`: see `limen.policy.doors`).
A tighten-only level (the unapproved part of an edit the drift gate is holding back) may deny or ask,
but its `allow` counts for nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from time import perf_counter_ns

from limen.model import Action, Finding, PolicyOutcome, ReasonCode, StageResult, Verdict
from limen.policy.doors import unset_default
from limen.policy.evidence import Evidence
from limen.policy.layers import ChainLayer
from limen.policy.matchers import Matchers
from limen.policy.unmutable import UNWAIVABLE

_RANK = {"pass": 0, "allow": 1, "ask": 2, "deny": 3}
_VERDICT = {"pass": Verdict.PASS, "allow": Verdict.PASS, "ask": Verdict.AUTH, "deny": Verdict.BLOCK}
_RISK = {"pass": 0, "allow": 0, "ask": 60, "deny": 95}
_CODE = {"ask": (ReasonCode.POLICY_ASK,), "deny": (ReasonCode.POLICY_DENIED,)}


@dataclass(slots=True, frozen=True)
class CompiledWaiver:
    code: str
    m: Matchers
    expires: float

    def applies(self, action: Action, now: float) -> bool:
        m = self.m
        return now < self.expires and (
            m.path(action) is not None or m.command(action) is not None or m.host(action) is not None
        )


def finding(word: str, stage: str, detail: str) -> Finding:
    code = ReasonCode.POLICY_DENIED if word == "deny" else ReasonCode.POLICY_ASK
    return Finding(code, _VERDICT[word], _RISK[word], f"{stage}: {detail}" if detail else stage)


@dataclass(slots=True, frozen=True)
class Chain:
    """The compiled chain; immutable and shared by every Context built from the same policy."""

    levels: tuple[tuple[str, tuple[ChainLayer, ...], bool], ...]  # (level, layers, tighten_only)
    default_action: str | None = None
    waivers: tuple[CompiledWaiver, ...] = ()
    preface: tuple[StageResult, ...] = ()  # e.g. the drift gate's note that an edit was refused

    def evaluate(self, action: Action) -> PolicyOutcome:
        evidence = Evidence()
        trail: list[StageResult] = list(self.preface)
        verdict, decided_by, detail = "pass", "", ""
        for level, layers, tighten_only in self.levels:
            for layer in layers:
                started = perf_counter_ns()
                mark = len(evidence)
                word, why = layer.evaluate(action, evidence)
                stage = f"policy:{level}:{layer.name}"
                trail.append(
                    StageResult(
                        stage,
                        _VERDICT[word],
                        _RISK[word],
                        _CODE.get(word, ()),
                        (word, *evidence.since(mark)),
                        (perf_counter_ns() - started) / 1000,
                    )
                )
                if word != "pass":
                    if _RANK[word] > _RANK[verdict] and not (tighten_only and word == "allow"):
                        verdict, decided_by, detail = word, stage, why
                    break
            if verdict == "deny":
                break
        if verdict == "pass":
            verdict, decided_by, detail = self._default(action, trail)
        findings = (finding(verdict, decided_by, detail),) if verdict in ("ask", "deny") else ()
        return PolicyOutcome(verdict, findings, tuple(trail), self.waived(action), decided_by)

    def _default(self, action: Action, trail: list[StageResult]) -> tuple[str, str, str]:
        word = self.default_action or unset_default(action.door)
        if word == "pass":
            return "pass", "", ""
        trail.append(
            StageResult(
                "policy:default_action",
                _VERDICT[word],
                _RISK[word],
                _CODE.get(word, ()),
                (word, f"no layer decided; default_action {self.default_action or 'by_door'} applies"),
            )
        )
        return word, "policy:default_action", "no policy rule matched this call"

    def waived(self, action: Action) -> frozenset[str]:
        """Reason codes waived for this action (never a hard floor, whatever the file says)."""
        if not self.waivers:
            return frozenset()
        now = time.time()
        return frozenset(w.code for w in self.waivers if w.code not in UNWAIVABLE and w.applies(action, now))
