"""What scripts/train_dice.py does to the classifier's crops besides cropping them: bands drawn
across some (``--streaks``), and, when it fine-tunes a classifier, the crops that classifier is
unsure of drawn more often (``--cls-hard``). The reader never imports this."""

from __future__ import annotations

import math

import numpy as np
import torch

from dice_nets import Cls, load_onnx_cls
from vision.dice import CLS_SIZE

_YY, _XX = np.mgrid[0:CLS_SIZE, 0:CLS_SIZE].astype(np.float32) - (CLS_SIZE - 1) / 2


def streaks(n: int, rng: np.random.Generator, prob: float = 0.2) -> np.ndarray:
    """Light or dark bands across some crops (N x S x S x 1, normalised units): a reflection on
    a glossy face, a streak of marbling. A band is long and narrow, a pip is round, so the
    classifier learns to read past them (two dice-dev photos were misread for such a band)."""
    out = np.zeros((n, CLS_SIZE, CLS_SIZE, 1), np.float32)
    for i in np.nonzero(rng.random(n) < prob)[0]:
        a = rng.uniform(0, math.pi)
        off = rng.uniform(-0.35, 0.35) * CLS_SIZE
        width = rng.uniform(0.03, 0.12) * CLS_SIZE
        d = _XX * math.cos(a) + _YY * math.sin(a) - off
        along = -_XX * math.sin(a) + _YY * math.cos(a)
        length = rng.uniform(0.3, 1.0) * CLS_SIZE
        band = np.exp(-(d / width) ** 2) * (np.abs(along) < length / 2)
        out[i, :, :, 0] = band * rng.choice([-1.0, 1.0]) * rng.uniform(0.5, 1.8)
    return out


def hard_weights(X: np.ndarray, Y: np.ndarray, model_path: object, arch: str, boost: float,
                 below: float, chunk: int = 2048) -> np.ndarray:
    """How often each crop is drawn (summing to 1): a crop of which the classifier at
    ``model_path`` gives its label less than ``below`` (unsure of it, or wrong) ``boost`` times as
    often as the others. ``X``: N x S x S x 3 normalised crops (float16 or 32), ``Y``: labels."""
    if len(X) != len(Y) or not len(X):
        raise ValueError(f"hard_weights: {len(X)} crops and {len(Y)} labels")
    if boost < 1 or not 0 < below <= 1:
        raise ValueError(f"hard_weights: boost {boost} must be >= 1 and below {below} in (0, 1]")
    model = Cls(arch)
    load_onnx_cls(model, model_path, arch)  # type: ignore[arg-type]
    model.eval()
    p_label = np.empty(len(X), np.float32)
    with torch.no_grad():
        for a in range(0, len(X), chunk):
            x = torch.from_numpy(np.ascontiguousarray(X[a:a + chunk], np.float32)).permute(0, 3, 1, 2)
            p = torch.softmax(model(x), 1).numpy()
            p_label[a:a + chunk] = p[np.arange(len(p)), Y[a:a + chunk]]
    hard = p_label < below
    print(f"hard crops (label read under {below}): {int(hard.sum())} of {len(X)}, by class "
          f"{np.bincount(Y[hard], minlength=7).tolist()}", flush=True)
    w = np.where(hard, boost, 1.0)
    return w / w.sum()
