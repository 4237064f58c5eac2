"""Chop! Chop!: a slab square read as the bare floor whose face is not the print is the face-up
cheese (``vision.chop_cheese``), where the classifier saw a flat thing and the rules let one lie."""

from __future__ import annotations

import numpy as np

from vision.chop_cheese import cheese_faces, cheese_one_move
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


def test_one_turn_back_a_slab_is_never_a_face_up_cheese_and_a_cheese_stays() -> None:
    """C5 against the position one turn back: a slab read as the cheese takes its likelier of the
    slab and the floor; a face-up cheese read as the floor is the cheese, nothing turned."""
    squares = ["a", "b", "c", "d", "e"]
    confirmed = {"a": "slab", "b": "slab", "c": "cheese", "d": "cheese", "e": "slab"}
    probs = _probs([{"cheese": 0.7, "slab": 0.2, "-": 0.1},
                    {"cheese": 0.6, "slab": 0.3, "-": 0.1},
                    {"-": 0.6, "cheese": 0.4},
                    {"-": 0.6, "cheese": 0.4},
                    {"slab": 0.9}])
    decided: list[tuple[str | None, float]] = [("cheese", 0.7), ("cheese", 0.6), (None, 0.6), ("cheese", 0.9),
                                               ("slab", 0.9)]
    assert cheese_one_move(decided, ["slab"] * 5, squares, confirmed, probs) == 3
    assert decided[:3] == [("slab", UNSURE), ("slab", UNSURE), ("cheese", UNSURE)]
    assert decided[3:] == [("cheese", 0.9), ("slab", 0.9)]


def test_one_turn_back_a_fork_may_take_one_cheese_where_a_slab_was_turned() -> None:
    squares = ["a", "b", "c"]
    confirmed = {"a": "cheese", "b": "cheese", "c": "slab"}
    probs = _probs([{"-": 0.6, "cheese": 0.4}, {"-": 0.9, "cheese": 0.1}, {"mouse": 0.9}])
    untouched: list[tuple[str | None, float]] = [(None, 0.6), (None, 0.9), ("slab", 0.9)]
    assert cheese_one_move(untouched, ["slab"] * 3, squares, confirmed, probs) == 2  # nothing turned: both stay
    assert [t for t, _ in untouched] == ["cheese", "cheese", "slab"]
    decided: list[tuple[str | None, float]] = [(None, 0.6), (None, 0.9), ("mouse", 0.9)]
    assert cheese_one_move(decided, ["slab"] * 3, squares, confirmed, probs) == 1
    assert decided == [("cheese", UNSURE), (None, 0.9), ("mouse", 0.9)]  # b, the least a cheese, taken


def test_one_turn_back_nothing_without_a_position_the_classifier_or_in_a_new_game() -> None:
    confirmed = {"a": "slab", "b": "cheese"}
    probs = _probs([{"cheese": 0.7, "slab": 0.3}, {"-": 0.6, "cheese": 0.4}])
    for args in ((None, probs, False), ({}, probs, False), (confirmed, None, False), (confirmed, probs, True)):
        decided: list[tuple[str | None, float]] = [("cheese", 0.7), (None, 0.6)]
        assert cheese_one_move(decided, ["slab", "slab"], ["a", "b"], *args) == 0
        assert decided == [("cheese", 0.7), (None, 0.6)]
    decided = [("cheese", 0.7), (None, 0.6)]  # floor / table spots are not this rule's
    assert cheese_one_move(decided, ["floor", "table"], ["a", "b"], confirmed, probs) == 0
