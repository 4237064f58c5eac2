"""A mouse gone under the table-top cat that stayed, one move back known (``vision.chop_under``)."""

from __future__ import annotations

from vision.chop_under import came_under

Decided = list[tuple[str | None, float]]

GROUPS = [["top:2,3", "2,3"], ["2,2"], ["0,3"], ["5,7"], ["1,6"]]
CONFIRMED = {"top:2,3": "cat", "2,2": "mouse:1", "0,3": "mouse:2", "5,7": "mouse:3"}


def test_the_one_mouse_seen_nowhere_went_under_the_cat_that_stayed() -> None:
    # mouse 1 left 2,2 and is read nowhere; the cat is read where it stood: the move was mouse 1's,
    # and 2,3 under the cat is a step away (C2, C3): it is there
    read: Decided = [("cat", 0.9), (None, 0.9), ("mouse", 0.9), ("mouse", 0.9), (None, 0.9)]
    assert came_under(read, GROUPS, CONFIRMED) == [0]
    # a mouse read where none stood: that is where it went
    assert came_under([*read[:4], ("mouse", 0.7)], GROUPS, CONFIRMED) == []
    # two mice read nowhere: which one is not known
    assert came_under([*read[:3], (None, 0.9), read[4]], GROUPS, CONFIRMED) == []
    # the one read nowhere is mouse 3 (5,7): seven steps from 2,3, farther than a mouse's move
    assert came_under([read[0], ("mouse", 0.9), read[2], (None, 0.9), read[4]], GROUPS, CONFIRMED) == []


def test_nothing_where_the_cat_moved_or_is_not_read_or_a_mouse_stood_under_it() -> None:
    read: Decided = [("cat", 0.9), (None, 0.9), ("mouse", 0.9), ("mouse", 0.9), (None, 0.9)]
    came = {**{k: v for k, v in CONFIRMED.items() if k != "top:2,3"}, "1,6": "cat"}
    assert came_under(read, GROUPS, came) == []  # the cat's move: no mouse moved
    assert came_under([(None, 0.9), *read[1:]], GROUPS, CONFIRMED) == []  # the cat read nowhere
    stood = {**CONFIRMED, "2,3": "mouse:4"}  # a mouse under it already: chop_who.pairs_by_rules' case
    assert came_under(read, GROUPS, stood) == []
    assert came_under(read, GROUPS, {}) == []
