"""Camera: live preview with the detected dice and the board's squares drawn over it, the
confidence of each reading, board calibration and counter-colour learning.

The preview runs only while this screen shows (during play, ui.camwatch watches the table from
the game screen; the two never run together). Frames are read and analysed (vision.dice,
vision.boardlocate) on a worker thread; results reach the screen through the bridge. A reading
is offered as a throw only when every die is read with at least the confidence threshold
(Settings); otherwise the screen asks the player to check the dice or enter the throw by touch.

In demo mode the feed is the bundled synthetic sample (ui/assets/demo_feed, made by
scripts/make_demo_feed.py).
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.i18n import N_, _, ngettext
from ui import dicearea, theme
from ui.camworker import stop_worker
from ui.widgets.tiles import pretty_tile

DEMO_FEED = Path(__file__).resolve().parents[1] / "assets" / "demo_feed"
DEMO_FEED_NAME = N_("Demo feed (synthetic)")
SOURCE_STATES = (N_("opening"), N_("running"), N_("lost"), N_("failed"), N_("ended"), N_("closed"))
"""A frame source's states (vision.camera), marked for translation: shown as ``_(state)``."""


class CameraView(Widget):
    """An image with boxes and polygons in image pixels drawn over it, letterboxed."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.texture: Any = None
        self.image_size = (0, 0)
        self.boxes: list[tuple[tuple[float, float, float, float], str, Any]] = []
        self.polygons: list[list[tuple[float, float]]] = []
        self.tray: tuple[float, float, float, float] | None = None  # frame pixels
        self.bind(pos=self.redraw, size=self.redraw)

    def set_frame(self, frame: Any) -> None:
        h, w = frame.shape[:2]
        if self.texture is None or self.image_size != (w, h):
            self.texture = Texture.create(size=(w, h), colorfmt="bgr")
            self.texture.flip_vertical()
            self.image_size = (w, h)
        self.texture.blit_buffer(frame.tobytes(), colorfmt="bgr", bufferfmt="ubyte")

    def _map(self) -> tuple[float, float, float, float]:
        w, h = self.image_size
        s = min(self.width / max(w, 1), self.height / max(h, 1))
        ox = self.x + (self.width - w * s) / 2
        oy = self.y + (self.height - h * s) / 2
        return s, ox, oy, h

    def to_widget(self, x: float, y: float) -> tuple[float, float]:
        s, ox, oy, h = self._map()
        return (ox + x * s, oy + (h - y) * s)

    def to_image(self, wx: float, wy: float) -> tuple[float, float] | None:
        """The frame pixel under a touch, or None outside the picture."""
        s, ox, oy, h = self._map()
        if self.texture is None or s <= 0:
            return None
        x, y = (wx - ox) / s, h - (wy - oy) / s
        if not (0 <= x <= self.image_size[0] and 0 <= y <= h):
            return None
        return (x, y)

    def redraw(self, *_: Any) -> None:
        from kivy.core.text import Label as CoreLabel

        self.canvas.clear()
        if self.texture is None:
            return
        s, ox, oy, h = self._map()
        w = self.image_size[0]
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=self.texture, pos=(ox, oy), size=(w * s, h * s))
            Color(*theme.INFO)
            for poly in self.polygons:
                pts = [c for p in poly + poly[:1] for c in self.to_widget(*p)]
                Line(points=pts, width=1.0)
            if self.tray is not None:
                a = self.to_widget(self.tray[0], self.tray[3])
                b = self.to_widget(self.tray[2], self.tray[1])
                Color(*theme.ACCENT)
                Line(rectangle=(a[0], a[1], b[0] - a[0], b[1] - a[1]), width=2.0)
            for (x1, y1, x2, y2), text, colour in self.boxes:
                a = self.to_widget(x1, y2)
                b = self.to_widget(x2, y1)
                Color(*colour)
                Line(rectangle=(a[0], a[1], b[0] - a[0], b[1] - a[1]), width=2.5)
                lab = CoreLabel(text=text, font_size=theme.FONT, bold=True, color=colour)
                lab.refresh()
                Color(0, 0, 0, 0.6)
                Rectangle(pos=(a[0], b[1] + 2), size=(lab.texture.width + 8, lab.texture.height))
                Color(1, 1, 1, 1)
                Rectangle(texture=lab.texture, pos=(a[0] + 4, b[1] + 2), size=lab.texture.size)


class CameraScreen(Screen):
    tile_text = StringProperty("")
    source_text = StringProperty("")
    board_text = StringProperty("")
    reading_text = StringProperty("")
    advice = StringProperty("")
    use_text = StringProperty("")
    can_use = BooleanProperty(False)
    readings = ListProperty([])
    area_text = StringProperty("")
    tray_hint = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._consumed = threading.Event()
        self._source: Any = None
        self._values: tuple[int, ...] = ()
        self.calibrating = False
        self.frames_shown = 0
        self.demo_fps = 3.0
        self._last_values: tuple[Any, ...] = ()
        self._same = 0
        self.stable_frames = 3
        self._learn_known: dict[str, str] | None = None
        self.reader: Any = None
        """The dice reader, ``frame -> [DieReading]`` (None: vision.dice.read_dice)."""
        self.feed_folder = DEMO_FEED
        """The folder the demo feed plays (a recorded session can be played back the same way)."""
        self._tile_square: str | None = None
        self.tile_patch: tuple[str, Any] | None = None
        self._tile_learner: Any = None
        self._tile_lock = threading.Lock()
        self.learned = 0
        self._tray_corners: list[tuple[float, float]] | None = None  # while the tray is being set
        """A reading is offered only after it held this many frames in a row (dice at rest)."""
        super().__init__(**kwargs)

    @property
    def app(self) -> Any:
        return App.get_running_app()

    def on_kv_post(self, base_widget: Any) -> None:
        self.view = self.ids.view

    @property
    def source_is_demo(self) -> bool:
        return self.source_text.split(" · ")[0] == _(DEMO_FEED_NAME)

    def on_pre_enter(self, *args: Any) -> None:
        self._tray_corners = None
        self.tray_hint = ""
        self._show_area()

    # -- the feed ---------------------------------------------------------------------------

    def choose_source(self) -> tuple[Any, str]:
        """(a frame source, what it is) or (None, why there is none)."""
        return pick_source(self.app, self.feed_folder, self.demo_fps)

    def on_enter(self, *args: Any) -> None:
        self.start()

    def on_leave(self, *args: Any) -> None:
        self.stop()

    def start(self) -> None:
        if self._thread is not None:
            return
        source, what = self.choose_source()
        self.source_text = what
        if source is None:
            self.ids.placeholder.text = what
            self.ids.placeholder.opacity = 1
            return
        self.ids.placeholder.opacity = 0
        self._source = source
        self._stop.clear()
        self._consumed.set()
        self._off = self.app.bridge.on("camera_frame", self.on_frame)
        self._off_state = self.app.bridge.on("camera_state", self.on_camera_state)
        self._off_learn = self.app.bridge.on("camera_learned", self.on_learned)
        self._off_tile = self.app.bridge.on("camera_tile", self.on_tile)
        self._tile_square = self.tile_due()
        source.on_state = self.app.bridge.callback("camera_state")
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        thread, self._thread = self._thread, None
        source, self._source = self._source, None
        stop_worker(self._stop, thread, source, self._consumed)
        for name in ("_off", "_off_state", "_off_learn", "_off_tile"):
            off = getattr(self, name, None)
            if off is not None:
                off()
                setattr(self, name, None)

    def _board(self) -> Any:
        screen = self.app.game_screen if self.app is not None else None
        board = getattr(screen, "board", None)
        if board is None:
            from companion.boards import load_board

            board = load_board("katenmuis")
        return board

    def _run(self) -> None:
        """Worker thread: read frames, analyse them, hand the results to the UI thread."""
        reads_dice = self.reader is not None
        BoardTracker: Any = None
        try:
            from vision.boardlocate import BoardTracker

            if not reads_dice:
                import vision.dice  # noqa: F401

                reads_dice = True
        except ImportError:
            pass
        board = self._board()
        tracker = BoardTracker(board) if BoardTracker is not None else None
        post = self.app.bridge.callback("camera_frame")
        try:
            for _t, frame in self._source:
                if self._stop.is_set():
                    break
                dice = []
                pose = None
                if tracker is not None:
                    try:
                        pose = tracker.update(frame)
                    except Exception:
                        pose = None
                area = self.app.prefs.get("ui.dice_area")
                if reads_dice:
                    try:
                        dice = dicearea.seen(frame, area, self.reader, pose, board)
                    except Exception:
                        dice = []
                polygons = []
                known = self._learn_known
                if known is not None and pose is not None and getattr(pose, "found", False):
                    self._learn_known = None
                    self._learn(board, frame, known, pose)
                tile_sq = self._tile_square
                if tile_sq is not None and pose is not None and getattr(pose, "found", False):
                    self._propose_tile(board, frame, tile_sq)
                if pose is not None and getattr(pose, "found", False):
                    for sq in board.squares.values():
                        polygons.append([tuple(p) for p in pose.to_pixels(list(sq.polygon))])
                self._consumed.wait(timeout=2.0)
                if self._stop.is_set():
                    break
                self._consumed.clear()
                post(frame, dice, pose, polygons)
        except Exception as exc:  # a lost camera reports its state; anything else is shown
            self.app.bridge.post("camera_state", "failed", str(exc))

    # -- on the UI thread -------------------------------------------------------------------

    def on_camera_state(self, state: str, detail: str = "") -> None:
        self.source_text = with_state(self.source_text, state, detail)

    def on_frame(self, frame: Any, dice: list[Any], pose: Any, polygons: list[Any]) -> None:
        self._consumed.set()
        self.frames_shown += 1
        threshold = float(self.app.prefs.get("ui.min_confidence"))
        self.view.set_frame(frame)
        boxes = []
        readings = []
        for d in dice:
            sure = dicearea.is_sure(d, threshold)
            colour = theme.GOOD if sure else theme.BAD
            label = f"{d.value if d.value is not None else '?'} {d.confidence * 100:.0f}%"
            boxes.append((d.box, label, colour))
            readings.append(label)
        self.view.boxes = boxes
        self.view.polygons = polygons if self.calibrating or pose is not None else []
        self.view.tray = dicearea.tray_pixels(self.app.prefs.get("ui.dice_area"), self.view.image_size)
        self.view.redraw()
        self.readings = readings
        if pose is not None and getattr(pose, "found", False):
            self.board_text = _("Board found: {markers} markers, {error} px, confidence {percent}%").format(
                markers=len(pose.used), error=f"{pose.error_px:.1f}", percent=f"{pose.confidence * 100:.0f}")
        else:
            self.board_text = _("Board not in view") if self.calibrating else ""
        values = tuple(sorted((d.value or 0) for d in dice))
        self._same = self._same + 1 if values == self._last_values else 1
        self._last_values = values
        unsure = [d for d in dice if d.value is None or d.confidence < threshold]
        self.reading_text = _("Dice: {readings}").format(readings=", ".join(readings) if readings else _("none seen"))
        want = self._dice_wanted()
        if not dice:
            self.can_use, self.advice = False, ""
        elif unsure:
            self.can_use = False
            self.advice = _("Not sure of every die: check them, or enter the throw by touch.")
        elif want and len(dice) != want:
            self.can_use = False
            self.advice = ngettext("{n} die seen, the game needs {want}: enter the throw by touch.",
                                   "{n} dice seen, the game needs {want}: enter the throw by touch.",
                                   len(dice)).format(n=len(dice), want=want)
        elif self._same < self.stable_frames:
            self.can_use = False
            self.advice = _("Waiting for the dice to settle...")
        else:
            self._values = tuple(int(v) for v in values if v)
            self.can_use = bool(want)
            self.use_text = _("Use {throw}").format(throw=" + ".join(map(str, self._values)))
            self.advice = "" if want else _("No throw is due now.")

    def _dice_wanted(self) -> int:
        from ui import actions

        session = self.app.session
        if session is None or actions.chance_kind(session.state) != "dice":
            return 0
        return actions.dice_spec(session.state)[0]

    def use_reading(self) -> None:
        screen = self.app.game_screen
        if screen is None or not self.can_use:
            return
        self.app.go("game")
        screen.enter_throw(self._values, "camera")

    # -- where dice are read ------------------------------------------------------------------

    def cycle_dice_area(self) -> None:
        """Off the board (the default) -> a tray (two touches on the picture) -> anywhere -> off the board."""
        area = self.app.prefs.get("ui.dice_area")
        if area == "anywhere":
            self.app.prefs.set("ui.dice_area", "off_board")
            self.app.toast(_("Dice on the board are not read now."), "info")
        elif area == "off_board":
            self._tray_corners = []
            self.tray_hint = _("Touch two opposite corners of the dice tray on the picture.")
        else:
            self.app.prefs.set("ui.dice_area", "anywhere")
            self.app.toast(_("Dice are read anywhere in the picture."), "info")
        self._show_area()

    def _show_area(self) -> None:
        area = self.app.prefs.get("ui.dice_area")
        self.area_text = _("Dice: {where}").format(where=dicearea.describe(area))
        self.view.tray = dicearea.tray_pixels(area, self.view.image_size)
        self.view.redraw()

    def on_touch_down(self, touch: Any) -> bool:
        if self._tray_corners is not None and self.view.collide_point(*touch.pos):
            p = self.view.to_image(*touch.pos)
            if p is None:
                return True
            self._tray_corners.append(p)
            if len(self._tray_corners) == 1:
                self.tray_hint = _("Now the opposite corner.")
                return True
            tray = dicearea.tray_from_corners(self._tray_corners[0], p, self.view.image_size)
            self._tray_corners = None
            self.tray_hint = ""
            if dicearea.is_area(tray):
                self.app.prefs.set("ui.dice_area", tray)
                self.app.toast(_("Dice are read in the tray only."), "good")
            else:
                self.app.toast(_("That tray is too small: choose the dice area again."), "bad")
            self._show_area()
            return True
        return bool(super().on_touch_down(touch))

    def calibrate(self) -> None:
        self.calibrating = True
        self.board_text = _("Looking for the board's corner markers...")

    def learn_colours(self) -> None:
        """Learn the counters' looks from the next frame where the board is found, with the
        pieces standing where the game says (the demo feed: where its labels say)."""
        known = self.known_position()
        if not known:
            self.app.toast(_("Start or resume a game first: the counters must stand where the game shows them."),
                           "info")
            return
        self._learn_known = known
        self.board_text = _("Learning the counters' colours: keep the board in view...")

    def known_position(self) -> dict[str, str]:
        if self.source_is_demo:
            import json

            from companion.i18n import _
            from companion.limits import MAX_JSON_FILE_BYTES, read_text_capped

            try:
                labels = json.loads(read_text_capped(DEMO_FEED / "labels.json", MAX_JSON_FILE_BYTES, _("demo labels")))
                return dict(next(x["squares"] for x in labels if x.get("kind") == "board"))
            except (OSError, ValueError, StopIteration, KeyError):
                return {}
        session = self.app.session
        bv = getattr(session.state, "board_view", None) if session is not None else None
        return dict(bv()) if callable(bv) else {}

    def _learn(self, board: Any, frame: Any, known: dict[str, str], pose: Any) -> None:
        """Worker thread: teach the board reader these pieces' looks and save the model."""
        post = self.app.bridge.callback("camera_learned")
        try:
            from vision.pieces import BoardReader, PieceModel

            path = model_path(board.game)
            model = PieceModel.load(path) if path.exists() else None
            reader = BoardReader(board, model)
            n = reader.learn(frame, known, pose)
            path.parent.mkdir(parents=True, exist_ok=True)
            reader.model.save(path)
            post(n, "")
        except Exception as exc:
            post(0, f"{type(exc).__name__}: {exc}")

    # -- Chop! Chop! tiles ------------------------------------------------------------------

    def tile_due(self) -> str | None:
        """The square of the slab just turned, when the game waits for its tile."""
        from ui import actions

        session = self.app.session if self.app is not None else None
        if session is None or actions.chance_kind(session.state) != "tile":
            return None
        state: Any = session.state
        piece = getattr(state, "piece", None)
        position = getattr(state, "position", None)
        return position(piece) if piece and callable(position) else None

    def tile_learner(self) -> Any:
        if self._tile_learner is None:
            from vision.tiles import TileError, TileLearner

            path = tiles_path()
            try:
                self._tile_learner = TileLearner.load(path) if path.exists() else TileLearner()
            except TileError:
                self._tile_learner = TileLearner()
        return self._tile_learner

    def _propose_tile(self, board: Any, frame: Any, square: str) -> None:
        """Worker thread: the turned slab's patch and the learner's proposal, to the UI."""
        try:
            from vision.pieces import BoardReader
            from vision.tiles import square_patch

            if getattr(self, "_tile_reader", None) is None or self._tile_reader.board is not board:
                self._tile_reader = BoardReader(board)
            patch = square_patch(self._tile_reader, frame, square)
            with self._tile_lock:
                kind, conf = self.tile_learner().propose(patch)
        except Exception:
            return
        self.app.bridge.post("camera_tile", square, kind, conf, patch)

    def on_tile(self, square: str, kind: str | None, conf: float, patch: Any) -> None:
        self.tile_patch = (square, patch)
        session = self.app.session
        words = session.game.square_words(square) if session is not None else square  # "C6", never "0,2"
        if kind is None:
            self.tile_text = _("Slab on {square}: not recognised yet ({percent}%); enter it by touch.").format(
                square=words, percent=f"{conf * 100:.0f}")
            return
        self.tile_text = _("Slab on {square}: {tile} ({percent}%)").format(
            square=words, tile=pretty_tile(kind), percent=f"{conf * 100:.0f}")
        screen = self.app.game_screen
        if screen is not None and hasattr(screen, "propose_tile") and screen.tile_proposal != kind:
            screen.propose_tile(kind, conf)

    def on_session_event(self, event: Any) -> None:
        """A confirmed reveal teaches the tile learner what that tile looks like."""
        self._tile_square = self.tile_due()
        action = getattr(event.turn, "action", None) if event.kind == "applied" else None
        if type(action).__name__ != "Reveal" or self.tile_patch is None:
            return
        revealed = getattr(event.state, "revealed", [])
        square = revealed[-1][0] if revealed else None
        if square != self.tile_patch[0]:
            return
        try:
            with self._tile_lock:
                learner = self.tile_learner()
                learner.confirm(self.tile_patch[1], str(getattr(action, "tile")))
                path = tiles_path()
                path.parent.mkdir(parents=True, exist_ok=True)
                learner.save(path)
        except Exception as exc:
            self.app.toast(_("Could not learn the tile: {error}").format(error=exc), "bad")
            return
        self.tile_patch = None
        self.tile_text = _("Learned what {tile} looks like.").format(tile=pretty_tile(str(getattr(action, "tile"))))

    def on_learned(self, n: int, error: str) -> None:
        if error:
            self.board_text = _("Could not learn the colours: {error}").format(error=error)
            self.app.toast(self.board_text, "bad")
            return
        self.learned += n
        self.board_text = ngettext("Learned the look of {n} piece; saved.", "Learned the look of {n} pieces; saved.",
                                   n).format(n=n)
        self.app.toast(self.board_text, "good")


