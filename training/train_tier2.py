# ruff: noqa: E501  (the model card is written as long markdown lines)
"""Train Tier 2 of the turn gate (`limen.turngate.tier2`) and write its model card.

    .venv/bin/pip install -e '.[train]'
    .venv/bin/python training/train_tier2.py [--corpora /work/shared/corpora] [--quick]

Data: the text corpora agentdojo_text, bipia and notinject, plus the examples in training/data/*.jsonl that
the project wrote itself. Each corpus item is put in train (60%), dev (20%) or test (20%) by the BLAKE2b hash
of its *group* (`group_key`): items that are renderings of one attacker goal (AgentDojo's injection task in
every attack template, BIPIA's five variants of one instruction) share a group, so no goal seen in training is
scored on test. The ids per split are written to training/splits/*.ids and the test items to
`--split-dir` (default training/splits/test, not committed: `limen bench` reads them there).

Not trained on: AgentDojo user prompts (screened as the user's own text, where Tier 2 does not run) and the
BIPIA table and code contexts (CC-BY-SA; shipped weights keep n-grams of what they were trained on), which are
still scored on dev and test.

Outputs: src/limen/data/tier2.bin, training/splits/*.ids, docs/model-card-tier2.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

sys.path.insert(0, str(ROOT / "training"))

import augment  # noqa: E402
import task_drift  # noqa: E402

from limen.turngate import tier2  # noqa: E402

CORPORA = {
    "agentdojo_text": "agentdojo/agentdojo_text.jsonl",
    "bipia": "bipia/bipia.jsonl",
    "notinject": "notinject/notinject.jsonl",
}
SHARE_ALIKE = ("table", "code")  # BIPIA benign contexts under CC-BY-SA: evaluated, never trained on
FRICTION_TARGET = {"light": 0.003, "balanced": 0.01, "strict": 0.03, "paranoid": 0.06}
BLOCK_FRICTION = 0.002
MIN_DF = 2
DRIFT_BEGIN = "<!-- drift: written by training/train_drift.py -->"  # the task-drift screen's card section
DRIFT_END = "<!-- /drift -->"
# Quantised weights smaller than this (0.6% of the largest) are dropped: on a hand-written held-out set the
# ranking was unchanged (AUC 0.8885 -> 0.8879) while the file shrank from 367k to 124k weights and its load
# from about 170 ms to 40 ms (round 50).
PRUNE_BELOW = 200
GENERATED_WEIGHT = 0.5  # templated examples (training/augment.py) weigh half a written one


def group_key(item: dict[str, Any]) -> str:
    meta = item.get("meta") or {}
    iid = str(item["id"])
    if iid.startswith("agentdojo-") and meta.get("injection_task"):
        return f"agentdojo:{meta.get('suite')}:{meta['injection_task']}"
    if iid.startswith("bipia-") and item.get("label") == "attack":
        return iid.rsplit("-", 1)[0]
    return iid


def split_of(item: dict[str, Any]) -> str:
    bucket = int.from_bytes(hashlib.blake2b(group_key(item).encode(), digest_size=8).digest(), "big") % 100
    return "train" if bucket < 60 else "dev" if bucket < 80 else "test"


def load(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def trainable(item: dict[str, Any]) -> bool:
    meta = item.get("meta") or {}
    if meta.get("role") == "user_prompt":
        return False
    return not (
        str(item["id"]).startswith("bipia-") and item["label"] == "benign" and meta.get("task") in SHARE_ALIKE
    )


def screened(item: dict[str, Any]) -> bool:
    """Items Tier 2 sees in `limen bench`: everything but the user's own prompts."""
    return (item.get("meta") or {}).get("role") != "user_prompt"


def strip_carrier(item: dict[str, Any], carriers: dict[tuple[Any, Any], str]) -> dict[str, Any]:
    """An AgentDojo tool output with an injection, reduced to what the injection changed.

    The carrier (the same file or email without the injection) is shared by every injection task, so training
    on the whole output would teach the carrier's own words as an attack signal.
    """
    meta = item.get("meta") or {}
    if meta.get("role") != "tool_output_field_with_injection":
        return item
    carrier = carriers.get((meta.get("suite"), meta.get("env_path")))
    text = str(item["payload"])
    if not carrier:
        return item
    pre = 0
    while pre < min(len(text), len(carrier)) and text[pre] == carrier[pre]:
        pre += 1
    suf = 0
    while suf < min(len(text), len(carrier)) - pre and text[-1 - suf] == carrier[-1 - suf]:
        suf += 1
    middle = text[pre : len(text) - suf].strip()
    return {**item, "payload": middle} if middle else item


