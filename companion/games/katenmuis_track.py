"""Kat en Muis's track: the squares that do something (K4-K9), the two numberings, and where one
throw takes a counter (K4-K7), shared by the rules (:mod:`companion.games.katenmuis`, which
re-exports all of it) and the odds (:mod:`companion.odds`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CAT",
    "MOUSE",
    "PLAYERS",
    "HOME",
    "BOUNCE_TO",
    "DOUBLE_SQUARES",
    "SQUARE_NUMBERS",
    "LOSE_TURN_SQUARES",
    "THROW_AGAIN_SQUARES",
    "SHORTCUT_SETTINGS",
    "THROWS",
    "MoveResult",
    "resolve_throw",
    "jump_square",
    "other_player",
    "red_square_id",
]

CAT = "cat"
MOUSE = "mouse"
PLAYERS = (CAT, MOUSE)
HOME = 66
BOUNCE_TO = 48
DOUBLE_SQUARES = frozenset({11, 22, 33, 44, 55})
SQUARE_NUMBERS = frozenset({4, 9, 16, 25, 36, 49, 64})
LOSE_TURN_SQUARES = frozenset({5, 15, 25, 35, 45, 65})
THROW_AGAIN_SQUARES = frozenset({10, 20, 30, 40, 50, 60})
SHORTCUT_SETTINGS = ("reached", "strictly_past")
THROWS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 distinct throws of two dice, sorted (low die first)."""


def other_player(player: str) -> str:
    return MOUSE if player == CAT else CAT


def red_square_id(player: str, square: int) -> str:
    """The board file's id of ``square`` in ``player``'s numbering (0 is the start corner)."""
    if square == 0:
        return f"{player}-start"
    return str(square if player == CAT else HOME + 1 - square)


@dataclass(frozen=True)
class MoveResult:
    """Where one throw takes a counter, before any chips or landing effects."""

    start: int
    stop: int
    kind: str
    """``"walk"``, ``"shortcut"`` (K5, or K4 past 55), ``"turned_back"`` (K6), ``"forfeit"`` (K4)."""
    along: tuple[int, ...]
    """Every square stepped on, in order, ending with ``stop`` (empty for a forfeit)."""
    passed: frozenset[int]
    """Squares passed over (K7): everything in ``along`` except where the counter stops."""
    double: int = 0


def resolve_throw(start: int, dice: tuple[int, int], shortcut_from: str = "reached") -> MoveResult:
    """K4-K6 for a counter on ``start`` (own numbering, 0..65) throwing ``dice``."""
    a, b = dice
    if a == b == 6:
        if start > 55:  # K4: straight to 66
            along = tuple(range(start + 1, HOME + 1))
            return MoveResult(start, HOME, "shortcut", along, frozenset(along[:-1]), 6)
        return MoveResult(start, start, "forfeit", (), frozenset(), 6)
    if a == b:
        k = a
        low = 11 * (k - 1)
        # Double 1 works from the start under both settings (K5): only doubles 2..5 differ.
        in_reach = start >= low if shortcut_from == "reached" or k == 1 else start > low
        if in_reach and start < 11 * k:  # K5
            along = tuple(range(start + 1, 11 * k + 1))
            return MoveResult(start, 11 * k, "shortcut", along, frozenset(along[:-1]), k)
    target = start + a + b
    if target <= HOME:  # K6
        along = tuple(range(start + 1, target + 1))
        return MoveResult(start, target, "walk", along, frozenset(along[:-1]))
    along = tuple(range(start + 1, HOME + 1)) + tuple(range(HOME - 1, BOUNCE_TO - 1, -1))
    return MoveResult(start, BOUNCE_TO, "turned_back", along, frozenset(along[:-1]))


def jump_square(mover_passed: frozenset[int], other_square: int) -> int | None:
    """K7: the mover's square holding the other counter if the move passed over it."""
    if not 1 <= other_square < HOME:
        return None
    where = HOME + 1 - other_square
    return where if where in mover_passed else None
