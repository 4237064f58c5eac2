"""Qubism's ring search with fewer calls, the same rings (vision.qubism_ring, session 26, qspeed).

``ring_tops`` multiplies a crop's spectrum by every radius's in one call and refines every crop's first
circle together with each radius's best places in one stacked remap. Checked against the search as it was
(session 25's code: a product and an inverse transform a radius, each crop's first circle refined alone),
on the top crops of ``data/qubism_faint_rings.npz`` (four faint-ring cubes, four other spots) turned four
ways, and a crop read in a frame as it is read alone."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import qubism_ring as qr
from vision.qubism_ring import RingRule, RingTop, ring_tops

_DATA = np.load(Path(__file__).parent / "data" / "qubism_faint_rings.npz")
CROPS = _DATA["crops"].astype(np.float32) / 255
TURNED = np.concatenate([np.rot90(CROPS, k, axes=(1, 2)) for k in range(4)]).copy()  # 32 crops


def _before(tops: np.ndarray, rule: RingRule) -> list[tuple[float, float, float, float, int] | None]:
    """Session 25's ring search, step for step: one product and inverse transform a radius, each crop's first
    circle refined alone (27 circles, one remap a crop), the most closed of each radius's best places refined."""
    half, size = qr.SIDE // 2, qr.SIDE // 2 + 2 * qr._PAD
    c, m = (half - 1) / 2, int(round(rule.offset * half))
    lo, hi = int(c) - m + qr._PAD, int(c) + m + 2 + qr._PAD
    radii, spectra = qr._spectra(rule, size)
    out: list[tuple[float, float, float, float, int] | None] = []
    for g in (cv2.GaussianBlur(t, (0, 0), 0.7) for t in tops):
        f = cv2.dft(cv2.copyMakeBorder(cv2.resize(g, (half, half), interpolation=cv2.INTER_AREA), qr._PAD, qr._PAD,
                                       qr._PAD, qr._PAD, cv2.BORDER_REPLICATE), flags=cv2.DFT_COMPLEX_OUTPUT)
        w = np.stack([cv2.idft(cv2.mulSpectrums(f, k, 0), flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)[lo:hi, lo:hi]
                      for k in spectra])
        j, y, x = np.unravel_index(int(np.argmax(np.abs(w))), w.shape)
        tone = 1 if w[j, y, x] > 0 else -1
        noise = float(np.std(g - cv2.GaussianBlur(g, (0, 0), 2.0))) + 0.01
        cand = qr._NEAR + np.array([2 * float(x + lo - qr._PAD) + 0.5, 2 * float(y + lo - qr._PAD) + 0.5, 2 * float(radii[j])])
        cover = qr._covers(g, cand, tone, noise, rule)
        k = int(np.argmax(cover))
        best = (float(cover[k]), *(float(v) for v in cand[k]), tone)
        if best[0] < rule.cover and rule.starts > 0:
            places = [(float(v), r, t) for t, a in ((1, np.argmax), (-1, np.argmin)) for r, v in zip(radii, (a(p) for p in w.reshape(len(radii), -1)))]
            circles = np.array([[2 * (int(v) % w.shape[2] + lo - qr._PAD) + 0.5, 2 * (int(v) // w.shape[2] + lo - qr._PAD) + 0.5,
                                 2 * r] for v, r, _ in places])
            tones = np.array([t for *_, t in places])
            stack = qr._Stack([g])
            first = stack.covers(circles, np.zeros(len(circles), int), tones, np.full(len(circles), noise), rule)
            for s in np.argsort(-first, kind="stable")[:rule.starts]:
                near = circles[s] + qr._NEAR
                cov = stack.covers(near, np.zeros(len(near), int), np.full(len(near), tones[s]), np.full(len(near), noise), rule)
                n = int(np.argmax(cov))
                if float(cov[n]) > best[0]:
                    best = (float(cov[n]), *(float(v) for v in near[n]), int(tones[s]))
        out.append(best if best[0] >= rule.cover else None)
    return out


def _plain(found: RingTop | None) -> tuple[float, float, float, float, int] | None:
    return None if found is None else (found.cover, found.x, found.y, found.radius, found.tone)


@pytest.mark.parametrize("starts", [0, 1, 3])
def test_the_same_rings_as_the_search_one_call_a_radius(starts: int) -> None:
    rule = RingRule(starts=starts, grid_cover=0.0)  # the search alone (the grid after it: test_qubism_ring_grid.py)
    now = [_plain(f) for f in ring_tops(TURNED, rule)]
    assert now == _before(TURNED, rule)
    assert sum(f is not None for f in now) >= (16 if starts else 0)  # the faint rings, found turned every way


def test_a_crop_reads_in_a_frame_as_it_reads_alone() -> None:
    together = ring_tops(TURNED, RingRule())
    for k in range(len(TURNED)):
        alone = ring_tops(TURNED[k:k + 1], RingRule())[0]
        assert _plain(alone) == _plain(together[k])
        if alone is not None:
            a, b = alone.arrow, together[k].arrow
            assert (a is None) == (b is None) and (a is None or np.array_equal(a, b))


def test_every_radius_multiplied_in_one_call_is_each_radius_alone() -> None:
    size = qr.SIDE // 2 + 2 * qr._PAD
    radii, spectra = qr._spectra(RingRule(), size)
    f = cv2.dft(np.random.default_rng(5).random((size, size), np.float32), flags=cv2.DFT_COMPLEX_OUTPUT)
    both = cv2.mulSpectrums(np.tile(f, (len(radii), 1, 1)), qr._tall_spectra(RingRule(), size), 0)
    for j, k in enumerate(spectra):
        assert np.array_equal(both[j * size:(j + 1) * size], cv2.mulSpectrums(f, k, 0))
