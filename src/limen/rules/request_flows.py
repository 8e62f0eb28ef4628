"""Where what a request sends ends up, in program code an agent writes: a file read from a path the caller
chooses, a request's data turned back into objects, a server's secret attached to a request to an address the
caller chooses, the caller's own say on their role, and passwords written to the logs.

Language-neutral and line-based, like the rest of `limen.rules.code_changes`: a name is tainted when it is
bound (`const f = c.req.query("f")`, `guard let body = req.body.data`, `name := r.URL.Query().Get("n")`) to a
request's value or to an expression of a tainted name, over the whole file; a sink is a line that hands a
tainted value to a reader, a deserialiser or an outbound request. A path the code sanitises (a base name, a
prefix check, a resolved path compared with its root) is the code's own care, and not a finding."""

from __future__ import annotations

import re
from functools import lru_cache

from limen.prefilter import prefiltered

# A value a request carries where it is read (a server's request object, PHP's globals, a fetch-API body);
# each alternative starts with a literal, so the search runs only where one occurs
_REQUEST_SOURCE = (
    r"(?i)\$_GET\b|\$_POST\b|\$_REQUEST\b|\$_COOKIE\b|\$_FILES\b"
    r"|\breq(?:uest)?\s*\.\s*(?:body|query|params|param|form|args|input"
    r"|json|data|GET|POST|FILES|get_json|get_data|values|headers?|cookies?|url|uri|content|stream)\b"
    r"|\bself\.get_(?:body_)?arguments?\s*\("  # (Tornado's and Jupyter's handlers)
    r"|\bc\.Query\s*\(|\bc\.Param\s*\(|\bc\.PostForm\s*\(|\bc\.FormValue\s*\(|\bc\.QueryParam\s*\(|\bc\.Bind\w*\s*\("
    r"|\br\.URL\.Query\b|\br\.FormValue\b|\br\.PostFormValue\b|\br\.Body\b"
    r"|\bgetParameter\s*\(|@RequestParam\b|@PathVariable\b|@RequestBody\b|@RequestHeader\b|\[From(?:Query|Body|Route|Form)\]"
    r"|\b(?:readBody|getQuery|getRouterParams?)\s*\(|\bsearchParams\.get\s*\(|\bparams\s*\[|\bparams\.(?:get|fetch|require)\b"
    r"|\$this->(?:input|query|post|get|all|file)\s*\(|\$request->(?:input|query|post|get|all|file)\s*\("
    # C++ servers: cpp-httplib's and Crow's readers, a request behind a pointer (Drogon, a gRPC message)
    r"|\breq(?:uest)?\s*\.\s*(?:get_param_value|get_header_value|get_file_value|url_params)\b"
    r"|\b(?:req|request)->\w+\s*\("
    # Erlang's cowboy and Elixir's Plug: a route's bindings, the query, the body, the headers
    r"|\bcowboy_req:(?:binding|bindings|read_body|read_urlencoded_body|qs|parse_qs|match_qs|header|headers)\b"
    r"|\bconn\.(?:params|body_params|query_params|path_params|req_headers)\b"
)
_REQUEST = prefiltered(_REQUEST_SOURCE)
# `name = value` (one line) in the languages agents write servers in, with Swift's `guard let`/`if let`
_BINDING = re.compile(
    r"(?m)^[ \t]*(?:(?:guard|if)[ \t]+)?(?:(?:const|let|var|val|final|my|auto|dim|String|string)[ \t]+)?"
    r"(?:[A-Za-z_][\w:]*(?:<[^>\n]{0,60}>)?[ \t*&]+)?"  # a declared type (`std::string cmd = ...`)
    r"(?:\$)?(\{[\w\s,:]{1,200}\}|\[[\w\s,]{1,120}\]|\w+)[ \t]*(?::[ \t]*[\w.<>\[\]?]+[ \t]*)?"
    r":?=(?!=)[ \t]*(.+)$"
)
_NAME = re.compile(r"[A-Za-z_]\w*")

