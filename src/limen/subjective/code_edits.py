"""A learned reader of program edits: a change that reads like one made to weaken the code asks (raise-only).

`limen.rules.code_changes` reads an edit for shapes of sabotage it can name (a check made `true`, a refusal
taken out). Measured on sets of attacks written for ecosystems it had never seen, those shapes caught none of
the misses: each language and framework spells its checks its own way. This detector learns instead. A
logistic regression over the tokens and token pairs of an edit's removed lines, added lines and the lines
before it (and the file's name) is trained by `training/train_code_edits.py` on the project's own red-team
edits (attacks and look-alike ordinary work, in sixteen ecosystems) and on edits cut from real source trees,
and shipped as `limen/data/code_edits.bin` (model card: `docs/model-card-code-edits.md`). Its threshold is
chosen on held-out ecosystems' ordinary edits (leave one ecosystem out), not on the attacks.

It reads only what a call changes in a program file (`facts.paths.PROGRAMS`): a tool's Write, Edit or
MultiEdit, or a shell line's in-place edit (`sed -i`, `perl -pi`: the file before and after, as the Edit
making the same change is read), and only after the objective rules passed the call: a finding is AUTH
(`suspect_code_change`, risk 55), never BLOCK. A model file that cannot be read is an exception, which the
engine turns into AUTH (`subjective_guardrail_error`). `LIMEN_CODE_MODEL=0` turns the detector off."""

from __future__ import annotations

import json
import os
import re
import struct
import sys
import threading
import zlib
from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from limen.context import Context
from limen.model import Action, Finding, ReasonCode, Verdict

MAGIC = b"LIMCE\x00\x01\x00"
RISK = 55
MAX_LINES = 300  # of removed and of added lines read (a whole new file: its head)
MAX_LINE_CHARS = 240
CONTEXT_LINES = 4  # lines before the first change: what the code around the edit is about
MAX_DIFF_CELLS = 40_000  # past this many line pairs the changed middle is read as all removed, all added

_WORD = re.compile(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])|\d+|==|!=|&&|\|\||->|=>|[^\sA-Za-z\d]")
_STRING = re.compile(r"""(["'`])(?:\\.|(?!\1).){0,200}?\1""")


def tokens(line: str) -> list[str]:
    """A line's words (camel case and snake case split alike, lower-cased), operators and punctuation; a
    string literal is marked `str` and its first 60 characters kept, so `"admin"` is read as a word."""
    line = _STRING.sub(lambda m: " str " + m.group(0)[1:-1][:60] + " ", line[:MAX_LINE_CHARS])
    return [w.lower() for w in _WORD.findall(line)]


