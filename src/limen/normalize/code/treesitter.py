"""JavaScript, Perl, Ruby and PHP programs, read with their tree-sitter grammars (from PyPI, imported on
first use) and evaluated abstractly like Python ones (see the package notes).

One evaluator serves the four languages: each grammar's node kinds for strings, variables, member access,
calls and assignments are read into the same values, and calls are looked up by a qualified name
(`fs.rmSync`, `FileUtils.rm_rf`, `File::Path::rmtree` -> `rmtree`, `shell_exec`) in one table of effects."""

from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from limen.facts.programs import cloud_sdk, sdk_destruction, sdk_operation
from limen.normalize.code import (
    CREDENTIAL_ATTRIBUTE,
    PRINTED_NOTE,
    SQL_NOTE,
    UNKNOWN,
    CodeEffects,
    analyse_into,
)
from limen.normalize.code.values import (
    TAINTED,
    UNK,
    Val,
    b64decode,
    char,
    concat,
    edited,
    handed_commands,
    hexdecode,
    host_port,
    join,
    known,
    normalise,
    option_value,
    parent,
    reverse,
    rot13,
    runs_tainted,
    s,
    text_of,
)

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

_parsers: dict[str, Parser] = {}


def parser(lang: str) -> Parser:
    """The tree-sitter parser of a language Limen reads (its grammar imported on first use)."""
    found = _parsers.get(lang)
    if found is None:
        from tree_sitter import Language, Parser

        module: Any
        if lang == "node":
            import tree_sitter_javascript as module

            language = module.language()
        elif lang == "typescript":  # what deno, bun, tsx and ts-node run; a superset of JavaScript's syntax
            import tree_sitter_typescript as module

            language = module.language_typescript()
        elif lang == "perl":
            import tree_sitter_perl as module

            language = module.language()
        elif lang == "ruby":
            import tree_sitter_ruby as module

            language = module.language()
        elif lang in (
            "julia",
            "lua",
            "elixir",
            "go",
        ):  # (read by `jllua`, `elixir`, `golang` into `foreign`'s)
            module = importlib.import_module(f"tree_sitter_{lang}")
            language = module.language()
        else:
            import tree_sitter_php as module

            language = module.language_php()
        with warnings.catch_warnings():  # tree-sitter-perl hands its language over as an int
            warnings.simplefilter("ignore", DeprecationWarning)
            found = _parsers[lang] = Parser(Language(language))
    return found


def analyse(
    effects: CodeEffects,
    lang: str,
    source: str,
    *,
    cwd: str,
    home: str,
    script: str,
    level: int,
    args: tuple[str, ...] = (),
) -> None:
    prefix = ""
    if lang == "php" and source.startswith("#!"):  # the CLI skips a `#!` line (`artisan`, `bin/console`)
        line, newline, rest = source.partition("\n")
        source = " " * len(line) + newline + rest
    if lang == "php" and not source.lstrip().startswith("<?"):
        prefix = "<?php "  # `php -r` code has no opening tag
    elif lang == "node" and source.startswith("#!"):
        source = "//" + source[2:]
    data = (prefix + source).encode("utf-8", "replace")
    root = parser(lang).parse(data).root_node
    if root.has_error and lang == "node":  # type annotations (`(req: Request) =>`): read as TypeScript
        typed = parser("typescript").parse(data).root_node
        root = root if typed.has_error else typed
    if root.has_error:
        effects.flag(f"{lang} program does not parse")
    _Eval(effects, lang, data, cwd, home, script, level, args).ev(root)
    if lang == "php":
        text = source[:MAX_ORM_TEXT]
        for model, table in _ELOQUENT_EMPTIED.findall(text):  # every row, gone
            effects.note(f"{SQL_NOTE}DELETE FROM {table or model.rsplit(chr(92), 1)[-1]}")
        for fields in _ELOQUENT_CREATED.findall(text):  # `User::forceCreate([... 'is_admin' => true])`
            if granted := _PRIVILEGE_GRANTED.search(fields):
                field = "is_admin" if granted.group(1) == "admin" else granted.group(1)
                effects.note(f"{SQL_NOTE}UPDATE users SET {field} = 'admin' WHERE id = 0")


# Laravel's query builder emptying a whole table: a model's every row (`Invoice::query()->delete()`,
# `User::truncate()`, `Order::withTrashed()->forceDelete()`) or a table's (`DB::table('orders')->delete()`);
# a `where` anywhere in the chain narrows it and is left to the code that wrote it
_ELOQUENT_EMPTIED = re.compile(
    r"(?<![\w$>])((?:\\?[A-Z]\w*\\)*[A-Z]\w*)::(?:table\(\s*['\"](\w+)['\"]\s*\)->)?"
    r"(?:(?:query|all|withTrashed|onlyTrashed|newQuery)\(\)->)?(?:delete|truncate|forceDelete)\(\s*\)"
)
# a model's record made or changed with its fields (`User::forceCreate([...])`, `$user->update([...])`)
_ELOQUENT_CREATED = re.compile(
    r"(?:::|->)(?:create|forceCreate|firstOrCreate|updateOrCreate|update|forceFill|fill)\(\s*\[([^\]\[]{0,2000})\]"
)
MAX_ORM_TEXT = 64 * 1024


# --------------------------------------------------------------------------- the table of calls

# name -> (effect, argument index). Names are qualified by module or class (`fs.rmSync`) or bare (`system`).
_E: dict[str, tuple[str, int]] = {}


def _table(effect: str, index: int, *names: str) -> None:
    for name in names:
        _E[name] = (effect, index)


# ORM methods that change a record's fields, and a field set to a privilege (`role: :admin`, `admin: true`)
_RECORD_UPDATES = frozenset(
    {"update", "update!", "update_attribute", "update_column", "update_columns", "update_all"}
    | {"assign_attributes"}
)
_PRIVILEGE_GRANTED = re.compile(
    r"""\b(role|admin|is_admin|superuser|is_superuser|staff|is_staff)\b["']?\s*(?::|=>|,)\s*"""
    r""":?["']?(?:admin|administrator|owner|root|superuser|true)\b"""
)
# ORM methods that delete every row of the model they are called on, given no condition
_MASS_DELETES = frozenset({"delete_all", "destroy_all"})
# ActiveRecord's schema statements that destroy a table, a schema or the database (`c.drop_table(t)`), as the
# SQL they run; `truncate` only on a connection (a string's `truncate(20)` shortens text)
_SCHEMA_DROPS = {
    "drop_table": "DROP TABLE",
    "drop_join_table": "DROP TABLE",
    "drop_schema": "DROP SCHEMA",
    "drop_database": "DROP DATABASE",
    "truncate": "TRUNCATE TABLE",
    "truncate_tables": "TRUNCATE TABLE",
}
_CONNECTION_ONLY = frozenset({"truncate", "truncate_tables"})


def _empty_arguments(arguments: Node | None) -> bool:
    """`()` or `({})`: a call given no filter."""
    if arguments is None:
        return False
    named = arguments.named_children
    return not named or (len(named) == 1 and named[0].type == "object" and not named[0].named_children)


# String methods that change a text by a literal: how many places ("first" or every one)
_SUBSTITUTIONS = {"replace": "first", "replaceAll": "str", "sub": "first", "gsub": "str"}

