"""The subjective layer: soft detectors that can only raise a verdict, never lower one.

A detector is a function `(action, ctx) -> Iterable[Finding]`. The engine runs them only when the
objective rules passed, clamps any BLOCK they return to AUTH (unless the code is on the hard-block
allowlist), and turns an exception into AUTH (`subjective_guardrail_error`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable

from limen.context import Context
from limen.model import Action, Finding

Detector = Callable[[Action, Context], Iterable[Finding]]

BUILTIN_MODULES: tuple[str, ...] = (
    "limen.subjective.token_channels",
    "limen.subjective.baseline",
    "limen.subjective.code_edits",
    "limen.subjective.command_lines",
)

_detectors: tuple[Detector, ...] | None = None


def detectors() -> tuple[Detector, ...]:
    global _detectors
    if _detectors is None:
        found: list[Detector] = []
        for module in BUILTIN_MODULES:
            found.extend(importlib.import_module(module).DETECTORS)
        _detectors = tuple(found)
    return _detectors
