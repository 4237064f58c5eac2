"""Chop! Chop!: the mouse that moved, where it landed unseen, against the position one move back.

With the position one move back (``BoardReader.confirmed_one_move``, after ``vision.chop_moved.one_move``),
the cat read where it stood means a mouse's turn (C2: one piece moves, the cat stayed). When then
exactly one mouse of that position is read missing, its spot shows no figure (the classifier's
mouse and cat together under ``GONE_FIGURE``) and no mouse is read where none stood, the mouse
left and landed somewhere the reading does not show it: on a slab square (C5: the slab turned and
taken away, the classifier still sees the slab it knew there) or in an opened hole (a dark mouse
in a dark hole). It stands on a square it could reach in one move
(``vision.chop_moved.mouse_could_reach``: four steps around the pieces and the face-up cheese,
anywhere past a slab read gone), one a mouse may stand on (no table top, no face-up cheese, no
other figure). Where the cat stands on the table top and the mouse could reach the floor under
it, it may stand there unseen (``vision.chop_count``): nothing is done.

Of those squares, the one the classifier singles out is the mouse, unsure (``UNSURE``: the
cross-check asks about it): its mouse probability at least ``LEAST`` and at least ``SINGLED``
times every other one's. Where none is singled out nothing changes (the app asks, as before).
Measured in ``docs/readme/board/session-32.md`` (chopmouse).

``landed_not_read`` (session 32, chopland): the same turn where the one new mouse read is one the
mouse that left could not reach in one move (``mouse_could_reach``) and the classifier does not
back it: of the squares it could reach, one singled out as above and likelier a mouse by the
classifier than the new one read is where it landed (a mouse standing on the slab it landed on,
the slab read under it). That square is the mouse and the new one read takes its likeliest other
reading, both unsure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.chop_known import UNSURE, base_token
from vision.chop_moved import mouse_could_reach
from vision.chop_squares import ALLOWED, CLASSES, likeliest_allowed

GONE_FIGURE = 0.3
"""The mouse read missing shows no figure: the classifier's mouse and cat together under this at its spot."""

LEAST = 0.05
"""The least classifier mouse probability of the square the mouse is put on."""

SINGLED = 2.0
"""The square the mouse is put on: its mouse probability at least this many times every other reachable square's."""


def landed_mouse(decided: list[tuple[str | None, float]], kinds: Sequence[str], groups: Sequence[Sequence[str]],
                 confirmed: Mapping[str, str], probs: np.ndarray | None, new: bool = False) -> int:
    """The mouse that left and landed unseen (module doc), in place (``decided``: one reading per
    spot, after ``one_move``; ``groups``: each spot's squares, the first its own; ``kinds``: each
    spot's kind; ``probs``: the classifier's, rows as ``CLASSES``; ``new``: a new game, nothing
    done). Returns how many readings changed (0 or 1)."""
    if not confirmed or probs is None or new:
        return 0
    p = np.asarray(probs, np.float64)
    m, c = CLASSES.index("mouse"), CLASSES.index("cat")
    squares = [ids[0] for ids in groups]
    was = [{base_token(confirmed.get(s)) for s in ids} for ids in groups]
    now = [base_token(t) if t is not None else None for t, _ in decided]
    cat_then = [i for i, w in enumerate(was) if "cat" in w]
    cat_now = [i for i, t in enumerate(now) if t == "cat"]
    if len(cat_then) != 1 or cat_now != cat_then:
        return 0  # the cat moved, or is read nowhere or twice: not a mouse's turn for sure
    stood = [i for i, w in enumerate(was) if "mouse" in w and i != cat_then[0]]
    gone = [i for i in stood if now[i] != "mouse"]
    fresh = [i for i, t in enumerate(now) if t == "mouse" and i not in stood]
    if len(gone) != 1 or fresh or float(p[gone[0], m] + p[gone[0], c]) >= GONE_FIGURE:
        return 0
    start = squares[gone[0]]
    read_now = {s: t for s, t in zip(squares, now)}
    under = [s for s in groups[cat_then[0]] if not s.startswith("top:")]
    if any(s.startswith("top:") for s in groups[cat_then[0]]) and under and mouse_could_reach(
            confirmed, start, under[0], read_now):
        return 0  # the cat on the table top hides the floor under it: the mouse may stand there unseen
    can = [i for i, ids in enumerate(groups)
           if i != gone[0] and now[i] not in ("mouse", "cat", "cheese") and "mouse" in ALLOWED[kinds[i]]
           and not any(base_token(confirmed.get(s)) in ("mouse", "cat", "cheese") for s in ids)
           and mouse_could_reach(confirmed, start, squares[i], read_now)]
    if not can:
        return 0
    can.sort(key=lambda i: -p[i, m])
    best = can[0]
    if p[best, m] < LEAST or (len(can) > 1 and p[best, m] < SINGLED * p[can[1], m]):
        return 0
    decided[best] = ("mouse", UNSURE)
    return 1


