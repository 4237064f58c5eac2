"""Chop! Chop!'s C8 end for the mice: when they can no longer win (RULES.md C8 (a), (b), (c)).

Split out of :mod:`companion.games.chopchop_state`, which asks :func:`cannot_win_reason` at the
end of every turn (a +1/+2/arrow follow-up belongs to its turn) and ends the game with the
setting ``out_of_cheese``: the cat wins (``"cat"``) or a draw (``"draw"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Protocol

from companion.games.chopchop_actions import CANNOT_CHEESE, CANNOT_LEAVE, CANNOT_REACH, english_piece
from companion.games.chopchop_paths import mouse_reach
from companion.games.chopchop_rules import ChopChopRules, Geometry


class Position(Protocol):
    """What C8 reads of a :class:`~companion.games.chopchop_state.ChopChopState` (named here so
    that this module need not import the state, which imports it)."""

    @property
    def game(self) -> ChopChopRules: ...
    @property
    def geo(self) -> Geometry: ...
    @property
    def mice(self) -> Mapping[str, str | None]: ...
    @property
    def face_down(self) -> Set[str]: ...
    @property
    def face_up_cheese(self) -> Set[str]: ...
    @property
    def opened(self) -> Set[str]: ...
    @property
    def cheese_held(self) -> int: ...
    def tile_counts(self) -> dict[str, tuple[int, int | None]]: ...


def cannot_win_reason(state: Position) -> str | None:
    """Why the mice can no longer win (an English reason for ``reason_text``), or ``None``.

    While they hold fewer cheese than they need: (a) their cheese + the cheese still face down
    + the smaller of (face-up cheese, forks still face down) is short, not applied while the
    cheese or the fork count is unknown (reveals contradicted the composition); (b) no
    face-down slab is left that a mouse still in the game could walk to. At any count: (c) a
    mouse still on its unopened hole slab can walk to no other square, and no fork can free it
    (no fork left face down, its count known; or no slab a mouse could walk to). The walk is
    :func:`~companion.games.chopchop_paths.mouse_reach`: face-up cheese (also the one under the
    cat) and the table top are walls, the other pieces are not."""
    geo = state.geo
    need = state.game.cheese_to_win
    walls = state.face_up_cheese
    counts = state.tile_counts()
    cheese_down, forks_down = counts["cheese"][1], counts["fork"][1]
    reach: set[str] = set()
    for sq in state.mice.values():
        if sq is not None and sq not in reach:
            reach |= mouse_reach(geo, sq, walls)
    slab_in_reach = not reach.isdisjoint(state.face_down)
    if state.cheese_held < need:
        if cheese_down is not None and forks_down is not None:
            most = state.cheese_held + cheese_down + min(len(state.face_up_cheese), forks_down)
            if most < need:
                return CANNOT_CHEESE
        if not slab_in_reach:
            return CANNOT_REACH
    if forks_down == 0 or not slab_in_reach:  # no fork can free a walled-in mouse
        for mouse, hole in zip(state.game.mice, geo.holes):
            if state.mice.get(mouse) == hole and hole not in state.opened and mouse_reach(geo, hole, walls) == {hole}:
                return CANNOT_LEAVE.format(piece=english_piece(mouse))
    return None