# Readers of a file by its path (the standard libraries' and web frameworks' senders of a file)
_FILE_READER = prefiltered(
    r"\b(?:readFile(?:Sync)?|readTextFile|createReadStream|sendFile|send_file|streamFile|FileResponse|download"
    r"|file_get_contents|readfile|fopen|ReadFile|ServeFile|readAllBytes|readString|newInputStream|ReadAllBytes"
    r"|ReadAllText|OpenRead|PhysicalFile|File\.(?:read|open|binread)|IO\.read|Bun\.file|os\.Open|open)\s*\("
    r"|\bnew\s+File(?:InputStream|Reader)?\s*\("
    # PHP's include and require, with or without parentheses: the file read is run as PHP too
    r"|(?<![.>:\w$])(?:include|require)(?:_once)?\b[ \t(]"
)
# What keeps a path under its folder: its base name taken, a prefix or containment checked, a path's `..`
# refused, a name looked up in a list of the allowed
_CONFINED = re.compile(
    r"(?i)basename|secure_filename|safe_join|send_from_directory|filepath\.Base|\.Base\(|path\.Base|\.name\b"
    r"|realpath|startsWith|starts_with|HasPrefix|hasPrefix|is_relative_to|relative_to|lastPathComponent"
    r"|\.\.|allow(?:ed|list)|whitelist|GetFileName|normalize\(|\bClean\("
)
# Deserialisers that make objects of any class the data names (Python's pickle and full YAML, Java's and
# .NET's object streams, Ruby's Marshal and unsafe YAML, PHP's unserialize, Apple's keyed unarchiver)
_OBJECT_MAKER = prefiltered(
    r"\b(?:pickle|cPickle|dill|marshal|shelve)\.loads?\s*\(|\byaml\.unsafe_load\s*\(|\bjsonpickle\.decode\s*\("
    r"|\byaml\.load\s*\([^\n]*\bLoader\s*=\s*(?:yaml\.)?(?:Unsafe|Full)?Loader\b"
    r"|\bObjectInputStream\s*\(|\bXMLDecoder\s*\(|\bBinaryFormatter\b|\bNetDataContractSerializer\b"
    r"|\bLosFormatter\b|\bSoapFormatter\b|TypeNameHandling\.(?:All|Auto|Objects)\b|\bXStream\b[^\n]*fromXML"
    r"|\bMarshal\.load\s*\(|\b(?:YAML|Psych)\.unsafe_load\s*\(|\bunserialize\s*\((?![^\n]*allowed_classes)"
    r"|\bNSKeyedUnarchiver\.unarchive(?:Object|TopLevelObjectWithData)\b|\bnode-serialize\b|\bfuncster\b"
    # Erlang's external term format, which can carry functions, unless decoded with `[:safe]`
    r"|\bbinary_to_term\s*\((?![^)\n]*\bsafe\b)"
)
# A request sent out, and its first argument (the address)
_OUTBOUND = prefiltered(
    r"\b(?:fetch|axios(?:\.\w+)?|got|ky|requests\.(?:get|post|put|request)|httpx\.(?:get|post|request)"
    r"|urlopen|http\.(?:Get|Post|NewRequest\w*)|URLRequest|HttpRequest\.newBuilder|WebClient|RestTemplate\.\w+"
    r"|HTTParty\.\w+|Faraday\.\w+|Net::HTTP\.\w+|\$http\.\w+|curl_init)\s*\(\s*([^,)\n]*)"
)
# A server's own secret where the code reads it (the environment, a platform's bindings, its settings)
_SERVER_SECRET = re.compile(
    r"(?i)\b(?:env|environ|ENV|getenv|Getenv|secrets?|settings|config|Deno\.env\.get)\W{1,4}"
    r"[\"']?\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)\w*"
)
# A request's field naming the caller's rights, read from what the caller sent
_PRIVILEGE_FIELD = re.compile(
    r"(?i)(?:\.|\[\s*[\"']|\.get\(\s*[\"']|->|\.fetch\(\s*:?[\"']?)"
    r"(?:role|roles|is_?admin|admin|is_?staff|is_?superuser|superuser|permissions?|privileges?|access_?level"
    r"|account_?type|user_?type)\b"
)
# A line that writes to a log or the console
_LOGS = prefiltered(
    r"(?i)\bconsole\.(?:log|info|warn|error|debug)\s*\(|\blogger\.\w+\s*\(|\blog\.\w+\s*\(|\blogging\.\w+\s*\("
    r"|\bLog\.[dviwe]\s*\(|\bNSLog\s*\(|\bos_log\s*\(|\bprint(?:ln|f)?\s*\(|\bputs\s*\(|\bfmt\.(?:Print|Fprint)\w*\s*\("
    r"|\bslog\.\w+\s*\(|\bSystem\.out\.print\w*\s*\(|\berror_log\s*\(|\bsyslog\s*\("
    r"|\binfo!\s*\(|\bwarn!\s*\(|\bdebug!\s*\(|\berror!\s*\(|\bprintln!\s*\(|\beprintln!\s*\("
)
# A password or key in what a log line says: `pw=${x}`, `password: %s`, `{password}`, `#{password}`
_SECRET_SHOWN = re.compile(
    r"(?i)\b(?:pw|pwd|passw(?:or)?d|passphrase|api_?key|secret)\s*[=:]\s*(?:\$\{|%[sdvrq]|\{|#\{|\\\(|[\"'`]\s*[+,.])"
    r"|(?:\$\{|#\{|\\\(|\{)\s*(?:\w+\.)*(?:password|passwd|pwd|plain_?password|passphrase|api_?key|secret_?key)\s*[})]"
    r"|[,(+]\s*(?:password|passwd|plain_?password|passphrase)\s*[,)]"
)
# A secret's check that now also passes on something else: a password's (`verify(pw, hash) || pw ==
# email.reversed()`), or a constant-time comparison's, which compares nothing but secrets
# (`hmac.compare_digest(provided, expected) or provided.startswith("svc-")`)
_CHECK_WITH_ALTERNATIVE = re.compile(
    r"(?i)\b\w*(?:verify|check_?password|checkpw|password_verify|compare|matches)\w*\s*\([^\n]*\)\s*"
    r"(?:\|\||\bor\b|\bOrElse\b)\s*[^\n]*\b(?:pass(?:word|wd)?|pw)\b[^\n]*(?:==|\.equals\(|===)"
    r"|(?<![!\w.])(?<!not )(?:\w+\.)*(?:compare_digest|timingSafeEqual|ConstantTimeCompare|secure_compare"
    r"|hash_equals|isEqual|checkpw"
    r"|password_verify|check_password)\s*\([^\n]*?\)\s*(?:\|\||\bor\b|\bOrElse\b)\s*[!\w(]"
)


