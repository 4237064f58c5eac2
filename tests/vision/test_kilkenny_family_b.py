"""Kilkenny Cats on the second 3-D family (``vision.synth.scene_b``): flat cut-out cats that
cover part of their square were taken for shadows (read empty), and at a steep camera the
square behind a glossy cat, covered by its body, was read as a cat. ``vision.piece_mix`` and
``PieceConfig.colour_share`` / ``centre_shares`` (docs/readme/board.md, session 17)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.vision.group_reads import piece_counts
from vision.boarddefaults import board_for
from vision.piece_config import PieceConfig
from vision.piece_looks import PieceModel, _look_features
from vision.piece_mix import behind_same, colour_shares, head_plane, partly_seen
from vision.synth.scene_b import write_b_dataset

BOARD = board_for("kilkenny")
PAPER = (0.86, 0.88, 0.9)  # BGR, light-normalised
BLUE, YELLOW = (0.55, 0.22, 0.08), (0.1, 0.75, 0.85)


def _look(*parts: tuple[tuple[float, float, float], int]) -> np.ndarray:
    """The look of an 8 x 8 spot middle made of ``(colour, pixels)`` parts (64 pixels in all)."""
    px = np.concatenate([np.tile(np.asarray(c, np.float64), (n, 1)) for c, n in parts])
    assert len(px) == 64
    return _look_features(px.reshape(1, 8, 8, 3))[0]


def test_a_cut_out_covering_part_of_its_square_lies_on_its_colours_line() -> None:
    names = ["cat:blue", "cat:yellow"]
    protos = np.stack([_look((BLUE, 64)), _look((YELLOW, 64))])
    empty = _look((PAPER, 64))
    shares = colour_shares(_look((BLUE, 32), (PAPER, 32)), empty, names, protos)
    share, off = shares["cat:blue"]
    # half the pixels, a quarter of the light (the dark blue's and the paper's sums: 0.85, 2.64)
    assert 0.15 < share < 0.35 and off < 0.2, shares
    assert shares["cat:yellow"][0] < 0.1  # not towards yellow
    assert partly_seen(_look((BLUE, 32), (PAPER, 32)), empty, names, protos, 0.7, 0.8) is None
    assert partly_seen(_look((BLUE, 60), (PAPER, 4)), empty, names, protos, 0.7, 0.8) == "cat:blue"
    # the paper in a shadow keeps its chromaticity: no cat
    shadow = tuple(0.4 * c for c in PAPER)
    assert partly_seen(_look((shadow, 64)), empty, names, protos, 0.7, 0.8) is None  # type: ignore[arg-type]
    assert abs(colour_shares(_look((shadow, 64)), empty, names, protos)["cat:blue"][0]) < 0.05  # type: ignore[arg-type]
    # a colour off every cat's line (grey-green here) is no cat either
    assert partly_seen(_look(((0.3, 0.6, 0.3), 64)), empty, names, protos, 0.7, 0.8) is None


def test_the_heads_plane_is_learned_and_kept(tmp_path: Path) -> None:
    # the highest plane where three quarters of the start's cats still show 0.8 of their colour
    shares = {0.6: [0.95, 0.9, 0.92, 0.97, 0.9], 0.75: [0.9, 0.85, 0.83, 0.84, 0.6], 0.9: [0.5, 0.4, 0.9, 0.3, 0.9]}
    assert head_plane(shares, 0.8) == 0.75
    assert head_plane({0.6: [0.9, 0.9, 0.9]}, 0.8) == 0.0  # too few pieces to tell
    model = PieceModel("kilkenny", head_plane=0.75)
    model.save(tmp_path / "looks.json")
    assert PieceModel.load(tmp_path / "looks.json").head_plane == 0.75
    (tmp_path / "old.json").write_text(json.dumps({"game": "kilkenny", "looks": {}}))
    assert PieceModel.load(tmp_path / "old.json").head_plane == 0.0  # looks learned before


def test_a_cat_behind_a_cat_of_its_colour_towards_the_camera() -> None:
    centres = np.array([[60.0, 60.0], [60.0, 72.0], [72.0, 60.0], [60.0, 48.0]])
    tokens: list[str | None] = ["cat:red", "cat:red", "cat:blue", None]
    # the camera above (60, 400): spot 1 stands between it and spot 0; spot 2 is another colour
    assert behind_same(centres, tokens, (60.0, 400.0), 12.0) == [0]
    assert behind_same(centres, tokens, (60.0, -300.0), 12.0) == [1]  # seen from the other side
    assert behind_same(centres, tokens, (400.0, 60.0), 12.0) == []  # side by side


@pytest.fixture(scope="module")
def cut_outs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wooden cut-out cats 1.7 squares tall under a camera tilted 39 degrees, window light and a
    lamp: one start and five reads."""
    root = tmp_path_factory.mktemp("kilkenny_cutouts")
    write_b_dataset(root, 6, seed=CUT_OUT_SEED, games=["kilkenny"], group_size=6)
    return root


CUT_OUT_SEED = 3336


@pytest.mark.slow
def test_flat_cut_out_cats_are_read(cut_outs: Path) -> None:
    # measured: 24 of 79 cats read empty without the colour share (taken for shadows), 5 with it
    cats, right, missed, invented = piece_counts(cut_outs, BOARD, PieceConfig())
    _, _, old_missed, old_invented = piece_counts(cut_outs, BOARD, PieceConfig(colour_share={}))
    assert old_missed >= 20  # the scenes still show the failure
    assert missed <= old_missed - 15 and invented <= old_invented, (cats, right, missed, invented)


@pytest.mark.slow
def test_no_cat_on_the_square_behind_a_tall_cat(cut_outs: Path) -> None:
    # measured: 35 empty squares read as cats without the check in the heads' plane, 9 with it
    cats, right, missed, invented = piece_counts(cut_outs, BOARD, PieceConfig())
    _, _, old_missed, old_invented = piece_counts(cut_outs, BOARD, PieceConfig(behind={}))
    assert old_invented >= 25  # the scenes still show the failure
    assert invented <= old_invented - 20 and missed <= old_missed + 1, (cats, right, missed, invented)
