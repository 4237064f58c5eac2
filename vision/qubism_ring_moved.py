"""A cube's closed ring seen off its top crop's middle (a stage of the board reader's Qubism layer,
``vision.piece_cubes``; the ring itself: ``vision.qubism_ring``).

``ring_tops`` looks for a ring whose centre lies within ``RingRule.offset`` (0.15) of the crop's
middle, and a ring three quarters of a face wide, displaced by a fifth of a square, runs out of a
crop one square wide: where the top lies off the place the pose, the lens and the cube's assumed
height put it (a top a few millimetres off on the second 3-D family's dev sets), the ring is not
closed in the crop and the cube is read empty although its top shows plainly. A ring's shape does
not depend on the light nor on where the top lies: a spot read as empty with an occupied spot's
evidence and no top seen in place is searched for a closed ring in a crop ``RingRule.wide`` times
as wide (the same search at the same pixel count: the ring then lies within the search's reach),
checked again on a crop of the usual span centred on it (the same closed-ring test at the crop's
own resolution), and taken as that spot's top where its centre is nearer that spot than any other
spot looked at and no other top seen lies within half a square of it.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.lens import Lens
from vision.qubism_glyph import CentralGlyph, GlyphRule
from vision.qubism_read import top_crops
from vision.qubism_ring import SIDE, RingRule, ring_glyph, ring_tops


def moved_rings(image: np.ndarray, to_image: np.ndarray, centres_mm: np.ndarray, span_mm: float,
                ask: list[int], taken_mm: np.ndarray, rule: RingRule, glyphs: GlyphRule,
                lens: Lens | None = None) -> dict[int, tuple[np.ndarray, CentralGlyph]]:
    """The spots ``ask`` (rows of ``centres_mm``, every spot's centre, board mm in the plane of the
    cubes' tops that ``to_image`` takes to image pixels) whose top shows a closed ring off its crop's
    middle: row -> (the ring's centre, board mm; its glyph, ``ring_glyph``). ``taken_mm``: the places
    of the tops seen already ([m, 2]); a ring within half a span of one, or nearer another spot of
    ``centres_mm`` than its own, is not taken; two spots' rings within half a span, the nearer kept."""
    if not ask or rule.wide <= 1:
        return {}
    wide_span = span_mm * rule.wide
    wide = top_crops(image, to_image, centres_mm[ask], wide_span, side=SIDE, lens=lens)
    seen = ring_tops(wide, replace(rule, offset=rule.wide_offset))
    found: list[tuple[float, int, np.ndarray]] = []
    for k, ring in zip(ask, seen):
        if ring is None:
            continue
        off = (np.array([ring.x, ring.y]) - (SIDE - 1) / 2) / SIDE * wide_span  # mm, in the plane of the tops
        centre = centres_mm[k] + off
        dist = np.hypot(*(centres_mm - centre).T)
        if int(np.argmin(dist)) != k:
            continue  # nearer another spot: that spot's top
        found.append((float(np.hypot(*off)), k, centre))
    if not found:
        return {}
    found.sort(key=lambda f: f[0])
    tops = top_crops(image, to_image, np.array([c for _, _, c in found]), span_mm, lens=lens)
    places = [np.asarray(p, np.float64) for p in taken_mm]
    out: dict[int, tuple[np.ndarray, CentralGlyph]] = {}
    for (_, k, centre), top, ring in zip(found, tops, ring_tops(tops, rule)):
        if ring is None or any(float(np.hypot(*(centre - p))) < span_mm / 2 for p in places):
            continue
        out[k] = (centre, ring_glyph(top, ring, glyphs))
        places.append(centre)
    return out
