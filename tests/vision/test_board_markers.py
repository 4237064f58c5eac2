"""Markers of a board seen by a cheap camera (issue 31, the second 3-D family): blurred, noisy,
small and slanted markers whose outline is found but whose bits the detector read wrong, and a
marker no whole-frame pass decodes, found where the others' pose puts it."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.boardlocate import LocateConfig, _take, detect_markers, locate_board
from vision.printing import aruco_dictionary
from vision.synth.board3d_play import group_layouts
from vision.synth.scene_b import make_setup_b, render_b_scene

BOARD = board_for("katenmuis")


@pytest.fixture(scope="module")
def scene() -> tuple[Any, Any]:
    # a 40 degree tilt through a barrel lens (k1 0.19): markers 40-50 px, blurred and noisy
    rng = np.random.default_rng(1)
    setup = make_setup_b(BOARD, rng)
    layout = group_layouts(BOARD, 1, rng, transient=True)[0]
    return render_b_scene(BOARD, layout, setup, rng), setup.camera


def _truth(cam: Any, marker_id: int) -> np.ndarray:
    m = next(m for m in BOARD.markers if m.id == marker_id)
    pts = np.column_stack([np.asarray(m.corners(), np.float64), np.zeros(4)])
    out: np.ndarray = cam.distort(cam.project(pts))
    return out


@pytest.mark.slow
def test_bits_read_from_each_cells_middle_find_the_markers(scene: tuple[Any, Any]) -> None:
    sc, cam = scene
    visible = sorted(sc.markers_visible)
    assert visible == [0, 1, 3]
    # the cause: OpenCV's default bit reading (4 px a cell, to the cell's edges) decodes one
    old = cv2.aruco.DetectorParameters()
    corners, ids, rejected = cv2.aruco.ArucoDetector(aruco_dictionary(BOARD.aruco), old).detectMarkers(
        cv2.cvtColor(sc.image, cv2.COLOR_BGR2GRAY))
    assert ids is not None and sorted(int(i) for i in ids.ravel() if int(i) in visible) == [1]
    seen = detect_markers(sc.image, BOARD)
    assert sorted(seen) == visible  # the middles of the cells: all three
    # at full size alone the whole frame shows two; the third is found where those two put it
    assert sorted(detect_markers(sc.image, BOARD, LocateConfig(detect_scale=1.0, guided=False))) == [0, 1]
    guided = detect_markers(sc.image, BOARD, LocateConfig(detect_scale=1.0))
    assert sorted(guided) == visible and float(np.abs(guided[3] - seen[3]).max()) < 1.5
    for i, c in seen.items():
        assert float(np.abs(c - _truth(cam, i)).max()) < 3.0, i
    pose = locate_board(sc.image, BOARD)
    assert pose.found and sorted(pose.used) == visible


@pytest.mark.slow
def test_a_covered_marker_is_not_invented(scene: tuple[Any, Any]) -> None:
    sc, cam = scene
    img = sc.image.copy()
    q = _truth(cam, 3)
    centre = q.mean(axis=0)
    cover = centre + (q - centre) * 1.3  # a grey card over marker 3 and its white rim
    cv2.fillConvexPoly(img, np.int32(np.round(cover)).reshape(-1, 1, 2), (150, 150, 150))
    assert sorted(detect_markers(img, BOARD)) == [0, 1]  # the guided look found nothing there
    pose = locate_board(img, BOARD)
    assert pose.found and sorted(pose.used) == [0, 1]
    blank = np.full((720, 1280, 3), 120, np.uint8)  # an empty table: nothing, no guided look
    assert detect_markers(blank, BOARD) == {}


@pytest.mark.slow
def test_a_blurred_frame_is_sharpened_when_too_few_markers_are_found() -> None:
    rng = np.random.default_rng(5)
    setup = make_setup_b(BOARD, rng)
    layout = group_layouts(BOARD, 1, rng, transient=True)[0]
    sc = render_b_scene(BOARD, layout, setup, rng)
    assert sorted(sc.markers_visible) == [0, 1, 2, 3]
    blurred = cv2.GaussianBlur(sc.image, (0, 0), 2.5)  # a camera out of focus
    assert detect_markers(blurred, BOARD, LocateConfig(sharpen=0)) == {}  # the board was not found
    pose = locate_board(blurred, BOARD)
    assert pose.found and len(pose.used) >= 1
    assert sorted(detect_markers(sc.image, BOARD)) == [0, 1, 2, 3]  # the sharp frame: all four


def test_an_id_seen_twice_in_one_pass_is_left_to_another_pass() -> None:
    square = np.float32([[0, 0], [40, 0], [40, 40], [0, 40]]).reshape(1, 4, 2)
    found: dict[int, np.ndarray] = {}
    ids = np.array([[17], [18], [17]])
    _take(found, {16, 17, 18, 19}, [square, square + 100, square + 300], ids, 0.5)
    assert sorted(found) == [18] and np.allclose(found[18], (square.reshape(4, 2) + 100) / 0.5)
    _take(found, {16, 17, 18, 19}, [square + 10, square + 20], np.array([[17], [18]]), better=True)
    assert np.allclose(found[17], square.reshape(4, 2) + 10) and np.allclose(found[18], square.reshape(4, 2) + 20)
    _take(found, {16, 17, 18, 19}, [square + 50, square], np.array([[16], [4]]))  # another board's id: not taken
    assert sorted(found) == [16, 17, 18]
