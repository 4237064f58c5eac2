"""Short sound cues (a capture, a cheese, a lost turn, a win), made by code and played through
an :class:`hardware.audio.AudioOutput` (the sound card through ``aplay``, or WAV files).

Each cue is a few notes of a soft tone (a sine with a little of its octave, a quick attack and
a gentle fade so nothing clicks), 16-bit mono at :data:`RATE`:

- ``capture``: two quick falling notes ("got you");
- ``cheese``: three rising notes, bright;
- ``lost_turn``: a low note sliding down ("oh no");
- ``win``: a short rising fanfare ending on a held note.

:class:`CuePlayer` plays them on a worker thread, never blocking the caller; while ``enabled()``
says no (the app's Mute) nothing is played; with no sound device the cue is dropped silently
and :attr:`CuePlayer.last_error` says why.
"""

from __future__ import annotations

import queue
import threading
import wave
from collections.abc import Callable
from pathlib import Path

import numpy as np

from hardware.audio import SAMPLE_WIDTH, AudioOutput, AudioUnavailable

RATE = 22050

# cue name -> notes: (start frequency Hz, end frequency Hz, seconds, loudness 0..1)
CUES: dict[str, tuple[tuple[float, float, float, float], ...]] = {
    "capture": ((880.0, 880.0, 0.11, 0.8), (587.3, 587.3, 0.20, 0.8)),
    "cheese": ((659.3, 659.3, 0.09, 0.7), (784.0, 784.0, 0.09, 0.7), (1046.5, 1046.5, 0.22, 0.8)),
    "lost_turn": ((392.0, 370.0, 0.16, 0.7), (330.0, 247.0, 0.42, 0.7)),
    "win": ((523.3, 523.3, 0.12, 0.7), (659.3, 659.3, 0.12, 0.7), (784.0, 784.0, 0.12, 0.7),
            (1046.5, 1046.5, 0.50, 0.85)),
}
GAP_S = 0.02
"""Silence between two notes, seconds."""


def duration(name: str) -> float:
    """The length of cue ``name`` in seconds (KeyError for an unknown cue)."""
    notes = CUES[name]
    return sum(n[2] for n in notes) + GAP_S * (len(notes) - 1)


def _note(f0: float, f1: float, seconds: float, loud: float, rate: int) -> np.ndarray:
    n = int(round(seconds * rate))
    t = np.arange(n) / rate
    freq = np.linspace(f0, f1, n)
    phase = 2 * np.pi * np.cumsum(freq) / rate
    wave_ = np.sin(phase) + 0.25 * np.sin(2 * phase)
    attack = np.minimum(1.0, t / 0.008)
    fade = np.minimum(1.0, (seconds - t) / max(0.03, seconds * 0.6))
    return np.asarray(loud * 0.7 * wave_ * attack * np.clip(fade, 0.0, 1.0), dtype=np.float64)


def samples(name: str, rate: int = RATE) -> bytes:
    """Cue ``name`` as 16-bit signed little-endian mono samples at ``rate``."""
    parts: list[np.ndarray] = []
    gap = np.zeros(int(round(GAP_S * rate)))
    for i, (f0, f1, seconds, loud) in enumerate(CUES[name]):
        if i:
            parts.append(gap)
        parts.append(_note(f0, f1, seconds, loud, rate))
    pcm = np.clip(np.concatenate(parts), -1.0, 1.0) * 32767 * 0.8
    return pcm.astype("<i2").tobytes()


def write_wav(name: str, path: str | Path, rate: int = RATE) -> Path:
    """Cue ``name`` into a WAV file at ``path``."""
    target = Path(path)
    with wave.open(str(target), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(SAMPLE_WIDTH)
        w.setframerate(rate)
        w.writeframes(samples(name, rate))
    return target


class CuePlayer:
    """Plays cues one after another on a daemon thread; :meth:`play` returns at once."""

    def __init__(self, output: AudioOutput | None = None, enabled: Callable[[], bool] = lambda: True) -> None:
        self.output = output
        """Where cues go; None: the sound card through aplay (made at the first cue)."""
        self.enabled = enabled
        self.last_error = ""
        self.played: list[str] = []
        """Every cue handed to the output, in order (tests, diagnostics)."""
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._waiters: list[threading.Event] = []

    def play(self, name: str) -> bool:
        """Queue cue ``name``; False when muted (nothing is played) or the name is unknown."""
        if name not in CUES or not self.enabled():
            return False
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="cues", daemon=True)
                self._thread.start()
        self._queue.put(name)
        return True

    def wait(self, timeout: float = 5.0) -> bool:
        """Block until every queued cue was played (tests); False on timeout."""
        done = threading.Event()
        self._waiters.append(done)
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                return True  # nothing was ever queued
        self._queue.put(None)
        return done.wait(timeout)

    def _run(self) -> None:
        while True:
            name = self._queue.get()
            if name is None:
                while self._waiters:
                    self._waiters.pop().set()
                continue
            self._play_now(name)

    def _play_now(self, name: str) -> None:
        if self.output is None:
            from hardware.audio import AplayOutput

            self.output = AplayOutput()
        try:
            sink = self.output.open(RATE)
            sink.write(samples(name))
            sink.finish()
        except (AudioUnavailable, OSError) as exc:
            self.last_error = str(exc)  # no sound device: the cue is dropped, the game goes on
            return
        self.played.append(name)

    def close(self) -> None:
        self._queue.put(None)

