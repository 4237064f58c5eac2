"""Terminal front ends: one module per game with ``play(argv)`` (and for some ``replay``/``odds``).

They drive the same :class:`companion.session.Session` as the touchscreen app.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from companion.cli import add_db_argument, open_store
from companion.i18n import LANGUAGES, _, language_from_env, set_language
from companion.session import Session
from companion.store import Store

__all__ = [
    "Console",
    "add_common_play_arguments",
    "common_command",
    "start_or_resume",
    "use_language",
    "add_db_argument",
    "open_store",
]


def add_common_play_arguments(parser: argparse.ArgumentParser) -> None:
    add_db_argument(parser)
    parser.add_argument("--new", action="store_true", help=_("start a new game even if one is unfinished"))
    parser.add_argument("--seed", type=int, help=_("seed for 'r' (random throws), for reproducible games"))
    parser.add_argument("--lang", metavar="L", help=_("language: {codes} (default: LANGUAGE/LC_ALL/LANG, else en)").format(
        codes=", ".join(LANGUAGES)))


def help_language(argv: Sequence[str] | None) -> None:
    """Switch to the language of ``--lang L`` (or ``--lang=L``) in ``argv``, else the
    environment's, before the parser is built: its ``--help`` then speaks it too."""
    code = ""
    args = list(argv or [])
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            code = args[i + 1]
        elif arg.startswith("--lang="):
            code = arg.split("=", 1)[1]
    set_language(code or language_from_env())


def use_language(args: argparse.Namespace) -> str:
    """Switch to the language ``--lang`` asks for, else the environment's (``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); returns the language now in use (English when the
    one asked for has no catalogue)."""
    code = getattr(args, "lang", None) or language_from_env()
    return set_language(code)


def start_or_resume(
    store: Store,
    game_key: str,
    seats: Mapping[str, str] | None,
    settings: Mapping[str, Any] | None,
    new: bool,
    out: TextIO,
    companions: Mapping[str, str] | None = None,
) -> Session:
    """Resume the newest unfinished game of this kind unless ``new``; else start one (with
    the companion on the ``companions`` seats: role -> strength)."""
    if not new:
        session = Session.resume(store, game_key)
        if session is not None:
            out.write(
                _("Resuming game #{id} ({n} moves so far). Use --new to start another.").format(
                    id=session.game_id, n=len(session.turns)) + "\n"
            )
            return session
    return Session.start(store, game_key, seats, settings, companions=companions)


class Console:
    """Line input and output for a terminal game; EOF reads as 'q'."""

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None) -> None:
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            return "q"
        return line.strip()


def common_command(
    line: str,
    session: Session,
    console: Console,
    help_text: str,
    describe: Callable[[Any], str] = str,
) -> str | None:
    """Handle the commands every terminal game shares: q(uit), h(elp), b(oard), u(ndo).

    Returns ``None`` when ``line`` is none of them, else what was done: ``"quit"`` (the game
    is saved), ``"help"``, ``"board"`` (show the board), ``"undone"`` or ``"nothing"`` (there
    was nothing to undo).
    """
    if line in ("q", "quit", "exit"):
        console.say(_("Saved. Run the same command to resume."))
        return "quit"
    if line in ("h", "help"):
        console.say(help_text)
        return "help"
    if line in ("b", "board"):
        return "board"
    if line in ("u", "undo"):
        undone = session.undo()
        if undone is None:
            console.say(_("Nothing to undo."))
            return "nothing"
        told = session.narrate(undone.effects)
        console.say(_("Undone: {what}").format(what=told[0] if told else describe(undone.action)))
        return "undone"
    return None
