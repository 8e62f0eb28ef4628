"""The webhook channel against a loopback server speaking the incoming-webhook protocol (a JSON POST
answered 200), and the signed links it carries, followed as a person's click would: the call held by
`limen.evaluate` goes through once on approve, and is denied on deny, on silence, on a failing webhook
and on a forged link."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tests.approvals.loopback import Recorder, approved_policy, click, http

import limen
from limen.approvals import DENIED, GRANTED, PENDING, USED, open_approvals
from limen.model import Verdict

CHMOD = {"command": "chmod 777 run.sh"}


@pytest.fixture
def webhook() -> Iterator[Recorder]:
    server = Recorder()
    yield server
    server.close()


def held(workspace: str, **kw: Any) -> Callable[[], limen.Decision]:
    """Start `limen.evaluate` on a thread (it holds the call); the returned function waits for its answer."""
    out: list[limen.Decision] = []
    thread = threading.Thread(
        target=lambda: out.append(limen.evaluate("Bash", CHMOD, cwd=workspace, session_id="s1", **kw))
    )
    thread.start()

    def result() -> limen.Decision:
        thread.join(40)
        return out[0]

    return result


def configure(workspace: str, url: str, style: str = "slack", wait: int = 30) -> None:
    approved_policy(
        workspace,
        {"channels": ["webhook", "cli"], "webhook": {"url": url, "format": style}, "wait_seconds": wait},
    )


def status(request_id: str) -> str:
    approvals = open_approvals()
    try:
        request = approvals.get(request_id)
        assert request is not None
        return request.status
    finally:
        approvals.close()


def slack_links(payload: dict[str, Any]) -> dict[str, str]:
    buttons = payload["blocks"][1]["elements"]
    return {b["action_id"].removeprefix("limen_"): b["url"] for b in buttons}


def test_slack_message_and_approve_click_let_the_held_call_through_once(
    workspace: str, webhook: Recorder
) -> None:
    configure(workspace, webhook.url + "/services/T0/B0/x")
    answer = held(workspace)
    sent = webhook.next()
    assert sent.path == "/services/T0/B0/x" and sent.headers["Content-Type"] == "application/json"
    payload = sent.json()
    assert "chmod 777 run.sh" in payload["text"] and "unsafe_permissions" in payload["text"]
    links = slack_links(payload)
    assert set(links) == {"approve", "deny"} and all(
        u.startswith("http://127.0.0.1:") for u in links.values()
    )
    request_id = links["approve"].split("/approval/")[1].split("/")[0]
    preview, page = http("GET", links["approve"])  # a chat service unfurling the link
    assert preview == 200 and "Approve this one call" in page and status(request_id) == PENDING
    code, body = click(links["approve"])
    assert code == 200 and "Approved once" in body
    decision = answer()
    assert decision.verdict is Verdict.PASS and decision.approval_id == request_id
    assert status(request_id) == USED
    assert click(links["approve"])[1].count("already answered") == 1  # the link is spent
    assert click(links["deny"])[0] == 409 or "already answered" in click(links["deny"])[1]
    again = limen.evaluate("Bash", CHMOD, cwd=workspace, session_id="s1", wait=0)
    assert again.verdict is Verdict.AUTH and again.approval_id != request_id


def test_teams_card_and_deny_click_deny_the_held_call(workspace: str, webhook: Recorder) -> None:
    configure(workspace, webhook.url + "/webhookb2/abc", style="teams")
    answer = held(workspace)
    card = webhook.next().json()
    assert card["@type"] == "MessageCard" and "chmod 777 run.sh" in card["text"]
    links = {a["name"]: a["targets"][0]["uri"] for a in card["potentialAction"]}
    code, body = click(links["Deny"])
    assert code == 200 and "Denied" in body
    decision = answer()
    assert decision.verdict is Verdict.AUTH and "a person denied it" in decision.explanation
    assert status(decision.approval_id) == DENIED
    assert click(links["Approve once"])[0] in (200, 409)  # the page says it is spent; nothing changes
    assert status(decision.approval_id) == DENIED


def test_silence_denies_and_a_later_approval_lets_the_retry_through_once(
    workspace: str, webhook: Recorder
) -> None:
    configure(workspace, webhook.url)
    decision = limen.evaluate("Bash", CHMOD, cwd=workspace, session_id="s1", wait=1)
    assert decision.verdict is Verdict.AUTH and "gave no answer in time" in decision.explanation
    links = slack_links(webhook.next().json())
    assert click(links["approve"])[0] == 200  # the link still works while the process serves it
    assert status(decision.approval_id) == GRANTED
    assert limen.evaluate("Bash", CHMOD, cwd=workspace, session_id="s1", wait=0).verdict is Verdict.PASS
    assert limen.evaluate("Bash", CHMOD, cwd=workspace, session_id="s1", wait=0).verdict is Verdict.AUTH


def test_a_failing_webhook_holds_nothing(workspace: str) -> None:
    broken = Recorder(status=500)
    try:
        configure(workspace, broken.url)
        decision = limen.evaluate("Bash", CHMOD, cwd=workspace, session_id="s1", wait=20)
        broken.next()
    finally:
        broken.close()
    assert decision.verdict is Verdict.AUTH and decision.approval_id
    assert "asked via" not in decision.explanation  # nobody was reached: denied with the id at once
    assert status(decision.approval_id) == PENDING


def test_forged_and_tampered_links_change_nothing(workspace: str, webhook: Recorder) -> None:
    configure(workspace, webhook.url)
    decision = limen.evaluate("Bash", CHMOD, cwd=workspace, session_id="s1", wait=1)
    links = slack_links(webhook.next().json())
    approve = links["approve"]
    base, query = approve.split("?")
    forged = [
        approve[:-4] + ("0000" if not approve.endswith("0000") else "1111"),  # another signature
        base + "?" + query.replace("exp=", "exp=9"),  # a later expiry the signature does not cover
        links["deny"].replace("/deny?", "/approve?"),  # the deny link's signature on the approve verb
        base.replace(decision.approval_id, "ffffffffff") + "?" + query,  # another request
        base + "?exp=1&sig=" + "0" * 64,
        base.rsplit("/", 1)[0] + "/approve%2f..?" + query,
    ]
    for url in forged:
        code, _ = http("POST", url, b"")
        assert code in (403, 404, 409), url
        assert http("GET", url)[0] in (403, 404), url
    too_big = http("POST", approve, b"code=" + b"1" * 10000)
    assert too_big[0] == 403
    assert status(decision.approval_id) == PENDING
