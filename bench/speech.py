"""How soon the companion starts talking: from a session action applied to the first audible sample.

    .venv/bin/python bench/speech.py [--game katenmuis] [--n 20] [--lang en] [--seed 1]

A real game on a temporary SQLite store, played with seeded random actions and throws; the app's
path: the session's listener narrates the effects and hands the first line to the speaker with
``interrupt=True`` (as ui.voice does). The timer starts just before ``Session.apply`` (so the
store's durable write is inside the figure) and stops when the real eSpeak NG library hands the
output its first sample louder than -40 dBFS (|sample| >= 328). The output writes WAV files (no
sound card needed); on a Pi with ``aplay`` the sound card's own buffer adds its latency on top
(ALSA's default period, typically 10-50 ms). Each measured sentence is waited out before the next
action, so every figure is a fresh sentence. Prints the median over ``--n`` sentences and the
machine it ran on.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.session import Session, SessionEvent  # noqa: E402
from companion.store import Store  # noqa: E402
from hardware.audio import WavFileOutput, _WavSink  # noqa: E402
from hardware.speech import Speaker  # noqa: E402

AUDIBLE = 328  # -40 dBFS of 16-bit full scale


class FirstSoundOutput(WavFileOutput):
    """WAV files, noting when the first audible sample of each sentence arrived."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.first_sound: float | None = None
        self.heard = threading.Event()

    def open(self, sample_rate: int) -> _WavSink:
        sink = super().open(sample_rate)
        write = sink.write

        def timed_write(samples: bytes) -> None:
            if self.first_sound is None:
                data = np.frombuffer(samples, dtype="<i2")
                if data.size and int(np.abs(data.astype(np.int32)).max()) >= AUDIBLE:
                    self.first_sound = time.perf_counter()
                    self.heard.set()
            write(samples)

        sink.write = timed_write  # type: ignore[method-assign]
        return sink


def machine() -> str:
    model = ""
    for path in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
        try:
            model = Path(path).read_text().strip("\0\n ")
            break
        except OSError:
            pass
    if not model:
        try:
            for line in Path("/proc/cpuinfo").read_text().splitlines():
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
        except OSError:
            pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{model or platform.processor() or 'unknown CPU'}, {platform.machine()}, {os.cpu_count()} CPUs, "
            f"load average {load}, Python {platform.python_version()}")


def run(game: str, n: int, lang: str, seed: int) -> list[float]:
    rng = random.Random(seed)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = FirstSoundOutput(Path(tmp) / "wav")
        store = Store.open(Path(tmp) / "bench.db")
        speaker = Speaker(output=out).start()
        assert speaker.wait_idle(10), "the voice did not start"
        if speaker.status.state != "ready":
            raise SystemExit(f"bench/speech.py: {speaker.status.describe()}")
        session = Session.start(store, game)

        def listener(event: SessionEvent) -> None:
            if event.kind != "applied":
                return
            for i, line in enumerate(session.narrate(event.effects)):
                speaker.say(line, interrupt=(i == 0), language=lang)

        session.subscribe(listener)
        tries = 0
        while len(times) < n:
            tries += 1
            if tries > 50 * n:
                raise SystemExit("bench/speech.py: the game gave too few sentences")
            if session.is_over():
                session = Session.start(store, game)
                session.subscribe(listener)
            state = session.state
            chance = state.chance_outcomes()
            if chance:
                action = rng.choices([a for a, _p in chance], weights=[float(p) for _a, p in chance])[0]
            else:
                action = rng.choice(state.legal_actions())
            out.first_sound = None
            out.heard.clear()
            t0 = time.perf_counter()
            session.apply(action, "bench")
            if out.heard.wait(5) and out.first_sound is not None:
                times.append(out.first_sound - t0)
            speaker.wait_idle(30)
        speaker.close()
        store.close()
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="katenmuis")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--lang", default="en", help="the voice (the narration itself is in the current language)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    times = run(args.game, args.n, args.lang, args.seed)
    ms = sorted(t * 1000 for t in times)
    print(f"machine: {machine()}")
    print(f"speech: {args.game}, voice {args.lang}, {len(ms)} sentences: action applied -> first audible sample "
          f"median {statistics.median(ms):.1f} ms, min {ms[0]:.1f} ms, max {ms[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
