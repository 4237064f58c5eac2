"""What the dice reader's speed-ups must keep: the same inputs to the models, the same readings."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision import synth_dice
from vision.dice import DiceConfig, _blob, _net, classify, detect, read_dice


def test_blob_is_blob_from_image_to_the_bit() -> None:
    rng = np.random.default_rng(3)
    for h, w in ((320, 320), (96, 160), (17, 33)):  # every uint8 value appears in the big one
        img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        want = cv2.dnn.blobFromImage(img, 1 / 255.0, mean=(127.5, 127.5, 127.5))
        got = _blob(img)
        assert got.dtype == np.float32 and got.flags.c_contiguous
        assert np.array_equal(got, want)


def test_coarse_pass_has_its_own_net_and_reads_the_same() -> None:
    img, _labels = synth_dice.render_scene(np.random.default_rng(11), synth_dice.SceneParams(n_dice=(2, 2)))
    cfg = DiceConfig()
    first = detect(img, cfg)
    assert _net(cfg.det_model) is not _net(cfg.det_model, "coarse")
    assert detect(img, cfg) == first  # the nets kept their shapes and give the same proposals again


def test_only_crops_below_tta_below_are_read_turned() -> None:
    img, labels = synth_dice.render_scene(np.random.default_rng(4), synth_dice.SceneParams(n_dice=(6, 6)))
    boxes = [d["box"] for d in labels["dice"]]
    cfg = DiceConfig()
    upright = classify(img, boxes, replace(cfg, tta=False))
    turned = classify(img, boxes, replace(cfg, tta_below=1.01))  # every crop re-read turned
    got = classify(img, boxes, cfg)
    sure = upright.max(1) >= cfg.tta_below
    assert np.array_equal(got[sure], upright[sure])
    assert np.allclose(got[~sure], turned[~sure], atol=1e-6)
    assert not np.allclose(turned, upright, atol=1e-3)  # the turned views do change the probabilities


def test_readings_repeat_exactly() -> None:
    img, _labels = synth_dice.render_scene(np.random.default_rng(9))
    a, b = read_dice(img), read_dice(img)
    assert a == b and a
