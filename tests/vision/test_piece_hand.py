"""A hand, an arm or their shadow over many squares is asked, not read as pieces
(``vision.piece_hand``; docs/readme/board.md, session 20, kilhand): the third family's seed
4191, Kilkenny group 2, where a child's hand under a dim bluish light casts its shadow over two
rows of empty squares (scene 19) and beside the cats (scene 23), read as blue cats; and seed
4201's Kat en Muis group 0, a square beside a hand read as the mouse."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.vision.group_reads import c_group, wrong_squares
from vision.boarddefaults import board_for
from vision.piece_config import PieceConfig, ShadedRule

BOARD = board_for("kilkenny")


@pytest.fixture(scope="module")
def hand_group(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    return c_group(tmp_path_factory, "kilkenny", 2, 8, 16, 4191)


@pytest.mark.slow
def test_a_hands_shadow_over_two_rows_is_no_row_of_blue_cats(hand_group: tuple[Path, list[dict[str, Any]]]) -> None:
    root, scenes = hand_group
    # the lit-print rule (vision.piece_mix.lit_print) drops most of them too: off in both, so
    # this rule is measured alone
    no_lit = {"kilkenny": ShadedRule(lit_share=0.0)}
    new = wrong_squares(scenes, root, BOARD, PieceConfig(shaded=no_lit))
    old = wrong_squares(scenes, root, BOARD, PieceConfig(shaded=no_lit, hand={}))
    false_blue = [w for w in old if w[2] is None and w[3] == "cat:blue"]
    assert len(false_blue) >= 12, old  # the group still shows the failure (measured: 16)
    # measured 16 -> 2 on session 20's VM; 16 -> 5 on session 22's (an AMD EPYC; the packages pip installs today):
    # the shadow's edge squares lie near the reader's thresholds, and OpenCV's SIMD paths differ
    # by CPU. What the rule must do on any CPU: most of the row of blue cats is gone.
    assert len([w for w in new if w[2] is None]) <= 5, new
    assert set(new) <= set(old), (new, old)  # no cat newly missed or misread


@pytest.fixture(scope="module")
def counters_group(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    return c_group(tmp_path_factory, "katenmuis", 0, 8, 0, 4201)


@pytest.mark.slow
def test_kat_en_muis_no_mouse_under_a_hand(counters_group: tuple[Path, list[dict[str, Any]]]) -> None:
    """The third family's seed 4201, Kat en Muis group 0: in scene 1 a hand over the board and
    an empty square beside it read as the mouse (one even spot is enough in a game of two
    counters: ``PieceConfig.hand``)."""
    root, scenes = counters_group
    board = board_for("katenmuis")
    new = wrong_squares(scenes, root, board, PieceConfig())
    old = wrong_squares(scenes, root, board, PieceConfig(hand={}))
    false_mouse = ("images/katenmuis-0001.jpg", "25", None, "mouse")
    assert false_mouse in old, old  # the group still shows the failure (measured: 3 wrong -> 2)
    assert false_mouse not in new and set(new) <= set(old), (new, old)
