"""Kat en Muis in the terminal: ``companion play|replay|odds katenmuis``.

- ``play``: type the two dice (``3 5``, ``3-5``, ``35``) or ``r`` to roll, ``u`` to undo, ``q``
  to quit (the game stays saved and resumes next time).
- ``replay``: apply a list of throws and print the resulting position (``--json`` for the exact
  object the issue specifies).
- ``odds``: exact winning chances and expected chips from a position.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Sequence
from typing import Any

from companion.games.base import IllegalAction
from companion.games.katenmuis import (
    HOME,
    LABELS,
    SHORTCUT_SETTINGS,
    KatEnMuis,
    KatEnMuisState,
    RollOff,
    Throw,
    narrate,
    track_words,
)
from companion.i18n import N_, _, language
from companion.session import Session
from companion.store import StoreError
from companion.terminal import Console, add_common_play_arguments, help_language, open_store, start_or_resume, undo_decision, use_language
from companion.terminal.seats import CompanionConsole, add_companion_arguments, companion_seats

__all__ = ["play", "replay", "odds", "parse_dice", "parse_throws"]

_PAIR = re.compile(r"^\s*(\d+)\s*[-,/x ]\s*(\d+)\s*$")
_TWO_DIGITS = re.compile(r"^\s*(\d)(\d)\s*$")

HELP = N_("Type the two dice ('3 5', '3-5' or '35'), 'r' to roll them, 'u' to undo, 'q' to quit.")
"""The play prompt's help (English; shown as ``_(HELP)``)."""


def parse_dice(text: str) -> tuple[int, int]:
    """``"3 5"``, ``"3-5"``, ``"35"`` -> (3, 5). Raises IllegalAction with a readable message."""
    match = _PAIR.match(text) or _TWO_DIGITS.match(text)
    if match is None:
        raise IllegalAction(_("{text} is not a throw of two dice.").format(text=repr(text.strip())) + " " + _(HELP))
    a, b = int(match.group(1)), int(match.group(2))
    for v in (a, b):
        if not 1 <= v <= 6:
            raise IllegalAction(_("a die shows 1 to 6, not {value}").format(value=v))
    return (a, b)


def parse_throws(text: str) -> list[tuple[int, int]]:
    """``"3-4 6-6 1-1"`` (also ``34``, ``3/4``, commas between throws) -> [(3, 4), (6, 6), (1, 1)]."""
    out: list[tuple[int, int]] = []
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    for i, token in enumerate(tokens, 1):
        match = re.fullmatch(r"([0-9]{1,3})[-/x]([0-9]{1,3})", token) or re.fullmatch(r"([0-9])([0-9])", token)
        if match is None:
            raise ValueError(f"throw {i} ({token!r}) is not two dice like 3-4")
        a, b = int(match.group(1)), int(match.group(2))
        for v in (a, b):
            if not 1 <= v <= 6:
                raise ValueError(f"throw {i} ({token!r}): a die shows 1 to 6, not {v}")
        out.append((a, b))
    return out


SHORTCUT_WORDS = ("reached", "past")
"""``--shortcut`` as typed -> the setting (``shortcut_from``): plain words on the command line."""


def _shortcut_word(text: str) -> str:
    """``past`` for the setting's own name too (``strictly_past``, as older commands typed it)."""
    word = text.strip().lower().replace("-", "_")
    return "past" if word in ("past", "strictly_past") else word


def _add_settings(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--shortcut",
        choices=SHORTCUT_WORDS,
        type=_shortcut_word,
        default=None,
        help=_("when a double 2 to 5 is a shortcut: from 11, 22, 33 or 44 itself ('reached', the default) "
               "or only from past it ('past')"),
    )
    parser.add_argument("--bank", type=int, default=None, metavar="N", help=_("each player's chips (default 30)"))
    parser.add_argument("--stake", type=int, default=None, metavar="N", help=_("each player's stake in the pot (default 5)"))


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if args.shortcut is not None:
        out["shortcut_from"] = SHORTCUT_SETTINGS[SHORTCUT_WORDS.index(args.shortcut)]
    if args.bank is not None:
        out["bank"] = args.bank
    if args.stake is not None:
        out["stake"] = args.stake
    return out


