"""The ``companion`` command.

Subcommands live in the package that owns them and are imported only when called, so the
core never imports kivy, cv2, gpiozero or serial (``companion dice`` loads ``vision``,
``companion app`` loads ``ui``). Each subcommand module exposes ``main(argv) -> int``.

``companion`` with no arguments starts the touchscreen app.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import traceback
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from companion import games
from companion.boards import BoardError
from companion.crashlog import append_crash
from companion.i18n import _
from companion.outfile import OutputFileError, check_output
from companion.store import Store, StoreError, default_db_path
from companion.textsafe import printable

# name -> (module, function, one-line help)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "app": ("ui.app", "main", "start the touchscreen app (the default with no command)"),
    "play": ("companion.cli", "play_main", "play a game in the terminal: companion play GAME"),
    "replay": ("companion.cli", "replay_main", "apply a list of throws and print the result"),
    "odds": ("companion.cli", "odds_main", "exact winning chances from a position"),
    "games": ("companion.cli", "games_main", "list the games"),
    "rules": ("companion.teach.cli", "main", "how to play a game: companion rules GAME [--lang L]"),
    "history": ("companion.cli", "history_main", "finished games and per-player totals; export as JSON"),
    "backup": ("companion.cli", "backup_main", "a consistent copy of the database: companion backup -o FILE"),
    "dice": ("vision.cli", "main", "read dice: from photos, a camera, a video or a serial die"),
    "board": ("vision.boardcli", "main", "print boards, read a board from a photo, evaluate"),
    "virtual-dice": ("hardware.virtualdie", "main", "a virtual serial die on a pseudo-terminal"),
    "say": ("hardware.speechcli", "main", "speak a sentence (or write a WAV file) to check the sound"),
}

# game -> module with play(argv), and optionally replay(argv), odds(argv)
TERMINALS: dict[str, str] = {
    "katenmuis": "companion.terminal.katenmuis",
    "chopchop": "companion.terminal.chopchop",
    "kilkenny": "companion.terminal.kilkenny",
    "qubism": "companion.terminal.qubism",
}


class CliError(Exception):
    """A user error on the command line: printed as ``companion: <message>``, exit 2."""


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH",
        help=f"the database file (default: $COMPANION_DB or {default_db_path()})",
    )


def open_store(db: str | None, readonly: bool = False) -> Store:
    """The store for a command: the one writer (``play``), or a reader (``readonly``: never
    creates a file, works beside the writer)."""
    return Store.open(db, readonly=readonly)


def say_damaged(store: Store) -> None:
    """Each game skipped because its rows are damaged: one sentence on stderr."""
    for sentence in store.damaged.values():
        print(f"companion: {sentence}", file=sys.stderr)
SQLITE_MAX_INT = 2**63 - 1


def game_id(text: str) -> int:
    """An argparse type: a whole number from 1 to SQLite's largest integer (``2^70`` would
    overflow the query; ``²`` and 5000-digit numbers are refused the same way)."""
    t = text.strip()
    value = int(t) if t.isascii() and t.isdigit() and len(t) <= 19 else None
    if value is None or not 1 <= value <= SQLITE_MAX_INT:
        raise argparse.ArgumentTypeError(f"{text!r} is not a game number (a whole number from 1, as 'companion "
                                         "history' lists them)")
    return value


def _usage() -> str:
    width = max(len(n) for n in COMMANDS)
    lines = [
        "usage: companion [COMMAND] [ARGS...]",
        "",
        "A table companion for Kat en Muis, Chop! Chop!, Kilkenny Cats and Qubism.",
        "With no command it starts the touchscreen app.",
        "",
        "commands:",
    ]
    lines += [f"  {name:<{width}}  {helptext}" for name, (_, _, helptext) in COMMANDS.items()]
    lines += ["", "Run 'companion COMMAND --help' for a command's options."]
    return "\n".join(lines)


def _dispatch_by_game(kind: str, argv: Sequence[str]) -> int:
    choices = ", ".join(TERMINALS)
    if not argv or argv[0] in ("-h", "--help"):
        print(f"usage: companion {kind} GAME [OPTIONS]\n\ngames: {choices}\n\n"
              f"Run 'companion {kind} GAME --help' for the options of a game.")
        return 0 if argv else 2
    key = argv[0]
    if key not in TERMINALS:
        raise CliError(f"unknown game {key!r}; choose one of: {choices}")
    module = importlib.import_module(TERMINALS[key])
    fn = getattr(module, kind, None)
    if fn is None:
        raise CliError(f"'companion {kind}' is not available for {games.titles()[key]}")
    result: int = fn(list(argv[1:]))
    return result


def play_main(argv: Sequence[str]) -> int:
    return _dispatch_by_game("play", argv)


def replay_main(argv: Sequence[str]) -> int:
    return _dispatch_by_game("replay", argv)


def odds_main(argv: Sequence[str]) -> int:
    return _dispatch_by_game("odds", argv)


def games_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion games", description="List the games.")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    rows = []
    for key, title in games.titles().items():
        game = games.get(key)
        rows.append({"key": key, "title": title, "players": list(game.players)})
    if args.json:
        print(json.dumps(rows))
    else:
        for row in rows:
            print(f"{row['key']:<10} {row['title']:<14} players: {', '.join(row['players'])}")
    return 0


def _when(t: float | None) -> str:
    return "-" if t is None else datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M")


def history_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="companion history",
        description="Finished games, and each player's totals (games, wins, chips or points won).",
    )
    add_db_argument(parser)
    parser.add_argument("--game", choices=list(games.GAMES), help="only this game")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--export", type=game_id, metavar="ID", help="print one game as JSON (all its turns)")
    parser.add_argument("--limit", type=game_id, default=20, help="how many recent games to list (default 20)")
    args = parser.parse_args(argv)
    from companion.session import Session

    with open_store(args.db, readonly=True) as store:
        if args.export is not None:
            print(json.dumps(Session.load(store, args.export).export(), indent=2))
            return 0
        finished = store.finished_games(args.game, args.limit)
        say_damaged(store)
        totals = store.player_totals()
        unfinished = store.unfinished_games(args.game)
        if args.json:
            print(json.dumps({
                "games": [
                    {"id": g.id, "game": g.game, "finished": g.finished, "seats": g.seats, "outcome": g.outcome}
                    for g in finished
                ],
                "players": totals,
                "unfinished": [g.id for g in unfinished],
            }))
            return 0
        titles = games.titles()
        if not finished:
            print("No finished games yet.")
        for g in finished:
            winner = (g.outcome or {}).get("winner")
            won = g.seats.get(str(winner), str(winner)) if winner is not None else "nobody"
            seats = ", ".join(f"{name} ({role})" for role, name in g.seats.items())
            print(printable(f"#{g.id:<4} {_when(g.finished)}  {titles.get(g.game, g.game):<14} {seats}; winner: {won}"))
        if totals:
            print("\nPlayers (all games): games, wins, total won (chips for Kat en Muis)")
            for row in totals:
                print(printable(f"  {row['player']:<16} {row['games']:>4} {row['won']:>4} {row['score']:>+8g}"))
        if unfinished:
            print(f"\nUnfinished: {', '.join('#' + str(g.id) for g in unfinished)} (resume with 'companion play GAME')")
        say_damaged(store)
    return 0


BACKUP_SUFFIXES = (".db", ".sqlite", ".sqlite3")
"""What a copy of the database may be called (so a typo never replaces a photo or a sound with it)."""


def backup_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="companion backup",
        description="Write a consistent copy of the database (SQLite's backup API; safe while a "
        "game is being played).",
    )
    add_db_argument(parser)
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="the copy to write (a name ending in .db, .sqlite or .sqlite3)")
    parser.add_argument("--force", action="store_true", help="replace FILE if it exists")
    args = parser.parse_args(argv)
    try:  # the checks every command's output goes through (companion.outfile)
        target = check_output(Path(args.output).expanduser(), BACKUP_SUFFIXES, args.force)
    except OutputFileError as exc:
        raise CliError(str(exc)) from None
    with open_store(args.db, readonly=True) as store:
        if target.resolve() == store.path.resolve():
            raise CliError(_("The copy cannot replace the database itself: choose another name."))
        store.backup(target)
        print(_("Wrote {path}: a copy of {db}.").format(path=target, db=store.path))
    return 0


def _run(fn: Callable[[list[str]], int], argv: list[str]) -> int:
    try:
        return fn(argv)
    except (CliError, StoreError, BoardError, games.UnknownGame) as exc:
        print(printable(f"companion: {exc}"), file=sys.stderr)
        return 2
    except games.IllegalAction as exc:
        print(printable(f"companion: {exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    name = args[0] if args else "app"
    if name.startswith("-"):
        name, rest = "app", args  # options for the app, e.g. 'companion --demo'
    else:
        rest = args[1:]
    if name not in COMMANDS:
        print(f"companion: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name, func_name, _ = COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        print(
            f"companion: '{name}' needs a part that is not installed ({exc.name or exc}). "
            "Run ./scripts/setup to install everything.",
            file=sys.stderr,
        )
        return 2
    fn: Callable[[list[str]], int] = getattr(module, func_name)
    try:
        return _run(fn, rest)
    except SystemExit as exc:  # argparse, or a command's SystemExit("sentence")
        code = exc.code
        if isinstance(code, str):
            print(printable(f"companion {name}: {code}"), file=sys.stderr)
        return code if isinstance(code, int) else (0 if code is None else 2)
    except Exception as exc:  # a bug: say so briefly, keep the traceback in a file
        log = Path(default_db_path()).parent / "crash.log"
        try:
            log.parent.mkdir(parents=True, exist_ok=True)
            append_crash(log, f"--- {datetime.now().isoformat()} companion {' '.join(args)}\n"
                         + traceback.format_exc())
            where = f" (details in {log})"
        except OSError:
            where = ""
        print(printable(f"companion: internal error: {type(exc).__name__}: {exc}{where}"), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
