"""History: unfinished and finished games, a game's board replayed step by step, each
player's wins per game, and each player's chips over time."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion import games
from companion.i18n import _
from companion.session import Session
from companion.store import StoreError
from ui import theme
from ui.screens.unfinished import describe, seat_names, when_text
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
        self.game_buttons: dict[int, BigButton] = {}
        unfinished = app.store.unfinished_games()
        finished = app.store.finished_games(None, 30)
        titles = games.titles()
        if not finished and not unfinished:
            box.add_widget(TextLabel(text=_("No games yet."), color=theme.MUTED, size_hint_y=None, height=52))
        for g in unfinished:
            first, second = describe(app.store, g)
            mark = _("unfinished")
            self._game_button(g.id, f"{first}\n{second} · {mark}", theme.PANEL)
        for g in finished:
            winner = (g.outcome or {}).get("winner")
            when = when_text(datetime.fromtimestamp(g.finished or g.created))
            players = " – ".join(seat_names(g))
            if isinstance(winner, list):
                result = _("{players} won").format(players=" – ".join(g.seats.get(str(w), str(w)) for w in winner))
            elif winner is not None:
                result = _("{player} won").format(player=g.seats.get(str(winner), str(winner)))
            else:
                result = _("nobody won")
            self._game_button(g.id, f"{titles.get(g.game, g.game)} · {when}\n{players} · {result}", theme.PANEL_HI)
        self.ids.plot.set_history(app.store.player_history())
        self.show_wins()

    def _game_button(self, game_id: int, text: str, colour: Any) -> None:
        b = BigButton(text=text, size_hint_y=None, height=72, font_size=theme.FONT_SMALL, halign="left", bold=False,
                      bg=list(colour))
        b.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - 20, None)),
               texture_size=lambda w, ts: setattr(w, "height", max(72, ts[1] + 16)))
        b.bind(on_release=lambda _b, gid=game_id: self.show_game(gid))
        self.ids.games.add_widget(b)
        self.game_buttons[game_id] = b

    def show_game(self, game_id: int) -> None:
        """The game's board at its last step, with Back and Forward through its moves."""
        from ui.screens.replay import ReplayPanel

        try:
            session = Session.load(self.app.store, game_id)
            data = session.export()
        except StoreError as exc:  # a damaged game: said, the others stay usable
            self.app.toast(str(exc), "bad")
            return
        lines: list[str] = []
        for turn in data["turns"]:
            lines.extend(turn["narration"] or [])
        self.replay.text = "\n".join(lines[-200:]) or _("(no moves)")
        said = [t["narration"] or [] for t in data["turns"]]
        self.detail_title = _("{game}: {players}").format(game=data["title"],
                                                           players=" – ".join(session.seats.values()))
        self.board_replay = ReplayPanel(session, lambda step: list(said[step - 1]), self.continue_game)
        self.ids["board_replay"] = self.board_replay
        self._show(self.board_replay)

    def continue_game(self, game_id: int) -> None:
        self.app.continue_game(game_id)

    def show_plot(self) -> None:
        self.detail_title = _("Chips won over time (Kat en Muis)")
        self._show(self.plot)

    def show_wins(self) -> None:
        from ui.screens.replay import wins_view

        self.detail_title = _("Wins per player and game")
        self._show(wins_view(self.app.store.player_history()))
