"""Chop! Chop!: a square that looks as it looked in the frame that showed the confirmed position
holds what that position says (``vision.chop_still``): a mouse read on an empty square that did
not change is the floor, the floor read where the confirmed mouse stands unchanged is the mouse."""

from __future__ import annotations

import numpy as np

from vision.chop_known import UNSURE
from vision.chop_still import STILL, changes, remember, stays_still

KINDS = ["floor", "slab", "table", "hole", "floor"]
GROUPS = [["1,1"], ["1,2"], ["top:2,2", "2,2"], ["0,4"], ["3,3"]]


def test_a_mouse_read_on_an_unchanged_empty_square_is_the_floor_unsure() -> None:
    confirmed = {"3,3": "mouse:1", "0,4": "hole"}
    read = [("mouse", 0.9), (None, 0.9), (None, 0.9), ("mouse", 0.95), ("mouse", 0.9)]
    out = list(read)
    change = np.array([0.1, 1.0, 1.0, 0.1, 1.0])
    assert stays_still(out, KINDS, GROUPS, confirmed, change) == 1
    assert out[0] == (None, UNSURE)
    assert out[1:] == read[1:]  # a hole is left (a mouse in it looks like the hole), the others changed
    out = list(read)  # the square changed: a mouse came
    assert stays_still(out, KINDS, GROUPS, confirmed, np.array([2.0, 1.0, 1.0, 0.1, 1.0])) == 0
    assert out == read


def test_the_floor_read_where_the_confirmed_mouse_stands_unchanged_is_that_mouse() -> None:
    confirmed = {"3,3": "mouse:1", "top:2,2": "cat"}
    read = [(None, 0.9), (None, 0.9), (None, 0.9), ("hole", 0.9), (None, 0.8)]
    out = list(read)
    change = np.array([1.0, 1.0, 0.1, 1.0, 0.2])
    assert stays_still(out, KINDS, GROUPS, confirmed, change) == 1
    assert out[4] == ("mouse", UNSURE)
    assert out[2] == (None, 0.9)  # the table spot held the cat, not a mouse: left
    four = [("mouse", 0.9), ("mouse", 0.9), ("mouse", 0.9), ("mouse", 0.9), (None, 0.8)]
    out = list(four)  # four mice read already: never a fifth (C1)
    stays_still(out, KINDS, GROUPS, confirmed, np.array([1.0, 1.0, 1.0, 1.0, 0.1]))
    assert out[4] == (None, 0.8)
    out = list(read)
    assert stays_still(out, KINDS, GROUPS, {}, change) == 0  # no confirmed position: nothing


class _Reader:
    def __init__(self) -> None:
        self.confirmed: dict[str, str] = {}


def test_the_reference_is_the_frame_read_last_before_the_confirmed_position_changed() -> None:
    reader = _Reader()
    frames = [np.full((5, 16, 16, 3), v, np.float32) for v in (0.1, 0.2, 0.3, 0.4)]
    assert remember(reader, frames[0]) is None  # nothing read before
    reader.confirmed = {"1,1": "mouse:1"}  # confirmed after frame 0 was read
    ref = remember(reader, frames[1])
    assert ref is not None and np.allclose(ref, 0.1)
    ref = remember(reader, frames[2])  # the same confirmed position: the same reference
    assert ref is not None and np.allclose(ref, 0.1)
    reader.confirmed = {"1,2": "mouse:1"}
    ref = remember(reader, frames[3])
    assert ref is not None and np.allclose(ref, 0.3)


def test_a_spots_change_is_over_the_frames_median() -> None:
    ref = np.zeros((5, 4, 4, 3))
    now = ref + np.array([0.1, 0.1, 0.1, 0.02, 0.5])[:, None, None, None]
    c = changes(now, ref)
    assert np.allclose(c, [1.0, 1.0, 1.0, 0.2, 5.0])
    assert c[3] < STILL <= c[0]
