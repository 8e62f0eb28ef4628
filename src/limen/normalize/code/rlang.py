"""R programs (`Rscript -e`, `.R` files, `.Rprofile`), read by a small parser of R's expression grammar into
`foreign.Node`s, their calls named by R's table of effects (`EFFECTS`).

No R grammar ships for tree-sitter on PyPI, and R's grammar is small: expressions of calls, operators,
assignments, `function`, `if`, `for`, `while`, `repeat` and braces, where a newline ends an expression that
is complete. The parser follows that grammar and no further: a program it cannot read is said not to parse,
never taken as harmless."""

from __future__ import annotations

import re

from limen.normalize.code.foreign import Language, Node, n
from limen.normalize.code.treesitter import unescape_all

# R's functions with an effect, by name (with or without their package's `pkg::`), by what they do
# (`foreign.BUILDS`): a shell line run, a file read, written or deleted, an address fetched or sent to.
EFFECTS: dict[str, str] = {
    **dict.fromkeys(("system", "shell", "base::system"), "shell"),
    "system2": "shell_words",
    "pipe": "popen",
    **dict.fromkeys(
        ("processx::run", "sys::exec_wait", "sys::exec_internal", "sys::exec_background"), "argv"
    ),
    **dict.fromkeys(("download.file", "curl_download", "curl::curl_download"), "download"),
    **dict.fromkeys(("url", "GET", "HEAD", "getURL", "curl::curl", "req_perform"), "fetch"),
    **dict.fromkeys(("POST", "PUT", "PATCH", "postForm", "req_body_json", "req_body_raw"), "post"),
    **dict.fromkeys(("req_body_form", "req_body_multipart", "req_body_file", "curl_fetch_multi"), "post"),
    **dict.fromkeys(
        ("readLines", "readRDS", "read.csv", "read.table", "read.delim", "read_csv", "read_lines"), "read"
    ),
    **dict.fromkeys(("read_file", "scan", "file", "readChar", "read_yaml", "fread", "read_json"), "read"),
    **dict.fromkeys(("form_file", "upload_file", "readRenviron"), "read"),
    **dict.fromkeys(("writeLines", "write", "saveRDS", "write.csv", "write.table", "write_csv"), "write"),
    **dict.fromkeys(("write_lines", "write_file"), "write"),
    "cat": "print_or_write",
    **dict.fromkeys(("curl_fetch_memory", "curl_fetch_disk", "curl_fetch_stream"), "fetch_or_post"),
    **dict.fromkeys(("list.files", "dir", "Sys.glob", "fs::dir_ls", "list.dirs"), "glob"),
    **dict.fromkeys(("put_object", "aws.s3::put_object", "s3write_using"), "upload"),
    **dict.fromkeys(("unlink", "file.remove", "fs::file_delete"), "delete"),
    **dict.fromkeys(("fs::dir_delete",), "delete_tree"),
    "file.copy": "copy",
    **dict.fromkeys(("file.rename", "fs::file_move"), "move"),
    **dict.fromkeys(("Sys.chmod", "fs::file_chmod"), "chmod"),
    "Sys.getenv": "environment",
    "Sys.setenv": "setenv",
    **dict.fromkeys(("eval", "evalq", "eval.parent"), "run_code"),
    **dict.fromkeys(("source", "sys.source"), "source"),
    **dict.fromkeys(("source_url", "source_gist", "install_url"), "run_fetched"),
    **dict.fromkeys(("base64decode", "base64_dec", "openssl::base64_decode"), "decode64"),
    **dict.fromkeys(
        ("parse", "str2lang", "str2expression", "rawToChar", "as.character", "as.list"), "identity"
    ),
    **dict.fromkeys(
        ("toJSON", "URLdecode", "URLencode", "trimws", "enc2utf8", "unlist", "request"), "identity"
    ),
    **dict.fromkeys(("req_auth_bearer_token", "req_headers", "req_options", "req_method", "I"), "identity"),
    **dict.fromkeys(("paste", "str_c"), "paste"),
    "paste0": "paste0",
    **dict.fromkeys(("sprintf", "gettextf"), "format"),
    "file.path": "path",
    "fs::path_home": "home",
    **dict.fromkeys(("path.expand", "normalizePath", "fs::path_expand"), "home_path"),
    **dict.fromkeys(("socketConnection", "make.socket"), "connect"),
    **dict.fromkeys(("dbExecute", "dbGetQuery", "dbSendQuery", "dbSendStatement"), "sql"),
    "nsl": "lookup",
    "c": "list",
    "list": "list",
}

# A plumber handler's request, whose fields hold what the client sent; Shiny's `input`, every value of it
_REQUEST_FIELDS = frozenset(
    {"postBody", "body", "args", "argsQuery", "argsBody", "QUERY_STRING", "PATH_INFO"}
)


def _request_member(base: str, field: str) -> bool:
    if base in ("req", "request"):
        return field in _REQUEST_FIELDS or field.startswith("HTTP_")
    return base == "input" or (base == "session" and field == "clientData")


