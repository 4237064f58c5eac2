"""Kilkenny Cats (Parker Brothers, 1890; re-edition): RULES.md section 3, rules L1-L5.

2-4 colours, each with its own die and 8 cats. A turn is a throw of the mover's own die (a
chance step: :class:`Throw` carries the colour, so a reading of the wrong colour's die is
refused), then one :class:`Move` of exactly that many squares in a straight line.

Geometry comes from the board file (``companion/boards/kilkenny.toml``): square ids are
``"row,col"``; the eight mice squares outside the edge carry their cell (``"-1,6"`` ...), so a
straight line may end on one, orthogonally or diagonally. Regions ``start:<side>`` and
``mice:<side>`` give each side's start squares and the two mice it aims at, and
``[settings.colours]`` the colour printed for each side. Sides are taken in the order south,
north, west, east: 2 players are south and north, 3 add west, 4 add east. Player ids are the
colour names (default red, blue, green, yellow).

Interpretations (also in :meth:`KilkennyCats.interpretations`):

- L3: a cat may end on one of its own colour's mice only; every other mice square (another
  player's, or an unused colour's in a 2- or 3-player game) is closed to it. A line never
  passes over a mice square (they lie outside the edge, so no straight line could continue).
- L4: with no legal move after the throw the turn is lost at once (effect :class:`NoMove`).
- A colour with no cat that can still move (all captured or parked) is passed over in the turn
  order: it could only lose every turn. With exactly one colour left that can move, that colour
  wins (L5, the re-edition's extension).

``board_view()`` tokens: ``"cat:<colour>"`` for every cat on the board, parked ones included.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.boards import Board, BoardError, board_setting, coords, load_board
from companion.games.base import CHANCE, Action, Effect, Game, IllegalAction, SquareWords, State
from companion.i18n import N_, _, ngettext

__all__ = [
    "KilkennyCats",
    "KilkennyState",
    "Throw",
    "Move",
    "Thrown",
    "Moved",
    "Captured",
    "Parked",
    "NoMove",
    "Won",
    "DIRECTIONS",
]

SIDES: tuple[str, ...] = ("south", "north", "west", "east")
COLOUR_LABELS: dict[str, str] = {
    "red": N_("Red"), "blue": N_("Blue"), "green": N_("Green"), "yellow": N_("Yellow"),
    "white": N_("White"), "black": N_("Black"), "grey": N_("Grey"), "orange": N_("Orange"),
}
"""A colour (player id) -> its name as a player, translated when shown."""
COLOUR_WORDS: dict[str, str] = {
    "red": N_("red"), "blue": N_("blue"), "green": N_("green"), "yellow": N_("yellow"),
    "white": N_("white"), "black": N_("black"), "grey": N_("grey"), "orange": N_("orange"),
}
"""A colour -> the word inside a sentence ("the red die"), translated when shown."""
SIDE_WORDS: dict[str, str] = {"south": N_("south"), "north": N_("north"), "west": N_("west"), "east": N_("east")}


def colour_label(colour: str) -> str:
    """"Red": the colour as a player's name, in the current language."""
    return _(COLOUR_LABELS[colour]) if colour in COLOUR_LABELS else colour.replace("_", " ").title()


def colour_word(colour: str) -> str:
    """"red": the colour inside a sentence, in the current language."""
    return _(COLOUR_WORDS[colour]) if colour in COLOUR_WORDS else colour


def player_name(names: Mapping[str, str] | None, player: str) -> str:
    """The name to narrate for ``player``: from ``names``, else its colour."""
    if names and player in names:
        return names[player]
    return colour_label(player)
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1),
)
"""The 8 directions as (row step, column step): N, NE, E, SE, S, SW, W, NW."""
DIE_FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


# -- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Throw(Action):
    """A chance outcome: the die of ``colour`` shows ``value``."""

    colour: str
    value: int


@dataclass(frozen=True)
class Move(Action):
    """Move the mover's cat on ``frm`` to ``to`` (square ids ``"row,col"``)."""

    frm: str
    to: str


# -- effects ---------------------------------------------------------------------------------


def _words(squares: SquareWords | None, square: str) -> str:
    """A square as a sentence names it (the game's board, else the shipped one): "G7"."""
    return (squares or coords.shipped_words("kilkenny"))(square)


@dataclass(frozen=True)
class Thrown(Effect):
    player: str
    value: int

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} throws {n}").format(player=player_name(names, self.player), n=self.value)


@dataclass(frozen=True)
class Moved(Effect):
    player: str
    frm: str
    to: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} moves a cat from {start} to {stop}").format(
            player=player_name(names, self.player), start=_words(squares, self.frm), stop=_words(squares, self.to))


@dataclass(frozen=True)
class Captured(Effect):
    player: str
    victim: str
    square: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} captures {other}'s cat on {square}").format(
            player=player_name(names, self.player), other=player_name(names, self.victim),
            square=_words(squares, self.square))


