"""A toast: a banner that shows a message (an illegal move, a saved setting) for a few seconds.
Touching it dismisses it.

It has its own area on each screen (:meth:`Toast.place`, chosen by the app): on a game screen
over the narration, below the board, growing upwards; elsewhere just under the top bar, growing
downwards. It never covers the top bar or a game's action row (Roll, New game, Done)."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, RoundedRectangle
from kivy.properties import StringProperty
from kivy.uix.label import Label

from ui import theme

HISTORY = 100


class Toast(Label):
    message = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("font_size", theme.FONT)
        kwargs.setdefault("bold", True)
        kwargs.setdefault("color", theme.TEXT)
        kwargs.setdefault("halign", "center")
        kwargs.setdefault("valign", "middle")
        kwargs.setdefault("size_hint", (0.8, None))
        kwargs.setdefault("height", 56)
        kwargs.setdefault("pos_hint", {"center_x": 0.5, "y": 0.02})
        super().__init__(**kwargs)
        self.opacity = 0
        self._event: Any = None
        self.history: list[str] = []
        """The latest messages shown (at most :data:`HISTORY`), newest last."""
        with self.canvas.before:
            self._c = Color(*theme.BAD)
            self._r = RoundedRectangle(pos=self.pos, size=self.size, radius=[12])
        self.bind(pos=self._upd, size=self._upd)
        # a long message (French and Dutch run longer) grows the banner instead of overflowing
        self.bind(texture_size=lambda _w, ts: setattr(self, "height", max(56, ts[1] + 16)))
        self._area: tuple[float, float, float, bool] | None = None
        self.bind(height=self._apply_area)

    def place(self, x: float, width: float, y: float, from_top: bool) -> None:
        """Show in the area from ``x``, ``width`` wide: with its bottom at ``y`` growing upwards,
        or (``from_top``) with its top at ``y`` growing downwards (window coordinates)."""
        self.size_hint = (None, None)
        self.pos_hint = {}
        self._area = (x, width, y, from_top)
        self.width = width
        self._apply_area()

    def _apply_area(self, *_: Any) -> None:
        if self._area is None:
            return
        x, _width, y, from_top = self._area
        self.pos = (x, y - self.height if from_top else y)

    def _upd(self, *_: Any) -> None:
        self._r.pos, self._r.size = self.pos, self.size
        self.text_size = (self.width - 32, None)

    def show(self, text: str, colour: Any = theme.BAD, seconds: float = 4.0) -> None:
        self.history.append(text)
        del self.history[:-HISTORY]  # an evening of toasts must not pile up
        self.message = self.text = text
        self._c.rgba = colour
        self.color = theme.ink_on(colour)  # dark ink on a light fill: >= 4.5:1 (issue 28)
        self.opacity = 1
        if self._event is not None:
            self._event.cancel()
        self._event = Clock.schedule_once(lambda _dt: self.hide(), seconds)

    def hide(self) -> None:
        self.opacity = 0
        self.text = ""

    def on_touch_down(self, touch: Any) -> bool:
        if self.opacity and self.collide_point(*touch.pos):
            self.hide()  # and let the touch through: a message never blocks play
        return False
