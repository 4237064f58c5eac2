"""Game-agnostic helpers that turn touches and readings into engine actions (no Kivy here).

The UI never builds a game's actions by hand: it matches what the player touched (die faces,
a tile type, two squares) against ``state.chance_outcomes()`` and ``state.legal_actions()``.
So every game's own action classes work unchanged, and anything not among them is refused
with a readable message.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from companion.games.base import CHANCE, Action, IllegalAction, State
from companion.i18n import _


def int_fields(action: Action) -> tuple[int, ...]:
    """The integer field values of an action (die faces for a throw)."""
    out: list[int] = []
    for f in dataclasses.fields(action):
        v = getattr(action, f.name)
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            out.append(v)
        elif isinstance(v, tuple) and v and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            out.extend(v)
    return tuple(out)


def str_fields(action: Action) -> tuple[str, ...]:
    return tuple(
        getattr(action, f.name) for f in dataclasses.fields(action) if isinstance(getattr(action, f.name), str)
    )


def varying_fields(actions: Sequence[Action]) -> list[str]:
    """Names of the fields whose values differ among the actions (what the outcome decides)."""
    if not actions:
        return []
    names = [f.name for f in dataclasses.fields(actions[0])]
    out = []
    for name in names:
        values = {repr(getattr(a, name, None)) for a in actions}
        if len(values) > 1:
            out.append(name)
    return out


def chance_kind(state: State) -> str | None:
    """``"dice"`` when the due chance outcome is a throw (what varies is integer faces),
    ``"tile"`` when it is a named outcome (a tile type, a cube's new arrow), ``None`` when no
    chance outcome is due."""
    if state.to_move() != CHANCE:
        return None
    outcomes = [a for a, _p in state.chance_outcomes()]
    if not outcomes:
        return None
    if len({type(a) for a in outcomes}) == 1:
        varying = varying_fields(outcomes) or [f.name for f in dataclasses.fields(outcomes[0])]
        first = outcomes[0]
        if all(_is_intlike(getattr(first, n)) for n in varying) and int_fields(first):
            return "dice"
    return "tile"


def _is_intlike(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True
    return isinstance(v, tuple) and bool(v) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)


def dice_spec(state: State) -> tuple[int, list[int]]:
    """(number of dice, the face values that can show) for the due throw."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        return (0, [])
    n = len(int_fields(outcomes[0][0]))
    faces = sorted({v for a, _p in outcomes for v in int_fields(a)})
    return (n, faces)


def throw_action(state: State, values: Sequence[int]) -> Action:
    """The chance outcome matching the dice shown (order-free); IllegalAction if none."""
    want = sorted(int(v) for v in values)
    if state.to_move() != CHANCE:
        raise IllegalAction(_("no throw is due now"))
    exact = [a for a, _p in state.chance_outcomes() if list(int_fields(a)) == [int(v) for v in values]]
    if exact:
        return exact[0]
    for a, _p in state.chance_outcomes():
        if sorted(int_fields(a)) == want:
            return a
    shown = " + ".join(str(v) for v in values)
    raise IllegalAction(_("a throw of {throw} is not possible here").format(throw=shown))


def tile_label(action: Action, varying: Sequence[str] | None = None) -> str:
    """What a named outcome is called: its varying string fields (the tile type, the arrow)."""
    if varying:
        parts = [str(getattr(action, n)) for n in varying if isinstance(getattr(action, n, None), str)]
        if parts:
            return " ".join(parts)
    names = str_fields(action)
    return names[-1] if names else type(action).__name__


def tile_outcomes(state: State) -> list[tuple[str, Action, Fraction]]:
    """Named outcomes grouped by what varies: (label, an action for it, chance)."""
    seen: dict[str, tuple[Action, Fraction]] = {}
    outcomes = state.chance_outcomes()
    varying = varying_fields([a for a, _p in outcomes])
    for a, p in outcomes:
        label = tile_label(a, varying)
        if label in seen:
            seen[label] = (seen[label][0], seen[label][1] + p)
        else:
            seen[label] = (a, p)
    return [(k, a, p) for k, (a, p) in seen.items()]


IGNORED_FIELDS = frozenset({"via"})
"""Fields that refine a move without being where it starts or ends (Chop! Chop!'s path)."""


def squares_of(action: Action, squares: Iterable[str], pieces: Mapping[str, str] | None = None) -> list[str]:
    """Square ids an action names, in field order (from, to, ...).

    ``pieces`` maps a piece token (``"mouse:1"``) to the square it stands on, so an action
    naming its piece (``Move(piece, to)``) starts where that piece stands.
    """
    known = set(squares)
    where = pieces or {}
    out: list[str] = []
    for f in dataclasses.fields(action):
        if f.name in IGNORED_FIELDS:
            continue
        v: Any = getattr(action, f.name)
        if isinstance(v, str) and v in known:
            out.append(v)
        elif isinstance(v, str) and v in where:
            out.append(where[v])
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, str) and x in known:
                    out.append(x)
    return out


