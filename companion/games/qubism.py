"""Qubism (Debug Monkeys, 2018): RULES.md section 4, rules Q1-Q7.

Two players, White and Black (player ids ``"white"``, ``"black"``; White moves first). The
board file (``companion/boards/qubism.toml``) gives the 5x5 grid of ``"row,col"`` squares and
each pawn's start square and goal row (regions ``start:<player>``, ``goal:<player>``): White
starts on 4,2 and aims at row 0, Black starts on 0,2 and aims at row 4.

A turn is one action (Q2):

- :class:`PawnMove` ``to``: one orthogonal step, the jump over the other pawn, or a side-step
  beside it when the jump is blocked (Q3); each reachable square is its own choice;
- :class:`PlaceCube` ``square, arrow``: a cube from the pool of 9, top arrow N/E/S/W; the
  square the arrow points at must be on the board and empty (Q4);
- :class:`SlideCube` ``square, distance``: slide a cube that many squares along its arrow over
  empty squares, then it tips over (Q5).

After a slide the cube's new top arrow depends on how the physical cube is printed. With the
default ``cube_model="observed"`` it is an observed input: ``to_move()`` returns ``CHANCE`` and
the next action is :class:`Tip` ``square, arrow`` (reported by camera or touch; the four
outcomes are listed with probability 1/4 each, a placeholder since the printing is unknown).
``cube_model="forward"`` predicts that the new arrow points the way the cube slid (a cube
printed as a rolling belt: the face coming up from the tail side has its arrow pointing up,
which becomes the direction of travel) and ``"back"`` that it points back the way it came
(that face's arrow pointing down); with a model there is no chance step.

Q6: a placement or slide that leaves either pawn with no orthogonal path over cube-free
squares to its goal row is refused with a message naming the pawn and the row. Pawns do not
block a path. Q7: a pawn on its goal row wins.

Q6 also guarantees that the mover always has a pawn move: a path to the goal row leaves the
pawn either through a free neighbour (a step) or through the other pawn's square and on to a
free square beside or behind it (a jump or a side-step). So a turn is never lost and there is
no pass.

The game can cycle (pawns and cubes can shuttle forever); ``companion`` leaves ending such a
game to the players.

``board_view()`` tokens: ``"pawn:<player>"``, ``"cube:<N|E|S|W>"``, and ``"cube:?"`` for a cube
whose new arrow after a slide has not been reported yet.
"""

from __future__ import annotations

import functools
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.boards import Board, BoardError, board_setting, coords, load_board
from companion.games.base import CHANCE, Action, Effect, Game, IllegalAction, State
from companion.games.qubism_effects import CubePlaced, CubeSlid, CubeTipped, Moved, Won, arrow_words, player_name
from companion.i18n import _

__all__ = [
    "Qubism",
    "QubismState",
    "PawnMove",
    "PlaceCube",
    "SlideCube",
    "Tip",
    "Moved",
    "CubePlaced",
    "CubeSlid",
    "CubeTipped",
    "Won",
    "ARROWS",
    "CUBE_MODELS",
]

