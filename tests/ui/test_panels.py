"""A game screen's side panel is built again only when what it shows changed: a refresh after
each throw and move used to clear and rebuild every row (the players of Kilkenny Cats and Qubism,
the tile counts of Chop! Chop!), most of a move's time in the whole-game UI tests."""

from __future__ import annotations

from typing import Any

from tests.ui.helpers import walk
from tests.ui.scenes import play


def _texts(box: Any) -> list[str]:
    return [w.text for w in walk(box) if hasattr(w, "text") and isinstance(w.text, str)]


def test_the_players_rows_are_kept_until_the_player_to_play_changes(make_app: Any) -> None:
    app = make_app()
    play(app, "kilkenny", 0)
    screen = app.game_screen
    box = screen.side.ids.players
    rows = list(box.children)
    assert app.session.state.is_chance() and len(rows) == len(app.session.game.players)
    screen.refresh()
    assert list(box.children) == rows  # nothing changed: the same rows
    player = app.session.state.current_player()
    screen.picker.roll()  # the throw: the same player to play, with the same cats
    assert app.session.state.current_player() == player and list(box.children) == rows
    app.apply(app.session.state.legal_actions()[0])
    if app.session.state.is_chance():
        screen.picker.roll()
    now = app.session.state.current_player()
    assert now != player and list(box.children) != rows
    shown = _texts(box)
    assert shown.count(app.session.name(now)) == 1 and sum("to play" in t for t in shown) == 1
    row = next(r for r in box.children if app.session.name(now) in _texts(r))
    assert any("to play" in t for t in _texts(row))  # the new player's own row says so


def test_the_tile_counts_are_kept_until_a_count_changes(make_app: Any) -> None:
    from companion.games.chopchop_tracker import tracker

    app = make_app()
    play(app, "chopchop", 0)
    screen = app.game_screen
    grid = screen.side.ids.tiles
    rows = list(grid.children)
    screen.refresh()
    assert rows and list(grid.children) == rows
    tr = tracker(app.session.state)
    before = {w.tile: w.text for w in walk(grid) if hasattr(w, "tile") and hasattr(w, "text")}
    assert {t: text.split(" ")[0] for t, text in before.items()} == {t: str(c.remaining) for t, c in tr.counts.items()}
    screen._tile_rows = None  # as if a count had changed: built again, the same words
    screen.refresh()
    assert list(grid.children) != rows
    assert {w.tile: w.text for w in walk(grid) if hasattr(w, "tile") and hasattr(w, "text")} == before


def test_homes_unfinished_rows_are_kept_until_what_one_says_changes(make_app: Any) -> None:
    """Each choice of game refreshes Home: a row is made again only for a game whose line changed
    (a move made), or in a new language; a game ended or started adds or drops its row."""
    from companion import i18n

    app = make_app()
    play(app, "katenmuis", 0)
    play(app, "kilkenny", 0)
    app.go("home")
    home = app.screen("home")
    rows = dict(home.unfinished_rows)
    assert len(rows) == 2 and list(home.ids.unfinished.children) == list(reversed(rows.values()))
    for key in ("chopchop", "qubism", "katenmuis"):
        home.select_game(key)
        assert home.unfinished_rows == rows and all(a is b for a, b in zip(home.unfinished_rows.values(),
                                                                             rows.values(), strict=True))
    kilkenny = app.session.game_id
    app.continue_game(kilkenny)
    app.game_screen.picker.roll()  # Kilkenny Cats: one move made
    app.go("home")
    home.select_game("qubism")
    kept = [gid for gid in rows if home.unfinished_rows[gid] is rows[gid]]
    assert kept == [gid for gid in rows if gid != kilkenny]
    assert "1 move" in home.unfinished_rows[kilkenny].label.text
    assert list(home.ids.unfinished.children) == list(reversed(home.unfinished_rows.values()))
    i18n.set_language("nl")
    home.select_game("qubism")
    assert not any(home.unfinished_rows[gid] is rows[gid] for gid in rows)
    i18n.set_language("en")
