"""The rules-engine API shared by every game.

The shape follows OpenSpiel's game/state split with python-chess's ergonomics:

- a :class:`Game` is frozen configuration (players, board, settings from RULES.md);
  ``game.new_state()`` starts a game;
- a :class:`State` answers ``to_move()`` (a player id, :data:`CHANCE` when a throw or a
  tile reveal is due, ``None`` when over), ``legal_actions()``, ``chance_outcomes()`` (each
  with its exact :class:`~fractions.Fraction`), ``apply(action) -> list[Effect]`` (raises
  :class:`IllegalAction` with a message a player can read), ``outcome()``, and round-trips
  through JSON;
- :class:`Action` and :class:`Effect` are small frozen dataclasses. Actions are what the
  session stores in its event log; effects are what the UI narrates, the LEDs react to and
  the tests assert. Effects are recomputed by replay, never stored.

Actions and effects serialise generically: their fields may be ``int``, ``str``, ``bool``,
``None`` or (nested) tuples of those. Lists in JSON come back as tuples.
"""

from __future__ import annotations

import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Final, TypeVar

CHANCE: Final = "chance"
"""``State.to_move()`` returns this when the next action is a die throw or a tile reveal."""

JSON = Any
SquareWords = Callable[[str], str]
"""A square id -> the words players read and hear for it ("D4"): see ``companion.boards.coords``."""


class IllegalAction(ValueError):
    """An action the rules do not allow here. ``str(err)`` is a sentence for a player."""


class UnknownGame(KeyError):
    """No game is registered under that key."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


def _to_jsonable(value: Any) -> JSON:
    if isinstance(value, tuple | list):
        return [_to_jsonable(v) for v in value]
    if isinstance(value, Fraction):
        return str(value)
    return value


def _from_jsonable(value: JSON) -> Any:
    if isinstance(value, list):
        return tuple(_from_jsonable(v) for v in value)
    return value


@dataclasses.dataclass(frozen=True)
class Action:
    """Base of every game's actions: a frozen dataclass with JSON-able fields."""

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):
            data[f.name] = _to_jsonable(getattr(self, f.name))
        return data

    def __str__(self) -> str:
        fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self))
        return f"{type(self).__name__}({fields})"


@dataclasses.dataclass(frozen=True)
class Effect:
    """Something that happened when an action was applied.

    ``describe(names, squares)`` gives a short phrase for narration; ``names`` maps player ids
    to the names to use ("cat" -> "Anna"); ``squares`` names a square id as players read it
    ("2,4" -> "E4", :meth:`Game.square_words`); without it an effect names squares on its game's
    shipped board. Square ids never reach a sentence.
    """

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return type(self).__name__

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):
            data[f.name] = _to_jsonable(getattr(self, f.name))
        return data


def player_name(names: Mapping[str, str] | None, player: str) -> str:
    """The name to narrate for ``player``: from ``names`` if given there, else its id titled."""
    return (names or {}).get(player, player.title())


A = TypeVar("A", bound=Action)


def action_from_json(types: Sequence[type[Action]], data: Mapping[str, JSON]) -> Action:
    """Rebuild an action from ``Action.to_json()`` output, given the game's action types."""
    if not isinstance(data, Mapping) or "type" not in data:
        raise IllegalAction(f"not an action: {data!r}")
    by_name = {t.__name__: t for t in types}
    cls = by_name.get(str(data["type"]))
    if cls is None:
        raise IllegalAction(f"unknown action type {data['type']!r}")
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            kwargs[f.name] = _from_jsonable(data[f.name])
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise IllegalAction(f"malformed {cls.__name__}: {exc}") from None


class State(ABC):
    """One position of a game. Mutable: ``apply`` changes it in place; ``clone`` copies."""

    game: Game

    @abstractmethod
    def to_move(self) -> str | None:
        """The player id who acts next, :data:`CHANCE`, or ``None`` when the game is over."""

    def current_player(self) -> str | None:
        """Whose turn it is, for the "whose turn" banner; ``None`` when over.

        While a chance outcome is due this is the player it belongs to (the thrower of a die,
        the player whose piece turned a slab): games with chance steps override this.
        """
        mover = self.to_move()
        return None if mover == CHANCE else mover

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Player actions allowed now (empty while a chance outcome is due or when over)."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """When ``to_move() == CHANCE``: every outcome with its exact probability (sum 1)."""

    @abstractmethod
    def apply(self, action: Action) -> list[Effect]:
        """Apply a legal action or chance outcome; raise :class:`IllegalAction` otherwise.

        On :class:`IllegalAction` the state is unchanged.
        """

    @abstractmethod
    def outcome(self) -> dict[str, JSON] | None:
        """``None`` while playing; when over a dict with at least ``"winner"`` (a player id
        or ``None`` for no winner) and ``"scores"`` ({player id: number}) for history."""

    @abstractmethod
    def to_json(self) -> dict[str, JSON]:
        """A JSON-able snapshot; ``game.state_from_json(state.to_json()) == state``."""

    def die_colours(self) -> tuple[str, ...]:
        """The colour of each die of the throw due now, where the game's dice differ (Chop!
        Chop!'s cat and mouse dice, a Kilkenny colour's own die); empty: any die will do."""
        return ()

    def is_over(self) -> bool:
        return self.to_move() is None

    def is_chance(self) -> bool:
        return self.to_move() == CHANCE

    def clone(self) -> State:
        return self.game.state_from_json(json.loads(json.dumps(self.to_json())))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.game == other.game and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_json(), sort_keys=True))


class Game(ABC):
    """Frozen configuration of one game: its players and settings."""

    key: ClassVar[str]
    """Registry key, e.g. ``"katenmuis"``."""
    title: ClassVar[str]
    """Name shown to players, e.g. ``"Kat en Muis"``."""
    action_types: ClassVar[tuple[type[Action], ...]]
    """Every Action subclass this game uses (for JSON round-trips)."""

    @property
    @abstractmethod
    def players(self) -> tuple[str, ...]:
        """Player ids in seating order, e.g. ``("cat", "mouse")``."""

    def player_label(self, player: str) -> str:
        return player.replace("_", " ").title()

    @abstractmethod
    def settings(self) -> dict[str, JSON]:
        """The settings this game was made with, JSON-able; ``make(key, settings)`` rebuilds it."""

    def narrate(self, effects: Sequence[Effect], names: Mapping[str, str] | None = None) -> list[str]:
        """Plain-words sentences for what one action did; games may join effects into sentences."""
        return [e.describe(names, self.square_words) for e in effects]

    def square_words(self, square: str) -> str:
        """A square id as players read and hear it on this game's board ("D4"); games with a
        board override this (``companion.boards.coords.square_words``)."""
        return square

    def dice_colours(self) -> tuple[str, ...]:
        """The colours of all the game's dice when they differ (empty: all dice alike)."""
        return ()

    def interpretations(self) -> list[str]:
        """Sentences for the rules screen: which interpretation of each open point is active."""
        return []

    @abstractmethod
    def new_state(self) -> State:
        """The starting position."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, JSON]) -> State:
        """Rebuild a state from ``State.to_json()``."""

    def action_from_json(self, data: Mapping[str, JSON]) -> Action:
        return action_from_json(self.action_types, data)

    def to_json(self) -> dict[str, JSON]:
        return {"game": self.key, "settings": self.settings()}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.key == other.key and self.settings() == other.settings()

    def __hash__(self) -> int:
        return hash((self.key, json.dumps(self.settings(), sort_keys=True)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.settings()!r})"
