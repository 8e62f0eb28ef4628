"""Objective rules: where an action's traffic goes, and whether static parsing can prove the route.

`unknown_external_destination`, per destination (normalised by `limen.normalize.net`):
- loopback: nothing (the agent's own machine: dev servers, local databases), unless it is spelled in a
  disguised form (`http://2130706433/`, `0x7f.1`): AUTH, since nothing honest needs that spelling;
- cloud metadata endpoints (169.254.169.254, fd00:ec2::254, metadata.google.internal, 100.100.100.200, and
  names such as `169-254-169-254.nip.io` that resolve there): BLOCK in every mode. They hand out the
  instance's cloud credentials, and no coding task needs them; a dedicated code would only add a second
  spelling of "unknown destination", so the code stays `unknown_external_destination` at BLOCK risk.
- a name looked up with `dig`, `nslookup`, `host` or `drill`: nothing. The lookup sends only the name, to
  a resolver; whether the name itself smuggles data is `dns_exfiltration`'s question (limen.rules.commands);
- egress that hands data to someone other than the project, whatever the host's reputation (the host table
  `limen.facts.hosts` and the normaliser's marks): a `git push` to a remote that is not the project's own
  origin (another configured remote, one the line adds or re-points, an inline URL to another repository:
  `foreign_remote`), `gh` writes to another repository (`-R other/repo`, `gh api` outside the checkout's
  repository, GraphQL mutations) and a forge's MCP tools that write there (`mcp__github__create_issue`,
  `push_files` with another `owner`/`repo`: `limen.facts.hosts.FORGES`), publications (`gh gist create`, `gh
  repo create --push`, `npm publish`, `twine upload`, `cargo publish`... : `publishes`), a send to a trusted
  service's publishing endpoint (`curl -X POST https://api.github.com/gists`) or a write through the GitHub
  API to a repository that is not the checkout's origin (`curl -X PUT .../repos/evil/x/contents/a`), and
  collection services (pastebins, file drops, request catchers, tunnels: `transfer.sh`, `webhook.site`,
  `*.ngrok-free.app`): AUTH (risk 65), BLOCK in strict and paranoid for collection services;
- the project's own origin (`git push`, `gh pr create`, `gh release upload` in the checkout: `own_remote`),
  whatever its host: nothing (the taint floor still counts it as egress);
- a host matching `ctx.trusted_hosts` (fnmatch globs such as `*.github.com`; a leading dot means "this
  domain and its subdomains"): nothing;
- except in paranoid, a plainly spelt public host that is a documentation site fetched with nothing sent
  (`carries_nothing`: GET/HEAD, no body or upload, a full literal URL with a short query, only plain headers:
  `curl https://docs.rs/serde`, WebFetch of learn.microsoft.com), an official installer on its own host
  (`https://astral.sh/uv/install.sh`; running it is `destructive_command`'s question), or an API issuer
  called with the user's own credential for it, i.e. the issuer's conventional variable
  (`-H "Authorization: Bearer $OPENAI_API_KEY"` to api.openai.com; for issuers whose hosts name someone's
  resource, AWS, Google, Slack webhooks, Hugging Face, GitHub, GitLab, only a request that carries
  nothing), or a service the table does not know called at the `api.` host of the name every credential
  variable it sends begins with (`$TELNYX_API_KEY` to api.telnyx.com: `limen.facts.hosts.named_vendor_api`):
  nothing. Still asked: a body to a documentation host, a URL built at run time,
  `docs.python.org.evil.example`, `$OPENAI_API_KEY` sent to any other host, `$GITHUB_TOKEN` to
  api.openai.com, `$AWS_ACCESS_KEY_ID` signing an upload to a bucket;
- anything else, private ranges included: AUTH. By mode: light lets a read-only fetch (a GET/HEAD tool
  call carrying no payload) through and asks for everything that can carry data; balanced lets a page of a
  plainly spelt public host be read (`_reads_only`: it carries nothing and keeps no copy, `curl -s URL`,
  a WebFetch; the fetched text is screened as untrusted output, and after a secret was read the taint floor
  still asks) and asks (risk 60) for everything that sends or saves what it fetches (`curl -o f`, `wget
  URL`: a later call could run the copy); strict (70) and paranoid (80) ask for reads too, with a higher
  risk, and a non-dotted-decimal IP spelling (`2130706433`, `0x7f.1`, IPv4-mapped IPv6) or a deceptive
  userinfo (`https://github.com@evil.com`) is BLOCK there (AUTH at risk 80 in light and balanced).

`egress_requires_auth` (AUTH in every mode) covers commands whose real peer is decided by something the
command line does not show, so even a trusted-looking host proves nothing:
- a proxy, DNS or connection override: curl `-x/--proxy/--preproxy/--socks*/--connect-to/--resolve/
  --doh-url/--unix-socket`, curl `-K` and wget `-i`/`-e ...proxy` (config or URL lists from files),
  git `-c http.proxy|https.proxy|http.<url>.proxy|core.sshCommand|core.gitProxy|url.<x>.insteadOf|
  protocol.*`, git `ext::` remotes, ssh/scp/sftp/rsync `ProxyCommand`, `ProxyJump`/`-J`, tunnels
  (`-D`, `-L`, `-R`, `-W`) and `-F` config files, pip/npm/yarn `--proxy`, pip `--trusted-host`;
- proxy or transport environment set on the same line (`HTTPS_PROXY=`, `ALL_PROXY=`, `GIT_SSH_COMMAND=`,
  `GIT_PROXY_COMMAND=`, `npm_config_proxy=`, `PIP_PROXY=`, `CURL_HOME=`, `WGETRC=`, `GH_REPO=`, `GH_HOST=`);
- raw sockets to a non-loopback peer (`nc`, `ncat`, `socat`, `telnet`, bash `/dev/tcp`), which carry
  anything in any direction.
- the same settings made persistent: `git config [--global] http.proxy|core.sshCommand|url.*.insteadOf ...`,
  `npm|yarn|pip config set ...proxy|registry ...`;
- a remote re-pointed for one command or for good: `git -c remote.origin.pushurl=URL push`,
  `git config remote.origin.url URL`, `git remote set-url NAME URL`, `git remote rename origin ...` (a later
  plain `git push` would go wherever they point).
Plain `git push origin feature`, `pip install requests` or `npm install` have none of these and stay quiet.
Homoglyph and invisible-character hosts are `smuggled_token_channel`'s (limen.rules.token_channels).

Destinations this session already knows (`SessionView.value_origin`). Provenance separates a destination the
user meant from one an injection planted: the attack's shape is a send to an address or site that only
untrusted content supplied (`untrusted_value_echo`, limen.floors.provenance). So, for a plain public host
(no disguise flag, no userinfo; never metadata, loopback tricks or private ranges), the rule classifies by
where the session learnt it: from the user if the user named it, else from the least trusted content that
supplied it (a clean lookup that echoes an injected address does not launder it). The key is the host for
URLs and host names, and the whole address for mail recipients (naming `john@gmail.com` says nothing about
`eve@gmail.com`; every address at that domain the call carries must be known). A known host covers the
site's other paths, not its subdomains.
- `user` (the user's own prompt in this session): intended in light, balanced and strict. A prompt injection
  cannot write the prompt.
- `clean` (output of the user's own data that screened clean: a contact list, the inbox, a shared file):
  intended in light and balanced, where looking a colleague's address up and writing to it is the ordinary
  task. Strict asks: its users accept friction so that a screen miss in that data is still seen by a human.
- A page from a site the user named (`her address is on www.dora.dev`) is the user's errand: its parts that
  screen clean are labelled `clean` (`limen.scan.apply_scan`, `named_by_user`); its doubtful parts are not.
- `untrusted` (a web page or remote result, even one that screened clean) and `injected`: asked as before in
  every mode (the echo floor adds its own finding: for `untrusted` only in strict and paranoid, so in light
  and balanced this rule is what still asks about an address a page the screen missed supplied).
- paranoid: only the configured trusted list counts, the prompt's names included: it asks about every new
  destination by design.
This is classification, not loosening: nothing lowers a verdict once computed, the rule simply has no
finding for a destination it can classify as intended, and every floor (`egress_requires_auth`, taint,
trifecta, echo) still runs. Without a session (`limen.evaluate` with no session id, a hook call that
carries none) nothing is known, and every destination off the trusted list is judged as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import pairwise
from urllib.parse import urlsplit

from limen.context import Context
from limen.facts.hosts import (
    IMAGE_SCHEMES,
    SHARED_ISSUERS,
    github_repo_of_path,
    host_in,
    is_collection_service,
    is_documentation,
    is_official_installer,
    issuers_for_host,
    issuers_of_client,
    issuers_of_credentials,
    named_by_project,
    named_vendor_api,
    project_domain,
    project_repository,
    public_image_registry,
    publishing_endpoint,
    repository_identity,
)
from limen.facts.paths import DOCUMENT_FILE
from limen.facts.programs import (
    Role,
    is_route_variable,
    may_set_route_variable,
    only_inspects,
    program,
    socat_local_only,
)
from limen.floors.egress import OWN_REMOTE, PLAIN_FLAGS, carries_nothing, credentials_to_issuers, plain_url
from limen.model import (
    Action,
    Capability,
    Command,
    Destination,
    Finding,
    HostClass,
    Mode,
    ReasonCode,
    Verdict,
)
from limen.normalize.net import ADDRESS, organisation_network, own_package_source
from limen.normalize.tools import KNOWN_TOOLS, classify, reading_subcommand, reads_by_name, words_of
from limen.rules import rule
from limen.rules.derived import picked_issuers

_MODE_RISK = {Mode.LIGHT: 55, Mode.BALANCED: 60, Mode.STRICT: 70, Mode.PARANOID: 80}
_INTENDED: dict[Mode, frozenset[str]] = {
    Mode.LIGHT: frozenset({"user", "clean"}),
    Mode.BALANCED: frozenset({"user", "clean"}),
    Mode.STRICT: frozenset({"user"}),
    Mode.PARANOID: frozenset(),
}

_RAW_SOCKET_TOOLS = frozenset({"nc", "ncat", "netcat", "socat", "telnet", "/dev/tcp"})
_CURL_ROUTE = frozenset(
    {
        "-x",
        "--proxy",
        "--preproxy",
        "--socks4",
        "--socks4a",
        "--socks5",
        "--socks5-hostname",
        "--connect-to",
        "--resolve",
        "--doh-url",
        "-K",
        "--config",
        "--unix-socket",
        "--abstract-unix-socket",
        "--proxy1.0",
    }
)
# (`-J HOST`, a jump host, is no hidden route: the normaliser adds it to the call's destinations, judged as
# any host is)
_SSH_ROUTE = frozenset({"-D", "-L", "-R", "-W", "-w", "-F"})
# `-L [BIND:]PORT:localhost:PORT`: a forward to the ssh host's own loopback
_LOCAL_FORWARD = re.compile(r"(?:[\w.]+:)?\d+:(?:localhost|127\.0\.0\.1|\[::1\]):\d+")
_FORWARD_TO = re.compile(r"(?:[\w.]+:)?\d+:([A-Za-z0-9][\w.-]*):\d+")


def _organisation_forward(forward: str) -> bool:
    """A local forward to a machine named on the organisation's own network (`15432:db.acme.internal:5432`,
    `8888:10.0.4.12:8888`): one of its services brought to this machine, as a look at it would be."""
    from limen.normalize.net import host_destination

    found = _FORWARD_TO.fullmatch(forward)
    return found is not None and organisation_network(host_destination(found.group(1).lower()))


_PKG_ROUTE = frozenset({"--proxy", "--https-proxy", "--trusted-host"})
_GIT_ROUTE_CONFIG = re.compile(
    r"(?i)^(?:https?(?:\..*)?\.proxy|core\.sshcommand|core\.gitproxy|url\..*\.(?:push)?insteadof|protocol\.|"
    r"remote\..*\.(?:push)?url|"
    r"remote\..*\.proxy|http\..*\.(?:curloptresolve|proxy)"
    # where Git LFS sends and takes the large files (`.lfsconfig`'s `lfs.url`, a remote's `lfsurl`)
    r"|lfs\.(?:push)?url|remote\..*\.lfs(?:push)?url|lfs\..*\.access)"
)
# `git config`'s options that print a setting rather than set it
_GIT_CONFIG_READS = frozenset({"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l"})
# An assignment's name: one scan for `NAME=`, then a set lookup (an alternation of names under `(?i)` with a
# look-behind tried at every position costs ~100 us on a 1 kB line).
_ASSIGNED_NAME = re.compile(r"(?<![\w$])([A-Za-z_]\w*)=")


_REWRITE_KEY = re.compile(r"(?i)^url\.(.+)\.(?:push)?insteadof$")
_SCP_HOST = re.compile(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)")


def _url_place(address: str) -> tuple[str, str]:
    """The host and the path of a URL (`https://h/x`, `ssh://git@h/x`) or an scp-style address (`git@h:x`)."""
    if "://" in address:
        parts = urlsplit(address)
        return (parts.hostname or "").lower(), parts.path.strip("/").lower()
    found = _SCP_HOST.match(address)
    return (found.group(1).lower(), address[found.end() :].strip("/").lower()) if found else ("", "")


def _same_host_rewrite(key: str, value: str) -> bool:
    """`git config url."git@github.com:".insteadOf "https://github.com/"`: addresses of one host rewritten to
    another protocol of the same host and path, which changes how the project's remotes are reached, not
    where."""
    rewrite = _REWRITE_KEY.match(key)
    if rewrite is None or not value:
        return False
    place = _url_place(rewrite.group(1))
    return bool(place[0]) and place == _url_place(value)


def _fetches(name: str) -> bool:
    """The program installs or downloads what it runs (a package manager, a toolchain manager)."""
    entry = program(name)
    return entry is not None and bool(entry.roles & {Role.PACKAGE_INSTALLER, Role.DOWNLOADS, Role.RUNNER})


def _route_variable(line: str) -> str:
    if "=" not in line:
        return ""
    if len(line) > 128:  # a long line (a program, a script) seldom names one: looked for first, as text
        lowered = line.lower()  # the names are ASCII: a name that lower-cases to one is in the lowered line
        if not may_set_route_variable(lowered):
            return ""
    for match in _ASSIGNED_NAME.finditer(line):
        if is_route_variable(match.group(1)):
            return match.group(1)
    return ""


_PKG_TOOLS = frozenset({"pip", "pip3", "uv", "pipx", "poetry", "npm", "npx", "yarn", "pnpm", "bun"})
_NET_TOOLS = frozenset(
    {
        "curl",
        "wget",
        "git",
        "ssh",
        "scp",
        "sftp",
        "rsync",
        "http",
        "https",
        "xh",
        "aria2c",
        "ftp",
        "cargo",
        "go",
        "gem",
        "bundle",
        "composer",
        "mix",
        "docker",
        "podman",
        "helm",
        "kubectl",
        "gh",
        *_PKG_TOOLS,
        *_RAW_SOCKET_TOOLS,
    }
)


def is_trusted(host: str, ctx: Context) -> bool:
    """True when `host` (already normalised) matches one of the user's trusted-host globs."""
    return host_in(host, ctx.trusted_hosts)


