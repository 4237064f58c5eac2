"""A frame's cube tops seen off their places together (a stage of ``vision.piece_cubes``, before
the tops are read: ``CubeSpots._settle_cubes``).

The top crops are cut where the pose puts a cube's top. A pose a centimetre or more off (two
markers of four found, the far side of the board then turned about them) puts every cube's top
off its crop by about the same amount: each cube's glyph is seen off centre, in the same direction
and as far, and the glyph rules (``vision.qubism_glyph``) find none of them, or find a neighbour's.
The second 3-D family's dev seed 3253, traced (truth camera against the reader's): 9 of its 14
cubes read empty lay in frames whose pose was 7-12 mm off on the board (15 mm at the tops), one
frame alone holding 6; there one shared offset left 5 mm on average (the reach of the search near
each place, ``moved_tops``).

``frame_shift`` looks at a wider crop about each spot looked at and the blobs of a cube glyph's size
that lie wholly inside it (either tone of Otsu's split); the offset the most spots' blobs agree on
is the frame's, taken where enough spots agree on it, more than agree on none, and it is longer
than the search near each place reaches anyway. The crops are then cut there and kept only where
they show more cubes' tops than the crops in place (``more_tops``): the frame's own cubes decide,
no colour or threshold of one family's.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class ShiftRule:
    """When a frame's tops are seen off their places together (see the module docstring)."""

    least: int = 3
    """Spots whose wide crop holds a blob at the shared offset, at least."""
    agree: float = 0.1
    """Blobs this near one another (a share of a top crop's side) agree on an offset."""
    least_shift: float = 0.15
    """A shared offset shorter than this (a share of the side; ``GlyphRule.offset``, where a glyph
    still counts as central) is left as it is."""
    wide: float = 1.5
    """The wide crop's span, in top crops (``vision.qubism_glyph.WIDE``)."""
    reach: float = 0.5
    """Blobs this far from the wide crop's middle at most (a share of the side: half a square)."""
    even: int = 4
    """Spots agreeing, at least, for an offset that varies evenly over the board (else one offset for all)."""
    share: tuple[float, float] = (0.04, 0.6)
    """Blobs' areas over a top crop's inner area (``GlyphRule.share``'s, widened: a thin arrow's, the disc
    a ring holds)."""


def blob_offsets(wides: np.ndarray, share: tuple[float, float], inner: float) -> list[np.ndarray]:
    """The centres of each wide crop's blobs (``wides``: [n, w, w] grey 0-1) of a glyph's size (area
    over ``inner``, the area a top crop's glyph is measured against, within ``share``), wholly inside
    the crop, in either tone of Otsu's split: offsets from the middle in pixels, [m, 2] a crop."""
    out = []
    for wide in wides:
        g8 = np.ascontiguousarray(np.clip(wide * 255, 0, 255).astype(np.uint8))
        h, w = g8.shape
        cut, _ = cv2.threshold(g8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        found = []
        for mask in (g8 <= cut, g8 > cut):
            n, _, stats, cents = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
            x, y = stats[1:, cv2.CC_STAT_LEFT], stats[1:, cv2.CC_STAT_TOP]
            bw, bh = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
            area = stats[1:, cv2.CC_STAT_AREA] / inner
            ok = (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h) & (area >= share[0]) & (area <= share[1])
            found.append(cents[1:][ok] - [(w - 1) / 2, (h - 1) / 2])
        out.append(np.concatenate(found) if found else np.zeros((0, 2)))
    return out


def frame_shift(offsets: list[np.ndarray], centres: np.ndarray, side: float, rule: ShiftRule) -> np.ndarray | None:
    """Each spot's offset (a share of a top crop's ``side``, the pixels of ``offsets``; [n, 2]) where the
    frame's tops lie off their places together, else None. First the one offset the most spots'
    blobs agree on (``blob_offsets``, an array a spot), taken where ``ShiftRule.least`` spots or more
    do, more than agree on none, and it is ``ShiftRule.least_shift`` long or longer; then, where
    ``ShiftRule.even`` spots or more agree, an offset varying evenly over the board (a shift, turn
    and scale of the spots' ``centres``, board mm: a pose turned, a lens's camera placed too high),
    refitted to the blobs nearest it while it explains no fewer of them."""
    pts = [o[np.hypot(o[:, 0], o[:, 1]) <= rule.reach * side] / side for o in offsets]
    has = [k for k, p in enumerate(pts) if len(p)]
    if len(has) < rule.least:
        return None

    def agreeing(want: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """(spot, its blob nearest ``want[spot]``) where that lies within ``ShiftRule.agree``."""
        out = []
        for k in has:
            d = np.hypot(*(pts[k] - want[k]).T)
            if float(d.min()) <= rule.agree:
                out.append((k, pts[k][int(np.argmin(d))]))
        return out

    n_spots = len(pts)
    best: tuple[int, float, np.ndarray] | None = None
    for c in np.concatenate([pts[k] for k in has]):
        kept = agreeing(np.tile(c, (n_spots, 1)))
        mean = np.mean([q for _, q in kept], axis=0)
        if best is None or (len(kept), -float(np.hypot(*mean))) > (best[0], best[1]):
            best = (len(kept), -float(np.hypot(*mean)), mean)
    assert best is not None
    n, _, mean = best
    still = len(agreeing(np.zeros((n_spots, 2))))
    if n < rule.least or n <= still or float(np.hypot(*mean)) < rule.least_shift:
        return None
    field = np.tile(mean, (n_spots, 1))
    rel = (centres - centres.mean(axis=0)) / max(float(centres.std()), 1e-6)
    for _ in range(3):
        kept = agreeing(field)
        if len(kept) < max(rule.even, n):
            break
        moved = _similar(rel, [k for k, _ in kept], np.array([q for _, q in kept]))
        if len(agreeing(moved)) < len(kept):
            break
        field = moved
    return field


def _similar(rel: np.ndarray, ks: list[int], offs: np.ndarray) -> np.ndarray:
    """Offsets at every spot (``rel``: their places, [n, 2]) of the least-squares shift, turn and scale
    (``o = t + [[a, -b], [b, a]] p``) that takes the spots ``ks`` to their offsets ``offs``."""
    p = rel[ks]
    rows = np.zeros((2 * len(ks), 4))
    rows[0::2] = np.column_stack([np.ones(len(ks)), np.zeros(len(ks)), p[:, 0], -p[:, 1]])
    rows[1::2] = np.column_stack([np.zeros(len(ks)), np.ones(len(ks)), p[:, 1], p[:, 0]])
    (tx, ty, a, b), *_ = np.linalg.lstsq(rows, offs.reshape(-1), rcond=None)
    out: np.ndarray = np.column_stack([tx + a * rel[:, 0] - b * rel[:, 1], ty + b * rel[:, 0] + a * rel[:, 1]])
    return out
