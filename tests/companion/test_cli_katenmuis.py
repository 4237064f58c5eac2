"""`companion play|replay|odds katenmuis` through real subprocesses."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.games.katenmuis import Throw
from companion.odds import table
from companion.session import Session
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
    )


# -- replay -------------------------------------------------------------------------------------


def test_replay_json_exact_shape_on_a_hand_checked_sequence() -> None:
    # Cat 3-4 -> 7. Mouse 6-6 (K4): pays Cat 2, stays. Cat 1-1 (K5) -> 11: Mouse pays 2.
    # Mouse 2-3 -> 5: loses his next turn. Cat 5-5 counts 10 -> 21; Mouse's turn is skipped.
    r = run("replay", "katenmuis", "--throws", "3-4 6-6 1-1 2-3 5-5", "--json")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == json.dumps(
        {
            "cat": {"square": 21, "chips": 29, "skip_next": False},
            "mouse": {"square": 5, "chips": 21, "skip_next": False},
            "to_move": "cat",
            "winner": None,
            "throws_used": 5,
            "pots": 10,
        }
    )


def test_replay_stops_at_a_win() -> None:
    # Cat takes every shortcut 11, 22, 33, 44, 55 (+2 each) while Mouse creeps 3, 6, 9 (pays 1),
    # 12 (= red 55: Cat lands on him, no jump), 15 (loses his next turn); Cat 1-2 -> 58, Mouse's
    # turn is skipped, Cat 6-6 past 55 goes home and takes both pots.
    throws = "1-1 1-2 2-2 1-2 3-3 1-2 4-4 1-2 5-5 1-2 1-2 6-6 3-3 4-4"
    r = run("replay", "katenmuis", "--throws", throws, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {
        "cat": {"square": 66, "chips": 46, "skip_next": False},
        "mouse": {"square": 15, "chips": 14, "skip_next": False},
        "to_move": None,
        "winner": "cat",
        "throws_used": 12,
        "pots": 0,
    }


def test_replay_settings() -> None:
    r = run("replay", "katenmuis", "--throws", "1-1", "--shortcut", "strictly_past", "--json")
    assert json.loads(r.stdout)["cat"] == {"square": 11, "chips": 27, "skip_next": False}
    r = run("replay", "katenmuis", "--throws", "2-2", "--shortcut", "strictly_past", "--json")
    assert json.loads(r.stdout)["cat"] == {"square": 4, "chips": 24, "skip_next": False}


@pytest.mark.parametrize("shortcut", ["reached", "strictly_past"])
def test_replay_K5_double_one_from_the_start_both_settings(shortcut: str) -> None:
    r = run("replay", "katenmuis", "--throws", "1-4 1-1", "--shortcut", shortcut, "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["mouse"] == {"square": 11, "chips": 27, "skip_next": False}
    assert data["cat"] == {"square": 5, "chips": 23, "skip_next": False}
    assert data["to_move"] == "mouse"  # Cat's lost turn (square 5) already taken
    r = run("replay", "katenmuis", "--throws", "6-6 2-3", "--bank", "10", "--stake", "2", "--json")
    data = json.loads(r.stdout)
    assert (data["cat"]["chips"], data["mouse"]["chips"], data["pots"]) == (6, 10, 4)
    assert data["mouse"] == {"square": 5, "chips": 10, "skip_next": True}
    assert data["to_move"] == "cat"
    r = run("replay", "katenmuis", "--throws", "")
    assert r.returncode == 0 and "Cat throws next" in r.stdout


@pytest.mark.parametrize("throws", ["3-4 7-1", "3-4 abc", "3-", "0-2", "3-4-5"])
def test_replay_malformed_throws(throws: str) -> None:
    r = run("replay", "katenmuis", "--throws", throws, "--json")
    assert r.returncode == 2
    assert "malformed --throws" in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_help_everywhere() -> None:
    for cmd in ("play", "replay", "odds"):
        r = run(cmd, "katenmuis", "--help")
        assert r.returncode == 0 and f"companion {cmd} katenmuis" in r.stdout


# -- odds ---------------------------------------------------------------------------------------


def test_odds_json() -> None:
    r = run("odds", "katenmuis", "--json")
    data = json.loads(r.stdout)
    assert set(data) == {"cat_wins", "mouse_wins", "cat_expected_chips", "mouse_expected_chips"}
    assert data["cat_wins"] == pytest.approx(table().cat_wins(0, 0), abs=1e-15)
    assert data["cat_wins"] + data["mouse_wins"] == pytest.approx(1)
    r = run("odds", "katenmuis", "--cat", "60", "--mouse", "10", "--to-move", "mouse", "--mouse-skips", "--json")
    assert json.loads(r.stdout)["cat_wins"] == pytest.approx(table().cat_wins(60, 10, "cat"), abs=1e-15)
    r = run("odds", "katenmuis", "--cat", "67")
    assert r.returncode == 2 and "0 (the start) to 66" in r.stderr and "Traceback" not in r.stderr


# -- play ---------------------------------------------------------------------------------------


def test_play_bad_throw_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    r = run("play", "katenmuis", "--db", str(db), "--new", stdin="7 1\n3 9\nzz\n3 5\nq\n")
    assert r.returncode == 0, r.stderr
    assert "a die shows 1 to 6, not 7" in r.stdout
    assert "a die shows 1 to 6, not 9" in r.stdout
    assert "'zz' is not a throw" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr
    with Store.open(db) as store:
        (record,) = store.unfinished_games("katenmuis")
        assert [e.payload for e in store.events(record.id)] == [{"type": "Throw", "dice": [3, 5]}]


def test_play_quit_and_resume_in_a_second_process(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    r = run("play", "katenmuis", "--db", str(db), "--cat", "Anna", "--mouse", "Bram", stdin="3 4\n6-6\n11\nq\n")
    assert r.returncode == 0, r.stderr
    assert "Anna throws 3 and 4." in r.stdout and "Game saved" in r.stdout
    assert "Move 3 saved. Bram (Mouse) to throw." in r.stdout
    r = run("play", "katenmuis", "--db", str(db), stdin="u\n2 3\nq\n")
    assert "Resuming game #1 (3 moves so far)" in r.stdout
    assert "Undone: Anna throws double 1." in r.stdout
    with Store.open(db) as store:
        session = Session.resume(store, "katenmuis")
        assert session is not None and session.seats == {"cat": "Anna", "mouse": "Bram"}
        assert [t.action for t in session.turns] == [Throw((3, 4)), Throw((6, 6)), Throw((2, 3))]
        assert session.state.square == {"cat": 12, "mouse": 0}


def test_play_to_the_end_records_chips_in_history(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    throws = "1-1 1-2 2-2 1-2 3-3 1-2 4-4 1-2 5-5 1-2 1-2 6-6".split()
    r = run("play", "katenmuis", "--db", str(db), "--cat", "Anna", "--mouse", "Bram", stdin="\n".join(throws) + "\nq\n")
    assert "Game over. Chips won: Anna +16, Bram -16" in r.stdout
    r = run("history", "--db", str(db), "--json")
    totals = {row["player"]: row["score"] for row in json.loads(r.stdout)["players"]}
    assert totals == {"Anna": 16.0, "Bram": -16.0}


def test_play_roll_off_decides_roles(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    r = run("play", "katenmuis", "--db", str(db), "--roll-off", "--cat", "Anna", "--mouse", "Bram",
            stdin="3 4\n5 2\n1 1\n6 6\nq\n")
    assert "a tie, throw again" in r.stdout
    assert "Bram is Cat, Anna is Mouse" in r.stdout


# -- the database -------------------------------------------------------------------------------


def test_corrupt_database_is_a_clear_error_and_untouched(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"definitely not sqlite " * 200)
    before = bad.read_bytes()
    r = run("play", "katenmuis", "--db", str(bad), stdin="3 4\nq\n")
    assert r.returncode != 0
    assert "is not a companion database" in r.stderr and "left untouched" in r.stderr
    assert "Traceback" not in r.stderr + r.stdout
    assert bad.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.db"]


def test_locked_database_is_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    Store.open(db).close()
    locker = sqlite3.connect(db, isolation_level=None)
    locker.execute("PRAGMA locking_mode = EXCLUSIVE")
    locker.execute("BEGIN EXCLUSIVE")
    try:
        r = run("play", "katenmuis", "--db", str(db), stdin="3 4\nq\n")
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert r.returncode != 0
    assert "locked" in r.stderr and "Traceback" not in r.stderr + r.stdout


# -- crash --------------------------------------------------------------------------------------


def test_sigkill_mid_game_resumes_with_every_acknowledged_throw(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "katenmuis", "--db", str(db), "--new"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None
    cycle = [(1, 2), (2, 1), (1, 3), (2, 2), (1, 2), (1, 1)]
    sent: list[tuple[int, int]] = []
    acked = 0
    deadline = time.monotonic() + 60
    try:
        while acked < 12 and time.monotonic() < deadline:
            dice = cycle[len(sent) % len(cycle)]
            proc.stdin.write(f"{dice[0]} {dice[1]}\n")
            proc.stdin.flush()
            sent.append(dice)
            for line in proc.stdout:
                if f"Move {len(sent)} saved." in line:
                    acked = len(sent)
                    break
        # one more throw in flight, then the power goes
        proc.stdin.write("1 2\n")
        proc.stdin.flush()
        sent.append((1, 2))
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=10)
    assert acked == 12
    with Store.open(db) as store:
        (record,) = store.unfinished_games("katenmuis")
        events = store.events(record.id)
        assert acked <= len(events) <= acked + 1
        assert [e.payload["dice"] for e in events] == [sorted(d) for d in sent[: len(events)]]
        session = Session.load(store, record.id)
        assert len(session.turns) == len(events)
    r = run("play", "katenmuis", "--db", str(db), stdin="q\n")
    assert f"Resuming game #{record.id} ({len(events)} moves so far)" in r.stdout
