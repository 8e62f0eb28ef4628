"""Every reason code's examples, walked: `tests/rules/examples/<code>.yaml` lists calls the code must flag
(with the least verdict it must reach) and look-alikes it must leave quiet, as Bandit's examples and ruff's
per-code fixtures do. A file names its code; the examples are decided by the whole engine (no policy file,
no session), in balanced mode unless an example says otherwise, from a small project checkout.

    code: destructive_command
    flagged:
      - {tool: Bash, args: {command: "terraform destroy -auto-approve"}, verdict: BLOCK}
    quiet:
      - {tool: Bash, args: {command: "terraform plan"}}

`setup` (optional, per example) maps relative paths to file contents written into the checkout first;
`{workspace}` in any string is the checkout's path.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml

import limen
from limen.context import Context
from limen.model import Mode, ReasonCode, Verdict

EXAMPLES = Path(__file__).parent / "examples"


def _load() -> list[tuple[str, str, int, dict[str, Any]]]:
    cases = []
    for path in sorted(EXAMPLES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        assert data["code"] == path.stem, f"{path.name} names {data['code']}"
        ReasonCode(data["code"])  # a code the catalogue knows
        for kind in ("flagged", "quiet"):
            for i, example in enumerate(data.get(kind) or []):
                cases.append((data["code"], kind, i, example))
    return cases


CASES = _load()


def _fill(value: Any, workspace: str) -> Any:
    if isinstance(value, str):
        return value.replace("{workspace}", workspace)
    if isinstance(value, dict):
        return {k: _fill(v, workspace) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, workspace) for v in value]
    return value


def test_every_code_with_a_rule_module_has_examples() -> None:
    """The files cover real codes, and each has both sides: what it flags and what it leaves quiet."""
    for path in EXAMPLES.glob("*.yaml"):
        data = yaml.safe_load(path.read_text())
        assert data.get("flagged") and data.get("quiet"), path.name


@pytest.mark.parametrize(
    ("code", "kind", "index", "example"), CASES, ids=[f"{c}-{k}-{i}" for c, k, i, _ in CASES]
)
def test_example(code: str, kind: str, index: int, example: dict[str, Any], workspace: str) -> None:
    for relative, content in (example.get("setup") or {}).items():
        target = os.path.join(workspace, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w") as handle:
            handle.write(content)
    mode = Mode(example.get("mode", "balanced"))
    ctx = Context.for_mode(mode, workspace)
    decision = limen.evaluate(example["tool"], _fill(example["args"], workspace), cwd=workspace, context=ctx)
    reasons = {r.value for r in decision.reasons}
    if kind == "flagged":
        assert code in reasons, (example, decision.explanation)
        least = Verdict[example.get("verdict", "AUTH")]
        assert decision.verdict >= least, (example, decision.explanation)
    else:
        assert code not in reasons, (example, decision.explanation)
