"""The voice in the real app (offscreen): turns are spoken with the real eSpeak NG library into
WAV files, the UI keeps drawing while it speaks, the mute button silences it, a missing engine
or sound device is a warning in Settings, and the settings survive a restart."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.audio import AplayOutput, WavFileOutput
from hardware.espeak import EspeakEngine
from tests.hardware.speech_helpers import read_wav, requires_espeak
from tests.ui.helpers import pump, screenshot, tap, wait_for

pytestmark = requires_espeak

LONG = ("The cat throws a six, runs past the Kattepot, and the mouse loses its next turn; "
        "then the mouse throws a one and stays where it is, two squares from the hole.")


@pytest.fixture
def speech_to(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Set the output (and engine) the next app's voice gets."""
    from ui.application import CompanionApp

    def use(output: Any, engine: Any = "espeak-ng") -> Any:
        monkeypatch.setattr(CompanionApp, "speech_output", output)
        monkeypatch.setattr(CompanionApp, "speech_engine", staticmethod(engine) if callable(engine) else engine)
        return output

    yield use


def _start_katenmuis(app: Any) -> Any:
    app.go("home")
    home = app.screen("home")
    tap(home.game_buttons["katenmuis"])
    home.name_inputs["cat"].text = "Anna"
    home.name_inputs["mouse"].text = "Ben"
    tap(home.ids.start)
    pump()
    return app.screen("katenmuis")


def _throw(screen: Any, a: int, b: int) -> None:
    picker = screen.picker
    tap(picker.rows[0][picker.faces.index(a)])
    tap(picker.rows[1][picker.faces.index(b)])


def test_turns_are_spoken_narration_first_then_whose_turn(make_app: Any, speech_to: Any, tmp_path: Path) -> None:
    out = speech_to(WavFileOutput(tmp_path))
    app = make_app()
    screen = _start_katenmuis(app)
    assert app.voice.speaker.wait_idle(10)
    said = [h.text for h in app.voice.speaker.history]
    assert said == [screen.banner]  # "Anna's turn (Cat)" at the start
    first_banner = screen.banner
    _throw(screen, 3, 4)
    assert app.voice.speaker.wait_idle(10)
    said = [h.text for h in app.voice.speaker.history][1:]
    turn = app.session.turns[-1]
    lines = screen.narrate_turn(turn.effects, turn.action)
    assert lines and said[: len(lines)] == lines
    assert said[len(lines):] == ([] if screen.banner == first_banner else [screen.banner])
    assert len(out.files) == 1 + len(said)
    for path in out.files:
        audio = read_wav(path)
        assert audio.rms > 500 and audio.seconds > 0.3, path


def test_the_first_game_guide_is_spoken_instead_of_the_bare_banner(make_app: Any, speech_to: Any,
                                                                    tmp_path: Path) -> None:
    from ui import guide

    speech_to(WavFileOutput(tmp_path))
    app = make_app()
    guide.set_guide(app, True)
    screen = _start_katenmuis(app)
    assert app.voice.speaker.wait_idle(10)
    said = [h.text for h in app.voice.speaker.history]
    assert screen.guide_text and said == [screen.guide_text]  # "Anna (Cat), throw both dice."
    assert screen.banner not in said
    _throw(screen, 3, 4)
    assert app.voice.speaker.wait_idle(10)
    said = [h.text for h in app.voice.speaker.history]
    assert said[-1] == screen.guide_text and screen.guide_text != said[0]  # the next step, aloud
    guide.set_guide(app, False)


def test_the_companion_says_its_move(make_app: Any, speech_to: Any, tmp_path: Path) -> None:
    """Its move in words is spoken (players look at the board, not the screen), then it waits."""
    speech_to(WavFileOutput(tmp_path))
    app = make_app()
    app.go("home")
    home = app.screen("home")
    tap(home.game_buttons["qubism"])
    choice = home.seat_choices["white"]
    choice.who.text = "Companion"
    tap(choice.toggles["easy"])
    home.name_inputs["black"].text = "Ben"
    pump(2)
    tap(home.ids.start)
    screen = app.screen("qubism")
    turn = screen._companion_turn
    assert wait_for(lambda: turn.proposal is not None, timeout=20)
    assert app.voice.speaker.wait_idle(10)
    said = [h.text for h in app.voice.speaker.history]
    assert said[-1] == turn.proposal.sentence + "." and said[-1].startswith("White ")
    assert len(app.session.turns) == 0  # said, not done: a person makes the move


def test_the_ui_keeps_drawing_while_a_long_sentence_is_spoken(make_app: Any, speech_to: Any,
                                                              tmp_path: Path) -> None:
    from kivy.clock import Clock

    speech_to(WavFileOutput(tmp_path, realtime=True))  # as slow as a sound card
    app = make_app()
    ticks = [0]
    ev = Clock.schedule_interval(lambda _dt: ticks.__setitem__(0, ticks[0] + 1), 0)
    try:
        t = time.perf_counter()
        app.voice.say(LONG)
        said_in = time.perf_counter() - t
        assert wait_for(lambda: app.voice.speaker.speaking, 5)
        ticks[0] = 0
        t = time.perf_counter()
        while time.perf_counter() - t < 1.0:
            pump()
            time.sleep(0.005)
        assert app.voice.speaker.speaking, "the sentence should still be playing"
    finally:
        ev.cancel()
        app.voice.speaker.stop()
    assert said_in < 0.05, f"say() blocked the UI thread for {said_in:.3f} s"
    assert ticks[0] >= 15, f"only {ticks[0]} frames in 1 s while speaking"


