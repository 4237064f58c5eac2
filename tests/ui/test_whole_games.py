"""Issue 28's bar: a whole game of each of the four games from Home to the end-of-game screen by
simulated touches only, with a companion seat in two of them (Kilkenny Cats and Chop! Chop!);
starting a second game over an unfinished one and continuing the first (Kat en Muis).

Everything goes through the window's touch path as a finger would: the game's button on Home,
the Person/Companion spinner and the companion's strength, the rules steppers, Start; dice
with the on-screen dice picker, tiles and arrows with the tile picker; a move by touching its
squares, each of which must be marked on the board when it is touched (a seeded choice among
the legal moves, preferring one that wins, parks, takes cheese or captures, so the games stay
short); the companion's throws with "Roll for me" and its moves with "Done" once its squares are
lit. Each game ends on the end-of-game screen, checked against the engine's outcome, and
"Play again with the same seats" opens a fresh game with the same seats."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.tests.common import UnitTestTouch

from tests.ui.helpers import walk

SCORE = {"Won": 1000, "Parked": 50, "CheeseTaken": 30, "Captured": 20, "TileRevealed": 5}
"""What a player moving by touch prefers (effect name -> points): keeps the games short."""


def pump(frames: int = 1) -> None:
    """Run the app's clock, input and layout as a frame does, without drawing the frame (on
    the offscreen driver a drawn frame costs 30 to 120 ms; touches need the layout only)."""
    for _i in range(frames):
        Clock.tick()
        EventLoop.dispatch_input()
        Builder.sync()
        Clock.tick_draw()
        Builder.sync()


def wait_for(cond: Callable[[], bool], timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        pump()
        if cond():
            return True
        time.sleep(0.005)
    return cond()


def tap_at(x: float, y: float, hold: float = 0.0) -> None:
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    end = time.monotonic() + hold
    while time.monotonic() < end:  # a scrolling list tells a tap from a drag after 0.25 s
        pump()
        time.sleep(0.02)
    touch.touch_up()


def tap(widget: Any, hold: float = 0.0) -> None:
    """A finger on the widget's centre, once laid out (where it stays put from frame to frame)."""
    last = None
    for _i in range(30):
        pump()
        where = (*widget.to_window(*widget.center), *widget.size)
        if where == last:
            break
        last = where
    tap_at(*widget.to_window(*widget.center), hold=hold)


def tap_scrolled(widget: Any) -> None:
    """A finger on a widget in a scrolling list, once the list has scrolled it into view and
    stopped moving (a list that just grew still settles for a few frames), held 0.3 s."""
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and not isinstance(parent, ScrollView):
        parent = parent.parent
    if parent is not None:
        parent.scroll_to(widget, animate=False)
    tap(widget, hold=0.3)
    pump(2)


def _window(app: Any) -> Any:
    return app.root.get_root_window()


def _views(app: Any, name: str) -> list[Any]:
    return [w for w in _window(app).children if type(w).__name__ == name]


# -- Home ---------------------------------------------------------------------------------------


def _seat_companion(app: Any, home: Any, role: str, strength: str) -> None:
    """Open the seat's Person/Companion spinner, touch "Companion", then the strength."""
    choice = home.seat_choices[role]
    tap(choice.who)
    assert wait_for(lambda: bool(_views(app, "DropDown")), timeout=2), "the spinner opened"
    drop = _views(app, "DropDown")[0]
    option = next(w for w in walk(drop) if getattr(w, "text", None) == "Companion" and w is not drop)
    tap(option)
    assert wait_for(lambda: choice.is_companion, timeout=2)
    # the spinner's list leaves the window a moment after the choice (DropDown.min_state_time);
    # until then it takes every touch, so a quick next touch would never reach the toggle
    assert wait_for(lambda: not _views(app, "DropDown"), timeout=2), "the spinner closed"
    tap(choice.toggles[strength])
    assert choice.strength == strength


def _scroll_into_view(scroll: Any, row: Any, button: Any) -> None:
    """Scroll until the button's whole height is inside the list's window (a finger on a row
    half under the list's edge lands on Start, below it)."""
    # the held touch that opened the rules leaves the list gliding, which sets scroll_y on every
    # frame until it stops: wait for it, as a finger would, then scroll
    wait_for(lambda: not scroll.effect_y.velocity and not scroll.effect_y.is_manual, timeout=5)
    for _i in range(10):
        scroll.scroll_to(row, animate=False)
        pump(2)
        left, bottom = scroll.parent.to_window(*scroll.pos)  # the list's window on the screen
        x, y = button.to_window(*button.center)
        if bottom <= y - button.height / 2 and y + button.height / 2 <= bottom + scroll.height:
            return
    raise AssertionError(f"the rules row never came into the list's view ({y} in {bottom}+{scroll.height})")


