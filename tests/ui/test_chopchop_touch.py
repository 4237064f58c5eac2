"""Chop! Chop! by touch: place the cat, roll, move pieces by touching the board, turn slabs
through the tile picker, and check the tracker on screen after every reveal."""

from __future__ import annotations

import random
from typing import Any

from tests.ui.helpers import pump, screenshot, small_touch_targets, tap, tap_at, wait_for, walk


def _tap_square(screen: Any, square: str) -> None:
    pump()
    view = screen.ids.board
    x, y = view.square_centre(square)
    # a square shared with another (table top over the floor) is touched on its own half
    layer = view._overlaps().get(square, 0)
    if layer:
        bx, by, w, h = view.square_rect(square)
        x, y = (bx + w * 0.3, by + h * 0.7) if layer == 2 else (bx + w * 0.7, by + h * 0.3)
    tap_at(*view.to_window(x, y))


def _check_tracker(app: Any) -> None:
    from companion.games.chopchop_tracker import tracker

    tr = tracker(app.session.state)
    screen = app.screen("chopchop")
    assert screen.side.cheese == f"{tr.cheese_held}/{tr.cheese_to_win}"
    assert screen.side.caught == str(len(tr.mice_caught))
    shown = {lab.tile: lab.text for lab in walk(screen.side.ids.tiles) if hasattr(lab, "tile") and hasattr(lab, "text")}
    for t, count in tr.counts.items():
        left = "?" if count.remaining is None else str(count.remaining)
        assert shown[t].split(" ")[0] == left, (t, shown[t])
    view = screen.ids.board
    for sq, st in tr.squares.items():
        if st.status == "face-down":
            assert view.tokens.get(sq) == "slab" or sq in app.session.state.board_view()
        if st.revealed and st.status != "face-down":
            assert sq in view.marks


def test_slabs_through_the_tile_picker(make_app: Any) -> None:
    from companion.games.base import CHANCE
    from ui import actions

    app = make_app()
    app.start_game("chopchop", {}, {})
    screen = app.screen("chopchop")
    rng = random.Random(3)
    reveals = 0
    for _step in range(200):
        state = app.session.state
        if state.is_over() or reveals >= 6:
            break
        before = len(app.session.turns)
        action = None
        kind = actions.chance_kind(state)
        if kind == "dice":
            picker = screen.picker
            value = rng.choice(list(picker.faces))
            tap(picker.rows[0][picker.faces.index(value)])
        elif kind == "tile":
            options = [(label, p) for label, _a, p in actions.tile_outcomes(state) if p > 0]
            label = rng.choice(options)[0]
            tap(screen.tile_picker.buttons[label])
            reveals += 1
            assert len(app.session.turns) == before + 1
            _check_tracker(app)
            if reveals == 2:
                assert small_touch_targets(app.sm.current_screen) == []
            continue
        elif state.to_move() not in (None, CHANCE):
            action = None
            legal = state.legal_actions()
            action = rng.choice(legal)
            pieces = screen.pieces()
            named = actions.squares_of(action, screen.board.squares, pieces)
            _tap_square(screen, named[0])
            if len(named) > 1 and app.session.turns and len(app.session.turns) == before:
                _tap_square(screen, named[-1])
            pump()
            from ui.screens.game import ChoiceView

            views = [w for w in app.root.get_root_window().children if isinstance(w, ChoiceView)]
            if views:
                tap(views[0].buttons[0])
                window = app.root.get_root_window()
                assert wait_for(lambda: not any(isinstance(w, ChoiceView) for w in window.children))
            elif screen.path_choices:  # two ways to the square: touch the first way's number
                from tests.ui.helpers import tap_at

                view = screen.ids.board
                _i, x, y, _r = view.path_badges[0]
                tap_at(*view.to_window(x, y))
        assert len(app.session.turns) == before + 1, (
            f"no action applied for {state.to_move()} {kind}: {action if kind is None else ''} "
            f"{screen.pieces()} sel={screen.selected!r} toasts={app.toaster.history[-2:]}"
        )
    assert reveals >= 3
    screenshot(app.root, "chopchop_800x480")


def _until_a_slab_is_turned(app: Any, screen: Any) -> None:
    """Play (dice by the picker's roll, moves onto a slab when there is one) until a tile is due."""
    from ui import actions

    for _ in range(300):
        state = app.session.state
        kind = actions.chance_kind(state)
        if kind == "tile":
            return
        if kind == "dice":
            screen.picker.roll()
        else:
            legal = state.legal_actions()
            slab = [a for a in legal if getattr(a, "to", None) in state.face_down]
            app.apply((slab or legal)[0])


def test_camera_proposal_preselects_the_tile(make_app: Any) -> None:
    from ui import actions

    app = make_app()
    app.start_game("chopchop", {}, {})
    screen = app.screen("chopchop")
    _until_a_slab_is_turned(app, screen)
    assert actions.chance_kind(app.session.state) == "tile"
    screen.propose_tile("knife", 0.91)
    pump()
    assert screen.tile_picker.buttons["knife"].state == "down"
    screenshot(app.root, "chopchop_tile_picker_800x480")
    tap(screen.tile_picker.confirm)
    assert type(app.session.turns[-1].action).__name__ == "Reveal"
    assert app.session.turns[-1].action.tile == "knife"


def test_camera_learns_a_confirmed_tile_and_proposes_it_next_time(make_app: Any, tmp_path: Any) -> None:
    """The camera looks at the slab just turned; a reveal confirmed by touch teaches the tile
    learner that look; the next time the same look is turned the picker comes pre-selected."""
    import cv2
    import numpy as np

    from companion.boards import load_board
    from ui import actions
    from ui.screens.camera import tiles_path
    from vision.synth import board as synth_board

    app = make_app()
    app.start_game("chopchop", {}, {})
    screen = app.screen("chopchop")
    _until_a_slab_is_turned(app, screen)
    state = app.session.state
    square = state.position(state.piece)
    # a camera view of this very position (synthetic frames of the Chop! Chop! board)
    board = load_board("chopchop")
    rng = np.random.default_rng(5)
    look = synth_board.random_look(board, rng)
    frame = synth_board.render_scene(board, dict(state.board_view()), look, rng, clean=True).image
    feed = tmp_path / "feed"
    feed.mkdir()
    for i in range(3):
        cv2.imwrite(str(feed / f"{i:03d}.png"), frame)
    cam = app.screen("camera")
    cam.feed_folder = feed
    cam.demo_fps = 20.0
    app.go("camera")
    try:
        assert wait_for(lambda: cam.tile_patch is not None, timeout=20), cam.board_text
        assert cam.tile_patch[0] == square
        assert "not recognised yet" in cam.tile_text
        app.go("game")
        tap(screen.tile_picker.buttons["cheese"])  # the players confirm: it is cheese
        assert tiles_path().exists() and "cheese" in cam.tile_learner().types
        tap(screen.ids.undo_button)  # the same slab again
        assert actions.chance_kind(app.session.state) == "tile"
        assert screen.tile_proposal == ""
        app.go("camera")
        assert wait_for(lambda: screen.tile_proposal == "cheese", timeout=20), cam.tile_text
        assert "cheese" in cam.tile_text
        screenshot(app.root, "camera_tile_800x480")
        app.go("game")
        pump()
        assert screen.tile_picker.buttons["cheese"].state == "down"
        tap(screen.tile_picker.confirm)
        assert app.session.turns[-1].action.tile == "cheese"
    finally:
        cam.stop()
