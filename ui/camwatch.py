"""The camera during play: settled dice offered as the throw, and the board cross-checked.

While a game screen shows and a camera source is active (a real camera; the demo feed only when
chosen in Settings), a worker thread reads frames and analyses at most ``max_fps`` of them per
second (frames that arrive meanwhile are read and dropped, so the analysis always sees a recent
frame and the UI thread only ever gets small results through the bridge):

- **dice**: ``vision.settle.Settler`` waits until nothing moves and the same reading held for a
  short window. A settled throw that differs from the last one seen (the dice were thrown
  again, not just re-seen after a hand passed) goes to the game screen: a sure reading of
  exactly the wanted number of dice is offered as a one-tap "Camera sees 3 + 6 — Use" (or
  applied at once with the "apply camera throws without asking" setting); an unsure one only
  says "Camera not sure: enter the throw by touch". Unsure readings never become throws. When
  more dice lie there than the throw needs (Chop! Chop!'s other die, other players' Kilkenny
  dice), the ones that are new since the last settled reading are the throw; when several moved
  and the game's dice differ in colour, the thrower's own die is the throw if one clearly is
  (``companion.dicecolour``), and a die that looks like another player's is offered with a
  warning, never applied by itself.
- **cross-check**: after an action that changes the pieces, once the scene has been still for
  ``check_still_s`` after the players moved (or ``check_grace_s`` passed without movement),
  the board is read (``vision.pieces.BoardReader`` with the learned piece model) and compared
  with the engine's ``board_view()`` by ``companion.crosscheck``. A confident disagreement
  becomes one prompt on the game screen ("Mouse should be on 17/50 (square C2); I see it on 16/51 (square C3)"), never a
  state change. Squares read below the confidence threshold are not trusted (no prompt). No
  learned piece model or no board in view: no check at all. One check per move.
- **Chop! Chop!'s move** (``ui.cammoves``): while a piece must move, the board read once still
  is matched against the legal moves; the one that fits is offered by one touch, naming the
  mouse from the game's last confirmed position; two that fit are asked about. A face-up cheese
  of a confirmed position teaches the reader its look (saved with the piece model).

**A lost camera** (unplugged, its stream broken, frames that come empty or garbled): the source
reports ``lost`` at once and the game screen says "Camera lost: keep playing by touch; it will
come back by itself." while the source reopens with backoff (``vision.camera``); touch input
goes on. When frames come again the status goes away ("Camera back") and the settle logic
starts afresh (a reading from before the loss never counts towards one after it); the last
settled dice are remembered across the loss, so the throw seen just before it is not offered
again, and dice already lying there on resuming are offered (never applied by themselves with
auto-apply, like at start, since they may have been entered by touch meanwhile).

The worker never touches the session or widgets; ``stop()`` ends it and closes the source
(leaving the game screen, opening the Camera screen, closing the app).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any, NamedTuple

from companion.i18n import N_, _, ngettext
from ui import dicearea
from ui.camworker import stop_worker

log = logging.getLogger(__name__)

DIE_COLOUR_WORDS = (N_("blue"), N_("grey"), N_("red"), N_("green"), N_("yellow"), N_("white"), N_("black"))
"""The games' die colours, marked for translation (a warning names them: ``_(colour)``)."""

DICE_KIND = "camwatch_dice"
CHECK_KIND = "camwatch_check"
STATE_KIND = "camwatch_state"
WATCH_KIND = "camwatch_watch"


class SeenDie(NamedTuple):
    """One die of a settled reading, as the UI thread gets it."""

    value: int | None
    sure: bool  # a value read at least at the confidence threshold
    body: tuple[int, int, int] | None = None  # body colour, BGR (companion.dicecolour)


