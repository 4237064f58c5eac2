"""Helpers for the offscreen UI tests: frames, touches, screenshots, widget-tree checks."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kivy.base import EventLoop
from kivy.tests.common import UnitTestTouch
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

SCREENS = Path(__file__).resolve().parents[2] / "artifacts" / "screens"


def pump(frames: int = 1) -> None:
    for _ in range(frames):
        EventLoop.idle()


# The window's frames are not drawn in the UI tests (conftest's ``window`` binds
# ``skip_window_frames``): a test reads widgets, layout and canvas instructions, and the pixels
# of a screenshot come from the widget drawn into its own framebuffer (``export_to_png``), so a
# frame drawn on the window (Mesa's llvmpipe, then ``glFinish``: a third of test_design's time)
# was looked at by nothing but a popup's screenshot, which reads the window: ``frames_drawn``
# draws that one. ``TEST_DRAW_FRAMES=1`` draws every frame, as before session 25.
_drawing = [os.environ.get("TEST_DRAW_FRAMES", "") == "1"]


def _no_frame(*_args: Any) -> bool:
    return not _drawing[0]  # True stops the event: no draw (or no flip) of the window


def skip_window_frames(window: Any) -> None:
    """Frames on ``window`` drawn only inside ``frames_drawn`` (or with TEST_DRAW_FRAMES=1)."""
    window.bind(on_draw=_no_frame, on_flip=_no_frame)


@contextmanager
def frames_drawn() -> Iterator[None]:
    """Inside: every pump draws the window's frame (a test that reads the window's pixels)."""
    before = _drawing[0]
    _drawing[0] = True
    try:
        yield
    finally:
        _drawing[0] = before


def wait_for(cond: Callable[[], bool], timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        pump()
        if cond():
            return True
        time.sleep(0.01)
    return cond()


def play_on(app: Any, rng: Any, steps: int, choose: Callable[[Any, Any], Any] | None = None) -> None:
    """Play the app's game on for at most ``steps`` decisions, as players at the screen would:
    throws through the dice picker, turned tiles drawn by ``rng`` through the tile picker, and
    each move ``choose(state, rng)`` (default: ``rng.choice`` of the legal moves). Stops at the end."""
    from ui import actions

    for _i in range(steps):
        state = app.session.state
        if state.is_over():
            return
        kind = actions.chance_kind(state)
        if kind == "dice":
            app.game_screen.picker.roll()
        elif kind == "tile":
            app.game_screen.enter_tile(rng.choice(actions.tile_outcomes(state))[0])
        else:
            app.apply(choose(state, rng) if choose is not None else rng.choice(state.legal_actions()))


def play_fast(app: Any, rng: Any, steps: int, choose: Callable[[Any, Any], Any] | None = None) -> None:
    """``play_on``'s game (the same decisions, throws drawn by the picker's own generator), for
    scenes and tests that check where a game ends, not each move on the way: the decisions are
    stored through a second session of the open game (the engine reaches the position; no screen
    redraws a board per move), and the decision that ends the game (or the last of ``steps``) is
    made on the screen, after the game is opened again, so the end is shown as after play by
    touch. tests/ui/test_whole_games.py and test_flow's by-touch game play every move on screen."""
    from companion.session import Session
    from ui import actions

    game_id = app.session.game_id
    session = Session.load(app.store, game_id)
    dice = app.game_screen.picker.rng
    last: Callable[[], Any] | None = None
    for _i in range(steps):
        state = session.state
        if state.is_over():
            break
        kind = actions.chance_kind(state)
        if kind == "dice":
            n, faces = actions.dice_spec(state)
            values = tuple(dice.choice(list(faces)) for _ in range(n))  # as DicePicker.roll
            act = actions.throw_action(state, list(values))
            last = lambda v=values: app.game_screen.enter_throw(v)  # noqa: E731
        elif kind == "tile":
            label, act, _p = rng.choice(actions.tile_outcomes(state))
            last = lambda t=label: app.game_screen.enter_tile(t)  # noqa: E731
        else:
            act = choose(state, rng) if choose is not None else rng.choice(state.legal_actions())
            last = lambda a=act: app.apply(a)  # noqa: E731
        trial = state.clone()
        trial.apply(act)
        if trial.is_over() or _i == steps - 1:
            break
        session.apply(act)
        last = None
    app.continue_game(game_id)
    if last is not None:
        last()


