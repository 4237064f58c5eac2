"""Chop! Chop!: a slab square read as the bare floor whose face is not the print: the face-up cheese.

A slab square without its slab shows the board's print, which the board file knows
(``BoardReader`` compares every spot with it after the light correction: the occupancy
evidence ``reader.last_scores``, structure, chroma, brightness, spread). A face-up tile lying
there (C5: the only flat thing a slab square shows besides a slab's back is a turned slab, and
one that stays is a cheese) covers that print: its colour is not the print's (chroma) and the
print's own spread of brightness is hidden or changed (spread), while a shadow on the bare print
changes mostly its brightness. The classifier (``vision.chop_squares``), on faded third-family
prints, can take such a tile for the floor, keeping a little of the cheese (``docs/readme/board.md``,
session 26, chopc3: 22 of 156 ``--confirmed`` errors, the classifier's "-" in all 22).

``cheese_faces`` reads a slab spot read as the floor (after the rules, the classifier and the
confirmed position) as the face-up cheese, unsure (``vision.chop_known.UNSURE``: the
cross-check asks), when all hold:

- the classifier's likeliest reading there is the floor, and its cheese at least ``share`` of it
  (it saw a flat thing, not a figure nor a slab's back);
- its chroma evidence against the print at least ``chroma`` and its spread evidence at least
  ``spread`` (the print covered, not shaded);
- the confirmed position lets a cheese lie there (``vision.chop_known.allowed_now``: a slab, a
  face-up cheese or the cat there), where there is one and the frame is no new game.

Measured (``docs/readme/board.md``, session 28, chopcheese): on the four third-family dev sets it
catches 17 of the 22 cheeses read as the floor and reads 1 bare floor as a cheese (plain; none
``--confirmed``); held out, the cheese read as the floor 7 -> 2 and 9 -> 5, the floor read as a
cheese 0 -> 0 and 0 -> 2; the first two families read the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.chop_known import UNSURE, allowed_now
from vision.chop_squares import CLASSES

_FLOOR, _CHEESE = CLASSES.index("-"), CLASSES.index("cheese")
_CHROMA, _SPREAD = 1, 3
"""The columns of the occupancy evidence (``piece_spots._scores``: structure, chroma, brightness, spread)."""


def cheese_faces(decided: list[tuple[str | None, float]], kinds: Sequence[str], squares: Sequence[str],
                 parts: np.ndarray, probs: np.ndarray | None, confirmed: Mapping[str, str] | None,
                 new: bool, share: float, chroma: float, spread: float) -> int:
    """Slab spots read as the floor (``decided``, in place) that show a face-up cheese (module
    doc): ``parts``, each spot's occupancy evidence against the print; ``probs``, the
    classifier's (rows as ``CLASSES``; None: nothing changes); ``confirmed``, the last confirmed
    position (square -> token; None or empty: none), not used when ``new``. Returns how many
    readings changed."""
    if probs is None:
        return 0
    p = np.asarray(probs, np.float64)
    ev = np.asarray(parts, np.float64)
    n = 0
    for i, (token, _) in enumerate(decided):
        if kinds[i] != "slab" or token is not None:
            continue
        if int(p[i].argmax()) != _FLOOR or p[i, _CHEESE] < share * p[i, _FLOOR]:
            continue
        if ev[i, _CHROMA] < chroma or ev[i, _SPREAD] < spread:
            continue
        if confirmed and not new and "cheese" not in allowed_now("slab", confirmed.get(squares[i])):
            continue
        decided[i] = ("cheese", UNSURE)
        n += 1
    return n
