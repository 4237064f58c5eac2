"""The camera of the third 3-D scene family (``vision.synth.scene_c``): a Raspberry Pi camera on
a stand, its lens (a pinhole blended with an equidistant fisheye), its rolling shutter and its
pipeline from linear light to a JPEG (training and evaluation only; never imported by the reader).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.boards import Board
from vision.synth.raster3d import Pinhole
from vision.synth.scene_c_world import HAND

FRAMES = [((1640, 1232), 0.25), ((1920, 1080), 0.15), ((1280, 720), 0.6)]


@dataclass
class CameraC(Pinhole):
    """A pinhole pose and a lens between the pinhole image and the frame: a frame point at
    angle t off the axis lies at radius f ((1 - a) tan t + a t) (a = 0 pinhole, 1 equidistant
    fisheye), the pinhole at f tan t."""
    w: int
    h: int
    f: float
    cx: float
    cy: float
    R: np.ndarray
    C: np.ndarray
    a: float
    tilt_deg: float

    def _table(self) -> tuple[np.ndarray, np.ndarray]:
        t = np.linspace(0, 1.45, 600)
        return np.tan(t), (1 - self.a) * np.tan(t) + self.a * t

    def distort(self, px: np.ndarray) -> np.ndarray:
        """Where pinhole pixels appear in the frame."""
        d = (np.asarray(px, np.float64).reshape(-1, 2) - [self.cx, self.cy]) / self.f
        ru = np.hypot(d[:, 0], d[:, 1])
        tan_t, rd = self._table()
        scale = np.where(ru > 1e-9, np.interp(ru, tan_t, rd) / np.maximum(ru, 1e-9), 1.0)
        return d * scale[:, None] * self.f + [self.cx, self.cy]

    def undistort(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Normalised frame coordinates -> normalised pinhole coordinates."""
        r = np.hypot(x, y)
        tan_t, rd = self._table()
        scale = np.where(r > 1e-9, np.interp(r, rd, tan_t) / np.maximum(r, 1e-9), 1.0)
        return x * scale, y * scale

    def homography(self) -> np.ndarray:
        K = np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1.0]])
        hm = K @ np.column_stack([self.R[:, 0], self.R[:, 1], -self.R @ self.C])
        return hm / hm[2, 2]

    def canvas(self) -> tuple[CameraC, int, int]:
        """The pinhole camera to render with, grown by what the frame's edges see through the lens."""
        xs = np.array([0, self.w - 1, 0, self.w - 1, 0, self.w - 1, self.cx, self.cx], np.float64)
        ys = np.array([0, 0, self.h - 1, self.h - 1, self.cy, self.cy, 0, self.h - 1], np.float64)
        ux, uy = self.undistort((xs - self.cx) / self.f, (ys - self.cy) / self.f)
        px, py = ux * self.f + self.cx, uy * self.f + self.cy
        ox = int(math.ceil(max(0.0, -px.min(), px.max() - (self.w - 1)))) + 2
        oy = int(math.ceil(max(0.0, -py.min(), py.max() - (self.h - 1)))) + 2
        return CameraC(self.w + 2 * ox, self.h + 2 * oy, self.f, self.cx + ox, self.cy + oy, self.R, self.C, 0.0,
                       self.tilt_deg), ox, oy

    def rays(self) -> np.ndarray:
        yy, xx = np.mgrid[0:self.h, 0:self.w].astype(np.float64)
        d = np.stack([(xx - self.cx) / self.f, (yy - self.cy) / self.f, np.ones_like(xx)], axis=2)
        return d @ self.R


def _board_corners(board: Board) -> np.ndarray:
    return np.array([[0, 0, 0], [board.width_mm, 0, 0], [board.width_mm, board.height_mm, 0], [0, board.height_mm, 0]],
                    np.float64)


