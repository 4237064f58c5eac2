"""History: finished games, a game's narration replayed, and each player's chips over time."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion import games
from companion.i18n import N_, _
from companion.session import Session
from companion.store import StoreError
from ui import theme
from ui.widgets.common import BigButton, TextLabel


class HistoryScreen(Screen):
    detail_title = StringProperty("")

    def on_kv_post(self, base_widget: Any) -> None:
        from kivy.uix.label import Label
        from kivy.uix.scrollview import ScrollView

        from ui.widgets.plot import ChipsPlot

        self.plot = ChipsPlot()
        self.replay = Label(font_size=theme.FONT_SMALL, color=theme.TEXT, size_hint_y=None, halign="left")
        self.replay.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
                         texture_size=lambda w, v: setattr(w, "height", v[1]))
        self.replay_view = ScrollView(do_scroll_x=False)
        self.replay_view.add_widget(self.replay)
        self.ids["plot"] = self.plot
        self.ids["replay"] = self.replay
        self._show(self.plot)

    def _show(self, widget: Any) -> None:
        box = self.ids.detail
        box.clear_widgets()
        box.add_widget(widget)

    @property
    def app(self) -> Any:
        return App.get_running_app()

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = self.app
        box = self.ids.games
        box.clear_widgets()
        finished = app.store.finished_games(None, 30)
        titles = games.titles()
        if not finished:
            box.add_widget(TextLabel(text=_("No finished games yet."), color=theme.MUTED, size_hint_y=None, height=52))
        for g in finished:
            winner = (g.outcome or {}).get("winner")
            when = when_text(datetime.fromtimestamp(g.finished or g.created))
            players = " – ".join(g.seats.values())
            if winner is not None:
                result = _("{player} won").format(player=g.seats.get(str(winner), str(winner)))
            else:
                result = _("nobody won")
            b = BigButton(
                text=f"{titles.get(g.game, g.game)} · {when}\n{players} · {result}",
                size_hint_y=None, height=72, font_size=theme.FONT_SMALL, halign="left", bold=False,
            )
            b.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - 20, None)))
            b.bind(on_release=lambda _b, gid=g.id: self.show_game(gid))
            box.add_widget(b)
        self.ids.plot.set_history(app.store.player_history())
        self.detail_title = _("Chips won over time (Kat en Muis)")

    def show_game(self, game_id: int) -> None:
        try:
            data = Session.load(self.app.store, game_id).export()
        except StoreError as exc:  # a damaged game: said, the others stay usable
            self.app.toast(str(exc), "bad")
            return
        lines: list[str] = []
        for turn in data["turns"]:
            lines.extend(turn["narration"] or [])
        self.detail_title = _("Game #{number}: {game}").format(number=game_id, game=data["title"])
        self.replay.text = "\n".join(lines[-200:]) or _("(no moves)")
        self._show(self.replay_view)

    def show_plot(self) -> None:
        self.detail_title = _("Chips won over time (Kat en Muis)")
        self._show(self.plot)


MONTHS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"), N_("Aug"), N_("Sep"),
          N_("Oct"), N_("Nov"), N_("Dec"))
"""Month abbreviations (strftime's %b follows the C locale, not the app's language)."""


def when_text(moment: datetime) -> str:
    """``"24 Nov 08:30"`` in the language now in use."""
    return _("{day} {month} {time}").format(day=moment.day, month=_(MONTHS[moment.month - 1]),
                                            time=moment.strftime("%H:%M"))
