"""Cut the training data of the learned reader of shell lines and configuration edits
(`limen.subjective.command_lines`) out of red-team sets.

Each set is a folder holding `cases.jsonl`, written by a helper that never read Limen's code: one ecosystem's
attacks and ordinary work (many of them look-alikes), each a tool call with the files it expects (`setup`).
Kept: every `Bash` call's command line, and every `Write` or `Edit` of a file that is neither a program (the
code model's, `code_edits`) nor a document, reduced as that model reduces an edit (`code_edits.diff_parts`).

    .venv/bin/python training/extract_command_lines.py /path/to/rt104 ... > training/data/command_lines.jsonl
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from limen.model import Action  # noqa: E402
from limen.subjective import code_edits, command_lines  # noqa: E402


def items(folder: Path) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for line in (folder / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        args = case.get("args") or {}
        base = {"set": folder.name, "id": case["id"], "label": case["label"]}
        if case["tool"] == "Bash" and isinstance(args.get("command"), str):
            lines = command_lines.shell_lines(args["command"])
            found.append(
                {
                    **base,
                    "removed": [],
                    "added": lines,
                    "context": [],
                    "file": command_lines.SHELL,
                    "new": False,
                }
            )
            continue
        path = args.get("file_path")
        if (
            case["tool"] not in ("Write", "Edit")
            or not isinstance(path, str)
            or not command_lines.configures(path)
        ):
            continue
        setup = case.get("setup") or {}
        current = next(
            (v for k, v in setup.items() if isinstance(v, str) and path.endswith(k.lstrip("./"))), None
        )
        action = Action(tool=case["tool"], capability="file_write", arguments=args)
        removed, added, context, new_file = code_edits.changed_lines(action, current)  # (as inference reads)
        if removed or added:
            name = path.rsplit("/", 1)[-1]
            item = {"removed": removed, "added": added, "context": context, "file": name, "new": new_file}
            found.append({**base, **item})
    return found


def main() -> int:
    for folder in sys.argv[1:]:
        for item in items(Path(folder)):
            print(json.dumps(item, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
