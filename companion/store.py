"""The store: one SQLite file holding games, players, events and settings.

Durability: a rollback journal (``journal_mode=DELETE``) with ``synchronous=FULL``, so an
event is in the ``.db`` file itself when :meth:`Store.append_event` returns (copying that one
file copies every acknowledged move). A move and the game's end (or its reopening when the
winning move is undone) are one transaction. The session appends an event *before* it applies
and acknowledges it, and the state is always the replay of the event log; after a power cut
the unfinished game reopens exactly where it was.

One writer at a time, and only on a file that is ours (``companion.storefile``: identified
read-only first, a sidecar ``flock``); readers (``history``, ``backup``) open ``mode=ro``.
A game whose rows are damaged is skipped with a sentence (:attr:`Store.damaged`); the others
keep working.

Where the file lives: ``--db PATH`` (front ends pass it as ``path``), else the environment
variable ``COMPANION_DB``, else ``$XDG_DATA_HOME/table-companion/companion.db`` (by default
``~/.local/share/table-companion/companion.db``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import games
from companion.i18n import _
from companion.limits import MAX_SETTING_BYTES
from companion.storefile import (
    APPLICATION_ID,
    USER_VERSION,
    Identity,
    StoreError as StoreError,
    WriterLock,
    explain,
    identify,
    locked_sentence,
    refusal,
    ro_uri,
    rw_uri,
    write_backup,
)
from companion.storeschema import SCHEMA as _SCHEMA, SCHEMA_VERSION as SCHEMA_VERSION


class DamagedGame(StoreError):
    """One game's rows cannot be read; the other games can (see :attr:`Store.damaged`)."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    settings: dict[str, Any]
    created: float
    finished: float | None
    abandoned: bool
    outcome: dict[str, Any] | None
    seats: dict[str, str]
    """role -> player name"""
    companions: dict[str, str] = field(default_factory=dict)
    """role -> strength, for the seats the companion plays (the others are people)"""


@dataclass(frozen=True)
class EventRecord:
    seq: int
    kind: str
    """``"action"`` or ``"undo"``."""
    payload: dict[str, Any]
    source: str
    t: float


def default_db_path() -> Path:
    env = os.environ.get("COMPANION_DB")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "table-companion" / "companion.db"


