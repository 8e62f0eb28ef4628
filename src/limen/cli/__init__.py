"""The `limen` command. Each sub-command lives in its own module, imported only when it runs."""

from __future__ import annotations

import importlib
import os
import sys

# name -> (module under limen.cli, one-line help). Each module exposes `main(argv: list[str]) -> int`.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "decide a dozen realistic tool calls and explain each"),
    "explain": ("explain", "decide one tool call and show the evidence trail"),
    "bench": ("bench", "measure attack-success and false-positive rates on labelled corpora"),
    "init": ("init", "write a commented default limen.yaml"),
    "config": ("config", "check the policy files (config check)"),
    "policy": ("policy", "propose, approve and list policy changes (the drift gate)"),
    "log": ("log", "recent decisions from the audit log"),
    "tune": ("tune", "which reason codes cause the most friction, and the waiver for each"),
    "audit": ("audit", "verify the audit log's hash chain"),
    "session": ("session", "show or clear a session's state"),
    "hook": ("hook", "answer one coding-agent hook event (same as limen-hook)"),
    "install": ("install", "wire Limen into a coding agent's hooks or MCP servers"),
    "uninstall": ("uninstall", "remove Limen's wiring from a coding agent"),
    "doctor": ("doctor", "check the wiring end to end with a synthetic event"),
    "daemon": ("daemon", "start, stop or inspect the decision daemon"),
    "mcp": ("mcp", "run an MCP server behind Limen's proxy"),
    "tools": ("tools", "list and re-approve pinned MCP tools"),
    "pending": ("pending", "list the approval requests waiting for an answer"),
    "approve": ("approve", "approve one pending request: the identical call may run once"),
    "deny": ("deny", "deny one pending approval request"),
    "run": ("run", "start a coding agent confined by the kernel, the decision daemon outside it"),
    "proxy": ("proxy", "the egress proxy: every HTTP(S) request decided (mitmproxy addon)"),
    "ca": ("ca", "create or show the egress proxy's local CA and how to trust it"),
    "serve": ("serve", "the decision service over HTTP for a fleet (shared Redis state, PostgreSQL audit)"),
}


def _usage() -> str:
    lines = ["usage: limen <command> [options]", "", "commands:"]
    lines += [f"  {name:<12} {help_}" for name, (_, help_) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run one sub-command. A reader that goes away (`limen log | head -1`) ends it quietly, as it ends
    other Unix tools: no traceback, exit status 141 (128 + SIGPIPE)."""
    try:
        code = _main(argv)
        sys.stdout.flush()  # what is still buffered would otherwise fail at exit, past this handler
    except BrokenPipeError:
        try:  # the interpreter flushes stdout again at exit: point it somewhere that accepts the bytes
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 141
    return code


def _main(argv: list[str] | None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    if args[0] in ("-V", "--version"):
        from limen import __version__

        print(f"limen {__version__}")
        return 0
    entry = COMMANDS.get(args[0])
    if entry is None:
        print(f"limen: unknown command {args[0]!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"limen.cli.{entry[0]}")
    code: int = module.main(args[1:])
    return code


if __name__ == "__main__":
    sys.exit(main())
