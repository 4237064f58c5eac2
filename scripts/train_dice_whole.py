"""Train the whole-die reader (``vision.dice_whole``): a small classifier that reads a crop grown
round the detector's box, side faces in view, as the value of the die's TOP face (issue 29,
seventeenth round; docs/readme/dice.md). CPU, one torch thread; the ``[train]`` extra (torch,
onnx, onnxruntime) as for ``scripts/train_dice.py``.

    scripts/train_dice_whole.py --dataset $S [--holdout 5 --folds 4,2,0 --val-out VAL] \
        [--synth3d 500 --synth3d-seed 14 --synth3d-looks hard --synth3d-cache F.pkl] \
        [--iters 2000] [--int8] --out DIR        # writes DIR/dice_whole.onnx (and _int8)

What it is taught, and how that differs from the reader's classifiers (``scripts/train_dice.py``):

- **Where**: at the shipped detector's own proposals on the train photos (the reader's
  ``vision.dice.detect``), each labelled with the value of the die it lies on by the set's
  pairing (``vision.cli.boxes_match``, or ``inside_match`` where the set boxes the whole die):
  also a box round a whole small oblique die, which ``scripts/dice_mine.py`` leaves out of the
  classifier's data (its IoU with the top face is under 0.5). Proposals on no die are "not a
  die"; one on two dice, or near a die but not on it, is left out. The labels' own boxes
  (jittered) are taught too.
- **Which way up**: crops are never turned more than ``--turn`` degrees (a camera's roll) and
  only mirrored left to right, so "up" in the crop is up in the photo: the top face is the one
  the side faces hang below.
- **How much**: a square of ``--grow`` (1.7) times the box's longer side, centred on the box.

``--holdout K --fold J`` keeps the train photos ``k % K == J`` out (``scripts/dice_sets.py``) and
writes them with ``--val-out``; ``--folds J1,J2,..`` trains a model for each such fold from crops
made once (OUT/foldJ, VAL-OUT/foldJ); ``scripts/dice_whole_sweep.py`` reads them with the reader and
the whole-die rule at several thresholds (the choice of rule is made there, never on a test
split). 3-D scenes (``vision.synth.dice3d`` through ``scripts/dice_scenes.make_synth3d``, its
cache shared with train_dice.py's) add dice seen obliquely with their side faces.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from vision import dice as _dice  # noqa: E402
from vision.cli import boxes_match, inside_match  # noqa: E402
from vision.dice_boxes import iou  # noqa: E402
from dice_nets import CLS_WIDTHS, Cls  # noqa: E402
from dice_scenes import make_synth3d  # noqa: E402
from dice_sets import load_set  # noqa: E402

Sample = tuple[int, tuple[float, float, float, float], int]  # scene, box, label (0: not a die)


def label_proposals(props: list, dice: list[dict]) -> list[tuple[tuple[float, float, float, float], int]]:
    """Each proposal box with the value of the one die it lies on (the set's pairing: ``inside``
    dice by ``inside_match``, others by ``boxes_match``; of several, the one it overlaps most, if
    at least 0.3), 0 when it lies on no die (no label box near it); boxes on a die whose top
    face is hidden (``whole`` without ``inside``: the 3-D scenes) or on two dice are left out."""
    out = []
    for box, _score in props:
        b = [float(v) for v in box]
        hits = [d for d in dice if (inside_match(b, d["box"]) if d.get("inside") else boxes_match(b, d["box"]))]
        if not hits:
            if not any(boxes_match(b, d["box"]) or iou(b, d["box"]) > 0.05 for d in dice):
                out.append((tuple(b), 0))
            continue
        best = max(hits, key=lambda d: iou(b, d["box"]))
        if len(hits) > 1 and iou(b, best["box"]) < 0.3:
            continue  # a box round a group
        if best.get("whole") and not best.get("inside"):
            continue  # a die whose top face is hidden
        out.append((tuple(b), int(best["value"])))
    return out


def samples_of(scenes: list, cfg: _dice.DiceConfig) -> list[Sample]:
    """The labelled boxes of ``scenes``: the detector's proposals (:func:`label_proposals`) and
    every labelled die's own box (not those whose top face is hidden)."""
    out: list[Sample] = []
    for k, (img, dice) in enumerate(scenes):
        out += [(k, b, y) for b, y in label_proposals(_dice.detect(img, cfg), dice)]
        out += [(k, tuple(float(v) for v in d["box"]), int(d["value"])) for d in dice
                if d.get("inside") or not d.get("whole")]
    return out


