"""A cube's top found whatever its print (a stage of ``vision.qubism_read``).

Cube sets differ in their top's print: a shaft-and-head arrow, a solid triangle, a chevron, an
arrow in a ring, dark on a light cube or light on a dark one, and Qubism's start (the only
position a family's camera learns from) has no cube to learn it from. What every cube's top
shares, seen in the plane of a cube's top (``SpotFeatures.cube_top``: the pose is known from
the markers, so the crop is where a 28-31 mm cube's top face appears at this camera's tilt,
not its footprint), is a raised plain face with one compact glyph in its middle: a connected
blob of one tone, near the crop's centre, not reaching its border, wholly surrounded by a
ring of the other tone that is even (the face). Above an empty square that plane shows the
print behind (lines, letters, the edge of a shadow or of a neighbour's side: they run out of
the crop, or their surround is not one even tone); a pawn's head shows no such blob.

``central_glyph`` finds that blob in either tone and measures it (``CentralGlyph``; a ring's
surround is measured outside it, and the arrow it frames gives the direction; a ring nearly as
wide as the face, whose surround is the face's edge, is measured inside it: ``_ring_glyph``);
``glyph_direction`` reads the direction of a solid triangle from its apex (``triangle_apex``: the
corner of the smallest angle, whatever the crop's turn), else of its asymmetry: its tip, the extreme farthest from
its centre of mass (a triangle's or chevron's apex: their far end is wide), unless its far end
is narrow (a shaft-and-head arrow's tail: then the widest end is the head,
``vision.arrows.arrow_direction``). Where neither is clear the direction is None: the cube is
still reported (``cube:?``, the app asks), unless the frame has cubes whose direction was clear:
one set of cubes shares one print, so ``like_direction`` turns the unclear glyph's silhouette
four ways against theirs (a phone lens shears a glyph near the picture's edge so that a
triangle's corners look alike by shape alone; its neighbours are sheared alike).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.arrows import components, drawn_arrow, nonzero_xy
from vision.read_fast import mean_of, mean_var_of

_INSET = 6
"""Pixels of a 48-pixel top crop's border left out (the face's edge, the print beyond it)."""
_RING_INSET = 2
"""Pixels of a top crop's border left out where a ring as wide as the face is looked for (``_ring_glyph``)."""
_TURNS = {"N": 0, "E": 1, "S": 2, "W": 3}
"""Quarter turns (np.rot90, counter-clockwise) that make a glyph pointing this way point north."""


@dataclass(frozen=True)
class CentralGlyph:
    """The compact blob in the middle of a top crop (see ``central_glyph``)."""

    share: float
    """Blob area over the crop's inner area."""
    offset: float
    """Distance of its centre of mass from the crop's centre, as a share of the crop's side."""
    contrast: float
    """Difference of mean grey (0-1) between the blob and the ring of face around it."""
    evenness: float
    """``contrast`` over the ring's standard deviation (+0.02): a plain face around the glyph."""
    purity: float
    """Share of the ring in the other tone than the blob (the blob wholly surrounded by face)."""
    direction: str | None
    direction_conf: float
    mask: np.ndarray | None = field(default=None, compare=False, repr=False)
    """The blob (uint8 0/1, the crop's inner square) where it shows a cube's top (``GlyphRule.is_cube``)."""
    level: int = 0
    """Which of ``_cuts``' thresholds found it (0: Otsu's over the crop)."""
    plate: bool = False
    """Its direction read from the glyph a plain plate holds (``_hole``), not from the blob itself."""
    ring: bool = False
    """A closed ring on a face (``vision.qubism_ring``): a cube's top whatever the blob's measures."""


