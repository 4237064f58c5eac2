"""A Qubism top crop's ink found once a frame (``vision.qubism_ink``, session 24): the same ink as session
23's ``central_ink`` and ``plate_ink`` found it, each crop's found once for ``asked_arrows``,
``needle_checked`` and ``pawn_lines``, and no ink looked for on a cube its own glyph read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.qubism_ink as qink
from tests.vision.test_qubism_needle import CHEVRON, NEEDLE, PLAIN_NEEDLE, _face
from tests.vision.test_qubism_thin_arrows import FLETCHED, STRAY, _pawn
from vision.qubism_glyph import GlyphRule
from vision.qubism_needle import NeedleRule, asked_arrows, central_ink, needle_checked, plate_ink


def _old_quantile(values: np.ndarray, q: float) -> float:
    flat = np.ravel(values)
    k = int(round(q * (flat.size - 1)))
    return float(np.partition(flat, k)[k])


def _old_largest(mask: np.ndarray, n: int, rule: NeedleRule, inside: bool) -> np.ndarray | None:
    h, w = mask.shape
    count, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    c, best = (h - 1) / 2, 0
    for j in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[j])
        if inside and (x == 0 or y == 0 or x + bw >= w or y + bh >= h):
            continue
        if not rule.share[0] <= area / (n * n) <= rule.share[1]:
            continue
        if float(np.hypot(cents[j][0] - c, cents[j][1] - c)) / n > rule.offset:
            continue
        if best == 0 or area > int(stats[best, cv2.CC_STAT_AREA]):
            best = j
    return None if best == 0 else (labels == best).astype(np.uint8)


def _old_inks(top: np.ndarray, rule: NeedleRule) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Session 23's ``central_ink`` and ``plate_ink`` masks, as first written (a crop thresholded twice, the
    plate's hull from all its pixels, its parts' shares weighted)."""
    g = np.asarray(top, np.float32)
    n = g.shape[0]
    inner = g[rule.inset:n - rule.inset, rule.inset:n - rule.inset]
    h, w = inner.shape
    k = h // 6
    face = _old_quantile(inner[k:h - k, k:w - k], 0.75)
    span = face - _old_quantile(inner, 0.02)
    if span < rule.min_range:
        return None, None
    dark = (inner < face - rule.ink * span).astype(np.uint8)
    central = _old_largest(dark, n, rule, inside=True)
    count, labels, _, _ = cv2.connectedComponentsWithStats(1 - dark, connectivity=4)
    if count < 2:
        return central, None
    middle = labels[k:h - k, k:w - k]
    share = np.bincount(middle.ravel(), weights=(1 - dark[k:h - k, k:w - k]).ravel().astype(np.float64),
                        minlength=count)
    share[0] = -1
    light = labels == int(np.argmax(share))
    hull = cv2.convexHull(np.column_stack(np.nonzero(light))[:, ::-1].astype(np.int32))
    outline = np.zeros_like(dark)
    cv2.fillConvexPoly(outline, hull, 1)
    kernel = np.ones((3, 3), np.uint8)
    plate = np.asarray(cv2.erode(outline, kernel, iterations=rule.plate_shrink), np.uint8)
    blob = _old_largest(dark & plate, n, rule, inside=False)
    if blob is None:
        return central, None
    ring = (cv2.dilate(blob, kernel, iterations=3) > 0) & (cv2.dilate(blob, kernel) == 0)
    if int(ring.sum()) < 20 or float((dark[ring] == 0).mean()) < rule.plate_purity:
        return central, None
    return central, blob


def _crops() -> list[np.ndarray]:
    rng = np.random.default_rng(24)
    out = []
    for degrees in (0.0, 7.0, 90.0, 184.0, 263.0):
        for polys, ink, face, sticker in ((FLETCHED, 0.25, 0.5, 0.76), (FLETCHED + STRAY, 0.25, 0.5, 0.76),
                                          (CHEVRON, 0.3, 0.8, 0.0), (NEEDLE, 0.45, 0.3, 0.8),
                                          (PLAIN_NEEDLE, 0.45, 0.3, 0.8)):
            crop = _face(polys, degrees, ink, face, sticker=sticker)
            out.append(crop)
            out.append(np.clip(crop + rng.normal(0, 0.03, crop.shape), 0, 1).astype(np.float32))
    out += [_pawn(0.1, 0.3), _pawn(0.95, 0.6), np.full((48, 48), 0.7, np.float32)]
    edge = np.full((48, 48), 0.8, np.float32)
    edge[:, 30:] = 0.2
    return out + [edge]


