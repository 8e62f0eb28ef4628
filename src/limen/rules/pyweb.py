"""Python web code read with `ast`: what a request can make a handler do, and identities let through by name.

The regular-expression checks of `limen.rules.written` see one line at a time; these follow names. A route
handler's parameters (FastAPI's query, header and body values; a `request` object's `query_params`,
`headers`, `json()`, `args`, `form`, `GET`, `POST`) are what a stranger writes, and so is every name assigned
from them. Findings:

- a request's value reaching a process, `eval`/`exec`, or a deserialiser that builds code (`pickle.loads`);
- a route that hands out the server's environment (`dict(os.environ)`), every secret in it;
- a request's value compared with a fixed word, and a principal, a credential or an admin made for it;
- a check function that lets a hard-coded identity or key prefix through (`if key.startswith("live_"):
  return True`, `if principal.subject == "x@proton.me": return principal`).

A text that does not parse, or holds no route and no check function, gives nothing: the line checks still
run on it.
"""

from __future__ import annotations

import ast
import re

from limen.normalize.code.pytree import python_tree

# Decorators that make a function a route or a middleware: `@app.get`, `@router.post`, `@bp.route`,
# `@app.middleware("http")`, `@api_view([...])`
_ROUTE_DECORATORS = frozenset(
    {"get", "post", "put", "patch", "delete", "head", "options", "route", "api_route", "websocket"}
    | {"middleware", "api_view", "before_request"}
)
# Parameters a framework fills from somewhere other than the request (a dependency, the app's own state)
_INJECTED = frozenset({"Depends", "Security"})
_REQUEST_OBJECTS = frozenset({"request", "req", "websocket"})
_REQUEST_TYPES = frozenset({"Request", "WebSocket", "HttpRequest", "HTTPConnection"})
_REQUEST_FIELDS = frozenset({"Header", "Query", "Cookie", "Body", "Form", "Path", "File"})
_REQUEST_PARTS = frozenset(
    {"query_params", "headers", "cookies", "path_params", "json", "form", "body", "args", "values"}
    | {"GET", "POST", "data", "files", "COOKIES", "META", "query_string", "get_json", "stream"}
)
# Calls that start a process, run code, or build objects from bytes (a remote-code gadget away)
_SINKS = frozenset(
    {"system", "popen", "run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput"}
    | {"eval", "exec", "compile", "loads", "load", "import_module", "__import__", "spawnl", "execv", "execvp"}
)
_SINK_OWNERS = frozenset(
    {"os", "subprocess", "pickle", "cPickle", "marshal", "dill", "shelve", "importlib", "yaml", "commands"}
)
_BUILTIN_SINKS = frozenset({"eval", "exec", "compile", "__import__"})
# What a branch hands out when it grants access
_GRANTS = re.compile(
    r"(?i)admin|principal|superuser|scope|role|is_staff|api[_-]?key|token|auth|login|session|user|permission"
)
# A function that decides access, and the values it must never compare with a fixed word to let one through
_CHECK_FUNCTION = re.compile(r"(?i)valid|verify|check|auth|require|permi|allow|access|guard|login|scope")
_IDENTITY = re.compile(
    r"(?i)subject|^sub$|email|^user(?:_?name|_?id)?$|login|key|token|password|secret|account|client"
)


def handler_flaws(source: str) -> list[str]:
    """What the web code in `source` lets a request do, one message per kind (empty when nothing)."""
    tree = python_tree(source)
    if tree is None:
        return []
    found: dict[str, None] = {}
    for node, names in _functions(tree):
        if _is_route(node) or _takes_request(node):
            for why in _route_flaws(node):
                found[why] = None
        if any(_CHECK_FUNCTION.search(n) for n in names) and _lets_literal_through(node):
            found["a hard-coded identity or key is let through a check"] = None
    return list(found)


