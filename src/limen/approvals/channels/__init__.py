"""The channels that put an approval request to a human, tried in the configured order.

- `terminal`: a prompt on `/dev/tty` (`terminal.py`), only for a program whose own standard input is a
  terminal (an SDK script run by a person), never the agent's stdin, never a hook or the MCP proxy (their
  terminal, if any, is the agent's user interface).
- `cli`: nothing is sent; `limen pending` lists the request and `limen approve|deny ID` answers it. It is
  always available, whatever the order says.
- `webhook`: an incoming-webhook message (Slack or Teams shape) with signed approve/deny links
  (`webhook.py`), served on loopback by `callback.py`.
- `ntfy`: a push to an ntfy topic with Approve and Deny actions pointing at the same signed links
  (`ntfy.py`).
The first channel that reaches a human is used; one that fails (no terminal, an HTTP error, a timeout)
passes the request to the next. Whatever the channel, the answer lands in the store, where the waiting
door reads it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limen.approvals.config import ApprovalConfig
    from limen.approvals.records import ApprovalRequest
    from limen.approvals.service import Approvals


def deliver(
    approvals: Approvals, request: ApprovalRequest, config: ApprovalConfig, *, door: str, until: float
) -> tuple[str, ...]:
    """Offer `request` on the first configured channel that reaches a human; the channel used, or ()."""
    for name in config.channels:
        if name == "terminal":
            from limen.approvals.channels import terminal

            if terminal.ask(approvals, request, door=door, until=until):
                return (name,)
        elif name == "webhook" and config.webhook_url:
            from limen.approvals.channels import webhook

            if webhook.send(approvals, request, config):
                return (name,)
        elif name == "ntfy" and config.ntfy_url:
            from limen.approvals.channels import ntfy

            if ntfy.send(approvals, request, config):
                return (name,)
    return ()


def finish(request_id: str, timeout: float = 2.0) -> None:
    """Let a channel still talking to a person about `request_id` write its last line (the terminal's "no
    answer" or "approved once") before the door answers; nothing to do when no terminal was asked."""
    terminal = sys.modules.get("limen.approvals.channels.terminal")
    if terminal is not None:
        terminal.finish(request_id, timeout)
