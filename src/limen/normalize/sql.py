"""The rows a SQL text writes, column by column, whichever door it comes through (a database tool's
argument, `psql -c`, a library's `execute`): `UPDATE t SET a = 'x', b = (SELECT ...)`, `INSERT INTO t (a, b)
VALUES (...)` or `... SELECT ...`, and a settings table's one value column given to the rows its WHERE names
(`UPDATE wp_usermeta SET meta_value = '...' WHERE meta_key = 'wp_capabilities'` writes `wp_capabilities`).

Rules judge what is written where (an account's role, a payee's bank account, a limit, a credential's value),
not how the statement is spelt; this module only reads. It has no grammar: quotes and parentheses are
tracked, everything else is words, and a text it cannot read yields fewer writes, never an error."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice

# How much of a text, how many statements and how many columns are read: past them nothing more is
# gathered (the rules that read these writes are raise-only, so a write left unread is a finding missed,
# and the destructive-statement rules read every statement on their own)
_MAX_TEXT = 100_000
_MAX_STATEMENTS = 32
_MAX_COLUMNS = 64


@dataclass(frozen=True, slots=True)
class RowWrite:
    """One column a statement writes: the table (lower-case, as qualified in the text), the column (or the
    setting a settings table's row names) and the value's text: a string literal's content, a number, or
    the expression as written (`(SELECT id FROM roles WHERE name = 'Admin')`, `now()`); and whether the row
    is a new one (an INSERT's) rather than one changed (an UPDATE's)."""

    table: str
    column: str
    value: str
    literal: bool
    inserted: bool = False


_UPDATE = re.compile(
    r"(?is)^\s*update\s+(?:only\s+|low_priority\s+|ignore\s+)*([\w.\"`\[\]]+)\s+"
    r"(?:(?:as\s+)?(?!set\b)\w+\s+)?set\s+"
)
_INSERT = re.compile(
    r"(?is)^\s*(?:insert|replace|upsert)\s+(?:ignore\s+|or\s+\w+\s+)?into\s+([\w.\"`\[\]]+)\s*\(([^()]{1,4000})\)\s*"
)
_VALUES = re.compile(r"(?is)^values\s*\(")
_SELECT = re.compile(r"(?is)^select\s+(?:distinct\s+)?")
# Where an UPDATE's SET list ends, at its own level
_SET_END = re.compile(r"(?i)\b(?:where|returning|from|order\s+by|limit)\b")
_SELECT_END = re.compile(r"(?i)(?:from|where|union)\b")
_ASSIGNMENT = re.compile(r"(?s)^\s*(?:[\w\"`\[\]]+\.)?([\w\"`\[\]]+)\s*=\s*(.+?)\s*$")
_STRING = re.compile(r"(?s)^[nNeE]?'((?:[^']|'')*)'$")
_NUMBER = re.compile(r"^[+-]?(?:\d[\d_]*)(?:\.\d+)?(?:[eE][+-]?\d+)?$")

# A settings table's value column, and the column its WHERE names the setting by (WordPress's `wp_options`
# and `wp_usermeta`, Moodle's `mdl_config`, Magento's `core_config_data`: one row per setting)
_VALUE_COLUMN = re.compile(r"(?i)^(?:\w+_)?(?:value|val)$")
_NAMED_ROWS = re.compile(
    r"""(?is)^\s*where\b.{0,200}?\b(?:\w+_)?(?:name|key|path|setting|variable)\s*"""
    r"""(?:=\s*'([^']{1,120})'|in\s*\(([^)]{1,400})\))"""
)


def statements(text: str) -> list[str]:
    """The statements of a SQL text, split at semicolons outside quotes, comments dropped."""
    found: list[str] = []
    start, depth, quote, i = 0, 0, "", 0
    text = text[:_MAX_TEXT]
    out: list[str] = []
    while i < len(text) and len(found) < _MAX_STATEMENTS:
        char = text[i]
        if quote:
            out.append(char)
            if char == quote:
                quote = ""
        elif char in "'\"`":
            quote = char
            out.append(char)
        elif text.startswith("--", i) or (char == "#" and (i == 0 or text[i - 1] in " \t\n")):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = len(text) if end < 0 else end + 2
            out.append(" ")
            continue
        elif char == ";" and depth == 0:
            found.append("".join(out[start:]).strip())
            start = len(out)
        else:
            depth += (char == "(") - (char == ")")
            out.append(char)
        i += 1
    if len(found) < _MAX_STATEMENTS:
        found.append("".join(out[start:]).strip())
    return [s for s in found if s]