def pick_source(app: Any, feed_folder: Path | str, fps: float, background: bool = False,
                demo_frames: Collection[str] | None = None) -> tuple[Any, str]:
    """The frame source the camera setting asks for: (source, what it is) or (None, why not).

    ``background``: for the camera watching during play (ui.camwatch). There the demo feed runs
    only when chosen explicitly in Settings ("Demo feed"): on "auto" without a camera the app
    does not spend CPU on a sample feed nobody asked for. ``demo_frames``: the demo feed plays
    only these of its pictures (file names).
    """
    try:
        from vision import camera
    except ImportError as exc:
        return None, _("The camera module is not available ({error}).").format(error=exc)
    choice = app.prefs.get("ui.camera")
    if choice == "none":
        return None, _("The camera is switched off in Settings.")
    no_camera = app.demo or not app.hardware.camera.found
    if choice == "auto" and no_camera and background:
        return None, _("No camera (choose Demo feed in Settings to watch the sample feed during play).")
    if choice == "demo" or (choice == "auto" and no_camera):
        if not Path(feed_folder).is_dir():
            return None, _("No camera found and the demo feed is missing.")
        return (camera.ImageFolderSource(feed_folder, fps=fps, loop=True, realtime=True, names=demo_frames),
                _(DEMO_FEED_NAME))
    if choice == "picamera2":
        return camera.open_camera("pi"), _("Pi camera")
    dev = choice if choice.startswith("/dev/video") else (app.hardware.camera.detail.split(",")[0])
    try:
        index = int(dev.replace("/dev/video", ""))
    except ValueError:
        return None, _("No camera at {device}.").format(device=repr(dev))
    return camera.open_camera(index), _("USB camera {device}").format(device=dev)


def with_state(source_text: str, state: str, detail: str = "") -> str:
    """A source's line ("USB camera /dev/video0") with its latest state after a dot."""
    return f"{source_text.split(' · ')[0]} · {_(state)}{': ' + detail if detail else ''}"


def _data_dir() -> Path:
    """The folder of the database in use (``--db`` / ``COMPANION_DB`` / the default)."""
    store = getattr(App.get_running_app(), "store", None)
    path = getattr(store, "path", None)
    if path is not None:
        return Path(path).parent
    from companion.store import default_db_path

    return default_db_path().parent


def tiles_path() -> Path:
    """Where the Chop! Chop! tile examples are kept: beside the database."""
    return _data_dir() / "tiles-chopchop.json"


def model_path(game: str) -> Path:
    """Where learned piece looks are kept: beside the database."""
    return _data_dir() / f"pieces-{game}.json"


