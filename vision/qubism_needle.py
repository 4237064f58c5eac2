"""A Qubism cube's arrow read where its glyph's outline gives no direction (a stage of
``vision.qubism_read``'s cube reading): the darker end of an elongated two-tone glyph.

A compass needle printed on a cube's sticker is a slim rhombus, one half dark, the other pale
(lighter than the ink, darker than the paper): its outline is the same both ways, so the
outline readers (``vision.qubism_glyph.glyph_direction``, ``vision.arrows``) cannot tell its ends
apart, and its dark half alone is too small a glyph to trust. What every such arrow shares is
an axis (the glyph's long axis) and an end that is clearly darker than the other, whatever the
cube's material, the light or the camera. ``needle_direction`` reads that in a top crop (the
plane of a cube's top seen through the pose and the lens, rectified: ``vision.qubism_read``'s
``top_crops``): the glyph is the connected part darker than the face around it in the crop's
middle; its principal axis must be clearly long (``NeedleRule.elongation``) and near one of the
board's two axes (``NeedleRule.turn``); each half's ink is measured against the face beside that
half (a shadow or a light band across the face darkens both alike), and the direction is the end
whose ink is darker by ``NeedleRule.end_margin`` of the face-to-ink range or more. An arrow of one
ink (a block arrow, a triangle) has no darker end: it is read along its mirror axis
(``vision.qubism_axis.axis_direction``), else by the way its strokes sweep back from its shaft (``sweep_direction``), or
None: the caller asks (``cube:?``). A spot read as a pawn whose top shows a line arrow is that cube
(``pawn_lines``). A needle whose crop shows no glyph apart at the one threshold is read at stricter ones
(``strict_needle``, ``NeedleRule.strict``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision import qubism_ink as qink
from vision.qubism_axis import _COMPASS, AxisRule, SweepRule, axis_direction, sweep_direction, thick_enough
from vision.qubism_bare import cube_count
from vision.qubism_glyph import GlyphRule
from vision.qubism_ink import _quantile
from vision.read_fast import mean_of

__all__ = ["AxisRule", "NeedleRule", "SweepRule", "asked_arrow", "asked_arrows", "axis_direction", "central_ink",
           "line_arrow", "needle_checked", "needle_direction", "pawn_lines", "plate_ink", "strict_needle",
           "sweep_direction", "thick_enough"]
"""``AxisRule``, ``SweepRule``, ``axis_direction``, ``sweep_direction`` and ``thick_enough`` live in
``vision.qubism_axis`` (split from this module in session 32) and are named here as before."""


@dataclass(frozen=True)
class NeedleRule:
    """When a top crop's glyph is a two-tone needle, and how clearly its darker end must show."""

    inset: int = 6
    """Pixels of a 48-pixel top crop's border left out (the face's edge, the print beyond it)."""
    ink: float = 0.2
    """A pixel is glyph where it is darker than the face by this share of the face-to-darkest range."""
    min_range: float = 0.2
    """Face minus darkest ink (grey 0-1) below this: no glyph to read."""
    share: tuple[float, float] = (0.025, 0.2)
    """The glyph's area over the crop's area."""
    offset: float = 0.15
    """Its centre's distance from the crop's centre, as a share of the crop's side, at most."""
    elongation: float = 2.0
    """Its long axis's spread over its short axis's (square roots of the eigenvalues) at least."""
    turn: float = 25.0
    """Its long axis within this many degrees of one of the board's axes."""
    end_margin: float = 0.22
    """One half's ink darker than the other's by this much, each as a share of the face beside it
    (Weber contrast: the same under a shadow or a light band; measured on the six 3-D sets: needles
    0.25-0.5, every end read the wrong way 0.09 or less)."""
    axis: AxisRule = field(default_factory=AxisRule)
    """How a one-ink glyph's direction is read along its mirror axis (``axis_direction``)."""
    plate_shrink: int = 2
    """``plate_ink``: pixels the sticker's outline (its light part's convex hull) is shrunk by before the
    ink inside it is taken (a thin arrow's ends touch the sticker's edge; 0: ``plate_ink`` not used)."""
    plate_purity: float = 0.8
    """``plate_ink``: the share of a ring around the ink that must be sticker (not ink): a glyph on a
    plate, not an edge or a line running out of it."""
    sweep: SweepRule | None = field(default_factory=SweepRule)
    """Where no mirror axis is clear, the ink read by the way its strokes sweep back (``sweep_direction``;
    None: not read so)."""
    pawn_lines: bool = True
    """``needle_checked`` also turns a spot read as a pawn whose top shows a line arrow (``line_arrow``) into
    that cube: a pawn's head is no thin print whose strokes sweep back."""
    line_conf: float = 0.6
    """The confidence of a cube read so (the reading's threshold: its arrow read clearly, not asked)."""
    most: int = 9
    """Cubes in the game (Q1): no pawn is turned into a cube beyond them."""
    own_read: bool = True
    """``pawn_lines`` does not look at a cube read unsurely whose direction its own glyph gave (its top's print
    is the glyph reader's compact blob, not thin strokes; ``needle_checked`` leaves such a cube as it is too):
    on the dev sets third 4252, second 3252 and first 2252 none of 256 such cubes showed its arrow as a line
    (the same reads), and on 2252 they were 181 of the 196 unsure cubes whose top's ink was found for it."""
    checked: bool = True
    """``needle_checked`` also checks a cube's direction read by a shape reader against the arrow its top
    shows read along its mirror axis (``asked_arrow``'s ink path), not only against a needle's darker end."""
    agreed: bool = True
    """That check skips the mirror axis (2 ms a cube) where the strokes' sweep (``sweep_direction``) reads the
    direction the cube has: a shape reader and the sweep agree (dev third 4252: 184 of 208 checks; on 4252,
    second 3252 and first 2252 no cube so skipped read another way along its axis)."""
    own_checked: bool = True
    """That check (``needle_checked``) also covers a cube whose direction its own glyph gave
    (``vision.qubism_glyph.glyph_direction``: a tip, an apex, the widest end): where the top's ink reads
    another way (a needle's darker end, its mirror axis, its strokes' sweep), the ink's is taken. Measured on
    the top crops of the 1,213 cubes read with a direction on the dev sets third 4250 and 4252, second 3252 and
    first 2250, each cut at its place and moved 1.5 % and 3 % of a square along each axis (10,917 crops,
    ``/tmp/s25-qarrow/shift.py``): the ink read 7,858 of them, 5 the wrong way (none at a cube's place); the
    glyph 5,984, 62 wrong (8 at the place); the shape reader (``vision.arrows``) all, 4,789 wrong. Where glyph
    and ink both read a cube at its place they differed on 4 cubes, the ink right on all 4. False: a cube read
    from its own glyph is left as it is (before session 25)."""
    own_sure: float = 0.6
    """That check of a cube its own glyph read with this confidence or more (the reading's threshold for an arrow
    read clearly, as ``line_conf``) is a needle's darker end only, not the ink's mirror axis nor its strokes' sweep
    (the mirror axis: 3.4 M instructions a call, replayed): on the dev sets third 4250 and 4252, second 3253 and
    first 2252 such cubes were read along their mirror axis 169 times and none changed; the 2 own-glyph cubes that
    check corrected (4250) were read at 0.53 and 0.55 (``/tmp/s28-qspeed3/needcat.py``). Above 1: every such cube
    read so (sessions 25-27)."""
    moved_ink: bool = True
    """A cube whose top was found off its place (``moved``: its direction the glyph found there gave) whose crop
    at its place shows ink read clearly (``asked_arrow`` without a mask: a needle's darker end, the mirror axis,
    the strokes' sweep) takes that direction, in ``asked_arrows`` (asked) and ``needle_checked`` (read): the
    third family's dev 4612 read 5 block arrows on lacquer cubes under green tubes the other way round by the
    glyph found off the place; of its 33 such cubes the ink at the place read 28, all right (session 31,
    qarrow). False: a moved cube is read by its glyph alone (before session 31)."""
    flat: int = 7
    """A cube still asked whose crop shows no ink at one threshold (``TopInks.ink``: none in its middle nor on its
    sticker) is read once more on its crop over the paper's local light
    (``vision.qubism_ink.flat_line_ink``, a max filter this many pixels wide), its ink's mirror axis or strokes'
    sweep taken only where that ink is thin strokes (``AxisRule.thin``): a fletched arrow on a sticker lit
    unevenly or crossed by a shadow's edge. On the cube crops of dev 4611 and 4612 the ink read nothing on, it read
    8 fletched arrows, all right, and no block arrow or needle (both hollowed by it); 0: not read (session 31,
    qarrow)."""
    flat_median: bool = True
    """Where that reads nothing, the crop over its local median (``vision.qubism_ink.median_flattened``, ``flat``
    wide: a shadow's edge across the sticker, which the max filter leaves as a band joined to the arrow), its thin
    ink taken only where its mirror axis and its strokes' sweep agree. On the cube crops of dev 4611, 4612 and
    3611 the ink read nothing on it read 23 fletched arrows, all right (11 of them asked), no other print; read by
    its axis, else its sweep (as ``_ink_direction``), 4 crops the wrong way (two block arrows, two fletched)
    (session 31, qarrow)."""
    plate_needle: bool = True
    """A crop whose middle shows no glyph apart (``central_ink``: a needle's tip joins the cube's darker face at
    its sticker's edge) has the ink on its sticker (``plate_ink``) read as a needle too (``needle_direction``'s
    darker end; a one-ink arrow cut at the sticker shows none). On the cube crops of dev 4611 and 4612 it read 5
    needles, all right, and no other print (session 31, qarrow). False: the sticker's ink is read along its axis
    only (before session 31)."""
    strict: tuple[float, ...] = (0.3, 0.4, 0.5)
    """A cube whose crop shows no needle at ``ink`` is read as a needle (its darker end, ``_needle`` of its
    ``central_ink``, else of its ``plate_ink``) with ``ink`` at each of these shares, taken where every share that
    shows an end shows the same (``strict_needle``): on a grey sticker a needle's pale half is darker than the
    sticker and its tip reaches the sticker's edge, so at ``ink`` the needle is joined to the cube's face around
    the sticker (no glyph apart, no ink read), while a stricter threshold leaves it alone. Read so: a cube still
    asked whose crop shows no needle at ``ink`` (``asked_arrows``, before its outline's readers: they read a
    needle's halves backwards), and a cube read with a direction whose crop has no ink at ``ink`` or which
    ``asked_arrows`` read so (``needle_checked``; a top found off its place at its place, with ``moved_ink``).
    Its mirror axis and strokes' sweep are never read at these shares. Offline on the top crops of every cube of
    17 dev sets (third 3611, 3615, 4561, 4562, 4611, 4612, 4615, 4616, 4621, 4625, 4681; second 3521, 3525,
    3555, 3621, 3625, 3681; ``/tmp/s32-qarrow/proto3.py``): of 4,959 cubes read right it read 678 the same and
    1 the other way (a ring print), of 104 asked 24, all right, of 54 read another way 15 right, none wrong; in
    the frames whose cubes show a needle at ``ink`` alone (``_needle_frame``, as read): 672 the same, none the
    other way, 24 asked and 14 another way right. Under a light gradient falling to 75 % across the crop one share
    read a drawn needle's other end (the sticker's darker edge joined to it), hence the agreement (session 32,
    qarrow). (): not read so."""


