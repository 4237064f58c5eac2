"""Qubism's ring covers build their maps from a table of ``r cos``, ``r sin`` for radii on the half pixels and take the
dark and the light circles' steps apart (vision.qubism_ring, session 31, qspeed): the same covers as session 30's
form (every map ``(x + r cos).astype(float32)`` with numpy's broadcasting, both steps and ``np.where``), circle for
circle, on the reader's half-pixel circles and off them. The faint-ring grid's coarse maps lie ring by ring (the
same values as session 30's circle by circle), their x tiled and kept, their angles counted eight to a word."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.qubism_ring import _COS, _SIN, _STACK_PAD, RingRule, _below32, _covers, _grid_maps, _grid_x, _held, _held_few, _ring_rows


def _session30(g: np.ndarray, cand: np.ndarray, tone: int | np.ndarray, noise: float | np.ndarray,
               rule: RingRule) -> np.ndarray:
    """Session 30's ``_covers`` (e796d05), word for word."""
    ang = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    ring = cand[:, 2, None] + np.array([0.0, -rule.beside, rule.beside])
    mx = (cand[:, 0, None, None] + ring[:, :, None] * np.cos(ang)).astype(np.float32).reshape(len(cand) * 3, -1)
    my = (cand[:, 1, None, None] + ring[:, :, None] * np.sin(ang)).astype(np.float32).reshape(len(cand) * 3, -1)
    v = np.asarray(cv2.remap(g, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)).reshape(len(cand), 3, -1)
    on, inner, outer = v[:, 0], v[:, 1], v[:, 2]
    if isinstance(tone, np.ndarray):
        step = np.where(tone[:, None] < 0, np.minimum(inner, outer) - on, on - np.maximum(inner, outer))
    else:
        step = np.minimum(inner, outer) - on if tone < 0 else on - np.maximum(inner, outer)
    held = _held(step > (_below32(noise)[:, None] if isinstance(noise, np.ndarray) else noise))
    out: np.ndarray = held / step.shape[1]
    return out


def _stack(rng: np.random.Generator) -> np.ndarray:
    """Faint-ring crops one under the other in a replicated border, as ``_Stack`` holds them."""
    data = np.load(Path(__file__).parent / "data" / "qubism_faint_rings.npz")
    crops = [cv2.GaussianBlur(c, (0, 0), 0.7) for c in data["crops"].astype(np.float32) / 255]
    return np.vstack([cv2.copyMakeBorder(c, 12, 12, 12, 12, cv2.BORDER_REPLICATE) for c in crops])


def _half_circles(rng: np.random.Generator, k: int, rows: int) -> np.ndarray:
    """Circles as the reader looks at them: centres and radii on the half pixels, anywhere down the stack."""
    x = rng.integers(2 * 14, 2 * 58, k) / 2
    y = rng.integers(2 * 14, 2 * (rows - 14), k) / 2
    r = rng.integers(2 * 5, 2 * 16, k) / 2
    return np.column_stack([x, y, r])


def test_covers_as_session_30_on_half_pixel_circles() -> None:
    rng = np.random.default_rng(3131)
    g = _stack(rng)
    rule = RingRule()
    for k in (1, 7, 64, 500):
        cand = _half_circles(rng, k, g.shape[0])
        tone = rng.choice([-1, 1], k)
        noise = rng.uniform(0.0, 0.05, k)
        noise[::5] = 0.0
        assert np.array_equal(_covers(g, cand, tone, noise, rule), _session30(g, cand, tone, noise, rule))
        for t in (-1, 1):  # one tone and one noise for all
            assert np.array_equal(_covers(g, cand, t, 0.02, rule), _session30(g, cand, t, 0.02, rule))
        dark = np.full(k, -1)
        assert np.array_equal(_covers(g, cand, dark, noise, rule), _session30(g, cand, dark, noise, rule))


def test_covers_as_session_30_off_the_half_pixels() -> None:
    rng = np.random.default_rng(3132)
    g = _stack(rng)
    rule = RingRule()
    cand = np.column_stack([rng.uniform(14, 58, 300), rng.uniform(14, g.shape[0] - 14, 300), rng.uniform(5, 16, 300)])
    cand[::3] = _half_circles(rng, 100, g.shape[0])  # a third on the half pixels: one call, the radii multiplied out
    tone = rng.choice([-1, 1], 300)
    noise = rng.uniform(0.0, 0.05, 300)
    assert np.array_equal(_covers(g, cand, tone, noise, rule), _session30(g, cand, tone, noise, rule))


def test_ring_rows_are_the_products() -> None:
    ang = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    for ring in (np.arange(0, 100) * 0.5, np.array([3.0, 0.5, 12.5, 0.0, 40.0]), np.array([3.25, 1.0]),
                 np.array([-0.5, 2.0]), np.array([5000.0])):
        rx, ry = _ring_rows(ring)
        assert np.array_equal(rx, ring[:, None] * np.cos(ang)) and np.array_equal(ry, ring[:, None] * np.sin(ang))
        rx[:] = 0  # new arrays: the kept table is not written through them
        assert np.array_equal(_ring_rows(ring)[0], ring[:, None] * np.cos(ang))


def test_covers_of_no_circle() -> None:
    g = np.zeros((72, 72), np.float32)
    assert _covers(g, np.zeros((0, 3)), np.zeros(0, int), np.zeros(0), RingRule()).shape == (0,)


def test_grid_maps_are_session_30s_ring_by_ring() -> None:
    for rule in (RingRule(), RingRule(grid_coarse=2, grid_step=3.0)):
        grid, (mx, my) = _grid_maps(rule)
        ring = grid[:, 2, None] + np.array([0.0, -rule.beside, rule.beside])
        cos, sin = _COS[::rule.grid_coarse], _SIN[::rule.grid_coarse]
        old_x = (grid[:, 0, None, None] + _STACK_PAD + ring[:, :, None] * cos).astype(np.float32).reshape(len(grid) * 3, -1)
        old_y = (grid[:, 1, None, None] + _STACK_PAD + ring[:, :, None] * sin).astype(np.float32).reshape(len(grid) * 3, -1)
        for new, old in ((mx, old_x), (my, old_y)):  # row c * 3 + k of session 30's is row k * circles + c
            assert np.array_equal(new.reshape(3, len(grid), -1).transpose(1, 0, 2).reshape(len(grid) * 3, -1), old)
        for crops in (1, 3, 40, 5):
            tiled = _grid_x(rule, crops)
            assert tiled.shape == (crops * mx.shape[0], mx.shape[1])
            assert np.array_equal(tiled, np.tile(mx, (crops, 1)))


def test_held_few_counts_as_held() -> None:
    rng = np.random.default_rng(3133)
    for n in (8, 16, 24, 64, 248, 12, 4):  # 12 and 4: numpy's reduction (so is any length over 255)
        for share in (0.0, 0.3, 0.9, 1.0):
            ok = rng.random((5, 7, n)) < share
            want = np.count_nonzero(ok, axis=-1)
            got = _held_few(ok)
            assert got.dtype == np.uint8 and np.array_equal(got, want)
            strided = np.concatenate([ok, ok], axis=1)[:, ::2]  # not contiguous
            assert np.array_equal(_held_few(strided), np.count_nonzero(strided, axis=-1))
            assert np.array_equal(_held(ok), want)