_table(
    "shell", 0, "child_process.exec", "child_process.execSync", "shell_exec", "passthru", "popen", "proc_open"
)
_table("shell", 0, "system", "exec", "Kernel.system", "Kernel.exec", "Kernel.spawn", "spawn", "IO.popen")
_table("shell", 0, "Open3.capture2", "Open3.capture2e", "Open3.capture3", "Open3.popen3", "Open3.popen2")
_table("shell", 0, "pcntl_exec", "readpipe", "Process.spawn")
_table("shell", 0, "sh")  # Rake's and fastlane's `sh "cmd"`: the line run by a shell
_table("shell", 0, "schedule::exec", "runlocally", "process::run", "process::start")  # Laravel, Deployer
_table("spawn", 0, "child_process.spawn", "child_process.spawnSync", "child_process.execFile")
_table("spawn", 0, "child_process.execFileSync", "child_process.fork", "Bun.spawn", "Bun.spawnSync")
_table("delete", 0, "fs.unlinkSync", "fs.unlink", "fs.promises.unlink", "fs.rmdirSync", "fs.rmdir", "unlink")
_table(
    "delete", 0, "File.delete", "File.unlink", "FileUtils.rm", "FileUtils.rm_f", "FileUtils.remove", "rmdir"
)
_table("delete", 0, "Dir.rmdir", "Dir.delete", "Bun.file.delete", "os.remove")
_table("delete_r", 0, "FileUtils.rm_rf", "FileUtils.rm_r", "FileUtils.remove_dir", "FileUtils.rmtree")
_table("delete_r", 0, "FileUtils.remove_entry", "FileUtils.remove_entry_secure", "rmtree", "remove_tree")
_table("delete_r", 0, "File::Path::rmtree", "File::Path::remove_tree", "fse.removeSync", "fse.remove")
_table("delete_r", 0, "rimraf", "rimraf.sync", "fs-extra.removeSync", "fs-extra.remove", "del.sync")
_table(
    "delete_opt",
    0,
    "fs.rmSync",
    "fs.rm",
    "fs.promises.rm",
    "fs.promises.rmdir",
    "Deno.remove",
    "Deno.removeSync",
)
_table(
    "write",
    0,
    "fs.writeFileSync",
    "fs.writeFile",
    "fs.appendFileSync",
    "fs.appendFile",
    "fs.createWriteStream",
)
_table("write", 0, "fs.promises.writeFile", "fs.promises.appendFile", "fs.mkdirSync", "fs.openSync")
_table("write", 0, "File.write", "IO.write", "File.binwrite", "FileUtils.touch", "FileUtils.mkdir_p")
_table("write", 0, "file_put_contents", "mkdir", "touch", "Deno.writeTextFileSync", "Deno.writeTextFile")
_table("write", 0, "Bun.write", "write_file", "File::Slurp::write_file", "path.write_text")
_table(
    "read",
    0,
    "fs.readFileSync",
    "fs.readFile",
    "fs.createReadStream",
    "fs.promises.readFile",
    "fs.readdirSync",
)
_table(
    "read", 0, "File.read", "IO.read", "File.readlines", "IO.readlines", "File.binread", "file", "readfile"
)
_table("read", 0, "Deno.readTextFileSync", "Deno.readTextFile", "read_file", "File::Slurp::read_file")
_table("read", 0, "YAML.load_file", "JSON.load_file", "Dir.entries", "Dir.children", "scandir", "file_exists")
_table("glob", 0, "Dir.glob", "Dir.[]", "glob", "bsd_glob", "File::Glob::bsd_glob")
_table("copy", 0, "fs.copyFileSync", "fs.copyFile", "fs.cpSync", "FileUtils.cp", "FileUtils.cp_r", "copy")
_table("copy", 0, "File::Copy::copy", "FileUtils.copy")
_table("move", 0, "fs.renameSync", "fs.rename", "FileUtils.mv", "FileUtils.move", "File.rename", "rename")
_table("move", 0, "move", "File::Copy::move")
_table("chmod_path_mode", 0, "fs.chmodSync", "fs.chmod")
_table("chmod_mode_path", 0, "FileUtils.chmod", "File.chmod", "FileUtils.chmod_R")
_table("url", 0, "fetch", "http.get", "https.get", "http.request", "https.request", "axios", "axios.get")
_table("url", 0, "axios.delete", "axios.head", "axios.request", "got", "got.get", "needle.get", "WebSocket")
_table("url", 0, "EventSource", "XMLHttpRequest.open", "Net::HTTP.get", "Net::HTTP.get_response", "URI.open")
_table(
    "url",
    0,
    "open-uri.open",
    "HTTParty.get",
    "Faraday.get",
    "RestClient.get",
    "Excon.get",
    "file_get_contents",
)
_table("url", 0, "LWP::Simple::get", "get", "getprint", "head", "LWP::UserAgent.get", "HTTP::Tiny.get")
_table(
    "url", 0, "HTTP::Tiny.request", "curl_init", "get_headers", "fopen", "Deno.connect", "Mojo::UserAgent.get"
)
_table(
    "url", 0, "LWP::UserAgent.request", "HTTP::Request.new", "Bun.connect", "URI", "URI.parse", "Kernel.open"
)
_table("url", 0, "getstore", "LWP::Simple::getstore", "mirror")
_table("url_body", 0, "axios.post", "axios.put", "axios.patch", "got.post", "needle.post", "Net::HTTP.post")
_table(
    "url_body", 0, "Net::HTTP.post_form", "HTTParty.post", "Faraday.post", "RestClient.post", "RestClient.put"
)
_table(
    "url_body", 0, "LWP::UserAgent.post", "HTTP::Tiny.post", "HTTP::Tiny.post_form", "Mojo::UserAgent.post"
)
_table("url_body", 0, "navigator.sendBeacon", "Excon.post")
# Laravel's HTTP client (PHP names are case-blind: read lower-cased)
_table("url_body", 0, "http::post", "http::put", "http::patch", "http::asform.post", "http::withbody.post")
_table("url", 0, "http::get", "http::head", "http::delete")
_table("host", 0, "Net::HTTP.start", "Net::HTTP.new", "TCPSocket.new", "TCPSocket.open", "Socket.tcp")
_table("host", 0, "UDPSocket.send", "fsockopen", "pfsockopen", "stream_socket_client", "Net::Telnet.new")
_table("host", 0, "Net::SMTP.start", "Net::FTP.new", "Net::SSH.start", "inet_aton", "Socket::inet_aton")
_table("host", 0, "tls.connect", "dgram.send", "Net::SMTP.new", "Net::FTP.open")
_table("host", 1, "socket_connect", "ftp_connect")
# mail handed to the machine's mailer for the addresses of its first argument (`mail("x@host", s, body)`)
_table("mail", 0, "mail", "mb_send_mail", "wp_mail")
_MAIL_DOMAIN = re.compile(r"@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)")
_table("net_connect", 0, "net.connect", "net.createConnection", "net.Socket.connect", "tls.connect")
_table("socket", 0, "socket", "socket_create", "IO::Socket::INET.new", "IO::Socket::IP.new", "net.Socket")
_table(
    "socket", 0, "IO::Socket::SSL.new", "Socket.new", "TCPServer.new", "net.createServer", "UNIXSocket.new"
)
_table(
    "code", 0, "eval", "Function", "vm.runInThisContext", "vm.runInNewContext", "vm.Script", "instance_eval"
)
# what prints where the agent reads it: a credential given to one is shown to the model
_table(
    "prints",
    0,
    "console.log",
    "console.error",
    "console.info",
    "console.warn",
    "console.dir",
    "puts",
    "p",
    "pp",
)
_table(
    "prints",
    0,
    "process.stdout.write",
    "process.stderr.write",
    "print",
    "warn",
    "$stdout.puts",
    "STDOUT.puts",
)
_table("prints", 0, "print_r", "var_dump", "var_export", "printf", "say")
_table("code", 0, "class_eval", "module_eval", "Kernel.eval", "binding.eval", "assert", "create_function")
_table("code", 0, "setTimeout", "setInterval", "setImmediate", "vm.compileFunction", "Deno.eval", "evalfile")
_table(
    "name", 0, "send", "public_send", "__send__", "Object.const_get", "const_get", "method", "call_user_func"
)
_table(
    "name",
    0,
    "call_user_func_array",
    "Reflect.apply",
    "Reflect.get",
    "instance_variable_get",
    "define_method",
)
_table("require", 0, "require", "require_once", "include", "include_once", "load", "import", "do", "dlopen")
_table(
    "b64", 0, "Buffer.from", "atob", "Base64.decode64", "Base64.strict_decode64", "Base64.urlsafe_decode64"
)
_table("b64", 0, "decode_base64", "MIME::Base64::decode_base64", "base64_decode", "Buffer.from.toString")
_table("open", 0, "open", "File.open", "IO.open", "File.new", "sysopen", "Kernel.open", "IO.sysopen")
_table(
    "dns", 0, "dns.lookup", "dns.resolve", "dns.resolve4", "dns.resolve6", "dns.resolveTxt", "dns.resolveAny"
)
_table("dns", 0, "dns.promises.lookup", "dns.promises.resolve", "Deno.resolveDns", "Resolv.getaddress")
_table(
    "dns", 0, "dns.promises.lookup", "dns.promises.resolve", "dns.promises.resolveTxt", "Resolv.getaddress"
)
_table(
    "dns", 0, "Resolv.getaddresses", "gethostbyname", "gethostbynamel", "dns_get_record", "Socket.getaddrinfo"
)
_table("dns", 0, "Addrinfo.getaddrinfo", "Socket.gethostbyname", "Net::DNS::Resolver.query", "checkdnsrr")
_table("hex", 0, "hex2bin", "pack")
_table("rot13", 0, "str_rot13")
_table("rev", 0, "strrev", "reverse", "scalar")
_table("chr", 0, "chr", "String.fromCharCode", "String.fromCodePoint")
_table("home", 0, "os.homedir", "Dir.home", "Etc.getpwuid.dir", "File::HomeDir.my_home", "Deno.homedir")
_table("cwd", 0, "process.cwd", "Dir.pwd", "getcwd", "Cwd::getcwd", "cwd", "Deno.cwd", "Rails.root")
_table(
    "join", 0, "path.join", "path.resolve", "File.join", "File::Spec.catfile", "File::Spec.catdir", "catfile"
)
_table(
    "join",
    0,
    "Pathname.new",
    "Pathname",
    "path.posix.join",
    "path.normalize",
    "realpath",
    "File.absolute_path",
)
_table("expand", 0, "File.expand_path", "glob_tilde", "expand_path")
_table("dirname", 0, "path.dirname", "File.dirname", "dirname")
_table("file_url", 0, "URL", "url.URL", "url.fileURLToPath", "fileURLToPath")
_table("env", 0, "getenv", "os.getenv", "ENV.fetch", "Deno.env.get", "ENV.[]")
_table("identity", 0, "String", "toString", "to_s", "strval", "trim", "decodeURIComponent", "unescape")
_table("identity", 0, "Buffer.from.toString", "untaint", "uri_escape")
# a value quoted for the shell stays one word of a command: what it says is no longer a command of its own
_table("shell_quoted", 0, "escapeshellarg", "shellwords.escape", "Shellwords.escape", "shell_quote")