_BODY_KEYS = frozenset({"body", "data", "json", "content", "payload", "files", "form", "text", "message"})


def _read_only_fetch(action: Action) -> bool:
    """A tool-argument GET/HEAD (WebFetch) that carries no body: the most it sends is its URL."""
    method = str(action.arguments.get("method", "GET")).upper()
    return (
        action.capability == "network.request"
        and not action.commands
        and method in ("GET", "HEAD")
        and not any(action.arguments.get(k) for k in _BODY_KEYS)
    )


def _reads_only(action: Action) -> bool:
    """A fetch that sends nothing of the session's and keeps no copy: reading a page, as a person would. A
    tool call qualifies as a known fetch tool (WebFetch), or as a tool its name calls a fetch
    (`get_webpage`, `fetch`) given nothing but the URL: what else a tool is handed, it may send."""
    if not action.commands:
        if action.capability != Capability.NETWORK_REQUEST.value:
            return False
        if action.tool not in KNOWN_TOOLS:
            urls = set(classify(action.tool, action.arguments).urls)
            server = action.tool.split("__")[1].lower() if action.tool.count("__") >= 2 else ""
            if reads_by_name(action.tool) and program(server) is None:
                # `dataverse.list_tables(environment_url=URL, filter="acme_")`: a tool that only reads, given
                # the service's address and what to look up (short words, no body; a secret among them is
                # the secret rules' to judge). A platform the table knows names its own resources by
                # address (`vercel.get_deployment(idOrUrl=...)`): another host there is its to judge
                if (
                    not all(
                        key in urls or isinstance(value, (bool, int, float)) or _short_words(value)
                        for key, value in action.arguments.items()
                    )
                    or set(action.arguments) & _BODY_KEYS
                ):
                    return False
            elif any(
                value not in (None, "", [], {})
                and key not in urls
                and not isinstance(value, (bool, int, float))
                for key, value in action.arguments.items()
            ):  # (a number or a switch, `max_length: 8000`, `raw: true`, is how it fetches, not data sent)
                return False
    elif (
        not action.payloads
        and all(_reading_invocation(c) for c in action.commands)
        and all(plain_url(d.url) for d in action.destinations)
    ):
        return True  # `pac solution list --environment URL`: a client's sub-command that only reads from it
    return carries_nothing(action) and not _keeps_a_copy(action)


