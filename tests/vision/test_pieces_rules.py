"""The reader's decisions beyond the nearest look: Chop! Chop! holes (rule C3), cast shadows,
figures that must fill their spot's middle in the raised plane, the learned model kept, the
games' piece counts (Qubism Q1: one pawn each) and crowds of look-alikes in unfamiliar light."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from vision.boarddefaults import board_for
from vision.pieces import P, BoardReader, PieceModel, _step_fraction, comparable
from vision.synth.board import random_position
from vision.synth.board_alt import alt_look, render_alt_scene


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


def _reader_taught_on_a_start(game: str, seed: int) -> tuple[Any, np.random.Generator, Any, BoardReader]:
    """(board, rng, the alt renderer's piece look, a reader taught from a reference position)."""
    board = board_for(game)
    rng = np.random.default_rng(seed)
    look = alt_look(board, rng)
    ref = random_position(board, rng, reference=True)
    reader = BoardReader(board)
    reader.learn(render_alt_scene(board, ref, look, rng, occlude=False, hide_marker=False)["image"], ref)
    return board, rng, look, reader


def test_leaning_neighbours_are_not_read_as_cats_and_the_model_keeps_them(tmp_path: Path) -> None:
    board, rng, look, reader = _reader_taught_on_a_start("kilkenny", 11)
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


def test_Q1_one_pawn_each_in_every_reading_and_a_missed_pawn_is_looked_for() -> None:
    board, rng, look, reader = _reader_taught_on_a_start("qubism", 21)
    right = total = 0
    for k in range(6):
        pos = random_position(board, np.random.default_rng(90 + k))
        scene = render_alt_scene(board, pos, look, rng, occlude=False, hide_marker=False)
        got = reader.read_spots(reader.read(scene["image"], track=False))
        tokens = list(got.values())
        # the game has one pawn each and nine cubes: never more in one reading; pawns never
        # leave the board, so with nothing hidden each is read somewhere
        assert tokens.count("pawn:white") == 1 and tokens.count("pawn:black") == 1
        assert sum(t.startswith("cube") for t in tokens) <= 9
        want = comparable(board, pos)
        for s in reader.observable:
            total += 1
            right += got.get(s) == want.get(s)
    assert right >= total - 4


def test_too_many_of_a_kind_keep_the_nearest_look_and_the_rest_take_room_or_nothing() -> None:
    board = board_for("katenmuis")
    reader = BoardReader(board)
    cat = np.array([0.25, 0.30, -0.9, 0.10])
    mouse = np.array([0.40, 0.35, -0.4, 0.05])
    reader.model.add("cat", cat)
    reader.model.add("mouse", mouse)
    names, protos = reader._classes()
    n = len(reader.groups)
    looks = np.tile(np.array([0.33, 0.33, 0.0, 0.0]), (n, 1))
    reader._last_look_empty = looks.copy()
    reader.last_centre = np.full(n, np.nan)
    looks[3] = cat + [0.005, 0, 0.05, 0]  # the cat
    looks[5] = mouse + [0.01, 0, -0.2, 0]  # read as a cat, but looks like the mouse
    looks[9] = cat + [0.3, 0.3, 3.0, 0.5]  # read as a cat, like nothing learned
    score = np.zeros(n)
    score[[3, 5, 9]] = 2.0
    decided: list[tuple[str | None, float]] = [(None, 0.9)] * n
    for i in (3, 5, 9):
        decided[i] = ("cat", 0.8)
    reader._counts(score, looks, names, protos, decided, np.ones(n), np.zeros((8, 8, 3), np.uint8), None)  # type: ignore[arg-type]
    assert decided[3][0] == "cat"
    assert decided[5][0] == "mouse"  # the one mouse has room
    assert decided[9][0] is None  # no room for a second mouse, and far from every look
    assert sum(t == "cat" for t, _ in decided) == 1


def test_a_crowd_of_look_alikes_read_as_mice_is_a_slab_set_in_unfamiliar_light() -> None:
    board = board_for("chopchop")
    reader = BoardReader(board)
    slab = np.array([0.36, 0.28, -0.85, 0.01])
    mouse = np.array([0.34, 0.30, -0.45, 0.30])
    for _ in range(3):
        reader.model.add("slab", slab)
        reader.model.add("mouse", mouse)
    names, protos = reader._classes()
    n = len(reader.groups)
    free = [i for i in range(n) if not reader._never_empty[i]]
    looks = np.tile(np.array([0.33, 0.33, 0.0, 0.0]), (n, 1))
    reader._last_look_empty = looks.copy()
    seen = np.array([0.36, 0.31, -0.35, 0.015])  # slabs under a brighter light: flat, near the mouse look
    crowd, weak, real = free[:6], free[6:8], free[8]
    score = np.zeros(n)
    decided: list[tuple[str | None, float]] = [(None, 0.9)] * n
    for i in crowd:
        looks[i] = seen + [0.002 * (i % 3), 0, 0.01 * (i % 2), 0]
        score[i] = 1.5
        decided[i] = ("mouse", 0.7)
    for i in weak:
        looks[i] = seen
        score[i] = 0.7  # too little change on its own
    looks[real] = mouse + [0, 0, 0.05, 0]
    score[real] = 2.5
    decided[real] = ("mouse", 0.9)
    reader._look_dist = {"mouse": {i: 1.0 for i in crowd + [real]}}
    reader._frame_looks(score, looks, decided, names, protos)
    assert all(decided[i][0] == "slab" for i in crowd)
    assert all(decided[i][0] == "slab" for i in weak)  # they look like this frame's slabs
    assert decided[real][0] == "mouse"  # unlike the crowd: a real mouse