def _step_rule(app: Any, home: Any, label_id: str, target: int) -> None:
    """Touch the setting's - or + until it shows ``target`` (the rules opened by their button)."""
    if not home.rules_open:
        tap_scrolled(home.ids.rules_toggle)
        assert home.rules_open
    num = home.ids[label_id]
    row = num.parent
    minus, plus = row.children[2], row.children[0]  # label, -, number, + (children reversed)
    for _i in range(20):
        if int(num.text) == target:
            break
        button = minus if int(num.text) > target else plus
        _scroll_into_view(home.ids.home_scroll, row, button)
        tap(button)
    assert int(num.text) == target


def _start_from_home(app: Any, key: str, names: dict[str, str], companions: dict[str, str] | None = None,
                     rules: dict[str, int] | None = None) -> Any:
    home = app.screen("home")
    tap(app.game_screen.ids.home_button) if app.sm.current not in ("home", "gameover") else app.go("home")
    pump(2)
    tap(home.game_buttons[key])
    for role, name in names.items():
        home.name_inputs[role].text = name  # typed on the on-screen keyboard
    for role, strength in (companions or {}).items():
        _seat_companion(app, home, role, strength)
    for label_id, value in (rules or {}).items():
        _step_rule(app, home, label_id, value)
    if home.rules_open:
        tap_scrolled(home.ids.rules_toggle)
    tap(home.ids.start)
    pump(2)
    return home


# -- a player's touches -------------------------------------------------------------------------


def _choose(state: Any, rng: random.Random) -> Any:
    """A seeded choice among the legal moves, preferring what ends the game sooner."""
    best: list[Any] = []
    top = None
    for action in state.legal_actions():
        trial = state.clone()
        score = sum(SCORE.get(type(e).__name__, 0) for e in trial.apply(action))
        if top is None or score > top:
            top, best = score, [action]
        elif score == top:
            best.append(action)
    return rng.choice(best)


def _touch_square(screen: Any, square: str) -> None:
    """One finger on ``square`` (off-centre where squares share a polygon: the table top over
    the floor in Chop! Chop!). Where the board zooms in instead (squares smaller than a finger),
    the finger touches again."""
    view = screen.ids.board
    for _i in range(2):
        pump()
        x, y = view.square_centre(square)
        layer = view._overlaps().get(square, 0)
        if layer:
            bx, by, w, h = view.square_rect(square)
            x, y = (bx + w * 0.3, by + h * 0.7) if layer == 2 else (bx + w * 0.7, by + h * 0.3)
        touched: list[str] = []
        uid = view.fbind("on_square", lambda _v, sid: touched.append(sid))
        window = view.zoom_rect
        tap_at(*view.to_window(x, y))
        view.unbind_uid("on_square", uid)
        if touched or view.zoom_rect is None or view.zoom_rect == window:
            return


def _touch_move(app: Any, screen: Any, action: Any) -> None:
    """Make ``action`` by touching its squares, each marked on the board when touched; then the
    numbered way or the "Which one?" sentence if the app asks."""
    from ui import actions
    from ui.screens.game import ChoiceView

    session = app.session
    before = len(session.turns)
    view = screen.ids.board
    named = actions.squares_of(action, screen.board.squares, screen.pieces())
    assert named, action
    for square in (named[0], named[-1]) if len(named) > 1 else (named[0],):
        pump()
        if len(session.turns) > before or screen.path_choices or _views(app, "ChoiceView"):
            break
        assert square in view.marked, f"{square} is to be touched for {action} but is not marked"
        _touch_square(screen, square)
    pump()
    choice = [w for w in _window(app).children if isinstance(w, ChoiceView)]
    if choice:
        tap(next(b for b in choice[0].buttons if b.action == action))
        assert wait_for(lambda: not _views(app, "ChoiceView"), timeout=3)
    elif screen.path_choices and len(session.turns) == before:
        index, x, y, _r = view.path_badges[screen.path_choices.index(action)]
        tap_at(*view.to_window(x, y))
    assert len(session.turns) == before + 1, (action, app.toaster.history[-2:])
    assert session.turns[-1].action == action


