"""Normalisation: whatever a door intercepted becomes one `Action`.

`normalize()` never raises. When something cannot be understood the action is marked
`normalization_failed` (the engine escalates it) rather than passed through raw.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from limen.facts.programs import Program, names_deployment, program
from limen.model import Action, Capability, Destination, HostClass, Mode
from limen.normalize import net, shell
from limen.normalize.graphql import mutation_notes
from limen.normalize.paths import canonical, read_text
from limen.normalize.tools import (
    ADMIN_GRANTED,
    BULK_TARGET,
    CODE_KEYS,
    CONTROL_OFF,
    DESTROYS_STORE,
    KNOWN_TOOLS,
    MADE_PUBLIC,
    MASKING,
    MAX_SETTINGS_TEXT,
    PRODUCTION_TARGET,
    RECIPIENT_KEYS,
    TEXT_KEYS,
    ToolSpec,
    changes_controls,
    classify,
    code_may_send,
    code_runner,
    code_sends_later,
    configures_connections,
    deployed_manifest,
    destroys_store,
    dispatched,
    edited_settings,
    every_item,
    forked_away,
    is_sql_argument,
    production_target,
    reads_by_name,
    sends_later,
    spaced_config,
    sql_statements,
    subscribed_hosts,
    touches_watch,
    words_of,
    writes_a_password,
    writes_a_setting,
)
from limen.patches import targets as patch_targets

# `Action.notes` of a tool that lists names (Glob, LS) and of one that searches file contents (Grep), followed
# by the text it looks for: what the path rules need to judge them as `ls` and `grep -r` are judged.
NAMES_ONLY = "names_only"
_WEAKENS = (CONTROL_OFF, MADE_PUBLIC, DESTROYS_STORE, ADMIN_GRANTED)  # what a new configuration may do
SEARCHES = "searches:"
MAX_ARGUMENT_CHARS = 1_000_000  # beyond this an argument is not analysed, and the action is escalated
MAX_DEPTH = 32  # nesting beyond this is not analysed (a secret could hide below it): the action is escalated


def _strings(value: Any, depth: int = 0) -> list[str]:
    """Every string inside a JSON-like value, for payload and secret scanning."""
    if isinstance(value, str):
        return [value]
    if depth > MAX_DEPTH:
        raise ValueError("arguments nested too deeply to analyse")
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            out.extend(_strings(v, depth + 1))
            if isinstance(k, str) and len(k) > 16:
                out.append(k)
        return out
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v, depth + 1)]
    return []


def _server_program(tool: str) -> Program | None:
    """The program an MCP server is named for (`mcp__vercel__...`: vercel's table entry), if any."""
    if not tool.startswith("mcp__") or tool.count("__") < 2:
        return None
    return program(tool.split("__")[1].lower())


def _path_values(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str) and v]
    return []


def _role_values(arguments: dict[str, Any], key: str) -> list[str]:
    """The strings an argument with a role (path, URL, command) carries; any other shape is refused,
    since a value Limen cannot read is a value it cannot judge."""
    value = arguments.get(key)
    if value is None:
        return []
    if isinstance(value, (str, list, tuple)) and all(
        isinstance(v, str) for v in ([value] if isinstance(value, str) else value)
    ):
        return _path_values(value)
    if isinstance(value, dict) and value and all(isinstance(k, str) and k for k in value):
        return list(
            value
        )  # `files: {"notes.md": {"content": ...}}`: named by its keys (contents are payloads)
    if isinstance(value, (list, tuple)) and all(isinstance(v, dict) for v in value):
        # `files: [{"name": "index.ts", "content": ...}]`: each named by its own path or name
        named = [
            next((v[k] for k in _FILE_NAME_KEYS if isinstance(v.get(k), str) and v[k]), None) for v in value
        ]
        if all(named):
            return [n for n in named if n]
    raise ValueError(f"argument {key!r} has an unreadable shape")


_FILE_NAME_KEYS = ("path", "file_path", "filePath", "filename", "name")