def tap(widget: Widget) -> None:
    """A simulated finger touch at the widget's centre, through the window's input path."""
    pump()  # lay out first, so the widget is where the finger lands
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def tap_at(x: float, y: float) -> None:
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()


def screenshot(root: Widget, name: str, keep_toast: bool = False) -> Path:
    from kivy.app import App

    app = App.get_running_app()
    if not keep_toast and app is not None and getattr(app, "toaster", None) is not None:
        app.toaster.hide()
    pump(2)
    SCREENS.mkdir(parents=True, exist_ok=True)
    path = SCREENS / f"{name}.png"
    window = root.get_root_window()
    if window is not None and any(type(w).__name__.endswith("View") for w in window.children):
        # a modal view is open over the screen: capture the whole window
        path.unlink(missing_ok=True)
        with frames_drawn():
            window.canvas.ask_update()
            pump()  # the window drawn as it stands: its pixels are read
        made = window.screenshot(name=str(SCREENS / f".{name}.{os.getpid()}.png"))  # Kivy adds 0001
        os.replace(made, path)
    else:  # written beside, then renamed: a worker of a parallel run never sees half a file
        tmp = SCREENS / f".{name}.{os.getpid()}.png"
        root.export_to_png(str(tmp))
        os.replace(tmp, path)
    return path


def walk(widget: Widget) -> Iterator[Widget]:
    yield widget
    for child in widget.children:
        yield from walk(child)


def visible(widget: Widget) -> bool:
    w: Widget | None = widget
    while w is not None:
        if getattr(w, "opacity", 1) == 0 or w.width <= 0 or w.height <= 0:
            return False
        parent = w.parent
        w = parent if isinstance(parent, Widget) else None
    return True


def small_touch_targets(root: Widget, minimum: int = 48) -> list[str]:
    bad = []
    for w in walk(root):
        if isinstance(w, ButtonBehavior | TextInput) and visible(w) and not getattr(w, "disabled", False):
            if w.width < minimum or w.height < minimum:
                bad.append(f"{type(w).__name__} {getattr(w, 'text', '')!r} {w.width:.0f}x{w.height:.0f}")
    return bad


def small_text(root: Widget, key_minimum: int = 20, minimum: int = 18) -> list[str]:
    from ui.widgets.common import KeyLabel

    bad = []
    for w in walk(root):
        if isinstance(w, Label) and w.text and visible(w):
            need = key_minimum if isinstance(w, KeyLabel) else minimum
            if w.font_size < need:
                bad.append(f"{type(w).__name__} {w.text!r:.30} {w.font_size}px < {need}px")
    return bad


def texts(root: Widget) -> list[str]:
    return [w.text for w in walk(root) if isinstance(w, Label) and w.text and visible(w)]


_MEASURED: dict[tuple[bool, str], tuple[float, float]] = {}
"""Text sizes measured by ``_measure``: the same text in the same font options measures the same,
and the fit checks meet the same buttons, titles and words on screen after screen."""


def _measure(options: dict[str, Any], markup: bool) -> tuple[float, float]:
    """The texture size of a core label made with ``options`` (remembered in ``_MEASURED``)."""
    key = (markup, repr(sorted(options.items())))
    size = _MEASURED.get(key)
    if size is None:
        from kivy.core.text import Label as CoreLabel
        from kivy.core.text.markup import MarkupLabel

        core = (MarkupLabel if markup else CoreLabel)(**options)
        core.refresh()
        texture = core.texture
        size = (float(texture.width), float(texture.height)) if texture is not None else (0.0, 0.0)
        _MEASURED[key] = size
    return size


def _needed(label: Label, width: float | None) -> tuple[float, float]:
    """The size ``label``'s text needs, wrapped at ``width`` (None: one line per line of text),
    never shortened."""
    options = dict(label._label.options)
    options.update(text=label.text, text_size=(width, None), shorten=False, max_lines=0)
    return _measure(options, bool(label.markup))


