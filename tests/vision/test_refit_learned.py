"""A learned pose from a start photo that found only two markers is replaced by a later frame's
pose fitted on every marker, where the start photo's markers lie where they were
(``vision.stillpose.refit_learned``, hooked into ``BoardReader.read``; docs/readme/board.md,
session 26 qpose2): a two-marker frame after it is then read under the whole board's pose. A
camera that moved, a later frame of three markers, or a start photo of every marker keep the
learned pose."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.boardlocate import BoardPose, LocateConfig, fit_pose
from vision.stillpose import agreed_pose, pose_from_record, pose_record, refit_learned
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


def _side(cam: CameraB, shift: tuple[float, float] = (0.0, 0.0)) -> tuple[int, int]:
    seen = _corners(cam, shift)
    centre = {i: seen[i].mean(axis=0) for i in seen}
    return min(((i, j) for i in seen for j in seen if i < j),
               key=lambda p: float(np.linalg.norm(centre[p[0]] - centre[p[1]])))


def _pose(cam: CameraB, ids: tuple[int, ...], shift: tuple[float, float] = (0.0, 0.0)) -> BoardPose:
    seen = _corners(cam, shift)
    pose = fit_pose(BOARD, {i: seen[i] for i in ids}, image_size=(cam.w, cam.h))
    assert pose.found and len(pose.used) == len(ids)
    return pose


def _reader(cam: CameraB, learned: BoardPose) -> SimpleNamespace:
    """What ``refit_learned`` and ``agreed_pose`` read of a ``BoardReader`` learned on ``learned``."""
    return SimpleNamespace(tracker=SimpleNamespace(board=BOARD), config=SimpleNamespace(locate=LocateConfig()),
                           model=SimpleNamespace(still_pose=pose_record(learned, 0.6)),
                           learned_markers=tuple(learned.used), _print_poses={})


def _gray(cam: CameraB) -> np.ndarray:
    return np.full((cam.h, cam.w), 128, np.uint8)


def test_a_later_frame_of_every_marker_replaces_a_two_marker_start(cam: CameraB) -> None:
    side = _side(cam)
    reader = _reader(cam, _pose(cam, side))
    start = pose_from_record(reader.model.still_pose)
    assert start is not None and _worst_square_px(start[0], cam) > 8.0  # the cause: a side's pose
    every = _pose(cam, tuple(m.id for m in BOARD.markers))
    assert refit_learned(reader, _gray(cam), every)
    assert reader.learned_markers == every.used
    now = pose_from_record(reader.model.still_pose)
    assert now is not None and _worst_square_px(now[0], cam) < 0.45 * _worst_square_px(start[0], cam)
    later = agreed_pose(reader, _pose(cam, side))  # the next two-marker frame: the whole board's pose
    assert later.kept and _worst_square_px(later, cam) < 0.45 * _worst_square_px(start[0], cam)


def test_a_camera_moved_keeps_the_learned_pose(cam: CameraB) -> None:
    side = _side(cam)
    step = LocateConfig().moved_px + 2.0
    for shift in ((step, 0.0), (0.0, -step)):
        reader = _reader(cam, _pose(cam, side))
        before = list(reader.model.still_pose)
        assert not refit_learned(reader, _gray(cam), _pose(cam, tuple(m.id for m in BOARD.markers), shift))
        assert reader.model.still_pose == before and reader.learned_markers == side


def test_three_markers_later_or_every_marker_at_the_start_keep_it(cam: CameraB) -> None:
    ids = tuple(m.id for m in BOARD.markers)
    side = _side(cam)
    reader = _reader(cam, _pose(cam, side))
    three = tuple(i for i in ids if i != next(i for i in ids if i not in side))
    assert not refit_learned(reader, _gray(cam), _pose(cam, three))
    full = _reader(cam, _pose(cam, ids))
    before = list(full.model.still_pose)
    assert not refit_learned(full, _gray(cam), _pose(cam, ids))
    assert full.model.still_pose == before
    unknown = _reader(cam, _pose(cam, side))
    unknown.learned_markers = ()  # a saved model: the start photo's markers are not known
    assert not refit_learned(unknown, _gray(cam), _pose(cam, ids))
