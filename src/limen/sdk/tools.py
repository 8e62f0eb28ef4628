"""A registered tool: its capability and argument roles (from the application), and the validation its
arguments pass before any policy sees them.

The model controls only a tool's name and arguments. What the tool can do (its capability) and which of its
parameters are paths, URLs, commands, recipients or payloads are declared by the application when it
registers the tool; parameters it does not map are given roles by name, as Limen does for any unknown
tool (`limen.normalize.tools.classify`), and `params={"name": None}` says a parameter plays none.

Validation (`Tool.validate`): the arguments must be a JSON object within a size limit that fits the
function's signature under pydantic's strict mode (no "5" for an int, no unknown or missing parameter);
path arguments are made absolute against the application's working directory (the tool receives the same
absolute path the decision judged), URLs must name a host, commands must parse. Anything else is a
`Problem`, which the guard turns into a BLOCK (`invalid_arguments`), never an exception from the tool.
"""

from __future__ import annotations

import datetime
import enum
import inspect
import json
import os
import re
import shlex
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any
from urllib.parse import urlsplit

import pydantic

from limen.model import Capability
from limen.normalize.tools import KNOWN_TOOLS, ToolSpec, classify

ROLES = ("path", "url", "command", "recipient", "payload")
_ROLE_ALIASES = {"content": "payload", "argv": "command", "cmd": "command", "to": "recipient"}
_CAPABILITY = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")
_WRITING = frozenset({Capability.FILESYSTEM_WRITE.value, Capability.FILESYSTEM_DELETE.value})
DEFAULT_MAX_ARGUMENT_BYTES = 256 * 1024
VERIFY_MODES = (None, "paths", "workspace")


class Problem(ValueError):
    """Why a call's arguments were refused, in words that carry no argument value."""


