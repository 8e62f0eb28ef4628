"""Go programs (`go run ./tools/x`, `go run main.go`), read with the tree-sitter grammar (from PyPI, imported
on first use) into `foreign.Node`s, their calls named by the table of effects.

Go returns errors beside values (`b, err := os.ReadFile(p)`): the first name of a declaration takes the
call's value. `+` joins strings, `[]byte(s)` and `string(b)` keep what they convert; a function's body is
read where it is declared (`main` runs when the program does), a method's and a closure's too."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from limen.normalize.code.foreign import Language, Node, n
from limen.normalize.code.jllua import TreeReader, parse_tree
from limen.normalize.code.treesitter import unescape_all

if TYPE_CHECKING:
    from tree_sitter import Node as TsNode

# Go's standard library calls with an effect (`foreign.BUILDS`), by the package name they are written with
GO_EFFECTS: dict[str, str] = {
    **dict.fromkeys(("os.ReadFile", "ioutil.ReadFile", "os.Open", "os.ReadDir", "ioutil.ReadDir"), "read"),
    **dict.fromkeys(("os.WriteFile", "ioutil.WriteFile"), "write_to"),
    "os.Create": "write_to",
    "os.Remove": "delete",
    "os.RemoveAll": "delete_tree",
    "os.Rename": "move",
    "os.Chmod": "chmod",
    **dict.fromkeys(("filepath.Join", "path.Join"), "path"),
    "os.UserHomeDir": "home",
    **dict.fromkeys(("os.Getenv", "os.LookupEnv"), "variable"),
    "os.Environ": "environment",
    "os.Setenv": "setenv",
    **dict.fromkeys(("filepath.Glob", "filepath.WalkDir", "filepath.Walk"), "glob"),
    **dict.fromkeys(("http.Get", "http.Head"), "fetch"),
    **dict.fromkeys(("http.Post", "http.PostForm"), "post"),
    "http.NewRequest": "go_request",
    "http.NewRequestWithContext": "go_request_context",
    "exec.Command": "argv_words",
    "exec.CommandContext": "argv_words_context",
    **dict.fromkeys(("net.Dial", "net.DialTimeout", "tls.Dial"), "go_dial"),
    **dict.fromkeys(("net.LookupHost", "net.LookupIP", "net.LookupTXT", "net.ResolveIPAddr"), "lookup"),
    **dict.fromkeys(("base64.StdEncoding.DecodeString", "base64.URLEncoding.DecodeString"), "decode64"),
    **dict.fromkeys(("base64.RawStdEncoding.DecodeString", "hex.DecodeString"), "decode64"),
    **dict.fromkeys(("bytes.NewReader", "bytes.NewBuffer", "bytes.NewBufferString"), "identity"),
    **dict.fromkeys(("strings.NewReader", "strings.TrimSpace", "strings.Join", "json.Marshal"), "identity"),
    **dict.fromkeys(
        ("base64.StdEncoding.EncodeToString", "hex.EncodeToString", "url.QueryEscape"), "identity"
    ),
    **dict.fromkeys(("fmt.Sprintf",), "format"),
    **dict.fromkeys(("fmt.Sprint",), "paste0"),
}


def _request(base: str, field: str) -> bool:
    """net/http's request: what the client sent (`r.Body`, `r.Form`, `r.Header`, `r.URL`)."""
    return base == "r" and field in ("Body", "Form", "PostForm", "Header", "URL", "MultipartForm")


