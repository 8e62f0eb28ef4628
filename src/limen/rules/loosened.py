"""Program code made looser by a small edit, in any language: read line against line, the way a reviewer
reads a diff, with no grammar (`limen.rules.code_changes` calls these for each changed block).

- a check's conditions joined by "or" where they were joined by "and" (`SecTrustEvaluate(t), pin(t)` made
  `SecTrustEvaluate(t) || pin(t)`, `user.verified && owns` made `user.verified || owns`): either half now
  lets the caller through;
- a server that listened on this machine only made to listen on every interface (`("127.0.0.1", 9999)`
  made `("0.0.0.0", 9999)`, `"localhost:6060"` made `":6060"`);
- a credential compared with a word written in the code (`strcmp(pin, "7319") == 0`, `password ==
  "Support#2024"`, `"x".equals(token)`): whoever reads the code, or the binary, holds it;
- a request let through on a header's fixed value, where the code checks callers (`if
  ("1".equals(req.getHeader("X-Internal"))) return;`, Rego's `allow if input.headers["x-o"] == "s"`);
- bytes the code receives made into objects of any class they name (`pickle.loads(msg["data"])`, also
  spelt `__import__("pickle").loads`), where the code made none before;
- a value the code computes run as code, or a command built from data where it is run (`eval(String(x))`,
  `popen(json_get(root, "arg"))`, `os.system("ping " + host)`), where the code ran none before.

Each reads the edit's removed and added lines only: what the file already held is the project's own."""

from __future__ import annotations

import re

from limen.prefilter import prefiltered

# Words of a line that decides who or what is let through
_CHECK_WORDS = re.compile(
    r"(?i)verif|valid|auth|trust|pin|permi|allow|owner|signature|token|admin|role|scope|grant|access|secur"
    r"|check|password|credential|consent|policy|acl"
)
_AND = re.compile(r"&&|\band\b")
_SWIFT_CONDITION = re.compile(r"^\s*(?:\}\s*else\s+)?(?:if|guard|while)\b")


def _spaced(text: str) -> str:
    return " ".join(text.split())


def _or_for_and(removed: str, added: str) -> bool:
    """`added` is `removed` with one or more of its "and"s (`&&`, `and`, a Swift condition's comma) made
    "or"s, and nothing else changed."""
    if not _CHECK_WORDS.search(removed):
        return False
    joined = _AND.sub(lambda m: "||" if m.group(0) == "&&" else "or", removed)
    if _SWIFT_CONDITION.match(removed):
        joined = _outer_commas_joined(joined)
    return joined != removed and _spaced(joined) == _spaced(added)


def _outer_commas_joined(line: str) -> str:
    """A Swift condition's clauses (`if a(t, nil), b(t) {`) joined by `||` at their own level, the commas
    of calls inside them kept."""
    depth, out = 0, []
    for char in line:
        depth += char in "([{"
        depth -= char in ")]}"
        out.append(" ||" if char == "," and depth == 0 else char)
    return "".join(out)


_LOOPBACK = re.compile(r"""(["'])(127\.0\.0\.1|localhost|::1|\[::1\])(:\d{1,5})?\1""")
_EVERY_INTERFACE = ("0.0.0.0", "::", "", "*", "[::]")
_LISTENS = re.compile(r"(?i)listen|bind|serve|server|host|addr")


def _loopback_opened(removed: str, added: str) -> bool:
    """`added` is `removed` with a loopback address a server listens on made every interface's."""
    if not _LISTENS.search(removed):
        return False
    for found in _LOOPBACK.finditer(removed):
        quote, port = found.group(1), found.group(3) or ""
        for anywhere in _EVERY_INTERFACE:
            opened = removed[: found.start()] + quote + anywhere + port + quote + removed[found.end() :]
            if (anywhere or port) and _spaced(opened) == _spaced(added):
                return True
    return False


