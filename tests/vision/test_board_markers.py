"""Markers of a board seen by a cheap camera (issue 31, the second 3-D family): blurred, noisy,
small and slanted markers whose outline is found but whose bits the detector read wrong, and a
marker no whole-frame pass decodes, found where the others' pose puts it."""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.boardlocate import LocateConfig, _guided, _take, detect_markers, fit_pose, locate_board
from vision.markerlook import verified
from vision.printing import aruco_dictionary
from vision.synth.board3d_play import group_layouts
from vision.synth.scene_b import camera_b, make_setup_b, render_b_scene

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


# --- the guided look by the marker's print (issue 31, session 18) -------------------------------


def _scene_b(game: str, seed: int, hand: bool) -> tuple[Any, Any, Any]:
    board = board_for(game)
    rng = np.random.default_rng(seed)
    setup = make_setup_b(board, rng, 45.0)
    layout = group_layouts(board, 1, rng, transient=True)[0]
    return render_b_scene(board, layout, setup, rng, hand=hand), setup.camera, board


def _truth_on(board: Any, cam: Any, marker_id: int) -> np.ndarray:
    m = next(m for m in board.markers if m.id == marker_id)
    out: np.ndarray = cam.distort(cam.project(np.column_stack([np.asarray(m.corners(), np.float64), np.zeros(4)])))
    return out


def _off(seen: dict[int, np.ndarray], board: Any, cam: Any) -> dict[int, float]:
    return {i: float(np.abs(c - _truth_on(board, cam, i)).max()) for i, c in seen.items()}


@pytest.mark.slow
def test_a_steep_marker_the_detector_cannot_close_is_found_by_its_print() -> None:
    # Qubism at 41 degrees: marker 17 is in view but no pass decodes it; its print, slid and
    # aligned where the others' pose puts it, is there, the corners within 3.5 px of where the
    # lens shows them. Marker 18, partly out of the picture, is not taken.
    sc, cam, board = _scene_b("qubism", 108, hand=False)
    assert sorted(sc.markers_visible) == [16, 17, 19]
    assert sorted(detect_markers(sc.image, board, LocateConfig(guided=False))) == [16, 19]
    seen = detect_markers(sc.image, board)
    assert sorted(seen) == [16, 17, 19]
    assert max(_off(seen, board, cam).values()) < 3.5
    pose = locate_board(sc.image, board)
    assert pose.found and sorted(pose.used) == [16, 17, 19]


@pytest.mark.slow
def test_a_marker_with_a_hand_over_its_corner_is_found_where_it_is() -> None:
    sc, cam, board = _scene_b("katenmuis", 107, hand=True)
    assert sorted(sc.markers_visible) == [1, 2, 3] and sc.markers_hidden == [0]  # under the hand
    seen = detect_markers(sc.image, board)
    assert sorted(seen) == [0, 1, 2, 3]
    assert max(_off(seen, board, cam).values()) < 2.5


