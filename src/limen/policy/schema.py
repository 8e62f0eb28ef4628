"""The policy file's schema (pydantic, `extra="forbid"`): unknown keys and bad patterns are errors.

Validators check every pattern when the file loads, so a typo in a glob is reported with its key path
instead of becoming a rule that never matches.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    field_validator,
)

from limen.model import Mode
from limen.policy import matchers


def _listify(value: object) -> object:
    """A single string where a list is expected is a list of one."""
    return [value] if isinstance(value, str) else value


def _checked(check: matchers.Checker) -> AfterValidator:
    def validate(value: str) -> str:
        if problem := check(value):
            raise ValueError(problem)
        return value

    return AfterValidator(validate)


Paths = Annotated[list[Annotated[str, _checked(matchers.check_path_pattern)]], BeforeValidator(_listify)]
Commands = Annotated[
    list[Annotated[str, _checked(matchers.check_command_pattern)]], BeforeValidator(_listify)
]
Hosts = Annotated[list[Annotated[str, _checked(matchers.check_host_pattern)]], BeforeValidator(_listify)]
Tools = Annotated[list[Annotated[str, _checked(matchers.check_tool_pattern)]], BeforeValidator(_listify)]
Names = Annotated[list[str], BeforeValidator(_listify)]
PlainPaths = Annotated[list[Annotated[str, _checked(matchers.check_plain_path)]], BeforeValidator(_listify)]
FileNames = Annotated[list[Annotated[str, _checked(matchers.check_file_name)]], BeforeValidator(_listify)]


def _by_door(value: str | None) -> str | None:
    """`by_door` says explicitly what leaving the key out means (see `limen.policy.doors`)."""
    return None if value == "by_door" else value


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DenylistLayer(Strict):
    """Deny (or ask) when any listed path, command, host or tool matches."""

    layer: Literal["denylist"]
    name: str | None = None
    paths: Paths = []
    commands: Commands = []
    hosts: Hosts = []
    tools: Tools = []
    on_match: Literal["deny", "ask"] = "deny"


class AllowlistLayer(Strict):
    """Hosts an action may reach. `on_match: pass` (necessary, not sufficient) lets later layers still run."""

    layer: Literal["allowlist"]
    name: str | None = None
    hosts: Annotated[Hosts, Field(min_length=1)]
    on_match: Literal["pass", "allow"] = "pass"
    on_miss: Literal["deny", "pass"] = "deny"


class Match(Strict):
    """AgentGuard-style matcher: every field given must match (an empty field matches anything)."""

    capability: Names = []
    tool: Tools = []
    paths: Paths = []
    commands: Commands = []
    hosts: Hosts = []
    environment: dict[str, str] = {}
    flags: Names = []


class Rule(Strict):
    id: str = Field(min_length=1)
    match: Match
    effect: Literal["allow", "ask", "deny", "annotate"]
    flag: str | None = None
    reason: str = ""

    @field_validator("flag")
    @classmethod
    def _flag_name(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("empty flag name")
        return value


class RulesLayer(Strict):
    """Ordered rules: any matching `deny` wins, otherwise the first matching `ask`/`allow` decides."""

    layer: Literal["rules"]
    name: str | None = None
    rules: list[Rule] = Field(min_length=1)


class DlpPattern(Strict):
    name: str = Field(min_length=1)
    regex: str

    @field_validator("regex")
    @classmethod
    def _compiles(cls, value: str) -> str:
        problem = matchers.check_command_pattern("re:" + value)
        if problem:
            raise ValueError(problem)
        return value


class DlpLayer(Strict):
    """Credentials and personal data in what leaves: payloads of outbound actions."""

    layer: Literal["dlp"]
    name: str | None = None
    detect: list[Literal["credentials", "pii"]] = ["credentials", "pii"]
    patterns: list[DlpPattern] = []
    on_match: Literal["deny", "ask", "annotate"] = "deny"
    max_body_bytes: StrictInt = Field(default=1_000_000, gt=0)
    on_oversize: Literal["deny", "ask", "pass"] = "ask"


Layer = Annotated[DenylistLayer | AllowlistLayer | RulesLayer | DlpLayer, Field(discriminator="layer")]


class ThresholdsSpec(Strict):
    ask: StrictInt | None = Field(default=None, ge=1, le=100)
    strong: StrictInt | None = Field(default=None, ge=1, le=100)
    deny: StrictInt | None = Field(default=None, ge=1, le=100)


class Risk(Strict):
    thresholds: ThresholdsSpec = ThresholdsSpec()
    bulk_threshold: StrictInt | None = Field(default=None, ge=1)


class HostEdits(Strict):
    add: Hosts = []
    remove: Hosts = []


class RoleDeny(Strict):
    paths: Paths = []
    hosts: Hosts = []
    tools: Tools = []


class Role(Strict):
    """An agent role's boundary: what it may touch (empty = unrestricted) and what it must never touch."""

    paths: Paths = []
    hosts: Hosts = []
    tools: Tools = []
    capabilities: Names = []
    deny: RoleDeny = RoleDeny()


class PolicySources(Strict):
    """Provenance labels (`web:*`, `mcp:server`, `untrusted_content`) whose instructions are refused."""

    blocked: Names = []
    sensitive: Names = []


class CustomCapability(Strict):
    description: str = ""


class ToolMap(Strict):
    """Which capability a tool has and which of its parameters play which role."""

    capability: str = Field(min_length=1)
    paths: Names = []
    commands: Names = []
    urls: Names = []
    payloads: Names = []
    recipients: Names = []
    write: StrictBool = False


class Waiver(Strict):
    """One reason code muted for one scope until an expiry. Written by the drift gate's approval only."""

    code: str
    paths: Paths = []
    hosts: Hosts = []
    commands: Commands = []
    expires: date | datetime
    reason: str = Field(min_length=1)


class PolicyFile(Strict):
    version: Literal[1] = 1
    mode: Mode | None = None
    enforcement: Literal["enforce", "monitor"] | None = None
    acknowledge: list[Literal["allow_by_default", "monitor"]] = []
    default_action: Annotated[Literal["deny", "ask", "allow", "by_door"] | None, AfterValidator(_by_door)] = (
        None
    )
    risk: Risk = Risk()
    trusted_hosts: HostEdits = HostEdits()
    protected_paths: PlainPaths = []
    protected_names: FileNames = []
    sensitive_paths: PlainPaths = []
    chain: list[Layer] = []
    roles: dict[str, Role] = {}
    policy_sources: PolicySources = PolicySources()
    capabilities: dict[str, CustomCapability] = {}
    tools: dict[str, ToolMap] = {}
    waivers: list[Waiver] = []
