"""``companion play GAME --companion SIDE[,SIDE...]``: the companion plays its seats in the
terminal; whole seeded games finish, people get hints, a wrong side is a clear error."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.games.base import State
from companion.games.kilkenny import Move as KMove
from companion.games.qubism import PawnMove, QubismState
from companion.session import Session
from companion.store import Store
from companion.terminal import chopchop, katenmuis, kilkenny, qubism
from companion.terminal.seats import CompanionConsole

ROOT = Path(__file__).resolve().parents[2]


class PersonAtTheKeyboard(io.StringIO):
    """stdin for a person who looks at the game (read back from the database through a second
    connection, as it is on disk) and types what ``policy`` says."""

    def __init__(self, db: Path, game: str, policy: Callable[[State], str], first: list[str] | None = None) -> None:
        super().__init__()
        self.db, self.game, self.policy = db, game, policy
        self.first = deque(first or [])
        self.typed = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.first:
            return self.first.popleft() + "\n"
        self.typed += 1
        assert self.typed < 3000, "the game does not end"
        with Store.open(self.db, readonly=True) as store:  # a reader beside the one writer
            session = Session.resume(store, self.game)
            if session is None:  # the game is over
                return "q\n"
            return self.policy(session.state) + "\n"


def _goal_distance(state: QubismState, square: str, player: str) -> int:
    geo = state.game.geometry
    goal = state.game.goal_of[player]
    seen, todo = {square: 0}, deque([square])
    while todo:
        sq = todo.popleft()
        if sq in goal:
            return seen[sq]
        r, c = geo.cells[sq]
        for nxt in (geo.at.get((r + dr, c + dc)) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))):
            if nxt is not None and nxt not in seen and nxt not in state.cubes:
                seen[nxt] = seen[sq] + 1
                todo.append(nxt)
    return 99


def qubism_person(state: State) -> str:
    """Run for the goal along a shortest path; 'r' for a tip."""
    assert isinstance(state, QubismState)
    if state.is_chance():
        return "r"
    me = state.to_move() or ""
    moves = [a for a in state.legal_actions() if isinstance(a, PawnMove)]
    best = min(moves, key=lambda a: (_goal_distance(state, a.to, me), a.to))
    return f"pawn {best.to}"


def test_qubism_person_against_the_companion_to_the_end(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    out = io.StringIO()
    inp = PersonAtTheKeyboard(db, "qubism", qubism_person, first=["hint"])
    assert qubism.play(["--db", str(db), "--companion", "black", "--strength", "easy", "--seed", "4"], inp, out) == 0
    text = out.getvalue()
    assert "The companion plays Black (easy)." in text
    assert "  Suggested: White " in text  # the hint before White's first move
    assert "Companion (Black): Black " in text
    assert "Game over: " in text and "Traceback" not in text
    with Store.open(db) as store:
        (record,) = store.finished_games("qubism")
        assert record.companions == {"black": "easy"}
        turns = Session.load(store, record.id).turns
        assert {t.source for t in turns if t.player == "black"} == {"companion"}
        assert {t.source for t in turns if t.player == "white"} == {"typed"}


def test_chopchop_companion_cat_and_mice_play_a_whole_game(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    out = io.StringIO()
    reveals = io.StringIO("r\n" * 400)  # the people turn the slabs (r: drawn here)
    assert chopchop.play(["--db", str(db), "--companion", "cat,mice", "--seed", "3"], reveals, out) == 0
    text = out.getvalue()
    assert "Companion (Cat): Cat puts the cat on the table top at " in text
    assert "Companion (Mice): Mouse " in text and "Game over. " in text
    with Store.open(db) as store:
        (record,) = store.finished_games("chopchop")
        assert record.companions == {"cat": "normal", "mice1": "normal"}
        turns = Session.load(store, record.id).turns
        assert all(t.source == "companion" for t in turns if t.player != "chance")
        assert any(t.source == "random" for t in turns if t.player == "chance")  # reveals by the people


def test_chopchop_companion_cat_against_people_who_type_r(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    out = io.StringIO()
    assert chopchop.play(["--db", str(db), "--companion", "cat", "--seed", "5"], io.StringIO("r\n" * 600), out) == 0
    assert "Game over. " in out.getvalue()
    with Store.open(db) as store:
        (record,) = store.finished_games("chopchop")
        turns = Session.load(store, record.id).turns
        assert {t.source for t in turns if t.player == "cat"} == {"companion"}
        assert {t.source for t in turns if t.player == "mice1"} == {"random"}


def kilkenny_person(state: State) -> str:
    """Throw with r; move a cat picked by the position (a person who plays at random)."""
    if state.is_chance():
        return "r"
    # squares off the grid ("-1,7") cannot be typed in this terminal yet: such moves are left out
    moves = [a for a in state.legal_actions() if "-" not in str(a)] or state.legal_actions()
    move = random.Random(repr(state.to_json())).choice(moves)
    assert isinstance(move, KMove)
    return f"{move.frm} {move.to}"


def test_kilkenny_three_colours_two_companions(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    out = io.StringIO()
    inp = PersonAtTheKeyboard(db, "kilkenny", kilkenny_person)
    args = ["--db", str(db), "--players", "3", "--companion", "green,blue", "--seed", "2", "--cats", "3"]
    assert kilkenny.play(args, inp, out) == 0
    text = out.getvalue()
    assert "Companion (Green) throws." in text and "Companion (Blue): Blue moves the cat from " in text
    assert "Game over: " in text
    with Store.open(db) as store:
        (record,) = store.finished_games("kilkenny")
        assert record.companions == {"green": "normal", "blue": "normal"}


def test_katenmuis_companion_mouse(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    out = io.StringIO()
    con = CompanionConsole(io.StringIO("r\n" * 200), out)
    assert katenmuis.play(["--db", str(db), "--companion", "mouse", "--seed", "1"], con) == 0
    text = out.getvalue()
    assert "Companion (Mouse) throws." in text and "Game over. Chips won:" in text
    with Store.open(db) as store:
        (record,) = store.finished_games("katenmuis")
        turns = Session.load(store, record.id).turns
        assert {t.source for t in turns if t.turn_player == "mouse"} == {"companion"}


@pytest.mark.parametrize(
    ("game", "side", "sides"),
    [("qubism", "purple", "white, black"), ("chopchop", "dog", "cat, mice1"), ("katenmuis", "rat", "cat, mouse")],
)
def test_a_wrong_side_is_a_clear_error(tmp_path: Path, game: str, side: str, sides: str) -> None:
    res = subprocess.run(
        [sys.executable, "-m", "companion", "play", game, "--db", str(tmp_path / "x.db"), "--companion", side],
        capture_output=True, text=True, cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL,
    )
    assert res.returncode == 2
    assert f"has no side '{side}'; the sides are: {sides}" in res.stderr
    assert not (tmp_path / "x.db").exists() or "Traceback" not in res.stderr
