"""Qubism's cubes found by the plate on their top (a stage of the board reader, ``vision.piece_cubes``).

A cube's top often carries its arrow on a plate: a pale sticker on a dark cube, a printed square
inside a frame. Where the plate is large (more than a third of the top crop's middle) the arrow's
tip or tail often touches the plate's edge, so the arrow is no hole in it and the plate no
compact blob in a plain face: ``vision.qubism_glyph`` finds neither, and a cube whose look is
nearest a pawn's (Qubism's start teaches no cube) and whose pawn is read elsewhere is read as
empty (the third 3-D family's seed 4027: 9 of its 153 cubes).

What a cube's plate has that the print, a shadow and a pawn's head lack is its shape: one tone
region wholly inside the crop, about square (its convex hull fills its smallest enclosing
rectangle: a disc's fills pi/4 of it), near the middle, and holding, inside that hull, one blob of
the other tone (the arrow, touching the plate's edge or not) that stands out of an even plate.
``plate_top`` finds it; ``plate_cubes`` adds, after the other cube rules, a cube on a spot read
as empty with an occupied spot's evidence whose top crop shows one, its arrow read from the
blob (``vision.qubism_glyph.glyph_direction``; none: asked, ``cube:?``), while the frame has
fewer than the game's nine cubes (Q1). Measured on six rendered sets (the three 3-D families'
two seeds each), on the spots read as empty with an occupied spot's evidence: a plate on 8 of the
9 missed cubes of the third family's 4027, all with the right arrow, and on none of 873 empty
squares and 16 pawns; on every cube of the six sets, 99 plates: 94 arrows right, 1 wrong, 4 none.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.qubism_bare import cube_count
from vision.qubism_glyph import _INSET, GlyphRule, _label_stacked, glyph_direction


_PIXEL = np.ones((3, 3), np.uint8)


@dataclass(frozen=True)
class PlateRule:
    """When a top crop's middle shows a cube's plate holding its glyph (``plate_top``)."""

    share: tuple[float, float] = (0.12, 0.65)
    """The plate's area over the crop's middle (a small sticker is ``vision.qubism_glyph``'s blob)."""
    offset: float = 0.15
    """Its centre's distance from the crop's, as a share of the crop's side."""
    square: float = 0.85
    """Its convex hull over its smallest enclosing rectangle at least this (a disc: 0.79)."""
    aspect: float = 1.35
    """That rectangle's long side over its short side at most this."""
    glyph: tuple[float, float] = (0.06, 0.45)
    """The other tone inside the hull (the glyph) over the hull's area."""
    whole: float = 0.6
    """The glyph's largest blob holds at least this share of that other tone (one glyph, not specks)."""
    evenness: float = 1.5
    """Plate against glyph: the difference of their mean grey over the plate's spread (+0.02)."""
    hull_edge: bool = True
    """The glyph is looked for inside the plate's hull less its outermost pixel: a plate turned in the
    crop leaves slivers of the other tone between its stepped edge and its hull, which split the
    glyph's tone into many pieces (``whole``)."""
    wide_inset: int = 2
    """A crop without a plate in its middle is looked at again this close to its edge (pixels of 48
    left out; 0: not): a cube's top seen close up, or off its place, fills the crop, and its plate
    then runs out of the middle (``plates_anywhere``; the bounds above are shares of the area looked at)."""


@dataclass(frozen=True)
class PlateTop:
    """A plate found on a top crop (``plate_top``)."""

    direction: str | None
    direction_conf: float
    evenness: float


def plate_top(top: np.ndarray, rule: PlateRule, glyphs: GlyphRule) -> PlateTop | None:
    """The plate holding a glyph in a grey top crop (values 0-1, 48 pixels, centred on a spot), its
    glyph's direction read by ``glyphs``; None where there is none (see the module docstring)."""
    return plate_tops(np.asarray(top, np.float32)[None], rule, glyphs)[0]


def plates_anywhere(tops: np.ndarray, rule: PlateRule, glyphs: GlyphRule) -> list[PlateTop | None]:
    """``plate_tops`` of each crop, and for those without one whose middle shows a region of a plate's
    size near its centre running out of it, ``plate_tops`` over the crop less ``PlateRule.wide_inset``
    only (a plate filling the crop)."""
    spill = [False] * len(tops)
    found = plate_tops(tops, rule, glyphs, spill=spill)
    again = [k for k, p in enumerate(found) if p is None and spill[k]]
    if rule.wide_inset <= 0 or not again:
        return found
    for k, p in zip(again, plate_tops(np.asarray(tops)[again], rule, glyphs, rule.wide_inset)):
        found[k] = p
    return found


def plate_tops(tops: np.ndarray, rule: PlateRule, glyphs: GlyphRule, inset: int = _INSET,
               spill: list[bool] | None = None) -> list[PlateTop | None]:
    """``plate_top`` of each of a frame's top crops ([n, 48, 48]), the same answers: each tone of
    all the crops labelled at once (``vision.qubism_glyph._label_stacked``: each crop's components
    as alone, in the same order); ``inset``: pixels of each crop's border left out; ``spill``: set
    True (in place) for each crop with a region of a plate's size near its centre that runs out of
    the area looked at."""
    if not len(tops):
        return []
    full = np.asarray(tops, np.float32)
    inners = full[:, inset:-inset, inset:-inset]
    _, h, w = inners.shape
    g8s = [np.ascontiguousarray(np.clip(inner * 255, 0, 255).astype(np.uint8)) for inner in inners]
    cuts = [cv2.threshold(g8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0] for g8 in g8s]
    c = (h - 1) / 2
    best: list[PlateTop | None] = [None] * len(g8s)
    for pale in (True, False):  # a pale plate, then a dark one
        tones = [g8 > cut if pale else g8 <= cut for g8, cut in zip(g8s, cuts)]
        labels, stats, cents, tile, period = _label_stacked(tones)
        x, y, bw, bh, area = stats.T
        sized = ((area >= rule.share[0] * h * w) & (area <= rule.share[1] * h * w)
                 & (np.hypot(cents[:, 0] - c, cents[:, 1] - c) <= rule.offset * full.shape[1]))
        sized[0] = False  # the background
        within = (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h)  # not running out of the crop: print, a side
        fits = sized & within
        if spill is not None:
            for j in np.flatnonzero(sized & ~within):
                spill[int(tile[j])] = True
        for j in np.flatnonzero(fits):
            k = int(tile[j])
            inner = inners[k]
            plate = (labels[k * period:k * period + h] == j).astype(np.uint8)
            pts = cv2.findNonZero(plate)
            hull = np.zeros_like(plate)
            cv2.fillConvexPoly(hull, cv2.convexHull(pts), 1)
            _, (rw, rh), _ = cv2.minAreaRect(pts)
            filled = int(hull.sum())
            if filled < rule.square * rw * rh or max(rw, rh) > rule.aspect * max(min(rw, rh), 1e-6):
                continue  # no square: a disc (a pawn's head), a strip
            core = cv2.erode(hull, _PIXEL) if rule.hull_edge else hull  # not the slivers along a turned plate's edge
            inside = ((core > 0) & (plate == 0)).astype(np.uint8)
            other = int(inside.sum())
            if not rule.glyph[0] * filled <= other <= rule.glyph[1] * filled:
                continue
            _, glabels, gstats, _ = cv2.connectedComponentsWithStats(inside, connectivity=8)
            m = 1 + int(np.argmax(gstats[1:, cv2.CC_STAT_AREA]))
            if gstats[m, cv2.CC_STAT_AREA] < rule.whole * other:
                continue
            glyph = (glabels == m).astype(np.uint8)
            face = inner[plate > 0]
            evenness = abs(float(face.mean()) - float(inner[glyph > 0].mean())) / (float(face.std()) + 0.02)
            known = best[k]
            if evenness < rule.evenness or (known is not None and evenness <= known.evenness):
                continue
            direction, conf = glyph_direction(glyph, full[k], glyphs)
            best[k] = PlateTop(direction, float(conf), evenness)
    return best


def plate_cubes(decided: list[tuple[str | None, float]], spots: list[int], tops: np.ndarray,
                rule: PlateRule, glyphs: GlyphRule, most: int, weak_conf: float) -> list[int]:
    """Cubes added (in place) on ``spots`` (read as empty with an occupied spot's evidence, no crop
    over a marker; ``tops``: their top crops) whose top shows a plate holding a glyph, the clearest
    first while the frame has fewer than ``most`` cubes: ``cube:<its arrow>`` (confidence as a glyph's,
    ``vision.qubism_read.settle_cubes``), ``cube:?`` at ``weak_conf`` where the glyph gives none.
    Returns the spots turned into cubes."""
    room = most - cube_count(decided)
    if room <= 0 or not spots:
        return []
    found = [(p, i) for i, p in zip(spots, plates_anywhere(tops, rule, glyphs)) if p is not None]
    added: list[int] = []
    for p, i in sorted(found, key=lambda f: -f[0].evenness)[:room]:
        sure = float(0.5 + 0.3 * min(p.direction_conf, 1.0)) if p.direction else weak_conf
        decided[i] = (f"cube:{p.direction or '?'}", sure)
        added.append(i)
    return added