_TOKEN = re.compile(
    r"""(?P<ws>[ \t\r\f\v]+|\\\n)
    |(?P<comment>\#[^\n]*)
    |(?P<nl>\n)
    |(?P<raw>[rR](?P<quote>["'])(?P<dashes>-*)(?P<open>[(\[{]))
    |(?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
    |(?P<num>0[xX][0-9a-fA-F]+L?|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[Li]?)
    |(?P<name>(?:[^\W\d_]|\.(?!\d))[\w.]*|`[^`\n]*`)
    |(?P<op><<-|->>|<-|->|\|>|%[^%\n]*%|:::|::|==|!=|<=|>=|&&|\|\||[-+*/^~?!&|:=<>$@,;(){}\[\]\\])""",
    re.X | re.S,
)
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
_KEYWORDS = frozenset({"function", "if", "else", "for", "while", "repeat", "in"})
_CONSTANTS = {"TRUE": "true", "T": "true", "FALSE": "false", "F": "false", "NULL": "null", "NA": "null"}
MAX_TOKENS = 50_000


class _Unreadable(Exception):
    """The text is not an R program this parser reads."""


def _tokens(source: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    at = 0
    while at < len(source):
        match = _TOKEN.match(source, at)
        if match is None:
            raise _Unreadable
        kind = match.lastgroup or ""
        at = match.end()
        if kind in ("ws", "comment"):
            continue
        if kind == "raw":
            close = _CLOSERS[match.group("open")] + match.group("dashes") + match.group("quote")
            end = source.find(close, at)
            if end < 0:
                raise _Unreadable
            out.append(("str", source[at:end]))
            at = end + len(close)
        elif kind == "str":
            out.append(("str", unescape_all(match.group(0)[1:-1])))
        elif kind == "name" and match.group(0).startswith("`"):
            out.append(("name", match.group(0)[1:-1]))
        else:
            out.append((kind, match.group(0)))
        if len(out) > MAX_TOKENS:
            raise _Unreadable
    out.append(("end", ""))
    return out


# Binary operators: (left binding power, right binding power); right-associative ones bind less to the right
_BINARY = {
    "?": (1, 2),
    "=": (3, 2),
    "<-": (5, 4),
    "<<-": (5, 4),
    "->": (6, 7),
    "->>": (6, 7),
    "~": (8, 9),
    "||": (10, 11),
    "|": (10, 11),
    "&&": (12, 13),
    "&": (12, 13),
    **dict.fromkeys(("==", "!=", "<", ">", "<=", ">="), (16, 17)),
    "+": (18, 19),
    "-": (18, 19),
    "*": (20, 21),
    "/": (20, 21),
    "|>": (22, 23),
    ":": (24, 25),
    "^": (29, 28),
}
_PREFIX = {"-": 26, "+": 26, "!": 14, "~": 8, "?": 1}
_POSTFIX = 30  # calls, indexing, `$`, `@`


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.at = 0
        self.nesting = 0  # open parentheses and brackets: newlines inside them do not end an expression

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.at]

    def take(self) -> tuple[str, str]:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def expect(self, text: str) -> None:
        self.skip_newlines()
        if self.take()[1] != text:
            raise _Unreadable

    def skip_newlines(self) -> None:
        while self.tokens[self.at][0] == "nl" or self.tokens[self.at][1] == ";":
            self.at += 1

    def program(self) -> Node:
        statements = self.statements(end="")
        return n("block", "", *statements)

    def statements(self, end: str) -> list[Node]:
        out: list[Node] = []
        while True:
            self.skip_newlines()
            kind, text = self.peek()
            if kind == "end" or (end and text == end):
                return out
            out.append(self.expression(0))
            following = self.peek()
            if following[0] not in ("nl", "end") and following[1] not in (";", end):
                raise _Unreadable

    def expression(self, floor: int) -> Node:
        left = self.prefix()
        while True:
            if self.nesting:
                self.skip_newlines_only()
            kind, text = self.peek()
            if kind == "op" and text.startswith("%") and len(text) > 1 and text.endswith("%"):
                power = (22, 23)
            elif kind == "op" and text in _BINARY:
                power = _BINARY[text]
            elif kind == "op" and text in ("(", "[", "$", "@", "::", ":::"):
                if floor > _POSTFIX:
                    return left
                left = self.postfix(left)
                continue
            else:
                return left
            if power[0] < floor:
                return left
            self.take()
            self.skip_newlines_only()
            right = self.expression(power[1])
            left = _binary(text, left, right)

    def skip_newlines_only(self) -> None:
        while self.tokens[self.at][0] == "nl":
            self.at += 1

    def postfix(self, left: Node) -> Node:
        _, text = self.take()
        if text in ("$", "@", "::", ":::"):
            kind, name = self.take()
            if kind not in ("name", "str"):
                raise _Unreadable
            if text in ("::", ":::") and left.kind == "name":
                return n("name", f"{left.text}::{name}")
            return n("member", name, left)
        if text == "(":
            names, values = self.arguments(")")
            return n("call", "", left, *values, names=names)
        double = self.peek()[1] == "["
        if double:
            self.take()
        _, values = self.arguments("]")
        if double:
            self.expect("]")
        return n("index", "", left, *values)

    def arguments(self, closer: str) -> tuple[tuple[str | None, ...], list[Node]]:
        names: list[str | None] = []
        values: list[Node] = []
        self.nesting += 1
        try:
            while True:
                self.skip_newlines_only()
                kind, text = self.peek()
                if text == closer:
                    self.take()
                    return tuple(names), values
                if text == ",":  # an empty argument (`x[, 1]`)
                    self.take()
                    continue
                name = None
                if kind in ("name", "str") and self.tokens[self.at + 1][1] == "=":
                    name = text
                    self.at += 2
                    self.skip_newlines_only()
                    if self.peek()[1] in (",", closer):
                        names.append(name)
                        values.append(n("null"))
                        continue
                names.append(name)
                values.append(self.expression(4))
                self.skip_newlines_only()
                if self.peek()[1] == ",":
                    self.take()
                elif self.peek()[1] != closer:
                    raise _Unreadable
        finally:
            self.nesting -= 1

    def prefix(self) -> Node:
        if self.nesting:
            self.skip_newlines_only()
        kind, text = self.take()
        if kind == "str":
            return n("str", text)
        if kind == "num":
            return n("num", text)
        if kind == "name":
            if text in _CONSTANTS:
                return n(_CONSTANTS[text])
            if text in _KEYWORDS:
                return self.keyword(text)
            return n("name", text)
        if kind == "op":
            if text == "(":
                self.nesting += 1
                try:
                    inner = self.expression(0)
                    self.expect(")")
                finally:
                    self.nesting -= 1
                return inner
            if text == "{":
                saved, self.nesting = self.nesting, 0
                try:
                    body = self.statements(end="}")
                    self.take()
                finally:
                    self.nesting = saved
                return n("block", "", *body)
            if text == "\\":  # `\(x) x + 1`: a function
                return self.function()
            if text in _PREFIX:
                return n("unary", text, self.expression(_PREFIX[text]))
        raise _Unreadable

    def keyword(self, word: str) -> Node:
        if word == "function":
            return self.function()
        if word == "if":
            condition = self.condition()
            then = self.body()
            at = self.at
            self.skip_newlines_only()
            if self.peek() == ("name", "else"):
                self.take()
                return n("if", "", condition, then, self.body())
            self.at = at
            return n("if", "", condition, then)
        if word == "for":
            self.expect("(")
            self.nesting += 1
            try:
                kind, variable = self.take()
                if kind != "name" or self.take() != ("name", "in"):
                    raise _Unreadable
                sequence = self.expression(0)
                self.expect(")")
            finally:
                self.nesting -= 1
            return n("for", variable, sequence, self.body())
        if word == "while":
            condition = self.condition()
            return n("while", "", condition, self.body())
        if word == "repeat":
            return n("while", "", n("true"), self.body())
        raise _Unreadable

    def condition(self) -> Node:
        self.expect("(")
        self.nesting += 1
        try:
            condition = self.expression(0)
            self.expect(")")
        finally:
            self.nesting -= 1
        return condition

    def body(self) -> Node:
        self.skip_newlines_only()
        return self.expression(4)

    def function(self) -> Node:
        self.expect("(")
        names, defaults = self.parameters()
        body = self.body()
        # a parameter's default is evaluated when the function is called without it: read with the body
        return n("func", "", n("block", "", *defaults, body), names=names)

    def parameters(self) -> tuple[tuple[str | None, ...], list[Node]]:
        names: list[str | None] = []
        defaults: list[Node] = []
        self.nesting += 1
        try:
            while True:
                self.skip_newlines_only()
                kind, text = self.take()
                if text == ")":
                    return tuple(names), defaults
                if text == ",":
                    continue
                if kind != "name" and text != "...":
                    raise _Unreadable
                names.append(text)
                if self.peek()[1] == "=":
                    self.take()
                    defaults.append(self.expression(4))
        finally:
            self.nesting -= 1


def _binary(op: str, left: Node, right: Node) -> Node:
    if op in ("<-", "<<-", "="):
        return n("assign", "", left, right)
    if op in ("->", "->>"):
        return n("assign", "", right, left)
    if op in ("|>", "%>%", "%T>%", "%!>%"):  # `x |> f(y)` is `f(x, y)`; `x %>% f` is `f(x)`
        if right.kind == "call":
            callee, *rest = right.parts
            names = (None, *(right.names or (None,) * len(rest)))
            return n("call", "", callee, left, *rest, names=names)
        return n("call", "", right, left, names=(None,))
    return n("binop", op, left, right)


def parse(source: str) -> Node | None:
    """The program `source` is, or None when it is not one this parser reads."""
    try:
        return _Parser(_tokens(source)).program()
    except (_Unreadable, IndexError, ValueError, RecursionError):
        return None


LANGUAGE = Language("R", EFFECTS, {}, _request_member, parse)
