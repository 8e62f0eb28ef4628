"""Limen's vocabulary: verdicts, reason codes, the normalised `Action` and the `Decision`.

Everything here is plain data with no dependencies, so every door, rule and store can import it
without paying for anything else. Records are slotted dataclasses: the hook path builds a few per call.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Verdict(enum.IntEnum):
    """What happens to a call. Ordered so that `max()` is the only combining operation needed."""

    PASS = 0
    AUTH = 1
    BLOCK = 2


class Mode(enum.StrEnum):
    """How much friction the user accepts in exchange for caution."""

    LIGHT = "light"
    BALANCED = "balanced"
    STRICT = "strict"
    PARANOID = "paranoid"

    @property
    def strict_or_above(self) -> bool:
        return self in (Mode.STRICT, Mode.PARANOID)


class ReasonCode(enum.StrEnum):
    """Machine-stable reasons. `docs/reason-codes.md` is the catalogue; a test keeps the two equal."""

    # General
    NORMALIZATION_FAILED = "normalization_failed"
    UNKNOWN_TOOL = "unknown_tool"
    DOWNSTREAM_ERROR = "downstream_error"
    OBJECTIVE_GUARDRAIL_ERROR = "objective_guardrail_error"
    SUBJECTIVE_GUARDRAIL_ERROR = "subjective_guardrail_error"
    SUBJECTIVE_BLOCK_CLAMPED = "subjective_block_clamped"
    PROXY_HANDLER_ERROR = "proxy_handler_error"
    # Objective guardrail
    SECRET_EXFILTRATION = "secret_exfiltration"
    SENSITIVE_SECRET_ACCESS = "sensitive_secret_access"
    POSSIBLE_HIGH_ENTROPY_SECRET = "possible_high_entropy_secret"
    PROTECTED_PATH_BLOCKED = "protected_path_blocked"
    SENSITIVE_PATH_ACCESS = "sensitive_path_access"
    DESTRUCTIVE_COMMAND = "destructive_command"
    ENVIRONMENT_DUMP_COMMAND = "environment_dump_command"
    BULK_OPERATION = "bulk_operation"
    OPAQUE_COMMAND = "opaque_command"
    UNKNOWN_EXTERNAL_DESTINATION = "unknown_external_destination"
    EGRESS_REQUIRES_AUTH = "egress_requires_auth"
    ENCODED_EXFILTRATION = "encoded_exfiltration"
    TOOL_SCHEMA_CHANGED = "tool_schema_changed"
    RULE_ERROR = "rule_error"
    PII_DATA_CLASS_EGRESS = "pii_data_class_egress"
    PERSISTENCE_WRITE = "persistence_write"
    LOOKALIKE_PACKAGE = "lookalike_package"
    DNS_EXFILTRATION = "dns_exfiltration"
    RATE_LIMITED = "rate_limited"
    REMOTE_SHELL = "remote_shell"
    DEFENCE_EVASION = "defence_evasion"
    PRODUCTION_CHANGE = "production_change"
    UNSAFE_PERMISSIONS = "unsafe_permissions"
    # Role policy
    ROLE_BLOCKED_TARGET = "role_blocked_target"
    ROLE_OUT_OF_SCOPE = "role_out_of_scope"
    POLICY_SOURCE_BLOCKED = "policy_source_blocked"
    POLICY_SOURCE_SENSITIVE = "policy_source_sensitive"
    POLICY_DENIED = "policy_denied"
    POLICY_ASK = "policy_ask"
    # Subjective layer
    UNUSUAL_FOR_WORKFLOW = "unusual_for_workflow"
    UNUSUAL_FOR_DEPLOYMENT = "unusual_for_deployment"
    CONFIDENTIALITY_SENSITIVE_DESTINATION = "confidentiality_sensitive_destination"
    IRREVERSIBLE_HIGH_BLAST = "irreversible_high_blast"
    LETHAL_TRIFECTA = "lethal_trifecta"
    UNCLASSIFIED_ACTION = "unclassified_action"
    RISK_THRESHOLD = "risk_threshold"
    JUDGE_OBJECTION = "judge_objection"
    SUSPECT_CODE_CHANGE = "suspect_code_change"
    # Token channels and encoded blobs
    SMUGGLED_TOKEN_CHANNEL = "smuggled_token_channel"
    ANOMALOUS_TOKEN_PATTERN = "anomalous_token_pattern"
    OVERSIZED_ENCODED_BLOB = "oversized_encoded_blob"
    # Host-hook containment
    MULTI_STEP_EXFIL = "multi_step_exfil"
    CONFIRMED_EXFIL = "confirmed_exfil"
    # Turn gate
    TURN_GATE_ERROR = "turn_gate_error"
    INSTRUCTION_NULLIFICATION = "instruction_nullification"
    AUTHORITY_OVERRIDE = "authority_override"
    SECRET_EXPORT = "secret_export"
    ENCODED_PAYLOAD = "encoded_payload"
    INDIRECT_INJECTION = "indirect_injection"
    EMBEDDED_INSTRUCTION = "embedded_instruction"
    PERSONA_OVERRIDE = "persona_override"
    OBFUSCATED_CONTENT = "obfuscated_content"
    URGENCY_SECRECY_FRAMING = "urgency_secrecy_framing"
    STYLOMETRIC_OUTLIER = "stylometric_outlier"
    REPEAT_AFTER_BLOCK = "repeat_after_block"
    TURN_BLOCKED_REPEATEDLY = "turn_blocked_repeatedly"
    # Egress broker
    EGRESS_ROUTE_DIVERGENCE = "egress_route_divergence"
    EGRESS_BROKER_ENFORCED = "egress_broker_enforced"
    EGRESS_BLOCKED_BY_MODE = "egress_blocked_by_mode"
    ANOMALOUS_EGRESS_VELOCITY = "anomalous_egress_velocity"
    # Artifacts and session correlation
    ARTIFACT_DIGEST_MISMATCH = "artifact_digest_mismatch"
    CORRELATED_TRIFECTA = "correlated_trifecta"
    CORRELATED_DESTRUCTIVE_FLOW = "correlated_destructive_flow"
    UNTRUSTED_VALUE_ECHO = "untrusted_value_echo"
    STEERED_ACTION = "steered_action"
    AUDIT_UNAVAILABLE = "audit_unavailable"
    SESSION_HALTED = "session_halted"
    INVALID_ARGUMENTS = "invalid_arguments"


class Capability(enum.StrEnum):
    """What an action can do, independent of the tool's name. Policy may declare further custom ones."""

    FILESYSTEM_READ = "filesystem.read"
    FILESYSTEM_WRITE = "filesystem.write"
    FILESYSTEM_DELETE = "filesystem.delete"
    SHELL_EXECUTE = "shell.execute"
    NETWORK_REQUEST = "network.request"
    REPOSITORY_WRITE = "repository.write"
    EMAIL_SEND = "email.send"
    MESSAGE_SEND = "message.send"
    AGENT_DELEGATE = "agent.delegate"
    MCP_CALL = "mcp.call"
    UNKNOWN = "unknown"


