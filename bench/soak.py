#!/usr/bin/env python3
"""A whole evening in minutes: the real app, offscreen, playing Kat en Muis with the camera
worker analysing the looping demo feed and a serial die throwing every few seconds.

    nice .venv/bin/python bench/soak.py --minutes 30

It starts :class:`ui.application.CompanionApp` with ``app.run()`` (SDL offscreen unless
SDL_VIDEODRIVER says otherwise) on a temporary database. The die is
:class:`hardware.virtualdie.VirtualDie`, a real pseudo-terminal speaking the die protocol; its
path is saved as the serial port, so the app finds it and reads it with
``hardware.serialdie.SerialDie`` as it would a USB die. The camera setting is "Demo feed", so the
camera worker (``ui.camwatch``) reads the bundled feed (``ui/assets/demo_feed``, looping) and
analyses every frame it may (``max_fps``). Every accepted throw is applied to the game; a
finished game is followed by a new one.

Every ``--sample-every`` seconds it records the process's resident memory (RSS), its threads and
open file descriptors, its CPU time and the camera worker's, and the frames analysed. At the end
it prints RSS at start and end, RSS growth per hour (a least-squares line through the samples
after ``--warmup``), the threads and descriptors, and CPU time per analysed frame. Exit status:
0 when growth is below ``--max-growth`` MB/hour (10) and threads and descriptors stayed flat
(the median of the second half of the samples after warm-up no higher than that of the first
half); 1 when not; 2 when the soak did not exercise the app (no frame analysed, no throw
applied). ``--report-only`` prints the verdict but exits 0 unless that machinery failed.
"""

from __future__ import annotations

import argparse
import ctypes
import math
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GAME = "katenmuis"
SEATS = {"cat": "Anna", "mouse": "Ben"}


@dataclass(frozen=True)
class Sample:
    t: float  # seconds since the app started
    rss_mb: float
    threads: int  # native threads of the process (/proc/self/status)
    fds: int
    cpu_s: float  # process CPU time, user + system
    worker_cpu_s: float  # CPU time of the camera worker threads so far
    analysed: int  # frames the camera worker analysed so far
    throws: int  # serial throws applied so far
    ui_cpu_s: float = 0.0  # CPU time of the UI (main) thread
    malloc_mb: float = float("nan")  # bytes malloc has handed out and not got back (glibc), MB


@dataclass(frozen=True)
class Verdict:
    growth_mb_h: float
    threads_flat: bool
    fds_flat: bool
    used: int  # samples after the warm-up
    max_growth_mb_h: float

    @property
    def ok(self) -> bool:
        return self.growth_mb_h < self.max_growth_mb_h and self.threads_flat and self.fds_flat