def _make_game(args: argparse.Namespace, parser: argparse.ArgumentParser) -> KatEnMuis:
    try:
        return KatEnMuis(**_settings(args))
    except ValueError as exc:
        parser.error(str(exc))
    raise AssertionError("unreachable")


def _where(state: KatEnMuisState, player: str) -> str:
    sq = state.square[player]
    if sq == 0:
        return _("at the start")
    return _("on {square}").format(square=track_words(player, sq))


def _chips(n: int) -> str:
    return f"{n}" if n >= 0 else _("owes {n}").format(n=-n)


def _decimal(value: float, places: int) -> str:
    """``value`` with ``places`` decimals, with the decimal comma Dutch and French write."""
    text = f"{value:.{places}f}"
    return text.replace(".", ",") if language() in ("nl", "fr") else text


def _signed(value: float) -> str:
    return ("+" if value >= 0 else "-") + _decimal(abs(value), 3)


def _role(player: str) -> str:
    return _(LABELS[player]) if player in LABELS else player.title()


def status_lines(session: Session) -> list[str]:
    from companion.odds import odds_for_state

    state = session.state
    assert isinstance(state, KatEnMuisState)
    names = session.seats
    lines = []
    for p in ("cat", "mouse"):
        note = _(" - loses the next turn") if state.skip[p] else ""
        chips = _("chips {n}").format(n=_chips(state.bank[p]))
        lines.append(f"  {_role(p):<5} {names[p]:<12} {_where(state, p):<18} {chips}{note}")
    lines.append("  " + _("Pots: {n} chips").format(n=state.pots()))
    if state.winner is not None:
        lines.append("  " + _("{name} ({role}) has won.").format(name=names[state.winner], role=_role(state.winner)))
    else:
        chance = odds_for_state(state).cat_wins
        turn = state.turn
        lines.append(
            "  " + _("Move {n} saved. {name} ({role}) to throw. Cat's winning chance: {percent}%").format(
                n=len(session.turns), name=names[turn], role=_role(turn), percent=_decimal(100 * chance, 1))
        )
    return lines


# -- play ---------------------------------------------------------------------------------------


def _roll_off(console: Console, first: str, second: str, rng: random.Random) -> tuple[str, str] | None:
    """K1: each throws; higher total is Cat. Returns (cat name, mouse name) or None on quit."""
    roll = RollOff()
    players = (first, second)
    console.say(_("Throwing for the roles: {first} and {second} each throw both dice; the higher total is Cat.").format(
        first=first, second=second))
    while roll.cat is None:
        who = players[roll.next_thrower or 0]
        text = console.ask(_("{name} throws (two dice, or 'r'): ").format(name=who)).lower()
        if text in ("q", "quit"):
            return None
        try:
            dice = (rng.randint(1, 6), rng.randint(1, 6)) if text in ("r", "roll") else parse_dice(text)
            console.say("  " + _("{name} throws {a} and {b}: {result}").format(
                name=who, a=dice[0], b=dice[1], result=roll.throw(dice)))
        except IllegalAction as exc:
            console.say(f"  {exc}")
    cat = players[roll.cat]
    return cat, players[1 - roll.cat]


