"""Chop! Chop!: how long legal-move generation and apply take (the UI needs them instant).

Usage: .venv/bin/python bench/chopchop_moves.py [games]
Prints the mean and worst time per call over every decision point of seeded random games.
"""

from __future__ import annotations

import random
import sys
import time

from companion.games.base import CHANCE
from companion.games.chopchop import ChopChop
from companion.games.chopchop_tracker import tracker


def main(games: int = 30) -> None:
    legal: list[float] = []
    dests: list[float] = []
    apply: list[float] = []
    track: list[float] = []
    for seed in range(games):
        rng = random.Random(seed)
        s = ChopChop(mice_players=1 + seed % 4).new_state()
        while not s.is_over():
            if s.to_move() == CHANCE:
                outs = s.chance_outcomes()
                a = rng.choices([x for x, _ in outs], [float(p) for _, p in outs])[0]
            else:
                t0 = time.perf_counter()
                acts = s.legal_actions()
                legal.append(time.perf_counter() - t0)
                if s.phase in ("move", "bonus"):
                    t0 = time.perf_counter()
                    for piece in s.game.pieces:
                        s.legal_destinations(piece)
                    dests.append(time.perf_counter() - t0)
                a = rng.choice(acts)
            t0 = time.perf_counter()
            tracker(s)
            track.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            s.apply(a)
            apply.append(time.perf_counter() - t0)
    for name, xs in (("legal_actions()", legal), ("legal_destinations(all pieces)", dests),
                     ("apply()", apply), ("tracker()", track)):
        xs.sort()
        print(f"{name:<32} n={len(xs):>6}  mean {1000 * sum(xs) / len(xs):.3f} ms  "
              f"p99 {1000 * xs[int(0.99 * (len(xs) - 1))]:.3f} ms  max {1000 * xs[-1]:.3f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
