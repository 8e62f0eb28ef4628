"""Tier 2 of the turn gate: a learned screen for untrusted text that instructs the agent.

A logistic regression over byte n-grams (2, 4 and 8 bytes of the UTF-8 of lower-cased, NFKC-folded,
whitespace-collapsed text) and word uni/bigrams, trained by `training/train_tier2.py` and shipped as
`limen/data/tier2.bin` (model card: `docs/model-card-tier2.md`). Inference is pure Python: every 2-, 4- and
8-byte gram of a window is read as one unsigned integer through `memoryview.cast` at each byte offset, so
gram extraction and the weight look-up (`dict.get`) run in C; no hashing, no numpy.

A text is scored in windows of `WINDOW` characters (stride `STRIDE`), so an instruction buried in a long page
is not diluted by the page; the text's score is the highest window's. Feature values are counts divided by
the square root of the window's feature count (the training script builds its matrix the same way, through
`window_features`). The raw score is calibrated on the dev split (Platt) and compared with a threshold per
mode, chosen on dev by the training script.

Tier 2 only raises: it runs on untrusted content that Tier 0/1 did not already BLOCK, adds an
`indirect_injection` AUTH finding (BLOCK only in strict/paranoid above the block threshold), and a failure to
load or score is a `turn_gate_error` AUTH finding, never a silent PASS.

Switches (environment): LIMEN_TIER2=1|0 forces Tier 2 on or off (default: the model file's
`enabled_by_default`, which the training script sets from its measurement on the test split);
LIMEN_TIER2_MODE=light|balanced|strict|paranoid chooses the threshold (default: the model file's
`default_mode`, chosen by the training script; the turn gate's `screen` does not receive the policy mode).
"""

from __future__ import annotations

import json
import math
import os
import re
import struct
import sys
import threading
import unicodedata
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from limen.model import Finding, ReasonCode, Verdict

MAGIC = b"LIMT2\x00\x01\x00"
WINDOW = 600  # characters per scored window
STRIDE = 300
MAX_CHARS = 262_144  # beyond this, the head and the tail are scored (the middle is Tier 0/1's alone)
GRAM_SIZES = (2, 4, 8)  # bytes; each is read as one unsigned integer ("H", "I", "Q")
_CAST: dict[int, Literal["H", "I", "Q"]] = {2: "H", 4: "I", 8: "Q"}
_WORD = re.compile(r"\w+")
_SPACE = re.compile(r"\s+")
_URL = re.compile(r"(?:https?://|www\.)[^\s<>\"')\]]+")
# bounded parts that start a token: linear on a long run of word characters without an "@"
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}")
_DIGITS = re.compile(r"[0-9]+")
# An encoded run (base64, hex, a key or a hash: 32 characters or more with a digit in them): its letters are
# noise to an n-gram model (an icon's base64 read as an instruction); a hidden message in one is Tier 0's.
_BLOB = re.compile(r"(?<![\w+/=-])(?=[a-z0-9+/_=-]*[0-9])[a-z0-9+/_=-]{32,}")
# characters that render as nothing: a translate table (a regex class over the tag block: 5 ms to compile)
_INVISIBLE = dict.fromkeys(
    [
        0x00AD,
        0x180E,
        0xFEFF,
        *range(0x200B, 0x2010),
        *range(0x2060, 0x2065),
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
        *range(0xE0000, 0xE0080),
    ]
)

RISK_AUTH = 60
RISK_BLOCK = 90
RISK_ERROR = 60
MODES = ("light", "balanced", "strict", "paranoid")
DETAIL = "tier2 learned screen"  # how this screen's findings begin


def normalise(text: str) -> str:
    """The one text form both training and inference read: NFKC, lower case, no invisibles, single spaces,
    and links, email addresses, encoded runs and numbers replaced by placeholders (the model learns that a
    text names an address, not which one: the attackers' own addresses would otherwise be what it
    remembers)."""
    text = unicodedata.normalize("NFKC", text)
    text = text.translate(_INVISIBLE).lower()
    text = _URL.sub(" urlx ", text)
    if "@" in text:
        text = _EMAIL.sub(" emailx ", text)
    text = _BLOB.sub(" blobx ", text)
    text = _DIGITS.sub("0", text)
    return _SPACE.sub(" ", text).strip()


