"""Approvals through the MCP stdio proxy with a real MCP server (the tests' shell server, `mcp` SDK), a
client without an elicitation form: an AUTH call is refused with its approval id; after `limen approve`
the identical call runs once; another argument, a second retry or a denied request is refused; and with a
webhook configured the call is held until a person answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from typing import Any

import pytest
from tests.approvals.loopback import Recorder, click, write_policy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "mcp_servers"))

from harness import SHELL, Env, LineClient, make_env, proxy_argv, text

CHMOD = {"command": "chmod 777 run.sh && echo changed"}


@pytest.fixture
def env(tmp_path: object) -> Env:
    made = make_env(str(tmp_path))
    with open(os.path.join(made.workspace, "run.sh"), "w") as fh:
        fh.write("echo hi\n")
    return made


def limen(env: Env, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "limen", *args], capture_output=True, text=True, env=env.vars(), timeout=60
    )


def pending(env: Env) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = json.loads(limen(env, "pending", "--json").stdout)
    return listed


def test_an_approved_call_runs_once_and_nothing_else_does(env: Env) -> None:
    with LineClient(proxy_argv(SHELL, name="shell"), env) as client:
        client.initialize()
        client.tools()
        refused = client.call("run_command", CHMOD)
        (request,) = pending(env)
        assert refused["isError"] is True and f"limen approve {request['id']}" in text(refused)
        assert request["tool"] == "mcp__shell__run_command" and "chmod 777 run.sh" in request["action"]
        other = client.call("run_command", {"command": "chmod 777 other.sh"})
        assert other["isError"] is True
        assert limen(env, "approve", request["id"]).returncode == 0
        ran = client.call("run_command", CHMOD)
        assert ran["isError"] is False and text(ran) == "changed\n"
        again = client.call("run_command", CHMOD)
        assert again["isError"] is True and "limen approve" in text(again)
        assert request["id"] not in text(again)
        denied_id = next(r["id"] for r in pending(env) if "chmod 777 run.sh" in r["action"])
        assert limen(env, "deny", denied_id).returncode == 0
        assert client.call("run_command", CHMOD)["isError"] is True


def test_the_proxy_holds_the_call_until_a_person_answers(env: Env) -> None:
    webhook = Recorder()
    try:
        write_policy(env.workspace, {"channels": ["webhook"], "webhook": {"url": webhook.url}})
        with LineClient(proxy_argv(SHELL, "--timeout", "30", name="shell"), env) as client:
            client.initialize()
            client.tools()
            results: list[dict[str, Any]] = []
            call = threading.Thread(target=lambda: results.append(client.call("run_command", CHMOD)))
            call.start()
            links = webhook.next().json()["blocks"][1]["elements"]
            assert click(links[0]["url"])[0] == 200  # approve
            call.join(30)
            assert results[0]["isError"] is False and text(results[0]) == "changed\n"
            held = threading.Thread(target=lambda: results.append(client.call("run_command", CHMOD)))
            held.start()
            assert click(webhook.next().json()["blocks"][1]["elements"][1]["url"])[0] == 200  # deny
            held.join(30)
            assert results[1]["isError"] is True and "a person denied it" in text(results[1])
    finally:
        webhook.close()


async def _call_with_form(env: Env, allow: bool) -> Any:
    from mcp import Client, StdioServerParameters
    from mcp_types import ElicitResult

    async def elicit(context: Any, params: Any) -> ElicitResult:
        return ElicitResult(action="accept", content={"allow": allow})

    argv = proxy_argv(SHELL, name="shell")
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env.vars(), cwd=env.workspace)
    async with Client(params, mode="legacy", elicitation_callback=elicit) as client:
        return await client.call_tool("run_command", CHMOD)


@pytest.mark.parametrize(("allow", "status"), [(True, "used"), (False, "denied")])
def test_an_answer_in_the_clients_form_answers_the_request(env: Env, allow: bool, status: str) -> None:
    """A client with an elicitation form asks its user itself; that answer also settles the approval
    request, so it does not linger in `limen pending` (and a yes is spent on this very call)."""
    import asyncio

    from limen.approvals import SqliteApprovalStore

    result = asyncio.run(_call_with_form(env, allow))
    assert result.is_error is (not allow)
    store = SqliteApprovalStore(os.path.join(env.limen_home, "approvals.sqlite"))
    (request,) = store.recent()
    store.close()
    assert request.status == status and request.answered_by == "mcp-elicitation"
    assert pending(env) == []
