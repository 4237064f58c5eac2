"""Chop! Chop!'s mice against a confirmed position one turn back (``vision.chop_moved``): one piece
moved since (C2), so a mouse read where none stood is kept only as the one mover, a confirmed mouse
read missing is the mouse unless it is the one that left, and the cat's move moves no mouse."""

from __future__ import annotations

import numpy as np

from vision.chop_known import UNSURE
from vision.chop_moved import CAT_REACH, cat_could_reach, cat_reach, mouse_could_reach, one_move
from vision.chop_squares import CLASSES

Decided = list[tuple[str | None, float]]

# spots: two holes, five floor squares, one table spot (the top and the floor under it)
GROUPS = [["0,3"], ["3,0"], ["1,1"], ["1,2"], ["3,2"], ["4,6"], ["top:2,3", "2,3"], ["5,7"]]
KINDS = ["hole", "hole", "floor", "floor", "floor", "floor", "table", "floor"]
CONFIRMED = {"0,3": "mouse:1", "3,0": "mouse:2", "1,1": "mouse:3", "4,6": "mouse:4", "3,2": "cat"}


def _probs(rows: list[dict[str, float]]) -> np.ndarray:
    return np.array([[r.get(c, 0.0) for c in CLASSES] for r in rows])


def _flat(mouse: dict[int, float], cat: dict[int, float] | None = None) -> np.ndarray:
    rows: list[dict[str, float]] = []
    for i, k in enumerate(KINDS):
        m, c = mouse.get(i, 0.0), (cat or {}).get(i, 0.0)
        rows.append({"hole" if k == "hole" else "-": 1.0 - m - c, "mouse": m, "cat": c})
    return _probs(rows)


def test_the_cat_moved_so_no_mouse_did() -> None:
    # the cat went 3,2 -> 1,2: a mouse read on an empty square is something else, the mouse read
    # as the hole on 3,0 (its slab not left: no mouse moved) is the mouse, both unsure
    decided: Decided = [("mouse", 0.9), ("hole", 0.7), ("mouse", 0.9), ("cat", 0.9), (None, 0.9),
                        ("mouse", 0.8), ("mouse", 0.6), (None, 0.9)]
    probs = _flat({0: 0.9, 1: 0.3, 2: 0.9, 5: 0.8, 6: 0.55}, {3: 0.9})
    assert one_move(decided, KINDS, GROUPS, CONFIRMED, probs) == 2
    assert decided[1] == ("mouse", UNSURE) and decided[6] == (None, UNSURE)
    assert decided[3] == ("cat", 0.9) and decided[0] == ("mouse", 0.9)


def test_the_cat_moved_onto_a_mouse_caught_it() -> None:
    # the cat ended on 1,1 (three steps) where mouse 3 stood (C6): that mouse is gone, nothing else changes
    decided: Decided = [("mouse", 0.9), ("mouse", 0.9), ("cat", 0.9), (None, 0.9), (None, 0.9),
                        ("mouse", 0.8), (None, 0.9), (None, 0.9)]
    before = list(decided)
    assert one_move(decided, KINDS, GROUPS, CONFIRMED, _flat({0: 0.9, 1: 0.9, 5: 0.8})) == 0
    assert decided == before


def test_the_cat_stayed_one_mouse_moved_within_reach() -> None:
    # mouse 2 left its hole 3,0 (opened, C4) for 2,3 under the table; a mouse is read on 1,2 too:
    # both within reach of 3,0, the one the classifier finds likelier a mouse is the mover
    decided: Decided = [("mouse", 0.9), ("hole", 0.8), ("mouse", 0.9), ("mouse", 0.6), ("cat", 0.9),
                        ("mouse", 0.8), ("mouse", 0.7), (None, 0.9)]
    probs = _flat({0: 0.9, 2: 0.9, 3: 0.4, 5: 0.8, 6: 0.7})
    assert one_move(decided, KINDS, GROUPS, CONFIRMED, probs) == 1
    assert decided[3] == (None, UNSURE) and decided[6] == ("mouse", 0.7)  # 1,2 dropped; 2,3 kept
    assert decided[1] == ("hole", 0.8)  # the mover's hole: left opened