def _functions(tree: ast.AST) -> list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, tuple[str, ...]]]:
    """Every function with its name and the names of the functions it is nested in (`require_scope._dep`)."""
    found: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, tuple[str, ...]]] = []
    pending: list[tuple[ast.AST, tuple[str, ...]]] = [(tree, ())]
    while pending:
        node, names = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                found.append((child, (*names, child.name)))
                pending.append((child, (*names, child.name)))
            else:
                pending.append((child, names))
    return found


def _takes_request(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A dependency or helper that a framework hands request values (`x: str = Header(...)`, `Query(...)`)."""
    arguments = function.args
    return any(
        isinstance(d, ast.Call) and _called_name(d) in _REQUEST_FIELDS
        for d in [*arguments.defaults, *arguments.kw_defaults]
        if d is not None
    )


def _is_route(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in _ROUTE_DECORATORS:
            return True
    return False


def _request_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The parameters a request fills: all of them but dependencies and `self`; a request object itself
    (`request: Request`) is not a value, only the parts of it named in `_REQUEST_PARTS` are."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
    defaults += list(arguments.defaults)
    pairs = [
        *zip(positional, defaults, strict=True),
        *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True),
    ]
    names = set()
    for argument, default in pairs:
        if argument.arg in ("self", "cls", "call_next"):
            continue
        if isinstance(default, ast.Call) and _called_name(default) in _INJECTED:
            continue
        annotation = ast.unparse(argument.annotation) if argument.annotation is not None else ""
        if annotation.rsplit(".", 1)[-1] in _REQUEST_TYPES or (
            not annotation and argument.arg in _REQUEST_OBJECTS
        ):
            continue  # the request object: its parts are read by `_reads_request`
        names.add(argument.arg)
    return names


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _reads_request(expression: ast.AST, tainted: set[str]) -> bool:
    """The expression holds a request's value: a tainted name, or a part of a request object."""
    for node in ast.walk(expression):
        if isinstance(node, ast.Name) and node.id in tainted:
            return True
        if (
            isinstance(node, ast.Attribute)
            and node.attr in _REQUEST_PARTS
            and isinstance(node.value, ast.Name)
            and node.value.id in _REQUEST_OBJECTS | tainted
        ):
            return True
    return False


def _route_flaws(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    tainted = _request_names(function)
    flaws: list[str] = []
    for node in _in_order(function):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and node.value is not None:
            if _reads_request(node.value, tainted):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                tainted.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Call) and _is_sink(node) and not _operands_of_fixed_program(node):
            if any(_reads_request(a, tainted) for a in [*node.args, *(k.value for k in node.keywords)]):
                flaws.append("what a web request carries is run as a command or loaded as code")
        elif isinstance(node, ast.Return | ast.Dict) and _holds_environment(node):
            flaws.append("a web endpoint hands out the server's environment or secrets")
        elif isinstance(node, ast.If) and _fixed_word_test(node.test, tainted) and _grants(node.body):
            flaws.append("a request carrying a fixed word is given access")
    return flaws


def _in_order(function: ast.AST) -> list[ast.stmt | ast.expr]:
    """The function's nodes in source order (assignments before the calls that use them)."""
    nodes: list[ast.stmt | ast.expr] = [n for n in ast.walk(function) if isinstance(n, ast.stmt | ast.expr)]
    return sorted(nodes, key=lambda n: (n.lineno, n.col_offset))


def _operands_of_fixed_program(call: ast.Call) -> bool:
    """A process started from an argument list whose program is written in the code, one that reads its
    operands as data, without a shell (`subprocess.run(["ogr2ogr", "-f", fmt, out, src])`): what the request
    carries is an operand, never a command. A shell, an interpreter or a program that runs one of its
    arguments (`["sh", "-c", cmd]`, `["git", ...]`, `["ssh", host, cmd]`) runs it."""
    from limen.facts.programs import runs_arguments

    argv = call.args[0] if call.args else None
    shell = any(
        k.arg == "shell" and not (isinstance(k.value, ast.Constant) and not k.value.value)
        for k in call.keywords
    )
    if shell or not isinstance(argv, ast.List | ast.Tuple) or not argv.elts:
        return False
    program = argv.elts[0]
    if not (isinstance(program, ast.Constant) and isinstance(program.value, str)):
        return False
    return not runs_arguments(program.value.rsplit("/", 1)[-1])


def _is_sink(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in _BUILTIN_SINKS
    if isinstance(func, ast.Attribute) and func.attr in _SINKS:
        owner = func.value
        name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
        if name == "yaml" and any(
            k.arg == "Loader" and "Safe" in ast.unparse(k.value) for k in call.keywords
        ):
            return False
        return name in _SINK_OWNERS
    return False


def _holds_environment(node: ast.AST) -> bool:
    """A value handed back holding the whole environment (`dict(os.environ)`; one variable read from it is
    no secret handed out) or a setting named for a secret (`settings.api_keys`)."""
    if _WHOLE_ENVIRONMENT.search(ast.unparse(node)):
        return True
    return any(
        isinstance(n, ast.Attribute)
        and _SECRET_SETTING.search(n.attr) is not None
        and _SETTINGS.search(ast.unparse(n.value)) is not None
        for n in ast.walk(node)
    )


_WHOLE_ENVIRONMENT = re.compile(r"(?<![\w.])os\.environ\b(?!\s*(?:\.get\(|\[|\.setdefault\())")
_SETTINGS = re.compile(r"(?i)settings|config|^conf$|^cfg$")  # `settings`, `get_settings()`, `app.config`
_SECRET_SETTING = re.compile(r"(?i)(?:api_?keys?|secret|password|token|private_key|credentials?)$")


def _fixed_word_test(test: ast.expr, tainted: set[str]) -> bool:
    """`x == "b7f1"`, `request.query_params.get("_su") == "1"`: a request's value against a literal."""
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and any(isinstance(op, ast.Eq | ast.Is) for op in node.ops):
            sides = [node.left, *node.comparators]
            if any(_is_text(s) for s in sides) and any(_reads_request(s, tainted) for s in sides):
                return True
    return False


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) >= 1


def _grants(body: list[ast.stmt]) -> bool:
    """The branch returns or sets something that carries access (a principal, a key, an admin)."""
    text = "\n".join(ast.unparse(s) for s in body)
    return bool(_GRANTS.search(text)) and any(
        isinstance(n, ast.Return | ast.Assign | ast.Call) for s in body for n in ast.walk(s)
    )


def _lets_literal_through(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A branch of a check function that compares an identity or key with a fixed word (`==`, `startswith`,
    `endswith`) and lets it through (returns True or the principal it was given)."""
    parameters = {a.arg for a in [*function.args.args, *function.args.kwonlyargs]}
    for node in ast.walk(function):
        if not isinstance(node, ast.If) or not _identity_literal(node.test):
            continue
        for statement in node.body:
            if isinstance(statement, ast.Return) and statement.value is not None:
                value = statement.value
                if isinstance(value, ast.Constant) and value.value is True:
                    return True
                if isinstance(value, ast.Name) and value.id in parameters:
                    return True
    return False


def _identity_literal(test: ast.expr) -> bool:
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and any(isinstance(op, ast.Eq) for op in node.ops):
            sides = [node.left, *node.comparators]
            literal = any(
                _is_text(s) and len(str(s.value)) >= 4 for s in sides if isinstance(s, ast.Constant)
            )
            if literal and any(
                _IDENTITY.search(_last_name(s)) for s in sides if not isinstance(s, ast.Constant)
            ):
                return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("startswith", "endswith")
            and node.args
            and _is_text(node.args[0])
            and _IDENTITY.search(_last_name(node.func.value))
        ):
            return True
    return False


def _last_name(node: ast.expr) -> str:
    """The name a value is read by: `principal.subject` is `subject`; `user.role` is a role, no identity."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
    ):
        first = node.args[0]
        return str(first.value) if isinstance(first, ast.Constant) else ""
    return node.id if isinstance(node, ast.Name) else ""
