"""Chop! Chop!: the board with the hidden-tile tracker beside it.

The tracker (``companion.games.chopchop_tracker.tracker``): face-down / revealed / empty per
square (drawn on the board: slabs, tile marks on turned squares, opened holes), the count left
of each tile type and its chance on the next slab, cheese held, opened holes, caught mice, and
missed or double turns. When a slab is turned the tile picker asks which tile it showed,
pre-selected from the camera's proposal when there is one.

When the reveals contradict the tile counts of the rules settings (a box with another split), a
one-line notice of a fixed height ("More knives than expected?") never moves the layout; touched,
it says in plain words how to adjust the counts in the rules settings (:class:`CountsView`). At
the end the panel says why the game ended and who won (C8's end too).
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from companion.games.base import State
from companion.i18n import N_, _
from ui import theme
from ui.screens.boardgame import BoardGameScreen
from ui.widgets.common import BigButton, KeyLabel, TextLabel
from ui.widgets.tiles import TileIcon, pretty_tile

EMPTY = theme.hex_colour("#d8c8a8")
HOLE = theme.hex_colour("#8a7152")
HOLE_OPEN = theme.hex_colour("#4a3b2c")
MORE_THAN_EXPECTED = {
    "cheese": N_("More cheese than expected?"), "crockery": N_("More crockery than expected?"),
    "plus1": N_("More +1 tiles than expected?"), "plus2": N_("More +2 tiles than expected?"),
    "arrow": N_("More arrows than expected?"), "fork": N_("More forks than expected?"),
    "knife": N_("More knives than expected?"),
}
"""The notice when more tiles of one type were turned than the rules settings count."""
OTHER_COUNTS = N_("Other tile counts than expected?")
"""The notice when several types were turned more often than the settings count."""


def notice_text(types: list[str]) -> str:
    """The one-line notice for the tile types whose reveals contradict the counts ("" if none)."""
    if not types:
        return ""
    if len(types) == 1 and types[0] in MORE_THAN_EXPECTED:
        return _(MORE_THAN_EXPECTED[types[0]])
    return _(OTHER_COUNTS)


class TrackerPanel(BoxLayout):
    cheese = StringProperty("")
    cheese_held = NumericProperty(0)
    cheese_total = NumericProperty(10)
    """The cheese meter's wedges: held out of what the mice need to win."""
    holes = StringProperty("")
    caught = StringProperty("")
    notes = StringProperty("")
    warning = StringProperty("")
    """The tracker's whole sentence about the contradiction (for logs and tests), or ""."""
    notice = StringProperty("")
    """The one-line notice shown for it ("More knives than expected?"), or ""."""
    meter_height = NumericProperty(0)
    """The cheese meter's height: 28 px where the panel has that much to spare, else 0 (a
    companion's hint or a notice below take the room first)."""
    show_counts = BooleanProperty(True)
    """The tiles left and their chances; hidden while the tile picker (which shows the same
    chances) needs the room below."""

    __events__ = ("on_adjust",)

    def on_adjust(self) -> None:
        CountsView(self.notice).open()

    METER = 28

    def on_kv_post(self, base_widget: Any) -> None:
        from kivy.clock import Clock

        self._fit_later = Clock.create_trigger(self.fit_meter)  # once a frame, after the layout settles
        self.bind(height=self._fit_later, children=self._fit_later)
        for w in self.children:
            if w is not self.ids.get("cheese_meter"):
                w.bind(height=self._fit_later)

    def on_parent(self, _widget: Any, parent: Any) -> None:
        later = getattr(self, "_fit_later", None)
        if parent is not None and later is not None:  # in the scroll view: its height is the room
            parent.bind(height=later)
            later()

    def fit_meter(self, *_: Any) -> None:
        meter = self.ids.get("cheese_meter")
        others = [w for w in self.children if w is not meter and w.size_hint_y is None]
        used = sum(w.height for w in others) + self.spacing * len(others)
        # the panel is as tall as what it holds (it scrolls): the room is its scroll view's height
        room = self.parent.height if self.parent is not None and self.size_hint_y is None else self.height
        self.meter_height = self.METER if room - used >= self.METER + self.spacing else 0


class CountsView(ModalView):
    """How to adjust the tile counts, in plain words, with a way to the rules settings."""

    def __init__(self, notice: str) -> None:
        super().__init__(size_hint=(0.8, None), height=330, background="", background_color=theme.PANEL,
                         overlay_color=(0, 0, 0, 0.75))
        box = BoxLayout(orientation="vertical", padding=14, spacing=8)
        title = KeyLabel(text=notice, size_hint_y=None, height=40, color=theme.ACCENT)
        box.add_widget(title)
        text = TextLabel(text=_(
            "Adjust the counts: on the Home screen, under Rules, set each Tiles number to what your box "
            "holds (the broken crockery makes up the difference). Your next game uses them; in this game "
            "the companion no longer guesses how many of that tile are left."), halign="left", valign="top")
        text.bind(size=lambda w, size: setattr(w, "text_size", (size[0], None)))
        box.add_widget(text)
        row = BoxLayout(size_hint_y=None, height=theme.MIN_TOUCH + 4, spacing=10)
        self.open_rules = BigButton(text=_("Open the rules settings"), bg=list(theme.INFO), fg=list(theme.BG))
        self.open_rules.bind(on_release=lambda *_: self.to_rules())
        close = BigButton(text=_("Close"), size_hint_x=0.5)
        close.bind(on_release=lambda *_: self.dismiss())
        row.add_widget(self.open_rules)
        row.add_widget(close)
        box.add_widget(row)
        self.add_widget(box)

    def to_rules(self) -> None:
        """Home, Chop! Chop! chosen, its rules settings in view (this game is kept to resume)."""
        self.dismiss()
        app = App.get_running_app()
        if app is None:
            return
        app.go("home")
        home = app.screen("home")
        home.select_game("chopchop")
        rules = home.ids.get("rules")
        scroll = rules.parent.parent if rules is not None and rules.parent is not None else None
        if scroll is not None and hasattr(scroll, "scroll_to"):
            scroll.scroll_to(rules, padding=10, animate=False)


