"""Qubism's arrow checks read the same, with less work (session 25, qfast): a still-asked cube's shifted crops
read only while they can change the answer (``vision.qubism_shift.shifted_read``), and the mirror axis's
turns sampled with the blob's frame and the turn maps' products found once (``vision.qubism_needle``)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import vision.qubism_needle as qn
from tests.vision.test_qubism_needle import NEEDLE, Polys, _face
from tests.vision.test_qubism_thin_arrows import FLETCHED
from vision import qubism_ink as qink
from vision.qubism_glyph import GlyphRule
from vision.qubism_needle import NeedleRule, asked_arrow
from vision.qubism_shift import ShiftRule, shifted_arrows, shifted_direction, shifted_read
from vision.synth.pieces_c import _arrow_sticker

PLAIN = np.full((48, 48), 0.7, np.float32)
BLOCK: Polys = [([(float(x), float(y)) for x, y in poly], 0.12) for poly, dark in _arrow_sticker("block") if dark]
"""The third 3-D family's block arrow (one ink: read along its mirror axis)."""


def _crops() -> dict[str, np.ndarray]:
    """Top crops that read each way (a needle, a fletched arrow, a block arrow; four turns) and none (plain)."""
    out = {"plain": PLAIN}
    for degrees in (0.0, 90.0, 180.0, 270.0):
        out[f"needle{degrees:.0f}"] = _face(NEEDLE, degrees, 0.45, 0.3, sticker=0.8)
        out[f"fletched{degrees:.0f}"] = _face(FLETCHED, degrees + 6.0, 0.25, 0.5, sticker=0.76)
        out[f"block{degrees:.0f}"] = _face(BLOCK, degrees, 0.3, 0.5, sticker=0.8, tone=0.9)
    return out


def test_shifted_read_gives_what_reading_every_crop_gives() -> None:
    crops = _crops()
    names = sorted(crops)
    rng = np.random.default_rng(25)
    sets = [[names[int(j)] for j in rng.integers(0, len(names), 8)] for _ in range(30)]
    sets += [["plain"] * 7 + [n] for n in names] + [[a] * 2 + ["plain"] * 6 for a in names]
    seen = set()
    for chosen in sets:
        stack = np.array([crops[n] for n in chosen])
        every = shifted_direction([asked_arrow(c, None, GlyphRule(), NeedleRule()) for c in stack], ShiftRule())
        got = shifted_read(qink.TopInks(stack, NeedleRule()), len(stack), GlyphRule(), NeedleRule(), ShiftRule())
        assert got == every, chosen
        seen.add(got)
    assert len(seen) >= 4  # the sets read several ways and none (not all None)


def test_no_mirror_axis_is_read_once_the_crops_can_no_longer_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    crops = _crops()
    calls: list[int] = []
    axis = qn.axis_direction

    def counted(*args: object, **kw: object) -> tuple[str | None, float]:
        calls.append(1)
        return axis(*args, **kw)  # type: ignore[arg-type]
    monkeypatch.setattr(qn, "axis_direction", counted)
    # two needles read two ways: asked, whatever the six arrows beside them read along their axes
    two_ways = [crops["needle0"], crops["needle180"]] + [crops[f"block{d}"] for d in (0, 90, 180, 270, 0, 90)]
    decided: list[tuple[str | None, float]] = [("cube:?", 0.5)]
    shifted_arrows(decided, [0], np.array([[60.0, 60.0]]), 30.0, lambda at: np.array(two_ways), frozenset(),
                   GlyphRule(), NeedleRule(), ShiftRule())
    assert decided == [("cube:?", 0.5)] and calls == []
    # one arrow among plain crops: too few to agree, its axis not read
    one = [crops["block90"]] + [PLAIN] * 7
    shifted_arrows(decided, [0], np.array([[60.0, 60.0]]), 30.0, lambda at: np.array(one), frozenset(),
                   GlyphRule(), NeedleRule(), ShiftRule())
    assert decided == [("cube:?", 0.5)] and calls == []
    # two arrows alike: read (the check above did not just turn the axis off)
    two = [crops["block90"]] * 2 + [PLAIN] * 6
    shifted_arrows(decided, [0], np.array([[60.0, 60.0]]), 30.0, lambda at: np.array(two), frozenset(),
                   GlyphRule(), NeedleRule(), ShiftRule())
    assert decided == [("cube:E", 0.5)] and len(calls) == 2


def _reference_scores(mask: np.ndarray, turns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_mirror_scores`` as session 24 wrote it (its maps computed from the turns each call)."""
    import cv2
    m = np.asarray(mask, np.float32)
    ys, xs = np.nonzero(m)
    cx, cy = float(xs.mean()), float(ys.mean())
    reach = float(np.sqrt(((xs - cx) ** 2 + (ys - cy) ** 2).max()))
    n = 2 * int(np.ceil(reach)) + 3
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


@pytest.mark.parametrize("name", ["needle90", "fletched0", "block270", "block0"])
def test_the_mirror_scores_are_session_24s_bit_for_bit(name: str) -> None:
    found = qink.central_ink(_crops()[name], NeedleRule()) or qink.plate_ink(_crops()[name], NeedleRule())
    assert found is not None
    mask = found[0]
    coarse = np.arange(-40.0, 40.0 + 1e-6, 4.0)
    for turns in (coarse, np.array([6.0, 10.0]), np.array([-40.0])):
        want = _reference_scores(mask, turns)
        for got in (qn._mirror_scores(mask, turns), qn._mirror_scores(mask, turns, qn._mirror_frame(mask)),
                    qn._mirror_scores(mask, turns)):  # the second time from the kept maps
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_kept_turn_maps_stay_few() -> None:
    for n, k in itertools.product(range(5, 40), range(20)):
        qn._turned_places(n, np.array([float(k), -float(k)]))
    assert len(qn._TURNED) <= 513
