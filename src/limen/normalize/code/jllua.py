"""Julia and Lua programs (`julia -e`, `.jl` files, `startup.jl`; `lua -e`, `resty -e`, OpenResty, Kong and
HAProxy plug-ins), read with their tree-sitter grammars (from PyPI, imported on first use) into
`foreign.Node`s, their calls named by each language's table of effects."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from limen.normalize.code.foreign import Language, Node, n
from limen.normalize.code.treesitter import unescape_all

if TYPE_CHECKING:
    from tree_sitter import Node as TsNode

# Julia's functions with an effect (`foreign.BUILDS`)
JULIA_EFFECTS: dict[str, str] = {
    **dict.fromkeys(("download", "Downloads.download", "HTTP.download"), "download"),
    **dict.fromkeys(("HTTP.get", "HTTP.head", "HTTP.open"), "fetch"),
    **dict.fromkeys(("HTTP.post", "HTTP.put", "HTTP.patch", "HTTP.request"), "post"),
    **dict.fromkeys(("rm", "Base.rm"), "delete"),
    **dict.fromkeys(("write", "Base.write"), "write_to"),
    **dict.fromkeys(("read", "readlines", "readchomp", "readline", "open", "eachline"), "read"),
    **dict.fromkeys(("readdir", "walkdir", "Glob.glob"), "glob"),
    **dict.fromkeys(("cp", "Base.cp"), "copy"),
    **dict.fromkeys(("mv", "Base.mv"), "move"),
    "chmod": "chmod",
    **dict.fromkeys(("eval", "Core.eval", "include_string"), "run_code"),
    **dict.fromkeys(("include", "Base.include"), "source"),
    **dict.fromkeys(
        ("Meta.parse", "Meta.parseall", "String", "strip", "JSON.json", "JSON3.write"), "identity"
    ),
    **dict.fromkeys(("Dict", "collect", "Base64.base64encode"), "identity"),
    **dict.fromkeys(("base64decode", "Base64.base64decode"), "decode64"),
    **dict.fromkeys(("string", "repr"), "paste0"),
    "joinpath": "path",
    "expanduser": "home_path",
    "homedir": "home",
    **dict.fromkeys(("connect", "Sockets.connect"), "connect"),
    **dict.fromkeys(("getaddrinfo", "Sockets.getaddrinfo", "getalladdrinfo"), "lookup"),
    **dict.fromkeys(("pipeline", "Base.pipeline"), "pipeline"),
    "Cmd": "argv_list",  # `Cmd(["curl", "-d", ...])`: a command of a word list, run where it is written
    # Genie's request payloads: what the web client sent
    **dict.fromkeys(("rawpayload", "jsonpayload", "postpayload", "getpayload", "filespayload"), "request"),
    "LibPQ.execute": "sql",
    "DBInterface.execute": "sql",
}

# Lua's, with OpenResty's (`ngx`), Kong's PDK (`kong`), LuaSocket's and HAProxy's (`core`); `:name` is a
# method of any object (`httpc:request_uri(url, {...})`, `sock:connect(host, port)`)
LUA_EFFECTS: dict[str, str] = {
    "os.execute": "shell",
    "io.popen": "popen",
    "os.remove": "delete",
    "os.rename": "move",
    **dict.fromkeys(("io.lines", "io.open", "loadfile"), "read"),
    **dict.fromkeys(("loadstring", "load"), "run_code"),
    "dofile": "source",
    "os.getenv": "variable",
    **dict.fromkeys(("ngx.socket.tcp", "ngx.socket.udp", "socket.tcp", "socket.udp", "core.tcp"), "socket"),
    **dict.fromkeys(("ngx.socket.connect", "socket.connect", ":connect"), "connect"),
    **dict.fromkeys(
        (":request_uri", "socket.http.request", "http.request", "https.request"), "fetch_or_post"
    ),
    **dict.fromkeys(("ngx.decode_base64", "ngx.decode_base64mime", "mime.unb64"), "decode64"),
    **dict.fromkeys(("ngx.encode_base64", "tostring", "cjson.encode", "ngx.escape_uri"), "identity"),
    **dict.fromkeys(("ngx.req.get_body_data", "ngx.req.get_headers", "ngx.req.get_uri_args"), "request"),
    **dict.fromkeys(("ngx.req.get_post_args", "ngx.req.read_body", "ngx.req.raw_header"), "request"),
    **dict.fromkeys(
        ("kong.request.get_header", "kong.request.get_headers", "kong.request.get_body"), "request"
    ),
    **dict.fromkeys(
        ("kong.request.get_raw_body", "kong.request.get_query", "kong.request.get_query_arg"), "request"
    ),
    **dict.fromkeys(("kong.request.get_raw_query", "kong.request.get_path_with_query"), "request"),
}


def _julia_request(base: str, field: str) -> bool:
    """HTTP.jl's request body (`req.body`): what the client sent."""
    return base in ("req", "request") and field in ("body", "target", "headers")


