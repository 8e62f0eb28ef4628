"""PowerShell read as the shell line it equals, so that one analysis judges both.

An agent on Windows (Claude Code's `PowerShell` tool, `pwsh -Command`, a `.ps1` an agent wrote) writes
PowerShell where it would write a shell line elsewhere. Its effects are the same kinds (files read, written
and deleted, requests sent, programs run), so rather than a second set of rules, a script is parsed here
(statements, pipelines, commands and their parameters, variables, sub-expressions, script blocks,
hashtables, .NET calls) and translated into the shell line with the same effects: `Get-Content x` is `cat
x`, `Remove-Item -Recurse d` is `rm -r -f d`, `$t = (Get-AzAccessToken).Token; Invoke-RestMethod -Headers
@{Authorization="Bearer $t"} -Uri U` is `ps_t="$(Get-AzAccessToken)"; curl -H "Authorization: Bearer
$ps_t" U`, a registry write is `reg add`, a .NET `WebClient`'s `DownloadString` is `curl`. Commands whose
approved verb only reads, looks up or reshapes (`Get-`, `Test-`, `Select-`, `Format-`...) become `cat` (they
pass their input on); a command named after a credential (`Get-Secret`, `-AsPlainText`, `ms-Mcs-AdmPwd`) is
not one of them.

What is beyond what this reads leaves the whole script unread (None), which the shell analysis reports as
opaque: any other cmdlet that changes something (`Set-Mailbox`, `Add-MpPreference`), a call of a .NET
method or type not known to be pure, a dynamic command name (`& $x`, `iex $s`), a backtick inside a word,
a class or a `using`. A script is never half read: a part left out is the whole left out."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field

MAX_TEXT = 16_000  # past this, a script is not read (opaque)
MAX_DEPTH = 16  # nesting of groups, blocks and sub-expressions


class Unread(Exception):
    """A construct beyond what this reader translates: the script stays opaque."""


# --------------------------------------------------------------------------------------------- tokens


@dataclass(slots=True)
class Tok:
    kind: str  # word, sq (single-quoted), dq (double-quoted, raw), var, splat, type, op, open, close
    text: str
    space: bool  # whitespace (or the start) before it


_VAR = re.compile(r"\$(?:\{([^}]+)\}|((?:[A-Za-z]+:)?[\w?]+|[_?$^]))")
_TYPE = re.compile(r"\[([A-Za-z_][\w.`]*(?:\[[\w.,\s\[\]]*\])?)\]")
_REDIRECT = re.compile(r"(?:[1-6*]?>>?(?:&[12])?)(?=[^>]|$)")
_ASSIGN = re.compile(r"(?:[-+*/%]?=)(?!=)")
_WORD_END = set(" \t\r\n|;(){}[]\"',&<>")


def _dq_end(text: str, i: int) -> int:
    """The index just past the `"` closing the double-quoted string opened at `i`; its `$( )` may nest
    strings of their own."""
    j, n = i + 1, len(text)
    while j < n:
        c = text[j]
        if c == "`":
            j += 2
            continue
        if c == '"':
            if j + 1 < n and text[j + 1] == '"':
                j += 2
                continue
            return j + 1
        if text.startswith("$(", j):
            j = _paren_end(text, j + 1)
            continue
        j += 1
    raise Unread("an unterminated string")


def _paren_end(text: str, i: int) -> int:
    """The index just past the `)` matching the `(` at `i`, strings inside skipped."""
    depth, j, n = 0, i, len(text)
    while j < n:
        c = text[j]
        if c == "'":
            end = text.find("'", j + 1)
            if end < 0:
                raise Unread("an unterminated string")
            j = end + 1
            continue
        if c == '"':
            j = _dq_end(text, j)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    raise Unread("an unbalanced parenthesis")


def _assignable(out: list[Tok], space: bool) -> bool:
    """An `=` (or `+=`...) here assigns: it follows a variable, a member of one or an index."""
    if not out:
        return False
    last = out[-1]
    target = last.kind in ("var", "close") or (last.kind == "word" and last.text.startswith("."))
    return target and (space or last.kind == "var")


def tokens(text: str) -> list[Tok]:
    """The script's tokens; a construct the tokenizer does not read raises `Unread`."""
    out: list[Tok] = []
    i, n, space = 0, len(text), True
    while i < n:
        c = text[i]
        if c in " \t\r":
            space, i = True, i + 1
            continue
        if c == "`" and i + 1 < n and text[i + 1] in "\r\n":
            space, i = True, i + 2  # a line continued
            continue
        if text.startswith("<#", i):
            end = text.find("#>", i + 2)
            if end < 0:
                raise Unread("an unterminated comment")
            space, i = True, end + 2
            continue
        if c == "#" and space:
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        start = i
        if c in "\n;":
            out.append(Tok("op", ";", space))
            i += 1
        elif c in "|&":
            two = text[i : i + 2]
            op = two if two in ("||", "&&") else c
            out.append(Tok("op", op, space))
            i += len(op)
        elif c in "({":
            out.append(Tok("open", c, space))
            i += 1
        elif c in "$@" and text[i + 1 : i + 2] in ("(", "{") and (c == "@" or text[i + 1] == "("):
            out.append(Tok("open", text[i : i + 2], space))
            i += 2
        elif c in ")}]":
            out.append(Tok("close", c, space))
            i += 1
        elif text.startswith(('@"', "@'"), i) and text[i + 2 : i + 3] in ("\n", "\r"):
            quote = text[i + 1]
            end = text.find("\n" + quote + "@", i + 2)
            if end < 0:
                raise Unread("an unterminated here-string")
            body = text[i + 2 : end].lstrip("\r\n")
            out.append(Tok("sq" if quote == "'" else "dq", body, space))
            i = end + 3
        elif c == "@" and (m := re.match(r"@(\w+)", text[i:])):
            out.append(Tok("splat", m.group(1).lower(), space))
            i += m.end()
        elif c == "'":
            j, value = i + 1, []
            while True:
                end = text.find("'", j)
                if end < 0:
                    raise Unread("an unterminated string")
                value.append(text[j:end])
                if text[end + 1 : end + 2] == "'":
                    value.append("'")
                    j = end + 2
                    continue
                break
            out.append(Tok("sq", "".join(value), space))
            i = end + 1
        elif c == '"':
            end = _dq_end(text, i)
            out.append(Tok("dq", text[i + 1 : end - 1], space))
            i = end
        elif c == "$" and (m := _VAR.match(text, i)):
            out.append(Tok("var", m.group(1) or m.group(2), space))
            i = m.end()
        elif (
            c == "[" and (m := _TYPE.match(text, i)) and (space or not out or out[-1].kind in ("op", "open"))
        ):
            out.append(Tok("type", m.group(1).lower().replace("`", ""), space))
            i = m.end()
        elif c == "[":
            out.append(Tok("open", "[", space))
            i += 1
        elif c == ",":
            out.append(Tok("op", ",", space))
            i += 1
        elif ((m := _REDIRECT.match(text, i)) and (space or c in ">*")) or (
            (m := _ASSIGN.match(text, i)) and _assignable(out, space)
        ):
            out.append(Tok("op", m.group(0), space))
            i = m.end()
        elif c == "<":
            raise Unread("an input redirection")
        else:
            j = i
            while j < n and text[j] not in _WORD_END:
                if text[j] == "$" and _VAR.match(text, j):
                    break
                if text[j] == "`":
                    raise Unread("an escape inside a word")
                j += 1
            if j == i:
                raise Unread(f"a character not read here: {c!r}")
            out.append(Tok("word", text[i:j], space))
            i = j
        space = False
        if i == start:
            raise Unread("no progress")
    return out


# ------------------------------------------------------------------------------------------ the reader


@dataclass(slots=True)
class Val:
    """A value as the shell line spells it: `word` is one shell word (quoted), `text` the literal when it is
    known, `kind` a .NET object's type when the value is one (`net.webclient`), `block` the shell line a
    script block's statements equal, `hashed` a hashtable's entries."""

    word: str
    text: str | None = None
    kind: str = ""
    block: str | None = None
    hashed: dict[str, Val] = field(default_factory=dict)


@dataclass(slots=True)
class Arg:
    """One argument of a command: a parameter name (`-Path`), or a value (an array has several)."""

    param: str = ""  # lower-cased, without its `-`; "" for a value
    vals: list[Val] = field(default_factory=list)
    spelt: str = ""  # the parameter as written (`-sS`: a native program's options are case-sensitive)
    attached: bool = False  # `-Name:value`: the value is the parameter's, whatever the parameter is


