"""The companion at the terminal: ``companion play GAME --companion SIDE[,SIDE...]``.

``--companion`` names the sides the companion plays (the game's own player ids: ``white``/
``black``, ``cat``/``mice`` (or ``mice1``...), the Kilkenny colours, ``cat``/``mouse``), with
``--strength easy|normal|strong`` (default normal) and ``--seed N``. The seats are stored with
the game, so a resumed game keeps its companions.

In the terminal there is no board to confirm on: the companion prints what it plays and
applies it at once (on the physical board, do what it says). Its throws are drawn here with
their exact odds (the ``r`` of the people's prompts); a tile or a cube face turned up by its
piece is asked of the people like any reveal. ``hint`` at any prompt of a person's decision
prints what the companion would play, with the winning chances where its player can say.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Mapping
from typing import TextIO

from companion.companion_turn import STRENGTH_WORDS, CompanionSeats, draw
from companion.games.base import Effect, Game, IllegalAction
from companion.i18n import _
from companion.players import STRENGTHS
from companion.session import COMPANION_SOURCE, Session
from companion.terminal import Console

__all__ = ["CompanionConsole", "add_companion_arguments", "companion_seats", "parse_companions"]


def add_companion_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--companion",
        metavar="SIDE[,SIDE...]",
        help=_("the sides the companion plays (e.g. black; cat; green,yellow); it prints its moves"),
    )
    parser.add_argument(
        "--strength", choices=STRENGTHS, default="normal", help=_("how well the companion plays (default normal)")
    )


def _aliases(game: Game) -> dict[str, list[str]]:
    """Every word accepted for a side: its id, its label, and for a team ("mice") its seats."""
    out: dict[str, list[str]] = {}
    for p in game.players:
        out[p.lower()] = [p]
        out.setdefault(game.player_label(p).lower(), []).append(p)
    teams: dict[str, list[str]] = {}
    for p in game.players:
        stem = p.rstrip("0123456789")
        if stem != p:
            teams.setdefault(stem, []).append(p)
    for stem, seats in teams.items():
        out.setdefault(stem, seats)
    return out


def parse_companions(game: Game, text: str | None, strength: str) -> dict[str, str]:
    """``"green,yellow"`` -> ``{"green": strength, "yellow": strength}``; a clear
    :class:`ValueError` naming the game's sides for a side it does not have."""
    if not text:
        return {}
    aliases = _aliases(game)
    out: dict[str, str] = {}
    for word in (w.strip().lower() for w in text.split(",")):
        if not word:
            continue
        seats = aliases.get(word)
        if seats is None:
            raise ValueError(
                _("{game} has no side {side!r}; the sides are: {sides}").format(
                    game=game.title, side=word, sides=", ".join(game.players)
                )
            )
        for seat in seats:
            out[seat] = strength
    return out


def companion_seats(
    parser: argparse.ArgumentParser, args: argparse.Namespace, game: Game
) -> dict[str, str]:
    """The ``--companion`` seats for ``game``, or a usage error (exit 2) naming the sides."""
    try:
        return parse_companions(game, getattr(args, "companion", None), getattr(args, "strength", "normal"))
    except ValueError as exc:
        parser.error(str(exc))
        raise  # parser.error exits


class CompanionConsole(Console):
    """A console that plays the companion's seats and answers ``hint`` for the people.

    :meth:`attach` it to the session once there is one; then the play loops call
    :meth:`take_turns` at the top of every round.
    """

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None) -> None:
        super().__init__(inp, out)
        self.session: Session | None = None
        self.seats: CompanionSeats | None = None
        self.rng = random.Random()

    def attach(self, session: Session, seed: int | None, asked: Mapping[str, str] | None = None) -> None:
        self.session = session
        self.seats = CompanionSeats(session, seed)
        self.rng = random.Random(f"companion:{seed}:{session.game_id}")
        if asked and dict(asked) != session.companions:
            self.say(_("(This game keeps the seats it was started with; use --new to seat the companion anew.)"))
        for seat, strength in session.companions.items():
            self.say(
                _("The companion plays {side} ({strength}).").format(
                    side=session.game.player_label(seat), strength=_(STRENGTH_WORDS.get(strength, strength))
                )
            )

    def ask(self, prompt: str) -> str:
        while True:
            line = super().ask(prompt)
            if line.lower() != "hint" or self.seats is None or self.session is None:
                return line
            try:
                found = self.seats.hint()
            except IllegalAction as exc:
                self.say(str(exc))
                continue
            for text in found.lines(self.session.state, self.session.seats):
                self.say(f"  {text}")

    def take_turns(self, after: Callable[[list[Effect]], None] | None = None) -> bool:
        """Play every companion action due now (its decisions and its throws); returns whether
        it did anything. ``after(effects)`` shows what each one did (default: narrate)."""
        if self.seats is None or self.session is None:
            return False
        session = self.session
        played = False
        while True:
            due = self.seats.due()
            if due is None or due.kind == "reveal":
                return played
            side = session.game.player_label(due.seat)
            if due.kind == "throw":
                throw = draw(session.state, self.rng)
                self.say(_("Companion ({side}) throws.").format(side=side))
                effects = session.apply(throw, source=COMPANION_SOURCE)
            else:
                proposal = self.seats.propose()
                self.say(_("Companion ({side}): {move}.").format(side=side, move=proposal.sentence))
                effects = self.seats.confirm(proposal)
            played = True
            if after is not None:
                after(effects)
            else:
                for phrase in session.narrate(effects):
                    self.say(f"  {phrase}")
