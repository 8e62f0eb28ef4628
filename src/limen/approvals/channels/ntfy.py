"""The ntfy push: one message per request to an ntfy topic URL, with Approve and Deny actions.

Published the plain way (POST to the topic URL, the text as body, `Title`, `Priority`, `Tags` and
`Actions` headers). The actions are ntfy `http` actions that POST to the signed links (`callback.py`), so
one tap answers; a request that needs the strong factor gets a `view` action instead, which opens the
confirmation page where the code is typed.
"""

from __future__ import annotations

import urllib.request
from typing import TYPE_CHECKING

from limen.approvals.channels import callback
from limen.approvals.channels.webhook import TIMEOUT_SECONDS, summary

if TYPE_CHECKING:
    from limen.approvals.config import ApprovalConfig
    from limen.approvals.records import ApprovalRequest
    from limen.approvals.service import Approvals


def actions(request: ApprovalRequest, urls: dict[str, str]) -> str:
    """The `Actions` header: `;` between actions, `,` between fields (the links hold neither)."""
    approve = (
        f"view, Approve (code needed), {urls['approve']}"
        if request.strong
        else f"http, Approve once, {urls['approve']}, method=POST, clear=true"
    )
    return f"{approve}; http, Deny, {urls['deny']}, method=POST, clear=true"


def send(approvals: Approvals, request: ApprovalRequest, config: ApprovalConfig) -> bool:
    """Publish the message; True when the server accepted it (a 2xx answer)."""
    try:
        urls = callback.links(callback.serve(approvals, config), request)
        post = urllib.request.Request(
            config.ntfy_url,
            data=summary(request).encode(),
            method="POST",
            headers={
                "Title": f"Limen: approve one call? ({request.id})",
                "Priority": "high",
                "Tags": "warning",
                "Actions": actions(request, urls),
                "Content-Type": "text/plain; charset=utf-8",
            },
        )
        with urllib.request.urlopen(post, timeout=TIMEOUT_SECONDS) as answer:
            return 200 <= int(answer.status) < 300
    except (OSError, ValueError):
        return False
