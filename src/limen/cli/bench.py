"""`limen bench CORPUS.jsonl... [--mode M] [--json] [--items OUT.jsonl] [--by-group] [--protect NAME]`

Prints per corpus: n_attack, n_benign, asr (AUTH counts as stopped), asr_strict (only BLOCK counts),
fpr_block, fpr_friction (AUTH or BLOCK), fpr_friction_nohints (benign shell items whose plain-regex risk
hints are empty), errors, and decision latency p50/p99 in microseconds.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from limen.bench import ItemResult
from limen.model import Mode, Verdict

COLUMNS = (
    "n_attack",
    "n_benign",
    "asr",
    "asr_strict",
    "fpr_block",
    "fpr_friction",
    "fpr_friction_nohints",
    "errors",
    "decide_us_p50",
    "decide_us_p99",
)
RUNNERS = {"shell": "calls", "secret": "calls", "toolcall": "calls", "text": "text", "session": "sessions"}


def _rate(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def summarize(results: list[ItemResult]) -> dict[str, Any]:
    scored = [r for r in results if r.verdict is not None]
    attacks = [r for r in scored if r.label == "attack"]
    benign = [r for r in scored if r.label == "benign"]
    quiet_benign = [r for r in benign if not r.risk_hints]
    times = sorted(r.us for r in scored if r.us)

    def pct(q: float) -> float | None:
        return round(times[min(len(times) - 1, int(q * len(times)))], 1) if times else None

    return {
        "n_attack": len(attacks),
        "n_benign": len(benign),
        "asr": _rate(sum(r.verdict is Verdict.PASS for r in attacks), len(attacks)),
        "asr_strict": _rate(sum(r.verdict is not Verdict.BLOCK for r in attacks), len(attacks)),
        "fpr_block": _rate(sum(r.verdict is Verdict.BLOCK for r in benign), len(benign)),
        "fpr_friction": _rate(sum(r.verdict is not Verdict.PASS for r in benign), len(benign)),
        "fpr_friction_nohints": _rate(
            sum(r.verdict is not Verdict.PASS for r in quiet_benign), len(quiet_benign)
        ),
        "errors": len(results) - len(scored),
        "decide_us_p50": round(statistics.median(times), 1) if times else None,
        "decide_us_p99": pct(0.99),
    }


def _load(path: Path) -> list[dict[str, Any]]:
    items = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                items.append(json.loads(line))
    return items


def run_corpus(items: list[dict[str, Any]], mode: Mode, protected: tuple[str, ...]) -> list[ItemResult]:
    by_runner: dict[str, list[dict[str, Any]]] = defaultdict(list)
    unsupported: list[ItemResult] = []
    for item in items:
        runner = RUNNERS.get(str(item.get("kind")))
        if runner is None:
            unsupported.append(ItemResult(str(item.get("id")), str(item.get("label")), None))
        else:
            by_runner[runner].append(item)
    results = list(unsupported)
    for runner, batch in by_runner.items():
        module = importlib.import_module(f"limen.bench.{runner}")
        if runner == "calls":
            results.extend(module.run(batch, mode, protected_names=protected))
        else:
            results.extend(module.run(batch, mode))
    return results


def _row(name: str, summary: dict[str, Any]) -> str:
    def fmt(v: Any) -> str:
        return "-" if v is None else str(v)

    return f"{name:<36} " + "".join(f"{fmt(summary[k]):>{len(k) + 2}}" for k in COLUMNS)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="limen bench",
        description="Measure attack-success and false-positive rates on labelled corpora (JSON Lines files).",
    )
    parser.add_argument("corpora", nargs="+", type=Path, help="Labelled corpora, JSON Lines files.")
    parser.add_argument(
        "--mode", default="balanced", choices=[m.value for m in Mode], help="The mode to decide in."
    )
    parser.add_argument("--json", action="store_true", help="Print one JSON object per corpus.")
    parser.add_argument("--items", type=Path, help="Write {id, label, verdict, reasons, us} per item.")
    parser.add_argument(
        "--by-group", action="store_true", help="Also summarise per group (suite, PII entity)."
    )
    parser.add_argument(
        "--protect",
        action="append",
        default=[],
        metavar="NAME",
        help="Protect a file name by policy (e.g. the agentguard_eval sandbox names).",
    )
    args = parser.parse_args(argv)
    mode = Mode(args.mode)
    try:
        items_out = args.items.open("w", encoding="utf-8") if args.items else None
    except OSError as exc:
        print(f"limen bench: cannot write {args.items}: {exc}", file=sys.stderr)
        return 2
    if not args.json:
        print(f"mode {mode.value}")
        print(
            _row(
                "corpus",
                {k: k for k in COLUMNS},
            )
        )
    try:
        for path in args.corpora:
            try:
                items = _load(path)
            except (OSError, ValueError) as exc:
                print(f"limen bench: cannot read {path}: {exc}", file=sys.stderr)
                return 2
            results = run_corpus(items, mode, tuple(args.protect))
            rows = [(path.stem, summarize(results))]
            if args.by_group:
                groups: dict[str, list[ItemResult]] = defaultdict(list)
                for r in results:
                    if r.group:
                        groups[r.group].append(r)
                rows += [(f"  {path.stem}/{g}", summarize(rs)) for g, rs in sorted(groups.items())]
            for name, summary in rows:
                if args.json:
                    print(json.dumps({"corpus": name.strip(), "mode": mode.value, **summary}))
                else:
                    print(_row(name, summary))
            if items_out is not None:
                for r in results:
                    record = {
                        "id": r.id,
                        "label": r.label,
                        "verdict": r.verdict.name if r.verdict is not None else None,
                        "reasons": [c.value for c in r.reasons],
                        "us": round(r.us, 1),
                    }
                    items_out.write(json.dumps(record) + "\n")
    finally:
        if items_out is not None:
            items_out.close()
    sys.stdout.flush()
    return 0