# Method names whose call on any object runs, reads or sends, whatever the object (`$ua->get($u)`).
_METHODS = {
    "rm_rf": "delete_r",
    "rmtree": "delete_r",
    "unlink": "delete",
    "delete": "",
    "write": "",
    "post": "url_body",
    "get": "",
    "connect": "",
    "open": "",
}
_RUBY_HTTP = frozenset({"Net::HTTP", "HTTParty", "Faraday", "RestClient", "Excon", "HTTP", "Typhoeus"})
_PERL_HTTP = frozenset(
    {"LWP::UserAgent", "HTTP::Tiny", "Mojo::UserAgent", "WWW::Mechanize", "Furl", "LWP::Simple"}
)
_NODE_MODULES = {"node:": ""}  # `node:fs` is `fs`
_MODULE_ALIASES = {"fs/promises": "fs.promises", "fs-extra": "fse", "child_process": "child_process"}
_HOME_NAMES = frozenset({"HOME", "USERPROFILE"})
_GLOBAL_REFS = frozenset(
    {
        "require",
        "process",
        "Buffer",
        "eval",
        "Function",
        "fetch",
        "atob",
        "globalThis",
        "global",
        "window",
        "Deno",
        "Bun",
        "String",
        "Reflect",
        "setTimeout",
        "setInterval",
        "setImmediate",
        "XMLHttpRequest",
        "WebSocket",
        "EventSource",
        "navigator",
    }
)
# A cURL handle given something to send (PHP's `curl_setopt($ch, CURLOPT_POSTFIELDS, ...)`)
_CURL_BODY = re.compile(rb"CURLOPT_(?:POSTFIELDS|POST|PUT|UPLOAD|INFILE|READFUNCTION)\b")
_FILE_OR_URL = frozenset(
    {"fopen", "file_get_contents", "URI.open", "Kernel.open", "open-uri.open", "get_headers"}
)
# Programs that run what is written into them (a pipe opened for writing into one is opaque).
_RUNS_STDIN = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "python", "python3", "perl", "ruby", "node", "php"}
)


def mode_of(words: list[Val]) -> str:
    return (known(words[1]) or "?") if len(words) > 1 else "r"


_ENVIRONMENT = frozenset({"process.env", "ENV", "Deno.env", "Bun.env"})
# A page's properties whose assignment loads the address given (an image, a script, a frame, the page itself)
_LOADS = frozenset({"src", "href", "location", "action"})
# What reads or tests one variable of it (`Deno.env.get("RESEND_API_KEY")`, `ENV.fetch("X")`), not all of it
_ONE_VARIABLE = frozenset({"get", "fetch", "has", "key?", "include?", "[]"})
_CODE_REFS = frozenset({"eval", "Function", "vm.runInThisContext", "vm.runInNewContext", "instance_eval"})
_DYNAMIC_OWNERS = frozenset(
    {"globalThis", "global", "window", "process.mainModule", "this", "Kernel", "Object"}
)


