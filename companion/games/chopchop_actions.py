"""Chop! Chop!'s pieces, dice and tiles, its actions and its effects (each effect's ``describe``).

Split out of :mod:`companion.games.chopchop`, which re-exports every public name here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from companion.games.base import Action, Effect

TILE_TYPES: tuple[str, ...] = ("cheese", "crockery", "plus1", "plus2", "arrow", "fork", "knife")
DEFAULT_TILES: dict[str, int] = {
    "cheese": 10, "crockery": 8, "plus1": 4, "plus2": 4, "arrow": 4, "fork": 4, "knife": 4,
}
TILE_NAMES: dict[str, str] = {
    "cheese": "cheese", "crockery": "broken crockery", "plus1": "+1", "plus2": "+2",
    "arrow": "arrow", "fork": "fork", "knife": "knife",
}
CAT_DIE: tuple[int, ...] = (1, 1, 2, 2, 2, 3)
MOUSE_DIE: tuple[int, ...] = (1, 1, 2, 2, 3, 4)
DIE_COLOURS: dict[str, str] = {"cat": "blue", "mice": "grey"}  # the game's own dice (RULES.md, components)

CAT = "cat"
MICE = "mice"


def die_odds(faces: Iterable[int]) -> dict[int, Fraction]:
    faces = tuple(faces)
    return {v: Fraction(faces.count(v), len(faces)) for v in sorted(set(faces))}


def piece_label(piece: str) -> str:
    if piece == CAT:
        return "the cat"
    return "mouse " + piece.split(":", 1)[1] if ":" in piece else (piece or "the piece")


def _name(names: Mapping[str, str] | None, player: str) -> str:
    if names and player in names:
        return names[player]
    return player.replace("mice", "Mice ").title() if player.startswith("mice") else player.title()


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

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        return f"{_name(names, self.player)} throws {self.value}"


@dataclass(frozen=True)
class Moved(Effect):
    piece: str
    frm: str
    to: str

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        who = piece_label(self.piece).capitalize()
        if not self.frm:
            return f"{who} starts on {self.to}"
        return f"{who} moves from {self.frm} to {self.to}"


@dataclass(frozen=True)
class HoleOpened(Effect):
    square: str
    piece: str

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        return f"{piece_label(self.piece).capitalize()} leaves its hole: the hole at {self.square} is opened"


@dataclass(frozen=True)
class TileRevealed(Effect):
    square: str
    tile: str
    piece: str

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        return f"{piece_label(self.piece).capitalize()} turns the slab at {self.square}: {TILE_NAMES[self.tile]}"


@dataclass(frozen=True)
class CheeseTaken(Effect):
    piece: str
    square: str
    held: int
    by_fork: bool = False

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        how = "spears" if self.by_fork else "takes"
        return f"{piece_label(self.piece).capitalize()} {how} the cheese at {self.square} (mice hold {self.held})"


@dataclass(frozen=True)
class CatOnCheese(Effect):
    square: str

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        return f"The cat sits on the cheese at {self.square}; it stays face up"


@dataclass(frozen=True)
class ExtraSteps(Effect):
    piece: str
    steps: int

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        return f"{piece_label(self.piece).capitalize()} moves {self.steps} more"


@dataclass(frozen=True)
class FreeMove(Effect):
    piece: str

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        return f"{piece_label(self.piece).capitalize()} may go to any square it may occupy"


@dataclass(frozen=True)
class ForkUseless(Effect):
    piece: str

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        if self.piece == CAT:
            return "The fork does nothing for the cat"
        return "No face-up cheese to spear"


@dataclass(frozen=True)
class Captured(Effect):
    piece: str
    square: str

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        return f"The cat catches {piece_label(self.piece)} at {self.square}"


@dataclass(frozen=True)
class LosesNextTurn(Effect):
    player: str
    side: str

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        who = "the cat" if self.side == CAT else "the mice"
        return f"Knife! {who.capitalize()} miss{'es' if self.side == CAT else ''} the next turn"


@dataclass(frozen=True)
class TurnSkipped(Effect):
    player: str
    side: str

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        who = "the cat" if self.side == CAT else "the mice"
        return f"{who.capitalize()} miss{'es' if self.side == CAT else ''} this turn"


@dataclass(frozen=True)
class ThrowsAgain(Effect):
    player: str
    mouse: str = ""

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        extra = f" ({piece_label(self.mouse)} again)" if self.mouse else ""
        return f"{_name(names, self.player)} plays again{extra}"


@dataclass(frozen=True)
class NoMove(Effect):
    player: str
    reason: str

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        return f"{_name(names, self.player)}: {self.reason}; the turn passes"


@dataclass(frozen=True)
class Won(Effect):
    side: str
    reason: str

    def describe(self, names: Mapping[str, str] | None = None) -> str:
        head = {CAT: "The cat wins", MICE: "The mice win"}.get(self.side, "A draw")
        return f"{head}: {self.reason}"


def tile_label(tile: str) -> str:
    return TILE_NAMES.get(tile, tile)


def effect_types() -> tuple[type[Effect], ...]:
    return tuple(
        v for v in globals().values() if isinstance(v, type) and issubclass(v, Effect) and v is not Effect
    )


