"""Unfinished games on Home: a row per game (which game, who, when, how far) with Continue and
Delete; Delete asks first, in words; and the question before a new game of a kind that has an
unfinished one ("Continue the unfinished game, or start a new one?")."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion import games
from companion.i18n import N_, _, ngettext
from companion.store import GameRecord, Store
from ui import theme
from ui.widgets.common import KeyLabel, Panel, TextLabel
from ui.widgets.icons import IconButton


MONTHS = (N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"), N_("Jul"), N_("Aug"), N_("Sep"),
          N_("Oct"), N_("Nov"), N_("Dec"))
"""Month abbreviations (strftime's %b follows the C locale, not the app's language)."""


def when_text(moment: datetime) -> str:
    """``"24 Nov 08:30"`` in the language now in use."""
    return _("{day} {month} {time}").format(day=moment.day, month=_(MONTHS[moment.month - 1]),
                                            time=moment.strftime("%H:%M"))


def moves_made(store: Store, record: GameRecord) -> int:
    """The actions in force (throws, reveals and moves; undone ones not counted)."""
    stack = 0
    for event in store.events(record.id):
        if event.kind == "action":
            stack += 1
        elif event.kind == "undo" and stack:
            stack -= 1
    return stack


def seat_names(record: GameRecord) -> list[str]:
    """The players' names in the game's seat order (Cat before Mouse)."""
    try:
        order = list(games.make(record.game, record.settings).players)
    except (ImportError, AttributeError, KeyError, ValueError, TypeError):
        order = []
    roles = [r for r in order if r in record.seats] + sorted(r for r in record.seats if r not in order)
    return [record.seats[r] for r in roles]


def describe(store: Store, record: GameRecord) -> tuple[str, str]:
    """Two lines for a game: "Kat en Muis · 24 Nov 08:30" and "Anna – Ben · 12 moves"."""
    title = games.titles().get(record.game, record.game)
    when = when_text(datetime.fromtimestamp(record.created))
    players = " – ".join(seat_names(record))
    n = moves_made(store, record)
    far = ngettext("{n} move", "{n} moves", n).format(n=n) if n else _("not started")
    return f"{title} · {when}", f"{players} · {far}"


class UnfinishedRow(Panel):
    """One unfinished game: its description, Continue and Delete."""

    def __init__(self, store: Store, record: GameRecord, on_continue: Callable[[int], Any],
                 on_delete: Callable[[int], Any], described: tuple[str, str] | None = None) -> None:
        super().__init__(size_hint_y=None, height=64, padding=[10, 4, 6, 4], spacing=6, bg=list(theme.PANEL))
        self.game_id = record.id
        first, second = described if described is not None else describe(store, record)
        self.label = TextLabel(text=f"{first}\n{second}", font_size=theme.FONT_SMALL)
        self.continue_button = IconButton(icon="play", text=_("Continue"), bg=list(theme.INFO), size_hint_x=None,
                                          width=150)
        self.delete_button = IconButton(icon="trash", text=_("Delete"), bg=list(theme.PANEL_HI), size_hint_x=None,
                                        width=140)
        for button in (self.continue_button, self.delete_button):
            button.bind(texture_size=lambda b, ts: setattr(b, "width", max(b.width, ts[0] + 20)))
        self.continue_button.bind(on_release=lambda *_: on_continue(record.id))
        self.delete_button.bind(on_release=lambda *_: on_delete(record.id))
        for w in (self.label, self.continue_button, self.delete_button):
            self.add_widget(w)
        # a long line (French, Dutch, many names) wraps: the row grows with it
        self.label.bind(texture_size=lambda _w, ts: setattr(self, "height", max(64, ts[1] + 12)))


class AskView(ModalView):
    """A question in words with two or three answers (the first is the main one)."""

    def __init__(self, question: str, detail: str, answers: list[tuple[str, str, Any, Callable[[], Any]]]) -> None:
        super().__init__(size_hint=(0.94, None), height=330, auto_dismiss=False, background="",
                         background_color=theme.PANEL, overlay_color=(0, 0, 0, 0.75))
        box = BoxLayout(orientation="vertical", padding=16, spacing=10)
        self.question = KeyLabel(text=question, size_hint_y=None, halign="center")
        self.question.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
                           texture_size=lambda w, ts: setattr(w, "height", ts[1] + 8))
        self.detail = TextLabel(text=detail, color=theme.MUTED, halign="center")
        box.add_widget(self.question)
        box.add_widget(self.detail)
        row = BoxLayout(size_hint_y=None, height=60, spacing=10)
        self.buttons: dict[str, IconButton] = {}
        for key, (text, icon, colour, act) in zip(("first", "second", "third"), answers, strict=False):
            b = IconButton(icon=icon, text=text, bg=list(colour), halign="center",
                           size_hint_x=0.75 if key == "third" else 1)
            b.bind(width=lambda w, v: setattr(w, "text_size", (max(1, v - 16 - w.padding[0]), None)))
            b.bind(on_release=lambda _b, a=act: self._answer(a))
            row.add_widget(b)
            self.buttons[key] = b
        box.add_widget(row)
        self.add_widget(box)

    def _answer(self, act: Callable[[], Any]) -> None:
        self.dismiss()
        act()


def confirm_delete(store: Store, record: GameRecord, delete: Callable[[], Any]) -> AskView:
    """"Delete this game?" with the game named; Delete or Keep it."""
    first, second = describe(store, record)
    view = AskView(
        _("Delete this unfinished game? It cannot be continued afterwards."),
        f"{first}\n{second}",
        [(_("Delete it"), "trash", theme.BAD, delete), (_("Keep it"), "close", theme.PANEL_HI, lambda: None)],
    )
    view.open()
    return view


def ask_new_or_continue(store: Store, record: GameRecord, resume: Callable[[], Any],
                        start: Callable[[], Any]) -> AskView:
    """Before a new game of a kind that has an unfinished one."""
    first, second = describe(store, record)
    view = AskView(
        _("Continue the unfinished game, or start a new one?"),
        f"{first}\n{second}",
        [(_("Continue it"), "play", theme.INFO, resume), (_("Start a new one"), "plus", theme.GOOD, start),
         (_("Cancel"), "close", theme.PANEL_HI, lambda: None)],
    )
    view.open()
    return view
