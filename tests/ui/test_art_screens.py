"""The pictures and the feedback on screen in English, Dutch and French, saved to
artifacts/screens/art_<scene>_<lang>_800x480.png (looked at by a person), with no text clipped
and no touch target under 48 px (tests.ui.test_screens_i18n.Scenes)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.catalogue import lang_app, locale_dir  # noqa: F401  (fixtures)
from tests.ui.helpers import pump, walk
from tests.ui.test_screens_i18n import LANGS, Scenes


def _play_until(app: Any, done: Any, steps: int = 200) -> None:
    from ui import actions

    screen = app.game_screen
    for _i in range(steps):
        state = app.session.state
        if done(state) or state.is_over():
            return
        kind = actions.chance_kind(state)
        if kind == "dice":
            screen.picker.roll()
        elif kind == "tile":
            screen.enter_tile(actions.tile_outcomes(state)[0][0])
        else:
            legal = state.legal_actions()
            slab = [a for a in legal if getattr(a, "to", None) in getattr(state, "face_down", ())]
            app.apply((slab or legal)[0])


def _one_throw_from_the_end(app: Any) -> bool:
    """Whether some throw now ends the game (so the win is the next thing shown)."""
    state = app.session.state
    for action, _p in state.chance_outcomes():
        after = state.clone()
        after.apply(action)
        if after.is_over():
            return True
    return False


@pytest.mark.parametrize("lang", LANGS)
def test_art_scenes(lang_app: Any, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.games.chopchop_tracker import tracker
    from ui import actions, feedback

    app = lang_app(lang)
    s = Scenes(app, lang)
    # Chop! Chop!: turned slabs with their pictures, the tracker, the coloured dice picker
    app.start_game("chopchop", {"cat": "Anna", "mice1": "Ben"}, {})
    _play_until(app, lambda st: sum(1 for q in tracker(st).squares.values() if q.revealed) >= 4
                and actions.chance_kind(st) == "dice")
    s.check("art_chopchop_tracker")
    _play_until(app, lambda st: actions.chance_kind(st) == "tile")
    s.check("art_chopchop_tile_picker")
    # Kilkenny Cats: the big throw in the thrower's colour, then a cat sliding
    app.start_game("kilkenny", {}, {})
    monkeypatch.setattr(feedback, "ANIMATE", True)
    screen = app.game_screen
    for _i in range(10):
        screen.picker.roll()
        if any(hasattr(a, "frm") for a in app.session.state.legal_actions()):
            break
    s.check("art_kilkenny_big_throw")
    screen.big_throw.hide()
    state = app.session.state
    moves = [a for a in state.legal_actions() if hasattr(a, "frm")]
    move = max(moves, key=lambda a: len(feedback.path_between(screen.board, a.frm, a.to)))
    app.apply(move)
    pump(2)
    assert any(isinstance(w, feedback.PieceSprite) for w in walk(screen.ids.board_area))
    s.check("art_kilkenny_moving")
    # a capture's flash
    from companion.games import kilkenny

    monkeypatch.setattr(feedback, "FLASH_SECONDS", 60.0)  # still there when the screenshot is taken
    feedback.react(screen, [kilkenny.Captured(state.turn, state.turn, move.to)])
    pump(5)
    s.check("art_kilkenny_capture")
    monkeypatch.setattr(feedback, "ANIMATE", False)
    # Qubism: pawns and cubes with their arrows
    app.start_game("qubism", {}, {})
    for arrow in ("E", "N", "W"):
        state = app.session.state
        places = [a for a in state.legal_actions() if type(a).__name__ == "PlaceCube" and a.arrow == arrow]
        if not places:
            break
        app.apply(places[len(places) // 2])
    s.check("art_qubism_cubes")
    # Kat en Muis: the cat and the mouse
    app.start_game("katenmuis", {"cat": "Anna", "mouse": "Ben"}, {})
    _play_until(app, lambda st: False, steps=6)
    s.check("art_katenmuis")
    # ... to the end: the win's flash and confetti over the board
    _play_until(app, lambda st: actions.chance_kind(st) == "dice" and _one_throw_from_the_end(app), steps=400)
    monkeypatch.setattr(feedback, "ANIMATE", True)
    while not app.session.is_over():
        app.game_screen.picker.roll()
    assert any(isinstance(w, feedback.Flash) for w in walk(app.game_screen.ids.board_area))
    s.check("art_katenmuis_win")
    s.done()
