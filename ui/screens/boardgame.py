"""Kilkenny Cats and Qubism: selectable pieces, legal targets lit, captures and cube arrows.

Touch one of your pieces (its legal destinations light up), then a lit square. In Qubism an
empty square offers the pawn step or a cube placement (choose the arrow); a cube offers its
slides. After a slide the cube's new arrow is entered with the arrow picker.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.games.base import Effect, State
from companion.i18n import _, ngettext
from ui import theme
from ui.screens.game import GameScreen
from ui.widgets.common import KeyLabel, TextLabel


class BoardGamePanel(BoxLayout):
    info = StringProperty("")
    last = StringProperty("")


class BoardGameScreen(GameScreen):
    def build_panel(self, panel: Any) -> None:
        self.side = BoardGamePanel()
        panel.add_widget(self.side)
        self.captures: dict[str, int] = {}

    def on_session_changed(self) -> None:
        self.captures = {}
        self.side.last = ""
        if self.session is not None:
            for turn in self.session.turns:
                self._count(list(turn.effects))

    def _count(self, effects: list[Effect]) -> None:
        for e in effects:
            if type(e).__name__ == "Captured":
                who = str(getattr(e, "player", getattr(e, "by", "")))
                self.captures[who] = self.captures.get(who, 0) + 1

    def on_effects(self, effects: list[Effect]) -> None:
        self._count(effects)
        names = self.session.seats if self.session else {}
        words = self.session.game.square_words if self.session else None
        caught = [e.describe(names, words) for e in effects if type(e).__name__ in ("Captured", "Won", "Parked")]
        self.side.last = "; ".join(caught)

    def tile_prompt(self, state: State) -> str:
        return _("Which arrow is on top now?")

    def refresh_panel(self, state: State) -> None:
        if self.session is None:
            return
        s: Any = state
        box = self.side.ids.players
        current = state.current_player()
        rows = []
        for p in self.session.game.players:
            extra = ""
            if hasattr(s, "cats"):
                n = sum(1 for c in s.cats.values() if c == p)
                extra = ngettext("{n} cat", "{n} cats", n).format(n=n)
            elif hasattr(s, "pawns"):
                at = s.pawns.get(p)
                extra = _("pawn {square}").format(square=s.game.square_words(at) if at else "-")
            if p == current:
                extra = f"{extra} · {_('to play')}" if extra else _("to play")
            rows.append((p, self.session.name(p), extra, p == current))
        if rows != getattr(self, "_player_rows", None) or not box.children:
            self._player_rows = rows  # built again only when a name, a count or the player to play changed
            box.clear_widgets()
            for p, who, extra, now in rows:
                row = BoxLayout(size_hint_y=None, height=48, spacing=6)
                name = KeyLabel(
                    text=who, font_size=theme.FONT_BIG if now else theme.FONT,
                    color=theme.text_colour(p), halign="left", valign="middle", size_hint_x=0.55, shorten=True,
                )
                name.bind(size=name.setter("text_size"))
                row.add_widget(name)
                row.add_widget(TextLabel(text=extra, color=theme.TEXT if now else theme.MUTED,
                                         size_hint_x=0.45, font_size=theme.FONT_SMALL))
                box.add_widget(row)
        info = []
        if hasattr(s, "pool"):
            info.append(_("Cubes in the pool: {n}").format(n=s.pool))
        if getattr(s, "throw", None):
            info.append(_("Die shows {throw}").format(throw=s.throw))
        self.side.info = "\n".join(info)
        self.last_dice = [s.throw] if getattr(s, "throw", None) else []
