"""Board location: homography from the markers, a lost-then-found marker, a moved board."""

from __future__ import annotations

import cv2
import numpy as np

from vision.boarddefaults import default_board
from vision.boardlocate import BoardTracker, locate_board
from vision.printing import render_board

BOARD = default_board("chopchop")


def _view(shift: tuple[float, float] = (0.0, 0.0), hide: tuple[int, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """The board rendered and seen by a slightly tilted camera; some markers painted over."""
    art = render_board(BOARD, 3.0)
    h, w = art.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[180, 90], [1110, 60], [1180, 650], [120, 690]]) + np.float32(shift)
    hp = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(art, hp, (1280, 720), borderValue=(90, 110, 130))
    h_mm = hp @ np.diag([3.0, 3.0, 1.0])
    for m in BOARD.markers:
        if m.id in hide:
            pts = cv2.perspectiveTransform(np.float64(m.corners()).reshape(-1, 1, 2), h_mm)
            cv2.fillConvexPoly(img, np.int32(pts.reshape(-1, 2)).reshape(-1, 1, 2), (60, 90, 170))
    return img, h_mm


def _err(pose_h: np.ndarray, truth: np.ndarray) -> float:
    pts = np.float64([sq.centre for sq in BOARD.squares.values()]).reshape(-1, 1, 2)
    a = cv2.perspectiveTransform(pts, pose_h)
    b = cv2.perspectiveTransform(pts, truth)
    return float(np.abs(a - b).max())


def test_all_markers_give_an_accurate_pose() -> None:
    img, truth = _view()
    pose = locate_board(img, BOARD)
    assert pose.found and sorted(pose.used) == [4, 5, 6, 7]
    assert pose.error_px < 1.0 and pose.confidence > 0.8
    assert _err(pose.homography, truth) < 1.5


def test_one_or_two_hidden_markers_still_found() -> None:
    for hide in ((5,), (4, 6)):
        img, truth = _view(hide=hide)
        pose = locate_board(img, BOARD)
        assert pose.found and not set(hide) & set(pose.used)
        assert _err(pose.homography, truth) < 4.0


def test_lost_then_found_marker_keeps_pose_then_refines() -> None:
    tracker = BoardTracker(BOARD)
    full, truth = _view()
    first = tracker.update(full)
    assert first.found and not first.kept
    hidden, _ = _view(hide=(6,))
    during = tracker.update(hidden)
    assert during.found and during.kept and 6 not in during.markers
    assert np.allclose(during.homography, first.homography)
    back = tracker.update(full)
    assert back.found and not back.kept and 6 in back.used


def test_moved_board_with_hidden_marker_is_refitted() -> None:
    tracker = BoardTracker(BOARD)
    tracker.update(_view()[0])
    moved, truth = _view(shift=(40.0, 25.0), hide=(7,))
    pose = tracker.update(moved)
    assert pose.found and not pose.kept
    assert _err(pose.homography, truth) < 4.0


def test_no_markers_not_found() -> None:
    pose = locate_board(np.full((720, 1280, 3), 128, np.uint8), BOARD)
    assert not pose.found and pose.homography is None
