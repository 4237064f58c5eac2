"""Kilkenny Cats: a spot the learned-shadow rule empties is still the cat it was read as when
the plane of the cats' heads shows that cat's colour there: a shadow lies on the paper, a cat
stands (``vision.piece_mix.heads_shown``, ``BehindRule.shadow_share``; docs/readme/board.md,
session 30, kil)."""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.piece_config import BehindRule
from vision.piece_looks import _look_features
from vision.piece_mix import heads_shown


def look(bgr: tuple[float, float, float]) -> np.ndarray:
    return _look_features(np.full((1, 4, 4, 3), bgr, np.float64))[0]


PAPER, BLUE_CAT, SHADOW = look((0.85, 0.88, 0.9)), look((0.6, 0.2, 0.1)), look((0.6, 0.55, 0.5))


class Heads:
    """A reader whose heads' plane shows ``seen`` (spot -> look) over plain paper."""

    cell_mm = 12.0

    def __init__(self, seen: dict[int, np.ndarray]) -> None:
        self.seen = seen
        self.asked: list[float] = []

    def looks_at(self, image: Any, pose: Any, height_mm: float, spots: list[int]) -> tuple[np.ndarray, np.ndarray]:
        self.asked.append(height_mm)
        return np.array([self.seen[i] for i in spots]), np.array([PAPER] * len(spots))


def test_a_cat_shows_its_head_a_shadow_does_not() -> None:
    names, protos = ["cat:blue"], np.array([BLUE_CAT])
    reader = Heads({3: BLUE_CAT, 5: SHADOW, 7: 0.5 * (BLUE_CAT + PAPER)})
    read = {3: ("cat:blue", 0.9), 5: ("cat:blue", 0.9), 7: ("cat:blue", 0.9)}
    assert heads_shown(reader, None, None, 0.9, read, names, protos, BehindRule()) == [3]  # type: ignore[arg-type]
    assert reader.asked == [0.9 * 12.0]
    assert heads_shown(reader, None, None, 0.9, read, names, protos, BehindRule(shadow_share=0.4)) == [3, 7]  # type: ignore[arg-type]
    assert heads_shown(reader, None, None, 0.0, read, names, protos, BehindRule()) == []  # type: ignore[arg-type]  # short cats: none
