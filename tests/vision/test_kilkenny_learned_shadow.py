"""Kilkenny Cats: shadows learned from the start position (``vision.piece_shadow``). Under the
third 3-D family's dim evening lamp at 41° (seed 4026, Kilkenny group 2, metal meeples) every
figure casts a long blue-grey shadow the colour of the dark blue metal cats; empty squares in
those shadows were read as blue cats (16 in seven reads). The start photo shows where this
light's shadows lie: such a square lies near a learned shadow and far from the cat's look
(docs/readme/board.md, session 19, kilshadow)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.vision.group_reads import c_group, wrong_squares
from vision.boarddefaults import board_for
from vision.piece_config import PieceConfig, ShadowLooks
from vision.piece_looks import PieceError, PieceModel
from vision.piece_shadow import behind_known, in_shadow, shadow_distance, shadow_examples

BOARD = board_for("kilkenny")
RULE = ShadowLooks()
UMBRA = [0.09, 0.0, -1.04, 0.13]  # a start shadow's look minus its print's (4026 group 2)


def test_a_shadow_line_runs_from_the_print_to_a_learned_shadow_and_a_little_deeper() -> None:
    shadows = np.array([UMBRA])
    assert shadow_distance(np.array([0.045, 0.0, -0.52, 0.0]), shadows, RULE.reach) < 0.01  # half as deep
    assert shadow_distance(np.array([0.108, 0.0, -1.25, 0.0]), shadows, RULE.reach) < 0.01  # 1.2 times as deep
    assert shadow_distance(np.array([0.18, 0.0, -2.08, 0.0]), shadows, RULE.reach) > 1.0  # twice: a dark cat
    assert shadow_distance(np.array([0.0, 0.0, 0.5, 0.0]), shadows, RULE.reach) > 1.0  # lighter than the print
    assert shadow_distance(np.array([0.09, 0.0, -1.04, 0.0]), np.zeros((0, 4)), RULE.reach) == float("inf")


def test_a_spot_far_from_the_cats_look_on_a_learned_shadow_holds_no_cat() -> None:
    shadows = [UMBRA]
    shadow = np.array([0.089, 0.005, -0.806, 0.056])  # 4026 scene 17, square 4,7: 2.27 from the blue cat
    assert in_shadow(shadow, 2.27, shadows, RULE)
    assert not in_shadow(shadow, 1.44, shadows, RULE)  # near its look: a cat, wherever it stands
    assert not in_shadow(shadow, 2.27, [], RULE)  # nothing learned: no change
    assert not in_shadow(np.array([0.3, 0.1, -0.8, 0.0]), 2.27, shadows, RULE)  # off the line: colour of its own
    # nearer the line than the cat's look, but not much nearer
    assert not in_shadow(np.array([0.089 + 0.035 * 0.55, 0.005, -0.806, 0.0]), 1.6, shadows, RULE)


def test_a_start_spot_showing_the_body_of_the_cat_in_front_is_no_shadow() -> None:
    names, protos = ["cat:red", "cat:blue"], np.array([[0.25, 0.30, -1.5, 0.2], [0.46, 0.34, -1.8, 0.2]])
    empty = np.array([0.32, 0.34, -0.2, 0.18])
    shadow = empty + np.array(UMBRA)  # blue-grey, the way to the blue cat
    looks = np.array([shadow, shadow, empty + [0.0, 0.0, -0.1, 0.0], shadow])
    empties = np.array([empty] * 4)
    score = np.array([3.0, 3.0, 3.0, 0.9])
    # 0: behind a red cat, 1: behind a blue cat (its blue may be the cat's body), 2: hardly changed,
    # 3: too little evidence to be read as anything
    shows = {0: {"cat:red"}, 1: {"cat:blue"}}
    out = shadow_examples(looks, empties, score, [0, 1, 2, 3], shows, names, protos, RULE)
    assert len(out) == 1 and np.allclose(out[0], UMBRA), out


def test_the_spots_behind_a_piece_seen_from_the_camera() -> None:
    centres = np.array([[0.0, 0.0], [0.0, 20.0], [20.0, 20.0], [0.0, 40.0]])  # mm, squares of 20 mm
    foot = (0.0, 500.0)  # the camera beyond the pieces' side of the board
    # spot 0 is behind the piece on spot 1 (nearer the foot); spot 2 beside it; spot 3 in front
    assert behind_known(centres, [0, 2, 3], [1], foot, 20.0) == {0: [1]}
    assert behind_known(centres, [0, 2], [], foot, 20.0) == {}


def test_learned_shadows_are_saved_and_an_older_model_loads_without_them(tmp_path: Path) -> None:
    model = PieceModel("kilkenny", {"cat:red": [[0.25, 0.3, -1.5, 0.2]]}, shadows=[UMBRA])
    model.save(tmp_path / "m.json")
    assert PieceModel.load(tmp_path / "m.json").shadows == [UMBRA]
    data = json.loads((tmp_path / "m.json").read_text())
    del data["shadows"]
    (tmp_path / "old.json").write_text(json.dumps(data))
    assert PieceModel.load(tmp_path / "old.json").shadows == []
    data["shadows"] = [[0.1, "dark"]]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(PieceError, match="board learn"):
        PieceModel.load(tmp_path / "bad.json")


@pytest.fixture(scope="module")
def evening_lamp(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """The third family's seed 4026, Kilkenny group 2: metal meeples under the evening lamp, 41°."""
    return c_group(tmp_path_factory, "kilkenny", 2, 8, 16, 4026)


@pytest.mark.slow
def test_long_cast_shadows_under_an_evening_lamp_are_no_blue_cats(evening_lamp: tuple[Path, list[dict[str, Any]]]) -> None:
    root, scenes = evening_lamp
    # the hand rule (vision.piece_hand) drops 5 of these shadows too: off in both, so this rule is
    # measured alone
    new = wrong_squares(scenes, root, BOARD, PieceConfig(hand={}))
    old = wrong_squares(scenes, root, BOARD, PieceConfig(shadow_looks={}, hand={}))
    false_blue = [w for w in old if w[2] is None and w[3] == "cat:blue"]
    assert len(false_blue) >= 12, old  # the scenes still show the failure (measured: 16)
    assert len([w for w in new if w[2] is None]) <= 2, new  # measured: 16 -> 1
    assert set(new) <= set(old), (new, old)  # no cat newly missed
