"""Compiled matchers for the policy's patterns: paths, hosts, commands, tool names, provenance labels.

Everything is compiled once when the policy loads, so a decision only runs prepared regexes and set
lookups. Each `check_*` function returns an error message for a pattern that cannot be compiled, which
the schema turns into a config error naming the key: a bad glob is refused, never silently ignored.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

from limen.model import Action, Destination

# Host bundles: the hosts a forge or package registry serves clones, archives and packages from. Named
# hosts rather than wildcards, so user-content sites (github.io, gist.github.com) stay outside.
BUNDLES: dict[str, tuple[str, ...]] = {
    "github": (
        "github.com",
        "api.github.com",
        "codeload.github.com",
        "raw.githubusercontent.com",
        "objects.githubusercontent.com",
        "pkg-containers.githubusercontent.com",
        "ghcr.io",
    ),
    "pypi": ("pypi.org", "files.pythonhosted.org"),
    "npm": ("registry.npmjs.org", "npmjs.com", "www.npmjs.com", "registry.yarnpkg.com"),
}

Checker = Callable[[str], str | None]  # a pattern -> the reason it is refused, or None

_NEVER = re.compile(r"(?!)")
_NAMED_GROUP = re.compile(r"\(\?P<\w+>")


def expand_path_pattern(pattern: str, workspace: str, home: str) -> str:
    """`~` and `${workspace}` expanded; a relative pattern with a slash is anchored to the workspace."""
    p = pattern.replace("${workspace}", workspace).replace("${home}", home)
    if p == "~" or p.startswith("~/"):
        p = home + p[1:]
    if "/" in p.rstrip("/") and not p.startswith("/") and not p.startswith("**"):
        p = os.path.join(workspace, p)
    return p


def check_path_pattern(pattern: str) -> str | None:
    if not pattern.strip():
        return "empty path pattern"
    if pattern.startswith("!"):
        return "negated patterns are not supported"
    regex, _ = GitIgnoreSpecPattern.pattern_to_regex(pattern.replace("${workspace}", "/w").replace("~", "/h"))
    return None if regex is not None else f"bad glob {pattern!r}"


def check_plain_path(path: str) -> str | None:
    if not path.strip():
        return "empty path"
    if any(c in path for c in "*?["):
        return f"{path!r} is a glob; this list takes plain paths (a directory covers everything below it)"
    return None


def check_file_name(name: str) -> str | None:
    if not name.strip() or "/" in name:
        return f"{name!r} is not a bare file name"
    return None


def _path_regex(patterns: Iterable[str], workspace: str, home: str) -> re.Pattern[str]:
    parts = []
    for pattern in patterns:
        regex, _ = GitIgnoreSpecPattern.pattern_to_regex(expand_path_pattern(pattern, workspace, home))
        if regex is not None:  # anchored at "^"; matched against absolute paths, so anchor at "^/"
            unnamed = _NAMED_GROUP.sub("(?:", regex)  # named groups would clash once patterns are joined
            parts.append(f"(?:^/{unnamed.removeprefix('^')})")
    return re.compile("|".join(parts)) if parts else _NEVER


def check_command_pattern(pattern: str) -> str | None:
    if not pattern.strip():
        return "empty command pattern"
    if pattern.startswith("re:"):
        try:
            re.compile(pattern[3:])
        except re.error as exc:
            return f"bad regular expression: {exc}"
    return None


def _command_regex(pattern: str) -> str:
    """A glob over a command's words, anchored at the start; trailing words are allowed."""
    if pattern.startswith("re:"):
        return f"(?:{pattern[3:]})"
    body = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern.strip())
    return f"(?:{body}(?:\\s.*)?\\Z)"


def check_host_pattern(pattern: str) -> str | None:
    p = pattern.strip().lower()
    if not p:
        return "empty host pattern"
    if "/" in p:
        try:
            ipaddress.ip_network(p, strict=False)
        except ValueError:
            return f"bad CIDR {pattern!r}"
        return None
    if not re.fullmatch(r"[a-z0-9*?.\-_:\[\]]+", p):
        return f"bad host pattern {pattern!r}"
    return None


def _glob_regex(pattern: str) -> str:
    return "".join("[^/]*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)


@dataclass(slots=True, frozen=True)
class HostMatcher:
    """Host globs (case-insensitive, `*.x` = any subdomain of x), CIDR ranges and named bundles."""

    regex: re.Pattern[str]
    networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]

    @classmethod
    def compile(cls, patterns: Iterable[str]) -> HostMatcher:
        globs: list[str] = []
        nets = []
        for raw in patterns:
            p = raw.strip().lower()
            if p in BUNDLES:
                globs.extend(BUNDLES[p])
            elif "/" in p:
                nets.append(ipaddress.ip_network(p, strict=False))
            else:
                globs.append(p)
        regex = re.compile("|".join(f"(?:{_glob_regex(g)})\\Z" for g in globs)) if globs else _NEVER
        return cls(regex, tuple(nets))

    def __bool__(self) -> bool:
        return self.regex is not _NEVER or bool(self.networks)

    def matches(self, dest: Destination) -> str | None:
        """The pattern kind that matched (for evidence), or None."""
        host = dest.host.lower().rstrip(".")
        if self.regex.match(host):
            return "glob"
        if self.networks:
            try:
                ip = ipaddress.ip_address(dest.ip or host.strip("[]"))
            except ValueError:
                return None
            if any(ip.version == n.version and ip in n for n in self.networks):
                return "cidr"
        return None


@dataclass(slots=True, frozen=True)
class Matchers:
    """The compiled form of a set of path/command/host/tool patterns, as used by denylists and rules."""

    paths: re.Pattern[str] = _NEVER
    commands: re.Pattern[str] = _NEVER
    hosts: HostMatcher = HostMatcher(_NEVER, ())
    tools: re.Pattern[str] = _NEVER

    @classmethod
    def compile(
        cls,
        *,
        paths: Iterable[str] = (),
        commands: Iterable[str] = (),
        hosts: Iterable[str] = (),
        tools: Iterable[str] = (),
        workspace: str,
        home: str,
    ) -> Matchers:
        cmd = [_command_regex(c) for c in commands]
        tl = [f"(?:{_glob_regex(t).replace('[^/]*', '.*')})\\Z" for t in tools]
        return cls(
            paths=_path_regex(paths, workspace, home),
            commands=re.compile("|".join(cmd)) if cmd else _NEVER,
            hosts=HostMatcher.compile(hosts),
            tools=re.compile("|".join(tl)) if tl else _NEVER,
        )

    def path(self, action: Action) -> str | None:
        if self.paths is not _NEVER:
            match = self.paths.match
            for p in action.paths:
                if match(p):
                    return p
        return None

    def command(self, action: Action) -> str | None:
        if self.commands is not _NEVER:
            match = self.commands.match
            for c in action.commands:
                if match(" ".join(c.argv)):
                    return c.name
        return None

    def host(self, action: Action) -> str | None:
        if self.hosts:
            for d in action.destinations:
                if self.hosts.matches(d):
                    return d.host
        return None

    def tool(self, action: Action) -> bool:
        return self.tools is not _NEVER and self.tools.match(action.tool) is not None


def label_regex(patterns: Iterable[str]) -> re.Pattern[str]:
    """Globs over free-form labels (provenance sources), where `*` also crosses `/` and `:`."""
    parts = [f"(?:{_glob_regex(p).replace('[^/]*', '.*')})\\Z" for p in patterns]
    return re.compile("|".join(parts)) if parts else _NEVER


def check_tool_pattern(pattern: str) -> str | None:
    return None if pattern.strip() else "empty tool pattern"
