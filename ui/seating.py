"""The home screen's seat choice: each side is a person (with a name) or the companion (with a
strength: easy, normal, strong). The choice is remembered per game and stored with the game
(``Session.start(..., companions=...)``)."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.spinner import Spinner
from kivy.uix.textinput import TextInput

from companion.companion_turn import STRENGTH_WORDS
from companion.i18n import _
from companion.players import STRENGTHS
from ui import theme
from ui.widgets.common import BigToggle

PREF_KEY = "ui.companions.{game}"
"""Store setting holding the seats the companion took last time for a game: role -> strength."""


class SeatChoice:
    """One side's choice: the name input or, for the companion, its strength toggles, and the
    Person/Companion selector."""

    def __init__(self, role: str, inp: TextInput, strength: str | None) -> None:
        self.role = role
        self.inp = inp
        self.slot = BoxLayout(spacing=4)
        self.who = Spinner(
            text=_("Companion") if strength else _("Person"),
            values=[_("Person"), _("Companion")],
            size_hint_x=None, width=132, font_size=theme.FONT_SMALL,
            background_normal="", background_color=theme.PANEL_HI,
        )
        self.strength_box = BoxLayout(spacing=4)
        self.toggles: dict[str, BigToggle] = {}
        chosen = strength or "normal"
        for level in STRENGTHS:
            t = BigToggle(text=_(STRENGTH_WORDS[level]), group=f"strength-{role}", allow_no_selection=False,
                          state="down" if level == chosen else "normal", font_size=theme.FONT_SMALL)
            self.toggles[level] = t
            self.strength_box.add_widget(t)
        self.who.bind(text=lambda *_a: self.refresh())
        self.names: Any = None
        """The known-names spinner of the row, disabled for the companion."""
        self.refresh()

    @property
    def is_companion(self) -> bool:
        return self.who.text == _("Companion")

    @property
    def strength(self) -> str:
        return next((level for level, t in self.toggles.items() if t.state == "down"), "normal")

    def set(self, strength: str | None) -> None:
        """Seat a person (``None``) or the companion at ``strength``."""
        self.who.text = _("Companion") if strength else _("Person")
        if strength:
            for level, t in self.toggles.items():
                t.state = "down" if level == strength else "normal"

    def refresh(self) -> None:
        self.slot.clear_widgets()
        for w in (self.inp, self.strength_box):
            if w.parent is not None:
                w.parent.remove_widget(w)
        self.slot.add_widget(self.strength_box if self.is_companion else self.inp)
        if self.names is not None:
            self.names.disabled = self.is_companion
            self.names.opacity = 0 if self.is_companion else 1


def companions(choices: dict[str, SeatChoice]) -> dict[str, str]:
    """role -> strength for the sides given to the companion."""
    return {role: c.strength for role, c in choices.items() if c.is_companion}


def remembered(app: Any, game: str) -> dict[str, str]:
    saved = app.store.get_setting(PREF_KEY.format(game=game), {}) if app else {}
    return {str(k): str(v) for k, v in saved.items() if v in STRENGTHS} if isinstance(saved, dict) else {}


def remember(app: Any, game: str, chosen: dict[str, str]) -> None:
    app.store.set_setting(PREF_KEY.format(game=game), dict(chosen))