ARROWS: dict[str, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
CUBE_MODELS = ("observed", "forward", "back")
UNKNOWN = "?"


# -- actions -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PawnMove(Action):
    to: str


@dataclass(frozen=True)
class PlaceCube(Action):
    square: str
    arrow: str


@dataclass(frozen=True)
class SlideCube(Action):
    square: str
    distance: int


@dataclass(frozen=True)
class Tip(Action):
    """Observed outcome after a slide: the cube now on ``square`` shows ``arrow`` on top."""

    square: str
    arrow: str


# -- geometry ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    board: Board
    cells: dict[str, tuple[int, int]]
    at: dict[tuple[int, int], str]
    nbrs: dict[str, tuple[str, ...]]
    """square -> its orthogonal neighbours on the board (precomputed for the path searches)"""


@functools.lru_cache(maxsize=8)
def geometry(board_name: str) -> Geometry:
    board = load_board(board_name)
    cells: dict[str, tuple[int, int]] = {}
    for sq in board.squares.values():
        if sq.cell is None:
            raise BoardError(f"board {board.name!r}: square {sq.id!r} has no cell (Qubism needs a grid)")
        cells[sq.id] = sq.cell
    at = {c: s for s, c in cells.items()}
    nbrs = {
        s: tuple(n for dr, dc in ARROWS.values() if (n := at.get((r + dr, c + dc))) is not None)
        for s, (r, c) in cells.items()
    }
    return Geometry(board, cells, at, nbrs)


# -- state -------------------------------------------------------------------------------------


class QubismState(State):
    game: Qubism

    def __init__(
        self,
        game: Qubism,
        pawns: dict[str, str],
        cubes: dict[str, str],
        pool: int,
        turn: str,
        tipping: str | None = None,
        winner: str | None = None,
    ) -> None:
        self.game = game
        self.pawns = pawns
        """player -> square"""
        self.cubes = cubes
        """square -> arrow (N/E/S/W, or "?" while its tip is being reported)"""
        self.pool = pool
        self.turn = turn
        self.tipping = tipping
        """the square of the cube whose new arrow is due (a chance step), or None"""
        self.winner = winner

    # -- helpers ---------------------------------------------------------------------------

    def _step(self, square: str, arrow: str, k: int = 1) -> str | None:
        r, c = self.game.geometry.cells[square]
        dr, dc = ARROWS[arrow]
        return self.game.geometry.at.get((r + k * dr, c + k * dc))

    def _other(self, player: str) -> str:
        a, b = self.game.players
        return b if player == a else a

    def _label(self, player: str) -> str:
        return self.game.player_label(player)

    def cut_off(self, cubes: Iterable[str] | None = None) -> list[str]:
        """Players whose pawn has no path to its goal row over cube-free squares (Q6)."""
        blocked = set(self.cubes if cubes is None else cubes)
        return [p for p in self.game.players if self._path(p, blocked) is None]

    def _path(self, player: str, blocked: Container[str]) -> list[str] | None:
        """A shortest path of the pawn of ``player`` to its goal row avoiding ``blocked``, or None."""
        nbrs = self.game.geometry.nbrs
        goal = self.game.goal_of[player]
        start = self.pawns[player]
        came: dict[str, str] = {start: start}
        todo = [start]
        for sq in todo:  # breadth first: the list grows while it is read
            if sq in goal:
                path = [sq]
                while sq != start:
                    sq = came[sq]
                    path.append(sq)
                return path
            for nxt in nbrs[sq]:
                if nxt not in came and nxt not in blocked:
                    came[nxt] = sq
                    todo.append(nxt)
        return None

    def _on_paths(self) -> set[str]:
        """Squares on one path per pawn (Q6): a cube anywhere else cuts nobody off, since that
        path stays open (and taking a cube away only opens squares)."""
        out: set[str] = set()
        for p in self.game.players:
            out.update(self._path(p, self.cubes) or ())
        return out

    def _cut_off_message(self, what: str, players: list[str]) -> str:
        parts = [_("{player} off from row {row}").format(player=self._label(p), row=self.game.goal_row_words(p))
                 for p in players]
        walled = parts[0] if len(parts) == 1 else _("{items} and {last}").format(
            items=", ".join(parts[:-1]), last=parts[-1])
        return _("{what} would wall {walled} (never cut off a pawn)").format(what=what, walled=walled)

    def pawn_targets(self, player: str | None = None) -> dict[str, str]:
        """Squares the pawn of ``player`` (default: the mover) may move to -> how (Q3)."""
        player = player or self.turn
        other_sq = self.pawns[self._other(player)]
        out: dict[str, str] = {}
        for arrow in ARROWS:
            nxt = self._step(self.pawns[player], arrow)
            if nxt is None or nxt in self.cubes:
                continue
            if nxt != other_sq:
                out[nxt] = "step"
                continue
            behind = self._step(nxt, arrow)
            if behind is not None and behind not in self.cubes:
                out[behind] = "jump"
                continue
            for side in (("E", "W") if arrow in "NS" else ("N", "S")):
                beside = self._step(nxt, side)
                if beside is not None and beside not in self.cubes:
                    out.setdefault(beside, "side-step")
        return out

    def _empty(self, square: str | None) -> bool:
        return square is not None and square not in self.cubes and square not in self.pawns.values()

    def _placement_error(self, square: str, arrow: str, on_paths: Container[str] | None = None) -> str | None:
        w = self.game.square_words
        if square not in self.game.geometry.cells:
            return _("there is no square {square} on this board").format(square=square)
        if arrow not in ARROWS:
            return _("the arrow must be N, E, S or W, not {arrow}").format(arrow=repr(arrow))
        if self.pool <= 0:
            return _("all 9 cubes are on the board; move one instead")
        if square in self.cubes:
            return _("there is already a cube on {square}").format(square=w(square))
        if square in self.pawns.values():
            return _("a pawn stands on {square}").format(square=w(square))
        target = self._step(square, arrow)
        if target is None:
            return _("the arrow of a cube on {square} pointing {arrow} would point off the board").format(
                square=w(square), arrow=arrow_words(arrow))
        if not self._empty(target):
            return _("the arrow must point at an empty square, and {square} is not empty").format(square=w(target))
        walled = [] if on_paths is not None and square not in on_paths else self.cut_off(set(self.cubes) | {square})
        if walled:
            return self._cut_off_message(_("a cube on {square}").format(square=w(square)), walled)
        return None

    def _slide_error(self, square: str, distance: int, on_paths: Container[str] | None = None) -> str | None:
        w = self.game.square_words
        if square not in self.game.geometry.cells:
            return _("there is no square {square} on this board").format(square=square)
        arrow = self.cubes.get(square)
        if arrow is None:
            return _("there is no cube on {square}").format(square=w(square))
        if not isinstance(distance, int) or distance < 1:
            return _("a cube slides one or more squares")
        for k in range(1, distance + 1):
            sq = self._step(square, arrow, k)
            if sq is None:
                return _("the cube on {square} would slide off the board (its arrow points {arrow})").format(
                    square=w(square), arrow=arrow_words(arrow))
            if not self._empty(sq):
                return _("the cube on {square} cannot slide over {other}: it is not empty").format(
                    square=w(square), other=w(sq))
        dest = self._step(square, arrow, distance)
        assert dest is not None
        walled = ([] if on_paths is not None and dest not in on_paths
                  else self.cut_off((set(self.cubes) - {square}) | {dest}))
        if walled:
            return self._cut_off_message(_("sliding that cube to {square}").format(square=w(dest)), walled)
        return None

    # -- queries -----------------------------------------------------------------------------

    def to_move(self) -> str | None:
        if self.winner is not None:
            return None
        return CHANCE if self.tipping is not None else self.turn

    def current_player(self) -> str | None:
        return None if self.winner is not None else self.turn

    def _actions(self) -> list[Action]:
        out: list[Action] = [PawnMove(sq) for sq in self.pawn_targets()]
        on_paths = self._on_paths()
        if self.pool > 0:
            for sq in self.game.geometry.cells:
                if sq in self.cubes or sq in self.pawns.values():
                    continue
                if sq in on_paths and self.cut_off(set(self.cubes) | {sq}):
                    continue  # Q6, whatever the arrow
                for arrow in ARROWS:
                    if self._placement_error(sq, arrow, ()) is None:
                        out.append(PlaceCube(sq, arrow))
        for sq, arrow in sorted(self.cubes.items()):
            k = 1
            while True:
                nxt = self._step(sq, arrow, k)
                if not self._empty(nxt):
                    break
                if self._slide_error(sq, k, on_paths) is None:
                    out.append(SlideCube(sq, k))
                k += 1
        return out

    def legal_actions(self) -> list[Action]:
        if self.to_move() in (None, CHANCE):
            return []
        return self._actions()

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.tipping is None or self.winner is not None:
            return []
        p = Fraction(1, len(ARROWS))
        return [(Tip(self.tipping, a), p) for a in ARROWS]

    def board_view(self) -> dict[str, str]:
        view = {sq: f"cube:{arrow}" for sq, arrow in self.cubes.items()}
        view.update({sq: f"pawn:{p}" for p, sq in self.pawns.items()})
        return view

    def outcome(self) -> dict[str, Any] | None:
        if self.winner is None:
            return None
        return {"winner": self.winner, "scores": {p: int(p == self.winner) for p in self.game.players}}

    # -- applying ----------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Effect]:
        if self.winner is not None:
            raise IllegalAction(_("the game is over"))
        if self.tipping is not None:
            if not isinstance(action, Tip):
                raise IllegalAction(_("first say which arrow the cube on {square} shows now").format(
                    square=self.game.square_words(self.tipping)))
            return self._apply_tip(action)
        player = self.turn
        if isinstance(action, PawnMove):
            targets = self.pawn_targets()
            how = targets.get(action.to)
            if how is None:
                raise IllegalAction(self._pawn_error(action.to))
            frm = self.pawns[player]
            self.pawns[player] = action.to
            effects: list[Effect] = [Moved(player, frm, action.to, how)]
            if action.to in self.game.goal_of[player]:
                self.winner = player
                effects.append(Won(player, action.to))
            else:
                self.turn = self._other(player)
            return effects
        if isinstance(action, PlaceCube):
            err = self._placement_error(action.square, action.arrow)
            if err:
                raise IllegalAction(err)
            self.cubes[action.square] = action.arrow
            self.pool -= 1
            self.turn = self._other(player)
            return [CubePlaced(player, action.square, action.arrow, self.pool)]
        if isinstance(action, SlideCube):
            err = self._slide_error(action.square, action.distance)
            if err:
                raise IllegalAction(err)
            arrow = self.cubes.pop(action.square)
            dest = self._step(action.square, arrow, action.distance)
            assert dest is not None
            effects = [CubeSlid(player, action.square, dest)]
            model = self.game.cube_model
            if model == "observed":
                self.cubes[dest] = UNKNOWN
                self.tipping = dest
            else:
                new = arrow if model == "forward" else OPPOSITE[arrow]
                self.cubes[dest] = new
                effects.append(CubeTipped(dest, new))
                self.turn = self._other(player)
            return effects
        if isinstance(action, Tip):
            raise IllegalAction(_("no cube is waiting for its new arrow"))
        raise IllegalAction(_("{action} is not a Qubism action").format(action=action))

    def _pawn_error(self, to: str) -> str:
        geo = self.game.geometry
        w = self.game.square_words
        if to not in geo.cells:
            return _("there is no square {square} on this board").format(square=to)
        frm = self.pawns[self.turn]
        (r0, c0), (r1, c1) = geo.cells[frm], geo.cells[to]
        if to in self.cubes:
            return _("a cube stands on {square}").format(square=w(to))
        if to == self.pawns[self._other(self.turn)]:
            return _("{player}'s pawn is on {square}; jump over it instead").format(
                player=self._label(self._other(self.turn)), square=w(to))
        if abs(r1 - r0) + abs(c1 - c0) == 1:
            return _("the pawn cannot move from {start} to {stop}").format(start=w(frm), stop=w(to))
        return _("the pawn moves one square orthogonally (or jumps the other pawn); "
                 "{stop} is not reachable from {start}").format(start=w(frm), stop=w(to))

    def _apply_tip(self, action: Tip) -> list[Effect]:
        if action.square != self.tipping:
            raise IllegalAction(_("the cube that just moved is on {square}, not {other}").format(
                square=self.game.square_words(self.tipping or ""), other=self.game.square_words(action.square)))
        if action.arrow not in ARROWS:
            raise IllegalAction(_("the arrow must be N, E, S or W, not {arrow}").format(arrow=repr(action.arrow)))
        self.cubes[action.square] = action.arrow
        self.tipping = None
        self.turn = self._other(self.turn)
        return [CubeTipped(action.square, action.arrow)]

    # -- JSON ---------------------------------------------------------------------------------

    def clone(self) -> QubismState:
        """A copy (the same as the JSON round trip of :class:`State`, without the JSON)."""
        return QubismState(self.game, dict(self.pawns), dict(sorted(self.cubes.items())), self.pool, self.turn,
                           self.tipping, self.winner)

    def to_json(self) -> dict[str, Any]:
        return {
            "pawns": dict(self.pawns),
            "cubes": dict(sorted(self.cubes.items())),
            "pool": self.pool,
            "turn": self.turn,
            "tipping": self.tipping,
            "winner": self.winner,
        }


class Qubism(Game):
    """Qubism on ``board`` with ``cubes`` in the pool and a ``cube_model`` for tipping."""

    key = "qubism"
    title = "Qubism"
    action_types = (PawnMove, PlaceCube, SlideCube, Tip)

    def __init__(self, cube_model: str | None = "observed", cubes: int = 9, board: str = "qubism") -> None:
        model = cube_model or "observed"
        if model not in CUBE_MODELS:
            raise ValueError(f"cube_model must be one of {', '.join(CUBE_MODELS)}")
        if not isinstance(cubes, int) or cubes < 0:
            raise ValueError("the pool holds 0 or more cubes")
        self.geometry = geometry(board)
        b = self.geometry.board
        players = tuple(str(p) for p in b.settings.get("players", ("white", "black")))
        if len(players) != 2:
            raise BoardError(f"board {b.name!r}: Qubism needs exactly 2 players")
        self._players = players
        self.cube_model = model
        self.n_cubes = cubes
        self.board_name = board_setting(board)
        self.start_of: dict[str, str] = {}
        self.goal_of: dict[str, frozenset[str]] = {}
        self.goal_row: dict[str, int] = {}
        for p in players:
            start, goal = b.region(f"start:{p}"), b.region(f"goal:{p}")
            if len(start) != 1 or not goal:
                raise BoardError(f"board {b.name!r}: needs regions start:{p} (one square) and goal:{p}")
            self.start_of[p] = start[0]
            self.goal_of[p] = frozenset(goal)
            self.goal_row[p] = self.geometry.cells[goal[0]][0]

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    def player_label(self, player: str) -> str:
        return player_name(None, player)

    def square_words(self, square: str) -> str:
        return coords.square_words(self.geometry.board, square)

    def goal_row_words(self, player: str) -> str:
        """The goal row's number as printed beside the board (row 0 of the ids is the top)."""
        frame = coords.axes(self.geometry.board)
        label = frame.row_label(self.goal_row[player]) if frame is not None else None
        return label or str(self.goal_row[player])

    def settings(self) -> dict[str, Any]:
        return {"cube_model": self.cube_model, "cubes": self.n_cubes, "board": self.board_name}

    def interpretations(self) -> list[str]:
        model = {
            "observed": _("After a slide the cube's new top arrow is read by the camera or entered by touch."),
            "forward": _("After a slide the cube's new top arrow points the way it slid."),
            "back": _("After a slide the cube's new top arrow points back the way it came."),
        }[self.cube_model]
        return [
            _("White moves first from {white} towards row {white_goal}; Black from {black} towards row {black_goal}.").format(
                white=self.square_words(self.start_of.get("white", "4,2")), white_goal=self.goal_row_words("white"),
                black=self.square_words(self.start_of.get("black", "0,2")), black_goal=self.goal_row_words("black"))
            if set(self.players) == {"white", "black"} else
            _("Each pawn starts in the middle of its own edge and races to the opposite edge."),
            _("A jump blocked by a cube or the edge gives a side-step left or right of the other pawn."),
            model,
            _("A cube may not be placed or slid so that either pawn has no path to its goal row."),
        ]

    def new_state(self) -> QubismState:
        return QubismState(self, {p: self.start_of[p] for p in self.players}, {}, self.n_cubes, self.players[0])

    def state_from_json(self, data: Mapping[str, Any]) -> QubismState:
        return QubismState(
            self,
            {str(k): str(v) for k, v in dict(data["pawns"]).items()},
            {str(k): str(v) for k, v in dict(data["cubes"]).items()},
            int(data["pool"]),
            str(data["turn"]),
            None if data.get("tipping") is None else str(data["tipping"]),
            None if data.get("winner") is None else str(data["winner"]),
        )
