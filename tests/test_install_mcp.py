"""`limen install|uninstall <agent> --mcp` on real MCP config files in a temporary home and workspace.

The wrapped entries are run as the agent would run them, against real MCP servers, through the proxy.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_servers"))

from harness import FS, PY, Env, LineClient, free_port, start_http, stop, text

from limen.context import default_protected_paths
from limen.install import claude_desktop_config, mcp_config_path, rewrite_servers

LIMEN = str(Path(sys.executable).parent / "limen")
TOKEN = "ghp_" + "Z" * 36  # looks like a GitHub token: must never be printed


@pytest.fixture
def env(tmp_path: Path) -> Env:
    root = tmp_path / "root"
    e = Env(str(root), str(root / "home"), str(root / "limen"), str(root / "proj"))
    for path in (e.home, e.limen_home, e.workspace):
        os.makedirs(path)
    return e


def limen(env: Env, *args: str) -> subprocess.CompletedProcess[str]:
    variables = {"PATH": os.environ.get("PATH", ""), "HOME": env.home, "LIMEN_HOME": env.limen_home}
    return subprocess.run(
        [LIMEN, *args], capture_output=True, text=True, env=variables, cwd=env.workspace, timeout=60
    )


def write(path: Path | str, text: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode())
    return path


def stringify(config: Any) -> str:
    """JSON as Claude Code and Cursor write it (`JSON.stringify(config, null, 2)`)."""
    return json.dumps(config, indent=2, ensure_ascii=False)


def servers_of(path: Path) -> dict[str, Any]:
    servers: dict[str, Any] = json.loads(path.read_text())["mcpServers"]
    return servers


def test_wrapped_entries_run_through_the_proxy_and_uninstall_restores_the_bytes(env: Env) -> None:
    port = free_port()
    http_server = start_http([PY, FS, "--http", str(port)], env, port)
    try:
        original = stringify(
            {
                "mcpServers": {
                    "fs": {
                        "type": "stdio",
                        "command": PY,
                        "args": [FS],
                        "env": {"FS_SERVER_VARIANT": "changed", "GITHUB_TOKEN": TOKEN},
                        "x-note": "kept",
                    },
                    "remote": {
                        "type": "http",
                        "url": f"http://127.0.0.1:{port}/mcp",
                        "headers": {"X-Team": "a", "Authorization": f"Bearer {TOKEN}"},
                        "timeout": 30000,
                    },
                },
                "unknownTop": {"b": 1, "a": [2, 3]},
            }
        )
        path = write(Path(env.workspace) / ".mcp.json", original)

        result = limen(env, "install", "claude-code", "--mcp", "--project")
        assert result.returncode == 0, result.stderr
        assert "wrapped fs, remote" in result.stdout and TOKEN not in result.stdout + result.stderr
        servers = servers_of(path)
        fs, remote = servers["fs"], servers["remote"]
        assert fs == {
            "type": "stdio",
            "command": LIMEN,  # the absolute path of the installed console script
            "args": ["mcp", "--name", "fs", "--", PY, FS],
            "env": {"FS_SERVER_VARIANT": "changed", "GITHUB_TOKEN": TOKEN},
            "x-note": "kept",
        }
        assert remote["command"] == LIMEN and remote["timeout"] == 30000
        assert remote["args"] == ["mcp", "--name", "remote", "--url", f"http://127.0.0.1:{port}/mcp"]
        assert TOKEN not in " ".join(remote["args"])  # credentials travel in the environment only
        assert json.loads(path.read_text())["unknownTop"] == {"b": 1, "a": [2, 3]}

        for entry, description in ((fs, "newest first"), (remote, "")):
            argv = [entry["command"], *entry["args"]]
            with LineClient(argv, env, **entry.get("env", {})) as client:
                assert client.initialize()["result"]["serverInfo"]["name"] == "fs-test"
                tools = client.tools()
                assert {"read_file", "write_file", "fetch_notes"} <= set(tools)
                assert description in tools["fetch_notes"]["description"]  # the entry's env reached it
                notes = os.path.join(env.workspace, "notes.txt")
                Path(notes).write_text("hello")
                assert text(client.call("read_file", {"path": notes})) == "hello"
                refused = client.call("read_file", {"path": str(path)})  # decided by the proxy
                assert refused["isError"] is True and "protected_path_blocked" in text(refused)
    finally:
        stop(http_server)

    result = limen(env, "uninstall", "claude-code", "--mcp", "--project")
    assert result.returncode == 0 and "unwrapped fs, remote" in result.stdout
    assert path.read_text() == original  # byte for byte, header order included


def test_user_scope_wraps_user_and_every_projects_local_servers_and_nothing_else(env: Env) -> None:
    config = {
        "numStartups": 42,
        "mcpServers": {"memory": {"command": "npx", "args": ["-y", "@mcp/memory"]}},
        "projects": {
            "/src/app": {
                "allowedTools": [],
                "mcpServers": {"db": {"command": "uvx", "args": ["mcp-db"], "env": {"DB_URL": "x"}}},
                "history": [{"display": "mcpServers"}],
            },
            "/src/empty": {"mcpServers": {}},
        },
        "oauthAccount": {"emailAddress": "dev@example.com"},
    }
    path = write(Path(env.home) / ".claude.json", stringify(config))
    os.chmod(path, 0o600)
    original = path.read_text()

    result = limen(env, "install", "claude-code", "--mcp")
    assert result.returncode == 0, result.stderr
    assert "wrapped memory, db (/src/app)" in result.stdout
    wrapped = json.loads(path.read_text())
    assert wrapped["mcpServers"]["memory"]["args"] == [
        "mcp",
        "--name",
        "memory",
        "--",
        "npx",
        "-y",
        "@mcp/memory",
    ]
    db = wrapped["projects"]["/src/app"]["mcpServers"]["db"]
    assert db == {
        "command": LIMEN,
        "args": ["mcp", "--name", "db", "--", "uvx", "mcp-db"],
        "env": {"DB_URL": "x"},
    }
    for key in ("numStartups", "oauthAccount"):
        assert wrapped[key] == config[key]
    assert list(wrapped) == list(config) and list(wrapped["projects"]["/src/app"]) == [
        "allowedTools",
        "mcpServers",
        "history",
    ]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it holds the user's account: permissions kept
    assert not [p for p in os.listdir(env.home) if p.startswith(".limen-")]  # no temp file left behind

    before = path.read_bytes()
    again = limen(env, "install", "claude-code", "--mcp")
    assert again.returncode == 0 and "already runs through limen mcp" in again.stdout
    assert path.read_bytes() == before  # idempotent

    assert limen(env, "uninstall", "claude-code", "--mcp").returncode == 0
    assert path.read_text() == original
    assert limen(env, "uninstall", "claude-code", "--mcp").stdout.endswith(
        "no MCP server runs through limen mcp\n"
    )


def test_dry_run_shows_a_diff_without_secrets_and_writes_nothing(env: Env) -> None:
    path = write(
        Path(env.home) / ".cursor" / "mcp.json",
        stringify(
            {
                "mcpServers": {
                    "gh": {
                        "command": "docker",
                        "args": ["run", "-i", "gh-mcp"],
                        "env": {"GITHUB_TOKEN": TOKEN},
                    },
                    "linear": {"url": "https://mcp.linear.app/mcp", "headers": {"Authorization": TOKEN}},
                }
            }
        ),
    )
    before = path.read_bytes()
    result = limen(env, "install", "cursor", "--mcp", "--dry-run")
    assert result.returncode == 0, result.stderr
    assert f'+      "command": "{LIMEN}",' in result.stdout
    assert '+        "https://mcp.linear.app/mcp"' in result.stdout
    assert '-        "GITHUB_TOKEN": "***"' not in result.stdout  # unchanged lines are context, not changes
    assert TOKEN not in result.stdout and TOKEN not in result.stderr
    assert "dry run" in result.stdout
    assert path.read_bytes() == before


def test_a_file_that_does_not_parse_is_refused_with_its_path_and_line(env: Env) -> None:
    path = write(
        claude_desktop_config(env.home),
        '{\n  "mcpServers": {\n    "gh": {"command": "gh-mcp", "env": {"T": "' + TOKEN + '"},}\n  }\n}\n',
    )
    before = path.read_bytes()
    result = limen(env, "install", "claude-desktop", "--mcp")
    assert result.returncode == 1
    assert f"{path}: line 3 column" in result.stderr and "nothing was written" in result.stderr
    assert TOKEN not in result.stderr  # the offending line is located, not quoted
    assert path.read_bytes() == before
    assert os.listdir(path.parent) == [path.name]


@pytest.mark.parametrize(
    "text",
    [
        '{"mcpServers":{"a":{"command":"srv","args":["--x"],"env":{"K":"v"}}},"z":1}',  # JSON.stringify(c)
        '{\n    "mcpServers": {\n        "a": {\n            "command": "srv",\n            "args": [\n'
        '                "--x"\n            ]\n        }\n    }\n}\n',  # four spaces
        '{\r\n\t"mcpServers": {\r\n\t\t"a": {\r\n\t\t\t"command": "srv",\r\n\t\t\t"args": []\r\n'
        "\t\t}\r\n\t}\r\n}",
        # an HTTP entry's type, url and headers come back in this order (the order the agents write)
        '{"mcpServers": {"a": {"type": "http", "url": "https://h/mcp", "headers": {"B": "1", "A": "2"}}},\n'
        ' "c": "é"}',
    ],
    ids=["compact", "four-spaces", "tabs-crlf", "one-line-http"],
)
def test_each_entry_keeps_its_style_and_unwrapping_restores_the_text(text: str) -> None:
    wrapped, changed, _, _ = rewrite_servers(text, False, remove=False, limen="/opt/limen/bin/limen")
    assert changed == ["a"] and json.loads(wrapped)["mcpServers"]["a"]["command"] == "/opt/limen/bin/limen"
    again, changed_again, _, _ = rewrite_servers(wrapped, False, remove=False, limen="/opt/limen/bin/limen")
    assert again == wrapped and changed_again == []
    restored, _, _, _ = rewrite_servers(wrapped, False, remove=True, limen="")
    assert restored == text


def test_a_stale_limen_path_is_updated_and_the_users_proxy_options_are_kept(env: Env) -> None:
    stale = {"command": "/old/venv/bin/limen", "args": ["mcp", "--restart", "--name", "fs", "--", "fs-mcp"]}
    path = write(Path(env.workspace) / ".cursor" / "mcp.json", stringify({"mcpServers": {"fs": stale}}))
    assert limen(env, "install", "cursor", "--mcp", "--project").returncode == 0
    assert servers_of(path)["fs"] == {**stale, "command": LIMEN}
    assert limen(env, "uninstall", "cursor", "--mcp", "--project").returncode == 0
    assert servers_of(path)["fs"] == {"command": "fs-mcp", "args": []}


def test_a_symlinked_crlf_file_keeps_its_link_and_its_line_endings(env: Env, tmp_path: Path) -> None:
    text = stringify({"mcpServers": {"a": {"command": "srv", "args": []}}}).replace("\n", "\r\n") + "\r\n"
    target = write(tmp_path / "dotfiles" / "mcp.json", text)
    link = Path(env.home) / ".cursor" / "mcp.json"
    link.parent.mkdir()
    link.symlink_to(target)
    assert limen(env, "install", "cursor", "--mcp").returncode == 0
    assert link.is_symlink() and servers_of(link)["a"]["command"] == LIMEN
    assert b"\r\n" in target.read_bytes() and b"\n" not in target.read_bytes().replace(b"\r\n", b"")
    assert limen(env, "uninstall", "cursor", "--mcp").returncode == 0
    assert target.read_bytes() == text.encode()


def test_entries_the_proxy_cannot_front_are_named_and_left_alone(env: Env) -> None:
    servers = {
        "events": {"type": "sse", "url": "https://h/sse"},
        "socket": {"type": "ws", "url": "wss://h/ws"},
        "helper": {"type": "http", "url": "https://h/mcp", "headersHelper": "get-token.sh"},
        "odd": 5,
    }
    path = write(Path(env.workspace) / ".mcp.json", stringify({"mcpServers": servers}))
    before = path.read_bytes()
    result = limen(env, "install", "claude-code", "--mcp", "--project")
    assert result.returncode == 0
    for name in servers:
        assert f"limen mcp cannot front it: {name}" in result.stderr
    assert path.read_bytes() == before
    assert limen(env, "uninstall", "claude-code", "--mcp", "--project").returncode == 0
    assert path.read_bytes() == before


def test_hooks_and_mcp_servers_are_separate_commands(env: Env) -> None:
    mcp = write(Path(env.workspace) / ".mcp.json", stringify({"mcpServers": {"a": {"command": "srv"}}}))
    before = mcp.read_bytes()
    assert limen(env, "install", "claude-code", "--project").returncode == 0  # hooks only
    assert mcp.read_bytes() == before
    assert (Path(env.workspace) / ".claude" / "settings.json").exists()
    assert "Without --mcp" in limen(env, "install", "--help").stdout

    assert limen(env, "install", "gemini", "--mcp").returncode == 2
    assert limen(env, "install", "claude-desktop").returncode == 2  # it has no hooks
    refused = limen(env, "install", "claude-desktop", "--mcp", "--project")
    assert refused.returncode == 1 and "no project MCP file" in refused.stderr
    missing = limen(env, "install", "cursor", "--mcp")
    assert missing.returncode == 0 and "configures no MCP server" in missing.stdout
    assert not (Path(env.home) / ".cursor").exists()


def test_the_mcp_config_files_and_the_limen_script_are_protected() -> None:
    home, workspace = os.path.expanduser("~"), "/home/dev/proj"
    protected = default_protected_paths(home, workspace)
    for agent, scope in (
        ("claude-code", "user"),
        ("claude-code", "project"),
        ("cursor", "user"),
        ("cursor", "project"),
        ("claude-desktop", "user"),
    ):
        assert mcp_config_path(agent, scope, workspace) in protected
    assert (
        claude_desktop_config(home, "darwin") in protected
        and claude_desktop_config(home, "linux") in protected
    )
    assert LIMEN in protected  # the command every wrapped entry runs


def test_uninstall_gives_back_the_bytes_even_where_unwrapping_cannot(env: Env) -> None:
    # `limen mcp -- srv` cannot say whether the entry had "args": [] or none; the record of the file can
    original = '{\n\t"mcpServers": {\n\t\t"a": {"command": "srv"},\n\t\t"b": {"url": "https://h/mcp"}\n\t}\n}'
    path = write(Path(env.workspace) / ".cursor" / "mcp.json", original)
    assert limen(env, "install", "cursor", "--mcp", "--project").returncode == 0
    assert servers_of(path)["a"]["command"] == LIMEN
    result = limen(env, "uninstall", "cursor", "--mcp", "--project")
    assert result.returncode == 0 and "byte for byte as it was before install" in result.stdout
    assert path.read_bytes() == original.encode()


def test_a_file_the_agent_rewrote_since_install_is_unwrapped_in_place(env: Env) -> None:
    config = {"numStartups": 1, "mcpServers": {"memory": {"command": "npx", "args": ["-y", "mem"]}}}
    path = write(Path(env.home) / ".claude.json", stringify(config))
    assert limen(env, "install", "claude-code", "--mcp").returncode == 0
    path.write_text(path.read_text().replace('"numStartups": 1', '"numStartups": 2'))  # as Claude Code does
    result = limen(env, "uninstall", "claude-code", "--mcp")
    assert result.returncode == 0 and "changed since install: removed only Limen's entries" in result.stdout
    assert path.read_text() == stringify({**config, "numStartups": 2})
