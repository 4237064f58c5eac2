"""The app's start-up error on screen (the kiosk, where nobody reads stderr)."""

from __future__ import annotations

from typing import Any

from tests.ui.helpers import pump, tap


def test_the_error_screen_shows_the_sentence_and_closes(window: Any) -> None:
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    from ui.app import error_view

    closed: list[bool] = []
    sentence = "The database /x/companion.db is damaged (file is not a database). Move it aside."
    view = error_view(sentence, lambda: closed.append(True))
    window.add_widget(view)
    try:
        pump(2)
        texts = [w.text for w in view.walk() if isinstance(w, Label) and not isinstance(w, Button)]
        assert sentence in texts
        (close,) = [w for w in view.walk() if isinstance(w, Button)]
        tap(close)
        assert closed == [True]
    finally:
        window.remove_widget(view)
