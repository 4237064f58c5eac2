"""The voice: the real eSpeak NG library speaking into WAV files (no sound card needed)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion import i18n
from hardware.audio import AplayOutput, WavFileOutput
from hardware.espeak import EspeakEngine, SpeechUnavailable, voice_for
from hardware.speech import NO_AUDIO, NO_ENGINE, OFF, READY, Speaker, SpeechStatus, VoiceSettings
from tests.hardware.speech_helpers import SENTENCES, read_wav, requires_espeak, write_empty_catalogue

pytestmark = requires_espeak

LONG = ("The cat throws a six, runs past the Kattepot, and the mouse loses its next turn; "
        "then the mouse throws a one and stays where it is, two squares from the hole.")


@pytest.fixture
def speakers() -> Iterator[Callable[..., Speaker]]:
    made: list[Speaker] = []

    def make(*args: object, **kwargs: object) -> Speaker:
        s = Speaker(*args, **kwargs).start()  # type: ignore[arg-type]
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def wait_until(cond: Callable[[], bool], timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.005)
    return cond()


@pytest.mark.parametrize("lang", ["en", "nl", "fr"])
def test_a_sentence_in_each_language_is_spoken_to_audio(lang: str, tmp_path: Path,
                                                        speakers: Callable[..., Speaker]) -> None:
    out = WavFileOutput(tmp_path)
    speaker = speakers(output=out)
    text = SENTENCES[lang]
    assert speaker.say(text, language=lang)
    assert speaker.wait_idle(10)
    assert speaker.status.state == READY
    assert len(out.files) == 1
    audio = read_wav(out.files[0])
    assert audio.rms > 800, f"{lang}: the audio is (nearly) silent, RMS {audio.rms:.0f}"
    per_char = audio.seconds / len(text)
    assert 0.04 <= per_char <= 0.3, f"{lang}: {audio.seconds:.2f} s for {len(text)} characters"
    assert speaker.history[-1].voice == voice_for(lang) and speaker.history[-1].finished


def test_the_voice_follows_the_language_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                speakers: Callable[..., Speaker]) -> None:
    for lang in ("nl", "fr"):
        write_empty_catalogue(tmp_path / "locale", lang)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    out = WavFileOutput(tmp_path / "wav")
    speaker = speakers(output=out)
    try:
        for lang in ("nl", "fr", "en"):
            assert i18n.set_language(lang) == lang
            speaker.say(SENTENCES[lang])
            assert speaker.wait_idle(10)
    finally:
        i18n.set_language("en")
    assert [s.voice for s in speaker.history] == ["nl", "fr", "en"]
    # the same words sound different in another language's voice
    assert len({round(read_wav(p).seconds, 2) for p in out.files}) == 3


def test_a_newer_sentence_cuts_in(tmp_path: Path, speakers: Callable[..., Speaker]) -> None:
    full = WavFileOutput(tmp_path / "full")
    with Speaker(output=full) as s:
        s.say(LONG)
        assert s.wait_idle(10)
    full_seconds = read_wav(full.files[0]).seconds
    out = WavFileOutput(tmp_path / "cut", realtime=True)  # takes as long as a sound card would
    speaker = speakers(output=out)
    speaker.say(LONG)
    assert wait_until(lambda: bool(out.sinks) and out.sinks[0].frames > 0)
    time.sleep(0.3)
    speaker.say("Cat's turn.", interrupt=True)
    assert speaker.wait_idle(10)
    assert [(h.text, h.finished) for h in speaker.history] == [(LONG, False), ("Cat's turn.", True)]
    cut = read_wav(out.files[0]).seconds
    assert cut < full_seconds / 2, f"the old sentence ran on: {cut:.2f} s of {full_seconds:.2f} s"
    assert read_wav(out.files[1]).rms > 800


def test_sentences_queue_in_order_and_stale_ones_are_dropped(tmp_path: Path,
                                                             speakers: Callable[..., Speaker]) -> None:
    out = WavFileOutput(tmp_path, realtime=True)
    speaker = speakers(output=out, max_pending=3)
    speaker.say("Mouse throws a four.")
    assert wait_until(lambda: speaker.speaking)
    for i in range(1, 6):
        speaker.say(f"{i}.")
    assert speaker.wait_idle(30)
    assert [h.text for h in speaker.history] == ["Mouse throws a four.", "3.", "4.", "5."]
    assert all(h.finished for h in speaker.history)


def test_stop_silences_at_once(tmp_path: Path, speakers: Callable[..., Speaker]) -> None:
    out = WavFileOutput(tmp_path, realtime=True)
    speaker = speakers(output=out)
    speaker.say(LONG)
    speaker.say("Never said.")
    assert wait_until(lambda: bool(out.sinks) and out.sinks[0].frames > 0)
    t = time.monotonic()
    speaker.stop()
    assert speaker.wait_idle(2)
    assert time.monotonic() - t < 0.5
    assert [(h.text, h.finished) for h in speaker.history] == [(LONG, False)]
    assert len(out.files) == 1


def test_volume_speed_and_variant_change_the_sound(tmp_path: Path) -> None:
    def render(name: str, settings: VoiceSettings) -> tuple[float, float, str]:
        out = WavFileOutput(tmp_path / name)
        with Speaker(output=out, settings=settings) as s:
            s.say(SENTENCES["en"], language="en")
            assert s.wait_idle(10)
            voice = s.history[-1].voice
        audio = read_wav(out.files[0])
        return audio.rms, audio.seconds, voice

    loud, normal_len, _v = render("loud", VoiceSettings(volume=100, rate=160))
    quiet, _s, _v = render("quiet", VoiceSettings(volume=25, rate=160))
    _r, fast_len, _v = render("fast", VoiceSettings(rate=300))
    _r, _s, voice = render("female", VoiceSettings(variant="f3"))
    assert quiet < loud * 0.5
    assert fast_len < normal_len * 0.75
    assert voice == "en+f3"


def test_turned_off_it_says_nothing(tmp_path: Path, speakers: Callable[..., Speaker]) -> None:
    out = WavFileOutput(tmp_path)
    speaker = speakers(output=out, settings=VoiceSettings(enabled=False))
    assert not speaker.say("Hello.")
    assert speaker.wait_idle(5)
    assert speaker.status.state == OFF and out.files == []
    speaker.configure(VoiceSettings(enabled=True))
    assert speaker.say("Hello.")
    assert speaker.wait_idle(5) and len(out.files) == 1


def test_a_missing_engine_is_a_status_not_a_crash(tmp_path: Path, speakers: Callable[..., Speaker]) -> None:
    seen: list[SpeechStatus] = []
    out = WavFileOutput(tmp_path)
    missing = speakers(lambda: EspeakEngine("/nonexistent/libespeak-ng.so.1"), out, on_status=seen.append)
    assert missing.wait_idle(5)
    assert missing.status.state == NO_ENGINE
    assert "espeak-ng" in missing.status.describe() and "could not be loaded" in missing.status.describe()
    assert not missing.say("Hello.")
    unknown = speakers("festival-9000", out)
    assert unknown.wait_idle(5)
    assert unknown.status.state == NO_ENGINE and "festival-9000" in unknown.status.describe()
    assert seen and seen[-1].state == NO_ENGINE
    assert out.files == []
    with pytest.raises(SpeechUnavailable):
        EspeakEngine("/nonexistent/libespeak-ng.so.1")


def test_no_sound_device_is_a_status_and_is_tried_again(tmp_path: Path, speakers: Callable[..., Speaker]) -> None:
    speaker = speakers(output=AplayOutput(program=str(tmp_path / "no-aplay")), retry_s=0.0)
    assert speaker.wait_idle(5)
    assert speaker.status.state == NO_AUDIO
    assert "aplay is not installed" in speaker.status.describe()
    assert speaker.say("Hello.")  # queued, dropped quietly: no crash
    assert speaker.wait_idle(5)
    assert speaker.status.state == NO_AUDIO
    # the device comes back: a fake aplay that swallows the samples (a real program)
    fake = tmp_path / "aplay-ok"
    fake.write_text("#!/bin/sh\ncat >/dev/null\n")
    fake.chmod(0o755)
    speaker.output = AplayOutput(program=str(fake))
    speaker.say("Hello again.")
    assert speaker.wait_idle(5)
    assert speaker.status.state == READY and speaker.history[-1].finished


@pytest.mark.skipif(shutil.which("aplay") is None, reason="aplay (alsa-utils) is not installed")
def test_aplay_with_a_missing_device_says_why(tmp_path: Path, speakers: Callable[..., Speaker]) -> None:
    speaker = speakers(output=AplayOutput(device="hw:CARD=NoSuchCard"))
    assert speaker.wait_idle(10)
    assert speaker.status.state == NO_AUDIO
    # one plain sentence, not aplay's own words ("aplay: main:831: audio open error…")
    assert speaker.status.describe() == "No sound device found: plug in a speaker or choose another output."
