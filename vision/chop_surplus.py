"""Chop! Chop!: more mice than the game has, read by the classifier on slab backs, are the slabs.

There are four mice at most (C1; fewer once the cat caught some, C6). Where the learned square
classifier (``vision.chop_squares``) picks more mice than that in one frame, it is plainly
confusing something of this frame with a mouse, and its mouse probability cannot rank the true
mice among them: on the second 3-D family's pale slab backs with a dark dot (seed 3264, one
group) it gave ten face-down slabs of one frame a mouse at 0.84-0.98 and the one true mouse on a
slab square 0.89, so the four-mice limit (``decide``) kept three slabs and dropped the mouse.

The group's own looks tell them apart: ``board learn`` learned the slab's back and the mice from
the start photo (C1: every slab square holds a slab, a mouse on every hole), in this group's
light, and a spot's distance to each is a feature the classifier already has
(``MOUSE_COLUMN``, ``SLAB_COLUMN``, ``CAT_COLUMN``). A picked mouse on a slab square whose look
is **nearer the learned slab look than the learned mouse and cat looks** looks like the slab's
back. Where the classifier picks **more such spots than the game has mice** (so they cannot all
be mice that happen to look like slabs: the classifier takes this light's slab back for a
mouse), each of them is given back to the slab (its mouse probability moved to the slab's,
``surplus_slabs``) before the rules settle the frame; never the spot the rules read as the cat
(a figure: a cat the classifier never saw may read as a mouse there). No threshold beyond
"nearer" and the game's count: with four such spots or fewer the classifier's own ranking
(``decide``) settles the surplus as before (there a true mouse may be nearer the slab look:
the second family's seed 3261, scene 9, a mouse on a slab square at 0.92 whose look is).
"""

from __future__ import annotations

import numpy as np

from vision.chop_squares import ALLOWED, CLASSES, MOST, MOUSE_COLUMN, MOUSE_LEARNED_COLUMN

CAT_COLUMN = 17
"""The column of ``vision.chop_squares.spot_features`` holding the log distance of the spot's look
to the nearest learned cat look."""
CAT_LEARNED_COLUMN = 20
"""The column saying (1) that a cat look was learned at all."""
SLAB_COLUMN = 18
"""The column of ``vision.chop_squares.spot_features`` holding the log distance of the spot's look
to the nearest learned slab look."""
SLAB_LEARNED_COLUMN = 21
"""The column saying (1) that a slab look was learned at all."""


def picked_mice(probs: np.ndarray, kinds: list[str], rules_cat: int | None = None) -> list[int]:
    """The spots whose likeliest allowed class (``ALLOWED``) by the classifier is the mouse, as
    ``vision.chop_squares.decide`` picks them before its four-mice limit (the rules' cat not
    counted where the classifier reads the cat nowhere)."""
    p = np.asarray(probs, np.float64)
    mask = np.array([[c in ALLOWED[k] for c in CLASSES] for k in kinds])
    pick = np.where(mask, p, -1.0).argmax(axis=1)
    mice = [i for i in range(len(kinds)) if pick[i] == CLASSES.index("mouse")]
    if rules_cat is not None and rules_cat in mice and not (pick == CLASSES.index("cat")).any():
        mice.remove(rules_cat)
    return mice


def surplus_slabs(probs: np.ndarray, kinds: list[str], feats: np.ndarray,
                  rules_cat: int | None = None) -> tuple[np.ndarray, list[int]]:
    """The classifier's ``probs`` with, where it picks more mice on slab squares whose looks are
    nearer the learned slab look than the learned mouse and cat looks than the game has mice
    (``MOST``), each of those given back to the slab, ``rules_cat`` (the spot the rules read as
    the cat) apart (module doc). Returns the new probabilities (a copy; the same values where
    nothing changed) and the spots changed."""
    p = np.array(probs, np.float64, copy=True)
    f = np.asarray(feats, np.float64)
    mice = picked_mice(p, kinds, rules_cat)
    if len(mice) <= MOST["mouse"]:
        return p, []
    m, s = CLASSES.index("mouse"), CLASSES.index("slab")
    out = [i for i in mice if kinds[i] == "slab" and i != rules_cat and f[i, MOUSE_LEARNED_COLUMN] > 0.5
           and f[i, SLAB_LEARNED_COLUMN] > 0.5 and f[i, SLAB_COLUMN] < f[i, MOUSE_COLUMN]
           and (f[i, CAT_LEARNED_COLUMN] < 0.5 or f[i, SLAB_COLUMN] < f[i, CAT_COLUMN])]
    if len(out) <= MOST["mouse"]:
        return p, []  # the surplus may be anything: the classifier's own ranking (decide) settles it
    for i in out:
        p[i, s] += p[i, m]
        p[i, m] = 0.0
    return p, out
