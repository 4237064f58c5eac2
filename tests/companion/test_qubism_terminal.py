"""``companion play qubism``: typed actions, the observed tip, bad input, undo, quit and resume."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from companion.games.qubism import QubismState
from companion.session import Session
from companion.store import Store
from companion.terminal.qubism import play

ROOT = Path(__file__).resolve().parents[2]


def run(db: Path, lines: list[str], *args: str) -> str:
    out = io.StringIO()
    code = play(["--db", str(db), *args], inp=io.StringIO("".join(line + "\n" for line in lines)), out=out)
    assert code == 0
    return out.getvalue()


def test_typed_actions_tip_bad_input_undo_and_resume(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    text = run(db, [
        "pawn c2",           # white, the square as printed around the board
        "place 2,2 X",       # malformed
        "place 0,3 W",       # arrow at Black's pawn
        "place A3 E",        # black
        "jump",              # nonsense
        "slide 2,0 4",       # white slides it to the far edge
        "pawn 2,2",          # a tip is due
        "x",
        "S",
        "u",
        "q",
    ], "--names", "Ann,Bo")
    assert "Ann moves from C1 to C2" in text
    assert "Type a placement as: place SQUARE ARROW" in text
    assert "Not allowed: the arrow must point at an empty square, and C5 is not empty" in text
    assert "Bo places a cube on A3, its arrow pointing east (8 left in the pool)" in text
    assert "Type pawn C2, place C3 N or slide C3 2" in text
    assert "Ann slides the cube from A3 to E3" in text  # typed by its id, "slide 2,0 4"
    assert "Type the arrow now on top of the cube on E3" in text
    assert "the cube on E3 now points south" in text
    assert "Undone: the cube on E3 now points south" in text
    assert "Traceback" not in text
    text2 = run(db, ["N", "q"])
    assert "Resuming game #1 (3 moves so far)" in text2
    assert "the cube on E3 now points north" in text2
    with Store.open(db) as store:
        state = Session.load(store, 1).state
        assert isinstance(state, QubismState)
        assert state.cubes == {"2,4": "N"} and state.to_move() == "black"


def test_cut_off_message_and_a_won_game(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    moves = ["3,2", "1,2", "3,1", "2,2", "2,1", "3,2", "1,1", "3,3", "0,1", "u", "q"]
    text = run(db, moves, "--new")
    assert "White reaches B5 and wins" in text and "Game over: White wins." in text
    assert "Undone: White moves from B4 to B5" in text
    wall = run(tmp_path / "w.db", [
        "place 3,0 N", "place 3,1 N", "place 3,3 N", "place 3,4 N", "place 3,2 N", "q",
    ], "--new")
    assert "Not allowed: a cube on C2 would wall White off from row 5 and Black off from row 1" in wall


def test_cube_model_option(tmp_path: Path) -> None:
    text = run(tmp_path / "q.db", ["place 2,0 E", "slide 2,0 2", "?", "q"], "--cube-model", "forward")
    assert "the cube on C3 now points east" in text and "legal actions" in text
    assert "slide C3 1" in text  # the "?" list names squares as printed, in the form to type


def test_help_through_the_companion_command() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "companion", "play", "qubism", "--help"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )
    assert "companion play qubism" in out.stdout and "--cube-model" in out.stdout
