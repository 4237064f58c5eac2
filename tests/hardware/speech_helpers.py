"""Shared by the speech tests: the real engine's presence, and what a WAV file holds."""

from __future__ import annotations

import os
import struct
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from hardware.espeak import find_library

requires_espeak = pytest.mark.skipif(
    find_library() is None and not os.environ.get("CI"),
    reason="libespeak-ng is not installed (apt install espeak-ng); CI installs it",
)

SENTENCES = {
    "en": "The mouse throws a four and runs to square seventeen.",
    "nl": "De muis gooit vier en rent naar vakje zeventien.",
    "fr": "La souris lance un quatre et court vers la case dix-sept.",
}


@dataclass(frozen=True)
class Audio:
    seconds: float
    rms: float  # of the whole file, full scale 32768
    peak: int


def read_wav(path: Path) -> Audio:
    with wave.open(str(path), "rb") as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2
        rate = w.getframerate()
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64)
    if data.size == 0:
        return Audio(0.0, 0.0, 0)
    return Audio(data.size / rate, float(np.sqrt(np.mean(data**2))), int(np.abs(data).max()))


def write_empty_catalogue(locale_dir: Path, lang: str) -> None:
    """A valid gettext catalogue with no messages, so ``set_language(lang)`` takes it."""
    target = locale_dir / lang / "LC_MESSAGES" / "companion.mo"
    target.parent.mkdir(parents=True, exist_ok=True)
    # magic, revision, number of strings, offset of originals, offset of translations,
    # hash table size, hash table offset
    target.write_bytes(struct.pack("<7I", 0x950412DE, 0, 0, 28, 28, 0, 28))
