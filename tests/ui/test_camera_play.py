"""The camera during play (ui.camwatch): a settled, sure reading of the dice is offered on the
game screen and used by one touch; an unsure one never is; after a move the board is read and
a disagreement with the rules becomes a prompt (the state unchanged); the worker stops cleanly.

The dice are read by the demo feed's own labels (tests.ui.test_hardware_ui._labelled_reader),
so the behaviour is tested apart from the trained dice models; the board cross-check runs the
real pipeline (vision.pieces.BoardReader with a learned model) on rendered scenes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.ui.helpers import pump, screenshot, small_text, small_touch_targets, tap, texts, wait_for
from tests.ui.test_hardware_ui import _labelled_reader


@pytest.fixture(autouse=True)
def _own_db_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Learned piece models live beside the database: keep them in this test's folder."""
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "home" / "companion.db"))


def _chopchop_at_first_throw(make_app: Any) -> Any:
    """A Chop! Chop! game watched by a camera that sees nothing by itself, at its first throw
    (the cat has taken its place on the table; the mice throw their die)."""
    from ui import actions

    app = _watching_app(make_app, lambda frame: [])
    app.start_game("chopchop", {}, {})
    assert wait_for(lambda: app.camera_watch.running, timeout=5)
    while actions.chance_kind(app.session.state) != "dice":
        app.session.apply(app.session.state.legal_actions()[0])
    pump(2)
    return app


def _watching_app(make_app: Any, reader: Any, feed: Path | None = None, **config: Any) -> Any:
    app = make_app(demo=True)
    app.prefs.set("ui.camera", "demo")  # the user switched the (demo) camera on in Settings
    w = app.camera_watch
    w.reader = reader
    w.demo_fps = 25.0
    w.max_fps = 25.0
    w.settle_window_s = 0.15
    w.settle_quiet_s = 0.08
    if feed is not None:
        w.feed_folder = feed
    for k, v in config.items():
        setattr(w, k, v)
    return app


def test_settled_sure_reading_offered_on_the_game_screen_and_used_by_touch(make_app: Any) -> None:
    from tests.ui.test_katenmuis_touch import _ledger_matches

    app = _watching_app(make_app, _labelled_reader())
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    screen = app.screen("katenmuis")
    try:
        assert wait_for(lambda: app.camera_watch.running, timeout=5), app.camera_watch.source_text
        assert wait_for(lambda: screen.ids.get("camera_offer") is not None, timeout=20)
        offer = screen.ids.camera_offer
        assert offer.text == "Camera sees 3 + 6 \u2014 Use"
        assert app.session.turns == []  # offered, not applied
        pump(2)
        assert offer.height >= 48 and offer.font_size >= 20
        assert small_touch_targets(screen) == [] and small_text(screen) == []
        screenshot(app.root, "game_camera_offer_800x480")
        narration_before = list(screen.narration)
        tap(offer)
        assert len(app.session.turns) == 1 and app.session.turns[-1].source == "camera"
        assert sorted(app.session.turns[-1].action.dice) == [3, 6]
        assert screen.ids.get("camera_offer") is None  # used once, gone
        assert screen.narration != narration_before and screen.narration
        assert screen.narration[0] in screen.ids.narration.text
        _ledger_matches(app)
    finally:
        app.camera_watch.stop()


def test_auto_apply_setting_enters_a_sure_settled_throw_without_a_touch(make_app: Any) -> None:
    app = _watching_app(make_app, _labelled_reader())
    app.prefs.set("ui.camera_auto", True)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    screen = app.screen("katenmuis")
    try:
        assert wait_for(lambda: bool(app.session.turns), timeout=20)
        assert app.session.turns[0].source == "camera" and sorted(app.session.turns[0].action.dice) == [3, 6]
        assert screen.ids.get("camera_offer") is None
        loops = app.camera_watch.analysed
        wait_for(lambda: app.camera_watch.analysed > loops + 30, timeout=4)  # the feed plays again
        assert len(app.session.turns) == 1  # the same dice in the same places are not a new throw
    finally:
        app.camera_watch.stop()


