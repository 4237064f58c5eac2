"""Qubism's ring-arrow cube tops found where the strongest correlation is not the ring (vision.qubism_ring,
session 25) and a ring seen off its crop's middle (vision.qubism_ring_moved).

The crops in ``data/qubism_faint_rings.npz`` are top crops the reader cut on the second 3-D family's dev
set 3254 (group 3: wooden cubes, a ring arrow on top, 9 degrees from straight down; scene and square in
each name): four cubes read empty or asked there, whose printed ring is faint beside the light band
inside it and the face's rounded edge, and the four non-cube crops of 3254 and 3253 whose best circle was
the most closed (a white pawn's head, two empty squares)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.qubism_glyph import GlyphRule
from vision.qubism_read import top_crops
from vision.qubism_ring import RingRule, ring_glyph, ring_tops
from vision.qubism_ring_moved import moved_rings

_DATA = np.load(Path(__file__).parent / "data" / "qubism_faint_rings.npz")
CROPS = _DATA["crops"].astype(np.float32) / 255
WANTS = [str(w) for w in _DATA["wants"]]
CUBES = [k for k, w in enumerate(WANTS) if w.startswith("cube")]
OTHERS = [k for k, w in enumerate(WANTS) if not w.startswith("cube")]


def test_the_fixture_holds_four_cubes_and_four_other_spots() -> None:
    assert CROPS.shape == (8, 48, 48) and len(CUBES) == 4 and len(OTHERS) == 4


@pytest.mark.parametrize("k", CUBES)
def test_a_faint_ring_is_found_among_each_radius_best_circle(k: int) -> None:
    crop = CROPS[k]
    before = ring_tops([crop], RingRule(starts=1))[0]  # the strongest correlation of all only: the failure
    assert before is None or ring_glyph(crop, before, GlyphRule()).direction != WANTS[k][5:]
    found = ring_tops([crop], RingRule())[0]
    assert found is not None and found.tone == -1 and found.cover >= RingRule().cover
    assert 11 <= found.radius <= 15  # the printed ring, not the face's edge nor the band inside the ring
    g = ring_glyph(crop, found, GlyphRule())
    assert g.ring and g.direction == WANTS[k][5:]


@pytest.mark.parametrize("starts", [1, 3, 8])
def test_no_ring_on_a_pawns_head_or_an_empty_square(starts: int) -> None:
    assert ring_tops(CROPS[OTHERS], RingRule(starts=starts)) == [None] * len(OTHERS)


ARROW = ([[-0.05, 0.28], [0.05, 0.28], [0.05, -0.05], [-0.05, -0.05]], [[-0.17, -0.03], [0.17, -0.03], [0.0, -0.29]])
"""The second family's ring arrow pointing north, in units of the face's side (``vision.synth.pieces_b``)."""
PX_MM = 4.0
"""The drawn plane's pixels a millimetre."""


def _plane(tops: list[tuple[float, float, int]], side: float = 27.0, ink: bool = True) -> np.ndarray:
    """A 3 x 3-square plane (35 mm squares, ``PX_MM`` pixels a mm, BGR) on light paper with a cube's ring-arrow
    top (``side`` mm; ``ink`` False: a plain face) centred at each (x mm, y mm, quarter turns clockwise from north)."""
    img = np.full((int(105 * PX_MM), int(105 * PX_MM)), 0.8, np.float32)
    for x, y, turn in tops:
        h = side / 2 * PX_MM
        cx, cy = x * PX_MM, y * PX_MM
        cv2.rectangle(img, (int(cx - h), int(cy - h)), (int(cx + h), int(cy + h)), 0.55, -1)
        if not ink:
            continue
        cv2.circle(img, (int(cx), int(cy)), int(0.37 * side * PX_MM), 0.25, int(0.06 * side * PX_MM), cv2.LINE_AA)
        c, s = np.cos(np.pi / 2 * turn), np.sin(np.pi / 2 * turn)
        for poly in ARROW:
            p = np.array(poly) * side * PX_MM
            q = np.column_stack([cx + p[:, 0] * c - p[:, 1] * s, cy + p[:, 0] * s + p[:, 1] * c])
            cv2.fillPoly(img, [np.rint(q).astype(np.int32)], 0.25, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), PX_MM * 0.6)
    img += np.random.default_rng(0).normal(0, 0.02, img.shape).astype(np.float32)
    return cv2.cvtColor(np.clip(img * 255, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


SPOTS = np.array([[17.5 + 35 * c, 17.5 + 35 * r] for r in range(3) for c in range(3)], np.float64)
"""The nine squares' centres, mm (row by row: the middle square is 4)."""
TO_IMAGE = np.diag([PX_MM, PX_MM, 1.0])


@pytest.mark.parametrize("turn,want", [(0, "N"), (1, "E"), (2, "S"), (3, "W")])
def test_a_ring_over_a_quarter_square_off_its_place_is_that_spots_top(turn: int, want: str) -> None:
    top = (52.5 + 9.0, 52.5 + 4.0)  # the middle square's top seen 9.8 mm (0.28 of a square) off its place
    img = _plane([(*top, turn)])
    in_place = top_crops(img, TO_IMAGE, SPOTS[[4]], 35.0)
    assert ring_tops(in_place, RingRule()) == [None]  # the failure: the ring runs out of the crop's middle
    found = moved_rings(img, TO_IMAGE, SPOTS, 35.0, [4], np.zeros((0, 2)), RingRule(), GlyphRule())
    assert set(found) == {4}
    centre, glyph = found[4]
    assert float(np.hypot(*(centre - top))) <= 1.5
    assert glyph.ring and glyph.direction == want and GlyphRule().is_cube(glyph)


def test_a_ring_nearer_another_spot_or_a_top_seen_there_is_not_taken() -> None:
    img = _plane([(52.5 + 9.0, 52.5 + 4.0, 1)])
    assert moved_rings(img, TO_IMAGE, SPOTS, 35.0, [5], np.zeros((0, 2)), RingRule(), GlyphRule()) == {}  # the right-hand neighbour's reach
    seen = np.array([[52.5 + 7.0, 52.5 + 3.0]])  # another stage saw a top there already
    assert moved_rings(img, TO_IMAGE, SPOTS, 35.0, [4], seen, RingRule(), GlyphRule()) == {}
    assert moved_rings(img, TO_IMAGE, SPOTS, 35.0, [4], np.zeros((0, 2)), replace(RingRule(), wide=1.0), GlyphRule()) == {}


def test_no_ring_on_bare_paper_or_a_plain_face() -> None:
    bare = _plane([])
    for img in (bare, _plane([(52.5 + 9.0, 52.5 + 4.0, 0)], ink=False)):
        assert moved_rings(img, TO_IMAGE, SPOTS, 35.0, list(range(9)), np.zeros((0, 2)), RingRule(), GlyphRule()) == {}
