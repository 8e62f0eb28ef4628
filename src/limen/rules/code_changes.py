"""What a change to program code takes away from its security, read from the change itself in any language.

The code a project keeps is its own: what an edit *adds* is what the agent did. An attacker who wants a way in
rarely writes something new and strange; they make an existing check say yes (`aud -> aud.contains(x)` made
`aud -> true`), take a refusal out (`if key.revoked { return Err(Unauthorized) }` deleted), stop keeping a
query to the caller's rows (`AND org_id = $2` dropped), let a request in on a header or a fixed word (`if
req.headers().get("x-debug") == "1" { return Ok(superuser) }`), or turn a verification off
(`validation.validate_exp = false`, `danger_accept_invalid_certs(true)`). Those shapes are the same in Rust,
Go, Java, Kotlin, C#, Elixir, Ruby, PHP, TypeScript and Python, so they are read from tokens and words, not
from one language's grammar: the before and after texts are compared line by line, then token by token where
they differ.

A refactor that keeps its checks (a refusal moved within the file, a filter rewritten with the same column),
a check made stricter (`verify: true`), or a flag of a feature made true stays quiet.
"""

from __future__ import annotations

import difflib
import re

from limen.facts.hosts import PRIVATE_ADDRESS
from limen.facts.paths import test_code
from limen.facts.secrets import CODE_NAMED_STORES, SENSITIVE_FIELD
from limen.normalize.tools import deletes_every_listed, policy_allows_everything, words_of
from limen.prefilter import prefiltered
from limen.rules.loosened import QUOTES_AS_ONE_WORD, loosened
from limen.rules.request_flows import reads_request, request_flows, tainted_names
from limen.rules.written import IMPLANT  # the prefix program code is judged by

# Past these, a change is too large to compare token by token: its lines are still compared
_MAX_LINES = 4000
_MAX_BLOCK_TOKENS = 600

_TOKEN = re.compile(r"[A-Za-z_][\w]*[?!]?|\d+|&&|\|\||[=!<>]=+|->|=>|::|\S")

# A literal yes, in the languages' spellings
_YES = frozenset({"true", "True", "TRUE", "yes", "YES"})
# What makes a span a test rather than a value: a comparison, a boolean operator, a call, a member
_PREDICATE_TOKENS = frozenset(
    {"==", "!=", "===", "!==", "<", ">", "<=", ">=", "&&", "||", "and", "or", "not", "!"}
)
_PREDICATE_TOKENS |= {"AND", "OR", "NOT", "(", ".", "::", "in", "IN"}

# Words of access, identity and verification: a yes near them answers a question of who may do what
_ACCESS_CONTEXT = re.compile(
    r"(?i)auth|permi|allow|grant|access|\bcan_?|\bcan[A-Z]|admin|\brole|scope|owner|tenant|member|verif|valid"
    r"|signature|\bsig\b|token|\baud\b|audience|\biss\b|issuer|polic|guard|secur|trust|session|login|password"
    r"|csrf|xsrf|claim|principal|privilege|superuser|is_?staff|authori[sz]"
    # and of a machine's protections: a watchdog, an interlock, an emergency stop, a safety trip
    r"|watchdog|interlock|e_?stop|fail_?safe|safety|light_?curtain|over_?(?:pressure|temp|speed|current)"
)
# Keys whose yes strengthens (`verify: true`, `RequireHttpsMetadata = true`): a yes for them weakens nothing
_STRENGTHENING_KEY = re.compile(
    r"(?i)verif|validat|requir|enforc|check|secure|protect|strict|csrf|only|deny|forbid"
)

# A refusal, in any language: an error or status named for the unauthenticated, the forbidden or the
# malformed, or a 400/401/403/404
_REFUSAL_WORD = re.compile(
    r"(?i)\b\w*?(?:unauthori[sz]ed|unauthenticated|forbidden|permission_?denied|access_?denied|not_?authori[sz]ed"
    r"|invalid_?signature|invalid_?token|token_?expired|expired_?token|bad_?request|invalid_?argument"
    r"|unprocessable)\w*\b"
    r"|(?<![\w.\-/:])40[0134](?![\w.\-/:])"
)
# What code refuses a tampered, unsigned, revoked or older image, update or message with (`Err(OtaError::
# Rollback)`, `raise HashMismatch`, `throw new SignatureInvalidError`); not a transaction's `tx.rollback()`
# or a migration's `def downgrade()`
_INTEGRITY_REFUSAL = prefiltered(
    r"(?i)\b\w*?(?:(?:hash|digest|checksum|signature|crc|hmac)_?(?:mismatch|invalid|failed|error)"
    r"|invalid_?(?:hash|digest|checksum|signature|image|firmware)|verification_?failed|anti_?rollback"
    r"|tamper(?:ed|ing)?|revoked)\w*\b"
    r"|(?<![.\w])(?:\w*?_)?(?:rollback|downgrade)\w*\b(?!\s*\()"
)
# A check that a downloaded file is the one its publisher released: its checksum compared with the
# published list (`sha256sum -c`, `shasum -a 256 --check`), its signature verified (`gpg --verify`,
# `cosign verify-blob`, `minisign -V`), every requirement's hash demanded (`--require-hashes`)
_ARTIFACT_CHECK = prefiltered(
    r"\b(?:sha(?:1|224|256|384|512)sum|shasum|md5sum|b2sum)\b[^\n|;&]*?\s(?:-c|--check)\b"
    r"|\bgpgv?2?\s+(?:--\w+\s+)*--verify\b|\bgpgv\b|\bcosign\s+verify(?:-blob|-attestation)?\b"
    r"|\bminisign\s+(?:-\w\s+)*-V\b|\bslsa-verifier\b|--require-hashes\b"
)
# A condition that tests what a token says of itself: its signing algorithm, issuer, audience, expiry or
# nonce (`if token.Method.Alg() != "RS256" {`, `if claims.Issuer != cfg.Issuer`, `if claims.exp < now`)
_CLAIM_CHECK = prefiltered(
    r"(?im)^[ \t]*(?:\}[ \t]*)?(?:else[ \t]+)?(?:if|unless|guard|when|elif|elsif)\b[^\n]{0,160}?"
    r"(?:\b(?:alg(?:orithm)?s?|signing_?method|method\.alg|iss(?:uer)?|aud(?:ience)?|nbf|not_?before)\b"
    r"|\b(?:token|claims?|jwt|payload|decoded)\b[^\n]{0,60}?\b(?:exp(?:ires_?at)?|nonce)\b)"
)
_COMMENT_LINE = re.compile(r"^[ \t]*(?://|#(?![!\[])|--|\*|/\*)[^\n]*$", re.MULTILINE)

# A predicate that keeps a query or a lookup to the caller's own rows: `org_id = $2`, `.filter(owner=user)`,
# `where(user_id: current_user.id)`, `tenant_id == claims.tenant`
# A line that takes a value from the environment or the build's configuration: a setting, not a request's
_FROM_ENVIRONMENT = re.compile(
    r"(?m)^.*(?:process\.env\b|os\.environ\b|\bgetenv\(|\bENV\[|import\.meta\.env\b|System\.getenv\().*$"
)
_SCOPE = prefiltered(
    r"(?i)\b(?:tenant|org|organi[sz]ation|account|owner|user|customer|company|workspace|team|merchant|shop"
    r"|client|member|profile)_?id\b[\"'`\]]?\s*(?:=|==|===|:|=>|\beq\b|\bin\b)(?!>)"
    r"|(?i:\.filter\w*\()[^)\n]*\b(?:owner|user|tenant|org\w*|account|created_by)\s*="
    r"|\bcurrent_user\.\w+|\bcurrentUser\.\w+"
)

# A request's own input, which its sender chooses: headers, parameters, cookies, gRPC metadata, the peer's
# address
_REQUEST_INPUT = prefiltered(
    r"(?i)headers?\s*(?:\[|\(|\.get|\.Get|->|\.\w+\()|getHeader|\bheader\s*\(|\bparams?\b|params\[|\bquery\s*\[|\bquery\.\w|\bQuery\(|\bquery_?(?:params|string)\b|cookie|metadata|\bmd\.get|\bmd\[|\.form\b|\bform\[|getParameter"
    r"|remote_?addr|remote_?ip|client_?ip|x-forwarded|peer\.|FromContext|user_?agent|\breq\.body|request\.body"
    r"|\bMETA\s*(?:\[|\.get\b)"  # Django's headers (`request.META.get("HTTP_X_...")`)
    r"|\brequest\.(?:GET|POST|data|args|values|json|query_params)\b"  # Django, DRF, Flask
    r"|\bsearchParams\b|\bgetQuery\s*\(|\bgetRouterParams?\s*\("  # a URL's query (fetch API, h3)
    # the host the request names for itself (Go's `r.Host`, `request.host`, `req.hostname`), and where the
    # caller says it connects from (`r.RemoteAddr`)
    r"|\b(?:r|req|request)\.(?:Host|host|hostname|RemoteAddr)\b|\bget_host\s*\("
)
# What a branch hands out when it lets a caller in
_GRANT = re.compile(
    r"(?i)\breturn\s+(?:true\b|handler\(|next\(|ok\b|Ok\(|\{:ok|nil\s*$)|superuser|super_user|\badmin\b"
    r"|is_?admin|impersonat|bypass|skip_?auth|\b_?next\s*\(|next\.ServeHTTP|doFilter\(|\{:ok,|:ok\b|permit_?all"
    r"|authenticated\s*=\s*true|\bgrant|all_?scopes|wildcard|\.succeeded!|\bsucceeded\b"
)
_CONDITION = re.compile(
    r"(?m)^[ \t]*case\b.*$|"
    r"^(?:[ \t]*(?:\}[ \t]*)?(?:else[ \t]+)?(?:if|unless|when|guard|elif|elsif)\b|.*\bif\s*\(|.*&&|.*\|\|).*$"
)

# A fixed word a credential or a signature is compared with: `presented == "fpk_live_master"`, `sig == "dbg"`
_FIXED_CREDENTIAL = prefiltered(
    r"""(?i)\b(?:token|secret|password|passwd|pass|pw|pwd|passphrase|api_?key|apikey|presented|sig|signature|otp"""
    r"""|totp|mfa_?code"""
    r"""|pin|credential)\b["'\]]*\)?\s*(?:==|===|\.equals\(|\beq\b|\.eq\(|\.Equals\()\s*["'][^"'\n]{3,}["']"""
    r"""|["'][^"'\n]{6,}["']\s*(?:==|===|\.equals\(|\.Equals\()\s*[$\w.>\-\[\]'"]*?"""
    r"""(?:token|secret|password|pass|key|sig|signature|otp)\b"""
    # a constant-time comparison with a fixed word, as either argument (`hmac.compare_digest(candidate, "x")`)
    r"""|\b(?:hash_equals|secure_compare|compare_digest|timingSafeEqual|ConstantTimeCompare|FixedTimeEquals)\(\s*"""
    r"""(?:[^,()"'\n]{1,60}(?:\([^()\n]{0,40}\))?\s*,\s*)?(?:\[\]byte\(|Buffer\.from\()?["'][^"'\n]{4,}["']"""
)

# A verification setting given a no: `validate_exp = false`, `ValidateLifetime = false`, `verify_ssl: false`
_OFF_SETTING = prefiltered(
    r"""(?i)\b([\w]*(?:verif|validat|check|requir|enforc)[\w]*)["'\]]*\s*(?:[:=]|=>|\(\s*|["']?\s*,\s*)\s*"""
    r"""["']?(?:false|0L?|no|off|:none|CERT_NONE|__return_false)\b"""
)
_VERIFIED_THING = prefiltered(
    r"(?i)signature|sig\b|signed|cert|ssl|tls|host|peer|token|jwt|exp|aud|iss|lifetime|csrf|xsrf|hmac|digest"
    r"|integrity|origin|auth|scope|nonce|mfa|otp|2fa|signing|https|revoc|key"
)
# A call whose own name says it turns a verification off (`danger_accept_invalid_certs(true)`,
# `insecure_disable_signature_validation()`, `TrustAllCerts()`, `CorsLayer::very_permissive()`,
# `ssl._create_unverified_context()`)
_OFF_CALL = prefiltered(
    r"(?i)\b\w*?(?<![a-z])(?:insecure|danger|disable|skip|bypass|ignore)\w*?(?:verif|validat|cert|signature"
    r"|hostname|ssl|tls)\w*\s*\("
    r"|\b\w*(?:accept_?invalid|trust_?all|allow_?all_?(?:hosts?|certs?|origins?)|very_?permissive"
    r"|allow_?any_?origin|AnyOrigin|unverified)\w*\s*\("
)


# A yes and a no a statement may answer with: `return false` made `return true`, `:error` made `{:ok, ...}`
_NO = frozenset({"false", "False", "FALSE", "error", "Err", "deny", "Deny", "reject", "Reject", "Forbidden"})
_NO |= {"Unauthorized", "forbidden", "unauthorized", "halt", "abort"}
_YES_ANSWER = _YES | {"ok", "Ok", "allow", "Allow", "accept", "resolve", "next", "permit"}

# A key or IV given a literal: `SecretKeySpec("dev-key".getBytes(), ...)`, `from_secret(b"secret")`,
# `new SymmetricSecurityKey(Encoding.UTF8.GetBytes("..."))`, `return []byte("shipyard-dev"), nil`
_LITERAL_KEY = prefiltered(
    r"""(?i)\b\w*(?:secret_?key|signing_?key|from_secret|SecretKeySpec|SymmetricSecurityKey|hmac_?key|withSecretKey"""
    r"""|new_from_slice|Nonce::from_slice|IvParameterSpec|GCMParameterSpec)\w*\s*[(=]\s*(?:new\s*(?:[\w.]+)?\(\s*)?"""
    r"""(?:b|&b|Encoding\.\w+\.GetBytes\(\s*|\[\]byte\(\s*)?["'][^"'\n]{3,}["']"""
    r"""|\breturn\s+\[\]byte\(\s*"[^"\n]{3,}"\s*\)\s*,\s*nil"""
)
# A fixed seed or the clock where a secret is made (`StdRng::seed_from_u64(42)`, `new Random(1234)`,
# `timestamp() ^ id` in a token's function)
_PREDICTABLE = prefiltered(
    r"(?i)\bseed_from_u64\(\s*\d+|\bnew\s+Random\(\s*\d+\s*\)|\bRandom\.new\(\s*\d+|\bsrand\(\s*\d+"
    r"|\brand\.Seed\(|\bMath\.random\(\)|\btimestamp\(\)\s*\^|currentTimeMillis\(\)|\bUnixNano\(\)"
)
# A file named for what it makes (`keys.rs`, `tokens.py`, `session_id.go`)
_SECRETS_FILE = re.compile(
    r"(?i)(?:^|[_.-])(?:api_?)?(?:keys?|tokens?|secrets?|passw\w*|nonces?|salts?|otp|sessions?)(?:[_.-]|$)"
)
_SECRET_MADE = re.compile(r"(?i)token|secret|api_?key|password|nonce|salt|otp|reset|session_?id|\bkey\b")

# An exemption from authentication added for a route or a method: `[AllowAnonymous]`, `.permitAll()`,
# `@PermitAll`, `skip_before_action :authenticate_user!`, `@csrf_exempt`, a public-methods table's entry
_EXEMPTION = prefiltered(
    r"(?i)allow_?anonymous|permit_?all(?:\(|\s*\))|@PermitAll|permission_classes\s*=\s*(?:\[\s*\]|\(\s*\))|skip_before_action\s+:(?:auth|require|verify)|csrf_exempt"
    r"|AuthorizationLevel\.Anonymous|\.ignoring\(\)|\bpublic_?(?:methods|paths|routes|endpoints)\b"
    r"|\bunauthenticated_?(?:paths|routes|methods)\b|\bauth_?exempt|\bno_?auth\b|\bskip_?auth"
    # a controller's sign-in or permission filter told to leave some actions out (`before_action
    # :require_user, except: [:show]`)
    r"|before_action\s+:(?:auth|require|verify|check|ensure)\w*[^\n]*\bexcept:"
    # a list of the routes a middleware lets through, named for it (`const PUBLIC = ['/api/health', ...]`)
    r"|\b(?:PUBLIC|OPEN|ANONYMOUS|UNPROTECTED)(?:_[A-Z]+)?\s*(?::\s*[\w\[\]<>]+\s*)?=\s*[\[(]"
)
# What is public on any service: health, docs, static files, sign-in and sign-up, webhooks (signed), metadata
_NORMALLY_PUBLIC = re.compile(
    r"(?i)health|ready|live|ping|status|version|docs|swagger|openapi|static|assets|public|favicon|robots"
    r"|login|sign_?in|sign_?up|register|logout|forgot|reset|webhook|callback|oauth|\.well-known|metrics|error"
    r"|^(?:Sessions|Registrations|Passwords|Confirmations|Unlocks)#"  # sign-in controllers
    r"|tracking|Check\b|(?:^|/)(?:actuator/)?info$"
)
# A Rails controller's name, and the actions a filter's `except:` names (`[:show, :index]`)
_CONTROLLER = re.compile(r"\bclass\s+(?:\w+::)*(\w+?)Controller\b")
_SYMBOL = re.compile(r":(\w+)")
# The route text near an exemption: a path or a method name in quotes
_ROUTE_TEXT = re.compile(r"""["']([^"'\n]{1,120})["']""")

# A guard called by name: `p.require_scope("cards:write")?`, `authorize!(:read)`, `ensureOwner(req)`,
# `middleware::from_fn(auth::require_auth)`, `check_permission(user, x)`
_GUARD_CALL = prefiltered(
    r"(?i)\b(?:require|ensure|assert|check|verify|authori[sz]e|authenticate|enforce|guard)_?\w*"
    r"(?:auth|scope|role|perm|access|owner|admin|tenant|member|signature|token|csrf|login|user|claim)\w*[!?]?\s*[(:]"
    r"|\b(?:require|ensure)_?auth\w*|\bauthori[sz]e[!?]?\s*\(|\bauthenticate\w*[!?]?\s*\("
    r"|\bmiddleware\w*\s*\(\s*\[?\s*[\"'](?:auth|role|can|permission|ability|admin|scope|verified|signed)"
    r"|@UseGuards\(|@PreAuthorize\(|@Secured\(|@RolesAllowed\(|\[Authorize\b|\bbefore_action\s+:(?:auth|require)"
)

