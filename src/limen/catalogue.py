"""The reason-code catalogue: what each code means, and the generator of `docs/reason-codes.md`.

One place holds each code's group and meaning (`MEANINGS`); the document adds, for every built-in rule, its
docstring (what it flags and what it leaves quiet) and the examples `tests/rules/examples/<code>.yaml` walks.
`python -m limen.catalogue` rewrites the document; `tests/test_reason_codes.py` fails when it is stale.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path
from typing import Any

from limen.model import ReasonCode

# code -> (group, meaning). The first 57 are the seed catalogue's, with its names and meanings.
MEANINGS: dict[str, tuple[str, str]] = {
    "normalization_failed": (
        "General",
        "The proxy's `normalize()` step raised, so the action falls back to a conservative "
        "high-risk placeholder and escalates to authentication instead of passing through "
        "un-normalized.",
    ),
    "unknown_tool": (
        "General",
        "Reserved for a requested tool name absent from the downstream tool list. Defined for "
        "that purpose but not wired to a raise site in shipped code.",
    ),
    "downstream_error": (
        "General",
        "The downstream MCP tool call raised while being forwarded, so the result is denied and "
        "the failure is never exposed to the agent.",
    ),
    "objective_guardrail_error": (
        "General",
        "The objective guardrail, or a post-decision integrity check such as the output secret "
        "scan or artifact digest check, raised an unhandled exception, so the action fails closed "
        "to `BLOCK`.",
    ),
    "subjective_guardrail_error": (
        "General",
        "The subjective guardrail raised an unhandled exception after the objective guardrail "
        "already passed, so the action escalates to authentication instead of silently passing.",
    ),
    "subjective_block_clamped": (
        "General",
        "The subjective guardrail returned `BLOCK`, but none of its reason codes sit on the "
        "hard-block allowlist, so the execution rule clamps that `BLOCK` down to `AUTH` and "
        "records that the clamp happened.",
    ),
    "proxy_handler_error": (
        "General",
        "An unhandled exception escaped the proxy's top-level tools/call handler, outside "
        "`normalize()`'s and `decide()`'s own error handling, so the call is denied carrying only "
        "the exception's class name, never its message.",
    ),
    "secret_exfiltration": (
        "Objective guardrail",
        "A known credential or secret pattern, or a base64/hex payload that decodes to one, "
        "appeared in an action headed to an external destination. The rule hard-blocks it in "
        "every mode.",
    ),
    "sensitive_secret_access": (
        "Objective guardrail",
        "The action reads or targets a file recognized as holding secrets, such as `.env` or a "
        "private key, with no evidence it is leaving the session, so it requires authentication.",
    ),
    "possible_high_entropy_secret": (
        "Objective guardrail",
        "Only the weak, purely statistical high-entropy heuristic matched: no known credential "
        "shape and no secret file, so the action requires authentication. It is a "
        "lower-confidence sibling of `sensitive_secret_access`, kept separate so output scanning "
        "can pass through likely-benign hashes, UUIDs, and base64 fragments instead of "
        "hard-blocking a benign read.",
    ),
    "protected_path_blocked": (
        "Objective guardrail",
        "The target path resolves inside a location explicitly protected by policy, such as "
        "Limen's own control-plane files, so the rule hard-blocks the action.",
    ),
    "sensitive_path_access": (
        "Objective guardrail",
        "The target path matches a sensitive-but-not-protected location, so the action requires "
        "authentication before it proceeds.",
    ),
    "destructive_command": (
        "Objective guardrail",
        "A shell or git command matched a pattern that irreversibly destroys data or history: a "
        "recursive force-delete, a history rewrite, or piping a downloaded payload into a shell.",
    ),
    "environment_dump_command": (
        "Objective guardrail",
        "A shell command whose sole effect is to enumerate or print the process environment (bare "
        "`env`, any form of `printenv`, `export`/`export -p`, `declare -x`/`typeset -x` with no "
        "named variable, or a PowerShell `Env:` drive listing). This is a locally scoped read of "
        "a common secret carrier, so it requires authentication before it runs.",
    ),
    "bulk_operation": (
        "Objective guardrail",
        "A command deletes at or above the configured bulk-operand threshold, so it requires "
        "authentication before the mass operation proceeds.",
    ),
    "opaque_command": (
        "Objective guardrail",
        "A command's effect cannot be determined statically, an inline shell payload (`-c ...`) "
        "or a command that fails to parse safely, so it requires authentication before it runs.",
    ),
    "unknown_external_destination": (
        "Objective guardrail",
        "A network destination is not on the trusted-host allowlist and cannot otherwise be "
        "classified as safe, so it requires authentication, subject to mode thresholds and any "
        "proven-broker override.",
    ),
    "egress_requires_auth": (
        "Objective guardrail",
        "A shell, package-install, or git command has an external destination whose runtime route "
        "static parsing cannot prove, so it requires authentication regardless of how trusted the "
        "parsed host looks.",
    ),
    "encoded_exfiltration": (
        "Objective guardrail",
        "A base64/hex-encoded payload in an outbound action decodes to a secret pattern. Limen "
        "raises it together with `secret_exfiltration` (BLOCK) so automation can tell an encoded "
        "smuggling attempt from a plain one.",
    ),
    "tool_schema_changed": (
        "Objective guardrail",
        "The tool's `(name, description, inputSchema)` fingerprint no longer matches the pinned "
        "one, a possible rug-pull. This is `AUTH` in Light/Balanced and `BLOCK` in "
        "Strict/Paranoid until a human re-approves the pin.",
    ),
    "rule_error": (
        "Objective guardrail",
        "An individual objective or subjective rule raised, or returned something other than a "
        "`GuardrailResult`, while being evaluated. That one rule's result is isolated to `AUTH` "
        "instead of forcing a silent `PASS` or an unrelated hard `BLOCK`.",
    ),
    "role_blocked_target": (
        "Role policy",
        "The active agent role's boundary matcher explicitly denies this target, so the rule "
        "hard-blocks the action.",
    ),
    "role_out_of_scope": (
        "Role policy",
        "The action falls outside the boundaries declared for the agent's active role without "
        "being on an explicit block list, so it requires authentication (a role elevation).",
    ),
    "policy_source_blocked": (
        "Role policy",
        "The instruction's originating source is on a higher-authority policy source's block "
        "list, so the rule hard-blocks the action.",
    ),
    "policy_source_sensitive": (
        "Role policy",
        "The instruction's originating source is classified as sensitive, but not blocked, by the "
        "policy source, so it requires authentication.",
    ),
    "unusual_for_workflow": (
        "Subjective layer",
        "The action deviates from this agent's own learned per-workflow behavioral baseline, "
        "raising the subjective verdict.",
    ),
    "suspect_code_change": (
        "Subjective layer",
        "A learned reader of program edits (`limen.subjective.code_edits`, trained by "
        "`training/train_code_edits.py`) scores a tool's Write or Edit of program code above its "
        "threshold: the change reads like one made to weaken the code's security. Raise-only, `AUTH`.",
    ),
    "unusual_for_deployment": (
        "Subjective layer",
        "The action's surprise score, computed across the universal three-axis algebra, exceeds "
        "this deployment's care threshold, raising the subjective verdict.",
    ),
    "confidentiality_sensitive_destination": (
        "Subjective layer",
        "An above-threshold action's dominant care dimension is confidentiality, and the "
        "destination itself is sensitive.",
    ),
    "irreversible_high_blast": (
        "Subjective layer",
        "An above-threshold action's dominant care dimension is irreversibility and blast radius "
        "rather than confidentiality: it would be hard to undo and would affect a lot if it went "
        "wrong.",
    ),
    "lethal_trifecta": (
        "Subjective layer",
        "The action's algebra shows untrusted-data provenance, access to private data, and an "
        "external communication channel all at once, flooring the verdict to `AUTH` (`BLOCK` in "
        "Strict/Paranoid). It is the only subjective code allowed onto the hard-block allowlist.",
    ),
    "unclassified_action": (
        "Subjective layer",
        "The action's algebra classification is still effectively unknown by the time the "
        "subjective layer runs, so it is flagged rather than treated as benign.",
    ),
    "pii_data_class_egress": (
        "Objective guardrail",
        "The outbound payload contains checksum-valid personal or financial data: a payment card "
        "number (issuer prefix plus Luhn check), an IBAN (mod-97), or a dashed US SSN. Because "
        "the action has an external destination, every mode requires authentication. Only the "
        "class label is recorded, never the matched value.",
    ),
    "smuggled_token_channel": (
        "Token-channel defense",
        "A deterministic, near-zero-false-positive objective token-channel signature matched: "
        "tokens smuggled through an unexpected channel. It produces `AUTH` or `BLOCK` depending "
        "on severity.",
    ),
    "anomalous_token_pattern": (
        "Token-channel defense",
        "The subjective token-channel detector found a soft, probabilistic out-of-distribution "
        "signal: homoglyph confusables, under-trained glitch fragments, NFKC-normalization "
        "smuggling, or anomalous control/private-use characters. It requires authentication.",
    ),
    "oversized_encoded_blob": (
        "Encoded-exfiltration detector",
        "The subjective base64-blob detector found a suspiciously large base64-looking payload in "
        "a tool argument, a common encode-and-exfiltrate shape (file or secret contents smuggled "
        "out as one blob). It checks shape and size only, never decodes, and raises only to "
        "`AUTH`.",
    ),
    "multi_step_exfil": (
        "Host-hook containment",
        "This egress action's session already carries taint from an earlier call that read a "
        "secret. Even though this call's own payload looks clean, the verdict is raised (`AUTH`, "
        "or `BLOCK` in Strict/Paranoid) as a potential cross-call exfiltration.",
    ),
    "confirmed_exfil": (
        "Host-hook containment",
        "An outbound value's keyed-HMAC fingerprint matches a secret read earlier in this same "
        "session, confirming a read-then-send exfiltration. The rule hard-blocks it in every "
        "mode.",
    ),
    "turn_gate_error": (
        "Turn gate",
        "The turn gate, either its Tier 0 signature scan or its Tier 1 heuristics, raised while "
        "evaluating a turn. It escalates to authentication (fails upward) instead of silently "
        "passing.",
    ),
    "instruction_nullification": (
        "Turn gate",
        "A turn's text matched a Tier 0 pattern telling the agent to ignore, disregard, or "
        "override its previous instructions. Limen blocks it outright if issued or found in "
        "untrusted content, and requires authentication if merely discussed in typed text.",
    ),
    "authority_override": (
        "Turn gate",
        "A turn's text matched a Tier 0 authority-impersonation, jailbreak/mode-switch, or "
        "system-prompt-exfiltration pattern. Limen blocks it outright if issued or found in "
        "untrusted content, and requires authentication if merely discussed.",
    ),
    "secret_export": (
        "Turn gate",
        "A turn's text matched a Tier 0 credential, key, or token export request, for example "
        '"send me the API key." Limen blocks it outright if issued or found in untrusted content, '
        "and requires authentication if merely discussed.",
    ),
    "encoded_payload": (
        "Turn gate",
        "A turn contains a long, high-entropy base64/hex run or a punycode host, an "
        "encoded-carrier signature. Limen blocks it in untrusted content and steps it up to "
        "authentication in typed content, since a user pasting base64 is plausibly legitimate.",
    ),
    "indirect_injection": (
        "Turn gate",
        "A Tier 0 signature matched inside an untrusted, pasted or tool-fetched, content segment. "
        "Limen treats this as indirect prompt injection and blocks it unconditionally, regardless "
        "of issue or mention framing.",
    ),
    "embedded_instruction": (
        "Turn gate",
        "Tier 1 heuristics detected an agent-directed imperative embedded in an untrusted content "
        "segment, escalating the turn to authentication.",
    ),
    "persona_override": (
        "Turn gate",
        "Tier 1 heuristics matched a persona- or role-override phrase in the turn, requiring authentication.",
    ),
    "obfuscated_content": (
        "Turn gate",
        "Tier 1 heuristics found obfuscated or sub-threshold encoded content that does not reach "
        "the hard `encoded_payload` carrier threshold, requiring authentication.",
    ),
    "urgency_secrecy_framing": (
        "Turn gate",
        "Tier 1 heuristics matched language that combines urgency and secrecy framing, a common "
        "social-engineering pattern, requiring authentication.",
    ),
    "stylometric_outlier": (
        "Turn gate",
        "The turn's writing style is an extreme statistical outlier for this session and "
        "coincides with a sensitive apparent intent, requiring authentication. Style alone never "
        "triggers this on its own.",
    ),
    "repeat_after_block": (
        "Turn gate",
        "An identical, same-fingerprint turn was resubmitted after being blocked. This converts "
        "the automatic block into a one-time `AUTH` challenge for the first repeat instead of "
        "blocking again outright.",
    ),
    "turn_blocked_repeatedly": (
        "Turn gate",
        "A resubmitted turn's repeat challenge was already denied once, and the lockout threshold "
        "is reached. The rule hard-blocks further resubmission for a cooldown window instead of "
        "re-challenging.",
    ),
    "egress_route_divergence": (
        "Egress broker",
        "A broker-observed connection for this entity, within a bounded recent window, actually "
        "went somewhere that diverges from this rule's static host-trust classification. This "
        "retroactively raises the already-computed verdict.",
    ),
    "egress_broker_enforced": (
        "Egress broker",
        "A broker proven to enforce egress attests that this exact destination is allowlisted and "
        "will itself be enforced at the socket, so the rule contributes `PASS` instead of its "
        "usual `AUTH`.",
    ),
    "egress_blocked_by_mode": (
        "Egress broker",
        "In Paranoid mode only, a broker proven to enforce egress attests that this exact "
        "destination is not allowlisted and will itself drop it at the socket, so the rule "
        "hard-blocks instead of its usual `AUTH`. This code is dormant in every other mode, and "
        "with no broker present.",
    ),
    "anomalous_egress_velocity": (
        "Egress broker",
        "A bounded, in-memory per-entity velocity tracker detected a burst, volume, or fan-out "
        "anomaly across this entity's broker-observed connections in the same recent window "
        "`egress_route_divergence` uses. This retroactively raises the already-computed verdict.",
    ),
    "artifact_digest_mismatch": (
        "Artifact digest verification",
        "A pinned expected sha256 digest exists for a previously fetched identity, and the "
        "freshly returned tool-result content's digest disagrees with it. The result is withheld "
        "from the agent post-fetch.",
    ),
    "correlated_trifecta": (
        "Session correlator",
        "This session's recent decision history shows an untrusted-provenance ingress and a "
        "sensitive or secret read as separate earlier calls, and the current action is an "
        "external egress: a lethal trifecta assembled across calls rather than within one.",
    ),
    "correlated_destructive_flow": (
        "Session correlator",
        "This session's recent decision history shows a broad read or enumeration and a shell "
        "command as separate earlier calls, and the current action is an external egress: a "
        "possible archive-then-exfiltrate flow.",
    ),
    "lookalike_package": (
        "Objective guardrail",
        "A package installed or run whose name is a letter or two away from one every project uses "
        "(`reqeusts`, `crossenv`): the typosquat is published to catch the slip, and its install code "
        "runs at once.",
    ),
    "production_change": (
        "Objective guardrail",
        "A deploy, apply, migration or release pointed at production by name (`--environment "
        "Production`, `MIX_ENV=prod`, `--kube-context prod`, `values-prod.yaml`): what every user of the "
        "service meets at once, which a person approves. AUTH in every mode.",
    ),
    "persistence_write": (
        "Objective guardrail",
        "The action writes a file that runs later without the user asking: a shell start-up file, "
        "a git hook, a cron table, a systemd or launchd unit, `authorized_keys`, or a CI "
        "workflow. It requires authentication (BLOCK in Strict/Paranoid).",
    ),
    "dns_exfiltration": (
        "Objective guardrail",
        "A DNS lookup (`dig`, `nslookup`, `host`) whose query name is built from a substitution "
        "or carries a long encoded label: data leaving through DNS. It hard-blocks.",
    ),
    "policy_denied": (
        "Role policy",
        "A layer of the user's policy chain (denylist, allowlist miss, a rule with `effect: "
        "deny`, DLP) denied the action. The layer and its evidence are in the trail.",
    ),
    "policy_ask": (
        "Role policy",
        "A layer of the user's policy chain asked for a human decision (`effect: ask`).",
    ),
    "risk_threshold": (
        "Subjective layer",
        "No single finding objected, but the action's combined 0-100 risk reached the mode's "
        "`ask` (AUTH) or `deny` (BLOCK) threshold.",
    ),
    "judge_objection": (
        "Subjective layer",
        "The optional LLM judge (`judge:` in the policy, mode `enforce`), asked about a call already in "
        "the AUTH zone, answered AUTH or BLOCK: the call still goes to a human, with the judge's reason and "
        "a risk raised to at most 90 (a judge BLOCK is clamped to AUTH). In `shadow` mode the same answer "
        "is only recorded in the evidence.",
    ),
    "untrusted_value_echo": (
        "Session correlator",
        "A side-effecting call's arguments echo a value (recipient, account number, URL, file "
        "name, identifier) that only untrusted content supplied earlier in this session: content "
        "flagged as carrying injected instructions (AUTH; BLOCK in Strict/Paranoid), or content "
        "from an untrusted source (AUTH in Strict/Paranoid). Values from the user's prompt and "
        "clean outputs are trusted. It is a hard floor.",
    ),
    "steered_action": (
        "Session correlator",
        "This session took in content flagged as carrying injected instructions, and this call acts "
        "beyond the workspace: it sends data out, publishes, messages, or changes a forge, a cluster, "
        "a cloud account or another system a program controls (a merge, an apply, a deploy). AUTH; "
        "BLOCK in Strict/Paranoid. Work inside the workspace (edits, tests, builds, plain reads) stays "
        "quiet. It is a hard floor.",
    ),
    "audit_unavailable": (
        "General",
        "The audit record of this decision could not be written and the configured policy says a "
        "decision that cannot be logged is denied.",
    ),
    "remote_shell": (
        "Objective guardrail",
        "A shell is handed to the network or waits on it: `/dev/tcp` wired to a shell, `nc -e`, "
        "`socat exec:`, a shell piped through `nc`/`openssl`/`telnet`, an interpreter one-liner "
        "joining a socket to a shell, or remote-shell tooling (BLOCK). Listeners, raw TCP clients "
        "and reverse-shell terminal upgrades (`stty raw -echo`, `pty.spawn`, `sh -i`) require "
        "authentication.",
    ),
    "defence_evasion": (
        "Objective guardrail",
        "A command hides what was done: shell history erased or disabled, file timestamps "
        "back-dated, the system clock changed, logs rewritten, terminal control sequences written "
        "into files, or invisible characters in command or file names. It requires "
        "authentication.",
    ),
    "unsafe_permissions": (
        "Objective guardrail",
        "`chmod` makes a file world-writable or setuid/setgid, so any user or process can change "
        "or escalate through it. It requires authentication (a recursive sweep of a system or "
        "home directory is `destructive_command`).",
    ),
    "session_halted": (
        "Session correlator",
        "A person (or a door, after a failed execution or verification) halted this session: "
        "every further call is denied until the session is cleared with `limen session clear "
        "--all`. A hard floor.",
    ),
    "rate_limited": (
        "Objective guardrail",
        "More calls in one session within the rate window than it allows (limen.yaml's rate: calls "
        "and seconds where set, else the mode's: none in light; 240, 120 and 60 a minute in balanced, "
        "strict and paranoid): a runaway loop or an agent working through a list an injection gave it. "
        "It requires authentication.",
    ),
    "invalid_arguments": (
        "General",
        "The arguments of an SDK call do not fit the signature of the tool the application "
        "registered (a wrong type, an unknown or missing parameter, a path with a NUL byte, a URL "
        "without a host, a command that does not parse) or exceed its size limit. The call is "
        "blocked before the policy sees it and the tool never runs.",
    ),
}

_INTRO = """\
# Reason codes

