"""Where the dice reader's time goes: each stage's CPU ms per photo, one thread.

    .venv/bin/python bench/dice_stages.py LABELS_JSON [--cls M1,M2] [--n 40] [--reps 3]

Reads the first ``--n`` photos of a set (its ``labels.json``; the held-out train photos of
``scripts/train_dice.py --val-out``, or ``../shared/datasets/dice-dev/labels.json``) with the
shipped reader (``--cls``: another full pair) ``--reps`` times each and keeps each photo's quickest
read. It times the detector per input size, the crops, the quick classifier, the full pair, the
second look and the die's colour (``vision.dice``'s functions wrapped), the rest by difference, and
prints each stage's mean and median ms per photo, its share and on how many photos it ran
(issue 29's twentieth round, docs/readme/dice.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import dice as D  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("labels")
    ap.add_argument("--cls", default="", help="another full pair (comma-separated ONNX files)")
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    cv2.setNumThreads(1)
    cfg = D.DiceConfig()
    if a.cls:
        cfg = replace(cfg, cls_models=tuple((Path(p), D.CROP_GROW) for p in a.cls.split(",")))
    role = {str(p): "full pair" for p, _ in cfg.cls_models}
    if cfg.cls_fast is not None:
        role[str(cfg.cls_fast[0])] = "quick classifier"
    if cfg.second is not None:
        role.update({str(p): "second look" for p in cfg.second.paths})
    acc: dict[str, float] = {}

    def timed(name_of: Callable[..., str], f: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any, **kw: Any) -> Any:
            t = time.process_time()
            out = f(*args, **kw)
            name = name_of(*args)
            acc[name] = acc.get(name, 0.0) + time.process_time() - t
            return out
        return wrapped

    D._detect_at = timed(lambda img, size, c: f"detector at {size}", D._detect_at)
    D.read_crops = timed(lambda p, c: role.get(str(p), str(p)), D.read_crops)
    D._crops = timed(lambda *x: "crops", D._crops)
    D.die_body = timed(lambda *x: "die colour", D.die_body)
    root = Path(a.labels).parent
    images: list[np.ndarray] = []
    for e in json.loads(Path(a.labels).read_text())["images"][:a.n]:
        p = Path(e["file"])
        img = cv2.imread(str(p if p.is_absolute() else root / p))
        if img is not None:
            images.append(img)
    D.warm_up(cfg)
    D.read_dice(images[0], cfg)
    totals, stages = [], []
    for img in images:
        best: tuple[float, dict[str, float]] | None = None
        for _ in range(a.reps):
            acc.clear()
            t = time.process_time()
            D.read_dice(img, cfg)
            took = time.process_time() - t
            if best is None or took < best[0]:
                best = (took, dict(acc))
        assert best is not None
        totals.append(best[0] * 1000)
        stages.append(best[1])
    tot = np.array(totals)
    print(f"{len(images)} photos of {a.labels}, full pair {a.cls or 'shipped'}: the least CPU ms of {a.reps} reads each")
    print(f"total: median {np.median(tot):.2f}, mean {tot.mean():.2f}")
    rest = tot.copy()
    for k in sorted(set().union(*stages)):
        v = np.array([s.get(k, 0.0) * 1000 for s in stages])
        rest -= v
        print(f"  {k:17s} mean {v.mean():6.2f}  median {np.median(v):6.2f}  share {v.sum() / tot.sum():5.1%}"
              f"  photos {int((v > 0).sum())}")
    print(f"  {'rest':17s} mean {rest.mean():6.2f}  median {np.median(rest):6.2f}  share {rest.sum() / tot.sum():5.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
