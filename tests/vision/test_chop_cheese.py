"""Chop! Chop!: a slab square read as the bare floor whose face is not the print is the face-up
cheese (``vision.chop_cheese``), where the classifier saw a flat thing and the rules let one lie."""

from __future__ import annotations

import numpy as np

from vision.chop_cheese import cheese_faces
from vision.chop_known import UNSURE
from vision.chop_squares import CLASSES
from vision.piece_config import PieceConfig

BOUNDS = (0.1, 0.4, 0.5)


def _probs(rows: list[dict[str, float]]) -> np.ndarray:
    return np.array([[r.get(c, 0.0) for c in CLASSES] for r in rows])


def _parts(rows: list[tuple[float, float]]) -> np.ndarray:
    """Occupancy evidence (structure, chroma, brightness, spread) from (chroma, spread)."""
    return np.array([[1.0, c, 0.2, s] for c, s in rows])


FLOOR_CHEESE = {"-": 0.6, "cheese": 0.3, "mouse": 0.1}


def test_the_floor_read_where_a_tile_covers_the_print_is_the_cheese_unsure() -> None:
    decided: list[tuple[str | None, float]] = [(None, 0.6)] * 5
    kinds = ["slab"] * 5
    probs = _probs([FLOOR_CHEESE,
                    {"-": 0.95, "cheese": 0.01},  # the classifier sees no cheese
                    FLOOR_CHEESE,  # a shadow: the brightness changed, not the colour
                    FLOOR_CHEESE,  # the print's spread still there
                    {"-": 0.3, "cheese": 0.2, "mouse": 0.5}])  # a figure likelier: not this rule's
    parts = _parts([(0.6, 0.9), (0.6, 0.9), (0.1, 0.9), (0.6, 0.1), (0.6, 0.9)])
    assert cheese_faces(decided, kinds, ["a", "b", "c", "d", "e"], parts, probs, None, False, *BOUNDS) == 1
    assert decided[0] == ("cheese", UNSURE)
    assert decided[1:] == [(None, 0.6)] * 4


def test_only_the_floor_of_a_slab_square_and_only_with_the_classifier() -> None:
    decided: list[tuple[str | None, float]] = [(None, 0.6), (None, 0.6), ("mouse", 0.7), ("slab", 0.8)]
    kinds = ["floor", "table", "slab", "slab"]
    probs = _probs([FLOOR_CHEESE] * 4)
    parts = _parts([(0.6, 0.9)] * 4)
    before = list(decided)
    assert cheese_faces(decided, kinds, ["a", "b", "c", "d"], parts, probs, None, False, *BOUNDS) == 0
    assert cheese_faces(decided, ["slab"] * 4, ["a", "b", "c", "d"], parts, None, None, False, *BOUNDS) == 0
    assert decided == before


def test_the_confirmed_position_must_let_a_cheese_lie_there_unless_a_new_game() -> None:
    squares = ["a", "b", "c", "d", "e"]
    confirmed = {"a": "slab", "b": "cheese", "c": "cat", "d": "mouse:1"}  # e: nothing (the slab gone)
    probs = _probs([FLOOR_CHEESE] * 5)
    parts = _parts([(0.6, 0.9)] * 5)
    decided: list[tuple[str | None, float]] = [(None, 0.6)] * 5
    assert cheese_faces(decided, ["slab"] * 5, squares, parts, probs, confirmed, False, *BOUNDS) == 3
    assert [t for t, _ in decided] == ["cheese", "cheese", "cheese", None, None]  # C5: no cheese back
    decided = [(None, 0.6)] * 5
    assert cheese_faces(decided, ["slab"] * 5, squares, parts, probs, confirmed, True, *BOUNDS) == 5


def test_the_reader_uses_it_by_default() -> None:
    assert PieceConfig().chop_cheese_face == BOUNDS
