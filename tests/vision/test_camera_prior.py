"""The camera over the board where a nearly square-on view cannot tell its focal length
(``vision.boardlocate.camera_from_homography``'s prior): its height, so where a piece's top
appears, stays near the truth instead of running off with the homography's noise."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.boarddefaults import board_for
from vision.boardlocate import camera_from_homography
from vision.synth.board import Camera


def _camera(f: float, w: int, h: int, tilt_deg: float, az: float, height: float) -> Camera:
    """A pinhole ``height`` mm over the middle of a Qubism board, tilted ``tilt_deg`` towards ``az``."""
    board = board_for("qubism")
    target = np.array([board.width_mm / 2, board.height_mm / 2, 0.0])
    t = math.radians(tilt_deg)
    back = np.array([math.sin(t) * math.cos(az), math.sin(t) * math.sin(az), math.cos(t)])
    centre = target + back * height / math.cos(t)
    fwd = -back
    r = np.cross(np.array([0.0, -1.0, 0.0]), fwd)
    r /= np.linalg.norm(r)
    R = np.stack([r, np.cross(r, fwd), fwd])
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    return Camera(K, R, centre)


def _noisy_homography(cam: Camera, rng: np.random.Generator, noise_px: float) -> np.ndarray:
    """The homography fitted to the four markers' corners as a detector finds them (``noise_px``)."""
    board = board_for("qubism")
    pts = np.array([[x, y] for m in board.markers for x, y in m.corners()])
    px = cam.project(np.column_stack([pts, np.zeros(len(pts))])) + rng.normal(0, noise_px, (len(pts), 2))
    h, _ = cv2.findHomography(pts, px)
    return np.asarray(h, np.float64)


def _top_error(cam: Camera, guess_foot: tuple[float, float], guess_height: float, z: float) -> float:
    """How far (mm, on the board) the guessed camera puts a top ``z`` mm up over the board's
    corners from where the true one sees it; the worst corner."""
    board = board_for("qubism")
    worst = 0.0
    for p in ([0.0, 0.0], [board.width_mm, 0.0], [0.0, board.height_mm], [board.width_mm, board.height_mm]):
        p_ = np.array(p)
        true_foot = np.asarray(cam.C[:2])
        true = true_foot + (p_ - true_foot) * cam.C[2] / (cam.C[2] - z)
        est = np.asarray(guess_foot) + (p_ - np.asarray(guess_foot)) * guess_height / (guess_height - z)
        worst = max(worst, float(np.linalg.norm(true - est)))
    return worst


def test_a_square_on_view_keeps_the_camera_near_its_height() -> None:
    rng = np.random.default_rng(5)
    heights, tops = [], []
    for w, h in ((1024, 768), (1280, 720)):
        for fov in (55.0, 65.0, 85.0):  # horizontal fields of view
            f = (w / 2) / math.tan(math.radians(fov) / 2)
            for tilt in (0.5, 3.0, 6.0):
                cam = _camera(f, w, h, tilt, float(rng.uniform(-math.pi, math.pi)), 260 * f / (0.8 * w))
                guess = camera_from_homography(_noisy_homography(cam, rng, 0.4), (w, h))
                heights.append(guess.height / cam.C[2])
                tops.append(_top_error(cam, guess.foot, guess.height, 25.0))
    # the prior's focal length (the image width) is 1.04 to 1.83 of the truth's: the height is
    # off by no more (the noise alone took the camera 2.6 to 4.6 times too high at 0.5 degrees)
    assert 0.8 < min(heights) and max(heights) < 2.0, [round(x, 2) for x in heights]
    # a top 25 mm up lands within 16 mm of where it is seen (the worst: 85 degrees, 0.5 degree tilt;
    # without the prior's weight 25 mm)
    assert max(tops) < 16.0, [round(x, 1) for x in tops]
    # from 6 degrees of tilt the view decides: the camera's height within 6 %
    assert max(abs(x - 1) for x in heights[2::3]) < 0.06, [round(x, 2) for x in heights[2::3]]


def test_an_oblique_view_still_tells_the_focal_length() -> None:
    rng = np.random.default_rng(6)
    for fov in (50.0, 85.0):  # the ends of the prior's spread: the view decides
        w, h = 1280, 720
        f = (w / 2) / math.tan(math.radians(fov) / 2)
        for tilt in (25.0, 40.0):
            cam = _camera(f, w, h, tilt, float(rng.uniform(-math.pi, math.pi)), 330.0)
            guess = camera_from_homography(_noisy_homography(cam, rng, 0.3), (w, h))
            assert abs(guess.focal_px / f - 1) < 0.06, (fov, tilt, guess.focal_px, f)
            assert _top_error(cam, guess.foot, guess.height, 25.0) < 1.5


def test_the_reader_keeps_the_learned_photos_focal_length() -> None:
    from vision.boardlocate import BoardPose
    from vision.pieces import BoardReader
    from vision.stillpose import pose_record

    rng = np.random.default_rng(7)
    w, h = 1024, 768
    f = (w / 2) / math.tan(math.radians(85.0) / 2)  # a wide lens: 0.55 widths, far from the prior's 0.79
    reader = BoardReader(board_for("qubism"))
    square_on = _camera(f, w, h, 2.0, 0.7, 200.0)
    frames = [BoardPose(True, _noisy_homography(square_on, rng, 0.4)) for _ in range(4)]
    alone = [reader.camera(p, (w, h)).height for p in frames]  # nothing learned: each frame's own guess
    assert max(alone) > 1.3 * square_on.C[2]  # the prior's focal length: the camera far too high
    # the start photo taken from the side, by the same camera: its focal length is seen
    learned = _camera(f, w, h, 35.0, 2.0, 330.0)
    reader.model.still_pose = pose_record(BoardPose(True, _noisy_homography(learned, rng, 0.3)), 1.0)
    kept = [reader.camera(p, (w, h)) for p in frames]
    assert all(abs(c.focal_px / f - 1) < 0.05 for c in kept)
    assert all(abs(c.height / square_on.C[2] - 1) < 0.06 for c in kept), [c.height for c in kept]
    assert max(_top_error(square_on, c.foot, c.height, 25.0) for c in kept) < 2.0
