"""Chop! Chop!: one piece moved since the confirmed position, so the mice are where it left them.

The app tells the reader the position confirmed before the move due (``ui.cammoves``:
``BoardReader.confirmed``, with ``BoardReader.confirmed_one_move`` set), or after the move just
confirmed: the frame shows at most one turn since. One turn moves one piece (C2), the same one
through a +1 / +2 / arrow follow-up (C5), so:

- **the cat read off its square** (session 31, chopcat): read where it could not go in one move
  (``cat_reach``: the engine's paths of one to ``CAT_REACH`` steps, C2, C3; anywhere past a slab
  read as the floor, C5), or on a spot it could reach while a mouse's move with the cat staying
  is likelier by the classifier (``_mouse_likelier``: the chance of a figure on each spot the two
  differ on). It stands on its confirmed spot where the classifier still sees a figure there (no
  mouse enters the cat's square in a turn the cat stays), else nowhere (asked); the spot it was
  read on takes its likeliest other reading; then the mice are read as below (otherwise);
- **the cat moved** (read on another spot than its confirmed one, one it could reach): no mouse
  moved. Every mouse of the confirmed position is where it stood, except one on the cat's new
  spot, caught (C6; or under it, on the floor beneath the table top, which the pair readers
  report). A mouse read anywhere else is something else (its likeliest other reading: the
  opened hole on a hole), and a confirmed mouse read as anything else is the mouse;
- **otherwise** (the cat stayed, is read nowhere; or was not placed yet): at most one mouse
  moved, from one confirmed mouse's square (left: its hole opened, C4) to one new square. Of the
  mice read where none stood, the likeliest by the classifier of those a confirmed mouse could
  reach in one move (``mouse_could_reach``; of all, where none could) is kept, the others take
  their likeliest other reading, except one the classifier finds likelier than the one kept:
  both stay, unsure (an arrow the reading missed carries a mouse anywhere, C5; session 31); of
  the confirmed mice read missing, the one that left is, of those the kept new mouse is a move
  from, the least likely a mouse by the classifier (of all, where none or no new mouse), the
  others are the mouse (session 30, chopmice).

Every reading changed here is unsure (``vision.chop_known.UNSURE``): the cross-check asks about
it. Nothing is done without the classifier or in a new game. Choosing the mover by a mouse die's
reach (four steps) was measured and dropped: arrows (C5) carry mice farther (third-family dev);
so was dropping a lone new mouse no confirmed mouse could reach (chopmice: a loss on four dev sets).

Measured in ``docs/readme/board/session-30.md`` (chopfirst, chopmice) and ``session-31.md`` (chopcat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np

from companion.boards import load_board
from companion.games.chopchop_paths import walk_paths
from companion.games.chopchop_rules import Geometry

from vision.chop_known import UNSURE, allowed_now, base_token
from vision.chop_squares import CLASSES, likeliest_allowed

MOUSE_REACH = 4
"""The most steps one mouse move takes without a follow-up (the mouse die's highest face, C2)."""

FLOOR = (6, 8)
"""The floor's rows and columns (RULES.md C, the default board): a mouse walks it square to square,
the holes and the squares under the table included (C3)."""

FIGURE = 0.5
"""The classifier's mouse and cat probabilities together at least this on a spot: a figure stands there."""

FIG_CLIP = 0.02
"""The classifier's figure probabilities are clipped to [FIG_CLIP, 1 - FIG_CLIP] when moves are weighed."""

CAT_REACH = 3
"""The most steps one cat move takes (the cat die's highest face, C2), along the engine's paths
(``cat_reach``): a cat read where it could not go is not trusted to have moved (an arrow may carry
it farther, C5: seen only where a slab it could land on is read as the floor)."""


def _cell(square: str) -> tuple[int, int]:
    r, c = square.split(":")[-1].split(",")
    return int(r), int(c)


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


@lru_cache(maxsize=1)
def _geometry() -> Geometry:
    return Geometry.from_board(load_board("chopchop"))


def cat_square(ids: Sequence[str]) -> str:
    """The square the cat stands on at a spot of squares ``ids`` (a table spot: its table top)."""
    return next((s for s in ids if s.startswith("top:")), ids[0])


def cat_reach(confirmed: Mapping[str, str], start: str,
              decided: Mapping[str, str | None] | None = None) -> set[str] | None:
    """The squares the cat of ``start`` (a square of the ``confirmed`` position) may stand on after
    one move (C2, C3, C5), or None for anywhere: exactly one to ``CAT_REACH`` steps along the
    squares a cat may enter (the floor but the holes and the squares under the table, and the
    table top), never onto or through a face-up cheese, never through a mouse (it may end on one,
    C6), never straight back (``companion.games.chopchop_paths.walk_paths``, the engine's own
    paths); anywhere when a slab of the confirmed position it could land on is read gone, the
    floor seen there (``decided``: square -> token read, None the floor; a +1 / +2 / arrow turned
    there carries it on, C5) or on a board other than the default one."""
    geo = _geometry()
    if start not in geo.adjacency:
        return None
    occupied = {s: t for s, t in confirmed.items() if base_token(t) in ("mouse", "cat") and s != start}
    cheese = {s for s, t in confirmed.items() if base_token(t) == "cheese"}
    ends: set[str] = set()
    for n in range(1, CAT_REACH + 1):
        ends.update(walk_paths(geo, "cat", occupied, cheese, None, start, n, None))
    if decided is not None and any(base_token(confirmed.get(s)) == "slab" and s in decided
                                   and decided[s] in (None, "-") for s in ends):
        return None
    return ends


def cat_could_reach(confirmed: Mapping[str, str], start: str, end: str,
                    decided: Mapping[str, str | None] | None = None) -> bool:
    """Could the cat of ``start`` stand on ``end`` after one move (``cat_reach``)? A slab read gone
    on ``end`` itself is where the cat landed, not a follow-up."""
    reach = cat_reach(confirmed, start, None if decided is None else {**decided, end: "slab"})
    return reach is None or end in reach


def _mouse_likelier(decided: list[tuple[str | None, float]], groups: Sequence[Sequence[str]],
                    confirmed: Mapping[str, str], p: np.ndarray, then: int, now: int) -> bool:
    """Does the classifier find a mouse's move (the cat stayed on ``then``) likelier than the
    cat's move to ``now``? Each spot that differs between them scores the chance a figure (a
    mouse or the cat) stands there or not: the cat's move has the figure on ``now``, none on
    ``then``, every confirmed mouse where it stood and no new mouse; a mouse's move the figure
    on ``then``, one confirmed mouse (or none) gone to one new spot (``now`` among them, or none)."""
    c, m = CLASSES.index("cat"), CLASSES.index("mouse")
    if any(base_token(confirmed.get(s)) == "mouse" for s in groups[then]):
        return False  # a mouse under the table-top cat: the figure there is not the cat's
    fig = np.clip(p[:, c] + p[:, m], FIG_CLIP, 1 - FIG_CLIP)
    yes, no = np.log(fig), np.log(1 - fig)
    squares = [ids[0] for ids in groups]
    read_now = {s: t for s, (t, _) in zip(squares, decided)}
    stood = [i for i, ids in enumerate(groups) if i not in (then, now)
             and any(base_token(confirmed.get(s)) == "mouse" for s in ids)]
    gone = [i for i in stood if base_token(decided[i][0]) != "mouse"]
    fresh = [i for i, (t, _) in enumerate(decided) if base_token(t) == "mouse" and i not in stood and i != then]
    cat = yes[now] + no[then] + sum(yes[g] for g in gone) + sum(no[f] for f in fresh)
    base = yes[then] + sum(yes[g] for g in gone) + sum(no[f] for f in [*fresh, now])
    mouse_now = np.log(np.clip(p[now, m], FIG_CLIP, 1 - FIG_CLIP))  # the cat read on ``now`` a mouse
    best = base
    for g in gone:
        best = max(best, base + no[g] - yes[g])
        for f in [*fresh, now]:
            if mouse_could_reach(confirmed, squares[g], squares[f], read_now):
                best = max(best, base + no[g] - yes[g] + (mouse_now if f == now else yes[f]) - no[f])
    return bool(best > cat)


def _cat_read_off(decided: list[tuple[str | None, float]], kinds: Sequence[str], groups: Sequence[Sequence[str]],
                  confirmed: Mapping[str, str], p: np.ndarray, then: int, now: int) -> tuple[int, int]:
    """The cat of spot ``then`` (the confirmed position's) read on spot ``now``: where it could not
    have gone in one move (``cat_could_reach``), or where a mouse's move is likelier
    (``_mouse_likelier``), it was read off its square. It stands, unsure, on ``then`` where the
    classifier still finds a figure there (mouse and cat at least ``FIGURE``: no mouse enters the
    cat's square in the turn the cat stays); else it is read nowhere (asked: a spot it could reach
    where the classifier sees the cat was as often a mouse, on the dev sets).
    ``now`` takes its likeliest other reading, unsure. Returns the cat's spot (-1: none) and how
    many readings changed (in place: ``decided``)."""
    start = next(s for s in groups[then] if base_token(confirmed.get(s)) == "cat")
    read_now = {ids[0]: t for ids, (t, _) in zip(groups, decided)}
    if cat_could_reach(confirmed, start, cat_square(groups[now]), read_now) and not _mouse_likelier(
            decided, groups, confirmed, p, then, now):
        return now, 0
    c, m = CLASSES.index("cat"), CLASSES.index("mouse")
    spot = then if float(p[then, m] + p[then, c]) >= FIGURE else -1
    allowed = allowed_now(kinds[now], confirmed.get(groups[now][0])) - {"cat"}
    decided[now] = likeliest_allowed(p[now], allowed, UNSURE, "hole" if "hole" in allowed else "-")
    if spot >= 0:
        decided[spot] = ("cat", UNSURE)
    return spot, 1 + (spot >= 0)


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
    off = 0
    if cat_now and cat_then and cat_now[0] != cat_then[0]:  # where it could go in one move, or read off
        spot, off = _cat_read_off(decided, kinds, groups, confirmed, p, cat_then[0], cat_now[0])
        cat_now = [spot] if spot >= 0 else []
    cat = cat_now[0] if cat_now else -1
    stood = [i for i, w in enumerate(was) if "mouse" in w and i != cat]
    read = [i for i, (t, _) in enumerate(decided) if base_token(t) == "mouse"]
    fresh = [i for i in read if i not in stood]
    gone = [i for i in stood if i not in read]
    drop: list[int] = []
    back: list[int] = []
    unsure: list[int] = []
    if cat_now and cat_then and cat != cat_then[0]:
        drop, back = fresh, gone  # the cat moved: no mouse did
    else:  # at most one mouse moved: one new square, one left
        read_now = {s: t for s, (t, _) in zip(squares, decided)}
        if len(fresh) > 1:  # the likeliest of those a confirmed mouse could reach, else of all
            legal = [i for i in fresh if any(mouse_could_reach(confirmed, squares[o], squares[i], read_now)
                                             for o in gone or stood)]
            pool = legal or fresh
            pool.sort(key=lambda i: -p[i, m])
            drop = [i for i in fresh if i != pool[0]]
            likelier = [i for i in drop if p[i, m] > p[pool[0], m]]
            if likelier:  # a likelier new mouse out of reach (an arrow unseen, C5): both asked
                top = max(likelier, key=lambda i: p[i, m])
                drop.remove(top)
                unsure = [pool[0], top]
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
    for i in unsure:
        decided[i] = ("mouse", min(decided[i][1], UNSURE))
    return off + len(drop) + len(back) + len(unsure)
