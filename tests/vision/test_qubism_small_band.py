"""Qubism's small tops with a band under the glyph cuts (issue 31, session 29, qsmall): a blob
``small_tops`` would take but for its contrast, evenness or purity a little under ``GlyphRule``'s cut
(where a tenth of a millimetre's move of the cube tops left one blob's measure on either side) is
marked faint (``faint_rule``; so is one a little further off the crop's middle than the cut), from the
glyphs' own labelling; the reader keeps such a spot a cube
only where the ink stages read its arrow (``vision.piece_cubes``)."""

from __future__ import annotations

import pytest

from tests.vision.test_qubism_small_once import _frame
from tests.vision.test_qubism_stickers import _face
from vision.qubism_glyph import CentralGlyph, central_and_small, central_glyphs
from vision.qubism_read import CubeTops, faint_rule, small_rule

TRIANGLE = [(0.0, -0.25), (0.14, 0.1), (-0.14, 0.1)]
"""A triangle too small for ``GlyphRule.share`` (a share of about 0.056 of the inner crop)."""


def _blob(contrast: float = 0.3, evenness: float = 2.0, purity: float = 0.9, offset: float = 0.05) -> CentralGlyph:
    return CentralGlyph(0.05, offset, contrast, evenness, purity, None, 0.0)


@pytest.mark.parametrize("under", [dict(contrast=0.11), dict(evenness=1.2), dict(purity=0.7)])
def test_a_blob_just_under_one_cut_is_faint_within_the_band(under: dict[str, float]) -> None:
    g = _blob(**under)
    assert small_rule(CubeTops()).is_cube(_blob())
    assert not small_rule(CubeTops(small_band=0.2)).is_cube(g)  # the small rule itself unchanged
    assert faint_rule(CubeTops(small_band=0.2)).is_cube(g)
    assert not faint_rule(CubeTops(small_band=0.2)).is_cube(_blob(**{k: v * 0.75 for k, v in under.items()}))
    assert not faint_rule(CubeTops(small_band=0.0)).is_cube(g)  # no band: none


def test_the_band_leaves_the_blob_size_alone_and_widens_its_place_as_much_where_told() -> None:
    faint, glyphs = faint_rule(CubeTops(small_band=0.2, faint_offset=True)), CubeTops().glyphs
    assert glyphs is not None and faint.share == (0.03, glyphs.share[1])
    assert faint_rule(CubeTops(small_band=0.2, faint_offset=False)).offset == glyphs.offset
    assert faint.offset == pytest.approx(glyphs.offset / 0.8)
    assert faint.is_cube(_blob(offset=0.17)) and not small_rule(CubeTops(small_band=0.2)).is_cube(_blob(offset=0.17))
    assert not faint.is_cube(_blob(offset=0.19))


@pytest.mark.parametrize("dx,small,faint", [(0.2, True, False), (0.22, False, True), (0.26, False, True),
                                            (0.3, False, False)])
def test_a_small_glyph_a_little_off_the_middle_is_faint(dx: float, small: bool, faint: bool) -> None:
    crop = _face([([(x + dx, y) for x, y in TRIANGLE], 0.5)], 0, 0.85, 0.3)  # offsets 0.143, 0.156, 0.184, more
    rule = CubeTops(small_band=0.2, faint_offset=True)
    assert rule.glyphs is not None
    marked = [False]
    glyphs, hits = central_and_small([crop], rule.glyphs, None, small_rule(rule), [True], (faint_rule(rule), marked))
    assert hits == [small] and marked == [faint]
    assert [repr(g) for g in glyphs] == [repr(g) for g in central_glyphs([crop], rule.glyphs)]


@pytest.mark.parametrize("ink,small,faint", [(0.72, True, False), (0.74, False, True), (0.75, False, True),
                                             (0.76, False, False)])
def test_a_faint_small_glyph_is_marked_from_the_glyphs_labelling(ink: float, small: bool, faint: bool) -> None:
    crop = _face([(TRIANGLE, ink)], 0, 0.85, 0.3)  # contrast 0.13, 0.11, 0.10, 0.09 against the cut 0.12
    rule = CubeTops(small_band=0.2)
    assert rule.glyphs is not None
    marked = [False, False]
    glyphs, hits = central_and_small([crop, crop], rule.glyphs, None, small_rule(rule), [True, False],
                                     (faint_rule(rule), marked))
    assert hits == [small, False] and marked == [faint, False]  # only the crop asked about
    assert not rule.glyphs.is_cube(glyphs[0])  # no glyph of a cube's top either way


def test_the_faint_marks_leave_the_glyphs_and_small_hits_as_they_were() -> None:
    crops = _frame()
    rule = CubeTops(small_band=0.5)
    assert rule.glyphs is not None
    ask, marked = [True] * len(crops), [False] * len(crops)
    plain = central_and_small(crops, rule.glyphs, None, small_rule(rule), ask)
    glyphs, hits = central_and_small(crops, rule.glyphs, None, small_rule(rule), ask, (faint_rule(rule), marked))
    assert [repr(g) for g in glyphs] == [repr(g) for g in plain[0]] == [repr(g) for g in central_glyphs(crops, rule.glyphs)]
    assert hits == plain[1] and not any(m and h for m, h in zip(marked, hits))