def _throw(screen: Any, rng: random.Random) -> None:
    for row in screen.picker.rows:
        tap(row[rng.randrange(len(row))])


def _tile(screen: Any, state: Any, rng: random.Random) -> None:
    """Touch the tile (or arrow) that turned up: drawn with the chances the picker shows."""
    from ui import actions

    outcomes = actions.tile_outcomes(state)
    label = rng.choices([o[0] for o in outcomes], [float(o[2]) for o in outcomes])[0]
    tap(screen.tile_picker.buttons[label])


def _companion_turn(app: Any, screen: Any, rng: random.Random) -> str:
    turn = screen._companion_turn
    due = turn.seats.due()
    session = app.session
    before = len(session.turns)
    if due.kind == "throw":
        button = turn.panel.ids.roll_for_me
        assert button.opacity == 1 and screen.picker.roll_button.parent is None
        tap(button)
    elif due.kind == "reveal":  # its piece turned a slab: the people touch what it shows
        _tile(screen, session.state, rng)
    else:
        assert wait_for(lambda: turn.proposal is not None, timeout=30), "the companion chose a move"
        proposal = turn.proposal
        assert screen.prompt == "Make the move, then touch Done."
        assert screen.ids.board.highlights == list(proposal.squares)  # its squares lit
        assert len(session.turns) == before  # nothing happens until a person confirms
        tap(turn.panel.ids.done)
        assert session.turns[-1].action == proposal.action
    assert len(session.turns) == before + 1, (due, app.toaster.history[-2:])
    assert session.turns[-1].source == "companion" or due.kind == "reveal"
    return due.kind


def _play_to_the_end(app: Any, rng: random.Random, limit: int = 600, stop_after: int | None = None) -> dict[str, int]:
    """Every decision by touch until the game is over (or ``stop_after`` actions): how many of
    each kind of input were made."""
    from ui import actions

    screen = app.game_screen
    session = app.session
    made: dict[str, int] = {}
    for _i in range(limit):
        state = session.state
        if state.is_over() or (stop_after is not None and len(session.turns) >= stop_after):
            break
        seat = state.current_player()
        if session.companions and seat is not None and session.is_companion(seat):
            kind = "companion " + _companion_turn(app, screen, rng)
        else:
            kind = actions.chance_kind(state) or "move"
            before = len(session.turns)
            if kind == "dice":
                assert screen.input_mode == "dice"
                _throw(screen, rng)
            elif kind == "tile":
                assert screen.input_mode == "tile"
                _tile(screen, state, rng)
            else:
                assert screen.input_mode == "move"
                _touch_move(app, screen, _choose(state, rng))
            assert len(session.turns) == before + 1, (kind, app.toaster.history[-2:])
        made[kind] = made.get(kind, 0) + 1
    return made


# -- the end ------------------------------------------------------------------------------------


def _check_game_over(app: Any) -> Any:
    """The end-of-game screen shows the engine's winner, the length and the game's figures."""
    from ui.screens.gameover import turns_played

    session = app.session
    assert session.is_over()
    assert wait_for(lambda: app.sm.current == "gameover", timeout=2)
    over = app.screen("gameover")
    outcome = session.state.outcome()
    winner = outcome["winner"]
    won = [winner] if isinstance(winner, str) else list(winner or [])
    names = [session.seats.get(w) or session.game.player_label(w) for w in won]
    if len(names) == 1:
        assert over.headline == f"{names[0]} wins!"
    elif names:
        assert over.headline.endswith(" win!") and all(n in over.headline for n in names)
    else:
        assert over.headline == "Nobody wins: a draw."
    turns = turns_played(session)
    assert turns > 3 and over.length.startswith(f"{turns} turns in ")
    rows = [w.text for w in reversed(list(walk(over.ids.players))) if type(w).__name__ == "KeyLabel"]
    pairs = dict(zip(rows[::2], rows[1::2], strict=True))
    for player in session.game.players:
        name = session.name(player)
        label = session.game.player_label(player)
        who = name if name == label else f"{name} ({label})"
        assert who in pairs, (who, pairs)
        assert ("winner" in pairs[who]) == (player in won), (who, pairs[who])
        if session.record.game == "kilkenny":
            cats = sum(1 for colour in session.state.cats.values() if colour == player)
            assert pairs[who].startswith(f"{cats} cat"), (who, pairs[who])
        if session.record.game == "katenmuis":
            chips = outcome["banks"][player]
            assert pairs[who].startswith(f"{chips} chip") and f"({outcome['scores'][player]:+d})" in pairs[who]
    if session.record.game == "chopchop":
        extra = over.ids.extra.text
        assert f"The mice got {outcome['cheese']} chees" in extra
        caught = outcome["mice_caught"]
        assert f"The cat caught {caught} mouse" in extra or f"The cat caught {caught} mice" in extra
    return over


