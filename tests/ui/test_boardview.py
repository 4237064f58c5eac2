"""Issue 28's board on screen: the first-game guide never shrinks the board, the marks of the
squares to touch lie above the pieces (read back from the rendered pixels), two ways to one
square are picked by touching their numbers, and coordinates stand around the board."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.catalogue import lang_app, locale_dir  # noqa: F401  (fixtures)
from tests.ui.helpers import pump, tap_at
from tests.ui.scenes import play
from tests.ui.scenes_chopchop import _chopchop_paths


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_guide_never_shrinks_the_board(lang_app: Any, lang: str) -> None:
    from ui import guide

    app = lang_app(lang)
    for key in ("katenmuis", "chopchop", "kilkenny", "qubism"):
        play(app, key, 2)
        view = app.game_screen.ids.board
        pump(3)
        off = view.square_px()
        guide.set_guide(app, True)
        pump(3)
        assert app.game_screen.guide_text
        assert view.square_px() == pytest.approx(off), f"{key}: squares {off:.0f} -> {view.square_px():.0f} px"
        guide.set_guide(app, False)


def _pixel(app: Any, x: float, y: float) -> tuple[int, int, int]:
    import cv2

    from tests.ui.helpers import screenshot

    path = screenshot(app.root, "boardview_marks_probe")
    image = cv2.imread(str(path))
    h = image.shape[0]
    b, g, r = image[int(h - y), int(x)]
    return (int(r), int(g), int(b))


def test_marks_are_drawn_above_the_pieces(make_app: Any) -> None:
    """Kilkenny: every movable cat's square carries a dot, and the dot's pixels are the mark's
    colour, not the cat's (the highlight used to lie under the tokens)."""
    from ui import theme

    app = make_app()
    app.start_game("kilkenny", {}, {})
    screen = app.game_screen
    screen.enter_throw((6,))
    pump(3)
    view = screen.ids.board
    cats = {sq for sq in view.marked if sq in view.tokens}
    assert cats, "no movable cat is marked"
    want = tuple(round(v * 255) for v in theme.MARK_DARK[:3])
    for sq in sorted(cats):
        x, y, _r = view.mark_dots[sq]
        wx, wy = view.to_window(x, y)
        got = _pixel(app, wx, wy)
        assert all(abs(a - b) <= 12 for a, b in zip(got, want, strict=True)), f"{sq}: {got} is not the mark {want}"


def test_two_ways_are_numbered_arrows_picked_by_touch(make_app: Any) -> None:
    app = make_app()
    _chopchop_paths(app)
    screen = app.game_screen
    view = screen.ids.board
    pump(2)
    ways = list(screen.path_choices)
    assert len(ways) >= 2 and len(view.path_badges) == len(ways)
    assert "number" in screen.prompt
    index, x, y, r = view.path_badges[1]
    assert 2 * r >= 48
    tap_at(*view.to_window(x, y))
    assert app.session.turns[-1].action == ways[1]
    assert screen.path_choices == [] and view.paths == []


def test_a_touch_beside_the_ways_cancels_them(make_app: Any) -> None:
    app = make_app()
    _chopchop_paths(app)
    screen = app.game_screen
    turns = len(app.session.turns)
    screen.on_square(screen.selected)  # the piece again: nothing chosen
    assert screen.path_choices == [] and len(app.session.turns) == turns


def test_coordinates_around_the_board(make_app: Any) -> None:
    from companion.boards.coords import axes

    app = make_app()
    for key in ("katenmuis", "chopchop", "kilkenny", "qubism"):
        play(app, key, 1)
        pump(2)
        view = app.game_screen.ids.board
        frame = axes(view.board)
        drawn = [lab for lab in view.drawn_labels if lab.where.startswith(("column ", "row "))]
        assert sorted(lab.drawn for lab in drawn) == sorted(frame.column_labels() + frame.row_labels())
        assert all(lab.font_size >= 16 for lab in drawn)


def test_a_refresh_draws_the_board_once_and_as_each_property_alone_would(make_app: Any,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # a screen's refresh sets tokens, highlights, tints, paths...: the board was drawn again for each
    # one that changed (1,067 drawings for 691 refreshes in test_design's English walk); held, it is drawn once
    from ui.widgets.board import BoardView

    app = make_app()
    play(app, "chopchop", 3)
    screen = app.game_screen
    view = screen.ids.board
    pump(2)
    want = ([(lab.where, lab.drawn) for lab in view.drawn_labels], dict(view.mark_dots), dict(view.square_fills))
    drawn: list[int] = []
    fit = BoardView._fit
    monkeypatch.setattr(BoardView, "_fit", lambda self: (drawn.append(1), fit(self))[-1])
    assert view.tokens and not view.selected
    view.tokens, view.selected = {}, "0,0"  # each one drawn at once
    assert len(drawn) == 2 and view.drawn_labels
    drawn.clear()
    screen.refresh()
    assert len(drawn) == 1
    assert ([(lab.where, lab.drawn) for lab in view.drawn_labels], view.mark_dots, view.square_fills) == want
    with view.held():
        with view.held():
            view.tokens, view.board = {}, None
        assert len(drawn) == 1 and view.drawn_labels  # not yet: the outer hold is still on
    assert view.drawn_labels == []  # drawn once, when it ends (no board: nothing drawn)