def test_unsure_reading_is_not_offered(make_app: Any) -> None:
    truth = _labelled_reader()

    def reader(frame: Any) -> list[Any]:
        dice = truth(frame)
        if dice:  # the reader is not sure of one die
            dice = [dice[0], replace(dice[1], confidence=0.55)]
        return dice

    app = _watching_app(make_app, reader)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    screen = app.screen("katenmuis")
    try:
        assert wait_for(lambda: screen.ids.get("camera_note") is not None, timeout=20)
        assert any("camera not sure: enter the throw by touch" in t.lower() for t in texts(screen))
        assert screen.ids.get("camera_offer") is None
        assert small_text(screen) == []
        screenshot(app.root, "game_camera_unsure_800x480")
        pump(10)
        assert app.session.turns == []  # never a throw
        assert screen.input_mode == "dice"  # the picker is still there for the touch
    finally:
        app.camera_watch.stop()


def test_the_die_just_thrown_is_the_throw_when_another_lies_still(make_app: Any) -> None:
    """Chop! Chop!: the mouse die of the last turn still lies there when the cat die is thrown;
    the die that is new since the last settled reading is offered, not "2 dice seen"."""
    from ui.camwatch import DICE_KIND, SeenDie

    app = _chopchop_at_first_throw(make_app)
    screen = app.game_screen
    try:
        assert screen.input_mode == "dice"
        app.bridge.post(DICE_KIND, [SeenDie(4, True), SeenDie(3, True)], [SeenDie(3, True)])  # the 4 lay there
        assert wait_for(lambda: screen.ids.get("camera_offer") is not None, timeout=5)
        assert screen.ids.camera_offer.text == "Camera sees 3 \u2014 Use"
        tap(screen.ids.camera_offer)
        assert app.session.turns[-1].source == "camera" and app.session.turns[-1].action.value == 3
        assert screen.ids.get("camera_offer") is None
    finally:
        app.camera_watch.stop()


def test_two_new_dice_when_one_is_wanted_are_left_to_the_players(make_app: Any) -> None:
    from ui.camwatch import DICE_KIND, SeenDie

    app = _chopchop_at_first_throw(make_app)
    screen = app.game_screen
    try:
        both = [SeenDie(4, True), SeenDie(3, True)]  # no body colours: nothing to tell them apart by
        app.bridge.post(DICE_KIND, both, both)
        assert wait_for(lambda: screen.ids.get("camera_note") is not None, timeout=5)
        assert any("camera sees 2 dice, the game needs 1" in t.lower() for t in texts(screen))
        assert screen.ids.get("camera_offer") is None
        assert all(t.source != "camera" for t in app.session.turns)
    finally:
        app.camera_watch.stop()


def _rendered_game_dice(seed: int) -> tuple[Any, list[dict[str, Any]]]:
    """A rendered table with Chop! Chop!'s blue cat die and grey mouse die, under a slightly
    bluish light, as the real reader sees it: (readings, labels with "die": 0 blue, 1 grey)."""
    import numpy as np

    from vision.synth import dice as synth_dice
    from vision.dice import read_dice

    params = synth_dice.SceneParams(bodies=((170.0, 100.0, 40.0), (150.0, 150.0, 150.0)), n_dice=(2, 2),
                                    die_px=(40.0, 60.0), tilt_deg=(0.0, 20.0), translucent_prob=0.0)
    img, lab = synth_dice.render_scene(np.random.default_rng(seed), params)
    img = np.clip(img.astype(np.float32) * np.float32([1.08, 1.0, 0.92]), 0, 255).astype(np.uint8)
    return read_dice(img), lab["dice"]


