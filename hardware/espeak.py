"""eSpeak NG through its C library (``libespeak-ng.so.1``), loaded with ctypes.

Offline, small, and on every Raspberry Pi OS: ``apt install espeak-ng`` (which brings
``libespeak-ng1`` and the voice data). The library runs in synchronous mode: ``synth`` hands the
samples (16-bit mono, at :attr:`EspeakEngine.sample_rate`) to a callback chunk by chunk as they
are made, so the first sound can be played (or timed) before the sentence is finished, and the
callback can cut a sentence short.

The library keeps one global state per process: every engine object shares it, and
:data:`_LOCK` lets one sentence be made at a time.

A missing library or missing voice data raises :class:`SpeechUnavailable` with a reason a
person can act on; it never exits the process (the library is initialised with
``espeakINITIALIZE_DONT_EXIT``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
from collections.abc import Callable
from dataclasses import dataclass

from companion.i18n import N_, _

AUDIO_OUTPUT_SYNCHRONOUS = 2
INITIALIZE_DONT_EXIT = 0x8000
POS_CHARACTER = 1
CHARS_UTF8 = 1
ENDPAUSE = 0x1000
PARAM_RATE = 1
PARAM_VOLUME = 2
EE_OK = 0

RATE_MIN, RATE_MAX = 80, 450
"""Words per minute eSpeak NG accepts."""

LANGUAGE_VOICES: dict[str, str] = {"en": "en", "nl": "nl", "fr": "fr", "ja": "ja"}
"""The app's language code -> the eSpeak NG voice that speaks it."""

VARIANTS: dict[str, str] = {
    "": N_("man"),
    "f3": N_("woman"),
    "m3": N_("man, lower"),
    "f5": N_("woman, softer"),
    "klatt": N_("robot"),
}
"""The voice variants offered (eSpeak NG's ``voice+variant``) as a person would say them
(eSpeak's default voice is a man's): the one list of words that Settings and the setup wizard
both show (:func:`variant_words`)."""


def variant_words(variant: str) -> str:
    """A voice variant in the current language ("woman, softer"); an unknown one is the default."""
    return _(VARIANTS.get(variant, VARIANTS[""]))

Samples = Callable[[bytes], bool]
"""Receives a chunk of 16-bit little-endian mono samples; returns False to stop the sentence."""

_LOCK = threading.Lock()
_loaded: dict[str, tuple[ctypes.CDLL, int]] = {}
_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.c_void_p)
_NOOP = _CALLBACK(lambda _wav, _count, _events: 0)


class SpeechUnavailable(RuntimeError):
    """The speech engine cannot be used (library or voice data missing); the message says why."""


class _Voice(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("languages", ctypes.c_char_p),
        ("identifier", ctypes.c_char_p),
        ("gender", ctypes.c_ubyte),
        ("age", ctypes.c_ubyte),
        ("variant", ctypes.c_ubyte),
        ("xx1", ctypes.c_ubyte),
        ("score", ctypes.c_int),
        ("spare", ctypes.c_void_p),
    ]


@dataclass(frozen=True)
class VoiceInfo:
    name: str
    language: str
    identifier: str


def find_library() -> str | None:
    """The path or soname of libespeak-ng, or None when it is not installed."""
    return ctypes.util.find_library("espeak-ng") or ctypes.util.find_library("espeak")


def _load(library: str | None) -> tuple[ctypes.CDLL, int]:
    name = library or find_library()
    if not name:
        raise SpeechUnavailable(_("The speech engine is not installed (apt install espeak-ng)."))
    with _LOCK:
        if name in _loaded:
            return _loaded[name]
        try:
            lib = ctypes.CDLL(name)
        except OSError as exc:
            raise SpeechUnavailable(
                _("The speech engine could not be loaded ({reason}); install it with: apt install espeak-ng")
                .format(reason=exc)) from exc
        try:
            lib.espeak_Initialize.restype = ctypes.c_int
            lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
            lib.espeak_SetSynthCallback.restype = None
            lib.espeak_SetSynthCallback.argtypes = [_CALLBACK]
            lib.espeak_SetVoiceByName.restype = ctypes.c_int
            lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
            lib.espeak_SetParameter.restype = ctypes.c_int
            lib.espeak_SetParameter.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
            lib.espeak_Synth.restype = ctypes.c_int
            lib.espeak_Synth.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint, ctypes.c_int,
                                         ctypes.c_uint, ctypes.c_uint, ctypes.POINTER(ctypes.c_uint),
                                         ctypes.c_void_p]
            lib.espeak_ListVoices.restype = ctypes.POINTER(ctypes.POINTER(_Voice))
            lib.espeak_ListVoices.argtypes = [ctypes.c_void_p]
        except AttributeError as exc:
            raise SpeechUnavailable(
                _("{library} is not the eSpeak NG library ({reason}).").format(library=name, reason=exc)) from exc
        rate = int(lib.espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 200, None, INITIALIZE_DONT_EXIT))
        if rate <= 0:
            raise SpeechUnavailable(
                _("The speech engine's voice data is missing (reinstall espeak-ng-data)."))
        _loaded[name] = (lib, rate)
        return lib, rate


