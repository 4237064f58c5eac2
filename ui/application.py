"""The Kivy application: screens, the live session, hardware and the bridge.

Built by :func:`ui.app.main` after the Kivy configuration is set. Tests build it without
``run()``: ``app = CompanionApp(store=store, force_demo=True); root = app.build()``.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition

from companion.games.base import IllegalAction
from companion.i18n import _
from companion.session import Session, SessionEvent
from companion.store import Store, StoreError
from ui import hardware, language, theme
from ui.bridge import Bridge
from ui.prefs import Prefs
from ui.screens.lazy import LazyScreens
from ui.widgets.toast import Toast

HERE = Path(__file__).parent
KV_FILES = [
    HERE / "widgets" / "style.kv",
    HERE / "widgets" / "companion.kv",
    HERE / "screens" / "home.kv",
    HERE / "screens" / "game.kv",
    HERE / "screens" / "katenmuis.kv",
    HERE / "screens" / "chopchop.kv",
    HERE / "screens" / "boardgame.kv",
    HERE / "screens" / "camera.kv",
    HERE / "screens" / "settings.kv",
    HERE / "screens" / "history.kv",
    HERE / "screens" / "howto.kv",
    HERE / "screens" / "gameover.kv",
    HERE / "screens" / "wizard.kv",
]
_kv_loaded = False
TOP_BAR = 56
"""The top bar's height (ui/widgets/style.kv); toasts stay below it."""

SCREENS: dict[str, tuple[str, str]] = {"home": ("ui.screens.home", "HomeScreen")}
"""name -> (module, class): the screens registered before the game screens, then the later ones."""
LATER_SCREENS: dict[str, tuple[str, str]] = {
    "camera": ("ui.screens.camera", "CameraScreen"),
    "settings": ("ui.screens.settings", "SettingsScreen"),
    "history": ("ui.screens.history", "HistoryScreen"),
    "howto": ("ui.screens.howto", "HowToScreen"),
    "gameover": ("ui.screens.gameover", "GameOverScreen"),
    "wizard": ("ui.screens.wizard", "SetupWizardScreen"),
}
# game key -> (module, class) of its screen
GAME_SCREENS: dict[str, tuple[str, str]] = {
    "katenmuis": ("ui.screens.katenmuis", "KatEnMuisScreen"),
    "chopchop": ("ui.screens.chopchop", "ChopChopScreen"),
    "kilkenny": ("ui.screens.boardgame", "BoardGameScreen"),
    "qubism": ("ui.screens.boardgame", "BoardGameScreen"),
}


def _screen_class(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)


def load_kv() -> None:
    """Load every .kv file once per process."""
    global _kv_loaded
    if _kv_loaded:
        return
    for path in KV_FILES:
        if path.exists():
            Builder.load_file(str(path))
    _kv_loaded = True


_finishing = False


def finish_offscreen_frames() -> bool:
    """Finish every drawn frame when there is no screen to swap to.

    A window on a display presents each frame by swapping buffers, and the driver draws and
    frees what was queued for it. SDL's ``offscreen`` video driver (the tests, CI, ``bench/soak.py``)
    draws into an EGL pbuffer, where the swap does nothing: Mesa's
    llvmpipe then kept the draw calls' data (about 500 MB after a few minutes of play, and more
    all evening). ``glFlush`` after each flip was not enough (still 410 MB); ``glFinish`` keeps
    it at 80 MB. Bound once per process; True when bound.
    """
    global _finishing
    if _finishing or os.environ.get("SDL_VIDEODRIVER") != "offscreen":
        return _finishing
    from kivy.core.window import Window
    from kivy.graphics.opengl import glFinish

    Window.bind(on_flip=lambda *_args: glFinish())
    _finishing = True
    return True


class Root(FloatLayout):
    """The screen manager plus the toast overlay."""


