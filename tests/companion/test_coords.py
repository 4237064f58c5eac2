"""Chess-style coordinates of every shipped board (issue 28): columns A… from the left, rows
1… from the bottom; off-grid squares have none; typed coordinates map back to square ids."""

from __future__ import annotations

import pytest

from companion.boards import load_board, shipped_boards
from companion.boards.coords import axes, column_letters, coordinate, is_table_top, squares_at


def test_column_letters_run_past_z() -> None:
    assert [column_letters(i) for i in (0, 1, 25, 26, 27, 51, 52)] == ["A", "B", "Z", "AA", "AB", "AZ", "BA"]
    with pytest.raises(ValueError):
        column_letters(-1)


def test_qubism_corners() -> None:
    board = load_board("qubism")
    assert coordinate(board, "4,0") == "A1"  # bottom left
    assert coordinate(board, "0,0") == "A5"  # top left
    assert coordinate(board, "0,4") == "E5"
    assert coordinate(board, "4,4") == "E1"
    assert coordinate(board, "nope") is None


def test_kilkenny_mouse_holes_have_no_coordinate() -> None:
    board = load_board("kilkenny")
    frame = axes(board)
    assert frame is not None and (frame.rows, frame.cols) == (14, 14)
    assert frame.column_labels()[-1] == "N" and frame.row_labels()[0] == "14"
    assert coordinate(board, "13,0") == "A1"
    assert coordinate(board, "-1,6") is None and coordinate(board, "6,14") is None


def test_chopchop_table_top_shares_its_floor_coordinate() -> None:
    board = load_board("chopchop")
    assert coordinate(board, "top:2,3") == coordinate(board, "2,3") == "D4"
    assert is_table_top(board, "top:2,3") and not is_table_top(board, "2,3")
    assert squares_at(board, "d4") == ("2,3", "top:2,3")
    assert squares_at(board, " D 4 ") == ("2,3", "top:2,3")


def test_katenmuis_track_from_its_cells() -> None:
    board = load_board("katenmuis")
    frame = axes(board)
    assert frame is not None
    # square 1 is top left of 6 rows: A6; square 6 is the bottom of the first column: A1
    assert coordinate(board, "1") == "A" + str(frame.rows)
    assert coordinate(board, "6") == "A" + str(frame.rows - 5)


@pytest.mark.parametrize("name", shipped_boards())
def test_every_coordinate_round_trips(name: str) -> None:
    board = load_board(name)
    seen: dict[str, list[str]] = {}
    for sid in board.squares:
        c = coordinate(board, sid)
        if c is not None:
            assert sid in squares_at(board, c)
            assert squares_at(board, c.lower()) == squares_at(board, c)
            seen.setdefault(c, []).append(sid)
    # only Chop! Chop!'s table top may share a coordinate, and only with its floor square
    for ids in seen.values():
        assert len(ids) == 1 or (len(ids) == 2 and sum(is_table_top(board, s) for s in ids) == 1)
    assert squares_at(board, "Z99") == () and squares_at(board, "hello") == ()
