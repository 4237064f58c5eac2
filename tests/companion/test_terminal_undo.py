"""``u`` in a terminal game against a companion seat goes back to the person's last decision, as
the app's Undo does (``Session.undo_to_human``): the companion's reply is undone with it and not
played again at once. Without a companion, ``u`` still takes back one action."""

from __future__ import annotations

import io
from pathlib import Path

from companion.session import Session
from companion.store import Store
from companion.terminal import chopchop, katenmuis, qubism
from companion.terminal.seats import CompanionConsole


def typed(play: object, db: Path, lines: list[str], *args: str) -> tuple[str, Session]:
    """Run a terminal game on ``lines``; its output and the game as stored afterwards."""
    out = io.StringIO()
    inp = io.StringIO("".join(line + "\n" for line in lines))
    argv = ["--db", str(db), *args]
    if play is katenmuis.play:
        assert katenmuis.play(argv, CompanionConsole(inp, out)) == 0
    else:
        assert play(argv, inp, out) == 0  # type: ignore[operator]
    with Store.open(db) as store:
        (record,) = store.unfinished_games()
        session = Session.load(store, record.id)
    return out.getvalue(), session


def test_qubism_undo_against_the_companion_takes_back_the_persons_move(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    text, session = typed(qubism.play, db, ["pawn 3,2", "u", "q"], "--companion", "black", "--seed", "4")
    assert "Companion (Black): Black " in text  # it replied ...
    assert text.count("Companion (Black): Black ") == 1  # ... once, and not again after the undo
    assert "Undone: " in text
    assert session.turns == [] and session.state.to_move() == "white"
    assert session.state == session.game.new_state()


def test_chopchop_undo_against_the_companion_cat_goes_back_past_its_turn(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    # the companion seats the cat; the mice throw 1, mouse 1 steps onto 0,2, crockery; the cat replies
    lines = ["1", "1 0,2", "x", "u", "q"]
    text, session = typed(chopchop.play, db, lines, "--companion", "cat", "--seed", "2", "--new")
    assert text.count("Companion (Cat) throws.") == 1
    s = session.state
    # back to the mice's last entry (the tile told), with the cat's throw and move undone
    assert s.phase == "reveal" and s.side == "mice" and s.mice["mouse:1"] == "0,2"  # type: ignore[attr-defined]
    assert [t.player for t in session.turns] == ["cat", "chance", "mice1"]  # the cat placed, 1, the move
    assert not any(t.source == "companion" and t.player == "chance" for t in session.turns)


def test_katenmuis_undo_against_the_companion_mouse_takes_back_the_persons_throw(tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    text, session = typed(katenmuis.play, db, ["3 5", "u", "q"], "--companion", "mouse", "--seed", "1", "--new")
    assert text.count("Companion (Mouse) throws.") == 1
    assert session.turns == []
    assert session.state == session.game.new_state()


def test_without_a_companion_u_takes_back_one_action(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    _text, session = typed(qubism.play, db, ["pawn 3,2", "pawn 1,2", "u", "q"], "--seed", "4")
    assert [t.player for t in session.turns] == ["white"]
