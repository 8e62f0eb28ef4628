"""Train the learned reader of shell lines and configuration edits (`limen.subjective.command_lines`) and
write its model card.

Data: `training/data/command_lines.jsonl` (`training/extract_command_lines.py`): the command lines and the
configuration edits of the project's own red-team sets, one ecosystem each, written by helpers that never
read Limen's code. Attacks are harmful on their own; benign cases are ordinary work, many of them
look-alikes (the same programs and files, safe).

Split: the sets named by `--test-sets` (default rt174-rt177: configuration management with Ansible, Puppet,
Chef and Salt; search engines; ERP and business systems; payments and fintech backends) are never trained on;
they are the figures the model card reports as held out. The thresholds are chosen without them: each training
set's calls are scored by a model trained on the others (leave one ecosystem out), and each mode's threshold
sends a share of those sets' benign calls to AUTH (`MODE_FPR`). The shipped model is then trained on every
training set. Model, features and file format are `train_code_edits.py`'s.

    .venv/bin/pip install -e '.[train]'
    .venv/bin/python training/train_command_lines.py
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "training"))

from train_code_edits import BITS, REAL_WEIGHT, card_table, red_team, train_and_measure, write_model  # noqa: E402

ROOTS = ("/usr/bin", "/usr/sbin", "/usr/share", "/usr/lib", "/etc")

# the share of held-out ecosystems' benign calls each mode's threshold lets through to AUTH
MODE_FPR = {"balanced": 0.02, "strict": 0.05, "paranoid": 0.05}


def real_lines(roots: tuple[str, ...], count: int, seed: int) -> list[dict[str, Any]]:
    """Ordinary shell lines cut from the shell scripts of this machine (`*.sh`, `*.bash`, and programs whose
    first line runs a shell): one to three lines in a row, comments and blank lines aside, all benign."""
    rng = random.Random(seed)
    files = sorted(
        str(p)
        for root in roots
        for p in Path(root).rglob("*")
        if p.is_file() and not p.is_symlink() and (p.suffix in (".sh", ".bash") or _shell_script(p))
    )
    rng.shuffle(files)
    found: list[dict[str, Any]] = []
    for name in files:
        try:
            lines = [
                line.strip()
                for line in Path(name).read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.strip().startswith("#")
            ]
        except (OSError, UnicodeDecodeError):
            continue
        for _ in range(min(40, len(lines) // 3)):
            if len(found) >= count:
                return found
            at = rng.randrange(len(lines))
            chunk = lines[at : at + rng.randint(1, 3)]
            if max(len(line) for line in chunk) <= 400:
                item = {"removed": [], "added": chunk, "context": [], "file": "<shell>", "new": False}
                found.append({"set": "real", "label": "benign", **item})
    return found


def written_lines(path: Path) -> list[dict[str, Any]]:
    """Ordinary one-liners written for this purpose by helpers that read neither Limen's code nor any
    corpus it is measured on (`training/data/ordinary_shell_lines.txt`: text pipelines, find and xargs,
    file chores, process and system checks), all benign: the machine's scripts hold few of them."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    item = {"set": "real", "label": "benign", "removed": [], "context": [], "file": "<shell>", "new": False}
    return [{**item, "added": [line]} for line in lines]


