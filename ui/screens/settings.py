"""Settings: camera choice, the serial die's port with a live test, the GPIO panel's pins with
a live test, the camera confidence threshold, and the rules interpretations of each game.

Everything is saved in the store's settings table (``ui.*`` keys, see ui.prefs). A saved value
that is not valid falls back to its default, and the note saying so is shown here.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion import games
from companion.i18n import N_, _
from ui import language, theme
from ui.hardware import module_available
from ui.prefs import GPIO_SINGLE
from ui.widgets.common import BigButton, BigToggle, KeyLabel, TextLabel

CAMERA_CHOICES = [("auto", N_("Auto")), ("demo", N_("Demo feed")), ("picamera2", N_("Pi camera")), ("none", N_("Off"))]
PIN_NAMES = {"roll": N_("roll"), "undo": N_("undo"), "menu": N_("menu"), "buzzer": N_("buzzer")}
"""The panel's pins as the Settings screen names them (translated when shown)."""
HEADER_PIN = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
              13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
              1: 28, 12: 32, 16: 36, 20: 38, 21: 40}
"""The Raspberry Pi's GPIO numbers -> the pin counted on its 40-pin header (where to wire)."""


def ports_sentence(lister: Any = None) -> str:
    """The serial ports a die can be on, in words ("Found: USB serial device (ttyACM0)"), or
    what to do when there is none; never a device path alone."""
    from hardware import portscan

    try:
        found = portscan.scan(lister)
    except OSError:
        found = []
    if not found:
        return _("No electronic die found: plug it in and touch Test.")
    return _("Found: {ports}").format(ports=", ".join(p.words for p in found))


def pin_words(gpio: int) -> str:
    """A GPIO number as the person wiring it finds it: "GPIO 17, header pin 11"."""
    pin = HEADER_PIN.get(gpio)
    if pin is None:
        return _("GPIO {gpio}").format(gpio=gpio)
    return _("GPIO {gpio}, header pin {pin}").format(gpio=gpio, pin=pin)


