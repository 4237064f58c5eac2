"""Chop! Chop!: a face-down slab read where the classifier is sure there is none.

The rules (``vision.chop_read``) read an occupied slab square by its nearest learned look, and
the slab's look is learned from the start photo (C1: every slab square holds its slab there), so
the printed floor under a slab is never seen in that light. Where the print lost its colours
(a black-and-white laser or faded inkjet print) and a shadow darkens the floor, an empty slab
square changes enough from the digital print to count as occupied, and its nearest learned look
is then the slab's (third family, dev seeds 4301 and 4303: the empty floor read as a slab at
0.25-0.80 under the stand's or a head's shadow). The classifier's confidence, asked the other
way, tells: ``merge`` takes the classifier's reading where it is at least ``sure`` of it; a slab
where the classifier is at least ``sure`` that no face-down slab lies (its slab probability at
most ``1 - sure``) is not kept, unless the rules are sure of it (``slab_kept``'s first, as
``merge`` keeps one against a cheese) or the slab is still the likeliest of what may lie there,
within ``chop_classifier_likelier``'s margin (a mouse, when four are read, may not lie there),
and only in a frame where at least ``FEW`` slabs read clearly (a light the reader knows). The
classifier was never trained on the third family, yet there it gave every true slab read as a
slab at least 0.6 (3,826 spots, dev 4261, 4262, 4301, 4303).

A second rule, the slabs' backs as one picture (a slab read much plainer than the frame's clear
slabs is something flat), was measured and left out: on the second family's dev 3264 thick slabs
seen at a tilt show their side and the floor and were lost (``docs/readme/board.md``, session 25,
chopfloor).

Such a spot takes the classifier's likeliest reading allowed there (C1, C5) other than the slab,
never a second cat nor a fifth mouse (C1), and is left unsure (the app asks, the tracker is not
changed silently).
"""

from __future__ import annotations

import numpy as np

from vision.chop_squares import ALLOWED, CLASSES, MOST

Decided = list[tuple[str | None, float]]
UNSURE = 0.5
"""The most confidence a slab taken away here leaves its spot's new reading (asked)."""


CLEAR = 0.9
"""A slab reading at least this sure is one of the frame's clear slabs (``clear_slabs``)."""
FEW = 5
"""The fewest clear slabs in a frame for the classifier's doubt to count: in
a frame where hardly a slab reads clearly (a light neither the rules nor the classifier know:
second family, dev 3264, scenes 7 and 35) its doubt about one slab says nothing of that slab."""


def _base(token: str | None) -> str:
    return "-" if token is None else token.split(":", 1)[0]


def slab_unlike(out: Decided, rules: Decided, kinds: list[str], probs: np.ndarray, sure: float,
                rules_sure: float, margin: float = 0.0) -> int:
    """``out`` (the merged readings, in place): a slab read where the classifier's slab
    probability (``probs``, rows as ``CLASSES``) is at most ``1 - sure``, unless the ``rules``
    read the slab at least ``rules_sure``, takes the likeliest other reading allowed on its spot
    (no second cat, at most four mice) when that is at least ``margin`` likelier than the slab, in a frame with at least ``FEW`` clear
    slabs (module doc). How many changed."""
    p = np.asarray(probs, np.float64)
    slab = CLASSES.index("slab")
    clear = clear_slabs(out, kinds)
    unlike = {i for i, (t, _) in enumerate(out) if kinds[i] == "slab" and _base(t) == "slab"
              and float(p[i, slab]) <= 1 - sure and not (_base(rules[i][0]) == "slab" and rules[i][1] >= rules_sure)}
    if len(clear) < FEW or not unlike:
        return 0
    count = {c: sum(1 for t, _ in out if _base(t) == c) for c in MOST}
    n = 0
    for i in sorted(sorted(unlike), key=lambda j: float(p[j, slab])):  # the least slab-like first
        q = np.array([p[i, k] if c in ALLOWED[kinds[i]] and c != "slab" and count.get(c, 0) < MOST.get(c, 99)
                      else 0.0 for k, c in enumerate(CLASSES)])
        k = int(q.argmax())
        if q[k] < p[i, slab] + margin:
            continue  # of what may still lie there, the slab is the likeliest: kept
        c = CLASSES[k]
        out[i] = (None if c == "-" else c, float(min(UNSURE, q[k] / max(float(p[i].sum()), 1e-9))))
        n += 1
        if c in count:
            count[c] += 1
    return n


def clear_slabs(out: Decided, kinds: list[str]) -> list[int]:
    """The frame's clear slabs: slab squares read as the slab at least ``CLEAR`` sure."""
    return [i for i, (t, c) in enumerate(out) if kinds[i] == "slab" and _base(t) == "slab" and c >= CLEAR]

