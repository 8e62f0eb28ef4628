"""Code analysis: what a program given to an interpreter would do, read from its syntax tree.

`analyse_code(lang, source, cwd=..., home=...)` parses a Python, JavaScript, Perl, Ruby or PHP program
(Python with the standard `ast`; the others with tree-sitter grammars, imported only when such a program
appears) and evaluates it abstractly: string values are followed through variables, concatenation,
interpolation, path joins and home look-ups (`os.path.expanduser`, `Path.home()`, `os.environ['HOME']`,
`process.env.HOME`, `os.homedir()`, `Dir.home`, `ENV['HOME']`, `$ENV{HOME}`, `getenv('HOME')`), and
literal decoders (base64, hex, rot13, reversal, `chr`) are run. The result is a `CodeEffects`: the paths the
program reads, writes and deletes, the commands it runs (a shell line, or an argv without a shell), where it
connects, and whether it executes data it downloaded.

A program that cannot be analysed is never taken as harmless: a syntax error, code built at run time and
executed (`eval`/`exec`/`compile`/`Function` of a computed string), imports and attribute look-ups by
computed names, deserialisers of code, make the effects `opaque` with a reason. Unknown parts of a value are
kept as `UNKNOWN` characters, so a caller can still see `~/.ssh/<unknown>`.

`analyse_code()` never raises; source length and nesting are bounded.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limen.normalize.code.foreign import Language
    from limen.normalize.code.values import Val

UNKNOWN = "\x00"  # stands for a part of a string only known at run time
# An environment variable a program reads by name (`os.environ.get("STRIPE_SECRET_KEY")`, `Deno.env.get`):
# what a line that sends it carries, as `$STRIPE_SECRET_KEY` in a shell line would be
VARIABLE_NOTE = "reads_variable:"
PRINTED_NOTE = "prints_credential:"  # a credential the code prints where the agent reads it, by its name
# A setting's or a record's attribute that holds a credential, in any language: a constant's name that says
# so (`SECRET_KEY`, `STRIPE_SECRET_KEY`), or a credential's own attribute (`password`, `api_key`,
# `accessToken`); not `key` or `token_count`
CREDENTIAL_ATTRIBUTE = re.compile(
    r"[A-Z0-9_]*(?:SECRET|PASSWORD|PASSWD|TOKEN|API_KEY|PRIVATE_KEY|ACCESS_KEY)[A-Z0-9_]*"
    r"|password|passwd|secret|client_secret|api_key|apikey|private_key|secret_key|access_token|refresh_token"
    r"|auth_token|session_token|api_token|apitoken|apiKey|apiToken|accessToken|secretKey|clientSecret"
)
_VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
MAX_SOURCE = 128 * 1024
MAX_NESTED = 4  # exec("...") inside exec(b64decode(...)) ...
MAX_NODES = 20_000

LANGS = ("python", "node", "perl", "ruby", "php", "r")
_DOMAIN = re.compile(r"(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,63}")


@dataclass(slots=True)
class CodeEffects:
    reads: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    contents: list[tuple[str, str | None]] = field(default_factory=list)  # (path, text written: None unknown)
    # (path written, path read, substitutions): a file's text written back changed (`open(p, "w").write(
    # open(p).read().replace(a, b))`), for the rules that judge the file it makes
    edited: list[tuple[str, str, tuple[tuple[str, str, str], ...]]] = field(default_factory=list)
    deletes: list[tuple[str, bool, str]] = field(default_factory=list)  # (path, recursive, api)
    shell: list[tuple[str, str]] = field(default_factory=list)  # (shell line, api)
    argvs: list[tuple[tuple[str, ...], str]] = field(default_factory=list)  # (argv run without a shell, api)
    urls: list[tuple[str, str]] = field(default_factory=list)  # (url, api)
    posted: list[str] = field(default_factory=list)  # the urls among them that a request sends a body to
    hosts: list[tuple[str, int | None, str]] = field(default_factory=list)  # (host, port, api)
    # DNS names it resolves, directly or as a request's host: (name or known suffix, computed label?, api)
    lookups: list[tuple[str, bool, str]] = field(default_factory=list)
    socket: bool = False  # opens a raw socket
    download_exec: bool = False  # runs code or commands it downloaded
    opaque: list[str] = field(default_factory=list)  # why the program cannot be analysed
    sources: list[str] = field(default_factory=list)  # programs it runs from literal or decoded text
    notes: list[str] = field(default_factory=list)
    nodes: int = 0
    environment: bool = False  # took the whole environment as a value (`dict(os.environ)`, `process.env`)
    read_files: bool = False  # ran a file read from disk (`exec(open(p).read())`): not cached

    def wrote(self, path: str, value: Val) -> None:
        """`value` written into `path`: its text when known; a file's text it read and changed, as edits."""
        if value.kind == "filedata" and value.edits and value.path:
            if len(self.edited) < 8:
                self.edited.append((path, value.path, value.edits))
            return
        if len(self.contents) < 32:
            from limen.normalize.code.values import known

            self.contents.append((path, known(value)))

    def sent(self, url: str, api: str) -> None:
        """A request carrying a body: what the program read may be in it, as in `curl --data-binary @FILE`,
        and the environment it took whole, as in `env | curl --data-binary @- URL`."""
        if len(self.posted) < 64:
            self.posted.append(url)
        for path in dict.fromkeys(self.reads):
            if len(self.argvs) < 64:
                self.argvs.append((("curl", "--data-binary", f"@{path}", url), api))
        if self.environment and "'" not in url:
            self.shell.append((f"env | curl --data-binary @- '{url}'", api))

    def settle(self) -> None:
        """Whatever the program read or took of the environment anywhere in it may be in each body it sends:
        a request opened first and written to after (`req = https.request(...); req.end(JSON.stringify(
        process.env))`) carries it as `sent` at the time of the request would have."""
        if not self.posted:
            return
        reads, environment = list(dict.fromkeys(self.reads)), self.environment
        for url in dict.fromkeys(self.posted):
            for path in reads:
                argv = ("curl", "--data-binary", f"@{path}", url)
                if len(self.argvs) < 64 and not any(a == argv for a, _ in self.argvs):
                    self.argvs.append((argv, "settle"))
            line = f"env | curl --data-binary @- '{url}'"
            if environment and "'" not in url and not any(s == line for s, _ in self.shell):
                self.shell.append((line, "settle"))

    def lookup(self, name: str, api: str) -> bool:
        """A DNS name the program resolves; one with a label computed at run time (`f"{data}.evil.com"`, data
        leaving through DNS) is kept as its known suffix. False when no domain of it is known."""
        if UNKNOWN not in name:
            if "." in name and len(self.lookups) < 32:
                self.lookups.append((name.rstrip("."), False, api))
            return "." in name
        suffix = name.rsplit(UNKNOWN, 1)[1].strip(".")
        if suffix.count(".") < 1 or not _DOMAIN.fullmatch(suffix) or len(self.lookups) >= 32:
            return False
        self.lookups.append((suffix, True, api))
        return True

    def flag(self, why: str) -> None:
        if why not in self.opaque and len(self.opaque) < 16:
            self.opaque.append(why)

    def note(self, note: str) -> None:
        if note not in self.notes and len(self.notes) < 32:
            self.notes.append(note)

    def variable(self, name: str | None) -> None:
        """An environment variable read by its name (`VARIABLE_NOTE`)."""
        if name and _VARIABLE_NAME.fullmatch(name):
            self.note(VARIABLE_NOTE + name)

    def sql(self, method: str, value: Val) -> None:
        """A database library's statement method given SQL it can read (`cursor.execute("DROP TABLE t")`,
        `pool.query(...)`): noted as `sql:`, for the rules that judge SQL as `psql -c` meets it."""
        if method in SQL_METHODS and value.text is not None and len(value.text) < 20_000:
            self.note(SQL_NOTE + value.text)

    def tick(self) -> bool:
        self.nodes += 1
        if self.nodes == MAX_NODES:
            self.flag("program larger than the analysis bound")
        return self.nodes < MAX_NODES


