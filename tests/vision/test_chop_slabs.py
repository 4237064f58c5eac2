"""Chop! Chop!: a face-down slab is the one laid at the start, where it was laid (C1, C5;
``vision.chop_slabs``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.chop_slabs import UNSURE, slab_starts, slabs_laid, start_change
from vision.chop_squares import CLASSES
from vision.piece_looks import P, PieceModel

GROUPS = [["0,0"], ["0,1"], ["1,1"], ["top:2,3", "2,3"]]
KINDS = ["slab", "slab", "hole", "table"]


def _patches(rng: np.random.Generator) -> np.ndarray:
    """Four light-normalised spot patches: two slabs (a dark back, a pale paw), a hole, the table."""
    out = np.full((4, P, P, 3), 0.9, np.float32)
    for i in (0, 1):
        out[i] = 0.25
        out[i, 6:10, 6:10] = 0.85  # the paw print
    return out + rng.normal(0, 0.01, out.shape).astype(np.float32)


def _probs(**at: dict[str, float]) -> np.ndarray:
    """[4, classes] probabilities: the spot index (``s0``...) -> {class: p}; the rest uniform."""
    out = np.full((4, len(CLASSES)), 1.0 / len(CLASSES))
    for key, row in at.items():
        out[int(key[1:])] = [row.get(c, 0.0) for c in CLASSES]
    return out


def test_a_slab_still_lying_where_it_was_laid_shows_its_start_picture() -> None:
    rng = np.random.default_rng(1)
    start = _patches(rng)
    starts = slab_starts(GROUPS, KINDS, start)
    assert sorted(starts) == ["0,0", "0,1"]  # slab squares only
    now = _patches(rng) * 1.03  # the same slabs, a little noise, the light 3 % up
    now[1] = 0.9  # the second slab removed: the pale print of the floor shows
    change = start_change(starts, GROUPS, KINDS, now)
    assert change[0, 0] < 0.1 and change[0, 1] < 0.1
    assert change[1, 0] > 0.8 and change[1, 1] > 0.3  # its level and its pattern changed
    assert np.isnan(change[2:]).all()
    shaded = _patches(rng) * 0.5  # a shadow over both slabs: the level changes, the pattern stays
    change = start_change(starts, GROUPS, KINDS, shaded)
    assert (change[:2, 0] > 0.5).all() and (change[:2, 1] < 0.1).all()


def test_a_slab_read_where_the_start_picture_is_gone_takes_the_classifiers_other_reading() -> None:
    change = np.array([[0.7, 0.5], [0.7, 0.5], [np.nan] * 2, [np.nan] * 2])
    decided: list[tuple[str | None, float]] = [("slab", 0.8), ("slab", 0.8), ("mouse", 0.9), ("cat", 0.9)]
    probs = _probs(s0={"slab": 0.3, "mouse": 0.6, "-": 0.1}, s1={"slab": 0.6, "-": 0.4})
    assert slabs_laid(decided, KINDS, change, probs, 0.5, 0.3, 0.25, 0.5) == 1
    assert decided[0][0] == "mouse" and decided[0][1] <= UNSURE  # asked
    assert decided[1] == ("slab", 0.8)  # the classifier sure of the slab: kept
    assert decided[2:] == [("mouse", 0.9), ("cat", 0.9)]  # not slab squares


def test_a_slab_in_a_shadow_is_still_a_slab() -> None:
    change = np.array([[0.7, 0.1], [0.7, 0.5], [np.nan] * 2, [np.nan] * 2])  # the first: only darker
    decided: list[tuple[str | None, float]] = [("slab", 0.8), ("slab", 0.8), (None, 0.9), ("cat", 0.9)]
    probs = _probs(s0={"slab": 0.2, "-": 0.8}, s1={"slab": 0.2, "-": 0.8})
    assert slabs_laid(decided, KINDS, change, probs, 0.5, 0.3, 0.25, 0.5) == 1
    assert decided[0] == ("slab", 0.8)
    assert decided[1][0] is None


def test_no_second_cat_where_a_slab_is_gone() -> None:
    change = np.array([[0.7, 0.5], [0.1, 0.1], [np.nan] * 2, [np.nan] * 2])
    decided: list[tuple[str | None, float]] = [("slab", 0.8), ("slab", 0.8), (None, 0.9), ("cat", 0.9)]
    probs = _probs(s0={"slab": 0.2, "cat": 0.5, "-": 0.3})
    slabs_laid(decided, KINDS, change, probs, 0.5, 0.3, 0.25, 0.5)
    assert decided[0][0] is None  # the cat stands on the table top (C1: one cat)
    assert decided[1] == ("slab", 0.8)  # unchanged from the start: left


def test_nothing_read_where_the_start_slab_still_shows_is_that_slab() -> None:
    change = np.array([[0.1, 0.1], [0.1, 0.1], [np.nan] * 2, [np.nan] * 2])
    decided: list[tuple[str | None, float]] = [(None, 0.7), (None, 0.7), (None, 0.9), (None, 0.9)]
    probs = _probs(s0={"-": 0.4, "slab": 0.6}, s1={"-": 0.95, "slab": 0.05})
    assert slabs_laid(decided, KINDS, change, probs, 0.5, 0.3, 0.25, 0.5) == 1
    assert decided[0] == ("slab", UNSURE)
    assert decided[1] == (None, 0.7)  # the classifier sure that nothing lies there


def test_without_start_pictures_nothing_changes() -> None:
    start = _patches(np.random.default_rng(2))
    change = start_change({}, GROUPS, KINDS, start)
    decided: list[tuple[str | None, float]] = [("slab", 0.8), (None, 0.7), (None, 0.9), ("cat", 0.9)]
    assert slabs_laid(decided, KINDS, change, None, 0.5, 0.3, 0.25, 0.5) == 0
    assert decided == [("slab", 0.8), (None, 0.7), (None, 0.9), ("cat", 0.9)]


def test_the_start_pictures_are_kept_with_the_learned_looks(tmp_path: Path) -> None:
    model = PieceModel("chopchop")
    model.slab_starts = slab_starts(GROUPS, KINDS, _patches(np.random.default_rng(3)))
    model.save(tmp_path / "looks.json")
    back = PieceModel.load(tmp_path / "looks.json")
    assert sorted(back.slab_starts) == ["0,0", "0,1"]
    assert np.allclose(back.slab_starts["0,0"], model.slab_starts["0,0"])
    old = PieceModel("chopchop")  # a file written before: none kept
    old.save(tmp_path / "old.json")
    assert PieceModel.load(tmp_path / "old.json").slab_starts == {}


def test_learn_keeps_each_slab_squares_start_picture_only_when_the_rule_is_on() -> None:
    from vision.boarddefaults import board_for
    from vision.piece_config import PieceConfig
    from vision.pieces import BoardReader
    from vision.synth.board import random_position
    from vision.synth.board_alt import alt_look, render_alt_scene

    board = board_for("chopchop")
    rng = np.random.default_rng(7)
    pieces = alt_look(board, rng)
    start = random_position(board, rng, reference=True)  # C1: a slab on every slab square
    image = render_alt_scene(board, start, pieces, rng, occlude=False, hide_marker=False)["image"]
    known = {s: t for s, t in start.items() if t != "cat"}
    off = BoardReader(board)
    off.learn(image, known)
    assert off.model.slab_starts == {}  # the default: not used, not kept
    on = BoardReader(board, config=PieceConfig(chop_slab_start=(0.5, 0.3, 0.25)))
    on.learn(image, known)
    slabs = [ids[0] for ids, k in zip(on.groups, on._chop_kinds) if k == "slab"]
    assert sorted(on.model.slab_starts) == sorted(slabs) and len(slabs) == 38
    pose = on.refine(image, on.tracker.update(image))
    patches = on.features(image, pose)[2]  # the start photo read again: no slab square changed
    change = start_change(on.model.slab_starts, on.groups, on._chop_kinds, patches)
    assert np.isfinite(change[[k == "slab" for k in on._chop_kinds]]).all()
    assert np.nanmax(change) < 0.05
