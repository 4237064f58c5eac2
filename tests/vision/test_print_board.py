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
