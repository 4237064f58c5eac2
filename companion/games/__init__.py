"""The games and their registry: ``companion.games.get("katenmuis")``.

Each game module defines a :class:`~companion.games.base.Game` subclass whose constructor
takes its settings as keyword arguments. The registry imports game modules lazily so that a
broken or slow game never slows the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from companion.games.base import (
    CHANCE,
    Action,
    Effect,
    Game,
    IllegalAction,
    State,
    UnknownGame,
)

__all__ = [
    "CHANCE",
    "Action",
    "Effect",
    "Game",
    "IllegalAction",
    "State",
    "UnknownGame",
    "GAMES",
    "get",
    "make",
    "titles",
]

# key -> (module, class name, title)
GAMES: dict[str, tuple[str, str, str]] = {
    "katenmuis": ("companion.games.katenmuis", "KatEnMuis", "Kat en Muis"),
    "chopchop": ("companion.games.chopchop", "ChopChop", "Chop! Chop!"),
    "kilkenny": ("companion.games.kilkenny", "KilkennyCats", "Kilkenny Cats"),
    "qubism": ("companion.games.qubism", "Qubism", "Qubism"),
}


def titles() -> dict[str, str]:
    """Registered game keys and their titles, in display order."""
    return {key: title for key, (_, _, title) in GAMES.items()}


def game_class(key: str) -> type[Game]:
    try:
        module_name, class_name, _ = GAMES[key]
    except KeyError:
        known = ", ".join(GAMES)
        raise UnknownGame(f"unknown game {key!r}; known games: {known}") from None
    module = importlib.import_module(module_name)
    cls: type[Game] = getattr(module, class_name)
    return cls


def make(key: str, settings: Mapping[str, Any] | None = None) -> Game:
    """A game with the given settings (defaults from RULES.md for the rest)."""
    cls = game_class(key)
    return cls(**dict(settings or {}))


def get(key: str) -> Game:
    """The game with its default settings."""
    return make(key)