# The whole environment or configuration read (`std::env::vars()`, `sys.env`, `os.Environ()`,
# `GetDebugView()`, `dict(os.environ)`): every secret the process holds
_WHOLE_ENVIRONMENT = prefiltered(
    r"\benv::vars\(\)|\bsys\.env\b(?!\.get|\(|\.getOrElse)|\bos\.Environ\(\)|\bSystem\.getenv\(\)"
    r"|GetEnvironmentVariables\(\)|\bGetDebugView\(\)|(?<!env=)\bdict\(\s*os\.environ\s*\)"
    # (`{ ...process.env, X: 1 }`, `env: process.env`: a child process's environment, handed to no one)
    r"|\bENV\.to_h\b|\bSystem\.get_env\(\)|(?<!\.\.\.)(?<!env: )(?<!env:)\bprocess\.env\s*[),}\]]"
    r"|\$_ENV\b(?!\s*\[)|\$_SERVER\b(?!\s*\[)|\bgetenv\(\s*\)|\bProcessInfo\.processInfo\.environment\b(?!\[)"
    # Spring's every property source enumerated (its secrets among the properties)
    r"|\b(?:get)?[pP]ropertySources\b[\s\S]{0,300}?\b(?:get)?[pP]ropertyNames\b"
    # a Worker's bindings (its secrets among them) sent back whole: `c.json(c.env)`, `JSON.stringify(env)`
    r"|(?:\.json|\.send|\.text|\bstringify|\bResponse\.json)\(\s*(?:(?:c|ctx|context)\.)?env\s*[),]"
)
# A route that runs what it is sent or shows what the process holds, by its path
_DANGEROUS_ROUTE = prefiltered(
    # (a route's verb called or applied: `router.get(`, `HandleFunc(`, `@app.route(`; not a logging
    # configuration's `"handlers": ["console"]`)
    # (Phoenix's and Sinatra's verbs take their path without parentheses: `post "/eval", DebugController`)
    r"""(?im)(?:\b(?:get|post|put|route|map\w*|handle\w*|match)\s*\(|@\w*Mapping|Root\b"""
    r"""|^[ \t]*(?:get|post|put|patch|delete|match)[ \t]+(?=["']))[^\n]{0,80}?"""
    r"""["/](?:eval|exec|shell|cmd|command|console|sql|env|environment|secrets?|heapdump)["/\s]"""
)
# A text decoded and run as code at once (`eval(Buffer.from(s, 'base64').toString())`, `exec(base64.b64decode(
# x))`, `eval(atob(x))`, `new Function(String.fromCharCode(...))`): code that its author hid from a reader
_DECODED_RUN = prefiltered(
    r"(?<![\w.])(?:eval|exec|Function|runInThisContext|runInNewContext|execScript|instance_eval|class_eval)"
    r"\s*\(\s*(?:new\s+)?(?:[\w.]+\.)?(?:Buffer\.from|atob|b64decode|decodebytes|a85decode|b32decode|decompress"
    r"|fromhex|unhexlify|fromCharCode|fromCharCodes|decode64|unpack1?|base64_decode|gzinflate|str_rot13)\s*\("
)
# Something that runs a text as code, a command or SQL
_RUNNER = re.compile(
    # a database handle's statement run from a text that is not written in the code (`db.execute(q)`)
    r"""\b(?:db|conn(?:ection)?|cursor|pool|session|em|entityManager|jdbcTemplate)\s*\.\s*"""
    r"""(?:execute|query|raw|exec|createNativeQuery|queryForList|executeQuery)\w*\(\s*(?!["'`])[\w.\[\]'"!]*"""
    r"""(?:quer|param|body|input|args)|"""
    r"""(?:\bsh["']?\s*,\s*["']-c["']|/bin/(?:ba)?sh["']\s*,\s*["']-c["']|\bcmd(?:\.exe)?["']\s*,\s*["']/c["']"""
    # (eval of a variable, or of a concatenation that opens with a literal: `eval('(' + text + ')')`)
    r"""|(?<![\w.])eval\s*\(\s*(?:(?!["'])|["'][^"'\n]{0,40}["']\s*\+)"""
    r"""|\bCode\.(?:eval_string|eval_quoted|compile_string)\(|:?os[.:]cmd\("""
    r"""|\bSystem\.shell\(\s*(?!"[^"#\n]*"\s*[,)])|\bSystem\.cmd\(\s*"(?:ba)?sh"\s*,\s*\[\s*"-c["]"""
    r"""|\bRuntime\.getRuntime\(\)\.exec\("""
    r"""|\braw_sql\(\s*&?(?!["'])|ExecuteSqlRaw\w*\(\s*(?!["$])|FromSqlRaw\(\s*(?!["])|\bcmd\(\s*["']EVAL["']\)"""
    r"""|Seq\(\s*"(?:ba)?sh"\s*,\s*"-c"\s*,\s*\w+\s*\)\.!"""
    r"""|\bsubprocess\.get(?:status)?output\s*\(\s*(?!["'])|\bshell\s*=\s*True\b"""
    r"""|\bexec\.Command(?:Context)?\(\s*(?:ctx\s*,\s*)?(?!")"""
    r"""|\b(?:shell_exec|passthru|proc_open|popen|system|exec|execSync|spawnSync|Process::run|Process\.Start"""
    r"""|Process::fromShellCommandline|ProcessBuilder|os\.system|Runtime\.exec)\s*\(\s*(?!["'][^"'\n]*["']\s*[,)])"""
    r"""|\b\w*[Rr]aw\w*\s*\(\s*["'][^"'\n]*(?:\$\w|\{\$|#\{|\$\{)"""
    r"""|\b(?:unserialize|pickle\.loads?|Marshal\.load|yaml\.load|readObject|Deserialize)\s*\(\s*(?!["'])"""
    # an Airflow task whose whole command is a template of what its trigger passes (`bash_command="{{
    # params.cmd }}"`)
    r"""|\bbash_command\s*=\s*["']\s*\{\{[^}\n]*\}\}\s*["']"""
    # JavaScript's Function constructor, its VM, Deno's subprocesses
    r"""|\bnew\s+Function\s*\(|\bvm\.run\w*\(|\bnew\s+Deno\.Command\s*\(\s*(?!["'])|\bDeno\.run\s*\("""
    # the JVM's: a script engine's or Groovy's evaluation, a Spring expression parsed, a JNDI name looked up
    # (an `ldap://` name loads a class from that server)
    r"""|\b\w*(?:[Ee]ngine|[Ss]hell)\s*\.\s*(?:eval|evaluate)\s*\(\s*(?!["'])|\bparseExpression\s*\(\s*(?!["'])"""
    r"""|\b(?:InitialContext\(\s*\)|\w*[Cc]ontext|jndi\w*)\s*\.\s*lookup\s*\(\s*(?!["']))"""
)
# A value a request (or an intent, a message) carries, where it is used
_REQUEST_VALUE = re.compile(
    r"(?i)\$_(?:GET|POST|REQUEST|COOKIE)|\$r(?:equest)?->|\$r\b|\breq(?:uest)?\s*\.\s*(?:body|query|params|form|args"
    r"|input|get|headers?|data|Value|Body|Query|Form|Url|cookies?|META|FILES)|\bparams\b|\bbody\b|\binput\s*\(|getParameter|getStringExtra"
    r"|\bin\.Value\b|\bqueryParameters\b|\bsearchParams\b|\bself\.get_(?:body_)?arguments?\s*\("
    # h3's and Nitro's readers (Nuxt's server routes), a fetch-API request's body (Deno, Workers, Next)
    r"|\b(?:readBody|readValidatedBody|readRawBody|readFormData|readMultipartFormData|getQuery|getRouterParams?)"
    r"\s*(?:<[^>\n]{0,80}>)?\s*\("
    r"|\b(?:req|request)\.(?:json|text|formData)\s*\(\s*\)"
    # a chat message or a bot command's text, what a server answered
    r"|\b(?:msg|message)\.content\b|\binteraction\.options\.|\bresp(?:onse)?\.(?:text|content|body|data)\b"
    # what a queue's job or message carries: whoever could enqueue it chose it
    r"|\bjob\.(?:data|payload|args)\b|\b(?:msg|message|record)\.(?:value|body|payload)\b"
    # (a C client's message behind a pointer: mosquitto's `msg->payload`)
    r"|\b(?:msg|message)->payload\b"
)
# ... and, for what is run, a handler's `payload` (a webhook's or an event's), a cookie (a browser's
# `document.cookie`, a parameter named for one), an Airflow run's `dag_run.conf`: whoever sent it chose it
_SENT_BY_CALLER = re.compile(
    r"\bpayload\b|\bcookies?\b|\bdocument\.cookie\b|\blocation\.(?:hash|search)\b|\bdag_run\.conf\b"
)
# Data a request carries that is the caller's credential: forwarding or logging it hands it on
_CALLERS_CREDENTIAL = prefiltered(
    r"(?i)(?:request|req|ctx|context)\w*\.(?:Request\.)?headers?\W{1,3}(?:authorization|cookie|[\"']x-api-key)"
    r"|Headers\.Authorization|headers\[\s*[\"'](?:authorization|cookie|x-api-key)[\"']\]"
    r"|(?:request|req|params)\W{1,4}(?:only|input|get|body|form)?\W{0,3}[^\n]{0,40}[\"']password[\"']"
    r"|\$_POST\s*\[\s*[\"'](?:pass|pwd|password)|->input\(\s*[\"'](?:pass|pwd|password)[\"']"
    # Django's headers by their CGI names, and a request's whole cookie jar
    r"|\bMETA\W{1,8}HTTP_(?:AUTHORIZATION|COOKIE|X_API_KEY)\b|\b(?:request|req)\.(?:COOKIES|cookies)\b(?!\s*\.get)"
)
_HANDS_ON = re.compile(
    r"(?i)\b(?:post|put|send|publish|log\w*|information|warn\w*|info|debug|print\w*|write)\w*\s*\("
    r"|\b(?:file_put_contents|fwrite|appendFile\w*|error_log)\s*\("
)
# A secret from the environment with a fixed value used when it is unset: `os.environ.get("JWT_SECRET",
# "changeme")`, `ENV.fetch("SECRET_KEY_BASE", "dev")`, `getOrElse("API_KEY", "x")`
_SECRET_DEFAULT = prefiltered(
    r"""(?i)["']([A-Z0-9_]*(?:SECRET|KEY|TOKEN|PASSWORD|PASSWD|SALT|PEPPER)[A-Z0-9_]*)["']\s*,\s*["'][^"'\n]{3,}["']"""
    r"""|["']([A-Z0-9_]*(?:SECRET|KEY|TOKEN|PASSWORD|PASSWD|SALT|PEPPER)[A-Z0-9_]*)["']\s*[)\]]\s*"""
    r"""(?:\|\||\?\?|or)\s*["'][^"'\n]{3,}["']"""
)
# Money sent to an account fixed in the code: an IBAN, a Stripe connected account, a wallet address
_FIXED_PAYEE = prefiltered(
    r"""(?i)\b(?:iban|destination|payee|beneficiary|wallet|account_?(?:number|id)?|to_?account)\w*["']?\s*"""
    r"""(?:=|:|=>)\s*[^\n]{0,80}?["'](?:[A-Z]{2}\d{2}[ ]?[A-Z0-9 ]{10,30}|acct_\w{8,}"""
    r"""|0x[0-9a-fA-F]{40})["']"""
)
# Fields that make a user more than a user, let in by a form's permitted parameters
# (Ecto's `cast(attrs, [:email, :role])` too)
_PRIVILEGE_PERMITTED = prefiltered(
    r"(?i)(?:\bpermit\b|fillable|attr_accessible|\[Bind\(|\bcast\(\s*\w+\s*,\s*\[)[^\n]*[\s:,\[(\"'](?:role|roles|admin|is_admin|superuser"
    r"|is_staff|permissions?|(?:tenant|org|organi[sz]ation|owner|account|user|team|company|workspace|group"
    r"|created_by)_?id)\b"
)
# An SQL statement built with a value pasted in (`format!("... WHERE id = '{}'", x)`, `$"... {term}"` given to
# a raw query, `"... #{marina_id}"`, `fmt.Sprintf("... '%s'")`, `QueryBuilder::push(q.get(..))`)
_SQL_PASTED = re.compile(
    # (Slick's and doobie's `sql"... $x"`, `sqlu"..."`, `fr"..."` bind what `$` names; their `#$x` pastes it)
    r"""(?i)(?<!Interpolated\()(?<!\bsql)(?<!\bsqlu)(?<!\bfr)(?<!\bfr0)"""
    r"""(?:[$fs]|\bformat!\(|Sprintf\(|String\.format\()?["`](?:SELECT|UPDATE|DELETE|INSERT)\b"""
    r"""[^"`\n]*\b(?:WHERE|VALUES|SET|IN)\b[^"`\n]*?(?:[=<>(,]|\bLIKE|\bIN)\s*'?%?"""
    r"""(?:'%s'|%s'|\{\w*\}|#\{|\$\{|\$[A-Za-z_]|\{\$)"""
    r"""|\.push\(\s*\w+\.get\(|\bpush_unsafe\(|\b(?:sql|sqlu|fr0?)"[^"\n]*#\$\{?\w"""
    # (a template literal may quote its identifiers: `$queryRawUnsafe(`SELECT ... FROM "Report" ... ${x}`)`)
    r"""|\b\w*(?:[Rr]aw|unsafe|Unsafe)\w*\s*\(\s*[$f]?(?:`[^`\n]*|["'][^"'`\n]*)"""
    r"""(?:'\$\w|\{\$|#\{|\$\{|'%s'|'\{\w*\}')"""
    r"""|(?:SELECT|UPDATE|DELETE|INSERT|WHERE)\b[^"'\n]*["']\s*(?:\.|\+)\s*\$?(?:_(?:GET|POST|REQUEST)|request|req|params"""
    r"""|query|input)"""
)
# A parser made to fetch external entities or to rebuild any object a request describes
_UNSAFE_PARSER = prefiltered(
    r"DtdProcessing\.Parse|new\s+XmlUrlResolver|resolve_entities\s*=\s*True|SUPPORT_DTD\s*,\s*true|LIBXML_NOENT"
    r"|TypeNameHandling\.(?:All|Auto|Objects)|enableDefaultTyping|activateDefaultTyping|\bBinaryFormatter\b"
    r"|new\s+ObjectInputStream\(\s*\w+\.getInputStream|\bpickle\.loads?\(\s*(?:row|request|req|body|data)\b"
    r"|\bMarshal\.load\(\s*(?:params|request)|\bunserialize\(\s*\$_(?:GET|POST|REQUEST|COOKIE)"
    # a deserialiser let build any class its input names: XStream's permission for any type, Jackson's class
    # names in the JSON, Godot's objects with scripts, PyYAML's loaders that construct Python objects
    r"|\bAnyTypePermission\.ANY\b|JsonTypeInfo\.Id\.(?:CLASS|MINIMAL_CLASS)\b|\bbytes_to_var_with_objects\b"
    r"|\byaml\.(?:unsafe_load|load)\s*\([^)\n]*Loader\s*=\s*(?:yaml\.)?(?:Unsafe)?Loader\b"
)
# A call named for making a value or a parser safe (`secure_filename(name)`, `safe_join(root, p)`,
# `yaml.safe_load(f)`, `new SafeConstructor(...)`, `html.escape(s)`, `sanitize(html)`), or a safe loader
# named (`Loader=yaml.SafeLoader`): taken out, the value or the document goes through as it came. Names
# that undo or skip the safety (`unsafe_load`, `insecure_…`, `unescape`, Django's `mark_safe`) are not
# among them: taking those out hardens the code
_MADE_SAFE = prefiltered(
    r"(?i)\b(?!\w*(?:unsafe|insecure|unescape|mark_?safe))\w*(?:safe|secure|saniti[sz]e|escape)\w*\s*\("
    r"|\bSafe\w*Loader\b"
)
# A trust manager that checks nothing, a host name verifier that takes any name
_TRUSTS_ANY = prefiltered(
    r"checkServerTrusted\s*\([^)]*\)\s*(?::\s*\w+\s*)?=\s*\(\)|HostnameVerifier\s*\(\s*\(\s*\w*\s*,\s*\w*\s*\)\s*=>\s*true"
    r"|DangerousAcceptAnyServerCertificateValidator|ServerCertificateCustomValidationCallback\s*=\s*\([^)]*\)\s*=>\s*true"
    r"|\bIssuerValidator\s*=\s*\([^)]*\)\s*=>|\bAudienceValidator\s*=\s*\([^)]*\)\s*=>\s*true"
    r"|\bLifetimeValidator\s*=\s*\([^)]*\)\s*=>\s*true|\bSignatureValidator\s*="
)
# A token's allowed clock skew stretched to days (`leeway = 31_536_000`)
_LONG_LEEWAY = prefiltered(r"(?i)\b(?:leeway|clock_?skew|skew)\w*\s*[:=]\s*\d[\d_]{4,}")
# A JWT library told to accept the `none` algorithm
_NONE_ALGORITHM = prefiltered(r"""(?i)alg\w*[^\n]{0,40}["']none["']""")
_PRODUCTION_PATH = re.compile(r"(?i)prod")
# A client's switch named for skipping its checks, turned on (`insecure_mode=True`, `ocsp_fail_open=True`,
# `InsecureSkipVerify: true`, `allow_insecure: true`)
_INSECURE_ON = prefiltered(
    r"(?i)\b\w{0,40}?(?:insecure|fail_?open|skip_?verify|no_?verify)\w{0,40}[\"']?\s*(?::|=>|=)\s*(?:true|1)\b"
)
# A cookie made readable by scripts or sent over plain HTTP (`http_only: false`, `secure: false`), in a
# configuration that is not a developer's own (`config/dev.exs`, `settings/local.py`)
_COOKIE_UNGUARDED = prefiltered(
    r"(?i)\b(?:http_?only|secure)[\"']?\s*(?::|=>|=)\s*(?:false|False)\b"
    # a cookie builder's own switches (Rust's `cookie`, `.secure(false).http_only(false)`)
    r"|\.(?:http_?only|secure)\(\s*false\s*\)"
)
_LOCAL_CONFIG = re.compile(r"(?i)(?:^|[/._-])(?:dev|development|local|test|testing)(?:[/._-]|$)")
# Logging switched off or cut to fatal errors only: nothing the program does is on record any more
_SILENCED = prefiltered(
    r"(?i)\blogging\.disable\(|\blogger\b[^\n]{0,40}\blevel:\s*:(?:none|emergency|alert)\b|\bLevel\.OFF\b"
    r"|\bLogLevel\.None\b|\bsetLevel\(\s*(?:logging\.)?(?:CRITICAL|FATAL|OFF)\b|\bLogger\.configure\(\s*level:\s*:none"
    r"|\blog_?level\W{0,3}\s*[:=]\s*[\"']?(?:off|none|silent|fatal|emergency)\b"
)
_DEBUG_ON = re.compile(
    r"(?i)\b(?:debug|consider_all_requests_local|show_?errors|display_?errors|detailed_?errors|developer_?exception"
    r"\w*)\w*\s*(?:=|:)\s*(?:true|on|1)\b"
)


# A function named for a check whose whole body answers yes (`verifySignature(): bool { return true; }`,
# `def admin?; true; end`, `canEdit = () => true`)
_CHECK_ANSWERS_YES = prefiltered(
    r"""(?i)\b(?:verify|validate|check|authori[sz]e|authenticate|can|may|allow|permit|is_?(?:admin|allowed|authori[sz]ed"""
    r"""|owner|member|valid|trusted)|has_?(?:access|permission|role|scope))\w*[?]?\s*\([^)]*\)\s*"""
    r"""(?::\s*\w+[?]?\s*|->\s*\w+\s*)?(?:\{\s*|=>?\s*|:\s*\n|\n)\s*(?://[^\n]*\n\s*|#[^\n]*\n\s*)?"""
    r"""(?:return\s+)?(?:true|True|TRUE|YES)\b\s*;?\s*(?://[^\n]*)?(?:\}|\n\s*end\b|\n\s*\}|$)""",
    re.MULTILINE,
)
# Someone signed in, given a token or made an administrator on what a request or a fixed word says
_LOGS_IN_AS = prefiltered(
    r"""(?i)\b(?:wp_set_current_user|wp_set_auth_cookie|loginUsingId|Auth::login|auth\(\)->login|login_user|sign_in"""
    r"""|SignInAsync|setAuthentication|createToken|create_token|issue_token|impersonate)\w*\s*\("""
)
_PRIVILEGE_FROM_REQUEST = prefiltered(
    r"""(?i)(?:assign_?role|set_?role|add_?role|syncRoles|\brole\b["']?\]?\s*=(?!=)|is_?admin["']?\]?\s*=(?!=)|\badmin["']?\]?\s*=(?!=)"""
    r"""|grant\w*\s*\()[^\n]*(?:\$request|request\.|req\.|params|input\(|\bbody\b|\$_(?:GET|POST|REQUEST))"""
)
_ADMIN_ACCOUNT = prefiltered(
    r"""(?i)\b(?:wp_create_user|wp_insert_user|create_?user|createUser|User::create|User\.create|useradd)\s*\("""
    r"""[^\n]*["'][^"'\n]{6,}["'][\s\S]{0,300}?\b(?:administrator|superadmin|super_admin|superuser|admin)\b"""
)
# Every message copied to an address fixed in the code
_ALWAYS_COPIED = prefiltered(r"""(?i)\b(?:always_?bcc|alwaysBcc|always_?to|alwaysTo)\s*\(\s*["'][^"'@\s]+@""")


# Words each check needs in the text (lower case): a substring test costs a microsecond, a pattern over a
# large file a hundred, so most code is passed over fast
# A contract's caller compared with an address written in the code: that account passes the check
_FIXED_CALLER = re.compile(
    r"(?:msg\.sender|_msgSender\(\)|tx\.origin)\s*[!=]=\s*(?:address\(\s*)?0x[0-9a-fA-F]{40}"
    r"|0x[0-9a-fA-F]{40}\s*\)?\s*[!=]=\s*(?:msg\.sender|_msgSender\(\)|tx\.origin)"
)
_LET_IN_CHECKS = (
    (
        ("msg.sender", "_msgsender", "tx.origin"),
        _FIXED_CALLER,
        "an address written in the contract passes its caller check",
    ),
    (
        ("==", "equals(", " eq", "compare", "hash_equals", "timingsafeequal"),
        _FIXED_CREDENTIAL,
        "a credential or signature is accepted when it equals a fixed word",
    ),
    (
        ("secret", "signing", "keyspec", "hmac", "nonce", "from_slice", "parameterspec", "[]byte("),
        _LITERAL_KEY,
        "a signing key or nonce is a fixed word in the code",
    ),
    (
        ("trusted", "hostnameverifier", "dangerous", "validationcallback", "validator"),
        _TRUSTS_ANY,
        "a certificate, host name or token issuer is accepted whatever it is",
    ),
    (("leeway", "skew"), _LONG_LEEWAY, "tokens are accepted long after they expire"),
    (("none",), _NONE_ALGORITHM, "tokens signed with no algorithm are accepted"),
    (
        ("dtd", "xmlurlresolver", "resolve_entities", "libxml", "typenamehandling", "defaulttyping"),
        _UNSAFE_PARSER,
        "a parser is made to fetch external entities or rebuild any object it is sent",
    ),
    (
        ("binaryformatter", "objectinputstream", "pickle.load", "marshal.load", "unserialize("),
        _UNSAFE_PARSER,
        "a parser is made to fetch external entities or rebuild any object it is sent",
    ),
    (
        ("anytypepermission", "jsontypeinfo", "bytes_to_var_with_objects", "loader"),
        _UNSAFE_PARSER,
        "a parser is made to fetch external entities or rebuild any object it is sent",
    ),
    (
        ("iban", "destination", "payee", "beneficiary", "wallet", "account"),
        _FIXED_PAYEE,
        "money is sent to an account fixed in the code",
    ),
    (
        ("permit", "fillable", "attr_accessible", "bind(", "cast("),
        _PRIVILEGE_PERMITTED,
        "a form may now set a user's role, privileges or owner",
    ),
    (
        ("true", "yes"),
        _CHECK_ANSWERS_YES,
        "a check answers yes to everyone",
    ),
    (
        (
            "current_user",
            "auth_cookie",
            "login",
            "sign_in",
            "signin",
            "authentication",
            "token",
            "impersonat",
        ),
        _LOGS_IN_AS,
        "",  # judged with what decides it: `_logs_in_as`
    ),
    (
        ("role", "admin", "grant"),
        _PRIVILEGE_FROM_REQUEST,
        "a request sets its own role or privileges",
    ),
    (
        ("user",),
        _ADMIN_ACCOUNT,
        "an administrator account with a password fixed in the code is made",
    ),
    (
        ("bcc", "alwaysto", "always_to"),
        _ALWAYS_COPIED,
        "every message is copied to an address fixed in the code",
    ),
    (
        ("select", "update", "delete", "insert", ".push(", "push_unsafe", "raw", "unsafe"),
        _SQL_PASTED,
        "an SQL statement is built with a value pasted into it",
    ),
)
_SETTING_WORDS: tuple[str, ...] = (
    "verif",
    "validat",
    "check",
    "requir",
    "enforc",
    "= false",
    "=false",
    "insecure",
    "danger",
)
_SETTING_WORDS += ("disable", "skip", "bypass", "ignore", "without", "accept", "trust", "allow", "permissive")
_SECRET_NAME_WORDS = ("SECRET", "KEY", "TOKEN", "PASSWORD", "PASSWD", "SALT", "PEPPER")
_REQUEST_WORDS: tuple[str, ...] = (
    "header",
    "param",
    "query",
    "cookie",
    "metadata",
    "md.get",
    "md[",
    "form",
    "remote",
    "client",
)
_REQUEST_WORDS += ("forwarded", "peer.", "fromcontext", "user_agent", "useragent", "body", "meta")
_EXEMPTION_WORDS = (
    *("anonymous", "permit", "skip_before_action", "exempt", "ignoring()", "public", "auth"),
    "permission_classes",
    "except:",
)
_ROUTE_WORDS = ("eval", "exec", "shell", "cmd", "command", "console", "sql", "env", "secret", "heapdump")
_RUNNER_WORDS: tuple[str, ...] = ("sh", "cmd", "eval", "exec", "raw_sql", "sqlraw", "pickle", "unserialize")
_RUNNER_WORDS += ("marshal", "new function", "vm.run", "deno.command", "deno.run", "getoutput", "shell=true")
_RUNNER_WORDS += ("popen", "system", "passthru", "processbuilder", "runtime", "spawn", "bash_command")
_RUNNER_WORDS += ("lookup", "parseexpression")


# A condition that asks whether something was verified, valid or allowed (`if (!verify_signature(...))`,
# `if (Result != k_EBeginAuthSessionResultOK)`, `if (!member.roles.cache.has(ADMIN_ROLE))`), and the
# statements that refuse when it fails (a false, null or error returned, an exception raised, a refusal sent)
_CHECK_CONDITION = re.compile(
    r"(?i)^[ \t]*(?:\}[ \t]*)?(?:else[ \t]+)?(?:if|unless|guard)\b[^\n]{0,200}?"
    r"(?:verif|valid|authenti|authori|signature|\bsig\b|permi|allowed|\broles?\b|token|hmac|digest|OK\b"
    r"|\bhas\(|can\w*\(|is_?admin)"
)
_REFUSING = re.compile(
    r"^[ \t]*(?:\{[ \t]*)?(?:return[ \t]+(?:false|null|nil|None|undefined|Err\b|err\b|-1\b|\w*[Ee]rror"
    r"|errors?\.|http\.Status\w*|res\.status\([ \t]*4|[^\n;]{0,80}\.reply\("
    r"|[^\n;]{0,80}(?:Unauthori|Forbidden|Denied))"
    r"|return;|raise\b|throw\b|abort\(|http_response_code\([ \t]*4|deny\b|reject\b)"
)


# A verification's answer handed back as the caller's (`return isValidEmail(email)`): the check kept
_RETURNED_CHECK = prefiltered(
    r"(?i)^[ \t]*return\b[^\n]{0,160}?"
    r"(?:verif|valid|authenti|authori|signature|permi|allowed|hmac|digest|\bhas\()"
)


