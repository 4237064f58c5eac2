"""The end-of-game screen with four players (two columns) in Dutch: long names and "6 katten ·
winnaar" wrap inside their row, which grows to fit, and nothing is cut off."""

from __future__ import annotations

import random
from typing import Any

from tests.ui.catalogue import lang_app, locale_dir  # noqa: F401  (fixtures)
from tests.ui.helpers import clipped, outside_parent, play_on, pump, screenshot
from tests.ui.test_whole_games import _choose


def test_four_kilkenny_players_fit_the_end_of_game_screen_in_dutch(lang_app: Any) -> None:
    app = lang_app("nl")
    app.start_game("kilkenny", {"red": "Grootmoeder", "blue": "Alexandra", "green": "Maximiliaan"},
                   {"players": 4, "cats": 2}, {"yellow": "easy"})
    rng = random.Random(1)
    play_on(app, rng, 2000, _choose)
    assert app.session.is_over()
    pump(3)
    over = app.screen("gameover")
    assert app.sm.current == "gameover" and over.ids.players.cols == 2
    assert clipped(over) == [] and outside_parent(over) == []
    rows = over.ids.players.children
    assert max(row.height for row in rows) > 40  # a name took two lines: its row grew
    screenshot(app.root, "gameover_kilkenny_4players_nl_800x480")
