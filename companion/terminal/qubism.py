"""``companion play qubism``: Qubism in the terminal, on the same session as the app.

Squares are typed as printed around the board (``c2``; the ids ``3,2`` work too).
Actions: ``pawn c2`` (or just ``c2``) moves your pawn there (a step, a jump or a side-step);
``place c3 N`` places a cube with its top arrow pointing N/E/S/W; ``slide c3 3`` slides the
cube on C3 three squares along its arrow. After a slide (with the default observed cube
model) type the arrow now on top of that cube, ``N``/``E``/``S``/``W``, or ``r`` for a random
one. ``?`` lists the legal actions, ``u`` undoes, ``q`` quits (the game is saved and resumed).
"""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Sequence
from typing import TextIO

from companion.boards.coords import axes, coordinate, squares_at
from companion.games.base import Action
from companion.games.qubism import (
    ARROWS,
    CUBE_MODELS,
    PawnMove,
    PlaceCube,
    Qubism,
    QubismState,
    SlideCube,
    Tip,
)
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

SQ = r"([a-z]\d|\d+\s*,\s*\d+)"
"""A typed square: a coordinate as printed around the board (``c2``) or an id (``3,2``)."""
PAWN_RE = re.compile(rf"^(?:pawn\s+|p\s+)?{SQ}$")
PLACE_RE = re.compile(rf"^(?:place|c)\s+{SQ}\s+([nesw])$")
SLIDE_RE = re.compile(rf"^(?:slide|s)\s+{SQ}\s+(\d+)$")
TIP_RE = re.compile(r"^(?:tip\s+)?([nesw])$")
ARROW_GLYPH = {"N": "^", "E": ">", "S": "v", "W": "<", "?": "?"}

HELP = N_("""commands:
  pawn c2       move your pawn to C2 (step, jump or side-step); 'c2' alone works too
  place c3 N    place a cube from the pool on C3 with its top arrow pointing N, E, S or W
  slide c3 3    slide the cube on C3 three squares along its arrow (then it tips over)
  N/E/S/W       after a slide: the arrow now on top of that cube; r = random
  ?             list every legal action
  b             show the board again
  u             undo the last action
  q             quit (the game is saved; run the same command to resume)""")
"""The commands (English; shown as ``_(HELP)``)."""


def render(state: QubismState) -> str:
    """The board as text: W and B pawns, cubes as their arrow (^ > v <, ? while unreported)."""
    geo = state.game.geometry
    rows = sorted({r for r, _c in geo.cells.values()})
    cols = sorted({c for _r, c in geo.cells.values()})
    where = {sq: p[0].upper() for p, sq in state.pawns.items()}
    frame = axes(geo.board)
    header = "   " + "".join(f"{(frame.column_label(c) if frame else str(c)) or '':>3}" for c in cols)
    lines = [header]
    for r in rows:
        cells = []
        for c in cols:
            sq = geo.at.get((r, c))
            if sq is None:
                cells.append("   ")
            elif sq in where:
                cells.append(f"{where[sq]:>3}")
            elif sq in state.cubes:
                cells.append(f"{ARROW_GLYPH[state.cubes[sq]]:>3}")
            else:
                cells.append("  .")
        number = (frame.row_label(r) if frame else str(r)) or ""
        lines.append(f"{number:>3}" + "".join(cells) + f"  {number}")
    lines.append(header)
    game = state.game
    goals = ", ".join(_("{mark} = {player} (to row {row})").format(
        mark=p[0].upper(), player=game.player_label(p), row=game.goal_row_words(p)) for p in game.players)
    lines.append("   " + ngettext("{goals}; cubes show their top arrow; {n} cube in the pool",
                                  "{goals}; cubes show their top arrow; {n} cubes in the pool", state.pool).format(
        goals=goals, n=state.pool))
    return "\n".join(lines)


def parse(line: str, state: QubismState) -> Action | str:
    """An action from a typed line, or a hint about what to type."""
    if state.is_chance():
        m = TIP_RE.match(line)
        if m:
            assert state.tipping is not None
            return Tip(state.tipping, m.group(1).upper())
        return _("Type the arrow now on top of the cube on {square}: N, E, S or W (or r).").format(
            square=state.game.square_words(state.tipping or ""))
    m = PAWN_RE.match(line)
    if m:
        return PawnMove(_square(state, m.group(1)))
    m = PLACE_RE.match(line)
    if m:
        return PlaceCube(_square(state, m.group(1)), m.group(2).upper())
    m = SLIDE_RE.match(line)
    if m:
        return SlideCube(_square(state, m.group(1)), int(m.group(2)))
    if line.startswith(("place", "c ")):
        return _("Type a placement as: place SQUARE ARROW, e.g. place C3 N.")
    if line.startswith(("slide", "s ")):
        return _("Type a slide as: slide SQUARE HOW-FAR, e.g. slide C3 2.")
    return _("Type pawn C2, place C3 N or slide C3 2 (h for help).")