def _lua_request(base: str, field: str) -> bool:
    """OpenResty's request variables (`ngx.var.arg_c`, `ngx.var.http_x_token`, `ngx.var.request_body`)."""
    return base == "ngx.var" and field.startswith(
        ("arg_", "http_", "cookie_", "request_body", "args", "query")
    )


class Unreadable(Exception):
    """The program nests deeper than the reader follows."""


MAX_DEPTH = 200


class TreeReader:
    """A tree-sitter tree into `Node`s: the kinds that carry values and effects read one by one, any other
    read as the block of its parts (nothing in it is skipped)."""

    def __init__(self, lang: str, data: bytes) -> None:
        self.lang = lang
        self.data = data
        self.depth = 0
        self.kinds: dict[str, Callable[[Any, TsNode], Node]] = _JULIA if lang == "julia" else _LUA
        self.bodies = _BODIES  # the kinds whose parts run in order, even one

    def text(self, node: TsNode) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def read(self, node: TsNode | None) -> Node:
        if node is None:
            return n("null")
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unreadable
        try:
            reader = self.kinds.get(node.type)
            if reader is not None:
                return reader(self, node)
            parts = [c for c in node.named_children if c.type not in _COMMENTS]
            if len(parts) == 1 and node.type not in self.bodies:  # a wrapper (`(x)`, an argument): its part
                return self.read(parts[0])
            return n("block", "", *(self.read(c) for c in parts))
        finally:
            self.depth -= 1

    # ----------------------------------------------------------------- shared

    def items(self, node: TsNode) -> Node:
        """`[a, b]`, `(a, b)`: a list of values."""
        return n("list", "", *(self.read(c) for c in node.named_children if c.type not in _COMMENTS))

    def name(self, node: TsNode) -> Node:
        return n("name", self.text(node))

    def number(self, node: TsNode) -> Node:
        return n("num", self.text(node))

    def literal(self, node: TsNode) -> Node:
        word = self.text(node)
        return n({"true": "true", "false": "false"}.get(word, "null"))

    def string(self, node: TsNode) -> Node:
        """A string literal, or a Julia string or command with interpolations (`"a$(b)c"`, `` `rm $p` ``)."""
        if self.lang == "lua":  # `"..."`, `'...'`, `[[...]]`: no interpolation
            content = node.child_by_field_name("content")
            return n("str", unescape_all(self.text(content)) if content is not None else "")
        parts: list[Node] = []
        quote_width = 3 if self.text(node)[:3] in ('"""', "```") else 1
        cursor = node.start_byte + quote_width
        for child in node.named_children:
            if child.start_byte > cursor:
                parts.append(n("str", self.data[cursor : child.start_byte].decode("utf-8", "replace")))
            if child.type == "escape_sequence":
                parts.append(n("str", unescape_all(self.text(child))))
            elif child.type == "content":
                parts.append(n("str", self.text(child)))
            elif child.type == "string_interpolation":
                inner = child.named_children
                parts.append(self.read(inner[0]) if inner else n("null"))
            elif child.type not in _COMMENTS:
                parts.append(self.read(child))
            cursor = child.end_byte
        end = node.end_byte - quote_width
        if end > cursor:
            parts.append(n("str", self.data[cursor:end].decode("utf-8", "replace")))
        if node.type == "command_literal":
            return n("command", "", *parts)
        if all(p.kind == "str" for p in parts):
            return n("str", "".join(p.text for p in parts))
        return n("interp", "", *parts)

    # ----------------------------------------------------------------- Julia

    def jl_call(self, node: TsNode) -> Node:
        children = node.named_children
        callee = self.read(children[0]) if children else n("null")
        names: list[str | None] = []
        values: list[Node] = []
        for child in children[1:]:
            if child.type not in ("argument_list", "do_clause"):  # (a `do` block's body runs: read too)
                continue
            for argument in child.named_children:
                if argument.type == "named_argument":
                    parts = argument.named_children
                    names.append(self.text(parts[0]) if parts else None)
                    values.append(self.read(parts[-1]) if len(parts) > 1 else n("null"))
                elif argument.type != "comment":
                    names.append(None)
                    values.append(self.read(argument))
        return n("call", "", callee, *values, names=tuple(names))

    def jl_field(self, node: TsNode) -> Node:
        parts = node.named_children
        if len(parts) < 2:
            return self.read(parts[0]) if parts else n("null")
        return n("member", self.text(parts[-1]), self.read(parts[0]))

    def jl_assign(self, node: TsNode) -> Node:
        parts = [c for c in node.named_children if c.type != "operator"]
        if len(parts) < 2:
            return n("block", "", *(self.read(p) for p in parts))
        target, value = parts[0], parts[-1]
        if target.type == "call_expression":  # `f(x) = body`: a function
            return n("func", "", self.read(value))
        return n("assign", "", self.read(target), self.read(value))

    def jl_binary(self, node: TsNode) -> Node:
        parts = [c for c in node.named_children if c.type != "operator"]
        operator = next((c for c in node.children if c.type == "operator" or not c.is_named), None)
        op = self.text(operator) if operator is not None else ""
        if len(parts) != 2:
            return n("block", "", *(self.read(p) for p in parts))
        left, right = self.read(parts[0]), self.read(parts[1])
        if op == "*":  # Julia joins strings with `*`
            return n("concat", "", left, right)
        if op == "|>":  # `x |> f`: `f(x)`
            return n("call", "", right, left, names=(None,))
        return n("binop", op, left, right)

    def jl_index(self, node: TsNode) -> Node:
        parts = node.named_children
        if not parts:
            return n("null")
        keys = parts[1].named_children if len(parts) > 1 else []
        return n("index", "", self.read(parts[0]), *(self.read(k) for k in keys))

    def jl_function(self, node: TsNode) -> Node:
        body = [self.read(c) for c in node.named_children if c.type not in ("signature", "comment")]
        return n("func", "", n("block", "", *body))

    # ----------------------------------------------------------------- Lua

    def lua_call(self, node: TsNode) -> Node:
        callee_node = node.child_by_field_name("name")
        arguments = node.child_by_field_name("arguments")
        callee = self.read(callee_node)
        if callee_node is not None and callee_node.type == "method_index_expression":
            method = callee_node.child_by_field_name("method")
            table = callee_node.child_by_field_name("table")
            callee = n("method", self.text(method) if method is not None else "", self.read(table))
        values: list[Node] = []
        if arguments is not None:
            if arguments.type in ("string", "table_constructor"):  # `f"x"`, `f{...}`
                values.append(self.read(arguments))
            else:
                values = [self.read(c) for c in arguments.named_children if c.type != "comment"]
        return n("call", "", callee, *values)

    def lua_dot(self, node: TsNode) -> Node:
        table = node.child_by_field_name("table")
        field = node.child_by_field_name("field")
        return n("member", self.text(field) if field is not None else "", self.read(table))

    def lua_method(self, node: TsNode) -> Node:
        table = node.child_by_field_name("table")
        method = node.child_by_field_name("method")
        return n("method", self.text(method) if method is not None else "", self.read(table))

    def lua_bracket(self, node: TsNode) -> Node:
        return n(
            "index",
            "",
            self.read(node.child_by_field_name("table")),
            self.read(node.child_by_field_name("field")),
        )

    def lua_binary(self, node: TsNode) -> Node:
        left = self.read(node.child_by_field_name("left"))
        right = self.read(node.child_by_field_name("right"))
        operator = next((c for c in node.children if not c.is_named), None)
        op = self.text(operator) if operator is not None else ""
        if op == "..":
            return n("concat", "", left, right)
        return n("binop", op, left, right)

    def lua_assign(self, node: TsNode) -> Node:
        targets = node.named_children[0].named_children if node.named_child_count else []
        values = node.named_children[1].named_children if node.named_child_count > 1 else []
        out = [n("assign", "", self.read(t), self.read(v)) for t, v in zip(targets, values, strict=False)]
        out += [self.read(v) for v in values[len(targets) :]]
        return out[0] if len(out) == 1 else n("block", "", *out)

    def lua_table(self, node: TsNode) -> Node:
        names: list[str | None] = []
        values: list[Node] = []
        for field in node.named_children:
            if field.type != "field":
                continue
            key = field.child_by_field_name("name")
            names.append(self.text(key) if key is not None and key.type == "identifier" else None)
            values.append(self.read(field.child_by_field_name("value")))
        return n("call", "", n("name", "dict"), *values, names=tuple(names))

    def lua_function(self, node: TsNode) -> Node:
        body = node.child_by_field_name("body")
        return n("func", "", self.read(body) if body is not None else n("block"))