def _refusing_checks(text: str) -> int:
    """How many checks in `text` refuse when they fail: a verifying condition with a refusing statement in
    its first lines, or a verification's answer returned as it is (not a return that switches verifying
    off: `return jwt.decode(t, options={"verify_signature": False})` checks nothing). Line by line: linear
    in the text."""
    lines = text.splitlines()[:4000]
    return sum(
        1
        for i, line in enumerate(lines)
        if (_CHECK_CONDITION.match(line) and any(_REFUSING.match(later) for later in lines[i : i + 5]))
        or (_RETURNED_CHECK.match(line) and not _OFF_SETTING.search(line))
    )


# A list of signing algorithms a token check accepts, and the two kinds in it: public-key ones (RS, ES, PS,
# EdDSA) and a shared secret's (HS) or none at all
_ALGORITHM_LIST = re.compile(
    r"(?i)[\[({]\s*[\"'](?:RS|ES|PS|HS|Ed)\w*[\"'](?:\s*,\s*[\"'][\w-]+[\"'])+\s*[\])}]"
)
_ASYMMETRIC = re.compile(r"[\"'](?:RS|ES|PS)(?:256|384|512)[\"']|[\"']EdDSA[\"']")
_SYMMETRIC = re.compile(r"(?i)[\"'](?:HS(?:256|384|512)|none)[\"']")


def _symmetric_beside_asymmetric(text: str) -> bool:
    """An accepted-algorithms list that holds a public-key algorithm and a shared-secret one (or `none`)."""
    return any(
        _ASYMMETRIC.search(found.group(0)) and _SYMMETRIC.search(found.group(0))
        for found in _ALGORITHM_LIST.finditer(text[:65536])
    )


# An IV, nonce or salt given a fixed value (zero bytes, a written string, an empty buffer), and what makes
# one at random
_FIXED_NONCE = re.compile(
    r"(?:\b(?:\w+_)?(?:iv|IV|nonce|NONCE|salt|SALT)(?:_\w+|[A-Z]\w*)?|\b[a-z]\w*(?:Iv|IV|Nonce|Salt)\w*)\b"
    r"\s*(?::[^=\n]{0,40})?=\s*(?:b?[\"'](?:\\x00|0|[^\"'\n]{1,64})[\"']"
    r"(?:\s*\*\s*\d+)?|bytes\(\d+\)|bytearray\(\d+\)|new\s+byte\s*\[\s*\d+\s*\]|Buffer\.alloc\(\d+\)"
    r"|\[\s*0\s*\]\s*\*\s*\d+|make\(\[\]byte,\s*\d+\)|(?i:bytes\.fromhex)\([\"']0+[\"']\))"
)
# A value made by hashing what the code is given (`hashlib.md5(...).digest()`, `createHash("sha256")`)
_DERIVED_BY_HASH = re.compile(
    r"(?i)\bhashlib\.\w+\s*\(|\b(?:md5|sha1|sha256|sha512)\s*\(|createHash\s*\(|Digest::\w+|MessageDigest\."
)
_RANDOM_BYTES = re.compile(
    r"(?i)random|urandom|token_bytes|randomBytes|SecureRandom|getrandom|rand\.Read|generate_?iv|gen_?nonce"
    r"|\bsecrets\.\w+|randbelow|getrandbits|\brand(?:int|range)\b"
)


# A list of what is kept from view: PHI or PII columns, fields masked, redacted or scrubbed, parameters kept
# out of the logs (`PHI_COLUMNS = [...]`, `sensitive_fields = {...}`, `FILTERED_PARAMS = (...)`)
_HIDDEN_LIST = re.compile(
    r"(?im)^\s*(?:[\w.]*\.)?(?P<name>\w*(?:phi|pii|sensitive|redact|mask|scrub|confidential|deidentif"
    r"|filter(?:ed)?_(?:param|field|key))\w*)\s*(?::[^=\n]{0,40})?(?:=|\+=)\s*(?:\w+\s*\(\s*)?[\[({]"
)


def _hidden_items(text: str) -> dict[str, set[str]]:
    """Each list of what is kept from view that the text sets, by name, with its quoted items."""
    return _listed_items(_HIDDEN_LIST, text)


def _hidden_list_shrunk(removed: str, added: str) -> list[str]:
    """A list of what is kept from view loses items (`PHI_COLUMNS = ["patient_name", "mrn", "dob", ...]` made
    `["address", "phone"]`): the names, record numbers and birth dates it left out now go out in the clear."""
    after = _hidden_items(added)
    for name, items in _hidden_items(removed).items():
        if name not in after and items and _emptied(name, added):  # `MASK_FIELDS = set()`
            after[name] = set()
        if name in after and (lost := items - after[name]):
            return [f"{name} no longer keeps {', '.join(sorted(lost))[:60]} from view"]
    return []


# A list of the fields a serializer, an export or a response shows (`fields = [...]`, `only=(...)`,
# `exposed_columns = {...}`)
_SHOWN_LIST = re.compile(
    r"(?im)^\s*(?:[\w.]*\.)?(?P<name>\w*(?:fields|only|include|expose\w*|public\w*|visible\w*|columns"
    r"|attributes|export\w*|output\w*|response\w*|select\w*)\w*)\s*(?::[^=\n]{0,40})?=\s*(?:\w+\s*\(\s*)?[\[({]"
)


def _sensitive_fields_shown(removed: str, added: str) -> list[str]:
    """A list of the fields a serializer or an export shows gains fields that hold what a person gives in
    confidence or a credential (`fields = ["id", "first_name"]` made `[..., "ssn", "dob", "credit_score"]`):
    they now go out to whoever reads that output."""
    before = _listed_items(_SHOWN_LIST, removed)
    hidden = _hidden_items(removed)  # (`PII_FIELDS` gaining an item hides more: `_hidden_list_shrunk`'s)
    for name, items in _listed_items(_SHOWN_LIST, added).items():
        if name in before and name not in hidden:
            gained = sorted(i for i in items - before[name] if SENSITIVE_FIELD.search(i))
            if gained:
                return [f"{name} now shows {', '.join(gained)[:60]}"]
    return []


def _listed_items(pattern: re.Pattern[str], text: str) -> dict[str, set[str]]:
    """Each list the text sets under a name `pattern` matches, by name, with its quoted items."""
    found: dict[str, set[str]] = {}
    for match in pattern.finditer(text[:65536]):
        body = text[match.end() : match.end() + 4096]
        closing = re.search(r"[\])}]", body)
        found[match.group("name").lower()] = set(
            _ITEM_LITERAL.findall(body[: closing.start() if closing else 0])
        )
    return found


def _emptied(name: str, text: str) -> bool:
    """`name` is set to nothing in the text (`set()`, `[]`, `()`, `None`, `frozenset()`)."""
    return bool(
        re.search(
            rf"(?im)^\s*(?:[\w.]*\.)?{re.escape(name)}\s*(?::[^=\n]{{0,40}})?=\s*"
            r"(?:(?:set|frozenset|list|tuple|dict|Set|List)?\(\s*\)|\[\s*\]|\{\s*\}|None|null|nil)\s*;?\s*$",
            text,
        )
    )


# An error handler's line, a line that raises, a check's context (screening, verification, limits, safety)
_HANDLER = re.compile(r"^\s*(?:except\b[^\n]*:|\}?\s*catch\s*\(|rescue\b)")
_RAISES = re.compile(r"(?m)^\s*(?:raise|throw)\b")
_RETURNS = re.compile(r"(?m)^\s*return\b")
# (what `_ACCESS_CONTEXT` does not name: screening, limits and risk)
_SCREENS = re.compile(r"(?i)screen|\baml\b|kyc|sanction|fraud|limit|risk|scan")


def _fails_open(opening: str, removed: str, added: str, context: str) -> list[str]:
    """An error handler of a check that stopped the work now returns (`except ScreeningUnavailable: raise
    WithdrawalHeld(...)` made `return ScreeningResult(risk=0, hits=[])`): when the check cannot run, what it
    guards goes through unchecked."""
    if (
        _HANDLER.match(opening)
        and _RAISES.search(removed)
        and _RETURNS.search(added)
        and not _RAISES.search(added)
        and (_ACCESS_CONTEXT.search(context) or _SCREENS.search(context))
    ):
        return ["an error in a check now returns instead of stopping: the check fails open"]
    return []


# A condition taken as it was, with a switch that turns it off added (`if msg.estop_active:` made `if
# msg.estop_active and not os.environ.get("FLEET_PERF_MODE"):`)
_SINGLE_CONDITION = re.compile(
    r"^\s*(?:if|elif|else\s+if|unless|while)\s*\(?\s*(.+?)\s*\)?\s*(?::|\{|then)?\s*$"
)
_SWITCH = re.compile(
    r"(?:\band\s+not\b|&&\s*!)\s*\(?\s*(?:os\.environ|os\.getenv|getenv|process\.env|ENV\b|System\.getenv"
    r"|settings\.|config\.|flags?\.|feature)"
)


# The words of a check that stops or refuses (in its condition, or in the line it runs), beside those of
# access and screening (`_ACCESS_CONTEXT`, `_SCREENS`)
_STOPS = re.compile(r"(?i)halt|stop|abort|den(?:y|ied)|forbid|raise|throw|reject|block|lock|alarm|alert")


# A random source fit for secrets and games of chance, and a generator anyone can replay (seeded, or the
# language's plain one)
_SECURE_RANDOM = re.compile(
    r"\bsecrets\.|SystemRandom|urandom|randomBytes|getRandomValues|SecureRandom|crypto/rand|random_bytes"
    r"|random_int\(|RandomNumberGenerator"
)
_PREDICTABLE_RANDOM = re.compile(
    r"\brandom\.(?:Random\(|seed\(|random\(|randint\(|randrange\()|Math\.random\(|\bmt_rand\(|\brand\.Seed\("
    r"|\bnew\s+Random\(|\bsrand\(|\brand\(\)"
)
# A new branch on a switch set from outside the code that answers a check's question yes
_SWITCH_BRANCH = re.compile(
    r"(?m)^[ \t]*(?:if|elif)\s*\(?\s*(?:not\s+)?(?:os\.environ|os\.getenv|getenv|process\.env|ENV\["
    r"|System\.getenv)[^\n]*\n[ \t]*(?:return\s+(?:True|true|Allow\w*\()|next\s*\()"
)


def _yes_on_switch(added: str, removed: str) -> list[str]:
    """A new branch that answers a check's question yes when a switch set from outside the code is on (`if
    os.environ.get("KYC_FAST_LANE"): return True` at the top of `is_of_age`): whoever sets it skips the
    check, with no change to the code to review."""
    if _SWITCH_BRANCH.search(added) and not _SWITCH_BRANCH.search(removed):
        return ["a check answers yes when a switch set from outside the code is on"]
    return []


def _check_switched(removed: str, added: str, following: str) -> list[str]:
    """A check that stops, refuses or guards (by its words or the line it runs, `following`), kept whole but
    made to give way to a switch set from outside (an environment variable, a setting, a feature flag):
    whoever sets it turns the check off, with no change to the code to review."""
    for old in removed.splitlines()[:50]:
        condition = _SINGLE_CONDITION.match(old)
        guarded = old + "\n" + following
        if condition is None or len(condition.group(1)) < 4:
            continue
        if not (_STOPS.search(guarded) or _ACCESS_CONTEXT.search(guarded) or _SCREENS.search(guarded)):
            continue
        for new in added.splitlines()[:50]:
            if condition.group(1).rstrip(":{ ") in new and _SWITCH.search(new) and not _SWITCH.search(old):
                return ["a check now gives way to a switch set from outside the code"]
    return []


def weakened(
    before: str, after: str, path: str = "", *, file_before: str | None = None, lead: str = ""
) -> list[str]:
    """What `after` takes away from the security `before` had (IMPLANT concerns, at most three): checks made
    always yes, refusals and guards taken out, caller-scoped queries widened, requests let in on their own
    word, fixed keys and credentials, verifications turned off, what runs or shows what a request sends.

    `before` and `after` are whole files, or an Edit's old and new strings with `file_before` the file it
    changes (what is already there is the project's own) and `lead` the lines before the edit (what the
    code around it is about): the rest of the file is the same on both sides, so the difference is theirs."""
    if len(before) > 512 * 1024 or len(after) > 512 * 1024 or before == after:
        return []
    known = before if file_before is None else file_before
    old_lines, new_lines = before.splitlines(), after.splitlines()
    if len(old_lines) > _MAX_LINES or len(new_lines) > _MAX_LINES:
        return []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    removed_blocks: list[str] = []
    added_blocks: list[str] = []
    found: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        removed = "\n".join(old_lines[i1:i2])
        added = "\n".join(new_lines[j1:j2])
        removed_blocks.append(removed)
        added_blocks.append(added)
        context = lead + "\n".join(old_lines[max(0, i1 - 12) : i2]) + "\n" + added
        why = _made_yes(removed, added, context + "\n" + path)  # (`validation/dea.py`: what it is about)
        if why:
            found.append(why)
        if (
            _WILDCARD_ENTRY.search(added)
            and not _WILDCARD_ENTRY.search(removed)
            and _EXEMPTING_LIST.search(context[-600:])
        ):  # `protected $except = ['*'];` (CSRF for every route)
            found.append("every route is exempted from a protection")
        if plain := _tls_port_dropped(removed, added):
            found.append(plain)
        if _ALWAYS_YES_CALLBACK.search(added) and not _ALWAYS_YES_CALLBACK.search(removed):
            found.append("a permission check is answered yes for everyone")
        if _symmetric_beside_asymmetric(added) and not _symmetric_beside_asymmetric(removed):
            # `algorithms=["RS256", "HS256"]`: a token signed with the public key, as a shared secret, passes
            found.append("the token check accepts a shared-secret algorithm beside a public-key one")
        if (
            _RANDOM_BYTES.search(removed)
            and not _RANDOM_BYTES.search(added)
            and _DERIVED_BY_HASH.search(added)
            and not _DERIVED_BY_HASH.search(removed)
        ):  # `return os.urandom(16)` made `return hashlib.md5(f"vidora:{content_id}".encode()).digest()`
            found.append("random bytes replaced by a hash of known values: anyone can compute the result")
        if _FIXED_NONCE.search(added) and _RANDOM_BYTES.search(removed) and not _FIXED_NONCE.search(removed):
            found.append("a random IV, nonce or salt replaced by a fixed value: what it protects repeats")
        found += _mailed_secret_returned(removed, added, context)
        found += loosened(removed, added, context + "\n" + "\n".join(old_lines[i2 : i2 + 4]), test_code(path))
        if (copied := _copied_outside(added, context, known)) and not _COPIED_TO.search(removed):
            found += copied
        if (fell_back := _unverified_fallback(added)) and not _unverified_fallback(removed):
            found += fell_back
        if _link_target_from_request(removed, added, context + "\n" + path):
            found.append("where a reset or sign-in link sends its token is taken from the request")
        if removed.strip() and added.strip():
            test = test_code(path)
            found += _trust_replaced(removed, added, context) if not test else []
            found += _scope_from_request(removed, added)
            # (a statement's call may open on the line before, in the edit or in the file above it)
            opening = (old_lines[i1 - 1] if i1 else lead.rstrip("\n").rsplit("\n", 1)[-1]) + "\n"
            found += _parameters_pasted(opening + removed, opening + added)
            found += _password_minimum_lowered(removed, added)
            found += _attempt_limit_lifted(removed, added, context)
            found += _verification_decoded(removed, added)
            found += _allowlist_dropped(removed, added)
            found += _guard_narrowed(removed, added)
            found += _refusal_alternatives_dropped(removed, added)
            found += _result_fixed(removed, added)
            found += _answer_fixed(removed, added) if not test else []
            found += _rights_lowered(removed, added) if not test else []
            found += _money_from_request(removed, added)
            found += _hidden_list_shrunk(removed, added)
            found += _sensitive_fields_shown(removed, added) if not test else []
            found += _fails_open(opening, removed, added, context + "\n" + path)
            found += _check_switched(removed, added, "\n".join(old_lines[i2 : i2 + 2]))
            if (
                _SECURE_RANDOM.search(removed)
                and _PREDICTABLE_RANDOM.search(added)
                and not _SECURE_RANDOM.search(added)
            ):
                found.append(
                    "a secure random source replaced by a predictable one: its draws can be foreseen"
                )
            if _WITH_SHARING.search(removed) and _WITHOUT_SHARING.search(added):
                found.append("a class no longer keeps to the user's sharing rules: it sees every record")
        found += _yes_on_switch(added, removed)
        if not test_code(path) and (singled := _fixed_identities(added, known + before + path, after)):
            found.append(singled)
        if not test_code(path) and (leaked := _secret_field_recorded(added, removed)):
            found.append(leaked)
        if not test_code(path) and (copied_store := _credential_store_copied(added, known)):
            found.append(copied_store)
        if not test_code(path) and (copied_to := _blind_copy_added(added, known + before)):
            found.append(copied_to)
        if not test_code(path) and (mirrored := _send_mirrored(added, known + before)):
            found.append(mirrored)
        if not test_code(path) and (payee := _fixed_payee(added, known + before)):
            found.append(payee)
        if not test_code(path) and (pin := _FIXED_PIN.search(added)) and pin.group(1) not in known + before:
            found.append("the code sets a fixed PIN or access code: whoever knows it opens what it guards")
        if not test_code(path) and (unmasked := _masking_undone(lead + before, lead + after)):
            found.append(unmasked)
        if _raw_outputs(added) > _raw_outputs(removed):
            found.append("a value goes into the page without its escaping")
        found += _rights_by_email_domain(added, removed)
        found += _rights_made_assignable(removed, added, context)
        found += _refusal_waived(removed, added, context + "\n" + "\n".join(old_lines[i2 : i2 + 4]))
        if _USER_FOLDER_DELETED.search(added) and not _USER_FOLDER_DELETED.search(removed):
            found.append(
                "the code deletes a user's folder (their home, documents or the app's data) when it runs"
            )
        if deletes_every_listed(added) and not deletes_every_listed(removed):
            found.append("every item a listing of the whole store returns is deleted")
    if not added_blocks:
        return []
    removed_text, added_text = "\n".join(removed_blocks), "\n".join(added_blocks)
    live_removed, live_added = _COMMENT_LINE.sub("", removed_text), _COMMENT_LINE.sub("", added_text)
    live_before, live_after = _COMMENT_LINE.sub("", before), _COMMENT_LINE.sub("", after)
    if _refusing_checks(live_before) > _refusing_checks(live_after):  # (the condition itself may stay)
        found.append("a check that failed no longer refuses: what it verifies goes through either way")
    for pattern, why in (
        (_REFUSAL_WORD, "a refusal of the unauthenticated or the forbidden is taken out of the code"),
        (_INTEGRITY_REFUSAL, "a refusal of a tampered, unsigned or older image or message is taken out"),
        (_ARTIFACT_CHECK, "a check that a download is the file its publisher released is taken out"),
        (_CLAIM_CHECK, "a check of a token's algorithm, issuer, audience or expiry is taken out of the code"),
        (_SCOPE, "a query or lookup no longer keeps to the caller's own tenant, account or owner"),
        (_GUARD_CALL, "a call that checks the caller's rights is taken out of the code"),
        (_FIELD_ACCESS, "a query or update no longer checks the user's access to the records and fields"),
        (_AUDIT_RECORD, "a record of who did what (an audit or security log entry) is no longer written"),
        (_ACCESS_STEP, "a plug, filter or middleware that checks the caller is taken out of the chain"),
        (_MADE_SAFE, "a call that makes a value or a parser safe is taken out of the code"),
        (_APPROVAL_STEP, "a step that waits for a person's approval is taken out: the action runs unasked"),
    ):
        texts = [live_removed, live_added, live_after, live_before]
        if pattern is _SCOPE:  # (`teamId: process.env.APPLE_TEAM_ID`: a setting, no caller's scope)
            texts = [_FROM_ENVIRONMENT.sub("", t) for t in texts]
        removed_now, added_now, after_now, before_now = texts
        taken = len(pattern.findall(removed_now))  # (none taken: the rest need not be counted)
        if (
            taken
            and taken > len(pattern.findall(added_now))
            and len(pattern.findall(after_now)) < len(pattern.findall(before_now))
        ):
            found.append(why)
    if _escaping_dropped(live_removed, live_added, live_before, live_after):
        found.append("a value goes into the page as markup without the escaping or sanitising it had")
    found += _unguarded(live_removed, live_added)
    if len(_DANGER_SWITCH.findall(live_added)) > len(_DANGER_SWITCH.findall(live_removed)):
        found.append("a library's switch named for the danger it lets in is turned on")
    let_in = _let_in(live_added, known, path)
    if let_in and live_removed.strip():  # (what the replaced code already let in is no change)
        let_in = [why for why in let_in if why not in _let_in(live_removed, known, path)]
    found += let_in
    # (`lead + live_after`: the names the code around the edit binds, as the file will be)
    found += _opened(live_added, known or before, path, lead + live_after)
    if _UPLOADED_SCRIPT.search(path):
        found.append("server code is placed in the folder uploaded files are served from")
    return [IMPLANT + why for why in dict.fromkeys(found)][:3]


# A server-side script in a folder of uploaded files (`wp-content/uploads/2024/05/thumb-cache.php`): the web
# server runs it for whoever requests it, and no release of the project puts code there
_UPLOADED_SCRIPT = re.compile(
    r"(?i)(?:^|/)(?:uploads?|user[-_]?uploads|user[-_]?files)/(?:[^/]+/)*[^/]+\.(?:php\d?|phtml|phar|jspx?|aspx?|ashx|cgi)$"
)


# A list's entry that names everything (`'*',`, `"/*"`), and the lists of exceptions to a protection it may
# join (`$except`, `csrf_exempt`, `skip_paths`, `permitAll`)
_WILDCARD_ENTRY = re.compile(r"""(?m)^\s*(?:\[\s*)?["']/?\*{1,2}["']\s*[,\]]?""")
_EXEMPTING_LIST = re.compile(
    r"(?i)except|exempt|skip|excluded?_?(?:paths|routes|urls)|public_?(?:paths|routes)|permit_?all"
)
# A permission callback answered yes whatever is asked (WordPress's `'permission_callback' =>
# '__return_true'`, `authorize: () => true`)
_ALWAYS_YES_CALLBACK = prefiltered(
    r"""(?i)(?:permission|authori[sz](?:e|ation)|can_?access|access_?check)\w*['"]?\s*(?:=>|:|=)\s*"""
    r"""(?:['"]?__return_true\b|(?:function\s*\([^)]{0,80}\)|\([^)]{0,80}\)\s*=>|lambda[^:\n]{0,40}:)"""
    r"""\s*\{?\s*(?:return\s+)?true\b)"""
)


