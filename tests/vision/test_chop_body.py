"""Chop! Chop!: the cat's body over the square behind it (``vision.chop_body``): which spot is in
front of which at the camera's tilt, and a mouse read behind the cat taken for its body."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.boardlocate import camera_from_homography
from vision.boarddefaults import board_for
from vision.chop_body import UNSURE, cat_body, front_spots
from vision.chop_squares import CLASSES
from vision.imageload import load_image
from vision.pieces import BoardReader
from vision.synth.board3d import write_3d_dataset


def _probs(rows: list[dict[str, float]]) -> np.ndarray:
    return np.array([[r.get(c, 0.0) for c in CLASSES] for r in rows])


def test_a_mouse_read_behind_the_cat_is_its_body_where_the_classifier_sees_the_cat() -> None:
    kinds = ["table", "slab", "table", "slab", "hole", "slab", "slab"]
    out: list[tuple[str | None, float]] = [
        ("cat", 0.9),  # the cat, where it stands
        ("mouse", 0.7),  # behind it: the classifier sees the cat's body -> what lies there, unsure
        ("mouse", 0.8),  # behind it: the classifier finds a mouse likeliest -> a mouse of its own
        ("mouse", 0.7),  # behind it: the classifier finds the cat likeliest, then the floor -> the floor
        ("mouse", 0.8),  # a hole behind it: a hole holds a mouse or the opened hole (C3), never the cat
        ("slab", 0.9),  # behind it, the classifier sees the cat's body: a slab under it, unsure
        ("mouse", 0.9),  # the cat's look but nothing read as the cat in front of it: kept
    ]
    probs = _probs([{"cat": 0.9}, {"cat": 0.6, "mouse": 0.3, "slab": 0.1}, {"mouse": 0.6, "-": 0.4},
                    {"cat": 0.4, "mouse": 0.3, "-": 0.2, "slab": 0.1}, {"cat": 0.6, "mouse": 0.4},
                    {"cat": 0.7, "slab": 0.3}, {"cat": 0.9, "mouse": 0.1}])
    front = [-1, 0, 0, 0, 0, 0, -1]
    got = list(out)
    assert cat_body(got, kinds, probs, front) == 3
    assert got[0] == ("cat", 0.9) and got[2] == ("mouse", 0.8) and got[4] == ("mouse", 0.8) and got[6] == ("mouse", 0.9)
    assert got[1] == ("slab", UNSURE)
    assert got[3] == (None, UNSURE)
    assert got[5] == ("slab", UNSURE)
    # nothing read as the cat in front: no spot changes
    alone = [("slab", 0.9)] + out[1:]
    assert cat_body(alone, kinds, probs, front) == 0 and alone == [("slab", 0.9)] + out[1:]


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    root = tmp_path_factory.mktemp("chopbody")
    write_3d_dataset(root, 2, seed=5150, games=["chopchop"], group_size=2)
    return root, json.loads((root / "labels.json").read_text())["scenes"][1]


def test_the_spot_in_front_is_one_square_nearer_the_camera(scene: tuple[Path, dict[str, object]]) -> None:
    root, sc = scene
    reader = BoardReader(board_for("chopchop"))
    img = load_image(root / str(sc["file"])).image
    pose = reader.refine(img, reader.tracker.update(img))
    assert pose.found
    size = (img.shape[1], img.shape[0])
    front = front_spots(reader, pose, size)
    foot = np.array(camera_from_homography(pose.sampling()[0], size).foot)
    c = np.asarray(reader._spot_centres_px) / reader.config.px_per_mm
    with_front = [i for i, j in enumerate(front) if j >= 0]
    assert len(with_front) >= len(front) // 2, front  # a tilted camera: most spots have a square in front
    for i in with_front:
        j = front[i]
        step = float(np.linalg.norm(c[j] - c[i]))
        assert 0.9 * reader.cell_mm < step < 1.5 * reader.cell_mm  # the square beside it, or at its corner
        assert float(np.linalg.norm(c[j] - foot)) < float(np.linalg.norm(c[i] - foot))  # nearer the camera
