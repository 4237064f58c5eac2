"""Make the int8 dice classifier the reader ships from the float one that train_dice.py writes.

    .venv/bin/pip install -e '.[train]'          # onnxruntime's quantizer: here only, not on the Pi
    .venv/bin/python scripts/quantize_dice.py [--model vision/models/dice_cls.onnx]
                                              [--out vision/models/dice_cls_int8.onnx]

Static post-training quantization (onnxruntime.quantization, QOperator format): the weights of
every convolution become int8 per output channel, the activations around them uint8 with ranges
measured (min/max) on calibration crops. The calibration crops are what the reader classifies:
crops at the shipped detector's proposals (dice, and the false hits it makes) on dice-dev's
*train* split and on synthetic scenes (plain and crowded tables; seeds the bench never uses).

Only the convolutions and their ReLUs are quantized (``--float-layers`` leaves some of them in
float: tried in issue 17's seventh round, not shipped). The fully connected head stays float: with
it in int8, OpenCV 5's int8 engine moves class probabilities by up to 0.29 (onnxruntime: 0.03);
without it, by at most 0.05. OpenCV runs the result with int8 kernels (``vision.dice_models._net``
picks the engine that has them): about 40 % less time per crop, which is most of the reader's
time (docs/readme/dice.md, "Speed").

The script checks its result against the float model on the calibration crops and on rotated
copies of them, prints how often the two agree and by how much their probabilities differ, and
exits with 1 (writing nothing) when they agree on fewer than 99.5 % of the crops.
The calibration is deterministic: the same float model and data give the same file.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.dice as _dice  # noqa: E402
from vision.synth import crowd as synth_crowd  # noqa: E402
from vision.synth import dice as synth_dice  # noqa: E402

AGREE_MIN = 0.995  # the least share of crops on which int8 and float must pick the same class


def calibration_crops(datasets: Path | list[Path], n_synth: int, n_crowd: int) -> np.ndarray:
    """N x 3 x 40 x 40 normalised crops at the detector's proposals (float32, NCHW), on the
    train split of each real set in ``datasets`` and on synthetic scenes."""
    cfg = _dice.DiceConfig()
    images = []
    for dataset in datasets if isinstance(datasets, list) else [datasets]:
        doc = json.loads((dataset / "labels.json").read_text())
        images += [cv2.imread(str(dataset / e["file"])) for e in doc["images"] if e["split"] == "train"]
    rng = np.random.default_rng(900_000)  # far from the bench's seeds (7 and up, 1007, 3007)
    images += [synth_dice.render_scene(rng)[0] for _ in range(n_synth)]
    images += [synth_crowd.render_crowd(rng)[0] for _ in range(n_crowd)]
    out = []
    for img in images:
        if img is None:
            continue
        boxes = [p[0] for p in _dice.detect(img, cfg)]
        if boxes:
            out.append(np.ascontiguousarray(_dice._crops(img, boxes, _dice.CROP_GROW).transpose(0, 3, 1, 2)))
    return np.concatenate(out)


def float_nodes(model: Path, layers: str) -> list[str]:
    """The graph's nodes of ``--float-layers`` (``"f.0,f.6"``): each convolution and the ReLU
    after it. An unknown name is an error."""
    import onnx

    names = [n.name for n in onnx.load(str(model)).graph.node]
    out = []
    for layer in (k.strip() for k in layers.split(",") if k.strip()):
        conv = f"/f/{layer}/Conv"
        if conv not in names:
            convs = [n.split("/")[2] for n in names if n.endswith("/Conv")]
            raise SystemExit(f"--float-layers: no convolution {layer!r} (the classifier's: {', '.join(convs)})")
        after = names[names.index(conv) + 1]
        out += [conv] + ([after] if after.endswith("/Relu") else [])
    return out


def probabilities(path: Path, x: np.ndarray) -> np.ndarray:
    net = _dice._net(path, "check")
    res = []
    for i in range(0, len(x), 64):
        net.setInput(np.ascontiguousarray(x[i:i + 64]))
        res.append(net.forward().reshape(-1, 7))
    return _dice._softmax(np.concatenate(res))


def quantize_int8(model: Path, out: Path, calib: np.ndarray, exclude: list[str] | None = None) -> None:
    """``model``'s convolutions and their ReLUs in int8 (onnxruntime's static quantization,
    operator-oriented, weights per channel), calibrated on ``calib`` (normalised N x 3 x S x S
    crops fed one at a time), written to ``out``; the nodes of ``exclude`` stay in float."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Crops(CalibrationDataReader):
        def __init__(self) -> None:
            self.i = 0

        def get_next(self) -> dict[str, np.ndarray] | None:
            if self.i >= len(calib):
                return None
            self.i += 1
            return {"x": calib[self.i - 1:self.i]}

    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(model), str(pre))
        quantize_static(str(pre), str(out), Crops(), quant_format=QuantFormat.QOperator, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        op_types_to_quantize=["Conv", "Relu"], nodes_to_exclude=exclude or [])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=str(_dice.MODELS / "dice_cls.onnx"))
    ap.add_argument("--out", default=str(_dice.MODELS / "dice_cls_int8.onnx"))
    ap.add_argument("--dataset", default=str(ROOT.parent / "shared" / "datasets" / "dice-dev"),
                    help="the real sets whose train photos calibrate it (comma-separated folders)")
    ap.add_argument("--synth", type=int, default=150, help="synthetic scenes in the calibration")
    ap.add_argument("--crowd", type=int, default=30, help="crowded tables in the calibration")
    ap.add_argument("--float-layers", default="",
                    help="comma-separated convolutions left in float, with their ReLUs (e.g. 'f.0,f.6')")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    nodes = float_nodes(Path(a.model), a.float_layers)  # checked before the calibration's minute
    x = calibration_crops([Path(p) for p in a.dataset.split(",") if p], a.synth, a.crowd)
    print("calibration crops", len(x), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        q = Path(tmp) / "int8.onnx"
        quantize_int8(Path(a.model), q, x, nodes)
        views = np.concatenate([x, np.ascontiguousarray(np.rot90(x, 1, axes=(2, 3)))])
        f, i8 = probabilities(Path(a.model), views), probabilities(q, views)
        agree = float((f.argmax(1) == i8.argmax(1)).mean())
        diff = np.abs(f - i8)
        print(f"int8 against float on {len(views)} crops: same class {agree:.4f}, "
              f"probability difference mean {diff.mean():.4f}, max {diff.max():.3f}", flush=True)
        if agree < AGREE_MIN:
            print(f"not written: the classes agree on fewer than {AGREE_MIN:.1%} of the crops", file=sys.stderr)
            return 1
        Path(a.out).write_bytes(q.read_bytes())
    print("wrote", a.out, Path(a.out).stat().st_size, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
