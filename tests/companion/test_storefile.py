"""The database file: one writer, ours or untouched, readers create nothing, a full disk and a
read-only folder said as such, damaged games skipped, backup, start-up errors on stderr."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from companion.session import Session
from companion.store import _SCHEMA, Store, StoreError
from companion.storefile import APPLICATION_ID

ROOT = Path(__file__).resolve().parents[2]


def companion(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], input=stdin, capture_output=True, text=True,
        cwd=ROOT, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def played(db: Path, throws: int = 3) -> None:
    with Store.open(db) as store:
        s = Session.start(store, "katenmuis", {"cat": "Ann", "mouse": "Bo"})
        for _ in range(throws):
            s.apply({"type": "Throw", "dice": [1, 2]})


# -- one writer ---------------------------------------------------------------------------------

HOLDER = textwrap.dedent("""
    import sys, time
    from companion.store import Store
    store = Store.open(sys.argv[1])
    print("open", flush=True)
    time.sleep(120)
""")


def test_a_second_writer_is_refused_with_where_and_readers_work_beside(tmp_path: Path) -> None:
    db = tmp_path / "family.db"
    played(db)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdout=subprocess.PIPE, text=True,
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        r = companion("play", "katenmuis", "--db", str(db), stdin="1 2\n")
        assert r.returncode == 2, r.stdout + r.stderr
        assert "is open in another window or program" in r.stderr
        assert f"process {holder.pid}" in r.stderr and "close it first" in r.stderr
        assert "Traceback" not in r.stderr
        h = companion("history", "--db", str(db), "--json")  # a reader, beside the writer
        assert h.returncode == 0, h.stderr
        assert json.loads(h.stdout)["unfinished"] == [1]
    finally:
        os.kill(holder.pid, signal.SIGKILL)  # the lock dies with the process
        holder.wait()
    r = companion("play", "katenmuis", "--db", str(db), stdin="1 2\nq\n")
    assert r.returncode == 0, r.stderr
    assert "Resuming game #1 (3 moves so far)" in r.stdout


def test_two_stores_in_one_process_are_two_writers_too(db_path: Path) -> None:
    with Store.open(db_path):
        with pytest.raises(StoreError, match="open in another window or program"):
            Store.open(db_path)
    Store.open(db_path).close()  # released on close


# -- readers create nothing ---------------------------------------------------------------------


def test_history_of_a_missing_file_says_so_and_creates_nothing(tmp_path: Path) -> None:
    r = companion("history", "--db", str(tmp_path / "typo.db"), env={"COMPANION_DB": str(tmp_path / "real.db")})
    assert r.returncode == 2
    assert "There is no database" in r.stderr and "typo.db" in r.stderr
    assert str(tmp_path / "real.db") in r.stderr  # where the default one is
    assert list(tmp_path.iterdir()) == []


# -- ours or untouched --------------------------------------------------------------------------


def foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, file TEXT)")
    conn.execute("INSERT INTO photos(file) VALUES ('cat.jpg')")
    conn.commit()
    conn.close()


def newer(path: Path) -> None:
    played(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()


@pytest.mark.parametrize("make, words", [(foreign, "is not a companion database"),
                                         (newer, "saved by a newer version")])
def test_foreign_and_newer_files_are_refused_byte_for_byte_untouched(tmp_path: Path, make, words) -> None:
    db = tmp_path / "x.db"
    make(db)
    before, names = digest(db), sorted(os.listdir(tmp_path))
    for args in (["play", "katenmuis", "--db", str(db)], ["history", "--db", str(db)],
                 ["backup", "--db", str(db), "-o", str(tmp_path / "copy.db")]):
        r = companion(*args, stdin="q\n")
        assert r.returncode == 2 and words in r.stderr and "left untouched" in r.stderr, (args, r.stderr)
    assert digest(db) == before
    assert sorted(os.listdir(tmp_path)) == names  # no -wal, no -journal, no lock file beside it
    header = db.read_bytes()[:20]
    assert header[18:20] == b"\x01\x01"  # still a rollback-journal file, not switched to WAL


OLD_VERSION = textwrap.dedent("""
    import os, signal, sqlite3, sys
    from companion.store import _SCHEMA
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)  # as the earlier versions made it:
    conn.execute("PRAGMA journal_mode = WAL")  # WAL, no application_id, no companions table
    for stmt in _SCHEMA.split(";"):
        if stmt.strip() and "companions" not in stmt:
            conn.execute(stmt)
    conn.execute("INSERT INTO meta VALUES ('schema', '1')")
    conn.execute("INSERT INTO players(name, created) VALUES ('Ann', 1), ('Bo', 1)")
    conn.execute("INSERT INTO games(game, settings, created) VALUES ('katenmuis', '{}', 1)")
    conn.execute("INSERT INTO seats VALUES (1, 'cat', 1), (1, 'mouse', 2)")
    conn.execute('''INSERT INTO events VALUES (1, 1, 'action', '{"dice": [1, 2], "type": "Throw"}', 'touch', 1)''')
    os.kill(os.getpid(), signal.SIGKILL)  # killed: the games are still only in the -wal
