"""``companion play chopchop``: Chop! Chop! in the terminal, with the hidden-tile tracker.

The physical game is played on the table; the terminal is told each throw, each move and each
tile turned (or draws them with ``r`` for a solo test) and keeps the rest: whose turn, the legal
destinations of a roll, every tile turned and where, what is left and its chances.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from companion import games
from companion.boards.coords import axes, coordinate, squares_at
from companion.games.base import CHANCE, Action, Effect, IllegalAction
from companion.games.chopchop import (
    CAT,
    TILE_TYPES,
    ChopChopState,
    Move,
    PlaceCat,
    Reveal,
    Roll,
    Spear,
    Teleport,
    Won,
    piece_label,
    tile_label,
)
from companion.games.chopchop_tracker import tracker
from companion.i18n import N_, _
from companion.session import Session
from companion.terminal import Console, add_common_play_arguments, help_language, open_store, start_or_resume, undo_decision, use_language
from companion.terminal.seats import CompanionConsole, add_companion_arguments, companion_seats
from companion.textsafe import ascii_int

TILE_WORDS: dict[str, str] = {
    "cheese": "cheese", "c": "cheese", "ch": "cheese",
    "crockery": "crockery", "broken": "crockery", "x": "crockery", "cr": "crockery",
    "+1": "plus1", "1": "plus1", "plus1": "plus1", "p1": "plus1",
    "+2": "plus2", "2": "plus2", "plus2": "plus2", "p2": "plus2",
    "arrow": "arrow", "a": "arrow",
    "fork": "fork", "f": "fork",
    "knife": "knife", "k": "knife",
    # the same in Dutch and French (the words of the rule books)
    "kaas": "cheese", "fromage": "cheese",
    "servies": "crockery", "scherven": "crockery", "vaisselle": "crockery",
    "pijl": "arrow", "flèche": "arrow", "fleche": "arrow",
    "vork": "fork", "fourchette": "fork",
    "mes": "knife", "couteau": "knife",
}

LEGEND = N_(
    "Legend: [##] face-down slab  [  ] empty floor  [ch] face-up cheese  (  ) open hole  "
    "{  } table (cat on top, mice under)  K = cat (K* on a cheese)  m1..m4 = mice"
)
"""The board's legend (English; shown as ``_(LEGEND)``)."""

HELP = N_(
    "Commands at any prompt: u = undo, t = tracker, b = board, h = help, q = quit (the game is saved).\n"
    "Throws: type the number shown, or r to throw here. Tiles: cheese, crockery (x), +1, +2, arrow,\n"
    "fork, knife, or r to draw one from what is left. Moves: the piece and the square, e.g. '1 C6'\n"
    "(mouse 1 to C6) or 'cat E5'; the piece may be left out when only one can go there;\n"
    "r picks a random legal move (for a solo test)."
)
"""The commands (English; shown as ``_(HELP)``)."""


def render_board(state: ChopChopState) -> list[str]:
    """The board as text: one line per row, with the column letters above and below and the
    row numbers on both sides (chess-style, row 1 at the bottom, as printed)."""
    geo = state.geo
    board = geo.board
    rows, cols = board.grid or (0, 0)
    frame = axes(board)
    letters = frame.column_labels() if frame is not None else tuple(str(c) for c in range(cols))
    header = "     " + "".join(f"{c:^4}" for c in letters)
    lines = [header]
    for r in range(rows):
        cells = []
        for c in range(cols):
            sq = f"{r},{c}"
            if sq not in board.squares:
                cells.append("    ")
                continue
            top = f"top:{sq}"
            mouse = next((m for m, at in state.mice.items() if at == sq), None)
            if top in board.squares or sq in geo.under_table:
                inner = "K " if state.cat == top else (f"m{mouse[6:]}" if mouse else "  ")
                cells.append("{" + inner + "}")
                continue
            if state.cat == sq:
                inner = "K*" if sq in state.face_up_cheese else "K "
            elif mouse:
                inner = f"m{mouse[6:]}"
            elif sq in state.face_down:
                inner = "##"
            elif sq in state.face_up_cheese:
                inner = "ch"
            else:
                inner = "  "
            cells.append(f"({inner})" if sq in geo.holes else f"[{inner}]")
        number = (frame.row_label(r) if frame is not None else None) or str(r)
        lines.append(f" {number:>2}  " + "".join(cells) + f"  {number}")
    lines.append(header)
    return lines


