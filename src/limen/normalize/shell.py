"""Shell analysis (interface; the tree-sitter implementation replaces the body of `analyse`)."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from limen.model import Command, Destination


@dataclass(slots=True, frozen=True)
class ShellAnalysis:
    commands: tuple[Command, ...] = ()
    paths: tuple[str, ...] = ()  # canonical paths the line reads or writes
    write_paths: tuple[str, ...] = ()  # canonical paths it writes, deletes or redirects into
    destinations: tuple[Destination, ...] = ()
    payloads: tuple[str, ...] = ()  # literal data the line sends or writes (echo text, -d bodies, heredocs)
    opaque: bool = False
    notes: tuple[str, ...] = ()


def quote(word: str) -> str:
    return shlex.quote(word)


def analyse(line: str, *, cwd: str, home: str) -> ShellAnalysis:
    try:
        argv = tuple(shlex.split(line))
    except ValueError:
        return ShellAnalysis(opaque=True, notes=("unparsable",))
    if not argv:
        return ShellAnalysis()
    return ShellAnalysis(commands=(Command(argv=argv, name=argv[0].rsplit("/", 1)[-1]),))
