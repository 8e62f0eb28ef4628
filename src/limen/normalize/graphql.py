"""GraphQL mutations a call carries (an MCP tool's `query` argument, a request's body): each top-level field
of a `mutation` is read as the tool call it equals, its name the tool and its arguments the tool's
(`webhookSubscriptionCreate(webhookSubscription: {callbackUrl: URL})` is `webhook_subscription_create(
webhookSubscription={"callbackUrl": URL})`), so the table of controls, the store destroyers and the delivery
hosts judge a mutation as they judge the same call made as a tool. Queries change nothing and are left out;
a document that does not parse runs nowhere either (the server refuses it), so it yields nothing."""

from __future__ import annotations

import re

from limen.normalize.tools import BULK_TARGET, service_call_notes, subscribed_hosts

MAX_TEXT = 64_000  # longer documents are read this far
_MAX_FIELDS = 32  # top-level fields read from one document
_MAX_DEPTH = 12  # nesting of argument values

_TOKEN = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'  # a block string
    r'|"(?:[^"\\\n]|\\.)*"'  # a string
    r"|\$?[_A-Za-z][_0-9A-Za-z]*"  # a name or a variable
    r"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"  # a number
    r"|\.\.\.|[{}()\[\]:=@!]"  # punctuation
    r"|#[^\n]*|[\s,]+"  # comments and separators, dropped
)


# What a bulk operation's mutation does to every item it is run for
_DESTROYING = re.compile(r"(?i)delete|destroy|remove|purge")


def mutation_notes(texts: list[str], service: str = "") -> tuple[bool, list[str]]:
    """Whether GraphQL documents among `texts` run a mutation, and what they do, each field judged as the
    tool call it equals (`normalize.tools.service_call_notes`: a control off, a store destroyed, money moved;
    a webhook's or a script tag's host, `subscribed_hosts`); a bulk operation's mutation that deletes, run
    for every line of its upload (`bulkOperationRunMutation(mutation: "mutation { productDelete(...) }")`),
    is a bulk target."""
    runs = False
    notes: list[str] = []
    for text in texts[:16]:
        for name, given in mutations(text):
            runs = True
            notes += service_call_notes(name, given, service) + subscribed_hosts(name, given)
            for inner in [v for v in given.values() if isinstance(v, str)][:4]:
                for inner_name, inner_given in mutations(inner):
                    notes += service_call_notes(inner_name, inner_given, service)
                    if _DESTROYING.search(inner_name):
                        notes.append(f"{BULK_TARGET}{inner_name} for every item {name} is given")
    return runs, notes


class _Unparsed(Exception):
    """The document is not GraphQL this reader follows."""


def mutations(text: str) -> list[tuple[str, dict[str, object]]]:
    """The top-level fields of the mutations in `text` with their arguments (`[("orderMarkAsPaid", {"input":
    {"id": "gid://..."}})]`); [] for queries, fragments and what does not parse."""
    if "mutation" not in text:
        return []
    try:
        tokens = _tokens(text[:MAX_TEXT])
        return _Reader(tokens).document()
    except (_Unparsed, IndexError, RecursionError):
        return []


def _tokens(text: str) -> list[str]:
    found: list[str] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise _Unparsed(f"unexpected character at {position}")
        token = match.group(0)
        position = match.end()
        if token[0] not in " \t\r\n,#":
            found.append(token)
    return found


class _Reader:
    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.at = 0

    def _next(self) -> str:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def _peek(self) -> str:
        return self.tokens[self.at] if self.at < len(self.tokens) else ""

    def _skip_balanced(self, opening: str, closing: str) -> None:
        depth = 0
        while True:
            token = self._next()
            depth += token == opening
            depth -= token == closing
            if depth == 0:
                return

    def document(self) -> list[tuple[str, dict[str, object]]]:
        found: list[tuple[str, dict[str, object]]] = []
        while self.at < len(self.tokens):
            token = self._next()
            if token not in ("mutation", "query", "subscription", "fragment", "{"):
                raise _Unparsed(f"unexpected {token[:20]}")
            if token == "{":  # a query written as its selection alone
                self.at -= 1
            self._skip_header()
            if token != "mutation":
                self._skip_balanced("{", "}")  # a query, a subscription or a fragment changes nothing
                continue
            self._next()  # {
            found += self._fields()
        return found[:_MAX_FIELDS]

    def _skip_header(self) -> None:
        """An operation's name, variables and directives, up to its selection's `{`."""
        while self._peek() not in ("{", ""):
            if self._peek() == "(":
                self._skip_balanced("(", ")")
            else:
                self._next()

    def _fields(self) -> list[tuple[str, dict[str, object]]]:
        found: list[tuple[str, dict[str, object]]] = []
        while (token := self._next()) != "}":
            if token == "...":  # a fragment spread or an inline fragment: no field of its own here
                continue
            name = token
            if self._peek() == ":":  # `alias: field`
                self._next()
                name = self._next()
            arguments: dict[str, object] = {}
            if self._peek() == "(":
                self._next()
                while self._peek() != ")":
                    key = self._next()
                    if self._next() != ":":
                        raise _Unparsed("argument without a value")
                    arguments[key] = self._value(0)
                self._next()
            while self._peek() == "@":  # directives
                self._next()
                self._next()
                if self._peek() == "(":
                    self._skip_balanced("(", ")")
            if self._peek() == "{":
                self._skip_balanced("{", "}")
            found.append((name, arguments))
        return found

    def _value(self, depth: int) -> object:
        if depth > _MAX_DEPTH:
            raise _Unparsed("nested too deep")
        token = self._next()
        if token == "[":
            items = []
            while self._peek() != "]":
                items.append(self._value(depth + 1))
            self._next()
            return items
        if token == "{":
            fields: dict[str, object] = {}
            while self._peek() != "}":
                key = self._next()
                if self._next() != ":":
                    raise _Unparsed("object field without a value")
                fields[key] = self._value(depth + 1)
            self._next()
            return fields
        if token.startswith('"""'):
            return token[3:-3]
        if token.startswith('"'):
            return _unescaped(token[1:-1])
        return {"true": True, "false": False, "null": None}.get(token, token)


def _unescaped(text: str) -> str:
    if "\\" not in text:
        return text
    return re.sub(r'\\u([0-9a-fA-F]{4})|\\(["\\/bfnrt])', _escape, text)


def _escape(match: re.Match[str]) -> str:
    if match.group(1):
        return chr(int(match.group(1), 16))
    return {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}.get(match.group(2), match.group(2))
