"""One session as the floors see it (`limen.context.SessionView`), read lazily from a store.

A view lives for one decision: each query runs at most once, and only when a floor asks for it, so a call
that egresses nothing never loads the taint table.

Where a value came from (`value_origin`): the user's prompt (`user`) if the user named it, since an
injection that repeats the user's own recipient does not make it the attacker's; otherwise the least
trusted content that supplied it: records carrying injected instructions (`injected`), untrusted content
that screened clean (`untrusted`), clean tool output (`clean`). Least trusted, because clean output can
repeat what the agent itself typed: a contact lookup for an address an injection supplied echoes it back.
"""

from __future__ import annotations

from typing import Any

from limen.scan import CLEAN, argument_values, destination_key, secret_leaves
from limen.state import (
    FETCHED,
    FETCHED_INSTALLER,
    HALTED,
    INJECTED,
    TAINTED,
    TRUSTED,
    UNTRUSTED,
    SessionStore,
)
from limen.state.keys import Fingerprinter

_VOUCHED = frozenset({TRUSTED, CLEAN})
_UNTRUSTED_CONTENT = frozenset({UNTRUSTED, INJECTED})
_ORIGINS = ((TRUSTED, "user"), (INJECTED, "injected"), (UNTRUSTED, "untrusted"), (CLEAN, "clean"))


class StoredSession:
    def __init__(self, store: SessionStore, session_id: str, fingerprint: Fingerprinter) -> None:
        self.session_id = session_id
        self.store = store
        self._fingerprint = fingerprint
        self._flags: frozenset[str] | None = None
        self._taint: dict[str, int] | None = None
        self._recent: list[dict[str, Any]] | None = None
        self.calls_in_window = 0  # set by the runtime when the mode has a rate window

    def count_call(self, window: float) -> None:
        """Record this call in the session's rate window (`calls_in_window`), reading its flags in the same
        round trip to the store."""
        self.calls_in_window, self._flags = self.store.count_call_and_flags(self.session_id, window)

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
        """Whether the session read a secret: its flag, which is set before any fingerprint is stored
        (`limen.scan.apply_scan`), so the common untainted call costs no read of the fingerprints."""
        return TAINTED in self.flags

    def matches_secret(self, value: str) -> bool:
        return secret_leaves([value], self._fingerprint, self._taint_map())

    def has_untrusted_content(self) -> bool:
        return not self.flags.isdisjoint(_UNTRUSTED_CONTENT)

    def took_in_injection(self) -> bool:
        return INJECTED in self.flags

    def echo_source(self, values: list[str]) -> str:
        """`injected` or `untrusted` when an argument echoes a value only such content supplied, else ``."""
        if not self.has_untrusted_content():
            return ""
        fps = sorted({self._fingerprint(v) for v in argument_values(values)})
        labels = self.store.value_labels(self.session_id, fps)
        found = {label for seen in labels.values() if not seen & _VOUCHED for label in seen}
        for label in (INJECTED, UNTRUSTED):
            if label in found:
                return label
        return ""

    def value_origin(self, value: str) -> str:
        """Where this session learnt an email address or host name: `user`, `clean`, `untrusted`, `injected`
        or `` (never seen, or not an address or host name)."""
        key = destination_key(value)
        if not key:
            return ""
        fp = self._fingerprint(key)
        seen = self.store.value_labels(self.session_id, [fp]).get(fp, set())
        return next((origin for label, origin in _ORIGINS if label in seen), "")

    def fetched(self, path: str) -> str:
        """How this session got the file at `path`: "file" when an earlier call downloaded that very file
        ("installer" when that was an official installer from its own host), "folder" when it lies in a
        folder an earlier call cloned, "" otherwise (`FETCHED` labels)."""
        candidates = [path]
        parent = path
        for _ in range(8):  # the folders above it, up to a bound
            parent = parent.rpartition("/")[0]
            if not parent:
                break
            candidates.append(parent)
        fps = [self._fingerprint(c) for c in candidates]
        labels = self.store.value_labels(self.session_id, fps)
        own = labels.get(fps[0], set())
        if FETCHED in own:
            return "file"
        if FETCHED_INSTALLER in own:
            return "installer"
        return "folder" if any(FETCHED in labels.get(fp, set()) for fp in fps[1:]) else ""

    def remember_fetched(self, paths: list[str], *, installer: bool) -> None:
        """Record files or folders this call downloaded or cloned, so that `fetched` finds them later;
        `installer` when the download was an official installer from its own host."""
        label = FETCHED_INSTALLER if installer else FETCHED
        self.store.add_values(self.session_id, label, {self._fingerprint(p) for p in paths})

    def echoes_untrusted_value(self, values: list[str]) -> bool:
        return bool(self.echo_source(values))

    def is_halted(self) -> bool:
        return HALTED in self.flags

    def recent(self) -> list[dict[str, Any]]:
        if self._recent is None:
            self._recent = self.store.history(self.session_id)
        return self._recent
