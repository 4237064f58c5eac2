"""A thin line arrow on a cube's sticker read along its mirror axis (``vision.qubism_needle``:
``thick_enough``, ``plate_ink``): its 2-pixel strokes measured a pixel thicker, its ends cut at
the sticker's edge where they touch it (the third 3-D family's fletched arrows, asked before);
and a compass needle's darker end checked on cubes read by a shape reader (``needle_checked``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.group_reads import cube_counts, need_photo_tables
from tests.vision.test_qubism_needle import CHEVRON, NEEDLE, PLAIN_NEEDLE, TURNS, Polys, _face
from vision.boarddefaults import board_for
from vision.imageload import load_image
from vision.piece_config import PieceConfig
from vision.qubism_glyph import GlyphRule, central_glyph
from vision.qubism_needle import (AxisRule, NeedleRule, asked_arrow, line_arrow, needle_checked, plate_ink,
                                  sweep_direction, thick_enough)
from vision.qubism_read import CubeTops
from vision.synth.pieces_c import _arrow_sticker
from vision.synth.scene_c import write_c_group

FLETCHED: Polys = [([(float(x), float(y)) for x, y in poly], 0.1) for poly, _ in _arrow_sticker("fletched")]
"""The third family's thin fletched arrow pointing north (a shaft, an open V head, two tail feathers)."""
OLD = NeedleRule(plate_shrink=0, axis=AxisRule(thin=0), sweep=None, checked=False, pawn_lines=False)
"""``asked_arrow`` before: the mirror overlap on the strokes as drawn, no ink cut at the sticker (nor session
23's sweep, checks and pawns read as line-arrow cubes)."""


def _read(crop: np.ndarray, rule: NeedleRule = NeedleRule()) -> str | None:
    g = central_glyph(crop, GlyphRule())
    return asked_arrow(crop, g.mask if g is not None else None, GlyphRule(), rule)


@pytest.mark.parametrize("turn", [8.0, -8.0])
@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_thin_arrow_on_a_turned_cube_is_read_along_its_axis(degrees: float, want: str, turn: float) -> None:
    crop = _face(FLETCHED, degrees + turn, 0.25, 0.5, sticker=0.76)  # a dark cube, a white sticker
    assert _read(crop) == want
    assert _read(crop, OLD) is None  # the failure: its mirror overlap as drawn below AxisRule.mirror


def test_a_thin_stroke_is_thickened_a_blob_is_not() -> None:
    line = np.zeros((30, 30), np.uint8)
    line[5:25, 14:16] = 1
    blob = np.zeros((30, 30), np.uint8)
    blob[8:22, 8:22] = 1
    assert int(thick_enough(line, AxisRule()).sum()) > int(line.sum())
    assert thick_enough(blob, AxisRule()) is blob
    assert thick_enough(line, AxisRule(thin=0)) is line


def test_an_arrow_touching_its_sticker_edge_is_cut_at_the_plate_never_read_wrong() -> None:
    reads = [(want, _read(_face(FLETCHED, degrees, 0.25, 0.5, sticker=0.72))) for degrees, want in TURNS]
    assert all(got in (want, None) for want, got in reads), reads
    assert sum(got == want for want, got in reads) >= 2, reads
    assert all(_read(_face(FLETCHED, degrees, 0.25, 0.5, sticker=0.72), OLD) is None for degrees, _ in TURNS)


def test_an_edge_across_the_crop_is_no_plate_ink() -> None:
    crop = np.full((48, 48), 0.8, np.float32)
    crop[:, 26:] = 0.2  # a neighbour's dark side
    crop[6:40, 22:25] = 0.25  # a line at its edge
    assert plate_ink(crop) is None


@pytest.mark.slow
def test_fletched_arrows_rendered_are_read(tmp_path: Path) -> None:
    """The third family's seed 4027, group 4 (lacquer cubes, white stickers, thin fletched arrows;
    not one of the development sets' groups), 4 scenes: every arrow asked before."""
    (tmp_path / "images").mkdir()
    need_photo_tables()  # the scenes measured were drawn with the photo tables
    scenes = write_c_group(tmp_path, "qubism", 4, 4, 0, 4027)
    group = [(load_image(tmp_path / sc["file"]).image, dict(sc["squares"])) for sc in scenes]
    board = board_for("qubism")
    new = cube_counts(group, board, PieceConfig())
    old = cube_counts(group, board, PieceConfig(cube_tops=CubeTops(needles=OLD)))
    assert new.cubes >= 15 and old.right <= 2, (new, old)  # the failure: found, their arrows asked
    assert new.right >= old.right + 12 and new.wrong <= old.wrong, (new, old)


