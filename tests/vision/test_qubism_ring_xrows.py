"""Qubism's ring covers take their x map whole from a float32 table where every centre's x and every radius is a
whole number of half pixels (vision.qubism_ring._x_rows, session 32, qspeed): the table holds session 30's values,
``(x + r cos).astype(float32)`` with ``r cos`` the float64 product, and hands back new arrays; off the half pixels or
beyond its reach it answers None (the maps multiplied out). The crops' stack is written in place, the same image as
the stacked bordered crops."""

from __future__ import annotations

import cv2
import numpy as np

from vision.qubism_ring import _COS, _SIN, _XTAB_MOST, _Stack, _x_rows


def _expected(x: np.ndarray, ring: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Session 30's x map and ``r sin`` for centres ``x`` (each three radii of ``ring`` in turn)."""
    xs = np.repeat(x, 3)
    return (xs[:, None] + ring[:, None] * np.cos(np.linspace(0, 2 * np.pi, 64, endpoint=False))).astype(np.float32), \
        ring[:, None] * np.sin(np.linspace(0, 2 * np.pi, 64, endpoint=False))


def test_x_rows_are_session_30s_values() -> None:
    rng = np.random.default_rng(3201)
    for k in (1, 9, 400):
        x = rng.integers(0, 2 * 72, k) / 2
        ring = (rng.integers(0, 2 * 25, k) / 2)[:, None] + np.array([0.0, -2.5, 2.5])
        ring = np.abs(ring).ravel()
        got = _x_rows(x, ring)
        assert got is not None
        want = _expected(x, ring)
        assert got[0].dtype == np.float32 and np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        got[0][:] = 0  # new arrays: the kept tables are not written through them
        got[1][:] = 0
        again = _x_rows(x, ring)
        assert again is not None and np.array_equal(again[0], want[0]) and np.array_equal(again[1], want[1])


def test_x_rows_grow_to_a_wider_centre_and_radius() -> None:
    x = np.array([_XTAB_MOST[0] / 2 - 0.5, 0.0])
    ring = np.array([_XTAB_MOST[1] / 2 - 0.5, 3.0, 8.0, 0.0, 1.5, 40.0])
    got = _x_rows(x, ring)
    assert got is not None
    assert np.array_equal(got[0], _expected(x, ring)[0]) and np.array_equal(got[1], _expected(x, ring)[1])


def test_x_rows_off_the_half_pixels_or_beyond_reach_answer_none() -> None:
    ring = np.array([10.0, 7.5, 12.5])
    assert _x_rows(np.array([30.25]), ring) is None  # a centre off the half pixels
    assert _x_rows(np.array([30.5]), np.array([10.0, 7.25, 12.5])) is None  # a radius off them
    assert _x_rows(np.array([_XTAB_MOST[0] / 2]), ring) is None  # beyond the table's centres
    assert _x_rows(np.array([30.5]), np.array([_XTAB_MOST[1] / 2, 7.5, 12.5])) is None  # beyond its radii
    assert _x_rows(np.array([-0.5]), ring) is None
    assert _x_rows(np.zeros(0), np.zeros(0)) is None
    assert _COS.shape == _SIN.shape == (64,)


def test_stack_is_the_stacked_bordered_crops() -> None:
    rng = np.random.default_rng(3202)
    for n in (1, 2, 23):
        gs = [rng.random((48, 48), np.float32) for _ in range(n)]
        want = np.vstack([cv2.copyMakeBorder(g, 12, 12, 12, 12, cv2.BORDER_REPLICATE) for g in gs])
        got = _Stack(gs).image
        assert got.dtype == np.float32 and np.array_equal(got, want)
    gs64 = [rng.random((48, 48)) for _ in range(3)]  # not float32: stacked as before
    assert np.array_equal(_Stack(gs64).image, np.vstack([cv2.copyMakeBorder(g, 12, 12, 12, 12, cv2.BORDER_REPLICATE)
                                                         for g in gs64]))
