"""Every scene's reading of a 3-D scene set, kept to compare two versions of the reader scene by
scene, and the reader's CPU time per read (deterministic reads, one core).

    .venv/bin/python bench/board_reads.py dump DIR OUT.json [--games qubism] [--repeat 3] [--confirmed]
    .venv/bin/python bench/board_reads.py same A.json B.json

``dump`` reads the groups of ``--games`` of a set written by ``bench/board.py`` (a group's
learned start first, as the bench does) and writes each scene's squares (token, confidence to 9
places) and the process CPU time of ``BoardReader.read`` after each group's first read (the least
of ``--repeat`` reads of the same frame: on a shared machine the wall clock and a single read
mislead; CPU time and the least of a few keep most of the noise out). Run it from the root of
the tree whose reader it measures (that tree's code is imported). ``--confirmed``: each Chop! Chop!
scene after a group's first read is read knowing the position of the scene before it, as
``bench/board.py --confirmed``. ``same`` says whether two dumps
read every scene alike, and lists the scenes that differ.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, os.getcwd())  # the tree it is run from

import cv2  # noqa: E402
import numpy as np  # noqa: E402


def dump(root: Path, games: list[str], repeat: int, confirmed: bool = False) -> dict[str, Any]:
    from vision.boarddefaults import board_for
    from vision.imageload import load_image
    from vision.pieces import BoardReader, PieceError

    cv2.setNumThreads(1)
    scenes = json.loads((root / "labels.json").read_text())["scenes"]
    groups: dict[str, list[dict[str, Any]]] = {}
    for sc in scenes:
        groups.setdefault(str(sc.get("group", sc["board"])), []).append(sc)
    out: dict[str, Any] = {"scenes": {}, "cpu_ms": []}
    for members in groups.values():
        if members[0]["board"] not in games:
            continue
        reader = BoardReader(board_for(str(members[0]["board"])))
        learners = [sc for sc in members if sc.get("learn")] or members[:1]
        for sc in learners:
            try:
                reader.learn(load_image(root / str(sc["file"])).image, dict(sc["squares"]))
            except PieceError:
                pass  # read with built-in looks, as the bench does
        first = True
        for sc in members:
            if sc in learners:
                continue
            image = load_image(root / str(sc["file"])).image
            spent = []
            for _ in range(max(1, repeat)):
                t0 = time.process_time()
                reading = reader.read(image, track=False)
                spent.append((time.process_time() - t0) * 1000)
            if not first:
                out["cpu_ms"].append(min(spent))
            first = False
            out["scenes"][str(sc["file"])] = ({k: [t, round(float(c), 9)] for k, (t, c) in sorted(reading.squares.items())}
                                              if reading.found else None)
            if confirmed and reader.board.game == "chopchop":  # as bench/board.py --confirmed
                reader.confirmed = dict(sc["squares"])
    out["median_cpu_ms"] = float(np.median(out["cpu_ms"])) if out["cpu_ms"] else None
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="read a set's scenes, keep every reading and the CPU time per read")
    d.add_argument("dir")
    d.add_argument("out")
    d.add_argument("--games", default="qubism", help="comma-separated games to read (default: qubism)")
    d.add_argument("--repeat", type=int, default=3, help="reads of each frame, the least CPU time kept")
    d.add_argument("--confirmed", action="store_true",
                   help="Chop! Chop!: read each scene knowing the position of the scene before it (as bench/board.py)")
    s = sub.add_parser("same", help="do two dumps read every scene alike?")
    s.add_argument("a")
    s.add_argument("b")
    args = ap.parse_args()
    if args.cmd == "dump":
        root = Path(args.dir)
        if not (root / "labels.json").exists():
            print(f"{root} holds no labels.json: write the set with bench/board.py first", file=sys.stderr)
            return 2
        r = dump(root, args.games.split(","), args.repeat, args.confirmed)
        Path(args.out).write_text(json.dumps(r, sort_keys=True))
        print(f"{root}: {len(r['scenes'])} scenes read; median CPU ms per read after each group's first: "
              f"{r['median_cpu_ms']}")
        return 0
    a, b = (json.loads(Path(p).read_text()) for p in (args.a, args.b))
    differ = sorted(f for f in set(a["scenes"]) | set(b["scenes"]) if a["scenes"].get(f) != b["scenes"].get(f))
    print(f"{len(a['scenes'])} and {len(b['scenes'])} scenes; reading differently: {len(differ)}"
          + (f" ({', '.join(differ[:20])})" if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
