"""The camera lost in the middle of a game, then back (ui.camwatch with the real vision.camera
source): the game screen says so at once, touch input goes on, the camera resumes by itself,
and no throw is invented or applied twice.

The feed is a copy of the demo feed played by the real ``vision.camera.ImageFolderSource``; the
camera is "unplugged" by moving its folder away (every read then fails) and "plugged back" by
moving it back. The dice are read by the demo feed's own labels (as in test_camera_play)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from tests.ui.helpers import screenshot, small_text, texts, wait_for
from tests.ui.test_camera_play import _watching_app
from tests.ui.test_hardware_ui import _labelled_reader

LOST = "Camera lost: keep playing by touch; it will come back by itself."


@pytest.fixture(autouse=True)
def _own_db_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "home" / "companion.db"))


@pytest.fixture
def feed(tmp_path: Path) -> Path:
    from ui.screens.camera import DEMO_FEED

    return Path(shutil.copytree(DEMO_FEED, tmp_path / "feed"))


def test_camera_lost_and_back_mid_game(make_app: Any, feed: Path, tmp_path: Path) -> None:
    app = _watching_app(make_app, _labelled_reader(), feed=feed)
    app.prefs.set("ui.camera_auto", True)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    screen = app.screen("katenmuis")
    w = app.camera_watch
    away = tmp_path / "unplugged"
    try:
        # the camera applies the first throw, once
        assert wait_for(lambda: len(app.session.turns) == 1, timeout=20), w.source_text
        assert sorted(app.session.turns[0].action.dice) == [3, 6]
        # unplugged: the screen says so at once
        feed.rename(away)
        t0 = time.monotonic()
        assert wait_for(lambda: LOST in texts(screen), timeout=3), w.source_text
        assert time.monotonic() - t0 < 2.0
        assert w.camera_lost and w.running and "lost" in w.source_text
        assert small_text(screen) == []
        screenshot(app.root, "game_camera_lost_800x480")
        # touch input goes on while the camera is away
        screen.enter_throw([1, 4], "touch")
        assert len(app.session.turns) == 2 and app.session.turns[-1].source == "touch"
        assert app.session.state.square["mouse"] == 5
        # plugged back: the camera resumes by itself, the status goes away
        away.rename(feed)
        assert wait_for(lambda: LOST not in texts(screen) and not w.camera_lost, timeout=15), w.source_text
        assert any("Camera back" in t for t in texts(app.root))
        assert w.resumed == 1 and w._source.reconnects == 1
        # the feed plays on (its 3 + 6 throw again, in the same places): nothing new is applied
        n = w.analysed
        assert wait_for(lambda: w.analysed > n + 40, timeout=10)
        assert len(app.session.turns) == 2
    finally:
        if away.exists():
            away.rename(feed)
        w.stop()
    assert screen.ids.get("camera_status") is None  # stopping clears the status


def test_leaving_the_game_while_the_camera_is_lost_stops_at_once(make_app: Any, feed: Path, tmp_path: Path) -> None:
    app = _watching_app(make_app, lambda frame: [], feed=feed)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    w = app.camera_watch
    assert wait_for(lambda: w.running and w.analysed > 0, timeout=10)
    feed.rename(tmp_path / "unplugged")
    assert wait_for(lambda: w.camera_lost, timeout=3)
    time.sleep(1.2)  # the source is now waiting out a backoff
    thread, source = w._thread, w._source
    t0 = time.monotonic()
    w.stop()  # what leaving the game screen does
    assert thread is not None and not thread.is_alive()
    assert time.monotonic() - t0 < 1.0  # the backoff wait is cut short, no thread left behind
    assert source.state == "closed"


def test_a_feed_that_never_comes_back_says_so(make_app: Any, feed: Path, tmp_path: Path) -> None:
    """A camera that gives up (``give_up_s``) leaves a status that tells the players to play by touch."""
    app = _watching_app(make_app, lambda frame: [], feed=feed)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    w = app.camera_watch
    screen = app.screen("katenmuis")
    try:
        assert wait_for(lambda: w.running and w.analysed > 0, timeout=10)
        w._source.give_up_s = 0.3
        feed.rename(tmp_path / "unplugged")
        assert wait_for(lambda: any(t.startswith("Camera stopped (") for t in texts(screen)), timeout=5)
        assert any(t.endswith("keep playing by touch.") for t in texts(screen))
        screen.enter_throw([2, 3], "touch")
        assert len(app.session.turns) == 1
    finally:
        w.stop()
