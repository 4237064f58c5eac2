"""The set-up wizard's camera: one worker thread reading frames while the camera or the test
throw step shows, and per frame (on the worker) what that step needs:

- the aim: how many of the board's corner markers are seen and which way to move (vision.aim);
- once asked, learning the pieces' looks from the start position (vision.pieces, as
  ``companion board learn`` does) on the first frame where the board is found;
- while a test throw is awaited, the dice the camera counts (ui.dicearea.seen, as the Camera
  screen counts them: none on the board's markers, none that cannot be a die on the table's plane).

Results reach the wizard on the UI thread through the app's bridge (``wizard_frame``,
``wizard_learned``, ``wizard_state``). The source is the one chosen in Settings or in the wizard
(ui.screens.camera.pick_source): the bundled demo feed when there is no camera.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from companion.i18n import N_, _
from companion.limits import MAX_JSON_FILE_BYTES, read_text_capped
from ui.camworker import stop_worker
from ui.screens.camera import DEMO_FEED, model_path, pick_source

NO_BOARD = N_("The board is not in view: point the camera at it first.")


def demo_board() -> tuple[str, dict[str, str]]:
    """The demo feed's board game and its pieces' squares (from its labels), or ("", {})."""
    try:
        labels = json.loads(read_text_capped(DEMO_FEED / "labels.json", MAX_JSON_FILE_BYTES, _("demo labels")))
        first = next(x for x in labels if x.get("kind") == "board")
        return str(first["board"]), {str(k): str(v) for k, v in first["squares"].items()}
    except (OSError, ValueError, StopIteration, KeyError, TypeError, AttributeError):
        return "", {}


def demo_pictures(folder: Path, kind: str) -> list[str] | None:
    """The demo feed's pictures of one kind ("board", "dice") by their labels, or None (all of
    them) when its labels cannot be read or name none of that kind."""
    try:
        labels = json.loads(read_text_capped(folder / "labels.json", MAX_JSON_FILE_BYTES, _("demo labels")))
        names = [str(x["file"]) for x in labels if x.get("kind") == kind]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return names or None


def start_position(game: str) -> dict[str, str]:
    from vision.boardcli import start_position as engine_start

    return engine_start(game)


class WizardCamera:
    """Frames for the wizard: ``start(game)``, ``stop()``, ``learn()``, ``watch_dice(on)``."""

    def __init__(self, app: Any, feed_folder: Path = DEMO_FEED, fps: float = 4.0) -> None:
        self.app = app
        self.feed_folder = feed_folder
        self.fps = fps
        self.reader: Any = None
        """The dice reader, ``frame -> [DieReading]`` (None: vision.dice's)."""
        self.source_text = ""
        self.demo = False
        self.game = ""
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._consumed = threading.Event()
        self._learn = threading.Event()
        self._dice = threading.Event()
        self._source: Any = None
        self._asked = ""
        self._throw_feed = False

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self, game: str, throw: bool = False) -> str:
        """Start reading (the board of ``game``; the demo feed's own board in demo). Returns what
        the source is in words, or why there is none (then nothing runs).

        The demo feed plays its pictures of the board, so that every frame of the camera step
        shows it as a family's camera would; its dice pictures only while a test throw is
        awaited (``throw``, :meth:`watch_dice`)."""
        self.stop()
        self._asked, self._throw_feed = game, throw
        board_only = None if throw else demo_pictures(Path(self.feed_folder), "board")
        source, what = pick_source(self.app, self.feed_folder, self.fps, demo_frames=board_only)
        self.source_text = what
        if source is None:
            return what
        from ui.screens.camera import DEMO_FEED_NAME

        self.demo = what == _(DEMO_FEED_NAME)
        shown_game, _squares = demo_board() if self.demo else (game, {})
        self.game = shown_game or game
        self._source = source
        self._stop.clear()
        self._consumed.set()
        source.on_state = self.app.bridge.callback("wizard_state")
        self._thread = threading.Thread(target=self._run, name="wizard-camera", daemon=True)
        self._thread.start()
        return what

    def stop(self) -> None:
        thread, self._thread = self._thread, None
        source, self._source = self._source, None
        stop_worker(self._stop, thread, source, self._consumed)
        self._learn.clear()
        self._dice.clear()

    def consumed(self) -> None:
        """The UI has shown the last frame: the worker may send the next."""
        self._consumed.set()

    def learn(self) -> None:
        """Learn the pieces from the next frame where the board is found."""
        self._learn.set()

    def watch_dice(self, on: bool) -> None:
        if self.demo and self.running and on != self._throw_feed:  # the demo's dice pictures, or not
            learning = self._learn.is_set()
            self.start(self._asked, throw=on)
            if learning:
                self._learn.set()
        (self._dice.set if on else self._dice.clear)()

    def known(self) -> dict[str, str]:
        """Where the pieces stand: the demo feed's labels, else the game's start position."""
        if self.demo:
            return demo_board()[1]
        return start_position(self.game)

    # -- the worker ---------------------------------------------------------------------------

    def _run(self) -> None:
        from ui import dicearea
        from vision.aim import aim_from
        from vision.boarddefaults import board_for
        from vision.boardlocate import LocateConfig, detect_markers, fit_pose

        post = self.app.bridge.callback("wizard_frame")
        try:
            board = board_for(self.game)
            config = LocateConfig()
            for _t, frame in self._source:
                if self._stop.is_set():
                    break
                h, w = frame.shape[:2]
                seen = detect_markers(frame, board, config)
                aim = aim_from(seen, board, (w, h), config)
                pose = fit_pose(board, seen, config, (w, h)) if seen else None
                if self._learn.is_set() and pose is not None and pose.found:
                    self._learn.clear()
                    self._learn_now(board, frame, pose)
                dice: list[Any] | None = None
                if self._dice.is_set():
                    try:
                        dice = dicearea.seen(frame, self.app.prefs.get("ui.dice_area"), self.reader,
                                             pose, board)
                    except Exception:
                        dice = []
                self._consumed.wait(timeout=2.0)
                if self._stop.is_set():
                    break
                self._consumed.clear()
                post(frame, aim, dice)
        except Exception as exc:  # said in one sentence on the UI thread
            self.app.bridge.post("wizard_state", "failed", str(exc))

    def _learn_now(self, board: Any, frame: Any, pose: Any) -> None:
        post = self.app.bridge.callback("wizard_learned")
        try:
            from vision.pieces import BoardReader, PieceModel

            path = model_path(board.game)
            model = PieceModel.load(path) if path.exists() else PieceModel(board.game)
            reader = BoardReader(board, model=model)
            n = reader.learn(frame, self.known(), pose)
            path.parent.mkdir(parents=True, exist_ok=True)
            reader.model.save(path)
            post(n, "")
        except Exception as exc:
            post(0, str(exc) or type(exc).__name__)