def test_two_confirmed_mice_read_missing_one_left_the_other_stayed() -> None:
    # no new mouse seen: of the two read missing the less likely a mouse left, the other is read back
    decided: Decided = [("hole", 0.7), ("hole", 0.8), ("mouse", 0.9), (None, 0.9), ("cat", 0.9),
                        ("mouse", 0.8), (None, 0.9), (None, 0.9)]
    probs = _flat({0: 0.45, 1: 0.05, 2: 0.9, 5: 0.8})
    assert one_move(decided, KINDS, GROUPS, CONFIRMED, probs) == 1
    assert decided[0] == ("mouse", UNSURE) and decided[1] == ("hole", 0.8)


def test_a_cat_read_farther_than_a_cat_move_is_not_taken_for_its_move() -> None:
    # the cat read on 5,7, seven steps from 3,2 (a cat moves at most CAT_REACH): a mouse read as
    # the cat is likelier, so the mice are read as one mouse's move: the new mouse on 1,2 and the
    # mouse of 3,0 read as the opened hole (it left) both stand; 5,7 is not the cat (session 31:
    # its square read empty and no square it could reach backs it, it is read nowhere, asked)
    assert 2 + 5 > CAT_REACH
    decided: Decided = [("mouse", 0.9), ("hole", 0.8), ("mouse", 0.9), ("mouse", 0.9), (None, 0.9),
                        ("mouse", 0.8), (None, 0.9), ("cat", 0.8)]
    before = list(decided)
    assert one_move(decided, KINDS, GROUPS, CONFIRMED, _flat({0: 0.9, 1: 0.2, 2: 0.9, 3: 0.9, 5: 0.8})) == 1
    assert decided[7] == (None, UNSURE) and decided[:7] == before[:7]
    # the same reading with the cat on 4,2, next to 3,2: the cat moved, so no mouse did
    near = [["0,3"], ["3,0"], ["1,1"], ["1,2"], ["3,2"], ["4,6"], ["top:2,3", "2,3"], ["4,2"]]
    moved = list(before)
    assert one_move(moved, KINDS, near, CONFIRMED, _flat({0: 0.9, 1: 0.2, 2: 0.9, 3: 0.9, 5: 0.8}, {7: 0.9})) == 2
    assert moved[3] == (None, UNSURE) and moved[1] == ("mouse", UNSURE)


def test_the_cat_reaches_by_the_engines_paths() -> None:
    # one to three steps (C2) over the floor and the table top, never under the table or into a
    # hole (C3), never through a mouse (it may end on one, C6) or onto a face-up cheese
    assert cat_could_reach(CONFIRMED, "3,2", "top:2,3")  # 3,2 2,2 top:2,3
    assert cat_could_reach(CONFIRMED, "3,2", "1,1")  # onto mouse 3, three steps
    assert not cat_could_reach(CONFIRMED, "3,2", "2,3")  # under the table
    assert not cat_could_reach(CONFIRMED, "3,2", "3,0")  # a hole
    assert not cat_could_reach(CONFIRMED, "3,2", "5,7")  # seven steps
    boxed = {"0,0": "cat", "0,1": "mouse:1", "1,0": "mouse:2"}
    assert cat_could_reach(boxed, "0,0", "0,1") and not cat_could_reach(boxed, "0,0", "0,2")  # not through a mouse
    assert not cat_could_reach({**CONFIRMED, "2,2": "cheese", "4,2": "cheese", "3,1": "cheese"}, "3,2", "1,2")
    slab = {**boxed, "0,1": "slab"}
    assert not cat_could_reach(slab, "0,0", "4,4", {"0,1": "slab"})
    assert cat_could_reach(slab, "0,0", "4,4", {"0,1": None})  # a +1 / +2 / arrow turned on 0,1 (C5)
    assert cat_reach(boxed, "0,0") == {"0,1", "1,0"}


