"""Python programs, read with the standard `ast` module and evaluated abstractly (see the package notes)."""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from limen.facts.programs import (
    RemoteSession,
    aws_service,
    cloud_sdk,
    remote_session,
    sdk_destruction,
    sdk_operation,
)
from limen.normalize.code import (
    CREDENTIAL_ATTRIBUTE,
    MAX_NODES,
    PRINTED_NOTE,
    SQL_NOTE,
    UNKNOWN,
    CodeEffects,
    analyse_into,
    read_source,
)
from limen.normalize.code.pytree import python_tree
from limen.normalize.code.values import (
    MAX_TEXT,
    TAINTED,
    UNK,
    Val,
    b64decode,
    char,
    concat,
    edited,
    handed_commands,
    hexdecode,
    host_port,
    join,
    known,
    normalise,
    option_value,
    parent,
    reverse,
    rot13,
    runs_tainted,
    s,
    structure_text,
    text_of,
)

MAX_ITEMS = 4096  # items a comprehension over a literal list is evaluated for
_ITEM = "\x00item"  # the name `each` binds an item to: no program can spell it
MAX_LOOP = 16  # items of a known list a `for` body is evaluated for, one by one

_BUILTINS = frozenset(dir(builtins)) | {"__builtins__"}
_COMPUTED = "<computed>"  # a module or function looked up by a name only known at run time
# Calls without an effect here (their arguments are still evaluated): a fast way past most calls.
_PURE = frozenset(
    {
        *("print", "len", "sum", "min", "max", "round", "int", "float", "abs", "range", "enumerate", "zip"),
        *(
            "isinstance",
            "issubclass",
            "any",
            "all",
            "repr",
            "hash",
            "id",
            "type",
            "iter",
            "next",
            "dict",
            "set",
        ),
        *("frozenset", "bool", "format", "divmod", "pow", "hex", "oct", "bin", "ord", "callable", "hasattr"),
        *("super", "object", "property", "staticmethod", "classmethod", "filter", "input", "slice", "ascii"),
    }
)
_PURE_MODULES = frozenset(
    {
        *("json", "csv", "math", "re", "datetime", "time", "collections", "itertools", "functools"),
        *(
            "statistics",
            "random",
            "string",
            "textwrap",
            "logging",
            "decimal",
            "fractions",
            "operator",
            "enum",
        ),
        *(
            "dataclasses",
            "typing",
            "uuid",
            "hashlib",
            "hmac",
            "secrets",
            "copy",
            "pprint",
            "argparse",
            "heapq",
        ),
        *("bisect", "array", "struct", "unicodedata", "difflib", "calendar", "numbers", "contextlib", "abc"),
        *("warnings", "traceback", "html", "sys"),
    }
)

# Calls that run their argument as a shell line.
_SHELL_LINE = frozenset(
    {
        "os.system",
        "os.popen",
        "os.popen2",
        "os.popen3",
        "subprocess.getoutput",
        "subprocess.getstatusoutput",
        "commands.getoutput",
        "commands.getstatusoutput",
        "asyncio.create_subprocess_shell",
        "platform.popen",
        "libc.system",
        "libc.popen",
    }
)
_NATIVE = frozenset(
    {"ctypes.CDLL", "ctypes.cdll.LoadLibrary", "ctypes.PyDLL", "ctypes.CFUNCTYPE", "cffi.FFI", "ctypes.cdll"}
)
_SUBPROCESS = frozenset(
    {
        "subprocess.run",
        "subprocess.call",
        "subprocess.check_call",
        "subprocess.check_output",
        "subprocess.Popen",
    }
)
_EXEC_LIST = re.compile(r"os\.(exec|spawn)[lv]p?e?$|os\.posix_spawnp?$")
# A string that names a file (`/abs/x`, `~/x`, `.env`, `out/model.pkl`): one word with a slash or a dot
_FILE_NAME = re.compile(r"~?[\w.@+-]*[/.][\w./@+-]*")
_DELETES = {"shutil.rmtree": True, "os.remove": False, "os.unlink": False, "os.rmdir": False}
_DELETES |= {"os.removedirs": False, "send2trash.send2trash": False}
_MOVES = frozenset({"os.rename", "os.replace", "os.renames", "shutil.move"})
_COPIES = frozenset(
    {"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.copyfileobj"}
)
_READS = frozenset(
    {
        "os.listdir",
        "os.scandir",
        "os.walk",
        "glob.glob",
        "glob.iglob",
        "os.stat",
        "os.path.exists",
        "os.access",
    }
)
_WRITES = frozenset(
    {"os.mkdir", "os.makedirs", "os.truncate", "os.utime", "os.mkfifo", "os.chown", "os.lchown"}
    | {"sqlite3.connect", "dbm.open", "shelve.open"}  # a database file opened read-write (or created)
)
_OPENERS = frozenset({"open", "io.open", "codecs.open", "os.fdopen", "gzip.open", "bz2.open", "lzma.open"})
_HTTP = frozenset({"requests", "httpx", "aiohttp", "urllib3", "niquests", "treq", "grequests"})
_HTTP_VERBS = frozenset(
    {"get", "post", "put", "patch", "delete", "head", "options", "request", "stream", "urlopen"}
)
_SENDS_BODY = frozenset({"post", "put", "patch"})
_URLOPEN = frozenset(
    {
        "urllib.request.urlopen",
        "urllib.urlopen",
        "urllib2.urlopen",
        "urllib.request.urlretrieve",
        "urllib.urlretrieve",
        "wget.download",
    }
)
_CONNECTIONS = frozenset(
    {
        "http.client.HTTPConnection",
        "http.client.HTTPSConnection",
        "httplib.HTTPConnection",
        "httplib.HTTPSConnection",
        "smtplib.SMTP",
        "smtplib.SMTP_SSL",
        "ftplib.FTP",
        "ftplib.FTP_TLS",
        "telnetlib.Telnet",
        "poplib.POP3",
        "imaplib.IMAP4",
        "imaplib.IMAP4_SSL",
        "xmlrpc.client.ServerProxy",
    }
)
# The operating system's credential stores, read from code (the keychain, the Secret Service, Windows'
# Credential Manager): a secret out of one is `secret-tool lookup`'s
_CREDENTIAL_STORES = frozenset(
    {"keyring.get_password", "keyring.get_credential", "win32cred.CredRead", "keyring.core.get_password"}
)
# Calls that print their arguments where the agent reads them
_STANDARD_OUTPUT = frozenset({"print", "sys.stdout.write", "pprint.pprint", "pprint.pp"})
_CODE_RUNNERS = frozenset({"exec", "eval", "compile", "execfile", "code.InteractiveInterpreter.runsource"})
_DESERIALISERS = frozenset(
    {"pickle.loads", "pickle.load", "marshal.loads", "dill.loads", "cloudpickle.loads"}
)
# Libraries' loaders that unpickle what they are given (a model, an array, a frame): a project's own
# checkpoint is its business; one fetched from the network runs whatever code its maker put in it
_MODEL_LOADERS = frozenset(
    {"torch.load", "joblib.load", "pandas.read_pickle", "numpy.load", "dill.load", "cloudpickle.load"}
)
# What a pickle's GLOBAL opcodes may name: shells and code runners (under any module name pickle records
# them by), and classes that only rebuild data
_PICKLED_SHELLS = frozenset(
    {
        *(f"{m}.{f}" for m in ("os", "posix", "nt") for f in ("system", "popen", "execv", "execvp")),
        *(f"subprocess.{f}" for f in ("run", "call", "check_call", "check_output", "Popen", "getoutput")),
        "commands.getoutput",
        "pty.spawn",
    }
)
_PICKLED_CODE = frozenset(
    {f"{m}.{f}" for m in ("builtins", "__builtin__") for f in ("eval", "exec", "compile", "__import__")}
)
_PICKLED_DATA = frozenset(
    {
        "collections.OrderedDict",
        "collections.defaultdict",
        "collections.deque",
        "datetime.datetime",
        "datetime.date",
        "datetime.time",
        "datetime.timedelta",
        "decimal.Decimal",
        "builtins.set",
        "builtins.frozenset",
        "builtins.complex",
        "builtins.bytearray",
        "__builtin__.set",
        "copy_reg._reconstructor",
        "copyreg._reconstructor",
        "builtins.object",
        "__builtin__.object",
    }
)
_MAX_PICKLE_OPS = 20000


