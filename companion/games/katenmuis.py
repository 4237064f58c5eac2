"""Kat en Muis (1890): the dice race with chips. Rules K1-K11 of RULES.md section 1.

Two counters race along one track of 66 squares. Each counts squares in its own numbering:
Cat in red (red 1 at the top left), Mouse in black (black 1 at the bottom right); red ``k`` is
black ``67 - k``. Square 0 is the player's start corner, off the track.

Every action is a chance outcome: :class:`Throw` ``dice=(a, b)``. ``to_move()`` is
:data:`~companion.games.base.CHANCE` while the game runs and ``current_player()`` is the player
who throws next. A lost turn (K9) is taken automatically as soon as it comes up: the turn passes
on at once with a :class:`TurnSkipped` effect, so ``current_player()`` is always the player who
really throws next.

Interpretations and settings (RULES.md):

- ``shortcut_from`` (K5): ``"reached"`` (default: double ``k`` goes to ``11k`` from
  ``11(k-1) <= s < 11k``) or ``"strictly_past"`` (``11(k-1) < s < 11k``). Under both, double 1
  goes to 11 from the start (squares 0..10): ``strictly_past`` changes doubles 2..5 only.
- ``bank`` (default 30) and ``stake`` (default 5): each bank starts at ``bank - stake`` and each
  pot holds ``stake``. Banks may go below zero ("owes"); banks + pots never change.
- K7 jump fee: passing over the other counter (strictly between start and stop, or anywhere on
  the way to 66 and back for a move that turns back to 48) costs 1 chip, at most once per move.

``board_view()`` tokens, by the board file's square ids (``"1"``..``"66"`` by red number,
``"cat-start"``, ``"mouse-start"``): ``"cat"``, ``"mouse"``, and ``"cat+mouse"`` when both
counters stand on the same track square.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.boards.coords import shipped_words
from companion.games.base import CHANCE, Action, Effect, Game, IllegalAction, SquareWords, State
from companion.games.katenmuis_effects import (
    LABELS,
    DoubleSixForfeit,
    Jumped,
    LosesNextTurn,
    Moved,
    Paid,
    Shortcut,
    ThrowsAgain,
    Thrown,
    TurnedBack,
    TurnSkipped,
    Won,
    player_name,
    track_words,
)
from companion.games.katenmuis_narration import narrate as told
from companion.games.katenmuis_track import (
    BOUNCE_TO,
    CAT,
    DOUBLE_SQUARES,
    HOME,
    LOSE_TURN_SQUARES,
    MOUSE,
    PLAYERS,
    SHORTCUT_SETTINGS,
    SQUARE_NUMBERS,
    THROW_AGAIN_SQUARES,
    THROWS,
    MoveResult,
    jump_square,
    other_player,
    red_square_id,
    resolve_throw,
)
from companion.i18n import _

__all__ = [
    "KatEnMuis",
    "KatEnMuisState",
    "Throw",
    "Thrown",
    "Moved",
    "Shortcut",
    "TurnedBack",
    "Jumped",
    "Paid",
    "DoubleSixForfeit",
    "LosesNextTurn",
    "ThrowsAgain",
    "TurnSkipped",
    "Won",
    "MoveResult",
    "RollOff",
    "resolve_throw",
    "jump_square",
    "narrate",
    "track_words",
    "LABELS",
    "other_player",
    "red_square_id",
    "CAT",
    "MOUSE",
    "HOME",
    "BOUNCE_TO",
    "DOUBLE_SQUARES",
    "SQUARE_NUMBERS",
    "LOSE_TURN_SQUARES",
    "THROW_AGAIN_SQUARES",
    "SHORTCUT_SETTINGS",
    "THROWS",
]


# -- actions ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Throw(Action):
    """A throw of both dice (the chance outcome). Either order; stored sorted."""

    dice: tuple[int, int]

    def __post_init__(self) -> None:
        d: Any = self.dice
        if isinstance(d, list | tuple) and len(d) == 2 and all(type(v) is int for v in d):
            object.__setattr__(self, "dice", (min(d), max(d)))


# -- K1 roles -----------------------------------------------------------------------------------


class RollOff:
    """K1: each player throws both dice; the higher total is Cat; a tie throws again.

    Feed the throws of the two players in turn with :meth:`throw`; :attr:`cat` becomes 0 or 1
    (the index of the player who is Cat) once decided.
    """

    def __init__(self) -> None:
        self.pending: tuple[int, int] | None = None
        self.cat: int | None = None
        self.rounds = 0

    @property
    def next_thrower(self) -> int | None:
        """0 or 1: who throws next; ``None`` when roles are decided."""
        if self.cat is not None:
            return None
        return 0 if self.pending is None else 1

    def throw(self, dice: Sequence[int]) -> str:
        """Record a throw; returns a sentence saying what happened."""
        if self.cat is not None:
            raise IllegalAction(_("the roles are already decided"))
        d = _check_dice(dice)
        if self.pending is None:
            self.pending = d
            return _("first player throws {n}").format(n=sum(d))
        first, second = sum(self.pending), sum(d)
        self.pending = None
        self.rounds += 1
        if first == second:
            return _("second player throws {n} too: a tie, throw again").format(n=second)
        self.cat = 0 if first > second else 1
        if self.cat == 0:
            return _("second player throws {n}: the first player is Cat").format(n=second)
        return _("second player throws {n}: the second player is Cat").format(n=second)


def _check_dice(dice: Any) -> tuple[int, int]:
    if not isinstance(dice, list | tuple) or len(dice) != 2:
        raise IllegalAction(_("a throw is two dice, e.g. 3 and 5"))
    for v in dice:
        if type(v) is not int:
            raise IllegalAction(_("a die shows a whole number from 1 to 6, not {value}").format(value=repr(v)))
        if not 1 <= v <= 6:
            raise IllegalAction(_("a die shows 1 to 6, not {value}").format(value=v))
    return (min(dice), max(dice))


# -- the game -----------------------------------------------------------------------------------


class KatEnMuisState(State):
    game: KatEnMuis

    def __init__(
        self,
        game: KatEnMuis,
        square: dict[str, int],
        turn: str,
        skip: dict[str, bool],
        bank: dict[str, int],
        pot: dict[str, int],
        winner: str | None,
        throws: int = 0,
    ) -> None:
        self.game = game
        self.square = square
        self.turn = turn
        self.skip = skip
        self.bank = bank
        self.pot = pot
        self.winner = winner
        self.throws = throws

    # -- queries ----------------------------------------------------------------------------

    def to_move(self) -> str | None:
        return None if self.winner is not None else CHANCE

    def current_player(self) -> str | None:
        return None if self.winner is not None else self.turn

    def legal_actions(self) -> list[Action]:
        return []

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.winner is not None:
            return []
        return [(Throw(d), Fraction(1 if d[0] == d[1] else 2, 36)) for d in THROWS]

    def total_chips(self) -> int:
        return sum(self.bank.values()) + sum(self.pot.values())

    def pots(self) -> int:
        return sum(self.pot.values())

    def board_view(self) -> dict[str, str]:
        view: dict[str, str] = {}
        for p in PLAYERS:
            sid = red_square_id(p, self.square[p])
            view[sid] = f"{view[sid]}+{p}" if sid in view else p
        return view

    def outcome(self) -> dict[str, Any] | None:
        if self.winner is None:
            return None
        start = self.game.bank
        return {
            "winner": self.winner,
            "scores": {p: self.bank[p] - start for p in PLAYERS},
            "banks": dict(self.bank),
            "squares": dict(self.square),
        }

    # -- applying ---------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Effect]:
        if not isinstance(action, Throw):
            raise IllegalAction(_("Kat en Muis only takes throws of two dice, not {action}").format(action=action))
        if self.winner is not None:
            raise IllegalAction(_("the game is over: {player} has won").format(player=player_name(None, self.winner)))
        dice = _check_dice(action.dice)
        mover, other = self.turn, other_player(self.turn)
        effects: list[Effect] = [Thrown(mover, dice)]
        self.throws += 1

        def pay(payer: str, payee: str, amount: int, reason: str) -> None:
            self.bank[payer] -= amount
            self.bank[payee] += amount
            effects.append(Paid(payer, payee, amount, reason))

        res = resolve_throw(self.square[mover], dice, self.game.shortcut_from)
        if res.kind == "forfeit":  # K4, the turn ends with no other effect
            effects.append(DoubleSixForfeit(mover, res.start))
            pay(mover, other, 2, "double six")
            self._pass_turn(effects)
            return effects

        self.square[mover] = res.stop  # K10: move, with the K7 fee
        effects.append(Moved(mover, res.start, res.stop, res.along))
        if res.kind == "shortcut":
            effects.append(Shortcut(mover, res.double, res.stop))
        elif res.kind == "turned_back":
            effects.append(TurnedBack(mover, res.stop))
        over = jump_square(res.passed, self.square[other])
        if over is not None:
            effects.append(Jumped(mover, other, over))
            pay(mover, other, 1, "jump")

        stop = res.stop  # K8, in the listed order
        if stop == HOME:
            taken = self.pots()
            self.bank[mover] += taken
            self.pot = {p: 0 for p in PLAYERS}
            self.winner = mover
            effects.append(Won(mover, taken))
            return effects
        if stop in DOUBLE_SQUARES:
            pay(other, mover, 2, "square")
        if stop in SQUARE_NUMBERS:
            pay(mover, other, 1, "square number")
        if stop in LOSE_TURN_SQUARES:
            self.skip[mover] = True
            effects.append(LosesNextTurn(mover))
        if stop in THROW_AGAIN_SQUARES:
            effects.append(ThrowsAgain(mover))
            return effects
        self._pass_turn(effects)
        return effects

    def _pass_turn(self, effects: list[Effect]) -> None:
        """K9: the turn goes to the other player; a lost turn is taken at once."""
        nxt = other_player(self.turn)
        while self.skip[nxt]:
            self.skip[nxt] = False
            effects.append(TurnSkipped(nxt))
            nxt = other_player(nxt)
        self.turn = nxt

    # -- JSON -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "square": dict(self.square),
            "turn": self.turn,
            "skip": dict(self.skip),
            "bank": dict(self.bank),
            "pot": dict(self.pot),
            "winner": self.winner,
            "throws": self.throws,
        }

    def __repr__(self) -> str:
        return f"KatEnMuisState({self.to_json()!r})"


class KatEnMuis(Game):
    """Kat en Muis with its settings (RULES.md K2, K5)."""

    key = "katenmuis"
    title = "Kat en Muis"
    action_types = (Throw,)

    def __init__(self, shortcut_from: str = "reached", bank: int = 30, stake: int = 5) -> None:
        if shortcut_from not in SHORTCUT_SETTINGS:
            raise ValueError(f"shortcut_from must be one of {', '.join(SHORTCUT_SETTINGS)}, not {shortcut_from!r}")
        if type(bank) is not int or type(stake) is not int or stake < 0 or bank < 0:
            raise ValueError("bank and stake are whole numbers of chips, 0 or more")
        self.shortcut_from = shortcut_from
        self.bank = bank
        self.stake = stake

    @property
    def players(self) -> tuple[str, ...]:
        return PLAYERS

    def player_label(self, player: str) -> str:
        return player_name(None, player)

    def settings(self) -> dict[str, Any]:
        return {"shortcut_from": self.shortcut_from, "bank": self.bank, "stake": self.stake}

    def narrate(self, effects: Sequence[Effect], names: Mapping[str, str] | None = None) -> list[str]:
        return narrate(effects, names)

    def square_words(self, square: str) -> str:
        """A board square (its id is the red number) as printed on it, red/black, with its
        coordinate: "17/50 (C2)"; the start corners in words."""
        where = shipped_words("katenmuis")(square)
        if square.isdigit() and where != square:
            red = int(square)
            return _("{number} (square {square})").format(number=f"{red}/{HOME + 1 - red}", square=where)
        return where

    def interpretations(self) -> list[str]:
        reach = (
            _("double 1 takes a counter straight to 11 from the start up to 10, double 2 to 22 from 11 "
              "up to 21, double 3 to 33 from 22 up to 32, and so on up to double 5")
            if self.shortcut_from == "reached"
            else _("double 1 takes a counter straight to 11 from the start up to 10, double 2 to 22 only "
                   "from 12 up to 21, double 3 to 33 from 23 up to 32, and so on up to double 5")
        )
        return [
            _("Shortcuts: {rule}.").format(rule=reach),
            _("Passing over the other counter costs 1 chip, at most once per move; landing on it is free."),
            _("A throw beyond 66 turns back to 48; passing the other counter on the way there and back costs 1 chip too."),
            _("Each player puts {stake} chips in their pot and keeps a bank of {bank}; "
              "a bank may go below zero (the player owes chips).").format(stake=self.stake, bank=self.bank - self.stake),
            _("A lost turn is skipped at once, so the other player throws twice in a row."),
        ]

    def new_state(self) -> KatEnMuisState:
        return KatEnMuisState(
            self,
            square={CAT: 0, MOUSE: 0},
            turn=CAT,
            skip={CAT: False, MOUSE: False},
            bank={p: self.bank - self.stake for p in PLAYERS},
            pot={p: self.stake for p in PLAYERS},
            winner=None,
        )

    def state_from_json(self, data: Mapping[str, Any]) -> KatEnMuisState:
        try:
            state = KatEnMuisState(
                self,
                square={p: int(data["square"][p]) for p in PLAYERS},
                turn=str(data["turn"]),
                skip={p: bool(data["skip"][p]) for p in PLAYERS},
                bank={p: int(data["bank"][p]) for p in PLAYERS},
                pot={p: int(data["pot"][p]) for p in PLAYERS},
                winner=None if data.get("winner") is None else str(data["winner"]),
                throws=int(data.get("throws", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a Kat en Muis position: {exc}") from None
        if state.turn not in PLAYERS or (state.winner is not None and state.winner not in PLAYERS):
            raise ValueError("not a Kat en Muis position: unknown player")
        if not all(0 <= s <= HOME for s in state.square.values()):
            raise ValueError("not a Kat en Muis position: squares are 0 to 66")
        return state


# -- narration ----------------------------------------------------------------------------------


def narrate(effects: Sequence[Effect], names: Mapping[str, str] | None = None,
            squares: SquareWords | None = None) -> list[str]:
    """Sentences for the effects of one or more throws, in the current language, e.g.
    ``"Cat lands on 25: pays Mouse 1 chip and loses her next turn."``
    (see :mod:`companion.games.katenmuis_narration`)."""
    return told(effects, names, squares)
