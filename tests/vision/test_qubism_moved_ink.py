"""Session 31's arrow reads (``vision.qubism_needle``): a cube whose top was found off its place read by the ink
at its place (``NeedleRule.moved_ink``), a needle whose tip joins the cube's face at its sticker's edge read on
the sticker's ink (``NeedleRule.plate_needle``), and a thin arrow on an unevenly lit sticker read on its crop
over the paper's local light (``NeedleRule.flat``, ``vision.qubism_ink.flat_line_ink``). Each with the rule off
shows the failure."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_qubism_needle import NEEDLE, TURNS, _face
from tests.vision.test_qubism_thin_arrows import FLETCHED
from vision import qubism_ink as qink
from vision import qubism_needle as qn
from vision.qubism_glyph import GlyphRule
from vision.qubism_needle import NeedleRule, asked_arrow, asked_arrows, needle_checked
from vision.synth.pieces_c import _arrow_sticker

BLOCK = [([(float(x), float(y)) for x, y in poly], 0.1) for poly, dark in _arrow_sticker("block") if dark]
"""The third family's block arrow pointing north (its notch is the sticker's own colour)."""
BACK = {"N": "S", "S": "N", "E": "W", "W": "E"}


@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_top_found_off_its_place_takes_the_ink_at_its_place(degrees: float, want: str) -> None:
    """Dev third 4612: block arrows on lacquer cubes whose tops were found off their place, read the other way
    round by the glyph found there (confidence 1), while the crop at their place showed the arrow plainly."""
    arrow = _face(BLOCK, degrees + 5.0, 0.25, 0.5, sticker=0.8)
    plain = np.full((48, 48), 0.7, np.float32)  # no ink at its place: the glyph's reading stands
    tops = np.array([arrow, plain, arrow])
    moved = frozenset({0, 1})
    decided: list[tuple[str | None, float]] = [(f"cube:{BACK[want]}", 1.0), ("cube:E", 1.0), (f"cube:{want}", 1.0)]
    own: dict[int, str | None] = {0: BACK[want], 1: "E", 2: want}
    old = list(decided)
    needle_checked(old, [0, 1, 2], tops, own, moved, NeedleRule(moved_ink=False))
    assert old == decided  # the failure: a top off its place was left as its glyph read it
    needle_checked(decided, [0, 1, 2], tops, own, moved, NeedleRule())
    assert decided == [(f"cube:{want}", 1.0), ("cube:E", 1.0), (f"cube:{want}", 1.0)]  # confidence kept
    asked: list[tuple[str | None, float]] = [("cube:?", 0.55), ("cube:?", 0.55)]
    asked_arrows(asked, [0, 1], tops[:2], {}, moved, GlyphRule(), NeedleRule(moved_ink=False))
    assert asked == [("cube:?", 0.55), ("cube:?", 0.55)]  # no glyph's mask: asked
    asked_arrows(asked, [0, 1], tops[:2], {}, moved, GlyphRule(), NeedleRule())
    assert asked == [(f"cube:{want}", 0.55), ("cube:?", 0.55)]



def test_a_top_off_its_place_is_read_at_its_place_once_a_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """Session 31's review: a cube whose top was found off its place was read by ``_asked`` at its place in
    ``asked_arrows`` and again in ``needle_checked``; with the frame's ``TopInks`` shared, once, the same reads."""
    arrow = _face(BLOCK, 5.0, 0.25, 0.5, sticker=0.8)  # north
    plain = np.full((48, 48), 0.7, np.float32)
    tops = np.array([arrow, plain])
    moved = frozenset({0, 1})
    calls: list[int] = []
    asked = qn._asked

    def counted(inks: object, k: int, mask: object, glyph: GlyphRule, rule: NeedleRule) -> str | None:
        if mask is None and inks is not None:
            calls.append(k)
        return asked(inks, k, mask, glyph, rule)  # type: ignore[arg-type]

    monkeypatch.setattr(qn, "_asked", counted)
    decided: list[tuple[str | None, float]] = [("cube:?", 0.55), ("cube:?", 0.55)]
    inks = qink.TopInks(tops, NeedleRule())
    asked_arrows(decided, [0, 1], tops, {}, moved, GlyphRule(), NeedleRule(), inks)
    needle_checked(decided, [0, 1], tops, {}, moved, NeedleRule(), inks=inks)
    assert decided == [("cube:N", 0.55), ("cube:?", 0.55)]
    assert sorted(calls) == [0, 1]  # each moved top's place read once (twice for spot 0 before)
    calls.clear()  # without the frame's inks shared each stage reads it again
    decided = [("cube:?", 0.55), ("cube:?", 0.55)]
    asked_arrows(decided, [0, 1], tops, {}, moved, GlyphRule(), NeedleRule())
    needle_checked(decided, [0, 1], tops, {}, moved, NeedleRule())
    assert decided == [("cube:N", 0.55), ("cube:?", 0.55)] and sorted(calls) == [0, 0, 1]

