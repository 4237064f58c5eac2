"""History's detail views: a game's board replayed step by step (back and forward through its
moves, the board drawn at each step with the game screen's board widget), and each player's
wins per game."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from companion import games
from companion.boards import BoardError, load_board
from companion.games.base import State
from companion.i18n import _
from companion.session import Session
from ui import theme
from ui.widgets.common import Placeholder, TextLabel
from ui.widgets.icons import IconButton


def boards_of(session: Session) -> list[dict[str, str]]:
    """The pieces on the board before the first move and after each move in force (index k:
    after k moves)."""
    state = session.game.new_state()
    out = [_pieces(state)]
    for turn in session.turns:
        state.apply(turn.action)
        out.append(_pieces(state))
    return out


def _pieces(state: State) -> dict[str, str]:
    bv = getattr(state, "board_view", None)
    return dict(bv()) if callable(bv) else {}


class ReplayPanel(BoxLayout):
    """One game's board at any step: Back and Forward, and what happened at that step."""

    step = NumericProperty(0)
    steps = NumericProperty(0)
    caption = StringProperty("")

    def __init__(self, session: Session, narrate: Callable[[int], list[str]],
                 on_continue: Callable[[int], Any] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("spacing", 6)
        super().__init__(**kwargs)
        from ui.widgets.board import BoardView

        self.session = session
        self.narrate = narrate
        self.boards = boards_of(session)
        self.steps = len(self.boards) - 1
        self.board_view: Any = None
        try:
            board = load_board(session.record.game)
        except BoardError as exc:
            self.add_widget(Placeholder(text=_("The board file for this game is not available yet ({error}).")
                                        .format(error=exc)))
        else:
            self.board_view = BoardView(board=board)
            self.add_widget(self.board_view)
        self.caption_label = TextLabel(text="", font_size=theme.FONT_SMALL, size_hint_y=None, height=52,
                                       halign="center")
        self.add_widget(self.caption_label)
        row = BoxLayout(size_hint_y=None, height=52, spacing=8)
        self.back_button = IconButton(icon="back", text=_("Back"), size_hint_x=None, width=120)
        self.forward_button = IconButton(icon="forward", text=_("Forward"), size_hint_x=None, width=140)
        for b in (self.back_button, self.forward_button):
            b.bind(texture_size=lambda w, ts: setattr(w, "width", max(w.width, ts[0] + 20)))
        self.back_button.bind(on_release=lambda *_: self.go(self.step - 1))
        self.forward_button.bind(on_release=lambda *_: self.go(self.step + 1))
        self.counter = Label(text="", font_size=theme.FONT, color=theme.TEXT)
        row.add_widget(self.back_button)
        row.add_widget(self.counter)
        row.add_widget(self.forward_button)
        self.continue_button: IconButton | None = None
        if on_continue is not None and not session.is_over():
            self.continue_button = IconButton(icon="play", text=_("Continue"), bg=list(theme.INFO), size_hint_x=None,
                                              width=150)
            self.continue_button.bind(on_release=lambda *_: on_continue(session.game_id))
            row.add_widget(self.continue_button)
        self.add_widget(row)
        self.go(self.steps)  # the last position first

    def go(self, step: int) -> None:
        """Show the board after ``step`` moves (clamped to the game)."""
        self.step = max(0, min(int(step), self.steps))
        if self.board_view is not None:
            self.board_view.tokens = dict(self.boards[self.step])
        self.counter.text = _("Step {step} of {steps}").format(step=self.step, steps=self.steps)
        self.back_button.disabled = self.step == 0
        self.forward_button.disabled = self.step == self.steps
        lines = self.narrate(self.step) if self.step else [_("The start of the game.")]
        self.caption = " ".join(lines) or _("(no moves)")
        self.caption_label.text = self.caption


def wins_table(history: list[dict[str, Any]]) -> tuple[list[str], list[str], dict[tuple[str, str], tuple[int, int]]]:
    """(players, game keys, (player, game) -> (won, played)) from ``Store.player_history()``."""
    cells: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for row in history:
        cell = cells[(row["player"], row["game"])]
        cell[0] += int(bool(row["won"]))
        cell[1] += 1
    table = {k: (v[0], v[1]) for k, v in cells.items()}
    players = sorted({p for p, _g in table}, key=lambda p: (-sum(w for (q, _g), (w, _n) in table.items() if q == p), p))
    keys = [k for k in games.GAMES if any((p, k) in table for p in players)]
    return players, keys, table


def wins_view(history: list[dict[str, Any]]) -> Any:
    """A table: a row per player, a column per game, "2 of 5" wins in each cell."""
    players, keys, cells = wins_table(history)
    if not players:
        return TextLabel(text=_("No finished games yet."), color=theme.MUTED, halign="center")
    titles = games.titles()
    grid = GridLayout(cols=len(keys) + 1, spacing=[6, 4], size_hint_y=None, padding=[4, 4])
    grid.bind(minimum_height=grid.setter("height"))

    def cell(text: str, colour: Any = theme.TEXT, bold: bool = False) -> Label:
        label = Label(text=text, font_size=theme.FONT_SMALL, color=colour, bold=bold, size_hint_y=None, height=44,
                      halign="center", valign="middle")
        label.bind(size=lambda w, s: setattr(w, "text_size", s))
        return label

    grid.add_widget(cell(_("Player"), theme.MUTED, True))
    for key in keys:
        grid.add_widget(cell(titles.get(key, key), theme.MUTED, True))
    for player in players:
        grid.add_widget(cell(player, bold=True))
        for key in keys:
            won, played = cells.get((player, key), (0, 0))
            text = _("{won} of {played}").format(won=won, played=played) if played else "–"
            grid.add_widget(cell(text, theme.GOOD if won else theme.TEXT))
    scroll = ScrollView(do_scroll_x=False)
    scroll.add_widget(grid)
    return scroll
