"""Qubism's cubes found whatever their top's print (vision.qubism_glyph): on the second 3-D
family (rounded cubes with chevrons, solid triangles or ring arrows, phone and webcam cameras)
the reader found almost no cube before, since it looked for a shaft-and-head arrow only."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.vision.group_reads import cube_counts
from vision.boarddefaults import board_for
from vision.imageload import load_image
from vision.piece_config import PieceConfig
from vision.pieces import BoardReader, comparable
from vision.qubism_glyph import GlyphRule, central_glyph
from vision.qubism_needle import NeedleRule
from vision.qubism_read import CubeTops, TopFace, settle_cubes
from vision.synth.scene_b import write_b_dataset

BOARD = board_for("qubism")


@pytest.fixture(scope="module")
def group_b(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[np.ndarray, dict[str, str]]]:
    root = tmp_path_factory.mktemp("qubism_b")
    write_b_dataset(root, 5, seed=SEED, games=["qubism"], group_size=5)
    scenes = json.loads((root / "labels.json").read_text())["scenes"]
    return [(load_image(root / sc["file"]).image, dict(sc["squares"])) for sc in scenes]


SEED = 3161


@pytest.mark.slow
def test_second_familys_cubes_are_found_whatever_their_print(group_b: list[tuple[np.ndarray, dict[str, str]]]) -> None:
    cubes, found, right, _, _, _, false = cube_counts(group_b, BOARD, PieceConfig())
    old_cubes, old_found, *_ = cube_counts(group_b, BOARD, PieceConfig(cube_tops=CubeTops(glyphs=None)))
    assert cubes >= 20 and old_found <= cubes // 5  # the scenes still show the failure
    assert found >= cubes * 0.6 and right >= cubes * 0.3 and false <= 2, (cubes, found, right, false)


def _top(polys: list[list[tuple[float, float]]], turn: int = 0, face: float = 0.75, ink: float = 0.15) -> np.ndarray:
    """A 48-pixel top crop: a plain face with a glyph pointing north (polygons in units of the
    face's side, centred), turned ``turn`` quarter turns clockwise."""
    import cv2

    img = np.full((48, 48), 0.45, np.float32)  # the print behind
    img[7:41, 7:41] = face
    for p in polys:
        pts = np.int32([[24 + x * 34, 24 + y * 34] for x, y in p])
        cv2.fillPoly(img, [pts], ink)
    return np.ascontiguousarray(np.rot90(img, -turn))


TRIANGLE = [[(0.0, -0.36), (0.3, 0.26), (-0.3, 0.26)]]
CHEVRON = [[(0.0, -0.34), (0.3, -0.04), (0.18, 0.06), (0.0, -0.12), (-0.18, 0.06), (-0.3, -0.04)],
           [(0.0, -0.12), (0.3, 0.18), (0.18, 0.28), (0.0, 0.1), (-0.18, 0.28), (-0.3, 0.18)]]
ARROW = [[(-0.07, 0.36), (0.07, 0.36), (0.07, -0.07), (-0.07, -0.07)], [(-0.24, -0.06), (0.24, -0.06), (0.0, -0.38)]]


@pytest.mark.parametrize("shape", [TRIANGLE, CHEVRON, ARROW])
@pytest.mark.parametrize("turn,want", [(0, "N"), (1, "E"), (2, "S"), (3, "W")])
def test_any_glyph_is_a_cube_top_with_its_direction(shape: list[list[tuple[float, float]]], turn: int, want: str) -> None:
    rule = GlyphRule()
    for face, ink in ((0.75, 0.15), (0.3, 0.9)):  # dark on a light cube, light on a dark one
        g = central_glyph(_top(shape, turn, face, ink), rule)
        assert rule.is_cube(g) and g is not None and g.direction == want, (g, want)


def test_print_running_out_and_a_round_head_are_no_direction() -> None:
    rule = GlyphRule()
    lines = np.full((48, 48), 0.8, np.float32)
    lines[:, 22:25] = 0.1  # a grid line across the crop
    lines[30:33, :] = 0.1
    assert not rule.is_cube(central_glyph(lines, rule))
    disc = _top([[(0.2 * np.cos(a), 0.2 * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 24, endpoint=False)]])
    head = central_glyph(disc, rule)
    assert rule.is_cube(head) and head is not None and head.direction is None


def test_settle_adds_unsure_cubes_but_keeps_pawns_with_a_round_head() -> None:
    rule = CubeTops()
    glyph = central_glyph(_top(TRIANGLE, 1), rule.glyphs or GlyphRule())
    disc = central_glyph(_top([[(0.2 * np.cos(a), 0.2 * np.sin(a)) for a in np.linspace(0, 6.2, 24)]]),
                         rule.glyphs or GlyphRule())
    plain = TopFace(0.5, 0.5, 0.9, 0.02, 0.0, None, 0.0)  # no shaft-and-head arrow
    decided: list[tuple[str | None, float]] = [(None, 0.9), (None, 0.9), ("pawn:white", 0.9), ("pawn:white", 0.9)]
    faces = {0: TopFace(**{**plain.__dict__, "glyph": glyph}), 1: TopFace(**{**plain.__dict__, "glyph": disc}),
             2: TopFace(**{**plain.__dict__, "glyph": disc}), 3: TopFace(**{**plain.__dict__, "glyph": glyph})}
    settle_cubes(decided, faces, blocked=set(), rule=rule)
    assert [t for t, _ in decided] == ["cube:E", "cube:?", "pawn:white", "cube:E"]
    off = [(None, 0.9), (None, 0.9)]
    settle_cubes(off, {0: faces[0], 1: faces[1]}, blocked=set(), rule=CubeTops(glyphs=None))
    assert [t for t, _ in off] == [None, None]


def _sheared(polys: list[list[tuple[float, float]]], turn: int, shear: float) -> np.ndarray:
    """``_top`` of a glyph sheared sideways (a phone lens's barrel distortion near the picture's edge)."""
    return _top([[(x + shear * y, y) for x, y in p] for p in polys], turn)


def test_a_glyph_unclear_by_its_shape_takes_the_turn_of_the_frames_clear_cubes() -> None:
    rule = CubeTops()
    glyphs = rule.glyphs or GlyphRule()
    clear = [central_glyph(_sheared(TRIANGLE, turn, 0.4), glyphs) for turn in (0, 1)]  # nearby, sheared less
    unclear = [central_glyph(_sheared(TRIANGLE, turn, 0.5), glyphs) for turn in range(4)]
    disc = central_glyph(_top([[(0.2 * np.cos(a), 0.2 * np.sin(a)) for a in np.linspace(0, 6.2, 24)]]), glyphs)
    assert [g.direction if g is not None else "" for g in clear] == ["N", "E"]
    assert all(g is not None and glyphs.is_cube(g) and g.direction is None for g in unclear)  # the failure
    plain = TopFace(0.5, 0.5, 0.9, 0.02, 0.0, None, 0.0)
    faces = {i: TopFace(**{**plain.__dict__, "glyph": g}) for i, g in enumerate([*clear, *unclear, disc])}
    decided: list[tuple[str | None, float]] = [("cube:N", 0.9), ("cube:E", 0.9)] + [("cube:?", 0.7)] * 5
    settle_cubes(decided, faces, blocked=set(), rule=rule)
    assert [t for t, _ in decided] == ["cube:N", "cube:E", "cube:N", "cube:E", "cube:S", "cube:W", "cube:?"]
    alone = [("cube:?", 0.7)] * 2  # nothing clear in the frame: still asked
    settle_cubes(alone, {0: faces[2], 1: faces[3]}, blocked=set(), rule=rule)
    assert [t for t, _ in alone] == ["cube:?", "cube:?"]


def test_one_clear_glyph_alone_lends_its_turn_to_none() -> None:
    """Held-out second family 3191, scene 78: the frame's one glyph read with a direction (a double
    chevron's tip, a quarter turn off) turned seven unclear cubes like it the same wrong way."""
    rule = CubeTops()
    glyphs = rule.glyphs or GlyphRule()
    clear = central_glyph(_sheared(TRIANGLE, 0, 0.4), glyphs)
    unclear = [central_glyph(_sheared(TRIANGLE, turn, 0.5), glyphs) for turn in range(4)]
    plain = TopFace(0.5, 0.5, 0.9, 0.02, 0.0, None, 0.0)
    faces = {i: TopFace(**{**plain.__dict__, "glyph": g}) for i, g in enumerate([clear, *unclear])}

    def settled(glyph_rule: GlyphRule) -> list[str | None]:
        decided: list[tuple[str | None, float]] = [("cube:N", 0.9)] + [("cube:?", 0.7)] * 4
        settle_cubes(decided, faces, blocked=set(), rule=replace(rule, glyphs=glyph_rule))
        return [t for t, _ in decided]

    assert settled(replace(glyphs, lenders=1)) == ["cube:N", "cube:N", "cube:E", "cube:S", "cube:W"]  # lent before
    assert settled(glyphs) == ["cube:N", "cube:?", "cube:?", "cube:?", "cube:?"]


def _unsure(group: list[tuple[np.ndarray, dict[str, str]]], config: PieceConfig) -> tuple[int, int, int]:
    """(cubes read with the right arrow, cubes read as ``cube:?``, cubes read with a wrong arrow)."""
    reader = BoardReader(BOARD, config=config)
    reader.learn(group[0][0], group[0][1])
    right = unsure = wrong = 0
    for image, squares in group[1:]:
        got = reader.read_spots(reader.read(image, track=False))
        for sid, want in comparable(BOARD, squares).items():
            read = got.get(sid, "")
            if want.startswith("cube") and read.startswith("cube"):
                right += read == want
                unsure += read == "cube:?"
                wrong += read not in (want, "cube:?")
    return right, unsure, wrong


@pytest.mark.slow
def test_cubes_unsure_by_their_shape_are_read_like_the_frames_clear_ones(
        group_b: list[tuple[np.ndarray, dict[str, str]]]) -> None:
    alone = GlyphRule(cuts=1, reach=0, triangle_fill=1.01)  # the likeness alone (not the tops found by other
    # thresholds or off their place, nor triangles read by their apex)
    # (nor the asked cubes' own reads, vision.qubism_needle: they fill these too)
    # each frame's own lift, as measured (the pooled lift, session 27 qcam2, leaves 1 unsure cube here)
    right, unsure, wrong = _unsure(group_b, PieceConfig(cube_tops=CubeTops(glyphs=alone, needles=None),
                                                        pooled_lift=()))
    old_right, old_unsure, old_wrong = _unsure(group_b, PieceConfig(cube_tops=CubeTops(glyphs=replace(alone, like_min=1.01),
                                                                                       needles=None), pooled_lift=()))
    assert old_unsure >= 3  # the scenes still show the failure (like_min above 1: no likeness is enough)
    assert unsure == 0 and wrong <= old_wrong and right >= old_right + old_unsure, (right, unsure, wrong)


@pytest.mark.slow
def test_cube_tops_under_a_three_tone_crop_or_off_their_place_are_found(
        group_b: list[tuple[np.ndarray, dict[str, str]]]) -> None:
    # each frame's own lift, as measured: with the pooled lift (session 27 qcam2) the old rule finds all 25 too
    cubes, found, right, _, _, _, false = cube_counts(group_b, BOARD, PieceConfig(pooled_lift=()))
    old = PieceConfig(cube_tops=CubeTops(glyphs=GlyphRule(cuts=1, reach=0)),  # Otsu's threshold at the spot only
                      pooled_lift=())
    _, old_found, old_right, _, _, _, old_false = cube_counts(group_b, BOARD, old)
    assert found >= old_found + 2 and right >= old_right and false <= old_false, (found, right, false, old_found)


RING = [[(0.4 * np.cos(a0), 0.4 * np.sin(a0)), (0.4 * np.cos(a1), 0.4 * np.sin(a1)),
         (0.33 * np.cos(a1), 0.33 * np.sin(a1)), (0.33 * np.cos(a0), 0.33 * np.sin(a0))]
        for a0, a1 in zip(np.linspace(0, 2 * np.pi, 17)[:-1], np.linspace(0, 2 * np.pi, 17)[1:])]
RING_ARROW = RING + [[(-0.05, 0.26), (0.05, 0.26), (0.05, -0.05), (-0.05, -0.05)], [(-0.17, -0.03), (0.17, -0.03), (0.0, -0.27)]]


@pytest.mark.parametrize("turn,want", [(0, "N"), (1, "E"), (2, "S"), (3, "W")])
def test_an_arrow_in_a_ring_is_a_cube_top_read_by_its_arrow(turn: int, want: str) -> None:
    rule = GlyphRule()
    for face, ink in ((0.75, 0.15), (0.3, 0.9)):
        g = central_glyph(_top(RING_ARROW, turn, face, ink), rule)
        assert rule.is_cube(g) and g is not None and g.direction == want, (g, want)


def test_a_glyph_the_frames_others_read_another_way_is_asked_and_lends_no_turn() -> None:
    glyphs = GlyphRule()
    sure = [central_glyph(_sheared(TRIANGLE, turn, 0.4), glyphs) for turn in range(3)]  # N, E, S read right
    wrong = central_glyph(_sheared(TRIANGLE, 1, 0.5), glyphs)  # an east glyph whose tip was read north
    unclear = [central_glyph(_sheared(TRIANGLE, turn, 0.5), glyphs) for turn in (1, 2)]
    assert [g.direction if g is not None else "" for g in sure] == ["N", "E", "S"]
    assert wrong is not None and all(g is not None and g.direction is None for g in unclear)
    plain = TopFace(0.5, 0.5, 0.9, 0.02, 0.0, None, 0.0)
    frame = [*sure, replace(wrong, direction="N", direction_conf=0.1), *unclear]
    faces = {i: TopFace(**{**plain.__dict__, "glyph": g}) for i, g in enumerate(frame)}

    def settled(rule: CubeTops, spots: list[int]) -> list[str | None]:
        decided: list[tuple[str | None, float]] = [("cube:N", 0.6), ("cube:E", 0.6), ("cube:S", 0.6), ("cube:N", 0.6),
                                                   ("cube:?", 0.5), ("cube:?", 0.5)]
        decided = [decided[i] for i in spots]
        settle_cubes(decided, {k: faces[i] for k, i in enumerate(spots)}, blocked=set(), rule=rule)
        return [t for t, _ in decided]

    unchecked = CubeTops(glyphs=replace(glyphs, agree=False))
    assert settled(unchecked, list(range(6)))[4] == "cube:N"  # the failure: its wrong turn lent to its like
    assert settled(CubeTops(), list(range(6))) == ["cube:N", "cube:E", "cube:S", "cube:?", "cube:E", "cube:S"]
    # two against one: which is right cannot be told, so all three are asked and lend nothing
    assert settled(CubeTops(), [0, 1, 3, 4]) == ["cube:?", "cube:?", "cube:?", "cube:?"]


@pytest.mark.slow
def test_no_wrong_arrow_lent_by_a_glyph_read_the_wrong_way(tmp_path: Path) -> None:
    write_b_dataset(tmp_path, 5, seed=3165, games=["qubism"], group_size=5)  # one frame: three tips read a turn off
    scenes = json.loads((tmp_path / "labels.json").read_text())["scenes"]
    group = [(load_image(tmp_path / sc["file"]).image, dict(sc["squares"])) for sc in scenes]
    # before: glyphs lend whatever they read, and (session 25) no cube its glyph read checked against its ink,
    # no asked cube read beside its place (with those, two of these arrows are right without the agreement)
    # each frame's own lift, as measured (with the pooled lift, session 27 qcam2, the old rules lend no
    # wrong arrow here)
    old = PieceConfig(cube_tops=CubeTops(glyphs=GlyphRule(agree=False), needles=NeedleRule(own_checked=False),
                                         shifted=None), pooled_lift=())
    old_right, old_unsure, old_wrong = _unsure(group, old)
    right, unsure, wrong = _unsure(group, PieceConfig(pooled_lift=()))
    assert old_wrong >= 3  # the scenes still show the failure
    assert wrong == 0 and right + unsure == old_right + old_unsure + old_wrong, (right, unsure, wrong)


def test_a_frames_glyphs_found_at_once_are_each_crops_own() -> None:
    """``central_glyphs`` labels a frame's crops stacked; each crop's answer is the one it gives
    alone, measures to the bit (offsets included: its rows counted from its own top), whatever
    stands beside it, rings, plain faces and glyphs off the middle included."""
    from vision.qubism_glyph import central_glyphs

    rule = GlyphRule()
    rng = np.random.default_rng(4)
    crops = [_top(TRIANGLE, 1), _top(RING_ARROW, 2, 0.3, 0.9), np.full((48, 48), 0.6, np.float32),
             _sheared(TRIANGLE, 3, 0.5), np.roll(_top(TRIANGLE, 0), (5, -4), axis=(0, 1)),
             (0.5 + 0.3 * rng.random((48, 48))).astype(np.float32), _top(RING_ARROW, 0)]
    alone = [central_glyphs([c], rule)[0] for c in crops]
    assert sum(rule.is_cube(g) for g in alone) >= 4
    for order in (list(range(len(crops))), list(range(len(crops)))[::-1]):
        together = central_glyphs([crops[k] for k in order], rule)
        assert [repr(g) for g in together] == [repr(alone[k]) for k in order]
        assert all(g is None or (a is not None and np.array_equal(g.mask, a.mask) if g.mask is not None else a.mask is None)
                   for g, a in zip(together, [alone[k] for k in order]))


def test_a_frames_tops_off_their_place_found_at_once_are_each_crops_own() -> None:
    """``off_centre_glyphs`` labels a frame's wide crops stacked; each crop's answer (where its
    nearest glyph-sized blob lies) is the one it gives alone, to the bit."""
    from vision.qubism_glyph import off_centre_glyphs

    rule = GlyphRule()
    wides = []
    for n, (dx, dy) in enumerate([(0, 0), (9, -6), (-12, 4), (3, 12), (12, 12), (0, -7)]):
        wide = np.full((72, 72), 0.75, np.float32)
        wide[12 + dy:60 + dy, 12 + dx:60 + dx] = _top(TRIANGLE if n % 2 else RING_ARROW, n % 4)
        wides.append(wide)
    alone = [off_centre_glyphs([w], rule)[0] for w in wides]
    assert sum(a is not None and float(np.hypot(*a)) > 0.1 for a in alone) >= 2
    for order in (list(range(len(wides))), list(range(len(wides)))[::-1]):
        assert off_centre_glyphs([wides[k] for k in order], rule) == [alone[k] for k in order]
