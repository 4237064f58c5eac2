"""Qubism: a pawn's round head the cube stage read as a cube's top, and the cube the piece count kept as
that pawn, swapped back (``vision.qubism_heads``; second family 3551 group 5: a black peg pawn among white
cubes with black chevrons, the camera nearly straight down)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.qubism_heads import HeadRule, heads_swapped, round_blob

B, W = "pawn:black", "pawn:white"
PAWNS = (W, B)


def _crop(draw: str) -> np.ndarray:
    """A 48-pixel top crop (grey 0-1): light paper with a print line, and a dark disc (a head, with its
    lighter shadow beside it), a chevron, a ring or a triangle in its middle."""
    g = np.full((48, 48), 0.62, np.float32)
    g[:, 30] = 0.3  # a print line running out of the crop
    if draw == "head":
        cv2.ellipse(g, (30, 24), (9, 5), 0, 0, 360, 0.45, -1)  # its shadow, lighter than the head
        cv2.circle(g, (24, 24), 8, 0.03, -1)
        cv2.circle(g, (22, 21), 2, 0.9, -1)  # a highlight on the ball
    elif draw == "chevron":
        pts = np.array([[14, 30], [24, 16], [34, 30], [34, 36], [24, 22], [14, 36]], np.int32)
        cv2.fillPoly(g, [pts], 0.05)
    elif draw == "ring":  # a ring framing an arrow (a dark cube's ring, dark here): its hull is a disc
        cv2.circle(g, (24, 24), 11, 0.05, 3)
    elif draw == "triangle":
        cv2.fillPoly(g, [np.array([[14, 32], [34, 32], [24, 14]], np.int32)], 0.05)
    return g


def test_a_round_head_is_round_and_a_cube_glyph_is_not() -> None:
    rule = HeadRule()
    assert round_blob(_crop("head"), rule) >= rule.round_min
    assert round_blob(_crop("chevron"), rule) < rule.round_min
    assert round_blob(_crop("triangle"), rule) < rule.round_min
    assert round_blob(_crop("ring"), rule) < rule.round_min
    assert round_blob(_crop("plain"), rule) == 0.0  # the print alone: no blob of a strong tone


def _frame() -> tuple[list[tuple[str | None, float]], list[tuple[str | None, float]], list[tuple[str | None, float]]]:
    """Spot 0: a cube the count kept as the black pawn; spot 1: the black pawn, taken off by the count, its
    head read as a cube; spots 2, 3: cubes; spot 4: read empty, looked as the black pawn; spot 5: the white pawn."""
    looked = [(B, 1.0), (B, 1.0), ("cube:N", 0.9), ("cube:N", 0.9), (B, 0.9), (W, 1.0)]
    counted = [(B, 0.9), (None, 0.5), ("cube:N", 0.9), ("cube:N", 0.9), (None, 0.5), (W, 1.0)]
    decided = [(B, 0.9), ("cube:?", 0.7), ("cube:N", 0.9), ("cube:N", 0.9), (None, 0.5), (W, 1.0)]
    return looked, counted, decided


def _swap(decided, looked, counted, round_at: dict[int, float], topped: set[int] = frozenset({0, 2, 3})) -> list[int]:
    return heads_swapped(decided, looked, counted, PAWNS, lambda i: round_at.get(i, 0.0), lambda i: i in topped,
                         lambda i: "cube:N", HeadRule())


def test_the_pawn_goes_where_its_head_is_seen_and_the_cube_where_its_top_is() -> None:
    looked, counted, decided = _frame()
    changed = _swap(decided, looked, counted, {0: 0.45, 1: 0.9, 2: 0.5, 3: 0.4, 4: 0.95})
    assert sorted(changed) == [0, 1]
    assert decided[0] == ("cube:N", 0.55) and decided[1] == (B, 0.55)  # both asked
    assert decided[4] == (None, 0.5) and decided[5] == (W, 1.0)  # the empty spot, round or not, is never the pawn's


def test_no_swap_without_a_head_or_where_the_kept_spot_or_every_cube_is_round() -> None:
    for round_at, topped in (({0: 0.45, 1: 0.7, 2: 0.5}, {0, 2, 3}),  # no head seen: nothing moves
                             ({0: 0.85, 1: 0.9, 2: 0.5}, {0, 2, 3}),  # the kept spot is round too
                             ({0: 0.45, 1: 0.9, 2: 0.9, 3: 0.85}, {0, 2, 3}),  # this print's glyphs are round
                             ({0: 0.45, 1: 0.9, 2: 0.5}, {2, 3})):  # the kept spot shows no cube's top
        looked, counted, decided = _frame()
        before = list(decided)
        assert _swap(decided, looked, counted, round_at, topped) == []
        assert decided == before