def _dark_table_at(img: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The frame with the table past the paper's edge dark against two sides of the marker."""
    c = q.mean(axis=0)
    out = c + (q - c) * 1.6
    mask = np.zeros(img.shape[:2], np.uint8)
    for poly in ([out[0], out[1], q[1], q[0]], [out[0], q[0], q[3], out[3]]):
        cv2.fillConvexPoly(mask, np.int32(np.round(np.array(poly))), 255)
    res = img.copy()
    res[mask > 0] = (res[mask > 0] * 0.15).astype(np.uint8)
    return res


def _shadow_over(img: np.ndarray, q: np.ndarray) -> np.ndarray:
    """A soft shadow (a quarter of the light) over half the marker, its edge across the bits."""
    c = q.mean(axis=0)
    along = (q[1] - q[0]) / np.linalg.norm(q[1] - q[0])
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    d = (xx - c[0]) * along[0] + (yy - c[1]) * along[1]
    light = np.clip(0.5 + d / 6.0, 0, 1) * 0.75 + 0.25
    out: np.ndarray = (img.astype(np.float32) * light[..., None].astype(np.float32)).astype(np.uint8)
    return out


def _glare_on(img: np.ndarray, q: np.ndarray) -> np.ndarray:
    """A lamp's glare on glossy paper: a bright spot over the marker, its black cells grey."""
    c = q.mean(axis=0)
    side = float(np.linalg.norm(q[1] - q[0]))
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    spot = 180.0 * np.exp(-((xx - c[0] - 0.2 * side) ** 2 + (yy - c[1]) ** 2) / (2 * (0.35 * side) ** 2))
    out: np.ndarray = np.clip(img.astype(np.float32) + spot[..., None], 0, 255).astype(np.uint8)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("what, marker", [("dark table", 3), ("dark table", 0), ("shadow", 0), ("glare", 0),
                                          ("glare", 1)])
def test_a_marker_without_a_closed_outline_shaded_or_glared_across_is_found(scene: tuple[Any, Any], what: str,
                                                                             marker: int) -> None:
    sc, cam = scene
    q = _truth(cam, marker)
    img = {"dark table": _dark_table_at, "shadow": _shadow_over, "glare": _glare_on}[what](sc.image, q)
    others = sorted(i for i in sc.markers_visible if i != marker)
    assert sorted(detect_markers(img, BOARD, LocateConfig(guided=False))) == others  # the cause
    seen = detect_markers(img, BOARD)
    assert sorted(seen) == sorted(sc.markers_visible)
    assert float(np.abs(seen[marker] - q).max()) < 2.5


def test_a_quad_is_taken_only_for_the_expected_marker_the_right_way_round() -> None:
    d = aruco_dictionary(BOARD.aruco)
    mark = cv2.aruco.generateImageMarker(d, 3, 60)
    view = cv2.copyMakeBorder(mark, 30, 30, 30, 30, cv2.BORDER_CONSTANT, value=230).astype(np.float32)
    view *= np.linspace(0.2, 1.0, view.shape[1], dtype=np.float32)[None, :]  # dark on the left
    img = view.astype(np.uint8)
    quad = np.array([[29.5, 29.5], [89.5, 29.5], [89.5, 89.5], [29.5, 89.5]])
    assert verified(img, quad, 3, d)
    assert not verified(img, quad, 2, d) and not verified(img, quad, 4, d)
    assert not any(verified(img, np.roll(quad, r, axis=0), 3, d) for r in (1, 2, 3))  # turned
    blank = np.full_like(img, 128)
    assert not verified(blank, quad, 3, d)


@pytest.mark.slow
def test_the_guided_look_goes_through_the_poses_lens() -> None:
    # a webcam's barrel lens (k1 0.22): the three markers' pose has the lens; the fourth is cut,
    # found and taken back to the frame through it (the homography alone is 20 px off there)
    board = board_for("kilkenny")
    rng = np.random.default_rng(47)
    setup = make_setup_b(board, rng, 15.0)
    setup.camera = dataclasses.replace(camera_b(board, np.random.default_rng(47), 15.0), k=(0.22, 0.05, 0.0, 0.0))
    layout = group_layouts(board, 1, rng, transient=False)[0]
    img = render_b_scene(board, layout, setup, rng).image
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    three = {i: c for i, c in detect_markers(img, board).items() if i != 8}
    pose = fit_pose(board, three, None, (img.shape[1], img.shape[0]))
    assert pose.lens is not None and sorted(pose.used) == [9, 10, 11]
    truth = _truth_on(board, setup.camera, 8)
    m8 = np.array(next(m for m in board.markers if m.id == 8).corners(), np.float64)
    assert float(np.abs(pose.to_pixels(m8) - truth).max()) > 15  # the homography closest to the lens
    got = _guided(gray, board, three, LocateConfig())
    assert sorted(got) == [8] and float(np.abs(got[8] - truth).max()) < 2.5
