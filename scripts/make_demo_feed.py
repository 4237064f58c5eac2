#!/usr/bin/env python3
"""Make the camera screen's demo feed: ui/assets/demo_feed/*.jpg (synthetic, small).

    .venv/bin/python scripts/make_demo_feed.py [--seed 4] [--throw N] [--out ui/assets/demo_feed]

The bundled feed is ``--seed 4 --throw 3`` (two dice, 3 and 6, on a plain table).

Frames, in order: a few views of the Kat en Muis board with both counters (rendered by
vision.synth.board: ArUco markers visible, so board calibration finds it), then a throw of two
dice tumbling in and resting (vision.synth.dice.render_throw, subsampled). Everything is
synthetic; labels.json records what each frame shows. The folder stays well under 3 MB.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.boards import load_board  # noqa: E402
from vision.synth import board as synth_board  # noqa: E402
from vision.synth import dice as synth_dice  # noqa: E402

WIDTH = 640


def _small(img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    scale = WIDTH / w
    return cv2.resize(img, (WIDTH, int(round(h * scale))), interpolation=cv2.INTER_AREA)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--out", type=Path, default=ROOT / "ui" / "assets" / "demo_feed")
    ap.add_argument("--board-frames", type=int, default=4)
    ap.add_argument("--throw", type=int, default=None,
                    help="use the N-th rendered throw (0 = first) instead of the first the reader reads")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    labels: list[dict[str, object]] = []
    board = load_board("katenmuis")
    look = synth_board.random_look(board, rng)
    position = {"7": "cat", "52": "mouse"}
    i = 0
    for _ in range(args.board_frames):
        scene = synth_board.render_scene(board, position, look, rng, clean=True)
        name = f"{i:03d}.jpg"
        cv2.imwrite(str(out / name), _small(scene.image), [cv2.IMWRITE_JPEG_QUALITY, 72])
        labels.append({"file": name, "kind": "board", "board": "katenmuis", "squares": scene.squares})
        i += 1
    params = synth_dice.SceneParams(
        width=640, height=480, n_dice=(2, 2), die_px=(60, 70), tilt_deg=(0, 10), blur_sigma=(0, 0.4),
        noise_sigma=(1.0, 2.0), jpeg_quality=(100, 100),
    )
    # a throw the dice reader reads cleanly at rest (the demo shows the reader working; the
    # low-confidence path shows on the tumbling frames), trying a few throws in turn
    from vision.dice import read_dice

    for attempt in range(30):
        frames, final = synth_dice.render_throw(rng, params, fps=6.0, roll_s=1.0, hand_s=0.5, rest_s=2.0)
        values = [d["value"] for d in final.get("dice", [])]
        if args.throw is not None:
            if attempt == args.throw:
                break
            continue
        try:
            seen = read_dice(frames[-1][1])
        except Exception as exc:  # no trained model yet: keep this throw
            print(f"note: the dice reader is not usable ({type(exc).__name__}); not checking the throw")
            break
        if sorted(d.value or 0 for d in seen) == sorted(values):
            break
    for k, (_t, frame) in enumerate(frames):
        name = f"{i:03d}.jpg"
        cv2.imwrite(str(out / name), _small(frame), [cv2.IMWRITE_JPEG_QUALITY, 72])
        resting = k >= len(frames) - int(2.0 * 6)
        labels.append({"file": name, "kind": "dice", "resting": resting, "values": values if resting else None,
                       "dice": [{"value": d["value"], "box": d["box"]} for d in final["dice"]] if resting else None})
        i += 1
    (out / "labels.json").write_text(json.dumps(labels, indent=1) + "\n")
    size = sum(p.stat().st_size for p in out.iterdir())
    print(f"{i} frames, {size / 1e6:.2f} MB in {out.relative_to(ROOT)}; dice at rest: {values}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
