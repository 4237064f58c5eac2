"""Kat en Muis: both counters are solids (issue 31, session 23, kem).

A counter in a lamp's shadow (a metal disc) was read as a second cat and dropped by the one-cat
count, while a shadow's spot whose look lay near the learned mouse's was kept as the mouse: the
mouse read one or more squares from where it stood. ``vision.katenmuis_read.solid_counters``: a
dropped spot showing more than ``SolidRule.swap`` times the evidence of a solid
(``solid_evidence``: evidence times the root of the share light leaves unexplained) of the least
solid counter read takes its place; the count keeps a kind's spot by look distance per unit of
that evidence (``count_weight``)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.group_reads import c_group, wrong_squares
from vision.boarddefaults import board_for
from vision.katenmuis_read import count_weight, lit, solid_counters, solid_evidence
from vision.piece_config import PieceConfig, SolidRule
from vision.piece_looks import INNER, P, _look_features

CELL = 20.0  # mm between square centres
ON = ("katenmuis",)  # PieceConfig.solid_count: off by default (session 23: see the module's doc)


def _print_patch() -> np.ndarray:
    """A printed square: paper with a thin border and a label's strokes, [P, P, 3]."""
    img = np.full((P, P, 3), 0.9, np.float32)
    img[0, :] = img[-1, :] = img[:, 0] = img[:, -1] = 0.35
    img[4:11, 3] = img[4:11, 6] = img[7, 3:7] = 0.15
    img[4, 9:13] = img[7, 9:13] = img[10, 9:13] = img[4:8, 12] = img[7:11, 9] = 0.15
    return img


def _disc(grey: float) -> np.ndarray:
    """A counter on the square: a disc hiding the label, with a darker rim."""
    out = _print_patch()
    cv2.circle(out, (8, 8), 6, (grey, grey, grey), -1)
    cv2.circle(out, (8, 8), 6, (0.2, 0.2, 0.2), 1)
    return out


def _shadow() -> np.ndarray:
    """A soft shadow's gradient over the print, darker in a patch of its middle (a shadow's
    edge through it): the print kept, dimmed; light leaves about 9 % of its change unexplained,
    more than ``SolidRule.share`` (not lit), as the third family's lamp shadows (7-10 %)."""
    xx = np.mgrid[0:P, 0:P][1] / P
    out = (_print_patch() * (0.5 + 0.2 * xx)[:, :, None]).astype(np.float32)
    out[5:11, 5:11] *= 0.5
    return out


def _reader(patches: list[np.ndarray], centres_mm: list[tuple[float, float]],
            config: PieceConfig | None = None) -> SimpleNamespace:
    """The few parts of a board reader that ``solid_counters`` reads: the last frame's patches,
    the empty print's, the spots' centres (1 px a mm)."""
    empty = np.stack([_print_patch()] * len(patches))
    return SimpleNamespace(
        config=config or PieceConfig(px_per_mm=1.0, solid_count=ON), board=board_for("katenmuis"), cell_mm=CELL,
        _never_empty=np.zeros(len(patches), bool), _spot_centres_px=np.array(centres_mm, np.float64),
        _last_patches=np.stack(patches).astype(np.float32), _last_empty_patches=empty,
        _last_look_empty=_look_features(empty[:, INNER, INNER]))


def _d(cat: list[float], mouse: list[float]) -> dict[str, np.ndarray]:
    return {"cat": np.array(cat), "mouse": np.array(mouse)}


ALWAYS = ("cat", "mouse")
FAR = [(0.0, 0.0), (100.0, 0.0), (200.0, 0.0)]  # three squares, none beside another


def test_a_shadow_keeps_little_of_its_evidence_a_counter_most() -> None:
    r = _reader([_disc(0.55), _shadow()], FAR[:2])
    solid = solid_evidence(r, np.array([2.5, 2.5]), [0, 1])
    assert solid[0] > 2.0 and solid[1] < 0.8, solid
    assert not lit(r, [0, 1]).any()  # neither is explained by light but for under 5 %
    assert solid_evidence(r, np.array([2.5, 2.5]), []).shape == (0,)
    # the count divides a look distance by it: the counter's spot first, however alike the evidence
    w = count_weight(r, np.array([2.5, 2.5]), [0, 1])
    assert w[0] > 2.5 * w[1], w


def test_the_dropped_solid_spot_is_the_counter_the_shadow_is_not() -> None:
    # spot 0: the cat, kept; spot 1: a shadow kept as the mouse (its look nearest the mouse's);
    # spot 2: a grey metal disc in the shadow, dropped as a second cat
    r = _reader([_disc(0.45), _shadow(), _disc(0.5)], FAR)
    decided: list[tuple[str | None, float]] = [("cat", 0.9), ("mouse", 0.7), (None, 0.5)]
    score = np.array([4.0, 1.4, 2.5])
    d = _d([1.2, 2.9, 1.7], [2.7, 0.9, 1.8])
    assert solid_counters(r, decided, {2: "cat"}, d, score, ALWAYS) == ALWAYS
    assert decided == [("cat", 0.9), (None, 0.5), ("mouse", 0.5)]


