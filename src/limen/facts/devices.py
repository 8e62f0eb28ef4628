"""Network devices' own command languages: the statements that wipe a device, weaken its protections, add an
account with every privilege or schedule a script on it.

Routers, switches and firewalls (Junos, IOS and IOS XE, IOS XR, NX-OS, EOS) are reached over ssh with their
command language as the remote line (`ssh core-r1 'configure; set system services telnet; commit'`): the
shell reads no effect in `set`, `no` or `request`. `device_effects(text)` reads those statements into the
normaliser's notes, which the rules judge as the same effect anywhere else (`destructive_command`,
`defence_evasion`, `unsafe_permissions`, `persistence_write`). A look (`show ...`), an interface's description
or a route's change is no such statement.
"""

from __future__ import annotations

import re

# What a statement does, as the kinds of note the normaliser writes for it
WIPES = "wipes"
WEAKENS = "weakens"
GRANTS = "grants"
SCHEDULES = "schedules"

# (a statement's start, what kind of effect it has, what it does)
_STATEMENTS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), kind, what)
    for pattern, kind, what in (
        # the device's configuration and storage erased, or its disks formatted
        (
            r"^request\s+system\s+(?:zeroize|storage\s+cleanup)",
            WIPES,
            "the device's configuration and storage",
        ),
        (
            r"^(?:write\s+erase|erase\s+(?:startup-config|nvram:|flash:|bootflash:|disk\d?:))",
            WIPES,
            "the device's saved configuration",
        ),
        (r"^format\s+(?:flash|bootflash|disk\d?|harddisk)\S*", WIPES, "the device's storage"),
        (r"^delete\s+/(?:force|recursive)", WIPES, "the device's files"),
        # plain-text management, its filters and its accounting taken off
        (
            r"^set\s+system\s+services\s+(?:telnet|ftp|finger|rlogin)\b|^transport\s+input\s+.*\btelnet\b"
            r"|^(?:ip\s+)?telnet\s+server\s+enable|^feature\s+telnet\b",
            WEAKENS,
            "plain-text management on",
        ),
        (
            r"^no\s+(?:ip\s+)?access-(?:class|group)\b|^deactivate\s+.*\bfilter\b|^delete\s+firewall\b"
            r"|^no\s+ip\s+access-list\b",
            WEAKENS,
            "a management or traffic filter taken off",
        ),
        (
            r"^no\s+aaa\s+(?:new-model|authentication|authorization|accounting)\b"
            r"|^delete\s+system\s+(?:authentication-order|tacplus-server|radius-server)\b",
            WEAKENS,
            "the device's login checks (AAA) taken off",
        ),
        (
            r"^no\s+logging\b|^(?:deactivate|delete)\s+system\s+syslog\b|^no\s+snmp-server\s+enable\s+traps\b",
            WEAKENS,
            "the device's logging taken off",
        ),
        (
            r"^snmp-server\s+community\s+\S+\s+rw\b|^set\s+snmp\s+community\s+\S+\s+authorization\s+read-write",
            WEAKENS,
            "SNMP write access by a shared word",
        ),
        # an account with every privilege
        (
            r"^username\s+\S+\s+(?:.*\s)?privilege\s+15\b|^set\s+system\s+login\s+user\s+\S+\s+class\s+super-user"
            r"|^username\s+\S+\s+(?:.*\s)?role\s+network-admin\b",
            GRANTS,
            "an account with every privilege",
        ),
        # a script the device runs by itself, on a timer or an event
        (
            r"^event\s+manager\s+applet\b|^set\s+event-options\b|^set\s+system\s+scripts\s+(?:op|event|commit)\b"
            r"|^kron\s+(?:policy-list|occurrence)\b|^scheduler\s+job\b",
            SCHEDULES,
            "a script run by the device",
        ),
    )
)
# How a device's command language is told from a shell's: it enters a configuration mode or asks the system
_DEVICE_SESSION = re.compile(
    r"(?im)^\s*(?:configure(?:\s+(?:terminal|private|exclusive))?|conf\s+t|request\s+system\b|write\s+erase\b"
    r"|format\s+(?:flash|bootflash|disk))"
)


def device_effects(text: str) -> list[tuple[str, str]]:
    """(kind, what) for each statement of a network device's command language in `text` (a remote line run
    over ssh) that wipes, weakens, grants every privilege or schedules a script; [] for a shell's line."""
    if not _DEVICE_SESSION.search(text[:20000]):
        return []
    found: list[tuple[str, str]] = []
    for statement in re.split(r"[;\n]", text[:20000])[:400]:
        statement = statement.strip().strip("'\"").strip()
        for pattern, kind, what in _STATEMENTS:
            if pattern.search(statement) and (kind, what) not in found:
                found.append((kind, what))
    return found
