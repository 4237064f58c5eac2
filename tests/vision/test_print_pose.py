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

BOARD = board_for("katenmuis")
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
    whole = reader.read(image, track=False)
    assert whole.occupied()  # the start's cat and mice
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
    whole = BoardReader(BOARD).read(image, track=False)
    reader = BoardReader(BOARD)
    covered = _cover(image, found, [0, 2, 3])
    for _ in range(2):
        reading = reader.read(covered)
        assert reading.pose.used == (1,) and not reading.pose.kept and not reading.pose.doubtful
        assert reading.occupied() == whole.occupied()
