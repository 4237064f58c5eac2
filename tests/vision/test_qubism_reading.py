"""Qubism: white pawns on plain light squares found; no cube read where no cube's top is;
every cube's arrow read, learned or not, dark or light."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from vision.arrows import arrow_direction
from vision.boarddefaults import board_for
from vision.piece_config import PieceConfig
from vision.pieces import BoardReader, comparable
from vision.synth.board import random_look, random_position, render_scene
from vision.synth.board_alt import alt_look, render_alt_scene

BOARD = board_for("qubism")


def _set(renderer: str, seed: int, config: PieceConfig | None = None
         ) -> tuple[BoardReader, Callable[[dict[str, str]], np.ndarray]]:
    """A reader that learned one set's start, and a camera drawing that set's positions."""
    rng = np.random.default_rng(seed)
    start = random_position(BOARD, rng, reference=True)
    if renderer == "main":
        look = random_look(BOARD, rng)

        def draw(pos: dict[str, str]) -> np.ndarray:
            return render_scene(BOARD, pos, look, rng, hand=False, hide_marker=False, clean=True).image
    else:
        alook = alt_look(BOARD, rng)

        def draw(pos: dict[str, str]) -> np.ndarray:
            image: np.ndarray = render_alt_scene(BOARD, pos, alook, rng, occlude=False, hide_marker=False)["image"]
            return image
    reader = BoardReader(BOARD, config=config)
    reader.learn(draw(start), start)
    return reader, draw


@pytest.mark.slow
def test_white_pawn_on_plain_squares_is_found() -> None:
    # a plain printed square has no structure to correlate with: the pawn's rim and shading
    # in the spot's middle are the evidence (PieceConfig.flat_structure); without it 21 of 24
    found = total = 0
    for seed in range(4):
        reader, draw = _set("alt", seed)
        for sq in ("0,0", "1,1", "2,2", "3,3", "0,2", "2,0"):
            pos = {sq: "pawn:white", "4,4": "pawn:black", "4,0": "cube:N", "0,4": "cube:E"}
            got = reader.read_spots(reader.read(draw(pos), track=False))
            total += 1
            found += got == comparable(BOARD, pos)
    assert found >= total - 1, (found, total)


@pytest.mark.slow
def test_no_cube_where_no_cube_top_matches() -> None:
    # a white pawn ringed by cubes: their sides lean over it and its look is near a pale cube's;
    # read as a cube only where a learned cube top is seen at a cube's height (7 such with the check off)
    false_cubes = pawns = total = 0
    for seed in range(4):
        reader, draw = _set("alt", 300 + seed)
        for c in ("1,1", "1,3", "3,1", "3,3"):
            r0, c0 = map(int, c.split(","))
            pos = {c: "pawn:white", "0,0" if c != "1,1" else "4,4": "pawn:black"}
            for dr, dc, a in ((0, 1, "N"), (1, 0, "E"), (0, -1, "S"), (-1, 0, "W"), (1, 1, "N")):
                pos[f"{r0 + dr},{c0 + dc}"] = f"cube:{a}"
            truth = comparable(BOARD, pos)
            got = reader.read_spots(reader.read(draw(pos), track=False))
            total += 1
            pawns += got.get(c) == "pawn:white"
            false_cubes += sum(1 for s, t in got.items() if t.startswith("cube") and not truth.get(s, "").startswith("cube"))
    assert false_cubes <= 3 and pawns >= total - 2, (false_cubes, pawns, total)


def test_cube_top_check_needs_learned_tops() -> None:
    # with nothing learned (built-in looks only) no top is matched; cubes are still read by
    # their arrows' shape
    rng = np.random.default_rng(8)
    pos = {"2,2": "pawn:white", "0,0": "pawn:black", "1,1": "cube:N", "3,3": "cube:E"}
    image = render_scene(BOARD, pos, random_look(BOARD, rng), rng, hand=False, hide_marker=False, clean=True).image
    reader = BoardReader(BOARD)
    got = reader.read_spots(reader.read(image, track=False))
    assert not reader._top_match
    assert {s for s, t in got.items() if t.startswith("cube")} >= {"1,1", "3,3"}


def _top(direction: str, light_glyph: bool) -> np.ndarray:
    """A 48 px cube top with a shaft-and-head arrow pointing ``direction`` (N up)."""
    top = np.full((48, 48), 0.25 if light_glyph else 0.75, np.float32)
    arrow = np.int32([[24, 8], [36, 22], [28, 22], [28, 40], [20, 40], [20, 22], [12, 22]])
    cv2.fillPoly(top, [arrow], 0.7 if light_glyph else 0.1)
    return np.ascontiguousarray(np.rot90(top, {"N": 0, "W": 1, "S": 2, "E": 3}[direction]))


@pytest.mark.parametrize("light_glyph", [False, True])
def test_arrow_shape_read_dark_on_light_and_light_on_dark(light_glyph: bool) -> None:
    # with nothing learned the glyph's shape decides; a light arrow on a dark cube is the
    # minority of the top's middle too (it was read as the dark top around it before)
    for d in "NESW":
        arrow, conf = arrow_direction(np.repeat(_top(d, light_glyph)[..., None], 3, axis=2))
        assert arrow == d and conf > 0.5, (d, arrow, conf)


def test_cubes_read_before_any_cube_is_learned() -> None:
    # Qubism's start has no cube: learned from it, the reader reads cubes (pale ones nearer the
    # white pawn's look than the built-in cube guess) by the arrow at a cube's height
    right = cubes = 0
    for seed in range(3):
        rng = np.random.default_rng(500 + seed)
        look = alt_look(BOARD, rng)
        look.update(glyph="line", cube=(195.0, 195.0, 190.0), arrow=(25.0, 25.0, 30.0))
        start = {"4,2": "pawn:white", "0,2": "pawn:black"}
        reader = BoardReader(BOARD)
        reader.learn(render_alt_scene(BOARD, start, look, rng, occlude=False, hide_marker=False)["image"], start)
        for _ in range(2):
            pos = random_position(BOARD, rng)
            truth = comparable(BOARD, pos)
            image = render_alt_scene(BOARD, pos, look, rng, occlude=False, hide_marker=False)["image"]
            got = reader.read_spots(reader.read(image, track=False))
            for s, t in truth.items():
                if t.startswith("cube"):
                    cubes += 1
                    right += got.get(s) == t
    assert right >= 0.9 * cubes, (right, cubes)


def test_no_cube_read_beside_a_cube_before_any_is_learned() -> None:
    # tall cubes lean over their neighbours at a steep camera: with no cube top learned yet, a
    # spot read as a cube must show an arrow's shape at a cube's height (cube_glyph_min;
    # 10 false cubes in these 12 scenes without it)
    false_cubes = 0
    for seed in range(4):
        rng = np.random.default_rng(700 + seed)
        look = alt_look(BOARD, rng)
        look.update(glyph="line")
        start = {"4,2": "pawn:white", "0,2": "pawn:black"}
        reader = BoardReader(BOARD)
        reader.learn(render_alt_scene(BOARD, start, look, rng, occlude=False, hide_marker=False)["image"], start)
        for _ in range(3):
            pos = random_position(BOARD, rng)
            truth = comparable(BOARD, pos)
            image = render_alt_scene(BOARD, pos, look, rng, occlude=False, hide_marker=False)["image"]
            got = reader.read_spots(reader.read(image, track=False))
            false_cubes += sum(1 for s, t in got.items() if t.startswith("cube") and not truth.get(s, "").startswith("cube"))
    assert false_cubes <= 2, false_cubes


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_channel_mean_is_numpys_mean_to_the_bit(dtype: type) -> None:
    """A cube top's grey (``vision.arrows.channel_mean``) is what ``mean(axis=2)`` gives, bit for
    bit, so the arrow read from it is too: crops of 8-bit pixels and of any float values."""
    from vision.arrows import channel_mean

    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 256, (32, 32, 3)).astype(dtype)
    floats = (rng.random((48, 48, 3)) * rng.choice([1e-3, 1.0, 1e3], (48, 48, 3))).astype(dtype)
    for image in (pixels, pixels / 255, floats):
        mean = channel_mean(image)
        assert mean.dtype == image.mean(axis=2).dtype
        assert np.array_equal(mean, image.mean(axis=2))


def test_arrow_read_from_a_grey_top_as_from_three_equal_channels() -> None:
    """``arrow_direction`` of a grey cube top (as the reader cuts it) is its reading of that grey in
    three channels, confidence to the bit; its covariance is ``np.cov``'s to the bit."""
    from vision.arrows import _covariance

    rng = np.random.default_rng(11)
    for side in (32, 48):
        for turn in range(4):
            top = np.full((side, side), 0.85, np.float32)
            q = side // 8
            top[3 * q:5 * q, 2 * q:5 * q] = 0.15  # shaft
            for r in range(3 * q):  # a head
                top[4 * q - r // 2 - 1:4 * q + r // 2 + 1, 7 * q - r - 1] = 0.15
            top = np.rot90(top, turn).astype(np.float32) + rng.normal(0, 0.03, (side, side)).astype(np.float32)
            grey, rgb = arrow_direction(top), arrow_direction(np.repeat(top[..., None], 3, axis=2))
            assert grey == rgb and grey[0] is not None
    for n in (12, 50, 400):
        x, y = rng.normal(0, 5, n), rng.normal(0, 3, n)
        assert np.array_equal(_covariance(x, y), np.cov(np.vstack([x, y])))
