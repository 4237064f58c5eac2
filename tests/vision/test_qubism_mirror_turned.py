"""A thin glyph's blob as drawn turned without its mirror scores (``vision.qubism_needle._turned``): one
``_mirror_scores`` call fewer on a thin glyph, the scores and turned blobs session 26's bit for bit
(session 28, qspeed3)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_qubism_needle import TURNS, _face
from tests.vision.test_qubism_thin_arrows import FLETCHED
from vision import qubism_axis as qa
from vision.qubism_axis import AxisRule, _mirror_scores, _turned, axis_direction, thick_enough
from vision.qubism_glyph import GlyphRule
from vision.qubism_needle import central_ink, plate_ink
from vision.read_fast import mean_of


def _full_square(mask: np.ndarray, turns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_mirror_scores`` as session 26 left it (one function: the maps, the remap, the sums)."""
    m = np.asarray(mask, np.float32)
    ys, xs = np.nonzero(m)
    cx, cy = float(mean_of(xs)), float(mean_of(ys))
    n = 2 * int(np.ceil(float(np.sqrt(((xs - cx) ** 2 + (ys - cy) ** 2).max())))) + 3
    a = np.radians(np.asarray(turns, np.float32))[:, None, None]
    place = np.arange(n, dtype=np.float32) - np.float32((n - 1) / 2)
    v, u = place[:, None], place[None, :]
    cos, sin = np.cos(a), np.sin(a)
    mx = ((cos * u + cx) - sin * v).reshape(-1, n)
    my = ((cos * v + cy) + sin * u).reshape(-1, n)
    turned = cv2.remap(m, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT).reshape(len(turns), n, n)
    both = 2 * turned.sum(axis=(1, 2), dtype=np.float64)
    scores = np.empty((len(turns), 2))
    for k, flipped in enumerate((turned[:, :, ::-1], turned[:, ::-1, :])):
        common = np.minimum(turned, flipped).sum(axis=(1, 2), dtype=np.float64)
        scores[:, k] = common / (both - common + 1e-6)
    return scores, turned


def _masks() -> list[np.ndarray]:
    out = []
    for degrees, _ in TURNS:
        for turn in (0.0, 7.0, -13.0):
            crop = _face(FLETCHED, degrees + turn, 0.25, 0.5, sticker=0.76)
            mask = (crop[6:42, 6:42] < 0.3).astype(np.uint8)
            out += [mask, thick_enough(mask, AxisRule())]
    return out


def test_the_scores_and_turned_blobs_are_session_26s_bit_for_bit() -> None:
    coarse = np.arange(-40.0, 40.5, 4.0)
    for mask in _masks():
        for turns in (coarse, np.array([6.0, 4.0, 8.0]), np.array([-38.0])):
            scores, turned = _mirror_scores(mask, turns)
            want, want_turned = _full_square(mask, turns)
            assert np.array_equal(scores, want) and np.array_equal(turned, want_turned)
            assert np.array_equal(_turned(mask, turns), want_turned)


@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_thin_glyph_is_scored_twice_and_read_as_before(degrees: float, want: str, monkeypatch: pytest.MonkeyPatch) -> None:
    crop = _face(FLETCHED, degrees + 8.0, 0.25, 0.5, sticker=0.76)
    ink = central_ink(crop) or plate_ink(crop)  # the ink asked_arrow reads on such a top (its glyph: none)
    assert ink is not None
    mask = ink[0]
    assert thick_enough(mask, AxisRule()) is not mask  # a thin glyph: scored thickened, read as drawn
    calls: list[int] = []
    scored = qa._mirror_scores

    def counted(m: np.ndarray, turns: np.ndarray, *frame: tuple[np.ndarray, float, float, int]) -> tuple[np.ndarray, np.ndarray]:
        calls.append(len(turns))
        return scored(m, turns, *frame)

    monkeypatch.setattr(qa, "_mirror_scores", counted)
    assert axis_direction(mask, GlyphRule())[0] == want
    assert calls == [21, 2]  # the coarse turns, the two refined; the glyph as drawn only turned (``_turned``)
