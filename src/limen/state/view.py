"""One session as the floors see it (`limen.context.SessionView`), read lazily from a store.

A view lives for one decision: each query runs at most once, and only when a floor asks for it, so a call
that egresses nothing never loads the taint table.
"""

from __future__ import annotations

from typing import Any

from limen.scan import argument_values, secret_leaves
from limen.state import HALTED, INJECTED, TAINTED, TRUSTED, UNTRUSTED, SessionStore
from limen.state.keys import Fingerprinter


class StoredSession:
    def __init__(self, store: SessionStore, session_id: str, fingerprint: Fingerprinter) -> None:
        self.session_id = session_id
        self.store = store
        self._fingerprint = fingerprint
        self._flags: frozenset[str] | None = None
        self._taint: dict[str, int] | None = None
        self._recent: list[dict[str, Any]] | None = None

    @property
    def flags(self) -> frozenset[str]:
        if self._flags is None:
            self._flags = self.store.flags(self.session_id)
        return self._flags

    def _taint_map(self) -> dict[str, int]:
        if self._taint is None:
            self._taint = self.store.taint(self.session_id)
        return self._taint

    def is_tainted(self) -> bool:
        return TAINTED in self.flags or bool(self._taint_map())

    def matches_secret(self, value: str) -> bool:
        return secret_leaves([value], self._fingerprint, self._taint_map())

    def has_untrusted_content(self) -> bool:
        return bool(self.flags & {UNTRUSTED, INJECTED})

    def echo_source(self, values: list[str]) -> str:
        """`injected` or `untrusted` when an argument echoes a value only such content supplied, else ``."""
        if not self.has_untrusted_content():
            return ""
        fps = sorted({self._fingerprint(v) for v in argument_values(values)})
        labels = self.store.value_labels(self.session_id, fps)
        found = {label for seen in labels.values() if TRUSTED not in seen for label in seen}
        for label in (INJECTED, UNTRUSTED):
            if label in found:
                return label
        return ""

    def echoes_untrusted_value(self, values: list[str]) -> bool:
        return bool(self.echo_source(values))

    def is_halted(self) -> bool:
        return HALTED in self.flags

    def recent(self) -> list[dict[str, Any]]:
        if self._recent is None:
            self._recent = self.store.history(self.session_id)
        return self._recent
