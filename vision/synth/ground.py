"""The table under the synthetic dice: backgrounds (plain, mottled, wood, a board game's
squares, cloth, clutter) and the light over them, drawn from a ``numpy.random.Generator`` so a
seed gives the same table. Split from ``vision.synth.dice``, which draws the dice on it."""

from __future__ import annotations

import math

import cv2
import numpy as np


def _hsv2bgr(h: float, s: float, v: float) -> np.ndarray:
    px = np.uint8([[[int(h) % 180, int(np.clip(s, 0, 255)), int(np.clip(v, 0, 255))]]])
    return cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    small = rng.random((max(2, cells), max(2, cells))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def random_background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Plain, textured, wood-like, cloth, board-game-like or cluttered backgrounds (BGR float)."""
    kind = rng.integers(0, 7)
    base = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 200), rng.uniform(60, 245))
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    if kind == 0:  # plain (tray, table cloth)
        pass
    elif kind == 1:  # smooth mottled texture
        n = _smooth_noise(rng, h, w, int(rng.integers(4, 40)))
        img *= (0.75 + 0.5 * n)[..., None]
    elif kind == 2:  # wood: stretched noise stripes
        n = _smooth_noise(rng, 8, int(rng.integers(20, 80)), 40)
        n = cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)
        stripes = 0.5 + 0.5 * np.sin(n * rng.uniform(10, 40))
        if rng.random() < 0.5:
            stripes = stripes.T.copy()
            stripes = cv2.resize(stripes, (w, h))
        c2 = _hsv2bgr(rng.uniform(5, 25), rng.uniform(80, 200), rng.uniform(60, 200))
        img = img * stripes[..., None] + c2 * (1 - stripes[..., None])
    elif kind == 3:  # board game: squares / tiles of several colours with lines
        cell = int(rng.integers(30, 160))
        cols = [_hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 230), rng.uniform(50, 250)) for _ in range(4)]
        for y in range(0, h, cell):
            for x in range(0, w, cell):
                img[y : y + cell, x : x + cell] = cols[int(rng.integers(0, 4))]
        line = _hsv2bgr(0, 0, rng.uniform(0, 255)).tolist()
        for y in range(0, h, cell):
            cv2.line(img, (0, y), (w, y), line, int(rng.integers(1, 4)))
        for x in range(0, w, cell):
            cv2.line(img, (x, 0), (x, h), line, int(rng.integers(1, 4)))
    elif kind == 4:  # cloth: fine high-frequency noise
        n = rng.normal(0, rng.uniform(5, 25), (h, w)).astype(np.float32)
        n = cv2.GaussianBlur(n, (0, 0), rng.uniform(0.5, 1.5))
        img += n[..., None]
    else:  # cluttered: random shapes, text-like marks, circles, lines (busy)
        for _ in range(int(rng.integers(10, 60))):
            c = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(20, 255)).tolist()
            t = rng.integers(0, 5)
            x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
            s = int(rng.integers(5, max(6, w // 4)))
            if t == 0:
                cv2.rectangle(img, (x, y), (x + s, y + int(rng.integers(5, s + 6))), c, -1)
            elif t == 1:
                cv2.circle(img, (x, y), max(2, s // 3), c, -1 if rng.random() < 0.6 else 2)
            elif t == 2:
                cv2.line(img, (x, y), (int(rng.integers(0, w)), int(rng.integers(0, h))), c, int(rng.integers(1, 6)))
            elif t == 3:
                m = np.zeros((h, w), np.uint8)
                cv2.putText(m, "ABC123"[int(rng.integers(0, 6)) :], (x, y), cv2.FONT_HERSHEY_SIMPLEX,
                            rng.uniform(0.4, 2.0), 255, int(rng.integers(1, 4)))
                img[m > 0] = c
            else:
                pts = rng.integers(0, max(w, h), (int(rng.integers(3, 6)), 2)).astype(np.int32)
                pts = (pts * 0.2 + np.array([x, y]) * 0.8).astype(np.int32)
                cv2.fillPoly(img, [pts], c)
        # small dots that look like pips: a hard negative
        for _ in range(int(rng.integers(0, 40))):
            c = _hsv2bgr(0, 0, rng.uniform(0, 255)).tolist()
            cv2.circle(img, (int(rng.integers(0, w)), int(rng.integers(0, h))), int(rng.integers(1, 5)), c, -1)
        if rng.random() < 0.5:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2.0))
    return img


def _lighting(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A low-frequency light field, 0.45..1.3."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    lin = (xx * math.cos(ang) + yy * math.sin(ang)) / max(w, h)
    field_ = 1 + rng.uniform(-0.5, 0.5) * (lin - lin.mean())
    field_ *= 0.8 + 0.4 * _smooth_noise(rng, h, w, 3) * rng.uniform(0, 1)
    if rng.random() < 0.3:  # spot light
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.3, 1.0) * max(w, h)
        field_ *= 0.7 + 0.5 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (r * r))
    return np.clip(field_ * rng.uniform(0.7, 1.15), 0.45, 1.3).astype(np.float32)
