"""What the floors agree on: when an action carries data out, what it sends, and how hard a floor bites."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote_plus

from limen.context import Context
from limen.facts.hosts import (
    ISSUERS,
    first_party_api,
    host_in,
    is_collection_service,
    is_documentation,
    issuer_of_value,
    issuers_for_host,
    issuers_of_credentials,
)
from limen.facts.programs import HTTPIE_NAMES, Role, program, reads_from_store
from limen.facts.secrets import wordy
from limen.model import FETCHED, Action, Capability, Command, Destination, HostClass, Verdict
from limen.rules import RuleFunction
from limen.rules.derived import memo, rule_findings

_LOCAL = frozenset({HostClass.LOOPBACK})
_INTERNAL = frozenset({HostClass.LOOPBACK, HostClass.PRIVATE, HostClass.LINK_LOCAL})


def mode_verdict(ctx: Context) -> Verdict:
    """AUTH in light and balanced, BLOCK in strict and paranoid."""
    return Verdict.BLOCK if ctx.mode.strict_or_above else Verdict.AUTH


def is_egress(action: Action) -> bool:
    """Data can leave: an outbound capability, any destination other than this machine, or an MCP tool
    handed something to keep with no file of this machine named (`notion.create_page`,
    `linear.create_issue`): what it is given goes to the service behind the server."""
    if action.destinations:
        return any(d.host_class not in _LOCAL for d in action.destinations)
    return action.outbound or (
        action.tool.startswith("mcp")
        and not action.paths
        and action.capability in _KEEPING
        and any(action.arguments.values())
    )


_KEEPING = frozenset({Capability.FILESYSTEM_WRITE.value, Capability.MCP_CALL.value, Capability.UNKNOWN.value})


def trusted(dest: Destination, ctx: Context) -> bool:
    """The destination's host is on the user's trusted list (the one matcher: `facts.hosts.host_in`)."""
    return host_in(dest.host, ctx.trusted_hosts)


# Destinations the normaliser marked by where they lead, whatever the host's reputation: a push or write to
# another repository or account, a publication (gist, package registry), or a service that collects data.
LEAVES_PROJECT = frozenset({"foreign_remote", "publishes"})
OWN_REMOTE = "own_remote"  # the project's own origin: egress, but not to someone else


def leaves_project(dest: Destination) -> bool:
    """A destination that hands data to someone other than the project, however trusted its host."""
    return bool(LEAVES_PROJECT.intersection(dest.flags)) or is_collection_service(dest.host)


def is_external_egress(action: Action, ctx: Context) -> bool:
    """Egress beyond the user's trusted hosts and private networks (a send with no host counts); a push to
    another repository, a publication or a collection service is external on any host."""
    if action.destinations:
        return any(
            leaves_project(d)
            or (d.host_class not in _INTERNAL and OWN_REMOTE not in d.flags and not trusted(d, ctx))
            for d in action.destinations
        )
    return action.outbound


# --------------------------------------------------------------------------- what a request carries

_BODY_KEYS = frozenset(
    {"body", "data", "json", "content", "payload", "files", "form", "text", "message", "headers", "params"}
)
# curl and wget options that change nothing about what is sent (output, verbosity, redirects, timeouts).
_QUIET_FLAGS = {
    "curl": frozenset(
        {"--silent", "--show-error", "--location", "--fail", "--fail-with-body", "--remote-name", "--head"}
        | {
            "--insecure",
            "--compressed",
            "--verbose",
            "--include",
            "--no-buffer",
            "--progress-bar",
            "--http1.1",
        }
        | {"--http2", "--tlsv1.2", "--tlsv1.3", "--remote-time", "--create-dirs", "--no-progress-meter"}
    ),
    "wget": frozenset(
        {"--quiet", "--verbose", "--no-verbose", "--continue", "--timestamping", "--no-clobber", "-nv", "-nc"}
        | {"-np", "-nH", "-nd", "--no-parent", "--show-progress", "--recursive", "--no-check-certificate"}
        | {"--convert-links", "--page-requisites", "--mirror", "--spider", "--server-response"}
    ),
    "awscurl": frozenset({"--insecure", "--include", "-i", "--verbose", "-v"}),
}
_QUIET_VALUE_OPTS = {
    "curl": frozenset(
        {
            "-o",
            "--output",
            "-m",
            "--max-time",
            "--connect-timeout",
            "--retry",
            "--retry-delay",
            "-w",
            "--aws-sigv4",
        }
        | {"--retry-max-time", "--proto", "--proto-redir", "--write-out", "--output-dir", "--max-redirs"}
    ),
    "wget": frozenset(
        {"-O", "--output-document", "-P", "--directory-prefix", "-T", "--timeout", "-t", "--tries"}
        | {"-o", "--output-file", "-a", "--append-output", "-l", "--level", "-w", "--wait"}
    ),
    "awscurl": frozenset({"--service", "--region", "--profile"}),
}
_QUIET_SHORT = {
    "curl": frozenset("sSLfOIikvq#NR"),
    "wget": frozenset("qvcNrkpmES"),
    "awscurl": frozenset("iv"),
}
_SHORT_WITH_VALUE = {"curl": frozenset("omw"), "wget": frozenset("OPTtoalw"), "awscurl": frozenset()}
_PLAIN_HEADERS = frozenset(
    {"accept", "accept-language", "accept-encoding", "user-agent", "cache-control", "x-github-api-version"}
    | {"anthropic-version", "openai-beta", "if-none-match", "if-modified-since", "content-type"}
)
# A header that carries a credential: `Authorization`, or one named for a key or a token (`X-Api-Key`,
# `DD-API-KEY`, `PRIVATE-TOKEN`, `apikey`, `X-Vault-Token`)
_CREDENTIAL_HEADER = re.compile(r"authorization|key|token|secret|auth$")
# A long encoded run in one part of a URL can carry anything (a path of ordinary words does not: `/` ends a
# run, and what a path spells across its parts is the taint floor's to match against the session's secrets).
_OPAQUE_RUN = re.compile(r"[A-Za-z0-9+_-]{40,}=*")  # (a query's `name=` is no part of its value)


def plain_url(url: str) -> bool:
    """A URL written out in full (no expansion) whose path and query are short of encoded data. A long run
    of lowercase words joined by hyphens is a page's slug (`what-does-the-yield-keyword-do-in-python`)."""
    if "$" in url or "`" in url:
        return False
    query = url.split("?", 1)[1] if "?" in url else ""
    if query and _CREDENTIAL_IN_QUERY.search(
        unquote_plus(query)
    ):  # `?user=etl&pw=Wint3r!`: a credential sent
        return False
    if query and (_ADDRESS_IN_QUERY.search(unquote_plus(query)) or len(_DATE_IN_QUERY.findall(query)) >= 3):
        return False  # `?users=jdoe@acme.com,cfo@acme.com`, `?rows=MRN1002345,1961-04-02,...`: records sent
    if query and any(_keylike(m.group(1)) for m in _QUERY_VALUE.finditer(query)):
        return False  # `?app=shop&k=4a9c1e7f2b6d8a03e5f1c7b9d2a4e6f8`: a key's worth of random characters
    return len(query) <= 128 and not any(
        not _page_name(run.group(0)) and not _OBJECT_ID.fullmatch(run.group(0))
        for run in _OPAQUE_RUN.finditer(url.split("://", 1)[-1])
    )