""")


def test_a_database_from_before_the_stamp_is_upgraded_keeping_its_games(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    subprocess.run([sys.executable, "-c", OLD_VERSION, str(db)], cwd=ROOT,
                   env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert (tmp_path / "old.db-wal").stat().st_size > 0
    h = companion("history", "--db", str(db), "--json")  # readable as it is
    assert h.returncode == 0 and json.loads(h.stdout)["unfinished"] == [1], h.stderr
    with Store.open(db) as store:
        assert store._conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        session = Session.resume(store, "katenmuis")
        assert session is not None and len(session.turns) == 1 and session.seats["cat"] == "Ann"
    assert not (tmp_path / "old.db-wal").exists()
    with Store.open(db) as store:  # the .db alone holds it now
        assert len(store.events(1)) == 1


def test_the_db_file_alone_holds_every_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    with Store.open(db) as store:
        s = Session.start(store, "katenmuis")
        for _ in range(9):
            s.apply({"type": "Throw", "dice": [1, 2]})
        copy = tmp_path / "copy.db"
        copy.write_bytes(db.read_bytes())  # a family copying only the .db, while it is open
        assert sorted(os.listdir(tmp_path)) == ["copy.db", "g.db", "g.db.lock"]
    with Store.open(copy) as store:
        assert len(store.events(1)) == 9


# -- backup ----------------------------------------------------------------------------------


def test_backup_copies_consistently_and_never_overwrites_or_creates_folders(tmp_path: Path) -> None:
    db = tmp_path / "family.db"
    played(db, 4)
    out = tmp_path / "copy.db"
    with Store.open(db):  # beside the writer
        r = companion("backup", "--db", str(db), "-o", str(out))
    assert r.returncode == 0, r.stderr
    with Store.open(out, readonly=True) as copy:
        assert len(copy.events(1)) == 4
    out.write_text("precious")
    r = companion("backup", "--db", str(db), "-o", str(out))
    assert r.returncode == 2 and "already exists" in r.stderr and "--force" in r.stderr
    assert out.read_text() == "precious"
    r = companion("backup", "--db", str(db), "-o", str(out), "--force")
    assert r.returncode == 0 and digest(out) != hashlib.sha256(b"precious").hexdigest()
    r = companion("backup", "--db", str(db), "-o", str(tmp_path / "no" / "such" / "c.db"))
    assert r.returncode == 2 and "does not exist" in r.stderr
    assert not (tmp_path / "no").exists()


def test_backup_goes_through_the_output_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """companion.outfile's checks: a name that is not a database's, or a link, is refused even
    with --force, and nothing is written or replaced."""
    from companion.cli import main

    db = tmp_path / "family.db"
    played(db, 2)
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"precious photo")
    assert main(["backup", "--db", str(db), "-o", str(photo), "--force"]) == 2
    assert "does not end in .db or .sqlite or .sqlite3" in capsys.readouterr().err
    assert photo.read_bytes() == b"precious photo"
    kept = tmp_path / "kept.db"
    kept.write_bytes(b"another file")
    link = tmp_path / "link.db"
    link.symlink_to(kept)
    assert main(["backup", "--db", str(db), "-o", str(link), "--force"]) == 2
    assert "is a link" in capsys.readouterr().err
    assert link.is_symlink() and kept.read_bytes() == b"another file"
    (tmp_path / "folder.db").mkdir()
    assert main(["backup", "--db", str(db), "-o", str(tmp_path / "folder.db"), "--force"]) == 2
    assert "not a plain file" in capsys.readouterr().err
    assert main(["backup", "--db", str(db), "-o", str(tmp_path / "copy.sqlite")]) == 0
    with Store.open(tmp_path / "copy.sqlite", readonly=True) as copy:
        assert len(copy.events(1)) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "copy.sqlite", "family.db", "family.db.lock", "folder.db", "kept.db", "link.db", "photo.jpg"]


# -- full disk, read-only folder ----------------------------------------------------------------


def test_a_full_disk_is_said_and_loses_nothing(db_path: Path) -> None:
    with Store.open(db_path) as store:
        s = Session.start(store, "katenmuis")
        s.apply({"type": "Throw", "dice": [1, 2]})
        pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
        store._conn.execute(f"PRAGMA max_page_count = {pages}")  # a real SQLITE_FULL from here on
        blob = {"type": "Throw", "dice": [1, 2]}
        with pytest.raises(StoreError, match="is full, so nothing more can be saved") as err:
            for _ in range(5000):  # a throw and its undo: events pile up, the game never ends
                s.undo()
                s.apply(blob)
        assert "damaged" not in str(err.value)
        saved = len(store.events(1))
        turns = len(s.turns)
        assert store._conn.in_transaction is False  # rolled back, not left open
        store._conn.execute(f"PRAGMA max_page_count = {pages * 100}")
        s.apply(blob) if turns == 0 else s.undo()  # space again: goes on
    with Store.open(db_path) as store:
        assert len(store.events(1)) == saved + 1


def _no_dac_override() -> None:
    """In the child, before exec: drop root's power to write where the permissions say no
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER leave the bounding set), so the
    kernel's own permission check refuses the write, as it would for a family's user."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2, 3):
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def as_a_user(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``companion ARGS`` without root's override of file permissions (as root, chmod alone
    does not stop writes; as another user it does)."""
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], input=stdin, capture_output=True, text=True,
        cwd=ROOT, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=_no_dac_override if os.geteuid() == 0 else None,
    )


@pytest.mark.parametrize("what", ["folder", "file"])
def test_a_read_only_folder_or_file_is_said(tmp_path: Path, what: str) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "family.db"
    played(db)
    before = digest(db)
    (folder if what == "folder" else db).chmod(0o555 if what == "folder" else 0o444)
    try:
        r = as_a_user("play", "katenmuis", "--db", str(db), stdin="1 2\nq\n")
        assert r.returncode == 2, r.stdout + r.stderr
        assert "is read-only" in r.stderr and "damaged" not in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
        h = as_a_user("history", "--db", str(db))  # reading still works
        assert h.returncode == 0, h.stderr
        assert digest(db) == before
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)


# -- damaged rows -----------------------------------------------------------------------------


@pytest.mark.parametrize("damage", [
    "UPDATE games SET settings = '{not json' WHERE id = 2",
    "UPDATE games SET created = 'yesterday' WHERE id = 2",
    "UPDATE games SET game = 'chess' WHERE id = 2",
    "UPDATE events SET payload = '[1' WHERE game_id = 2",
    "UPDATE events SET payload = '{\"type\": \"Throw\", \"dice\": [9, 9]}' WHERE game_id = 2",
    "INSERT INTO companions VALUES (2, 'cat', 'godlike')",
])
def test_a_damaged_game_is_skipped_with_a_sentence_and_the_rest_works(db_path: Path, damage: str) -> None:
    played(db_path, 2)  # game 1
    played(db_path, 5)  # game 2, the newest: damaged below
    conn = sqlite3.connect(db_path)
    conn.execute(damage)
    conn.commit()
    conn.close()
    r = companion("play", "katenmuis", "--db", str(db_path), stdin="q\n")
    assert r.returncode == 0, r.stderr
    if "chess" not in damage:  # (else it is no Kat en Muis game: not looked at)
        assert "Game #2" in r.stdout and "is damaged" in r.stdout and "skipped" in r.stdout
    assert "Resuming game #1 (2 moves so far)" in r.stdout
    h = companion("history", "--db", str(db_path), "--json")
    assert h.returncode == 0 and "Traceback" not in h.stderr
    assert 1 in json.loads(h.stdout)["unfinished"]
    e = companion("history", "--db", str(db_path), "--export", "2")
    assert e.returncode == 2 and "Game #2" in e.stderr and "internal error" not in e.stderr


def test_a_game_left_unfinished_by_an_older_version_is_finished_on_resume(db_path: Path) -> None:
    with Store.open(db_path) as store:
        s = Session.start(store, "katenmuis")
        cycle = [[1, 2], [3, 4], [2, 5], [1, 1]]
        while not s.is_over():
            s.apply({"type": "Throw", "dice": cycle[len(s.turns) % 4]})
        outcome = s.record.outcome
        store._conn.execute("UPDATE games SET finished = NULL, outcome = NULL")  # the old two commits
        store._conn.execute("DELETE FROM results")
    with Store.open(db_path) as store:
        assert Session.resume(store, "katenmuis") is None  # made right, not resumed on "Game over"
        (record,) = store.finished_games()
        assert record.outcome == outcome and len(store.player_history()) == 2


# -- the board file, stored absolute ------------------------------------------------------------


def test_a_relative_board_path_is_stored_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import boards

    src = Path(boards.__file__).with_name("kilkenny.toml")
    (tmp_path / "mine.toml").write_text(src.read_text())
    monkeypatch.chdir(tmp_path)
    with Store.open(tmp_path / "g.db") as store:
        s = Session.start(store, "kilkenny", settings={"board": "mine.toml"})
        assert s.record.settings["board"] == str(tmp_path / "mine.toml")
    monkeypatch.chdir(ROOT)
    with Store.open(tmp_path / "g.db") as store:
        assert Session.resume(store, "kilkenny") is not None


# -- the app's start-up errors ------------------------------------------------------------------


def test_app_start_up_errors_reach_stderr(tmp_path: Path) -> None:
    db = tmp_path / "photos.db"
    foreign(db)
    env = {"SDL_VIDEODRIVER": "offscreen", "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1",
           "KIVY_HOME": str(tmp_path / "kivy")}
    r = companion("app", "--db", str(db), env=env)
    assert r.returncode == 2
    assert "is not a companion database" in r.stderr
    with Store.open(tmp_path / "family.db"):
        r = companion("app", "--db", str(tmp_path / "family.db"), env=env)
    assert r.returncode == 2 and "is open in another window or program" in r.stderr
