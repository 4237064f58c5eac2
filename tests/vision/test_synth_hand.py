"""A hand over the dice in vision.synth.dice: dice mostly under it are not labelled but listed
as hidden, and scenes without a hand are the same as before (the bench's seeds keep their sets)."""

from __future__ import annotations

import numpy as np

from vision.synth import dice as sd


def test_no_hand_no_hidden_and_the_same_scenes() -> None:
    a_img, a = sd.render_scene(np.random.default_rng(3))
    b_img, b = sd.render_scene(np.random.default_rng(3), sd.SceneParams(hand_prob=0.0))
    assert "hidden" not in a and a == b and np.array_equal(a_img, b_img)


def test_dice_under_the_hand_are_hidden_not_labelled() -> None:
    rng = np.random.default_rng(11)
    clean = sd.SceneParams(hand_prob=1.0, blur_sigma=(0.0, 0.0), noise_sigma=(0.0, 0.0), jpeg_quality=(100, 100))
    hidden = labelled = 0
    for _ in range(12):
        img, lab = sd.render_scene(rng, clean)
        assert "hidden" in lab
        boxes = [tuple(d["box"]) for d in lab["dice"]]
        for h in lab["hidden"]:
            assert h["covered"] >= sd.HIDDEN_FROM and tuple(h["box"]) not in boxes
            assert 1 <= h["value"] <= 6
            # the hand is drawn over it: the face's box is mostly one flat skin colour
            x1, y1, x2, y2 = (int(round(v)) for v in h["box"])
            patch = img[y1:y2, x1:x2].reshape(-1, 3)
            _, counts = np.unique(patch, axis=0, return_counts=True)
            if h["covered"] >= 0.9:
                assert counts.max() >= 0.5 * len(patch), h
        hidden += len(lab["hidden"])
        labelled += len(lab["dice"])
    assert hidden >= 5 and labelled >= 3 * hidden  # a hand hides a few dice, most stay in view
