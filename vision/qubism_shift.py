"""A Qubism cube still asked read from its top cut a little off its place (a stage of the cube
reading, ``vision.piece_cubes``).

A cube's top crop is cut where the pose, the lens and the cube's height put its top face
(``vision.qubism_read.top_crops``); a camera a few per cent off, a cube standing off its square's
middle or a glyph near the sticker's edge move the face by 1-3 % of a square in that crop, and the
ink readers (``vision.qubism_needle.asked_arrow``: a needle's darker end, the ink's mirror axis, its
strokes' sweep) may find no clear ink at the place itself and a clear one a little beside it. A cube
left asked (``cube:?``) after the frame's other readers (``asked_arrows``) is cut again at small
offsets along the board's two axes (``ShiftRule.shifts``), each crop's ink read as ``asked_arrow``
reads it (no glyph mask: the crop alone); where at least ``ShiftRule.agree`` crops read one direction
and none reads another, the cube takes it, its confidence unchanged; else it stays asked.

Measured before it was written (``/tmp/s25-qarrow/shift.py``, dev sets third 4250 and 4252, second
3252, first 2250): of 10,917 such crops of the 1,213 cubes read with a direction, the ink read 7,858,
5 the wrong way (the glyph's outline reader 62, the shape reader ``vision.arrows`` 4,789); of the 60
cubes left asked on 4250, 4252 and 3252, 22 read so, all the right way, 38 stayed asked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from vision.qubism_glyph import GlyphRule
from vision.qubism_needle import NeedleRule, asked_arrow


@dataclass(frozen=True)
class ShiftRule:
    """How far a still-asked cube's top is cut off its place, and how many of those crops must agree."""

    shifts: tuple[float, ...] = (0.015, 0.03)
    """Offsets, in squares' sides, along each board axis both ways (four crops each)."""
    agree: int = 2
    """Crops that must read one direction (and none another) for the cube to take it."""


def offsets(rule: ShiftRule) -> np.ndarray:
    """The offsets (squares' sides, [n, 2]: x then y) at which a top is cut again."""
    out = [(s * d, 0.0) for d in rule.shifts for s in (-1.0, 1.0)]
    out += [(0.0, s * d) for d in rule.shifts for s in (-1.0, 1.0)]
    return np.array(out, np.float64).reshape(-1, 2)


def shifted_direction(reads: list[str | None], rule: ShiftRule) -> str | None:
    """The one direction the shifted crops read (``reads``, None where one read none) at least
    ``rule.agree`` times with no other read; None where they read none, too few or two ways."""
    seen = {r for r in reads if r is not None}
    if len(seen) != 1:
        return None
    (direction,) = seen
    return direction if reads.count(direction) >= rule.agree else None


def read_until_settled(crops: np.ndarray, glyph: GlyphRule, needles: NeedleRule, rule: ShiftRule) -> list[str | None]:
    """``asked_arrow`` of a cube's shifted crops in order, stopped where ``shifted_direction``'s answer is
    already None whatever the rest read: two directions read, or too few crops left for any direction to
    reach ``rule.agree``. The reads so far are returned; ``shifted_direction`` of them equals its answer
    on all the crops' reads (each crop is read on its own: the answer is the same, the rest's cost saved)."""
    reads: list[str | None] = []
    for n, crop in enumerate(crops):
        reads.append(asked_arrow(crop, None, glyph, needles))
        seen = {r for r in reads if r is not None}
        left = len(crops) - n - 1
        if len(seen) > 1 or (max((reads.count(d) for d in seen), default=0) + left < rule.agree):
            break
    return reads


def shifted_arrows(decided: list[tuple[str | None, float]], look: list[int], centres_mm: np.ndarray,
                   cell_mm: float, cut: Callable[[np.ndarray], np.ndarray], moved: frozenset[int],
                   glyph: GlyphRule, needles: NeedleRule, rule: ShiftRule) -> list[int]:
    """A frame's cubes still asked (``cube:?``; spot ``look[k]`` centred at ``centres_mm[k]``, board mm; not
    one whose top was found off its place, ``moved``) take, in place, the direction their top's ink reads
    when cut off its place (``offsets`` times ``cell_mm``; ``cut`` cuts top crops at board-mm centres,
    [n, 2] -> [n, side, side], as ``vision.qubism_read.top_crops``) where ``shifted_direction`` gives one.
    Returns the spots changed."""
    asked = [k for k, i in enumerate(look) if decided[i][0] == "cube:?" and i not in moved]
    if not asked:
        return []
    offs = offsets(rule) * cell_mm
    crops = cut(np.concatenate([centres_mm[k][None, :] + offs for k in asked]))
    out: list[int] = []
    for j, k in enumerate(asked):
        direction = shifted_direction(read_until_settled(crops[j * len(offs):(j + 1) * len(offs)], glyph, needles, rule), rule)
        if direction is not None:
            i = look[k]
            decided[i] = (f"cube:{direction}", decided[i][1])
            out.append(i)
    return out