def test_a_cat_read_where_it_could_not_go_stands_where_a_figure_still_is_else_nowhere() -> None:
    # the cat of 0,0 is boxed in by mice 1 and 2 (0,1, 1,0): read on 0,2, two steps away, it was
    # read off its square (base: taken for its move, so the new mouse on 1,2 was dropped); the
    # classifier sees a figure on 0,0 still: the cat stayed there, and mouse 3's move 2,2 -> 1,2 stands
    groups = [["0,0"], ["0,1"], ["1,0"], ["0,2"], ["2,2"], ["1,2"]]
    kinds = ["floor"] * 6
    boxed = {"0,0": "cat", "0,1": "mouse:1", "1,0": "mouse:2", "2,2": "mouse:3"}
    decided: Decided = [("mouse", 0.7), ("mouse", 0.9), ("mouse", 0.9), ("cat", 0.8), (None, 0.9), ("mouse", 0.9)]
    probs = _probs([{"mouse": 0.6, "cat": 0.3, "-": 0.1}, {"mouse": 0.9, "-": 0.1}, {"mouse": 0.9, "-": 0.1},
                    {"cat": 0.8, "-": 0.2}, {"-": 1.0}, {"mouse": 0.9, "-": 0.1}])
    assert one_move(decided, kinds, groups, boxed, probs) == 2
    assert decided[0] == ("cat", UNSURE) and decided[3] == (None, UNSURE)
    assert decided[5] == ("mouse", 0.9) and decided[4] == (None, 0.9)  # the mouse's move kept
    # its square read empty: the cat left it, but for where the reading says nothing sure: it is
    # read nowhere (asked), not on mouse 1 whom the classifier finds cat-like (a capture, C6, or a
    # mouse read as the cat)
    decided = [(None, 0.7), ("mouse", 0.9), ("mouse", 0.9), ("cat", 0.8), ("mouse", 0.9), (None, 0.9)]
    probs = _probs([{"-": 0.9, "cat": 0.1}, {"mouse": 0.3, "cat": 0.6, "-": 0.1}, {"mouse": 0.9, "-": 0.1},
                    {"cat": 0.8, "-": 0.2}, {"mouse": 0.9, "-": 0.1}, {"-": 1.0}])
    assert one_move(decided, kinds, groups, boxed, probs) == 1
    assert decided[3] == (None, UNSURE) and decided[0] == (None, 0.7) and decided[1] == ("mouse", 0.9)
    assert not any(t == "cat" for t, _ in decided)


def test_nothing_without_a_position_or_a_classifier_or_in_a_new_game() -> None:
    decided: Decided = [("mouse", 0.9), ("hole", 0.7), ("mouse", 0.9), ("cat", 0.9), (None, 0.9),
                        ("mouse", 0.8), ("mouse", 0.6), (None, 0.9)]
    probs = _flat({0: 0.9, 1: 0.3, 2: 0.9, 5: 0.8, 6: 0.55})
    before = list(decided)
    assert one_move(decided, KINDS, GROUPS, {}, probs) == 0
    assert one_move(decided, KINDS, GROUPS, CONFIRMED, None) == 0
    assert one_move(decided, KINDS, GROUPS, CONFIRMED, probs, new=True) == 0
    assert decided == before


def test_of_two_new_mice_the_one_a_confirmed_mouse_could_reach_moved() -> None:
    # mouse 2 left its hole 3,0 (read as the opened hole); mice are read on 1,2 (four steps from
    # 3,0) and on 5,7 (nine steps, and no slab turned on the way): only 1,2 is a mouse's move (C2)
    decided: Decided = [("mouse", 0.9), ("hole", 0.8), ("mouse", 0.9), ("mouse", 0.6), ("cat", 0.9),
                        ("mouse", 0.8), (None, 0.9), ("mouse", 0.7)]
    probs = _flat({0: 0.9, 2: 0.9, 3: 0.7, 5: 0.8, 7: 0.5})
    assert one_move(decided, KINDS, GROUPS, CONFIRMED, probs) == 1
    assert decided[3] == ("mouse", 0.6) and decided[7] == (None, UNSURE)
    # the classifier likes 5,7 better: an arrow turned where the reading missed it (C5) would carry
    # the mouse there; both stay, unsure (asked; session 31: the reachable one alone was once
    # proposed as a teleport that had gone to the other)
    decided = [("mouse", 0.9), ("hole", 0.8), ("mouse", 0.9), ("mouse", 0.6), ("cat", 0.9),
               ("mouse", 0.8), (None, 0.9), ("mouse", 0.7)]
    probs = _flat({0: 0.9, 2: 0.9, 3: 0.5, 5: 0.8, 7: 0.7})
    assert one_move(decided, KINDS, GROUPS, CONFIRMED, probs) == 2
    assert decided[3] == ("mouse", UNSURE) and decided[7] == ("mouse", UNSURE)