_IDENTIFIER = re.compile(r"[A-Za-z0-9_-]{1,128}")
# A value that lets anyone in, written in a list an edit changes without its key (`[]string{"*"}`)
_NAMES_ANYONE = re.compile(r"""["']\*["']|\b0\.0\.0\.0/0\b|::/0|\ballUsers\b|\ballAuthenticatedUsers\b""")
# Arguments of a program-named MCP tool that are the program's options, not its operands: where it works and
# how it prints (`kubectl_get(namespace=..., output=yaml)`)
_OPTION_KEYS = frozenset(
    {"namespace", "output", "context", "cluster", "kubeconfig", "region", "zone", "project", "profile"}
    | {"format"}
)


# Forge tools that propose rather than change (`create_pull_request`, `create_issue`, `add_issue_comment`):
# the repository's people decide what comes of them
_PROPOSES = re.compile(r"(?:^|_)(?:pull_request|merge_request|issue|comment|review)s?(?:_|$)")
_CHANGES = re.compile(r"(?:^|_)(?:merge|delete|update_file|push|file|branch|close|lock)s?(?:_|$)")


def _forge_destinations(
    repository: tuple[str, str, str],
    arguments: dict[str, Any],
    cwd: str,
    server: str = "",
    tool: str = "",
) -> list[Destination]:
    """A forge tool that changes or sends: egress to the repository it names, as `git push` to it is. The
    project's own origin is `own_remote`, and so is any repository on a forge server of the company's own
    that the project's MCP configuration points the tool's server at (`GITLAB_API_URL:
    https://gitlab.acme.io/api/v4` for github.com/acme/app); any other repository `foreign_remote`, however
    trusted the forge. With no origin to compare (a checkout without a remote), a tool that only proposes (a
    pull request, an issue, a comment) names a repository not shown to be another's: no flag either way."""
    from dataclasses import replace

    from limen.facts.hosts import mcp_server_hosts, project_domain, project_repository

    host, owner_key, repo_key = repository
    operation = tool.rsplit("__", 1)[-1].lower()
    proposes = bool(_PROPOSES.search(operation)) and not _CHANGES.search(operation)
    name = str(arguments.get(repo_key, "")).strip().strip("/")
    owner = str(arguments.get(owner_key, "")).strip().strip("/") if owner_key else ""
    full = f"{owner}/{name}" if owner and "/" not in name else name
    own = project_repository(cwd)
    if own is not None and own[1] == full.lower() and own[0] != host and host.split(".")[0] in own[0]:
        host = own[0]  # the forge's server is the company's own (`gitlab.acme.io`), as the origin says
    company = (
        next(
            (h for h in mcp_server_hosts(cwd, server) if host.split(".")[0] in h and project_domain(h, cwd)),
            "",
        )
        if server and cwd
        else ""
    )
    if company:
        host = company
    flag = "own_remote" if own == (host, full.lower()) or company else "foreign_remote"
    found = net.destinations_in_text(f"https://{host}/{full}")
    if own is None and proposes and found:  # no origin to compare: a pull request or an issue asks
        return found
    if not found:  # a name no URL can carry: somewhere on the forge, not shown to be the project's
        return [Destination(host=host, scheme="https", flags=("foreign_remote",))]
    return [replace(d, flags=(*d.flags, flag)) for d in found]


# A forge's tools that publish what they are given under the account, outside any repository: gists,
# snippets, pastes
_PUBLISHES = re.compile(
    r"(?:^|_)(?:create|update|post|publish|new|add)_(?:\w+_)?(?:gists?|snippets?|pastes?)(?:_|$)"
)


def _forge_publication(tool: str) -> str:
    """The host a forge's publishing tool puts what it is given on (`mcp__github__create_gist`:
    gist.github.com), "" for any other tool."""
    from limen.facts.hosts import FORGES

    words = words_of(tool.removeprefix("mcp__").replace("__", "_"))
    if not _PUBLISHES.search(words):
        return ""
    forge = next((FORGES[w] for w in words.split("_") if w in FORGES), "")
    return f"gist.{forge}" if forge == "github.com" else forge