def _square(state: QubismState, text: str) -> str:
    """A typed square as its id: a coordinate (``c2``) or an id (``3,2``)."""
    found = squares_at(state.game.geometry.board, text)
    if found:
        return found[0]
    r, c = text.split(",", 1)
    return f"{int(r)},{int(c)}"


def describe(action: Action, state: QubismState | None = None) -> str:
    """An action as the command that types it, squares as printed around the board: "place C3 N"."""
    board = state.game.geometry.board if state is not None else None

    def name(square: str) -> str:
        return (coordinate(board, square) if board is not None else None) or square

    if isinstance(action, PawnMove):
        return f"pawn {name(action.to)}"
    if isinstance(action, PlaceCube):
        return f"place {name(action.square)} {action.arrow}"
    if isinstance(action, SlideCube):
        return f"slide {name(action.square)} {action.distance}"
    if isinstance(action, Tip):
        return action.arrow
    return type(action).__name__


def run(session: Session, console: Console, rng: random.Random) -> int:
    console.say(_("Type h for help."))
    show_board = True
    while True:
        state = session.state
        assert isinstance(state, QubismState)
        if isinstance(console, CompanionConsole) and console.take_turns():
            show_board = not session.state.is_chance()
            continue
        if show_board:
            console.say(render(state))
            show_board = False
        if state.is_over():
            if game_over(session, console, (state.outcome() or {}).get("winner")):
                show_board = True
                continue
            return 0
        player = state.current_player()
        who = f"{session.name(player)} ({session.game.player_label(player or '').lower()})"
        if state.is_chance():
            line = console.ask(_("{name}: which arrow is on top of the cube on {square} now (N/E/S/W, r)? ").format(
                name=who, square=state.game.square_words(state.tipping or "")))
        else:
            line = console.ask(_("{name}: pawn, place or slide? ").format(name=who))
        line = line.strip().lower()
        if not line:
            continue
        done = common_command(line, session, console, _(HELP), describe)
        if done == "quit":
            return 0
        if done is not None:
            if done != "help":
                show_board = done in ("board", "undone")
            continue
        if line == "?":
            if state.is_chance():
                console.say(_("Type the arrow on top of the cube that just moved: N, E, S or W."))
            else:
                acts = state.legal_actions()
                console.say(ngettext("{n} legal action: {actions}", "{n} legal actions: {actions}", len(acts)).format(
                    n=len(acts), actions="; ".join(describe(a, state) for a in acts)))
            continue
        if state.is_chance() and line == "r":
            assert state.tipping is not None
            parsed: Action | str = Tip(state.tipping, rng.choice(list(ARROWS)))
        else:
            parsed = parse(line, state)
        if isinstance(parsed, str):
            console.say(parsed)
            continue
        if apply_typed(session, console, parsed) is not None:
            show_board = not session.state.is_chance()


def play(argv: Sequence[str] | None = None, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    help_language(argv)
    parser = argparse.ArgumentParser(
        prog="companion play qubism",
        description=_("Play Qubism in the terminal. The game is saved after every "
                      "action; running this again resumes the unfinished game."),
    )
    add_common_play_arguments(parser)
    parser.add_argument(
        "--cube-model",
        choices=CUBE_MODELS,
        help=_("how a slid cube's new arrow is known: observed (you type it, the default), "
               "forward (it points the way it slid), back (it points back)"),
    )
    parser.add_argument("--names", help=_("player names, white first, comma-separated, e.g. 'Ann,Bo'"))
    add_companion_arguments(parser)
    args = parser.parse_args(list(argv or []))
    use_language(args)
    console = CompanionConsole(inp, out)
    settings = {"cube_model": args.cube_model} if args.cube_model else {}
    game = Qubism(**settings)
    seats = dict(zip(game.players, [n.strip() for n in (args.names or "").split(",") if n.strip()]))
    robots = companion_seats(parser, args, game)
    with open_store(args.db) as store:
        session = start_or_resume(store, "qubism", seats, settings, args.new, console.out, robots)
        names = ", ".join(f"{session.name(p)} ({session.game.player_label(p).lower()})" for p in session.game.players)
        console.say(_("Qubism #{id}: {names}; {model}").format(
            id=session.game_id, names=names, model=session.game.interpretations()[2]))
        console.attach(session, args.seed, robots)
        return run(session, console, random.Random(args.seed))