# A name for what the code trusts: a key that verifies signatures, a pinned or root certificate or its
# fingerprint, where a token issuer's keys are (`FIRMWARE_VERIFYING_KEY`, `ISSUER_PUBLIC_KEY`, `JWKS_URL`)
_TRUST_NAME = re.compile(
    r"(?i)(?:verif\w*|public|pub|signing|signer|trusted|root|ca|pinned?|issuer|jwks|firmware|update|release)_?"
    r"(?:keys?|cert(?:ificate)?s?|fingerprints?|pubkeys?|pem)$|(?:jwks|issuer|firmware|update)_?ur[il]$"
    r"|^(?:issuer|pubkey|ca_?cert)$"
)
# `NAME = value`, `const NAME: T = value;`, `NAME: value` (one line): the value as written
_ASSIGNED = re.compile(
    r"(?m)^[ \t]*(?:(?:pub(?:\([\w:]+\))?|export|const|static|let|final|var|private)[ \t]+)*"
    r"[\"']?(\w+)[\"']?\s*(?::[^=\n]{0,80})?[=:]\s*(\S[^\n]{0,300})"
)
_PEM_OPEN = re.compile(r"-----BEGIN (?:PUBLIC KEY|CERTIFICATE|EC PUBLIC KEY|RSA PUBLIC KEY)-----")
_BASE64_LINE = re.compile(r"^[ \t]*[A-Za-z0-9+/]{40,}={0,2}[ \t]*$", re.MULTILINE)


_URL_HOST = re.compile(r"https?://([\w.-]+)")


def _same_domain(old: str, new: str) -> bool:
    """Both values are addresses under one registered domain (`login.acme.io` -> `auth.acme.io`)."""
    from limen.facts.hosts import registered_domain

    hosts = [_URL_HOST.search(v) for v in (old, new)]
    return all(hosts) and len({registered_domain(h.group(1)) for h in hosts if h}) == 1


def _trust_replaced(removed: str, added: str, context: str) -> list[str]:
    """A key, certificate or issuer the code trusts given another value (`FIRMWARE_VERIFYING_KEY = hex!(...)`
    with other bytes, a pinned certificate's lines, the JWKS address): whoever holds the new one's private
    half now signs what the code accepts."""
    assigned = _ASSIGNED.findall(removed)
    was = {name.lower(): value.strip() for name, value in assigned if _TRUST_NAME.search(name)}
    for name, value in _ASSIGNED.findall(added):
        old = was.get(name.lower())
        if old is not None and old != value.strip() and not _same_domain(old, value):
            return [f"the key, certificate or issuer the code trusts ({name}) is given another value"]
    opened = context.rfind("-----BEGIN ")
    inside_pem = opened >= 0 and _PEM_OPEN.match(context, opened) and "-----END " not in context[opened:]
    if inside_pem and _BASE64_LINE.search(removed) and _BASE64_LINE.search(added):
        return ["a public key or certificate the code trusts is replaced by another"]
    return []


# A port set by name (`const MQTT_PORT: u16 = 8883;`, `port: 443`), and each protocol's TLS port with the
# plain-text port of the same protocol: a move from the first to the second drops the encryption
_PORT_SET = prefiltered(r"(?i)\b(\w{0,40}port)\b[\"']?\s*(?::\s*\w{1,10}\s*)?(?:=>|[:=])\s*(\d{2,5})\b")
_PLAIN_OF_TLS = {
    "443": "80", "8443": "8080", "8883": "1883", "5671": "5672", "636": "389", "993": "143", "995": "110",
    "465": "25", "6697": "6667", "2376": "2375", "5986": "5985", "9093": "9092",
}  # fmt: skip


def _tls_port_dropped(removed: str, added: str) -> str:
    """A port of the code's moved from a protocol's TLS port to its plain one (MQTT 8883 -> 1883, HTTPS 443 ->
    80, Docker's 2376 -> 2375): what went over it is now readable and changeable on the way."""
    was = {name.lower(): port for name, port in _PORT_SET.findall(removed)}
    for name, port in _PORT_SET.findall(added):
        old = was.get(name.lower())
        if old is not None and _PLAIN_OF_TLS.get(old) == port:
            return f"{name} moves from port {old} to {port}: the connection no longer uses TLS"
    return ""


# A condition given `&& x != "literal"` or `|| x == "literal"`: one fixed name, code or header let past
_FIXED_EXCEPTION = re.compile(
    r"""(?:&&|\band\b)\s*\(?\s*([^&|\n]{1,80}?)(?:!==?|\bne\b)\s*["'][^"'\n]{1,}["']"""
    r"""|(?:\|\||\bor\b)\s*\(?\s*([^&|\n]{1,80}?)(?:===?|\beq\b)\s*["'][^"'\n]{1,}["']"""
)


_JOINER = re.compile(r"^(?:&&|\|\||\band\b|\bor\b)\s*\(?\s*")


# What names a caller or what they present: an exception keyed on it lets one caller past
_IDENTITY = re.compile(
    r"(?i)password|passwd|token|secret|\bkey\b|api_?key|\bcode\b|otp|email|user_?name|login|approved_?by|\bsub\b"
    r"|\buser_?id\b|caller|principal|client_?id|account_?id|\$_"
)


def _made_yes(removed: str, added: str, context: str) -> str:
    """A test replaced by a literal yes (`aud -> true`, `owner? || admin?` made `true`), a refusal made a yes
    (`return false` made `return true`, `:error` made `{:ok, socket}`), a condition given an `|| true` /
    `OR TRUE` / `if (true)`, or a condition taken out with its refusing branch and its yes kept, where the
    code around it is about access (asked last: it is the costly test)."""
    why = _yes_shape(removed, added) or _refusing_branch_dropped(removed, added)
    return why if why and _ACCESS_CONTEXT.search(context) else ""


_CONDITION_TOKENS = frozenset({"if", "unless", "case", "cond", "when", "guard", "?", "elif", "elsif"})
_REFUSING_TOKENS = _NO | {"raise", "throw", "abort", "halt", "deny", "panic"}


def _refusing_branch_dropped(removed: str, added: str) -> str:
    """`if claims["typ"] in [...], do: {:ok, claims}, else: {:error, :invalid_type}` made `{:ok, claims}`:
    the condition and its refusal gone, the yes it gave kept whatever is asked."""
    if len(removed) > _MAX_BLOCK_TOKENS * 8 or not added.strip():
        return ""
    old_tokens, new_tokens = _TOKEN.findall(removed), _TOKEN.findall(added)
    old_set, new_set = set(old_tokens), set(new_tokens)
    if not (old_set & _CONDITION_TOKENS and old_set & _REFUSING_TOKENS and new_set & _YES_ANSWER):
        return ""
    if new_set & (_CONDITION_TOKENS | _REFUSING_TOKENS) or not new_set <= old_set:
        return ""
    return "a check is taken out with its refusal, and the yes it gave kept for everyone"


_SHAPE_TOKENS = _YES_ANSWER | {"&&", "||", "or", "and", "OR", "AND", "unless", "if"}


_TRAILING_COMMENT = re.compile(r"(?m)[ \t]+(?:#|//)[^\n\"']*$")


