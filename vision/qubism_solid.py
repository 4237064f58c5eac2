"""Qubism's white pawn against a cube the piece count kept in its place: which solid reaches past
its square along the line of sight (issue 31, session 31).

A figure stands up. Seen from the camera (its pose from the markers), the board's plane shows a
figure's footprint and, displaced from it away from the point below the camera, its body and top:
the taller and wider the solid, the farther behind its square it hides the print. A cube (28-31 mm,
as wide as its square) hides the print past its square's far edge; a pawn (a peg, a meeple, a
draughtsman: narrower, most of them lower) hardly does. ``behind_change``: per spot, the mean change
from the print (the largest per-channel log ratio of the light-normalised top-down view to the empty
print, as the camera's resolution sees it) in a band along the line of sight behind the square's
middle, ``BEHIND`` square sides from it, ``HALF_WIDTH`` mm either side.

``kept_solid``: of the spots read as the white pawn when the count keeps one (``BoardReader._counts``),
the one it would keep by its order (the look, the raised middle, the learned shape) gives way to
another whose look is nearer the pawn's AND whose change behind it is smaller: two cues, each
independent of the shape likeness that put the cube first, agree. No weight, no threshold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from vision.boardlocate import BoardPose
    from vision.piece_spots import SpotFeatures

BEHIND = (0.43, 0.69)
"""The band behind the square's middle along the line of sight, in square sides (15-24 mm on Qubism's
35 mm squares: just past the far edge, where a cube's top shows and a pawn's does not; chosen on the
dev sets' traces, session 31)."""
HALF_WIDTH = 4.0
"""Half the band's width across the line of sight, mm."""
SIGHT_HEIGHT = 0.6
"""The height, in square sides, whose displacement gives the line of sight's direction (any height
gives the same direction: away from the point below the camera)."""


def behind_change(reader: SpotFeatures, pose: BoardPose, spots: list[int]) -> np.ndarray:
    """[len(spots)] the module doc's change behind each spot, for the frame ``reader.features`` read last
    (0 where the band falls off the top-down view)."""
    out = np.zeros(len(spots))
    if not spots:
        return out
    s, cell = reader.config.px_per_mm, reader.cell_mm
    warped = reader._last_warped
    empty = reader._empty_at(reader._camera_px_per_mm(pose))[0]
    lift = reader._lift(pose, reader._last_image_size, SIGHT_HEIGHT * cell)
    h, w = warped.shape[:2]
    near, far = BEHIND[0] * cell, BEHIND[1] * cell
    for k, i in enumerate(spots):
        c = reader._spot_centres_px[i] / s  # mm
        v = lift[:2, :2] @ c + lift[:2, 2] - c
        n = float(np.linalg.norm(v))
        u = v / n if n > 1e-6 else np.array([0.0, 1.0])  # straight down: any way is "behind"
        ends = np.array([c + near * u, c + far * u])
        lo = np.floor((ends.min(axis=0) - HALF_WIDTH) * s).astype(int)
        hi = np.ceil((ends.max(axis=0) + HALF_WIDTH) * s).astype(int) + 1
        x0, y0 = max(lo[0], 0), max(lo[1], 0)
        x1, y1 = min(hi[0], w), min(hi[1], h)
        if x1 - x0 < 1 or y1 - y0 < 1:
            continue
        ys, xs = np.mgrid[y0:y1, x0:x1]
        dx, dy = (xs + 0.5) / s - c[0], (ys + 0.5) / s - c[1]
        along, across = dx * u[0] + dy * u[1], np.abs(dy * u[0] - dx * u[1])
        band = (along >= near) & (along <= far) & (across <= HALF_WIDTH)
        if not band.any():
            continue
        bx, by = xs[band], ys[band]
        gain = np.maximum(reader._basis(bx.astype(np.float64), by.astype(np.float64)) @ reader._last_coef, 0.05)
        seen = warped[by, bx] / gain
        out[k] = float(np.abs(np.log(seen + 0.03) - np.log(empty[by, bx] + 0.03)).max(axis=1).mean())
    return out


def kept_solid(spots: list[int], look: np.ndarray, behind: np.ndarray) -> list[int]:
    """``spots`` in the count's order (the first is kept), with ``look`` (look distance to the pawn's)
    and ``behind`` (``behind_change``) per spot in that order: the first gives way to the nearest look
    among the others whose look is nearer AND whose change behind is smaller (module doc)."""
    if len(spots) < 2:
        return spots
    others = [k for k in range(1, len(spots)) if look[k] < look[0] and behind[k] < behind[0]]
    if not others:
        return spots
    j = min(others, key=lambda k: look[k])
    return [spots[j]] + [x for k, x in enumerate(spots) if k != j]
