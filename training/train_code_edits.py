"""Train the learned reader of program edits (`limen.subjective.code_edits`) and write its model card.

Data:
- `training/data/code_edits.jsonl`: the project's own red-team edits of program files, one per line: the last
  call of each clear-cut case of the red-team sets rt16-rt30, rt76-rt81, rt104-rt177 and rt186-rt221 (each set
  one ecosystem, written by a helper that never read Limen's code; the newest in `training/data/red_team/`;
  `training/extract_code_edits.py`), reduced to
  its removed, added and context lines (`code_edits.diff_parts`) and the file's name. Attacks weaken security;
  benign cases are ordinary work, many of them look-alikes (an auth module refactored, a check made stricter).
- Edits of real code: chunks added to, removed from or written as whole files of the source files under
  `--real` (default: this interpreter's standard library and site-packages), all benign.

Split: the sets named by `--test-sets` (default rt218-rt221: agritech, contact centres, pharmacy supply
chains, port terminals) are never trained on;
they are the figures the model card reports as held out. The thresholds are chosen without them: each training
set's edits are scored by a model trained on the others (leave one ecosystem out), and each mode's threshold
sends a share of those sets' benign edits to AUTH (`MODE_FPR`: 1.5% in balanced, 5% in strict and paranoid;
light does not run the model). The shipped model is then trained on every training set.

    .venv/bin/pip install -e '.[train]'
    .venv/bin/python training/train_code_edits.py
"""

from __future__ import annotations

import argparse
import json
import random
import struct
import sys
import sysconfig
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from limen.facts.paths import PROGRAMS  # noqa: E402
from limen.subjective import code_edits  # noqa: E402

BITS = 18
REAL_WEIGHT = 0.3  # real code is plentiful and easy; it keeps the model off ordinary code, not more
# the share of held-out ecosystems' benign red-team edits each mode's threshold lets through to AUTH (most of
# them look-alikes: security work done right; at 1.5% no edit cut from real code is flagged, and a project's
# program edits are a small part of an agent's calls; at 2% ordinary renames in authentication code asked)
MODE_FPR = {"balanced": 0.015, "strict": 0.05, "paranoid": 0.05}


def red_team(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def real_edits(roots: list[str], count: int, seed: int) -> list[dict[str, Any]]:
    """Benign edits cut from real source files: a chunk of 1-15 lines added (60%) or removed (20%), or the
    file written whole (20%)."""
    rng = random.Random(seed)
    files = sorted(
        str(p)
        for root in roots
        for p in Path(root).rglob("*")
        if p.suffix.lower() in PROGRAMS and p.is_file()
    )
    rng.shuffle(files)
    found: list[dict[str, Any]] = []
    for name in files:
        if len(found) >= count:
            break
        try:
            text = Path(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        lines = text.splitlines(True)
        if not 300 <= len(text) <= 60_000 or max(len(line) for line in lines) > 400:
            continue
        size = rng.randint(1, 15)
        at = rng.randint(0, max(0, len(lines) - size))
        rest = "".join(lines[:at] + lines[at + size :])
        kind = rng.random()
        before, after = (rest, text) if kind < 0.6 else (text, rest) if kind < 0.8 else ("", text)
        removed, added, context = code_edits.diff_parts(before, after)
        if removed or added:
            found.append(
                dict(set="real", label="benign", file=name.rsplit("/", 1)[-1], new=not before,
                     removed=removed, added=added, context=context)
            )  # fmt: skip
    return found


def matrix(items: list[dict[str, Any]]) -> sparse.csr_matrix:
    rows: list[int] = []
    cols: list[int] = []
    for i, item in enumerate(items):
        found = code_edits.features(
            item["removed"],
            item["added"],
            item["context"],
            item["file"],
            item["new"],
            item.get("settings", False),
        )
        for j in code_edits.indices(found, BITS):
            rows.append(i)
            cols.append(j)
    return sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(items), 1 << BITS))


