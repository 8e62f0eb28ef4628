"""The drift gate: tightening applies at once, loosening waits for a human with a possession factor.

State lives under `~/.limen/drift/` (a protected path: an agent cannot write it):
- `factor.json`: the possession factor, a TOTP secret (pyotp) or a scrypt-hashed local password.
- `<workspace-id>/ledger.jsonl`: append-only, hash-chained entries (who, when, kind, diff, fingerprint and
  the approved effective policy). The last entry is the approved policy.
- `<workspace-id>/pending/<id>.json`: proposed loosenings waiting for approval.

When the files on disk loosen the last approved policy, the loader applies the approved policy together
with the edit's tightenings (each value the stricter of the two) and says why in every decision's trail,
until `limen policy approve`. With no ledger yet, the approved policy is
the built-in default, so a first file can tighten freely but not loosen without approval.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import getpass
import hashlib
import hmac
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from limen.policy.paths import drift_root, ledger_path, workspace_dir
from limen.policy.tightness import loosenings

__all__ = [
    "DriftError",
    "approve",
    "approved",
    "gate",
    "history",
    "ledger_path",
    "loosenings",
    "pending",
    "propose",
]

Effective = dict[str, Any]
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


class DriftError(Exception):
    """A drift-gate operation that cannot proceed (bad code, nothing pending, tampered ledger)."""


def _canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _write_private(path: str, data: Any) -> None:
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        json.dump(data, fh, sort_keys=True)
    os.replace(tmp, path)


# --- ledger ---------------------------------------------------------------------------------------


def history(workspace: str) -> list[dict[str, Any]]:
    """Every ledger entry, oldest first. Raises DriftError if the hash chain does not verify."""
    try:
        with open(ledger_path(workspace), encoding="utf-8") as fh:
            lines = [line for line in fh if line.strip()]
    except FileNotFoundError:
        return []
    entries = []
    prev = ""
    for n, line in enumerate(lines, 1):
        try:
            entry = json.loads(line)
            body = {k: v for k, v in entry.items() if k != "hash"}
        except (ValueError, AttributeError) as exc:
            raise DriftError(f"ledger line {n} is not a JSON object") from exc
        if body.get("prev") != prev or entry.get("hash") != hashlib.sha256(_canonical(body)).hexdigest():
            raise DriftError(f"ledger line {n} breaks the hash chain")
        prev = entry["hash"]
        entries.append(entry)
    return entries


@contextlib.contextmanager
def _locked(workspace: str) -> Iterator[None]:
    directory = workspace_dir(workspace)
    os.makedirs(directory, mode=0o700, exist_ok=True)
    with open(os.path.join(directory, ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _append(
    workspace: str, kind: str, eff: Effective, fingerprint: str, diff: list[str], factor: str | None
) -> dict[str, Any]:
    """Append one entry (caller holds the lock)."""
    entries = history(workspace)
    body = {
        "seq": len(entries) + 1,
        "at": _now(),
        "who": _who(),
        "kind": kind,
        "factor": factor,
        "fingerprint": fingerprint,
        "diff": diff,
        "policy": eff,
        "prev": entries[-1]["hash"] if entries else "",
    }
    entry = {**body, "hash": hashlib.sha256(_canonical(body)).hexdigest()}
    fd = os.open(ledger_path(workspace), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, sort_keys=True) + "\n")
    return entry


def _who() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return f"uid:{os.getuid()}"


def approved(workspace: str, default: Effective) -> tuple[Effective, str]:
    """The last approved effective policy (or `default` when nothing was approved yet) and a note."""
    try:
        entries = history(workspace)
    except DriftError as exc:
        return default, f"the drift ledger is damaged ({exc}); the built-in defaults are the approved policy"
    except OSError as exc:
        return default, f"the drift ledger cannot be read ({type(exc).__name__}); the built-in defaults apply"
    return (entries[-1]["policy"], "") if entries else (default, "")


# --- the gate -------------------------------------------------------------------------------------


@dataclass(slots=True, frozen=True)
class GateResult:
    policy: Effective  # what applies
    notes: tuple[str, ...]  # why something else than the files applies
    pending: tuple[str, ...]  # the loosenings waiting for approval


def gate(workspace: str, current: Effective, current_fp: str, default: Effective) -> GateResult:
    """Apply the files when they only tighten (recording it), else keep the approved policy."""
    from limen.policy.effective import fingerprint, stricter_of

    base, note = approved(workspace, default)
    if fingerprint(base) == current_fp:
        return GateResult(current, (note,) if note else (), ())
    diff = loosenings(base, current)
    if not diff:
        if not note:
            _record_tightening(workspace, base, current, current_fp)
        return GateResult(current, (note,) if note else (), ())
    why = (
        "the policy files loosen the approved policy ("
        + "; ".join(diff[:3])
        + (f"; +{len(diff) - 3} more" if len(diff) > 3 else "")
        + "): the loosening waits for `limen policy propose` and `limen policy approve`; "
        "the approved policy applies together with the edit's tightenings"
    )
    return GateResult(stricter_of(base, current), tuple(n for n in (note, why) if n), tuple(diff))


def _record_tightening(workspace: str, base: Effective, current: Effective, current_fp: str) -> None:
    """Make a tightening the new approved policy, so undoing it later needs approval. A store that
    cannot be written does not stop the tightening from applying."""
    try:
        with _locked(workspace):
            last = history(workspace)
            if not last or last[-1]["fingerprint"] != current_fp:
                _append(workspace, "tighten", current, current_fp, changes(base, current), None)
    except (OSError, DriftError):
        return


def changes(a: Effective, p: Effective) -> list[str]:
    """A short description of what changed at the top level (for tightenings in the ledger)."""
    return [f"{k} changed" for k in sorted(set(a) | set(p)) if a.get(k) != p.get(k)]


# --- pending changes and approval -----------------------------------------------------------------


def _pending_dir(workspace: str) -> str:
    return os.path.join(workspace_dir(workspace), "pending")


def propose(workspace: str, current: Effective, current_fp: str, default: Effective) -> dict[str, Any]:
    """Record the files' loosening as a pending change (the id is a prefix of its fingerprint)."""
    base, _ = approved(workspace, default)
    diff = loosenings(base, current)
    if not diff:
        raise DriftError("nothing to approve: the policy files do not loosen the approved policy")
    record = {
        "id": current_fp[:12],
        "at": _now(),
        "who": _who(),
        "fingerprint": current_fp,
        "diff": diff,
    }
    _write_private(os.path.join(_pending_dir(workspace), f"{record['id']}.json"), record)
    return record


