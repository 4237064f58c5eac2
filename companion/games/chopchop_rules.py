"""Chop! Chop!'s configuration: what the engine needs from the board file (:class:`Geometry`)
and the game's settings and words (:class:`ChopChopRules`), split out of
:mod:`companion.games.chopchop` (whose :class:`~companion.games.chopchop.ChopChop` adds the
states) so that :mod:`companion.games.chopchop_state` and :mod:`companion.games.chopchop_paths`
can name the game and its geometry without importing the module that imports them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.boards import Board, BoardError, board_setting, coords, load_board
from companion.games.base import Game
from companion.games.chopchop_actions import CAT, DEFAULT_TILES, DIE_COLOURS, MICE, TILE_TYPES, tile_label
from companion.i18n import _

__all__ = ["Geometry", "ChopChopRules"]

# ---------------------------------------------------------------------------------------------
# geometry


@dataclass(frozen=True)
class Geometry:
    """What the engine needs from a board file."""

    board: Board
    table_top: frozenset[str]
    under_table: frozenset[str]
    holes: tuple[str, ...]
    slabs: tuple[str, ...]
    front: dict[str, str]
    adjacency: dict[str, tuple[str, ...]]

    @classmethod
    def from_board(cls, board: Board) -> Geometry:
        def need(name: str) -> tuple[str, ...]:
            ids = board.region(name)
            if not ids:
                raise BoardError(f"board {board.name!r} has no region {name!r} (Chop! Chop! needs it)")
            return ids

        holes = need("holes")
        front: dict[str, str] = {}
        for h in holes:
            f = board.region(f"front:{h}")
            if len(f) != 1:
                raise BoardError(f"board {board.name!r}: region 'front:{h}' must name one square")
            front[h] = f[0]
        slabs = need("slabs")
        if set(slabs) & set(holes):
            raise BoardError(f"board {board.name!r}: a hole cannot start with a slab")
        return cls(
            board=board,
            table_top=frozenset(need("table_top")),
            under_table=frozenset(board.region("under_table")),
            holes=holes,
            slabs=slabs,
            front=front,
            adjacency=dict(board.adjacency),
        )

    def may_stand(self, kind: str, square: str) -> bool:
        """C3, the static part: may a cat / a mouse ever stand on ``square``?"""
        if kind == CAT:
            return square not in self.under_table and square not in self.holes
        return square not in self.table_top


# ---------------------------------------------------------------------------------------------
# the game's configuration


class ChopChopRules(Game):
    """Chop! Chop!'s settings, players and words; :class:`~companion.games.chopchop.ChopChop`
    adds its states (``new_state``, ``state_from_json``)."""

    def __init__(
        self,
        mice_players: int = 1,
        board: str = "chopchop",
        tiles: Mapping[str, int] | None = None,
        cheese_to_win: int = 10,
        out_of_cheese: str = "cat",
    ) -> None:
        if not isinstance(mice_players, int) or not 1 <= mice_players <= 4:
            raise ValueError("Chop! Chop! needs 1 to 4 mice players")
        comp = dict(DEFAULT_TILES if tiles is None else tiles)
        unknown = sorted(set(comp) - set(TILE_TYPES))
        if unknown:
            raise ValueError(f"unknown tile types {unknown}; the types are {', '.join(TILE_TYPES)}")
        comp = {t: int(comp.get(t, 0)) for t in TILE_TYPES}
        if any(n < 0 for n in comp.values()):
            raise ValueError("tile counts cannot be negative")
        self.mice_players = mice_players
        self.board_name = board_setting(board)
        self.tiles = comp
        self.cheese_to_win = int(cheese_to_win)
        self.geometry = Geometry.from_board(load_board(board))
        if sum(comp.values()) != len(self.geometry.slabs):
            raise ValueError(
                f"the tile composition has {sum(comp.values())} slabs but the board has "
                f"{len(self.geometry.slabs)} slab squares"
            )
        if self.cheese_to_win < 1:
            raise ValueError("cheese_to_win must be at least 1")
        if out_of_cheese not in ("cat", "draw"):
            raise ValueError("out_of_cheese is 'cat' (the cat wins) or 'draw'")
        self.out_of_cheese = out_of_cheese

    @property
    def players(self) -> tuple[str, ...]:
        return (CAT, *(f"mice{i}" for i in range(1, self.mice_players + 1)))

    def square_words(self, square: str) -> str:
        return coords.square_words(self.geometry.board, square)

    @property
    def pieces(self) -> tuple[str, ...]:
        return (CAT, *self.mice)

    @cached_property
    def mice(self) -> tuple[str, ...]:
        return tuple(f"mouse:{i}" for i in range(1, len(self.geometry.holes) + 1))

    def player_label(self, player: str) -> str:
        if player.startswith("mice"):
            return _("Mice") if self.mice_players == 1 else _("Mice {n}").format(n=player[4:])
        return _("Cat")

    def settings(self) -> dict[str, Any]:
        return {
            "mice_players": self.mice_players,
            "board": self.board_name,
            "tiles": dict(self.tiles),
            "cheese_to_win": self.cheese_to_win,
            "out_of_cheese": self.out_of_cheese,
        }

    def dice_colours(self) -> tuple[str, ...]:
        return (DIE_COLOURS[CAT], DIE_COLOURS[MICE])

    def interpretations(self) -> list[str]:
        comp = ", ".join(f"{tile_label(t)} {n}" for t, n in self.tiles.items())
        if self.out_of_cheese == "cat":
            dead_end = _("Once the mice can no longer win (too little cheese left, no face-down slab a mouse "
                         "can reach, or a mouse walled in its hole for good), the game ends: the cat wins.")
        else:
            dead_end = _("Once the mice can no longer win (too little cheese left, no face-down slab a mouse "
                         "can reach, or a mouse walled in its hole for good), the game ends in a draw.")
        return [
            _("Tile slabs (a setting): {tiles}.").format(tiles=comp),
            _("Mice need {n} cheese, all holes opened and a mouse in a hole.").format(n=self.cheese_to_win),
            dead_end,
            _("Within a move no step goes straight back; a move never ends where it started."),
            _("A +1/+2 or arrow with no legal follow-up leaves the piece where it is."),
            _("With one mouse left, in a hole, the cat may not land in front of that hole by any "
              "move, follow-up or arrow."),
            _("Knife: the side misses its next turn; in the mice's double turn the same player "
              "rolls twice and must move the same mouse."),
            _("The mice players rotate after each mice turn followed by a cat turn."),
        ]
