"""Qubism: a white pawn the piece count kept on a spot whose look is nearer its own empty print than the
pawn's learned look goes to a spot the count dropped with a nearer look and a fuller raised middle, else
stays, asked (``vision.qubism_print.pawn_off_print``; the third family's 44° ceiling-light group, empty
squares kept as the pawn by their shape's likeness: docs/readme/board/session-32.md, qempty)."""

from __future__ import annotations

import numpy as np

from vision.piece_config import PieceConfig
from vision.qubism_print import PawnOffPrint, pawn_off_print

W = "pawn:white"


def _frame() -> tuple[list[tuple[str | None, float]], np.ndarray, np.ndarray, np.ndarray]:
    """Spot 0 an empty square the count kept as the white pawn (look 0.48 from the pawn's, 0.42 from its
    print, raised middle 0.025); spot 1 the real pawn it dropped (0.11, 0.24, 0.073); spot 2 a cube the
    count made of a dropped spot; spot 3 a dropped spot whose raised middle is flatter than the kept one's."""
    decided: list[tuple[str | None, float]] = [(W, 0.82), (None, 0.5), ("cube:N", 0.4), (None, 0.5)]
    d_pawn = np.array([0.48, 0.11, 0.05, 0.30])
    d_empty = np.array([0.42, 0.24, 0.9, 0.35])
    centre = np.array([0.025, 0.073, 0.5, 0.01])
    return decided, d_pawn, d_empty, centre


def test_the_pawn_kept_on_a_print_like_spot_goes_to_the_dropped_spot_with_a_nearer_look_and_fuller_middle() -> None:
    decided, d_pawn, d_empty, centre = _frame()
    changed = pawn_off_print(decided, W, [0], [1, 2, 3], d_pawn, d_empty, centre, PawnOffPrint())
    assert sorted(changed) == [0, 1]
    assert decided[0][0] is None and decided[1][0] == W and decided[2][0] == "cube:N" and decided[3][0] is None
    assert decided[0][1] < 0.6 and decided[1][1] < 0.6  # both asked


def test_no_better_spot_the_pawn_stays_asked() -> None:
    decided, d_pawn, d_empty, centre = _frame()
    changed = pawn_off_print(decided, W, [0], [2, 3], d_pawn, d_empty, centre, PawnOffPrint())
    assert changed == [0] and decided[0] == (W, 0.55)  # the cube (not empty) and the flatter middle do not take it
    assert decided[3] == (None, 0.5)
    decided, d_pawn, d_empty, centre = _frame()
    printlike = np.array([0.42, 0.10, 0.9, 0.35])  # the dropped spot 1 looks more like its own print (0.10)
    assert pawn_off_print(decided, W, [0], [1, 2, 3], d_pawn, printlike, centre, PawnOffPrint()) == [0]
    assert decided[0] == (W, 0.55) and decided[1] == (None, 0.5)


def test_a_kept_spot_nearer_the_pawn_than_its_print_is_left_alone() -> None:
    decided, d_pawn, d_empty, centre = _frame()
    before = list(decided)
    nearer = np.array([0.40, 0.24, 0.9, 0.35])  # the kept spot's look 0.40 from the pawn's, 0.42 from its print
    assert pawn_off_print(decided, W, [0], [1, 2, 3], nearer, d_empty, centre, PawnOffPrint()) == []
    assert decided == before
    assert pawn_off_print(decided, W, [0], [1, 2, 3], d_pawn, d_empty, centre, PawnOffPrint(on=False)) == []
    assert decided == before


def test_on_by_default() -> None:
    assert PieceConfig().pawn_off_print.on


def test_in_the_cube_stage_a_rival_read_as_a_cube_since_is_no_candidate() -> None:
    from vision.boarddefaults import board_for
    from vision.pieces import BoardReader

    reader = BoardReader(board_for("qubism"))
    decided, d_pawn, d_empty, centre = _frame()
    reader._count_dist = ({W: d_pawn, "cube": np.full(4, 2.0)}, d_empty)
    reader.last_centre = centre
    looked: list[tuple[str | None, float]] = [(W, 0.9), (W, 0.9), (W, 0.8), (W, 0.7)]
    counted = list(decided)
    now = list(decided)
    reader._pawns_off_print(now, looked, counted)
    assert now[0] == (None, 0.55) and now[1] == (W, 0.55)  # the real pawn's spot, still empty: the pawn goes there
    now = list(decided)
    now[1] = ("cube:N", 0.7)  # the cube stage read a cube where the count dropped the pawn
    reader._pawns_off_print(now, looked, counted)
    assert now[0] == (W, 0.55) and now[1] == ("cube:N", 0.7)  # stays, asked
