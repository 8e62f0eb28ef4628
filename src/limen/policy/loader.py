"""Reading policy files: YAML with line numbers, validated by the schema, three levels deep.

Levels, highest first: organisation (`$LIMEN_ORG_POLICY` or `/etc/limen/policy.yaml`), user
(`~/.limen/policy.yaml`), project (`<workspace>/limen.yaml`). The YAML node tree is composed first so
every error can name the line of the key it is about.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import yaml
from pydantic import ValidationError

from limen.policy.errors import PolicyError, Problem, dotted
from limen.policy.paths import policy_paths
from limen.policy.schema import PolicyFile

Path = tuple[str | int, ...]
LEVELS = ("org", "user", "project")


@dataclass(slots=True, frozen=True)
class Source:
    """One policy file as read: its level, its path, the validated model and where each key sits."""

    level: str
    path: str
    policy: PolicyFile
    lines: dict[Path, int]

    def line(self, path: Path) -> int:
        """The line of the longest prefix of `path` that exists in the file."""
        for end in range(len(path), -1, -1):
            if path[:end] in self.lines:
                return self.lines[path[:end]]
        return 1


def _walk(
    node: yaml.Node,
    path: Path,
    lines: dict[Path, int],
    problems: list[Problem],
    file: str,
    seen_nodes: set[int],
) -> None:
    """Record the line of every key path; refuse duplicate keys and aliases (a shared or recursive node)."""
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
        if id(node) in seen_nodes:
            problems.append(
                Problem(
                    "error",
                    file,
                    lines.get(path, node.start_mark.line + 1),
                    dotted(path),
                    "YAML anchors and aliases are not supported in policy files",
                )
            )
            return
        seen_nodes.add(id(node))
    if isinstance(node, yaml.MappingNode):
        keys: set[str] = set()
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.tag)
            child = (*path, key)
            line = key_node.start_mark.line + 1
            if key in keys:
                problems.append(Problem("error", file, line, dotted(child), "duplicate key"))
            keys.add(key)
            lines[child] = line
            _walk(value_node, child, lines, problems, file, seen_nodes)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines[(*path, index)] = item.start_mark.line + 1
            _walk(item, (*path, index), lines, problems, file, seen_nodes)


def parse_yaml(text: str, file: str) -> tuple[Any, dict[Path, int], list[Problem]]:
    """The data, the line of every key path, and any YAML-level problems (syntax, duplicate keys)."""
    try:
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else {}
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else 0
        return None, {}, [Problem("error", file, line, "", f"not valid YAML: {exc.problem}")]
    except yaml.YAMLError as exc:
        return None, {}, [Problem("error", file, 0, "", f"not valid YAML: {type(exc).__name__}")]
    lines: dict[Path, int] = {(): 1}
    problems: list[Problem] = []
    if node is not None:
        _walk(node, (), lines, problems, file, set())
    if data is None:
        data = {}
    if not isinstance(data, dict):
        problems.append(Problem("error", file, 1, "", "the policy must be a mapping of keys"))
    return data, lines, problems


def _error_path(loc: tuple[str | int, ...], data: Any) -> Path:
    """Pydantic's location without the tagged-union tag (`chain.0.denylist.paths` -> `chain[0].paths`)."""
    path: list[str | int] = []
    node = data
    after_index = False
    for part in loc:
        if after_index and isinstance(node, dict) and node.get("layer") == part:
            after_index = False
            continue  # the discriminator tag pydantic inserts after a list index
        path.append(part)
        after_index = isinstance(node, list)
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            node = None
    return tuple(path)


def _message(error: Any) -> str:
    if error["type"] == "extra_forbidden":
        return "unknown key"
    if error["type"] == "missing":
        return "required key is missing"
    if error["type"] == "union_tag_invalid":
        return f"unknown layer {error['ctx']['tag']!r} (expected {error['ctx']['expected_tags']})"
    msg = str(error["msg"])
    return msg.removeprefix("Value error, ")


def validate(data: Any, lines: dict[Path, int], file: str, level: str) -> tuple[Source | None, list[Problem]]:
    """The schema-checked `Source`, or the problems, each with its line and dotted key."""
    try:
        policy = PolicyFile.model_validate(data)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            path = _error_path(tuple(error["loc"]), data)
            if error["type"] == "union_tag_invalid":
                path = (*path, "layer")
            probe = Source(level, file, PolicyFile(), lines)
            problems.append(Problem("error", file, probe.line(path), dotted(path), _message(error)))
        return None, problems
    return Source(level, file, policy, lines), []


def read_source(path: str, level: str) -> tuple[Source | None, list[Problem]]:
    """Read and validate one file (no semantic checks: see `limen.policy.semantics`)."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Problem("error", path, 0, "", f"cannot read the policy file ({type(exc).__name__})")]
    data, lines, problems = parse_yaml(text, path)
    if problems:
        return None, problems
    return validate(data, lines, path, level)


def read_levels(workspace: str) -> tuple[list[Source], list[Problem]]:
    """Every policy file that exists, highest level first, and all their problems (errors and warnings)."""
    from limen.policy.semantics import check_source

    sources: list[Source] = []
    problems: list[Problem] = []
    known: frozenset[str] = frozenset()
    for level, path, required in policy_paths(workspace):
        if not os.path.exists(path):
            if required:
                problems.append(
                    Problem("error", path, 0, "", "LIMEN_ORG_POLICY names a file that does not exist")
                )
            continue
        source, found = read_source(path, level)
        problems.extend(found)
        if source is not None:
            known |= set(source.policy.capabilities)
            problems.extend(check_source(source, known))
            sources.append(source)
    return sources, problems


def read_sources(workspace: str) -> list[Source]:
    """Every policy file that exists, highest level first. Raises `PolicyError` on any error."""
    sources, problems = read_levels(workspace)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise PolicyError(errors)
    return sources