class CompanionApp(App):
    demo = BooleanProperty(False)
    status = StringProperty("")
    session: Any = ObjectProperty(None, allownone=True)
    speech_engine: Any = "espeak-ng"
    """The voice's engine (a name or factory, see hardware.speech) and output (None: the sound
    card through aplay); tests give a WAV-file output or a missing library."""
    speech_output: Any = None
    cue_output: Any = None
    """Where sound cues go (hardware.cues; None: the sound card through aplay)."""

    def __init__(self, store: Store, force_demo: bool = False, lang: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.store = store
        self.prefs = Prefs(store)
        language.start(self, lang)  # --lang > the saved setting > LANG
        self.title = self.window_title()
        self._unlisten_language: Any = None
        self.bridge = Bridge()
        self.bridge.on_error = lambda msg: self.toast(msg, "bad")
        self.hardware = hardware.detect(self.prefs.get("ui.serial_port") or None)
        self.demo = force_demo or not self.hardware.any_found
        self.sm: LazyScreens | None = None
        self._die_state: Any = None
        """The die's last state (a screen built later shows it)."""
        self._ahead: Any = None
        self.toaster: Toast | None = None
        self._toast_follows: Any = None
        """The area widget the toast is placed over (followed as it is laid out)."""
        self.serial_die: Any = None
        self.panel: Any = None
        self.pin_factory: Any = None
        """gpiozero pin factory for the panel (None: the Pi's pins; tests use MockFactory)."""
        self._unsubscribe: Any = None
        from ui.camwatch import CameraWatcher

        self.camera_watch = CameraWatcher(self)
        """The camera during play (settled dice offered as throws, the board cross-checked)."""
        from ui.voice import AppVoice

        self.voice = AppVoice(self.prefs, self.bridge, self.speech_engine, self.speech_output)
        """The voice: ``app.voice.say(text)`` from anywhere on the UI thread (see ui.voice)."""
        from hardware.cues import CuePlayer

        self.cues = CuePlayer(self.cue_output, enabled=lambda: bool(self.voice.enabled))
        """Sound cues for captures, cheese, lost turns and wins (ui.feedback); silent on Mute."""
        self.bridge.on("die", self.on_die_throw)
        self.bridge.on("die_state", self.on_die_state)
        self.bridge.on("die_reject", self.on_die_reject)
        self.bridge.on("button", self.on_button)
        from ui import panelwatch

        self.bridge.on(panelwatch.STATE_KIND, lambda state, detail="": panelwatch.on_panel_state(self, state, detail))
        self._panel_check = Clock.schedule_interval(lambda dt: panelwatch.check_panel(self), panelwatch.CHECK_EVERY_S)
        self.status = self._status_text()

    # -- building ---------------------------------------------------------------------------

    def build(self) -> Root:
        import ui.widgets.board  # noqa: F401  (registers the widget classes the kv files use)
        import ui.widgets.common  # noqa: F401
        import ui.widgets.dice  # noqa: F401
        import ui.widgets.icons  # noqa: F401
        import ui.widgets.plot  # noqa: F401
        import ui.voice  # noqa: F401  (MuteButton, VoicePanel)

        load_kv()
        finish_offscreen_frames()
        root = Root()
        sm = self.make_screens()
        root.add_widget(sm)
        self.toaster = Toast()
        root.add_widget(self.toaster)
        self.sm = sm
        self.root = root
        for note in self.prefs.notes:
            Clock.schedule_once(lambda _dt, n=note: self.toast(n, "bad"), 0.5)
        if self._unlisten_language is None:
            self._unlisten_language = language.listen(self)  # a new language rebuilds the screens
        return root

    def window_title(self) -> str:
        return _("Table companion")

    def make_screens(self) -> LazyScreens:
        """Every screen, in the language now in use: Home built now, the others when first
        shown or asked for (ui.screens.lazy; the real app builds them ahead after start)."""
        sm = LazyScreens(transition=NoTransition())
        sm.bind(current=lambda *_: Clock.schedule_once(lambda _dt: self.place_toast(), 0))  # its own area
        sm.on_built = self._screen_built
        for name, (mod, cls) in SCREENS.items():
            sm.add_lazy(name, lambda n=name, m=mod, c=cls: _screen_class(m, c)(name=n))
        for key, (mod, cls) in GAME_SCREENS.items():
            sm.add_lazy(key, lambda k=key, m=mod, c=cls: _screen_class(m, c)(name=k, game_key=k))
        for name, (mod, cls) in LATER_SCREENS.items():
            sm.add_lazy(name, lambda n=name, m=mod, c=cls: _screen_class(m, c)(name=n))
        sm.current = "home"
        return sm

    def _screen_built(self, screen: Any) -> None:
        """A screen built after start is handed what it would have heard since."""
        if self._die_state is not None and screen.name in ("settings", "wizard"):
            screen.on_die_state(self._die_state)

    def build_ahead(self, delay: float = 0.5) -> None:
        """Build the screens not built yet one at a time on the Clock (the real app after
        start: the first visit to each is then as quick as when all were built at start)."""
        sm = self.sm

        def step(_dt: float) -> None:
            if self.sm is sm and sm is not None and sm.build_next():
                self._ahead = Clock.schedule_once(step, 0)

        self._ahead = Clock.schedule_once(step, delay)

    def on_start(self) -> None:
        self.start_hardware()
        self.voice.start()
        if self.prefs.first_start and self.session is None:
            self.go("wizard")  # the very first start: set-up is offered (each step can be skipped)
        self.build_ahead()

    def on_stop(self) -> None:
        self._panel_check.cancel()
        if self._ahead is not None:
            self._ahead.cancel()
        unlisten, self._unlisten_language = self._unlisten_language, None
        if unlisten is not None:
            unlisten()
        howto = self.sm.built("howto") if self.sm is not None else None
        if howto is not None:
            howto.stop_listening()  # (its language listener: a closed app is freed)
        self.shutdown()
        self.voice.close()

    def shutdown(self) -> None:
        self.camera_watch.stop()
        self.voice.speaker.stop()
        panel, self.panel = self.panel, None
        if panel is not None:
            try:
                panel.close()
            except Exception:
                pass
        self._stop_serial()

    def _stop_serial(self) -> None:
        die, self.serial_die = self.serial_die, None
        if die is not None:
            try:
                die.stop()
            except Exception:
                pass

    # -- navigation -------------------------------------------------------------------------

    def go(self, name: str) -> None:
        if self.sm is None:
            return
        if name == "game":
            name = self.session.record.game if self.session is not None else "home"
        self.sm.current = name

    def screen(self, name: str) -> Any:
        assert self.sm is not None
        return self.sm.get_screen(name)

    @property
    def game_screen(self) -> Any:
        if self.session is None or self.sm is None:
            return None
        return self.sm.get_screen(self.session.record.game)

    # -- the session ------------------------------------------------------------------------

    def open_session(self, session: Session) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.camera_watch.stop()
        self.session = session
        self._unsubscribe = session.subscribe(self._on_session_event)
        screen = self.screen(session.record.game)
        screen.set_session(session)
        self.go(session.record.game)
        self._update_expected()
        if self.sm is not None and self.sm.current == session.record.game:
            self.camera_watch.start()

    def start_game(
        self, key: str, seats: dict[str, str], settings: dict[str, Any], companions: dict[str, str] | None = None
    ) -> Session | None:
        try:
            session = Session.start(self.store, key, seats, settings, companions=companions)
        except (ValueError, StoreError) as exc:
            self.toast(str(exc), "bad")
            return None
        self.prefs.remember_seats(key, seats)
        self.open_session(session)
        return session

    def resume_game(self, key: str | None = None) -> Session | None:
        try:
            session = Session.resume(self.store, key)
        except (ValueError, StoreError) as exc:
            self.toast(_("Could not resume: {error}").format(error=exc), "bad")
            return None
        for sentence in self.store.damaged.values():  # damaged games skipped: said
            self.toast(sentence, "bad")
        if session is None:
            self.toast(_("There is no unfinished game."), "info")
            return None
        self.open_session(session)
        return session

    def continue_game(self, game_id: int) -> Session | None:
        """Open one unfinished game (Home's list, History)."""
        try:
            session = Session.load(self.store, game_id)
        except (ValueError, StoreError) as exc:
            self.toast(_("Could not resume: {error}").format(error=exc), "bad")
            return None
        self.open_session(session)
        return session

    def forget_session(self, game_id: int) -> None:
        """The game ``game_id`` was deleted: if it is the open one, close it."""
        if self.session is None or self.session.game_id != game_id:
            return
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.camera_watch.stop()
        self.session = None

    def apply(self, action: Any, source: str = "touch") -> list[Any] | None:
        """Apply through the session; an illegal action or a save failure becomes a toast."""
        if self.session is None:
            self.toast(_("Start or resume a game first."), "info")
            return None
        try:
            return self.session.apply(action, source)
        except IllegalAction as exc:
            self.toast(_sentence(str(exc)), "bad")
        except StoreError as exc:
            self.toast(str(exc), "bad")
        return None

    def undo(self) -> None:
        if self.session is None:
            return
        try:  # with the companion seated: back to the last person's decision
            turn = self.session.undo_to_human() if self.session.companions else self.session.undo()
        except StoreError as exc:
            self.toast(str(exc), "bad")
            return
        if not turn:
            self.toast(_("Nothing to undo."), "info")
        else:
            self.toast(_("Undone."), "info")

    def _on_session_event(self, event: SessionEvent) -> None:
        screen = self.game_screen
        if screen is not None:
            screen.on_session_event(event)
        self._update_expected()
        self.camera_watch.on_session_event(event)
        if event.kind != "finished":
            self._panel_turn(event.effects)
        if self.sm is not None:
            camera = self.sm.built("camera")  # (built later, it reads the session as it is then)
            if camera is not None:
                camera.on_session_event(event)
            if event.kind == "finished" and self.session is not None and self.sm.current == self.session.record.game:
                self.show_game_over()

    def show_game_over(self) -> None:
        """The end-of-game screen for the open session (its game is over)."""
        if self.session is None or self.sm is None or not self.session.is_over():
            return
        self.screen("gameover").show_for(self.session)
        self.go("gameover")

    # -- hardware ---------------------------------------------------------------------------

    def _status_text(self) -> str:
        if self.demo:
            return _("Demo mode")
        parts = [_(p.name) for p in (self.hardware.serial, self.hardware.camera, self.hardware.gpio) if p.found]
        return " · ".join(parts)

    def start_hardware(self) -> None:
        """Start the serial die reader and the GPIO panel where found (never in demo mode)."""
        if self.demo:
            return
        if self.hardware.serial.found:
            self.connect_serial(self.prefs.get("ui.serial_port") or None)
        if self.hardware.gpio.found:
            self.connect_panel()

    def connect_panel(self) -> Any:
        """(Re)open the GPIO panel with the saved pins; its buttons go through the bridge."""
        try:
            import warnings

            from hardware.panel import Panel, PanelPins
        except ImportError as exc:
            self.toast(_("The GPIO panel is not available: {error}").format(error=exc), "bad")
            return None
        if self.panel is not None:
            self.panel.close()
            self.panel = None
        g = self.prefs.get("ui.gpio")
        try:
            pins = PanelPins(roll=g["roll"], undo=g["undo"], menu=g["menu"], leds=tuple(g["leds"]),
                             buzzer=g["buzzer"])
        except ValueError as exc:
            self.toast(_("GPIO pins: {error}").format(error=exc), "bad")
            return None
        post = self.bridge.post
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.panel = Panel(
                pins, pin_factory=self.pin_factory,
                on_roll=lambda: post("button", "roll"),
                on_undo=lambda: post("button", "undo"),
                on_menu=lambda: post("button", "menu"),
                on_state=self.bridge.callback("panel_state"),
            )
        self._panel_turn()
        return self.panel

    def _panel_turn(self, effects: Any = ()) -> None:
        panel = self.panel
        if panel is None or self.session is None:
            return
        panel.set_players(list(self.session.game.players))
        # whose turn it is lights first; then the effects buzz and blink on top of it (a player
        # who lost a turn blinks beside the steady LED of the player who throws next; a win
        # blinks the winner's LED only)
        if not any(type(e).__name__ == "Won" for e in effects):
            panel.show_turn(self.session.state.current_player())
        if effects:
            panel.react(list(effects))

    def connect_serial(self, port: str | None, factory: Any = None) -> bool:
        """(Re)start the serial die on ``port`` (``None``: auto); its callbacks go through the bridge."""
        try:
            from hardware.serialdie import SerialDie
        except ImportError as exc:
            self.toast(_("The serial die is not available: {error}").format(error=exc), "bad")
            return False
        self._stop_serial()  # only the old die: the GPIO panel, camera and voice carry on
        kwargs: dict[str, Any] = {}
        if factory is not None:
            kwargs["factory"] = factory
        self.serial_die = SerialDie(
            port,
            on_throw=self.bridge.callback("die"),
            on_state=self.bridge.callback("die_state"),
            on_reject=self.bridge.callback("die_reject"),
            **kwargs,
        )
        self._update_expected()
        self.serial_die.start()
        return True

    def _update_expected(self) -> None:
        die = self.serial_die
        if die is None or self.session is None:
            return
        try:
            from hardware.protocol import Expected

            die.set_expected(Expected.for_game(self.session.record.game))
        except (ImportError, ValueError):
            pass

    def on_die_throw(self, throw: Any, source: str = "serial") -> None:
        """A throw from the serial die or the camera (already on the UI thread)."""
        values = tuple(getattr(throw, "dice", throw))
        screen = self.game_screen
        if screen is None:
            self.toast(_("Die shows {throw}: start a game first.").format(throw=" + ".join(map(str, values))), "info")
            return
        screen.enter_throw(values, source)

    def on_die_reject(self, rejected: Any) -> None:
        """The die sent something that is not a valid throw for this game (shown, never applied)."""
        reason = getattr(rejected, "reason", "") or str(rejected)
        self.toast(_("The die's reading was refused: {reason}").format(reason=reason), "bad")

    def on_die_state(self, state: Any) -> None:
        describe = getattr(state, "describe", None)
        self.status = describe() if callable(describe) else str(state)
        self._die_state = state
        for name in ("settings", "wizard"):
            try:
                screen = self.sm.built(name) if self.sm is not None else None
                if screen is not None:
                    screen.on_die_state(state)
            except Exception:
                pass

    def on_button(self, name: str) -> None:
        """A GPIO panel button (on the UI thread): roll (the virtual die / confirm), undo
        (held 2 s), menu (home and back)."""
        screen = self.game_screen
        if name == "undo":
            self.undo()
        elif name == "roll" and screen is not None:
            screen.roll()
        elif name == "menu" and self.sm is not None:
            self.go("home" if self.sm.current != "home" else "game")

    # -- messages ---------------------------------------------------------------------------

    def toast(self, text: str, kind: str = "info") -> None:
        if self.toaster is not None:
            self.place_toast()
            self.toaster.show(text, {"bad": theme.BAD, "good": theme.GOOD}.get(kind, theme.INFO))

    def _replace_toast(self, *_args: Any) -> None:
        self.place_toast()

    def place_toast(self) -> None:
        """The toast's own area on the screen showing: a screen's ``toast_area`` widget (a game
        screen's narration, below the board), else the strip under the top bar."""
        toaster, sm = self.toaster, self.sm
        if toaster is None or sm is None or self.root is None or sm.current_screen is None:
            return
        area = getattr(sm.current_screen, "ids", {}).get("toast_area")
        follow = self._toast_follows
        if follow is not None and follow is not area:
            follow.unbind(pos=self._replace_toast, size=self._replace_toast)
            self._toast_follows = None
        if area is not None and area.get_root_window() is not None:
            if self._toast_follows is None:  # a screen just shown is laid out in the next frame
                area.bind(pos=self._replace_toast, size=self._replace_toast)
                self._toast_follows = area
            x, y = area.to_window(area.x, area.y)
            toaster.place(x, area.width, y, from_top=False)
            return
        width, height = self.root.size
        toaster.place(width * 0.1, width * 0.8, height - TOP_BAR - 6, from_top=True)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return _("That is not allowed.")
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