_COMMENTS = frozenset({"comment", "line_comment", "block_comment"})
# Nodes whose parts are statements run in order, even one (a block, a loop's or a function's body)
_BODIES = frozenset(
    {"block", "compound_statement", "source_file", "chunk", "do_clause", "try_statement", "catch_clause"}
)
_JULIA: dict[str, Callable[[TreeReader, TsNode], Node]] = {
    **dict.fromkeys(("vector_expression", "tuple_expression", "matrix_expression"), TreeReader.items),
    "identifier": TreeReader.name,
    **dict.fromkeys(("integer_literal", "float_literal"), TreeReader.number),
    "boolean_literal": TreeReader.literal,
    **dict.fromkeys(("string_literal", "command_literal", "prefixed_string_literal"), TreeReader.string),
    "call_expression": TreeReader.jl_call,
    "field_expression": TreeReader.jl_field,
    "assignment": TreeReader.jl_assign,
    "binary_expression": TreeReader.jl_binary,
    "index_expression": TreeReader.jl_index,
    "function_definition": TreeReader.jl_function,
    **dict.fromkeys(
        ("using_statement", "import_statement", "line_comment", "block_comment"), lambda r, _: n("null")
    ),
}
_LUA: dict[str, Callable[[TreeReader, TsNode], Node]] = {
    "identifier": TreeReader.name,
    "number": TreeReader.number,
    **dict.fromkeys(("true", "false", "nil"), TreeReader.literal),
    "string": TreeReader.string,
    "function_call": TreeReader.lua_call,
    "dot_index_expression": TreeReader.lua_dot,
    "method_index_expression": TreeReader.lua_method,
    "bracket_index_expression": TreeReader.lua_bracket,
    "binary_expression": TreeReader.lua_binary,
    "assignment_statement": TreeReader.lua_assign,
    "table_constructor": TreeReader.lua_table,
    **dict.fromkeys(("function_declaration", "function_definition"), TreeReader.lua_function),
}


