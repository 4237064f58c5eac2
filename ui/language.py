"""The app's language: chosen at start, switched from Settings, shown at once on every screen.

At start the language is, first found: ``companion app --lang L``, the language saved in
Settings (``ui.language``), the environment (``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``),
English. Choosing another language in Settings saves it and switches
:mod:`companion.i18n`; its change listener rebuilds every screen (kv rules evaluate their
``_()`` when a widget is built, so a rebuild is the one way every label is sure to follow;
the screen shown is built at once, the others when next shown: ui.screens.lazy),
keeping the session, the screen shown and the game's narration.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion import i18n


def choose(cli: str | None, saved: str) -> str:
    """The language to start in: ``--lang`` > the saved setting > the environment."""
    for code in (cli, saved):
        if code:
            return code
    return i18n.language_from_env()


def start(app: Any, cli: str | None = None) -> str:
    """Switch to the start language for ``app``; returns the language in use."""
    return i18n.set_language(choose(cli, app.prefs.get("ui.language")))


def current() -> str:
    """The language in use now ("en", "nl", "fr")."""
    return i18n.language()


def choices() -> list[tuple[str, str, bool]]:
    """(code, the language's own name, whether its catalogue is installed) for the picker."""
    have = i18n.available_languages()
    return [(code, name, code in have) for code, name in i18n.LANGUAGES.items()]


def pick(app: Any, code: str) -> str:
    """The players chose ``code`` in Settings: save it and switch (the screens rebuild)."""
    app.prefs.set("ui.language", code)
    return i18n.set_language(code)


def listen(app: Any) -> Callable[[], None]:
    """Rebuild ``app``'s screens after every change of language; returns an unsubscribe."""
    return i18n.on_change(lambda _code: rebuild(app))


def rebuild(app: Any) -> None:
    """Every screen again in the language now in use, in place of the old ones (the one shown
    built now, the others on first use)."""
    from kivy.app import App

    old = app.sm
    root = app.root
    if old is None or root is None or App.get_running_app() is not app:
        return  # not built yet, or an app that is no longer the one running (tests make several)
    current = old.current
    app.camera_watch.stop()
    for screen in old.screens:
        stop = getattr(screen, "stop", None)
        if callable(stop) and screen.name == "camera":
            stop()
        cleanup = getattr(screen, "cleanup", None)
        if callable(cleanup):
            cleanup()
    new = app.make_screens()
    root.remove_widget(old)
    root.add_widget(new, index=len(root.children))  # under the toast
    app.sm = new
    app.title = app.window_title()
    app.status = app._status_text()
    session = app.session
    if session is not None:
        new.get_screen(session.record.game).set_session(session)
    if new.has_screen(current):
        new.current = current
    if session is not None and new.current == session.record.game:
        app.camera_watch.start()
