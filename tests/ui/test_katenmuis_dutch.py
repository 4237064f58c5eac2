"""A whole Kat en Muis game in Dutch, by simulated touches in the real app (offscreen): every
line the screen narrates is the Dutch narration of the effects the engine returned for that
throw; and the voice speaks those lines with the Dutch eSpeak NG voice (French after a switch).

The catalogues are compiled for the test (Babel) from the real ones plus
``companion/locale/ui-translations.json`` and ``core-translations.json`` (see
``tests/companion/core_catalogue.py``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.companion.core_catalogue import core_catalogue_dir
from tests.hardware.speech_helpers import requires_espeak
from tests.ui.catalogue import lang_app  # noqa: F401  (fixture; uses the locale_dir below)
from tests.ui.helpers import pump, screenshot, tap

ENGLISH = ("throws", "lands on", "pays", "wins", "misses", "jumps over", "overshoots")


@pytest.fixture(scope="module")
def locale_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ui/'s and the engines' messages in nl and fr, compiled into one catalogue per language."""
    return core_catalogue_dir(tmp_path_factory.mktemp("locale"))


def _start(app: Any, cat: str = "Anna", mouse: str = "Bram") -> Any:
    home = app.screen("home")
    tap(home.game_buttons["katenmuis"])
    home.name_inputs["cat"].text = cat
    home.name_inputs["mouse"].text = mouse
    tap(home.ids.start)
    pump()
    assert app.sm.current == "katenmuis"
    return app.screen("katenmuis")


def _throw(screen: Any, rng: random.Random) -> None:
    picker = screen.picker
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    tap(picker.rows[0][picker.faces.index(a)])
    tap(picker.rows[1][picker.faces.index(b)])


def test_a_whole_kat_en_muis_game_in_dutch_by_touch(lang_app: Any) -> None:
    from companion.games.katenmuis import narrate
    from companion.i18n import _, language

    app = lang_app("nl")
    assert language() == "nl"
    screen = _start(app)
    assert app.session.seats == {"cat": "Anna", "mouse": "Bram"}
    assert app.session.game.player_label("cat") == "Kat"
    rng = random.Random(21)
    throws = 0
    narrated = 0
    kinds: set[str] = set()
    while not app.session.is_over():
        assert throws < 400, "the game did not finish"
        _throw(screen, rng)
        throws += 1
        assert len(app.session.turns) == throws  # every pair of touches made exactly one throw
        turn = app.session.turns[-1]
        expected = narrate(list(turn.effects), app.session.seats)  # Dutch: the language in use
        assert expected, turn
        # the newest lines come first on the screen
        assert screen.narration[: len(expected)] == list(reversed(expected))
        for line in expected:
            assert not any(word in line for word in ENGLISH), line
        narrated += len(expected)
        kinds |= {type(e).__name__ for e in turn.effects}
    assert narrated > 2 * throws - 5
    assert {"Thrown", "Moved", "Paid", "Won"} <= kinds  # chips changed hands and someone won
    winner = app.session.name(str(app.session.state.outcome()["winner"]))
    assert screen.banner == _("{player} wins!").format(player=winner) != f"{winner} wins!"
    assert any("wint en krijgt beide potten" in line for line in screen.narration[:3])
    screenshot(app.root, "katenmuis_won_nl_800x480")
    # the end-of-game screen shows; back to the board for Undo
    assert app.sm.current == "gameover"
    tap(app.screen("gameover").ids.board_button)
    assert app.sm.current == "katenmuis"
    # undo in Dutch too
    tap(screen.ids.undo_button)
    assert not app.session.is_over()
    assert screen.narration[0].startswith("Hersteld: ")


@pytest.fixture
def wav_voice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """The next app's voice speaks with the real eSpeak NG library into WAV files."""
    from hardware.audio import WavFileOutput
    from ui.application import CompanionApp

    out = WavFileOutput(tmp_path / "wav")
    monkeypatch.setattr(CompanionApp, "speech_output", out)
    monkeypatch.setattr(CompanionApp, "speech_engine", "espeak-ng")
    return out


@requires_espeak
def test_the_voice_speaks_the_dutch_narration_with_the_dutch_voice(lang_app: Any, wav_voice: Any) -> None:
    from companion.games.katenmuis import narrate
    from companion.i18n import set_language

    app = lang_app("nl")
    screen = _start(app)
    speaker = app.voice.speaker
    assert speaker.wait_idle(15)
    before = len(speaker.history)
    _throw(screen, random.Random(3))
    assert speaker.wait_idle(15)
    spoken = list(speaker.history)[before:]
    turn = app.session.turns[-1]
    lines = narrate(list(turn.effects), app.session.seats)
    assert [s.text for s in spoken][: len(lines)] == lines
    assert {s.voice for s in spoken} == {"nl"} and all(s.finished for s in spoken)
    # switch to French mid-game: the next throw is narrated and spoken in French
    assert set_language("fr") == "fr"
    pump(2)
    screen = app.screen("katenmuis")
    before = len(speaker.history)
    _throw(screen, random.Random(4))
    assert speaker.wait_idle(15)
    spoken = list(speaker.history)[before:]
    lines = narrate(list(app.session.turns[-1].effects), app.session.seats)
    assert lines[0].startswith("Bram fait ") or lines[0].startswith("Anna fait ")
    # (the speaker reads French's no-break spaces as plain spaces)
    assert [s.text for s in spoken][: len(lines)] == [line.replace("\u00a0", " ") for line in lines]
    assert {s.voice for s in spoken} == {"fr"}
    assert len(wav_voice.files) >= len(spoken)