def _short_words(value: object) -> bool:
    """A lookup's argument: a short string, or a short list of them."""
    if isinstance(value, str):
        return len(value) <= 500
    return (
        isinstance(value, list)
        and len(value) <= 32
        and all(isinstance(v, str) and len(v) <= 200 for v in value)
    )


def _reading_invocation(command: Command) -> bool:
    """A program the table does not know whose sub-command only reads (`pac solution list --environment URL`,
    `normalize.tools.reading_subcommand`): what it sends is the request for what it reads. Programs the table
    knows for what they send (`curl`, `git`, `ssh`) are judged by their own reading."""
    return (
        program(command.name) is None
        and not command.via
        and reading_subcommand(command.argv[1:])
        and not any(w.startswith("@") or "=@" in w for w in command.argv[1:])  # (`-d @.env`: a file sent)
    )


def _keeps_a_copy(action: Action) -> bool:
    """Whether a fetch saves what it gets to a file (`curl -o f`, `curl -O`, `wget URL`, `> page.html`),
    which a later call could run, rather than only showing it (`curl -s URL`, `wget -qO- URL`, a WebFetch).
    `/dev/null` is nothing kept, and neither is a document or a checksum list saved under its own name
    (`curl -o docs/spec.xlsx URL`, `curl -O .../SHA256SUMS`): no program runs it as it is, and a line that
    later runs what a session fetched is judged as that."""
    kept = [p for p in action.write_paths if p != "/dev/null"]
    if kept:
        return not all(DOCUMENT_FILE.search(p) for p in kept) or not _only_documents_fetched(action)
    for command in action.commands:
        args = command.argv[1:]
        if command.name == "curl":
            clusters = (w[1:] for w in args if w.startswith("-") and not w.startswith("--"))
            if any("O" in c or "J" in c for c in clusters) or any(
                w.startswith(("--remote-name", "--remote-header-name")) for w in args
            ):
                return not _only_documents_fetched(action)
        elif command.name == "wget":
            to_stdout = any(
                w in ("--spider", "-O-", "--output-document=-", "--output-document=/dev/null")
                or (w.startswith("-") and not w.startswith("--") and w.endswith("O-"))
                for w in args
            ) or any(w in ("-O", "--output-document") and n in ("-", "/dev/null") for w, n in pairwise(args))
            if not to_stdout:
                return not _only_documents_fetched(action)
    return False


