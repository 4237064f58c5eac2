"""Chop! Chop!: one piece moved since the confirmed position, so the mice are where it left them.

The app tells the reader the position confirmed before the move due (``ui.cammoves``:
``BoardReader.confirmed``, with ``BoardReader.confirmed_one_move`` set), or after the move just
confirmed: the frame shows at most one turn since. One turn moves one piece (C2), the same one
through a +1 / +2 / arrow follow-up (C5), so:

- **the cat moved** (read on another spot than its confirmed one, within ``CAT_REACH`` steps):
  no mouse moved. Every mouse of the confirmed position is where it stood, except one on the
  cat's new spot, caught (C6; or under it, on the floor beneath the table top, which the pair
  readers report). A mouse read anywhere else is something else (its likeliest other reading:
  the opened hole on a hole), and a confirmed mouse read as anything else is the mouse;
- **otherwise** (the cat stayed, is read nowhere or farther than a cat move; or was not placed
  yet): at most one mouse moved, from one confirmed mouse's square (left: its hole opened, C4)
  to one new square. Of the mice read where none stood, the likeliest by the classifier is
  kept, the others take their likeliest other reading; of the confirmed mice read missing, the
  least likely a mouse by the classifier may have left, the others are the mouse.

Every reading changed here is unsure (``vision.chop_known.UNSURE``): the cross-check asks about
it. Nothing is done without the classifier or in a new game. Choosing the mover by a mouse die's
reach (four steps) was measured and dropped: arrows (C5) carry mice farther (third-family dev).

Measured in ``docs/readme/board.md`` (session 30, chopfirst).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.chop_known import UNSURE, allowed_now, base_token
from vision.chop_squares import CLASSES, likeliest_allowed

CAT_REACH = 3
"""The most steps one cat move takes (the cat die's highest face, C2; orthogonal steps, rows plus
columns): a cat read farther from its confirmed square is not trusted to have moved (an arrow
may carry it farther, C5, but a mouse read as the cat is likelier: the third family's dev set)."""


def _cell(square: str) -> tuple[int, int]:
    r, c = square.split(":")[-1].split(",")
    return int(r), int(c)


def _near(a: str, b: str, reach: int) -> bool:
    (r0, c0), (r1, c1) = _cell(a), _cell(b)
    return abs(r0 - r1) + abs(c0 - c1) <= reach


def one_move(decided: list[tuple[str | None, float]], kinds: Sequence[str], groups: Sequence[Sequence[str]],
             confirmed: Mapping[str, str], probs: np.ndarray | None, new: bool = False) -> int:
    """The mice read against a ``confirmed`` position one turn back (module doc), in place
    (``decided``: one reading per spot; ``groups``: each spot's squares, the first its own;
    ``probs``: the classifier's, rows as ``CLASSES``; ``new``: a new game, nothing done).
    Returns how many readings changed."""
    if not confirmed or probs is None or new:
        return 0
    p = np.asarray(probs, np.float64)
    m = CLASSES.index("mouse")
    squares = [ids[0] for ids in groups]
    was = [{base_token(confirmed.get(s)) for s in ids} for ids in groups]
    cat_then = [i for i, w in enumerate(was) if "cat" in w]
    cat_now = [i for i, (t, _) in enumerate(decided) if base_token(t) == "cat"]
    if len(cat_now) > 1 or len(cat_then) > 1:
        return 0
    cat = cat_now[0] if cat_now else -1
    stood = [i for i, w in enumerate(was) if "mouse" in w and i != cat]
    read = [i for i, (t, _) in enumerate(decided) if base_token(t) == "mouse"]
    fresh = [i for i in read if i not in stood]
    gone = [i for i in stood if i not in read]
    drop: list[int] = []
    back: list[int] = []
    if cat_now and cat_then and cat != cat_then[0] and _near(squares[cat], squares[cat_then[0]], CAT_REACH):
        drop, back = fresh, gone  # the cat moved: no mouse did
    else:  # at most one mouse moved: one new square, one left
        if len(fresh) > 1:
            fresh.sort(key=lambda i: -p[i, m])
            drop = fresh[1:]
        if len(gone) > 1:
            gone.sort(key=lambda j: p[j, m])
            back = gone[1:]
    for i in drop:
        allowed = allowed_now(kinds[i], confirmed.get(squares[i])) - {"mouse", "cat"}
        decided[i] = likeliest_allowed(p[i], allowed, UNSURE, "hole" if "hole" in allowed else "-")
    for i in back:
        decided[i] = ("mouse", UNSURE)
    return len(drop) + len(back)
