#!/usr/bin/env python3
"""The cost of saving one move: milliseconds per ``Store.append_event`` (one committed,
synced transaction), for the store's rollback journal against the alternatives.

    .venv/bin/python bench/store.py [--moves 200] [--runs 5] [--dir FOLDER]

Modes: ``delete`` (the store's choice: ``journal_mode=DELETE``, ``synchronous=FULL``),
``truncate`` (``journal_mode=TRUNCATE``), ``wal`` (the former WAL; the moves stay in the
``-wal`` file) and ``wal+checkpoint`` (WAL and ``wal_checkpoint(TRUNCATE)`` after every move,
so the ``.db`` holds it too). Each run writes a fresh database in ``--dir`` (default: a
temporary folder under ``artifacts/``, on the disk the project lives on; a tmpfs would hide
the fsync cost). Prints the median over runs of each run's median per move.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODES = ("delete", "truncate", "wal", "wal+checkpoint")


def one_run(folder: Path, mode: str, moves: int) -> float:
    sys.path.insert(0, str(ROOT))
    from companion.store import Store

    with Store.open(folder / f"{mode}.db") as store:
        conn = store._conn  # the bench switches the journal the store chose; never done in the app
        if mode != "delete":
            conn.execute(f"PRAGMA journal_mode = {mode.split('+')[0].upper()}")
        gid = store.create_game("katenmuis", {}, {"cat": "A", "mouse": "B"})
        times = []
        for i in range(moves):
            t0 = time.perf_counter()
            store.append_event(gid, "action", {"throw": i % 6 + 1}, "touch")
            if mode == "wal+checkpoint":
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    base = args.dir or ROOT / "artifacts"
    base.mkdir(parents=True, exist_ok=True)
    results: dict[str, list[float]] = {m: [] for m in MODES}
    for _ in range(args.runs):
        for mode in MODES:
            with tempfile.TemporaryDirectory(dir=base) as tmp:
                results[mode].append(one_run(Path(tmp), mode, args.moves))
    print(f"ms per saved move (median of {args.runs} runs x {args.moves} moves, in {base}):")
    for mode, values in results.items():
        print(f"  {mode:<15} {statistics.median(values):7.2f}   runs: {', '.join(f'{v:.2f}' for v in values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
