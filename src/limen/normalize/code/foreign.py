"""Programs in languages without an evaluator of their own (R, Julia, Lua), read into one small syntax tree
and written out as the Python syntax tree `limen.normalize.code.python` evaluates.

Each language's reader (`rlang`, `jllua`) parses its programs into `Node`s; `analyse` writes them as Python
statements, and each call with an effect as the Python call with the same effect, named by the language's
table of calls (its `EFFECTS`, one entry a function: R's `system(cmd)` is `os.system(cmd)`, Julia's
`download(url, path)` is `urllib.request.urlretrieve(url, path)`). What the Python evaluator then finds (the
commands run, files read, written and deleted, where data is sent, code loaded at run time) is what the
program does. A call the table does not name is only a call: its arguments are still read, as a Python
program's calls into libraries Limen does not know are."""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limen.normalize.code import CodeEffects

# The Python modules the translated calls name (imported first, so the evaluator resolves them)
_IMPORTS = ("os", "subprocess", "shutil", "glob", "base64", "socket", "requests", "urllib.request", "flask")


@dataclass(slots=True)
class Node:
    """A part of a program: `kind` says which, `text` holds a name, an operator or a literal, `parts` the
    parts (a call's callee then its arguments), `names` a call's argument names (None for a positional one) or
    a function's parameters."""

    kind: str
    text: str = ""
    parts: tuple[Node, ...] = ()
    names: tuple[str | None, ...] = ()


def n(kind: str, text: str = "", *parts: Node, names: tuple[str | None, ...] = ()) -> Node:
    return Node(kind, text, parts, names)


# What a call does, by its effect (the names a language's table gives): the arguments it takes, in Python
# (`args` positional, `named` by name), made into the Python expression with that effect
Build = Callable[["_Writer", list[ast.expr], dict[str, ast.expr]], ast.expr]


def _call(name: str, *args: ast.expr, **named: ast.expr) -> ast.Call:
    """The Python call `name(*args, **named)`, `name` dotted (`os.path.join`)."""
    return ast.Call(
        func=_named(name), args=list(args), keywords=[ast.keyword(arg=k, value=v) for k, v in named.items()]
    )


def _first(args: list[ast.expr], named: dict[str, ast.expr], *keys: str) -> ast.expr:
    """The argument a parameter names (`destfile = f`), else the first positional one still unnamed."""
    for key in keys:
        if key in named:
            return named.pop(key)
    return args.pop(0) if args else ast.Constant(value=None)