OUTBOUND_CAPABILITIES = frozenset(
    {Capability.NETWORK_REQUEST, Capability.REPOSITORY_WRITE, Capability.EMAIL_SEND, Capability.MESSAGE_SEND}
)


class HostClass(enum.StrEnum):
    """Where a destination lives, as far as its address tells."""

    PUBLIC = "public"
    PRIVATE = "private"
    LOOPBACK = "loopback"
    LINK_LOCAL = "link_local"
    METADATA = "metadata"
    UNKNOWN = "unknown"


# A `Destination.flags` entry: a program's request with no body to a URL written out in full, from a program
# that opens no connection of its own (`requests.get(URL)`): it fetches as `curl -s URL` does.
FETCHED = "fetched"

# `Action.notes` prefixes across calls: a file (or a clone's folder) the call fetched from the network, and a
# file it runs. The runtime remembers the first in the session, so that running it in a later call is judged
# as the two in one line would be.
FETCHED_FILE = "fetched-file:"
RUNS_FILE = "runs-file:"
# `Action.notes` prefix: a signature or checksum check whose failure the line turns into success
# (`gpg --verify x.asc || true`), followed by the checking program's name
IGNORED_CHECK = "ignored-check:"


@dataclass(slots=True, frozen=True)
class Destination:
    """A network endpoint an action reaches, with its host normalised (IDNA, IP literal forms resolved)."""

    host: str
    scheme: str = ""
    port: int | None = None
    url: str = ""
    host_class: HostClass = HostClass.PUBLIC
    ip: str | None = None
    has_userinfo: bool = False
    via_command: str = ""  # the shell command that reaches it ("curl"), empty for a tool argument
    flags: tuple[str, ...] = ()  # e.g. "punycode", "ip_obfuscated", "homoglyph", "substituted_label"


