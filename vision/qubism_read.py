"""Qubism's cubes read from their top faces (a stage of the board reader, ``vision.pieces``).

A cube stands 28-31 mm tall on a 35 mm square; at a camera tilted 30-45 degrees its top face
is seen most of a square away from its footprint, and its footprint shows its side, its shadow
or the next cube's side. The look of a spot (its footprint, and the raised plane halfway up)
then says little, and Qubism's start, the only position a family's camera learns from, has no
cube to learn a cube's look from. What does not change with the tilt is the top face itself,
seen in the plane of a cube's top (``SpotFeatures.cube_top``: the pose is known from the
markers): a light, plain square with one compact glyph in its middle (an arrow: dark on a light
cube, light on a dark one). Above an empty square, a pawn, a shadow or a neighbour's side that
plane shows print, edges or shade, and no such glyph.

``top_face`` measures that on one crop (split at Otsu's threshold into face and glyph: how
cleanly, the glyph's share, contrast, place, and how much of it reaches the crop's border, and
``vision.arrows.arrow_direction``'s confidence); ``CubeTops`` says when a crop shows a cube's
top clearly (``is_cube``) or clearly none (``is_bare``). ``settle_cubes`` then corrects a
frame's readings: a spot read as empty (or as a cube's side) whose top shows a clear cube top
is a cube, with the arrow read there (so is one read as a pawn: a pawn's head shows no square
face with an arrow; on two seeds of the 3-D scenes no pawn's did); a spot read as a cube whose
top shows none is empty; a cube without a direction takes it from the frame's clear cubes'
glyphs where its own is like one of them turned (``like_cubes``; only glyphs the frame's
others back lend their turn, and one they dispute is asked: ``agreeing_glyphs``); at most the
game's nine cubes (Q1), the clearest kept (those added unsure, off their place or at a threshold
within a tone, go first). A top crop that reaches over a printed marker (a marker's glyph is a
light-on-dark square) is not used to add a cube.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.arrows import arrow_direction
from vision.lens import Lens
from vision.qubism_needle import NeedleRule
from vision.qubism_glyph import (_TURNS, WIDE, CentralGlyph, GlyphRule, best_turn, central_and_small, central_glyphs,
                                 like_direction, off_centre_glyphs, silhouette, turned_overlaps)
from vision.qubism_plates import PlateRule
from vision.qubism_ring import RingRule, ring_glyph, ring_tops
from vision.qubism_shift import ShiftRule
from vision.read_fast import mean_var_of

FACE_SIDE = 48
"""Side of the top crop the face is measured on, pixels (the middle 32 are the face)."""
FACE_MIDDLE = 2 / 3
"""The share of the crop's side that ``top_face`` measures (its middle)."""


@dataclass(frozen=True)
class TopFace:
    """How one spot's crop in the plane of a cube's top looks (see ``top_face``)."""

    glyph_share: float
    """Share of the crop's middle in the minority (glyph) class."""
    separation: float
    """Otsu's separability of the middle: between-class variance over the total (1: two tones)."""
    contrast: float
    """Glyph against face: difference of their mean grey over the middle's mean."""
    offset: float
    """Distance of the glyph's centre from the crop's, as a share of the crop's side."""
    border: float
    """Share of the middle's border pixels that are glyph (a glyph runs out of the face)."""
    arrow: str | None
    arrow_conf: float
    glyph: CentralGlyph | None = None
    """The compact blob in its middle, whatever its print (``vision.qubism_glyph``; None: none or not looked for)."""