def test_the_ink_is_session_23s() -> None:
    rule = NeedleRule()
    found = 0
    for crop in _crops():
        central, plate = _old_inks(crop, rule)
        new_c, new_p = central_ink(crop, rule), plate_ink(crop, rule)
        for old, new in ((central, new_c), (plate, new_p)):
            assert (old is None) == (new is None)
            if old is not None and new is not None:
                assert new[0].dtype == np.uint8 and np.array_equal(old, new[0])
                found += 1
    assert found >= 20  # the crops do show ink, both ways found


def _count_ink(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that gains an item each time a crop's ink is found (``qubism_ink.dark_ink``)."""
    calls: list[int] = []
    dark = qink.dark_ink

    def counted(top: np.ndarray, rule: NeedleRule) -> qink._Dark | None:
        calls.append(1)
        return dark(top, rule)

    monkeypatch.setattr(qink, "dark_ink", counted)
    return calls


def test_each_crops_ink_is_found_once_a_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    arrow = _face(FLETCHED + STRAY, 6.0, 0.25, 0.5, sticker=0.76)  # north
    needle = _face(NEEDLE, 90.0, 0.45, 0.3, sticker=0.8)
    tops = np.array([arrow, needle, arrow, _pawn(0.1, 0.3)])
    read: list[tuple[str | None, float]] = [("cube:?", 0.7), ("cube:N", 0.7), ("cube:S", 0.55), ("pawn:white", 0.5)]
    alone = list(read)
    asked_arrows(alone, [0, 1, 2, 3], tops, {}, frozenset(), GlyphRule(), NeedleRule())
    needle_checked(alone, [0, 1, 2, 3], tops, {}, frozenset(), NeedleRule())
    calls = _count_ink(monkeypatch)
    shared = list(read)
    inks = qink.TopInks(tops, NeedleRule())
    asked_arrows(shared, [0, 1, 2, 3], tops, {}, frozenset(), GlyphRule(), NeedleRule(), inks)
    needle_checked(shared, [0, 1, 2, 3], tops, {}, frozenset(), NeedleRule(), inks=inks)
    assert shared == alone and shared[0][0] == "cube:N" and shared[2] == ("cube:N", 0.55)
    assert len(calls) == 4  # once a crop, though asked, checked and looked at for a line arrow


def test_no_line_arrow_is_looked_for_on_a_cube_its_own_glyph_read(monkeypatch: pytest.MonkeyPatch) -> None:
    arrow = _face(FLETCHED + STRAY, 6.0, 0.25, 0.5, sticker=0.76)  # north
    tops = np.array([arrow])
    calls = _count_ink(monkeypatch)
    own_read: list[tuple[str | None, float]] = [("cube:N", 0.55)]
    needle_checked(own_read, [0], tops, {0: "N"}, frozenset(), NeedleRule(own_checked=False))
    assert own_read == [("cube:N", 0.55)] and calls == []  # left as its glyph read it, its crop not looked at
    checked: list[tuple[str | None, float]] = [("cube:N", 0.55)]
    needle_checked(checked, [0], tops, {0: "N"}, frozenset(), NeedleRule())
    assert checked == [("cube:N", 0.55)] and len(calls) == 1  # session 25: its ink checked (agrees), not made sure
    before: list[tuple[str | None, float]] = [("cube:N", 0.55)]
    needle_checked(before, [0], tops, {0: "N"}, frozenset(), NeedleRule(own_read=False, own_checked=False))
    assert before == [("cube:N", 0.6)] and len(calls) == 2  # session 23: its line arrow found, made sure
    unread: list[tuple[str | None, float]] = [("cube:N", 0.55)]
    needle_checked(unread, [0], tops, {0: None}, frozenset(), NeedleRule())
    assert unread == [("cube:N", 0.6)]  # a cube its glyph did not read is looked at as before
