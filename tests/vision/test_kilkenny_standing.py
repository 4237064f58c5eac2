"""Kilkenny Cats: a cat in a dim light, its colour hardly moved from the print's, is not read
empty by the colourless check when it shows a figure standing on its square: its shading
(spread score) and more of its change on its footprint than an even change puts there, in both
planes (``vision.piece_standing.standing_figure``, ``SpotChecks._standing``,
``PieceConfig.standing_foot``; docs/readme/board/session-32-c.md, kilempty)."""

from __future__ import annotations

import numpy as np

from vision.piece_config import PieceConfig, ShadedRule
from vision.piece_looks import P
from vision.piece_standing import standing_figure

SPREAD = ShadedRule().spread
FOOT = PieceConfig().standing_foot["kilkenny"]
_yy, _xx = (np.mgrid[0:P, 0:P] + 0.5) / P - 0.5


def _planes(change: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A plain print (0.8 grey) changed by the factor ``change`` [P, P], in both planes."""
    empty = np.full((2, P, P, 3), 0.8, np.float32)
    return empty * change[None, :, :, None], empty


def test_a_figure_on_its_footprint_stands() -> None:
    body = np.where(np.hypot(_xx, _yy) < 0.25, 0.35, 1.0)  # a dark cat in the square's middle
    seen, empty = _planes(body)
    assert standing_figure(seen, empty, (3.0, 2.5), SPREAD, FOOT)
    assert not standing_figure(seen, empty, (3.0, SPREAD - 0.1), SPREAD, FOOT)  # no shading up there


def test_a_shadow_over_the_square_does_not_stand() -> None:
    seen, empty = _planes(np.full((P, P), 0.5))  # an even dimming
    assert not standing_figure(seen, empty, (3.0, 3.0), SPREAD, FOOT)
    edge = np.where(_xx < 0.0, 0.5, 1.0)  # a shadow's edge across the square
    seen, empty = _planes(edge)
    assert not standing_figure(seen, empty, (3.0, 3.0), SPREAD, FOOT)


def test_a_neighbours_body_at_the_edge_does_not_stand() -> None:
    lean = np.where(_yy > 0.2, 0.35, 1.0)  # a body over the square's far side only
    seen, empty = _planes(lean)
    assert not standing_figure(seen, empty, (4.0, 4.0), SPREAD, FOOT)
