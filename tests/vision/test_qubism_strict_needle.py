"""Session 32's needle at stricter thresholds (``vision.qubism_needle.NeedleRule.strict``, ``strict_needle``): a
compass needle on a grey sticker whose pale half is darker than the sticker and whose tip reaches the sticker's
edge is joined at the crop's one threshold to the cube's face around the sticker (no glyph apart, no ink read:
asked, or left as a shape reader read it); at a stricter threshold the needle stands alone and its darker end
reads it. Each with the rule off shows the failure; no print is read the wrong way by it."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_qubism_moved_ink import BACK, BLOCK
from tests.vision.test_qubism_needle import CHEVRON, NEEDLE, PLAIN_NEEDLE, TURNS, Polys, _face
from tests.vision.test_qubism_thin_arrows import FLETCHED
from vision import qubism_ink as qink
from vision import qubism_needle as qn
from vision.qubism_glyph import GlyphRule
from vision.qubism_needle import NeedleRule, asked_arrows, needle_checked, strict_needle

GREY_NEEDLE: Polys = [([(0.0, -0.4), (0.1, 0.0), (-0.1, 0.0)], 0.1), ([(0.0, 0.4), (0.1, 0.0), (-0.1, 0.0)], 0.3)]
"""A needle pointing north whose tips reach the sticker's edge (a sticker 0.8 of the face), its pale half 0.3."""


def _grey(degrees: float, gradient: float = 1.0) -> np.ndarray:
    """A grey sticker (0.66) on a cube face of 0.42, the needle turned ``degrees``; the light falling off across
    the crop to ``gradient``."""
    crop = _face(GREY_NEEDLE, degrees + 5.0, 0.42, 0.6, sticker=0.8, tone=0.66)
    return crop * np.linspace(1.0, gradient, 48, dtype=np.float32)[None, :]


PLAIN = _face(NEEDLE, 5.0, 0.45, 0.3, sticker=0.8)
"""A frame's other cube: a needle pointing north read at one threshold (the frame's cubes are needles)."""


def _frame(crop: np.ndarray) -> np.ndarray:
    """The frame's two crops: ``crop`` (spot 0) and ``PLAIN`` (spot 1, read ``cube:N``)."""
    return np.array([crop, PLAIN])


@pytest.mark.parametrize("degrees,want", TURNS)
def test_an_asked_needle_on_a_grey_sticker_is_read_at_a_stricter_threshold(degrees: float, want: str) -> None:
    """Dev third 3611 group 0 (matte cubes, grey stickers): 9 needles asked, no ink found at one threshold."""
    crop = _grey(degrees)
    assert qink.TopInks(crop[None], NeedleRule()).ink(0) is None  # the one threshold finds no ink apart
    old: list[tuple[str | None, float]] = [("cube:?", 0.5), ("cube:N", 0.7)]
    asked_arrows(old, [0, 1], _frame(crop), {}, frozenset(), GlyphRule(), NeedleRule(strict=()))
    assert old == [("cube:?", 0.5), ("cube:N", 0.7)]  # the failure: asked
    new: list[tuple[str | None, float]] = [("cube:?", 0.5), ("cube:N", 0.7)]
    asked_arrows(new, [0, 1], _frame(crop), {}, frozenset(), GlyphRule(), NeedleRule())
    assert new == [(f"cube:{want}", 0.5), ("cube:N", 0.7)]  # its confidence kept


@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_needle_read_another_way_with_no_ink_apart_takes_its_darker_end(degrees: float, want: str) -> None:
    """Dev third 4625, 4561, 4616: needles read another way by their own glyph (an outline the same both ways) with
    no ink found at one threshold to check them by."""
    crop = _grey(degrees)
    for conf in (0.55, 0.7):  # an own read under and over NeedleRule.own_sure: a needle's end checks both
        old: list[tuple[str | None, float]] = [(f"cube:{BACK[want]}", conf), ("cube:N", 0.7)]
        needle_checked(old, [0, 1], _frame(crop), {0: BACK[want]}, frozenset(), NeedleRule(strict=()))
        assert old == [(f"cube:{BACK[want]}", conf), ("cube:N", 0.7)]  # the failure: left the wrong way round
        new: list[tuple[str | None, float]] = [(f"cube:{BACK[want]}", conf), ("cube:N", 0.7)]
        needle_checked(new, [0, 1], _frame(crop), {0: BACK[want]}, frozenset(), NeedleRule())
        assert new == [(f"cube:{want}", conf), ("cube:N", 0.7)]
    moved: list[tuple[str | None, float]] = [(f"cube:{BACK[want]}", 0.7), ("cube:N", 0.7)]
    needle_checked(moved, [0, 1], _frame(crop), {}, frozenset({0}), NeedleRule(moved_ink=False))
    assert moved == [(f"cube:{BACK[want]}", 0.7), ("cube:N", 0.7)]  # a top found off its place: not its crop


