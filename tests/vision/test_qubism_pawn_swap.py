"""Qubism: a pawn the piece count kept on a cube whose top shows a top plate with a glyph goes to the
spot the count took it from whose top shows nothing (``vision.qubism_pawns.pawns_swapped``; the second
3-D family's plastic chevron cubes read as the white pawn by their look: docs/readme/board.md,
session 29 qcube2)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.boarddefaults import board_for
from vision.pieces import BoardReader
from vision.qubism_pawns import PawnsBack, hidden_by_cubes, pawns_swapped, pawns_unhidden

W, B = "pawn:white", "pawn:black"
PAWNS = (W, B)


def _frame() -> tuple[list[tuple[str | None, float]], list[tuple[str | None, float]], list[tuple[str | None, float]]]:
    """Spot 0 the black pawn; spot 1 a cube the count kept as the white pawn; spot 2 the white pawn the
    count took off; spot 3 a cube read as one; spot 4 read as the white pawn by its look, taken off, surer."""
    looked = [(B, 1.0), (W, 0.99), (W, 0.9), ("cube:N", 0.8), (W, 0.5)]
    counted = [(B, 1.0), (W, 0.99), (None, 0.5), ("cube:N", 0.8), (None, 0.5)]
    return looked, counted, list(counted)


def test_the_pawn_kept_on_a_top_plate_goes_to_the_bare_spot_it_was_taken_from() -> None:
    looked, counted, decided = _frame()
    changed = pawns_swapped(decided, looked, counted, topped={1, 3}, bare={0, 2, 4}, pawns=PAWNS, most=9,
                            rule=PawnsBack())
    assert sorted(changed) == [1, 2]
    assert decided[1][0] == "cube:?" and decided[2][0] == W  # the surer look (0.9 over 0.5) takes the pawn
    assert decided[0][0] == B and decided[3][0] == "cube:N" and decided[4][0] is None
    assert decided[1][1] < 0.6 and decided[2][1] < 0.6  # both asked


def test_no_swap_without_a_top_plate_at_the_kept_pawn_or_with_one_at_the_taken_spot() -> None:
    looked, counted, decided = _frame()
    assert pawns_swapped(decided, looked, counted, {3}, {0, 1, 2, 4}, PAWNS, 9, PawnsBack()) == []
    assert pawns_swapped(decided, looked, counted, {1, 3}, {0}, PAWNS, 9, PawnsBack()) == []  # 2, 4 not bare
    assert decided == counted


def test_only_a_spot_the_count_took_the_pawn_from_and_still_empty() -> None:
    looked, counted, decided = _frame()
    decided[2] = decided[4] = ("cube:?", 0.5)  # the cube stage read them as cubes
    assert pawns_swapped(decided, looked, counted, {1, 3}, {0, 2, 4}, PAWNS, 9, PawnsBack()) == []
    looked, counted, decided = _frame()
    looked[2] = looked[4] = (None, 1.0)  # never read as the pawn
    assert pawns_swapped(decided, looked, counted, {1, 3}, {0, 2, 4}, PAWNS, 9, PawnsBack()) == []
    looked, counted, decided = _frame()
    looked[2], looked[4] = (W, 0.3), (W, 0.2)  # read as the pawn too unsurely
    assert pawns_swapped(decided, looked, counted, {1, 3}, {0, 2, 4}, PAWNS, 9, PawnsBack()) == []


def test_not_past_nine_cubes_nor_where_the_count_kept_no_single_pawn() -> None:
    looked, counted, decided = _frame()
    assert pawns_swapped(decided, looked, counted, {1, 3}, {0, 2, 4}, PAWNS, 1, PawnsBack()) == []  # one cube: full
    looked, counted, decided = _frame()
    decided[1] = ("cube:E", 0.9)  # the cube stage read the kept spot as a cube already
    assert pawns_swapped(decided, looked, counted, {1, 3}, {0, 2, 4}, PAWNS, 9, PawnsBack()) == []


def test_the_swap_on_and_the_unhiding_off_by_default_in_the_reader() -> None:
    reader = BoardReader(board_for("qubism"))
    assert reader.config.pawns_back is not None and reader.config.pawns_back.swap and not reader.config.pawns_back.unhide
    off = replace(reader.config.pawns_back, swap=False)
    assert not off.swap


def _lift(foot: tuple[float, float], height: float, z: float) -> np.ndarray:
    """Board mm of the plane ``z`` up -> board mm where it is seen, a camera ``height`` over ``foot``."""
    k = height / (height - z)
    return np.array([[k, 0, (1 - k) * foot[0]], [0, k, (1 - k) * foot[1]], [0, 0, 1.0]])


def test_a_cube_hides_the_spot_behind_it_as_the_camera_sees_it() -> None:
    centres = np.array([[x, y] for y in (20.0, 60.0, 100.0) for x in (20.0, 60.0, 100.0)])  # 3 x 3 spots, 40 mm
    lift = _lift((60.0, -400.0), 400.0, 30.0)  # the camera far beyond the first row, leaning over the board
    hidden = hidden_by_cubes(centres, [4], 30.0, lift)  # a cube in the middle (60, 60): its top seen away from the foot
    assert hidden == {7}  # the spot beyond it from the camera (60, 100), not the one before it nor beside it
    assert hidden_by_cubes(centres, [4], 30.0, _lift((60.0, 60.0), 400.0, 30.0)) == set()  # seen from straight above
    assert hidden_by_cubes(centres, [], 30.0, lift) == set()


def test_the_pawn_kept_on_a_hidden_spot_goes_to_one_no_cube_hides() -> None:
    looked = [(B, 1.0), (W, 0.99), (W, 0.9), (W, 0.95)]
    counted = [(B, 1.0), (W, 0.99), (None, 0.5), (None, 0.5)]
    decided = list(counted)
    assert pawns_unhidden(decided, looked, counted, {1, 3}, PAWNS, PawnsBack()) == [1, 2]
    assert decided[1][0] is None and decided[2][0] == W and decided[3][0] is None  # 3, surer, is hidden too
    decided = list(counted)
    assert pawns_unhidden(decided, looked, counted, {2, 3}, PAWNS, PawnsBack()) == []  # the kept one not hidden
    assert pawns_unhidden(decided, looked, counted, {1, 2, 3}, PAWNS, PawnsBack()) == []  # no other unhidden
    assert decided == counted
