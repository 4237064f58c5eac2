"""A board seen by one marker: its pose from the print (``vision.printpose``, hooked into
``SpotFeatures.refine``; docs/readme/board.md, session 21 onemarker). One marker's corners fix a
homography that is off by several squares at the far side of the board; the print is aligned
outward from the marker and the result taken only when the print confirms it, else the pose is
doubtful and every square is asked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.group_reads import c_group
from vision.boarddefaults import board_for
from vision.boardlocate import ASKED, BoardPose, as_gray, detect_markers, fit_pose
from vision.imageload import load_image
from vision.pieces import BoardReader
from vision.printpose import print_pose

BOARD = board_for("katenmuis")
START = {"cat-start": "cat", "mouse-start": "mouse"}  # K1: the start photo's two counters
CENTRES = np.array([np.mean(sq.polygon, axis=0) for sq in BOARD.squares.values()])


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """The start photo of the third family's seed 4026, Kat en Muis group 1 (shared with
    test_katenmuis_shadow_edge), and its four markers as detected."""
    root, scenes = c_group(tmp_path_factory, "katenmuis", 1, 8, 8, 4026)
    image = load_image(Path(root) / str(scenes[0]["file"])).image
    found = detect_markers(as_gray(image), BOARD)
    assert sorted(found) == [0, 1, 2, 3]
    return image, found


def _size(image: np.ndarray) -> tuple[int, int]:
    return int(image.shape[1]), int(image.shape[0])


def _worst(pose: BoardPose, truth: np.ndarray) -> float:
    return float(np.linalg.norm(pose.project(CENTRES) - truth, axis=1).max())


def _cover(image: np.ndarray, found: dict[int, np.ndarray], ids: list[int]) -> np.ndarray:
    """The image with a dark object over each marker of ``ids`` (its quad grown by half)."""
    out = image.copy()
    for i in ids:
        c = found[i]
        quad = (c.mean(axis=0) + 1.5 * (c - c.mean(axis=0))).astype(np.int32)
        cv2.fillPoly(out, [quad.reshape(-1, 1, 2)], (35, 32, 30))
    return out


def test_one_markers_pose_is_refined_from_the_print(start: Any) -> None:
    image, found = start
    truth = fit_pose(BOARD, found, None, _size(image)).project(CENTRES)  # all four markers
    cell = float(np.median(np.linalg.norm(np.diff(truth, axis=0), axis=1)))
    reader = BoardReader(BOARD)
    for mid in (0, 1):  # the two markers farthest from the camera: 3.5 squares off at the far side
        pose = fit_pose(BOARD, {mid: found[mid]}, None, _size(image))
        assert _worst(pose, truth) > 2 * cell
        refined = reader.refine(image, pose)
        assert not refined.doubtful
        assert _worst(refined, truth) < 0.15 * cell


def test_a_board_seen_by_one_marker_is_read_as_with_all_four_or_asked(start: Any) -> None:
    image, found = start
    reader = BoardReader(BOARD)
    reader.learn(image, START)  # as `board learn` does
    whole = reader.read(image, track=False)
    assert whole.occupied() == START
    confirmed = 0
    for keep in sorted(found):  # the other three under dark objects
        one = reader.read(_cover(image, found, [i for i in found if i != keep]), track=False)
        assert one.found and one.pose.used == (keep,)
        if one.pose.doubtful:  # (marker 0's corners, moved 2 px by the covers: 6 squares off)
            assert one.occupied() == {}  # asked, not read wrong
        else:
            assert one.occupied() == whole.occupied()
            confirmed += 1
    assert confirmed >= 3


def test_a_pose_the_print_does_not_confirm_is_doubtful_and_asked(start: Any) -> None:
    image, found = start
    blank = np.full_like(image, 120)
    c = found[0]
    keep = np.zeros(image.shape[:2], np.uint8)
    quad = (c.mean(axis=0) + 1.6 * (c - c.mean(axis=0))).astype(np.int32)
    cv2.fillPoly(keep, [quad.reshape(-1, 1, 2)], 1)
    alone = np.where(keep[..., None] > 0, image, blank)  # marker 0 and nothing of the print
    reading = BoardReader(BOARD).read(alone, track=False)
    assert reading.found and reading.pose.used == (0,)
    assert reading.pose.doubtful and reading.pose.summary()["doubtful"] is True
    assert reading.squares and max(conf for _, conf in reading.squares.values()) <= ASKED
    assert reading.occupied() == {}


def test_the_tracker_does_not_keep_a_one_marker_pose_over_the_prints(start: Any) -> None:
    """In play (``read`` with the tracker) a board seen by the same one marker frame after frame is
    aligned with the print every frame, not kept at the first frame's marker pose."""
    image, found = start
    reader = BoardReader(BOARD)
    reader.learn(image, START, fit_pose(BOARD, found, None, _size(image)))  # (the tracker not told)
    reader.model.still_pose = []  # the tracker alone (a learned pose would be taken: test_agreed_pose)
    whole = reader.read(image, track=False)
    assert whole.occupied() == START
    covered = _cover(image, found, [0, 2, 3])
    for _ in range(2):
        reading = reader.read(covered)
        assert reading.pose.used == (1,) and not reading.pose.kept and not reading.pose.doubtful
        assert reading.occupied() == whole.occupied()


def test_a_still_camera_reuses_the_last_alignment_only_where_the_print_confirms_it(start: Any) -> None:
    """Frame after frame from a camera that has not moved (the one marker where it was), the last
    alignment is re-scored instead of re-run; an alignment the print no longer confirms (here one
    planted a square off) is not reused: the print is aligned again."""
    image, found = start
    truth = fit_pose(BOARD, found, None, _size(image)).project(CENTRES)
    cell = float(np.median(np.linalg.norm(np.diff(truth, axis=0), axis=1)))
    pose = fit_pose(BOARD, {1: found[1]}, None, _size(image))
    reader = BoardReader(BOARD)
    gray = as_gray(image)
    layout = BOARD.printed_as(pose.corners)
    first = print_pose(BOARD, reader._print_poses, gray, pose)
    memo = reader._print_poses[tuple(m.id for m in layout.markers)]
    assert memo.memo is not None and np.array_equal(memo.memo[2], first.homography)
    assert first.homography is not None
    near = first.homography @ np.array([[1, 0, 0.3], [0, 1, 0], [0, 0, 1]])  # 0.3 mm over: still confirmed
    memo.memo = (1, memo.memo[1], near, memo.memo[3])
    again = print_pose(BOARD, reader._print_poses, gray, pose)
    assert np.array_equal(again.homography, near)  # reused as it was, not aligned afresh
    assert _worst(again, truth) < 0.15 * cell
    off = np.array([[1, 0, 20.0], [0, 1, 0], [0, 0, 1]])  # a square (20 mm) to the right
    memo.memo = (1, memo.memo[1], first.homography @ off, memo.memo[3])
    redone = print_pose(BOARD, reader._print_poses, gray, pose)
    assert not redone.doubtful and _worst(redone, truth) < 0.15 * cell
