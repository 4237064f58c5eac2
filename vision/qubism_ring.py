"""A cube's top found by a closed ring on it (a stage of ``vision.qubism_read``, through
``vision.piece_cubes``: ``vision.qubism_read.with_rings``).

Some cube sets print their arrow inside a ring (the second 3-D family's: a thin circle about
three quarters of the face wide, the arrow's tip often touching it). Seen in the plane of a
cube's top, under a shadow's edge or beside a neighbour's side, Otsu's split of the crop puts the
ring with the shade, not apart from the face, so the glyph rules (``vision.qubism_glyph``) see
no compact blob and the cube is read empty or its arrow asked. A ring's shape does not depend on
the light: a circle darker (or lighter) than the face on both its sides all the way round. Print
lines, a shadow's or a side's edge are straight, a pawn's head is a disc: none is a closed thin
circle. Measured on the top crops of the second family's dev set 3252 (its first 24 scenes: 157
cubes, 179 empty squares, 38 pawns looked at): 96 cubes showed a closed ring (95 arrows read right
inside it, one not read), no empty square or pawn did.

``ring_tops`` looks for the best such circle near each crop's middle (every radius a cube's face
could hold: the correlation with a thin ring less its two neighbouring rings, a product of spectra a
radius, at half the crop's resolution), checks it and the circles a pixel around it at the crop's
own, and keeps the best where it is closed (``RingRule.cover`` of its angles); inside it, the arrow
(the largest part of the ring's tone, Otsu's split of the disc) gives the direction
(``vision.qubism_glyph.glyph_direction``). Where the circle of the strongest correlation is not closed
(on a faint ring the light band between the ring and the arrow, or the face's rounded edge, correlates
more strongly than the ring: the second family's wooden ring cubes, dev set 3254), each radius's best
place of either tone is checked and the most closed refined (``RingRule.starts``, session 25).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrows import components
from vision.qubism_glyph import _INSET, CentralGlyph, GlyphRule, glyph_direction
from vision.read_fast import std_of

SIDE = 48
"""Side of the top crops looked at (``vision.qubism_read.FACE_SIDE``)."""
_PAD = 4
"""Replicated border around a half-resolution crop before its FFT (the window looked at stays clear of the wrap)."""
_ANGLES = np.linspace(0, 2 * np.pi, 64, endpoint=False)
_COS, _SIN = np.cos(_ANGLES), np.sin(_ANGLES)
_NEAR = np.array([(dx, dy, dr) for dx in (-1.0, 0.0, 1.0) for dy in (-1.0, 0.0, 1.0) for dr in (-0.5, 0.0, 0.5)])
"""The circles checked around the one the search found: (x, y, radius) offsets, crop pixels."""


@dataclass(frozen=True)
class RingRule:
    """When a top crop shows a closed ring (see the module docstring)."""

    radii: tuple[float, float, float] = (3.5, 9.5, 0.5)
    """Radii searched (first, last, step), pixels of the crop at half its resolution: a ring from 30 % to
    80 % of a 48-pixel crop wide."""
    width: float = 0.6
    """The thin ring's profile searched for (a Gaussian's sigma, half-resolution pixels)."""
    beside: float = 2.5
    """Distance of the two neighbouring circles it is compared with, crop pixels (half that in the search)."""
    offset: float = 0.15
    """Its centre at most this share of the crop's side from the crop's (``GlyphRule.offset``)."""
    cover: float = 0.8
    """Share of its angles at which the ring is darker (lighter) than both neighbours by the crop's noise."""
    inset: float = 2.5
    """The arrow is looked for inside the ring less this, pixels."""
    arrow_share: tuple[float, float] = (0.06, 0.5)
    """The arrow's area over the disc it is looked for in."""
    starts: int = 1
    """Where the circle of the strongest correlation is not closed: how many of each radius's best places
    (either tone) are refined, the most closed first (0: none, as before session 25)."""
    grid_cover: float = 0.5
    """Where no circle found so closes: the best of a grid of circles near the middle at a cube ring's radii
    (``grid_radii``, centres ``grid_step`` apart within ``grid_reach`` of the middle, either tone, refined a pixel
    around) is taken where its cover reaches this (0: off). Session 26 (qempty): a faint ring whose step is under
    the crop's noise on part of its circle closes on 0.44-0.80 of its angles; no empty square's or pawn's crop of
    the three dev second-family sets reached 0.44 (988 crops); 0.5 measured. On by default since session 27
    (qempty2), coarse to fine (``grid_coarse``, ``grid_keep``, ``grid_gate``) and only where the looks read a piece
    (``vision.qubism_read.with_rings``)."""
    grid_radii: tuple[float, float, float] = (10.5, 14.5, 1.0)
    """Radii of the grid (first, last, step), crop pixels: the second family's rings lie at 12.5-13."""
    grid_step: float = 2.0
    """Distance of the grid's centres, crop pixels."""
    grid_reach: float = 6.0
    """The grid's centres at most this far from the crop's middle along either axis, crop pixels."""
    grid_coarse: int = 4
    """The grid's circles first compared on every this-th of the 64 angles, ..."""
    grid_keep: int = 8
    """... the most closed this many of each crop then at all angles."""
    grid_gate: float = 0.25
    """... where the most closed of them holds on this share of those angles (the rest left: session 27, qempty2,
    on the three second-family dev sets' 1,133 asked crops every grid circle that closed on 0.5 at all angles held on
    0.31 or more of every fourth; 57 % of the crops under 0.25)."""


