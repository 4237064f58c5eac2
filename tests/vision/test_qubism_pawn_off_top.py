"""Qubism: a pawn the piece count kept on a spot whose top, at a cube's height, shows a cube's glyph goes to
a spot the count took it from that shows no top and whose look is nearer the pawn's learned look
(``vision.qubism_pawns.pawns_off_tops``; the third family's white cubes kept as the white pawn by their
shape's likeness while the real pawn's look was the nearer: docs/readme/board/session-32-b.md, qwhite)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.boarddefaults import board_for
from vision.pieces import BoardReader
from vision.qubism_pawns import PawnsBack, pawns_off_tops

W, B = "pawn:white", "pawn:black"
PAWNS = (W, B)


def _frame() -> tuple[list[tuple[str | None, float]], list[tuple[str | None, float]], list[tuple[str | None, float]],
                      dict[str, np.ndarray]]:
    """Spot 0 the black pawn; spot 1 a cube the count kept as the white pawn (look 1.1 from the pawn's);
    spot 2 the white pawn the count took off (0.1); spot 3 a cube read as one; spot 4 read as the white pawn by
    its look, taken off (0.6)."""
    looked = [(B, 1.0), (W, 0.9), (W, 0.9), ("cube:N", 0.8), (W, 0.95)]
    counted = [(B, 1.0), (W, 0.9), (None, 0.5), ("cube:N", 0.8), (None, 0.5)]
    dist = {W: np.array([2.0, 1.1, 0.1, 1.5, 0.6]), B: np.array([0.1, 2.0, 2.0, 2.0, 2.0])}
    return looked, counted, list(counted), dist


E = np.array([2.5, 1.5, 0.6, 2.0, 1.0])  # each spot's look distance to its own empty print
C = np.array([0.3, 0.4, 0.1, 0.4, 0.2])  # each spot's raised middle's change: the kept cube's the most


def test_the_pawn_kept_on_a_cube_glyph_goes_to_the_nearest_look_among_the_bare_spots() -> None:
    looked, counted, decided, dist = _frame()
    changed = pawns_off_tops(decided, looked, counted, topped={1, 3}, bare={0, 2, 4}, dist=dist, d_empty=E, centre=C,
                             pawns=PAWNS, most=9, rule=PawnsBack())
    assert sorted(changed) == [1, 2]
    assert decided[1][0] == "cube:?" and decided[2][0] == W  # the nearer look (0.1), not the surer (spot 4)
    assert decided[0][0] == B and decided[3][0] == "cube:N" and decided[4][0] is None
    assert decided[1][1] < 0.6 and decided[2][1] < 0.6  # both asked


def test_both_cues_must_agree() -> None:
    looked, counted, decided, dist = _frame()
    assert pawns_off_tops(decided, looked, counted, {3}, {0, 2, 4}, dist, E, C, PAWNS, 9, PawnsBack()) == []  # no glyph
    assert pawns_off_tops(decided, looked, counted, {1, 3}, {0}, dist, E, C, PAWNS, 9, PawnsBack()) == []  # none bare
    far = {W: np.array([2.0, 0.05, 0.1, 1.5, 0.6]), B: dist[B]}  # the kept spot's look the nearest
    assert pawns_off_tops(decided, looked, counted, {1, 3}, {0, 2, 4}, far, E, C, PAWNS, 9, PawnsBack()) == []
    assert decided == counted
    printlike = np.array([2.5, 1.5, 0.05, 2.0, 0.5])  # spots 2 and 4 look more like the print than the pawn
    assert pawns_off_tops(decided, looked, counted, {1, 3}, {0, 2, 4}, dist, printlike, C, PAWNS, 9, PawnsBack()) == []
    flat = np.array([0.3, 0.1, 0.2, 0.4, 0.3])  # the kept spot's raised middle changed less than either's
    assert pawns_off_tops(decided, looked, counted, {1, 3}, {0, 2, 4}, dist, E, flat, PAWNS, 9, PawnsBack()) == []
    assert decided == counted


def test_only_a_spot_the_count_took_the_pawn_from_still_empty_and_not_past_nine_cubes() -> None:
    looked, counted, decided, dist = _frame()
    decided[2] = decided[4] = ("cube:?", 0.5)  # the cube stage read them as cubes
    assert pawns_off_tops(decided, looked, counted, {1, 3}, {0, 2, 4}, dist, E, C, PAWNS, 9, PawnsBack()) == []
    looked, counted, decided, dist = _frame()
    looked[2] = looked[4] = (None, 1.0)  # never read as the pawn
    assert pawns_off_tops(decided, looked, counted, {1, 3}, {0, 2, 4}, dist, E, C, PAWNS, 9, PawnsBack()) == []
    looked, counted, decided, dist = _frame()
    assert pawns_off_tops(decided, looked, counted, {1, 3}, {0, 2, 4}, dist, E, C, PAWNS, 1, PawnsBack()) == []
    looked, counted, decided, dist = _frame()
    decided[1] = ("cube:E", 0.9)  # the cube stage read the kept spot as a cube already
    assert pawns_off_tops(decided, looked, counted, {1, 3}, {0, 2, 4}, dist, E, C, PAWNS, 9, PawnsBack()) == []


def test_on_by_default_in_the_reader() -> None:
    reader = BoardReader(board_for("qubism"))
    assert reader.config.pawns_back is not None and reader.config.pawns_back.off_top
    assert not replace(reader.config.pawns_back, off_top=False).off_top
