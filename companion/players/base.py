"""Computer players: what every one of them offers, whatever the game and the search.

A player is built for one seat of one :class:`~companion.games.base.Game` with a strength
and a seed, and needs nothing but the engine API (``to_move``, ``legal_actions``,
``chance_outcomes`` with exact probabilities, ``apply``, ``clone``, ``outcome``). It never
changes the state it is given: it decides on copies.

- :meth:`Player.choose` returns one of ``state.legal_actions()`` for a state where its seat
  is to move. Deterministic for a given seed and state.
- :meth:`Player.analyse` returns the options it considered, best first, each with the
  seat's winning chance where the search can say (``None`` where it cannot): the hint a
  person asks for.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Final

from companion.games.base import Action, Game, State
from companion.i18n import _

STRENGTHS: Final = ("easy", "normal", "strong")
"""The strengths a seat can be given, weakest first."""


class PlayerError(ValueError):
    """A player asked for something it cannot do (a state where its seat is not to move, an
    unknown strength). ``str(err)`` is a sentence."""


@dataclass(frozen=True)
class Option:
    """One action a player considered, with what it thinks of it."""

    action: Action
    win_chance: float | None = None
    """The seat's chance of winning after this action (0..1), where the search can say."""


class Player(ABC):
    """A computer player for one seat."""

    def __init__(self, game: Game, seat: str, strength: str = "normal", seed: int = 0) -> None:
        if seat not in game.players:
            raise PlayerError(_("{game} has no player {seat}").format(game=game.title, seat=repr(seat)))
        if strength not in STRENGTHS:
            raise PlayerError(_("strength must be one of {strengths}, not {strength}").format(
                strengths=", ".join(STRENGTHS), strength=repr(strength)))
        self.game = game
        self.seat = seat
        self.strength = strength
        self.seed = seed

    def _check(self, state: State) -> list[Action]:
        if state.to_move() != self.seat:
            raise PlayerError(_("it is not {seat}'s turn to choose").format(seat=self.seat))
        actions = state.legal_actions()
        if not actions:
            raise PlayerError(_("{seat} has no legal action here").format(seat=self.seat))
        return actions

    @abstractmethod
    def analyse(self, state: State) -> list[Option]:
        """The options considered for ``state``, best first (at least one)."""

    def choose(self, state: State) -> Action:
        """The action this player plays in ``state`` (its seat must be to move)."""
        return self.analyse(state)[0].action


class RandomPlayer(Player):
    """Picks uniformly among the legal actions (seeded by the position): the baseline."""

    def analyse(self, state: State) -> list[Option]:
        actions = self._check(state)
        rng = random.Random(f"{self.seed}:{json.dumps(state.to_json(), sort_keys=True)}")
        order = list(actions)
        rng.shuffle(order)
        return [Option(a) for a in order]
