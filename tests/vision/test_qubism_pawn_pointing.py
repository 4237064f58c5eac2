"""Qubism: a cube the piece count kept as a pawn, whose top at a cube's height shows a cube's top glyph that
points, is read as that cube, and the pawn is looked for again; a spot whose top points is not given back to
a pawn (``vision.qubism_pawns.pawns_pointing``, ``CubeSpots._cube_stage``; the third 3-D family's white-sticker
cubes kept as the white pawn: docs/readme/board/session-31.md, qcubes)."""

from __future__ import annotations

from vision.boarddefaults import board_for
from vision.pieces import BoardReader
from vision.qubism_pawns import pawns_pointing

W, B = "pawn:white", "pawn:black"
PAWNS = (W, B)


def _frame() -> tuple[list[tuple[str | None, float]], list[tuple[str | None, float]]]:
    """Spot 0 the black pawn; spot 1 a cube the count kept as the white pawn; spot 2 a cube; spot 3 empty."""
    counted: list[tuple[str | None, float]] = [(B, 1.0), (W, 0.8), ("cube:N", 0.8), (None, 0.9)]
    return counted, list(counted)


def test_the_pawn_kept_on_a_pointing_top_is_that_cube() -> None:
    counted, decided = _frame()
    assert pawns_pointing(decided, counted, {1: ("E", 0.74), 2: ("N", 0.8)}, PAWNS, 9) == [1]
    assert decided[1] == ("cube:E", 0.74)
    assert decided[0] == (B, 1.0) and decided[2] == ("cube:N", 0.8) and decided[3] == (None, 0.9)


def test_no_change_without_a_pointing_top_past_nine_cubes_or_where_the_stage_moved_the_pawn() -> None:
    counted, decided = _frame()
    assert pawns_pointing(decided, counted, {2: ("N", 0.8)}, PAWNS, 9) == []  # the kept pawn's top shows no arrow
    assert pawns_pointing(decided, counted, {1: ("E", 0.74)}, PAWNS, 1) == []  # one cube already: full
    decided[1] = ("cube:?", 0.55)  # the cube stage read it already
    assert pawns_pointing(decided, counted, {1: ("E", 0.74)}, PAWNS, 9) == []
    assert decided[1] == ("cube:?", 0.55)
    counted, decided = _frame()
    counted[3] = decided[3] = (W, 0.7)  # two spots kept as the white pawn: not this rule's
    assert pawns_pointing(decided, counted, {1: ("E", 0.74)}, PAWNS, 9) == []


def test_a_pointing_cube_the_count_took_the_pawn_from_is_not_given_back_one_it_kept_is() -> None:
    reader = BoardReader(board_for("qubism"))
    n = len(reader.groups)
    looked: list[tuple[str | None, float]] = [(None, 0.9)] * n
    looked[0], looked[1], looked[5] = (B, 1.0), (W, 0.9), (W, 0.6)

    def stage(counted: list[tuple[str | None, float]], pointing: bool) -> list[tuple[str | None, float]]:
        def settle(img: object, pose: object, score: object, decided: list[tuple[str | None, float]],
                   looked_: object = None) -> list[tuple[int, tuple[str | None, float]]]:
            decided[1] = ("cube:E", 0.55)  # an unsure cube on a pointing top (a glyph found within a tone class)
            decided[5] = ("cube:S", 0.8)  # a sure cube
            reader._pointing = {1} if pointing else set()
            return []

        decided = list(counted)
        reader._settle_cubes = settle  # type: ignore[method-assign]
        reader._missing = lambda c, now: (7, 0.5)
        reader._cube_stage(None, None, None, looked, decided)  # type: ignore[arg-type]
        return decided

    took = list(looked)
    took[1] = (None, 0.5)  # the count kept spot 5 as the white pawn, took it from spot 1
    decided = stage(took, pointing=True)
    assert decided[1] == ("cube:E", 0.55) and decided[7] == (W, 0.5)  # not given back: looked for again
    decided = stage(took, pointing=False)
    assert decided[1] == (W, 0.55) and decided[7] == (None, 0.9)  # pawns_back, as before
    kept = list(looked)
    kept[5] = (None, 0.5)  # the count kept spot 1 as the pawn: a pawn's head seen from above may point
    decided = stage(kept, pointing=True)
    assert decided[1] == (W, 0.55) and decided[7] == (None, 0.9)