def test_the_two_kinds_go_where_their_looks_fit_best() -> None:
    # the kept "cat" (spot 0) fits the mouse's look, the dropped disc the cat's: they swap
    r = _reader([_disc(0.45), _shadow(), _disc(0.5)], FAR)
    decided: list[tuple[str | None, float]] = [("cat", 0.9), ("mouse", 0.7), (None, 0.5)]
    d = _d([2.5, 2.9, 0.8], [0.9, 0.9, 2.8])
    solid_counters(r, decided, {2: "cat"}, d, np.array([4.0, 1.4, 2.5]), ALWAYS)
    assert decided == [("mouse", 0.5), (None, 0.5), ("cat", 0.5)]


def test_no_swap_beside_a_counter_or_for_a_little_more_solid_spot() -> None:
    d = _d([1.2, 2.9, 1.7], [2.7, 0.9, 1.8])
    score = np.array([4.0, 1.4, 2.5])
    # the dropped disc beside the kept cat: the cat's own top or shadow over its neighbour
    beside = _reader([_disc(0.45), _shadow(), _disc(0.5)], [(0.0, 0.0), (100.0, 0.0), (20.0, 0.0)])
    decided: list[tuple[str | None, float]] = [("cat", 0.9), ("mouse", 0.7), (None, 0.5)]
    solid_counters(beside, decided, {2: "cat"}, d, score, ALWAYS)
    assert decided == [("cat", 0.9), ("mouse", 0.7), (None, 0.5)]
    # the read mouse a solid too, the dropped spot not twice as solid: left as read
    both = _reader([_disc(0.45), _disc(0.6), _disc(0.5)], FAR)
    solid_counters(both, decided, {2: "cat"}, d, np.array([4.0, 2.0, 2.5]), ALWAYS)
    assert decided == [("cat", 0.9), ("mouse", 0.7), (None, 0.5)]
    # nothing dropped, or a game without the solid rule: nothing changes
    solid_counters(_reader([_disc(0.45), _shadow(), _disc(0.5)], FAR), decided, {}, d, score, ALWAYS)
    off = _reader([_disc(0.45), _shadow(), _disc(0.5)], FAR, PieceConfig(px_per_mm=1.0, solid_count=ON, solid_light={}))
    solid_counters(off, decided, {2: "cat"}, d, score, ALWAYS)
    assert decided == [("cat", 0.9), ("mouse", 0.7), (None, 0.5)]


def test_the_margin_is_the_rule_s() -> None:
    r = _reader([_disc(0.45), _shadow(), _disc(0.5)], FAR,
                PieceConfig(px_per_mm=1.0, solid_count=ON, solid_light={"katenmuis": SolidRule(swap=1e6)}))
    decided: list[tuple[str | None, float]] = [("cat", 0.9), ("mouse", 0.7), (None, 0.5)]
    solid_counters(r, decided, {2: "cat"}, _d([1.2, 2.9, 1.7], [2.7, 0.9, 1.8]), np.array([4.0, 1.4, 2.5]), ALWAYS)
    assert decided == [("cat", 0.9), ("mouse", 0.7), (None, 0.5)]


@pytest.fixture(scope="module")
def discs_in_shadow(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """The third family's seed 4273 (a dev set of session 23), Kat en Muis group 1: metal discs
    under a ceiling lamp whose arm's shadow lies across the track (rendered once a run)."""
    return c_group(tmp_path_factory, "katenmuis", 1, 8, 8, 4273)


@pytest.mark.slow
def test_the_mouse_in_a_shadow_is_not_read_squares_away(discs_in_shadow: tuple[Path, list[dict[str, Any]]]) -> None:
    # measured: without the swap, in scenes 12, 13 and 15 the mouse (a metal disc, read as a
    # second cat or dropped in a crowd of shadow spots) is missed and a shadow's spot (evidence
    # 1.2-1.4, light leaving 7-14 % unexplained) read as the mouse instead; with it the three
    # false mice go and the mice of 13 and 15 are read where they stand (12's is asked: the hand
    # stage takes the shadowed square)
    root, scenes = discs_in_shadow
    board = board_for("katenmuis")
    old = wrong_squares(scenes, root, board, PieceConfig(solid_count=ON, solid_light={"katenmuis": SolidRule(swap=1e9)}))
    assert {(f[-8:-4], sq, t, r) for f, sq, t, r in old} == {
        ("0012", "5", None, "mouse"), ("0012", "10", "mouse", None), ("0013", "14", None, "mouse"),
        ("0013", "27", "mouse", None), ("0015", "31", None, "mouse"), ("0015", "33", "mouse", None)}, old
    assert wrong_squares(scenes, root, board, PieceConfig(solid_count=ON)) == [("images/katenmuis-0012.jpg", "10", "mouse", None)]
    off = wrong_squares(scenes, root, board, PieceConfig())  # off by default: the false mice stay
    assert {("0012", "5"), ("0013", "14"), ("0015", "31")} <= {(f[-8:-4], sq) for f, sq, t, r in off if r == "mouse"}, off
