"""The int8 classifier the reader ships: what it must keep of the float one it was made from,
and what happens on an OpenCV that cannot run it."""

from __future__ import annotations

import logging
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision import dice as D
from vision import dice_models as M
from vision.errors import ModelError
from vision.limits import MAX_MODEL_BYTES

from .test_dice_engines import _recording

INT8 = D.MODELS / "dice_cls_int8.onnx"
FLOAT = D.MODELS / "dice_cls.onnx"


R10 = D.MODELS / "dice_cls_r10_int8.onnx"  # the tenth round's classifier, averaged with the eleventh's
# the int8 pair the reader ran as its full classifiers until the nineteenth round (issue 29), now
# its second look at the dice the wide pair asks about
INT8_PAIR = ((INT8, D.CROP_GROW), (R10, D.CROP_GROW))
WIDE = (D.MODELS / "dice_wide_c.onnx", D.MODELS / "dice_wide_d.onnx")
WIDE_INT8 = tuple(p.with_name(p.stem + "_int8.onnx") for p in WIDE)  # the full pair since the twentieth round


def test_the_shipped_classifiers_are_small_and_the_quick_one_int8() -> None:
    assert D.DiceConfig().cls_models == tuple((p, D.CROP_GROW) for p in WIDE_INT8)
    assert D.DiceConfig().second is not None and D.DiceConfig().second.paths == (INT8, R10)
    for path, twin in zip(WIDE_INT8, WIDE):  # the full pair in int8 (2.0 MB each), its float twins beside it
        assert M._quantized(path) and M.float_twin(path) == twin and not M._quantized(twin)
        assert path.stat().st_size < twin.stat().st_size < MAX_MODEL_BYTES
    assert M._quantized(INT8) and not M._quantized(FLOAT) and not M._quantized(D.DiceConfig().det_model)
    assert M.float_twin(INT8) == FLOAT
    assert M._quantized(R10) and M.float_twin(R10).is_file() and not M._quantized(M.float_twin(R10))
    for path in [INT8, R10, FLOAT, M.float_twin(R10), D.DiceConfig().det_model]:
        assert path.stat().st_size < MAX_MODEL_BYTES
    fast = D.MODELS / "dice_cls_fast_int8.onnx"  # the quick classifier read first, int8 as well
    assert D.DiceConfig().cls_fast == (fast, D.CROP_GROW)
    assert M._quantized(fast) and not M._quantized(M.float_twin(fast)) and M.float_twin(fast).is_file()
    assert fast.stat().st_size < INT8.stat().st_size


def test_int8_and_float_read_the_same_classes_on_dice_dev(dice_dev: tuple[Path, list[dict[str, Any]]]) -> None:
    root, entries = dice_dev
    cfg = D.DiceConfig()
    crops = []
    for e in entries:
        img = cv2.imread(str(root / e["file"]))
        boxes = [p[0] for p in D.detect(img, cfg)]
        crops.append(np.ascontiguousarray(D._crops(img, boxes, D.CROP_GROW).transpose(0, 3, 1, 2)))
    x = np.concatenate(crops)
    assert len(x) > 300  # every proposal: the dice and what the detector wrongly proposes

    def probs(path: Path) -> np.ndarray:
        net = D._net(path, "test")
        net.setInput(x)
        return D._softmax(net.forward().reshape(len(x), 7))

    for int8 in (INT8, R10):
        f, q = probs(M.float_twin(int8)), probs(int8)
        assert not np.array_equal(f, q)  # it really is another computation
        assert (f.argmax(1) == q.argmax(1)).mean() >= 0.99
        assert np.abs(f - q).mean() < 0.005 and np.abs(f - q).max() < 0.2


def test_int8_reads_dice_dev_as_the_float_model(dice_dev: tuple[Path, list[dict[str, Any]]]) -> None:
    root, entries = dice_dev
    cfg8 = D.DiceConfig(cls_fast=None, cls_models=INT8_PAIR)  # every crop read by the int8 pair
    cfg32 = replace(cfg8, cls_models=tuple((M.float_twin(p), g) for p, g in cfg8.cls_models))
    differ = 0
    for e in entries:
        img = cv2.imread(str(root / e["file"]))
        a = [(r.value, r.box) for r in D.read_dice(img, cfg8)]
        b = [(r.value, r.box) for r in D.read_dice(img, cfg32)]
        differ += a != b
    assert differ <= 1  # the values and boxes of 50 photos (none differs when this was written)


def test_the_int8_wide_pair_reads_real_crops_as_the_float_pair(dice_dev: tuple[Path, list[dict[str, Any]]]) -> None:
    """The full pair in int8 (issue 29, twentieth round: ``scripts/quantize_dice.py`` on each wide
    classifier) against the float pair it was made from, both averaged as the reader averages them,
    on every proposal in dice-dev's test photos, upright and turned a quarter (as the reader's
    turned views are)."""
    root, entries = dice_dev
    cfg = D.DiceConfig()
    x = np.concatenate([np.ascontiguousarray(D._crops(img, [p[0] for p in D.detect(img, cfg)], D.CROP_GROW)
                                             .transpose(0, 3, 1, 2))
                        for img in (cv2.imread(str(root / e["file"])) for e in entries)])
    x = np.concatenate([x, np.ascontiguousarray(np.rot90(x, 1, axes=(2, 3)))])
    assert len(x) > 600

    def pair(paths: tuple[Path, ...]) -> np.ndarray:
        got = []
        for path in paths:
            net = D._net(path, "test")
            net.setInput(x)
            got.append(D._softmax(net.forward().reshape(len(x), 7)))
        return np.asarray(sum(got) / len(got))

    f, q = pair(WIDE), pair(WIDE_INT8)
    assert not np.array_equal(f, q)  # it really is another computation
    assert (f.argmax(1) == q.argmax(1)).mean() >= 0.995
    assert np.abs(f - q).mean() < 0.003 and np.abs(f - q).max() < 0.2
    sure = f.max(1) >= cfg.min_value_prob  # what the float pair reads surely the int8 pair reads alike
    assert (f.argmax(1)[sure] == q.argmax(1)[sure]).mean() >= 0.998