def landed_not_read(decided: list[tuple[str | None, float]], kinds: Sequence[str], groups: Sequence[Sequence[str]],
                    confirmed: Mapping[str, str], probs: np.ndarray | None, new: bool = False) -> int:
    """The mouse that left, read on a square it could not reach while the classifier singles out
    one it could (module doc), in place; arguments as ``landed_mouse``. Returns how many readings
    changed (0 or 2)."""
    if not confirmed or probs is None or new:
        return 0
    p = np.asarray(probs, np.float64)
    m, c = CLASSES.index("mouse"), CLASSES.index("cat")
    squares = [ids[0] for ids in groups]
    was = [{base_token(confirmed.get(s)) for s in ids} for ids in groups]
    now = [base_token(t) if t is not None else None for t, _ in decided]
    cat_then = [i for i, w in enumerate(was) if "cat" in w]
    cat_now = [i for i, t in enumerate(now) if t == "cat"]
    if len(cat_then) != 1 or cat_now != cat_then:
        return 0  # not a mouse's turn for sure
    stood = [i for i, w in enumerate(was) if "mouse" in w and i != cat_then[0]]
    gone = [i for i in stood if now[i] != "mouse"]
    fresh = [i for i, t in enumerate(now) if t == "mouse" and i not in stood]
    if len(gone) != 1 or len(fresh) != 1 or float(p[gone[0], m] + p[gone[0], c]) >= GONE_FIGURE:
        return 0
    start, f = squares[gone[0]], fresh[0]
    read_now = {s: t for s, t in zip(squares, now)}
    if mouse_could_reach(confirmed, start, squares[f], read_now):
        return 0  # the new mouse read is one it could be: landed_mouse's and one_move's
    under = [s for s in groups[cat_then[0]] if not s.startswith("top:")]
    if any(s.startswith("top:") for s in groups[cat_then[0]]) and under and mouse_could_reach(
            confirmed, start, under[0], read_now):
        return 0  # it may stand unseen under the table-top cat
    can = [i for i, ids in enumerate(groups)
           if i not in (gone[0], f) and now[i] not in ("mouse", "cat", "cheese") and "mouse" in ALLOWED[kinds[i]]
           and not any(base_token(confirmed.get(s)) in ("mouse", "cat", "cheese") for s in ids)
           and mouse_could_reach(confirmed, start, squares[i], read_now)]
    if not can:
        return 0
    can.sort(key=lambda i: -p[i, m])
    best = can[0]
    if p[best, m] < LEAST or p[best, m] <= p[f, m] or (len(can) > 1 and p[best, m] < SINGLED * p[can[1], m]):
        return 0
    decided[best] = ("mouse", UNSURE)
    decided[f] = likeliest_allowed(p[f], ALLOWED[kinds[f]] - {"mouse", "cat"}, UNSURE)
    return 2
