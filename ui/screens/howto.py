"""How to play: a game's rules taught section by section (Setup, A turn, Special squares or
tiles, How to win, This companion's rules), one short page at a time, with the board drawn and
the squares the page talks about lit on it.

The text is :func:`companion.teach.howto` for the game with the rules settings in use: the home
screen's choices before a game, the running game's settings from the game screen. Open it with
``app.screen('howto').open_for(screen)``; Back returns to that screen.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion import games
from companion.boards import BoardError
from companion.games.base import Game
from companion.i18n import _, on_change
from companion.teach import Page, Section, board_of, howto
from ui import guide, theme
from ui.widgets.board import BoardView
from ui.widgets.common import BigButton, KeyLabel
from ui.widgets.tiles import TileIcon, pretty_tile

TILE_SIDE = 44
"""A tile's picture on a How to play page, in pixels (at most: seven share the row)."""


class HowToBoard(BoardView):
    """The board as a picture: touches do nothing (no zoom, no moves)."""

    def on_touch_down(self, touch: Any) -> bool:
        return False


class HowToScreen(Screen):
    heading = StringProperty("")
    section_title = StringProperty("")
    page_text = StringProperty("")
    position = StringProperty("")
    index = NumericProperty(0)
    count = NumericProperty(0)
    board: Any = ObjectProperty(None, allownone=True)
    board_error = StringProperty("")
    at_start = BooleanProperty(True)
    at_end = BooleanProperty(True)

    def __init__(self, **kwargs: Any) -> None:
        self.game: Game | None = None
        self.sections: list[Section] = []
        self.pages: list[tuple[int, Page]] = []
        """Every page in order, with the index of its section."""
        self.tokens: dict[str, str] = {}
        self.back_to = "home"
        self.section_buttons: list[BigButton] = []
        self.tile_icons: list[TileIcon] = []
        """The tile pictures shown for the page now."""
        super().__init__(**kwargs)
        self.stop_listening = on_change(lambda _lang: Clock.schedule_once(lambda _dt: self.retranslate()))
        """Stops following the language (the app calls it when it stops, so a closed app is freed)."""

    def retranslate(self) -> None:
        """The language changed: the same page again, in the new language."""
        if self.game is not None:
            index = int(self.index)
            self.show(self.game, self.back_to)
            self.go(index)

    @property
    def app(self) -> Any:
        return App.get_running_app()

    def on_kv_post(self, base_widget: Any) -> None:
        box = self.ids.sections
        for i in range(5):
            b = BigButton(text=str(i + 1), font_size=theme.FONT)
            b.bind(on_release=lambda _b, n=i: self.go_section(n))
            box.add_widget(b)
            self.section_buttons.append(b)

    def on_pre_enter(self, *args: Any) -> None:
        guide.sync_toggle(self.ids.get("guide_toggle"), guide.is_on(self.app))

    # -- opening ---------------------------------------------------------------------------

    def open_for(self, screen: Any) -> None:
        """Show the rules of the game ``screen`` is about (a game screen or the home screen)."""
        session = getattr(screen, "session", None)
        try:
            if session is not None:
                game = session.game
            else:
                game = games.make(str(screen.game_key), dict(getattr(screen, "settings", {}) or {}))
        except (ValueError, TypeError, ImportError) as exc:
            self.app.toast(_("These rules settings are not valid: {error}").format(error=exc), "bad")
            return
        self.show(game, back=str(screen.name))
        self.app.go(self.name)

    def show(self, game: Game, back: str = "home") -> None:
        self.game = game
        self.back_to = back
        self.sections = howto(game)
        self.pages = [(i, p) for i, s in enumerate(self.sections) for p in s.pages]
        self.count = len(self.pages)
        self.heading = _("How to play {game}").format(game=game.title)
        try:
            self.board = board_of(game)
            self.board_error = ""
        except BoardError as exc:
            self.board, self.board_error = None, str(exc)
        try:
            view = getattr(game.new_state(), "board_view", None)
            self.tokens = dict(view()) if callable(view) else {}
        except Exception:  # a picture only: never let a setup problem hide the rules
            self.tokens = {}
        for i, b in enumerate(self.section_buttons):
            b.disabled = i >= len(self.sections)
        self.go(0)

    # -- walking -----------------------------------------------------------------------------

    def go(self, index: int) -> None:
        if not self.pages:
            return
        index = max(0, min(int(index), len(self.pages) - 1))
        self.index = index
        sec_i, page = self.pages[index]
        sec = self.sections[sec_i]
        in_sec = [p for s, p in self.pages if s == sec_i]
        k = in_sec.index(page) + 1
        self.section_title = f"{sec_i + 1}. {sec.title}"
        self.position = _("Page {page} of {pages}").format(page=k, pages=len(in_sec))
        text = escape_markup(page.text)
        if sec.notes and k == len(in_sec):
            notes = "\n".join(f"• {escape_markup(n)}" for n in sec.notes)
            intro = escape_markup(_("In the rule book's terms:"))
            text += f"\n\n[size={theme.FONT_SMALL}][color=a8b0c2]{intro}\n{notes}[/color][/size]"
        self.page_text = text
        self.at_start = index == 0
        self.at_end = index == len(self.pages) - 1
        for i, b in enumerate(self.section_buttons):
            b.bg = list(theme.ACCENT if i == sec_i else theme.PANEL_HI)
        self.show_tiles(page.tiles)
        view = self.ids.get("board")
        if view is not None:
            view.tokens = dict(self.tokens)
            view.highlights = list(page.squares)
            view.marks = dict(page.marks)
        scroll = self.ids.get("scroll")
        if scroll is not None:
            scroll.scroll_y = 1

    def show_tiles(self, tiles: tuple[str, ...]) -> None:
        """The pictures of the tiles the page names in a row above the text, each with its name
        below where three or fewer share the row (a page naming them all already lists their
        names); none: the row takes no room."""
        row = self.ids.get("tiles_row")
        if row is None:
            return
        row.clear_widgets()
        self.tile_icons = []
        named = len(tiles) <= 3
        for tile in tiles:
            cell = BoxLayout(orientation="vertical", spacing=2)
            icon = TileIcon(tile=tile, size_hint_y=None, height=TILE_SIDE)
            cell.add_widget(icon)
            if named:
                cell.add_widget(KeyLabel(text=pretty_tile(tile), font_size=theme.FONT_SMALL, size_hint_y=None,
                                         height=22))
            row.add_widget(cell)
            self.tile_icons.append(icon)
        row.height = (TILE_SIDE + (24 if named else 0)) if tiles else 0

    def next(self) -> None:
        self.go(self.index + 1)

    def previous(self) -> None:
        self.go(self.index - 1)

    def go_section(self, n: int) -> None:
        for i, (s, _p) in enumerate(self.pages):
            if s == n:
                self.go(i)
                return

    def back(self) -> None:
        self.app.go(self.back_to if self.back_to else "home")
