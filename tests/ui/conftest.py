"""Offscreen Kivy for the UI tests: one window per test process (session fixture), a fresh
app with its own database per test, and helpers to pump frames, tap widgets and save
screenshots to artifacts/screens/."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
# the board at rest for screenshots and touches, and no sound: tests of ui.feedback turn them on
os.environ.setdefault("COMPANION_ANIMATE", "0")
os.environ.setdefault("COMPANION_CUES", "0")

from collections.abc import Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCREENS = ROOT / "artifacts" / "screens"


@pytest.fixture(scope="session")
def window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    os.environ.setdefault("KIVY_HOME", str(tmp_path_factory.mktemp("kivy-home")))
    from ui.app import configure

    configure((800, 480))
    from kivy.base import EventLoop
    from kivy.core.window import Window

    EventLoop.ensure_window()
    from tests.ui.helpers import skip_window_frames

    skip_window_frames(Window)  # drawn only where a test reads the window's pixels (helpers)
    SCREENS.mkdir(parents=True, exist_ok=True)
    yield Window


def close(window: Any, made: list[tuple[Any, Any, Any]], listening: list[Any]) -> None:
    """Close the apps ``made`` and let go of them (``listening``: i18n's listeners before)."""
    import threading

    from companion import i18n
    from tests.ui.helpers import pump

    # the home screen checks remembered rules on a worker thread and applies them on the Clock: let
    # those land while their app and store are open, not in a later test's pump (a closed store)
    for worker in threading.enumerate():
        if worker.name == "rules-check":
            worker.join(timeout=30)
    if made:
        pump(2)
    for app, root, store in made:
        for child in list(window.children):
            if type(child).__name__.endswith("View"):
                window.remove_widget(child)  # a popup left open
        window.remove_widget(root)
        app.dispatch("on_stop")  # also lets kv's `app` proxy forget this app
        store.close()
    made.clear()
    # what these apps left listening to a change of language (a How to play screen never
    # unsubscribes) would keep each app's whole widget tree alive, and be called at every later
    # change of language: the suite slowed down file after file
    i18n._listeners[:] = listening
    window.size = (800, 480)
    i18n.set_language("en")


@contextmanager
def apps(window: Any, folder: Path) -> Iterator[Any]:
    """``make(...)``: a fresh app on ``window`` with its database in ``folder``; on leaving,
    every app made is closed and let go of (tests/ui/test_teardown.py checks it is freed)."""
    from companion import i18n
    from companion.store import Store
    from ui.application import CompanionApp

    made: list[tuple[Any, Any, Any]] = []
    listening = list(i18n._listeners)

    def make(demo: bool = True, db: Path | None = None, size: tuple[int, int] = (800, 480),
             lang: str | None = "en") -> Any:
        window.size = size
        store = Store.open(db or folder / "ui.db")
        app = CompanionApp(store=store, force_demo=demo, lang=lang)  # English unless asked
        root = app.build()
        window.add_widget(root)
        made.append((app, root, store))
        from tests.ui.helpers import pump

        pump(2)
        return app

    try:
        yield make
    finally:
        close(window, made, listening)


@pytest.fixture
def make_app(window: Any, tmp_path: Path) -> Iterator[Any]:
    with apps(window, tmp_path) as make:
        yield make
