"""A hand's shadow tinted towards a cat's colour, near the look of a start's cat seen faded, told
by the paper around it (``vision.piece_hand.apart_from_around``, ``HandRule.smooth`` and
``around``; docs/readme/board/session-32-b.md, kilblue): the second family's seed 3671, Kilkenny
group 0 (a lamp, the camera tilted 41 degrees), where a hand's bluish shadow over empty squares
reads as blue cats."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from tests.vision.group_reads import wrong_squares
from vision.boarddefaults import board_for
from vision.piece_config import HandRule, PieceConfig
from vision.piece_hand import apart_from_around
from vision.synth.scene_b import write_b_dataset

BOARD = board_for("kilkenny")


def _grid(n: int = 5) -> SimpleNamespace:
    """A reader's geometry as ``apart_from_around`` reads it: n x n squares 10 mm apart."""
    xy = np.array([[10.0 * x, 10.0 * y] for y in range(n) for x in range(n)])
    return SimpleNamespace(_spot_centres_px=xy * 2.0, cell_mm=10.0, config=SimpleNamespace(px_per_mm=2.0))


def test_a_shadow_is_the_paper_around_it_a_cat_is_not() -> None:
    reader = _grid()
    moved = np.zeros((25, 4))
    moved[:, :3] = [1.8, 0.0, -2.0]  # one shadow over the whole grid, tinted blue, darker
    moved[12, :3] = [5.5, -0.4, -2.2]  # a blue cat in the middle, in that shadow
    moved[6, :3] = [1.6, 0.1, -1.8]  # the shadow a little lighter on one square
    kinds: list[str | None] = [None] * 25
    kinds[12] = kinds[6] = "cat:blue"
    apart = apart_from_around(reader, moved, kinds, 1.0)  # type: ignore[arg-type]
    assert apart[6] < 0.5  # like the paper around it: a shadow
    assert apart[12] > 3.0  # a cat changes its own square, not the paper beside it
    assert np.isnan(apart[0]) and np.isnan(apart[1])  # read as no piece: not asked
    lit = moved.copy()
    lit[:, :3] = 0.0  # no shadow: the paper around unchanged
    lit[6, :3] = [0.3, 0.0, -0.2]  # a pale see-through cat changes its square a little
    assert np.isnan(apart_from_around(reader, lit, kinds, 1.0)[6])  # no shadow around to be like
    kinds[7] = kinds[11] = kinds[13] = kinds[16] = kinds[17] = kinds[18] = "cat:blue"
    assert np.isnan(apart_from_around(reader, moved, kinds, 1.0)[12])  # fewer than three spots of paper around


@pytest.fixture(scope="module")
def lamp_group(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The second family's seed 3671, Kilkenny group 0 (its first 8 scenes): one start, 7 reads."""
    root = tmp_path_factory.mktemp("kilkenny_hand_around")
    write_b_dataset(root, 8, seed=3671, games=["kilkenny"], group_size=8)
    return root


@pytest.mark.slow
def test_a_hands_bluish_shadow_near_a_faded_start_cat_is_no_blue_cat(lamp_group: Path) -> None:
    import json

    scenes = json.loads((lamp_group / "labels.json").read_text())["scenes"]
    new = wrong_squares(scenes, lamp_group, BOARD, PieceConfig())
    without = {**PieceConfig().hand, "kilkenny": HandRule()}  # the rule as before (smooth 0)
    old = wrong_squares(scenes, lamp_group, BOARD, PieceConfig(hand=without))
    false_blue = [w for w in old if w[2] is None and w[3] == "cat:blue"]
    assert len(false_blue) >= 12, old  # the group still shows the failure (measured: 15)
    # measured 15 -> 8 (bench/board.py's reading of the 48-scene set, session 32)
    assert len([w for w in new if w[2] is None]) <= len(false_blue) - 5, new
    assert set(new) <= set(old), (new, old)  # no cat newly missed or misread
