"""Kat en Muis's effects (what one throw did, K2-K10) and the words they are told in: split out
of :mod:`companion.games.katenmuis` (which re-exports all of it) so that
:mod:`companion.games.katenmuis_narration` can join them into sentences without importing the
rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.boards.coords import shipped_words
from companion.games.base import Effect, SquareWords
from companion.games.katenmuis_track import BOUNCE_TO, CAT, MOUSE, red_square_id
from companion.i18n import N_, _, ngettext

__all__ = [
    "LABELS",
    "track_words",
    "player_name",
    "Thrown",
    "Moved",
    "Shortcut",
    "TurnedBack",
    "Jumped",
    "Paid",
    "DoubleSixForfeit",
    "LosesNextTurn",
    "ThrowsAgain",
    "TurnSkipped",
    "Won",
]

LABELS: dict[str, str] = {CAT: N_("Cat"), MOUSE: N_("Mouse")}
"""The players' names on the box (translated when shown: ``_(LABELS[p])``)."""


def track_words(player: str, square: int, squares: SquareWords | None = None) -> str:
    """``square`` of ``player``'s numbering as a sentence says it: the number printed on the
    board for that player, with its chess-style coordinate ("15 (square C3)"); 0 is "the start".

    Kat en Muis is a race of numbers (11, 22, … pay; 5, 15, … lose a turn) printed on every
    square, so the number comes first; the coordinate finds the square on the screen and on the
    printed board, whose edges carry the letters and row numbers."""
    if square <= 0:
        return _("the start")
    red = red_square_id(player, square)
    where = (squares or shipped_words("katenmuis"))(red)
    if where == red:
        return str(square)
    return _("{number} (square {square})").format(number=square, square=where)


def _chips(n: int) -> str:
    return ngettext("{n} chip", "{n} chips", n).format(n=n)


def player_name(names: Mapping[str, str] | None, player: str) -> str:
    """The name to narrate for ``player``: from ``names``, else the role (Cat, Mouse) in the
    current language."""
    if names and player in names:
        return names[player]
    return _(LABELS[player]) if player in LABELS else player.title()


# -- effects ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Thrown(Effect):
    player: str
    dice: tuple[int, int]

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        a, b = self.dice
        who = player_name(names, self.player)
        if a == b:
            return _("{player} throws double {n}").format(player=who, n=a)
        return _("{player} throws {a} and {b}").format(player=who, a=a, b=b)


@dataclass(frozen=True)
class Moved(Effect):
    """The counter moved from ``frm`` to ``to`` (own numbering); ``along`` lists every square
    it stepped on in order, ending with ``to`` (for a turn-back: up to 66, then down to 48)."""

    player: str
    frm: int
    to: int
    along: tuple[int, ...]

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} moves from {start} to {stop}").format(
            player=player_name(names, self.player), start=track_words(self.player, self.frm, squares),
            stop=track_words(self.player, self.to, squares))


@dataclass(frozen=True)
class Shortcut(Effect):
    """K4/K5: a double took the counter straight to ``to``."""

    player: str
    double: int
    to: int

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("double {n} takes {player} straight to {square}").format(
            n=self.double, player=player_name(names, self.player), square=track_words(self.player, self.to, squares))


@dataclass(frozen=True)
class TurnedBack(Effect):
    """K6: the throw would go beyond 66, so the counter goes to 48 instead."""

    player: str
    to: int = BOUNCE_TO

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _turned_back(names, self.player, self.to, squares)


@dataclass(frozen=True)
class Jumped(Effect):
    """K7: the mover passed over the other counter (on ``square`` of the mover's numbering)."""

    player: str
    over: str
    square: int

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} jumps over {other} on {square}").format(
            player=player_name(names, self.player), other=player_name(names, self.over),
            square=track_words(self.player, self.square, squares))


@dataclass(frozen=True)
class Paid(Effect):
    payer: str
    payee: str
    amount: int
    reason: str
    """``"jump"`` (K7), ``"double six"`` (K4), ``"square"`` (K8 11..55, paid to the mover),
    ``"square number"`` (K8 4, 9, ..., 64)."""

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{payer} pays {payee} {chips}").format(
            payer=player_name(names, self.payer), payee=player_name(names, self.payee), chips=_chips(self.amount))


@dataclass(frozen=True)
class DoubleSixForfeit(Effect):
    """K4: double six not past 55: the mover pays 2 chips and does not move."""

    player: str
    square: int

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} throws double six before passing 55 and does not move").format(
            player=player_name(names, self.player))


@dataclass(frozen=True)
class LosesNextTurn(Effect):
    player: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        who = player_name(names, self.player)
        if self.player == CAT:
            return _("{player} loses her next turn").format(player=who)
        return _("{player} loses his next turn").format(player=who)


@dataclass(frozen=True)
class ThrowsAgain(Effect):
    player: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} throws again").format(player=player_name(names, self.player))


@dataclass(frozen=True)
class TurnSkipped(Effect):
    """K9: the player's turn is lost (taken automatically); the flag is cleared."""

    player: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} misses this turn").format(player=player_name(names, self.player))


@dataclass(frozen=True)
class Won(Effect):
    player: str
    pots: int
    """Chips taken from both pots."""

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} wins and takes both pots ({chips})").format(
            player=player_name(names, self.player), chips=_chips(self.pots))


def _turned_back(names: Mapping[str, str] | None, player: str, to: int, squares: SquareWords | None = None) -> str:
    return _("{player} overshoots 66 and turns back to {square}").format(
        player=player_name(names, player), square=track_words(player, to, squares))
