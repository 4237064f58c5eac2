"""Qubism's cubes and their arrows in a 3-D scene set: the bench's reading loop (each group's
start learned, the other scenes read, occluded squares left out) for the Qubism groups alone,
printing cubes, read with the right arrow, asked (``cube:?``), a wrong arrow, missed (read empty or
as a pawn), false cubes, Qubism's squares right (%) and the median CPU ms per read; ``OUT.json``
keeps every cube's truth and read (with the scene's arrow style, cube material, tilt and light).
Run it from the root of the tree whose reader it measures (that tree's code is imported).

    .venv/bin/python bench/qubism_arrows.py /tmp/s19/lead-c-4201 /tmp/out.json
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, os.getcwd())  # the tree it is run from

import cv2  # noqa: E402


def main(root: Path, out: Path) -> dict[str, Any]:
    from vision.boarddefaults import board_for
    from vision.imageload import load_image
    from vision.pieces import BoardReader, PieceError, comparable

    cv2.setNumThreads(1)
    scenes = [s for s in json.loads((root / "labels.json").read_text())["scenes"] if s["board"] == "qubism"]
    groups: dict[str, list[dict[str, Any]]] = {}
    for sc in scenes:
        groups.setdefault(str(sc["group"]), []).append(sc)
    recs: list[dict[str, Any]] = []
    n = dict(cubes=0, right=0, asked=0, wrong=0, missed=0, false=0, squares=0, sq_right=0, scenes=0, found=0)
    ms: list[float] = []
    board = board_for("qubism")
    for members in groups.values():
        learners = [s for s in members if s.get("learn")] or members[:1]
        reader = BoardReader(board)
        for sc in learners:
            try:
                reader.learn(load_image(root / sc["file"]).image, dict(sc["squares"]))
            except PieceError:
                pass  # board not found there: the group is read with built-in looks
        for sc in members:
            if sc in learners:
                continue
            img = load_image(root / sc["file"]).image
            t0 = time.process_time()
            reading = reader.read(img, track=False)
            ms.append((time.process_time() - t0) * 1000)
            n["scenes"] += 1
            n["found"] += bool(reading.found)
            truth = comparable(board, dict(sc["squares"]))
            spots = reader.read_spots(reading) if reading.found else {}
            for sid in reader.observable:
                if sid in set(sc.get("occluded", ())):
                    continue
                want, got = truth.get(sid), spots.get(sid) if reading.found else "?"
                n["squares"] += 1
                n["sq_right"] += want == got
                if not (str(want).startswith("cube") or str(got).startswith("cube")):
                    continue
                pieces = sc.get("pieces", {})
                recs.append(dict(file=sc["file"], spot=sid, want=want, got=got, style=pieces.get("arrow_style"),
                                 material=pieces.get("cube_material"), tilt=sc.get("camera", {}).get("tilt_deg"),
                                 light=sc.get("light", {}).get("kind")))
                if not str(want).startswith("cube"):
                    n["false"] += 1
                    continue
                n["cubes"] += 1
                kind = ("right" if got == want else "asked" if got == "cube:?" else
                        "wrong" if str(got).startswith("cube") else "missed")
                n[kind] += 1
    ms.sort()
    summary: dict[str, Any] = {**n, "squares_pct": round(100 * n["sq_right"] / max(n["squares"], 1), 2),
                               "cpu_ms_median": round(ms[len(ms) // 2], 1) if ms else 0.0}
    out.write_text(json.dumps({"summary": summary, "cubes": recs}, indent=0))
    return summary


if __name__ == "__main__":
    print(sys.argv[1], json.dumps(main(Path(sys.argv[1]), Path(sys.argv[2]))))
