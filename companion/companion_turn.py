"""The companion's turn: what it needs when one of its seats is due, and its proposals.

A seat the companion plays (``session.companions``) is on the board like any other: the
companion never moves a physical piece, so nothing it decides changes the game until a person
has done it on the board and confirmed it (a tap on "Done", or the camera seeing the move).

- :meth:`CompanionSeats.due` says what the companion's seat needs now: a throw (the UI offers
  "Roll for me" with the virtual die, or asks the people to throw its die for the camera or
  the serial die: :attr:`Due.sentence`), a reveal under its piece (entered like any reveal, by
  the people), or a decision.
- :meth:`CompanionSeats.propose` computes the decision with the seat's player (slow: front
  ends call it off the UI thread, on a copy of the state) and returns a :class:`Proposal`:
  the action, a sentence, the squares to light.
- :meth:`CompanionSeats.confirm` applies a proposal through the session with source
  ``"companion"`` once a person has made the move, if the game has not moved on meanwhile.
- :meth:`CompanionSeats.hint` is the same search for a person: the best action and each
  option's winning chance where the player can say.

Pure core: no UI, no threads; typed for ``mypy --strict``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.games.base import Action, Effect, Game, IllegalAction, State
from companion.i18n import N_, _
from companion.players import Option, Player, make
from companion.proposals import Described, describe
from companion.session import COMPANION_SOURCE, Session

__all__ = ["STRENGTH_WORDS", "CompanionSeats", "Due", "Hint", "Proposal", "StaleProposal", "draw", "hint", "is_throw"]

THROW_TYPES = frozenset({"Throw", "Roll"})
"""The names of the chance actions that are die throws (the others are reveals: a tile under
a slab, the arrow on top of a cube that tipped)."""


STRENGTH_WORDS: dict[str, str] = {"easy": N_("easy"), "normal": N_("normal"), "strong": N_("strong")}
"""The strengths in words (translate with ``_()`` when shown)."""


class StaleProposal(IllegalAction):
    """The game moved on since the companion proposed its move (an undo, another input)."""


def is_throw(state: State) -> bool:
    """Whether the chance outcome due in ``state`` is a die throw (not a reveal)."""
    outs = state.chance_outcomes() if state.is_chance() else []
    return bool(outs) and type(outs[0][0]).__name__ in THROW_TYPES


def draw(state: State, rng: random.Random) -> Action:
    """A chance outcome drawn with its exact probability: "Roll for me" without a die."""
    outs = state.chance_outcomes()
    if not outs:
        raise IllegalAction(_("no throw is due now"))
    return rng.choices([a for a, _p in outs], [float(p) for _a, p in outs])[0]


def state_key(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


@dataclass(frozen=True)
class Due:
    """What one of the companion's seats needs now."""

    kind: str
    """``"throw"`` (its die is to be thrown), ``"reveal"`` (the people enter what its piece
    turned up) or ``"decide"`` (it chooses a move)."""
    seat: str
    strength: str
    sentence: str
    """What to tell the people: "Throw the blue die for me", "Companion (Black) is thinking…"."""
    colours: tuple[str, ...] = ()
    """The colour of each die to throw, where the game's dice differ."""


@dataclass(frozen=True)
class Proposal:
    """A move the companion decided; it changes nothing until a person confirms it."""

    seat: str
    action: Action
    described: Described
    state_key: str
    """The position it was decided in (a confirmation in another position is refused)."""
    options: tuple[Option, ...] = ()

    @property
    def sentence(self) -> str:
        return self.described.sentence

    @property
    def squares(self) -> list[str]:
        """The squares to light: from, to."""
        return self.described.squares


@dataclass(frozen=True)
class Hint:
    """What the companion would play for a person, with the winning chances it knows."""

    seat: str
    action: Action
    described: Described
    options: tuple[Option, ...] = field(default_factory=tuple)

    @property
    def win_chance(self) -> float | None:
        return self.options[0].win_chance if self.options else None

    def lines(self, state: State, names: Mapping[str, str] | None = None, top: int = 3) -> list[str]:
        """The hint in sentences: the move, then up to ``top`` options with their chances."""
        out = [_("Suggested: {move}").format(move=self.described.sentence)]
        for opt in self.options[:top]:
            if opt.win_chance is None:
                continue
            out.append(
                _("{move}: {chance}% to win").format(
                    move=describe(state, opt.action, names).sentence, chance=round(100 * opt.win_chance)
                )
            )
        return out