_GRIDS: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _grid(shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices of an array of ``shape`` (float32, kept per shape)."""
    if shape not in _GRIDS:
        rows, cols = np.indices(shape, dtype=np.float32)
        _GRIDS[shape] = (rows, cols)
    return _GRIDS[shape]


def central_ink(top: np.ndarray, rule: NeedleRule = NeedleRule()) -> tuple[np.ndarray, np.ndarray] | None:
    """The glyph in a grey top crop's middle (values 0-1, square): the largest connected part darker
    than the face (the 75th percentile of the inner square's middle two thirds) by ``NeedleRule.ink`` of the
    face-to-darkest range, within its share and offset, not touching the inner square's border.
    Returns (its mask, uint8 0/1 over the inner square; the inner square), or None."""
    return qink.central_ink(top, rule)


def plate_ink(top: np.ndarray, rule: NeedleRule = NeedleRule()) -> tuple[np.ndarray, np.ndarray] | None:
    """The glyph printed on a sticker (a plate lighter than its ink) in a grey top crop where
    ``central_ink`` finds none because the ink runs out to the sticker's edge (a thin arrow's ends
    within a pixel or two of it, joined to the cube's darker face around the sticker): the ink
    (``central_ink``'s threshold) inside the convex hull of the light part over the crop's middle,
    the hull shrunk by ``NeedleRule.plate_shrink`` pixels; its largest part within ``central_ink``'s
    share and offset, wholly surrounded by the plate (``NeedleRule.plate_purity``). Returns (its mask,
    uint8 0/1 over the inner square; the inner square), or None."""
    return qink.plate_ink(top, rule)


def needle_direction(top: np.ndarray, rule: NeedleRule = NeedleRule()) -> tuple[str | None, float]:
    """N/E/S/W of a two-tone needle in a grey top crop (values 0-1, square; see the module
    docstring) and the margin between its ends' ink; (None, margin) where no needle is clear."""
    return _needle(central_ink(top, rule), rule)


def _needle(found: tuple[np.ndarray, np.ndarray] | None, rule: NeedleRule) -> tuple[str | None, float]:
    """``needle_direction`` of a crop's ``central_ink``."""
    if found is None:
        return None, 0.0
    glyph, inner = found
    ys, xs = np.nonzero(glyph)  # (mean_of: ``.mean()`` bit for bit, without its argument handling)
    mid = (float(mean_of(xs)), float(mean_of(ys)))
    dx, dy = xs - mid[0], ys - mid[1]
    sxx, syy, sxy = float(mean_of(dx * dx)), float(mean_of(dy * dy)), float(mean_of(dx * dy))
    half, gap = (sxx + syy) / 2, float(np.hypot((sxx - syy) / 2, sxy))
    if half - gap <= 0 or float(np.sqrt((half + gap) / (half - gap))) < rule.elongation:
        return None, 0.0
    theta = 0.5 * float(np.arctan2(2 * sxy, sxx - syy))  # the long axis (the covariance's first eigenvector)
    axis = (float(np.cos(theta)), float(np.sin(theta)))
    heading = float(np.degrees(theta)) % 180
    if min(heading % 90, 90 - heading % 90) > rule.turn:
        return None, 0.0  # a cube turned half way between two directions
    # each half of the crop (across the glyph's middle, perpendicular to its axis): its ink against its own face
    gy, gx = _grid(inner.shape)
    along = (gx - mid[0]) * axis[0] + (gy - mid[1]) * axis[1]
    ink_px = glyph > 0
    near = cv2.dilate(glyph, np.ones((3, 3), np.uint8), iterations=2) > 0
    darkness = []
    for side in (along > 0, along < 0):
        ink, paper = inner[ink_px & side], inner[side & ~near]
        if len(ink) < 4 or len(paper) < 8:
            return None, 0.0
        darkness.append(1 - float(mean_of(ink)) / max(_quantile(paper, 0.75), 1e-3))
    margin = darkness[0] - darkness[1]
    if abs(margin) < rule.end_margin:
        return None, abs(margin)
    sign = 1.0 if margin > 0 else -1.0
    angle = float(np.degrees(np.arctan2(sign * axis[1], sign * axis[0]))) % 360
    direction = min(_COMPASS, key=lambda d: min(abs(angle - d[1]), 360 - abs(angle - d[1])))[0]
    return direction, abs(margin)


def asked_arrow(top: np.ndarray | None, mask: np.ndarray | None, glyph: GlyphRule,
                rule: NeedleRule = NeedleRule()) -> str | None:
    """The direction of a cube read without one, where its top shows it clearly: a two-tone needle's
    darker end (``needle_direction``), else along its mirror axis the glyph found for it (``mask``, the
    crop's inner square, as ``vision.qubism_glyph``'s) or else the ink in the crop's middle
    (``central_ink``, else the ink on its sticker: ``plate_ink``; ``axis_direction``); where neither
    axis is clear, by the way the ink's strokes sweep back (``sweep_direction``, ``NeedleRule.sweep``);
    ``top``: its top crop (None: the crop at the spot is not that top's, only ``mask`` is read). None
    where none is clear."""
    return _asked(None if top is None else qink.TopInks(np.asarray(top)[None], rule), 0, mask, glyph, rule)


def _asked(inks: qink.TopInks | None, k: int, mask: np.ndarray | None, glyph: GlyphRule, rule: NeedleRule) -> str | None:
    """``asked_arrow`` of crop ``k`` of a frame's ``inks`` (None: no crop, the glyph's ``mask`` alone)."""
    needle = _needle_of(inks, k, rule)[0] if inks is not None else None
    if needle is not None:
        return needle  # a two-tone needle's outline has no end of its own to check it against
    if mask is not None and np.any(mask):
        direction = axis_direction(mask, glyph, rule.axis)[0]
        if direction is not None or inks is None:
            return direction
        return _sweep_of(inks, k, rule)  # its ink by its strokes alone (along its axis a cut arrow's ends look alike)
    return _ink_direction(inks, k, glyph, rule) if inks is not None else None


def _ink_direction(inks: qink.TopInks, k: int, glyph: GlyphRule, rule: NeedleRule) -> str | None:
    """The direction of crop ``k``'s ink (``TopInks.ink``: its ``central_ink``, else the ink on its sticker,
    ``plate_ink``: the ink runs out to the sticker's edge), read along its mirror axis only (a glyph cut short
    may show a darker end: ``axis_direction``), else by the way its strokes sweep back (``sweep_direction``,
    ``NeedleRule.sweep``). None where none is clear."""
    if inks.ink(k) is None:
        return None
    direction = _axis_of(inks, k, glyph, rule)
    return _sweep_of(inks, k, rule) if direction is None else direction


def _moved_of(inks: qink.TopInks, k: int, glyph: GlyphRule, rule: NeedleRule) -> str | None:
    """The direction the ink of crop ``k`` reads clearly (``_asked`` without a glyph's mask) for a top found off its
    place (``NeedleRule.moved_ink``), read once a frame for each glyph rule: ``asked_arrows`` and ``needle_checked``
    both ask for it (session 31's review: it was read twice)."""
    if (k, glyph) not in inks.moved:
        inks.moved[k, glyph] = _asked(inks, k, None, glyph, rule)
    return inks.moved[k, glyph]


def _needle_of(inks: qink.TopInks, k: int, rule: NeedleRule) -> tuple[str | None, float]:
    """``needle_direction`` of crop ``k`` (``_needle`` of its ``central_ink``), read once a frame."""
    if k not in inks.needles:
        central = inks.central(k)
        inks.needles[k] = _needle(inks.ink(k) if central is None and rule.plate_needle else central, rule)
    return inks.needles[k]


def _sweep_of(inks: qink.TopInks, k: int, rule: NeedleRule) -> str | None:
    """``sweep_direction`` of crop ``k``'s ink (``TopInks.ink``; None: no ink, or ``NeedleRule.sweep`` None),
    read once a frame."""
    if k not in inks.sweeps:
        ink = inks.ink(k)
        inks.sweeps[k] = None if ink is None or rule.sweep is None else sweep_direction(ink[0], rule.sweep)
    return inks.sweeps[k]


def _axis_of(inks: qink.TopInks, k: int, glyph: GlyphRule, rule: NeedleRule) -> str | None:
    """``axis_direction`` of crop ``k``'s ink (``TopInks.ink``, not None), read once a frame for each glyph rule."""
    if (k, glyph) not in inks.axes:
        ink = inks.ink(k)
        assert ink is not None
        inks.axes[k, glyph] = axis_direction(ink[0], glyph, rule.axis)[0]
    return inks.axes[k, glyph]


def asked_arrows(decided: list[tuple[str | None, float]], look: list[int], tops: np.ndarray,
                 masks: dict[int, np.ndarray | None], moved: frozenset[int], glyph: GlyphRule,
                 rule: NeedleRule, inks: qink.TopInks | None = None) -> None:
    """A frame's cubes read without a direction (``cube:?``) take, in place, ``asked_arrow``'s where it
    is clear, their confidence unchanged: ``tops[k]`` is spot ``look[k]``'s top crop, ``masks`` the
    glyph found for a spot (``vision.qubism_glyph.CentralGlyph.mask``); a spot whose top was found off
    its place (``moved``: its crop at the spot is not that top's) is read by its glyph alone, unless its crop at
    its place shows ink read clearly (``NeedleRule.moved_ink``: that is taken first). A crop that shows no needle
    at ``NeedleRule.ink`` is read as a needle at stricter shares before its outline's readers
    (``NeedleRule.strict``). ``inks``: the crops' ink as the frame's later checks read it (``needle_checked``:
    found once)."""
    inks = qink.TopInks(tops, rule) if inks is None else inks
    needles: list[bool] = []  # whether the frame's cubes show a needle (_needle_frame), found when first asked
    for k, i in enumerate(look):
        token, conf = decided[i]
        if token != "cube:?":
            continue
        direction = None
        if i in moved and rule.moved_ink:  # its top off its place: the ink at its place first
            direction = _moved_of(inks, k, glyph, rule)
        if direction is None and rule.strict and (i not in moved or rule.moved_ink) and _needle_of(inks, k, rule)[0] is None \
                and _needle_frame(needles, decided, look, moved, inks, rule):
            direction = _strict_of(inks, k, rule)  # a needle at a stricter threshold, before its outline's reads
        if direction is None:
            direction = _asked(None if i in moved else inks, k, masks.get(i), glyph, rule)
        if direction is None and i not in moved and rule.flat > 0 and inks.ink(k) is None:  # no ink at one threshold
            flat = qink.flat_line_ink(tops[k], rule, rule.flat, rule.axis.thin)
            direction = None if flat is None else _ink_direction(flat, 0, glyph, rule)
            if direction is None and rule.flat_median:  # a shadow's edge across it: over the local median
                flat = qink.flat_line_ink(tops[k], rule, rule.flat, rule.axis.thin, median=True)
                if flat is not None:  # flat_line_ink found its thin ink
                    axis = _axis_of(flat, 0, glyph, rule)
                    direction = axis if axis is not None and axis == _sweep_of(flat, 0, rule) else None
        if direction is not None:
            decided[i] = (f"cube:{direction}", conf)


def _needle_frame(known: list[bool], decided: list[tuple[str | None, float]], look: list[int], moved: frozenset[int],
                  inks: qink.TopInks, rule: NeedleRule) -> bool:
    """Whether a frame's cubes are needles: a crop of a cube (asked or read; not one found off its place) shows a
    needle's darker end at ``NeedleRule.ink`` (``_needle_of``: the reads ``asked_arrows`` and ``needle_checked``
    make of those crops, found once). A game's cubes are printed alike; on the 17 dev sets of ``NeedleRule.strict`` 104 of the
    105 frames of needle prints showed one and 4 of 609 other frames did. ``known``: the answer once found (the
    caller's, per stage: [] until then)."""
    if not known:
        known.append(any(decided[i][0] is not None and decided[i][0].startswith("cube:") and i not in moved
                         and _needle_of(inks, k, rule)[0] is not None for k, i in enumerate(look)))
    return known[0]


def strict_needle(top: np.ndarray, rule: NeedleRule = NeedleRule()) -> str | None:
    """N/E/S/W of a two-tone needle in a grey top crop read at each of ``NeedleRule.strict``'s stricter ink shares
    (a darker end: ``_needle`` of its ``central_ink``, else of its ``plate_ink``): the end every share that shows
    one reads; None where none shows one or two read opposite ends."""
    return _strict_of(qink.TopInks(np.asarray(top)[None], rule), 0, rule)


def _strict_of(inks: qink.TopInks, k: int, rule: NeedleRule) -> str | None:
    """``strict_needle`` of crop ``k`` of a frame's ``inks``, read once a frame."""
    if k not in inks.strict:
        top, ends = inks.tops[k], set()
        for dark in qink.stricter_darks(top, rule, rule.strict):  # (central_ink, plate_ink and _needle read no ink share)
            central = qink.central_ink(top, rule, dark)
            ends.add(_needle(qink.plate_ink(top, rule, dark) if central is None and rule.plate_needle else central,
                             rule)[0])
        ends.discard(None)
        inks.strict[k] = ends.pop() if len(ends) == 1 else None  # two levels reading opposite ends: none
    return inks.strict[k]


def needle_checked(decided: list[tuple[str | None, float]], look: list[int], tops: np.ndarray,
                   own: dict[int, str | None], moved: frozenset[int], rule: NeedleRule,
                   glyph: GlyphRule | None = None, inks: qink.TopInks | None = None) -> None:
    """A frame's cubes read with a direction by something other than their own glyph (``own``: the
    direction the glyph found for a spot gave, ``vision.qubism_glyph.CentralGlyph.direction``; with
    ``NeedleRule.own_checked``, those their own glyph read too) whose
    top crop (``tops[k]``, spot ``look[k]``) shows a two-tone needle clearly take, in place, its darker
    end's direction (``needle_direction``), their confidence unchanged: a needle's outline is the same
    both ways, so a shape reader (``vision.arrows``) guesses its end (the third family's 4026 and the
    held-out 4191 and 4201: 4 such arrows wrong, the needle right on all 146 it read). Where no needle
    shows, with ``NeedleRule.checked``, the arrow read along its mirror axis in the ink of the top's middle
    or its sticker (``asked_arrow`` without a glyph's mask; ``glyph`` reads it, default ``GlyphRule()``)
    decides the same way: a fletched arrow's tail feathers are a second head to a shape reader (the third
    family's 4252: 6 arrows read the wrong way by ``vision.arrows``, all six read right along their
    axis; on its 333 cube tops that read gave 299 right, 34 none, none wrong). A spot whose top was
    found off its place (``moved``) takes the ink at its place where that reads clearly (``NeedleRule.moved_ink``),
    else is left as it is; one its own glyph read clearly (``NeedleRule.own_sure``) is
    checked by a needle's darker end only. A crop with no ink at ``NeedleRule.ink``, or one ``asked_arrows`` read
    so, is checked by a needle's darker end at stricter shares (``NeedleRule.strict``). First, with
    ``NeedleRule.pawn_lines``, a spot read
    as a pawn whose top shows a line arrow is that cube (``pawn_lines``). ``inks``: the crops' ink as the
    frame's ``asked_arrows`` found it (each crop's found once, ``vision.qubism_ink.TopInks``)."""
    inks = qink.TopInks(tops, rule) if inks is None else inks
    if rule.pawn_lines:
        pawn_lines(decided, look, tops, moved, rule, inks, own)
    needles: list[bool] = []  # whether the frame's cubes show a needle (_needle_frame), found when first asked
    for k, i in enumerate(look):
        token, conf = decided[i]
        if token is None or not token.startswith("cube:") or token == "cube:?":
            continue
        if i in moved:  # its top found off its place, read by the glyph there: the ink at its place decides
            direction = _moved_of(inks, k, glyph or GlyphRule(), rule) if rule.moved_ink else None
            if direction is None and rule.moved_ink and rule.strict and (inks.ink(k) is None or k in inks.strict) \
                    and _needle_frame(needles, decided, look, moved, inks, rule):
                direction = _strict_of(inks, k, rule)  # a needle at a stricter threshold at its place
            if direction is not None and direction != token[5:]:
                decided[i] = (f"cube:{direction}", conf)
            continue
        if own.get(i) == token[5:] and not rule.own_checked:
            continue  # read from its own glyph's shape (NeedleRule.own_checked: checked like any other)
        direction = _needle_of(inks, k, rule)[0]  # needle_direction(tops[k], rule)
        if direction is None and rule.strict and (inks.ink(k) is None or k in inks.strict) \
                and _needle_frame(needles, decided, look, moved, inks, rule):
            direction = _strict_of(inks, k, rule)  # no ink apart at ink, or read so in asked_arrows: a needle's end
        sure = own.get(i) == token[5:] and conf >= rule.own_sure  # its own glyph read it clearly: its needle only
        if direction is None and rule.checked and not sure and inks.ink(k) is not None:  # as asked_arrow(tops[k], None, ...)
            sweep = _sweep_of(inks, k, rule)
            if rule.agreed and sweep == token[5:]:
                continue  # two readers agree: the mirror axis (the check's cost) is not read
            direction = _axis_of(inks, k, glyph or GlyphRule(), rule)
            if direction is None:
                direction = sweep
        if direction is not None and direction != token[5:]:
            decided[i] = (f"cube:{direction}", conf)


def line_arrow(top: np.ndarray, rule: NeedleRule = NeedleRule()) -> str | None:
    """N/E/S/W of a line arrow printed on a cube's top in a top crop: the ink in its middle or on its sticker
    (``central_ink``, ``plate_ink``) drawn in thin strokes (its pixels' mean distance to its edge under
    ``AxisRule.thin``, as ``thick_enough`` measures) whose strokes sweep back (``sweep_direction``). None
    where there is no such ink: a pawn's head or body is a blob, not strokes (on the dev sets third 4252,
    first 2252, second 3252 and 3253, no pawn's top crop read so; 6 of 8 cubes read as pawns on 4252 did,
    all six the right way)."""
    return _line(qink.TopInks(np.asarray(top)[None], rule), 0, rule)


def _line(inks: qink.TopInks, k: int, rule: NeedleRule) -> str | None:
    """``line_arrow`` of crop ``k`` of a frame's ``inks`` (its ink read: ``central_ink``, else ``plate_ink``)."""
    ink = inks.ink(k)
    if ink is None or rule.sweep is None or rule.axis.thin <= 0:
        return None
    depth = cv2.distanceTransform(cv2.copyMakeBorder(ink[0], 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0), cv2.DIST_L2, 3)
    inside = depth[depth > 0]
    if not len(inside) or float(mean_of(inside)) >= rule.axis.thin:
        return None
    return _sweep_of(inks, k, rule)


def pawn_lines(decided: list[tuple[str | None, float]], look: list[int], tops: np.ndarray,
               moved: frozenset[int], rule: NeedleRule, inks: qink.TopInks | None = None,
               own: dict[int, str | None] | None = None) -> list[int]:
    """A frame's spots read as a pawn whose top crop (``tops[k]``, spot ``look[k]``; not one found off its
    place, ``moved``) shows a line arrow (``line_arrow``) are that cube, in place, with
    ``NeedleRule.line_conf``, while the frame has fewer than ``NeedleRule.most`` cubes (Q1): the third
    family's acrylic and lacquer cubes with fletched arrows look like a white pawn to the spot's look. A
    cube read less surely whose top shows its own arrow so is as sure (a pawn's head is no line arrow:
    ``vision.qubism_pawns.pawns_back`` puts a pawn the look saw there back only on a cube read unsurely),
    but not one whose direction its own glyph gave (``own``, as ``needle_checked``'s; ``NeedleRule.own_read``).
    ``inks``: the crops' ink where the caller keeps it (``needle_checked``). Returns the spots changed."""
    inks = qink.TopInks(tops, rule) if inks is None else inks
    out: list[int] = []
    for k, i in enumerate(look):
        token, conf = decided[i]
        pawn = token is not None and token.startswith("pawn")
        if token is None or i in moved or not (pawn or (token.startswith("cube:") and conf < rule.line_conf)):
            continue
        if pawn and cube_count(decided) >= rule.most:
            continue
        if not pawn and rule.own_read and own is not None and own.get(i) == token[5:]:
            continue  # its own glyph read it (needle_checked leaves it so too)
        direction = _line(inks, k, rule)
        if direction is not None and (pawn or token[5:] == direction):
            decided[i] = (f"cube:{direction}", rule.line_conf)
            out.append(i)
    return out