def slope_per_hour(points: Sequence[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, MB) points, in MB per hour."""
    n = len(points)
    if n < 2:
        return 0.0
    mt = sum(t for t, _ in points) / n
    mv = sum(v for _, v in points) / n
    den = sum((t - mt) ** 2 for t, _ in points)
    if den == 0:
        return 0.0
    return 3600.0 * sum((t - mt) * (v - mv) for t, v in points) / den


def flat(values: Sequence[int]) -> bool:
    """No upward drift: the median of the second half is no higher than that of the first."""
    if len(values) < 2:
        return True
    half = len(values) // 2
    return statistics.median(values[half:]) <= statistics.median(values[:half])


def verdict(samples: Sequence[Sample], warmup_s: float, max_growth_mb_h: float = 10.0) -> Verdict:
    after = [s for s in samples if s.t >= warmup_s]
    return Verdict(
        growth_mb_h=slope_per_hour([(s.t, s.rss_mb) for s in after]),
        threads_flat=flat([s.threads for s in after]),
        fds_flat=flat([s.fds for s in after]),
        used=len(after),
        max_growth_mb_h=max_growth_mb_h,
    )


# -- measuring the process ------------------------------------------------------------------

def _status(key: str) -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


def _mallinfo2() -> Any:
    try:
        fn = ctypes.CDLL(None).mallinfo2
    except (AttributeError, OSError):
        return None  # not glibc 2.33 or later
    fn.restype = _MallInfo2
    return fn


_MALLINFO2 = _mallinfo2()


def malloc_in_use_mb() -> float:
    """What the program holds from malloc (all arenas, and large blocks mapped on their own):
    it grows with a leak, C or Python, but not when freed memory is merely kept by the allocator
    (RSS does both)."""
    if _MALLINFO2 is None:
        return float("nan")
    info = _MALLINFO2()
    return (info.uordblks + info.hblkhd) / 2**20


def malloc_arenas() -> dict[int, float]:
    """glibc's heaps (``malloc_info``): heap number -> MB in use (obtained minus free). Heap 0 is
    the main thread's; threads get others. Empty where malloc_info is missing."""
    import re
    import tempfile as _tf

    try:
        libc = ctypes.CDLL(None)
        libc.fopen.restype = ctypes.c_void_p
        libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        libc.fclose.argtypes = [ctypes.c_void_p]
        libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    except (AttributeError, OSError):
        return {}
    with _tf.NamedTemporaryFile(suffix=".xml") as tmp:
        fp = libc.fopen(tmp.name.encode(), b"w")
        if not fp:
            return {}
        libc.malloc_info(0, fp)
        libc.fclose(fp)
        xml = Path(tmp.name).read_text(encoding="ascii", errors="replace")
    out: dict[int, float] = {}
    for nr, body in re.findall(r'<heap nr="(\d+)">(.*?)</heap>', xml, re.S):
        current = sum(int(v) for v in re.findall(r'<system type="current" size="(\d+)"/>', body))
        free = sum(int(v) for v in re.findall(r'<total type="(?:fast|rest)" count="\d+" size="(\d+)"/>', body))
        out[int(nr)] = (current - free) / 2**20
    return out


def _task_cpu_s(tid: int) -> float | None:
    try:
        with open(f"/proc/self/task/{tid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


@dataclass
class Meter:
    """Samples the process; follows the camera worker threads' CPU time across restarts."""

    t0: float = field(default_factory=time.monotonic)
    samples: list[Sample] = field(default_factory=list)
    _worker_cpu: dict[int, float] = field(default_factory=dict)

    def note_worker(self, tid: int | None) -> None:
        if tid is not None:
            cpu = _task_cpu_s(tid)
            if cpu is not None:
                self._worker_cpu[tid] = cpu

    def sample(self, analysed: int, throws: int, worker_tid: int | None) -> Sample:
        self.note_worker(worker_tid)
        times = os.times()
        s = Sample(
            t=time.monotonic() - self.t0,
            rss_mb=_status("VmRSS") / 1024.0,
            threads=_status("Threads"),
            fds=len(os.listdir("/proc/self/fd")),
            cpu_s=times.user + times.system,
            worker_cpu_s=sum(self._worker_cpu.values()),
            malloc_mb=malloc_in_use_mb(),
            ui_cpu_s=_task_cpu_s(threading.main_thread().native_id or os.getpid()) or 0.0,
            analysed=analysed,
            throws=throws,
        )
        self.samples.append(s)
        return s


# -- the app ---------------------------------------------------------------------------------

class Soak:
    """Drives one app for ``seconds``: die throws, new games, samples (all on the UI thread
    except the die, which writes to its pseudo-terminal from its own thread)."""

    def __init__(self, seconds: float, data: Path, throw_every: float = 3.0, sample_every: float = 10.0,
                 feed_fps: float = 6.0, seed: int = 1, echo: Any = print, audio_device: str | None = None) -> None:
        self.seconds = seconds
        self.data = data
        self.throw_every = throw_every
        self.sample_every = sample_every
        self.feed_fps = feed_fps
        self.seed = seed
        self.echo = echo
        self.audio_device = audio_device
        """ALSA device for the voice (``null``: spoken into nothing, still through aplay); None:
        the app's own choice, the sound card."""
        self.meter = Meter()
        self.games = 0
        self.throws_sent = 0
        self.throws_done = 0  # serial throws applied in finished games
        self.app: Any = None
        self.die: Any = None
        self.error: str | None = None
        self.voice_note = ""
        self._stop = threading.Event()
        self.trace = False
        """Also trace Python allocations (tracemalloc, from the end of the warm-up on): the lines
        that grew after the warm-up."""
        self.warmup_s = 0.0
        self.snapshots: list[Any] = []
        self.collect = False
        """Run Python's full garbage collection before each sample (diagnosis: what cyclic
        garbage held)."""

    def throws_applied(self) -> int:
        session = self.app.session if self.app is not None else None
        now = sum(1 for t in session.turns if t.source == "serial") if session is not None else 0
        return self.throws_done + now

    def _worker_tid(self) -> int | None:
        thread = getattr(self.app.camera_watch, "_thread", None)
        return getattr(thread, "native_id", None) if thread is not None else None

    def _die_loop(self) -> None:
        while not self._stop.wait(self.throw_every):
            try:
                self.die.roll()
                self.throws_sent += 1
                if self.throws_sent % 20 == 0:
                    self.die.battery(100 - (self.throws_sent // 20) % 80)
            except (OSError, RuntimeError):
                return

    def _tick(self, _dt: float) -> None:
        if self.trace and not self.snapshots and time.monotonic() - self.meter.t0 >= self.warmup_s:
            import tracemalloc

            tracemalloc.start(6)  # from the end of the warm-up on: what grows after it
            self.snapshots.append(tracemalloc.take_snapshot())
        app = self.app
        session = app.session
        if session is None or session.state.is_over():
            if session is not None:
                self.throws_done += sum(1 for t in session.turns if t.source == "serial")
            self.meter.note_worker(self._worker_tid())  # its CPU so far, before it is replaced
            if app.start_game(GAME, dict(SEATS), {}) is None:
                self.error = "could not start a game"
                app.stop()
                return
            self.games += 1

    def _sample(self, _dt: float) -> None:
        if self.collect:
            import gc

            before = malloc_in_use_mb()
            found = gc.collect()
            heaps = " ".join(f"{nr}:{mb:.0f}" for nr, mb in sorted(malloc_arenas().items()) if mb >= 1)
            self.echo(f"  gc.collect(): {found} unreachable objects, malloc {before:.1f} -> {malloc_in_use_mb():.1f} MB;"
                      f" heaps in use (MB) {heaps}, mapped alone {_MALLINFO2().hblkhd / 2**20 if _MALLINFO2 else 0:.0f}",
                      flush=True)
        s = self.meter.sample(self.app.camera_watch.analysed, self.throws_applied(), self._worker_tid())
        self.echo(f"  t={s.t:7.1f}s  RSS {s.rss_mb:7.1f} MB  malloc {s.malloc_mb:6.1f} MB  threads {s.threads:3d}  fds {s.fds:3d}  "
                  f"frames {s.analysed:6d}  throws {s.throws:5d}  games {self.games}" + self._traced(), flush=True)

    def _traced(self) -> str:
        if not self.snapshots:
            return ""
        import tracemalloc

        return f"  python {tracemalloc.get_traced_memory()[0] / 2**20:.1f} MB"

    def run(self) -> None:
        from ui.app import configure

        configure((800, 480))
        from kivy.clock import Clock

        from companion.store import Store
        from hardware.virtualdie import VirtualDie
        from ui.application import CompanionApp

        self.die = VirtualDie(GAME, seed=self.seed, link=self.data / "ttyDIE0", rolling_time=0.3).start()
        store = Store.open(self.data / "soak.db")
        store.set_setting("ui.serial_port", self.die.port)  # as chosen in Settings
        store.set_setting("ui.camera", "demo")  # the camera watches the demo feed during play
        app_class = CompanionApp
        if self.audio_device is not None:
            from hardware.audio import AplayOutput

            app_class = type("CompanionApp", (CompanionApp,), {"speech_output": AplayOutput(self.audio_device)})
        app = self.app = app_class(store=store, force_demo=False, lang="en")
        if not app.hardware.serial.found:
            raise RuntimeError(f"the app did not find the die at {self.die.port}")
        app.camera_watch.demo_fps = self.feed_fps
        die_thread = threading.Thread(target=self._die_loop, name="soak-die", daemon=True)
        Clock.schedule_once(self._tick, 0.5)
        Clock.schedule_once(lambda _dt: die_thread.start(), 1.0)
        Clock.schedule_interval(self._tick, 1.0)
        Clock.schedule_once(self._sample, 0)
        Clock.schedule_interval(self._sample, self.sample_every)
        Clock.schedule_once(lambda _dt: (self._sample(0), app.stop()), self.seconds)
        try:
            app.run()
        finally:
            if self.trace and self.snapshots:
                import tracemalloc

                self.snapshots.append(tracemalloc.take_snapshot())
            self._stop.set()
            speaker = app.voice.speaker
            self.voice_note = (f"{len(speaker.history)} of the last sentences spoken (at most 100 kept), "
                               f"status {speaker.status.state}{': ' + speaker.status.reason if speaker.status.reason else ''}")
            app.shutdown()
            self.die.stop()
            die_thread.join(timeout=self.throw_every + 1) if die_thread.is_alive() else None
            store.close()


def report(soak: Soak, warmup_s: float, max_growth: float) -> tuple[Verdict, list[str]]:
    samples = soak.meter.samples
    v = verdict(samples, warmup_s, max_growth)
    first, last = samples[0], samples[-1]
    after = [s for s in samples if s.t >= warmup_s] or samples
    a0, a1 = after[0], after[-1]
    frames = a1.analysed - a0.analysed
    span = max(a1.t - a0.t, 1e-9)

    def per_frame(cpu: float) -> str:
        return f"{1000.0 * cpu / frames:.1f} ms" if frames else "n/a"

    def rng(vals: list[int]) -> str:
        return f"{min(vals)}..{max(vals)}"

    lines = [
        f"ran {last.t / 60:.1f} min: {soak.games} games, {soak.throws_sent} die throws sent, "
        f"{last.throws} applied from the serial die, {last.analysed} frames analysed "
        f"({frames / span:.2f}/s after warm-up)",
        f"RSS: {first.rss_mb:.1f} MB at start, {a0.rss_mb:.1f} MB after warm-up ({a0.t / 60:.1f} min), "
        f"{last.rss_mb:.1f} MB at end",
        f"RSS growth: {v.growth_mb_h:+.2f} MB/hour (least squares over {v.used} samples after warm-up; "
        f"limit {max_growth:g})",
        f"malloc in use: {a0.malloc_mb:.1f} MB after warm-up, {last.malloc_mb:.1f} MB at end, "
        f"{slope_per_hour([(s.t, s.malloc_mb) for s in after]):+.2f} MB/hour"
        if not math.isnan(last.malloc_mb) else "malloc in use: not measured (no glibc mallinfo2)",
        f"threads: {a0.threads} after warm-up, {last.threads} at end (range {rng([s.threads for s in after])}) "
        f"{'flat' if v.threads_flat else 'GROWING'}",
        f"open fds: {a0.fds} after warm-up, {last.fds} at end (range {rng([s.fds for s in after])}) "
        f"{'flat' if v.fds_flat else 'GROWING'}",
        f"CPU per analysed frame: {per_frame(a1.cpu_s - a0.cpu_s)} for the whole process: "
        f"{per_frame(a1.ui_cpu_s - a0.ui_cpu_s)} on the UI thread (drawing, the game), "
        f"{per_frame(a1.worker_cpu_s - a0.worker_cpu_s)} on the camera worker thread, "
        f"{per_frame((a1.cpu_s - a1.ui_cpu_s - a1.worker_cpu_s) - (a0.cpu_s - a0.ui_cpu_s - a0.worker_cpu_s))} "
        f"on other threads (OpenCV's and Mesa's pools, die reader, voice)",
        f"process CPU: {100.0 * (a1.cpu_s - a0.cpu_s) / span:.0f}% of one core after warm-up",
        f"voice: {soak.voice_note}",
        f"verdict: {'PASS' if v.ok else 'FAIL'}",
    ]
    if len(soak.snapshots) == 2:
        stats = soak.snapshots[1].compare_to(soak.snapshots[0], "traceback")
        lines.append("Python allocations that grew most after the warm-up (tracemalloc):")
        for st in stats[:8]:
            where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in list(st.traceback)[:4])
            lines.append(f"  {st.size_diff / 1024:+9.1f} KiB {st.count_diff:+6d} blocks  {where}")
    return v, lines


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--seconds", type=float, default=None, help="instead of --minutes (short runs)")
    ap.add_argument("--warmup", type=float, default=None,
                    help="seconds left out of the growth fit (default: a sixth of the run)")
    ap.add_argument("--sample-every", type=float, default=10.0, metavar="S")
    ap.add_argument("--throw-every", type=float, default=3.0, metavar="S")
    ap.add_argument("--feed-fps", type=float, default=6.0, help="frames per second the demo feed delivers")
    ap.add_argument("--max-growth", type=float, default=10.0, metavar="MB_PER_HOUR")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--audio-device", default=None, metavar="ALSA_DEVICE",
                    help="the voice's ALSA device (null: speak through aplay into nothing; default: the sound card)")
    ap.add_argument("--collect", action="store_true", help="gc.collect() before each sample, saying what it freed")
    ap.add_argument("--tracemalloc", action="store_true", help="also show where Python memory grew (slower)")
    ap.add_argument("--report-only", action="store_true", help="exit 0 whatever the verdict (2 still)")
    args = ap.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else 60.0 * args.minutes
    warmup = args.warmup if args.warmup is not None else seconds / 6.0
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        data = Path(tmp)
        os.environ.setdefault("KIVY_HOME", str(data / "kivy"))
        print(f"soak: the app offscreen for {seconds / 60:.1f} min, {GAME}, a serial die throwing every "
              f"{args.throw_every:g} s, the demo feed at {args.feed_fps:g} fps; samples every "
              f"{args.sample_every:g} s, warm-up {warmup / 60:.1f} min", flush=True)
        soak = Soak(seconds, data, args.throw_every, args.sample_every, args.feed_fps, args.seed,
                    audio_device=args.audio_device)
        soak.trace, soak.warmup_s, soak.collect = args.tracemalloc, warmup, args.collect
        soak.run()
    if soak.error or len(soak.meter.samples) < 2:
        print(f"soak: FAILED to run: {soak.error or 'no samples'}")
        return 2
    v, lines = report(soak, warmup, args.max_growth)
    for line in lines:
        print("soak: " + line)
    last = soak.meter.samples[-1]
    if last.analysed == 0 or last.throws == 0:
        print("soak: FAILED to exercise the app: "
              + ("no frame analysed" if last.analysed == 0 else "no serial throw applied"))
        return 2
    return 0 if (v.ok or args.report_only) else 1


if __name__ == "__main__":
    sys.exit(main())
