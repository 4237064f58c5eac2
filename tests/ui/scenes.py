"""Every screen and state the screen tests render, as a list of builders (tests/ui/test_design.py
walks them in en, nl and fr). A builder takes a fresh app and leaves it on the scene; it returns
the widget to check (a popup), or None for the current screen. Adding a screen is one line in
``SCENES``.

The states mirror tests/ui/test_screens.py, test_screens_i18n.py, test_companion_touch.py and
test_howto.py, plus the board states of issue 28: an Arrow tile's jump (any free square), two
ways to one square, Qubism's first move (cubes on any empty square), a piece selected. Chop!
Chop!'s builders are in tests/ui/scenes_chopchop.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.ui.helpers import play_fast, pump, tap, wait_for
from tests.ui.scenes_chopchop import (
    _chopchop_arrow,
    _chopchop_camera_move,
    _chopchop_camera_near,
    _chopchop_camera_paths,
    _chopchop_over,
    _chopchop_paths,
    _chopchop_tile_picker,
)


@dataclass(frozen=True)
class Scene:
    name: str
    build: Callable[[Any], Any]


def play(app: Any, key: str, moves: int = 6, last: bool = False) -> None:
    """Start ``key`` and play ``moves`` steps: throws by the picker, tiles and moves the first
    (or ``last``) legal one."""
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
            legal = state.legal_actions()
            app.apply(legal[-1] if last else legal[0])


def _popup(app: Any, kind: str) -> Any:
    return next(w for w in app.root.get_root_window().children if type(w).__name__ == kind)


def _home(key: str) -> Callable[[Any], Any]:
    def build(app: Any) -> Any:
        app.go("home")
        app.screen("home").select_game(key)
        return None

    return build


def _home_resume(app: Any) -> Any:
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    app.go("home")
    app.screen("home").select_game("katenmuis")
    return None


def _home_unfinished(app: Any) -> Any:
    app.start_game("chopchop", {}, {})
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    app.go("home")
    pump(2)
    return None


def _home_ask(app: Any) -> Any:
    _home_resume(app)
    app.screen("home").start()  # an unfinished Kat en Muis: asks first
    pump(2)
    return _popup(app, "AskView")


def _rolloff(app: Any) -> Any:
    home = app.screen("home")
    app.go("home")
    home.select_game("katenmuis")
    home.roles_mode = "rolloff"  # (the toggle may lie below Home's unfinished games, out of a tap's reach)
    home.start_new()  # home_resume left an unfinished game: no question before the roll-off
    view = _popup(app, "RollOffView")
    view.throw((3, 4))
    return view


def _game(key: str, moves: int = 6) -> Callable[[Any], Any]:
    def build(app: Any) -> Any:
        play(app, key, moves)
        return None

    return build


def _selected(key: str) -> Callable[[Any], Any]:
    """A piece with several moves selected: its targets marked."""

    def build(app: Any) -> Any:
        from ui import actions

        play(app, key, 1)
        screen = app.game_screen
        if app.session.state.is_chance():
            screen.picker.roll()
        state = app.session.state
        starts = actions.moves_from(state.legal_actions(), screen.board.squares, screen.pieces())
        square = max(starts, key=lambda s: len(starts[s]))
        screen.on_square(square)
        return None

    return build


def _qubism_arrow_picker(app: Any) -> Any:
    app.start_game("qubism", {}, {})
    state = app.session.state
    app.apply(next(a for a in state.legal_actions() if type(a).__name__ == "PlaceCube" and a.arrow == "E"))
    app.apply(next(a for a in app.session.state.legal_actions() if type(a).__name__ == "PawnMove"))
    app.apply(next(a for a in app.session.state.legal_actions() if type(a).__name__ == "SlideCube"))
    return None


def _choice_view(app: Any) -> Any:
    app.start_game("kilkenny", {}, {})
    app.game_screen.picker.roll()
    app.game_screen.show_moves()
    return _popup(app, "ChoiceView")


def _camera_panels(what: str) -> Callable[[Any], Any]:
    def build(app: Any) -> Any:
        from companion.crosscheck import crosscheck
        from companion.i18n import _

        app.start_game("kilkenny", {}, {})
        screen = app.game_screen
        screen.picker.roll()
        if what == "crosscheck":
            expected = app.session.state.board_view()
            square, token = next(iter(expected.items()))
            empty = next(sq for sq in screen.board.squares if sq not in expected)
            screen.show_crosscheck(crosscheck(expected, {square: (None, 0.9), empty: (token, 0.9)}))
        elif what == "unsure":
            screen.show_camera_note(_("Camera not sure: enter the throw by touch."))
        else:
            screen.offer_camera_throw([3, 6])
        return None

    return build


def _katenmuis_over(app: Any) -> Any:
    """A whole Kat en Muis game (throws only), the winning throw made on the screen."""
    import random

    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    play_fast(app, random.Random(0), 3000)
    return None


def _camera(app: Any) -> Any:
    import cv2

    from ui.screens.camera import DEMO_FEED
    from vision.dice import DieReading

    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    app.prefs.set("ui.camera", "none")
    app.go("camera")
    cam = app.screen("camera")
    frame = cv2.imread(str(DEMO_FEED / "000.jpg"))
    cam.ids.placeholder.opacity = 0
    cam.on_frame(frame, [DieReading(3, (10, 10, 40, 40), 0.97, "red"), DieReading(5, (60, 10, 90, 40), 0.97, "red")],
                 None, [])
    cam.on_tile("C3", "crockery", 0.93, None)
    return None


def _camera_off(app: Any) -> Any:
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    app.prefs.set("ui.camera", "none")
    app.go("camera")
    return None


def _settings(app: Any) -> Any:
    app.go("settings")
    return None


def _history(replay: bool) -> Callable[[Any], Any]:
    def build(app: Any) -> Any:
        _katenmuis_over(app)
        app.go("history")
        if replay:
            app.screen("history").show_game(app.session.game_id)
        return None

    return build


def _companion_seat(app: Any) -> Any:
    app.go("home")
    home = app.screen("home")
    home.select_game("chopchop")
    choice = home.seat_choices["cat"]
    choice.set("normal")  # what picking "Companion" in the spinner does, in every language
    pump(2)
    tap(choice.toggles["strong"])
    assert choice.is_companion and choice.strength == "strong"
    return None


def _companion_turn(app: Any) -> Any:
    app.start_game("chopchop", {}, {}, {"cat": "normal"})
    turn = app.game_screen._companion_turn
    for _i in range(6):
        if turn.proposal is not None:
            break
        if app.session.state.is_chance() and turn.panel.ids.roll_for_me.parent is not None:
            tap(turn.panel.ids.roll_for_me)
        wait_for(lambda: turn.proposal is not None, timeout=10)
    return None


def _hint(app: Any) -> Any:
    app.start_game("qubism", {"white": "Ann"}, {}, {"black": "normal"})
    screen = app.game_screen
    tap(screen.ids.hint_button)
    wait_for(lambda: screen._companion_turn.hint is not None, timeout=20)
    return None


def _guide(key: str) -> Callable[[Any], Any]:
    def build(app: Any) -> Any:
        from ui import guide

        guide.set_guide(app, True)
        play(app, key, 2)
        return None

    return build


def _howto(key: str) -> Callable[[Any], Any]:
    def build(app: Any) -> Any:
        app.go("home")
        app.screen("home").select_game(key)
        tap(app.screen("home").ids.howto_button)
        pump(2)
        return None

    return build


def _howto_tiles(app: Any) -> Any:
    """Chop! Chop!'s How to play on the cheese page: the tile's picture above the text."""
    _howto("chopchop")(app)
    howto = app.screen("howto")
    howto.go(next(i for i, (_s, page) in enumerate(howto.pages) if page.tiles == ("cheese",)))
    pump(2)
    return None


def _kilkenny_four(game: bool) -> Callable[[Any], Any]:
    def build(app: Any) -> Any:
        app.go("home")
        home = app.screen("home")
        home.select_game("kilkenny")
        home.set_setting("players", 4)
        if not game:  # the four seats in view, below any unfinished games of earlier scenes
            pump(2)
            home.ids.home_scroll.scroll_to(home.ids.players, padding=0, animate=False)
        if game:
            home.start_new()
            for _i in range(8):
                app.game_screen.picker.roll()
                state = app.session.state
                if not state.is_chance() and state.legal_actions():
                    app.apply(state.legal_actions()[0])
        pump(2)
        return None

    return build


def _kilkenny_four_over(app: Any) -> Any:
    """The end-of-game screen with four players in two columns (long names wrap in their row)."""
    import random

    from tests.ui.test_whole_games import _choose

    app.start_game("kilkenny", {"red": "Grootmoeder", "blue": "Alexandra", "green": "Maximiliaan"},
                   {"players": 4, "cats": 2}, {"yellow": "easy"})
    rng = random.Random(1)
    play_fast(app, rng, 2000, _choose)
    pump(2)
    return None


def _kilkenny_zoomed(app: Any) -> Any:
    from tests.ui.helpers import tap_at

    app.start_game("kilkenny", {}, {})
    screen = app.game_screen
    view = screen.ids.board
    screen.enter_throw((6,))
    pump(2)
    move = app.session.state.legal_actions()[-1]
    tap_at(*view.to_window(*view.square_centre(move.frm)))
    return None


def _kilkenny_zoomed_closer(app: Any) -> Any:
    """A cat selected, the view widened to its targets (squares under a finger's size again),
    then a finger beside a target: the board zooms in around it instead of choosing."""
    from tests.ui.helpers import tap_at

    app.start_game("kilkenny", {}, {})
    screen = app.game_screen
    view = screen.ids.board
    screen.enter_throw((6,))
    pump(2)
    tap_at(*view.to_window(*view.square_centre(app.session.state.legal_actions()[0].frm)))
    move = app.session.state.legal_actions()[-1]
    tap_at(*view.to_window(*view.square_centre(move.frm)))
    pump()
    lit = [view.square_centre(sid) for sid in [*view.highlights, move.frm]]
    tx, ty = view.square_centre(move.to)

    def score(sid: str) -> float:
        x, y = view.square_centre(sid)
        if not view.collide_point(x, y) or any((x - lx) ** 2 + (y - ly) ** 2 <= 40 ** 2 for lx, ly in lit):
            return float("inf")
        return float((x - tx) ** 2 + (y - ty) ** 2)

    tap_at(*view.to_window(*view.square_centre(min(view.board.squares, key=score))))
    return None


def _wizard(step: str) -> Callable[[Any], Any]:
    """The set-up wizard's pages (tests/ui/test_wizard.py drives them by touch), each in a state
    with its text shown: the PDF made (or not), a frame with a corner cut off, a throw read, a die found."""

    def build(app: Any) -> Any:
        app.prefs.set("ui.camera", "none")  # no live feed over the frame shown
        app.go("wizard")
        wizard = app.screen("wizard")
        wizard.show("learn" if step == "throw" else step.split("_")[0])
        if step == "print":
            wizard.on_printed(str(wizard.pdf_path()), "")
        elif step == "print_error":
            wizard.on_printed(str(wizard.pdf_path()), "OSError")
        elif step == "camera":
            from vision.aim import aim_at
            from vision.boarddefaults import board_for

            image = _cut_board()
            wizard.camera_placeholder = ""
            wizard.on_frame(image, aim_at(image, board_for("katenmuis")), None)
        elif step == "throw":
            from vision.dice import DieReading

            wizard.learn_text = ""
            wizard.on_learned(2, "")
            for _i in range(3):
                wizard.on_dice([DieReading(3, (0, 0, 9, 9), 0.97, "red"), DieReading(5, (20, 0, 29, 9), 0.97, "blue")])
        elif step == "devices":
            from serial.tools.list_ports_common import ListPortInfo

            from ui import wizardsound

            port = ListPortInfo("/dev/ttyACM0")
            port.vid = 0x2341
            wizardsound.PORT_LISTER = lambda: [port]
            try:
                wizard.search_die()
            finally:
                wizardsound.PORT_LISTER = None
        pump(2)
        return None

    return build


def _cut_board() -> Any:
    """A printed Kat en Muis board turned a little, its top-left corner marker out of the picture."""
    import cv2

    from vision.boarddefaults import board_for
    from vision.printing import render_board

    art = render_board(board_for("katenmuis"), 2.0)
    h, w = art.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), -12, 1.0)
    m[0, 2] += 10
    m[1, 2] += 60
    return cv2.warpAffine(art, m, (640, 560), borderValue=(90, 90, 90))


GAMES = ("katenmuis", "chopchop", "kilkenny", "qubism")

SCENES: list[Scene] = [
    *[Scene(f"home_{key}", _home(key)) for key in GAMES],
    Scene("home_resume", _home_resume),
    Scene("home_rolloff", _rolloff),
    Scene("home_companion_seat", _companion_seat),
    Scene("home_unfinished", _home_unfinished),  # after the scenes that touch Home's seats and roles:
    Scene("home_ask", _home_ask),  # its unfinished games push them down the scroll view
    *[Scene(f"game_{key}", _game(key)) for key in GAMES],
    Scene("game_qubism_start", _game("qubism", 0)),
    *[Scene(f"game_{key}_selected", _selected(key)) for key in ("chopchop", "kilkenny", "qubism")],
    Scene("game_chopchop_tile_picker", _chopchop_tile_picker),
    Scene("game_chopchop_arrow", _chopchop_arrow),
    Scene("game_chopchop_paths", _chopchop_paths),
    Scene("game_qubism_arrow_picker", _qubism_arrow_picker),
    Scene("game_kilkenny_zoomed", _kilkenny_zoomed),
    Scene("game_kilkenny_zoomed_closer", _kilkenny_zoomed_closer),
    Scene("game_choice_view", _choice_view),
    *[Scene(f"game_camera_{what}", _camera_panels(what)) for what in ("crosscheck", "unsure", "offer")],
    Scene("game_chopchop_camera_move", _chopchop_camera_move(False)),
    Scene("game_chopchop_camera_two_moves", _chopchop_camera_move(True)),
    Scene("game_chopchop_camera_paths", _chopchop_camera_paths),
    Scene("game_chopchop_camera_near", _chopchop_camera_near),
    Scene("game_katenmuis_over", _katenmuis_over),
    Scene("gameover_chopchop", _chopchop_over),
    Scene("home_kilkenny_4players", _kilkenny_four(False)),
    Scene("game_kilkenny_4players", _kilkenny_four(True)),
    Scene("gameover_kilkenny_4players", _kilkenny_four_over),
    Scene("game_companion_turn", _companion_turn),
    Scene("game_hint", _hint),
    *[Scene(f"game_guide_{key}", _guide(key)) for key in GAMES],
    *[Scene(f"howto_{key}", _howto(key)) for key in GAMES],
    Scene("howto_chopchop_tiles", _howto_tiles),
    Scene("camera_off", _camera_off),
    Scene("camera", _camera),
    Scene("settings", _settings),
    Scene("history", _history(False)),
    Scene("history_replay", _history(True)),
    *[Scene(f"wizard_{step}", _wizard(step)) for step in ("print", "print_error", "camera", "throw", "devices")],
]
