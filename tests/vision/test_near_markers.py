"""The full-size marker pass looks only around where the markers found at half size put the
board's markers (``vision.boardlocate._near_markers``, issue 31: no read slower): the same
markers at the same corners, to the bit, as on the whole frame, on a rendered cheap-camera scene
whose half-size pass misses one."""

from __future__ import annotations

import time
from typing import Any

import cv2
import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.boardlocate import LocateConfig, _detector, _near_markers, _take, as_gray, detect_markers
from vision.synth.board3d_play import group_layouts
from vision.synth.scene_b import make_setup_b, render_b_scene

BOARD = board_for("katenmuis")


@pytest.fixture(scope="module")
def scene() -> Any:
    # the scene of test_board_markers: a 40 degree tilt through a barrel lens, markers 40-50 px
    rng = np.random.default_rng(1)
    setup = make_setup_b(BOARD, rng)
    layout = group_layouts(BOARD, 1, rng, transient=True)[0]
    return render_b_scene(BOARD, layout, setup, rng)


def _half_size(gray: np.ndarray) -> dict[int, np.ndarray]:
    small = cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    corners, ids, _ = _detector(BOARD.aruco).detectMarkers(small)
    found: dict[int, np.ndarray] = {}
    _take(found, set(BOARD.marker_ids), corners, ids, 0.5)
    return found


@pytest.mark.slow
def test_full_size_pass_near_the_markers_finds_the_same_corners(scene: Any) -> None:
    gray = as_gray(scene.image)
    half = _half_size(gray)
    assert 2 <= len(half) < len(BOARD.markers)  # one hidden: the full-size pass runs, with a pose to look by
    near = _near_markers(gray, BOARD, half, LocateConfig())
    assert near is not gray and float(np.mean(near == gray)) < 0.5  # most of the frame left out
    det = _detector(BOARD.aruco)
    whole = detect_markers(scene.image, BOARD, LocateConfig(near_margin=None))
    looked = detect_markers(scene.image, BOARD)
    assert sorted(looked) == sorted(whole) == sorted(scene.markers_visible)
    for i in whole:
        assert np.array_equal(looked[i], whole[i]), i
    # and that pass alone: the board's markers at the same corners as on the whole frame
    c_whole, ids_whole, _ = det.detectMarkers(gray)
    c_near, ids_near, _ = det.detectMarkers(near)
    mine = set(BOARD.marker_ids)
    a = {int(i): np.asarray(c) for c, i in zip(c_whole, ids_whole.ravel()) if int(i) in mine}
    b = {int(i): np.asarray(c) for c, i in zip(c_near, ids_near.ravel()) if int(i) in mine}
    assert sorted(a) == sorted(b) and all(np.array_equal(a[i], b[i]) for i in a)
    spent = []
    for img in (gray, near, gray, near, gray, near):
        t0 = time.process_time()
        det.detectMarkers(img)
        spent.append(time.process_time() - t0)
    assert min(spent[1::2]) < min(spent[0::2])  # and it is the cheaper pass


def test_no_pose_to_look_by_means_the_whole_frame() -> None:
    gray = np.full((240, 320), 200, np.uint8)
    one = {BOARD.markers[0].id: np.array([[10, 10], [40, 10], [40, 40], [10, 40]], np.float64)}
    assert _near_markers(gray, BOARD, one, LocateConfig()) is gray  # one marker fixes no pose
    assert _near_markers(gray, BOARD, {}, LocateConfig()) is gray
    two = {**one, BOARD.markers[1].id: np.array([[300, 10], [330, 10], [330, 40], [300, 40]], np.float64)}
    assert _near_markers(gray, BOARD, two, LocateConfig(near_margin=None)) is gray  # switched off
