"""Chop! Chop!'s pieces, dice and tiles, its actions and its effects (each effect's ``describe``).

Split out of :mod:`companion.games.chopchop`, which re-exports every public name here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from companion.boards.coords import shipped_words
from companion.games.base import Action, Effect, SquareWords
from companion.i18n import N_, _, ngettext

TILE_TYPES: tuple[str, ...] = ("cheese", "crockery", "plus1", "plus2", "arrow", "fork", "knife")
DEFAULT_TILES: dict[str, int] = {
    "cheese": 10, "crockery": 8, "plus1": 4, "plus2": 4, "arrow": 4, "fork": 4, "knife": 4,
}
TILE_NAMES: dict[str, str] = {
    "cheese": N_("cheese"), "crockery": N_("broken crockery"), "plus1": "+1", "plus2": "+2",
    "arrow": N_("arrow"), "fork": N_("fork"), "knife": N_("knife"),
}
"""Tile type -> its name (English; ``tile_label`` gives it in the current language)."""
CAT_DIE: tuple[int, ...] = (1, 1, 2, 2, 2, 3)
MOUSE_DIE: tuple[int, ...] = (1, 1, 2, 2, 3, 4)
DIE_COLOURS: dict[str, str] = {"cat": "blue", "mice": "grey"}  # the game's own dice (RULES.md, components)

CAT = "cat"
MICE = "mice"


def die_odds(faces: Iterable[int]) -> dict[int, Fraction]:
    faces = tuple(faces)
    return {v: Fraction(faces.count(v), len(faces)) for v in sorted(set(faces))}


def piece_label(piece: str) -> str:
    """"the cat", "mouse 2" (in the current language; lower case, for inside a sentence)."""
    if piece == CAT:
        return _("the cat")
    if ":" in piece:
        return _("mouse {n}").format(n=piece.split(":", 1)[1])
    return piece or _("the piece")


def _piece(piece: str) -> str:
    """The piece's label to start a sentence with ("The cat", "Mouse 2")."""
    label = piece_label(piece)
    return label[:1].upper() + label[1:]


def _name(names: Mapping[str, str] | None, player: str) -> str:
    if names and player in names:
        return names[player]
    if player == CAT:
        return _("Cat")
    if player.startswith("mice"):
        return _("Mice {n}").format(n=player[4:]) if player[4:] else _("Mice")
    return player.title()


def _the_mice(names: Mapping[str, str] | None, player: str) -> bool:
    """The one mice seat under its own name ("Mice"): a team, so its sentences are plural
    ("The mice throw 2", not "Mice throws 2"); a seat the players named reads as one player."""
    return player == MICE and _name(names, player) == _name(None, player)


# Why a turn passes or the game ends. The engine stores these in English (the effects' ``reason``,
# the state's ``won_reason``); ``reason_text`` gives them in the current language.
NO_MOVE_ROLL = N_("no legal move with a {n}")
NO_MOVE_STEPS = N_("{piece} has no legal extra steps")
NO_MOVE_ARROW = N_("{piece} has nowhere to go")
WON_HOME = N_("{n} cheese, every hole opened and a mouse at home")
WON_CAUGHT = N_("all the mice are caught")
# C8: why the mice can no longer win (cases a, b, c of RULES.md)
CANNOT_CHEESE = N_("not enough cheese is left")
CANNOT_REACH = N_("no mouse can reach a face-down slab any more")
CANNOT_LEAVE = N_("{piece} can never leave its hole")
_CANNOT_WIN = (CANNOT_CHEESE, CANNOT_REACH, CANNOT_LEAVE)
_REASONS = (NO_MOVE_ROLL, NO_MOVE_STEPS, NO_MOVE_ARROW, WON_HOME, WON_CAUGHT, *_CANNOT_WIN)


def english_piece(piece: str) -> str:
    """The English label of ``piece``, as the engine writes it into a reason."""
    if piece == CAT:
        return "the cat"
    return "mouse " + piece.split(":", 1)[1] if ":" in piece else (piece or "the piece")


def _reason_pattern(template: str) -> re.Pattern[str]:
    body = re.escape(template).replace(r"\{n\}", r"(?P<n>\d+)").replace(
        r"\{piece\}", r"(?P<piece>the cat|mouse \d+|the piece)")
    return re.compile(body + "$")


def mice_cannot_win(reason: str) -> bool:
    """Whether ``reason`` (a Won's, ``outcome()["reason"]``) is a C8 end: the mice can no longer win."""
    return any(_reason_pattern(t).match(reason) for t in _CANNOT_WIN)


def reason_text(reason: str) -> str:
    """An engine's English reason (a NoMove's, a Won's, ``outcome()["reason"]``) in the current
    language; a reason this module did not write comes back as it is."""
    for template in _REASONS:
        m = _reason_pattern(template).match(reason)
        if m is None:
            continue
        fields = m.groupdict()
        if "piece" in fields:
            eng = fields["piece"]
            piece = CAT if eng == "the cat" else ("mouse:" + eng[6:] if eng.startswith("mouse ") else "")
            fields["piece"] = piece_label(piece)
        return _(template).format(**fields)
    return reason


# ---------------------------------------------------------------------------------------------
# actions


@dataclass(frozen=True)
class PlaceCat(Action):
    """C1: the cat player puts the cat on a table-top square."""

    square: str


@dataclass(frozen=True)
class Roll(Action):
    """CHANCE: the side's die shows ``value``."""

    value: int