@dataclass(slots=True, frozen=True)
class Command:
    """One simple command a shell line would run, after unwrapping wrappers and nested shells."""

    argv: tuple[str, ...]
    name: str  # basename of argv[0], quote and escape tricks removed
    via: tuple[str, ...] = ()  # how it was reached: ("bash -c",), ("$()",), ("base64 -d",) ...
    redirects: tuple[str, ...] = ()  # targets of output redirections (`> file`)
    dynamic_name: bool = False  # the command name came from a substitution or variable
    # what it prints goes only down a pipeline to a program that prints none of it (`cat .env | wc -l`,
    # `gh auth token | grep -c gho_`): nothing of its output reaches the model
    output_hidden: bool = False


@dataclass(slots=True)
class Action:
    """The normalised record every door produces (the seeds' `SecurityObject`)."""

    tool: str
    capability: str
    arguments: dict[str, Any]
    door: str = "sdk"
    cwd: str = ""
    session_id: str | None = None
    agent: str = ""
    role: str = ""
    mode: Mode = Mode.BALANCED
    paths: tuple[str, ...] = ()
    write_paths: tuple[str, ...] = ()
    commands: tuple[Command, ...] = ()
    command_line: str = ""
    destinations: tuple[Destination, ...] = ()
    payloads: tuple[str, ...] = ()
    provenance: frozenset[str] = frozenset()  # "untrusted_content", "user_prompt", ...
    opaque: bool = False  # some part of the action could not be analysed statically
    notes: tuple[str, ...] = ()  # what normalisation noticed, for the evidence trail

    @property
    def outbound(self) -> bool:
        return bool(self.destinations) or self.capability in OUTBOUND_CAPABILITIES


@dataclass(slots=True, frozen=True)
class Finding:
    """One rule's opinion: a code, the verdict it asks for, its risk, and a short redacted detail."""

    code: ReasonCode
    verdict: Verdict
    risk: int
    detail: str = ""


@dataclass(slots=True, frozen=True)
class StageResult:
    """One stage of the decision path as it appears in the evidence trail."""

    stage: str
    verdict: Verdict
    risk: int
    reasons: tuple[ReasonCode, ...] = ()
    details: tuple[str, ...] = ()
    micros: float = 0.0


@dataclass(slots=True, frozen=True)
class PolicyOutcome:
    """What the policy chain answers: its verdict word (allow|ask|deny|pass), the findings it raises,
    one StageResult per layer that ran, and the reason codes the drift gate waived for this action."""

    verdict: str
    findings: tuple[Finding, ...] = ()
    trail: tuple[StageResult, ...] = ()
    waived: frozenset[str] = frozenset()
    decided_by: str = ""  # the stage name of the layer whose verdict ended the chain, if any


@dataclass(slots=True)
class Decision:
    """What the engine answers: a verdict, a 0-100 risk, reason codes, one line, and the evidence trail."""

    verdict: Verdict
    risk: int
    reasons: tuple[ReasonCode, ...]
    explanation: str
    evidence: list[StageResult] = field(default_factory=list)
    findings: tuple[Finding, ...] = ()
    action: Action | None = None
    decision_id: str = ""
    approval_id: str = ""  # the single-use approval request this AUTH opened, or the grant a PASS used
    # of a tool output: the pieces that read as instructions to the agent, which a door cuts out in place
    # (`limen.scan.instruction_spans`); untrusted text, never written to the audit log
    removed: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view that carries no raw argument values (details are already redacted)."""
        return {
            "id": self.decision_id,
            "approval_id": self.approval_id or None,
            "verdict": self.verdict.name,
            "risk": self.risk,
            "reasons": [r.value for r in self.reasons],
            "explanation": self.explanation,
            "evidence": [
                {
                    "stage": s.stage,
                    "verdict": s.verdict.name,
                    "risk": s.risk,
                    "reasons": [r.value for r in s.reasons],
                    "details": list(s.details),
                    "us": round(s.micros, 1),
                }
                for s in self.evidence
            ],
        }