class _Eval:
    def __init__(
        self,
        effects: CodeEffects,
        lang: str,
        data: bytes,
        cwd: str,
        home: str,
        script: str,
        level: int,
        args: tuple[str, ...] = (),
    ) -> None:
        self.fx = effects
        self.lang = lang
        self.data = data
        self.cwd = cwd
        self.home = home
        self.script = script
        self.level = level
        self.env: dict[str, Val] = {}
        given = tuple(s(a) for a in args)
        self.argv_list = {  # what the program's argument list holds, as each language spells it
            "node": Val(kind="list", items=(s("node"), *((s(script),) if script else ()), *given)),
            "php": Val(kind="list", items=(s(script or "Standard input code"), *given)),
        }.get(lang, Val(kind="list", items=given))
        for name in ("ARGV", "@ARGV", "$ARGV", "$argv"):
            self.env[name] = self.argv_list
        if script:
            for name in ("__filename", "__FILE__", "$0", "__file__"):
                self.env[name] = s(script)
            self.env["__dirname"] = self.env["__DIR__"] = parent(s(script))

    def text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    # ----------------------------------------------------------------- evaluation

    def ev(self, node: Node | None) -> Val:
        if node is None or not self.fx.tick():
            return UNK
        handler = _KINDS.get(node.type)
        if handler is not None:
            return handler(self, node)
        return self.walk(node)

    def walk(self, node: Node) -> Val:
        """A node with no value of its own: what its parts do."""
        last = UNK
        for child in node.named_children:
            last = self.ev(child)
        return Val(tainted=last.tainted) if last.tainted else UNK

    def _shell_string(self, node: Node) -> Val:
        self.shell(self.string(node), "`...`")
        return Val(text=UNKNOWN)

    def _number(self, node: Node) -> Val:
        return _number(self.text(node))

    def _literal(self, node: Node) -> Val:
        return Val(ref=node.type)

    def _name(self, node: Node) -> Val:
        return self.name(self.text(node))

    def _variable(self, node: Node) -> Val:
        kind = node.type
        if kind == "array" and self.lang != "perl":
            return self._list(node)
        name = self.text(node)
        value = self.env.get(name)
        if value is not None:
            return value
        if name == "$0" and self.script:
            return s(self.script)
        if name in ("$_ENV", "%ENV", "$_SERVER"):
            return Val(ref="ENV")
        if name in _REQUEST_INPUT:  # what a web client sent: run as a command, it is a web shell
            return TAINTED
        return Val(text=UNKNOWN) if kind != "hash" else UNK

    def _single(self, node: Node) -> Val:
        if node.named_child_count == 1:
            return self.ev(node.named_children[0])
        return self.walk(node)

    def _rescued(self, node: Node) -> Val:
        """Ruby's `EXPR rescue FALLBACK`: the expression's value (taint too), the fallback evaluated."""
        body = node.child_by_field_name("body") or (node.named_children[0] if node.named_children else None)
        for child in node.named_children:
            if child is not body:
                self.ev(child)
        return self.ev(body) if body is not None else UNK

    def _list(self, node: Node) -> Val:
        items = tuple(self.ev(c) for c in node.named_children if c.type != "comment")
        return Val(kind="list", items=items)

    def _object(self, node: Node) -> Val:
        return self.pairs(node) if self.lang != "php" else self.walk(node)

    def _eval(self, node: Node) -> Val:
        inner = node.named_children[0] if node.named_child_count else None
        if inner is not None and inner.type == "block":
            self.ev(inner)
            return UNK
        self.code(self.ev(inner), "eval")
        return UNK

    def _include(self, node: Node) -> Val:
        target = self.ev(node.named_children[0]) if node.named_child_count else UNK
        self.include(target, node.type.split("_", 1)[0])
        return UNK

    def _nothing(self, node: Node) -> Val:
        return UNK

    def _echo(self, node: Node) -> Val:
        """PHP's `echo a, b;` and `print a;`: a statement, printed where the agent reads it."""
        for child in node.named_children[:16]:
            printed = self.ev(child)
            if printed.variable:
                self.fx.note(PRINTED_NOTE + printed.variable)
        return UNK

    def _import(self, node: Node) -> Val:
        self.es_import(node)
        return UNK

    def _fragment(self, node: Node) -> Val:
        return s(self.text(node).lstrip(":"))

    def name(self, name: str) -> Val:
        if name in self.env:
            return self.env[name]
        if self.lang == "php" and name.startswith("\\"):
            name = name[1:]
        return Val(ref=name)

    def string(self, node: Node) -> Val:
        """A string literal with its interpolations, escapes decoded."""
        parts: list[Val] = []
        self._string_parts(node, parts, top=True)
        return concat(*parts) if parts else s("")

    def _string_parts(self, node: Node, parts: list[Val], top: bool) -> None:
        cursor = node.start_byte
        children = node.named_children
        if not children:
            if not top:
                parts.append(s(self.text(node)))
            return
        for child in children:
            kind = child.type
            if kind in ("string_content", "string_fragment") and child.named_child_count:
                self._string_parts(child, parts, top=False)
            elif kind in (
                "string_content",
                "string_fragment",
                "string_value",
                "heredoc_content",
                "nowdoc_string",
            ):
                parts.append(s(self.text(child)))
            elif kind == "escape_sequence":
                parts.append(s(_unescape(self.text(child))))
            elif kind in ("heredoc_start", "heredoc_end", "heredoc_body", "nowdoc_body") and kind.endswith(
                "body"
            ):
                self._string_parts(child, parts, top=False)
            elif kind in ("heredoc_start", "heredoc_end", "comment"):
                pass
            elif kind in ("template_substitution", "interpolation"):
                inner = child.named_children
                parts.append(self.ev(inner[0]) if inner else UNK)
            else:
                if not top and child.start_byte > cursor:  # literal text between interpolations
                    parts.append(s(self.data[cursor : child.start_byte].decode("utf-8", "replace")))
                parts.append(self.ev(child))
            cursor = child.end_byte
        if not top and node.end_byte > cursor:
            parts.append(s(self.data[cursor : node.end_byte].decode("utf-8", "replace")))

    def binary(self, node: Node) -> Val:
        left = self.ev(node.child_by_field_name("left"))
        right = self.ev(node.child_by_field_name("right"))
        operator = node.child_by_field_name("operator")
        op = self.text(operator) if operator is not None else ""
        if op in ("+", ".", "..") and (left.text is not None or right.text is not None):
            return concat(left, right)
        if op == "+" and left.num is not None and right.num is not None:
            return Val(num=left.num + right.num)
        if op == "/" and left.kind == "path":
            return join(left, right, kind="path")
        return Val(tainted=left.tainted or right.tainted)

    def assign(self, node: Node) -> Val:
        left = node.child_by_field_name("left") or node.child_by_field_name("name")
        right = node.child_by_field_name("right") or node.child_by_field_name("value")
        value = self.ev(right)
        if left is None:
            return value
        if left.type == "variable_declaration":
            inner = left.child_by_field_name("variable") or (
                left.named_children[0] if left.named_child_count else None
            )
            if inner is not None:
                left = inner
        if left.type == "object_pattern":
            for child in left.named_children:
                if child.type == "shorthand_property_identifier_pattern":
                    self.env[self.text(child)] = self.member(value, self.text(child))
                elif child.type == "pair_pattern":
                    key, target = child.child_by_field_name("key"), child.child_by_field_name("value")
                    if key is not None and target is not None:
                        self.env[self.text(target)] = self.member(value, self.text(key).strip("'\""))
            return value
        if node.type == "augmented_assignment_expression":
            value = concat(self.env.get(self.text(left), UNK), value)
        if left.type in (
            "identifier",
            "scalar",
            "variable_name",
            "global_variable",
            "instance_variable",
            "constant",
        ):
            self.env[self.text(left)] = value
        elif left.type in ("array_expression", "list_expression", "array"):
            pass
        else:
            self.ev(left)
            prop = left.child_by_field_name("property") if left.type == "member_expression" else None
            if prop is not None and self.text(prop) in _LOADS and "://" in text_of(value):
                self.url(value, f".{self.text(prop)} =", body=False)  # `new Image().src = URL`: a request
        return value

    def pairs(self, node: Node) -> Val:
        keys: list[str] = []
        items: list[Val] = []
        for child in node.named_children:
            if child.type == "pair":
                key = child.child_by_field_name("key")
                value = child.child_by_field_name("value")
                keys.append(
                    (known(self.ev(key)) if key is not None and "string" in key.type else None)
                    or (self.text(key).strip(":'\"") if key is not None else "")
                )
                items.append(self.ev(value))
            else:
                self.ev(child)
        return Val(kind="dict", keys=tuple(keys), items=tuple(items))

    def subscript(self, node: Node) -> Val:
        children = node.named_children
        if not children:
            return UNK
        base_node = children[0]
        base_text = self.text(base_node)
        key_node = node.child_by_field_name("index") or node.child_by_field_name("key")
        if key_node is None and len(children) > 1:
            key_node = children[1]
        key = (
            self.ev(key_node)
            if key_node is not None and key_node.type != "autoquoted_bareword"
            else (s(self.text(key_node)) if key_node is not None else UNK)
        )
        name = known(key)
        if base_text in _REQUEST_INPUT or (base_text == "$_SERVER" and (name or "").startswith("HTTP_")):
            return TAINTED  # `$_GET['c']`, a request header: what the client sent
        if base_text in ("ENV", "$ENV", "$_ENV", "$_SERVER", "process.env", "%ENV", "Deno.env"):
            return self.environ(name)
        base = self.ev(base_node)
        if base.ref in ("process.env",):
            return self.environ(name)
        if base_text in ("$ARGV", "@ARGV") and self.lang == "perl":
            base = self.argv_list
        if (
            base.ref in _DYNAMIC_OWNERS
            or base.ref in _E
            or base.ref.split(".", 1)[0]
            in (
                "child_process",
                "fs",
                "os",
                "vm",
                "require",
            )
        ):
            if name is None:
                self.fx.flag(f"{self.lang} looks a name up by a value computed at run time")
                return UNK
            return self.member(base, name)
        if base.kind == "list" and key.num is not None and -len(base.items) <= key.num < len(base.items):
            return base.items[key.num]
        if base.kind == "dict" and name is not None:
            return base.get(name) or UNK
        if base.ref and name is not None:
            return self.member(base, name)
        return TAINTED if base.tainted else Val(text=UNKNOWN) if base.text is not None else UNK

    def environ(self, name: str | None) -> Val:
        self.fx.variable(name)
        if name in _HOME_NAMES:
            return s(self.home)
        if name == "PWD":
            return s(self.cwd)
        return Val(text=UNKNOWN, variable=name or "")

    def member(self, base: Val, name: str) -> Val:
        if base.ref:
            ref = f"{base.ref}.{name}"
            if ref == "process.env.HOME" or ref == "process.env.USERPROFILE":
                return s(self.home)
            if ref.startswith("process.env."):
                return self.environ(name)
            if ref in ("globalThis.process", "global.process"):
                return Val(ref="process")
            if ref == "process.argv":
                return self.argv_list
            if ref == "import.meta.url":  # the module's own file, as a file: URL
                return s(f"file://{self.script}") if self.script else UNK
            if base.ref in ("globalThis", "global", "window"):
                return Val(ref=name)
            return Val(ref=ref)
        if base.kind == "dict":
            return base.get(name) or UNK
        if base.tainted or base.kind == "response":
            return TAINTED
        return Val(ref=f"?.{name}", tainted=base.tainted, kind=base.kind)

    def es_import(self, node: Node) -> None:
        source = node.child_by_field_name("source")
        module = _module(known(self.ev(source)) or "") if source is not None else ""
        for clause in node.named_children:
            if clause.type != "import_clause":
                continue
            for child in clause.named_children:
                if child.type == "identifier":
                    self.env[self.text(child)] = Val(ref=module)
                elif child.type == "namespace_import":
                    for leaf in child.named_children:
                        self.env[self.text(leaf)] = Val(ref=module)
                elif child.type == "named_imports":
                    for spec in child.named_children:
                        names = [self.text(c) for c in spec.named_children]
                        if names:
                            self.env[names[-1]] = Val(ref=f"{module}.{names[0]}")

    # ----------------------------------------------------------------- calls

    def schema_dropped(self, method: str, arguments: Node | None, receiver: str) -> None:
        """`connection.drop_table(t)`, `drop_table :users`: noted as the SQL statement it runs."""
        statement = _SCHEMA_DROPS.get(method)
        if statement is None or (method in _CONNECTION_ONLY and "conn" not in receiver.lower()):
            return
        target = self.text(arguments).strip("() ").split(",", 1)[0].lstrip(":") if arguments else ""
        self.fx.note(f"{SQL_NOTE}{statement} {target or 'tables'}")

    def every_row(self, node: Node) -> str:
        """The model a Ruby receiver names whole (`User`, `Admin::User`, `User.all`), or ""."""
        if node.type in ("constant", "scope_resolution"):
            return self.text(node)
        method = node.child_by_field_name("method") if node.type == "call" else None
        inner = node.child_by_field_name("receiver") if node.type == "call" else None
        if method is not None and inner is not None and self.text(method) in ("all", "unscoped"):
            return self.every_row(inner)
        return ""

    def call(self, node: Node) -> Val:
        kind = node.type
        receiver: Val | None = None
        method = ""
        name = ""
        arg_node: Node | None = None
        if kind == "member_expression":  # `process.env.HOME`, `fs.rmSync` (not called here)
            holder = node.child_by_field_name("object")
            base = self.ev(holder)
            prop = node.child_by_field_name("property")
            if (  # a handler's `req.query`, `q.body`: what the web client sent, whatever its parameter's name
                holder is not None
                and holder.type == "identifier"
                and prop is not None
                and self.text(prop) in _JS_REQUEST_INPUTS
                and base.ref in ("", self.text(holder))  # not a module bound to that name
                and not base.items
            ):
                return TAINTED
            value = self.member(base, self.text(prop)) if prop is not None else UNK
            if prop is not None and not value.variable and CREDENTIAL_ATTRIBUTE.fullmatch(self.text(prop)):
                value = replace(value, variable=self.text(prop))  # `u.api_key`: a record's credential
            return self.value_of(value, base)
        if kind == "call_expression":
            func = node.child_by_field_name("function")
            arg_node = node.child_by_field_name("arguments")
            if func is not None and func.type == "member_expression":
                receiver = self.ev(func.child_by_field_name("object"))
                prop = func.child_by_field_name("property")
                method = self.text(prop) if prop is not None else ""
                holder = func.child_by_field_name("object")
                if (  # `await req.json()` in a fetch-style handler (Next.js, Hono, Deno, Workers): what the
                    # client sent, as a fetched response's body is what the server sent
                    self.lang == "node"
                    and method in _FETCH_BODY_READERS
                    and holder is not None
                    and holder.type == "identifier"
                    and receiver.ref in ("", self.text(holder))
                    and self.text(holder) not in self.env
                    and not (arg_node is not None and arg_node.named_children)
                ):
                    return TAINTED
                name = self.member(receiver, method).ref if receiver.ref else ""
                if method == "deleteMany" and holder is not None and _empty_arguments(arg_node):
                    # `prisma.user.deleteMany()`, `Model.deleteMany({})`: every row or document, gone
                    self.fx.note(f"{SQL_NOTE}DELETE FROM {self.text(holder)}")
                if (
                    method in _ITERATORS
                    and not receiver.ref
                    and arg_node is not None
                    and arg_node.named_children
                ):
                    for extra in arg_node.named_children[
                        1:
                    ]:  # `reduce(fn, init)`: what else it is given runs
                        self.ev(extra)
                    return self.each(arg_node.named_children[0], receiver)
                if (
                    method == "then"
                    and receiver.ref
                    and arg_node is not None
                    and arg_node.named_children
                    and arg_node.named_children[0].type in _FUNCTIONS
                ):  # `import("child_process").then(cp => cp.execSync(...))`: the callback gets the module
                    callback = arg_node.named_children[0]
                    body = callback.child_by_field_name("body") or callback
                    self.loop(_parameters(self, callback), (receiver,), body)
                    return UNK
            elif func is not None and func.type == "subscript_expression":
                callee = self.subscript(func)
                name = callee.ref
                if not name and func.child_by_field_name("object") is not None:
                    owner = self.ev(func.child_by_field_name("object"))
                    index = func.child_by_field_name("index")
                    if owner.ref and index is not None and known(self.ev(index)) is None:
                        self.fx.flag(f"{self.lang} calls a function by a name computed at run time")
            elif func is not None and func.type == "import":  # `await import("child_process")`
                name = "import"
            else:
                callee = self.ev(func)
                name = callee.ref
                if (
                    func is not None
                    and func.type in ("new_expression", "call_expression")
                    and callee.kind == "code"
                ):
                    return UNK
        elif kind == "new_expression":
            callee = self.ev(node.child_by_field_name("constructor"))
            name = callee.ref
            arg_node = node.child_by_field_name("arguments")
        elif kind == "call":  # ruby
            receiver_node = node.child_by_field_name("receiver")
            method_node = node.child_by_field_name("method")
            method = self.text(method_node) if method_node is not None else ""
            arg_node = node.child_by_field_name("arguments")
            if receiver_node is not None:
                receiver = self.ev(receiver_node)
                name = f"{receiver.ref}.{method}" if receiver.ref else ""
                table = self.every_row(receiver_node)
                if method in _MASS_DELETES and arg_node is None and table:
                    self.fx.note(f"{SQL_NOTE}DELETE FROM {table}")  # `User.delete_all`: every row, gone
                self.schema_dropped(method, arg_node, self.text(receiver_node))
                if method in _RECORD_UPDATES and arg_node is not None:
                    granted = _PRIVILEGE_GRANTED.search(self.text(arg_node))
                    if granted:  # `user.update!(role: :admin)`: judged as the SQL that does it
                        field = "is_admin" if granted.group(1) == "admin" else granted.group(1)
                        self.fx.note(f"{SQL_NOTE}UPDATE users SET {field} = 'admin' WHERE id = 0")
            else:
                name = method
                self.schema_dropped(method, arg_node, "")  # `drop_table :users` in a migration's body
                if method in self.env and arg_node is None:
                    return self.env[method]
            block = node.child_by_field_name("block")
            if block is not None and receiver is not None and method in _ITERATORS:
                self.each(block, receiver)  # `Dir.glob(p).each { |f| File.delete(f) }`
            elif block is not None:
                self.ev(block)
        elif kind in (
            "function_call_expression",
            "ambiguous_function_call_expression",
            "func1op_call_expression",
        ):
            func = node.child_by_field_name("function")
            arg_node = node.child_by_field_name("arguments")
            if kind == "func1op_call_expression":
                name = self.text(node.children[0]) if node.child_count else ""
                arg_node = node.named_children[0] if node.named_child_count else None
            elif func is not None:
                name = self.text(func)
                if self.lang == "php" and func.type == "variable_name":
                    callee = self.ev(func)
                    name = known(callee) or ""
                    if not name:
                        self.fx.flag("php calls a function named at run time")
                elif self.lang == "php" and func.type not in ("name", "qualified_name"):
                    callee = self.ev(func)
                    name = callee.ref
                name = name.lstrip("\\&")
                if name == "new" and arg_node is not None and arg_node.type == "function_call_expression":
                    inner = arg_node.child_by_field_name("function")  # perl `new IO::Socket::INET(...)`
                    name = f"{self.text(inner)}.new" if inner is not None else name
                    arg_node = arg_node.child_by_field_name("arguments")
        elif kind == "func0op_call_expression":
            return UNK
        elif kind in ("method_call_expression",):  # perl `$ua->get($u)`, `LWP::UserAgent->new`
            receiver = self.ev(node.child_by_field_name("invocant"))
            method_node = node.child_by_field_name("method")
            method = self.text(method_node) if method_node is not None else ""
            arg_node = node.child_by_field_name("arguments")
            if method_node is not None and method_node.type != "method":
                dynamic = self.ev(method_node)
                method = known(dynamic) or ""
                if not method:
                    self.fx.flag("perl calls a method named at run time")
            name = f"{receiver.ref}.{method}" if receiver.ref else ""
        elif kind in ("member_call_expression", "scoped_call_expression"):  # php
            owner_node = node.child_by_field_name("object") or node.child_by_field_name("scope")
            receiver = self.ev(owner_node)
            method_node = node.child_by_field_name("name")
            method = self.text(method_node) if method_node is not None else ""
            arg_node = node.child_by_field_name("arguments")
            if method_node is not None and method_node.type != "name":
                method = known(self.ev(method_node)) or ""
                if not method:
                    self.fx.flag("php calls a method named at run time")
            name = f"{receiver.ref}.{method}" if receiver.ref else ""
            if (
                kind == "scoped_call_expression"
                and owner_node is not None
                and owner_node.type in _PHP_CLASS_NAMES
            ):
                # a facade or static method by its class's name (`\Illuminate\...\Http::post`: `http::post`)
                name = f"{self.text(owner_node).rsplit(chr(92), 1)[-1]}::{method}".lower()
        elif kind == "object_creation_expression":  # php `new X(...)`
            names = [c for c in node.named_children if c.type in ("name", "qualified_name")]
            name = self.text(names[0]).lstrip("\\") if names else ""
            arg_node = next((c for c in node.named_children if c.type == "arguments"), None)
        mapper = _MAPPERS.get(name.lower()) if self.lang == "php" else None
        if mapper is not None and arg_node is not None and len(arg_node.named_children) > max(mapper):
            function, collection = (arg_node.named_children[i] for i in mapper)
            for k, extra in enumerate(arg_node.named_children):
                if k not in mapper:
                    self.ev(extra)  # `array_map(fn, $a, f())`: what else it is given runs
            return self.each(_argument(function), self.ev(collection))
        args = self.args(arg_node)
        return self.apply(_canonical(self.lang, name), receiver, method, args, node)

    def _bare_function(self, node: Node) -> Val:
        """Perl `unlink;` in a loop or `map { unlink } ...`: a function named alone takes `$_`."""
        if self.lang != "perl":
            return self.walk(node)
        name = _canonical(self.lang, self.text(node))
        if name not in _E:
            return UNK
        default = self.env.get("$_")
        return self.apply(name, None, name, [default] if default is not None else [], node)

    # ----------------------------------------------------------------- iteration

    def each(self, function: Node, collection: Val) -> Val:
        """A function or block run on each item of a collection (an iterator's block, a callback, a loop
        body): evaluated once per known item, or once with an unknown item, its first parameter bound to it.
        A named function (`"unlink"`, `fs.unlinkSync`) is applied to the item as a call would be."""
        known_items = collection.kind == "list" and 0 < len(collection.items) <= MAX_LOOP
        items = collection.items if known_items else (Val(text=UNKNOWN, tainted=collection.tainted),)
        if function.type in _FUNCTIONS:
            body = function.child_by_field_name("body")
            self.loop(_parameters(self, function), items, body if body is not None else function)
            return Val(kind="list", tainted=collection.tainted)
        callee = self.ev(function)
        name = known(callee) if self.lang == "php" else callee.ref
        if not name:
            self.fx.note(f"{self.lang} applies a function computed at run time to a collection")
            return UNK
        for item in items:
            self.apply(_canonical(self.lang, name), None, name, [item], function)
        return Val(kind="list", tainted=collection.tainted)

    def loop(self, names: list[str], items: tuple[Val, ...], body: Node | None) -> None:
        """The body once per item, the loop's variable (Perl: `$_` too) bound to it, then restored."""
        bound = [*names, "$_"] if self.lang == "perl" else names
        saved = {name: self.env.get(name) for name in bound}
        for item in items:
            for name in bound:
                self.env[name] = item
            self.ev(body)
        for name, value in saved.items():
            if value is None:
                self.env.pop(name, None)
            else:
                self.env[name] = value

    def _for(self, node: Node) -> Val:
        """`for f in xs` (ruby), `for (const f of xs)` (js), `foreach (xs as $f)` (php), `for my $f (xs)`,
        `STMT for xs` (perl), `map { ... } xs` (perl)."""
        kind = node.type
        names: list[str] = []
        if kind == "for":  # ruby
            pattern, value = node.child_by_field_name("pattern"), node.child_by_field_name("value")
            collection = self.ev(
                value.named_children[0] if value is not None and value.named_children else value
            )
            names = [self.text(pattern)] if pattern is not None else []
            body = node.child_by_field_name("body")
        elif kind == "for_in_statement":  # js
            left = node.child_by_field_name("left")
            collection = self.ev(node.child_by_field_name("right"))
            names = [self.text(left)] if left is not None else []
            body = node.child_by_field_name("body")
        elif kind == "foreach_statement":  # php
            parts = [c for c in node.named_children if c.type != "comment"]
            collection = self.ev(parts[0]) if parts else UNK
            target = parts[1] if len(parts) > 1 else None
            if target is not None and target.type == "pair" and target.named_children:
                target = target.named_children[-1]  # `as $key => $value`
            names = [self.text(target)] if target is not None else []
            body = node.child_by_field_name("body")
        elif kind == "postfix_for_expression":  # perl `unlink $_ for glob(...)`
            collection = self.ev(node.child_by_field_name("list"))
            body = node.named_children[0] if node.named_children else None
        elif kind == "map_grep_expression":  # perl `map { unlink } glob(...)`
            collection = self.ev(node.child_by_field_name("list"))
            body = node.child_by_field_name("callback")
        else:  # perl for_statement; a C-style `for (init; test; step)` has every part evaluated
            if self.lang != "perl" or node.child_by_field_name("list") is None:
                return self.walk(node)
            variable = node.child_by_field_name("variable")
            collection = self.ev(node.child_by_field_name("list"))
            names = [self.text(variable)] if variable is not None else []
            body = node.child_by_field_name("block") or node.child_by_field_name("body")
        known_items = collection.kind == "list" and 0 < len(collection.items) <= MAX_LOOP
        items = collection.items if known_items else (Val(text=UNKNOWN, tainted=collection.tainted),)
        self.loop(names, items, body)
        return UNK

    def args(self, node: Node | None) -> list[Val]:
        if node is None:
            return []
        if node.type in ("arguments", "argument_list", "list_expression", "parenthesized_expression"):
            out: list[Val] = []
            for child in node.named_children:
                if child.type == "comment":
                    continue
                if child.type == "list_expression":
                    out.extend(self.args(child))
                elif child.type in _SPREADS and child.named_child_count:
                    value = self.ev(child.named_children[0])  # `f(*Dir.glob(p))`, `f(...paths)`
                    out.extend(value.items if value.kind == "list" and value.items else (value,))
                elif child.type == "pair" and self.lang == "ruby":
                    out.append(self.pairs_of([child]))
                else:
                    out.append(self.ev(child))
            return out
        return [self.ev(node)]

    def pairs_of(self, children: list[Node]) -> Val:
        return self.pairs(children[0].parent) if children and children[0].parent is not None else UNK

    def value_of(self, value: Val, base: Val) -> Val:
        """A property that is a value: `process.env.HOME`, `resp.body`."""
        if value.ref in ("os.homedir",):
            return value
        return value

    def apply(self, name: str, receiver: Val | None, method: str, args: list[Val], node: Node) -> Val:
        fx = self.fx
        first = args[0] if args else UNK
        if receiver is not None and method and not args and CREDENTIAL_ATTRIBUTE.fullmatch(method):
            return Val(text=UNKNOWN, variable=method)  # Ruby's `user.api_token`: an attribute read by a call
        if any(a.ref in _ENVIRONMENT for a in args) or (
            receiver is not None and receiver.ref in _ENVIRONMENT and method not in _ONE_VARIABLE
        ):
            fx.environment = True  # `JSON.stringify(process.env)`, `ENV.to_h`, `json_encode($_ENV)`
        entry = _E.get(name)
        if entry is None and receiver is not None and receiver.ref:
            owner = receiver.ref
            if owner in _RUBY_HTTP or owner in _PERL_HTTP or owner.endswith(".new"):
                base = owner[:-4] if owner.endswith(".new") else owner
                entry = _E.get(f"{base}.{method}")
                if (
                    entry is None
                    and base in (_RUBY_HTTP | _PERL_HTTP)
                    and method in ("get", "post", "put", "request")
                ):
                    entry = ("url_body" if method in ("post", "put") else "url", 0)
                if method == "new" and base not in _E:
                    return Val(ref=f"{base}.new")
        if entry is None and receiver is not None and not receiver.ref and method:
            return self.on_value(receiver, method, args)
        if entry is None:
            if name in ("require",) or (
                self.lang == "node" and (name == "import" or name.endswith((".require", "._load")))
            ):  # `process.mainModule.require(m)`, `module.constructor._load(m)`, `await import(m)`
                module = known(first)
                if module is None:
                    fx.flag(f"{self.lang} loads a module named at run time")
                    return UNK
                return Val(ref=_module(module))
            if name and (sdk := cloud_sdk(name)) is not None:  # `new DeleteBucketCommand(...)`
                parameters = first if first.kind == "dict" else Val(kind="dict")  # `new XCommand({...})`
                line = sdk_operation(
                    name,
                    {k: option_value(v) for k, v in zip(parameters.keys, parameters.items, strict=False)},
                )
                cli_words = () if line else sdk_destruction(sdk, name.split(".")[1:])
                if line:  # judged as the same command line is (`aws guardduty update-detector --no-enable`)
                    fx.argvs.append((line, name))
                if cli_words:  # judged as the CLI's same words are (`aws delete-bucket`)
                    fx.argvs.append(((sdk.program, *cli_words), name))
                return Val(ref=name)  # a client, a resource, a command: its methods are looked at too
            if name.startswith("?."):
                return UNK
            # `runner({cmd: ["sh", "-c", LINE]})`: run by whoever takes it
            for handed in handed_commands(args):
                self.argv(handed, name or "a call")
            return Val(tainted=any(a.tainted for a in args))
        effect, index = entry
        target = args[index] if len(args) > index else UNK
        if effect == "prints":  # `console.log(process.env.STRIPE_SECRET_KEY)`, `puts user.api_token`
            for printed in args[:16]:
                if printed.variable:
                    fx.note(PRINTED_NOTE + printed.variable)
            return UNK
        if effect == "shell":
            if (
                self.lang in ("perl", "ruby")
                and len(args) > 1
                and name not in ("IO.popen", "popen", "proc_open")
            ):
                words = [a for a in args if a.kind != "dict"]
                self.argv(Val(kind="list", items=tuple(words)), name)
            else:
                self.shell(target, name)
            return Val(text=UNKNOWN)
        if effect == "spawn":
            rest = args[1] if len(args) > 1 and args[1].kind == "list" else Val(kind="list")
            options = next((a for a in args[1:] if a.kind == "dict"), None)
            if (
                options is not None
                and options.get("shell") is not None
                and options.get("shell") != Val(ref="false")
            ):
                self.shell(concat(target, *(concat(s(" "), i) for i in rest.items)), name)
            elif name == "child_process.fork":
                self.fx.argvs.append((("node", text_of(target), *(text_of(i) for i in rest.items)), ""))
            else:
                self.argv(Val(kind="list", items=(target, *rest.items)), name)
            return Val(kind="process")
        if effect in ("delete", "delete_r", "delete_opt"):
            recursive = effect == "delete_r"
            if effect == "delete_opt":
                options = next((a for a in args[1:] if a.kind == "dict"), None)
                recursive = options is not None and options.get("recursive") == Val(ref="true")
            for item in target.items if target.kind == "list" else args if self.lang == "perl" else (target,):
                fx.deletes.append((text_of(item), recursive, name))
            return UNK
        if effect == "open":
            return self.open(name, args)
        if effect == "dns":
            if not fx.lookup(text_of(target), name) and known(target) is None:
                fx.note(f"{self.lang} {name} of a name computed at run time")
            return UNK
        if effect == "write":
            fx.writes.append(text_of(target))
            if len(args) > index + 1:
                fx.wrote(text_of(target), args[index + 1])
            if target.tainted:
                fx.note("writes downloaded data")
            return UNK
        if effect == "glob":
            fx.reads.append(text_of(target))
            return Val(kind="list", items=(target,))  # the pattern stands for its matches, as in a shell
        if effect == "read":
            if "://" in text_of(target):
                return self.url(target, name, False)
            fx.reads.append(text_of(target))
            if (path := known(target)) is not None:
                return Val(text=UNKNOWN, kind="filedata", path=path)
            return Val(text=UNKNOWN, kind="file")
        if effect in ("copy", "move") and len(args) >= 2:
            fx.argvs.append((("cp" if effect == "copy" else "mv", text_of(args[0]), text_of(args[1])), name))
            return UNK
        if effect == "chmod_path_mode" and len(args) >= 2:
            fx.argvs.append((("chmod", _mode(args[1]), text_of(args[0])), name))
            return UNK
        if effect == "chmod_mode_path" and len(args) >= 2:
            fx.argvs.append((("chmod", _mode(args[0]), text_of(args[1])), name))
            return UNK
        if effect in ("url", "url_body"):
            if name in _FILE_OR_URL and "://" not in text_of(target):
                mode = known(args[1]) if len(args) > 1 and name == "fopen" else "r"
                if mode is None or set(mode) & set("wax+"):
                    fx.writes.append(text_of(target))
                else:
                    fx.reads.append(text_of(target))
                return Val(kind="file")
            if name in ("URI", "URI.parse", "HTTP::Request.new"):
                value = args[1] if name == "HTTP::Request.new" and len(args) > 1 else target
                return Val(text=value.text, kind="request")
            if name == "get" and self.lang != "perl":
                return Val(tainted=any(a.tainted for a in args))
            if name in ("getstore", "LWP::Simple::getstore", "mirror") and len(args) > 1:
                fx.writes.append(text_of(args[1]))
            if target.kind == "dict":
                host = target.get("hostname") or target.get("host")
                if host is not None:  # `https.request({hostname, method: "POST", path})`: that URL
                    verb = (target.get("method") or UNK).text
                    port = target.get("port") or UNK
                    if known(host) is None:
                        self.host(host, port, name)
                        return Val(kind="response", tainted=True)
                    scheme = "http" if name.startswith("http.") else "https"
                    where = text_of(host) + (f":{port.num}" if port.num is not None else "")
                    address = s(f"{scheme}://{where}{known(target.get('path') or s('/')) or '/'}")
                    self.url(address, name, verb not in (None, "GET", "get", "HEAD", "head"))
                    return Val(kind="response", tainted=True)
            body = effect == "url_body" or any(
                a.kind == "dict" and (a.get("method") or UNK).text not in (None, "GET", "get") for a in args
            )
            # PHP's request made with a stream context (`file_get_contents(URL, false, $ctx)`, whose context
            # sets the method and the content), or by a cURL handle given a body (`CURLOPT_POSTFIELDS`)
            body = body or (self.lang == "php" and name in _FILE_OR_URL and len(args) >= 3)
            body = body or (name == "curl_init" and _CURL_BODY.search(self.data) is not None)
            return self.url(target, name, body)
        if effect == "host":
            port = args[index + 1] if len(args) > index + 1 else UNK
            if name == "stream_socket_client" or "://" in text_of(target):
                found = host_port(target)
                if found:
                    fx.hosts.append((found[0], found[1], name))
                fx.socket = True
                return Val(kind="socket")
            self.host(target, port, name)
            if name.startswith(("TCPSocket", "Socket", "fsockopen", "pfsockopen", "UDPSocket", "socket_")):
                fx.socket = True
            return Val(kind="socket")
        if effect == "mail":  # the message goes to the recipients' mail domains
            recipients = text_of(target)
            if UNKNOWN in recipients:
                fx.note(f"{self.lang} {name} to a recipient computed at run time")
            for domain in dict.fromkeys(_MAIL_DOMAIN.findall(recipients)[:8]):
                fx.hosts.append((domain.lower(), 25, name))
            return UNK
        if effect == "net_connect":
            fx.socket = True
            if first.kind == "dict":
                self.host(first.get("host") or s("localhost"), first.get("port") or UNK, name)
            elif len(args) > 1 and args[1].text is not None:
                self.host(args[1], first, name)
            elif first.num is not None:
                self.host(s("localhost"), first, name)
            return Val(kind="socket")
        if effect == "socket":
            fx.socket = True
            for value in args:  # IO::Socket::INET->new(PeerAddr => "h:p")
                if value.kind == "dict":
                    peer = value.get("PeerAddr") or value.get("PeerHost")
                    if peer is not None:
                        self.host(peer, value.get("PeerPort") or UNK, name)
            labels = [a.ref or known(a) or "" for a in args]
            for i, label in enumerate(labels):
                if label in ("PeerAddr", "PeerHost") and i + 1 < len(args):
                    at = labels.index("PeerPort") + 1 if "PeerPort" in labels else 0
                    self.host(args[i + 1], args[at] if at else UNK, name)
            if len(args) == 1 and known(first) and ":" in (known(first) or ""):
                self.host(first, UNK, name)
            return Val(kind="socket")
        if effect == "code":
            if name in ("setTimeout", "setInterval", "setImmediate") and target.text is None:
                self.fx.tick()
                return UNK  # a function, not a string of code
            if name == "assert" and target.text is None:
                return UNK
            if name == "Function" and args:
                target = args[-1]
            return self.code(target, name)
        if effect == "name":
            chosen = known(target)
            if chosen is None:
                fx.flag(f"{self.lang} {name} calls a name computed at run time")
                return UNK
            if receiver is not None and receiver.ref:
                return self.apply(
                    _canonical(self.lang, f"{receiver.ref}.{chosen}"), receiver, chosen, args[1:], node
                )
            return self.apply(_canonical(self.lang, chosen), None, chosen, args[1:], node)
        if effect == "require":
            path = known(first)
            if path is None and first.tainted:
                fx.download_exec = True
            if path is None:
                fx.flag(f"{self.lang} loads code named at run time")
            elif "://" in path:
                fx.download_exec = True
                self.url(first, name, False)
            return Val(ref=_module(path) if path and self.lang == "node" else "")
        if effect == "b64":
            if name == "Buffer.from":
                encoding = known(args[1]) if len(args) > 1 else None
                if encoding in ("base64", "base64url"):
                    return b64decode(first)
                if encoding == "hex":
                    return hexdecode(first)
                return first
            return b64decode(first)
        if effect == "hex":
            return hexdecode(args[1] if name == "pack" and len(args) > 1 else first)
        if effect == "rot13":
            return rot13(first)
        if effect == "rev":
            return reverse(first) if name != "scalar" else first
        if effect == "chr":
            return concat(*(char(a) for a in args)) if args else UNK
        if effect == "home":
            return s(self.home)
        if effect == "cwd":
            return Val(text=self.cwd, kind="path") if name == "Rails.root" else s(self.cwd)
        if effect == "join":
            return join(*args) if args else UNK
        if effect == "expand":
            value = normalise(first, self.home)
            return join(args[1], value) if len(args) > 1 and not text_of(value).startswith("/") else value
        if effect == "dirname":
            return parent(first)
        if effect == "file_url":  # `new URL("../.env", import.meta.url)`: a file beside the module
            return _file_url(text_of(first), text_of(args[1]) if len(args) > 1 else None, first)
        if effect == "env":
            return self.environ(known(first))
        if effect == "identity":
            return first if args else receiver or UNK
        if effect == "shell_quoted":
            return Val(text=first.text if first.text is not None and not first.tainted else UNKNOWN)
        return UNK

    def on_value(self, receiver: Val, method: str, args: list[Val]) -> Val:
        """A method of a value that is not a library name: strings, responses, sockets, objects."""
        first = args[0] if args else UNK
        if args:
            self.fx.sql(method, first)  # `pool.query("TRUNCATE orders")`
        if any(a.ref in _CODE_REFS for a in args):  # `fetch(u).then(r => r.text()).then(eval)`
            if receiver.tainted or receiver.kind == "response":
                self.fx.download_exec = True
            self.fx.flag(f"{self.lang} hands values to {next(a.ref for a in args if a.ref in _CODE_REFS)}")
        if receiver.kind == "request" and method in ("open", "read", "body"):
            return self.url(Val(text=receiver.text), method, False)
        if method in ("toString", "to_s", "decode", "text", "json", "read", "body", "trim", "strip", "chomp"):
            if receiver.tainted or receiver.kind == "response":
                return TAINTED
            if receiver.text is not None:
                if method in ("toString",) and known(first) == "base64":
                    return receiver
                return receiver
        if method in ("reverse",) and receiver.text is not None:
            return reverse(receiver)
        if method in ("split",) and receiver.text is not None:
            text = known(receiver)
            separator = known(first) if args else None
            if text is not None and separator is not None:
                parts = text.split(separator) if separator else list(text)
                return Val(kind="list", items=tuple(s(p) for p in parts[:4096]))
            return Val(tainted=receiver.tainted)
        if method == "join" and receiver.kind == "path" and args:  # `Rails.root.join("scripts", "x.rb")`
            return join(receiver, *args, kind="path")
        if method == "join" and receiver.kind == "list":
            sep = s(known(first) or "") if args else s(",")
            out: list[Val] = []
            for i, item in enumerate(receiver.items):
                if i:
                    out.append(sep)
                out.append(item)
            return concat(*out) if out else s("")
        if (
            method in ("map",)
            and receiver.kind == "list"
            and args
            and args[0].ref in ("chr", "String.fromCharCode")
        ):
            return Val(kind="list", items=tuple(char(i) for i in receiver.items))
        if method in ("unpack1", "unpack") and known(first) in ("m", "m0"):
            return b64decode(receiver)
        if method in ("pack",) and receiver.kind == "list" and known(first) in ("U*", "c*", "C*"):
            return concat(*(char(i) for i in receiver.items))
        if method in _SUBSTITUTIONS and receiver.kind == "filedata" and len(args) == 2:
            return edited(receiver, _SUBSTITUTIONS[method], first, args[1])
        if method in ("replace", "gsub", "sub") and receiver.text is not None and len(args) >= 2:
            old, new = known(args[0]), args[1]
            if old is not None and receiver.text is not None:
                return Val(text=receiver.text.replace(old, text_of(new)), tainted=receiver.tainted)
        if method in ("connect",) and receiver.kind == "socket":
            if len(args) >= 2 and args[1].text is not None:
                self.host(args[1], first, "connect")
            elif first.kind == "dict":
                self.host(first.get("host") or s("localhost"), first.get("port") or UNK, "connect")
            return UNK
        if method in ("open", "read") and receiver.kind == "path":
            return UNK
        if receiver.kind == "response" or receiver.tainted:
            return TAINTED
        return Val(tainted=any(a.tainted for a in args))

    # ----------------------------------------------------------------- effects

    def open(self, name: str, args: list[Val]) -> Val:
        """Perl's `open(FH, MODE, PATH)`, `open(FH, ">PATH")`, `open(FH, "| CMD")`; Ruby's `open(PATH, MODE)`,
        `open("| CMD")`, `File.open(PATH, MODE)`: a read, a write, a command or a URL."""
        words = args[1:] if self.lang == "perl" and name in ("open", "sysopen") else args
        if not words:
            return UNK
        first = text_of(words[0])
        if len(words) >= 2 and self.lang == "perl" and first.strip() in ("-|", "|-"):
            if len(words) > 2:
                self.argv(Val(kind="list", items=tuple(words[1:])), name)
            else:
                self.shell(words[1], name)
            return Val(kind="file")
        if len(words) >= 2 and self.lang == "perl":
            mode, target = first.strip(), words[1]
        elif self.lang == "perl":
            stripped = first.strip()
            if stripped.startswith("|") or stripped.endswith("|"):
                command = stripped.strip("|").strip()
                self.shell(s(command, words[0].tainted), name)
                if stripped.startswith("|") and command.split(" ", 1)[0].rsplit("/", 1)[-1] in _RUNS_STDIN:
                    self.fx.flag(f"{self.lang} writes commands into {command.split(' ', 1)[0]}")
                return Val(kind="file")
            head = re.match(r"^(\+?[<>]{1,2}|)\s*", stripped)
            mode = head.group(1) if head else ""
            target = s(stripped[head.end() :] if head else stripped)
        else:  # ruby
            if first.startswith("|"):
                command = first[1:].strip()
                self.shell(s(command, words[0].tainted), name)
                if command.split(" ", 1)[0].rsplit("/", 1)[-1] in _RUNS_STDIN and mode_of(words) != "r":
                    self.fx.flag(f"{self.lang} writes commands into {command.split(' ', 1)[0]}")
                return Val(kind="file")
            if "://" in first:
                return self.url(words[0], name, False)
            mode, target = (known(words[1]) or "w") if len(words) > 1 else "r", words[0]
        if set(mode) & set(">wa+"):
            self.fx.writes.append(text_of(target))
        if not set(mode) & set(">wa") or "+" in mode:
            self.fx.reads.append(text_of(target))
        return Val(kind="file")

    def shell(self, line: Val, api: str) -> None:
        if line.tainted:
            self.fx.download_exec = True
        if line.kind == "list":
            self.argv(line, api)
            return
        self.fx.shell.append((text_of(line), api))

    def argv(self, words: Val, api: str) -> None:
        if runs_tainted(words):
            self.fx.download_exec = True
        argv = tuple(text_of(w) for w in words.items)
        if argv:
            self.fx.argvs.append((argv, ""))
        else:
            self.fx.flag(f"{self.lang} {api} runs a command built at run time")

    def code(self, value: Val, api: str) -> Val:
        text = known(value)
        if value.tainted:
            self.fx.download_exec = True
            self.fx.flag(f"{self.lang} {api} runs downloaded code")
        elif text is not None:
            analyse_into(
                self.fx,
                self.lang,
                text,
                cwd=self.cwd,
                home=self.home,
                script=self.script,
                level=self.level + 1,
            )
        else:
            self.fx.flag(f"{self.lang} {api} runs code built at run time")
        return UNK

    def include(self, target: Val, api: str) -> None:
        path = known(target)
        if target.tainted or (path is not None and "://" in path):
            self.fx.download_exec = True
            if path:
                self.url(target, api, False)
        elif path is None:
            self.fx.flag(f"{self.lang} {api}s a file named at run time")
        else:
            self.fx.reads.append(path)

    def url(self, target: Val, api: str, body: bool) -> Val:
        if target.kind == "request":
            target = Val(text=target.text)
        text = text_of(target)
        host = (
            text.split("://", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1].split(":", 1)[0]
            if "://" in text
            else ""
        )
        if "://" in text and UNKNOWN not in host:
            self.fx.urls.append((text, api))
            if body or UNKNOWN in text:  # a body, or data computed into the path or query, leaves with it
                self.fx.sent(text, api)
        elif host and self.fx.lookup(host, api):
            pass  # `https://${data}.evil.example/`: data in the name the request resolves
        elif body:
            self.fx.flag(f"{self.lang} {api} sends data to a destination computed at run time")
        else:
            self.fx.note(f"{self.lang} {api} to a destination computed at run time")
        return Val(kind="response", tainted=True)

    def host(self, target: Val, port: Val, api: str) -> None:
        found = host_port(target)
        if found is None or not found[0] or UNKNOWN in found[0]:
            self.fx.note(f"{self.lang} {api} to a destination computed at run time")
            return
        self.fx.hosts.append((found[0], found[1] if found[1] is not None else port.num, api))