# A name for what proves who someone is, as the last word of an identifier (`pin`, `cfgPassword`, `api_key`)
_CREDENTIAL_WORD = re.compile(r"(?i)(?:pin|pin_?code|pass(?:word|wd|code|phrase)|secret|token|api_?key|otp)$")
_IDENTIFIER = r"[A-Za-z_][\w.]{0,60}(?:\(\))?"
_LITERAL = r"""["']([^"'\s]{3,64})["']"""
# A comparison of a name with a literal word, each way round, and the comparing calls: (pattern, the name's
# group, the word's group)
_COMPARISONS = (
    (re.compile(rf"\b({_IDENTIFIER})\s*(?:===?|\.[Ee]quals\()\s*{_LITERAL}"), 1, 2),
    (re.compile(rf"{_LITERAL}\s*(?:===?|\.[Ee]quals\()\s*({_IDENTIFIER})"), 2, 1),
    (
        re.compile(
            rf"\b(?:strn?cmp|strcasecmp|compare_digest|timingSafeEqual)\s*\(\s*({_IDENTIFIER})\s*,\s*{_LITERAL}"
        ),
        1,
        2,
    ),
    (
        re.compile(
            rf"\b(?:strn?cmp|strcasecmp|compare_digest|timingSafeEqual)\s*\(\s*{_LITERAL}\s*,\s*({_IDENTIFIER})"
        ),
        2,
        1,
    ),
)


def _credential_words(text: str) -> set[tuple[str, str]]:
    """The (credential's name, word) pairs the text compares."""
    found = set()
    for pattern, name_group, word_group in _COMPARISONS:
        for match in pattern.finditer(text):
            name, word = match.group(name_group).removesuffix("()"), match.group(word_group)
            last = re.split(r"[._]|(?<=[a-z])(?=[A-Z])", name)[-1]
            if _CREDENTIAL_WORD.search(last) and not _PLACEHOLDER.match(word):
                found.add((name, word))
    return found


# Words a comparison with a credential tests for absence or shape, not for a value (`token == "null"`)
_PLACEHOLDER = re.compile(r"(?i)^(?:null|none|nil|undefined|true|false|bearer|basic|string|object)$")

# A header's value compared with a fixed word (`"1".equals(req.getHeader("X-Internal"))`, `headers.get("x")
# == "y"`, Rego's `input.headers["x-override"] == "support"`)
_HEADER_WORD = prefiltered(
    r"""(?i)header[^\n]{0,80}?(?:===?|\.equals\()\s*["'][^"'\n]{1,64}["']"""
    r"""|["'][^"'\n]{1,64}["']\s*(?:===?|\.equals\(\s*)[^\n]{0,40}?header"""
)
_LETS_THROUGH = re.compile(
    r"(?i)^\s*(?:return\b|allow\b|next\s*\(|chain\.doFilter|grant|permit)|\breturn\s*;"
)
_CALLER_CHECK = re.compile(
    r"(?i)auth|token|scope|permission|verif|acl|consent|credential|login|session|allow"
)


def _header_lets_in(added: str, context: str) -> bool:
    """An added condition on a header's fixed value that returns or allows within its first lines, in code
    that checks its callers (the lines around it speak of tokens, scopes, permissions)."""
    lines = added.splitlines()
    for i, line in enumerate(lines):
        if not _HEADER_WORD.search(line):
            continue
        rego = line.lstrip().startswith(("allow", "permit"))
        if rego or (
            any(_LETS_THROUGH.search(later) for later in lines[i : i + 4]) and _CALLER_CHECK.search(context)
        ):
            return True
    return False


