"""A Qubism cube's arrow read from its glyph's ink by the shape of the ink alone (a helper of
``vision.qubism_needle``, split from it in session 32): every arrow is mirror-symmetric about the line it
points along (``axis_direction``: the blob turned until it is most symmetric about the crop's vertical or
horizontal line, then read there by ``vision.qubism_glyph.glyph_direction``), and a line arrow's strokes off
its shaft sweep back from where it points (``sweep_direction``). ``AxisRule`` and ``SweepRule`` say how
clearly; ``vision.qubism_needle.NeedleRule`` holds one of each.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.qubism_glyph import GlyphRule, glyph_direction
from vision.read_fast import mean_of

_INSET = 6
"""Pixels of a top crop's border the glyph's mask leaves out (as ``vision.qubism_glyph``'s)."""
_COMPASS = (("E", 0.0), ("S", 90.0), ("W", 180.0), ("N", 270.0))
"""Image angles (degrees, y down) of the four directions (as ``vision.qubism_glyph``'s)."""


@dataclass(frozen=True)
class AxisRule:
    """When a glyph's mirror axis is clear enough to read its direction along it (``axis_direction``)."""

    reach: float = 40.0
    step: float = 4.0
    """Turns tried (degrees) to find the axis the glyph is mirror-symmetric about: every ``step`` up to
    ``reach`` either way, then half a step either side of the best."""
    mirror: float = 0.8
    """The glyph overlaps its mirror image about that axis at least this much (intersection over union)."""
    margin: float = 0.03
    """And by this much more than about the axis across it (a square or round glyph: no axis)."""
    thin: float = 1.5
    """A glyph drawn in strokes this thin (the mean of its pixels' distance to its edge, pixels) has its
    mirror overlap measured on it thickened by a pixel each way (``thick_enough``): a line arrow's 2-pixel
    strokes overlap their mirror image by 0.7-0.75 when the axis falls between pixels (0: not thickened)."""


@dataclass(frozen=True)
class SweepRule:
    """When a line arrow's strokes read its direction by the way they sweep back (``sweep_direction``)."""

    off: float = 3.0
    """Ink this many pixels or more from the glyph's long axis is a stroke off the shaft (a head's arm, a feather)."""
    least: int = 5
    """Off-shaft pixels a half of the glyph needs for its sweep to count."""
    slope: float = 0.3
    """Each counted half's strokes move back along the axis by this many pixels or more per pixel out."""
    turn: float = 25.0
    """The glyph's long axis within this many degrees of one of the board's axes."""


_PLACES: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _places(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The row places (a column, [n, 1]) and column places (a row, [1, n]) about the middle of an n-by-n
    square (float32, kept per n)."""
    if n not in _PLACES:
        place = np.arange(n, dtype=np.float32) - np.float32((n - 1) / 2)
        _PLACES[n] = (place[:, None], place[None, :])
    return _PLACES[n]


def _frame(mask: np.ndarray) -> tuple[np.ndarray, float, float, int]:
    """A blob as ``_turned`` samples it: float32, its centre of mass (x, y) and the side n of a square just
    wide enough for it turned any way about that centre."""
    m = np.asarray(mask, np.float32)
    ys, xs = np.nonzero(m)
    cx, cy = float(mean_of(xs)), float(mean_of(ys))
    reach = float(np.sqrt(((xs - cx) ** 2 + (ys - cy) ** 2).max()))
    return m, cx, cy, 2 * int(np.ceil(reach)) + 3


def _turned(mask: np.ndarray, turns: np.ndarray, frame: tuple[np.ndarray, float, float, int] | None = None,
            out: np.ndarray | None = None) -> np.ndarray:
    """A blob (centred on its centre of mass) turned each of ``turns`` (degrees): [len(turns), n, n], n just
    wide enough for the blob, all sampled in one remap. The maps are built from a row and a column each (a
    pixel's place is its row's plus its column's share). ``frame``: the blob's ``_frame`` where the caller
    has it; ``out``: a float32 [len(turns) * n, n] array the remap writes into."""
    m, cx, cy, n = _frame(mask) if frame is None else frame
    a = np.radians(np.asarray(turns, np.float32))[:, None, None]
    v, u = _places(n)  # each turned pixel's place about the centre
    cos, sin = np.cos(a), np.sin(a)
    # the source pixel a turned one shows: turned back about the blob's centre of mass
    mx = ((cos * u + cx) - sin * v).reshape(-1, n)
    my = ((cos * v + cy) + sin * u).reshape(-1, n)
    turned: np.ndarray = cv2.remap(m, mx, my, cv2.INTER_LINEAR, dst=out, borderMode=cv2.BORDER_CONSTANT)
    return turned.reshape(len(turns), n, n)


def _mirror_scores(mask: np.ndarray, turns: np.ndarray,
                   frame: tuple[np.ndarray, float, float, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Each turn's (degrees) overlap of a blob (centred on its centre of mass, turned) with its mirror
    image about the vertical and about the horizontal line through that centre: [len(turns), 2], and
    the turned blobs [len(turns), n, n] (``_turned``; ``frame`` as there). The union from the sums (min +
    max = both). The turned blobs and their two overlaps (each row reversed by ``cv2.flip``, each blob's
    rows by a reversed view) lie in one buffer, every row of it summed in float64 by one ``cv2.reduce``:
    session 28's numpy sums bit for bit where these sums are exact in any order: the remap's values were
    multiples of 2^-41 or coarser in all 635 captured calls of the dev sets 4250, 4252, 3253 and 2252 (2^-42
    on the tests' glyphs) and a blob's sum is about its area, under 2^11 (a 36-pixel inner square), so every
    partial sum fits a double's 53 bits (``tests/vision/test_qubism_mirror_sums.py``; the same scores and
    turned blobs on those calls' 3,810 searches, the same reads on six sets). Session 28's float→double casts
    and buffered pairwise sums were 15 % of the mirror axis's instructions (session 29, qspeed4)."""
    frame = _frame(mask) if frame is None else frame
    t, n = len(turns), frame[3]
    buf = np.empty((3, t * n, n), np.float32)
    turned = _turned(mask, turns, frame, buf[0])
    cv2.min(buf[0], cv2.flip(buf[0], 1, dst=buf[1]), dst=buf[1])  # about the vertical line
    np.minimum(turned, turned[:, ::-1, :], out=buf[2].reshape(t, n, n))  # about the horizontal line
    sums = cv2.reduce(buf.reshape(3 * t, n * n), 1, cv2.REDUCE_SUM, dtype=cv2.CV_64F).reshape(3, t)
    both, common = 2 * sums[0], sums[1:].T
    scores: np.ndarray = common / (both[:, None] - common + 1e-6)
    return scores, turned


def thick_enough(mask: np.ndarray, rule: AxisRule) -> np.ndarray:
    """A glyph's blob (uint8 0/1) as its mirror overlap is measured (``axis_direction``): thickened by a
    pixel each way where its strokes are thinner than ``AxisRule.thin`` (the mean of its pixels'
    distance to its edge), else as it is."""
    if rule.thin <= 0:
        return mask
    m = np.asarray(mask, np.uint8)
    depth = cv2.distanceTransform(cv2.copyMakeBorder(m, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0), cv2.DIST_L2, 3)
    inside = depth[depth > 0]
    if not len(inside) or float(mean_of(inside)) >= rule.thin:
        return mask
    out: np.ndarray = cv2.dilate(m, np.ones((3, 3), np.uint8))
    return out


def axis_direction(mask: np.ndarray, glyph: GlyphRule, rule: AxisRule = AxisRule()) -> tuple[str | None, float]:
    """N/E/S/W of a glyph's blob (a mask, the crop's inner square) on a cube turned on its square:
    every arrow is mirror-symmetric about the line it points along. The blob is turned (``AxisRule``'s
    reach and step) until it is most symmetric about the crop's vertical or horizontal line, and
    read there (``vision.qubism_glyph.glyph_direction``: apex, tip or head); its direction must lie
    along that axis. None where no axis is clear or the read disagrees with it."""
    if not np.any(mask):
        return None, 0.0
    thick = thick_enough(mask, rule)  # a line glyph's mirror overlap measured a pixel thicker
    coarse = np.arange(-rule.reach, rule.reach + 1e-6, rule.step)
    frame = _frame(thick)  # its centre and square, found once for both searches
    each_turn, every = _mirror_scores(thick, coarse, frame)
    each = each_turn.max(axis=1)
    top = int(np.argmax(each))
    far = np.abs(coarse - coarse[top]) > 2.5 * rule.step
    if far.any() and float(each[top]) - float(each[far].max()) < rule.margin:
        return None, 0.0  # two axes alike (a near-equilateral triangle, a cross): none clear
    best_turn = float(coarse[top])
    turns = np.array([best_turn, best_turn - rule.step / 2, best_turn + rule.step / 2])  # refined about the best
    near, near_turned = _mirror_scores(thick, np.clip(turns[1:], -rule.reach, rule.reach), frame)  # the best's kept
    scores, turned = np.concatenate([each_turn[top:top + 1], near]), np.concatenate([every[top:top + 1], near_turned])
    k, a = np.unravel_index(int(np.argmax(scores)), scores.shape)
    best = float(scores[k, a])
    if best < rule.mirror or best - float(scores[k, 1 - a]) < rule.margin:
        return None, 0.0
    seen = turned[k]
    if thick is not mask:  # the glyph itself read at that turn, not its thickened outline
        seen = _turned(mask, np.clip(turns[k:k + 1], -rule.reach, rule.reach))[0]
    blob = (seen > 0.5).astype(np.uint8)
    frame = np.zeros((blob.shape[0] + 2 * _INSET, blob.shape[1] + 2 * _INSET), np.float32)  # its size alone is used
    direction, conf = glyph_direction(blob, frame, glyph)
    if direction is None or (direction in "NS") != (a == 0):
        return None, 0.0
    return direction, conf


def sweep_direction(mask: np.ndarray, rule: SweepRule = SweepRule()) -> str | None:
    """N/E/S/W of a line arrow's ink (a mask) by the way its strokes sweep back: every arrow's strokes off
    its shaft (a head's arms, a triangle's sides, a chevron's, the tail's feathers) run back from where
    they leave it, away from where it points, whatever the print. Along the ink's long axis (within
    ``SweepRule.turn`` of a board axis) each half's off-shaft pixels (``SweepRule.off`` or more from the
    axis, ``SweepRule.least`` of them) are regressed: their place along the axis on their distance out.
    Every counted half must slope the same way by ``SweepRule.slope`` or more: a needle's rhombus or a
    bar slopes both ways or not at all (None), and so does ink that is no arrow."""
    ys, xs = np.nonzero(mask)
    if len(xs) < 4 * rule.least:
        return None
    dx, dy = xs - float(mean_of(xs)), ys - float(mean_of(ys))  # (mean_of: ``.mean()`` bit for bit, faster)
    sxx, syy, sxy = float(mean_of(dx * dx)), float(mean_of(dy * dy)), float(mean_of(dx * dy))
    theta = 0.5 * float(np.arctan2(2 * sxy, sxx - syy))  # the long axis (the covariance's first eigenvector)
    heading = float(np.degrees(theta)) % 180
    if min(heading % 90, 90 - heading % 90) > rule.turn:
        return None
    c, s = float(np.cos(theta)), float(np.sin(theta))
    along, out = dx * c + dy * s, np.abs(dy * c - dx * s)
    off = out >= rule.off
    slopes = []
    for half in (along > 0, along < 0):
        o = half & off
        if int(np.count_nonzero(o)) < rule.least:
            continue
        oo, so = out[o], along[o]
        po = oo - float(mean_of(oo))
        var = float(mean_of(po * po))
        if var > 1e-6:
            slopes.append(float(mean_of(po * (so - float(mean_of(so))))) / var)
    if not slopes or min(abs(v) for v in slopes) < rule.slope or len({v > 0 for v in slopes}) > 1:
        return None
    sign = -1.0 if slopes[0] > 0 else 1.0  # strokes sweeping back towards -axis: it points along +axis
    angle = float(np.degrees(np.arctan2(sign * s, sign * c))) % 360
    return min(_COMPASS, key=lambda d: min(abs(angle - d[1]), 360 - abs(angle - d[1])))[0]