class CameraWatcher:
    """Background camera analysis for the game screen. Create once per app; start/stop often."""

    def __init__(self, app: Any) -> None:
        from ui.screens.camera import DEMO_FEED

        self.app = app
        self.reader: Any = None
        """Dice reader ``frame -> [DieReading]`` (None: vision.dice.read_dice)."""
        self.board_reader: Any = None
        """``frame -> BoardReading`` for the cross-check (None: vision.pieces.BoardReader with
        the learned model, only when one was learned)."""
        self.feed_folder: Path | str = DEMO_FEED
        self.demo_fps = 3.0
        self.max_fps = 3.0
        """At most this many frames analysed per second."""
        self.settle_window_s = 0.7
        self.settle_quiet_s = 0.2
        self.check_still_s = 1.0
        self.check_grace_s = 5.0
        self.check_timeout_s = 30.0
        self.source_text = ""
        self.analysed = 0
        self.dropped = 0
        self.throws_seen = 0
        self.checks_done = 0
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._source: Any = None
        self._offs: list[Any] = []
        self._throw_due = False
        self._request: tuple[int, dict[str, str], float] | None = None
        self._gen = 0
        self._last_view: dict[str, str] | None = None
        self.checking = False
        """A piece model was found at start: cross-checks run."""
        self._watch: tuple[str, dict[str, str], float] | None = None
        self._move_request: tuple[int, Any, float] | None = None
        self._cheese_seen: set[str] = set()
        self.cheese_learned = 0
        """Looks learned from face-up cheese of confirmed positions (ui.cammoves.learn_cheese)."""
        """(generation, a copy of the state whose move is due, when asked): see ui.cammoves."""
        self._watch_cb: Any = None
        self.camera_lost = False
        """The source reported ``lost`` and no frame came since (the screen says so)."""
        self.resumed = 0
        """Times the worker started the settle logic afresh after the camera came back."""

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- life cycle (UI thread) -------------------------------------------------------------

    def start(self) -> bool:
        """Start watching for the current game (no-op without a camera source or a session)."""
        if self._thread is not None:
            return True
        app = self.app
        session = app.session
        screen = app.game_screen
        if session is None or screen is None or getattr(screen, "board", None) is None:
            return False
        from ui.screens.camera import pick_source

        source, what = pick_source(app, self.feed_folder, self.demo_fps, background=True)
        self.source_text = what
        if source is None:
            return False
        board = screen.board
        reader = self.board_reader
        self.checking = reader is not None
        if reader is None:
            reader = self._piece_reader(board)
            self.checking = reader is not None
        threshold = float(app.prefs.get("ui.min_confidence"))
        auto = bool(app.prefs.get("ui.camera_auto"))
        self._source = source
        self._stop.clear()
        bridge = app.bridge
        from ui import cammoves

        self._offs = [bridge.on(DICE_KIND, self.on_dice), bridge.on(CHECK_KIND, self.on_check),
                      bridge.on(STATE_KIND, self.on_state), bridge.on(WATCH_KIND, self.on_watch),
                      bridge.on(cammoves.MOVE_KIND, self.on_move)]
        source.on_state = bridge.callback(STATE_KIND)
        self._last_view = self._view()
        self._request = None
        self._cheese_seen = set()
        self.update_due()
        self._ask_move()
        self._thread = threading.Thread(target=self._run, args=(source, board, reader, threshold, auto),
                                        name="camera-watch", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        """Stop the worker (waits for it) and close the source; safe to call any time."""
        thread, self._thread = self._thread, None
        source, self._source = self._source, None
        stop_worker(self._stop, thread, source)
        for off in self._offs:
            off()
        self._offs = []
        self._request = None
        self._move_request = None
        screen = self.app.game_screen if self.app is not None else None
        if screen is not None and hasattr(screen, "clear_camera"):
            screen.clear_camera()
        if screen is not None and hasattr(screen, "show_camera_status"):
            screen.show_camera_status(None)
        self.camera_lost = False

    def _piece_reader(self, board: Any) -> Any:
        from ui.screens.camera import model_path

        path = model_path(board.game)
        if not path.exists():
            return None
        try:
            from vision.pieces import BoardReader, PieceModel

            return BoardReader(board, PieceModel.load(path)).read
        except Exception:
            return None

    def _view(self) -> dict[str, str]:
        session = self.app.session
        bv = getattr(session.state, "board_view", None) if session is not None else None
        return dict(bv()) if callable(bv) else {}

    # -- session events (UI thread) ---------------------------------------------------------

    def update_due(self) -> None:
        from ui import actions

        session = self.app.session
        self._throw_due = (session is not None and not session.state.is_over()
                           and actions.chance_kind(session.state) == "dice")

    def on_session_event(self, event: Any) -> None:
        """A new action or an undo: a new throw may be due; changed pieces get checked."""
        self.update_due()
        if event.kind not in ("applied", "undone"):
            return
        self._gen += 1
        view = self._view()
        with self._lock:
            if event.kind == "applied" and self.checking and view != self._last_view:
                self._request = (self._gen, view, time.monotonic())
            else:
                self._request = None
        self._last_view = view
        self._ask_move()

    def _ask_move(self) -> None:
        """A Chop! Chop! piece must move now: the worker looks for it (``ui.cammoves``)."""
        from ui import cammoves

        session = self.app.session
        state = session.state if session is not None else None
        with self._lock:
            self._move_request = ((self._gen, state.clone(), time.monotonic())
                                  if self.checking and cammoves.move_due(state) else None)

    def on_move(self, gen: int, moves: list[Any], paths: bool = False, near: bool = False) -> None:
        """The legal moves the camera's reading shows (UI thread): offered or asked about
        (``near``: none fits, the likeliest)."""
        from ui import cammoves

        session = self.app.session
        screen = self.app.game_screen
        if gen != self._gen or session is None or screen is None or not self.running:
            return  # a move (or an undo) came since: stale
        cammoves.offer(screen, session.state, moves, paths, near)

    def watch_for(self, view: dict[str, str] | None, tag: str, on_result: Any) -> None:
        """Read the board, once still, against ``view`` (the position after a move the companion
        proposed; ``None`` stops watching): ``on_result(tag, mismatches)`` returns whether to
        look again after the next movement (ui.companion_turn)."""
        with self._lock:
            self._watch = None if view is None else (tag, dict(view), time.monotonic())
        self._watch_cb = on_result

    def on_watch(self, tag: str, mismatches: list[Any]) -> None:
        self.checks_done += 1
        watch, cb = self._watch, self._watch_cb
        if cb is None or watch is None or watch[0] != tag:
            return
        if cb(tag, mismatches):
            with self._lock:
                if self._watch is watch:
                    self._watch = (tag, watch[1], time.monotonic())
        else:
            self.watch_for(None, "", None)

    # -- results (UI thread, through the bridge) --------------------------------------------

    def on_state(self, state: str, detail: str = "") -> None:
        from ui.screens.camera import with_state

        self.source_text = with_state(self.source_text, state, detail)
        screen = self.app.game_screen
        if screen is None or not hasattr(screen, "show_camera_status") or self._thread is None:
            return
        if state == "lost" and not self.camera_lost:
            self.camera_lost = True
            screen.show_camera_status(_("Camera lost: keep playing by touch; it will come back by itself."))
        elif state == "running" and self.camera_lost:
            self.camera_lost = False
            screen.show_camera_status(None)
            self.app.toast(_("Camera back: it watches the dice again."), "good")
        elif state == "failed":
            self.camera_lost = False
            screen.show_camera_status(
                _("Camera stopped ({why}): keep playing by touch.").format(why=detail or _("no frames")))

    def on_dice(self, seen: list[SeenDie], fresh: list[SeenDie] | None = None) -> None:
        """A settled throw: ``seen``, every die in view; ``fresh``, those that were not lying in
        the same place with the same face at the last settled reading (the dice just thrown,
        e.g. the cat die while the mouse die of the last turn still lies there)."""
        from companion import dicecolour
        from ui import actions

        self.throws_seen += 1
        app = self.app
        session = app.session
        screen = app.game_screen
        if session is None or screen is None or not self.running:
            return
        state = session.state
        if state.is_over() or actions.chance_kind(state) != "dice":
            return
        want = actions.dice_spec(state)[0]
        colours = state.die_colours()  # the thrower's own die, where the game's dice differ
        all_colours = state.game.dice_colours()
        dice = list(seen)
        if len(dice) != want and fresh is not None and len(fresh) == want:
            dice = list(fresh)  # the others lay there still: not this throw
        elif len(dice) != want and want == 1 and len(colours) == 1:
            # several dice moved (one bumped, or all in view at the start): the one of the
            # thrower's colour, when one clearly is
            pool = list(fresh) if fresh and len(fresh) > 1 else dice
            i = dicecolour.pick([d.body for d in pool], colours[0], all_colours)
            if i is not None:
                dice = [pool[i]]
        if not all(d.sure for d in dice):
            screen.show_camera_note(_("Camera not sure: enter the throw by touch."))
            return
        ints = sorted(int(d.value) for d in dice if d.value is not None)
        if len(ints) != want:
            screen.show_camera_note(ngettext(
                "Camera sees {n} die, the game needs {want}: enter the throw by touch.",
                "Camera sees {n} dice, the game needs {want}: enter the throw by touch.", len(ints),
            ).format(n=len(ints), want=want))
            return
        warning = None
        if len(colours) == len(dice) == 1:
            other = dicecolour.looks_like(dice[0].body, all_colours)
            if other is not None and other != colours[0]:
                who = state.game.player_label(state.current_player() or "")
                warning = _("{player}: that looks like the {other} die, not your {own} one. "
                            "Use it only if it is right.").format(player=who, other=_(other), own=_(colours[0]))
        if warning is None and app.prefs.get("ui.camera_auto"):
            app.toast(_("Camera throw: {throw}").format(throw=" + ".join(map(str, ints))), "good")
            screen.enter_throw(ints, "camera")
            return
        screen.offer_camera_throw(ints, warning)

    def on_check(self, gen: int, mismatches: list[Any]) -> None:
        self.checks_done += 1
        screen = self.app.game_screen
        if gen != self._gen or screen is None or not self.running:
            return  # another move (or an undo) came since: this check is stale
        trusted = [m for m in mismatches if m.kind != "unsure"]
        if trusted:
            screen.show_crosscheck(trusted)

    # -- worker thread ----------------------------------------------------------------------

    def _run(self, source: Any, board: Any, read_board: Any, threshold: float, auto: bool) -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)  # below the UI thread
        except (AttributeError, OSError):
            pass
        from ui import cammoves

        try:
            from vision.settle import SettleConfig, Settler, new_dice, same_dice
        except ImportError as exc:
            self.app.bridge.post(STATE_KIND, "failed", str(exc))
            return
        reader: Any = self.reader
        tracker: Any = None
        if reader is None:
            try:
                import vision.dice  # noqa: F401
            except ImportError:
                reader = lambda _frame: []  # noqa: E731
        try:
            from vision.boardlocate import BoardTracker

            tracker = BoardTracker(board)
        except Exception:
            tracker = None

        def dice_in(frame: Any) -> list[Any]:
            if not self._throw_due:
                return []
            area = self.app.prefs.get("ui.dice_area")
            found = dicearea.read(frame, area, reader)
            pose = None
            if tracker is not None and found:
                try:
                    pose = tracker.update(frame)
                except Exception:
                    pose = None
            return dicearea.counted(found, area, (frame.shape[1], frame.shape[0]), pose, board)

        # With auto-apply, dice already lying there when watching starts are not taken as a throw.
        config = SettleConfig(window_s=self.settle_window_s, quiet_s=self.settle_quiet_s, armed_at_start=not auto)
        settler = Settler(config, dice_in)
        post = self.app.bridge.post
        last_dice: Any = None

        def as_seen(rs: list[Any]) -> list[SeenDie]:
            return [SeenDie(r.value, dicearea.is_sure(r, threshold), r.body) for r in rs]

        last_motion = time.monotonic()
        next_at = 0.0
        reconnects = getattr(source, "reconnects", 0)
        try:
            for _t, frame in source:
                if self._stop.is_set():
                    break
                now = time.monotonic()
                if getattr(source, "reconnects", 0) != reconnects:  # the camera came back
                    reconnects = source.reconnects
                    settler = Settler(config, dice_in)  # nothing from before the loss counts
                    last_motion, next_at = now, 0.0
                    self.resumed += 1
                if now < next_at:
                    self.dropped += 1
                    continue
                next_at = now + 1.0 / self.max_fps
                self.analysed += 1
                throw = settler.feed(now, frame)
                if settler.motion > config.motion_fraction:
                    last_motion = now
                if throw is not None and throw.readings:
                    readings = list(throw.readings)
                    if not same_dice(readings, last_dice):
                        fresh = new_dice(readings, last_dice)
                        last_dice = readings
                        post(DICE_KIND, as_seen(readings), as_seen(fresh))
                if read_board is not None:
                    self._maybe_check(frame, now, last_motion, read_board, threshold, post)
                    cammoves.worker_check(self, frame, now, last_motion, read_board, threshold, post)
                if self._stop.is_set():
                    break
        except Exception as exc:  # a lost camera reports its state; anything else is shown
            if not self._stop.is_set():  # the players read a plain reason; the details go to the log
                log.warning("camera watch stopped: %s: %s", type(exc).__name__, exc)
                post(STATE_KIND, "failed", _("it stopped sending pictures"))

    def _maybe_check(self, frame: Any, now: float, last_motion: float, read_board: Any, threshold: float,
                     post: Any) -> None:
        with self._lock:
            request: Any = self._request
            watching = request is None and self._watch is not None
            if watching:
                request = self._watch
        if request is None:
            return
        gen, expected, asked = request
        still = now - max(last_motion, asked)
        moved_after = last_motion > asked
        if not ((moved_after and still >= self.check_still_s)
                or (now - asked >= self.check_grace_s and now - last_motion >= self.check_still_s)):
            return
        try:
            from ui import cammoves

            cammoves.know_position(read_board, expected)  # Chop! Chop!: what each square can hold now
            reading = read_board(frame)
        except Exception:
            reading = None
        found = reading is not None and getattr(reading, "found", False)
        if not found and now - asked < self.check_timeout_s:
            return  # the board is not in view (a hand over the markers): try again later
        if watching:
            with self._lock:
                if self._watch is request:  # asked once; the UI re-arms it when still waiting
                    self._watch = (gen, expected, float("inf")) if found else (gen, expected, now)
            if found:
                from companion.crosscheck import crosscheck

                post(WATCH_KIND, gen, crosscheck(expected, reading.squares, threshold))
            return
        with self._lock:
            if self._request is request:
                self._request = None
        if not found:
            return
        from companion.crosscheck import crosscheck

        post(CHECK_KIND, gen, crosscheck(expected, reading.squares, threshold))
        from ui import cammoves

        self.cheese_learned += cammoves.learn_cheese(read_board, frame, expected, self._cheese_seen)