def _shell_script(path: Path) -> bool:
    if path.suffix or not str(path).startswith(("/usr/bin/", "/usr/sbin/")):
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(40)
    except OSError:
        return False
    return head.startswith(b"#!") and (b"/sh" in head or b"bash" in head)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=ROOT / "training" / "data" / "command_lines.jsonl")
    parser.add_argument("--test-sets", default="rt174,rt175,rt176,rt177")
    parser.add_argument("--c", type=float, default=3.0)
    parser.add_argument("--real-count", type=int, default=6000)
    parser.add_argument(
        "--ordinary", type=Path, default=ROOT / "training" / "data" / "ordinary_shell_lines.txt"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "src" / "limen" / "data" / "command_lines.bin")
    parser.add_argument("--card", type=Path, default=ROOT / "docs" / "model-card-command-lines.md")
    args = parser.parse_args()

    real = real_lines(ROOTS, args.real_count, seed=5) + written_lines(args.ordinary)
    random.Random(5).shuffle(real)  # the two kinds alike in the trained and the held-out thirds
    items = red_team(args.data)
    for item in items + real:  # the reader of settings' features (`code_edits.features`)
        item["settings"] = True
    model, thresholds, report = train_and_measure(
        items, set(args.test_sets.split(",")), real, args.c, MODE_FPR, "real_lines"
    )
    write_model(args.out, model, thresholds, {"c": args.c, "report": report})
    args.card.write_text(card(report, args), encoding="utf-8")
    print(json.dumps(report, indent=2))
    return 0


def card(report: dict[str, Any], args: argparse.Namespace) -> str:
    table = card_table(report)
    real = ", ".join(f"{mode} {found['real_lines_flagged']}" for mode, found in report["modes"].items())
    shares = ", ".join(f"{mode} {fpr:.0%}" for mode, fpr in MODE_FPR.items())
    return f"""# Model card: the learned reader of shell lines and configuration edits (`suspect_code_change`)

Written by `training/train_command_lines.py`; do not edit by hand.

## What it does
`limen.subjective.command_lines` scores a shell line, or a tool's Write or Edit of a configuration file
(anything but a program, `code_edits`' to read, and a document), after the objective rules passed it. A
score above the mode's threshold is an `AUTH` finding (`suspect_code_change`, risk 55); it never blocks and
never lowers a verdict. Light mode does not run it.

## Model
`code_edits`' model trained on other data: logistic regression (scikit-learn, C={args.c}, balanced classes)
over binary features hashed into 2^{BITS} float32 weights (1 MB): the tokens and token pairs of a shell
line's lines (read as added lines under the name `<shell>`), or of an edit's removed, added and
surrounding lines with the file's name; and, for this reader only, the first five letters of long words and
the values a small change swaps (`disabled no` made `yes`, a level made higher), which measured left one
ecosystem out flag more attacks at the same share of ordinary calls here and none more on program code.
Inference is pure Python (CRC-32 and a sum).

## Data and split
- Training: {report["training_items"]["red_team"]} command lines and configuration edits of red-team sets
  {", ".join(report["training_sets"])} (`training/data/command_lines.jsonl`, cut by
  `training/extract_command_lines.py`; each set one ecosystem, written by a helper that never read Limen's
  code), and {report["training_items"]["real_lines"]} ordinary lines (weight {REAL_WEIGHT}): cut from the
  shell scripts of the machine it was trained on, and everyday one-liners written for this by helpers that
  read no corpus Limen is measured on (`training/data/ordinary_shell_lines.txt`). The red-team sets'
  ordinary work is plain commands; these teach it that pipes, `find | xargs`, loops and substitutions are
  ordinary too (without the one-liners, nl2bash's friction rose a point).
- Held out (never trained on, nor used for a threshold): {", ".join(report["held_out_sets"])}.
- Thresholds: each mode lets a share of the training sets' benign calls through to AUTH ({shares}), each
  call scored by a model trained without its own set (leave one ecosystem out).

## Measured
Every call of the kind it reads, whatever the rules said of it (the detector only runs where they passed):
| mode | set | attacks flagged | benign calls flagged |
|---|---|---|---|
{table}

Ordinary lines (real scripts' and written one-liners) not trained on, flagged: {real}.

## Known limits
- It reads words, not meaning: an attack spelt like ordinary work passes, and ordinary work spelt like an
  attack (a key rotated, a firewall rule tightened) asks. It is a second opinion under the objective rules,
  which name what they find.
- The red-team calls are single commands in small projects written to be told apart; real sessions hold
  longer lines and more varied ordinary work.
"""


if __name__ == "__main__":
    raise SystemExit(main())
