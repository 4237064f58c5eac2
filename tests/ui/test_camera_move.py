"""The camera proposes Chop! Chop!'s move (ui.cammoves through ui.camwatch), in the real app on
rendered 3-D pictures read by the real board reader: the players moved a mouse under the table
top where the cat stands; the camera offers that move, naming the mouse from the game (the
mice look alike), and the game changes only when the players touch the offer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.ui.helpers import pump, small_text, small_touch_targets, tap, wait_for
from tests.ui.test_camera_play import _watching_app


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
        if state.is_chance():
            outcomes = state.chance_outcomes()
            p = np.array([float(w) for _, w in outcomes])
            action = outcomes[int(rng.choice(len(outcomes), p=p / p.sum()))][0]
        else:
            acts = state.legal_actions()
            action = acts[int(rng.integers(len(acts)))]
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
