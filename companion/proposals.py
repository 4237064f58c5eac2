"""What the companion would play, in words and in squares: the sentence and the squares to
light for one action of any game ("Black places a cube on C3 pointing north"); squares are
named as players read them (chess-style, ``Game.square_words``), never by their ids.

The sentence is worked out on a copy of the state (the action is tried there, never on the
game), so it can say what the move will do: "... and captures Blue's cat", "... and turns the
slab". Every sentence goes through :mod:`companion.i18n` with ``{placeholders}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.games import chopchop, kilkenny, qubism
from companion.games.base import Action, Effect, IllegalAction, State
from companion.games.chopchop_actions import square_words
from companion.i18n import N_, _

__all__ = ["Described", "describe", "square_words"]

DIRECTIONS: dict[str, str] = {"N": N_("north"), "E": N_("east"), "S": N_("south"), "W": N_("west")}


@dataclass(frozen=True)
class Described:
    """One action in words, with the squares a board should light for it."""

    sentence: str
    frm: str | None = None
    """The square a piece or cube leaves (``None`` for a placement)."""
    to: str | None = None
    """The square it goes to (or is placed on)."""

    @property
    def squares(self) -> list[str]:
        return [sq for sq in (self.frm, self.to) if sq]


def _name(names: Mapping[str, str] | None, player: str, state: State) -> str:
    if names and player in names:
        return names[player]
    return state.game.player_label(player)


def _trial(state: State, action: Action) -> tuple[State, list[Effect]]:
    trial = state.clone()
    try:
        effects = trial.apply(action)
    except IllegalAction:
        effects = []
    return trial, effects


def describe(state: State, action: Action, names: Mapping[str, str] | None = None) -> Described:
    """``action`` (a decision of the player to move in ``state``) in words and squares."""
    if isinstance(state, qubism.QubismState):
        return _qubism(state, action, names)
    if isinstance(state, chopchop.ChopChopState):
        return _chopchop(state, action, names)
    if isinstance(state, kilkenny.KilkennyState):
        return _kilkenny(state, action, names)
    player = state.to_move() or ""
    return Described(_plays(names, player, state))


def _plays(names: Mapping[str, str] | None, player: str, state: State) -> str:
    """An action this module has no words for: who acts, never the action's internal form."""
    return _("{player} makes a move").format(player=_name(names, player, state))


def _qubism(state: qubism.QubismState, action: Action, names: Mapping[str, str] | None) -> Described:
    player = state.to_move() or ""
    who = _name(names, player, state)
    w = state.game.square_words
    trial, effects = _trial(state, action)
    won = any(isinstance(e, qubism.Won) for e in effects)
    if isinstance(action, qubism.PawnMove):
        frm = state.pawns[player]
        text = (
            _("{player} moves the pawn from {frm} to {to} and wins")
            if won
            else _("{player} moves the pawn from {frm} to {to}")
        )
        return Described(text.format(player=who, frm=w(frm), to=w(action.to)), frm, action.to)
    if isinstance(action, qubism.PlaceCube):
        direction = _(DIRECTIONS.get(action.arrow, action.arrow))
        text = _("{player} places a cube on {square} pointing {direction}")
        return Described(text.format(player=who, square=w(action.square), direction=direction), None, action.square)
    if isinstance(action, qubism.SlideCube):
        to = next((e.to for e in effects if isinstance(e, qubism.CubeSlid)), action.square)
        text = _("{player} slides the cube on {frm} to {to}, where it tips over")
        return Described(text.format(player=who, frm=w(action.square), to=w(to)), action.square, to)
    if isinstance(action, qubism.Tip):
        direction = _(DIRECTIONS.get(action.arrow, action.arrow))
        text = _("The cube on {square} now points {direction}")
        return Described(text.format(square=w(action.square), direction=direction), None, action.square)
    return Described(_plays(names, player, state))


def _piece(piece: str) -> str:
    if piece == chopchop.CAT:
        return _("The cat")
    return _("Mouse {number}").format(number=piece.split(":", 1)[-1])


def _chopchop(state: chopchop.ChopChopState, action: Action, names: Mapping[str, str] | None) -> Described:
    player = state.to_move() or ""
    who = _name(names, player, state)
    w = state.game.square_words
    trial, effects = _trial(state, action)
    assert isinstance(trial, chopchop.ChopChopState)
    if isinstance(action, chopchop.PlaceCat):
        text = _("{player} puts the cat on {square}")
        return Described(text.format(player=who, square=w(action.square)), None, action.square)
    if isinstance(action, chopchop.Spear):
        text = _("The mice spear the cheese on {square} with the fork")
        return Described(text.format(square=w(action.square)), None, action.square)
    if isinstance(action, chopchop.Move | chopchop.Teleport):
        piece = action.piece if isinstance(action, chopchop.Move) else (state.piece or chopchop.CAT)
        to = action.to if isinstance(action, chopchop.Move) else action.square
        frm = state.position(piece) or ""
        caught = next((e for e in effects if isinstance(e, chopchop.Captured)), None)
        fmt = {"piece": _piece(piece), "frm": w(frm), "to": w(to)}
        via = action.via if isinstance(action, chopchop.Move) else ""
        if via and via != frm:
            # two paths to one square: say which one (the square stepped from last)
            fmt["via"] = w(via)
            if caught is not None:
                fmt["victim"] = _piece(caught.piece).lower()
                text = _("{piece} goes from {frm} to {to} by way of {via} and catches {victim}")
            elif trial.phase == "reveal":
                text = _("{piece} goes from {frm} to {to} by way of {via} and turns the slab")
            else:
                text = _("{piece} goes from {frm} to {to} by way of {via}")
            return Described(text.format(**fmt), frm or None, to)
        if caught is not None:
            text = _("{piece} goes from {frm} to {to} and catches {victim}")
            fmt["victim"] = _piece(caught.piece).lower() if caught.piece != chopchop.CAT else _piece(caught.piece)
        elif trial.phase == "reveal":
            text = _("{piece} goes from {frm} to {to} and turns the slab")
        elif isinstance(action, chopchop.Teleport):
            text = _("{piece} follows the arrow from {frm} to {to}")
        else:
            text = _("{piece} goes from {frm} to {to}")
        return Described(text.format(**fmt), frm or None, to)
    return Described(_plays(names, player, state))


def _kilkenny(state: kilkenny.KilkennyState, action: Action, names: Mapping[str, str] | None) -> Described:
    player = state.to_move() or ""
    who = _name(names, player, state)
    if not isinstance(action, kilkenny.Move):
        return Described(_plays(names, player, state))
    _trial_state, effects = _trial(state, action)
    caught = next((e for e in effects if isinstance(e, kilkenny.Captured)), None)
    won = any(isinstance(e, kilkenny.Won) for e in effects)
    w = state.game.square_words
    fmt = {"player": who, "frm": w(action.frm), "to": w(action.to)}
    if caught is not None:
        fmt["victim"] = _name(names, caught.victim, state)
        text = _("{player} moves the cat from {frm} to {to} and captures {victim}'s cat")
    elif won:
        text = _("{player} moves the cat from {frm} to {to} and wins")
    elif any(isinstance(e, kilkenny.Parked) for e in effects):
        text = _("{player} moves the cat from {frm} onto {to}")
    else:
        text = _("{player} moves the cat from {frm} to {to}")
    return Described(text.format(**fmt), action.frm, action.to)
