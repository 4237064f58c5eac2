"""Chop! Chop!'s paths (C2, C3, C6): every way a piece may walk exactly the steps it has.

A pure function of the board and who stands where, split out of
:mod:`companion.games.chopchop_state`, whose ``legal_destinations`` and moves use it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from companion.games.chopchop_actions import CAT, MICE

if TYPE_CHECKING:
    from companion.games.chopchop_rules import Geometry

Paths = dict[str, list[tuple[str, ...]]]
"""destination -> every path reaching it (the squares after the start, the destination last)"""


def walk_paths(geo: Geometry, piece: str, occupied: Mapping[str, str], cheese: Collection[str],
               barred: str | None, start: str, steps: int, no_first: str | None) -> Paths:
    """Every path of exactly ``steps`` steps of ``piece`` from ``start`` that ends on a square it may
    end on: never back along the step just taken, never first to ``no_first`` (the square a +1/+2
    follow-up came from), through squares its kind may stand on, free of face-up cheese and of
    other pieces; the cat may end on a mouse (it catches it) but not on ``barred`` (C6)."""
    kind = CAT if piece == CAT else MICE
    out: Paths = {}
    path: list[str] = []

    def passable(sq: str) -> bool:
        return geo.may_stand(kind, sq) and sq not in cheese and (sq not in occupied or occupied[sq] == piece)

    def can_end(sq: str) -> bool:
        if sq == start or not geo.may_stand(kind, sq) or sq in cheese:
            return False
        who = occupied.get(sq)
        if kind == CAT:
            return sq != barred and (who is None or who == CAT or who.startswith("mouse"))
        return who is None or who == piece

    def walk(cur: str, prev: str | None, left: int) -> None:
        for nxt in geo.adjacency.get(cur, ()):
            if nxt == prev:
                continue
            if left == 1:
                if can_end(nxt):
                    path.append(nxt)
                    out.setdefault(nxt, []).append(tuple(path))
                    path.pop()
            elif passable(nxt):
                path.append(nxt)
                walk(nxt, cur, left - 1)
                path.pop()

    if steps > 0:
        walk(start, no_first, steps)
    return out


def mouse_reach(geo: Geometry, start: str, walls: Collection[str]) -> set[str]:
    """C8's measure: every square a mouse could ever walk to from ``start``, whatever the dice and
    the other pieces, along squares a mouse may enter (C3). ``walls`` are the squares it can never
    cross (the face-up cheese, also the one under the cat); the table top is a wall by C3; other
    pieces are not walls (they move, or are caught). ``start`` itself is in the set."""
    seen = {start}
    todo = [start]
    while todo:
        cur = todo.pop()
        for nxt in geo.adjacency.get(cur, ()):
            if nxt not in seen and nxt not in walls and geo.may_stand(MICE, nxt):
                seen.add(nxt)
                todo.append(nxt)
    return seen