def _only_documents_fetched(action: Action) -> bool:
    """Every address the line fetches names a document (its path's last part), so what arrives is one."""
    return bool(action.destinations) and all(
        DOCUMENT_FILE.search(urlsplit(d.url).path if "://" in d.url else "") for d in action.destinations
    )


def _deceptive_userinfo(dest: Destination) -> bool:
    """`https://github.com@evil.com`: userinfo that reads like a host name."""
    if not dest.has_userinfo or "://" not in dest.url:
        return False
    authority = dest.url.split("://", 1)[1].split("/", 1)[0]
    userinfo = authority.rsplit("@", 1)[0]
    return "." in userinfo.split(":", 1)[0]


def named_plainly(dest: Destination) -> bool:
    """A destination whose host is the one it reaches, as written: nothing about it disguised; a login in
    its URL (`postgres://app:pw@db.acme.internal`) that does not read like a host disguises nothing."""
    return set(dest.flags) <= {"userinfo"} and not _deceptive_userinfo(dest)


def _argument_strings(value: object, depth: int = 0) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif depth <= 8 and isinstance(value, dict):
        for item in value.values():
            yield from _argument_strings(item, depth + 1)
    elif depth <= 8 and isinstance(value, (list, tuple)):
        for item in value:
            yield from _argument_strings(item, depth + 1)


def _intended(dest: Destination, action: Action, ctx: Context) -> bool:
    """The session knows this plain public destination from a source this mode counts as the user's intent."""
    origins = _INTENDED[ctx.mode]
    session = ctx.session
    if (
        session is None
        or not origins
        or dest.host_class is not HostClass.PUBLIC
        or dest.has_userinfo
        or not PLAIN_FLAGS.issuperset(dest.flags)
    ):
        return False
    if dest.scheme != "mailto":
        return session.value_origin(dest.host) in origins
    addresses = {
        m.group(0).strip(".>")
        for text in _argument_strings(action.arguments)
        if "@" in text
        for m in ADDRESS.finditer(text)  # `recipient_destinations`' own split
        if m.group(1) and m.group(1).strip(".>").lower() == dest.host
    }
    return bool(addresses) and all(session.value_origin(a) in origins for a in addresses)


_DNS_LOOKUPS = frozenset({"dig", "nslookup", "host", "drill", "delv", "kdig"})


def _plain_public(dest: Destination) -> bool:
    return (
        dest.host_class is HostClass.PUBLIC and not dest.has_userinfo and PLAIN_FLAGS.issuperset(dest.flags)
    )


def leaves_project(dest: Destination, action: Action) -> str:
    """Why this destination hands data to someone other than the project ("" if it does not): a push or
    write to another repository or account, a publication, a collection service, or a send to a trusted
    service's publishing endpoint (`curl -X POST https://api.github.com/gists`)."""
    if "foreign_remote" in dest.flags:
        return "writes to a repository or account that is not this project's origin"
    if "publishes" in dest.flags:
        return f"publishes through {dest.via_command or 'a tool'}"
    if is_collection_service(dest.host):
        return "a paste, file-drop, request-catcher or tunnel service"
    if "://" in dest.url and not carries_nothing(action):
        path = _url_path(dest.url)
        what = publishing_endpoint(dest.host, path)
        if what:
            return f"publishes {what}"
        repo = github_repo_of_path(path) if dest.host in _GITHUB_API_HOSTS else None
        if repo is not None and project_repository(action.cwd) != ("github.com", "/".join(repo)):
            return "writes to a GitHub repository that is not this project's origin"
    return ""


_GITHUB_API_HOSTS = frozenset({"api.github.com", "uploads.github.com"})


def _url_path(url: str) -> str:
    """The path of a URL, from its first slash to its query ("/" for none; "" when it is no URL)."""
    if "://" not in url:
        return ""
    return ("/" + url.split("://", 1)[1].partition("/")[2]).split("?", 1)[0]


def _reads_or_uses_own_key(dest: Destination, action: Action) -> bool:
    """A documentation page fetched with nothing sent, an official installer from its own host, or an API
    called with the user's own credential for it (its conventional variable: `$OPENAI_API_KEY` to
    api.openai.com; a literal key is `secret_exfiltration`'s to judge)."""
    if is_documentation(dest.host) and carries_nothing(action):
        return True
    if is_official_installer(dest.url):
        return True  # the project's own installer host (running it is `destructive_command`'s question)
    if len(action.destinations) == 1 and "--password-stdin" in action.command_line:
        from limen.rules.secrets import logs_in_with_issuers_credential

        if logs_in_with_issuers_credential(action):  # `gcloud auth print-access-token | docker login ...`
            return True
    if _printed_for(dest, action) and carries_nothing(action):
        return True  # `curl -H "Authorization: Bearer $(gcloud auth print-access-token)" https://x.googleapis.com`
    issuers = issuers_for_host(dest.host)
    texts = (*action.payloads, *(w for c in action.commands for w in c.argv if "$" in w))
    if not issuers:
        return named_vendor_api(dest.host, texts, _url_path(dest.url))
    used = frozenset(i for t in texts for i in issuers & issuers_of_credentials(t))
    used |= issuers & frozenset(i for c in action.commands for i in picked_issuers(c))  # `$(grep STRIPE_...)`
    used |= issuers & issuers_of_client(dest.via_command)  # `az rest --url https://graph.microsoft.com/...`
    used |= issuers & credentials_to_issuers(action)  # `-u sk_test_...:`, `Token token=$PD_TOKEN`
    # Data to a bucket, webhook or repository: whose it is, the credential does not say.
    return bool(used - SHARED_ISSUERS) or (bool(used) and carries_nothing(action))


def _printed_for(dest: Destination, action: Action) -> bool:
    """A credential a printer in the line (`facts.secrets.PRINTERS`) puts into a substitution, and `dest` is
    a host that issued it (or, for an identity token, one of the project's own services): its use."""
    from limen.facts.secrets import printer

    for command in action.commands:
        if "$()" in command.via or "``" in command.via:
            printed = printer(command.argv)
            if printed is not None and printed.issued_for(dest.host, action.cwd, command.argv):
                return True
    return False


# Programs that log in to a host (over ssh, or a file-transfer login), by which a host the user's ssh knows,
# or the project's committed files name, is the user's own machine
_SSH_CLIENTS = frozenset({"ssh", "scp", "sftp", "rsync", "mosh", "autossh", "sshfs", "lftp", "ssh-copy-id"})


# ssh's options that forward or tunnel something of this machine's (its agent, its ports, its display, its
# environment), go through another machine (a jump host), or run a local command (a proxy)
_SSH_FORWARDING_FLAGS = frozenset("ARLDWwMSXYJ")
_SSH_FORWARDING_SETTING = re.compile(
    r"(?i)^(?:Proxy|Local|Remote|Dynamic|Forward|PermitLocal|SendEnv|SetEnv)"
)


