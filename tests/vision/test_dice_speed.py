"""What the dice reader's speed-ups must keep: the same inputs to the models, the same readings."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from vision import dice_boxes as bx
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


def _decode_per_peak(out: np.ndarray, heat: np.ndarray, peaks: np.ndarray, k: float) -> list:
    """The detector's proposals as ``_detect_at`` computed them before ``dice_boxes.decode``: a
    loop over the peaks, to compare with."""
    res = []
    for y, x in zip(*np.nonzero(peaks)):
        bw, bh = math.exp(float(out[1, y, x])), math.exp(float(out[2, y, x]))
        cx, cy = x + float(out[3, y, x]), y + float(out[4, y, x])
        res.append((((cx - bw / 2) * k, (cy - bh / 2) * k, (cx + bw / 2) * k, (cy + bh / 2) * k), float(heat[y, x])))
    return res


def test_decode_gives_the_per_peak_loops_boxes_to_the_bit() -> None:
    rng = np.random.default_rng(5)
    for g, k in ((80, 4 / 0.5), (32, 4 / 0.1953125), (160, 4 / 0.83), (7, 3.3)):
        out = (rng.standard_normal((5, g, g)) * np.float32([[[3.0]], [[0.7]], [[0.7]], [[0.5]], [[0.5]]])).astype(np.float32)
        out[1:3] += np.float32(2.5)  # boxes of about 12 cells, as the detector's
        heat = 1 / (1 + np.exp(-out[0]))
        peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= 0.12)
        want = _decode_per_peak(out, heat, peaks, k)
        got = bx.decode(out, heat, peaks, k)
        assert len(want) > 3
        assert got == want  # the same floats, bit for bit, in the same order
        assert all(type(v) is float for b, sc in got for v in (*b, sc))
    assert bx.decode(out, heat, np.zeros_like(peaks), 2.0) == []


def test_body_colour_of_a_white_face() -> None:
    img = np.full((40, 40, 3), 255, np.uint8)  # P @ LUMA at its largest: the cast, without a clip, keeps 255
    img[18:22, 18:22] = 0
    box = (2.0, 2.0, 38.0, 38.0)
    assert die_body(img, box) == _body_by_np_median(img, box) == (255, 255, 255)
