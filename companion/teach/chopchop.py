"""How to play Chop! Chop! (RULES.md section 2, C1-C8), from the game's live settings.

Squares come from the board file's regions: ``table_top`` ("top:r,c"), ``under_table``,
``holes``, ``slabs`` and ``front:<hole>``, so a user's own board geometry is lit correctly.
"""

from __future__ import annotations

from companion.games.base import Game
from companion.i18n import N_, _, ngettext
from companion.teach import Page, Section, board_of, section

TILE_NAMES: dict[str, str] = {
    "cheese": N_("cheese"),
    "crockery": N_("broken crockery"),
    "plus1": N_("+1"),
    "plus2": N_("+2"),
    "arrow": N_("arrow"),
    "fork": N_("fork"),
    "knife": N_("knife"),
}


def composition(tiles: dict[str, int]) -> str:
    """"cheese: 10, broken crockery: 8, ..." in the language in use."""
    return ", ".join(
        _("{tile}: {n}").format(tile=_(TILE_NAMES.get(t, t)), n=n) for t, n in tiles.items() if n
    )


def sections(game: Game) -> list[Section]:
    s = game.settings()
    board = board_of(game)
    top, under = board.region("table_top"), board.region("under_table")
    holes, slabs = board.region("holes"), board.region("slabs")
    fronts = tuple(sq for h in holes for sq in board.region(f"front:{h}"))
    tiles = {str(k): int(v) for k, v in dict(s.get("tiles", {})).items()}
    n_slabs = sum(tiles.values()) or len(slabs)
    mice_players = int(s.get("mice_players", 1))
    need = int(s.get("cheese_to_win", 10))
    comp = composition(tiles)
    kinds = tuple(t for t, n in tiles.items() if n)
    return [
        section("setup", [
            Page(ngettext(
                "One player is the Cat. The other player plays the four mice.",
                "One player is the Cat. The other {n} players share the four mice.",
                mice_players,
            ).format(n=mice_players)),
            Page(_("A table stands in the middle of the kitchen floor. Only the Cat may walk on the "
                   "table top, and only mice may walk under it."), top + under),
            Page(_("Put one mouse on each of the four mouse holes, on its hole slab."), holes),
            Page(_("Shuffle the {n} tile slabs and lay them face down on the other floor squares. "
                   "They are: {tiles}.").format(n=n_slabs, tiles=comp), slabs, tiles=kinds),
            Page(_("The Cat player puts the cat on any square of the table top. Then the mice play "
                   "first, and the two sides take turns."), top),
        ]),
        section("turn", [
            Page(_("Throw your side's die: the Cat throws the blue die (1 to 3), the mice throw the "
                   "grey die (1 to 4).")),
            Page(_("Move one piece exactly that many squares, up, down, left or right. You may not "
                   "pass through another piece, step straight back onto the square you just left, "
                   "or end where you started.")),
            Page(_("The Cat never goes under the table or into a hole. Mice never go onto the table "
                   "top. Nobody may walk onto or over a cheese lying face up."), under + holes),
            Page(ngettext(
                "The mice player moves any one of the mice.",
                "The mice players take the mice turns one after another, and each may move any mouse.",
                mice_players,
            )),
            Page(_("If the die allows no move at all, the turn passes to the other side.")),
        ]),
        section("special", [
            Page(_("When a piece stops on a face-down slab, turn the slab over, do what it shows, "
                   "then take it off the board."), slabs),
            Page(_("Cheese: a mouse keeps it. If the Cat stops on a cheese, the cat sits on it and it "
                   "stays on the board face up; nobody may enter that square."), tiles=("cheese",)),
            Page(_("+1 or +2: the same piece moves 1 or 2 more squares, and whatever it stops on "
                   "counts again."), tiles=("plus1", "plus2")),
            Page(_("Arrow: put the piece on any square it may stand on, except a hole, a mouse or a "
                   "face-up cheese. Whatever it stops on counts again."), tiles=("arrow",)),
            Page(_("Fork: the mice take one face-up cheese that the cat is not sitting on. For the Cat "
                   "a fork does nothing."), tiles=("fork",)),
            Page(_("Knife: that side misses its next turn, so the other side plays twice in a row."),
                 tiles=("knife",)),
            Page(_("Broken crockery does nothing."), tiles=("crockery",)),
            Page(_("When a mouse first leaves its hole slab, turn that slab over to show the hole: "
                   "the hole is now open."), holes),
            Page(_("The Cat catches a mouse by ending its move on it; that mouse is out of the game. "
                   "A mouse in a hole is safe."), holes),
        ], title=_("Tiles and special squares")),
        section("win", [
            Page(ngettext(
                "The mice win at once when they hold {n} piece of cheese, all four holes are open, "
                "and a mouse is in a hole.",
                "The mice win at once when they hold {n} pieces of cheese, all four holes are open, "
                "and a mouse is in a hole.",
                need,
            ).format(n=need), holes),
            Page(_("The Cat wins by catching all four mice.")),
            Page(_("When only one mouse is left and it hides in a hole, the Cat may not stop on the "
                   "square in front of that hole."), fronts),
        ]),
        section("companion", [
            Page(_out_of_cheese(str(s.get("out_of_cheese", "cat")), need)),
            Page(_("The companion counts the slabs as: {tiles}. If a slab turns up that does not fit "
                   "these numbers, it says so and stops counting that kind.").format(tiles=comp), slabs,
                 tiles=kinds),
            Page(_("A +1, +2 or arrow that allows no move leaves the piece where it is."),
                 tiles=("plus1", "plus2", "arrow")),
            Page(_("After a knife, when the mice play twice in a row, the same player throws both "
                   "times and must move the same mouse.")),
        ], notes=game.interpretations()),
    ]


def _out_of_cheese(mode: str, need: int) -> str:
    if mode == "draw":
        return ngettext(
            "Once the mice can no longer win (too little cheese left to reach {n} piece, no face-down slab "
            "a mouse can still walk to, or a mouse walled in on its hole for good), the game ends in a draw.",
            "Once the mice can no longer win (too little cheese left to reach {n} pieces, no face-down slab "
            "a mouse can still walk to, or a mouse walled in on its hole for good), the game ends in a draw.",
            need,
        ).format(n=need)
    return ngettext(
        "Once the mice can no longer win (too little cheese left to reach {n} piece, no face-down slab "
        "a mouse can still walk to, or a mouse walled in on its hole for good), the game ends and the Cat wins.",
        "Once the mice can no longer win (too little cheese left to reach {n} pieces, no face-down slab "
        "a mouse can still walk to, or a mouse walled in on its hole for good), the game ends and the Cat wins.",
        need,
    ).format(n=need)
