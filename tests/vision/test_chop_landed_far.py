"""Chop! Chop!: the mouse that moved, read out of its reach while the slab it landed on is read
(``vision.chop_landed.landed_not_read``): with the position one move back, the cat where it stood,
one mouse read missing and one new mouse read where it could not go in one move, the square it
could reach that the classifier singles out, likelier a mouse than the new one read, is the mouse;
the new one takes its likeliest other reading; both unsure. Otherwise nothing."""

from __future__ import annotations

import numpy as np

from vision.chop_known import UNSURE
from vision.chop_landed import landed_not_read
from vision.chop_squares import CLASSES

Decided = list[tuple[str | None, float]]

# spots: two holes, three slab squares, a floor square, a table spot (its top and the floor under it)
GROUPS = [["0,3"], ["3,0"], ["1,1"], ["1,2"], ["3,2"], ["4,6"], ["top:2,3", "2,3"], ["5,7"]]
KINDS = ["hole", "hole", "slab", "slab", "floor", "slab", "table", "slab"]
CONFIRMED = {"0,3": "mouse:1", "3,0": "mouse:2", "1,1": "slab", "1,2": "slab", "3,2": "cat",
             "4,6": "mouse:4", "5,7": "slab"}


def _probs(mouse: dict[int, float], cat: dict[int, float] | None = None) -> np.ndarray:
    rows = []
    for i, k in enumerate(KINDS):
        m, c = mouse.get(i, 0.0), (cat or {}).get(i, 0.0)
        rest = {"hole": "hole", "slab": "slab"}.get(k, "-")
        rows.append([{rest: 1.0 - m - c, "mouse": m, "cat": c}.get(n, 0.0) for n in CLASSES])
    return np.array(rows)


def _read(new_at: int = 7) -> Decided:
    # mouse 2 left its hole 3,0 (opened, C4); 1,2 still reads as its slab; a new mouse read at new_at
    out: Decided = [("mouse", 0.9), ("hole", 0.8), ("slab", 0.9), ("slab", 0.9), ("cat", 0.9),
                    ("mouse", 0.9), (None, 0.9), ("slab", 0.9)]
    out[new_at] = ("mouse", 0.8)
    return out


def test_the_mouse_read_out_of_reach_goes_to_the_square_the_classifier_singles_out() -> None:
    decided = _read()  # 5,7: nine steps from 3,0, no mouse of the position could be there
    probs = _probs({0: 0.9, 1: 0.02, 3: 0.5, 5: 0.9, 7: 0.3}, {4: 0.9})
    assert landed_not_read(decided, KINDS, GROUPS, CONFIRMED, probs) == 2
    assert decided[3] == ("mouse", UNSURE)
    assert decided[7] == ("slab", UNSURE)
    assert decided[:3] == _read()[:3] and decided[4:7] == _read()[4:7]


def test_nothing_where_the_new_mouse_read_is_one_it_could_reach() -> None:
    decided = _read(2)  # 1,1: two steps from 3,0
    before = list(decided)
    probs = _probs({0: 0.9, 2: 0.3, 3: 0.5, 5: 0.9}, {4: 0.9})
    assert landed_not_read(decided, KINDS, GROUPS, CONFIRMED, probs) == 0 and decided == before


def test_nothing_where_the_classifier_backs_the_new_mouse_or_singles_out_none() -> None:
    for mouse in ({3: 0.5, 7: 0.6}, {3: 0.5, 2: 0.3, 7: 0.1}, {3: 0.03, 7: 0.01}):
        decided = _read()
        before = list(decided)
        assert landed_not_read(decided, KINDS, GROUPS, CONFIRMED, _probs({0: 0.9, 5: 0.9, **mouse}, {4: 0.9})) == 0
        assert decided == before


def test_nothing_where_the_mouse_read_missing_shows_a_figure_or_the_cat_moved() -> None:
    probs = _probs({0: 0.9, 1: 0.35, 3: 0.5, 5: 0.9, 7: 0.3}, {4: 0.9})
    decided = _read()  # 3,0 still shows a figure (0.35): it may not have left
    assert landed_not_read(decided, KINDS, GROUPS, CONFIRMED, probs) == 0 and decided[3] == ("slab", 0.9)
    moved = _read()
    moved[4], moved[6] = (None, 0.9), ("cat", 0.9)  # the cat's turn: no mouse moved
    probs = _probs({0: 0.9, 3: 0.5, 5: 0.9, 7: 0.3}, {6: 0.9})
    assert landed_not_read(moved, KINDS, GROUPS, CONFIRMED, probs) == 0 and moved[3] == ("slab", 0.9)


def test_nothing_without_a_position_a_classifier_or_in_a_new_game() -> None:
    probs = _probs({0: 0.9, 3: 0.5, 5: 0.9, 7: 0.3}, {4: 0.9})
    for args in (({}, probs, False), (CONFIRMED, None, False), (CONFIRMED, probs, True)):
        decided = _read()
        assert landed_not_read(decided, KINDS, GROUPS, args[0], args[1], args[2]) == 0 and decided == _read()
