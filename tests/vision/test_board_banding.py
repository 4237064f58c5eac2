"""Markers crossed by thin light lines (issue 31, session 20, katlens): the third family's faded
inkjet print (``vision.synth.scene_c_world.print_c``) has a white line every few millimetres
where nozzles are clogged. Seen close (the Pi camera straight down over the board: third family
4026, Qubism group 0, 1640x1232), the lines cut every marker's dark border, no quad outline
closes, and the board was found from one marker or none. The detector now tries, while fewer
than two markers are found, the frame opened over 3 then 5 px squares
(``vision.boardlocate._opened_markers``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.boardlocate import LocateConfig, detect_markers, locate_board
from vision.synth.scene_c_world import PRINT_PX_PER_MM, print_c

BOARD = board_for("qubism")


def _seen_close(seed: int, px_per_mm: float) -> np.ndarray:
    """The faded print of ``seed`` (sRGB, 8 bits) magnified to ``px_per_mm``, as a camera
    close over it sees the print's texture."""
    lin = np.clip(print_c(BOARD, np.random.default_rng(seed), "faded"), 0, 1)
    img = (lin ** (1 / 2.2) * 255).astype(np.uint8)
    scale = px_per_mm / PRINT_PX_PER_MM
    out: np.ndarray = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    return out


@pytest.mark.parametrize("seed,px_per_mm", [(1, 10.0), (5, 12.0), (2, 8.0)])
def test_markers_crossed_by_an_inkjets_lines_are_found(seed: int, px_per_mm: float) -> None:
    # measured: without the opening 0 of 4 markers found on each of these three prints; with
    # it all 4 (seeds 1 and 5 need the 5 px opening, seed 2 the 3 px one)
    img = _seen_close(seed, px_per_mm)
    assert len(detect_markers(img, BOARD, LocateConfig(open_px=()))) < 2
    found = detect_markers(img, BOARD)
    assert sorted(found) == [16, 17, 18, 19]
    pose = locate_board(img, BOARD)
    assert pose.found and pose.error_px < 1.0
    # the corners are where the print has them (the opening moves no edge)
    mm = np.array([m.corners() for m in BOARD.markers if m.id == 16][0], np.float64)
    assert np.abs(found[16] - mm * px_per_mm).max() < 2.0


def test_a_clean_print_is_read_without_the_opening() -> None:
    # the opening only runs while fewer than two markers are found: a print that shows them
    # keeps exactly the corners it had
    img = _seen_close(0, 7.0)
    plain = detect_markers(img, BOARD, LocateConfig(open_px=()))
    assert sorted(plain) == [16, 17, 18, 19]
    now = detect_markers(img, BOARD)
    assert all(np.array_equal(now[i], plain[i]) for i in plain)