_KINDS: dict[str, Callable[[_Eval, Node], Val]] = {
    **dict.fromkeys(
        ("string", "template_string", "interpolated_string_literal", "encapsed_string", "string_literal"),
        _Eval.string,
    ),
    **dict.fromkeys(("heredoc", "heredoc_body", "nowdoc"), _Eval.string),
    **dict.fromkeys(("command_string", "shell_command_expression", "subshell"), _Eval._shell_string),
    **dict.fromkeys(("number", "integer"), _Eval._number),
    "meta_property": lambda _ev, _node: Val(ref="import.meta"),  # `import.meta.url`: `member` reads it
    **dict.fromkeys(("true", "false", "null", "nil", "undefined"), _Eval._literal),
    **dict.fromkeys(
        (
            "identifier",
            "constant",
            "name",
            "property_identifier",
            "bareword",
            "qualified_name",
            "scope_resolution",
        ),
        _Eval._name,
    ),
    **dict.fromkeys(
        ("scalar", "variable_name", "global_variable", "instance_variable", "array", "hash"), _Eval._variable
    ),
    **dict.fromkeys(
        ("parenthesized_expression", "await_expression", "argument", "expression_statement"), _Eval._single
    ),
    "rescue_modifier": _Eval._rescued,
    **dict.fromkeys(
        (
            "member_expression",
            "call",
            "method_call_expression",
            "member_call_expression",
            "function_call_expression",
            "ambiguous_function_call_expression",
            "call_expression",
            "new_expression",
            "scoped_call_expression",
            "object_creation_expression",
            "func1op_call_expression",
            "func0op_call_expression",
        ),
        _Eval.call,
    ),
    **dict.fromkeys(
        ("subscript_expression", "element_reference", "hash_element_expression", "array_element_expression"),
        _Eval.subscript,
    ),
    **dict.fromkeys(("binary_expression", "binary"), _Eval.binary),
    **dict.fromkeys(
        ("variable_declarator", "assignment_expression", "assignment", "augmented_assignment_expression"),
        _Eval.assign,
    ),
    **dict.fromkeys(
        ("list_expression", "array_creation_expression", "anonymous_array_expression"), _Eval._list
    ),
    **dict.fromkeys(("object", "hash_literal", "anonymous_hash_expression"), _Eval._object),
    "eval_expression": _Eval._eval,
    **dict.fromkeys(
        ("include_expression", "include_once_expression", "require_expression", "require_once_expression"),
        _Eval._include,
    ),
    **dict.fromkeys(
        (
            "for",
            "for_in_statement",
            "foreach_statement",
            "for_statement",
            "postfix_for_expression",
            "map_grep_expression",
        ),
        _Eval._for,
    ),
    "function": _Eval._bare_function,
    "use_statement": _Eval._nothing,
    **dict.fromkeys(("echo_statement", "print_intrinsic"), _Eval._echo),
    "import_statement": _Eval._import,
    **dict.fromkeys(
        ("string_content", "string_fragment", "autoquoted_bareword", "simple_symbol", "hash_key_symbol"),
        _Eval._fragment,
    ),
}


