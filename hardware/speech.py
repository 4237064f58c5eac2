"""The companion's voice: sentences spoken on a worker thread, newest first when it matters.

::

    speaker = Speaker(on_status=bridge.callback("speech_status")).start()
    speaker.say("Mouse throws 4.", interrupt=True)   # cuts whatever is being said
    speaker.say("Cat's turn.")                        # queued after it
    speaker.close()

``say`` never blocks: it queues the sentence with the language it was translated in
(``companion.i18n.language()`` at that moment picks the voice, so a Dutch game is spoken in
Dutch). ``interrupt=True`` drops the sentences still waiting and cuts the one being spoken: the
app uses it for the first line of each new turn, so stale narration never runs behind the game.
At most ``max_pending`` sentences wait; beyond that the oldest is dropped. A change of language
(``companion.i18n.on_change``) drops what waits, since it was in the old language.

The engine and the output are given in the constructor: ``engine`` is a factory returning an
object with ``sample_rate`` and ``synth(text, on_samples, voice=, rate=, volume=)``
(:class:`hardware.espeak.EspeakEngine`), or a name from :data:`ENGINES`; ``output`` opens one
sink per sentence (:class:`hardware.audio.AplayOutput`, or :class:`~hardware.audio.WavFileOutput`
in tests). Both are made on the worker thread. Nothing here raises into the app: a missing
engine or sound device becomes :attr:`Speaker.status` (and ``on_status``), the sentences are
dropped, and the sound device is tried again after ``retry_s`` seconds (a speaker plugged in
mid-game starts talking).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from companion import i18n
from companion.i18n import _
from hardware.audio import AplayOutput, AudioOutput, AudioSink, AudioUnavailable
from hardware.espeak import RATE_MAX, RATE_MIN, EspeakEngine, SpeechUnavailable, voice_for

log = logging.getLogger(__name__)

READY = "ready"
OFF = "off"
STARTING = "starting"
NO_ENGINE = "no_engine"
NO_AUDIO = "no_audio"
NO_VOICE = "no_voice"


class Engine(Protocol):
    sample_rate: int

    def synth(self, text: str, on_samples: Callable[[bytes], bool], *, voice: str = ..., rate: int = ...,
              volume: int = ...) -> bool: ...


ENGINES: dict[str, Callable[[], Engine]] = {"espeak-ng": EspeakEngine}
"""Speech engines by name (the name a setting or the command line may give)."""


@dataclass(frozen=True)
class VoiceSettings:
    """What Settings choose: on/off, volume (percent), voice variant, speed (words/minute)."""

    enabled: bool = True
    volume: int = 100
    variant: str = ""
    rate: int = 160

    def checked(self) -> VoiceSettings:
        return replace(self, volume=max(0, min(100, int(self.volume))),
                       rate=max(RATE_MIN, min(RATE_MAX, int(self.rate))))


@dataclass(frozen=True)
class SpeechStatus:
    state: str = STARTING  # ready, off, starting, no_engine, no_audio, no_voice
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.state in (READY, STARTING, OFF)

    def describe(self) -> str:
        if self.state == READY:
            return _("Voice ready.")
        if self.state == OFF:
            return _("Voice is off.")
        if self.state == STARTING:
            return _("Starting the voice...")
        return self.reason


@dataclass
class Utterance:
    text: str
    language: str
    cancel: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class Spoken:
    """One sentence the worker handled: the voice it used and whether it was said to the end."""

    text: str
    voice: str
    finished: bool


class Speaker:
    def __init__(
        self,
        engine: Callable[[], Engine] | str = "espeak-ng",
        output: AudioOutput | None = None,
        *,
        settings: VoiceSettings | None = None,
        on_status: Callable[[SpeechStatus], None] | None = None,
        max_pending: int = 4,
        retry_s: float = 30.0,
    ) -> None:
        self._engine_factory = engine
        self.output: AudioOutput = output if output is not None else AplayOutput()
        self.settings = (settings or VoiceSettings()).checked()
        self.on_status = on_status
        self.max_pending = max(1, max_pending)
        self.retry_s = retry_s
        self.history: deque[Spoken] = deque(maxlen=100)
        self._status = SpeechStatus(OFF if not self.settings.enabled else STARTING)
        self._engine: Engine | None = None
        self._engine_tried = False
        self._audio_retry_at = 0.0
        self._pending: deque[Utterance] = deque()
        self._current: Utterance | None = None
        self._sink: AudioSink | None = None
        self._cond = threading.Condition()
        self._closed = False
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None

    # -- public API ---------------------------------------------------------------------------
    @property
    def status(self) -> SpeechStatus:
        return self._status

    @property
    def speaking(self) -> bool:
        return self._current is not None

    @property
    def current_text(self) -> str | None:
        """The sentence being spoken now, if any."""
        cur = self._current
        return cur.text if cur is not None else None

    def start(self) -> Speaker:
        with self._cond:
            if self._thread is not None and self._thread.is_alive():
                return self
            self._closed = False
            self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
            self._thread.start()
        if self._unsubscribe is None:
            self._unsubscribe = i18n.on_change(self._language_changed)
        return self

    def close(self, timeout: float = 2.0) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._cond:
            self._closed = True
            self._pending.clear()
            self._cut_locked()
            self._cond.notify_all()
            thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def __enter__(self) -> Speaker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def say(self, text: str, *, interrupt: bool = False, language: str | None = None) -> bool:
        """Queue ``text`` (never blocks). Returns False when it will not be spoken (voice off,
        empty text, no engine)."""
        text = " ".join(str(text).split())
        if not text or not self.settings.enabled or self._status.state == NO_ENGINE:
            return False
        utt = Utterance(text, language or i18n.language())
        with self._cond:
            if self._closed:
                return False
            if interrupt:
                self._pending.clear()
                self._cut_locked()
            while len(self._pending) >= self.max_pending:
                self._pending.popleft()  # the oldest waiting sentence is stale by now
            self._pending.append(utt)
            self._cond.notify_all()
        if self._thread is None:
            self.start()
        return True

    def stop(self) -> None:
        """Silence now: cut the sentence being spoken and drop the waiting ones."""
        with self._cond:
            self._pending.clear()
            self._cut_locked()
            self._cond.notify_all()

    def configure(self, settings: VoiceSettings) -> None:
        """New settings apply from the next sentence; turning the voice off silences it now."""
        self.settings = settings.checked()
        if not self.settings.enabled:
            self.stop()
            self._set_status(SpeechStatus(OFF))
        elif self._status.state == OFF:
            self._set_status(SpeechStatus(STARTING))
            self.retry()

    def retry(self) -> None:
        """Look for the engine and the sound device again (the Settings' Test button)."""
        with self._cond:
            self._engine_tried = self._engine is not None
            self._audio_retry_at = 0.0
            if self._status.state == NO_ENGINE:
                self._status = SpeechStatus(STARTING)
            self._cond.notify_all()
        if self._thread is None:
            self.start()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until nothing is spoken or waiting (tests, the command line)."""
        end = time.monotonic() + timeout
        with self._cond:
            while self._pending or self._current is not None or (
                    self.settings.enabled and not self._engine_tried and not self._closed):
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 0.05))
        return True

    # -- internals -----------------------------------------------------------------------------
    def _cut_locked(self) -> None:
        cur, sink = self._current, self._sink
        if cur is not None:
            cur.cancel.set()
        if sink is not None:
            try:
                sink.abort()
            except Exception:
                log.debug("aborting a sentence failed", exc_info=True)

    def _set_status(self, status: SpeechStatus) -> None:
        if status == self._status:
            return
        self._status = status
        if self.on_status is not None:
            try:
                self.on_status(status)
            except Exception:
                log.exception("speech status callback failed")

    def _language_changed(self, _code: str) -> None:
        with self._cond:
            self._pending.clear()

    def _load_engine(self) -> None:
        factory = self._engine_factory
        try:
            if isinstance(factory, str):
                if factory not in ENGINES:
                    raise SpeechUnavailable(_("Unknown speech engine {name!r} (known: {known}).")
                                            .format(name=factory, known=", ".join(ENGINES)))
                factory = ENGINES[factory]
            self._engine = factory()
        except Exception as exc:  # SpeechUnavailable, or a broken factory: say why, carry on
            self._engine = None
            reason = str(exc) if isinstance(exc, SpeechUnavailable) else f"{type(exc).__name__}: {exc}"
            self._set_status(SpeechStatus(NO_ENGINE, _("No voice: {reason}").format(reason=reason)))
        else:
            self._check_audio()
        finally:
            with self._cond:
                self._engine_tried = True
                self._cond.notify_all()

    def _check_audio(self) -> bool:
        if not self.settings.enabled:
            self._set_status(SpeechStatus(OFF))
            return False
        reason = self.output.probe()
        if reason:
            self._audio_retry_at = time.monotonic() + self.retry_s
            self._set_status(SpeechStatus(NO_AUDIO, reason))
            return False
        self._set_status(SpeechStatus(READY))
        return True

    def _next(self) -> Utterance | None:
        with self._cond:
            while not self._closed and not self._pending and self._engine_tried:
                self._cond.wait()
            if self._closed or not self._engine_tried:
                return None
            utt = self._pending.popleft()
            self._current = utt
            return utt

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                need_engine = not self._engine_tried
            if need_engine:
                self._load_engine()
            utt = self._next()
            if utt is None:
                continue
            try:
                self._speak(utt)
            except Exception:  # never let one sentence stop the voice
                log.exception("speaking %r failed", utt.text)
            finally:
                with self._cond:
                    self._current = None
                    self._sink = None
                    self._cond.notify_all()

    def _speak(self, utt: Utterance) -> None:
        engine = self._engine
        settings = self.settings
        voice = voice_for(utt.language, settings.variant)
        if engine is None or not settings.enabled or utt.cancel.is_set():
            return
        if self._status.state == NO_AUDIO:
            if time.monotonic() < self._audio_retry_at or not self._check_audio():
                return
        try:
            sink = self.output.open(engine.sample_rate)
        except AudioUnavailable as exc:
            self._audio_failed(str(exc))
            return
        with self._cond:
            if utt.cancel.is_set():
                sink.abort()
                return
            self._sink = sink

        def on_samples(data: bytes) -> bool:
            if utt.cancel.is_set():
                return False
            sink.write(data)
            return not utt.cancel.is_set()

        try:
            engine.synth(utt.text, on_samples, voice=voice, rate=settings.rate, volume=settings.volume)
            if utt.cancel.is_set():
                sink.abort()
            else:
                sink.finish()
        except AudioUnavailable as exc:
            sink.abort()
            self._audio_failed(str(exc))
            return
        except SpeechUnavailable as exc:  # e.g. this language's voice is not installed
            sink.abort()
            self._set_status(SpeechStatus(NO_VOICE, str(exc)))
            return
        finished = not utt.cancel.is_set()
        self.history.append(Spoken(utt.text, voice, finished))
        if self._status.state != READY and finished:
            self._set_status(SpeechStatus(READY))

    def _audio_failed(self, reason: str) -> None:
        self._audio_retry_at = time.monotonic() + self.retry_s
        self._set_status(SpeechStatus(NO_AUDIO, reason))

