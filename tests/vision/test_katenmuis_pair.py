"""Kat en Muis: the cat and the mouse on one square (K7) are read as the engine's "cat+mouse"."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.crosscheck import crosscheck
from vision.boardcli import main
from vision.boarddefaults import board_for
from vision.pieces import BoardReader
from vision.synth.board import random_look, random_position, render_scene
from vision.synth.board_alt import alt_look, render_alt_scene


def _scenes(renderer: str, positions: list[dict[str, str]], seed: int) -> tuple[BoardReader, list[np.ndarray]]:
    board = board_for("katenmuis")
    rng = np.random.default_rng(seed)
    reader = BoardReader(board)
    images = []
    if renderer == "main":
        look = random_look(board, rng)
        ref = render_scene(board, random_position(board, rng, reference=True), look, rng, hand=False,
                           hide_marker=False)
        reader.learn(ref.image, ref.squares)
        for pos in positions:
            images.append(render_scene(board, pos, look, rng, hand=False, hide_marker=False).image)
    else:
        alook = alt_look(board, rng)
        start = random_position(board, rng, reference=True)
        reader.learn(render_alt_scene(board, start, alook, rng, occlude=False, hide_marker=False)["image"], start)
        for pos in positions:
            images.append(render_alt_scene(board, pos, alook, rng, occlude=False, hide_marker=False)["image"])
    return reader, images


@pytest.mark.parametrize("renderer", ["main", "alt"])
def test_K7_cat_and_mouse_on_one_square_read_together(renderer: str) -> None:
    together = [{"17": "cat+mouse"}, {"40": "cat+mouse"}, {"3": "cat+mouse"}]
    apart = [{"17": "cat", "18": "mouse"}, {"40": "mouse", "52": "cat"}]
    reader, images = _scenes(renderer, together + apart, seed=21)
    for pos, image in zip(together + apart, images):
        reading = reader.read(image, track=False)
        assert reading.found
        assert reading.occupied() == pos, (renderer, pos, reading.occupied())


def test_K7_through_board_read_json_and_the_cross_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = board_for("katenmuis")
    rng = np.random.default_rng(5)
    look = random_look(board, rng)
    start = render_scene(board, {"cat-start": "cat", "mouse-start": "mouse"}, look, rng, hand=False,
                         hide_marker=False, clean=True)
    scene = render_scene(board, {"30": "cat+mouse"}, look, rng, hand=False, hide_marker=False, clean=True)
    cv2.imwrite(str(tmp_path / "start.png"), start.image)
    path = tmp_path / "scene.png"
    cv2.imwrite(str(path), scene.image)
    model = tmp_path / "model.json"
    assert main(["learn", str(tmp_path / "start.png"), "--board", "katenmuis", "-o", str(model)]) == 0
    capsys.readouterr()
    assert main(["read", str(path), "--board", "katenmuis", "--model", str(model), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    tokens = {s: v["token"] for s, v in out["squares"].items() if v["token"]}
    assert tokens == {"30": "cat+mouse"}
    observation = {s: (v["token"], v["confidence"]) for s, v in out["squares"].items()}
    # the app's check of a camera reading against the rules: both counters where the engine has them
    assert crosscheck({"30": "cat+mouse"}, observation, min_confidence=0.3) == []
    wrong = crosscheck({"30": "cat", "31": "mouse"}, observation, min_confidence=0.3)
    assert wrong and any(m.seen == "cat+mouse" for m in wrong)
