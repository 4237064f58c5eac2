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
                 ("cat-start", "1", "mouse-start", "66")),
            Page(_("To choose the roles, each player throws both dice: the higher total is the Cat. "
                   "On a tie, throw again. You may also simply agree who is who.")),
            Page(_("Each player puts {stake} in a pot and keeps {bank} as a bank. The Cat's pot, the "
                   "Kattepot, goes on the Cat's square 66; the Mouse's pot, the Muizepot, on the "
                   "Mouse's square 66.").format(stake=chips(stake), bank=chips(bank - stake)),
                 both(HOME)),
        ]),
        section("turn", [
            Page(_("The Cat goes first, then the players take turns. On your turn, throw both dice "
                   "and move your counter forward by the total.")),
            Page(_("If that would take you past square 66, go to square 48 instead."), both(48)),
            Page(_("If you pass over the other counter during your move, pay the other player 1 chip. "
                   "Landing on the same square costs nothing.")),
            Page(_("A double six: if you are already past square 55, go straight to square 66. "
                   "Otherwise pay the other player 2 chips and stay where you are."),
                 both(HOME)),
            Page(_shortcut_text(strict), both(11, 22, 33, 44, 55)),
        ]),
        section("special", [
            Page(_("Where your counter stops matters. Each player counts these squares in their own "
                   "numbers: red for the Cat, black for the Mouse. The board lights both.")),
            Page(_("Squares 11, 22, 33, 44 and 55: the other player pays you 2 chips."),
                 both(11, 22, 33, 44, 55)),
            Page(_("Squares 4, 9, 16, 25, 36, 49 and 64: you pay the other player 1 chip."),
                 both(4, 9, 16, 25, 36, 49, 64)),
            Page(_("Squares 5, 15, 25, 35, 45 and 65: you lose your next turn, so the other player "
                   "throws twice in a row."),
                 both(5, 15, 25, 35, 45, 65)),
            Page(_("Squares 10, 20, 30, 40, 50 and 60: throw again at once."),
                 both(10, 20, 30, 40, 50, 60)),
            Page(_("Square 25 does both: you pay 1 chip and you lose your next turn."), both(25)),
        ], title=_("Special squares")),
        section("win", [
            Page(_("The first counter to stop on its own square 66 wins and takes both pots."),
                 both(HOME)),
            Page(_("Chips only ever move between the players and the pots. A bank may go below zero: "
                   "that player then owes chips.")),
        ]),
        section("companion", [
            Page(_strict_example(strict), both(22, 28, 33) if strict else both(22, 33)),
            Page(_("Each pot starts with {stake} and each bank with {bank}. The companion keeps the "
                   "count for you.").format(stake=chips(stake), bank=chips(bank - stake))),
            Page(_("A lost turn is skipped at once: the companion tells you when the other player "
                   "throws twice.")),
            Page(_("When a move turns back to 48, every square passed on the way to 66 and back "
                   "counts for passing the other counter, but you pay at most 1 chip per move."),
                 both(48, HOME)),
        ], notes=game.interpretations()),
    ]


def _shortcut_text(strict: bool) -> str:
    if strict:
        return _("Doubles 1 to 5 are shortcuts. Double 1 takes you from the start, or from any square "
                 "up to 10, straight to square 11. Double 2 takes you from squares 12 to 21 straight "
                 "to 22, double 3 from 23 to 32 to 33, double 4 from 34 to 43 to 44, and double 5 from "
                 "45 to 54 to 55. Anywhere else a double counts its total, like any throw.")
    return _("Doubles 1 to 5 are shortcuts. Double 1 takes you from the start, or from any square "
             "up to 10, straight to square 11. Double 2 takes you from squares 11 to 21 straight to "
             "22, double 3 from 22 to 32 to 33, double 4 from 33 to 43 to 44, and double 5 from 44 "
             "to 54 to 55. Anywhere else a double counts its total, like any throw.")


def _strict_example(strict: bool) -> str:
    if strict:
        return _("Shortcuts count only from strictly past a square: standing on square 22, a double 3 "
                 "is just 6 and takes you to square 28, not 33.")
    return _("Shortcuts count from the square itself: standing on square 22, a double 3 takes you "
             "straight to square 33.")
