"""The app's voice: one ``say`` for every screen, the mute button, and the Settings section.

:class:`AppVoice` wraps a :class:`hardware.speech.Speaker` with the saved settings (``ui.speech_*``
in ui.prefs) and knows what to say when:

- ``narrate(lines)``: the sentences of a turn just applied; the first one cuts off whatever is
  still being said (stale narration never runs behind the game), the rest follow;
- ``turn(banner)``: the whose-turn banner, said when it changes (and not again when the
  narration just said the same, e.g. "Cat wins");
- ``say(text)``: anything else (the camera's questions, the Test button).

The speaker's status comes back through the bridge; ``status_text``/``status_ok`` feed the
warning line in Settings. Nothing here blocks the UI thread: the speaker has its own worker.
"""

from __future__ import annotations

import re
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion import i18n
from companion.i18n import _
from hardware.audio import AplayOutput, AudioOutput
from hardware.espeak import VARIANTS, variant_words
from hardware.soundchoice import voice_words
from hardware.speech import Speaker, SpeechStatus, VoiceSettings
from ui import theme
from ui.widgets.common import BigButton, BigToggle, KeyLabel, TextLabel
from ui.widgets.icons import IconButton

VOLUME_STEP = 10
RATE_STEP = 20


def variant_label(variant: str) -> str:
    """A voice variant on its Settings button: the setup wizard's words for it ("Woman, softer")."""
    words = variant_words(variant)
    return words[:1].upper() + words[1:]


def _plain(text: str) -> str:
    return re.sub(r"[^\w]+", " ", text.lower()).strip()


class AppVoice(EventDispatcher):
    enabled = BooleanProperty(True)
    status_text = StringProperty("")
    status_ok = BooleanProperty(True)
    voice_name = StringProperty("")

    def __init__(self, prefs: Any, bridge: Any, engine: Any = "espeak-ng", output: AudioOutput | None = None) -> None:
        super().__init__()
        self.prefs = prefs
        self.enabled = bool(prefs.get("ui.speech_on"))
        if output is None and prefs.get("ui.audio_device") not in ("", "off"):
            output = AplayOutput(prefs.get("ui.audio_device"))  # chosen in the set-up wizard
        self.speaker = Speaker(engine, output, settings=self.settings(), on_status=bridge.callback("speech_status"))
        self._off = [bridge.on("speech_status", self._on_status),
                     i18n.on_change(bridge.callback("speech_language"))]
        self._off.append(bridge.on("speech_language", lambda _code: self._show_voice()))
        self._spoken_banner = ""
        self._last_lines: list[str] = []
        self._on_status(self.speaker.status)
        self._show_voice()

    # -- settings -------------------------------------------------------------------------------
    def settings(self) -> VoiceSettings:
        p = self.prefs
        return VoiceSettings(enabled=bool(p.get("ui.speech_on")), volume=int(p.get("ui.speech_volume")),
                             rate=int(p.get("ui.speech_rate")), variant=str(p.get("ui.speech_variant")))

    def set(self, key: str, value: Any) -> None:
        """Save one ``ui.speech_*`` setting and apply it from the next sentence."""
        self.prefs.set(key, value)
        self.speaker.configure(self.settings())
        self.enabled = bool(self.prefs.get("ui.speech_on"))
        self._show_voice()

    def toggle(self) -> bool:
        """The mute button: on -> off (silent at once), off -> on. Returns the new state."""
        self.set("ui.speech_on", not self.enabled)
        return self.enabled

    def _show_voice(self) -> None:
        lang = i18n.language()
        self.voice_name = _("The voice: {voice}.").format(voice=voice_words(lang, self.settings().variant))

    def _on_status(self, status: SpeechStatus) -> None:
        self.status_text = status.describe()
        self.status_ok = status.ok

    # -- speaking -------------------------------------------------------------------------------
    def start(self) -> None:
        self.speaker.start()

    def say(self, text: str, interrupt: bool = False) -> bool:
        return self.speaker.say(text, interrupt=interrupt)

    def narrate(self, lines: list[str]) -> None:
        self._last_lines = list(lines)
        for i, line in enumerate(lines):
            self.say(line, interrupt=(i == 0))

    def turn(self, banner: str) -> None:
        if not banner or banner == self._spoken_banner:
            return
        self._spoken_banner = banner
        if any(_plain(banner) == _plain(line) for line in self._last_lines):
            return
        self.say(banner)

    def test(self) -> None:
        """Settings' Test button: look for the engine and sound device again, then speak."""
        self.speaker.retry()
        if not self.enabled:
            self.status_text = _("The voice is off: turn it on to test it.")
            return
        self.say(_("This is how the companion sounds. Mouse throws a four."), interrupt=True)

    def close(self) -> None:
        for off in self._off:
            off()
        self._off = []
        self.speaker.close()


def app_voice() -> AppVoice | None:
    app = App.get_running_app()
    return getattr(app, "voice", None)


