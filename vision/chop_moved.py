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
  to one new square. Of the mice read where none stood, the likeliest by the classifier of those
  a confirmed mouse could reach in one move (``mouse_could_reach``; of all, where none could) is
  kept, the others take their likeliest other reading; of the confirmed mice read missing, the
  one that left is, of those the kept new mouse is a move from, the least likely a mouse by the
  classifier (of all, where none or no new mouse), the others are the mouse (session 30, chopmice).

Every reading changed here is unsure (``vision.chop_known.UNSURE``): the cross-check asks about
it. Nothing is done without the classifier or in a new game. Choosing the mover by a mouse die's
reach (four steps) was measured and dropped: arrows (C5) carry mice farther (third-family dev);
so was dropping a lone new mouse no confirmed mouse could reach (chopmice: a loss on four dev sets).

Measured in ``docs/readme/board.md`` (session 30, chopfirst).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.chop_known import UNSURE, allowed_now, base_token
from vision.chop_squares import CLASSES, likeliest_allowed

MOUSE_REACH = 4
"""The most steps one mouse move takes without a follow-up (the mouse die's highest face, C2)."""

FLOOR = (6, 8)
"""The floor's rows and columns (RULES.md C, the default board): a mouse walks it square to square,
the holes and the squares under the table included (C3)."""

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


def _steps(start: tuple[int, int], walls: set[tuple[int, int]], reach: int) -> dict[tuple[int, int], int]:
    """Each floor square a mouse on ``start`` walks to in at most ``reach`` steps (C2: orthogonal,
    never onto or through ``walls``: other pieces, face-up cheese), with its steps."""
    dist = {start: 0}
    todo = [start]
    for d in range(1, reach + 1):
        nxt: list[tuple[int, int]] = []
        for r, c in todo:
            for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if q not in dist and q not in walls and 0 <= q[0] < FLOOR[0] and 0 <= q[1] < FLOOR[1]:
                    dist[q] = d
                    nxt.append(q)
        todo = nxt
    return dist


def mouse_could_reach(confirmed: Mapping[str, str], start: str, end: str,
                      decided: Mapping[str, str | None] | None = None) -> bool:
    """Could the mouse of ``start`` (a square of the ``confirmed`` position) stand on ``end`` after
    one move (C2, C3, C5)? Within ``MOUSE_REACH`` steps along the floor around the other pieces and
    the face-up cheese; or anywhere when a slab of the confirmed position within that reach is read
    gone (``decided``: square -> token read; a +1 / +2 / arrow turned there carries it on, C5)."""
    walls = set()
    for sq, tok in confirmed.items():
        t = base_token(tok)
        if sq != start and (t in ("mouse", "cheese") or (t == "cat" and not sq.startswith("top:"))):
            walls.add(_cell(sq))
    goal = _cell(end)
    dist = _steps(_cell(start), walls, MOUSE_REACH)
    if 0 < dist.get(goal, 0):
        return True
    if decided is None:
        return False
    for sq, tok in confirmed.items():
        if base_token(tok) == "slab" and _cell(sq) != goal and 0 < dist.get(_cell(sq), 0) \
                and base_token(decided.get(sq, "slab")) not in ("slab", "cheese"):
            return True
    return False


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
        read_now = {s: t for s, (t, _) in zip(squares, decided)}
        if len(fresh) > 1:  # the likeliest of those a confirmed mouse could reach, else of all
            legal = [i for i in fresh if any(mouse_could_reach(confirmed, squares[o], squares[i], read_now)
                                             for o in gone or stood)]
            pool = legal or fresh
            pool.sort(key=lambda i: -p[i, m])
            drop = [i for i in fresh if i != pool[0]]
        kept = [i for i in fresh if i not in drop]
        if len(gone) > 1:
            # the one that left: of those the new mouse's square is a move from, the least likely a mouse
            movers = [j for j in gone
                      if kept and mouse_could_reach(confirmed, squares[j], squares[kept[0]], read_now)]
            gone.sort(key=lambda j: (j not in movers, p[j, m]))
            back = gone[1:]
    for i in drop:
        allowed = allowed_now(kinds[i], confirmed.get(squares[i])) - {"mouse", "cat"}
        decided[i] = likeliest_allowed(p[i], allowed, UNSURE, "hole" if "hole" in allowed else "-")
    for i in back:
        decided[i] = ("mouse", UNSURE)
    return len(drop) + len(back)
