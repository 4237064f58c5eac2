"""Instructions of the board reader's reads alone, counted by callgrind (issue 31's "no read slower").

    .venv/bin/python bench/qubism_instructions.py SET [--reads 12] [--tree TREE] [--out CG.out]

Runs itself under ``valgrind --tool=callgrind --instr-atstart=no`` from ``TREE`` (default: the
current folder; that tree's ``vision`` is imported, this script's python is used): it loads every
frame of the 3-D scene set ``SET`` (written by ``bench/board.py``) in the groups it reads, learns
each such group's start as ``bench/board.py`` does (a fresh ``BoardReader`` per group, its learned
scenes first), switches callgrind's instrumentation on (``callgrind_control --instr=on``), reads
the first ``--reads`` scenes that are not learned, in the set's order (``read(image, track=False)``,
as the bench), and switches it off: only the reads (and the two switches' fork and wait, alike in
every tree) are counted; no image decoding, no imports, no learning. Prints the total and the total
over the reads in M
instructions. Deterministic for a tree and a set (``cv2.setNumThreads(1)``, one thread for BLAS).
``callgrind_annotate --inclusive=yes CG.out`` shows where they go.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402


def inside(root: Path, reads: int) -> int:
    """Run under callgrind: learn the groups read, then the first ``reads`` reads, counted."""
    sys.path.insert(0, os.getcwd())  # the tree it is run from
    import cv2

    from vision.boarddefaults import board_for
    from vision.imageload import load_image
    from vision.pieces import BoardReader, PieceError

    cv2.setNumThreads(1)
    scenes = json.loads((root / "labels.json").read_text())["scenes"]
    groups: dict[str, list[dict[str, Any]]] = {}
    for sc in scenes:
        groups.setdefault(str(sc.get("group", sc["board"])), []).append(sc)
    todo: list[tuple[Any, Any, str]] = []
    for members in groups.values():
        if len(todo) >= reads:
            break  # the groups read (each its own reader): the others are not learned
        reader = BoardReader(board_for(str(members[0]["board"])))
        learners = [sc for sc in members if sc.get("learn")] or members[:1]
        for sc in learners:
            try:
                reader.learn(load_image(root / str(sc["file"])).image, dict(sc["squares"]))
            except PieceError:
                pass  # read with built-in looks, as the bench does
        todo += [(reader, load_image(root / str(sc["file"])).image, str(sc["file"]))
                 for sc in members if sc not in learners]
    # callgrind's instrumentation (and so its counting) on for the reads alone: off before (imports,
    # decoding, learning run several times faster) and after; what the two switches cost (a fork
    # and a wait) is alike in every tree
    switch = ["callgrind_control", "--instr=on", str(os.getpid())]
    subprocess.run(switch, check=True, capture_output=True)
    found = 0
    for reader, image, _name in todo[:reads]:
        found += bool(reader.read(image, track=False).found)
    switch[1] = "--instr=off"
    subprocess.run(switch, check=True, capture_output=True)
    print(f"reads {min(reads, len(todo))}, boards found {found}", file=sys.stderr)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set", type=Path, help="a scene set written by bench/board.py (holds labels.json)")
    ap.add_argument("--reads", type=int, default=12)
    ap.add_argument("--tree", type=Path, default=Path.cwd(), help="the tree whose reader is counted")
    ap.add_argument("--out", type=Path, default=None, help="keep callgrind's output here")
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    root = args.set.resolve()
    if args.inside:
        return inside(root, args.reads)
    with tempfile.TemporaryDirectory() as tmp:
        out = (args.out or Path(tmp) / "callgrind.out").resolve()
        cmd = ["valgrind", "--tool=callgrind", "--cache-sim=no", "--branch-sim=no", "--instr-atstart=no",
               f"--callgrind-out-file={out}",
               sys.executable, str(Path(__file__).resolve()), str(root), "--reads", str(args.reads),
               "--inside"]
        run = subprocess.run(cmd, cwd=args.tree, capture_output=True, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stderr[-4000:])
            return run.returncode
        total = totals(out)
    print(f"tree {args.tree.resolve()}  set {root}  reads {args.reads}")
    print(f"instructions {total / 1e6:,.2f} M  ({total / 1e6 / max(1, args.reads):,.2f} M a read)")
    return 0


def totals(out: Path) -> int:
    """The collected instructions of a callgrind output file (its ``totals:`` or ``summary:`` line)."""
    text = out.read_text(errors="replace")
    m = re.search(r"^totals:\s+(\d+)", text, re.M) or re.search(r"^summary:\s+(\d+)", text, re.M)
    if m is None:
        raise SystemExit(f"no totals in {out}")
    return int(m.group(1))


if __name__ == "__main__":
    raise SystemExit(main())
