"""Chop! Chop! when the reveals contradict the tile composition (a real box with another split
than the setting): a one-line notice on the game screen that never moves the layout; Undo, Rules,
Camera and Mute stay inside the window and uncovered; tapping the notice says in plain words how
to adjust the counts in the rules settings. Rendered in en/nl/fr to artifacts/screens/."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.catalogue import lang_app, locale_dir  # noqa: F401  (fixtures)
from tests.ui.helpers import clipped, outside_parent, pump, screenshot, small_touch_targets, tap, walk

TOP_BUTTONS = ("undo_button", "rules_button", "camera_button", "mute_button")


def knives_turned(app: Any, knives: int, stop_at_tile: bool = False) -> None:
    """Play Chop! Chop! (first legal moves, dice drawn) telling every slab a knife until
    ``knives`` were turned; with ``stop_at_tile``, stop at the next slab to turn."""
    from ui import actions

    screen = app.game_screen
    turned = 0
    for _i in range(400):
        state = app.session.state
        assert not state.is_over()
        kind = actions.chance_kind(state)
        if kind == "tile":
            if turned >= knives and stop_at_tile:
                return
            screen.enter_tile("knife" if turned < knives else "crockery")
            turned += 1
        elif turned >= knives and not stop_at_tile:
            return
        elif kind == "dice":
            screen.picker.roll()
        else:
            app.apply(state.legal_actions()[0])
    raise AssertionError("no slabs turned")


def window_rect(w: Any) -> tuple[float, float, float, float]:
    """The part of ``w`` that can be drawn, in window coordinates: its box cut by every
    StencilView (a ScrollView) around it, which clips what is drawn."""
    from kivy.uix.stencilview import StencilView

    x0, y0 = w.to_window(w.x, w.y)
    x1, y1 = w.to_window(w.right, w.top)
    p = w.parent
    while p is not None and p is not p.parent and hasattr(p, "to_window"):  # a Window is its own parent
        if isinstance(p, StencilView):
            a0, b0 = p.to_window(p.x, p.y)
            a1, b1 = p.to_window(p.right, p.top)
            x0, y0, x1, y1 = max(x0, a0), max(y0, b0), min(x1, a1), min(y1, b1)
        p = p.parent
    return x0, y0, x1, y1


def covered_or_outside(app: Any, screen: Any) -> list[str]:
    """Top-bar buttons outside the window or under 48 px, or with another widget drawn over them."""
    window = app.root.get_root_window()
    bad = []
    for key in TOP_BUTTONS:
        button = screen.ids[key]
        x0, y0, x1, y1 = window_rect(button)
        if x0 < 0 or y0 < 0 or x1 > window.width or y1 > window.height or button.width < 48:
            bad.append(f"{key} at {x0:.0f},{y0:.0f}-{x1:.0f},{y1:.0f} outside the window")
        bar = button.parent
        for w in walk(screen):
            if w is bar or bar in list(walk(w)) or w in list(walk(bar)) or getattr(w, "opacity", 1) == 0:
                continue
            if not w.children and w.width > 0 and w.height > 0:
                a0, b0, a1, b1 = window_rect(w)
                if a0 < x1 - 1 and a1 > x0 + 1 and b0 < y1 - 1 and b1 > y0 + 1:
                    bad.append(f"{key} covered by {type(w).__name__} {getattr(w, 'text', '')!r:.40} "
                               f"at {a0:.0f},{b0:.0f}-{a1:.0f},{b1:.0f}")
    return bad


def in_view(w: Any) -> bool:
    """Whether all of ``w`` is drawn (not scrolled out of its panel)."""
    x0, y0, x1, y1 = window_rect(w)
    return abs(x1 - x0 - w.width) < 0.5 and abs(y1 - y0 - w.height) < 0.5


@pytest.mark.parametrize("lang", ["en", "nl", "fr"])
def test_a_tile_count_mismatch_is_a_one_line_notice_that_moves_nothing(lang_app: Any, lang: str) -> None:
    app = lang_app(lang)
    app.start_game("chopchop", {"cat": "Anna", "mice1": "Ben"}, {})
    screen = app.game_screen
    pump(3)
    before = {k: tuple(screen.ids[k].to_window(*screen.ids[k].pos)) for k in TOP_BUTTONS}
    knives_turned(app, 5)
    pump(3)
    from companion.games.chopchop_tracker import tracker

    assert tracker(app.session.state).contradiction is not None
    problems = covered_or_outside(app, screen) + outside_parent(screen) + clipped(screen)
    sv = screen.side.parent
    problems += small_touch_targets(screen)
    assert {k: tuple(screen.ids[k].to_window(*screen.ids[k].pos)) for k in TOP_BUTTONS} == before
    screenshot(app.root, f"game_chopchop_mismatch_{lang}_800x480")
    assert problems == [], "\n".join(problems)
    notice = screen.side.ids.notice
    one_line = notice.font_size * 1.6
    assert notice.text and notice.height == 48 and 0 < notice.texture_size[1] < one_line  # one line
    assert in_view(notice) and in_view(screen.side.ids.cheese)  # the top of the tracker shows
    assert "reveals contradict" not in " ".join(w.text for w in walk(screen) if hasattr(w, "text"))
    # the next slab to turn: the tile picker takes the room, the notice stays, nothing moves
    knives_turned(app, 0, stop_at_tile=True)
    pump(3)
    assert screen.input_mode == "tile" and notice.height == 48 and notice.opacity == 1 and in_view(notice)
    problems = covered_or_outside(app, screen) + outside_parent(screen) + clipped(screen)
    assert {k: tuple(screen.ids[k].to_window(*screen.ids[k].pos)) for k in TOP_BUTTONS} == before
    screenshot(app.root, f"game_chopchop_mismatch_tiles_{lang}_800x480")
    assert problems == [], "\n".join(problems)
    # touched: how to adjust the counts, in plain words, and a way to the rules settings
    tap(notice)
    pump(3)
    view = next(w for w in app.root.get_root_window().children if type(w).__name__ == "CountsView")
    words = " ".join(w.text for w in walk(view) if hasattr(w, "text"))
    assert notice.text in words and view.open_rules.text in words
    problems = clipped(view) + outside_parent(view) + small_touch_targets(view)
    screenshot(app.root, f"game_chopchop_mismatch_help_{lang}_800x480")
    assert problems == [], "\n".join(problems)
    tap(view.open_rules)
    pump(3)
    home = app.screen("home")
    assert app.sm.current == "home" and home.game_key == "chopchop"
    steppers = [k for k in home.ids if k.startswith("setting_tiles_")]
    assert "setting_tiles_knife" in steppers
    assert app.session is not None and not app.session.is_over()  # the game is kept to resume


def test_no_notice_while_the_reveals_fit_the_counts(lang_app: Any) -> None:
    app = lang_app("en")
    app.start_game("chopchop", {}, {})
    knives_turned(app, 4)  # exactly the 4 knives of the default counts
    pump(2)
    notice = app.game_screen.side.ids.notice
    assert notice.text == "" and notice.height == 0 and notice.opacity == 0 and notice.disabled


def play_to_the_end(app: Any, seed: int) -> None:
    """Random legal actions and chance outcomes by their odds, through the app, to the end."""
    import random

    from companion.games.base import CHANCE

    rng = random.Random(seed)
    for _i in range(3000):
        state = app.session.state
        if state.is_over():
            return
        if state.to_move() == CHANCE:
            outs = state.chance_outcomes()
            action = rng.choices([a for a, _ in outs], [float(p) for _, p in outs])[0]
        else:
            action = rng.choice(state.legal_actions())
        assert app.apply(action) is not None
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("lang,setting", [("en", "cat"), ("nl", "draw"), ("fr", "cat")])
def test_c8_the_game_screen_says_why_the_game_ended_and_who_won(lang_app: Any, lang: str, setting: str) -> None:
    from companion.games.chopchop import Won

    app = lang_app(lang)
    app.start_game("chopchop", {"cat": "Anna", "mice1": "Ben"}, {"out_of_cheese": setting})
    play_to_the_end(app, 1)  # seed 1: the cat sits on cheese until too little is left (C8 a)
    pump(3)
    out = app.session.state.outcome()
    assert out["reason"] == "not enough cheese is left" and out["side"] == setting
    screen = app.game_screen
    said = Won(setting, out["reason"]).describe()  # in the language of the screen
    assert (lang == "en") == said.startswith("The mice can no longer win")  # translated
    assert screen.side.notes.startswith(said[:1].upper() + said[1:])  # the reason and the result
    assert said in screen.ids.narration.text  # narrated like any end
    assert ("Anna" in screen.banner) is (setting == "cat") and "Ben" not in screen.banner  # the winner, if any
    screenshot(app.root, f"game_chopchop_c8_end_{setting}_{lang}_800x480")
    problems = clipped(screen) + outside_parent(screen) + covered_or_outside(app, screen)
    assert problems == [], "\n".join(problems)