def _page_name(run: str) -> bool:
    """A page's slug or title in words, after the article number help centres put first
    (`5112595-best-practices-for-api-key-safety`, `360012345678-How-to-rotate-your-API-keys`)."""
    named = _ARTICLE_NUMBER.sub("", run, count=1)
    return bool(named) and (bool(_SLUG.fullmatch(named)) or wordy(named))


_ARTICLE_NUMBER = re.compile(r"^\d{1,20}[-_]")


_SLUG = re.compile(r"[a-z]{1,20}(?:[-_][a-z0-9]{1,20})+")
# A query's value of 24 or more letters and digits, whole (`k=4a9c...`; not words joined by `+` or `%20`)
_QUERY_VALUE = re.compile(r"(?:^|&)[^=&]*=([A-Za-z0-9_-]{24,})(?=&|#|$)")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def _keylike(value: str) -> bool:
    """A value that reads as a key or a token: letters and digits mixed (three of each at least), and no
    object's public name (a UUID, a commit, an account's address), slug or words."""
    return (
        sum(c.isdigit() for c in value) >= 3
        and sum(c.isalpha() for c in value) >= 3
        and not (_UUID.fullmatch(value) or _OBJECT_ID.fullmatch(value) or _SLUG.fullmatch(value))
        and not wordy(value)
    )