@dataclass(frozen=True)
class Parked(Effect):
    player: str
    square: str

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player}'s cat reaches {square} and stays there").format(
            player=player_name(names, self.player), square=_words(squares, self.square))


@dataclass(frozen=True)
class NoMove(Effect):
    player: str
    value: int

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        return _("{player} has no legal move for a {n} and loses the turn").format(
            player=player_name(names, self.player), n=self.value)


@dataclass(frozen=True)
class Won(Effect):
    player: str
    how: str
    """``"mice"`` (cats on both mice) or ``"last mobile"`` (the extension)."""

    def describe(self, names: Mapping[str, str] | None = None, squares: SquareWords | None = None) -> str:
        if self.how == "mice":
            return _("{player} wins with cats on both mice").format(player=player_name(names, self.player))
        return _("{player} wins: the only colour with a cat that can still move").format(
            player=player_name(names, self.player))


# -- geometry from the board file --------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    board: Board
    cells: dict[str, tuple[int, int]]
    at: dict[tuple[int, int], str]
    mice: frozenset[str]
    rays: dict[str, tuple[tuple[str, ...], ...]]
    """square -> for each of the 8 directions the squares along the line (up to 6), ending at
    the first mice square or the edge."""


@functools.lru_cache(maxsize=8)
def geometry(board_name: str) -> Geometry:
    board = load_board(board_name)
    cells: dict[str, tuple[int, int]] = {}
    for sq in board.squares.values():
        if sq.cell is None:
            raise BoardError(f"board {board.name!r}: square {sq.id!r} has no cell (Kilkenny Cats needs row,col geometry)")
        cells[sq.id] = sq.cell
    at = {cell: sid for sid, cell in cells.items()}
    mice = frozenset(sid for sid, sq in board.squares.items() if sq.kind == "mouse")
    rays: dict[str, tuple[tuple[str, ...], ...]] = {}
    for sid, (r, c) in cells.items():
        per_dir = []
        for dr, dc in DIRECTIONS:
            line: list[str] = []
            for k in range(1, max(DIE_FACES) + 1):
                nxt = at.get((r + k * dr, c + k * dc))
                if nxt is None:
                    break
                line.append(nxt)
                if nxt in mice:
                    break
            per_dir.append(tuple(line))
        rays[sid] = tuple(per_dir)
    return Geometry(board, cells, at, mice, rays)


# -- state -------------------------------------------------------------------------------------


