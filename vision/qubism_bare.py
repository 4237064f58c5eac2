"""Qubism's cubes read empty where no top was found (a stage of ``vision.piece_cubes``).

On the third 3-D family a cube's top is often not found in its crop (``vision.qubism_read``): the sticker's
dark frame or a side face runs into the crop, a thin fletched arrow is no compact glyph, a dim or green light
leaves its edges faint; the spot, read as a pawn by its look, is emptied by the piece count, and the cube is
read empty (session 32 qnotop: 26 of the cubes read wrong on four dev sets). A 30 mm cube is a solid: it
hides the print under it, so its spot's occupancy evidence stays high. Such a spot, still read empty once the
frame's other stages have read its cubes and pawns, is asked (``cube:?``) for the ink stages to read its arrow
on its own crop (``vision.qubism_needle.asked_arrows``); where they read none it is given back as it was: a
cube added here is always one whose arrow was read, never an asked one, so no cube is added where only a
shadow or a neighbour's side raised the evidence."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

import numpy as np


def cube_count(decided: Sequence[tuple[str | None, float]]) -> int:
    """How many spots of ``decided`` are read as a cube (any arrow, or asked)."""
    return sum(1 for t, _ in decided if t is not None and t.startswith("cube"))


def ask_cubes(decided: list[tuple[str | None, float]], spots: Iterable[int], most: int, conf: float
              ) -> dict[int, tuple[str | None, float]]:
    """The spots of ``spots`` still read empty, in that order, asked (``cube:?`` at ``conf``, in place) while the
    frame has fewer than ``most`` cubes (Q1), for the ink stages to read their arrows on their own crops. Returns
    their readings before (``given_back`` restores those still asked)."""
    cubes = cube_count(decided)
    was: dict[int, tuple[str | None, float]] = {}
    for i in spots:
        if cubes >= most:
            break
        if decided[i][0] is None:
            was[i], decided[i] = decided[i], ("cube:?", conf)
            cubes += 1
    return was


def bare_asked(decided: list[tuple[str | None, float]], look: Sequence[int], score: np.ndarray, least: float,
               skip: Collection[int], most: int, conf: float) -> dict[int, tuple[str | None, float]]:
    """The spots of ``look`` read empty (``decided``, in place) with occupancy evidence ``score`` of ``least`` or
    more, not in ``skip``, asked (``ask_cubes``), the most evident first. Returns their readings before."""
    spots = sorted((i for i in look if score[i] >= least and i not in skip), key=lambda i: (-float(score[i]), i))
    return ask_cubes(decided, spots, most, conf)


def given_back(decided: list[tuple[str | None, float]], was: dict[int, tuple[str | None, float]]) -> None:
    """The spots ``ask_cubes`` asked whose arrow no stage read (still ``cube:?``) as they were, in place."""
    for i, before in was.items():
        if decided[i][0] == "cube:?":
            decided[i] = before
