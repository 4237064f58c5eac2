"""Every screen, popup and game state rendered at 800x480 in English, Dutch and French, saved
to artifacts/screens/<scene>_<lang>_800x480.png, with no text clipped, overflowing its widget,
shortened or broken mid-word (tests.ui.helpers.clipped walks the widget tree).

The Dutch and French are the catalogues in companion/locale (made by scripts/catalogues)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.ui.catalogue import lang_app, locale_dir  # noqa: F401  (fixtures)
from tests.ui.helpers import clipped, outside_parent, play_fast, pump, screenshot, small_touch_targets, tap

LANGS = ["en", "nl", "fr"]


class Scenes:
    """Renders scenes of one app, collecting what does not fit."""

    def __init__(self, app: Any, lang: str) -> None:
        self.app, self.lang = app, lang
        self.problems: list[str] = []
        self.shown: list[str] = []

    def check(self, scene: str, widget: Any = None, keep_toast: bool = False) -> None:
        pump(3)
        target = widget if widget is not None else self.app.sm.current_screen
        self.problems += [f"{scene}: {p}" for p in clipped(target)]
        self.problems += [f"{scene}: {p}" for p in outside_parent(target)]
        self.problems += [f"{scene}: small touch target {p}" for p in small_touch_targets(target)]
        screenshot(self.app.root, f"{scene}_{self.lang}_800x480", keep_toast=keep_toast)
        self.shown.append(scene)

    def done(self) -> None:
        from tests.ui.helpers import SCREENS

        report = SCREENS / f"fit-report_{self.lang}.txt"
        with report.open("a") as f:
            f.writelines(p + "\n" for p in self.problems)
        assert self.problems == [], "text that does not fit:\n" + "\n".join(self.problems)


def _play(app: Any, key: str, moves: int = 6) -> None:
    from companion.games.base import CHANCE
    from ui import actions

    app.start_game(key, {}, {})
    screen = app.game_screen
    for _i in range(moves):
        state = app.session.state
        if state.is_over():
            break
        if actions.chance_kind(state) == "dice":
            screen.picker.roll()
        elif state.to_move() == CHANCE:
            screen.enter_tile(actions.tile_outcomes(state)[0][0])
        else:
            app.apply(state.legal_actions()[0])


@pytest.mark.parametrize("lang", LANGS)
def test_home_and_roll_off(lang_app: Any, lang: str) -> None:
    from companion import games

    app = lang_app(lang)
    s = Scenes(app, lang)
    home = app.screen("home")
    app.go("home")
    for key in games.GAMES:
        home.select_game(key)
        s.check(f"home_{key}")
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    app.go("home")
    home.select_game("katenmuis")
    s.check("home_resume")
    tap(home.role_buttons["rolloff"])
    home.start()
    # Kat en Muis has an unfinished game: asked first (tests/ui/test_flow.py), then the roll-off
    ask = next(w for w in app.root.get_root_window().children if type(w).__name__ == "AskView")
    tap(ask.buttons["second"])
    pump(2)
    view = next(w for w in app.root.get_root_window().children if type(w).__name__ == "RollOffView")
    view.throw((3, 4))
    s.check("home_rolloff", view)
    view.throw((3, 4))
    s.check("home_rolloff_tie", view)
    view.dismiss()
    s.done()


@pytest.mark.parametrize("lang", LANGS)
def test_game_screens_mid_game(lang_app: Any, lang: str) -> None:
    app = lang_app(lang)
    s = Scenes(app, lang)
    for key in ("katenmuis", "chopchop", "kilkenny", "qubism"):
        _play(app, key)
        s.check(f"game_{key}")
    s.done()


@pytest.mark.parametrize("lang", LANGS)
def test_game_pickers_popups_and_the_end(lang_app: Any, lang: str) -> None:
    from companion.crosscheck import crosscheck
    from companion.games.base import CHANCE
    from companion.i18n import _
    from ui import actions

    app = lang_app(lang)
    s = Scenes(app, lang)
    # Chop! Chop!: a slab turned, the camera proposes its tile
    app.start_game("chopchop", {"cat": "Anna", "mice1": "Ben"}, {})
    screen = app.game_screen
    for _i in range(40):
        state = app.session.state
        if actions.chance_kind(state) == "tile":
            break
        if actions.chance_kind(state) == "dice":
            screen.picker.roll()
        else:
            app.apply(state.legal_actions()[-1])
    assert actions.chance_kind(app.session.state) == "tile"
    screen.propose_tile("crockery")
    s.check("game_chopchop_tile_picker")
    # Qubism: a slid cube's new arrow
    app.start_game("qubism", {}, {})
    state = app.session.state
    app.apply(next(a for a in state.legal_actions() if type(a).__name__ == "PlaceCube" and a.arrow == "E"))
    app.apply(next(a for a in app.session.state.legal_actions() if type(a).__name__ == "PawnMove"))
    app.apply(next(a for a in app.session.state.legal_actions() if type(a).__name__ == "SlideCube"))
    assert app.session.state.to_move() == CHANCE
    s.check("game_qubism_arrow_picker")
    # Kilkenny Cats: the list of moves, and the camera's notes beside the board
    app.start_game("kilkenny", {}, {})
    screen = app.game_screen
    screen.picker.roll()
    screen.show_moves()
    view = next(w for w in app.root.get_root_window().children if type(w).__name__ == "ChoiceView")
    s.check("game_choice_view", view)
    view.dismiss()
    expected = app.session.state.board_view()
    square, token = next(iter(expected.items()))
    empty = next(sq for sq in screen.board.squares if sq not in expected)
    screen.show_crosscheck(crosscheck(expected, {square: (None, 0.9), empty: (token, 0.9)}))
    s.check("game_camera_crosscheck")
    screen.clear_camera()
    screen.show_camera_note(_("Camera not sure: enter the throw by touch."))
    s.check("game_camera_unsure")
    screen.offer_camera_throw([3, 6], _("{player}: that looks like the {other} die, not your {own} one. "
                                        "Use it only if it is right.").format(player="Anna", other=_("blue"),
                                                                              own=_("grey")))
    s.check("game_camera_offer")
    # Kat en Muis to the end
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    play_fast(app, random.Random(0), 3000)  # the winning throw on the screen
    s.check("game_katenmuis_over")
    s.done()


@pytest.mark.parametrize("lang", LANGS)
def test_camera_settings_and_history(lang_app: Any, lang: str) -> None:
    import cv2

    from ui.screens.camera import DEMO_FEED

    app = lang_app(lang)
    s = Scenes(app, lang)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    app.prefs.set("ui.camera", "none")
    app.go("camera")
    cam = app.screen("camera")
    s.check("camera_off")
    frame = cv2.imread(str(DEMO_FEED / "000.jpg"))
    cam.ids.placeholder.opacity = 0  # frames from here on: as from a camera
    from vision.dice import DieReading

    cam.on_frame(frame, [DieReading(3, (10, 10, 40, 40), 0.55, "red")], None, [])
    cam.cycle_dice_area()  # off the board -> set a tray: the hint asks for two corners
    cam.calibrate()
    cam.on_tile("C3", None, 0.41, None)
    s.check("camera_unsure")
    cam.on_frame(frame, [DieReading(3, (10, 10, 40, 40), 0.97, "red"), DieReading(5, (60, 10, 90, 40), 0.97, "red")],
                 None, [])
    cam.on_tile("C3", "crockery", 0.93, None)
    s.check("camera_two_dice")
    from companion.i18n import _

    app.toast(_("Start or resume a game first: the counters must stand where the game shows them."), "info")
    s.check("camera_toast", app.toaster, keep_toast=True)
    app.go("settings")
    s.check("settings")
    settings = app.screen("settings")
    settings.ids.port.text = ""
    settings.die_status = settings.die_status  # the status line as it stands
    s.check("settings_top")
    play_fast(app, random.Random(0), 3000)
    app.go("history")
    s.check("history")
    hist = app.screen("history")
    hist.show_game(app.session.game_id)
    s.check("history_replay")
    s.done()


@pytest.mark.parametrize("lang", LANGS)
def test_companion_seats_turn_hint_guide_and_how_to_play(lang_app: Any, lang: str) -> None:
    """The screens this session added: a companion seat on Home, its throw ("Roll for me"), its
    move waiting for Done, a Hint, the first-game guide line, and How to play for every game."""
    from companion import games
    from tests.ui.helpers import wait_for
    from ui import guide

    app = lang_app(lang)
    s = Scenes(app, lang)
    app.go("home")
    home = app.screen("home")
    home.select_game("chopchop")
    choice = home.seat_choices["cat"]
    choice.who.text = "Companion"
    tap(choice.toggles["strong"])
    s.check("home_companion_seat")
    app.start_game("chopchop", {}, {}, {"cat": "normal"})
    screen = app.game_screen
    turn = screen._companion_turn
    s.check("game_companion_throw")
    for _i in range(6):  # its throw by "Roll for me", then its move proposed
        if turn.proposal is not None:
            break
        if app.session.state.is_chance() and turn.panel.ids.roll_for_me.parent is not None:
            tap(turn.panel.ids.roll_for_me)
        wait_for(lambda: turn.proposal is not None, timeout=10)
    assert turn.proposal is not None
    s.check("game_companion_turn")
    app.start_game("qubism", {"white": "Ann"}, {}, {"black": "normal"})
    screen = app.game_screen
    tap(screen.ids.hint_button)
    assert wait_for(lambda: screen._companion_turn.hint is not None, timeout=20)
    s.check("game_hint")
    guide.set_guide(app, True)
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    assert app.game_screen.guide_text
    s.check("game_guide")
    guide.set_guide(app, False)
    for key in games.GAMES:
        app.go("home")
        home.select_game(key)
        tap(home.ids.howto_button)
        pump(2)
        howto = app.screen("howto")
        s.check(f"howto_{key}")
        for page in range(2, howto.count + 1):  # every page, each checked for fit
            tap(howto.ids.next)
            pump()
            if page == howto.count // 2:
                s.check(f"howto_{key}_page")
            else:
                s.problems += [f"howto_{key} page {page}: {p}" for p in clipped(howto)]
    s.done()