class KilkennyState(State):
    """Cats on squares, whose turn, the pending throw, and the result."""

    game: KilkennyCats

    def __init__(
        self,
        game: KilkennyCats,
        cats: dict[str, str],
        turn: str,
        throw: int | None = None,
        winner: str | None = None,
        how: str | None = None,
        over: bool = False,
    ) -> None:
        self.game = game
        self.cats = cats
        """square id -> colour"""
        self.turn = turn
        self.throw = throw
        self.winner = winner
        self.how = how
        self.over = over

    # -- queries --------------------------------------------------------------------------

    def to_move(self) -> str | None:
        if self.over:
            return None
        return CHANCE if self.throw is None else self.turn

    def current_player(self) -> str | None:
        return None if self.over else self.turn

    def die_colours(self) -> tuple[str, ...]:
        return (self.turn,) if self.to_move() == CHANCE else ()

    def is_parked(self, square: str) -> bool:
        return square in self.game.geometry.mice and square in self.cats

    def mobile_cats(self, colour: str) -> list[str]:
        """Squares of ``colour``'s cats that can still move (not parked)."""
        mice = self.game.geometry.mice
        return [sq for sq, col in self.cats.items() if col == colour and sq not in mice]

    def legal_targets(self, square: str, value: int | None = None) -> list[str]:
        """Where the cat on ``square`` may go with the current throw (or ``value``).

        For the UI's highlight; empty if there is no movable cat there or no throw.
        """
        d = self.throw if value is None else value
        colour = self.cats.get(square)
        if d is None or colour is None or square in self.game.geometry.mice:
            return []
        geo = self.game.geometry
        own_mice = self.game.mice_of[colour]
        cats = self.cats
        out: list[str] = []
        for line in geo.rays[square]:
            if len(line) < d:
                continue
            blocked = False
            for k in range(d - 1):
                if line[k] in cats:
                    blocked = True
                    break
            if blocked:
                continue
            target = line[d - 1]
            occupant = cats.get(target)
            if occupant == colour:
                continue
            if target in geo.mice and target not in own_mice:
                continue
            out.append(target)
        return out

    def legal_actions(self) -> list[Action]:
        if self.over or self.throw is None:
            return []
        return self._moves(self.turn, self.throw)

    def _moves(self, colour: str, value: int) -> list[Action]:
        out: list[Action] = []
        for sq in self.mobile_cats(colour):
            out.extend(Move(sq, t) for t in self.legal_targets(sq, value))
        return out

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.to_move() != CHANCE:
            return []
        p = Fraction(1, len(DIE_FACES))
        return [(Throw(self.turn, v), p) for v in DIE_FACES]

    def board_view(self) -> dict[str, str]:
        return {sq: f"cat:{col}" for sq, col in self.cats.items()}

    def outcome(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        return {
            "winner": self.winner,
            "scores": {p: (1 if p == self.winner else 0) for p in self.game.players},
            "how": self.how,
        }

    # -- applying ---------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Effect]:
        if self.over:
            raise IllegalAction(_("the game is over"))
        if isinstance(action, Throw):
            return self._apply_throw(action)
        if isinstance(action, Move):
            return self._apply_move(action)
        raise IllegalAction(_("{action} is not a Kilkenny Cats action").format(action=action))

    def _label(self, colour: str) -> str:
        return self.game.player_label(colour)

    def _apply_throw(self, action: Throw) -> list[Effect]:
        if self.throw is not None:
            raise IllegalAction(_("{player} has already thrown {n}; move a cat first").format(
                player=self._label(self.turn), n=self.throw))
        if action.colour != self.turn:
            raise IllegalAction(
                _("that is the {colour} die; it is {player}'s turn to throw the {own} die").format(
                    colour=colour_word(action.colour), player=self._label(self.turn), own=colour_word(self.turn))
            )
        if action.value not in DIE_FACES:
            raise IllegalAction(_("a die shows 1 to 6, not {value}").format(value=action.value))
        effects: list[Effect] = [Thrown(self.turn, action.value)]
        if not self._moves(self.turn, action.value):
            effects.append(NoMove(self.turn, action.value))
            self._pass_turn()
        else:
            self.throw = action.value
        return effects

    def _apply_move(self, action: Move) -> list[Effect]:
        if self.throw is None:
            raise IllegalAction(_("{player} must throw the {colour} die first").format(
                player=self._label(self.turn), colour=colour_word(self.turn)))
        colour, d = self.turn, self.throw
        geo = self.game.geometry
        frm, to = action.frm, action.to
        w = self.game.square_words
        for sq in (frm, to):
            if sq not in geo.cells:
                raise IllegalAction(_("there is no square {square} on this board").format(square=sq))
        if self.cats.get(frm) != colour:
            raise IllegalAction(_("there is no {colour} cat on {square}").format(colour=colour_word(colour), square=w(frm)))
        if frm in geo.mice:
            raise IllegalAction(_("the cat on {square} sits on its mouse and never moves again").format(square=w(frm)))
        (r0, c0), (r1, c1) = geo.cells[frm], geo.cells[to]
        dr, dc = r1 - r0, c1 - c0
        dist = max(abs(dr), abs(dc))
        if dist == 0 or (dr != 0 and dc != 0 and abs(dr) != abs(dc)):
            raise IllegalAction(_("{start} to {stop} is not a straight line (8 directions)").format(start=w(frm), stop=w(to)))
        if dist != d:
            raise IllegalAction(ngettext("you threw {n}; {start} to {stop} is {dist} square",
                                         "you threw {n}; {start} to {stop} is {dist} squares", dist).format(
                n=d, start=w(frm), stop=w(to), dist=dist))
        step = (dr // dist, dc // dist)
        for k in range(1, dist):
            cell = (r0 + k * step[0], c0 + k * step[1])
            mid = geo.at.get(cell)
            if mid is None or mid in geo.mice:
                raise IllegalAction(_("the line from {start} to {stop} leaves the board").format(start=w(frm), stop=w(to)))
            if mid in self.cats:
                raise IllegalAction(_("the path is blocked: a {colour} cat is on {square}").format(
                    colour=colour_word(self.cats[mid]), square=w(mid)))
        if to in geo.mice and to not in self.game.mice_of[colour]:
            raise IllegalAction(_("{square} is not a {colour} mouse: a cat may only enter its own mice").format(
                square=w(to), colour=colour_word(colour)))
        occupant = self.cats.get(to)
        if occupant == colour:
            raise IllegalAction(_("one of your own cats is already on {square}").format(square=w(to)))
        effects: list[Effect] = [Moved(colour, frm, to)]
        if occupant is not None:
            effects.append(Captured(colour, occupant, to))
        del self.cats[frm]
        self.cats[to] = colour
        self.throw = None
        if to in geo.mice:
            effects.append(Parked(colour, to))
        if all(self.cats.get(m) == colour for m in self.game.mice_of[colour]):
            self._finish(colour, "mice")
            effects.append(Won(colour, "mice"))
            return effects
        movers = [p for p in self.game.players if self.mobile_cats(p)]
        if len(movers) <= 1:
            winner = movers[0] if movers else None
            self._finish(winner, "last mobile")
            if winner is not None:
                effects.append(Won(winner, "last mobile"))
            return effects
        self._pass_turn()
        return effects

    def _finish(self, winner: str | None, how: str) -> None:
        self.over, self.winner, self.how, self.throw = True, winner, how, None

    def _pass_turn(self) -> None:
        self.throw = None
        players = self.game.players
        i = players.index(self.turn)
        for k in range(1, len(players) + 1):
            nxt = players[(i + k) % len(players)]
            if self.mobile_cats(nxt):
                self.turn = nxt
                return
        self.turn = players[(i + 1) % len(players)]

    def clone(self) -> KilkennyState:
        """A copy (the same as the JSON round trip, without the JSON: the players search on it)."""
        return KilkennyState(self.game, dict(self.cats), self.turn, self.throw, self.winner, self.how, self.over)

    # -- JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "cats": dict(self.cats),
            "turn": self.turn,
            "throw": self.throw,
            "winner": self.winner,
            "how": self.how,
            "over": self.over,
        }


class KilkennyCats(Game):
    """Kilkenny Cats with ``players`` colours (2-4), ``cats`` each (1-8) on ``board``."""

    key = "kilkenny"
    title = "Kilkenny Cats"
    action_types = (Throw, Move)

    def __init__(
        self,
        players: int = 2,
        cats: int = 8,
        colours: Sequence[str] | Mapping[str, str] | None = None,
        board: str = "kilkenny",
    ) -> None:
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError("Kilkenny Cats is for 2 to 4 players")
        self.geometry = geometry(board)
        b = self.geometry.board
        starts = {side: b.region(f"start:{side}") for side in SIDES}
        if not isinstance(cats, int) or not 1 <= cats <= min(len(s) for s in starts.values()):
            raise ValueError(f"cats per player must be 1 to {min(len(s) for s in starts.values())}")
        printed = dict(b.settings.get("colours", {}))
        if colours is None:
            cols = [str(printed.get(side, side)) for side in SIDES]
        elif isinstance(colours, Mapping):
            cols = [str(colours.get(side, printed.get(side, side))) for side in SIDES]
        else:
            cols = [str(c) for c in colours]
            if len(cols) < players:
                raise ValueError(f"give a colour for each of the {players} players")
            cols += [str(printed.get(side, side)) for side in SIDES[len(cols):]]
        cols = [c.strip().lower() for c in cols]
        if len(set(cols[:players])) != players or any(not c or ":" in c for c in cols[:players]):
            raise ValueError("the players' colours must be distinct names (no ':')")
        self.board_name = board_setting(board)
        self.n_players = players
        self.n_cats = cats
        self.colours = tuple(cols)
        self._players = tuple(cols[:players])
        self.side_of = {cols[i]: SIDES[i] for i in range(players)}
        self.mice_of: dict[str, frozenset[str]] = {
            c: frozenset(b.region(f"mice:{s}")) for c, s in self.side_of.items()
        }
        self.start_of: dict[str, tuple[str, ...]] = {
            c: starts[s][:cats] for c, s in self.side_of.items()
        }

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    def player_label(self, player: str) -> str:
        return colour_label(player)

    def square_words(self, square: str) -> str:
        return coords.square_words(self.geometry.board, square)

    def settings(self) -> dict[str, Any]:
        return {
            "players": self.n_players,
            "cats": self.n_cats,
            "colours": list(self.colours),
            "board": self.board_name,
        }

    def dice_colours(self) -> tuple[str, ...]:
        return self.players  # each colour throws its own die

    def interpretations(self) -> list[str]:
        sides = ", ".join(f"{self.player_label(c)} {_(SIDE_WORDS.get(s, s))}" for c, s in self.side_of.items())
        return [
            _("Sides: {sides}; each aims at the two mice on the opposite edge.").format(sides=sides),
            _("A cat may end on its own colour's mice only, orthogonally or diagonally, by exact "
              "count; never on another colour's mice (unused colours' mice included)."),
            _("With no legal move after the throw, the turn is lost."),
            _("A colour with no cat that can still move is passed over; when only one colour can "
              "still move, it wins (re-edition extension)."),
        ]

    def new_state(self) -> KilkennyState:
        cats = {sq: c for c in self.players for sq in self.start_of[c]}
        return KilkennyState(self, cats, self.players[0])

    def state_from_json(self, data: Mapping[str, Any]) -> KilkennyState:
        return KilkennyState(
            self,
            {str(k): str(v) for k, v in dict(data["cats"]).items()},
            str(data["turn"]),
            None if data.get("throw") is None else int(data["throw"]),
            None if data.get("winner") is None else str(data["winner"]),
            None if data.get("how") is None else str(data["how"]),
            bool(data.get("over", False)),
        )