# People's data in a query: a mail address, dates (of birth, of a visit) in a list
_ADDRESS_IN_QUERY = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}")
_DATE_IN_QUERY = re.compile(r"(?<!\d)(?:19|20)\d\d-[01]\d-[0-3]\d(?!\d)")
# An object's public name of forty hex digits: a commit (`/commit/3f2a...`), a chain's account or contract
# address (`/address/0x9E2c...`); a key's hex is of other lengths (32, 64)
_OBJECT_ID = re.compile(r"(?:0x)?[0-9a-fA-F]{40}")
# A credential named in a URL's query, by its parameter or inside a value (`?pw=...`, `?text=
# SONATYPE_PASSWORD%3D...`), with a value of its own (a placeholder, `YourApiKeyToken`, or a variable is no
# credential)
_CREDENTIAL_IN_QUERY = re.compile(
    r"(?i)(?:^|[&?=\s,;])[\w.-]*?(?:password|passwd|pwd|pw|passphrase|passcode|psk|secret|token|api_?key|access_?key"
    r"|private_?key)[\w.-]*\s*[=:]\s*(?![<{$]|x{3,}|\*{3,}|your)[^&\s]{4,}"
)


def _quiet_header(value: str, action: Action) -> bool:
    """A header that sends nothing of the session's: a plain literal one, or a credential taken from the
    issuer's conventional variable and sent only to that issuer's hosts."""
    name, _, text = value.partition(":")
    name = name.strip().lower()
    if "$" not in text and "`" not in text:
        if name in _PLAIN_HEADERS:
            return True
        if not _CREDENTIAL_HEADER.search(name) or not text.split():
            return False
        # a literal credential whose prefix names its issuer, sent only there (`-u sk_live_...:`); one
        # whose prefix names none, sent only to a service's own API host (`Token token=...` to
        # api.pagerduty.com), is that service's
        issuer = issuer_of_value(text.split()[-1].split(":", 1)[0].removeprefix("token="))
        if not issuer:
            return all(first_party_api(d.host) for d in action.destinations)
        return all(issuer in issuers_for_host(d.host) for d in action.destinations)
    if not _CREDENTIAL_HEADER.search(name):
        return False
    if _printed_for_every_host(text, action):
        return True
    issuers = issuers_of_credentials(text)
    if not issuers and _VARIABLE_ONLY.fullmatch(text.strip()):
        issuers = issuers_named_by_header(name)  # `X-Shopify-Storefront-Access-Token: $STOREFRONT_TOKEN`
        if not issuers:  # `Token token=$PD_TOKEN` to api.pagerduty.com
            return all(first_party_api(d.host) for d in action.destinations)
    return bool(issuers) and all(issuers & issuers_for_host(d.host) for d in action.destinations)


def issuers_named_by_header(name: str) -> frozenset[str]:
    """The issuers a credential header's name names (`X-Shopify-Access-Token`, `X-Figma-Token`): what it
    carries is meant for that service, whatever the variable holding it is called."""
    words = set(re.split(r"[-_\s]+", name.strip().lower()))
    return frozenset(i.name for i in ISSUERS if i.name in words)


