"""Kilkenny Cats: a cast shadow lit by a bluish light, read as faded blue cats on empty
squares. Its look lies too near the blue cat's for the tinted-light rule (``ShadedRule.tint_dist``)
and the learned-shadow rule (``ShadowLooks.far``) and its print too changed for the print-intact
rule, but it lies on a shadow line learned at the start, a change of light (a smooth field and
one straight step, ``vision.katenmuis_read.light_share``) explains all but a small share of its
change from the print, nothing shades and its colour moved less than a cat's:
``vision.piece_mix.lit_print``, ``SpotChecks._lit``, ``ShadedRule.lit_share`` / ``lit_spread``
(docs/readme/board/session-31.md, kilblue)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.vision.group_reads import c_group, wrong_squares
from vision.boarddefaults import board_for
from vision.piece_config import PieceConfig, ShadedRule
from vision.piece_mix import lit_print

BOARD = board_for("kilkenny")
RULE = ShadedRule()
OFF = {"kilkenny": ShadedRule(lit_share=0.0)}


def test_a_print_lit_otherwise_holds_no_cat() -> None:
    # measured on the second family's 3671, scene 2: a hand's shadow read as a blue cat
    shares, spreads, chromas = (0.027, 0.024), (0.32, 0.25), (0.67, 0.97)
    assert lit_print(shares, spreads, chromas, RULE)
    assert not lit_print((0.027, 0.3), spreads, chromas, RULE)  # the print hidden in one plane: a cat
    assert not lit_print(shares, (0.32, 2.0), chromas, RULE)  # shading in one plane: a cat
    # a flat, well explained cat keeps its colour (first family 2575: chroma 2.6 and more)
    assert not lit_print((0.042, 0.035), (0.38, 0.57), (3.61, 3.69), RULE)
    assert not lit_print(shares, spreads, chromas, ShadedRule(lit_share=0.0))  # the rule off


@pytest.fixture(scope="module")
def cast_shadow(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """The third family's seed 4575, Kilkenny group 0: a ceiling light, laminated paper, a faded
    print and flat blue discs; a large cast shadow over columns E-H rows 1-4, already there at
    the start (learned as this light's shadows), read as blue cats."""
    return c_group(tmp_path_factory, "kilkenny", 0, 8, 0, 4575)


@pytest.mark.slow
def test_a_learned_shadow_lit_bluish_is_no_row_of_blue_cats(cast_shadow: tuple[Path, list[dict[str, Any]]]) -> None:
    root, scenes = cast_shadow
    new = wrong_squares(scenes, root, BOARD, PieceConfig())
    old = wrong_squares(scenes, root, BOARD, PieceConfig(shaded=OFF))
    false_blue = [w for w in old if w[2] is None and w[3] == "cat:blue"]
    assert len(false_blue) >= 40, old  # the group still shows the failure (measured: 62 -> 31)
    assert len([w for w in new if w[2] is None]) <= len(false_blue) - 15, new
    # no cat newly missed or misread (an empty square behind a shadow's spot no longer read as a
    # blue cat is no longer checked by the behind rule, vision.piece_mix.drop_hidden: a few such
    # squares read as blue cats instead, counted above)
    assert {w for w in new if w[2] is not None} <= {w for w in old if w[2] is not None}, (new, old)
