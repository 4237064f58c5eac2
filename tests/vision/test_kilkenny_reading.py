"""Kilkenny Cats: no cat read on an empty square under an arm's shadow; every cat still read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.pieces import BoardReader, comparable
from vision.synth.board import random_look, random_position, render_scene
from vision.synth.board_alt import alt_look, render_alt_scene

BOARD = board_for("kilkenny")


def _arm_shadow(image: np.ndarray, homography: np.ndarray, x_mm: float) -> np.ndarray:
    """A forearm's soft shadow from the board's top edge down across the squares at ``x_mm``."""
    poly_mm = np.float64([[x_mm - 14, -20], [x_mm + 14, -20], [x_mm + 18, 120], [x_mm + 8, 135],
                          [x_mm - 8, 135], [x_mm - 18, 120]])
    poly = cv2.perspectiveTransform(poly_mm.reshape(-1, 1, 2), homography).reshape(-1, 2)
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.fillPoly(mask, [np.int32(poly)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), 5)
    return np.clip(image * (1 - 0.6 * mask[..., None]), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("renderer", ["main", "alt"])
def test_no_cat_in_an_arms_shadow(renderer: str) -> None:
    # the shadow darkens and edges the print but leaves its colour: without the colour
    # condition (PieceConfig.min_chroma) 20 and 21 empty squares in 9 such scenes read as cats
    false_cats = missed = 0
    for seed in range(2):
        rng = np.random.default_rng(400 + seed)
        if renderer == "main":
            look = random_look(BOARD, rng)

            def draw(pos: dict[str, str]) -> tuple[np.ndarray, np.ndarray]:
                s = render_scene(BOARD, pos, look, rng, hand=False, hide_marker=False, clean=True)
                return s.image, s.homography
        else:
            alook = alt_look(BOARD, rng)

            def draw(pos: dict[str, str]) -> tuple[np.ndarray, np.ndarray]:
                s = render_alt_scene(BOARD, pos, alook, rng, occlude=False, hide_marker=False)
                return s["image"], np.asarray(s["homography"])
        start = random_position(BOARD, rng, reference=True)
        reader = BoardReader(BOARD)
        reader.learn(draw(start)[0], start)
        for x_mm in (60.0, 180.0):
            pos = random_position(BOARD, rng)
            image, hom = draw(pos)
            truth = comparable(BOARD, pos)
            got = reader.read_spots(reader.read(_arm_shadow(image, hom, x_mm), track=False))
            false_cats += sum(1 for s in got if truth.get(s) is None)
            missed += sum(1 for s, t in truth.items() if got.get(s) != t)
    assert false_cats == 0 and missed <= 1, (false_cats, missed)