@dataclass(frozen=True)
class RingTop:
    """A closed ring found on a top crop: centre (pixels), radius, tone (-1 dark, 1 light), the share
    of its angles that hold, and the arrow inside it (uint8 0/1 mask of the crop, or None)."""

    x: float
    y: float
    radius: float
    tone: int
    cover: float
    arrow: np.ndarray | None


def _kernel(r: float, rule: RingRule) -> np.ndarray:
    """A thin ring of radius ``r`` less its two neighbours ``beside`` in and out (each part summing to one)."""
    n = int(np.ceil(r + rule.beside / 2 + 4 * rule.width))
    yy, xx = np.mgrid[-n:n + 1, -n:n + 1]
    d = np.hypot(xx, yy)
    on = np.exp(-0.5 * ((d - r) / rule.width) ** 2)
    b = rule.beside / 2  # the search's half resolution
    off = np.exp(-0.5 * ((d - r + b) / rule.width) ** 2) + np.exp(-0.5 * ((d - r - b) / rule.width) ** 2)
    k: np.ndarray = on / on.sum() - off / off.sum()
    return k


_SPECTRA: dict[tuple[RingRule, int], tuple[np.ndarray, list[np.ndarray]]] = {}


def _spectra(rule: RingRule, size: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """The radii and their kernels' spectra (``cv2.dft``, complex output) on a ``size`` square (kernels
    centred on the origin, wrapped: a product of spectra is then the correlation with the kernel)."""
    key = (rule, size)
    if key not in _SPECTRA:
        first, last, step = rule.radii
        radii = np.arange(first, last + step / 2, step)
        out = []
        for r in radii:
            k = _kernel(float(r), rule)
            n = k.shape[0] // 2
            if n >= size // 2:
                raise ValueError("qubism_ring: a radius too large for the crop")
            placed = np.zeros((size, size), np.float32)
            placed[:k.shape[0], :k.shape[1]] = k
            out.append(cv2.dft(np.roll(placed, (-n, -n), axis=(0, 1)), flags=cv2.DFT_COMPLEX_OUTPUT))
        _SPECTRA[key] = (radii, out)
    return _SPECTRA[key]


def ring_tops(tops: np.ndarray | list[np.ndarray], rule: RingRule,
              grid: np.ndarray | list[bool] | None = None) -> list[RingTop | None]:
    """The closed ring near the middle of each top crop (grey 0-1, ``SIDE`` square), or None; ``RingRule.grid_cover``'s
    grid looked at only on the crops ``grid`` marks (None: every crop)."""
    if not len(tops):
        return []
    gs = np.stack([np.asarray(t, np.float32) for t in tops])
    if gs.shape[1:] != (SIDE, SIDE):
        raise ValueError("qubism_ring: top crops must be 48 pixels square")
    half = SIDE // 2  # searched at half the crop's resolution (a quarter of the pixels), checked at its own
    c = (half - 1) / 2
    m = int(round(rule.offset * half))
    lo, hi = int(c) - m + _PAD, int(c) + m + 2 + _PAD
    size = half + 2 * _PAD
    radii, spectra = _spectra(rule, size)
    tall = _tall_spectra(rule, size)
    smooth = [cv2.GaussianBlur(g, (0, 0), 0.7) for g in gs]
    wins = []
    for g in smooth:  # each radius's correlation (one product of spectra), its window near the middle
        small = cv2.resize(g, (half, half), interpolation=cv2.INTER_AREA)
        f = cv2.dft(cv2.copyMakeBorder(small, _PAD, _PAD, _PAD, _PAD, cv2.BORDER_REPLICATE), flags=cv2.DFT_COMPLEX_OUTPUT)
        both = cv2.mulSpectrums(np.tile(f, (len(spectra), 1, 1)), tall, 0)  # every radius's product in one call
        wins.append(np.stack([cv2.idft(both[j * size:(j + 1) * size], flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)[lo:hi, lo:hi]
                              for j in range(len(spectra))]))
    noise = np.array([_noise(g) for g in smooth])
    first = []
    for w in wins:  # the circle of the strongest correlation of all, refined (the circles a pixel around it)
        j, y, x = np.unravel_index(int(np.argmax(np.abs(w))), w.shape)
        tone = 1 if w[j, y, x] > 0 else -1
        first.append((2 * float(x + lo - _PAD) + 0.5, 2 * float(y + lo - _PAD) + 0.5, 2 * float(radii[j]), tone))
    starts = _starts(wins, radii, lo) if rule.starts > 0 else None
    stack = _Stack(smooth)
    near = np.array([(x, y, r) for x, y, r, _ in first])[:, None, :] + _NEAR[None]  # [crops, 27, 3]
    circles, tones = near.reshape(-1, 3), np.repeat([t for *_, t in first], len(_NEAR))
    of = np.repeat(np.arange(len(gs)), len(_NEAR))
    if starts is not None:  # each radius's best places, scored with them (used where the first is not closed)
        circles, tones = np.concatenate([circles, starts[0]]), np.concatenate([tones, starts[1]])
        of = np.concatenate([of, starts[2]])
    cover = stack.covers(circles, of, tones, noise[of], rule)
    near_cover = cover[:len(gs) * len(_NEAR)].reshape(len(gs), len(_NEAR))
    found = []
    for n in range(len(gs)):  # the first of the most closed of the 27
        k = int(np.argmax(near_cover[n]))
        found.append((float(near_cover[n, k]), *(float(v) for v in near[n, k]), first[n][3]))
    again = [n for n, f in enumerate(found) if f[0] < rule.cover] if starts is not None else []
    if again:  # not closed: each radius's best place of either tone, the most closed refined (all crops at once)
        assert starts is not None
        start_cover = cover[len(gs) * len(_NEAR):].reshape(len(gs), -1)
        better = _best_starts(stack, start_cover[again], starts[0].reshape(len(gs), -1, 3)[again],
                              starts[1].reshape(len(gs), -1)[again], np.array(again), noise, rule)
        for n, (cov, cx, cy, r, tone) in zip(again, better):
            if cov > found[n][0]:
                found[n] = (cov, cx, cy, r, tone)
    left = [n for n, f in enumerate(found) if f[0] < rule.cover and (grid is None or grid[n])] if rule.grid_cover > 0 else []
    by_grid: set[int] = set()
    if left:  # still not closed: a grid of circles at a ring's radii, the best taken at ``grid_cover``
        for n, best in zip(left, _grid_best(stack, np.array(left), noise, rule)):
            if best[0] >= rule.grid_cover:
                found[n] = best
                by_grid.add(n)
    return [None if cov < rule.cover and n not in by_grid else RingTop(cx, cy, r, tone, cov, _arrow(gs[n], cx, cy, r, tone, rule))
            for n, (cov, cx, cy, r, tone) in enumerate(found)]


def _grid_best(stack: _Stack, crops: np.ndarray, noise: np.ndarray, rule: RingRule
               ) -> list[tuple[float, float, float, float, int]]:
    """``(cover, x, y, r, tone)`` of the most closed circle of ``RingRule.grid_*``'s grid on each of the stacked
    ``crops`` (either tone), refined over the circles a pixel around it (``_NEAR``). Coarse to fine: every circle's
    cover on every ``grid_coarse``-th angle (one sampling for both tones, in one remap of maps kept between calls), the
    ``grid_keep`` most closed of each crop then at all angles (``_covers``), the best refined. The coarse maps' rows
    ring by ring (``_grid_maps``: each ring's samples of a crop one contiguous block, no buffered copies of strided
    ones) and their x kept tiled for as many crops (``_grid_x``); the same samples as session 30's circle by circle."""
    grid, maps = _grid_maps(rule)
    per = 2 * len(grid)
    keep = min(rule.grid_keep, per)
    mx = _grid_x(rule, len(crops))
    my = (maps[1][None] + (crops * stack.tall).astype(np.float32)[:, None, None]).reshape(-1, maps[1].shape[1])  # each crop's rows
    v = cv2.remap(stack.image, mx, my, cv2.INTER_LINEAR).reshape(len(crops), 3, len(grid), -1)
    on, inner, outer = v[:, 0], v[:, 1], v[:, 2]  # each [crops, circles, angles], a crop's contiguous
    limit = noise[crops, None, None].astype(np.float32)
    coarse = np.concatenate([_held_few(np.minimum(inner, outer) - on > limit), _held_few(on - np.maximum(inner, outer) > limit)],
                            axis=1)  # [crops, per]
    hope = np.max(coarse, axis=1) >= rule.grid_gate * v.shape[3]  # the rest: no circle near closing
    out: list[tuple[float, float, float, float, int]] = [(0.0, 0.0, 0.0, 0.0, 0)] * len(crops)
    if not hope.any():
        return out
    coarse, which, crops = coarse[hope], np.flatnonzero(hope), crops[hope]
    picked = np.sort(np.argsort(-coarse.astype(np.int16), axis=1, kind="stable")[:, :keep], axis=1)  # [crops, keep], in the grid's order
    circles = np.tile(grid, (2, 1))[picked].reshape(-1, 3)
    tones = np.repeat([-1, 1], len(grid))[picked]  # [crops, keep]
    of = np.repeat(crops, keep)
    cover = stack.covers(circles, of, tones.ravel(), noise[of], rule).reshape(len(crops), keep)
    at = np.argmax(cover, axis=1)
    best = circles.reshape(len(crops), keep, 3)[np.arange(len(crops)), at]  # [crops, 3]
    tone = tones[np.arange(len(crops)), at]
    near = (best[:, None, :] + _NEAR[None]).reshape(-1, 3)
    near_tone = np.repeat(tone, len(_NEAR))
    near_of = np.repeat(crops, len(_NEAR))
    again = stack.covers(near, near_of, near_tone, noise[near_of], rule).reshape(len(crops), -1)
    for n, m in enumerate(which):
        k = int(np.argmax(again[n]))
        cov, (x, y, r) = (float(again[n, k]), near[n * len(_NEAR) + k]) if again[n, k] > cover[n, at[n]] else \
            (float(cover[n, at[n]]), best[n])
        out[m] = (cov, float(x), float(y), float(r), int(tone[n]))
    return out


_GRID: dict[RingRule, tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]] = {}
_GRID_X: dict[RingRule, np.ndarray] = {}