# A credential header's value that is a variable's, with at most a scheme word before it (`Bearer $T`,
# `Token token=$PD_TOKEN`, `$KEY:`), not a command's output
_VARIABLE_ONLY = re.compile(r"(?:[\w-]+ )?(?:[\w-]+=)?\$\{?\w+\}?:?")


def credentials_to_issuers(action: Action) -> frozenset[str]:
    """The issuers whose credentials the line's curl and wget send (`-H "Authorization: ..."`, `-u`) when
    each goes only to the API that issued it (`_quiet_header`): a literal key whose prefix names its issuer,
    a conventional variable, or a variable sent only to a service's own API host; empty otherwise."""
    headers = []
    for command in action.commands:
        if command.name not in ("curl", "wget"):
            continue
        args = command.argv[1:]
        for i, word in enumerate(args[:-1]):
            named = args[i + 1].partition(":")[0].lower()
            if word in ("-H", "--header") and _CREDENTIAL_HEADER.search(named):
                headers.append(args[i + 1])
            elif command.name == "curl" and word in ("-u", "--user", "--oauth2-bearer"):
                headers.append("authorization: " + args[i + 1])
    if not headers or not all(_quiet_header(h, action) for h in headers):
        return frozenset()
    issued: set[str] = set()
    for header in headers:
        text = header.partition(":")[2]
        words = text.split()
        named = issuer_of_value(words[-1].split(":", 1)[0].removeprefix("token=")) if words else ""
        conventional = issuers_of_credentials(text) or issuers_named_by_header(header.partition(":")[0])
        issued |= {named} if named else conventional
        if not named and not conventional:  # sent only to a service's own API host: that service's
            hosts = [d.host for d in action.destinations if first_party_api(d.host)]
            issued |= {issuer for host in hosts for issuer in issuers_for_host(host)}
    return frozenset(issued)


_SUBSTITUTION = re.compile(r"\$\(([^()`$]{1,200})\)|`([^`$]{1,200})`")
# A variable set to a command's output on the line (`TOKEN=$(gh auth token)`), and a variable used
_ASSIGNED_SUBSTITUTION = re.compile(
    r"(?:^|[\s;&|(])(?:export\s+)?([A-Za-z_]\w*)=[\"']?\$\(([^()`$]{1,200})\)"
)
_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*)\}?")


def _printed_for_every_host(text: str, action: Action) -> bool:
    """`token $(gh auth token)`: the header's value is what a credential printer prints
    (`limen.facts.secrets.printer`), and every host the call reaches issued that credential."""
    from limen.facts.secrets import printer

    printed = [m.group(1) or m.group(2) for m in _SUBSTITUTION.finditer(text)]
    if (
        "$" in text and not printed
    ):  # `TOKEN=$(az account get-access-token ...) && curl -H "...: Bearer $TOKEN"`
        assigned = {m.group(1): m.group(2) for m in _ASSIGNED_SUBSTITUTION.finditer(action.command_line)}
        printed = [assigned.get(m.group(1), "") for m in _VARIABLE.finditer(text)]
    argvs = [tuple(words.split()) for words in printed]
    found = [(printer(argv) if argv else None, argv) for argv in argvs]
    return bool(found) and all(
        p is not None and all(p.issued_for(d.host, action.cwd, argv) for d in action.destinations)
        for p, argv in found
    )


def credential_header_values(action: Action) -> list[str]:
    """The values of the credential headers (`-H "Authorization: ..."`, `-H "DD-API-KEY: ..."`, `curl -u`)
    of the line's curl and wget commands."""
    values = []
    for command in action.commands:
        if command.name not in _QUIET_FLAGS:
            continue
        args = command.argv[1:]
        for i, word in enumerate(args[:-1]):
            if word in ("-H", "--header"):
                name, _, value = args[i + 1].partition(":")
                if _CREDENTIAL_HEADER.search(name.strip().lower()) and value.strip():
                    values.append(value.strip())
            elif command.name == "curl" and word in ("-u", "--user", "--oauth2-bearer"):
                values.append(args[i + 1])
    return values


