"""How to play Kat en Muis (RULES.md section 1, K1-K11), from the game's live settings.

Board square ids are red numbers "1".."66" (the Cat's numbering) plus "cat-start" and
"mouse-start"; the Mouse counts in black, and black ``k`` is red ``67-k``. A page about a
numbered square lights it in both numberings, since each player counts their own.
"""

from __future__ import annotations

from companion.games.base import Game
from companion.i18n import _, ngettext
from companion.teach import Page, Section, section

HOME = 66


def both(*numbers: int) -> tuple[str, ...]:
    """Square ids (red numbers) of these squares for the Cat (red) and the Mouse (black)."""
    return tuple(str(k) for k in numbers) + tuple(str(HOME + 1 - k) for k in numbers)


def lit(text: str, *numbers: int) -> Page:
    """A page lighting these squares in both numberings, each marked with its number as the
    player standing there counts it (red ``k`` and black ``k`` both show "k")."""
    marks = tuple((str(k), str(k)) for k in numbers) + tuple((str(HOME + 1 - k), str(k)) for k in numbers)
    return Page(text, both(*numbers), marks)


def chips(n: int) -> str:
    return ngettext("{n} chip", "{n} chips", n).format(n=n)


def sections(game: Game) -> list[Section]:
    s = game.settings()
    strict = s.get("shortcut_from") == "strictly_past"
    stake, bank = int(s.get("stake", 5)), int(s.get("bank", 30))
    return [
        section("setup", [
            Page(_("Kat en Muis is a race for two players along one track of 66 squares. "
                   "One player is the Cat, the other the Mouse.")),
            Page(_("The Cat starts beside the top left corner and counts the red numbers. The Mouse "
                   "starts beside the bottom right corner and counts the black numbers. They run "
                   "towards each other along the same track."),
                 ("cat-start", "1", "mouse-start", "66"), (("1", "1"), ("66", "1"))),
            Page(_("To choose the roles, each player throws both dice: the higher total is the Cat. "
                   "On a tie, throw again. You may also simply agree who is who.")),
            Page(_("Each player puts {stake} in a pot and keeps {bank} as a bank. The Cat's pot, the "
                   "Kattepot, goes on the Cat's square 66; the Mouse's pot, the Muizepot, on the "
                   "Mouse's square 66.").format(stake=chips(stake), bank=chips(bank - stake)),
                 both(HOME), ((str(HOME), "66"), ("1", "66"))),
        ]),
        section("turn", [
            Page(_("The Cat goes first, then the players take turns. On your turn, throw both dice "
                   "and move your counter forward by the total.")),
            lit(_("If that would take you past square 66, go to square 48 instead."), 48),
            Page(_("If you pass over the other counter during your move, pay the other player 1 chip. "
                   "Landing on the same square costs nothing.")),
            lit(_("A double six: if you are already past square 55, go straight to square 66. "
                  "Otherwise pay the other player 2 chips and stay where you are."), HOME),
            lit(_("Doubles 1 to 5 are shortcuts. Double 1 takes you from the start, or from any square "
                  "up to 10, straight to square 11."), 11),
            lit(_shortcut_text(strict), 22, 33, 44, 55),
        ]),
        section("special", [
            Page(_("Where your counter stops matters. Each player counts these squares in their own "
                   "numbers: red for the Cat, black for the Mouse. The board lights both.")),
            lit(_("Squares 11, 22, 33, 44 and 55: the other player pays you 2 chips."),
                11, 22, 33, 44, 55),
            lit(_("Squares 4, 9, 16, 25, 36, 49 and 64: you pay the other player 1 chip."),
                4, 9, 16, 25, 36, 49, 64),
            lit(_("Squares 5, 15, 25, 35, 45 and 65: you lose your next turn, so the other player "
                  "throws twice in a row."), 5, 15, 25, 35, 45, 65),
            lit(_("Squares 10, 20, 30, 40, 50 and 60: throw again at once."), 10, 20, 30, 40, 50, 60),
            lit(_("Square 25 does both: you pay 1 chip and you lose your next turn."), 25),
        ], title=_("Special squares")),
        section("win", [
            lit(_("The first counter to stop on its own square 66 wins and takes both pots."), HOME),
            Page(_("Chips only ever move between the players and the pots. A bank may go below zero: "
                   "that player then owes chips.")),
        ]),
        section("companion", [
            lit(_strict_example(strict), *((22, 28, 33) if strict else (22, 33))),
            Page(_("Each pot starts with {stake} and each bank with {bank}. The companion keeps the "
                   "count for you.").format(stake=chips(stake), bank=chips(bank - stake))),
            Page(_("A lost turn is skipped at once: the companion tells you when the other player "
                   "throws twice.")),
            lit(_("When a move turns back to 48, every square passed on the way to 66 and back "
                  "counts for passing the other counter, but you pay at most 1 chip per move."), 48, HOME),
        ], notes=game.interpretations()),
    ]


def _shortcut_text(strict: bool) -> str:
    if strict:
        return _("Double 2 takes you from squares 12 to 21 straight to 22, double 3 from 23 to 32 to "
                 "33, double 4 from 34 to 43 to 44, and double 5 from 45 to 54 to 55. Anywhere else a "
                 "double counts its total, like any throw.")
    return _("Double 2 takes you from squares 11 to 21 straight to 22, double 3 from 22 to 32 to 33, "
             "double 4 from 33 to 43 to 44, and double 5 from 44 to 54 to 55. Anywhere else a double "
             "counts its total, like any throw.")


def _strict_example(strict: bool) -> str:
    if strict:
        return _("Shortcuts count only from strictly past a square: standing on square 22, a double 3 "
                 "is just 6 and takes you to square 28, not 33.")
    return _("Shortcuts count from the square itself: standing on square 22, a double 3 takes you "
             "straight to square 33.")