def _words_too_long(label: Label, width: float) -> list[str]:
    """Words wider than the wrapping width (Kivy would break them mid-word)."""
    if label.markup:
        return []
    options = dict(label._label.options)
    out = []
    for word in set(label.text.split()):
        options.update(text=word, text_size=(None, None), shorten=False, max_lines=0)
        if _measure(options, False)[0] > width + 2:
            out.append(word)
    return out


def clipped(root: Widget, tolerance: float = 2.0) -> list[str]:
    """Every visible Label/Button whose text does not fit its widget (cut off, overflowing into
    its neighbours, shortened with an ellipsis, or a word broken in the middle), and every
    TextInput whose hint is wider than its box: ``[]`` when all text fits.

    For each label: ``texture_update()``, then the size its whole text needs (wrapped at its
    ``text_size`` width when it has one, else on one line; never shortened) is compared with the
    widget's size (and with ``text_size`` where that clips)."""
    bad = []
    for w in walk(root):
        if isinstance(w, TextInput):
            if w.hint_text and not w.text and visible(w):
                from kivy.core.text import Label as CoreLabel

                core = CoreLabel(text=w.hint_text, font_size=w.font_size, font_name=w.font_name)
                core.refresh()
                room = w.width - w.padding[0] - w.padding[2]
                if core.texture.width > room + tolerance:
                    bad.append(f"TextInput hint {w.hint_text!r}: needs {core.texture.width:.0f} px, has {room:.0f}")
            continue
        if not (isinstance(w, Label) and w.text and visible(w)):
            continue
        w.texture_update()
        name = f"{type(w).__name__} {w.text!r:.60}"
        ts_w, ts_h = w.text_size
        room_w, room_h = w.width, w.height
        if ts_h is not None:
            room_h = min(room_h, ts_h)
        if ts_w is not None and ts_w > w.width + tolerance:
            bad.append(f"{name}: text area {ts_w:.0f} px wider than its widget {w.width:.0f} px")
        if ts_w is None or w.shorten:
            need_w, need_h = _needed(w, None)
            limit = room_w if ts_w is None else min(room_w, ts_w)
            if need_w > limit + tolerance:
                why = "shortened" if w.shorten else "overflows"
                bad.append(f"{name}: {why}, needs {need_w:.0f} px wide, has {limit:.0f}")
        else:
            need_w, need_h = _needed(w, ts_w)
            long_words = _words_too_long(w, ts_w)
            if long_words:
                bad.append(f"{name}: word(s) {long_words} wider than {ts_w:.0f} px")
        if need_h > room_h + tolerance:
            bad.append(f"{name}: needs {need_h:.0f} px high, has {room_h:.0f}")
        tex_w, tex_h = w.texture_size
        if tex_w > w.width + tolerance or tex_h > w.height + tolerance:
            bad.append(f"{name}: texture {tex_w:.0f}x{tex_h:.0f} larger than widget {w.width:.0f}x{w.height:.0f}")
    return bad


def outside_parent(root: Widget, tolerance: float = 1.0) -> list[str]:
    """Visible widgets that stick out of their parent (a layout overflowing: a panel drawn over
    the top bar, a row pushed off the screen); a ScrollView's content may be larger than it."""
    from kivy.uix.scrollview import ScrollView

    bad = []
    for w in walk(root):
        parent = w.parent
        if w is root or not isinstance(parent, Widget) or isinstance(parent, ScrollView) or not visible(w):
            continue
        if type(parent).__name__ in ("Window", "WindowSDL", "ScreenManager"):
            continue
        # both in window coordinates (a RelativeLayout/Screen has its own origin)
        x0, y0 = w.to_window(w.x, w.y)
        x1, y1 = w.to_window(w.right, w.top)
        px0, py0 = parent.to_window(parent.x, parent.y)
        px1, py1 = parent.to_window(parent.right, parent.top)
        if x0 < px0 - tolerance or y0 < py0 - tolerance or x1 > px1 + tolerance or y1 > py1 + tolerance:
            text = getattr(w, "text", "")
            bad.append(f"{type(w).__name__} {text!r:.40} at {x0:.0f},{y0:.0f}-{x1:.0f},{y1:.0f} outside its "
                       f"{type(parent).__name__} {px0:.0f},{py0:.0f}-{px1:.0f},{py1:.0f}")
    return bad