def _broken_int8(folder: Path) -> Path:
    """A file that says it is an int8 model but that no OpenCV can read."""
    bad = folder / "dice_cls_int8.onnx"
    bad.write_bytes(b"not an onnx model, though it names QLinearConv" * 10)
    return bad


def test_an_int8_model_opencv_cannot_run_falls_back_to_its_float_twin(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    bad = _broken_int8(tmp_path)
    shutil.copy(FLOAT, tmp_path / "dice_cls.onnx")
    cfg = D.DiceConfig(cls_models=((bad, D.CROP_GROW),), cls_fast=None)
    img = np.full((64, 64, 3), 200, np.uint8)
    cv2.rectangle(img, (16, 16), (48, 48), (30, 30, 30), -1)
    with caplog.at_level(logging.WARNING, logger="vision.dice"):
        got = D.classify(img, [(16.0, 16.0, 48.0, 48.0)], cfg)
    want = D.classify(img, [(16.0, 16.0, 48.0, 48.0)], replace(cfg, cls_models=((FLOAT, D.CROP_GROW),)))
    assert np.allclose(got, want, atol=1e-6)
    assert "cannot run the int8 dice model dice_cls_int8.onnx" in caplog.text and "using dice_cls.onnx" in caplog.text


def test_an_int8_model_without_a_twin_is_a_clear_error(tmp_path: Path) -> None:
    bad = _broken_int8(tmp_path)
    with pytest.raises(ModelError, match="cannot load dice model"):
        D.classify(np.zeros((64, 64, 3), np.uint8), [(16.0, 16.0, 48.0, 48.0)],
                   D.DiceConfig(cls_models=((bad, D.CROP_GROW),), cls_fast=None))


two_engines = pytest.mark.skipif(len(M._ENGINES) < 2, reason="this OpenCV has one dnn engine")


@two_engines
def test_both_engines_compute_the_same_numbers(dice_dev: tuple[Path, list[dict[str, Any]]]) -> None:
    """What lets the reader take whichever engine is quicker: the int8 classifier's probabilities do
    not depend on it, to the bit, and the float models' differ by float rounding only (every
    proposal in dice-dev's test photos; the detector's output on each photo at 320 px)."""
    root, entries = dice_dev
    cfg = D.DiceConfig()
    images = [cv2.imread(str(root / e["file"])) for e in entries]
    x = np.concatenate([np.ascontiguousarray(D._crops(img, [p[0] for p in D.detect(img, cfg)], D.CROP_GROW)
                                             .transpose(0, 3, 1, 2)) for img in images])
    blobs = [D._blob(D._letterbox(img, cfg.det_size)[0]) for img in images]
    assert len(x) > 300

    def outputs(path: Path, inputs: list[np.ndarray]) -> list[np.ndarray]:
        got = []
        for engine in M._ENGINES:
            net = cv2.dnn.readNetFromONNX(str(path), *engine)
            out = []
            for i in inputs:
                net.setInput(i)
                out.append(net.forward().copy())
            got.append(np.concatenate(out))
        return got

    a, b = outputs(INT8, [x])
    assert np.array_equal(a, b)
    a, b = outputs(FLOAT, [x])
    assert np.abs(a - b).max() < 1e-3 and (a.argmax(1) == b.argmax(1)).all()
    a, b = outputs(cfg.det_model, blobs)
    assert np.abs(a - b).max() < 1e-3


@two_engines
@pytest.mark.parametrize("shape", [M.CLS_PROBE, (1, 3, 40, 40)])
def test_the_quicker_engine_is_kept_and_said(shape: tuple[int, ...], monkeypatch: pytest.MonkeyPatch,
                                            caplog: pytest.LogCaptureFixture) -> None:
    """An int8 model's engine (a float model's is fixed: tests/vision/test_dice_engines.py)."""
    path = INT8
    nets = _recording(monkeypatch)
    for slow in M._ENGINES:  # each engine in turn the slow one: the other is kept
        timed: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

        def forward_ms(net: cv2.dnn.Net, shape: tuple[int, ...], slow: tuple[int, ...] = slow) -> float:
            timed.append((nets[id(net)], shape))
            return 9.0 if nets[id(net)] == slow else 3.0

        monkeypatch.setattr(M, "_forward_ms", forward_ms)
        with caplog.at_level(logging.INFO, logger="vision.dice"):
            caplog.clear()
            net = M._load(path, shape)
        assert nets[id(net)] != slow
        assert sorted(timed) == sorted([(e, shape) for e in M._ENGINES] * 5)  # five runs each, on that shape
        kept = "classic" if nets[id(net)] == M._ENGINE else "default"
        assert f"dice model {path.name}: {kept} engine" in caplog.text


def test_a_float_model_no_engine_can_read_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "dice_det.onnx"
    bad.write_bytes(b"not an onnx model" * 10)
    with pytest.raises(ModelError, match="cannot load dice model"):
        D.read_dice(np.zeros((64, 64, 3), np.uint8), D.DiceConfig(det_model=bad))
