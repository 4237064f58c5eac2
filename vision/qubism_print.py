"""Qubism's white pawn kept by the piece count on a spot that looks like its own empty print (issue 31).

Where more spots read as the white pawn than the game has, the count keeps the one whose change from
the print is most like the learned pawn's (``vision.qubism_pawns.count_order``). On a light square
under a low, steep light (the third family's 44° ceiling light) an empty square's change from its
print can correlate with the learned shape better than the real pawn's does, and the count keeps
the empty square (session 32, qempty: of the 10 spots the count kept as the white pawn whose look was
nearer their own empty print than the pawn's learned look, over the twelve sets qwhite traced, 8 were
not the pawn: 7 empty squares and a cube).

What an empty square shows is its print: its look is nearer the empty print's look there than the
learned pawn's (the count's own support under 1). Such a kept spot is not trusted (in the cube stage,
``CubeSpots._pawns_off_print``, once the cubes are read: a rival read as a cube since is no candidate):

- where a spot the count took the pawn from (read as the pawn at the first look, read empty by the
  count and by the cube stage), itself nearer the pawn's look than its own print's, has a look nearer
  the pawn's than the kept spot's and a fuller raised middle (a solid standing up fills the plane a
  square's 0.4 above the board; a print does not), the pawn goes there and the kept spot is read
  empty, both asked;
- otherwise the pawn stays where it was kept, asked (neither spot is clearly the pawn).

No new threshold: each test compares two spots, or a spot with its own print.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PawnOffPrint:
    """The rule's switch and the confidence it leaves (under the reading's 0.6: the app asks)."""

    on: bool = True
    conf: float = 0.55


def pawn_off_print(decided: list[tuple[str | None, float]], pawn: str, kept: list[int], dropped: list[int],
                   d_pawn: np.ndarray, d_empty: np.ndarray, centre: np.ndarray,
                   rule: PawnOffPrint) -> list[int]:
    """Correct ``decided`` in place for the spots the count ``kept`` as ``pawn`` whose look (``d_pawn``:
    distance to the pawn's learned look) is farther than from their own empty print (``d_empty``): the
    pawn moves to the nearest-looking spot of ``dropped`` (read empty now) whose look is nearer the pawn's
    than the kept spot's and than its own print's, and whose raised middle (``centre``) changed more; else it stays, unsure. Returns the spots changed."""
    changed: list[int] = []
    if not rule.on:
        return changed
    for k in kept:
        if decided[k][0] != pawn or not d_empty[k] < d_pawn[k]:
            continue
        better = [j for j in dropped if decided[j][0] is None and d_pawn[j] < d_pawn[k] and d_pawn[j] < d_empty[j]
                  and np.isfinite(centre[j]) and np.isfinite(centre[k]) and centre[j] > centre[k]]
        if better:
            j = min(better, key=lambda i: float(d_pawn[i]))
            decided[j] = (pawn, rule.conf)
            decided[k] = (None, min(decided[k][1], rule.conf))
            changed += [k, j]
        else:
            decided[k] = (pawn, min(decided[k][1], rule.conf))
            changed.append(k)
    return changed