def _quiet_fetch_argv(name: str, argv: tuple[str, ...], action: Action) -> bool:
    args = argv[1:]
    i = 0
    while i < len(args):
        word = args[i]
        flag, eq, value = word.partition("=")
        if not word.startswith("-") or word == "-":
            if "://" in word and not plain_url(word):
                return False
        elif flag in ("-H", "--header"):
            header = value if eq else (args[i + 1] if i + 1 < len(args) else "")
            if not _quiet_header(header, action):
                return False
            i += 0 if eq else 1
        elif name == "curl" and flag in ("-u", "--user", "--oauth2-bearer"):
            credential = value if eq else (args[i + 1] if i + 1 < len(args) else "")
            if not _quiet_header("authorization: " + credential, action):
                return False
            i += 0 if eq else 1
        elif flag in ("-X", "--request", "--method"):
            method = value if eq else (args[i + 1] if i + 1 < len(args) else "")
            if method.upper() not in ("GET", "HEAD"):
                return False
            i += 0 if eq else 1
        elif flag in _QUIET_VALUE_OPTS[name]:
            i += 0 if eq else 1
        elif flag in _QUIET_FLAGS[name]:
            pass
        elif word.startswith("--") or eq:
            return False
        else:  # a cluster of short flags, the last of which may take the next word
            letters = word[1:]
            head, last = letters[:-1], letters[-1:]
            if not set(head) <= _QUIET_SHORT[name]:
                return False
            if last in _SHORT_WITH_VALUE[name]:
                i += 1
            elif last not in _QUIET_SHORT[name]:
                return False
        i += 1
    return True


# HTTPie and xh: options that only shape what is shown or how the request is made, and those taking a value
_HTTPIE_QUIET = frozenset(
    {"-b", "--body", "-h", "--headers", "-F", "--follow", "-v", "--verbose", "-q", "--quiet", "-I"}
    | {"--check-status", "--ignore-stdin", "--all"}
)
_HTTPIE_VALUE = frozenset({"-p", "--print", "--pretty", "-s", "--style", "--timeout", "--max-redirects"})


