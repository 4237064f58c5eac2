"""The tile picker: one big button per possible outcome (a Chop! Chop! tile type, a Qubism
cube's new arrow), each with its chance; the camera's proposal, when there is one, is
pre-selected and a single touch on "Confirm" enters it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.i18n import N_, _
from ui import theme
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
            self.confirm.text = _("Confirm {tile} (camera)").format(tile=pretty_tile(self.proposal))
            self.add_widget(self.confirm)

    def _pressed(self, label: str) -> None:
        self.dispatch("on_tile", label)

    def _confirm(self) -> None:
        if self.proposal:
            self.dispatch("on_tile", self.proposal)

    def on_tile(self, label: str) -> None:
        pass
