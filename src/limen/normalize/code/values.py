"""Abstract values shared by the code analysers: strings with unknown parts, references to library names,
paths, data that came from the network; and the literal decoders obfuscated programs use."""

from __future__ import annotations

import base64
import binascii
import codecs
import json
import posixpath
import re
from dataclasses import dataclass

from limen.normalize.code import UNKNOWN

MAX_TEXT = 64 * 1024


@dataclass(slots=True)
class Val:  # not frozen: built by the thousand, a frozen dataclass costs twice as much to make
    text: str | None = None  # a string (UNKNOWN characters for parts known only at run time); None: not one
    ref: str = ""  # a module, function, class or object by qualified name ("os.path.join", "fs")
    kind: str = ""  # "path" (a path object), "num", "list", "dict", "response", "socket"
    items: tuple[Val, ...] = ()  # list, tuple items; dict values
    keys: tuple[str, ...] = ()  # dict keys, aligned with `items`
    num: int | None = None
    tainted: bool = False  # derived from data the program downloaded
    path: str = ""  # an open file's path
    # a file's text read and changed by literal substitutions, in order: ("str", old, new) or ("re", pattern,
    # replacement), so a program that writes it back is judged by the file it makes
    edits: tuple[tuple[str, str, str], ...] = ()
    # the credential it holds, by the name it was read under: an environment variable's (`os.environ[
    # "STRIPE_SECRET_KEY"]`), or a setting's (`settings.SECRET_KEY`, `conn.password`)
    variable: str = ""

    def get(self, key: str) -> Val | None:
        for k, v in zip(self.keys, self.items, strict=False):
            if k == key:
                return v
        return None


UNK = Val()
TAINTED = Val(text=UNKNOWN, tainted=True)


def s(text: str, tainted: bool = False) -> Val:
    return Val(text=text[:MAX_TEXT], tainted=tainted)


def text_of(value: Val) -> str:
    """The value as a string: unknown parts as UNKNOWN."""
    if value.text is not None:
        return value.text
    if value.num is not None:
        return str(value.num)
    return UNKNOWN


def known(value: Val) -> str | None:
    """The value's full text when every part of it is known."""
    if value.text is not None and UNKNOWN not in value.text:
        return value.text
    if value.num is not None:
        return str(value.num)
    return None


_CONSTANTS = {
    "True": "true",
    "False": "false",
    "None": "null",
    "true": "true",
    "false": "false",
    "null": "null",
}


def structure_text(value: Val, depth: int = 0) -> str:
    """A value as the JSON a command line would be handed for it (`IpPermissions=[{"CidrIp": "0.0.0.0/0"}]`,
    `json.dumps({...})`): strings quoted, structures nested a few levels; what is not known reads UNKNOWN."""
    if value.text is not None:
        return json.dumps(value.text[:MAX_TEXT], ensure_ascii=False).replace("\\u0000", UNKNOWN)
    if value.num is not None:
        return str(value.num)
    if value.ref in _CONSTANTS:
        return _CONSTANTS[value.ref]
    if depth < 8 and value.kind == "list":
        return "[" + ", ".join(structure_text(v, depth + 1) for v in value.items[:64]) + "]"
    if depth < 8 and value.kind == "dict":
        pairs = zip(value.keys[:64], value.items, strict=False)
        return "{" + ", ".join(f"{json.dumps(k)}: {structure_text(v, depth + 1)}" for k, v in pairs) + "}"
    return UNKNOWN


def option_value(value: Val) -> str | bool:
    """A parameter as a command line's option takes it: a flag's truth, a string's text, a structure's
    JSON."""
    if value.ref in ("True", "False", "true", "false"):
        return value.ref in ("True", "true")
    return text_of(value) if value.kind not in ("list", "dict") else structure_text(value)


def edited(data: Val, kind: str, old: Val, new: Val) -> Val:
    """A file's text changed by one literal substitution (`kind`: "str" every place, "first" the first, "re"
    a regular expression); a substitution not known (computed text, a function as replacement) leaves the
    text unknown."""
    before, after = known(old), known(new)
    if before is None or after is None or len(data.edits) >= 16:
        return Val(text=UNKNOWN, tainted=data.tainted)
    return Val(
        text=UNKNOWN,
        kind="filedata",
        path=data.path,
        tainted=data.tainted,
        edits=(*data.edits, (kind, before, after)),
    )


