"""The board-file format and loader (companion/boards)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.boards import BoardError, load_board, load_board_file, parse_board, shipped_boards

MINI = """
[board]
game = "toy"
width_mm = 100
height_mm = 80

[grid]
rows = 2
cols = 3
origin_mm = [10, 10]
cell_mm = 20
skip = ["1,2"]

[[squares]]
id = "hole"
polygon = [[70, 30], [90, 30], [90, 50], [70, 50]]
label = "H"
kind = "hole"

[adjacency]
hole = ["0,2"]

[regions]
start = ["0,0", "hole"]

[[markers]]
id = 3
x_mm = 0
y_mm = 0
size_mm = 8
"""


def test_grid_squares_adjacency_regions_markers(tmp_path: Path) -> None:
    path = tmp_path / "mini.toml"
    path.write_text(MINI)
    board = load_board_file(path)
    assert board.name == "mini" and board.grid == (2, 3)
    assert set(board.squares) == {"0,0", "0,1", "0,2", "1,0", "1,1", "hole"}
    assert board.square("0,1").polygon[0] == (30.0, 10.0)
    assert board.square("1,1").centre == (40.0, 40.0)
    assert board.neighbours("0,2") == ("0,1", "hole")  # 1,2 skipped; link made symmetric
    assert board.neighbours("hole") == ("0,2",)
    assert board.region("start") == ("0,0", "hole")
    assert board.markers[0].corners()[2] == (8.0, 8.0)


@pytest.mark.parametrize(
    "broken, message",
    [
        ("", "missing \\[board\\]"),
        ('[board]\ngame="x"\nwidth_mm=1\nheight_mm=1\n[regions]\nr=["nope"]', "unknown squares"),
        ('[board]\ngame="x"\nwidth_mm=1\nheight_mm=1\n[[squares]]\nid="a"\npolygon=[[0,0]]', "at least 3"),
        ('[board]\ngame="x"\nwidth_mm="wide"\nheight_mm=1', "width_mm"),
    ],
)
def test_broken_board_files_say_what_is_wrong(broken: str, message: str) -> None:
    import tomllib

    with pytest.raises(BoardError, match=message):
        parse_board(tomllib.loads(broken), "broken.toml")


def test_unreadable_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match="cannot read"):
        load_board_file(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[board\n")
    with pytest.raises(BoardError, match="not valid TOML"):
        load_board_file(bad)
    with pytest.raises(BoardError, match="no shipped board"):
        load_board("no-such-board")


def test_every_shipped_board_loads_with_four_distinct_markers() -> None:
    seen: set[int] = set()
    for name in shipped_boards():
        board = load_board(name)
        assert len(board.markers) == 4, name
        ids = {m.id for m in board.markers}
        assert not ids & seen, f"{name} reuses marker ids {ids & seen}"
        seen |= ids
        for m in board.markers:  # markers lie on the printed sheet
            assert 0 <= m.x_mm and m.x_mm + m.size_mm <= board.width_mm
            assert 0 <= m.y_mm and m.y_mm + m.size_mm <= board.height_mm
