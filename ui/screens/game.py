"""The game screen shared by all games: the board with pieces, legal destinations lit, the
dice, a big "whose turn" banner, the narration of every effect, Undo, and the dice picker.

Each game subclasses :class:`GameScreen` and fills its side panel (``refresh_panel``). Input
paths all end in :meth:`CompanionApp.apply`, which shows an illegal action as a toast:

- a throw (dice picker, Roll button, serial die, camera) -> :meth:`enter_throw`;
- a tile reveal (tile picker, camera proposal) -> :meth:`enter_tile`;
- a move: touch the piece, then a lit destination -> :meth:`on_square`.

The camera's offers, notes and disagreements over the board are :class:`ui.screens.gamecamera.GameCamera`
(a mixin); the "Which one?" list is :class:`ui.screens.choice.ChoiceView`.
"""

from __future__ import annotations

import importlib
from contextlib import nullcontext
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion import games
from companion.boards import BoardError, load_board
from companion.games.base import CHANCE, Action, Effect, State
from companion.i18n import _
from companion.session import Session, SessionEvent
from ui import actions, companion_turn, feedback, guide, theme
from ui.screens.choice import ChoiceView
from ui.screens.choice import as_sentence as _sentence
from ui.screens.gamecamera import GameCamera
from ui.widgets.common import wrap_text
from ui.widgets.dice import DicePicker
from ui.widgets.icons import IconButton
from ui.widgets.tiles import TilePicker, pretty_tile

__all__ = ["MAX_NARRATION", "ChoiceView", "GameScreen"]

MAX_NARRATION = 80


