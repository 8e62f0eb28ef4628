"""What `limen install` changed in each file, kept so that `limen uninstall` can give the file back.

One record per file, keyed by its real path, in `<LIMEN_HOME>/install/`: the file's bytes before Limen
first wrote it (or that it did not exist), the SHA-256 of what Limen last wrote, and which installs own a
part of it with what each added. A hook file has one owner; Codex's config.toml and Gemini CLI's
trustedFolders.json collect the trust entries of every project installed, so one uninstall must not take
another's entries with it.

Uninstall restores the original bytes (or deletes the file, and the folders install created for it) only
when the file is exactly what Limen last wrote and no other install still owns a part of it. Otherwise the
caller removes only Limen's part, keeping the file's formatting, and says why it could not do more. The
records hold copies of settings files, which may carry credentials: they are readable by the user only.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from typing import Any

from limen.home import limen_home


@dataclass(slots=True)
class Record:
    """One file as it was before Limen wrote it, and what Limen did to it since."""

    path: str  # the real path
    original: bytes | None  # None: the file did not exist
    exact: bool  # False: the original held Limen's entries too, or the file changed under Limen since
    written: str  # digest of the bytes Limen last wrote
    owners: dict[str, list[Any]] = field(default_factory=dict)  # install -> what it added
    created: list[str] = field(default_factory=list)  # folders created for the file, deepest first


def digest(data: bytes | None) -> str:
    return "absent" if data is None else hashlib.sha256(data).hexdigest()


def read_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


def _record_path(path: str) -> str:
    key = hashlib.sha256(os.path.realpath(path).encode()).hexdigest()[:32]
    return os.path.join(limen_home(), "install", f"{key}.json")


def load(path: str) -> Record | None:
    try:
        with open(_record_path(path), encoding="utf-8") as handle:
            data = json.load(handle)
        original = data["original"]
        return Record(
            data["path"],
            None if original is None else base64.b64decode(original),
            bool(data["exact"]),
            str(data["written"]),
            dict(data["owners"]),
            list(data["created"]),
        )
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{_record_path(path)}: unreadable install record ({exc})") from None


def _save(record: Record) -> None:
    data = {
        "path": record.path,
        "original": None if record.original is None else base64.b64encode(record.original).decode(),
        "exact": record.exact,
        "written": record.written,
        "owners": record.owners,
        "created": record.created,
    }
    target = _record_path(record.path)
    os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
    write_atomically(target, json.dumps(data, indent=1).encode(), new_mode=0o600)


def _drop(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(_record_path(path))


def _missing_folders(path: str) -> list[str]:
    missing = []
    folder = os.path.dirname(path)
    while folder and not os.path.isdir(folder):
        missing.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return missing


def write_atomically(path: str, data: bytes, new_mode: int = 0o644) -> None:
    """Replace the file in one step (on disk before it is renamed), keeping its permissions; a symlinked
    file (a dotfiles checkout) has its target replaced and stays a link."""
    path = os.path.realpath(path)
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        mode = new_mode
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".limen-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write(
    path: str,
    old: bytes | None,
    new: bytes,
    owner: str,
    added: list[Any],
    *,
    limen_free: bool,
    new_mode: int = 0o644,
) -> None:
    """Write `new` over `old` (the bytes just read) for `owner`, remembering the file as it was first.

    `limen_free` says `old` holds nothing Limen wrote: a file that changed since Limen last wrote it then
    starts a fresh record from `old`; one that still holds Limen's entries can no longer be restored to
    its bytes and is marked inexact. The record is saved before the file is written: a crash between the
    two leaves a record that does not match the file, which uninstall treats as a changed file."""
    real = os.path.realpath(path)
    record = load(real)
    if record is not None and record.written != digest(old):
        if limen_free:
            record = None
        else:
            record.exact = False
    if record is None:
        record = Record(real, old, limen_free, digest(old), {}, _missing_folders(real))
    record.owners[owner] = added
    record.written = digest(new)
    _save(record)
    write_atomically(real, new, new_mode)


def release_outcome(path: str, owner: str, current: bytes | None, removed: bytes) -> tuple[str, bytes | None]:
    """What `release` would do, and the file's bytes after it (None: no file)."""
    record = load(path)
    if current is None:
        return "missing", None
    unchanged = record is not None and record.written == digest(current)
    others = record is not None and any(o != owner for o in record.owners)
    if record is not None and record.exact and unchanged and not others:
        return ("restored", record.original) if record.original is not None else ("deleted", None)
    return ("removed" if unchanged or record is None else "changed"), removed


def release(path: str, owner: str, current: bytes | None, removed: bytes) -> str:
    """Take `owner`'s part out of the file, `removed` being the current bytes without it.

    Returns what was done: "restored" (the bytes from before install), "deleted" (there was no file, and
    the folders install created for it go too when empty), "changed" (the file changed since Limen wrote
    it: only Limen's part was removed), "removed" (only this install's part was removed: another install
    still owns a part, or there is no exact original), or "missing" (the file is gone)."""
    real = os.path.realpath(path)
    record = load(real)
    how, final = release_outcome(real, owner, current, removed)
    if how == "restored" and final is not None:
        write_atomically(real, final)
    elif how == "deleted":
        os.unlink(real)
        for folder in record.created if record else ():
            with contextlib.suppress(OSError):  # not empty: something else lives there now
                os.rmdir(folder)
    if record is not None:
        record.owners.pop(owner, None)
    if how in ("restored", "deleted") or record is None or not record.owners:
        _drop(real)
    else:  # saved before the file is written: a crash between them reads as a changed file
        record.exact = record.exact and how == "removed"
        record.written = digest(final)
        _save(record)
    if how in ("removed", "changed") and final is not None and final != current:
        write_atomically(real, final)
    return how
