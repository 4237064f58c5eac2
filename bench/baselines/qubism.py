"""The greedy baseline's Qubism heuristic: the race between the two pawns.

``score = d_opponent - d_seat`` (each pawn's shortest number of steps to its goal row over
cube-free squares, other pawns ignored, as in Q6), +/-1e6 for a won / lost game. So greedy walks
its pawn home when that keeps it ahead and drops a cube in the opponent's way when that gains
more. Written plainly on purpose: it is the yardstick, not a searcher.
"""

from __future__ import annotations

from companion.games.base import State
from companion.games.qubism import QubismState
from bench.baselines import outcome_score


def distance(state: QubismState, player: str) -> int:
    """Steps from ``player``'s pawn to its goal row around the cubes (99 if walled in)."""
    geo = state.game.geometry
    goal = state.game.goal_of[player]
    start = state.pawns[player]
    seen = {start}
    layer = [start]
    steps = 0
    while layer:
        if any(sq in goal for sq in layer):
            return steps
        nxt = []
        for sq in layer:
            for n in geo.nbrs[sq]:
                if n not in seen and n not in state.cubes:
                    seen.add(n)
                    nxt.append(n)
        layer = nxt
        steps += 1
    return 99


def score(state: State, seat: str) -> float:
    done = outcome_score(state, seat)
    if done is not None:
        return done
    assert isinstance(state, QubismState)
    other = next(p for p in state.game.players if p != seat)
    return float(distance(state, other) - distance(state, seat))
