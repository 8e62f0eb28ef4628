"""The proxy's own settings file, `LIMEN_HOME/proxy.yaml` (optional):

    pass_through:          # hosts whose TLS is not intercepted (clients that pin certificates);
      - "*.pinned.example" # decided on the destination alone, and the audit says so
    max_body: 786432       # bytes of a request body the detectors read (over it: decided on what was read)
    inject:                # credentials the agent never holds: added to requests that Limen let through
      - host: api.example.com          # a host name or glob; HTTPS requests only
        header: Authorization
        value_env: EXAMPLE_API_KEY     # from the proxy's environment (`limen run` keeps it from the agent)
        format: "Bearer {}"            # optional

A malformed file is refused with its path, line and key; the proxy does not start on it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any

from limen.home import limen_home
from limen.proxy.translate import DEFAULT_MAX_BODY, MAX_BODY_LIMIT

KEYS = ("pass_through", "max_body", "inject")
INJECT_KEYS = ("host", "header", "value_env", "format")


class ProxyConfigError(ValueError):
    pass


@dataclass(frozen=True)
class Injection:
    """A header the proxy adds, after the decision, to HTTPS requests to `host` (the value never passes
    through the agent, its context or the decision's arguments)."""

    host: str
    header: str
    value_env: str
    format: str = "{}"

    def value(self) -> str | None:
        secret = os.environ.get(self.value_env)
        return self.format.replace("{}", secret) if secret else None


@dataclass(frozen=True)
class FileConfig:
    pass_through: tuple[str, ...] = ()
    max_body: int = DEFAULT_MAX_BODY
    inject: tuple[Injection, ...] = ()


def config_path(home: str | None = None) -> str:
    return os.path.join(home or limen_home(), "proxy.yaml")


def load(path: str | None = None) -> FileConfig:
    """The settings in `path` (default: LIMEN_HOME/proxy.yaml); defaults when it does not exist."""
    import yaml

    path = path or config_path()
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return FileConfig()
    try:
        root = yaml.compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        raise ProxyConfigError(f"{path}:{line}: not valid YAML") from None
    if root is None:
        return FileConfig()
    if not isinstance(root, yaml.MappingNode):
        raise ProxyConfigError(f"{path}:{root.start_mark.line + 1}: the file must be a mapping of settings")
    found = FileConfig()
    for key_node, value_node in root.value:
        key, line = str(key_node.value), value_node.start_mark.line + 1
        where = f"{path}:{line}: {key}"
        if key == "pass_through":
            items = value_node.value if isinstance(value_node, yaml.SequenceNode) else None
            if items is None or not all(
                isinstance(i, yaml.ScalarNode) and i.tag.endswith(":str") and i.value.strip() for i in items
            ):
                raise ProxyConfigError(f"{where}: a list of host names or globs")
            found = replace(found, pass_through=tuple(i.value.strip().lower() for i in items))
        elif key == "max_body":
            if not (isinstance(value_node, yaml.ScalarNode) and value_node.tag.endswith(":int")):
                raise ProxyConfigError(f"{where}: a number of bytes")
            value = int(value_node.value)
            if not 1024 <= value <= MAX_BODY_LIMIT:
                raise ProxyConfigError(f"{where}: between 1024 and {MAX_BODY_LIMIT} bytes")
            found = replace(found, max_body=value)
        elif key == "inject":
            found = replace(found, inject=_injections(value_node, path))
        else:
            raise ProxyConfigError(f"{where}: unknown setting (known: {', '.join(KEYS)})")
    return found


def _injections(node: Any, path: str) -> tuple[Injection, ...]:
    import yaml

    if not isinstance(node, yaml.SequenceNode):
        raise ProxyConfigError(f"{path}:{node.start_mark.line + 1}: inject: a list of host/header/value_env")
    found = []
    for item in node.value:
        line = item.start_mark.line + 1
        if not isinstance(item, yaml.MappingNode):
            raise ProxyConfigError(f"{path}:{line}: inject: each entry is a mapping")
        fields: dict[str, str] = {}
        for key_node, value_node in item.value:
            key = str(key_node.value)
            where = f"{path}:{value_node.start_mark.line + 1}: inject.{key}"
            if key not in INJECT_KEYS:
                raise ProxyConfigError(f"{where}: unknown setting (known: {', '.join(INJECT_KEYS)})")
            if not (isinstance(value_node, yaml.ScalarNode) and str(value_node.value).strip()):
                raise ProxyConfigError(f"{where}: a non-empty string")
            fields[key] = str(value_node.value).strip()
        missing = [k for k in ("host", "header", "value_env") if k not in fields]
        if missing:
            raise ProxyConfigError(f"{path}:{line}: inject: missing {', '.join(missing)}")
        if "format" in fields and "{}" not in fields["format"]:
            raise ProxyConfigError(f"{path}:{line}: inject.format: must hold {{}} where the value goes")
        found.append(
            Injection(
                fields["host"].lower(), fields["header"], fields["value_env"], fields.get("format", "{}")
            )
        )
    return tuple(found)
