"""``vision.arrows.arrow_direction`` and ``vision.qubism_glyph.glyph_direction`` with fewer numpy calls
(session 29, qspeed5): session 28's answers bit for bit (the references below are its code), on drawn
cube tops turned every few degrees, grey and in three channels, at 48 pixels and resized; the blob's
pixels no longer listed by ``np.nonzero``, and a glyph's blob at 48 pixels read from its 8-bit grey
drawn directly (no float patch, no ``arrow_direction``)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.vision.test_qubism_needle import CHEVRON, NEEDLE, _face
from tests.vision.test_qubism_thin_arrows import FLETCHED
from vision import arrows
from vision import qubism_glyph as qg
from vision.arrows import _clip, _covariance, _eigh, arrow_direction, channel_mean, components
from vision.qubism_glyph import GlyphRule, _row_spans, glyph_direction, triangle_apex
from vision.read_fast import mean_of

ARROW = [([(0.0, -0.32), (0.2, -0.05), (0.07, -0.05), (0.07, 0.3), (-0.07, 0.3), (-0.07, -0.05), (-0.2, -0.05)], 0.1)]


def _old_arrow_direction(patch: np.ndarray) -> tuple[str | None, float]:
    """Session 28's ``arrow_direction``, verbatim."""
    big = patch if patch.shape[:2] == (48, 48) else cv2.resize(patch, (48, 48), interpolation=cv2.INTER_AREA)
    gray = channel_mean(big) if big.ndim == 3 else (big + big + big) / 3
    g8 = np.clip(gray * 255, 0, 255).astype(np.uint8)
    cut, _ = cv2.threshold(np.ascontiguousarray(g8[8:40, 8:40]), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    light = g8 > cut
    mask = np.zeros(gray.shape, np.uint8)
    if int(np.count_nonzero(light[8:40, 8:40])) / (32 * 32) < 0.5:
        mask[6:42, 6:42] = light[6:42, 6:42]
    else:
        mask[6:42, 6:42] = ~light[6:42, 6:42]
    n, labels, stats, cents = components(mask)
    if n <= 1:
        return None, 0.0
    area = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    dist = np.hypot(cents[1:, 0] - 24, cents[1:, 1] - 24)
    k = 1 + int(np.argmax(area / (1 + dist / 12)))
    ys, xs = np.nonzero(labels == k)
    if len(xs) < 12:
        return None, 0.0
    x = xs - mean_of(xs)
    y = ys - mean_of(ys)
    evals, evecs = _eigh(_covariance(x, y))
    axis = evecs[:, 1]
    along = x * axis[0] + y * axis[1]
    across = -x * axis[1] + y * axis[0]
    pos, neg = along > 0, along < 0
    wpos = float(mean_of(np.abs(across[pos]))) if pos.any() else 0.0
    wneg = float(mean_of(np.abs(across[neg]))) if neg.any() else 0.0
    head = axis if wpos > wneg else -axis
    angle = math.degrees(math.atan2(head[1], head[0]))
    dirs = {"E": 0.0, "S": 90.0, "W": 180.0, "N": -90.0}
    best = min(dirs, key=lambda d: abs((angle - dirs[d] + 180) % 360 - 180))
    off = abs((angle - dirs[best] + 180) % 360 - 180)
    elong = 1 - evals[0] / (evals[1] + 1e-6)
    asym = abs(wpos - wneg) / (wpos + wneg + 1e-6)
    conf = float(_clip(1 - off / 45, 0, 1) * _clip(float(elong) * 2, 0, 1) * _clip(asym * 6, 0.3, 1))
    return best, max(conf, 0.05)


def _old_glyph_direction(blob: np.ndarray, top: np.ndarray, rule: GlyphRule) -> tuple[str | None, float]:
    """Session 28's ``glyph_direction``, verbatim (its arrow read by ``_old_arrow_direction``)."""
    apex = triangle_apex(blob, rule)
    if apex is not None:
        return apex
    ys, xs = np.nonzero(blob)
    cx, cy = float(mean_of(xs)), float(mean_of(ys))
    ext = {"N": cy - int(ys[0]), "S": int(ys[-1]) - cy, "W": cx - int(xs.min()), "E": int(xs.max()) - cx}
    ns, ew = ext["N"] - ext["S"], ext["E"] - ext["W"]
    span = max(max(ext.values()), 1.0)
    if abs(ns) >= abs(ew):
        tip, conf = ("N" if ns > 0 else "S"), (abs(ns) - abs(ew)) / span
    else:
        tip, conf = ("E" if ew > 0 else "W"), (abs(ew) - abs(ns)) / span
    spans = _row_spans(np.rot90(blob, qg._TURNS[tip]) > 0).astype(np.float64)
    last = max(1, int(round(len(spans) * 0.2)))
    if float(spans[-last:].mean()) >= rule.far_wide * float(spans.max()):
        return (tip, float(conf)) if conf >= rule.tip_conf else (None, float(conf))
    pad = (top.shape[0] - blob.shape[0]) // 2
    drawn = np.full((blob.shape[0] + 2 * pad, blob.shape[1] + 2 * pad), 0.9, np.float32)
    drawn[pad:pad + blob.shape[0], pad:pad + blob.shape[1]][blob > 0] = 0.1
    arrow, sure = _old_arrow_direction(drawn)
    return (arrow, sure) if arrow is not None and sure >= rule.arrow_conf else (None, sure)


def _tops() -> list[np.ndarray]:
    """Cube tops (48 pixels, float32): three glyphs, dark on light and light on dark, turned every 11 degrees,
    with a little noise."""
    rng = np.random.default_rng(29)
    out = []
    for polys in (ARROW, FLETCHED, CHEVRON, NEEDLE):
        for degrees in np.arange(0.0, 360.0, 11.0):
            face = _face(polys, float(degrees), 0.8, 0.5).astype(np.float32)
            for top in (face, 1 - face):
                out.append(np.clip(top + rng.normal(0, 0.03, top.shape), 0, 1).astype(np.float32))
    return out


def test_arrow_direction_gives_session_28s_answers_to_the_bit() -> None:
    tops = _tops()
    answers = 0
    for top in tops:
        for patch in (top, cv2.resize(top, (41, 41)), cv2.resize(top, (32, 32)), np.repeat(top[..., None], 3, axis=2)):
            new, old = arrow_direction(patch), _old_arrow_direction(patch)
            assert new == old
            answers += new[0] is not None
    assert answers > len(tops) * 2  # mostly read: the comparison is not of Nones


def _blobs() -> list[tuple[np.ndarray, np.ndarray]]:
    """Glyph blobs (36 pixels, and 29 cut from a 41-pixel top) of the tops, with their top."""
    out = []
    for top in _tops()[::2]:
        blob = (top[6:42, 6:42] < 0.3).astype(np.uint8)
        small = cv2.resize(top, (41, 41))
        out += [(blob, top), ((small[6:35, 6:35] < 0.3).astype(np.uint8), small)]
    return [(blob, top) for blob, top in out if 12 <= int(blob.sum()) < blob.size // 2]  # a glyph's blob


def test_glyph_direction_gives_session_28s_answers_to_the_bit() -> None:
    rule = GlyphRule()
    seen = set()
    for blob, top in _blobs():
        new, old = glyph_direction(blob, top, rule), _old_glyph_direction(blob, top, rule)
        assert new == old
        seen.add(new[0])
    assert len(seen) >= 4


@pytest.mark.parametrize("dtype", [np.uint8, np.bool_])
def test_nonzero_xy_is_numpys_order(dtype: type) -> None:
    from vision.arrows import nonzero_xy

    rng = np.random.default_rng(5)
    mask = (rng.random((37, 29)) < 0.3).astype(dtype)
    xs, ys = nonzero_xy(mask[3:30, 2:])  # a view too
    ys0, xs0 = np.nonzero(mask[3:30, 2:])
    assert np.array_equal(xs, xs0) and np.array_equal(ys, ys0)
    assert nonzero_xy(np.zeros((5, 5), dtype))[0].size == 0


def test_the_blob_is_not_listed_by_np_nonzero_and_a_drawn_blob_not_read_as_floats(monkeypatch: pytest.MonkeyPatch) -> None:
    """Session 28 listed the blob's pixels with ``np.nonzero`` (each pixel's index through numpy's iterator) and
    drew a glyph's blob as a float patch for ``arrow_direction``: both fail here."""
    blobs = [(b, t) for b, t in _blobs() if b.shape == (36, 36)]
    expected = [glyph_direction(b, t, GlyphRule()) for b, t in blobs]

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("not expected")

    monkeypatch.setattr(arrows.np, "nonzero", refused)
    monkeypatch.setattr(arrows, "arrow_direction", refused)
    monkeypatch.setattr(qg, "arrow_direction", refused, raising=False)
    assert [glyph_direction(b, t, GlyphRule()) for b, t in blobs] == expected
    assert arrow_direction(_tops()[0])[0] is not None
