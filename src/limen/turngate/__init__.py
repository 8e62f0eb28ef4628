"""The turn gate: screens what the user typed and untrusted content (tool output, fetched pages, files,
MCP tool descriptions) for prompt injection before the model acts on it.

    screen(text, source="user" | "untrusted" | "tool_description") -> list[Finding]
    verdict_of(findings) -> Verdict

Tier 0 signatures (`signatures.py`) BLOCK in untrusted content, where they also add `indirect_injection`,
and step up to AUTH in what the user typed: a user discussing "ignore previous instructions" is plausibly
legitimate, a web page saying it is not. Tier 1 heuristics (`heuristics.py`) only AUTH. Any source other
than "user" is treated as untrusted, so a mislabelled source fails towards caution. Resubmission after a
block is handled by `repeat.py`, which needs state and so sits outside this pure function:

    gate = RepeatGate(SqliteRepeatTracker(path), key)
    findings = gate.check(prompt, screen(prompt, source="user"), scope=session_id)
    ...  # if the repeat challenge (repeat_after_block) is denied: gate.challenge_denied(prompt, scope=...)

Tier 2 (`tier2.py`, a learned screen; shipped disabled, see docs/model-card-tier2.md) and the task-drift
screen (`drift.py`: a task for the assistant planted in a document, on by default) run on untrusted content
that Tier 0/1 did not BLOCK, and only raise; the drift screen skips tool descriptions, whose sentences are
tasks for the model by design.

A quotation the text talks about (`mention.py`: "attackers hide sentences such as "ignore all previous
instructions"", a code block a write-up introduces as an example) is replaced by a placeholder before any
tier reads the text: a document about an injection is not one. The same words said outright, or introduced
by a bare label ("IMPORTANT:"), are screened as written.

A letter between people (`letter.py`: a greeting to a person or a sign-off, and nothing in it that names an AI
or whoever processes the text) asks its human reader to pay, send or delete: those verbs are not read as
orders to the agent there (Tier 1's verb shapes, and the task-drift screen's requests to act), unless the
letter moves everything at once, a secret or personal data.

What the gate cannot see: an instruction that reads as an ordinary request ("recommend a good book")
is only an injection because of where it sits. Inside a document the drift screen can weigh it against
the document; a bare request, without the surrounding document and the user's task, is left alone: no
pattern separates it from what a user types.
"""

from __future__ import annotations

from collections.abc import Iterable

from limen.model import Finding, ReasonCode, Verdict

USER = "user"
UNTRUSTED = "untrusted"
# Text written for the model by design (an MCP tool's description and schemas): untrusted, but its sentences
# are tasks for the assistant by nature, so the task-drift screen does not read it.
TOOL_DESCRIPTION = "tool_description"

RISK_BLOCK = 90
RISK_USER_TIER0 = 70
RISK_TIER1 = 60
RISK_ERROR = 60


def screen(text: str, *, source: str) -> list[Finding]:
    """Findings for one text; never raises (an internal error is itself an AUTH finding)."""
    try:
        return _screen(text, untrusted=source != USER, document=source not in (USER, TOOL_DESCRIPTION))
    except Exception as exc:  # the gate must fail upward, never crash the turn it guards
        return [
            Finding(
                ReasonCode.TURN_GATE_ERROR, Verdict.AUTH, RISK_ERROR, f"turn gate error: {type(exc).__name__}"
            )
        ]


def verdict_of(findings: Iterable[Finding]) -> Verdict:
    """The highest verdict among the findings; PASS when there are none."""
    return max((f.verdict for f in findings), default=Verdict.PASS)


def _screen(text: str, *, untrusted: bool, document: bool) -> list[Finding]:
    from limen.turngate.heuristics import match_heuristics
    from limen.turngate.normalize import prepare
    from limen.turngate.signatures import match_signatures, readable_runs

    if not isinstance(text, str):
        raise TypeError("text must be str")
    from limen.turngate.mention import said

    text = said(text)  # a quotation the text talks about is not what it says
    from limen.turngate.letter import between_people

    letter = untrusted and document and between_people(text)
    prepared = prepare(text)
    runs = readable_runs(prepared.raw)
    findings: list[Finding] = []
    tier0 = match_signatures(prepared, runs, untrusted=untrusted)
    for code, name in tier0.items():
        if untrusted:
            findings.append(Finding(code, Verdict.BLOCK, RISK_BLOCK, f"tier0 {name} in untrusted content"))
        else:
            findings.append(Finding(code, Verdict.AUTH, RISK_USER_TIER0, f"tier0 {name} in user text"))
    if untrusted and tier0 and ReasonCode.INDIRECT_INJECTION not in tier0:
        findings.append(
            Finding(
                ReasonCode.INDIRECT_INJECTION,
                Verdict.BLOCK,
                RISK_BLOCK,
                "tier0 signature in untrusted content",
            )
        )
    for code, name in match_heuristics(prepared, runs, untrusted=untrusted, letter=letter).items():
        findings.append(Finding(code, Verdict.AUTH, RISK_TIER1, f"tier1 {name}"))
    if untrusted and verdict_of(findings) is not Verdict.BLOCK:
        from limen.turngate import drift, tier2  # raise-only; never raise themselves

        findings.extend(tier2.check(text))
        if document and not any(f.code is ReasonCode.EMBEDDED_INSTRUCTION for f in findings):
            from limen.turngate.sideeffect import requested_side_effect

            why = requested_side_effect(text)
            if why:
                findings.append(
                    Finding(ReasonCode.EMBEDDED_INSTRUCTION, Verdict.AUTH, RISK_TIER1, f"tier1 {why}")
                )
        if document:
            planted = drift.check(text)
            if planted and not findings and _not_for_the_agent(text, letter=letter):
                planted = []
            findings.extend(planted)
    return findings


def _not_for_the_agent(text: str, *, letter: bool) -> bool:
    """Whether every sentence the task-drift screen flags is asked of a person: of someone named in the
    third person ("Can a maintainer close this issue?"), or, in a letter between people, of its reader
    (pay, send, sign, delete: the writer's requests, not a task planted for an assistant, such as a
    question to answer or a text to write)."""
    from limen.turngate import drift
    from limen.turngate.letter import advice, asked_of_someone_else, reader_action

    tasks = drift.planted_tasks(text)
    answers = letter and advice(text)  # a FAQ's or a diagnostic's requests are advice to its reader
    return bool(tasks) and all(
        asked_of_someone_else(t) or answers or (letter and reader_action(t)) for t in tasks
    )
