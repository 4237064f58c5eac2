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
solved together (``boardlocate.pooled_focal``), and the camera's foot and height are each view's at
that focal length, the median over the views. Each view keeps its weak prior on the focal length
(the pool averages the views' estimates, it does not sharpen them; one prior for all read a little
worse on dev, docs/readme/board.md, session 27 qcam2). A view sure of a wrong focal length is
followed (dev 4252 group 0, near square-on: 3200 px, truth 1046). A frame fitted on one or two
markers adds no view (its far side is free), but is read with the pooled camera where it
agrees; a camera that moved reads with its own pose's camera, as before.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.boardlocate import BoardPose, CameraGuess, camera_at_focal, camera_from_homography, focal_equations, pooled_focal
from vision.stillpose import pose_from_record, still_drift

VIEW_MARKERS = 3
"""A frame's own pose adds its view to the pool when fitted on at least this many markers."""


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
            self._camera[image_size] = _pooled(self._views, image_size)
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


def _pooled(views: list[np.ndarray], image_size: tuple[int, int]) -> CameraGuess:
    """One camera for views of it: the focal length meeting all their equations, then each view's
    foot and height at that focal length, the median."""
    w = image_size[0]
    f = pooled_focal([focal_equations(v, image_size) for v in views], w, float(w), len(views))
    cams = [camera_at_focal(v, image_size, f) for v in views]
    return CameraGuess(f, (float(np.median([c.foot[0] for c in cams])), float(np.median([c.foot[1] for c in cams]))),
                       float(np.median([c.height for c in cams])))
