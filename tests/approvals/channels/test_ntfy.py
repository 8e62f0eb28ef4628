"""The ntfy channel against a loopback server speaking ntfy's publish protocol (a POST to the topic URL
with the message as body and `Title`, `Priority`, `Tags`, `Actions` headers). The test taps the actions
as the ntfy app does: an `http` action sends its request directly; a `view` action opens the page."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from tests.approvals.loopback import Recorder, approved_policy, click, http

import limen
from limen.approvals import DENIED, USED, open_approvals
from limen.model import Verdict

CHMOD = {"command": "chmod 777 run.sh"}


@pytest.fixture
def topic() -> Iterator[Recorder]:
    server = Recorder(answer=b'{"id":"abc","event":"message"}')
    yield server
    server.close()


def actions(header: str) -> dict[str, list[str]]:
    """ntfy's short `Actions` format: `;` between actions, `,` between an action's fields."""
    parsed = {}
    for action in header.split(";"):
        fields = [f.strip() for f in action.split(",")]
        parsed[fields[1]] = [fields[0], *fields[2:]]
    return parsed


def status(request_id: str) -> str:
    approvals = open_approvals()
    try:
        return approvals.get(request_id).status  # type: ignore[union-attr]
    finally:
        approvals.close()


@pytest.mark.parametrize(
    ("button", "verdict", "final"), [("Approve once", Verdict.PASS, USED), ("Deny", Verdict.AUTH, DENIED)]
)
def test_a_tap_on_an_action_answers_the_held_call(
    workspace: str, topic: Recorder, button: str, verdict: Verdict, final: str
) -> None:
    approved_policy(workspace, {"channels": ["ntfy"], "ntfy": {"url": topic.url + "/limen-alerts"}})
    out: list[limen.Decision] = []
    thread = threading.Thread(
        target=lambda: out.append(limen.evaluate("Bash", CHMOD, cwd=workspace, session_id="s1"))
    )
    thread.start()
    push = topic.next()
    assert push.path == "/limen-alerts"
    assert push.headers["Priority"] == "high" and push.headers["Title"].startswith("Limen: approve one call?")
    assert b"chmod 777 run.sh" in push.body and b"unsafe_permissions" in push.body
    buttons = actions(push.headers["Actions"])
    assert set(buttons) == {"Approve once", "Deny"}
    kind, url, *options = buttons[button]
    assert kind == "http" and "method=POST" in options
    code, _ = http("POST", url, b"")  # what the ntfy app sends when the action is tapped
    assert code == 200
    thread.join(40)
    assert out[0].verdict is verdict and status(out[0].approval_id) == final
    assert http("POST", url, b"")[0] == 409  # a tapped action is spent


def test_a_strong_request_opens_the_page_for_the_code(workspace: str, topic: Recorder) -> None:
    from limen.policy import drift

    approved_policy(
        workspace, {"channels": ["ntfy"], "ntfy": {"url": topic.url + "/t"}, "wait_seconds": 30}
    )  # the factor is the policy's approval password (`approved_policy`)
    strong = {"command": "rm -rf ~/projects"}
    out: list[limen.Decision] = []
    thread = threading.Thread(
        target=lambda: out.append(
            limen.evaluate("Bash", strong, cwd=workspace, session_id="s1", mode="strict")
        )
    )
    thread.start()
    buttons = actions(topic.next().headers["Actions"])
    kind, url = buttons["Approve (code needed)"][:2]
    assert kind == "view"  # one tap cannot carry the factor: the page asks for it
    assert http("POST", url, b"")[0] == 403  # approving without the factor is refused
    assert click(url, code="wrong password")[0] == 403
    assert drift.has_factor()
    code, body = click(url, code="correct+horse+battery")
    assert code == 200 and "Approved once" in body
    thread.join(40)
    assert out[0].verdict is Verdict.PASS
