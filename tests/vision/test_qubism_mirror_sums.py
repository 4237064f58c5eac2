"""The mirror axis's overlaps summed by one ``cv2.reduce`` over one buffer (``vision.qubism_needle._mirror_scores``,
session 29, qspeed4): session 28's numpy sums bit for bit, because the sums are exact in any order (the remap's
values are multiples of a fine enough power of two and a blob's sum stays under 2^11); a blob's centre and
square found once for the coarse and the refined search."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.vision.test_qubism_mirror_turned import _full_square
from tests.vision.test_qubism_needle import CHEVRON, TURNS, _face
from tests.vision.test_qubism_thin_arrows import FLETCHED
from vision import qubism_axis as qa
from vision.qubism_axis import AxisRule, _mirror_scores, _turned, axis_direction, thick_enough
from vision.qubism_glyph import GlyphRule
from vision.qubism_needle import central_ink, plate_ink

ODD = np.array([-37.3, -1.7, 0.0, 2.9, 13.13, 40.0])
"""Turns off the search's grid (the remap's weights at other fractions)."""


def _masks() -> list[np.ndarray]:
    out = []
    for degrees, _ in TURNS:
        for turn in (0.0, 7.0, -13.0):
            thin = (_face(FLETCHED, degrees + turn, 0.25, 0.5, sticker=0.76)[6:42, 6:42] < 0.3).astype(np.uint8)
            solid = (_face(CHEVRON, degrees + turn, 0.3, 0.5)[6:42, 6:42] > 0.6).astype(np.uint8)
            out += [thin, thick_enough(thin, AxisRule()), solid]
    return out


def test_the_sums_are_exact_so_any_order_gives_the_same_bits() -> None:
    coarse = np.arange(-40.0, 40.5, 4.0)
    for mask in _masks():
        for turns in (coarse, ODD):
            values = _turned(mask, turns).astype(np.float64)
            scaled = np.ldexp(values, 42)
            assert np.array_equal(scaled, np.round(scaled))  # multiples of 2^-42
            assert float(values.sum(axis=(1, 2)).max()) < 2.0 ** 11  # 11 + 42 bits: a double's 53
            for blob in values[:3]:
                assert float(blob.sum()) == math.fsum(blob.ravel().tolist())  # the pairwise sum is the exact one


def test_the_scores_and_turned_blobs_are_session_28s_bit_for_bit() -> None:
    for mask in _masks():
        for turns in (np.arange(-40.0, 40.5, 4.0), ODD, np.array([6.0, 4.0, 8.0]), np.array([-38.0])):
            scores, turned = _mirror_scores(mask, turns)
            want, want_turned = _full_square(mask, turns)  # session 26's and 28's numpy sums
            assert scores.shape == want.shape and np.array_equal(scores, want)
            assert np.array_equal(turned, want_turned)


@pytest.mark.parametrize("thin", [False, True])
def test_a_blobs_centre_and_square_are_found_once_for_both_searches(thin: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if thin:
        ink = central_ink(_face(FLETCHED, 98.0, 0.25, 0.5, sticker=0.76)) or plate_ink(_face(FLETCHED, 98.0, 0.25, 0.5, sticker=0.76))
        assert ink is not None
        mask, want = ink[0], "E"
        assert thick_enough(mask, AxisRule()) is not mask
    else:
        mask, want = (_face(CHEVRON, 98.0, 0.3, 0.5)[6:42, 6:42] > 0.6).astype(np.uint8), "E"
        assert thick_enough(mask, AxisRule()) is mask
    framed: list[int] = []
    frame = qa._frame

    def counted(m: np.ndarray) -> tuple[np.ndarray, float, float, int]:
        framed.append(int(m.sum()))
        return frame(m)

    monkeypatch.setattr(qa, "_frame", counted)
    assert axis_direction(mask, GlyphRule())[0] == want
    assert len(framed) == (2 if thin else 1)  # the thickened blob once (coarse and refined), the drawn one once