Every non-PASS decision carries one or more `ReasonCode` values (`limen.model.ReasonCode`) and a one-line
explanation. Match on the code in automation: the values are stable.

This page is generated by `python -m limen.catalogue` from the meanings in `src/limen/catalogue.py`, the
docstrings of the rules in `src/limen/rules/` and the examples in `tests/rules/examples/` (which
`tests/rules/test_examples.py` walks); `tests/test_reason_codes.py` fails when it is stale. Add a code, its
meaning and, for a rule's code, its examples in one change.

The first 57 codes are the seed catalogue's, with its names and meanings; the last rows are Limen's own.
"""
EXAMPLES_SHOWN = 8  # flagged and quiet examples per code on this page (the test walks them all)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _example(item: dict[str, Any]) -> str:
    """One example as a reader would type it: the command, the path, or the call's arguments."""
    args = item.get("args") or {}
    tool = item.get("tool", "")
    shown = args.get("command") or args.get("file_path") or args.get("url")
    if not isinstance(shown, str):
        shown = ", ".join(f"{k}={v!r}" for k, v in args.items())
    shown = " ".join(shown.split())
    if len(shown) > 140:
        shown = shown[:137] + "..."
    verdict = f" -> {item['verdict']}" if item.get("verdict") else ""
    shown = shown.replace("`", "'")
    return f"- {tool}: `{shown}`{verdict}"


