"""Chop! Chop!: the mouse that moved, where it landed unseen (``vision.chop_landed``): with the
position one move back, the cat where it stood, one mouse read missing and none read new, the
square it could reach that the classifier singles out is the mouse, unsure; otherwise nothing."""

from __future__ import annotations

import numpy as np

from vision.chop_known import UNSURE
from vision.chop_landed import landed_mouse
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


def _read() -> Decided:
    # mouse 2 left its hole 3,0 (opened, C4); it is read nowhere: 1,2 still reads as its slab
    return [("mouse", 0.9), ("hole", 0.8), ("slab", 0.9), ("slab", 0.9), ("cat", 0.9),
            ("mouse", 0.9), (None, 0.9), ("slab", 0.9)]


def test_the_mouse_that_left_is_put_where_the_classifier_singles_it_out() -> None:
    decided = _read()
    # 5,7 is likelier still, but nine steps from 3,0: no mouse of the position could be there
    probs = _probs({0: 0.9, 1: 0.02, 3: 0.2, 5: 0.9, 7: 0.6}, {4: 0.9})
    assert landed_mouse(decided, KINDS, GROUPS, CONFIRMED, probs) == 1
    assert decided[3] == ("mouse", UNSURE)
    assert [t for t, _ in decided[:3]] == ["mouse", "hole", "slab"] and decided[7] == ("slab", 0.9)


def test_nothing_where_no_square_is_singled_out_or_the_classifier_sees_none() -> None:
    for mouse in ({3: 0.2, 2: 0.15}, {3: 0.03}):
        decided = _read()
        before = list(decided)
        assert landed_mouse(decided, KINDS, GROUPS, CONFIRMED, _probs({0: 0.9, 5: 0.9, **mouse}, {4: 0.9})) == 0
        assert decided == before


def test_nothing_where_the_mouse_read_missing_still_shows_a_figure() -> None:
    decided = _read()  # its spot: mouse and cat 0.35 together: it may not have left
    assert landed_mouse(decided, KINDS, GROUPS, CONFIRMED, _probs({0: 0.9, 1: 0.2, 3: 0.2, 5: 0.9}, {1: 0.15})) == 0
    assert decided[3] == ("slab", 0.9)


def test_nothing_unless_the_cat_is_read_where_it_stood() -> None:
    probs = _probs({0: 0.9, 3: 0.2, 5: 0.9}, {4: 0.9})
    nowhere = _read()
    nowhere[4] = (None, 0.9)  # the cat read nowhere: it may have moved and caught the mouse (C6)
    assert landed_mouse(nowhere, KINDS, GROUPS, CONFIRMED, probs) == 0 and nowhere[3] == ("slab", 0.9)
    moved = _read()
    moved[4], moved[6] = (None, 0.9), ("cat", 0.9)  # the cat's turn: no mouse moved
    assert landed_mouse(moved, KINDS, GROUPS, CONFIRMED, probs) == 0 and moved[3] == ("slab", 0.9)


def test_nothing_where_the_table_top_cat_may_hide_it() -> None:
    # the cat on the table top hides the floor under it, which mouse 2 could reach: it may stand there
    confirmed = {**CONFIRMED, "top:2,3": "cat"}
    del confirmed["3,2"]
    decided = _read()
    decided[4], decided[6] = (None, 0.9), ("cat", 0.9)
    assert landed_mouse(decided, KINDS, GROUPS, confirmed, _probs({0: 0.9, 3: 0.2, 5: 0.9}, {6: 0.9})) == 0
    assert decided[3] == ("slab", 0.9)


def test_nothing_without_a_position_a_classifier_or_in_a_new_game() -> None:
    probs = _probs({0: 0.9, 3: 0.2, 5: 0.9}, {4: 0.9})
    for confirmed, p, new in (({}, probs, False), (CONFIRMED, None, False), (CONFIRMED, probs, True)):
        decided = _read()
        assert landed_mouse(decided, KINDS, GROUPS, confirmed, p, new) == 0 and decided[3] == ("slab", 0.9)
