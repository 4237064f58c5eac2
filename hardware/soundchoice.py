"""Where the voice is heard and which voice, in words a parent reads ("Speaker on the Pi",
"HDMI screen", "Sound off"; "English (woman)"), never ALSA card names or eSpeak voice names.

``outputs()`` reads the sound cards ALSA knows (``/proc/asound/cards``) and names each by what it
is: the Pi's headphone/speaker jack, an HDMI screen, a USB speaker. The device string it carries
(``plughw:CARD=Headphones``) goes to ``aplay -D`` (hardware.audio.AplayOutput) and is kept in
settings, never shown. ``voice_words(language, variant)`` names a voice of hardware.espeak in its words
(``hardware.espeak.variant_words``, also Settings' words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companion.i18n import LANGUAGES, _
from hardware.espeak import variant_words

CARDS = Path("/proc/asound/cards")
OFF = "off"
"""The output choice that turns the voice off."""
_CARD_LINE = re.compile(r"^\s*(\d+)\s+\[(\S+)\s*\]:\s*(.*)$")

@dataclass(frozen=True)
class SoundOutput:
    device: str
    """For ``aplay -D`` ("plughw:CARD=Headphones"), "" for the system's default, or :data:`OFF`."""
    words: str


def _kind(card_id: str, description: str) -> str:
    text = f"{card_id} {description}".lower()
    if "hdmi" in text:
        return _("HDMI screen")
    if "headphone" in text or "bcm2835" in text:
        return _("Speaker on the Pi")
    if "usb" in text:
        return _("USB speaker")
    return _("Sound card {name}").format(name=card_id)


def outputs(cards: Path = CARDS) -> list[SoundOutput]:
    """The sound outputs in words: each card found, then Off. With no card list readable (not
    Linux, no sound driver), the system's default and Off."""
    found: list[SoundOutput] = []
    try:
        text = cards.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    seen: dict[str, int] = {}
    for line in text.splitlines():
        m = _CARD_LINE.match(line)
        if not m:
            continue
        words = _kind(m.group(2), m.group(3))
        seen[words] = seen.get(words, 0) + 1
        if seen[words] > 1:  # two HDMI ports: "HDMI screen 2"
            words = f"{words} {seen[words]}"
        found.append(SoundOutput(f"plughw:CARD={m.group(2)}", words))
    if not found:
        found.append(SoundOutput("", _("Speaker")))
    return found + [SoundOutput(OFF, _("Sound off"))]


def voice_words(language: str, variant: str) -> str:
    """A voice as a person names it: "English (woman)", "Nederlands (man)"."""
    code = language.split("_")[0].lower()
    return _("{language} ({kind})").format(language=LANGUAGES.get(code, code), kind=variant_words(variant))
