"""The hidden-tile tracker of Chop! Chop!: what the companion shows so nobody has to remember.

``tracker(state)`` returns a :class:`Tracker`: per square its status, every revealed tile and
where, counts revealed and remaining per type, the chance of each type on the next slab, the
mice's cheese, opened holes, caught mice, and who misses or doubles a turn.

When reveals contradict the tile composition (say an 11th cheese with the default 10),
``contradiction`` says so, that type's ``remaining`` is ``None`` (unknown) and its ``chance`` is
``None``: the tracker does not claim what it cannot know. The other types' chances are then
"among the types still believed present" (what the engine uses for its chance outcomes).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.games.base import SquareWords
from companion.games.chopchop import CAT, MICE, TILE_TYPES, ChopChopState, piece_label, square_words, tile_label
from companion.i18n import _

__all__ = ["SquareStatus", "TileCount", "Tracker", "tracker"]


@dataclass(frozen=True)
class SquareStatus:
    status: str
    """``face-down`` (a slab not yet turned), ``cheese`` (a face-up cheese on the board),
    ``empty`` (its slab was turned and removed, or a square that never had one),
    ``hole`` (a hole slab still tile side up), ``hole-open`` (hole side up), ``table`` (table top)."""
    revealed: str | None = None
    """The tile turned here, if any."""
    piece: str | None = None
    """``"cat"`` or ``"mouse:<i>"`` standing here."""

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "revealed": self.revealed, "piece": self.piece}


@dataclass(frozen=True)
class TileCount:
    composition: int
    revealed: int
    remaining: int | None
    """``None`` when reveals contradicted the composition for this type."""

    def to_json(self) -> dict[str, Any]:
        return {"composition": self.composition, "revealed": self.revealed, "remaining": self.remaining}


@dataclass(frozen=True)
class Tracker:
    squares: dict[str, SquareStatus]
    reveals: tuple[tuple[str, str, str], ...]
    """(square, tile, piece) in the order turned."""
    counts: dict[str, TileCount]
    face_down: int
    chance: dict[str, Fraction | None]
    """Chance of each type on the next slab turned; ``None`` where unknown; empty when no slab left."""
    contradiction: str | None
    cheese_held: int
    cheese_to_win: int
    face_up_cheese: tuple[str, ...]
    cat_on_cheese: bool
    holes_opened: tuple[str, ...]
    holes_closed: tuple[str, ...]
    mice_caught: tuple[str, ...]
    mice_in_holes: tuple[str, ...]
    misses_next_turn: tuple[str, ...]
    """Sides (``"cat"``/``"mice"``) that will miss their next turn (knife)."""
    double_turn: str | None
    """The side now playing the second of two turns in a row."""
    same_mouse: str | None
    """In the mice's second turn: the mouse that must move."""
    barred_square: str | None
    """C6: the square the cat may not land on now."""

    def to_json(self) -> dict[str, Any]:
        return {
            "squares": {k: v.to_json() for k, v in sorted(self.squares.items())},
            "reveals": [list(r) for r in self.reveals],
            "counts": {t: c.to_json() for t, c in self.counts.items()},
            "face_down": self.face_down,
            "chance": {t: (None if p is None else str(p)) for t, p in self.chance.items()},
            "contradiction": self.contradiction,
            "cheese_held": self.cheese_held,
            "cheese_to_win": self.cheese_to_win,
            "face_up_cheese": list(self.face_up_cheese),
            "cat_on_cheese": self.cat_on_cheese,
            "holes_opened": list(self.holes_opened),
            "holes_closed": list(self.holes_closed),
            "mice_caught": list(self.mice_caught),
            "mice_in_holes": list(self.mice_in_holes),
            "misses_next_turn": list(self.misses_next_turn),
            "double_turn": self.double_turn,
            "same_mouse": self.same_mouse,
            "barred_square": self.barred_square,
        }

    def lines(self, squares: SquareWords | None = None) -> list[str]:
        """The tracker as a few lines of plain text (terminal, logs); ``squares`` names squares
        (the game's ``square_words``; without it, the shipped board's)."""
        out = []
        parts = []
        for t, c in self.counts.items():
            rem = "?" if c.remaining is None else str(c.remaining)
            p = self.chance.get(t)
            pct = "" if not self.chance else (" ?%" if p is None else f" {float(p) * 100:.0f}%")
            parts.append(_("{tile} {revealed}/{total} left {left}").format(
                tile=tile_label(t), revealed=c.revealed, total=c.composition, left=rem) + pct)
        out.append(_("Slabs face down: {n}.").format(n=self.face_down) + " " + "; ".join(parts))
        if self.contradiction:
            out.append(_("WARNING: {problem}").format(problem=self.contradiction))
        line = _("Mice hold {n}/{total} cheese.").format(n=self.cheese_held, total=self.cheese_to_win)
        if self.face_up_cheese:
            cheese_at = ", ".join(square_words(s, squares) for s in self.face_up_cheese)
            if self.cat_on_cheese:
                line += " " + _("Face-up cheese: {squares} (the cat sits on one).").format(squares=cheese_at)
            else:
                line += " " + _("Face-up cheese: {squares}.").format(squares=cheese_at)
        out.append(line)
        none = _("none")
        out.append(_("Holes opened: {opened} (closed: {closed}). Mice caught: {caught}.").format(
            opened=", ".join(square_words(s, squares) for s in self.holes_opened) or none,
            closed=", ".join(square_words(s, squares) for s in self.holes_closed) or none,
            caught=", ".join(piece_label(m) for m in self.mice_caught) or none))
        notes = []
        for side in self.misses_next_turn:
            notes.append(_("the cat misses their next turn") if side == CAT else _("the mice miss their next turn"))
        if self.double_turn:
            if self.same_mouse:
                text = (_("the cat plays a second turn in a row with {piece}") if self.double_turn == CAT
                        else _("the mice play a second turn in a row with {piece}"))
                notes.append(text.format(piece=piece_label(self.same_mouse)))
            else:
                notes.append(_("the cat plays a second turn in a row") if self.double_turn == CAT
                             else _("the mice play a second turn in a row"))
        if self.barred_square:
            notes.append(_("the cat may not land on {square} (last mouse in its hole)").format(
                square=square_words(self.barred_square, squares)))
        if notes:
            out.append(_("Note: {notes}.").format(notes="; ".join(notes)))
        return out


