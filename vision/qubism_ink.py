"""The ink of a Qubism cube's top crop, found once a frame (a helper of ``vision.qubism_needle``).

A top crop's ink is read by several of the cube stage's checks in turn (``asked_arrows``, then
``needle_checked`` and its ``pawn_lines``: a needle's darker end, the mirror axis, the strokes' sweep, a
line arrow on a pawn's spot). Each used to find it again: the face's level (two percentiles), the
threshold, the connected parts, and where the middle held none the sticker's outline (``plate_ink``).
``dark_ink`` thresholds a crop once for both ``central_ink`` and ``plate_ink``, and ``TopInks`` keeps a
frame's answers per spot (and what the checks read from them), so that each is found once however many
checks ask: the same answers, found once (docs/readme/board.md, "Qubism's reads as fast as before").
"""

from __future__ import annotations

from typing import Protocol

import cv2
import numpy as np

from vision.read_fast import mean_of

_Ink = tuple[np.ndarray, np.ndarray]
"""A glyph's ink found in a top crop: its mask (uint8 0/1 over the inner square) and the inner square."""
_Dark = tuple[np.ndarray, np.ndarray, int]
"""A crop thresholded (``dark_ink``): its inner square (float32), the ink's mask (uint8 0/1), the middle's inset."""


class InkRule(Protocol):
    """What finding a crop's ink reads of ``vision.qubism_needle.NeedleRule`` (see its fields)."""

    @property
    def inset(self) -> int: ...
    @property
    def ink(self) -> float: ...
    @property
    def min_range(self) -> float: ...
    @property
    def share(self) -> tuple[float, float]: ...
    @property
    def offset(self) -> float: ...
    @property
    def plate_shrink(self) -> int: ...
    @property
    def plate_purity(self) -> float: ...


def _quantile(values: np.ndarray, q: float) -> float:
    """The value of rank ``q`` (0-1, nearest rank) of an array: a percentile without interpolation (faster)."""
    flat = np.ravel(values)
    k = int(round(q * (flat.size - 1)))
    return float(np.partition(flat, k)[k])


def dark_ink(top: np.ndarray, rule: InkRule) -> _Dark | None:
    """A grey top crop (values 0-1, square) thresholded as ``central_ink`` and ``plate_ink`` both read it: the
    inner square (``rule.inset`` left out), its pixels darker than the face (the 75th percentile of the inner
    square's middle two thirds) by ``rule.ink`` of the face-to-darkest range, and the middle's inset (a sixth
    of the inner side). None where that range is under ``rule.min_range`` (no glyph to read)."""
    g = np.asarray(top, np.float32)
    n = g.shape[0]
    inner = g[rule.inset:n - rule.inset, rule.inset:n - rule.inset]
    h, w = inner.shape
    k = h // 6
    face = _quantile(inner[k:h - k, k:w - k], 0.75)  # the face's middle: a sticker, not the cube's side
    span = face - _quantile(inner, 0.02)
    if span < rule.min_range:
        return None
    return inner, (inner < face - rule.ink * span).astype(np.uint8), k


def stricter_darks(top: np.ndarray, rule: InkRule, shares: tuple[float, ...]) -> list[_Dark]:
    """A grey top crop thresholded as ``dark_ink`` at each of ``shares`` instead of ``rule.ink`` (the face and
    its range found once); [] where that range is under ``rule.min_range``."""
    g = np.asarray(top, np.float32)
    n = g.shape[0]
    inner = g[rule.inset:n - rule.inset, rule.inset:n - rule.inset]
    h, w = inner.shape
    k = h // 6
    face = _quantile(inner[k:h - k, k:w - k], 0.75)
    span = face - _quantile(inner, 0.02)
    if span < rule.min_range:
        return []
    return [(inner, (inner < face - share * span).astype(np.uint8), k) for share in shares]


