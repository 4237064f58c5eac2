"""The screens' flow (issue 28): no game lost from view (Home's unfinished games, Continue,
Delete with a confirmation, the question before a second game of a kind), History's board
replay and wins per player, the end-of-game screen, toasts in their own area, icons on buttons.
All by simulated touches on the offscreen app, with screenshots in artifacts/screens/."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.ui.catalogue import lang_app, locale_dir  # noqa: F401  (fixtures)
from tests.ui.helpers import play_fast, play_on, pump, screenshot, small_touch_targets, tap, wait_for, walk


def _views(app: Any, name: str) -> list[Any]:
    return [w for w in app.root.get_root_window().children if type(w).__name__ == name]


def _ask(app: Any) -> Any:
    """The one question open, once any other is done closing (a dismissed view stays in the
    window for its closing animation)."""
    wait_for(lambda: len(_views(app, "AskView")) == 1, timeout=3)
    views = _views(app, "AskView")
    assert len(views) == 1, "one question is open"
    return views[0]


def _throw_by_touch(screen: Any, rng: random.Random) -> None:
    picker = screen.picker
    for row in picker.rows:
        tap(row[rng.randrange(len(row))])


def _start_by_touch(app: Any, key: str, names: dict[str, str]) -> None:
    home = app.screen("home")
    app.go("home")
    tap(home.game_buttons[key])
    for role, name in names.items():
        home.name_inputs[role].text = name
    tap(home.ids.start)
    pump(2)


def tap_scrolled(widget: Any) -> None:
    """A finger on a widget inside a scrolling list, scrolled into view: held 0.3 s (the ScrollView waits 0.25 s to
    tell a tap from a drag), then lifted."""
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and not isinstance(parent, ScrollView):
        parent = parent.parent
    pump(2)  # a list just laid out again (rules shut, a question closed) settles first
    for _ in range(5):  # scrolled into view first, as a finger would, until its centre shows
        if parent is None:
            break
        parent.scroll_to(widget, animate=False)
        pump(2)
        x, y = widget.to_window(*widget.center)
        x0, y0 = parent.to_window(parent.x, parent.y)
        x1, y1 = parent.to_window(parent.right, parent.top)
        if x0 <= x <= x1 and y0 <= y <= y1:
            break
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    end = time.monotonic() + 0.3
    while time.monotonic() < end:
        pump()
        time.sleep(0.02)
    touch.touch_up()
    pump(2)


def _rect(widget: Any) -> tuple[float, float, float, float]:
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    return x0, y0, x1, y1


def _overlap(a: Any, b: Any) -> bool:
    ax0, ay0, ax1, ay1 = _rect(a)
    bx0, by0, bx1, by1 = _rect(b)
    return ax0 < bx1 - 1 and bx0 < ax1 - 1 and ay0 < by1 - 1 and by0 < ay1 - 1


def test_a_second_game_asks_first_and_the_first_can_be_continued(make_app: Any) -> None:
    app = make_app()
    rng = random.Random(3)
    _start_by_touch(app, "katenmuis", {"cat": "Anna", "mouse": "Ben"})
    first = app.session.game_id
    for _i in range(3):
        _throw_by_touch(app.game_screen, rng)
    made = len(app.session.turns)
    assert made == 3
    # a second game of the same kind: asked first, in words
    _start_by_touch(app, "katenmuis", {"cat": "Carl", "mouse": "Dora"})
    view = _ask(app)
    assert view.question.text == "Continue the unfinished game, or start a new one?"
    assert "Anna – Ben" in view.detail.text and "3 moves" in view.detail.text
    screenshot(app.root, "home_ask_new_or_continue_800x480")
    assert small_touch_targets(view) == []
    tap(view.buttons["second"])  # start a new one
    assert wait_for(lambda: _views(app, "AskView") == [])  # its closing animation is over
    pump(2)
    second = app.session.game_id
    assert second != first and app.session.seats == {"cat": "Carl", "mouse": "Dora"}
    # Home lists both unfinished games; Resume continues the selected game's newest
    app.go("home")
    home = app.screen("home")
    pump(2)
    assert list(home.unfinished_rows) == [second, first]
    row = home.unfinished_rows[first]
    assert "Kat en Muis" in row.label.text and "Anna – Ben" in row.label.text and "3 moves" in row.label.text
    assert home.resume_text == "Continue Kat en Muis: Carl – Dora"
    tap(home.game_buttons["chopchop"])
    assert home.resume_text == ""  # no unfinished Chop! Chop!: nothing offered for it
    screenshot(app.root, "home_unfinished_800x480")
    assert small_touch_targets(home) == []
    tap_scrolled(home.unfinished_rows[first].continue_button)
    pump(2)
    assert app.sm.current == "katenmuis"
    assert app.session.game_id == first and len(app.session.turns) == made
    assert app.session.seats == {"cat": "Anna", "mouse": "Ben"}
    # asked again, "Continue it" opens the newest unfinished one of that kind
    _start_by_touch(app, "katenmuis", {})
    tap(_ask(app).buttons["first"])
    assert wait_for(lambda: _views(app, "AskView") == [])  # its closing animation is over
    pump(2)
    assert app.session.game_id == second
    # Cancel starts nothing
    _start_by_touch(app, "katenmuis", {})
    tap(_ask(app).buttons["third"])
    assert wait_for(lambda: _views(app, "AskView") == [])  # its closing animation is over
    pump(2)
    assert app.sm.current == "home" and len(app.store.unfinished_games()) == 2


def test_delete_asks_for_a_confirmation_in_words(make_app: Any) -> None:
    app = make_app()
    app.start_game("kilkenny", {"red": "Anna", "blue": "Ben"}, {})
    gid = app.session.game_id
    app.go("home")
    home = app.screen("home")
    pump(2)
    tap_scrolled(home.unfinished_rows[gid].delete_button)
    view = _ask(app)
    assert view.question.text == "Delete this unfinished game? It cannot be continued afterwards."
    assert "Kilkenny" in view.detail.text and "Anna – Ben" in view.detail.text
    screenshot(app.root, "home_delete_confirm_800x480")
    tap(view.buttons["second"])  # keep it
    assert wait_for(lambda: _views(app, "AskView") == [])  # its closing animation is over
    pump(2)
    assert [g.id for g in app.store.unfinished_games()] == [gid] and gid in home.unfinished_rows
    tap_scrolled(home.unfinished_rows[gid].delete_button)
    tap(_ask(app).buttons["first"])  # delete it
    assert wait_for(lambda: _views(app, "AskView") == [])  # its closing animation is over
    pump(2)
    assert app.store.unfinished_games() == []
    assert home.unfinished_rows == {} and home.unfinished_count == 0
    assert app.toaster.history[-1] == "The game was deleted."
    assert app.session is None  # the open game was the deleted one
    tap(home.game_buttons["kilkenny"])
    tap(home.ids.start)  # a new one starts without a question
    pump(2)
    assert _views(app, "AskView") == [] and app.sm.current == "kilkenny"


def test_end_of_game_screen_after_a_whole_game_and_play_again(make_app: Any) -> None:
    app = make_app()
    rng = random.Random(11)
    _start_by_touch(app, "katenmuis", {"cat": "Anna", "mouse": "Ben"})
    screen = app.game_screen
    for _i in range(400):
        if app.session.is_over():
            break
        _throw_by_touch(screen, rng)
    assert app.session.is_over()
    pump(2)
    assert app.sm.current == "gameover"
    over = app.screen("gameover")
    outcome = app.session.state.outcome()
    winner = app.session.seats[outcome["winner"]]
    assert over.headline == f"{winner} wins!"
    values = [w.text for w in walk(over.ids.players) if hasattr(w, "text")]
    for role in ("cat", "mouse"):
        chips = outcome["banks"][role]
        assert any(t.startswith(f"{chips} chip") and f"({outcome['scores'][role]:+d})" in t for t in values), values
    assert "turns in" in over.length and "minute" in over.length
    assert small_touch_targets(over) == []
    screenshot(app.root, "gameover_katenmuis_800x480")
    # back to the board: Undo takes the winning throw back
    tap(over.ids.board_button)
    assert app.sm.current == "katenmuis"
    tap(screen.over_button)  # "See the result" again
    assert app.sm.current == "gameover"
    tap(over.ids.play_again)
    pump(2)
    assert app.sm.current == "katenmuis" and not app.session.is_over()
    assert app.session.seats == {"cat": "Anna", "mouse": "Ben"} and app.session.turns == []


def test_end_of_game_screen_chop_chop_counts_cheese(make_app: Any) -> None:
    app = make_app()
    app.start_game("chopchop", {"cat": "Mum", "mice1": "Tom"}, {})
    rng = random.Random(5)
    play_fast(app, rng, 3000)  # the engine plays; the move that ends it is made on the screen
    assert app.session.is_over()
    pump(2)
    over = app.screen("gameover")
    assert app.sm.current == "gameover"
    outcome = app.session.state.outcome()
    assert f"The mice got {outcome['cheese']} chees" in over.ids.extra.text
    assert "The cat caught" in over.ids.extra.text
    screenshot(app.root, "gameover_chopchop_800x480")


def test_history_lists_unfinished_games_wins_and_steps_through_a_replay(make_app: Any) -> None:
    app = make_app()
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    play_fast(app, random.Random(0), 3000)  # the winning throw on the screen
    finished = app.session
    app.start_game("kilkenny", {"red": "Anna", "blue": "Carl"}, {})
    app.game_screen.picker.roll()
    unfinished = app.session.game_id
    app.go("history")
    hist = app.screen("history")
    pump(2)
    assert set(hist.game_buttons) == {finished.game_id, unfinished}
    assert "unfinished" in hist.game_buttons[unfinished].text
    # wins per player per game
    tap(hist.ids.wins_button)
    winner = finished.seats[finished.state.outcome()["winner"]]
    loser = ({"Anna", "Ben"} - {winner}).pop()
    cells = [w.text for w in reversed(list(walk(hist.ids.detail))) if hasattr(w, "text")]  # in reading order
    assert "Kat en Muis" in cells and winner in cells and loser in cells
    assert cells[cells.index(winner) + 1] == "1 of 1" and cells[cells.index(loser) + 1] == "0 of 1"
    screenshot(app.root, "history_wins_800x480")
    # the replay: the last position first, then step back and forward
    tap(hist.game_buttons[finished.game_id])
    panel = hist.ids.board_replay
    steps = len(finished.turns)
    assert panel.steps == steps and panel.step == steps
    assert panel.board_view.tokens == finished.state.board_view()
    screenshot(app.root, "history_replay_end_800x480")
    tap(panel.back_button)
    tap(panel.back_button)
    assert panel.step == steps - 2
    from companion.session import replay

    events = [e for e in app.store.events(finished.game_id) if e.seq <= finished.turns[steps - 3].seq]
    assert panel.board_view.tokens == replay(finished.game, events)[0].board_view()
    assert panel.caption == " ".join(finished.narrate(finished.turns[steps - 3].effects))
    tap(panel.forward_button)
    assert panel.step == steps - 1
    panel.go(0)
    assert panel.board_view.tokens == finished.game.new_state().board_view()
    assert panel.back_button.disabled and panel.caption == "The start of the game."
    tap(panel.forward_button)
    assert panel.step == 1
    screenshot(app.root, "history_replay_step_800x480")
    # an unfinished game: replayed too, and Continue opens it
    tap(hist.game_buttons[unfinished])
    panel = hist.ids.board_replay
    assert panel.continue_button is not None
    tap(panel.continue_button)
    pump(2)
    assert app.sm.current == "kilkenny" and app.session.game_id == unfinished


def test_toasts_never_cover_the_action_row_or_the_top_bar(make_app: Any) -> None:
    app = make_app()
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    screen = app.game_screen
    screen.picker.roll()
    tap(screen.ids.undo_button)
    pump(2)
    toast = app.toaster
    assert toast.history[-1] == "Undone." and toast.opacity == 1
    top_bar = screen.ids.home_button.parent
    assert not _overlap(toast, top_bar)
    assert not _overlap(toast, screen.ids.input_panel)  # Roll and the dice picker
    assert not _overlap(toast, screen.picker.roll_button)
    screenshot(app.root, "toast_game_800x480", keep_toast=True)
    # a long message grows upwards over the board, never into the action row
    app.toast("A long message " * 12, "bad")
    pump(2)
    assert toast.height > 100
    assert not _overlap(toast, top_bar) and not _overlap(toast, screen.ids.input_panel)
    # Home: under the top bar, clear of Start
    app.go("home")
    home = app.screen("home")
    app.toast("Saved.", "info")
    pump(2)
    assert not _overlap(toast, home.ids.start)
    top = home.children[0].children[-1]
    assert not _overlap(toast, top)
    screenshot(app.root, "toast_home_800x480", keep_toast=True)
    # a toast at the very moment a game screen opens (before its first layout) moves there
    app.start_game("chopchop", {}, {})
    app.undo()
    screen = app.game_screen
    assert toast.history[-1] == "Nothing to undo."
    assert wait_for(lambda: _overlap(toast, screen.ids.toast_area), timeout=1)
    assert not _overlap(toast, screen.ids.home_button.parent)
    assert not _overlap(toast, screen.ids.input_panel)


def test_every_top_bar_and_action_button_has_a_legible_icon(make_app: Any) -> None:
    from kivy.uix.button import Button
    from kivy.uix.togglebutton import ToggleButton

    from ui.widgets.icons import MIN_ICON, IconButton, font_path

    assert font_path() is not None, "the icon font (fontawesomefree) is installed"
    app = make_app()
    app.start_game("katenmuis", {}, {})
    screen = app.game_screen
    pump(2)
    for name in ("home_button", "mute_button", "rules_button", "camera_button", "undo_button"):
        button = screen.ids[name]
        assert isinstance(button, IconButton) and button.icon and button.text, name
        w, h = button._icon_rect.size
        assert h >= MIN_ICON - 2 and w > 0, (name, w, h)
        # the icon sits inside the button, above the text (the crowded top bar)
        x, y = button._icon_rect.pos
        assert button.x <= x and x + w <= button.right and button.y <= y and y + h <= button.top + 1, name
        assert button.stacked and y >= button.center_y - 4, name
        assert button.width >= 48 and button.height >= 48
    roll = screen.picker.roll_button
    assert roll.icon == "dice" and not roll.stacked
    x, _y = roll._icon_rect.pos
    assert roll.x <= x and x + roll._icon_rect.size[0] <= roll.center_x  # beside, left of the text
    tap(screen.ids.mute_button)
    assert screen.ids.mute_button.icon == "mute"
    tap(screen.ids.mute_button)
    assert screen.ids.mute_button.icon == "speaker"
    for scr in ("home", "history", "settings", "camera", "howto", "gameover"):
        bar = app.screen(scr).children[0].children[-1]  # the top bar
        buttons = [w for w in walk(bar) if isinstance(w, Button) and not isinstance(w, ToggleButton)]
        assert buttons and all(isinstance(b, IconButton) and b.icon for b in buttons), scr


@pytest.mark.parametrize("lang", ["en", "nl", "fr"])
def test_flow_screens_in_three_languages(lang_app: Any, lang: str) -> None:
    """Every screen this flow adds or changes, rendered in en/nl/fr with nothing clipped, sticking
    out of its parent or too small to touch (artifacts/screens/flow_*_<lang>_800x480.png)."""
    from tests.ui.test_screens_i18n import Scenes

    app = lang_app(lang)
    s = Scenes(app, lang)
    rng = random.Random(2)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    for _i in range(3):
        _throw_by_touch(app.game_screen, rng)
    app.start_game("chopchop", {"cat": "Mum", "mice1": "Tom", "mice2": "Lou"}, {"mice_players": 2})
    app.undo()
    s.check("flow_game_toast", keep_toast=True)
    app.go("home")
    home = app.screen("home")
    home.select_game("katenmuis")
    s.check("flow_home_unfinished")
    tap_scrolled(home.ids.rules_toggle)
    assert home.rules_open and home.ids.rules.parent is not None
    s.check("flow_home_rules_open")
    home.show_rules(False)
    home.start()  # (asked by touch in test_a_second_game_asks_first...; here only its pictures)
    s.check("flow_home_ask", _ask(app))
    _ask(app).dismiss(animation=False)
    tap_scrolled(next(iter(home.unfinished_rows.values())).delete_button)
    s.check("flow_home_delete", _ask(app))
    _ask(app).dismiss(animation=False)
    # a whole Kat en Muis game: the end-of-game screen
    app.continue_game(min(home.unfinished_rows))
    play_fast(app, rng, 3000)  # the winning throw on the screen
    pump(2)
    s.check("flow_gameover_katenmuis")
    tap(app.screen("gameover").ids.board_button)
    s.check("flow_game_over_board")
    # Chop! Chop! to the end
    app.continue_game(max(g.id for g in app.store.unfinished_games("chopchop")))
    play_fast(app, rng, 3000)
    pump(2)
    s.check("flow_gameover_chopchop")
    app.start_game("kilkenny", {"red": "Anna", "blue": "Carl"}, {})
    app.game_screen.picker.roll()
    app.go("history")
    hist = app.screen("history")
    s.check("flow_history_wins")
    hist.show_game(min(hist.game_buttons))
    hist.ids.board_replay.go(3)
    s.check("flow_history_replay")
    s.done()


@pytest.mark.parametrize("key", ["katenmuis", "chopchop", "kilkenny", "qubism"])
def test_the_replay_draws_each_games_board_at_every_step(make_app: Any, key: str) -> None:
    from companion.session import replay

    app = make_app()
    app.start_game(key, {}, {})
    rng = random.Random(4)
    play_on(app, rng, 12)
    session = app.session
    app.undo()  # an undone move is not replayed
    app.go("history")
    hist = app.screen("history")
    tap(hist.game_buttons[session.game_id])
    panel = hist.ids.board_replay
    assert panel.steps == len(session.turns) > 3
    events = app.store.events(session.game_id)
    for step in range(panel.steps, -1, -1):
        panel.go(step)
        upto = session.turns[step - 1].seq if step else 0
        expected = replay(session.game, [e for e in events if e.seq <= upto and e.kind == "action"])[0]
        assert panel.board_view.tokens == expected.board_view(), step
