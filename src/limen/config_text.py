"""Editing an agent's configuration text while keeping the way it was written.

People and agents write JSON in many styles (2 or 4 spaces, tabs, one line, CRLF, with or without a final
newline) and Limen must not rewrite a whole file in its own: a settings file under version control would
show every line changed, and `limen uninstall` could not give the file back as it was. So JSON is
re-rendered in the style detected from the file itself.

TOML (Codex's config.toml) is never re-rendered at all: a value is set by replacing or adding one line, or
by appending one table, and every edit is checked by parsing the result and comparing it with the intended
data. An edit that would change anything else, or that the file's layout does not allow (a dotted key, an
inline table), raises ValueError instead of guessing.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from typing import Any

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class JsonStyle:
    """How a JSON file was written: what `json.dumps` needs to write it the same way again."""

    indent: int | str | None
    separators: tuple[str, str]
    newline: str
    final_newline: bool


DEFAULT_STYLE = JsonStyle(2, (",", ": "), "\n", True)


def _separators_after(text: str) -> tuple[bool, bool]:
    """(a space follows the first `,` outside a string, a space follows the first `:` outside a string);
    without a comma, a one-member object spaces its commas as it spaces its colon."""
    comma = colon = None
    in_string = escaped = False
    for i, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "," and comma is None:
            comma = text[i + 1 : i + 2] == " "
        elif char == ":" and colon is None:
            colon = text[i + 1 : i + 2] == " "
        if comma is not None and colon is not None:
            break
    colon_space = colon is not False
    return colon_space if comma is None else comma, colon_space


def json_style(text: str) -> JsonStyle:
    """The style `text` is written in (the default for an empty file)."""
    body = text.strip()
    if not body:
        return DEFAULT_STYLE
    newline = "\r\n" if "\r\n" in text else "\n"
    final_newline = text.rstrip(" \t").endswith("\n")
    comma_space, colon_space = _separators_after(body)
    key_separator = ": " if colon_space else ":"
    if re.fullmatch(r"\{\s*\}", body):  # an empty object shows no style: write members the common way
        return JsonStyle(2, (",", ": "), newline, final_newline)
    if "\n" not in body:
        return JsonStyle(None, (", " if comma_space else ",", key_separator), newline, final_newline)
    indent: int | str = 2
    for line in body.splitlines()[1:]:
        content = line.lstrip(" \t")
        if content:
            lead = line[: len(line) - len(content)]
            indent = "\t" if lead.startswith("\t") else len(lead)
            break
    return JsonStyle(indent, (",", key_separator), newline, final_newline)


def dump_json(value: Any, style: JsonStyle) -> str:
    """`value` as JSON text in `style` (a raw newline never occurs inside a JSON string, so every `\\n`
    json.dumps writes is a line break and takes the file's own line ending)."""
    text = json.dumps(value, indent=style.indent, separators=style.separators, ensure_ascii=False)
    text = text.replace("\n", style.newline)
    return text + style.newline if style.final_newline else text


# --- TOML -------------------------------------------------------------------------------------------


def toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def toml_string(value: str) -> str:
    """A TOML basic string (JSON's escapes are all valid in one)."""
    return json.dumps(value, ensure_ascii=False)


def _header_path(line: str) -> tuple[str, ...] | None:
    """The table path of a `[a."b"]` header line, or None for any other line (`[[...]]` included)."""
    stripped = line.strip()
    if not stripped.startswith("[") or stripped.startswith("[["):
        return None
    try:
        parsed: Any = tomllib.loads(stripped)
    except tomllib.TOMLDecodeError:
        return None
    path: list[str] = []
    while isinstance(parsed, dict) and len(parsed) == 1:
        key, parsed = next(iter(parsed.items()))
        path.append(key)
    return tuple(path) if parsed == {} else None


def _is_table_start(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("[[") or _header_path(line) is not None


def _section(lines: list[str], table: tuple[str, ...]) -> tuple[int, int] | None:
    """(header line index, end index) of the table's section, or None when it has no header line."""
    for i, line in enumerate(lines):
        if _header_path(line) == table:
            end = i + 1
            while end < len(lines) and not _is_table_start(lines[end]):
                end += 1
            return i, end
    return None


def _key_line(lines: list[str], start: int, end: int, key: str) -> int | None:
    pattern = re.compile(r"\s*(?:" + re.escape(key) + "|" + re.escape(json.dumps(key)) + r")\s*=")
    return next((i for i in range(start, end) if pattern.match(lines[i])), None)


def _set(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data.setdefault(key, {})
    data[path[-1]] = value


def _delete(data: dict[str, Any], path: tuple[str, ...]) -> None:
    for key in path[:-1]:
        child = data.get(key)
        if not isinstance(child, dict):
            return
        data = child
    data.pop(path[-1], None)


def _pruned(data: dict[str, Any], paths: list[tuple[str, ...]]) -> dict[str, Any]:
    """`data` without the empty tables along each path (an emptied table may or may not keep its header)."""
    data = json.loads(json.dumps(data, default=str))
    for path in paths:
        tables = [data]
        for key in path:
            child = tables[-1].get(key)
            if not isinstance(child, dict):
                break
            tables.append(child)
        for depth in range(len(tables) - 1, 0, -1):
            if not tables[depth]:
                del tables[depth - 1][path[depth - 1]]
    return data


def _reparsed(text: str) -> dict[str, Any] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def parse_toml(text: str, path: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: {exc}") from None


def toml_with(text: str, values: dict[tuple[str, ...], str], path: str) -> str:
    """`text` with each key path set to its string value, by one line per value: replaced in its table's
    section, added under the table's header, or in a new table appended at the end."""
    expected = parse_toml(text, path)
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    appended: dict[tuple[str, ...], list[str]] = {}
    for key_path, value in values.items():
        _set(expected, key_path, value)
        table, key = key_path[:-1], key_path[-1]
        line = f"{toml_key(key)} = {toml_string(value)}{newline}"
        section = _section(lines, table)
        if section is None:
            appended.setdefault(table, []).append(line)
            continue
        start, end = section
        found = _key_line(lines, start + 1, end, key)
        if found is None:
            lines.insert(start + 1, line)
        else:
            ending = lines[found][len(lines[found].rstrip("\r\n")) :] or newline
            lines[found] = line.rstrip("\r\n") + ending
    new = "".join(lines)
    for table, body in appended.items():
        if new and not new.endswith("\n"):
            new += newline
        if new.strip():
            new += newline
        new += f"[{'.'.join(toml_key(k) for k in table)}]{newline}" + "".join(body)
    if _reparsed(new) != expected:
        raise ValueError(f"{path}: cannot set {', '.join(_dotted(p) for p in values)} without changing more")
    return new


def toml_without(text: str, keys: list[tuple[str, ...]], path: str) -> str:
    """`text` without the line of each key path; a table whose section this leaves without a key loses
    its header, and the blank line that separated it."""
    expected = parse_toml(text, path)
    lines = text.splitlines(keepends=True)
    for key_path in keys:
        _delete(expected, key_path)
        section = _section(lines, key_path[:-1])
        found = None if section is None else _key_line(lines, section[0] + 1, section[1], key_path[-1])
        if section is None or found is None:
            continue
        del lines[found]
        start, end = section[0], section[1] - 1
        if any(line.strip() for line in lines[start + 1 : end]):
            continue
        del lines[start]
        if start > 0 and not lines[start - 1].strip() and (start == len(lines) or not lines[start].strip()):
            del lines[start - 1]
    new = "".join(lines)
    reparsed = _reparsed(new)
    if reparsed is None or _pruned(reparsed, keys) != _pruned(expected, keys):
        raise ValueError(f"{path}: cannot remove {', '.join(_dotted(p) for p in keys)} by itself")
    return new


def _dotted(key_path: tuple[str, ...]) -> str:
    return ".".join(toml_key(k) for k in key_path)
