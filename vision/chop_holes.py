"""Chop! Chop!: an opened hole is one printed face, a mouse on a hole is never alike.

Every hole slab turned hole side up (C4) shows the same printed face; the board's pose brings
each spot's picture to the same square patch (``vision.chop_read.hole_faces``: its grey levels,
smoothed, less their mean, at unit length), so two opened holes in one frame show nearly the
same picture. A mouse on a hole stands in its own pose, and its figure rises off the print
toward the camera differently at each hole: on the three families' dev sets (``docs/readme/board.md``,
session 28, chopab) no hole spot holding a mouse correlated more than 0.89 with another hole
spot of its frame (199 spots), while 183 of 641 opened holes did at least 0.9.

``alike_holes``: the hole spots whose picture correlates at least ``alike`` with another hole
spot's are opened holes. ``vision.chop_frame`` reads a mouse there as the hole, unsure, and
gives the classifier's mouse probability there to the hole before its one-cat, four-mice cap
(``vision.chop_squares.decide``): an opened hole the classifier took for a mouse no longer
takes the place of a true mouse elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.chop_read import hole_faces
from vision.chop_squares import CLASSES

HOLE_CONF = 0.6
"""The confidence of a mouse reading made the opened hole here (under the cross-check's)."""


def alike_holes(kinds: Sequence[str], patches: np.ndarray, alike: float) -> list[int]:
    """The hole spots (``kinds``: each spot's, as ``vision.chop_read.spot_kinds``) whose picture
    (``patches``: the frame's light-normalised spot patches) correlates at least ``alike`` with
    another hole spot's."""
    hs = [i for i, k in enumerate(kinds) if k == "hole"]
    if len(hs) < 2:
        return []
    f = hole_faces(np.asarray(patches[hs], np.float64))
    c = f @ f.T
    np.fill_diagonal(c, -np.inf)
    return [i for i, row in zip(hs, c) if float(row.max()) >= alike]


def opened(decided: list[tuple[str | None, float]], probs: np.ndarray | None, spots: Sequence[int]) -> int:
    """At ``spots`` (``alike_holes``): a mouse read is the opened hole, unsure (``decided``, in
    place), and the classifier's mouse probability is the hole's (``probs``, in place). Returns
    how many readings changed."""
    n = 0
    for i in spots:
        if decided[i][0] is not None and decided[i][0].split(":")[0] == "mouse":
            decided[i] = ("hole", HOLE_CONF)
            n += 1
        if probs is not None:
            m, h = CLASSES.index("mouse"), CLASSES.index("hole")
            probs[i, h] += probs[i, m]
            probs[i, m] = 0.0
    return n
