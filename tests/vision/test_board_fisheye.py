"""Every marker found and fitted by a homography within ``max_error_px``, yet seen through a wide
(fisheye) lens: the pose is taken through the one-coefficient lens where that explains the markers
much better (``LocateConfig.lens_gain``; docs/readme/board.md, session 26 qpose2). The third 3-D
family's wide lenses put a homography's squares 2-3 mm off (dev 4252 groups 1 and 5, whose cubes
read empty most); a normal lens, its corners as noisy as detected ones, keeps the homography."""

from __future__ import annotations

import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.boardlocate import BoardPose, LocateConfig, fit_pose
from vision.synth.scene_c_camera import CameraC, camera_c

BOARD = board_for("qubism")
WIDE = (9, 14, 22)
"""Seeds of ``camera_c`` drawing a wide lens (a 0.58-0.65), 1280x720."""
NORMAL = (4, 12, 20)
"""... and a normal one (a 0.01-0.08)."""
NOISE_PX = 0.5
"""Detected corners' noise (the dev sets' normal-lens homographies fit within 0.3-0.9 px)."""


def _cam(seed: int) -> CameraC:
    return camera_c(BOARD, np.random.default_rng(seed), 40.0, frame=(1280, 720))


def _seen(cam: CameraC, pts_mm: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts_mm, np.float64).reshape(-1, 2)
    return cam.distort(cam.project(np.column_stack([pts, np.zeros(len(pts))])))


def _corners(cam: CameraC, seed: int) -> dict[int, np.ndarray]:
    rng = np.random.default_rng(seed + 1000)
    return {m.id: _seen(cam, np.asarray(m.corners())) + rng.normal(0, NOISE_PX, (4, 2)) for m in BOARD.markers}


def _worst_square_px(pose: BoardPose, cam: CameraC) -> float:
    centres = np.array([sq.centre for sq in BOARD.squares.values()], np.float64)
    return float(np.linalg.norm(pose.project(centres) - _seen(cam, centres), axis=1).max())


@pytest.mark.parametrize("seed", WIDE)
def test_a_wide_lens_is_fitted_although_a_homography_fits_within_max_error(seed: int) -> None:
    cam = _cam(seed)
    assert cam.a > 0.5
    seen = _corners(cam, seed)
    flat = fit_pose(BOARD, seen, LocateConfig(lens_gain=0.0), (cam.w, cam.h))
    assert flat.found and flat.lens is None and flat.error_px <= LocateConfig().max_error_px  # the cause
    pose = fit_pose(BOARD, seen, LocateConfig(), (cam.w, cam.h))
    assert pose.found and pose.lens is not None and pose.used == flat.used
    assert pose.error_px <= 0.5 * flat.error_px
    assert _worst_square_px(pose, cam) < 0.5 * _worst_square_px(flat, cam)


@pytest.mark.parametrize("seed", NORMAL)
def test_a_normal_lens_keeps_the_homography(seed: int) -> None:
    cam = _cam(seed)
    assert cam.a < 0.1
    seen = _corners(cam, seed)
    pose = fit_pose(BOARD, seen, LocateConfig(), (cam.w, cam.h))
    assert pose.found and pose.lens is None


def test_three_markers_keep_the_homography() -> None:
    cam = _cam(WIDE[0])
    seen = _corners(cam, WIDE[0])
    three = {i: seen[i] for i in sorted(seen)[:3]}
    pose = fit_pose(BOARD, three, LocateConfig(), (cam.w, cam.h))
    assert pose.found and pose.lens is None  # (three markers span less: a lens fitted to them misled on dev 3250)