# Methods of database libraries that run the SQL they are given (DB-API, SQLAlchemy, node-postgres, mysql2,
# better-sqlite3, JDBC-like)
SQL_METHODS = frozenset(
    {"execute", "executescript", "executemany", "exec_driver_sql", "query", "exec", "raw", "executeQuery"}
)
SQL_NOTE = "sql:"  # an `Effects.notes` entry: SQL a program runs through a database library
BUILT_COMMAND = "built-command:"  # an action's note: a program (by language) runs a command built at run time
# an `Action.notes` entry: the line runs against a test or development database (`RAILS_ENV=test`, `rails
# runner -e development`): what a program's SQL empties there is the test suite's own set-up
SCRATCH_DATABASE_NOTE = "database: a test or development one"
# an `Action.notes` entry: a program (by language) the analysis followed opens a socket; the commands it
# starts are the action's own (a scan of a program that did not parse, or of awk's, notes `socket:` alone)
FOLLOWED_SOCKET = "socket-followed:"
EDIT_NOTE = "edit:"  # an `Action.notes` entry: JSON [written, read, edits] (see `CodeEffects.edited`)


def lang_of(name: str) -> str | None:
    """The language an interpreter's name runs (`python3.12` -> python, `nodejs` -> node), or None."""
    for prefix, lang in (
        ("python", "python"),
        ("pypy", "python"),
        ("node", "node"),
        ("bun", "node"),
        ("deno", "node"),
        ("perl", "perl"),
        ("ruby", "ruby"),
        ("php", "php"),
        ("Rscript", "r"),
    ):
        if name.startswith(prefix):
            return lang
    return None