def play(argv: Sequence[str], console: Console | None = None) -> int:
    help_language(argv)
    parser = argparse.ArgumentParser(
        prog="companion play katenmuis",
        description=_("Play Kat en Muis in the terminal.") + " " + _(HELP) + " "
        + _("The game is saved after every throw; run the command again to resume it."),
    )
    add_common_play_arguments(parser)
    parser.add_argument("--cat", metavar="NAME", help=_("the Cat player's name"))
    parser.add_argument("--mouse", metavar="NAME", help=_("the Mouse player's name"))
    parser.add_argument(
        "--roll-off",
        action="store_true",
        help=_("decide the roles by a throw (--cat and --mouse are then just the first and second player)"),
    )
    _add_settings(parser)
    add_companion_arguments(parser)
    args = parser.parse_args(list(argv))
    use_language(args)
    game = _make_game(args, parser)
    con = console or CompanionConsole()
    robots = companion_seats(parser, args, game)
    rng = random.Random(args.seed)

    with open_store(args.db) as store:
        seats = {"cat": args.cat or "", "mouse": args.mouse or ""}
        resumed = None if args.new else Session.resume(store, "katenmuis")
        if resumed is None and args.roll_off:
            roles = _roll_off(con, args.cat or _("Player 1"), args.mouse or _("Player 2"), rng)
            if roles is None:
                return 0
            seats = {"cat": roles[0], "mouse": roles[1]}
        session = start_or_resume(store, "katenmuis", seats, game.settings(), args.new, con.out, robots)
        if resumed is not None and _settings(args) and session.game.settings() != game.settings():
            con.say(_("(The resumed game keeps its own settings; use --new for a game with these.)"))
        con.say(_("Kat en Muis - {cat} is Cat, {mouse} is Mouse.").format(
            cat=session.seats["cat"], mouse=session.seats["mouse"]))
        for line in session.game.interpretations()[:1]:
            con.say(line)
        con.say(_(HELP))
        con.say("\n".join(status_lines(session)))
        if isinstance(con, CompanionConsole):
            con.attach(session, args.seed, robots)
        while True:
            if isinstance(con, CompanionConsole) and con.take_turns(
                lambda effects: con.say("\n".join([*(f"  {s}" for s in narrate(effects, session.seats)),
                                                    *status_lines(session)]))
            ):
                continue
            if session.is_over():
                outcome = session.state.outcome() or {}
                scores = outcome.get("scores", {})
                con.say(_("Game over. Chips won: {scores}. ('u' undoes the winning throw, 'q' quits.)").format(
                    scores=", ".join(f"{session.seats[p]} {scores.get(p, 0):+d}" for p in ("cat", "mouse"))))
            state = session.state
            assert isinstance(state, KatEnMuisState)
            who = "" if state.winner is not None else _("{name} ({role}) throws: ").format(
                name=session.seats[state.turn], role=_role(state.turn))
            text = con.ask(who or "> ").strip().lower()
            if text in ("q", "quit", "exit"):
                if not session.is_over():
                    con.say(_("Game saved. Run 'companion play katenmuis' to carry on."))
                return 0
            if text in ("", "h", "help", "?"):
                con.say(_(HELP))
                continue
            try:
                if text in ("u", "undo"):
                    undone = undo_decision(session, source="keyboard")
                    if undone is None:
                        con.say(_("Nothing to undo."))
                    else:
                        con.say(_("Undone: {what}").format(what=" ".join(narrate(list(undone.effects), session.seats)[:1])))
                        con.say("\n".join(status_lines(session)))
                    continue
                if session.is_over():
                    con.say(_("The game is over: 'u' to undo the last throw, 'q' to quit."))
                    continue
                if text in ("r", "roll"):
                    dice, source = (rng.randint(1, 6), rng.randint(1, 6)), "random"
                else:
                    dice, source = parse_dice(text), "keyboard"
                effects = session.apply(Throw(dice), source=source)
            except IllegalAction as exc:
                con.say(f"  {exc}")
                continue
            except StoreError as exc:
                con.say(f"  {exc}")
                return 2
            for sentence in narrate(effects, session.seats):
                con.say(f"  {sentence}")
            con.say("\n".join(status_lines(session)))


# -- replay -------------------------------------------------------------------------------------


