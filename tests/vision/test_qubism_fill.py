"""Qubism's cubes not lost to a plate filling the top crop or to the nine-cube cap (issue 31,
session 21): a cube's top seen close up fills its top crop, so its plate runs out of the crop's
middle and ``plate_tops`` missed it (``plates_anywhere`` looks again nearer the crop's edge); a
pawn read as a cube made the cap take a real cube off, and when the pawn came back the cube did
not (``cubes_back``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.group_reads import c_group, wrong_squares
from vision.boarddefaults import board_for
from vision.piece_config import PieceConfig
from vision.qubism_glyph import GlyphRule
from vision.qubism_pawns import cubes_back
from vision.qubism_plates import PlateRule, plate_top, plates_anywhere
from vision.qubism_read import CubeTops

BOARD = board_for("qubism")
# a block arrow pointing north, units of the plate's side, its tail on the plate's edge
ARROW = [(-0.1, 0.5), (0.1, 0.5), (0.1, -0.1), (0.25, -0.1), (0.0, -0.4), (-0.25, -0.1), (-0.1, -0.1)]


def _close_crop(turn: int, shift: int = 4) -> np.ndarray:
    """A 48-pixel top crop of a dark cube's top seen close up: the top 46 pixels wide, ``shift``
    pixels off the crop's middle, a pale plate 32 pixels wide on it holding a dark arrow that
    touches the plate's edge, turned ``turn`` quarter turns clockwise."""
    img = np.full((48, 48), 0.55, np.float32)
    img[1:47, 1:47] = 0.15
    a, b = 8 + shift, 40 + shift
    img[a:b, 8:40] = 0.85
    cx, cy, side = 24, 24 + shift, 32
    pts = np.array([[cx + x * side, cy + y * side] for x, y in ARROW], np.int32)
    cv2.fillPoly(img, [pts], 0.15)
    return np.ascontiguousarray(np.rot90(img, -turn))


@pytest.mark.parametrize("turn,want", [(0, "N"), (1, "E"), (2, "S"), (3, "W")])
def test_a_plate_filling_the_crop_is_found_nearer_its_edge(turn: int, want: str) -> None:
    crop = _close_crop(turn)
    assert plate_top(crop, PlateRule(), GlyphRule()) is None  # the failure: it runs out of the middle
    assert plates_anywhere(crop[None], PlateRule(wide_inset=0), GlyphRule()) == [None]
    found = plates_anywhere(crop[None], PlateRule(), GlyphRule())[0]
    assert found is not None and found.direction == want, found


def test_no_plate_near_the_edge_on_print_or_a_neighbours_side() -> None:
    paper = np.full((48, 48), 0.8, np.float32)
    paper[:, 4], paper[4, :], paper[:, 44], paper[44, :] = 0.3, 0.3, 0.3, 0.3  # an empty square's print lines
    side = np.full((48, 48), 0.8, np.float32)
    side[:, :20] = 0.2  # a neighbouring cube's side leaning in
    side[30:34, 30:34] = 0.3  # a speck of print
    assert plates_anywhere(np.array([paper, side]), PlateRule(), GlyphRule()) == [None, None]


def test_a_cube_the_cap_took_for_a_pawn_comes_back_with_the_pawn() -> None:
    # ten cubes after the cube stage: the black pawn's head on 0 read as one, so the cap took
    # the least clear real cube (5) off; the pawn is put back on 0, so 5 comes back
    decided: list[tuple[str | None, float]] = [("pawn:black", 0.55)] + [("cube:N", 0.7)] * 4 + [(None, 0.5)]
    decided += [("cube:E", 0.7)] * 4 + [(None, 0.5)]
    capped = [(5, ("cube:S", 0.62))]
    assert cubes_back(decided, capped, [], 9) == [] and decided[5] == (None, 0.5)  # no pawn put back: none
    assert cubes_back(decided, capped, [0], 9) == [5] and decided[5] == ("cube:S", 0.62)
    assert cubes_back(decided, [(10, ("cube:W", 0.6))], [0], 9) == []  # nine cubes already: none more


def test_the_clearest_cube_taken_off_comes_back_and_only_on_an_empty_spot() -> None:
    decided: list[tuple[str | None, float]] = [("pawn:white", 0.55)] + [("cube:N", 0.7)] * 7 + [(None, 0.5)] * 2
    capped = [(8, ("cube:?", 0.55)), (9, ("cube:E", 0.61))]  # the least clear first
    assert cubes_back(list(decided), capped, [0], 9) == [9]  # one pawn back: one cube, the clearest
    taken = list(decided)
    taken[9] = ("pawn:black", 0.6)  # another stage read that spot since
    assert cubes_back(taken, capped, [0], 9) == [8] and taken[9] == ("pawn:black", 0.6)


def _turned_plate(turn: int, angle: float = 17.0) -> np.ndarray:
    """A 48-pixel top crop: a dark cube's top with a pale plate 26 pixels wide turned ``angle``
    degrees in the crop (its edge stepped), holding a thin dark needle (a compass needle's dark
    half and its pale half's outline) pointing ``turn`` quarter turns clockwise from north."""
    img = np.full((48, 48), 0.55, np.float32)
    img[3:45, 3:45] = 0.15
    plate = cv2.boxPoints(((24.0, 24.0), (26.0, 26.0), angle)).astype(np.int32)
    cv2.fillConvexPoly(img, plate, 0.85)
    needle = np.array([[24, 12], [27, 24], [21, 24]], np.int32)  # its dark half, tip north
    cv2.fillConvexPoly(img, needle, 0.3)
    return np.ascontiguousarray(np.rot90(img, -turn))


@pytest.mark.parametrize("turn,want", [(0, "N"), (1, "E"), (2, "S"), (3, "W")])
def test_a_turned_plates_stepped_edge_does_not_split_its_glyph(turn: int, want: str) -> None:
    crop = _turned_plate(turn)
    assert plate_top(crop, PlateRule(hull_edge=False), GlyphRule()) is None  # the failure: slivers along its edge
    found = plate_top(crop, PlateRule(), GlyphRule())
    assert found is not None and found.direction == want, found


@pytest.mark.slow
def test_a_lacquer_cubes_plate_filling_its_crop_is_not_read_empty(tmp_path_factory: pytest.TempPathFactory) -> None:
    # the third family's seed 4027, its Qubism group 2 (black lacquer cubes, white stickers with block
    # arrows; the group test_qubism_plates reads): in scene 20 the cube on 3,0 is seen so close that its
    # plate runs out of the top crop's middle, and it was read as empty
    root, scenes = c_group(tmp_path_factory, "qubism", 2, 8, 16, 4027)
    # each frame's own lift, as measured: with the pooled lift (session 27 qcam2) the group reads 1 square
    # wrong either way, but the old rule adds two more errors besides the failure
    # the wide inset alone: session 29's faint band (CubeTops.small_band, qsmall) reads that cube too
    # and session 32's evident spots asked for their arrow (CubeTops.bare_asked, qnotop) read it too: off in both
    old = wrong_squares(scenes, root, BOARD, PieceConfig(cube_tops=CubeTops(plates=PlateRule(wide_inset=0), small_band=0.0,
                                                                            bare_asked=0.0), pooled_lift=()))
    new = wrong_squares(scenes, root, BOARD, PieceConfig(cube_tops=CubeTops(small_band=0.0, bare_asked=0.0), pooled_lift=()))
    assert ("images/qubism-0020.jpg", "3,0", "cube:W", None) in old  # the failure
    assert set(new) == set(old) - {("images/qubism-0020.jpg", "3,0", "cube:W", None)}, (old, new)
