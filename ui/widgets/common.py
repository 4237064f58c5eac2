"""Styled basics: every button is at least 48 px, every key figure at least 20 px.

``KeyLabel`` marks a figure the players must read from across the table (the turn banner,
chips, odds, dice); tests walk the widget tree and check their size.
"""

from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle, RoundedRectangle
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from ui import theme


class Panel(BoxLayout):
    """A box with a rounded dark background."""

    bg = ColorProperty(list(theme.PANEL))
    radius = NumericProperty(10)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        with self.canvas.before:
            self._c = Color(*self.bg)
            self._r = RoundedRectangle(pos=self.pos, size=self.size, radius=[self.radius])
        self.bind(pos=self._upd, size=self._upd, bg=self._upd)

    def _upd(self, *_: object) -> None:
        self._c.rgba = self.bg
        self._r.pos, self._r.size = self.pos, self.size
        self._r.radius = [self.radius]


class TextLabel(Label):
    """Body text: wraps to its width, left aligned."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("font_size", theme.FONT)
        kwargs.setdefault("color", theme.TEXT)
        kwargs.setdefault("halign", "left")
        kwargs.setdefault("valign", "middle")
        super().__init__(**kwargs)
        self.bind(size=self._wrap)

    def _wrap(self, *_: object) -> None:
        self.text_size = (self.width, None)


class KeyLabel(Label):
    """A key figure: at least 20 px, bold."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("font_size", theme.FONT_BIG)
        kwargs.setdefault("bold", True)
        kwargs.setdefault("color", theme.TEXT)
        super().__init__(**kwargs)


class FitLabel(KeyLabel):
    """A key line (a title, the turn banner) at the largest size from ``max_font`` down to
    ``min_font`` that fits its width on one line: a long translation or a long name gets a
    smaller font rather than being cut off. Text still too long at ``min_font`` wraps onto a
    second line where the label's ``text_size`` lets it (the game screen's turn banner)."""

    max_font = NumericProperty(theme.FONT_HUGE)
    min_font = NumericProperty(theme.FONT)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.bind(text=self._fit, width=self._fit, max_font=self._fit, min_font=self._fit)
        self._fit()

    def _fit(self, *_args: object) -> None:
        from kivy.core.text import Label as CoreLabel

        room = self.width - self.padding[0] - self.padding[2] - 4
        size = float(self.max_font)
        while size > self.min_font:
            need = CoreLabel(font_size=size, bold=self.bold, font_name=self.font_name).get_extents(self.text)[0]
            if need <= room:
                break
            size -= 2
        self.font_size = max(size, float(self.min_font))


def wrap_text(label: Label, halign: str = "center") -> Label:
    """Let ``label`` (or a button) wrap its text to its width instead of overflowing it."""
    label.halign = halign
    label.bind(width=lambda w, wd: setattr(w, "text_size", (max(wd - 12, 1), None)))
    label.text_size = (max(label.width - 12, 1), None)
    return label


class _Styled:
    """Flat rounded look shared by our buttons."""

    bg = ColorProperty(list(theme.PANEL_HI))
    fg = ColorProperty(list(theme.TEXT))

    def _style(self) -> None:
        w: Widget = self  # type: ignore[assignment]
        w.background_normal = ""  # type: ignore[attr-defined]
        w.background_down = ""  # type: ignore[attr-defined]
        w.background_color = (0, 0, 0, 0)  # type: ignore[attr-defined]
        with w.canvas.before:
            self._col = Color(*self.bg)
            self._rect = RoundedRectangle(pos=w.pos, size=w.size, radius=[8])
        w.bind(pos=self._restyle, size=self._restyle, bg=self._restyle, state=self._restyle)  # type: ignore[attr-defined]

    def _restyle(self, *_: object) -> None:
        w: Widget = self  # type: ignore[assignment]
        r, g, b, a = self.bg
        if getattr(w, "state", "normal") == "down":
            r, g, b = min(1, r + 0.15), min(1, g + 0.15), min(1, b + 0.15)
        if getattr(w, "disabled", False):
            a = a * 0.4
        self._col.rgba = (r, g, b, a)
        self._rect.pos, self._rect.size = w.pos, w.size
        # the label's ink: fg where it reads on this fill (4.5:1), else dark or white ink
        w.color = theme.readable(self.fg, self.bg)  # type: ignore[attr-defined]


class BigButton(_Styled, Button):
    """A touch button, at least 48 x 48 px."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("font_size", theme.FONT)
        kwargs.setdefault("bold", True)
        super().__init__(**kwargs)
        self._style()
        self.bind(fg=self._restyle, disabled=self._restyle)
        self._restyle()
        if self.size_hint_y is None and self.height < theme.MIN_TOUCH:
            self.height = theme.MIN_TOUCH


class BigToggle(_Styled, ToggleButton):
    """A toggle (a choice among several), at least 48 x 48 px; shows the accent when down."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("font_size", theme.FONT)
        kwargs.setdefault("bold", True)
        super().__init__(**kwargs)
        self._style()
        self.color = theme.TEXT

    def _restyle(self, *_: object) -> None:
        super()._restyle()
        if self.state == "down":
            self._col.rgba = theme.ACCENT
            self.color = theme.BG
        else:
            self.color = theme.TEXT


class Badge(Label):
    """A small coloured pill ("loses next turn", "throws again"), hidden when text is empty."""

    tone = ColorProperty(list(theme.ACCENT))
    shown = BooleanProperty(True)

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("font_size", theme.FONT)
        kwargs.setdefault("bold", True)
        kwargs.setdefault("color", theme.BG)
        super().__init__(**kwargs)
        with self.canvas.before:
            self._c = Color(*self.tone)
            self._r = RoundedRectangle(pos=self.pos, size=self.size, radius=[14])
        self.bind(pos=self._upd, size=self._upd, tone=self._upd, text=self._upd)
        self._upd()

    def _upd(self, *_: object) -> None:
        self._c.rgba = self.tone if self.text else (0, 0, 0, 0)
        self._r.pos, self._r.size = self.pos, self.size


class Divider(Widget):
    colour = ColorProperty(list(theme.LINE))

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", 2)
        super().__init__(**kwargs)
        with self.canvas:
            self._c = Color(*self.colour)
            self._r = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._upd, size=self._upd)

    def _upd(self, *_: object) -> None:
        self._r.pos, self._r.size = self.pos, self.size


class Placeholder(Label):
    """An honest "not available" box with a dashed border."""

    reason = StringProperty("")

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("font_size", theme.FONT)
        kwargs.setdefault("color", theme.MUTED)
        kwargs.setdefault("halign", "center")
        kwargs.setdefault("valign", "middle")
        super().__init__(**kwargs)
        with self.canvas.before:
            Color(*theme.LINE)
            self._l = Line(rectangle=(self.x, self.y, self.width, self.height), dash_length=8, dash_offset=6)
        self.bind(pos=self._upd, size=self._upd)

    def _upd(self, *_: object) -> None:
        self._l.rectangle = (self.x + 4, self.y + 4, self.width - 8, self.height - 8)
        self.text_size = (self.width - 24, None)
