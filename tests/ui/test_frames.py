"""The UI tests' frames (tests/ui/helpers.skip_window_frames, bound by conftest's ``window``): the
window is not drawn at each pump, only where a test reads its pixels (a popup's screenshot)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.ui.helpers import frames_drawn, pump, screenshot

pytestmark = pytest.mark.skipif(os.environ.get("TEST_DRAW_FRAMES") == "1", reason="every frame drawn on request")


def test_a_pump_leaves_the_window_undrawn_and_frames_drawn_draws_it(make_app: Any) -> None:
    from kivy.core.window import Window

    app = make_app()
    app.go("settings")
    pump(2)
    assert Window.canvas.needs_redraw  # changed, not drawn
    with frames_drawn():
        pump()
    assert not Window.canvas.needs_redraw
    app.go("home")
    pump(2)
    assert Window.canvas.needs_redraw


def test_a_popups_screenshot_shows_the_popup(make_app: Any) -> None:
    import cv2
    from kivy.graphics import Color, Rectangle
    from kivy.uix.modalview import ModalView
    from kivy.uix.widget import Widget

    app = make_app()
    pump(2)

    class RedView(ModalView):  # a name ending in "View": screenshot() reads the whole window
        pass

    view = RedView(size_hint=(0.5, 0.5), background="", background_color=(1, 0, 0, 1), overlay_color=(0, 0, 0, 0))
    body = Widget()
    with body.canvas:
        Color(1, 0, 0, 1)
        rect = Rectangle()
    body.bind(pos=lambda w, v: setattr(rect, "pos", v), size=lambda w, v: setattr(rect, "size", v))
    view.add_widget(body)
    view.open(animation=False)
    pump(3)
    try:
        image = cv2.imread(str(screenshot(app.root, "frames_red_popup")))
    finally:
        view.dismiss(animation=False)
        pump(2)
    h, w = image.shape[:2]
    assert tuple(int(v) for v in image[h // 2, w // 2]) == (0, 0, 255)  # BGR: the popup's red, drawn
    assert tuple(int(v) for v in image[5, 5]) != (0, 0, 255)  # the screen around it