def test_of_two_new_dice_the_throwers_own_die_is_the_throw(make_app: Any) -> None:
    """Chop! Chop!: both dice moved (the other one was bumped); the camera reads a real rendered
    table and the mice's grey die is offered, told from the blue cat die by its colour."""
    from vision.cli import boxes_match
    from ui.camwatch import DICE_KIND, SeenDie

    readings, labels = _rendered_game_dice(seed=5)
    assert len(readings) == 2 and all(r.value is not None and r.body is not None for r in readings)
    grey = next(d for d in labels if d["die"] == 1)
    grey_value = next(r.value for r in readings if boxes_match(list(r.box), grey["box"]))
    app = _chopchop_at_first_throw(make_app)
    screen = app.game_screen
    try:
        assert app.session.state.die_colours() == ("grey",)
        seen = [SeenDie(r.value, True, r.body) for r in readings]
        app.bridge.post(DICE_KIND, seen, seen)
        assert wait_for(lambda: screen.ids.get("camera_offer") is not None, timeout=5)
        assert screen.ids.camera_offer.values == [grey_value]
        assert screen.ids.get("camera_note") is None  # no warning: it is the mice's die
    finally:
        app.camera_watch.stop()


def test_a_die_that_looks_like_the_other_sides_is_offered_with_a_warning_never_applied(make_app: Any) -> None:
    from ui.camwatch import DICE_KIND, SeenDie

    readings, labels = _rendered_game_dice(seed=5)
    from vision.cli import boxes_match

    blue = next(d for d in labels if d["die"] == 0)
    cat_die = next(r for r in readings if boxes_match(list(r.box), blue["box"]))
    app = _chopchop_at_first_throw(make_app)
    app.prefs.set("ui.camera_auto", True)
    screen = app.game_screen
    try:
        turns = len(app.session.turns)
        app.bridge.post(DICE_KIND, [SeenDie(cat_die.value, True, cat_die.body)], None)
        assert wait_for(lambda: screen.ids.get("camera_offer") is not None, timeout=5)
        assert any("mice: that looks like the blue die, not your grey one" in t.lower() for t in texts(screen))
        pump(5)
        assert len(app.session.turns) == turns  # not applied by itself, even with auto-apply on
        assert small_text(screen) == []
        screenshot(app.root, "game_camera_wrong_die_800x480")
        tap(screen.ids.camera_offer)  # the players say it is right after all
        assert app.session.turns[-1].source == "camera"
    finally:
        app.camera_watch.stop()


def _scene_feed(folder: Path, board: Any, position: dict[str, str], look: Any, seed: int) -> Path:
    import cv2
    import numpy as np

    from vision.synth import board as synth_board

    folder.mkdir(parents=True, exist_ok=True)
    frame = synth_board.render_scene(board, position, look, np.random.default_rng(seed), clean=True).image
    for i in range(2):
        cv2.imwrite(str(folder / f"{i:03d}.png"), frame)
    return folder


