"""The database file: what it is (identified read-only), who writes it (one writer), what went wrong.

**Ours or untouched.** Before anything writes, :func:`identify` looks at the file without
changing it: the 100-byte SQLite header is read as plain bytes (``application_id`` at offset
68, ``user_version`` at 60), and the table names through a ``mode=ro`` URI connection. A
missing or empty file (or an SQLite file without tables) may be initialised; one stamped with
:data:`APPLICATION_ID` is ours (refused when its ``user_version`` is newer than this program);
an unstamped file holding exactly our tables and ``meta`` row is ours from before the stamp
existed (it is stamped, and its families' games kept, when opened for writing); anything else
(another program's database, a damaged file) is refused and left byte for byte as it was: no
journal-mode switch, no tables added, no lock file beside it.

**One writer.** :class:`WriterLock` takes ``fcntl.flock(LOCK_EX | LOCK_NB)`` on a sidecar file
``<db>.lock`` and writes into it who holds it (program, pid, since when), for the sentence the
next one gets. The kernel drops a flock when the process ends in any way, SIGKILL and power
cut included, so a stale lock file never blocks anyone: only a living holder does. SQLite's own
locks could not do this: ``locking_mode=EXCLUSIVE`` would shut out the readers too (``history``
must work beside the app) and says nothing about who holds it. The lock is separate from the
database file, so SQLite's POSIX locks on it are not disturbed (closing any descriptor of a
file drops a process's POSIX locks; a flock on another file is independent of them).
Readers take no lock.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from companion.i18n import _

APPLICATION_ID = 0x54434D50
"""``PRAGMA application_id`` of a companion database ("TCMP": table companion)."""

USER_VERSION = 1
"""``PRAGMA user_version`` this program writes; a newer one is refused untouched."""

OUR_TABLES = frozenset({"meta", "players", "games", "seats", "events", "results", "settings", "companions"})
"""Every table a companion database may hold (``companions`` came later: it may be missing)."""

SQLITE_MAGIC = b"SQLite format 3\x00"


class StoreError(RuntimeError):
    """The database cannot be used; the message says why and what to do."""


@dataclass(frozen=True)
class Identity:
    """What :func:`identify` found."""

    kind: str
    """``missing``, ``empty``, ``ours``, ``legacy`` (ours, from before the stamp), ``newer``,
    ``foreign`` or ``damaged``."""
    detail: str = ""

    @property
    def usable(self) -> bool:
        return self.kind in ("missing", "empty", "ours", "legacy")


def ro_uri(path: Path) -> str:
    """The ``mode=ro`` URI of ``path`` (opened by SQLite without any right to write)."""
    return f"file:{quote(str(path.resolve()))}?mode=ro"


def rw_uri(path: Path, create: bool) -> str:
    return f"file:{quote(str(path.resolve()))}?mode={'rwc' if create else 'rw'}"


def identify(path: Path, schema_version: int, timeout: float = 5.0) -> Identity:
    """What the file at ``path`` is; reads it only (see the module's docstring)."""
    try:
        with path.open("rb") as fh:
            header = fh.read(100)
    except FileNotFoundError:
        return Identity("missing")
    except IsADirectoryError:
        return Identity("foreign", "a folder")
    except OSError as exc:
        return Identity("damaged", exc.strerror or str(exc))
    if not header:
        return Identity("empty")
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        return Identity("foreign", "not an SQLite database")
    app_id = int.from_bytes(header[68:72], "big")
    version = int.from_bytes(header[60:64], "big")
    if app_id not in (0, APPLICATION_ID):
        return Identity("foreign", f"application_id {app_id:#x}")
    try:
        conn = sqlite3.connect(ro_uri(path), uri=True, isolation_level=None, timeout=timeout)
    except sqlite3.Error as exc:
        return Identity("damaged", str(exc))
    try:
        tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        schema = None
        if "meta" in tables:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            schema = None if row is None else str(row[0])
    except sqlite3.Error as exc:
        name = getattr(exc, "sqlite_errorname", "")
        if name.startswith("SQLITE_BUSY") or "locked" in str(exc):
            return Identity("busy", str(exc))
        if name.startswith("SQLITE_READONLY"):  # a hot journal: only a writer may roll it back
            if app_id == APPLICATION_ID:  # ours, left mid-commit: SQLite's recovery is ours to run
                return Identity("ours", "hot journal")
            return Identity("foreign", "left mid-write by its program")
        return Identity("damaged", str(exc))
    finally:
        conn.close()
    if app_id == APPLICATION_ID:
        return Identity("newer", str(version)) if version > USER_VERSION else Identity("ours")
    if not tables:
        return Identity("empty")
    if not tables <= OUR_TABLES or not (OUR_TABLES - {"companions"}) <= tables or schema is None:
        return Identity("foreign", ", ".join(sorted(tables - OUR_TABLES)) or "not our tables")
    try:
        if int(schema) > schema_version:
            return Identity("newer", schema)
    except ValueError:
        return Identity("foreign", "unknown schema")
    return Identity("legacy")


def refusal(path: Path, found: Identity) -> str:
    """The sentence for a file :func:`identify` found unusable."""
    if found.kind == "newer":
        return _(
            "The database {path} was saved by a newer version of the companion. It was left "
            "untouched: update the companion, or use another file with --db."
        ).format(path=path)
    if found.kind == "foreign":
        return _(
            "{path} is not a companion database (another program's file, or a damaged one). It "
            "was left untouched: choose another file with --db, or move it aside to start afresh."
        ).format(path=path)
    if found.kind == "busy":
        return _(
            "The database {path} is busy in another program. Close it and try again."
        ).format(path=path)
    return _(
        "The database {path} is damaged ({error}). It was left untouched: move it aside (or "
        "pass --db / set COMPANION_DB to another file) to start a fresh one."
    ).format(path=path, error=found.detail)


def explain(exc: sqlite3.Error | OSError, path: Path) -> str:
    """One sentence for an SQLite or OS error on the database at ``path``, naming what to do."""
    name = getattr(exc, "sqlite_errorname", "")
    text = str(exc).lower()
    code = exc.errno if isinstance(exc, OSError) else None
    if name.startswith("SQLITE_FULL") or "disk is full" in text or code == errno.ENOSPC:
        return _(
            "The disk holding {path} is full, so nothing more can be saved (what was saved is "
            "kept). Free some space and try again."
        ).format(path=path)
    if (
        name.startswith("SQLITE_READONLY")
        or "readonly" in text
        or code in (errno.EROFS, errno.EACCES, errno.EPERM)
    ):
        return _(
            "The database {path} (or its folder) is read-only, so the companion cannot save "
            "there. Make it writable, or choose a file in a writable folder with --db."
        ).format(path=path)
    if name.startswith("SQLITE_CANTOPEN") or "unable to open" in text:
        return _(
            "The database {path} cannot be opened for writing: its folder is missing or "
            "read-only. Make the folder writable, or choose another file with --db."
        ).format(path=path)
    if name.startswith("SQLITE_BUSY") or "locked" in text:
        return _("The database {path} is busy in another program. Close it and try again.").format(path=path)
    if name.startswith("SQLITE_IOERR") or "disk i/o" in text:
        return _(
            "Reading or writing {path} failed ({error}): the disk or SD card may be failing. "
            "Make a backup (companion backup -o FILE) and check the disk."
        ).format(path=path, error=exc)
    return _(
        "The database {path} is damaged ({error}). It was left untouched: move it aside (or "
        "pass --db / set COMPANION_DB to another file) to start a fresh one."
    ).format(path=path, error=exc)


class WriterLock:
    """The one-writer lock of a database (see the module's docstring)."""

    def __init__(self, db: Path) -> None:
        self.path = db.with_name(db.name + ".lock")
        self._fd: int | None = None

    def acquire(self, db: Path) -> None:
        """Take the lock, or raise ``OSError`` (the folder) / ``BlockingIOError`` (held)."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise
        info = {
            "pid": os.getpid(),
            "program": " ".join(["companion", *sys.argv[1:3]]) if sys.argv else "companion",
            "since": time.time(),
        }
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(info).encode(), 0)
        except OSError:
            pass  # who holds it is a courtesy; the lock itself is taken
        self._fd = fd

    def holder(self) -> str:
        """Who holds the lock, as words (from the lock file; a best effort)."""
        try:
            info = json.loads(self.path.read_text(encoding="utf-8"))
            since = time.strftime("%H:%M", time.localtime(float(info["since"])))
            return _("'{program}' (process {pid}, since {since})").format(
                program=str(info["program"])[:80], pid=int(info["pid"]), since=since)
        except (OSError, ValueError, KeyError, TypeError):
            return _("another program")

    def release(self) -> None:
        if self._fd is not None:
            try:
                os.ftruncate(self._fd, 0)
            except OSError:
                pass
            os.close(self._fd)  # closing drops the flock
            self._fd = None


def locked_sentence(db: Path, holder: str) -> str:
    return _(
        "The database {path} is open in another window or program: {holder}. Only one may "
        "play at a time: close it first (reading the history works beside it)."
    ).format(path=db, holder=holder)


def write_backup(conn: sqlite3.Connection, target: Path) -> None:
    """A consistent copy of ``conn``'s database at ``target`` (SQLite's backup API; the caller
    decides whether ``target`` may be replaced): written to a temporary file in the same
    folder, synced, then renamed over ``target``, so a failure leaves no half copy."""
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        dst = sqlite3.connect(str(tmp), isolation_level=None)
        try:
            conn.backup(dst)
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
        with tmp.open("rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except (sqlite3.Error, OSError) as exc:
        tmp.unlink(missing_ok=True)
        raise StoreError(explain(exc, target)) from None
