"""How to play Qubism (RULES.md section 4, Q1-Q7), from the game's live settings.

Start squares and goal rows come from the board file's regions ``start:<player>`` and
``goal:<player>`` (the first player is White, aiming at the top row).
"""

from __future__ import annotations

from companion.games.base import Game
from companion.i18n import _, ngettext
from companion.teach import Page, Section, board_of, section


def sections(game: Game) -> list[Section]:
    s = game.settings()
    board = board_of(game)
    white, black = game.players[0], game.players[1]
    start_w, goal_w = board.region(f"start:{white}"), board.region(f"goal:{white}")
    start_b, goal_b = board.region(f"start:{black}"), board.region(f"goal:{black}")
    cubes = int(s.get("cubes", 9))
    return [
        section("setup", [
            Page(_("Qubism is for two players, White and Black, each with one pawn on a board of 5 by "
                   "5 squares.")),
            Page(_("White's pawn starts in the middle of the bottom row. White wants to reach the top "
                   "row."), start_w + goal_w),
            Page(_("Black's pawn starts in the middle of the top row. Black wants to reach the bottom "
                   "row."), start_b + goal_b),
            Page(ngettext(
                "Put the cube beside the board: both players use it. Each face of a cube shows an "
                "arrow.",
                "Put the {n} cubes beside the board: both players use them. Each face of a cube "
                "shows an arrow.",
                cubes,
            ).format(n=cubes)),
        ]),
        section("turn", [
            Page(_("White plays first. On your turn do exactly one thing: move your pawn, place a "
                   "cube, or move a cube.")),
            Page(_("Move your pawn one square up, down, left or right, onto a square with no cube. "
                   "If the other pawn is there, jump over it to the square behind. If that square is "
                   "blocked, step to the left or right of the other pawn instead."), start_w),
            Page(_("Place a cube: put a cube from the pile on an empty square, with any arrow on top. "
                   "The square the arrow points at must be on the board and empty.")),
            Page(_("Move a cube: slide a cube already on the board one or more squares the way its "
                   "arrow points, over empty squares. Then tip it over in that direction, so a new "
                   "arrow comes on top.")),
        ]),
        section("special", [
            Page(_("Cubes block pawns: a pawn never steps onto a cube.")),
            Page(_("Never shut a pawn in: you may not place or move a cube so that either pawn has no "
                   "way left to its goal row."), goal_w + goal_b),
            Page(_("After a slide, the arrow on top may point anywhere, even at a square that is not "
                   "empty.")),
        ], title=_("The cubes")),
        section("win", [
            Page(_("The first pawn to reach any square of its goal row wins: White the top row, Black "
                   "the bottom row."), goal_w + goal_b),
        ]),
        section("companion", [
            Page(_cube_model(str(s.get("cube_model", "observed")))),
            Page(_("Only cubes can shut a pawn in; the other pawn never counts as a wall.")),
            Page(_("The game can go round in circles. If it does, agree together to end it.")),
        ], notes=game.interpretations()),
    ]


def _cube_model(model: str) -> str:
    if model == "forward":
        return _("After a slide, the companion expects the new arrow to point the way the cube slid.")
    if model == "back":
        return _("After a slide, the companion expects the new arrow to point back the way the cube "
                 "came.")
    return _("After a slide, look at the arrow now on top of the cube and show it to the camera, or "
             "touch it on the screen.")