@dataclass(frozen=True)
class GlyphRule:
    """When a central glyph shows a cube's top (measured on the second 3-D family's seeds 2026
    and 2027 and the first family's: cubes' blobs have a share of 0.16-0.26, an offset of 0.12
    or less, evenness 1.4 or more and purity 0.77 or more; of 428 empty squares and 84 pawns
    on the second family 1 empty square and 3 black pawns showed a blob)."""

    share: tuple[float, float] = (0.1, 0.35)
    offset: float = 0.15
    contrast: float = 0.12
    evenness: float = 1.3
    purity: float = 0.75
    tip_conf: float = 0.08
    """A tip's asymmetry (the difference of the extremes' distances over the largest) below this: no direction."""
    arrow_conf: float = 0.6
    """A shaft-and-head arrow read less clearly than this (``arrow_direction``'s confidence): no direction."""
    far_wide: float = 0.6
    """A glyph whose far end (last fifth, seen from its tip) spans this share of its widest row or more is
    read by its tip (triangle, chevron); a narrower one is a shaft-and-head arrow."""
    cuts: int = 3
    """Thresholds tried (``_cuts``): 1, Otsu's over the crop; 3, also Otsu's within each of its
    classes, where the first finds no cube's top (a dark glyph on a mid-grey face before light
    paper: Otsu's threshold puts glyph and face together)."""
    reach: float = 0.4
    """A cube's top is looked for this far off its place, in top-crop sides, where the spot shows
    none there (``off_centre_glyph``; 0: not looked for)."""
    like_min: float = 0.6
    like_margin: float = 0.04
    """``like_direction``: a glyph without a direction takes the turn under which its silhouette best
    overlaps the frame's clearly read cubes' glyphs (overlap at least ``like_min``), when that turn
    beats the next best by ``like_margin`` (measured on the second 3-D family's seeds 2026 and 2027:
    87 of 88 unclear cubes' best turns right, the wrong one by a margin of 0.00)."""
    triangle_fill: float = 0.85
    triangle_margin: float = 3.0
    triangle_turn: float = 25.0
    """``triangle_apex``: a blob filling its smallest enclosing triangle this much is a triangle (on both
    3-D families: triangles 0.90 or more, other glyphs 0.75 or less; above 1: not looked for); its apex's
    angle smaller than the next by this many degrees, pointing within this many degrees of a direction
    (measured: 4.2 degrees or more, 16 degrees or less)."""
    rings: bool = True
    """A glyph framed by a ring as wide as the face is looked for where no other glyph shows a cube's
    top (``_ring_glyph``), measured inside its ring."""
    ring_fill: tuple[float, float] = (0.25, 0.7)
    """``_ring_glyph``: the ring's disc over the searched crop's area."""
    ring_split: tuple[float, float] = (0.7, 0.5)
    """A ring is looked for only in a crop whose middle splits into two tones this cleanly, with this
    contrast (``vision.qubism_read.TopFace``'s separation and contrast; the rings found on both 3-D
    families' seeds 2026 and 2027 showed 0.8 and 0.68 or more): a read's time."""
    plates: bool = True
    """A glyph found without a direction that is a plain plate (a sticker) holding a glyph of the other
    tone is read by that glyph (``_hole``): a pale sticker on a dark cube is the blob that stands out of
    the cube's face, the arrow printed on it its hole."""
    agree: bool = True
    """Only glyphs that agree with the frame's others lend their turn, and one the others dispute is
    asked (``vision.qubism_read.agreeing_glyphs``); False: every glyph read with a direction lends it."""
    lenders: int = 2
    """Glyphs lend their turn (``vision.qubism_read.like_cubes``) only where at least this many of the
    frame's agree: one glyph alone cannot be checked, and its tip read the wrong way turns every
    unclear cube like it (held-out second family 3191, scene 78: one double chevron read a quarter
    turn off, seven cubes read wrong from it)."""

    def is_cube(self, g: CentralGlyph | None) -> bool:
        return g is not None and (g.ring or (self.share[0] <= g.share <= self.share[1] and g.offset <= self.offset
                                             and g.contrast >= self.contrast and g.evenness >= self.evenness
                                             and g.purity >= self.purity))


def _cuts(g8: np.ndarray, levels: int) -> list[int]:
    """Otsu's threshold of a grey crop (uint8) and, for ``levels`` 3, Otsu's within each of its two
    classes (a crop of three tones: a glyph, its face and the print or table behind)."""
    cut = int(cv2.threshold(g8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0])
    return [cut, *_within_cuts(g8, cut)] if levels >= 3 else [cut]


def _within_cuts(g8: np.ndarray, cut: int) -> list[int]:
    """Otsu's threshold within each of the two classes ``cut`` splits a grey crop (uint8) into, where
    the class has some spread (``_cuts``' second and third)."""
    cuts = []
    for part in (g8[g8 <= cut], g8[g8 > cut]):
        if part.size >= 16 and int(part.max()) > int(part.min()):
            cuts.append(int(cv2.threshold(np.ascontiguousarray(part.reshape(1, -1)), 0, 255,
                                          cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]))
    return cuts


