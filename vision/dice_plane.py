"""What the camera knows of the table: when the board is found by its markers, the table's plane
is known (``vision.boardlocate.BoardPose.homography``: board millimetres -> image pixels), and a
die's top face has a known size there. A box whose footprint on that plane is not a die's top
face (far too small or too big, or long and thin: a side face seen steeply, a printed token, a
keyboard's row of keys) is not a die.

    TablePlane.from_pose(pose)       # the board's homography, dice of 10-25 mm
    DiceConfig(table=TablePlane(...))  # vision.dice.read_dice then drops such boxes
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import cv2
import numpy as np


@dataclass(frozen=True)
class TablePlane:
    """The table's plane in an image: ``homography`` (3x3, plane millimetres -> image pixels, row
    by row) and the side of the dice's top faces on it (``die_mm``: smallest, largest)."""

    homography: tuple[tuple[float, float, float], ...]
    die_mm: tuple[float, float] = (10.0, 25.0)
    # a box's footprint may be this much smaller or bigger than a top face: the box is the image
    # box around the face (up to 1.41 times its side when the die lies turned), and the face lies
    # a die's height above the table, nearer the camera
    slack: tuple[float, float] = (0.7, 1.9)
    max_aspect: float = 2.0  # longest over shortest side of the footprint

    @classmethod
    def from_pose(cls, pose: Any, die_mm: tuple[float, float] = (10.0, 25.0)) -> "TablePlane | None":
        """The plane of a found board (a ``BoardPose``), or None when it was not found."""
        h = getattr(pose, "homography", None)
        if not getattr(pose, "found", False) or h is None:
            return None
        m = np.asarray(h, np.float64).reshape(3, 3)
        return cls(tuple(tuple(float(v) for v in row) for row in m), die_mm)  # type: ignore[arg-type]

    def footprint(self, box: Sequence[float]) -> np.ndarray:
        """The corners of ``box`` (image pixels) on the table plane, millimetres (4 x 2)."""
        x1, y1, x2, y2 = (float(v) for v in box)
        inv = np.linalg.inv(np.asarray(self.homography, np.float64))
        pts = np.float64([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, inv).reshape(4, 2)

    def fits(self, box: Sequence[float]) -> bool:
        """Whether ``box`` can be a die's top face where it lies on the table."""
        q = self.footprint(box)
        if not np.all(np.isfinite(q)):
            return False
        area = 0.5 * abs(float(np.dot(q[:, 0], np.roll(q[:, 1], 1)) - np.dot(q[:, 1], np.roll(q[:, 0], 1))))
        sides = np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)
        if float(sides.min()) <= 0:
            return False
        lo, hi = self.die_mm[0] * self.slack[0], self.die_mm[1] * self.slack[1]
        return lo <= area ** 0.5 <= hi and float(sides.max() / sides.min()) <= self.max_aspect
