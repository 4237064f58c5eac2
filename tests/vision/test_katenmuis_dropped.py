"""Kat en Muis: a counter the count dropped is the one missing (issue 31, session 20, katlens).

Held-out third family 4201, Kat en Muis group 2: dark metal turned counters under the evening
lamp, 8° tilt through a wide lens (fisheye 0.55). Away from the start square the cat looks
nearer the mouse's learned look than the cat's, so two spots read as the mouse; the one-mouse
count kept the real mouse and dropped the cat's spot to empty, and the search for the missing
cat looked only among the empty-read spots whose nearest look is the cat's. Both counters never
leave the board: the dropped spot, whose evidence is a solid counter's, is the missing one
(``vision.katenmuis_read.missing_from_dropped``, ``PieceConfig.dropped_missing``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.group_reads import need_photo_tables, wrong_squares
from vision.boarddefaults import board_for
from vision.katenmuis_read import missing_from_dropped
from vision.piece_config import PieceConfig
from vision.synth.scene_c import write_c_group

BOARD = board_for("katenmuis")


@pytest.mark.slow
def test_a_dark_cat_read_as_a_second_mouse_is_the_cat(tmp_path: Path) -> None:
    # measured: the group's first four scenes (the set's 16-19; a group of three is drawn
    # otherwise), katenmuis-0018 (cat on 65, mouse on 6) read after the start. Without the rule
    # the cat's square reads empty (the cat nowhere); with it every square is right. (0019
    # written alone reads a false cat on square 2 and drops the real one as a second mouse:
    # the cat is not missing there, not fixed; in the whole set's 0019 it is, and fixed.)
    (tmp_path / "images").mkdir()
    need_photo_tables()  # the scenes measured were drawn with the photo tables
    scenes = write_c_group(tmp_path, "katenmuis", 2, 4, 16, 4201)
    group = [scenes[0], scenes[2]]
    old = wrong_squares(group, tmp_path, BOARD, PieceConfig(dropped_missing=()))
    assert old == [("images/katenmuis-0018.jpg", "65", "cat", None)], old
    assert wrong_squares(group, tmp_path, BOARD, PieceConfig()) == []


def _d(cat: list[float], mouse: list[float]) -> dict[str, np.ndarray]:
    return {"cat": np.array(cat), "mouse": np.array(mouse)}


def test_the_dropped_spot_takes_the_missing_kind() -> None:
    # spot 1 kept as the mouse, spot 3 dropped for a second mouse with more evidence: 3 is the cat
    decided: list[tuple[str | None, float]] = [(None, 0.9), ("mouse", 0.9), (None, 0.9), (None, 0.5)]
    crowd = np.zeros(4, bool)
    d = _d([3.0, 2.5, 3.0, 1.5], [3.0, 0.5, 3.0, 1.0])
    score = np.array([0.2, 2.0, 0.3, 4.5])
    assert missing_from_dropped(decided, {3: "mouse"}, "cat", d, crowd, score) == 3
    assert decided == [(None, 0.9), ("mouse", 0.9), (None, 0.9), ("cat", 0.5)]


def test_a_dropped_spot_weaker_than_the_kept_one_is_no_counter() -> None:
    # first family 2026 scene 26: a weak spot (evidence 1.07) dropped as a second cat, the cat
    # kept at 1.44: a shadow, not the missing mouse
    decided: list[tuple[str | None, float]] = [("cat", 0.9), (None, 0.5)]
    score = np.array([1.44, 1.07])
    d = _d([0.5, 8.0], [8.0, 8.4])
    assert missing_from_dropped(decided, {1: "cat"}, "mouse", d, np.zeros(2, bool), score) is None
    assert decided == [("cat", 0.9), (None, 0.5)]


def test_the_two_kinds_go_where_their_looks_fit_best() -> None:
    # the kept "mouse" (spot 1) looks much more like the cat than the dropped one does, and the
    # dropped one fits the mouse: the two swap
    decided: list[tuple[str | None, float]] = [("mouse", 0.9), (None, 0.5)]
    d = _d([0.4, 2.0], [1.0, 0.6])
    score = np.array([2.0, 3.0])
    out = [*decided]
    assert missing_from_dropped(out, {1: "mouse"}, "cat", d, np.zeros(2, bool), score) == 0
    assert out == [("cat", 0.5), ("mouse", 0.5)]


def test_nothing_dropped_or_under_a_hand_changes_nothing() -> None:
    decided: list[tuple[str | None, float]] = [("mouse", 0.9), (None, 0.5)]
    d = _d([1.0, 1.0], [0.5, 0.7])
    score = np.array([2.0, 3.0])
    assert missing_from_dropped(decided, {}, "cat", d, np.zeros(2, bool), score) is None
    assert missing_from_dropped(decided, {1: "mouse"}, "cat", d, np.array([False, True]), score) is None
    assert decided == [("mouse", 0.9), (None, 0.5)]
