"""The network devices' statements table: what wipes, weakens, grants or schedules, in each vendor's words."""

from __future__ import annotations

import pytest

from limen.facts.devices import GRANTS, SCHEDULES, WEAKENS, WIPES, device_effects

FLAGGED = [
    ("request system zeroize no-forwarding", WIPES),
    ("configure terminal\nwrite erase\nreload", WIPES),
    ("format flash:", WIPES),
    ("configure; set system services telnet; commit and-quit", WEAKENS),
    ("configure terminal\nline vty 0 15\n transport input telnet ssh\nend", WEAKENS),
    ("configure terminal\nline vty 0 4\n no access-class MGMT-ONLY in\nend", WEAKENS),
    ("configure; deactivate interfaces lo0 unit 0 family inet filter input; commit", WEAKENS),
    ("conf t\nno aaa authorization exec default group tacacs+ local\nend", WEAKENS),
    ("configure; delete system syslog; commit", WEAKENS),
    ("configure terminal\nsnmp-server community s3cr3t RW\nend", WEAKENS),
    ("configure terminal\nusername ops2 privilege 15 secret 0 Pw#2026\nend", GRANTS),
    ("configure; set system login user ops-tmp class super-user; commit", GRANTS),
    ("configure terminal\nusername adm role network-admin password x\nend", GRANTS),
    ("configure terminal\nevent manager applet HEALTH\n event timer watchdog time 600\nend", SCHEDULES),
    ("configure; set event-options policy p events e then event-script x.slax; commit", SCHEDULES),
    ("configure; set system scripts op file phone.slax; commit", SCHEDULES),
]

QUIET = [
    "show bgp summary",
    "show running-config | include username",
    'configure; set interfaces ge-0/0/3 description "to pe2-lab"; commit check; commit and-quit',
    "configure terminal\ninterface Gi0/1\n description uplink\nend\nwrite memory",
    "configure; set routing-options static route 10.9.0.0/24 next-hop 10.0.0.1; commit",
    # a shell's line, whatever its words
    "sudo systemctl restart nginx; format_logs --all",
    "set -e; no_proxy=1 request_stats.sh",
]


@pytest.mark.parametrize(("text", "kind"), FLAGGED)
def test_what_a_device_statement_does(text: str, kind: str) -> None:
    assert kind in [k for k, _ in device_effects(text)], text


@pytest.mark.parametrize("text", QUIET)
def test_looks_and_ordinary_changes_do_nothing_here(text: str) -> None:
    assert device_effects(text) == [], text