def _quiet_httpie_argv(argv: tuple[str, ...], action: Action) -> bool:
    """`http [GET|HEAD] URL [name==query] [Header:plain]`: a read. Any data item (`k=v`, `k:=json`,
    `@file`), another method, or an option that is not about display sends something."""
    args = argv[1:]
    positional: list[str] = []
    i = 0
    while i < len(args):
        word = args[i]
        flag, eq, _ = word.partition("=")
        if word.startswith("-"):
            if flag in _HTTPIE_VALUE:
                i += 0 if eq else 1
            elif word not in _HTTPIE_QUIET:
                return False
        else:
            positional.append(word)
        i += 1
    if positional and positional[0].upper() in ("GET", "HEAD"):
        positional = positional[1:]
    elif positional and positional[0].upper() in ("POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
        return False
    for item in positional[1:]:  # after the URL
        if "==" in item and "=" not in item.replace("==", "", 1):
            continue  # a query parameter, part of the URL
        name, colon, _ = item.partition(":")
        if not colon or item.startswith(":") or "=" in name or (item[len(name) + 1 :][:1] == "="):
            return False
        if not _quiet_header(item, action):
            return False
    return True


def carries_nothing(action: Action) -> bool:
    """Whether the call sends nothing of the session's (`_carries_nothing`), derived once per action."""
    facts = memo(action)
    found = facts.get("carries_nothing")
    if found is None:
        found = facts["carries_nothing"] = _carries_nothing(action)
    return bool(found)


def _carries_nothing(action: Action) -> bool:
    """The call fetches and sends nothing of the session's: a GET or HEAD whose URLs are written out in full
    (short query, no encoded runs), with no body, no upload and no header but plain ones and a credential
    sent to its own issuer. A shell line qualifies when every network command in it is such a curl or wget
    (the rest of the line stays on this machine) and nothing in it is opaque. A DNS lookup of a name
    written out (`dig +short example.com`) asks for the name and sends nothing else."""
    looked_up = [d for d in action.destinations if _plain_lookup(d)]
    if looked_up and len(looked_up) < len(action.destinations):
        from dataclasses import replace

        action = replace(action, destinations=tuple(d for d in action.destinations if d not in looked_up))
    if action.opaque or not action.destinations or any(not plain_url(d.url) for d in action.destinations):
        return False
    if not action.commands:
        method = str(action.arguments.get("method", "GET")).upper()
        return (
            action.capability == Capability.NETWORK_REQUEST.value
            and method in ("GET", "HEAD")
            and not any(action.arguments.get(k) for k in _BODY_KEYS)
        )
    if all(d.via_command not in _QUIET_FLAGS for d in action.destinations) and _store_reads_only(action):
        return True
    if all(FETCHED in d.flags for d in action.destinations) and not any(
        n.startswith("socket:") for n in action.notes
    ):  # `python3 -c "print(requests.get(URL).json())"`: every request a program makes is a plain GET
        return True
    if all(d.via_command in HTTPIE_NAMES for d in action.destinations):
        httpie = [c for c in action.commands if c.name in HTTPIE_NAMES]
        return (
            bool(httpie)
            and not action.payloads
            and all(not (c.dynamic_name or c.via) and _quiet_httpie_argv(c.argv, action) for c in httpie)
        )
    if all(d.via_command == "az" for d in action.destinations) and not action.payloads:
        calls = [c for c in action.commands if c.name == "az"]
        return bool(calls) and all(_az_get(c) for c in calls)  # `az rest --method get --url URL`
    if any(d.via_command not in _QUIET_FLAGS for d in action.destinations):
        return False
    fetches = [c for c in action.commands if c.name in _QUIET_FLAGS]
    # a fetch whose output a substitution keeps (`v=$(curl -s URL | jq -r .tag)`) sends nothing more
    if not fetches or any(c.dynamic_name or set(c.via) - _KEPT_OUTPUT - _SHELLS for c in fetches):
        return False
    # what else the line prints or writes (`echo done && curl -s URL`) reaches no fetch: a quiet argv reads
    # neither standard input nor a file (`-d @-`, `-T -`, `-K cfg`, `-H @file` are not quiet)
    return all(_quiet_fetch_argv(c.name, c.argv, action) for c in fetches)


_KEPT_OUTPUT = frozenset({"$()", "`"})
# Shells that run a line they are given here (`bash -c`, `pwsh -Command`): a fetch in it prints where the
# line's own would
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "pwsh", "powershell", "cmd"})


def _plain_lookup(dest: Destination) -> bool:
    """A resolver's lookup of a name the line spells out (not one with a label computed at run time: data
    leaving through DNS)."""
    entry = program(dest.via_command)
    return entry is not None and Role.DNS in entry.roles and not dest.flags and "$" not in dest.url


def _az_get(command: Command) -> bool:
    """`az rest --method get --url URL` written out plainly: a GET with no body or headers of its own."""
    argv = [w.lower() for w in command.argv[1:]]
    if command.dynamic_name or command.via or argv[:1] != ["rest"]:
        return False
    method = next((argv[i + 1] for i, w in enumerate(argv[:-1]) if w in ("--method", "-m")), "get")
    return method in ("get", "head") and not {"--body", "-b", "--headers"} & set(argv)


