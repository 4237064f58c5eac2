"""A frame's cube tops seen off their places together (``vision.qubism_shift``): drawn in the plane
of the cubes' tops, a pose a centimetre off puts every top off its crop by the same amount (or an
amount that turns evenly over the board); the tops are found again where the frame's blobs agree."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.qubism_glyph import _INSET, GlyphRule
from vision.qubism_read import FACE_SIDE, CubeTops, more_tops, top_crops, top_faces, with_glyphs
from vision.qubism_shift import ShiftRule, blob_offsets, frame_shift

CELL = 35.0
PX = 2.0  # drawn pixels per mm
CUBES = [(0, 1), (1, 3), (2, 0), (2, 2), (3, 4), (4, 1)]


def _plane(offset: tuple[float, float] | None, turn_deg: float = 0.0, seed: int = 0) -> np.ndarray:
    """The plane of the cubes' tops, grey 0-1: the print's grid on light paper, and a light cube face
    (28 mm) with a dark triangle pointing north on each of ``CUBES``, moved by ``offset`` (mm) and turned
    about the board's middle by ``turn_deg`` (None: no cubes)."""
    size = int(5 * CELL * PX) + 80
    img = np.full((size, size), 0.62, np.float32)
    for k in range(6):
        p = int(round(k * CELL * PX))
        cv2.line(img, (p, 0), (p, int(5 * CELL * PX)), 0.3, 2)
        cv2.line(img, (0, p), (int(5 * CELL * PX), p), 0.3, 2)
    if offset is not None:
        a = np.radians(turn_deg)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        mid = np.array([2.5, 2.5]) * CELL
        for r, c in CUBES:
            at = mid + rot @ (np.array([c + 0.5, r + 0.5]) * CELL - mid) + offset
            x, y = at * PX
            h = 14 * PX
            cv2.rectangle(img, (int(x - h), int(y - h)), (int(x + h), int(y + h)), 0.85, -1)
            tri = np.array([[x, y - 8 * PX], [x - 7 * PX, y + 6 * PX], [x + 7 * PX, y + 6 * PX]], np.int32)
            cv2.fillPoly(img, [tri], 0.12)
    img += np.random.default_rng(seed).normal(0, 0.015, img.shape).astype(np.float32)
    return cv2.cvtColor((np.clip(img, 0, 1) * 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


TO_IMAGE = np.diag([PX, PX, 1.0])
CENTRES = np.array([[(c + 0.5) * CELL, (r + 0.5) * CELL] for r in range(5) for c in range(5)])
CUBE_ROWS = [r * 5 + c for r, c in CUBES]


def _shift(img: np.ndarray, rule: ShiftRule = ShiftRule()) -> np.ndarray | None:
    wide = top_crops(img, TO_IMAGE, CENTRES, CELL * rule.wide, side=int(round(FACE_SIDE * rule.wide)))
    offsets = blob_offsets(wide, rule.share, float((FACE_SIDE - 2 * _INSET) ** 2))
    return frame_shift(offsets, CENTRES, FACE_SIDE, rule)


def _tops(img: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, list[bool]]:
    rule = CubeTops()
    tops = top_crops(img, TO_IMAGE, centres, CELL)
    faces = with_glyphs(top_faces(tops), tops, GlyphRule())
    return tops, [rule.glyph_like(f) or rule.is_top(f) for f in faces]


@pytest.mark.parametrize("offset", [(10.0, -8.0), (-12.0, 0.0), (6.0, 9.0)])
def test_tops_off_their_places_together_are_found_where_the_frame_agrees(offset: tuple[float, float]) -> None:
    img = _plane(offset)
    before, seen_before = _tops(img, CENTRES)
    assert sum(seen_before[k] for k in CUBE_ROWS) <= 2  # the failure: the crops in place miss the tops
    field = _shift(img)
    assert field is not None
    assert np.abs(field[CUBE_ROWS] * CELL - offset).max() < 2.0  # mm
    after, seen_after = _tops(img, CENTRES + field * CELL)
    assert all(seen_after[k] for k in CUBE_ROWS)
    assert sum(seen_after) == len(CUBES)  # no empty square's crop shows a top there
    rule = CubeTops()
    faces_a = with_glyphs(top_faces(after), after, GlyphRule())
    faces_b = with_glyphs(top_faces(before), before, GlyphRule())
    assert more_tops(faces_a, after, faces_b, before, rule)
    assert not more_tops(faces_b, before, faces_a, after, rule)


def test_an_offset_that_turns_over_the_board_is_followed() -> None:
    img = _plane((8.0, 6.0), turn_deg=1.5)  # about the middle: 1-2.5 mm more or less at the cubes
    field = _shift(img)
    assert field is not None
    a = np.radians(1.5)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    mid = np.array([2.5, 2.5]) * CELL
    want = np.array([mid + rot @ (CENTRES[k] - mid) + (8.0, 6.0) - CENTRES[k] for k in CUBE_ROWS])
    bias = np.array([0.0, 1.4])  # a triangle's centre of area lies below its face's
    err = np.abs(field[CUBE_ROWS] * CELL - want - bias).max()
    one = np.abs(field[CUBE_ROWS].mean(axis=0) * CELL - want - bias).max()  # one offset for all
    assert err < 0.6 < one
    _, seen = _tops(img, CENTRES + field * CELL)
    assert all(seen[k] for k in CUBE_ROWS)


@pytest.mark.parametrize("offset", [None, (0.0, 0.0), (2.0, -2.0)])
def test_no_shift_where_the_tops_lie_in_place_or_there_are_none(offset: tuple[float, float] | None) -> None:
    assert _shift(_plane(offset)) is None


def test_too_few_spots_agreeing_move_nothing() -> None:
    pts = [np.zeros((0, 2))] * 20 + [np.array([[10.0, 8.0]]), np.array([[10.5, 7.5]])]
    centres = np.arange(44, dtype=np.float64).reshape(22, 2)
    assert frame_shift(pts, centres, FACE_SIDE, ShiftRule()) is None  # two spots agree: least is 3
    pts3 = pts + [np.array([[9.8, 8.2]])]
    field = frame_shift(pts3, np.arange(46, dtype=np.float64).reshape(23, 2), FACE_SIDE, ShiftRule())
    assert field is not None and np.allclose(field[-1] * FACE_SIDE, (10.1, 7.9), atol=0.5)
