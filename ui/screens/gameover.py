"""The end-of-game screen: who won, each player's chips (Kat en Muis) or cats left (Kilkenny),
the cheese and the mice caught (Chop! Chop!), how long the game took (turns, minutes); "Play
again with the same seats", back to the board (where Undo takes the last move back), or Home.

Shown by the app as soon as a game it is showing ends (:meth:`GameOverScreen.show_for`)."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion import games
from companion.games.base import CHANCE
from companion.i18n import _, ngettext
from companion.session import Session
from ui import theme
from ui.widgets.common import KeyLabel


def winners(session: Session) -> list[str]:
    """The winning player ids (none for a draw; several when the mice win together)."""
    outcome = session.state.outcome() or {}
    winner = outcome.get("winner")
    if winner is None:
        return []
    return [str(w) for w in winner] if isinstance(winner, list | tuple) else [str(winner)]


def headline(session: Session) -> str:
    names = [session.name(w) for w in winners(session)]
    if not names:
        return _("Nobody wins: a draw.")
    if len(names) == 1:
        return _("{player} wins!").format(player=names[0])
    both = _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])
    return _("{players} win!").format(players=both)


def turns_played(session: Session) -> int:
    """How many turns the players had: each change of whose turn it is starts a new one."""
    count, last = 0, None
    for turn in session.turns:
        if turn.turn_player in (None, CHANCE):
            continue
        if turn.turn_player != last:
            count += 1
            last = turn.turn_player
    return count


def minutes_played(session: Session) -> int:
    if not session.turns:
        return 0
    return max(1, round((session.turns[-1].t - session.record.created) / 60))


def length_text(session: Session) -> str:
    turns, minutes = turns_played(session), minutes_played(session)
    return _("{turns} in {minutes}").format(
        turns=ngettext("{n} turn", "{n} turns", turns).format(n=turns),
        minutes=ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes),
    )


def player_lines(session: Session) -> list[tuple[str, str, str]]:
    """Per player: (name, what they have at the end: Kat en Muis's chips, Kilkenny's cats left;
    "winner"; their role's colour key)."""
    outcome = session.state.outcome() or {}
    won = set(winners(session))
    lines = []
    for player in session.game.players:
        name = session.name(player)
        label = session.game.player_label(player)
        who = name if label == name else _("{player} ({role})").format(player=name, role=label)
        parts = []
        banks = outcome.get("banks")
        if session.record.game == "katenmuis" and isinstance(banks, dict) and player in banks:
            chips = int(banks[player])
            change = int((outcome.get("scores") or {}).get(player, 0))
            parts.append(ngettext("{n} chip", "{n} chips", chips).format(n=chips)
                         + f" ({change:+d})")
        cats = getattr(session.state, "cats", None)
        if session.record.game == "kilkenny" and isinstance(cats, dict):
            n = sum(1 for colour in cats.values() if colour == player)  # on the board, parked ones too
            parts.append(ngettext("{n} cat", "{n} cats", n).format(n=n))
        if player in won:
            parts.append(_("winner"))
        lines.append((who, " · ".join(parts), player))
    return lines


def extra_lines(session: Session) -> list[str]:
    """Lines about the whole game: Chop! Chop!'s cheese and mice caught."""
    outcome = session.state.outcome() or {}
    out = []
    if session.record.game == "chopchop":
        cheese = int(outcome.get("cheese", 0) or 0)
        caught = int(outcome.get("mice_caught", 0) or 0)
        out.append(ngettext("The mice got {n} cheese.", "The mice got {n} cheeses.", cheese).format(n=cheese))
        out.append(ngettext("The cat caught {n} mouse.", "The cat caught {n} mice.", caught).format(n=caught))
    return out


ROW = 40
"""A player's row on the end-of-game screen, in pixels (taller where its text wraps)."""


class GameOverScreen(Screen):
    headline = StringProperty("")
    length = StringProperty("")
    title = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        self.session: Session | None = None
        super().__init__(**kwargs)

    @property
    def app(self) -> Any:
        return App.get_running_app()

    def show_for(self, session: Session) -> None:
        """Fill in the summary of the finished ``session``."""
        self.session = session
        self.title = games.titles().get(session.record.game, session.game.title)
        self.headline = headline(session)
        self.length = length_text(session)
        box = self.ids.players
        box.clear_widgets()
        lines = player_lines(session)
        box.cols = 1 if len(lines) <= 3 else 2  # Chop! Chop! with four mice: two columns
        for who, what, player in lines:
            row = BoxLayout(size_hint_y=None, height=ROW, spacing=10)
            name = KeyLabel(text=who, color=theme.text_colour(player), halign="right", valign="middle")
            value = KeyLabel(text=what, halign="left", valign="middle")
            for label in (name, value):
                # wrapped at its width, and the row as tall as its longer text (four players share
                # two columns: "Grootmoeder (Rood)" takes two lines there)
                label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                           texture_size=lambda w, _ts, r=row: self._fit_row(r))
                row.add_widget(label)
            box.add_widget(row)
        self.ids.extra.text = " ".join(extra_lines(session))

    @staticmethod
    def _fit_row(row: Any) -> None:
        row.height = max([ROW] + [label.texture_size[1] + 6 for label in row.children])

    def play_again(self) -> None:
        """The same game, rules, names and companion seats, from the start."""
        session = self.session
        if session is None:
            self.app.go("home")
            return
        self.app.start_game(session.record.game, dict(session.seats), dict(session.game.settings()),
                            dict(session.companions))

    def see_board(self) -> None:
        self.app.go("game")