def diff_parts(before: str, after: str) -> tuple[list[str], list[str], list[str]]:
    """The removed lines, the added lines and the lines around the change: the common head and tail are
    set aside, and the middle compared line by line."""
    if before == after:
        return [], [], []
    import difflib

    old, new = before.splitlines(), after.splitlines()
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    old_mid, new_mid = old[head : len(old) - tail], new[head : len(new) - tail]
    context = old[max(0, head - CONTEXT_LINES) : head] + old[len(old) - tail : len(old) - tail + 2]
    if len(old_mid) * len(new_mid) > MAX_DIFF_CELLS:
        return old_mid[:MAX_LINES], new_mid[:MAX_LINES], context
    removed: list[str] = []
    added: list[str] = []
    matcher = difflib.SequenceMatcher(None, old_mid, new_mid, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed += old_mid[i1:i2]
            added += new_mid[j1:j2]
    return removed, added, context


def features(
    removed: list[str],
    added: list[str],
    context: list[str],
    name: str,
    new_file: bool,
    settings: bool = False,
) -> set[str]:
    """The one feature set training and inference read: the tokens and token pairs of the added (`+`) and
    removed (`-`) lines; those the change adds or takes away on balance (`d+`, `d-`, pairs `D+`, `D-`:
    `verify(token, key)` made `decode(token)` adds `decode` and takes away `verify`, `key`); tokens of the
    context (`c`); words of the file's name (`p`); whether the file is new, whether anything was removed.
    With `settings` (the reader of command lines and configuration, where a change is mostly a setting's
    value), also the first five letters of long words (`disabled`, `disabling`: `s+disab`) and the values a
    small change swaps (`_swaps`); measured left one ecosystem out, they help there, not on program code."""
    plus, plus_pairs = _words_and_pairs(added[:MAX_LINES])
    minus, minus_pairs = _words_and_pairs(removed[:MAX_LINES])
    found = {"+" + w for w in plus} | {"+" + p for p in plus_pairs}
    found |= {"-" + w for w in minus} | {"-" + p for p in minus_pairs}
    # counted: a token the change repeats (`check(a) && check(b)` made `check(a)`) is one taken away
    found |= {"d+" + w for w in plus - minus} | {"d-" + w for w in minus - plus}
    found |= {"D+" + p for p in plus_pairs - minus_pairs} | {"D-" + p for p in minus_pairs - plus_pairs}
    if settings:
        found |= {"s+" + w[:5] for w in plus if len(w) > 5} | {"s-" + w[:5] for w in minus if len(w) > 5}
        found |= _swaps(removed[:MAX_LINES], added[:MAX_LINES])
    found |= {"c" + w for line in context[:60] for w in tokens(line)}
    found |= {"p" + w for w in tokens(name)}
    found.add("new" if new_file else "edit")
    found.add("hasrem" if removed else "norem")
    return found


def _swaps(removed: list[str], added: list[str]) -> set[str]:
    """What a line's small change swaps, token for token, with the word before it (its key): `disabled no`
    made `disabled yes` is `x:no>yes` and `xk:disabled:no>yes`; a number made larger or smaller, `up` or
    `down` (`log_alert_level 3` made `15` is `xk:level:up`). Only lines changed in one or two places, paired
    in order where as many were removed as added."""
    found: set[str] = set()
    if not removed or len(removed) != len(added):
        return found
    for old_line, new_line in zip(removed[:8], added[:8], strict=True):
        old, new = tokens(old_line), tokens(new_line)
        if len(old) != len(new) or not old:
            continue
        changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
        if not 0 < len(changed) <= 2:
            continue
        for i in changed:
            a, b = old[i], new[i]
            numbers = a.isdigit() and b.isdigit()
            swap = ("up" if int(b) > int(a) else "down") if numbers else f"{a}>{b}"
            found.add("x:" + swap)
            key = next((w for w in reversed(old[:i]) if w[:1].isalpha() and w != "str"), "")
            found.add(f"xk:{key}:{swap}")
    return found


def _words_and_pairs(lines: list[str]) -> tuple[Counter[str], Counter[str]]:
    words: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    for line in lines:
        found = tokens(line)
        words.update(found)
        pairs.update(f"{a} {b}" for a, b in pairwise(found))
    return words, pairs


def indices(found: set[str], bits: int) -> set[int]:
    """Feature names hashed into the model's `2**bits` weights (CRC-32, as the training script does)."""
    mask = (1 << bits) - 1
    return {zlib.crc32(f.encode()) & mask for f in found}


@dataclass(frozen=True, slots=True)
class Model:
    bits: int
    bias: float
    thresholds: dict[str, float]  # mode -> raw score (logit) above which an edit asks; chosen by training
    weights: array[float]  # float32, 2**bits of them

    def score(self, found: set[str]) -> float:
        weights = self.weights
        return self.bias + sum(weights[i] for i in indices(found, self.bits))


def load(path: str) -> Model:
    """Read a model file written by `training/train_code_edits.py`: magic, a JSON header, float32 weights."""
    with open(path, "rb") as handle:
        data = handle.read()
    if not data.startswith(MAGIC):
        raise ValueError(f"{path}: not a code-edit model")
    (length,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    header = json.loads(data[start : start + length])
    weights: array[float] = array("f")
    weights.frombytes(data[start + length :])
    if sys.byteorder != "little":
        weights.byteswap()
    bits = int(header["bits"])
    if len(weights) != 1 << bits:
        raise ValueError(f"{path}: {len(weights)} weights for {bits} bits")
    thresholds = {str(mode): float(value) for mode, value in header["thresholds"].items()}
    return Model(bits, float(header["bias"]), thresholds, weights)


MODEL_PATH = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "code_edits.bin")
_loaded: dict[str, Model] = {}
_lock = threading.Lock()


def loaded(path: str) -> Model:
    """The model file at `path`, read once (each learned reader keeps its own file)."""
    found = _loaded.get(path)
    if found is None:
        with _lock:
            found = _loaded.get(path)
            if found is None:
                found = _loaded[path] = load(path)
    return found


def model() -> Model:
    return loaded(MODEL_PATH)


def changed_lines(action: Action, current: str | None) -> tuple[list[str], list[str], list[str], bool]:
    """What a tool's Write, Edit or MultiEdit changes, as the models read it (and training reads it): the
    removed and added lines of every change, the first change's surroundings, and whether the file is new."""
    removed: list[str] = []
    added: list[str] = []
    context: list[str] = []
    for before, after, lead in edits_of(action, current):
        gone, came, around = diff_parts(before, after)
        removed += gone
        added += came
        context = context or lead + around  # the first change's surroundings
    new_file = not (current or "").strip() and isinstance(action.arguments.get("content"), str)
    return removed, added, context, new_file


def edits_of(action: Action, current: str | None) -> list[tuple[str, str, list[str]]]:
    """(before, after, lines before it) for each change a Write, Edit or MultiEdit makes: an edit's strings
    widened to whole lines of the file, a whole file compared with the one it replaces."""
    args = action.arguments
    content = args.get("content")
    if isinstance(content, str):
        return [(current or "", content, [])]
    given = [(args.get("old_string"), args.get("new_string"))]
    if isinstance(edits := args.get("edits"), list):
        given += [(e.get("old_string"), e.get("new_string")) for e in edits if isinstance(e, dict)]
    found: list[tuple[str, str, list[str]]] = []
    for old, new in given:
        if not isinstance(old, str) or not isinstance(new, str):
            continue
        at = current.find(old) if current and old else -1
        lead: list[str] = []
        if current and at >= 0:
            start, end = current.rfind("\n", 0, at) + 1, current.find("\n", at + len(old))
            end = len(current) if end < 0 else end
            head, tail = current[start:at], current[at + len(old) : end]
            old, new = head + old + tail, head + new + tail
            lead = current[:start].splitlines()[-CONTEXT_LINES:]
        found.append((old, new, lead))
    return found


def is_program(path: str) -> bool:
    """A file of program code (by its extension): the code reader's; any other file the configuration
    reader's (`command_lines.configures`)."""
    from limen.facts.paths import PROGRAMS

    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return dot > 0 and name[dot:].lower() in PROGRAMS


Change = tuple[str, list[str], list[str], list[str], bool]  # path, removed, added, context, new file


def changes(action: Action) -> list[Change]:
    """What a call changes in files, as the readers read it: a tool's Write or Edit of one file, or each
    file a shell line edits in place or prints into (`sed -i`, `perl -pi`, `echo 'k=v' >> f`), compared
    with the file as it is. The same change made by a tool and by a shell line is read alike."""
    from limen.rules.written import current_text, line_edits

    if action.commands:
        return [(path, *diff_parts(before, after), False) for path, before, after in line_edits(action)]
    if len(action.write_paths) != 1:
        return []
    path = action.write_paths[0]
    removed, added, context, new_file = changed_lines(action, current_text(path))
    return [(path, removed, added, context, new_file)] if added or removed else []


def suspect_code_change(action: Action, ctx: Context) -> Iterable[Finding]:
    """A change to a program file, a tool's or a shell line's, that the learned reader scores above the
    mode's threshold."""
    if os.environ.get("LIMEN_CODE_MODEL") == "0":
        return []
    if not action.write_paths or not any(is_program(p) for p in action.write_paths):
        return []
    learned = model()
    threshold = learned.thresholds.get(action.mode.value)
    if threshold is None:  # light: the model is not consulted
        return []
    for path, removed, added, context, new_file in changes(action):
        if not is_program(path):
            continue
        score = learned.score(features(removed, added, context, path.rsplit("/", 1)[-1], new_file))
        if score > threshold:
            detail = (
                f"the change reads like one that weakens the code's security (learned, score {score:.1f}):"
                f" {path}"
            )
            return [Finding(ReasonCode.SUSPECT_CODE_CHANGE, Verdict.AUTH, RISK, detail)]
    return []


DETECTORS = (suspect_code_change,)
