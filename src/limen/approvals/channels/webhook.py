"""The outgoing webhook: one message per request to an incoming-webhook URL (Slack or Teams), carrying the
masked call, its reason codes and risk, and the signed approve/deny links (`callback.py`).

Slack's shape is `text` plus `blocks` with two link buttons; Teams' is a `MessageCard` with two `OpenUri`
actions. A link opens a confirmation page; nothing is approved by a message preview.
"""

from __future__ import annotations

import json
import urllib.request
from typing import TYPE_CHECKING, Any

from limen.approvals.channels import callback

if TYPE_CHECKING:
    from limen.approvals.config import ApprovalConfig
    from limen.approvals.records import ApprovalRequest
    from limen.approvals.service import Approvals

TIMEOUT_SECONDS = 5.0


def summary(request: ApprovalRequest) -> str:
    factor = " (needs the TOTP code or password)" if request.strong else ""
    return (
        f"Limen asks to allow ONE call{factor}: {request.action}\n"
        f"Reason codes: {', '.join(request.reasons)}; risk {request.risk}; approval {request.id}"
    )


def _slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def payload(request: ApprovalRequest, urls: dict[str, str], style: str) -> dict[str, Any]:
    text = summary(request)
    if style == "teams":
        return {
            "@type": "MessageCard",
            "@context": "https://schema.org/extensions",
            "summary": f"Limen approval {request.id}",
            "title": "Limen asks for an approval",
            "text": text,
            "potentialAction": [
                {"@type": "OpenUri", "name": name, "targets": [{"os": "default", "uri": urls[verb]}]}
                for verb, name in (("approve", "Approve once"), ("deny", "Deny"))
            ],
        }
    return {
        "text": _slack_escape(text)
        + f"\nApprove: <{urls['approve']}|approve once>  Deny: <{urls['deny']}|deny>",
        "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": _slack_escape(text)}},
            {
                "type": "actions",
                "elements": [
                    {
                        "type": "button",
                        "text": {"type": "plain_text", "text": "Approve once"},
                        "url": urls["approve"],
                        "style": "primary",
                        "action_id": "limen_approve",
                    },
                    {
                        "type": "button",
                        "text": {"type": "plain_text", "text": "Deny"},
                        "url": urls["deny"],
                        "style": "danger",
                        "action_id": "limen_deny",
                    },
                ],
            },
        ],
    }


def send(approvals: Approvals, request: ApprovalRequest, config: ApprovalConfig) -> bool:
    """Post the message; True when the webhook accepted it (a 2xx answer)."""
    try:
        urls = callback.links(callback.serve(approvals, config), request)
        body = json.dumps(payload(request, urls, config.webhook_format)).encode()
        post = urllib.request.Request(
            config.webhook_url, data=body, method="POST", headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(post, timeout=TIMEOUT_SECONDS) as answer:
            return 200 <= int(answer.status) < 300
    except (OSError, ValueError):
        return False
