"""What the dice reader's speed-ups must keep: the same inputs to the models, the same readings."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.synth import dice as synth_dice
from vision.dice import DiceConfig, _blob, _net, classify, detect, die_body, read_dice


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


def _body_by_np_median(image: np.ndarray, box: tuple[float, float, float, float]) -> tuple[int, ...] | None:
    """die_body as it was written before its speed-up (np.median), to compare with."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    xa, ya = int(max(0, x1 + w * 0.15)), int(max(0, y1 + h * 0.15))
    xb, yb = int(min(image.shape[1], x2 - w * 0.15)), int(min(image.shape[0], y2 - h * 0.15))
    if xb <= xa or yb <= ya:
        return None
    px = cv2.resize(image[ya:yb, xa:xb], (12, 12), interpolation=cv2.INTER_AREA).reshape(-1, 3).astype(np.float32)
    lum = np.clip(px @ np.float32([0.114, 0.587, 0.299]), 0, 255).astype(np.uint8)
    _thr, light = cv2.threshold(lum, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    dark = light.ravel() == 0
    body = np.median(px[dark] if dark.sum() * 2 >= len(px) else px[~dark], 0)
    return tuple(int(round(float(v))) for v in body)


def test_body_colour_is_the_median_of_the_body_part() -> None:
    rng = np.random.default_rng(2)
    for i in range(400):  # noisy faces and faces of a few levels (ties, odd and even counts)
        img = (rng.integers(0, 256, (60, 60, 3)) if i % 2 else rng.integers(0, 4, (60, 60, 3)) * 60).astype(np.uint8)
        x1, y1 = rng.uniform(0, 40, 2)
        s = rng.uniform(3, 40)
        box = (float(x1), float(y1), float(x1 + s), float(y1 + s * rng.uniform(0.8, 1.2)))
        assert die_body(img, box) == _body_by_np_median(img, box)