def test_a_needle_read_the_wrong_way_by_a_shape_reader_takes_its_darker_end() -> None:
    """The third family's 4026 (and held-out 4191, 4201): a needle's cube read by ``vision.arrows``'
    shape reader, whose outline is the same both ways, pointing the wrong way (not asked)."""
    east = _face(NEEDLE, 90.0, 0.45, 0.3, sticker=0.8)
    plain = _face(PLAIN_NEEDLE, 90.0, 0.45, 0.3, sticker=0.8)
    tops = np.array([east, east, east, plain, east, east])
    decided: list[tuple[str | None, float]] = [("cube:W", 0.7), ("cube:W", 0.7), ("cube:W", 0.7), ("cube:W", 0.7),
                                               ("cube:?", 0.55), (None, 0.6)]
    own: dict[int, str | None] = {1: "W"}  # spot 1 was read from its own glyph's shape: kept (own_checked off)
    needle_checked(decided, list(range(6)), tops, own, frozenset({2}), NeedleRule(own_checked=False, moved_ink=False))
    # the wrong end corrected, its confidence kept; its own glyph's read, a top off its place, one ink
    # (no darker end), an asked cube (asked_arrows' work) and an empty spot left as they were
    assert decided == [("cube:E", 0.7), ("cube:W", 0.7), ("cube:W", 0.7), ("cube:W", 0.7), ("cube:?", 0.55), (None, 0.6)]


@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_cube_its_own_glyph_read_the_wrong_way_takes_its_inks_direction(degrees: float, want: str) -> None:
    """Session 25 (``NeedleRule.own_checked``): a needle's or a fletched arrow's outline read by the glyph
    reader the wrong way (its tip: dev third 4250, three cubes, the ink right on all) is checked against
    the top's ink like any other read: its darker end, its mirror axis."""
    wrong = {"N": "S", "S": "N", "E": "W", "W": "E"}[want]
    needle = _face(NEEDLE, degrees, 0.45, 0.3, sticker=0.8)
    fletched = _face(FLETCHED, degrees + 6.0, 0.25, 0.5, sticker=0.76)
    for top in (needle, fletched):
        decided: list[tuple[str | None, float]] = [(f"cube:{wrong}", 0.55), (f"cube:{want}", 0.55)]
        needle_checked(decided, [0, 1], np.array([top, top]), {0: wrong, 1: want}, frozenset(), NeedleRule())
        assert decided == [(f"cube:{want}", 0.55), (f"cube:{want}", 0.55)]  # corrected; the right read kept
        before: list[tuple[str | None, float]] = [(f"cube:{wrong}", 0.55)]
        needle_checked(before, [0], np.array([top]), {0: wrong}, frozenset(), NeedleRule(own_checked=False))
        assert before == [(f"cube:{wrong}", 0.55)]  # the failure: its own glyph's read kept unchecked


@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_fletched_arrow_read_the_wrong_way_by_a_shape_reader_is_read_along_its_axis(degrees: float,
                                                                                      want: str) -> None:
    """The third family's 4252: a fletched arrow's tail feathers are a second head to ``vision.arrows``'
    shape reader, which read six cubes the wrong way round; read along its mirror axis they are right."""
    wrong = {"N": "S", "S": "N", "E": "W", "W": "E"}[want]
    arrow = _face(FLETCHED, degrees + 6.0, 0.25, 0.5, sticker=0.76)
    plain = np.full((48, 48), 0.7, np.float32)  # no glyph on it to check the read against
    tops = np.array([arrow, arrow, plain])
    decided: list[tuple[str | None, float]] = [(f"cube:{wrong}", 0.4), (f"cube:{wrong}", 0.4), ("cube:E", 0.4)]
    needle_checked(decided, [0, 1, 2], tops, {}, frozenset({1}), NeedleRule(moved_ink=False))
    assert decided == [(f"cube:{want}", 0.4), (f"cube:{wrong}", 0.4), ("cube:E", 0.4)]  # off its place, no glyph: kept
    before: list[tuple[str | None, float]] = [(f"cube:{wrong}", 0.4)]
    needle_checked(before, [0], tops[:1], {}, frozenset(), NeedleRule(checked=False))
    assert before == [(f"cube:{wrong}", 0.4)]  # the failure: no needle, the shape reader's end kept


