"""Screens built on first use (ui.screens.lazy): an app starts with Home alone, builds a screen
the first time it is shown or asked for, hands a screen built late what it missed (the die's
state), and the real app (``on_start``) builds the rest ahead on the Clock."""

from __future__ import annotations

from typing import Any

from tests.ui.helpers import pump

LATER = ["katenmuis", "chopchop", "kilkenny", "qubism", "camera", "settings", "history", "howto", "gameover", "wizard"]


def built_names(app: Any) -> list[str]:
    return [s.name for s in app.sm.screens]


def test_only_home_is_built_at_start_and_a_screen_when_first_named(make_app: Any) -> None:
    app = make_app()
    assert built_names(app) == ["home"]
    assert app.sm.current == "home"
    assert all(app.sm.has_screen(name) for name in LATER)
    assert not app.sm.has_screen("nowhere")
    assert app.sm.built("settings") is None
    app.go("settings")
    pump(2)
    assert built_names(app) == ["home", "settings"]
    assert app.sm.current_screen is app.sm.built("settings")
    howto = app.screen("howto")  # asked for, not shown
    assert howto.name == "howto" and app.sm.current == "settings"
    assert built_names(app) == ["home", "settings", "howto"]
    assert app.screen("howto") is howto  # built once


def test_a_game_opened_builds_its_screen_and_keeps_the_others_unbuilt(make_app: Any) -> None:
    app = make_app()
    app.start_game("katenmuis", {"cat": "Ann", "mouse": "Bob"}, {})
    pump(2)
    assert app.sm.current == "katenmuis"
    assert app.game_screen is app.sm.built("katenmuis")
    assert app.game_screen.session is app.session
    assert "chopchop" not in built_names(app) and "camera" not in built_names(app)


def test_a_screen_built_after_a_die_state_shows_that_state(make_app: Any) -> None:
    class State:
        status = "connected"
        reason = ""

        def describe(self) -> str:
            return "Die: connected on /dev/ttyTEST"

    app = make_app()
    app.on_die_state(State())
    assert app.sm.built("settings") is None
    assert app.screen("settings").die_status == "Die: connected on /dev/ttyTEST"


def test_the_real_app_builds_the_other_screens_ahead_after_start(make_app: Any) -> None:
    app = make_app()
    app.build_ahead(delay=0)
    for _ in range(40):
        pump()
        if not app.sm.unbuilt:
            break
    assert sorted(built_names(app)) == sorted(["home", *LATER])
    assert app.sm.current == "home"
