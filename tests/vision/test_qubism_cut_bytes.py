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


def test_covers_steps_against_noise_as_numpy_compares() -> None:
    """``qubism_ring._covers`` casts the float32 steps to float64 itself before comparing them with each
    circle's float64 noise: numpy's own comparison (which casts in buffers) to the bit, on values that
    differ only past float32's precision."""
    from vision.qubism_ring import RingRule, _covers

    rng = np.random.default_rng(3)
    g = rng.random((60, 60)).astype(np.float32)
    cand = np.column_stack([rng.uniform(15, 45, 300), rng.uniform(15, 45, 300), rng.uniform(4, 12, 300)])
    tone = rng.choice([-1, 1], 300)
    rule = RingRule()
    ring = cand[:, 2, None] + np.array([0.0, -rule.beside, rule.beside])
    from vision.qubism_ring import _COS, _SIN
    mx = (cand[:, 0, None, None] + ring[:, :, None] * _COS).astype(np.float32).reshape(len(cand) * 3, -1)
    my = (cand[:, 1, None, None] + ring[:, :, None] * _SIN).astype(np.float32).reshape(len(cand) * 3, -1)
    v = np.asarray(cv2.remap(g, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)).reshape(len(cand), 3, -1)
    on, inner, outer = v[:, 0], v[:, 1], v[:, 2]
    step = np.where(tone[:, None] < 0, np.minimum(inner, outer) - on, on - np.maximum(inner, outer))
    # each circle's noise just beside one of its steps (float64, between two float32 values): a float32 compare would tie
    noise = step[np.arange(300), rng.integers(0, step.shape[1], 300)].astype(np.float64) + rng.choice([-1e-12, 1e-12], 300)
    want = np.count_nonzero(step > noise[:, None], axis=1) / step.shape[1]
    assert np.array_equal(_covers(g, cand, tone, noise, rule), want)
    assert not np.array_equal(want, np.count_nonzero(step > noise.astype(np.float32)[:, None], axis=1) / step.shape[1])