def _top_level(text: str, stop: re.Pattern[str] | None = None) -> tuple[list[str], int]:
    """`text` cut at its commas outside quotes and parentheses, up to a closing parenthesis of the level it
    starts at, or to where `stop` matches at that level; and where the reading ended."""
    parts: list[str] = []
    depth, quote, start, i = 0, "", 0, 0
    while i < len(text) and len(parts) < _MAX_COLUMNS:
        char = text[i]
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"`":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and char == ",":
            parts.append(text[start:i])
            start = i + 1
        elif (
            depth == 0 and stop is not None and (i == 0 or not text[i - 1].isalnum()) and stop.match(text, i)
        ):
            break
        i += 1
    parts.append(text[start:i])
    return [p.strip() for p in parts if p.strip()], i


def _value(expression: str) -> tuple[str, bool]:
    """A value's text, and whether the statement writes it out (a string or a number)."""
    string = _STRING.match(expression)
    if string:
        return string.group(1).replace("''", "'"), True
    if _NUMBER.match(expression):
        return expression, True
    return expression, False


def _name(word: str) -> str:
    return word.strip().strip('"`[]').lower()


def _named_settings(writes: list[RowWrite], where: str) -> list[RowWrite]:
    """A settings table's one value column given to each row its WHERE names (`SET value = '0' WHERE name IN
    ('forcelogin', ...)` writes `forcelogin`); the writes as they are for any other table."""
    if len(writes) != 1 or not _VALUE_COLUMN.match(writes[0].column):
        return writes
    named = _NAMED_ROWS.match(where)
    if named is None:
        return writes
    names = [named.group(1)] if named.group(1) else re.findall(r"'([^']{1,120})'", named.group(2))
    only = writes[0]
    return [RowWrite(only.table, name.lower(), only.value, only.literal) for name in names[:16]]


def _updated(statement: str) -> list[RowWrite]:
    update = _UPDATE.match(statement)
    if update is None:
        return []
    table = _name(update.group(1))
    rest = statement[update.end() :]
    assignments, end = _top_level(rest, _SET_END)
    writes = []
    for assignment in assignments:
        matched = _ASSIGNMENT.match(assignment)
        if matched is not None:
            value, literal = _value(matched.group(2))
            writes.append(RowWrite(table, _name(matched.group(1)), value, literal))
    return _named_settings(writes, rest[end : end + 600])


def _inserted(statement: str) -> list[RowWrite]:
    insert = _INSERT.match(statement)
    if insert is None:
        return []
    table = _name(insert.group(1))
    columns = [_name(c) for c in insert.group(2).split(",")][:_MAX_COLUMNS]
    rest = statement[insert.end() :]
    source = ""  # the rows a SELECT takes its values from: a column it copies is read with them
    if values := _VALUES.match(rest):
        given, _ = _top_level(rest[values.end() :])
    elif select := _SELECT.match(rest):
        given, end = _top_level(rest[select.end() :], _SELECT_END)
        source = " " + rest[select.end() + end :][:400]
    else:
        return []
    writes = []
    for column, expression in zip(columns, given, strict=False):
        value, literal = _value(re.sub(r"(?is)\s+as\s+\w+$", "", expression))
        writes.append(RowWrite(table, column, value if literal else value + source, literal, inserted=True))
    return writes + _inserted_setting(writes)


# A settings table's column that names the row's setting (`meta_key`, `option_name`, `path`)
_KEY_COLUMN = re.compile(r"(?i)^(?:\w+_)?(?:name|key|path|setting|variable)$")


def _inserted_setting(writes: list[RowWrite]) -> list[RowWrite]:
    """A settings table's new row, as the setting it names (`INSERT INTO wp_usermeta (user_id, meta_key,
    meta_value) VALUES (7, 'wp_capabilities', '...')` writes `wp_capabilities`), as `_named_settings` reads
    an UPDATE's."""
    keys = [w for w in writes if _KEY_COLUMN.match(w.column) and w.literal and w.value]
    values = [w for w in writes if _VALUE_COLUMN.match(w.column)]
    if len(keys) != 1 or len(values) != 1:
        return []
    value = values[0]
    return [RowWrite(value.table, keys[0].value.lower()[:120], value.value, value.literal, inserted=True)]


def row_writes(text: str) -> list[RowWrite]:
    """Every column the statements of a SQL text write, in order."""
    if not text or not re.search(r"(?i)\b(?:update|insert|replace|upsert)\b", text[:_MAX_TEXT]):
        return []
    return [
        write
        for statement in statements(text)
        for write in islice(_updated(statement) or _inserted(statement), _MAX_COLUMNS)
    ]
