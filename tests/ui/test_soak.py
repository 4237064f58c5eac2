"""bench/soak.py: its verdict on made-up samples, and a few seconds of the real soak (the app
offscreen, the serial die on a pseudo-terminal, the camera worker on the demo feed)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.soak import Sample, slope_per_hour, verdict

ROOT = Path(__file__).resolve().parents[2]


def series(rss: list[float], threads: list[int] | None = None, fds: list[int] | None = None,
           every: float = 60.0) -> list[Sample]:
    n = len(rss)
    threads = threads or [14] * n
    fds = fds or [36] * n
    return [Sample(i * every, rss[i], threads[i], fds[i], float(i), 0.0, 10 * i, i) for i in range(n)]


def test_slope_is_megabytes_per_hour() -> None:
    assert slope_per_hour([(0.0, 100.0), (1800.0, 105.0), (3600.0, 110.0)]) == pytest.approx(10.0)
    assert slope_per_hour([(0.0, 100.0)]) == 0.0


def test_a_steady_process_passes_and_the_warmup_is_left_out() -> None:
    # fast growth during the first 5 minutes (caches filling), then a small wobble
    rss = [200.0, 300.0, 400.0, 450.0, 480.0] + [500.0 + (i % 3) * 0.5 for i in range(25)]
    v = verdict(series(rss), warmup_s=300.0)
    assert v.used == 25 and v.ok
    assert abs(v.growth_mb_h) < 2.0
    assert not verdict(series(rss), warmup_s=0.0).ok  # the warm-up counted: it looks like a leak


def test_growth_threads_or_descriptors_fail() -> None:
    leak = [500.0 + 0.2 * i for i in range(30)]  # 0.2 MB a minute = 12 MB an hour
    v = verdict(series(leak), warmup_s=0.0)
    assert v.growth_mb_h == pytest.approx(12.0) and not v.ok
    flat = [500.0] * 30
    more_threads = [14] * 15 + [15] * 15
    assert not verdict(series(flat, threads=more_threads), 0.0).threads_flat
    more_fds = [36 + i // 5 for i in range(30)]
    v = verdict(series(flat, fds=more_fds), 0.0)
    assert not v.fds_flat and v.threads_flat and not v.ok
    spike = [36] * 30
    spike[20] = 40  # a subprocess's pipes at one sample is no leak
    assert verdict(series(flat, fds=spike), 0.0).ok


@pytest.mark.slow
def test_a_short_soak_plays_and_measures(tmp_path: Path) -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", KIVY_HOME=str(tmp_path / "kivy"))
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "soak.py"), "--seconds", "14", "--sample-every", "1",
         "--warmup", "4", "--throw-every", "0.7", "--report-only"],
        capture_output=True, text=True, env=env, timeout=180, cwd=ROOT,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    text = out.stdout
    assert "Traceback" not in out.stderr, out.stderr[-3000:]
    m = re.search(r"(\d+) die throws sent, (\d+) applied from the serial die, (\d+) frames analysed", text)
    assert m, text
    sent, applied, frames = map(int, m.groups())
    assert applied >= 3 and applied <= sent  # the die's throws reached the game through the app
    # the camera worker analysed the demo feed; how many frames it gets through in these ten seconds
    # is the bench's figure (bench/soak.py), not this test's: at load 5 on two cores (session 28's
    # fresh-clone CI beside other work) it analysed 1, alone 3-6 (the tree before it too)
    assert frames >= 1
    samples = re.findall(
        r"t=\s*([\d.]+)s\s+RSS\s+([\d.]+) MB\s+malloc\s+([\d.]+) MB\s+threads\s+(\d+)\s+fds\s+(\d+)", text)
    assert len(samples) >= 4  # one a second, fewer when the machine is busy
    assert all(float(rss) > 50 and int(th) >= 3 and int(fd) >= 3 for _t, rss, _m, th, fd in samples)
    # drawn offscreen, every frame is finished (ui.application.finish_offscreen_frames): without
    # that, Mesa's llvmpipe kept the queued draws, 400 MB of malloc within the first 10 seconds
    worst = max(float(m) for _t, _rss, m, _th, _fd in samples)
    assert worst < 200, f"malloc in use reached {worst} MB:\n{text[-3000:]}"
    for what in ("RSS growth:", "malloc in use:", "threads:", "open fds:", "CPU per analysed frame:", "verdict:"):
        assert f"soak: {what}" in text


def test_an_evening_of_toasts_and_handler_errors_stays_bounded(window: object) -> None:
    # leaks the soak looks for: every toast and every failing handler used to be kept forever
    from ui.bridge import Bridge
    from ui.widgets.toast import HISTORY, Toast

    toast = Toast()
    for i in range(HISTORY * 3):
        toast.show(f"Die shows {i}: start a game first.")
    assert len(toast.history) == HISTORY and toast.history[-1] == f"Die shows {HISTORY * 3 - 1}: start a game first."

    bridge = Bridge()

    def bad(n: int) -> None:
        raise ValueError(f"bad bytes {n}")

    bridge.on("die", bad)
    for i in range(1000):
        bridge._deliver("die", (i,), {}, "serial-die")
    assert len(bridge.errors) == 200 and bridge.errors[-1] == "die: ValueError: bad bytes 999"
    assert len(bridge.delivered) == 200