# A name an IDE's or a notebook's tool runs by (`OrdersApplication (dev)`, `notebooks/eda.ipynb`): no shell
# syntax, and no program's name first
_ITEM_NAME = re.compile(r"(?!.*\w\()[\w][\w .,()/@+:=-]{0,159}")  # (`print(1)` is code)


def _names_project_item(value: str) -> bool:
    """`value` names something of the project's that a tool runs (a run configuration, a notebook, a
    task), not a command: plain words, the first not a program of the table."""
    first = value.split(maxsplit=1)[0] if value.strip() else ""
    return bool(_ITEM_NAME.fullmatch(value)) and program(first.rsplit("/", 1)[-1]) is None


def normalize(
    tool: str,
    arguments: Any,
    *,
    cwd: str,
    door: str = "sdk",
    session_id: str | None = None,
    agent: str = "",
    role: str = "",
    mode: Mode = Mode.BALANCED,
    capability: str | None = None,
    home: str | None = None,
    tools: Mapping[str, ToolSpec] | None = None,
) -> Action:
    """Build the `Action` for one tool call. Never raises. `tools`: the policy's own tool maps
    (`Context.policy.tool_specs`), consulted before the built-in tables."""
    try:
        return _normalize(
            tool,
            arguments,
            cwd=cwd,
            door=door,
            session_id=session_id,
            agent=agent,
            role=role,
            mode=mode,
            capability=capability,
            home=home,
            tools=tools,
        )
    except Exception as exc:
        return Action(
            tool=str(tool)[:200],
            capability=Capability.UNKNOWN.value,
            arguments={},
            door=door,
            cwd=str(cwd),
            session_id=session_id,
            agent=agent,
            role=role,
            mode=mode,
            opaque=True,
            notes=("normalization_failed", type(exc).__name__),
        )


def _names_no_program(given: object) -> bool:
    """A command argument whose first word is no program the table knows (`FLUSHALL`, `["delete", ...]`)."""
    from limen.facts.programs import program

    first = given[0] if isinstance(given, list) and given else given
    if not isinstance(first, str) or not first.strip():
        return False
    word = first.split()[0] if not isinstance(given, list) else first
    return program(word.rsplit("/", 1)[-1]) is None


def _program_arguments(
    tool: str, arguments: dict[str, Any], spec: ToolSpec, capability: str | None
) -> list[str]:
    """The arguments of a code-running tool that hold its program (`code`, `source`), when the tool runs
    code and names the language (`limen.normalize.tools.CODE_RUNNERS`) and no argument is a command."""
    if spec.commands or (capability or spec.capability) != Capability.SHELL_EXECUTE.value:
        return []
    if code_runner(tool) is None:
        return []
    return [k for k in CODE_KEYS if isinstance(arguments.get(k), str) and arguments[k].strip()]


_EDITORS = frozenset({"Edit", "MultiEdit"})  # the tools whose calls `_edits` reads

# The names file servers give an edit's two texts (the MCP reference server's `oldText`/`newText`, an
# editor tool's `old_str`/`new_str`), each the same as an Edit's `old_string`/`new_string`
_EDIT_KEYS = (
    ("old_string", ("old_string", "oldText", "old_text", "old_str", "search", "find")),
    ("new_string", ("new_string", "newText", "new_text", "new_str", "replace", "replacement")),
)