def _tones(g8: np.ndarray, levels: int, done: Callable[[], bool]) -> Iterator[tuple[int, np.ndarray]]:
    """Both tones (masks) of each of ``_cuts``' thresholds in turn (with the threshold's index), until ``done``."""
    cuts = _cuts(g8, levels)
    for k, cut in enumerate(cuts):
        if done():
            return
        yield k, g8 <= cut
        yield k, g8 > cut


def central_glyph(top: np.ndarray, rule: GlyphRule, rings: bool = True) -> CentralGlyph | None:
    """The most evenly surrounded compact blob, of either tone, in the middle of a grey top crop
    (values 0-1, square, about 48 pixels), with its direction; None where there is none. ``rings``:
    also a glyph framed by a ring as wide as the face (``_ring_glyph``; ``GlyphRule.rings``)."""
    return central_glyphs([top], rule, [rings])[0]


_GAP = 2
"""Empty rows between the crops ``central_glyphs`` stacks (even: each crop starts on an even row, as alone)."""

_Best = tuple[float, CentralGlyph, np.ndarray, "np.ndarray | None"]
"""A crop's best blob so far: (score, its measures, the blob, what it frames or None)."""


def central_glyphs(tops: list[np.ndarray], rule: GlyphRule,
                   rings: list[bool] | None = None) -> list[CentralGlyph | None]:
    """``central_glyph`` of each of a frame's top crops (all one shape), the same answers: each
    threshold's tones labelled for all the crops at once (stacked, ``_GAP`` empty rows apart, so
    that each crop's components are labelled as alone, in the same order), each crop looked at
    under its next threshold only while it has no cube's top; ``rings``: each crop's ``central_glyph``
    ``rings`` (all True where not given)."""
    return central_and_small(tops, rule, rings, rule, [False] * len(tops))[0]


def central_and_small(tops: list[np.ndarray], rule: GlyphRule, rings: list[bool] | None, small: GlyphRule,
                      ask: list[bool], faint: tuple[GlyphRule, list[bool]] | None = None
                      ) -> tuple[list[CentralGlyph | None], list[bool]]:
    """``central_glyphs`` of the crops and, for those ``ask`` names, whether the same labelling shows a
    blob that ``small`` (``rule`` with a lower ``GlyphRule.share`` bound, all else alike) takes for a
    cube's top: what ``small.is_cube`` of ``central_glyphs(those crops, small)`` answers, without
    labelling them again (each threshold such a crop reaches alone under ``small``, ``rule`` reaches too
    unless it found a cube's top, which ``small`` takes for one as well). ``faint``: a rule (``small``'s share,
    lower contrast, evenness and purity cuts, an offset's no lower) and a list marked, in place, where only it takes one of an asked
    crop's blobs seen for ``small``."""
    if small.share[0] > rule.share[0] or replace(small, share=rule.share) != rule:
        raise ValueError("central_and_small: the small rule may only lower GlyphRule.share's lower bound")
    hits = [False] * len(tops)
    gs = [np.asarray(t, np.float32) for t in tops]
    inners = [g[_INSET:-_INSET, _INSET:-_INSET] for g in gs]
    if not gs:
        return [], []
    h, w = inners[0].shape
    tiles = np.zeros((len(gs), h + _GAP, w), np.uint8)  # every crop's grey, stacked as _label_stacked stacks them
    tiles[:, :h] = np.clip(np.stack(inners) * 255, 0, 255).astype(np.uint8)
    g8s = [tile[:h] for tile in tiles]
    cuts = [_cuts(g8, 1) for g8 in g8s]  # Otsu's over the crop; within its classes only for a crop that needs them
    best: list[_Best | None] = [None] * len(tops)
    level = -1
    while True:
        level += 1
        if level == 1 and rule.cuts >= 3:
            cuts = [c if (b := best[k]) is not None and b[0] >= 1e3 else [*c, *_within_cuts(g8s[k], c[0])]
                    for k, c in enumerate(cuts)]
        live = [k for k, c in enumerate(cuts) if level < len(c) and not ((b := best[k]) is not None and b[0] >= 1e3)]
        if not live:
            break
        c = (h - 1) / 2
        at = np.array([cuts[k][level] for k in live], np.uint8)[:, None, None]  # Otsu's cuts of 8-bit crops: 0-255, exact
        for dark in (True, False):  # the threshold's dark tone, then its light one
            stacked = tiles[live] <= at if dark else tiles[live] > at
            stacked[:, h:] = False  # the empty rows between the crops
            tones = list(stacked[:, :h])
            labels, stats, cents, tile, period = _label_tiles(stacked)
            area = stats[:, cv2.CC_STAT_AREA]
            inside = _inside(stats, w, h)  # not running out of the face: print, a shadow's edge, a neighbour's side
            shares = area / (h * w)
            offsets = np.hypot(cents[:, 0] - c, cents[:, 1] - c) / gs[live[0]].shape[0]
            for j in np.flatnonzero(inside & (small.share[0] <= shares) & (shares <= rule.share[1])
                                    & (offsets <= (rule.offset if faint is None else max(rule.offset, faint[0].offset)))):
                n = int(tile[j])
                k = live[n]
                big = bool(rule.share[0] <= shares[j] and offsets[j] <= rule.offset)
                if not (big or ask[k]):
                    continue  # a blob only ``small`` looks at, in a crop it is not asked about
                blob = (labels[n * period:n * period + h] == j).astype(np.uint8)
                seen = _measure(inners[k], tones[n], blob, float(shares[j]), float(offsets[j]), int(area[j]), level, rule)
                if seen is None:
                    continue
                if ask[k] and small.is_cube(seen[1]):
                    hits[k] = True
                elif ask[k] and faint is not None and faint[0].is_cube(seen[1]):
                    faint[1][k] = True
                if big and ((b := best[k]) is None or seen[0] > b[0]):
                    best[k] = seen
    if faint is not None:
        faint[1][:] = [f and not hit for f, hit in zip(faint[1], hits)]
    wants = [True] * len(gs) if rings is None else rings
    return [_finished(b, g, rule, want) for b, g, want in zip(best, gs, wants)], hits