@dataclass(frozen=True)
class CubeTops:
    """When a crop at a cube's top height shows a cube's top (measured on two seeds of the 3-D
    scenes, 617 cubes and 1218 other spots: real tops have a glyph share of 0.20-0.26,
    separability >= 0.82, contrast >= 0.75 at the 2nd percentile; the bounds below are wider)."""

    share: tuple[float, float] = (0.12, 0.36)
    separation: float = 0.8
    contrast: float = 0.6
    offset: float = 0.135
    border: float = 0.3
    arrow_conf: float = 0.6
    """``is_cube``: all of these (a clear glyph in the middle of a plain face)."""
    bare_contrast: float = 0.35
    bare_share: float = 0.06
    bare_offset: float = 0.23
    """``is_bare``: any of these (no contrast, no glyph, or none near the middle; not the arrow's
    shape: a triangle's or a line arrow's reads unclearly, learned or not)."""
    min_score: float = 0.5
    """Spots read as empty with less occupancy evidence than this (``vision.pieces``) are not looked at."""
    marker_share: float = 0.02
    """A top crop reaching over a printed marker by more than this share of its area adds no cube."""
    most: int = 9
    """Cubes in the game (Q1)."""
    weak_conf: float = 0.55
    """A cube added from a glyph found at a threshold within a tone class or off its place
    (``vision.qubism_glyph``: ``CentralGlyph.level``, ``recentred_tops``) is reported with at most
    this confidence, under the reading's 0.6: the app asks (of 57 such additions on five rendered
    sets, 3 were no cube)."""
    glyphs: GlyphRule | None = field(default_factory=GlyphRule)
    """A cube's top whatever its print (``vision.qubism_glyph``): a compact glyph evenly surrounded
    by a plain face is a cube, its direction read from the glyph's asymmetry or asked (``cube:?``).
    None: only shaft-and-head arrows are looked for."""
    small_share: float = 0.03
    """A spot read as empty with the evidence of an occupied one (score 1 or more) whose top crop
    shows a compact glyph evenly surrounded by a plain face (``GlyphRule.is_cube``) this small or
    larger (under ``GlyphRule.share``'s lower bound: the dark half of a compass needle, a thin
    arrow) is a cube with its arrow asked (``cube:?``, at most ``weak_conf``): its top seen, its
    direction unsure (0: not looked for; see ``small_tops``)."""
    small_band: float = 0.2
    """A spot ``small_tops`` would take but for a blob's contrast, evenness or purity under ``GlyphRule``'s cut
    by less than this share of it (``faint_rule``) is a cube only where the ink of its own crop
    (``asked_arrows``, ``needle_checked``) reads its arrow; else it stays as it was: a blob's measure a
    sub-pixel move leaves on either side of a cut decides no cube by itself (0: no band; chosen on three
    rendered dev sets: squares flipping under a 0.09 mm move of the tops 35 -> 33, squares +1)."""
    bare_asked: float = 2.0
    """A spot still read as empty after the cube, plate and ink stages whose occupancy evidence is this or more (no
    cube's top found: a thin line arrow, the sticker's frame in the crop, faint edges) is asked for ``asked_arrows``
    to read its arrow on its own crop, else given back as it was (``vision.qubism_bare``; 0: not asked; at 1.0 two
    empty edge squares beside a cube read as cubes on dev 4525 and 4621, at 2.0 none)."""
    faint_offset: bool = False
    """``faint_rule`` also takes a blob up to ``small_band`` further off the middle (offset over 1 - band):
    more blobs measured (+0.18 % instructions a read with the crops ``shifted_arrows`` would not cut; off)."""
    ask_border: float = 0.4
    """A cube read with an arrow by its shape alone (no cube top learned) whose top crop shows no cube's
    top and whose glyph class reaches the crop's border this much (a side, a neighbour, glare: no glyph
    on a face) is asked (``cube:?``): of 31 such arrows on six rendered sets, 18 were wrong, 10 of the 11
    with this border (a wrong arrow is worse than a question)."""
    pawn_border: float = 0.2
    """A spot read as a pawn is a cube only if its glyph reaches the crop's border less than
    this (a pawn's own head and neck, seen from a tilted camera, can look like an arrow, but
    run out of the middle: 0.30 where two cubes read as pawns showed 0.07 and 0.10)."""
    needles: NeedleRule | None = field(default_factory=NeedleRule)
    """A cube left asked (``cube:?``) whose top crop shows an elongated glyph with one clearly darker
    end (a compass needle: ``vision.qubism_needle``) points that way. None: not looked for."""
    shifted: ShiftRule | None = field(default_factory=ShiftRule)
    """A cube still asked after ``needles``' reading whose top's ink reads one direction when cut 1.5-3 %
    of a square off its place (``vision.qubism_shift``) points that way. None: not looked for."""
    plates: PlateRule | None = field(default_factory=PlateRule)
    """A spot still read as empty with an occupied spot's evidence whose top shows a plate holding a
    glyph (``vision.qubism_plates``) is a cube, past the rules above (None: not looked for)."""
    rings: RingRule | None = field(default_factory=RingRule)
    """A spot read as empty with an occupied spot's evidence, or as a cube, whose top shows no glyph with a
    direction but a closed ring (``vision.qubism_ring``) has that ring as its glyph: a cube's top, its arrow
    the one inside the ring (None: not looked for)."""

    def glyph_like(self, f: TopFace) -> bool:
        """``is_cube`` but for the arrow (read only where this holds: it costs most)."""
        return (self.share[0] <= f.glyph_share <= self.share[1] and f.separation >= self.separation
                and f.contrast >= self.contrast and f.offset <= self.offset and f.border <= self.border)

    def is_cube(self, f: TopFace) -> bool:
        return self.glyph_like(f) and f.arrow is not None and f.arrow_conf >= self.arrow_conf

    def is_top(self, f: TopFace) -> bool:
        """A cube's top with any glyph (``glyphs``)."""
        return self.glyphs is not None and self.glyphs.is_cube(f.glyph)

    def is_bare(self, f: TopFace) -> bool:
        if self.is_top(f):
            return False
        return f.contrast < self.bare_contrast or f.glyph_share < self.bare_share or f.offset > self.bare_offset


