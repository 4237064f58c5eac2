"""A toast: a banner at the bottom that shows a message (an illegal move, a saved setting)
for a few seconds, over whatever screen is showing. Touching it dismisses it."""

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
