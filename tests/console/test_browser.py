"""The console driven by a real browser: headless Chromium from Debian's `chromium` package (never a
downloaded one) through Playwright. A person opens the printed URL, sees the pending request with its
evidence, approves it with the button, and the identical call then passes once; the log page filters and
explains. Screenshots of the approvals and log pages go to `tests/artifacts/console/` (git-ignored; CI
keeps that folder as the run's artifacts)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

import limen
from limen.console.server import ConsoleServer
from limen.model import Verdict

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "console"
XSS = '<img src=x onerror=alert("xss")>'


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):  # a system package, as redis-server and postgresql are for tests/state
        pytest.skip("Debian's chromium is not installed (.ci/run installs it: apt-get install -y chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium: Browser) -> Iterator[Page]:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    yield page
    context.close()
    assert dialogs == [], f"a script ran in the console: {dialogs}"


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")


def evaluate(workspace: str, command: str) -> limen.Decision:
    return limen.evaluate("Bash", {"command": command}, cwd=workspace, session_id=f"agent {XSS}")


def test_a_person_approves_in_the_browser_and_the_identical_call_passes_once(
    console: ConsoleServer, page: Page, workspace: str
) -> None:
    command = f"chmod 777 run.sh # {XSS}"
    for n in range(5):
        evaluate(workspace, f"ls dir{n}")
    asked = evaluate(workspace, command)
    other = evaluate(workspace, "chmod 777 other.sh")
    assert asked.verdict is Verdict.AUTH and asked.approval_id and other.approval_id

    page.goto(console.login_url())
    assert page.url == f"{console.origin}/"  # the token was traded for a cookie and left the address bar
    cookie = next(c for c in page.context.cookies() if c["name"] == "limen_console")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert page.evaluate("document.cookie") == ""

    card = page.locator(f"#req-{asked.approval_id}")
    assert XSS in card.locator("pre.action").inner_text()  # shown as text, not run
    assert "unsafe_permissions" in card.inner_text() and "objective" in card.inner_text()
    shot(page, "approvals.png")
    card.get_by_role("button", name="Approve once").click()
    page.wait_for_load_state()
    assert f"approved once: {asked.approval_id}" in page.locator(".flash-ok").inner_text()
    assert page.locator(f"#req-{asked.approval_id}").count() == 0
    assert page.locator(f"#req-{other.approval_id}").count() == 1

    passed = evaluate(workspace, command)
    assert passed.verdict is Verdict.PASS and passed.approval_id == asked.approval_id
    assert evaluate(workspace, command).verdict is Verdict.AUTH  # once only

    page.get_by_role("link", name="Decision log").click()
    page.select_option("select[name=verdict]", "AUTH")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_load_state()
    verdicts = page.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert verdicts and set(verdicts) == {"AUTH"}
    shot(page, "log.png")
    page.locator("tbody tr").first.get_by_role("link", name="why").click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == "Why"
    assert "unsafe_permissions" in page.inner_text("main") and "objective" in page.inner_text("main")