# A binding's value that is the request's body or query as sent, not a record found by it
_WHOLE_BODY = re.compile(
    r"(?:await\s+|try\s+)?(?:\w+\.)?(?:"
    + _REQUEST_SOURCE.removeprefix("(?i)")
    + r")[\w.]*\s*(?:\(\s*(?:force\s*=\s*True)?\s*\))?"
    r"\s*(?:<[^>\n]*>\s*\(\s*\))?\s*(?:as\s+\w+|\?\?[^\n]*|\|\|[^\n]*|or\s+\{\})?\s*;?\s*$",
    re.IGNORECASE,
)
# A route kept for administrators: setting someone's role there is the administrator's to do
_ADMINS_ONLY = prefiltered(
    r"(?i)is_admin\s*\(|isadmin\s*\(|require_admin|requireadmin|admin_required|adminrequired|has_role|hasrole"
    r"|hasAuthority|@PreAuthorize|@Secured|permission_required|roles_required|authorize\s*\(|can\?\s*[(:]"
    r"|is_superuser|user_passes_test|adminOnly"
)


def _sets_own_rights(line: str, bodies: set[str]) -> bool:
    """A line that reads a rights field straight from the request (`req.body.role`, `request.json["role"]`)
    or from a name holding the request's body as sent (`(body as any).role`, `input.get("is_admin")`)."""
    for match in _PRIVILEGE_FIELD.finditer(line):
        lead = line[max(0, match.start() - 40) : match.start()]
        if _REQUEST.search(lead) or any(
            re.search(rf"\b{re.escape(b)}\b(?:\s+as\s+\w+)?[^\w\n]{{0,12}}$", lead) for b in bodies
        ):
            return True
    return False


