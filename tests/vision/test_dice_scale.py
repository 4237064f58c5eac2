"""Which detector pass a frame gets: big frames are looked at finely only when their dice are
small at the detector's usual size."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.synth import dice as synth_dice
from vision.dice import DiceConfig, _detect_at, detect_fine, fine_size, read_dice
from vision.dice_boxes import nms


def test_a_big_photo_of_big_dice_is_read_at_about_the_usual_size(
        dice_dev: tuple[Path, list[dict[str, Any]]]) -> None:
    root, entries = dice_dev
    cfg = DiceConfig()
    sizes, asked = [], 0
    for e in entries[:8]:
        img = cv2.imread(str(root / e["file"]))
        big = cv2.resize(img, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        size, first = fine_size(big, cfg)
        sizes.append(size)
        # the 2x frame is looked at as the photo is (320 px), or a little finer where its dice
        # are small there, never at the 480-640 px the 1280 px frame would get by its size; read as the photo is
        assert cfg.det_size <= size < cfg.det_size_max
        assert (first is not None) == (size == cfg.det_size)
        assert detect_fine(big, cfg) == (first or nms(_detect_at(big, size, cfg), cfg.nms_iou))
        a, b = read_dice(big), read_dice(img)
        assert len(a) == len(b)  # the same dice, and never another value: a die may be read in one
        va, vb = sorted(r.value for r in a if r.value), sorted(r.value for r in b if r.value)
        assert not (Counter(va) - Counter(vb)) or not (Counter(vb) - Counter(va))  # and asked in the other
        asked += abs(len(va) - len(vb))
    assert asked <= 1  # 8 photos, about 50 dice: one die read in the 2x frame was asked in the photo
    assert max(sizes) <= 416  # their dice are 16-27 px at 320: 20 px is at most a third finer
    # with the rule off, the frame goes to the biggest size, as before it
    assert fine_size(big, replace(cfg, die_px=0)) == (cfg.det_size_max, None)


def test_a_wide_view_of_small_dice_is_looked_at_finely() -> None:
    rng = np.random.default_rng(21)
    cfg = DiceConfig()
    for _ in range(3):
        img, labels = synth_dice.render_scene(rng, synth_dice.SceneParams(
            width=1280, height=960, n_dice=(4, 6), die_px=(24.0, 32.0), tilt_deg=(0.0, 20.0)))
        size, first = fine_size(img, cfg)
        assert size > cfg.det_size and first is None  # its dice are small at 320: looked at more finely
        got = detect_fine(img, cfg)
        assert got == nms(_detect_at(img, size, cfg), cfg.nms_iou)
        assert len(got) >= len(labels["dice"]) - 1


def test_a_frame_at_the_usual_size_gets_one_pass() -> None:
    img, _labels = synth_dice.render_scene(np.random.default_rng(5), synth_dice.SceneParams(die_px=(18.0, 24.0)))
    cfg = DiceConfig()
    assert fine_size(img, cfg) == (cfg.det_size, None)
    assert detect_fine(img, cfg) == nms(_detect_at(img, cfg.det_size, cfg), cfg.nms_iou)
