"""hardware.cues: the sound cues made by code, written as WAV files of their own length, played
through an AudioOutput on a worker thread, silent when disabled or with no sound device."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from hardware import cues
from hardware.audio import AplayOutput, WavFileOutput


@pytest.mark.parametrize("name", sorted(cues.CUES))
def test_each_cue_is_a_short_sound_of_its_stated_length(name: str, tmp_path: Path) -> None:
    path = cues.write_wav(name, tmp_path / f"{name}.wav")
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, cues.RATE)
        seconds = w.getnframes() / cues.RATE
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(float)
    assert abs(seconds - cues.duration(name)) < 0.005
    assert 0.2 <= seconds <= 1.2  # short: a cue, not a tune
    assert np.abs(data).max() > 8000  # loud enough to hear
    assert abs(data[0]) < 2000 and abs(data[-1]) < 2000  # starts and ends softly: no click


def test_the_cues_differ() -> None:
    made = {name: cues.samples(name) for name in cues.CUES}
    assert len(set(made.values())) == len(made)


def test_player_writes_each_cue_and_stays_silent_when_disabled(tmp_path: Path) -> None:
    on = [True]
    player = cues.CuePlayer(WavFileOutput(tmp_path), enabled=lambda: on[0])
    assert player.play("cheese") and player.play("win")
    assert not player.play("no such cue")
    assert player.wait()
    assert player.played == ["cheese", "win"] and len(list(tmp_path.glob("*.wav"))) == 2
    on[0] = False  # muted
    assert not player.play("capture")
    assert player.wait()
    assert player.played == ["cheese", "win"] and len(list(tmp_path.glob("*.wav"))) == 2


def test_no_sound_device_is_silent_and_says_why() -> None:
    player = cues.CuePlayer(AplayOutput(program="/nonexistent/aplay"))
    assert player.play("capture")
    assert player.wait()
    assert player.played == [] and "aplay" in player.last_error