def tracker(state: ChopChopState) -> Tracker:
    game = state.game
    geo = state.geo
    revealed_at: dict[str, str] = {}
    for sq, tile, _piece in state.revealed:
        revealed_at[sq] = tile
    occ = {sq: p for p, sq in state.mice.items() if sq is not None}
    if state.cat is not None:
        occ[state.cat] = CAT
    squares: dict[str, SquareStatus] = {}
    for sq in geo.board.squares:
        if sq in state.face_down:
            status = "face-down"
        elif sq in state.face_up_cheese:
            status = "cheese"
        elif sq in geo.holes:
            status = "hole-open" if sq in state.opened else "hole"
        elif sq in geo.table_top:
            status = "table"
        else:
            status = "empty"
        squares[sq] = SquareStatus(status, revealed_at.get(sq), occ.get(sq))

    raw = state.tile_counts()
    counts = {t: TileCount(game.tiles[t], raw[t][0], raw[t][1]) for t in TILE_TYPES}
    bad = [t for t in TILE_TYPES if raw[t][1] is None]
    contradiction = None
    if bad:
        what = ", ".join(_("{n} {tile} turned but the setting says {setting}").format(
            n=raw[t][0], tile=tile_label(t), setting=game.tiles[t]) for t in bad)
        contradiction = _("the reveals contradict the tile composition ({what}); the remaining count of "
                          "{tiles} is unknown and its chance is not given").format(
            what=what, tiles=", ".join(tile_label(t) for t in bad))
    chance: dict[str, Fraction | None] = {}
    if state.face_down:
        odds = state.reveal_odds()
        chance = {t: (None if t in bad else odds[t]) for t in TILE_TYPES}

    misses = tuple(side for side in (CAT, MICE) if state.skip.get(side))
    return Tracker(
        squares=squares,
        reveals=tuple(state.revealed),
        counts=counts,
        face_down=len(state.face_down),
        chance=chance,
        contradiction=contradiction,
        cheese_held=state.cheese_held,
        cheese_to_win=game.cheese_to_win,
        face_up_cheese=tuple(sorted(state.face_up_cheese)),
        cat_on_cheese=state.cat is not None and state.cat in state.face_up_cheese,
        holes_opened=tuple(h for h in geo.holes if h in state.opened),
        holes_closed=tuple(h for h in geo.holes if h not in state.opened),
        mice_caught=tuple(m for m, sq in state.mice.items() if sq is None),
        mice_in_holes=tuple(m for m, sq in state.mice.items() if sq in geo.holes),
        misses_next_turn=misses,
        double_turn=state.side if state.double and state.phase != "over" else None,
        same_mouse=state.bonus_mouse if state.phase != "over" else None,
        barred_square=state.barred_for_cat() if state.phase != "over" else None,
    )