def test_crosscheck_mismatch_is_a_prompt_and_the_state_is_unchanged(make_app: Any, tmp_path: Path) -> None:
    import numpy as np

    from companion.boards import load_board
    from companion.games.katenmuis import KatEnMuis
    from ui import actions
    from ui.screens.camera import model_path
    from vision.synth import board as synth_board
    from vision.pieces import BoardReader

    board = load_board("katenmuis")
    rng = np.random.default_rng(11)
    look = synth_board.random_look(board, rng)
    # the counters' looks learned from the start position (what "Learn colours" stores)
    start = KatEnMuis().new_state()
    learn_scene = synth_board.render_scene(board, dict(start.board_view()), look, rng, clean=True)
    reader = BoardReader(board)
    assert reader.learn(learn_scene.image, dict(start.board_view())) == 2
    # the engine after a 3 + 6, and a table where that piece stands one square short
    after = start.clone()
    after.apply(actions.throw_action(after, [3, 6]))
    expected = dict(after.board_view())
    moved = next(sq for sq, tok in expected.items() if start.board_view().get(sq) != tok)
    wrong_sq = str(int(moved) - 1)
    assert wrong_sq in board.squares and wrong_sq not in expected
    seen = {(wrong_sq if sq == moved else sq): tok for sq, tok in expected.items()}
    feed = _scene_feed(tmp_path / "feed", board, seen, look, seed=12)

    app = _watching_app(make_app, lambda frame: [], feed=feed, max_fps=8.0, check_still_s=0.2,
                        check_grace_s=0.4)
    # saved beside the app's database, where the Camera screen's "Learn colours" puts it
    model_path("katenmuis").parent.mkdir(parents=True, exist_ok=True)
    reader.model.save(model_path("katenmuis"))
    assert model_path("katenmuis").parent == app.store.path.parent
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    screen = app.screen("katenmuis")
    w = app.camera_watch
    try:
        assert wait_for(lambda: w.running and w.analysed > 0, timeout=10), w.source_text
        assert w.checking  # a piece model was learned
        assert screen.ids.get("crosscheck") is None  # no move yet: nothing to check
        screen.enter_throw((3, 6), "touch")
        assert app.session.state.board_view() == expected
        assert wait_for(lambda: screen.ids.get("crosscheck") is not None, timeout=20)
        token = expected[moved]
        words = app.session.game.square_words  # "17/50 (square C2)": the printed numbers and the coordinate
        message = f"{token.title()} should be on {words(moved)}; I see it on {words(wrong_sq)}."
        assert "(square " in message
        assert message in texts(screen), texts(screen)
        assert [m.kind for m in screen.crosscheck_shown] == ["moved"]
        assert screen.ids.crosscheck_fix.text == "I'll fix the board"
        assert screen.ids.crosscheck_ignore.text == "Ignore"
        assert small_touch_targets(screen) == [] and small_text(screen) == []
        screenshot(app.root, "game_crosscheck_prompt_800x480")
        # never a silent state change
        assert len(app.session.turns) == 1 and app.session.state.board_view() == expected
        tap(screen.ids.crosscheck_fix)
        assert screen.ids.get("crosscheck") is None
        assert len(app.session.turns) == 1 and app.session.state.board_view() == expected
        # one prompt per move: the same still scene is not checked again
        done = w.checks_done
        pump(1)
        wait_for(lambda: False, timeout=1.0)
        assert w.checks_done == done and screen.ids.get("crosscheck") is None
    finally:
        w.stop()


def test_no_learned_model_no_crosscheck_and_demo_default_does_not_watch(make_app: Any, tmp_path: Path) -> None:
    app = make_app(demo=True)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    pump(3)
    assert not app.camera_watch.running  # demo mode on "auto": no background feed
    assert "Demo feed" in app.camera_watch.source_text
    app.camera_watch.stop()


def test_worker_stops_cleanly_when_leaving_the_game_and_on_close(make_app: Any) -> None:
    app = _watching_app(make_app, lambda frame: [])
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    w = app.camera_watch
    assert wait_for(lambda: w.running and w.analysed > 0, timeout=10)
    assert not w.checking  # no piece model learned: no cross-check at all
    thread, source = w._thread, w._source
    app.go("home")
    assert wait_for(lambda: not w.running, timeout=5)
    assert thread is not None and not thread.is_alive()
    assert source.state == "closed"
    n = w.analysed
    wait_for(lambda: False, timeout=0.4)
    assert w.analysed == n  # nothing analysed after the stop
    # back to the game: watching again; closing the app stops it
    app.go("game")
    assert wait_for(lambda: w.running, timeout=5)
    thread = w._thread
    app.shutdown()
    assert not w.running and thread is not None and not thread.is_alive()
    # the Camera screen takes the camera over: the game's watcher is not running meanwhile
    app.go("home")
    pump(2)
    app.go("game")
    assert wait_for(lambda: w.running, timeout=5)
    cam = app.screen("camera")
    app.go("camera")
    try:
        assert wait_for(lambda: not w.running, timeout=5)
    finally:
        cam.stop()