def test_the_mute_button_stops_speech_and_is_remembered(make_app: Any, speech_to: Any, tmp_path: Path) -> None:
    out = speech_to(WavFileOutput(tmp_path, realtime=True))
    db = tmp_path / "mute.db"
    app = make_app(db=db)
    screen = _start_katenmuis(app)
    app.voice.say(LONG, interrupt=True)
    assert wait_for(lambda: app.voice.speaker.current_text == LONG and out.sinks[-1].frames > 0, 5)
    time.sleep(0.2)
    mute = screen.ids.mute_button
    assert mute.text == "Mute"
    tap(mute)
    assert wait_for(lambda: not app.voice.speaker.speaking, 1.0), "still speaking after Mute"
    assert mute.text == "Unmute"
    assert app.prefs.get("ui.speech_on") is False
    assert not app.voice.speaker.history[-1].finished
    files = len(out.files)
    _throw(screen, 2, 5)
    pump(3)
    assert app.voice.speaker.wait_idle(2)
    assert len(out.files) == files, "spoke while muted"
    screenshot(app.root, "voice_muted_800x480")
    # the next start of the app is still muted; Unmute speaks again
    app.store.close()  # the first app has stopped: one writer per database
    app2 = make_app(db=db)
    assert app2.voice.enabled is False
    app2.resume_game("katenmuis")
    mute2 = app2.screen("katenmuis").ids.mute_button
    pump(2)
    assert mute2.text == "Unmute"
    tap(mute2)
    assert app2.voice.enabled and app2.prefs.get("ui.speech_on") is True and mute2.text == "Mute"


def test_a_missing_engine_is_a_warning_in_settings_and_the_game_goes_on(make_app: Any, speech_to: Any,
                                                                        tmp_path: Path) -> None:
    from ui import theme

    speech_to(WavFileOutput(tmp_path), engine=lambda: EspeakEngine("/nonexistent/libespeak-ng.so.1"))
    app = make_app()
    app.go("settings")
    panel = app.screen("settings").ids.voice
    pump(2)
    _tap(panel.test_button)
    assert wait_for(lambda: "could not be loaded" in panel.status_label.text, 5), panel.status_label.text
    assert "apt install espeak-ng" in panel.status_label.text
    assert list(panel.status_label.color) == list(theme.BAD)
    _scroll_to(panel.status_label)
    screenshot(app.root, "settings_voice_no_engine_800x480")
    screen = _start_katenmuis(app)
    _throw(screen, 6, 1)
    assert len(app.session.turns) == 1 and screen.narration
    assert app.bridge.errors == []


def test_no_sound_device_is_a_warning_in_settings(make_app: Any, speech_to: Any, tmp_path: Path) -> None:
    speech_to(AplayOutput(program=str(tmp_path / "no-aplay")))
    app = make_app()
    app.go("settings")
    panel = app.screen("settings").ids.voice
    _tap(panel.test_button)
    assert wait_for(lambda: "aplay is not installed" in panel.status_label.text, 5), panel.status_label.text


def test_voice_settings_are_remembered_across_restarts(make_app: Any, speech_to: Any, tmp_path: Path) -> None:
    out = speech_to(WavFileOutput(tmp_path / "wav"))
    db = tmp_path / "voice.db"
    app = make_app(db=db)
    app.go("settings")
    panel = app.screen("settings").ids.voice
    pump(2)
    minus_volume = panel.steppers["ui.speech_volume"][0]
    plus_rate = panel.steppers["ui.speech_rate"][2]
    _tap(minus_volume)
    _tap(minus_volume)
    _tap(plus_rate)
    _tap(panel.variant_buttons["f3"])
    assert panel.volume_label.text == "80%" and panel.rate_label.text == "180 words/min"
    _tap(panel.test_button)
    assert app.voice.speaker.wait_idle(10)
    assert app.voice.speaker.history[-1].voice == "en+f3"
    assert read_wav(out.files[-1]).rms > 300
    screenshot(app.root, "settings_voice_800x480")
    _tap(panel.onoff)
    assert app.prefs.get("ui.speech_on") is False
    # a new app on the same database: the same settings, shown and used
    app.store.close()  # the first app has stopped: one writer per database
    app2 = make_app(db=db)
    s = app2.voice.settings()
    assert (s.enabled, s.volume, s.rate, s.variant) == (False, 80, 180, "f3")
    app2.go("settings")
    panel2 = app2.screen("settings").ids.voice
    pump(2)
    assert panel2.volume_label.text == "80%" and panel2.rate_label.text == "180 words/min"
    assert panel2.variant_buttons["f3"].state == "down" and panel2.onoff.state == "normal"


def _tap(widget: Any) -> None:
    """Scroll Settings so that ``widget`` is on screen, then touch it."""
    _scroll_to(widget)
    tap(widget)


def _scroll_to(widget: Any) -> None:
    from kivy.uix.scrollview import ScrollView

    sv = widget.parent
    while sv is not None and not isinstance(sv, ScrollView):
        sv = sv.parent
    pump(2)  # laid out first
    if sv is not None:
        sv.scroll_to(widget, padding=20, animate=False)
        pump(2)