def _grid_x(rule: RingRule, crops: int) -> np.ndarray:
    """``_grid_maps``' x map one under the other for ``crops`` crops (a view of a tiling kept for at least as many)."""
    x = _grid_maps(rule)[1][0]
    if rule not in _GRID_X or _GRID_X[rule].shape[0] < crops * x.shape[0]:
        _GRID_X[rule] = np.tile(x, (max(crops, 16), 1))
    return _GRID_X[rule][:crops * x.shape[0]]


def _grid_maps(rule: RingRule) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """``RingRule.grid_*``'s circles (x, y, r: crop pixels, [circles, 3]) and the maps (x, y) that sample each on its
    ring and its two neighbours at every ``grid_coarse``-th angle in the first crop of a ``_Stack``: a row a circle's
    ring, every circle's ring first, then every inner neighbour, then every outer one ([3 * circles, angles])."""
    if rule not in _GRID:
        c = (SIDE - 1) / 2
        xs = np.arange(c - rule.grid_reach, c + rule.grid_reach + 1e-6, rule.grid_step)
        first, last, step = rule.grid_radii
        rs = np.arange(first, last + 1e-6, step)
        grid = np.array([(x, y, r) for x in xs for y in xs for r in rs])
        ring = grid[:, 2, None] + np.array([0.0, -rule.beside, rule.beside])
        cos, sin = _COS[::rule.grid_coarse], _SIN[::rule.grid_coarse]
        mx = (grid[:, 0, None, None] + _STACK_PAD + ring[:, :, None] * cos).astype(np.float32)  # [circles, 3, angles]
        my = (grid[:, 1, None, None] + _STACK_PAD + ring[:, :, None] * sin).astype(np.float32)
        by_ring = [np.ascontiguousarray(m.transpose(1, 0, 2)).reshape(len(grid) * 3, -1) for m in (mx, my)]
        _GRID[rule] = (grid, (by_ring[0], by_ring[1]))
    return _GRID[rule]


