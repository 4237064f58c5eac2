"""Bench the dice reader: accuracy and median time per frame, one thread.

    .venv/bin/python bench/dice.py [--synth-n 100] [--seed 7] [--dataset ../shared/datasets/dice-dev]

Prints the figures of ``companion dice eval`` on dice-dev's test split and on synthetic sets
rendered deterministically from the seed: "mixed" (wide variation: colours, tilt up to 45
degrees, busy backgrounds, blur, noise, shadows, touching dice; 640x640), "close" (a close
camera: 1-3 dice of 110-200 px, a fifth to a third of the frame) and "wide" (a camera over the
whole table: 1280x960 frames, dice of 24-40 px). Only "mixed" is at the size the 15 ms bar is
about; the other two show how the reader copes with cameras unlike dice-dev's.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from vision import synth_dice  # noqa: E402
from vision.cli import evaluate  # noqa: E402


def show(fig: dict) -> None:
    print(f"{fig['dataset']} [{fig['split']}]: {fig['images']} images, {fig['dice']} dice")
    for k in ("detect_recall", "value_recall", "precision", "images_fully_right"):
        print(f"  {k:20s} {fig[k]:.4f}")
    print(f"  unreadable {fig['unreadable']}, extra predictions {fig['extra_predictions']}")
    print(f"  median ms/frame      {fig['median_ms']:.2f} wall (p90 {fig['p90_ms']:.2f}), {fig['median_cpu_ms']:.2f} CPU")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default=str(ROOT.parent / "shared" / "datasets" / "dice-dev"))
    ap.add_argument("--synth-n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    results = []
    if (Path(a.dataset) / "labels.json").is_file():
        results.append(evaluate(Path(a.dataset), "test")[0])
    else:
        print(f"(no {a.dataset}: skipped)")
    sets = {
        "mixed": (a.synth_n, synth_dice.SceneParams()),
        "close": (max(10, a.synth_n // 2), synth_dice.SceneParams(n_dice=(1, 3), die_px=(110.0, 200.0))),
        "wide": (max(10, a.synth_n // 2), synth_dice.SceneParams(width=1280, height=960, n_dice=(2, 8),
                                                                   die_px=(24.0, 40.0), blur_sigma=(0.0, 0.6))),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for k, (name, (n, params)) in enumerate(sets.items()):
            ds = synth_dice.write_dataset(Path(tmp) / name, n, seed=a.seed + 100 * k, params=params)
            fig = evaluate(ds, "test")[0]
            fig["dataset"] = f"synthetic {name} seed={a.seed + 100 * k}"
            results.append(fig)
    for fig in results:
        print(json.dumps(fig)) if a.json else show(fig)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