def _store_reads_only(action: Action) -> bool:
    """`aws s3 ls s3://b/`, `gsutil cp gs://b/k .`, `aws s3 rm --recursive s3://b/tmp/`: every destination is
    an object store that the line only reads from or deletes in (a delete sends nothing there; what it
    destroys is `destructive_command`'s), through a command written out plainly, and nothing else in the line
    carries data."""
    if action.payloads:
        return False
    readers = set()
    for command in action.commands:
        entry = program(command.name)
        if entry is not None and entry.store_service is not None:
            words = " ".join(command.argv[1:])
            deletes = any(p and re.search(p, words) for p in (entry.destroys_one, entry.destroys_all))
            reads = reads_from_store(entry, command.argv[1:])
            if command.dynamic_name or command.via or not (reads or deletes):
                return False
            readers.add(command.name)
    return bool(readers) and all(d.via_command in readers for d in action.destinations)


# A destination's flags that say nothing against it; any other (punycode, an obfuscated IP) is a disguise.
PLAIN_FLAGS = frozenset({"schemeless", FETCHED})


def known_plain(dest: Destination, ctx: Context) -> bool:
    """A public destination spelt plainly that the user trusts, that serves documentation, or that issues
    credentials (where a request that carries nothing reads, whoever's account it uses)."""
    if dest.host_class is not HostClass.PUBLIC or dest.has_userinfo or set(dest.flags) - PLAIN_FLAGS:
        return False
    return trusted(dest, ctx) or is_documentation(dest.host) or bool(issuers_for_host(dest.host))


def is_side_effect(action: Action) -> bool:
    """Anything but a plain read changes the world or sends something (unknown tools included)."""
    return action.capability != Capability.FILESYSTEM_READ.value


def strings(value: Any, depth: int = 0) -> Iterator[str]:
    """Every string in a JSON-like value, keys of objects excluded."""
    if isinstance(value, str):
        yield value
    elif depth <= 8 and isinstance(value, dict):
        for item in value.values():
            yield from strings(item, depth + 1)
    elif depth <= 8 and isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item, depth + 1)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield str(value)


# Options of curl and wget whose value is read from elsewhere (a file, standard input, a config file)
_READ_ELSEWHERE = frozenset(
    {"-T", "--upload-file", "-K", "--config", "--body-file", "--post-file", "-i", "--input-file"}
)


def written_out(action: Action) -> bool:
    """One curl or wget request whose every word is in the line: no variable, substitution, file (`-d @x`,
    `-F f=@x`, `-T x`) or standard input feeds it, so what it sends is exactly what the line shows."""
    if action.opaque or len(action.commands) != 1:
        return False
    command = action.commands[0]
    if command.name not in ("curl", "wget") or command.via or command.dynamic_name:
        return False
    return not any(
        "$" in w or "`" in w or w.startswith("@") or "=@" in w or w.split("=", 1)[0] in _READ_ELSEWHERE
        for w in command.argv[1:]
    )


def outgoing_texts(action: Action) -> list[str]:
    """Everything an action could carry out: arguments, decoded payloads, the command line, URLs."""
    texts = [
        *strings(action.arguments),
        *action.payloads,
        action.command_line,
        *(d.url for d in action.destinations),
    ]
    return list(dict.fromkeys(t for t in texts if t))


def reads_private(action: Action, ctx: Context) -> bool:
    """The call reads a secret file or dumps the environment. Asked of the rules directly, not of the
    decision's findings, which a waiver may have removed."""
    if not action.paths and not action.commands:
        return False
    secret_files, environment_dump = _private_readers()
    return bool(rule_findings(secret_files, action, ctx) or rule_findings(environment_dump, action, ctx))


def _private_readers() -> tuple[RuleFunction, RuleFunction]:
    """The rules that tell a private read (`secret_files`, `environment_dump`), imported on first use (the
    rule modules import the floors' tables), then kept."""
    global _READERS
    if _READERS is None:
        from limen.rules.commands import environment_dump
        from limen.rules.paths import secret_files

        _READERS = (secret_files, environment_dump)
    return _READERS


_READERS: tuple[RuleFunction, RuleFunction] | None = None


def carries_private(action: Action, ctx: Context) -> bool:
    """The call reads private data or carries a credential in what it sends."""
    from limen.scan import secret_values

    return reads_private(action, ctx) or any(secret_values(t) for t in outgoing_texts(action))
