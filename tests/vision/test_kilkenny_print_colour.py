"""Kilkenny Cats: a cat on a square printed in its own colour (the mice squares it aims at)
changes that square's middle less than on the plain squares it was learned on; the middle
check asks only what its colour can change there (``vision.piece_mix.print_contrast``,
``PieceConfig.centre_print``; docs/readme/board.md, session 30, kil)."""

from __future__ import annotations

import numpy as np

from vision.boarddefaults import board_for
from vision.piece_config import PieceConfig
from vision.piece_looks import _look_features
from vision.pieces import BoardReader


def look(bgr: tuple[float, float, float]) -> np.ndarray:
    return _look_features(np.full((1, 4, 4, 3), bgr, np.float64))[0]


PAPER, GREEN_PRINT, RED_PRINT = look((0.85, 0.88, 0.9)), look((0.55, 0.8, 0.55)), look((0.5, 0.5, 0.85))
GREEN_CAT = look((0.1, 0.45, 0.1))


def test_a_cat_changes_a_print_of_its_colour_less() -> None:
    from vision.piece_mix import print_contrast

    c = print_contrast(GREEN_CAT, np.array([PAPER, GREEN_PRINT, RED_PRINT]))
    assert c[1] < 0.8 * c[0]  # green on green: less change than on paper
    assert c[2] > c[1]  # on a red print: more than on green
    assert print_contrast(PAPER, np.array([PAPER]))[0] == 0  # the print itself: none


def reader_with(empty: np.ndarray, config: PieceConfig | None = None) -> BoardReader:
    r = BoardReader(board_for("kilkenny"), config=config)
    r.model.looks["cat:green"] = [list(GREEN_CAT)] * 3
    r.model.centre["cat:green"] = [1.0, 1.0, 1.0]
    r._last_look_empty = empty
    r.last_centre = np.full(len(empty), 0.4)  # every spot's middle changed 0.4 of a cat's
    return r


def test_the_middle_check_asks_less_on_a_print_of_the_cats_colour() -> None:
    empty = np.array([PAPER] * 9 + [GREEN_PRINT])
    r = reader_with(empty)
    assert r._centre_weak_for(0, "cat:green")  # plain paper: 0.4 < 0.45 of a cat's change
    assert not r._centre_weak_for(9, "cat:green")  # its own colour's print: enough there
    assert r._print_factor(0, "cat:green") == 1.0
    off = reader_with(empty, PieceConfig(centre_print={}))
    assert off._centre_weak_for(9, "cat:green")  # the rule off: as before
