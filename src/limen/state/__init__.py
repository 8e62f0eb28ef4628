"""Session state: what one agent run has seen, kept where the next call (maybe another process) finds it.

A session holds its taint (keyed fingerprints of secrets it read, with their lengths, never the values),
provenance flags and value labels (fingerprints of values the user's prompt, clean output, untrusted output or
injected content supplied), its recent decision history, the texts of files it wrote that the disk here does
not show (an agent whose files live elsewhere: a container, a remote workspace, a replayed session), its rate
window (when its recent calls came), and a halt flag. Stores: `MemoryStore` (one process, the SDK),
`SqliteStore` (default; hooks are one process per call) and `RedisStore` (shared by the replicas of `limen
serve`). Tool pins live in the same store.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

# Session flags.
UNTRUSTED = "untrusted"  # content from an untrusted source came in
INJECTED = "injected"  # content carrying injected instructions came in
TAINTED = "tainted"  # a secret (or a secret file) was read
HALTED = "halted"  # the session is stopped: every further call is denied
BROAD = "broad"  # a broad read or archive happened (the correlator then keeps shell commands)
STATE_LOST = "state_lost"  # the stored state was lost: counts as tainted until a person clears it
WROTE_UNSEEN = "wrote_unseen"  # the session wrote a file whose text this machine's disk does not show

# Value labels, in order of how much they are trusted.
TRUSTED = "trusted"  # the user's prompt
FETCHED = "fetched"  # a value label: the path of a file (or a clone's folder) the session fetched
FETCHED_INSTALLER = "fetched_installer"  # the same for an official installer fetched from its own host

HISTORY_LIMIT = 64
FILES_LIMIT = 16  # files a session remembers having written (`remember_file`); the oldest go first


class SessionStore(Protocol):
    """Where sessions and tool pins live. Every method is one short transaction."""

    def flags(self, session_id: str) -> frozenset[str]: ...

    def set_flags(self, session_id: str, flags: Iterable[str]) -> None: ...

    def taint(self, session_id: str) -> dict[str, int]: ...

    def add_taint(self, session_id: str, fingerprints: Mapping[str, int]) -> None: ...

    def add_values(self, session_id: str, label: str, fingerprints: Iterable[str]) -> None: ...

    def value_labels(self, session_id: str, fingerprints: Sequence[str]) -> dict[str, set[str]]: ...

    def append_history(self, session_id: str, entry: Mapping[str, Any]) -> None: ...

    def history(self, session_id: str, limit: int = HISTORY_LIMIT) -> list[dict[str, Any]]: ...

    def remember_file(self, session_id: str, path: str, text: str) -> None:
        """Keep the text the session wrote to `path` (a later write replaces it; beyond `FILES_LIMIT` files
        the oldest is forgotten)."""
        ...

    def files(self, session_id: str) -> dict[str, tuple[str, float]]:
        """The texts `remember_file` kept, by path, each with when it was kept (epoch seconds)."""
        ...

    def count_call(self, session_id: str, window: float) -> int:
        """Record one call now; return this session's calls within the last `window` seconds (it included)."""
        ...

    def count_call_and_flags(self, session_id: str, window: float) -> tuple[int, frozenset[str]]:
        """`count_call` and then `flags`, in one round trip where the store can (each decision needs both)."""
        ...

    def clear(self, session_id: str, *, taint_only: bool) -> None:
        """Forget the session's taint (or everything); a person did it, so a lost state no longer counts."""
        ...

    def state_lost(self) -> str:
        """When and why the stored state was lost, in one line; `` when it was not (or was acknowledged)."""
        ...

    def acknowledge_state_loss(self) -> None:
        """A person accepts the loss: sessions are judged by what the store holds from now on."""
        ...

    def sessions(self) -> list[str]: ...

    def get_pin(self, key: str) -> tuple[str, str | None] | None: ...

    def set_pin(self, key: str, fingerprint: str, pending: str | None) -> None: ...

    def pending_pins(self) -> list[str]: ...

    def close(self) -> None: ...


def open_store(path: str | None = None) -> SessionStore:
    """The store `path` names: a `redis://` (or `rediss://`, `unix://`) URL opens the shared Redis store
    (`limen.state.redis`), anything else SQLite at that file. Without `path`, `LIMEN_STATE_URL` when set,
    else the default, SQLite at `LIMEN_HOME/state.sqlite`."""
    import os

    from limen.home import limen_home

    where = path or os.environ.get("LIMEN_STATE_URL") or ""
    if where.startswith(("redis://", "rediss://", "unix://")):
        from limen.state.redis import RedisStore

        return RedisStore(where)
    from limen.state.sqlite import SqliteStore

    return SqliteStore(where or os.path.join(limen_home(), "state.sqlite"))