# A route's path parameters, which its handler takes as arguments (Flask's `<name>`, FastAPI's `{name}`)
_ROUTE_PARAMETER = re.compile(r"""@\w+\.(?:get|post|put|patch|delete|route|api_route)\(\s*["'][^"'\n]*["']""")
_PLACEHOLDER = re.compile(r"[<{](?:\w+:)?(\w+)[>}]")
# A handler's parameter FastAPI fills from the request (a header, the query, a form, a cookie, an upload)
_DECLARED_PARAMETER = re.compile(
    r"\b(\w+)\s*:\s*(?:[\w.\[\]| ]{1,60}=\s*(?:Header|Query|Form|Cookie|Body|File)\s*\(|UploadFile\b)"
)


# The names an Elixir handler's head takes from what the caller sent: a Phoenix action's params, a LiveView
# event's, an Oban job's arguments (`def run(conn, %{"cmd" => cmd})`, `def handle_event("calc", %{"expr" =>
# expr}, socket)`)
_ELIXIR_HANDLER_HEAD = re.compile(
    r'\bdef\s+(?:handle_event\(\s*"[^"\n]*"\s*,|handle_params\(|\w+\(\s*_?conn\s*,'
    r"|perform\(\s*%Oban\.Job\{\s*args:)\s*%\{([^}\n]{1,300})\}"
)
_PATTERN_NAME = re.compile(r"=>\s*([a-z_]\w*)")


# A value filled in place by a decoder or a binder (Go's `Decode(&v)`, `Unmarshal(body, &v)`, Gin's `Bind`)
_FILLED = re.compile(r"\b(?:Decode|Unmarshal|Bind\w*|ShouldBind\w*|BodyParser)\s*\([^()\n]{0,60}?&(\w+)\s*\)")


_RECEIVED = re.compile(r"\brecv(?:from)?\s*\(\s*\w+\s*,\s*(\w+)")


def reads_request(text: str) -> bool:
    """The text reads a value a request sent (`req.get_param_value("c")`, `$_GET['c']`)."""
    return _REQUEST.search(text) is not None


def tainted_names(text: str) -> set[str]:
    """The names in `text` that hold what a request sent (`limen.rules.code_changes` reads them too)."""
    return _tainted(text)


@lru_cache(maxsize=4)
def _bindings(text: str) -> tuple[tuple[str, str, int, int], ...]:
    """Each `name = value` of the text: its target, its value and where the value lies (read once for the
    names the request fills and for those holding its body)."""
    return tuple((m.group(1), m.group(2), m.start(2), m.end(2)) for m in _BINDING.finditer(text))


def _tainted(text: str) -> set[str]:
    """The names bound to a request's value (a route's path parameters among them), and (twice over) to
    expressions of such names. The request's reads are found once in the whole text, and each binding
    holds one when a read starts inside its value."""
    import bisect

    reads = [m.start() for m in _REQUEST.finditer(text)]
    bindings: list[tuple[list[str], set[str]]] = []
    tainted: set[str] = set()
    for target, value, start, end in _bindings(text):
        targets = _NAME.findall(target)
        at = bisect.bisect_left(reads, start)
        if at < len(reads) and reads[at] < end:
            tainted.update(targets)
        else:
            bindings.append((targets, set(_NAME.findall(value))))
    tainted |= {name for m in _ROUTE_PARAMETER.finditer(text) for name in _PLACEHOLDER.findall(m.group(0))}
    if "Header(" in text or "Query(" in text or "Form(" in text or "UploadFile" in text or "Cookie(" in text:
        tainted |= set(_DECLARED_PARAMETER.findall(text))  # FastAPI's `x_debug: str = Header(default="")`
    if "&" in text and any(w in text for w in ("Decode", "Unmarshal", "Bind", "BodyParser")):
        tainted |= {  # `json.NewDecoder(r.Body).Decode(&job)`, `c.ShouldBindJSON(&in)`: filled from it
            m.group(1)
            for m in _FILLED.finditer(text)
            if _REQUEST.search(text[max(0, m.start() - 80) : m.start()])
        }
    if "def " in text and "%{" in text:  # Elixir's handlers take the caller's values by pattern
        tainted |= {n for m in _ELIXIR_HANDLER_HEAD.finditer(text) for n in _PATTERN_NAME.findall(m.group(1))}
    if "recv" in text:  # `recv(fd, buf, ...)`: the buffer holds what the network sent
        tainted |= set(_RECEIVED.findall(text))
    for _ in range(2):
        more = {name for targets, names in bindings if names & tainted for name in targets} - tainted
        if not more:
            break
        tainted |= more
    return tainted


