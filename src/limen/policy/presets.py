"""Modes as presets: what `light | balanced | strict | paranoid` set before the file refines them."""

from __future__ import annotations

from dataclasses import dataclass

from limen.context import BULK_THRESHOLDS, DEFAULT_TRUSTED_HOSTS, MODE_THRESHOLDS
from limen.model import Mode

MODE_RANK = {Mode.LIGHT: 0, Mode.BALANCED: 1, Mode.STRICT: 2, Mode.PARANOID: 3}


@dataclass(slots=True, frozen=True)
class Preset:
    ask: int
    strong: int
    deny: int
    bulk_threshold: int
    trusted_hosts: tuple[str, ...]


def preset(mode: Mode) -> Preset:
    """The built-in values of a mode (the same tables `Context.for_mode` uses)."""
    t = MODE_THRESHOLDS[mode]
    return Preset(t.ask, t.strong, t.deny, BULK_THRESHOLDS[mode], DEFAULT_TRUSTED_HOSTS)


def stricter(a: Mode, b: Mode) -> Mode:
    return a if MODE_RANK[a] >= MODE_RANK[b] else b