# Keywords that open a statement of their own
_KEYWORDS = frozenset(
    {"if", "elseif", "else", "foreach", "for", "while", "do", "until", "switch", "try", "catch", "finally"}
    | {"function", "filter", "param", "return", "throw", "exit", "break", "continue", "begin", "process"}
    | {"end", "trap"}
)
_UNREAD_KEYWORDS = frozenset({"class", "enum", "using", "data", "dynamicparam", "configuration", "workflow"})
# Automatic variables with a fixed or harmless value (`$true`, `$PSScriptRoot`...), as shell words
_AUTOMATIC = {
    "true": "true",
    "false": "false",
    "null": "",
    "pwd": "$PWD",
    "psscriptroot": ".",
    "pscommandpath": "./script.ps1",
    "home": "~",
    "env:userprofile": "~",
    "env:home": "~",
    "env:appdata": "~/AppData/Roaming",
    "env:localappdata": "~/AppData/Local",
    "env:temp": "/tmp",
    "env:tmp": "/tmp",
    "profile": "~/Documents/PowerShell/Microsoft.PowerShell_profile.ps1",
}


def _var_word(name: str) -> str:
    """A PowerShell variable as a shell expansion: `$env:X` is the environment's `$X`, `$_` the pipeline's
    item, any other `$ps_name` (a name no environment variable has); an environment variable keeps its
    case, as the shell's do."""
    lowered = name.lower()
    if lowered in _AUTOMATIC:
        value = _AUTOMATIC[lowered]
        return value if value.startswith(("~", "$", ".")) or not value else shlex.quote(value)
    if lowered.startswith("env:"):
        bare = re.sub(r"\W", "_", name[4:])
        return f'"${{{bare}}}"' if bare else '""'
    return f'"$ps_{re.sub(r"[^a-z0-9_]", "_", lowered)}"'