def blocks(norm: str) -> list[list[str]]:
    """The scored windows of a normalised text, each as its blocks.

    A short text is one window of one block; a longer one is cut into blocks of `STRIDE` characters and each
    window is two adjacent blocks, so every block is read once and every window is `WINDOW` characters.
    """
    if len(norm) <= WINDOW:
        return [[norm]]
    parts = [norm[s : s + STRIDE] for s in range(0, len(norm), STRIDE)]
    return [parts[i : i + 2] for i in range(len(parts) - 1)]


def byte_grams(data: bytes, size: int) -> list[memoryview[int]]:
    """All `size`-byte grams of `data` as arrays of unsigned integers, one array per byte offset."""
    code = _CAST[size]
    out: list[memoryview[int]] = []
    view = memoryview(data)
    for offset in range(min(size, max(0, len(data) - size + 1))):
        usable = (len(data) - offset) // size * size
        if usable:
            out.append(view[offset : offset + usable].cast(code))
    return out


def word_grams(window: str) -> tuple[list[str], list[str]]:
    words = _WORD.findall(window)
    return words, [a + " " + b for a, b in pairwise(words)]


def window_features(window: list[str]) -> tuple[dict[tuple[int, int | str], int], int]:
    """Counts per feature key ((n, gram) with n = 2/4/8 bytes, 1 = word, 0 = word bigram) and the total.

    Training only (it builds dicts); inference sums weights without materialising features.
    """
    counts: dict[tuple[int, int | str], int] = {}
    total = 0
    for block in window:
        c, t = block_features(block)
        total += t
        for k, v in c.items():
            counts[k] = counts.get(k, 0) + v
    return counts, total


def block_features(window: str) -> tuple[dict[tuple[int, int | str], int], int]:
    counts: dict[tuple[int, int | str], int] = {}
    total = 0
    data = window.encode("utf-8", "surrogatepass")
    for size in GRAM_SIZES:
        for grams in byte_grams(data, size):
            for g in grams.tolist():
                key: tuple[int, int | str] = (size, g)
                counts[key] = counts.get(key, 0) + 1
                total += 1
    words, bigrams = word_grams(window)
    for n, seq in ((1, words), (0, bigrams)):
        for w in seq:
            wkey: tuple[int, int | str] = (n, w)
            counts[wkey] = counts.get(wkey, 0) + 1
            total += 1
    return counts, total


@dataclass(slots=True)
class Model:
    tables: dict[int, dict[int, int]]  # gram size -> {gram integer: quantised weight}
    words: dict[str, int]
    bigrams: dict[str, int]
    scale: float  # quantised weight * scale = weight
    bias: float
    platt_a: float
    platt_b: float
    thresholds: dict[str, float]  # mode -> calibrated score at which Tier 2 asks (AUTH)
    block_threshold: float  # strict/paranoid: calibrated score at which Tier 2 blocks
    enabled_by_default: bool
    # the mode whose threshold applies when LIMEN_TIER2_MODE is not set (the training script's choice)
    default_mode: str = "balanced"
    # a second stage over named features of a sentence in its document (the task-drift screen's; empty for
    # Tier 2): feature name -> weight, "bias" its intercept
    context: dict[str, float] = field(default_factory=dict)

    def raw_block(self, window: str) -> tuple[int, int]:
        """The quantised weight sum and the feature count of one block."""
        data = window.encode("utf-8", "surrogatepass")
        acc = 0
        total = 0
        for size in GRAM_SIZES:
            get = self.tables[size].get
            for grams in byte_grams(data, size):
                acc += sum(map(get, grams, _zeros(len(grams))))
                total += len(grams)
        words, bigrams = word_grams(window)
        acc += sum(map(self.words.get, words, _zeros(len(words))))
        acc += sum(map(self.bigrams.get, bigrams, _zeros(len(bigrams))))
        total += len(words) + len(bigrams)
        return acc, total

    def raw_window(self, window: list[str]) -> float:
        acc = total = 0
        for block in window:
            a, t = self.raw_block(block)
            acc += a
            total += t
        return acc * self.scale / math.sqrt(total) + self.bias if total else self.bias

    def raw(self, text: str) -> float:
        norm = normalise(text)
        if len(norm) > MAX_CHARS:
            half = MAX_CHARS // 2
            return max(self.raw_norm(norm[:half]), self.raw_norm(norm[-half:]))
        return self.raw_norm(norm)

    def raw_norm(self, norm: str) -> float:
        wins = blocks(norm)
        if len(wins) == 1:
            return self.raw_window(wins[0])
        sums = [self.raw_block(w[0]) for w in wins] + [self.raw_block(wins[-1][1])]
        best = -math.inf
        for (a1, t1), (a2, t2) in pairwise(sums):
            total = t1 + t2
            best = max(best, (a1 + a2) * self.scale / math.sqrt(total) + self.bias if total else self.bias)
        return best

    def calibrate(self, raw: float) -> float:
        z = self.platt_a * raw + self.platt_b
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)

    def score(self, text: str) -> float:
        """Calibrated probability that the text carries an instruction aimed at the agent."""
        return self.calibrate(self.raw(text))