def _examples(directory: Path, code: str) -> list[str]:
    path = directory / f"{code}.yaml"
    if not path.is_file():
        return []
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    lines: list[str] = []
    for key, title in (("flagged", "Flagged"), ("quiet", "Left quiet")):
        items = data.get(key) or []
        if not items:
            continue
        more = len(items) - EXAMPLES_SHOWN
        tail = f" ({more} more in `tests/rules/examples/{code}.yaml`)" if more > 0 else ""
        lines += ["", f"{title}{tail}:", ""]
        lines += [_example(item) for item in items[:EXAMPLES_SHOWN]]
    return lines


def render(examples: Path) -> str:
    """The whole page: the table of every code, then each built-in rule with its docstring and examples."""
    from limen import rules

    missing = [code.value for code in ReasonCode if code.value not in MEANINGS]
    unknown = sorted(set(MEANINGS) - {code.value for code in ReasonCode})
    if missing or unknown:
        raise ValueError(f"MEANINGS and ReasonCode disagree: missing {missing}, unknown {unknown}")
    lines = [_INTRO, "| Code | Group | Meaning |", "|---|---|---|"]
    for code in ReasonCode:
        group, meaning = MEANINGS[code.value]
        lines.append(f"| `{code.value}` | {group} | {_cell(meaning)} |")
    lines += [
        "",
        "## Rules",
        "",
        "Each objective rule is a small module function that owns its codes, declares the `Action` fields it",
        "reads, and documents what it flags and what it leaves quiet.",
    ]
    shown: set[str] = set()
    for rule in rules.objective_rules():
        if rule.plugin:
            continue
        codes = sorted(code.value for code in rule.codes)
        module = inspect.getmodule(rule.check)
        where = module.__name__.replace(".", "/") + ".py" if module is not None else ""
        reads = f"; reads {', '.join(f'`{n}`' for n in rule.needs)}" if rule.needs else ""
        lines += [
            "",
            f"### `{rule.name}`",
            "",
            f"Codes: {', '.join(f'`{c}`' for c in codes)} (`src/{where}`{reads}).",
        ]
        doc = inspect.getdoc(rule.check)
        if doc:
            lines += ["", doc]
        for value in codes:
            if value not in shown:
                shown.add(value)
                found = _examples(examples, value)
                if found:
                    lines += ["", f"#### `{value}` examples", *found]
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m limen.catalogue", description=__doc__)
    parser.add_argument("--examples", default="tests/rules/examples", help="the rule examples folder")
    parser.add_argument("--out", default="docs/reason-codes.md", help="where the page goes ('-': stdout)")
    args = parser.parse_args(argv)
    page = render(Path(args.examples))
    if args.out == "-":
        sys.stdout.write(page)
    else:
        Path(args.out).write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
