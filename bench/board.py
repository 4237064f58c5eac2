"""Benchmark of board reading on synthetic scenes of two independent renderers (deterministic).

    .venv/bin/python bench/board.py [--count 520] [--seed 2026] [--renderer main|alt|both]
                                    [--dir DIR] [--alt-dir DIR]

Writes ``count`` scenes across the four boards with each renderer (``vision.synth.board``, and
the independent ``vision.synth.board_alt`` with other piece shapes, camera, light and
occluders; about a quarter of the scenes with one marker hidden), then reads them on one core
(cv2.setNumThreads(1), OPENBLAS_NUM_THREADS=1) and prints, per renderer, the board-found rate
(all, and with a hidden marker), per-square accuracy (all and per board) and the median ms per
1280x720 frame. A directory that already holds labels.json is reused, not rewritten.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402

from vision.synth.board_scenes import evaluate_dir, write_dataset  # noqa: E402
from vision.synth.board_alt import write_alt_dataset  # noqa: E402


def run(renderer: str, root: Path, count: int, seed: int) -> None:
    t0 = time.perf_counter()
    if not (root / "labels.json").exists():
        (write_alt_dataset if renderer == "alt" else write_dataset)(root, count, seed=seed)
    t1 = time.perf_counter()
    r = evaluate_dir(root, threads=1)
    t2 = time.perf_counter()
    print(f"== renderer {renderer}: {root} (written in {t1 - t0:.0f} s); {r['scenes']} scenes scored "
          "(one reference scene per group of 25 teaches the piece looks)")
    print(f"board found: {r['found_rate'] * 100:.2f}%  (scenes with a hidden marker: "
          f"{r['found_rate_hidden'] * 100:.2f}% of {r['scenes_hidden']})")
    print(f"per-square accuracy: {r['square_accuracy'] * 100:.3f}% of {r['squares']} squares")
    for game, g in sorted(r["per_game"].items()):
        print(f"  {game:<10} found {g['found_rate'] * 100:6.2f}%  squares {g['square_accuracy'] * 100:7.3f}%"
              f"  ({g['scenes']} scenes)")
    print(f"median ms per 1280x720 frame (locate + read, one core): {r['median_ms']:.1f}")
    common = Counter((m["want"], m["got"]) for m in r["mistakes"]).most_common(8)
    print("most common mistakes (truth -> read):", ", ".join(f"{a}->{b} x{n}" for (a, b), n in common))
    print(f"evaluation took {t2 - t1:.0f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--count", type=int, default=520)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--renderer", default="both", choices=["main", "alt", "both"])
    ap.add_argument("--dir", default="", help="scene folder of the main renderer")
    ap.add_argument("--alt-dir", default="", help="scene folder of the alt renderer")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    for renderer in (["main", "alt"] if args.renderer == "both" else [args.renderer]):
        given = args.alt_dir if renderer == "alt" else args.dir
        root = Path(given) if given else Path(tempfile.mkdtemp(prefix=f"board-bench-{renderer}-"))
        run(renderer, root, args.count, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