def _pickled_calls(data: str) -> list[tuple[str, list[str]]] | None:
    """The callables a pickle names (its GLOBAL/STACK_GLOBAL opcodes), each with the pickle's strings,
    read with `pickletools` (which parses and never loads). None when the data is not a readable pickle."""
    import pickletools
    from itertools import islice

    try:
        ops = list(islice(pickletools.genops(data.encode("utf-8", "surrogateescape")), _MAX_PICKLE_OPS))
    except Exception:  # not a pickle (or one mangled on its way): unknown
        return None
    if len(ops) >= _MAX_PICKLE_OPS:
        return None
    called: list[str] = []
    texts: list[str] = []  # the strings the pickle holds besides the names of what it calls
    for op, arg, _ in ops:
        if op.name in ("GLOBAL", "INST") and isinstance(arg, str):
            module, _, attribute = arg.partition(" ")
            called.append(f"{module}.{attribute}")
        elif op.name == "STACK_GLOBAL" and len(texts) >= 2:
            called.append(f"{texts.pop(-2)}.{texts.pop()}")
        elif isinstance(arg, str):
            texts.append(arg)
    return [(c, texts) for c in dict.fromkeys(called)]


_DYNAMIC_CODE = frozenset({"types.FunctionType", "types.CodeType", "ctypes.pythonapi", "runpy.run_module"})
_DECODERS = {
    "base64.b64decode": b64decode,
    "base64.standard_b64decode": b64decode,
    "base64.urlsafe_b64decode": b64decode,
    "base64.decodebytes": b64decode,
    "base64.decodestring": b64decode,
    "binascii.a2b_base64": b64decode,
    "bytes.fromhex": hexdecode,
    "bytearray.fromhex": hexdecode,
    "binascii.unhexlify": hexdecode,
    "binascii.a2b_hex": hexdecode,
}
_IDENTITY = frozenset(
    {
        "str",
        "bytes",
        "bytearray",
        "os.path.abspath",
        "os.path.realpath",
        "os.path.normpath",
        "os.fsencode",
        "os.fsdecode",
        "shlex.quote",
        "pipes.quote",
    }
)
_IDENTITY_METHODS = frozenset(
    {
        "decode",
        "encode",
        "strip",
        "rstrip",
        "lstrip",
        "resolve",
        "absolute",
        "as_posix",
        "lower",
        "upper",
        "read",
    }
)
_PATH_CLASSES = frozenset(
    {"pathlib.Path", "pathlib.PosixPath", "pathlib.PurePath", "pathlib.PurePosixPath", "pathlib.WindowsPath"}
)
_HOME_ENV = frozenset({"HOME", "USERPROFILE"})
_ALIASES = {"posix": "os", "nt": "os", "_io": "io", "__builtin__": "builtins", "urllib.parse": "urllib.parse"}


def analyse(
    effects: CodeEffects,
    source: str | ast.Module,
    *,
    cwd: str,
    home: str,
    script: str,
    level: int,
    args: tuple[str, ...] = (),
) -> None:
    """What a program does: its source, or a tree already read (a translated one: `foreign`)."""
    tree = python_tree(source) if isinstance(source, str) else source
    if tree is None and isinstance(source, str) and (legacy := _python2(source)) != source:
        tree = python_tree(legacy)
    if tree is None:
        effects.flag("python program does not parse")
        return
    program = _Py(effects, cwd, home, script, level, args)
    program.block(tree.body)
    program.remote_changes()


_PRINT_STATEMENT = re.compile(r"(^|;|:)(\s*)print\s+(?![\s(=])([^;\n]*)", re.M)


def _python2(source: str) -> str:
    """`python -c 'print "x"'`: Python 2's print statement, read as the call it became."""
    return _PRINT_STATEMENT.sub(r"\1\2print(\3)", source)


