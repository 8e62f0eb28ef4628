"""Elixir programs (`elixir -e`, `mix run -e`), read with the tree-sitter grammar (from PyPI, imported on
first use) into `foreign.Node`s, their calls named by the table of effects.

Elixir's pipe hands its left side to the call on its right as the first argument (`File.read!(p) |>
Req.post!(url, body: ...)`), `<>` joins texts, `#{...}` interpolates; keyword lists are a call's named
arguments. A module's functions are named as written (`File.rm_rf!`, `:os.cmd`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from limen.normalize.code.foreign import Language, Node, n
from limen.normalize.code.jllua import TreeReader, parse_tree
from limen.normalize.code.treesitter import unescape_all

if TYPE_CHECKING:
    from tree_sitter import Node as TsNode

# Elixir's and Erlang's functions with an effect (`foreign.BUILDS`), the bang and plain forms alike
ELIXIR_EFFECTS: dict[str, str] = {
    "System.cmd": "argv",
    **dict.fromkeys(("System.shell", ":os.cmd"), "shell"),
    **dict.fromkeys(("File.read", "File.read!", "File.stream!", "File.open", "File.open!"), "read"),
    **dict.fromkeys(("File.write", "File.write!"), "write_to"),
    **dict.fromkeys(("File.rm", "File.rm!"), "delete"),
    **dict.fromkeys(("File.rm_rf", "File.rm_rf!"), "delete_tree"),
    **dict.fromkeys(("File.cp", "File.cp!", "File.cp_r", "File.cp_r!"), "copy"),
    **dict.fromkeys(("File.rename", "File.rename!"), "move"),
    **dict.fromkeys(("File.chmod", "File.chmod!"), "chmod"),
    **dict.fromkeys(("File.ls", "File.ls!", "Path.wildcard"), "glob"),
    "Path.join": "path",
    "Path.expand": "home_path",
    **dict.fromkeys(("System.user_home", "System.user_home!"), "home"),
    "System.get_env": "environment",  # (the whole of it when given no name)
    "System.put_env": "setenv",
    **dict.fromkeys(("Code.eval_string", "Code.eval_quoted", "Code.compile_string"), "run_code"),
    **dict.fromkeys(("Code.require_file", "Code.eval_file", "Code.compile_file"), "source"),
    **dict.fromkeys(
        ("Base.decode64", "Base.decode64!", "Base.url_decode64", "Base.url_decode64!"), "decode64"
    ),
    **dict.fromkeys(
        ("Base.encode64", "Base.encode32", "Base.encode16", "Base.url_encode64", "Jason.encode!"), "identity"
    ),
    **dict.fromkeys(("Jason.encode", "inspect", "to_string", "String.downcase", "String.upcase"), "identity"),
    **dict.fromkeys(("String.trim", "String.to_charlist", "binary_part", "URI.encode"), "identity"),
    **dict.fromkeys(("Req.get", "Req.get!", "HTTPoison.get", "HTTPoison.get!", "Tesla.get"), "fetch"),
    **dict.fromkeys(("Req.post", "Req.post!", "Req.put", "Req.put!", "Req.patch", "Req.patch!"), "post"),
    **dict.fromkeys(("HTTPoison.post", "HTTPoison.post!", "HTTPoison.put", "Tesla.post"), "post"),
    **dict.fromkeys(("Req.request", "Req.request!", ":httpc.request"), "fetch_or_post"),
    **dict.fromkeys((":gen_tcp.connect", ":ssl.connect", ":gen_udp.send"), "connect"),
    **dict.fromkeys((":inet_res.lookup", ":inet_res.getbyname", ":inet_res.resolve"), "lookup"),
    **dict.fromkeys((":inet.gethostbyname", ":inet.getaddr"), "lookup"),
}

# Definitions and control forms: what their blocks hold runs (a function's body when it is called)
_FORMS = frozenset(
    {"defmodule", "def", "defp", "defmacro", "if", "unless", "case", "cond", "with", "for", "try", "receive"}
)


def _request(base: str, field: str) -> bool:
    """Phoenix's and Plug's request: what the client sent (`conn.body_params`, `conn.params`)."""
    return base == "conn" and field in ("body_params", "params", "query_params", "req_headers", "path_params")


class _Reader(TreeReader):
    """Elixir's tree-sitter tree into `Node`s (the reader Julia and Lua share, with Elixir's kinds)."""

    def __init__(self, data: bytes) -> None:
        super().__init__("elixir", data)
        self.kinds = _KINDS
        self.bodies = frozenset({"source", "do_block", "body", "block", "stab_clause"})

    def atom(self, node: TsNode) -> Node:
        return n("str", self.text(node).lstrip(":"))

    def string(self, node: TsNode) -> Node:
        """A string, a charlist or a sigil (`~c"ls"`), with its interpolations (`"a#{b}c"`)."""
        parts: list[Node] = []
        for child in node.named_children:
            if child.type == "quoted_content":
                parts.append(n("str", self.text(child)))
            elif child.type == "escape_sequence":
                parts.append(n("str", unescape_all(self.text(child))))
            elif child.type == "interpolation":
                inner = [c for c in child.named_children if c.type != "comment"]
                parts.append(self.read(inner[0]) if inner else n("null"))
        if all(p.kind == "str" for p in parts):
            return n("str", "".join(p.text for p in parts))
        return n("interp", "", *parts)

    def dot(self, node: TsNode) -> Node:
        """`conn.body_params`, `Mix.Project`: a member of a value or a module."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        # (an Erlang module is an atom: `:os.cmd` is named with its colon)
        owner = n("name", self.text(left)) if left is not None and left.type == "atom" else self.read(left)
        return n("member", self.text(right) if right is not None else "", owner)

    def call(self, node: TsNode) -> Node:
        target = node.child_by_field_name("target")
        names: list[str | None] = []
        given: list[Node] = []
        for child in node.named_children:
            if child.type == "arguments":
                self.entries(child.named_children, names, given)
            elif child.type == "do_block":  # its body runs (a form's, a function's, a block handed over)
                names.append(None)
                given.append(n("func", "", self.read(child)))
        if target is not None and target.type == "identifier" and self.text(target) in _FORMS:
            return n("block", "", *(g.parts[0] if g.kind == "func" and g.parts else g for g in given))
        callee = self.read(target)
        return n("call", "", callee, *given, names=tuple(names))

    def binary(self, node: TsNode) -> Node:
        left = self.read(node.child_by_field_name("left"))
        right_node = node.child_by_field_name("right")
        right = self.read(right_node)
        operator = node.child_by_field_name("operator")
        op = self.text(operator) if operator is not None else ""
        if op == "|>":  # `x |> f(a)`: `f(x, a)`
            if right.kind == "call" and right.parts:
                names = right.names or (None,) * (len(right.parts) - 1)
                return n("call", "", right.parts[0], left, *right.parts[1:], names=(None, *names))
            return n("call", "", right, left, names=(None,))
        if op == "<>":
            return n("concat", "", left, right)
        if op == "=":  # a match binds the names of its left side
            return n("assign", "", left, right) if left.kind == "name" else n("block", "", right)
        return n("binop", op, left, right)

    def access(self, node: TsNode) -> Node:
        parts = [c for c in node.named_children if c.type != "comment"]
        return n("index", "", *(self.read(p) for p in parts[:2]))

    def function(self, node: TsNode) -> Node:
        return n("func", "", n("block", "", *(self.read(c) for c in node.named_children)))

    def mapping(self, node: TsNode) -> Node:
        """`%{"b" => x, a: 1}`: a dict of its entries and keyword pairs."""
        names: list[str | None] = []
        values: list[Node] = []
        self.entries(node.named_children, names, values)
        return n("call", "", n("name", "dict"), *values, names=tuple(names))

    def entries(self, children: list[TsNode], names: list[str | None], values: list[Node]) -> None:
        """A call's arguments or a map's entries, in order: a keyword pair by its key (`body: k`), any
        other value by its position."""
        stack = list(reversed(children))
        while stack:
            child = stack.pop()
            if child.type in ("map_content", "keywords"):
                stack.extend(reversed(child.named_children))
            elif child.type == "pair":
                key = child.child_by_field_name("key")
                names.append(self.text(key).rstrip(": ") if key is not None else None)
                values.append(self.read(child.child_by_field_name("value")))
            elif child.type != "comment":
                names.append(None)
                values.append(self.read(child))


_KINDS: dict[str, Callable[[_Reader, TsNode], Node]] = {
    **dict.fromkeys(("identifier", "alias"), _Reader.name),
    "atom": _Reader.atom,
    **dict.fromkeys(("integer", "float"), _Reader.number),
    **dict.fromkeys(("boolean", "nil"), _Reader.literal),
    **dict.fromkeys(("string", "charlist", "sigil"), _Reader.string),
    **dict.fromkeys(("list", "tuple"), _Reader.items),
    "map": _Reader.mapping,
    "dot": _Reader.dot,
    "call": _Reader.call,
    "binary_operator": _Reader.binary,
    "access_call": _Reader.access,
    "anonymous_function": _Reader.function,
    "comment": lambda r, _: n("null"),
}


def parse_elixir(source: str) -> Node | None:
    """The Elixir program `source` is, or None when it does not parse."""
    return parse_tree("elixir", source, _Reader)


LANGUAGE = Language("Elixir", ELIXIR_EFFECTS, {}, _request, parse_elixir)