class Vocab:
    def __init__(self) -> None:
        self.index: dict[tuple[int, int | str], int] = {}

    def fit(self, rows: list[tuple[dict[tuple[int, int | str], int], int]]) -> None:
        df: Counter[tuple[int, int | str]] = Counter()
        for counts, _ in rows:
            df.update(counts.keys())
        self.index = {k: i for i, k in enumerate(sorted((k for k, c in df.items() if c >= MIN_DF), key=repr))}

    def matrix(self, rows: list[tuple[dict[tuple[int, int | str], int], int]]) -> sparse.csr_matrix:
        data: list[float] = []
        cols: list[int] = []
        ptr = [0]
        for counts, total in rows:
            norm = 1.0 / math.sqrt(total) if total else 0.0
            for k, c in counts.items():
                j = self.index.get(k)
                if j is not None:
                    cols.append(j)
                    data.append(c * norm)
            ptr.append(len(cols))
        return sparse.csr_matrix((data, cols, ptr), shape=(len(rows), len(self.index)), dtype=np.float64)


def featurise(text: str) -> list[tuple[dict[tuple[int, int | str], int], int]]:
    return [tier2.window_features(w) for w in tier2.blocks(tier2.normalise(text))]


def export(vocab: Vocab, clf: LogisticRegression) -> tier2.Model:
    coef = clf.coef_[0]
    scale = float(np.abs(coef).max()) / 32767 or 1.0
    q = np.round(coef / scale).astype(np.int64)
    tables: dict[int, dict[int, int]] = {s: {} for s in tier2.GRAM_SIZES}
    words: dict[str, int] = {}
    bigrams: dict[str, int] = {}
    for (n, g), j in vocab.index.items():
        w = int(q[j])
        if abs(w) < PRUNE_BELOW:
            continue
        if n in tables:
            tables[n][int(g)] = w
        elif n == 1:
            words[str(g)] = w
        else:
            bigrams[str(g)] = w
    return tier2.Model(tables, words, bigrams, scale, float(clf.intercept_[0]), 1.0, 0.0, {}, 1.0, False)


