"""Issue 30: a board file is capped in squares and polygon points, and refused before anything
big is built (a 100000 x 100000 grid ran 20 s into MemoryError); a board file of the wrong
shape is a sentence, never an internal error."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from companion.boards import BoardError, load_board_file
from companion.cli import main
from companion.limits import MAX_BOARD_SQUARES, MAX_POLYGON_POINTS

SHIPPED = Path(__file__).resolve().parents[2] / "companion" / "boards"


def _huge(tmp_path: Path, game: str = "chopchop", rows: int = 100000, cols: int = 100000) -> Path:
    text = (SHIPPED / f"{game}.toml").read_text(encoding="utf-8")
    head, _, rest = text.partition("[grid]")
    grid, _, tail = rest.partition("\n\n")
    lines = [ln for ln in grid.splitlines() if not ln.startswith(("rows", "cols"))]
    path = tmp_path / "huge.toml"
    path.write_text(head + "[grid]" + "\n".join(lines) + f"\nrows = {rows}\ncols = {cols}\n\n" + tail,
                    encoding="utf-8")
    return path


def test_a_huge_grid_is_refused_at_once(tmp_path: Path) -> None:
    t = time.perf_counter()
    with pytest.raises(BoardError, match=rf"has 1000000\d{{4}} squares, more than the {MAX_BOARD_SQUARES}"):
        load_board_file(_huge(tmp_path))
    assert time.perf_counter() - t < 1.0


@pytest.mark.parametrize("argv", [
    ["play", "chopchop", "--new", "--board", "{board}", "--db", "{db}"],
    ["rules", "chopchop", "--set", "board={board}"],
    ["board", "read", "{photo}", "--board", "{board}"],
])
def test_every_command_refuses_a_huge_board(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    board = _huge(tmp_path)
    values = {"board": str(board), "db": str(tmp_path / "g.db"), "photo": str(tmp_path / "p.png")}
    t = time.perf_counter()
    code = main([a.format(**values) for a in argv])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "more than the 2000 a board may have" in err and "internal error" not in err
    # refused before any work on its 10^10 squares (which would never finish); not a speed check:
    # 'board read' imports OpenCV first, which under qemu on a loaded 2-core machine (scripts/pi-check,
    # session 22) took over the 5 s this bound was
    assert time.perf_counter() - t < 60.0


def test_listed_squares_and_polygons_are_capped(tmp_path: Path) -> None:
    square = '[[squares]]\nid = "s{i}"\npolygon = [[0, 0], [1, 0], [1, 1]]\n'
    head = '[board]\ngame = "katenmuis"\nwidth_mm = 10\nheight_mm = 10\n'
    many = tmp_path / "many.toml"
    many.write_text(head + "".join(square.format(i=i) for i in range(MAX_BOARD_SQUARES + 1)))
    with pytest.raises(BoardError, match="2001 squares"):
        load_board_file(many)
    points = ", ".join(f"[{i}, {i % 7}]" for i in range(MAX_POLYGON_POINTS + 1))
    poly = tmp_path / "poly.toml"
    poly.write_text(head + f'[[squares]]\nid = "a"\npolygon = [{points}]\n')
    with pytest.raises(BoardError, match=f"at most {MAX_POLYGON_POINTS} points"):
        load_board_file(poly)


@pytest.mark.parametrize("body, says", [
    ('[grid]\nrows = -3\ncols = 4\ncell_mm = 5\n', "cannot be negative"),
    ('grid = 5\n', "[grid] must be a table"),
    ('squares = 5\n', "[[squares]] must be a list"),
    ('[[squares]]\nid = "a"\npolygon = 5\n', "polygon must be a list"),
    ('[[squares]]\nid = "a"\npolygon = [[0, 0], [1, 0], [1, 1]]\ncell = "x"\n', "cell must be [row, column]"),
    ('[[squares]]\nid = "a"\npolygon = [[0, 0], [1, 0], [1, 1]]\n[adjacency]\na = 5\n', "must be a list of square ids"),
    ('adjacency = 5\n', "[adjacency] must be a table"),
    ('[regions]\nr = 5\n', "must be a list of square ids"),
    ('settings = [1]\n', "[settings] must be a table"),
    ('markers = 5\n', "[[markers]] must be a list"),
    ('[[squares]]\nid = "a"\npolygon = [{x = 1}, [1, 0], [1, 1]]\n', "polygon must be a list"),
])
def test_board_files_of_the_wrong_shape(tmp_path: Path, body: str, says: str) -> None:
    path = tmp_path / "odd.toml"
    head = '[board]\ngame = "katenmuis"\nwidth_mm = 10\nheight_mm = 10\n'
    path.write_text(head + body if body.startswith("[") else body + head)  # top-level keys come first
    with pytest.raises(BoardError) as info:
        load_board_file(path)
    assert says in str(info.value)


def test_a_relative_board_path_is_kept_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A game started with --board mine.toml resumes from another folder."""
    import io
    import shutil

    from companion.store import Store
    from companion.terminal import chopchop

    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    shutil.copy(SHIPPED / "chopchop.toml", here / "mine.toml")
    db = tmp_path / "g.db"
    monkeypatch.chdir(here)
    assert chopchop.play(["--db", str(db), "--new", "--board", "mine.toml"], inp=io.StringIO("q\n"), out=io.StringIO()) == 0
    monkeypatch.chdir(elsewhere)
    out = io.StringIO()
    assert chopchop.play(["--db", str(db)], inp=io.StringIO("q\n"), out=out) == 0
    assert "Resuming game #1" in out.getvalue()
    with Store.open(db) as store:
        assert store.unfinished_games("chopchop")[0].settings["board"] == str(here / "mine.toml")
