"""Train the two small dice models shipped in vision/models/ (on a CUDA GPU when torch sees one,
else on the CPU; ``--device cpu`` or ``cuda:N`` picks one).

    .venv/bin/pip install -e '.[train]'     # torch, onnx, onnxruntime: training only, not at runtime
    .venv/bin/python scripts/train_dice.py [--synth 2500] [--det-iters 3000] [--cls-iters 2500]

The scenes, crops and their jitter are made on the CPU either way (numpy and OpenCV, seeded), and
the models are exported to ONNX from the CPU, so what the reader runs never depends on where
they trained. ``tests/vision/test_train_dice.py`` runs a few steps of both on the CPU (with the
``[train]`` extra installed; skipped without it).

1. ``dice_det.onnx``: a tiny CenterNet-style detector (stride 4 heat map of top-face centres,
   box size and offset) run on the image letterboxed to 320 px (and 128 px for close dice).
2. ``dice_cls.onnx``: a small classifier of 40x40 die crops into {not a die, 1..6}. The reader
   runs its int8 copy, ``dice_cls_int8.onnx``: after training a classifier, run
   ``scripts/quantize_dice.py`` (onnxruntime's quantizer, also in the ``[train]`` extra).
3. ``dice_cls_fast.onnx``: a slim classifier (half the work) taught by ``dice_cls.onnx`` as well
   as the labels; the reader runs its int8 copy first on every crop and keeps its answer where
   it is sure (``vision.dice.DiceConfig.cls_fast``).

The commands behind every shipped model (the detector, the int8 quick and full classifiers, the wide
pair and its int8 copies) and what each round tried: docs/readme/dice.md, "Reproducing the models".
Data: the *train* split of every real set named by ``--dataset`` (comma-separated; a test split is
never read here; ``scripts/dice_sets.py``); ``--holdout K --val-out DIR`` keeps every K-th train
photo out as sets to choose models on (``bench/dice.py --datasets DIR --split val``). On a GPU,
``--procs N`` makes and mines the scenes in N processes, ``--det-workers N`` draws the detector's
batches in N more, and torch draws and jitters the classifier's batches (``--batches``). The
runtime (vision/dice.py) uses cv2.dnn only.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.dice as _dice  # noqa: E402
from vision.dice import CLS_SIZE, DET_STRIDE  # noqa: E402
from dice_scenes import make_crowds, make_synth, make_synth3d, warp_photo  # noqa: E402
from dice_sets import load_set, load_sets  # noqa: E402
import dice_mine  # noqa: E402
from dice_crops import hard_weights, streaks  # noqa: E402
from dice_workers import drawn_ahead  # noqa: E402
from dice_nets import (CLS_WIDTHS, DET_ARCHS, Cls, Det, distil_loss, keep_loaded_norms,  # noqa: E402
                       load_onnx_cls, load_onnx_det, soft_loss, teach_stem)


def crop_for_classifier(img: np.ndarray, box: list[float], rot: float = 0.0) -> np.ndarray:
    return _dice.crop_for_classifier(img, box, rot, grow=GROW)


GROW = _dice.CROP_GROW  # set by --grow: must match the (path, grow) pair in DiceConfig.cls_models

cv2.setNumThreads(1)
torch.set_num_threads(1)

CLS_NAME = "dice_cls.onnx"
CLS_ARCH = "base"
DET_ARCH = "base"
STREAKS = 0.0  # share of classifier crops given a band (--streaks)
JPEG = 0.0  # share of jittered photos saved again as JPEG of quality 35-90 (--jpeg)
WARP = 0.0  # share of the real photos (their detector samples, jittered copies) seen through warp_photo (--warp)
RUNTIME_SCALE = False  # detector samples scaled as the reader's fine pass scales the photo (--det-runtime-scale)
REAL_N = 0  # the detector's data: the first REAL_N scenes are the real photos (repeated)
CLS_INIT: Path | None = None  # a float classifier (ONNX) to fine-tune instead of starting afresh (--cls-init)
CLS_LR = 3e-3  # the classifier's peak learning rate (--cls-lr)
CLS_HARD = (1.0, 0.9)  # with --cls-init: crops it reads their label under [1] drawn [0] times as often (--cls-hard)
DET_INIT: Path | None = None  # a detector (ONNX) whose layers start this one (--det-init)
DET_LR = 3e-3  # the detector's peak learning rate (--det-lr)
STEM_ITERS = 0  # steps teaching a new stem the --det-init detector's features (--stem-iters)
DISTIL = False  # with --det-init: learn that detector's outputs instead of the labels (--distil)
CLS_TEACHER: Path | None = None  # a float classifier (ONNX) whose answers the new one learns too (--cls-teacher)
CLS_DISTIL = 0.7  # ... the weight of its answers against the labels' (--cls-distil)
DEVICE = torch.device("cpu")  # where the models train (--device); the data is made on the CPU either way
PROCS = 0  # processes making and mining the scenes (--procs; 0: this one alone, the shipped commands' draw)
BATCHES = "numpy"  # who draws and jitters the classifier's batches (--batches): numpy, or torch on DEVICE
DET_SIZE = 320  # long side of the image fed to the detector (runtime default)
CROP = 192  # training crop of the detector input


# ------------------------------------------------------------------ data (the models: dice_nets.py)


def load_real(ds: Path, fixes: str = "auto") -> list[tuple[np.ndarray, list[dict]]]:
    """The train split's photos and labels of one set (``dice_sets.load_set``)."""
    return load_set(ds, fixes)