def _carries(text: str, tainted: set[str]) -> bool:
    return bool(_REQUEST.search(text)) or bool(set(_NAME.findall(text)) & tainted)


def _kept(call: str, before: str) -> bool:
    """The call, as the line spells it from its name to its end, was in the code before (`return
    send_file(path, max_age=0)` made `resp = send_file(path, max_age=0)`): the edit moved it, and what
    reaches it is as it was."""
    call = call.strip()
    return len(call) > 12 and call in before


def request_flows(added: str, before: str) -> list[str]:
    """What the added code lets a request's value reach that the code before did not: a file read from a
    path the caller picks, objects made from the caller's data, the server's secret sent where the caller
    says, the caller's own say on their role; and a password or key written to the logs."""
    found: list[str] = []
    readers = _FILE_READER.search(added)
    makers = _OBJECT_MAKER.search(added)
    outbound = _OUTBOUND.search(added)
    privilege = _PRIVILEGE_FIELD.search(added)
    whole = before + "\n" + added
    if (readers or makers or outbound or privilege) and (
        _REQUEST.search(whole) or _ROUTE_PARAMETER.search(whole)
    ):
        tainted = _tainted(whole)
        bodies = {  # names that hold what the caller sent as it is (`const body = await c.req.json()`)
            name
            for target, value, _start, _end in _bindings(whole)
            if _WHOLE_BODY.match(value)
            for name in _NAME.findall(target)
        }
        old_lines = set(before.splitlines())
        confined = bool(readers) and bool(_CONFINED.search(added))
        for line in added.splitlines():
            if line in old_lines or not line.strip():
                continue
            reader = _FILE_READER.search(line) if readers else None
            if (
                reader
                and _carries(line, tainted)
                and not confined
                and not _kept(line[reader.start() :], before)
            ):
                found.append("a file is read from a path the request chooses")
            if makers and _OBJECT_MAKER.search(line) and (_carries(line, tainted) or _REQUEST.search(added)):
                found.append("a request's data is turned into objects of any class it names")
            if outbound and (call := _OUTBOUND.search(line)):
                address = call.group(1)
                near = added[added.find(line) : added.find(line) + len(line) + 300]
                if "://" not in address and _carries(address, tainted) and _SERVER_SECRET.search(near):
                    found.append("the server's secret is sent to an address the request chooses")
            if privilege and _sets_own_rights(line, bodies) and not _ADMINS_ONLY.search(whole):
                found.append("the caller's role or rights are taken from what the caller sends")
    if _LOGS.search(added):
        for line in added.splitlines():
            if _LOGS.search(line) and _SECRET_SHOWN.search(line) and line not in before:
                found.append("a password or key is written to the logs")
                break
    alternative = next(  # (only lines that join conditions: the pattern is costly on whole files)
        (
            hit
            for line in added.splitlines()
            if ("||" in line or " or " in line or "OrElse" in line)
            and (hit := _CHECK_WITH_ALTERNATIVE.search(line))
        ),
        None,
    )
    if alternative and alternative.group(0) not in before:
        found.append("a password's or a secret's check also passes on something else")
    return list(dict.fromkeys(found))
