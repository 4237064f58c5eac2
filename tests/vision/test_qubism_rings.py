"""Qubism's cube tops on the second 3-D family, session 18 (vision.qubism_glyph, vision.qubism_read):
a glyph framed by a ring as wide as the face (the ring reaches the crop's edge, the arrow touches
it: no cube found before), a solid triangle turned in the crop (read a quarter turn off by its
extremes before), and a cube added off its place kept past nine cubes where one read by the piece
looks went."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.group_reads import cube_counts
from vision.boarddefaults import board_for
from vision.imageload import load_image
from vision.piece_config import PieceConfig
from vision.qubism_glyph import GlyphRule, central_glyph
from vision.qubism_read import CubeTops, TopFace, settle_cubes
from vision.synth.scene_b import write_b_dataset

BOARD = board_for("qubism")


def _face(polys: list[list[tuple[float, float]]], turn: int, face: float, ink: float, paper: float) -> np.ndarray:
    """A 48-pixel top crop: a face 34 pixels wide on ``paper`` with a glyph pointing north (polygons in
    units of the face's side, centred), turned ``turn`` quarter turns clockwise."""
    img = np.full((48, 48), paper, np.float32)
    img[7:41, 7:41] = face
    for p in polys:
        cv2.fillPoly(img, [np.int32([[24 + x * 34, 24 + y * 34] for x, y in p])], ink)
    return np.ascontiguousarray(np.rot90(img, -turn))


def _ring(inner: float, outer: float, n: int = 24) -> list[list[tuple[float, float]]]:
    a = np.linspace(0, 2 * np.pi, n + 1)
    return [[(outer * np.cos(a0), outer * np.sin(a0)), (outer * np.cos(a1), outer * np.sin(a1)),
             (inner * np.cos(a1), inner * np.sin(a1)), (inner * np.cos(a0), inner * np.sin(a0))]
            for a0, a1 in zip(a[:-1], a[1:])]


# the second family's wooden cubes: a ring nearly as wide as the face, the arrow's tip touching it
WIDE_RING = _ring(0.42, 0.49) + [[(-0.05, 0.30), (0.05, 0.30), (0.05, -0.05), (-0.05, -0.05)],
                                 [(-0.18, -0.03), (0.18, -0.03), (0.0, -0.41)]]
TRIANGLE = [[(0.0, -0.36), (0.3, 0.26), (-0.3, 0.26)]]


@pytest.mark.parametrize("turn,want", [(0, "N"), (1, "E"), (2, "S"), (3, "W")])
def test_a_ring_as_wide_as_the_face_is_a_cube_top_read_by_its_arrow(turn: int, want: str) -> None:
    for face, ink, paper in ((0.3, 0.9, 0.45), (0.75, 0.15, 0.9)):  # light on a dark cube, dark on a light one
        crop = _face(WIDE_RING, turn, face, ink, paper)
        g = central_glyph(crop, GlyphRule())
        assert GlyphRule().is_cube(g) and g is not None and g.direction == want, (g, want)
        assert not GlyphRule().is_cube(central_glyph(crop, GlyphRule(rings=False)))  # the failure: no cube


def _turned(polys: list[list[tuple[float, float]]], degrees: float) -> list[list[tuple[float, float]]]:
    c, s = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
    return [[(c * x - s * y, s * x + c * y) for x, y in p] for p in polys]


@pytest.mark.parametrize("degrees", [-20, 20])
@pytest.mark.parametrize("turn,want", [(0, "N"), (1, "E"), (2, "S"), (3, "W")])
def test_a_triangle_turned_in_the_crop_is_read_by_its_apex(degrees: float, turn: int, want: str) -> None:
    crop = _face(_turned(TRIANGLE, degrees), turn, 0.75, 0.15, 0.45)  # a lens or the pose turns the face
    g = central_glyph(crop, GlyphRule())
    assert g is not None and g.direction == want, (g, want)
    old = central_glyph(crop, GlyphRule(triangle_fill=1.01))  # by its extremes along the board's axes
    assert old is not None and old.direction not in (want, None)  # the failure: a wrong arrow


def test_a_cube_added_off_its_place_goes_first_past_nine() -> None:
    rule = CubeTops()
    glyphs = rule.glyphs or GlyphRule()
    north = central_glyph(_face(TRIANGLE, 0, 0.75, 0.15, 0.45), glyphs)
    assert north is not None and north.direction == "N"
    plain = TopFace(0.5, 0.5, 0.9, 0.02, 0.0, None, 0.0)
    # ten cubes: the one added off its place goes, not a cube read by the piece looks
    clear = TopFace(0.22, 0.9, 0.9, 0.02, 0.0, None, 0.0)
    ten: list[tuple[str | None, float]] = [("cube:N", 0.9)] * 9 + [(None, 0.5)]
    faces = {i: clear for i in range(9)} | {9: TopFace(**{**plain.__dict__, "glyph": north})}
    settle_cubes(ten, faces, blocked=set(), rule=rule, moved=frozenset({9}))
    assert ten[9][0] is None and all(t == "cube:N" for t, _ in ten[:9]), ten


@pytest.mark.slow
def test_wooden_cubes_with_wide_rings_are_read(tmp_path: Path) -> None:
    write_b_dataset(tmp_path, 5, seed=3244, games=["qubism"], group_size=5)  # wooden cubes, ring arrows, 35 degrees
    scenes = json.loads((tmp_path / "labels.json").read_text())["scenes"]
    assert scenes[0]["pieces"]["arrow_style"] == "ring"
    group = [(load_image(tmp_path / sc["file"]).image, dict(sc["squares"])) for sc in scenes]
    # the ring look alone: the asked cubes' own reads (vision.qubism_needle) off in both (with them: 18 against 16)
    # (session 22's closed rings, vision.qubism_ring, off in both: measured apart below)
    # each frame's own lift, as measured (with the pooled lift, session 27 qcam2, the old look reads 15 right)
    cubes, _, right, _, wrong, false, _ = cube_counts(group, BOARD, PieceConfig(cube_tops=CubeTops(needles=None, rings=None),
                                                                                pooled_lift=()))
    _, _, old_right, _, old_wrong, old_false, _ = cube_counts(
        group, BOARD, PieceConfig(cube_tops=CubeTops(glyphs=GlyphRule(rings=False), needles=None, rings=None),
                                  pooled_lift=()))
    assert cubes >= 30 and old_right <= 14  # the scenes still show the failure
    # the reader around the ring look moves (session 18's later merges, not bisected, turned one right arrow asked):
    # two more arrows right is the ring look's own margin here (16 against 14 at 065176c; 17 against 14 before)
    assert right >= old_right + 2 and wrong <= old_wrong and false <= old_false, (right, wrong, false)
    # the reader as it ships: the closed rings on as well
    _, _, now_right, _, now_wrong, now_false, _ = cube_counts(group, BOARD, PieceConfig(pooled_lift=()))
    _, _, off_right, _, off_wrong, off_false, _ = cube_counts(group, BOARD, PieceConfig(cube_tops=CubeTops(rings=None),
                                                                                        pooled_lift=()))
    print("rings on/off: right", now_right, off_right, "wrong", now_wrong, off_wrong, "false", now_false, off_false)
    assert now_right >= off_right and now_wrong <= off_wrong and now_false <= off_false