def _only_looks_remotely(dest: Destination, action: Action) -> bool:
    """`ssh HOST 'uptime; df -h'`, `ssh router 'show bgp summary'`: a login that runs only commands that
    read and print there, with nothing of this machine's sent along: no input, nothing forwarded or
    tunnelled, no local value expanded into the remote line (`$`, a substitution)."""
    line = action.command_line
    if dest.via_command != "ssh" or any(c in line for c in "<$`"):
        return False
    local = [c for c in action.commands if not c.via]
    remote = [c for c in action.commands if c.via[:1] == ("ssh",)]
    if len(local) != 1 or local[0].name != "ssh" or not remote or len(remote) + 1 != len(action.commands):
        return False
    argv = local[0].argv
    for i, word in enumerate(argv[1:], 1):
        if word.startswith("-") and not word.startswith("--") and set(word[1:]) & _SSH_FORWARDING_FLAGS:
            return False
        setting = word[2:] if word.startswith("-o") and len(word) > 2 else argv[i + 1] if word == "-o" else ""
        if setting and _SSH_FORWARDING_SETTING.match(setting):
            return False
    return all(only_inspects(c.argv) and not c.redirects for c in remote)


def _own_login_host(host: str, home: str, cwd: str) -> bool:
    """A machine of the user's or the project's own: in the user's ssh config or known hosts, or named by a
    file the project's repository holds at its commit (`forge@164.92.81.17` in its deploy script, README or
    CI), since a host someone else controls is named nowhere in it; a name the agent just wrote into a file
    is not committed, so it does not count."""
    from limen.facts.hosts import committed_name
    from limen.ssh_hosts import known

    return known(host, home) or (len(host) >= 7 and bool(cwd) and committed_name(cwd, host))


def _judge(dest: Destination, action: Action, ctx: Context) -> Finding | None:
    mode = ctx.mode
    where = dest.host or "an unparseable host"
    owned: list[bool] = []  # whether the host is the project's own domain, asked once (it reads git's files)

    def own_domain() -> bool:
        if not owned:
            owned.append(project_domain(dest.host, action.cwd or ctx.workspace))
        return owned[0]

    if dest.host_class is HostClass.METADATA:
        return Finding(
            ReasonCode.UNKNOWN_EXTERNAL_DESTINATION,
            Verdict.BLOCK,
            95,
            f"{where} is a cloud metadata endpoint (instance credentials)",
        )
    if dest.host_class is HostClass.LOOPBACK:
        if "ip_obfuscated" in dest.flags and dest.ip != "0.0.0.0":  # `http://2130706433/`: why spell it so?
            return Finding(
                ReasonCode.UNKNOWN_EXTERNAL_DESTINATION,
                Verdict.AUTH,
                60,
                f"{where} reached through a disguised loopback address",
            )
        return None
    if dest.via_command in _DNS_LOOKUPS:
        return None
    if dest.via_command in ("nc", "ncat", "netcat") and all(
        _zero_io(c) for c in action.commands if c.name == dest.via_command
    ):
        return None  # `nc -zv host port`: whether the port answers, nothing sent
    if OWN_REMOTE in dest.flags:
        return None  # the project's own origin, read from its git configuration
    if dest.scheme in IMAGE_SCHEMES and "publishes" not in dest.flags and public_image_registry(dest.host):
        return None  # `apptainer pull docker://rocker/r-ver:4`: an image taken as `docker pull` takes it
    if (
        dest.host
        and set(dest.flags) <= {"publishes"}
        and (
            named_by_project(dest.host, dest.url, action.cwd or ctx.workspace)
            or (not dest.has_userinfo and own_domain())
        )
    ):  # a bucket or a cloud account (its image registry) that the project's own infrastructure code names,
        # or a registry on the project's own domain (`crates.acme.io`, `registry.acme.io/app`)
        return None
    if dest.flags == ("publishes",) and not mode.strict_or_above and organisation_network(dest):
        return None  # `docker push registry.acme.internal/app`: published inside the organisation's network
    leaving = leaves_project(dest, action)
    if leaving:
        strict = mode.strict_or_above and is_collection_service(dest.host)
        return Finding(
            ReasonCode.UNKNOWN_EXTERNAL_DESTINATION,
            Verdict.BLOCK if strict else Verdict.AUTH,
            95 if strict else max(_MODE_RISK[mode], 65),
            f"{leaving} ({where})",
        )
    if "invalid_host" not in dest.flags and is_trusted(dest.host, ctx):
        return None
    if (
        dest.via_command in _SSH_CLIENTS
        and dest.host
        and _own_login_host(dest.host, ctx.home, action.cwd or ctx.workspace)
    ):
        return None  # a machine of the user's own: in their ssh config or known hosts, or the project's
    if named_plainly(dest) and dest.host and own_domain():
        return None  # the project's own domain (`api.ledgerline.io` for .../ledgerline): its own service
    deceptive = "ip_obfuscated" in dest.flags or _deceptive_userinfo(dest)
    if deceptive:
        verdict = Verdict.BLOCK if mode.strict_or_above else Verdict.AUTH
        return Finding(
            ReasonCode.UNKNOWN_EXTERNAL_DESTINATION,
            verdict,
            95 if verdict is Verdict.BLOCK else 80,
            f"{where} reached through a disguised address",
        )
    if mode is Mode.BALANCED and named_plainly(dest) and _only_looks_remotely(dest, action):
        return None  # `ssh db1.example.com 'uptime; df -h'`: a look at another machine, as a page read is
    if organisation_network(dest) and not mode.strict_or_above:
        return None  # the organisation's own network (`jenkins.acme.internal`, `10.0.4.12`): no one else's
    if mode is Mode.LIGHT and _read_only_fetch(action):
        return None
    if mode is Mode.BALANCED and _plain_public(dest) and _reads_only(action):
        return None
    if mode is not Mode.PARANOID and _plain_public(dest) and _reads_or_uses_own_key(dest, action):
        return None
    if _intended(dest, action, ctx):
        return None
    kind = {
        HostClass.PRIVATE: "private-network",
        HostClass.LINK_LOCAL: "link-local",
        HostClass.UNKNOWN: "unparseable",
    }.get(dest.host_class, "untrusted")
    return Finding(
        ReasonCode.UNKNOWN_EXTERNAL_DESTINATION,
        Verdict.AUTH,
        _MODE_RISK[mode],
        f"{where} is an {kind} destination" if kind == "untrusted" else f"{where} is a {kind} host",
    )