def parse_tree(lang: str, source: str, reader: Callable[[bytes], TreeReader] | None = None) -> Node | None:
    """The program `source` in `lang`, read by `reader` (the shared reader of Julia and Lua unless a language
    brings its own), or None when it does not parse or nests deeper than the reader follows."""
    data = source.encode("utf-8", "replace")
    from limen.normalize.code.treesitter import parser

    root = parser(lang).parse(data).root_node
    if root.has_error:
        return None
    try:
        return (reader(data) if reader is not None else TreeReader(lang, data)).read(root)
    except (Unreadable, RecursionError):
        return None


def parse_julia(source: str) -> Node | None:
    """The Julia program `source` is, or None when it does not parse."""
    return parse_tree("julia", source)


def parse_lua(source: str) -> Node | None:
    """The Lua program `source` is, or None when it does not parse."""
    return parse_tree("lua", source)


JULIA = Language("Julia", JULIA_EFFECTS, {"ENV": "os.environ"}, _julia_request, parse_julia)
LUA = Language("Lua", LUA_EFFECTS, {}, _lua_request, parse_lua)


# Where a server's configuration embeds Lua: nginx's and OpenResty's directives (`access_by_lua_block {`,
# `content_by_lua '...'`), Envoy's Lua filter (`inline_code`, `inline_string`), Kong's function plugins
# (`pre-function`, `post-function`: each phase a list of Lua chunks)
_LUA_BLOCK = re.compile(r"\b\w+_by_lua_block\s*\{")
_LUA_QUOTED = re.compile(r"""\b\w+_by_lua\s+(['"])((?:\\.|(?!\1).)*)\1""", re.S)
_LUA_KEYS = frozenset({"inline_code", "inline_string"})
_FUNCTION_PLUGINS = frozenset({"pre-function", "post-function"})