def central_ink(top: np.ndarray, rule: InkRule, dark: _Dark | None = None) -> _Ink | None:
    """``vision.qubism_needle.central_ink`` (see there); ``dark``: the crop's ``dark_ink`` where the caller has it."""
    dark = dark_ink(top, rule) if dark is None else dark
    if dark is None:
        return None
    inner, mask, _ = dark
    blob = _largest_central(mask, top.shape[0], rule, inside=True)
    return None if blob is None else (blob, inner)


def _largest_central(mask: np.ndarray, n: int, rule: InkRule, inside: bool) -> np.ndarray | None:
    """The largest connected part of ``mask`` (0/1, square) within ``rule``'s share of ``n``² and its
    offset from the middle (with ``inside``: not touching the mask's border, which a print, a side or
    a shadow's edge runs out of), as a uint8 0/1 mask; None when no part is (the first of the largest)."""
    h, w = mask.shape
    count, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    c, best, most = (h - 1) / 2, 0, 0
    for j, (x, y, bw, bh, area) in enumerate(stats.tolist()):
        if j == 0 or area <= most or not rule.share[0] <= area / (n * n) <= rule.share[1]:
            continue  # the background; no larger than the best; too small or too large
        if inside and (x == 0 or y == 0 or x + bw >= w or y + bh >= h):
            continue
        if float(np.hypot(cents[j][0] - c, cents[j][1] - c)) / n > rule.offset:
            continue
        best, most = j, area
    if best == 0:
        return None
    blob: np.ndarray = (labels == best).astype(np.uint8)
    return blob


def plate_ink(top: np.ndarray, rule: InkRule, dark: _Dark | None = None) -> _Ink | None:
    """``vision.qubism_needle.plate_ink`` (see there); ``dark``: the crop's ``dark_ink`` where the caller has it."""
    if rule.plate_shrink <= 0:
        return None
    dark = dark_ink(top, rule) if dark is None else dark
    if dark is None:
        return None
    inner, ink, k = dark
    h, w = ink.shape
    count, labels = cv2.connectedComponents(1 - ink, connectivity=4)
    if count < 2:
        return None
    share = np.bincount(labels[k:h - k, k:w - k].ravel(), minlength=count)  # each light part's pixels in the middle
    share[0] = -1  # the ink's label: what is not light
    light = labels == int(np.argmax(share))  # the plate: the light part over most of the middle
    rows = np.flatnonzero(light.any(axis=1))  # its hull from each row's first and last pixel (no other is a corner)
    lit = light[rows]
    ends = np.empty((2 * len(rows), 2), np.int32)
    ends[0::2, 0], ends[1::2, 0] = lit.argmax(axis=1), w - 1 - lit[:, ::-1].argmax(axis=1)
    ends[0::2, 1] = ends[1::2, 1] = rows
    hull = cv2.convexHull(ends)
    outline = np.zeros_like(ink)
    cv2.fillConvexPoly(outline, hull, 1)
    kernel = np.ones((3, 3), np.uint8)
    plate = np.asarray(cv2.erode(outline, kernel, iterations=rule.plate_shrink), np.uint8)
    blob = _largest_central(ink & plate, top.shape[0], rule, inside=False)
    if blob is None:
        return None
    ring = (cv2.dilate(blob, kernel, iterations=3) > 0) & (cv2.dilate(blob, kernel) == 0)
    if int(ring.sum()) < 20 or float(mean_of(ink[ring] == 0)) < rule.plate_purity:
        return None  # an edge or a line across the crop, not a glyph on a plate
    return blob, inner


