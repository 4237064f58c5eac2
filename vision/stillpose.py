"""A board whose markers no longer decode, read where it was while the print still shows it there.

    pose = still_pose(board, cache, gray, candidates)   # found (kept) or BoardPose(found=False)

A far or blurred board's markers can be a few pixels a cell: ArUco decodes none of them although
the board is plainly in view (the second 3-D family's seed 3231 has such a frame: three markers of
about 20 px under motion blur). The camera of a table companion stands still between frames, and
the board lies where it lay, so the last pose found (the tracker's), or the pose of the photo the
pieces were learned from (saved with the learned looks), is tried again. It is taken only when the
print confirms it: the whole board's high-passed correlation with the print under that pose
(``PrintPose.score``) reaches at least ``KEEP`` of what it was when that pose was found (a pose
whose score then is not known, the tracker's: ``LEAST``), and it beats the same pose moved by one
square each way by ``PEAK`` (a grid a square off still correlates about half as well; a board that
moved correlates with neither). The learned photo's own score is the measure, not ``LEAST``: through
a strong fisheye lens (0.5-0.7, the third 3-D family's wide lens) the four markers still fit one
homography, the print away from them does not, and the start photo itself scored 0.25-0.48 there, so
a frame with a child's arm over part of the board (0.12-0.44) often missed ``LEAST`` (session 31,
kilfound). The same holds where markers were seen but fit no pose (``lost_pose``). The reader then
refines the pose on the print as it refines any pose fitted on fewer than all markers
(``SpotFeatures.refine``), and reads.

    pose = agreed_pose(reader, pose)   # one or two markers found where the learned pose puts them

The same camera also gives a better pose when only one or two markers are found (a hand over the
others, or a blurred frame): they fix the far side of the board only to about a centimetre, the
learned photo's pose was fitted to all of them. Where the markers found lie where the learned pose
puts them (``LocateConfig.moved_px``, the tracker's rule), the frame is read under that pose.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from companion.boards import Board
from vision.boardlocate import BoardPose, as_gray, marker_drift
from vision.lens import Lens
from vision.printpose import LEAST, PrintPose, _pyramid, printer

KEEP = 0.5
"""The correlation now must be at least this share of the correlation when the pose was found."""
PEAK = 1.5
"""... and this many times the best of the pose moved by one square left, right, up or down."""
AGREED_MARKERS = 2
"""A pose fitted on at most this many markers is replaced by the learned one where they agree
(``agreed_pose``): two markers on one side of the board leave its far side free, three span it."""
SQUARE_MM = 20.0
CONFIDENCE = 0.5
"""The pose's confidence (one marker's fit is about this): found by the print, not the markers."""


def pose_record(pose: BoardPose, score: float) -> list[float]:
    """A found pose and its print score as numbers (a learned model keeps them): the score, the
    homography (9) and, with a lens, the pinhole homography (9) and the lens (k, cx, cy, unit)."""
    assert pose.homography is not None
    out = [float(score)] + [float(v) for v in (pose.homography / pose.homography[2, 2]).ravel()]
    if pose.lens is not None and pose.pinhole is not None:
        out += [float(v) for v in (pose.pinhole / pose.pinhole[2, 2]).ravel()]
        out += [pose.lens.k, pose.lens.cx, pose.lens.cy, pose.lens.unit]
    return out


def pose_from_record(rec: list[float]) -> tuple[BoardPose, float] | None:
    """``pose_record``'s numbers back as (a found pose with no markers, its score); None when
    they are not such a record."""
    if len(rec) not in (10, 23):
        return None
    h = np.asarray(rec[1:10], np.float64).reshape(3, 3)
    lens = pin = None
    if len(rec) == 23:
        pin = np.asarray(rec[10:19], np.float64).reshape(3, 3)
        lens = Lens(*rec[19:23])
    return BoardPose(True, h, (), (), float("inf"), CONFIDENCE, True, {}, lens, pin), float(rec[0])


def print_score(board: Board, cache: dict[tuple[int, ...], PrintPose], gray: np.ndarray,
                pose: BoardPose) -> float:
    """The whole board's correlation with its print under ``pose`` (``PrintPose.score``)."""
    assert pose.homography is not None
    return printer(board, cache).score(_pyramid(gray), pose.homography / pose.homography[2, 2])


