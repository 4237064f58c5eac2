"""Issue 30: the rules remembered for a game are checked off the UI thread (a board file they
name is read and built on a worker), and a board file over the caps leaves the defaults."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion import games
from tests.companion.test_board_bounds import _huge
from tests.ui.helpers import pump, wait_for

SHIPPED = Path(__file__).resolve().parents[2] / "companion" / "boards"


def _home(app: Any) -> Any:
    app.go("home")
    return app.root.get_screen("home") if hasattr(app.root, "get_screen") else app.sm.get_screen("home")


def test_saved_rules_are_checked_on_a_worker(make_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app()
    home = _home(app)
    mine = tmp_path / "mine.toml"
    shutil.copy(SHIPPED / "chopchop.toml", mine)
    app.store.set_setting("ui.rules.chopchop", {"board": str(mine), "mice_players": 2})
    threads: list[str] = []
    make = games.make

    def spy(key: str, settings: Any = None) -> Any:
        if settings and settings.get("board") == str(mine):
            threads.append(threading.current_thread().name)
        return make(key, settings)

    monkeypatch.setattr(games, "make", spy)
    home.select_game("chopchop")
    assert wait_for(lambda: home.settings.get("board") == str(mine) and home.settings["mice_players"] == 2)
    assert threads and all(name == "rules-check" for name in threads)


def test_a_huge_board_in_the_saved_rules_leaves_the_defaults(make_app: Any, tmp_path: Path) -> None:
    app = make_app()
    home = _home(app)
    app.store.set_setting("ui.rules.chopchop", {"board": str(_huge(tmp_path)), "mice_players": 3})
    t = time.perf_counter()
    home.select_game("chopchop")
    # the UI thread is not held by the check (a huge board built there would never finish); the
    # bound is loose: select_game builds Home's rows, which took 2.2 s on a 2-core VM at load ~5
    # (session 24's fresh-clone CI beside the board benchmarks)
    assert time.perf_counter() - t < 8.0
    time.sleep(0.3)
    pump(3)
    assert home.settings["board"] == "chopchop" and home.settings["mice_players"] == 1
    assert not home.ids.start.disabled


def test_names_typed_in_the_app_are_cleaned(make_app: Any) -> None:
    home = _home(make_app())
    home.select_game("katenmuis")
    home.name_inputs["cat"].text = "  Ann\x1b[2J\u202e " + "x" * 80
    seats = home.seats()
    assert seats["cat"].startswith("Ann?[2J?") and "\x1b" not in seats["cat"] and len(seats["cat"]) == 40


def test_the_window_size_is_bounded() -> None:
    import argparse

    from ui.app import parse_size

    assert parse_size("7680x4320") == (7680, 4320)
    with pytest.raises(argparse.ArgumentTypeError, match="at most 7680x4320"):
        parse_size("100000x100000")