@dataclass(slots=True)
class Tool:
    name: str
    fn: Callable[..., Any]
    capability: str
    spec: ToolSpec | None  # None: Limen classifies each call by its name and values (an MCP tool)
    roles: dict[str, str]
    model: type[pydantic.BaseModel] | None  # None: a tool described by a JSON schema (`schema_tool`)
    description: str
    is_async: bool
    verify: str | None = None
    max_argument_bytes: int = DEFAULT_MAX_ARGUMENT_BYTES
    path_types: dict[str, bool] = field(default_factory=dict)  # parameter -> expects a PurePath
    schema: dict[str, Any] | None = None  # the parameters' JSON schema, when the tool came with one
    check: Callable[[dict[str, Any]], list[str]] | None = None  # a schema tool's validator: its problems
    render: Callable[[Any], str] | None = None  # the output as text for the output scan

    @property
    def writes(self) -> bool:
        return self.capability in _WRITING

    def json_schema(self) -> dict[str, Any]:
        """The parameters' JSON schema, for frameworks that show the model a tool."""
        if self.model is None:
            return dict(self.schema or {"type": "object", "properties": {}})
        schema = self.model.model_json_schema()
        schema.pop("title", None)
        return schema

    def validate(self, arguments: object, cwd: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """(the keyword arguments the tool is called with, their JSON form the decision judges).
        Raises `Problem`."""
        if not isinstance(arguments, Mapping):
            raise Problem("the arguments are not an object")
        try:
            blob = json.dumps(dict(arguments), ensure_ascii=False, allow_nan=False, default=_json_form)
        except (TypeError, ValueError) as exc:
            raise Problem(f"the arguments are not JSON ({type(exc).__name__})") from None
        if len(blob.encode()) > self.max_argument_bytes:
            raise Problem(f"the arguments exceed {self.max_argument_bytes} bytes")
        if self.model is None:
            call = json.loads(blob)
            problems = self.check(call) if self.check is not None else []
            if problems:
                raise Problem("; ".join(problems[:5]))
            judged = json.loads(blob)
        else:
            try:
                validated = self.model.model_validate_json(blob, strict=True)
            except pydantic.ValidationError as exc:
                raise Problem(_describe(exc)) from None
            call = {name: getattr(validated, name) for name in type(validated).model_fields}
            judged = validated.model_dump(mode="json")
        for name, role in self.roles.items():
            value = call.get(name)
            if value is None:
                continue
            if role == "path":
                call[name], judged[name] = _absolute_paths(name, value, cwd, self.path_types.get(name, False))
            elif role == "url":
                _check_urls(name, value)
            elif role == "command":
                _check_command(name, value)
        return call, judged


def make_tool(
    fn: Callable[..., Any],
    *,
    capability: str | None = None,
    name: str | None = None,
    params: Mapping[str, str | None] | None = None,
    description: str | None = None,
    verify: str | None = None,
    max_argument_bytes: int = DEFAULT_MAX_ARGUMENT_BYTES,
) -> Tool:
    """Read a function's signature into a `Tool`. Raises ValueError for a registration the guard cannot
    enforce (this is the application's code, so it fails loudly, at start-up). Without `capability` and
    `params`, what a controlled executor's method declares (`limen.sdk.executors.declares`) applies."""
    if capability is None:
        capability = getattr(fn, "limen_capability", None)
    if params is None:
        params = getattr(fn, "limen_params", None)
    if not isinstance(capability, str) or not _CAPABILITY.match(capability):
        raise ValueError(f"capability must look like 'filesystem.read' or 'db.query', not {capability!r}")
    if verify not in VERIFY_MODES:
        raise ValueError(f"verify must be one of {VERIFY_MODES}, not {verify!r}")
    tool_name = name or getattr(fn, "__name__", "")
    if not tool_name or not isinstance(tool_name, str):
        raise ValueError("a tool needs a name")
    signature = inspect.signature(fn)
    try:
        hints = typing.get_type_hints(fn)
    except Exception as exc:  # a name only the function's enclosing scope knows, under postponed annotations
        raise ValueError(
            f"{tool_name}: its annotations cannot be resolved ({type(exc).__name__}: {exc})"
        ) from None
    fields: dict[str, Any] = {}
    path_types: dict[str, bool] = {}
    for parameter in signature.parameters.values():
        if parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            raise ValueError(f"{tool_name}: *args and **kwargs cannot be validated; name every parameter")
        if parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
            raise ValueError(f"{tool_name}: positional-only parameters cannot take named arguments")
        annotation = hints.get(parameter.name, Any)
        default = ... if parameter.default is inspect.Parameter.empty else parameter.default
        fields[parameter.name] = (annotation, default)
        path_types[parameter.name] = _expects_path(annotation)
    model = pydantic.create_model(
        f"{tool_name}_arguments",
        __config__=pydantic.ConfigDict(extra="forbid", strict=True, arbitrary_types_allowed=False),
        **fields,
    )
    roles = _roles(tool_name, capability, list(fields), params or {})
    return Tool(
        name=tool_name,
        fn=fn,
        capability=capability,
        spec=_spec(capability, roles),
        roles=roles,
        model=model,
        description=description or inspect.getdoc(fn) or tool_name,
        is_async=inspect.iscoroutinefunction(fn),
        verify=verify,
        max_argument_bytes=max_argument_bytes,
        path_types={k: v for k, v in path_types.items() if roles.get(k) == "path"},
    )


def schema_tool(
    name: str,
    schema: Mapping[str, Any],
    fn: Callable[..., Any],
    *,
    capability: str,
    check: Callable[[dict[str, Any]], list[str]],
    params: Mapping[str, str | None] | None = None,
    description: str = "",
    render: Callable[[Any], str] | None = None,
    max_argument_bytes: int = DEFAULT_MAX_ARGUMENT_BYTES,
) -> Tool:
    """A tool described by a JSON schema instead of a Python signature (an MCP server's tool): `check`
    returns the schema's problems with the arguments (no values), `fn(**arguments)` runs it."""
    if not _CAPABILITY.match(capability):
        raise ValueError(f"capability must look like 'filesystem.read' or 'db.query', not {capability!r}")
    properties = schema.get("properties")
    names = [str(key) for key in properties] if isinstance(properties, Mapping) else []
    roles = _roles(name, capability, names, params or {}, require_command=False)
    return Tool(
        name=name,
        fn=fn,
        capability=capability,
        spec=_spec(capability, roles),
        roles=roles,
        model=None,
        description=description or name,
        is_async=inspect.iscoroutinefunction(fn),
        max_argument_bytes=max_argument_bytes,
        schema=dict(schema),
        check=check,
        render=render,
    )


def _roles(
    tool: str,
    capability: str,
    names: list[str],
    declared: Mapping[str, str | None],
    *,
    require_command: bool = True,
) -> dict[str, str]:
    """Explicit roles first; every other parameter gets the role its name implies for this capability."""
    unknown = set(declared) - set(names)
    if unknown:
        raise ValueError(f"{tool}: params names parameters the function does not have: {sorted(unknown)}")
    roles: dict[str, str] = {}
    base = KNOWN_TOOLS.get(capability)
    inferred = classify(tool, dict.fromkeys(names, ""))
    for name in names:
        if name in declared:
            role = declared[name]
            if role is None:
                continue
            role = _ROLE_ALIASES.get(role, role)
            if role not in ROLES:
                raise ValueError(f"{tool}: role of {name!r} must be one of {ROLES} or None, not {role!r}")
            roles[name] = role
            continue
        for spec in (base, inferred):
            if spec is None:
                continue
            role = _role_in(spec, name)
            if role:
                roles[name] = role
                break
    if require_command and capability == Capability.SHELL_EXECUTE.value and "command" not in roles.values():
        raise ValueError(f"{tool}: a shell.execute tool needs a parameter with the role 'command'")
    return roles


def _role_in(spec: ToolSpec, name: str) -> str:
    for role, keys in (
        ("path", spec.paths),
        ("url", spec.urls),
        ("command", spec.commands),
        ("recipient", spec.recipients),
        ("payload", spec.payloads),
    ):
        if name in keys:
            return role
    return ""


def _spec(capability: str, roles: dict[str, str]) -> ToolSpec:
    def having(role: str) -> tuple[str, ...]:
        return tuple(name for name, r in roles.items() if r == role)

    return ToolSpec(
        capability,
        paths=having("path"),
        commands=having("command"),
        urls=having("url"),
        payloads=having("payload"),
        recipients=having("recipient"),
        write=capability in _WRITING,
    )


def _expects_path(annotation: Any) -> bool:
    candidates = typing.get_args(annotation) or (annotation,)
    return any(isinstance(c, type) and issubclass(c, PurePath) for c in candidates)


def _absolute_paths(name: str, value: Any, cwd: str, as_path: bool) -> tuple[Any, Any]:
    """(value for the tool, value for the decision): every path made absolute against `cwd`."""
    if isinstance(value, (str, PurePath)):
        absolute = _absolute(name, str(value), cwd)
        return (type(value)(absolute) if as_path or isinstance(value, PurePath) else absolute), absolute
    if isinstance(value, (list, tuple)) and all(isinstance(v, (str, PurePath)) for v in value):
        pairs = [_absolute_paths(name, v, cwd, as_path) for v in value]
        return type(value)(p[0] for p in pairs), [p[1] for p in pairs]
    raise Problem(f"{name!r} is a path argument but is not a string or a list of them")


def _absolute(name: str, path: str, cwd: str) -> str:
    if not path or "\x00" in path:
        raise Problem(f"{name!r} is an empty path or holds a NUL byte")
    if path.startswith("~"):
        path = os.path.expanduser(path)
    return os.path.normpath(os.path.join(cwd, path))


def _check_urls(name: str, value: Any) -> None:
    for url in value if isinstance(value, (list, tuple)) else [value]:
        if not isinstance(url, str):
            raise Problem(f"{name!r} is a URL argument but is not a string")
        try:
            parts = urlsplit(url.strip())
            host = parts.hostname
            parts.port  # noqa: B018  (raises on a port that is not a number)
        except ValueError:
            raise Problem(f"{name!r} is not a URL") from None
        if not parts.scheme or not host:
            raise Problem(f"{name!r} is not a URL with a scheme and a host")


def _check_command(name: str, value: Any) -> None:
    if isinstance(value, str):
        try:
            words = shlex.split(value)
        except ValueError:
            raise Problem(f"{name!r} is a command that does not parse (an unclosed quote)") from None
    elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        words = list(value)
    else:
        raise Problem(f"{name!r} is a command argument but is not a string or a list of strings")
    if not words or not words[0]:
        raise Problem(f"{name!r} is an empty command")


def _json_form(value: object) -> object:
    """What application code passes that a model would have sent as JSON: a path, a date, an enum member."""
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _describe(exc: pydantic.ValidationError) -> str:
    """pydantic's errors without the input values: which parameter, which kind of problem."""
    parts = []
    for error in exc.errors(include_input=False, include_url=False)[:5]:
        where = ".".join(str(p) for p in error.get("loc", ())) or "arguments"
        parts.append(f"{where}: {error.get('type', 'invalid')}")
    more = exc.error_count() - len(parts)
    return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")