def hint(state: State, player: Player, names: Mapping[str, str] | None = None) -> Hint:
    """The best action for ``player``'s seat in ``state`` (it must be to move), in words."""
    options = player.analyse(state.clone())
    best = options[0].action
    return Hint(player.seat, best, describe(state, best, names), tuple(options))


def seat_label(game: Game, names: Mapping[str, str], seat: str) -> str:
    label = game.player_label(seat)
    name = names.get(seat, label)
    return label if name == label else _("{name} ({side})").format(name=name, side=label)


class CompanionSeats:
    """The companion's seats in one session, with a player for each (made on first use)."""

    def __init__(self, session: Session, seed: int | None = None) -> None:
        self.session = session
        self.seed = session.game_id if seed is None else seed
        self._players: dict[tuple[str, str], Player] = {}

    def player(self, seat: str, strength: str | None = None) -> Player:
        level = strength or self.session.companions.get(seat, "strong")
        key = (seat, level)
        if key not in self._players:
            self._players[key] = make(self.session.game, seat, level, self.seed)
        return self._players[key]

    def thinking(self, seat: str) -> str:
        """ "Companion (Black) is thinking…" """
        return _("Companion ({side}) is thinking…").format(side=self.session.game.player_label(seat))

    def due(self) -> Due | None:
        """What a companion seat needs now, or ``None`` when a person is to act (or it is over)."""
        session = self.session
        state = session.state
        if state.is_over():
            return None
        seat = state.current_player()
        if seat is None or not session.is_companion(seat):
            return None
        strength = session.companions[seat]
        side = session.game.player_label(seat)
        if state.is_chance():
            colours = state.die_colours()
            if not is_throw(state):
                text = _("Companion ({side}): what did my piece turn up?").format(side=side)
                return Due("reveal", seat, strength, text, colours)
            if len(colours) == 1:
                text = _("Throw the {colour} die for me ({side})").format(colour=_(colours[0]), side=side)
            else:
                text = _("Throw the dice for me ({side})").format(side=side)
            return Due("throw", seat, strength, text, colours)
        return Due("decide", seat, strength, self.thinking(seat), ())

    def propose(self, state: State | None = None) -> Proposal:
        """The companion's move for the position (default: the session's); slow, pure: run it
        off the UI thread, then show it and wait for a person to make it on the board."""
        position = (state or self.session.state).clone()
        seat = position.to_move()
        if seat is None or not self.session.is_companion(seat):
            raise IllegalAction(_("it is not the companion's turn to move"))
        player = self.player(seat)
        options = player.analyse(position.clone())
        action = options[0].action
        return Proposal(seat, action, describe(position, action, self.session.seats), state_key(position),
                        tuple(options))

    def confirm(self, proposal: Proposal, source: str = COMPANION_SOURCE) -> list[Effect]:
        """Apply ``proposal`` (a person made it on the board) through the session."""
        if state_key(self.session.state) != proposal.state_key:
            raise StaleProposal(_("the game has moved on since the companion chose its move"))
        return self.session.apply(proposal.action, source=source)

    def roll(self, rng: random.Random) -> list[Effect]:
        """ "Roll for me": draw the companion's throw and apply it (source ``"companion"``)."""
        due = self.due()
        if due is None or due.kind != "throw":
            raise IllegalAction(_("no throw is due for the companion now"))
        return self.session.apply(draw(self.session.state, rng), source=COMPANION_SOURCE)

    def hint(self, state: State | None = None) -> Hint:
        """What the companion would play for the person to move (searched at "strong")."""
        position = (state or self.session.state).clone()
        seat = position.to_move()
        if seat is None or position.is_chance():
            raise IllegalAction(_("there is no move to suggest now"))
        return hint(position, self.player(seat, "strong"), self.session.seats)
