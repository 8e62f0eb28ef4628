"""What a decision knows besides the action: mode, thresholds, trusted and protected lists, session.

The model controls only the tool name and its arguments; everything in a `Context` comes from the user's
configuration and Limen's own state, so a prompt injection cannot forge it.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from limen.facts.hosts import REGISTRY_HOSTS
from limen.home import limen_home
from limen.model import Mode

if TYPE_CHECKING:
    from limen.model import Action, Decision, Finding, PolicyOutcome
    from limen.policy.compiled import CompiledPolicy


@dataclass(slots=True, frozen=True)
class Thresholds:
    """Risk thresholds: `ask` turns PASS into AUTH, `strong` needs strong approval, `deny` is BLOCK."""

    ask: int = 51
    strong: int = 76
    deny: int = 91


MODE_THRESHOLDS: dict[Mode, Thresholds] = {
    Mode.LIGHT: Thresholds(ask=61, strong=81, deny=95),
    Mode.BALANCED: Thresholds(),
    Mode.STRICT: Thresholds(ask=41, strong=66, deny=86),
    Mode.PARANOID: Thresholds(ask=31, strong=56, deny=81),
}

# The rate window: more calls than this within the window (seconds) in one session ask a human.
RATE_LIMITS: dict[Mode, tuple[int, float] | None] = {
    Mode.LIGHT: None,
    Mode.BALANCED: (240, 60.0),
    Mode.STRICT: (120, 60.0),
    Mode.PARANOID: (60, 60.0),
}
RateWindow = tuple[int, float] | None  # (calls, seconds); None: no window


def rate_allows_more(a: RateWindow, b: RateWindow) -> bool:
    """Whether window `a` lets through a burst that `b` would stop: more calls, a shorter window, or none."""
    if b is None:
        return False
    return a is None or a[0] > b[0] or a[1] < b[1]


def stricter_rate(a: RateWindow, b: RateWindow) -> RateWindow:
    """A window at least as strict as both: the fewer calls within the longer window."""
    if a is None or b is None:
        return b if a is None else a
    return (min(a[0], b[0]), max(a[1], b[1]))


# How many operands a delete may have before it counts as a bulk operation.
BULK_THRESHOLDS: dict[Mode, int] = {Mode.LIGHT: 200, Mode.BALANCED: 50, Mode.STRICT: 20, Mode.PARANOID: 5}

# Hosts ordinary development reaches: source forges and package registries (one table: `limen.facts.hosts`).
DEFAULT_TRUSTED_HOSTS: tuple[str, ...] = REGISTRY_HOSTS


def _codex_home_files() -> tuple[str, ...]:
    """Codex's hook wiring where `CODEX_HOME` moves it."""
    codex_home = os.environ.get("CODEX_HOME")
    if not codex_home:
        return ()
    return (os.path.join(codex_home, "hooks.json"), os.path.join(codex_home, "config.toml"))


# The agents' hook and MCP configuration of any project, wherever it lies: written in another project's
# folder, it switches Limen off there for the next session an agent starts in it (files in an agent's own
# folder only: a name a glob's representative can take, `limen.yaml`, `.mcp.json`, counts in the workspace)
AGENT_CONTROL_FILES = (
    *("/.claude/settings.json", "/.claude/settings.local.json", "/.cursor/hooks.json", "/.cursor/mcp.json"),
    *("/.gemini/settings.json", "/.codex/hooks.json", "/.codex/config.toml"),
    *("/.cursor/cli.json", "/.cursor/cli-config.json"),  # the Cursor CLI's permissions: what it runs unasked
)


