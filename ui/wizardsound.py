"""The set-up wizard's "Die and sound" page (ui.screens.wizard): the electronic die found by
scanning the serial ports and tried live, the sound output and the voice, all in words.

Choosing a port saves it (``ui.serial_port``) and starts the die reader on it; the next throw
says "The die works: it threw 3 + 5". Choosing an output saves ``ui.audio_device`` and points
the voice's ``aplay`` at it ("Off" turns the voice off); a voice is a variant of hardware.espeak
named by hardware.soundchoice ("English (woman)").
"""

from __future__ import annotations

from typing import Any

from companion import i18n
from companion.i18n import _
from hardware.espeak import VARIANTS
from ui import theme
from ui.widgets.common import BigToggle
from ui.widgets.icons import IconButton

PORT_LISTER: Any = None
"""What lists the serial ports (None: pyserial's ``comports``); tests give a pseudo-terminal's."""


def build(screen: Any) -> None:
    build_outputs(screen)
    build_voices(screen)
    voice = screen.app.voice
    if not screen.sound_text:
        screen.sound_text = voice.status_text if not voice.status_ok else ""


# -- the die ------------------------------------------------------------------------------------

def search_die(screen: Any) -> None:
    from hardware.portscan import scan, scan_sentence

    box = screen.ids.die_ports
    box.clear_widgets()
    screen.port_buttons = []
    try:
        ports = scan(PORT_LISTER)
    except (OSError, ImportError):
        screen.die_text = _("The serial ports could not be listed: restart the companion and search again.")
        return
    screen.die_text = scan_sentence(ports)
    saved = screen.app.prefs.get("ui.serial_port")
    for port in ports:
        b = IconButton(icon="check" if port.device == saved else "", text=port.words, size_hint_y=None, height=52,
                       bg=list(theme.PANEL_HI))
        b.bind(on_release=lambda _b, p=port: use_port(screen, p))
        box.add_widget(b)
        screen.port_buttons.append(b)


def use_port(screen: Any, port: Any) -> None:
    app = screen.app
    try:
        app.prefs.set("ui.serial_port", port.device)
    except ValueError:
        screen.die_text = _("That port cannot be used: touch Search again.")
        return
    for b in screen.port_buttons:
        b.icon = "check" if b.text == port.words else ""
    if not app.connect_serial(port.device):
        screen.die_text = _("The electronic die cannot be used: its software is missing.")
        return
    screen.die_text = _("Using {port}. Throw the die to try it.").format(port=port.words)


# -- sound --------------------------------------------------------------------------------------

def build_outputs(screen: Any) -> None:
    from hardware.soundchoice import OFF, outputs

    box = screen.ids.sound_outputs
    box.clear_widgets()
    app = screen.app
    saved = app.prefs.get("ui.audio_device")
    on = bool(app.voice.enabled)
    for out in outputs():
        down = (out.device == OFF and not on) or (on and out.device == saved)
        b = BigToggle(text=out.words, group="wizard_sound", allow_no_selection=False, font_size=theme.FONT_SMALL,
                      state="down" if down else "normal")
        b.bind(on_release=lambda _b, d=out.device: use_output(screen, d))
        box.add_widget(b)


def use_output(screen: Any, device: str) -> None:
    from hardware.soundchoice import OFF

    voice = screen.app.voice
    if device == OFF:
        voice.set("ui.speech_on", False)
        screen.sound_text = _("The voice is off.")
        return
    screen.app.prefs.set("ui.audio_device", device)
    output = voice.speaker.output
    if hasattr(output, "device"):
        output.device = device or None
    voice.set("ui.speech_on", True)
    voice.speaker.retry()
    screen.sound_text = _("Touch Test the voice to hear it.")


def build_voices(screen: Any) -> None:
    from hardware.soundchoice import voice_words

    box = screen.ids.voices
    box.clear_widgets()
    current = screen.app.prefs.get("ui.speech_variant")
    lang = i18n.language()
    for key in VARIANTS:
        b = BigToggle(text=voice_words(lang, key), group="wizard_voice", allow_no_selection=False,
                      font_size=theme.FONT_SMALL, state="down" if key == current else "normal", halign="center")
        b.bind(width=lambda w, wd: setattr(w, "text_size", (wd - 12, None)))
        b.bind(on_release=lambda _b, k=key: screen.app.voice.set("ui.speech_variant", k))
        box.add_widget(b)


def test_sound(screen: Any) -> None:
    voice = screen.app.voice
    voice.test()
    screen.sound_text = voice.status_text if not voice.status_ok else _("Listen: the companion is speaking.")
    if not voice.enabled:
        screen.sound_text = _("The voice is off: choose where to hear it first.")