def _measure(inner: np.ndarray, tone: np.ndarray, blob: np.ndarray, share: float, offset: float, area: int,
             level: int, rule: GlyphRule) -> _Best | None:
    """A candidate blob (uint8 0/1) of one tone (a mask) in a crop's inner square measured against
    the ring of face around it (see ``central_glyph``); None where that ring is too small."""
    kernel = np.ones((3, 3), np.uint8)
    outline = _filled(blob)  # a ring's surround is measured outside it (its middle holds the arrow)
    near = cv2.dilate(outline, kernel, iterations=2)
    ring = (cv2.dilate(outline, kernel, iterations=6) > 0) & (near == 0)
    if ring.sum() < 20:
        return None
    around = inner[ring]
    around_mean, around_var = mean_var_of(around)  # around.mean(), around.var(): the same bits
    contrast = abs(float(mean_of(inner[blob > 0])) - float(around_mean))
    evenness = contrast / (float(around_var.dtype.type(np.sqrt(around_var))) + 0.02)  # around.std()
    purity = float(mean_of(~tone[ring]))
    found = CentralGlyph(share, offset, contrast, evenness, purity, None, 0.0, level=level)
    score = float(rule.is_cube(found)) * 1e3 + evenness * purity
    framed = (outline > 0) & (blob == 0) & tone  # what a ring frames, in the ring's tone
    return score, found, blob, framed.astype(np.uint8) if int(outline.sum()) >= 2 * area else None


def _finished(best: _Best | None, g: np.ndarray, rule: GlyphRule, rings: bool) -> CentralGlyph | None:
    """A crop's best blob as ``central_glyph`` gives it: with its direction where it shows a cube's top
    (else a ring as wide as the face, where ``rings`` and ``GlyphRule.rings``)."""
    rings = rings and rule.rings
    if (best is None or not rule.is_cube(best[1])) and rings:
        ring = _ring_glyph(g, rule)  # a ring as wide as the face: too near the crop's edge for central_glyphs' test
        if ring is not None:
            return ring
    if best is None:
        return None
    _, found, blob, framed = best
    if not rule.is_cube(found):
        return found
    if framed is not None and int(framed.sum()) >= 0.2 * int(blob.sum()):  # an arrow in a ring: the arrow's direction
        direction, conf = glyph_direction(framed, g, rule)
        blob = blob | framed
    else:
        direction, conf = glyph_direction(blob, g, rule)
    hole = _hole(blob) if direction is None and rule.plates else None
    plate = False
    if hole is not None:  # a plate (a sticker on a darker cube) holding the glyph: the glyph's direction
        direction, conf = glyph_direction(hole, g, rule)
        blob, plate = (hole, True) if direction is not None else (blob, False)
    if direction is None and rings:  # a ring whose arrow touches it: read inside the ring
        ring = _ring_glyph(g, rule)
        if ring is not None and ring.direction is not None:
            return ring
    return CentralGlyph(found.share, found.offset, found.contrast, found.evenness, found.purity, direction, conf,
                        blob, found.level, plate)


