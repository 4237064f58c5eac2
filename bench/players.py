"""Playing strength and decision time of the companion's computer players.

Plays seeded matches of each game's companion player (``companion.players.make``) at each
strength against two baselines kept in ``bench/baselines``: a uniformly random player and a
one-ply greedy player with a simple heuristic. The companion takes each seat in turn; the
baseline fills every other seat. Chance (throws, reveals) is drawn with its exact
probabilities from a generator seeded per game, so a run is reproducible. For reference it also
plays greedy against greedy and random against random in every seat (the baseline's own win
rate, which Chop! Chop!'s bar compares with).

Prints, per game, strength, seat and opponent: games, wins, win rate with its 95% Wilson
interval, and the median and 95th-percentile wall time per companion decision (one process,
one thread: the player's own time on one core; the machine's load is printed too).

    .venv/bin/python bench/players.py [--game qubism] [--strength strong] [--games 40]
        [--opponent random|greedy] [--seed 1] [--jobs 2] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.baselines import GreedyPlayer, RandomPlayer  # noqa: E402
from companion import games, players  # noqa: E402
from companion.games.base import Action, Game, State  # noqa: E402
from companion.players.base import Player  # noqa: E402

GAMES_SETTINGS: dict[str, dict[str, object]] = {
    "qubism": {},
    "kilkenny": {"players": 2},
    "chopchop": {},
}
"""The games measured, with their settings (Kat en Muis has no decisions to measure)."""

MAX_PLIES = 5000
"""A game still going after this many actions counts as unfinished (not a win). Random Kilkenny
games run past 1000 actions (throws included) now and then."""


@dataclass
class Result:
    wins: int = 0
    draws: int = 0
    games: int = 0
    unfinished: int = 0
    times: list[float] = field(default_factory=list)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def baseline(kind: str, game: Game, seat: str, seed: int) -> Player:
    if kind == "random":
        return RandomPlayer(game, seat, "normal", seed)
    if kind == "greedy":
        return GreedyPlayer(game, seat, "normal", seed)
    raise SystemExit(f"unknown opponent {kind!r}: random or greedy")


def seat_players(game: Game, seat: str, subject: str, opponent: str, strength: str, seed: int) -> dict[str, Player]:
    """Every seat's player in one seeded game: ``subject`` ("companion", "greedy" or "random")
    in ``seat``, the ``opponent`` baseline in every other seat."""
    seats: dict[str, Player] = {}
    for i, p in enumerate(game.players):
        s = seed * 16 + i
        if p == seat:
            seats[p] = players.make(game, p, strength, s) if subject == "companion" else baseline(subject, game, p, s)
        else:
            seats[p] = baseline(opponent, game, p, s)
    return seats


def chance_rng(key: str, seed: int) -> random.Random:
    """The generator drawing a seeded game's chance (throws, reveals)."""
    return random.Random(f"chance:{key}:{seed}")


def draw_chance(state: State, rng: random.Random) -> Action:
    """A chance node's outcome, drawn with its exact probability."""
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]


def play_one(key: str, seat: str, subject: str, opponent: str, strength: str, seed: int) -> tuple[str, list[float]]:
    """One seeded game; ``subject`` ("companion", "greedy" or "random") plays ``seat``.

    Returns "win", "loss", "draw" or "unfinished" for ``seat`` and the subject's decision times.
    """
    game = games.make(key, GAMES_SETTINGS.get(key, {}))
    seats = seat_players(game, seat, subject, opponent, strength, seed)
    rng = chance_rng(key, seed)
    state = game.new_state()
    times: list[float] = []
    for _ in range(MAX_PLIES):
        mover = state.to_move()
        if mover is None:
            break
        if state.is_chance():
            action = draw_chance(state, rng)
        else:
            t0 = time.perf_counter()
            action = seats[mover].choose(state)
            if mover == seat:
                times.append(time.perf_counter() - t0)
        state.apply(action)
    out = state.outcome()
    if out is None:
        return "unfinished", times
    winner = out.get("winner")
    if winner is None:
        return "draw", times
    return ("win" if winner == seat else "loss"), times


