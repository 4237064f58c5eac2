"""The GPIO panel losing its pins mid-game and getting them back (gpiozero's MockFactory).

Two kinds of loss: the devices closed under the panel (gpiozero raises GPIODeviceClosed), and a
pin factory whose pins fail while "unplugged" (a MockPin subclass raising OSError on every
read and write, given to the real MockFactory as its ``pin_class``)."""

from __future__ import annotations

import errno
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from hardware.panel import Panel, PanelPins

PINS = PanelPins()


def wait_until(pred: Any, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.01)
    return bool(pred())


class UnpluggablePin(MockPin):  # type: ignore[misc]
    """A mock pin whose reads and writes fail like a pulled header cable while
    ``UnpluggablePin.unplugged`` (releasing it still works, so nothing leaks)."""

    unplugged = threading.Event()

    def _fail(self) -> None:
        if UnpluggablePin.unplugged.is_set():
            raise OSError(errno.ENODEV, "No such device")

    def _get_state(self) -> Any:
        self._fail()
        return super()._get_state()

    def _set_state(self, value: Any) -> None:
        self._fail()
        super()._set_state(value)


@pytest.fixture
def flaky() -> Iterator[MockFactory]:
    UnpluggablePin.unplugged.clear()
    f = MockFactory(pin_class=UnpluggablePin)
    yield f
    UnpluggablePin.unplugged.clear()
    f.close()


class States:
    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def __call__(self, state: str, detail: str) -> None:
        self.seen.append((state, detail))


def test_pins_failing_mid_game_then_back(flaky: MockFactory) -> None:
    states = States()
    rolls: list[int] = []
    p = Panel(pin_factory=flaky, on_roll=lambda: rolls.append(1), on_state=states, retry_s=0.05, max_retry_s=0.2)
    try:
        assert p.available and p.state == "connected"
        p.set_players(["cat", "mouse"])
        p.show_turn("mouse")
        assert p.led_states()[:2] == [False, True]
        UnpluggablePin.unplugged.set()
        p.show_turn("cat")  # fails under the panel: no exception, the panel is lost
        assert p.state == "lost" and not p.available and "No such device" in p.reason
        assert states.seen == [("lost", p.reason)]
        # the app goes on: every call is harmless meanwhile
        p.react([type("Won", (), {"player": "cat"})()])
        assert p.led_states() == [] and p.pressed() == {}
        assert not p.check()
        time.sleep(0.3)  # retries fail while unplugged
        assert p.state == "lost" and p.reconnects == 0
        UnpluggablePin.unplugged.clear()
        # the reconnecting thread sets the state, lights the last turn again, then tells the app:
        # wait for the telling, the last of the three
        assert wait_until(lambda: states.seen[-1] == ("connected", ""))
        assert p.state == "connected" and p.available and p.reconnects == 1
        assert p.led_states()[:2] == [True, False]  # the last turn shown is lit again
        flaky.pin(PINS.roll).drive_low()  # the buttons work again
        flaky.pin(PINS.roll).drive_high()
        assert wait_until(lambda: rolls == [1])
    finally:
        p.close()
    assert p.state == "closed"


def test_a_closed_device_is_noticed_by_check(flaky: MockFactory) -> None:
    states = States()
    p = Panel(pin_factory=flaky, on_state=states, retry_s=0.05)
    try:
        assert p.check()
        p._buttons["menu"].close()  # the device closed under the panel
        assert not p.check()
        assert p.state == "lost" and "GPIODeviceClosed" in p.reason
        assert wait_until(lambda: p.state == "connected")  # its pins are free again: reopened
        # the players are told just after the state changes (on the reconnecting thread)
        assert wait_until(lambda: len(states.seen) == 2)
        assert p.check() and [s for s, _ in states.seen] == ["lost", "connected"]
    finally:
        p.close()


def test_the_buzzer_failing_mid_pattern_is_a_loss(flaky: MockFactory) -> None:
    states = States()
    p = Panel(pin_factory=flaky, on_state=states, retry_s=5.0)
    try:
        p.beep("win")
        UnpluggablePin.unplugged.set()
        assert wait_until(lambda: bool(states.seen))
        assert p.state == "lost" and states.seen[0][0] == "lost"
    finally:
        t0 = time.monotonic()
        p.close()  # the reconnect thread's long wait is cut short
        assert time.monotonic() - t0 < 1.0
    assert p.state == "closed" and not p._retry_thread.is_alive()  # type: ignore[union-attr]


def test_closing_while_the_loss_is_being_handled_never_meets_an_unstarted_thread(
        flaky: MockFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # as under emulation (qemu): the reconnect thread is slow to start just when the game closes
    # the panel on hearing "lost"; close() used to find it created, not started, and join() raised
    class SlowStart(threading.Thread):
        def start(self) -> None:
            time.sleep(0.3)
            super().start()

    states = States()
    p = Panel(pin_factory=flaky, on_state=states, retry_s=5.0)
    monkeypatch.setattr(threading, "Thread", SlowStart)
    p.beep("win")
    UnpluggablePin.unplugged.set()
    assert wait_until(lambda: bool(states.seen))
    time.sleep(0.05)  # inside the slow start
    p.close()
    assert p.state == "closed"
    assert p._retry_thread is None or not p._retry_thread.is_alive()


def test_a_panel_that_never_had_its_pins_does_not_retry() -> None:
    import warnings

    from gpiozero.exc import BadPinFactory

    class NoPins:
        def __getattr__(self, name: str) -> Any:
            raise BadPinFactory("no pins here")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = Panel(pin_factory=NoPins())
    assert p.state == "disabled" and not p.check() and p._retry_thread is None
    p.close()