def _label_stacked(masks: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """``cv2.connectedComponentsWithStats`` (8-connected) of equally shaped masks in one pass: the
    masks stacked ``_GAP`` empty rows apart, so that each is labelled as alone, in the same order.
    Returns the labels (of the stack), the stats and centroids with each component's rows counted
    from its own mask's top (the centroid's row to the bit: OpenCV's is the rows' sum over the
    area, a whole number recovered from it), which mask each component lies in, and the rows from
    one mask's top to the next's."""
    h, w = masks[0].shape
    stack = np.zeros((len(masks), h + _GAP, w), np.uint8)
    for n, mask in enumerate(masks):
        stack[n, :h] = mask
    return _label_tiles(stack)


def _label_tiles(tiles: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """``_label_stacked`` of masks already stacked ([n, h + _GAP, w], bool or uint8 0/1, the last
    ``_GAP`` rows of each empty)."""
    period, w = tiles.shape[1:]
    stack = tiles.reshape(-1, w)
    _, labels, stats, cents = components(stack.view(np.uint8) if stack.dtype == bool else stack)
    tile = stats[:, cv2.CC_STAT_TOP] // period
    row0 = tile * period
    area = stats[:, cv2.CC_STAT_AREA]
    stats[:, cv2.CC_STAT_TOP] -= row0
    cents[:, 1] = (np.rint(cents[:, 1] * area) - area * row0) / area
    return labels, stats, cents, tile, period


def _inside(stats: np.ndarray, w: int, h: int) -> np.ndarray:
    """Which of ``cv2.connectedComponentsWithStats``' components of a w x h mask lie within it
    without touching its border (the background, label 0, never)."""
    x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    inside: np.ndarray = (x > 0) & (y > 0) & (x + stats[:, cv2.CC_STAT_WIDTH] < w) & (y + stats[:, cv2.CC_STAT_HEIGHT] < h)
    inside[0] = False
    return inside


def _ring_glyph(g: np.ndarray, rule: GlyphRule) -> CentralGlyph | None:
    """A cube's top whose glyph is framed by a ring nearly as wide as the face (the second 3-D
    family's wooden cubes: the ring reaches within ``_INSET`` of the crop's edge, and the arrow's
    tip often touches it). Looked for in the crop less ``_RING_INSET``: a blob of either tone with a
    hole, about a disc (``GlyphRule.ring_fill``) near the middle; inside its ring (the disc less the
    ring's width) the arrow (the largest part of the ring's tone there) on a plain, even face of the other tone
    (measured inside the ring, not around it: around it lies the face's edge). None: no such ring."""
    inner = g[_RING_INSET:-_RING_INSET, _RING_INSET:-_RING_INSET]
    h, w = inner.shape
    g8 = np.ascontiguousarray(np.clip(inner * 255, 0, 255).astype(np.uint8))
    c = (h - 1) / 2
    best: tuple[float, CentralGlyph] | None = None
    for level, tone in _tones(g8, 1, lambda: best is not None):  # Otsu's threshold alone: a read's time
        _, labels, stats, _ = components(tone.astype(np.uint8))
        x, y, bw, bh, size = stats.T
        big = ((x > 0) & (y > 0) & (x + bw < w) & (y + bh < h) & (size >= 0.05 * inner.size)
               & (bw * bh >= rule.ring_fill[0] * inner.size))  # its disc fits its box
        big[0] = False  # the background
        for j in np.nonzero(big)[0]:
            area = int(size[j])
            blob = (labels == j).astype(np.uint8)
            disc = _filled(blob)
            filled = int(disc.sum())
            if not rule.ring_fill[0] <= filled / inner.size <= rule.ring_fill[1] or filled < 1.4 * area:
                continue  # no disc with a hole the size of a face's ring
            ys, xs = np.nonzero(disc)
            offset = float(np.hypot(xs.mean() - c, ys.mean() - c)) / g.shape[0]
            if offset > rule.offset:
                continue
            depth = cv2.distanceTransform(disc, cv2.DIST_L2, 3)
            radius = float(np.sqrt(filled / np.pi))
            edge = depth[(blob > 0) & (depth < 0.35 * radius)]
            if not len(edge):
                continue
            inside = depth > 2 * float(np.median(edge)) + 1.5  # the disc less the ring's width
            parts = (tone & inside).astype(np.uint8)  # the arrow, whether or not it touches the ring
            m, plabels, pstats, _ = components(parts)
            if m < 2:
                continue
            k = 1 + int(np.argmax(pstats[1:, cv2.CC_STAT_AREA]))
            arrow = (plabels == k).astype(np.uint8)
            face = inside & (cv2.dilate(parts, np.ones((3, 3), np.uint8)) == 0)
            if int(face.sum()) < 20 or not 0.06 <= int(arrow.sum()) / max(int(inside.sum()), 1) <= 0.5:
                continue
            ay, ax = np.nonzero(arrow)
            if float(np.hypot(ax.mean() - xs.mean(), ay.mean() - ys.mean())) > 0.3 * radius:
                continue  # the arrow sits in the ring's middle
            around = inner[face]
            contrast = abs(float(inner[arrow > 0].mean()) - float(around.mean()))
            evenness = contrast / (float(around.std()) + 0.02)
            purity = float((~tone[face]).mean())
            found = CentralGlyph(area / inner.size, offset, contrast, evenness, purity, None, 0.0)
            if rule.is_cube(found) and (best is None or evenness * purity > best[0]):
                pad = (g.shape[0] - h) // 2
                direction, conf = glyph_direction(np.pad(arrow, pad), g, rule)
                mask = np.pad(blob | arrow, pad)[_INSET:-_INSET, _INSET:-_INSET]  # as central_glyph's: ring and arrow
                best = (evenness * purity, CentralGlyph(found.share, offset, contrast, evenness, purity, direction,
                                                        conf, mask, level))
    return None if best is None else best[1]


def _hole(blob: np.ndarray) -> np.ndarray | None:
    """The largest hole of a blob (uint8 0/1) where it is 8-40 % of the blob's filled outline (a plain
    plate holding a glyph of the other tone: a pale sticker's dark arrow on a dark cube), else None."""
    holes = (_filled(blob) > 0) & (blob == 0)
    n, labels, stats, _ = components(holes.astype(np.uint8))
    if n < 2:
        return None
    j = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    share = float(stats[j, cv2.CC_STAT_AREA]) / (float(blob.sum()) + float(holes.sum()))
    return (labels == j).astype(np.uint8) if 0.08 <= share <= 0.4 else None


def _filled(blob: np.ndarray) -> np.ndarray:
    """A blob (uint8 0/1) with its holes filled (a ring: the disc it frames)."""
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(blob)
    cv2.drawContours(out, contours, -1, 1, thickness=-1)
    return out


WIDE = 1.5
"""``off_centre_glyph``'s crop spans this many top crops (same pixels per mm: 72 pixels)."""


def off_centre_glyph(wide: np.ndarray, rule: GlyphRule) -> tuple[float, float] | None:
    """Where a compact blob lies in a crop ``WIDE`` times a top crop's span (grey, 0-1, centred on
    the spot), as (x, y) offsets in top-crop sides, if one of the size of a cube's glyph lies
    within ``GlyphRule.reach`` of the middle (a cube's top seen off the place the pose puts it:
    a phone lens's distortion, a cube of another height); the nearest such blob. Whether it is a
    cube's top is then measured on a top crop centred there (``central_glyph``)."""
    return off_centre_glyphs([wide], rule)[0]


def off_centre_glyphs(wides: list[np.ndarray] | np.ndarray, rule: GlyphRule) -> list[tuple[float, float] | None]:
    """``off_centre_glyph`` of each of a frame's wide crops (all one shape), the same answers, each
    tone's components labelled for all the crops at once (``_label_stacked``)."""
    if not len(wides):
        return []
    gs = [np.asarray(wide, np.float32) for wide in wides]
    hw = gs[0].shape
    side = hw[0] / WIDE  # a top crop's side in these pixels
    inset = int(round(_INSET * side / 48))
    inner_area = (side - 2 * inset) ** 2
    g8s = [np.ascontiguousarray(np.clip(g * 255, 0, 255).astype(np.uint8)) for g in gs]
    c = (hw[0] - 1) / 2
    m = int(round(hw[0] / 2 - side / 2))
    cuts = [cv2.threshold(np.ascontiguousarray(g8[m:-m, m:-m]), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
            for g8 in g8s]
    best: list[tuple[float, tuple[float, float]] | None] = [None] * len(gs)
    for dark in (True, False):
        _, stats, cents, tile, _ = _label_stacked([g8 <= cut if dark else g8 > cut for g8, cut in zip(g8s, cuts)])
        shares = stats[:, cv2.CC_STAT_AREA] / inner_area
        for j in np.flatnonzero(_inside(stats, hw[1], hw[0]) & (rule.share[0] <= shares) & (shares <= rule.share[1])):
            k = int(tile[j])
            dx, dy = (float(cents[j][0]) - c) / side, (float(cents[j][1]) - c) / side
            far = float(np.hypot(dx, dy))
            if far <= rule.reach and ((b := best[k]) is None or far < b[0]):
                best[k] = (far, (dx, dy))
    return [None if b is None else b[1] for b in best]


_SILHOUETTE = 40
"""Side of a glyph's silhouette (``silhouette``), pixels."""


def silhouette(mask: np.ndarray) -> np.ndarray:
    """A glyph's blob (a mask) centred on its centre of mass in a square of ``_SILHOUETTE``
    pixels, lightly blurred (values 0-1): compared with other cubes' turned four ways."""
    ys, xs = np.nonzero(mask)
    half = _SILHOUETTE / 2
    shift = np.array([[1, 0, half - float(xs.mean()) - 0.5], [0, 1, half - float(ys.mean()) - 0.5]], np.float32)
    moved = cv2.warpAffine(np.asarray(mask, np.float32), shift, (_SILHOUETTE, _SILHOUETTE), flags=cv2.INTER_LINEAR)
    out: np.ndarray = cv2.GaussianBlur(moved, (0, 0), 1.0)
    return out


def like_direction(mask: np.ndarray, known: list[np.ndarray], rule: GlyphRule) -> tuple[str | None, float]:
    """N/E/S/W of a glyph (its blob, a mask) whose own shape gives none, from the glyphs of cubes
    of the same set read clearly (``known``: their silhouettes turned to point north): the turn
    under which it overlaps one of them best (intersection over union), if clearly better than
    any other turn (see ``GlyphRule.like_min`` and ``like_margin``); and that margin."""
    if not known or not mask.any():
        return None, 0.0
    return like_turn(silhouette(mask), known, rule)


def like_turn(own: np.ndarray, known: list[np.ndarray], rule: GlyphRule) -> tuple[str | None, float]:
    """``like_direction`` of a glyph's silhouette (``silhouette``)."""
    return best_turn(turned_overlaps(own, known).max(axis=1), rule)


def turned_overlaps(own: np.ndarray, known: list[np.ndarray]) -> np.ndarray:
    """Intersection over union of a silhouette turned each of ``_TURNS``' ways (rows, in its
    order) with each of ``known`` (columns): [4, len(known)], all at once."""
    turned = np.stack([np.rot90(own, k) for k in _TURNS.values()])[:, None]
    others = np.stack(known)[None]
    inter = np.minimum(turned, others).sum(axis=(2, 3))
    union = np.maximum(turned, others).sum(axis=(2, 3))
    out: np.ndarray = inter / (union + 1e-6)
    return out


def best_turn(overlaps: np.ndarray, rule: GlyphRule) -> tuple[str | None, float]:
    """``like_turn``'s answer from a silhouette's overlap turned each of ``_TURNS``' ways (in its order)."""
    overlap = {d: float(v) for d, v in zip(_TURNS, overlaps)}
    ranked = sorted(overlap, key=lambda d: -overlap[d])
    margin = overlap[ranked[0]] - overlap[ranked[1]]
    if overlap[ranked[0]] >= rule.like_min and margin >= rule.like_margin:
        return ranked[0], margin
    return None, margin


_COMPASS = {"E": 0.0, "S": 90.0, "W": 180.0, "N": 270.0}
"""Image angles (degrees, y down) of the four directions."""


def triangle_apex(blob: np.ndarray, rule: GlyphRule) -> tuple[str, float] | None:
    """N/E/S/W of a solid triangle (a blob filling its smallest enclosing triangle by
    ``GlyphRule.triangle_fill``) and a confidence: its apex, the corner of clearly the smallest angle
    (by ``triangle_margin`` degrees), seen from the middle of the opposite side, within
    ``triangle_turn`` degrees of a direction. The extremes along the board's axes
    (``glyph_direction``) mislead where the crop turns or shears the triangle (a lens, the pose):
    measured on both 3-D families' seeds 2026 and 2027, 151 triangles read by their apex, all right,
    21 of them unclear by their extremes. None: not a triangle, or no clear apex."""
    contours, _ = cv2.findContours(blob.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours or rule.triangle_fill > 1:
        return None
    area, corners = cv2.minEnclosingTriangle(max(contours, key=cv2.contourArea).astype(np.float32))
    if corners is None or float(blob.sum()) < rule.triangle_fill * max(float(area), 1.0):
        return None
    t = np.asarray(corners, np.float64).reshape(3, 2)
    angles = []
    for k in range(3):
        u, v = t[(k + 1) % 3] - t[k], t[(k + 2) % 3] - t[k]
        cos = u @ v / (np.linalg.norm(u) * np.linalg.norm(v) + 1e-9)
        angles.append(float(np.degrees(np.arccos(np.clip(cos, -1, 1)))))
    order = np.argsort(angles)
    margin = angles[order[1]] - angles[order[0]]
    k = int(order[0])
    axis = t[k] - (t[(k + 1) % 3] + t[(k + 2) % 3]) / 2
    heading = float(np.degrees(np.arctan2(axis[1], axis[0]))) % 360
    turn = {d: min(abs(heading - a), 360 - abs(heading - a)) for d, a in _COMPASS.items()}
    best = min(turn, key=lambda d: turn[d])
    if margin < rule.triangle_margin or turn[best] > rule.triangle_turn:
        return None
    return best, float(min(margin / 30, 1.0))


def glyph_direction(blob: np.ndarray, top: np.ndarray, rule: GlyphRule) -> tuple[str | None, float]:
    """N/E/S/W of a glyph's blob (a mask) and a confidence (see the module docstring);
    ``top``: the grey crop it was found in (for a shaft-and-head arrow)."""
    apex = triangle_apex(blob, rule)
    if apex is not None:
        return apex
    xs, ys = nonzero_xy(blob)
    top_row, bottom, left, right = int(ys[0]), int(ys[-1]), int(xs.min()), int(xs.max())  # rows ascend
    cx, cy = int(xs.sum()) / xs.size, int(ys.sum()) / ys.size  # ``mean_of``'s to the bit: exact sums, one division
    ext = {"N": cy - top_row, "S": bottom - cy, "W": cx - left, "E": right - cx}
    ns, ew = ext["N"] - ext["S"], ext["E"] - ext["W"]
    span = max(max(ext.values()), 1.0)
    if abs(ns) >= abs(ew):
        tip, conf = ("N" if ns > 0 else "S"), (abs(ns) - abs(ew)) / span
    else:
        tip, conf = ("E" if ew > 0 else "W"), (abs(ew) - abs(ns)) / span
    box = blob[top_row:bottom + 1, left:right + 1]  # the same spans: empty rows and columns add nothing
    spans = _row_spans(np.rot90(box, _TURNS[tip]) > 0).astype(np.float64)
    last = max(1, int(round(len(spans) * 0.2)))
    if float(mean_of(spans[-last:])) >= rule.far_wide * float(spans.max()):
        return (tip, float(conf)) if conf >= rule.tip_conf else (None, float(conf))
    # the blob alone, dark on light (not a ring around it), as ``vision.arrows.arrow_direction`` reads it
    arrow, sure = drawn_arrow(blob, (top.shape[0] - blob.shape[0]) // 2)
    return (arrow, sure) if arrow is not None and sure >= rule.arrow_conf else (None, sure)


def _row_spans(mask: np.ndarray) -> np.ndarray:
    """Each row's extent (from its first set pixel to its last, inclusive) of a boolean mask's
    rows that have any, top to bottom."""
    rows = mask[mask.any(axis=1)]
    first = rows.argmax(axis=1)
    last = rows.shape[1] - 1 - rows[:, ::-1].argmax(axis=1)
    spans: np.ndarray = last - first + 1
    return spans