def embedded_lua(text: str) -> list[str]:
    """The Lua programs a configuration's text holds, in the order they appear."""
    found = [m.group(2) for m in _LUA_QUOTED.finditer(text)]
    for match in _LUA_BLOCK.finditer(text):
        found.append(_braced(text, match.end()))
    if "inline_" in text or "-function" in text:
        found += _yaml_lua(text)
    return [code for code in found if code.strip()]


def _braced(text: str, start: int) -> str:
    """The text from `start` to the brace that closes the one before it (strings and comments skipped)."""
    depth, at, quote = 1, start, ""
    while at < len(text):
        char = text[at]
        if quote:
            if char == "\\":
                at += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "-" and text.startswith("--", at):  # a Lua comment, to the line's end
            end = text.find("\n", at)
            at = len(text) if end < 0 else end
            continue
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return text[start:at]
        at += 1
    return text[start:]


def _yaml_lua(text: str) -> list[str]:
    import yaml

    try:
        documents = list(yaml.safe_load_all(text))
    except yaml.YAMLError:
        return [m.group(1) for m in _YAML_BLOCK.finditer(text)]
    found: list[str] = []
    stack: list[object] = list(documents)
    while stack and len(found) < 16:
        value = stack.pop()
        if isinstance(value, dict):
            if value.get("name") in _FUNCTION_PLUGINS and isinstance(value.get("config"), dict):
                for chunks in value["config"].values():
                    found += [c for c in chunks if isinstance(c, str)] if isinstance(chunks, list) else []
            for key, item in value.items():
                if key in _LUA_KEYS and isinstance(item, str):
                    found.append(item)
                else:
                    stack.append(item)
        elif isinstance(value, list):
            stack.extend(value)
    return found


# an `inline_code: |` block in YAML that does not parse whole (an edit's fragment): its indented lines
_YAML_BLOCK = re.compile(r"inline_(?:code|string):\s*\|[-+]?[ \t]*\n((?:[ \t]+[^\n]*\n?)+)")
