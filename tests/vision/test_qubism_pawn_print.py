"""Qubism: a pawn read on a cube and that cube read as the pawn, swapped where the pawn's spot shows a glyph
more like the frame's cubes' print than the other's (``vision.qubism_pawns.pawns_by_print``,
``vision.qubism_glyph.print_likeness``; the second 3-D family's white cubes with black chevrons under a camera
looking nearly straight down, where a black peg's head looks like a cube's glyph: docs/readme/board.md,
session 30 qtops)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.qubism_glyph import print_likeness
from vision.qubism_pawns import PawnsBack, pawns_by_print

W, B = "pawn:white", "pawn:black"
PAWNS = (W, B)


def _chevron(turn: int = 0, shift: int = 0) -> np.ndarray:
    m = np.zeros((32, 32), np.uint8)
    pts = np.array([[16, 6], [27, 20], [22, 24], [16, 16], [10, 24], [5, 20]], np.int32) + [shift, 0]
    cv2.fillPoly(m, [pts], 1)
    return np.rot90(m, turn).copy()


def _disc() -> np.ndarray:
    m = np.zeros((32, 32), np.uint8)
    cv2.circle(m, (16, 16), 6, 1, -1)
    return m


def test_a_pawn_head_s_round_blob_is_less_like_the_chevron_print_than_a_chevron_turned_any_way() -> None:
    masks = {0: _chevron(0), 1: _chevron(1), 2: _chevron(2, 1), 3: _chevron(3), 4: _disc()}
    like = print_likeness(masks, cubes=[0, 1, 2, 4], ask=[3, 4])
    assert set(like) == {3, 4}
    assert like[3] > 0.8 and like[4] < like[3] - 0.2
    assert print_likeness(masks, cubes=[0], ask=[3]) == {}  # one other cube backs nothing (two needed)
    assert 5 not in print_likeness(masks, cubes=[0, 1, 2], ask=[5])  # no glyph: absent


def _frame() -> tuple[list[tuple[str | None, float]], list[tuple[str | None, float]]]:
    """Spot 0 a cube the count kept as the black pawn; spot 1 the black pawn, read as a cube by the cube stage;
    spot 2 a cube read as one; spot 3 the white pawn."""
    looked = [(B, 1.0), (B, 0.9), (B, 0.95), (W, 1.0)]
    decided = [(B, 1.0), ("cube:E", 0.7), ("cube:N", 0.8), (W, 1.0)]
    return looked, decided


def test_the_pawn_on_the_spot_more_like_the_print_goes_to_the_cube_less_like_it() -> None:
    looked, decided = _frame()
    changed = pawns_by_print(decided, looked, {0: 0.95, 1: 0.7, 2: 0.93}, PAWNS, 0.04, PawnsBack(), lambda i: "N")
    assert sorted(changed) == [0, 1]
    assert decided[0] == ("cube:N", 0.55) and decided[1] == (B, 0.55)  # both asked (under 0.6)
    assert decided[2] == ("cube:N", 0.8) and decided[3] == (W, 1.0)


def test_no_glyph_at_the_cube_counts_as_least_like_the_print_and_no_arrow_is_asked() -> None:
    looked, decided = _frame()
    assert sorted(pawns_by_print(decided, looked, {0: 0.9, 2: 0.93}, PAWNS, 0.04, PawnsBack(), lambda i: None)) == [0, 1]
    assert decided[0][0] == "cube:?" and decided[1][0] == B


def test_no_swap_within_the_margin_without_a_glyph_at_the_pawn_or_a_look_of_the_pawn() -> None:
    looked, decided = _frame()
    assert pawns_by_print(decided, looked, {0: 0.72, 1: 0.7, 2: 0.93}, PAWNS, 0.04, PawnsBack(), lambda i: "N") == []
    assert pawns_by_print(decided, looked, {1: 0.1, 2: 0.93}, PAWNS, 0.04, PawnsBack(), lambda i: "N") == []
    looked[1] = (None, 0.9)
    looked[2] = ("cube:N", 0.9)
    assert pawns_by_print(decided, looked, {0: 0.95, 1: 0.1, 2: 0.2}, PAWNS, 0.04, PawnsBack(), lambda i: "N") == []
    assert decided == _frame()[1]
