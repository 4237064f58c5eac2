"""Cat's winning chance in the app: the odds table is built on a worker thread, never on the UI
thread (about a second here, several on a Pi), and the panel shows the chance once it is."""

from __future__ import annotations

import threading
import time
from typing import Any

from tests.ui.helpers import pump, tap, wait_for


def test_the_odds_table_is_built_off_the_ui_thread(make_app: Any, monkeypatch: Any) -> None:
    from companion import odds
    from ui.screens import katenmuis

    monkeypatch.setattr(katenmuis, "_odds_ready", set())
    built_on: list[str] = []
    real = odds.table

    real.cache_clear()  # built afresh in this test, wherever an earlier test built it

    def slow_table(setting: str = "reached") -> Any:
        misses = real.cache_info().misses
        table = real(setting)
        if real.cache_info().misses > misses:  # really built here, not a cached lookup
            built_on.append(threading.current_thread().name)
            time.sleep(0.5)  # as on a slow machine
        return table

    monkeypatch.setattr(odds, "table", slow_table)
    app = make_app()
    app.go("home")
    home = app.screen("home")
    tap(home.game_buttons["katenmuis"])
    tap(home.ids.start)
    pump()
    # the start did not wait for the slow table: the game is shown while it is being built (no
    # wall-clock bound here: on a loaded CI worker a start once took 21 s for other reasons)
    screen = app.screen("katenmuis")
    assert screen.ledger.odds == "Cat's chance: working it out…"
    assert wait_for(lambda: screen.ledger.odds.startswith("Cat wins "), timeout=20)
    assert built_on and all(name == "odds-table" for name in built_on)


def test_a_table_that_cannot_be_built_says_so_and_is_not_retried(make_app: Any, monkeypatch: Any) -> None:
    from companion import odds
    from ui.screens import katenmuis

    monkeypatch.setattr(katenmuis, "_odds_ready", set())
    monkeypatch.setattr(katenmuis, "_odds_failed", set())
    monkeypatch.setattr(katenmuis, "_odds_building", set())  # not an earlier test's build still running
    tries: list[str] = []

    def broken_table(setting: str = "reached") -> Any:
        tries.append(setting)
        raise MemoryError("no room for the table")

    monkeypatch.setattr(odds, "table", broken_table)
    app = make_app()
    app.go("home")
    home = app.screen("home")
    tap(home.game_buttons["katenmuis"])
    tap(home.ids.start)
    pump()
    screen = app.screen("katenmuis")
    # once the worker has failed, the panel stops saying "working it out" and the game goes on
    assert wait_for(lambda: screen.ledger.odds == "Cat's chance: not available", timeout=20)
    assert katenmuis.odds_failed("reached")
    for _ in range(3):
        screen.refresh()
        pump()
    assert screen.ledger.odds == "Cat's chance: not available"
    assert tries == ["reached"]  # built once, not again at every refresh (nor on the UI thread)