def default_protected_paths(home: str, workspace: str) -> tuple[str, ...]:
    """Limen's own control plane and the agents' hook configuration: an agent must not switch Limen off."""
    return (
        limen_home(),
        os.path.join(home, ".limen"),  # the default home: what a hook started without `LIMEN_HOME` reads
        os.path.join(workspace, ".limen"),
        os.path.join(workspace, "limen.yaml"),
        os.path.join(home, ".config", "limen"),
        # the places a tool keeps its data, cache and state by the XDG convention: Limen keeps none there, but
        # an agent that deletes them is trying to erase Limen's records
        os.path.join(home, ".local", "share", "limen"),
        os.path.join(home, ".local", "state", "limen"),
        os.path.join(home, ".cache", "limen"),
        os.path.join(home, ".claude", "settings.json"),
        os.path.join(home, ".claude", "settings.local.json"),
        # the user's hook scripts, which that wiring runs: moved or emptied, every hook they hold stops
        os.path.join(home, ".claude", "hooks"),
        os.path.join(home, ".cursor", "hooks"),
        os.path.join(home, ".gemini", "hooks"),
        os.path.join(workspace, ".claude", "hooks"),  # (a project's own hook scripts, which its settings run)
        os.path.join(workspace, ".cursor", "hooks"),
        os.path.join(workspace, ".gemini", "hooks"),
        os.path.join(workspace, ".claude", "settings.json"),
        os.path.join(workspace, ".claude", "settings.local.json"),
        os.path.join(home, ".cursor", "hooks.json"),
        os.path.join(workspace, ".cursor", "hooks.json"),
        # the Cursor CLI's permissions (`"allow": ["Shell(*)"]`), as Claude Code's are in its settings
        os.path.join(workspace, ".cursor", "cli.json"),
        os.path.join(home, ".cursor", "cli-config.json"),
        os.path.join(home, ".gemini", "settings.json"),
        os.path.join(home, ".gemini", "trustedFolders.json"),  # an untrusted folder runs no hooks
        os.path.join(workspace, ".gemini", "settings.json"),
        os.path.join(home, ".codex", "hooks.json"),
        os.path.join(home, ".codex", "config.toml"),  # hook trust hashes and project trust live here
        *_codex_home_files(),
        os.path.join(workspace, ".codex", "hooks.json"),
        os.path.join(workspace, ".codex", "config.toml"),
        # The MCP server files `limen install --mcp` wraps: unwrapping an entry bypasses the proxy.
        os.path.join(workspace, ".mcp.json"),
        os.path.join(home, ".claude.json"),
        os.path.join(workspace, ".cursor", "mcp.json"),
        os.path.join(home, ".cursor", "mcp.json"),
        os.path.join(home, ".config", "Claude", "claude_desktop_config.json"),
        os.path.join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json"),
        # The commands those configs run: replacing one would switch Limen off just the same.
        os.path.join(os.path.dirname(sys.executable), "limen-hook"),
        os.path.join(os.path.dirname(sys.executable), "limen"),
    )


class SessionView(Protocol):
    """What the floors and the correlator read from a session (implemented by the state stores)."""

    session_id: str

    def is_tainted(self) -> bool: ...

    def matches_secret(self, value: str) -> bool: ...

    def has_untrusted_content(self) -> bool: ...

    def took_in_injection(self) -> bool: ...  # content flagged as carrying injected instructions came in

    def echoes_untrusted_value(self, values: list[str]) -> bool: ...

    def echo_source(self, values: list[str]) -> str: ...  # "injected", "untrusted" or ""

    def value_origin(self, value: str) -> str: ...  # "user", "clean", "untrusted", "injected" or ""

    def fetched(self, path: str) -> str: ...  # "file", "installer", "folder", "": fetched by an earlier call

    def is_halted(self) -> bool: ...

    calls_in_window: int  # this session's calls within the rate window, this one included

    def recent(self) -> list[dict[str, Any]]: ...


class PolicyChain(Protocol):
    """The user's ordered policy layers (see `limen.policy`)."""

    def evaluate(self, action: Action) -> PolicyOutcome: ...


class FloorHook(Protocol):
    def __call__(self, action: Action, ctx: Context, decision: Decision) -> list[Finding]: ...


@dataclass(slots=True)
class Context:
    """Everything a rule may consult that the model cannot forge."""

    mode: Mode = Mode.BALANCED
    workspace: str = ""
    home: str = field(default_factory=lambda: os.path.expanduser("~"))
    thresholds: Thresholds = field(default_factory=Thresholds)
    trusted_hosts: tuple[str, ...] = DEFAULT_TRUSTED_HOSTS
    protected_paths: tuple[str, ...] = ()
    protected_names: tuple[str, ...] = ()  # bare file names protected wherever they appear
    extra_sensitive_paths: tuple[str, ...] = ()
    bulk_threshold: int = 50
    rate_limit: tuple[int, float] | None = None  # (calls, seconds) per session
    chain: PolicyChain | None = None
    session: SessionView | None = None
    waived: frozenset[str] = frozenset()  # reason codes waived for this action by the drift gate
    policy: CompiledPolicy | None = None  # roles, policy sources, tool maps, enforcement (limen.policy)

    @classmethod
    def for_mode(cls, mode: Mode, workspace: str, **overrides: Any) -> Context:
        home = os.path.expanduser("~")
        ctx = cls(
            mode=mode,
            workspace=workspace,
            home=home,
            thresholds=MODE_THRESHOLDS[mode],
            bulk_threshold=BULK_THRESHOLDS[mode],
            rate_limit=RATE_LIMITS[mode],
            protected_paths=default_protected_paths(home, workspace),
        )
        for key, value in overrides.items():
            setattr(ctx, key, value)
        return ctx
