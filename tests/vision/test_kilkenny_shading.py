"""Kilkenny Cats: a cat seen partly told from tinted light by its own shading
(``PieceConfig.shaded``, ``vision.piece_mix.shaded_piece`` / ``tinted_light``;
docs/readme/board.md, session 18, "kemkil")."""

from __future__ import annotations

import numpy as np

from vision.piece_config import PieceConfig, ShadedRule
from vision.piece_looks import _look_features
from vision.piece_mix import colour_shares, shaded_piece, tinted_light

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
    assert tinted_light(tinted, empty, "cat:blue", 2.6, NAMES, _protos(), (0.8, 0.5), RULE)
    # the same colour with a piece's shading, a look near the cat's, or the whole way there: a cat
    assert not tinted_light(tinted, empty, "cat:blue", 2.6, NAMES, _protos(), (0.8, 1.5), RULE)
    assert not tinted_light(tinted, empty, "cat:blue", 1.5, NAMES, _protos(), (0.8, 0.5), RULE)
    full = _look((_tint(BLUE, 0.95), 64))
    assert not tinted_light(full, empty, "cat:blue", 2.6, NAMES, _protos(), (0.8, 0.5), RULE)


def test_kilkenny_only() -> None:
    cfg = PieceConfig()
    assert set(cfg.shaded) == {"kilkenny"}