def pending(workspace: str) -> list[dict[str, Any]]:
    try:
        names = sorted(os.listdir(_pending_dir(workspace)))
        out = []
        for name in names:
            if name.endswith(".json"):
                with open(os.path.join(_pending_dir(workspace), name), encoding="utf-8") as fh:
                    out.append(json.load(fh))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        raise DriftError(f"the pending changes cannot be read ({type(exc).__name__})") from exc
    return out


def approve(
    workspace: str,
    change_id: str,
    *,
    current: Effective,
    current_fp: str,
    default: Effective,
    code: str | None = None,
    password: str | None = None,
) -> dict[str, Any]:
    """Approve a pending change with the possession factor. What is recorded is the files' policy as it
    is now (it must still be the one proposed) and its diff against the approved policy as it is now."""
    by_id = {r.get("id"): r for r in pending(workspace)}
    record = by_id.get(change_id) if change_id.isalnum() else None
    if record is None:
        raise DriftError(f"no pending change {change_id!r}")
    if record.get("fingerprint") != current_fp:
        raise DriftError("the policy files changed after this proposal; propose again")
    base, _ = approved(workspace, default)
    diff = loosenings(base, current)
    factor = verify_factor(code=code, password=password)
    with _locked(workspace):
        entry = _append(workspace, "approve", current, current_fp, diff, factor)
    os.unlink(os.path.join(_pending_dir(workspace), f"{change_id}.json"))
    return entry


# --- possession factor ----------------------------------------------------------------------------


def _factor_path() -> str:
    return os.path.join(drift_root(), "factor.json")


def setup_totp() -> str:
    """Create a TOTP secret (replacing any factor) and return its provisioning URI."""
    import pyotp

    secret = pyotp.random_base32()
    _write_private(_factor_path(), {"kind": "totp", "secret": secret, "last_step": 0})
    return str(pyotp.TOTP(secret).provisioning_uri(name=_who(), issuer_name="Limen policy"))


def setup_password(password: str) -> None:
    if len(password) < 8:
        raise DriftError("the approval password needs at least 8 characters")
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, **_SCRYPT)
    _write_private(
        _factor_path(),
        {
            "kind": "password",
            "salt": base64.b64encode(salt).decode(),
            "hash": base64.b64encode(digest).decode(),
            **_SCRYPT,
        },
    )


def _load_factor() -> dict[str, Any]:
    try:
        with open(_factor_path(), encoding="utf-8") as fh:
            data: dict[str, Any] = json.load(fh)
    except FileNotFoundError as exc:
        raise DriftError("no possession factor: run `limen policy factor totp` or `... password`") from exc
    return data


def verify_factor(*, code: str | None, password: str | None) -> str:
    """Check the TOTP code (single use) or the password; raise DriftError when it does not verify."""
    import pyotp

    factor = _load_factor()
    if factor["kind"] == "totp":
        if not code or not code.isdigit():
            raise DriftError("a TOTP code is required")
        totp = pyotp.TOTP(factor["secret"])
        now = time.time()
        for drift in (0, -1, 1):
            at = now + drift * totp.interval
            step = int(at // totp.interval)
            if step > factor["last_step"] and hmac.compare_digest(totp.at(at), code):
                _write_private(_factor_path(), {**factor, "last_step": step})
                return "totp"
        raise DriftError("the TOTP code does not verify (or was already used)")
    if factor["kind"] == "password":
        if not password:
            raise DriftError("the approval password is required")
        params = {k: int(factor[k]) for k in ("n", "r", "p")}
        digest = hashlib.scrypt(password.encode(), salt=base64.b64decode(factor["salt"]), **params)
        if not hmac.compare_digest(digest, base64.b64decode(factor["hash"])):
            raise DriftError("the password does not verify")
        return "password"
    raise DriftError("unknown possession factor kind")


def has_factor() -> bool:
    return os.path.exists(_factor_path())
