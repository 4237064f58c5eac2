"""Chop! Chop!: a face-down slab read where the classifier is sure there is none, or where the
spot is flat while the frame's slabs show their back's picture.

The rules (``vision.chop_read``) read an occupied slab square by its nearest learned look, and
the slab's look is learned from the start photo (C1: every slab square holds its slab there), so
the printed floor under a slab is never seen in that light. Where the print lost its colours
(a black-and-white laser or faded inkjet print) and a shadow darkens the floor, an empty slab
square changes enough from the digital print to count as occupied, and its nearest learned look
is then the slab's (third family, dev seeds 4301 and 4303: the empty floor read as a slab at
0.25-0.80 under the stand's or a head's shadow). Two things the game guarantees tell:

- **the classifier's confidence, asked the other way.** ``merge`` takes the classifier's reading
  where it is at least ``sure`` of it; a slab where the classifier is at least ``sure`` that no
  face-down slab lies (its slab probability at most ``1 - sure``) is not kept, unless the rules
  are sure of it (``slab_kept``'s first, as ``merge`` keeps one against a cheese) or the slab is
  still the likeliest of what may lie there, within ``chop_classifier_likelier``'s margin (a
  mouse, when four are read, may not lie there), and only in
  a frame where at least ``FEW`` slabs read clearly (a light the reader knows). The
  classifier was never trained on the third family, yet there it gave every true slab read as a
  slab at least 0.6 (3,826 spots, dev 4261, 4262, 4301, 4303);
- **the slabs' backs are one picture** (hidden tiles must look alike), seen in one light within
  a frame: a slab read whose middle is much plainer (its spread, grey deviation over brightness,
  under ``flat`` times the median of the frame's clear slabs) and which the classifier doubts
  is something flat, not a slab back. Only where those backs show a pattern (median spread at
  least ``TEXTURED``). **Off by default** (``PieceConfig.chop_slab_flat`` None): on the second
  and third families' first dev sets every true slab read as one was at least 0.70 of the
  frame's median (4,734 spots), but on the second family's 3264 (thick slabs seen at a tilt: the
  ground spot shows the slab's side and the floor) true slabs fell to 0.26-0.49 and were lost.

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


TEXTURED = 0.1
"""The least spread (grey deviation over brightness) of the frame's clear slabs for their texture
to tell: a plain slab back (first family: about 0.02) tells nothing."""
CLEAR = 0.9
"""A slab reading at least this sure is one of the frame's clear slabs (``clear_slabs``)."""
FEW = 5
"""The fewest clear slabs in a frame for the classifier's doubt or the slabs' spread to count: in
a frame where hardly a slab reads clearly (a light neither the rules nor the classifier know:
second family, dev 3264, scenes 7 and 35) its doubt about one slab says nothing of that slab."""


def _base(token: str | None) -> str:
    return "-" if token is None else token.split(":", 1)[0]


def slab_unlike(out: Decided, rules: Decided, kinds: list[str], probs: np.ndarray, sure: float,
                rules_sure: float, margin: float = 0.0, looks: np.ndarray | None = None,
                flat: float | None = None, textured: float = TEXTURED) -> int:
    """``out`` (the merged readings, in place): a slab read where the classifier's slab
    probability (``probs``, rows as ``CLASSES``) is at most ``1 - sure``, unless the ``rules``
    read the slab at least ``rules_sure``, takes the likeliest other reading allowed on its spot
    (no second cat, at most four mice) when that is at least ``margin`` likelier than the slab; with ``looks`` and
    ``flat``, a slab read whose spread (``looks``' last column) is under ``flat`` times that of
    the frame's clear slabs (``frame_spread``) takes it in any case (module doc). How many changed."""
    p = np.asarray(probs, np.float64)
    slab = CLASSES.index("slab")
    clear = clear_slabs(out, kinds)
    ref = frame_spread(out, kinds, looks, textured) if looks is not None and flat is not None else None
    unlike = {i for i, (t, _) in enumerate(out) if kinds[i] == "slab" and _base(t) == "slab"
              and float(p[i, slab]) <= 1 - sure and not (_base(rules[i][0]) == "slab" and rules[i][1] >= rules_sure)}
    flats = {i for i in unlike if ref is not None and flat is not None and looks is not None
             and float(looks[i, 3]) < flat * ref}
    todo = sorted(flats | (unlike if len(clear) >= FEW else set()))
    if not todo:
        return 0
    count = {c: sum(1 for t, _ in out if _base(t) == c) for c in MOST}
    n = 0
    for i in sorted(todo, key=lambda j: float(p[j, slab])):  # the least slab-like first
        q = np.array([p[i, k] if c in ALLOWED[kinds[i]] and c != "slab" and count.get(c, 0) < MOST.get(c, 99)
                      else 0.0 for k, c in enumerate(CLASSES)])
        k = int(q.argmax())
        if q[k] < p[i, slab] + margin and i not in flats:
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


def frame_spread(out: Decided, kinds: list[str], looks: np.ndarray, textured: float = TEXTURED) -> float | None:
    """The median spread (``looks``' last column: the middle's grey deviation over its brightness)
    of the frame's clear slabs (``clear_slabs``; ``FEW`` at least): the slabs' backs are one
    picture (hidden tiles look alike) in one light; None when too few, or when under
    ``textured`` (a plain back)."""
    idx = clear_slabs(out, kinds)
    if len(idx) < FEW:
        return None
    m = float(np.median(np.asarray(looks, np.float64)[idx, 3]))
    return m if m >= textured else None
