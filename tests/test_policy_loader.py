"""Loading: three levels, errors with file/line/key, acknowledgements, defaults, caching, roles, sources."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from limen.context import Context
from limen.model import Mode, ReasonCode, Verdict
from limen.policy import PolicyError, load_context
from policy_helpers import approve_files, decision, no_org_policy, write_policy


@pytest.fixture(autouse=True)
def isolated_org(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    no_org_policy(monkeypatch, tmp_path_factory.mktemp("org"))


@pytest.fixture
def ws(tmp_path: Path) -> str:
    return os.path.realpath(tmp_path)


def test_no_files_means_the_built_in_defaults(ws: str) -> None:
    ctx = load_context(ws)
    expected = Context.for_mode(Mode.BALANCED, ws)
    assert ctx.chain is None and ctx.policy is None
    assert (ctx.mode, ctx.thresholds, ctx.trusted_hosts, ctx.protected_paths, ctx.bulk_threshold) == (
        expected.mode,
        expected.thresholds,
        expected.trusted_hosts,
        expected.protected_paths,
        expected.bulk_threshold,
    )
    assert load_context(ws, mode="strict").mode is Mode.STRICT


def test_allow_by_default_needs_the_acknowledgement_key(ws: str) -> None:
    policy = write_policy(Path(ws, "limen.yaml"), "mode: balanced\ndefault_action: allow\n")
    with pytest.raises(PolicyError) as err:
        load_context(ws)
    [problem] = err.value.problems
    assert (problem.file, problem.line, problem.key) == (str(policy), 2, "default_action")
    assert "acknowledge" in str(err.value)
    write_policy(policy, "mode: balanced\ndefault_action: allow\nacknowledge: [allow_by_default]\n")
    approve_files(ws)
    ctx = load_context(ws)
    sdk = decision(ctx, "filesystem.read", {"path": f"{ws}/README.md"}, door="sdk")
    assert ReasonCode.POLICY_DENIED not in sdk.reasons


def test_monitor_needs_the_acknowledgement_key(ws: str) -> None:
    write_policy(Path(ws, "limen.yaml"), "enforcement: monitor\n")
    with pytest.raises(PolicyError, match="enforcement"):
        load_context(ws)
    write_policy(Path(ws, "limen.yaml"), "enforcement: monitor\nacknowledge: [monitor]\n")
    ctx = load_context(ws)
    assert ctx.policy is not None and not ctx.policy.monitor  # loosening: waits for approval
    approve_files(ws)
    ctx = load_context(ws)
    assert ctx.policy is not None and ctx.policy.monitor


def test_monitor_records_the_would_be_verdict_but_keeps_floors(ws: str) -> None:
    write_policy(
        Path(ws, "limen.yaml"),
        """
        enforcement: monitor
        acknowledge: [monitor]
        chain:
          - layer: denylist
            hosts: [pastebin.com]
    """,
    )
    approve_files(ws)
    ctx = load_context(ws)
    d = decision(ctx, "WebFetch", {"url": "https://pastebin.com/raw/x"})
    assert d.verdict is Verdict.PASS and ReasonCode.POLICY_DENIED in d.reasons
    assert d.evidence[-1].stage == "monitor" and d.evidence[-1].details == ("would be BLOCK",)
    own = decision(ctx, "Write", {"file_path": f"{ws}/limen.yaml", "content": "enforcement: enforce"})
    assert own.verdict is Verdict.BLOCK and ReasonCode.PROTECTED_PATH_BLOCKED in own.reasons


def test_every_schema_error_names_file_line_and_dotted_key(ws: str) -> None:
    write_policy(
        Path(ws, "limen.yaml"),
        """\
        mode: strict
        chain:
          - layer: rules
            rules:
              - id: r
                match: {capability: shell.execute, hostz: [a]}
                effect: maybe
    """,
    )
    with pytest.raises(PolicyError) as err:
        load_context(ws)
    where = {(p.line, p.key) for p in err.value.problems}
    assert where == {(6, "chain[0].rules[0].match.hostz"), (7, "chain[0].rules[0].effect")}


def test_the_compiled_policy_is_cached_until_a_file_changes(ws: str) -> None:
    policy = write_policy(Path(ws, "limen.yaml"), "chain:\n  - layer: denylist\n    hosts: [a.example]\n")
    first, second = load_context(ws), load_context(ws)
    assert first is not second and first.chain is second.chain
    write_policy(policy, "chain:\n  - layer: denylist\n    hosts: [a.example, b.example]\n")
    third = load_context(ws)
    assert third.chain is not first.chain
    assert decision(third, "WebFetch", {"url": "https://b.example/"}).verdict is Verdict.BLOCK


def test_an_edit_is_seen_by_the_next_call_even_when_its_size_and_mtime_stay(ws: str) -> None:
    """Timestamps are coarse: a same-size rewrite within one tick keeps mtime and size, and `touch -r` (or
    `cp -p`) sets mtime back. Neither may leave the old policy in force for a single call."""
    policy = write_policy(Path(ws, "limen.yaml"), "chain:\n  - layer: denylist\n    hosts: [a.example]\n")
    before = os.stat(policy)
    assert decision(load_context(ws), "WebFetch", {"url": "https://b.example/"}).verdict is not Verdict.BLOCK
    write_policy(policy, "chain:\n  - layer: denylist\n    hosts: [b.example]\n")  # same size, at once
    assert os.stat(policy).st_size == before.st_size
    assert decision(load_context(ws), "WebFetch", {"url": "https://b.example/"}).verdict is Verdict.BLOCK
    write_policy(policy, "chain:\n  - layer: denylist\n    hosts: [c.example]\n")
    os.utime(policy, ns=(before.st_atime_ns, before.st_mtime_ns))  # mtime set back to the first version's
    assert decision(load_context(ws), "WebFetch", {"url": "https://c.example/"}).verdict is Verdict.BLOCK
    assert decision(load_context(ws), "WebFetch", {"url": "https://b.example/"}).verdict is not Verdict.BLOCK


def test_on_a_filesystem_with_one_second_timestamps_a_same_size_edit_is_seen(
    ws: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two same-size versions within one second look identical by their stamps there: while a file is that
    fresh, a cached policy is confirmed by the file's content."""
    import limen.policy as policy_module

    stamp = policy_module._stamp

    def coarse(path: str) -> tuple[int, int, int, int] | None:
        found = stamp(path)
        if found is None:
            return None
        mtime, ctime, size, inode = found
        second = 1_000_000_000
        return (mtime // second * second, ctime // second * second, size, inode)

    monkeypatch.setattr(policy_module, "_stamp", coarse)
    policy = write_policy(Path(ws, "limen.yaml"), "chain:\n  - layer: denylist\n    hosts: [a.example]\n")
    assert decision(load_context(ws), "WebFetch", {"url": "https://b.example/"}).verdict is not Verdict.BLOCK
    stamped = coarse(str(policy))
    write_policy(policy, "chain:\n  - layer: denylist\n    hosts: [b.example]\n")
    if coarse(str(policy)) != stamped:
        pytest.skip("the second write fell into the next second; the stamps tell the versions apart")
    assert decision(load_context(ws), "WebFetch", {"url": "https://b.example/"}).verdict is Verdict.BLOCK


def test_a_policy_file_appearing_or_going_is_seen_by_the_next_call(ws: str, limen_home: Path) -> None:
    assert load_context(ws).chain is None
    user = write_policy(limen_home / "policy.yaml", "chain:\n  - layer: denylist\n    hosts: [a.example]\n")
    assert decision(load_context(ws), "WebFetch", {"url": "https://a.example/"}).verdict is Verdict.BLOCK
    user.unlink()
    assert load_context(ws).chain is None


def test_lower_levels_only_tighten(
    ws: str, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, limen_home: Path
) -> None:
    org = write_policy(
        tmp_path_factory.mktemp("org") / "policy.yaml", "mode: strict\nrisk: {bulk_threshold: 10}\n"
    )
    monkeypatch.setenv("LIMEN_ORG_POLICY", str(org))
    write_policy(limen_home / "policy.yaml", "mode: paranoid\n")
    write_policy(
        Path(ws, "limen.yaml"),
        "mode: light\nrisk: {bulk_threshold: 500}\ntrusted_hosts: {add: [x.example]}\n",
    )
    ctx = load_context(ws)
    assert ctx.mode is Mode.PARANOID and ctx.bulk_threshold == 5  # the user level's paranoid preset
    assert "x.example" not in ctx.trusted_hosts
    assert ctx.policy is not None and ctx.policy.notes == ()  # ignored loosenings, not pending ones


def test_a_named_org_file_that_is_missing_refuses_to_start(ws: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIMEN_ORG_POLICY", "/nonexistent/limen-org.yaml")
    with pytest.raises(PolicyError, match="does not exist"):
        load_context(ws)


def test_a_requested_mode_only_tightens(ws: str) -> None:
    write_policy(Path(ws, "limen.yaml"), "mode: strict\n")
    assert load_context(ws, mode="light").mode is Mode.STRICT
    ctx = load_context(ws, mode="paranoid")
    assert ctx.mode is Mode.PARANOID and ctx.thresholds.ask == 31
    with pytest.raises(PolicyError, match="unknown mode"):
        load_context(ws, mode="relaxed")


def test_roles_block_and_scope(ws: str) -> None:
    write_policy(
        Path(ws, "limen.yaml"),
        """
        roles:
          reviewer:
            tools: [Read, Grep, WebFetch]
            paths: ["${workspace}/**"]
            hosts: [github]
            deny:
              paths: ["${workspace}/secrets/**"]
    """,
    )
    approve_files(ws)
    ctx = load_context(ws)
    ok = decision(ctx, "Read", {"file_path": f"{ws}/src/app.py"}, role="reviewer")
    assert ReasonCode.ROLE_OUT_OF_SCOPE not in ok.reasons and ReasonCode.ROLE_BLOCKED_TARGET not in ok.reasons
    blocked = decision(ctx, "Read", {"file_path": f"{ws}/secrets/db.txt"}, role="reviewer")
    assert blocked.verdict is Verdict.BLOCK and ReasonCode.ROLE_BLOCKED_TARGET in blocked.reasons
    for tool, args in (
        ("Write", {"file_path": f"{ws}/a.py", "content": "x"}),
        ("Read", {"file_path": "/etc/hostname"}),
        ("WebFetch", {"url": "https://example.org/"}),
    ):
        assert ReasonCode.ROLE_OUT_OF_SCOPE in decision(ctx, tool, args, role="reviewer").reasons
    assert (
        ReasonCode.ROLE_OUT_OF_SCOPE in decision(ctx, "Read", {"file_path": f"{ws}/a"}, role="intern").reasons
    )
    assert (
        ReasonCode.ROLE_OUT_OF_SCOPE
        not in decision(ctx, "Write", {"file_path": f"{ws}/a", "content": ""}).reasons
    )


def test_policy_sources_block_and_flag(ws: str) -> None:
    from limen.engine import decide
    from limen.normalize import normalize

    write_policy(
        Path(ws, "limen.yaml"),
        """
        policy_sources:
          blocked: ["web:*.pastebin.com"]
          sensitive: ["web:*", untrusted_content]
    """,
    )
    ctx = load_context(ws)
    act = normalize("Read", {"file_path": f"{ws}/README.md"}, cwd=ws, door="hook")
    act.provenance = frozenset({"web:x.pastebin.com"})
    assert ReasonCode.POLICY_SOURCE_BLOCKED in decide(act, ctx).reasons
    act.provenance = frozenset({"web:docs.python.org"})
    assert ReasonCode.POLICY_SOURCE_SENSITIVE in decide(act, ctx).reasons


def test_custom_capability_with_parameter_roles(ws: str) -> None:
    from limen.engine import decide
    from limen.normalize import normalize

    write_policy(
        Path(ws, "limen.yaml"),
        """
        capabilities:
          db.query: {description: SQL against the reporting database}
        tools:
          run_sql: {capability: db.query, payloads: [sql], urls: [dsn]}
        chain:
          - layer: rules
            rules:
              - id: ask-prod-db
                match: {capability: db.query, hosts: ["*.prod.example.com"]}
                effect: ask
    """,
    )
    approve_files(ws)
    ctx = load_context(ws)
    assert ctx.policy is not None

    def run_sql(dsn: str) -> object:
        act = normalize("run_sql", {"sql": "select 1", "dsn": dsn}, cwd=ws, tools=ctx.policy.tool_specs)
        assert act.capability == "db.query" and act.payloads == ("select 1",)
        return decide(act, ctx)

    prod = run_sql("postgres://db1.prod.example.com/reports")
    assert ReasonCode.POLICY_ASK in prod.reasons  # type: ignore[attr-defined]
    staging = run_sql("postgres://db1.staging.example.com/reports")
    assert ReasonCode.POLICY_ASK not in staging.reasons  # type: ignore[attr-defined]


def test_a_lower_level_mode_tightens_thresholds_an_upper_level_loosened(ws: str, limen_home: Path) -> None:
    write_policy(limen_home / "policy.yaml", "mode: balanced\nrisk: {thresholds: {ask: 70, strong: 80}}\n")
    write_policy(Path(ws, "limen.yaml"), "mode: paranoid\n")
    approve_files(ws)
    ctx = load_context(ws)
    assert ctx.mode is Mode.PARANOID
    assert (ctx.thresholds.ask, ctx.thresholds.strong, ctx.thresholds.deny, ctx.bulk_threshold) == (
        31,
        56,
        81,
        5,
    )


# -- the project root is found from any folder of the project (issue 10, item 11) --------------------------


def test_a_sub_folder_meets_the_projects_policy_and_protection(ws: str) -> None:
    write_policy(Path(ws) / "limen.yaml", "version: 1\nmode: strict\n")
    deep = os.path.join(ws, "src", "pkg", "deep")
    os.makedirs(deep)
    ctx = load_context(deep)
    assert ctx.workspace == ws and ctx.mode is Mode.STRICT
    assert os.path.join(ws, "limen.yaml") in ctx.protected_paths


def test_without_a_policy_file_the_git_root_is_the_project(ws: str) -> None:
    os.makedirs(os.path.join(ws, ".git"))
    sub = os.path.join(ws, "a", "b")
    os.makedirs(sub)
    assert load_context(sub).workspace == ws
    assert os.path.join(ws, ".claude", "settings.json") in load_context(sub).protected_paths


def test_outside_any_project_the_folder_itself_is_the_workspace(ws: str) -> None:
    assert load_context(ws).workspace == ws


@pytest.mark.parametrize(
    ("tool", "arguments", "cwd"),
    [
        ("Bash", {"command": "rm ../../limen.yaml"}, "src/deep"),
        ("Bash", {"command": "cd .. && rm ../limen.yaml"}, "src/deep"),
        ("Write", {"file_path": "../../limen.yaml", "content": "version: 1\nmode: light\n"}, "src/deep"),
        ("Edit", {"file_path": "../.claude/settings.json", "old_string": "a", "new_string": "b"}, "src"),
    ],
)
def test_the_policy_file_is_protected_from_any_folder(
    ws: str, tool: str, arguments: dict[str, object], cwd: str
) -> None:
    import limen

    write_policy(Path(ws) / "limen.yaml", "version: 1\nmode: balanced\n")
    os.makedirs(os.path.join(ws, "src", "deep"))
    for door in ("hook", "mcp", "sdk"):
        decided = limen.evaluate(tool, arguments, cwd=os.path.join(ws, cwd), door=door)
        assert decided.verdict is Verdict.BLOCK, (door, decided.explanation)
        assert ReasonCode.PROTECTED_PATH_BLOCKED in decided.reasons


def test_sensitive_paths_from_limen_yaml_take_effect(
    ws: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    data = str(tmp_path_factory.mktemp("srv"))
    write_policy(Path(ws) / "limen.yaml", f"version: 1\nsensitive_paths: [{data!r}]\n")
    ctx = load_context(ws)
    assert ctx.extra_sensitive_paths == (data,)
    for tool, arguments in (
        ("Read", {"file_path": os.path.join(data, "customers.csv")}),
        ("Bash", {"command": f"cp {data}/customers.csv /tmp/x.csv"}),
        ("Write", {"file_path": os.path.join(data, "report.txt"), "content": "hello"}),
    ):
        decided = decision(ctx, tool, arguments)
        assert ReasonCode.SENSITIVE_PATH_ACCESS in decided.reasons, (tool, decided.explanation)
        assert decided.verdict >= Verdict.AUTH
    quiet = decision(ctx, "Read", {"file_path": data + "-other/notes.txt"})  # a prefix, not a child
    assert ReasonCode.SENSITIVE_PATH_ACCESS not in quiet.reasons


def test_a_policy_file_planted_in_a_sub_folder_of_a_checkout_changes_nothing(ws: str) -> None:
    """Below a git root a `limen.yaml` is not a project of its own: one planted in `src/` would otherwise
    hide the project's (stricter) policy and its protected files from calls made in `src/`."""
    import limen

    os.makedirs(os.path.join(ws, ".git"))
    write_policy(Path(ws) / "limen.yaml", "version: 1\nmode: strict\n")
    write_policy(Path(ws) / "src" / "limen.yaml", "version: 1\nmode: balanced\n")
    src = os.path.join(ws, "src")
    ctx = load_context(src)
    assert ctx.workspace == ws and ctx.mode is Mode.STRICT
    decided = limen.evaluate("Bash", {"command": "rm ../.claude/settings.json"}, cwd=src, door="hook")
    assert ReasonCode.PROTECTED_PATH_BLOCKED in decided.reasons
    os.remove(os.path.join(ws, "limen.yaml"))
    assert load_context(src).workspace == ws  # no policy at the top: still the checkout's root
