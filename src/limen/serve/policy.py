"""Central policy for a fleet of `limen serve` replicas: the organisation policy from one place.

`policy:` in serve.yaml (or `limen serve --policy`) names where it lives:

- a file path (a shared mount, a file a deployment tool writes): every replica reads it as its
  organisation-level policy (`LIMEN_ORG_POLICY`);
- a PostgreSQL database: `limen serve policy publish FILE` appends a version to the append-only table
  `limen_policy`; each replica follows the latest version (`PolicyFollower`: checked every few seconds,
  written atomically to `LIMEN_HOME/serve/org-policy.yaml`, which is then its `LIMEN_ORG_POLICY`).

Either way the policy loader (`limen.policy.load_context`) notices the changed file on the next decision,
so a change needs no restart, and it goes through the drift gate (`limen.policy.drift`) as any edit of a
policy file does: a tightening applies at once; a loosening is refused (the approved policy applies, with
the edit's tightenings) until a person approves it with the possession factor (`limen serve policy
propose`, then `approve ID`: the `limen policy` commands on the file the replicas apply, run with their
LIMEN_HOME, whose `drift/` ledger they share as they share `keys/`). Nothing here decides: it only
moves a policy file to where the loader reads it.

Fail closed: a database that cannot be reached keeps the last version written; a replica that never got
one has no organisation file where `LIMEN_ORG_POLICY` points, which the loader refuses (every decision is
a BLOCK naming it, and `/readyz` says the policy cannot be loaded). A version that is not a valid policy
is refused when published, with its line and key; one that turns up in the table all the same is written
as it is, and the loader refuses it the same way.
"""

from __future__ import annotations

import hashlib
import os
import sys
import threading
from typing import TYPE_CHECKING, Any

from limen.audit.postgres import append_only
from limen.home import limen_home

if TYPE_CHECKING:
    import psycopg

TABLE = "limen_policy"
FOLLOW_SECONDS = 2.0  # how often a replica asks the database for a newer version
MAX_POLICY_BYTES = 1 << 20

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    version BIGSERIAL PRIMARY KEY,
    published_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    published_by TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    text TEXT NOT NULL
);
""" + append_only(TABLE, "policy versions are")


class CentralPolicyError(Exception):
    """A policy that cannot be published (each problem with its line and key), or a database refusal."""


def materialised_path() -> str:
    """Where a replica following the database keeps the current version (its `LIMEN_ORG_POLICY`)."""
    return os.path.join(limen_home(), "serve", "org-policy.yaml")


def org_policy_file(source: str) -> str:
    """The file the replicas' loader reads for `policy:` (a path as it is; a database's local copy)."""
    from limen.audit.postgres import is_dsn

    return materialised_path() if is_dsn(source) else os.path.abspath(os.path.expanduser(source))


def _connect(dsn: str) -> psycopg.Connection[Any]:
    from limen.audit.postgres import connect

    conn = connect(dsn)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (0x4C504F4C,))  # "LPOL": replicas create it once
        conn.execute(_SCHEMA)
    return conn


def check(text: str, name: str) -> None:
    """Refuse text that is not a valid organisation policy, naming each problem's line and key."""
    from limen.policy.loader import parse_yaml, validate

    if len(text.encode()) > MAX_POLICY_BYTES:
        raise CentralPolicyError(f"{name}: larger than {MAX_POLICY_BYTES} bytes")
    data, lines, problems = parse_yaml(text, name)
    if not problems:
        _, problems = validate(data, lines, name, "org")
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise CentralPolicyError("\n".join(str(p) for p in errors))


def publish(dsn: str, text: str, *, name: str, by: str) -> int:
    """Append `text` as the newest version (after checking it); its version number."""
    check(text, name)
    digest = hashlib.sha256(text.encode()).hexdigest()
    with _connect(dsn) as conn:
        row = conn.execute(
            f"INSERT INTO {TABLE} (published_by, sha256, text) VALUES (%s, %s, %s) RETURNING version",
            (by[:200], digest, text),
        ).fetchone()
    assert row is not None
    return int(row[0])


def latest(dsn: str) -> tuple[int, str] | None:
    """The newest version and its text, or None when nothing was published."""
    with _connect(dsn) as conn:
        row = conn.execute(f"SELECT version, text FROM {TABLE} ORDER BY version DESC LIMIT 1").fetchone()
    return (int(row[0]), str(row[1])) if row else None


def versions(dsn: str) -> list[dict[str, Any]]:
    """Every version, oldest first, without its text."""
    with _connect(dsn) as conn:
        rows = conn.execute(
            f"SELECT version, published_at, published_by, sha256 FROM {TABLE} ORDER BY version"
        ).fetchall()
    return [
        {"version": int(v), "published_at": at.isoformat(), "published_by": str(by), "sha256": str(sha)}
        for v, at, by, sha in rows
    ]


def _write(path: str, text: str) -> None:
    """Replace the file in one step (the loader never reads half a policy): a new inode, so its stat
    fingerprint changes even within one clock tick."""
    from limen.install_ledger import write_atomically

    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    write_atomically(path, text.encode("utf-8"), 0o600)


class PolicyFollower:
    """Keeps `materialised_path()` at the newest version in the database, on a daemon thread."""

    def __init__(self, dsn: str, *, every: float = FOLLOW_SECONDS, path: str | None = None) -> None:
        self.dsn = dsn
        self.every = every
        self.path = path or materialised_path()
        self.version = 0
        self.problem = ""  # why the last check failed ("" when it worked)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._written = ""  # the digest of what the file holds (written by this follower)

    def refresh(self) -> bool:
        """Fetch the newest version and write it when it changed; False (and `problem`) on failure."""
        try:
            found = latest(self.dsn)
        except Exception as exc:  # the last version written stays in force
            problem = f"the central policy database cannot be read ({type(exc).__name__})"
            if problem != self.problem:
                print(f"limen serve: {problem}; the last version stays in force", file=sys.stderr)
            self.problem = problem
            return False
        if found is None:
            self.problem = "no policy has been published yet (limen serve policy publish FILE)"
            return False
        version, text = found
        digest = hashlib.sha256(text.encode()).hexdigest()
        if digest != self._written or not os.path.exists(self.path):
            _write(self.path, text)
            self._written = digest
        self.version, self.problem = version, ""
        return True

    def start(self) -> None:
        self.refresh()
        self._thread = threading.Thread(target=self._run, name="limen-policy", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.refresh()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