@rule(ReasonCode.UNKNOWN_EXTERNAL_DESTINATION, needs="destinations")
def external_destinations(action: Action, ctx: Context) -> Iterable[Finding]:
    """Every destination off the trusted list: AUTH; cloud metadata endpoints and disguised hosts: BLOCK.
    A destination the session learnt from the user (or, in light and balanced, from the user's clean data
    or a page the user named) is intended and quiet, as are documentation GETs carrying nothing, a token
    sent to the service that issued it, registries, the project's own remote and, in light and balanced,
    the organisation's private network (`jenkins.acme.internal`, `10.0.4.12`; strict asks)."""
    if not action.destinations:
        return []
    findings = [f for f in (_judge(d, action, ctx) for d in action.destinations) if f is not None]
    if not findings and (posing := _link_posing_as_sender(action)):
        # a mail from the organisation's own address whose link goes elsewhere: phishing its own users
        detail = f"the message links to {posing}, a domain posing as the sender's"
        findings = [Finding(ReasonCode.UNKNOWN_EXTERNAL_DESTINATION, Verdict.AUTH, 70, detail)]
    if len(findings) > 1:  # one finding per verdict keeps the trail readable
        findings = [max(findings, key=lambda f: (f.verdict, f.risk))]
    return findings


def _link_posing_as_sender(action: Action) -> str:
    """A host a message's text links to that spells the sender's own domain's name inside another domain
    (`tidepool-billing-verify.com` or `tidepool.app.verify.io` in a mail from `security@tidepool.app`), or
    a near miss of it: the recipients are sent to someone else in the sender's name. "" for none."""
    from limen.facts.hosts import imitates, registered_domain, registrable_name

    if not any(d.scheme == "mailto" for d in action.destinations):
        return ""
    sender = next(
        (v for k, v in action.arguments.items() if words_of(str(k)) in _SENDER_KEYS and isinstance(v, str)),
        "",
    )
    domain = sender.rsplit("@", 1)[-1].strip(" >").lower() if "@" in sender else ""
    brand = registrable_name(domain)
    if len(brand) < 4:
        return ""
    texts = [v for v in action.arguments.values() if isinstance(v, str)][:16]  # (its body, in any argument)
    for text in texts:
        for host in dict.fromkeys(m.group(1).lower() for m in _LINK_HOST.finditer(text[:65536])):
            if registered_domain(host) == registered_domain(domain):
                continue
            words = re.split(r"[.-]", host)
            if brand in words or imitates(registrable_name(host), frozenset({brand})):
                return host
    return ""


_SENDER_KEYS = frozenset({"from", "sender", "from_email", "from_address", "reply_to"})
_LINK_HOST = re.compile(r"https?://([A-Za-z0-9.-]+\.[A-Za-z]{2,})")


# Files that hold data rather than show it: tables, exports, dumps, databases, archives, mailboxes, logs
_DATA_FILE = re.compile(
    r"(?i)\.(?:csv|tsv|xlsx?|ods|json|jsonl|ndjson|parquet|avro|sql|dump|bak|db|sqlite3?|mdb|accdb|gz|tgz|zip"
    r"|7z|tar|bz2|xz|zst|rar|mbox|pst|eml|log|vcf|bam|cram|dcm|h5|hdf5|npz|pkl)$"
)


@rule(ReasonCode.UNKNOWN_EXTERNAL_DESTINATION, needs="payloads")  # (a tool's arguments are its payloads)
def uploaded_data_files(action: Action, ctx: Context) -> Iterable[Finding]:
    """A tool that sends a file of this machine's (a chat's or a drive's upload, a mail's attachment) given a
    file that holds data: a table, an export, a dump, a database, an archive, a log (`upload_file(channels=
    C07VENDOR, file_path=data/clinical/participants.csv)`, a message's or a mail's attachment: `post_message(
    channel=..., file_path=exports/customers.csv)`), or a secret file (a private key): it leaves
    for whoever reads the channel, AUTH. Quiet: an image, a document or a page shared
    (`figures/sst_anomaly.png`), a shell line (its own rules read what it sends), a tool that keeps the file
    on this machine."""
    words = words_of(action.tool.rsplit("__", 1)[-1])
    if (
        action.commands
        or not action.paths
        or not (
            _SENDS_FILE.search(words)
            or (_POSTS.search(words) and any(words_of(str(k)) in _ATTACHED for k in action.arguments))
        )
    ):
        return
    from limen.rules.secrets import reaches_outside

    if not reaches_outside(action):
        return
    from limen.rules.paths import is_secret_file

    for path in action.paths[:16]:
        name = path.rsplit("/", 1)[-1]
        if is_secret_file(path):  # `upload_file(file_path=/etc/opendkim/keys/x/mail.private)`
            yield Finding(
                ReasonCode.UNKNOWN_EXTERNAL_DESTINATION,
                Verdict.AUTH,
                85,
                f"the secret file {name} is sent out",
            )
            return
        if _DATA_FILE.search(path):
            yield Finding(
                ReasonCode.UNKNOWN_EXTERNAL_DESTINATION, Verdict.AUTH, 70, f"the data file {name} is sent out"
            )
            return


# A tool's name that says it posts a message, and the arguments that attach files to one
# (`post_message(channel=..., file_path=exports/x.csv)`, `send_chat_message(attachments=[...])`)
_POSTS = re.compile(r"(?:^|_)(?:post|reply|message|messages|chat|mail|email)(?:_|$)")
_ATTACHED = frozenset({"attachments", "attachment", "file", "files", "file_path", "file_paths", "document"})
# A tool's name that says it sends a file (`upload_file`, `files_upload_v2`, `send_document`, `attach_file`)
_SENDS_FILE = re.compile(
    r"(?:^|_)(?:upload|attach|share|send)_?(?:\w+_)?(?:files?|documents?|attachments?)?(?:_|$)"
)


