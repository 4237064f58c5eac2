"""Legal-move generation speed for Kilkenny Cats and Qubism (is an instant UI highlight possible?).

Prints microseconds per call of ``legal_actions()`` (and Kilkenny's ``legal_targets(square)``,
what the UI calls when a cat is touched) on fixed positions: the start, a mid-game position
reached by a seeded random game, and a 4-player mid-game. Single-threaded; best of 5 repeats.

    .venv/bin/python bench/moves.py [--repeat 5] [--number 2000]
"""

from __future__ import annotations

import argparse
import random
import timeit
from collections.abc import Callable

from companion.games.kilkenny import KilkennyCats, KilkennyState
from companion.games.qubism import Qubism, QubismState


def kilkenny_midgame(players: int, seed: int, plies: int) -> KilkennyState:
    rng = random.Random(seed)
    s = KilkennyCats(players=players).new_state()
    for _ in range(plies):
        if s.is_chance():
            s.apply(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply(rng.choice(s.legal_actions()))
        if s.is_over():
            raise SystemExit("the seeded game ended early; pick another seed")
    return s


def qubism_midgame(seed: int, plies: int) -> QubismState:
    rng = random.Random(seed)
    s = Qubism().new_state()
    for _ in range(plies):
        if s.is_chance():
            s.apply(rng.choice(s.chance_outcomes())[0])
            continue
        acts = s.legal_actions()
        # cubes only, so the pawns stay in play and the board fills up
        cube_acts = [a for a in acts if type(a).__name__ != "PawnMove"] or acts
        s.apply(rng.choice(cube_acts))
    if s.is_chance():
        s.apply(s.chance_outcomes()[0][0])
    return s


def best_us(fn: Callable[[], object], number: int, repeat: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--number", type=int, default=2000)
    args = ap.parse_args()
    print(f"{'position':<34} {'moves':>5} {'µs/legal_actions':>17} {'µs/legal_targets':>17}")
    for label, players, seed, plies in (
        ("kilkenny start (2p)", 2, 0, 0),
        ("kilkenny mid-game (2p, 60 plies)", 2, 1, 60),
        ("kilkenny mid-game (4p, 80 plies)", 4, 2, 80),
    ):
        s = kilkenny_midgame(players, seed, plies)
        if s.is_chance():
            s.apply(s.chance_outcomes()[2][0])  # a throw of 3
        n = len(s.legal_actions())
        sq = s.mobile_cats(s.turn)[0]
        la = best_us(s.legal_actions, args.number, args.repeat)
        lt = best_us(lambda: s.legal_targets(sq), args.number * 5, args.repeat)
        print(f"{label:<34} {n:>5} {la:>17.1f} {lt:>17.2f}")
    for label, plies in (("qubism start", 0), ("qubism mid-game (12 cube plies)", 12)):
        q = qubism_midgame(3, plies)
        n = len(q.legal_actions())
        la = best_us(q.legal_actions, max(1, args.number // 10), args.repeat)
        print(f"{label:<34} {n:>5} {la:>17.1f} {'-':>17}")


if __name__ == "__main__":
    main()
