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


def _sampled_at(reader: Any, pose: Any, pts_mm: np.ndarray, size: tuple[int, int],
                lift: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Where the reader's top-down view takes its pixels from near board points ``pts_mm``
    (and the board mm those view pixels show): the view of an image whose pixels hold their
    own coordinates."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    coords = np.dstack([xs, ys, np.zeros_like(xs)])
    view = reader.warp(coords, pose, lift)
    s = reader.config.px_per_mm
    at = np.round(np.asarray(pts_mm) * s).astype(int)  # view pixel (x, y) shows board mm (x, y) / s
    centre_mm = at / s
    return view[at[:, 1], at[:, 0], :2], centre_mm


def test_squares_are_cut_through_the_lens(scene: tuple[Any, CameraB]) -> None:
    from vision.pieces import BoardReader

    sc, cam = scene
    pose = locate_board(sc.image, BOARD)
    assert pose.found and pose.lens is not None and pose.pinhole is not None and pose.lens.k < 0  # barrel
    reader = BoardReader(BOARD)
    corners = np.array([p for sq in BOARD.squares.values() for p in sq.polygon], np.float64)
    got, at_mm = _sampled_at(reader, pose, corners, (cam.w, cam.h))
    truth = _seen_through(cam, at_mm)
    assert pose.homography is not None
    by_homography = cv2.perspectiveTransform(at_mm.reshape(-1, 1, 2), pose.homography).reshape(-1, 2)
    # the homography alone is 5 px off at the board's corners, through the lens about 2 (the
    # lens model's own remainder: one coefficient about the frame's middle, fitted on markers)
    plain_px, lens_px = float(np.abs(by_homography - truth).max()), float(np.abs(got - truth).max())
    assert plain_px > 4.5 and lens_px < 2.5 and lens_px < 0.5 * plain_px
    assert float(np.abs(got - truth).mean()) < 0.6 * float(np.abs(by_homography - truth).mean())
    assert np.allclose(got, pose.project(at_mm), atol=0.05)
    # the raised plane (figures' tops) and a cube's top are cut through the lens too
    lift = reader._lift(pose, (cam.w, cam.h), 20.0)
    raised, at_mm = _sampled_at(reader, pose, corners, (cam.w, cam.h), lift)
    lifted = cv2.perspectiveTransform(at_mm.reshape(-1, 1, 2), lift).reshape(-1, 2)
    assert np.allclose(raised, pose.project(lifted), atol=0.05)
    i = 5
    top = reader.cube_top(sc.image, pose, i)
    x0, y0, x1, y1 = reader.boxes[i]
    s = reader.config.px_per_mm
    lift = reader._lift(pose, (cam.w, cam.h), reader.config.cube_top * reader.cell_mm)
    mid = np.float64([[(x0 + x1) / 2 / s, (y0 + y1) / 2 / s]])
    cx, cy = pose.project(cv2.perspectiveTransform(mid.reshape(-1, 1, 2), lift).reshape(1, 2))[0]
    seen_there = float(sc.image[int(round(cy)), int(round(cx))].mean()) / 255
    assert abs(float(top[top.shape[0] // 2, top.shape[1] // 2]) - seen_there) < 0.15
    # Qubism's cube tops (one remap of many crops): the same points through the lens
    from vision.qubism_read import top_crops

    coords = np.dstack([*np.mgrid[0:cam.h, 0:cam.w][::-1].astype(np.float32), np.zeros((cam.h, cam.w), np.float32)])
    h, lens = pose.sampling()
    crops = top_crops(coords, h @ lift, mid, reader.cell_mm, lens=lens)  # grey: (x + y) / 3 / 255
    u = ((np.arange(crops.shape[1]) + 0.5) / crops.shape[1] - 0.5) * reader.cell_mm
    gx, gy = np.meshgrid(mid[0, 0] + u, mid[0, 1] + u)
    where = pose.project(cv2.perspectiveTransform(np.column_stack([gx.ravel(), gy.ravel()]).reshape(-1, 1, 2), lift))
    assert np.allclose(crops[0].ravel(), where.sum(axis=1) / 3 / 255, atol=0.1 / 765)


def test_a_pose_without_a_lens_is_cut_as_before() -> None:
    from vision.pieces import BoardReader

    cam = dataclasses.replace(_camera(), k=(0.0, 0.0, 0.0, 0.0))
    pose = fit_pose(BOARD, _corners(cam), None, (cam.w, cam.h))
    assert pose.found and pose.lens is None and pose.homography is not None
    img = np.random.default_rng(1).integers(0, 255, (cam.h, cam.w, 3), dtype=np.uint8)
    reader = BoardReader(BOARD)
    s = reader.config.px_per_mm
    plain = cv2.warpPerspective(img, pose.homography @ np.diag([1 / s, 1 / s, 1.0]), reader.size,
                                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    assert np.array_equal(reader.warp(img, pose), plain)


def test_the_lens_maps_match_the_lens_point_by_point() -> None:
    from vision.lens import Lens, lens_maps

    lens = Lens(-0.45, 630.0, 470.0, 1280.0)
    pts = np.random.default_rng(2).uniform([0, 0], [1280, 960], (200, 2))
    assert np.allclose(lens.undistort(lens.distort(pts)), pts, atol=1e-6)
    assert float(np.abs(lens.distort(pts) - pts).max()) > 20  # a strong barrel
    to_pinhole = np.array([[2.1, 0.3, 100.0], [-0.2, 1.9, 60.0], [1e-4, -2e-4, 1.0]])
    mx, my = lens_maps(to_pinhole, lens, (333, 211))
    ys, xs = np.mgrid[0:211, 0:333].astype(np.float64)
    exact = lens.distort(cv2.perspectiveTransform(np.column_stack([xs.ravel(), ys.ravel()]).reshape(-1, 1, 2),
                                                  to_pinhole).reshape(-1, 2))
    assert mx.shape == (211, 333) and float(np.abs(mx.ravel() - exact[:, 0]).max()) < 0.02
    assert float(np.abs(my.ravel() - exact[:, 1]).max()) < 0.02
