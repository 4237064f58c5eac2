"""Computer players and their registry: ``companion.players.make(game, "cat", "strong")``.

One module per game, one registry line each (like :mod:`companion.games`); a game without a
player of its own gets :class:`~companion.players.base.RandomPlayer`.
"""

from __future__ import annotations

import importlib

from companion.games.base import Game
from companion.players.base import STRENGTHS, Option, Player, PlayerError, RandomPlayer

__all__ = ["PLAYERS", "STRENGTHS", "Option", "Player", "PlayerError", "RandomPlayer", "make"]

# game key -> (module, class name)
PLAYERS: dict[str, tuple[str, str]] = {
    "chopchop": ("companion.players.chopchop", "ChopChopPlayer"),
    "kilkenny": ("companion.players.kilkenny", "KilkennyPlayer"),
    "qubism": ("companion.players.qubism", "QubismPlayer"),
}


def player_class(game_key: str) -> type[Player]:
    entry = PLAYERS.get(game_key)
    if entry is None:
        return RandomPlayer
    cls: type[Player] = getattr(importlib.import_module(entry[0]), entry[1])
    return cls


def make(game: Game, seat: str, strength: str = "normal", seed: int = 0) -> Player:
    """A computer player for ``seat`` of ``game`` at ``strength`` ("easy", "normal", "strong")."""
    return player_class(game.key)(game, seat, strength, seed)