@pytest.mark.parametrize("degrees,want", TURNS)
def test_the_stricter_needle_is_read_only_in_a_frame_whose_cubes_show_a_needle(degrees: float, want: str) -> None:
    """A game's cubes are printed alike: no other cube of the frame read with a direction shows a needle at one
    threshold (alone, or beside a cube whose crop shows a block arrow): the stricter reads are not made (their
    cost, about a quarter of a millisecond a crop, spent only in frames of needles)."""
    crop = _grey(degrees)
    block = _face(BLOCK, 5.0, 0.45, 0.3, sticker=0.8)
    for tops, look in ((crop[None], [0]), (np.array([crop, block]), [0, 1])):
        asked: list[tuple[str | None, float]] = [("cube:?", 0.5), ("cube:N", 0.7)][:len(look)]
        asked_arrows(asked, look, tops, {}, frozenset(), GlyphRule(), NeedleRule())
        assert asked[0] == ("cube:?", 0.5)
        read: list[tuple[str | None, float]] = [(f"cube:{BACK[want]}", 0.55), ("cube:N", 0.7)][:len(look)]
        needle_checked(read, look, tops, {0: BACK[want]}, frozenset(), NeedleRule())
        assert read[0] == (f"cube:{BACK[want]}", 0.55)


@pytest.mark.parametrize("gradient", [1.0, 0.85, 0.75])
@pytest.mark.parametrize("degrees,want", TURNS)
def test_the_stricter_needle_never_reads_the_wrong_end(degrees: float, want: str, gradient: float) -> None:
    """Under a light gradient across the crop one stricter threshold may join the needle to the sticker's darker
    edge and read its other end (25 %: 0.3 of the face-to-ink range read south for a needle pointing north); a
    needle read at two thresholds the opposite ways is not read."""
    for pale in (0.3, 0.38):
        for face in (0.42, 0.5):
            for tip in (0.34, 0.4):
                polys: Polys = [([(0.0, -tip), (0.1, 0.0), (-0.1, 0.0)], 0.1), ([(0.0, tip), (0.1, 0.0), (-0.1, 0.0)], pale)]
                crop = _face(polys, degrees + 5.0, face, 0.6, sticker=0.8, tone=0.66)
                crop = crop * np.linspace(1.0, gradient, 48, dtype=np.float32)[None, :]
                assert strict_needle(crop) in (want, None), (pale, face, tip)
    assert strict_needle(_grey(degrees, gradient)) in (want, None)


@pytest.mark.parametrize("polys", [BLOCK, FLETCHED, CHEVRON, PLAIN_NEEDLE, NEEDLE])
def test_no_print_is_read_the_wrong_way_by_the_stricter_needle(polys: Polys) -> None:
    """A one-ink arrow has no darker end at any threshold; a needle with a pale half near its sticker's tone is
    read at one threshold already (and at a stricter one its pale half is gone: no end)."""
    for degrees, want in TURNS:
        for face, tone in ((0.45, 0.8), (0.42, 0.66), (0.25, 0.76)):
            for gradient in (1.0, 0.75):
                crop = _face(polys, degrees + 5.0, face, 0.5, sticker=0.8, tone=tone)
                crop = crop * np.linspace(1.0, gradient, 48, dtype=np.float32)[None, :]
                assert strict_needle(crop) in ((want, None) if polys is NEEDLE else (None,))


@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_needle_read_at_a_stricter_threshold_is_not_turned_by_its_outline(degrees: float, want: str,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Dev third 4625: a needle asked_arrows read by its darker end at a stricter threshold, then turned round by
    ``needle_checked``'s strokes' sweep of the ink found at one threshold (a needle's outline is the same both
    ways). Here the ink at one threshold and its readers are stood in for: they read the other end."""
    crop = _grey(degrees)
    monkeypatch.setattr(qink.TopInks, "ink", lambda self, k: (np.ones((4, 4), np.uint8), np.zeros((4, 4), np.float32)))
    monkeypatch.setattr(qn, "_sweep_of", lambda inks, k, rule: BACK[want])
    monkeypatch.setattr(qn, "_axis_of", lambda inks, k, glyph, rule: BACK[want])
    monkeypatch.setattr(qn, "_needle_frame", lambda *args: True)  # the frame's cubes are needles
    for rule, final in ((NeedleRule(pawn_lines=False), want), (NeedleRule(strict=(), pawn_lines=False), BACK[want])):
        decided: list[tuple[str | None, float]] = [("cube:?", 0.55)]
        inks = qink.TopInks(crop[None], rule)
        asked_arrows(decided, [0], crop[None], {}, frozenset(), GlyphRule(), rule, inks)
        assert decided == [(f"cube:{want if rule.strict else BACK[want]}", 0.55)]
        needle_checked(decided, [0], crop[None], {}, frozenset(), rule, inks=inks)
        assert decided == [(f"cube:{final}", 0.55)], rule.strict