@rule(ReasonCode.UNKNOWN_EXTERNAL_DESTINATION, needs=("notes", "acting", "served"))
def configured_destinations(action: Action, ctx: Context) -> Iterable[Finding]:
    """A host a change to a deployed configuration adds (`normalize.tools.sends_later`: an exporter's
    endpoint, a remote write, an alert webhook, a service entry), or a manifest `kubectl apply` deploys at
    once names (an admission webhook's `url:`), judged as the same host called now would
    be, since the deployed system will send there: AUTH when it is off the trusted list. Quiet: the cluster's
    and the company's private names, the project's own domain, trusted hosts, and hosts the project's
    committed files already name (a configuration moved, not a destination added), and a vendor's own API
    (`facts.hosts.first_party_api`). A program's code is read as a configuration is
    (`normalize.tools.code_sends_later`: a request with a body, a log handler, an upload to a named bucket,
    to an address written in it). Where a system sends
    money is a destination too: a payee's bank details or payout wallet written into its rows (`UPDATE
    vendors SET iban = ...`, `limen.rules.rows.payee_written`), and a URL, a wallet or an account's email
    address written there (`rows.destination_written`) ask, whichever door the statement takes."""
    from limen.rules.commands import written_rows
    from limen.rules.rows import destination_written, payee_written

    rows = written_rows(action)
    if payee := payee_written(rows) or destination_written(rows):
        # `UPDATE payees SET iban = '...'`, `UPDATE firmware SET download_url = 'http://203.0.113.5/...'`
        yield Finding(ReasonCode.UNKNOWN_EXTERNAL_DESTINATION, Verdict.AUTH, 75, payee)
        return
    deploys = [c for c in action.commands if c.name in ("kubectl", "oc")]
    if not deploys and not action.notes:
        return
    from limen.facts.hosts import PRIVATE_SUFFIXES, committed_name, first_party_api, resolver_or_clock
    from limen.normalize import net
    from limen.normalize.tools import SENDS_LATER, sends_later
    from limen.rules.written import applied_manifests

    cwd = action.cwd or ctx.workspace
    notes = list(action.notes)
    for command in deploys:  # `kubectl apply -f - <<EOF`: the manifest deployed at once
        for text in applied_manifests(command, action):
            notes += sends_later("applied-manifest.yaml", "", text)
    for note in notes:
        if not note.startswith(SENDS_LATER):
            continue
        host = note[len(SENDS_LATER) :]
        if host.endswith((".svc", ".cluster.local", *PRIVATE_SUFFIXES)):
            continue  # `tempo.observability.svc`: a service of the cluster itself
        dest = net.host_destination(host, port=None, via_command="configuration")
        if dest is None or dest.host_class is not HostClass.PUBLIC or is_trusted(dest.host, ctx):
            continue
        if resolver_or_clock(dest.host) or project_domain(dest.host, cwd):
            continue
        if first_party_api(dest.host):
            continue  # `requests.post("https://api.stripe.com/v1/...")`: a vendor's own API
        if cwd and committed_name(cwd, dest.host):
            continue
        yield Finding(
            ReasonCode.UNKNOWN_EXTERNAL_DESTINATION,
            Verdict.AUTH,
            _MODE_RISK[ctx.mode],
            f"once deployed, the configuration or the program sends to {dest.host}, an untrusted destination",
        )
        return


def _zero_io(command: Command) -> bool:
    """`nc -z`, `nc -zv`: a scan for listening ports, which sends and receives nothing."""
    return command.name in ("nc", "ncat", "netcat") and any(
        re.fullmatch(r"-[a-zA-Z]*z[a-zA-Z]*", w) for w in command.argv[1:]
    )


def _route_override(cmd: Command, cwd: str, strict: bool) -> str:
    """Which option of `cmd` hands its route to something static parsing cannot see ("" if none)."""
    name, args = cmd.name, cmd.argv[1:]
    if name == "git" and "remote" in args[:4]:
        verb = "".join(args[args.index("remote") + 1 : args.index("remote") + 2])
        words = [w for w in args[args.index("remote") + 2 :] if not w.startswith("-")]
        if verb == "set-url" and words[:1] == ["origin"] and len(words) >= 2:
            own = project_repository(cwd)
            if own is not None and repository_identity(words[-1]) == own:
                return ""  # `git remote set-url origin git@github.com:me/proj.git`: the same repository
        if verb == "set-url" or (verb == "rename" and "origin" in args):
            return f"remote {verb} (where later pushes go)"
    if "config" in args:  # `git config http.proxy ...`, `npm config set proxy ...`: every later run
        key = next((i for i, a in enumerate(args) if _GIT_ROUTE_CONFIG.match(a)), -1) if name == "git" else -1
        read = any(a in _GIT_CONFIG_READS for a in args) or not [a for a in args[key + 1 :] if a[:1] != "-"]
        values = [a for a in args[key + 1 :] if a[:1] != "-"]
        if key >= 0 and not read and not _same_host_rewrite(args[key], values[0] if values else ""):
            return "config " + args[key].split("=", 1)[0]  # (`git config --get remote.origin.url` prints it)
        reading = any(a in ("get", "list", "ls") for a in args[args.index("config") + 1 :][:1])
        routed = any("proxy" in a.lower() or "registry" in a.lower() for a in args)
        if name in _PKG_TOOLS and not reading and routed:
            hosts = [urlsplit(a).hostname or "" for a in args if "://" in a]
            # an official registry set back, or the company's own source, is no new route
            official = bool(hosts) and all(own_package_source(h, cwd, strict) for h in hosts)
            if "proxy" in " ".join(args).lower() or not official:
                return "config proxy/registry"
    for i, arg in enumerate(args):
        flag = arg.split("=", 1)[0]
        nxt = args[i + 1] if i + 1 < len(args) else ""
        if name == "curl" and (
            flag in _CURL_ROUTE
            or (re.fullmatch(r"-[a-zA-Z]+", arg) and ("x" in arg or "K" in arg) and not arg.startswith("--"))
        ):
            return flag
        if name == "wget" and (
            flag in ("-i", "--input-file") or (flag in ("-e", "--execute") and "proxy" in (arg + nxt).lower())
        ):
            return flag
        if name == "git":
            if flag == "-c" and _GIT_ROUTE_CONFIG.match(nxt):
                return f"-c {nxt.split('=', 1)[0]}"
            if flag == "--config-env" or arg.startswith(("ext::", "fd::")):
                return flag
        if name in ("ssh", "scp", "sftp", "rsync"):
            lowered = arg.lower()
            if "proxycommand" in lowered or "proxyjump" in lowered or "localcommand" in lowered:
                return "ProxyCommand" if "proxycommand" in lowered else "ProxyJump"
            forward = nxt if arg == "-L" else arg[2:] if arg.startswith("-L") else ""
            if forward and _LOCAL_FORWARD.fullmatch(forward):
                continue  # `-L 5432:localhost:5432`: the ssh host's own service, brought here
            if forward and not strict and _organisation_forward(forward):
                continue  # `-L 15432:db.staging.acme.internal:5432`: a service of the organisation's, here
            if name != "rsync" and (arg in _SSH_ROUTE or (arg[:2] in _SSH_ROUTE and len(arg) > 2)):
                return arg[:2]
        if name in _PKG_TOOLS and flag in _PKG_ROUTE:
            return flag
    return ""


# A forge's address of an account's files: `raw.githubusercontent.com/OWNER/...`, `github.com/OWNER/...`,
# `OWNER.github.io`
_FORGE_FILES = re.compile(
    r"^https?://(?:(?:raw\.githubusercontent\.com|github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)/([\w.-]+)"
    r"|([\w-]+)\.(?:github|gitlab)\.io(?:[:/]|$))",
    re.IGNORECASE,
)


