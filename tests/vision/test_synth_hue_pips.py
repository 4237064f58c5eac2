"""Dice whose pips differ from the body by hue more than by brightness (vision.synth.dice's
``hue_pips``, for training): their colours, and scenes without them unchanged (the bench's
seeds keep their sets)."""

from __future__ import annotations

import numpy as np

from vision.synth import dice as sd


def test_hue_pip_colours_are_close_in_brightness_and_apart_in_hue() -> None:
    rng = np.random.default_rng(5)
    apart = 0
    for _ in range(200):
        body, pip = sd.hue_pip_colours(rng)
        luma = abs(float((body - pip) @ sd.LUMA))
        assert 25 <= luma <= 80
        apart += float(np.abs(body - pip).max()) > 1.5 * luma  # a channel tells them apart more than brightness
    assert apart >= 150


def test_no_hue_pips_the_same_scenes() -> None:
    a_img, a = sd.render_scene(np.random.default_rng(3))
    b_img, b = sd.render_scene(np.random.default_rng(3), sd.SceneParams(hue_pips=0.0))
    assert a == b and np.array_equal(a_img, b_img)


def test_hue_pips_change_the_dice_not_the_labels_shape() -> None:
    img, lab = sd.render_scene(np.random.default_rng(3), sd.SceneParams(hue_pips=1.0))
    ref, _ = sd.render_scene(np.random.default_rng(3))
    assert lab["dice"] and all(1 <= d["value"] <= 6 for d in lab["dice"])
    assert not np.array_equal(img, ref)