def path_of(action: Action, squares: Iterable[str], pieces: Mapping[str, str] | None = None) -> list[str]:
    """The squares a move passes, first to last: its squares with the way it goes (``via``)
    before the last (Chop! Chop!'s "onto 2,6 from the table top at 2,5")."""
    known = set(squares)
    named = squares_of(action, known, pieces)
    vias = [getattr(action, f) for f in sorted(IGNORED_FIELDS) if isinstance(getattr(action, f, None), str)]
    vias = [v for v in vias if v in known and (not named or v not in (named[0], named[-1]))]
    return named[:-1] + vias + named[-1:] if named else []


def piece_squares(board_view: Mapping[str, str]) -> dict[str, str]:
    """piece token -> square, from ``state.board_view()`` (square -> token)."""
    return {token: square for square, token in board_view.items()}


def _group_by_square(
    actions: Sequence[Action], squares: Iterable[str], pieces: Mapping[str, str] | None, which: int
) -> dict[str, list[Action]]:
    sq = list(squares)
    out: dict[str, list[Action]] = {}
    for a in actions:
        named = squares_of(a, sq, pieces)
        if named:
            out.setdefault(named[which], []).append(a)
    return out


def moves_from(
    actions: Sequence[Action], squares: Iterable[str], pieces: Mapping[str, str] | None = None
) -> dict[str, list[Action]]:
    """Legal actions grouped by their first square (the piece to move or the square to fill)."""
    return _group_by_square(actions, squares, pieces, 0)


def targets(
    actions: Sequence[Action], squares: Iterable[str], pieces: Mapping[str, str] | None = None
) -> dict[str, list[Action]]:
    """Legal actions grouped by their last square (where the piece ends)."""
    return _group_by_square(actions, squares, pieces, -1)


def describe_action(action: Action) -> str:
    """A short phrase for an action without its own wording."""
    d = getattr(action, "describe", None)
    if callable(d):
        try:
            return str(d())
        except TypeError:
            pass
    ints = int_fields(action)
    strs = str_fields(action)
    if ints and not strs:
        return _("throws {throw}").format(throw=" + ".join(str(v) for v in ints))
    name = type(action).__name__
    words = "".join(" " + c.lower() if c.isupper() else c for c in name).strip()
    parts = []
    for f in dataclasses.fields(action):
        v = getattr(action, f.name)
        if v in ("", None):
            continue
        parts.append(f"{f.name} {v}" if f.name in IGNORED_FIELDS or isinstance(v, int) else str(v))
    return f"{words} {' '.join(parts)}".strip()


def touch_marks(
    legal: Sequence[Action], squares: Iterable[str], pieces: Mapping[str, str] | None = None, many: int = 8
) -> tuple[list[str], list[str]]:
    """(squares to light, squares where any will do) before anything is selected: every square a
    move can start from (the pieces that can move, the squares a pawn can step to), none left
    out. A kind of action offered on more than ``many`` squares (an Arrow tile's jump, a cube
    placed on any empty square) goes in the second list: those squares are tinted, and the
    prompt says any free square will do."""
    sq = list(squares)
    by_type: dict[str, set[str]] = {}
    for a in legal:
        named = squares_of(a, sq, pieces)
        if named:
            by_type.setdefault(type(a).__name__, set()).add(named[0])
    lit: set[str] = set()
    free: set[str] = set()
    for found in by_type.values():
        (free if len(found) > many else lit).update(found)
    return sorted(lit), sorted(free - lit)