def tracker_of(state: Any) -> Any:
    try:
        from companion.games.chopchop_tracker import tracker
    except ImportError:
        return None
    return tracker(state)


class ChopChopScreen(BoardGameScreen):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("narration_height", 56)
        super().__init__(**kwargs)

    def build_panel(self, panel: Any) -> None:
        # in a scroll view of the panel's own height: however much the tracker says (notes, the
        # notice), it never grows over the top bar; its top (counts, notice) is what shows first
        self.side = TrackerPanel()
        self.captures = {}
        scroll = ScrollView(do_scroll_x=False, bar_width=6)
        scroll.add_widget(self.side)
        panel.add_widget(scroll)
        self.tracker: Any = None

    def on_session_changed(self) -> None:
        self.captures = {}

    def on_effects(self, effects: list[Any]) -> None:
        pass

    def tile_prompt(self, state: State) -> str:
        s: Any = state
        piece = getattr(s, "piece", None)
        where = s.position(piece) if piece and hasattr(s, "position") else None
        if piece == "cat":
            who = _("Cat")
        elif piece:
            who = _("Mouse {n}").format(n=piece.replace("mouse:", ""))
        else:
            return _("Which tile?")
        if where:
            return _("{piece} on {square}: which tile?").format(piece=who, square=s.game.square_words(where))
        return _("{piece}: which tile?").format(piece=who)

    def refresh_board(self, state: State) -> None:
        super().refresh_board(state)
        view = self.ids.get("board")
        tr = tracker_of(state)
        self.tracker = tr
        if view is None or tr is None:
            return
        tints, marks = {}, {}
        for sq, st in tr.squares.items():
            if st.status == "empty" and st.revealed is not None:
                tints[sq] = EMPTY
            elif st.status == "hole":
                tints[sq] = HOLE
            elif st.status == "hole-open":
                tints[sq] = HOLE_OPEN
            if st.revealed and st.status != "face-down":
                marks[sq] = st.revealed  # drawn as the tile's picture (ui.art)
        view.tints = tints
        view.marks = marks

    def refresh_panel(self, state: State) -> None:
        tr = self.tracker if self.tracker is not None else tracker_of(state)
        side = self.side
        if tr is None:
            side.notes = _("The tile tracker is not available.")
            return
        side.cheese = f"{tr.cheese_held}/{tr.cheese_to_win}"
        side.cheese_held, side.cheese_total = tr.cheese_held, tr.cheese_to_win
        side.holes = f"{len(tr.holes_opened)}/{len(tr.holes_opened) + len(tr.holes_closed)}"
        side.caught = str(len(tr.mice_caught))
        side.show_counts = self.input_mode != "tile"
        rows = []
        for t, count in tr.counts.items():
            left = "?" if count.remaining is None else str(count.remaining)
            p = tr.chance.get(t) if tr.chance else None
            pct = "" if not tr.chance else (" · ?" if p is None else f" · {float(p) * 100:.0f}%")
            rows.append((t, f"{left}{pct}"))
        face_down = _("face down: {n}").format(n=tr.face_down)
        grid = side.ids.tiles
        if (rows, face_down) != getattr(self, "_tile_rows", None) or not grid.children:
            self._tile_rows = (rows, face_down)  # built again only when a count or a word changed
            grid.clear_widgets()
            for t, text in rows:
                row = BoxLayout(size_hint_y=None, height=26, spacing=6)
                row.add_widget(TileIcon(tile=t, size_hint_x=None, width=28))
                lab = TextLabel(text=text, font_size=theme.FONT_SMALL)  # the picture names the tile
                lab.tile = t
                row.add_widget(lab)
                grid.add_widget(row)
            grid.add_widget(TextLabel(text=face_down, font_size=theme.FONT_SMALL,
                                      color=theme.MUTED, size_hint_y=None, height=26))
        notes = []
        for s in tr.misses_next_turn:
            notes.append(_("cat misses next turn") if s == "cat" else _("mice miss next turn"))
        if tr.double_turn:
            notes.append(_("cat plays twice") if tr.double_turn == "cat" else _("mice play twice"))
        if tr.face_up_cheese:
            notes.append(_("face-up cheese: {n}").format(n=len(tr.face_up_cheese)))
        side.notes = " · ".join(notes)
        if state.is_over():  # why the game ended and who won (C8's end too), like any end
            side.notes = end_sentence(state)
        side.warning = tr.contradiction or ""
        side.notice = notice_text([t for t, c in tr.counts.items() if c.remaining is None])


def end_sentence(state: Any) -> str:
    """The reason and the result of a finished Chop! Chop! game, as a sentence."""
    from companion.games.chopchop import Won

    out = state.outcome() or {}
    text = Won(str(out.get("side", "")), str(out.get("reason", ""))).describe()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!")) else ".")
