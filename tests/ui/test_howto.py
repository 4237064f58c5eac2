"""The How to play screen (every game, every page, squares lit on the board, readable at
800x480, screenshots) and the first-game guide line on the game screen (on, off, Stop guiding)."""

from __future__ import annotations

import re

from typing import Any

import pytest

from companion import games
from companion.teach import howto
from companion.teach.guide import next_step
from tests.ui.helpers import pump, screenshot, small_text, small_touch_targets, tap, texts, visible


def _open_from_home(app: Any, key: str, select: bool = True) -> Any:
    app.go("home")
    home = app.screen("home")
    if select:
        home.select_game(key)
    tap(home.ids.howto_button)
    pump(2)
    assert app.sm.current == "howto"
    return app.screen("howto")


@pytest.mark.parametrize("key", list(games.GAMES))
def test_howto_walks_every_page_and_lights_its_squares(make_app: Any, key: str) -> None:
    app = make_app()
    screen = _open_from_home(app, key)
    sections = howto(games.make(key, app.screen("home").settings))
    pages = [p for s in sections for p in s.pages]
    assert screen.count == len(pages)
    board = screen.ids.board
    assert board.board is not None and board.board.game == key
    assert board.tokens  # the starting position is drawn
    seen_titles = []
    lit_pages = 0
    for i, page in enumerate(pages):
        pump()
        assert screen.index == i
        assert page.text in screen.page_text.replace("&amp;", "&").replace("&bl;", "[").replace("&br;", "]")
        assert list(board.highlights) == list(page.squares)
        assert all(sq in board.board.squares for sq in board.highlights)
        lit_pages += bool(board.highlights)
        if screen.section_title not in seen_titles:
            seen_titles.append(screen.section_title)
        assert screen.ids.previous.disabled == (i == 0)
        if i < len(pages) - 1:
            tap(screen.ids.next)
    assert screen.ids.next.disabled
    assert seen_titles == [f"{n}. {s.title}" for n, s in enumerate(sections, 1)]
    assert lit_pages >= 3
    assert small_touch_targets(screen) == []
    assert small_text(screen) == []
    tap(screen.ids.previous)
    assert screen.index == len(pages) - 2
    tap(screen.ids.back_button)
    assert app.sm.current == "home"


def test_howto_section_buttons_jump_and_text_follows_home_settings(make_app: Any) -> None:
    app = make_app()
    app.go("home")
    home = app.screen("home")
    home.select_game("katenmuis")
    assert home.set_setting("shortcut_from", "strictly_past")
    screen = _open_from_home(app, "katenmuis", select=False)
    screen.section_buttons[4].dispatch("on_release")
    assert screen.section_title.startswith("5. ")
    assert "takes you to square 28" in screen.page_text
    assert set(screen.ids.board.highlights) >= {"22", "28", "33"}


@pytest.mark.parametrize("key", ["katenmuis", "chopchop"])
def test_howto_screenshots(make_app: Any, key: str) -> None:
    app = make_app()
    screen = _open_from_home(app, key)
    target = {"katenmuis": 2, "chopchop": 0}[key]  # special squares / setup: lit squares on the board
    screen.go_section(target)
    screen.next()
    pump(2)
    assert screen.ids.board.highlights
    shown = texts(screen)
    assert any(t.startswith(f"{target + 1}. ") for t in shown)
    screenshot(app.root, f"howto_{key}_800x480")
    screen.go(screen.count - 1)  # the last page: this companion's rules, in plain words (issue 28)
    assert screen.section_title.startswith("5. ") and "•" in screen.page_text
    assert not re.search(r"\([KCLQ]\d+\)|RULES\.md", screen.page_text), screen.page_text
    screenshot(app.root, f"howto_{key}_rules_800x480")


def test_howto_from_the_game_screen_uses_the_games_settings(make_app: Any) -> None:
    app = make_app()
    app.start_game("chopchop", {}, {"out_of_cheese": "draw"})
    game_screen = app.game_screen
    tap(game_screen.ids.rules_button)
    pump(2)
    screen = app.screen("howto")
    assert app.sm.current == "howto"
    screen.go_section(4)
    assert "ends in a draw" in screen.page_text
    tap(screen.ids.back_button)
    assert app.sm.current == "chopchop"


