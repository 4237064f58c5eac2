#!/usr/bin/env python3
"""Startup of the touchscreen app: seconds from launch to the first frame, and memory (RSS)
once it is up.

    .venv/bin/python bench/startup.py [--runs 3] [--size 800x480]

Each run starts a fresh Python process (``companion app --demo`` on a temporary database,
offscreen unless SDL_VIDEODRIVER says otherwise); the child reports when the window has
flipped its first frame and its resident memory a second later, then quits. The figure is
the wall time from spawning the process to that first frame (imports, Kivy, GL, screens).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def child(size: str, db: str) -> int:
    sys.path.insert(0, str(ROOT))
    from ui.app import configure, parse_size

    configure(parse_size(size))
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion.store import Store
    from ui.application import CompanionApp

    store = Store.open(db)
    app = CompanionApp(store=store, force_demo=True)
    report: dict[str, float] = {}

    def first_flip(*_: object) -> None:
        if "first_frame" not in report:
            report["first_frame"] = time.time()
            Clock.schedule_once(settle, 1.0)

    def settle(_dt: float) -> None:
        report["rss_mb"] = rss_mb()
        print(json.dumps(report), flush=True)
        app.stop()

    Window.bind(on_flip=first_flip)
    app.run()
    store.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time from launch to the first frame, and RSS after start.")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--size", default="800x480")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--db", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args.size, args.db)
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "offscreen")
    env.setdefault("KIVY_NO_ARGS", "1")
    env.setdefault("KIVY_NO_CONSOLELOG", "1")
    times, rss = [], []
    with tempfile.TemporaryDirectory() as tmp:
        env.setdefault("KIVY_HOME", str(Path(tmp) / "kivy"))
        for i in range(args.runs):
            db = str(Path(tmp) / f"bench{i}.db")
            t0 = time.time()
            out = subprocess.run(
                [sys.executable, __file__, "--child", "--size", args.size, "--db", db],
                capture_output=True, text=True, env=env, timeout=120,
            )
            lines = [ln for ln in out.stdout.splitlines() if ln.startswith("{")]
            if out.returncode != 0 or not lines:
                print(out.stdout[-2000:], out.stderr[-2000:], file=sys.stderr)
                return 1
            rep = json.loads(lines[-1])
            times.append(rep["first_frame"] - t0)
            rss.append(rep["rss_mb"])
            print(f"run {i + 1}: first frame after {times[-1]:.2f} s, RSS {rss[-1]:.0f} MB")
    print(f"startup to first frame: median {statistics.median(times):.2f} s (min {min(times):.2f}, "
          f"max {max(times):.2f}) over {len(times)} runs at {args.size}")
    print(f"memory after start (RSS): median {statistics.median(rss):.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
