"""Chop! Chop!'s heuristic for the greedy baseline: simple, hand-written, the yardstick.

Mice: cheese held (what wins), mice still in the game, holes opened (C8 needs all four), and
face-up cheese they cannot take without a fork counts against them, and so does each mouse
outside a hole within the cat's longest throw (3, as the crow walks). Cat: the mirror of the
first part, plus being close to the nearest mouse outside a hole (to catch it). A won or lost position is
+/-1e6 (:func:`bench.baselines.outcome_score`).
"""

from __future__ import annotations

from bench.baselines import outcome_score
from companion.games.base import State
from companion.games.chopchop import ChopChopState


def _cell(state: ChopChopState, square: str) -> tuple[int, int]:
    cell = state.geo.board.squares[square].cell
    return cell if cell is not None else (0, 0)


def _cat_distances(state: ChopChopState) -> list[int]:
    """Manhattan distance from the cat to each mouse outside a hole."""
    if state.cat is None:
        return []
    cr, cc = _cell(state, state.cat)
    dists = []
    for sq in state.mice.values():
        if sq is None or sq in state.geo.holes:
            continue
        r, c = _cell(state, sq)
        dists.append(abs(r - cr) + abs(c - cc))
    return dists


def score(state: State, seat: str) -> float:
    done = outcome_score(state, seat)
    if done is not None:
        return done
    assert isinstance(state, ChopChopState)
    left = len(state.mice_left())
    mice = (10.0 * state.cheese_held - 6.0 * len(state.face_up_cheese) + 8.0 * left
            + 2.0 * len(state.opened))
    dists = _cat_distances(state)
    if seat == "cat":
        return -mice - 0.5 * min(dists, default=0)
    return mice - 3.0 * sum(1 for d in dists if d <= 3)  # mice within the cat's throw
