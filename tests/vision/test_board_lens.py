"""A board seen through a cheap wide webcam's barrel distortion (issue 31): every marker is
detected, no homography fits their corners within ``max_error_px``, and the locator still finds
the board by fitting one radial distortion coefficient with the homography."""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.boardlocate import BoardTracker, LocateConfig, fit_pose, locate_board
from vision.synth.board3d_play import group_layouts
from vision.synth.scene_b import CameraB, camera_b, make_setup_b, render_b_scene

BOARD = board_for("kilkenny")
LENS = (0.22, 0.05, 0.0, 0.0)
"""The second 3-D family's strongest barrel distortion (k1, k2)."""


def _camera(seed: int = 47) -> CameraB:
    # a 78 degree, 1280x960 webcam 11 degrees off the vertical, board filling the frame
    return dataclasses.replace(camera_b(BOARD, np.random.default_rng(seed), 15.0), k=LENS)


def _seen_through(cam: CameraB, pts_mm: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts_mm, np.float64).reshape(-1, 2)
    return cam.distort(cam.project(np.column_stack([pts, np.zeros(len(pts))])))


def _corners(cam: CameraB) -> dict[int, np.ndarray]:
    return {m.id: _seen_through(cam, np.asarray(m.corners())) for m in BOARD.markers}


def _worst_square_px(h: np.ndarray, cam: CameraB) -> float:
    centres = np.array([sq.centre for sq in BOARD.squares.values()], np.float64)
    got = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), h).reshape(-1, 2)
    return float(np.abs(got - _seen_through(cam, centres)).max())


@pytest.fixture(scope="module")
def scene() -> tuple[Any, CameraB]:
    rng = np.random.default_rng(47)
    setup = make_setup_b(BOARD, rng, 15.0)
    setup.camera = _camera()
    layout = group_layouts(BOARD, 1, rng, transient=False)[0]
    return render_b_scene(BOARD, layout, setup, rng), setup.camera


def test_a_rendered_board_under_barrel_distortion_is_found(scene: tuple[Any, CameraB]) -> None:
    sc, cam = scene
    pose = locate_board(sc.image, BOARD)
    assert sorted(pose.markers) == [8, 9, 10, 11]
    plain = fit_pose(BOARD, pose.corners)  # without the image's size: no lens is tried
    assert not plain.found and plain.error_px > LocateConfig().max_error_px  # the cause
    assert pose.found and sorted(pose.used) == [8, 9, 10, 11]
    assert pose.error_px < 2.0 and pose.confidence > 0.5
    assert plain.homography is not None and pose.homography is not None
    # squares lie closer to where the lens shows them than the markers' plain homography puts them
    assert _worst_square_px(pose.homography, cam) < 6.0 < _worst_square_px(plain.homography, cam)
    tracked = BoardTracker(BOARD).update(sc.image)
    assert tracked.found and not tracked.kept


def test_exact_distorted_corners_fit_the_lens_model() -> None:
    cam = _camera()
    size = (cam.w, cam.h)
    seen = _corners(cam)
    assert not fit_pose(BOARD, seen).found
    pose = fit_pose(BOARD, seen, None, size)
    assert pose.found and pose.error_px < 0.5 and len(pose.used) == 4
    # an undistorted view is still fitted by the homography alone, as before
    pin = dataclasses.replace(cam, k=(0.0, 0.0, 0.0, 0.0))
    straight = fit_pose(BOARD, _corners(pin), None, size)
    assert straight.found and straight.error_px < 0.1


def test_a_lens_does_not_excuse_a_bad_marker() -> None:
    cam = _camera()
    size = (cam.w, cam.h)
    seen = _corners(cam)
    bent = dict(seen)
    off = np.array([[0.0, 0.0], [0.0, 0.0], [20.0, -20.0], [0.0, 0.0]])
    bent[9] = seen[9] + off  # a corner off (a finger over it): that marker is left out
    pose = fit_pose(BOARD, bent, None, size)
    assert pose.found and pose.used == (8, 10, 11) and pose.error_px < 0.5
    bent[11] = seen[11] - off  # two of four bent: no lens explains the rest
    assert not fit_pose(BOARD, bent, None, size).found
    moved = dict(seen)
    moved[9] = seen[9] + np.array([45.0, -40.0])  # a whole marker elsewhere: left out, as before
    pose = fit_pose(BOARD, moved, None, size)
    assert pose.found and pose.used == (8, 10, 11) and pose.markers == (8, 9, 10, 11)
    assert pose.error_px < 0.5
    # the homography alone keeps the wrong marker: under the lens the three right ones do not
    # agree within RANSAC's tolerance, and two markers (one of them the moved one) do
    assert 9 in fit_pose(BOARD, moved).used


def test_the_tracker_follows_a_distorted_board_through_a_hidden_marker() -> None:
    cam = _camera()
    size = (cam.w, cam.h)
    seen = _corners(cam)
    tracker = BoardTracker(BOARD)
    assert tracker.update_with(seen, size).found
    three = {i: c for i, c in seen.items() if i != 10}  # a hand over one marker
    pose = tracker.update_with(three, size)
    assert pose.found and pose.used == (8, 9, 11) and pose.homography is not None
    assert _worst_square_px(pose.homography, cam) < 6.0