_TALL: dict[tuple[RingRule, int], np.ndarray] = {}


def _tall_spectra(rule: RingRule, size: int) -> np.ndarray:
    """``_spectra``'s kernels' spectra one under the other ([radii * size, size, 2]): a crop's spectrum tiled
    as tall is multiplied by every radius's in one ``cv2.mulSpectrums`` (complex, element by element: the
    same products as one call a radius)."""
    key = (rule, size)
    if key not in _TALL:
        _TALL[key] = np.ascontiguousarray(np.concatenate(_spectra(rule, size)[1], axis=0))
    return _TALL[key]


_STACK_PAD = 12
"""Replicated border around each crop stacked for ``_Stack`` (every circle looked at stays inside it)."""


class _Stack:
    """A frame's smoothed crops one under the other, each in a replicated border (``_STACK_PAD``), so that
    every crop's circles are sampled in one remap (``covers``)."""

    def __init__(self, gs: list[np.ndarray]) -> None:
        p = _STACK_PAD
        self.tall = SIDE + 2 * p
        if any(g.dtype != np.float32 or g.shape != (SIDE, SIDE) for g in gs):
            self.image = np.vstack([cv2.copyMakeBorder(g, p, p, p, p, cv2.BORDER_REPLICATE) for g in gs])
            return
        self.image = np.empty((len(gs) * self.tall, SIDE + 2 * p), np.float32)
        for k, g in enumerate(gs):  # each bordered crop written in its place (no stacking copy; session 32)
            cv2.copyMakeBorder(g, p, p, p, p, cv2.BORDER_REPLICATE, dst=self.image[k * self.tall:(k + 1) * self.tall])

    def covers(self, circles: np.ndarray, crop: np.ndarray, tone: np.ndarray, noise: np.ndarray,
               rule: RingRule) -> np.ndarray:
        """``_covers`` of circles (x, y, radius: crop pixels) of the crops ``crop`` (one a circle)."""
        p = _STACK_PAD
        moved = circles + np.column_stack([np.full(len(crop), p), p + self.tall * crop, np.zeros(len(crop))])
        return _covers(self.image, moved, tone, noise, rule)


