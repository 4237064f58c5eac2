"""Qubism's faint ring-arrow cube tops found by a grid of circles at a ring's radii (vision.qubism_ring,
``RingRule.grid_cover``, session 26, qempty; on by default since session 27, qempty2: coarse to fine, and only
where the looks read a piece, ``vision.qubism_read.with_rings``).

The crops in ``data/qubism_faint_rings_grid.npz`` are the eight top crops the reader cut on the second 3-D
family's dev set 3254 (group 3: wooden ring-arrow cubes, the lamp alone; pose and lift under a millimetre)
of cubes read as empty there: their ring's step is under the crop's noise on part of its circle, so no
circle closes on ``RingRule.cover`` of its angles. Negatives: session 25's fixture's four non-cube crops
whose best circle was the most closed (a white pawn's head, two empty squares)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.qubism_glyph import GlyphRule
from vision.qubism_read import CubeTops, top_face, with_glyphs, with_rings
from vision.qubism_ring import RingRule, ring_glyph, ring_tops

_DATA = np.load(Path(__file__).parent / "data" / "qubism_faint_rings_grid.npz")
CROPS = _DATA["crops"].astype(np.float32) / 255
WANTS = [str(w) for w in _DATA["wants"]]
_OLD = np.load(Path(__file__).parent / "data" / "qubism_faint_rings.npz")
OTHERS = _OLD["crops"][[k for k, w in enumerate(_OLD["wants"]) if not str(w).startswith("cube")]].astype(np.float32) / 255
GRID = RingRule()
"""The shipped rule: the grid on (session 27)."""
EVERY = RingRule(grid_coarse=1, grid_keep=10_000, grid_gate=0.0)
"""Session 26's grid: every circle at every angle, no gate."""


def test_the_search_without_the_grid_finds_none_of_the_eight() -> None:
    assert CROPS.shape == (8, 48, 48) and len(OTHERS) == 4
    assert GRID.grid_cover > 0  # shipped on
    assert ring_tops(CROPS, RingRule(grid_cover=0.0)) == [None] * 8


def test_the_grid_finds_six_of_the_eight_rings_with_their_arrows() -> None:
    found = ring_tops(CROPS, GRID)
    right = 0
    for crop, want, f in zip(CROPS, WANTS, found):
        if f is None:
            continue
        assert f.tone == -1 and 11 <= f.radius <= 15 and 0.5 <= f.cover < RingRule().cover
        right += ring_glyph(crop, f, GlyphRule()).direction == want.split()[0][5:]
    assert right == 6


@pytest.mark.parametrize("k", range(4))
def test_no_ring_on_a_pawns_head_or_an_empty_square_with_the_grid(k: int) -> None:
    assert ring_tops([OTHERS[k]], GRID) == [None]


def test_one_crop_alone_reads_as_in_a_batch() -> None:
    batch = ring_tops(CROPS, GRID)
    for k in range(len(CROPS)):
        one = ring_tops([CROPS[k]], GRID)[0]
        assert (one is None) == (batch[k] is None)
        assert one is None or batch[k] is None or (one.x, one.y, one.radius, one.cover) == (batch[k].x, batch[k].y, batch[k].radius, batch[k].cover)


def _key(f: object) -> tuple[float, ...] | None:
    return None if f is None else (f.x, f.y, f.radius, f.tone, f.cover)  # type: ignore[attr-defined]


def test_coarse_to_fine_finds_the_rings_every_circle_at_every_angle_finds() -> None:
    crops = np.concatenate([CROPS, OTHERS])
    fast, every = ring_tops(crops, GRID), ring_tops(crops, EVERY)
    assert sum(f is not None for f in every) == 6
    assert [_key(f) for f in fast] == [_key(f) for f in every]


def test_the_gate_leaves_a_crop_no_grid_circle_nears_closing() -> None:
    shut = RingRule(grid_gate=1.0)  # no circle holds on every coarse angle: the grid leaves every crop
    assert ring_tops(CROPS, shut) == [None] * 8


def test_the_grid_looks_only_where_the_looks_read_a_piece() -> None:
    rule = CubeTops()
    assert rule.glyphs is not None
    crops = [CROPS[k] for k in range(8)]
    for looked, want in ((None, True), ([("pawn:white", 0.9)] * 8, True), ([(None, 0.5)] * 8, False)):
        faces = dict(enumerate(with_glyphs([top_face(c) for c in crops], crops, rule.glyphs)))
        decided: list[tuple[str | None, float]] = [(None, 0.5)] * 8  # the count took them off
        with_rings(faces, list(range(8)), np.stack(crops), decided, np.full(8, 2.0), rule, looked)
        rings = sum(g is not None and g.ring for g in (faces[i].glyph for i in range(8)))
        assert (rings >= 6) == want and (rings == 0) != want
