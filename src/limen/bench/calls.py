"""Bench runner for items that become one tool call: `shell`, `secret` and `toolcall`.

Mapping (as the issue defines it):
- `shell`    -> a `Bash` call in a realistic project workspace (a temporary directory with sources, tests,
                a git directory, `node_modules`, and the sandbox files some corpora name).
- `secret`   -> an outbound HTTP POST to an unfamiliar host carrying the string. The unfamiliar host alone
                already asks for approval, which would score every item as "stopped"; so a secret item is
                scored by what its payload adds: the reason codes it raises that the same POST with a neutral
                body does not. Its verdict is that difference (PASS when the payload adds nothing).
- `toolcall` -> the generic tool call, as named in the corpus.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from time import perf_counter_ns
from typing import Any

from limen.bench import ItemResult
from limen.context import Context
from limen.engine import decide
from limen.model import Decision, Mode, Verdict
from limen.normalize import normalize

UNFAMILIAR_UPLOAD = "https://paste.unfamiliar-host.example/upload"

_WORKSPACE_FILES = {
    "README.md": "# demo project\n",
    "pyproject.toml": "[project]\nname = 'demo'\n",
    "package.json": '{"name": "demo", "scripts": {"test": "jest"}}\n',
    "src/app.py": "print('hello')\n",
    "src/util.js": "module.exports = {}\n",
    "tests/test_app.py": "def test_app():\n    assert True\n",
    "docs/index.md": "# docs\n",
    "node_modules/left-pad/index.js": "module.exports = () => ''\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": "node_modules\n",
    "protected.dat": "do not delete\n",
    "secret.dat": "not for the agent\n",
    "shared.dat": "shared\n",
}


def make_workspace(root: str) -> str:
    """A small, realistic project checkout for shell items to run 'in'."""
    for relative, content in _WORKSPACE_FILES.items():
        path = Path(root, relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    return root


def _timed(tool: str, arguments: dict[str, Any], ctx: Context, mode: Mode) -> tuple[Decision, float]:
    started = perf_counter_ns()
    action = normalize(tool, arguments, cwd=ctx.workspace, door="bench", mode=mode, home=ctx.home)
    decision = decide(action, ctx)
    return decision, (perf_counter_ns() - started) / 1000


def _secret_call(payload: str) -> dict[str, Any]:
    return {"url": UNFAMILIAR_UPLOAD, "method": "POST", "body": payload}


def run(
    items: list[dict[str, Any]], mode: Mode, *, protected_names: tuple[str, ...] = ()
) -> list[ItemResult]:
    with tempfile.TemporaryDirectory(prefix="limen-bench-") as tmp:
        workspace = make_workspace(os.path.realpath(tmp))
        ctx = Context.for_mode(mode, workspace, protected_names=protected_names)
        carrier, _ = _timed("network.request", _secret_call("hello, see the attached notes"), ctx, mode)
        carrier_reasons = set(carrier.reasons)
        return [_run_one(item, ctx, mode, carrier_reasons) for item in items]


def _run_one(item: dict[str, Any], ctx: Context, mode: Mode, carrier_reasons: set[Any]) -> ItemResult:
    kind, payload, meta = item.get("kind"), item.get("payload"), item.get("meta") or {}
    group = ""
    if kind == "shell" and isinstance(payload, str):
        decision, us = _timed("Bash", {"command": payload}, ctx, mode)
        verdict, reasons = decision.verdict, decision.reasons
    elif kind == "secret" and isinstance(payload, str):
        decision, us = _timed("network.request", _secret_call(payload), ctx, mode)
        added = tuple(r for r in decision.reasons if r not in carrier_reasons)
        added_verdict = max((f.verdict for f in decision.findings if f.code in added), default=Verdict.PASS)
        verdict, reasons = added_verdict, added
        entities = meta.get("entities") or []
        group = str(entities[0]) if entities else ""
    elif kind == "toolcall" and isinstance(payload, dict):
        decision, us = _timed(str(payload.get("tool")), payload.get("arguments") or {}, ctx, mode)
        verdict, reasons = decision.verdict, decision.reasons
        group = str(meta.get("suite", ""))
    else:
        return ItemResult(str(item.get("id")), str(item.get("label")), None)
    hints = bool(meta.get("risk_hints"))
    return ItemResult(str(item.get("id")), str(item.get("label")), verdict, reasons, us, group, hints)
