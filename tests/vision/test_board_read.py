"""Reading synthetic scenes; the read CLI; calibrating an original board."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.boardcli import main
from vision.boarddefaults import board_for
from vision.calibrate import calibrate_grid, save_board
from vision.pieces import BoardReader, comparable
from vision.synth.board import random_look, random_position, render_scene


@pytest.mark.parametrize("game", ["katenmuis", "chopchop", "kilkenny", "qubism"])
def test_read_synthetic_scenes(game: str) -> None:
    board = board_for(game)
    rng = np.random.default_rng(11)
    look = random_look(board, rng)
    ref = render_scene(board, random_position(board, rng, reference=True), look, rng,
                       hand=False, hide_marker=False)
    reader = BoardReader(board)
    assert reader.learn(ref.image, ref.squares) > 0
    right = total = 0
    for _ in range(2):
        scene = render_scene(board, random_position(board, rng), look, rng, hand=False)
        reading = reader.read(scene.image, track=False)
        assert reading.found
        truth = comparable(board, scene.squares)
        got = reader.read_spots(reading)
        for spot in reader.observable:
            if spot in scene.occluded:
                continue  # under the arm that hides a marker: not judged (as evaluate_dir does)
            total += 1
            right += truth.get(spot) == got.get(spot)
    # Qubism's tall cubes lean over their neighbours at steep angles: its reading is the weakest
    assert right / total >= (0.85 if game == "qubism" else 0.9)


def test_read_cli_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = board_for("katenmuis")
    rng = np.random.default_rng(5)
    scene = render_scene(board, {"7": "cat", "30": "mouse"}, random_look(board, rng), rng,
                         hand=False, hide_marker=False, clean=True)
    path = tmp_path / "scene.png"
    cv2.imwrite(str(path), scene.image)
    assert main(["read", str(path), "--board", "katenmuis", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["found"] is True and len(out["board"]["used"]) == 4
    occupied = {s for s, v in out["squares"].items() if v["token"]}
    assert occupied == {"7", "30"}
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 120, np.uint8))
    assert main(["read", str(blank), "--board", "katenmuis", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["found"] is False
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not a picture")
    assert main(["read", str(bad), "--board", "katenmuis"]) == 2
    assert "is not a picture the companion can read" in capsys.readouterr().err


def test_calibrate_grid_from_corners(tmp_path: Path) -> None:
    board = board_for("qubism")
    rng = np.random.default_rng(2)
    scene = render_scene(board, {}, random_look(board, rng), rng, hand=False, hide_marker=False, clean=True)
    cells = [sq for sq in board.squares.values() if sq.cell is not None]
    rows, cols = board.grid or (5, 5)
    x0 = min(p[0] for sq in cells for p in sq.polygon)
    y0 = min(p[1] for sq in cells for p in sq.polygon)
    x1 = max(p[0] for sq in cells for p in sq.polygon)
    y1 = max(p[1] for sq in cells for p in sq.polygon)
    corners_mm = np.float64([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]).reshape(-1, 1, 2)
    corners_px = cv2.perspectiveTransform(corners_mm, scene.homography).reshape(-1, 2)
    data = calibrate_grid(board, scene.image, [tuple(map(float, p)) for p in corners_px])
    own = save_board(data, tmp_path / "own.toml")
    assert set(own.squares) == set(board.squares)
    # the calibrated squares sit where the original ones are (the frame is the markers')
    for sid in ("0,0", "2,2", "4,4"):
        assert np.allclose(own.squares[sid].centre, board.squares[sid].centre, atol=1.5)
    out = tmp_path / "cli.toml"
    img = tmp_path / "photo.png"
    cv2.imwrite(str(img), scene.image)
    args = ["calibrate", "--board", "qubism", "--image", str(img), "-o", str(out), "--corners"]
    args += [f"{x:.1f},{y:.1f}" for x, y in corners_px]
    assert main(args) == 0 and out.exists()