def replay_state(game: KatEnMuis, throws: Sequence[tuple[int, int]]) -> tuple[KatEnMuisState, int, list[str]]:
    """Apply throws in order until a win or until they run out: (state, throws used, narration)."""
    state = game.new_state()
    used = 0
    story: list[str] = []
    for dice in throws:
        if state.winner is not None:
            break
        story += narrate(state.apply(Throw(dice)))
        used += 1
    return state, used, story


def replay_json(state: KatEnMuisState, used: int) -> dict[str, Any]:
    return {
        "cat": {"square": state.square["cat"], "chips": state.bank["cat"], "skip_next": state.skip["cat"]},
        "mouse": {"square": state.square["mouse"], "chips": state.bank["mouse"], "skip_next": state.skip["mouse"]},
        "to_move": None if state.winner is not None else state.turn,
        "winner": state.winner,
        "throws_used": used,
        "pots": state.pots(),
    }


def replay(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="companion replay katenmuis",
        description="Apply throws in order (Cat first; a lost turn consumes no throw) and print the "
        "position. Stops at a win or when the throws run out.",
    )
    parser.add_argument("--throws", required=True, help='the throws, e.g. "3-4 6-6 1-1" (also 34 or 3/4)')
    _add_settings(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(list(argv))
    game = _make_game(args, parser)
    try:
        throws = parse_throws(args.throws)
    except ValueError as exc:
        print(f"companion replay katenmuis: malformed --throws: {exc}", file=sys.stderr)
        return 2
    state, used, story = replay_state(game, throws)
    data = replay_json(state, used)
    if args.json:
        print(json.dumps(data))
        return 0
    for sentence in story:
        print(sentence)
    print()
    for p in ("cat", "mouse"):
        d = data[p]
        note = _(", loses the next turn") if d["skip_next"] else ""
        chips = _("chips {n}").format(n=_chips(d["chips"]))
        print(f"{_role(p):<5} {_where(state, p)}, {chips}{note}")
    print(_("Pots: {pots}. Throws used: {used} of {total}.").format(pots=data["pots"], used=used, total=len(throws)))
    if state.winner is not None:
        print(_("{role} has won.").format(role=_role(state.winner)))
    else:
        print(_("{role} throws next.").format(role=_role(state.turn)))
    return 0


# -- odds ---------------------------------------------------------------------------------------


def _square(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a square is a whole number 0 to 66, not {text!r}") from None
    if not 0 <= value <= HOME:
        raise argparse.ArgumentTypeError(f"a square is 0 (the start) to 66, not {value}")
    return value


def odds(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="companion odds katenmuis",
        description="Exact chance that Cat wins from a position (squares in each player's own "
        "numbering; 0 is the start), and each player's expected chip gain from there (pots included).",
    )
    parser.add_argument("--cat", type=_square, default=0, metavar="N", help="Cat's square (red numbering)")
    parser.add_argument("--mouse", type=_square, default=0, metavar="N", help="Mouse's square (black numbering)")
    parser.add_argument("--to-move", choices=("cat", "mouse"), default="cat", help="who throws next (default cat)")
    parser.add_argument("--cat-skips", action="store_true", help="Cat loses her next turn")
    parser.add_argument("--mouse-skips", action="store_true", help="Mouse loses his next turn")
    parser.add_argument("--shortcut", choices=SHORTCUT_SETTINGS, default="reached", help="the K5 setting")
    parser.add_argument("--stake", type=int, default=5, metavar="N", help="stake per pot, for expected chips (default 5)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(list(argv))
    from companion.odds import table

    result = table(args.shortcut).odds(
        args.cat, args.mouse, args.to_move, args.cat_skips, args.mouse_skips, pots=2 * args.stake
    )
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    print(_("Cat wins:   {percent}%   (expected chips {chips})").format(
        percent=_decimal(100 * result.cat_wins, 4), chips=_signed(result.cat_chips)))
    print(_("Mouse wins: {percent}%   (expected chips {chips})").format(
        percent=_decimal(100 * result.mouse_wins, 4), chips=_signed(result.mouse_chips)))
    return 0