def test_a_needle_joined_to_the_face_at_its_sticker_edge_is_read_on_the_sticker() -> None:
    """Dev third 4611: needles on lacquer cubes whose tip touches the sticker's edge: no glyph apart in the
    crop's middle (``central_ink``), so no darker end was read; the sticker's ink (``plate_ink``) shows it."""
    crops = [(want, _face(NEEDLE, degrees + 5.0, 0.25, 0.5, sticker=0.7)) for degrees, want in TURNS]
    assert all(qink.central_ink(c, NeedleRule()) is None for _, c in crops)
    new = [(want, asked_arrow(c, None, GlyphRule())) for want, c in crops]
    old = [(want, asked_arrow(c, None, GlyphRule(), NeedleRule(plate_needle=False))) for want, c in crops]
    assert all(got in (want, None) for want, got in new), new  # never the wrong end
    assert sum(got == want for want, got in new) >= 3, new
    assert sum(got == want for want, got in old) <= 1, old


GRADIENT = np.linspace(1.0, 0.5, 48, dtype=np.float32)[None, :]
"""Light falling off across the crop to half (a lamp to one side of a matte sticker)."""


@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_thin_arrow_on_an_unevenly_lit_sticker_is_read_on_its_flattened_crop(degrees: float, want: str) -> None:
    crop = _face(FLETCHED, degrees + 4.0, 0.25, 0.5, sticker=0.8) * GRADIENT
    new: list[tuple[str | None, float]] = [("cube:?", 0.5)]
    asked_arrows(new, [0], crop[None], {}, frozenset(), GlyphRule(), NeedleRule())
    assert new == [(f"cube:{want}", 0.5)]
    if qink.TopInks(crop[None], NeedleRule()).ink(0) is None:  # the failure: no ink at one threshold
        old: list[tuple[str | None, float]] = [("cube:?", 0.5)]
        asked_arrows(old, [0], crop[None], {}, frozenset(), GlyphRule(), NeedleRule(flat=0))
        assert old == [("cube:?", 0.5)]


def test_the_flattened_crop_reads_only_thin_ink() -> None:
    """A block arrow or a needle flattened is hollowed to its outline: not read so (``flat_line_ink`` None)."""
    rule = NeedleRule()
    for polys in (BLOCK, NEEDLE):
        for degrees, _ in TURNS:
            crop = _face(polys, degrees + 4.0, 0.25, 0.5, sticker=0.8) * GRADIENT
            assert qink.flat_line_ink(crop, rule, rule.flat, rule.axis.thin) is None
    crops = [_face(FLETCHED, degrees + 4.0, 0.25, 0.5, sticker=0.8) * GRADIENT for degrees, _ in TURNS]
    assert all(qink.flat_line_ink(c, rule, rule.flat, rule.axis.thin) is not None for c in crops)
    assert float(qink.flattened(crops[0], 7).max()) <= 1.0


def _shadow_edge(crop: np.ndarray) -> np.ndarray:
    """A crop crossed by a shadow's edge: its right part (from column 26) at 0.55 of the light."""
    out = crop.copy()
    out[:, 26:] *= 0.55
    return out


@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_thin_arrow_crossed_by_a_shadows_edge_is_read_over_the_local_median(degrees: float, want: str) -> None:
    """Dev third 3611 (dim light): a shadow's edge across a fletched arrow's sticker; over the local max the edge
    leaves a band joined to the arrow, over the local median it is gone; read where its axis and sweep agree."""
    crop = _shadow_edge(_face(FLETCHED, degrees + 4.0, 0.25, 0.5, sticker=0.8))
    new: list[tuple[str | None, float]] = [("cube:?", 0.5)]
    asked_arrows(new, [0], crop[None], {}, frozenset(), GlyphRule(), NeedleRule())
    assert new[0][0] in (f"cube:{want}", "cube:?")  # never the wrong way
    old: list[tuple[str | None, float]] = [("cube:?", 0.5)]
    asked_arrows(old, [0], crop[None], {}, frozenset(), GlyphRule(), NeedleRule(flat_median=False))
    assert old[0][0] in (f"cube:{want}", "cube:?")
    if old == [("cube:?", 0.5)] and qink.TopInks(crop[None], NeedleRule()).ink(0) is None:
        assert new == [(f"cube:{want}", 0.5)]  # what the median adds


def test_a_block_arrow_or_a_needle_crossed_by_a_shadows_edge_is_never_read_the_wrong_way() -> None:
    """Over the local median a block arrow's corners stay as thin ink too: only a read its mirror axis and its
    strokes' sweep agree on is taken."""
    for polys in (BLOCK, NEEDLE):
        for degrees, want in TURNS:
            crop = _shadow_edge(_face(polys, degrees + 4.0, 0.25, 0.5, sticker=0.8))
            decided: list[tuple[str | None, float]] = [("cube:?", 0.5)]
            asked_arrows(decided, [0], crop[None], {}, frozenset(), GlyphRule(), NeedleRule())
            assert decided[0][0] in (f"cube:{want}", "cube:?"), (polys is BLOCK, want, decided)
