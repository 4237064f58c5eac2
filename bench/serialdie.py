"""Figures for the serial die: parser speed, pty latency, time to resume after a replug.

    .venv/bin/python bench/serialdie.py
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.protocol import Decoder, Expected  # noqa: E402
from hardware.serialdie import CONNECTED, SerialDie  # noqa: E402
from hardware.virtualdie import VirtualDie  # noqa: E402


def parser_speed(n: int = 100_000) -> float:
    dec = Decoder(Expected.for_game("katenmuis"))
    data = b"".join(b"ROLL %d %d\r\n" % (i % 6 + 1, (i // 6) % 6 + 1) for i in range(n))
    t = time.perf_counter()
    for i in range(0, len(data), 64):
        dec.feed(data[i:i + 64])
    return n / (time.perf_counter() - t)


def latency(n: int = 200) -> list[float]:
    got = threading.Event()
    out: list[float] = []
    with tempfile.TemporaryDirectory() as d, VirtualDie(link=Path(d) / "die", hello=False) as vd:
        connected = threading.Event()
        die = SerialDie(vd.port, expected=Expected.for_game("katenmuis"), on_throw=lambda t: got.set(),
                        on_state=lambda s: connected.set() if s.status == CONNECTED else None)
        with die:
            connected.wait(5)
            for _ in range(n):
                got.clear()
                t = time.perf_counter()
                vd.send("ROLL 3 4")
                got.wait(2)
                out.append(time.perf_counter() - t)
    return out


def replug(trials: int = 5) -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as d:
        link = Path(d) / "die"
        vd = VirtualDie(link=link, hello=False).start()
        states: list[str] = []
        die = SerialDie(str(link), on_state=lambda s: states.append(s.status))
        with die:
            for _ in range(trials):
                while die.state.status != CONNECTED:
                    time.sleep(0.005)
                vd.stop()
                while die.state.status == CONNECTED:
                    time.sleep(0.005)
                time.sleep(0.3)
                t = time.perf_counter()
                vd = VirtualDie(link=link, hello=False).start()
                while die.state.status != CONNECTED:
                    time.sleep(0.005)
                times.append(time.perf_counter() - t)
        vd.stop()
    return times


def main() -> None:
    print(f"machine: {os.cpu_count()} cores, {sys.platform}")
    print(f"parser: {parser_speed():,.0f} lines/s (katenmuis, fed in 64-byte reads)")
    lat = sorted(latency())
    print(f"pty write -> on_throw: median {statistics.median(lat) * 1000:.2f} ms, "
          f"p95 {lat[int(len(lat) * 0.95)] * 1000:.2f} ms, max {lat[-1] * 1000:.2f} ms (200 throws)")
    rp = replug()
    print(f"replug -> connected: mean {statistics.mean(rp):.2f} s, max {max(rp):.2f} s "
          f"({len(rp)} replugs, retry every 0.5 s)")


if __name__ == "__main__":
    main()
