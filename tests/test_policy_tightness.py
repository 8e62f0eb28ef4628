"""Which edits the drift gate lets through at once (tightening) and which wait (loosening)."""

from __future__ import annotations

import textwrap

import pytest

from limen.policy.effective import merge
from limen.policy.loader import parse_yaml, validate
from limen.policy.tightness import loosenings

BASE = """
mode: strict
risk: {thresholds: {ask: 45}}
protected_paths: ["~/.config/gh"]
chain:
  - layer: denylist
    name: deny
    hosts: [pastebin.com, transfer.sh]
  - layer: allowlist
    name: hosts
    hosts: [github, pypi]
  - layer: rules
    name: rules
    rules:
      - {id: no-force, match: {commands: ["git push --force"]}, effect: deny}
      - {id: ask-delete, match: {capability: filesystem.delete}, effect: ask}
roles:
  reviewer: {tools: [Read, Grep], deny: {paths: ["${workspace}/secrets/**"]}}
"""


def effective(text: str) -> dict[str, object]:
    data, lines, problems = parse_yaml(textwrap.dedent(text), "limen.yaml")
    assert not problems
    source, problems = validate(data, lines, "limen.yaml", "project")
    assert source is not None, problems
    return merge([source])[0]


def edit(old: str, new: str) -> str:
    assert old in BASE
    return BASE.replace(old, new)


@pytest.mark.parametrize(
    "text",
    [
        BASE,
        edit("mode: strict", "mode: paranoid"),
        edit("ask: 45", "ask: 40"),
        edit("[pastebin.com, transfer.sh]", "[pastebin.com, transfer.sh, webhook.site]"),
        edit("hosts: [github, pypi]", "hosts: [github]"),
        edit(
            "      - {id: ask-delete",
            "      - {id: no-nc, match: {commands: [nc]}, effect: deny}\n      - {id: ask-delete",
        ),
        edit('protected_paths: ["~/.config/gh"]', 'protected_paths: ["~/.config/gh", "~/.kube"]'),
        edit("tools: [Read, Grep]", "tools: [Read]"),
        edit("roles:", "  - layer: dlp\nroles:"),
    ],
)
def test_tightening_edits(text: str) -> None:
    assert loosenings(effective(BASE), effective(text)) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (edit("mode: strict", "mode: balanced"), "mode strict -> balanced"),
        (edit("ask: 45", "ask: 55"), "risk.thresholds.ask"),
        (edit("[pastebin.com, transfer.sh]", "[pastebin.com]"), "no longer denies hosts transfer.sh"),
        (edit("hosts: [github, pypi]", "hosts: [github, pypi, npm]"), "allows new hosts npm"),
        (
            edit("hosts: [github, pypi]", "hosts: [github, pypi]\n    on_match: allow"),
            "on_match pass -> allow",
        ),
        (edit("effect: deny}", "effect: ask}"), "rule no-force (deny) removed or changed"),
        (
            edit(
                "      - {id: ask-delete",
                "      - {id: ok, match: {tool: [Bash]}, effect: allow}\n      - {id: ask-delete",
            ),
            "rule ok allows something new",
        ),
        (edit('protected_paths: ["~/.config/gh"]', "protected_paths: []"), "protected_paths no longer lists"),
        (edit("tools: [Read, Grep]", "tools: [Read, Grep, Bash]"), "role reviewer may reach more tools"),
        (edit('deny: {paths: ["${workspace}/secrets/**"]}', "deny: {}"), "role reviewer denies fewer paths"),
        (BASE + "  writer: {tools: [Write]}\n", "new role writer"),
        (
            BASE.replace(
                "  - layer: denylist\n    name: deny\n    hosts: [pastebin.com, transfer.sh]\n", ""
            ).replace(
                "roles:",
                "  - layer: denylist\n    name: deny\n    hosts: [pastebin.com, transfer.sh]\nroles:",
            ),
            "layers reordered",
        ),
        (BASE + "trusted_hosts: {add: [x.example]}\n", "trusts new hosts x.example"),
        (
            BASE + "waivers:\n  - {code: bulk_operation, paths: [build], expires: 2099-01-01, reason: r}\n",
            "new waiver of bulk_operation",
        ),
        (BASE + "enforcement: monitor\nacknowledge: [monitor]\n", "enforcement enforce -> monitor"),
    ],
)
def test_loosening_edits(text: str, expected: str) -> None:
    found = loosenings(effective(BASE), effective(text))
    assert any(expected in change for change in found), found


def test_shadowing_is_judged_on_literal_patterns() -> None:
    from limen.policy.schema import Match
    from limen.policy.semantics import covers

    broad = Match(capability=["shell.execute"], flags=["x"])
    assert covers(broad, Match(capability=["shell.execute"], commands=["git"], flags=["x", "y"]))
    assert not covers(broad, Match(capability=["shell.execute"]))  # needs flag x, the other does not
    assert not covers(Match(commands=["git"]), Match(capability=["shell.execute"]))
    assert covers(Match(), Match(hosts=["a.example"], environment={"STAGE": "prod"}))
    assert not covers(Match(environment={"STAGE": "prod"}), Match())