class EspeakEngine:
    """One eSpeak NG voice maker. ``library`` is a path or soname (default: found on the
    system); a library that is missing raises :class:`SpeechUnavailable` here, at once."""

    name = "espeak-ng"

    def __init__(self, library: str | None = None) -> None:
        self._lib, self.sample_rate = _load(library)

    def voices(self) -> list[VoiceInfo]:
        with _LOCK:
            table = self._lib.espeak_ListVoices(None)
            out = []
            i = 0
            while table and table[i]:
                v = table[i].contents
                langs = (v.languages or b"")[1:].split(b"\0")[0]  # first byte is a priority
                out.append(VoiceInfo((v.name or b"").decode("utf-8", "replace"),
                                     langs.decode("utf-8", "replace"),
                                     (v.identifier or b"").decode("utf-8", "replace")))
                i += 1
        return out

    def synth(self, text: str, on_samples: Samples, *, voice: str = "en", rate: int = 175,
              volume: int = 100) -> bool:
        """Make ``text`` with ``voice`` (an eSpeak NG voice name, optionally ``+variant``) at
        ``rate`` words per minute and ``volume`` (0-200, 100 is normal), handing the samples to
        ``on_samples`` as they come. Returns False when ``on_samples`` stopped it early. Raises
        :class:`SpeechUnavailable` for a voice that is not installed."""
        stopped = [False]
        failed: list[BaseException] = []

        def callback(wav: ctypes._Pointer[ctypes.c_short], count: int, _events: int | None) -> int:
            if stopped[0]:
                return 1
            if wav and count > 0:
                try:
                    go_on = on_samples(ctypes.string_at(wav, count * 2))
                except BaseException as exc:  # an exception cannot cross the C library: carry it
                    failed.append(exc)
                    go_on = False
                if not go_on:
                    stopped[0] = True
                    return 1
            return 0

        c_callback = _CALLBACK(callback)
        encoded = text.encode("utf-8") + b"\0"
        with _LOCK:
            lib = self._lib
            lib.espeak_SetSynthCallback(c_callback)
            if lib.espeak_SetVoiceByName(voice.encode("utf-8")) != EE_OK:
                base = voice.split("+")[0]
                if base == voice or lib.espeak_SetVoiceByName(base.encode("utf-8")) != EE_OK:
                    raise SpeechUnavailable(
                        _("The voice {voice!r} is not installed (apt install espeak-ng).").format(voice=voice))
            lib.espeak_SetParameter(PARAM_RATE, max(RATE_MIN, min(RATE_MAX, int(rate))), 0)
            lib.espeak_SetParameter(PARAM_VOLUME, max(0, min(200, int(volume))), 0)
            buf = ctypes.create_string_buffer(encoded)
            err = lib.espeak_Synth(buf, len(encoded), 0, POS_CHARACTER, 0, CHARS_UTF8 | ENDPAUSE, None, None)
            lib.espeak_SetSynthCallback(_NOOP)  # the library keeps no pointer to a dead callback
        if failed:
            raise failed[0]
        if err != EE_OK and not stopped[0]:
            raise SpeechUnavailable(_("The speech engine failed (error {code}).").format(code=err))
        return not stopped[0]


def voice_for(language: str, variant: str = "") -> str:
    """The eSpeak NG voice name for the app's ``language`` ("en", "nl", "fr", "ja"), with the
    Settings' ``variant`` ("f3", ...) added."""
    base = LANGUAGE_VOICES.get(language.split("_")[0].lower(), "en")
    return f"{base}+{variant}" if variant else base
