"""scripts/train_dice_whole.py (the whole-die reader, issue 29 seventeenth round) runs on a CPU
and writes a model the reader loads; its labelling of the detector's boxes. Needs the ``[train]``
extra (skipped without it, as tests/vision/test_train_dice.py)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

from vision import dice as D  # noqa: E402
from vision.dice_whole import SecondLook  # noqa: E402
from vision.synth import dice as synth_dice  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import train_dice_whole as T  # noqa: E402


def test_a_box_round_the_whole_die_is_taught_the_top_faces_value() -> None:
    top = {"value": 5, "box": [100.0, 100.0, 120.0, 112.0]}  # a top face seen obliquely
    other = {"value": 2, "box": [300.0, 300.0, 330.0, 330.0]}
    props = [((96.0, 98.0, 124.0, 130.0), 0.9),  # the whole die: top face and front face below it
             ((500.0, 20.0, 530.0, 50.0), 0.5),  # on no die
             ((90.0, 90.0, 340.0, 340.0), 0.4)]  # round both dice (centre on neither: near them)
    got = T.label_proposals(props, [top, other])
    assert got == [((96.0, 98.0, 124.0, 130.0), 5), ((500.0, 20.0, 530.0, 50.0), 0)]


def test_boxes_on_a_hidden_top_face_are_left_out_and_whole_die_sets_pair_inside() -> None:
    hidden = {"value": 3, "box": [0.0, 0.0, 40.0, 40.0], "whole": True}
    assert T.label_proposals([((5.0, 5.0, 35.0, 35.0), 0.9)], [hidden]) == []
    whole = {"value": 6, "box": [0.0, 0.0, 60.0, 80.0], "whole": True, "inside": True}  # epanemu-dice's
    assert T.label_proposals([((10.0, 5.0, 50.0, 40.0), 0.9)], [whole]) == [((10.0, 5.0, 50.0, 40.0), 6)]


def _tilt(c: np.ndarray) -> float:
    """Degrees between the main axis of the bright part of ``c`` and the vertical."""
    m = cv2.moments((c[..., 0] > 128).astype(np.uint8), True)
    theta = 0.5 * np.degrees(np.arctan2(2 * m["mu11"], m["mu20"] - m["mu02"]))  # from the x axis
    return abs(90.0 - abs(float(theta)))


@pytest.mark.parametrize("turn", [10.0, 25.0])
def test_crops_are_never_turned_more_than_asked(turn: float) -> None:
    img = np.zeros((100, 100, 3), np.uint8)
    img[20:40, 45:55] = 255  # a bar standing up
    rng = np.random.default_rng(0)
    tilts = [_tilt(T.whole_crop(img, (40.0, 15.0, 60.0, 45.0), 1.2, rng, turn=turn)) for _ in range(40)]
    assert max(tilts) <= turn + 2  # up stays up
    assert max(tilts) >= turn * 0.7  # ... and the crops are turned that much


def test_training_on_the_cpu_writes_a_model_the_reader_runs(tmp_path: Path) -> None:
    ds = synth_dice.write_dataset(tmp_path / "set", 4, seed=5, split="train")
    out = tmp_path / "models"
    r = subprocess.run([sys.executable, "scripts/train_dice_whole.py", "--dataset", str(ds), "--iters", "3",
                        "--jitters", "1", "--int8", "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    model = out / "dice_whole_int8.onnx"
    assert model.stat().st_size > 100_000 and (out / "dice_whole.onnx").is_file()
    img = cv2.imread(str(ds / "images" / "synth_5_00000.png"))
    assert img is not None
    # read on the crop it was trained on (train_dice_whole.py's --grow, 1.7)
    cfg = replace(D.DiceConfig(), second=SecondLook(model, grow=1.7, below=1.0, veto=0.0, agree=0.0, sure=0.0))
    # three steps teach nothing: the model loads and runs on every reading, each given a value
    for reading in D.read_dice(img, cfg):
        assert reading.value in (None, 1, 2, 3, 4, 5, 6)
