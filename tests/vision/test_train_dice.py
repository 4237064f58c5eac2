"""scripts/train_dice.py and scripts/quantize_dice.py still run on a CPU and write models the
reader loads. They need the ``[train]`` extra (PyTorch, ONNX, onnxruntime), which the app and the
main suite never install: without it these tests are skipped (``pip install -e '.[train,test]'``
into a venv of its own runs them; docs/readme/dice.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

from vision import dice as D  # noqa: E402
from vision import synth_dice  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str | Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def tiny_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four synthetic scenes in the train split (dice-dev's place in the scripts)."""
    return synth_dice.write_dataset(tmp_path_factory.mktemp("train-set"), 4, seed=5, split="train")


def test_training_on_the_cpu_writes_models_the_reader_runs(tiny_set: Path, tmp_path: Path) -> None:
    out = tmp_path / "models"
    r = _run("scripts/train_dice.py", "--dataset", tiny_set, "--synth", "3", "--det-iters", "3",
             "--cls-iters", "3", "--mine", "--device", "cpu", "--out", out)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "training on cpu" in r.stdout
    det, cls = out / "dice_det.onnx", out / "dice_cls.onnx"
    assert det.stat().st_size > 100_000 and cls.stat().st_size > 100_000
    cfg = D.DiceConfig(det_model=det, cls_models=((cls, D.CROP_GROW),))
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00000.png"))
    assert img is not None
    # three steps teach nothing: only that both models load and run through every stage
    for reading in D.read_dice(img, cfg):
        assert reading.value in (None, 1, 2, 3, 4, 5, 6)
    probs = D.classify(img, [(10.0, 10.0, 50.0, 50.0)], cfg)
    assert probs.shape == (1, 7) and np.isclose(probs.sum(), 1.0, atol=1e-4)


def test_a_gpu_asked_for_where_there_is_none_is_a_clear_error(tiny_set: Path, tmp_path: Path) -> None:
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a CUDA GPU")
    r = _run("scripts/train_dice.py", "--dataset", tiny_set, "--synth", "1", "--det-iters", "1",
             "--only", "det", "--device", "cuda", "--out", tmp_path)
    assert r.returncode != 0
    assert "--device cuda" in r.stderr and "no CUDA GPU" in r.stderr and "--device cpu" in r.stderr
    assert not (tmp_path / "dice_det.onnx").exists()


def test_quantizing_the_shipped_classifier_gives_an_int8_model_that_reads_alike(tiny_set: Path,
                                                                             tmp_path: Path) -> None:
    out = tmp_path / "dice_cls_int8.onnx"
    r = _run("scripts/quantize_dice.py", "--dataset", tiny_set, "--synth", "4", "--crowd", "1", "--out", out)
    assert r.returncode == 0, r.stderr[-2000:]
    assert D._quantized(out)
    img = cv2.imread(str(tiny_set / "images" / "synth_5_00001.png"))
    shipped = D.read_dice(img)
    mine = D.read_dice(img, D.DiceConfig(cls_models=((out, D.CROP_GROW),)))
    assert [d.value for d in mine] == [d.value for d in shipped]
