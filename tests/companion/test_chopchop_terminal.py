"""The terminal game: `companion play chopchop`, driven through play() with text in and out."""

from __future__ import annotations

import io
from pathlib import Path

from companion.cli import main as cli_main
from companion.games.chopchop import ChopChopState
from companion.games.chopchop_tracker import tracker
from companion.session import Session
from companion.store import Store
from companion.terminal.chopchop import play, render_board


def run(db: Path, lines: list[str], *extra: str) -> str:
    out = io.StringIO()
    code = play(["--db", str(db), *extra], inp=io.StringIO("".join(line + "\n" for line in lines)), out=out)
    assert code == 0
    return out.getvalue()


def stored(db: Path) -> ChopChopState:
    with Store.open(db) as store:
        session = Session.resume(store, "chopchop")
        assert session is not None
        state = session.state
    assert isinstance(state, ChopChopState)
    return state


def test_a_whole_solo_game_with_r_ends(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    text = run(db, ["r"] * 5000, "--new", "--seed", "11", "--mice-players", "2")
    assert "Game over. " in text and "Traceback" not in text
    with Store.open(db) as store:
        assert store.unfinished_games("chopchop") == []
        assert len(store.finished_games("chopchop", 5)) == 1


def test_bad_input_is_explained_and_asked_again(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    text = run(db, ["9,9", "2,4", "banana", "7", "1", "5 0,2", "1 5,5", "0,2", "spoon", "x", "q"], "--new")
    assert "Not allowed: the cat starts on a table-top square, not 9,9." in text
    assert "Type the number on the die" in text
    assert "Not allowed: the mouse die has no 7" in text
    assert "Mouse 1 cannot end on F1 with this roll" in text
    assert "Unknown tile 'spoon'" in text
    assert "Mouse 1 turns the slab at C6: broken crockery" in text
    assert "Traceback" not in text
    s = stored(db)
    assert s.mice["mouse:1"] == "0,2" and s.cat == "top:2,4" and s.side == "cat"


def test_undo_across_a_reveal_and_resume(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    text = run(db, ["2,4", "1", "1 0,2", "cheese", "u", "q"], "--new")
    assert "Mouse 1 takes the cheese at C6 (mice hold 1)" in text
    assert "Undone: Mouse 1 turns the slab at C6: cheese." in text
    s = stored(db)
    assert s.phase == "reveal" and tracker(s).cheese_held == 0 and "0,2" in s.face_down
    text = run(db, ["knife", "t", "q"])
    assert "Resuming game #1" in text and "the mice miss their next turn" in text
    assert stored(db).skip["mice"]


def test_asks_which_way_in_when_it_matters(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    # roll 2: mouse 1 from 0,3 to the slab at 1,2 via 0,2 or via 1,3
    text = run(db, ["2,4", "2", "1 1,2", "9,9", "1 1,2", "1,3", "+1", "q"], "--new")
    assert "Step onto C5 from which square? (C6 or D5)" in text
    assert "'9,9' is not one of C6, D5." in text
    s = stored(db)
    assert s.phase == "bonus" and s.just_left == "1,3"
    assert "1,3" not in s.legal_destinations("mouse:1")


def test_board_text_shows_pieces_slabs_table_and_holes() -> None:
    from companion.games.chopchop import ChopChop, PlaceCat

    s = ChopChop().new_state()
    s.apply(PlaceCat("top:3,4"))
    rows = render_board(s)
    assert rows[0].split() == list("ABCDEFGH") == rows[-1].split()  # columns above and below
    assert rows[1].split() == ["6", "[##][##][##](m1)[##][##][##][##]", "6"]  # rows on both sides
    assert "{K }" in rows[4] and "(m4)" in rows[4] and rows[6].split()[0] == "1"


def test_squares_are_typed_as_printed_around_the_board(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    # the cat on the table top at E4, then mouse 1 (on D6) one step to C6, which holds a slab
    text = run(db, ["e4", "1", "1 c6", "x", "q"], "--new")
    assert "The cat starts on the table top at E4" in text and "Mouse 1 moves from D6 to C6" in text
    assert "Traceback" not in text
    s = stored(db)
    assert s.cat == "top:2,4" and s.mice["mouse:1"] == "0,2"


def test_cli_dispatch_help() -> None:
    assert cli_main(["play", "chopchop", "--help"]) == 0


def test_c8_the_terminal_game_stops_at_the_end_and_says_why_and_who_wins(tmp_path: Path) -> None:
    # a solo game typed with r: the cat sits on cheese until too little is left for the mice
    db = tmp_path / "c.db"
    text = run(db, ["r"] * 5000, "--new", "--seed", "1")
    said = "The mice can no longer win: not enough cheese is left. The cat wins"
    assert f"  * {said}" in text  # narrated when it happens ...
    tail = text[text.index(f"  * {said}"):]
    assert tail.rstrip().endswith(f"Game over. {said}.")  # ... and said last: nothing asked after it
    assert "throws" not in tail and "which piece" not in tail
    s = stored_finished(db)
    assert s.is_over() and s.won_reason == "not enough cheese is left"
    text = run(db, ["r", "r"])  # a new run starts a new game: the finished one is not resumed
    assert "Resuming" not in text


def stored_finished(db: Path) -> ChopChopState:
    with Store.open(db) as store:
        (record,) = store.finished_games("chopchop", 5)
        state = Session.load(store, record.id).state
    assert isinstance(state, ChopChopState)
    return state