class MuteButton(IconButton):
    """The game screen's mute button: silences the voice at once; tap again to hear it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._voice: AppVoice | None = None
        Clock.schedule_once(lambda _dt: self._attach(), 0)
        self.bind(on_release=lambda *_: self._tap())

    def _attach(self) -> None:
        voice = app_voice()
        if voice is None or voice is self._voice:
            return
        self._voice = voice
        voice.bind(enabled=lambda *_: self._show())
        self._show()

    def _show(self) -> None:
        on = self._voice.enabled if self._voice is not None else False
        self.text = _("Mute") if on else _("Unmute")
        self.icon = "speaker" if on else "mute"
        self.bg = list(theme.PANEL_HI if on else theme.BAD)

    def _tap(self) -> None:
        self._attach()
        if self._voice is not None:
            self._voice.toggle()


class VoicePanel(BoxLayout):
    """The VOICE section of Settings: on/off, Test, volume, speed, voice, and the status line."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("spacing", 6)
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.bind(minimum_height=self.setter("height"))
        self.variant_buttons: dict[str, BigToggle] = {}
        self.steppers: dict[str, tuple[BigButton, KeyLabel, BigButton]] = {}
        """Setting key -> its (minus, value, plus) widgets."""
        self._bound: AppVoice | None = None

    def refresh(self) -> None:
        """Rebuild from the saved settings (Settings calls this on every visit)."""
        voice = app_voice()
        if voice is None:
            return
        self.clear_widgets()
        row = BoxLayout(size_hint_y=None, height=52, spacing=8)
        row.add_widget(TextLabel(text=_("Speak the game aloud")))
        self.onoff = BigToggle(text=_("On") if voice.enabled else _("Off"), size_hint_x=None, width=90,
                               state="down" if voice.enabled else "normal")
        self.onoff.bind(on_release=lambda b: self._set("ui.speech_on", b.state == "down"))
        self.test_button = BigButton(text=_("Test voice"), size_hint_x=None, width=150, bg=list(theme.INFO))
        self.test_button.bind(on_release=lambda *_: voice.test())
        row.add_widget(self.onoff)
        row.add_widget(self.test_button)
        self.add_widget(row)
        self.volume_label = self._stepper(_("Volume"), "ui.speech_volume", VOLUME_STEP, 0, 100, "{v}%")
        self.rate_label = self._stepper(_("Speed"), "ui.speech_rate", RATE_STEP, 80, 300, _("{v} words/min"))
        variants = BoxLayout(size_hint_y=None, height=52, spacing=6)
        current = voice.prefs.get("ui.speech_variant")
        self.variant_buttons = {}
        for key in VARIANTS:
            b = BigToggle(text=variant_label(key), group="speech_variant", allow_no_selection=False,
                          state="down" if key == current else "normal", font_size=theme.FONT_SMALL)
            b.bind(on_release=lambda _b, k=key: self._set("ui.speech_variant", k))
            variants.add_widget(b)
            self.variant_buttons[key] = b
        self.add_widget(variants)
        self.voice_label = TextLabel(text=voice.voice_name, color=theme.MUTED, font_size=theme.FONT_SMALL,
                                     size_hint_y=None, height=28)
        self.status_label = KeyLabel(text="", font_size=theme.FONT, halign="left", size_hint_y=None)
        self.status_label.bind(width=lambda w, wd: setattr(w, "text_size", (wd, None)),
                               texture_size=lambda w, ts: setattr(w, "height", ts[1] + 6))
        self.add_widget(self.voice_label)
        self.add_widget(self.status_label)
        if self._bound is not voice:
            self._bound = voice
            voice.bind(status_text=lambda *_: self._show_status(), status_ok=lambda *_: self._show_status(),
                       voice_name=lambda _w, v: setattr(self.voice_label, "text", v),
                       enabled=lambda *_: self._show_enabled())
        self._show_status()

    def _stepper(self, title: str, key: str, step: int, low: int, high: int, fmt: str) -> KeyLabel:
        voice = app_voice()
        assert voice is not None
        row = BoxLayout(size_hint_y=None, height=52, spacing=8)
        row.add_widget(TextLabel(text=title, size_hint_x=0.45))
        minus = BigButton(text="-", size_hint_x=None, width=56)
        label = KeyLabel(text=fmt.format(v=voice.prefs.get(key)), font_size=theme.FONT)
        plus = BigButton(text="+", size_hint_x=None, width=56)

        def step_by(delta: int) -> None:
            value = max(low, min(high, int(voice.prefs.get(key)) + delta))
            self._set(key, value)
            label.text = fmt.format(v=value)

        minus.bind(on_release=lambda *_: step_by(-step))
        plus.bind(on_release=lambda *_: step_by(step))
        for w in (minus, label, plus):
            row.add_widget(w)
        self.add_widget(row)
        self.steppers[key] = (minus, label, plus)
        return label

    def _set(self, key: str, value: Any) -> None:
        voice = app_voice()
        if voice is not None:
            voice.set(key, value)

    def _show_enabled(self) -> None:
        voice = app_voice()
        if voice is None or not hasattr(self, "onoff"):
            return
        self.onoff.state = "down" if voice.enabled else "normal"
        self.onoff.text = _("On") if voice.enabled else _("Off")

    def _show_status(self) -> None:
        voice = app_voice()
        if voice is None or not hasattr(self, "status_label"):
            return
        self.status_label.text = voice.status_text
        self.status_label.color = list(theme.TEXT if voice.status_ok else theme.BAD)
