"""Helpers for the offscreen UI tests: frames, touches, screenshots, widget-tree checks."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
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


def wait_for(cond: Callable[[], bool], timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        pump()
        if cond():
            return True
        time.sleep(0.01)
    return cond()


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
        made = window.screenshot(name=str(SCREENS / f"{name}.png"))  # Kivy adds 0001
        Path(made).rename(path)
    else:
        root.export_to_png(str(path))
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
