"""Kat en Muis on the second 3-D family (``vision.synth.scene_b``): a hand over the board was
read as the cat (the one-cat count kept the hand's spot, nearer the cat's look, and dropped the
real cat), and a white cat on white paper, missing, was looked for by how much nearer a spot's
look is to the cat's than to the print's, which tells nothing when the cat looks like the
print. ``vision.katenmuis_read``, ``PieceConfig.crowd`` (docs/readme/board.md, session 17)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.imageload import load_image
from vision.katenmuis_read import crowded, look_weight
from vision.piece_config import PieceConfig
from vision.pieces import BoardReader, comparable
from vision import stillpose
from vision.synth.scene_b import write_b_dataset

BOARD = board_for("katenmuis")


def test_a_crowd_is_three_touching_occupied_spots() -> None:
    # a row of squares 10 mm apart, and one far away
    centres = np.array([[0.0, 0.0], [10.0, 0.0], [20.0, 10.0], [60.0, 0.0], [70.0, 0.0], [200.0, 0.0]])
    occupied = np.array([True, True, True, True, True, True])
    got = crowded(centres, occupied, 10.0, 3)
    assert got.tolist() == [True, True, True, False, False, False]  # the diagonal neighbour joins
    # the cat and the mouse side by side are no crowd; an empty spot breaks one
    assert not crowded(centres, np.array([True, True, False, True, True, True]), 10.0, 3).any()
    assert crowded(centres, occupied, 10.0, 2).tolist() == [True, True, True, True, True, False]


def test_a_piece_like_the_print_is_told_by_its_evidence_alone() -> None:
    assert look_weight(0.0) == 0.0
    assert look_weight(1.0) == 0.5
    assert look_weight(5.0) == 1.0


def _wrong(root: Path, config: PieceConfig) -> list[tuple[str, str, str | None, str | None]]:
    """(file, square, truth, read) of every square read wrong (squares under the hand left out),
    the group's first scene (the start) learned."""
    scenes = json.loads((root / "labels.json").read_text())["scenes"]
    reader = BoardReader(BOARD, config=config)
    reader.learn(load_image(root / scenes[0]["file"]).image, dict(scenes[0]["squares"]))
    out = []
    for sc in scenes[1:]:
        got = reader.read_spots(reader.read(load_image(root / sc["file"]).image, track=False))
        truth = comparable(BOARD, dict(sc["squares"]))
        for sid in reader.observable:
            if sid not in set(sc.get("occluded", ())) and truth.get(sid) != got.get(sid):
                out.append((str(sc["file"]), sid, truth.get(sid), got.get(sid)))
    return out


HAND_SEED = 4001


@pytest.fixture(scope="module")
def with_hands(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """White rounded plastic counters on white paper, window light and a lamp; a hand reaches
    in over two of the seven reads (one start)."""
    root = tmp_path_factory.mktemp("katenmuis_hands")
    write_b_dataset(root, 8, seed=HAND_SEED, games=["katenmuis"], group_size=8)
    return root


@pytest.mark.slow
def test_the_cat_beside_a_hand_is_not_dropped_for_it(with_hands: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # measured: 17 squares wrong without the crowd rule, 13 with it; scene 2's cat (48) and
    # scene 5's (57) were dropped for a spot under the hand (10, 12) read as the cat
    # (both without the print's shift, vision.print_shift: it moves scene 7's false cat, read
    # with the cat on 66 misread either way, from square 3 to 31; with it, last line).
    # Each frame under its own pose, as when this was measured: since session 26 a frame whose pose
    # came from two markers is read under the learned photo's (vision.stillpose.agreed_pose), and
    # this group's start found too few markers for a good one (3.9 mm off at the squares' median,
    # the frames' own 2.8 mm): scenes 2 and 5 read under it, scene 2's cat is lost with or without
    # the crowd rule (14 -> 15 wrong with every rule on: the next test)
    monkeypatch.setattr(stillpose, "AGREED_MARKERS", 0)
    new = _wrong(with_hands, PieceConfig(print_shift={}))
    old = _wrong(with_hands, PieceConfig(crowd={}, print_shift={}, footprint_swap=()))
    assert ("images/00002.jpg", "48", "cat", None) in old  # the scenes still show the failure
    assert ("images/00005.jpg", "57", "cat", None) in old
    assert not any(w[0] in ("images/00002.jpg", "images/00005.jpg") and w[2] == "cat" for w in new), new
    assert len(new) <= len(old) - 4 and set(new) <= set(old), (new, old)
    assert len(_wrong(with_hands, PieceConfig())) <= len(new)  # measured: 16 -> 14 (scene 3's cat found)


@pytest.mark.slow
def test_the_hands_group_under_the_learned_pose(with_hands: Path) -> None:
    # session 26 (vision.stillpose.agreed_pose): scenes 1, 2 and 5 found two markers and are read
    # under the learned photo's pose, itself 3.9 mm off here (the start found too few markers);
    # measured: 15 squares wrong, scene 2's cat (48) among them (14 under each frame's own pose)
    wrong = _wrong(with_hands, PieceConfig())
    assert len(wrong) <= 15, wrong
