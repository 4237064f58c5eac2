"""The tile picker: one big button per possible outcome (a Chop! Chop! tile type, a Qubism
cube's new arrow), each with its chance; the camera's proposal, when there is one, is
pre-selected and a single touch on "Confirm" enters it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.widgets.common import BigButton, BigToggle

PRETTY = {"plus1": "+1", "plus2": "+2", "N": "N (up)", "S": "S (down)", "E": "E (right)", "W": "W (left)"}


def pretty_tile(label: str) -> str:
    return PRETTY.get(label, label.replace("_", " "))


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
        self.confirm = BigButton(text="Confirm", size_hint_y=None, height=52, bg=list(theme.GOOD))
        self.confirm.bind(on_release=lambda *_: self._confirm())
        self.add_widget(self.grid)
        self.buttons: dict[str, BigToggle] = {}
        self.bind(minimum_height=self.setter("height"))

    def set_options(self, options: list[tuple[str, Fraction]], proposal: str = "") -> None:
        self.grid.clear_widgets()
        self.buttons = {}
        self.proposal = proposal if any(o[0] == proposal for o in options) else ""
        for label, p in options:
            text = f"{pretty_tile(label)}\n{float(p) * 100:.0f}%"
            b = BigToggle(text=text, group="tile-picker", size_hint_y=None, height=54, halign="center",
                          font_size=theme.FONT_SMALL, state="down" if label == self.proposal else "normal")
            b.tile = label
            b.bind(on_release=lambda btn, lab=label: self._pressed(lab))
            self.grid.add_widget(b)
            self.buttons[label] = b
        if self.confirm.parent is not None:
            self.remove_widget(self.confirm)
        if self.proposal:
            self.confirm.text = f"Confirm {pretty_tile(self.proposal)} (camera)"
            self.add_widget(self.confirm)

    def _pressed(self, label: str) -> None:
        self.dispatch("on_tile", label)

    def _confirm(self) -> None:
        if self.proposal:
            self.dispatch("on_tile", self.proposal)

    def on_tile(self, label: str) -> None:
        pass
