"""The camera that places raised planes (``SpotFeatures._lift``) is pooled over the views of a
camera that has not moved since the learned photo (``vision.stillcam.CameraPool``;
docs/readme/board.md, session 27 qcam2): one frame's homography gives the camera's height only to
a few per cent (its focal length jumps with the markers' pixel noise), the pool of a still camera's
frames settles near the truth. A camera that moved, or no learned photo, keeps each frame's own."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import numpy as np

from vision.boarddefaults import board_for
from vision.boardlocate import (BoardPose, LocateConfig, camera_from_homography, fit_pose, focal_equations,
                                pooled_focal)
from vision.piece_config import PieceConfig
from vision.stillcam import CameraPool
from vision.stillpose import pose_record
from vision.synth.scene_b import camera_b

BOARD = board_for("qubism")
_CAM0 = camera_b(BOARD, np.random.default_rng(33), 20.0)
CAM = dataclasses.replace(_CAM0, k=(0.0, 0.0, 0.0, 0.0), cx=_CAM0.w / 2, cy=_CAM0.h / 2)  # an 18 degree tilt
SIZE = (CAM.w, CAM.h)
NOISE_PX = 0.6
"""The markers' corners as ArUco finds them: a fraction of a pixel off."""


def _pose(rng: np.random.Generator, shift: tuple[float, float] = (0.0, 0.0)) -> BoardPose:
    corners = {m.id: CAM.project(np.column_stack([np.asarray(m.corners(), np.float64), np.zeros(4)]))
               + rng.normal(0, NOISE_PX, (4, 2)) + shift for m in BOARD.markers}
    pose = fit_pose(BOARD, corners, image_size=SIZE)
    assert pose.found and len(pose.used) == len(BOARD.markers)
    return pose


def _reader(learned: BoardPose | None) -> SimpleNamespace:
    return SimpleNamespace(tracker=SimpleNamespace(board=BOARD), config=SimpleNamespace(locate=LocateConfig()),
                           model=SimpleNamespace(still_pose=pose_record(learned, 0.6) if learned else []))


def test_a_still_cameras_height_settles_near_the_truth() -> None:
    rng = np.random.default_rng(1)
    reader, pool = _reader(_pose(rng)), CameraPool()
    truth = float(CAM.C[2])
    own, pooled = [], []
    for _ in range(10):
        pose = _pose(rng)
        own.append(camera_from_homography(pose.sampling()[0], SIZE).height)
        pooled.append(pool.camera(reader, pose, SIZE).height)
    worst_own = max(abs(h - truth) for h in own)
    assert worst_own > 15.0  # one frame's camera jumps by centimetres (measured 23 mm here)
    assert max(abs(h - truth) for h in pooled[-5:]) < 0.4 * worst_own
    assert np.ptp(pooled[-5:]) < 0.4 * np.ptp(own[-5:])


def test_a_moved_camera_or_no_learned_photo_keeps_the_frames_camera() -> None:
    rng = np.random.default_rng(2)
    step = LocateConfig().moved_px + 2.0
    moved = _pose(rng, (step, 0.0))
    own = camera_from_homography(moved.sampling()[0], SIZE)
    assert CameraPool().camera(_reader(_pose(rng)), moved, SIZE) == own
    near = _pose(rng)
    assert CameraPool().camera(_reader(None), near, SIZE) == camera_from_homography(near.sampling()[0], SIZE)


def test_one_views_pooled_focal_is_the_frames_own() -> None:
    pose = _pose(np.random.default_rng(3))
    h = pose.sampling()[0]
    assert np.isclose(pooled_focal([focal_equations(h, SIZE)], SIZE[0], float(SIZE[0])),
                      camera_from_homography(h, SIZE).focal_px)


def test_the_lift_is_pooled_for_qubism_only() -> None:
    assert PieceConfig().pooled_lift == ("qubism",)