def camera_c(board: Board, rng: np.random.Generator, max_tilt_deg: float = 45.0, lens: bool = True,
             frame: tuple[int, int] | None = None) -> CameraC:
    """A Pi camera on a stand: a frame size, a normal (62-75 degrees, a <= 0.15) or wide lens
    (85-102 degrees, a 0.35-0.7), tilt up to ``max_tilt_deg`` from the stand's side, the board
    filling 72-97 % of the frame, all of it inside (``lens`` False: a pinhole; ``frame``: this
    frame size instead of a drawn one)."""
    sizes = [s for s, _ in FRAMES]
    w, h = sizes[int(rng.choice(len(sizes), p=[p for _, p in FRAMES]))]
    if frame is not None:  # tests: a small frame, everything else drawn as ever
        w, h = frame
    wide = rng.random() < 0.4
    hfov = math.radians(float(rng.uniform(85, 102) if wide else rng.uniform(62, 75)))
    a = (float(rng.uniform(0.35, 0.7)) if wide else float(rng.uniform(0, 0.15))) if lens else 0.0
    f = (w / 2) / ((1 - a) * math.tan(hfov / 2) + a * hfov / 2)
    tilt_deg = float(rng.uniform(0, max_tilt_deg))
    tilt, azim = math.radians(tilt_deg), float(rng.uniform(-math.pi, math.pi))
    view = np.array([math.sin(tilt) * math.cos(azim), math.sin(tilt) * math.sin(azim), math.cos(tilt)])
    fwd = -view
    # a stand: the frame's "up" points away from the stand (the board seen the right way round from it),
    # give or take how it was mounted
    near = np.array([math.cos(azim), math.sin(azim), 0.0]) if tilt_deg > 3 else np.array([0.0, 1.0, 0.0])
    roll = float(rng.normal(0, 0.15)) + (math.pi / 2 if rng.random() < 0.25 else 0.0)
    y_ax = near - fwd * float(near @ fwd)  # the frame's bottom towards the stand (the near side)
    y_ax /= np.linalg.norm(y_ax)
    x_ax = np.cross(fwd, y_ax)
    c, s = math.cos(roll), math.sin(roll)
    x_ax, y_ax = c * x_ax + s * y_ax, -s * x_ax + c * y_ax
    R = np.stack([x_ax, y_ax, fwd])
    cx, cy = w / 2 + float(rng.normal(0, 6)), h / 2 + float(rng.normal(0, 6))
    look = np.array([board.width_mm / 2, board.height_mm / 2, 0.0]) + [*rng.normal(0, 6, 2), 0.0]
    fill = float(rng.uniform(0.72, 0.97))
    lo, hi = 80.0, 5000.0
    for _ in range(40):
        d = (lo + hi) / 2
        cam = CameraC(w, h, f, cx, cy, R, look + view * d, a, tilt_deg)
        px = cam.distort(cam.project(_board_corners(board)))
        span = max(np.ptp(px[:, 0]) / w, np.ptp(px[:, 1]) / h)
        inside = px[:, 0].min() > 6 and px[:, 1].min() > 6 and px[:, 0].max() < w - 6 and px[:, 1].max() < h - 6
        lo, hi = (d, hi) if (span > fill or not inside) else (lo, d)
    return CameraC(w, h, f, cx, cy, R, look + view * hi, a, tilt_deg)


def _hidden(board: Board, frame: CameraC, canvas: CameraC, objects: np.ndarray) -> tuple[list[str], list[int]]:
    """Squares a hand hides over 15 %; markers anything covers over 2 % or outside the frame."""
    hand = (objects == HAND).astype(np.float32)
    anything = (objects > 0).astype(np.float32)
    occluded = []
    for sid, sq in board.squares.items():
        poly = np.column_stack([np.asarray(sq.polygon, np.float64), np.zeros(len(sq.polygon))])
        if _cover(hand, canvas.project(poly)) > 0.15:
            occluded.append(sid)
    hidden: list[int] = []
    for mk in board.markers:
        flat = np.column_stack([np.asarray(mk.corners(), np.float64), np.zeros(4)])
        seen = frame.distort(frame.project(flat))
        if (_cover(anything, canvas.project(flat)) > 0.02 or seen[:, 0].min() < 2 or seen[:, 1].min() < 2
                or seen[:, 0].max() > frame.w - 2 or seen[:, 1].max() > frame.h - 2):
            hidden.append(mk.id)
    return sorted(occluded), hidden


