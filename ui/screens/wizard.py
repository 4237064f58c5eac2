"""Set-up on the touchscreen: a wizard of three steps with ticks, and the die and the sound.

1. **Print the board**: the selected game's board as a PDF (vision.printing, as ``companion
   board print`` makes it) into a folder named in a sentence, with how to print it.
2. **Point the camera**: the live preview (the demo feed without a camera) and plain guidance
   from the corner markers seen (vision.aim): "3 of 4 corners seen: move the camera left"; the
   tick once every corner has been seen for a moment; the camera chosen in words.
3. **Learn the pieces and throw a test**: the pieces' looks learned from the start position
   (``companion board learn``'s code), then a throw read and shown big, "Right / Not right".

Plus **Die and sound**: the electronic die found by scanning the serial ports (hardware.portscan)
and tried live, the sound output and voice in words (hardware.soundchoice). Each step can be
skipped; the ticks are kept in settings (``ui.setup``). The camera work is ui.wizardcam's.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion import games
from companion.i18n import N_, _
from ui import theme
from ui.widgets.common import BigToggle
from ui.widgets.dice import DieFace
from ui.widgets.icons import IconButton

STEPS: dict[str, str] = {
    "print": N_("Print the board"),
    "camera": N_("Point the camera"),
    "learn": N_("Learn the pieces, throw a test"),
}
"""The ticked steps, in order (titles translated when shown)."""
DEVICES = N_("Die and sound")
STEADY_FRAMES = 3
"""Pictures in a row with every corner seen before the camera step is ticked."""
SETTLED_FRAMES = 3
"""Pictures in a row with the same dice before a test throw is shown."""


def print_folder(app: Any) -> Path:
    """Where the printable boards go: ``board-prints`` in the home folder beside the default
    database, else beside the database in use (tests, ``--db``)."""
    from companion.store import default_db_path

    path = getattr(app.store, "path", None)
    if path is None or Path(path).resolve() == default_db_path().resolve():
        return Path.home() / "board-prints"
    return Path(path).parent / "board-prints"


def camera_words(value: str, index: int = 0) -> str:
    """A camera choice as words: "Camera 1 (USB)", "Pi camera", "Demo pictures"."""
    if value.startswith("/dev/video"):
        return _("Camera {n} (USB)").format(n=index + 1)
    return {"picamera2": _("Pi camera"), "demo": _("Demo pictures"), "auto": _("Find the camera by itself"),
            "none": _("Off")}.get(value, _("Camera"))


PAPERS = {"A4": N_("A4 paper"), "Letter": N_("Letter paper (US)")}
"""The papers the wizard prints the board on, at its true size (vision.printing)."""


class SetupWizardScreen(Screen):
    step = StringProperty("print")
    print_text = StringProperty("")
    print_error = StringProperty("")
    print_done = BooleanProperty(False)
    paper = StringProperty("A4")
    """The paper the board is printed on: "A4" or "Letter" (US), both at the board's true size."""
    aim_text = StringProperty("")
    aim_ok = BooleanProperty(False)
    """Every corner seen in the last picture (the guidance in green)."""
    camera_placeholder = StringProperty("")
    camera_done = BooleanProperty(False)
    learn_text = StringProperty("")
    throw_text = StringProperty("")
    can_confirm = BooleanProperty(False)
    die_text = StringProperty("")
    sound_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        from ui.wizardcam import WizardCamera

        self.camera = WizardCamera(App.get_running_app())
        self.game_key = "katenmuis"
        self.step_buttons: dict[str, IconButton] = {}
        self.port_buttons: list[IconButton] = []
        self.steady = 0
        self.printing = False
        self.thrown: tuple[int, ...] = ()
        self._last_dice: tuple[Any, ...] = ()
        self._same = 0
        self._offs: list[Any] = []
        super().__init__(**kwargs)

    @property
    def app(self) -> Any:
        return App.get_running_app()

    # -- progress -------------------------------------------------------------------------------

    def progress(self) -> dict[str, bool]:
        return dict(self.app.prefs.get("ui.setup"))

    def _mark(self, step: str, done: bool) -> None:
        progress = self.progress()
        progress[step] = done
        self.app.prefs.set("ui.setup", progress)
        self.build_steps()

    def build_steps(self) -> None:
        box = self.ids.steps
        box.clear_widgets()
        self.step_buttons = {}
        progress = self.progress()
        for i, (key, title) in enumerate(STEPS.items(), 1):
            done = progress.get(key, False)
            state = _("done") if done else _("not yet")
            b = IconButton(icon="check" if done else "", text=f"{i}. {_(title)}\n{state}",
                           bg=list(theme.ACCENT if key == self.step else theme.PANEL_HI),
                           font_size=theme.FONT_SMALL, halign="center")
            b.bind(width=lambda w, wd: setattr(w, "text_size", (wd - 64, None)))
            b.bind(on_release=lambda _b, k=key: self.show(k))
            box.add_widget(b)
            self.step_buttons[key] = b
        b = IconButton(icon="speaker", text=_(DEVICES), font_size=theme.FONT_SMALL, halign="center",
                       bg=list(theme.ACCENT if self.step == "devices" else theme.PANEL_HI))
        b.bind(width=lambda w, wd: setattr(w, "text_size", (wd - 64, None)))
        b.bind(on_release=lambda _b: self.show("devices"))
        box.add_widget(b)
        self.step_buttons["devices"] = b

    # -- navigation -----------------------------------------------------------------------------

    def on_pre_enter(self, *args: Any) -> None:
        home = self.app.screen("home") if self.app.sm is not None else None
        self.game_key = getattr(home, "game_key", None) or self.game_key
        if self.app.store.get_setting("ui.setup", None) is None:
            self.app.prefs.set("ui.setup", self.progress())  # offered once: not again at the next start
        if not self._offs:
            bridge = self.app.bridge
            self._offs = [bridge.on("wizard_frame", self.on_frame), bridge.on("wizard_state", self.on_camera_state),
                          bridge.on("wizard_learned", self.on_learned), bridge.on("wizard_print", self.on_printed),
                          bridge.on("die", self.on_die_throw)]
        progress = self.progress()
        first = next((k for k in STEPS if not progress.get(k)), "devices")
        self.show(first)

    def on_leave(self, *args: Any) -> None:
        self.camera.stop()

    def leave(self) -> None:
        self.camera.stop()
        self.app.go("home")

    def show(self, step: str) -> None:
        self.step = step
        self.ids.pages.current = step
        self.build_steps()
        if step in ("camera", "learn"):
            self.start_camera()
        else:
            self.camera.stop()
        {"print": self.show_print, "camera": self.show_camera, "learn": self.show_learn,
         "devices": self.show_devices}[step]()

    def next_after(self, step: str) -> None:
        order = [*STEPS, "devices"]
        self.show(order[min(order.index(step) + 1, len(order) - 1)])

    def skip(self, step: str) -> None:
        self.next_after(step)

    def finish(self, step: str) -> None:
        self._mark(step, True)
        self.next_after(step)

    def cleanup(self) -> None:
        """This screen is being replaced (a new language): stop the camera and listening."""
        self.camera.stop()
        for off in self._offs:
            off()
        self._offs = []

    # -- 1. print -------------------------------------------------------------------------------

    def show_print(self) -> None:
        box = self.ids.print_games
        box.clear_widgets()
        for key, title in games.titles().items():
            b = BigToggle(text=title, group="wizard_game", allow_no_selection=False, font_size=theme.FONT_SMALL,
                          state="down" if key == self.game_key else "normal")
            b.bind(on_release=lambda _b, k=key: self.pick_game(k))
            box.add_widget(b)
        papers = self.ids.print_papers
        papers.clear_widgets()
        for paper, words in PAPERS.items():
            b = BigToggle(text=_(words), group="wizard_paper", allow_no_selection=False, font_size=theme.FONT_SMALL,
                          state="down" if paper == self.paper else "normal")
            b.bind(on_release=lambda _b, p=paper: self.pick_paper(p))
            papers.add_widget(b)
        path = self.pdf_path()
        self.print_done = path.exists()  # "Make it again"
        self.print_error = ""
        if path.exists():
            self.print_text = self._printed_sentence(path)
        else:
            self.print_text = _("Touch the button to make the board for {game} as a file to print.").format(
                game=games.titles()[self.game_key])

    def pick_game(self, key: str) -> None:
        self.game_key = key
        self.show_print()

    def pick_paper(self, paper: str) -> None:
        self.paper = paper
        self.show_print()

    def pdf_path(self) -> Path:
        size = "" if self.paper == "A4" else f"-{self.paper.lower()}"
        return print_folder(self.app) / f"{self.game_key}-board{size}.pdf"

    def _printed_sentence(self, path: Path) -> str:
        if self.paper == "Letter":
            return _("The board is ready to print:\n{path}\nPrint it on Letter paper at 100 % (actual size), "
                     "not \"fit to page\".").format(path=path)
        return _("The board is ready to print:\n{path}\nPrint it on A4 paper at 100 % (actual size), "
                 "not \"fit to page\".").format(path=path)

    def make_print(self) -> None:
        """Write the PDF on a worker thread; the result comes back as ``wizard_print``."""
        if self.printing:
            return
        self.printing = True
        self.print_error = ""
        self.print_text = _("Making the board to print...")
        path, game, paper = self.pdf_path(), self.game_key, self.paper
        report = self.app.bridge.callback("wizard_print")

        def work() -> None:
            try:
                from vision.boarddefaults import board_for
                from vision.printing import PrintError, print_board

                path.parent.mkdir(parents=True, exist_ok=True)
                try:
                    print_board(board_for(game), path, paper=paper)
                except PrintError as exc:  # the board does not fit that paper: its sentence
                    report(str(path), type(exc).__name__, str(exc))
                    return
                report(str(path), "")
            except Exception as exc:  # one plain sentence on the screen, the detail in the log
                import logging

                logging.getLogger(__name__).warning("printing %s failed: %s", game, exc)
                report(str(path), type(exc).__name__)

        threading.Thread(target=work, name="wizard-print", daemon=True).start()

    def on_printed(self, path: str, error: str, sentence: str = "") -> None:
        self.printing = False
        if error:
            self.print_text = ""
            self.print_error = sentence or _("The board could not be made in {folder}: check that there is room on the card "
                                 "and touch the button again.").format(folder=Path(path).parent)
            return
        self.print_text = self._printed_sentence(Path(path))
        self.print_done = True

    # -- 2. the camera --------------------------------------------------------------------------

    def start_camera(self) -> None:
        if self.camera.running:
            return
        self.steady = 0
        what = self.camera.start(self.game_key)
        self.camera_placeholder = "" if self.camera.running else what

    def show_camera(self) -> None:
        self.camera_done = bool(self.progress().get("camera"))
        if not self.camera_placeholder:
            self.aim_text = _("Looking for the board's corners...")
        box = self.ids.cam_sources
        box.clear_widgets()
        current = self.app.prefs.get("ui.camera")
        choices = [dev for dev in self.app.hardware.camera.detail.split(", ") if dev.startswith("/dev/video")]
        values = [*choices, "picamera2", "demo"]
        for i, value in enumerate(values):
            b = BigToggle(text=camera_words(value, i), group="wizard_camera", font_size=theme.FONT_SMALL,
                          state="down" if value == current or (current == "auto" and value == "demo"
                                                               and not choices) else "normal",
                          size_hint_y=None, height=52)
            b.bind(on_release=lambda _b, v=value: self.pick_camera(v))
            box.add_widget(b)

    def pick_camera(self, value: str) -> None:
        self.app.prefs.set("ui.camera", value)
        self.camera.stop()
        self.start_camera()
        self.show_camera()

    def on_camera_state(self, state: str, detail: str = "") -> None:
        if state in ("failed", "lost"):
            self.camera_placeholder = _("The camera stopped: check its cable, then choose it again.")

    def on_frame(self, frame: Any, aim: Any, dice: Any) -> None:
        self.camera.consumed()
        view = self.ids.cam_view
        view.set_frame(frame)
        view.redraw()
        self.aim_text = aim.sentence()
        self.aim_ok = bool(aim.all_seen)
        self.steady = self.steady + 1 if aim.all_seen else 0
        if self.steady >= STEADY_FRAMES and not self.camera_done:
            self.camera_done = True
            self._mark("camera", True)
        if self.camera_done and aim.all_seen:
            self.aim_text = _("The board is found. Well done!")
        if dice is not None:
            self.on_dice(list(dice))

    # -- 3. learn and throw ---------------------------------------------------------------------

    def show_learn(self) -> None:
        self.can_confirm = False
        self.thrown = ()
        self.ids.dice_shown.clear_widgets()
        self.throw_text = ""
        if not self.camera.running:
            self.learn_text = self.camera_placeholder
            return
        self.learn_text = _("Put the pieces on their start squares and touch Learn the pieces.")

    def learn(self) -> None:
        if not self.camera.running:
            self.learn_text = self.camera_placeholder or _("There is no camera to learn with.")
            return
        self.learn_text = _("Learning the pieces: keep the board in view...")
        self.camera.learn()

    def on_learned(self, n: int, error: str) -> None:
        if error or n == 0:
            self.learn_text = _("The pieces could not be learned: check that the whole board is in view and "
                                "each piece is on its start square, then touch Learn again.")
            return
        self.learn_text = _("Learned the pieces. Now throw the dice beside the board and touch Read a test throw.")

    def test_throw(self) -> None:
        if not self.camera.running:
            self.learn_text = self.camera_placeholder or _("There is no camera to read the dice with.")
            return
        self.can_confirm = False
        self.ids.dice_shown.clear_widgets()
        self._same, self._last_dice = 0, ()
        self.throw_text = _("Throw the dice...")
        self.camera.watch_dice(True)

    def on_dice(self, dice: list[Any]) -> None:
        threshold = float(self.app.prefs.get("ui.min_confidence"))
        values = tuple(sorted((d.value or 0) for d in dice))
        self._same = self._same + 1 if values == self._last_dice else 1
        self._last_dice = values
        if not dice or self._same < SETTLED_FRAMES:
            return
        self.camera.watch_dice(False)
        box = self.ids.dice_shown
        box.clear_widgets()
        for d in dice[:4]:
            box.add_widget(DieFace(value=int(d.value or 0), colour=str(d.colour or ""),
                                   dim=d.value is None or d.confidence < threshold))
        unsure = [d for d in dice if d.value is None or d.confidence < threshold]
        self.thrown = tuple(int(d.value) for d in dice if d.value)
        if unsure:
            self.throw_text = _("I am not sure of every die: turn the camera light on or throw again.")
            self.can_confirm = False
            return
        self.throw_text = _("I read {throw}. Is that right?").format(throw=" + ".join(map(str, self.thrown)))
        self.can_confirm = True

    def throw_right(self, right: bool) -> None:
        self.can_confirm = False
        if right:
            self.throw_text = _("The camera reads the dice. Set-up is done!")
            self._mark("learn", True)
            return
        self.throw_text = _("Then the camera needs a better view: more light, or the dice nearer the middle. "
                            "Touch Read a test throw again.")

    # -- die and sound --------------------------------------------------------------------------

    def show_devices(self) -> None:
        from ui import wizardsound

        if not self.die_text:
            self.die_text = _("Plug in the electronic die, if you have one, and touch Search.")
        wizardsound.build(self)

    def search_die(self) -> None:
        from ui import wizardsound

        wizardsound.search_die(self)

    def on_die_throw(self, throw: Any, *_args: Any) -> None:
        if self.app.sm is None or self.app.sm.current != self.name:
            return
        values = tuple(getattr(throw, "dice", throw))
        self.die_text = _("The die works: it threw {throw}.").format(throw=" + ".join(map(str, values)))

    def on_die_state(self, state: Any) -> None:
        """The die's connection in one sentence (its reader's own words stay in the log)."""
        if self.app.sm is None or self.app.sm.current != self.name or not self.port_buttons:
            return
        status, reason = getattr(state, "status", ""), str(getattr(state, "reason", ""))
        if status == "connected":
            self.die_text = _("The die is connected: throw it to try it.")
        elif "permission" in reason:
            self.die_text = _("The companion may not use the die yet: run the install script again, then restart.")
        elif "busy" in reason:
            self.die_text = _("Another program is using the die: close it and touch Search again.")
        elif status in ("waiting", "error"):
            self.die_text = _("The die does not answer: unplug it, plug it in again and touch Search.")

    def test_sound(self) -> None:
        from ui import wizardsound

        wizardsound.test_sound(self)
