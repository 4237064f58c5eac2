"""The camera proposes Chop! Chop!'s move (ui.cammoves through ui.camwatch), in the real app on
rendered 3-D pictures read by the real board reader: the players moved a mouse under the table
top where the cat stands; the camera offers that move, naming the mouse from the game (the
mice look alike), and the game changes only when the players touch the offer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.ui.helpers import pump, small_text, small_touch_targets, tap, texts, wait_for
from tests.ui.scenes_chopchop import moves_apart, three_moves, two_ways
from tests.ui.test_camera_play import _watching_app
from vision.synth.board3d_play import random_action


@pytest.fixture(autouse=True)
def _own_db_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "home" / "companion.db"))


def _under_cat(state: Any) -> list[Any]:
    """The moves of a mouse to the floor square under the table-top cat."""
    if state.is_chance() or state.is_over() or not str(state.cat or "").startswith("top:"):
        return []
    return [a for a in state.legal_actions()
            if type(a).__name__ == "Move" and a.piece.startswith("mouse") and a.to == str(state.cat)[4:]]


def _scene(seed: int = 26) -> tuple[list[Any], Any, np.ndarray, dict[str, str], np.ndarray]:
    """Seeded legal play up to a turn where a mouse may go under the table-top cat: (the actions
    so far, that move, the start's picture and position, the picture after the move)."""
    from companion import games
    from vision.boarddefaults import board_for
    from vision.synth.board3d import make_setup, render_3d_scene
    from vision.synth.board3d_play import layout_of

    board = board_for("chopchop")
    rng = np.random.default_rng(seed)
    state = games.make("chopchop", {}).new_state()
    history: list[Any] = []
    while not _under_cat(state):
        action = random_action(state, rng)
        state.apply(action)
        history.append(action)
        assert len(history) < 60
    move = _under_cat(state)[0]
    look = np.random.default_rng(seed + 1)
    setup = make_setup(board, look, max_tilt_deg=15)
    start = games.make("chopchop", {}).new_state()
    start.apply(history[0])  # C1: the cat on the table top
    first = layout_of(board, start, look)
    start_img = render_3d_scene(board, first, setup, look, arm=False, person=False).image
    after = state.clone()
    after.apply(move)
    after_img = render_3d_scene(board, layout_of(board, after, look), setup, look, arm=False, person=False).image
    return history, move, start_img, dict(first.squares), after_img


def test_the_camera_offers_the_mouse_that_went_under_the_table_top_cat_and_the_game_waits_for_the_touch(
        make_app: Any, tmp_path: Path) -> None:
    from vision.boarddefaults import board_for
    from vision.pieces import BoardReader

    history, move, start_img, start_squares, after_img = _scene()
    reader = BoardReader(board_for("chopchop"))
    reader.learn(start_img, start_squares)  # `board learn` on the start photo
    feed = tmp_path / "feed"
    feed.mkdir()
    cv2.imwrite(str(feed / "000.jpg"), after_img)  # the camera sees the board after the players' move
    app = _watching_app(make_app, lambda frame: [], feed=feed, board_reader=reader.read,
                        check_still_s=0.1, check_grace_s=0.3)
    app.start_game("chopchop", {}, {})
    screen = app.game_screen
    try:
        assert wait_for(lambda: app.camera_watch.running, timeout=5)
        for action in history:
            app.session.apply(action)
        state = app.session.state
        assert str(state.cat).startswith("top:") and move.to == str(state.cat)[4:]
        before, turns = dict(state.board_view()), len(app.session.turns)
        assert wait_for(lambda: screen.ids.get("camera_move") is not None, timeout=60)
        offer = screen.ids.camera_move
        frm = state.game.square_words(state.mice[move.piece])
        to = state.game.square_words(move.to)
        number = move.piece.split(":")[1]
        assert offer.text == f"Camera sees: Mouse {number} goes from {frm} to {to} \u2014 Use"
        assert offer.action == move
        pump(5)
        assert dict(app.session.state.board_view()) == before and len(app.session.turns) == turns  # asked only
        assert small_touch_targets(screen) == [] and small_text(screen) == []
        tap(offer)
        assert len(app.session.turns) == turns + 1
        assert app.session.turns[-1].source == "camera" and app.session.turns[-1].action == move
        view = app.session.state.board_view()
        assert view[move.to] == move.piece and view[f"top:{move.to}"] == "cat"  # both on the one spot
        assert screen.ids.get("camera_move") is None
    finally:
        app.camera_watch.stop()


def _play(state: Any, rng: np.random.Generator) -> Any:
    action = random_action(state, rng)
    state.apply(action)
    return action


def _cheese_scenes(seed: int = 7) -> tuple[list[Any], str, np.ndarray, dict[str, str], np.ndarray, np.ndarray]:
    """Seeded legal play to a confirmed position with a face-up cheese the cat has left: (the
    actions, that cheese's square, the start's picture and position, the picture of that position,
    the picture six actions later with the cheese still there)."""
    from companion import games
    from vision.boarddefaults import board_for
    from vision.synth.board3d import make_setup, render_3d_scene
    from vision.synth.board3d_play import layout_of

    board = board_for("chopchop")
    rng = np.random.default_rng(seed)
    state = games.make("chopchop", {}).new_state()
    history = [_play(state, rng)]
    while not any(t == "cheese" for t in state.board_view().values()) or state.is_chance():
        history.append(_play(state, rng))
        assert len(history) < 200
    square = next(s for s, t in state.board_view().items() if t == "cheese")
    later = state.clone()
    for _ in range(6):
        _play(later, rng)
    assert later.board_view().get(square) == "cheese"
    look = np.random.default_rng(seed + 1)
    setup = make_setup(board, look, max_tilt_deg=15)
    start = games.make("chopchop", {}).new_state()
    start.apply(history[0])
    first = layout_of(board, start, look)
    pictures = [render_3d_scene(board, lay, setup, look, arm=False, person=False).image
                for lay in (first, layout_of(board, state, look), layout_of(board, later, look))]
    return history, square, pictures[0], dict(first.squares), pictures[1], pictures[2]


def _to_last_change(history: list[Any]) -> list[Any]:
    """The actions up to the last one that changed the board's view (a throw, or a tile turned
    under the piece standing on it, changes none: the camera checks the position after a move)."""
    from companion import games

    state = games.make("chopchop", {}).new_state()
    last, view = 0, dict(state.board_view())
    for n, action in enumerate(history):
        state.apply(action)
        if dict(state.board_view()) != view:
            last, view = n, dict(state.board_view())
    return history[:last + 1]


def test_a_face_up_cheese_of_a_confirmed_position_teaches_the_reader_its_look_kept_for_the_next_game(
        make_app: Any, tmp_path: Path) -> None:
    from vision.boarddefaults import board_for
    from vision.piece_config import PieceConfig
    from vision.pieces import BoardReader, PieceModel
    from ui.screens.camera import model_path

    history, square, start_img, start_squares, now_img, later_img = _cheese_scenes()
    board = board_for("chopchop")
    # the learned looks alone: the per-square classifier (vision.chop_squares) reads many a
    # cheese unlearned, which would hide whether the look was learned
    looks_only = PieceConfig(chop_classifier=False)
    reader = BoardReader(board, config=looks_only)
    reader.learn(start_img, start_squares)  # `board learn` on the start photo: no cheese there
    token, conf = reader.read(later_img, track=False).squares[square]
    assert token != "cheese" or conf < 0.6  # not (surely) seen as the cheese yet
    feed = tmp_path / "feed"
    feed.mkdir()
    cv2.imwrite(str(feed / "000.jpg"), now_img)
    app = _watching_app(make_app, lambda frame: [], feed=feed, board_reader=reader.read,
                        check_still_s=0.1, check_grace_s=0.3)
    app.start_game("chopchop", {}, {})
    try:
        assert wait_for(lambda: app.camera_watch.running, timeout=5)
        for action in _to_last_change(history):
            app.session.apply(action)  # confirmed by the players, move after move
        turns = len(app.session.turns)
        assert wait_for(lambda: app.camera_watch.cheese_learned > 0, timeout=60)
        assert len(app.session.turns) == turns  # learning changes nothing in the game
        assert reader.confirmed.get(square) == "cheese"  # it read knowing the confirmed position (vision.chop_known)
        path = model_path("chopchop")
        assert path.exists() and "cheese" in PieceModel.load(path).looks
    finally:
        app.camera_watch.stop()
    again = BoardReader(board, PieceModel.load(path), looks_only)  # the next game (a restart) loads it
    token, conf = again.read(later_img, track=False).squares[square]
    assert token == "cheese" and conf >= 0.6
    token, conf = BoardReader(board, PieceModel.load(path)).read(later_img, track=False).squares[square]
    assert token == "cheese" and conf >= 0.6  # and with the classifier, as the app reads


def _two_mice_to_one_square(state: Any) -> list[Any]:
    moves = [a for a in state.legal_actions() if type(a).__name__ == "Move"]
    return next(([a, b] for a in moves for b in moves if a.piece != b.piece and a.to == b.to), [])


def _play_until(app: Any, rng: np.random.Generator, pick: Callable[[Any], list[Any]]) -> list[Any]:
    """Seeded legal play (``_play``) until a player's turn where ``pick(state)`` finds something
    (300 actions at most): what it found, or []."""
    for _ in range(300):
        state = app.session.state
        if not state.is_chance():
            found = pick(state)
            if found:
                return found
        app.session.apply(_play(state.clone(), rng))
    return []


@contextmanager
def _chop_game(make_app: Any, seed: int) -> Iterator[tuple[Any, Any, np.random.Generator]]:
    """An app watching the camera (no dice seen, no board reader) in a new Chop! Chop! game: (the
    app, its game screen, a seeded generator for the play); the watcher stopped after."""
    app = _watching_app(make_app, lambda frame: [])
    app.start_game("chopchop", {}, {})
    try:
        assert wait_for(lambda: app.camera_watch.running, timeout=5)
        yield app, app.game_screen, np.random.default_rng(seed)
    finally:
        app.camera_watch.stop()


def test_two_moves_that_fit_are_asked_about_one_touch_each_and_the_move_touched_is_applied(make_app: Any) -> None:
    from ui.cammoves import MOVE_KIND

    with _chop_game(make_app, 3) as (app, screen, rng):
        pair = _play_until(app, rng, _two_mice_to_one_square)  # a turn where two mice may go to one square
        assert pair
        turns = len(app.session.turns)
        app.bridge.post(MOVE_KIND, app.camera_watch._gen, pair)  # the camera's reading fits both
        assert wait_for(lambda: screen.ids.get("camera_near") is not None, timeout=5)
        assert "The camera sees a move but cannot tell which. Which one was it?" in texts(screen)
        buttons = screen.ids["camera_near"]
        assert [b.action for b in buttons] == pair
        assert "Mouse " + pair[0].piece[-1] in buttons[0].text and "Mouse " + pair[1].piece[-1] in buttons[1].text
        assert not any("\u2014 Use" in b.text for b in buttons)  # asked, never offered as sure
        pump(3)
        assert len(app.session.turns) == turns  # nothing applied without a touch
        tap(buttons[1])
        assert wait_for(lambda: len(app.session.turns) > turns, timeout=5)
        assert app.session.turns[-1].action == pair[1]
        assert screen.ids.get("camera_move") is None and screen.ids.get("camera_near") is None


def test_more_moves_that_fit_than_the_panel_holds_are_left_to_the_players(make_app: Any) -> None:
    from ui.cammoves import MOVE_KIND, SEVERAL_ASKED

    with _chop_game(make_app, 5) as (app, screen, rng):
        moves = _play_until(app, rng, lambda state: moves_apart(state, SEVERAL_ASKED + 1))
        assert len(moves) == SEVERAL_ASKED + 1
        turns = len(app.session.turns)
        app.bridge.post(MOVE_KIND, app.camera_watch._gen, moves)  # four fit
        assert wait_for(lambda: screen.ids.get("camera_note") is not None, timeout=5)
        assert "The camera sees a move but cannot tell which one. Make it by touch." in texts(screen)
        assert screen.ids.get("camera_near") is None and screen.ids.get("camera_move") is None
        pump(3)
        assert len(app.session.turns) == turns


def test_the_ways_of_one_move_onto_a_slab_are_offered_one_touch_each_and_the_way_touched_is_applied(
        make_app: Any) -> None:
    from ui.cammoves import MOVE_KIND

    with _chop_game(make_app, 3) as (app, screen, rng):
        ways = _play_until(app, rng, two_ways)  # a turn with two ways onto one slab square
        assert ways
        turns = len(app.session.turns)
        app.bridge.post(MOVE_KIND, app.camera_watch._gen, ways, False)  # both fit, the end read unsure
        assert wait_for(lambda: screen.ids.get("camera_near") is not None, timeout=5)
        assert "The camera sees a move but cannot tell which. Which one was it?" in texts(screen)
        assert screen.ids.get("camera_paths") is None
        app.bridge.post(MOVE_KIND, app.camera_watch._gen, ways, True)  # both ways fit, the end read sure
        assert wait_for(lambda: screen.ids.get("camera_paths") is not None, timeout=5)
        words = app.session.game.square_words
        heading = " ".join(t for t in texts(screen) if "which way" in t)
        assert words(ways[0].to) in heading
        buttons = screen.ids["camera_paths"]
        assert [b.action for b in buttons] == ways
        assert all(b.text.endswith("\u2014 Use") for b in buttons) and buttons[0].text != buttons[1].text
        assert not any("cannot tell which" in t for t in texts(screen))
        pump(3)
        assert len(app.session.turns) == turns  # nothing applied until a way is touched
        tap(buttons[1])
        assert wait_for(lambda: len(app.session.turns) > turns, timeout=5)
        assert app.session.turns[-1].action == ways[1]
        assert screen.ids.get("camera_move") is None


def test_none_fits_the_likeliest_are_asked_about_none_of_these_changes_nothing_a_touch_applies_that_move(
        make_app: Any) -> None:
    from ui.cammoves import MOVE_KIND

    with _chop_game(make_app, 5) as (app, screen, rng):
        moves = _play_until(app, rng, three_moves)  # a turn with three moves ending apart
        assert len(moves) == 3
        turns = len(app.session.turns)
        gen = app.camera_watch._gen
        app.bridge.post(MOVE_KIND, gen, moves, False, True)  # none fits: the likeliest three
        assert wait_for(lambda: screen.ids.get("camera_near") is not None, timeout=5)
        shown = texts(screen)
        assert "The camera is not sure. Was it one of these?" in shown
        buttons = screen.ids["camera_near"]
        assert [b.action for b in buttons] == moves and len({b.text for b in buttons}) == 3
        assert not any("\u2014 Use" in b.text or "Camera sees" in b.text for b in buttons)  # never as sure
        none = screen.ids["camera_near_none"]
        assert none.text == "None of these" and none.height >= 48
        pump(3)
        assert len(app.session.turns) == turns  # nothing applied without a touch
        tap(none)
        pump(3)
        assert screen.ids.get("camera_move") is None and screen.ids.get("camera_near") is None
        assert len(app.session.turns) == turns  # "None of these" changes nothing
        app.bridge.post(MOVE_KIND, gen, moves, False, True)  # the watcher looks again: the same, not again
        pump(5)
        assert screen.ids.get("camera_near") is None
        app.bridge.post(MOVE_KIND, gen, moves[1:], False, True)  # another reading: two, asked again
        assert wait_for(lambda: screen.ids.get("camera_near") is not None, timeout=5)
        assert "The camera is not sure. Was it one of these?" in texts(screen)
        app.bridge.post(MOVE_KIND, gen, moves[2:], False, True)  # one: still a question
        assert wait_for(lambda: len(screen.ids.get("camera_near") or []) == 1, timeout=5)
        assert "The camera is not sure. Was it this move?" in texts(screen)
        app.bridge.post(MOVE_KIND, gen, moves[::-1], False, True)  # another order: not the declined offer
        assert wait_for(lambda: len(screen.ids.get("camera_near") or []) == 3, timeout=5)
        before = app.session.state.clone()
        tap(screen.ids["camera_near"][1])
        assert wait_for(lambda: len(app.session.turns) > turns, timeout=5)
        assert app.session.turns[turns].action == moves[1]  # exactly the move touched
        before.apply(moves[1])
        assert app.session.state.board_view() == before.board_view()
        assert screen.ids.get("camera_move") is None and screen.ids.get("camera_near") is None


def test_the_offer_of_a_long_move_wraps_inside_its_button(make_app: Any) -> None:
    """A move's sentence ("Camera sees: Mouse 1 goes from D6 to B6 by way of C6 and turns the
    slab — Use") is longer than the board's width: it wraps, the button grows, nothing is cut."""
    from tests.ui.helpers import pump
    from tests.ui.scenes_chopchop import _chopchop_camera_move

    app = make_app()
    _chopchop_camera_move(False)(app)
    pump(3)
    button = app.game_screen.ids["camera_move"]
    assert button.text.startswith("Camera sees: Mouse")
    assert button.texture_size[0] <= button.width - 16
    assert button.height >= button.texture_size[1] + 8
    assert button.height >= 56


def test_the_reader_is_told_the_confirmed_position_is_one_turn_back() -> None:
    # the app reads before the move due or after the move just confirmed: one piece moved since at
    # most, which vision.chop_moved uses; another game's reader is left alone
    from ui.cammoves import know_position
    from vision.boarddefaults import board_for
    from vision.pieces import BoardReader

    reader = BoardReader(board_for("chopchop"))
    assert not reader.confirmed_one_move
    know_position(reader.read, {"0,3": "mouse:1"})
    assert reader.confirmed == {"0,3": "mouse:1"} and reader.confirmed_one_move
    other = BoardReader(board_for("qubism"))
    know_position(other.read, {"0,2": "pawn:black"})
    assert not other.confirmed_one_move and not other.confirmed
