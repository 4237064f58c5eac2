"""The GPIO panel through gpiozero's MockFactory: presses, holds, LEDs and the buzzer."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.games import kilkenny
from companion.games.katenmuis import LosesNextTurn, Paid, ThrowsAgain, TurnSkipped, Won
from hardware.panel import PATTERNS, Panel, PanelPins, PanelWarning

PINS = PanelPins()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


class Calls:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> None:
        self.n += 1


def wait_until(pred: Any, timeout: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.01)
    return bool(pred())


@pytest.fixture
def panel(factory: MockFactory) -> Iterator[tuple[Panel, dict[str, Calls]]]:
    calls = {"roll": Calls(), "undo": Calls(), "menu": Calls()}
    p = Panel(pin_factory=factory, on_roll=calls["roll"], on_undo=calls["undo"], on_menu=calls["menu"],
              hold_time=0.5)
    assert p.available, p.reason
    p.set_players(["cat", "mouse"])
    yield p, calls
    p.close()


def press(factory: MockFactory, pin: int, hold: float = 0.0) -> None:
    factory.pin(pin).drive_low()
    if hold:
        time.sleep(hold)
    factory.pin(pin).drive_high()


def test_roll_and_menu_presses(factory: MockFactory, panel: Any) -> None:
    p, calls = panel
    press(factory, PINS.roll)
    assert calls["roll"].n == 1 and calls["menu"].n == 0
    time.sleep(0.06)
    press(factory, PINS.menu)
    assert calls["menu"].n == 1 and calls["roll"].n == 1 and calls["undo"].n == 0


def test_contact_bounce_is_one_press(factory: MockFactory) -> None:
    roll = Calls()
    # a generous bounce time so a busy test machine cannot stretch the bounce past it
    with Panel(pin_factory=factory, on_roll=roll, bounce_time=0.3) as p:
        assert p.available
        pin = factory.pin(PINS.roll)
        for _ in range(5):  # a bouncing contact: five edges within a few milliseconds
            pin.drive_low()
            pin.drive_high()
        assert roll.n == 1
        time.sleep(0.35)  # past the bounce time: a real second press
        press(factory, PINS.roll)
        assert roll.n == 2


def test_undo_fires_only_when_held(factory: MockFactory, panel: Any) -> None:
    p, calls = panel
    press(factory, PINS.undo, hold=0.05)  # a tap is not an undo (hold_time 0.5 s here)
    time.sleep(0.6)
    assert calls["undo"].n == 0
    factory.pin(PINS.undo).drive_low()
    assert wait_until(lambda: calls["undo"].n == 1, 2.0)
    time.sleep(0.8)
    factory.pin(PINS.undo).drive_high()
    assert calls["undo"].n == 1  # once per hold, not repeated
    assert calls["roll"].n == 0


def test_undo_needs_the_full_two_second_hold_by_default(factory: MockFactory) -> None:
    undo = Calls()
    with Panel(pin_factory=factory, on_undo=undo) as p:
        assert p.hold_time == 2.0
        pin = factory.pin(PINS.undo)
        pin.drive_low()
        time.sleep(1.6)
        assert undo.n == 0
        assert wait_until(lambda: undo.n == 1, 1.5)
        pin.drive_high()
        press(factory, PINS.undo, hold=1.0)  # released before 2 s
        time.sleep(0.3)
        assert undo.n == 1


def test_show_turn_lights_one_led(factory: MockFactory, panel: Any) -> None:
    p, _ = panel
    p.show_turn("cat")
    assert p.led_states() == [True, False, False, False]
    p.show_turn("mouse")
    assert p.led_states() == [False, True, False, False]
    assert factory.pin(PINS.leds[1]).state and not factory.pin(PINS.leds[0]).state
    p.show_turn(None)
    assert p.led_states() == [False] * 4


def _toggles(factory: MockFactory, pin: int) -> int:
    return len(factory.pin(pin).states) - 1


def test_a_lost_turn_blinks(factory: MockFactory, panel: Any) -> None:
    p, _ = panel
    p.show_turn("mouse", lost=True)
    factory.pin(PINS.leds[1]).clear_states()
    time.sleep(0.8)
    assert _toggles(factory, PINS.leds[1]) >= 2  # on/off at 0.25 s
    assert not factory.pin(PINS.leds[0]).state
    p.show_turn("cat")
    assert p.led_states() == [True, False, False, False]
    factory.pin(PINS.leds[1]).clear_states()
    time.sleep(0.4)
    assert _toggles(factory, PINS.leds[1]) == 0  # the blinking stopped


def _buzz(factory: MockFactory, p: Panel, effects: list[Any]) -> tuple[str | None, list[bool]]:
    pin = factory.pin(PINS.buzzer)
    pin.clear_states()
    name = p.react(effects)
    assert p.wait_buzzer(5)
    return name, [s.state for s in pin.states]


def _expected_states(pattern: str) -> list[bool]:
    return [False] + [True, False] * len(PATTERNS[pattern])


@pytest.mark.parametrize("effects, pattern", [
    ([ThrowsAgain("cat")], "extra"),
    ([LosesNextTurn("mouse")], "lost"),
    ([TurnSkipped("mouse")], "lost"),
    ([Paid("mouse", "cat", 1, "K5")], "paid"),
    ([kilkenny.Captured("cat", "mouse", "3,4")], "capture"),
    ([Paid("mouse", "cat", 2, "K7"), Won("cat", 2)], "win"),
])
def test_buzzer_pattern_for_each_event(factory: MockFactory, panel: Any, effects: list[Any], pattern: str) -> None:
    p, _ = panel
    name, states = _buzz(factory, p, effects)
    assert name == pattern
    assert states == _expected_states(pattern)


def test_pattern_timing_is_kept(factory: MockFactory, panel: Any) -> None:
    p, _ = panel
    pin = factory.pin(PINS.buzzer)
    pin.clear_states()
    p.react([LosesNextTurn("mouse")])
    p.wait_buzzer()
    assert [st.state for st in pin.states] == [False, True, False]
    assert 0.45 <= pin.states[2].timestamp < 0.9  # one long beep of 0.5 s (slack for a busy machine)


def test_no_pattern_for_a_plain_move(factory: MockFactory, panel: Any) -> None:
    p, _ = panel
    name, states = _buzz(factory, p, [object()])
    assert name is None and states == [False]


def test_loses_next_turn_blinks_that_players_led(factory: MockFactory, panel: Any) -> None:
    p, _ = panel
    p.show_turn("cat")
    p.react([LosesNextTurn("mouse")])
    factory.pin(PINS.leds[1]).clear_states()
    time.sleep(0.7)
    assert _toggles(factory, PINS.leds[1]) >= 2
    assert factory.pin(PINS.leds[0]).state  # the cat's turn LED stays on


def test_won_blinks_the_winner_and_darkens_the_rest(factory: MockFactory) -> None:
    with Panel(pin_factory=factory) as p:
        p.set_players(["red", "blue", "green", "yellow"])  # Kilkenny: up to 4 LEDs
        p.show_turn("green")
        p.react([kilkenny.Won("blue", "mice")])
        for pin in PINS.leds:
            factory.pin(pin).clear_states()
        time.sleep(0.5)
        assert _toggles(factory, PINS.leds[1]) >= 3  # fast blink
        assert [factory.pin(x).state for x in (PINS.leds[0], PINS.leds[2], PINS.leds[3])] == [False] * 3


def test_a_new_pattern_cuts_off_the_one_playing(factory: MockFactory, panel: Any) -> None:
    p, _ = panel
    p.beep("win")
    time.sleep(0.05)
    p.beep("paid")
    assert p.wait_buzzer(2)
    assert not factory.pin(PINS.buzzer).state
    assert p.pattern_played == "paid"


def test_a_failing_callback_is_logged_not_raised(factory: MockFactory) -> None:
    def boom() -> None:
        raise RuntimeError("bug")

    with Panel(pin_factory=factory, on_roll=boom) as p:
        press(factory, PINS.roll)  # no exception escapes into gpiozero
        assert p.available


def test_live_test_lights_each_led_beeps_and_reports_buttons(factory: MockFactory, panel: Any) -> None:
    p, calls = panel
    factory.pin(PINS.menu).drive_low()  # someone is holding Menu
    for pin in PINS.leds:
        factory.pin(pin).clear_states()
    factory.pin(PINS.buzzer).clear_states()
    report = p.live_test(step=0.02)
    assert report["available"] and report["leds_lit"] == list(PINS.leds)
    assert report["beeped"] and report["pressed"] == {"roll": False, "undo": False, "menu": True}
    for pin in PINS.leds:
        assert [s.state for s in factory.pin(pin).states] == [False, True, False]
    assert [s.state for s in factory.pin(PINS.buzzer).states] == [False, True, False]


def test_missing_pin_factory_is_a_warning_and_a_disabled_panel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    with pytest.warns(PanelWarning, match="GPIO panel disabled"):
        p = Panel()
    assert not p.available and "BadPinFactory" in p.reason
    p.set_players(["cat", "mouse"])
    p.show_turn("cat")  # all harmless no-ops
    assert p.react([Won("cat", 3)]) == "win"
    assert p.led_states() == [] and p.pressed() == {}
    assert p.live_test(0.0)["available"] is False
    p.close()


def test_default_factory_on_a_machine_without_gpio(monkeypatch: pytest.MonkeyPatch) -> None:
    """gpiozero's own fallback chain (lgpio, RPi.GPIO, pigpio, native) ends in a warning here."""
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    import warnings

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        p = Panel()
    if p.available:  # a real Pi
        p.close()
        pytest.skip("this machine has GPIO")
    assert [w.category for w in seen] == [PanelWarning]  # gpiozero's fallback chatter is hidden


