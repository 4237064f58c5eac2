"""Chop! Chop!'s cheese race on its own, without the board: how the mice's winning chance
depends on the share of the slabs the cat turns (RULES.md §2, default tiles).

The mice need all 10 cheese (C8). A cheese the cat turns stays face up and comes back only
with a fork a mouse turns while a face-up cheese is free (C5); a fork turned with none is lost.
The model: the 38 slabs in a random order, each turned by the cat with probability ``phi``,
else by the mice, and nothing else (no mouse is caught, the cat never sits on a cheese, any
face-up cheese can be speared). Its chance is an upper bound for the real game at that
share. Prints, for each share, the mice's chance in the model and, with ``--no-waste``, the
same if forks kept until a cheese is face up. In seeded games against the greedy cat
(``bench/players.py``) the cat turns about 43 % of the slabs until the race is lost.

    .venv/bin/python bench/chopchop_race.py [--games 20000] [--seed 1] [--no-waste]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.players import GAMES_SETTINGS, MAX_PLIES, chance_rng, draw_chance, seat_players  # noqa: E402
from companion import games, players  # noqa: E402
from companion.games.chopchop import ChopChopState, Reveal  # noqa: E402
from companion.players.chopchop import race_lost  # noqa: E402

SHARES = (0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)


def mice_win(rng: random.Random, phi: float, tiles: list[str], need: int, keep_forks: bool) -> bool:
    order = tiles[:]
    rng.shuffle(order)
    held = up = forks = 0
    for tile in order:
        if rng.random() < phi:  # the cat turns it
            up += tile == "cheese"
        elif tile == "cheese":
            held += 1
        elif tile == "fork":
            if up:
                up -= 1
                held += 1
            elif keep_forks:
                forks += 1
        if keep_forks and up and forks:
            n = min(up, forks)
            up, forks, held = up - n, forks - n, held + n
    return held >= need


def measure(n: int, seed: int, mice: str, strength: str) -> None:
    """Seeded games against the greedy cat, set up and drawn as in ``bench/players.py``."""
    flips = {"cat": 0, "mice": 0}
    wins = 0
    for g in range(seed, seed + n):
        game = games.make("chopchop", GAMES_SETTINGS["chopchop"])
        seats = seat_players(game, game.players[1], mice, "greedy", strength, g)
        rng = chance_rng("chopchop", g)
        state = game.new_state()
        assert isinstance(state, ChopChopState)
        for _ in range(MAX_PLIES):
            mover = state.to_move()
            if mover is None or race_lost(state):
                break
            action = draw_chance(state, rng) if state.is_chance() else seats[mover].choose(state)
            if isinstance(action, Reveal):
                flips["cat" if state.side == "cat" else "mice"] += 1
            state.apply(action)
        wins += state.winner == "mice"
    total = flips["cat"] + flips["mice"] or 1
    who = mice if mice == "greedy" else f"companion/{strength}"
    print(f"# {n} games, mice {who} vs the greedy cat: the cat turned {flips['cat'] / total:.1%} of the "
          f"{total / n:.1f} slabs a game turned until the race was lost; mice won {wins}/{n}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-waste", action="store_true", help="also the chance if forks were never lost")
    ap.add_argument("--measure", type=int, default=0, help="first play this many games against the greedy cat")
    ap.add_argument("--mice", choices=("greedy", "companion"), default="greedy")
    ap.add_argument("--strength", choices=players.STRENGTHS, default="easy")
    args = ap.parse_args()
    if args.measure:
        measure(args.measure, args.seed, args.mice, args.strength)
    tiles = ["cheese"] * 10 + ["fork"] * 4 + ["other"] * 24
    print(f"# {args.games} shuffles a share, seed {args.seed}; the cat's share of the slabs -> the mice's chance")
    for phi in SHARES:
        rng = random.Random(f"{args.seed}:{phi}")
        won = sum(mice_win(rng, phi, tiles, 10, False) for _ in range(args.games))
        line = f"cat turns {phi:4.0%}: mice win {won / args.games:6.1%}"
        if args.no_waste:
            rng = random.Random(f"{args.seed}:{phi}:keep")
            kept = sum(mice_win(rng, phi, tiles, 10, True) for _ in range(args.games))
            line += f"   (forks never lost: {kept / args.games:6.1%})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
