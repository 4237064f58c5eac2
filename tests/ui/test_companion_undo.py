"""Undo across the companion's turn, in the app (offscreen, simulated touches).

A person moves, the companion's move is made and confirmed by "Done", then the person touches
Undo: both moves are taken back (the companion's and the person's decision before it), the
board, banner, input and narration show the position from before the person's move, the
companion does not propose anything while the person is to move, its next proposal is for the
position really on the board, and the store's history holds the undo events (a resume agrees).
Also: Undo while the companion's proposal waits for "Done" (or while it is still thinking), and
a Kilkenny turn where the person's throw stands after the undo.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from companion.companion_turn import state_key
from companion.session import Session, replay
from tests.companion.test_plain_words import notation
from tests.ui.helpers import pump, screenshot, tap, tap_at, texts, wait_for
from tests.ui.test_companion_touch import _person_move, _touch_action


def _json(state: Any) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _companion_moves(app: Any, screen: Any) -> Any:
    """Wait for the companion's proposal, "make" it and touch Done; enter what a tipped cube
    shows if it asks. Returns the proposal."""
    session, turn = app.session, screen._companion_turn
    assert wait_for(lambda: turn.proposal is not None, timeout=20)
    proposal = turn.proposal
    before = len(session.turns)
    tap(turn.panel.ids.done)
    assert len(session.turns) == before + 1
    assert session.turns[-1].source == "companion" and session.turns[-1].action == proposal.action
    while session.state.is_chance():  # its cube tipped: the people enter the arrow on top
        assert screen.prompt.startswith("Companion (Black)")
        tap(next(iter(screen.tile_picker.buttons.values())))
    return proposal


def _no_proposal_for(screen: Any, seconds: float) -> None:
    """For ``seconds`` of frames: the companion neither thinks nor shows a move."""
    turn = screen._companion_turn
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pump()
        assert turn.proposal is None and turn.thinking is None
        done = turn.panel.ids.done
        assert turn.panel.parent is None or (done.opacity == 0 and done.disabled), "Done is on screen"
        time.sleep(0.02)


def _shows_person_to_move(app: Any, screen: Any, position: str) -> None:
    session = app.session
    assert _json(session.state) == position
    state = session.state
    assert state.to_move() == "white"
    assert screen.ids.board.tokens == dict(state.board_view())
    assert screen.banner == "Ann's turn (White)"
    assert screen.input_mode == "move" and screen.prompt.startswith("Touch ")
    assert screen.ids.hint_button.parent is not None  # a person's turn: Hint, not the companion
    assert screen._companion_turn.panel.parent is None


def test_undo_after_done_takes_back_the_companion_move_and_the_persons(make_app: Any) -> None:
    app = make_app()
    app.start_game("qubism", {"white": "Ann"}, {}, {"black": "easy"})
    screen = app.screen("qubism")
    session = app.session
    pump(2)
    _touch_action(app, screen, _person_move(session.state))  # a first round, so Undo has more behind it
    _companion_moves(app, screen)

    position = _json(session.state)  # Ann to move: what Undo must come back to
    kept = [t.seq for t in session.turns]
    events_before = len(app.store.events(session.game_id))
    ann = _person_move(session.state)
    _touch_action(app, screen, ann)
    proposal = _companion_moves(app, screen)
    undone = session.turns[len(kept):]  # Ann's move, the companion's (and a reveal it asked for)
    undone_count = len(undone)
    assert undone_count >= 2 and session.state.to_move() == "white"

    tap(screen.ids.undo_button)
    assert [t.seq for t in session.turns] == kept
    _shows_person_to_move(app, screen, position)
    # the narration says what was taken back (newest line first: Ann's move, undone last)
    assert screen.narration[:undone_count] == [f"Undone: {screen.undone_words(t)}." for t in undone]
    for line in screen.narration[:undone_count]:  # in words: "Undone: Ann moves the pawn from C1 to C2."
        assert notation(line) == [] and line.startswith("Undone: ") and ":" not in line[8:], line
    assert "Undone." in app.toaster.history[-1]
    assert screen.ids.board.highlights == screen.highlight_squares(session.state)  # Ann's squares, not its move
    screenshot(app.root, "game_companion_undone_800x480")
    # the companion does not come back with its move: it is Ann's turn
    _no_proposal_for(screen, 0.5)

    # the store's history: every event kept, the undos appended (by touch); a replay agrees
    events = app.store.events(session.game_id)
    new = events[events_before:]
    assert [e.kind for e in new] == ["action"] * undone_count + ["undo"] * undone_count
    assert {e.source for e in new if e.kind == "undo"} == {"touch"}
    assert [e.source for e in new if e.kind == "action"][:2] == ["touch", "companion"]
    assert _json(replay(session.game, events)[0]) == position
    assert _json(Session.load(app.store, session.game_id).state) == position

    # the game goes on: Ann moves, and the companion proposes for the position on the board
    _touch_action(app, screen, ann)
    turn = screen._companion_turn
    assert wait_for(lambda: turn.proposal is not None, timeout=20)
    assert turn.proposal.state_key == state_key(session.state)
    assert turn.proposal.action in session.state.legal_actions()
    tap(turn.panel.ids.done)
    assert session.turns[-1].source == "companion"


def test_undo_while_the_proposal_waits_for_done(make_app: Any) -> None:
    app = make_app()
    app.start_game("qubism", {"white": "Ann"}, {}, {"black": "easy"})
    screen = app.screen("qubism")
    session, turn = app.session, screen._companion_turn
    pump(2)
    start = _json(session.state)
    _touch_action(app, screen, _person_move(session.state))
    assert wait_for(lambda: turn.proposal is not None, timeout=20)
    waiting = turn.proposal
    assert screen.ids.board.highlights == waiting.squares
    tap(screen.ids.undo_button)  # nothing of the companion's was confirmed: Ann's move only
    assert session.turns == []
    _shows_person_to_move(app, screen, start)
    assert screen.narration[0].startswith("Undone: ")
    _no_proposal_for(screen, 0.5)
    turn.done()  # a late "Done" (a GPIO button) has nothing to confirm
    assert session.turns == []
    assert [e.kind for e in app.store.events(session.game_id)] == ["action", "undo"]


def test_undo_while_the_companion_is_still_thinking(make_app: Any) -> None:
    app = make_app()
    app.start_game("qubism", {"white": "Ann"}, {}, {"black": "easy"})
    screen = app.screen("qubism")
    session, turn = app.session, screen._companion_turn
    pump(2)
    start = _json(session.state)
    app.apply(_person_move(session.state), "touch")  # no frame in between: its search runs
    assert turn.thinking is not None and turn.proposal is None
    app.undo()  # the Undo button (or the GPIO undo) before the search came back
    pump(2)
    _shows_person_to_move(app, screen, start)
    _no_proposal_for(screen, 0.5)  # what the search found for the undone position is dropped
    assert session.turns == []


def _touch_kilkenny_move(app: Any, screen: Any, move: Any) -> None:
    """A finger on Kilkenny's small squares: the first touch zooms in, then the cat, then its
    target (touched twice where the view widened to the cat's targets and zooms in again)."""
    view = screen.ids.board
    before = len(app.session.turns)
    tap_at(*view.to_window(*view.square_centre(move.frm)))
    if screen.selected != move.frm:
        tap_at(*view.to_window(*view.square_centre(move.frm)))
    assert screen.selected == move.frm
    tap_at(*view.to_window(*view.square_centre(move.to)))
    if len(app.session.turns) == before:  # the targets far apart, the finger on several: closer first
        tap_at(*view.to_window(*view.square_centre(move.to)))
    assert len(app.session.turns) == before + 1 and app.session.turns[-1].action == move


def test_kilkenny_undo_keeps_the_persons_throw(make_app: Any) -> None:
    app = make_app()
    app.start_game("kilkenny", {"red": "Ann"}, {}, {"blue": "easy"})
    screen = app.screen("kilkenny")
    session, turn = app.session, screen._companion_turn
    rng = random.Random(8)
    pump(2)
    for _ in range(60):  # until Ann's throw, Ann's move, the companion's throw and move are in force
        if [(t.turn_player, t.source) for t in session.turns[-4:]] == [
            ("red", "touch"), ("red", "touch"), ("blue", "companion"), ("blue", "companion")
        ] and session.state.current_player() == "red":
            break
        state = session.state
        if state.is_over():
            raise AssertionError("the game ended before the companion moved")
        if state.current_player() == "red":
            if state.is_chance():
                screen.enter_throw((rng.randint(1, 6),), "touch")  # what the dice picker does
            else:
                _touch_kilkenny_move(app, screen, state.legal_actions()[-1])
        elif state.is_chance():
            assert screen.prompt == "Throw the blue die for me (Blue)"
            tap(turn.panel.ids.roll_for_me)
        else:
            assert wait_for(lambda: turn.proposal is not None, timeout=20)
            tap(turn.panel.ids.done)
        pump()
    else:
        raise AssertionError("no companion move after a person's move")
    # the position just after Ann's throw: the events before Ann's move, replayed
    ann_move = session.turns[-3]
    kept_json = _json(replay(session.game, [e for e in app.store.events(session.game_id)
                                            if e.seq < ann_move.seq])[0])
    tap(screen.ids.undo_button)
    state = session.state
    assert _json(state) == kept_json
    assert state.to_move() == "red" and not state.is_chance()  # Ann's throw stands: she moves again
    assert screen.input_mode == "move" and screen.banner == "Ann's turn (Red)"
    assert screen.ids.board.tokens == dict(state.board_view())
    assert [line.startswith("Undone: ") for line in screen.narration[:3]] == [True, True, True]
    _no_proposal_for(screen, 0.3)
    assert [e.kind for e in app.store.events(session.game_id)[-3:]] == ["undo"] * 3
    assert "Hint" in texts(screen)
