"""Teaching the games: "how to play" text for a table that has never played, and the
first-game guide (:func:`companion.teach.guide.next_step`).

:func:`howto` gives a game's rules as five sections (setup, a turn, the special squares or
tiles, how to win, and the interpretations this companion applies), written in plain words
from RULES.md and built from the game's *live* settings, so the text follows the rules
settings chosen on the home screen (Kat en Muis ``shortcut_from``, Chop! Chop!
``out_of_cheese`` and tile split, ...). Each section is a list of :class:`Page` s; a page is
one short paragraph and the board squares it talks about (square ids of the game's board file),
so a screen can light them while the page is shown.

Every sentence goes through :mod:`companion.i18n` when :func:`howto` is called (never at
import time), so the text comes out in the language in use.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.boards import Board, load_board
from companion.games.base import Game
from companion.i18n import N_, _

__all__ = [
    "coordinates_page",
    "Page",
    "Section",
    "SECTION_KEYS",
    "board_of",
    "howto",
    "render_text",
]

SECTION_KEYS: tuple[str, ...] = ("setup", "turn", "special", "win", "companion")
"""The five sections, in the order they are taught."""

SECTION_TITLES: dict[str, str] = {
    "setup": N_("Setup"),
    "turn": N_("A turn"),
    "special": N_("Special squares"),
    "win": N_("How to win"),
    "companion": N_("This companion's rules"),
}

# game key -> module with sections(game) -> list[Section]
MODULES: dict[str, str] = {
    "katenmuis": "companion.teach.katenmuis",
    "chopchop": "companion.teach.chopchop",
    "kilkenny": "companion.teach.kilkenny",
    "qubism": "companion.teach.qubism",
}


@dataclass(frozen=True)
class Page:
    """One paragraph to read out or show, and the board squares it is about."""

    text: str
    squares: tuple[str, ...] = ()
    marks: tuple[tuple[str, str], ...] = ()
    """(square id, short text) to print on lit squares, e.g. the number a player counts there
    when the board's own label is too small to read (Kat en Muis)."""
    tiles: tuple[str, ...] = ()
    """The tiles the page names (Chop! Chop!'s "cheese", "plus1", ...), shown as their pictures."""


@dataclass(frozen=True)
class Section:
    """One of :data:`SECTION_KEYS`, with its (translated) title and its pages.

    ``notes`` are the game engine's own interpretation sentences (with rule ids such as K5),
    shown small after the plain-words pages of the last section.
    """

    key: str
    title: str
    pages: tuple[Page, ...]
    notes: tuple[str, ...] = ()

    @property
    def squares(self) -> tuple[str, ...]:
        """Every square any page of this section lights, in order, without repeats."""
        seen: dict[str, None] = {}
        for page in self.pages:
            for sq in page.squares:
                seen.setdefault(sq, None)
        return tuple(seen)


def section(key: str, pages: Sequence[Page], title: str | None = None, notes: Sequence[str] = ()) -> Section:
    """A section with its standard title (translated now) unless the game names it itself."""
    return Section(key, title if title is not None else _(SECTION_TITLES[key]), tuple(pages), tuple(notes))


def board_of(game: Game) -> Board:
    """The board file this game is played on (its ``board`` setting, else its own key)."""
    name = game.settings().get("board") or game.key
    return load_board(str(name))


def coordinates_page(game: Game) -> Page | None:
    """How squares are named in every sentence: the letters and numbers printed around the
    board, as in chess, with the bottom left and top right squares lit as examples."""
    from companion.boards.coords import axes, squares_at

    board = board_of(game)
    frame = axes(board)
    if frame is None:
        return None
    corner = "A1"
    far = frame.column_labels()[-1] + frame.row_labels()[0]
    lit = tuple(sq for name in (corner, far) for sq in squares_at(board, name)[:1])
    if game.key == "katenmuis":
        text = _("The letters along the top and bottom of the board and the numbers up its sides name "
                 "every square, as in chess: {corner} is the bottom left square, {far} the top right one. "
                 "The companion says both, your number and where it is: \"15 (square C4)\".")
    else:
        text = _("The letters along the top and bottom of the board and the numbers up its sides name "
                 "every square, as in chess: {corner} is the bottom left square, {far} the top right one. "
                 "The companion names squares that way.")
    return Page(text.format(corner=corner, far=far), lit)


def howto(game: Game) -> list[Section]:
    """The five sections for ``game`` with its current settings, in the language in use."""
    try:
        module = importlib.import_module(MODULES[game.key])
    except KeyError:
        raise ValueError(_("There is no guide for the game {game}.").format(game=game.title)) from None
    build: Callable[[Game], list[Section]] = module.sections
    sections = build(game)
    keys = tuple(s.key for s in sections)
    if keys != SECTION_KEYS:  # a programming error in a data module, never a player's
        raise AssertionError(f"{game.key}: sections {keys}, expected {SECTION_KEYS}")
    names = coordinates_page(game)
    if names is not None:  # the setup ends with how squares are named
        setup = sections[0]
        sections[0] = Section(setup.key, setup.title, (*setup.pages, names), setup.notes)
    return sections


def render_text(game: Game, width: int = 78) -> str:
    """The whole guide as plain text for the terminal (``companion rules GAME``)."""
    lines = [_("How to play {game}").format(game=game.title), ""]
    for number, sec in enumerate(howto(game), start=1):
        lines.append(f"{number}. {sec.title}")
        for page in sec.pages:
            lines.append(textwrap.fill(page.text, width, initial_indent="   - ", subsequent_indent="     "))
        if sec.notes:
            lines.append("")
            lines.append("   " + _("In the rule book's terms:"))
            for note in sec.notes:
                lines.append(textwrap.fill(note, width, initial_indent="     * ", subsequent_indent="       "))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
