"""The camera estimated from a board homography; cube arrows learned from known positions."""

from __future__ import annotations

import numpy as np

from vision.boarddefaults import board_for
from vision.boardlocate import camera_from_homography, locate_board
from vision.pieces import BoardReader
from vision.synth.board import random_camera
from vision.synth.board_alt import alt_camera, alt_look, render_alt_scene


def test_camera_from_homography_recovers_focal_and_position() -> None:
    board = board_for("qubism")
    rng = np.random.default_rng(0)
    lean_err = []
    for make in (random_camera, alt_camera):
        for _ in range(20):
            cam = make(board, rng)
            guess = camera_from_homography(cam.homography(), (1280, 720))
            # where a point 20 mm above the board corner appears, true vs estimated
            foot = np.asarray(cam.C[:2])
            true = -foot * 20 / (cam.C[2] - 20)
            est = -np.asarray(guess.foot) * 20 / (guess.height - 20)
            lean_err.append(float(np.linalg.norm(true - est)))
    assert float(np.median(lean_err)) < 1.0 and max(lean_err) < 8.0


def test_arrows_of_an_unknown_glyph_learned_from_a_known_position() -> None:
    board = board_for("qubism")
    rng = np.random.default_rng(21)
    look = alt_look(board, rng)
    look["glyph"] = "triangle"  # its wide end is its tail: the built-in guess would read it backwards
    known = {"1,1": "cube:N", "1,3": "cube:E", "3,1": "cube:S", "3,3": "cube:W"}
    ref = render_alt_scene(board, known, look, rng, occlude=False, hide_marker=False)
    reader = BoardReader(board)
    reader.learn(ref["image"], known)
    assert len(reader.model.arrows) == 4
    right = total = 0
    for k in range(3):
        pos = {"0,0": "cube:" + "NESW"[k], "2,2": "cube:" + "ESWN"[k], "4,3": "cube:" + "SWNE"[k]}
        scene = render_alt_scene(board, pos, look, rng, occlude=False, hide_marker=False)
        reading = reader.read(scene["image"], track=False)
        assert locate_board(scene["image"], board).found
        for sid, token in pos.items():
            total += 1
            right += reading.squares[sid][0] == token
    assert right >= total - 1