# Methods that run a block or callback on each item of their receiver.
_ITERATORS = frozenset(
    {
        *(
            "each",
            "map",
            "collect",
            "flat_map",
            "select",
            "filter",
            "reject",
            "each_with_index",
            "each_entry",
        ),
        *("each_child", "each_with_object", "forEach", "flatMap", "some", "every", "find", "reduce"),
    }
)
# PHP functions that apply a callback to an array: name -> (index of the callback, index of the array).
_MAPPERS = {"array_map": (0, 1), "array_walk": (1, 0), "array_filter": (1, 0), "usort": (1, 0)}
# Nodes that are functions written in place (their parameters are bound to each item).
_FUNCTIONS = frozenset(
    {
        *("arrow_function", "function_expression", "function", "anonymous_function"),
        *("anonymous_function_creation_expression", "lambda", "block", "do_block"),
    }
)
# Argument nodes that spread a collection into several arguments.
_SPREADS = frozenset({"splat_argument", "spread_element", "variadic_unpacking"})
MAX_LOOP = 16  # items of a known collection a loop body is evaluated for, one by one
_PARAMETER_NODES = frozenset(
    {"identifier", "variable_name", "scalar", "simple_parameter", "block_parameters", "formal_parameters"}
)


def _argument(node: Node) -> Node:
    """PHP wraps each argument in an `argument` node: the expression inside it."""
    return node.named_children[0] if node.type == "argument" and node.named_children else node