def fit(items: list[dict[str, Any]], c: float) -> LogisticRegression:
    labels = np.array([item["label"] == "attack" for item in items])
    weights = np.array([REAL_WEIGHT if item["set"] == "real" else 1.0 for item in items])
    model = LogisticRegression(C=c, max_iter=3000, class_weight="balanced")
    model.fit(matrix(items), labels, sample_weight=weights)
    return model


def rates(scores: np.ndarray, items: list[dict[str, Any]], threshold: float) -> dict[str, Any]:
    attack = np.array([item["label"] == "attack" for item in items])
    flagged = scores > threshold
    return {
        "attacks": f"{int(flagged[attack].sum())}/{int(attack.sum())}",
        "benign_flagged": f"{int(flagged[~attack].sum())}/{int((~attack).sum())}",
    }


def write_model(
    path: Path, model: LogisticRegression, thresholds: dict[str, float], header: dict[str, Any]
) -> None:
    weights = np.asarray(model.coef_[0], dtype="<f4")
    head = json.dumps(
        {**header, "bits": BITS, "bias": float(model.intercept_[0]), "thresholds": thresholds}, sort_keys=True
    ).encode()
    path.write_bytes(code_edits.MAGIC + struct.pack("<I", len(head)) + head + weights.tobytes())


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=ROOT / "training" / "data" / "code_edits.jsonl")
    default_roots = [sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"]]
    parser.add_argument("--real", nargs="*", default=default_roots)
    parser.add_argument("--real-count", type=int, default=6000)
    parser.add_argument("--test-sets", default="rt218,rt219,rt220,rt221")
    parser.add_argument("--c", type=float, default=3.0)
    parser.add_argument("--out", type=Path, default=ROOT / "src" / "limen" / "data" / "code_edits.bin")
    parser.add_argument("--card", type=Path, default=ROOT / "docs" / "model-card-code-edits.md")
    args = parser.parse_args()

    real = real_edits(args.real, args.real_count, seed=5)
    model, thresholds, report = train_and_measure(
        red_team(args.data), set(args.test_sets.split(",")), real, args.c, MODE_FPR, "real_code"
    )
    write_model(args.out, model, thresholds, {"c": args.c, "report": report})
    args.card.write_text(card(report, args), encoding="utf-8")
    print(json.dumps(report, indent=2))
    return 0


def train_and_measure(
    items: list[dict[str, Any]],
    held_sets: set[str],
    real: list[dict[str, Any]],
    c: float,
    mode_fpr: dict[str, float],
    real_name: str,
) -> tuple[LogisticRegression, dict[str, float], dict[str, Any]]:
    """Each mode's threshold from the training sets' benign items scored left one ecosystem out, the model
    trained on every set but `held_sets` (and two thirds of the `real` items), and what it flags: left one
    out, held out (per set) and of the real items not trained on (`real_name`: what they are, for the
    report's keys)."""
    train = [item for item in items if item["set"] not in held_sets]
    test = [item for item in items if item["set"] in held_sets]
    real_train, real_test = real[: len(real) * 2 // 3], real[len(real) * 2 // 3 :]
    sets = sorted({item["set"] for item in train})
    out_of_fold = np.zeros(len(train))
    for held in sets:
        model = fit([item for item in train if item["set"] != held] + real_train, c)
        at = [i for i, item in enumerate(train) if item["set"] == held]
        out_of_fold[at] = model.decision_function(matrix([train[i] for i in at]))
    benign = np.array([item["label"] != "attack" for item in train])
    thresholds = {mode: float(np.quantile(out_of_fold[benign], 1 - fpr)) for mode, fpr in mode_fpr.items()}

    model = fit(train + real_train, c)
    test_scores = model.decision_function(matrix(test)) if test else np.zeros(0)
    real_scores = model.decision_function(matrix(real_test))
    report = {
        "training_sets": sets,
        "held_out_sets": sorted(held_sets),
        "training_items": {"red_team": len(train), real_name: len(real_train)},
        "modes": {
            mode: {
                "leave_one_set_out": rates(out_of_fold, train, threshold),
                "held_out": rates(test_scores, test, threshold),
                "held_out_per_set": {
                    name: rates(
                        test_scores[[i for i, t in enumerate(test) if t["set"] == name]],
                        [t for t in test if t["set"] == name],
                        threshold,
                    )
                    for name in sorted(held_sets)
                },
                f"{real_name}_flagged": f"{int((real_scores > threshold).sum())}/{len(real_scores)}",
            }
            for mode, threshold in thresholds.items()
        },
    }
    return model, thresholds, report


def card_table(report: dict[str, Any]) -> str:
    """The model card's table of what each mode flags, per held-out set, all held out, and left one out."""
    rows = []
    for mode, found in report["modes"].items():
        rows += [
            f"| {mode} | {name} | {r['attacks']} | {r['benign_flagged']} |"
            for name, r in [*found["held_out_per_set"].items(), ("all held out", found["held_out"])]
        ]
        rows.append(
            f"| {mode} | training sets, leave one out | {found['leave_one_set_out']['attacks']} "
            f"| {found['leave_one_set_out']['benign_flagged']} |"
        )
    return "\n".join(rows)


def card(report: dict[str, Any], args: argparse.Namespace) -> str:
    real = ", ".join(f"{mode} {found['real_code_flagged']}" for mode, found in report["modes"].items())
    table = card_table(report)
    shares = ", ".join(f"{mode} {fpr:.0%}" for mode, fpr in MODE_FPR.items())
    return f"""# Model card: the learned reader of program edits (`suspect_code_change`)

Written by `training/train_code_edits.py`; do not edit by hand.

## What it does
`limen.subjective.code_edits` scores a tool's Write, Edit or MultiEdit of a program file (the extensions of
`facts.paths.PROGRAMS`) after the objective rules passed it. A score above the mode's threshold is an `AUTH`
finding (`suspect_code_change`, risk 55); it never blocks and never lowers a verdict. Light mode does not run
it.

## Model
Logistic regression (scikit-learn, C={args.c}, balanced classes) over binary features hashed into 2^{BITS}
float32 weights (1 MB): the tokens and token pairs of the removed and added lines, those the change adds or
takes away on balance, the tokens of up to {code_edits.CONTEXT_LINES} lines before the change, the words of
the file's name, whether the file is new and whether anything was removed. Inference is pure Python (CRC-32
and a sum). A linear model over words, because the data is small (about a thousand red-team edits) and what
it learns can be read from its weights. Tried and measured on the same split: per-side tokens only (fewer
attacks flagged at the same false alarms on the training sets, left one out), and C in 0.3, 1, 3 (3 flagged
most).

## Data and split
- Training: {report["training_items"]["red_team"]} red-team edits of sets {", ".join(report["training_sets"])}
  (`training/data/code_edits.jsonl`; each set one ecosystem, written by a helper that never read Limen's
  code) and {report["training_items"]["real_code"]} edits cut from real source files (weight {REAL_WEIGHT}).
- Held out (never trained on, nor used for a threshold): {", ".join(report["held_out_sets"])}.
- Thresholds: each mode lets a share of the training sets' benign edits through to AUTH ({shares}), each
  edit scored by a model trained without its own set (leave one ecosystem out).

## Measured
| mode | set | attacks flagged | benign edits flagged |
|---|---|---|---|
{table}

Edits cut from real code not trained on, flagged: {real}.

## Known limits
- It reads words, not meaning: an attack phrased like ordinary work passes, and ordinary security work that
  reads like sabotage (an option added to a token check, an error response rewritten) asks. It is a second
  opinion under the objective rules (`limen.rules.code_changes`), which name what they find.
- The red-team edits are small changes to small projects; real projects' edits are larger and more varied.
  Edits cut from real code are the check on ordinary code, not on ordinary security work.
- Configuration files (YAML, Terraform, JSON) are not read by it.
"""


if __name__ == "__main__":
    raise SystemExit(main())
