"""The proxy's own settings file, `LIMEN_HOME/proxy.yaml` (optional):

    pass_through:          # hosts whose TLS is not intercepted (clients that pin certificates);
      - "*.pinned.example" # decided on the destination alone, and the audit says so
    max_body: 786432       # bytes of a request body the detectors read (over it: decided on what was read)

A malformed file is refused with its path, line and key; the proxy does not start on it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from limen.home import limen_home
from limen.proxy.translate import DEFAULT_MAX_BODY, MAX_BODY_LIMIT

KEYS = ("pass_through", "max_body")


class ProxyConfigError(ValueError):
    pass


@dataclass(frozen=True)
class FileConfig:
    pass_through: tuple[str, ...] = ()
    max_body: int = DEFAULT_MAX_BODY


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
            found = FileConfig(tuple(i.value.strip().lower() for i in items), found.max_body)
        elif key == "max_body":
            if not (isinstance(value_node, yaml.ScalarNode) and value_node.tag.endswith(":int")):
                raise ProxyConfigError(f"{where}: a number of bytes")
            value = int(value_node.value)
            if not 1024 <= value <= MAX_BODY_LIMIT:
                raise ProxyConfigError(f"{where}: between 1024 and {MAX_BODY_LIMIT} bytes")
            found = FileConfig(found.pass_through, value)
        else:
            raise ProxyConfigError(f"{where}: unknown setting (known: {', '.join(KEYS)})")
    return found