def _parameters(evaluator: _Eval, function: Node) -> list[str]:
    """The first parameter's name of a function or block written in place (`|f|`, `f =>`, `($f)`)."""
    found = function.child_by_field_name("parameter") or function.child_by_field_name("parameters")
    while found is not None and found.type not in ("identifier", "variable_name", "scalar"):
        children = [
            c for c in found.named_children if c.type in _PARAMETER_NODES or c.type.endswith("parameter")
        ]
        found = children[0] if children else None
        if found is not None and found.type == "simple_parameter":
            found = found.child_by_field_name("name") or (
                found.named_children[0] if found.named_children else None
            )
    return [evaluator.text(found)] if found is not None else []


# What a Node web handler's request holds from the client (Express, Koa, Fastify)
_FETCH_BODY_READERS = frozenset({"json", "text", "formData"})
_JS_REQUEST_INPUTS = frozenset({"query", "body", "params", "headers", "cookies", "files", "rawBody"})
# PHP's request superglobals: what the web client sent, as much network data as a download
_REQUEST_INPUT = frozenset({"$_GET", "$_POST", "$_REQUEST", "$_COOKIE", "$_FILES"})
_PHP_CLASS_NAMES = frozenset({"name", "qualified_name", "relative_scope"})


def _canonical(lang: str, name: str) -> str:
    """`require("node:fs").rmSync` is `fs.rmSync`, `File::Path::rmtree` is `rmtree`, `\\system` `system`."""
    if not name:
        return name
    if lang == "perl":
        name = name.replace("->", ".")
        if name.startswith(("CORE::", "POSIX::", "File::Path::")):
            name = name.rsplit("::", 1)[-1]
    if lang == "ruby" and name.startswith(("Kernel.", "::")):
        name = name.split(".", 1)[-1].lstrip(":")
    if lang == "php":
        name = name.lower() if "." not in name else name
    return name