def _as_edits(arguments: dict[str, Any]) -> dict[str, Any]:
    """An MCP server's list of edits to one file, in the shape of a MultiEdit's (`file_path`, `edits` of
    `old_string`/`new_string`), so that what the edit writes is judged as the same Edit would be; the call's
    other arguments are kept. Unchanged when no edit has both texts under a known name."""
    edits: list[dict[str, Any]] = []
    for edit in arguments["edits"][:64]:
        if not isinstance(edit, dict):
            return arguments
        pair = {
            ours: next((edit[k] for k in theirs if isinstance(edit.get(k), str)), None)
            for ours, theirs in _EDIT_KEYS
        }
        if pair["old_string"] is None or pair["new_string"] is None:
            return arguments
        edits.append({**edit, **pair})  # (the server's own keys kept, as the call gave them)
    path = next(
        (arguments[k] for k in ("file_path", "path", "filePath") if isinstance(arguments.get(k), str)), ""
    )
    return {**arguments, "edits": edits, "file_path": path} if edits and path else arguments


def _edits(tool: str, arguments: dict[str, object], path: str) -> list[tuple[str, str]]:
    """The file's text before and after each replacement an Edit or MultiEdit call makes (the replaced
    texts alone where the file cannot be read or does not hold them), so a setting is read in its section.
    Only an edit that writes a setting (`:` or `=` in its new text) or deletes one, or an ignore file's, is
    looked at."""
    listed = arguments.get("edits")
    if tool == "Edit":
        pairs = [arguments]
    elif (tool == "MultiEdit" or tool.startswith("mcp__")) and isinstance(listed, list):
        pairs = [e for e in listed if isinstance(e, dict)]
    else:
        return []
    found = []
    current: str | None = None
    for pair in pairs[:32]:
        old, new = pair.get("old_string"), pair.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str):
            continue
        settings = writes_a_setting(new) or not new.strip()  # (a line taken out: a setting, a rule)
        # (or a `Key value` line that names a new place to send to: `logging host 192.0.2.9`)
        watched = spaced_config(path) or touches_watch(old, new) or bool(sends_later(path, old, new))
        watched = watched or writes_a_password(new)  # a device's `username x secret 0 P` line
        watched = watched or code_may_send(new)  # (a program's `sock.sendto(data, ("203.0.113.9", 514))`)
        masked = MASKING.search(old) is not None  # (a log pattern's `%mask(%msg)`: no setting, a control)
        if not (settings or masked or path.endswith("ignore") or _NAMES_ANYONE.search(new) or watched):
            continue  # a setting written or taken out, an ignore file's entry, a list made anyone (`{"*"}`),
            # a server's `Key value` configuration, a security header's or an audit rule's line
        if current is None and path:
            current = read_text(path, MAX_SETTINGS_TEXT) or ""
        if old and current and old in current:
            found.append((current, current.replace(old, new, 1)))
        else:
            found.append((old, new))
    return found


# A shell command chained onto a value where a tool's parameter is spliced into a command line (a DAG's
# run configuration, a job's parameter): `+fct_orders; curl -s URL | sh`, `x $(wget -qO- URL)`
_SMUGGLED = re.compile(
    r"(?:;|&&|\|\||\||\$\(|`)\s*((?:curl|wget|bash|sh|zsh|nc|ncat|socat|python3?|perl|ruby|php|node|base64|rm"
    r"|chmod|eval)\b[^\n`]{0,500})"
)


def _rest_passthrough(tool: str, arguments: dict[str, Any]) -> str:
    """`elasticsearch.general_api_request(method="DELETE", path="/_slm/policy/nightly")`, `kibana.call_api(
    method="POST", path=..., body={...})`: a tool that hands its service a REST request, written as that
    request sent with curl, so the request's own reading judges it (a delete, a control switched off, a
    role granted). Its host stands for the server's service, inside the organisation: where the tool sends
    is the server's configuration, not the call's."""
    method, path = arguments.get("method"), arguments.get("path", arguments.get("endpoint"))
    if not (
        isinstance(method, str)
        and method.upper() in _REST_METHODS
        and isinstance(path, str)
        and path.startswith("/")
        and len(path) < 2048
    ):
        return ""
    server = tool.split("__")[1] if tool.count("__") >= 2 else "service"
    host = (re.sub(r"[^a-z0-9-]+", "-", server.lower()).strip("-") or "service") + ".mcp.internal"
    words = ["curl", "-s", "-X", method.upper(), f"https://{host}{path}"]
    body = next(
        (arguments[k] for k in ("body", "data", "json", "payload") if arguments.get(k) is not None), None
    )
    if body is not None:
        import json

        text = body if isinstance(body, str) else json.dumps(body)
        words += ["-H", "Content-Type: application/json", "-d", text[:100_000]]
    return " ".join(shell.quote(w) for w in words)