def test_the_cat_read_a_move_away_stayed_where_a_figure_is_and_a_mouse_moved() -> None:
    # the classifier sees a figure (a mouse, 0.9) where the cat stood (3,2) and the cat on 1,2, two
    # steps away; mouse 4 left 4,6 (the floor read there) for 5,7: one move cannot do both (C2).
    # The mouse's move is likelier than the cat's (base: the cat's, mouse 4 read back, 5,7 dropped)
    decided: Decided = [("mouse", 0.9), ("mouse", 0.9), ("mouse", 0.9), ("cat", 0.8), (None, 0.6),
                        (None, 0.9), (None, 0.9), ("mouse", 0.9)]
    probs = _flat({0: 0.9, 1: 0.9, 2: 0.9, 4: 0.9, 7: 0.95}, {3: 0.8})
    assert one_move(decided, KINDS, GROUPS, CONFIRMED, probs) == 2
    assert decided[4] == ("cat", UNSURE) and decided[3] == (None, UNSURE)
    assert decided[7] == ("mouse", 0.9) and decided[5] == (None, 0.9)
    # where it stood reads empty: the cat's move (and 5,7 is no mouse: mouse 4 is read back)
    decided = [("mouse", 0.9), ("mouse", 0.9), ("mouse", 0.9), ("cat", 0.8), (None, 0.9),
               (None, 0.9), (None, 0.9), ("mouse", 0.9)]
    probs = _flat({0: 0.9, 1: 0.9, 2: 0.9, 7: 0.6}, {3: 0.8})
    assert one_move(decided, KINDS, GROUPS, CONFIRMED, probs) == 2
    assert decided[3] == ("cat", 0.8) and decided[5] == ("mouse", UNSURE) and decided[7] == (None, UNSURE)


def test_a_mouse_reaches_four_steps_around_pieces_or_farther_past_a_turned_slab() -> None:
    assert mouse_could_reach(CONFIRMED, "3,0", "1,2")  # 3,0 2,0 2,1 2,2 1,2
    assert not mouse_could_reach(CONFIRMED, "3,0", "3,4")  # the cat on 3,2 makes it six steps
    assert not mouse_could_reach({**CONFIRMED, "3,2": "cheese"}, "3,0", "3,4")  # a face-up cheese too
    assert mouse_could_reach({k: v for k, v in CONFIRMED.items() if k != "3,2"}, "3,0", "3,4")  # four steps once it is gone
    up = {k: v for k, v in CONFIRMED.items() if k != "3,2"}
    assert mouse_could_reach({**up, "top:3,2": "cat"}, "3,0", "3,4")  # the cat up on the table
    slab = {**CONFIRMED, "2,1": "slab"}
    assert not mouse_could_reach(slab, "3,0", "5,7", {"2,1": "slab"})
    assert mouse_could_reach(slab, "3,0", "5,7", {"2,1": None})  # +1 / +2 / arrow turned on 2,1 (C5)


def test_of_two_mice_read_missing_the_one_the_new_mouse_is_a_move_from_left() -> None:
    # mice 1 (0,3) and 2 (3,0) both read as their holes, a new mouse on 0,5: two steps from 0,3,
    # eight from 3,0. The classifier finds 0,3 likelier a mouse than 3,0, yet mouse 1 is the one
    # that moved (C2): 3,0 is read back as the mouse, 0,3 stays the opened hole
    groups = [*GROUPS[:7], ["0,5"]]
    decided: Decided = [("hole", 0.8), ("hole", 0.8), ("mouse", 0.9), (None, 0.9), ("cat", 0.9),
                        ("mouse", 0.8), (None, 0.9), ("mouse", 0.9)]
    probs = _flat({0: 0.3, 1: 0.1, 2: 0.9, 5: 0.8, 7: 0.9})
    assert one_move(decided, KINDS, groups, CONFIRMED, probs) == 1
    assert decided[1] == ("mouse", UNSURE) and decided[0] == ("hole", 0.8)
