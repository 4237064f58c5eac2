"""Qubism's reads made faster give the same answers to the bit (issue 31, session 19, qspeed2):
the labelling of a cube top's masks, and a top crop's measures from whole-number counts."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.arrows import components
from vision.qubism_glyph import GlyphRule, central_glyphs
from vision.qubism_read import FACE_SIDE, TopFace, top_face


def _crops() -> list[np.ndarray]:
    """48-pixel grey top crops: glyphs of several shapes on faces of several tones, print behind,
    noise, a glyph off the middle, plain and speckled crops."""
    rng = np.random.default_rng(19)
    out = []
    for n in range(24):
        img = np.full((48, 48), 0.3 + 0.4 * rng.random(), np.float32)
        face = float(rng.choice([0.2, 0.8]))
        img[7:41, 7:41] = face
        ink = 1.0 - face
        cx, cy = 24 + rng.integers(-6, 7), 24 + rng.integers(-6, 7)
        if n % 3 == 0:
            pts = np.int32([[cx, cy - 11], [cx + 9, cy + 8], [cx - 9, cy + 8]])
            cv2.fillPoly(img, [pts], ink)
        elif n % 3 == 1:
            cv2.rectangle(img, (cx - 2, cy - 4), (cx + 2, cy + 10), ink, -1)
            cv2.fillPoly(img, [np.int32([[cx - 8, cy - 3], [cx + 8, cy - 3], [cx, cy - 12]])], ink)
            cv2.circle(img, (24, 24), 15, ink, 1)
        else:
            img += (rng.random((48, 48)) < 0.3).astype(np.float32) * 0.4 - 0.2
        img += rng.normal(0, 0.03, (48, 48)).astype(np.float32)
        out.append(np.clip(img, 0, 1).astype(np.float32))
    out.append(np.full((48, 48), 0.6, np.float32))
    return out


def test_components_label_as_opencvs_default_does() -> None:
    """``components`` (Grana's labelling) gives OpenCV's default 8-connected labels, stats and
    centroids, in the same order, on single masks and on masks stacked as ``central_glyphs`` stacks
    them (a labelling that numbers components pixel by pixel, such as SAUF, orders them otherwise)."""
    rng = np.random.default_rng(5)
    masks = [(c[6:-6, 6:-6] <= float(np.median(c))).astype(np.uint8) for c in _crops()]
    masks += [(rng.random((48, 48)) < p).astype(np.uint8) for p in (0.2, 0.45, 0.6)]
    stacked = np.zeros((len(masks[:25]) * 38, 36), np.uint8)
    for n, m in enumerate(masks[:25]):
        stacked[n * 38:n * 38 + 36] = m
    for mask in [*masks, stacked]:
        n, labels, stats, cents = components(mask)
        m, want_labels, want_stats, want_cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
        assert n == m
        assert np.array_equal(labels, want_labels) and np.array_equal(stats, want_stats)
        assert np.array_equal(cents, want_cents, equal_nan=True)  # a mask all set: no background


def _top_face_before(top: np.ndarray) -> TopFace:
    """``top_face`` as session 18 wrote it (``np.nonzero`` and means of masks), without the arrow."""
    g = np.asarray(top, np.float32)
    m = int(round(FACE_SIDE * (1 - 2 / 3) / 2))
    mid = g[m:-m, m:-m]
    g8 = np.ascontiguousarray(np.clip(mid * 255, 0, 255).astype(np.uint8))
    cut, _ = cv2.threshold(g8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    light = g8 > cut
    glyph = ~light if light.mean() >= 0.5 else light
    a, b = mid[glyph], mid[~glyph]
    total = float(mid.var()) + 1e-9
    if len(a) == 0 or len(b) == 0:
        return TopFace(0.0, 0.0, 0.0, 1.0, 0.0, None, 0.0)
    within = (float(a.var()) * len(a) + float(b.var()) * len(b)) / mid.size
    ys, xs = np.nonzero(glyph)
    c = (mid.shape[0] - 1) / 2
    offset = float(np.hypot(xs.mean() - c, ys.mean() - c)) / FACE_SIDE
    border = float(np.concatenate([glyph[0], glyph[-1], glyph[:, 0], glyph[:, -1]]).mean())
    return TopFace(float(glyph.mean()), float(1 - within / total),
                   float(abs(a.mean() - b.mean()) / (mid.mean() + 1 / 255)), offset, border, None, 0.0)


def test_top_face_measures_are_the_same_bits() -> None:
    """A crop's glyph share, centre offset and border share counted in whole numbers equal the
    means of its masks to the bit (fails with the centre's rows and columns swapped, or the border
    counted from three sides)."""
    crops = _crops()
    faces = [top_face(c, arrow=False) for c in crops]
    assert sum(f.offset > 0.02 for f in faces) >= 10 and sum(f.border > 0 for f in faces) >= 5
    for crop, face in zip(crops, faces):
        assert repr(face) == repr(_top_face_before(crop))


@pytest.mark.parametrize("cuts", [1, 3])
def test_thresholds_within_a_tone_are_found_for_the_crops_that_need_them(cuts: int) -> None:
    """``central_glyphs`` finds a crop's thresholds within its tone classes only while it shows no
    cube's top: a frame's answers equal each crop's alone, a three-tone crop (a dark glyph on a
    mid-grey face before light paper: found only within a class) included."""
    rule = GlyphRule(cuts=cuts)
    three = np.full((48, 48), 0.95, np.float32)
    three[10:38, 10:38] = 0.55
    cv2.fillPoly(three, [np.int32([[24, 13], [33, 33], [15, 33]])], 0.3)
    crops = [three, *_crops()]
    alone = [central_glyphs([c], rule)[0] for c in crops]
    assert rule.is_cube(alone[0]) == (cuts == 3)  # the three-tone crop needs the thresholds within a class
    together = central_glyphs(crops, rule)
    assert [repr(g) for g in together] == [repr(g) for g in alone]