def top_crops(image: np.ndarray, to_image: np.ndarray, centres_mm: np.ndarray, span_mm: float,
              side: int = FACE_SIDE, lens: Lens | None = None) -> np.ndarray:
    """Grey crops (values 0-1, [n, side, side]) of the plane of a cube's top, each ``span_mm``
    wide and centred on a spot (``centres_mm``, [n, 2], board mm), cut in one remap;
    ``to_image`` (3x3) takes that plane's board mm to image pixels (pinhole pixels seen
    through ``lens`` when there is one: ``BoardPose.sampling``)."""
    n = len(centres_mm)
    if n == 0:
        return np.zeros((0, side, side), np.float32)
    u = ((np.arange(side) + 0.5) / side - 0.5) * span_mm
    xs = centres_mm[:, 0, None, None] + u[None, None, :]  # [n, 1, side]
    ys = centres_mm[:, 1, None, None] + u[None, :, None]  # [n, side, 1]
    m = np.asarray(to_image, np.float64)
    mx, my = _plane_maps(m, xs, ys)
    mx, my = mx.reshape(n * side, side), my.reshape(n * side, side)
    if lens is not None:
        lx, ly = lens.distort_xy(mx, my)
        mx, my = lx.astype(np.float32), ly.astype(np.float32)
    crops = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    grey = cv2.transform(crops, np.full((1, 3), 1 / 3, np.float32)) if crops.ndim == 3 else crops
    out: np.ndarray = (np.asarray(grey, np.float32) / 255).reshape(n, side, side)
    return out