def test_guide_mode_shows_the_next_step_and_stop_guiding_hides_it(make_app: Any) -> None:
    app = make_app()
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    screen = app.game_screen
    pump(2)
    assert screen.guide_text == ""
    assert not visible(screen.ids.guide_bar)
    # turned on from the home screen's toggle
    app.go("home")
    home = app.screen("home")
    tap(home.ids.guide_toggle)
    assert app.prefs.get("ui.guide") is True
    app.go("katenmuis")
    pump(2)
    assert screen.guide_text == "Anna (Cat), throw both dice."
    assert visible(screen.ids.guide_bar) and screen.ids.guide_label.text == screen.guide_text
    screen.enter_throw([3, 4])
    pump(2)
    assert screen.guide_text == next_step(app.session.game, app.session.state, app.session.seats,
                                          app.session.turns[-1].effects)
    assert screen.guide_text.startswith("Anna (Cat), put your counter on your number 7 (square B1).")
    assert small_touch_targets(screen) == []
    screenshot(app.root, "game_guide_katenmuis_800x480")
    tap(screen.ids.stop_guiding)
    pump(2)
    assert screen.guide_text == "" and not visible(screen.ids.guide_bar)
    assert app.prefs.get("ui.guide") is False
    assert home.ids.guide_toggle.state == "normal"


def test_guide_mode_chopchop_reveal_due(make_app: Any) -> None:
    app = make_app()
    app.prefs.set("ui.guide", True)
    app.start_game("chopchop", {}, {})
    screen = app.game_screen
    state = app.session.state
    assert screen.guide_text.startswith("Cat, put the cat on any square of the table top")
    from companion.games.chopchop import Move, PlaceCat, Roll

    app.apply(PlaceCat("top:2,3"))
    app.apply(Roll(1))
    state = app.session.state
    onto_slab = [a for a in state.legal_actions() if isinstance(a, Move) and a.to in state.face_down]
    app.apply(onto_slab[0])
    pump(2)
    assert app.session.state.phase == "reveal"
    assert screen.guide_text.startswith("Turn over the slab mouse ")
    assert screen.input_mode == "tile"


@pytest.mark.parametrize("key", ["kilkenny", "qubism"])
def test_howto_screenshots_square_boards(make_app: Any, key: str) -> None:
    app = make_app()
    screen = _open_from_home(app, key)
    screen.go_section(0)
    screen.next()
    pump(2)
    assert screen.ids.board.highlights
    screenshot(app.root, f"howto_{key}_800x480")


def test_howto_follows_a_language_change(make_app: Any, tmp_path: Any) -> None:
    """A real (tiny) gettext catalogue: after set_language the page on screen is retranslated."""
    import shutil
    import subprocess

    from companion import i18n

    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt (gettext) is not installed")
    app = make_app()
    screen = _open_from_home(app, "qubism")
    screen.go(1)
    english = screen.page_text
    po = tmp_path / "companion.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        f'msgid "{english}"\nmsgstr "Wit begint in het midden van de onderste rij."\n',
        encoding="utf-8",
    )
    locale = tmp_path / "locale"
    (locale / "nl" / "LC_MESSAGES").mkdir(parents=True)
    subprocess.run([msgfmt, "-o", str(locale / "nl" / "LC_MESSAGES" / "companion.mo"), str(po)], check=True)
    old = i18n.LOCALE_DIR
    try:
        i18n.LOCALE_DIR = locale  # type: ignore[misc]
        assert i18n.set_language("nl") == "nl"
        pump(3)
        assert screen.index == 1
        assert screen.page_text == "Wit begint in het midden van de onderste rij."
    finally:
        i18n.LOCALE_DIR = old  # type: ignore[misc]
        i18n.set_language("en")
        pump(2)
    assert screen.page_text == english
