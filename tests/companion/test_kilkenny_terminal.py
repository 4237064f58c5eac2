"""``companion play kilkenny``: typed throws and moves, bad input, undo, quit and resume."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from companion.games.kilkenny import KilkennyState
from companion.session import Session
from companion.store import Store
from companion.terminal.kilkenny import play

ROOT = Path(__file__).resolve().parents[2]


def run(db: Path, lines: list[str], *args: str) -> str:
    out = io.StringIO()
    code = play(["--db", str(db), *args], inp=io.StringIO("".join(line + "\n" for line in lines)), out=out)
    assert code == 0
    return out.getvalue()


def test_typed_game_with_bad_input_undo_and_resume(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    # squares typed as printed around the board ("f5"), or by their ids ("9,5") as before
    text = run(db, ["7", "x", "3", "9,5 7,5", "95 75", "t f5", "F5 f8", "2", "u", "q"], "--names", "Ann,Bo")
    assert "Ann (red), throw the red die" in text
    assert "Type the red die's number (1-6) or r" in text  # "x"
    assert "a die shows 1 to 6, not 7" in text
    assert "Not allowed: you threw 3; F5 to F7 is 2 squares" in text
    assert "Type a move as two squares" in text  # "95 75"
    assert "The cat on F5 may go to: F8, I8, C2, C5, C8" in text
    assert "Ann moves a cat from F5 to F8" in text
    assert "Bo throws 2" in text and "Undone: Bo throws 2" in text
    assert "Traceback" not in text
    # resumed: the move stands, the undone throw does not
    text2 = run(db, ["q"])
    assert "Resuming game #1 (2 moves so far)" in text2
    with Store.open(db) as store:
        session = Session.load(store, 1)
        assert isinstance(session.state, KilkennyState)
        assert session.state.cats.get("6,5") == "red" and session.state.turn == "blue" and session.state.is_chance()


def test_players_option_and_random_throws(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    text = run(db, ["r", "?", "q"], "--players", "3", "--seed", "5", "--new")
    assert "Red (red, south), Blue (blue, north), Green (green, west)" in text
    assert "legal moves:" in text and "G = Green (west)" in text
    again = run(db, ["q"], "--players", "4")
    assert "This game has 3 players; use --new for a 4-player game." in again


def test_a_game_played_to_the_end_in_the_terminal(tmp_path: Path) -> None:
    # one cat each: red on 9,5, blue on 3,5; a 6 captures blue's only cat and red wins (L5 extension)
    db = tmp_path / "k.db"
    text = run(db, ["6", "9,5 3,5", "u", "q"], "--cats", "1", "--new")
    assert "Red captures Blue's cat on F11" in text
    assert "Red wins: the only colour with a cat that can still move" in text
    assert "Game over: Red wins." in text
    assert "Undone: Red moves a cat from F5 to F11" in text
    with Store.open(db) as store:
        assert store.unfinished_games("kilkenny")  # reopened by the undo


def test_help_through_the_companion_command() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "companion", "play", "kilkenny", "--help"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )
    assert "companion play kilkenny" in out.stdout and "--players" in out.stdout
