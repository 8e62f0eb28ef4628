"""HTML built by escaping by default: every value put into a template is escaped unless it is `Markup`
the console built itself. A tool name, a session id, a reason detail or a masked action is untrusted text
(an agent or a tool server chose it), so nothing reaches a page without passing through `escape`."""

from __future__ import annotations

import html
import string
import time
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlencode


class Markup(str):
    """Text that is already HTML (built here from escaped parts)."""

    __slots__ = ()


def escape(value: Any) -> Markup:
    if isinstance(value, Markup):
        return value
    return Markup(html.escape(str(value), quote=True))


def render(template: str, **values: Any) -> Markup:
    """`$name` placeholders filled with escaped values (Markup as is)."""
    return Markup(string.Template(template).substitute({k: escape(v) for k, v in values.items()}))


def join(parts: Iterable[Any]) -> Markup:
    return Markup("".join(escape(p) for p in parts))


def link(path: str, params: dict[str, Any] | None = None) -> str:
    """A URL with its query string encoded (escape it again when it goes into an attribute)."""
    query = urlencode({k: v for k, v in (params or {}).items() if v not in ("", None, 0)})
    return f"{path}?{query}" if query else path


def when(ts: Any) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(ts)))
    except (TypeError, ValueError, OverflowError, OSError):
        return "?"


def table(headers: Iterable[str], rows: Iterable[Iterable[Any]], empty: str) -> Markup:
    head = join(render("<th>$h</th>", h=h) for h in headers)
    body = join(
        render("<tr>$cells</tr>", cells=join(render("<td>$c</td>", c=c) for c in row)) for row in rows
    )
    if not body:
        return render('<p class="empty">$empty</p>', empty=empty)
    return render("<table><thead><tr>$head</tr></thead><tbody>$body</tbody></table>", head=head, body=body)
