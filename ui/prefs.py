"""The app's own settings, kept in the store's settings table under ``ui.*`` keys.

Every value is validated on load; a missing value takes its default, a corrupt one (wrong type
or out of range, e.g. after a hand edit of the database) falls back to the default and leaves a
note that the Settings screen shows. No Kivy here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.i18n import LANGUAGES, N_, _
from companion.store import Store
from ui.dicearea import is_area

GPIO_DEFAULTS: dict[str, Any] = {"roll": 17, "undo": 27, "menu": 22, "buzzer": 26, "leds": [5, 6, 13, 19]}
"""BCM pins of the button panel (hardware.panel.PanelPins' defaults)."""
GPIO_SINGLE = ("roll", "undo", "menu", "buzzer")
SETUP_STEPS = ("print", "camera", "learn")
"""The set-up wizard's ticked steps (ui.screens.wizard)."""


def _is_port(v: Any) -> bool:
    return isinstance(v, str) and len(v) < 200


def _pin(p: Any) -> bool:
    return isinstance(p, int) and not isinstance(p, bool) and 2 <= p <= 27


def _is_gpio(v: Any) -> bool:
    if not (isinstance(v, dict) and set(v) == set(GPIO_DEFAULTS)):
        return False
    leds = v["leds"]
    if not (isinstance(leds, list) and 1 <= len(leds) <= 4 and all(_pin(p) for p in leds)):
        return False
    pins = [v[k] for k in GPIO_SINGLE] + list(leds)
    return all(_pin(p) for p in pins) and len(set(pins)) == len(pins)


def _is_camera(v: Any) -> bool:
    return isinstance(v, str) and (v in ("auto", "none", "demo", "picamera2") or v.startswith("/dev/video"))


def _is_conf(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and 0.0 <= float(v) <= 1.0


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _int_in(low: int, high: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _is_variant(v: Any) -> bool:
    from hardware.espeak import VARIANTS

    return isinstance(v, str) and v in VARIANTS


def _is_setup(v: Any) -> bool:
    return isinstance(v, dict) and set(v) <= set(SETUP_STEPS) and all(isinstance(x, bool) for x in v.values())


def _is_language(v: Any) -> bool:
    return isinstance(v, str) and (v == "" or v in LANGUAGES)


SPECS: dict[str, tuple[Any, Callable[[Any], bool], str]] = {
    "ui.camera": ("auto", _is_camera, N_("camera choice")),
    "ui.serial_port": ("", _is_port, N_("serial port")),
    "ui.gpio": (dict(GPIO_DEFAULTS), _is_gpio, N_("GPIO pins")),
    "ui.min_confidence": (0.8, _is_conf, N_("camera confidence threshold")),
    "ui.camera_auto": (False, _is_bool, N_("camera auto-apply setting")),
    "ui.dice_area": ("off_board", is_area, N_("dice area")),
    "ui.language": ("", _is_language, N_("language")),
    "ui.guide": (False, _is_bool, N_("first-game guide setting")),
    "ui.speech_on": (True, _is_bool, N_("voice on/off")),
    "ui.speech_volume": (100, _int_in(0, 100), N_("voice volume")),
    "ui.speech_rate": (160, _int_in(80, 450), N_("voice speed")),
    "ui.speech_variant": ("", _is_variant, N_("voice")),
    "ui.reduced_motion": (False, _is_bool, N_("reduced motion setting")),
    "ui.setup": ({k: False for k in SETUP_STEPS}, _is_setup, N_("set-up progress")),
    "ui.audio_device": ("", _is_port, N_("sound output")),
}
"""key -> (default, validator, what it is: marked for translation, shown in notes and errors).
``ui.language`` "" means: not chosen, follow ``LANG`` (see ui.language)."""


class Prefs:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.invalid: list[tuple[str, Any]] = []
        """(what, the saved value) of each saved setting that was not valid."""
        self.values: dict[str, Any] = {}
        self.first_start = not store.settings()
        """Nothing was saved before this start: the set-up wizard is offered."""
        self.reload()

    def reload(self) -> None:
        self.invalid = []
        missing = object()
        for key, (default, ok, what) in SPECS.items():
            value = self.store.get_setting(key, missing)
            if value is missing:
                self.values[key] = _copy(default)
            elif ok(value):
                self.values[key] = value
            else:
                self.values[key] = _copy(default)
                self.invalid.append((what, value))

    @property
    def notes(self) -> list[str]:
        """What was not valid, in the language now in use."""
        return [
            _("The saved {what} ({value}) was not valid; using the default instead.").format(
                what=_(what), value=f"{value!r:.40}")
            for what, value in self.invalid
        ]

    def get(self, key: str) -> Any:
        return self.values[key]

    def set(self, key: str, value: Any) -> None:
        default, ok, what = SPECS[key]
        if not ok(value):
            raise ValueError(_("Not a valid {what}: {value}").format(what=_(what), value=repr(value)))
        self.store.set_setting(key, value)
        self.values[key] = value

    # remembered seats per game
    def last_seats(self, game: str) -> dict[str, str]:
        v = self.store.get_setting(f"ui.seats.{game}", {})
        if isinstance(v, dict) and all(isinstance(k, str) and isinstance(x, str) for k, x in v.items()):
            return dict(v)
        return {}

    def remember_seats(self, game: str, seats: dict[str, str]) -> None:
        self.store.set_setting(f"ui.seats.{game}", dict(seats))


def _copy(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: list(x) if isinstance(x, list) else x for k, x in v.items()}
    return v
