"""Kilkenny Cats heuristic for the greedy baseline: cats, with a nudge towards the mice.

Score for ``seat``: +/-1e6 for a won/lost game; otherwise its cats on the board (a parked cat
counts double: it is safe and half a win) minus the strongest opponent's, plus 0.01 per row
(or column) its mobile cats have advanced towards its mice, so that with nothing to capture
it walks forward rather than shuffling.
"""

from __future__ import annotations

from bench.baselines import outcome_score
from companion.games.base import State
from companion.games.kilkenny import KilkennyState


def _cats(state: KilkennyState, colour: str) -> float:
    mice = state.game.geometry.mice
    return sum(2.0 if sq in mice else 1.0 for sq, col in state.cats.items() if col == colour)


def _advance(state: KilkennyState, colour: str) -> float:
    geo = state.game.geometry
    mr, mc = geo.cells[min(state.game.mice_of[colour])]
    north_south = mr in (-1, 14)
    total = 0.0
    for sq in state.mobile_cats(colour):
        r, c = geo.cells[sq]
        total += 14 - (abs(r - mr) if north_south else abs(c - mc))
    return total


def score(state: State, seat: str) -> float:
    done = outcome_score(state, seat)
    if done is not None:
        return done
    assert isinstance(state, KilkennyState)
    others = [p for p in state.game.players if p != seat]
    material = _cats(state, seat) - max(_cats(state, p) for p in others)
    return material + 0.01 * _advance(state, seat)
