"""The CPU time of Qubism's own stage (``CubeSpots._settle_cubes``) in whole reads of a 3-D scene
set: per frame the least of 5 reads, then the median and the mean over frames (ms). Run it from
the root of the tree whose reader it measures (that tree's code is imported); alternate trees.

    .venv/bin/python bench/qubism_settle_ms.py /tmp/s3d/bench/3d-2026
"""
import os, sys, json, time
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.getcwd())
import cv2, numpy as np
from pathlib import Path
cv2.setNumThreads(1)
import vision.piece_cubes as pc
T = []
f = pc.CubeSpots._settle_cubes
def w(*a, **k):
    t = time.process_time(); r = f(*a, **k); T.append(time.process_time() - t); return r
pc.CubeSpots._settle_cubes = w
from vision.boarddefaults import board_for
from vision.imageload import load_image
from vision.pieces import BoardReader, PieceError
root = Path(sys.argv[1])
scenes = json.loads((root / "labels.json").read_text())["scenes"]
groups = {}
for sc in scenes: groups.setdefault(str(sc.get("group", sc["board"])), []).append(sc)
work = []
for members in groups.values():
    if members[0]["board"] != "qubism": continue
    reader = BoardReader(board_for("qubism"))
    learners = [sc for sc in members if sc.get("learn")] or members[:1]
    for sc in learners:
        try: reader.learn(load_image(root / str(sc["file"])).image, dict(sc["squares"]))
        except PieceError: pass
    for sc in members:
        if sc in learners: continue
        work.append((reader, load_image(root / str(sc["file"])).image))
per = []
for r, im in work:
    ts = []
    for _ in range(5):
        T.clear(); r.read(im, track=False); ts.append(sum(T))
    per.append(min(ts))
print(f"{np.median(per)*1000:.2f} {np.sum(per)*1000/len(per):.2f}")
