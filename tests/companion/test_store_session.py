"""The store and the session, on a tiny real game (tests/companion/toygame.py)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.games.base import IllegalAction
from companion.session import Session, SessionEvent
from companion.store import Store, StoreError
from tests.companion.toygame import Coin, Go

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("toy_registered")


def test_store_uses_a_rollback_journal_and_full_sync(db_path: Path) -> None:
    with Store.open(db_path) as store:
        mode = store._conn.execute("PRAGMA journal_mode").fetchone()[0]
        sync = store._conn.execute("PRAGMA synchronous").fetchone()[0]
    assert mode == "delete"  # the .db alone holds every commit
    assert sync == 2  # FULL


def test_default_path_follows_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "x" / "here.db"))
    with Store.open() as store:
        assert store.path == tmp_path / "x" / "here.db"
    assert (tmp_path / "x" / "here.db").exists()


def test_apply_stores_before_acknowledging(db_path: Path) -> None:
    store = Store.open(db_path)
    session = Session.start(store, "toy", {"a": "Anna", "b": "Bram"})
    seen: list[SessionEvent] = []

    def listener(ev: SessionEvent) -> None:
        # at acknowledgement time the event is already in the database (read by a 2nd connection)
        other = sqlite3.connect(db_path)
        n = other.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        other.close()
        assert n == len(session.turns)
        seen.append(ev)

    session.subscribe(listener)
    session.apply(Coin(2), source="camera")
    session.apply(Go())
    assert [e.kind for e in seen] == ["applied", "applied"]
    assert session.state.to_json()["pos"] == {"a": 2, "b": 0}


def test_illegal_action_stores_nothing(db_path: Path) -> None:
    store = Store.open(db_path)
    session = Session.start(store, "toy")
    with pytest.raises(IllegalAction):
        session.apply(Go())  # a coin is due first
    with pytest.raises(IllegalAction):
        session.apply({"type": "Coin", "value": 7})
    with pytest.raises(IllegalAction):
        session.apply({"type": "Nonsense"})
    assert store.events(session.game_id) == []


def test_undo_restores_previous_state_and_replay_matches(db_path: Path) -> None:
    store = Store.open(db_path)
    session = Session.start(store, "toy")
    session.apply(Coin(1))
    before = session.state.clone()
    session.apply(Go())
    assert session.undo() is not None
    assert session.state == before
    session.apply(Go(stay=True))
    again = Session.load(store, session.game_id)
    assert again.state == session.state
    assert [t.action for t in again.turns] == [t.action for t in session.turns]


def test_resume_and_finish_and_history(db_path: Path) -> None:
    store = Store.open(db_path)
    session = Session.start(store, "toy", {"a": "Anna", "b": "Bram"})
    session.apply(Coin(2))
    session.apply(Go())
    store.close()

    store = Store.open(db_path)
    resumed = Session.resume(store, "toy")
    assert resumed is not None and resumed.game_id == session.game_id
    resumed.apply(Coin(1))
    resumed.apply(Go())  # b to 1
    resumed.apply(Coin(1))
    resumed.apply(Go())  # a to 3: wins
    assert resumed.is_over()
    assert Session.resume(store, "toy") is None
    finished = store.finished_games()
    assert [g.id for g in finished] == [session.game_id]
    assert finished[0].outcome == {"winner": "a", "scores": {"a": 1, "b": -1}}
    totals = {row["player"]: row for row in store.player_totals()}
    assert totals["Anna"]["won"] == 1 and totals["Bram"]["score"] == -1
    # undoing the winning move reopens the game
    resumed.undo()
    assert Session.resume(store, "toy") is not None
    assert store.finished_games() == []


def test_player_names_persist_across_games(db_path: Path) -> None:
    store = Store.open(db_path)
    Session.start(store, "toy", {"a": "Anna", "b": "Bram"})
    Session.start(store, "toy", {"a": "anna", "b": "Cees"})
    assert sorted(store.player_names()) == ["Anna", "Bram", "Cees"]


def test_export_is_json(db_path: Path) -> None:
    store = Store.open(db_path)
    session = Session.start(store, "toy", {"a": "Anna"})
    session.apply(Coin(2))
    session.apply(Go())
    data = json.loads(json.dumps(session.export()))
    assert data["seats"] == {"a": "Anna", "b": "B"}
    assert data["turns"][-1]["narration"] == ["Anna moves to 2"]


def test_settings_round_trip(db_path: Path) -> None:
    with Store.open(db_path) as store:
        store.set_setting("serial.port", "/dev/ttyACM0")
        assert store.get_setting("serial.port") == "/dev/ttyACM0"
        assert store.get_setting("missing", 5) == 5


def test_corrupt_database_is_reported_and_left_untouched(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not a database" * 100)
    before = bad.read_bytes()
    with pytest.raises(StoreError, match="is not a companion database .* left untouched"):
        Store.open(bad)
    assert bad.read_bytes() == before


def test_locked_database_is_reported(db_path: Path) -> None:
    Store.open(db_path).close()
    locker = sqlite3.connect(db_path, isolation_level=None)
    locker.execute("PRAGMA locking_mode = EXCLUSIVE")
    locker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="is busy in another program"):
            Store.open(db_path, timeout=0.2)
    finally:
        locker.execute("ROLLBACK")
        locker.close()


CRASHER = textwrap.dedent(
    """
    import sys
    from companion import games
    games.GAMES["toy"] = ("tests.companion.toygame", "Toy", "Toy race")
    from companion.session import Session
    from companion.store import Store
    from tests.companion.toygame import Coin, Go
    store = Store.open(sys.argv[1])
    session = Session.start(store, "toy")
    i = 0
    while True:
        if session.is_over():  # two undos: each acknowledged (printed) once committed
            session.undo()
            print(len(store.events(session.game_id)), flush=True)
            session.undo()
        elif session.state.to_move() == "chance":
            session.apply(Coin(1 + i % 2))
        else:
            session.apply(Go(stay=(i % 3 == 0)))
        i += 1
        print(len(store.events(session.game_id)), flush=True)
    """
)


def test_sigkill_mid_game_resumes_with_every_acknowledged_event(db_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASHER, str(db_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    acked = 0
    for line in proc.stdout:
        acked = int(line)
        if acked >= 60:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # the lines it printed before the kill and not read yet: acknowledged too (on a fast disk, or
    # a tmpfs, it commits several more while this process reads and kills)
    for line in proc.stdout:
        if line.endswith("\n"):
            acked = int(line)
    store = Store.open(db_path)
    (record,) = store.unfinished_games("toy") or store.finished_games("toy")
    events = store.events(record.id)
    # every acknowledged event is there; at most the one being written when killed is extra
    assert acked <= len(events) <= acked + 1
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    session = Session.load(store, record.id)
    session.state.to_json()  # replays cleanly
