"""``companion say``: a sentence into a WAV file, and a clear reason when it cannot speak."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from tests.hardware.speech_helpers import read_wav, requires_espeak

pytestmark = requires_espeak


def test_say_writes_a_wav_file_in_the_language_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "nl.wav"
    assert main(["say", "De", "muis", "gooit", "vier.", "--lang", "nl", "-o", str(target)]) == 0
    out = capsys.readouterr().out
    assert str(target) in out and "voice nl" in out
    audio = read_wav(target)
    assert audio.rms > 800 and 0.04 <= audio.seconds / len("De muis gooit vier.") <= 0.3


def test_say_with_a_variant_and_speed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    slow, fast = tmp_path / "slow.wav", tmp_path / "fast.wav"
    assert main(["say", "Cat's turn, throw the dice.", "--rate", "100", "--variant", "f3", "-o", str(slow)]) == 0
    assert "voice en+f3" in capsys.readouterr().out
    assert main(["say", "Cat's turn, throw the dice.", "--rate", "300", "-o", str(fast)]) == 0
    assert read_wav(fast).seconds < read_wav(slow).seconds * 0.6


def test_say_explains_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["say", "Hello", "--engine", "nope", "-o", str(tmp_path / "x.wav")]) == 1
    assert "Unknown speech engine 'nope'" in capsys.readouterr().err
    assert not (tmp_path / "x.wav").exists()
    assert main(["say", "Hello", "-o", "/proc/no/such/dir/x.wav"]) == 2
    assert "The folder /proc/no/such/dir does not exist" in capsys.readouterr().err
