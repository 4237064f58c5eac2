"""The first-game guide: what to do next, in plain words, computed from the state alone.

:func:`next_step` reads ``to_move()``, ``current_player()``, the legal actions and each game's
own phase (a die due, a slab to turn over, a cube's new arrow to report, a move to make) and
says it as one or two sentences addressed to the player by name, e.g. "Mouse, throw both
dice." or "Turn over the slab the cat landed on and tap what it shows." A screen shows it (and
a speech engine may say it) while the players want guiding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import CHANCE, Effect, Game, State
from companion.i18n import N_, _, ngettext

__all__ = ["next_step", "who"]

DIE_NAMES: dict[str, str] = {
    "red": N_("the red die"),
    "blue": N_("the blue die"),
    "green": N_("the green die"),
    "yellow": N_("the yellow die"),
}


def who(game: Game, names: Mapping[str, str] | None, player: str) -> str:
    """How to address ``player``: "Anna (Cat)" when named, else the role ("Cat")."""
    label = game.player_label(player)
    name = (names or {}).get(player, "").strip()
    if not name or name == label:
        return label
    return _("{name} ({role})").format(name=name, role=label)


def next_step(game: Game, state: State, names: Mapping[str, str] | None = None,
              last: Sequence[Effect] = ()) -> str:
    """What the players should do now. ``last`` (optional) are the effects of the action just
    applied; Kat en Muis uses them to say where the counter that just moved must be put."""
    if state.is_over():
        outcome = state.outcome() or {}
        winner = outcome.get("winner")
        if winner is None:
            return _("The game is over: nobody wins. Go Home to start a new game.")
        return _("{player} has won! Go Home to start a new game.").format(
            player=who(game, names, str(winner)))
    step = {
        "katenmuis": _katenmuis,
        "chopchop": _chopchop,
        "kilkenny": _kilkenny,
        "qubism": _qubism,
    }.get(game.key)
    if step is not None:
        return step(game, state, names, last)
    player = state.current_player()
    if state.to_move() == CHANCE:
        return _("{player}, throw the dice.").format(player=who(game, names, str(player)))
    return _("{player}, make your move.").format(player=who(game, names, str(player)))


def _katenmuis(game: Game, state: State, names: Mapping[str, str] | None, last: Sequence[Effect]) -> str:
    s: Any = state
    player = str(state.current_player())
    throw = _("{player}, throw both dice.").format(player=who(game, names, player))
    movers = [str(getattr(e, "player")) for e in last if type(e).__name__ == "Thrown"]
    if movers:
        mover = movers[-1]
        square = int(s.square.get(mover, 0))
        if square > 0:
            from companion.games.katenmuis import track_words

            put = _("{player}, put your counter on your number {square}.").format(
                player=who(game, names, mover), square=track_words(mover, square))
            return _("{first} Then: {then}").format(first=put, then=throw)
    return throw



def _chop_piece(piece: str) -> str:
    if piece == "cat":
        return _("the cat")
    return _("mouse {number}").format(number=piece.split(":", 1)[-1])


def _chopchop(game: Game, state: State, names: Mapping[str, str] | None, last: Sequence[Effect]) -> str:
    s: Any = state
    player = who(game, names, str(state.current_player()))
    phase = str(s.phase)
    cat_side = s.side == "cat"
    piece = _chop_piece(str(s.piece)) if s.piece else ""
    if phase == "setup":
        return _("{player}, put the cat on any square of the table top, then touch that square.").format(
            player=player)
    if phase == "roll":
        if cat_side:
            return _("{player}, throw the blue cat die.").format(player=player)
        return _("{player}, throw the grey mouse die.").format(player=player)
    if phase == "move":
        n = int(s.roll or 0)
        if not state.legal_actions():
            return _("{player}, no move is possible: the turn passes.").format(player=player)
        if cat_side:
            return ngettext(
                "{player}, move the cat exactly {n} square, up, down, left or right. Then touch the cat "
                "and the square it went to.",
                "{player}, move the cat exactly {n} squares, up, down, left or right. Then touch the "
                "cat and the square it went to.",
                n,
            ).format(player=player, n=n)
        if s.bonus_mouse:
            return ngettext(
                "{player}, move {piece} again, exactly {n} square. Then touch it and the square it "
                "went to.",
                "{player}, move {piece} again, exactly {n} squares. Then touch it and the square it "
                "went to.",
                n,
            ).format(player=player, piece=_chop_piece(str(s.bonus_mouse)), n=n)
        return ngettext(
            "{player}, move one mouse exactly {n} square, up, down, left or right. Then touch the "
            "mouse and the square it went to.",
            "{player}, move one mouse exactly {n} squares, up, down, left or right. Then touch the "
            "mouse and the square it went to.",
            n,
        ).format(player=player, n=n)
    if phase == "reveal":
        return _("Turn over the slab {piece} landed on and tap what it shows.").format(piece=piece)
    if phase == "bonus":
        n = int(s.steps)
        return ngettext(
            "{player}, move {piece} {n} more square, then touch where it stops.",
            "{player}, move {piece} {n} more squares, then touch where it stops.",
            n,
        ).format(player=player, piece=piece, n=n)
    if phase == "arrow":
        return _("Arrow! {player}, put {piece} on any lit square and touch it.").format(
            player=player, piece=piece)
    if phase == "fork":
        return _("Fork! {player}, take a face-up cheese the cat is not sitting on: touch it.").format(
            player=player)
    return _("{player}, make your move.").format(player=player)


def _kilkenny(game: Game, state: State, names: Mapping[str, str] | None, last: Sequence[Effect]) -> str:
    s: Any = state
    colour = str(state.current_player())
    player = who(game, names, colour)
    if state.to_move() == CHANCE:
        colours = state.die_colours() or (colour,)
        die = _(DIE_NAMES[colours[0]]) if colours[0] in DIE_NAMES else _("your own die")
        return _("{player}, throw {die}.").format(player=player, die=die)
    n = int(s.throw or 0)
    if not state.legal_actions():
        return _("{player}, none of your cats can move: the turn is lost.").format(player=player)
    return ngettext(
        "{player}, move one of your cats {n} square in a straight line, then touch the cat and the "
        "square it went to.",
        "{player}, move one of your cats {n} squares in a straight line, then touch the cat and the "
        "square it went to.",
        n,
    ).format(player=player, n=n)


def _qubism(game: Game, state: State, names: Mapping[str, str] | None, last: Sequence[Effect]) -> str:
    s: Any = state
    player = who(game, names, str(state.current_player()))
    if state.to_move() == CHANCE:
        return _("{player}, look at the cube you just slid and touch the arrow now on top.").format(
            player=player)
    if int(s.pool) > 0:
        return _("{player}, do one thing: move your pawn one square, place a cube, or slide a "
                 "cube.").format(player=player)
    return _("{player}, do one thing: move your pawn one square or slide a cube (the pile is "
             "empty).").format(player=player)
