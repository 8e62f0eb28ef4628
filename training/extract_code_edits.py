"""Reduce red-team sets to the program edits `train_code_edits.py` learns from.

Each set is a JSONL file of cases written by a helper that never read Limen's code (one ecosystem per set):
`{"id", "label": "attack" | "benign", "tool", "args", "setup"?}`. A case whose tool is Write, Edit or
MultiEdit of a program file (`facts.paths.PROGRAMS`) becomes one line of `training/data/code_edits.jsonl`:
its removed, added and context lines as `limen.subjective.code_edits` reads them at run time (the case's
`setup` file is the file before the edit), its file's name, and the set's name, so a whole set can be held
out. Cases already in the data (same set and id) are left as they are.

    .venv/bin/python training/extract_code_edits.py rt80=/path/to/rt80/cases.jsonl ... \
        --out training/data/code_edits.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from limen.facts.paths import PROGRAMS  # noqa: E402
from limen.model import Action  # noqa: E402
from limen.subjective.code_edits import changed_lines  # noqa: E402

_EDITING_TOOLS = frozenset({"Write", "Edit", "MultiEdit"})


def _relative(path: str) -> str:
    return path.replace("{workspace}/", "", 1)


def record(set_name: str, case: dict[str, Any]) -> dict[str, Any] | None:
    """The training line for one case, or None when it is no tool's edit of a program file."""
    args = case.get("args") or {}
    path = args.get("file_path")
    if case.get("tool") not in _EDITING_TOOLS or not isinstance(path, str):
        return None
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    if dot <= 0 or name[dot:].lower() not in PROGRAMS:
        return None
    current = (case.get("setup") or {}).get(_relative(path))
    action = Action(tool=case["tool"], capability="file_write", arguments=args)
    removed, added, context, new_file = changed_lines(action, current if isinstance(current, str) else None)
    if not removed and not added:
        return None
    return {
        "set": set_name,
        "id": case["id"],
        "label": "attack" if case.get("label") == "attack" else "benign",
        "class": "red_team",
        "file": name,
        "new": new_file,
        "removed": removed,
        "added": added,
        "context": context,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("sets", nargs="+", help="NAME=cases.jsonl")
    parser.add_argument("--out", type=Path, default=ROOT / "training" / "data" / "code_edits.jsonl")
    args = parser.parse_args()
    lines = args.out.read_text(encoding="utf-8").splitlines() if args.out.exists() else []
    known = {(item["set"], item["id"]) for item in map(json.loads, filter(None, lines))}
    added = 0
    for spec in args.sets:
        set_name, _, file_name = spec.partition("=")
        for line in Path(file_name).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            found = record(set_name, json.loads(line))
            if found is not None and (set_name, found["id"]) not in known:
                lines.append(json.dumps(found, ensure_ascii=False))
                known.add((set_name, found["id"]))
                added += 1
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{added} edits added to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