def _cover(mask: np.ndarray, quad: np.ndarray) -> float:
    h, w = mask.shape
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int), [w, h])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(poly, [np.int32(np.round(quad - [x0, y0])).reshape(-1, 1, 2)], 1)
    area = poly.sum()
    return float((mask[y0:y1, x0:x1] * poly).sum() / area) if area else 0.0


def _lens_maps(cam: CameraC, ox: int, oy: int, skew: float) -> tuple[np.ndarray, np.ndarray]:
    """For each frame pixel, where it looks in the pinhole canvas grown by (ox, oy); a rolling
    shutter reads row y a little later: the picture shifts ``skew`` px from the top row to the last."""
    yy, xx = np.mgrid[0:cam.h, 0:cam.w].astype(np.float64)
    xx = xx + skew * (yy / max(1, cam.h - 1) - 0.5)
    ux, uy = cam.undistort((xx - cam.cx) / cam.f, (yy - cam.cy) / cam.f)
    return (ux * cam.f + cam.cx + ox).astype(np.float32), (uy * cam.f + cam.cy + oy).astype(np.float32)


def finish(img: np.ndarray, setup: Any, rng: np.random.Generator, mx: np.ndarray, my: np.ndarray) -> np.ndarray:
    """A Pi camera's pipeline from linear light to a JPEG-decoded BGR frame: lens, average
    metering auto exposure, colour lens shading, flicker banding, gain-scaled noise, the ISP's
    denoise (a smear at high gain), white balance, a gamma curve, sharpening, JPEG."""
    img = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    h, w = img.shape[:2]
    lum = img @ np.array([0.11, 0.59, 0.3], np.float32)
    img = img * np.float32(np.clip(0.18 / max(float(lum.mean()), 1e-4), 0.5, 3.0))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    rr = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    shade = np.stack([1 - 0.25 * rr + setup.shading * rr, 1 - 0.3 * rr, 1 - 0.25 * rr - setup.shading * rr], axis=2)
    img = img * shade.astype(np.float32)
    amp, period, phase = setup.flicker
    if amp > 0:
        img = img * (1 + amp * np.sin(2 * math.pi * np.arange(h, dtype=np.float32) / period + phase))[:, None, None]
    g = setup.gain
    img = np.clip(img, 0, None)
    img = img + np.sqrt(img * 0.0008 * g) * rng.standard_normal(img.shape).astype(np.float32)
    img = img + rng.normal(0, 0.0012 * g, img.shape).astype(np.float32)
    img = np.clip(img * setup.wb.astype(np.float32)[None, None, :], 0, 1)
    x = img ** (1 / 2.2)
    x = (x * 255).astype(np.float32)
    if g > 5:  # the ISP's denoise at high gain: smooth flat areas, keep the strongest edges
        x = cv2.bilateralFilter(x, 7, 14 + 2.0 * g, 3)
    ycc = cv2.cvtColor(np.clip(x, 0, 255).astype(np.uint8), cv2.COLOR_BGR2YCrCb).astype(np.float32)
    ycc[..., 1:] = cv2.GaussianBlur(ycc[..., 1:], (0, 0), 1.5)
    ycc[..., 0] = ycc[..., 0] + 0.6 * (ycc[..., 0] - cv2.GaussianBlur(ycc[..., 0], (0, 0), 1.2))
    out = cv2.cvtColor(np.clip(ycc, 0, 255).astype(np.uint8), cv2.COLOR_YCrCb2BGR)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, setup.jpeg])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert ok and decoded is not None
    return decoded
