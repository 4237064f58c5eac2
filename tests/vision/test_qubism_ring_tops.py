"""Qubism's cube tops found by the closed ring on them (vision.qubism_ring, session 22): a ring-arrow
face under a shadow's edge (Otsu's split of the crop puts the ring and the arrow with the shade, so
the glyph rules see no top: the cube read empty or its arrow asked on the second 3-D family) is a
cube's top, its arrow read inside the ring; print lines, a shadow's edge, a pawn's head and a
neighbour's side show no closed ring."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.qubism_glyph import GlyphRule, central_glyph
from vision.qubism_read import CubeTops, TopFace, settle_cubes, top_face, with_glyphs, with_rings
from vision.qubism_ring import RingRule, ring_glyph, ring_tops

ARROW = np.array([[0, -11], [7, -3], [2.2, -3], [2.2, 10], [-2.2, 10], [-2.2, -3], [-7, -3]], np.float32)
"""A shaft-and-head arrow pointing north, pixels from the ring's centre."""


def _noisy(img: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(img + rng.normal(0, 0.02, img.shape), 0, 1).astype(np.float32)


def ring_top(turn: int, seed: int = 0, shade: bool = True) -> np.ndarray:
    """A 48-pixel top crop: a face 36 pixels wide, 3 pixels right of and 2 above the crop's centre,
    on light paper, a dark ring 28 pixels wide and an arrow turned ``turn`` quarter turns clockwise
    from north; a shadow over the crop's top left corner (over the ring and the face's edge), noise."""
    img = np.full((48, 48), 0.85, np.float32)
    img[4:40, 9:45] = 0.6
    cx, cy = 27, 22
    cv2.circle(img, (cx, cy), 14, 0.25, 2, lineType=cv2.LINE_AA)
    c, s = np.cos(np.pi / 2 * turn), np.sin(np.pi / 2 * turn)
    pts = np.rint([[cx + c * x - s * y, cy + s * x + c * y] for x, y in ARROW]).astype(np.int32)
    cv2.fillPoly(img, [pts], 0.25, lineType=cv2.LINE_AA)
    if shade:
        yy, xx = np.mgrid[0:48, 0:48]
        img[xx + yy < 34] *= 0.5
    return _noisy(img, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("turn,want", [(0, "N"), (1, "E"), (2, "S"), (3, "W")])
def test_a_ring_under_a_shadow_is_a_cube_top_read_by_its_arrow(turn: int, want: str, seed: int) -> None:
    crop = ring_top(turn, seed)
    assert not GlyphRule().is_cube(central_glyph(crop, GlyphRule()))  # the failure: the glyph rules see no top
    found = ring_tops([crop], RingRule())[0]
    assert found is not None and found.tone == -1 and found.cover >= 0.9
    assert abs(found.x - 27) <= 1 and abs(found.y - 22) <= 1 and abs(found.radius - 14) <= 1
    g = ring_glyph(crop, found, GlyphRule())
    assert g.ring and g.direction == want and GlyphRule().is_cube(g)


def test_a_light_ring_on_a_dark_face_is_found_too() -> None:
    crop = 1 - ring_top(1, shade=False)
    found = ring_tops([crop], RingRule())[0]
    assert found is not None and found.tone == 1
    assert ring_glyph(crop, found, GlyphRule()).direction == "E"


def _lines() -> np.ndarray:  # the print's grid lines crossing near the middle
    img = np.full((48, 48), 0.85, np.float32)
    img[:, 20:22] = 0.2
    img[30:32, :] = 0.2
    return img


def _shadow_edge() -> np.ndarray:
    yy, xx = np.mgrid[0:48, 0:48]
    return np.where(xx + 0.5 * yy < 30, 0.4, 0.85).astype(np.float32)


def _pawn_head() -> np.ndarray:  # a pawn's round head seen from above, lit on one side
    img = np.full((48, 48), 0.85, np.float32)
    cv2.circle(img, (24, 24), 9, 0.15, -1, lineType=cv2.LINE_AA)
    cv2.circle(img, (21, 21), 3, 0.5, -1, lineType=cv2.LINE_AA)
    return img


def _side() -> np.ndarray:  # a neighbour cube's side and its shadow
    img = np.full((48, 48), 0.85, np.float32)
    img[:, 30:] = 0.45
    img[10:40, 24:30] = 0.3
    return img


@pytest.mark.parametrize("make", [_lines, _shadow_edge, _pawn_head, _side, lambda: np.full((48, 48), 0.8, np.float32)])
def test_no_ring_where_there_is_none(make) -> None:  # type: ignore[no-untyped-def]
    for seed in range(3):
        assert ring_tops([_noisy(make(), seed)], RingRule()) == [None]


def _faces(crops: list[np.ndarray], rule: CubeTops) -> dict[int, TopFace]:
    assert rule.glyphs is not None
    return dict(enumerate(with_glyphs([top_face(c) for c in crops], crops, rule.glyphs)))


def test_a_spot_read_empty_with_a_ring_top_is_a_cube_with_its_arrow() -> None:
    rule = CubeTops()
    crops = [ring_top(2), ring_top(3, seed=1)]
    for rings, want in ((rule.rings, ["cube:S", "cube:W"]), (None, [None, "cube:?"])):
        use = CubeTops(rings=rings)
        faces = _faces(crops, use)
        decided: list[tuple[str | None, float]] = [(None, 0.5), ("cube:?", 0.5)]  # read empty; a cube, its arrow asked
        with_rings(faces, [0, 1], np.stack(crops), decided, np.array([2.0, 2.0]), use)
        settle_cubes(decided, faces, set(), use)
        assert [t for t, _ in decided] == want  # without rings (the failure): read empty, the arrow asked


def test_only_spots_with_an_occupied_spots_evidence_or_a_cube_reading_are_asked() -> None:
    rule = CubeTops()
    crops = [ring_top(0), ring_top(0), ring_top(0)]
    faces = _faces(crops, rule)
    decided: list[tuple[str | None, float]] = [(None, 0.5), ("pawn:white", 0.9), (None, 0.5)]
    with_rings(faces, [0, 1, 2], np.stack(crops), decided, np.array([0.8, 3.0, 1.0]), rule)
    rings = [g is not None and g.ring for g in (faces[i].glyph for i in range(3))]
    assert rings == [False, False, True]