_ZEROS: list[tuple[int, ...]] = []


def _zeros(n: int) -> tuple[int, ...]:
    # map(dict.get, keys, defaults): the defaults iterable must be at least as long as keys
    if not _ZEROS or len(_ZEROS[0]) < n:
        _ZEROS[:] = [(0,) * max(n, 4096)]
    return _ZEROS[0]


def dump(model: Model) -> bytes:
    """The shipped file: MAGIC, header length, JSON header, then per table keys and int16 weights."""
    header: dict[str, object] = {
        "scale": model.scale,
        "bias": model.bias,
        "platt": [model.platt_a, model.platt_b],
        "thresholds": model.thresholds,
        "block_threshold": model.block_threshold,
        "enabled_by_default": model.enabled_by_default,
        "tables": {},
    }
    if model.default_mode != "balanced":  # files written before the field stay byte-identical
        header["default_mode"] = model.default_mode
    if model.context:
        header["context"] = model.context
    body = bytearray()
    tables: dict[str, int] = {}
    for size in GRAM_SIZES:
        items = sorted(model.tables[size].items())
        tables[str(size)] = len(items)
        body += array(_CAST[size], [k for k, _ in items]).tobytes()
        body += array("h", [v for _, v in items]).tobytes()
    for name, table in (("words", model.words), ("bigrams", model.bigrams)):
        items2 = sorted(table.items())
        blob = "\n".join(k for k, _ in items2).encode("utf-8", "surrogatepass")
        tables[name] = len(items2)
        tables[name + "_bytes"] = len(blob)
        body += blob
        body += array("h", [v for _, v in items2]).tobytes()
    header["tables"] = tables
    head = json.dumps(header, sort_keys=True).encode()
    if sys.byteorder != "little":  # pragma: no cover - the file is little-endian
        raise RuntimeError("tier2 model files are written on little-endian machines")
    return MAGIC + struct.pack("<I", len(head)) + head + bytes(body)


def load_bytes(blob: bytes) -> Model:
    if not blob.startswith(MAGIC):
        raise ValueError("not a tier2 model file")
    (hlen,) = struct.unpack_from("<I", blob, len(MAGIC))
    pos = len(MAGIC) + 4
    header = json.loads(blob[pos : pos + hlen])
    pos += hlen
    counts = header["tables"]
    tables: dict[int, dict[int, int]] = {}
    for size in GRAM_SIZES:
        n = int(counts[str(size)])
        keys = array(_CAST[size])
        keys.frombytes(blob[pos : pos + n * size])
        pos += n * size
        vals = array("h")
        vals.frombytes(blob[pos : pos + 2 * n])
        pos += 2 * n
        if sys.byteorder != "little":  # pragma: no cover
            keys.byteswap()
            vals.byteswap()
        tables[size] = dict(zip(keys, vals, strict=True))
    strs: dict[str, dict[str, int]] = {}
    for name in ("words", "bigrams"):
        n = int(counts[name])
        nbytes = int(counts[name + "_bytes"])
        names = blob[pos : pos + nbytes].decode("utf-8", "surrogatepass").split("\n") if n else []
        pos += nbytes
        vals = array("h")
        vals.frombytes(blob[pos : pos + 2 * n])
        pos += 2 * n
        if sys.byteorder != "little":  # pragma: no cover
            vals.byteswap()
        strs[name] = dict(zip(names, vals, strict=True))
    if pos != len(blob):
        raise ValueError("tier2 model file has trailing or missing bytes")
    platt = header["platt"]
    return Model(
        tables=tables,
        words=strs["words"],
        bigrams=strs["bigrams"],
        scale=float(header["scale"]),
        bias=float(header["bias"]),
        platt_a=float(platt[0]),
        platt_b=float(platt[1]),
        thresholds={str(k): float(v) for k, v in header["thresholds"].items()},
        block_threshold=float(header["block_threshold"]),
        enabled_by_default=bool(header["enabled_by_default"]),
        default_mode=_mode_of(header.get("default_mode")),
        context={str(k): float(v) for k, v in header.get("context", {}).items()},
    )


