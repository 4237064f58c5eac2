"""The reader's decisions beyond the nearest look: Chop! Chop! holes (rule C3), cast shadows,
figures that must fill their spot's middle in the raised plane, and the learned model kept."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.boarddefaults import board_for
from vision.pieces import P, BoardReader, PieceModel, _step_fraction, comparable
from vision.synth_board import random_position
from vision.synth_board_alt import alt_look, render_alt_scene


def test_C3_hole_holds_a_mouse_or_an_opened_hole_slab_never_the_cat() -> None:
    board = board_for("chopchop")
    holes = list(board.region("holes"))
    rng = np.random.default_rng(5)
    look = alt_look(board, rng)
    start = random_position(board, rng, reference=True)  # mice on their holes, no hole open
    assert all(start[h].startswith("mouse") for h in holes)
    reader = BoardReader(board)
    reader.learn(render_alt_scene(board, start, look, rng, occlude=False, hide_marker=False)["image"], start)
    assert "hole" not in reader.model.looks  # the opened hole's look was never shown
    right = total = 0
    for k in range(3):
        pos = random_position(board, np.random.default_rng(40 + k))
        # two holes opened, the others keep a mouse
        for j, h in enumerate(holes):
            pos[h] = "hole" if (j + k) % 2 == 0 else f"mouse:{j + 1}"
        scene = render_alt_scene(board, pos, look, rng, occlude=False, hide_marker=False)
        reading = reader.read(scene["image"], track=False)
        want = comparable(board, pos)
        for h in holes:
            got, conf = reading.squares[h]
            assert got in ("mouse", "hole") and 0 <= conf <= 1
            total += 1
            right += got == want[h]
    assert right >= total - 1


def test_a_straight_shadow_edge_explains_a_shadow_but_not_a_piece() -> None:
    rng = np.random.default_rng(3)
    empty = np.clip(0.85 + 0.05 * rng.standard_normal((1, P, P, 3)), 0, 1).astype(np.float32)
    empty[0, 7, :, :] = 0.3  # a printed line
    yy, xx = np.mgrid[0:P, 0:P]
    shade = np.where(xx + 0.4 * yy < 9, 0.45, 1.0)[None, :, :, None]
    shadow = (empty * shade).astype(np.float32)
    piece = empty.copy()
    disc = (yy - 7.5) ** 2 + (xx - 7.5) ** 2 < 20
    shading = (0.5 + 0.04 * (xx - 4))[disc]
    piece[0][disc] = np.stack([shading * 0.9, shading * 0.95, shading], axis=1)
    frac = _step_fraction(np.concatenate([shadow, piece]), np.concatenate([empty, empty]))
    assert frac[0] < 0.2 < 0.5 < frac[1]


def test_leaning_neighbours_are_not_read_as_cats_and_the_model_keeps_them(tmp_path: Path) -> None:
    board = board_for("kilkenny")
    rng = np.random.default_rng(11)
    look = alt_look(board, rng)
    ref = random_position(board, rng, reference=True)
    reader = BoardReader(board)
    reader.learn(render_alt_scene(board, ref, look, rng, occlude=False, hide_marker=False)["image"], ref)
    assert reader.model.centre and all(len(v) >= 1 for v in reader.model.centre.values())
    wrong = 0
    for k in range(3):
        pos = random_position(board, np.random.default_rng(70 + k))
        scene = render_alt_scene(board, pos, look, rng, occlude=False, hide_marker=False)
        got = reader.read_spots(reader.read(scene["image"], track=False))
        want = comparable(board, pos)
        wrong += sum(got.get(s) != want.get(s) for s in reader.observable)
    assert wrong <= 2
    path = tmp_path / "kilkenny.json"
    reader.model.save(path)
    assert PieceModel.load(path).centre == reader.model.centre