@rule(ReasonCode.UNKNOWN_EXTERNAL_DESTINATION, needs="notes")
def package_sources(action: Action, ctx: Context) -> Iterable[Finding]:
    """Packages installed from an account's files on a forge that is not the project's own account (`gem
    install --source https://raw.githubusercontent.com/someone/gems/main/ x`, `pip install -f
    https://someone.github.io/wheels/ x`): a forge hosts that account's files, not a package index, so its
    owner chooses what installs: AUTH. Quiet: the registries, a company's own index, the project's account."""
    from limen.facts.hosts import project_repository
    from limen.normalize.shell import PACKAGE_SOURCE

    for note in action.notes:
        found = _FORGE_FILES.match(note[len(PACKAGE_SOURCE) :]) if note.startswith(PACKAGE_SOURCE) else None
        if found is None:
            continue
        owner = (found.group(1) or found.group(2)).lower()
        identity = project_repository(action.cwd or ctx.workspace)
        if identity is not None and identity[1].split("/", 1)[0].lower() == owner:
            continue  # the project's own account
        detail = f"packages would come from the files of the account {owner!r} on a forge, not a registry"
        yield Finding(ReasonCode.UNKNOWN_EXTERNAL_DESTINATION, Verdict.AUTH, 70, detail)
        return


@rule(ReasonCode.EGRESS_REQUIRES_AUTH, needs="acting")
def unprovable_route(action: Action, ctx: Context) -> Iterable[Finding]:
    """Network commands whose real peer the line does not show: proxies, DNS and connection overrides,
    config or URL lists read from files, remotes re-pointed, raw sockets to another machine: AUTH in every
    mode. Quiet: plain `git push origin main`, `pip install requests`, `curl https://pypi.org/...`."""
    if not action.commands:
        return []
    net_commands = [c for c in action.commands if c.name in _NET_TOOLS]
    # `nc -z host port` only asks whether the port is open: nothing goes through it
    probes = {c.name for c in action.commands if c.name in _RAW_SOCKET_TOOLS and _zero_io(c)}
    raw = [
        d
        for d in action.destinations
        if d.via_command in _RAW_SOCKET_TOOLS
        and not (
            d.via_command in probes and all(_zero_io(c) for c in action.commands if c.name == d.via_command)
        )
    ]
    outside = [d for d in raw if d.host_class is not HostClass.LOOPBACK]
    if outside:
        return [
            Finding(
                ReasonCode.EGRESS_REQUIRES_AUTH,
                Verdict.AUTH,
                70,
                f"raw socket to {outside[0].host} via {outside[0].via_command}",
            )
        ]
    if not raw and any(
        c.name in _RAW_SOCKET_TOOLS
        and not _zero_io(c)
        and not (c.name == "socat" and socat_local_only(c.argv))
        for c in net_commands
    ):
        return [
            Finding(
                ReasonCode.EGRESS_REQUIRES_AUTH,
                Verdict.AUTH,
                70,
                "raw socket whose peer is not on the command line",
            )
        ]
    for cmd in net_commands:
        override = _route_override(cmd, action.cwd or ctx.workspace, ctx.mode.strict_or_above)
        if override:
            return [
                Finding(
                    ReasonCode.EGRESS_REQUIRES_AUTH,
                    Verdict.AUTH,
                    65,
                    f"{cmd.name} {override} decides the route at run time",
                )
            ]
    fetching = net_commands or [c for c in action.commands if _fetches(c.name)]
    if fetching and "=" in action.command_line:  # (`RUSTUP_DIST_SERVER=URL rustup toolchain install`)
        variable = _route_variable(action.command_line)
        if variable:
            return [
                Finding(
                    ReasonCode.EGRESS_REQUIRES_AUTH,
                    Verdict.AUTH,
                    65,
                    f"{variable} set for a network command",
                )
            ]
    return []


# Where mail is sent on: a forwarding or routing rule, a copy (`always_bcc`, a `BCC` action), an alias or a
# virtual map's target, a mail server's `goto` column, a catch-all
_FORWARDING = re.compile(
    r"(?i)forward|\bbcc\b|_bcc\b|\balias|\bgoto\b|redirect|copy_?to|\bvirtual\b|catch_?all|:fwd\b"
)


@rule(ReasonCode.UNKNOWN_EXTERNAL_DESTINATION, needs=("acting", "served", "write_paths", "payloads"))
def mail_forwarded(action: Action, ctx: Context) -> Iterable[Finding]:
    """Mail forwarded or copied to a personal mailbox (an address at a free mail service) that the call
    adds, by a mail server's setting, an alias or virtual map, a routing rule or a row of its tables:
    every message it receives leaves the organisation from then on. Quiet: an address the file already
    had, a personal address given as a sender or for a tool's own notices (no forwarding named)."""
    from limen.facts.hosts import FREE_MAIL_DOMAINS
    from limen.normalize.tools import MAIL_ADDRESS

    args = action.arguments
    new = [action.command_line, *action.payloads]
    new += [v for k, v in args.items() if isinstance(v, str) and k not in ("old_string", "file_path", "path")]
    # (a file that is itself a routing table: Postfix's `virtual`, `/etc/aliases`, a `.forward`)
    routing = any(
        _FORWARDING.search(p.rsplit("/", 1)[-1]) or p.endswith("/aliases") for p in action.write_paths
    )
    had: set[str] | None = None  # the addresses the text had before the call, read only once one matters
    for text in new:
        if "@" not in text or not (routing or _FORWARDING.search(text)):
            continue
        for match in MAIL_ADDRESS.finditer(text[:65536]):
            domain = match.group(1).lower()
            near = text[max(0, match.start() - 200) : match.end() + 40]
            if domain not in FREE_MAIL_DOMAINS or not (routing or _FORWARDING.search(near)):
                continue
            if had is None:
                had = _addresses_before(action)
            if match.group(0).lower() not in had:
                detail = f"mail is forwarded or copied to a personal mailbox at {domain}"
                yield Finding(ReasonCode.UNKNOWN_EXTERNAL_DESTINATION, Verdict.AUTH, 70, detail)
                return


def _addresses_before(action: Action) -> set[str]:
    """The mail addresses the edited text or the files written had before the call."""
    from limen.normalize.tools import MAIL_ADDRESS
    from limen.rules.written import current_text

    args = action.arguments
    old = [args["old_string"]] if isinstance(args.get("old_string"), str) else []
    if isinstance(args.get("content"), str):
        old += [current_text(p) or "" for p in action.write_paths[:2]]
    return {m.group(0).lower() for text in old for m in MAIL_ADDRESS.finditer(text[:65536])}
