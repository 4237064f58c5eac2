"""A tiny real game for testing the session and store apart from any real game's rules.

Two players race to square 3; a coin (1 or 2) is thrown, then the thrower may 'go' or 'stay'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.games.base import CHANCE, Action, Effect, Game, IllegalAction, SquareWords, State


@dataclass(frozen=True)
class Coin(Action):
    value: int


@dataclass(frozen=True)
class Go(Action):
    stay: bool = False


@dataclass(frozen=True)
class Moved(Effect):
    player: str
    to: int

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return f"{(names or {}).get(self.player, self.player)} moves to {self.to}"


class ToyState(State):
    def __init__(self, game: Toy, pos: dict[str, int], turn: str, coin: int | None) -> None:
        self.game = game
        self.pos, self.turn, self.coin = pos, turn, coin

    def to_move(self) -> str | None:
        if max(self.pos.values()) >= 3:
            return None
        return CHANCE if self.coin is None else self.turn

    def current_player(self) -> str | None:
        return None if self.to_move() is None else self.turn

    def legal_actions(self) -> list[Action]:
        return [Go(False), Go(True)] if self.to_move() not in (None, CHANCE) else []

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        return [(Coin(1), Fraction(1, 2)), (Coin(2), Fraction(1, 2))] if self.to_move() == CHANCE else []

    def apply(self, action: Action) -> list[Effect]:
        if isinstance(action, Coin) and self.to_move() == CHANCE and action.value in (1, 2):
            self.coin = action.value
            return []
        if isinstance(action, Go) and action in self.legal_actions():
            effects: list[Effect] = []
            if not action.stay:
                assert self.coin is not None
                self.pos[self.turn] += self.coin
                effects.append(Moved(self.turn, self.pos[self.turn]))
            self.coin = None
            if max(self.pos.values()) < 3:
                self.turn = "b" if self.turn == "a" else "a"
            return effects
        raise IllegalAction(f"{action} is not allowed now")

    def outcome(self) -> dict[str, Any] | None:
        if self.to_move() is not None:
            return None
        winner = max(self.pos, key=lambda p: self.pos[p])
        return {"winner": winner, "scores": {p: (1 if p == winner else -1) for p in self.pos}}

    def to_json(self) -> dict[str, Any]:
        return {"pos": dict(self.pos), "turn": self.turn, "coin": self.coin}


class Toy(Game):
    key = "toy"
    title = "Toy race"
    action_types = (Coin, Go)

    def __init__(self, target: int = 3) -> None:
        self.target = target

    @property
    def players(self) -> tuple[str, ...]:
        return ("a", "b")

    def settings(self) -> dict[str, Any]:
        return {"target": self.target}

    def new_state(self) -> ToyState:
        return ToyState(self, {"a": 0, "b": 0}, "a", None)

    def state_from_json(self, data: Mapping[str, Any]) -> ToyState:
        return ToyState(self, dict(data["pos"]), str(data["turn"]), data["coin"])
