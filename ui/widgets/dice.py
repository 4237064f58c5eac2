"""Dice: a drawn die face, and the dice picker for entering a throw by touch.

The picker shows one row of faces per die; touching one face in every row enters the throw
(``on_throw(values)``). "Roll" throws for the players (the virtual die of demo mode).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kivy.graphics import Color, RoundedRectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.i18n import _
from ui import art, theme
from ui.widgets.common import BigButton

PIPS = art.PIPS


class DieFace(Widget):
    """A die showing ``value`` (0 = blank)."""

    value = NumericProperty(0)
    selected = BooleanProperty(False)
    dim = BooleanProperty(False)
    colour = StringProperty("")
    """The die's colour name ("grey", "blue", ...: ui.art.DIE_LOOK); "" a white die."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._label: Label | None = None
        self.bind(pos=self._draw, size=self._draw, value=self._draw, selected=self._draw, dim=self._draw,
                  colour=self._draw)
        self._draw()

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        side = min(self.width, self.height)
        x0 = self.x + (self.width - side) / 2
        y0 = self.y + (self.height - side) / 2
        alpha = 0.45 if self.dim else 1.0
        if self.selected:
            with self.canvas:
                Color(*theme.ACCENT)
                RoundedRectangle(pos=(x0 - 3, y0 - 3), size=(side + 6, side + 6), radius=[side * 0.2])
        v = int(self.value)
        art.die(self.canvas, v if v in PIPS else 0, x0, y0, side, self.colour, alpha)
        if v not in PIPS and v > 0:
            if self._label is None:
                self._label = Label(bold=True)
                self.add_widget(self._label)
            self._label.color = art.die_look(self.colour)[1]
            self._label.text = str(v)
            self._label.font_size = max(theme.MIN_TEXT, side * 0.5)
            self._label.pos, self._label.size = (x0, y0), (side, side)
        elif self._label is not None:
            self._label.text = ""


class DieButton(ButtonBehavior, DieFace):
    """A touchable die face (one choice in the picker)."""

    row = NumericProperty(0)


class DicePicker(BoxLayout):
    """Rows of die faces, one per die; ``on_throw(values)`` once every row has a face."""

    faces = ListProperty([1, 2, 3, 4, 5, 6])
    n_dice = NumericProperty(2)
    chosen = ListProperty([])
    colours = ListProperty([])
    """Each row's die colour (the game's ``die_colours()``); missing or "": white."""

    __events__ = ("on_throw",)

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("spacing", 6)
        super().__init__(**kwargs)
        self.rng = random.Random()
        self.rows: list[list[DieButton]] = []
        from ui.widgets.icons import IconButton

        self.roll_button = IconButton(icon="dice", text=_("Roll the dice"), size_hint_y=None, height=52, bg=list(theme.INFO))
        self.roll_button.bind(on_release=lambda *_: self.roll())
        self.bind(faces=self._rebuild, n_dice=self._rebuild, width=self._resize, colours=self._recolour)
        self._rebuild()

    def configure(self, n_dice: int, faces: Sequence[int]) -> None:
        self.n_dice, self.faces = n_dice, list(faces)
        self._rebuild()

    def _rebuild(self, *_args: object) -> None:
        self.clear_widgets()
        self.rows = []
        self.chosen = [0] * int(self.n_dice)
        side = 52
        for r in range(int(self.n_dice)):
            row = BoxLayout(orientation="horizontal", spacing=4, size_hint_y=None, height=side)
            buttons = []
            for v in self.faces:
                b = DieButton(value=v, row=r, size_hint=(None, None), size=(side, side), colour=self.colour_of(r))
                b.bind(on_release=self._picked)
                row.add_widget(b)
                buttons.append(b)
            self.rows.append(buttons)
            self.add_widget(row)
        self.roll_button.text = _("Roll the die") if int(self.n_dice) == 1 else _("Roll the dice")
        self.add_widget(self.roll_button)
        self._resize()

    def colour_of(self, row: int) -> str:
        return str(self.colours[row]) if row < len(self.colours) else ""

    def _recolour(self, *_args: object) -> None:
        for r, row in enumerate(self.rows):
            for b in row:
                b.colour = self.colour_of(r)

    def face_side(self) -> float:
        n = max(1, len(self.faces))
        return float(max(48, min(64, (self.width - 4 * (n - 1)) / n)))

    def _resize(self, *_: object) -> None:
        side = self.face_side()
        n = max(1, len(self.faces))
        pad = max(0.0, (self.width - n * side - 4 * (n - 1)) / 2)
        for row in self.rows:
            if row:
                row[0].parent.height = side
                row[0].parent.padding = [pad, 0, 0, 0]
            for b in row:
                b.size = (side, side)

    def _picked(self, button: DieButton) -> None:
        r = int(button.row)
        for b in self.rows[r]:
            b.selected = b is button
        chosen = list(self.chosen)
        chosen[r] = int(button.value)
        self.chosen = chosen
        if all(chosen):
            values = tuple(chosen)
            self.clear()
            self.dispatch("on_throw", values)

    def clear(self) -> None:
        self.chosen = [0] * int(self.n_dice)
        for row in self.rows:
            for b in row:
                b.selected = False

    def roll(self) -> None:
        values = tuple(self.rng.choice(list(self.faces)) for _ in range(int(self.n_dice)))
        self.clear()
        self.dispatch("on_throw", values)

    def on_throw(self, values: tuple[int, ...]) -> None:
        pass
