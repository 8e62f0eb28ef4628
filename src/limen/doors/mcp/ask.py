"""What the elicitation form shows the human: the call, why Limen asks, and the arguments with secrets
masked.

The form is rendered by the MCP client, so whatever it carries leaves Limen's hands: argument values are
shown only after every span `find_secrets` reports has been replaced by its kind, and each value is cut
short after masking (a cut never exposes part of a secret). Argument names are masked the same way.
"""

from __future__ import annotations

import json
from typing import Any

MAX_SHOWN_ARGS = 20
MAX_VALUE_CHARS = 160
MAX_NAME_CHARS = 60
MAX_EXPLANATION_CHARS = 400


def question(tool: str, server: str, codes: tuple[str, ...], explanation: str, arguments: Any) -> str:
    """The form's message: one call, named, with the reason codes and the masked arguments."""
    return (
        f"Limen asks: allow ONE call of {mask(tool, MAX_NAME_CHARS)} on the MCP server '{server}'?\n"
        f"It was held for a human because: {mask(explanation, MAX_EXPLANATION_CHARS)}\n"
        f"Reason codes: {', '.join(codes)}\n"
        f"Arguments (secret values masked):\n{masked_arguments(arguments)}\n"
        "Allowing runs this call once, as shown; it changes no policy. Decline if you did not expect it."
    )


def masked_arguments(arguments: Any) -> str:
    """One `- name: value` line per top-level argument, names and values secret-masked and cut short."""
    if not isinstance(arguments, dict):
        return f"- (arguments): {mask(_text(arguments), MAX_VALUE_CHARS)}"
    if not arguments:
        return "- (none)"
    names = sorted(arguments, key=str)
    lines = [
        f"- {mask(str(name), MAX_NAME_CHARS)}: {mask(_text(arguments[name]), MAX_VALUE_CHARS)}"
        for name in names[:MAX_SHOWN_ARGS]
    ]
    if len(names) > MAX_SHOWN_ARGS:
        lines.append(f"- (+{len(names) - MAX_SHOWN_ARGS} more arguments not shown)")
    return "\n".join(lines)


def mask(text: str, limit: int) -> str:
    """`text` with each secret span replaced by `[secret: kind]`, then cut to `limit` characters."""
    from limen.rules.secrets import MAX_SCAN_CHARS, find_secrets

    text = text[:MAX_SCAN_CHARS]  # the scan reads no further: nothing past it may be shown unscanned
    out: list[str] = []
    at = 0
    for hit in find_secrets(text):
        out.append(text[at : hit.start])
        out.append(f"[secret: {hit.kind}]")
        at = max(at, hit.end)
    out.append(text[at:])
    shown = "".join(out).replace("\n", "\\n")
    return shown if len(shown) <= limit else shown[:limit] + " ..."


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