def _job(args: tuple[str, str, str, str, str, int]) -> tuple[str, list[float]]:
    return play_one(*args)


def run(keys: Sequence[str], strengths: Sequence[str], opponents: Sequence[str], n: int, seed: int,
        jobs: int, reference: bool) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    plan: list[tuple[str, str, str, str, str]] = []  # key, seat, subject, opponent, strength
    for key in keys:
        game = games.make(key, GAMES_SETTINGS.get(key, {}))
        for seat in game.players:
            if reference:
                for opp in opponents:
                    plan.append((key, seat, opp, opp, "-"))
            for strength in strengths:
                for opp in opponents:
                    plan.append((key, seat, "companion", opp, strength))
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        for key, seat, subject, opp, strength in plan:
            tasks = [(key, seat, subject, opp, strength, seed + i) for i in range(n)]
            results = list(pool.map(_job, tasks)) if pool else [_job(t) for t in tasks]
            res = Result()
            for verdict, times in results:
                res.games += 1
                res.wins += verdict == "win"
                res.draws += verdict == "draw"
                res.unfinished += verdict == "unfinished"
                res.times.extend(times)
            lo, hi = wilson(res.wins, res.games)
            times_ms = sorted(t * 1000 for t in res.times)
            row: dict[str, object] = {
                "game": key, "seat": seat, "player": subject if subject != "companion" else f"companion/{strength}",
                "opponent": opp, "games": res.games, "wins": res.wins, "draws": res.draws,
                "unfinished": res.unfinished, "win_rate": res.wins / res.games, "ci95": [lo, hi],
                "decisions": len(times_ms),
                "median_ms": statistics.median(times_ms) if times_ms else None,
                "p95_ms": times_ms[min(len(times_ms) - 1, math.ceil(0.95 * len(times_ms)) - 1)] if times_ms else None,
            }
            rows.append(row)
            print(format_row(row), flush=True)
    finally:
        if pool:
            pool.shutdown()
    return rows


def format_row(r: dict[str, object]) -> str:
    lo, hi = r["ci95"]  # type: ignore[misc]
    med = "-" if r["median_ms"] is None else f"{r['median_ms']:.1f}"
    p95 = "-" if r["p95_ms"] is None else f"{r['p95_ms']:.1f}"
    extra = f" (+{r['draws']} draws)" if r["draws"] else ""
    extra += f" ({r['unfinished']} unfinished)" if r["unfinished"] else ""
    return (f"{r['game']:<9} {r['seat']:<6} {r['player']:<17} vs {r['opponent']:<6} "
            f"{r['wins']:>4}/{r['games']:<4} {r['win_rate']:6.1%} [{lo:5.1%}, {hi:5.1%}]  "
            f"median {med:>7} ms  p95 {p95:>7} ms{extra}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", choices=sorted(GAMES_SETTINGS), help="default: all three")
    ap.add_argument("--strength", action="append", choices=players.STRENGTHS, help="default: all three")
    ap.add_argument("--opponent", action="append", choices=("random", "greedy"), help="default: both")
    ap.add_argument("--games", type=int, default=40, help="games per row (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="processes (each decision still runs on one core)")
    ap.add_argument("--no-reference", action="store_true", help="skip the baseline-vs-baseline rows")
    ap.add_argument("--json", type=Path, help="also write the rows to this file")
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    keys = args.game or list(GAMES_SETTINGS)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores, "
          f"python {platform.python_version()}, load {load:.2f}, {args.games} games a row, seed {args.seed}")
    t0 = time.perf_counter()
    rows = run(keys, args.strength or list(players.STRENGTHS), args.opponent or ["random", "greedy"],
               args.games, args.seed, args.jobs, not args.no_reference)
    print(f"# {time.perf_counter() - t0:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
