"""Fault injection: SIGKILL at every database write of a whole game of each kind (the winning
move and the undo of a win included), then resume: nothing acknowledged is lost, history right.

The killing is done by real processes (``tests/companion/store_driver.py``, a fork server:
each child plays the seeded game and SIGKILLs itself just before write number N); this test
opens each database the child left, checks it, and finishes the game on it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.session import Session, replay
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("store_driver.py")

# short enough games: the driver takes the first seed that ends within 80 actions
KINDS = {
    "katenmuis": {},
    "qubism": {},
    "kilkenny": {"cats": 1},
    "chopchop": {"cheese_to_win": 1},
}


def _history(store: Store) -> list[tuple[Any, ...]]:
    return [(r["game"], r["player"], r["role"], r["won"], r["score"]) for r in store.player_history()]


def _log(store: Store, gid: int) -> list[tuple[str, str]]:
    return [(e.kind, json.dumps(e.payload, sort_keys=True)) for e in store.events(gid)]


@pytest.mark.slow  # about a minute for the four on 2 cores; run by default
@pytest.mark.parametrize("game_key", list(KINDS))
def test_sigkill_at_every_write_loses_nothing_acknowledged(game_key: str, tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(DRIVER), game_key, json.dumps(KINDS[game_key]), str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=True,
    )
    report = json.loads(out.stdout)
    assert report["points"] > 2 * len(report["actions"])  # a commit (and more) per move
    assert set(report["fates"].values()) == {"killed"}  # every child died by SIGKILL at its write

    with Store.open(tmp_path / "ref.db") as ref:
        (ref_record,) = ref.finished_games()
        ref_log = _log(ref, ref_record.id)
        ref_history = _history(ref)
    assert ref_log[-2:] == [("undo", "{}"), ref_log[-3]]  # won, undone, won again

    for n in range(1, report["points"] + 1):
        ack = tmp_path / f"{n}.ack"
        acked = int(ack.read_text().split()[-1]) if ack.exists() and ack.read_text().strip() else 0
        with Store.open(tmp_path / f"{n}.db") as store:
            store._conn.execute("PRAGMA synchronous = OFF")  # as in the driver: no power cut here
            records = store.unfinished_games(game_key) + store.finished_games(game_key)
            assert len(records) <= 1, n
            if not records:
                assert acked == 0, n
                session = Session.start(store, game_key, None, KINDS[game_key])
            else:
                record = records[0]  # as the killed process left it (before Session repairs anything)
                state, _ = replay(games.make(game_key, record.settings), store.events(record.id))
                # the game's end is saved with the move that ended it (and undone with its undo)
                assert (record.finished is not None) == state.is_over(), n
                if state.is_over():
                    assert record.outcome == json.loads(json.dumps(state.outcome()))
                    assert [g.id for g in store.finished_games()] == [record.id]
                    assert len(store.player_history()) == len(record.seats)
                else:
                    assert store.finished_games() == [] and store.player_history() == [], n
                session = Session.load(store, record.id)
            log = _log(store, session.game_id)
            # every acknowledged event is there; at most the one being written is extra
            assert acked <= len(log) <= acked + 1, (n, acked, len(log))
            assert log == ref_log[: len(log)], n
            # resume and finish the game: the same game, the same history
            for kind, payload in ref_log[len(log):]:
                if kind == "undo":
                    session.undo("test")
                else:
                    session.apply(json.loads(payload), "test")
            assert _log(store, session.game_id) == ref_log, n
            assert _history(store) == ref_history, n