def whole_crop(img: np.ndarray, box: tuple[float, ...], grow: float, rng: np.random.Generator | None = None,
               turn: float = 10.0) -> np.ndarray:
    """The reader's crop (``vision.dice._warp``: CLS_SIZE^2 uint8) of ``box`` grown by ``grow``;
    with ``rng`` the box jittered as the detector's are (centre, size) and turned by up to
    ``turn`` degrees."""
    x1, y1, x2, y2 = box
    rot = 0.0
    if rng is not None:
        w, h = x2 - x1, y2 - y1
        jx, jy = rng.normal(0, 0.06, 2) * [w, h]
        js = math.exp(rng.normal(0, 0.08))
        cx, cy = (x1 + x2) / 2 + jx, (y1 + y2) / 2 + jy
        x1, y1, x2, y2 = cx - w * js / 2, cy - h * js / 2, cx + w * js / 2, cy + h * js / 2
        rot = float(rng.uniform(-turn, turn))
    return _dice._warp(img, (x1, y1, x2, y2), rot, grow)


def normalise(x: np.ndarray) -> np.ndarray:
    """uint8 or float N x S x S x 3 crops normalised as ``vision.dice._crops`` does."""
    c = x.astype(np.float32)
    c -= c.mean(axis=(1, 2, 3), keepdims=True)
    c /= c.std(axis=(1, 2, 3), keepdims=True) + 8.0
    return c


