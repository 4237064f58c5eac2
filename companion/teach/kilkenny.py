"""How to play Kilkenny Cats (RULES.md section 3, L1-L5), from the game's live settings.

The colours in play, their sides, start squares (``start:<side>``) and the two mice each colour
aims at (``mice:<side>``) come from the game's settings and the board file's regions.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import Game
from companion.i18n import N_, _, ngettext
from companion.teach import Page, Section, board_of, section

SIDES: tuple[str, ...] = ("south", "north", "west", "east")
COLOUR_NAMES: dict[str, str] = {
    "red": N_("Red"), "blue": N_("Blue"), "green": N_("Green"), "yellow": N_("Yellow"),
}
START_SENTENCES: dict[str, str] = {
    "south": N_("{colour} starts in the middle, on the south side (at the bottom), and aims at the "
                "two {colour} mice beyond the north edge."),
    "north": N_("{colour} starts in the middle, on the north side (at the top), and aims at the two "
                "{colour} mice beyond the south edge."),
    "west": N_("{colour} starts in the middle, on the west side (on the left), and aims at the two "
               "{colour} mice beyond the east edge."),
    "east": N_("{colour} starts in the middle, on the east side (on the right), and aims at the two "
               "{colour} mice beyond the west edge."),
}


def colour_name(colour: str) -> str:
    return _(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour.title()


def sections(game: Game) -> list[Section]:
    s = game.settings()
    board = board_of(game)
    n = int(s.get("players", 2))
    cats = int(s.get("cats", 8))
    colours: list[Any] = list(s.get("colours", ())) or list(game.players)
    players = [str(c) for c in colours[:n]]
    sides = SIDES[:n]
    starts = {c: board.region(f"start:{side}")[:cats] for c, side in zip(players, sides, strict=True)}
    mice = {c: board.region(f"mice:{side}") for c, side in zip(players, sides, strict=True)}
    all_mice = tuple(sq for side in SIDES for sq in board.region(f"mice:{side}"))
    all_starts = tuple(sq for c in players for sq in starts[c])
    our_mice = tuple(sq for c in players for sq in mice[c])
    first = colour_name(players[0])
    setup = [
        Page(ngettext(
            "Each player takes a colour: {n} cat of that colour and the die of that colour.",
            "Each player takes a colour: {n} cats of that colour and the die of that colour.",
            cats,
        ).format(n=cats), all_starts),
    ]
    setup += [
        Page(_(START_SENTENCES[side]).format(colour=colour_name(c)), starts[c] + mice[c])
        for c, side in zip(players, sides, strict=True)
    ]
    return [
        section("setup", setup),
        section("turn", [
            Page(_("{colour} plays first, then the others in turn around the table.").format(colour=first),
                 starts[players[0]]),
            Page(_("On your turn, throw your own die. Move one of your cats exactly that many squares "
                   "in a straight line: up, down, sideways or diagonally.")),
            Page(_("Every square the cat passes over must be empty. Only one cat may stand on a "
                   "square.")),
            Page(_("If you can move, you must, even if the move is a bad one. If none of your cats can "
                   "move, the turn is lost.")),
        ]),
        section("special", [
            Page(_("Ending your move on a cat of another colour captures it: it leaves the game.")),
            Page(_("The mice squares lie outside the edge of the board. A cat may go onto a mouse of "
                   "its own colour only by the exact count, and never onto another colour's mouse."),
                 all_mice),
            Page(_("A cat on its own mouse is safe there and never moves again."), our_mice),
        ], title=_("The mice squares")),
        section("win", [
            Page(_("The first player to have a cat on each of their two mice wins."), our_mice),
            Page(_("If no other player has a cat that can still move, because all are captured or "
                   "sitting on mice, the player who can still move wins.")),
        ]),
        section("companion", [
            Page(ngettext(
                "This game: {players} players, {n} cat each.",
                "This game: {players} players, {n} cats each.",
                cats,
            ).format(players=n, n=cats)),
            Page(_("A cat may stop only on its own colour's mice. The mice of colours nobody plays are "
                   "closed too."), all_mice),
            Page(_("A player with no cat that can still move is passed over; the companion skips "
                   "them.")),
            Page(_("If the die allows no move, the companion says so and the turn passes at once.")),
        ], notes=game.interpretations()),
    ]