def _starts(wins: list[np.ndarray], radii: np.ndarray, lo: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each crop's radii's best places of either tone in its search window ``wins`` (a radius's correlations a
    row, half resolution, from ``lo``): the circles (x, y, r: crop pixels; [crops * 2 radii, 3], light then
    dark), their tones and their crops."""
    w = np.stack(wins)  # [crops, radii, rows, columns]
    flat = w.reshape(len(wins), len(radii), -1)
    at = np.concatenate([np.argmax(flat, axis=2), np.argmin(flat, axis=2)], axis=1)  # light, then dark: [crops, 2 radii]
    ys, xs = np.divmod(at, w.shape[3])
    rr = np.broadcast_to(np.concatenate([radii, radii])[None], at.shape)
    every = np.stack([2 * (xs + lo - _PAD) + 0.5, 2 * (ys + lo - _PAD) + 0.5, 2 * rr], axis=2).reshape(-1, 3)
    tone_of = np.tile(np.repeat([1, -1], len(radii)), len(wins))
    return every, tone_of, np.repeat(np.arange(len(wins)), 2 * len(radii))


def _best_starts(stack: _Stack, cover: np.ndarray, every: np.ndarray, tones: np.ndarray, crops: np.ndarray,
                 noise: np.ndarray, rule: RingRule) -> list[tuple[float, float, float, float, int]]:
    """``(cover, x, y, r, tone)`` for each of the stacked ``crops`` whose circle of the strongest correlation is
    not closed: of each radius's best places of either tone (``_starts``: ``every`` [crops, 2 radii, 3], their
    ``tones`` and ``cover``), the ``RingRule.starts`` most closed refined (the circles a pixel around each, as the
    strongest correlation's circle): a face's outline, a cube's rounded edge or the light band inside a faint ring correlates
    more strongly than the ring."""
    top = np.argsort(-cover, axis=1, kind="stable")[:, :rule.starts]  # [crops, starts]
    picked = np.take_along_axis(every, top[:, :, None], axis=1).reshape(-1, 3)
    picked_tone = np.take_along_axis(tones, top, axis=1).ravel()
    cand = (picked[:, None, :] + _NEAR[None]).reshape(-1, 3)
    cand_tone = np.repeat(picked_tone, len(_NEAR))
    cand_of = np.repeat(crops, rule.starts * len(_NEAR))
    near = stack.covers(cand, cand_of, cand_tone, noise[cand_of], rule).reshape(len(crops), -1)
    out = []
    for n in range(len(crops)):
        k = int(np.argmax(near[n])) + n * near.shape[1]
        out.append((float(near.flat[k]), float(cand[k, 0]), float(cand[k, 1]), float(cand[k, 2]), int(cand_tone[k])))
    return out


def _noise(g: np.ndarray) -> float:
    """The crop's fine noise (what a ring's step must exceed): the spread of what a 2-pixel blur takes off, + 0.01."""
    return float(std_of(g - cv2.GaussianBlur(g, (0, 0), 2.0))) + 0.01  # np.std's, bit for bit


def _covers(g: np.ndarray, cand: np.ndarray, tone: int | np.ndarray, noise: float | np.ndarray,
            rule: RingRule) -> np.ndarray:
    """The cover of each circle (rows of ``cand``: x, y, radius; ``tone`` and ``noise`` one for all or one a
    circle), sampled in one remap. The maps are ``(x + r cos).astype(float32)``, ``(y + r sin)...`` of each circle's
    three radii ``r`` as before (``_ring_maps``: a row a ring, each circle's ring and its inner and outer
    neighbour). The dark circles' steps and the light ones' are taken apart (each its own difference, not both and
    a choice)."""
    n = len(cand)
    if n == 0:
        return np.zeros(0)
    order = None
    if isinstance(tone, np.ndarray):  # the dark circles first, then the light
        order = np.argsort(tone, kind="stable")
        dark = int(np.count_nonzero(tone < 0))
        cand = cand[order]
        if isinstance(noise, np.ndarray):
            noise = noise[order]
    else:
        dark = n if tone < 0 else 0
    angles = len(_COS)
    mx, my = _ring_maps(cand, rule.beside)
    v = np.asarray(cv2.remap(g, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)).reshape(n, 3, angles)
    step = np.empty((n, angles), np.float32)
    if dark:
        d = v[:dark]
        np.subtract(np.minimum(d[:, 1], d[:, 2]), d[:, 0], out=step[:dark])
    if dark < n:
        lit = v[dark:]
        np.subtract(lit[:, 0], np.maximum(lit[:, 1], lit[:, 2]), out=step[dark:])
    if isinstance(noise, np.ndarray):
        held = _held(step > np.repeat(_below32(noise), angles).reshape(n, angles))
    else:
        held = _held(step > noise)
    if order is not None:
        back = np.empty_like(held)
        back[order] = held
        held = back
    cover: np.ndarray = held / angles  # the share of angles (``.mean`` of the booleans, bit for bit)
    return cover


def _ring_maps(cand: np.ndarray, beside: float) -> tuple[np.ndarray, np.ndarray]:
    """The maps (x, y; float32 [3 len(cand), 64]) that sample each circle of ``cand`` (x, y, radius) on its ring and
    its two neighbours ``beside`` in and out (a row each, circle by circle) at every angle of ``_COS``: session 30's
    ``(x + r cos).astype(float32)``, ``(y + r sin).astype(float32)`` (``r cos`` the float64 product). ``r sin`` is a
    row of ``_by_half``'s table where every radius is a whole number of half pixels (``_ring_rows``), the centres
    repeated; where every centre's x is one too, the x map's rows are taken whole from ``_x_rows``' float32 table
    (session 32: no repeat, no add, no cast for x)."""
    ring = (cand[:, 2, None] + np.array([0.0, -beside, beside])).ravel()  # [3n]: on, inner, outer radii
    rows = _x_rows(cand[:, 0], ring)
    if rows is None:
        rx, ry = _ring_rows(ring)
        rx += np.repeat(cand[:, 0], 3 * len(_COS)).reshape(rx.shape)
        mx = rx.astype(np.float32)
    else:
        mx, ry = rows
    ry += np.repeat(cand[:, 1], 3 * len(_COS)).reshape(ry.shape)
    return mx, ry.astype(np.float32)


_XTAB: list[np.ndarray] = [np.zeros((0, 0, len(_COS)), np.float32)]
_XTAB_MOST = (256, 96)
"""``_x_rows``' table holds centres' x and radii under these many half pixels (the reader's stacked crops are 72
pixels wide, its rings under 25 pixels); beyond, the maps are multiplied out."""


def _x_rows(x: np.ndarray, ring: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``((x + r cos).astype(float32), r sin)`` of each radius of ``ring`` (three a centre ``x``: [3 len(x), 64],
    float32 and float64) from kept tables, where every centre's x and every radius is a whole number of half pixels
    within ``_XTAB_MOST``; else None. The float32 table ([x, radius, 64], grown by doubling) holds session 30's
    values, ``(x + r cos)`` in float64 cast to float32."""
    hx, hr = (x * 2).astype(np.intp), (ring * 2).astype(np.intp)
    if not len(hx) or min(hx.min(), hr.min()) < 0 or hx.max() >= _XTAB_MOST[0] or hr.max() >= _XTAB_MOST[1] \
            or not (np.array_equal(hx * 0.5, x) and np.array_equal(hr * 0.5, ring)):
        return None
    table = _XTAB[0]
    if table.shape[0] <= hx.max() or table.shape[1] <= hr.max():
        nx = min(_XTAB_MOST[0], max(int(hx.max()) + 1, 2 * table.shape[0], 160))
        nr = min(_XTAB_MOST[1], max(int(hr.max()) + 1, 2 * table.shape[1], 64))
        rcos = _by_half(nr)[0][:nr]  # [nr, 64]: r cos, float64
        table = (rcos[None] + (np.arange(nx) * 0.5)[:, None, None]).astype(np.float32)
        _XTAB[0] = table
    at = np.repeat(hx, 3) * table.shape[1] + hr  # each ring's row
    return table.reshape(-1, len(_COS)).take(at, axis=0), _by_half(int(hr.max()))[1].take(hr, axis=0)


