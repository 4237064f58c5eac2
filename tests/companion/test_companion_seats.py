"""Companion seats: stored with the game, resumed, undone back to the last person's decision;
the companion's turn (what is due, proposals in words, confirmation, hints)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from companion.companion_turn import CompanionSeats, StaleProposal, draw
from companion.games.base import CHANCE, IllegalAction
from companion.games.kilkenny import KilkennyState
from companion.games.qubism import PawnMove, PlaceCube
from companion.proposals import describe
from companion.session import Session
from companion.store import Store


def test_companion_seats_are_stored_and_resumed(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    with Store.open(db) as store:
        session = Session.start(store, "chopchop", {"mice1": "Ann"}, companions={"cat": "strong"})
        assert session.companions == {"cat": "strong"}
        assert session.is_companion("cat") and not session.is_companion("mice1")
        assert session.export()["companions"] == {"cat": "strong"}
    with Store.open(db) as store:
        resumed = Session.resume(store, "chopchop")
        assert resumed is not None
        assert resumed.companions == {"cat": "strong"}
        assert resumed.seats == {"cat": "Cat", "mice1": "Ann"}


def test_bad_companion_seat_or_strength_stores_nothing(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c.db") as store:
        with pytest.raises(ValueError, match="no player 'dog'"):
            Session.start(store, "chopchop", companions={"dog": "strong"})
        with pytest.raises(ValueError, match="easy, normal, strong"):
            Session.start(store, "chopchop", companions={"cat": "godlike"})
        assert store.unfinished_games() == []


def test_a_database_from_before_companion_seats_still_opens(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with Store.open(db) as store:
        Session.start(store, "qubism", {"white": "Ann", "black": "Bo"}).apply(PawnMove("3,2"))
    conn = sqlite3.connect(db)  # make it look like a first-release database
    conn.execute("DROP TABLE companions")
    conn.commit()
    conn.close()
    with Store.open(db) as store:
        session = Session.resume(store, "qubism")
        assert session is not None and session.companions == {} and len(session.turns) == 1
        new = Session.start(store, "qubism", companions={"black": "easy"})
        assert Session.load(store, new.game_id).companions == {"black": "easy"}


def _kilkenny_until_companion_moved(session: Session) -> None:
    rng = random.Random(3)
    seats = CompanionSeats(session)
    pattern = [("red", "touch"), ("red", "touch"), ("blue", "companion"), ("blue", "companion")]
    for _ in range(400):
        if [(t.turn_player, t.source) for t in session.turns[-4:]] == pattern:
            return
        due = seats.due()
        if due is None:  # the person: throw (by touch) and move
            if session.state.is_chance():
                session.apply(draw(session.state, rng), source="touch")
            else:
                session.apply(session.state.legal_actions()[0], source="touch")
        elif due.kind == "throw":
            seats.roll(rng)
        else:
            seats.confirm(seats.propose())
    raise AssertionError("no person's move followed by a companion move")


def test_undo_to_human_takes_back_the_companion_turn_and_the_last_person_decision(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c.db") as store:
        session = Session.start(store, "kilkenny", companions={"blue": "easy"})
        _kilkenny_until_companion_moved(session)
        # in force: red throw (touch), red move (touch), blue throw (companion), blue move (companion)
        kinds = [(t.turn_player, t.source) for t in session.turns[-4:]]
        assert kinds == [("red", "touch"), ("red", "touch"), ("blue", "companion"), ("blue", "companion")]
        before = [t.seq for t in session.turns[:-3]]
        undone = session.undo_to_human()
        assert [t.turn_player for t in undone] == ["blue", "blue", "red"]
        assert [t.seq for t in session.turns] == before
        state = session.state
        assert isinstance(state, KilkennyState)
        assert state.turn == "red" and state.to_move() == "red"  # red's throw stands: red decides again
    with Store.open(tmp_path / "c.db") as store:  # the undo is in the log: resume agrees
        again = Session.resume(store, "kilkenny")
        assert again is not None and [t.seq for t in again.turns] == before


def test_undo_to_human_counts_a_throw_typed_for_the_companion_as_its_own(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c.db") as store:
        session = Session.start(store, "kilkenny", companions={"red": "easy"})
        rng = random.Random(1)
        session.apply(draw(session.state, rng), source="serial")  # the people threw red's die
        assert session.turns[-1].player == CHANCE
        assert session.undo_to_human() != [] and session.turns == []
        assert session.undo_to_human() == []


def test_proposal_changes_nothing_until_confirmed(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c.db") as store:
        session = Session.start(store, "qubism", companions={"white": "normal"})
        seats = CompanionSeats(session)
        due = seats.due()
        assert due is not None and due.kind == "decide" and due.sentence == "Companion (White) is thinking…"
        proposal = seats.propose()
        assert session.turns == [] and proposal.action in session.state.legal_actions()
        assert proposal.sentence.startswith("White ")
        assert proposal.squares
        seats.confirm(proposal)
        assert session.turns[-1].source == "companion" and session.turns[-1].action == proposal.action
        with pytest.raises(StaleProposal):
            seats.confirm(proposal)  # the position moved on


def test_sentences_per_game() -> None:
    from companion import games
    from companion.games.chopchop import ChopChopState, Move, PlaceCat

    q = games.make("qubism").new_state()
    assert describe(q, PlaceCube("2,2", "N")).sentence == "White places a cube on C3 pointing north"
    assert describe(q, PawnMove("3,2"), {"white": "Ann"}).squares == ["4,2", "3,2"]
    c = games.make("chopchop").new_state()
    assert isinstance(c, ChopChopState)
    assert describe(c, PlaceCat("top:2,4")).sentence == "Cat puts the cat on the table top at E4"
    c.apply(PlaceCat("top:2,4"))
    rng = random.Random(0)
    while c.to_move() == CHANCE:
        c.apply(draw(c, rng))
    moves = [a for a in c.legal_actions() if isinstance(a, Move)]
    said = describe(c, moves[0])
    assert said.sentence.startswith("Mouse ") and " goes from " in said.sentence
    assert said.frm == c.position(moves[0].piece) and said.to == moves[0].to
    # two paths onto one slab: each choice says which way it goes, in words (the "Which one?" list)
    two = next(a for a in moves if a.via and a.via != c.position(a.piece))
    said = describe(c, two)
    assert " by way of " in said.sentence and "," not in said.sentence and ":" not in said.sentence
    assert said.sentence.endswith("and turns the slab")


def test_hint_for_a_person_and_no_hint_on_a_throw(tmp_path: Path) -> None:
    with Store.open(tmp_path / "c.db") as store:
        session = Session.start(store, "qubism", {"white": "Ann"}, companions={"black": "easy"})
        seats = CompanionSeats(session)
        assert seats.due() is None
        hint = seats.hint()
        assert hint.seat == "white" and hint.action in session.state.legal_actions()
        lines = hint.lines(session.state, session.seats)
        assert lines[0].startswith("Suggested: Ann ")
        k = Session.start(store, "kilkenny", companions={"blue": "easy"})
        with pytest.raises(IllegalAction, match="no move to suggest"):
            CompanionSeats(k).hint()


def test_hint_lines_give_the_winning_chances_the_player_knows() -> None:
    from companion import games
    from companion.companion_turn import Hint
    from companion.players import Option

    state = games.make("qubism").new_state()
    best, other = PawnMove("3,2"), PlaceCube("2,2", "N")
    hint = Hint("white", best, describe(state, best, {"white": "Ann"}), (Option(best, 0.625), Option(other, None)))
    assert hint.win_chance == 0.625
    assert hint.lines(state, {"white": "Ann"}) == [
        "Suggested: Ann moves the pawn from C1 to C2",
        "Ann moves the pawn from C1 to C2: 62% to win",  # an option without a chance is left out
    ]
