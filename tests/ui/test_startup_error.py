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


def test_damaged_games_are_skipped_by_home_history_and_resume(make_app: Any, tmp_path: Any) -> None:
    import sqlite3

    from companion.session import Session
    from companion.store import Store

    db = tmp_path / "family.db"
    with Store.open(db) as store:
        Session.start(store, "katenmuis", {"cat": "Ann", "mouse": "Bo"}).apply({"type": "Throw", "dice": [1, 2]})
        Session.start(store, "katenmuis", {"cat": "Cy", "mouse": "Di"})  # game 2: damaged below
        Session.start(store, "katenmuis", {"cat": "Ed", "mouse": "Fa"})  # game 3: a finished one, damaged
    conn = sqlite3.connect(db)
    conn.execute("UPDATE games SET settings = '{not json' WHERE id = 2")
    conn.execute("UPDATE games SET finished = 'yesterday', outcome = '{}' WHERE id = 3")
    conn.commit()
    conn.close()
    app = make_app(db=db)
    app.go("home")
    app.screen("home").refresh()
    app.go("history")
    app.screen("history").refresh()
    session = app.resume_game("katenmuis")
    assert session is not None and session.game_id == 1  # the newest readable one
    pump(2)
    assert any("Game #2" in t and "skipped" in t for t in app.toaster.history)
    app.screen("history").show_game(2)  # a toast, not a crash