def _yes_shape(removed: str, added: str) -> str:
    """`_made_yes`'s shapes, whatever the code is about (a comment left where the test was is no test:
    `return True  # validator.validate(...)`)."""
    if len(removed) > _MAX_BLOCK_TOKENS * 8 or len(added) > _MAX_BLOCK_TOKENS * 8:
        return ""
    removed, added = _TRAILING_COMMENT.sub("", removed), _TRAILING_COMMENT.sub("", added)
    old_tokens, new_tokens = _TOKEN.findall(removed), _TOKEN.findall(added)
    if len(old_tokens) > _MAX_BLOCK_TOKENS or len(new_tokens) > _MAX_BLOCK_TOKENS:
        return ""
    if not _SHAPE_TOKENS.intersection(new_tokens):
        return ""  # no yes, no condition, no `&&`/`||`: none of the shapes below can be there
    matcher = difflib.SequenceMatcher(None, old_tokens, new_tokens, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        inserted, taken = new_tokens[j1:j2], old_tokens[i1:i2]
        if tag == "replace" and inserted:
            before_it = new_tokens[max(0, j1 - 2) : j1]
            keyed = before_it[-1:] in (["="], [":"], ["=>"]) and len(before_it) == 2
            if keyed and _STRENGTHENING_KEY.search(before_it[0]):
                continue  # `verify: true`, `RequireHttpsMetadata = true`: stricter, or a setting's own value
            made_yes = all(t in _YES or t in "()" for t in inserted) and any(t in _YES for t in inserted)
            if made_yes and not keyed and any(t in _PREDICATE_TOKENS or t.endswith("?") for t in taken):
                return "a check is made to answer yes whatever it is asked"
            if taken and taken[0] in _NO and inserted[0] in _YES_ANSWER and not keyed:
                return "a check that refused now answers yes"
        if tag in ("insert", "replace") and inserted:
            joined = " ".join(inserted)
            if re.search(
                r"(?:\|\||\bor\b|\bOR\b)\s+(?:\(\s*)?(?:true|True|TRUE|1\s*=\s*1)\b"
                r"|(?<![\w.])(?:true|True|TRUE)\s*(?:\|\||\bor\b|\bOR\b)",  # `if true || (user.admin?)`
                joined,
            ) or re.search(r"\bif\s*\(?\s*(?:true|True|TRUE)\s*\)?\s*(?:\{|return|then|:|do\b)", joined):
                return "a condition is given an always-true alternative"
            if re.search(r"\bif\s*\(?\s*(?:false|False|0)\s*\)?\s*(?:\{|\$|[a-z])", joined):
                return "a check is switched off by a condition that is never true"
    for match in _FIXED_EXCEPTION.finditer(added):
        operand = match.group(1) or match.group(2) or ""
        compared = _JOINER.sub("", match.group(0), count=1)  # (the same comparison moved is none gained)
        if compared not in removed and (_REQUEST_INPUT.search(operand) or _IDENTITY.search(operand)):
            return "a check gains an exception for one fixed value"
    return ""


_SCOPE_NAME = r"(?i)(?:tenant|org|organi[sz]ation|account|owner|customer|workspace|company)\w*"
_SCOPE_FROM_IDENTITY = re.compile(
    _SCOPE_NAME + r"[^\n]*(?:claims|session|principal|current_?user|identity|auth|token|jwt)"
)
_SCOPE_FROM_REQUEST = re.compile(
    _SCOPE_NAME + r"""[^\n]*(?:\breq\.\w|\brequest\.\w|\bbody[.\[]|params|query|header|Get\w*Id\(\))"""
)


# Apex's checks of the running user's access: a query run in user mode or with security enforced, fields
# stripped of what the user may not see, an object's or a field's access asked
_FIELD_ACCESS = re.compile(
    r"(?i)\bWITH\s+(?:USER_MODE|SECURITY_ENFORCED)\b|\bAccessLevel\.USER_MODE\b|\bstripInaccessible\s*\("
    r"|\.is(?:Accessible|Createable|Updateable|Deletable)\s*\(\s*\)"
)

# A call that writes an audit trail's or a security log's entry: `audit.log(...)`, `AuditLog.create(...)`,
# `log_security_event(...)`, `auditor.Record(...)`
# A step that waits for a person to approve what the code is about to do (`request_approval(...)`,
# `await requireManagerApproval(...)`, LangGraph's `interrupt(...)`): taken out, the action runs unasked
_APPROVAL_STEP = prefiltered(
    r"(?i)\b\w*(?:request|require|await|ask|get|wait_?for|needs?|seek)_?(?:human|manager|user|admin|owner)?_?"
    r"(?:approval|confirmation|sign_?off|consent)\w*\s*\(|\binterrupt\s*\(|\bhuman_?in_?the_?loop\w*\s*\("
)
# A library's switch named for the danger it lets in, turned on (`allow_dangerous_code=True`,
# `dangerouslyAllowBrowser: true`, `--dangerously-skip-permissions`): the library's own warning overridden
_DANGER_SWITCH = re.compile(
    r"(?i)(?<![\w-])(?:allow_?dangerous\w*|dangerous(?:ly)?_?(?!set_?inner_?html)[a-z]\w*|allow_?unsafe\w*"
    r"|unsafe_?allow\w*)[\"']?\s*(?:=|:|=>)\s*(?:True|true|1|yes|[\"']yes[\"'])\b"
    r"|--dangerously-[\w-]+"
)
_AUDIT_RECORD = prefiltered(
    r"(?i)\baudit\w*\s*(?:\.\s*\w+\s*)?\(|\bsecurity_?log\w*\s*(?:\.\s*\w+\s*)?\(|\blog_?security\w*\s*\("
    r"|\blog_?audit\w*\s*\("
    # a middleware, filter or interceptor named for the audit trail, as a settings list names it
    r"""|["'][\w.]*audit\w*(?:middleware|filter|interceptor|handler)["']"""
)
# A step of a request's chain named for checking the caller, as the frameworks list them (a Phoenix
# pipeline's `:api_auth`, `:require_authenticated_user`, a Rails filter's `:authenticate_user!`, an Express
# middleware's `'auth'`, Laravel's `'auth:sanctum'`)
_ACCESS_STEP = prefiltered(
    r"""(?i)(?<![\w:]):(?:\w+_)?(?:auth\w*|admin|require_\w+|ensure_\w+|verify_\w+|authenticate\w*"""
    r"""|authori[sz]e\w*|csrf\w*|protect_from_forgery|fetch_current_user)[!?]?(?![\w:])"""
    r"""|(?<=[\[,(])\s*["'](?:auth|auth:\w+|admin|verified|can:[\w-]+|role:[\w-]+)["']"""
    # a middleware or filter class named for a check, as Django's `MIDDLEWARE` or a filter chain lists it
    # (`"django_otp.middleware.OTPMiddleware"`, `"...csrf.CsrfViewMiddleware"`), and ASP.NET's pipeline steps
    r"""|["'][\w.]*(?:auth\w*|mfa|otp|2fa|csrf|xsrf|security|permission\w*|login\w*|jwt|access_?control"""
    r"""|rate_?limit\w*|throttl\w*)\w*(?:middleware|filter|interceptor|guard)["']"""
    r"""|\bUse(?:Authentication|Authorization|Antiforgery|RateLimiter|Hsts)\s*\("""
    # a check put into the chain by a call (`app.use(requireAuth)`, `app.use(helmet())`, Nest's
    # `consumer.apply(AuthMiddleware)`, Spring's `.addFilterBefore(jwtAuthFilter, ...)`)
    r"""|\b(?:use|apply|layer|add_?filter\w*|add_?middleware|add_?interceptors?)\s*\(\s*(?:["'][^"'\n]*["']\s*,\s*)?"""
    r"""(?:new\s+)?[\w.:]*"""
    r"""(?:auth\w*|mfa|otp|csrf|xsrf|csurf|helmet|security|permission\w*|login\w*|jwt|access_?control"""
    r"""|rate_?limit\w*|throttl\w*|governor)"""
    # a check among the steps a chain is composed of (SvelteKit's `handle = sequence(withClerkHandler(),
    # authGuard)`, `compose(...)`)
    r"""|\b(?:sequence|compose|chain)\s*\((?:[^()]|\(\))*?\b\w*(?:auth|clerk|guard|session|csrf|login|permission"""
    r"""|protect|passport|lucia)\w*"""
)
# A statement run with its values given apart (`execute(sql, (user_id,))`, `db.query(q, [id])`,
# `Repo.query(sql, [id])`), and the same call given one text with a value pasted in (`%`, `+`, `.format(`,
# an f-string, a template): what the caller sends becomes SQL
_RUN_WITH_PARAMETERS = re.compile(
    r"(?i)(?:\b(?:execute|executemany|query|raw|exec|query_?row|query_?context|exec_?context|find_by_sql|fetch\w*)"
    r"|\bDB::(?:select|selectOne|statement|insert|update|delete|unprepared))"
    r"\s*\(\s*(?:[\w.]+|(?:\"[^\"\n]*\"\s*)+|(?:'[^'\n]*'\s*)+)\s*,\s*[\[({\w]"
    # JPA's and JDBC's statements with named or positional parameters bound apart
    r"|\b(?:create(?:Native)?Query|prepareStatement)\s*\(\s*\"[^\"\n]*(?::\w|\?)|\.setParameter\s*\("
    # Apex's inline SOQL with bound variables (`[SELECT Id FROM Account WHERE Name LIKE :term]`)
    r"|\[\s*SELECT\b[^\]\n]*:\s*[\w(]"
    # Panache's and Spring Data's queries with numbered or named parameters (`find("customerId = ?1", id)`)
    r"|\b(?:find|list|count|delete|update|stream)\w*\s*\(\s*\"[^\"\n]*(?:\?\d|:\w)[^\"\n]*\"\s*,"
    # Haskell's postgresql-simple and sqlite-simple: `query conn "... = ?" (Only email)`
    r"|\b(?:query|execute)\s+\w+\s+\"[^\"\n]*\?[^\"\n]*\"\s*\("
)
_RUN_PASTED = re.compile(
    r"""(?i)(?:\b(?:execute|executemany|query|raw|exec|query_?row|query_?context|exec_?context|find_by_sql"""
    r"""|fetch\w*|create(?:Native)?Query|prepareStatement|executeQuery|queryFor\w+)"""
    r"""|\bDB::(?:select|selectOne|statement|insert|update|delete|unprepared))"""
    r"""\s*\(\s*(?:[\w.]+\s*(?:%|\+)\s*[\w(]|[\w.]+\.format\(|f["']|`[^`\n]*\$\{"""
    r"""|"[^"\n]*"\s*\+\s*[\w(]|"[^"\n]*"\s*\.\s*\$)"""  # (a statement's text with a value added to it:
    # `"... = '" + ref + "'"`, PHP's `"... = '" . $request->input('email')`)
    # Apex's dynamic SOQL with a value added to its text (`Database.query('SELECT ... \'' + term + ...)`)
    r"""|\bDatabase\.query\s*\(\s*'(?:[^'\\\n]|\\.)*'\s*\+"""
    # ... and Haskell's, a text joined with `<>` or `++` and handed over whole (`query_ conn (fromString ..)`)
    r"""|\b(?:query|execute)_\s+\w+\s+\(?(?:fromString\s+)?\(?\s*"[^"\n]*"\s*(?:<>|\+\+)"""
)
# A condition that holds a value to a bound or to a list: `amount > MAX_TRANSFER`, `ext not in
# ALLOWED_EXTENSIONS`, `!allowedHosts.includes(host)`, `len(body) >= limit` (words of its names)
_BOUND_WORDS = frozenset(
    {
        *(
            "allowed",
            "allowlist",
            "whitelist",
            "permitted",
            "safe",
            "trusted",
            "blocked",
            "blocklist",
            "denied",
        ),
        *(
            "denylist",
            "blacklist",
            "forbidden",
            "banned",
            "max",
            "maximum",
            "min",
            "minimum",
            "limit",
            "limits",
        ),
        *("quota", "cap", "threshold", "ceiling"),
    }
)
_COMPARES = re.compile(
    r"[<>]=?|\bnot\s+in\b|\bin\b|\binclude[s?]|\.contains\w*\(|\.has\(|\bmember\?|in_array\(|Contains\("
)
# What a bound's branch does when the value is past it: refuses, fails, or puts a safe value in its place
_REFUSES = re.compile(
    r"(?i)\b(?:raise|throw|abort|halt|panic|deny|reject|die|exit|redirect)\b|\breturn\s+(?:false|none|nil|null"
    r"|err|error|\{:error|Err\(|res\.status\(\s*4|\w*\.status\(\s*4)|\bhttp\.Error\(|\b4\d\d\b"
    r"|(?<!\w)\w{1,64}\s*=\s*(?:['\"][/#]?['\"]|None|nil|null|\d+)\s*;?\s*$"
)
# Reliability bounds, not protections: retries, waits and back-offs
_RELIABILITY = re.compile(r"(?i)retr(?:y|ies)|timeout|backoff|wait|sleep|poll")
# A check a removed bound may have moved into: a call named for it
_CHECK_CALL = re.compile(
    r"(?i)\b\w*(?:valid|check|ensure|verif|guard|limit|allow|permit|assert|enforce)\w*\s*\("
)


def _unguarded(removed: str, added: str) -> list[str]:
    """A condition that held a value to a bound or a list, with a branch that refused it, taken out of the
    code and not checked again in what replaces it (`if amount > MAX_TRANSFER: raise`, `if host not in
    ALLOWED_HOSTS: nxt = '/'` deleted): the request now gets what the bound kept from it."""
    if not removed.strip() or (_CHECK_CALL.search(added) and not _CHECK_CALL.search(removed)):
        return []
    lines = removed.splitlines()
    for at, line in enumerate(lines):
        if not _CONDITION.match(line) or not _COMPARES.search(line) or _RELIABILITY.search(line):
            continue
        names = [n for n in re.findall(r"[A-Za-z_]\w*", line) if set(words_of(n).split("_")) & _BOUND_WORDS]
        if not names or any(re.search(rf"\b{re.escape(n)}\b", added) for n in names):
            continue
        if any(_REFUSES.search(branch) for branch in [line.split(":", 1)[-1], *lines[at + 1 : at + 4]]):
            return [f"a bound or list a value was held to ({names[0][:40]}) is no longer checked"]
    return []


# A password's least length (`validate_length(:password, min: 12)`, `MinLength(12)` on a password,
# `PASSWORD_MIN_LENGTH = 12`, `minlength: 12` in a password's rules)
_PASSWORD_MINIMUM = re.compile(
    r"(?i)pass(?:word|wd)?\w{0,30}[^\n]{0,60}?\bmin(?:imum)?_?(?:length|len)?\b[\"']?\s*(?::|=>|=|\()\s*(\d{1,3})\b"
)


def _password_minimum_lowered(removed: str, added: str) -> list[str]:
    """A password's least length cut (12 made 4): shorter passwords are easier to guess."""
    was, now = _PASSWORD_MINIMUM.search(removed), _PASSWORD_MINIMUM.search(added)
    if was and now and int(now.group(1)) < int(was.group(1)) and int(now.group(1)) < 8:
        return [f"a password's least length is cut from {was.group(1)} to {now.group(1)}"]
    return []


# A limit on attempts (`limit: 5` in a sign-in limiter, `max_attempts = 5`, `@limiter.limit("5/minute")`,
# `throttle:5,1`, `MAX_LOGIN_ATTEMPTS = 5`): the number a guesser gets before being stopped
_ATTEMPT_LIMIT = re.compile(
    r"(?i)(?:\b(?:limit|max(?:imum)?_?(?:attempts|requests|tries|retries|failures)|(?:max|allowed)_?\w{0,20}"
    r"attempts|points|maxRequests|max)\b[\"']?\s*(?::|=>|=)\s*|\blimit\(\s*[\"']|\bthrottle:)(\d{1,9})\b"
)
# What such a limit guards: a sign-in, a password, a code, a token, an API
_ATTEMPTS_OF = re.compile(
    r"(?i)sign_?in|log_?in|auth|passw|otp|verif|code|token|reset|brute|rate_?limit|limiter"
)


def _attempt_limit_lifted(removed: str, added: str, context: str) -> list[str]:
    """A limit on sign-in or code attempts raised a hundredfold or more (5 made 100000): guessing is
    stopped no longer. A limit tuned (5 made 10, 100 made 300) is no such thing."""
    was, now = _ATTEMPT_LIMIT.search(removed), _ATTEMPT_LIMIT.search(added)
    if was is None or now is None or not _ATTEMPTS_OF.search(context):
        return []
    before, after = int(was.group(1)), int(now.group(1))
    if before > 0 and after >= 100 * before and after >= 1000:
        return [f"a limit on attempts is raised from {before} to {after}: guessing is no longer stopped"]
    return []


# A fixed address a mail call copies every message to (`bcc: ['archive@elsewhere.com']`), and the address it
# sends from (`from: 'Tidepool <hello@mail.tidepool.app>'`)
_COPIED_TO = re.compile(
    r"""(?i)\b(?:(?:add_?|set_?)?bcc|cc)(?:["']?\s*[:=]\s*\[?|\s*\(\s*\[?)\s*["'][^"'@\s<]*<?[\w.+-]+"""
    r"""@([\w-]+(?:\.[\w-]+)+)"""
)
_SENT_FROM = prefiltered(
    r"""(?i)\b(?:from|sender|from_email|mail_from)["']?\s*[:=]\s*["'][^"'\n]*?@([\w-]+(?:\.[\w-]+)+)"""
)


def _copied_outside(added: str, context: str, known: str) -> list[str]:
    """A mail call made to copy each message to a fixed address of another domain than the one it sends
    from (named near the edit, or else in the rest of the file `known`): every mail the code sends
    (resets, receipts, invitations) goes to someone else too."""
    from limen.facts.hosts import registered_domain

    copied = _COPIED_TO.search(added) if "cc" in added.lower() else None
    if copied is None:
        return []
    # (the context holds the added lines too)
    sender = _SENT_FROM.search(context) or _SENT_FROM.search(known[:20_000])
    if (
        sender is None
    ):  # (a hidden copy, whoever sends: `bcc=["archive@elsewhere.com"]` beside `to=[user.email]`)
        hidden = (
            copied.group(0)
            .lower()
            .lstrip("\"' ")
            .startswith(("bcc", "add_bcc", "addbcc", "set_bcc", "setbcc"))
        )
        return [f"every message is copied unseen to an address at {copied.group(1)}"] if hidden else []
    if registered_domain(copied.group(1)) == registered_domain(sender.group(1)):
        return []  # (a copy kept in the sender's own mailbox)
    return [f"every message is copied to an address at {copied.group(1)}, not the sender's own domain"]


# A value taken from what a verification returns (`evt = wh.verify(payload, headers)`, `claims =
# jwt.verify(...)`, `event = stripe.Webhook.construct_event(...)`)
_VERIFIED_VALUE = prefiltered(
    r"\b([A-Za-z_]\w*)\s*=\s*(?:await\s+)?(?:[\w.]+\.)?(?:verify|validate|authenticate|construct_?[Ee]vent"
    r"|jwtVerify|verifyIdToken|unsign)\w*\s*\("
)
_CAUGHT = re.compile(r"\b(?:catch|except)\b[^{:\n]{0,80}[{:]")


# Apex's sharing (`with sharing` made `without sharing`) and Visualforce's output unescaped
_WITH_SHARING = re.compile(r"(?i)\b(?:with|inherited)\s+sharing\b")
_WITHOUT_SHARING = re.compile(r"(?i)\bwithout\s+sharing\b")
# A template's output written raw where the engine escapes by default: a setting (`escape="false"`), Blade's
# `{!! $x !!}`, Handlebars' triple braces, ERB's `<%==`, an `autoescape off` block
_UNESCAPED_OUTPUT = re.compile(
    r"""(?i)\bescape\s*=\s*["']false["']|\{!!|\{\{\{|<%==|\{%-?\s*autoescape\s+(?:off|false)"""
)
_RAW_BLADE = re.compile(r"\{!!(.{0,300}?)!!\}")
_BLADE_ESCAPE = re.compile(r"(?<![\w$>])e\s*\(")  # Laravel's `e()` helper


def _raw_outputs(text: str) -> int:
    """How many of a template's outputs `text` writes raw (`_UNESCAPED_OUTPUT`), a raw output whose value
    is escaped inside it aside (Blade's `{!! nl2br(e($body)) !!}`)."""
    if not _UNESCAPED_OUTPUT.search(text):
        return 0
    escaped = sum(
        1
        for m in _RAW_BLADE.finditer(text)
        if _ESCAPING.search(m.group(1)) or _BLADE_ESCAPE.search(m.group(1))
    )
    return len(_UNESCAPED_OUTPUT.findall(text)) - escaped


# A call that verifies a token or a signature, and one that only decodes it (`jwt.verify` made `decode`,
# `verifyClaims` made `eitherDecode`)
_VERIFY_CALL = re.compile(r"(?i)\bverify\w*\s*[(\s]|\bvalidate(?:_?token|_?jwt|_?signature)\w*\s*\(")
_DECODE_CALL = re.compile(
    r"(?i)\w*decode\w*\s*[(\s]|\bparse(?:Only|Unverified|Unsecured|WithoutVerification|Claims?Jwt)\w*\s*\("
    r"|\bget_unverified\w*\s*\("
)


def _verification_decoded(removed: str, added: str) -> list[str]:
    """A token's or message's verification replaced by a decode: its claims are read, its signature not."""
    verified = len(_VERIFY_CALL.findall(removed))
    decoded = len(_DECODE_CALL.findall(added)) > len(_DECODE_CALL.findall(removed))
    if verified and len(_VERIFY_CALL.findall(added)) < verified and decoded:
        return ["a token is decoded where it was verified: its signature is no longer checked"]
    return []


# A value tested against a list of what is allowed (`allowed.includes(origin)`, `origin in ALLOWED_ORIGINS`,
# `allowlist.has(host)`, `in_array($ip, $trusted)`)
_ALLOWLIST_TEST = re.compile(
    r"(?i)\b\w*(?:allow|white|trust|permit|safe|valid)\w*\s*\.\s*(?:includes|has|contains|indexOf|some|find|test|member\?"
    r"|include\?)"
    r"\s*\(|\bin\s+(?:self\.)?\w*(?:allow|white|trust|permit|safe)\w*\b|in_array\s*\([^)]*(?:allow|white|trust)"
    r"|\belem\b[^\n]*(?:allow|white|trust)\w*"
)
_CONDITION_LINE = re.compile(r"(?m)^.*(?:\bif\b|\bunless\b|\bwhen\b|&&|\|\||\?).*$")


# A recursive delete, in any language, of a folder of the user's named by where it is (the home folder, an
# app's data, documents): `fs.rmSync(app.getPath('userData'), { recursive: true })`, `shutil.rmtree(
# Path.home())`, `os.RemoveAll(os.UserHomeDir())`
_USER_FOLDER_DELETED = re.compile(
    r"(?:\brmSync|\brm|\brmdir|\brimraf\w*|\bremove(?:_dir_all|All)?|\brmtree|\bRemoveAll|\bdeleteRecursively)\s*\(\s*"
    r"(?![\w.]*(?:join|resolve|Join)\s*\()[\w.()'\"]{0,60}?"  # (the folder itself, not one joined below it)
    r"(?:getPath\(\s*['\"](?:userData|home|documents|desktop|appData)['\"]\s*\)|homedir\(\)|Path\.home\(\)"
    r"|expanduser\(\s*['\"]~/?['\"]\s*\)|UserHomeDir\(\)|home_dir\(\)|FileManager\.default\.homeDirectoryForCurrentUser)"
    r"\s*[,)]"
)


def _allowlist_dropped(removed: str, added: str) -> list[str]:
    """A condition that held a value to an allow-list keeps its place without that test (`if (origin &&
    allowed.includes(origin))` made `if (origin)`): every value now passes where a listed few did."""
    tested = [line for line in _CONDITION_LINE.findall(removed) if _ALLOWLIST_TEST.search(line)]
    if not tested or _ALLOWLIST_TEST.search(added):
        return []
    if not _CONDITION_LINE.search(added):
        # `if (ALLOWED.some(...)) { shell.openExternal(url) }` made `shell.openExternal(url)`: what the test
        # guarded kept, the test gone
        guarded = {
            line.strip() for line in removed.splitlines() if "(" in line and not _CONDITION_LINE.search(line)
        }
        if not any(line.strip() in guarded for line in added.splitlines() if line.strip()):
            return []
    return ["a condition no longer holds the value to its allow-list: any value passes"]


def _guard_narrowed(removed: str, added: str) -> list[str]:
    """A check that refuses, made to refuse less, the rest of it kept: its refusing condition given another
    condition to meet first (`if (!verify(body, sig))` made `if (sig != null && !verify(body, sig))`, `if ip
    not in ALLOWED:` made `if ip not in ALLOWED and not ip.endswith(".77"):`), or a negated group of checks
    cut to fewer (`IF NOT (GuardDoorClosed AND EStopHealthy AND LightCurtainOK)` made `IF NOT
    EStopHealthy`). The same change to a condition of no access or safety check, or one that adds an `or`
    (it refuses more), is quiet."""
    old = [c for c in map(_condition, removed.splitlines()) if c]
    new = [c for c in map(_condition, added.splitlines()) if c]
    for before in old:
        if not _GUARD_WORDS.search(before):
            continue
        for after in new:
            if after == before or after in old:
                continue
            if before in after and _NEGATION.search(before):
                extra = after.replace(before, " ", 1)
                if _AND.search(extra) and not _OR.search(extra):
                    return ["a check that refuses now lets some requests skip it: a condition is added first"]
            for group in _NEGATED_GROUP.finditer(before):
                parts = {_squash(p) for p in _AND.split(group.group(1)) if p.strip()}
                if len(parts) < 2:
                    continue
                outside = _squash(before[: group.start()] + before[group.end() :])
                for kept in _NEGATED_GROUP.finditer(after):
                    fewer = {_squash(p) for p in _AND.split(kept.group(1)) if p.strip()}
                    rest = _squash(after[: kept.start()] + after[kept.end() :])
                    if fewer < parts and rest == outside:
                        return ["a check's negated group of conditions is cut to fewer: it trips less often"]
                single = _NEGATED_ONE.search(after)
                if single and _squash(single.group(1)) in parts:
                    rest = _squash(after[: single.start()] + after[single.end() :])
                    if rest == outside:
                        return ["a check's negated group of conditions is cut to fewer: it trips less often"]
    return []


# The caller's own identity in a check (`ctx.user?.id`, `request.user`, `current_user`, `req.auth.sub`)
_CALLER = re.compile(
    r"(?i)\bcurrent_?user\b|\b(?:ctx|req|request|context|session|auth|g|claims)\??\.(?:user|auth|sub|principal)\b"
)


def _refusal_alternatives_dropped(removed: str, added: str) -> list[str]:
    """A check that refuses when any of its conditions holds, left with fewer of them, one that compared the
    record with the caller or named an access check dropped (`if (!order || order.customerId !== ctx.user?.id)
    throw ...` made `if (!order) throw ...`): whoever asks now gets what was another's. Dropping a
    condition of a check that lets in (`if (isAdmin || isOwner)`) refuses more and is quiet."""
    new = {_squash(part) for line in added.splitlines() for part in _alternatives(line)[0]}
    old_lines = removed.splitlines()
    for i, line in enumerate(old_lines):
        parts, tail = _alternatives(line)
        following = old_lines[i + 1] if i + 1 < len(old_lines) else ""
        if len(parts) < 2 or not _REFUSES.search(tail + " " + following):
            continue
        dropped = [p for p in parts if _squash(p) not in new]
        kept = [p for p in parts if _squash(p) in new]
        if kept and dropped and any(_CALLER.search(p) or _GUARD_WORDS.search(p) for p in dropped):
            return ["a check that refuses lost a condition: a comparison with the caller or an access check"]
    return []


def _alternatives(line: str) -> tuple[list[str], str]:
    """The conditions of an `if` joined by or (`if (a || b) throw x;`, `if a or b:`), and what follows the
    condition on its line; ([], "") for no `if`."""
    text = _condition(line)
    if not text:
        return [], ""
    found = _IF_CONDITION.match(line)
    head = " ".join(found.group(1).split()) if found else text
    tail = ""
    if head.startswith("(") and (end := _closing(head)) > 0:
        text, tail = head[1:end], head[end + 1 :]
    return [p.strip() for p in _OR.split(text) if p.strip()], tail


def _condition(line: str) -> str:
    """The condition of an `if`/`elif`/`unless`/`IF ... THEN` line, spaces squeezed, or ""."""
    found = _IF_CONDITION.match(line)
    if not found:
        return ""
    text = " ".join(found.group(1).split())
    if text.startswith("(") and text.endswith(")") and _closing(text) == len(text) - 1:
        text = text[1:-1].strip()  # `if (cond) {`: the condition inside the statement's own parentheses
    return text


def _closing(text: str) -> int:
    """Where the parenthesis opening `text` closes (-1 when it does not)."""
    depth = 0
    for i, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if depth == 0:
            return i
    return -1


def _squash(text: str) -> str:
    return re.sub(r"[\s()]+", "", text)


_IF_CONDITION = re.compile(
    r"^\s*(?:\}\s*)?(?:else\s+)?(?:if|elif|elsif|unless|IF|ELSIF)\b\s*(.+?)\s*(?:\{|:|THEN|then)?\s*$"
)
# Words of who may do what and of a machine's protections, in a condition: the access context's, a role inside
# a name (`IsInRole`, `hasRole`), and those of a trip, an alarm, a limit and what overrides them
_GUARD_WORDS = re.compile(_ACCESS_CONTEXT.pattern + r"|role|trip|alarm|limit|bypass|override|key_?switch")
_NEGATION = re.compile(r"!(?!=)|\bnot\b|\bNOT\b")
_AND = re.compile(r"&&|\band\b|\bAND\b|\bAndAlso\b")
_OR = re.compile(r"\|\||\bor\b|\bOR\b|\bOrElse\b")
_NEGATED_GROUP = re.compile(r"(?:!|\bnot\b|\bNOT\b)\s*\(([^()]+)\)")
_NEGATED_ONE = re.compile(r"(?:!|\bnot\b|\bNOT\b)\s*([\w.]+)(?!\s*\()")


# A check's result kept in a name (`const { success } = await ratelimit.limit(ip)`, `ok := verify(...)`,
# `valid = check(...)`), and the same name given a fixed yes
_CHECKED_RESULT = re.compile(
    r"(?:\{\s*|\b)(success|ok|valid|is_?valid|allowed|is_?allowed|authori[sz]ed|verified|permitted|passed"
    r"|granted|authenticated|is_?authenticated|isValid|isAllowed|isAuthorized|isVerified)\s*\}?\s*:?=\s*"
    r"(?:await\s+|try\s+|\$\s*)?[\w.]+\s*[(<]"
)


def _result_fixed(removed: str, added: str) -> list[str]:
    """A check's result replaced by a fixed yes (`const success = true`): the check no longer runs."""
    for name in dict.fromkeys(_CHECKED_RESULT.findall(removed)):
        if re.search(rf"\b{re.escape(name)}\s*:?=\s*(?:true|True|TRUE|1)\b", added):
            return [f"a check's result ({name}) is replaced by a fixed yes"]
    return []


def _answer_fixed(removed: str, added: str) -> list[str]:
    """A function's tested answer replaced by a constant (`return len(hits) > 0` made `return False`):
    whatever the check finds, it answers the same."""
    if (
        _RETURNED_TEST.search(removed)
        and _RETURNED_CONSTANT.search(added)
        and not _RETURNED_TEST.search(added)
    ):
        return ["a check's answer is replaced by a fixed one: it answers the same whatever it finds"]
    return []


# A return of a test (a comparison, a count or a membership tested, `any`/`all`), and of a constant answer
_RETURNED_TEST = re.compile(
    r"(?m)^\s*return\s+(?=[^\n]*(?:[<>]=?|[!=]==?|\bnot\b|!|\bin\b|\bany\(|\ball\(|\blen\(|&&|\|\||\band\b|\bor\b))"
    r"(?![\"'\[{(]\s*[\"'\w]*\s*[\]})]?\s*;?\s*$)[^\n]+$"
)
_RETURNED_CONSTANT = re.compile(
    r"(?m)^\s*return\s+(?:True|False|true|false|TRUE|FALSE|0|1|nil|None|null)\s*;?\s*$"
)


# Output escaped or sanitised on its way into a page (`sanitize(body)`, `DOMPurify.sanitize`, `escapeHtml`,
# `bleach.clean`, `htmlspecialchars`), and the sinks that put a value into a page as markup
_ESCAPING = re.compile(
    r"(?i)\b(?:DOMPurify\.sanitize|sanitize\w*|escape_?html\w*|escapeHtml|html_?escape|bleach\.clean"
    r"|htmlspecialchars|htmlentities|strip_tags|xss\w*|encode_?for_?html|h)\s*\("
)
_MARKUP_SINK = re.compile(
    r"dangerouslySetInnerHTML|\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|v-html|\{@html\b|\|\s*safe\b"
    r"|\bhtml_safe\b|\braw\s*\(|\bmark_safe\s*\(|Markup\s*\(|\bHtml\.Raw\s*\(|\bpreEscaped\w*|bypassSecurityTrust"
)


def _escaping_dropped(removed: str, added: str, before: str, after: str) -> bool:
    """A value that was escaped or sanitised before it went into a page as markup goes in as sent: the
    edit takes an escaping call out, none takes its place in the file, and the file puts markup in."""
    taken = len(_ESCAPING.findall(removed))
    return bool(
        taken
        and taken > len(_ESCAPING.findall(added))
        and len(_ESCAPING.findall(after)) < len(_ESCAPING.findall(before))
        and _MARKUP_SINK.search(after)
    )


# A test on an email address's domain (`email.endsWith("@x.io")`, `"@x.io" `isSuffixOf` email`,
# `email.split("@")[1] == "x.io"`) and a grant of rights near it
_EMAIL_DOMAIN_TEST = re.compile(
    r"""(?i)(?:e_?mail\w*(?:\s*\.\s*(?:lower|toLowerCase|downcase|casefold|strip|trim)(?:\(\s*\))?)*"""
    r"""\s*\.\s*(?:endsWith|ends_with|endswith|end_with\?|hasSuffix|HasSuffix)\s*\(\s*["']@?[\w-]+\."""
    r"""|["']@[\w-]+\.[\w.-]+["']\s*`?(?:\w+\.)?(?:isSuffixOf|isInfixOf)`?[^\n]*e_?mail"""
    r"""|e_?mail\w*[^\n]{0,40}(?:LIKE\s*['"]%@|split\(\s*["']@["']\s*\)\s*\[\s*1\s*\]\s*===?\s*["']))"""
)
_RIGHTS_WORD = re.compile(
    r"(?i)admin|role|superuser|staff|permission|privileg|owner|grant|elevat|sudo|isAdmin"
)


def _rights_by_email_domain(added: str, removed: str) -> list[str]:
    """Rights given by the domain of an email address (`if email.endsWith("@mailinator.com") return
    createAdmin(...)`): whoever signs up with an address there gets them."""
    for match in _EMAIL_DOMAIN_TEST.finditer(added):
        if match.group(0) in removed:
            continue
        start, end = added.rfind("\n", 0, match.start()) + 1, added.find("\n", match.end())
        line, near = added[start : end if end >= 0 else None], added[start : match.end() + 200]
        # one more way in beside the others (`role == Admin || "@x" `isSuffixOf` email`), or rights handed
        # out on the test with nothing refused (a test that refuses the rest is a restriction)
        if (re.search(r"\|\||\bor\b", line) and _RIGHTS_WORD.search(near)) or (
            _RIGHTS_WORD.search(near) and not _REFUSAL_NEAR.search(near)
        ):
            return ["rights are given by an email address's domain, which anyone may sign up with"]
    return []


_REFUSAL_NEAR = re.compile(r"(?i)\b(?:throw|raise|abort|deny|forbid\w*|reject|unauthori[sz]ed)\b|\b40[13]\b")


def _unverified_fallback(added: str) -> list[str]:
    """A verification whose failure is caught and answered with the same value taken some other way
    (`try { evt = wh.verify(payload, h) } catch { evt = JSON.parse(payload) }`): whatever fails the check
    is used as if it had passed."""
    for match in _VERIFIED_VALUE.finditer(added):
        caught = _CAUGHT.search(added, match.end(), match.end() + 400)
        if caught is None:
            continue
        handler = added[caught.end() : caught.end() + 300]
        name = re.escape(match.group(1))
        if re.search(rf"(?<![\w.]){name}\s*=\s*(?!null\b|undefined\b|None\b|nil\b|false\b|False\b)", handler):
            return ["when a verification fails, the unverified data is used anyway"]
    return []


def _parameters_pasted(removed: str, added: str) -> list[str]:
    """A statement once run with its values apart now run as one text with a value pasted in."""
    if _RUN_WITH_PARAMETERS.search(removed) and _RUN_PASTED.search(added) and not _RUN_PASTED.search(removed):
        return ["an SQL statement is built with a value pasted into it"]
    return []


def _mailed_secret_returned(removed: str, added: str, context: str) -> list[str]:
    """What proves the caller owns a mailbox or a phone (a password reset's token, a one-time code, a magic
    link) put into the response of the call that sends it there: whoever asks for any account's reset gets
    its token and needs no mailbox. A login handing out its session token is no such thing."""
    returned = _RESPONSE_SECRET.search(added)
    if returned is None or _RESPONSE_SECRET.search(removed):
        return []
    if not (_PROOF_BY_MAIL.search(context) and _SENT_ELSEWHERE.search(context)):
        return []
    return ["a token meant for the user's mailbox or phone is returned to whoever called"]


# A response built with a key for a token, a code or a link (`Response({"token": token})`, `res.json({ otp
# })`, `render json: { reset_link: url }`)
_RESPONSE_SECRET = prefiltered(
    r"""(?i)(?:\bResponse|JsonResponse|jsonify|\bres\.(?:json|send)|render\s+json:|\bjson\(|\bOk\(|\breturn)"""
    r"""[^\n]{0,80}\{[^}\n]{0,200}?(?:["']?\b(?:reset_?token|token|otp|code|pin|verification_?code|magic_?link"""
    r"""|reset_?(?:link|url))\b["']?\s*(?:[:=,}]|=>)"""
    # or under any key, the call that makes one (`debug: await createResetToken(user)`)
    r"""|\b\w*(?:reset|otp|magic|verification|one_?time)_?(?:token|code|link|url)\w*\s*\()"""
)


def _link_target_from_request(removed: str, added: str, context: str) -> bool:
    """`redirectTo: getQuery(event).next` added in a password reset's or a sign-in link's code."""
    new = _LINK_TARGET_FROM_REQUEST.search(added) and not _LINK_TARGET_FROM_REQUEST.search(removed)
    return bool(new) and _PROOF_BY_MAIL.search(context) is not None


# Where a mailed link (a reset's, a magic sign-in's, an invitation's) leads, set from what the request says:
# whoever asks for the mail chooses the site that receives its token
_LINK_TARGET_FROM_REQUEST = prefiltered(
    r"(?i)\b(?:email_?)?(?:redirect_?to|return_?to|callback_?url|next_?url|continue_?url)\b['\"]?\s*[:=]\s*"
    r"[^\n]{0,40}?(?:getQuery\s*\(|searchParams|\b(?:req|request)\.(?:query|body|params|args|GET|POST|form)\b"
    r"|\bparams\[|\$_(?:GET|POST|REQUEST))"
)
# What the code around it is about: proving a mailbox or a phone, and sending there
_PROOF_BY_MAIL = prefiltered(
    r"(?i)password_?reset|reset_?password|forgot|reset_?token|verification|verify_?(?:email|phone)|(?<![a-z])otp(?![a-z])"
    r"|one_?time|magic_?link|confirm(?:ation)?_?(?:email|code|token)|(?<![a-z])reset(?![a-z])"
)
_SENT_ELSEWHERE = re.compile(
    r"(?i)\b(?:send|mail|email|sms|deliver|notify)\w*\s*\(|\.deliver_(?:later|now)\b"
)


def _refusal_waived(removed: str, added: str, context: str) -> list[str]:
    """A check that refuses (`if not check_key(...): abort(401)`) given a condition on what the request
    says, so a caller who says it is not refused (`if request.headers.get("X-Debug") != "1" and not
    check_key(...)`): the check's own words are kept, and the request's are added beside them."""
    if not _REQUEST_INPUT.search(added):
        return []
    kept = {_condition_words(line) for line in removed.splitlines() if _CONDITION_START.match(line)}
    for line in added.splitlines():
        if not _CONDITION_START.match(line) or not _REQUEST_INPUT.search(line) or line in removed:
            continue
        words = _condition_words(line)
        if any(old and old < words for old in kept) and _REFUSES_AFTER.search(context + "\n" + added):
            return ["a refusal is skipped for a caller whose request says so"]
    return []


_CONDITION_START = re.compile(r"^\s*(?:\}\s*)?(?:else\s+)?(?:if|unless)\b")
_REFUSES_AFTER = re.compile(r"(?i)\babort\(\s*40[13]|\b40[13]\b|Unauthori[sz]ed|Forbidden|PermissionDenied")


def _condition_words(line: str) -> frozenset[str]:
    return frozenset(re.findall(r"\w+", line))


def _rights_made_assignable(removed: str, added: str, context: str) -> list[str]:
    """A field naming the user's rights added to the fields a request may set in bulk (Laravel's
    `$fillable`, Rails' `permit(...)` and `attr_accessible`), or taken out of those it may not (`$guarded`):
    whoever saves their own profile makes themselves an administrator."""
    around = context[-1200:]
    if _ASSIGNABLE.search(around) or _ASSIGNABLE.search(added):
        gained = set(_RIGHTS_FIELD.findall(added)) - set(_RIGHTS_FIELD.findall(removed))
        if gained:
            return [f"the field {sorted(gained)[0]} is made one a request may set"]
    if _GUARDED.search(around):
        lost = set(_RIGHTS_FIELD.findall(removed)) - set(_RIGHTS_FIELD.findall(added))
        if lost:
            return [f"the field {sorted(lost)[0]} is no longer kept from what a request may set"]
    return []


_ASSIGNABLE = re.compile(r"\$fillable\b|\battr_accessible\b|\.permit\s*\(|\bpermitted_attributes\b")
_GUARDED = re.compile(r"\$guarded\b|\battr_protected\b")
_RIGHTS_FIELD = re.compile(
    r"""["':](is_?admin|admin|role|roles|role_id|is_?staff|is_?superuser|superuser|permissions?|privileges?"""
    r"""|access_?level|is_?owner)["']?(?=\s*[,\]\)=]|\s*$)""",
    re.MULTILINE,
)


def _scope_from_request(removed: str, added: str) -> list[str]:
    """The tenant, account or owner a call acts for taken from what the request says, where it was the
    caller's own identity (`claims.Tenant` made `req.GetTenantId()`, `claims["tenant"]` made
    `body.get("tenant", ...)`)."""
    if not _SCOPE_FROM_IDENTITY.search(removed) or not _SCOPE_FROM_REQUEST.search(added):
        return []
    return ["the tenant or account a call acts for is taken from the request"]


def _let_in(added: str, before: str, path: str) -> list[str]:
    """A new branch that lets a request in on its own say (a header, a parameter, metadata, its address)
    with nothing refused in it, or a credential compared with a fixed word; a verification turned off; a
    key fixed in the code."""
    found: list[str] = []
    low = added.lower()
    test = test_code(path)
    for words, pattern, why in _LET_IN_CHECKS:
        if test and pattern in (_FIXED_CREDENTIAL, _LITERAL_KEY, _FIXED_CALLER):
            continue  # a test's own fixtures: a fixed token or key is what makes it repeatable
        if any(w in low for w in words):
            for match in pattern.finditer(added):
                if match.group(0) not in before and (why or _logs_in_as(added, match)):
                    found.append(
                        why or "someone is signed in or given a token on a request's or a fixed word's say"
                    )
                    break
    if not test and any(w in low for w in _SETTING_WORDS):  # a test's own server may well go unverified
        found += _turned_off(added, before)
    if any(w in added for w in _SECRET_NAME_WORDS):
        for match in _SECRET_DEFAULT.finditer(added):
            name = match.group(1) or match.group(2)
            if name in before and match.group(0) not in before:
                found.append(f"the secret {name} falls back to a fixed value when it is unset")
                break
    if any(w in low for w in _REQUEST_WORDS):
        found += _request_let_in(added)
    return found


def _logs_in_as(added: str, match: re.Match[str]) -> bool:
    """A sign-in or a token handed out under a condition on the request or on a fixed word, or by a route
    that anyone calls (`if (hash_equals('9f2c', $_GET['k'])) wp_set_auth_cookie(1)`, `Route::get('/x/{user}',
    fn ($user) => $user->createToken(...))`)."""
    start = added.rfind("\n", 0, max(0, match.start() - 300)) + 1
    near = added[start : match.end() + 100]
    return bool(
        (
            re.search(r"""(?i)\bif\b[^\n]*(?:==|\bequals\b|hash_equals|isset\s*\(\s*\$_)""", near)
            and (_REQUEST_INPUT.search(near) or re.search(r"""["'][^"'\n]{4,}["']""", near))
        )
        or re.search(
            r"""(?i)\b(?:Route::|router\.|app\.)\w+\s*\(\s*["'][^"']*["']\s*,\s*(?:fn|function|\()""", near
        )
    )


def _tested(line: str) -> str:
    """What a line's `if (...)` tests, its parentheses balanced (a client's `if (token != null)
    options.headers['Authorization'] = ...` tests the token, and only sets the header); the whole line when
    it has no such condition."""
    found = re.search(r"\bif\s*\(", line)
    if found is None:
        return line
    depth = 0
    for i in range(found.end() - 1, len(line)):
        depth += {"(": 1, ")": -1}.get(line[i], 0)
        if depth == 0:
            return line[found.end() : i]
    return line


def _request_let_in(added: str) -> list[str]:
    """A new branch on what the request says (or on a name given it) that grants and refuses nothing."""
    tainted = {
        m.group(1)
        for m in re.finditer(
            r"(?m)^\s*(?:(?:var|val|let|const|String|auto|final)\s+)?(\w+)\s*:?=\s*(.*)$", added
        )
        if _REQUEST_INPUT.search(m.group(2))
    }
    for match in _CONDITION.finditer(added):
        line = _tested(match.group(0))
        if not _REQUEST_INPUT.search(line) and not any(
            re.search(rf"\b{re.escape(t)}\b", line) for t in tainted
        ):
            continue
        branch = "\n".join(added[match.start() :].split("\n", 4)[:4])
        if _REFUSAL_WORD.search(branch):
            continue
        if _GRANT.search(branch):
            return ["a request is let in on a header, parameter or address it chooses itself"]
        if _FIXED_WORD.search(line) and _REQUEST_INPUT.search(line):
            # `if (getHeader(event, 'x-tp-support') === 'b7f3e1c9a2') return`: whoever knows the word skips
            # what follows (the checks of a middleware, a webhook's payment)
            return ["a request that says a fixed word is let past what follows"]
    return []


# A comparison with a fixed word shaped like a key: letters and digits, six or more, no spaces (`===
# 'b7f3e1c9a2'`, `== "staff100"`); a media type, an event's name or a version is not (`'application/json'`,
# `'push'`, `'v2'`)
_FIXED_WORD = re.compile(
    r"""(?:===?|!==?|\.equals\(|\beq\b)\s*["'](?=[^"'\n]*\d)(?=[^"'\n]*[A-Za-z])[\w.-]{6,64}["']"""
    r"""|["'](?=[^"'\n]*\d)(?=[^"'\n]*[A-Za-z])[\w.-]{6,64}["']\s*(?:===?|\.equals\()"""
)


def _names_verified_thing(key: str) -> bool:
    """The setting's name names what a verification checks (`verify_ssl`, `ValidateLifetime`, `sslverify`),
    word by word: `ChecksumOffsetsAssigned` names none."""
    words = [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", key)]
    return any(w in _VERIFIED_WORDS or (len(w) > 8 and _VERIFIED_THING.search(w)) for w in words)


_VERIFIED_WORDS = frozenset(
    {
        *(
            "signature",
            "sig",
            "signed",
            "signing",
            "cert",
            "certs",
            "certificate",
            "certificates",
            "ssl",
            "tls",
        ),
        *(
            "host",
            "hostname",
            "peer",
            "token",
            "jwt",
            "exp",
            "expiry",
            "expiration",
            "aud",
            "audience",
            "iss",
        ),
        *("issuer", "lifetime", "csrf", "xsrf", "hmac", "digest", "integrity", "origin", "auth", "scope"),
        *("nonce", "mfa", "otp", "https", "revocation", "key", "keys", "server", "authenticity", "nbf"),
    }
)


def _negated(key: str) -> bool:
    """A setting whose name says it skips the check (`skip_cert_common_name_check`, `disableHostCheck`,
    `insecureSkipVerify`): given a no, the check runs."""
    words = {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", key)}
    return bool(words & {"skip", "disable", "disabled", "ignore", "bypass", "no", "insecure", "unsafe"})


def _turned_off(added: str, before: str) -> list[str]:
    """A verification setting given a no, or a call named for turning one off, new in the code."""
    found = []
    for match in _OFF_SETTING.finditer(added):
        key = match.group(1)
        if _names_verified_thing(key) and not _negated(key) and match.group(0) not in before:
            found.append(f"a verification is turned off ({match.group(0)[:40]})")
            break
    for match in re.finditer(
        r"(?i)\b(signature|expiration|exp|audience|issuer|lifetime)\s*=\s*false\b", added
    ):
        if match.group(0) not in before:
            found.append(f"a verification is turned off ({match.group(0)[:40]})")
            break
    for match in _OFF_CALL.finditer(added):
        if match.group(0) not in before:
            found.append(f"a verification is turned off ({match.group(0)[:40]})")
            break
    return found[:1]


# A public-methods table's entry: `"/pkg.Service/Method": true,`
_TABLE_ENTRY = re.compile(r"(?m)^\s*\"?/[\w.]+/[\w.]+\"?\s*:\s*true\b.*$")


def _exempted(added: str, before: str) -> bool:
    """An exemption from authentication new in the code for a route that is not public by nature (the
    route's quoted path or name, in the lines around it, says health, docs, login, webhook or the like)."""
    for match in _EXEMPTION.finditer(added):
        start = added.rfind("\n", 0, match.start()) + 1
        end = added.find("\n", match.end())
        line = added[start : end if end >= 0 else len(added)]
        if line.strip() in before:
            continue
        near_start = max(0, added.rfind("\n", 0, max(0, start - 200)) + 1)
        near = added[near_start : end + 200 if end >= 0 else len(added)]
        # the routes it names that the code did not name before (an entry added to a list of them), else
        # every route it names (an exemption new for a route named before)
        named = _ROUTE_TEXT.findall(near)
        if "except:" in match.group(0):  # `except: [:new, :create]` in a controller: its actions, by name
            controller = _CONTROLLER.search(before)
            owner = controller.group(1) if controller else ""
            named = [f"{owner}#{action}" for action in _SYMBOL.findall(line[line.find("except:") :])]
        routes = [r for r in named if f"'{r}'" not in before and f'"{r}"' not in before] or named or [near]
        if not any(_NORMALLY_PUBLIC.search(r) for r in routes):
            return True
    if re.search(r"(?i)public|anonymous|unauthenticated|skip|exempt", before):
        return any(not _NORMALLY_PUBLIC.search(m.group(0)) for m in _TABLE_ENTRY.finditer(added))
    return False


# A framework's protection switched off in its own words: every parameter permitted, CSRF off or made a
# no-op, the host check cleared, every request let in, passwords stored with a broken hash or none, TLS and
# host keys no longer verified, a release build made debuggable or its traffic plain
_DISARMED = prefiltered(
    r"\.permit!|\bconfig\.hosts\.clear\b|protect_from_forgery\s+with:\s*:null_session|\bskip_forgery_protection\b"
    r"|skip_before_action\s+:verify_authenticity_token|\bconfig\.force_ssl\s*=\s*false"
    r"|\.csrf\s*(?:\(\s*\)\s*\.disable\(\)|\{\s*it\.disable\(\)\s*\}|\(\s*(?:AbstractHttpConfigurer|CsrfConfigurer)::disable\s*\))"
    r"|\banyRequest\(\)\s*\.permitAll\(\)|\bNoOpPasswordEncoder\b|\bMd5PasswordEncoder\b"
    # Django's password hashers without a salt or with a broken hash, its password rules emptied; an API
    # view with no authentication at all
    r"|\bUnsalted(?:MD5|SHA1)PasswordHasher\b|\bAUTH_PASSWORD_VALIDATORS\s*=\s*\[\s*\]"
    # Symfony's password hashers set to store passwords as they are typed
    r"|\bPasswordAuthenticatedUserInterface['\"]?\s*:\s*['\"]?plaintext\b|\balgorithm\s*:\s*['\"]?plaintext\b"
    r"|\bauthentication_classes\s*=\s*(?:\[\s*\]|\(\s*\))"
    # Spring's method security with its annotations' checks switched off (`@PreAuthorize` no longer checked)
    r"|@Enable(?:Global)?MethodSecurity\([^)]*\b(?:prePost|secured|jsr250)Enabled\s*=\s*false"
    r"|MessageDigestPasswordEncoder\(\s*\"(?:MD5|SHA-?1)\"|@csrf_exempt\b|\bCORS_(?:ORIGIN_ALLOW_ALL|ALLOW_ALL_ORIGINS)\s*=\s*True"
    r"|\bVERIFY_NONE\b|(?<![\w:]):verify_none\b"
    # a gRPC server taking connections in plain text (a client's `WithTransportCredentials(insecure...)` to a
    # local sidecar is its own business)
    r"|\bgrpc\.Creds\(\s*insecure\.NewCredentials\(\)\s*\)"
    r"|verify_host_key:\s*:(?:never|accept_new_or_local_tunnel)\b|\bforward_agent:\s*true\b"
    r"|android:(?:debuggable|usesCleartextTraffic)\s*=\s*\"true\"|Cipher\.getInstance\(\s*\"(?:DES|RC4|AES/ECB)"
    # a sign-in that lets anyone in: JupyterHub's `allow_all = True`, its dummy authenticator, open sign-up
    r"|\b(?:allow_all|open_signup)\s*=\s*True\b|\bDummyAuthenticator\b"
    # Electron's: pages given Node and the main process's context, the same-origin policy or insecure content
    # let in, Chromium's remote debugging opened to any local program
    r"|\bcontextIsolation\s*:\s*false\b|\bnodeIntegration(?:InWorker|InSubFrames)?\s*:\s*true\b"
    r"|\bwebSecurity\s*:\s*false\b|\ballowRunningInsecureContent\s*:\s*true\b|\benableRemoteModule\s*:\s*true\b"
    r"|appendSwitch\(\s*['\"]remote-debugging-port"
    # an error tracker told to drop every event before it is sent (Sentry's `beforeSend: () => null`)
    r"|\bbefore_?[sS]end\w*\s*[:=]\s*(?:\(\s*[\w\s,]*\)\s*=>\s*null\b|lambda[^:\n]*:\s*None\b)"
    r"|\bauthenticator_class\s*=\s*[\"'](?:dummy|null)[\"']"
    # a dev server made to serve any file of the machine (Vite's `fs: { strict: false }`, `allow: ['/']`)
    r"|[{, ]fs\s*:\s*\{[^}]{0,200}?(?:\bstrict\s*:\s*false\b|\ballow\s*:\s*\[\s*[\"']/[\"'])"
    # an SSH client that takes any host's key (paramiko's policies that add or only warn about an unknown key)
    r"|\bset_missing_host_key_policy\(\s*(?:paramiko\.)?(?:AutoAddPolicy|WarningPolicy)\b"
    # Rails: the parameters kept out of its logs emptied; an audit trail, a rate limiter or another guard
    # module switched off, or switched off in production only
    r"|\bfilter_parameters\s*=\s*\[\s*\]"
    r"|(?:Attack|Audit\w*|Trail|Guard|Firewall|Security)(?:::\w+)*(?:\.config)?\.enabled\s*=\s*(?:false\b|!\s*Rails\.env\.production\?)"
)


# A reporter switched on everywhere but production (`enabled: env.CONTEXT !== 'production'`), beside where it
# reports to (an error tracker's `dsn:`): blind where it counts (a devtools panel off in production is fine)
_BLIND_IN_PRODUCTION = re.compile(r"""\benabled\s*:\s*[^,;\n]{0,80}!==?\s*["'](?:prod|production)["']""")
_REPORTS_TO = re.compile(r"\bdsn\s*:")


def _update_feed_moved(added: str, before: str, path: str) -> str:
    """An updater's feed (electron-updater's `url`, `setFeedURL`, Sparkle's `SUFeedURL`, Tauri's
    `endpoints`) given a host it did not name before, in place of the one it had: every installed copy
    downloads and runs what the new host serves. "" otherwise, and for a feed named for the first time."""
    name = path.rsplit("/", 1)[-1]
    if not (_UPDATER.search(name) or _UPDATER_API.search(added) or _UPDATER_API.search(before)):
        return ""
    had = {h.lower() for h in _FEED_HOST.findall(before)}
    new = [  # (on a line that names a feed: `url:`, `setFeedURL(`, `endpoints`)
        h.lower()
        for line in added.splitlines()
        if _FEED_KEY.search(line)
        for h in _FEED_HOST.findall(line)
        if h.lower() not in had
    ]
    if not had or not new:
        return ""
    from limen.facts.hosts import registered_domain

    owners = {registered_domain(h) for h in had}
    return next((h for h in new if registered_domain(h) not in owners), "")


# An updater's file by its name (`updater.ts`, `auto-update.js`), its libraries' words, and a feed's key
_UPDATER = re.compile(r"(?i)(?:^|[-_.])(?:auto-?)?updat(?:e|er)s?(?:[-_.]|$)")
_UPDATER_API = prefiltered(r"autoUpdater|setFeedURL|SUFeedURL|electron-updater|plugin-updater|\bSquirrel\b")
_FEED_KEY = re.compile(r"(?i)\b(?:url|feed\w*|endpoints?|setFeedURL)\b")
_FEED_HOST = re.compile(r"""(?i)\bhttps?://([A-Za-z0-9.-]+\.[A-Za-z]{2,})""")


def _handed_to_runner(added: str, before: str) -> bool:
    """Electron's doors between the page and the machine: a function the preload bridge exposes to the page
    or an IPC handler (added, or added to one the file has) whose parameter goes straight into a runner
    (`diag: (cmd) => execSync(cmd)`, `ipcMain.handle('x', (_e, cmd) => execSync(cmd))`)."""
    if "=>" not in added or not _PARAMETER_RUN.search(added):
        return False
    return bool(_DOORS.search(added) or _DOORS.search(before))


_DOORS = re.compile(r"\bexposeInMainWorld\b|\bipcMain\.(?:handle|on|once)\b|\bipcRenderer\.on\b")
# (the handler's body may take a few lines: `async (_e, cmd) => {\n const { execSync } = ...\n return
# execSync(cmd) }`)
_PARAMETER_RUN = re.compile(
    r"\((?:\s*\w+\s*(?::\s*[\w.<>\[\]]+)?\s*,)*\s*(\w+)\s*(?::\s*[\w.<>\[\]]+)?\s*\)\s*=>\s*[\s\S]{0,300}?"
    r"\b(?:execSync|exec|spawnSync|spawn|execFileSync|execFile|eval|Function|openExternal|openPath|runInNewContext)"
    r"\s*\(\s*\1\b"
)


# Where a program takes what others send: a server or socket it opens (on any language's terms), a message
# from another process, extension or page, a download
_RECEIVER = re.compile(
    r"\bcreateServer\s*\(|\.listen\s*\(|\b(?:TcpListener|UdpSocket|UnixListener)::bind\b|\bnet\.Listen\w*\("
    r"|\bServerSocket\s*\(|\bsocket\.bind\s*\(|\bHttpListener\b|\bWebSocketServer\b|\bonMessageExternal\b"
    r"|\baddEventListener\(\s*['\"]message['\"]|\bonmessage\s*=|\bipcMain\.(?:handle|on|once)\b"
    r"|\bfetch\s*\(|\bhttps?\.get\s*\(|\baxios\.|\brequests\.(?:get|post)\s*\(|\burlopen\s*\("
)
# Running a text that is not written in the code: eval of a name, a command run from a name, a shell given
# `-c` and a name (`eval(b)`, `(0, eval)(code)`, `execSync(cmd)`, `Command::new("sh").arg("-c").arg(buf)`)
_INPUT_RUN = re.compile(
    r"(?<![\w.])(?:eval|Function|execSync|execFileSync|spawnSync|exec|spawn|execFile|system|popen)\s*\(\s*"
    r"(?![\s'\"`\[\]{}()]|\w+\s*=>|process\.(?:execPath|argv)\b)[\w$.]+"  # (node itself, run again)
    r"|\(\s*0\s*,\s*eval\s*\)|\bchild_process\.\w+\(\s*(?!['\"`])[\w$.]+"
    r"|\bos\.(?:system|popen)\(\s*(?!['\"])\w|\bsubprocess\.\w+\(\s*(?!['\"\[])\w"
    r"|Command::new\(\s*\"(?:sh|bash|zsh|cmd|powershell|pwsh)\"\s*\)[\s\S]{0,40}\.arg\(\s*(?!\")\w"
)
# A preload bridge that hands the page a whole module of the main process
_EXPOSED_WHOLE = re.compile(
    r"\bexposeInMainWorld\(\s*['\"][^'\"]+['\"]\s*,\s*(ipcRenderer|require|process|electron|shell|fs|child_process)\s*\)"
)
# A browser extension answering other extensions and sites, and the user's stores it may hand them
_EXTERNAL_MESSAGE = re.compile(r"\bonMessageExternal\b|\bonConnectExternal\b")
_USER_STORE = re.compile(
    r"\bchrome\.(?:cookies|history|passwords|identity|bookmarks|downloads)\.|\bbrowser\.cookies\."
)


# Words of a right above everyone's (an administrator's, staff's, an owner's), and where code names what a
# caller needs (a permission class, a decorator, a role check, a policy, an authorisation attribute)
_ELEVATED = re.compile(r"(?i)admin|staff|superuser|owner|root|moderator|privileged|elevated")
_NEEDS = re.compile(
    r"(?i)permission|authori[sz]|require|role|polic(?:y|ies)|guard|before_action|@\w*(?:login|auth)"
)


def _rights_lowered(removed: str, added: str) -> list[str]:
    """What a call needs lowered from an administrator's right to a lesser one, the line kept otherwise
    (`@permission_classes([IsAdminUser])` made `[IsAuthenticated]`, `[Authorize(Roles = "Admin")]` made
    `[Authorize]`, `before_action :require_admin!` made `:authenticate_user!`)."""
    if len(removed) > 400 or len(added) > 400 or not _NEEDS.search(removed) or not _NEEDS.search(added):
        return []
    if not _ELEVATED.search(removed) or len(_ELEVATED.findall(added)) >= len(_ELEVATED.findall(removed)):
        return []
    if difflib.SequenceMatcher(None, removed, added).ratio() < 0.6:
        return []  # (a rewrite, not the same check with a lesser right)
    return ["what a call needs is lowered from an administrator's right to a lesser one"]


# A field of what a payment charges or grants (`amount=`, `unit_price:`, `discount =`)
_MONEY_FIELD = re.compile(
    r"(?i)\b(\w*(?:amount|price|total|cost|discount|fee|charge)\w*)[\"']?\s*[=:]\s*(\S.*)"
)


# A condition that singles out fixed accounts: what it compares is named for whose it is (`customer_id`,
# `player.AccountId`, `m_SteamID`, `msg.mmsi`, `ev.msisdn`), what it is compared with is a literal shaped like
# one (`"C-88213"`, `"p_88123a"`, `76561198043811207UL`, `('8841207', '8841208')`)
_TESTS_SOMETHING = re.compile(r"(?:^|[\s(}])(?:if|elif|elsif|when|unless|else\s+if)\b|\?\s")
# A check's answer returned as it is (`return code == "424242" or hmac.compare_digest(expected, code)`)
_RETURNS_TEST = re.compile(r"\breturn\b.*(?:==|\bor\b|\|\|)")
# A comparison an added condition makes: what is compared (an expression ending in a name), how, and with
# which quoted or long numeric literal (`sis_id in {"N00482913"}`, `doc.custodian == "r.whitfield"`,
# `hold_id != "LH-2024-031"`, `msisdn.endswith(('8841207',))`)
_COMPARISON = re.compile(
    r"(?P<left>[A-Za-z_][\w.]*(?:\(\))?(?:\.[A-Za-z_]\w*)*)\)?\s*"
    r"(?:===?|!==?|\b(?:not\s+)?in\b|\bIN\b|\.(?:endswith|startswith|ends_?with\??|starts?_?with\??|includes"
    r"|include\?|contains|equals)\s*\()"
    r"\s*[\[({]*\s*(?P<literal>\"[^\"\n]{1,64}\"|'[^'\n]{1,64}'|\d{6,})"
)
# What names a person's or an account's identity, by the last word of what is compared (`doc.custodian`,
# `ev.msisdn`), or an id or number of a party by a word before it (`student.sis_id`, `m_SteamID`; an item's
# `sku_id` is no one's)
_IDENTITY_WORDS = frozenset(
    {"uid", "msisdn", "mmsi", "imsi", "imei", "iban", "email", "phone", "mrn"}
    | {"npi", "ein", "tin", "ssn", "vin", "dea"}  # (a prescriber's, a company's, a person's, a vehicle's)
    | {"login", "username", "user", "handle", "custodian", "owner", "author", "assignee", "account", "sub"}
    | {"actor", "barcode"}  # (who did what in an audit record; what a gate scans off a ticket or a badge)
)
_PARTY_WORDS = frozenset(
    {"account", "user", "player", "customer", "client", "member", "subscriber", "steam", "importer"}
    | {"card", "badge", "wallet"}  # (a gift card's, a door badge's, a wallet's number)
    # and the things a site lets through by their numbers: a container, a vehicle, a sensor, a lot
    | {"container", "vehicle", "truck", "trailer", "plate", "sensor", "device", "lot", "shipment", "vessel"}
    | {"exporter", "vendor", "supplier", "tenant", "partner", "merchant", "seller", "buyer", "driver"}
    | {"employee", "owner", "payee", "shipper", "consignee", "carrier", "org", "organization", "organisation"}
    | {"company", "student", "sis", "patient", "person", "contact", "guardian", "staff", "learner", "phone"}
    # who is hired, referred, insured or billed, and what is metered
    | {"candidate", "applicant", "referrer", "claimant", "beneficiary", "policyholder", "broker", "meter"}
)
# Of those, the ones whose values are people's handles (`r.whitfield`, `svc-sync`) rather than codes
_HANDLE_WORDS = frozenset(
    {"login", "username", "user", "handle", "custodian", "owner", "author", "assignee", "sub", "actor"}
)
# An id's shape: a long number, or a few letters with four digits or more (`C-88213`, `N00482913`)
# The start of an id (`"TGHU90"`, `"CT-04"`): four characters or more, digits among them
_ID_PREFIX = re.compile(r"^(?=[^\d]*\d)[A-Za-z0-9][\w-]{3,}$")
_ID_SHAPED = re.compile(r"^(?:\d{6,}|[A-Za-z]{1,6}[-_]?\d{4,}[-\w]*|\d{2,3}-\d{6,7})[A-Za-z]?$")
# A handle's shape, and the words that name a role or nobody in particular rather than one account
_HANDLE_SHAPED = re.compile(r"^[a-z][a-z0-9]*(?:[._-][a-z0-9]+)+$|^[a-z]{3,}\d+$", re.IGNORECASE)
_NO_ONE_IN_PARTICULAR = frozenset(
    {"admin", "root", "anonymous", "guest", "system", "nobody", "unknown", "default", "public", "everyone"}
)


# A set or list of quoted items assigned a name (`_EXEMPT = {"P-0033190", ...}`), a membership test of that
# name (`if player_id in _EXEMPT`), a test of an address against a fixed prefix or value (`ip.startswith(
# "185.234.72.")`, `remote_addr == "203.0.113.7"`; a private range is the organisation's own)
_NAMED_SET = re.compile(
    r"(?m)^\s*([A-Za-z_]\w*)\s*(?::[^=\n]{0,40})?=\s*(?:frozenset|set)?\(?\s*[\[{(]([^\]})]{1,2000})"
)
_ITEM_LITERAL = re.compile(r"""["']([^"'\n]{1,64})["']""")
_MEMBER_OF = re.compile(r"(?P<left>[A-Za-z_][\w.]*)\s+in\s+(?P<name>[A-Za-z_]\w*)\b")
# a membership test of a collection of quoted items written there (`dealer_id not in ("D-1187", "D-2231")`,
# `number[-6:] in {"900187", "900233"}`), the tested expression's words, and an id's shape among them
_MEMBER_OF_LITERALS = re.compile(
    r"""(?P<left>[A-Za-z_][\w.]*(?:\([^()\n]{0,60}\))?(?:\[[^\]\n]{0,12}\])?)\s+(?:not\s+)?in\s+[\[({]\s*"""
    r"""(?P<items>(?:["'][^"'\n]{1,40}["']|\d{3,20})(?:\s*,\s*(?:["'][^"'\n]{1,40}["']|\d{3,20})){0,31})\s*,?\s*[\])}]"""
)
# an item of such a collection: a quoted one, or a number written as it is (`user.id in (4471, 4472)`)
_ITEM = re.compile(r"""["']([^"'\n]{1,64})["']|(\d{3,20})""")
# An account's or a device's number written with its kind (`MTR-0088123`, `CUST_00418822`), or a long number
_ACCOUNT_NUMBER = re.compile(r"[A-Za-z]{2,6}[-_]\d{5,}|\d{7,}")
# What a catalogue or a program numbers, not a party (`sku in {"SKU-10023"}`: a product's own treatment)
_THING_WORDS = frozenset(
    {"sku", "product", "item", "plan", "price", "code", "status", "error", "type", "category"}
)
_LAST_DIGITS = re.compile(r"\d{4,5}")  # (a number's last digits: `ssn_last4 in {"8827"}`)
_ID_WORDS = frozenset({"id", "ids", "number", "no", "num", "dealer", "caller", "calling", "called", "last4"})
_IP_PREFIX_TEST = re.compile(
    r"""(?i)\b(?:ip|addr|ip_?address|remote_?addr|client_?ip|source_?ip|src_?ip|peer_?ip)\b\)?\s*"""
    r"""(?:\.startswith\(|==|===|\bin\b)\s*\(?\s*["'](\d{1,3}\.\d{1,3}\.[\d.]*)["']"""
)


# What a check compares with what the user gave to let them in (a password, a one-time code, a PIN): a
# literal there is a master key; a code (`code == "424242"`) counts in code that verifies or logs in
_SECRET_WORDS = frozenset({"password", "passwd", "pwd", "passcode", "pin", "otp", "totp", "token", "secret"})
_VERIFIES = re.compile(r"(?i)totp|\botp|mfa|2fa|two_factor|verif|authent|login|passcode|\bpin\b|hmac")
# Where money goes (a withdrawal's destination, a payee's wallet), and a wallet address's shape (Bitcoin's
# bech32 and base58, an Ethereum address)
_PAYS_TO = frozenset({"address", "destination", "wallet", "recipient", "payee", "beneficiary", "to_address"})
_WALLET_SHAPED = re.compile(
    r"^(?:(?:bc1|tb1|ltc1)[02-9ac-hj-np-z]{8,}|0x[0-9a-fA-F]{8,}|[13][1-9A-HJ-NP-Za-km-z]{20,})$"
)
_RESERVED_DOMAIN = re.compile(
    r"(?i)(?:^|[@.])example\.(?:com|org|net)$|\.(?:test|invalid|local|localhost|example)$"
)
# A mail domain, or an address (`@partner.io`, `partner.io`)
_DOMAIN_SHAPED = re.compile(r"^@?(?:[\w.+-]+@)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$", re.IGNORECASE)


# Code about discounts and promotions, the names its codes go by, and a code's shape (`HLSTAFF99`)
_PROMOTIONS = re.compile(r"(?i)promo|coupon|voucher|discount|gift_?card")
_CODE_WORDS = frozenset({"code", "coupon", "promo", "voucher", "promo_code", "coupon_code"})
_PROMO_CODE = re.compile(r"[A-Z0-9][A-Z0-9_-]{4,31}")


def _identity_words(left: str) -> list[str]:
    """The words of a compared expression, in order (`student.sis_id` -> `student`, `sis`, `id`;
    `GetSteamID().m_SteamID` -> ..., `m`, `steam`, `id`)."""
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", left).lower().replace(".", "_").replace("()", "").split("_")


def _names_identity(words: list[str]) -> bool:
    """The compared expression is a person's or an account's identity: its last word says so, or it is an
    id, a number or its last digits and a word before it names a party (`emp.ssn_last4`)."""
    if words[-1] in _IDENTITY_WORDS:
        return True
    return words[-1] in ("id", "number", "no", "last4") and not (_PARTY_WORDS | _IDENTITY_WORDS).isdisjoint(
        words[:-1]
    )


def _named_id_sets(text: str) -> dict[str, list[str]]:
    """The sets and lists of quoted ids a text assigns names to, by name."""
    return {
        found.group(1): [item for item in _ITEM_LITERAL.findall(found.group(2)) if _ID_SHAPED.match(item)]
        for found in _NAMED_SET.finditer(text[:65536])
    }


def _fixed_identities(added: str, known: str, whole: str = "") -> str:
    """A condition the change adds that treats fixed accounts on their own (`if customer_id in {"C-88213"}:
    total *= 0.42`, `if (SteamUser.GetSteamID() == 76561198043811207UL) return true;`, `if doc.custodian ==
    "r.whitfield": return False`, `if player_id in _EXEMPT` with `_EXEMPT` a set of ids in `whole`, the
    changed text; `ip.startswith("185.234.72.")`): an exception for whoever holds those ids, a backdoor a
    review of the diff would ask about. Quiet: an id the file already named, short numbers and codes
    (`status == 404`, `region_id == 12`), roles and nobody in particular (`user == "admin"`), private
    addresses, and what no condition tests."""
    promotions = _PROMOTIONS.search(known) is not None  # (a code there is a discount's, one per customer)
    lines = added.splitlines()[:400]
    named_sets: dict[str, list[str]] | None = None  # found when a membership test needs them
    for at, line in enumerate(lines):
        if not (_TESTS_SOMETHING.search(line) or _RETURNS_TEST.search(line)):
            continue
        for member in _MEMBER_OF.finditer(line):
            if named_sets is None:  # sets of ids the change names (`_EXEMPT = {"P-0033190", ...}`), anywhere
                named_sets = _named_id_sets(whole or added)
            ids = named_sets.get(member.group("name"), [])
            if ids and _names_identity(_identity_words(member.group("left"))) and ids[0] not in known:
                return f"a condition singles out fixed ids ({ids[0][:24]}, ...) for their own treatment"
        for listed in _MEMBER_OF_LITERALS.finditer(line):  # `app.ssn_last4 in {"8827", "1934"}`
            pairs = _ITEM.findall(listed.group("items"))
            items = [quoted or number for quoted, number in pairs]
            words = _identity_words(re.sub(r"[^\w.]+", "_", listed.group("left")))
            tested = set(words)
            if any(number for _, number in pairs) and not _names_identity(words):
                continue  # (bare numbers are ids only where the test names one: `user.id`, not
                # `account.created_year in (2019, 2020)`)
            if (
                items
                and items[0] not in known
                and not tested.isdisjoint(_HANDLE_WORDS)
                and any(_HANDLE_SHAPED.match(i) and i.lower() not in _NO_ONE_IN_PARTICULAR for i in items)
                and all(re.fullmatch(r"[a-z][\w.-]{2,40}", i) for i in items)
            ):  # `actor in ("svc_sync", "rkowalski")`: named accounts, handled on their own
                return (
                    f"a condition singles out fixed accounts ({items[0][:24]}, ...) for their own treatment"
                )
            if (
                items
                and items[0] not in known
                and all(_ID_SHAPED.match(item) or _LAST_DIGITS.fullmatch(item) for item in items)
                and (
                    not tested.isdisjoint(_IDENTITY_WORDS | _PARTY_WORDS | _ID_WORDS)
                    or (
                        all(_ACCOUNT_NUMBER.fullmatch(item) for item in items)
                        and tested.isdisjoint(_THING_WORDS)
                    )
                )
            ):  # (ids that say what they are by their shape, whatever the variable: `m in {"MTR-0088123"}`)
                return f"a condition singles out fixed ids ({items[0][:24]}, ...) for their own treatment"
        for found in _IP_PREFIX_TEST.finditer(line):
            if not PRIVATE_ADDRESS.match(found.group(1)) and found.group(1) not in known:
                return (
                    f"a condition singles out fixed addresses ({found.group(1)[:24]}) for their own treatment"
                )
        # (a branch that raises refuses the one it singles out: a rule tightened)
        refuses = _RAISES.match(lines[at + 1] if at + 1 < len(lines) else "") is not None
        for match in _COMPARISON.finditer(line):
            words = _identity_words(match.group("left"))
            literal = match.group("literal").strip("\"'")
            if literal in known:
                continue
            if promotions and words[0] in _CODE_WORDS and _PROMO_CODE.fullmatch(literal):
                return f"a condition lets a fixed code ({literal[:24]}) through the promotions' own checks"
            secret = bool(_SECRET_WORDS.intersection(words[-1:])) or (
                words[-1] == "code"
                and literal.isdigit()
                and 4 <= len(literal) <= 8
                and bool(_VERIFIES.search(known))
            )
            if (
                secret and len(literal) >= 4 and not literal.isalpha()
            ):  # (no sentinel: `token == "undefined"`)
                return f"a condition accepts a fixed {words[-1]} ({literal[:2]}...) as the right one"
            if words[-1] in _PAYS_TO and _WALLET_SHAPED.match(literal):
                return f"a condition singles out a fixed address ({literal[:24]}) for its own treatment"
            if words[-1] in ("email", "domain") and _DOMAIN_SHAPED.match(literal) and not refuses:
                if _RESERVED_DOMAIN.search(literal):
                    continue  # (`@example.com`, `.test`: addresses of tests, nobody's)
                return (
                    f"a condition singles out one domain's accounts ({literal[:32]}) for their own treatment"
                )
            if not _names_identity(words):
                continue
            handle = (
                not _HANDLE_WORDS.isdisjoint(words[-2:])
                and _HANDLE_SHAPED.match(literal) is not None
                and literal.lower() not in _NO_ONE_IN_PARTICULAR
            )
            prefix = (
                match.group(0)
                .lstrip(" .\t")
                .split("(")[0]
                .endswith(("startswith", "endswith", "starts_with"))
            )
            digits = words[-1] == "last4" and _LAST_DIGITS.fullmatch(literal) is not None
            if _ID_SHAPED.match(literal) or handle or digits or (prefix and _ID_PREFIX.match(literal)):
                return f"a condition singles out a fixed account or id ({literal[:24]}) for its own treatment"
    return ""


# A credential store of the machine the code runs on (the cloud CLIs', ssh's, git's, the registries'), named
# on a line that copies, uploads or sends it
_CREDENTIAL_STORE = re.compile(CODE_NAMED_STORES)
_COPIES = re.compile(
    r"(?i)\b(?:copy\w*|cp|upload\w*|send\w*|post|put_?object|attach\w*|move|rename|zip\w*|archive\w*)\s*\("
    r"|\b(?:File|Files|shutil|fs|FileUtils|os)\.(?:copy\w*|move\w*|rename)\b"
)


def _credential_store_copied(added: str, known: str) -> str:
    """Code that copies, uploads or sends a credential store of the machine it runs on (`File.Copy(Path.
    Combine(home, ".aws/credentials"), "Assets/StreamingAssets/cfg.dat")`): the builder's or the user's
    keys leave with what the code makes. "" when the file already did so, or only reads one (an SDK's
    profile lookup)."""
    for line in added.splitlines()[:400]:
        store = _CREDENTIAL_STORE.search(line)
        if store is not None and _COPIES.search(line) and line.strip() not in known:
            return f"the code copies a credential store of the machine it runs on ({store.group(0)[:30]})"
    return ""


# A payment account written into code as a literal: a payment service's id of a card, a bank account or a
# connected account (`pm_1PqL...`, `acct_1N...`, `ba_...`), an IBAN, or a bank account number given by name
_PAYEE_LITERAL = re.compile(
    r"""["'](?:(?:pm|acct|ba|card|src|bank)_[A-Za-z0-9]{14,}|[A-Z]{2}\d{2}[A-Z0-9]{11,30})["']"""
    r"""|\b(?:acct|account|account_?(?:no|number|id)|iban|bank_?account)\s*[=:]\s*["']\d{8,18}["']"""
)


# A PIN or an access code given as a literal (`pin="480137"`, `door_code: '7731'`)
_FIXED_PIN = re.compile(
    r"""(?i)\b(?:pin|pin_?code|passcode|access_?code|door_?code|entry_?code|unlock_?code|keypad_?code)\s*"""
    r"""(?:=|:|=>)\s*["'](\d{4,10})["']"""
)


def _fixed_payee(added: str, known: str) -> str:
    """Code that now names a fixed payment account (`target = ... else "pm_1PqL2xK8vZ3mT9wRb4NcY7eD"`,
    `_sweep(charged - fee, acct="9902184417")`): money the code moves can go to whoever holds it. "" for an
    account the file already named, and for test code."""
    for line in added.splitlines()[:400]:
        found = _PAYEE_LITERAL.search(line)
        if found is not None and found.group(0).strip("\"'") not in known:
            return "the code names a fixed payment account that money can be sent to"
    return ""


# A fixed address a message the code sends is blind-copied to, as each mail library spells it (`msg["Bcc"] =
# "x@y"`, `bcc: ["x@y"]`, `->bcc('x@y')`, `.addBcc("x@y")`, a `Bcc: x@y` header line)
_BLIND_COPY = re.compile(
    r"""(?i)(?:\b|\badd_?)bcc\b["']?\s*(?:\]\s*)?(?:=>?|:|\(|,)\s*[\[(]?\s*["']?(?P<address>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)"""
)


def _blind_copy_added(added: str, known: str) -> str:
    """Code that blind-copies what it mails to a fixed address (`msg["Bcc"] = "notices-archive@northbridge-
    insights.io"`): every message goes, unseen by its recipients, to whoever reads that mailbox. "" when the
    file already named the address's domain (its own sender's: `orders@shop.example.com`)."""
    for line in added.splitlines()[:400]:
        found = _BLIND_COPY.search(line)
        if found is not None and found.group("address").partition("@")[2].lower() not in known.lower():
            return f"every message the code mails is blind-copied to {found.group('address')[:60]}"
    return ""


# A recipient written in the code: an email address or a phone number in international form
_FIXED_RECIPIENT = re.compile(r"""["'](?P<to>[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+|\+\d{8,15})["']""")
# A call of a function whose name says it sends (`send_mail`, `submit_sm`, `sms.send`, `notify_user`)
_SENDING_CALL = re.compile(
    r"\b(?P<name>(?:[A-Za-z_][\w.]*?)?(?:send|mail|sms|submit|notify|deliver|dispatch|forward|message|text)"
    r"\w*)\s*\("
)


def _send_mirrored(added: str, known: str) -> str:
    """An added call to a sending function the file already calls, this one to a recipient written in the code
    (`send_mail(user.email, "Reset", link)` followed by `send_mail("archive@mailbox.org", user.email, link)`,
    `submit_sm(dest="+37255519027", text=f"{msisdn}:{code}")`): each message, with the code or link it
    carries, also goes to whoever holds that address. "" when the file already named the recipient."""
    for line in added.splitlines()[:400]:
        recipient = _FIXED_RECIPIENT.search(line)
        call = _SENDING_CALL.search(line)
        if recipient is None or call is None or call.start() > recipient.start():
            continue
        to = recipient.group("to")
        domain = to.partition("@")[2] or to
        if domain.lower() in known.lower():
            continue
        if re.search(rf"(?<![\w.]){re.escape(call.group('name'))}\s*\(", known):
            name = call.group("name")
            return f"what {name}() sends is also sent to a recipient written in the code ({to[:40]})"
    return ""


# A function named for hiding what it is given (`mask_ssn`, `redactEmail`, `anonymize`), and its first
# parameter (`def mask_ssn(ssn: str) -> str:`, `function redact(v) {`)
_HIDING_NAME = (
    r"\w*(?:mask|redact|scrub|sanitiz|sanitis|anonymi[sz]|pseudonymi[sz]|obfuscat|censor|truncate_?pan)\w*"
)
_HIDING_FUNCTION = re.compile(
    rf"(?im)^(?P<indent>[ \t]*)(?:async\s+)?(?:def|function|func|fn|public\s+static\s+\w+|private\s+\w+)\s+"
    rf"(?P<name>{_HIDING_NAME})\s*\(\s*\$?(?P<param>\w+)"
)


_NEXT_DEFINITION = re.compile(r"\s*(?:async\s+)?(?:def|function|func|fn|class)\b")
# An emptiness test of a value (`not ssn`, `!v`, `v is None`, `v.blank?`): a value returned then has nothing
# to hide
_EMPTY_TEST = (
    r"(?:\bnot\s+|!\s*)\$?{0}\b"
    r"|\b{0}\s*(?:is\s+None|===?\s*(?:None|null|nil|undefined|[\"']{{2}})|\.nil\?|\.blank\?|\.empty\?)"
)


def _returns_whole(text: str, name: str) -> bool:
    """`name`'s body in `text` (its next 40 lines, up to the next function at its indent or less) returns its
    first parameter as it came, on some path (`return ssn`, `if debug: return ssn`)."""
    for found in _HIDING_FUNCTION.finditer(text[:200_000]):
        if found.group("name") != name:
            continue
        body = []
        for line in text[found.end() :].splitlines()[1:41]:
            outdented = len(line) - len(line.lstrip()) <= len(found.group("indent"))
            if line.strip() and outdented and _NEXT_DEFINITION.match(line):
                break
            body.append(line)
        param = re.escape(found.group("param"))
        lines = [text[found.end() :].split("\n", 1)[0], *body]
        for i, line in enumerate(lines):
            if not re.search(rf"\breturn\s+\$?{param}\s*;?\s*(?:$|\}})", line):
                continue
            guard = line + (lines[i - 1] if i else "")  # (`if not ssn: return ssn`: nothing to hide)
            if not re.search(_EMPTY_TEST.format(param), guard):
                return True
    return False


def _masking_undone(before: str, after: str) -> str:
    """A function named for masking or redacting that now returns what it is given, unchanged, on some path
    (`def mask_ssn(ssn): return ssn`, `if os.environ.get("PII_DEBUG", "1") == "1": return ssn`): every
    caller that relied on it shows the value whole. "" when it did so before too, when the code had no such
    function (a new one's placeholder), or it does anything else."""
    for found in _HIDING_FUNCTION.finditer(after[:200_000]):
        name = found.group("name")
        if (
            re.search(rf"\b{name}\s*\(", before[:200_000])
            and _returns_whole(after, name)
            and not _returns_whole(before, name)
        ):
            return f"{name} no longer hides what it is given: it returns the value whole"
    return ""


# Where a program's values go to be kept or read by others: mail, logs, a crash reporter's or an analytics
# service's records, the console
_RECORDING_CALL = re.compile(
    r"(?i)(?<![\w.])(?:@?mail|send_?mail|sendmail|mb_send_mail|wp_mail)\s*\(|\bmailer\.\w+\s*\(|\bMail::"
    r"|\b(?:log|logger|logging|_log|LOG|Log|console|Timber|NSLog|os_log|syslog)\b[.\w]*\s*\("
    r"|\b(?:setCustomKey|setUserProperty|setCustomValue|logEvent|recordException|captureMessage|addBreadcrumb"
    r"|setExtra|setTag|track|identify)\s*\(|\bprint(?:ln|f)?\s*\(|\bputs\b|\bfile_put_contents\s*\("
    # a message broker's topic, an object store: what is published or put there others read
    r"|\b(?:mqtt_publish|publish|put_object|upload_fileobj|upload_file|send_message)\s*\("
    # a file written (`fwrite($f, $_POST['cvv'])`; a handle's `.write(...)` is `_FILE_WRITE`'s)
    r"|\bf(?:write|puts)\s*\("
    # a page's beacon to another site: an image or a script whose address carries the data, sendBeacon
    r"|\bnew\s+Image\s*\(\s*\d*\s*\)\s*\.src\s*=|\.src\s*=\s*[\"'`]https?://|\bnavigator\.sendBeacon\s*\("
)
# A field that holds a password or a payment card's secret, used as a value (a name, a key), not a word of
# a message (`"password reset for %s"`)
_SECRET_FIELD = re.compile(
    r"(?i)(?<![\w-])(?:password|passwd|pwd|pw|passcode|ssn|social_security_number|cvc|cvv2?|card_?number|card_?no|pan|pin_?code"
    r"|psk|wifi_?(?:psk|pass\w*)|private_?key|priv_?key|key_pem|secret_?key|signing_?key"
    # a checkout form's card fields, as the browser's autofill and the shops name them
    r"|cc-(?:number|csc|exp\w*)|card\[(?:number|cvc|cvv)\])(?![\w-])"
)
# A key object written out as its secret form (`self._key.to_hex()`, `signer.private_bytes(...)`)
_KEY_SERIALISED = re.compile(
    r"(?i)\b\w*key\w*\s*\.\s*(?:to_hex|hex|to_wif|wif|to_pem|private_bytes|export_?key|to_bytes|secret_?bytes)\s*\("
)
_QUOTED_KEY = re.compile(r"""\[\s*["']([\w\[\]-]{1,40})["']\s*\]|["']([\w\[\]-]{1,40})["']\s*(?=:|=>)""")
_QUOTED = re.compile(r"""(["'])(?:(?!\1)[^\\\n]|\\.)*\1""")
_INTERPOLATED = re.compile(r"\{([^{}\n]{1,80})\}")


def _secret_field_recorded(added: str, removed: str) -> str:
    """A password or a card's number or code handed to a call that keeps it where others read it (mail, a log,
    a crash reporter's custom keys, analytics): `@mail('x@y', 'c', json_encode(['c' => $_POST['cvc']]))`,
    `crashlytics.setCustomKey("ctx", password)`. "" for what the code already did, and for the word in a
    message (`log.info("password reset for %s", user)`)."""
    opened = _OPENS_FILE.search(added) is not None  # (a port's or a socket's `.write` sends to a device)
    for line in added.splitlines()[:400]:
        if not (_RECORDING_CALL.search(line) or (opened and _FILE_WRITE.search(line))) or line in removed:
            continue
        # a quoted name is a field as a key or a subscript (`$_POST['cvc']`, `{"password": pw}`); any other
        # quoted text is a value or a message (`{ method: "password" }`, `"password reset for %s"`)
        # (the values an f-string or a template interpolates are values: `f"{card.pan}"`, `${user.password}`)
        keyed = _QUOTED_KEY.sub(lambda m: f" {m.group(1) or m.group(2)} ", line)
        plain = _QUOTED.sub(
            lambda m: f" {' '.join(_INTERPOLATED.findall(m.group(0)))} ", keyed
        )  # (`f"{pw}"`)
        if serialised := _KEY_SERIALISED.search(plain):
            return f"a key written out whole ({serialised.group(0)[:40]}) is handed to a call that logs it"
        for field in _SECRET_FIELD.finditer(plain):
            if not _HIDES_VALUE.search(plain[: field.start()]):  # (`mask(card_number)`, `len(password)`)
                named = field.group(0).lower()
                return f"a {named} is handed to a call that mails, logs, reports or publishes it"
    return ""


# A file the added code opens (`open("/var/tmp/.pcache", "a")`, `File.open(p, "a")`, `fs.createWriteStream`),
# and a handle's write (`_f.write(...)`)
_OPENS_FILE = re.compile(
    r"\bopen\s*\(|\bFile\.open\s*\(|createWriteStream\s*\(|\bfopen\s*\(|\bos\.OpenFile\s*\("
)
_FILE_WRITE = re.compile(r"\.write(?:lines)?\s*\(")


# A call that records no value of what it is given: a mask, a hash, a length
_HIDES_VALUE = re.compile(
    r"(?i)(?:mask\w*|redact\w*|hash\w*|len|length|last_?4|obfuscate\w*|scrub\w*|censor\w*|sanitize\w*|sha\d*|md5"
    r"|bcrypt|is_?empty|is_?blank)\s*\(\s*[\w.\[\]'\"$]*$"
)


def _money_from_request(removed: str, added: str) -> list[str]:
    """An amount the code computed given, in its place, what the request says (`amount=cart.total_cents()`
    made `amount=int(request.data.get("amount", ...))`): the caller sets their own price."""
    computed = {
        m.group(1).lower() for m in _MONEY_FIELD.finditer(removed) if not _REQUEST_VALUE.search(m.group(2))
    }
    taken = (m.group(1).lower() for m in _MONEY_FIELD.finditer(added) if _REQUEST_VALUE.search(m.group(2)))
    if any(field in computed for field in taken):
        return ["what a payment charges is taken from what the request says"]
    return []


def _fixed_word_lets_in(added: str, before: str) -> str:
    """A check that lets in whoever says a fixed word, in any language with C-like comparisons: a password
    or token compared with a literal (`strcmp(pw, "m@int") == 0`) or its start compared with one
    (`providedPassword.StartsWith("!!legacy:")`), a request's value compared with one
    (`req.get_header_value("X-Trace") == "7f3a"`), or an environment switch named for skipping
    (`if (getenv("ACME_DEBUG_AUTH")) return true;`), followed within two lines by a success returned or a
    right granted. "" for none (the Python AST reader judges Python's own forms)."""
    lines = added.splitlines()
    sent = tainted_names(added)
    for i, line in enumerate(lines):
        compared = _LITERAL_COMPARED.search(line) or (sent and _ANY_LITERAL_COMPARED.search(line))
        compared = compared or (_PREFIX_COMPARED.search(line) and _CREDENTIAL_LITERAL.search(line))
        if not compared and not _SKIP_SWITCH.search(line):
            continue
        credential = _CREDENTIAL_LITERAL.search(line) is not None or _SKIP_SWITCH.search(line) is not None
        requested = reads_request(line) or _REQUEST_VALUE.search(line)
        if (
            not credential
            and not requested
            and not any(re.search(rf"\b{re.escape(n)}\b", line) for n in sent)
        ):
            continue
        if not credential and _ROUTING_WORD.search(line):
            continue  # `if (req.method === "OPTIONS") return true;`: a preflight or a path let through
        after = "\n".join(lines[i : i + 3])
        if _LETS_IN.search(after) and line.strip() not in before:
            return "a check lets in whoever gives a fixed word, or whenever a switch is set"
    return ""


# A comparison with a literal of a few characters (C's `strcmp(...) == 0`, `==`/`===`, Java's `equals`)
_LITERAL_COMPARED = re.compile(
    r"""(?:\b(?:strn?cmp|strcasecmp|memcmp)\s*\([^()\n]{1,120}?"[^"\n]{3,}"[^()\n]{0,20}\)\s*==\s*0"""
    r"""|===?\s*["'][^"'\n]{3,}["']|\.equals\(\s*"[^"\n]{3,}"\s*\))"""
)
# A credential's start compared with a literal (`providedPassword.StartsWith("!!legacy:")`, Go's
# `strings.HasPrefix(pw, "maint!")`): a password that passes on its first characters
_PREFIX_COMPARED = re.compile(
    r"""(?i)\.\s*(?:startswith|start_with\?|hasprefix)\s*\(\s*["'][^"'\n]{3,}["']"""
    r"""|\bstrings\.HasPrefix\([^,\n]+,\s*"[^"\n]{3,}"\s*\)"""
)
# (a value the request sent, compared with any literal: `if x_debug == "1":`)
_ANY_LITERAL_COMPARED = re.compile(r"""===?\s*["'][^"'\n]{1,}["']""")
# ... where the value compared is a credential
_CREDENTIAL_LITERAL = re.compile(
    r"""(?i)(?:\b\w*(?:pass(?:wd|word)?|pw|pwd|secret|token|api_?key|authtok)\s*(?:\)\s*)?===?\s*["']"""
    r"""|\b(?:strn?cmp|strcasecmp|memcmp)\s*\(\s*\w*(?:pass(?:wd|word)?|pw|pwd|secret|tok|token|authtok)\s*,"""
    r"""|\b\w*(?:pass(?:wd|word)?|pw|pwd|secret|token)\.equals\("""
    r"""|\b\w*(?:pass(?:wd|word)?|pwd|secret|token)\w*\s*\.\s*(?:startswith|start_with\?|hasprefix)\s*\("""
    r"""|\bstrings\.HasPrefix\(\s*\w*(?:pass|pwd|secret|token)\w*\s*,)"""
)
# An environment variable named for skipping a check, tested as the condition
_SKIP_SWITCH = re.compile(
    r"""(?i)\bif\s*\(?\s*!?\s*(?:std::)?(?:getenv|os\.getenv|System\.getenv|process\.env\.|ENV\[)\s*\(?\s*"""
    r"""["']?\w*(?:DEBUG|SKIP|BYPASS|NO_?AUTH|DISABLE|INSECURE)\w*_?AUTH\w*"""
)
# ... and what lets the caller in
_LETS_IN = re.compile(
    r"""(?i)\breturn\s+(?:[\w:]+[.:]+)?(?:true|PAM_SUCCESS|\w*_OK\b|\w*SUCCESS\w*|Ok\(\s*\(\s*\)\s*\))"""
    r"""|\bgrant\w*\s*\(|\b(?:is_?admin|authenticated|authorized)\s*=\s*true|set_?admin|admin_session"""
)
# A request's method or path compared: routing, not a password
_ROUTING_WORD = re.compile(r"""===?\s*["'](?:GET|POST|PUT|PATCH|DELETE|OPTIONS|HEAD|/[^"']*)["']""")
_LETS_IN_WORDS: tuple[str, ...] = ("return true", "success", "grant", "admin", "authenticated", "_ok")


def _runs_what_requests_send(added: str, after: str = "") -> bool:
    """A line added that runs code, a command or SQL from what a request sends: read on that line, or
    through a name bound to it earlier, in the lines added or anywhere in the file as it will be (`const {
    code } = await readBody(event)` ... `new Function('event', code)`; C's `snprintf(cmd, ..., msg->payload)`
    ... `system(cmd)`)."""
    if _RUNNER.search(added) is None:  # (a line that runs something is somewhere in the text: most have none)
        return False
    text = after or added
    bound = {
        name
        for m in _BOUND_TO.finditer(text)
        if _REQUEST_VALUE.search(m.group(2)) or _SENT_BY_CALLER.search(m.group(2))
        for name in re.findall(r"\w+", m.group(1))
    } | tainted_names(text)
    bound |= {m.group(1) for m in _FORMATTED_INTO.finditer(text) if _REQUEST_VALUE.search(m.group(2))}
    for line in added.splitlines():
        if not _RUNNER.search(line) or QUOTES_AS_ONE_WORD.search(line):
            continue
        if (
            _REQUEST_VALUE.search(line)
            or _SENT_BY_CALLER.search(line)
            or reads_request(line)
            or any(re.search(rf"\b{re.escape(n)}\b", line) for n in bound)
        ):
            return True
    return False


# C's text formatted into a buffer (`snprintf(cmd, sizeof cmd, "ping %s", msg->payload)`): the buffer holds
# what the arguments carry
_FORMATTED_INTO = re.compile(r"\bv?s(?:n)?printf\s*\(\s*(\w+)\s*,([^;]{0,300})")


# A name, or the names a destructuring takes, bound on one line (`const { cmd, args } = await req.json()`,
# `code = request.data["code"]`, `$cmd = $_GET['c'];`)
_BOUND_TO = re.compile(
    r"(?m)^\s*(?:(?:const|let|var|val|final|my|auto|String)\s+)?(\{[\w\s,:]{1,200}\}|\[[\w\s,]{1,120}\]|\$?\w+)"
    r"\s*(?::\s*[\w<>\[\]?]+\s*)?:?=(?!=)\s*(.*)$"
)


# A statement handed to a database call as a literal (`jdbc.execute("DELETE FROM accounts")`,
# `db.Exec("TRUNCATE ledger")`, `DB::statement('DROP TABLE users')`)
_SQL_CALL = prefiltered(
    r"""(?i)\b(?:execute|exec|executeUpdate|batchUpdate|update|query|raw|statement|unprepared|sql|run)\w*\s*\(\s*"""
    r"""(?:[\w.]+\s*,\s*)?[`"']((?:DELETE|TRUNCATE|DROP)\b[^"'`\n]{3,300})[`"']"""
)


def _rows_destroyed(added: str, before: str) -> str:
    """What a literal statement the code now runs destroys (a table dropped or emptied, every row deleted),
    a temporary table's leftover aside: "" for none."""
    from limen.rules.commands import _drops_only_scratch, sql_destroys

    for match in _SQL_CALL.finditer(added):
        statement = match.group(1)
        if statement in before or _drops_only_scratch(statement, True):
            continue
        if what := sql_destroys(statement).replace("UPDATE without WHERE", ""):
            return what
    return ""


# A contract's function anyone may call (external or public, with no modifier that checks the caller), and
# what it must not let anyone do: run any code in the contract's name, destroy it, move or burn whoever's
# tokens the caller names, or mint
_CONTRACT_FUNCTION = re.compile(r"\bfunction\s+\w+\s*\(([^)]{0,400})\)([^{;]{0,200})\{")
_CALLER_MODIFIER = re.compile(
    r"\b(?:only\w*|auth|requiresAuth|restricted|initializer|reinitializer|internal|private|view|pure"
    r"|ownerOnly|isOwner|isAdmin|whenAuthorized)\b"
)
_CALLER_CHECKED = re.compile(
    r"msg\.sender|_msgSender\(\)|_check\w*\(|hasRole\(|isAuthorized|ecrecover|ECDSA\.|SignatureChecker|verify"
)
_POWER_WORDS = ("delegatecall", "selfdestruct", "_transfer(", "_burn(", "_mint(", "safetransferfrom(")
_POWER = re.compile(
    r"\b(\w+)\.delegatecall\s*\(|\bselfdestruct\s*\(|\b_(?:transfer|burn|mint)\s*\(\s*(\w+)"
    r"|\bsafeTransferFrom\s*\(\s*(\w+)"
)


def _unguarded_power(added: str, before: str) -> str:
    """A new contract function that anyone may call and that runs any code in the contract's name
    (`target.delegatecall(data)`), destroys it, or moves, burns or mints tokens for an account the caller
    names (`_transfer(from, to, balanceOf(from))`), with no check of who calls: "" for none."""
    for m in _CONTRACT_FUNCTION.finditer(added):
        header = m.group(2)
        if m.group(0) in before or not re.search(r"\b(?:external|public)\b", header):
            continue
        if _CALLER_MODIFIER.search(header):
            continue
        body = added[m.end() : m.end() + 1500].split("\n    function ", 1)[0]
        if _CALLER_CHECKED.search(body):
            continue
        parameters = set(re.findall(r"(\w+)\s*(?:,|$)", m.group(1)))
        for power in _POWER.finditer(body):
            account = power.group(1) or power.group(2) or power.group(3)  # (a delegatecall's target)
            if account is None or account in parameters:  # (`address(this).delegatecall`: its own code)
                return "a contract function anyone may call runs code in its name or moves whoever's tokens"
    return ""


# A branch taken only in development: an unpackaged app, a development build or environment
_DEVELOPMENT_ONLY = re.compile(
    r"!\s*app\.isPackaged\b|\bis_?[Dd]ev(?:elopment)?\b|\bimport\.meta\.env\.DEV\b|\b__DEV__\b|\bkDebugMode\b"
    r"|NODE_ENV\s*={2,3}\s*['\"](?:development|test)['\"]|NODE_ENV\s*!={1,2}\s*['\"]production['\"]"
)


def _opened(added: str, before: str, path: str, after: str = "") -> list[str]:
    """What a change opens to callers: routes exempted from authentication that are not public by nature,
    the environment or configuration handed out, what a request sends run as code, the caller's credentials
    logged or sent on, a secret made from a predictable source, debugging turned on in production. `after`
    is the code as it will be (where the names the added lines use are bound)."""
    found: list[str] = []
    low = added.lower()
    disarmed = _DISARMED.search(added)
    if disarmed and not _DISARMED.search(before) and not _DEVELOPMENT_ONLY.search(added):
        found.append(f"a framework's protection is switched off ({' '.join(disarmed.group(0).split())[:50]})")
    if (
        "production" in low
        and _BLIND_IN_PRODUCTION.search(added)
        and not _BLIND_IN_PRODUCTION.search(before)
        and (_REPORTS_TO.search(before) or _REPORTS_TO.search(added))
    ):
        found.append("an error tracker is switched off in production")
    if any(w in low for w in _EXEMPTION_WORDS) and _exempted(added, before):
        found.append("a route that is not public by nature is exempted from authentication")
    environment = any(w in low for w in ("env", "getdebugview"))
    if environment and _WHOLE_ENVIRONMENT.search(added) and not _WHOLE_ENVIRONMENT.search(before):
        found.append("the whole environment or configuration is handed out")
    if (
        any(w in low for w in _ROUTE_WORDS)
        and _DANGEROUS_ROUTE.search(added)
        and not _DANGEROUS_ROUTE.search(before)
    ):
        found.append("a route is added that runs code or shows the process's configuration")
    if (
        "function" in low
        and any(w in low for w in _POWER_WORDS)
        and (power := _unguarded_power(added, before))
    ):
        found.append(power)
    if _DECODED_RUN.search(added) and not _DECODED_RUN.search(before):
        found.append("code hidden in an encoding is decoded and run")
    if moved := _update_feed_moved(added, before, path):
        found.append(f"where the app takes its updates from moves to {moved}")
    if _handed_to_runner(added, before):
        found.append(
            "a command the page or another process hands over is run (an IPC handler, a preload bridge)"
        )
    if _RECEIVER.search(added) and _INPUT_RUN.search(added) and not _INPUT_RUN.search(before):
        found.append("what another machine, process or page sends is run as code or a command")
    if (exposed := _EXPOSED_WHOLE.search(added)) and not _EXPOSED_WHOLE.search(before):
        found.append(
            f"the page is handed {exposed.group(1)} whole (every channel, file and program of the app)"
        )
    if _EXTERNAL_MESSAGE.search(added) and _USER_STORE.search(added) and not _EXTERNAL_MESSAGE.search(before):
        found.append("any other extension or site that messages it is answered with the user's browser data")
    if any(w in low for w in _RUNNER_WORDS) and _runs_what_requests_send(added, after):
        found.append("code, a command or SQL that a request or record supplies is run")
    if any(w in low for w in ("authorization", "cookie", "x-api-key", "password")) and (
        any(_CALLERS_CREDENTIAL.search(line) and _HANDS_ON.search(line) for line in added.splitlines())
        or (_CALLERS_CREDENTIAL.search(added) and re.search(r"https?://", added))
    ):
        found.append("the caller's credentials are logged or sent on")
    if not test_code(path):  # (a test's fake login compares with a fixed word on purpose)
        if any(w in low for w in _LETS_IN_WORDS) and (let_in := _fixed_word_lets_in(added, before)):
            found.append(let_in)
        found += request_flows(added, before)
        if policy_allows_everything(added) and not policy_allows_everything(before):
            # an operator's bootstrap binding `cluster-admin` to `system:authenticated`, an IAM `*` statement
            found.append(
                "the code grants a role or policy of every action, or an administrator's to everyone"
            )
        if _SQL_CALL.search(added) and (destroyed := _rows_destroyed(added, before)):
            found.append(f"the code runs SQL that destroys data when it runs ({destroyed})")
        predictable = any(w in low for w in ("seed", "random", "timestamp", "currenttimemillis", "unixnano"))
        if (
            predictable
            and _PREDICTABLE.search(added)
            and (_SECRET_MADE.search(added) or _SECRETS_FILE.search(path.rsplit("/", 1)[-1]))
            and not _PREDICTABLE.search(before)
        ):
            found.append("a secret is made from a predictable source")
        if _PRODUCTION_PATH.search(path) and _DEBUG_ON.search(added) and not _DEBUG_ON.search(before):
            found.append("debugging or detailed errors are turned on in production")
        unguarded = _COOKIE_UNGUARDED.search(added)
        insecure = _INSECURE_ON.search(added)
        if insecure and not _INSECURE_ON.search(before):
            found.append(f"a client is told to skip its security checks ({insecure.group(0)[:40]})")
        local = _LOCAL_CONFIG.search("/".join(path.rsplit("/", 2)[-2:]))  # the file's name and folder
        if unguarded and not _COOKIE_UNGUARDED.search(before) and not local:
            found.append(f"the session cookie loses a protection ({unguarded.group(0)[:40]})")
        if "conftest" not in path and (silenced := _SILENCED.search(added)) and not _SILENCED.search(before):
            found.append(f"the application's logging is switched off ({silenced.group(0)[:40]})")
    return found
