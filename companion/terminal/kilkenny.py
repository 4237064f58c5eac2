"""``companion play kilkenny``: Kilkenny Cats in the terminal, on the same session as the app.

Each turn: type the throw of the player's own die (1-6) or ``r`` for a random one, then the
move as two squares as printed around the board, ``f5 f7`` (from, to; the ids ``9,5 7,5`` work
too, and a mouse square outside the board is typed by its id, ``-1,6``). ``t f5`` lists where that cat may go, ``?`` lists
every legal move, ``u`` undoes, ``q`` quits (the game is saved after every action and resumed
next time).
"""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Sequence
from typing import TextIO

from companion.boards.coords import axes, squares_at
from companion.games.kilkenny import SIDE_WORDS, KilkennyCats, KilkennyState, Move, Moved, NoMove, Throw, colour_word
from companion.i18n import N_, _, ngettext
from companion.session import Session
from companion.terminal import (
    Console,
    add_common_play_arguments,
    apply_typed,
    common_command,
    game_over,
    help_language,
    open_store,
    start_or_resume,
    use_language,
)
from companion.terminal.seats import CompanionConsole, add_companion_arguments, companion_seats
from companion.textsafe import ascii_int

SQUARE = r"(?:[a-z]{1,2}\d{1,2}|-?\d+\s*,\s*-?\d+)"
"""A typed square: a coordinate as printed around the board (``f5``) or an id (``9,5``)."""
MOVE_RE = re.compile(rf"^({SQUARE})\s*(?:-|to|\s)\s*({SQUARE})$")
TARGETS_RE = re.compile(rf"^t\s+({SQUARE})$")

HELP = N_("""commands:
  1..6        the throw of your own die (what it shows)
  r           throw a random die for me
  f5 f7       move the cat on F5 to F7 (letters along the top, numbers up the side)
  t f5        where may the cat on F5 go?
  ?           list every legal move
  b           show the board again
  u           undo the last action
  q           quit (the game is saved; run the same command to resume)""")
"""The commands (English; shown as ``_(HELP)``)."""


def letters(game: KilkennyCats) -> dict[str, str]:
    """One letter per colour for the text board (its initial, or a digit if initials clash)."""
    out: dict[str, str] = {}
    for i, colour in enumerate(game.players):
        letter = colour[0].upper()
        out[colour] = letter if letter not in out.values() and letter != "O" else str(i + 1)
    return out


def render(state: KilkennyState) -> str:
    """The board as text: column letters above and below, row numbers on both sides (as
    printed), cats as capital letters, mice as small ones."""
    game = state.game
    geo = game.geometry
    marks = letters(game)
    mouse_owner = {sq: colour for colour, mice in game.mice_of.items() for sq in mice}
    rows = sorted({r for r, _c in geo.cells.values()})
    cols = sorted({c for _r, c in geo.cells.values()})
    frame = axes(geo.board)

    def col_label(c: int) -> str:
        return (frame.column_label(c) if frame is not None else str(c)) or ""

    def row_label(r: int) -> str:
        return (frame.row_label(r) if frame is not None else str(r)) or ""

    header = "    " + "".join(f"{col_label(c):>3}" for c in cols)
    lines = [header]
    for r in rows:
        cells = []
        for c in cols:
            sq = geo.at.get((r, c))
            if sq is None:
                cells.append("   ")
            elif sq in state.cats:
                cells.append(f"{marks[state.cats[sq]]:>3}")
            elif sq in geo.mice:
                owner = mouse_owner.get(sq)
                cells.append(f"{marks[owner].lower() if owner else 'o':>3}")
            else:
                cells.append("  .")
        lines.append(f"{row_label(r):>4}" + "".join(cells) + f"  {row_label(r)}")
    lines.append(header)
    legend = ", ".join(f"{marks[c]} = {game.player_label(c)} ({_(SIDE_WORDS.get(game.side_of[c], game.side_of[c]))})"
                       for c in game.players)
    lines.append("    " + _("{legend}; small letters: that colour's empty mice, o: mice nobody may enter").format(
        legend=legend))
    return "\n".join(lines)


def _status(session: Session, state: KilkennyState) -> str:
    counts = []
    for colour in state.game.players:
        cats = [sq for sq, c in state.cats.items() if c == colour]
        parked = [sq for sq in cats if sq in state.game.geometry.mice]
        counts.append(ngettext("{name}: {n} cat, {parked} on mice", "{name}: {n} cats, {parked} on mice",
                               len(cats)).format(name=session.name(colour), n=len(cats), parked=len(parked)))
    return "; ".join(counts)


def _square(state: KilkennyState, text: str) -> str:
    """A typed square as its id: a coordinate (``f5``) or an id (``9,5``, ``-1,6``)."""
    found = squares_at(state.game.geometry.board, text)
    if found:
        return found[0]
    r, c = text.split(",", 1)
    return f"{int(r)},{int(c)}"