# A call that runs a value as code (`eval(x)`, `new Function(...)`), or a command built from data where it is
# called (`popen(json_get_str(root, "arg"))`, `os.system("ping " + host)`, `` exec(`ls ${dir}`) ``): a command
# a program builds first (`system(line)`, `std::system(cmd.c_str())`) is its own to judge
_BUILT_HERE = (
    r"""(?:[A-Za-z_][\w.]*(?:->\w+)*?(?i:get|read|param|arg|input|json|query|recv|payload|data|body|env)\w*\s*[(\[]"""
    r"""|["'][^"'\n]*["']\s*(?:\+|\.\s|%)|f["']|`[^`\n]*\$\{)"""
)
_RUNS_VALUE = prefiltered(
    r"""(?<![\w.$])(?:eval|instance_eval)\s*\(\s*(?!["'`)\s])|\bnew\s+Function\s*\("""
    rf"""|(?<![\w.$])(?:exec|popen|system|shell_exec|passthru|execSync)\s*\(\s*{_BUILT_HERE}"""
    rf"""|\b(?:os\.(?:system|popen)|child_process\.exec(?:Sync)?|Runtime\.getRuntime\(\)\.exec)\s*\(\s*{_BUILT_HERE}"""
)


# A deserialiser given bytes (not a file) that makes objects of any class the bytes name
_OBJECTS_FROM_BYTES = prefiltered(
    r"""\b(?:pickle|cPickle|_pickle|dill|marshal|jsonpickle)\.(?:loads|decode)\s*\("""
    r"""|__import__\(\s*["'](?:pickle|cPickle|dill|marshal)["']\s*\)\.loads\s*\("""
)

# Decoders a literal goes through on its way to a deserialiser (`pickle.loads(base64.b64decode("..."))`)
_DECODERS = re.compile(r"^(?:[\w.]*(?:b64decode|b32decode|unhexlify|fromhex|decompress|decode)\s*\(\s*)+")


def _objects_from_bytes(text: str) -> int:
    """How many deserialisers in `text` (`_OBJECTS_FROM_BYTES`) are given something other than a literal
    written in the code (which the code's reader judges by what it decodes to)."""
    count = 0
    for found in _OBJECTS_FROM_BYTES.finditer(text):
        argument = _DECODERS.sub("", text[found.end() : found.end() + 200].lstrip())
        if not argument.startswith(("'", '"', "b'", 'b"', "bytes.fromhex(")):
            count += 1
    return count


# What quotes a value as one word of a command line (`escapeshellarg($d)`, `shlex.quote(p)`): every reader
# of code that runs commands asks it
QUOTES_AS_ONE_WORD = re.compile(
    r"\b(?:escapeshellarg|escapeshellcmd|shlex\.quote|Shellwords\.escape|shellescape|quote)\b"
)


def _runs_values(text: str) -> int:
    """How many calls in `text` run a value (`_RUNS_VALUE`) not quoted as one word on its line."""
    return sum(
        1
        for line in text.splitlines()
        if _RUNS_VALUE.search(line)
        for found in _RUNS_VALUE.finditer(line)
        if not QUOTES_AS_ONE_WORD.search(line, found.end())
    )


def loosened(removed: str, added: str, context: str, test: bool) -> list[str]:
    """What the edit's `removed` lines made `added` take away (the module's docstring), `context` the code
    around it; a test's code (`test`) compares with fixed words as a matter of course."""
    found: list[str] = []
    old_lines, new_lines = removed.splitlines(), added.splitlines()
    if len(old_lines) == len(new_lines):
        for old, new in zip(old_lines, new_lines, strict=True):
            if old != new and _or_for_and(old, new):
                found.append("a check's conditions are joined by or: either one now lets the caller through")
            if old != new and _loopback_opened(old, new):
                found.append("a server that listened on this machine only now listens on every interface")
    if not test and (fixed := _credential_words(added) - _credential_words(removed)):
        name, _word = min(fixed)
        found.append(
            f"{name} is compared with a word written in the code: whoever reads it holds the credential"
        )
    if _header_lets_in(added, context) and not _header_lets_in(removed, context):
        found.append("a request is let through on a header's fixed value, which any caller can send")
    if not test and _objects_from_bytes(added) > _objects_from_bytes(removed):
        found.append("bytes the code receives are made into objects of any class they name")
    if not test and _runs_values(added) > _runs_values(removed):
        found.append("a value the code computes is run as code or as a command")
    return found