class _Reader(TreeReader):
    """Go's tree-sitter tree into `Node`s (the reader Julia and Lua share, with Go's kinds)."""

    def __init__(self, data: bytes) -> None:
        super().__init__("go", data)
        self.kinds = _KINDS
        self.bodies = frozenset({"source_file", "block", "statement_list"})

    def string(self, node: TsNode) -> Node:
        """`"a\\n"` with its escapes, `` `raw` `` as written."""
        parts = []
        for child in node.named_children:
            if child.type == "escape_sequence":
                parts.append(unescape_all(self.text(child)))
            else:
                parts.append(self.text(child))
        return n("str", "".join(parts))

    def call(self, node: TsNode) -> Node:
        arguments = node.child_by_field_name("arguments")
        given = [self.read(c) for c in arguments.named_children if c.type != "comment"] if arguments else []
        return n("call", "", self.read(node.child_by_field_name("function")), *given)

    def selector(self, node: TsNode) -> Node:
        field = node.child_by_field_name("field")
        return n(
            "member",
            self.text(field) if field is not None else "",
            self.read(node.child_by_field_name("operand")),
        )

    def binary(self, node: TsNode) -> Node:
        left = self.read(node.child_by_field_name("left"))
        right = self.read(node.child_by_field_name("right"))
        operator = node.child_by_field_name("operator")
        return n("binop", self.text(operator) if operator is not None else "", left, right)

    def declare(self, node: TsNode) -> Node:
        """`b, err := f(x)`, `x = y`, `var p = q`: each name given its value; a call's several results go
        to the first name (Go's error beside the value)."""
        left = node.child_by_field_name("left") or node.child_by_field_name("name")
        right = node.child_by_field_name("right") or node.child_by_field_name("value")
        names = (
            [c for c in left.named_children] if left is not None and left.type == "expression_list" else []
        )
        if left is not None and not names:
            names = [left]
        values = [c for c in right.named_children if c.type != "comment"] if right is not None else []
        if right is not None and right.type != "expression_list":
            values = [right]
        out = [n("assign", "", self.read(t), self.read(v)) for t, v in zip(names, values, strict=False)]
        out += [self.read(v) for v in values[len(names) :]]
        if not out:
            return n("null")
        return out[0] if len(out) == 1 else n("block", "", *out)

    def convert(self, node: TsNode) -> Node:
        """`[]byte(s)`, `string(b)`: the value converted."""
        return self.read(node.child_by_field_name("operand"))

    def function(self, node: TsNode) -> Node:
        """A function's, a method's or a closure's body, read where it is declared."""
        return n("func", "", self.read(node.child_by_field_name("body")))

    def conditional(self, node: TsNode) -> Node:
        """`if err := f(); err != nil { ... } else { ... }`: the statement before the condition, and both
        branches."""
        parts = [
            node.child_by_field_name(k) for k in ("initializer", "condition", "consequence", "alternative")
        ]
        return n("block", "", *(self.read(p) for p in parts if p is not None))


_KINDS: dict[str, Callable[[_Reader, TsNode], Node]] = {
    **dict.fromkeys(
        ("identifier", "field_identifier", "package_identifier", "type_identifier"), _Reader.name
    ),
    **dict.fromkeys(("int_literal", "float_literal"), _Reader.number),
    **dict.fromkeys(("true", "false", "nil"), _Reader.literal),
    **dict.fromkeys(("interpreted_string_literal", "raw_string_literal"), _Reader.string),
    "call_expression": _Reader.call,
    "selector_expression": _Reader.selector,
    "binary_expression": _Reader.binary,
    **dict.fromkeys(
        ("short_var_declaration", "assignment_statement", "var_spec", "const_spec"), _Reader.declare
    ),
    "type_conversion_expression": _Reader.convert,
    **dict.fromkeys(("function_declaration", "method_declaration", "func_literal"), _Reader.function),
    "if_statement": _Reader.conditional,
    **dict.fromkeys(
        ("package_clause", "import_declaration", "type_declaration", "comment", "parameter_list"),
        lambda r, _: n("null"),
    ),
}


def parse_go(source: str) -> Node | None:
    """The Go program `source` is, or None when it does not parse."""
    return parse_tree("go", source, _Reader)


LANGUAGE = Language("Go", GO_EFFECTS, {}, _request, parse_go)
