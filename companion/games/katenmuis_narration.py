"""Kat en Muis's narration: one throw's effects joined into sentences a family says at the
table, in the current language (``companion.games.katenmuis.narrate`` calls this)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.games.base import Effect, SquareWords
from companion.games.katenmuis_effects import (
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
    _chips,
    _turned_back,
    player_name,
    track_words,
)
from companion.games.katenmuis_track import CAT
from companion.i18n import _, capitalised

__all__ = ["narrate"]


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return _("{items} and {last}").format(items=", ".join(parts[:-1]), last=parts[-1])


def narrate(effects: Sequence[Effect], names: Mapping[str, str] | None = None,
            squares: SquareWords | None = None) -> list[str]:
    """Sentences for the effects of one or more throws, in the current language, e.g.
    ``"Cat lands on 25 (E2): pays Mouse 1 chip and loses her next turn."``; ``squares`` names
    the board's squares (:func:`~companion.games.katenmuis.track_words`)."""
    out: list[str] = []
    landing: str | None = None
    mover = CAT
    clauses: list[str] = []

    def flush() -> None:
        nonlocal landing, clauses
        if landing is not None:
            if clauses:
                out.append(_("{landing}: {what}.").format(landing=landing, what=_join(clauses)))
            else:
                out.append(_("{sentence}.").format(sentence=landing))
        landing, clauses = None, []

    def who(player: str) -> str:
        return player_name(names, player)

    for e in effects:
        if isinstance(e, Thrown):
            flush()
            mover = e.player
            out.append(_("{sentence}.").format(sentence=capitalised(e.describe(names, squares))))
        elif isinstance(e, DoubleSixForfeit):
            if e.square <= 0:
                landing = _("Double six before passing 55: {player} stays at the start").format(player=who(e.player))
            else:
                landing = _("Double six before passing 55: {player} stays on {square}").format(
                    player=who(e.player), square=track_words(e.player, e.square, squares))
        elif isinstance(e, Moved):
            landing = _("{player} lands on {square}").format(player=who(e.player), square=track_words(e.player, e.to, squares))
        elif isinstance(e, Shortcut):
            landing = _("Double {n} takes {player} straight to {square}").format(
                n=e.double, player=who(e.player), square=track_words(e.player, e.to, squares))
        elif isinstance(e, TurnedBack):
            landing = _turned_back(names, e.player, e.to, squares)
        elif isinstance(e, Jumped):
            pass  # told with its fee
        elif isinstance(e, Paid) and e.reason == "jump":
            if e.payee == CAT:
                text = _("{payer} jumps over {payee}: pays her {chips}.")
            else:
                text = _("{payer} jumps over {payee}: pays him {chips}.")
            out.append(text.format(payer=who(e.payer), payee=who(e.payee), chips=_chips(e.amount)))
        elif isinstance(e, Paid):
            if e.payer == mover:
                clauses.append(_("pays {payee} {chips}").format(payee=who(e.payee), chips=_chips(e.amount)))
            elif e.payee == CAT:
                clauses.append(_("{payer} pays her {chips}").format(payer=who(e.payer), chips=_chips(e.amount)))
            else:
                clauses.append(_("{payer} pays him {chips}").format(payer=who(e.payer), chips=_chips(e.amount)))
        elif isinstance(e, LosesNextTurn):
            clauses.append(_("loses her next turn") if e.player == CAT else _("loses his next turn"))
        elif isinstance(e, ThrowsAgain):
            clauses.append(_("throws again"))
        elif isinstance(e, Won):
            clauses.append(_("wins and takes both pots ({chips})").format(chips=_chips(e.pots)))
        elif isinstance(e, TurnSkipped):
            flush()
            out.append(_("{player} misses a turn.").format(player=who(e.player)))
        else:
            flush()
            out.append(_("{sentence}.").format(sentence=e.describe(names, squares)))
    flush()
    return out