class TopInks:
    """A frame's top crops' ink, each spot's found once (``tops[k]``: the crop of the stage's ``look[k]``):
    its ``central_ink``, the ink read (that, else its ``plate_ink``), and what the checks read from them,
    kept by the checks themselves (``needles``: ``_needle`` of the central ink; ``sweeps``: the read ink's
    ``sweep_direction``; ``axes``: its ``axis_direction`` by the glyph rule read with; ``moved``: the direction a
    top found off its place reads at its place, ``vision.qubism_needle._moved_of``, by the glyph rule read with;
    ``strict``: a needle's darker end at stricter thresholds, ``vision.qubism_needle._strict_of``)."""

    def __init__(self, tops: np.ndarray, rule: InkRule) -> None:
        self.tops, self.rule = tops, rule
        self._dark: dict[int, _Dark | None] = {}
        self._central: dict[int, _Ink | None] = {}
        self._ink: dict[int, _Ink | None] = {}
        self.needles: dict[int, tuple[str | None, float]] = {}
        self.sweeps: dict[int, str | None] = {}
        self.axes: dict[tuple[int, object], str | None] = {}
        self.moved: dict[tuple[int, object], str | None] = {}
        self.strict: dict[int, str | None] = {}

    def dark(self, k: int) -> _Dark | None:
        """Crop ``k``'s ``dark_ink``."""
        if k not in self._dark:
            self._dark[k] = dark_ink(self.tops[k], self.rule)
        return self._dark[k]

    def central(self, k: int) -> _Ink | None:
        """Crop ``k``'s ``central_ink``."""
        if k not in self._central:
            d = self.dark(k)
            self._central[k] = None if d is None else central_ink(self.tops[k], self.rule, d)
        return self._central[k]

    def ink(self, k: int) -> _Ink | None:
        """Crop ``k``'s ink read: its ``central_ink``, else its ``plate_ink``."""
        if k not in self._ink:
            c, d = self.central(k), self.dark(k)
            self._ink[k] = c if c is not None or d is None else plate_ink(self.tops[k], self.rule, d)
        return self._ink[k]


def flattened(top: np.ndarray, size: int) -> np.ndarray:
    """A grey top crop (values 0-1) over its paper's local light: each pixel over the brightest within ``size``
    pixels (a max filter, ``size`` square, then a mean of that, ``size`` wide), at most 1. A light gradient or a
    shadow band across a sticker is then gone for strokes thinner than about half of ``size``; thicker ink
    (a block arrow, a needle's halves) is hollowed, so only thin ink read on it is trusted (``flat_line_ink``)."""
    g = np.asarray(top, np.float32)
    paper = cv2.blur(cv2.dilate(g, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))), (size, size))
    out: np.ndarray = np.minimum(g / np.maximum(paper, 1e-3), 1).astype(np.float32)
    return out


def median_flattened(top: np.ndarray, size: int) -> np.ndarray:
    """A grey top crop (values 0-1) over its local median (``size`` square, on its 8-bit values), at most 1: a
    stroke thinner than half of ``size`` stays dark, while a step in the light (a shadow's edge across a sticker,
    the sticker's own edge) is kept by the median and so gone from the ratio (``flattened`` leaves a band along it)."""
    g = np.asarray(top, np.float32)
    median = cv2.medianBlur(np.clip(g * 255 + 0.5, 0, 255).astype(np.uint8), size).astype(np.float32) / 255
    out: np.ndarray = np.minimum(g / np.maximum(median, 1e-3), 1).astype(np.float32)
    return out


def flat_line_ink(top: np.ndarray, rule: InkRule, size: int, thin: float, median: bool = False) -> TopInks | None:
    """The ink of a top crop ``flattened`` by ``size`` (``TopInks`` of it, crop 0) where it is drawn in strokes
    thinner than ``thin`` (its pixels' mean distance to its edge, pixels, as ``vision.qubism_axis.thick_enough``
    measures): a line arrow on a sticker lit unevenly, whose ink the crop's one threshold (``dark_ink``) joins to
    the sticker's darker half. With ``median``, the crop ``median_flattened`` instead. None where no such ink is
    found."""
    inks = TopInks((median_flattened(top, size) if median else flattened(top, size))[None], rule)
    ink = inks.ink(0)
    if ink is None:
        return None
    depth = cv2.distanceTransform(cv2.copyMakeBorder(ink[0], 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0), cv2.DIST_L2, 3)
    inside = depth[depth > 0]
    return inks if len(inside) and float(mean_of(inside)) < thin else None