def analyse_code(
    lang: str, source: str, *, cwd: str, home: str, script: str = "", args: tuple[str, ...] = ()
) -> CodeEffects:
    """What `source`, run by `lang`'s interpreter in `cwd`, would do. Never raises.

    `script` is the file's path when the program is a script file (`__file__`, `__dir__`, `$0`); `args` are
    the arguments the program is given (`sys.argv[1:]`, `process.argv`, `@ARGV`, `ARGV`, `$argv`), UNKNOWN
    for one only known at run time."""
    key = (lang, source, cwd, home, script, args)
    found = _CACHE.get(key)
    if found is not None:
        return found
    effects = _analyse(lang, source, cwd, home, script, args)
    if not effects.read_files:  # a program that ran a file from disk is analysed again: the file may change
        if len(_CACHE) >= MAX_CACHED:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[key] = effects
    return effects


MAX_CACHED = 256
_CACHE: dict[tuple[str, str, str, str, str, tuple[str, ...]], CodeEffects] = {}


def _analyse(lang: str, source: str, cwd: str, home: str, script: str, args: tuple[str, ...]) -> CodeEffects:
    effects = CodeEffects()
    try:
        if len(source) > MAX_SOURCE:  # a cut program would not parse: what it does is not known
            effects.flag("program longer than the analysis bound")
            return effects
        analyse_into(effects, lang, source, cwd=cwd, home=home, script=script, level=0, args=args)
        from limen.normalize.tools import DESTROYS_STORE, EVERY_LISTED_DELETED, deletes_every_listed

        if deletes_every_listed(source):
            effects.note(DESTROYS_STORE + EVERY_LISTED_DELETED)
        effects.settle()
    except RecursionError:
        effects.flag("program nested too deeply")
    except Exception as exc:  # the analyser must never raise into normalisation
        effects.flag(f"program analysis failed: {type(exc).__name__}")
    return effects


def read_source(path: str, cwd: str, home: str) -> str | None:
    """A program file's text as it is on disk (bounded), or None when it cannot be read or is not text."""
    if path == "~" or path.startswith("~/"):
        path = home + path[1:]
    from limen.normalize.paths import read_regular

    data = read_regular(os.path.join(cwd, path), MAX_SOURCE + 1)  # never a FIFO or a device: they may block
    if data is None or len(data) > MAX_SOURCE or b"\x00" in data:
        return None
    return data.decode("utf-8", "replace")


def analyse_into(
    effects: CodeEffects,
    lang: str,
    source: str,
    *,
    cwd: str,
    home: str,
    script: str,
    level: int,
    args: tuple[str, ...] = (),
) -> None:
    """Add what `source` does to `effects` (nested programs: `exec(b64decode(...))`)."""
    if level > MAX_NESTED:
        effects.flag("programs nested deeper than the bound")
        return
    if level and len(effects.sources) < 16:
        effects.sources.append(source[:MAX_SOURCE])
    if lang == "python":
        from limen.normalize.code.python import analyse as analyse_python

        analyse_python(effects, source, cwd=cwd, home=home, script=script, level=level, args=args)
    elif lang in ("node", "perl", "ruby", "php"):
        from limen.normalize.code.treesitter import analyse as analyse_tree

        analyse_tree(effects, lang, source, cwd=cwd, home=home, script=script, level=level, args=args)
    elif lang in ("r", "julia", "lua", "elixir", "go"):
        from limen.normalize.code import foreign

        language = _foreign_language(lang)
        program = language.parse(source)
        if program is None:
            effects.flag(f"{language.name} program does not parse")
            return
        foreign.analyse(effects, language, program, cwd=cwd, home=home, script=script, level=level, args=args)
    else:
        effects.flag(f"{lang} programs are not analysed")


def _foreign_language(lang: str) -> Language:
    """The reader and the table of calls of a language `foreign` translates."""
    if lang == "r":
        from limen.normalize.code.rlang import LANGUAGE

        return LANGUAGE
    if lang == "elixir":
        from limen.normalize.code.elixir import LANGUAGE as ELIXIR

        return ELIXIR
    if lang == "go":
        from limen.normalize.code.golang import LANGUAGE as GO

        return GO
    from limen.normalize.code.jllua import JULIA, LUA

    return JULIA if lang == "julia" else LUA