_REST_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"})


def _smuggled_lines(arguments: dict[str, Any], spec: ToolSpec) -> list[str]:
    """The shell lines chained onto an unknown tool's parameters (never its message, body or description:
    text for people may quote a command), to be judged as the commands they are when the parameter is
    spliced into a shell line."""
    skipped = {*spec.payloads, *spec.urls, *spec.paths, *spec.recipients}
    found: list[str] = []
    for key, value in arguments.items():
        if key in skipped or words_of(key) in TEXT_KEYS or is_sql_argument(key, value):
            continue
        for text in _strings(value)[:64]:
            if len(text) <= 4096:
                found.extend(m.group(1) for m in _SMUGGLED.finditer(text))
    return found[:8]


# Where a call delivers what it makes (an export's, a sync's, a backup's target), and how a machine is named
# there (`destination: {"type": "sftp", "host": "ftp.example.com"}`)
_DELIVERY_KEYS = frozenset({"destination", "target", "deliver_to", "delivery", "sink", "remote", "export_to"})
_MACHINE_KEYS = frozenset({"host", "hostname", "server", "address"})


def _delivery_hosts(arguments: dict[str, Any]) -> list[Destination]:
    """The machines on the internet a call's delivery target names by a host argument of its own, and the
    mail addresses it names as whom it goes to: the destination rules judge them as any address the call
    sends to."""
    found = []
    for key, value in list(arguments.items())[:64]:
        if not isinstance(value, dict) or words_of(str(key)) not in _DELIVERY_KEYS:
            continue
        for inner, host in list(value.items())[:32]:
            if words_of(str(inner)) in _MACHINE_KEYS and (named := _internet_host(host)) is not None:
                found.append(named)
            elif words_of(str(inner)) in RECIPIENT_KEYS:  # `destination: {"type": "email", "to": ADDRESS}`
                found.extend(d for a in _path_values(host) if "@" in a for d in net.recipient_destinations(a))
    return found[:4]


def _internet_host(host: object) -> Destination | None:
    """A host argument's machine when it is one on the internet (`sftp.example.com`), else None: a name
    with a dot and nothing a URL, an address or a path would add."""
    if not (
        isinstance(host, str) and 3 < len(host) <= 253 and "." in host and not any(c in host for c in " /@:")
    ):
        return None
    named = net.host_destination(host.strip().lower())
    return named if named.host_class is HostClass.PUBLIC else None