def _mode_of(value: object) -> str:
    return value if isinstance(value, str) and value in MODES else "balanced"


_LOCK = threading.Lock()
_MODEL: list[Model] = []
_DEFAULT: list[tuple[bool, str]] = []  # (enabled_by_default, default_mode) read from the header alone


MODEL_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "tier2.bin")


def _blob() -> bytes:
    # a plain file read: importlib.resources costs 8 ms to import, paid by every hook process
    with open(MODEL_PATH, "rb") as handle:
        return handle.read()


def model() -> Model:
    """The shipped model, loaded once per process (raises when it cannot be read)."""
    if _MODEL:
        return _MODEL[0]
    with _LOCK:
        if not _MODEL:
            _MODEL.append(load_bytes(_blob()))
    return _MODEL[0]


def _defaults() -> tuple[bool, str]:
    """The shipped file's defaults, read from its header alone (the weights are only loaded to score)."""
    if _MODEL:
        return _MODEL[0].enabled_by_default, _MODEL[0].default_mode
    if not _DEFAULT:
        blob = _blob()
        if not blob.startswith(MAGIC):
            raise ValueError("not a tier2 model file")
        (hlen,) = struct.unpack_from("<I", blob, len(MAGIC))
        header = json.loads(blob[len(MAGIC) + 4 : len(MAGIC) + 4 + hlen])
        _DEFAULT.append((bool(header["enabled_by_default"]), _mode_of(header.get("default_mode"))))
    return _DEFAULT[0]


def enabled_by_default() -> bool:
    """Whether the shipped file turns Tier 2 on when LIMEN_TIER2 is not set."""
    return _defaults()[0]


def default_mode() -> str:
    """The mode whose threshold applies when LIMEN_TIER2_MODE is not set (the shipped file's choice)."""
    return _defaults()[1]


def switched_on(variable: str, default: Callable[[], bool]) -> bool:
    """An on/off environment variable (1/on/true/yes, 0/off/false/no) when it is set, else `default()`:
    the switch of Tier 2 and of the task-drift screen alike."""
    flag = os.environ.get(variable, "").strip().lower()
    if flag in ("1", "on", "true", "yes"):
        return True
    if flag in ("0", "off", "false", "no"):
        return False
    return default()


def enabled() -> bool:
    """Whether Tier 2 runs: LIMEN_TIER2 when set, else the shipped model's default."""
    return switched_on("LIMEN_TIER2", enabled_by_default)


def current_mode() -> str:
    """LIMEN_TIER2_MODE when it names a mode, else the shipped file's default mode."""
    mode = os.environ.get("LIMEN_TIER2_MODE", "").strip().lower()
    return mode if mode in MODES else default_mode()


def check(text: str, *, mode: str | None = None) -> list[Finding]:
    """Tier 2 findings for one untrusted text; never raises (an error is a `turn_gate_error` AUTH)."""
    try:
        if not enabled():
            return []
        m = model()
        mode = mode if mode in MODES else current_mode()
        score = m.score(text)
        if mode in ("strict", "paranoid") and score >= m.block_threshold:
            verdict, risk = Verdict.BLOCK, RISK_BLOCK
        elif score >= m.thresholds[mode]:
            verdict, risk = Verdict.AUTH, RISK_AUTH
        else:
            return []
        return [
            Finding(
                ReasonCode.INDIRECT_INJECTION,
                verdict,
                risk,
                f"{DETAIL}, score {score:.2f} in untrusted content",
            )
        ]
    except Exception as exc:
        return [
            Finding(
                ReasonCode.TURN_GATE_ERROR, Verdict.AUTH, RISK_ERROR, f"tier2 error: {type(exc).__name__}"
            )
        ]
