"""In-process session store for the SDK: the same contract as SQLite, gone when the process ends."""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from limen.state import FILES_LIMIT, HISTORY_LIMIT, TAINTED


class MemoryStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flags: dict[str, set[str]] = defaultdict(set)
        self._taint: dict[str, dict[str, int]] = defaultdict(dict)
        self._values: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self._history: dict[str, deque[dict[str, Any]]] = defaultdict(lambda: deque(maxlen=HISTORY_LIMIT))
        self._pins: dict[str, tuple[str, str | None]] = {}
        self._calls: dict[str, tuple[float, int]] = {}  # session -> (window start, calls in it)
        self._files: dict[str, dict[str, tuple[str, float]]] = defaultdict(dict)

    def flags(self, session_id: str) -> frozenset[str]:
        with self._lock:
            return frozenset(self._flags.get(session_id, ()))

    def set_flags(self, session_id: str, flags: Iterable[str]) -> None:
        with self._lock:
            self._flags[session_id].update(flags)

    def taint(self, session_id: str) -> dict[str, int]:
        with self._lock:
            return dict(self._taint.get(session_id, {}))

    def add_taint(self, session_id: str, fingerprints: Mapping[str, int]) -> None:
        with self._lock:
            self._taint[session_id].update(fingerprints)

    def add_values(self, session_id: str, label: str, fingerprints: Iterable[str]) -> None:
        with self._lock:
            values = self._values[session_id]
            for fp in fingerprints:
                values[fp].add(label)

    def value_labels(self, session_id: str, fingerprints: Sequence[str]) -> dict[str, set[str]]:
        with self._lock:
            values = self._values.get(session_id, {})
            return {fp: set(values[fp]) for fp in fingerprints if fp in values}

    def append_history(self, session_id: str, entry: Mapping[str, Any]) -> None:
        with self._lock:
            self._history[session_id].append(dict(entry))

    def history(self, session_id: str, limit: int = HISTORY_LIMIT) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._history.get(session_id, ()))[-limit:]

    def remember_file(self, session_id: str, path: str, text: str) -> None:
        with self._lock:
            files = self._files[session_id]
            files.pop(path, None)  # insertion order is age: a rewritten file is the newest
            files[path] = (text, time.time())
            while len(files) > FILES_LIMIT:
                del files[next(iter(files))]

    def files(self, session_id: str) -> dict[str, tuple[str, float]]:
        with self._lock:
            return dict(self._files.get(session_id, {}))

    def count_call(self, session_id: str, window: float) -> int:
        now = time.monotonic()
        with self._lock:
            start, count = self._calls.get(session_id, (now, 0))
            start, count = (start, count + 1) if start > now - window else (now, 1)
            self._calls[session_id] = (start, count)
            return count

    def count_call_and_flags(self, session_id: str, window: float) -> tuple[int, frozenset[str]]:
        return self.count_call(session_id, window), self.flags(session_id)

    def clear(self, session_id: str, *, taint_only: bool) -> None:
        with self._lock:
            self._taint.pop(session_id, None)
            self._flags.get(session_id, set()).discard(TAINTED)
            if not taint_only:
                for table in (self._flags, self._values, self._history, self._calls, self._files):
                    table.pop(session_id, None)

    def state_lost(self) -> str:
        return ""  # nothing outlives the process, so nothing can be lost

    def acknowledge_state_loss(self) -> None:
        return None

    def sessions(self) -> list[str]:
        with self._lock:
            return sorted(set(self._flags) | set(self._taint) | set(self._history))

    def get_pin(self, key: str) -> tuple[str, str | None] | None:
        with self._lock:
            return self._pins.get(key)

    def set_pin(self, key: str, fingerprint: str, pending: str | None) -> None:
        with self._lock:
            self._pins[key] = (fingerprint, pending)

    def pending_pins(self) -> list[str]:
        with self._lock:
            return sorted(k for k, (_, pending) in self._pins.items() if pending is not None)

    def close(self) -> None:
        return None