def platt(raw: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    lr = LogisticRegression(C=1e4, max_iter=1000, random_state=0)
    lr.fit(raw.reshape(-1, 1), y)
    return float(lr.coef_[0][0]), float(lr.intercept_[0])


def threshold_for(benign_scores: list[float], friction: float) -> float:
    """The lowest score threshold at which at most `friction` of these benign items reach it."""
    s = sorted(benign_scores, reverse=True)
    allowed = math.floor(friction * len(s))
    top = s[allowed] if allowed < len(s) else 0.0
    return min(0.999, max(0.5, float(np.nextafter(top, 1.0))))


def gate_metrics(
    items_by_corpus: dict[str, list[dict[str, Any]]], on: bool, mode: str
) -> dict[str, dict[str, Any]]:
    """Run the whole turn gate (Tier 0/1, then Tier 2 when on) as `limen bench` does; ASR/friction per corpus."""
    from limen.bench.text import source_of
    from limen.turngate import screen, verdict_of

    os.environ["LIMEN_TIER2"] = "1" if on else "0"
    os.environ["LIMEN_TIER2_MODE"] = mode
    out: dict[str, dict[str, Any]] = {}
    for name, items in items_by_corpus.items():
        att = ben = att_pass = ben_fr = ben_block = 0
        for it in items:
            v = verdict_of(screen(it["payload"], source=source_of(it)))
            if it["label"] == "attack":
                att += 1
                att_pass += v.name == "PASS"
            else:
                ben += 1
                ben_fr += v.name != "PASS"
                ben_block += v.name == "BLOCK"
        out[name] = {
            "n_attack": att,
            "n_benign": ben,
            "asr": round(att_pass / att, 4) if att else None,
            "friction": round(ben_fr / ben, 4) if ben else None,
            "fpr_block": round(ben_block / ben, 4) if ben else None,
        }
    os.environ.pop("LIMEN_TIER2", None)
    os.environ.pop("LIMEN_TIER2_MODE", None)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpora", type=Path, default=Path("/work/shared/corpora"))
    ap.add_argument("--split-dir", type=Path, default=ROOT / "training" / "splits" / "test")
    ap.add_argument("--out", type=Path, default=ROOT / "src" / "limen" / "data" / "tier2.bin")
    ap.add_argument("--card", type=Path, default=ROOT / "docs" / "model-card-tier2.md")
    ap.add_argument("--C", type=float, nargs="*", default=[0.3, 1.0, 3.0, 10.0])
    ap.add_argument(
        "--default",
        choices=["auto", "on", "off"],
        default="auto",
        help="enabled by default: auto = by the measured rule on the test split; off = ship it disabled",
    )
    ap.add_argument(
        "--default-mode",
        choices=list(tier2.MODES),
        default="balanced",
        help="the mode whose threshold applies when LIMEN_TIER2_MODE is not set",
    )
    ap.add_argument(
        "--held-out",
        type=Path,
        nargs="*",
        default=[],
        help="hand-written JSON Lines sets never trained on (e.g. /tmp/inj16/inj16.jsonl): the whole gate is "
        "scored on them with Tier 2 off, light and balanced, and the figures go into the card",
    )
    ap.add_argument(
        "--no-held-in",
        dest="held_in",
        action="store_false",
        help="leave out the hand-written regression sets in tests/turngate/data",
    )
    args = ap.parse_args()
    t0 = time.time()

    corpus: dict[str, list[dict[str, Any]]] = {
        name: load(args.corpora / rel) for name, rel in CORPORA.items()
    }
    own: list[dict[str, Any]] = []
    for path in sorted((ROOT / "training" / "data").glob("*.jsonl")):
        own.extend(it for it in load(path) if it.get("kind") == "text")  # code_edits.jsonl is another model's
    # the turn gate's hand-written regression sets (tests/turngate/data): held-in, trained on (round 16)
    held_in: list[dict[str, Any]] = []
    if args.held_in:
        for path in sorted((ROOT / "tests" / "turngate" / "data").glob("*.jsonl")):
            held_in.extend(load(path))
    own = own + held_in
    # chat logs with links and requests between people: without them a Slack channel read in a benign
    # AgentDojo session scored 0.88 (Tier 2 on raised that corpus' friction from 2.1% to 7.2%)
    generated = augment.generated() + [
        {"id": f"gen-chat-{i}", "kind": "text", "label": "benign", "payload": doc, "meta": {}}
        for i, doc in enumerate(task_drift.chat_logs())
    ]
    splits: dict[str, dict[str, list[dict[str, Any]]]] = {
        s: defaultdict(list) for s in ("train", "dev", "test")
    }
    for name, items in corpus.items():
        for it in items:
            splits[split_of(it)][name].append(it)
    (ROOT / "training" / "splits").mkdir(parents=True, exist_ok=True)
    for s, by in splits.items():
        ids = sorted(it["id"] for items in by.values() for it in items)
        (ROOT / "training" / "splits" / f"{s}.ids").write_text("\n".join(ids) + "\n", encoding="utf-8")
    args.split_dir.mkdir(parents=True, exist_ok=True)
    for name, items in splits["test"].items():
        with (args.split_dir / f"{name}.jsonl").open("w", encoding="utf-8") as fh:
            for it in items:
                fh.write(json.dumps(it, ensure_ascii=False) + "\n")

    carriers = {
        (it["meta"].get("suite"), it["meta"].get("env_path")): it["payload"]
        for it in corpus["agentdojo_text"]
        if (it.get("meta") or {}).get("role") == "tool_output_field"
    }
    train_items = (
        [strip_carrier(it, carriers) for items in splits["train"].values() for it in items if trainable(it)]
        + own
        + generated
    )
    item_weight = [GENERATED_WEIGHT if str(it["id"]).startswith("gen-") else 1.0 for it in train_items]
    dev_items = [it for items in splits["dev"].values() for it in items if screened(it)]
    print(
        f"train items {len(train_items)} (own {len(own)}, generated {len(generated)}), dev {len(dev_items)}"
    )

    feats = [featurise(it["payload"]) for it in train_items]
    labels = [1 if it["label"] == "attack" else 0 for it in train_items]
    vocab = Vocab()
    vocab.fit([r for rows in feats for r in rows])
    print(f"vocabulary {len(vocab.index)} features (df >= {MIN_DF}); {time.time() - t0:.0f}s", flush=True)

    def rows_for(choice: list[int | None]) -> tuple[list[Any], list[int], list[float]]:
        rows: list[Any] = []
        ys: list[int] = []
        ws: list[float] = []
        for item_rows, y, pick, weight in zip(feats, labels, choice, item_weight, strict=True):
            chosen = item_rows if pick is None else [item_rows[pick]]
            for r in chosen:
                rows.append(r)
                ys.append(y)
                ws.append(weight / len(chosen))  # an item weighs the same whatever its length
        return rows, ys, ws

    # pass 1: every window of a long attack counts as an attack; pass 2: only its highest-scoring window
    choice: list[int | None] = [None] * len(feats)
    dev_raw_cache: dict[float, Any] = {}
    best: tuple[float, float, tier2.Model] | None = None
    for c in args.C:
        for pass_no in (1, 2):
            rows, ys, ws = rows_for(choice if pass_no == 2 else [None] * len(feats))
            x = vocab.matrix(rows)
            pos = sum(w for w, y in zip(ws, ys, strict=True) if y)
            neg = sum(w for w, y in zip(ws, ys, strict=True) if not y)
            sw = np.array(
                [w * (0.5 / pos if y else 0.5 / neg) * len(ws) for w, y in zip(ws, ys, strict=True)]
            )
            clf = LogisticRegression(C=c, max_iter=3000, solver="liblinear", random_state=0)
            clf.fit(x, np.array(ys), sample_weight=sw)
            if pass_no == 1:
                choice = []
                for item_rows, y in zip(feats, labels, strict=True):
                    if y and len(item_rows) > 1:
                        sc = clf.decision_function(vocab.matrix(item_rows))
                        choice.append(int(np.argmax(sc)))
                    else:
                        choice.append(None)
        m = export(vocab, clf)
        dev_raw = np.array([m.raw(it["payload"]) for it in dev_items])
        dev_y = np.array([1 if it["label"] == "attack" else 0 for it in dev_items])
        # selection: attacks caught on dev at 1% benign friction (balanced's budget)
        ben = sorted(dev_raw[dev_y == 0], reverse=True)
        cut = ben[int(0.01 * len(ben))]
        recall = float((dev_raw[dev_y == 1] > cut).mean())
        print(f"C={c}: dev recall at 1% benign friction {recall:.3f}; {time.time() - t0:.0f}s", flush=True)
        dev_raw_cache[c] = dev_raw
        if best is None or recall > best[1]:
            best = (c, recall, m)
    assert best is not None
    c_best, _, m = best
    dev_raw = dev_raw_cache[c_best]
    dev_y = np.array([1 if it["label"] == "attack" else 0 for it in dev_items])
    m.platt_a, m.platt_b = platt(dev_raw, dev_y)
    dev_p = [m.calibrate(float(r)) for r in dev_raw]
    benign_p = [p for p, y in zip(dev_p, dev_y, strict=True) if not y]
    per_corpus: dict[str, list[float]] = defaultdict(list)
    for p, it in zip(dev_p, dev_items, strict=True):
        if it["label"] == "benign":
            per_corpus[str(it["id"]).split("-", 1)[0]].append(p)
    # all benign dev items, and NotInject's over-defence probes on their own, stay within the mode's budget
    # (per corpus the dev sets are too small for a 1% budget to mean anything but "none")
    m.thresholds = {
        mode: max(threshold_for(benign_p, f), threshold_for(per_corpus["notinject"], f))
        for mode, f in FRICTION_TARGET.items()
    }
    m.block_threshold = max(0.97, threshold_for(benign_p, BLOCK_FRICTION), m.thresholds["light"])
    for mode in ("strict", "paranoid"):  # never ask above the block threshold
        m.thresholds[mode] = min(m.thresholds[mode], m.block_threshold)
    print(
        f"chosen C={c_best}; platt {m.platt_a:.3f} {m.platt_b:.3f}; thresholds {m.thresholds} block {m.block_threshold:.3f}"
    )

    # measure on the held-out test split with the model as shipped (through the turn gate)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(tier2.dump(m))
    tier2._MODEL[:] = [m]
    test = {k: list(v) for k, v in splits["test"].items()}
    before = gate_metrics(test, False, "balanced")
    after = {mode: gate_metrics(test, True, mode) for mode in ("light", "balanced", "strict", "paranoid")}
    bal = after["balanced"]
    enable = (
        all((bal[k]["asr"] or 0) <= (before[k]["asr"] or 0) for k in bal)
        and any((bal[k]["asr"] or 0) < (before[k]["asr"] or 0) for k in bal)
        and (bal["notinject"]["friction"] or 0) <= 0.01
        and (bal["bipia"]["friction"] or 0) <= 0.02
        and (bal["agentdojo_text"]["friction"] or 0) <= 0.02
    )
    measured_ok = bool(enable)
    enable = measured_ok if args.default == "auto" else args.default == "on"
    m.enabled_by_default = enable
    m.default_mode = args.default_mode
    args.out.write_bytes(tier2.dump(m))
    for label, res in [("tier 0/1", before)] + [(f"+tier2 {k}", v) for k, v in after.items()]:
        print(
            f"{label:<18}" + "  ".join(f"{c} asr={r['asr']} friction={r['friction']}" for c, r in res.items())
        )
    print(f"measured rule met: {measured_ok}; enabled_by_default: {enable}")
    held_out = {p.stem: load(p) for p in args.held_out}
    held_res = {
        label: gate_metrics(held_out, on, mode)
        for label, on, mode in (
            ("off", False, "balanced"),
            ("light", True, "light"),
            ("balanced", True, "balanced"),
        )
    }
    for label, res in held_res.items():
        print(
            f"held-out {label:<9}"
            + "  ".join(f"{c} asr={r['asr']} friction={r['friction']}" for c, r in res.items())
        )
    write_card(args, m, c_best, splits, train_items, own, vocab, before, after, enable, measured_ok, held_res)
    return 0


def write_card(
    args: Any,
    m: tier2.Model,
    c_best: float,
    splits: Any,
    train_items: list[Any],
    own: list[Any],
    vocab: Vocab,
    before: Any,
    after: Any,
    enable: bool,
    measured_ok: bool,
    held_res: dict[str, dict[str, dict[str, Any]]],
) -> None:
    n_weights = sum(len(t) for t in m.tables.values()) + len(m.words) + len(m.bigrams)
    size = args.out.stat().st_size
    lines = [
        "# Model card: Tier 2 of the turn gate (learned injection screen)",
        "",
        "Written by `training/train_tier2.py`; do not edit by hand (edit the script and re-run it):",
        "`.venv/bin/pip install -e '.[train]' && .venv/bin/python training/train_tier2.py --default off`",
        "(about 20 s on two cores; the weights are deterministic: liblinear with a fixed seed). Then",
        "`LIMEN_TIER2=1 .venv/bin/limen bench training/splits/test/*.jsonl` scores the held-out split.",
        "",
        "## What it is",
        "A logistic regression that scores whether untrusted text (tool output, fetched pages, files, MCP tool",
        "descriptions) carries an instruction aimed at the agent. Features: byte 2-, 4- and 8-grams of the UTF-8",
        "of NFKC-folded, lower-cased, whitespace-collapsed text, and word uni/bigrams; value = count / sqrt(window",
        f"feature count). Text is scored in windows of {tier2.WINDOW} characters (stride {tier2.STRIDE}); the",
        "highest window wins. Scores are Platt-calibrated on the dev split. Inference is pure Python",
        "(`limen.turngate.tier2`): no numpy, no download, CPU only.",
        "",
        f"- file: `src/limen/data/tier2.bin`, {size / 1e6:.2f} MB, {n_weights} non-zero int16 weights "
        f"(vocabulary {len(vocab.index)} features with document frequency >= {MIN_DF}), C = {c_best}",
        "- thresholds (calibrated score at which Tier 2 asks, AUTH): "
        + ", ".join(f"{k} {v:.3f}" for k, v in m.thresholds.items())
        + f"; BLOCK in strict/paranoid at {m.block_threshold:.3f}",
        f"- enabled by default: **{'yes' if enable else 'no'}**, in **{m.default_mode}** mode (`--default`,",
        "  `--default-mode`). The test-split rule (balanced lowers ASR on some corpus and raises it on none, with",
        "  benign friction <= 1% on NotInject and <= 2% on BIPIA and AgentDojo) is "
        f"{'met' if measured_ok else 'not met'}: Tier 0/1 and the",
        "  task-drift screen already stop every test attack, so it cannot be met. The decision rests on the",
        "  hand-written held-out sets below. `LIMEN_TIER2=1|0` overrides the default, `LIMEN_TIER2_MODE` the mode.",
        *(ENABLED_WHY if enable else DISABLED_WHY),
        "",
        "## Data and split",
        "Corpora: agentdojo_text, bipia, notinject (`/work/shared/corpora`, MIT; BIPIA tables/code contexts",
        "CC-BY-SA). Each item goes to train (60%), dev (20%) or test (20%) by the BLAKE2b hash of its group:",
        "AgentDojo injections are grouped by (suite, injection task), so one attacker goal in all its templates",
        "lands in one split; BIPIA attack instructions by their group of five variants; everything else by id.",
        "Ids per split: `training/splits/{train,dev,test}.ids`; the test items are written to",
        "`training/splits/test/*.jsonl` for `limen bench` (not committed).",
        "Not trained on: AgentDojo user prompts (the user's own text: Tier 2 does not screen it) and BIPIA",
        "table/code contexts (share-alike; they are only evaluated).",
        "",
        "| split | " + " | ".join(CORPORA) + " |",
        "|---|" + "---|" * len(CORPORA),
    ]
    for s in ("train", "dev", "test"):
        cells = []
        for name in CORPORA:
            items = splits[s].get(name, [])
            a = sum(it["label"] == "attack" for it in items)
            cells.append(f"{a} attack / {len(items) - a} benign")
        lines.append(f"| {s} | " + " | ".join(cells) + " |")
    oa = sum(it["label"] == "attack" for it in own)
    lines += [
        "",
        f"Own examples (`training/data/*.jsonl`, written for this project, train only): {oa} injections and "
        f"{len(own) - oa} benign look-alikes, in 45 languages: injections in polite business tone, as fake",
        'transcript turns, "the task above is outdated", inside tool output, configs, code and documents;',
        "look-alikes are documentation quoting injections, security questions, code, emails, tables, AI",
        "policies, agent conventions files and detector fixtures.",
        f"Generated examples (`training/augment.py`, train only, half weight): {sum(str(it['id']).startswith('gen-') for it in train_items)}.",
        f"Training rows: {len(train_items)} items; a long attack item contributes only its highest-scoring",
        "window after a first pass (multiple-instance); an item weighs the same whatever its length; classes",
        "are balanced by weight.",
        "",
        "## Results on the held-out test split (whole turn gate, as `limen bench` screens each item)",
        "ASR = attacks that PASS; friction = benign items that get AUTH or BLOCK. AgentDojo user prompts are",
        "screened as user text (Tier 2 does not run on them) and count in AgentDojo's benign column.",
        "",
        "| corpus | n attack / benign | Tier 0/1 ASR | friction | + Tier 2 light ASR | friction | balanced ASR | friction | strict ASR | friction | BLOCK fpr | paranoid ASR | friction |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in CORPORA:
        b = before[name]
        row = [name, f"{b['n_attack']} / {b['n_benign']}", str(b["asr"]), str(b["friction"])]
        for mode in ("light", "balanced", "strict", "paranoid"):
            a = after[mode][name]
            row += [str(a["asr"]), str(a["friction"])]
            if mode == "strict":
                row.append(str(a["fpr_block"]))
        lines.append("| " + " | ".join(row) + " |")
    lines += [
        "",
        *held_out_table(held_res),
        *extra_checks(m),
        "",
        f"Latency (this machine, while training): {latency(m)}; `bench/bench_tier2.py` measures it on one core.",
        "",
        "## What was tried",
        *TRIED,
        "",
        "## Known limits",
        *LIMITS,
        "",
    ]
    card = "\n".join(lines)
    kept = args.card.read_text(encoding="utf-8") if args.card.exists() else ""
    if DRIFT_BEGIN in kept and DRIFT_END in kept:  # training/train_drift.py's section stays
        card = card.rstrip("\n") + "\n\n" + DRIFT_BEGIN + kept.split(DRIFT_BEGIN, 1)[1].split(DRIFT_END, 1)[0]
        card += DRIFT_END + "\n"
    args.card.write_text(card, encoding="utf-8")


TRIED = [
    "- Hashed character 2-5-grams via `zlib.crc32` per gram (the suggested design): 2.5-3.5 ms for a 2 kB",
    "  text in pure Python (8,000 calls), over the 2 ms p50 budget. Replaced by byte grams read as integers",
    "  with `memoryview.cast` and looked up with `map(dict.get, ...)`, which runs in C: exact grams, no",
    "  collisions. Overlapping windows scored one by one: 1.5 ms p50; blocks of 300 characters scored once and",
    "  paired into windows: 0.9 ms p50.",
    "- Training on whole AgentDojo tool outputs with an injection: the carrier (the same CSV or email in every",
    "  injection task) became an attack signal (a benign dev CSV scored 0.92). Now only what the injection",
    "  changed is trained on (difference against the clean output).",
    "- Raw addresses: the attackers' few email addresses dominated the weights and a bare address scored as an",
    "  attack. Links, email addresses and numbers are now placeholders (`urlx`, `emailx`, `0`).",
    "- Thresholds per corpus on dev: with 43-65 benign dev items per corpus a 1% budget means 'none', so the",
    "  threshold followed the single worst item. Now: all benign dev items within the budget, and NotInject's.",
    "- Generated examples (`training/augment.py`, half weight): attack goals x wrappers in six languages, alone",
    "  and buried in ordinary text; plain data fields (addresses, links); requests full of trigger words.",
    "- C in {0.3, 1, 3, 10} (liblinear, L2), chosen by dev recall at 1% benign friction.",
    "- Chat logs with links (`training/task_drift.py` `chat_logs`, benign, half weight): a benign Slack channel",
    "  scored 0.88 and, with Tier 2 on, AgentDojo sessions friction rose from 2.06% to 7.22%; with them it",
    "  stays 2.06%. The task-drift screen's honest carrier documents as well lowered BIPIA test friction",
    "  (1.81% -> 1.20%) but moved the balanced threshold so that one hand-written held-out injection fell",
    "  under it (7 -> 6 of 10): not kept.",
    "- Ninth round (issue 12): 36 injections and 55 look-alikes in Dutch, Polish, Russian, Portuguese,",
    "  Italian, Turkish, Swedish and Korean (letters, how-tos, READMEs, quoted injections; now",
    "  `tests/turngate/data/ninth_requests.jsonl`) added to the training data. Tier 2: the balanced",
    "  threshold fell from 0.71 to 0.61 and BIPIA test friction in balanced rose from 1.8% to 4.8%, with no",
    "  test attack more stopped. Task-drift screen (`training/train_drift.py`, the same honest documents):",
    "  dev recall 0.43 -> 0.48, but on the hand-written regression sets one more injection passed than it",
    "  stopped, and no honest text fewer was flagged. Neither kept: the round's gains came from the rules",
    "  (a letter between people, quotations and AI addressees in more languages), which need no retraining.",
    "- Round 16 (issue 12): a semantic Tier 2 over static token embeddings shipped inside a PyPI wheel:",
    "  `wordllama` 0.4.0 (MIT; 19 MB wheel; `l2_supercat_256.safetensors`, 32,000 x 256 float16, with its",
    "  Llama-2 BPE tokenizer config), loaded with `safetensors` + `tokenizers`, pooled per 600-character window.",
    "  Same training data and split; chosen by dev recall at 1% benign friction and by leave-one-set-out over",
    "  the nine hand-written sets in tests/turngate/data (train on the rest, threshold at 2% dev friction;",
    "  `training/try_static_embeddings.py`). Results (dev recall / LOSO injections caught / LOSO benign",
    "  flagged): mean pool + logistic regression 0.35 / 20% / 7.0%; mean+max+min pool + LR 0.54 / 15% / 3.7%;",
    "  mean pool + MLP(64) 0.54 / 30% / 5.2%; the byte-n-gram model alone 0.79 / 37% / 3.7%; n-grams plus",
    "  the pooled embeddings in one LR 0.79 / 40% / 4.3%. Static embeddings alone generalise worse than byte",
    "  n-grams (they see topic, not address: 'send the invoice' reads alike in a letter and in an injection),",
    "  and the combination gains 8 of 318 held-out injections for 4 more flagged look-alikes, within noise,",
    "  at the price of numpy, tokenizers (+ huggingface_hub) and a 19 MB wheel in every install (about 40 MB",
    "  with numpy), and weights derived from Llama-2's embeddings (the package is MIT; the provenance of the",
    "  vocabulary and embeddings is Meta's Llama 2 licence, a risk for a security product's licence-clean",
    "  claim). Not kept: the shipped Tier 2 stays pure Python without numpy.",
    "- Round 16, kept: the nine hand-written regression sets in tests/turngate/data (318 injections, 328",
    "  look-alikes) and 76 new examples (`training/data/own_round16.jsonl`: status pages, voicemail",
    "  transcripts, CI logs, notebooks, shipping notices, forum replies, hidden HTML, fake turns, 'the",
    "  request was withdrawn', in ten languages) join the training data (`--no-held-in` leaves the former",
    "  out). Test split (balanced): BIPIA friction 1.8% -> 3.0%; light: no change. On the held-out sets light",
    "  lowers ASR (table above) for one more flagged look-alike per set at most, but it asks on honest chat",
    "  transcripts and assistant-API docs the gate's tests require to pass, so it still ships disabled.",
    "- Round 50 (issue 12): the data, not the model, was the limit. Helpers that never saw Limen's code or",
    "  any held-out set wrote 2,399 new examples (`training/data/own_round50.jsonl`, `own_round50b.jsonl`):",
    "  injections and honest look-alikes in 45 languages, as tool outputs (MCP results, API JSON, logs,",
    "  configs, READMEs, CI files), office mail and documents, and hard look-alikes (write-ups quoting",
    "  injections, agent conventions files, AI policies, detector fixtures). Measured on rt94 (221 injections,",
    "  261 look-alikes in 13 languages, written blind before the round and never trained on): Tier 2 alone",
    "  ranks it at AUC 0.805 with the round-16 model, 0.889 with the first half of the new data and 0.917",
    "  with all of it (0.913 once 270 ordinary programming texts and generated tool-output records joined the",
    "  honest side, which a code answer and a sent e-mail's YAML needed); recall at 2% false alarms 8% ->",
    "  39% -> 48%. Weights under 0.6% of the largest are dropped (`PRUNE_BELOW`): AUC unchanged, 367k -> about",
    "  160k weights, load about 170 -> 60 ms.",
    "- Not tried for lack of time: a small tree ensemble over the same features, an ONNX sentence encoder",
    "  (none with a licence-clean, PyPI-shipped multilingual model under 30 MB was found).",
    "- Honesty note: the test split's summary (not its items) was printed on each of about eight design",
    "  iterations; choices were made on dev items, but the test figures are not entirely untouched. The chat",
    "  log change was chosen on the full AgentDojo sessions corpus and the hand-written sets, with the test",
    "  summary printed on three runs.",
]


def held_out_table(held_res: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """The whole gate on hand-written sets never trained on (`--held-out`), Tier 2 off / light / balanced."""
    if not held_res or not held_res.get("off"):
        return []
    out = [
        "",
        "## Whole turn gate on hand-written held-out sets (never trained on; `--held-out`)",
        "Written outside the repository by the sessions that measured them, each before the round it judged;",
        "rt94 (221 injections, 261 look-alikes in 13 languages) was written blind before round 50 and measured",
        "with the Tier 0/1 rules of the end of that round (the earlier sets, inj12-inj16, are now the held-in",
        "regression sets in tests/turngate/data).",
        "",
        "| set | n attack / benign | off ASR | friction | light ASR | friction | balanced ASR | friction |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in held_res["off"].items():
        row = [name, f"{r['n_attack']} / {r['n_benign']}", str(r["asr"]), str(r["friction"])]
        for mode in ("light", "balanced"):
            row += [str(held_res[mode][name]["asr"]), str(held_res[mode][name]["friction"])]
        out.append("| " + " | ".join(row) + " |")
    return out


def extra_checks(m: tier2.Model) -> list[str]:
    """Tier 2 alone on hand-written texts in the repository's tests (never trained on)."""
    sys.path.insert(0, str(ROOT / "tests"))
    out = [
        "",
        "## Tier 2 alone on hand-written test texts (never trained on)",
        "Counts of texts at or above each mode's threshold (scores of the learned screen only; Tier 0/1 also",
        "catch most of the injections).",
        "",
        "| set | n | light | balanced | strict | paranoid |",
        "|---|---|---|---|---|---|",
    ]
    try:
        import test_tier2
        import test_turngate
    except Exception as exc:  # the card still gets written
        return [*out, f"(not available: {type(exc).__name__})"]
    sets = {
        "tests/test_tier2.py HELD_OUT_INJECTIONS": test_tier2.HELD_OUT_INJECTIONS,
        "tests/test_tier2.py LOOK_ALIKES": test_tier2.LOOK_ALIKES,
        "tests/test_turngate.py TIER0_POSITIVE": test_turngate.TIER0_POSITIVE,
        "tests/test_turngate.py TIER1_POSITIVE": test_turngate.TIER1_POSITIVE,
        "tests/test_turngate.py TIER0_NEGATIVE (honest)": test_turngate.TIER0_NEGATIVE,
        "tests/test_turngate.py TIER1_NEGATIVE (honest)": test_turngate.TIER1_NEGATIVE,
    }
    for name, items in sets.items():
        texts = [x[-1] if isinstance(x, tuple) else x for x in items]
        scores = [m.score(t) for t in texts if isinstance(t, str)]
        cells = [str(sum(sc >= m.thresholds[mode] for sc in scores)) for mode in tier2.MODES]
        out.append(f"| {name} | {len(scores)} | " + " | ".join(cells) + " |")
    return out


def latency(m: tier2.Model) -> str:
    text = ("Hi team, the quarterly report is attached; revenue grew 4% in the EU region. " * 40)[:2048]
    times = []
    for _ in range(300):
        start = time.perf_counter()
        m.score(text)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return f"p50 {times[150]:.2f} ms, p99 {times[296]:.2f} ms on a 2 kB text"


DISABLED_WHY = [
    "- Why it ships disabled (round 50), in light mode when switched on (`--default off --default-mode light`):",
    "  the round-50 data made the model much better at ranking (rt94 AUC 0.805 -> 0.91), but switched on",
    "  in light mode the whole gate's gain on rt94 is small (table below: about two points of ASR for half",
    "  a point of friction), and on AgentDojo sessions it stops four more injected sessions (ASR 0.82% ->",
    "  0.16%) while one honest session more is asked about (friction 2.06% -> 3.09%: a file listing with",
    "  meeting minutes scores 0.98 and taints the session, so the e-mail the user asked for asks). The",
    "  issue asks that sessions stay unchanged or better, so it ships off. `LIMEN_TIER2=1` enables it (light",
    "  by default, `LIMEN_TIER2_MODE=balanced` for the stronger trade: rt94 ASR about 23% -> 13% for four",
    "  points of friction).",
]
ENABLED_WHY = [
    "- Why it ships enabled in light mode (round 50, `--default on --default-mode light`): on rt94, a",
    "  held-out set never trained on (table below), light lowers the whole gate's ASR by four points for",
    "  under one point of friction, and balanced by twelve points for six; on the shared corpora light adds",
    "  no friction (test split table; AgentDojo sessions: ASR 0.82% -> 0.16%, friction 2.06% unchanged).",
    "  Light is the mode whose cost stays under a point. `LIMEN_TIER2=0` turns it off;",
    "  `LIMEN_TIER2_MODE=balanced` takes the stronger trade. The daemon loads the weights once at start.",
]
LIMITS = [
    "- Trained on few thousand items: AgentDojo's templates and BIPIA's styles dominate the attacks; novel",
    "  styles rest on the project's own examples. Expect misses on styles absent from both.",
    "- It scores instruction-likeness, not intent: an honest page that addresses its reader in the imperative",
    "  (recipes, how-tos) scores higher than a table; a bare question (BIPIA's \"What is the capital of",
    '  Brazil?") is an attack only by where it sits and stays hard.',
    "- Only the first and last 128 k characters of a huge text are scored.",
    "- Thresholds are per mode but `screen()` does not receive the policy mode: `LIMEN_TIER2_MODE` selects it.",
]


if __name__ == "__main__":
    raise SystemExit(main())
