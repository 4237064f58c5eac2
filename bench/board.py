"""Benchmark of board reading on synthetic scenes (deterministic).

    .venv/bin/python bench/board.py [--count 520] [--seed 2026] [--dir DIR]

Writes ``count`` scenes across the four boards (about a quarter with one marker hidden by a hand
or an object), then reads them on one core (cv2.setNumThreads(1)) and prints the board-found
rate (all, and with a hidden marker), per-square accuracy and median ms per 1280x720 frame.
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

from vision.synth_board import evaluate_dir, write_dataset  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=520)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--dir", default="")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    root = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="board-bench-"))
    t0 = time.perf_counter()
    if not (root / "labels.json").exists():
        write_dataset(root, args.count, seed=args.seed)
    t1 = time.perf_counter()
    r = evaluate_dir(root, threads=1)
    t2 = time.perf_counter()
    print(f"scenes: {args.count} written to {root} in {t1 - t0:.0f} s; {r['scenes']} scored "
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