class GameScreen(GameCamera, Screen):
    game_key = StringProperty("")
    banner = StringProperty("")
    banner_colour = ListProperty(list(theme.ACCENT))
    prompt = StringProperty("")
    last_dice = ListProperty([])
    can_undo = BooleanProperty(False)
    board: Any = ObjectProperty(None, allownone=True)
    board_error = StringProperty("")
    input_mode = StringProperty("none")
    """"dice", "tile", "move" or "none" (game over / nothing to enter)."""
    narration_height = NumericProperty(96)
    guide_text = StringProperty("")
    """The first-game guide's "what to do next" line (empty: the guide is off); ui.guide."""

    def __init__(self, **kwargs: Any) -> None:
        self.session: Session | None = None
        self.throw_colours: list[str] = []
        """The colour of each die of the throw due (the dice picker's and the big throw's)."""
        self.moving: list[Any] = []
        """The move animations running now (ui.feedback)."""
        self.narration: list[str] = []
        self.selected = ""
        self.path_choices: list[Action] = []
        """Moves to one square by different ways, drawn as numbered arrows until one is touched."""
        self._narrate_fn: Any = None
        self.crosscheck_shown: list[Any] = []
        """The camera/rules disagreements the prompt on screen is about (empty: none shown)."""
        key = str(kwargs.get("game_key", ""))
        board: Any = None
        error = ""
        try:
            board = load_board(key)
        except BoardError as exc:
            error = _("The board file for this game is not available yet ({error}).").format(error=exc)
        kwargs.setdefault("board", board)
        kwargs.setdefault("board_error", error)
        super().__init__(**kwargs)

    @property
    def app(self) -> Any:
        return App.get_running_app()

    def on_kv_post(self, base_widget: Any) -> None:
        self.picker = DicePicker(size_hint_y=None)
        self.picker.bind(minimum_height=self.picker.setter("height"))
        self.picker.bind(on_throw=lambda _w, values: self.enter_throw(values, "touch"))
        self.ids["picker"] = self.picker
        self.moves_button = wrap_text(IconButton(icon="list", text=_("List the moves")))
        self.moves_button.bind(on_release=lambda *_: self.show_moves())
        self.zoom_button = wrap_text(IconButton(icon="zoom_out", text=_("Whole board"), size_hint_x=0.8,
                                                font_size=theme.FONT_SMALL))
        self.zoom_button.bind(on_release=lambda *_: self.ids.board.zoom_out())
        self.ids["zoom_out"] = self.zoom_button
        board = self.ids.board
        board.bind(zoomed=lambda _w, z: setattr(self.zoom_button, "disabled", not z))
        self.zoom_button.disabled = not board.zoomed
        self.move_box = BoxLayout(size_hint_y=None, height=52, spacing=6)
        self.move_box.add_widget(self.moves_button)
        self.move_box.add_widget(self.zoom_button)
        self.over_button = IconButton(icon="trophy", text=_("See the result"), size_hint_y=None, height=52,
                                      bg=list(theme.GOOD))
        self.over_button.bind(on_release=lambda *_: self.app.show_game_over())
        self.tile_picker = TilePicker()
        self.tile_picker.bind(on_tile=lambda _w, label: self.enter_tile(label, "touch"))
        self.tile_proposal = ""
        self.build_panel(self.ids.panel)
        self.on_input_mode(self, self.input_mode)
        area = self.ids.board_area
        self.big_throw = feedback.BigThrow(size_hint=(None, None), pos=area.pos, size=area.size)
        area.bind(pos=self.big_throw.setter("pos"), size=self.big_throw.setter("size"))
        area.add_widget(self.big_throw)
        self.ids["big_throw"] = self.big_throw

    def build_panel(self, panel: Any) -> None:
        """Subclasses add their side-panel widgets here."""

    def input_widget(self, mode: str) -> Any:
        """The widget for the current input mode (subclasses add the tile picker)."""
        if mode == "dice":
            return self.picker
        if mode == "tile":
            return self.tile_picker
        if mode == "move":
            return self.move_box
        if mode == "none" and self.session is not None and self.session.is_over():
            return self.over_button
        return None

    def on_input_mode(self, _w: Any, mode: str) -> None:
        box = self.ids.get("input_box")
        if box is None:
            return
        widget = self.input_widget(mode)
        if widget is not None and widget.parent is box and len(box.children) == 1:
            return
        box.clear_widgets()
        if widget is not None:
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
            box.add_widget(widget)

    @property
    def state(self) -> State | None:
        return self.session.state if self.session is not None else None

    # -- session ----------------------------------------------------------------------------

    def set_session(self, session: Session) -> None:
        self.session = session
        self.selected = ""
        self.path_choices = []
        try:
            module = importlib.import_module(games.GAMES[session.record.game][0])
            self._narrate_fn = getattr(module, "narrate", None)
        except ImportError:
            self._narrate_fn = None
        self.narration = []
        for turn in session.turns:
            self._add_narration(self.narrate_turn(turn.effects, turn.action))
        self.on_session_changed()
        self.refresh()

    def on_session_changed(self) -> None:
        """Hook for subclasses: a new session was opened."""

    def on_session_event(self, event: SessionEvent) -> None:
        self.path_choices = []
        view = self.ids.get("board")
        before = dict(view.tokens) if view is not None else {}
        if event.kind in ("applied", "undone"):
            self.clear_camera()  # the throw was entered / the move that was checked is gone
        if event.kind == "applied" and event.turn is not None:
            self._add_narration(self.narrate_turn(event.effects, event.turn.action), speak=True)
            self.on_effects(list(event.effects))
        elif event.kind == "undone" and event.turn is not None:
            self._add_narration([_("Undone: {move}.").format(move=self.undone_words(event.turn))], speak=True)
            self.on_effects([])  # transfers and badges of the undone move are gone
        view = self.ids.get("board")
        if view is not None and event.kind in ("applied", "undone"):
            view.zoom_out()  # the move is made: show the whole board again
        if event.kind == "finished":
            return  # the app shows the end-of-game screen
        self.selected = ""
        self.refresh()
        if event.kind == "applied":
            feedback.after_applied(self, list(event.effects), before)

    def on_effects(self, effects: list[Effect]) -> None:
        """Hook for subclasses: effects of the action just applied (transfers, captures)."""

    def narrate_turn(self, effects: tuple[Effect, ...] | list[Effect], action: Action | None = None) -> list[str]:
        names = self.session.seats if self.session else {}
        if self._narrate_fn is not None:
            try:
                return list(self._narrate_fn(list(effects), names))
            except Exception:
                pass
        words = self.session.game.square_words if self.session else None
        lines = [_sentence(e.describe(names, words)) for e in effects]
        if not lines and action is not None:
            lines = [_sentence(actions.describe_action(action))]
        return lines

    def undone_words(self, turn: Any) -> str:
        """What an undone turn did, as its narration said it first ("The cat moves from D4 to
        D5"), never the action's internal form."""
        told = self.narrate_turn(turn.effects, turn.action)
        return told[0].rstrip(".") if told else _("the last move")

    def _add_narration(self, lines: list[str], speak: bool = False) -> None:
        if speak:
            self.app.voice.narrate(lines)
        for line in lines:
            self.narration.insert(0, line)
        del self.narration[MAX_NARRATION:]
        label = self.ids.get("narration")
        if label is None:
            return
        parts = []
        for i, line in enumerate(self.narration[:30]):
            colour = "f2f4f8" if i == 0 else "a8b0c2"
            size = theme.FONT if i == 0 else theme.FONT_SMALL
            parts.append(f"[color={colour}][size={size}]{escape_markup(line)}[/size][/color]")
        label.text = "\n".join(parts)

    # -- drawing ----------------------------------------------------------------------------

    def player_name(self, player: str | None) -> str:
        return self.session.name(player) if self.session else str(player)

    def refresh(self) -> None:
        state = self.state
        if state is None or self.session is None:
            self.banner = _("No game")
            return
        self.can_undo = self.session.can_undo()
        player = state.current_player()
        if state.is_over():
            from ui.screens.gameover import headline

            self.banner = headline(self.session)  # several mice win together: all named
            self.banner_colour = list(theme.GOOD)
            self.prompt = _("Undo the last move, or go Home for a new game.")
        else:
            name = self.player_name(player)
            label = self.session.game.player_label(player) if player else ""
            if label and label != name:
                self.banner = _("{player}'s turn ({role})").format(player=name, role=label)
            else:
                self.banner = _("{player}'s turn").format(player=name)
            self.banner_colour = list(theme.text_colour(player or "", 0))
        mode = "none"
        if not state.is_over():
            kind = actions.chance_kind(state)
            if kind == "dice":
                mode = "dice"
                n, faces = actions.dice_spec(state)
                picker = self.ids.get("picker")
                if picker is not None and (picker.n_dice != n or list(picker.faces) != faces):
                    picker.configure(n, faces)
                self.throw_colours = [str(c) for c in state.die_colours()]
                if picker is not None:
                    picker.colours = list(self.throw_colours)
                self.prompt = _("Touch what the die shows") if n == 1 else _("Touch what the dice show, one per row")
            elif kind == "tile":
                mode = "tile"
                self.prompt = self.tile_prompt(state)
                options = [(label, p) for label, _a, p in actions.tile_outcomes(state)]
                self.tile_picker.set_options(options, self.tile_proposal)
            elif state.to_move() not in (None, CHANCE):
                mode = "move"
                legal = state.legal_actions()
                pieces = self.pieces()
                squares = self.board.squares if self.board is not None else {}
                lit, free = (actions.touch_marks(legal, squares, pieces=pieces) if not self.selected
                             else (self.highlight_squares(state), []))
                if self.path_choices:
                    self.prompt = _("Two ways lead there: touch the number on the way to go.")
                elif free and lit:
                    self.prompt = _("Touch a lit or a blue square.")
                elif free:
                    self.prompt = _("Touch any free square.")
                elif legal and all(len(actions.squares_of(a, squares, pieces)) == 1 for a in legal):
                    self.prompt = _("Touch a lit square.")
                else:
                    self.prompt = _("Touch a piece, then a lit square.")
        self.input_mode = mode
        self.on_input_mode(self, mode)
        view = self.ids.get("board")
        with view.held() if view is not None else nullcontext():  # drawn once, not per property set
            self.refresh_board(state)
        self.refresh_panel(state)
        companion_turn.update(self, state)
        self.guide_text = guide.text_for(self)
        # With the first-game guide on, its "what to do next" line is said instead of the bare
        # whose-turn banner: the youngest players cannot read it.
        self.app.voice.turn(self.guide_text or self.banner)

    def tile_prompt(self, state: State) -> str:
        return _("Touch what it shows.")

    def propose_tile(self, label: str, confidence: float = 1.0) -> None:
        """The camera proposes a tile: pre-select it in the picker (the player confirms)."""
        self.tile_proposal = label
        self.refresh()

    def refresh_board(self, state: State) -> None:
        view = self.ids.get("board")
        if view is None or self.board is None:
            return
        bv = getattr(state, "board_view", None)
        view.tokens = dict(bv()) if callable(bv) else {}
        view.highlights = self.highlight_squares(state)
        view.tinted = self.free_squares(state)
        view.hinted = []
        view.paths = [actions.path_of(a, self.board.squares, self.pieces()) for a in self.path_choices]
        view.selected = self.selected
        if view.zoomed and self.selected:
            view.zoom_to([self.selected, *view.highlights])  # the piece and all its targets in view

    def highlight_squares(self, state: State) -> list[str]:
        """Legal destinations: of the selected piece, or every square a move can start from."""
        if self.board is None or state.to_move() in (None, CHANCE):
            return []
        legal = state.legal_actions()
        sq = self.board.squares
        pieces = self.pieces()
        if self.selected:
            return sorted(
                {
                    actions.squares_of(a, sq, pieces)[-1]
                    for a in self.actions_from(self.selected)
                    if actions.squares_of(a, sq, pieces)
                }
            )
        return actions.touch_marks(legal, sq, pieces=pieces)[0]

    def free_squares(self, state: State) -> list[str]:
        """Squares where any one will do (tinted): an Arrow tile's jump, a cube's place."""
        if self.board is None or self.selected or state.to_move() in (None, CHANCE):
            return []
        return actions.touch_marks(state.legal_actions(), self.board.squares, pieces=self.pieces())[1]

    def pieces(self) -> dict[str, str]:
        state = self.state
        bv = getattr(state, "board_view", None)
        return actions.piece_squares(bv()) if callable(bv) else {}

    def refresh_panel(self, state: State) -> None:
        """Subclasses draw their side panel here."""

    # -- input ------------------------------------------------------------------------------

    def enter_throw(self, values: tuple[int, ...] | list[int], source: str = "touch") -> None:
        state = self.state
        if state is None:
            return
        if state.is_over():
            self.app.toast(_("The game is over: undo the last move or start a new game."), "info")
            return
        try:
            action = actions.throw_action(state, list(values))
        except ValueError as exc:
            self.app.toast(_sentence(str(exc)), "bad")
            return
        self.last_dice = list(values)
        self.app.apply(action, source)

    def roll(self) -> None:
        picker = self.ids.get("picker")
        if picker is not None and self.input_mode == "dice":
            picker.roll()

    def enter_tile(self, label: str, source: str = "touch") -> None:
        state = self.state
        if state is None:
            return
        for name, action, _p in actions.tile_outcomes(state):
            if name == label:
                self.tile_proposal = ""
                self.app.apply(action, source)
                return
        self.app.toast(_("A {tile} tile cannot be turned now.").format(tile=pretty_tile(label)), "bad")

    def actions_from(self, square: str) -> list[Action]:
        state = self.state
        if state is None or self.board is None:
            return []
        return actions.moves_from(state.legal_actions(), self.board.squares, self.pieces()).get(square, [])

    def on_path(self, index: int) -> None:
        """A path's number was touched: make that move."""
        if 0 <= index < len(self.path_choices):
            action = self.path_choices[index]
            self.path_choices = []
            self.selected = ""
            self.app.apply(action)

    def on_square(self, square: str) -> None:
        state = self.state
        if state is None or self.board is None:
            return
        if self.path_choices:  # a touch beside the numbered ways: choose again
            self.path_choices = []
            self.refresh()
        if state.to_move() in (None, CHANCE):
            if state.is_over():
                return
            self.app.toast(_("Throw first: {what}").format(what=self.prompt), "info")
            return
        sq = self.board.squares
        pieces = self.pieces()
        if self.selected:
            chosen = [
                a for a in self.actions_from(self.selected) if actions.squares_of(a, sq, pieces)[-1] == square
            ]
            if chosen:
                self.choose(chosen)
                return
            if square == self.selected:
                self.selected = ""
                self.refresh()
                return
        starts = self.actions_from(square)
        if starts:
            singles = [a for a in starts if len(actions.squares_of(a, sq, pieces)) == 1]
            if singles and len(singles) == len(starts):
                self.choose(singles)
                return
            self.selected = square
            self.refresh()
            return
        self.selected = ""
        self.refresh()
        self.app.toast(_("No legal move there."), "bad")

    def choose(self, candidates: list[Action]) -> None:
        if len(candidates) == 1:
            self.selected = ""
            self.app.apply(candidates[0])
            return
        if self.board is not None:
            paths = [actions.path_of(a, self.board.squares, self.pieces()) for a in candidates]
            if all(len(p) >= 2 for p in paths) and len({tuple(p) for p in paths}) == len(paths) <= 4:
                self.path_choices = list(candidates)  # the ways are drawn on the board, to touch
                self.refresh()
                return
        ChoiceView(self, candidates).open()

    def show_moves(self) -> None:
        state = self.state
        if state is None:
            return
        legal = state.legal_actions()
        if not legal:
            self.app.toast(_("No moves to choose now."), "info")
            return
        ChoiceView(self, legal).open()
