"""How long the full Kat en Muis odds table takes, and how fast a lookup is.

Builds the table (17,424 positions: both squares, whose throw, the lost-turn flag) from scratch
for both ``shortcut_from`` settings, best of ``--repeat`` runs each, and prints the largest
Bellman residual; then times lookups from random positions (what the terminal and the UI do
after every throw). Single-threaded.

    .venv/bin/python bench/odds.py [--repeat 3] [--lookups 100000]
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from companion.odds import N_POSITIONS, OddsTable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lookups", type=int, default=100_000)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, python {platform.python_version()}, positions per table: {N_POSITIONS}")
    tables = {}
    total_best = 0.0
    for setting in ("reached", "strictly_past"):
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            tables[setting] = OddsTable(setting)
            times.append(time.perf_counter() - t0)
        total_best += min(times)
        t = tables[setting]
        print(
            f"table shortcut_from={setting:<13}: best {min(times):.3f} s of {args.repeat} "
            f"(residual {t.residual:.1e}); Cat wins from the start {t.cat_wins():.12f}"
        )
    print(f"both tables: {total_best:.3f} s")
    rng = random.Random(1)
    t = tables["reached"]
    keys = [
        (rng.randrange(66), rng.randrange(66), rng.choice(("cat", "mouse")), rng.random() < 0.2, rng.random() < 0.2)
        for _ in range(args.lookups)
    ]
    t0 = time.perf_counter()
    for k in keys:
        t.odds(*k)
    dt = time.perf_counter() - t0
    print(f"lookup (odds(), win chance + expected chips): {1e6 * dt / len(keys):.2f} µs each over {len(keys)}")


if __name__ == "__main__":
    main()