def _only(args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """The value a one-argument call is given, by position or by any name (`parse(text = x)`)."""
    if args:
        return args.pop(0)
    return named.pop(next(iter(named))) if named else ast.Constant(value=None)


def _rest(args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """Everything else the call was given, as one value (what a request's body may carry): each part an
    argument of its own, so the environment handed over whole among them is seen as it is in a call."""
    return ast.Call(func=ast.Name(id="\x00body", ctx=ast.Load()), args=[*args, *named.values()], keywords=[])


def _text(parts: list[ast.expr], separator: str = "") -> ast.expr:
    """Values joined into one text (`paste0(a, b)`, `string(a, b)`, `a .. b`)."""
    values: list[ast.expr] = []
    for i, part in enumerate(parts):
        if i and separator:
            values.append(ast.Constant(value=separator))
        values.append(part if isinstance(part, ast.Constant) else ast.FormattedValue(part, -1, None))
    return ast.JoinedStr(values=values) if values else ast.Constant(value="")


def _shell(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    return _call("os.system", _first(args, named, "command", "cmd"))


def _shell_words(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """R's `system2(command, args)`: the words joined into the line a shell runs."""
    command = _first(args, named, "command")
    rest = _first(args, named, "args") if args or "args" in named else None
    if rest is None:
        return _call("os.system", command)
    words = rest.elts if isinstance(rest, ast.List) else [rest]
    return _call("os.system", _text([command, *words], " "))


def _popen(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    return _call("os.popen", _first(args, named, "description", "command"))


def _argv(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A program and its argument list (`processx::run("git", c("push"))`), run without a shell."""
    command = _first(args, named, "command", "cmd")
    rest = _first(args, named, "args") if args or "args" in named else ast.List(elts=[], ctx=ast.Load())
    words = rest.elts if isinstance(rest, ast.List) else [ast.Starred(value=rest, ctx=ast.Load())]
    return _call("subprocess.run", ast.List(elts=[command, *words], ctx=ast.Load()))


def _argv_words(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A program and its arguments as the call's own arguments (Go's `exec.Command("git", "push")`)."""
    return _call("subprocess.run", ast.List(elts=list(args), ctx=ast.Load()))


def _argv_words_context(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """The same after a context (Go's `exec.CommandContext(ctx, "git", "push")`)."""
    return _argv_words(w, args[1:], named)


def _go_request(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """Go's `http.NewRequest(method, url, body)`: a request that sends its body (a POST's), else a fetch."""
    method = args[0] if args else ast.Constant(value="GET")
    url = args[1] if len(args) > 1 else ast.Constant(value=None)
    body = args[2] if len(args) > 2 else ast.Constant(value=None)
    reads = isinstance(method, ast.Constant) and str(method.value).upper() in ("GET", "HEAD")
    if reads and isinstance(body, ast.Constant) and body.value is None:
        return _call("urllib.request.urlopen", url)
    return _call("requests.post", url, data=body)


def _go_request_context(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    return _go_request(w, args[1:], named)


def _go_dial(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """Go's `net.Dial("tcp", "host:port")`: a socket to the address's host and port."""
    address = args[1] if len(args) > 1 else ast.Constant(value=None)
    if isinstance(address, ast.Constant) and isinstance(address.value, str) and ":" in address.value:
        host, _, port = address.value.rpartition(":")
        number = int(port) if port.isdigit() else 0
        pair = ast.Tuple(
            elts=[ast.Constant(value=host.strip("[]")), ast.Constant(value=number)], ctx=ast.Load()
        )
        return _call("socket.create_connection", pair)
    return _call("socket.create_connection", ast.Tuple(elts=[address, ast.Constant(value=0)], ctx=ast.Load()))


def _download(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    url = _first(args, named, "url")
    destination = _first(args, named, "destfile", "path", "output")
    if isinstance(destination, ast.Name):  # `download.file(u, f)`: what `f` names, later, is what `u` served
        w.fetched[destination.id] = url
    return _call("urllib.request.urlretrieve", url, destination)


def _fetch(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    return _call("urllib.request.urlopen", _first(args, named, "url", "description"))


def _post(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    url = _first(args, named, "url")
    return _call("requests.post", url, data=_rest(args, named))


def _read_or_fetch(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A reader given a path or an address (`readLines(u)`, `read.csv(u)`): a file read, or a download."""
    target = _first(args, named, "con", "file", "path", "txt", "description", "url")
    if (
        isinstance(target, ast.Call)
        and isinstance(target.func, ast.Attribute)
        and target.func.attr == "urlopen"
    ):
        return ast.Call(func=ast.Attribute(target, "read", ast.Load()), args=[], keywords=[])  # `url(u)`'s
    if isinstance(target, ast.Constant) and "://" in str(target.value):
        return ast.Attribute(value=_call("urllib.request.urlopen", target), attr="text", ctx=ast.Load())
    return ast.Call(func=ast.Attribute(_call("open", target), "read", ast.Load()), args=[], keywords=[])


def _write(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A writer of a value into a file (`writeLines(text, path)`, `cat(..., file = f)`, `write(path, x)`)."""
    path = _first(args, named, "con", "file", "path", "destfile")
    opened = _call("open", path, ast.Constant(value="w"))
    return ast.Call(
        func=ast.Attribute(value=opened, attr="write", ctx=ast.Load()), args=[_rest(args, named)], keywords=[]
    )


def _write_to(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A writer that names its file first (`write(path, text)` in Julia)."""
    path = _first(args, named, "path", "file")
    opened = _call("open", path, ast.Constant(value="w"))
    return ast.Call(
        func=ast.Attribute(value=opened, attr="write", ctx=ast.Load()), args=[_rest(args, named)], keywords=[]
    )


def _delete(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """`unlink(x, recursive = TRUE)`, `rm(p; recursive=true)`, `file.remove(x)`: a tree or a file deleted."""
    recursive = named.pop("recursive", None)
    target = _first(args, named, "x", "path")
    whole = isinstance(recursive, ast.Constant) and recursive.value is True
    return _call("shutil.rmtree" if whole else "os.remove", target)


def _delete_tree(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    return _call("shutil.rmtree", _first(args, named, "path"))


def _copy(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    source = _first(args, named, "from", "path", "src")
    return _call("shutil.copy", source, _first(args, named, "to", "new_path", "dst"))


def _move(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    source = _first(args, named, "from", "path", "src")
    return _call("os.rename", source, _first(args, named, "to", "new_path", "dst"))


def _chmod(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    path = _first(args, named, "paths", "path")
    return _call("os.chmod", path, _first(args, named, "mode"))


def _environment(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """`Sys.getenv()`, the whole environment; `Sys.getenv("X")`, one variable of it."""
    if not args and not named:
        return _call("dict", _named("os.environ"))
    return _call("os.environ.get", _first(args, named, "x"))


def _named(name: str) -> ast.expr:
    """The Python value a dotted name is (`os.environ`, `flask.request.data`)."""
    value: ast.expr = ast.Name(id=name.split(".", 1)[0], ctx=ast.Load())
    for attr in name.split(".")[1:]:
        value = ast.Attribute(value=value, attr=attr, ctx=ast.Load())
    return value


def _variable(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    return _call("os.environ.get", _first(args, named, "x", "name"))


def _run_code(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """Code evaluated from a value (`eval(parse(text = x))`, `include_string(m, x)`, `load(x)()`): what it
    is, when a literal the reader could parse, is already written in its place."""
    return _call("exec", _first(args, named, "text", "expr", "code", "chunk"))


def _run_fetched(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """Code fetched from an address and run (`source("https://...")`, `devtools::source_url(u)`)."""
    fetched = _call("urllib.request.urlopen", _first(args, named, "url", "file"))
    return _call("exec", ast.Call(func=ast.Attribute(fetched, "read", ast.Load()), args=[], keywords=[]))


def _source(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A file of code loaded (`source("R/x.R")`, `include("x.jl")`, `dofile(f)`): an address is code
    fetched and run; a local file is read (what it does is judged where it is written)."""
    target = _first(args, named, "file", "path", "filename")
    if isinstance(target, ast.Constant) and "://" in str(target.value):
        return _run_fetched(w, [target], {})
    if (  # `include(download(u))`: the file a download just wrote, run
        isinstance(target, ast.Call)
        and isinstance(target.func, ast.Attribute)
        and target.func.attr == "urlretrieve"
        and target.args
    ):
        return _run_fetched(w, [target.args[0]], {})
    if isinstance(target, ast.Name) and target.id in w.fetched:  # `download.file(u, f); source(f)`
        return _run_fetched(w, [w.fetched[target.id]], {})
    return _read_or_fetch(w, [target], {})


def _decode64(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    return _call("base64.b64decode", _first(args, named, "what", "x", "text"))


def _identity(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A conversion that keeps what its value holds (`as.list(x)`, `toJSON(x)`, `parse(text = x)`)."""
    return _only(args, named)


def _paste(separator: str) -> Build:
    def build(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
        given = named.pop("sep", None)
        named.pop("collapse", None)
        sep = str(given.value) if isinstance(given, ast.Constant) else separator
        return _text(args, sep)

    return build


def _format(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """`sprintf(fmt, ...)`: Python's `%` formatting reads the same `%s`."""
    template = _first(args, named, "fmt")
    return ast.BinOp(left=template, op=ast.Mod(), right=ast.Tuple(elts=args, ctx=ast.Load()))


def _path(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    return _call("os.path.join", *args)


def _home_path(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    return _call("os.path.expanduser", _first(args, named, "path"))


def _home(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """The user's home folder (`homedir()`, `Sys.getenv("HOME")` is `variable`'s)."""
    return _call("os.path.expanduser", ast.Constant(value="~"))


def _connect(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A socket to a host and port (`socketConnection(host = h, port = p)`, `connect(h, p)`)."""
    host = _first(args, named, "host")
    port = _first(args, named, "port")
    return _call("socket.create_connection", ast.Tuple(elts=[host, port], ctx=ast.Load()))


def _socket(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    return _call("socket.socket")


def _sql(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A database call given a statement (`DBI::dbExecute(con, sql)`): the statement as a cursor runs it."""
    if args and "statement" not in named and "query" not in named and "sql" not in named:
        args.pop(0)  # the connection
    statement = _first(args, named, "statement", "query", "sql")
    return ast.Call(func=_named("cursor.execute"), args=[statement], keywords=[])


def _lookup(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    return _call("socket.gethostbyname", _first(args, named, "host", "name"))


def _request(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """What a web client sent (a plumber request's body, an OpenResty request's arguments, a Genie payload):
    as a Flask handler's `request.data` is, so that running it is found as a web shell is."""
    return _named("flask.request.data")


def _list(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """`c(a, b)`, `list(x = 1)`: the values, in order."""
    return ast.List(elts=[*args, *named.values()], ctx=ast.Load())


def _print_or_write(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """R's `cat(..., file = f)`: written into the file when one is named, else printed."""
    if "file" in named:
        return _write(w, [named.pop("file"), *args], named)
    return _call("print", *args)


def _fetch_or_post(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A request that carries whatever else it is given (`curl_fetch_memory(u, handle = h)`), else a fetch."""
    url = _first(args, named, "url")
    return _call("requests.post", url, data=_rest(args, named)) if args or named else _fetch(w, [url], {})


def _argv_list(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A command made of one word list (Julia's `Cmd(["curl", "-d", ...])`), run where it is written."""
    return _call("subprocess.run", _only(args, named))


def _setenv(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """Variables set for the program and what it starts (R's `Sys.setenv(NAME = "v")`): as the shell's
    `export NAME='v'`, so a variable that switches a check off (`JULIA_SSL_NO_VERIFY_HOSTS`) is found."""
    return ast.Tuple(elts=[_export(ast.Constant(value=k), v) for k, v in named.items()], ctx=ast.Load())


def _export(name: ast.expr, value: ast.expr) -> ast.expr:
    line = _text(
        [ast.Constant(value="export "), name, ast.Constant(value="='"), value, ast.Constant(value="'")]
    )
    return _call("os.system", line)


def _glob(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A folder's listing (`list.files(d, recursive = TRUE)`, `readdir(d)`): its entries, as a shell's glob
    stands for them (what a loop then deletes is every file there)."""
    folder = _first(args, named, "path", "dir")
    deep = named.get("recursive")
    pattern = "/**/*" if isinstance(deep, ast.Constant) and deep.value is True else "/*"
    return _call("glob.glob", ast.BinOp(left=folder, op=ast.Add(), right=ast.Constant(value=pattern)))


def _upload(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """A file put into a bucket (`aws.s3::put_object(file = f, object = k, bucket = b)`): as `aws s3 cp`
    puts it, so whose bucket it is is judged the same."""
    file = _first(args, named, "file", "what")
    key = _first(args, named, "object")
    bucket = _first(args, named, "bucket")
    address = _text([ast.Constant(value="s3://"), bucket, ast.Constant(value="/"), key])
    return _call(
        "subprocess.run",
        ast.List(
            elts=[ast.Constant("aws"), ast.Constant("s3"), ast.Constant("cp"), file, address], ctx=ast.Load()
        ),
    )


def _pipeline(w: _Writer, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr:
    """Julia's `pipeline(`curl ...`, `sh`)`: the commands joined by pipes, run as one line (what one writes
    into the next is what a shell's pipe carries, download-and-run included)."""
    lines = [_command_line(a) for a in args]
    if lines and all(line is not None for line in lines):
        joined: list[ast.expr] = []
        for i, line in enumerate(lines):
            if i:
                joined.append(ast.Constant(value=" | "))
            joined.append(line)  # type: ignore[arg-type]
        return _call("os.system", _text(joined))
    return ast.Tuple(elts=args, ctx=ast.Load())


def _command_line(value: ast.expr) -> ast.expr | None:
    """The line of a command written as `os.system(LINE)` (a Julia command literal), or None."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "system":
        return value.args[0] if value.args else None
    return None


BUILDS: Mapping[str, Build] = {
    "argv_list": _argv_list,
    "argv_words": _argv_words,
    "argv_words_context": _argv_words_context,
    "go_request": _go_request,
    "go_request_context": _go_request_context,
    "go_dial": _go_dial,
    "setenv": _setenv,
    "pipeline": _pipeline,
    "list": _list,
    "print_or_write": _print_or_write,
    "fetch_or_post": _fetch_or_post,
    "glob": _glob,
    "upload": _upload,
    "request": _request,
    "shell": _shell,
    "shell_words": _shell_words,
    "popen": _popen,
    "argv": _argv,
    "download": _download,
    "fetch": _fetch,
    "post": _post,
    "read": _read_or_fetch,
    "write": _write,
    "write_to": _write_to,
    "delete": _delete,
    "delete_tree": _delete_tree,
    "copy": _copy,
    "move": _move,
    "chmod": _chmod,
    "environment": _environment,
    "variable": _variable,
    "run_code": _run_code,
    "run_fetched": _run_fetched,
    "source": _source,
    "decode64": _decode64,
    "identity": _identity,
    "paste": _paste(" "),
    "paste0": _paste(""),
    "format": _format,
    "path": _path,
    "home_path": _home_path,
    "home": _home,
    "connect": _connect,
    "socket": _socket,
    "sql": _sql,
    "lookup": _lookup,
}


@dataclass(frozen=True, slots=True)
class Language:
    """What a language's reader tells the writer: its calls' effects by name (`pkg::fn`, `Module.fn`, and
    `:method` for a method of any object), the names that stand for a Python value (`ENV` for
    `os.environ`), the members of a web request that hold what its client sent, and how to read code given
    as text (for `eval(parse(text = "..."))`)."""

    name: str
    effects: Mapping[str, str]
    aliases: Mapping[str, str]
    request_members: Callable[[str, str], bool]
    parse: Callable[[str], Node | None]


_OPERATORS: dict[str, ast.operator] = {
    "+": ast.Add(),
    "-": ast.Sub(),
    "*": ast.Mult(),
    "/": ast.Div(),
    "^": ast.Pow(),
    "%%": ast.Mod(),
    "%": ast.Mod(),
}
_COMPARISONS: dict[str, ast.cmpop] = {
    "==": ast.Eq(),
    "!=": ast.NotEq(),
    "~=": ast.NotEq(),
    "<": ast.Lt(),
    ">": ast.Gt(),
    "<=": ast.LtE(),
    ">=": ast.GtE(),
}
_LOGICAL = {"&&": ast.And(), "||": ast.Or(), "&": ast.And(), "|": ast.Or(), "and": ast.And(), "or": ast.Or()}
MAX_DEPTH = 200  # nesting the writer follows (a deeper program is left unread, and said so)


class TooDeep(Exception):
    """The program nests deeper than `MAX_DEPTH`."""


class _Writer:
    def __init__(self, language: Language, level: int) -> None:
        self.language = language
        self.level = level
        self.prelude: list[ast.stmt] = []  # functions hoisted out of the expression being written
        self.fetched: dict[str, ast.expr] = {}  # the names of files a download wrote, with their addresses
        self.count = 0
        self.depth = 0

    def module(self, program: Node) -> ast.Module:
        imports: list[ast.stmt] = [ast.Import(names=[ast.alias(name=m)]) for m in _IMPORTS]
        return ast.Module(body=[*imports, *self.statements(program)], type_ignores=[])

    def statements(self, node: Node) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for item in node.parts if node.kind == "block" else (node,):
            saved, self.prelude = self.prelude, []
            written = self.statement(item)
            out += [*self.prelude, *written]
            self.prelude = saved
        return out or [ast.Pass()]

    def statement(self, node: Node) -> list[ast.stmt]:
        kind = node.kind
        if kind == "assign":
            target, value = node.parts
            written = self.expr(value)
            if target.kind == "name":
                return [ast.Assign(targets=[ast.Name(id=target.text, ctx=ast.Store())], value=written)]
            environment = (
                target.kind == "index" and self.language.aliases.get(target.parts[0].text) == "os.environ"
            )
            if environment and len(target.parts) > 1:  # Julia's `ENV["NAME"] = "v"`: set for what it starts
                return [ast.Expr(_export(self.expr(target.parts[1]), written))]
            return [ast.Expr(self.expr(target)), ast.Expr(written)]
        if kind == "func" and node.text:
            return [self.function(node.text, node)]
        if kind == "if":
            condition, then, *rest = node.parts
            orelse = self.statements(rest[0]) if rest else []
            return [ast.If(test=self.expr(condition), body=self.statements(then), orelse=orelse)]
        if kind == "for":
            sequence, body = node.parts
            variable = ast.Name(id=node.text or "_", ctx=ast.Store())
            return [ast.For(target=variable, iter=self.expr(sequence), body=self.statements(body), orelse=[])]
        if kind == "while":
            condition, body = node.parts
            return [ast.While(test=self.expr(condition), body=self.statements(body), orelse=[])]
        if kind == "block":
            return self.statements(node)
        return [ast.Expr(self.expr(node))]

    def function(self, name: str, node: Node) -> ast.FunctionDef:
        parameters = [ast.arg(arg=p) for p in node.names if p]
        body: list[ast.stmt] = self.statements(node.parts[0]) if node.parts else [ast.Pass()]
        return ast.FunctionDef(
            name=name,
            args=ast.arguments(
                posonlyargs=[], args=parameters, vararg=None, kwonlyargs=[], kw_defaults=[], defaults=[]
            ),
            body=body,
            decorator_list=[],
            returns=None,
        )

    def hoisted(self, node: Node) -> ast.expr:
        """A block, a branch or a function written where a value goes (`try({...})`, `function(x) {...}` as
        an argument): written as a function before the statement, its body read there."""
        self.count += 1
        name = f"\x00block{self.count}"
        body = node if node.kind == "func" else n("func", "", node)
        self.prelude.append(self.function(name, body))
        return ast.Name(id=name, ctx=ast.Load()) if node.kind == "func" else _call(name)

    def expr(self, node: Node) -> ast.expr:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TooDeep
        try:
            return self._expr(node)
        finally:
            self.depth -= 1

    def _expr(self, node: Node) -> ast.expr:
        kind = node.kind
        if kind == "str":
            return ast.Constant(value=node.text)
        if kind == "num":
            return ast.Constant(value=_number(node.text))
        if kind in ("true", "false", "null"):
            return ast.Constant(value={"true": True, "false": False}.get(kind))
        if kind == "name":
            alias = self.language.aliases.get(node.text)
            return _named(alias) if alias else ast.Name(id=node.text, ctx=ast.Load())
        if kind == "member":
            base = node.parts[0]
            if (owner := _dotted(base)) and self.language.request_members(owner, node.text):
                return _named("flask.request.data")
            return ast.Attribute(value=self.expr(base), attr=node.text, ctx=ast.Load())
        if kind == "index":
            base, *keys = node.parts
            key = self.expr(keys[0]) if keys else ast.Constant(value=None)
            return ast.Subscript(value=self.expr(base), slice=key, ctx=ast.Load())
        if kind == "call":
            return self.call(node)
        if kind == "method":  # Lua's `obj:name`: the method of the object
            return ast.Attribute(value=self.expr(node.parts[0]), attr=node.text, ctx=ast.Load())
        if kind == "concat":
            return _text([self.expr(p) for p in node.parts])
        if kind == "interp":
            return _text([self.expr(p) for p in node.parts])
        if kind == "command":  # Julia's `...`: a command, run where it is written
            return _call("os.system", _text([self.expr(p) for p in node.parts]))
        if kind == "list":
            return ast.List(elts=[self.expr(p) for p in node.parts], ctx=ast.Load())
        if kind == "binop":
            return self.binary(node)
        if kind == "unary":
            operand = self.expr(node.parts[0])
            op: ast.unaryop = ast.Not() if node.text in ("!", "not") else ast.USub()
            return ast.UnaryOp(op=op, operand=operand)
        if kind in ("func", "block", "if", "for", "while", "assign"):
            if kind == "assign" and node.parts[0].kind == "name":  # `f(x <- g())`: bound, and its value
                self.prelude.extend(self.statement(node))
                return ast.Name(id=node.parts[0].text, ctx=ast.Load())
            return self.hoisted(node)
        return ast.Constant(value=None)

    def binary(self, node: Node) -> ast.expr:
        left, right = (self.expr(p) for p in node.parts)
        op = node.text
        if op in _OPERATORS:
            return ast.BinOp(left=left, op=_OPERATORS[op], right=right)
        if op in _COMPARISONS:
            return ast.Compare(left=left, ops=[_COMPARISONS[op]], comparators=[right])
        if op in _LOGICAL:
            return ast.BoolOp(op=_LOGICAL[op], values=[left, right])
        return ast.Tuple(elts=[left, right], ctx=ast.Load())  # any other: both sides read

    def call(self, node: Node) -> ast.expr:
        callee, *given = node.parts
        names = node.names or (None,) * len(given)
        args: list[ast.expr] = []
        named: dict[str, ast.expr] = {}
        for name, value in zip(names, given, strict=False):
            if name:
                named[name] = self.expr(value)
            else:
                args.append(self.expr(value))
        effect = self.effect(callee)
        if effect == "run_code" and (code := self.literal_code(args, named)) is not None:
            return code
        if effect:
            return BUILDS[effect](self, args, named)
        return ast.Call(
            func=self.expr(callee),
            args=args,
            keywords=[ast.keyword(arg=k, value=v) for k, v in named.items()],
        )

    def effect(self, callee: Node) -> str:
        effects = self.language.effects
        if callee.kind == "name":
            return effects.get(callee.text) or effects.get(callee.text.rsplit("::", 1)[-1], "")
        if callee.kind == "member":
            dotted = _dotted(callee)
            return effects.get(dotted, "") if dotted else effects.get(":" + callee.text, "")
        if callee.kind == "method":
            return effects.get(":" + callee.text, "")
        return ""

    def literal_code(self, args: list[ast.expr], named: dict[str, ast.expr]) -> ast.expr | None:
        """Code given as a literal text (`eval(parse(text = "system('id')"))`): read as this language's
        program, in place."""
        given = next(iter(named.values()), None) if named else (args[0] if args else None)
        if not (isinstance(given, ast.Constant) and isinstance(given.value, str)):
            return None
        program = self.language.parse(given.value)
        if program is None:
            return None
        return self.hoisted(program)


def _dotted(node: Node) -> str:
    """`a.b.c` of names and members, or ""."""
    if node.kind == "name":
        return node.text
    if node.kind == "member" and node.parts:
        base = _dotted(node.parts[0])
        return f"{base}.{node.text}" if base else ""
    return ""


def _number(text: str) -> float | int:
    cleaned = text.rstrip("Li").replace("_", "")
    try:
        return int(cleaned, 0)
    except ValueError:
        try:
            return float(cleaned)
        except ValueError:
            return 0


def analyse(
    effects: CodeEffects,
    language: Language,
    program: Node,
    *,
    cwd: str,
    home: str,
    script: str,
    level: int,
    args: tuple[str, ...],
) -> None:
    """What `program` does, as the Python evaluator finds it in its translation."""
    from limen.normalize.code.python import analyse as analyse_python

    try:
        module = _Writer(language, level).module(program)
    except TooDeep:
        effects.flag(f"{language.name} program nested too deeply")
        return
    ast.fix_missing_locations(module)
    analyse_python(effects, module, cwd=cwd, home=home, script=script, level=level, args=args)
    # the evaluator's reasons name the language it reads: they are said of this one
    effects.opaque[:] = [why.replace("python", language.name) for why in effects.opaque]
