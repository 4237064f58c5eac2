"""The tile picker: one big button per possible outcome (a Chop! Chop! tile type, a Qubism
cube's new arrow), each with its picture (ui.art), its word under it and its chance in the
corner; the camera's proposal, when there is one, is pre-selected and a single touch on
"Confirm" enters it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.i18n import N_, _
from ui import art, theme
from ui.widgets.common import BigButton, BigToggle

PRETTY = {
    "plus1": "+1", "plus2": "+2", "N": N_("N (up)"), "S": N_("S (down)"), "E": N_("E (right)"),
    "W": N_("W (left)"), "cheese": N_("cheese"), "crockery": N_("crockery"), "arrow": N_("arrow"),
    "fork": N_("fork"), "knife": N_("knife"),
}
"""Tile types and cube arrows as the players read them (translated when shown)."""


def pretty_tile(label: str) -> str:
    """A tile type or an arrow in the language now in use."""
    if label in PRETTY:
        return _(PRETTY[label])
    return label.replace("_", " ")


ARROWS = ("N", "S", "E", "W")
BUTTON_HEIGHT = 74
"""A picture button's height: three rows of them, the Confirm button and the tracker's top row
fit the 800x480 side column."""


def draw_outcome(canvas: object, label: str, x: float, y: float, side: float) -> None:
    """The picture of a tile type (on its card) or of a cube showing arrow ``label``."""
    if label in ARROWS:
        art.piece(canvas, f"cube:{label}", x + side / 2, y + side / 2, side * 0.48)
    else:
        art.tile(canvas, label, x, y, side, side)


class TileIcon(Widget):
    """A tile's (or a cube arrow's) picture filling the widget's square."""

    tile = StringProperty("")

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, tile=self._draw)

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        if self.tile:
            side = min(self.width, self.height)
            # x, y, width, height only: the right/top/center aliases may lag behind a size change
            draw_outcome(self.canvas, self.tile, self.x + (self.width - side) / 2, self.y + (self.height - side) / 2, side)


class CheeseMeter(Widget):
    """The cheese the mice hold out of what they need (the tracker): one wedge per cheese."""

    held = NumericProperty(0)
    total = NumericProperty(10)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, held=self._draw, total=self._draw)

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        if self.width > 10 and self.total > 0:
            art.cheese_meter(self.canvas, int(self.held), int(self.total), self.x, self.y, self.width, self.height)


class TileButton(BigToggle):
    """One choice of the picker: the picture above, the word below, the chance in a corner."""

    tile = StringProperty("")
    chance = StringProperty("")

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("valign", "bottom")
        kwargs.setdefault("halign", "center")
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, tile=self._draw, chance=self._draw, state=self._draw)
        self.bind(size=lambda *_: setattr(self, "text_size", (self.width - 4, self.height - 4)))

    def picture_rect(self) -> tuple[float, float, float]:
        """(left, bottom, side) of the picture, in window-parent pixels."""
        side = max(10.0, min(self.height - 28, self.width * 0.5))
        return (self.x + max(4.0, self.width * 0.5 - side - 2), self.y + self.height - side - 3, side)

    def _draw(self, *_: object) -> None:
        self.canvas.after.clear()
        if not self.tile or self.width < 10:
            return
        x, y, side = self.picture_rect()
        draw_outcome(self.canvas.after, self.tile, x, y, side)
        if self.chance:
            tex = art.text_texture(self.chance, theme.FONT_SMALL, theme.TEXT)
            w, h = tex.size[0] + 8, tex.size[1]
            # x, y, width, height only: ``right``/``top`` may still hold the old size when a size
            # change calls this (seen: badges drawn two thirds of a button to the left)
            px, py = self.x + self.width - w - 3, self.y + self.height - h - 6
            with self.canvas.after:
                Color(*theme.BG[:3], 0.88)
                RoundedRectangle(pos=(px, py), size=(w, h), radius=[h / 2])
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(px + 4, py), size=tex.size)


class TilePicker(BoxLayout):
    proposal = StringProperty("")
    """The camera's proposed label (pre-selected), or ""."""

    __events__ = ("on_tile",)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("spacing", 6)
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.grid = GridLayout(cols=3, spacing=6, size_hint_y=None)
        self.grid.bind(minimum_height=self.grid.setter("height"))
        self.confirm = BigButton(text=_("Confirm"), size_hint_y=None, height=52, bg=list(theme.GOOD))
        self.confirm.bind(on_release=lambda *_: self._confirm())
        self.add_widget(self.grid)
        self.buttons: dict[str, TileButton] = {}
        self.bind(minimum_height=self.setter("height"))

    def set_options(self, options: list[tuple[str, Fraction]], proposal: str = "") -> None:
        self.grid.clear_widgets()
        self.buttons = {}
        self.proposal = proposal if any(o[0] == proposal for o in options) else ""
        for label, p in options:
            b = TileButton(text=pretty_tile(label), tile=label, chance=f"{float(p) * 100:.0f}%",
                           group="tile-picker", size_hint_y=None, height=BUTTON_HEIGHT,
                           font_size=theme.FONT_SMALL, state="down" if label == self.proposal else "normal")
            b.bind(on_release=lambda btn, lab=label: self._pressed(lab))
            self.grid.add_widget(b)
            self.buttons[label] = b
        if self.confirm.parent is not None:
            self.remove_widget(self.confirm)
        if self.proposal:
            self.confirm.text = _("Confirm {tile} (camera)").format(tile=pretty_tile(self.proposal))
            self.add_widget(self.confirm)

    def _pressed(self, label: str) -> None:
        self.dispatch("on_tile", label)

    def _confirm(self) -> None:
        if self.proposal:
            self.dispatch("on_tile", self.proposal)

    def on_tile(self, label: str) -> None:
        pass