@dataclass(frozen=True)
class Move(Action):
    """Move ``piece`` to ``to``, stepping onto it from ``via`` ("" = it does not matter)."""

    piece: str
    to: str
    via: str = ""


@dataclass(frozen=True)
class Reveal(Action):
    """CHANCE: the slab just landed on shows ``tile`` (one of TILE_TYPES)."""

    tile: str


@dataclass(frozen=True)
class Teleport(Action):
    """Arrow (C5): the piece goes to ``square``."""

    square: str


@dataclass(frozen=True)
class Spear(Action):
    """Fork (C5): the mice take the face-up cheese on ``square``."""

    square: str


# ---------------------------------------------------------------------------------------------
# effects


@dataclass(frozen=True)
class Thrown(Effect):
    player: str
    value: int

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        if _the_mice(names, self.player):
            return _("The mice throw {n}").format(n=self.value)
        return _("{player} throws {n}").format(player=_name(names, self.player), n=self.value)


def square_words(square: str, squares: SquareWords | None = None) -> str:
    """A square id as people read it on the board, chess-style: ``2,4`` is "E4", the table
    top's ``top:1,4`` "the table top at E5" (said and shown; the id stays what is typed and
    stored). ``squares`` is the game's own naming (its board); without it, the shipped board's."""
    return (squares or shipped_words("chopchop"))(square)


@dataclass(frozen=True)
class Moved(Effect):
    piece: str
    frm: str
    to: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        if not self.frm:
            return _("{piece} starts on {square}").format(piece=_piece(self.piece), square=square_words(self.to, squares))
        return _("{piece} moves from {start} to {stop}").format(
            piece=_piece(self.piece), start=square_words(self.frm, squares), stop=square_words(self.to, squares))


@dataclass(frozen=True)
class HoleOpened(Effect):
    square: str
    piece: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{piece} leaves its hole: the hole at {square} is opened").format(
            piece=_piece(self.piece), square=square_words(self.square, squares))


@dataclass(frozen=True)
class TileRevealed(Effect):
    square: str
    tile: str
    piece: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{piece} turns the slab at {square}: {tile}").format(
            piece=_piece(self.piece), square=square_words(self.square, squares), tile=tile_label(self.tile))


@dataclass(frozen=True)
class CheeseTaken(Effect):
    piece: str
    square: str
    held: int
    by_fork: bool = False

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        if self.by_fork:
            text = _("{piece} spears the cheese at {square} (mice hold {n})")
        else:
            text = _("{piece} takes the cheese at {square} (mice hold {n})")
        return text.format(piece=_piece(self.piece), square=square_words(self.square, squares), n=self.held)


@dataclass(frozen=True)
class CatOnCheese(Effect):
    square: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("The cat sits on the cheese at {square}; it stays face up").format(square=square_words(self.square, squares))


@dataclass(frozen=True)
class ExtraSteps(Effect):
    piece: str
    steps: int

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return ngettext("{piece} moves {n} more", "{piece} moves {n} more", self.steps).format(
            piece=_piece(self.piece), n=self.steps)


@dataclass(frozen=True)
class FreeMove(Effect):
    piece: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{piece} may go to any square it may occupy").format(piece=_piece(self.piece))


@dataclass(frozen=True)
class ForkUseless(Effect):
    piece: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        if self.piece == CAT:
            return _("The fork does nothing for the cat")
        return _("No face-up cheese to spear")


@dataclass(frozen=True)
class Captured(Effect):
    piece: str
    square: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("The cat catches {piece} at {square}").format(piece=piece_label(self.piece), square=square_words(self.square, squares))


@dataclass(frozen=True)
class LosesNextTurn(Effect):
    player: str
    side: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        if self.side == CAT:
            return _("Knife! The cat misses the next turn")
        return _("Knife! The mice miss the next turn")


@dataclass(frozen=True)
class TurnSkipped(Effect):
    player: str
    side: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("The cat misses this turn") if self.side == CAT else _("The mice miss this turn")


@dataclass(frozen=True)
class ThrowsAgain(Effect):
    player: str
    mouse: str = ""

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        if _the_mice(names, self.player):
            if self.mouse:
                return _("The mice play again ({piece} again)").format(piece=piece_label(self.mouse))
            return _("The mice play again")
        who = _name(names, self.player)
        if self.mouse:
            return _("{player} plays again ({piece} again)").format(player=who, piece=piece_label(self.mouse))
        return _("{player} plays again").format(player=who)


@dataclass(frozen=True)
class NoMove(Effect):
    player: str
    reason: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player}: {reason}; the turn passes").format(
            player=_name(names, self.player), reason=reason_text(self.reason))


@dataclass(frozen=True)
class Won(Effect):
    side: str
    reason: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        why = reason_text(self.reason)
        if mice_cannot_win(self.reason):  # C8: the reason first, then the result
            if self.side == CAT:
                return _("The mice can no longer win: {reason}. The cat wins").format(reason=why)
            return _("The mice can no longer win: {reason}. It is a draw").format(reason=why)
        if self.side == CAT:
            return _("The cat wins: {reason}").format(reason=why)
        if self.side == MICE:
            return _("The mice win: {reason}").format(reason=why)
        return _("A draw: {reason}").format(reason=why)


def tile_label(tile: str) -> str:
    """The tile's name in the current language ("cheese", "+1"); an unknown type as it is."""
    return _(TILE_NAMES[tile]) if tile in TILE_NAMES else tile


def effect_types() -> tuple[type[Effect], ...]:
    return tuple(
        v for v in globals().values() if isinstance(v, type) and issubclass(v, Effect) and v is not Effect
    )


