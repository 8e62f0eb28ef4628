"""`limen install <agent> [--mcp] [--project|--user] [--dry-run]`: wire Limen into a coding agent."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

NOTES = {
    "codex": "Codex reads its hooks and their trust when a session starts: start a new one.",
    "gemini": "Gemini CLI reads its settings when a session starts: start a new one.",
    "cursor": "Cursor reads hooks.json at start: restart Cursor.",
    "claude-code": "Claude Code reloads settings by itself; /hooks shows what is wired.",
}
DONE = {
    "restored": "restored {path} byte for byte as it was before install",
    "deleted": "deleted {path}: it did not exist before install",
    "changed": "{path} changed since install: removed only Limen's entries, keeping its formatting",
    "removed": "removed Limen's entries from {path}",
}
LAUNCHER_WRITTEN = {
    "written": "{path} written: typing its name starts {real} under `limen run`",
    "unchanged": "{path} already starts {real} under `limen run`",
}
LAUNCHER_REMOVED = {
    "restored": "{path} restored byte for byte as it was before install",
    "deleted": "{path} deleted: it did not exist before install",
    "removed": "{path} deleted",
    "changed": "{path} changed since install; deleted all the same",
    "missing": "{path} is no Limen launcher: nothing to remove",
}
MCP_RESTART = {
    "claude-code": "Restart Claude Code (or /mcp reconnect)",
    "cursor": "Restart Cursor",
    "claude-desktop": "Quit and reopen Claude Desktop",
}
EPILOG = """\
Without --mcp, only the agent's hook configuration is written (claude-code, cursor, gemini, codex): every
tool call the agent makes is decided by limen-hook. No MCP server entry is touched. A missing or broken
Limen denies: for Claude Code, Codex and Gemini CLI the command runs limen-hook under a small /bin/sh
guard that turns a missing executable, an import error or a crash into the agent's block (exit 2); Cursor's
hooks are written with failClosed. Until Limen is reinstalled, every call is denied.