def destinations_text(state: ChopChopState) -> list[str]:
    lines = []
    w = state.game.square_words
    for piece in state.game.pieces:
        dests = state.legal_destinations(piece)
        if dests:
            where = ", ".join(w(d) + ("*" if d in state.face_down else "") for d in sorted(dests))
            lines.append("  " + _("{piece} (at {square}): {squares}").format(
                piece=piece_label(piece), square=w(state.position(piece) or ""), squares=where))
    if any("*" in line for line in lines):
        lines.append("  " + _("(* = a face-down slab: it will be turned)"))
    return lines


class ChopChopTerminal:
    def __init__(self, session: Session, console: Console, rng: random.Random) -> None:
        self.session = session
        self.con = console
        self.rng = rng

    @property
    def state(self) -> ChopChopState:
        s = self.session.state
        assert isinstance(s, ChopChopState)
        return s

    def name(self, player: str | None) -> str:
        return self.session.seats.get(player or "", player or "")

    def show_board(self) -> None:
        for line in render_board(self.state):
            self.con.say(line)
        self.con.say(_(LEGEND))

    def show_tracker(self) -> None:
        for line in tracker(self.state).lines(self.state.game.square_words):
            self.con.say(line)

    def apply(self, action: Action, source: str = "keyboard") -> bool:
        try:
            effects = self.session.apply(action, source)
        except IllegalAction as exc:
            self.con.say(_("Not allowed: {reason}.").format(reason=exc))
            return False
        for line in self.session.narrate(effects):
            self.con.say(f"  * {line}")
        return True

    def narrate(self, effects: list[Effect]) -> None:
        for line in self.session.narrate(effects):
            self.con.say(f"  * {line}")
        if self.state.phase in ("move", "bonus") and not self.session.is_companion(self.state.current_player()):
            self.con.say(_("Legal moves with {n}:").format(n=self.state.roll))
            for line in destinations_text(self.state):
                self.con.say(line)

    def draw(self) -> Action:
        """A chance outcome drawn with its probability (a throw, or a tile from what is left)."""
        outs = self.state.chance_outcomes()
        return self.rng.choices([a for a, _ in outs], [float(p) for _, p in outs])[0]

    def command(self, text: str) -> str | None:
        """Handle a common command; returns 'quit', 'done' (handled) or None (not a command)."""
        word = text.strip().lower()
        if word in ("q", "quit", "exit"):
            return "quit"
        if word in ("u", "undo"):
            turn = undo_decision(self.session, source="keyboard")
            if turn is None:
                self.con.say(_("Nothing to undo."))
            else:
                told = self.session.narrate(turn.effects)
                self.con.say(_("Undone: {what}.").format(what=told[0] if told else _("the last move")))
            return "done"
        if word in ("t", "tracker"):
            self.show_tracker()
            return "done"
        if word in ("b", "board"):
            self.show_board()
            return "done"
        if word in ("r", "random") and self.state.to_move() not in (None, CHANCE):
            self.apply(self.rng.choice(self.state.legal_actions()), "random")
            return "done"
        if word in ("h", "help", "?"):
            self.con.say(_(HELP))
            return "done"
        return None

    def square(self, text: str) -> str:
        """A typed square: a coordinate as printed around the board ('e4', the floor square
        there; callers take the table top when only it fits), or an id '2,4' (or '2 4')."""
        found = squares_at(self.state.geo.board, text)
        if found:
            return found[0]
        t = text.strip().replace(" ", ",").replace(";", ",")
        return t

    def words(self, squares: Sequence[str]) -> str:
        """Squares as the board's edges name them: "D4, E4, F4"."""
        board = self.state.geo.board
        return ", ".join(coordinate(board, sq) or self.state.game.square_words(sq) for sq in squares)

    def step(self) -> str | None:
        """One prompt; returns 'quit' to stop."""
        s = self.state
        mover = s.to_move()
        who = self.name(s.current_player())
        if s.phase == "setup":
            ans = self.con.ask(_("{name}: put the cat on a table-top square ({squares}): ").format(
                name=who, squares=self.words(sorted(s.geo.table_top))))
            res = self.command(ans)
            if res:
                return res
            sq = self.square(ans)
            if not sq.startswith("top:") and f"top:{sq}" in s.geo.table_top:
                sq = f"top:{sq}"
            self.apply(PlaceCat(sq))
            return None
        if mover == CHANCE and s.phase == "roll":
            if s.side == CAT:
                ans = self.con.ask(_("{name} throws (cat die 1-3): type the roll or r: ").format(name=who))
            else:
                ans = self.con.ask(_("{name} throws (mouse die 1-4): type the roll or r: ").format(name=who))
            res = self.command(ans)
            if res:
                return res
            if ans.strip().lower() in ("r", ""):
                self.apply(self.draw(), "random")
            elif (value := ascii_int(ans.strip())) is not None:
                self.apply(Roll(value))
            else:
                self.con.say(_("Type the number on the die, or r to throw here (h for help)."))
                return None
            if self.state.phase in ("move", "bonus"):
                self.con.say(_("Legal moves with {n}:").format(n=self.state.roll))
                for line in destinations_text(self.state):
                    self.con.say(line)
            return None
        if mover == CHANCE and s.phase == "reveal":
            where = s.position(s.piece or "")
            ans = self.con.ask(_("What tile is under the slab at {square}? (cheese/x/+1/+2/arrow/fork/knife, r): ").format(
                square=s.game.square_words(where or "")))
            res = self.command(ans)
            if res:
                return res
            word = ans.strip().lower()
            if word == "r":
                self.apply(self.draw(), "random")
            elif word in TILE_WORDS:
                self.apply(Reveal(TILE_WORDS[word]))
            else:
                self.con.say(_("Unknown tile {tile}; tiles: {tiles}.").format(
                    tile=repr(ans.strip()), tiles=", ".join(tile_label(t) for t in TILE_TYPES)))
                return None
            self.show_tracker()
            return None
        if s.phase in ("move", "bonus"):
            if s.phase == "bonus":
                label = piece_label(s.piece or "")
                self.con.say(_("{piece} moves {n} more:").format(piece=label[:1].upper() + label[1:], n=s.steps))
                for line in destinations_text(s):
                    self.con.say(line)
            ans = self.con.ask(_("{name}: which piece where? (e.g. '1 C6', 'cat E5'): ").format(name=who))
            res = self.command(ans)
            if res:
                return res
            action = self.parse_move(ans)
            if action is not None:
                self.apply(action)
            return None
        if s.phase == "arrow":
            targets = s.arrow_targets()
            self.con.say(_("Arrow: {piece} may go to {n} squares: {squares}").format(
                piece=piece_label(s.piece or ""), n=len(targets), squares=", ".join(s.game.square_words(t) for t in targets)))
            ans = self.con.ask(_("{name}: to which square? ").format(name=who))
            res = self.command(ans)
            if res:
                return res
            sq = self.square(ans)
            if s.piece == CAT and f"top:{sq}" in s.arrow_targets() and sq not in targets:
                sq = f"top:{sq}"
            self.apply(Teleport(sq))
            return None
        if s.phase == "fork":
            ans = self.con.ask(_("{name}: spear which cheese? ({squares}): ").format(
                name=who, squares=", ".join(s.game.square_words(t) for t in s.fork_targets())))
            res = self.command(ans)
            if res:
                return res
            self.apply(Spear(self.square(ans)))
            return None
        return "quit"

    def parse_move(self, text: str) -> Action | None:
        s = self.state
        piece: str | None = None
        rest = text.strip()
        parts = rest.split(maxsplit=1)
        first = parts[0].lower() if parts else ""
        if len(parts) == 2 and first in ("cat", "c", "k", "kat", "chat"):
            piece, rest = CAT, parts[1]
        elif len(parts) == 2 and first.lstrip("mouse:") in ("1", "2", "3", "4"):
            piece, rest = f"mouse:{first[-1]}", parts[1]
        sq = self.square(rest.strip())
        moves = [a for a in s.legal_actions() if isinstance(a, Move)]
        if not sq:
            self.con.say(_("Say where to, e.g. '1 C6' (mouse 1 to C6)."))
            return None
        if not any(m.to == sq for m in moves) and any(m.to == f"top:{sq}" for m in moves):
            sq = f"top:{sq}"
        fits = [m for m in moves if m.to == sq and (piece is None or m.piece == piece)]
        if not fits:
            if piece is None:
                self.con.say(_("No piece can end on {square} with this roll (legal moves below).").format(
                    square=s.game.square_words(sq)))
            else:
                label = piece_label(piece)
                self.con.say(_("{piece} cannot end on {square} with this roll (legal moves below).").format(
                    piece=label[:1].upper() + label[1:], square=s.game.square_words(sq)))
            for line in destinations_text(s):
                self.con.say(line)
            return None
        pieces = sorted({m.piece for m in fits})
        if len(pieces) > 1:
            self.con.say(_("Several pieces can go to {square}: {pieces}; say which, e.g. '2 {square}'.").format(
                square=coordinate(s.geo.board, sq) or sq, pieces=", ".join(piece_label(p) for p in pieces)))
            return None
        if len(fits) == 1:
            return fits[0]
        vias = [m.via for m in fits]
        w = s.game.square_words
        ans = self.con.ask(_("Step onto {square} from which square? ({squares}): ").format(
            square=w(sq), squares=_(" or ").join(w(v) for v in vias)))
        via = self.square(ans)
        if via not in vias and f"top:{via}" in vias:
            via = f"top:{via}"
        if via not in vias:
            self.con.say(_("{square} is not one of {squares}.").format(
                square=repr(ans.strip()), squares=", ".join(w(v) for v in vias)))
            return None
        return Move(fits[0].piece, sq, via)

    def run(self) -> int:
        self.con.say(_("Chop! Chop! — game #{id}. {seats}").format(
            id=self.session.game_id,
            seats=", ".join(f"{self.session.game.player_label(role)}: {name}" for role, name in self.session.seats.items())))
        self.con.say(_(HELP))
        last_turn_key: tuple[str, str | None] | None = None
        while not self.state.is_over():
            s = self.state
            key = (s.side, s.current_player())
            if s.phase == "roll" and key != last_turn_key:
                self.con.say("")
                self.show_board()
                self.show_tracker()
                last_turn_key = key
            if isinstance(self.con, CompanionConsole) and self.con.take_turns(self.narrate):
                continue
            if self.step() == "quit":
                self.con.say(_("Game #{id} saved; 'companion play chopchop' resumes it.").format(id=self.session.game_id))
                return 0
        self.show_board()
        self.show_tracker()
        out = self.state.outcome() or {}
        result = Won(str(out.get("side", "")), str(out.get("reason", ""))).describe(self.session.seats)
        self.con.say(_("Game over. {result}.").format(result=result))  # the reason and the result (C8 too)
        return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion play chopchop",
        description=_("Play Chop! Chop! with the companion in the terminal: it tracks the hidden tiles."),
    )
    parser.add_argument("--mice-players", type=int, default=1, choices=[1, 2, 3, 4],
                        help=_("how many mice players take the mice turns in rotation (default 1)"))
    parser.add_argument("--board", default="chopchop", help=_("board name or board file (default chopchop)"))
    add_common_play_arguments(parser)
    add_companion_arguments(parser)
    return parser


def play(argv: Sequence[str], inp: TextIO | None = None, out: TextIO | None = None) -> int:
    help_language(argv)
    parser = build_parser()
    args = parser.parse_args(list(argv))
    use_language(args)
    con = CompanionConsole(inp, out)
    board = args.board
    if board.endswith(".toml") or "/" in board:  # a board file: kept by its full path, so the game
        board = str(Path(board).expanduser().resolve())  # resumes from any folder
    settings = {"mice_players": args.mice_players, "board": board}
    robots = companion_seats(parser, args, games.make("chopchop", settings))
    with open_store(args.db) as store:
        session = start_or_resume(store, "chopchop", None, settings, args.new, con.out, robots)
        con.attach(session, args.seed, robots)
        return ChopChopTerminal(session, con, random.Random(args.seed)).run()
