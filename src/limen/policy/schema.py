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
    model_validator,
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


class Rate(Strict):
    """The session's rate window (`limen.rules.rate`): more than `calls` calls within `seconds` in one
    session ask a human. Without it the mode's window applies (none in light; 240, 120 and 60 a minute in
    balanced, strict and paranoid)."""

    calls: StrictInt = Field(ge=1, le=1_000_000)
    seconds: StrictInt = Field(ge=1, le=86_400)


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


ApprovalChannel = Literal["terminal", "cli", "webhook", "ntfy"]
_LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _web_url(value: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("expected an http:// or https:// URL with a host")
    return value


WebUrl = Annotated[str, AfterValidator(_web_url)]


def _loopback_address(value: str) -> str:
    host, sep, port = value.rpartition(":")
    if not sep or host.strip("[]") not in _LOOPBACK or not port.isdigit() or int(port) > 65535:
        raise ValueError("expected a loopback HOST:PORT (127.0.0.1, ::1 or localhost; port 0 picks one)")
    return value


class WebhookChannel(Strict):
    """An incoming webhook (Slack or Teams style) that is sent each request with its signed links."""

    url: WebUrl
    format: Literal["slack", "teams"] = "slack"


class NtfyChannel(Strict):
    """An ntfy topic URL: each request is published with Approve and Deny actions."""

    url: WebUrl


class ApprovalCallback(Strict):
    """Where Limen serves the signed approve/deny links (loopback only) and how the links are spelled
    (`public_url`: a tunnel or proxy in front of it; default the listening address)."""

    listen: Annotated[str, AfterValidator(_loopback_address)] = "127.0.0.1:0"
    public_url: WebUrl | None = None


class Approvals(Strict):
    """Single-use approvals of AUTH calls: where a human is asked, in order, and for how long."""

    channels: list[ApprovalChannel] = ["terminal", "cli"]
    expiry_seconds: StrictInt = Field(default=600, ge=10, le=86400)
    wait_seconds: StrictInt = Field(default=120, ge=0, le=3600)
    webhook: WebhookChannel | None = None
    ntfy: NtfyChannel | None = None
    callback: ApprovalCallback = ApprovalCallback()

    @field_validator("channels")
    @classmethod
    def _once_each(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("a channel is listed twice")
        return value

    @model_validator(mode="after")
    def _configured(self) -> Approvals:
        for channel in ("webhook", "ntfy"):
            if channel in self.channels and getattr(self, channel) is None:
                raise ValueError(f"channel {channel!r} is listed but approvals.{channel} is not set")
        return self


class Judge(Strict):
    """The raise-only LLM judge (`limen.judge`): off unless a level turns it on. The API key is read from the
    environment variable `api_key_env` names, never from a policy file (a key written here is refused)."""

    mode: Literal["off", "shadow", "enforce"] = "off"
    provider: Literal["openai", "anthropic", "ollama"] = "openai"
    url: WebUrl | None = None
    model: str = Field(default="", max_length=200)
    api_key_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")
    timeout_seconds: float = Field(default=3.0, gt=0, le=60)
    budget_ms: StrictInt = Field(default=1500, ge=10, le=120_000)
    cache_seconds: StrictInt = Field(default=600, ge=0, le=86_400)
    breaker_failures: StrictInt = Field(default=3, ge=1, le=100)
    breaker_cooldown_seconds: StrictInt = Field(default=60, ge=1, le=86_400)
    tier2_band: float = Field(default=0.15, ge=0, le=1)

    @model_validator(mode="before")
    @classmethod
    def _no_key_in_file(cls, data: object) -> object:
        if isinstance(data, dict) and any(k in data for k in ("api_key", "key", "token", "password")):
            raise ValueError(
                "an API key does not belong in a policy file: set api_key_env to the name of "
                "the environment variable that holds it"
            )
        return data

    @model_validator(mode="after")
    def _usable(self) -> Judge:
        if self.mode != "off" and (self.url is None or not self.model):
            raise ValueError(f"judge mode {self.mode!r} needs url and model")
        return self


class Baseline(Strict):
    """The subjective layer's per-workflow baseline (`limen.subjective.baseline`): raise-only, off unless
    enabled; `min_history` calls of a workflow are learnt before it scores anything."""

    enabled: StrictBool = False
    min_history: StrictInt = Field(default=30, ge=5, le=1_000_000)


class PolicyFile(Strict):
    version: Literal[1] = 1
    mode: Mode | None = None
    enforcement: Literal["enforce", "monitor"] | None = None
    acknowledge: list[Literal["allow_by_default", "monitor"]] = []
    default_action: Annotated[Literal["deny", "ask", "allow", "by_door"] | None, AfterValidator(_by_door)] = (
        None
    )
    risk: Risk = Risk()
    rate: Rate | None = None
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
    approvals: Approvals | None = None
    judge: Judge | None = None
    baseline: Baseline | None = None
