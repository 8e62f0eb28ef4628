"""What the floors agree on: when an action carries data out, what it sends, and how hard a floor bites."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from limen.context import Context
from limen.model import Action, Capability, Destination, HostClass, Verdict

_LOCAL = frozenset({HostClass.LOOPBACK})
_INTERNAL = frozenset({HostClass.LOOPBACK, HostClass.PRIVATE, HostClass.LINK_LOCAL})


def mode_verdict(ctx: Context) -> Verdict:
    """AUTH in light and balanced, BLOCK in strict and paranoid."""
    return Verdict.BLOCK if ctx.mode.strict_or_above else Verdict.AUTH


def is_egress(action: Action) -> bool:
    """Data can leave: an outbound capability or any destination other than this machine."""
    if action.destinations:
        return any(d.host_class not in _LOCAL for d in action.destinations)
    return action.outbound


@lru_cache(maxsize=32)
def _trusted_pattern(patterns: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{fnmatch.translate(p.lower())})" for p in patterns) or "(?!)")


def trusted(dest: Destination, ctx: Context) -> bool:
    host = dest.host.lower().rstrip(".")
    return bool(host) and _trusted_pattern(tuple(ctx.trusted_hosts)).match(host) is not None


def is_external_egress(action: Action, ctx: Context) -> bool:
    """Egress beyond the user's trusted hosts and private networks (a send with no host counts)."""
    if action.destinations:
        return any(d.host_class not in _INTERNAL and not trusted(d, ctx) for d in action.destinations)
    return action.outbound


def is_side_effect(action: Action) -> bool:
    """Anything but a plain read changes the world or sends something (unknown tools included)."""
    return action.capability != Capability.FILESYSTEM_READ.value


def strings(value: Any, depth: int = 0) -> Iterator[str]:
    """Every string in a JSON-like value, keys of objects excluded."""
    if isinstance(value, str):
        yield value
    elif depth <= 8 and isinstance(value, dict):
        for item in value.values():
            yield from strings(item, depth + 1)
    elif depth <= 8 and isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item, depth + 1)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield str(value)


def outgoing_texts(action: Action) -> list[str]:
    """Everything an action could carry out: arguments, decoded payloads, the command line, URLs."""
    texts = [
        *strings(action.arguments),
        *action.payloads,
        action.command_line,
        *(d.url for d in action.destinations),
    ]
    return list(dict.fromkeys(t for t in texts if t))


def reads_private(action: Action, ctx: Context) -> bool:
    """The call reads a secret file or dumps the environment. Asked of the rules directly, not of the
    decision's findings, which a waiver may have removed."""
    if not action.paths and not action.commands:
        return False
    from limen.rules.commands import environment_dump
    from limen.rules.paths import secret_files

    return any(True for _ in secret_files(action, ctx)) or any(True for _ in environment_dump(action, ctx))


def carries_private(action: Action, ctx: Context) -> bool:
    """The call reads private data or carries a credential in what it sends."""
    from limen.scan import secret_values

    return reads_private(action, ctx) or any(secret_values(t) for t in outgoing_texts(action))