class _Reader:
    """A recursive-descent reader of a script's tokens that writes the shell statements they equal; what it
    cannot read raises `Unread`."""

    def __init__(self, toks: list[Tok], posix: Callable[[str], str]) -> None:
        self.toks = toks
        self.i = 0
        self.posix = posix
        self.kinds: dict[str, str] = {}  # variable -> the .NET type of the object it holds
        self.depth = 0
        self.item = ""  # the shell word for `$_` inside a block over a listing's items ("": unknown)
        self.item_of_query = False  # inside a block run for each item a pipeline passes

    # -- token access
    def peek(self, k: int = 0) -> Tok | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def take(self) -> Tok:
        tok = self.peek()
        if tok is None:
            raise Unread("the script ends early")
        self.i += 1
        return tok

    def text(self, k: int = 0) -> str:
        """The text of the token `k` ahead ("" past the end)."""
        tok = self.peek(k)
        return tok.text if tok is not None else ""

    def glued(self, k: int = 0) -> bool:
        """The token `k` ahead follows the previous one with no space between."""
        tok = self.peek(k)
        return tok is not None and not tok.space

    def at(self, kind: str, *texts: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == kind and (not texts or tok.text.lower() in texts)

    def expect_close(self, text: str) -> None:
        tok = self.take()
        if tok.kind != "close" or tok.text != text:
            raise Unread(f"expected {text!r}")

    # -- statements
    def script(self, closer: str | None = None) -> list[str]:
        """Statements up to `closer` (consumed) or the end, as shell statements."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unread("nested too deeply")
        out: list[str] = []
        while True:
            tok = self.peek()
            if tok is None:
                if closer is not None:
                    raise Unread("a group is not closed")
                break
            if tok.kind == "close":
                if tok.text != closer:
                    raise Unread(f"an unexpected {tok.text!r}")
                self.i += 1
                break
            if tok.kind == "op" and tok.text == ";":
                self.i += 1
                continue
            before = self.i
            out += self.statement()
            if self.i == before:
                raise Unread(f"{self.text()!r} is not read here")
        self.depth -= 1
        return [s for s in out if s]

    def block(self) -> list[str]:
        if not self.at("open", "{"):
            raise Unread("expected a block")
        self.take()
        return self.script("}")

    def statement(self) -> list[str]:
        tok = self.peek()
        assert tok is not None
        if tok.kind == "word" and tok.text.lower() in _UNREAD_KEYWORDS:
            raise Unread(f"{tok.text} is not read")
        if tok.kind == "word" and tok.text.lower() in _KEYWORDS:
            return self.keyword(self.take().text.lower())
        if tok.kind == "var" and self._assigns():
            return self.assignment()
        return [self.chain()]

    def _assigns(self) -> bool:
        """`$x = v`, `$x.Prop = v`, `$h['k'] += v`: the variable (its member, its index) is assigned."""
        j = self.i + 1
        while j < len(self.toks):
            tok = self.toks[j]
            if tok.kind == "op":
                return _ASSIGN.fullmatch(tok.text) is not None
            if tok.space:
                return False
            j += 1
        return False

    def keyword(self, word: str) -> list[str]:
        out: list[str] = []
        if word in ("if", "elseif", "while", "switch", "foreach", "for", "until"):
            while self.at("word") and self.text().startswith("-"):
                self.take()  # `switch -Regex (...)`
            if self.at("open", "("):
                self.take()
                out += self.script(")")
            if word == "until" or (word == "while" and not self.at("open", "{")):
                return out  # the condition of a `do { } while (...)`
            out += self.block()
        elif word in ("else", "try", "finally", "do", "begin", "process", "end"):
            out += self.block()
        elif word in ("catch", "trap"):
            while self.at("type") or self.at("op", ","):
                self.take()
            out += self.block()
        elif word in ("function", "filter"):
            self.take()  # its name
            if self.at("open", "("):
                self.take()
                out += self.script(")")
            out += self.block()  # what it does, as if it is called (it may be)
        elif word == "param":
            if self.at("open", "("):
                self.take()
                out += self.script(")")
        elif word in ("return", "throw", "exit"):
            tok = self.peek()
            if tok is not None and not (tok.kind == "op" and tok.text == ";") and tok.kind != "close":
                out.append(self.chain())
        # break, continue: nothing runs
        return out

    def assignment(self) -> list[str]:
        target = self.take()
        hoisted: list[str] = []
        while not self.at("op"):
            hoisted += self._suffix_statements(self.take())  # `$h['k']`, `$x.Prop`
        self.take()  # the `=`
        name = target.text.lower()
        if self.at("word") and self.text().lower() == "new-object":
            self.take()
            kind, made = self._new_object()
            self.kinds[name] = kind
            return [*hoisted, *made, f"{_assign_name(target.text)}=''"]
        tok = self.peek()
        if tok is None or tok.kind == "close" or (tok.kind == "op" and tok.text == ";"):
            raise Unread("an assignment of nothing")
        if tok.kind == "word" and not _numeric(tok.text) and not tok.text.startswith("-"):
            line = self.chain()
            assigned = _assign_name(target.text)
            return [*hoisted, f'{assigned}="$({line})"' if line else f"{assigned}=''"]
        val = self.expression()
        if val.kind:
            self.kinds[name] = val.kind
        ran = [val.block] if val.block else []  # (a block assigned may run later; an argument's ran now)
        return [*hoisted, *ran, f"{_assign_name(target.text)}={val.word}"]

    def _suffix_statements(self, tok: Tok) -> list[str]:
        if tok.kind == "open":
            closer = {"(": ")", "$(": ")", "@(": ")", "[": "]", "{": "}", "@{": "}"}[tok.text]
            return self.script(closer)
        return []

    def _new_object(self) -> tuple[str, list[str]]:
        """`New-Object T [args]`: the type made (`net.webclient`; none of the types read here runs anything
        when made), and what its arguments' sub-expressions run."""
        kind = ""
        made: list[str] = []
        while True:
            tok = self.peek()
            if tok is None or (tok.kind == "op" and tok.text in (";", "|")) or tok.kind == "close":
                break
            self.take()
            if tok.kind == "word" and tok.text.lower() in ("-typename",):
                continue
            if tok.kind == "word" and tok.text.lower() == "-comobject":
                raise Unread("a COM object")
            if tok.kind in ("word", "sq") and not kind and not tok.text.startswith("-"):
                kind = _type_name(tok.text)
            elif tok.kind == "open":
                made += self._suffix_statements(tok)
        if kind not in _OBJECTS:
            raise Unread(f"an object of type {kind or '?'}")
        return kind, made

    # -- pipelines
    def chain(self) -> str:
        """Pipelines joined by `&&` / `||`."""
        parts = [self.pipeline()]
        while self.at("op", "&&", "||"):
            parts.append(self.take().text)
            parts.append(self.pipeline())
        return " ".join(p for p in parts if p)

    def pipeline(self) -> str:
        elements: list[str] = []
        listing: list[Arg] | None = None  # the previous element's arguments, when it was a `Get-ChildItem`
        while True:
            tok = self.peek()
            if tok is None or tok.kind == "close" or (tok.kind == "op" and tok.text in (";", "&&", "||")):
                break
            if tok.kind == "op" and tok.text == "|":
                self.take()
                continue
            before = self.i
            text, listed = self.element(bool(elements), listing)
            if self.i == before:
                raise Unread(f"{self.text()!r} is not read here")
            if text == _FOUND and listing is not None:
                elements[-1] = _found_and_removed(listing)  # `gci -Include bin,obj | Remove-Item`
            else:
                elements.append(text)
            listing = listed
        return " | ".join(e for e in elements if e)

    def element(self, piped: bool, listing: list[Arg] | None) -> tuple[str, list[Arg] | None]:
        """One element of a pipeline as shell text, and its arguments when it lists a folder."""
        tok = self.peek()
        assert tok is not None
        if tok.kind == "op" and tok.text == "&":
            self.take()
            head = self.operand()
            if head.block is not None:
                return (f"{{ {head.block}; }}" if head.block else "true"), None
            if head.text is None:
                raise Unread("a command named at run time")
            return self.command(head.text, piped, listing)
        if tok.kind == "word" and tok.text == "." and self.peek(1) is not None and not self.glued(1):
            self.take()
            script = self.operand()
            if script.text is None:
                raise Unread("a script named at run time")
            run = f"pwsh -File {shlex.quote(self.posix(script.text))}"
            return _with(_substitutions(self._rest_words()), run), None
        if tok.kind == "word" and not _numeric(tok.text) and not tok.text.startswith(("-", ".", "::", "!")):
            return self.command(self.take().text, piped, listing)
        val = self.expression()
        redirects = self.redirects()
        shown = f"printf '%s\\n' {val.word}" if val.word else "true"
        # (a script block as a value: what it does may run)
        text = f"{{ {val.block}; {shown}; }}" if val.block else shown
        return text + redirects, None

    def redirects(self) -> str:
        out = ""
        while self.at("op") and _REDIRECT.fullmatch(self.text()):
            arrow = self.take().text
            if "&" in arrow:
                out += f" {arrow.lstrip('*')}"
                continue
            target = self.operand()
            where = "/dev/null" if target.word in ("", "''", '""') else target.word
            out += f" {arrow.lstrip('*') or '>'} {where}"
        return out

    def _rest_words(self) -> list[Arg]:
        args: list[Arg] = []
        while not self._ends():
            args.append(self.argument())
        return args

    def _ends(self) -> bool:
        tok = self.peek()
        return (
            tok is None
            or tok.kind == "close"
            or (
                tok.kind == "op"
                and (tok.text in (";", "|", "&&", "||") or bool(_REDIRECT.fullmatch(tok.text)))
            )
        )

    def argument(self) -> Arg:
        tok = self.peek()
        assert tok is not None
        if tok.kind == "word" and tok.text.startswith("-") and len(tok.text) > 1 and not _numeric(tok.text):
            self.take()
            name, colon, rest = tok.text[1:].partition(":")
            if colon:
                following = self.peek()
                if rest:
                    vals = [_literal(rest, self.posix)]
                elif following is not None and not following.space and not self._ends():
                    vals = [self.operand()]
                else:
                    vals = []
                return Arg(name.lower(), vals, attached=True, spelt=tok.text)
            return Arg(name.lower(), spelt=tok.text)
        vals = [self.operand()]
        while self.at("op", ","):
            self.take()
            vals.append(self.operand())
        return Arg(vals=vals)

    # -- values
    def operand(self) -> Val:
        """One value: tokens joined with no space between them (`$env:TEMP\\x.zip`, `(Get-Date).AddDays(-3)`),
        with its members, indexes and method calls."""
        pieces: list[Val] = []
        first = True
        while True:
            tok = self.peek()
            if tok is None or (not first and tok.space):
                break
            if tok.kind == "op" or (tok.kind == "close"):
                break
            first = False
            self.take()
            if tok.kind == "word" and pieces and tok.text.startswith((".", "::")) and len(tok.text) > 1:
                pieces[-1] = self.member(pieces[-1], tok.text)
                continue
            pieces.append(self.piece(tok))
        if not pieces:
            raise Unread("a value was expected")
        if len(pieces) == 1:
            return pieces[0]
        texts = [p.text for p in pieces if p.text is not None]
        if len(texts) == len(pieces):
            return _literal("".join(texts), self.posix)
        blocks = [p.block for p in pieces if p.block]
        return Val(_joined([p.word or "''" for p in pieces]), block="; ".join(blocks) if blocks else None)

    def piece(self, tok: Tok) -> Val:
        if tok.kind == "word":
            return _literal(tok.text, self.posix)
        if tok.kind == "sq":
            return _literal(tok.text, self.posix)
        if tok.kind == "dq":
            return self.expand(tok.text)
        if tok.kind == "var":
            if tok.text.lower() in ("_", "psitem") and self.item:
                return Val(self.item)
            return Val(_var_word(tok.text), kind=self.kinds.get(tok.text.lower(), ""))
        if tok.kind == "splat":
            return Val(_var_word(tok.text))
        if tok.kind == "type":
            return Val("''", text=None, kind="type:" + _type_name(tok.text))
        if tok.kind == "open":
            if tok.text == "{":
                inner = self.script("}")
                return Val("psblock", block="; ".join(inner))
            if tok.text == "@{":
                return self.hashtable()
            if tok.text == "(" and self.at("word") and self.text().lower() == "new-object":
                self.take()
                kind, made = self._new_object()  # `(New-Object Net.WebClient).DownloadString(U)`
                self.expect_close(")")
                return Val("''", kind=kind, block="; ".join(made) if made else None)
            closer = "]" if tok.text == "[" else ")"
            if tok.text == "(" and (value := self._parenthesised_value()) is not None:
                return value
            inner = self.script(closer)
            return Val(f'"$({"; ".join(inner)})"' if inner else "''")
        raise Unread(f"a {tok.kind} where a value was expected")

    def _parenthesised_value(self) -> Val | None:
        """`(expression)`: its value, when the group holds one expression and nothing else (`((New-Object
        Net.WebClient).DownloadString(U))`, `($a + 1)`); None (nothing taken) when it holds a command."""
        tok = self.peek()
        if tok is None or (tok.kind == "word" and not _numeric(tok.text) and not tok.text.startswith("-")):
            return None
        start = self.i
        try:
            value: Val | None = self.expression()
        except Unread:
            value = None
        if value is None or not self.at("close", ")"):
            self.i = start
            return None
        self.take()
        return value

    def expand(self, body: str) -> Val:
        """A double-quoted string: its variables and sub-expressions expanded."""
        out: list[str] = []
        literal: list[str] = []
        known = True
        i, n = 0, len(body)
        while i < n:
            c = body[i]
            if c == "`" and i + 1 < n:
                literal.append({"n": "\n", "t": "\t", "r": "\r", "0": ""}.get(body[i + 1], body[i + 1]))
                i += 2
                continue
            if c == '"' and body[i + 1 : i + 2] == '"':
                literal.append('"')
                i += 2
                continue
            if body.startswith("$(", i):
                end = _paren_end(body, i + 1)
                inner = _Reader(tokens(body[i + 2 : end - 1]), self.posix)
                inner.kinds, inner.item, inner.depth = dict(self.kinds), self.item, self.depth + 1
                lines = inner.script()
                out.append(shlex.quote("".join(literal)) if literal else "")
                literal = []
                out.append(f'"$({"; ".join(lines)})"' if lines else "")
                known = False
                i = end
                continue
            if c == "$" and (m := _VAR.match(body, i)):
                name = m.group(1) or m.group(2)
                out.append(shlex.quote("".join(literal)) if literal else "")
                literal = []
                out.append(self.item if name.lower() in ("_", "psitem") and self.item else _var_word(name))
                known = False
                i = m.end()
                continue
            literal.append(c)
            i += 1
        if known:
            return _literal("".join(literal), self.posix)
        if literal:
            out.append(shlex.quote("".join(literal)))
        if "\\" in body and _WINDOWS_PATH.fullmatch(_VAR.sub("x", body)):
            out = [w.replace("\\", "/") if w.startswith("'") else w for w in out]  # `"$env:TEMP\x.zip"`
        return Val(_joined(out))

    def hashtable(self) -> Val:
        entries: dict[str, Val] = {}
        while True:
            tok = self.peek()
            if tok is None:
                raise Unread("a hashtable is not closed")
            if tok.kind == "op" and tok.text == ";":
                self.take()
                continue
            if tok.kind == "close":
                self.expect_close("}")
                break
            key_tok = self.take()
            if key_tok.kind not in ("word", "sq", "dq"):
                raise Unread("a hashtable key not read")
            key = key_tok.text
            if key_tok.kind == "word" and "=" in key[:-1] and not key.startswith("="):
                key, _, rest = key.partition("=")  # `Level=2`: a value glued to its key
                entries[key] = _literal(rest, self.posix)
                continue
            if key.endswith("=") and key_tok.kind == "word":
                key = key[:-1]
            elif self.at("op", "=") or (self.at("word") and self.text() == "="):
                self.take()
            elif self.at("word") and self.text().startswith("="):
                rest = self.take().text[1:]
                entries[key] = _literal(rest, self.posix)
                continue
            else:
                raise Unread("a hashtable entry without '='")
            tok = self.peek()
            if (
                tok is not None
                and tok.kind == "word"
                and not _numeric(tok.text)
                and not tok.text.startswith("-")
            ):
                line = self.chain()
                entries[key] = Val(f'"$({line})"' if line else "''")
            else:
                entries[key] = self.expression()
        words = [v.word for v in entries.values() if "$(" in v.word]
        blocks = [v.block for v in entries.values() if v.block]
        words += [f'"$({b})"' for b in blocks]
        return Val("pshash" + "".join(words), hashed=entries)

    def expression(self, arrays: bool = True) -> Val:
        """Operands joined by operators (`$a -eq 1`, `'{0}' -f $x`, `$a + $b`), up to the end of the
        statement (and its `,` elements, with `arrays`): the value (computed: its text unknown unless one
        operand stands alone)."""
        operands: list[Val] = []
        while not self._ends() and not self.at("op"):
            tok = self.peek()
            assert tok is not None
            if tok.kind == "word" and (_OPERATOR.fullmatch(tok.text) or tok.text.lower() == "in"):
                self.take()
                continue
            operands.append(self.operand())
        while arrays and self.at("op", ","):
            self.take()
            operands.append(self.expression())
        if not operands:
            return Val("''", text="")
        if len(operands) == 1:
            return operands[0]
        blocks = [v.block for v in operands if v.block]
        return Val("".join(v.word or "''" for v in operands), block="; ".join(blocks) if blocks else None)

    def member(self, target: Val, text: str) -> Val:
        """`.Name`, `::Name`, `.Method(args)`: a property read is the value itself (computed), a method is
        read when it is pure or known."""
        name = text[2:] if text.startswith("::") else text[1:]
        name = re.split(r"[^\w]", name, maxsplit=1)[0].lower()
        args: list[Val] | None = None
        if self.at("open", "(") and self.glued():
            self.take()
            args = self.call_arguments()
        if target.kind.startswith("type:"):
            return _static(target.kind[5:], name, args)
        if args is None:
            return Val(target.word or "''", block=target.block)
        return _method(target, name, args)

    def call_arguments(self) -> list[Val]:
        args: list[Val] = []
        while True:
            tok = self.peek()
            if tok is None:
                raise Unread("a call is not closed")
            if tok.kind == "close":
                self.expect_close(")")
                return args
            if tok.kind == "op" and tok.text == ",":
                self.take()
                continue
            if tok.kind == "word" and re.fullmatch(r"[A-Za-z]+-[A-Za-z]+", tok.text):
                raise Unread("a command inside a method call")  # (one in parentheses is read: `(Get-X)`)
            args.append(self.expression(arrays=False))

    # -- commands
    def command(self, head: str, piped: bool, listing: list[Arg] | None) -> tuple[str, list[Arg] | None]:
        start = self.i
        name = _ALIASES.get(head.lower(), head.lower())
        saved = self.item, self.item_of_query
        if name in ("foreach-object", "where-object"):
            # the pipeline's item: what the listing before it lists (`gci D | % { Remove-Item $_ }`)
            self.item = shlex.quote(_listed_root(listing) + "/") + "*" if listing is not None else ""
            self.item_of_query = piped
        try:
            args = self._rest_words()
        finally:
            self.item, self.item_of_query = saved
        redirects = self.redirects()
        raw = " ".join([head, *(t.text for t in self.toks[start : self.i])])
        text = _translate(name, head, args, piped, listing, raw, self)
        listed = args if name == "get-childitem" else None
        return text + redirects, listed


# ------------------------------------------------------------------------------------- values, .NET

_FOUND = "\0found"  # an element that deletes what the listing before it selected
_OPERATOR = re.compile(
    r"(?i)-(?:c|i)?(?:eq|ne|gt|ge|lt|le|like|notlike|match|notmatch|contains|notcontains|in|notin|replace"
    r"|split)|-(?:and|or|xor|not|band|bor|bxor|bnot|shl|shr|is|isnot|as|f|join|split)|[-+*/%!]|\+\+|--|\.\.|\?\?"
)


def _numeric(word: str) -> bool:
    return (
        re.fullmatch(
            r"[-+]?(?:0x[0-9a-f]+|\d[\d_]*(?:\.\d+)?(?:e[-+]?\d+)?)(?:kb|mb|gb|tb|pb|l|d)?", word, re.I
        )
        is not None
    )


# A word that is a Windows path: from a drive, a share, the current or a parent folder, or `~`; or folders
# and a name (a pattern's `AADSTS\d+` or an account's `IIS AppPool\Site:(OI)` is none)
_PATH_PART = r"[\w .@$~*?!#&'=,-]+"
_WINDOWS_PATH = re.compile(rf"(?:[A-Za-z]:|\\\\|~)?\\?{_PATH_PART}(?:\\{_PATH_PART})*\\?")


def _joined(words: list[str]) -> str:
    """Shell words written one after the other as one word; `~` keeps its slash unquoted after it, so
    the shell still reads it as the home folder (`~'/x'` would be a file named `~/x`)."""
    word = "".join(w for w in words if w) or "''"
    return re.sub(r"^~'/", "~/'", word)


def _literal(text: str, posix: Callable[[str], str]) -> Val:
    """A known value as a shell word: a Windows path as the POSIX path the shell line names."""
    if text.upper().rstrip(":") == "NUL":
        return Val("/dev/null", text="/dev/null")  # Windows' null device
    path = "\\" in text and _WINDOWS_PATH.fullmatch(text) is not None
    converted = posix(text) if path or re.match(r"^[A-Za-z]:[/\\]", text) else text
    if converted == "~" or converted.startswith("~/"):  # the home folder, as the shell expands it
        rest = converted[2:]
        return Val("~/" + shlex.quote(rest) if rest else "~", text=converted)
    return Val(shlex.quote(converted) if converted else "''", text=converted)


def _assign_name(name: str) -> str:
    if name.lower().startswith("env:"):
        return re.sub(r"\W", "_", name[4:]) or "_"
    return "ps_" + re.sub(r"[^a-z0-9_]", "_", name.lower())


def _type_name(text: str) -> str:
    name = text.lower().strip("[]")
    return name[7:] if name.startswith("system.") else name


# Types a `New-Object` (or `[T]::new()`) makes that are read here: what their methods do is known
_OBJECTS = frozenset(
    {"net.webclient", "text.stringbuilder", "collections.arraylist", "collections.hashtable", "psobject"}
    | {"management.automation.pscredential", "pscredential", "psobject", "object", "datetime", "timespan"}
    | {"collections.generic.list[string]", "collections.generic.list[object]", "guid", "uri", "random"}
    | {"security.cryptography.sha256managed", "io.memorystream"}
)

# Methods that compute a value from their object and arguments, touching nothing else
_PURE_METHODS = frozenset(
    {"tostring", "trim", "trimstart", "trimend", "replace", "split", "substring", "toupper", "tolower"}
    | {"toupperinvariant", "tolowerinvariant", "startswith", "endswith", "contains", "indexof", "lastindexof"}
    | {"padleft", "padright", "insert", "remove", "add", "addrange", "adddays", "addhours", "addminutes"}
    | {"addseconds", "addmonths", "addyears", "addmilliseconds", "addticks", "tolocaltime", "touniversaltime"}
    | {"toshortdatestring", "tolongdatestring", "toshorttimestring", "equals", "compareto", "gethashcode"}
    | {"containskey", "containsvalue", "join", "format", "round", "floor", "ceiling", "max", "min", "abs"}
    | {"pow", "sqrt", "parse", "tryparse", "toarray", "clone", "reverse", "normalize", "getenumerator"}
    | {"subtract", "isnullorempty", "isnullorwhitespace", "concat", "tobase64string", "frombase64string"}
    | {"getbytes", "getstring", "combine", "getfilename", "getextension", "getdirectoryname", "getfullpath"}
    | {"getfilenamewithoutextension", "getpathroot", "newguid", "ismatch", "match", "matches", "escape"}
    | {"unescape", "toint32", "toint64", "todouble", "todatetime", "tochararray", "append", "appendline"}
    | {"where", "foreach", "dispose", "close", "flush", "clear", "sort", "first", "last", "count", "sum"}
    | {"average", "urlencode", "urldecode", "htmlencode", "htmldecode", "escapedatastring", "hash"}
    | {"tostring", "todecimal", "tosingle", "toboolean", "tobyte", "tohexstring", "fromhexstring", "now"}
    | {"computehash", "getvalueordefault", "trygetvalue", "getlength", "new"}
)
# Types whose static members and methods compute values only (`[math]::Round`, `[Convert]::ToBase64String`)
_PURE_TYPES = frozenset(
    {"math", "convert", "string", "char", "int", "int16", "int32", "int64", "long", "uint32", "uint64"}
    | {"double", "single", "float", "decimal", "bool", "boolean", "byte", "sbyte", "datetime", "timespan"}
    | {"datetimeoffset", "guid", "regex", "text.regularexpressions.regex", "text.encoding", "bitconverter"}
    | {"uri", "version", "io.path", "array", "web.httputility", "net.webutility", "globalization.cultureinfo"}
    | {"void", "object", "psobject", "pscustomobject", "ordered", "hashtable", "collections.hashtable"}
    | {"collections.arraylist", "text.stringbuilder", "string[]", "int[]", "byte[]", "char[]", "object[]"}
    | {"psobject[]", "security.securestring", "securestring", "xml", "scriptblock[]", "datetime[]"}
    | {"io.fileinfo", "io.directoryinfo", "environment", "math[]", "collections.generic.list[string]"}
    | {"collections.generic.list[object]", "random", "timezoneinfo", "net.ipaddress"}
)
# `[Environment]`'s members that read the machine's state harmlessly (the rest: environment variables,
# folders, or a change, read apart)
_ENVIRONMENT_PURE = frozenset(
    {"machinename", "username", "userdomainname", "newline", "processorcount", "osversion", "version"}
    | {"is64bitoperatingsystem", "is64bitprocess", "currentdirectory", "tickcount", "tickcount64"}
    | {"systemdirectory", "userinteractive", "getfolderpath", "exit"}
)


def _call(words: list[str]) -> Val:
    return Val(f'"$({" ".join(words)})"')


def _static(kind: str, name: str, args: list[Val] | None) -> Val:
    """A member of a type: `[IO.File]::ReadAllText(p)` is `cat p`, `[Net.WebClient]::new()` a WebClient,
    a pure type's members values; any other type's is beyond this reader."""
    words = [a.word for a in args or []]
    texts = [a.text for a in args or []]
    if kind == "io.file" and args:
        path = words[0]
        if name in ("readalltext", "readalllines", "readallbytes", "openread", "opentext"):
            return _call(["cat", path])
        if name in ("writealltext", "writealllines", "writeallbytes") and len(words) > 1:
            return _call(["printf", "%s", words[1], ">", path])
        if name in ("appendalltext", "appendalllines") and len(words) > 1:
            return _call(["printf", "%s", words[1], ">>", path])
        if name == "exists":
            return _call(["test", "-e", path])
        if name == "delete":
            return _call(["rm", "-f", path])
        if name in ("copy", "move") and len(words) > 1:
            return _call(["cp" if name == "copy" else "mv", path, words[1]])
    if kind == "io.directory" and args:
        path = words[0]
        if name == "exists":
            return _call(["test", "-d", path])
        if name == "createdirectory":
            return _call(["mkdir", "-p", path])
        if name == "delete":
            return _call(["rm", "-r", "-f", path] if len(words) > 1 else ["rmdir", path])
        if name in (
            "getfiles",
            "getdirectories",
            "enumeratefiles",
            "enumeratedirectories",
            "getfilesystementries",
        ):
            return _call(["ls", path])
    if kind == "environment":
        if name == "getenvironmentvariable" and texts and texts[0] and re.fullmatch(r"\w+", texts[0]):
            if len(texts) > 1 and (texts[1] or "").lower() in ("machine", "user"):
                raise Unread("a variable of the machine's or the user's registry")
            return Val(f'"${{{texts[0]}}}"')
        if name == "getenvironmentvariables":
            return _call(["env"])
        if name in _ENVIRONMENT_PURE:
            return Val("~" if name == "getfolderpath" else "''")
        raise Unread(f"[Environment]::{name}")
    if kind in ("net.webclient",) and name == "new":
        return Val("''", kind="net.webclient")
    if kind in _PURE_TYPES:
        if name == "gettype" or (name not in _PURE_METHODS and args is not None and kind != "math"):
            raise Unread(f"[{kind}]::{name}()")
        if name in ("utf8", "ascii", "unicode", "default", "utf32", "latin1", "bigendianunicode"):
            return Val("''", kind="text.encoding")
        return Val("".join(words) or "''")
    raise Unread(f"[{kind}]::{name}")


def _method(target: Val, name: str, args: list[Val]) -> Val:
    """A method of a value: a WebClient's transfers as `curl`, a pure one computed, any other unread."""
    words = [a.word for a in args]
    if target.kind == "net.webclient":
        if name in ("downloadstring", "downloaddata", "openread") and words:
            return _call(["curl", "-s", words[0]])
        if name == "downloadfile" and len(words) > 1:
            return _call(["curl", "-s", "-o", words[1], words[0]])
        if name in ("uploadstring", "uploaddata", "uploadvalues") and len(words) > 1:
            return _call(["curl", "-s", "--data-binary", words[-1], words[0]])
        if name == "uploadfile" and len(words) > 1:
            return _call(["curl", "-s", "-T", words[-1], words[0]])
        if name in ("dispose",) or name.startswith(("headers", "add")):
            return Val("''")
        raise Unread(f"WebClient.{name}")
    if name == "gettype" and args:
        raise Unread("a type looked up by name")
    if name not in _PURE_METHODS and name != "gettype":
        raise Unread(f"the method {name}()")
    blocks = [a.block for a in args if a.block]
    return Val(
        "".join([target.word or "''", *(w for w in words if "$" in w)]),
        kind="text.encoding" if target.kind == "text.encoding" and name != "getbytes" else "",
        block="; ".join(blocks) if blocks else None,
    )


# ---------------------------------------------------------------------------------------- commands

_ALIASES = {
    **dict.fromkeys(("gc", "cat", "type"), "get-content"),
    **dict.fromkeys(("ls", "dir", "gci"), "get-childitem"),
    **dict.fromkeys(("rm", "del", "erase", "ri", "rd", "rmdir"), "remove-item"),
    **dict.fromkeys(("cp", "copy", "cpi"), "copy-item"),
    **dict.fromkeys(("mv", "move", "mi"), "move-item"),
    **dict.fromkeys(("rni", "ren"), "rename-item"),
    **dict.fromkeys(("ni",), "new-item"),
    **dict.fromkeys(("md", "mkdir"), "mkdir"),
    **dict.fromkeys(("cd", "chdir", "sl", "pushd", "push-location"), "set-location"),
    **dict.fromkeys(("popd", "pop-location"), "pop-location"),
    **dict.fromkeys(("echo", "write"), "write-output"),
    **dict.fromkeys(("iwr",), "invoke-webrequest"),
    **dict.fromkeys(("irm",), "invoke-restmethod"),
    **dict.fromkeys(("iex",), "invoke-expression"),
    **dict.fromkeys(("icm",), "invoke-command"),
    **dict.fromkeys(("saps", "start"), "start-process"),
    **dict.fromkeys(("%", "foreach"), "foreach-object"),
    **dict.fromkeys(("?", "where"), "where-object"),
    **dict.fromkeys(("select",), "select-object"),
    **dict.fromkeys(("sort",), "sort-object"),
    **dict.fromkeys(("measure",), "measure-object"),
    **dict.fromkeys(("group",), "group-object"),
    **dict.fromkeys(("ft",), "format-table"),
    **dict.fromkeys(("fl",), "format-list"),
    **dict.fromkeys(("fw",), "format-wide"),
    **dict.fromkeys(("gp",), "get-itemproperty"),
    **dict.fromkeys(("sp",), "set-itemproperty"),
    **dict.fromkeys(("gm",), "get-member"),
    **dict.fromkeys(("gcm",), "get-command"),
    **dict.fromkeys(("ipmo",), "import-module"),
    **dict.fromkeys(("sls",), "select-string"),
    **dict.fromkeys(("tee",), "tee-object"),
    **dict.fromkeys(("sleep",), "start-sleep"),
    **dict.fromkeys(("ps", "gps"), "get-process"),
    **dict.fromkeys(("gsv",), "get-service"),
    **dict.fromkeys(("pwd", "gl"), "get-location"),
    **dict.fromkeys(("ac",), "add-content"),
    **dict.fromkeys(("cls", "clear"), "clear-host"),
    **dict.fromkeys(("diff", "compare"), "compare-object"),
    **dict.fromkeys(("man", "help"), "get-help"),
    **dict.fromkeys(("gal",), "get-alias"),
    **dict.fromkeys(("gv",), "get-variable"),
    **dict.fromkeys(("h", "history", "ghy"), "get-history"),
    **dict.fromkeys(("ii",), "invoke-item"),
    **dict.fromkeys(("ogv",), "out-gridview"),
}

# Verbs that only read, look up, test or reshape what passes through; a command with one is `cat` (it
# passes its input on), unless it names a credential (`_CREDENTIAL`)
_READ_VERBS = frozenset(
    {"get", "test", "find", "search", "select", "show", "measure", "compare", "resolve", "format"}
    | {"convertto", "convertfrom", "group", "sort", "where", "trace", "out", "write", "read", "wait", "watch"}
    | {"receive", "join", "split", "debug", "confirm", "import"}
)
# Commands of those verbs that do more than read, or that are translated on their own
_NOT_READING = frozenset(
    {"out-file", "get-clipboard", "write-eventlog", "import-module", "out-printer", "read-host"}
    | {"get-credential", "import-certificate", "import-pfxcertificate", "import-startlayout"}
)
# Other commands whose effect is nothing to judge: a prompt, a pause, the console's own state, the
# session's error or strict mode, a transcript of the session, a module's exports
_INERT = frozenset(
    {"start-sleep", "clear-host", "set-strictmode", "write-progress", "start-transcript", "stop-transcript"}
    | {"export-modulemember", "register-argumentcompleter", "pop-location", "read-host", "get-credential"}
    | {"set-psreadlineoption", "new-temporaryfile", "update-typedata", "update-formatdata"}
    | {"connect-azaccount", "connect-mggraph", "connect-exchangeonline", "connect-pnponline"}
    | {"connect-microsoftteams", "connect-ippssession", "disconnect-mggraph", "disconnect-exchangeonline"}
    | {"disconnect-azaccount"}
    | {"invoke-pester", "invoke-scriptanalyzer", "update-mpsignature", "start-mpscan", "update-help"}
    | {"checkpoint-computer"}
)
# A word that names a credential, a secret store or the clipboard; not a policy about passwords or a date
_CREDENTIAL = re.compile(
    r"(?i)(?:password|passwd|pwd\b|secret|credential|token|privatekey|apikey|api_key|accesskey|connectionstring"
    r"|admpwd|laps|securestring|clipboard|asplaintext|dpapi|keyvault|pfx|cookie|storagekey|accountkey|sas\b"
    # an account's password hashes or keys, read from the directory or the machine
    r"|hashcat|ntlm|nthash|krbtgt|kerberoast|replaccount|\bspn\b|lsass|ntds|\bsam\b|keytab)"
)
_CREDENTIAL_POLICY = re.compile(
    r"(?i)password(?:lastset|policy|expired|neverexpires|notrequired|age|length|history|complexity|reset"
    r"|changeable|settings)\w*|\w*passwordpolic\w*|min\w*password\w*|max\w*password\w*"
)


def _named(args: list[Arg], switches: frozenset[str]) -> tuple[dict[str, list[Val]], list[Val]]:
    """A command's parameters by name (a switch takes no value) and its positional values."""
    named: dict[str, list[Val]] = {}
    positional: list[Val] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg.param:
            if arg.attached or arg.param in switches or i + 1 >= len(args) or args[i + 1].param:
                named[arg.param] = arg.vals
            else:
                named[arg.param] = args[i + 1].vals
                i += 1
        else:
            positional += arg.vals
        i += 1
    return named, positional


_PATHS = ("path", "literalpath", "filepath", "pspath", "lp")
_SWITCHES = frozenset(
    {"recurse", "r", "force", "raw", "append", "notypeinformation", "nti", "usebasicparsing", "useb", "wait"}
    | {"passthru", "nonewwindow", "skipcertificatecheck", "whatif", "confirm", "verbose", "directory", "file"}
    | {"hidden", "noclobber", "asjob", "usedefaultcredentials", "disablekeepalive", "nonewline", "debug"}
)


@dataclass(slots=True)
class Call:
    """One command's arguments, as its translation reads them."""

    named: dict[str, list[Val]]
    positional: list[Val]
    piped: bool  # something is piped into it
    listing: list[Arg] | None  # the arguments of the `Get-ChildItem` piped into it
    reader: _Reader

    def get(self, *names: str) -> list[Val]:
        """The value of the first of `names` given (`-Path`, else `-LiteralPath`...)."""
        for name in names:
            if name in self.named:
                return self.named[name]
        return []

    def paths(self) -> list[Val]:
        """The items it names: `-Path` (or an alias of it), else its positional values."""
        return self.get(*_PATHS) or self.positional

    def words(self, values: list[Val]) -> list[str]:
        return [v.word for v in values]


def _substitutions(args: list[Arg]) -> list[str]:
    """The words of a command's arguments that run something (a sub-expression, a script block)."""
    words = [v.word for a in args for v in a.vals if "$(" in v.word]
    words += [f'"$({v.block})"' for a in args for v in a.vals if v.block]
    return words


def _with(words: list[str], line: str) -> str:
    """`line`, after what the arguments' sub-expressions run (`: "$(...)"`), as one pipeline element."""
    return f"{{ : {' '.join(words)}; {line}; }}" if words else line


def _translate(
    name: str, head: str, args: list[Arg], piped: bool, listing: list[Arg] | None, raw: str, reader: _Reader
) -> str:
    named, positional = _named(args, _SWITCHES)
    if name in _TRANSLATED:
        return _TRANSLATED[name](Call(named, positional, piped, listing, reader))
    if name in _INERT:
        return _with(_substitutions(args), "true")
    verb, dash, _ = name.partition("-")
    if dash and verb in _READ_VERBS and name not in _NOT_READING:
        if _CREDENTIAL.search(_CREDENTIAL_POLICY.sub("", raw)):
            raise Unread(f"{head} names a credential")
        return _with(_substitutions(args), "cat")
    if dash and re.fullmatch(r"[a-z]+-[a-z0-9.]+", name):
        if not _listed(name):
            raise Unread(f"{head} changes what it names")
        if piped or reader.item_of_query:
            # `Get-ADUser -Filter * | Disable-ADAccount`: the change made to every item a query lists
            raise Unread(f"{head} applied to what a query lists")
    return _native(head, args, reader.posix)


def _listed(name: str) -> bool:
    """A changing cmdlet the programs' table reads (`facts.programs`: what widens, disables, schedules)."""
    from limen.facts.programs import program

    return program(name) is not None


def _native(head: str, args: list[Arg], posix: Callable[[str], str]) -> str:
    """A program run by name or path, as the shell line runs it: a known program, or a file by its path."""
    from limen.facts.programs import program

    path = posix(head)
    bare = re.sub(r"(?i)\.(?:exe|com)$", "", path.rsplit("/", 1)[-1])
    if "/" not in path and program(bare.lower()) is None:
        raise Unread(f"{head} is not a program known here")
    words = [bare.lower() if "/" not in path else shlex.quote(path)]
    for arg in args:
        if arg.param:
            words.append(shlex.quote(arg.spelt))
        words += [v.word for v in arg.vals]
    return " ".join(words)


def _get_content(c: Call) -> str:
    paths = c.words(c.paths())
    if tail := c.get("tail", "last"):
        return " ".join(["tail", "-n", tail[0].word, *paths])
    if head := c.get("totalcount", "head", "first"):
        return " ".join(["head", "-n", head[0].word, *paths])
    return " ".join(["cat", *paths])


def _writes(append: bool) -> Callable[[Call], str]:
    def write(c: Call) -> str:
        target = c.get(*_PATHS) or c.positional[:1]
        value = c.get("value", "inputobject") or ([] if c.get(*_PATHS) else c.positional[1:2])
        if not target:
            raise Unread("a write with no file named")
        arrow = ">>" if append or "append" in c.named else ">"
        if (target[0].text or "").startswith("smb://"):  # written to another machine's share
            sent = f"printf '%s\\n' {' '.join(c.words(value))} | " if value else ""
            return f"{sent}curl -s -T - {target[0].word}"
        if value:
            return f"printf '%s\\n' {' '.join(c.words(value))} {arrow} {target[0].word}"
        return f"tee {'-a ' if arrow == '>>' else ''}{target[0].word} > /dev/null"

    return write


def _get_childitem(c: Call) -> str:
    if any((v.text or "").lower().rstrip(":\\/") == "env" for v in c.paths()):
        return "env"  # `Get-ChildItem env:`: the environment's variables, as `env` prints them
    return " ".join(["ls", *(["-R"] if "recurse" in c.named else []), *c.words(c.paths())])


def _listed_roots(listing: list[Arg]) -> list[str]:
    """The folders a `Get-ChildItem` lists (the current one when it names none)."""
    named, positional = _named(listing, _SWITCHES)
    values = next((named[p] for p in _PATHS if p in named), positional)
    if any(v.text is None for v in values):
        raise Unread("a listing of a folder named at run time")
    return [v.text for v in values if v.text] or ["."]


def _listed_root(listing: list[Arg]) -> str:
    roots = _listed_roots(listing)
    if len(roots) > 1:
        raise Unread("the items of several folders")
    return roots[0]


def _found_and_removed(listing: list[Arg]) -> str:
    """`gci D -Recurse -Include bin,obj | Remove-Item` as `find D \\( -name bin -o -name obj \\) -exec rm
    -rf {} +`: what the listing selects, removed."""
    named, _ = _named(listing, _SWITCHES)
    root = " ".join(shlex.quote(r) for r in _listed_roots(listing))
    names = [v.text for n in ("include", "filter", "name") for v in named.get(n, []) if v.text]
    selected = " -o ".join(f"-name {shlex.quote(n)}" for n in names)
    return (
        f"find {root} \\( {selected} \\) -exec rm -rf {{}} +" if names else f"find {root} -exec rm -rf {{}} +"
    )


def _remove_item(c: Call) -> str:
    values = c.paths()
    if registry := [v for v in values if v.text and _REGISTRY.match(v.text)]:
        return " ".join(["reg", "delete", shlex.quote(_registry_key(registry[0].text or "")), "/f"])
    recursive = ["-r"] if "recurse" in c.named or "r" in c.named else []
    if not values and c.piped:
        if c.listing is not None and any(a.param in ("include", "filter", "name") for a in c.listing):
            return _FOUND
        return " ".join(["xargs", "rm", *recursive, "-f"])
    if not values:
        raise Unread("a delete of nothing named")
    return " ".join(["rm", *recursive, "-f", *c.words(values)])


def _copy_move(verb: str) -> Callable[[Call], str]:
    def run(c: Call) -> str:
        source = c.get(*_PATHS) or c.positional[:1]
        rest = c.positional if c.get(*_PATHS) else c.positional[1:]
        target = c.get("destination", "newname") or rest[:1]
        if not source or not target:
            raise Unread(f"{verb} with a side not named")
        if verb == "cp" and any((v.text or "").startswith("smb://") for v in source):
            return f"curl -s -o {target[0].word} {source[0].word}"  # from another machine's share
        if (target[0].text or "").startswith("smb://"):
            return f"curl -s -T {source[0].word} {target[0].word}"  # to another machine's share
        recursive = ["-r"] if verb == "cp" and "recurse" in c.named else []
        return " ".join([verb, *recursive, *c.words(source), target[0].word])

    return run


def _new_item(c: Call) -> str:
    kind = " ".join((v.text or "?").lower() for v in c.get("itemtype", "type"))
    where = c.get(*_PATHS) or c.positional[:1]
    leaf = c.get("name")
    if any(v.text and _REGISTRY.match(v.text) for v in where):
        return "true"  # a registry key made: its values are `Set-ItemProperty`'s
    if not where and not leaf:
        raise Unread("New-Item with nothing named")
    target = where[0].word if where else "."
    if leaf:
        target = f"{target}/{leaf[0].word}" if where else leaf[0].word
    value = c.get("value", "target")
    if "directory" in kind:
        return f"mkdir -p {target}"
    if "link" in kind or "junction" in kind:
        return f"ln -s {value[0].word if value else '.'} {target}"
    if kind and "file" not in kind:
        raise Unread(f"New-Item of type {kind}")
    return f"printf '%s' {value[0].word} > {target}" if value else f"touch {target}"


_REGISTRY = re.compile(r"(?i)^(?:registry::)?(?:hk(?:lm|cu|cr|u|cc)|hkey_[a-z_]+):?[\\/]")


def _registry_key(path: str) -> str:
    """`HKCU:\\Software\\X` as `reg`'s `HKCU\\Software\\X`."""
    key = re.sub(r"(?i)^registry::", "", path).replace("/", "\\")
    return re.sub(r"^([A-Za-z_]+):", r"\1", key)


def _item_property(c: Call) -> str:
    """`Set-ItemProperty -Path HKCU:\\...\\Run -Name X -Value Y` as `reg add KEY /v X /d Y /f`."""
    where = c.get(*_PATHS) or c.positional[:1]
    if not where or where[0].text is None or not _REGISTRY.match(where[0].text):
        raise Unread("a property of something other than the registry")
    rest = c.positional if c.get(*_PATHS) else c.positional[1:]
    value_name = c.get("name") or rest[:1]
    value = c.get("value") or rest[1:2]
    words = ["reg", "add", shlex.quote(_registry_key(where[0].text))]
    words += ["/v", value_name[0].word] if value_name else []
    words += ["/d", value[0].word] if value else []
    return " ".join([*words, "/f"])


def _web(c: Call) -> str:
    """`Invoke-WebRequest`/`Invoke-RestMethod` as the `curl` making the same request."""
    url = c.get("uri", "url") or c.positional[:1]
    if not url:  # (a switch spelt short, `-useb`, took the address as its value)
        url = [v for values in c.named.values() for v in values if re.match(r"(?i)https?://", v.text or "")][
            :1
        ]
    if not url:
        raise Unread("a request to no address")
    words = ["curl", "-s"]
    for method in c.get("method", "custommethod")[:1]:
        words += [] if (method.text or "").upper() == "GET" else ["-X", method.word]
    for header in c.get("headers"):
        words += [w for key, v in header.hashed.items() for w in ("-H", f"{shlex.quote(key + ': ')}{v.word}")]
        words += [] if header.hashed else ["-H", header.word]
    for body in c.get("body"):
        words += ["--data-binary", body.word]
    for form in c.get("form"):
        words += [w for key, v in form.hashed.items() for w in ("-F", f"{shlex.quote(key + '=')}{v.word}")]
    for infile in c.get("infile"):
        words += ["--data-binary", f"@{infile.word}"]
    for outfile in c.get("outfile"):
        words += ["-o", outfile.word]
    words += ["-k"] if "skipcertificatecheck" in c.named else []
    for credential in c.get("credential", "token"):
        words += ["-u", credential.word]
    for proxy in c.get("proxy"):
        words += ["--proxy", proxy.word]
    if c.piped and not c.get("body", "infile", "form"):
        words += ["--data-binary", "@-"]  # what the pipeline passes is the request's body
    return " ".join([*words, url[0].word])


def _bits(c: Call) -> str:
    """`Start-BitsTransfer`: a download, or an upload when its destination is an address."""
    source = c.get("source") or c.positional[:1]
    target = c.get("destination") or c.positional[1:2]
    if not source or not target:
        raise Unread("a transfer with a side not named")
    if re.match(r"(?i)^https?://", target[0].text or ""):
        return f"curl -s -T {source[0].word} {target[0].word}"
    return f"curl -s -o {target[0].word} {source[0].word}"


def _start_process(c: Call) -> str:
    """`Start-Process FILE -ArgumentList ARGS [-Verb RunAs]` as `[sudo] FILE ARGS`."""
    file = c.get("filepath") or c.positional[:1]
    if not file or file[0].text is None:
        raise Unread("a process started from a name known at run time")
    arguments = c.get("argumentlist", "args") or c.positional[1:]
    words: list[str] = []
    for value in arguments:
        words += [shlex.quote(w) for w in value.text.split()] if value.text is not None else [value.word]
    runas = any((v.text or "").lower() == "runas" for v in c.get("verb"))
    return " ".join([*(["sudo"] if runas else []), _native_name(file[0].text), *words])


def _native_name(path: str) -> str:
    posix = path.replace("\\", "/")
    if "/" in posix:
        return shlex.quote(posix)
    return shlex.quote(re.sub(r"(?i)\.(?:exe|com)$", "", posix).lower())


def _invoke_expression(c: Call) -> str:
    code = c.get("command") or c.positional
    if not code and c.piped:
        return "sh"  # what the pipeline passes is run as code (`irm URL | iex`)
    if len(code) == 1 and code[0].text is not None:
        line = powershell_line(code[0].text)
        if line is None:
            raise Unread("Invoke-Expression of code not read")
        return f"{{ {line}; }}"
    if code:
        return f"sh -c {''.join(c.words(code))}"  # code made at run time: as the shell runs a line it made
    raise Unread("Invoke-Expression of nothing")


def _blocks(c: Call) -> str:
    """`ForEach-Object { ... }`, `Where-Object { ... }`, `Invoke-Command -ScriptBlock { ... }`: what the
    block does, run over the pipeline's items (on another machine, for `Invoke-Command`: judged as here)."""
    if "filepath" in c.named:
        raise Unread("a script file run elsewhere")
    given = [*c.positional, *c.get("scriptblock", "process", "filterscript", "begin", "end")]
    found = [v.block for v in given if v.block is not None]
    if not found:
        if c.positional or c.named:
            return "cat"  # `Where-Object Enabled`, `ForEach-Object -MemberName Name`
        raise Unread("a block that is not given")
    body = "; ".join(b for b in found if b)
    return f"{{ {body}; cat; }}" if body else "cat"


def _select_string(c: Call) -> str:
    pattern = c.get("pattern") or c.positional[:1]
    files = c.get(*_PATHS) or (c.positional if c.get("pattern") else c.positional[1:])
    return " ".join(["grep", *(["-e", pattern[0].word] if pattern else []), *c.words(files)])


_MODULE_FILE = re.compile(r"[/\\]|\.ps[md]?1$", re.IGNORECASE)


def _known_modules(values: list[Val]) -> None:
    """Modules named (not by path) must be Windows' own or the PowerShell Gallery's well-known ones: any
    other (an attack toolkit, a near miss of a known name) leaves the script unread."""
    from limen.facts.packages import PSGALLERY

    for value in values:
        name = (value.text or "").lower()
        if not name or (name not in PSGALLERY and name.split(".", 1)[0] not in ("az", "microsoft")):
            raise Unread(f"the module {value.text or '(made at run time)'}")


def _import_module(c: Call) -> str:
    """A module by path runs its code, as `source FILE` does; one by name is an installed module's."""
    module = c.get("name", "fullyqualifiedname", *_PATHS) or c.positional
    files = [v for v in module if v.text is None or _MODULE_FILE.search(v.text)]
    _known_modules([v for v in module if v not in files or v.text is None])
    return "; ".join(f". {v.word}" for v in files) if files else "true"


def _install_module(c: Call) -> str:
    """`Install-Module NAME` from the PowerShell Gallery, of a module known there (a near miss of one is
    how a look-alike is installed); another repository's is not read."""
    repository = c.get("repository")
    if any((v.text or "").lower() != "psgallery" for v in repository):
        raise Unread("a module from another repository")
    names = c.get("name") or c.positional
    if not names:
        raise Unread("no module named")
    _known_modules(names)
    return "true"


def _archive(expand: bool) -> Callable[[Call], str]:
    def run(c: Call) -> str:
        source = c.get(*_PATHS) or c.positional[:1]
        target = c.get("destinationpath") or c.positional[1:2]
        if not source:
            raise Unread("an archive with nothing named")
        if expand:
            return " ".join(["unzip", "-o", source[0].word, *(["-d", target[0].word] if target else [])])
        if not target:
            raise Unread("an archive written nowhere")
        return " ".join(["zip", "-r", target[0].word, *c.words(source)])

    return run


def _sqlcmd(c: Call) -> str:
    """`Invoke-Sqlcmd -ServerInstance S -Query Q` as `sqlcmd -S S -Q Q` (its SQL judged as any client's)."""
    server = c.get("serverinstance", "hostname")
    words = ["sqlcmd", *(["-S", server[0].word] if server else [])]
    if query := c.get("query"):
        return " ".join([*words, "-Q", query[0].word])
    if files := c.get("inputfile"):
        return " ".join([*words, "-i", files[0].word])
    raise Unread("Invoke-Sqlcmd with no query")


def _add_type(c: Call) -> str:
    """`Add-Type -AssemblyName System.Web`: one of the framework's assemblies loaded; code compiled from
    source or loaded from a file (`-TypeDefinition`, `-Path`) is not read."""
    if set(c.named) - {"assemblyname", "an"} or c.positional:
        raise Unread("Add-Type of code")
    return "true"


_TRANSLATED: dict[str, Callable[[Call], str]] = {
    **dict.fromkeys(
        ("get-content", "import-csv", "import-clixml", "import-powershelldatafile"), _get_content
    ),
    **dict.fromkeys(("set-content", "out-file", "export-csv", "export-clixml", "tee-object"), _writes(False)),
    "add-content": _writes(True),
    "get-childitem": _get_childitem,
    "remove-item": _remove_item,
    "copy-item": _copy_move("cp"),
    **dict.fromkeys(("move-item", "rename-item"), _copy_move("mv")),
    "new-item": _new_item,
    "mkdir": lambda c: " ".join(["mkdir", "-p", *c.words(c.paths())]),
    **dict.fromkeys(("set-itemproperty", "new-itemproperty"), _item_property),
    **dict.fromkeys(("invoke-webrequest", "invoke-restmethod", "invoke-mggraphrequest"), _web),
    "start-bitstransfer": _bits,
    "start-process": _start_process,
    "invoke-expression": _invoke_expression,
    **dict.fromkeys(("foreach-object", "where-object", "invoke-command", "start-job"), _blocks),
    "select-string": _select_string,
    "set-location": lambda c: " ".join(["cd", *c.words(c.paths())[:1]]),
    **dict.fromkeys(("write-output", "write-host"), lambda c: " ".join(["echo", *c.words(c.positional)])),
    "out-null": lambda c: "cat > /dev/null",
    "import-module": _import_module,
    **dict.fromkeys(
        ("install-module", "install-psresource", "update-module", "update-psresource"), _install_module
    ),
    "expand-archive": _archive(True),
    "compress-archive": _archive(False),
    "invoke-item": lambda c: " ".join(["xdg-open", *c.words(c.paths())]),
    # a password written into the line, as `echo` of it (so that the line's secrets are read as such)
    "convertto-securestring": lambda c: " ".join(["echo", *c.words(c.get("string") or c.positional)]),
    "invoke-sqlcmd": _sqlcmd,
    "test-path": lambda c: " ".join(["test", "-e", *c.words(c.paths())[:1]]),
    "add-type": _add_type,
}


def powershell_line(text: str) -> str | None:
    """A PowerShell script as the shell line with its effects, or None when any part of it is beyond what
    is read here (the script is then opaque)."""
    from limen.normalize.shell import _posix_path

    if len(text) > MAX_TEXT:
        return None
    try:
        reader = _Reader(tokens(text), _posix_path)
        lines = reader.script()
    except Exception:  # (`Unread`, or a reader's own failure: either way the script stays opaque, asked)
        return None
    line = "; ".join(lines)
    return line or None