def still_pose(board: Board, cache: dict[tuple[int, ...], PrintPose], gray: np.ndarray,
               candidates: list[tuple[BoardPose, float | None]]) -> BoardPose:
    """The first candidate (pose, its score when found, or None when unknown) that the print
    confirms in ``gray``, as a kept pose with no markers; else not found."""
    board_print = printer(board, cache)
    levels = _pyramid(gray)
    for pose, then in candidates:
        if pose.homography is None:
            continue
        h = pose.homography / pose.homography[2, 2]
        now = board_print.score(levels, h)
        if now < (LEAST if then is None else KEEP * then):
            continue
        moved = max(board_print.score(levels, h @ _shift(dx, dy))
                    for dx, dy in ((SQUARE_MM, 0), (-SQUARE_MM, 0), (0, SQUARE_MM), (0, -SQUARE_MM)))
        if now < PEAK * moved:
            continue
        return replace(pose, found=True, markers=(), used=(), corners={}, kept=True,
                       error_px=float("inf"), confidence=min(pose.confidence, CONFIDENCE), doubtful=False)
    return BoardPose(found=False)


def learned_record(reader: Any, image: np.ndarray, pose: BoardPose) -> list[float]:
    """A ``BoardReader``'s learned pose (``PieceModel.still_pose``): the pose of the photo the
    pieces are learned from and the print's score under it."""
    gray = as_gray(image)
    return pose_record(pose, print_score(reader.tracker.board, reader._print_poses, gray, pose))


def lost_pose(reader: Any, gray: np.ndarray, track: bool, unfit: BoardPose | None = None) -> BoardPose:
    """A ``BoardReader``'s pose for a frame in which no marker decoded, or whose markers fit no
    pose (``unfit``: the markers' pose, not found): the tracker's last pose (when tracking) or the
    learned photo's, where the print confirms it (``still_pose``); else ``unfit`` (or not found)."""
    candidates: list[tuple[BoardPose, float | None]] = []
    if track and reader.tracker.pose is not None:
        candidates.append((reader.tracker.pose, None))
    learned = pose_from_record(reader.model.still_pose) if reader.model.still_pose else None
    if learned is not None:
        candidates.append(learned)
    found = still_pose(reader.tracker.board, reader._print_poses, gray, candidates) if candidates \
        else BoardPose(found=False)
    return found if found.found or unfit is None else unfit


def agreed_pose(reader: Any, pose: BoardPose) -> BoardPose:
    """A ``BoardReader``'s pose fitted on one or two markers (``AGREED_MARKERS``), replaced by the
    learned photo's pose (``PieceModel.still_pose``) where that pose puts every marker found now
    within ``LocateConfig.moved_px`` (RMS of the corners, as ``BoardTracker`` keeps its last pose):
    the camera has not moved, and the learned pose was fitted to the whole board (and aligned with
    its print there), where two markers on one side fix the far side only to about a centimetre
    (docs/readme/board.md, session 26 qpose). The reader does not align it again. ``pose`` itself
    otherwise (the same object)."""
    board = reader.tracker.board
    few = min(AGREED_MARKERS, len(board.markers) - 1)
    if not pose.found or pose.kept or not pose.corners or len(pose.used) > few or not reader.model.still_pose:
        return pose
    learned = pose_from_record(reader.model.still_pose)
    drift = None if learned is None else still_drift(board, pose, learned[0])
    if drift is None or drift > reader.config.locate.moved_px:
        return pose
    return replace(learned[0], markers=pose.markers, used=pose.used, corners=pose.corners, error_px=drift,
                   confidence=pose.confidence, kept=True, doubtful=False)


def still_drift(board: Board, pose: BoardPose, learned: BoardPose) -> float | None:
    """How far (RMS px, ``boardlocate.marker_drift``) the markers ``pose`` found lie from where the
    learned photo's pose puts them, or None where one of them is not in the board's print: what
    ``agreed_pose`` and ``vision.stillcam`` weigh against ``LocateConfig.moved_px``."""
    printed = board.printed_as(pose.corners)
    if any(i not in {m.id for m in printed.markers} for i in pose.corners):
        return None
    return marker_drift(learned, printed, pose.corners)


def _shift(dx: float, dy: float) -> np.ndarray:
    return np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])
