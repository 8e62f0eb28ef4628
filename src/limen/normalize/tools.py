"""Tool tables: which capability a tool has and which of its arguments play which role.

Known tools (Claude Code, Gemini CLI, Cursor and Codex built-ins, and the generic capability names) are
looked up; anything else, MCP tools included, is classified from its name and its argument names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import lru_cache

from limen.facts.hosts import BROKER_SCHEMES, FORGES, FREE_MAIL_DOMAINS, OBJECT_STORE_HOSTS, WEB_SCHEMES
from limen.facts.paths import below_home
from limen.facts.programs import (
    CHECKS_OFF_VARIABLES,
    HOST_SECURITY_AGENTS,
    MAIN_BRANCHES,
    OPEN_FEDERATION,
    PRODUCTION,
    PROTECTED_BRANCHES,
)
from limen.model import Capability
from limen.prefilter import prefiltered


@dataclass(slots=True, frozen=True)
class ToolSpec:
    """A capability plus the argument names that carry paths, commands, URLs, payloads and recipients."""

    capability: str
    paths: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    urls: tuple[str, ...] = ()
    payloads: tuple[str, ...] = ()
    recipients: tuple[str, ...] = ()
    write: bool = False
    required: tuple[str, ...] = ()  # at least one of these must carry a non-empty string (or list of them)
    # the tool gives back the names of the files at its paths, never their content (`ls`, not `cat`)
    names_only: bool = False
    # arguments holding the text the tool looks for in the content of the files at its paths (`grep -r`)
    searches: tuple[str, ...] = ()
    # the argument naming the folder that the other path arguments are relative to (Glob's `path`)
    within: str = ""
    # the list of arguments that follows the program a command argument names (`{cmd: "rm", args: [...]}`)
    command_args: str = ""
    # a source forge's tool: (forge host, owner argument, repository argument) naming the repository the
    # call acts on (`mcp__github__create_issue(owner=..., repo=...)`); its `path` arguments name files there
    repository: tuple[str, str, str] = ("", "", "")
    # the command-line program the tool's server is named for (`mcp__redis__execute`: redis-cli): a command
    # argument that names no program of its own is that program's words (`FLUSHALL`, `["delete", "ns", x]`)
    program: str = ""
    # a tool named for one of that program's commands (`git_push`): the program and its command's words,
    # which begin what a command argument gives (`args: ["--force"]`), or with the options set to true
    # (`{"force": true}` -> `--force`) make the command line when no argument gives one
    invocation: tuple[str, ...] = ()
    # the program whose script a command argument is (`PowerShell`'s command: `pwsh -Command SCRIPT`)
    wraps: tuple[str, ...] = ()
    # arguments naming a machine on the internet a tool points a stored connection at
    # (`update_connection(host="proxy.evil.example")`): where its data and credentials then go
    hosts: tuple[str, ...] = ()


_READ = Capability.FILESYSTEM_READ.value
_WRITE = Capability.FILESYSTEM_WRITE.value
_SHELL = Capability.SHELL_EXECUTE.value
_NET = Capability.NETWORK_REQUEST.value

_PATH_KEYS = (
    "file_path",
    "path",
    "notebook_path",
    "absolute_path",
    "dir_path",
    "directory",
    "filename",
    "file",
)
_PAYLOAD_KEYS = (
    *("content", "body", "data", "text", "message", "new_string", "new_source", "json", "payload"),
    *("patch", "diff", "contents", "file_content", "file_contents"),
)
# Arguments and options that hold text for people (a message, a description, a job's comment): a command
# quoted there is an example, not run; a value handed there is kept where others read it, not used
TEXT_KEYS = frozenset(
    {
        "text",
        "message",
        "body",
        "content",
        "description",
        "comment",
        "title",
        "summary",
        "note",
        "notes",
        "label",
    }
)
RECIPIENT_KEYS = (
    *("to", "recipient", "recipients", "cc", "bcc", "email", "emails", "channel", "user", "iban"),
    # whom an export is delivered to, a thing shared with, a channel or a space opened to (their addresses)
    *("deliver_to", "send_to", "share_with", "forward_to", "invitees", "users", "members", "guests"),
    "email_to",
)

KNOWN_TOOLS: dict[str, ToolSpec] = {
    # Claude Code
    "Bash": ToolSpec(_SHELL, commands=("command",), required=("command",)),
    # Claude Code's Windows shell: its command is a PowerShell script, read as `pwsh -Command` reads it
    "PowerShell": ToolSpec(_SHELL, commands=("command",), required=("command",), wraps=("pwsh", "-Command")),
    "Read": ToolSpec(_READ, paths=("file_path",), required=("file_path",)),
    "Write": ToolSpec(
        _WRITE, paths=("file_path",), payloads=("content",), write=True, required=("file_path",)
    ),
    "Edit": ToolSpec(
        _WRITE, paths=("file_path",), payloads=("new_string",), write=True, required=("file_path",)
    ),
    "MultiEdit": ToolSpec(
        _WRITE, paths=("file_path",), payloads=("edits",), write=True, required=("file_path",)
    ),
    "NotebookEdit": ToolSpec(
        _WRITE, paths=("notebook_path",), payloads=("new_source",), write=True, required=("notebook_path",)
    ),
    "Glob": ToolSpec(_READ, paths=("path", "pattern"), names_only=True, within="path"),
    "Grep": ToolSpec(_READ, paths=("path", "glob"), searches=("pattern",), within="path"),
    "LS": ToolSpec(_READ, paths=("path",), names_only=True),
    "WebFetch": ToolSpec(_NET, urls=("url",), required=("url",)),
    "WebSearch": ToolSpec(_NET),
    "Task": ToolSpec(Capability.AGENT_DELEGATE.value, payloads=("prompt",)),
    "Agent": ToolSpec(Capability.AGENT_DELEGATE.value, payloads=("prompt",)),
    # Gemini CLI
    "run_shell_command": ToolSpec(_SHELL, commands=("command",), required=("command",)),
    "read_file": ToolSpec(_READ, paths=("absolute_path", "file_path", "path")),
    "read_many_files": ToolSpec(_READ, paths=("paths",)),
    "list_directory": ToolSpec(_READ, paths=("path", "dir_path"), names_only=True),
    "write_file": ToolSpec(_WRITE, paths=("file_path", "path"), payloads=("content",), write=True),
    "replace": ToolSpec(_WRITE, paths=("file_path",), payloads=("new_string",), write=True),
    "glob": ToolSpec(_READ, paths=("path", "pattern"), names_only=True, within="path"),
    "search_file_content": ToolSpec(_READ, paths=("path", "include"), searches=("pattern",), within="path"),
    "web_fetch": ToolSpec(_NET, urls=("url", "prompt")),
    "google_web_search": ToolSpec(_NET),
    # Codex
    "shell": ToolSpec(_SHELL, commands=("command", "cmd")),
    "apply_patch": ToolSpec(_WRITE, paths=("path",), payloads=("patch", "input", "command"), write=True),
    # Generic capabilities (the SDK door)
    "filesystem.read": ToolSpec(_READ, paths=("path",)),
    "filesystem.write": ToolSpec(_WRITE, paths=("path",), payloads=("content",), write=True),
    "filesystem.delete": ToolSpec(Capability.FILESYSTEM_DELETE.value, paths=("path",), write=True),
    "shell.execute": ToolSpec(_SHELL, commands=("cmd", "command"), required=("cmd", "command")),
    "repository.write": ToolSpec(Capability.REPOSITORY_WRITE.value, commands=("cmd", "command")),
    "network.request": ToolSpec(_NET, urls=("url",), payloads=("body", "data", "json")),
    "email.send": ToolSpec(
        Capability.EMAIL_SEND.value,
        payloads=("body", "subject"),
        recipients=("to", "recipients", "cc", "bcc"),
    ),
    "message.send": ToolSpec(
        Capability.MESSAGE_SEND.value,
        payloads=("body", "text", "message"),
        recipients=("to", "channel", "recipient"),
    ),
}

# Verbs in a tool's name, checked in order: the first that appears decides the capability.
# A run named as the thing another verb acts on (`get_workflow_run`, `cancel_dag_run`, `list_runs`,
# `retrieve_run`): a record of a run on the service, which nothing here executes
_RUN_NOUN = re.compile(
    r"((?:^|_)(?:get|list|cancel|rerun|retry|delete|retrieve|download|search|trigger|create|update|describe"
    r"|show|view|stop|abort|approve|wait_for|watch|poll|fetch|read|find)_(?:[a-z0-9]+_){0,3})runs?(?=_|$)"
)
_NAME_VERBS: tuple[tuple[re.Pattern[str], str], ...] = (
    # (running a service's own pipeline, workflow, build, report or tests, `run_apex_test`, starts it there:
    # no command here)
    (
        re.compile(
            r"(^|_)(exec|execute|run(?!_(?:[a-z0-9]+_){0,2}(?:pipeline|workflow|job|build|tests?|report|task|flow"
            r"|check|scan)s?(?:_|$))"
            r"|shell|bash|terminal|command)(_|$)"
        ),
        _SHELL,
    ),
    (re.compile(r"(^|_)(send_money|transfer|pay|payment|refund|transaction|wire)(_|$)"), "payments.transfer"),
    (
        # (an upload or an attachment takes a file of this machine to the service: it is read and sent)
        re.compile(
            r"(^|_)(send|post|reply|forward|share|invite|publish|upload|attach_files?|attachments?)(_|$)"
        ),
        Capability.MESSAGE_SEND.value,
    ),
    (
        # (Perforce's obliterate deletes the history too; erase, wipe and destroy say as much of anything)
        re.compile(r"(^|_)(delete|remove|rm|unlink|drop|purge|obliterate|erase|wipe|destroy)(_|$)"),
        Capability.FILESYSTEM_DELETE.value,
    ),
    (re.compile(r"(^|_)(fetch|download|browse|http|request|navigate|curl|scrape|get_webpage)(_|$)"), _NET),
    (
        re.compile(
            r"(^|_)(write|create|update|edit|append|save|put|set|move|rename|commit|push|apply|patch)(_|$)"
        ),
        _WRITE,
    ),
    (
        re.compile(
            r"(^|_)(read|get|list|search|find|query|show|view|cat|open|lookup|grep|glob|tree|ls)(_|$)"
        ),
        _READ,
    ),
)


# Tools that run code in a language (`python_execute`, `run_js`, `jupyter_run_cell`): the word in the tool's
# name that names the language, and the command line that runs a program given as one argument. The
# arguments that hold the program (`code`, `source`...) are `CODE_KEYS`.
UNNAMED_LANGUAGE = ("repl", "-e")
CODE_RUNNERS: tuple[tuple[re.Pattern[str], tuple[str, str]], ...] = (
    (re.compile(r"(^|_)(python|py|ipython|jupyter|notebook|pyodide)(_|$)"), ("python3", "-c")),
    (re.compile(r"(^|_)(node|nodejs|js|javascript|typescript|ts|deno)(_|$)"), ("node", "-e")),
    (re.compile(r"(^|_)(ruby|rb)(_|$)"), ("ruby", "-e")),
    (re.compile(r"(^|_)(perl)(_|$)"), ("perl", "-e")),
    (re.compile(r"(^|_)(php)(_|$)"), ("php", "-r")),
    (re.compile(r"(^|_)(bash|shell|sh|zsh|terminal)(_|$)"), ("bash", "-c")),
    # a browser driver's evaluation in the page (Playwright's `browser_evaluate(function=...)`, Puppeteer's
    # `puppeteer_evaluate(script=...)`, Chrome DevTools' `evaluate_script`): JavaScript, read as node's, whose
    # requests leave from the page with its session
    (
        re.compile(
            r"^(?=(?:.*_)?(?:browser|page|puppeteer|playwright|chrome|devtools|selenium|webdriver)(?:_|$))"
            r"(?:.*_)?(?:evaluate|eval|execute_script|evaluate_script|run_script)(?:_|$)"
        ),
        ("node", "-e"),
    ),
    (re.compile(r"(^|_)(elixir|iex|exs)(_|$)"), ("elixir", "-e")),
    # a tool that evaluates code in a language it does not name (`project_eval`, `run_code`, `repl_eval`):
    # read as a read-eval loop's program, which no parser here reads
    (re.compile(r"(^|_)(eval|evaluate|repl|run_code|execute_code|exec_code)(_|$)"), UNNAMED_LANGUAGE),
)
# Arithmetic, which every language evaluates alike and which does nothing (a calculator's `evaluate("2*pi")`)
_ARITHMETIC = re.compile(
    r"(?:[\s\d.+\-*/%^(),<>=!]|(?<=\d)[eE]|\b(?:sqrt|sin|cos|tan|log|ln|exp|abs|pow|min|max|round|floor|ceil|pi|e)\b){1,200}"
)
CODE_KEYS = (
    "code",
    "source",
    "snippet",
    "program",
    "expression",
    "cell",
    "source_code",
    "script",
    "function",
)


# Tools whose name says they destroy a store of data as a whole (`redis.flushall`, `mongodb.drop-collection`,
# `elasticsearch.delete_index`): what `DROP TABLE` or `FLUSHALL` through a client would do. A store is what
# holds everything in it (an Azure resource group, a CloudFormation stack, a storage account), whichever
# order the tool's name puts the verb in (`delete_bucket`, `group_delete`).
_STORES = (
    r"(?:database|db|collection|table|keyspace|index|schema|namespace|bucket|queue|repo|repository|project"
    r"|cluster|(?:resource_)?group|stack|environment|subscription|(?:storage_)?account|vault|backup"
    r"|snapshot|dataset|experiment|registered_model|space|stream|topic|registry"
    # a cloud's storage containers (Azure's blob containers, Cosmos DB's): its buckets and tables, not an
    # image's running copy
    r"|(?:storage|blob|cosmos|cosmos_db)_container)s?"
)
_DESTROYS_STORE = re.compile(
    r"(^|_)(flush_?all|flush_?db|truncate(_table)?|drop_?(table|database|db|collection|schema|keyspace|index)"
    rf"|(?:delete|remove|purge|destroy)_{_STORES}|{_STORES}_(?:delete|remove|purge|destroy))(_|$)"
)


DESTROYS_STORE = "destroys-store:"  # the normaliser's note for such a tool, with the words that say it

# Code that lists everything a store holds and deletes each item it is given (`for await (const e of
# kv.list({prefix: []})) await kv.delete(e.key)`, `for key in r.scan_iter(): r.delete(key)`, `for o in
# bucket.objects.all(): o.delete()`): the store emptied, one item at a time; a listing narrowed to a
# prefix or a filter is a clean-up of that part
_LISTS_ALL = re.compile(
    r"\.(?:list|keys|scan|scan_?iter|list_?objects\w*|all|iterdir|find)\s*\(\s*"
    r"(?:\{\s*prefix\s*:\s*\[\s*\]\s*\}|\{\s*\}|[\"']\*[\"']|)\s*\)"
)
_DELETES_ITEM = re.compile(r"\.(?:delete|del|remove|unlink|destroy|purge)\s*\(")
_FOR = re.compile(r"\bfor\b")
EVERY_LISTED_DELETED = "a delete of every item a listing of the whole store returns"


def deletes_every_listed(code: str) -> bool:
    """The code empties a store by deleting each item of a listing of all of it: a loop over the listing
    (on its line) with a delete in the next few hundred characters."""
    text = code[:200_000]
    if "for" not in text or _DELETES_ITEM.search(text) is None:
        return False
    for listed in _LISTS_ALL.finditer(text):
        line = text.rfind("\n", 0, listed.start()) + 1
        if _FOR.search(text, line, listed.start()) and _DELETES_ITEM.search(
            text, listed.end(), listed.end() + 480
        ):
            return True
    return False


# Tools that delete or reimage a machine or a disk (`delete_server`, `rebuild_server`, `volume_delete`,
# `terminate_instance`): what was on its disk is gone, as with a cloud CLI's `server delete`; asked, as the
# CLI's one resource is, refused when the arguments name production
_MACHINES = r"(?:server|instance|vm|virtual_machine|machine|droplet|volume|disk|node|host)s?"
_MACHINE_VERBS = r"(?:delete|remove|destroy|terminate|rebuild|reimage|reinstall|wipe|format)"
_DESTROYS_MACHINE = re.compile(
    rf"(?:^|_){_MACHINE_VERBS}_(?:[a-z0-9]+_){{0,2}}{_MACHINES}(?:_|$)|(?:^|_){_MACHINES}_{_MACHINE_VERBS}(?:_|$)"
)
MACHINE_DESTROYED = "a delete or reimage of a machine or a disk and the data on it"
# What holds a service's other things (a DNS zone, a site, a realm, a mailing list, a workflow, a data
# source, a course): deleting one takes everything in it or served by it
_CONTAINERS = (
    r"(?:zones?|channels?|apps?|applications?|sites?|workspaces?|realms?|data_?sources?|lists?|audiences?"
    r"|librar(?:y|ies)|(?:shared_)?drives?|dags?|pipelines?|tracking_plans?|pools?|inventor(?:y|ies)"
    r"|data_streams?|courses?|(?:incoming_)?phone_numbers?|services?|workers?|tenants?|organi[sz]ations?"
    r"|orgs?|teams?|domains?|user_pools?|identity_providers?|dashboards?|folders?|boards?|forms?|campaigns?"
    r"|integrations?|connectors?|sources?|destinations?|deployments?|functions?|volumes?|jobs?|webhooks?"
    r"|polic(?:y|ies)|certificates?)"
)
# (the container the last word: `delete_channel_message` deletes a message)
_DELETES_CONTAINER = re.compile(
    rf"(?:^|_)(?:delete|remove|purge|destroy|drop|wipe)_(?:[a-z0-9]+_){{0,2}}?{_CONTAINERS}$"
    rf"|(?:^|_){_CONTAINERS}_(?:delete|remove|purge|destroy|drop)$"
)
CONTAINER_DELETED = "a delete of a container (a zone, a site, a realm...) and all it holds"
# A delete told to take more than the one thing it names: everything beneath it, for good, or every one
# (`cascade=true`, `permanent=true`, `all=true`); a filter narrows it (a clean-up: `_FILTER_KEYS`' empty
# ones are judged above)
_WHOLESALE_KEYS = frozenset(
    {
        "cascade",
        "purge",
        "permanent",
        "permanently",
        "hard_delete",
        "hard",
        "force_delete",
        "all",
        "delete_all",
    }
)
BULK_DELETED = "a delete of everything it matches"
# A trash or a recycle bin emptied: what was deleted there can no longer be brought back
_EMPTIES_TRASH = re.compile(
    r"(?:^|_)(?:empty_(?:trash|recycle_bin|bin|deleted_items)|purge_(?:trash|deleted))(?:_|$)"
)
TRASH_EMPTIED = "a trash emptied: what was deleted there is gone for good"


# Tools that delete every record a filter matches, and the arguments that hold the filter
_DELETES_MATCHING = re.compile(
    r"(^|_)(delete|remove|purge)_?(many|all|where|by_query)(_|$)|(^|_)bulk_delete(_|$)"
)
_FILTER_KEYS = frozenset(
    {"filter", "query", "where", "selector", "criteria", "match", "conditions", "predicate", "filters"}
)
# A filter that matches every record (Elasticsearch's `{"match_all": {}}`, a bare `*`)
_MATCHES_ALL: tuple[object, ...] = ({"match_all": {}}, {"query": {"match_all": {}}}, "*", "*:*")
# Arguments named for the query language they hold (never a shell line), and every argument that carries a
# query another language runs (a search, a management command)
_QUERY_LANGUAGES = frozenset({"cypher", "kql", "spl", "csl", "sparql", "gremlin", "promql", "logql", "esql"})
_QUERY_KEYS = frozenset({"query", "search", "q", "statement", "command", "expr"}) | _QUERY_LANGUAGES
# Query languages' statements that destroy what they reach: Splunk's `| delete` (the events a search finds
# are erased), Kusto's management commands (`.drop table`, `.purge`, `.clear table data`), Cypher deleting
# every node it matched with no condition (`MATCH (n) DETACH DELETE n`)
_QUERY_DESTROYS = re.compile(
    r"(?i)\|[ \t]*delete[ \t]*(?:$|\|)"
    r"|(?:^|\n)[ \t]*\.(?:drop|purge|clear)[ \t]+(?:table|tables|database|materialized-view|extent|extents"
    r"|table[ \t]+\w+[ \t]+data)\b"
    r"|^[ \t]*match[ \t]*\([ \t]*\w*[ \t]*(?::\w+[ \t]*)?\)[ \t]*(?:detach[ \t]+)?delete\b"
)
# Tools whose name says they delete, cancel or pay back, and the values that stand for everything
_UNDOES = re.compile(r"(^|_)(delete|remove|purge|destroy|drop|refund|cancel|void|revoke|terminate|wipe)(_|$)")
_RESETS = re.compile(r"(^|_)(?:reset|restore)(_|$)")
_RECURSIVE_KEYS = frozenset({"recursive", "recurse", "recursively"})  # a delete's switch for all beneath
_MAIN_BRANCH = re.compile(rf"(?i)(?<![a-z0-9]){MAIN_BRANCHES}(?![a-z0-9])")
# A generic delete tool told what kind of thing it deletes (`kind`, `resource_type`), and the kinds that hold
# everything in them (a Kubernetes namespace or OpenShift project, a volume claim, a database, a bucket)
_KIND_KEYS = frozenset({"kind", "resource_type", "type", "resource_kind", "object_type"})
_STORE_KIND = re.compile(
    r"(?i)namespaces?|projects?|persistentvolumeclaims?|pvcs?|persistentvolumes?|databases?|buckets?"
    r"|keyspaces?|clusters?|resource_?groups?|stacks?"
)
_WILDCARDS = frozenset({"*", "all", "%", ".*", "*.*", "any", "everything"})
# A label selector whose pattern matches every value (PromQL's `{__name__=~".+"}`, `{job=~".*"}`)
_MATCHES_EVERYTHING = re.compile(r"""\{?\s*\w+\s*=~\s*["']\.[*+]["']\s*\}?""")


# A tool that carries out the action its arguments name (`call_service(domain="lock", service="unlock")`,
# `execute_operation(service="s3", operation="delete_bucket")`, `perform_action(resource="policy",
# action="deactivate")`): what it does is told by those arguments, not by its own name. A `service` is the
# verb only where nothing else names one (Home Assistant's); beside an operation it names what is acted on.
_DISPATCHER = re.compile(
    r"^(?:call|execute|perform|run|invoke|trigger|do)_(?:[a-z0-9]+_)?(?:service|action|operation|method"
    r"|api|request)s?$|^(?:call|invoke|api_call)$"
)
_DISPATCHED_VERBS = ("action", "operation", "method", "verb", "action_name", "operation_name", "service")
_DISPATCHED_OBJECTS = ("domain", "resource", "resource_type", "kind", "service_name", "service")


def dispatched(tool: str, arguments: dict[str, object]) -> str:
    """The tool a dispatcher's call amounts to, named as a tool of its own would be (`mcp__ha__call_service
    (domain="lock", service="unlock")` is `mcp__ha__lock_unlock`), for the judgments a tool's name informs;
    any other tool, as it is."""
    if not tool.startswith("mcp__"):
        return tool
    server, _, name = tool.removeprefix("mcp__").rpartition("__")
    if not _DISPATCHER.match(words_of(name)):
        return tool
    keys = {words_of(str(k)): v.strip() for k, v in list(arguments.items())[:32] if isinstance(v, str)}
    verb_key = next((k for k in _DISPATCHED_VERBS if keys.get(k)), "")
    if not verb_key:
        return tool
    subject = next((keys[k] for k in _DISPATCHED_OBJECTS if k != verb_key and keys.get(k)), "")
    named = words_of(f"{subject}_{keys[verb_key]}"[:120])
    return f"mcp__{server}__{named}" if named else tool


def destroys_store(tool: str, arguments: dict[str, object] | None = None) -> str:
    """The words of a tool's name that destroy a store of data (`flushall`, `drop_collection`), or a
    delete-matching tool given an empty filter (`delete_many(filter={})`: every record), else ""."""
    words = words_of(tool.removeprefix("mcp__").replace("__", "_"))
    match = _DESTROYS_STORE.search(words)
    if match:
        return match.group(2)
    if _DESTROYS_MACHINE.search(words):
        return MACHINE_DESTROYED
    if _EMPTIES_TRASH.search(words):
        return TRASH_EMPTIED
    if arguments is not None and _UNDOES.search(words):
        for key, value in list(arguments.items())[:32]:  # `resources_delete(kind="Namespace", name=...)`
            if (
                words_of(str(key)) in _KIND_KEYS
                and isinstance(value, str)
                and _STORE_KIND.fullmatch(value.strip())
            ):
                return f"a delete of the {value.strip()[:40]} and all it holds"
        if any(words_of(str(k)) in _RECURSIVE_KEYS and v is True for k, v in list(arguments.items())[:32]):
            return "a recursive delete of everything under what it names"  # `delete_objects(recursive=True)`
    if _MOVES_OFFSETS.search(words):
        return OFFSETS_MOVED
    if arguments is not None and (_DELETES_MATCHING.search(words) or _UNDOES.search(words)):
        # (any delete given its filter, and left empty: `delete_data(predicate="")` over every time there is)
        filters = [v for k, v in arguments.items() if words_of(k) in _FILTER_KEYS]
        matching = _DELETES_MATCHING.search(words) is not None
        if (filters or matching) and all(v in ({}, [], "", None, "{}", *_MATCHES_ALL) for v in filters):
            return "a delete of every record (no filter)"
    for key, value in (arguments or {}).items():
        query = isinstance(value, str) and words_of(str(key)) in _QUERY_KEYS
        if query and _QUERY_DESTROYS.search(str(value)[:20000]):
            return "a query that deletes what it reaches"  # `search(query="index=auth | delete")`
    if (
        arguments is not None
        and _UNDOES.search(words)
        and any(
            isinstance(v, str)
            and (v.strip().lower() in _WILDCARDS or _MATCHES_EVERYTHING.fullmatch(v.strip()))
            for v in arguments.values()
        )
    ):  # `dns_delete_record(record="*")`, `create_refund(charge="*", amount="all")`, a selector of every
        # series (`delete_series?match[]={__name__=~".+"}`)
        return "a delete or refund of everything (a wildcard argument)"
    if (
        arguments is not None
        and _UNDOES.search(words)
        and any(
            words_of(k) in ("prefix", "path_prefix", "key_prefix") and v in ("", "/")
            for k, v in arguments.items()
        )
    ):  # `delete_objects(bucket=b, prefix="")`: every object in the bucket
        return "a delete of every object (an empty prefix)"
    if arguments is not None and any(retention_cut(k, v) for k, v in _nested_settings(arguments)):
        return RETENTION_CUT  # `alter_topic_config(configs={"retention.ms": "60000"})`
    if arguments is not None and (
        _RESETS.search(words) or (_UNDOES.search(words) and "branch" in words.split("_"))
    ):  # `delete_branch(branchId="br-main-4f2a")`, `reset_from_parent(branch="main")`: Neon's, PlanetScale's,
        # Supabase's database branches, whose main one holds production's rows (a file deleted on a branch
        # is no branch deleted)
        for key, value in list(arguments.items())[:32]:
            if "branch" in words_of(str(key)) and isinstance(value, str) and _MAIN_BRANCH.search(value[:80]):
                return f"a delete or reset of the branch {value[:40]} and the data on it"
    if arguments is not None and _DOCUMENT_DELETE.search(words):
        for key, value in arguments.items():  # `users`: a top-level collection; `users/u1`: a document
            named = words_of(key) in ("path", "document_path", "doc_path", "collection")
            if named and isinstance(value, str) and value.strip().strip("/") and "/" not in value.strip("/ "):
                return f"a delete of the whole collection {value.strip()[:60]}"
    if _DELETES_CONTAINER.search(words):  # `delete_realm(realm=acme)`, `zones_delete`, `delete_site`
        return CONTAINER_DELETED
    if arguments is not None and _UNDOES.search(words) and _deletes_wholesale(words, arguments):
        return BULK_DELETED  # `delete_page(page_id=..., cascade=true)`, `delete(key=[a, b, c, d])`
    return ""


def _deletes_wholesale(words: str, arguments: dict[str, object]) -> bool:
    """A delete told to take more than the one thing it names: everything beneath it or for good (a switch
    of `_WHOLESALE_KEYS` on), no limit (`limit=-1`), a bulk tool, or a list of three or more keys or ids."""
    if "bulk" in words.split("_"):
        return True
    for key, value in list(arguments.items())[:32]:
        name = words_of(str(key))
        if name in _WHOLESALE_KEYS and value is True:
            return True
        if name == "limit" and value in (-1, "-1", 0, "0"):
            return True
        if isinstance(value, list) and len(value) >= 3 and all(isinstance(v, str | int) for v in value):
            return True
    return False


# A retention setting's unit, by the last word of its key, and the least value that keeps data an hour: below
# it, what the stream, topic or log group holds expires as soon as it is written (0 and -1 often mean
# "forever", so only a positive value counts)
_RETENTION_HOUR = {"ms": 3_600_000, "millis": 3_600_000, "milliseconds": 3_600_000, "s": 3600, "secs": 3600}
_RETENTION_HOUR |= {"seconds": 3600, "minutes": 60, "mins": 60, "bytes": 1_048_576}


# What `destroys_store` says of a retention cut: data lost as it ages out, not a store dropped, so it asks
RETENTION_CUT = "a retention cut below an hour: what it holds expires"
# A consumer group's read positions moved (`reset_consumer_group_offsets(strategy="latest")`): what it had not
# yet processed is skipped, or what it had is processed again
OFFSETS_MOVED = "a move of a consumer group's offsets: messages skipped or read again"
_MOVES_OFFSETS = re.compile(
    r"(^|_)(?:reset|alter|set|move)_(?:[a-z0-9]+_){0,4}offsets?(_|$)|(^|_)reset_consumer_groups?(_|$)"
)


def retention_cut(key: str, value: object) -> bool:
    """`retention.ms=60000`, `{"retention_seconds": 30}`: a retention setting cut below an hour (or a
    megabyte): what the store holds is deleted almost as soon as it lands, records and audit trails too."""
    words = words_of(key)
    if "retention" not in words or isinstance(value, bool):
        return False
    limit = _RETENTION_HOUR.get(words.rsplit("_", 1)[-1])
    text = str(value).strip().strip("\"'")
    return limit is not None and text.isdigit() and 0 < int(text) < limit


# A tool that deletes documents by their path (`firestore_delete_document(path=...)`)
_DOCUMENT_DELETE = re.compile(r"(^|_)delete_(?:[a-z0-9]+_){0,8}(?:documents?|docs?)(_|$)")


# Where a program writes what it records (`maillog_file`, `log_file`, `access_log`, `audit_log_path`,
# `syslog_target`), and the places that keep nothing
_RECORDED_TO = re.compile(
    r"(?i)(?:^|[_.-])(?:\w*log|audit\w*|journal)(?:_?(?:file|path|target|dest\w*|output))?$"
)
_NOWHERE = frozenset({"/dev/null", "NUL", "nul", "NUL:"})
# Arguments that keep a control on, set off (`prevent_secrets: false`, `approvals_before_merge: 0`,
# `only_allow_merge_if_pipeline_succeeds: false`, a zone's `ssl: off`, `always_use_https: off`), and tools
# named for lifting one (`unprotect_branch`)
_CONTROL_KEYS = re.compile(
    r"protect|approv|prevent_secret|secret_(?:scanning|detection|push)|reject_unsigned|signed_commits"
    r"|pipeline_succeeds|require|enforce|verif(?:y|ication)|mfa|two_factor|2fa|audit|scanning|branch_protection"
    r"|ssl|tls|https|waf|firewall|security|encrypt|[cx]srf|logging|events_enabled|check_origin|scrub"
    # what stops a trading or payment system at once when it goes wrong
    r"|kill_?switch|circuit_?breaker"
    r"|network_?polic|admission|mtls|authorization|session_recording"
    # who may join or call at all, how often, and what signs the messages (`enable_join_access_control`,
    # `rate_limit_enabled`, MAVLink's `signing`), and what stops a machine hurting anyone (`safe_mode`,
    # `collision_avoidance`)
    r"|access_control|rate_?limit|(?:^|_)signing(?:_|$)|safe_mode|collision|(?:^|_)permissions?_(?:enabled|check)"
    # what keeps a link's traffic sealed and its peer the expected one (`spark.network.crypto.enabled`,
    # `cert_pinning_enabled`), and what keeps secrets out of what is shown (`hide_sensitive_var_conn_fields`)
    r"|(?:^|_)crypto(?:_|$)|pinning|cert_?pins?(?:_|$)|hide_sensitive|(?:^|_)redact|mask_(?:sensitive|secrets?|pii|passwords?)"
    # what caps the money an account may spend (a carrier's `daily_spend_limit_enabled`, a budget's cap)
    r"|(?:spend(?:ing)?|budget|cost|credit)_?limits?(?:_|$)"
    # what a product runs against abuse (`bEnableAntiCheat`, `anti_tamper`, `antivirus`)
    r"|anti_?(?:cheat|virus|malware|spam|tamper|debug|replay|bot|fraud|phishing)"
    # an access control list switched as a whole (Nomad's and Consul's `acl { enabled = true }`)
    r"|(?:^|_)acls?(?:_enabled?)?$"
    # a cookie sent only over TLS (`$CFG->cookiesecure`, `SESSION_COOKIE_SECURE`), a switch named for what it
    # refuses (`deny_multiple_sessions`, `block_public_uploads`, `forbid_reuse`), mandatory access control
    r"|cookie_?secure|secure_?cookie|(?:^|_)(?:deny|forbid|disallow|block|prevent|restrict)_(?!(?:\w+_)?(?:size|count"
    r"|len|length|num|number|time|timeout|ms|secs?|seconds|bytes|limit|height|width|list)(?:_|$))"
    r"|(?:^|_)(?:selinux|apparmor)(?:_|$)"
    # a device's boot and update checks (Kconfig's `CONFIG_SECURE_BOOT`, `..._DOWNGRADE_PREVENTION`)
    r"|secure_boot|flash_enc|signature|downgrade|anti_rollback|log_type|log_dest"
    # the means of recovery: backups, point-in-time restore, versions and deleted items kept
    r"|backup|point_in_time|versioning|soft_delete|azure_policy|prevent_destroy"
    # a server's checks of whom it talks to, the records it keeps, the agents that watch the host
    r"|host_?key|known_hosts|access_log|audit_log|error_log|"
    + HOST_SECURITY_AGENTS.replace("-", "_")
    # a server's asking who calls at all (`AuthenticationEnabled`, `auth_interceptor_enabled`, `auth: false`)
    + r"|(?:^|_)auth(?:enticate|entication|n)?(?:_interceptor)?(?:_(?:enabled|required|enforced|checks?))?$"
    # a shop's or a site's own defences: a captcha, a form key (its CSRF token), lockouts, fraud checks, 3-D
    # Secure, its secure (HTTPS) pages
    r"|captcha|form_?key|lockout|fraud|3d_?secure|(?:^|_)secure(?:_|$)"
    # what checks that downloaded data is what was published (a bundle's CRC, a checksum, an integrity hash)
    r"|(?:^|_)crc(?:_|$)|checksum|integrity"
    # what retires a stolen token (a refresh token's rotation, its reuse detected, revocation)
    r"|rotation|reuse_detection|revocation"
    # an app's own protections when signed: Apple's hardened runtime, library validation, its sandbox
    r"|hardened_runtime|library_validation|app_sandbox|(?:^|_)sandbox(?:ing|ed)?(?:_|$)"
    # a plant's or a machine's safety functions: interlocks and trips, alarms, emergency stops, watchdogs,
    # fail-safes, gas and fire detection, proximity stops (`methane_trip: {enabled: true}`)
    r"|interlock|(?:^|_)(?:trips?|alarms?)(?:_enabled?|_active|_armed)?$|e_?stop|emergency_?stop|watchdog|fail_?safe"
    r"|gas_?detect|fire_?detect|proximity_?(?:stop|detect|alert)"
    # a check named by what it checks (Ansible's `validate_certs`, `check_hostname`, `verify_signatures`)
    r"|(?:verify|validate|check)_(?:certs?|certificates?|hostnames?|hosts?|peers?|signatures?|tokens?|jwts?)(?:_|$)"
    # what keeps a secret out of logs and plans (Ansible's `no_log`, a CI variable's `masked`, Terraform's
    # `sensitive`): off, the next run prints it
    r"|(?:^|_)no_log$|(?:^|(?<!case)_)(?:masked|sensitive)$"
    # a destructive command kept off (Flyway's `clean-disabled`): false lets it run
    r"|(?:^|_)(?:clean|drop|delete|destroy|reset|wipe|truncate|purge)_disabled$"
    # a machine's physical safety: a vehicle's pre-arm checks, its geofence and failsafes, a robot's
    # collision monitor and emergency stop, a watchdog; and a flight log's recording, a link's signing
    # (the switch itself, at the key's end: a geofence's `inclusion: false` zone is a setting, no switch)
    r"|arming_check$|(?:^|_)(?:geo_?)?fence_(?:enabled?|action)$|failsafe\w*_enabled?$|(?:^|_)fs_\w*enable$"
    r"|collision\w*_enabled?$|safety\w*_enabled?$|(?:^|_)e_?stop\w*_enabled?$|emergency_stop\w*$"
    r"|watchdog\w*_enabled?$"
    r"|mav_sign\w*$|log_bitmask$|sdlog\w*$"
    # what tells someone a machine, a store or a system left its safe range (a freezer's `alarms_enabled`)
    r"|(?:^|\.)(?:alarms?|alerts?|alerting)_?enabled?$"
    # a payment terminal's or a device's tamper detection
    r"|(?:^|_)tamper_?(?:detection|protection|switch|response|evident)"
)
# A check's list of what it leaves out (`sonar.exclusions`, `skip_paths`, `suppress`), given a pattern that
# matches every file or finding
_LEAVES_OUT = re.compile(r"(?:^|_)(?:exclu|ignor|skip|suppress)")
_EVERY_FILE = re.compile(r"""["']?(?:\*\*?(?:/\*{1,2})?(?:\.\*)?|\.\*|/\*{0,2}|\*\.\*|\.)["']?""")
# A logger of an XML logging configuration (Logback's, Log4j 2's) set to record nothing
_LOGGER_OFF = re.compile(
    r"""(?i)<(?:root|logger|asyncroot|asynclogger)\b[^>]{0,300}?\blevel\s*=\s*["']off["']"""
    # a handler made one that drops every record (Python's `NullHandler` in a dictConfig, log4j's and
    # logback's `NullAppender`/`NOPAppender`, Serilog's and NLog's null sinks and targets)
    r"""|(?:\bclass\b|\(\)|\btype\b|\bappender\b)["']?\s*[:=]\s*["']?(?:[\w.]*\.)?(?:NullHandler|NullAppender|NOPAppender"""
    r"""|NullTarget|NullSink)\b"""
)


# Settings that say where the keys that verify tokens or signatures come from (`jwk-set-uri`, `issuer-uri`,
# `jwks_url`, a CA bundle's address)
_TRUST_SOURCE = re.compile(
    r"(?:^|_)(?:jwks?|jwk_set|issuer|trusted?|public_key|signing_keys?|verif\w*_keys?|ca_(?:cert|bundle)\w*"
    r"|openid|oidc|discovery)(?:_|$)"
)


def _trust_moved(key: str, before: str, after: str) -> str:
    """A setting naming where verification keys come from, moved from one site to another's (the tokens a
    service accepts are then whoever that site says): "" when it is not one, or it stays with its owner."""
    from limen.facts.hosts import registrable_name
    from limen.model import HostClass
    from limen.normalize import net

    if not before or not _TRUST_SOURCE.search(words_of(key.rsplit(".", 1)[-1])):
        return ""
    hosts = [
        m.group(1).lower() if (m := re.match(r"[\"']?https?://([\w.-]+)", value)) else ""
        for value in (before, after)
    ]
    if not all(hosts) or registrable_name(hosts[0]) == registrable_name(hosts[1]):
        return ""
    moved_to = net.host_destination(hosts[1])
    if moved_to.host_class is HostClass.LOOPBACK or net.organisation_network(moved_to):
        return ""  # a developer's own identity server, on this machine or the organisation's network
    return f"the keys it verifies with now come from {hosts[1]}, not {hosts[0]}"


def _beyond_cvss(value: str) -> bool:
    """A CVSS score threshold above the scale's top, 10: no finding reaches it."""
    try:
        return float(value.strip("\"'")) > 10
    except ValueError:
        return False


# Settings that weaken a server when turned on: logins by password, as root, with an empty password, or
# by anyone (`PasswordAuthentication yes`, `ssh_permit_root_login: "yes"`, `allow_anonymous true`)
_WEAK_WHEN_ON = re.compile(
    r"(?:^|_)(?:password_?authentication|permit_?root_?login|permit_?empty_?passwords?|allow_?anonymous"
    r"|anonymous_?(?:access|enabled|login|auth\w*)|challenge_?response_?authentication"
    r"|kbd_?interactive_?authentication|keyboard_?interactive_?authentication"
    # (Sentry's `send_default_pii`: every event carries the user's address, cookies and headers; a web
    # server's directory listing)
    r"|send_?default_?pii|autoindex|directory_?listing|privileged"
    # a server that answered only its own machine answering any (Orthanc's `RemoteAccessAllowed`)
    r"|remote_?access(?:_allowed|_enabled)?|allow_?remote_?access"
    # a check said, by the setting's own name, to be left out: certificates or hosts taken as they come
    # (`insecure`, `acceptAnyCertificate`, `trustAll`, `insecureSkipVerify`), a guard that lets requests
    # through when it fails (Envoy's `failure_mode_allow`, `fail_open`), Java serialization let in
    r"|insecure(?:_[a-z]+){0,3}|accept_any_[a-z_]+|trust_?all(?:_[a-z]+){0,2}|allow_insecure(?:_[a-z]+){0,3}"
    # callers or data nobody vouches for let in (`allow_unauthenticated_participants`, `allow_unsigned`)
    r"|(?:allow_?)?unauthenticated(?:_[a-z]+){0,3}|allow_?unsigned(?:_[a-z]+){0,3}"
    r"|(?:failure_mode|fail)_?(?:allow|open)|allow_java_serialization"
    # a server that takes every client's key as it comes (Salt's `auto_accept`, `open_mode`, Puppet's
    # `autosign`): any machine that asks joins, and gets the secrets its role is given
    r"|auto_?accept(?:_[a-z]+){0,2}|open_?mode|auto_?sign(?:_[a-z]+){0,2}"
    # a console or server opened to other machines (H2's `web-allow-others`, `tcp-allow-others`)
    r"|(?:web_|tcp_|pg_)?allow_others|allow_?all(?:_[a-z]+){0,2}"
    # what any peer may do, said by the setting's name (`DicomAlwaysAllowStore`, `NSAllowsArbitraryLoads`)
    r"|always_?allow(?!_empty)(?:_[a-z]+){0,2}|[a-z]*allows?_?arbitrary(?:_[a-z]+){0,2}"
    # a setting named for the safety it takes away (pnpm's `dangerouslyAllowAllBuilds`: every dependency's
    # install scripts run)
    r"|dangerously(?:_[a-z]+){1,5}|unsafe(?:_[a-z]+){1,3}"
    # a login served in plain text (Zephyr's `CONFIG_SHELL_BACKEND_TELNET`, busybox's `telnetd`)
    r"|telnetd?(?:_(?:enabled?|server|shell|backend))?"
    # a protection switched off by a setting named for doing so (Grafana's `disable_sanitize_html`): markup
    # sanitising, escaping, CSRF, brute-force and signature checks, authentication (a form hidden is none)
    r"|disable_?(?:sanitiz\w*|escap\w*|csrf\w*|xss\w*|brute_?force\w*|signature\w*|auth(?:entication|orization)?)"
    r"(?:_[a-z]+){0,2})$"
)
# Keys that name the exception to a control (`secret_detection.allow_failure`, `skip_ssl_verify`,
# `bypass_mfa`): for them `true` is the control off, and `false` keeps it
# A setting that says a task needs a privilege (Debian's `Rules-Requires-Root`, `requires_sudo`,
# `run_as_root`): off, it runs with less, no control lifted
_PRIVILEGE_NEEDED = re.compile(
    r"(?:^|_)(?:requires?|needs?|run_as)_(?:root|sudo|admin\w*|privileg\w*|elevat\w*|superuser)(?:_|$)"
)
_EXCEPTION_KEY = re.compile(
    r"(?:^|[_.])(?:allow_failure|allow_\w+|skip|ignore|bypass|exempt|disable|insecure)(?:[_.]|$)"
)
# Whatever a call may bypass, it bypasses a control (`bypassPolicy: true` on a pull request's completion), and
# the stages, checks or reviews a run is told to skip (`stagesToSkip: ["Build", "DeployStaging"]`)
_BYPASS = re.compile(
    r"(?:^|_)bypass(?:_|$)|(?:^|_)skip_(?:[a-z0-9]+_){0,8}(?:stages?|checks?|tests?|reviews?|verification|hooks?|scans?)(?:_|$)"
    r"|(?:^|_)(?:stages?|checks?|tests?)_to_skip(?:_|$)"
)
# (`n` and `y`: Kconfig's, in a Zephyr `prj.conf`, an ESP-IDF `sdkconfig`, a kernel's `.config`)
_OFF_WORDS = frozenset(
    {"false", "off", "disabled", "disable", "never", "none", "essentially_off", "n", "no", "permissive"}
)
_LIFTS = re.compile(
    r"(^|_)(?:unprotect|disable_(?:[a-z0-9]*_){0,8}(?:protection|scanning|rule|mfa|audit|logging)|mute_all"
    # a quality gate, a check or a scan taken off what it guards (`api/qualitygates/deselect`)
    r"|(?:quality_?gates?|gates?|checks?|scans?|protections?)_(?:deselect|disable|remove|delete|unset|off)"
    # an alert's rule or a monitor deleted: what would have paged no longer exists
    r"|delete_(?:[a-z0-9]+_){0,8}(?:alert_rules?|alert_?rules?|alerts?|monitors?|detectors?|alert_polic(?:y|ies)"
    r"|saved_search(?:es)?|correlation_search(?:es)?|detections?)"
    # a person's second factors reset or removed: the next sign-in enrols whoever holds the password
    r"|(?:reset|delete|remove|unenroll|clear)_(?:[a-z0-9]+_){0,8}(?:mfa|factors?|2fa|otp|totp|webauthn|authenticators?))(_|$)"
)
# Calls that keep alerts from paging for a while (a silence, a maintenance window, a mute, a snooze, a
# downtime), and what makes one a switch-off: longer than a week, or over every alert
_SILENCES = re.compile(r"(^|_)(?:silences?|mutes?|snooze|maintenance_windows?|downtimes?)(_|$)")
_SILENCE_DAYS = 7
# A silence's length by its key's unit (`duration_minutes`, `duration_hours`; a bare `duration` in minutes,
# as PagerDuty's, Datadog's and Opsgenie's tools take it)
_DURATION = re.compile(r"^duration(?:_in)?(?:_(seconds|minutes|hours|days))?$")
_SECONDS_IN = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}
_EVERY_ALERT = frozenset({".*", ".+", "*", "~.*", "~.+"})
_SILENCE_SCOPE_KEYS = frozenset({"value", "scope", "monitor_tags", "tags", "matchers", "monitor_id"})
# Servers that watch and page (their `status: disabled` is the watching switched off)
_MONITORING = re.compile(
    r"(^|_)(?:pagerduty|opsgenie|grafana|alertmanager|datadog|sentry|newrelic|new_relic|splunk|prometheus"
    r"|victorops|incident_?io|betterstack|uptime_?kuma|statuspage)(_|$)"
)
# A tool named for alerting, and the settings that say whom an alert reaches
_ALERTING = re.compile(r"(?:^|_)(?:alerts?|alerting|escalations?|notifications?|monitors?|alarms?)(?:_|$)")
_ALERT_TARGETS = frozenset(
    {"notify", "rules", "escalation_rules", "targets", "recipients", "contacts", "channels", "receivers"}
    | {"notification_channels", "notify_emails", "subscribers", "on_call", "responders"}
)
# Permissions that give whoever holds them every record or the administration of an org (Salesforce's)
_EVERY_RECORD_PERMISSIONS = frozenset(
    {"view_all_data", "modify_all_data", "manage_users", "author_apex", "customize_application"}
    | {"manage_internal_users", "view_all_users", "modify_metadata"}
)
# Settings of a watching server that stop its alerts while true
_PAUSED = frozenset({"is_paused", "paused", "pause", "is_muted", "muted", "mute", "snoozed", "is_snoozed"})
# A paging service's calls that stop it paging: an integration or a service disabled, an on-call schedule,
# an escalation or a rotation deleted
_UNPAGED = re.compile(
    r"(^|_)(?:disable_(?:[a-z0-9]+_){0,8}(?:integrations?|services?|heartbeats?|policy|policies)"
    r"|delete_(?:[a-z0-9]+_){0,8}(?:schedules?|escalations?|escalation_polic(?:y|ies)|rotations?|on_?calls?|integrations?))(_|$)"
)
# What guards a tenant or a host (a sign-on or password policy, an audit trail, a log stream, a detection
# rule, a sensor, a firewall), and the words that switch one off wherever they stand in a call's name: an MCP
# tool's `deactivate_policy`, a REST request's `POST /api/v1/logStreams/{id}/lifecycle/deactivate` (a mute or
# a silence, which lasts a while, is `_SILENCES`'s to judge by how long)
_GUARDS = (
    r"(?:sign_on_|password_|mfa_|authentication_|access_|security_|network_|retention_)?polic(?:y|ies)"
    r"|log_?streams?|logging|audit(?:_logs?|_trails?)?|trails?|flow_logs?|detections?|detectors?|detection_rules?"
    r"|alert_rules?|monitors?|sensors?|waf|firewalls?|mfa|factors?|authenticators?|network_zones?|threat_\w+"
    r"|guard_?duty|guardrails?|scanners?|scanning|protections?|behaviou?rs?|rules?|rulesets?|alerts?"
    r"|saved_search(?:es)?|correlation_search(?:es)?"
)
_SWITCHED_OFF = re.compile(
    rf"(?:^|_)(?:deactivate|disable|suspend|pause|stop)_(?:[a-z0-9]+_){{0,8}}(?:{_GUARDS})(?:_|$)"
    rf"|(?:^|_)(?:{_GUARDS})_(?:[a-z0-9]+_){{0,8}}(?:deactivate|disable|suspend|pause|stop|off)$"
    # a building's physical safeguards: an alarm disarmed, a door's lock opened (`alarm_control_panel.
    # alarm_disarm`, `lock.unlock` in Home Assistant's words)
    r"|(?:^|_)(?:alarm_)?disarm(?:_|$)|(?:^|_)locks?_(?:[a-z0-9]+_){0,2}unlock(?:_|$)"
    # (and a vehicle's or a door's lock opened from afar: `remote_unlock`, `unlock_doors`)
    r"|(?:^|_)(?:remote_unlock|unlock_(?:doors?|vehicles?|cars?|all))(?:_|$)"
)
_GUARD_RESOURCE = re.compile(rf"(?:^|_)(?:{_GUARDS})(?:_|$)")
# The records of what was done (logs and their archives, audit events, trails, session recordings), erased
# (and the accounting a RADIUS or TACACS server keeps of who was connected, and when)
_RECORDS = (
    r"logs?|log_groups?|audit(?:_logs?|_events?|_trails?)?|trails?|(?:session_)?recordings?|flow_logs?"
    r"|accounting(?:_records?)?|recorders?|history"
)
_ERASES_RECORDS = re.compile(
    rf"(?:^|_)(?:delete|remove|purge|destroy|wipe|clear|erase)_(?:[a-z0-9]+_){{0,8}}(?:{_RECORDS})(?:_|$)"
    rf"|(?:^|_)(?:{_RECORDS})_(?:[a-z0-9]+_){{0,8}}(?:delete|remove|purge|destroy|wipe|clear|erase)$"
)
# A call that sets what opens something (a branch's or a room's password, a PIN), and its argument
_SETS_PASSWORD = re.compile(
    r"(?:^|_)(?:set|update|change|create|put)_(?:[a-z0-9]+_){0,4}(?:password|passcode|pin)s?$"
)
_PASSWORD_KEY = re.compile(r"(?:^|_)(?:password|passcode|pin|passphrase)$")
# A guard's state set to one in which it no longer acts, and the actions that set it so
_INACTIVE = _OFF_WORDS | {"inactive", "deactivated", "suspended", "paused", "stopped"}
_ACTION_KEYS = frozenset({"action", "action_name", "operation", "op"})
_OFF_ACTIONS = frozenset({"disable", "deactivate", "suspend", "pause", "stop"})
# What a resource's protection stops (`change_protection(delete=false)`), by the argument naming it
_PROTECTED_ACTIONS = frozenset({"delete", "deletion", "rebuild", "destroy", "termination", "remove"})
# Resources whose entries are roles given to someone (Okta's `users/{id}/roles`, Keycloak's `role-mappings`,
# Azure's `roleAssignments`), where a body's `type` or `name` is the role; and calls named for making someone
# an administrator (Google's `users/{key}/makeAdmin`, Slack's `admin.users.setAdmin`)
_ROLE_RESOURCE = re.compile(
    r"(?:^|_)(?:roles?|role_mappings?|role_assignments?|admin_roles?|privileges?)(?:_|$)"
)
_ROLE_KEYS = frozenset({"role", "roles", "permission", "permissions"})
_ROLE_NAME_KEYS = frozenset({"type", "name", "label", "value", "id", "role_definition_id", "role_ref"})
_MAKES_ADMIN = re.compile(
    r"(?:^|_)(?:make|set|promote|grant|add)_(?:[a-z0-9]+_){0,8}(?:admins?|administrators?|superusers?|super_admins?)$"
)
# A policy document's text that allows everything: Vault's every path (`path "*"`) or its `sudo`
# capability, an IAM statement allowing every action (`"Effect": "Allow", "Action": "*"`)
_ALLOWS_EVERYTHING = re.compile(
    r"""\bpath[ \t]+["']\*["'][ \t]*\{|\bcapabilities[ \t]*=[ \t]*\[[^\]]{0,200}["']sudo["']"""
    # AWS's own policies that allow everything, or every IAM action (which grants the rest), attached
    r"""|\barn:aws:iam::aws:policy/(?:AdministratorAccess|IAMFullAccess)\b"""
)
# A statement's actions naming every action, or every IAM action (which grants itself the rest), as JSON,
# YAML or HCL write it (`"Action": "*"`, `"Action": ["s3:Get*", "*"]`, `Action:\n  - '*'`, `actions =
# ["iam:*"]`); and the statement's effect, Allow unless it says Deny (HCL's policy documents default to it)
_EVERY_ACTION = re.compile(
    r"""(?i)(?<![\w-])["']?actions?["']?[ \t]*[:=][ \t]*(?:["'](?:\*|iam:\*)["']"""
    r"""|\[[^\]]{0,2000}?["'](?:\*|iam:\*)["']|(?:\n[ \t]*-[ \t]*["']?[\w:*-]+["']?[ \t]*){0,40}?"""
    r"""\n[ \t]*-[ \t]*["'](?:\*|iam:\*)["'])"""
)
_DENY_EFFECT = re.compile(r"""(?i)["']?effect["']?[ \t]*[:=][ \t]*["']?deny\b""")
# Kubernetes' RBAC: a rule of every verb on every resource (`verbs: ["*"]` beside `resources: ["*"]`, a
# kubebuilder marker's `resources=*,verbs=*`), and the administrator roles bound to every signed-in or
# anonymous caller
_EVERY_VERB = re.compile(
    r"""(?i)\bverbs["']?[ \t]*:[ \t]*(?:\[[^\]]{0,200}?["']\*["']|\n[ \t]*-[ \t]*["']\*["'])"""
)
_EVERY_RESOURCE = re.compile(
    r"""(?i)\bresources["']?[ \t]*:[ \t]*(?:\[[ \t]*["']\*["']|\n[ \t]*-[ \t]*["']\*["'])"""
)
_EVERY_VERB_MARKER = re.compile(
    r"\+kubebuilder:rbac:[^\n]*\bresources=\*[^\n]*\bverbs=\*|\+kubebuilder:rbac:[^\n]*\bverbs=\*[^\n]*\bresources=\*"
)
_ADMIN_ROLE_NAMED = re.compile(r"""(?<![\w-])["']?cluster-admin["']?(?![\w-])""")
_EVERY_CALLER = re.compile(
    r"system:(?:un)?authenticated\b|system:anonymous\b|system:serviceaccounts(?![:\w])"
)


def _may_federate(text: str) -> bool:
    """The text holds a wildcard an open federated trust is written with (`"repo:*"`, `'*'`)."""
    return '"*' in text or "'*" in text or "repo:*" in text


def policy_allows_everything(text: str) -> bool:
    """A policy document in `text` with a statement that allows every action: a Vault path `"*"` or its
    `sudo` capability, an IAM (or IAM-shaped) statement of `*` or `iam:*` not marked Deny, a Kubernetes role
    of every verb on every resource, or its administrator role bound to every caller. The statement is the
    text from the opening brace or list item before its actions to the closing brace after them."""
    quoted_star = '"*"' in text or "'*'" in text or ":*" in text or "=*" in text  # (most texts hold none)
    if (quoted_star or "sudo" in text or "Access" in text) and _ALLOWS_EVERYTHING.search(text):
        return True
    if "+kubebuilder:rbac" in text and _EVERY_VERB_MARKER.search(text):
        return True
    for match in _EVERY_VERB.finditer(text) if quoted_star else ():  # a role's rule: the item with its verbs
        start = max(
            text.rfind("\n-", 0, match.start()), text.rfind("{", 0, match.start()), match.start() - 400
        )
        if _EVERY_RESOURCE.search(text, max(start, 0), match.end() + 400):
            return True
    if (
        "cluster-admin" in text
        and (called := _ADMIN_ROLE_NAMED.search(text))
        and _EVERY_CALLER.search(text, max(0, called.start() - 800), called.end() + 800)
    ):  # `cluster-admin` bound to `system:authenticated`
        return True
    for match in _EVERY_ACTION.finditer(text) if quoted_star else ():
        start = max(text.rfind("{", 0, match.start()), text.rfind("\n-", 0, match.start()), 0)
        start = max(start, match.start() - 600)
        end = text.find("}", match.end())
        statement = text[start : match.end() + 600 if end < 0 else min(end, match.end() + 600)]
        if not _DENY_EFFECT.search(statement):
            return True
    return False


# Arguments that grant a level of access, and the levels that administer (GitLab's 40 and 50; the words)
_ACCESS_KEYS = frozenset(
    {"access_level", "role", "permission", "permissions", "level", "base_role", "rolename", "role_name"}
    | {"role_type", "roles", "role_id"}
    | {"policies", "policy", "token_policies", "policy_name"}  # Vault's, Consul's and Nomad's
    | {"policy_arn", "policy_arns", "role_arn"}  # AWS's managed policies, by their ARN
    | {"attach_policies", "attached_policies", "managed_policies", "managed_policy_arns", "policy_arn_list"}
)
_ADMIN_LEVELS = re.compile(
    # (a scope before it and a degree in front: `org:admin`, `superadmin`, `super_admin`, `roles/owner`)
    # (an ARN's path: `arn:aws:iam::aws:policy/AdministratorAccess`)
    r"^(?:[\w.:-]*[:/])?(?:super[_-]?|global[_-]?|org[_-]?)?"
    r"(?:40|50|owner|admin|administrator|maintain|maintainer|manage|write_all|push|write|root|contributor|editor"
    r"|global-management|management|realm-admin|cluster-admin|super[_-]?users?|sysadmin|administrator_?access"
    r"|power_?user_?access|iam_?full_?access)$"
    # an administrator of any part, by its last word (`SYSTEM_ADMIN`, `tenant-owner`, `billing_administrator`;
    # Okta's `READ_ONLY_ADMIN` only looks)
    r"|^(?:[\w.:-]*[:/])?(?!read[_-]?only)(?:[a-z0-9]+[_-]){1,3}(?:admin|administrator|superuser|owner)s?$",
    re.I,
)
_GRANTS = re.compile(r"(^|_)(?:add|invite|grant|assign|create|update|set|write|put|apply|attach|bind)(_|$)")
# Settings that say which sites or addresses are let in, set to any (`redirectUris=["*"]`, `allowed_origins:
# "*"`)
_ALLOW_LIST_KEYS = re.compile(
    r"redirect|origin|allowed_hosts|trusted_(?:hosts|proxies)|cors|cidr|source_ranges|allowed_ips|ip_allow"
    r"|remote_ip_prefix|address_prefix"  # OpenStack's and Azure's security rules
    # the networks a server trusts to relay or to say who the client is (Postfix's `mynetworks`, nginx's
    # `set_real_ip_from`)
    r"|mynetworks|trusted_networks|real_ip_from"
)
_CLAIM_KEYS = frozenset({"claim", "claims", "custom_claims", "custom_user_claims"})


_PRIVATE = re.compile(r"(^|_)private(_|$)")
_PUBLIC = re.compile(
    r"(^|_)(?:public|publicly|anonymous|everyone|anyone|for_all|all_users|all_pipelines|sign_up|signup"
    r"|self_registration|open_registration"
    # (anyone let make an account: Keycloak's `registrationAllowed`, Synapse's `enable_registration`)
    r"|registration_allowed|allow_registration|enable_registration|registration_enabled)(_|$)"
)
_KEEPS_OUT = re.compile(r"block|restrict|deny|prevent|disable")  # `block_public_access`: a protection
_ON_WORDS = frozenset({"true", "enabled", "enable", "on", "yes", "allow", "y"})
_ON_OR_ONE = _ON_WORDS | {"1"}  # (a switch written as a number: Vault's `tls_disable = 1`)
# Features that open a system when listed (a Yocto image's `debug-tweaks`, `allow-empty-password`)
_WEAK_FEATURES = re.compile(
    r"(?i)(?<![\w-])(?:(?:allow|permit)[-_]?(?:empty[-_]?passwords?|root[-_]?login)|debug[-_]tweaks"
    r"|empty[-_]root[-_]password)(?![\w-])"
    # (a server's setting of that name keeping it shut is no such feature: `PermitRootLogin no`)
    r"(?![ \t]*[=:]?[ \t]*[\"']?(?:no|false|off|prohibit-password|without-password|forced-commands-only)\b)"
    # an account made with a password hash written in (`useradd -p '$6$...'`): whoever wrote it logs in
    r"|\b(?:useradd|usermod)\s(?:[^;\n\"]{0,120}\s)?-p\s+['\"]?\\?\$[1256aby]"
)
# A container's namespaces shared with the host it runs on (compose's `network_mode: host`, `pid: host`)
_HOST_NAMESPACE_KEYS = frozenset({"network_mode", "pid", "ipc", "userns_mode", "uts"})


def _opens_to_everyone(key: str, value: object) -> bool:
    """A setting that makes what it names public (`private: false`, `enablePrivateCluster: false`,
    `publicly_accessible: true`, `anonymous_pull_enabled: true`), not one that keeps the public out."""
    if _KEEPS_OUT.search(key):
        return False
    if key.endswith("tenant_id") and isinstance(value, str):  # Entra ID: any organisation's or person's
        return value.strip().lower() in ("common", "organizations", "consumers")
    if _PRIVATE.search(key):
        return _off(value, counts=False)
    if _PUBLIC_NAMESPACE.match(key) and not _ACCESS_NOUN.search(key):
        return False  # `PUBLIC_FEATURE_NEW_PRICING=true`: a variable the pages may read, no access opened
    on = value is True or (isinstance(value, str) and value.strip().lower() in _ON_WORDS | _ACCESS_WORDS)
    if isinstance(value, list) and value:  # `anonymous: ["view", "export"]`: what anyone may do, listed
        on = all(isinstance(v, str) and v.strip().lower() in _ACCESS_WORDS | _ACTIONS_GRANTED for v in value)
    return bool(_PUBLIC.search(key)) and on


# The frameworks' prefix for variables the browser's code may read (SvelteKit's `PUBLIC_`, `NEXT_PUBLIC_`,
# `EXPO_PUBLIC_`), and the nouns of what a setting named for the public opens (access, a bucket, a network)
_PUBLIC_NAMESPACE = re.compile(r"(?:next_|expo_|nuxt_|vite_|gatsby_)?public_", re.IGNORECASE)
_ACCESS_NOUN = re.compile(
    r"(?i)(?:^|_)(?:access|read|write|acl|visibility|network|bucket|link|share|sharing|listing|endpoint|ip)s?(?:_|$)"
)


# What a permission lets its holder do, as services list them (`["view", "export"]`)
_ACTIONS_GRANTED = frozenset(
    {"view", "export", "download", "comment", "list", "get", "create", "delete", "upload", "admin", "manage"}
)
# An access level as services spell it (`public_access: "read_and_write"`, `anonymous: "reader"`)
_ACCESS_WORDS = frozenset(
    {"read", "write", "read_write", "read_and_write", "readwrite", "read_only", "reader", "writer", "edit"}
    | {"comment", "view", "full", "full_access", "public_read", "public_read_write", "container", "blob"}
)


# The groups that make a member an administrator (or root by another name: the container engine's, the
# disk's)
_ADMIN_GROUPS = frozenset(
    {"wheel", "sudo", "admin", "root", "docker", "lxd", "disk", "shadow", "administrators"}
)
# A file's permission bits, and the words that say a file holds a secret
_MODE_KEYS = frozenset({"mode", "file_mode", "default_mode", "defaultmode", "permissions", "perms"})
_SECRET_WORDS = re.compile(r"(?i)secret|passw|token|credential|private|\.pem\b|\.key\b|sops|vault")


# A sudo rule of every command without a password, as sudoers writes it or a configuration spells it
# (NixOS's `extraRules`, Ansible's and cloud-init's `sudo:` lines): `ALL` and `NOPASSWD` within one rule
_PASSWORDLESS_ROOT = re.compile(
    r"""NOPASSWD\s*:?\s*["']?\s*ALL\b|\bcommands?["']?\s*[:=]\s*["']ALL["'][^\n]{0,80}?\bNOPASSWD\b"""
)
# Settings that say how updates or artifacts are signed or verified (Expo's `codeSigningCertificate`, a
# `signing_key`, a `verification_key`)
_SIGNING_SETTING = re.compile(
    r"^(?:code_?signing_\w+|signing_(?:key|cert\w*|identity)|verification_key|signature_?verification)$"
)
_GROUPS_SETTING = re.compile(
    r"(?im)^[ \t]*-?[ \t]*[\"']?(?:extra_?groups|groups|supplementary_groups|secondary_groups)[\"']?"
    r"[ \t]*[:=]"
    r"(.*(?:\n[ \t]*-[ \t]*\S.*){0,12})"
)


def _admin_groups(text: str) -> set[str]:
    """The administrators' groups a configuration puts its users in (`extraGroups = [ "wheel" ];`, a YAML
    `groups:` list)."""
    return {
        w.lower()
        for m in _GROUPS_SETTING.finditer(text[:MAX_SETTINGS_TEXT])
        for w in re.findall(r"[\w-]+", m.group(1))
    } & _ADMIN_GROUPS


def _opened_to_all(old: str, new: str) -> bool:
    """An octal mode that gave others nothing (`0400`, `0640`) made one they can read (`0444`, `0644`)."""
    before, after = old.strip("\"' "), new.strip("\"' ")
    if not re.fullmatch(r"0?[0-7]{3,4}", before) or not re.fullmatch(r"0?[0-7]{3,4}", after):
        return False
    return int(before[-1]) & 4 == 0 and int(after[-1]) & 4 != 0


# A control named with a word that says it is off when set (`csrf_disabled`, `disable_audit`, `no_verify`)
_NEGATED = re.compile(r"(?:\w+_)?(?:disabled?|no|override|bypass|skip|ignore|suppress)_(\w+)|(\w+)_disabled?")


def setting_weakens(key: str, value: str) -> bool:
    """A setting given one value alone (a `-Dkey=value` property, an environment variable) that takes a
    check away: named for what weakens when on and set on (`maven.wagon.http.ssl.insecure=true`), or named
    for a control and set off (`verify_ssl=false`)."""
    word = words_of(key.rsplit(".", 1)[-1])
    negated = _NEGATED.fullmatch(word)
    if _WEAK_WHEN_ON.search(word) or _EXCEPTION_KEY.search(word) or negated:
        if negated:
            control = _CONTROL_KEYS.search(negated.group(1) or negated.group(2))
            return control is not None and value.strip("\"' ").lower() in _ON_OR_ONE
        return _on(value)
    words = words_of(key)
    return (
        bool(_CONTROL_KEYS.search(words))
        and not _PRIVILEGE_NEEDED.search(words)
        and _off(value, counts=False)
    )


def _on(value: str) -> bool:
    """`yes`, `"true"`, `on`: a switch's value that turns it on."""
    return value.strip("\"'").lower() in _ON_WORDS


def _off(value: object, *, counts: bool) -> bool:
    """`false`, `"disabled"`, `"never"`, a switch's `"0"` (`config:set admin/captcha/enable 0`); a number
    zero only where the value counts something (approvals)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return counts and value == 0
    return isinstance(value, str) and (value.strip().lower() in _OFF_WORDS or value.strip() == "0")


CONTROL_OFF = "control-off:"  # the normaliser's notes for such a call, with what it does
ADMIN_GRANTED = "admin-granted:"
MADE_PUBLIC = "made-public:"
BRANCH_DELETED = "default-branch-deleted:"
# Calls that change what exists (`update_repo_settings`, `push_to_hub`): one given `private=False` or
# `visibility="public"` opens what it names to everyone (creating a new public thing is not judged here)
_OPENS = re.compile(r"(^|_)(?:update|set|change|edit|patch|push|upload|publish)(_|$)")
# Calls that take a file and send it somewhere (`upload_file`, `wandb.save`, `push_file`, `add_attachment`)
SENDS_FILES = re.compile(r"(^|_)(?:upload|push|save|send|put|publish|attach|share|log_artifact)(_|$)")


# A setting as config files and code write it: `key: value`, `key = value`, `"key": value`, `key => value`,
# `config.force_ssl = false` (the value up to a quote, comma, bracket or space); a section that opens below
# it (`ssl:`, `"ssl": {`, `acl {`)
# (a value Nix sets through a priority, `lib.mkForce false`, `mkDefault 5`, is that value)
# systemd-tmpfiles' lines that remove a path and what is under it (`R`, `r`), in a tmpfiles.d file or NixOS's
# `systemd.tmpfiles.rules`; the folders that are scratch space by design
_TMPFILES_REMOVAL = re.compile(r"""(?m)(?:^|["'\[])[ \t]*[Rr]!?[ \t]+(/[^\s"']+)""")
_SCRATCH_ROOTS = ("/tmp", "/run", "/var/tmp", "/var/cache", "/dev/shm", "/var/run")
# An administrator's password as a setting names it (`users.users.root.initialPassword`, `admin.password`);
# a hash or a file of it (`hashedPassword`, `passwordFile`) is none
_ADMIN_PASSWORD_KEY = re.compile(
    r"(?i)(?:^|\.)(?:root|admin|administrator|superuser)\.(?:initial_?)?password$"
)
# A server's or a logger's level, and the levels at which it records nothing
_LOG_LEVEL_KEY = re.compile(r"(?:\w+_)?log_?level|log(?:ging)?_level|verbosity")
_SILENT_LEVELS = frozenset({"quiet", "off", "none", "silent", "disabled", "disable"})
_SETTING_IN_TEXT = re.compile(
    r"""(?<![\w.])["']?([A-Za-z_][\w.-]{1,60})["']?\s*(?:=>|:=|=|:)(?!=)\s*"""
    r"""(?:(?:lib\.)?mk(?:Force|Default|OptionDefault|Override[ \t]+\d+)[ \t]+)?"""
    r"""["']?([^"',\s{}\[\])#;]{1,40})"""
)
_XML_SETTING = re.compile(r"<([A-Za-z_][\w.-]{0,60})>[ \t]*([^<\s][^<]{0,39}?)[ \t]*</\1>")
# (each gap's spaces belong to one place: a run of spaces before a word costs one pass, not a cube of them)
_SECTION = re.compile(r"""["']?([A-Za-z_][\w.-]{0,60})["']?[ \t]*(?:[:=][ \t]*)?(?:[{\[][ \t]*)?$""")
_DENIES = frozenset({"deny", "reject", "block", "drop", "denied"})
# A guard's modes: one that refuses, and ones that only watch, log or let by
_ENFORCING = frozenset({"enforcing", "enforce", "enforced", "prevention", "prevent", "blocking", "strict"})
_NOT_ENFORCING = frozenset(
    {"permissive", "disabled", "off", "audit", "detection", "detect", "dryrun", "dry_run", "warn", "monitor"}
    | {"log", "log_only", "logonly", "report", "report_only", "none"}
)
_DOWNGRADED = re.compile(r"(?i)https://")
_LOCAL_URL = re.compile(
    r"(?i)http://(?:localhost|127\.|0\.0\.0\.0|\[::1\]|[\w.-]+\.(?:local|localhost|test)\b)"
)
_ALLOWS = frozenset({"allow", "accept", "permit", "allowed"})
# An access policy's setting, the policies that ask for a sign-in, and an ORM's schema action that drops
# what is there when the application starts (Hibernate's `create-drop`, Quarkus' `drop-and-create`)
_POLICY_KEY = re.compile(r"(?i)(?:^|[._-])policy$")
# A setting that names the origins a server lets call it (`quarkus.http.cors.origins`, `allowedOrigins`)
_ORIGINS_NAME = r"(?:cors[\w.-]*origins?|allow(?:ed)?[_-]?origins?)"
_ORIGINS_KEY = re.compile(rf"(?i){_ORIGINS_NAME}$")
_EVERY_ORIGIN = frozenset({"*", "/.*/", ".*", "/.+/", ".+", "/^.*$/"})
_CREDENTIALS_ON = re.compile(r"(?i)allow[_-]?credentials[\"']?\s*[:=]\s*[\"']?true")
_REQUIRES_LOGIN = frozenset({"authenticated", "authenticate", "roles", "role", "authorized", "deny"})
_SCHEMA_ACTION = re.compile(
    r"(?i)(?:database[._-]generation|ddl[._-]auto|hbm2ddl[._-]auto|schema[._-]generation\S*action)$"
)
_DROPS_SCHEMA = re.compile(r"drop-and-create|drop_and_create|create-drop|create_drop|drop|create")
# Files, and sections of a file, whose settings are a test's, an example's or a developer machine's
_NOT_DEPLOYED = prefiltered(
    r"(?:^|/)(?:tests?|spec|specs|__tests__|fixtures|examples?)/|[._-](?:test|spec)\.\w+$"
)
# A developer's own settings, named for this machine or a test run (`settings/local.py`, `config/dev.exs`,
# `application-local.yml`, `appsettings.Development.json`, `.env.local`): what they switch stays here
_DEVELOPER_SETTINGS = re.compile(
    r"(?i)(?:^|[/._-])(?:local|dev|development|test|testing)\.(?:py|exs|rb|ya?ml|json|js|ts|php|toml|properties)$"
    r"|(?:^|/)Debug\.xcconfig$"  # (an Xcode project's debug build settings: never shipped)
    r"|/\.env\.(?:local|dev|development|test)$"  # (Yocto's `conf/local.conf` builds the image: not here)
    # an environment's own folder (`inventories/dev/group_vars/all.yml`, `overlays/local/...`)
    r"|/(?:inventor(?:y|ies)|environments?|envs?|overlays|stages|deploy(?:ments)?|clusters)"
    r"/(?:dev|development|local)/"
)
# (and Android's debug build type: `buildTypes { debug { isDebuggable = true } }` is never shipped)
_LOCAL_SECTION = re.compile(
    r"(?:^|\.)(?:dev|development|test|testing|local)(?:\.|$)|(?:^|\.)build_?types\.debug(?:\.|$)",
    re.IGNORECASE,
)
MAX_SETTINGS_TEXT = 20_000


def _settings(text: str, spaced: bool = False, xml: bool = False) -> dict[str, str]:
    """Each setting of a config file or program by its dotted path (`ssl.enabled`, `production.sslmode`),
    sections read by their indentation (YAML, pretty-printed JSON, HCL blocks) or their INI headers; in a
    server's configuration written `Key value` (`spaced`: sshd's, nginx's, HAProxy's, logrotate's), each
    line's first word and value too, and a control's word followed by an off word anywhere in a line
    (HAProxy's `server app1 10.0.0.5:443 ssl verify none`); in an XML configuration file (`xml`), each
    element's attributes by the element's name (a page's or a component's markup is no configuration)."""
    found: dict[str, str] = {}
    seen: dict[str, int] = {}
    if "is not set" in text:  # Kconfig's way of writing an option off (`# CONFIG_SECURE_BOOT is not set`)
        text = _KCONFIG_UNSET.sub(r"\1=n", text)
    for above, line, _item in _lines_in_sections(text, blocks=spaced):
        if spaced and _narrow(".".join(above)):
            continue  # `location /healthz { access_log off; }`: one path's, not the server's
        line = _ANNOTATED.sub(r"\1 =", line)  # `ttl_seconds: int = 900`: the value, not the type
        for key, value in _SETTING_IN_TEXT.findall(line):
            found[".".join([*above, key])] = value
        for outer, inner in _INLINE_OBJECT.findall(line):  # `rateLimit: { enabled: true }`: rateLimit's
            for key, value in _SETTING_IN_TEXT.findall(inner):
                found[".".join([*above, outer, key])] = value
        if "</" in line:  # an XML element that holds a value (Maven's `<failBuildOnCVSS>7</failBuildOnCVSS>`)
            for key, value in _XML_SETTING.findall(line):
                found[".".join([*above, key])] = value
        if xml and "=" in line and (element := _XML_OPENING.search(line)):
            # an element's attributes, named with it (`<Auth enabled="false"/>` is `Auth.enabled`)
            for key, value in _XML_ATTRIBUTE.findall(element.group(2)):
                found[".".join([*above, element.group(1), key])] = value
        if spaced and (plain := _SPACED_SETTING.match(line)):
            path = ".".join([*above, plain.group(1)])
            seen[path] = count = seen.get(path, 0) + 1
            if count > 1:  # a key each section of a flat file repeats (mosquitto's per-listener settings)
                path = ".".join([*above, f"#{count}", plain.group(1)])
            found.setdefault(path, plain.group(2))
        if spaced:
            for key, value in _SPACED_OFF.findall(line):
                if _CONTROL_KEYS.search(words_of(key)):
                    found.setdefault(".".join([*above, key]), value)
    if "</" in text:  # a setting written as a name element and a value element (Hadoop's `<property>`,
        # a servlet's `<context-param>`): the name is the key
        for _tag, key, value in _XML_NAMED_VALUE.findall(text[:MAX_SETTINGS_TEXT]):
            found[key] = value
    return found


# A typed field with its default (Python's `ttl_seconds: int = 900`, `mode: Literal["a"] = "a"`)
_ANNOTATED = re.compile(
    r"^([ \t]*[A-Za-z_]\w*)[ \t]*:[ \t]*[A-Za-z_][\w.]*(?:\[[^\]\n]{0,60}\])?[ \t]*=(?!=)"
)
# An object written on one line as a setting's value (`rateLimit: { enabled: false, max: 5 }`)
_INLINE_OBJECT = re.compile(r"""["']?([A-Za-z_][\w-]{0,60})["']?\s*[:=]\s*\{([^{}\n]{1,400})\}""")
_XML_OPENING = re.compile(r"<([A-Za-z][\w:.-]{0,40})\s+([^<>]{1,400})")
_XML_ATTRIBUTE = re.compile(r"""([A-Za-z_][\w:.-]{0,40})\s*=\s*["']([^"'<>]{0,40})["']""")
_XML_NAMED_VALUE = re.compile(
    r"<((?:param-)?name|key)>\s*([\w.:-]{1,80})\s*</\1>\s*<(?:param-)?value>\s*([^<\s][^<]{0,39}?)\s*</(?:param-)?value>"
)
_INI_HEADER = re.compile(r"\[([\w .:@/-]{1,60})\]")
# Servers' configuration files written `Key value` (no `=` or `:` between), by their names
_SPACED_CONFIG = prefiltered(
    r"(?:^|/)(?:sshd?_config[^/]*|[^/]*nginx[^/]*|[^/]*haproxy[^/]*|[^/]*logrotate[^/]*|[^/]*\.conf"
    r"|[^/]*\.cfg|sshd_config\.d/[^/]*)(?:\.j2|\.tmpl|\.erb|\.tpl)?$|(?:^|/)logrotate\.d/[^/]+$"
    # a vehicle's parameter file (ArduPilot's `.parm`, QGroundControl's `.params`): `NAME value` lines
    r"|\.parm$|\.params$"
)


_KCONFIG_UNSET = re.compile(r"(?m)^#[ \t]*(CONFIG_\w+) is not set[ \t]*$")


def writes_a_setting(text: str) -> bool:
    """The text may set something: a `key: value` or `key = value`, or an XML element's value
    (`<failBuildOnCVSS>7</failBuildOnCVSS>`); a server's `Key value` file is `spaced_config`'s."""
    return ":" in text or "=" in text or "</" in text or _KCONFIG_UNSET.search(text) is not None


def spaced_config(path: str) -> bool:
    """A server's configuration file written `Key value` (sshd's, nginx's, HAProxy's, logrotate's)."""
    return _SPACED_CONFIG.search(path) is not None


_SPACED_SETTING = re.compile(r"([A-Za-z_][\w.-]{1,60})[ \t]+(?![=:])(\{\{[^{}]{0,60}\}\}|[^\s;#{}\"']{1,40})")
_SPACED_OFF = re.compile(r"(?<![\w.-])([A-Za-z_][\w-]{1,40})[ \t]+(none|off|false|no|disabled?)(?![\w.-])")


def _lines_in_sections(text: str, blocks: bool = False) -> Iterator[tuple[list[str], str, str]]:
    """Each line of a config file or program that is no section's heading, with the sections above it read
    by their indentation (YAML, pretty-printed JSON, HCL blocks): (their names, the line, "") for a line,
    (their names, "", the value) for a YAML list's bare item (`- 0.0.0.0/0`), which belongs to the key
    above it even at that key's indentation. With `blocks` (a server's `Key value` configuration), a block
    opened with an argument is a section too, named with it (`location /healthz {`)."""
    sections: list[tuple[int, str]] = []
    for raw in text[:MAX_SETTINGS_TEXT].splitlines():
        stripped = raw.strip()
        if not stripped or stripped.startswith(("#", "//", "}", "]")):
            continue
        indent = len(raw) - len(raw.lstrip())
        item = _LIST_ITEM.match(stripped)
        if item:
            yield [name for _, name in sections], "", item.group(1)
            continue
        header = _INI_HEADER.fullmatch(stripped)
        if header:  # `[sshd]`, `[defaults]`: every line below belongs to it, whatever its indentation
            sections = [(-1, header.group(1))]
            continue
        stripped = stripped.removeprefix("- ")  # `- ipBlock:`: an item that opens a section
        while sections and sections[-1][0] >= indent:
            sections.pop()
        section = _SECTION.fullmatch(stripped)
        if section and section.group(1):
            sections.append((indent, section.group(1)))
            continue
        block = _ARGUMENT_BLOCK.fullmatch(stripped) if blocks else None
        if block:
            sections.append((indent, f"{block.group(1)} {block.group(2)}"))
            continue
        yield [name for _, name in sections], stripped, ""


_ARGUMENT_BLOCK = re.compile(r"([A-Za-z_][\w-]{0,40})[ \t]+([^{};\s][^{};]{0,200}?)[ \t]*\{")


def _narrow(sections: str) -> bool:
    """A setting's sections hold a block for part of what the server serves (`location /healthz`), not all
    of it (`location /`)."""
    for section in sections.split("."):
        _, _, argument = section.partition(" ")
        if argument and argument.strip() not in ("/", "= /", "^~ /"):
            return True
    return False


# Sensitive data masked, redacted or scrubbed before it is logged or shown, in a log pattern or in code
# (`%mask(%msg)`, `mask(pan)`, `redact(payload)`, `scrubber.scrub(...)`)
MASKING = re.compile(r"(?i)(?:%|\b)(?:mask|redact|scrub|obfuscat|anonymi[sz])\w{0,30}\s*\(")
# An ignore file's entry that keeps secrets out of the repository (`.env`, `*.pem`, `credentials.json`)
_IGNORED_SECRET = re.compile(
    r"(?im)^[ \t]*/?(?:\*\*/)?(?:\.env\S*|\*?\.(?:pem|key|p12|pfx|jks|keystore)|\S*(?:credential|secret)\S*"
    r"|id_(?:rsa|ed25519|ecdsa)\S*|\.netrc|\.npmrc|\.pypirc|\S*\.tfstate\S*|\S*\.tfvars)[ \t]*$"
)


# A connection's TLS switched off or made optional in the query of its address, to another machine
# (`jdbc:postgresql://db.internal/shop?sslmode=disable`, `...?useSSL=false`); a setting of its own
# (`sslmode: disable`) is read with its section by the table of controls
_TLS_OFF = re.compile(
    r"(?im)^(?!.*(?:localhost|127\.0\.0\.1|\[::1\])).*[?&;](?:ssl_?mode|tls_?mode)=(?:disable|allow|prefer)\b"
    r"|^(?!.*(?:localhost|127\.0\.0\.1|\[::1\])).*[?&;](?:use_?ssl|ssl|tls|require_?ssl)=(?:false|0|off)\b"
)
# A server's way of checking who connects made one that checks nothing (pgbouncer's `auth_type = any`)
_NO_AUTH_METHOD = re.compile(
    r"(?im)^\s*[\"']?(?:auth_?type|auth_?method|authentication_?method)[\"']?\s*[=:]\s*[\"']?"
    r"(?:any|trust|none|off|disabled?)[\"']?\s*$"
)


# A port bound to this machine's loopback only, and one bound to every interface (`0.0.0.0:9090`, `[::]:80`,
# HAProxy's `bind :8404`, `*:8080`, a compose file's `"9090:9090"` with no address)
_LOOPBACK_PORT = re.compile(r"(?:127\.0\.0\.1|localhost|\[::1\]):(\d{2,5})\b")
_EVERY_INTERFACE_PORT = re.compile(
    r"(?:(?<![\w.])0\.0\.0\.0|\[::\]|(?<![\w.:\]])\*|(?<=[\s\"'=])):(\d{2,5})\b|(?<=[\s\"'-])(\d{2,5}):\d{2,5}\b"
)


# Servers that answer whoever reaches them, with no login of their own: monitoring servers and their
# dashboards, data stores, notebooks and database consoles
_OPEN_BY_DEFAULT = re.compile(
    r"(?i)prometheus|alertmanager|node[_-]?exporter|kibana|elasticsearch|opensearch|redis|memcached|mongo"
    r"|jupyter|adminer|phpmyadmin|pgadmin|etcd|consul"
)


def _loopback_opened(before: str, after: str) -> str:
    """A port the file served to this machine only (`127.0.0.1:9090`) that it now serves on every interface
    (`0.0.0.0:9090`, `bind :8404`), for an administration interface or a server that lets anyone in (the
    lines above it name one: `listen stats`, a `prometheus` service): "" for none, and for the traffic a
    server is for (a proxy's listener), which is meant for everyone."""
    if "127.0.0.1" not in before and "localhost" not in before and "[::1]" not in before:
        return ""
    local = set(_LOOPBACK_PORT.findall(before)) - set(_LOOPBACK_PORT.findall(after))
    if not local:
        return ""
    lines = after.splitlines()
    for i, line in enumerate(lines):
        ports: set[str] = {a or b for a, b in _EVERY_INTERFACE_PORT.findall(line)} & local
        context = "\n".join(lines[max(0, i - 6) : i + 1])
        if ports and (_ADMIN_INTERFACE.search(words_of(context)) or _OPEN_BY_DEFAULT.search(context)):
            return min(ports)
    return ""


# A mail server's or a mail filter's hidden copy to a fixed address, and the address: Postfix's `always_bcc`,
# `sender_bcc_maps`, a header or body check's `BCC` action
HIDDEN_COPY = re.compile(
    r"(?im)(?:^[ \t]*(?:always_bcc|\w+_bcc(?:_maps)?)[ \t]*=[ \t]*|[ \t]BCC[ \t]+)"
    r"([\w.+-]+@[\w-]+(?:\.[\w-]+)+)"
)


# An account's password written out in a device's or a server's configuration: after a user's name (IOS's
# `username x privilege 15 secret 0 P`, `user x password P`), or marked as plain text (tac_plus's `login =
# cleartext "P"`); a hash (`secret 9 $9$...`) or a template's value (`{{ vault_x }}`) is none
_WRITTEN_PASSWORD = re.compile(
    r"""(?im)^[ \t]*(?:username|user)[ \t]+[\w.@-]{1,64}\b[^\n]{0,80}?\b(?:secret|password|passwd)[ \t]+"""
    r"""(?:0[ \t]+)?["']?([^\s"'{}$%]{8,64})["']?[ \t]*$"""
    r"""|^[ \t]*(?:login|password|pap|chap)[ \t]*=[ \t]*(?:cleartext|clear|plain)[ \t]+"""
    r"""["']?([^\s"'{}$%]{8,64})["']?"""
)


def writes_a_password(text: str) -> bool:
    """The text writes out an account's password (`_passwords_written`)."""
    return bool(_passwords_written(text))


def _passwords_written(text: str) -> set[str]:
    """The accounts' passwords `text` writes out (`_WRITTEN_PASSWORD`), when shaped like one."""
    from limen.facts.secrets import PASSWORD_SHAPE

    if "ser" not in text and "clear" not in text and "plain" not in text:
        return set()  # (no `user`, `username`, `cleartext` or `plain`: most settings, told at once)
    found = (a or b for a, b in _WRITTEN_PASSWORD.findall(text[:MAX_SETTINGS_TEXT]))
    return {"*" * 4 + p[-2:] for p in found if PASSWORD_SHAPE.match(p)}


# A setting that caps an amount of money or of goods (`max_order_qty`, `daily_loss_limit`,
# `max_notional_usd`); a time's or a size's maximum (`max-age`, `max_upload_mb`) caps no risk
CAP_KEY = re.compile(
    r"(?=.*(?:^|_)(?:max|maximum|limit|limits|cap|ceiling)(?:_|$))"
    r"(?=.*(?:^|_)(?:qty|quantity|notional|loss|exposure|position|order|amount|usd|eur|spend|withdrawal|transfer"
    r"|payout|leverage|margin)s?(?:_|$))"
)


def _raised_thousandfold(before: str, after: str) -> bool:
    """Both values numbers (`5000`, `1e12`, `5_000`), the new a thousand times the old or more."""
    try:
        old, new = float(before.replace("_", "")), float(after.replace("_", ""))
    except ValueError:
        return False
    return old > 0 and new >= 1000 * old


def edited_settings(path: str, before: str, after: str, *, created: bool = False) -> list[str]:
    """What an edit does to the settings it changes, judged by the table of controls as the same settings
    given to a tool would be (`bruteForceProtected: true` made `false`, `Action = "deny"` made `"allow"`,
    `role: admin` given, `publicAccessCIDRs: ["0.0.0.0/0"]`): the same effect through a CLI, a REST call, an
    MCP tool or a file edit. A test's or a development section's settings are its own. For a `created` file
    only what a setting's own shape says counts (a check left out, an interface opened): a control written
    `false` there switches nothing off, it was never on."""
    if _NOT_DEPLOYED.search(below_home(path)) or _DEVELOPER_SETTINGS.search(path):
        return []
    if len(MASKING.findall(after)) < len(MASKING.findall(before)):  # `%mask(%msg)` made `%msg`
        return [f"{CONTROL_OFF}the masking of sensitive data in what is logged or shown is taken out"]
    if path.endswith((".gitignore", ".dockerignore")):  # a secret no longer kept out of the repository
        dropped = set(_IGNORED_SECRET.findall(before)) - set(_IGNORED_SECRET.findall(after))
        name = path.rsplit("/", 1)[-1]
        return [f"{CONTROL_OFF}{sorted(dropped)[0].strip()} taken out of {name}"] if dropped else []
    copied = set(HIDDEN_COPY.findall(after[:MAX_SETTINGS_TEXT])) - set(
        HIDDEN_COPY.findall(before[:MAX_SETTINGS_TEXT])
    )
    if copied:  # Postfix's `always_bcc = x@y`, a header check's `BCC x@y`: every message copied there
        return [f"{MADE_PUBLIC}every message is copied to {sorted(copied)[0]}"]
    tmpfiles = "tmpfiles" in path or "tmpfiles" in after[:MAX_SETTINGS_TEXT]
    wiped = (
        set(_TMPFILES_REMOVAL.findall(after[:MAX_SETTINGS_TEXT]))
        - set(_TMPFILES_REMOVAL.findall(before[:MAX_SETTINGS_TEXT]))
        if tmpfiles
        else set()
    )
    wiped = {p for p in wiped if not p.startswith(_SCRATCH_ROOTS)}
    if wiped:  # systemd-tmpfiles' `R /var/lib/postgresql`: removed, with all it holds, at every boot
        return [f"{DESTROYS_STORE}{sorted(wiped)[0]} removed with all it holds at every boot (tmpfiles)"]
    weak = {w.lower() for w in _WEAK_FEATURES.findall(after)}
    weak -= {w.lower() for w in _WEAK_FEATURES.findall(before)}
    if weak:  # `EXTRA_IMAGE_FEATURES ?= "debug-tweaks allow-empty-password"`: the image opened
        return [f"{CONTROL_OFF}{sorted(weak)[0]} added"]
    rules = path.endswith((".yml", ".yaml"))  # (the files alerting rules are written in)
    alerts = set(_ALERT_RULE.findall(before)) - set(_ALERT_RULE.findall(after)) if rules else set()
    if alerts:  # `- alert: AuditLogShipperDown` deleted: what would have paged no longer exists
        return [f"{CONTROL_OFF}the alert {sorted(alerts)[0]} taken out"]
    if policy_allows_everything(after[:MAX_SETTINGS_TEXT]) and not policy_allows_everything(
        before[:MAX_SETTINGS_TEXT]
    ):  # a policy file's statement made `"Action": "*"`: whoever holds it may do anything
        return [f"{ADMIN_GRANTED}a policy that allows every action"]
    if (
        _may_federate(after)
        and OPEN_FEDERATION.search(after[:MAX_SETTINGS_TEXT])
        and not OPEN_FEDERATION.search(before[:MAX_SETTINGS_TEXT])
    ):  # `"token.actions.githubusercontent.com:sub" = "repo:*"`, in Terraform, Nix or JSON alike
        return [f"{ADMIN_GRANTED}a federated identity trust that any repository's workflow meets"]
    # (both judged as changes: a new machine's first user is given them as a matter of course)
    if (
        not created
        and "NOPASSWD" in after
        and len(_PASSWORDLESS_ROOT.findall(after)) > len(_PASSWORDLESS_ROOT.findall(before))
    ):
        # `deploy ALL=(ALL) NOPASSWD: ALL`, NixOS's `command = "ALL"; options = [ "NOPASSWD" ];` added
        return [f"{ADMIN_GRANTED}a sudo rule runs every command as root with no password"]
    if given := _passwords_written(after) - _passwords_written(before):
        # `username netops-svc privilege 15 secret 0 Sup0rt!2024`, tac_plus's `login = cleartext "B4ckup!"`
        name = path.rsplit("/", 1)[-1]
        return [f"{ADMIN_GRANTED}an account is given a password written in {name}: {min(given)}"]
    if not created and "roups" in after and (joined := _admin_groups(after) - _admin_groups(before)):
        # `extraGroups = [ "wheel" "docker" ]`, Ansible's `groups: sudo`: root, or the means to it
        return [f"{ADMIN_GRANTED}a user is put in the group {sorted(joined)[0]}: administrator rights"]
    opened = _anyone_let_in(path, after) - _anyone_let_in(path, before)
    if opened:
        key, value = min(opened)
        return [f"{MADE_PUBLIC}{key} lets in {value}: anyone"]
    if unwatched := _watch_dropped(path, before, after):
        return [f"{CONTROL_OFF}{unwatched}"]
    if len(_TLS_OFF.findall(after)) > len(_TLS_OFF.findall(before)):  # `?sslmode=verify-full` made `disable`
        return [f"{CONTROL_OFF}a connection's TLS switched off or made optional: what it carries is readable"]
    if len(_NO_AUTH_METHOD.findall(after)) > len(_NO_AUTH_METHOD.findall(before)):  # pgbouncer's `any`
        return [f"{CONTROL_OFF}a server's check of who connects made one that lets anyone in"]
    if len(_LOGGER_OFF.findall(after)) > len(_LOGGER_OFF.findall(before)):  # `<root level="OFF">`
        return [f"{CONTROL_OFF}a logger switched off: what it would record is no longer written"]
    if port := _loopback_opened(before, after):  # `bind 127.0.0.1:8404` made `bind :8404`
        return [f"{MADE_PUBLIC}port {port}, served to this machine only, now listens on every interface"]
    if proxied := _admin_proxied(
        before, after
    ):  # nginx's `location /_internal/ { proxy_pass http://admin...`
        return [f"{MADE_PUBLIC}{proxied[:60]}: an administration interface served on the site's own address"]
    if exposed := _admin_lines_exposed(
        before, after
    ):  # HAProxy's `stats socket ipv4@0.0.0.0:9999 level admin`
        return [
            f"{MADE_PUBLIC}{exposed[:60]}: a server's administration interface listens on every interface"
        ]
    spaced = spaced_config(path)
    xml = path.lower().endswith((".xml", ".config"))
    old, new = _settings(before, spaced, xml), _settings(after, spaced, xml)
    changed: dict[str, object] = {}
    for key, value in new.items():
        if old.get(key) == value or _LOCAL_SECTION.search(key):
            continue
        if old.get(key, "").lower() in _DENIES and value.lower() in _ALLOWS:
            return [f"{CONTROL_OFF}{key} changed from {old[key]} to {value}"]
        if (
            old.get(key, "").strip("\"' ").lower() in _ENFORCING
            and value.strip("\"' ").lower() in _NOT_ENFORCING
        ):
            # SELinux's `enforcing` made `permissive`, a WAF's `Prevention` made `Detection`, a policy's
            # `Enforce` made `Audit`: what it refused it now only records, or lets by
            return [f"{CONTROL_OFF}{key} changed from {old[key]} to {value}: it no longer refuses anything"]
        if CAP_KEY.search(words_of(key)) and _raised_thousandfold(old.get(key, ""), value):
            # a risk limit `max_order_qty: 5000` made `50000000`: a cap that no longer caps anything
            return [f"{CONTROL_OFF}{key} raised from {old[key]} to {value}: a cap a thousand times higher"]
        if (
            _ORIGINS_KEY.search(key)
            and value.strip("\"' ") in _EVERY_ORIGIN
            and _CREDENTIALS_ON.search(after)
        ):
            # `quarkus.http.cors.origins=/.*/` beside `access-control-allow-credentials=true`
            return [f"{MADE_PUBLIC}{key} = {value}: every web site may call it with its users' credentials"]
        if (
            _POLICY_KEY.search(key)
            and old.get(key, "").lower() in _REQUIRES_LOGIN
            and value.lower() in _ALLOWS
        ):
            # Quarkus' `quarkus.http.auth.permission.api.policy=authenticated` made `permit`
            return [f"{CONTROL_OFF}{key} changed from {old[key]} to {value}: no sign-in asked"]
        production = PRODUCTION.search(key) or PRODUCTION.search(path.rsplit("/", 1)[-1])
        if production and _SCHEMA_ACTION.search(key) and _DROPS_SCHEMA.fullmatch(value.strip("\"'").lower()):
            # `%prod.quarkus.hibernate-orm.database.generation=drop-and-create`: every start wipes it
            return [f"{DESTROYS_STORE}the production schema dropped at every start ({key}={value})"]
        if _LEAVES_OUT.search(words_of(key.rsplit(".", 1)[-1])) and _EVERY_FILE.fullmatch(value):
            return [f"{CONTROL_OFF}{key} = {value} leaves everything out"]  # `sonar.exclusions=**/*`
        if moved := _trust_moved(key, old.get(key, ""), value):  # `jwk-set-uri` pointed at another host
            return [f"{CONTROL_OFF}{key}: {moved}"]
        if "cvss" in key.lower() and _beyond_cvss(value):  # `<failBuildOnCVSS>11</failBuildOnCVSS>`
            return [
                f"{CONTROL_OFF}{key} = {value}: no vulnerability scores that high, so the check never fails"
            ]
        if key in old and _lowered(key, old[key], value):
            return [f"{CONTROL_OFF}{key} lowered from {old[key]} to {value}"]
        if key in old and (raised := _limit_raised(key, old[key], value)):
            return [f"{CONTROL_OFF}{key} {raised}"]
        if longer := _lifetime_raised(key, old.get(key), value):
            return [f"{CONTROL_OFF}{key} {longer}"]
        if (
            _DOWNGRADED.match(old.get(key, ""))
            and value.lower().startswith("http://")
            and not _LOCAL_URL.match(value)
        ):
            # `"url": "https://npm.pkg.acme.dev"` made `http://...`: what it fetches or sends, readable and
            # changeable by anyone on the way
            return [f"{CONTROL_OFF}{key} moved from https to plain http"]
        variable = key.rsplit(".", 1)[-1]
        check = CHECKS_OFF_VARIABLES.get(variable)
        if check is not None and re.fullmatch(check, value.strip("\"'")):
            # a pipeline's or an image's environment (`GONOSUMDB: "*"`): every command run there without it
            return [f"{CONTROL_OFF}{variable}={value[:40]} switches a check off for what runs there"]
        if key in old and (weakened := _halved(key, old[key], value)):
            return [f"{CONTROL_OFF}{key} {weakened}"]
        if exposed := _admin_exposed(key, old.get(key, ""), value):
            return [f"{MADE_PUBLIC}{key} = {value[:60]}: {exposed}"]
        word = words_of(key.rsplit(".", 1)[-1])
        if _VERIFICATION_KEY.search(word) and _unverified(value) and not _unverified(old.get(key, "")):
            return [f"{CONTROL_OFF}{key} = {value}: what it should verify is taken as it comes"]
        if _WEAK_WHEN_ON.search(word) and _on(value) and not _on(old.get(key, "")):
            return [f"{CONTROL_OFF}{key} turned on: {word.replace('_', ' ')}"]
        if word in _MODE_KEYS and _opened_to_all(old.get(key, ""), value) and _SECRET_WORDS.search(after):
            # a secret's file `mode = "0400"` made `"0444"`: every user of the machine reads it
            return [f"{MADE_PUBLIC}{key} {old[key]} made {value}: every user of the machine may read it"]
        if word in _HOST_NAMESPACE_KEYS and value.strip("\"'").lower() == "host" and old.get(key) != value:
            return [f"{CONTROL_OFF}{key}: host shares the host's {word.split('_')[0]} with the container"]
        if word == "when" and old.get(key, "").strip("\"'") == "manual" and value.strip("\"'") != "manual":
            return [f"{CONTROL_OFF}{key}: a job that waited for a person now runs by itself"]
        if word.endswith("_none") and _CONTROL_KEYS.search(word) and _on(value) and not _on(old.get(key, "")):
            return [f"{CONTROL_OFF}{key} turned on"]  # Kconfig's `CONFIG_BOOT_SIGNATURE_TYPE_NONE=y`
        if key.rsplit(".", 1)[-1].lower() in _BARE_SWITCHES:
            # `var Enabled = true` in audit.go, `[sshd] enabled = true` in fail2ban/jail.local: the file
            # and its folder say what it switches
            key = ".".join([*(part.split(".", 1)[0] for part in path.split("/")[-2:]), key])
        if (
            _ADMIN_PASSWORD_KEY.search(key)
            and value.strip("\"'")
            and not value.strip("\"'").startswith(("$", "{", "<", "!", "*"))
        ):  # NixOS's `users.users.root.initialPassword = "nixos"`: whoever reads the file logs in as root
            name = path.rsplit("/", 1)[-1]
            return [f"{ADMIN_GRANTED}an administrator account is given a password written in {name}"]
        if (
            _LOG_LEVEL_KEY.fullmatch(words_of(key.rsplit(".", 1)[-1]))
            and value.strip("\"'").lower() in _SILENT_LEVELS
            and old.get(key, "").strip("\"'").lower() not in _SILENT_LEVELS
        ):  # sshd's `LogLevel QUIET`, `log_level: off`: what the server would record is no longer written
            return [f"{CONTROL_OFF}{key} = {value}: the server logs nothing"]
        if _DEBUG_KEY.search(words_of(key.rsplit(".", 1)[-1])) and value.lower() in _ON_WORDS | {"1"}:
            return [f"{CONTROL_OFF}{key} switches debugging on in a deployed configuration"]
        changed[key] = {"true": True, "false": False}.get(value.lower(), value)
    for key in old.keys() - new.keys():
        if key.rsplit(".", 1)[-1] == "when" and old[key].strip("\"'") == "manual":  # a CI job's gate deleted
            return [f"{CONTROL_OFF}{key}: manual taken out: a job that waited for a person runs by itself"]
        # `AllowUsers deploy ops` deleted: anyone with a login comes in
        if _LETS_IN_ONLY.search(words_of(key.rsplit(".", 1)[-1])) and not _LOCAL_SECTION.search(key):
            return [f"{CONTROL_OFF}{key} taken out: who may connect is no longer limited"]
    for key in old.keys() - new.keys():  # Expo's `codeSigningCertificate` taken out: updates go unsigned
        if _SIGNING_SETTING.search(words_of(key.rsplit(".", 1)[-1])) and not _LOCAL_SECTION.search(key):
            return [f"{CONTROL_OFF}{key} taken out: what it signed or verified is no longer checked"]
    for key, value in old.items():  # `lifecycle { prevent_destroy = true }` deleted: the default is off
        protective = _CONTROL_KEYS.search(key.lower()) and not _EXCEPTION_KEY.search(key.lower())
        if key not in new and protective and value.lower() in _ON_WORDS and not _LOCAL_SECTION.search(key):
            return [f"{CONTROL_OFF}{key} = {value} taken out"]
    return service_call_notes("update_settings", changed) if changed and not created else []


# The interfaces that run a server rather than serve its users (an admin API, a management or stats
# endpoint, a debug console, a dashboard), named anywhere in a setting's path (`admin_listen`,
# `admin.address.socket_address`, `pekko.management.http.hostname`, HAProxy's `stats socket ... level admin`)
_ADMIN_INTERFACE = re.compile(
    r"(?:^|_)(?:admin|management|manager|stats|debug|console|dashboard|pprof|actuator|control)(?:_|$)"
)
_EVERY_INTERFACE = re.compile(r"(?<![\d.])0\.0\.0\.0(?![\d.])|\[::\](?=:)|(?<![\w:])::(?=[,\s\]}:]|$)")


_PROXIED_TO = re.compile(
    r"(?m)^[ \t]*(?:proxy_pass|fastcgi_pass|uwsgi_pass|grpc_pass|ProxyPass\s+\S+)\s+(\S+?);?$"
)


_GUARDED = re.compile(r"\b(?:deny\s+all|auth_basic|auth_request|Require\s+(?:ip|valid-user|group))\b")


def _admin_proxied(before: str, after: str) -> str:
    """A web server's line added that forwards requests to a server's administration interface (`proxy_pass
    http://admin.acme.internal:8081/;`, Apache's `ProxyPass /x http://manager:8080/`): whoever reaches the
    site reaches what the company kept on its private network; "" for none."""
    if "pass" not in after and "Pass" not in after:
        return ""
    if len(_GUARDED.findall(after)) > len(_GUARDED.findall(before)):
        return ""  # (`deny all;`, `auth_basic ...;` added with it: kept to those let in)
    old = {m.group(1) for m in _PROXIED_TO.finditer(before)}
    for found in _PROXIED_TO.finditer(after):
        target = found.group(1)
        if target not in old and _ADMIN_INTERFACE.search(
            words_of(target.split("://", 1)[-1].split("/", 1)[0])
        ):
            return target
    return ""


def _admin_lines_exposed(before: str, after: str) -> str:
    """A line added that puts an administration interface on every network interface (a server's `Key
    value` file: `stats socket ipv4@0.0.0.0:9999 level admin`, `admin_listen = 0.0.0.0:8001`), or ""."""
    if not _EVERY_INTERFACE.search(after):
        return ""
    old = {line.strip() for line in before.splitlines()}
    for line in after.splitlines():
        line = line.strip()
        if line not in old and _EVERY_INTERFACE.search(line) and _ADMIN_INTERFACE.search(words_of(line)):
            return line
    return ""


# A setting that says how something is verified (Envoy's `trust_chain_verification`, `ssl_verification`,
# `hostname_validation`), and the values that verify nothing
_VERIFICATION_KEY = re.compile(r"(?:^|_)(?:verification|validation|verify|verify_mode|verify_peer)$")
_UNVERIFIED = frozenset(
    {
        "accept_untrusted",
        "accept_all",
        "accept_any",
        "none",
        "off",
        "false",
        "skip",
        "0",
        "verify_none",
        "cert_none",
    }
)


def _unverified(value: str) -> bool:
    return value.strip("\"' ").lower() in _UNVERIFIED


def _admin_exposed(key: str, before: str, after: str) -> str:
    """A server's administration interface moved onto every network interface (`admin_listen =
    127.0.0.1:8001` made `0.0.0.0:8001`, Envoy's admin `address: 0.0.0.0`): what only this machine could
    reach, anyone who reaches the host can. "" for any other setting."""
    if not _EVERY_INTERFACE.search(after) or _EVERY_INTERFACE.search(before):
        return ""
    if not (_ADMIN_INTERFACE.search(words_of(key)) or "level admin" in after):
        return ""
    return "a server's administration interface listens on every network interface"


def _watch_dropped(path: str, before: str, after: str) -> str:
    """What a change takes out of a host's watch and fences, read from the lines that make them: an audit
    rule (`-w /etc/sudoers -p wa`, `-a always,exit ...`) deleted or an exclusion (`-a never,...`) added, a
    query osquery runs on a schedule deleted, a security header a web server sends deleted, an address
    allow-list's `deny all` deleted, a PostgreSQL client let in without a password (`trust`) or without
    TLS (`hostssl` made `host`), a host security agent no longer named where it was (a role taken out of a
    playbook's configuration). "" for none of these, and for documentation, which only talks of them."""
    if _PROSE.search(path):
        return ""
    for pattern, what in _WATCH_LINES:
        gone = sorted(set(pattern.findall(before)) - set(pattern.findall(after)))
        if gone:
            return f"{what} taken out: {str(gone[0]).strip()[:60]}"
    if len(_AUDIT_EXCLUSION.findall(after)) > len(_AUDIT_EXCLUSION.findall(before)):
        return "an audit rule that excludes events added"
    for pattern, what in _DEVICE_FENCES:
        if len(pattern.findall(after)) < len(pattern.findall(before)):
            return f"{what} taken out"
    if opened := sorted(set(_WEAK_DEVICE_LINES.findall(after)) - set(_WEAK_DEVICE_LINES.findall(before))):
        return f"a network device opened: {opened[0].strip()[:60]}"
    if len(_LOOSE_SCRIPTS.findall(after)) > len(_LOOSE_SCRIPTS.findall(before)):
        return "the content security policy lets any script run"
    name = path.rsplit("/", 1)[-1]
    if name.startswith("pg_hba"):
        if len(_PG_TRUST.findall(after)) > len(_PG_TRUST.findall(before)):
            return "PostgreSQL lets a client in without a password (trust)"
        if len(_PG_SSL.findall(after)) < len(_PG_SSL.findall(before)):
            return "PostgreSQL no longer requires TLS of a client (hostssl)"
    if not (_CONFIG_FILE.search(path) or spaced_config(path)):
        return ""  # (program code names tools for many reasons)
    agents = set(_AGENT_NAME.findall(before.lower())) - set(_AGENT_NAME.findall(after.lower()))
    return f"{sorted(agents)[0]} no longer named in {name}" if agents and after.strip() else ""


_PROSE = re.compile(r"(?i)\.(?:md|markdown|rst|txt|adoc|org)$")


def touches_watch(old: str, new: str) -> bool:
    """An edit's texts hold what `_watch_dropped` reads (an audit rule, a security header, a policy's
    sources), so the file it makes is worth comparing whatever else the edit looks like."""
    return bool(_LOOSE_SCRIPTS.search(new) or _WEAK_DEVICE_LINES.search(new)) or any(
        pattern.search(old) for pattern, _ in (*_WATCH_LINES, *_DEVICE_FENCES)
    )


_WATCH_LINES = (
    (re.compile(r"(?m)^[ \t]*(-w[ \t]+\S+.*|-a[ \t]+(?:always|exit),\S+.*)$"), "an audit rule"),
    (re.compile(r'"([\w-]+)"\s*:\s*\{\s*"query"'), "a query osquery runs on a schedule"),
    # in a web server's or a framework's configuration alike (`add_header ...`, `{ key: "..." }`)
    (
        re.compile(
            r"(?i)(?<![\w-])(Strict-Transport-Security|Content-Security-Policy|X-Frame-Options)(?![\w-])"
        ),
        "a security header",
    ),
    (re.compile(r"(?m)^[ \t]*(deny[ \t]+all)[ \t]*;"), "an address allow-list's refusal"),
)
# A network device's own fences and records (IOS, IOS-XR, EOS, Junos, in a config or its template): who
# may log in on a line, the management plane and control-plane policy, an interface's access list, the
# accounting of commands, the remote syslog, a filter's or a route policy's refusal (`then { discard; }`, an
# RPL's `drop`). Counted, not compared line by line: moving the syslog to another host keeps one
_DEVICE_FENCES = (
    (
        re.compile(
            r"(?m)^[ \t]*(access-class[ \t]+\S+.*|management-plane|service-policy[ \t]+input[ \t]+\S+)[ \t]*$"
        ),
        "a device's management fence",
    ),
    (re.compile(r"(?m)^[ \t]*(ip[ \t]+access-group[ \t]+\S+[ \t]+in)\b"), "an interface's access list"),
    (
        re.compile(r"(?m)^[ \t]*(aaa[ \t]+accounting[ \t]+\S+.*)$"),
        "the accounting of what is done on a device",
    ),
    (re.compile(r"(?m)^[ \t]*(logging[ \t]+(?:host|server)[ \t]+\S+)"), "a device's remote log"),
    (re.compile(r"\bsyslog[ \t]*\{\s*(host[ \t]+\S+)"), "a device's remote log"),
    (
        re.compile(r"(?m)^[ \t]*(discard|reject|drop)[ \t]*;?[ \t]*$"),
        "a filter's or a route policy's refusal",
    ),
)
# Lines that open a network device when added: a read-write SNMP community, logins with no check, telnet
_WEAK_DEVICE_LINES = prefiltered(
    r"(?mi)^[ \t]*(?:snmp-server[ \t]+community[ \t]+\S+[ \t]+RW\b"
    r"|aaa[ \t]+authentication[ \t]+login[ \t]+\S+[ \t]+none\b|transport[ \t]+input[ \t].*\btelnet\b"
    r"|no[ \t]+service[ \t]+password-encryption\b"
    r"|ip[ \t]+http[ \t]+server\b)"
)
# A content security policy's source that lets any script run: any host, inline scripts, `eval`
# (in the script or default sources: `style-src 'unsafe-inline'` lets styles in, no script)
_LOOSE_SCRIPTS = prefiltered(
    r"(?i)(?:script|default)-src(?:-elem|-attr)?(?:[ \t]+[^\s;]+){0,30}?[ \t]+"
    r"(?:\*(?=[\s;\"'`]|$)|'unsafe-(?:eval|inline)')"
)
_AUDIT_EXCLUSION = re.compile(r"(?m)^[ \t]*-a[ \t]+(?:never,\S+|\S+,never)")
_PG_TRUST = re.compile(r"(?m)^[ \t]*(?:local|host\w*)[ \t].*[ \t]trust[ \t]*$")
_PG_SSL = re.compile(r"(?m)^[ \t]*hostssl[ \t]")
_AGENT_NAME = re.compile(rf"(?<![\w-]){HOST_SECURITY_AGENTS}(?![\w-])")


# Settings that list the only ones let in (`AllowUsers`, `authorized_networks`, `ip_allowlist`): gone, the
# default lets everyone in (narrower than `_WHO_KEYS`, whose members or principals, gone, let fewer in)
_LETS_IN_ONLY = re.compile(
    r"(?:^|_)(?:allow_?(?:users|groups)|allow_?list|white_?list|authorized_networks"
    r"|allowed_(?:ips?|cidrs?|hosts|networks|addresses|source_ranges)|deny"
    # a web server's own sign-in in front of what it serves (nginx's `auth_basic_user_file`, `auth_request`)
    r"|auth_(?:basic|request|digest|jwt)(?:_user_file)?)$"
)


# A Prometheus (or Loki, Thanos, Mimir) alerting rule, by its name
_ALERT_RULE = re.compile(r"^[ \t]*-?[ \t]*alert:[ \t]*[\"']?([\w:.-]+)", re.MULTILINE)
# Settings that say who or what is let in: sites, addresses, principals, members (`AllowedOrigins`,
# `publicAccessCIDRs`, `Principal`, `members`, `authorizedNetworks`, `sourceRanges`)
_WHO_KEYS = re.compile(
    r"(?:^|_)(?:principals?|members?|grantees?|identifiers|users|authorized_networks|white_?list|allow_?list"
    r"|ip_ranges?|cidrs?|cidr_blocks?|source_ranges?|source_address_prefix(?:es)?|allowed_\w+|trusted_\w+"
    r"|ignore_?ips?|mynetworks|trusted_?hosts?|hosts_allow|src)$"  # (fail2ban's `ignoreip`: the addresses
    # never banned; Postfix's `mynetworks`: the clients it relays for; OpenDKIM's `TrustedHosts`: those it
    # signs for; an access rule's `src`: who it lets through)
    r"|redirect|origins?$|cors|cidrs?$|_ips?$|^expos(?:e|ed|ure)$"  # `exposure.include: "*"`: every endpoint
)
# Values that name anyone: any site, any address, every account or visitor (Google Cloud's, S3 ACLs',
# Azure's and Confluence's words)
_ANYONE = re.compile(
    r"(?i)^(?:\*|\*(?:\.\*){3}|0\.0\.0\.0/0|::/0|allUsers|allAuthenticatedUsers|all_users|everyone|anyone|anonymous"
    r"|Internet|Any|https?://acs\.amazonaws\.com/groups/global/(?:AllUsers|AuthenticatedUsers))$"
)
# Sections whose addresses are where traffic goes to, not who comes in (egress to anywhere is ordinary)
_OUTBOUND = re.compile(r"(?i)egress|outbound|\bto\b|destination")
_TERRAFORM = re.compile(r"\.(?:tf|tfvars|hcl)(?:\.json)?$")
# (fail2ban's `jail.local` is no developer's: it is the deployed jails' own file)
_LOCAL_FILE = re.compile(r"(?i)(?:^|[/._-])(?:dev|development|(?<!jail\.)local)(?:[/._-]|$)")
_LIST_ITEM = re.compile(r"""^-\s+["']?([^"'#\s]+)["']?\s*$""")
_INLINE_VALUES = re.compile(
    r"""(?<![\w.])["']?([A-Za-z_][\w.-]{1,60})["']?\s*(?:=>|=|:)(?!=)\s*("""
    # a list as Go, Java, Kotlin and C# write one (`[]string{"*"}`, `List.of("*")`, `new[] { "*" }`)
    r"""(?:\[\][\w.]+|new\s*[\w.]*\[\]|[\w.]+(?:<[\w.]+>)?)\s*[{(][^})\n]{0,400}[})]"""
    r"""|\[[^\]\n]{0,400}\]|["'][^"'\n]{0,200}["']|[^\s,#;{}\[\]]+)"""
)


def _anyone_let_in(path: str, text: str) -> set[tuple[str, str]]:
    """(key, value) for each setting of a config file that lets anyone in (`publicAccessCIDRs: ["0.0.0.0/0"]`,
    `"Principal": {"AWS": "*"}`, `members: [allUsers]`, `- 0.0.0.0/0` under `sourceRanges:`), keyed by the
    words of the setting and the section above it; egress sections aside. JSON is read whole; YAML, HCL and
    TOML by their lines and indentation."""
    found: set[tuple[str, str]] = set()
    if _TERRAFORM.search(path) or _LOCAL_FILE.search(below_home(path)):
        return found  # Terraform's rules are `rules.written`'s, which know its ports; a developer's own file
    if text.lstrip()[:1] in ("{", "["):
        try:
            data = json.loads(text[:MAX_SETTINGS_TEXT])
        except ValueError:
            data = None
        if data is not None:
            _anyone_in_data(data, (), found)
            return found
    _anyone_in_lines(text, found)
    listed = words_of(path.rsplit("/", 1)[-1].split(".", 1)[0])
    if _WHO_KEYS.search(listed):  # OpenDKIM's `TrustedHosts`, a `whitelist` file: one address a line
        for line in text[:MAX_SETTINGS_TEXT].splitlines():
            if _ANYONE.match(line.strip()):
                found.add((listed, line.strip()))
    if found and path.endswith((".yaml", ".yml")):  # read again whole, to see the statements' conditions
        import yaml

        try:
            documents = list(yaml.load_all(text[:MAX_SETTINGS_TEXT], Loader=_yaml_loader()))
        except yaml.YAMLError:
            return found
        found.clear()
        _anyone_in_data(documents, (), found)
    return found


@lru_cache(maxsize=1)
def _yaml_loader() -> type:
    """A safe YAML loader (libyaml's when there) that reads CloudFormation's and Ansible's tags (`!Ref`,
    `!Sub`, `!vault`) as nothing instead of failing on them."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader: type = type("_TaggedLoader", (base,), {})
    loader.add_multi_constructor("!", lambda _loader, _suffix, _node: None)  # type: ignore[attr-defined]
    return loader


def _anyone_in_lines(text: str, found: set[tuple[str, str]]) -> None:
    for above, line, item in _lines_in_sections(text):
        if item:  # a YAML list's item under the key above it
            if above and _ANYONE.match(item):
                _note_anyone(above, item, found)
            continue
        for key, raw in _INLINE_VALUES.findall(line):
            for value in re.findall(r"""[^\s,"'\[\]]+""", raw):
                if _ANYONE.match(value):
                    _note_anyone([*above, key], value, found)
        if spaced := _SPACED_LIST.fullmatch(line.strip()):  # `mynetworks = 127.0.0.0/8 [::1]/128 0.0.0.0/0`
            for value in spaced.group(2).split()[1:]:  # (the first is the inline value's, read above)
                if _ANYONE.match(value.strip("\"'")):
                    _note_anyone([*above, spaced.group(1)], value, found)
        for key, value in _XML_ELEMENT.findall(line):  # Wazuh's `<white_list>0.0.0.0/0</white_list>`
            if _ANYONE.match(value.strip()):
                _note_anyone([*above, key], value.strip(), found)


# A setting whose value is a list spaced out on its line (Postfix's, fail2ban's, Kannel's): `key = a b c`
# (greedy, with the spaces around the value split off after: a lazy value before `\s*` would try every
# split of a long run of spaces)
_SPACED_LIST = re.compile(r"([A-Za-z_][\w.-]{1,60})\s*=([^=#;\n]+)(?:[#;].*)?")
# An XML element holding one value on its line (`<white_list>10.0.0.0/8</white_list>`)
_XML_ELEMENT = re.compile(r"<([A-Za-z_][\w.-]{0,60})>([^<\n]{1,200})</\1>")


def _anyone_in_data(data: object, path: tuple[str, ...], found: set[tuple[str, str]], depth: int = 0) -> None:
    """A parsed file's settings that let anyone in; a policy statement that denies, or that holds only
    under a condition (`Principal: "*"` with `aws:SourceVpce`, a deny of plain HTTP), keeps them out."""
    if depth > 12 or len(found) > 8:
        return
    if isinstance(data, dict):
        if str(data.get("Effect", data.get("effect", ""))).lower() == "deny" or "Condition" in data:
            return
        for key, value in list(data.items())[:256]:
            _anyone_in_data(value, (*path, str(key)), found, depth + 1)
    elif isinstance(data, list):
        for value in data[:256]:
            _anyone_in_data(value, path, found, depth + 1)
    elif isinstance(data, str) and path and _ANYONE.match(data):
        _note_anyone(list(path), data, found)


def _note_anyone(path: list[str], value: str, found: set[tuple[str, str]]) -> None:
    """Keeps `value` for the setting at `path` when the setting says who is let in (its key, or the key
    above it, as `Principal: {AWS: "*"}`), outside an egress section."""
    keys = [words_of(name.rsplit(".", 1)[-1]) for name in path[-2:]]
    if any(_WHO_KEYS.search(key) for key in keys) and not any(_OUTBOUND.search(name) for name in path):
        found.add((".".join(path[-2:]), value))


# A limit on failed attempts before a lock-out or a slow-down (`maximum_attempts`, `max_login_attempts`,
# `lockout_threshold`, `rate_limit`)
_ATTEMPT_LIMIT = re.compile(
    r"(?:^|_)(?:max(?:imum)?_?(?:\w+_)?(?:attempts|retries|failures|tries|requests|logins?)|lockout_?\w*"
    r"|rate_?limit\w*|(?:failed_?)?login_?attempts|failed_?logins?)(?:_|$)"
)


# A rate as limiters spell one: `5/minute`, `100 per hour`, `10/s`
_RATE = re.compile(r"^(\d[\d_]*)\s*(?:/|\s+per\s+)\s*(\w{1,12})$")
_PERIOD_SECONDS = {"": 1, "s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60}
_PERIOD_SECONDS |= {"h": 3600, "hr": 3600, "hour": 3600, "d": 86400, "day": 86400}


# A credential's or a session's lifetime past a year outlives anyone's review of what it may do
LASTING_DAYS = 366
# A lifetime with its unit (`87600h`, `520w`, `10y`, `3650d`), or in seconds where its name says so
# (`--lifetime-seconds 315360000`, `max_lease_ttl_seconds = 315360000`)
_LIFETIME = re.compile(r"^(\d{1,12})\s*(s|sec|m|min|h|hr|d|day|days|w|wk|y|yr|years?)?$", re.I)
_UNIT_DAYS = {"s": 1 / 86400, "sec": 1 / 86400, "m": 1 / 1440, "min": 1 / 1440, "h": 1 / 24, "hr": 1 / 24}
_UNIT_DAYS |= {"d": 1, "day": 1, "days": 1, "w": 7, "wk": 7, "y": 365, "yr": 365, "year": 365, "years": 365}
_UNIT_IN_NAME = (("second", "s"), ("secs", "s"), ("minute", "m"), ("hour", "h"), ("day", "d"))
# Lifetimes whose standard counts seconds: a JWT's `exp` (RFC 7519), OAuth's `expires_in` (RFC 6749)
_SECONDS_BY_STANDARD = re.compile(r"(?:^|_)(?:exp|expires_in)$")


def lifetime_days(key: str, value: str) -> float | None:
    """The days a lifetime gives (`--expiry 87600h`: 3650; `token_ttl_seconds = 86400`: 1), None when it
    names no unit it can be read in."""
    found = _LIFETIME.match(value.strip().strip("\"'"))
    if found is None:
        return None
    named = next((unit for word, unit in _UNIT_IN_NAME if word in key.lower()), "")
    if not named and (_SECONDS_BY_STANDARD.search(key.lower()) or "lifespan" in key.lower()):
        named = "s"  # (Keycloak's `accessTokenLifespan`, in seconds as every lifespan it takes)
    unit = (found.group(2) or named).lower()
    return int(found.group(1)) * _UNIT_DAYS[unit] if unit in _UNIT_DAYS else None


# Settings that bound how long a credential, a token, a lease or a session lasts (a cache's or a DNS
# record's time to live aside)
_CREDENTIAL_LIFETIME = re.compile(
    r"(?:^|_)(?:(?:[a-z0-9]+_){0,3}ttl|(?:session|token|credential|cert|certificate|key|password|sas|jwt"
    r"|refresh|access|lease|login|cookie|sso|offline)_(?:[a-z0-9]+_){0,2}(?:lifetime|lifespan|expiry|expiration"
    r"|validity|max_age|exp|expires_in|timeout|age))"
    r"(?:_(?:seconds?|secs?|hours?|days?|minutes?))?$"
)


def _lifetime_raised(key: str, before: str | None, after: str) -> str:
    """`max_lease_ttl_seconds = 3600` made `315360000`, `token_max_ttl = "87600h"` added: a credential's
    lifetime set past a year, from under one or from nothing. "" otherwise."""
    word = words_of(key.replace(".", "_"))  # (`jwt: {expiration: ...}`: the section names what it bounds)
    if not _CREDENTIAL_LIFETIME.search(word) or re.search(r"cache|dns|record", word):
        return ""
    now = lifetime_days(word, after)
    was = lifetime_days(word, before) if before is not None else 0.0
    if now is None or now <= LASTING_DAYS or was is None or was > LASTING_DAYS:
        return ""  # (a lifetime it cannot read before, or one already past a year, is not this change's)
    return f"set to {after.strip()[:20]}: a credential that lasts {int(now) // 365} years"


def _limit_raised(key: str, before: str, after: str) -> str:
    """`maximum_attempts = 5` made `10_000` (ten times or more), or made 0 (no limit at all), a rate limit's
    `5/minute` made `5000/minute`: "" otherwise."""
    if not _ATTEMPT_LIMIT.search(words_of(key.rsplit(".", 1)[-1])):
        return ""
    before, after = before.strip("\"'"), after.strip("\"'")
    rate_before, rate_after = _RATE.match(before), _RATE.match(after)
    if rate_before and rate_after:  # each as a count per day
        periods = [
            _PERIOD_SECONDS.get(m.group(2).lower().removesuffix("s")) for m in (rate_before, rate_after)
        ]
        if periods[0] is None or periods[1] is None:
            return ""
        before = str(int(rate_before.group(1).replace("_", "")) * 86400 // periods[0])
        after = str(int(rate_after.group(1).replace("_", "")) * 86400 // periods[1])
    try:
        was = int(before.replace("_", ""))
        now = was * 10 if _UNBOUNDED.search(after) else int(after.replace("_", ""))
    except ValueError:
        return ""
    if was > 0 and (now >= was * 10 or now == 0):
        return f"raised from {before} to {after}: the limit on attempts is lifted"
    return ""


# A number's largest value or infinity, as languages name them (`Number.MAX_SAFE_INTEGER`, `math.inf`,
# `sys.maxsize`, `i64::MAX`, `Integer.MAX_VALUE`, `math.MaxInt64`)
_UNBOUNDED = re.compile(
    r"(?i)^(?:[\w.]*\.)?(?:max_safe_integer|max_value|maxsize|maxint\d*|infinity|inf|positive_infinity)$"
    r"|::MAX$|^float\(['\"]inf"
)


# A switch named for nothing but itself: what it switches is the file or section it lives in
_BARE_SWITCHES = frozenset({"enabled", "enable", "active", "on", "disabled", "disable", "off"})
# Numbers a protection is as strong as, and what cutting one to half or less does: a password hash's cost
# (`bcryptCost = 12` made `4`, PBKDF2's iterations), a backup's or a log's retention and a deleted key's
# recovery window (`backup_retention_days = 35` made `1`)
_HALVED = (
    (
        re.compile(r"(?:^|_)(?:cost|rounds|log_rounds|iterations?|work_?factor)$"),
        "passwords are cheaper to guess",
    ),
    (
        re.compile(r"(?:^|_)(?:retention|retain|deletion_window|soft_delete|recovery_window|rotate)(?:_|$)"),
        "less is kept to recover from",
    ),
)


def _halved(key: str, before: str, after: str) -> str:
    """A protection's number cut to half or less (`_HALVED`), with what that costs; "" otherwise."""
    word = words_of(key.rsplit(".", 1)[-1])
    meaning = next((why for pattern, why in _HALVED if pattern.search(word)), "")
    try:
        was, now = int(before.replace("_", "")), int(after.replace("_", ""))
    except ValueError:
        return ""
    return f"lowered from {before} to {after}: {meaning}" if meaning and 0 <= now <= was // 2 else ""


# A setting that turns a deployed program's debugging on (`debuggable true`, `DEBUG = True`, `APP_DEBUG`)
_DEBUG_KEY = re.compile(r"^(?:is_)?(?:app_)?debug(?:gable|_mode)?$")
_DOTENV_LINE = re.compile(r"(?m)^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w{0,60})=([^\n]{0,80})$")
# Levels of a protection, strongest first, as the tools that enforce them spell them: pod security, a policy
# engine's action on a violation, a mesh's mutual TLS, the instance metadata service's tokens, the least TLS
# version accepted. A value moved down its scale is the control lowered, whatever the key is called.
_SCALES: tuple[tuple[str, ...], ...] = (
    ("restricted", "baseline", "privileged"),
    ("enforce", "deny", "audit", "warn", "dryrun", "off"),
    ("strict", "permissive", "disable"),
    ("required", "optional"),
    ("validate", "update", "create", "createdrop"),  # what an ORM does to the schema at start: drop, at worst
    ("saslssl", "ssl", "saslplaintext", "plaintext"),  # a Kafka client's protocol: encryption, then sign-in
)
_TLS_SCALE = ("13", "12", "11", "10", "sslv3", "sslv2")
_TLS_KEY = re.compile(r"tls|ssl|protocol|min(?:imum)?_?version")
_TLS_VERSION = re.compile(r"(?i)(tls|ssl)[ _.]?v?(\d)(?:[._]?(\d))?(?!\d)")


def _lowered(key: str, before: str, after: str) -> bool:
    """`after` is a weaker level than `before` on one of the protections' scales (`Enforce` -> `Audit`,
    `required` -> `optional`, and for a TLS setting `TLSV1_2` -> `TLSV1_0`)."""

    def level(value: str) -> str:
        named = _TLS_VERSION.findall(value)  # `tls.VersionTLS12`, `TLSv1_2`, `PROTOCOL_TLSv1`, `SSLv3`
        if named:
            kind, major, minor = named[-1]
            return f"sslv{major}" if kind.lower() == "ssl" else f"{major}{minor or 0}"
        bare = re.sub(r"[^a-z0-9]", "", value.lower())
        return "10" if bare == "1" else bare

    was, now = level(before), level(after)
    scales = (*_SCALES, _TLS_SCALE) if _TLS_KEY.search(key.lower()) else _SCALES
    return was != now and any(
        was in scale and now in scale and scale.index(now) > scale.index(was) for scale in scales
    )


SENDS_LATER = "sends-later:"  # a host a deployed configuration is made to send to
# Files a system reads its connections from once deployed (a collector's exporters, an alert receiver's
# webhook, a chart's values, an Istio service entry, a Terraform variable)
_CONFIG_FILE = re.compile(
    r"\.(?:ya?ml|json|jsonc|toml|ini|conf|cfg|hcl|tf|tfvars|properties|xml)$|(?:^|/)(?:Caddyfile|nginx\.conf)$"
    # configuration languages (a NixOS host's, Dhall's, CUE's, Jsonnet's, Bicep's)
    r"|\.(?:nix|dhall|cue|jsonnet|libsonnet|bicep)$"
    # the templates configurations are rendered from (Ansible's, a router's), and Junos `set` files; not a
    # page's or a document's
    r"|(?<!\.html)(?<!\.htm)(?<!\.md)\.(?:j2|jinja2?|tmpl|tpl)$|\.set$"
)
_URL_HOST = prefiltered(r"\b[a-z][a-z0-9+.-]{1,15}://(?:[^@/\s\"'`]*@)?([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)")
_HOST_OR_IP = r"(\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})(?![\w.-])"
_HOST_SETTING = prefiltered(
    r"(?im)^[ \t-]*[\"']?(?:\w+_)?(?:endpoint|url|host|hosts|server|servers|address|target)[\"']?"
    rf"\s*[:=]\s*\[?\s*[\"']?{_HOST_OR_IP}"
)
# A network device's lines that name where it sends its logs, flows, traps, time and AAA requests (Cisco IOS
# and NX-OS, Arista EOS, Junos' braces and `set` lines): `logging host 192.0.2.9`, `destination 192.0.2.9` of
# a flow exporter, `snmp-server host`, `set system syslog host`, `server 192.0.2.9;`
_DEVICE_HOST = re.compile(
    r"(?im)^[ \t]*(?:(?:set[ \t]+(?:system[ \t]+)?(?:syslog|ntp)[ \t]+)?(?:ip[ \t]+flow-export[ \t]+)?"
    r"(?:logging(?:[ \t]+(?:host|server))?|destination|(?:snmp-server|tacacs-server|radius-server)[ \t]+host"
    r"|ntp[ \t]+server|host|server|address[ \t]+ipv4)[ \t]+"
    r"|[\w*.,;!=-]+[ \t]+@@?(?:\(\w+\))?)" + _HOST_OR_IP  # (syslog's forwarding rule: `*.* @@HOST:514`)
)
_CONFIG_COMMENT = re.compile(r"(?m)^[ \t]*(?:#|//|;).*$")
# Files whose addresses are no connection the system makes: a package's or a tool's metadata (its homepage,
# its repository, its bug tracker), and pipelines and hooks, whose commands are judged as commands
_NOT_CONNECTIONS = re.compile(
    r"(?:^|/)(?:package|composer|tsconfig[\w.-]*|jsconfig|renovate|\.eslintrc[\w.]*|\.prettierrc[\w.]*"
    r"|manifest|mkdocs|Cargo|pyproject|\.pre-commit-config|dependabot|\.gitlab-ci|bitbucket-pipelines"
    r"|azure-pipelines|openapi|swagger|Chart|catalog-info)\.(?:json|jsonc|ya?ml|toml)$"
    r"|(?:^|/)\.(?:github|circleci|buildkite|husky)/"
)


# What names a vocabulary, not a place to connect: XML namespaces and the schemas an editor validates
# against (`xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`, `xsi:schemaLocation`), a DOCTYPE's DTD
_XML_IDENTIFIERS = re.compile(
    r"""\b(?:xmlns(?::[\w.-]+)?|[\w.-]+:(?:schemaLocation|noNamespaceSchemaLocation))\s*=\s*(?:"[^"]*"|'[^']*')"""
    r"|<!DOCTYPE[^>]*>"
)


# A content security policy's directive and the sources it lets a page load from (`img-src 'self'
# https://img.clerk.com`): hosts the visitor's browser may fetch, no place the system sends to
_POLICY_SOURCES = re.compile(
    r"(?i)\b(?:(?:default|script|style|img|connect|font|frame|media|object|worker|manifest|child|prefetch)-src"
    r"(?:-elem|-attr)?|form-action|frame-ancestors|base-uri)\b[^;\"\n]*"
)


# The origins a server lets call it (`quarkus.http.cors.origins=https://shop.acme.com`, `allowedOrigins:
# [...]`, `Access-Control-Allow-Origin: https://x`): browsers' pages it answers, no place it sends to
_ORIGIN_SETTING = re.compile(rf"(?im)^[^\n]*{_ORIGINS_NAME}[\"']?\s*[:=][^\n]*$")


# A JSON schema's address (`"$schema": "https://openapi.vercel.sh/vercel.json"`): what editors validate the
# file against, never where the deployed system connects
_SCHEMA_REFERENCE = re.compile(r"""["']?\$(?:schema|id)["']?\s*:\s*["']?[^\s"',]+""")


# A setting whose address is a link shown to people (an alert's runbook or dashboard, a help page, a logo):
# nothing is sent there, someone may follow it
_PEOPLE_LINK = re.compile(
    r"""(?im)^[ \t-]*["']?[\w.-]*(?:runbook|dashboard|docs?|documentation|help|homepage|wiki|playbook|link"""
    r"""|icon|logo|avatar|image_?url)[\w.-]*["']?[ \t]*[:=][ \t]*["']?https?://[^\s"']+"""
)


def _config_hosts(text: str) -> list[str]:
    bare = _CONFIG_COMMENT.sub("", text[:MAX_SETTINGS_TEXT])
    if "$schema" in bare or "$id" in bare:
        bare = _SCHEMA_REFERENCE.sub(" ", bare)
    if "-src" in bare or "frame-ancestors" in bare or "form-action" in bare:
        bare = _POLICY_SOURCES.sub(" ", bare)
    if "rigin" in bare:
        bare = _ORIGIN_SETTING.sub(" ", bare)
    if "<" in bare:
        bare = _XML_IDENTIFIERS.sub("", bare)
    bare = _PEOPLE_LINK.sub(" ", bare)
    found = [m.group(1).lower() for m in _URL_HOST.finditer(bare)]
    found += [m.group(1).lower() for m in _HOST_SETTING.finditer(bare)]
    found += [m.group(1).lower() for m in _DEVICE_HOST.finditer(bare)]
    if "apiVersion" in bare:  # a Kubernetes API's group is its author's domain, and so are the names it
        # gives inside its objects (Gatekeeper's `target: admission.k8s.gatekeeper.sh`): no connection
        from limen.facts.hosts import registrable_name

        groups = {registrable_name(g.lower()) for g in _API_GROUP.findall(bare)}
        found = [host for host in found if registrable_name(host) not in groups]
    return list(dict.fromkeys(found))


_API_GROUP = re.compile(r"(?m)^[ \t-]*[\"']?apiVersion[\"']?\s*:\s*[\"']?([\w-]+(?:\.[\w-]+)+)/")


# Calls that tell a service where to deliver later (a webhook, a subscription, a contact point, an alert's
# notification channel, an integration, an exporter): every later event goes to the addresses they carry
_SUBSCRIBES = re.compile(
    r"(^|_)(?:webhooks?|hooks?|subscriptions?|contact_points?|notification_(?:channel|polic(?:y|ies))s?"
    r"|integrations?|exporters?|receivers?|destinations?|sinks?"
    # a script every visitor's browser loads from where it names (a storefront's script tag): what they type
    # there goes to that host
    r"|script_?tags?)(_|$)"
)


def subscribed_hosts(tool: str, arguments: dict[str, object]) -> list[str]:
    """`pagerduty.create_webhook_subscription(delivery_method={url: ...})`, `grafana.update_contact_point(
    settings={url: ...})`: the hosts of the addresses a call that creates or changes a delivery carries,
    however deep; and, in any call that writes, the hosts set under a key that names where a system sends
    (`update_object(data={"syslog_servers": [...], "ntp_servers": [...]})`, `log_forward_url`). As
    `sends_later` notes, judged as a deployed configuration's are."""
    words = words_of(tool.removeprefix("mcp__").replace("__", "_"))
    if not _GRANTS.search(words):
        return []
    if _SUBSCRIBES.search(words):
        text = json.dumps(arguments, default=str)[:MAX_SETTINGS_TEXT]
        return [SENDS_LATER + host.lower() for host in dict.fromkeys(_URL_HOST.findall(text))][:4]
    hosts: list[str] = []
    _hosts_sent_to(arguments, hosts, 0)
    return [SENDS_LATER + host for host in dict.fromkeys(hosts)][:4]


# An argument's key that names where a system sends its logs, flows, traps, mail or requests
# (`syslog_servers`, `ntp_server`, `log_forward_url`, `smtp_relay`, `upstream`, `http_proxy`)
_SENDS_TO_KEY = re.compile(
    r"(?:^|_)(?:syslog|logging|logs?|ntp|traps?|snmp|netflow|sflow|ipfix|flows?|collectors?|forward\w*|relay"
    r"|smtp|proxy|upstream|mirror|webhook|callback|notify|sink)_?(?:servers?|hosts?|targets?|urls?|uri"
    r"|address(?:es)?|endpoints?|destinations?)?$"
    # where an app sends its own requests (a remote configuration's `payments_base_url`, `api_endpoint`)
    r"|(?:^|_)(?:base|api|backend|gateway|service|server)_?(?:url|uri|host|endpoint)$"
)
_BARE_HOST = re.compile(_HOST_OR_IP + r"(?::\d{1,5})?(?:/\d{1,2})?")


def _hosts_sent_to(value: object, hosts: list[str], depth: int, sending: bool = False) -> None:
    if depth > 6 or len(hosts) >= 8:
        return
    if isinstance(value, dict):
        for key, item in list(value.items())[:64]:
            named = sending or bool(_SENDS_TO_KEY.search(words_of(str(key))))
            _hosts_sent_to(item, hosts, depth + 1, named)
    elif isinstance(value, list):
        for item in value[:64]:
            _hosts_sent_to(item, hosts, depth + 1, sending)
    elif sending and isinstance(value, str) and len(value) < 2048:
        found = _URL_HOST.search(value) or _BARE_HOST.fullmatch(value.strip())
        if found:
            hosts.append(found.group(1).lower())


# A resource a cluster or a cloud controller applies as written (Kubernetes, Istio, Config Connector)
_API_VERSION = re.compile(r"(?m)^apiVersion:[ \t]*[\w./-]+[ \t]*$")
_KIND = re.compile(r"(?m)^kind:[ \t]*[A-Z]\w*[ \t]*$")


def deployed_manifest(text: str) -> bool:
    """`text` is a resource manifest (`apiVersion:` and `kind:`) that a deploy applies as it stands."""
    head = text[:2000]
    return bool(_API_VERSION.search(head) and _KIND.search(head))


def configures_connections(path: str) -> bool:
    """A deployed configuration file that may name where its system connects (not a test's or an
    example's, not a package's metadata or a pipeline)."""
    excluded = _NOT_DEPLOYED.search(below_home(path)) or _NOT_CONNECTIONS.search(below_home(path))
    return bool(_CONFIG_FILE.search(path)) and not excluded


def settings_send_to(settings: dict[str, object]) -> list[str]:
    """The hosts a command line's settings tell what it configures to connect to (`vault audit enable socket
    address=collector.example:9090`, `--endpoint https://otlp.example`), as a configuration file's same
    settings would (`sends_later`): where its data goes from then on."""
    text = "\n".join(f"{k}: {v}" for k, v in list(settings.items())[:64] if isinstance(v, str))
    return [SENDS_LATER + host for host in _config_hosts(text)][:4] if text else []


def sends_later(path: str, before: str, after: str) -> list[str]:
    """Hosts a change to a deployed configuration adds where the system will connect (`remote_write: - url:
    https://metrics-mirror.example`, `endpoint: https://otlp.example:4318`, an Istio `hosts:` entry): the data
    it sends later goes there. Comments and hosts the file named already are left out; where they lead is
    the destination rule's to judge."""
    if not configures_connections(path):
        return []
    known = set(_config_hosts(before))
    return [SENDS_LATER + host for host in _config_hosts(after) if host not in known][:4]


# A program's call that sends what it holds to an address written in it: a request with a body, a log
# handler that ships every record, a beacon, a file uploaded to a named bucket (`requests.post("https://
# x.example/in", json=rows)`, `HTTPHandler("logs.example", "/l")`, `fetch("https://x", {method: "POST"})`,
# Go's `http.Post("https://...")`, `s3.upload_file(path, "bucket", key)`)
_URL_ARG = r"""\(\s*f?[\"'`]https?://([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)"""
_CODE_SEND = re.compile(
    r"""\b(?:requests|httpx|session|client|axios|http|got|superagent|urllib3)\.(?:post|put|patch)(?:Form)?"""
    + _URL_ARG
    + r"""|\bhttp\.Post(?:Form)?"""
    + _URL_ARG
    + r"""|\bNet::HTTP\.post(?:_form)?\(\s*URI\(\s*[\"']https?://([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)"""
    + r"""|\bnavigator\.sendBeacon"""
    + _URL_ARG
    + r"""|\bfetch"""
    + _URL_ARG
    + r"""[^)]{0,200}?\bmethod\s*:\s*[\"'](?:POST|PUT|PATCH)"""
    + r"""|\b(?:HTTPHandler|SysLogHandler|SocketHandler|DatagramHandler|SMTPHandler)\("""
    r"""\s*(?:(?:address|host|mailhost)\s*=\s*)?\(?\s*[\"']([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)[\"']"""
    + r"""|\b(?:upload_file|upload_fileobj)\(\s*[^,()]{1,80},\s*[\"']([a-z0-9][a-z0-9.-]{2,62})[\"']"""
    + r"""|\bput_object\([^)]{0,200}?\bBucket\s*=\s*[\"']([a-z0-9][a-z0-9.-]{2,62})[\"']"""
    # a socket's datagram or connection to an address written in the code (`sock.sendto(data, ("x", 514))`)
    + r"""|(?:\.sendto\([^()\n]{0,120}?,|\bcreate_connection\(|\.connect\()\s*\(\s*[\"']"""
    r"""([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)[\"']\s*,\s*\d+""",
    re.IGNORECASE,
)
_BUCKET_GROUPS = (7, 8)  # the groups that capture a bucket's name, not a host's


def _code_send_hosts(text: str) -> set[str]:
    found: set[str] = set()
    for match in _CODE_SEND.finditer(text[:MAX_SETTINGS_TEXT]):
        for group, value in enumerate(match.groups(), 1):
            if value:
                found.add(f"{value.lower()}.s3.amazonaws.com" if group in _BUCKET_GROUPS else value.lower())
    return found


# A name given an address in code (`FIRMWARE_BASE = "https://..."`, `const API_URL = '...'`, `baseUrl: "..."`)
_URL_CONSTANT = re.compile(
    r"""(?m)^[ \t]*(?:export\s+)?(?:(?:const|let|var|final|static|private|public|val)\s+)*"""
    r"""(?:[\w<>\[\]]+\s+)?([A-Za-z_]\w*)\s*[:=]\s*f?["'`]https?://([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)"""
)


def _repointed_outside(before: str, after: str) -> set[str]:
    """The new hosts of addresses in code that named one of the company's private hosts and now name a
    public one (`FIRMWARE_BASE = 'https://firmware.acme.internal/x'` made `'https://firmware.x-updates.net/
    x'`): what the program fetched from or sent to its own network now comes from or goes to a stranger."""
    from limen.facts.hosts import PRIVATE_ADDRESS, PRIVATE_SUFFIXES

    old = {name: host.lower() for name, host in _URL_CONSTANT.findall(before[:MAX_SETTINGS_TEXT])}
    moved = set()
    for name, host in _URL_CONSTANT.findall(after[:MAX_SETTINGS_TEXT]):
        was = old.get(name, "")
        # (the company's network, not this machine: `http://127.0.0.1:8000` made the product's address is
        # a development setting made the deployed one)
        here = was == "localhost" or was.startswith(("127.", "0."))
        private = not here and (was.endswith(PRIVATE_SUFFIXES) or bool(PRIVATE_ADDRESS.match(was)))
        host = host.lower()
        if (
            private
            and host != was
            and not host.endswith(PRIVATE_SUFFIXES)
            and not PRIVATE_ADDRESS.match(host)
        ):
            moved.add(host)
    return moved


def code_may_send(text: str) -> bool:
    """Whether `text` holds anything `code_sends_later` reads (an address, a log handler, an upload): most
    code holds none, and is passed over without reading the file it replaces."""
    return (
        "://" in text
        or "Handler(" in text
        or "upload_file" in text
        or "put_object" in text
        or "sendto(" in text
        or "connect(" in text
        or "create_connection(" in text
    )


def code_sends_later(path: str, before: str, after: str) -> list[str]:
    """Hosts a change to a program's code makes it send its data to, that the code did not send to before,
    and hosts an address that named a private one is moved to (`_repointed_outside`): where the deployed
    program connects is a destination as a configuration's is (`sends_later`). A test's, an example's and a
    fixture's code is left out."""
    from limen.facts.paths import PROGRAMS

    suffix = path.rsplit("/", 1)[-1].rpartition(".")[2].lower()
    if not code_may_send(after) or f".{suffix}" not in PROGRAMS or _NOT_DEPLOYED.search(below_home(path)):
        return []
    added = (_code_send_hosts(after) - _code_send_hosts(before)) | _repointed_outside(before, after)
    return [SENDS_LATER + host for host in sorted(added)][:4]


# Services that hold and move money, by the words their names, hosts and clients are spelt with
_PAYMENT_SERVICE = re.compile(
    r"(?:^|_)(?:stripe|adyen|paypal|braintree|square|squareup|plaid|wise|transferwise|mollie|razorpay|checkout"
    r"|gocardless|dwolla|marqeta|moov|modern_treasury|payoneer|klarna|worldpay|authorize_net)(?:_|$)"
)
# What moves money out of an account or between accounts, or changes where its payouts go: a payout, a
# transfer, a refund, a charge or a payment confirmed or captured, a top-up, a bank account added
_MOVES_MONEY = re.compile(
    r"(?:^|_)(?:payouts?|transfers?|refunds?|charges?|captures?|topups?|top_ups?|disburse\w*|withdraw\w*"
    r"|external_accounts?|bank_accounts?|send_money|confirm)(?:_|$)"
)


# What moves money or value in any service, whatever it is called (a bank's, an ERP's, a billing system's, a
# game's economy), by the words of its name: a payment sent, a refund or a credit note issued, where a payee's
# money goes changed, an entitlement granted. (A payment method, link or intent is the customer's side: a
# card saved, a checkout page, a charge the customer confirms.)
_MOVES_VALUE = re.compile(
    r"(?:^|_)(?:(?:send|make|create|submit|initiate|execute|schedule|approve|release)_(?:\w+_)?payments?"
    r"|(?:bill|vendor|supplier|wire|bank|ach|sepa)_payments?|send_money|payouts?|refunds?|credit_notes?"
    r"|bank_(?:details|accounts?|info)|payout_(?:accounts?|methods?|destinations?|details)|beneficiar(?:y|ies)"
    r"|payees?|remittance|(?:promotional|grant)_entitlements?"
    # an address funds may be withdrawn to, let in (a custody platform's whitelist of external wallets)
    r"|(?:white|allow)_?listed_(?:\w+_)?address(?:es)?|withdrawal_address(?:es)?)(?:_|$)"
)
# Words that move money only when the call names an amount or an account (`create_transfer(amount=...)`,
# `add_user_virtual_currency(amount=...)`; a file's, a domain's or a job's `transfer` moves none)
_MOVES_PRICED = re.compile(
    r"(?:^|_)(?:transfers?|wires?|pay|withdraw\w*|disburse\w*|remit\w*|(?:apply|issue|add|grant)_(?:\w+_)?credits?"
    r"|(?:add|grant|give|adjust|credit|set)_(?:\w+_)?(?:currency|coins|gems|balances?|miles|points)"
    # a transaction made and sent (a wallet's, a custody platform's): with an amount, value leaves
    r"|(?:create|send|submit|sign|broadcast)_(?:\w+_)?transactions?"
    # an account's balance changed by hand (a folio's, a ledger's, an invoice's): a credit or a charge
    r"|(?:post|create|apply|add|make|book)_(?:\w+_)?adjustments?|write_?offs?)(?:_|$)"
)
_CUSTOMER_SIDE = re.compile(r"(?:^|_)payment_(?:methods?|links?|intents?|pages?|sessions?)(?:_|$)")
# The arguments that carry money: an amount, a currency, a bank account
_MONEY_KEY = re.compile(
    r"(?:^|_)(?:amount|amounts|amount_\w+|currency|iban|bic|swift|routing_number|account_number|sort_code"
    r"|bank_account|price|price_\w+|unit_amount|delta"
    # the account value is moved into (`transfer_tickets(quantity=120, to_account="resale-acct-77c1f3")`)
    r"|(?:to|destination|target|recipient|beneficiary)_account(?:_\w+)?)$"
)


def moves_money(tool: str, service: str = "", arguments: dict[str, object] | None = None) -> str:
    """The words of a call that move money or value: any call to a payment service (by its name, or by
    `service`, the host's or the client library's) that `_MOVES_MONEY` names, and any service's call that
    `_MOVES_VALUE` names, or `_MOVES_PRICED` with an amount or an account among its arguments
    (`update_vendor_bank_details`, `issue_credit_note`, `create_transfer(amount=...)`). "" for a read, a
    call held back from the real account (`livemode: false`, `_held_back`) and any other call (a list, a
    product, a webhook)."""
    words = words_of(tool.removeprefix("mcp__").replace("__", "_"))
    if reads_by_name(tool) or not _LOOKS_ONLY.isdisjoint(words.split("_")):
        return ""
    if arguments and _held_back(arguments):
        return ""
    paid = _PAYMENT_SERVICE.search(words) or (service and _PAYMENT_SERVICE.search(words_of(service)))
    if paid and (found := _MOVES_MONEY.search(words)):
        return found.group(0).strip("_")
    if not tool.startswith("mcp__") or service:
        return ""  # (a method in code, `queue.transfer()`, names no money by its words alone)
    words = _CUSTOMER_SIDE.sub("_", words)
    found = _MOVES_VALUE.search(words)
    if found is None and (priced := _MOVES_PRICED.search(words)):
        leaves = _leaves(arguments or {})
        found = priced if any(_MONEY_KEY.search(words_of(k.rsplit(".", 1)[-1])) for k, _ in leaves) else None
    if found is None and _bank_account_given(arguments or {}):
        if _CHANGES_ANYTHING.search(words):
            return "a bank account set"  # `update_account(external_account={routing_number, account_number})`
        if any(_AMOUNT_KEY.search(words_of(k.rsplit(".", 1)[-1])) for k, _ in _leaves(arguments or {})):
            return (
                "an amount paid to a bank account"  # `issue_payoff(amount, routing_number, account_number)`
            )
    if (
        found is None
        and any(
            v is True and _PAYS_AT_ONCE.match(words_of(str(k)))
            for k, v in list((arguments or {}).items())[:32]
        )
        and any(_MONEY_KEY.search(words_of(str(k))) for k in list(arguments or {})[:32])
    ):
        return "a payment made at once"  # `create_ap_invoice(amount=96400.0, auto_pay=true)`
    return found.group(0).strip("_") if found else ""


# An argument that gives a sum of money (with a bank account beside it, whatever the call is called)
_AMOUNT_KEY = re.compile(r"(?:^|_)(?:amount|amounts|amount_\w+|sum|total|value_usd|usd|eur|gbp)$")
# A switch that pays what the call records at once (`auto_pay`, `pay_now`, `auto_disburse`)
_PAYS_AT_ONCE = re.compile(r"^(?:auto_?pay|pay_?now|pay_?immediately|auto_?disburse|auto_?settle)$")
# Calls that set or change something, and the arguments that name a bank account where money is paid
_CHANGES_ANYTHING = re.compile(
    r"(?:^|_)(?:update|set|change|create|add|replace|modify|patch|edit|put)(?:_|$)"
)
_BANK_KEYS = re.compile(
    r"(?:^|_)(?:iban|routing_number|aba|sort_code|bsb|swift|bic|account_number|account_no|bank_routing|bank_account)$"
)


def _bank_account_given(arguments: dict[str, object]) -> bool:
    """The arguments give a bank account: an IBAN, or a routing (or sort) code with an account number."""
    keys = {words_of(k.rsplit(".", 1)[-1]) for k, v in _leaves(arguments) if isinstance(v, str | int) and v}
    banks = {k for k in keys if _BANK_KEYS.search(k)}
    return any(k.endswith("iban") for k in banks) or (
        any(k.endswith(("account_number", "account_no", "bank_account")) for k in banks) and len(banks) >= 2
    )


def service_call_notes(tool: str, arguments: dict[str, object], service: str = "") -> list[str]:
    """A call to a service that is no MCP tool judged as the MCP tool call it equals: a client library's
    method named by its object and method (`HfApi.delete_repo`, `artifact_collection.delete`), a REST
    request by its verb and path (`update_zones_9f1c_settings_ssl`), with the service its host belongs to
    (`service`): a store destroyed, a control switched off, access widened."""
    notes = []
    if what := destroys_store(tool, arguments):
        notes.append(DESTROYS_STORE + what)
    if what := changes_controls(tool, arguments, service):
        notes.append(what)
    if money := moves_money(tool, service):  # `stripe.Payout.create(...)`, `POST api.stripe.com/v1/transfers`
        notes.append(f"{PRODUCTION_TARGET}money moved ({money})")
    elif given := _gives_away(tool, arguments):  # a GraphQL `discountCodeBasicCreate(... percentage: 1.0)`
        notes.append(PRODUCTION_TARGET + given)
    if _CHANGES_PUBLIC_NAME.search(words_of(tool)):
        notes.append(PRODUCTION_TARGET + "a public DNS name")
    return notes


# What opens a thing to anyone by the value a call gives, whatever the call is named: a canned ACL that lets
# anyone read (`acl: "public-read"`), a page let into search engines, a sharing setting for anyone or anyone
# with the link, a grant to the public as a principal (`{"email": "public"}`, Drive's `type: "anyone"`)
_PUBLIC_ACLS = frozenset(
    {"public-read", "public-read-write", "authenticated-read", "publicread", "public_read"}
)
_ACL_KEY = re.compile(r"(?:^|_)acl$")
_INDEXED_KEY = re.compile(
    r"(?:^|_)(?:search_engines?|search_engine_index\w*|indexable|discoverable|allow_discovery)$"
)
_SHARING_KEY = re.compile(
    r"(?:^|_)(?:public_access|public_link|public_sharing|link_sharing|link_access|general_access"
    r"|anonymous_access|anyone_access|shared_link_access"
    # SharePoint's and OneDrive's settings: who may be shared with, and the link made by default
    r"|sharing_capability|default_link_type|default_sharing_link_type)$"
)
_CLOSED_WORDS = frozenset(
    {
        "",
        "none",
        "no",
        "off",
        "false",
        "private",
        "restricted",
        "disabled",
        "disable",
        "internal",
        "organization",
    }
    | {"organisation", "org", "domain", "team", "members", "company", "invited", "invite_only", "nobody"}
    | {"direct", "specific_people", "specificpeople", "existing_access", "existingaccess"}
)
_OPEN_ACCESS = frozenset({"open", "public", "anyone", "anyone_with_link", "anyonewithlink"})
_PRINCIPAL_KEYS = frozenset(
    {
        "email",
        "type",
        "principal",
        "member",
        "grantee",
        "identity",
        "who",
        "entity",
        "share_with",
        "shared_with",
        "accessor",
        "accessor_type",
        "principal_type",
        "grantee_type",
    }
)
_EVERYONE_PRINCIPALS = frozenset(
    {"public", "anyone", "everyone", "allusers", "allauthenticatedusers", "anonymous", "anyone_with_link"}
    | {"anyonewithlink", "all_users", "world"}  # (Teamcenter's and Unix's `World`: every account there is)
)


def _public_by_value(settings: list[tuple[str, object]]) -> str:
    """What in a call's settings opens what it acts on to anyone (`_PUBLIC_ACLS`, `_INDEXED_KEY`,
    `_SHARING_KEY`, `_EVERYONE_PRINCIPALS`), or "" (a private ACL, sharing set to none, a named person)."""
    for key, value in settings[:128]:
        last = key.rsplit(".", 1)[-1]
        if _KEEPS_OUT.search(last):  # `block_public_access: true`: a protection
            continue
        if isinstance(value, str):
            text = value.strip().lower()
            if _ACL_KEY.search(last) and text in _PUBLIC_ACLS:
                return f"the ACL {text}"
            if last in _PRINCIPAL_KEYS and (
                text.replace("-", "_") in _EVERYONE_PRINCIPALS
                or (text.startswith(("everyone ", "anyone ")) and "except" not in text)
            ):  # SharePoint's "Everyone including external users" (its "Everyone except external users" is
                # the organisation's own)
                return f"access for {text}"
            if _SHARING_KEY.search(last) and text.replace("-", "_") not in _CLOSED_WORDS:
                return f"{last} set to {text[:40]}"
            if (
                last == "access" and text.replace("-", "_") in _OPEN_ACCESS
            ):  # Box's shared link `access: open`
                return f"access set to {text}"
            if last == "requested_visibility" and text == "public":
                return "a link anyone may open"  # Dropbox's shared link `settings.requested_visibility`
            if last in ("privacy", "privacy_level", "privacy_status") and text == "public":
                return (
                    f"{last} set to public"  # an LTI tool sent names and emails, a private video made public
                )
        if _INDEXED_KEY.search(last) and (value is True or str(value).strip().lower() in _ON_WORDS):
            return "search engines let index it"
        if _SHARING_KEY.search(last) and (
            value is True or (isinstance(value, dict) and value.get("enabled") is True)
        ):
            return f"{last} turned on"
    return ""


def _silenced(settings: list[tuple[str, object]]) -> str:
    """What makes a silence a switch-off: it lasts longer than a week (its start and end, ISO 8601), or its
    matchers match every alert (`alertname=~.+`). "" for an ordinary silence (a namespace for two hours)."""
    from datetime import datetime

    times = {}
    for key, value in settings:
        word = words_of(key.rsplit(".", 1)[-1])
        if isinstance(value, str) and _SILENCE_BOUND.match(word):
            with suppress(ValueError):
                moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
                times["end" if word.startswith("end") else "start"] = moment
    with suppress(TypeError):  # (one bound with a time zone and one without: not compared)
        if len(times) == 2 and (days := (times["end"] - times["start"]).days) > _SILENCE_DAYS:
            return f"for {days} days"
    for key, value in settings:  # a length instead (`duration_minutes: 43200`)
        unit = _DURATION.match(words_of(key.rsplit(".", 1)[-1]))
        if unit and isinstance(value, int | float) and not isinstance(value, bool):
            length = value * _SECONDS_IN[unit.group(1) or "minutes"] / 86400
            if length > _SILENCE_DAYS:
                return f"for {int(length)} days"
    if any(
        words_of(k.rsplit(".", 1)[-1]) in _SILENCE_SCOPE_KEYS
        and any(str(item).strip() in _EVERY_ALERT for item in (v if isinstance(v, list) else [v])[:16])
        for k, v in settings
    ):  # an Alertmanager matcher's `value: ".*"`, a Datadog downtime's `scope: "*"` or `monitor_tags: ["*"]`
        return "every alert"
    return ""


# Endpoints other services or probes call, which carry no user's login by nature (a webhook checks its
# sender's signature in its code), and the checks of a caller's login that they go without
_CALLED_BY_OTHERS = re.compile(r"(?:^|_)(?:webhooks?|callbacks?|healthz?|ping|status)(?:_|$)")
_CALLER_CHECK = re.compile(
    r"(?:^|_)(?:verify_jwt|jwt|auth(?:entication|n)?|require_auth|verify_token)(?:_|$)"
)
_SILENCE_BOUND = re.compile(r"^(?:starts?_?at|start_?time|start|ends?_?at|end_?time|end)$")


def _levels(value: object) -> list[object]:
    """An access setting's levels: the value itself, a role object's name (`role: {name: Admin}`), or each of
    a list of them (`roles: ["SUPER_ADMIN"]`, `[{"name": "realm-admin"}]`)."""
    if isinstance(value, list):
        return [level for item in value[:32] if not isinstance(item, list) for level in _levels(item)]
    if isinstance(value, dict):
        return [v for k, v in value.items() if k in ("name", "id", "value", "role") and isinstance(v, str)]
    return [value] if isinstance(value, str | int) else []


def _statement_allows_everything(value: object, depth: int = 0) -> bool:
    """A policy statement given as data that allows every action (`{"Effect": "Allow", "Action": "*"}`, as
    IAM and the services that copy its shape write one), anywhere in a call's arguments to a small depth."""
    if depth > 5:
        return False
    if isinstance(value, list):
        return any(_statement_allows_everything(v, depth + 1) for v in value[:32])
    if not isinstance(value, dict):
        return False
    keys = {str(k).lower(): v for k, v in list(value.items())[:64]}
    action = keys.get("action")
    every = action in ("*", "iam:*") or (
        isinstance(action, list) and bool({"*", "iam:*"} & set(map(str, action)))
    )
    if str(keys.get("effect", "")).lower() == "allow" and every:
        return True
    return any(_statement_allows_everything(v, depth + 1) for v in keys.values())


# A switch that makes an account an administrator (`superAdmin`, `is_admin`, `admin`, `is_superuser`)
_ADMIN_FLAG = re.compile(r"(?:is_)?(?:super_?)?admin(?:istrator)?|(?:is_)?super_?user")


def changes_controls(tool: str, arguments: dict[str, object], service: str = "") -> str:
    """A note for what an MCP tool's call does to a control ("" for nothing): switches one off by an argument
    or by its name (`CONTROL_OFF`), grants administrator access (`ADMIN_GRANTED`), opens what it names to
    everyone (`MADE_PUBLIC`), or deletes the default branch (`BRANCH_DELETED`)."""
    words = words_of(tool.removeprefix("mcp__").replace("__", "_"))
    if _LIFTS.search(words):
        return f"{CONTROL_OFF}a tool that lifts a protection ({words})"
    # a watching service by the tool's name, or by the host a request goes to (`PUT api.pagerduty.com/...`)
    monitoring = bool(_MONITORING.search(words) or (service and _MONITORING.search(words_of(service))))
    settings = _nested_settings(arguments)
    for _key, value in settings[:64]:  # an environment file's text given whole (`content: "APP_DEBUG=true"`)
        if isinstance(value, str) and "=" in value and "\n" in value:
            for name, setting in _DOTENV_LINE.findall(value[:MAX_SETTINGS_TEXT]):
                if _DEBUG_KEY.search(words_of(name)) and setting.strip("\"'").lower() in _ON_WORDS | {"1"}:
                    return f"{CONTROL_OFF}{name} switches debugging on in a deployed configuration"
    if public := _public_by_value(settings):
        return f"{MADE_PUBLIC}{public} by {words}"
    if _SHARE_LINK.search(words) and any(
        (k.rsplit(".", 1)[-1] == "public" and v is True)
        or (k.rsplit(".", 1)[-1] == "audience" and str(v).lower() in ("public", "anyone"))
        for k, v in settings
    ):  # `create_share_link(public=true)`, Dropbox's `create_shared_link(settings={audience: public})` (a
        # campaign's audience is a list of its own)
        return f"{MADE_PUBLIC}a link anyone may open made by {words}"
    if _SILENCES.search(words) and (quieted := _silenced(settings)):
        return f"{CONTROL_OFF}alerts silenced by {words}: {quieted}"
    for key, value in settings[:64]:  # `PATCH .../config/auth {"jwt_exp": 315360000}`: tokens good for years
        lifetime = isinstance(value, int | str) and not isinstance(value, bool)
        if lifetime and (lasting := _lifetime_raised(key.replace(".", "_"), None, str(value))):
            return f"{CONTROL_OFF}{key} {lasting}"
    if monitoring and any(
        words_of(k.rsplit(".", 1)[-1]) in ("status", "state", "enabled") and _off(v, counts=False)
        for k, v in settings
    ):  # `pagerduty.update_service(status="disabled")`: nothing pages for it any more
        return f"{CONTROL_OFF}monitoring switched off by {words}"
    if monitoring and any(
        (words_of(k.rsplit(".", 1)[-1]) in _PAUSED and v is True)
        or ("delete" in words and "rules" in words_of(k) and v is True)
        for k, v in settings
    ):  # Grafana's `update_alert_rule_group(isPaused=true)`, Sentry's `isMuted`, `forceDeleteRules`
        return f"{CONTROL_OFF}alerting paused or its rules deleted by {words}"
    if (monitoring or _ALERTING.search(words)) and any(
        words_of(k.rsplit(".", 1)[-1]) in _ALERT_TARGETS and v == [] for k, v in settings
    ):  # `update_escalation_policy(rules=[])`, `update_alert_rule(notify=[])`: an alert that reaches nobody
        return f"{CONTROL_OFF}alerts sent to nobody by {words}"
    for key, value in settings[:64]:  # Salesforce's `ModifyAllData: true` on a profile: every record
        if value is True and words_of(key.rsplit(".", 1)[-1]) in _EVERY_RECORD_PERMISSIONS:
            return f"{ADMIN_GRANTED}{key.rsplit('.', 1)[-1]} given by {words}"
    if _SETS_PASSWORD.search(words) and any(
        _PASSWORD_KEY.search(k) and isinstance(v, str) and not v.strip() for k, v in settings
    ):  # `set_branch_password(branch="internal-qa", password="")`: anyone may now open it
        return f"{MADE_PUBLIC}the password taken off by {words}"
    if _SWITCHED_OFF.search(words):  # `deactivate_policy`, `.../logStreams/{id}/lifecycle/deactivate`
        return f"{CONTROL_OFF}a guard switched off by {words}"
    if _ERASES_RECORDS.search(words):  # `delete_logs_archive`, `purge_audit_events`, `delete_trail`
        return f"{CONTROL_OFF}the records of what was done erased by {words}"
    if _GUARD_RESOURCE.search(words) and any(
        (
            words_of(k.rsplit(".", 1)[-1]) in ("status", "state", "enabled", "active")
            and (_off(v, counts=False) or (isinstance(v, str) and v.strip().lower() in _INACTIVE))
        )
        or (words_of(k) in _ACTION_KEYS and isinstance(v, str) and v.strip().lower() in _OFF_ACTIONS)
        # Hetzner's `change_protection(delete=false, rebuild=false)`: what a protection stops, let through
        or ("protection" in words and words_of(k) in _PROTECTED_ACTIONS and v is False)
        for k, v in settings
    ):  # `PUT /api/v1/policies/{id}` `{"status": "INACTIVE"}`, `update_detection_rule(enabled=false)`,
        # FalconPy's `PreventionPolicies.perform_action(action_name="disable")`
        return f"{CONTROL_OFF}a guard's state set to off by {words}"
    if monitoring and _UNPAGED.search(words):
        # `opsgenie.disable_integration`, `delete_schedule`, `delete_escalation`: what pages, or whom, gone
        return f"{CONTROL_OFF}monitoring switched off by {words}"
    for name, value in settings:
        if _RECORDED_TO.search(name) and isinstance(value, str) and value.strip("\"' ;") in _NOWHERE:
            return f"{CONTROL_OFF}{name} set to {value.strip()!r}: nothing it records is kept"
        negated = _NEGATED.fullmatch(name)
        if negated and _CONTROL_KEYS.search(negated.group(1) or negated.group(2)):
            if value is True or str(value).strip("\"' ").lower() in _ON_OR_ONE:  # `CSRF_DISABLED=true`
                return f"{CONTROL_OFF}{name} set to {value!r}"
            continue  # `ssl_disabled: false` keeps it on
        if _WEAK_WHEN_ON.search(name):  # `insecure_skip_verify: true`, `dangerouslyAllowAllBuilds: true`
            if value is True or (isinstance(value, str) and value.strip("\"' ").lower() in _ON_OR_ONE):
                return f"{CONTROL_OFF}{name} turned on"
            continue  # `PasswordAuthentication no`: what weakens when on, off is a hardening
        if not (_CONTROL_KEYS.search(name) or _BYPASS.search(name)) or name == "required":
            continue  # (a form's or a schema's `required: false` aside)
        if _PRIVILEGE_NEEDED.search(name):
            continue  # `Rules-Requires-Root: no`: the task runs with less
        if _CALLED_BY_OTHERS.search(name) and _CALLER_CHECK.search(name):
            continue  # `[functions.stripe-webhook] verify_jwt = false`: a webhook checks its own signature
        if _EXCEPTION_KEY.search(name):  # `allow_failure: false` keeps the check: only true lets it go
            listed = isinstance(value, list) and any(isinstance(v, str) and v.strip() for v in value)
            if value is True or listed or (isinstance(value, str) and value.strip().lower() in _ON_OR_ONE):
                return f"{CONTROL_OFF}{name} set to {value!r}"
        elif _off(value, counts="approv" in name) or (value is None and "protect" in name):
            # (a protection object cleared: Vercel's `"ssoProtection": null` takes the login off previews)
            return f"{CONTROL_OFF}{name} set to {value!r}"
    if _ADMITS.search(words) and _lets_every_address_in(arguments):
        # `set_firewall_rules(rules=[{"port": "5432", "source_ips": ["0.0.0.0/0"]}])`: as a cloud CLI's rule
        return f"{MADE_PUBLIC}every address let in by {words}"
    if _OPENS.search(words) and (
        str(arguments.get("visibility", "")).lower() == "public"
        or any(_opens_to_everyone(k, v) or (_PUBLIC.search(k) and v == {}) for k, v in settings)
    ):  # `update_repo_settings(private=False)`, `push_to_hub(private=False)`, `publicNetworkAccess: Enabled`,
        # a policy's `include: [{everyone: {}}]`
        return f"{MADE_PUBLIC}made public by {words}"
    if _GRANTS.search(words) and any(
        _ALLOW_LIST_KEYS.search(words_of(k))
        and isinstance(v, str)
        and _ANYONE.match(v.strip(" \"'[]"))
        and not _OUTBOUND.search(k)  # `egress.cidr: 0.0.0.0/0`: where traffic goes, not who comes in
        for k, v in arguments.items()
    ):  # a sign-in client that sends tokens to any site, an API any origin may call
        return f"{MADE_PUBLIC}any site or address let in by {words}"
    if _GRANTS.search(words) and (
        any(isinstance(v, str) and policy_allows_everything(v[:MAX_SETTINGS_TEXT]) for _k, v in settings[:64])
        or _statement_allows_everything(arguments)
    ):  # `write_policy(policy='path "*" { capabilities = ["sudo", ...] }')`, an IAM document of `*` on `*`
        return f"{ADMIN_GRANTED}a policy that allows everything written by {words}"
    access_keys = _ACCESS_KEYS | _ROLE_NAME_KEYS if _ROLE_RESOURCE.search(words) else _ACCESS_KEYS
    if _GRANTS.search(words) and any(
        (k in access_keys or k.rsplit("_", 1)[-1] in _ROLE_KEYS)  # (`spec.role` in a manifest)
        and any(_ADMIN_LEVELS.match(str(level).strip()) for level in _levels(v))
        for k, v in settings
    ):  # `add_member(access_level=50)`, `create_users(user: {role: owner})`, `role: {name: Admin}`, a role
        # resource's entry (`POST /api/v1/users/{id}/roles` `{"type": "SUPER_ADMIN"}`)
        return f"{ADMIN_GRANTED}administrator access granted by {words}"
    if _MAKES_ADMIN.search(words) and not any(v is False for _k, v in settings):
        return f"{ADMIN_GRANTED}someone made an administrator by {words}"
    if _GRANTS.search(words) and any(_ADMIN_FLAG.fullmatch(k) and v is True for k, v in settings):
        return f"{ADMIN_GRANTED}an administrator's flag set by {words}"  # `POST /users {"superAdmin": true}`
    if any(
        _DEFAULT_ROLE.search(k) and any(_ADMIN_LEVELS.match(str(level).strip()) for level in _levels(v))
        for k, v in settings
    ):  # WordPress's `update_settings(default_role="administrator")`: everyone who signs up is one
        return f"{ADMIN_GRANTED}everyone who signs up, or every visitor, is made an administrator by {words}"
    claims = {words_of(k): v for k, v in arguments.items() if words_of(k) in _CLAIM_KEYS}
    if _GRANTS.search(words) and (
        any(
            isinstance(v, dict) and any(_ADMIN_LEVELS.match(str(c)) and w is True for c, w in v.items())
            for v in claims.values()
        )
        or (_ADMIN_LEVELS.match(str(claims.get("claim", ""))) and arguments.get("value") is True)
    ):  # Firebase's `auth_set_claim(claim=admin, value=true)`, `set_custom_claims(claims={admin: true})`
        return f"{ADMIN_GRANTED}an administrator's claim set by {words}"
    if _MEMBERSHIP.search(words) and any(
        isinstance(v, str) and _ANYONE.match(v.strip()) is not None and _SUBJECT_KEYS.search(k)
        for k, v in settings
    ):  # `add_space_permission(subject_type="anonymous", operation="read")`
        return f"{MADE_PUBLIC}{words} gives anyone access"
    if _MEMBERSHIP.search(words) and (
        _ADMIN_GROUP.search(words)
        or any(isinstance(v, str) and _ADMIN_GROUP.search(words_of(v[:80])) for _k, v in settings[:64])
    ):  # `samba-tool group addmembers "Domain Admins" svc`, `add_member(group="ldap-admins", ...)`
        return f"{ADMIN_GRANTED}someone added to a group of administrators by {words}"
    if any(
        _ADMINS_SETTING.search(words_of(k.rsplit(".", 1)[-1])) and isinstance(v, str | int | list) and v
        for k, v in settings[:64]
    ):  # Moodle's `cfg.php --name=siteadmins --set=2,47,88213`: the setting that lists the administrators
        return f"{ADMIN_GRANTED}the list of administrators set by {words}"
    if _CONSENT.search(words) and (
        "admin" in words.split("_")
        or any(_FOR_EVERYONE.search(k) and v is True for k, v in settings)
        or any(isinstance(v, str) and v.strip().lower() in _EVERYTHING for _k, v in settings)
    ):  # Entra's `grant_admin_consent(app_id=..., scopes=[Mail.Read, Files.Read.All], tenant_wide=true)`
        return f"{ADMIN_GRANTED}an application let read for every user of the organisation by {words}"
    if _GRANTS.search(words) and any(
        _RECOVERY_CONTACT.search(words_of(k.rsplit(".", 1)[-1])) and isinstance(v, str) and v.strip()
        for k, v in settings
    ):  # `update_user_profile(profile={secondEmail: ...})`: where the account's resets and codes go
        return f"{ADMIN_GRANTED}where an account's password resets and sign-in codes go changed by {words}"
    if _MEMBERSHIP.search(words) and (outsider := _personal_address(arguments)):
        return f"{ADMIN_GRANTED}{words} gives {outsider} access: a personal account, not the organisation's"
    forwards = _FORWARDING.search(words) or any(_FORWARDING.search(k) or v == "forward" for k, v in settings)
    if forwards and (outsider := _personal_address(arguments)):  # a filter's or a rule's `forward` action
        return f"{MADE_PUBLIC}{words} forwards mail to {outsider}: a personal account, not the organisation's"
    if forwards and (hidden := _forwarded_and_hidden(settings)):
        # `create_inbox_rule(actions={forward_to: [...], mark_as_read: true, move_to_folder: "RSS Feeds"})`
        return f"{MADE_PUBLIC}{words} forwards mail elsewhere and {hidden}, out of the owner's sight"
    if forwards and (outsider := _forwarded_elsewhere(arguments)):
        # `create_inbox_rule(mailbox="ap@contoso.com", actions={forward_to: ["ap@contoso-invoices.co"]})`
        return (
            f"{MADE_PUBLIC}{words} forwards a mailbox's mail to {outsider}: another domain than the mailbox's"
        )
    if (
        _REF_WORDS.search(words)
        and arguments.get("force") is True
        and any(
            PROTECTED_BRANCHES.match(str(v).strip().lower().removeprefix("refs/").removeprefix("heads/"))
            for k, v in arguments.items()
            if words_of(k) in ("ref", "branch")
        )
    ):  # `update_ref(ref="heads/main", sha=..., force=true)`: the branch's history replaced
        return f"{BRANCH_DELETED}a protected branch's history overwritten by a forced {words}"
    if re.search(r"(^|_)delete_branch(_|$)", words) and any(
        PROTECTED_BRANCHES.match(str(v).strip().lower())
        for k, v in arguments.items()
        if "branch" in words_of(k)
    ):
        return f"{BRANCH_DELETED}the default branch deleted"
    # `set_iam_policy(policy={"bindings": [{"members": ["allUsers"]}]})`, `set_policy_file(policy='{"acls":
    # [{"src": ["*"]}]}')`: the document judged as the same document in a file would be
    opened = _documents_let_in(arguments)
    if opened and not _web_ports_only(_listed_leaves(arguments)):
        key, value = min(opened)
        return f"{MADE_PUBLIC}{key} lets in {value}: anyone"
    return ""


def _documents_let_in(arguments: dict[str, object]) -> set[tuple[str, str]]:
    """Who the documents a tool is handed let in (a policy, an ACL, a configuration given whole, as an object
    or as its JSON text), read as the same document in a file is (`_anyone_in_data`)."""
    found: set[tuple[str, str]] = set()
    for key, value in list(arguments.items())[:32]:
        document: object = value if isinstance(value, dict | list) else None
        if isinstance(value, str) and value.lstrip()[:1] in ("{", "[") and len(value) <= MAX_SETTINGS_TEXT:
            try:
                document = json.loads(value)
            except ValueError:
                continue
        if document is not None:
            _anyone_in_data(document, (str(key),), found)
    return found


# Words of a tool's name that say it only looks, or only restarts what runs as it is
_LOOKS_ONLY = frozenset(
    {"info", "list", "ls", "get", "show", "status", "logs", "log", "describe", "view", "read", "diagnose"}
    | {"restart", "health", "metrics", "releases", "whoami"}
)
PRODUCTION_TARGET = "production-target:"  # the normaliser's note for a tool call aimed at production
# Arguments that name what a call acts on: an app, an environment, a cluster, a database
# (not a tracker's `project` or a wiki's `space`: an issue resolved in `web-prod` changes no production)
_TARGET_KEYS = re.compile(
    r"(?:^|_)(?:app|application|env|environment|stage|service|cluster|site|namespace|target|database|db"
    r"|instance|deployment|pipeline|stack|function|fleet|context|connection)(?:_(?:name|id|slug))?$"
)
# A switch that sends a deploy or a setting to production (`prod: true`, `production: true`, `is_production`)
_PRODUCTION_FLAG = re.compile(r"(?:^|_)(?:prod|production)$")
# The role a site gives whoever registers or is invited without one
# (and the role of whoever is not signed in: Flask-AppBuilder's and Airflow's `AUTH_ROLE_PUBLIC`)
_DEFAULT_ROLE = re.compile(
    r"(?:^|_)(?:default|new_user|signup|registration|public|anonymous|guest)_(?:user_)?roles?$"
    r"|(?:^|_)roles?_(?:public|anonymous|guest)$"
)
BULK_TARGET = "bulk-target:"  # the normaliser's note for a tool call that acts on every item it could name
# Arguments that choose which items a call acts on, and the values that choose them all
_SELECTOR_KEYS = re.compile(
    r"(?:^|_)(?:selector|select|filter|where|match|scope|target|targets|group|devices?|items|resources?|query"
    r"|users?|members?|subscriptions?|records?|ids?"
    # who a message, a ban or an export reaches: a segment, an audience, a role, a contact list
    r"|segments?|audiences?|roles?|lists?|list_ids?|list_name)$"
)
# A selector's value that names everyone by a name (`segment: "All Players"`, `role: "@everyone"`,
# `list_id: "all-customers"`, `audience: "all_users"`)
_EVERYONE_NAMED = re.compile(r"(?i)^(?:[\w-]+/)?@?(?:everyone|all|(?:all|every)[ _-][\w &'(),.+-]{1,48})$")
# A value that tells the call to act on all it holds (`action: "remove_all"`), or a query that matches every
# name (`name==*`, `name:*`)
_ALL_ACTION = re.compile(r"(?i)^(?:remove|delete|clear|purge|wipe|erase|revoke|cancel|discontinue)_?all$")
_QUERY_OF_ALL = re.compile(r"^\s*[\w.]+\s*(?:==|=|:)\s*\*\s*$")
# How many items a call acts on at most (`delete_records(limit=10000)`), and the calls for which a large
# number is the whole store: those that delete, archive, ban or revoke
_LIMIT_KEYS = re.compile(r"(?:^|_)(?:limit|max|max_\w+|count|batch_size|per_page|page_size)$")
_REMOVES = re.compile(
    r"(?:^|_)(?:delete|remove|archive|ban|purge|erase|wipe|destroy|revoke|deactivate|suspend|disable|unpublish)"
    r"(?:_|$)"
)
_MANY = 1000
_EVERYTHING = frozenset({"*", "all", "every", "everything", "any", "%", "*:*", "/.*/", ".*"})
_WILDCARD_NAMES = frozenset({"*", "*:*", "%", ".*", "*.*", "/.*/"})  # what stands for every name
# (an event's `all_day` is when it is, not what it acts on)
_ALL_FLAG = re.compile(r"^(?:all|select_all|all_(?!day(?:_|$))\w+|every_\w+)$|(?:^|_)(?:to|for)_all(?:_|$)")


# Arguments that name where a release goes (a store's track, a platform's branch, an update's channel), and
# the names of the one everyone gets
_CHANNEL_KEYS = frozenset({"branch", "channel", "track", "ring", "stage", "environment", "env", "audience"})
_EVERYONES = re.compile(r"(?i)^(?:default|public|production|prod|stable|live|release|main|general|ga)$")
# A tool that starts a forge's workflow or pipeline, the argument naming which, and a name that releases
_STARTS_WORKFLOW = re.compile(r"(^|_)(?:run|trigger|dispatch|start|queue)(_|$)")
_WORKFLOW_KEYS = re.compile(r"(?:^|_)(?:workflow|pipeline|definition|job|workflow_id|pipeline_id)(?:_|$)")
_RELEASES = re.compile(r"(?i)(?:^|[^a-z])(?:release|deploy|publish|promote|ship|rollout)")


# A call named for changing a DNS record or a domain's name servers (an MCP tool, a REST request by its verb
# and path: `patch_client_v4_zones_9f1c_dns_records_7a2b`)
_CHANGES_PUBLIC_NAME = re.compile(
    r"(?:^|_)(?:create|update|edit|patch|put|post|delete|set|modify|change|add|remove)_(?:[a-z0-9]+_){0,8}?"
    r"(?:dns|nameservers?|cname)(?:_|$)"
    # (the verb after the noun: `dns_record_update`, `dns_records_create`)
    r"|(?:^|_)(?:dns|nameservers?|cname)_(?:[a-z0-9]+_){0,4}?(?:create|update|edit|patch|put|set|modify|change"
    r"|add|remove|delete)(?:_|$)"
)


# A tool named for publishing what it is given (not its notes or its draft): as `gh release create`,
# `npm publish` or `fastlane deliver` are on the command line
_PUBLISHES = re.compile(
    r"(?:^|_)(?:publish\w*|release|releases|submit|submission|promote|rollout)(?:_|$)(?!.*(?:notes?|drafts?)(?:_|$))"
)


# What a message broker's publish is given: a message's topic, queue or exchange (MQTT's, Kafka's, NATS's, a
# cloud's pub/sub): a message sent to its subscribers, judged by where it goes, not a release to the public
_MESSAGE_KEYS = frozenset(
    {"topic", "topic_name", "topic_arn", "queue", "queue_url", "exchange", "routing_key"}
)


# Switches that keep a call from the real thing when on (a draft, a rehearsal, a test account), and those
# that do when off (Stripe's `livemode: false`)
_REHEARSAL_ON = frozenset(
    {"draft", "prerelease", "dry_run", "dryrun", "test_mode", "testmode", "sandbox", "test"}
)
_LIVE_OFF = frozenset({"livemode", "live_mode", "live"})


def _held_back(arguments: dict[str, object]) -> bool:
    """A call kept from the public or from the real account: a draft, a pre-release, a dry run, a test
    account's (`livemode: false`, `sandbox: true`), or a target, a project or a mode that names no production
    (`track="internal"`, `environment="staging"`, `project="acme-mobile-staging"`)."""
    from limen.facts.programs import NOT_PRODUCTION

    for key, value in list(arguments.items())[:32]:
        word = words_of(str(key))
        if (word in _REHEARSAL_ON and value in (True, "true")) or (
            word in _LIVE_OFF and value in (False, "false")
        ):
            return True
        targets = (
            word in _CHANNEL_KEYS
            or _TARGET_KEYS.search(word) is not None
            or word in ("project", "project_id", "mode")
        )
        if targets and isinstance(value, str) and len(value) <= 120 and NOT_PRODUCTION.search(value):
            return True
    return False


# A switch that makes a service do what it would otherwise refuse (a live theme, a non-empty bucket, a
# protected resource deleted)
_FORCED = re.compile(r"^(?:force|forced|force_delete|override\w*|skip_\w*checks?|ignore_\w*protection\w*)$")
# A switch that skips what a service requires before it acts (`override_inspections`, `bypass_review`,
# `suppress_approval`, `ignore_reservations`)
_OVERRIDES = re.compile(
    r"^(?:override|bypass|skip|suppress|ignore|no)_\w*(?:inspections?|checks?|reviews?|approvals?|validation"
    r"|verification|reservations?|interlocks?|limits?|holds?|cooling_?off|cooling_?period|waiting_?period"
    # a sign-off the rules require: a signature, a second person, a consent, a screening
    r"|signatures?|sign_?offs?|consents?|authori[sz]ations?|screening|sanctions|kyc|aml|mfa|two_?factor|2fa"
    r"|dual_?control|four_?eyes|second_?(?:approver|signer)|restrictions?)$"
    # what the service warns of, overridden rather than answered (`override_warnings`, `bypass_alerts`)
    r"|^(?:override|bypass)_\w*(?:warnings?|errors?|alerts?|flags?|blocks?)$"
    # the same said the other way round (`consent_override`, `kyc_bypass`, `review_waived`)
    r"|^\w*(?:consents?|approvals?|reviews?|checks?|verification|signatures?|kyc|aml|screening|limits?|holds?)"
    r"_(?:override|overridden|bypass|bypassed|waiver|waived|skipped)$"
)
# A switch that lets a send reach those who opted out, excluded themselves or are barred
# (`include_unsubscribed`, a gambling operator's `include_self_excluded`, `include_gamstop_flagged`)
_OPTED_OUT = re.compile(
    r"^include_\w*(?:self_?excluded|excluded|unsubscribed|opted_?out|suppressed|do_not_\w+|gamstop\w*|blocked"
    r"|blacklisted|bounced|complained)\w*$"
)
# A control system's tool that commands equipment: a tag, a register or a coil written, a setpoint set, a
# breaker, a valve or a pump operated (`write_tags`, `set_generator_setpoint`, `open_breaker`)
_COMMANDS_EQUIPMENT = re.compile(
    r"(?:^|_)(?:write|set|trip|open|close|force|actuate|operate|override|command)_(?:\w+_)?"
    r"(?:tags?|setpoints?|registers?|coils?|breakers?|valves?|actuators?|pumps?|relays?|outputs?|dampers?)(?:_|$)"
    # (an OPC UA server's node written: a graph database's `set_node_property` is no machine's)
    r"|(?:^|_)write_nodes?(?:_|$)"
)


def production_target(tool: str, arguments: dict[str, object]) -> str:
    """The production app, environment or cluster an MCP tool that is no read (or a query tool given a
    statement that writes) acts on (`ps_scale(app="shop-prod")`, `maintenance_on(app="shop-production")`,
    `query(connection="prod-primary", sql="DELETE ...")`), by an argument that names its target; "" when
    none does (a staging target, or production only mentioned in a message's text)."""
    from limen.facts.programs import NOT_PRODUCTION, PRODUCTION

    looks = reads_by_name(tool) or not _LOOKS_ONLY.isdisjoint(words_of(tool.split("__")[-1]).split("_"))
    if looks and not _writes_a_database(arguments):  # (a `query` tool given `DELETE ...` writes)
        return ""  # `pg_info`, `ps_restart`: a look at production, or a restart that changes nothing in it
    if _CHANGES_PUBLIC_NAME.search(words_of(tool.split("__")[-1])):
        return "a public DNS name"  # `update_dns_record(content=IP)`: where the public's requests now go
    if money := moves_money(tool, "", arguments):  # `mcp__stripe__create_refund(...)`: the server's account
        return f"money moved ({money})"
    if given := _gives_away(tool, arguments):
        return given
    if _COMMANDS_EQUIPMENT.search(words_of(tool.split("__")[-1])) and not _held_back(arguments):
        return "a command to physical equipment"  # `write_tags(path=".../52-F3/TripCmd", value=true)`
    if _REMOVES.search(words_of(tool.split("__")[-1])) and any(
        v is True and _FORCED.match(words_of(str(k))) for k, v in list(arguments.items())[:32]
    ):  # `delete_theme(theme_id=..., force=true)`: the service would have refused it (the live theme)
        return "a delete forced past the service's own refusal"
    if any(
        (v is True or (isinstance(v, list) and v)) and _OVERRIDES.match(words_of(str(k)))
        for k, v in list(arguments.items())[:32]
    ):
        return "a step the service requires skipped"  # `approve_permit(override_inspections=true)`
    if any(v is True and _OPTED_OUT.match(words_of(str(k))) for k, v in list(arguments.items())[:32]):
        return "a message sent to those who asked not to receive it"  # (`include_self_excluded=true`)
    released = any(_RELEASES.search(str(k)) for k in list(arguments)[:32])  # `update_track(releases=[...])`
    if (
        released
        or _RELEASES.search(tool.split("__")[-1])
        or "live" in words_of(tool.split("__")[-1]).split("_")
    ):
        for key, value in list(arguments.items())[:32]:  # `set_build_live(branch="default")`: every player
            if (
                isinstance(value, str)
                and words_of(str(key)) in _CHANNEL_KEYS
                and _EVERYONES.match(value.strip())
            ):
                return f"a release to {value.strip()[:40]}"
    if (
        _PUBLISHES.search(words_of(tool.split("__")[-1]))
        and not _held_back(arguments)
        and _MESSAGE_KEYS.isdisjoint(words_of(str(k)) for k in arguments)
    ):
        return (
            "a release"  # `create_app_store_version_submission(...)`, `publish_package(...)`: to the public
        )
    if _STARTS_WORKFLOW.search(words_of(tool.split("__")[-1])):
        for key, value in list(arguments.items())[:32]:  # `run_workflow(workflow_id="release.yml")`
            if (
                isinstance(value, str)
                and _WORKFLOW_KEYS.search(words_of(str(key)))
                and _RELEASES.search(value)
                and not NOT_PRODUCTION.search(value)
            ):
                return value
    for key, value in _leaves(arguments):  # (nested too: `{"operation": ..., "params": {"prod": true}}`)
        name = words_of(key.rsplit(".", 1)[-1])
        if (
            isinstance(value, str)
            and len(value) <= 120
            and _TARGET_KEYS.search(name)
            and PRODUCTION.search(value)
            and not NOT_PRODUCTION.search(value)
        ):
            return value
        if value is True and _PRODUCTION_FLAG.search(name):  # `deploy_site(prod=True)`, as `--prod` says
            return "production"
    return ""


def _gives_away(tool: str, arguments: dict[str, object]) -> str:
    """What a shop's or a payment service's tool that is no read gives away: the payout of a sale sent to
    another account (Stripe's `transfer_data.destination`, `on_behalf_of`), a discount of the whole price
    (`percent_off: 100`, Shopify's `percentage: 1.0`), an existing price or fee changed to nothing, a
    subscription cancelled. "" otherwise."""
    words = words_of(tool.split("__")[-1])
    if _CANCELS_SUBSCRIPTION.search(words):
        return "a customer's subscription cancelled"
    for key, value in _leaves(arguments):
        name = words_of(key.replace(".", "_"))
        if _PAYOUT_ELSEWHERE.search(name) and isinstance(value, str) and value.startswith("acct_"):
            return f"a sale's money sent to the account {value[:40]}"
        free = (_WHOLE_DISCOUNT.search(name) and value in (100, 100.0, "100")) or (
            name.endswith("percentage") and value in (1, 1.0, "1", "1.0") and _DISCOUNTS.search(words)
        )
        if free and not isinstance(value, bool):
            return "a discount of the whole price"
        if (
            _PRICE_KEY.search(name)
            and value in (0, 0.0, "0", "0.00")
            and not isinstance(value, bool)
            and _REPRICES.search(words)
        ):  # `update_package_price(price_cents=0)`, `bulk_update_tariff(changes={monthly_fee: 0})`
            return f"a price set to nothing ({key})"
    if _DISCOUNTS.search(words) and _whole_percentage(arguments):
        return "a discount of the whole price"  # `create_discount_code(value_type=percentage, value=-100)`
    return ""


def _whole_percentage(arguments: dict[str, object]) -> bool:
    """A discount given as a percentage by a type beside its value (`value_type: percentage, value: -100.0`,
    as Shopify's and most shops' price rules take it) that takes the whole price off."""
    kinds = {str(v).lower() for k, v in arguments.items() if words_of(k) in _DISCOUNT_TYPE_KEYS}
    if not kinds & {"percentage", "percent", "percent_off"}:
        return False
    amounts = [
        v for k, v in arguments.items() if words_of(k) in _DISCOUNT_VALUE_KEYS and not isinstance(v, bool)
    ]
    return any((number := _as_number(v)) is not None and abs(number) >= 100 for v in amounts)


def _as_number(value: object) -> float | None:
    """A number, or a number written as text; None for anything else."""
    try:
        return float(str(value))
    except ValueError:
        return None


_DISCOUNT_TYPE_KEYS = frozenset({"value_type", "type", "discount_type", "kind", "amount_type"})
_DISCOUNT_VALUE_KEYS = frozenset({"value", "amount", "discount", "discount_value", "percentage"})


# Tools that set who may connect (a firewall's, a security group's, a database's allow-list), and every
# address as a rule's source
_ADMITS = re.compile(
    r"(?:^|_)(?:firewalls?|security_groups?|ingress|inbound|allow_?list|ip_allow\w*|access_lists?|acls?"
    r"|authorized_networks?|network_rules?|trusted_sources?)(?:_|$)"
)
_EVERY_ADDRESS_VALUE = frozenset({"0.0.0.0/0", "::/0", "0.0.0.0", "any", "internet", "*"})
_PORT_KEY = re.compile(r"(?:^|_)(?:port|ports|port_range|from_port|to_port|destination_port)$")


def _listed_leaves(arguments: dict[str, object]) -> list[tuple[str, object]]:
    """(its own key, value) of each value the arguments hold, objects and lists opened (to a depth): the
    rules of a firewall's list, each read by its keys."""
    pairs: list[tuple[str, object]] = []

    def walk(key: str, value: object, depth: int) -> None:
        if depth > 6 or len(pairs) > 256:
            return
        if isinstance(value, dict):
            for inner, item in list(value.items())[:32]:
                walk(str(inner), item, depth + 1)
        elif isinstance(value, list):
            for item in value[:32]:
                walk(key, item, depth + 1)
        else:
            pairs.append((key, value))

    walk("", arguments, 0)
    return pairs


def _lets_every_address_in(arguments: dict[str, object]) -> bool:
    """A rule among the arguments whose source is every address, to anything but the web's ports."""
    pairs = _listed_leaves(arguments)
    world = any(
        isinstance(v, str) and v.strip().lower() in _EVERY_ADDRESS_VALUE and not _PORT_KEY.search(words_of(k))
        for k, v in pairs
    )
    return world and not _web_ports_only(pairs)


def _web_ports_only(pairs: list[tuple[str, object]]) -> bool:
    """The ports the values name are the web's (80, 443) and nothing else: a site served to everyone."""
    ports = {str(v).strip() for k, v in pairs if _PORT_KEY.search(words_of(k))}
    return bool(ports) and ports <= {"80", "443"}


def _leaves(value: object, path: str = "", depth: int = 0) -> list[tuple[str, object]]:
    """A call's arguments as (dotted key, value) for every value that is no object, to a bounded depth
    (`customerGets.value.percentage`: Shopify's discount, four levels down)."""
    if not isinstance(value, dict) or depth > 6:
        return [(path, value)] if path else []
    found: list[tuple[str, object]] = []
    for key, item in list(value.items())[:32]:
        found += _leaves(item, f"{path}.{key}" if path else str(key), depth + 1)
    return found[:128]


_CANCELS_SUBSCRIPTION = re.compile(
    r"(?:^|_)cancel(?:_\w+)?_subscriptions?(?:_|$)|(?:^|_)subscriptions?_cancel(?:_|$)"
)
_PAYOUT_ELSEWHERE = re.compile(r"(?:^|_)(?:transfer_data_destination|on_behalf_of|destination)$")
_DISCOUNTS = re.compile(r"discount|coupon|promotion|price_rule|graphql")
_WHOLE_DISCOUNT = re.compile(r"(?:percent_off|discount_(?:pct|percent|percentage))$")
# What a customer pays, and the calls that change what an existing product or plan costs (a new free plan is
# made with `create_price(unit_amount=0)`, which is no change)
_PRICE_KEY = re.compile(r"(?:^|_)(?:price|prices|price_\w+|unit_amount|fee|\w+_fee|tariff|rate_per_\w+)$")
_REPRICES = re.compile(
    r"(?:^|_)(?:update|set|change|bulk|patch|modify)_(?:\w+_)?"
    r"(?:prices?|pricing|tariffs?|fees?|plans?|packages?|rates?)(?:_|$)"
)


def every_item(tool: str, arguments: dict[str, object]) -> str:
    """The argument by which an MCP tool that is no read acts on every item it could name (`bulk_command(
    selector="*")`, `delete_devices(filter={"group": "all"})`, `update(all_devices=true)`, `ban_users(segment=
    "All Players")`, `delete_records(limit=10000)`): a fleet reset, a table emptied, every subscription
    cancelled, every customer mailed, in one call; "" when it names its items."""
    if reads_by_name(tool):
        return ""
    settings = _nested_settings(arguments)
    for key, value in settings:
        if isinstance(value, str) and (_ALL_ACTION.match(value.strip()) or _QUERY_OF_ALL.match(value)):
            return f"{key}: {value[:40]}"  # `update_allergy_list(action="remove_all")`, `query="name==*"`
    named = words_of(tool.split("__")[-1]).split("_")
    if not _LOOKS_ONLY.isdisjoint(named) and _CHANGE_VERBS.isdisjoint(named):
        return ""  # (`get_status`, `restart_service`; `bulk_update_status` and `set_market_status` change)
    for key, value in settings:
        if value is True and _ALL_FLAG.search(key):
            return f"{key}: true"
        texts = value if isinstance(value, list) and len(value) == 1 else [value]
        wildcard = any(isinstance(v, str) and v.strip() in _WILDCARD_NAMES for v in texts) or (
            isinstance(value, list) and texts[0] == "ALL" and key.endswith("s")
        )  # `cancel_pnr(record_locators=["ALL"])`: a list of items that names them all
        if wildcard or (
            (_SELECTOR_KEYS.search(key) or _ITEMS_NAMED.search(key))
            and any(
                isinstance(v, str) and (v.strip().lower() in _EVERYTHING or _EVERYONE_NAMED.match(v.strip()))
                for v in texts
            )
        ):  # (any item's name given as a wildcard names them all: `adjust_inventory(sku="*")`)
            return f"{key}: {texts[0]}"
        if (
            _LIMIT_KEYS.search(key)
            and isinstance(value, int)
            and not isinstance(value, bool)
            and value >= _MANY
            and _REMOVES.search(words_of(tool.split("__")[-1]))
        ):  # `delete_records(query=..., limit=10000)`: as many as a query matches
            return f"{key}: {value}"
    return _matched_by_filter(tool, arguments)


# An argument named for the items a call acts on, in the plural (`robots: "all"`, `listings: "*"`), not for
# what it shows of them or how (`fields`, `columns`, `include`)
_ITEMS_NAMED = re.compile(
    r"^(?!.*(?:^|_)(?:fields|columns|details|properties|attributes|include|includes|expand|options|settings"
    r"|notifications|events|formats|languages|days|hours)$)(?:\w+_)?[a-z]{3,}[^s_]s$"
)


# A tool that changes many items at once, by its name: it says so (`bulk_update_work_orders`,
# `batch_archive`), or it changes items of a kind, in the plural (`void_envelopes`, `retire_devices`)
_BULK_WORDS = frozenset({"bulk", "batch", "mass", "many", "broadcast"})
_SENDS_MESSAGES = frozenset(
    {"send", "sms", "email", "emails", "message", "messages", "notify", "text", "blast"}
)
_CHANGE_VERBS = frozenset(
    {
        *("delete", "remove", "update", "void", "cancel", "resolve", "close", "archive", "fulfill", "purge"),
        *("terminate", "retire", "decommission", "disable", "deactivate", "suspend", "revoke", "expire"),
        *("unpublish", "mute", "reassign", "transfer", "move", "erase", "wipe", "destroy", "ban", "set"),
    }
)
# What a call makes or only looks at, never what it changes (`create_filter(criteria=...)`: the filter is the
# thing made; `export_tickets(query=...)`: a copy)
_NO_CHANGE_WORDS = frozenset(
    {"create", "add", "new", "export", "search", "find", "count", "preview", "estimate", "validate", "test"}
)
# The arguments by which a call picks its items by what they are, not by name
_MATCHING_KEYS = re.compile(
    r"(?:^|_)(?:filters?|query|q|where|search|jql|criteria|conditions?|selector|mask|pattern|glob)$"
)
# Of those, the ones that pick items by their names' shape, and a wildcard that makes one pick many
_NAME_PATTERN_KEYS = re.compile(r"(?:^|_)(?:mask|pattern|glob)$")
_WILDCARD = re.compile(r"[*?%]|\.\*")
# A filter that names its items after all: by their ids or names (`query="id:4411"`, `filter={"ids": [...]}`,
# `query="name==fw-1.2.0-rc1"`), with no wildcard and no second condition
_BY_ID = re.compile(
    r"(?i)^\s*\(?\s*(?:id|ids|key|name|slug|sku|number|\w+_(?:id|ids|name|number))\s*(?:=|==|:|\bin\b)"
    r"(?![^*]*\*)(?!.*(?:\^|\bAND\b|\bOR\b|&&|\|\|))"
)


def _matched_by_filter(tool: str, arguments: dict[str, object]) -> str:
    """The filter by which a tool that changes many items at once picks them (`bulk_resolve(query=
    "priority<=2^state!=6")`, `void_envelopes(filter={"status": "sent"})`, `delete_points(query=
    "tag:=SUB*")`): every item that matches is changed in one call, however many that is; "" when the call
    names its items (by id or name), is not such a tool, or its query is an SQL statement (judged as SQL)."""
    words = words_of(tool.split("__")[-1]).split("_")
    if not _BULK_WORDS.isdisjoint(words) and not _SENDS_MESSAGES.isdisjoint(words):
        return "a message sent to a whole list"  # `send_bulk_sms(to_list=...)`: everyone on it, at once
    if not _NO_CHANGE_WORDS.isdisjoint(words):
        return ""
    plural = len(words) > 1 and words[-1].endswith("s") and not words[-1].endswith(("ss", "us"))
    if _BULK_WORDS.isdisjoint(words) and not (words[0] in _CHANGE_VERBS and plural):
        return ""
    for key, value in list(arguments.items())[:32]:
        if not _MATCHING_KEYS.search(words_of(str(key))) or (
            isinstance(value, str) and _SQL_STATEMENT.match(value[:100_000])
        ):
            continue
        if isinstance(value, dict) and value and all(_BY_ID.match(str(k) + ":") for k in value):
            continue  # `filter={"id": [...]}`: the items named
        if isinstance(value, str) and (not value.strip() or _BY_ID.match(value)):
            continue
        if (
            isinstance(value, str)
            and _NAME_PATTERN_KEYS.search(words_of(str(key)))
            and not _WILDCARD.search(value)
        ):
            continue  # `delete_tags(tag_mask="L4.Temp01")`: a mask with no wildcard names one item
        if isinstance(value, (str, dict, list)):
            return f"{key}: {json.dumps(value)[:40] if not isinstance(value, str) else value[:40]}"
    one = {words[-1][:-1], words[-1][:-2]}  # (`delete_branches(branch=...)`, `delete_tags(tag_mask=...)`)
    if (not _BULK_WORDS.isdisjoint(words) or (words[0] in _REMOVING_VERBS and plural)) and not any(
        _NAMES_ITEMS.search(words_of(str(key)))
        or _MATCHING_KEYS.search(words_of(str(key)))  # (a filter that names its items, or SQL, seen above)
        or not one.isdisjoint(words_of(str(key)).split("_"))
        or isinstance(value, list)
        for key, value in arguments.items()
    ):
        # `void_envelopes(status="sent", created_after=...)`, `bulk_approve_withdrawals(status="held")`: no
        # item named, so every one its other arguments describe
        for key, value in list(arguments.items())[:32]:
            if isinstance(value, str) and value.strip() and not _DESCRIBES.search(words_of(str(key))):
                return f"{key}: {value[:40]}"
    return ""


# The verbs of `_CHANGE_VERBS` that end or take away what they act on (not `update`, `set`: a plural there
# is often one thing's settings), and the arguments that name items or only describe the call
_REMOVING_VERBS = _CHANGE_VERBS - {
    "update",
    "set",
    "move",
    "mute",
    "reassign",
    "transfer",
    "resolve",
    "fulfill",
}
_NAMES_ITEMS = re.compile(r"(?:^|_)(?:ids?|names?|numbers?|keys?|uuids?|slugs?|skus?|emails?|paths?|urls?)$")
_DESCRIBES = re.compile(
    r"(?:^|_)(?:reason|note|notes|comment|message|description|subject|body|memo|title|text|reason_code)$"
)


# The argument that names the setting a call sets, where another (`value`) gives its value
_SETTING_NAME_KEYS = ("parameter", "param", "param_name", "name", "key", "setting")
_SETTING_VALUE_KEYS = ("value", "set", "val")
_SETTING_NODE_KEYS = ("node", "component", "plugin", "section")


def _nested_settings(arguments: dict[str, object]) -> list[tuple[str, object]]:
    """A call's arguments as (words of the key, value), first the setting a name-and-value pair makes
    (`parameter=X, value=false` reads as `X: false`), then the settings of objects inside them (`options:
    {"sentry:scrub_data": false}`, `include: [{"everyone": {}}]`) to a small depth, in order."""
    found: list[tuple[str, object]] = []
    named = next((arguments[k] for k in _SETTING_NAME_KEYS if isinstance(arguments.get(k), str)), None)
    given = next((k for k in _SETTING_VALUE_KEYS if k in arguments), None)
    if isinstance(named, str) and given:  # `set_parameter(node=..., parameter=X, value=false)`, a settings
        # CLI's `--component=tool_mfa --name=enabled --set=0`
        node = next((arguments[k] for k in _SETTING_NODE_KEYS if isinstance(arguments.get(k), str)), None)
        value = arguments[given]
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # (a parameter's `0` is a switch's off, as `param set NAME 0` writes it)
        found.append((words_of(f"{node}.{named}" if isinstance(node, str) else named), value))
    layer: list[dict[str, object]] = [arguments]
    for _ in range(3):
        inner: list[dict[str, object]] = []
        for mapping in layer[:32]:
            for key, value in list(mapping.items())[:64]:
                found.append((words_of(str(key)), value))
                items = value if isinstance(value, list) else [value]
                inner.extend(v for v in items[:16] if isinstance(v, dict))
        layer = inner
    return found


# Calls that add someone to what they name (a member, a guest, a collaborator, a share), and calls that set
# where mail goes on (a forwarding or routing rule, a catch-all)
# (and the groups whose members administer what the group is for: `Domain Admins`, `wheel`, `sudo`)
_ADMIN_GROUP = re.compile(r"(?:^|_)(?:admins|administrators|wheel|sudo|sudoers|superusers|owners)(?:_|$)")
# A call that makes a link to share what it names (`create_share_link`, `share_asset`, `generate_public_link`)
_SHARE_LINK = re.compile(
    r"(?:^|_)(?:share|sharing|shared)_?(?:links?|urls?)?(?:_|$)|(?:^|_)(?:public_)?links?(?:_|$)"
)
# A grant of an application's access made by an administrator for the whole organisation, and the switches
# that make a grant everyone's
_CONSENT = re.compile(r"(?:^|_)(?:consents?|authori[sz]e_app(?:lication)?s?)(?:_|$)")
_FOR_EVERYONE = re.compile(r"(?:^|_)(?:tenant_wide|org_wide|organization_wide|all_users|everyone|for_all)$")
# Where an account's recovery goes: the second address or phone its password resets and codes are sent to
_RECOVERY_CONTACT = re.compile(
    r"(?:^|_)(?:second|secondary|recovery|alternate|alternative|alt|backup)_(?:email|mail|phone|mobile|number)$"
)
# A setting that lists who the administrators are (`siteadmins`, `admin_users`, `superusers`)
_ADMINS_SETTING = re.compile(
    r"^(?:site_?|super_?|global_?)?(?:admins|administrators|admin_users|superusers)$"
)
_MEMBERSHIP = re.compile(
    r"(^|_)(?:members?|addmembers?|invite[sd]?|invitations?|collaborators?|guests?|share[sd]?|sharing|permissions?"
    r"|role_assignments?|role_bindings?|grants?|to_groups?|owners?|ownership)(_|$)"
)


def forked_away(tool: str, arguments: dict[str, object], own_owner: str) -> str:
    """A note when a forge tool forks the project's own repository (its origin's owner, `own_owner`) into
    another account (`fork_repository(owner=acme, repo=x, organization=me-dev)`, or with no account named,
    the signed-in user's): its code, private or not, is copied out of the organisation. "" otherwise."""
    words = words_of(tool.removeprefix("mcp__").replace("__", "_"))
    source = str(arguments.get("owner") or "").strip().lower()
    if not own_owner or source != own_owner.lower() or not re.search(r"(^|_)fork(_|$)", words):
        return ""
    into = next((str(v).strip() for k, v in arguments.items() if words_of(k) in _FORK_TARGET_KEYS and v), "")
    if into.lower() == source:
        return ""
    return f"{MADE_PUBLIC}{words} copies the repository to {into or 'the signed-in account'}"


# Arguments that name whom a grant is for
_SUBJECT_KEYS = re.compile(
    r"(?:^|_)(?:subject|principal|grantee|member|user|group|type|entity|audience|who|scope)s?(?:_|$)"
)
_FORWARDING = re.compile(r"(^|_)(?:forward\w*|forwarding|routing|catch_all|redirect_mail|mail_redirect)(_|$)")
_REF_WORDS = re.compile(r"(^|_)(?:update_ref|refs?|push|update_branch)(_|$)")
MAIL_ADDRESS = re.compile(r"[\w.+-]+@([\w-]+(?:\.[\w-]+)+)")


# What a mail rule does to hide the mail it forwards: marks it read, moves it out of the inbox, deletes it
_HIDES_MAIL = {
    "mark_as_read": "marks it read",
    "mark_read": "marks it read",
    "move_to_folder": "moves it out of the inbox",
    "move_to": "moves it out of the inbox",
    "skip_inbox": "keeps it out of the inbox",
    "delete": "deletes it",
    "permanent_delete": "deletes it",
}


def _forwarded_and_hidden(settings: list[tuple[str, object]]) -> str:
    """What a forwarding rule also does to keep the owner from seeing the mail it sends on (marks it read,
    moves it away, deletes it; Gmail's `removeLabelIds: ["INBOX"]`), or ""."""
    for key, value in settings[:64]:
        word = words_of(key.rsplit(".", 1)[-1])
        if word in _HIDES_MAIL and value not in (False, None, "", "false", "Inbox", "INBOX"):
            return _HIDES_MAIL[word]
        if word == "remove_label_ids" and isinstance(value, list) and "INBOX" in value:
            return "keeps it out of the inbox"
    return ""


def _personal_address(arguments: dict[str, object]) -> str:
    """The first address among a call's values (at any depth) at a free mail provider, or ""."""
    stack: list[object] = list(arguments.values())
    for _ in range(256):
        if not stack:
            break
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value[:64])
        elif isinstance(value, str) and "@" in value:
            for found in MAIL_ADDRESS.finditer(value[:2000]):
                if found.group(1).lower() in FREE_MAIL_DOMAINS:
                    return found.group(0)
    return ""


# Whose mail a rule or a setting acts on, and where it sends a copy
_MAILBOX_KEYS = frozenset({"mailbox", "user", "user_id", "owner", "account", "identity", "email", "address"})
_FORWARD_TARGET = re.compile(r"(?:^|_)(?:forward\w*|redirect\w*|forwarding_address|send_copy_to)$")


def _forwarded_elsewhere(arguments: dict[str, object]) -> str:
    """The address a mailbox's mail is forwarded to, when its domain is not the mailbox's own (the call names
    the mailbox by its address): a look-alike of the organisation's domain, or anyone's. ""."""
    own = {
        found.group(1).lower()
        for key, value in list(arguments.items())[:32]
        if words_of(str(key)) in _MAILBOX_KEYS and isinstance(value, str)
        for found in MAIL_ADDRESS.finditer(value[:500])
    }
    if not own:
        return ""
    for key, value in _leaves(arguments):
        if not _FORWARD_TARGET.search(words_of(key.rsplit(".", 1)[-1])):
            continue
        for text in value if isinstance(value, list) else [value]:
            for found in MAIL_ADDRESS.finditer(str(text)[:500]):
                if found.group(1).lower() not in own:
                    return found.group(0)
    return ""


def code_runner(tool: str) -> tuple[str, str] | None:
    """How a tool named like `python_execute` runs the program it is given, or None for no known language."""
    # the server's name may be the one to say it: `mcp__python__run`
    words = words_of(tool.removeprefix("mcp__").replace("__", "_"))
    return next((runner for pattern, runner in CODE_RUNNERS if pattern.search(words)), None)


# Arguments that hold a command line (`cli_command`, `shell_command`, `run_cmd` too, by their last word)
_COMMAND_KEYS = frozenset({"command", "cmd", "script", "command_line", "commandline", "cli"})
# A statement that changes a database, whatever the tool's name says (`query` tools run DROP too).
DB_WRITE = "db.write"
SQL_KEYS = frozenset({"sql", "query", "statement", "stmt", "q"})  # arguments that hold SQL
SQL_WRITE = re.compile(
    r"(?:^|;|\bas\s*\()\s*(?:with\b.*?\)\s*)?"  # `WITH x AS (DELETE FROM t RETURNING 1) SELECT ...` too
    r"(drop|delete|truncate|alter|update|insert|upsert|merge|replace|grant|revoke|create|rename"
    # a block or a procedure that may do any of these, a statement built and run, a bulk load or unload
    r"|do|call|exec|execute|copy|load|set\s+password)\b",
    re.IGNORECASE | re.DOTALL,
)


_SQL_COMMENT = re.compile(r"/\*.*?(?:\*/|$)|--[^\n]*|#[^\n]*", re.DOTALL)


# A value that is a SQL statement whatever its argument is called (`pg_psql(command="DROP TABLE users")`):
# its first words, comments aside, are a statement's; no program of a shell is called so
_SQL_STATEMENT = prefiltered(
    r"(?is)^\s*(?:(?:/\*.*?\*/|--[^\n]*\n)\s*)*(?:select\s.*\bfrom\b|insert\s+into\s|update\s+[\w.\"`]+\s+set\s"
    r"|delete\s+from\s|drop\s+(?:table|database|schema|view|index|user|role|owned|materialized)\s"
    r"|truncate\s|alter\s+(?:table|database|user|role|system|schema|default)\s|grant\s.*\b(?:on|to)\s"
    r"|revoke\s|create\s+(?:table|index|user|role|database|schema|or\s+replace|unique|extension)\s"
    r"|with\s+\w+\s+as\s*\(|merge\s+into\s|copy\s+[\w.\"(]+.*\b(?:from|to)\b)"
)


def is_sql_argument(key: str, value: object) -> bool:
    """An argument that holds SQL: named for it (`sql`, `query`), or a statement under any name. A GraphQL
    document under `query` (`mutation { ... }`, `{ shop { name } }`) is none: `normalize.graphql` reads it."""
    return (
        isinstance(value, str)
        and (words_of(key) in SQL_KEYS or (len(value) < 100_000 and _SQL_STATEMENT.match(value) is not None))
        and _GRAPHQL_DOCUMENT.match(value) is None
    )


_GRAPHQL_DOCUMENT = re.compile(r"\s*(?:#[^\n]*\n\s*)*(?:mutation\b|subscription\b|fragment\b|query\b|\{)")


def sql_statements(arguments: dict[str, object]) -> list[str]:
    """The SQL a tool's arguments hold (`is_sql_argument`), every reader's one source."""
    return [str(v) for k, v in arguments.items() if is_sql_argument(k, v)]


def _writes_a_database(arguments: dict[str, object]) -> bool:
    """A statement that changes the database, comments aside (`/* cleanup */ DROP TABLE users`)."""
    return any(SQL_WRITE.search(_SQL_COMMENT.sub(" ", text)) for text in sql_statements(arguments))


# Arguments of unknown and MCP tools judged by value as well as by name: a list of paths under any name, a
# `source`/`destination` pair, an absolute or home path, a URL, an argv whose first word is a program.
_PATH_LIST_KEYS = frozenset(
    {"paths", "files", "source", "destination", "src", "dst", "dest", "target", "from_path", "to_path"}
)
# The files a message or a mail carries, when given as paths (an attachment may also be a stored file's id
# or an object: `attachments: [{"type": "file", "file_id": "19"}]`, no file of this machine)
_ATTACHMENT_KEYS = frozenset({"attachments", "attachment"})
_NOT_PATH_KEYS = frozenset(_PAYLOAD_KEYS) | {"subject", "description", "title", "name", "pattern", "regex"}
# (places inside a service that are spelt as paths: a broker's virtual host, a web route, a topic, an object
# store's prefix: `purge_queue(vhost="/dev")` touches no folder of this machine)
_NOT_PATH_KEYS |= {"vhost", "virtual_host", "route", "http_path", "url_path", "api_path", "endpoint", "topic"}
_NOT_PATH_KEYS |= {"channel", "prefix"}
_ARGV_KEYS = frozenset({"argv", "args", "arguments", "cmd_args", "command_args", "command"})
_ABSOLUTE = re.compile(r"^(?:/|~/|~$|[A-Za-z]:[\\/]|\\\\)[^\n\r\t]{0,1023}$")
# Web and message brokers' addresses only (`facts.hosts.WEB_SCHEMES`, `BROKER_SCHEMES`): `notes://readme`
# under any name is a server's own id.
_URL = re.compile(
    rf"^(?:{'|'.join(sorted(WEB_SCHEMES | BROKER_SCHEMES | OBJECT_STORE_HOSTS.keys()))})://\S{{1,2048}}$",
    re.IGNORECASE,
)  # (and object stores' addresses, `gs://bucket/key`: where a tool reads or puts data, no local path)


def _strings_of(value: object) -> list[str] | None:
    """A string or a non-empty list of strings, as a list; None for any other shape."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def _strings_only(value: object) -> bool:
    """A string, or a non-empty list of strings."""
    if isinstance(value, str):
        return bool(value)
    return isinstance(value, (list, tuple)) and bool(value) and all(isinstance(v, str) for v in value)


def _looks_like_paths(value: object) -> bool:
    found = _strings_of(value)
    return bool(found) and all(_ABSOLUTE.match(v) for v in found or ())


def _looks_like_urls(value: object) -> bool:
    found = _strings_of(value)
    return bool(found) and all(_URL.match(v.strip()) for v in found or ())


def _looks_like_argv(value: object) -> bool:
    """`["rm", "-rf", "~"]`: a list whose first word names a program Limen knows."""
    from limen.facts.programs import program

    return (
        isinstance(value, (list, tuple))
        and bool(value)
        and all(isinstance(v, str) for v in value)
        and program(str(value[0]).rsplit("/", 1)[-1]) is not None
    )


# Arguments naming a repository on a forge and its owner (`repo` may also be written `owner/name`).
_REPO_KEYS = frozenset(
    {"repo", "repository", "repo_name", "repository_name", "project", "project_path", "project_id"}
)
_OWNER_KEYS = frozenset({"owner", "org", "organization", "namespace", "group"})
# Arguments that name the account a fork is made in
_FORK_TARGET_KEYS = (_OWNER_KEYS - {"owner"}) | {"target_owner", "new_owner", "owner_to"}
# Path arguments that, in a forge's tool, name files in the repository rather than on this machine.
_REMOTE_PATH_KEYS = frozenset({"path", "paths", "files", "file", "filename", "directory", "dir_path"})


def _forge_repository(tool: str, keys: dict[str, str], arguments: dict[str, object]) -> tuple[str, str, str]:
    """(forge host, owner key, repo key) when the tool is a source forge's (its name says which, `FORGES`)
    and an argument names the repository it acts on; empty strings otherwise."""
    forge = next((FORGES[w] for w in words_of(tool).split("_") if w in FORGES), "")
    repo = next((k for w, k in keys.items() if w in _REPO_KEYS and isinstance(arguments[k], str)), "")
    if not forge or not repo or not str(arguments[repo]).strip():
        return "", "", ""
    owner = next((k for w, k in keys.items() if w in _OWNER_KEYS and isinstance(arguments[k], str)), "")
    return forge, owner, repo


# A tool whose name starts with one of these reads: `get_file_contents`, `list_pull_requests`, a prompt
# template (`prompts/get`) or a resource (`resources/read`), as the MCP door names them
# (after one word naming a product area, as servers with several prefix their tools: Firebase's
# `auth_get_user`, `firestore_list_collections`)
_READS = re.compile(
    r"^(?:(?!(?:run|send|post|exec|execute|call|invoke|create|update|delete|set|put|write|do|make|apply|trigger"
    r"|submit|start)_)[a-z0-9]+_)?"
    r"(?:get|list|search|read|fetch|find|describe|view|show|query|lookup|retrieve|count|check|browse|inspect"
    r"|explain|preview|diff|status|prompt|resources_read)(?:_|$)"
)


def reading_subcommand(words: Sequence[str]) -> bool:
    """A client's sub-command, by its first words, that only reads from the service it talks to (`solution
    list`, `node show`, `data export`): nothing it is given is sent but the request for what it reads, and
    no setting of the service changes."""
    named = [w for w in words[:8] if not w.startswith("-") and "://" not in w and "=" not in w][:3]
    parts = "_".join(words_of(w) for w in named).split("_")
    return (
        bool(named)
        and (reads_by_name("_".join(parts)) or any(p in _EXPORTS for p in parts))
        and not any(p in _CHANGES for p in parts)
    )


# Sub-command words of a client that fetch what the service holds to this machine, or that change it
_EXPORTS = frozenset({"export", "download", "pull", "dump", "backup"})
_CHANGES = frozenset(
    {"import", "push", "upload", "delete", "create", "update", "set", "add", "remove", "publish", "deploy"}
    | {"assign", "grant", "reset", "apply", "install", "send", "post", "put", "write", "sync", "run", "exec"}
)


def reads_by_name(tool: str) -> bool:
    """The tool's own name (an MCP tool's, after its server) says it only reads."""
    return bool(_READS.search(words_of(tool.split("__", 2)[-1] if tool.startswith("mcp__") else tool)))


@lru_cache(maxsize=4096)
def words_of(name: str) -> str:
    """`sendEmail`, `send-email` and `send_email` all become `send_email` (tool and argument names recur on
    every call: remembered)."""
    name = _CAMEL_BOUNDARY.sub(r"\1_\2", name)
    return _NON_WORD.sub("_", name.lower()).strip("_")


_CAMEL_BOUNDARY = re.compile(r"([a-z0-9])([A-Z])")
_NON_WORD = re.compile(r"[^a-z0-9]+")


def classify(tool: str, arguments: dict[str, object]) -> ToolSpec:
    """The spec for a known tool, else one inferred from the tool's name and its arguments."""
    known = KNOWN_TOOLS.get(tool)
    if known is not None:
        return known
    bare = tool
    if tool.startswith("mcp__"):
        bare = tool.split("__", 2)[-1]
    elif tool.startswith("mcp_"):
        bare = tool.split("_", 2)[-1]
    words = words_of(bare)
    keys = {words_of(k): k for k in arguments}
    paths = tuple(
        k
        for w, k in keys.items()
        if (
            w in _PATH_KEYS
            or w in _PATH_LIST_KEYS
            or (w in _ATTACHMENT_KEYS and _strings_only(arguments[k]))
            or w.endswith(("_path", "_file", "_paths", "_files", "_dir"))
            or (w not in _NOT_PATH_KEYS and _looks_like_paths(arguments[k]))
        )
        and not _looks_like_urls(arguments[k])  # `destination: "gs://other-bucket/x"`: an address, no path
    )
    urls = tuple(
        k
        for w, k in keys.items()
        if w in ("url", "uri", "link", "endpoint", "href")
        or w.endswith("_url")
        or (k not in paths and _looks_like_urls(arguments[k]))
    )
    server = words_of(tool.split("__")[1]) if tool.startswith("mcp__") and tool.count("__") >= 2 else ""
    named = "" if _TERMINAL.search(server) else _named_program(server)  # typed keys run in a shell
    language = code_runner(tool)
    commands = tuple(
        k
        for w, k in keys.items()
        if (
            (w in _COMMAND_KEYS or w.endswith(("_command", "_cmd", "_command_line")))
            and not (w == "script" and language)
            and not is_sql_argument(k, arguments[k])  # `pg_psql(command="DROP TABLE users")`: SQL
        )
        or (w in _ARGV_KEYS and (_looks_like_argv(arguments[k]) or (named and _strings_of(arguments[k]))))
    )
    payloads = tuple(
        k for w, k in keys.items() if w in _PAYLOAD_KEYS or w in ("subject", "content", "description")
    )
    recipients = tuple(k for w, k in keys.items() if w in RECIPIENT_KEYS or w.endswith(("_email", "_emails")))
    if not commands and _TERMINAL.search(f"{server}_{words}"):
        # `tmux.send_keys(keys="...")`, `terminal.write(text=...)`: what is typed into a shell runs there
        commands = tuple(k for w, k in keys.items() if w in _TYPED_KEYS and isinstance(arguments[k], str))[:1]
    command_args = ""
    if len(commands) == 1 and isinstance(arguments[commands[0]], str):
        # `{cmd: "rm", args: ["-rf", "~"]}`: the program, then its arguments
        listed = [k for w, k in keys.items() if w in _ARGV_KEYS and k not in commands]
        command_args = next((k for k in listed if _strings_of(arguments[k])), "")
    wraps = _remote_host(keys, arguments) if commands else ()
    capability = Capability.MCP_CALL.value if tool.startswith("mcp") else Capability.UNKNOWN.value
    program_given = any(
        w in CODE_KEYS
        and isinstance(value, str)
        and not (language == UNNAMED_LANGUAGE and _ARITHMETIC.fullmatch(value))
        for w, k in keys.items()
        for value in (arguments[k],)
    )
    if commands or (program_given and language is not None):
        capability = _SHELL  # a command, or a program in a language the tool's name names (`node.eval`)
    else:
        verbs = _RUN_NOUN.sub(r"\1record", words) if "run" in words else words
        # a tool whose name says only what it handles takes its verb as an argument (`manage_script(action=
        # "create", ...)`, `file_op(operation="delete", ...)`)
        verbs += "".join(
            f"_{words_of(v)}"
            for w, k in keys.items()
            if w in _VERB_KEYS
            for v in (arguments[k],)
            if isinstance(v, str)
        )
        for pattern, cap in _NAME_VERBS:
            if pattern.search(verbs):
                capability = cap
                break
        if capability == _SHELL and any(
            is_sql_argument(k, v) or (w in _QUERY_LANGUAGES | SQL_KEYS and isinstance(v, str))
            for w, k in keys.items()
            for v in (arguments[k],)
        ):  # `sql.execute(query=...)`, `run_cypher(cypher=...)`, `run_graphql(query=...)`: a statement or a
            # document the service runs, judged below
            capability = _READ
    if capability == Capability.MESSAGE_SEND.value and "email" in words:
        capability = Capability.EMAIL_SEND.value
    if capability in (_READ, Capability.MCP_CALL.value, Capability.UNKNOWN.value) and urls:
        capability = _NET
    if _writes_a_database(arguments):
        capability = DB_WRITE
    write = capability in (_WRITE, Capability.FILESYSTEM_DELETE.value)
    repository = _forge_repository(tool, keys, arguments)
    if repository[0]:  # files in a repository on the forge: what the call sends there are payloads
        paths = tuple(k for k in paths if words_of(k) not in _REMOTE_PATH_KEYS)
        payloads, write = (), False
    names_only, within = False, ""
    searches: tuple[str, ...] = ()
    if capability == _READ and paths and _LOOKUP.search(words):
        # `search_files(path, pattern)`: a glob names files under `path` (as `find PATH -name GLOB`);
        # any other pattern is text looked for in their content (as `grep -r TEXT PATH`)
        within = next((k for k in paths if words_of(k) in _PATH_KEYS), "")
        for w, k in keys.items():
            value = arguments[k]
            if w in _PATTERN_KEYS and isinstance(value, str) and value:
                if any(c in value for c in "*?[") and within:
                    paths = (*paths, k)
                    names_only = True
                else:
                    searches = (*searches, k)
        names_only = names_only or (not searches and _LISTING.search(words) is not None)
    # (a tool that stores a connection's host: queries and connections of the moment go where the user set
    # up; a tool that sends a message sends it to the host it is given: a broker's, a mail server's)
    stores = _STORES_SETTING.search(words) is not None or capability == Capability.MESSAGE_SEND.value
    hosts = tuple(k for w, k in keys.items() if w in _HOST_KEYS) if stores and not (commands or urls) else ()
    return ToolSpec(
        capability,
        paths,
        commands,
        urls,
        payloads,
        recipients,
        write,
        names_only=names_only,
        searches=searches,
        within=within,
        command_args=command_args,
        repository=repository,
        program=named,
        invocation=_invocation(named, words) if named else (),
        wraps=wraps,
        hosts=hosts,
    )


# The arguments that name what a tool named for a thing does to it
_VERB_KEYS = frozenset({"action", "operation", "op", "verb"})
# A tool named for storing a setting (`update_connection`, `create_webhook`, `set_endpoint`)
_STORES_SETTING = re.compile(
    r"(?:^|_)(?:update|create|set|put|patch|add|edit|modify|configure|register)(?:_|$)"
)
# Arguments naming the machine a tool runs its command on (`ssh.execute(host=..., command=...)`)
_HOST_KEYS = frozenset({"host", "hostname", "remote_host", "target_host", "server", "node", "machine", "ip"})


def _remote_host(keys: dict[str, str], arguments: dict[str, object]) -> tuple[str, ...]:
    """`execute_command(host="web1.prod.acme.com", command=CMD)` is `ssh web1.prod.acme.com CMD`: a command
    a tool runs on the machine an argument names, judged as ssh's remote line is (where it runs, what it
    deletes or sends there). () for a command run here."""
    from limen.model import HostClass
    from limen.normalize import net

    for word, key in keys.items():
        value = arguments[key]
        host = value.strip() if word in _HOST_KEYS and isinstance(value, str) else ""
        if not host or len(host) > 253 or host.startswith("-") or any(c.isspace() for c in host):
            continue
        where = net.host_destination(host)
        if where is None or where.host_class is not HostClass.LOOPBACK:  # (this machine: run here)
            return ("ssh", host)
    return ()


def _invocation(named: str, words: str) -> tuple[str, ...]:
    """`git_push` as `git push`: the program, then the tool's name after the program's. () when the tool's
    name does not start with the program's (`kubernetes.list_pods`)."""
    base = words_of(named.removesuffix("-cli"))
    if not words.startswith(base + "_"):
        return ()
    return (named, *words[len(base) + 1 :].split("_"))


def _named_program(server: str) -> str:
    """The program an MCP server is named for (`git`, `kubernetes` -> kubectl, `redis` -> redis-cli), when
    the program table knows it; "" otherwise. A shell or interpreter server is not one (its commands name
    their own programs)."""
    from limen.facts.programs import Role, program

    for name in (server, f"{server}-cli", server.replace("_", "-")):
        entry = program(name) if name else None
        if entry is not None and not entry.roles & {Role.SHELL, Role.INTERPRETER, Role.WRAPPER}:
            return entry.name
    return ""


# Servers and tools that type into a shell, and the arguments that hold what they type.
_TERMINAL = re.compile(r"(^|_)(terminal|tmux|pty|tty|send_keys|type_keys)(_|$)")
_TYPED_KEYS = ("keys", "input", "text", "line", "chars", "data", "stdin")

# Tools that look for files (by name or by content) and tools that only list them.
_LOOKUP = re.compile(r"(^|_)(search|find|glob|grep|list|tree|ls)(_|$)")
_LISTING = re.compile(r"(^|_)(list|tree|ls|glob)(_|$)")
_PATTERN_KEYS = frozenset({"pattern", "glob", "query", "regex", "text", "search", "name"})
