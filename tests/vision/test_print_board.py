"""Printable boards: PDF and PNG at A4/A3, all four markers detectable in the rendered PNG."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.boarddefaults import GAMES, board_for, default_board
from vision.boardlocate import detect_markers, locate_board
from vision.printing import PrintError, print_board, render_board


@pytest.mark.parametrize("paper", ["A4", "A3"])
def test_print_pdf_and_png_with_all_markers_detectable(tmp_path: Path, paper: str) -> None:
    board = board_for("qubism")
    png = print_board(board, tmp_path / "q.png", paper=paper)
    pdf = print_board(board, tmp_path / "q.pdf", paper=paper)
    assert pdf.read_bytes()[:5] == b"%PDF-"
    img = cv2.imread(str(png))
    expected_w = {"A4": 3508, "A3": 4961}[paper]
    assert abs(img.shape[1] - expected_w) <= 1
    small = cv2.resize(img, None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA)
    seen = detect_markers(small, board)
    assert sorted(seen) == sorted(m.id for m in board.markers)


@pytest.mark.parametrize("game", GAMES)
def test_rendered_boards_have_their_four_markers(game: str) -> None:
    board = board_for(game)
    img = render_board(board, 3.0)
    pose = locate_board(img, board)
    assert pose.found and len(pose.used) == 4
    # The homography maps board mm onto the rendering's pixels (3 px per mm).
    sq = next(iter(board.squares.values()))
    px = pose.to_pixels(np.array([sq.centre]))[0]
    assert np.allclose(px, np.array(sq.centre) * 3.0, atol=1.5)


def test_markers_only_page(tmp_path: Path) -> None:
    board = default_board("katenmuis")
    png = print_board(board, tmp_path / "m.png", markers_only=True)
    img = cv2.imread(str(png))
    small = cv2.resize(img, None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA)
    assert sorted(detect_markers(small, board)) == [0, 1, 2, 3]


def test_bad_output_type(tmp_path: Path) -> None:
    with pytest.raises(PrintError):
        print_board(default_board("qubism"), tmp_path / "q.svg")


@pytest.mark.parametrize("game", GAMES)
def test_coordinates_are_printed_around_every_board_clear_of_squares_and_markers(game: str) -> None:
    from companion.boards.coords import axes
    from vision.printing import MARKER_PAD_MM, MIN_TEXT_MM, _bbox, _overlaps, _text_mm, coordinate_labels

    board = board_for(game)
    frame = axes(board)
    assert frame is not None
    labels = coordinate_labels(board)
    texts = [t for t, _c, _h in labels]
    # every column letter above and below, every row number left and right (issue 28)
    for letter in frame.column_labels():
        assert texts.count(letter) == 2, (letter, texts)
    for number in frame.row_labels():
        assert texts.count(number) == 2, (number, texts)
    keep_out = [_bbox(sq.polygon) for sq in board.squares.values()]
    keep_out += [(m.x_mm - MARKER_PAD_MM, m.y_mm - MARKER_PAD_MM, m.x_mm + m.size_mm + MARKER_PAD_MM,
                  m.y_mm + m.size_mm + MARKER_PAD_MM) for m in board.markers]
    placed = []
    for text, (x, y), height in labels:
        assert height >= MIN_TEXT_MM - 1e-9
        w, h = _text_mm(text, height)
        rect = (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        assert 0 <= rect[0] and rect[2] <= board.width_mm and 0 <= rect[1] and rect[3] <= board.height_mm
        assert not any(_overlaps(rect, b) for b in keep_out), (text, rect)
        assert not any(_overlaps(rect, p) for p in placed), (text, rect)
        placed.append(rect)


def test_square_labels_fit_their_squares_or_are_left_out() -> None:
    from vision.printing import _fit_label

    square = (0.0, 0.0, 12.0, 12.0)  # a Kilkenny square, in mm
    fit = _fit_label("red mouse", square, 12 * 0.22)
    assert fit is not None and fit[0] == ["red", "mouse"]  # on two lines, never over the edge
    assert _fit_label("table", (0.0, 0.0, 25.0, 25.0), 25 * 0.22) == (["table"], pytest.approx(5.5))
    assert _fit_label("a very long label that cannot fit", square, 12 * 0.22) is None  # left out
    # the printed Chop! Chop! table tops say "table", not the ids that overprinted each other
    assert {sq.label for sq in board_for("chopchop").squares.values() if sq.kind == "table_top"} == {"table"}


def _pdf_page_points(pdf: Path) -> tuple[float, float]:
    import re

    m = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf.read_bytes())
    assert m, "no page size in the PDF"
    return float(m.group(1)), float(m.group(2))


@pytest.mark.parametrize("game", ["chopchop", "kilkenny"])
def test_letter_prints_the_board_at_its_true_size_on_a_letter_page(tmp_path: Path, game: str) -> None:
    """US Letter is a real choice: the PDF's page is Letter (792 x 612 pt, landscape) and the
    board on it is at true size: its markers lie as far apart on the page as in the board file."""
    board = board_for(game)
    pdf = print_board(board, tmp_path / "b.pdf", paper="Letter")
    w_pt, h_pt = _pdf_page_points(pdf)
    assert abs(w_pt - 792) < 1 and abs(h_pt - 612) < 1
    png = print_board(board, tmp_path / "b.png", paper="letter", dpi=150)
    img = cv2.imread(str(png))
    assert abs(img.shape[1] - 279.4 / 25.4 * 150) <= 1 and abs(img.shape[0] - 215.9 / 25.4 * 150) <= 1
    seen = detect_markers(img, board)
    assert sorted(seen) == sorted(m.id for m in board.markers)
    px_per_mm = 150 / 25.4
    by_id = {m.id: m for m in board.markers}
    ids = sorted(seen)
    for a, b in zip(ids, ids[1:]):
        on_page = float(np.linalg.norm(np.mean(seen[a], 0) - np.mean(seen[b], 0))) / px_per_mm
        in_file = float(np.hypot(by_id[a].x_mm - by_id[b].x_mm, by_id[a].y_mm - by_id[b].y_mm))
        assert abs(on_page - in_file) < 1.0, (a, b, on_page, in_file)


@pytest.mark.parametrize("game", ["katenmuis", "qubism"])
def test_a_board_too_wide_for_letter_is_a_sentence_and_no_file(tmp_path: Path, game: str) -> None:
    with pytest.raises(PrintError) as err:
        print_board(board_for(game), tmp_path / "b.pdf", paper="Letter")
    assert "does not fit on Letter paper" in str(err.value) and "Print it on A4 paper." in str(err.value)
    assert not (tmp_path / "b.pdf").exists()