def _plane_maps(m: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the homography ``m`` (3x3) takes the grid ``xs`` ([n, 1, side]) x ``ys`` ([n, side, 1]):
    float32 [n, side, side] each, what ``((m00 xs + m01 ys + m02) / w).astype(float32)`` gives with ``w``
    (``m20 xs + m21 ys + m22``) held off zero by 1e-9, the same operations in the same order, written
    into buffers rather than a new array for each step."""
    w = np.add(m[2, 0] * xs, m[2, 1] * ys)
    w += m[2, 2]
    if not (float(w.min()) >= 1e-9 or float(w.max()) <= -1e-9):  # some |w| < 1e-9 (or NaN): as np.where did
        w = np.where(np.abs(w) < 1e-9, 1e-9, w)
    out = []
    num = np.empty_like(w)
    for r in (0, 1):
        np.add(m[r, 0] * xs, m[r, 1] * ys, out=num)
        num += m[r, 2]
        mapped = np.empty(w.shape, np.float32)
        np.divide(num, w, out=mapped, casting="same_kind")  # float64 quotients, each rounded to float32 as astype does
        out.append(mapped)
    return out[0], out[1]


def top_face(top: np.ndarray, arrow: bool = True) -> TopFace:
    """Measure a grey crop (values 0-1, square) in the plane of a cube's top, centred on a spot;
    ``arrow``: also read its arrow (``with_arrow``; the costliest part)."""
    g = np.asarray(top, np.float32)
    if g.shape != (FACE_SIDE, FACE_SIDE):
        g = np.asarray(cv2.resize(g, (FACE_SIDE, FACE_SIDE), interpolation=cv2.INTER_AREA), np.float32)
    m = int(round(FACE_SIDE * (1 - FACE_MIDDLE) / 2))
    mid = g[m:-m, m:-m]
    g8 = np.ascontiguousarray(np.clip(mid * 255, 0, 255).astype(np.uint8))
    cut, _ = cv2.threshold(g8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    light = g8 > cut
    lit = int(np.count_nonzero(light))  # a mask's mean, share and centre from whole-number counts: the same bits
    glyph = ~light if lit / light.size >= 0.5 else light
    a, b = mid[glyph], mid[~glyph]
    total = float(mid.var()) + 1e-9
    if len(a) == 0 or len(b) == 0:
        return TopFace(0.0, 0.0, 0.0, 1.0, 0.0, None, 0.0)
    within = (float(a.var()) * len(a) + float(b.var()) * len(b)) / mid.size
    c = (mid.shape[0] - 1) / 2
    at = np.arange(mid.shape[0])
    cx, cy = int(at @ glyph.sum(axis=0)) / len(a), int(at @ glyph.sum(axis=1)) / len(a)
    offset = float(np.hypot(cx - c, cy - c)) / FACE_SIDE
    edge = int(glyph[0].sum()) + int(glyph[-1].sum()) + int(glyph[:, 0].sum()) + int(glyph[:, -1].sum())
    border = edge / (2 * (glyph.shape[0] + glyph.shape[1]))
    face = TopFace(len(a) / glyph.size, float(1 - within / total),
                   float(abs(a.mean() - b.mean()) / (mid.mean() + 1 / 255)), offset, border, None, 0.0)
    return with_arrow(face, g) if arrow else face


def top_faces(tops: np.ndarray | list[np.ndarray]) -> list[TopFace]:
    """``top_face(top, arrow=False)`` of each of a frame's top crops, the same measures to the bit: the
    crops' grey levels, tones and whole-number counts (glyph share, centre, border) worked out for all
    of them at once, each crop's float means and variances as ``top_face`` sums them (``mean_var_of``)."""
    g = np.asarray(tops, np.float32)
    if not len(g) or g.ndim != 3 or g.shape[1:] != (FACE_SIDE, FACE_SIDE):
        return [top_face(t, arrow=False) for t in tops]
    m = int(round(FACE_SIDE * (1 - FACE_MIDDLE) / 2))
    mids = g[:, m:-m, m:-m]
    g8s = np.clip(mids * 255, 0, 255).astype(np.uint8)  # each crop's as top_face makes it (elementwise)
    cuts = np.array([cv2.threshold(g8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0] for g8 in g8s])
    light = g8s > cuts.astype(np.uint8)[:, None, None]  # Otsu's cuts of 8-bit crops: whole, 0-255; no cast
    side = mids.shape[1]
    size = side * side
    lit = np.count_nonzero(light, axis=(1, 2))
    glyphs = np.where((lit / size >= 0.5)[:, None, None], ~light, light)
    count = np.count_nonzero(glyphs, axis=(1, 2))
    at = np.arange(side)
    xsum, ysum = glyphs.sum(axis=1) @ at, glyphs.sum(axis=2) @ at  # whole numbers: the same as one by one
    edges = (glyphs[:, 0].sum(axis=1) + glyphs[:, -1].sum(axis=1) + glyphs[:, :, 0].sum(axis=1)
             + glyphs[:, :, -1].sum(axis=1))
    c = (side - 1) / 2
    out = []
    for k in range(len(g)):
        mid, glyph, na = mids[k], glyphs[k], int(count[k])
        mid_mean, mid_var = mean_var_of(mid)
        total = float(mid_var) + 1e-9
        if na == 0 or na == size:
            out.append(TopFace(0.0, 0.0, 0.0, 1.0, 0.0, None, 0.0))
            continue
        a_mean, a_var = mean_var_of(mid[glyph])
        b_mean, b_var = mean_var_of(mid[~glyph])
        within = (float(a_var) * na + float(b_var) * (size - na)) / size
        cx, cy = int(xsum[k]) / na, int(ysum[k]) / na
        offset = float(np.hypot(cx - c, cy - c)) / FACE_SIDE
        border = int(edges[k]) / (2 * (side + side))
        out.append(TopFace(na / size, float(1 - within / total), float(abs(a_mean - b_mean) / (mid_mean + 1 / 255)),
                           offset, border, None, 0.0))
    return out


def with_glyph(face: TopFace, top: np.ndarray, rule: GlyphRule) -> TopFace:
    """``face`` with the central glyph of its crop ``top`` found (``vision.qubism_glyph``)."""
    return with_glyphs([face], [top], rule)[0]


def with_glyphs(faces: list[TopFace], tops: list[np.ndarray] | np.ndarray, rule: GlyphRule) -> list[TopFace]:
    """``with_glyph`` of each face and its crop, the crops' glyphs found at once (``central_glyphs``)."""
    return with_glyphs_small(faces, tops, rule, rule, [False] * len(faces))[0]


def with_glyphs_small(faces: list[TopFace], tops: list[np.ndarray] | np.ndarray, rule: GlyphRule,
                      small: GlyphRule, ask: list[bool], faint: tuple[GlyphRule, list[bool]] | None = None
                      ) -> tuple[list[TopFace], list[bool]]:
    """``with_glyphs`` and, for the crops ``ask`` names, whether ``small`` takes one of their blobs for a
    cube's top, from the same labelling (``vision.qubism_glyph.central_and_small``; ``small_tops``; ``faint``:
    its rule and list marked where only that rule takes one, ``faint_rule``)."""
    gs = [np.asarray(t, np.float32) for t in tops]
    gs = [g if g.shape == (FACE_SIDE, FACE_SIDE) else
          np.asarray(cv2.resize(g, (FACE_SIDE, FACE_SIDE), interpolation=cv2.INTER_AREA), np.float32) for g in gs]
    rings = [f.separation >= rule.ring_split[0] and f.contrast >= rule.ring_split[1] for f in faces]
    glyphs, hits = central_and_small(gs, rule, rings, small, ask, faint)
    return [replace(f, glyph=g) for f, g in zip(faces, glyphs)], hits


def with_arrow(face: TopFace, top: np.ndarray) -> TopFace:
    """``face`` with the arrow of its crop ``top`` read (``vision.arrows.arrow_direction``)."""
    arrow, conf = arrow_direction(np.asarray(top, np.float32))
    return replace(face, arrow=arrow, arrow_conf=conf)


def crop_marker_share(corners_mm: np.ndarray, markers: list[tuple[float, float, float]]) -> float:
    """Share of a crop's footprint on the board (its four corners, board mm) that lies over
    the printed markers (x, y, side in mm), from its bounding box."""
    x0, y0 = corners_mm.min(axis=0)
    x1, y1 = corners_mm.max(axis=0)
    area = max(float((x1 - x0) * (y1 - y0)), 1e-6)
    over = 0.0
    for mx, my, side in markers:
        w = min(x1, mx + side) - max(x0, mx)
        h = min(y1, my + side) - max(y0, my)
        if w > 0 and h > 0:
            over += float(w * h)
    return over / area


def settle_cubes(decided: list[tuple[str | None, float]], faces: dict[int, TopFace], blocked: set[int],
                 rule: CubeTops, arrow_of: Callable[[int], tuple[str | None, float]] | None = None,
                 moved: frozenset[int] = frozenset(), small: frozenset[int] = frozenset()
                 ) -> list[tuple[int, tuple[str | None, float]]]:
    """Correct a Qubism frame's readings (in place) from its spots' top faces (see the module
    docstring): ``faces`` for the spots looked at, ``blocked`` the spots whose top crop
    reaches over a marker (no cube added there); ``arrow_of``: an added cube's arrow read
    otherwise (from learned cube tops), else its glyph's shape; ``moved``: spots whose top was found
    off its place (``recentred_tops``: added with a confidence the app asks about); ``small``: spots
    read as empty whose top shows a small glyph (``small_tops``: added as ``cube:?``, asked).
    Returns the cubes the nine-cube cap took off (spot, its cube reading), the least clear first
    (``vision.qubism_pawns.cubes_back``)."""
    added: list[int] = []
    for i, f in faces.items():
        token, conf = decided[i]
        is_cube = token is not None and token.startswith("cube")
        if token is not None and not is_cube and f.border > rule.pawn_border:
            continue  # a pawn's reading is overturned only by a clean top
        g = f.glyph
        if not is_cube and i not in blocked and rule.is_top(f) and g is not None and (
                token is None or (g.direction and g.level == 0 and not g.plate)):
            # a pawn's head is a round blob: a pawn's reading is overturned only by a glyph with a direction
            # (found at Otsu's threshold: one within a class may be a lit part of the head; not one a
            # plate holds: a lit head with a dark spot in it)
            arrow = arrow_of(i)[0] if arrow_of is not None else g.direction
            sure = float(0.5 + 0.3 * min(g.direction_conf, 1.0))
            if g.level > 0 or i in moved:  # found within a tone class or off its place: the app asks
                sure = min(sure, rule.weak_conf)
            decided[i] = (f"cube:{arrow or '?'}", sure)
            added.append(i)
        elif not is_cube and i not in blocked and rule.is_cube(f):
            arrow = arrow_of(i)[0] if arrow_of is not None else None
            decided[i] = (f"cube:{arrow or f.arrow}", float(0.5 + 0.4 * f.arrow_conf))
            added.append(i)
        elif is_cube and arrow_of is None and rule.is_top(f) and f.glyph is not None and f.glyph.direction:
            decided[i] = (f"cube:{f.glyph.direction}", conf)  # the glyph's own direction (any print)
        elif is_cube and rule.is_bare(f):
            decided[i] = (None, 0.6)
        elif (is_cube and arrow_of is None and token != "cube:?" and f.border >= rule.ask_border
              and not (rule.glyph_like(f) or rule.is_top(f))):
            decided[i] = ("cube:?", min(conf, rule.weak_conf))  # an arrow read on no face: asked, not guessed
        elif token is None and i in small and i not in blocked:
            decided[i] = ("cube:?", rule.weak_conf)  # its top seen, its glyph too small to point: asked
            added.append(i)
    if rule.glyphs is not None:
        like_cubes(decided, faces, rule.glyphs)
    cubes = [i for i, (t, _) in enumerate(decided) if t is not None and t.startswith("cube")]
    extra = len(cubes) - rule.most
    capped: list[tuple[int, tuple[str | None, float]]] = []
    if extra > 0:  # more than nine: the least clear tops go (no clear top first, then those added unsure)
        def clear(j: int) -> tuple[bool, bool, float]:
            f = faces.get(j)
            g = f.glyph if f is not None else None
            weak = j in added and (j in moved or j in small or (g is not None and g.level > 0))
            shown = f is not None and (rule.glyph_like(f) or rule.is_top(f))
            return (shown, not weak, f.arrow_conf if f is not None else 0.0)
        for i in sorted(cubes, key=clear)[:extra]:
            capped.append((i, decided[i]))
            decided[i] = (None, 0.5)
    return capped


def small_tops(tops: np.ndarray, faces: list[TopFace], rule: CubeTops) -> list[bool]:
    """Which top crops (``tops``, their ``faces`` without a cube's top) show a cube's top by a glyph
    smaller than ``GlyphRule.share`` allows, down to ``CubeTops.small_share``: a sticker's compass
    needle (its dark half alone stands out of the face), a thin arrow on a glossy or dark cube. The
    blob must still lie in the middle of a plain face, wholly surrounded by it (``GlyphRule.is_cube``):
    print, a pawn's head and a shadow's edge rarely do. Its shape is not trusted for a direction."""
    if rule.glyphs is None or rule.small_share <= 0 or not len(faces):
        return [False] * len(faces)
    small = small_rule(rule)
    return [small.is_cube(g) for g in central_glyphs(list(tops), small, [False] * len(faces))]


def small_rule(rule: CubeTops) -> GlyphRule:
    """``small_tops``' glyph rule: ``CubeTops.glyphs`` with ``GlyphRule.share``'s lower bound ``CubeTops.small_share``."""
    assert rule.glyphs is not None
    return replace(rule.glyphs, share=(rule.small_share, rule.glyphs.share[1]))


def faint_rule(rule: CubeTops) -> GlyphRule:
    """``small_rule`` with its contrast, evenness and purity cuts lowered by ``CubeTops.small_band`` (a share of
    each) and its offset's raised as much (over 1 - the band): more of a crop's blobs measured, its asked ones'."""
    small, keep = small_rule(rule), 1.0 - rule.small_band
    return replace(small, contrast=small.contrast * keep, evenness=small.evenness * keep, purity=small.purity * keep,
                   offset=small.offset / keep if rule.faint_offset else small.offset)


def like_cubes(decided: list[tuple[str | None, float]], faces: dict[int, TopFace], rule: GlyphRule) -> None:
    """Cubes read without a direction (``cube:?``) take it, in place, from the frame's cubes whose
    glyph gave one (one set of cubes shares one print: ``vision.qubism_glyph.like_direction``),
    once those agree (``agreeing_glyphs``: one the others' glyphs do not clearly back against
    those that dispute it is asked, ``cube:?``, and lends its glyph to none), and only where
    ``GlyphRule.lenders`` of them or more are left."""
    known: dict[int, np.ndarray] = {}
    for i, (t, _) in enumerate(decided):
        g = faces[i].glyph if i in faces else None
        if (t is not None and t.startswith("cube:") and t[5:] in _TURNS and g is not None and g.mask is not None
                and g.direction == t[5:]):
            known[i] = np.rot90(silhouette(g.mask), _TURNS[g.direction])
    kept = agreeing_glyphs(known, rule) if rule.agree else known
    for i in set(known) - set(kept):
        decided[i] = ("cube:?", decided[i][1])
    if len(kept) < rule.lenders:
        return  # too few glyphs to check one another: none lends its turn
    for i, (t, conf) in enumerate(decided):
        g = faces[i].glyph if i in faces else None
        if t == "cube:?" and i not in known and g is not None and g.mask is not None:
            direction, _ = like_direction(g.mask, list(kept.values()), rule)
            if direction is not None:
                decided[i] = (f"cube:{direction}", conf)


def agreeing_glyphs(known: dict[int, np.ndarray], rule: GlyphRule) -> dict[int, np.ndarray]:
    """The frame's glyphs read with a direction (spot -> its silhouette turned to point north by
    it) that agree with each other: a pair disagrees where one's silhouette, compared with the
    other's alone, is clearly like it under another turn (``like_turn``; the same turn back the
    other way round), and agrees where it is clearly like it unturned; a glyph in a disagreement is
    kept only where it agrees with more of the others than it disagrees with (two against one
    cannot tell which is right: a lens's shear turns its neighbours' tips alike). A glyph's tip read
    the wrong way (a sheared triangle, a notched tail) otherwise lends that wrong turn to every
    unclear cube like it (the second 3-D family's seed 2026, scene 91: one such glyph, four wrong
    arrows)."""
    ids = list(known)
    against: dict[int, int] = dict.fromkeys(ids, 0)
    beside: dict[int, int] = dict.fromkeys(ids, 0)
    for n, a in enumerate(ids):
        rest = ids[n + 1:]
        if not rest:
            continue
        overlaps = turned_overlaps(known[a], [known[b] for b in rest])  # like_turn with each alone, at once
        for col, b in enumerate(rest):
            turn, _ = best_turn(overlaps[:, col], rule)
            count = beside if turn == "N" else against if turn is not None else None
            if count is not None:
                count[a] += 1
                count[b] += 1
    return {i: known[i] for i in ids if beside[i] > against[i] or not against[i]}


def recentred_tops(image: np.ndarray, to_image: np.ndarray, centres_mm: np.ndarray, span_mm: float,
                   rule: GlyphRule, taken: np.ndarray,
                   lens: Lens | None = None) -> dict[int, tuple[np.ndarray, TopFace]]:
    """Spots (rows of ``centres_mm``, board mm) whose top face is seen off its place: a blob the size
    of a cube's glyph within reach of the middle of a wider crop (``off_centre_glyph``) whose top
    crop, centred there, shows a cube's top (``GlyphRule.is_cube``); not one within half a span of
    a cube already seen (``taken``: its glyph's place, board mm, [m, 2]) or of another spot's find,
    the nearest its spot kept; crops through ``lens`` when there is one. Row -> (the centre moved
    there, its top face)."""
    if not len(centres_mm) or rule.reach <= 0:
        return {}
    wide = top_crops(image, to_image, centres_mm, span_mm * WIDE, side=int(round(FACE_SIDE * WIDE)), lens=lens)
    found: list[tuple[float, int, np.ndarray]] = []
    for k, off in enumerate(off_centre_glyphs(wide, rule)):
        if off is not None:
            found.append((float(np.hypot(*off)), k, centres_mm[k] + np.array(off) * span_mm))
    if not found:
        return {}
    moved = np.array([c for _, _, c in found])
    tops = top_crops(image, to_image, moved, span_mm, lens=lens)
    out: dict[int, tuple[np.ndarray, TopFace]] = {}
    places = [np.asarray(p, np.float64) for p in taken]
    ranked = sorted(zip(found, tops), key=lambda f: f[0][0])
    faces = with_glyphs(top_faces([top for _, top in ranked]), [top for _, top in ranked], rule)
    for ((far, k, centre), top), face in zip(ranked, faces):
        if not rule.is_cube(face.glyph) or any(float(np.hypot(*(centre - p))) < span_mm / 2 for p in places):
            continue
        out[k] = (centre, face)
        places.append(centre)
    return out


def moved_tops(image: np.ndarray, to_image: np.ndarray, look: list[int], centres_mm: np.ndarray,
               decided: list[tuple[str | None, float]], faces: dict[int, TopFace], span_mm: float,
               rule: CubeTops, lens: Lens | None = None) -> dict[int, np.ndarray]:
    """A frame's spots (``look``, their centres ``centres_mm``) read as empty whose cube top is seen
    off its place (``recentred_tops``): their faces replaced (in place); spot -> the top's centre, board mm."""
    if rule.glyphs is None:
        return {}
    cubes = [k for k, i in enumerate(look) if str(decided[i][0]).startswith("cube") or rule.is_top(faces[i])]
    empty = [k for k, i in enumerate(look) if decided[i][0] is None and k not in cubes]
    found = recentred_tops(image, to_image, centres_mm[empty], span_mm, rule.glyphs, centres_mm[cubes], lens)
    out: dict[int, np.ndarray] = {}
    for n, (centre, face) in found.items():
        i = look[empty[n]]
        faces[i], out[i] = face, centre
    return out


def with_rings(faces: dict[int, TopFace], look: list[int], tops: np.ndarray, decided: list[tuple[str | None, float]],
               score: np.ndarray, rule: CubeTops, looked: list[tuple[str | None, float]] | None = None) -> None:
    """The spots of ``look`` (their top crops ``tops``) read as empty with an occupied spot's evidence
    (score 1 or more) or as a cube, whose crop shows no glyph with a direction, looked at for a
    closed ring (``ring_tops``): where one shows, their face's glyph is the ring's (``ring_glyph``), in place,
    unless the ring's arrow gives no direction and the face showed a cube's top already. A faint ring
    (``RingRule.grid_cover``) is looked for only where the looks read a piece (``looked``, the readings before the
    piece count; None: everywhere): on the three second-family dev sets none of the spots the looks read as empty
    showed one (405 crops the search had found no ring on; session 27, qempty2)."""
    if rule.rings is None or rule.glyphs is None:
        return
    ask = []
    for k, i in enumerate(look):
        token, g = decided[i][0], faces[i].glyph
        if token is None and score[i] < 1 or token is not None and not token.startswith("cube"):
            continue
        if g is None or g.direction is None:  # a glyph that points keeps its reading (and its vote: like_cubes)
            ask.append(k)
    grid = None if looked is None else [looked[look[k]][0] is not None for k in ask]
    for k, found in zip(ask, ring_tops(tops[ask], rule.rings, grid)):
        if found is None:
            continue
        ring = ring_glyph(tops[k], found, rule.glyphs)
        if ring.direction is not None or not rule.is_top(faces[look[k]]):  # a top seen already keeps its glyph
            faces[look[k]] = replace(faces[look[k]], glyph=ring)