def _file_url(where: str | None, base: str | None, given: Val) -> Val:
    """The file a `URL` names: `where` made relative to a `file:` base's folder, or a `file:` URL's path;
    anything else as it was given."""
    if where is None:
        return given
    if base is not None and base.startswith("file://") and "://" not in where and not where.startswith("/"):
        return join(parent(s(base[len("file://") :])), given)
    return s(where[len("file://") :]) if where.startswith("file://") else given


def _module(name: str) -> str:
    for prefix in _NODE_MODULES:
        if name.startswith(prefix):
            name = name[len(prefix) :]
    return _MODULE_ALIASES.get(name, name)


def _number(text: str) -> Val:
    text = text.replace("_", "")
    try:
        return Val(num=int(text, 0) if not re.fullmatch(r"0\d+", text) else int(text, 8))
    except ValueError:
        return UNK


def _mode(value: Val) -> str:
    if value.num is not None:
        return f"{value.num:o}"
    return known(value) or UNKNOWN


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'", "$": "$", "e": "\x1b"}


def _unescape(text: str) -> str:
    if len(text) < 2 or text[0] != "\\":
        return text
    body = text[1:]
    if body[0] in "xu" and len(body) > 1:
        digits = body[1:].strip("{}")
        try:
            return chr(int(digits, 16))
        except ValueError:
            return text
    if body.isdigit() and len(body) <= 3:
        try:
            return chr(int(body, 8))
        except ValueError:
            return text
    return _ESCAPES.get(body, body)


_ESCAPE = re.compile(r"\\(?:x[0-9a-fA-F]{1,2}|u\{?[0-9a-fA-F]{1,4}\}?|[0-7]{1,3}|.)", re.S)


def unescape_all(text: str) -> str:
    """A string literal's text with every backslash escape decoded (`\\n`, `\\x41`, `\\u{263a}`, `\\101`), as
    R, Julia and Lua write them."""
    return _ESCAPE.sub(lambda m: _unescape(m.group(0)), text) if "\\" in text else text
