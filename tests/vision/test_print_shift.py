"""The print displaced, not covered (issue 31, session 22, kemc; ``vision.print_shift``).

A folded print tented off the table (or a lens model a pixel off) shows an empty square's lines
a millimetre or two from where the markers put them: the spot's structure evidence rose over 1
on a dozen empty squares a frame (third family, seed 4272's folded-print groups), they made
crowds that pushed the real mouse behind a lone empty spot, and the count kept that spot. Here
the alt renderer's frame has the track's print moved by 1.5 mm (the markers stay): every empty
square's evidence must stay under 1 and the counters' over it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.piece_config import PieceConfig
from vision.pieces import BoardReader, comparable
from vision.print_shift import displaced
from vision.synth.board import random_position
from vision.synth.board_alt import alt_look, render_alt_scene

BOARD = board_for("katenmuis")


def _moved_print(image: np.ndarray, homography: np.ndarray, d_mm: tuple[float, float]) -> np.ndarray:
    """``image`` with what lies on the board's track area (not its markers) moved by ``d_mm``."""
    shift = np.array([[1, 0, -d_mm[0]], [0, 1, -d_mm[1]], [0, 0, 1.0]])
    to_old = homography @ shift @ np.linalg.inv(homography)  # a new pixel shows the old one there
    moved = cv2.warpPerspective(image, to_old, (image.shape[1], image.shape[0]),
                                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    area = np.array([[36, 19], [261, 19], [261, 191], [36, 191]], np.float64)
    px = cv2.perspectiveTransform(area.reshape(-1, 1, 2), homography).reshape(-1, 2)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.int32(np.round(px))], 1)
    out = image.copy()
    out[mask > 0] = moved[mask > 0]
    return out


def _scene(seed: int, config: PieceConfig) -> tuple[BoardReader, dict[str, str], np.ndarray]:
    rng = np.random.default_rng(seed)
    look = alt_look(BOARD, rng)
    ref = random_position(BOARD, rng, reference=True)
    reader = BoardReader(BOARD, config=config)
    reader.learn(render_alt_scene(BOARD, ref, look, rng, occlude=False, hide_marker=False)["image"], ref)
    pos = random_position(BOARD, rng)
    scene = render_alt_scene(BOARD, pos, look, rng, occlude=False, hide_marker=False)
    return reader, comparable(BOARD, pos), _moved_print(scene["image"], np.asarray(scene["homography"]), (1.5, 1.0))


def _occupied(reader: BoardReader, image: np.ndarray) -> tuple[set[str], dict[str, str]]:
    reading = reader.read(image, track=False)
    score = np.sqrt((reader.last_scores ** 2).sum(axis=1))
    return {ids[0] for ids, s in zip(reader.groups, score) if s >= 1}, reader.read_spots(reading)


def test_an_empty_square_whose_print_is_moved_is_not_occupied_and_a_counter_is() -> None:
    # measured: without it 13 (seed 2) and 9 (seed 7) empty squares read occupied, and seed 7's
    # cat is read on 35 (a lone moved print) instead of its square 31
    for seed in (2, 7):
        reader, truth, image = _scene(seed, PieceConfig(print_shift={}))
        old, got = _occupied(reader, image)
        assert len(old - set(truth)) >= 5, (seed, sorted(old))
        if seed == 7:
            assert {s: t for s, t in got.items() if t} != truth
        reader, truth, image = _scene(seed, PieceConfig())
        now, got = _occupied(reader, image)
        assert now - set(truth) == set(), (seed, sorted(now - set(truth)))
        assert set(truth) <= now, (seed, truth, sorted(now))
        assert {s: t for s, t in got.items() if t} == truth


def test_displaced_keeps_a_covered_spot_and_lowers_only_under_one() -> None:
    reader = BoardReader(BOARD)
    empty = reader.empty
    view = np.roll(empty, (4, -3), axis=(0, 1)).copy()  # the whole print moved by 2 x 1.5 mm
    i = next(k for k, ids in enumerate(reader.groups) if ids[0] == "30")
    x0, y0, x1, y1 = reader.boxes[i]
    cv2.circle(view, ((x0 + x1) // 2, (y0 + y1) // 2), (x1 - x0) // 3, (0.1, 0.5, 0.2), -1)  # a green counter
    patches = reader._patches(view)
    scores, _ = reader._scores(patches, reader._eg0, reader._eg_norm, reader.empty_looks)
    total = np.sqrt((scores ** 2).sum(axis=1))
    spots = np.nonzero(total >= 1)[0]
    assert i in spots and len(spots) >= 10
    out = displaced(view, empty, patches, scores, reader.boxes, spots, 4, reader.config.ncc_scale)
    after = np.sqrt((out ** 2).sum(axis=1))
    assert after[i] == pytest.approx(float(total[i]), rel=1e-6)  # the counter's evidence as measured
    assert (after[spots[spots != i]] < 1).all()
    assert np.allclose(out[total < 1], np.asarray(scores)[total < 1])  # the others untouched
