"""The quick classifier read first (``DiceConfig.cls_fast``): it answers for the crops it reads
surely, the full classifier reads the others exactly as it would read them alone."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision import dice as D
from vision import dice_models as M
from vision.synth import dice as synth_dice
from vision.errors import ModelError


def _scene() -> tuple[np.ndarray, list[list[float]]]:
    """A table of dice, with boxes the quick classifier is sure of (the dice) and boxes it is
    not (the same dice cut in half, or seen from too far)."""
    img, labels = synth_dice.render_scene(np.random.default_rng(6), synth_dice.SceneParams(n_dice=(7, 7)))
    boxes = [list(d["box"]) for d in labels["dice"]]
    halves = [[x1 + (x2 - x1) / 2, y1, x2 + (x2 - x1) / 2, y2] for x1, y1, x2, y2 in boxes]
    wide = [[x1 - (x2 - x1), y1 - (y2 - y1), x2 + (x2 - x1), y2 + (y2 - y1)] for x1, y1, x2, y2 in boxes]
    return img, boxes + halves + wide


def test_the_quick_classifier_answers_only_where_it_is_sure() -> None:
    img, boxes = _scene()
    cfg = D.DiceConfig()
    assert cfg.cls_fast is not None
    path, grow = cfg.cls_fast
    quick = D.read_crops(path, D._crops(img, boxes, grow))
    sure = quick.max(1) >= cfg.fast_sure
    assert 3 <= sure.sum() <= len(boxes) - 3  # both kinds of crop are in this test
    full = D.classify(img, boxes, replace(cfg, cls_fast=None))
    got = D.classify(img, boxes, cfg)
    assert np.array_equal(got[sure], quick[sure])
    assert np.allclose(got[~sure], full[~sure], atol=1e-6)  # turned views and all, as alone
    assert not np.allclose(got[sure], full[sure], atol=1e-3)  # it is another classifier


def test_a_quick_classifier_never_sure_enough_leaves_every_crop_to_the_full_one() -> None:
    img, boxes = _scene()
    cfg = D.DiceConfig()
    full = D.classify(img, boxes, replace(cfg, cls_fast=None))
    assert np.allclose(D.classify(img, boxes, replace(cfg, fast_sure=1.01)), full, atol=1e-6)


def test_a_missing_quick_classifier_is_a_clear_error(tmp_path: Path) -> None:
    cfg = D.DiceConfig(cls_fast=(tmp_path / "dice_cls_fast_int8.onnx", D.CROP_GROW))
    with pytest.raises(ModelError, match="dice model missing: .*dice_cls_fast_int8.onnx"):
        D.classify(np.full((64, 64, 3), 127, np.uint8), [(16.0, 16.0, 48.0, 48.0)], cfg)


def test_warm_up_loads_both_classifiers() -> None:
    loaded: list[str] = []

    def fresh_thread() -> None:  # models are cached per thread: a new one starts with none
        D.warm_up()
        loaded.extend(path for path, _role in M._local.nets)

    t = threading.Thread(target=fresh_thread)
    t.start()
    t.join()
    cfg = D.DiceConfig()
    assert cfg.cls_fast is not None
    assert {str(cfg.det_model), str(cfg.cls_models[0][0]), str(cfg.cls_fast[0])} <= set(loaded)
