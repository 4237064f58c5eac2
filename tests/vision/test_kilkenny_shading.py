"""Kilkenny Cats: a cat seen partly told from tinted light by its own shading
(``PieceConfig.shaded``, ``vision.piece_mix.shaded_piece`` / ``tinted_light``;
docs/readme/board.md, session 18, "kemkil")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.group_reads import piece_counts
from vision.boarddefaults import board_for
from vision.piece_config import PieceConfig, ShadedRule
from vision.piece_looks import _look_features
from vision.piece_mix import colour_shares, shaded_piece, tinted_light
from vision.synth.board3d import write_3d_dataset
from vision.synth.scene_b import write_b_dataset

BOARD = board_for("kilkenny")

PAPER = (0.86, 0.88, 0.9)  # BGR, light-normalised
BLUE, YELLOW = (0.55, 0.22, 0.08), (0.1, 0.75, 0.85)
NAMES = ["cat:blue", "cat:yellow"]
RULE = ShadedRule()


def _look(*parts: tuple[tuple[float, float, float], int]) -> np.ndarray:
    """The look of an 8 x 8 spot middle made of ``(colour, pixels)`` parts (64 pixels in all)."""
    px = np.concatenate([np.tile(np.asarray(c, np.float64), (n, 1)) for c, n in parts])
    assert len(px) == 64
    return _look_features(px.reshape(1, 8, 8, 3))[0]


def _protos() -> np.ndarray:
    return np.stack([_look((BLUE, 64)), _look((YELLOW, 64))])


def _tint(colour: tuple[float, float, float], k: float) -> tuple[float, float, float]:
    """The paper under a light tinted ``k`` of the way towards ``colour``'s chromaticity, dimmed."""
    c, p = np.asarray(colour), np.asarray(PAPER)
    mixed = (1 - k) * p / p.sum() + k * c / c.sum()
    return tuple(float(v) for v in 0.5 * mixed * p.sum())  # type: ignore[return-value]


def test_a_small_cat_with_its_shading_is_read() -> None:
    empty = _look((PAPER, 64))
    small = _look((BLUE, 40), (PAPER, 24))  # a small figure covering part of its spot's middle
    share, off = colour_shares(small, empty, NAMES, _protos())["cat:blue"]
    assert 0.3 <= share < 0.7 and off < 0.2  # too little of the cat's colour for partly_seen's 0.7
    assert shaded_piece(small, empty, NAMES, _protos(), (3.7, 2.2), RULE) == "cat:blue"
    # no shading in one of the planes: not read (a neighbour's body, a tinted light)
    assert shaded_piece(small, empty, NAMES, _protos(), (3.7, 1.0), RULE) is None
    # a colour off every cat's line is no cat, shaded or not
    assert shaded_piece(_look(((0.3, 0.6, 0.3), 64)), empty, NAMES, _protos(), (3.0, 3.0), RULE) is None


def test_paper_tinted_towards_a_cat_without_shading_is_no_cat() -> None:
    empty = _look((PAPER, 64))
    tinted = _look((_tint(BLUE, 0.4), 64))
    share, off = colour_shares(tinted, empty, NAMES, _protos())["cat:blue"]
    assert 0.2 < share < 0.7 and off < 0.2, (share, off)
    assert tinted_light(tinted, empty, "cat:blue", 2.6, NAMES, _protos(), (0.8, 0.5), (1.0, 0.9), RULE)
    # the same colour with a piece's shading, a look near the cat's, or the whole way there: a cat
    assert not tinted_light(tinted, empty, "cat:blue", 2.6, NAMES, _protos(), (0.8, 1.5), (1.0, 0.9), RULE)
    assert not tinted_light(tinted, empty, "cat:blue", 1.5, NAMES, _protos(), (0.8, 0.5), (1.0, 0.9), RULE)
    # a cat darkened by a hand's shadow: its colour moved far, though its look is far and unshaded
    assert not tinted_light(tinted, empty, "cat:blue", 2.6, NAMES, _protos(), (0.8, 0.5), (2.5, 1.6), RULE)
    full = _look((_tint(BLUE, 0.95), 64))
    assert not tinted_light(full, empty, "cat:blue", 2.6, NAMES, _protos(), (0.8, 0.5), (1.0, 0.9), RULE)


def test_kilkenny_only() -> None:
    cfg = PieceConfig()
    assert set(cfg.shaded) == {"kilkenny"}


@pytest.mark.slow
def test_no_blue_cat_in_a_shadow_lit_by_the_cold_light(tmp_path: Path) -> None:
    # first 3-D family, seed 5202: a camera tilted 45 degrees, one warm light; shadows tinted
    # blue read as blue cats: measured 7 without the rule, 0 with it, no cat lost (101 of 102 right
    # both ways; session 18 measured 3 and 11 on two renders, before the renderer gave one seed
    # the same images in every process: session 19, tidy)
    write_3d_dataset(tmp_path, 6, seed=5202, games=["kilkenny"], group_size=6)
    # the hand rule (vision.piece_hand) drops some of these shadows too: off in both, so this rule
    # is measured alone
    cats, right, missed, invented = piece_counts(tmp_path, BOARD, PieceConfig(hand={}))
    _, old_right, old_missed, old_invented = piece_counts(tmp_path, BOARD, PieceConfig(shaded={}, hand={}))
    assert old_invented >= 3  # the scenes still show the failure
    assert invented <= old_invented - 3 and right >= old_right and missed <= old_missed, (cats, right, missed, invented)


@pytest.mark.slow
def test_felt_cats_under_a_hands_shadow_are_kept(tmp_path: Path) -> None:
    # second 3-D family, seed 5101: matte felt cats under a lamp and a hand; two yellow cats in
    # the hand's shadow show little shading and a look far from the learned one, but their
    # colour moved far (chroma score 2.4 and more): kept, unlike tinted light (measured: 2 read
    # empty without ``tint_chroma``, 0 with it; the one empty square read as a cat before is gone)
    write_b_dataset(tmp_path, 6, seed=5101, games=["kilkenny"], group_size=6)
    cats, right, missed, invented = piece_counts(tmp_path, BOARD, PieceConfig())
    _, _, loose_missed, _ = piece_counts(tmp_path, BOARD, PieceConfig(shaded={"kilkenny": ShadedRule(tint_chroma=99.0)}))
    _, old_right, _, old_invented = piece_counts(tmp_path, BOARD, PieceConfig(shaded={}))
    assert loose_missed >= 2  # the scenes still show the cats a colour-blind rule would drop
    assert missed == 0 and right >= old_right and invented <= old_invented, (cats, right, missed, invented)
