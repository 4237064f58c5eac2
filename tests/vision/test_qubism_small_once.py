"""Qubism's small tops answered from the glyph finder's own labelling (issue 31, session 19,
qspeed3): ``central_and_small`` gives ``central_glyphs``' answers and, for the crops it is asked
about, what ``small_tops`` (a second labelling of those crops) answers, without labelling them again."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_qubism_speed import _crops
from tests.vision.test_qubism_stickers import BLOCK, NEEDLE, _face
from vision.qubism_glyph import GlyphRule, central_and_small, central_glyphs
from vision.qubism_read import CubeTops, small_rule, small_tops, top_face, with_glyphs, with_glyphs_small


def _frame() -> list[np.ndarray]:
    """A frame's top crops: compass needles (a glyph too small for ``GlyphRule.share``), block arrows
    on stickers, glyphs of several shapes, speckle, a plain crop."""
    needles = [_face(NEEDLE, turn, face, paper, sticker=0.8) for turn in range(4)
               for face, paper in ((0.55, 0.3), (0.7, 0.2))]
    blocks = [_face(BLOCK, turn, 0.15, 0.45, sticker=0.6) for turn in range(2)]
    return [*needles, *blocks, *_crops()]


@pytest.mark.parametrize("every", [1, 2, 3])
def test_small_tops_from_the_first_labelling_equal_a_second_labelling(every: int) -> None:
    crops = _frame()
    rule = CubeTops()
    assert rule.glyphs is not None
    ask = [k % every == 0 for k in range(len(crops))]
    glyphs, hits = central_and_small(crops, rule.glyphs, None, small_rule(rule), ask)
    assert [repr(g) for g in glyphs] == [repr(g) for g in central_glyphs(crops, rule.glyphs)]
    faces = [top_face(c, arrow=False) for c in crops]
    again = small_tops(np.array(crops), faces, rule)  # each crop labelled again under the small rule
    assert hits == [a and s for a, s in zip(ask, again)]
    asked = [s for a, s in zip(ask, again) if a]
    assert any(asked) and not all(asked)  # needles found, others not: the test can tell
    found, hits_read = with_glyphs_small(faces, crops, rule.glyphs, small_rule(rule), ask)
    assert hits_read == hits
    assert [repr(f) for f in found] == [repr(f) for f in with_glyphs(faces, crops, rule.glyphs)]


def test_a_small_rule_stricter_than_the_glyphs_is_refused() -> None:
    rule = GlyphRule()
    with pytest.raises(ValueError, match="small rule"):
        central_and_small(_crops(), rule, None, GlyphRule(share=(0.2, rule.share[1])), [True] * 25)
    with pytest.raises(ValueError, match="small rule"):
        central_and_small(_crops(), rule, None, GlyphRule(share=(0.03, rule.share[1]), offset=0.3), [True] * 25)