With --mcp, only the agent's MCP server files are rewritten (claude-code, cursor, claude-desktop): every
configured server runs through limen mcp --name <server key>, which decides each tools/call, pins each
server's tools and screens results. No hook is touched; run both commands for both.
  claude-code     --user: ~/.claude.json (user servers and every project's local servers)
                  --project: ./.mcp.json
  cursor          --user: ~/.cursor/mcp.json; --project: ./.cursor/mcp.json
  claude-desktop  --user only: its claude_desktop_config.json
Entries limen mcp cannot front (sse, ws, a headersHelper) are listed and left as they are. Only each
server entry's text changes; limen uninstall <agent> --mcp puts the original entries back.

Hooks an agent does not trust never run: for Codex, install records each hook's hash as trusted in
$CODEX_HOME/config.toml (and, with --project, the project as trusted); for Gemini CLI with --project, it adds
the folder to ~/.gemini/trustedFolders.json. When it cannot, it says what you must do and exits 1.
Uninstall gives every file it wrote back byte for byte when nothing else changed it since, and otherwise
removes only Limen's entries. limen doctor <agent> fires a test event through the agent's real wiring.
"""


def parser(prog: str, verb: str) -> argparse.ArgumentParser:
    from limen.install import AGENTS, MCP_AGENTS

    p = argparse.ArgumentParser(
        prog=prog,
        description=f"{verb} Limen's hook for a coding agent, or (--mcp) its MCP servers' proxy.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("agent", choices=sorted({*AGENTS, *MCP_AGENTS}), help="The coding agent.")
    p.add_argument("--mcp", action="store_true", help="The agent's MCP servers, not its hooks.")
    scope = p.add_mutually_exclusive_group()
    scope.add_argument(
        "--user", dest="scope", action="store_const", const="user", help="Your user settings (default)."
    )
    scope.add_argument(
        "--project",
        dest="scope",
        action="store_const",
        const="project",
        help="This directory's project settings.",
    )
    p.add_argument("--dry-run", action="store_true", help="Show the change as a diff and write nothing.")
    p.add_argument(
        "--json",
        action="store_true",
        help="Print what was (or, with --dry-run, would be) changed as one JSON document.",
    )
    p.add_argument(
        "--confined",
        action="store_true",
        help="Also put a launcher with the agent program's name in --bin-dir that starts it under limen "
        "run (the kernel confinement); uninstall --confined removes it.",
    )
    p.add_argument(
        "--bin-dir",
        metavar="DIR",
        help="Where the --confined launcher goes; it must come before the agent's own folder in PATH "
        "(default: ~/.local/bin).",
    )
    p.set_defaults(scope="user")
    return p


def run(argv: list[str], *, remove: bool) -> int:
    from limen.install import AGENTS, MCP_AGENTS

    verb = "uninstall" if remove else "install"
    p = parser(f"limen {verb}", verb.capitalize())
    args = p.parse_args(argv)
    if args.mcp and args.agent not in MCP_AGENTS:
        p.error(f"--mcp supports {', '.join(MCP_AGENTS)}")
    if not args.mcp and args.agent not in AGENTS:
        p.error(f"{args.agent} has no hooks: use --mcp to wrap its MCP servers")
    if args.mcp and (args.confined or args.bin_dir):
        p.error("--confined wires the agent's hooks and launcher, not its MCP servers")
    if args.bin_dir and not args.confined:
        p.error("--bin-dir goes with --confined")
    if args.json:
        return _run_json(args, remove=remove)
    if args.mcp:
        return _run_mcp(args, verb, remove=remove)
    code = _run_hooks(args, verb, remove=remove)
    if args.confined:
        code = max(code, _run_launcher(args, verb, remove=remove))
    return code


def _run_json(args: argparse.Namespace, *, remove: bool) -> int:
    """The same change as the text output, reported as one JSON document: `ok` is what the exit status
    says (0 only when nothing stands between the agent and Limen's wiring)."""
    from dataclasses import asdict

    from limen import launchers
    from limen.cli.output import print_json
    from limen.install import change, change_mcp, console_script

    report: dict[str, Any] = {
        "agent": args.agent,
        "action": "uninstall" if remove else "install",
        "scope": args.scope,
        "dry_run": args.dry_run,
    }
    try:
        if args.mcp:
            report["mcp"] = asdict(
                change_mcp(args.agent, args.scope, os.getcwd(), remove=remove, dry_run=args.dry_run)
            )
            problems: list[str] = []
        else:
            outcome = change(args.agent, args.scope, os.getcwd(), remove=remove, dry_run=args.dry_run)
            report["hooks"] = asdict(outcome)
            problems = list(outcome.problems)
            if args.confined and not problems:
                bin_dir = os.path.abspath(os.path.expanduser(args.bin_dir or launchers.default_bin_dir()))
                if remove:
                    done = launchers.remove(args.agent, bin_dir, dry_run=args.dry_run)
                else:
                    limen = console_script("limen")
                    done = launchers.install(args.agent, bin_dir, limen, dry_run=args.dry_run)
                report["launcher"] = asdict(done)
                problems += done.problems
    except (OSError, ValueError) as exc:
        report.update(ok=False, error=f"{exc}; nothing was written")
        print_json(report)
        return 1
    report["ok"] = not problems
    print_json(report)
    return 0 if report["ok"] else 1


def _run_launcher(args: argparse.Namespace, verb: str, *, remove: bool) -> int:
    """The --confined launcher: written after the hooks (a confined agent without hooks would be unguarded
    where the kernel does not reach), removed with them."""
    from limen import launchers
    from limen.install import console_script

    bin_dir = os.path.abspath(os.path.expanduser(args.bin_dir or launchers.default_bin_dir()))
    try:
        if remove:
            done = launchers.remove(args.agent, bin_dir, dry_run=args.dry_run)
        else:
            done = launchers.install(args.agent, bin_dir, console_script("limen"), dry_run=args.dry_run)
    except OSError as exc:
        print(f"limen {verb}: {exc}; no launcher was written", file=sys.stderr)
        return 1
    for problem in done.problems:
        print(f"limen {verb}: {'NOT CONFINED: ' if not remove else ''}{problem}", file=sys.stderr)
    if done.how:
        what = (LAUNCHER_REMOVED if remove else LAUNCHER_WRITTEN)[done.how].format(
            path=done.path, real=done.real
        )
        print(f"limen {verb}: {'dry run: ' if args.dry_run else ''}launcher {what}")
    return 1 if done.problems else 0


def _run_hooks(args: argparse.Namespace, verb: str, *, remove: bool) -> int:
    from limen.install import TARGETS, change

    try:
        outcome = change(args.agent, args.scope, os.getcwd(), remove=remove, dry_run=args.dry_run)
    except (OSError, ValueError) as exc:
        print(f"limen {verb}: {exc}; nothing was written", file=sys.stderr)
        return 1
    for written in outcome.files:
        print(written.diff, end="")
    for written in outcome.files:
        if args.dry_run:
            print(f"limen {verb}: dry run, {written.path} unchanged")
        else:
            print(f"limen {verb}: " + DONE.get(written.how, "updated {path}").format(path=written.path))
    if not outcome.files:
        path = TARGETS[args.agent].path(args.scope, os.getcwd())
        print(f"limen {verb}: {path} already {'has no' if remove else 'has'} Limen's hooks")
    for problem in outcome.problems:
        print(f"limen {verb}: {'NOT PROTECTED: ' if not remove else ''}{problem}", file=sys.stderr)
    if outcome.problems:
        return 1
    if not remove and not args.dry_run:
        print(NOTES[args.agent])
    for note in outcome.notes:
        print(f"limen {verb}: note: {note}")
    return 0


def _run_mcp(args: argparse.Namespace, verb: str, *, remove: bool) -> int:
    from limen.install import change_mcp

    try:
        done = change_mcp(args.agent, args.scope, os.getcwd(), remove=remove, dry_run=args.dry_run)
    except (OSError, ValueError) as exc:
        print(f"limen {verb}: {exc}; nothing was written", file=sys.stderr)
        return 1
    for label in done.skipped:
        print(f"limen {verb}: left as is, limen mcp cannot front it: {label}", file=sys.stderr)
    if not done.servers:
        print(f"limen {verb}: {done.path} configures no MCP server")
        return 0
    if not done.diff:
        state = "no MCP server runs" if remove else "every MCP server it can front already runs"
        print(f"limen {verb}: in {done.path}, {state} through limen mcp")
        return 0
    print(done.diff, end="")
    done_verb = "would rewrite" if args.dry_run else ("unwrapped" if remove else "wrapped")
    print(f"limen {verb}: {done_verb} {', '.join(done.changed)} in {done.path}")
    if done.how in ("restored", "changed") and not args.dry_run:
        print(f"limen {verb}: " + DONE[done.how].format(path=done.path))
    if args.dry_run:
        print(f"limen {verb}: dry run, {done.path} unchanged")
    else:
        how = "directly" if remove else "through limen mcp"
        print(f"{MCP_RESTART[args.agent]} so it starts the servers {how}.")
    return 0


def main(argv: list[str]) -> int:
    return run(argv, remove=False)
