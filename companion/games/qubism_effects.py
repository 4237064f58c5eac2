"""Qubism's words and effects: the arrows and players as sentences say them, and what one action
did (:class:`Moved`, :class:`CubePlaced`, :class:`CubeSlid`, :class:`CubeTipped`, :class:`Won`),
told in the current language. :mod:`companion.games.qubism` (the rules) re-exports the effects."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.boards import coords
from companion.games.base import Effect, SquareWords
from companion.i18n import N_, _

__all__ = ["Moved", "CubePlaced", "CubeSlid", "CubeTipped", "Won", "arrow_words", "player_name", "ARROW_WORDS",
           "LABELS"]

ARROW_WORDS: dict[str, str] = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west")}
"""An arrow as a sentence says it (the printed board's top is north), translated when shown."""


def arrow_words(arrow: str) -> str:
    """"north" for ``"N"`` (in the current language); anything else as it is."""
    return _(ARROW_WORDS[arrow]) if arrow in ARROW_WORDS else arrow


def _words(squares: SquareWords | None, square: str) -> str:
    """A square as a sentence names it (the game's board, else the shipped one): "C3"."""
    return (squares or coords.shipped_words("qubism"))(square)


LABELS: dict[str, str] = {"white": N_("White"), "black": N_("Black")}
"""The players' names (translated when shown)."""


def player_name(names: Mapping[str, str] | None, player: str) -> str:
    """The name to narrate for ``player``: from ``names``, else White or Black."""
    if names and player in names:
        return names[player]
    return _(LABELS[player]) if player in LABELS else player.title()


# -- effects -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Moved(Effect):
    player: str
    frm: str
    to: str
    how: str = "step"
    """``"step"``, ``"jump"`` or ``"side-step"``."""

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        if self.how == "jump":
            text = _("{player} jumps from {start} to {stop}")
        elif self.how == "side-step":
            text = _("{player} side-steps from {start} to {stop}")
        else:
            text = _("{player} moves from {start} to {stop}")
        return text.format(player=player_name(names, self.player), start=_words(squares, self.frm),
                           stop=_words(squares, self.to))


@dataclass(frozen=True)
class CubePlaced(Effect):
    player: str
    square: str
    arrow: str
    pool: int

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} places a cube on {square}, its arrow pointing {arrow} ({n} left in the pool)").format(
            player=player_name(names, self.player), square=_words(squares, self.square), arrow=arrow_words(self.arrow),
            n=self.pool)


@dataclass(frozen=True)
class CubeSlid(Effect):
    player: str
    frm: str
    to: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} slides the cube from {start} to {stop}").format(
            player=player_name(names, self.player), start=_words(squares, self.frm), stop=_words(squares, self.to))


@dataclass(frozen=True)
class CubeTipped(Effect):
    square: str
    arrow: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("the cube on {square} now points {arrow}").format(
            square=_words(squares, self.square), arrow=arrow_words(self.arrow))


@dataclass(frozen=True)
class Won(Effect):
    player: str
    square: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} reaches {square} and wins").format(
            player=player_name(names, self.player), square=_words(squares, self.square))
