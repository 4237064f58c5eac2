"""The UI tests' app teardown (conftest.apps) lets go of every app it closed: nothing of a
closed app stays listening or reachable, so a test file never runs slower for the test files
that ran before it in the same process (a How to play screen left listening to the language
kept every app's widget tree alive: 6 million objects after one file run three times)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

from tests.ui.conftest import apps
from tests.ui.helpers import pump, tap, wait_for


def test_a_closed_app_is_freed_after_how_to_play_and_a_change_of_language(window: Any, tmp_path: Path) -> None:
    from companion import i18n

    before = list(i18n._listeners)
    with apps(window, tmp_path) as make:
        app = make()
        home = app.screen("home")
        home.select_game("chopchop")
        tap(home.ids.howto_button)
        pump(2)
        assert app.sm.current == "howto" and app.screen("howto").game is not None
        app.go("home")
        i18n.set_language("nl")  # the screens are built again; the old ones must go too
        pump(3)
        gone = weakref.ref(app)
        old_root = weakref.ref(app.root)
        del app, home
    assert i18n._listeners == before
    with apps(window, tmp_path) as make:
        make()  # the app running now (Kivy keeps it): the closed one is no longer it
        # a scroll bar's fade (a Kivy Animation of 0.5 s) holds its widget until it ends
        assert wait_for(lambda: gc.collect() >= 0 and gone() is None and old_root() is None, timeout=5), \
            "a closed app is still reachable"


def test_a_stopped_app_leaves_nothing_listening_to_the_language(window: Any, tmp_path: Path) -> None:
    """The app itself (not only the tests' teardown) lets go of the language when it stops: How to
    play's listener too, or a closed app's widget tree would stay alive and retranslate."""
    from companion import i18n

    before = list(i18n._listeners)
    with apps(window, tmp_path) as make:
        app = make()
        assert len(i18n._listeners) > len(before)  # the app and its How to play screen listen
        app.dispatch("on_stop")
        assert i18n._listeners == before
