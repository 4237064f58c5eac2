"""The "Which one?" list of the game screen: several legal actions fit a touch, each offered as a
whole sentence ("Mouse 3 goes from D2 to D4 by way of D3"); and :func:`as_sentence`, which makes
a narration line or an error text a sentence."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion import proposals
from companion.games.base import Action
from companion.i18n import _
from ui import actions, theme
from ui.widgets.common import BigButton, KeyLabel, wrap_text


class ChoiceView(ModalView):
    """Several legal actions fit the touch: pick one."""

    def __init__(self, screen: Any, candidates: list[Action]) -> None:
        super().__init__(size_hint=(0.7, 0.8), background="", background_color=theme.PANEL, overlay_color=(0, 0, 0, 0.75))
        self.screen = screen
        from kivy.uix.scrollview import ScrollView

        outer = BoxLayout(orientation="vertical", padding=12, spacing=8)
        outer.add_widget(KeyLabel(text=_("Which one?"), size_hint_y=None, height=44))
        scroll = ScrollView()
        box = BoxLayout(orientation="vertical", spacing=6, size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        self.buttons = []
        for a in candidates[:40]:
            b = wrap_text(BigButton(text=self.sentence(a), size_hint_y=None, height=52), "left")
            b.bind(texture_size=lambda w, ts: setattr(w, "height", max(52, ts[1] + 16)))
            b.action = a
            b.bind(on_release=lambda _b, act=a: self.pick(act))
            box.add_widget(b)
            self.buttons.append(b)
        scroll.add_widget(box)
        outer.add_widget(scroll)
        cancel = BigButton(text=_("Cancel"), size_hint_y=None, height=52)
        cancel.bind(on_release=lambda *_: self.dismiss())
        outer.add_widget(cancel)
        self.add_widget(outer)

    def sentence(self, action: Action) -> str:
        """The choice as a whole sentence ("Mouse 3 goes from D2 to D4 by way of D3"), never
        the action's internal form."""
        state = self.screen.state
        session = getattr(self.screen, "session", None)
        if state is None:
            return actions.describe_action(action)
        return as_sentence(proposals.describe(state, action, getattr(session, "seats", None)).sentence)

    def pick(self, action: Action) -> None:
        self.dismiss()
        self.screen.selected = ""
        self.screen.app.apply(action)


def as_sentence(text: str) -> str:
    """``text`` with a capital first letter and a full stop, unless it ends with one already."""
    text = text.strip()
    if not text:
        return text
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
