"""Chop! Chop!: a face-down slab is the one laid at the start, where it was laid.

At the start every one of the 38 slab squares holds a face-down slab (C1), and a slab is never
moved afterwards: landing on it turns it over and removes it, or leaves it face up as a cheese
(C5). So a face-down slab seen now is the very slab of the start photo, on its square: its spot
shows the picture it showed then (the same back, border and print of paws, at the same place),
whatever that back looks like. An empty floor square, a face-up cheese or a figure shows
another picture there.

``slab_starts`` keeps each slab square's picture from the start photo (``board learn``: the
light-normalised spot patch, its middle ``_MID``, without the outermost ring where the
neighbours and the grid line lie). ``start_change`` measures how far each slab square's patch
now is from it: the mean absolute difference, relative to the two pictures' mean level (the
patches are already corrected for the frame's light by the paper margin). A slab still lying
there changes little (third family, dev seeds 4261 and 4262: at most 0.62, 99 % under 0.52);
anything else changes a lot (the empty floor at least 0.37, figures 0.39, a face-up cheese 0.46).

``slabs_laid`` then corrects the frame's reading (``vision.chop_frame``): a spot read as a
face-down slab whose picture changed by at least ``gone`` is no slab (the classifier's likeliest
other reading there, unsure), unless the classifier is at least ``sure`` of the slab; a spot read
as nothing whose picture changed by at most ``kept`` is still its slab, unsure, unless the
classifier is at least ``sure`` that nothing lies there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.chop_squares import ALLOWED, CLASSES

_MID = slice(2, 14)
"""The part of a spot's patch (``vision.piece_looks.P`` = 16 pixels) compared with the start."""
UNSURE = 0.5
"""The confidence of a reading ``slabs_laid`` changed (asked by the cross-check)."""


def slab_starts(groups: Sequence[Sequence[str]], kinds: Sequence[str], patches: np.ndarray) -> dict[str, list[float]]:
    """Each slab square (its spot's first square id) -> its patch's middle in the start photo
    (``patches``: the reader's light-normalised [N, P, P, 3] spot patches of that photo)."""
    return {groups[i][0]: [round(float(v), 5) for v in np.asarray(patches[i, _MID, _MID]).ravel()]
            for i, k in enumerate(kinds) if k == "slab"}


def start_change(starts: Mapping[str, Sequence[float]], groups: Sequence[Sequence[str]], kinds: Sequence[str],
                 patches: np.ndarray) -> np.ndarray:
    """[N, 2] each slab square's change from its start picture: the mean absolute difference
    relative to the two pictures' mean level, and the same with the picture now brought to the
    start's level first (its pattern's change: a shadow or a dimmer light over a slab keeps its
    pattern). NaN on the other spots and where no start picture was learned."""
    out = np.full((len(groups), 2), np.nan)
    spots, then = _stacked(starts, groups, kinds, patches[0, _MID, _MID].size)
    if not spots:
        return out
    now = np.asarray(patches[spots][:, _MID, _MID], np.float64).reshape(len(spots), -1)
    m_now, m_then = now.mean(axis=1), then.mean(axis=1)
    out[spots, 0] = np.abs(now - then).mean(axis=1) / ((m_now + m_then) / 2 + 1e-3)
    gain = m_then / np.maximum(m_now, 1e-3)
    out[spots, 1] = np.abs(now * gain[:, None] - then).mean(axis=1) / (m_then + 1e-3)
    return out


_STACKED: dict[int, tuple[Mapping[str, Sequence[float]], list[int], np.ndarray]] = {}


def _stacked(starts: Mapping[str, Sequence[float]], groups: Sequence[Sequence[str]], kinds: Sequence[str],
             size: int) -> tuple[list[int], np.ndarray]:
    """The slab spots with a start picture of ``size`` numbers, and those pictures stacked
    ([M, size], float64), made once per learned ``starts`` (a reader's model keeps its dict)."""
    hit = _STACKED.get(id(starts))
    if hit is None or hit[0] is not starts or len(hit[1]) and len(hit[2][0]) != size:
        spots = [i for i, (ids, k) in enumerate(zip(groups, kinds))
                 if k == "slab" and len(starts.get(ids[0], ())) == size]
        rows = np.asarray([starts[groups[i][0]] for i in spots], np.float64).reshape(len(spots), size)
        hit = (starts, spots, rows)
        _STACKED.clear()
        _STACKED[id(starts)] = hit
    return hit[1], hit[2]


def slabs_laid(decided: list[tuple[str | None, float]], kinds: Sequence[str], change: np.ndarray,
               probs: np.ndarray | None, gone: float, pattern: float, kept: float, sure: float) -> int:
    """The frame's readings (``decided``, in place) against each slab square's ``change`` from
    the start (``start_change``; the same camera only): a slab read where the picture changed by
    at least ``gone`` and its pattern by at least ``pattern`` is not there (C5: never moved, only
    removed), unless the classifier (``probs``, rows as ``CLASSES``) finds the slab at least
    ``sure``; one read as nothing where the picture changed by at most ``kept`` still is, unless
    the classifier finds nothing there at least ``sure``. A slab not there takes the classifier's
    likeliest other reading the spot allows (not a second cat), else nothing. Returns how many
    readings changed."""
    p = None if probs is None else np.asarray(probs, np.float64)
    slab, empty, cat = CLASSES.index("slab"), CLASSES.index("-"), CLASSES.index("cat")
    allowed = [j for j, name in enumerate(CLASSES) if name in ALLOWED["slab"] and j != slab]
    level, shape = np.asarray(change, np.float64).T
    cats = {k for k, (t, _) in enumerate(decided) if t == "cat"}
    n = 0
    for i in np.nonzero(np.isfinite(level))[0]:
        token = decided[i][0]
        if kinds[i] != "slab":
            continue
        if token == "slab" and level[i] >= gone and shape[i] >= pattern and (p is None or p[i, slab] < sure):
            others = [j for j in allowed if j != cat or not cats - {i}]  # one cat (C1)
            if p is None:
                decided[i] = (None, UNSURE)
            else:
                j = max(others, key=lambda k: float(p[i, k]))
                q = float(p[i, j]) / max(float(p[i, others].sum()), 1e-9)
                decided[i] = (None if j == empty else CLASSES[j], float(min(UNSURE, q)))
                if j == cat:
                    cats.add(i)
            n += 1
        elif token is None and level[i] <= kept and (p is None or p[i, empty] < sure):
            decided[i] = ("slab", UNSURE)
            n += 1
    return n
