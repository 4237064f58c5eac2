"""A frame in which only some markers are found is read under the learned photo's pose when the
markers found lie where that pose puts them (``vision.stillpose.agreed_pose``, hooked into
``BoardReader.read``; docs/readme/board.md, session 26 qpose). Two markers on one side of the
board fix its far side only to several pixels through a strong barrel lens; the start photo's pose
was fitted to all four (with the lens). A camera that moved, a frame with every marker, or a
model without a learned pose keep the frame's own pose."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.boardlocate import BoardPose, LocateConfig, fit_pose
from vision.stillpose import agreed_pose, pose_record
from vision.synth.scene_b import CameraB, camera_b

BOARD = board_for("qubism")
LENS = (0.18, 0.02, 0.0, 0.0)
"""A strong barrel lens of the second 3-D family (k1, k2)."""


@pytest.fixture(scope="module")
def cam() -> CameraB:
    return dataclasses.replace(camera_b(BOARD, np.random.default_rng(33), 40.0), k=LENS)  # 36 degrees, 1280x720


def _seen(cam: CameraB, pts_mm: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts_mm, np.float64).reshape(-1, 2)
    return cam.distort(cam.project(np.column_stack([pts, np.zeros(len(pts))])))


def _corners(cam: CameraB, shift: tuple[float, float] = (0.0, 0.0)) -> dict[int, np.ndarray]:
    return {m.id: _seen(cam, np.asarray(m.corners())) + shift for m in BOARD.markers}


def _worst_square_px(pose: BoardPose, cam: CameraB) -> float:
    centres = np.array([sq.centre for sq in BOARD.squares.values()], np.float64)
    return float(np.linalg.norm(pose.project(centres) - _seen(cam, centres), axis=1).max())


def _reader(cam: CameraB, still: bool = True) -> SimpleNamespace:
    """What ``agreed_pose`` reads of a ``BoardReader`` learned on a photo with every marker."""
    learned = fit_pose(BOARD, _corners(cam), image_size=(cam.w, cam.h))
    assert learned.found and len(learned.used) == len(BOARD.markers)
    return SimpleNamespace(tracker=SimpleNamespace(board=BOARD), config=SimpleNamespace(locate=LocateConfig()),
                           model=SimpleNamespace(still_pose=pose_record(learned, 0.6) if still else []))


def _one_side(cam: CameraB, shift: tuple[float, float] = (0.0, 0.0)) -> BoardPose:
    """The frame's own pose from the two markers nearest each other (one side of the board)."""
    seen = _corners(cam, shift)
    ids = sorted(seen)
    centre = {i: seen[i].mean(axis=0) for i in ids}
    a, b = min(((i, j) for i in ids for j in ids if i < j),
               key=lambda p: float(np.linalg.norm(centre[p[0]] - centre[p[1]])))
    pose = fit_pose(BOARD, {a: seen[a], b: seen[b]}, image_size=(cam.w, cam.h))
    assert pose.found and len(pose.used) == 2
    return pose


def test_two_markers_alone_put_the_far_squares_off(cam: CameraB) -> None:
    assert _worst_square_px(_one_side(cam), cam) > 8.0  # the cause: a side's pose through the lens


def test_the_learned_pose_is_taken_where_the_markers_found_agree(cam: CameraB) -> None:
    pose = _one_side(cam)
    got = agreed_pose(_reader(cam), pose)
    assert got.kept and got.used == pose.used and got.markers == pose.markers
    assert _worst_square_px(got, cam) < 0.45 * _worst_square_px(pose, cam)  # 10.3 -> 3.7 px


def test_a_camera_moved_by_more_than_the_trackers_reach_keeps_its_own_pose(cam: CameraB) -> None:
    step = LocateConfig().moved_px + 2.0
    for shift in ((step, 0.0), (0.0, -step)):
        pose = _one_side(cam, shift)
        assert agreed_pose(_reader(cam), pose) is pose, shift
    near = _one_side(cam, (2.0, 0.0))  # a couple of pixels: the tracker's rule keeps the old pose too
    assert agreed_pose(_reader(cam), near).kept


def test_every_marker_found_or_nothing_learned_keeps_the_frames_pose(cam: CameraB) -> None:
    every = fit_pose(BOARD, _corners(cam), image_size=(cam.w, cam.h))
    assert agreed_pose(_reader(cam), every) is every
    pose = _one_side(cam)
    assert agreed_pose(_reader(cam, still=False), pose) is pose


def test_a_one_marker_pose_is_replaced_too(cam: CameraB) -> None:
    seen = _corners(cam)
    first = min(seen)
    pose = fit_pose(BOARD, {first: seen[first]})
    got = agreed_pose(_reader(cam), pose)
    assert got.kept and _worst_square_px(got, cam) < 0.45 * _worst_square_px(pose, cam)
    assert cv2.norm(got.homography - pose.homography) > 0  # not the marker's own pose
