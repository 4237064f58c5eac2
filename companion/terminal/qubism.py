"""``companion play qubism``: Qubism in the terminal, on the same session as the app.

Actions: ``pawn 3,2`` (or just ``3,2``) moves your pawn there (a step, a jump or a side-step);
``place 2,2 N`` places a cube with its top arrow pointing N/E/S/W; ``slide 2,2 3`` slides the
cube on 2,2 three squares along its arrow. After a slide (with the default observed cube
model) type the arrow now on top of that cube, ``N``/``E``/``S``/``W``, or ``r`` for a random
one. ``?`` lists the legal actions, ``u`` undoes, ``q`` quits (the game is saved and resumed).
"""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Sequence
from typing import TextIO

from companion.games.base import Action, IllegalAction
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
    common_command,
    help_language,
    open_store,
    start_or_resume,
    undo_decision,
    use_language,
)
from companion.terminal.seats import CompanionConsole, add_companion_arguments, companion_seats

SQ = r"(\d+)\s*,\s*(\d+)"
PAWN_RE = re.compile(rf"^(?:pawn\s+|p\s+)?{SQ}$")
PLACE_RE = re.compile(rf"^(?:place|c)\s+{SQ}\s+([nesw])$")
SLIDE_RE = re.compile(rf"^(?:slide|s)\s+{SQ}\s+(\d+)$")
TIP_RE = re.compile(r"^(?:tip\s+)?([nesw])$")
ARROW_GLYPH = {"N": "^", "E": ">", "S": "v", "W": "<", "?": "?"}

HELP = N_("""commands:
  pawn 3,2      move your pawn to row 3, column 2 (step, jump or side-step); '3,2' alone works too
  place 2,2 N   place a cube from the pool on 2,2 with its top arrow pointing N, E, S or W
  slide 2,2 3   slide the cube on 2,2 three squares along its arrow (then it tips over)
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
    lines = ["   " + "".join(f"{c:>3}" for c in cols)]
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
        lines.append(f"{r:>3}" + "".join(cells))
    game = state.game
    goals = ", ".join(_("{mark} = {player} (to row {row})").format(
        mark=p[0].upper(), player=game.player_label(p), row=game.goal_row[p]) for p in game.players)
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
        return _("Type the arrow now on top of the cube on {square}: N, E, S or W (or r).").format(square=state.tipping)
    m = PAWN_RE.match(line)
    if m:
        return PawnMove(f"{int(m.group(1))},{int(m.group(2))}")
    m = PLACE_RE.match(line)
    if m:
        return PlaceCube(f"{int(m.group(1))},{int(m.group(2))}", m.group(3).upper())
    m = SLIDE_RE.match(line)
    if m:
        return SlideCube(f"{int(m.group(1))},{int(m.group(2))}", int(m.group(3)))
    if line.startswith(("place", "c ")):
        return _("Type a placement as: place ROW,COL ARROW, e.g. place 2,2 N.")
    if line.startswith(("slide", "s ")):
        return _("Type a slide as: slide ROW,COL SQUARES, e.g. slide 2,2 3.")
    return _("Type pawn 3,2, place 2,2 N or slide 2,2 3 (h for help).")


def describe(action: Action) -> str:
    if isinstance(action, PawnMove):
        return f"pawn {action.to}"
    if isinstance(action, PlaceCube):
        return f"place {action.square} {action.arrow}"
    if isinstance(action, SlideCube):
        return f"slide {action.square} {action.distance}"
    return str(action)


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
            winner = (state.outcome() or {}).get("winner")
            console.say(_("Game over: {name} wins.").format(name=session.name(winner)))
            if console.ask(_("u = undo the last action, q = quit: ")).lower() == "u":
                undone = undo_decision(session)
                console.say(_("Undone: {what}").format(what=describe(undone.action) if undone else _("nothing")))
                show_board = True
                continue
            return 0
        player = state.current_player()
        who = f"{session.name(player)} ({session.game.player_label(player or '').lower()})"
        if state.is_chance():
            line = console.ask(_("{name}: which arrow is on top of the cube on {square} now (N/E/S/W, r)? ").format(
                name=who, square=state.tipping))
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
                    n=len(acts), actions="; ".join(describe(a) for a in acts)))
            continue
        if state.is_chance() and line == "r":
            assert state.tipping is not None
            parsed: Action | str = Tip(state.tipping, rng.choice(list(ARROWS)))
        else:
            parsed = parse(line, state)
        if isinstance(parsed, str):
            console.say(parsed)
            continue
        try:
            effects = session.apply(parsed, source="typed")
        except IllegalAction as exc:
            console.say(_("Not allowed: {reason}").format(reason=exc))
            continue
        for phrase in session.narrate(effects):
            console.say(f"  {phrase}")
        show_board = not session.state.is_chance()


def play(argv: Sequence[str] | None = None, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    help_language(argv)
    parser = argparse.ArgumentParser(
        prog="companion play qubism",
        description=_("Play Qubism in the terminal (rules Q1-Q7). The game is saved after every "
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
