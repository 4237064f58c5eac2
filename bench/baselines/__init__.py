"""Baseline opponents for ``bench/players.py``: a uniformly random player and a one-ply greedy one.

The greedy player is deliberately simple: for each legal action it applies the action, and
where a chance outcome (a throw, a reveal) is due next it averages over those outcomes with their
exact probabilities (one level only); it scores each resulting position with the game's own
hand-written heuristic ``bench/baselines/<game>.py: score(state, seat) -> float`` and plays the
best, ties broken by a seeded generator. Nothing deeper: it is the yardstick the companion's
searching players must clearly beat.

A game without a heuristic module gets ``score`` = +1 for a won position, -1 for a lost one,
0 otherwise (so greedy then only takes an immediate win).

Both baselines draw from a generator seeded once per player (one player per game in
``bench/players.py``), not per position like :class:`companion.players.RandomPlayer`: a
position met again (a pawn stepping back and forth in Qubism) then gets a fresh draw, where a
position-seeded pair of players in a game without dice repeats the same moves for ever. A game
is still reproducible from its seed.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType

from companion.games.base import Action, Game, State
from companion.players.base import Option, Player

Score = Callable[[State, str], float]

__all__ = ["GreedyPlayer", "RandomPlayer", "Score", "outcome_score", "score_function"]


def outcome_score(state: State, seat: str) -> float | None:
    """+1e6 for a position ``seat`` has won, -1e6 for one it lost, 0 for a draw; None while playing."""
    out = state.outcome()
    if out is None:
        return None
    winner = out.get("winner")
    if winner is None:
        return 0.0
    return 1e6 if winner == seat else -1e6


def _default_score(state: State, seat: str) -> float:
    return outcome_score(state, seat) or 0.0


def score_function(game_key: str) -> Score:
    """The game's heuristic from ``bench/baselines/<game>.py``, or win/loss only."""
    try:
        module: ModuleType = importlib.import_module(f"bench.baselines.{game_key}")
    except ModuleNotFoundError as exc:
        if exc.name != f"bench.baselines.{game_key}":
            raise
        return _default_score
    fn: Score = module.score
    return fn


class RandomPlayer(Player):
    """Uniformly random among the legal actions, from one seeded generator for the whole game."""

    def __init__(self, game: Game, seat: str, strength: str = "normal", seed: int = 0) -> None:
        super().__init__(game, seat, strength, seed)
        self.rng = random.Random(f"random:{game.key}:{seat}:{seed}")

    def analyse(self, state: State) -> list[Option]:
        order = list(self._check(state))
        self.rng.shuffle(order)
        return [Option(a) for a in order]


class GreedyPlayer(Player):
    """One ply of look-ahead (plus the chance outcomes right after it) with a simple heuristic."""

    def __init__(self, game: Game, seat: str, strength: str = "normal", seed: int = 0) -> None:
        super().__init__(game, seat, strength, seed)
        self.score = score_function(game.key)
        self.rng = random.Random(f"greedy:{game.key}:{seat}:{seed}")

    def _value(self, state: State, action: Action) -> float:
        after = state.clone()
        after.apply(action)
        if not after.is_chance():
            return self.score(after, self.seat)
        total = 0.0
        for outcome, p in after.chance_outcomes():
            nxt = after.clone()
            nxt.apply(outcome)
            total += float(p) * self.score(nxt, self.seat)
        return total

    def analyse(self, state: State) -> list[Option]:
        actions = self._check(state)
        keyed = [(self._value(state, a), self.rng.random(), i) for i, a in enumerate(actions)]
        keyed.sort(reverse=True)
        return [Option(actions[i]) for _, _, i in keyed]
