# ruff: noqa: E501
"""Round 16's experiment: does a semantic Tier 2 over static token embeddings shipped in a PyPI wheel
generalise better than the byte-n-gram model? (It did not; the model card records the figures.)

    pip download wordllama==0.4.0.post1 --no-deps -d /tmp/wl && unzip -q /tmp/wl/*.whl -d /tmp/wl/x
    .venv/bin/pip install safetensors tokenizers
    .venv/bin/python training/try_static_embeddings.py --wordllama /tmp/wl/x/wordllama FEATURES [C]

FEATURES: mean | mm (mean+max+min pool) | char (byte n-grams, as shipped) | char+mean | char+mm.
Prints dev recall at 1% benign friction (model trained on everything but dev/test) and leave-one-set-out
over the hand-written sets in tests/turngate/data (train on the others; threshold at 2% dev friction).
Never reads the test split or any held-out set.
"""

from __future__ import annotations

import argparse
import sys
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
import train_tier2 as T  # noqa: E402

from limen.turngate import tier2  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--wordllama", type=Path, required=True, help="the unpacked wheel's wordllama/ folder")
    ap.add_argument("--corpora", type=Path, default=Path("/work/shared/corpora"))
    ap.add_argument("features", choices=["mean", "mm", "char", "char+mean", "char+mm"])
    ap.add_argument("C", type=float, nargs="?", default=3.0)
    args = ap.parse_args()
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    emb = next(iter(load_file(str(args.wordllama / "weights" / "l2_supercat_256.safetensors")).values()))
    emb = emb.astype(np.float32)
    tok = Tokenizer.from_file(str(args.wordllama / "tokenizers" / "l2_supercat_tokenizer_config.json"))
    pool = args.features.split("+")[-1]
    use_char = args.features.startswith("char")
    use_emb = args.features != "char"

    corpus = {n: T.load(args.corpora / r) for n, r in T.CORPORA.items()}
    splits: dict[str, list[dict[str, Any]]] = {"train": [], "dev": [], "test": []}
    for items in corpus.values():
        for it in items:
            splits[T.split_of(it)].append(it)
    carriers = {
        (it["meta"].get("suite"), it["meta"].get("env_path")): it["payload"]
        for it in corpus["agentdojo_text"]
        if (it.get("meta") or {}).get("role") == "tool_output_field"
    }
    own = [it for p in sorted((ROOT / "training" / "data").glob("*.jsonl")) for it in T.load(p)]
    gen = augment.generated() + [
        {"id": f"gen-chat-{i}", "kind": "text", "label": "benign", "payload": d, "meta": {}}
        for i, d in enumerate(task_drift.chat_logs())
    ]
    held = {p.stem: T.load(p) for p in sorted((ROOT / "tests" / "turngate" / "data").glob("*.jsonl"))}
    base = [T.strip_carrier(it, carriers) for it in splits["train"] if T.trainable(it)] + own + gen
    base_w = [0.5 if str(it["id"]).startswith("gen-") else 1.0 for it in base]
    dev = [it for it in splits["dev"] if T.screened(it)]

    def embed(window: list[str]) -> np.ndarray:
        ids = tok.encode("".join(window), add_special_tokens=False).ids or [0]
        x = emb[ids]
        v = x.mean(0) if pool == "mean" else np.concatenate([x.mean(0), x.max(0), x.min(0)])
        return v / (np.linalg.norm(v) + 1e-6)

    def feats(items: list[dict[str, Any]]) -> list[list[tuple[Any, Any]]]:
        out = []
        for it in items:
            wins = tier2.blocks(tier2.normalise(it["payload"]))
            out.append(
                [
                    (
                        tier2.window_features(w) if use_char else None,
                        embed(w) if use_emb else None,
                    )
                    for w in wins
                ]
            )
        return out

    fb, fd = feats(base), feats(dev)
    fh = {k: feats(v) for k, v in held.items()}
    vocab = T.Vocab()
    if use_char:
        vocab.fit([c for rows in fb + [r for v in fh.values() for r in v] for c, _ in rows])

    def mat(rows: list[tuple[Any, Any]]) -> Any:
        parts = []
        if use_char:
            parts.append(vocab.matrix([c for c, _ in rows]))
        if use_emb:
            parts.append(sparse.csr_matrix(np.array([e for _, e in rows])))
        return sparse.hstack(parts).tocsr()

    def fit(fs: list[Any], ys: list[int], ws: list[float]) -> LogisticRegression:
        rows, yy, sw = [], [], []
        for f, y, w in zip(fs, ys, ws, strict=True):
            rows += f
            yy += [y] * len(f)
            sw += [w / len(f)] * len(f)
        y_arr, w_arr = np.array(yy), np.array(sw)
        pos, neg = w_arr[y_arr == 1].sum(), w_arr[y_arr == 0].sum()
        w_arr = np.where(y_arr == 1, w_arr * 0.5 / pos, w_arr * 0.5 / neg) * len(w_arr)
        clf = LogisticRegression(C=args.C, max_iter=3000, solver="liblinear", random_state=0)
        return clf.fit(mat(rows), y_arr, sample_weight=w_arr)

    def scores(clf: LogisticRegression, fs: list[Any]) -> np.ndarray:
        return np.array([clf.decision_function(mat(f)).max() for f in fs])

    def label(items: list[dict[str, Any]]) -> list[int]:
        return [int(it["label"] == "attack") for it in items]

    def cut(s: np.ndarray, y: np.ndarray, friction: float) -> float:
        ben = np.sort(s[y == 0])[::-1]
        return float(ben[int(friction * len(ben))])

    dev_y = np.array(label(dev))
    allh = [f for v in fh.values() for f in v]
    clf = fit(
        fb + allh, label(base) + [y for v in held.values() for y in label(v)], base_w + [1.0] * len(allh)
    )
    sd = scores(clf, fd)
    print(
        f"{args.features} C={args.C}: dev recall at 1% friction {(sd[dev_y == 1] > cut(sd, dev_y, 0.01)).mean():.3f}"
    )
    caught = n_att = flagged = n_ben = 0
    for k in held:
        rest = [r for r in held if r != k]
        f_rest = [f for r in rest for f in fh[r]]
        c2 = fit(
            fb + f_rest, label(base) + [y for r in rest for y in label(held[r])], base_w + [1.0] * len(f_rest)
        )
        t = cut(scores(c2, fd), dev_y, 0.02)
        s, y = scores(c2, fh[k]), np.array(label(held[k]))
        caught += int((s[y == 1] > t).sum())
        flagged += int((s[y == 0] > t).sum())
        n_att += int(y.sum())
        n_ben += int((y == 0).sum())
    print(f"leave-one-set-out: caught {caught}/{n_att}, benign flagged {flagged}/{n_ben}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