def run(session: Session, console: Console, rng: random.Random) -> int:
    """The play loop; returns 0 when the player quits or the game is over and they quit."""
    console.say(_("Type h for help."))
    show_board = True
    while True:
        state = session.state
        assert isinstance(state, KilkennyState)
        if isinstance(console, CompanionConsole) and console.take_turns():
            show_board = True
            continue
        if show_board:
            console.say(render(state))
            console.say(_status(session, state))
            show_board = False
        if state.is_over():
            if game_over(session, console, (state.outcome() or {}).get("winner")):
                show_board = True
                continue
            return 0
        colour = state.turn
        who = f"{session.name(colour)} ({colour_word(colour)})"
        if state.is_chance():
            line = console.ask(_("{name}, throw the {colour} die: 1-6, or r for random: ").format(
                name=who, colour=colour_word(colour))).lower()
        else:
            line = console.ask(_("{name} threw {n}. Move a cat (from to, e.g. F5 F7): ").format(
                name=who, n=state.throw)).lower()
        if not line:
            continue
        done = common_command(line, session, console, _(HELP), str)
        if done == "quit":
            return 0
        if done is not None:
            if done != "help":
                show_board = done in ("board", "undone")
            continue
        if line == "?":
            if state.is_chance():
                console.say(_("Throw the die first."))
            else:
                w = state.game.square_words
                moves = [_("{start} to {stop}").format(start=w(a.frm), stop=w(a.to))
                         for a in state.legal_actions() if isinstance(a, Move)]
                console.say(ngettext("{n} legal move: {moves}", "{n} legal moves: {moves}", len(moves)).format(
                    n=len(moves), moves="; ".join(moves)))
            continue
        m = TARGETS_RE.match(line)
        if m:
            sq = _square(state, m.group(1))
            w = state.game.square_words
            if state.is_chance():
                console.say(_("Throw the die first."))
            elif state.cats.get(sq) != colour:
                console.say(_("There is no {colour} cat on {square}.").format(colour=colour_word(colour), square=w(sq)))
            else:
                targets = state.legal_targets(sq)
                console.say(_("The cat on {square} may go to: {squares}").format(
                    square=w(sq), squares=", ".join(w(t) for t in targets))
                            if targets else
                            _("The cat on {square} cannot move with a {n}.").format(square=w(sq), n=state.throw))
            continue
        if state.is_chance():
            if line == "r":
                action: Throw | Move = Throw(colour, rng.randint(1, 6))
                source = "random"
            elif (value := ascii_int(line)) is not None:
                action, source = Throw(colour, value), "typed"
            else:
                console.say(_("Type the {colour} die's number (1-6) or r; h for help.").format(colour=colour_word(colour)))
                continue
        else:
            m = MOVE_RE.match(line)
            if not m:
                console.say(_("Type a move as two squares, e.g. F5 F7 (t F5 shows targets; h for help)."))
                continue
            action, source = Move(_square(state, m.group(1)), _square(state, m.group(2))), "typed"
        effects = apply_typed(session, console, action, source)
        if effects is not None:
            show_board = any(isinstance(e, (Moved, NoMove)) for e in effects)


def play(argv: Sequence[str] | None = None, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    help_language(argv)
    parser = argparse.ArgumentParser(
        prog="companion play kilkenny",
        description=_("Play Kilkenny Cats in the terminal. The game is saved after "
                      "every action; running this again resumes the unfinished game."),
    )
    add_common_play_arguments(parser)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), help=_("number of colours (default 2)"))
    parser.add_argument("--cats", type=int, help=_("cats per colour (default 8)"))
    parser.add_argument("--names", help=_("player names in colour order, comma-separated, e.g. 'Ann,Bo'"))
    add_companion_arguments(parser)
    args = parser.parse_args(list(argv or []))
    use_language(args)
    console = CompanionConsole(inp, out)
    settings: dict[str, int] = {}
    if args.players is not None:
        settings["players"] = args.players
    if args.cats is not None:
        settings["cats"] = args.cats
    try:
        game = KilkennyCats(players=settings.get("players", 2), cats=settings.get("cats", 8))
    except ValueError as exc:
        parser.error(str(exc))
    seats = dict(zip(game.players, [n.strip() for n in (args.names or "").split(",") if n.strip()]))
    robots = companion_seats(parser, args, game)
    with open_store(args.db) as store:
        session = start_or_resume(store, "kilkenny", seats, settings, args.new, console.out, robots)
        resumed = session.game.settings()
        if args.players is not None and resumed["players"] != args.players:
            console.say(_("(This game has {n} players; use --new for a {wanted}-player game.)").format(
                n=resumed["players"], wanted=args.players))
        played = session.game
        assert isinstance(played, KilkennyCats)
        names = ", ".join(f"{session.name(c)} ({colour_word(c)}, {_(SIDE_WORDS.get(side, side))})"
                          for c, side in played.side_of.items())
        console.say(_("Kilkenny Cats #{id}: {names}").format(id=session.game_id, names=names))
        console.attach(session, args.seed, robots)
        return run(session, console, random.Random(args.seed))
