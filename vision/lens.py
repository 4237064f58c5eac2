"""A camera lens's radial distortion (one coefficient) and views cut through it.

    lens = Lens(k=-0.2, cx=640, cy=360, unit=1280)
    lens.undistort(px) / lens.distort(px)          # frame pixels <-> pinhole pixels, [n, 2]
    warp_through(image, to_pinhole, lens, size)    # a view whose pixels map to pinhole pixels

A cheap wide webcam bends straight lines (barrel distortion). The division model with one
coefficient about the image centre describes it: a frame pixel ``d`` shows what a pinhole camera
shows at ``c + (d - c) / (1 + k |d - c|^2 / unit^2)`` (``k < 0``: barrel). Its inverse has a
closed form (a quadratic in the frame radius), so a view of the board (``to_pinhole``: 3x3, view
pixels -> pinhole pixels) is sampled exactly where the lens shows each point: the pinhole points
through the lens, on a coarse grid (every ``step`` view pixels: the lens and the homography are
smooth there) enlarged to the view's size, then one ``cv2.remap``. Without a lens the view is
``cv2.warpPerspective`` as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Lens:
    k: float
    """Division-model coefficient, radii in ``unit`` pixels; negative is barrel distortion."""
    cx: float
    cy: float
    """The distortion's centre (pixels)."""
    unit: float
    """Pixels of radius 1 (the image's larger side)."""

    def undistort(self, pts: np.ndarray) -> np.ndarray:
        """Frame pixels [n, 2] -> where a pinhole camera shows them."""
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        c = np.array([self.cx, self.cy])
        rel = (p - c) / self.unit
        out: np.ndarray = c + (p - c) / (1.0 + self.k * np.sum(rel * rel, axis=1, keepdims=True))
        return out

    def distort_xy(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pinhole pixel coordinates (arrays of any one shape) -> where the frame shows them.

        A frame radius ``r`` shows pinhole radius ``u = r / (1 + k r^2)``, so ``k u r^2 - r + u
        = 0`` and ``r = u * 2 / (1 + sqrt(1 - 4 k u^2))`` (the root that is ``u`` when ``k`` is 0);
        past the lens's edge (``4 k u^2 > 1``, only for ``k > 0``) the edge's radius is used."""
        dx, dy = np.asarray(x, np.float64) - self.cx, np.asarray(y, np.float64) - self.cy
        dx /= self.unit
        dy /= self.unit
        # the same operations in the same order, written into these arrays (a read maps ~10^5 points a frame)
        scale = dx * dx
        scale += np.multiply(dy, dy)  # u2
        scale *= 4.0 * self.k
        np.subtract(1.0, scale, out=scale)
        np.maximum(scale, 0.0, out=scale)
        np.sqrt(scale, out=scale)
        scale += 1.0
        np.divide(2.0, scale, out=scale)
        dx *= scale
        dx *= self.unit
        dx += self.cx
        dy *= scale
        dy *= self.unit
        dy += self.cy
        return dx, dy

    def distort(self, pts: np.ndarray) -> np.ndarray:
        """Pinhole pixels [n, 2] -> where the frame shows them."""
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        x, y = self.distort_xy(p[:, 0], p[:, 1])
        return np.column_stack([x, y])


def lens_maps(to_pinhole: np.ndarray, lens: Lens, size: tuple[int, int], step: int = 4
              ) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.remap`` maps (float32, [h, w]) of a view of ``size`` (w, h) whose pixel centres
    ``to_pinhole`` takes to pinhole pixels, seen through ``lens``. Computed every ``step`` view
    pixels (one more all round) and enlarged bilinearly: pixel x of the view lies at
    ``(x + 0.5) / step + 0.5`` on that grid, the grid point j at view pixel ``(j - 0.5) * step - 0.5``."""
    w, h = size
    nx, ny = -(-w // step) + 2, -(-h // step) + 2
    gx = (np.arange(nx) - 0.5) * step - 0.5
    gy = (np.arange(ny) - 0.5) * step - 0.5
    xs, ys = np.meshgrid(gx, gy)
    m = np.asarray(to_pinhole, np.float64)
    den = m[2, 0] * xs + m[2, 1] * ys + m[2, 2]
    den = np.where(np.abs(den) < 1e-12, 1e-12, den)
    px = (m[0, 0] * xs + m[0, 1] * ys + m[0, 2]) / den
    py = (m[1, 0] * xs + m[1, 1] * ys + m[1, 2]) / den
    dx, dy = lens.distort_xy(px, py)
    big = (nx * step, ny * step)
    mx = cv2.resize(dx.astype(np.float32), big, interpolation=cv2.INTER_LINEAR)[step:step + h, step:step + w]
    my = cv2.resize(dy.astype(np.float32), big, interpolation=cv2.INTER_LINEAR)[step:step + h, step:step + w]
    return np.ascontiguousarray(mx), np.ascontiguousarray(my)


def warp_through(image: np.ndarray, to_pinhole: np.ndarray, lens: Lens | None, size: tuple[int, int],
                 interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
    """The view of ``size`` (w, h) whose pixels ``to_pinhole`` (3x3) takes to pinhole pixels:
    ``cv2.warpPerspective`` when there is no lens (unchanged), else sampled through the lens
    (bilinear; edges replicated either way)."""
    if lens is None:
        out: np.ndarray = cv2.warpPerspective(image, np.asarray(to_pinhole, np.float64), size,
                                              flags=interpolation | cv2.WARP_INVERSE_MAP,
                                              borderMode=cv2.BORDER_REPLICATE)
        return out
    mx, my = lens_maps(to_pinhole, lens, size)
    res: np.ndarray = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return res