def _every_row(node: ast.expr) -> str:
    """The model an ORM query names whole, with no filter (Django's `Patient.objects.all()`, SQLAlchemy's
    `session.query(Patient)`, Flask-SQLAlchemy's `Patient.query`), or ""."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords:
        owner = node.func.value
        if (
            node.func.attr == "all"
            and not node.args
            and isinstance(owner, ast.Attribute)
            and owner.attr == "objects"
            and isinstance(owner.value, ast.Name)
        ):
            return owner.value.id  # `Patient.objects.all()`
        if node.func.attr == "query" and len(node.args) == 1 and isinstance(node.args[0], ast.Name):
            return node.args[0].id  # `session.query(Patient)`
    if isinstance(node, ast.Attribute) and node.attr == "query" and isinstance(node.value, ast.Name):
        return node.value.id if node.value.id[:1].isupper() else ""  # `Patient.query`
    return ""


def _model(node: ast.expr) -> tuple[str, bool]:
    """The model an ORM query is over (`User.objects.filter(...)`, `User.query.filter_by(...)`,
    `session.query(User).filter(...)`), and whether the query is narrowed to some rows; ("", False) when the
    receiver is no ORM query."""
    narrowed = False
    for _ in range(8):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and (node.attr == "objects" or (node.attr == "query" and node.value.id[:1].isupper()))
        ):
            return node.value.id, narrowed
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "query" and len(node.args) == 1 and isinstance(node.args[0], ast.Name):
                return node.args[0].id, narrowed
            narrowed = narrowed or node.func.attr in _NARROWING
            node = node.func.value
        elif isinstance(node, ast.Attribute):
            node = node.value
        else:
            break
    return "", False


_NARROWING = frozenset({"filter", "filter_by", "where", "exclude", "get", "limit", "first"})


# A commit named in full: the code it pins was there to review
_COMMIT = re.compile(r"[0-9a-f]{40}")


def _widely_used_repository(reference: str | None) -> bool:
    """`pytorch/vision:v0.10.0`: a repository on GitHub that many projects use (`facts.packages`)."""
    from limen.facts.packages import used

    return bool(reference) and used("github", str(reference).split(":", 1)[0].lower())


class _Py:
    def __init__(
        self, effects: CodeEffects, cwd: str, home: str, script: str, level: int, args: tuple[str, ...] = ()
    ) -> None:
        self.fx = effects
        self.sys_argv = Val(kind="list", items=tuple(s(a) for a in (script or "-c", *args)))
        self.cwd = cwd
        self.home = home
        self.script = script
        self.level = level
        self.env: dict[str, Val] = {"__file__": s(script) if script else Val(text=UNKNOWN)}
        self.star: list[str] = []  # modules imported with `from M import *`
        self.remote_host = ""  # the machine a remote-session library last logged in to
        # machines a library's client is pointed at, and its calls that change what it talks to
        self.addresses: list[str] = []
        self.changes: list[str] = []

    # ----------------------------------------------------------------- statements

    def block(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.stmt(stmt)

    def stmt(self, node: ast.stmt) -> None:
        if not self.fx.tick():
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = _ALIASES.get(alias.name, alias.name)
                if name == "limen" or name.startswith("limen."):
                    self.fx.note(f"limen_module:{name}")  # Limen's own code, run by the agent
                if alias.asname:
                    self.env[alias.asname] = Val(ref=name)
                else:
                    top = name.split(".", 1)[0]
                    self.env[top] = Val(ref=top)
            return
        if isinstance(node, ast.ImportFrom):
            module = _ALIASES.get(node.module or "", node.module or "")
            if module == "limen" or module.startswith("limen."):
                for alias in node.names:
                    self.fx.note(f"limen_module:{module}.{alias.name}")
            for alias in node.names:
                if alias.name == "*":
                    self.fx.note(f"from {module} import *")
                    self.star.append(module)
                    continue
                self.env[alias.asname or alias.name] = Val(
                    ref=f"{module}.{alias.name}" if module else alias.name
                )
            return
        if isinstance(node, ast.Assign):
            value = self.expr(node.value)
            for target in node.targets:
                self.bind(target, value)
            return
        if isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.bind(node.target, self.expr(node.value))
            return
        if isinstance(node, ast.AugAssign):
            value = self.expr(node.value)
            if isinstance(node.target, ast.Name):
                old = self.env.get(node.target.id, UNK)
                self.env[node.target.id] = concat(old, value) if isinstance(node.op, ast.Add) else UNK
            return
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                value = self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, value)
            self.block(node.body)
            return
        if isinstance(node, (ast.For, ast.AsyncFor)):
            source = self.expr(node.iter)
            small = source.kind == "list" and 0 < len(source.items) <= MAX_LOOP
            values = source.items if small else (_item(source),)
            for value in values:  # a loop over a short known list runs its body once per item
                self.bind(node.target, value)
                self.block(node.body)
            self.block(node.orelse)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:
                self.expr(decorator)
            saved = dict(self.env)
            if not isinstance(node, ast.ClassDef):
                for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs):
                    self.env[arg.arg] = UNK
                for default in (*node.args.defaults, *node.args.kw_defaults):
                    if default is not None:
                        self.expr(default)
            self.block(node.body)
            self.env = saved
            self.env[node.name] = Val(ref=f"def:{node.name}")
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                self.stmt(child)
            elif isinstance(child, ast.expr):
                self.expr(child)
            elif isinstance(child, (ast.ExceptHandler, ast.match_case)):
                self.block(child.body)

    def bind(self, target: ast.expr, value: Val) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            for i, element in enumerate(target.elts):
                item = value.items[i] if value.kind == "list" and i < len(value.items) else UNK
                self.bind(element, item)
        elif isinstance(target, ast.Subscript) and self.expr(target.value).ref in (
            "globals",
            "locals",
            "vars",
        ):
            name = known(self.expr(target.slice))  # `globals()["sp"] = __import__("subprocess")`: a name
            if name is not None:
                self.env[name] = value
        else:
            self.expr(target)

    # ----------------------------------------------------------------- expressions

    def expr(self, node: ast.expr | None) -> Val:
        fx = self.fx
        if node is None or (fx.nodes >= MAX_NODES - 1 and not fx.tick()):
            return UNK
        fx.nodes += 1  # `fx.tick()` inlined below the bound: this runs for every node
        handler = _EXPR.get(type(node))
        if handler is not None:
            return handler(self, node)
        last = UNK
        tainted = False
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                last = self.expr(child)
                tainted = tainted or last.tainted
        if isinstance(node, ast.BoolOp):  # `request.args.get("c") or "uptime"`: either one, taint and all
            return TAINTED if tainted else last
        return Val(tainted=last.tainted)

    def _name(self, node: ast.Name) -> Val:
        value = self.env.get(node.id)
        if value is not None:
            return value
        if node.id in _BUILTINS:
            return Val(ref=node.id)
        if self.star:  # `from os import *; system(...)`
            return Val(ref=f"{self.star[-1]}.{node.id}")
        return UNK  # a name bound in a way not followed

    def _attribute(self, node: ast.Attribute) -> Val:
        base = self.expr(node.value)
        if (
            isinstance(node.value, ast.Name)
            and node.value.id in _REQUEST_NAMES
            and node.attr in _REQUEST_INPUTS
            and not base.ref
            and base.text is None
        ):  # a handler's `request.args`, `request.GET`: what the web client sent, however `request` came
            return TAINTED
        found = self.attribute(base, node.attr)
        if CREDENTIAL_ATTRIBUTE.fullmatch(node.attr):  # `settings.SECRET_KEY`, `conn.password`
            found = replace(found, variable=node.attr)
        return found

    def _constant(self, node: ast.Constant) -> Val:
        constant = node.value
        if type(constant) is str:
            return Val(text=constant) if len(constant) <= MAX_TEXT else s(constant)
        if isinstance(constant, bytes):
            return s(constant.decode("utf-8", "replace"))
        if isinstance(constant, bool) or constant is None:
            return Val(ref=str(constant))
        if isinstance(constant, int):
            return Val(num=constant)
        return UNK

    def _joined(self, node: ast.JoinedStr) -> Val:
        return concat(*(self.expr(v) for v in node.values)) if node.values else s("")

    def _formatted(self, node: ast.FormattedValue) -> Val:
        return self.expr(node.value)

    def _subscript(self, node: ast.Subscript) -> Val:
        return self.subscript(self.expr(node.value), node.slice)

    def _binop(self, node: ast.BinOp) -> Val:
        left, right = self.expr(node.left), self.expr(node.right)
        op = node.op
        if isinstance(op, ast.Div) and left.kind == "path":
            return join(left, right, kind="path")
        if isinstance(op, ast.Add) and (left.text is not None or right.text is not None):
            return concat(left, right)
        if isinstance(op, ast.Add) and left.kind == "list" and right.kind == "list":
            return Val(kind="list", items=left.items + right.items)
        if isinstance(op, ast.Mod) and left.text is not None:
            return _percent(left, right)
        if left.num is not None and right.num is not None:
            return _arith(op, left.num, right.num)
        return Val(tainted=left.tainted or right.tainted)

    def _unary(self, node: ast.UnaryOp) -> Val:
        operand = self.expr(node.operand)
        if isinstance(node.op, ast.USub) and operand.num is not None:
            return Val(num=-operand.num)
        return Val(tainted=operand.tainted)

    def _sequence(self, node: ast.List | ast.Tuple | ast.Set) -> Val:
        return Val(kind="list", items=tuple(self.expr(e) for e in node.elts))

    def _dict(self, node: ast.Dict) -> Val:
        keys = tuple(known(self.expr(k)) or "" if k is not None else "" for k in node.keys)
        return Val(kind="dict", keys=keys, items=tuple(self.expr(v) for v in node.values))

    def _comprehension(self, node: ast.ListComp | ast.GeneratorExp | ast.SetComp) -> Val:
        return self.comprehension(node.elt, node.generators)

    def _dictcomp(self, node: ast.DictComp) -> Val:
        self.comprehension(node.value, node.generators)
        return UNK

    def _await(self, node: ast.Await | ast.Starred) -> Val:
        return self.expr(node.value)

    def _named(self, node: ast.NamedExpr) -> Val:
        value = self.expr(node.value)
        self.env[node.target.id] = value
        return value

    def _ifexp(self, node: ast.IfExp) -> Val:
        self.expr(node.test)
        body, other = self.expr(node.body), self.expr(node.orelse)
        return body if known(body) is not None or body.ref else other

    def _lambda(self, node: ast.Lambda) -> Val:
        saved = dict(self.env)
        for arg in node.args.args:
            self.env[arg.arg] = UNK
        self.expr(node.body)
        self.env = saved
        return UNK

    def invoked(self, function: ast.Lambda, node: ast.Call) -> Val:
        """`(lambda s, g: s.Popen(["sh"]))(__import__("subprocess"), globals())`: a lambda called where it
        is written runs its body with its parameters bound to the call's arguments."""
        args = [self.expr(arg) for arg in node.args]
        kwargs = {k.arg: self.expr(k.value) for k in node.keywords if k.arg}
        saved = dict(self.env)
        parameters = [*function.args.posonlyargs, *function.args.args]
        for i, arg in enumerate(parameters):
            self.env[arg.arg] = (
                args[i] if i < len(args) and not isinstance(node.args[i], ast.Starred) else UNK
            )
        for arg in (*parameters, *function.args.kwonlyargs):
            if arg.arg in kwargs:
                self.env[arg.arg] = kwargs[arg.arg]
        for extra in (function.args.vararg, function.args.kwarg):
            if extra is not None:
                self.env[extra.arg] = UNK
        value = self.expr(function.body)
        self.env = saved
        return value

    def each(self, function: ast.expr, collection: Val) -> Val:
        """`map(os.remove, paths)`, `filter(lambda p: os.remove(p), paths)`: the function called on each item,
        as a `for` loop over the collection would (one unknown item when the collection is not known)."""
        known_items = collection.kind == "list" and 0 < len(collection.items) <= MAX_LOOP
        items = collection.items if known_items else (Val(text=UNKNOWN, tainted=collection.tainted),)
        saved = dict(self.env)
        for item in items:
            if isinstance(function, ast.Lambda):
                for arg in function.args.args:
                    self.env[arg.arg] = UNK
                if function.args.args:
                    self.env[function.args.args[0].arg] = item
                self.expr(function.body)
            else:
                self.env[_ITEM] = item
                self.call(ast.Call(func=function, args=[ast.Name(id=_ITEM)], keywords=[]))
        self.env = saved
        return Val(kind="list", tainted=collection.tainted)

    def comprehension(self, elt: ast.expr, generators: list[ast.comprehension]) -> Val:
        first = generators[0]
        source = self.expr(first.iter)
        for extra in generators[1:]:
            self.expr(extra.iter)
        saved = dict(self.env)
        items: list[Val] = []
        if (
            len(generators) == 1
            and not first.ifs
            and isinstance(first.target, ast.Name)
            and source.kind == "list"
            and len(source.items) <= MAX_ITEMS
        ):
            for item in source.items:
                self.env[first.target.id] = item
                items.append(self.expr(elt))
            self.env = saved
            return Val(kind="list", items=tuple(items))
        text = known(source)
        if (
            text is not None
            and isinstance(first.target, ast.Name)
            and not first.ifs
            and len(text) <= MAX_ITEMS
        ):
            for ch in text:
                self.env[first.target.id] = s(ch)
                items.append(self.expr(elt))
            self.env = saved
            return Val(kind="list", items=tuple(items))
        for i, generator in enumerate(generators):
            # each target stands for one item of its source, evaluated with the earlier targets bound
            # (`for root, _, files in os.walk(d) for f in files`: `f` is one of the files of one root)
            values = source if i == 0 else self.expr(generator.iter)
            item = values.items[0] if values.kind == "list" and values.items else _item(values)
            self.bind(generator.target, item)
            for condition in generator.ifs:
                self.expr(condition)
        self.expr(elt)
        self.env = saved
        return Val(tainted=source.tainted)

    def attribute(self, base: Val, attr: str) -> Val:
        if base.ref:
            ref = base.ref
            if attr == "__dict__":
                return Val(ref=ref, kind="namespace")
            if ref in ("builtins", "__builtins__"):
                return Val(ref=attr)
            if ref == "os" and attr == "environ":
                return Val(ref="os.environ")
            if ref == "sys" and attr == "argv":
                return self.sys_argv
            if ref.endswith(".pw_dir") or attr == "pw_dir":
                return s(self.home)
            if ref in _REQUEST_OBJECTS:  # `flask.request.args`: what the web client sent (a web shell's)
                return TAINTED
            return Val(ref=f"{ref}.{attr}")
        if base.kind == "path":
            if attr == "parent":
                return parent(base)
            if attr in ("name", "stem", "suffix"):
                text = known(base)
                return s(text.rsplit("/", 1)[-1]) if text and attr == "name" else Val(text=UNKNOWN)
        if attr == "pw_dir":
            return s(self.home)
        if base.tainted:
            return TAINTED
        return Val(ref=f"?.{attr}") if base.kind == "socket" else UNK

    def subscript(self, base: Val, index: ast.expr) -> Val:
        if isinstance(index, ast.Slice):
            lower, upper = self.expr(index.lower), self.expr(index.upper)
            step = self.expr(index.step)
            if step.num == -1 and index.lower is None and index.upper is None:
                return reverse(base)
            bounds = (lower.num, upper.num, step.num)
            if all(
                b is not None or n is None
                for b, n in zip(bounds, (index.lower, index.upper, index.step), strict=True)
            ):
                cut = slice(*bounds)
                if base.kind == "list":
                    return Val(kind="list", items=base.items[cut], tainted=base.tainted)
                if known(base) is not None and base.text is not None:
                    return s(base.text[cut], base.tainted)
            return (
                Val(text=UNKNOWN, tainted=base.tainted)
                if base.text is not None
                else Val(tainted=base.tainted)
            )
        key = self.expr(index)
        name = known(key)
        if base.ref == "os.environ":
            return self.environ(name)
        if base.kind == "namespace" or base.ref in ("globals", "locals", "vars", "sys.modules"):
            if name is None:
                return Val(ref=_COMPUTED)  # harmless until called
            ref = base.ref if base.kind == "namespace" else ""
            return Val(
                ref=name if ref in ("", "builtins", "__builtins__", "sys.modules") else f"{ref}.{name}"
            )
        if base.kind == "list" and key.num is not None and -len(base.items) <= key.num < len(base.items):
            return base.items[key.num]
        if base.kind == "dict" and name is not None:
            return base.get(name) or UNK
        if base.text is not None and key.num is not None and known(base) is not None:
            text = base.text
            return s(text[key.num]) if -len(text) <= key.num < len(text) else UNK
        return Val(text=UNKNOWN, tainted=True) if base.tainted else UNK

    def environ(self, name: str | None) -> Val:
        self.fx.variable(name)
        if name in _HOME_ENV:
            return s(self.home)
        if name == "PWD":
            return s(self.cwd)
        return Val(text=UNKNOWN, variable=name or "")

    # ----------------------------------------------------------------- calls

    def call(self, node: ast.Call) -> Val:
        func = node.func
        if isinstance(func, ast.Lambda):
            return self.invoked(func, node)
        receiver: Val | None = None
        if isinstance(func, ast.Attribute) and func.attr == "delete" and not node.args and not node.keywords:
            table = _every_row(func.value)
            if table:  # `Patient.objects.all().delete()`: every row of the model's table, gone
                self.fx.note(f"{SQL_NOTE}DELETE FROM {table}")
        if isinstance(func, ast.Attribute):
            receiver = self.expr(func.value)
            callee = self.attribute(receiver, func.attr)
            name = callee.ref if receiver.ref and callee.ref else ""
            method = func.attr
        else:
            callee = self.expr(func)
            name, method = callee.ref, ""
        args: list[Val] = []
        for arg in node.args:
            value = self.expr(arg)
            if isinstance(arg, ast.Starred) and value.kind == "list":
                args.extend(value.items)
            else:
                args.append(value)
        kwargs = {k.arg: self.expr(k.value) for k in node.keywords if k.arg}
        for k in node.keywords:
            if k.arg is None:
                self.expr(k.value)
        if method == "update" and isinstance(func, ast.Attribute):
            model, narrowed = _model(func.value)
            if model:
                self.orm_update(model, narrowed, args, kwargs)
        name = _normal(name)
        if name.startswith(_COMPUTED):
            self.fx.flag("python calls a function looked up by a name computed at run time")
            return UNK
        if any(a.ref == "os.environ" for a in args) or name in _ENVIRONMENT:
            self.fx.environment = True
        if name and (sdk := cloud_sdk(name)) is not None:  # `boto3.client("s3").delete_bucket(...)`
            service = aws_service(known(args[0]) or "") if method == "client" and args else ""
            if service and sdk.program == "aws":  # `boto3.client("guardduty")`: where its calls go
                return Val(ref=f"{name}.{service}")
            options = {k: option_value(v) for k, v in kwargs.items()}
            line = sdk_operation(name, options)
            cli_words = () if line else sdk_destruction(sdk, name.split(".")[1:])
            if line:  # judged as the same command line is (`aws guardduty update-detector --no-enable`)
                self.fx.argvs.append((line, name))
            if cli_words:  # judged as the CLI's same words are (`aws delete-bucket`)
                self.fx.argvs.append(((sdk.program, *cli_words), name))
            elif kwargs or args:  # and as the MCP tool call it equals (`cloudtrail.stop_logging(Name=t)`)
                self.service_call(name, args, kwargs)
            return Val(ref=name)  # a client, a resource, a collection: its methods are looked at too
        if name in _STANDARD_OUTPUT:  # a credential printed where the agent reads it (`print(os.environ[K])`)
            for printed in args:
                if printed.variable:
                    self.fx.note(PRINTED_NOTE + printed.variable)
        if name in _CREDENTIAL_STORES:  # `keyring.get_password("heroku", "api")`: the store's secret
            service = args[0].text if args and args[0].text else "?"
            self.fx.argvs.append((("secret-tool", "lookup", "service", service), name))
            return Val(tainted=True)
        if name == "json.dumps" and args and args[0].kind in ("list", "dict"):  # the policy document a call
            return Val(text=structure_text(args[0]), tainted=args[0].tainted)  # is handed, as text
        if name == "re.sub" and len(args) == 3 and not kwargs and args[2].kind == "filedata":
            return edited(args[2], "re", args[0], args[1])  # `re.sub(r"...", "...", open(p).read())`
        if name and (
            name in _PURE
            or name.split(".", 1)[0] in _PURE_MODULES
            or (name not in _HANDLED and not _handled_prefix(name))
        ):
            tainted = any(a.tainted for a in args)
            self.handed_commands(args, kwargs, name)
            if name in _PURE or not _library_name(name):
                return Val(tainted=tainted)  # no effect; what it returns carries any taint
            if (session := remote_session(name)) is not None:
                self.remote(session, name, args, kwargs)
            if args:  # `psycopg2.connect(dsn).cursor().execute("TRUNCATE t")`: a library's statement method
                self.fx.sql(name.rsplit(".", 1)[-1], args[0])
            self.service_call(name, args, kwargs)
            self.remote_client(name, args, kwargs)
            return Val(ref=name, tainted=tainted)  # a client or a resource: its methods are looked at too
        if not name:  # a method of a value (a path, a string, a socket, a response), or an unknown callee
            self.handed_commands(args, kwargs, method)
            if receiver is not None and args:
                self.fx.sql(method, args[0])  # `sqlite3.connect(db).execute("DROP TABLE t")`
            if receiver is not None and method == "decode" and receiver.text is not None:
                return _decode(receiver, args[0] if args else UNK)
            if receiver is not None:
                result = self.method(receiver, method, args, kwargs)
                if result is not None:
                    return result
            return Val(tainted=any(a.tainted for a in args))
        first = args[0] if args else kwargs.get("args", kwargs.get("path", kwargs.get("url", UNK)))
        fx = self.fx
        # ---- values: home, paths, decoders, strings
        if name in ("os.path.expanduser", "posixpath.expanduser"):
            return normalise(first, self.home)
        if name in ("os.path.join", "posixpath.join"):
            return join(*args)
        if name in ("os.path.dirname", "posixpath.dirname"):
            return parent(first)
        if name in ("os.getenv", "os.environ.get", "os.getenvb"):
            value = self.environ(known(first))
            return value if known(value) is not None or len(args) < 2 else args[1]
        if name == "os.path.expandvars":
            text = text_of(first)
            return s(re.sub(r"\$\{?HOME\}?", self.home, text)) if "$" in text else first
        if name in ("os.getcwd", "os.getcwdb"):
            return s(self.cwd)
        if name == "site.getusersitepackages":  # where the user's start-up hooks (`usercustomize`) load from
            return Val(text=_user_site(self.home), kind="path")
        if name == "site.getsitepackages":
            return Val(text=_system_site(), kind="path")
        if name in _PATH_CLASSES or name == "pathlib.Path.joinpath":
            return join(*args, kind="path") if args else Val(text=".", kind="path")
        if name in _PATH_HOME:
            return Val(text=self.home, kind="path")
        if name in _PATH_CWD:
            return Val(text=self.cwd, kind="path")
        if name in _DECODERS:
            return _DECODERS[name](first)
        if name == "codecs.decode":
            return _decode(first, args[1] if len(args) > 1 else UNK)
        if name in ("chr", "unichr"):
            return char(first)
        if name == "map" and len(args) == 2 and args[0].ref in ("chr", "str"):
            items = args[1].items if args[1].kind == "list" else ()
            return Val(kind="list", items=tuple(char(i) if args[0].ref == "chr" else i for i in items))
        if name in ("map", "filter") and len(node.args) >= 2:
            return self.each(node.args[0], args[1])
        if name in ("reversed",):
            return reverse(first) if first.text is not None else Val(kind="list", items=first.items[::-1])
        if name in ("list", "tuple", "sorted") and first.kind == "list":
            return first
        if name in _IDENTITY:
            return first if args else s("")
        if name in ("getattr",) and len(args) >= 2:
            attr = known(args[1])
            if attr is None:
                return Val(ref=_COMPUTED) if args[0].ref and not args[0].ref.startswith("def:") else UNK
            return self.attribute(args[0], attr)
        if name in ("__import__", "importlib.import_module", "importlib.__import__"):
            module = known(first)
            if module is None:  # importing runs the module's code
                fx.flag("python imports a module named at run time")
                return Val(ref=_COMPUTED)
            if name == "__import__" and len(args) < 4:  # `__import__("a.b")` is `a`, as Python gives it
                module = module.split(".", 1)[0]
            return Val(ref=_ALIASES.get(module, module))
        if name in ("globals", "locals", "vars") and not args:
            return Val(ref=name)
        # ---- code execution
        if name in _CODE_RUNNERS:
            return self.run_code(first, name)
        if name in _MODEL_LOADERS and first.tainted:
            # `torch.load(io.BytesIO(urlopen(URL).read()), weights_only=False)`: a pickle fetched, then loaded
            weights = kwargs.get("weights_only")  # (`weights_only=True`: tensors only, no object rebuilt)
            if weights is None or weights.ref != "True":
                fx.download_exec = True
            return UNK
        if name in _DESERIALISERS:
            if first.tainted:
                fx.download_exec = True
            data = known(first) if args and name != "marshal.loads" else None
            calls = _pickled_calls(data) if data is not None else None
            if calls is None:  # data Limen cannot see or read: whatever it calls is not known
                fx.flag(f"python {name} may run code in the data")
                return UNK
            for called, strings in calls:  # a pickle written out in the code: what it calls is known
                if called in _PICKLED_SHELLS:
                    for text in strings[:4]:
                        self.shell(s(text), f"{name} of {called}")
                elif called in _PICKLED_CODE:
                    for text in strings[:4]:
                        self.run_code(s(text), f"{name} of {called}")
                elif called not in _PICKLED_DATA:
                    fx.flag(f"python {name} calls {called} from its data")
            return UNK
        if name in _NATIVE or name.startswith("ctypes.cdll."):
            library = known(first) if args else None
            if name.startswith("ctypes.cdll.") and not name.endswith("LoadLibrary"):
                library = name[len("ctypes.cdll.") :]  # `ctypes.cdll.libc`: a system library by its name
            if args and (library is None or "/" in library):  # loading a library file runs its constructors
                fx.flag("python loads a native library from a file (code not analysed)")
            return Val(ref="libc")  # a native library: its calls are looked at below
        if name.startswith("libc.") and name not in _SHELL_LINE:
            fx.flag(f"python calls native code ({name[5:]})")
            return UNK
        if name in _DYNAMIC_CODE:
            fx.flag(f"python builds code at run time ({name})")
            return UNK
        if name in ("runpy.run_path", "execfile"):
            self.read(first, name)
            self.run_file(first, name)
            return UNK
        # ---- processes
        if name in _SHELL_LINE:
            self.shell(first, name)
            return Val(tainted=False, kind="process")
        if name in _SUBPROCESS or name == "asyncio.create_subprocess_exec" or name == "pty.spawn":
            if name == "asyncio.create_subprocess_exec":
                self.argv(Val(kind="list", items=tuple(args)), name)
            elif first.kind == "list" and not _truthy(kwargs.get("shell")):
                self.argv(first, name)
            elif first.kind == "list":
                self.shell(first.items[0] if first.items else UNK, name)
            else:
                self.shell(first, name)
            if "executable" in kwargs:
                self.argv(Val(kind="list", items=(kwargs["executable"],)), name)
            return Val(kind="process")
        if _EXEC_LIST.match(name):
            if "posix_spawn" in name:  # posix_spawn(path, argv, env)
                words = args[1].items[1:] if len(args) > 1 and args[1].kind == "list" else ()
                self.argv(Val(kind="list", items=(first, *words)), name)
                return UNK
            values = args[1:] if "spawn" in name else args
            if values and values[0].num is not None:
                values = values[1:]
            if not values:
                return UNK
            program, rest = values[0], values[1:]
            if "execv" in name or "spawnv" in name:
                rest_items = rest[0].items[1:] if rest and rest[0].kind == "list" else ()
            else:
                rest_items = tuple(rest[1:])
            self.argv(Val(kind="list", items=(program, *rest_items)), name)
            return UNK
        # ---- files
        if name in _DELETES:
            self.delete(first, _DELETES[name], name)
            return UNK
        if name in _MOVES and len(args) >= 2:
            fx.argvs.append((("mv", _path(args[0]), _path(args[1])), name))
            return UNK
        if name in _COPIES and len(args) >= 2:
            fx.argvs.append((("cp", "-r", _path(args[0]), _path(args[1])), name))
            return UNK
        if name in ("os.chmod", "os.lchmod") and len(args) >= 2:
            bits = f"{args[1].num:o}" if args[1].num is not None else UNKNOWN
            fx.argvs.append((("chmod", bits, _path(args[0])), name))
            return UNK
        if name in ("os.symlink", "os.link") and len(args) >= 2:
            fx.argvs.append((("ln", "-s", _path(args[0]), _path(args[1])), name))
            return UNK
        if name in _OPENERS:
            mode: str | None = known(args[1]) if len(args) > 1 else known(kwargs.get("mode", s("r")))
            if name == "os.fdopen":
                return Val(kind="file")
            if mode is None or set(mode) & set("wax+"):
                self.write(first, name)
            if mode is None or not set(mode) & set("wax") or "+" in mode:
                self.read(first, name)
            return Val(kind="file", text=None, tainted=first.tainted, path=known(first) or "")
        if name == "os.open":
            flags = ast.dump(node.args[1]) if len(node.args) > 1 else ""
            if any(f in flags for f in ("WRONLY", "RDWR", "CREAT", "TRUNC", "APPEND")):
                self.write(first, name)
            else:
                self.read(first, name)
            return UNK
        if name in _READS:
            self.read(first if args else s("."), name)
            if name in ("glob.glob", "glob.iglob"):
                return Val(kind="list", items=(first,))  # the pattern stands for its matches, as in a shell
            if name == "os.walk" and first.text is not None:
                # each step is (a folder at any depth below the root, its folders, its files): what a loop
                # over it touches is `ROOT/**/*`, as `find ROOT` reaches it
                every = Val(kind="list", items=(s("*"),))
                step = Val(kind="list", items=(concat(first, s("/**")), every, every))
                return Val(kind="list", items=(step,))
            return UNK
        if name in _WRITES:
            self.write(first, name)
            return UNK
        # ---- network
        if name in _URLOPEN:
            self.url(first, name, body=(len(args) > 1 and "urlretrieve" not in name) or "data" in kwargs)
            if len(args) > 1 and "urlretrieve" in name:
                self.write(args[1], name)
            return Val(kind="response", tainted=True)
        if name in ("urllib.request.Request", "urllib2.Request"):
            body = len(args) > 1 or "data" in kwargs
            return Val(text=text_of(first), kind="request_body" if body else "request")
        root, _, verb = name.rpartition(".")
        if root.split(".", 1)[0] in _HTTP and verb in _HTTP_VERBS:
            target = args[1] if verb in ("request", "stream", "urlopen") and len(args) > 1 else first
            if verb in ("request", "stream", "urlopen") and "url" in kwargs:
                target = kwargs["url"]
            body = verb in _SENDS_BODY or any(k in kwargs for k in ("data", "json", "files", "content"))
            self.url(target, name, body=body)
            return Val(kind="response", tainted=True)
        if root.split(".", 1)[0] in _HTTP and verb in ("Session", "Client", "AsyncClient", "ClientSession"):
            return Val(ref=root.split(".", 1)[0])
        if name in ("urllib3.PoolManager", "urllib3.HTTPConnectionPool", "urllib3.HTTPSConnectionPool"):
            if "ConnectionPool" in name:
                self.host(first, args[1] if len(args) > 1 else kwargs.get("port", UNK), name)
            return Val(ref="urllib3")
        if name in _CONNECTIONS:
            target = first if args else kwargs.get("host", UNK)
            self.host(target, args[1] if len(args) > 1 else kwargs.get("port", UNK), name)
            return Val(kind="connection")
        if name in _RESOLVERS:
            if not fx.lookup(text_of(first), name) and known(first) is None:
                fx.note(f"python {name} of a name computed at run time")
            return UNK
        if name in ("socket.socket", "socket.create_connection", "socket.socketpair", "socket.fromfd"):
            fx.socket = True
            if name == "socket.create_connection":
                self.host(first, UNK, name)
            return Val(kind="socket")
        if name in ("ssl.wrap_socket",):
            return first
        if name in ("pexpect.spawn", "pexpect.run"):
            self.shell(first, name)
            return Val(kind="connection")
        return Val(tainted=any(a.tainted for a in args)) if name.startswith("def:") or not name else UNK

    def method(self, receiver: Val, method: str, args: list[Val], kwargs: dict[str, Val]) -> Val | None:
        """A method on a value that is not a library name: paths, strings, sockets, responses."""
        fx = self.fx
        first = args[0] if args else UNK
        if receiver.kind == "path":
            if method in ("unlink", "rmdir"):
                self.delete(receiver, False, f"Path.{method}")
                return UNK
            if method in (
                "write_text",
                "write_bytes",
                "touch",
                "mkdir",
                "chmod",
                "symlink_to",
                "hardlink_to",
            ):
                if method == "chmod" and first.num is not None:
                    fx.argvs.append((("chmod", f"{first.num:o}", _path(receiver)), "Path.chmod"))
                else:
                    self.write(receiver, f"Path.{method}")
                    if method in ("write_text", "write_bytes"):
                        fx.wrote(_path(receiver), first)
                        written = _path(receiver)
                        root = written.partition("/**")[0] if "/**" in written else ""
                        if root and known(first) == "":  # every file under ROOT emptied, as find would
                            empty_all = ("find", root, "-type", "f", "-exec", "truncate", "-s0", "{}", "+")
                            fx.argvs.append((empty_all, ""))
                return UNK
            if method in ("rename", "replace"):
                fx.argvs.append((("mv", _path(receiver), _path(first)), f"Path.{method}"))
                return Val(kind="path", text=first.text)
            if method in ("iterdir", "glob", "rglob"):  # the pattern stands for its matches, as in a shell
                self.read(receiver, f"Path.{method}")
                pattern = {"iterdir": s("*"), "glob": first, "rglob": concat(s("**/"), first)}[method]
                return Val(kind="list", items=(join(receiver, pattern, kind="path"),))
            if method in ("read_text", "read_bytes", "stat", "exists", "is_file"):
                self.read(receiver, f"Path.{method}")
                if method in ("read_text", "read_bytes") and UNKNOWN not in _path(receiver):
                    return Val(text=UNKNOWN, kind="filedata", path=_path(receiver))
                return UNK
            if method == "open":
                mode = known(first) if args else known(kwargs.get("mode", s("r")))
                if mode is None or set(mode) & set("wax+"):
                    self.write(receiver, "Path.open")
                if mode is None or not set(mode) & set("wax") or "+" in mode:
                    self.read(receiver, "Path.open")
                return Val(kind="file")
            if method in ("joinpath",):
                return join(receiver, *args, kind="path")
            if method == "expanduser":
                return normalise(receiver, self.home)
            if method in ("resolve", "absolute", "with_name", "with_suffix"):
                return receiver if method in ("resolve", "absolute") else Val(text=UNKNOWN, kind="path")
        if receiver.kind == "socket" and method == "accept":
            return Val(kind="list", items=(Val(kind="socket"), UNK))
        if receiver.kind == "socket" and method in ("recv", "recvfrom", "recv_into", "makefile", "read"):
            return TAINTED  # data from the network
        if method in ("connect", "connect_ex", "sendto") and (args or kwargs):
            target = args[-1] if method == "sendto" and args else first
            if method == "connect" and receiver.kind != "socket" and "hostname" in kwargs:
                target = kwargs["hostname"]  # paramiko
            elif target.kind != "list" and receiver.kind != "socket":
                return UNK
            fx.socket = fx.socket or receiver.kind == "socket" or target.kind == "list"
            self.host(target, UNK, method)
            return UNK
        if receiver.kind == "filedata" and method == "replace" and len(args) == 2:
            return edited(receiver, "str", args[0], args[1])
        if receiver.text is not None:
            text = receiver.text
            if method == "join" and first.kind == "list" and UNKNOWN not in text:
                return concat(*_interleave(text, first.items))
            if method == "format":
                return _format(receiver, args)
            if method == "replace" and len(args) >= 2 and known(first) is not None:
                return Val(text=text.replace(known(first) or "", text_of(args[1])), tainted=receiver.tainted)
            if method in _IDENTITY_METHODS:
                return receiver
            if method in ("split", "splitlines"):
                return Val(tainted=receiver.tainted)
        if receiver.kind == "file" and method in ("write", "writelines"):
            if receiver.path:
                fx.wrote(receiver.path, first if method == "write" else UNK)
            return UNK
        if receiver.kind == "file" and receiver.path and method in ("read", "readlines"):
            return Val(text=UNKNOWN, kind="filedata", path=receiver.path, tainted=receiver.tainted)
        if receiver.tainted or receiver.kind in ("response", "file", "process"):
            return Val(text=UNKNOWN, tainted=receiver.tainted or receiver.kind == "response")
        return None

    def orm_update(self, model: str, narrowed: bool, args: list[Val], kwargs: dict[str, Val]) -> None:
        """An ORM's bulk update (`User.objects.filter(...).update(is_superuser=True)`, SQLAlchemy's
        `query.update({"role": "admin"})`), given its evaluated arguments: noted as the `UPDATE` statement it
        runs, so the rules that judge SQL (an account's admin flag set) judge it as they judge `psql -c`."""
        pairs = [(key, _plain(value)) for key, value in kwargs.items()]
        if args and args[0].kind == "dict":
            pairs += [(key, _plain(value)) for key, value in zip(args[0].keys, args[0].items, strict=False)]
        settings = [f"{key} = {_sql_literal(value)}" for key, value in pairs if value is not None]
        if settings:  # (the rows a filter picks are not known here: some rows, not every row)
            where = " WHERE <filter>" if narrowed else ""
            self.fx.note(f"{SQL_NOTE}UPDATE {model} SET {', '.join(settings)}{where}")

    def remote(self, session: RemoteSession, name: str, args: list[Val], kwargs: dict[str, Val]) -> None:
        """A remote-session library's call (`facts.programs.RemoteSession`): one handed a host names the
        machine the session reaches; one of its `runs` methods runs its command there, as `ssh HOST LINE`
        would (lines pushed as a list are one line; a command not known here is unknown, never nothing)."""
        if name.rsplit(".", 1)[-1] not in session.runs:
            given = next((kwargs[k] for k in _HOST_KEYWORDS if k in kwargs), args[0] if args else UNK)
            host = known(given)
            if host and _HOST_NAME.fullmatch(host):
                self.remote_host = host
            return
        given = next((kwargs[k] for k in _COMMAND_KEYWORDS if k in kwargs), args[0] if args else UNK)
        lines = given.items if given.kind == "list" else (given,)
        command = "; ".join(text_of(line) for line in lines) or UNKNOWN
        self.fx.argvs.append((("ssh", self.remote_host or UNKNOWN, command), name))

    def remote_client(self, name: str, args: list[Val], kwargs: dict[str, Val]) -> None:
        """A library call that points a client at another machine (`ModbusTcpClient("10.10.4.21")`,
        `HttpClient(host="chroma.acme.cloud")`, `c.connect("10.10.4.10", 0, 1)`), or one whose name says it
        changes what the client talks to (`write_coils`, `plc_stop`, `reset`, `delete`)."""
        given = [args[0]] if args else []
        given += [v for k, v in kwargs.items() if k.lower() in _ADDRESS_KEYWORDS]
        for value in given:
            address = known(value)
            if address and len(self.addresses) < 8 and _remote_address(address):
                self.addresses.append(address)
        method = name.rsplit(".", 1)[-1]
        words = set(re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", method).lower().split("_"))
        if words & _CHANGING_WORDS and len(self.changes) < 8:
            self.changes.append(method)

    def remote_changes(self) -> None:
        """A program whose library client, pointed at another machine, is made to change it (`c.plc_stop()`,
        `client.reset()`, `c.write_coils(0, [False] * 64)`): what that machine runs or keeps is changed
        from here, as a destroying tool call changes it."""
        if self.addresses and self.changes:
            from limen.normalize.tools import DESTROYS_STORE

            self.fx.note(f"{DESTROYS_STORE}{self.changes[0]} on {self.addresses[0][:80]}")

    def service_call(self, name: str, args: list[Val], kwargs: dict[str, Val]) -> None:
        """A client library's call, judged as the MCP tool call it equals (`HfApi().delete_repo(r)` is a
        `delete_repo` tool; `update_repo_settings(r, private=False)` makes a repository public; see
        `normalize.tools.service_call_notes`); a file handed to a call that uploads or saves it is read."""
        from limen.normalize.tools import SENDS_FILES, service_call_notes, words_of

        arguments: dict[str, object] = {}
        for key, value in kwargs.items():
            plain = _plain(value)
            if plain is not None:
                arguments[key] = plain
        # named by its object and its method: `HfApi.delete_repo`, `artifact_collection.delete`
        for note in service_call_notes("_".join(name.split(".")[-2:]), arguments, name.split(".", 1)[0]):
            self.fx.note(note)
        pinned = _COMMIT.fullmatch(str(arguments.get("revision", ""))) is not None  # a reviewed commit's code
        if (
            arguments.get("trust_remote_code") is True and not pinned
        ):  # `from_pretrained(r, trust_remote_code=True)`
            self.fx.flag(f"python {name} runs the code a model repository ships (trust_remote_code)")
        if (
            name.rsplit(".", 1)[-1] == "load"
            and ".hub" in f".{name}"
            and arguments.get("source") != "local"
            and not _widely_used_repository(args[0].text if args else None)
        ):
            # `torch.hub.load("owner/repo", "model")`: the repository's `hubconf.py` runs here
            self.fx.flag(f"python {name} runs the code of a repository it downloads (hubconf.py)")
        if arguments.get("weights_only") is False and (
            name.endswith("_from_url") or any("://" in (v.text or "") for v in args)
        ):  # `load_state_dict_from_url(URL, weights_only=False)`: a pickle from the network, unpickled
            self.fx.flag(f"python {name} unpickles a file it downloads (weights_only=False)")
        if SENDS_FILES.search(words_of(name.rsplit(".", 1)[-1])):
            for value in (*args, *kwargs.values()):
                text = value.text
                named = text is not None and UNKNOWN not in text and _FILE_NAME.fullmatch(text) is not None
                if value.kind == "path" or named:  # `upload_file(expanduser("~/.ssh/id_rsa"))`,
                    self.read(value, name)  # `mlflow.log_artifact(".env")`

    # ----------------------------------------------------------------- effects

    def run_file(self, target: Val, api: str) -> None:
        """`exec(open(P).read())`, `runpy.run_path(P)`: the file as it is on disk, like a script."""
        path = known(target)
        self.fx.read_files = True
        text = read_source(path, self.cwd, self.home) if path else None
        if text is None:
            self.fx.flag(f"python {api} runs a file that cannot be read here")
            return
        analyse_into(
            self.fx, "python", text, cwd=self.cwd, home=self.home, script=path or "", level=self.level + 1
        )

    def run_code(self, code: Val, api: str) -> Val:
        text = known(code)
        if code.kind == "filedata" and not code.tainted:
            self.run_file(s(code.path), api)
        elif code.tainted:
            self.fx.download_exec = True
            self.fx.flag(f"python {api} runs downloaded code")
        elif text is not None:
            analyse_into(
                self.fx,
                "python",
                text,
                cwd=self.cwd,
                home=self.home,
                script=self.script,
                level=self.level + 1,
            )
        else:
            self.fx.flag(f"python {api} runs code built at run time")
        return UNK

    def handed_commands(self, args: list[Val], kwargs: dict[str, Val], api: str) -> None:
        for words in handed_commands([*args[:8], *list(kwargs.values())[:8]]):  # (`values.handed_commands`)
            self.argv(words, api or "a call")

    def shell(self, line: Val, api: str) -> None:
        if line.tainted:
            self.fx.download_exec = True
        if line.kind == "list":
            self.argv(line, api)
            return
        self.fx.shell.append((text_of(line), api))

    def argv(self, words: Val, api: str) -> None:
        if runs_tainted(words):
            self.fx.download_exec = True
        argv = tuple(text_of(w) if w.kind != "list" else UNKNOWN for w in words.items)
        if argv:
            self.fx.argvs.append((argv, ""))
        else:
            self.fx.flag(f"python {api} runs a command built at run time")

    def delete(self, target: Val, recursive: bool, api: str) -> None:
        # a list of paths (send2trash's, R's vectorised `file.remove(files)` translated): each one deleted
        items = target.items[:MAX_LOOP] if target.kind == "list" and target.items else (target,)
        for item in items:
            self.fx.deletes.append((_path(item), recursive, api))

    def write(self, target: Val, api: str) -> None:
        if target.kind not in ("file",) and target.num is None:
            self.fx.writes.append(_path(target))

    def read(self, target: Val, api: str) -> None:
        if target.kind not in ("file",) and target.num is None:
            self.fx.reads.append(_path(target))

    def url(self, target: Val, api: str, body: bool = False) -> None:
        if target.kind in ("request", "request_body"):
            body = body or target.kind == "request_body"
            target = Val(text=target.text)
        text = text_of(target)
        host = (
            text.split("://", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1].split(":", 1)[0]
            if "://" in text
            else ""
        )
        if "://" in text and UNKNOWN not in host:
            self.fx.urls.append((text, api))
            if body or UNKNOWN in text:  # a body, or data computed into the path or query, leaves with it
                self.fx.sent(text, api)
        elif host and self.fx.lookup(host, api):
            pass  # `https://{data}.evil.example/`: data in the name the request resolves
        elif body:
            self.fx.flag(f"python {api} sends data to a destination computed at run time")
        else:
            self.fx.note(f"python {api} to a destination computed at run time")

    def host(self, target: Val, port: Val, api: str) -> None:
        found = host_port(target)
        if found is None:
            self.fx.note(f"python {api} to a destination computed at run time")
            return
        host, found_port = found
        self.fx.hosts.append((host, found_port if found_port is not None else port.num, api))


_EXPR: dict[type, Callable[[_Py, Any], Val]] = {
    ast.Call: _Py.call,
    ast.Name: _Py._name,
    ast.Attribute: _Py._attribute,
    ast.Constant: _Py._constant,
    ast.JoinedStr: _Py._joined,
    ast.FormattedValue: _Py._formatted,
    ast.Subscript: _Py._subscript,
    ast.BinOp: _Py._binop,
    ast.UnaryOp: _Py._unary,
    ast.List: _Py._sequence,
    ast.Tuple: _Py._sequence,
    ast.Set: _Py._sequence,
    ast.Dict: _Py._dict,
    ast.ListComp: _Py._comprehension,
    ast.GeneratorExp: _Py._comprehension,
    ast.SetComp: _Py._comprehension,
    ast.DictComp: _Py._dictcomp,
    ast.Await: _Py._await,
    ast.Starred: _Py._await,
    ast.NamedExpr: _Py._named,
    ast.IfExp: _Py._ifexp,
    ast.Lambda: _Py._lambda,
}


_RESOLVERS = frozenset(
    {
        *("socket.gethostbyname", "socket.gethostbyname_ex", "socket.getaddrinfo", "socket.getfqdn"),
        *("dns.resolver.resolve", "dns.resolver.query", "dns.resolver.Resolver.resolve"),
    }
)
# Every name `_Py.call` looks at (the rest are passed by quickly), and the prefixes it tests.
_HANDLED = frozenset(
    {
        *_SHELL_LINE,
        *_SUBPROCESS,
        *_DELETES,
        *_MOVES,
        *_COPIES,
        *_READS,
        *_WRITES,
        *_OPENERS,
        *_URLOPEN,
        *_CONNECTIONS,
        *_CODE_RUNNERS,
        *_DESERIALISERS,
        *_MODEL_LOADERS,
        *_DYNAMIC_CODE,
        *_DECODERS,
        *_IDENTITY,
        *_NATIVE,
        *_RESOLVERS,
        *_PATH_CLASSES,
        *(f"{c}.{m}" for c in _PATH_CLASSES for m in ("home", "cwd")),
        *("__import__", "asyncio.create_subprocess_exec", "chr", "codecs.decode", "getattr", "globals"),
        *("importlib.__import__", "importlib.import_module", "list", "locals", "map", "os.chmod"),
        *("os.environ.get", "os.fdopen", "os.getcwd", "os.getcwdb", "os.getenv", "os.getenvb", "os.lchmod"),
        *(
            "os.link",
            "os.open",
            "os.path.dirname",
            "os.path.expanduser",
            "os.path.expandvars",
            "os.path.join",
        ),
        *("os.symlink", "pathlib.Path.joinpath", "pexpect.run", "pexpect.spawn", "posixpath.dirname"),
        *("posixpath.expanduser", "posixpath.join", "pty.spawn", "reversed", "runpy.run_path"),
        *("socket.create_connection", "socket.fromfd", "socket.socket", "socket.socketpair", "sorted"),
        *("site.getsitepackages", "site.getusersitepackages"),
        *("ssl.wrap_socket", "tuple", "unichr", "urllib.request.Request", "urllib2.Request"),
        *("urllib3.HTTPConnectionPool", "urllib3.HTTPSConnectionPool", "urllib3.PoolManager", "vars"),
    }
)
_PREFIXES = ("pexpect.", "ctypes.cdll.", "libc.")


# The name a web handler gives the request it serves, and the attributes that hold what the client sent
# (Flask, Django, Starlette/FastAPI, Bottle, aiohttp)
_REQUEST_NAMES = frozenset({"request", "req"})
_REQUEST_INPUTS = frozenset(
    {"args", "form", "values", "json", "data", "files", "cookies", "headers", "GET", "POST", "FILES"}
    | {"COOKIES", "META", "body", "query_params", "path_params", "get_json", "get_data", "query"}
    | {"match_info"}
)
# Web frameworks' request objects: every attribute (`args`, `form`, `json`, `headers`) is what the client sent
_REQUEST_OBJECTS = frozenset({"flask.request", "bottle.request", "quart.request", "sanic.request"})


def _item(collection: Val) -> Val:
    """One item of a collection that is not a known list: an SDK's collection yields its resources (`for b
    in s3.buckets.all(): b.delete()`), anything else an unknown value carrying the collection's taint."""
    if collection.ref and cloud_sdk(collection.ref) is not None:
        return Val(ref=collection.ref)
    return Val(tainted=collection.tainted)


# Keyword arguments that name the machine a client talks to
_ADDRESS_KEYWORDS = frozenset(
    {"host", "hostname", "ip", "address", "addr", "url", "endpoint", "server", "uri", "base_url", "broker"}
)
# Words of a client's method that change the machine it talks to: its data written or deleted, its state
# reset, the process it runs stopped
_CHANGING_WORDS = frozenset(
    {"write", "delete", "remove", "reset", "stop", "halt", "wipe", "erase", "format", "drop"}
    | {"purge", "truncate", "shutdown", "reboot", "kill", "disable", "unlink", "destroy"}
)


def _remote_address(text: str) -> bool:
    """An address of another machine written out: an IP, a dotted host name or a URL's host, not this one's
    (`localhost`, `127.0.0.1`: `normalize.net`'s loopback) and not a file's or a module's name."""
    from limen.model import HostClass
    from limen.normalize import net

    host = text.split("://", 1)[1] if "://" in text else text
    host = re.split(r"[/?#]", host, maxsplit=1)[0].lower()
    host = host.rsplit(":", 1)[0] if host.count(":") == 1 else host.strip("[]")  # (a port; an IPv6 address)
    if not host or UNKNOWN in host:
        return False
    if "://" not in text and (
        not re.fullmatch(r"[a-z0-9-]+(?:\.[a-z0-9-]+)+", host)
        or re.search(r"\.(?:py|json|ya?ml|txt|csv|db|sqlite3?|toml|cfg|ini|log|md|html?|js|sh)$", host)
    ):
        return False
    found = net.host_destination(host)
    return found is not None and found.host_class is not HostClass.LOOPBACK


def _library_name(name: str) -> bool:
    """A name qualified by a module that is neither Python's own nor the program's (`huggingface_hub.HfApi`,
    `wandb.Api.runs`): a library whose calls act on some service."""
    root = name.split(".", 1)[0]
    return "." in name and not name.startswith("def:") and root not in _BUILTINS and root not in _STDLIB


_STDLIB = frozenset(__import__("sys").stdlib_module_names)


def _sql_literal(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def _plain(value: Val) -> object:
    """An argument as an MCP tool would receive it: its text, number or constant; None when not known."""
    if value.ref in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[value.ref]
    if value.num is not None:
        return value.num
    return value.text if value.text is not None and UNKNOWN not in value.text else None


def _handled_prefix(name: str) -> bool:
    return name.startswith(_PREFIXES) or name.split(".", 1)[0] in _HTTP or _EXEC_LIST.match(name) is not None


# How a remote-session library's calls name the machine, and the command they run there
_HOST_KEYWORDS = ("host", "hostname", "ip", "host_name", "server", "address")
_COMMAND_KEYWORDS = ("command", "cmd", "command_string", "config_commands", "commands", "config", "script")
_HOST_NAME = re.compile(r"[\w.-]*\.[\w.-]+|[\w.:-]*:[\w.:-]+|localhost")

_ENVIRONMENT = frozenset({"os.environ.copy", "os.environ.items", "os.environ.values", "os.environ.keys"})
_PATH_HOME = frozenset(f"{c}.home" for c in _PATH_CLASSES)
_PATH_CWD = frozenset(f"{c}.cwd" for c in _PATH_CLASSES)


def _decode(value: Val, codec_value: Val) -> Val:
    """`codecs.decode(x, 'rot13')`, `x.decode('base64')` (Python 2), `x.decode()`."""
    codec = (known(codec_value) or "").lower().replace("-", "_")
    if codec in ("rot13", "rot_13"):
        return rot13(value)
    if codec in ("base64", "base_64"):
        return b64decode(value)
    if codec == "hex":
        return hexdecode(value)
    return value


def _normal(name: str) -> str:
    if name.startswith("builtins."):
        return name[9:]
    head, _, rest = name.partition(".")
    if head in _ALIASES and rest:
        return f"{_ALIASES[head]}.{rest}"
    return name


def _path(value: Val) -> str:
    return text_of(value)


def _truthy(value: Val | None) -> bool:
    if value is None:
        return False
    return (
        value.ref == "True"
        or (value.num is not None and value.num != 0)
        or value.ref not in ("", "False", "None")
    )


def _interleave(separator: str, items: tuple[Val, ...]) -> list[Val]:
    out: list[Val] = []
    for i, item in enumerate(items):
        if i:
            out.append(s(separator))
        out.append(item)
    return out or [s("")]


_FIELD = re.compile(r"\{[^{}]*\}")


def _format(template: Val, args: list[Val]) -> Val:
    values = iter(args)
    text = _FIELD.sub(lambda m: text_of(next(values, UNK)).replace("\\", "\\\\"), template.text or "")
    return Val(text=text, tainted=template.tainted or any(a.tainted for a in args))


_PERCENT = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[sdrifx]")


def _percent(template: Val, values: Val) -> Val:
    items = iter(values.items if values.kind == "list" else (values,))
    text = _PERCENT.sub(lambda m: text_of(next(items, UNK)).replace("\\", "\\\\"), template.text or "")
    return Val(text=text, tainted=template.tainted or values.tainted)


def _arith(op: ast.operator, a: int, b: int) -> Val:
    try:
        if isinstance(op, ast.Add):
            return Val(num=a + b)
        if isinstance(op, ast.Sub):
            return Val(num=a - b)
        if isinstance(op, ast.Mult) and abs(a * b) < 1 << 64:
            return Val(num=a * b)
        if isinstance(op, ast.BitXor):
            return Val(num=a ^ b)
    except (OverflowError, ValueError):
        pass
    return UNK


def _user_site(home: str) -> str:
    """The user's site-packages folder for this machine's Python, under `home` (what `site` would say)."""
    import sys

    return f"{home}/.local/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"


def _system_site() -> str:
    """The first site-packages folder of the interpreter Limen runs on."""
    import site

    found = site.getsitepackages()
    return found[0] if found else ""
