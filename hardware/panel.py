"""The GPIO button panel: Roll/Confirm, Undo (hold), Menu; turn LEDs; a buzzer.

::

    panel = Panel(PanelPins.from_settings(settings), on_roll=bridge.roll, on_undo=bridge.undo,
                  on_menu=bridge.menu)
    panel.set_players(["cat", "mouse"])
    panel.show_turn("cat")
    panel.react(effects)           # buzzer pattern + LED blinks for the effects of a move
    panel.close()

Pins are BCM numbers (:class:`PanelPins`, defaults in the README's wiring table). Buttons
connect the pin to ground (internal pull-ups); LEDs and the buzzer are active high.
``pin_factory`` is passed to every gpiozero device (tests use ``MockFactory()``; ``None``
takes gpiozero's default, i.e. the Pi's real pins).

When the pins cannot be had (no Pi, no pin library, a pin in use), the panel warns once
(:class:`PanelWarning`) and is *disabled*: every method is then a harmless no-op and
:attr:`Panel.available` is False with :attr:`Panel.reason` saying why. It never raises for
missing hardware.

A panel that worked and then fails (a pin factory raising on a read or write, a device closed
under it, the header's cable pulled) is *lost*: the failing call returns quietly, ``state``
becomes ``"lost"`` (``on_state("lost", reason)``), the devices are released, and a background
thread reopens them with backoff (``retry_s`` doubling up to ``max_retry_s``) until they work
again (``on_state("connected", "")``, the turn LED restored, ``reconnects`` counts it).
:meth:`Panel.check` reads every pin once: the app calls it every few seconds so a loss is
noticed even while nothing is lit or pressed.

Callbacks run on gpiozero's threads: the app's bridge moves them to the UI thread.
Effects are recognised by class name (ThrowsAgain, LosesNextTurn, TurnSkipped, Paid,
Captured, Won), so this module needs no game imports.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

BCM_PINS = range(2, 28)  # the GPIO pins on the 40-pin header

# A pattern is a sequence of (on seconds, off seconds).
Pattern = tuple[tuple[float, float], ...]
PATTERNS: dict[str, Pattern] = {
    "extra": ((0.08, 0.08), (0.08, 0.0)),  # throws again: two short
    "lost": ((0.5, 0.0),),  # loses a turn: one long
    "paid": ((0.04, 0.0),),  # a chip paid: one tick
    "capture": ((0.06, 0.06), (0.06, 0.06), (0.06, 0.0)),  # three quick
    "win": ((0.15, 0.08), (0.15, 0.08), (0.15, 0.08), (0.6, 0.0)),  # da-da-da-daaa
    "beep": ((0.1, 0.0),),  # live test, a button press
    "error": ((0.25, 0.1), (0.25, 0.0)),  # a rejected throw
}
EFFECT_PATTERNS: dict[str, str] = {
    "Won": "win",
    "Captured": "capture",
    "LosesNextTurn": "lost",
    "TurnSkipped": "lost",
    "ThrowsAgain": "extra",
    "Paid": "paid",
}
"""Effect class name -> pattern; when a move has several, the first in this order plays."""

BLINK_LOST = (0.25, 0.25)  # LED on/off seconds for a lost turn
BLINK_WON = (0.1, 0.1)


class PanelWarning(UserWarning):
    """The panel is disabled (no GPIO hardware or pin library); the app goes on without it."""


@dataclass(frozen=True)
class PanelPins:
    """BCM pin numbers. ``buzzer=None`` for no buzzer; ``leds`` in player order."""

    roll: int = 17
    undo: int = 27
    menu: int = 22
    leds: tuple[int, ...] = (5, 6, 13, 19)
    buzzer: int | None = 26

    def __post_init__(self) -> None:
        used = [self.roll, self.undo, self.menu, *self.leds] + ([self.buzzer] if self.buzzer is not None else [])
        for pin in used:
            if not isinstance(pin, int) or pin not in BCM_PINS:
                raise ValueError(f"GPIO pin {pin!r} is not a BCM pin number from 2 to 27")
        dup = sorted({p for p in used if used.count(p) > 1})
        if dup:
            raise ValueError(f"GPIO pin {dup[0]} is used twice")
        if not 1 <= len(self.leds) <= 4:
            raise ValueError("give 1 to 4 LED pins")

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], prefix: str = "gpio.") -> PanelPins:
        """Pins from a settings mapping: ``gpio.roll``, ``gpio.undo``, ``gpio.menu``,
        ``gpio.leds`` (a list or "5,6,13,19"), ``gpio.buzzer`` (a pin, or ""/"none").
        Missing keys keep their defaults; bad values raise ValueError."""
        d = cls()
        kw: dict[str, Any] = {}
        for name in ("roll", "undo", "menu"):
            if prefix + name in settings:
                kw[name] = int(settings[prefix + name])
        if prefix + "leds" in settings:
            raw = settings[prefix + "leds"]
            items = raw.split(",") if isinstance(raw, str) else list(raw)
            kw["leds"] = tuple(int(x) for x in items if str(x).strip())
        if prefix + "buzzer" in settings:
            raw = settings[prefix + "buzzer"]
            kw["buzzer"] = None if raw in (None, "", "none", "None") else int(raw)
        return cls(**{**d.__dict__, **kw})


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _player_of(effect: object) -> str | None:
    for attr in ("player", "side", "winner"):
        value = getattr(effect, attr, None)
        if isinstance(value, str):
            return value
    return None


@dataclass
class _Debounce:
    """Accept a press only ``interval`` seconds after the last accepted one (contact bounce)."""

    interval: float
    last: float = field(default=-1e9)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def accept(self) -> bool:
        now = time.monotonic()
        with self.lock:
            if now - self.last < self.interval:
                return False
            self.last = now
            return True


class Panel:
    """Buttons, turn LEDs and a buzzer on GPIO (a context manager). See the module doc."""

    def __init__(
        self,
        pins: PanelPins | None = None,
        *,
        pin_factory: Any = None,
        on_roll: Callable[[], None] | None = None,
        on_undo: Callable[[], None] | None = None,
        on_menu: Callable[[], None] | None = None,
        bounce_time: float = 0.05,
        hold_time: float = 2.0,
        enabled: bool = True,
        on_state: Callable[[str, str], None] | None = None,
        retry_s: float = 1.0,
        max_retry_s: float = 30.0,
    ) -> None:
        self.pins = pins if pins is not None else PanelPins()
        self.on_roll = on_roll
        self.on_undo = on_undo
        self.on_menu = on_menu
        self.bounce_time = bounce_time
        self.hold_time = hold_time
        self.available = False
        self.reason = "disabled in settings"
        self.players: list[str] = []
        self.pattern_played: str | None = None  # the last pattern started (for UIs and tests)
        self._buttons: dict[str, Any] = {}
        self._leds: list[Any] = []
        self._buzzer: Any = None
        self._debounce = {name: _Debounce(bounce_time) for name in ("roll", "undo", "menu")}
        self._beep_stop = threading.Event()
        self._beep_thread: threading.Thread | None = None
        self._beep_lock = threading.Lock()
        self.on_state = on_state
        self.retry_s = retry_s
        self.max_retry_s = max_retry_s
        self.state = "disabled"
        """``"connected"``, ``"disabled"`` (never had its pins), ``"lost"`` (reconnecting) or ``"closed"``."""
        self.reconnects = 0
        self._pin_factory = pin_factory
        self._state_lock = threading.Lock()
        self._closing = threading.Event()
        self._retry_thread: threading.Thread | None = None
        self._turn: tuple[str | int | None, bool] | None = None
        if enabled:
            self._open(pin_factory)

    # -- setup ------------------------------------------------------------------------
    def _make_devices(self, pin_factory: Any) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero's PinFactoryFallback chatter
            from gpiozero import LED, Button, Buzzer  # type: ignore[import-untyped]

            p = self.pins
            for name, pin in (("roll", p.roll), ("undo", p.undo), ("menu", p.menu)):
                self._buttons[name] = Button(pin, pull_up=True, bounce_time=self.bounce_time,
                                             hold_time=self.hold_time, pin_factory=pin_factory)
            self._leds = [LED(pin, pin_factory=pin_factory) for pin in p.leds]
            if p.buzzer is not None:
                self._buzzer = Buzzer(p.buzzer, pin_factory=pin_factory)
        self._buttons["roll"].when_pressed = lambda: self._pressed("roll", self.on_roll)
        self._buttons["menu"].when_pressed = lambda: self._pressed("menu", self.on_menu)
        self._buttons["undo"].when_held = lambda: self._pressed("undo", self.on_undo)

    def _open(self, pin_factory: Any) -> None:
        try:
            self._make_devices(pin_factory)
        except Exception as exc:  # BadPinFactory, GPIOPinInUse, ImportError, OSError, ...
            self._close_devices()
            self.available = False
            self.reason = _why(exc)
            warnings.warn(f"GPIO panel disabled: {self.reason}", PanelWarning, stacklevel=3)
            log.warning("GPIO panel disabled: %s", self.reason)
            return
        self.available = True
        self.reason = ""
        self.state = "connected"

    # -- losing the pins mid-game, and getting them back --------------------------------
    def _notify(self, state: str, detail: str) -> None:
        if self.on_state is not None:
            try:
                self.on_state(state, detail)
            except Exception:
                log.exception("panel on_state callback failed")

    def _safely(self, fn: Callable[[], Any], default: Any = None) -> Any:
        """``fn()``; when the pins fail under it, the panel is lost (reconnecting) and
        ``default`` comes back instead of an exception."""
        try:
            return fn()
        except Exception as exc:
            self._lost(exc)
            return default

    def _lost(self, exc: BaseException) -> None:
        with self._state_lock:
            if self.state != "connected" or self._closing.is_set():
                return
            self.state = "lost"
            self.available = False
            self.reason = _why(exc)
        log.warning("GPIO panel lost: %s; reconnecting", self.reason)
        self._close_devices()
        self._notify("lost", self.reason)
        with self._state_lock:  # close() reads the thread under the lock: never one not started yet
            if self._closing.is_set():
                return
            retry = threading.Thread(target=self._reconnect, name="panel-reconnect", daemon=True)
            retry.start()
            self._retry_thread = retry

    def _reconnect(self) -> None:
        delay = self.retry_s
        while not self._closing.wait(delay):
            try:
                self._make_devices(self._pin_factory)
            except Exception as exc:
                self._close_devices()
                self.reason = _why(exc)
                delay = min(self.max_retry_s, delay * 2)
                continue
            with self._state_lock:
                if self._closing.is_set():
                    self._close_devices()
                    return
                self.state = "connected"
                self.available = True
                self.reason = ""
                self.reconnects += 1
            log.info("GPIO panel back")
            if self._turn is not None:
                self.show_turn(self._turn[0], lost=self._turn[1])
            self._notify("connected", "")
            return

    def check(self) -> bool:
        """Read every pin once (cheap); a failure makes the panel lost. True when it works."""
        if self.state != "connected":
            return False

        def read_all() -> None:
            for dev in [*self._buttons.values(), *self._leds, self._buzzer]:
                if dev is not None:
                    _ = dev.value

        self._safely(read_all)
        return self.state == "connected"

    def _pressed(self, name: str, fn: Callable[[], None] | None) -> None:
        if not self._debounce[name].accept():
            return
        if fn is None:
            return
        try:
            fn()
        except Exception:
            log.exception("panel %s callback failed", name)

    def _close_devices(self) -> None:
        for dev in [*self._buttons.values(), *self._leds, self._buzzer]:
            if dev is not None:
                try:
                    dev.close()
                except Exception:
                    log.debug("closing %r failed", dev, exc_info=True)
        self._buttons, self._leds, self._buzzer = {}, [], None

    def close(self) -> None:
        self._closing.set()
        with self._state_lock:
            t = self._retry_thread
        if t is not None and t is not threading.current_thread():
            t.join(2.0)
        with self._beep_lock:  # not between a pattern's thread being made and started
            self._stop_beep()
        self._close_devices()
        self.available = False
        self.reason = "closed"
        self.state = "closed"

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- LEDs -------------------------------------------------------------------------
    def set_players(self, players: Sequence[str]) -> None:
        """Player (or side) ids in LED order: the first player's LED is the first pin."""
        self.players = list(players)
        if len(self.players) > len(self.pins.leds):
            log.warning("%d players but only %d turn LEDs", len(self.players), len(self.pins.leds))

    def _index(self, player: str | int | None) -> int | None:
        if player is None:
            return None
        if isinstance(player, int):
            return player if 0 <= player < len(self._leds) else None
        if player in self.players:
            i = self.players.index(player)
            return i if i < len(self._leds) else None
        return None

    def show_turn(self, player: str | int | None, *, lost: bool = False) -> None:
        """Light the LED of whose turn it is (a player id or LED index); blink it for a lost
        turn; all off for None (game over, or between games)."""
        self._turn = (player, lost)
        if not self.available:
            return
        i = self._index(player)
        leds = list(self._leds)

        def light() -> None:
            for j, led in enumerate(leds):
                if j != i:
                    led.off()
            if i is not None:
                if lost:
                    leds[i].blink(*BLINK_LOST, background=True)
                else:
                    leds[i].on()

        self._safely(light)

    def led_states(self) -> list[bool]:
        """Whether each LED is lit now (a blinking LED is lit half the time)."""
        return list(self._safely(lambda: [bool(led.is_lit) for led in self._leds], []))

    # -- buzzer -----------------------------------------------------------------------
    def beep(self, pattern: str | Pattern) -> None:
        """Play a pattern (a name from :data:`PATTERNS` or (on, off) pairs) in the background,
        cutting off the one playing."""
        steps = PATTERNS[pattern] if isinstance(pattern, str) else tuple(pattern)
        self.pattern_played = pattern if isinstance(pattern, str) else "custom"
        if not self.available or self._buzzer is None:
            return
        with self._beep_lock:
            self._stop_beep()
            stop = threading.Event()
            self._beep_stop = stop
            self._beep_thread = threading.Thread(target=self._play, args=(steps, stop), name="panel-buzzer",
                                                 daemon=True)
            self._beep_thread.start()

    def _play(self, steps: Pattern, stop: threading.Event) -> None:
        buzzer = self._buzzer
        try:
            for on, off in steps:
                buzzer.on()
                if stop.wait(on):
                    break
                buzzer.off()
                if off and stop.wait(off):
                    break
        except Exception as exc:  # closed by close() (quiet), or the pins failed (lost)
            log.debug("buzzer pattern stopped", exc_info=True)
            if not stop.is_set():
                self._lost(exc)
        finally:
            try:
                buzzer.off()
            except Exception:
                pass

    def _stop_beep(self) -> None:
        self._beep_stop.set()
        t = self._beep_thread
        if t is not None and t is not threading.current_thread():
            t.join(2.0)
        self._beep_thread = None

    def wait_buzzer(self, timeout: float = 5.0) -> bool:
        """Wait for the pattern playing to end; False on timeout."""
        t = self._beep_thread
        if t is None:
            return True
        t.join(timeout)
        return not t.is_alive()

    # -- effects ----------------------------------------------------------------------
    def react(self, effects: Iterable[object]) -> str | None:
        """Buzz and blink for the effects of one move; returns the pattern played (or None).

        Won: the winner's LED blinks fast, the others go off. LosesNextTurn/TurnSkipped: that
        player's LED blinks (until the next :meth:`show_turn`).
        """
        effects = list(effects)
        names = {type(e).__name__ for e in effects}
        pattern = next((p for cls, p in EFFECT_PATTERNS.items() if cls in names), None)
        if pattern is not None:
            self.beep(pattern)
        if not self.available:
            return pattern
        leds = list(self._leds)

        def blink() -> None:
            for e in effects:
                kind = type(e).__name__
                i = self._index(_player_of(e))
                if kind in ("LosesNextTurn", "TurnSkipped") and i is not None and "Won" not in names:
                    leds[i].blink(*BLINK_LOST, background=True)
                if kind == "Won":
                    for j, led in enumerate(leds):
                        if j != i:
                            led.off()
                    if i is not None:
                        leds[i].blink(*BLINK_WON, background=True)

        self._safely(blink)
        return pattern

    # -- settings screen --------------------------------------------------------------
    def pressed(self) -> dict[str, bool]:
        """Which buttons are held down now."""
        buttons = dict(self._buttons)
        return dict(self._safely(lambda: {name: bool(b.is_pressed) for name, b in buttons.items()}, {}))

    def live_test(self, step: float = 0.3) -> dict[str, Any]:
        """For the settings screen: light each LED in turn, beep once, and report which
        buttons are pressed. Blocks for about ``step`` per LED plus the beep."""
        report: dict[str, Any] = {
            "available": self.available,
            "reason": self.reason,
            "pins": self.pins.__dict__.copy(),
            "leds_lit": [],
            "beeped": False,
            "pressed": {"roll": False, "undo": False, "menu": False},
        }
        if not self.available:
            return report
        try:
            for led in self._leds:
                led.off()
            for i, led in enumerate(self._leds):
                led.on()
                if led.is_lit:
                    report["leds_lit"].append(self.pins.leds[i])
                time.sleep(step)
                led.off()
        except Exception as exc:  # the pins failed during the test: lost, reconnecting
            self._lost(exc)
            report.update(available=False, reason=self.reason)
            return report
        if self._buzzer is not None:
            self.beep("beep")
            report["beeped"] = self.wait_buzzer()
        report["pressed"] = self.pressed()
        return report
