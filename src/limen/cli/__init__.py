"""The `limen` command. Each sub-command lives in its own module, imported only when it runs."""

from __future__ import annotations

import importlib
import os
import sys
import threading

# name -> (module under limen.cli, one-line help). Each module exposes `main(argv: list[str]) -> int`.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "Decide a dozen realistic tool calls and explain each."),
    "explain": ("explain", "Decide one tool call and show the evidence trail."),
    "bench": ("bench", "Measure attack-success and false-positive rates on labelled corpora."),
    "init": ("init", "Write a commented default limen.yaml."),
    "config": ("config", "Check the policy files (limen config check)."),
    "policy": ("policy", "Propose, approve and list policy changes (the drift gate)."),
    "log": ("log", "Show recent decisions from the audit log."),
    "tune": ("tune", "Show which reason codes cause the most friction, and the waiver for each."),
    "audit": ("audit", "Verify the audit log's hash chain."),
    "session": ("session", "Show, clear or halt a session's state."),
    "hook": ("hook", "Answer one coding-agent hook event (the same as limen-hook)."),
    "install": ("install", "Wire Limen into a coding agent's hooks or MCP servers."),
    "uninstall": ("uninstall", "Remove Limen's wiring from a coding agent."),
    "doctor": ("doctor", "Check the wiring end to end with synthetic events."),
    "daemon": ("daemon", "Start, stop or inspect the decision daemon."),
    "mcp": ("mcp", "Run an MCP server behind Limen's proxy (stdio, --url or serve)."),
    "tools": ("tools", "List and re-approve pinned MCP tools."),
    "pending": ("pending", "List the approval requests waiting for an answer."),
    "approve": ("approve", "Approve one pending request: the identical call may run once."),
    "deny": ("deny", "Deny one pending approval request."),
    "console": ("console", "Serve the local web console: approvals, the log, sessions, tool pins, policy."),
    "run": ("run", "Start a coding agent confined by the kernel, the decision daemon outside it."),
    "proxy": ("proxy", "Run the egress proxy: every HTTP(S) request decided (mitmproxy addon)."),
    "ca": ("ca", "Create or show the egress proxy's local CA and how to trust it."),
    "serve": ("serve", "Serve decisions over HTTP for a fleet (shared Redis state, PostgreSQL audit)."),
    "completion": ("completion", "Print a shell completion script (bash, zsh or fish)."),
}


def _usage() -> str:
    lines = [
        "usage: limen <command> [options]",
        "",
        "Limen decides every tool call an AI agent makes: PASS, AUTH (a human approves once) or BLOCK.",
        "",
        "commands:",
    ]
    lines += [f"  {name:<12} {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += [
        "",
        "options:",
        "  -h, --help   Show this help and exit; limen <command> --help shows a command's own.",
        "  -V, --version",
        "               Print the version and exit.",
    ]
    return "\n".join(lines)


def _quiet_broken_pipe(args: threading.ExceptHookArgs) -> None:
    """A thread that prints when the reader has gone (`limen ... | head -1`) ends quietly, as the main
    thread does; any other exception in a thread is reported as Python reports it."""
    if args.exc_type is BrokenPipeError:
        return
    threading.__excepthook__(args)


def main(argv: list[str] | None = None) -> int:
    """Run one sub-command. A reader that goes away (`limen log | head -1`) ends it quietly, as it ends
    other Unix tools: no traceback, exit status 141 (128 + SIGPIPE), from any thread."""
    if os.name != "posix":
        print("limen: Limen runs on POSIX systems (Linux, macOS); this system is not one.", file=sys.stderr)
        return 2
    threading.excepthook = _quiet_broken_pipe
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