class SettingsScreen(Screen):
    die_status = StringProperty("")
    die_last = StringProperty("")
    gpio_status = StringProperty("")
    notes = StringProperty("")

    @property
    def app(self) -> Any:
        return App.get_running_app()

    def on_kv_post(self, base_widget: Any) -> None:
        self.die_status = self.die_status or _("Not connected")
        self.language_buttons: dict[str, BigToggle] = {}
        self.camera_buttons: dict[str, BigToggle] = {}
        self.pin_labels: dict[str, KeyLabel] = {}
        self.build()

    def on_pre_enter(self, *args: Any) -> None:
        self.build()

    def build(self) -> None:
        app = self.app
        if app is None:
            return
        self.notes = "\n".join(app.prefs.notes)
        self.build_languages()
        self.ids.port.text = app.prefs.get("ui.serial_port")
        self.ids.ports_found.text = ports_sentence()
        # camera
        box = self.ids.cameras
        box.clear_widgets()
        self.camera_buttons = {}
        current = app.prefs.get("ui.camera")
        choices = list(CAMERA_CHOICES)
        from ui.screens.wizard import camera_words

        devices = [dev for dev in app.hardware.camera.detail.split(", ") if dev.startswith("/dev/video")]
        for i, dev in reversed(list(enumerate(devices))):
            choices.insert(2, (dev, camera_words(dev, i)))  # "Camera 1 (USB)", never a device path
        for value, text in choices:
            b = BigToggle(text=_(text), group="camera", allow_no_selection=False,
                          state="down" if value == current else "normal", font_size=theme.FONT_SMALL)
            b.bind(on_release=lambda _b, v=value: self.set_camera(v))
            box.add_widget(b)
            self.camera_buttons[value] = b
        self.ids.confidence.text = f"{float(app.prefs.get('ui.min_confidence')) * 100:.0f}%"
        self.ids.camera_auto.state = "down" if app.prefs.get("ui.camera_auto") else "normal"
        self.ids.voice.refresh()
        self.ids.motion.state = "normal" if app.prefs.get("ui.reduced_motion") else "down"
        # GPIO pins
        pins = self.ids.pins
        pins.clear_widgets()
        self.pin_labels = {}
        gpio = app.prefs.get("ui.gpio")
        for name in GPIO_SINGLE:
            row = BoxLayout(size_hint_y=None, height=52, spacing=6)
            row.add_widget(TextLabel(text=_(PIN_NAMES[name]), size_hint_x=0.4))
            minus = BigButton(text="-", size_hint_x=None, width=56)
            lab = KeyLabel(text=pin_words(gpio[name]), font_size=theme.FONT)
            plus = BigButton(text="+", size_hint_x=None, width=56)
            minus.bind(on_release=lambda _b, n=name: self.step_pin(n, -1))
            plus.bind(on_release=lambda _b, n=name: self.step_pin(n, +1))
            for w in (minus, lab, plus):
                row.add_widget(w)
            pins.add_widget(row)
            self.pin_labels[name] = lab
        leds = gpio["leds"]
        pins.add_widget(TextLabel(text=_("turn lights: GPIO {gpios} (header pins {pins})").format(
                                      gpios=", ".join(map(str, leds)), pins=", ".join(str(HEADER_PIN.get(p, "?")) for p in leds)),
                                  color=theme.MUTED, font_size=theme.FONT_SMALL, size_hint_y=None, height=30))
        ok, why = module_available("hardware.panel")
        if not ok:
            self.gpio_status = _("GPIO panel: not available ({reason}).").format(reason=why)
        elif app.panel is not None:
            self.gpio_status = _("GPIO panel: {state}").format(
                state=_("ready") if app.panel.available else app.panel.reason)
        # rules
        rules = self.ids.rules
        rules.clear_widgets()
        for key, title in games.titles().items():
            try:
                lines = games.get(key).interpretations()
            except (ImportError, ValueError) as exc:
                lines = [_("not available: {error}").format(error=exc)]
            rules.add_widget(KeyLabel(text=title, font_size=theme.FONT, size_hint_y=None, height=32,
                                      halign="left", text_size=(700, 32)))
            text = TextLabel(text="\n".join(f"• {ln}" for ln in lines), font_size=theme.FONT_SMALL,
                             color=theme.MUTED, size_hint_y=None)
            text.bind(texture_size=lambda w, s: setattr(w, "height", s[1] + 6))
            rules.add_widget(text)

    # -- serial die -------------------------------------------------------------------------

    def test_serial(self) -> None:
        port = self.ids.port.text.strip()
        try:
            self.app.prefs.set("ui.serial_port", port)
        except ValueError as exc:
            self.app.toast(str(exc), "bad")
            return
        self.die_status = _("Connecting to {port}...").format(port=port or _("any USB serial port"))
        if not self.app.connect_serial(port or None):
            self.die_status = _("The serial die module is not available.")
            return
        self._off = getattr(self, "_off", None) or self.app.bridge.on("die", self._seen_throw)

    def _seen_throw(self, throw: Any, *_args: Any) -> None:
        values = tuple(getattr(throw, "dice", throw))
        self.die_last = _("Last throw: {throw}").format(throw=" + ".join(map(str, values)))

    def on_die_state(self, state: Any) -> None:
        describe = getattr(state, "describe", None)
        self.die_status = describe() if callable(describe) else str(state)

    # -- camera -----------------------------------------------------------------------------

    def set_camera(self, value: str) -> None:
        self.app.prefs.set("ui.camera", value)
        self.app.toast(_("Camera: {choice}").format(choice=_(dict(CAMERA_CHOICES).get(value, value))), "good")

    def set_camera_auto(self, on: bool) -> None:
        """Camera throws during play: applied at once (on) or offered for one touch (off)."""
        self.app.prefs.set("ui.camera_auto", bool(on))

    def set_motion(self, on: bool) -> None:
        """Pieces slide from square to square and captures flash (on), or jump at once (off)."""
        self.app.prefs.set("ui.reduced_motion", not on)

    def step_confidence(self, delta: float) -> None:
        value = round(min(1.0, max(0.5, float(self.app.prefs.get("ui.min_confidence")) + delta)), 2)
        self.app.prefs.set("ui.min_confidence", value)
        self.ids.confidence.text = f"{value * 100:.0f}%"

    # -- GPIO -------------------------------------------------------------------------------

    def step_pin(self, name: str, delta: int) -> None:
        gpio = dict(self.app.prefs.get("ui.gpio"))
        used = {v for k, v in gpio.items() if k != name and k != "leds"} | set(gpio["leds"])
        pin = gpio[name]
        for _ in range(28):
            pin = (pin + delta) % 28
            if pin not in used and pin >= 2:
                break
        gpio[name] = pin
        self.app.prefs.set("ui.gpio", gpio)
        self.pin_labels[name].text = pin_words(pin)

    def test_gpio(self) -> None:
        """Live test on a worker thread: each LED lights in turn, the buzzer beeps, and the
        buttons held down are reported; the result comes back through the bridge."""
        ok, why = module_available("hardware.panel")
        if not ok:
            self.gpio_status = _("GPIO panel: not available ({reason}).").format(reason=why)
            return
        panel = self.app.connect_panel()
        if panel is None or not panel.available:
            self.gpio_status = _("GPIO panel: not available ({reason}).").format(
                reason=getattr(panel, "reason", None) or _("no panel"))
            return
        self.gpio_status = _("GPIO panel: testing (watch the LEDs, listen for the beep)...")
        self._off_gpio = getattr(self, "_off_gpio", None) or self.app.bridge.on("gpio_test", self._gpio_done)
        report = self.app.bridge.callback("gpio_test")
        import threading

        threading.Thread(target=lambda: report(panel.live_test(step=0.1)), name="gpio-test", daemon=True).start()

    def _gpio_done(self, result: dict[str, Any]) -> None:
        held = [k for k, v in result.get("pressed", {}).items() if v]
        text = _("GPIO panel: LEDs lit {leds}, beep {beep}").format(
            leds=result.get("leds_lit"), beep=_("ok") if result.get("beeped") else _("none"))
        if held:
            text += ", " + _("held: {buttons}").format(buttons=", ".join(_(PIN_NAMES.get(k, k)) for k in held))
        self.gpio_status = text

    # -- language ---------------------------------------------------------------------------

    def build_languages(self) -> None:
        """One toggle per language (in its own name); one without a catalogue is disabled."""
        box = self.ids.languages
        box.clear_widgets()
        self.language_buttons = {}
        current = language.current()
        for code, name, installed in language.choices():
            b = BigToggle(text=name, group="language", allow_no_selection=False, disabled=not installed,
                          state="down" if code == current else "normal")
            b.bind(on_release=lambda _b, c=code: self.set_language(c))
            box.add_widget(b)
            self.language_buttons[code] = b

    def set_language(self, code: str) -> None:
        """Save and switch; every screen is built again in the new language (ui.language)."""
        app = self.app
        if language.pick(app, code) != code:
            app.toast(_("There is no translation for this language yet."), "bad")

    def cleanup(self) -> None:
        """This screen is being replaced (a new language): stop listening to the bridge."""
        for name in ("_off", "_off_gpio"):
            off = getattr(self, name, None)
            if off is not None:
                off()
                setattr(self, name, None)
