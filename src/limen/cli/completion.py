"""`limen completion bash|zsh|fish`: a shell completion script, built from the commands' own parsers.

The words come from the one place they are declared: the sub-commands from `limen.cli.COMMANDS`, and each
sub-command's options and nested sub-commands from its argparse parser. Each command builds its parser in
its `main`, so the parser is taken by running `main([])` with `ArgumentParser.parse_args` replaced by a
capture that stops the command before it does anything (it raises before any work is done). Commands whose
parser is not argparse's (`limen hook`, which must stay light) are described here.

The script is static text: completing a word never runs Python, so a slow import cannot slow the shell.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

SHELLS = ("bash", "zsh", "fish")
# Nested sub-commands a command reads before its argparse parser sees the arguments: each has a parser of
# its own (`limen doctor proxy`, `limen serve token`...), taken as `main([word])`.
DISPATCHED = {
    "doctor": ("proxy",),
    "proxy": ("credential",),
    "serve": ("token", "policy", "tools", "pending", "approve", "deny"),
}


@dataclass(slots=True)
class Words:
    """What may follow a command: its options and its nested sub-commands (each with its own words)."""

    options: list[str] = field(default_factory=list)
    commands: dict[str, Words] = field(default_factory=dict)
    choices: list[str] = field(default_factory=list)  # values of its first positional argument


class _Captured(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        super().__init__(parser.prog)
        self.parser = parser


@contextlib.contextmanager
def _capturing() -> Iterator[None]:
    def capture(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> argparse.Namespace:
        raise _Captured(self)

    saved = argparse.ArgumentParser.parse_args
    argparse.ArgumentParser.parse_args = capture  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        argparse.ArgumentParser.parse_args = saved  # type: ignore[method-assign]


def words_of(parser: argparse.ArgumentParser) -> Words:
    words = Words()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helped = {choice.dest for choice in action._choices_actions}
            for name, sub in action.choices.items():
                if name in helped:  # a sub-command without help is internal (`limen daemon serve`)
                    words.commands[name] = words_of(sub)
        elif action.option_strings:
            if action.help != argparse.SUPPRESS:
                words.options.extend(o for o in action.option_strings if o.startswith("--") or len(o) == 2)
        elif action.choices and not words.choices:
            words.choices = [str(c) for c in action.choices]
    return words


def parsers(name: str) -> dict[str, argparse.ArgumentParser]:
    """The argparse parsers of `limen NAME` by the word that selects them: "" for its own, and one for each
    word it dispatches on itself before argparse (`limen mcp serve`, `limen serve token`...)."""
    from limen.cli import COMMANDS

    if name == "hook":  # not argparse: the hook path stays light
        return {}
    if name == "mcp":  # `limen mcp` reads its `serve` word before argparse sees the arguments
        from limen.cli.mcp import _parser

        return {"": _parser(False), "serve": _parser(True)}
    module = importlib.import_module(f"limen.cli.{COMMANDS[name][0]}")
    found = {word: _captured(module, [word] if word else []) for word in ("", *DISPATCHED.get(name, ()))}
    return {word: parser for word, parser in found.items() if parser is not None}


def command_words(name: str) -> Words:
    """The options and sub-commands of `limen NAME`, from its own parsers."""
    if name == "hook":
        from limen.doors.hooks.events import DIALECTS

        return Words(options=["--help"], choices=list(DIALECTS))
    found = parsers(name)
    words = words_of(found[""]) if "" in found else Words(options=["--help"])
    for word, parser in found.items():
        if word:
            words.commands[word] = words_of(parser)
    return words


def _captured(module: object, argv: list[str]) -> argparse.ArgumentParser | None:
    with _capturing():
        try:
            module.main(argv)  # type: ignore[attr-defined]
        except _Captured as captured:
            return captured.parser
        except (SystemExit, Exception):  # e.g. a command whose extra is not installed
            return None
    return None


def tree() -> dict[str, Words]:
    from limen.cli import COMMANDS

    return {name: command_words(name) for name in COMMANDS}


def _flat(words: dict[str, Words]) -> list[tuple[str, list[str]]]:
    """(path of sub-command words, candidates after it) for every level, deepest last."""
    out: list[tuple[str, list[str]]] = [("", ["--help", "--version", *words])]

    def walk(prefix: str, w: Words) -> None:
        out.append((prefix, [*w.commands, *w.choices, *w.options]))
        for name, sub in w.commands.items():
            walk(f"{prefix} {name}", sub)

    for name, w in words.items():
        walk(name, w)
    return out


def bash(words: dict[str, Words]) -> str:
    cases = "\n".join(f'        "{path}") words="{" ".join(cands)}" ;;' for path, cands in _flat(words))
    return f"""# limen completion for bash: eval "$(limen completion bash)"
_limen() {{
    local cur path="" i w
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    for ((i = 1; i < COMP_CWORD; i++)); do
        w="${{COMP_WORDS[i]}}"
        case "$w" in -*) continue ;; esac
        case "${{path:+$path }}$w" in
{chr(10).join(f'            "{p}") path="{p}" ;;' for p, _ in _flat(words) if p)}
        esac
    done
    local words=""
    case "$path" in
{cases}
    esac
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
}}
complete -o default -F _limen limen
"""


def zsh(words: dict[str, Words]) -> str:
    return f"""#compdef limen
# limen completion for zsh: eval "$(limen completion zsh)", or save it as _limen in your $fpath
autoload -U +X bashcompinit && bashcompinit
{bash(words)}"""


def fish(words: dict[str, Words]) -> str:
    lines = ["# limen completion for fish: limen completion fish | source", "complete -c limen -f"]
    from limen.cli import COMMANDS

    top = " ".join(words)
    for name in words:
        help_ = COMMANDS[name][1].replace("'", "\\'")
        lines.append(f"complete -c limen -n 'not __fish_seen_subcommand_from {top}' -a {name} -d '{help_}'")
    for name, w in words.items():
        cond = f"__fish_seen_subcommand_from {name}"
        subs = " ".join(w.commands)
        for value in [*w.commands, *w.choices]:
            guard = f"; and not __fish_seen_subcommand_from {subs}" if subs else ""
            lines.append(f"complete -c limen -n '{cond}{guard}' -a {value}")
        for option in w.options:
            if option.startswith("--"):
                lines.append(f"complete -c limen -n '{cond}' -l {option[2:]}")
        for sub_name, sub in w.commands.items():
            sub_cond = f"{cond}; and __fish_seen_subcommand_from {sub_name}"
            for value in [*sub.commands, *sub.choices]:
                lines.append(f"complete -c limen -n '{sub_cond}' -a {value}")
            for option in sub.options:
                if option.startswith("--"):
                    lines.append(f"complete -c limen -n '{sub_cond}' -l {option[2:]}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="limen completion",
        description=(
            "Print a shell completion script for limen. Load it for this shell with "
            'eval "$(limen completion bash)" (or zsh), or limen completion fish | source.'
        ),
    )
    parser.add_argument("shell", choices=SHELLS, help="The shell the script is for.")
    shell = parser.parse_args(argv).shell
    script = {"bash": bash, "zsh": zsh, "fish": fish}[shell](tree())
    sys.stdout.write(script)
    return 0