class Store:
    """The SQLite store. Use :meth:`open`; close it or use it as a context manager."""

    def __init__(self, conn: sqlite3.Connection, path: Path, lock: WriterLock | None = None) -> None:
        self._conn = conn
        self.path = path
        self._lock = lock
        self._has_companions = True
        self.damaged: dict[int, str] = {}
        """game id -> sentence, for the games skipped because their rows could not be read"""

    @property
    def readonly(self) -> bool:
        return self._lock is None

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path | None = None, *, timeout: float = 5.0, readonly: bool = False) -> Store:
        """Open the store at ``path`` or :func:`default_db_path`.

        For writing (the default) the file is identified read-only first
        (:func:`companion.storefile.identify`): a missing or empty one is created, ours is
        opened (and an older one of ours upgraded), anything else refused untouched; then the
        one-writer lock is taken. ``readonly=True`` (``history``, ``backup``) opens through a
        ``mode=ro`` URI, takes no lock and never creates a file.

        Raises :class:`StoreError` with a sentence naming what to do when the file is missing
        (reading), not ours, newer, damaged, open in another program, or on a read-only or full
        disk. The file is never modified or replaced in that case, so nothing is lost.
        """
        p = Path(path).expanduser() if path is not None else default_db_path()
        found = identify(p, SCHEMA_VERSION, timeout)
        if readonly:
            return cls._open_readonly(p, found, timeout)
        if not found.usable:
            raise StoreError(refusal(p, found))
        if found.kind == "missing":
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(explain(exc, p)) from None
        lock = WriterLock(p)
        try:
            lock.acquire(p)
        except BlockingIOError:
            raise StoreError(locked_sentence(p, lock.holder())) from None
        except OSError as exc:
            raise StoreError(explain(exc, p)) from None
        try:
            found = identify(p, SCHEMA_VERSION, timeout)  # again, now that no writer of ours can change it
            if not found.usable:
                raise StoreError(refusal(p, found))
            conn = sqlite3.connect(
                rw_uri(p, create=found.kind == "missing"), uri=True, timeout=timeout,
                isolation_level=None, check_same_thread=False,
            )
            store = cls(conn, p, lock=lock)
            try:
                store._setup()
            except sqlite3.Error as exc:
                conn.close()
                raise StoreError(explain(exc, p)) from None
        except BaseException:
            lock.release()
            raise
        return store

    @classmethod
    def _open_readonly(cls, p: Path, found: Identity, timeout: float) -> Store:
        if found.kind == "missing":
            raise StoreError(_(
                "There is no database {path} (nothing was created). Check the name; the default "
                "one is {default}."
            ).format(path=p, default=default_db_path()))
        if found.kind == "empty":
            raise StoreError(_("The database {path} is empty: no game has been saved in it yet.").format(path=p))
        if not found.usable:
            raise StoreError(refusal(p, found))
        try:
            conn = sqlite3.connect(
                ro_uri(p), uri=True, timeout=timeout, isolation_level=None, check_same_thread=False
            )
            conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            conn.execute("PRAGMA query_only = ON")
            tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_READONLY"):
                raise StoreError(_(
                    "The database {path} was not closed properly and must be repaired by a "
                    "writer first: run 'companion play' or the app once, then try again."
                ).format(path=p)) from None
            raise StoreError(explain(exc, p)) from None
        store = cls(conn, p)
        store._has_companions = "companions" in tables
        return store

    def _setup(self) -> None:
        """Journal, sync and schema. Rollback journal (``journal_mode=DELETE``) with
        ``synchronous=FULL``: when a commit returns, the ``.db`` file alone holds it (no ``-wal``
        beside it to lose when a family copies the file), and a transaction is all or nothing.
        A database of an earlier version in WAL mode is converted here: SQLite checkpoints the
        WAL into the file before it leaves WAL mode (we hold the writer lock, so no writer of
        ours is in the way; a reader makes it wait ``busy_timeout``)."""
        c = self._conn
        c.execute("PRAGMA busy_timeout = 5000")
        mode = c.execute("PRAGMA journal_mode = DELETE").fetchone()
        if mode is None or str(mode[0]).lower() != "delete":
            raise sqlite3.OperationalError("database is locked (could not leave WAL journal mode)")
        c.execute("PRAGMA synchronous = FULL")
        c.execute("PRAGMA foreign_keys = ON")
        check = c.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise sqlite3.DatabaseError(f"integrity check failed: {check[0] if check else '?'}")
        with self._tx():
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    c.execute(stmt)
            row = c.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                c.execute("INSERT INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            c.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            c.execute(f"PRAGMA user_version = {USER_VERSION}")

    def close(self) -> None:
        self._conn.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    class _Tx:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; on any failure (a full disk at COMMIT included)
        the transaction is rolled back, so nothing of it stays."""

        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn = conn

        def __enter__(self) -> sqlite3.Connection:
            self.conn.execute("BEGIN IMMEDIATE")
            return self.conn

        def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
            if exc_type is None:
                try:
                    self.conn.execute("COMMIT")
                    return
                except sqlite3.Error:
                    self._rollback()
                    raise
            self._rollback()

        def _rollback(self) -> None:
            if self.conn.in_transaction:
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # SQLite rolled it back itself

    def _tx(self) -> Store._Tx:
        if self._lock is None:
            raise StoreError(_("The database {path} was opened for reading only.").format(path=self.path))
        return Store._Tx(self._conn)

    def _failed(self, exc: sqlite3.Error) -> StoreError:
        return StoreError(explain(exc, self.path))

    def _write(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        try:
            with self._tx() as c:
                return c.execute(sql, params)
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    # -- players ---------------------------------------------------------------------------

    def player_id(self, name: str) -> int:
        """The id of the player with this name (case-insensitive), created if new."""
        clean = " ".join(name.split())
        if not clean:
            raise ValueError("a player needs a name")
        row = self._conn.execute("SELECT id FROM players WHERE name = ?", (clean,)).fetchone()
        if row is not None:
            return int(row[0])
        cur = self._write("INSERT INTO players(name, created) VALUES (?, ?)", (clean, time.time()))
        return int(cur.lastrowid or 0)

    def player_names(self) -> list[str]:
        """Known players, most recently seated first."""
        rows = self._conn.execute(
            """SELECT p.name FROM players p LEFT JOIN seats s ON s.player_id = p.id
               GROUP BY p.id ORDER BY MAX(COALESCE(s.game_id, 0)) DESC, p.name"""
        ).fetchall()
        return [str(r[0]) for r in rows]

    # -- games -----------------------------------------------------------------------------

    def create_game(
        self,
        game: str,
        settings: Mapping[str, Any],
        seats: Mapping[str, str],
        companions: Mapping[str, str] | None = None,
    ) -> int:
        """A new game; ``companions`` maps the roles the companion plays to its strength."""
        ids = {role: self.player_id(name) for role, name in seats.items()}
        try:
            with self._tx() as c:
                cur = c.execute(
                    "INSERT INTO games(game, settings, created) VALUES (?, ?, ?)",
                    (game, json.dumps(dict(settings), sort_keys=True), time.time()),
                )
                gid = int(cur.lastrowid or 0)
                for role, pid in ids.items():
                    c.execute("INSERT INTO seats(game_id, role, player_id) VALUES (?, ?, ?)", (gid, role, pid))
                for role, strength in (companions or {}).items():
                    c.execute(
                        "INSERT INTO companions(game_id, role, strength) VALUES (?, ?, ?)", (gid, role, strength)
                    )
        except sqlite3.Error as exc:
            raise self._failed(exc) from None
        return gid

    def _record(self, row: tuple[Any, ...]) -> GameRecord:
        """The game of a ``games`` row; :class:`DamagedGame` when its rows cannot be read."""
        gid = int(row[0])
        try:
            seats = {
                str(r[0]): str(r[1])
                for r in self._conn.execute(
                    "SELECT s.role, p.name FROM seats s JOIN players p ON p.id = s.player_id WHERE s.game_id = ?",
                    (gid,),
                )
            }
            companions: dict[str, str] = {}
            if self._has_companions:
                companions = {
                    str(r[0]): str(r[1])
                    for r in self._conn.execute("SELECT role, strength FROM companions WHERE game_id = ?", (gid,))
                }
            settings = json.loads(row[2])
            outcome = None if row[6] is None else json.loads(row[6])
            if not isinstance(settings, dict) or not (outcome is None or isinstance(outcome, dict)):
                raise ValueError("not a JSON object")
            if str(row[1]) not in games.GAMES:
                raise ValueError(f"unknown game {str(row[1])[:40]!r}")
            return GameRecord(
                id=gid,
                game=str(row[1]),
                settings=settings,
                created=float(row[3]),
                finished=None if row[4] is None else float(row[4]),
                abandoned=bool(row[5]),
                outcome=outcome,
                seats=seats,
                companions=companions,
            )
        except (ValueError, TypeError, RecursionError) as exc:
            raise self.damaged_game(gid, exc) from None

    def damaged_game(self, game_id: int, exc: BaseException) -> DamagedGame:
        """Note game ``game_id`` as damaged (:attr:`damaged`) and return the error to raise."""
        sentence = _(
            "Game #{id} in {path} is damaged ({error}) and was skipped; the other games are fine."
        ).format(id=game_id, path=self.path, error=str(exc)[:120] or type(exc).__name__)
        self.damaged[game_id] = sentence
        return DamagedGame(sentence)

    def _records(self, rows: list[tuple[Any, ...]]) -> list[GameRecord]:
        out = []
        for row in rows:
            try:
                out.append(self._record(row))
            except DamagedGame:
                continue
        return out

    _GAME_COLS = "id, game, settings, created, finished, abandoned, outcome"

    def game(self, game_id: int) -> GameRecord:
        row = self._conn.execute(f"SELECT {self._GAME_COLS} FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(_("There is no game #{id} in {path}.").format(id=game_id, path=self.path))
        return self._record(row)

    def unfinished_games(self, game: str | None = None) -> list[GameRecord]:
        """Games neither finished nor abandoned, newest first (damaged ones skipped)."""
        sql = f"SELECT {self._GAME_COLS} FROM games WHERE finished IS NULL AND abandoned = 0"
        params: tuple[Any, ...] = ()
        if game is not None:
            sql += " AND game = ?"
            params = (game,)
        return self._records(self._conn.execute(sql + " ORDER BY id DESC", params).fetchall())

    def finished_games(self, game: str | None = None, limit: int | None = None) -> list[GameRecord]:
        """Finished games, newest first (damaged ones skipped)."""
        sql = f"SELECT {self._GAME_COLS} FROM games WHERE finished IS NOT NULL"
        params: list[Any] = []
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        sql += " ORDER BY finished DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return self._records(self._conn.execute(sql, params).fetchall())

    @staticmethod
    def _finish(c: sqlite3.Connection, game_id: int, outcome: Mapping[str, Any]) -> None:
        winner = outcome.get("winner")
        winners = set(winner) if isinstance(winner, list | tuple) else {winner}
        scores = dict(outcome.get("scores") or {})
        c.execute(
            "UPDATE games SET finished = ?, outcome = ? WHERE id = ?",
            (time.time(), json.dumps(dict(outcome), sort_keys=True), game_id),
        )
        c.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
        for role, pid in c.execute("SELECT role, player_id FROM seats WHERE game_id = ?", (game_id,)).fetchall():
            c.execute(
                "INSERT INTO results(game_id, player_id, role, won, score) VALUES (?, ?, ?, ?, ?)",
                (game_id, pid, role, int(role in winners), float(scores.get(role, 0))),
            )

    @staticmethod
    def _reopen(c: sqlite3.Connection, game_id: int) -> None:
        c.execute("UPDATE games SET finished = NULL, outcome = NULL WHERE id = ?", (game_id,))
        c.execute("DELETE FROM results WHERE game_id = ?", (game_id,))

    def finish_game(self, game_id: int, outcome: Mapping[str, Any]) -> None:
        """Record the outcome and each seated player's result (won, score)."""
        try:
            with self._tx() as c:
                self._finish(c, game_id, outcome)
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    def reopen_game(self, game_id: int) -> None:
        """Mark a finished game unfinished again (an undo of the winning move)."""
        try:
            with self._tx() as c:
                self._reopen(c, game_id)
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    def abandon_game(self, game_id: int) -> None:
        self._write("UPDATE games SET abandoned = 1 WHERE id = ?", (game_id,))

    # -- events ----------------------------------------------------------------------------

    def append_event(
        self,
        game_id: int,
        kind: str,
        payload: Mapping[str, Any],
        source: str,
        *,
        finish: Mapping[str, Any] | None = None,
        reopen: bool = False,
    ) -> int:
        """Append one event durably; returns its sequence number. With ``finish`` (the
        outcome) the game is recorded as finished, with ``reopen`` as unfinished again, in the
        same transaction: the move and the game's end are saved together or not at all."""
        text = json.dumps(dict(payload), sort_keys=True)
        try:
            with self._tx() as c:
                row = c.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)).fetchone()
                seq = int(row[0]) + 1
                c.execute(
                    "INSERT INTO events(game_id, seq, kind, payload, source, t) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seq, kind, text, source, time.time()),
                )
                if finish is not None:
                    self._finish(c, game_id, finish)
                elif reopen:
                    self._reopen(c, game_id)
        except sqlite3.Error as exc:
            raise self._failed(exc) from None
        return seq

    def events(self, game_id: int) -> list[EventRecord]:
        """The game's events; :class:`DamagedGame` when one cannot be read."""
        rows = self._conn.execute(
            "SELECT seq, kind, payload, source, t FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        try:
            out = [EventRecord(int(r[0]), str(r[1]), json.loads(r[2]), str(r[3]), float(r[4])) for r in rows]
        except (ValueError, TypeError, RecursionError) as exc:
            raise self.damaged_game(game_id, exc) from None
        for ev in out:
            if not isinstance(ev.payload, dict):
                raise self.damaged_game(game_id, ValueError(f"event {ev.seq} is not a JSON object"))
        return out

    # -- backup ----------------------------------------------------------------------------

    def backup(self, target: Path) -> None:
        """A consistent copy of the whole database at ``target`` (:func:`write_backup`)."""
        write_backup(self._conn, target)

    # -- history ---------------------------------------------------------------------------

    def player_history(self, name: str | None = None) -> list[dict[str, Any]]:
        """Per finished game and seated player: game id, game, finished time, role, won, score.

        Ordered by time, so a UI can plot each player's chips over time.
        """
        sql = """SELECT g.id, g.game, g.finished, p.name, r.role, r.won, r.score
                 FROM results r JOIN games g ON g.id = r.game_id JOIN players p ON p.id = r.player_id"""
        params: tuple[Any, ...] = ()
        if name is not None:
            sql += " WHERE p.name = ?"
            params = (name,)
        sql += " ORDER BY g.finished, g.id"
        out = []
        for r in self._conn.execute(sql, params).fetchall():
            try:
                out.append({
                    "game_id": int(r[0]),
                    "game": str(r[1]),
                    "finished": float(r[2]),
                    "player": str(r[3]),
                    "role": str(r[4]),
                    "won": bool(r[5]),
                    "score": float(r[6]),
                })
            except (ValueError, TypeError) as exc:  # a damaged row: that game is left out
                self.damaged_game(int(r[0]) if isinstance(r[0], int) else 0, exc)
        return out

    def player_totals(self) -> list[dict[str, Any]]:
        """Per player: games played, games won, total score (e.g. chips won) over all games."""
        rows = self._conn.execute(
            """SELECT p.name, COUNT(r.game_id), COALESCE(SUM(r.won), 0), COALESCE(SUM(r.score), 0)
               FROM players p JOIN results r ON r.player_id = p.id
               GROUP BY p.id ORDER BY SUM(r.score) DESC, p.name"""
        ).fetchall()
        return [
            {"player": str(r[0]), "games": int(r[1]), "won": int(r[2]), "score": float(r[3])} for r in rows
        ]

    # -- settings --------------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        row = self._conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        if row is None or len(row[0]) > MAX_SETTING_BYTES:  # an oversized value counts as missing
            return default
        try:
            return json.loads(row[0])
        except (json.JSONDecodeError, RecursionError):
            return default

    def set_setting(self, key: str, value: Any) -> None:
        self._write(
            "INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value)),
        )

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in self._conn.execute("SELECT key, value FROM settings"):
            if len(value) > MAX_SETTING_BYTES:
                continue
            try:
                out[str(key)] = json.loads(value)
            except (json.JSONDecodeError, RecursionError):
                continue
        return out
