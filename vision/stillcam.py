"""The camera that places raised planes (a cube's top, a pawn's head), pooled over a still camera's views.

    cam = pool.camera(reader, pose, image_size)   # SpotFeatures._lift's camera for this frame

``SpotFeatures._lift`` scales a plane ``z`` mm up about the point under the camera by
``height / (height - z)`` (``vision.boardlocate.CameraGuess``). One homography gives that camera
only roughly: a near square-on view, or a wide lens seen through a pinhole homography, leaves the
focal length (and with it the height) undetermined, and it jumps from frame to frame of one still
camera (docs/readme/board.md, session 26 qcam: 4250 group 1's height 317-410 mm, truth 284). The
camera of a table companion stands still between frames, so the views of the learned photo
(``PieceModel.still_pose``) and of every later frame whose markers lie where the learned pose puts
them (``LocateConfig.moved_px``: ``agreed_pose``'s rule) are one camera: their focal equations are
solved together, and the camera's foot and height are each view's at that focal length, the
median over the views. Each view's equations are weighed by how well they fix the focal length
(``pooled_focal_sq``): solved for ``f^2``, where a view's error lies in the shape of its image of the
board (a corner a pixel off, relative to the board's size in the image) and its perspective
(which a square-on view lacks) is what tells the focal length, so a near square-on view, whose
shape is mostly that error, adds little (docs/readme/board.md, session 28 qfocal: dev 4252 group
0's learned photo 3200 px, truth 1046; solved for ``1/f^2`` each view counted alike and followed it).
A frame fitted on one or two markers adds no view (its far side is free), but is read with the
pooled camera where it agrees; a camera that moved reads with its own pose's camera, as before.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.boardlocate import BoardPose, CameraGuess, camera_at_focal, camera_from_homography
from vision.stillpose import pose_from_record, still_drift

VIEW_MARKERS = 3
"""A frame's own pose adds its view to the pool when fitted on at least this many markers."""
CORNER_PX = 1.0
"""How far a marker's corner may lie off (px): a view's error in the shape of the board's image."""


class CameraPool:
    """One still camera's views (pinhole homographies), since the pieces were last learned."""

    def __init__(self) -> None:
        self._record: list[float] | None = None  # the learned record the views belong to
        self._views: list[np.ndarray] = []
        self._seen: list[BoardPose] = []  # poses already weighed (a pose is asked many heights)
        self._camera: dict[tuple[int, int], CameraGuess] = {}

    def camera(self, reader: Any, pose: BoardPose, image_size: tuple[int, int]) -> CameraGuess:
        """The camera for ``pose``'s frame: the pool's where the camera has not moved since the
        learned photo (the pool takes this frame's view first when it is a full one), else the
        pose's own (``camera_from_homography``)."""
        own = pose.sampling()[0]  # a lens's pinhole homography
        record = getattr(getattr(reader, "model", None), "still_pose", None)
        learned = pose_from_record(record) if record else None
        if learned is None:
            return camera_from_homography(own, image_size)
        if record is not self._record:
            self._record, self._views, self._seen, self._camera = record, [learned[0].sampling()[0]], [], {}
        if not _still(reader, pose, learned[0]):
            return camera_from_homography(own, image_size)
        if not any(p is pose for p in self._seen):
            self._seen = (self._seen + [pose])[-8:]
            if not pose.kept and len(pose.used) >= VIEW_MARKERS and \
                    not any(np.allclose(own / own[2, 2], v / v[2, 2]) for v in self._views):
                self._views.append(own)
                self._camera = {}
        if image_size not in self._camera:
            self._camera[image_size] = _pooled(self._views, image_size, marker_corners(reader.tracker.board))
        return self._camera[image_size]


def _still(reader: Any, pose: BoardPose, learned: BoardPose) -> bool:
    """Whether ``pose``'s frame was taken by the learned photo's camera: its markers lie within
    ``moved_px`` of where the learned pose puts them (a pose kept with no markers is the learned
    or the tracker's one: still)."""
    if not pose.found or pose.homography is None:
        return False
    if not pose.corners:
        return pose.kept
    drift = still_drift(reader.tracker.board, pose, learned)
    return drift is not None and drift <= float(reader.config.locate.moved_px)


def marker_corners(board: Any) -> np.ndarray:
    """The print's marker corners (board mm, [n, 2]): what a view's size in the image is measured on."""
    return np.array([c for m in board.markers for c in np.asarray(m.corners(), np.float64).reshape(-1, 2)])


def shape_equations(h: np.ndarray, image_size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A homography's two equations ``u + v * s = 0`` in ``s = f^2`` (``boardlocate.focal_equations``'
    orthogonal columns and equal norms, multiplied by ``f^2``), scaled so that the image of the
    board's axes (the first two columns' image-plane part) has norm 1: ``u`` is then the shape of that
    image (dimensionless: off a square's by what the perspective, ``v``, makes of it)."""
    w, hgt = image_size
    a = np.array([[1.0, 0, -w / 2], [0, 1.0, -hgt / 2], [0, 0, 1.0]]) @ np.asarray(h, np.float64)
    a = a / float(np.linalg.norm(a[:2, :2]))
    a1, a2 = a[:, 0], a[:, 1]
    u = np.array([a1[0] * a2[0] + a1[1] * a2[1], a1[0] ** 2 + a1[1] ** 2 - a2[0] ** 2 - a2[1] ** 2])
    v = np.array([a1[2] * a2[2], a1[2] ** 2 - a2[2] ** 2])
    return u, v


def pooled_focal_sq(views: list[np.ndarray], image_size: tuple[int, int], corners_mm: np.ndarray) -> float:
    """The focal length (px) of views of one camera: least squares in ``s = f^2`` of their
    ``shape_equations``, each view's weighed by its shape's error (``CORNER_PX`` over the board's
    size in that image, its marker corners' extent), with a prior of ``f^2`` about the width's square
    within as much again; within 0.5-2.5 widths (``boardlocate.pooled_focal``'s range). A view's
    weight grows with its perspective squared: a square-on view has none to tell the focal length by."""
    w = float(image_size[0])
    s0 = w * w
    num, den = 1.0 / s0, 1.0 / s0 ** 2
    for h in views:
        u, v = shape_equations(h, image_size)
        px = cv2.perspectiveTransform(corners_mm.reshape(-1, 1, 2), np.asarray(h, np.float64)).reshape(-1, 2)
        eps = CORNER_PX / max(float(np.linalg.norm(px.max(axis=0) - px.min(axis=0))), 1.0)
        num -= float(u @ v) / eps ** 2
        den += float(v @ v) / eps ** 2
    s = num / den
    return float(np.clip(np.sqrt(s) if s > 0 else 2.5 * w, 0.5 * w, 2.5 * w))


def _pooled(views: list[np.ndarray], image_size: tuple[int, int], corners_mm: np.ndarray) -> CameraGuess:
    """One camera for views of it: the focal length meeting all their equations (``pooled_focal_sq``),
    then each view's foot and height at that focal length, the median."""
    f = pooled_focal_sq(views, image_size, corners_mm)
    cams = [camera_at_focal(v, image_size, f) for v in views]
    return CameraGuess(f, (float(np.median([c.foot[0] for c in cams])), float(np.median([c.foot[1] for c in cams]))),
                       float(np.median([c.height for c in cams])))