STRAY: Polys = [([(0.12, 0.05), (0.15, 0.05), (0.15, 0.36), (0.12, 0.36)], 0.1)]
"""A dark line beside the fletched arrow's tail, joined to a feather (the sticker's edge, a neighbour's ink
in the crop: the third family's 4252, group 5): the ink is no longer mirror-symmetric."""


@pytest.mark.parametrize("turn", [0.0, 6.0, -6.0])
@pytest.mark.parametrize("degrees,want", TURNS)
def test_an_arrow_with_stray_ink_is_read_by_its_strokes_sweeping_back(degrees: float, want: str, turn: float) -> None:
    crop = _face(FLETCHED + STRAY, degrees + turn, 0.25, 0.5, sticker=0.76)
    assert asked_arrow(crop, None, GlyphRule(), NeedleRule(sweep=None)) is None  # the failure: no mirror axis
    assert asked_arrow(crop, None, GlyphRule(), NeedleRule()) == want


def test_no_sweep_on_a_needle_a_bar_or_too_little_ink() -> None:
    for degrees, _ in TURNS:  # a one-ink rhombus sweeps both ways
        ink = (_face(PLAIN_NEEDLE, degrees, 0.45, 0.3, sticker=0.8)[6:42, 6:42] < 0.3).astype(np.uint8)
        assert ink.sum() > 40 and sweep_direction(ink) is None
    bar = np.zeros((36, 36), np.uint8)
    bar[8:28, 16:20] = 1  # no stroke off its axis
    assert sweep_direction(bar) is None
    assert sweep_direction(bar[:, :0]) is None and sweep_direction(np.zeros((36, 36), np.uint8)) is None
    turned = np.zeros((36, 36), np.uint8)
    cv2.line(turned, (8, 8), (28, 28), 1, 2)  # half way between two directions
    cv2.line(turned, (28, 28), (20, 28), 1, 2)
    cv2.line(turned, (28, 28), (28, 20), 1, 2)
    assert sweep_direction(turned) is None



def _pawn(head: float, body: float) -> np.ndarray:
    """A pawn seen in the plane of a cube's top: its round head over its body running out of the crop."""
    crop = np.full((48, 48), 0.75, np.float32)
    cv2.line(crop, (24, 26), (26, 47), body, 8)
    cv2.circle(crop, (24, 24), 7, head, -1)
    return np.asarray(cv2.GaussianBlur(crop, (3, 3), 0), np.float32)


@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_pawn_showing_a_line_arrow_on_its_top_is_that_cube(degrees: float, want: str) -> None:
    """The third family's 4252: acrylic cubes with fletched arrows read as white pawns by the spot's look."""
    arrow = _face(FLETCHED + STRAY, degrees + 6.0, 0.25, 0.5, sticker=0.76)
    tops = np.array([arrow, arrow, _pawn(0.1, 0.3), _pawn(0.95, 0.6), arrow])
    read: list[tuple[str | None, float]] = [("pawn:white", 0.5), ("pawn:black", 0.7), ("pawn:black", 0.9),
                                            ("pawn:white", 0.8), ("pawn:white", 0.5)]
    decided = list(read)
    needle_checked(decided, list(range(5)), tops, {}, frozenset({4}), NeedleRule())
    # the cubes read as pawns turned into cubes; the pawns' heads and a top off its place (4) kept
    assert decided == [(f"cube:{want}", 0.6), (f"cube:{want}", 0.6), *read[2:]]
    before = list(read)
    needle_checked(before, list(range(5)), tops, {}, frozenset({4}), NeedleRule(pawn_lines=False))
    assert before == read  # the failure: the look's pawn kept
    full = [("cube:N", 0.9)] * 8 + list(read)
    needle_checked(full, list(range(8, 13)), tops, {}, frozenset({12}), NeedleRule())
    # Q1: nine cubes, no more
    assert [t for t, _ in full[8:]] == [f"cube:{want}", "pawn:black", "pawn:black", "pawn:white", "pawn:white"]


