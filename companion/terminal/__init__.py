"""Terminal front ends: one module per game with ``play(argv)`` (and for some ``replay``/``odds``).

They drive the same :class:`companion.session.Session` as the touchscreen app.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from companion.cli import add_db_argument, open_store
from companion.games.base import Action, Effect, IllegalAction
from companion.i18n import LANGUAGES, _, language_from_env, set_language
from companion.limits import MAX_PROMPT_CHARS
from companion.session import Session, Turn
from companion.store import Store
from companion.textsafe import clean_line, clean_name, printable

__all__ = [
    "Console",
    "add_common_play_arguments",
    "common_command",
    "start_or_resume",
    "undo_decision",
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
    if seats is not None:  # names typed on the command line: no escapes, no bad bytes, one line
        seats = {role: clean_name(name) for role, name in seats.items()}
    if not new:
        session = Session.resume(store, game_key)
        for sentence in store.damaged.values():  # damaged games skipped: said, not hidden
            out.write(sentence + "\n")
        if session is not None:
            out.write(
                _("Resuming game #{id} ({n} moves so far). Use --new to start another.").format(
                    id=session.game_id, n=len(session.turns)) + "\n"
            )
            return session
    return Session.start(store, game_key, seats, settings, companions=companions)


def _tolerant(stream: TextIO) -> TextIO:
    """``stream`` (the real stdin or stdout) set to replace what is not valid in its encoding
    (a name typed in Latin-1 on a UTF-8 terminal) instead of raising."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="replace")
        except (ValueError, OSError):  # pragma: no cover - a stream that cannot change
            pass
    return stream


class Console:
    """Line input and output for a terminal game; EOF reads as 'q'.

    What it shows goes through :func:`companion.textsafe.printable` (a name or an echoed answer
    holding escape sequences never reaches the terminal raw); what it reads is one line of at
    most :data:`~companion.limits.MAX_PROMPT_CHARS` characters, control characters replaced
    (:func:`companion.textsafe.clean_line`): a longer line is refused and the prompt asked again.
    """

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None) -> None:
        self.inp = inp or _tolerant(sys.stdin)
        self.out = out or _tolerant(sys.stdout)

    def say(self, text: str = "") -> None:
        self.out.write(printable(text, keep="\n") + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        undecodable = 0
        while True:
            self.out.write(printable(prompt, keep="\n"))
            self.out.flush()
            try:
                line = self.inp.readline(MAX_PROMPT_CHARS * 4)
            except UnicodeDecodeError:  # a stream that cannot replace bad bytes: read as "?",
                undecodable += 1  # and as the end of the input when it keeps failing
                line = "" if undecodable >= 3 else "?\n"
            if not line:
                self.out.write("\n")
                return "q"
            overflow = not line.endswith("\n") and len(line) >= MAX_PROMPT_CHARS * 4
            while overflow:  # the rest of an endless line is read and dropped, in bounded pieces
                more = self.inp.readline(MAX_PROMPT_CHARS * 4)
                if not more or more.endswith("\n"):
                    break
            text = None if overflow else clean_line(line)
            if text is not None:
                return text
            self.say(_("That line is too long: answer in at most {n} characters.").format(n=MAX_PROMPT_CHARS))


def undo_decision(session: Session, source: str = "touch") -> Turn | None:
    """``u`` at a terminal prompt. Against a companion seat: back to the person's last decision
    (:meth:`Session.undo_to_human`, as the app's Undo), so the companion's reply goes with it and
    is not played again at once; returns that decision's turn. Without a companion (or with the
    companion in every seat, where that would undo the whole game): the latest action. ``None``
    when there was nothing to undo."""
    people = [p for p in session.game.players if not session.is_companion(p)]
    if session.companions and people:
        undone = session.undo_to_human(source)
        return undone[-1] if undone else None
    return session.undo(source)


def game_over(session: Session, console: Console, winner: str | None) -> bool:
    """The end of a game at a terminal prompt: who won (or nobody), then ``u`` undoes the last
    action: True (play on), anything else quits: False (the game stays saved, finished)."""
    if winner:
        console.say(_("Game over: {name} wins.").format(name=session.name(winner)))
    else:
        console.say(_("Game over: nobody wins."))
    if console.ask(_("u = undo the last action, q = quit: ")).lower() != "u":
        return False
    undone = undo_decision(session)
    told = session.narrate(undone.effects) if undone else []
    console.say(_("Undone: {what}").format(what=told[0] if told else _("nothing")))
    return True


def apply_typed(session: Session, console: Console, action: Action, source: str = "typed") -> list[Effect] | None:
    """Apply an action typed (or drawn) at the prompt and say what it did, one indented line a
    sentence; an illegal one is said ("Not allowed: ...") and nothing changes: None."""
    try:
        effects = session.apply(action, source=source)
    except IllegalAction as exc:
        console.say(_("Not allowed: {reason}").format(reason=exc))
        return None
    for phrase in session.narrate(effects):
        console.say(f"  {phrase}")
    return effects


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
        undone = undo_decision(session)
        if undone is None:
            console.say(_("Nothing to undo."))
            return "nothing"
        told = session.narrate(undone.effects)
        console.say(_("Undone: {what}").format(what=told[0] if told else describe(undone.action)))
        return "undone"
    return None
