"""A learned reader of shell lines and configuration edits: one that reads like an attack asks (raise-only).

The rules judge what a call would do by the facts they are given: programs, paths, hosts, settings. Measured
on red-team sets written for ecosystems nobody had told Limen about (mail servers, robots, identity servers,
game studios), a quarter of the attacks still passed: each ecosystem names its settings, its tools and its
services its own way (`php admin/cli/cfg.php --name=forcelogin --set=0`, `mavproxy.py --out=udp:IP:port`).
This detector learns what the rules cannot list. It is `code_edits`' model (the same features, the same
file format, the same pure-Python inference) trained on other data: the command lines and the edits of
configuration files (anything but programs and documents) of the project's own red-team sets, by
`training/train_command_lines.py`, shipped as `limen/data/command_lines.bin` (model card:
`docs/model-card-command-lines.md`). Its thresholds are chosen on held-out ecosystems' ordinary calls (leave
one ecosystem out), not on the attacks.

It reads a shell line's text and what the line changes in the configuration files it edits in place (`sed -i`,
`echo 'k=v' >> f`), or what a tool's Write or Edit of a configuration file changes, and only after the
objective rules passed the call: a finding is AUTH (`suspect_code_change`, risk 55), never BLOCK. (Tool calls
of MCP servers are not read: the same statement through `psql -c` and through a database tool must meet one
verdict, and a model reading them apart would split it.) A model file that cannot be read is an exception,
which the engine turns into AUTH (`subjective_guardrail_error`). `LIMEN_COMMAND_MODEL=0` turns the detector
off."""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable

from limen.context import Context
from limen.model import Action, Command, Finding, ReasonCode, Verdict
from limen.subjective.code_edits import MAX_LINES, Model, changes, features, is_program, loaded

RISK = 55
SHELL = "<shell>"  # the name a shell line is read under (no file's name is spelt so)
MAX_LINE_TEXT = 800  # of a shell line read: an attack says what it does early (and a long line costs)
_SCRIPT_SHELLS = frozenset({"pwsh", "powershell"})  # a script they run is read as the shell line it equals
# Files whose text is prose, not settings: what they say is no change to what runs
_DOCUMENTS = (".md", ".markdown", ".rst", ".txt", ".adoc", ".org", ".tex", ".csv", ".tsv", ".log", ".svg")


def configures(path: str) -> bool:
    """A file the configuration reader reads: neither a program (the code model's) nor a document."""
    name = path.rsplit("/", 1)[-1].lower()
    return not (is_program(path) or (name.rfind(".") > 0 and name.endswith(_DOCUMENTS)))


def shell_lines(command: str) -> list[str]:
    """A shell line's text as the lines the model reads (a here-document's lines each)."""
    return command[:MAX_LINE_TEXT].splitlines()[:MAX_LINES]


MODEL_PATH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "command_lines.bin")


def model() -> Model:
    return loaded(MODEL_PATH)


Read = tuple[list[str], list[str], list[str], str, bool]  # removed, added, context, name, new file


def _reads(action: Action) -> list[Read]:
    """What the model reads of a call: a shell line's lines, and the change it makes to each configuration
    file it edits in place or prints into (as the Edit making it would be read); a tool's Write or Edit of a
    configuration file; nothing of anything else (a program's change is `code_edits`', a fetch or an MCP
    call no one's)."""
    found: list[Read] = []
    if action.commands:
        line = _shell_line(action)
        if not line.strip() or _inspects_only(action) or _fetches_only(action):
            return found
        found.append(([], shell_lines(line), [], SHELL, False))
    elif action.tool not in ("Write", "Edit", "MultiEdit"):
        return found
    found += [
        (removed, added, context, path.rsplit("/", 1)[-1], new_file)
        for path, removed, added, context, new_file in changes(action)
        if configures(path)
    ]
    return found


def _read_script(action: Action) -> Command | None:
    """The line's one command, when it is a PowerShell script the analysis read as a shell line (its
    commands follow, run by it): what runs is those commands."""
    top = [c for c in action.commands if not c.via]
    if len(top) == 1 and top[0].name in _SCRIPT_SHELLS and len(action.commands) > 1:
        return top[0]
    return None


def _shell_line(action: Action) -> str:
    """The line the model reads: a PowerShell script read as a shell line is read as that line (the
    commands it equals), which is what the model knows, not in its own words."""
    script = _read_script(action)
    if script is None:
        return action.command_line
    return "; ".join(shlex.join(c.argv) for c in action.commands if c is not script)


def _inspects_only(action: Action) -> bool:
    """A line of programs that only read and print (`git status`, `ls -la`, `cat README.md`), writing nothing
    and reaching nothing: what it reads is the path rules' to judge, and it changes nothing. An interpreter
    whose code, as parsed, does no more (`node -e "console.log(require('./package.json').name)"`: no
    write, no request, no process but such programs, no variable, socket or server noted) is one of them:
    its words are no attack's effect."""
    from limen.facts.programs import Role, only_inspects, program

    def inspects(command: Command) -> bool:
        if command.redirects:
            return False
        if only_inspects(command.argv):
            return True
        entry = program(command.name)
        return entry is not None and Role.INTERPRETER in entry.roles and not action.notes

    script = _read_script(action)
    return (
        not action.write_paths
        and not action.destinations
        and not action.opaque
        and all(inspects(c) for c in action.commands if c is not script)
    )


def _fetches_only(action: Action) -> bool:
    """A line whose requests the egress floor found carry nothing (`curl -s https://blog.example/post`,
    `python3 -c "print(requests.get(URL).json())"`) and that writes nothing: a page read, whatever its words
    look like. The model is not asked of it: a read that sends nothing is no attack's effect."""
    from limen.floors.egress import carries_nothing

    return bool(action.destinations) and not action.write_paths and carries_nothing(action)


_scores: dict[tuple[int, str, tuple[str, ...]], float] = {}
MAX_REMEMBERED = 512


def _line_score(learned: Model, lines: tuple[str, ...], name: str) -> float:
    """A shell line's score, remembered per model (forgotten whole past `MAX_REMEMBERED` lines)."""
    key = (id(learned), name, lines)
    found = _scores.get(key)
    if found is None:
        if len(_scores) >= MAX_REMEMBERED:
            _scores.clear()
        found = _scores[key] = learned.score(features([], list(lines), [], name, False, settings=True))
    return found


def suspect_command(action: Action, ctx: Context) -> Iterable[Finding]:
    """A shell line, or a change to a configuration file (a tool's, or one the line makes in place), that
    the learned reader scores above the mode's threshold."""
    if os.environ.get("LIMEN_COMMAND_MODEL") == "0":
        return []
    reads = _reads(action)
    if not reads:
        return []
    learned = model()
    threshold = learned.thresholds.get(action.mode.value)
    if threshold is None:  # light: the model is not consulted
        return []
    for removed, added, context, name, new_file in reads:
        if name == SHELL:  # (an agent runs the same lines again and again: their score is remembered)
            score = _line_score(learned, tuple(added), name)
        else:
            score = learned.score(features(removed, added, context, name, new_file, settings=True))
        if score > threshold:
            what = "command line" if name == SHELL else f"change to {name}"
            detail = f"the {what} reads like an attack's (learned, score {score:.1f})"
            return [Finding(ReasonCode.SUSPECT_CODE_CHANGE, Verdict.AUTH, RISK, detail)]
    return []


DETECTORS = (suspect_command,)
