"""Qubism's ring covers compare their float32 steps with each circle's noise in float32 (vision.qubism_ring,
session 30, qspeed2): ``_below32`` (the largest float32 at most the float64 noise) gives the same booleans as
numpy's float64 comparison, so ``_covers`` reads every circle as before without numpy casting the steps to
float64 in its buffers."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.qubism_ring import RingRule, _below32, _covers


def _floats_near(x: np.ndarray) -> np.ndarray:
    """The float32 values around each of ``x``: its nearest, and three steps either side."""
    f = x.astype(np.float32)
    out = [f]
    up, down = f, f
    for _ in range(3):
        up, down = np.nextafter(up, np.float32(np.inf)), np.nextafter(down, np.float32(-np.inf))
        out += [up, down]
    return np.stack(out, axis=1)  # [len(x), 7]


def test_float32_above_the_float64_exactly_when_above_below32() -> None:
    rng = np.random.default_rng(30)
    f = (rng.random(4000) * 0.2).astype(np.float32)
    half_up = np.nextafter(f, np.float32(1)).astype(np.float64)
    x = np.concatenate([
        rng.random(20000) * 0.2 + 0.01,  # the crops' noise: a spread + 0.01
        f.astype(np.float64),  # exactly a float32
        (f.astype(np.float64) + half_up) / 2 + 1e-12,  # just above a float32's midpoint: rounds up to the next
        (f.astype(np.float64) + half_up) / 2 - 1e-12,  # just under it: rounds down
        [0.0, -0.0, 1e-45, -1e-3, 3.5e38, -3.5e38, np.inf, -np.inf, np.nan],
    ])
    with np.errstate(over="ignore"):  # 3.5e38 is no float32
        s = _floats_near(x)
        b = _below32(x)
        nearest = x.astype(np.float32)
    assert b.dtype == np.float32
    assert np.array_equal(s > x[:, None], s > b[:, None])
    assert np.array_equal(np.float32(np.inf) > x, np.float32(np.inf) > b)
    finite = np.isfinite(x) & (np.abs(x) < 3e38)
    assert np.all(b[finite].astype(np.float64) <= x[finite])
    # round-to-nearest is not enough: where x lies under its nearest float32, that float32 is above x
    assert not np.array_equal(s > x[:, None], s > nearest[:, None])


def test_covers_read_as_the_float64_comparison() -> None:
    data = np.load(Path(__file__).parent / "data" / "qubism_faint_rings.npz")
    rule = RingRule()
    rng = np.random.default_rng(31)
    for crop in data["crops"].astype(np.float32) / 255:
        g = cv2.GaussianBlur(crop, (0, 0), 0.7)
        k = 400
        cand = np.column_stack([rng.uniform(14, 34, k), rng.uniform(14, 34, k), rng.uniform(5, 16, k)])
        tone = rng.choice([-1, 1], k)
        noise = rng.uniform(0.0, 0.05, k)
        noise[::7] = 0.0  # steps of exactly 0 against no noise
        cover = _covers(g, cand, tone, noise, rule)
        # session 29's form: the float32 steps against the float64 noise, numpy's promotion
        ring = cand[:, 2, None] + np.array([0.0, -rule.beside, rule.beside])
        ang = np.linspace(0, 2 * np.pi, 64, endpoint=False)
        mx = (cand[:, 0, None, None] + ring[:, :, None] * np.cos(ang)).astype(np.float32).reshape(k * 3, -1)
        my = (cand[:, 1, None, None] + ring[:, :, None] * np.sin(ang)).astype(np.float32).reshape(k * 3, -1)
        v = cv2.remap(g, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).reshape(k, 3, -1)
        on, inner, outer = v[:, 0], v[:, 1], v[:, 2]
        step = np.where(tone[:, None] < 0, np.minimum(inner, outer) - on, on - np.maximum(inner, outer))
        want = (step > noise[:, None]).mean(axis=1)
        assert np.array_equal(cover, want)