def _play_again(app: Any) -> None:
    old = app.session
    tap(app.screen("gameover").ids.play_again)
    pump(2)
    new = app.session
    assert new.game_id != old.game_id and app.sm.current == old.record.game
    assert new.seats == old.seats and new.companions == old.companions
    assert new.game.settings() == old.game.settings() and new.turns == []
    assert not new.is_over()


# -- the four games -----------------------------------------------------------------------------


def test_kat_en_muis_by_touch_with_a_second_game_and_the_first_continued(make_app: Any) -> None:
    app = make_app()
    rng = random.Random(7)
    _start_from_home(app, "katenmuis", {"cat": "Anna", "mouse": "Ben"})
    first = app.session.game_id
    assert app.sm.current == "katenmuis"
    _play_to_the_end(app, rng, stop_after=4)
    # a second game of Kat en Muis: the app asks first; "start a new one"
    home = _start_from_home(app, "katenmuis", {"cat": "Carl", "mouse": "Dora"})
    assert wait_for(lambda: len(_views(app, "AskView")) == 1, timeout=3)
    tap(_views(app, "AskView")[0].buttons["second"])
    assert wait_for(lambda: not _views(app, "AskView"), timeout=3)
    pump(2)
    second = app.session.game_id
    assert second != first and app.session.seats == {"cat": "Carl", "mouse": "Dora"}
    made = _play_to_the_end(app, rng)
    assert set(made) == {"dice"}  # Kat en Muis: only throws; the app moves the counters
    _check_game_over(app)
    # Home: the first game is still there; Continue it and play it to its end
    tap(app.screen("gameover").ids.home_button)
    pump(2)
    assert app.sm.current == "home" and list(home.unfinished_rows) == [first]
    tap_scrolled(home.unfinished_rows[first].continue_button)
    assert app.sm.current == "katenmuis" and app.session.game_id == first
    assert len(app.session.turns) == 4 and app.session.seats == {"cat": "Anna", "mouse": "Ben"}
    _play_to_the_end(app, rng)
    _check_game_over(app)
    _play_again(app)
    assert app.session.seats == {"cat": "Anna", "mouse": "Ben"}


def test_chop_chop_by_touch_with_the_companion_as_the_cat(make_app: Any) -> None:
    app = make_app()
    rng = random.Random(5)
    _start_from_home(app, "chopchop", {"mice1": "Tom"}, companions={"cat": "easy"})
    assert app.sm.current == "chopchop" and app.session.companions == {"cat": "easy"}
    made = _play_to_the_end(app, rng)
    assert made.get("companion decide", 0) > 0 and made.get("move", 0) > 0 and made.get("tile", 0) > 0
    assert made.get("dice", 0) > 0
    _check_game_over(app)
    _play_again(app)


def test_kilkenny_by_touch_with_the_companion_as_blue(make_app: Any) -> None:
    app = make_app()
    rng = random.Random(3)
    _start_from_home(app, "kilkenny", {"red": "Anna"}, companions={"blue": "easy"},
                     rules={"setting_cats": 3})  # a quicker game, as a family may choose
    session = app.session
    assert app.sm.current == "kilkenny" and session.game.settings()["cats"] == 3
    assert session.companions == {"blue": "easy"}
    made = _play_to_the_end(app, rng)
    assert made.get("companion throw", 0) > 0 and made.get("companion decide", 0) > 0
    assert made.get("dice", 0) > 0 and made.get("move", 0) > 0
    _check_game_over(app)
    _play_again(app)
    assert app.session.game.settings()["cats"] == 3


def test_qubism_by_touch(make_app: Any) -> None:
    app = make_app()
    rng = random.Random(2)
    _start_from_home(app, "qubism", {"white": "Ann", "black": "Bob"})
    assert app.sm.current == "qubism" and app.session.companions == {}
    made = _play_to_the_end(app, rng)
    assert made.get("move", 0) > 0
    _check_game_over(app)
    _play_again(app)
