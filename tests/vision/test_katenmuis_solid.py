"""Kat en Muis: a counter is a solid, a change of light is not (issue 31, session 21, katcount).

A counter hides the print's lines and shows its own edges, whatever its colour or material; a
shadow's interior, its soft or straight edge and glare keep the print and only scale it
smoothly. ``vision.katenmuis_read.light_share`` measures how much of a spot's change from its
print a change of light cannot explain; the count keeps a kind's spot by look distance per unit
of evidence among the spots light does not explain (``PieceConfig.solid_light``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.group_reads import c_group, wrong_squares
from vision.boarddefaults import board_for
from vision.katenmuis_read import light_share
from vision.piece_config import PieceConfig, SolidRule
from vision.piece_looks import P

BOARD = board_for("katenmuis")


def _print_patch() -> np.ndarray:
    """A square of the printed track: paper with a thin border and a dark label, [P, P, 3]."""
    img = np.full((P, P, 3), 0.9, np.float32)
    img[0, :] = img[-1, :] = img[:, 0] = img[:, -1] = 0.35
    img[4:11, 3] = img[4:11, 6] = img[7, 3:7] = 0.15  # a label's strokes, like a "4"
    img[4, 9:13] = img[7, 9:13] = img[10, 9:13] = img[4:8, 12] = img[7:11, 9] = 0.15  # and a "2"
    return img


def test_light_explains_a_shadow_not_a_counter() -> None:
    empty = _print_patch()
    yy, xx = np.mgrid[0:P, 0:P] / P
    soft = empty * (0.45 + 0.3 * xx)[:, :, None]  # a soft shadow's gradient over the square
    step = empty * np.where(xx + 0.3 * yy < 0.55, 0.5, 1.0)[:, :, None]  # a straight shadow edge
    glare = np.minimum(empty * 1.15, 1.0)
    disc = empty.copy()  # a paper-white counter standing on the label, with its dark rim
    cv2.circle(disc, (8, 8), 5, (0.93, 0.93, 0.92), -1)
    cv2.circle(disc, (8, 8), 5, (0.5, 0.5, 0.5), 1)
    see_through = empty * 0.7  # see-through acrylic: the print dimmed, and the counter's edge
    cv2.circle(see_through, (8, 8), 5, (0.3, 0.3, 0.3), 1)
    share = light_share(np.stack([soft, step, glare, disc, see_through]), np.stack([empty] * 5))
    assert (share[:3] < 0.1).all(), share  # light: explained but for under the threshold
    assert (share[3:] > 0.2).all(), share  # solids: much left
    assert light_share(np.zeros((0, P, P, 3), np.float32), np.zeros((0, P, P, 3), np.float32)).shape == (0,)


@pytest.fixture(scope="module")
def counters_group(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """The third family's seed 4201, Kat en Muis group 0 (rendered once a run, as
    ``test_piece_hand``'s)."""
    return c_group(tmp_path_factory, "katenmuis", 0, 8, 0, 4201)


@pytest.mark.slow
def test_counters_are_kept_over_lit_spots(counters_group: tuple[Path, list[dict[str, Any]]]) -> None:
    # measured (session 21): without the rule, in scene 6 the cat's start square (a soft shadow,
    # nearer the mouse's learned look than the real mouse) was kept as the mouse, and in scene 7
    # the metal disc cat on 31 was dropped for a spot under the hand nearer the cat's look; with
    # it, every square of the group is right. The light part alone (share 0: no spot lit) still
    # loses the cat on 31.
    root, scenes = counters_group
    old = wrong_squares(scenes, root, BOARD, PieceConfig(solid_light={}, footprint_swap=()))
    assert ("images/katenmuis-0006.jpg", "cat-start", None, "mouse") in old, old  # the group still fails
    assert ("images/katenmuis-0007.jpg", "31", "cat", None) in old, old
    assert wrong_squares(scenes, root, BOARD, PieceConfig()) == []
    unlit = wrong_squares(scenes, root, BOARD, PieceConfig(solid_light={"katenmuis": SolidRule(share=0.0)},
                                                          footprint_swap=()))
    assert ("images/katenmuis-0007.jpg", "31", "cat", None) in unlit, unlit
