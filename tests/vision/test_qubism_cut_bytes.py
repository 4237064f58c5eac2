"""Session 30 (qspeed): the top crops' Otsu cuts are compared with the 8-bit crops as bytes
(``qubism_read.top_faces``, ``qubism_glyph.central_and_small``): an 8-bit Otsu cut is a whole number
0-255, so the masks are those of the float64 / int64 comparison they replace, bit for bit."""

from __future__ import annotations

import cv2
import numpy as np

from vision.qubism_glyph import _cuts
from vision.qubism_read import FACE_SIDE, top_face, top_faces


def _crops(n: int, seed: int) -> np.ndarray:
    """Grey crops (0-1): a face, a darker glyph, noise, some nearly flat, some saturated."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, FACE_SIDE, FACE_SIDE), np.float32)
    yy, xx = np.mgrid[0:FACE_SIDE, 0:FACE_SIDE]
    for k in range(n):
        face = rng.uniform(0.3, 1.2)
        g = np.full((FACE_SIDE, FACE_SIDE), face) + rng.normal(0, rng.choice([0.002, 0.03, 0.1]), (FACE_SIDE, FACE_SIDE))
        r = rng.uniform(3, 14)
        g[np.hypot(xx - rng.uniform(16, 32), yy - rng.uniform(16, 32)) < r] -= rng.uniform(0.0, 0.6)
        out[k] = g
    return out


def test_otsu_cuts_of_bytes_are_whole_numbers() -> None:
    for k, g in enumerate(_crops(200, 1)):
        g8 = np.clip(g * 255, 0, 255).astype(np.uint8)
        cut = cv2.threshold(g8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
        assert cut == int(cut) and 0 <= cut <= 255, k
        assert np.array_equal(g8 > cut, g8 > np.uint8(cut))
        assert np.array_equal(g8 <= np.array([int(cut)])[:, None], g8 <= np.array([int(cut)], np.uint8)[:, None])
        assert all(0 <= c <= 255 for c in _cuts(g8, 3))


def test_top_faces_are_top_face_each() -> None:
    tops = _crops(60, 2)
    faces = top_faces(tops)
    assert faces == [top_face(t, arrow=False) for t in tops]
    assert len({f.glyph_share for f in faces}) > 10  # the crops differ: the measure is not trivially alike