def concat(*parts: Val) -> Val:
    text = "".join(text_of(p) for p in parts)
    return Val(
        text=text[:MAX_TEXT],
        kind="path" if parts and parts[0].kind == "path" else "",
        tainted=any(p.tainted for p in parts),
        variable=next((p.variable for p in parts if p.variable), ""),
    )


def join(*parts: Val, kind: str = "") -> Val:
    """`os.path.join`, `path.join`, `File.join`, `Path / x`: an absolute part restarts the path."""
    out = ""
    for part in parts:
        text = text_of(part)
        out = text if text.startswith("/") or not out else out.rstrip("/") + "/" + text
    return Val(text=out[:MAX_TEXT], kind=kind, tainted=any(p.tainted for p in parts))


def normalise(value: Val, home: str) -> Val:
    """`os.path.expanduser`, `File.expand_path`: a leading `~` is the home folder."""
    text = value.text
    if text is not None and (text == "~" or text.startswith("~/")):
        return Val(text=home + text[1:], kind=value.kind, tainted=value.tainted)
    return value


def parent(value: Val) -> Val:
    text = value.text
    if text is None or UNKNOWN in text.rsplit("/", 1)[0]:
        return Val(text=UNKNOWN, kind=value.kind)
    return Val(text=posixpath.dirname(text.rstrip("/")) or ".", kind=value.kind, tainted=value.tainted)


def reverse(value: Val) -> Val:
    text = known(value)
    return s(text[::-1], value.tainted) if text is not None else Val(text=UNKNOWN, tainted=value.tainted)


_B64 = re.compile(r"[A-Za-z0-9+/=_\-\s]+")


def b64decode(value: Val) -> Val:
    text = known(value)
    if text is None or not _B64.fullmatch(text):
        return Val(text=UNKNOWN, tainted=value.tainted)
    data = text.strip().replace("-", "+").replace("_", "/")
    try:
        raw = base64.b64decode(data + "=" * (-len(data.rstrip("=")) % 4), validate=False)
    except (binascii.Error, ValueError):
        return Val(text=UNKNOWN, tainted=value.tainted)
    return s(raw.decode("utf-8", "replace"), value.tainted)


def hexdecode(value: Val) -> Val:
    text = known(value)
    if text is None:
        return Val(text=UNKNOWN, tainted=value.tainted)
    try:
        return s(bytes.fromhex(text.replace("\\x", "")).decode("utf-8", "replace"), value.tainted)
    except ValueError:
        return Val(text=UNKNOWN, tainted=value.tainted)


def rot13(value: Val) -> Val:
    text = known(value)
    return s(codecs.decode(text, "rot13"), value.tainted) if text is not None else Val(text=UNKNOWN)


def char(value: Val) -> Val:
    if value.num is not None and 0 <= value.num < 0x110000:
        return s(chr(value.num))
    return Val(text=UNKNOWN)


def host_port(value: Val) -> tuple[str, int | None] | None:
    """A `(host, port)` pair or a `host:port` string."""
    if value.kind == "list" and value.items:
        host = known(value.items[0])
        port = value.items[1].num if len(value.items) > 1 else None
        return (host, port) if host else None
    text = known(value)
    if not text:
        return None
    if "://" in text:
        text = text.split("://", 1)[1]
    host, _, port_text = text.rpartition(":") if ":" in text and text.count(":") == 1 else (text, "", "")
    return host, int(port_text) if port_text.isdigit() else None


def handed_commands(values: list[Val]) -> list[Val]:
    """The command lines among values handed to a function the analysis does not know, as argvs whose first
    word runs the rest (`ExecuteProcess(cmd=["bash", "-c", LINE])`, `runner({cmd: ["sh", "-c", LINE]})`):
    a task runner, a launch file's process or a job queue runs them, so they are judged as run."""
    from limen.facts.programs import runs_arguments

    found = []
    for value in values[:16]:
        inner = value.items[:16] if value.kind == "dict" else ()
        for candidate in (value, *inner):
            first = (
                known(candidate.items[0]) if candidate.kind == "list" and len(candidate.items) > 1 else None
            )
            if first and runs_arguments(first):
                found.append(candidate)
    return found


def runs_tainted(words: Val) -> bool:
    """An argv that runs downloaded data: as the program, or as an argument of one that runs its arguments
    (`["sh", "-c", data]`); a program given data as a plain word (`["convert", upload, "out.png"]`) does
    not."""
    from limen.facts.programs import runs_arguments

    items = words.items
    if not items:
        return words.tainted  # a whole command line computed from the data
    if items[0].tainted:
        return True
    return any(w.tainted for w in items[1:]) and runs_arguments(known(items[0]) or "?")