def motion_blur(f: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A die still rolling or a shaking camera: a line kernel of 3-9 px at any angle."""
    n = int(rng.integers(3, 10))
    k = np.zeros((n, n), np.float32)
    k[n // 2] = 1.0
    k = cv2.warpAffine(k, cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), float(rng.uniform(0, 180)), 1.0), (n, n))
    return cv2.filter2D(f, -1, k / max(float(k.sum()), 1e-6))


def colour_jitter(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    f = img.astype(np.float32)
    f = f * rng.uniform(0.6, 1.4) + rng.uniform(-40, 40)
    if rng.random() < 0.15:  # a strong colour cast (a lamp, a coloured room)
        f = f * rng.uniform(0.6, 1.4, 3).astype(np.float32)
    else:
        f = f * rng.uniform(0.85, 1.15, 3).astype(np.float32)  # white balance
    if rng.random() < 0.12:  # a dim room: little light, a noisy sensor
        f = f * rng.uniform(0.25, 0.55) + rng.normal(0, rng.uniform(3, 10), f.shape).astype(np.float32)
    if rng.random() < 0.12:
        f = motion_blur(f, rng)
    if rng.random() < 0.3:
        g = f.mean(2, keepdims=True)
        f = g + (f - g) * rng.uniform(0.3, 1.6)
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.3:
        f += rng.normal(0, rng.uniform(1, 8), f.shape).astype(np.float32)
    out = np.clip(f, 0, 255).astype(np.uint8)
    if JPEG and rng.random() < JPEG:  # a phone's or webcam's compression after all that (no draw when off)
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 91))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out
    return out


def det_sample(img: np.ndarray, dice: list[dict], rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    h, w = img.shape[:2]
    s = DET_SIZE / max(h, w)
    boxes = np.float32([d["box"] for d in dice]).reshape(-1, 4)
    if RUNTIME_SCALE and len(boxes):  # as the reader's fine pass: small dice looked at up to 640 px
        side = float(np.median(np.sqrt(np.prod(np.maximum(boxes[:, 2:] - boxes[:, :2], 1.0), 1))))
        if side * s < _dice.DiceConfig.die_px:
            s = max(s, min(_dice.DiceConfig.det_size_max / max(h, w), _dice.DiceConfig.die_px / side))
    s *= math.exp(rng.uniform(math.log(0.6), math.log(1.6)))
    boxes = boxes * s
    sw, sh = max(CROP, int(w * s)), max(CROP, int(h * s))
    scaled = np.full((sh, sw, 3), rng.integers(0, 255, 3), np.uint8)
    scaled[: int(h * s), : int(w * s)] = cv2.resize(img, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
    x0 = int(rng.integers(0, sw - CROP + 1))
    y0 = int(rng.integers(0, sh - CROP + 1))
    crop = scaled[y0 : y0 + CROP, x0 : x0 + CROP]
    boxes = boxes - np.float32([x0, y0, x0, y0])
    k = int(rng.integers(0, 4))  # rotate by k*90
    crop = np.ascontiguousarray(np.rot90(crop, k))
    for _ in range(k):  # (x,y) -> (y, W-x) for np.rot90 counter-clockwise
        boxes = np.stack([boxes[:, 1], CROP - boxes[:, 2], boxes[:, 3], CROP - boxes[:, 0]], 1)
    if rng.random() < 0.5:
        crop = np.ascontiguousarray(crop[:, ::-1])
        boxes = np.stack([CROP - boxes[:, 2], boxes[:, 1], CROP - boxes[:, 0], boxes[:, 3]], 1)
    crop = colour_jitter(crop, rng)
    g = CROP // DET_STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ignore = np.zeros((g, g), np.float32)  # no loss here: a die whose top face is not boxed (dice_sets)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for (x1, y1, x2, y2), d in zip(boxes, dice):
        if d.get("whole"):
            xa, ya = max(0, int(min(x1, x2) / DET_STRIDE)), max(0, int(min(y1, y2) / DET_STRIDE))
            ignore[ya:int(math.ceil(max(y1, y2) / DET_STRIDE)) + 1, xa:int(math.ceil(max(x1, x2) / DET_STRIDE)) + 1] = 1.0
            continue
        cx, cy = (x1 + x2) / 2 / DET_STRIDE, (y1 + y2) / 2 / DET_STRIDE
        bw, bh = (x2 - x1) / DET_STRIDE, (y2 - y1) / DET_STRIDE
        if not (0 <= cx < g and 0 <= cy < g):
            continue
        # a die cut by the crop edge: ignore (don't teach either way) unless mostly inside
        sig = max(0.5, min(bw, bh) / 6)
        heat = np.maximum(heat, np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sig * sig)))
        ix, iy = int(cx), int(cy)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = [math.log(max(bw, 0.5)), math.log(max(bh, 0.5)), cx - ix, cy - iy]
        mask[iy, ix] = 1.0
    return crop, heat, reg, mask, np.maximum(ignore - (heat > 0.05), 0.0)


def cls_samples(img: np.ndarray, dice: list[dict], rng: np.random.Generator, n_neg: int
                ) -> list[tuple[np.ndarray, int]]:
    """Crops of each die (jittered like detector boxes) and some negatives."""
    out = []
    h, w = img.shape[:2]
    boxes = np.float32([d["box"] for d in dice]).reshape(-1, 4)
    for d in dice:
        if d.get("whole"):  # no top-face box: read only at the detector's proposals (mine)
            continue
        x1, y1, x2, y2 = d["box"]
        for _ in range(2):
            bw, bh = x2 - x1, y2 - y1
            jx, jy = rng.normal(0, 0.07, 2) * [bw, bh]
            js = math.exp(rng.normal(0, 0.08))
            cx, cy = (x1 + x2) / 2 + jx, (y1 + y2) / 2 + jy
            box = [cx - bw * js / 2, cy - bh * js / 2, cx + bw * js / 2, cy + bh * js / 2]
            out.append((crop_for_classifier(img, box, rot=float(rng.uniform(0, 360))), int(d["value"])))
    sizes = (boxes[:, 2:] - boxes[:, :2]).mean(1) if len(boxes) else np.float32([40])
    for _ in range(n_neg):
        s = float(rng.choice(sizes)) * math.exp(rng.normal(0, 0.3))
        if len(boxes) and rng.random() < 0.4:  # near a die, but off it
            b = boxes[int(rng.integers(0, len(boxes)))]
            ang = rng.uniform(0, 2 * math.pi)
            r = s * rng.uniform(0.8, 1.3)
            cx, cy = (b[0] + b[2]) / 2 + r * math.cos(ang), (b[1] + b[3]) / 2 + r * math.sin(ang)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        box = np.float32([cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2])
        if len(boxes):
            bc = (boxes[:, :2] + boxes[:, 2:]) / 2
            if np.any(np.hypot(bc[:, 0] - cx, bc[:, 1] - cy) < 0.7 * sizes):
                continue
        out.append((crop_for_classifier(img, box.tolist(), rot=float(rng.uniform(0, 360))), 0))
    return out


# ------------------------------------------------------------------ training


def focal(logit: torch.Tensor, gt: torch.Tensor, ignore: torch.Tensor | None = None) -> torch.Tensor:
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = (1 - pos) * (1 - ignore) if ignore is not None else 1 - pos
    pl = -torch.log(p) * (1 - p) ** 2 * pos
    nl = -torch.log(1 - p) * p**2 * (1 - gt) ** 4 * neg
    return (pl.sum() + nl.sum()) / pos.sum().clamp(min=1)


def det_arrays(data: list, rng: np.random.Generator, bs: int = 16) -> tuple[np.ndarray, ...]:
    """A batch of detector samples as numpy arrays: input, heat map, box regression, its mask, ignore."""
    batch = []
    for _ in range(bs):
        i = int(rng.integers(0, len(data)))
        img, dice = data[i]
        if WARP and i < REAL_N and rng.random() < WARP:  # a real photo, seen from another angle
            img, dice = warp_photo(img, dice, rng)
        batch.append(det_sample(img, dice, rng))
    return tuple(np.stack([b[k] for b in batch]) for k in range(5))


def det_tensors(arrays: tuple[np.ndarray, ...]) -> tuple[torch.Tensor, ...]:
    x = torch.from_numpy(arrays[0]).to(DEVICE).permute(0, 3, 1, 2).float() / 255 - 0.5
    return (x, *(torch.from_numpy(a).to(DEVICE) for a in arrays[1:]))


def det_batch(data: list, rng: np.random.Generator, bs: int = 16) -> tuple[torch.Tensor, ...]:
    """A batch of detector samples: input, heat map, box regression and its mask (on DEVICE)."""
    return det_tensors(det_arrays(data, rng, bs))


DET_WORKERS = 0  # --det-workers: processes drawing the detector's batches ahead (dice_workers.py)


def det_batches(data: list, rng: np.random.Generator, iters: int) -> Iterator[tuple[torch.Tensor, ...]]:
    """``iters`` batches on DEVICE: from this process (``DET_WORKERS`` 0) or drawn ahead by workers."""
    if not DET_WORKERS:
        for _ in range(iters):
            yield det_batch(data, rng)
        return
    for arrays in drawn_ahead(det_arrays, data, int(rng.integers(1 << 31)), iters, DET_WORKERS):
        yield det_tensors(arrays)


def train_det(data: list, iters: int, out: Path, rng: np.random.Generator) -> None:
    model = Det(DET_ARCH)
    teacher = None
    if DET_INIT is not None:
        if DISTIL or STEM_ITERS:  # the detector at DET_INIT, whose stem or outputs are learnt
            teacher = Det("base")
            load_onnx_det(teacher, DET_INIT)
            teacher.to(DEVICE).eval()
        fresh = load_onnx_det(model, DET_INIT)
        if STEM_ITERS and teacher is not None:
            teach_stem(model.to(DEVICE), teacher, fresh, lambda: det_batch(data, rng)[0], STEM_ITERS)
            export(model, torch.zeros(1, 3, 320, 320), out / "dice_det_stem.onnx")
        keep_loaded_norms(model, fresh)
    model.to(DEVICE)
    if not iters:
        export(model, torch.zeros(1, 3, 320, 320), out / "dice_det.onnx")
        return
    opt = torch.optim.AdamW(model.parameters(), DET_LR, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, DET_LR, total_steps=iters, pct_start=0.1)
    t0 = time.time()
    for it, (x, heat, reg, mask, ignore) in enumerate(det_batches(data, rng, iters)):
        y = model(x)
        if DISTIL and teacher is not None:
            lh, lr_ = distil_loss(y, teacher, x)
        else:
            lh = focal(y[:, 0], heat, ignore)
            m = mask.unsqueeze(1)
            lr_ = (F.l1_loss(y[:, 1:5] * m, reg * m, reduction="sum")) / mask.sum().clamp(min=1)
        loss = lh + lr_
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 100 == 0:
            print(f"det {it} loss {lh.item():.3f} {lr_.item():.3f} {time.time() - t0:.0f}s", flush=True)
        if it and it % 1000 == 0:
            export(model, torch.zeros(1, 3, 320, 320), out / "dice_det.onnx")
    export(model, torch.zeros(1, 3, 320, 320), out / "dice_det.onnx")


def mine(data: list, out: Path) -> list[tuple[np.ndarray, int]]:
    """Crops at the trained detector's proposals, labelled (``dice_mine.mine``)."""
    return dice_mine.mine(data, out, crop_for_classifier, PROCS)



def train_cls(data: list, iters: int, out: Path, rng: np.random.Generator,
              extra: list[tuple[np.ndarray, int]] | None = None, real_more: list | None = None) -> None:
    xs, ys = [], []
    for img, dice in real_more or []:  # real photos again, each time with a new colour jitter
        if WARP and rng.random() < WARP:  # (no draw when off: the shipped commands draw as before)
            img, dice = warp_photo(img, dice, rng)
        for c, y in cls_samples(colour_jitter(img, rng), dice, rng, n_neg=1):
            xs.append(c.astype(np.float16))
            ys.append(y)
    for c, y in extra or []:
        for k in range(2):
            xs.append((c if k == 0 else np.ascontiguousarray(np.rot90(c, int(rng.integers(1, 4))))).astype(np.float16))
            ys.append(y)
    for img, dice in data:
        for c, y in cls_samples(img, dice, rng, n_neg=max(3, len(dice))):
            xs.append(c.astype(np.float16))
            ys.append(y)
    data.clear()  # the scenes are in their crops now: free them (the caller passes a list of its own)
    X = np.stack(xs)  # float16: half the memory; batches go back to float32
    del xs
    Y = np.int64(ys)
    print("cls samples", X.shape, np.bincount(Y), flush=True)
    model = Cls(CLS_ARCH)
    if CLS_INIT is not None:
        load_onnx_cls(model, CLS_INIT, CLS_ARCH)
        for m in model.modules():  # its batch norms are folded into the convolutions: kept as they are
            if isinstance(m, nn.BatchNorm2d):
                m.eval()  # (nothing below puts the model back in training mode before the export)
    model.to(DEVICE)
    teacher = None
    if CLS_TEACHER is not None:
        teacher = Cls("base")
        load_onnx_cls(teacher, CLS_TEACHER, "base")
        teacher.to(DEVICE).eval()
    opt = torch.optim.AdamW(model.parameters(), CLS_LR, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, CLS_LR, total_steps=iters, pct_start=0.1)
    bs = 128
    weights = (hard_weights(X, Y, CLS_INIT, CLS_ARCH, *CLS_HARD) if CLS_INIT is not None and CLS_HARD[0] > 1
               else None)  # (numpy's draw only)
    batches = torch_batches(X, Y, bs, rng) if BATCHES == "torch" else numpy_batches(X, Y, bs, rng, weights)
    del X  # the batches hold the crops (numpy's) or free them once on DEVICE (torch's)
    t0 = time.time()
    for it in range(iters):
        x, yt = next(batches)
        y = model(x)
        loss = F.cross_entropy(y, yt, label_smoothing=0.02)
        if teacher is not None:
            with torch.no_grad():
                t = teacher(x)
            loss = (1 - CLS_DISTIL) * loss + CLS_DISTIL * soft_loss(y, t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 200 == 0:
            acc = (y.argmax(1) == yt).float().mean().item()
            print(f"cls {it} loss {loss.item():.3f} acc {acc:.3f} {time.time() - t0:.0f}s", flush=True)
        if it and it % 2500 == 0:  # a run cut short still leaves a model
            export(model, torch.zeros(1, 3, CLS_SIZE, CLS_SIZE), out / CLS_NAME)
    export(model, torch.zeros(1, 3, CLS_SIZE, CLS_SIZE), out / CLS_NAME)


def numpy_batches(X: np.ndarray, Y: np.ndarray, bs: int, rng: np.random.Generator, weights: np.ndarray | None = None
                  ) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """The classifier's batches (N x 3 x S x S on DEVICE, and their labels), each crop with its
    own gain and the batch with one noise level, some crossed by bands, half mirrored: drawn and
    jittered by numpy (the CPU's share of a step: ~14 ms of the noise alone on this VM); with
    ``weights`` (``dice_crops.hard_weights``) each crop drawn that often."""
    while True:
        idx = rng.integers(0, len(X), bs) if weights is None else rng.choice(len(X), bs, p=weights)
        xb = X[idx].astype(np.float32)
        # photometric jitter per crop, done on the normalised crop
        gain = rng.uniform(0.7, 1.3, (bs, 1, 1, 1)).astype(np.float32)
        xb = xb * gain + rng.normal(0, rng.uniform(0, 0.15), xb.shape).astype(np.float32)
        if STREAKS > 0:
            xb += streaks(bs, rng, STREAKS)
        if rng.random() < 0.5:
            xb = xb[:, :, ::-1]
        yield (torch.from_numpy(np.ascontiguousarray(xb)).to(DEVICE).permute(0, 3, 1, 2),
               torch.from_numpy(Y[idx]).to(DEVICE))


def torch_batches(X: np.ndarray, Y: np.ndarray, bs: int, rng: np.random.Generator
                  ) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """The same batches drawn and jittered by torch where the model trains (--batches torch, the
    default on a GPU): the crops go to DEVICE once, and the large draws (which crops, their gains,
    the noise) come from a torch generator seeded from ``rng``; ``rng`` draws the rest."""
    g = torch.Generator(device=DEVICE)
    g.manual_seed(int(rng.integers(0, 2**62)))
    Xt, Yt = torch.from_numpy(X).to(DEVICE), torch.from_numpy(Y).to(DEVICE)
    del X  # on a GPU the host copy (GBs) is freed once the caller drops its own too
    while True:
        idx = torch.randint(0, len(Xt), (bs,), device=DEVICE, generator=g)
        xb = Xt[idx].float()
        gain = torch.empty((bs, 1, 1, 1), device=DEVICE).uniform_(0.7, 1.3, generator=g)
        xb = xb * gain + torch.randn(xb.shape, device=DEVICE, generator=g) * float(rng.uniform(0, 0.15))
        if STREAKS > 0:
            xb += torch.from_numpy(streaks(bs, rng, STREAKS)).to(DEVICE)
        if rng.random() < 0.5:
            xb = xb.flip(2)
        yield xb.permute(0, 3, 1, 2), Yt[idx]


def export(model: nn.Module, dummy: torch.Tensor, path: Path) -> None:
    """The model as ONNX (exported from the CPU, whatever it trains on)."""
    device = next(model.parameters()).device
    modes = [m.training for m in model.modules()]  # put back as they were: some layers stay frozen
    model.eval()
    try:
        torch.onnx.export(model.cpu(), dummy, str(path), opset_version=13, dynamo=False,
                          input_names=["x"], output_names=["y"])
    finally:
        model.to(device)
        for m, training in zip(model.modules(), modes):
            m.training = training
    print("wrote", path, path.stat().st_size, flush=True)


def _datasets() -> Path:
    """``../shared/datasets`` beside the checkout (or beside its parent: a worktree's)."""
    for base in (ROOT.parent, ROOT.parent.parent):
        if (base / "shared" / "datasets").is_dir():
            return base / "shared" / "datasets"
    return ROOT.parent / "shared" / "datasets"


def pick_device(name: str) -> torch.device:
    """``--device``: "auto" is the first CUDA GPU when torch sees one, else the CPU."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        dev = torch.device(name)
    except RuntimeError as e:
        raise SystemExit(f"--device {name}: {e}") from e
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise SystemExit(f"--device {name}: this torch sees no CUDA GPU (torch {torch.__version__}); use --device cpu")
    return dev


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default=str(_datasets() / "dice-dev"),
                    help="the real sets' folders, comma-separated (their train splits; dice_sets.py)")
    ap.add_argument("--set-repeat", default=None,
                    help="whole numbers, one per --dataset set, comma-separated: each set's share multiplied")
    ap.add_argument("--holdout", type=int, default=0,
                    help="keep every N-th train photo of each real set out of training (for choosing models)")
    ap.add_argument("--val-out", default=None, help="with --holdout: write the held-out photos here as sets")
    ap.add_argument("--synth", type=int, default=2500)
    ap.add_argument("--det-iters", type=int, default=3000)
    ap.add_argument("--cls-iters", type=int, default=2500)
    ap.add_argument("--only", choices=["det", "cls"], default=None)
    ap.add_argument("--mine", action="store_true", help="add the detector's proposals to the classifier's data")
    ap.add_argument("--out", default=str(ROOT / "vision" / "models"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--grow", type=float, default=_dice.CROP_GROW, help="classifier crop = box grown by this")
    ap.add_argument("--cls-name", default="dice_cls.onnx")
    ap.add_argument("--cls-arch", choices=sorted(CLS_WIDTHS), default="base")
    ap.add_argument("--det-arch", choices=DET_ARCHS, default="base", help="the detector's stem (see DET_ARCHS)")
    ap.add_argument("--det-init", default=None,
                    help="start the detector from this one (ONNX): the layers whose shapes agree")
    ap.add_argument("--stem-iters", type=int, default=0,
                    help="with --det-init: steps teaching the new stem the old one's features first")
    ap.add_argument("--det-lr", type=float, default=3e-3, help="the detector's peak learning rate")
    ap.add_argument("--distil", action="store_true",
                    help="with --det-init: learn that detector's outputs instead of the labels")
    ap.add_argument("--det-runtime-scale", action="store_true",
                    help="scale the detector's samples as the reader's fine pass does (small dice up to 640 px)")
    ap.add_argument("--synth3d", type=int, default=0, help="scenes ray-cast in 3-D (vision.synth.dice3d) added")
    ap.add_argument("--synth3d-cache", default=None, help="a .pkl of the --synth3d scenes (made there when it isn't)")
    ap.add_argument("--synth3d-looks", default="any", help="the 3-D dice's odds (dice_scenes.LOOKS): any, hard")
    ap.add_argument("--crowd", type=int, default=0, help="crowded synthetic tables added to the data")
    ap.add_argument("--streaks", type=float, default=0.0, help="share of classifier crops crossed by a light or dark band")
    ap.add_argument("--jpeg", type=float, default=0.0,
                    help="share of the jittered photos and detector samples saved again as JPEG (quality 35-90)")
    ap.add_argument("--warp", type=float, default=0.0,
                    help="share of the real photos (detector samples, classifier copies) seen from another angle (a homography)")
    ap.add_argument("--close", type=float, default=0.15, help="share of close-camera scenes (1-4 big dice)")
    ap.add_argument("--hue-pips", type=float, default=0.0,
                    help="share of synthetic dice whose pips differ from the body by hue more than brightness")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1: the times quoted above)")
    ap.add_argument("--cls-init", default=None, help="fine-tune this float classifier (ONNX) instead of starting afresh")
    ap.add_argument("--cls-lr", type=float, default=3e-3, help="the classifier's peak learning rate")
    ap.add_argument("--cls-hard", type=float, nargs=2, default=(1.0, 0.9), metavar=("BOOST", "BELOW"),
                    help="with --cls-init (numpy batches): the crops it reads their label under BELOW drawn BOOST times as often")
    ap.add_argument("--cls-teacher", default=None,
                    help="a float classifier (ONNX, base widths) whose answers the new one learns as well as the labels")
    ap.add_argument("--cls-distil", type=float, default=0.7, help="with --cls-teacher: the weight of its answers (0-1)")
    ap.add_argument("--label-fixes", default="auto",
                    help="corrections to the train labels: a JSON file, 'auto' (scripts/dice_dev_train_fixes.json "
                         "for dice-dev) or 'none' (the labels as they are)")
    ap.add_argument("--real-jitters", type=int, default=10,
                    help="the classifier sees each real train photo again this many times, each with a new colour jitter")
    ap.add_argument("--det-workers", type=int, default=0,
                    help="processes drawing the detector's batches ahead (0: this one, the shipped commands' draw)")
    ap.add_argument("--procs", type=int, default=0,
                    help="make and mine the scenes in this many processes (0: this one; any N>0 gives the same data)")
    ap.add_argument("--batches", choices=["auto", "numpy", "torch"], default="auto",
                    help="who draws and jitters the classifier's batches: numpy, or torch where the model "
                         "trains (auto: torch on a GPU, numpy on the CPU)")
    ap.add_argument("--device", default="auto",
                    help="where the models train: cpu, cuda, cuda:N, or auto (a CUDA GPU when there is one)")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    global DEVICE
    DEVICE = pick_device(a.device)
    global PROCS, BATCHES
    PROCS = max(0, a.procs)
    global DET_WORKERS
    DET_WORKERS = max(0, a.det_workers)
    BATCHES = a.batches if a.batches != "auto" else ("torch" if DEVICE.type == "cuda" else "numpy")
    print("training on", DEVICE, "batches by", BATCHES, flush=True)
    global CLS_ARCH, DET_ARCH, STREAKS, CLS_INIT, CLS_LR
    DET_ARCH = a.det_arch
    global DET_INIT, DET_LR, STEM_ITERS
    DET_INIT = Path(a.det_init) if a.det_init else None
    DET_LR, STEM_ITERS = a.det_lr, a.stem_iters
    global DISTIL, CLS_TEACHER, CLS_DISTIL
    DISTIL = a.distil
    CLS_TEACHER = Path(a.cls_teacher) if a.cls_teacher else None
    CLS_DISTIL = a.cls_distil
    if (DISTIL or STEM_ITERS) and DET_INIT is None:
        ap.error("--distil and --stem-iters need --det-init")
    CLS_INIT = Path(a.cls_init) if a.cls_init else None
    CLS_LR = a.cls_lr
    global CLS_HARD
    CLS_HARD = (a.cls_hard[0], a.cls_hard[1])
    CLS_ARCH = a.cls_arch
    STREAKS = a.streaks
    global JPEG, WARP, RUNTIME_SCALE
    JPEG, WARP, RUNTIME_SCALE = a.jpeg, a.warp, a.det_runtime_scale
    global GROW
    GROW = a.grow
    global CLS_NAME
    CLS_NAME = a.cls_name
    print("classifier crop growth", GROW, flush=True)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    t = time.time()
    real = load_sets([Path(p) for p in a.dataset.split(",") if p], a.label_fixes, a.holdout,
                     Path(a.val_out) if a.val_out else None,
                     repeat=[int(x) for x in a.set_repeat.split(",")] if a.set_repeat else None)
    synth = (make_synth(a.synth, seed=1000 + a.seed, close=a.close, hue_pips=a.hue_pips, procs=PROCS)
             + make_crowds(a.crowd, a.seed, procs=PROCS) + make_synth3d(a.synth3d, a.seed, PROCS, a.synth3d_cache, a.synth3d_looks))
    print(f"data: {len(real)} real train images, {len(synth)} synthetic ({a.crowd} crowded, {a.synth3d} in 3-D), "
          f"{time.time() - t:.0f}s", flush=True)
    # real images are few: repeat them so they are ~40% of what the models see
    data = real * max(1, int(0.66 * len(synth) / max(1, len(real)))) + synth
    global REAL_N
    REAL_N = len(data) - len(synth)
    if a.only in (None, "det"):
        train_det(data, a.det_iters, out, rng)
    if a.only in (None, "cls"):
        extra = None
        if a.mine or a.only is None:
            extra = mine(real + synth, out)
            print("mined", len(extra), "proposals,", sum(1 for _, y in extra if y == 0), "false", flush=True)
        scenes = real * 2 + synth
        del data, synth  # train_cls frees the scenes once they are cropped
        train_cls(scenes, a.cls_iters, out, rng, extra, real_more=real * a.real_jitters)


if __name__ == "__main__":
    main()
