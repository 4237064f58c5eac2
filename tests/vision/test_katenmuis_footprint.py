"""Kat en Muis: a counter stands on its square's middle, a shadow's edge crosses the square
(issue 31, session 24, kem3): ``vision.katenmuis_solid``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.vision.group_reads import c_group, wrong_squares
from vision.boarddefaults import board_for
from vision.katenmuis_solid import footprint_share
from vision.piece_config import PieceConfig
from vision.piece_looks import P

BOARD = board_for("katenmuis")
OFF = PieceConfig(footprint_swap=())


def _paper() -> np.ndarray:
    img = np.full((P, P, 3), 0.9, np.float32)
    img[0, :] = img[-1, :] = img[:, 0] = img[:, -1] = 0.35
    return img


def test_a_counter_s_change_lies_on_its_footprint_a_shadow_edge_s_across_the_square() -> None:
    empty = _paper()
    yy, xx = (np.mgrid[0:P, 0:P] + 0.5) / P - 0.5
    disc = empty.copy()
    disc[np.hypot(xx, yy) < 0.25] = (0.3, 0.3, 0.35)  # a grey counter in the middle
    edge = empty.copy()
    edge[:, : P // 3] *= 0.5  # a shadow's edge over a third of the square
    band = empty * 0.6  # a shadow over all of it
    share = footprint_share(np.stack([disc, edge, band]), np.stack([empty] * 3))
    assert share[0] > 0.9
    assert share[1] < 0.2
    assert 0.2 < share[2] < 0.35  # an even change: the footprint's share of the square's area
    assert footprint_share(np.zeros((0, P, P, 3), np.float32), np.zeros((0, P, P, 3), np.float32)).shape == (0,)


@pytest.fixture(scope="module")
def discs_in_shadow(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """The third family's seed 4273 (a dev set), Kat en Muis group 1: metal discs in a lamp
    arm's shadow (the bench's scenes 8-15)."""
    return c_group(tmp_path_factory, "katenmuis", 1, 8, 8, 4273)


@pytest.mark.slow
def test_the_mouse_among_shadows_is_not_read_a_square_away(discs_in_shadow: tuple[Path, list[dict[str, Any]]]) -> None:
    # measured (session 24, kem3): without the swap, in scene 12 the metal mouse on 10 was read
    # as a second cat and dropped, and the shadow's spot on 5 kept as the mouse; in scene 13 the
    # mouse on 27 was dropped for the shadow's spot on 14. With it, 5 and 14 are read empty and
    # 27 as the mouse (12's mouse is then asked: the hand stage's shadowed square)
    root, scenes = discs_in_shadow
    old = wrong_squares(scenes, root, BOARD, OFF)
    new = wrong_squares(scenes, root, BOARD, PieceConfig())
    assert ("images/katenmuis-0012.jpg", "5", None, "mouse") in old, old  # the group still fails
    assert ("images/katenmuis-0013.jpg", "27", "mouse", None) in old, old
    assert not any(w[1] in ("5", "14", "27") for w in new if w[0] in ("images/katenmuis-0012.jpg",
                                                                     "images/katenmuis-0013.jpg")), new
    assert len(new) <= len(old) - 3 and set(new) <= set(old), (new, old)