_HALVES: list[np.ndarray] = [np.zeros((2, 0, len(_COS)))]
_HALVES_MOST = 4096
"""The table of ``_by_half`` holds radii up to this many half pixels (a larger radius is multiplied out)."""


def _by_half(most: int) -> np.ndarray:
    """``r cos``, ``r sin`` of every angle for the radii ``r`` = 0, 0.5, 1, ... (at least up to ``most`` half
    pixels): [2, radii, 64] float64, kept."""
    if _HALVES[0].shape[1] <= most:
        r = np.arange(max(most + 1, 2 * _HALVES[0].shape[1], 128)) * 0.5
        _HALVES[0] = np.stack([np.multiply.outer(r, _COS), np.multiply.outer(r, _SIN)])
    return _HALVES[0]


def _ring_rows(ring: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``r cos``, ``r sin`` of every angle for each radius of ``ring`` ([len(ring), 64] float64 each, new arrays):
    taken from ``_by_half``'s table where every radius is a whole number of half pixels (the same products)."""
    half = (ring * 2).astype(np.intp)
    if half.min() >= 0 and half.max() <= _HALVES_MOST and np.array_equal(half * 0.5, ring):
        table = _by_half(int(half.max()))
        return table[0].take(half, axis=0), table[1].take(half, axis=0)
    return np.multiply.outer(ring, _COS), np.multiply.outer(ring, _SIN)


def _below32(x: np.ndarray) -> np.ndarray:
    """The largest float32 at most each of ``x`` (float64): a float32 ``s`` exceeds ``x`` exactly when it exceeds
    this (the next float32 up is above ``x``), so the steps are compared in float32, not cast to float64 in numpy's
    buffers with each circle's noise copied in beside them."""
    f = x.astype(np.float32)
    below: np.ndarray = np.where(f > x, np.nextafter(f, np.float32(-np.inf)), f)
    return below


def _held(ok: np.ndarray) -> np.ndarray:
    """How many of the last axis hold (``np.count_nonzero(ok, axis=-1)``, without its cast to 64-bit integers:
    at most 64 angles, counted in bytes)."""
    held: np.ndarray = np.ascontiguousarray(ok).view(np.uint8).sum(axis=-1, dtype=np.uint8)
    return held


_BYTES = np.uint64(0x0101010101010101)


def _held_few(ok: np.ndarray) -> np.ndarray:
    """``_held`` of booleans along a last axis of 8 to 255, a multiple of 8 (the grid's coarse angles, 16): eight
    booleans a 64-bit word, the words of a row added (no byte carries: each byte at most the row's words), then the
    eight bytes of the sum by one multiplication (its top byte; every partial sum at most the row's length); numpy's
    reduction along a short axis costs more a row than its values. Another length: ``_held``."""
    n = ok.shape[-1]
    if n % 8 or not 8 <= n <= 255:
        return _held(ok)
    words = np.ascontiguousarray(ok).view(np.uint64)  # [..., n / 8]
    total = words[..., 0].copy()
    for j in range(1, n // 8):
        total += words[..., j]
    held: np.ndarray = ((total * _BYTES) >> np.uint64(56)).astype(np.uint8)
    return held


def _arrow(g: np.ndarray, x: float, y: float, r: float, tone: int, rule: RingRule) -> np.ndarray | None:
    """The largest part of the ring's tone inside it (less ``inset``), by Otsu's split of that disc; None
    where it is no arrow's size."""
    yy, xx = np.mgrid[0:SIDE, 0:SIDE]
    inside = np.hypot(xx - x, yy - y) <= r - rule.inset
    if int(inside.sum()) < 20:
        return None
    g8 = np.clip(g * 255, 0, 255).astype(np.uint8)
    cut = cv2.threshold(np.ascontiguousarray(g8[inside].reshape(1, -1)), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
    part = ((g8 <= cut) if tone < 0 else (g8 > cut)) & inside
    n, labels, stats, _ = components(part.astype(np.uint8))
    if n < 2:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    share = float(stats[k, cv2.CC_STAT_AREA]) / float(inside.sum())
    if not rule.arrow_share[0] <= share <= rule.arrow_share[1]:
        return None
    mask: np.ndarray = (labels == k).astype(np.uint8)
    return mask


def ring_glyph(top: np.ndarray, found: RingTop, rule: GlyphRule) -> CentralGlyph:
    """A ring found on a top crop as ``vision.qubism_glyph``'s glyph (``CentralGlyph.ring``): its
    direction the arrow's inside it (None: asked), its mask the arrow alone (the crop's inner square; a
    ring is alike under every turn, so a mask holding it would liken any two turns: ``like_cubes``)."""
    direction, conf = (None, 0.0) if found.arrow is None else glyph_direction(found.arrow, top, rule)
    mask = None if found.arrow is None else found.arrow[_INSET:-_INSET, _INSET:-_INSET].astype(np.uint8)
    share = 0.0 if mask is None else float(mask.sum()) / (SIDE - 2 * _INSET) ** 2
    offset = float(np.hypot(found.x - (SIDE - 1) / 2, found.y - (SIDE - 1) / 2)) / SIDE
    return CentralGlyph(share, offset, 0.0, 0.0, found.cover, direction, float(conf), mask, ring=True)