def test_a_pin_in_use_disables_the_second_panel(factory: MockFactory) -> None:
    with Panel(pin_factory=factory) as first:
        with pytest.warns(PanelWarning):
            second = Panel(pin_factory=factory)
        assert first.available and not second.available
    third = Panel(pin_factory=factory)  # closing released the pins
    assert third.available
    third.close()


def test_disabled_in_settings_is_quiet() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = Panel(enabled=False)
    assert not p.available and p.reason == "disabled in settings"


def test_pins_from_settings() -> None:
    pins = PanelPins.from_settings({"gpio.roll": "4", "gpio.leds": "5, 6", "gpio.buzzer": "none"})
    assert pins == PanelPins(roll=4, undo=27, menu=22, leds=(5, 6), buzzer=None)
    assert PanelPins.from_settings({}) == PanelPins()
    with pytest.raises(ValueError, match="used twice"):
        PanelPins.from_settings({"gpio.roll": 5})
    with pytest.raises(ValueError, match="BCM"):
        PanelPins(roll=40)
    with pytest.raises(ValueError, match="1 to 4"):
        PanelPins(leds=(5, 6, 13, 19, 20))


def test_custom_pins_are_used(factory: MockFactory) -> None:
    roll = Calls()
    with Panel(PanelPins(roll=4, leds=(20, 21), buzzer=None), pin_factory=factory, on_roll=roll) as p:
        press(factory, 4)
        assert roll.n == 1
        p.set_players(["cat", "mouse"])
        p.show_turn(1)
        assert factory.pin(21).state and not factory.pin(20).state
        assert p.react([ThrowsAgain("cat")]) == "extra"  # no buzzer wired: nothing to play