def test_a_pawns_head_is_no_line_arrow() -> None:
    for head, body in ((0.1, 0.3), (0.95, 0.6), (0.2, 0.5)):
        assert line_arrow(_pawn(head, body)) is None


def test_an_unsure_cube_showing_its_own_line_arrow_is_sure() -> None:
    """A cube the look took for the white pawn, read as a cube unsurely: with its line arrow it is as sure
    as a pawn's spot turned into a cube (``pawns_back`` puts a pawn back only on an unsure cube)."""
    arrow = _face(FLETCHED + STRAY, 6.0, 0.25, 0.5, sticker=0.76)  # north
    tops = np.array([arrow, arrow, arrow, _pawn(0.95, 0.6)])
    decided: list[tuple[str | None, float]] = [("cube:N", 0.55), ("cube:S", 0.55), ("cube:N", 0.8), ("cube:W", 0.5)]
    needle_checked(decided, [0, 1, 2, 3], tops, {}, frozenset(), NeedleRule())
    # its own arrow: sure; the other way round: turned, its confidence kept; a sure one and no arrow kept
    assert decided == [("cube:N", 0.6), ("cube:N", 0.55), ("cube:N", 0.8), ("cube:W", 0.5)]


def test_the_mirror_axis_is_not_read_where_the_sweep_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    """``needle_checked``'s cost was the mirror axis read on every cube a shape reader read (session 23,
    qspeed): where the strokes' sweep reads the cube's direction already it is not read; where the sweep
    reads another way (or none) it is, and decides as before."""
    import vision.qubism_needle as qn

    calls: list[int] = []
    axis = qn.axis_direction

    def counted(mask: np.ndarray, glyph: GlyphRule, rule: AxisRule = AxisRule()) -> tuple[str | None, float]:
        calls.append(1)
        return axis(mask, glyph, rule)

    monkeypatch.setattr(qn, "axis_direction", counted)
    arrow = _face(FLETCHED, 6.0, 0.25, 0.5, sticker=0.76)  # north
    assert line_arrow(arrow) == "N"
    cases = ((NeedleRule(), "cube:N", "cube:N", 0), (NeedleRule(agreed=False), "cube:N", "cube:N", 1),
             (NeedleRule(), "cube:S", "cube:N", 1))  # agreed: not read; not asked to skip, or the sweep disagrees: read
    for rule, token, want, reads in cases:
        calls.clear()
        decided: list[tuple[str | None, float]] = [(token, 0.7)]
        needle_checked(decided, [0], np.array([arrow]), {}, frozenset(), rule)
        assert decided == [(want, 0.7)] and len(calls) == reads, (rule.agreed, token, calls)


def _mirror_reference(mask: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """``_mirror_scores`` as first written (session 20): full maps, the union summed from its maxima."""
    m = np.asarray(mask, np.float32)
    ys, xs = np.nonzero(m)
    cx, cy = float(xs.mean()), float(ys.mean())
    n = 2 * int(np.ceil(float(np.sqrt(((xs - cx) ** 2 + (ys - cy) ** 2).max())))) + 3
    a = np.radians(np.asarray(turns, np.float32))[:, None, None]
    v, u = np.mgrid[0:n, 0:n].astype(np.float32) - (n - 1) / 2
    mx = (np.cos(a) * u - np.sin(a) * v + cx).reshape(-1, n)
    my = (np.sin(a) * u + np.cos(a) * v + cy).reshape(-1, n)
    t = cv2.remap(m, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT).reshape(len(turns), n, n)
    return np.stack([np.minimum(t, f).sum(axis=(1, 2)) / (np.maximum(t, f).sum(axis=(1, 2)) + 1e-6)
                     for f in (t[:, :, ::-1], t[:, ::-1, :])], axis=1)


def test_the_mirror_scores_are_those_of_the_full_maps() -> None:
    from vision.qubism_axis import _mirror_scores

    turns = np.arange(-40.0, 40.5, 4.0)
    for degrees, _ in TURNS:
        crop = _face(FLETCHED + STRAY, degrees + 6.0, 0.25, 0.5, sticker=0.76)
        mask = (crop[6:42, 6:42] < 0.3).astype(np.uint8)
        scores, turned = _mirror_scores(mask, turns)
        assert turned.shape[0] == len(turns) and float(scores.max()) > 0.5
        assert np.allclose(scores, _mirror_reference(mask, turns), atol=1e-5)