def make_crops(scenes: list, samples: list[Sample], reps: list[int], grow: float, turn: float,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``reps[i]`` jittered crops of each sample (uint8) and their labels."""
    xs, ys = [], []
    for (k, box, y), n in zip(samples, reps):
        img = scenes[k][0]
        for _ in range(n):
            xs.append(whole_crop(img, box, grow, rng, turn))
            ys.append(y)
    return np.stack(xs), np.int64(ys)


def batches(X: np.ndarray, Y: np.ndarray, bs: int, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    """Batches of crops with their own light (gain, offset, colour cast) and noise, half of
    them mirrored left to right (never up and down: which way is up is what is taught)."""
    while True:
        idx = rng.integers(0, len(X), bs)
        xb = X[idx].astype(np.float32)
        xb = xb * rng.uniform(0.6, 1.4, (bs, 1, 1, 1)) * rng.uniform(0.85, 1.15, (bs, 1, 1, 3)) \
            + rng.uniform(-30, 30, (bs, 1, 1, 1))
        xb += rng.normal(0, rng.uniform(0, 8), xb.shape)
        flip = rng.random(bs) < 0.5
        xb[flip] = xb[flip][:, :, ::-1]
        xb = normalise(np.clip(xb, 0, 255))
        yield torch.from_numpy(np.ascontiguousarray(xb.transpose(0, 3, 1, 2))), torch.from_numpy(Y[idx])


def train(X: np.ndarray, Y: np.ndarray, arch: str, iters: int, lr: float, rng: np.random.Generator) -> Cls:
    model = Cls(arch)
    opt = torch.optim.AdamW(model.parameters(), lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=iters, pct_start=0.1)
    t0 = time.time()
    model.train()
    for it, (x, y) in zip(range(iters), batches(X, Y, 128, rng)):
        out = model(x)
        loss = F.cross_entropy(out, y, label_smoothing=0.02)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 200 == 0:
            acc = (out.argmax(1) == y).float().mean().item()
            print(f"whole {it} loss {loss.item():.3f} acc {acc:.3f} {time.time() - t0:.0f}s", flush=True)
    model.eval()
    return model


def export(model: Cls, path: Path) -> None:
    torch.onnx.export(model, torch.zeros(1, 3, _dice.CLS_SIZE, _dice.CLS_SIZE), str(path), opset_version=13,
                      dynamo=False, input_names=["x"], output_names=["y"])
    print("wrote", path, path.stat().st_size, flush=True)


def quantize(model: Path, out: Path, calib: np.ndarray, agree_min: float = 0.995) -> float:
    """``model`` in int8 (``quantize_dice.quantize_int8``, as for the reader's classifiers) calibrated on ``calib``
    (normalised N x 3 x S x S); written only when int8 and float pick the same class on at least
    ``agree_min`` of them. Returns that share."""
    import tempfile

    from quantize_dice import quantize_int8

    def probs(path: Path) -> np.ndarray:
        net = cv2.dnn.readNetFromONNX(str(path))
        res = []
        for i in range(0, len(calib), 64):
            net.setInput(np.ascontiguousarray(calib[i:i + 64]))
            res.append(net.forward().reshape(-1, 7))
        return np.concatenate(res)

    with tempfile.TemporaryDirectory() as tmp:
        q = Path(tmp) / "int8.onnx"
        quantize_int8(model, q, calib)
        agree = float((probs(model).argmax(1) == probs(q).argmax(1)).mean())
        print(f"int8 against float on {len(calib)} crops: same class {agree:.4f}", flush=True)
        if agree >= agree_min:
            out.write_bytes(q.read_bytes())
            print("wrote", out, out.stat().st_size, flush=True)
    return agree


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", required=True, help="the real sets' folders, comma-separated (train splits)")
    ap.add_argument("--holdout", type=int, default=0, help="keep every N-th train photo out")
    ap.add_argument("--fold", type=int, default=None, help="with --holdout: which of each N (default N-1)")
    ap.add_argument("--folds", default=None,
                    help="with --holdout: a model for each of these folds (comma-separated), each without its "
                         "photos, written to OUT/foldJ (and VAL-OUT/foldJ), the crops made once")
    ap.add_argument("--val-out", default=None, help="with --holdout: write the held-out photos here as sets")
    ap.add_argument("--synth3d", type=int, default=0, help="3-D scenes (vision.synth.dice3d) added")
    ap.add_argument("--synth3d-seed", type=int, default=14)
    ap.add_argument("--synth3d-looks", default="any")
    ap.add_argument("--synth3d-cache", default=None)
    ap.add_argument("--grow", type=float, default=1.7, help="crop = the box's longer side times this")
    ap.add_argument("--turn", type=float, default=10.0, help="crops turned by up to this (degrees)")
    ap.add_argument("--jitters", type=int, default=4, help="jittered crops of each labelled box")
    ap.add_argument("--iters", type=int, default=2000)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--arch", choices=sorted(CLS_WIDTHS), default="slim")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--int8", action="store_true", help="also write dice_whole_int8.onnx")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.grow < 1.0:
        ap.error("--grow must be at least 1")
    torch.set_num_threads(a.threads)
    cv2.setNumThreads(1)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    t = time.time()
    cfg = _dice.DiceConfig()
    paths = [Path(s) for s in a.dataset.split(",") if s]
    folds = [int(f) for f in a.folds.split(",")] if a.folds else [a.fold if a.fold is not None else a.holdout - 1]
    if a.holdout and a.val_out:  # the held-out photos of each fold as sets to choose on
        for j in folds:
            for p in paths:
                load_set(p, "auto", a.holdout, Path(a.val_out) / f"fold{j}", j)
    groups = [load_set(p, "auto") for p in paths]  # every train photo: photo k is in fold k % holdout
    most = max(len(g) for g in groups)
    reps_of = [a.jitters * max(1, round(most / max(1, len(g)))) for g in groups]
    fold_of = [[k % a.holdout if a.holdout else -1 for k in range(len(g))] for g in groups]
    if a.synth3d:  # rendered dice: half as many crops each as the largest real set's, in every fold's training
        groups.append(make_synth3d(a.synth3d, a.synth3d_seed, 0, a.synth3d_cache, a.synth3d_looks))
        reps_of.append(max(1, a.jitters // 2))
        fold_of.append([-1] * len(groups[-1]))
    scenes: list = []
    samples: list[Sample] = []
    reps: list[int] = []
    tags: list[int] = []
    for g, n, fo in zip(groups, reps_of, fold_of):  # a set of fewer photos: more crops of each (as many photos' worth)
        s = samples_of(g, cfg)
        samples += [(k + len(scenes), b, y) for k, b, y in s]
        reps += [n] * len(s)
        tags += [fo[k] for k, _, _ in s]
        scenes += g
        print(f"{len(g)} scenes: {len(s)} boxes ({sum(1 for *_, y in s if y == 0)} no die), {n} crops each, "
              f"{time.time() - t:.0f}s", flush=True)
    X, Y = make_crops(scenes, samples, reps, a.grow, a.turn, rng)
    T = np.repeat(np.int64(tags), reps)
    del scenes
    print("crops", X.shape, np.bincount(Y, minlength=7).tolist(), f"{time.time() - t:.0f}s", flush=True)
    failed = False
    for j in folds:
        keep = T != j if a.holdout else np.ones(len(T), bool)
        where = out / f"fold{j}" if len(folds) > 1 else out
        where.mkdir(parents=True, exist_ok=True)
        print(f"fold {j}: {int(keep.sum())} crops", flush=True)
        model = train(X[keep], Y[keep], a.arch, a.iters, a.lr, rng)
        path = where / "dice_whole.onnx"
        export(model, path)
        if a.int8:
            pick = rng.choice(np.nonzero(keep)[0], min(2000, int(keep.sum())), replace=False)
            calib = np.ascontiguousarray(normalise(X[pick]).transpose(0, 3, 1, 2))
            if quantize(path, where / "dice_whole_int8.onnx", calib) < 0.995:
                print(f"fold {j}: int8 not written (int8 and float differ on more than 0.5 % of the crops)",
                      file=sys.stderr, flush=True)
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
