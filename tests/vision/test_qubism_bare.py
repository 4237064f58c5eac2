"""Session 32 qnotop (``vision.qubism_bare``): a spot read empty with an occupied spot's evidence, no cube's top
found, asked for the ink stages to read its arrow; given back as it was where they read none, never over the
game's nine cubes, the most evident first."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_qubism_needle import TURNS, _face
from vision.qubism_bare import bare_asked, given_back
from vision.qubism_glyph import GlyphRule
from vision.qubism_needle import NeedleRule, asked_arrows
from vision.qubism_read import CubeTops
from vision.synth.pieces_c import _arrow_sticker

BLOCK = [([(float(x), float(y)) for x, y in poly], 0.1) for poly, dark in _arrow_sticker("block") if dark]
"""The third family's block arrow pointing north."""


@pytest.mark.parametrize("degrees,want", TURNS)
def test_an_evident_spot_with_an_arrow_is_that_cube_and_the_rest_stay_as_they_were(degrees: float, want: str) -> None:
    arrow = _face(BLOCK, degrees + 5.0, 0.25, 0.5, sticker=0.8)
    plain = np.full((48, 48), 0.7, np.float32)  # print, a shadow: no ink to read
    tops = np.array([arrow, plain, arrow, arrow, arrow])
    look = [0, 1, 2, 3, 4]
    score = np.array([3.0, 3.0, 1.5, 3.0, 3.0])
    decided: list[tuple[str | None, float]] = [(None, 0.5), (None, 0.6), (None, 0.5), (None, 0.5), ("pawn:white", 0.9)]
    least = CubeTops().bare_asked
    assert least > 1.5
    asked = bare_asked(decided, look, score, least, {3}, 9, 0.55)  # 2 under the evidence, 3 skipped (off its place)
    assert sorted(asked) == [0, 1] and decided[0] == decided[1] == ("cube:?", 0.55)
    asked_arrows(decided, look, tops, {}, frozenset(), GlyphRule(), NeedleRule())
    given_back(decided, asked)
    assert decided == [(f"cube:{want}", 0.55), (None, 0.6), (None, 0.5), (None, 0.5), ("pawn:white", 0.9)]


def test_no_spot_is_asked_past_nine_cubes_and_the_most_evident_goes_first() -> None:
    decided: list[tuple[str | None, float]] = [("cube:N", 0.9)] * 7 + [("cube:?", 0.55), (None, 0.5), (None, 0.5), (None, 0.5)]
    score = np.array([5.0] * 8 + [2.5, 4.0, 3.0])
    asked = bare_asked(decided, list(range(11)), score, 2.0, set(), 9, 0.55)
    assert list(asked) == [9]  # 8 cubes, one place left: the spot of evidence 4
    assert decided[8] == (None, 0.5) and decided[9] == ("cube:?", 0.55)
    given_back(decided, asked)
    assert decided[9] == (None, 0.5) and decided[7] == ("cube:?", 0.55)  # only its own asked spots given back