def _normalize(
    tool: str,
    arguments: Any,
    *,
    cwd: str,
    door: str,
    session_id: str | None,
    agent: str,
    role: str,
    mode: Mode,
    capability: str | None,
    home: str | None,
    tools: Mapping[str, ToolSpec] | None = None,
) -> Action:
    if not isinstance(tool, str) or not tool:
        raise ValueError("tool name missing")
    if not isinstance(arguments, dict):
        raise ValueError("arguments are not an object")
    home = home or os.path.expanduser("~")
    cwd = cwd or os.getcwd()
    if tool.startswith("mcp__") and isinstance(arguments.get("edits"), list):
        arguments = _as_edits(arguments)  # `filesystem.edit_file(path, edits=[{oldText, newText}])`
    spec = (tools.get(tool) if tools else None) or classify(tool, arguments)
    if spec.required and not any(
        v.strip() for key in spec.required for v in _path_values(arguments.get(key))
    ):
        raise ValueError(f"{tool} call without {' or '.join(spec.required)}")
    strings = _strings(arguments)
    notes: list[str] = []
    if sum(len(s) for s in strings) > MAX_ARGUMENT_CHARS:
        raise ValueError("arguments too large to analyse")

    code_keys = _program_arguments(tool, arguments, spec, capability)
    paths: list[str] = []
    write_paths: list[str] = []
    base = cwd
    if spec.within and isinstance(arguments.get(spec.within), str) and arguments[spec.within].strip():
        base = canonical(arguments[spec.within], cwd, home)  # `Glob(pattern="*.pem", path="~")`: in ~
    for key in spec.paths:
        if key in code_keys:  # a notebook cell's `source` is its program, not a file
            continue
        for role_value in _role_values(arguments, key):
            # a pattern's alternatives (`~/.config/**/{*token*,*.pem}`) are each a pattern of their own
            alternatives = shell.expand_braces(role_value) if "{" in role_value else [role_value]
            for raw in alternatives if key != spec.within else [role_value]:
                path = canonical(raw, cwd if key == spec.within else base, home)
                paths.append(path)
                if spec.write:
                    write_paths.append(path)

    destinations: list[Destination] = []
    for key in spec.urls:
        for value in _role_values(arguments, key):
            if value[:7].lower() == "file://":  # `uri: file:///src/app.ts`: a local file, read as a path
                path = canonical(unquote(value[7:].split("?", 1)[0].split("#", 1)[0]) or "/", cwd, home)
                paths.append(path)
                continue
            found = net.destinations_in_text(value)
            if found and (platform := _server_program(tool)) is not None and platform.deploys_to:
                # `vercel.get_deployment(idOrUrl="app-8k2x.vercel.app")`: the platform's own deployment, named
                found = [d for d in found if not names_deployment(platform, f"https://{d.host}/")]
                if not found:
                    continue
            if not found and key != "prompt":  # a URL naming no host Limen can judge
                if tool not in KNOWN_TOOLS and _IDENTIFIER.fullmatch(value):
                    continue  # an MCP tool's `idOrUrl: "dpl_8Kq2"`: an identifier, where an address may go
                raise ValueError(f"argument {key!r} is not a URL")
            destinations.extend(found)

    for key in spec.hosts:  # a machine named by a host argument, when it is one on the internet
        if (machine := _internet_host(arguments.get(key))) is not None:
            destinations.append(machine)

    if tool.startswith("mcp__") and not reads_by_name(tool):
        destinations.extend(_delivery_hosts(arguments))  # `export(destination={type: sftp, host: ...})`

    commands: tuple[Any, ...] = ()
    command_line = ""
    opaque = False
    payloads: list[str] = []
    lines = []
    for key in code_keys:  # `python_execute(code=...)`: the program, as the interpreter's one-liner runs it
        interpreter, flag = code_runner(tool) or ("", "")
        lines.append(f"{interpreter} {flag} {shell.quote(arguments[key])}")
    for key in spec.commands:
        given = arguments.get(key)
        if spec.program and _names_no_program(given):  # `redis.execute("FLUSHALL")`: redis-cli's words
            given = [*(spec.invocation or (spec.program,)), *(given if isinstance(given, list) else [given])]
        if isinstance(given, list):  # an argv, as Codex sends it
            given = " ".join(shell.quote(str(v)) for v in given)
        elif given is not None and not isinstance(given, str):
            raise ValueError(f"argument {key!r} is not a command")
        elif given and spec.command_args:  # `{cmd: "rm", args: ["-rf", "~"]}`
            tail = arguments.get(spec.command_args)
            words = [tail] if isinstance(tail, str) else tail if isinstance(tail, list) else []
            given = " ".join([shell.quote(given), *(shell.quote(str(v)) for v in words)])
        if given and given.strip() and spec.wraps:
            given = " ".join([*spec.wraps, shell.quote(given)])
        if given and given.strip():
            lines.append(given)
    if not lines and tool not in KNOWN_TOOLS and (request := _rest_passthrough(tool, arguments)):
        lines.append(request)
    if not lines and tool not in KNOWN_TOOLS:  # `trigger_dag(conf={"select": "x; curl URL | sh"})`
        lines.extend(_smuggled_lines(arguments, spec))
    for statement in sql_statements(arguments):  # SQL that runs a program (`COPY ... TO PROGRAM`)
        if len(statement) < 100_000:
            lines.extend(shell.sql_commands(statement))
    if not lines and spec.invocation:  # `mcp__git__git_push(force=True)` is `git push --force`
        # its options set to true, then the words it is given (`kubectl_delete(resourceType=namespace,
        # name=prod)` is `kubectl delete namespace prod`); paths name where it works, not what it acts on
        # (where the program runs and how it prints are its options: `namespace=x, output=yaml` is `-n x -o
        # yaml`, so `kubectl_get(resourceType=secret, output=yaml)` prints the secret as the shell line does)
        flags = [f"--{k.replace('_', '-')}" for k, v in arguments.items() if v is True]
        given = [
            (words_of(k), v)
            for k, v in arguments.items()
            if isinstance(v, str) and k not in spec.paths and v.strip()
        ]
        options = [w for k, v in given if k in _OPTION_KEYS for w in (f"--{k.replace('_', '-')}", v)]
        # a number is an option's value (`kubectl_scale(replicas=0)` is `--replicas 0`)
        options += [
            w
            for k, v in arguments.items()
            if isinstance(v, int) and not isinstance(v, bool)
            for w in (f"--{words_of(k).replace('_', '-')}", str(v))
        ]
        words = [v for k, v in given if k not in _OPTION_KEYS]
        lines.append(" ".join(shell.quote(w) for w in (*spec.invocation, *flags, *options, *words[:16])))
    if lines:
        command_line = "\n".join(lines)  # every command argument runs: analyse them as one script
        analysis = shell.analyse(command_line, cwd=cwd, home=home)
        commands = analysis.commands
        paths.extend(analysis.paths)
        write_paths.extend(analysis.write_paths)
        destinations.extend(analysis.destinations)
        payloads.extend(analysis.payloads)
        opaque = analysis.opaque
        notes.extend(analysis.notes)
    elif (
        (capability or spec.capability) == Capability.SHELL_EXECUTE.value
        and strings
        and not all(_names_project_item(s) for s in strings)
    ):
        raise ValueError(f"{tool} executes something, but no argument is a command Limen can read")

    for key in spec.payloads:
        payloads.extend(_strings(arguments.get(key)))
        if spec.write:  # `apply_patch`: the files a patch adds, changes, moves to or deletes are written
            for text in _strings(arguments.get(key)):
                for target in patch_targets(text):
                    path = canonical(target, cwd, home)
                    paths.append(path)
                    write_paths.append(path)
    if (
        not spec.payloads
        and spec.capability not in (Capability.FILESYSTEM_READ.value,)
        and not (tool in KNOWN_TOOLS and spec.capability == Capability.SHELL_EXECUTE.value)
    ):
        # Unknown tools: every string argument may carry data out (a known shell tool's other arguments are
        # labels for the user, sent nowhere: Bash's `description`; its command line is what is analysed)
        payloads.extend(s for s in strings if s not in payloads and s != command_line)
    for key in spec.recipients if not reads_by_name(tool) else ():  # (`list_customers(email=...)` filters)
        for value in _path_values(arguments.get(key)):
            destinations.extend(net.recipient_destinations(value))

    if (
        spec.repository[0]
        and (capability or spec.capability) != Capability.FILESYSTEM_READ.value
        and not reads_by_name(tool)
    ):  # `get_merge_request`, `list_issues`: a forge's reads send nothing of the project's
        server = tool.split("__")[1] if tool.startswith("mcp__") and tool.count("__") >= 2 else ""
        destinations.extend(_forge_destinations(spec.repository, arguments, cwd, server, tool))
    publication = _forge_publication(tool)  # `create_gist(public=true, files={...})`: as `gh gist create`
    if publication:
        destinations.append(Destination(host=publication, scheme="https", flags=("publishes",)))

    acts = dispatched(tool, arguments)  # `call_service(domain="lock", service="unlock")`: `lock_unlock`
    if not commands and tool not in KNOWN_TOOLS and (what := destroys_store(acts, arguments)):
        notes.append(DESTROYS_STORE + what)
    if tool.startswith("mcp__") and not reads_by_name(acts) and (what := changes_controls(acts, arguments)):
        notes.append(what)
    if tool.startswith("mcp__"):
        notes.extend(subscribed_hosts(tool, arguments))  # a webhook or contact point pointed somewhere
    # `run_graphql(query="mutation { themeDelete(...) }")`: each field judged as the tool call it equals
    mutates, mutation_effects = mutation_notes(strings) if tool not in KNOWN_TOOLS else (False, [])
    notes.extend(mutation_effects)
    if tool.startswith("mcp__") and "fork" in tool.lower():
        from limen.facts.hosts import project_repository

        identity = project_repository(cwd) if cwd else None
        if forked := forked_away(tool, arguments, identity[1].split("/", 1)[0] if identity else ""):
            notes.append(forked)
    if tool.startswith("mcp__") and (target := production_target(acts, arguments)):
        notes.append(PRODUCTION_TARGET + target)  # `ps_scale(app="shop-prod", dyno="web=0")`
    if tool.startswith("mcp__") and (selected := every_item(acts, arguments)):
        notes.append(BULK_TARGET + selected)  # `bulk_command(selector="*", command="factory_reset")`
    edited = str(arguments.get("file_path", ""))
    editor = tool in _EDITORS or (tool.startswith("mcp__") and "edits" in arguments)
    edits = _edits(tool, arguments, canonical(edited, cwd, home)) if editor and edited else []
    for before, after in edits:
        notes.extend(edited_settings(edited, before, after))  # a setting switched off, access widened
        notes.extend(sends_later(edited, before, after))  # a host the deployed system will send to
        notes.extend(code_sends_later(edited, before, after))  # a host the deployed program will send to
    written = arguments.get("content")
    if tool == "Write" and isinstance(written, str) and edited and configures_connections(edited):
        current = read_text(canonical(edited, cwd, home), MAX_SETTINGS_TEXT) or ""  # only a config's
        if current or deployed_manifest(written):  # a configuration rewritten whole is judged as the edit
            # it makes; a new manifest (`kind: PeerAuthentication` with `mode: DISABLE`) as added to nothing
            notes.extend(edited_settings(edited, current, written))
        else:  # a new configuration: what it switches off or opens to anyone from the start (`ssl-config {
            # loose { acceptAnyCertificate = true } }`, Jupyter's `token = ''` on every interface)
            notes.extend(
                n for n in edited_settings(edited, "", written, created=True) if n.startswith(_WEAKENS)
            )
        notes.extend(sends_later(edited, current, written))
    if tool == "Write" and isinstance(written, str) and edited and code_may_send(written):
        current = read_text(canonical(edited, cwd, home), MAX_SETTINGS_TEXT) or ""
        notes.extend(code_sends_later(edited, current, written))
    if spec.names_only:
        notes.append(NAMES_ONLY)
    for key in spec.searches:
        pattern = arguments.get(key)
        if isinstance(pattern, str) and pattern:
            notes.append(SEARCHES + pattern[:200])
    if mutates and not capability and spec.capability == Capability.FILESYSTEM_READ.value:
        capability = Capability.MCP_CALL.value  # a tool named for reading, handed a mutation, writes
    return Action(
        tool=tool,
        capability=capability or spec.capability,
        arguments=arguments,
        door=door,
        cwd=cwd,
        session_id=session_id,
        agent=agent,
        role=role,
        mode=mode,
        paths=tuple(dict.fromkeys(paths)),
        write_paths=tuple(dict.fromkeys(write_paths)),
        commands=commands,
        command_line=command_line,
        destinations=tuple(dict.fromkeys(destinations)),
        payloads=tuple(payloads),
        opaque=opaque,
        notes=tuple(notes),
    )
