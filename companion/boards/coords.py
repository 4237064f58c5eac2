"""Chess-style coordinates for every board: columns A, B, C… from the left, rows 1, 2, 3… from
the bottom, as the board lies in front of the players and as it is drawn on screen and printed.

A square id is what the engines, the store and the camera use (``"2,4"``, ``"top:2,4"``,
``"15"``); a coordinate is what a player reads and hears (``"E4"``). The axes come from the
board's grid when it has one (``[grid]`` rows × cols), else from the cells of its squares, so a
Kilkenny mouse hole outside the 14 × 14 grid, or a Kat en Muis start corner, has no coordinate
(:func:`coordinate` returns ``None``) and is named by its label instead.

Chop! Chop!'s table-top squares sit above floor squares and share their cell: both have the
same coordinate; sentences say "the table top at D3" (:func:`is_table_top`).

:func:`square_words` is what every sentence says for a square (narration, the voice, the camera's
questions, the guide, proposals, the terminal games); :func:`shipped_words` gives it for a shipped
board by name, for code that has a game but not its board at hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from companion.boards import Board, load_board
from companion.i18n import N_, _

_COORD = re.compile(r"\s*([A-Za-z]{1,2})\s*(\d{1,3})\s*")


def column_letters(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA (spreadsheet style)."""
    if index < 0:
        raise ValueError(f"column index must be >= 0, not {index}")
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def _column_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


@dataclass(frozen=True)
class Axes:
    """The coordinate frame of one board: the cells (row, column) it names."""

    row0: int
    """the topmost named cell row (its number is ``rows``)"""
    col0: int
    """the leftmost named cell column (column A)"""
    rows: int
    cols: int

    def column_label(self, col: int) -> str | None:
        """The letter of cell column ``col``, or None outside the axes."""
        i = col - self.col0
        return column_letters(i) if 0 <= i < self.cols else None

    def row_label(self, row: int) -> str | None:
        """The number of cell row ``row`` (counted from the bottom), or None outside the axes."""
        i = row - self.row0
        return str(self.rows - i) if 0 <= i < self.rows else None

    def column_labels(self) -> tuple[str, ...]:
        """Left to right."""
        return tuple(column_letters(i) for i in range(self.cols))

    def row_labels(self) -> tuple[str, ...]:
        """Top to bottom, as drawn: the first is the highest number."""
        return tuple(str(self.rows - i) for i in range(self.rows))

    def name(self, cell: tuple[int, int]) -> str | None:
        col = self.column_label(cell[1])
        row = self.row_label(cell[0])
        return None if col is None or row is None else col + row

    def cell(self, text: str) -> tuple[int, int] | None:
        """The cell a coordinate such as ``"e4"`` or ``"E 4"`` names, or None."""
        m = _COORD.fullmatch(text)
        if not m:
            return None
        ci = _column_index(m.group(1))
        number = int(m.group(2))
        if not (0 <= ci < self.cols and 1 <= number <= self.rows):
            return None
        return (self.row0 + self.rows - number, self.col0 + ci)


def axes(board: Board) -> Axes | None:
    """The board's coordinate frame; None for a board none of whose squares has a cell."""
    if board.grid is not None:
        rows, cols = board.grid
        return Axes(row0=0, col0=0, rows=rows, cols=cols)
    cells = [sq.cell for sq in board.squares.values() if sq.cell is not None]
    if not cells:
        return None
    r0 = min(c[0] for c in cells)
    c0 = min(c[1] for c in cells)
    return Axes(
        row0=r0,
        col0=c0,
        rows=max(c[0] for c in cells) - r0 + 1,
        cols=max(c[1] for c in cells) - c0 + 1,
    )


def is_table_top(board: Board, square_id: str) -> bool:
    """Chop! Chop!'s raised table top (kind ``table_top``), which shares its cell with a floor square."""
    sq = board.squares.get(square_id)
    return sq is not None and sq.kind == "table_top"


def coordinate(board: Board, square_id: str) -> str | None:
    """``"E4"`` for a square inside the board's axes, else None (also for unknown ids)."""
    sq = board.squares.get(square_id)
    if sq is None or sq.cell is None:
        return None
    frame = axes(board)
    return None if frame is None else frame.name(sq.cell)


def squares_at(board: Board, text: str) -> tuple[str, ...]:
    """The square ids at a typed coordinate (``"e4"``): the floor square first, then a table top
    above it; empty when the text is no coordinate of this board."""
    frame = axes(board)
    if frame is None:
        return ()
    cell = frame.cell(text)
    if cell is None:
        return ()
    found = [sid for sid, sq in board.squares.items() if sq.cell == cell]
    found.sort(key=lambda sid: (is_table_top(board, sid), sid))
    return tuple(found)


SquareWords = Callable[[str], str]
"""A square id -> the words a player reads and hears for it ("D4", "the table top at D4")."""

_COLOURS = {"red": N_("red"), "blue": N_("blue"), "green": N_("green"), "yellow": N_("yellow"),
            "white": N_("white"), "black": N_("black"), "grey": N_("grey"), "orange": N_("orange")}


def _beside(board: Board, square_id: str) -> str | None:
    """The coordinate of the first on-axes neighbour of an off-axes square."""
    for other in board.neighbours(square_id):
        name = coordinate(board, other)
        if name is not None:
            return name
    return None


def square_words(board: Board, square_id: str) -> str:
    """The square as a sentence names it, in the current language: ``"D4"``, ``"the table top
    at D4"``; a square outside the axes in words, by the square beside it (``"the red mouse
    beside G14"``); an id the board does not know comes back as it is."""
    name = coordinate(board, square_id)
    if name is not None:
        if is_table_top(board, square_id):
            return _("the table top at {square}").format(square=name)
        return name
    sq = board.squares.get(square_id)
    if sq is None:
        return square_id
    near = _beside(board, square_id)
    if sq.kind == "mouse":
        colour = sq.label.split(" ")[0] if sq.label else ""
        if colour in _COLOURS and near is not None:
            return _("the {colour} mouse beside {square}").format(colour=_(_COLOURS[colour]), square=near)
        if near is not None:
            return _("the mouse beside {square}").format(square=near)
        return _("a mouse square")
    if sq.kind == "start":
        return _("the start corner")
    if near is not None:
        return _("the square beside {square}").format(square=near)
    return _("a square off the board")


@lru_cache(maxsize=16)
def _shipped(name: str) -> Board:
    return load_board(name)


def shipped_words(name: str) -> SquareWords:
    """:func:`square_words` for a shipped board (``"chopchop"``) or a board file path."""

    def words(square_id: str) -> str:
        return square_words(_shipped(name), square_id)

    return words


def board_words(board: Board) -> SquareWords:
    """:func:`square_words` bound to ``board``."""

    def words(square_id: str) -> str:
        return square_words(board, square_id)

    return words


def squares_words(words: SquareWords, square_ids: list[str] | tuple[str, ...]) -> str:
    """Several squares in a list: ``"B3, C4, D6"``."""
    return ", ".join(words(s) for s in square_ids)
