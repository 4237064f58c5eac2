"""Where spoken sentences go: the sound card through ``aplay``, or WAV files.

An *output* opens one *sink* per sentence (``output.open(sample_rate)``); the speech worker
writes 16-bit mono samples into it as the engine makes them, then ``finish()`` waits until the
sentence has been heard, or ``abort()`` (from any thread) cuts it off at once.

:class:`AplayOutput` pipes the samples into ``aplay`` (alsa-utils, on every Raspberry Pi OS).
``aplay`` plays on ALSA's default device, which on Bookworm's desktop goes through PipeWire
(``wpctl`` picks the sink) and on Lite straight to the card ALSA names default; ``device`` picks
another ALSA device (``aplay -L`` lists them). A separate process keeps a broken sound driver
from taking the app down, and killing it silences a sentence immediately.

:class:`WavFileOutput` writes each sentence to a WAV file (``companion say -o``, tests, the
benchmark); with ``realtime=True`` it takes as long as playing would, like a sound card.
"""

from __future__ import annotations

import logging
import subprocess
import threading
import time
import wave
from pathlib import Path
from typing import Protocol

from companion.i18n import N_, _

log = logging.getLogger(__name__)

SAMPLE_WIDTH = 2  # bytes: 16-bit signed little-endian mono


class AudioUnavailable(RuntimeError):
    """No sound can be played (no player program, no device); the message says why."""


class AudioSink(Protocol):
    def write(self, samples: bytes) -> None: ...

    def finish(self) -> None: ...

    def abort(self) -> None: ...


class AudioOutput(Protocol):
    def open(self, sample_rate: int) -> AudioSink: ...

    def probe(self) -> str | None:
        """None when sound can be played, else the reason it cannot."""
        ...

    def describe(self) -> str: ...


# -- aplay -------------------------------------------------------------------------------------

NO_DEVICE = N_("No sound device found: plug in a speaker or choose another output.")
"""What a player reads when the sound card cannot be opened (aplay's own words stay in the log)."""


def _reason(stderr: bytes, code: int | None) -> str:
    """aplay's failure as one plain sentence; its raw message is logged, never shown."""
    lines = [ln.strip() for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    log.info("aplay stopped with code %s: %s", code, lines[-1] if lines else "")
    return _(NO_DEVICE)


class _AplaySink:
    def __init__(self, args: list[str]) -> None:
        try:
            self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE)
        except FileNotFoundError as exc:
            raise AudioUnavailable(_("No audio player: aplay is not installed (apt install alsa-utils).")) from exc
        except OSError as exc:
            raise AudioUnavailable(_("No audio player: {reason}").format(reason=exc)) from exc
        self.aborted = False

    def write(self, samples: bytes) -> None:
        stdin = self.proc.stdin
        if self.aborted or stdin is None:
            return
        try:
            stdin.write(samples)
        except (BrokenPipeError, ValueError, OSError):
            if not self.aborted:
                self.finish()  # raises with aplay's own reason

    def finish(self) -> None:
        if self.aborted:
            return
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.abort()
            raise AudioUnavailable(_("No audio output: the sound device stopped responding.")) from None
        err = self.proc.stderr.read() if self.proc.stderr is not None else b""
        if self.proc.returncode not in (0, None) and not self.aborted:
            raise AudioUnavailable(_reason(err, self.proc.returncode))

    def abort(self) -> None:
        self.aborted = True
        try:
            self.proc.kill()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


class AplayOutput:
    """The sound card, through ``aplay`` on ALSA ``device`` (None: ALSA's default)."""

    def __init__(self, device: str | None = None, program: str = "aplay") -> None:
        self.device = device or None
        self.program = program

    def _args(self, rate: int) -> list[str]:
        args = [self.program, "-q", "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", str(rate)]
        return args + (["-D", self.device] if self.device else [])

    def open(self, sample_rate: int) -> _AplaySink:
        return _AplaySink(self._args(sample_rate))

    def probe(self) -> str | None:
        """Plays 20 ms of silence: None when that worked, else why not."""
        try:
            sink = self.open(22050)
            sink.write(bytes(22050 * SAMPLE_WIDTH // 50))
            sink.finish()
        except AudioUnavailable as exc:
            return str(exc)
        return None

    def describe(self) -> str:
        return _("sound card {device}").format(device=self.device or "default")


# -- WAV files -------------------------------------------------------------------------------

class _WavSink:
    def __init__(self, path: Path, rate: int, realtime: bool) -> None:
        self.path = path
        self.rate = rate
        self.realtime = realtime
        self.frames = 0
        self.aborted = False
        self._abort = threading.Event()
        self._lock = threading.Lock()
        self._started = time.monotonic()
        self._wav: wave.Wave_write | None = wave.open(str(path), "wb")
        self._wav.setnchannels(1)
        self._wav.setsampwidth(SAMPLE_WIDTH)
        self._wav.setframerate(rate)

    def write(self, samples: bytes) -> None:
        with self._lock:
            if self._wav is None or self.aborted:
                return
            self._wav.writeframes(samples)
            self.frames += len(samples) // SAMPLE_WIDTH
        if self.realtime:  # as long as a sound card would take to play what was written
            self._abort.wait(max(0.0, self._started + self.frames / self.rate - time.monotonic() - 0.05))

    def finish(self) -> None:
        if self.realtime and not self.aborted:
            self._abort.wait(max(0.0, self._started + self.frames / self.rate - time.monotonic()))
        self._close()

    def abort(self) -> None:
        self.aborted = True
        self._abort.set()
        self._close()

    def _close(self) -> None:
        with self._lock:
            wav, self._wav = self._wav, None
        if wav is not None:
            wav.close()


class WavFileOutput:
    """Each sentence into a WAV file: ``path`` (one file, overwritten) or numbered files
    ``0001.wav``, ``0002.wav``, ... in ``directory``. :attr:`files` lists what was written."""

    def __init__(self, directory: str | Path | None = None, *, path: str | Path | None = None,
                 realtime: bool = False) -> None:
        if (directory is None) == (path is None):
            raise ValueError("give either a directory or a path")
        self.directory = Path(directory) if directory is not None else None
        self.path = Path(path) if path is not None else None
        self.realtime = realtime
        self.files: list[Path] = []
        self.sinks: list[_WavSink] = []

    def open(self, sample_rate: int) -> _WavSink:
        if self.path is not None:
            target = self.path
        else:
            assert self.directory is not None
            target = self.directory / f"{len(self.files) + 1:04d}.wav"
        try:
            if self.path is None:  # a folder of numbered files is made; a named file's folder must exist
                target.parent.mkdir(parents=True, exist_ok=True)
            sink = _WavSink(target, sample_rate, self.realtime)
        except OSError as exc:
            raise AudioUnavailable(_("Cannot write {path}: {reason}").format(path=target, reason=exc.strerror or exc)) from exc
        self.files.append(target)
        self.sinks.append(sink)
        return sink

    def probe(self) -> str | None:
        where = self.path.parent if self.path is not None else self.directory
        assert where is not None
        try:
            if self.path is None:
                where.mkdir(parents=True, exist_ok=True)
            elif not where.is_dir():
                return _("Cannot write {path}: {reason}").format(path=self.path, reason=_("its folder does not exist"))
        except OSError as exc:
            return _("Cannot write {path}: {reason}").format(path=where, reason=exc.strerror or exc)
        return None

    def describe(self) -> str:
        return str(self.path or self.directory)
