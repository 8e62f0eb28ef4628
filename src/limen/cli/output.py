"""How the `limen` command prints: tables, colour and JSON, the same way in every sub-command.

Colour and rich tables are for a person at a terminal: they are used only when standard output is a TTY,
`NO_COLOR` is unset (https://no-color.org) and `TERM` is not `dumb`, and only when the optional `rich`
package is installed (`pip install 'limen[rich]'`). Everywhere else, and always when piped, the output is
plain text with aligned columns, so `grep`, `head` and scripts see the same bytes on every machine.
`limen-hook` never imports this module: the hook path stays free of rich.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

# Verdicts and check outcomes in rich output; the words stay, so colour is never the only signal.
STYLES = {"PASS": "green", "AUTH": "yellow", "BLOCK": "bold red", "ok": "green", "FAIL": "bold red"}


def colour(stream: TextIO | None = None) -> bool:
    """Whether `stream` (default stdout) is a terminal that wants colour."""
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _rich_available() -> bool:
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def print_check(prefix: str, ok: bool, text: str) -> None:
    """One check's line, `PREFIXok   TEXT` or `PREFIXFAIL TEXT`: the same words everywhere (scripts and
    tests read them), the mark coloured at a colour terminal."""
    mark = "ok  " if ok else "FAIL"
    if colour() and _rich_available():
        from rich.console import Console
        from rich.text import Text

        line = Text(prefix)
        line.append(mark, style=STYLES[mark.strip()])
        line.append(f" {text}")
        Console(soft_wrap=True).print(line)
        return
    print(f"{prefix}{mark} {text}")


def print_json(data: Any) -> None:
    """One JSON document on stdout (indented, keys in a stable order), ended by a newline."""
    json.dump(data, sys.stdout, indent=2, sort_keys=True, default=str)
    sys.stdout.write("\n")


def plain_rows(headers: Sequence[str], rows: Iterable[Sequence[str]], right: frozenset[int]) -> list[str]:
    """Rows as aligned text lines: every column as wide as its widest cell, the last one unpadded."""
    cells = [list(headers), *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = [cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]) for i, cell in enumerate(row)]
        lines.append("  ".join(parts).rstrip())
    return lines


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    right: Iterable[int] = (),
    title: str | None = None,
) -> None:
    """Print a table with a header row: rich at a colour terminal, aligned plain text elsewhere."""
    right_set = frozenset(right)
    if colour() and _rich_available():
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        grid = Table(title=title, box=None, header_style="bold", pad_edge=False)
        for i, header in enumerate(headers):
            grid.add_column(header, justify="right" if i in right_set else "left", overflow="fold")
        for row in rows:
            grid.add_row(*(Text(str(c), style=STYLES.get(str(c), "")) for c in row))
        Console().print(grid)
        return
    if title:
        print(title)
    for line in plain_rows(headers, rows, right_set):
        print(line)
