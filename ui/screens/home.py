"""Home: choose the game, the players and their names, roles or a roll-off, stakes and bank,
the rules settings with their interpretations; start, or resume the unfinished game."""

from __future__ import annotations

import importlib
import threading
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.spinner import Spinner
from kivy.uix.textinput import TextInput

from companion import games, i18n
from companion.i18n import N_, _
from companion.store import StoreError
from companion.textsafe import clean_name
from ui import seating, theme
from ui.widgets.common import BigButton, BigToggle, KeyLabel, TextLabel
from ui.widgets.dice import DicePicker

# choices for string settings, by setting name (a game module may add SETTING_CHOICES)
KNOWN_CHOICES: dict[str, list[str]] = {"shortcut_from": ["reached", "strictly_past"]}
PRETTY = {
    "shortcut_from": N_("Shortcuts"),
    "bank": N_("Bank (chips)"),
    "stake": N_("Stake (chips)"),
    "reached": N_("from the square itself"),
    "strictly_past": N_("only from past it"),
    "mice_players": N_("Mice players"),
    "board": N_("Board"),
    "tiles": N_("Tiles"),
    "cheese": N_("cheese"),
    "crockery": N_("crockery"),
    "plus1": "+1",
    "plus2": "+2",
    "arrow": N_("arrow"),
    "fork": N_("fork"),
    "knife": N_("knife"),
    "cheese_to_win": N_("Cheese to win"),
    "out_of_cheese": N_("Mice out of luck"),
    "cat": N_("Cat"),
    "mice": N_("Mice"),
    "players": N_("Players"),
    "cats": N_("Cats"),
    "colours": N_("Colours"),
    "red": N_("red"),
    "blue": N_("blue"),
    "green": N_("green"),
    "yellow": N_("yellow"),
    "cube_model": N_("After a slide"),
    "observed": N_("observed"),
    "cubes": N_("Cubes"),
}
"""Setting names and values as the players read them (English, translated when shown)."""
VALUE_WORDS: dict[tuple[str, str], str] = {
    ("out_of_cheese", "cat"): N_("the cat wins"),
    ("out_of_cheese", "draw"): N_("a draw"),
    ("cube_model", "observed"): N_("as you see it"),
    ("cube_model", "forward"): N_("points the way it slid"),
    ("cube_model", "back"): N_("points back the way it came"),
}
"""A setting's value in words where the value alone would not say it (English, translated)."""
HIDDEN_SETTINGS = frozenset({"board"})
"""Settings that are no rule a family chooses (the board file): not shown on Home."""


def pretty(text: str) -> str:
    """A setting's name or value in the language now in use."""
    if text in PRETTY:
        return _(PRETTY[text])
    return text.replace("_", " ").capitalize()


def value_words(name: str, value: str) -> str:
    """The value of setting ``name`` in words ("the cat wins", not "cat")."""
    if (name, value) in VALUE_WORDS:
        return _(VALUE_WORDS[(name, value)])
    return pretty(value) if value in PRETTY else value.replace("_", " ")


class HomeScreen(Screen):
    game_key = StringProperty("katenmuis")
    settings = DictProperty({})
    roles_mode = StringProperty("pick")
    resume_text = StringProperty("")
    """"Continue Kat en Muis: Anna – Ben": the selected game's newest unfinished one ("": none)."""
    unfinished_count = NumericProperty(0)
    rules_open = BooleanProperty(False)
    """The rules settings shown (one tap on "Change the rules")."""

    def __init__(self, **kwargs: Any) -> None:
        self.name_inputs: dict[str, TextInput] = {}
        self.game_buttons: dict[str, BigToggle] = {}
        self.role_buttons: dict[str, BigToggle] = {}
        self.seat_choices: dict[str, seating.SeatChoice] = {}
        self.unfinished_rows: dict[int, Any] = {}
        """Home's unfinished games: game id -> its row (ui.screens.unfinished.UnfinishedRow)."""
        self._row_keys: dict[int, tuple[int, str, tuple[str, str]]] = {}
        self._rules_ticket = 0
        super().__init__(**kwargs)

    @property
    def app(self) -> Any:
        return App.get_running_app()

    def on_kv_post(self, base_widget: Any) -> None:
        # the rules settings are in the tree only while shown (a hidden, disabled widget would
        # still swallow touches where it lies)
        box = self.ids.rules_box
        self._rules_parts = list(reversed(box.children))
        box.clear_widgets()
        box = self.ids.games
        for key, title in games.titles().items():
            b = BigToggle(text=title, group="game", allow_no_selection=False, size_hint_y=None, height=60)
            b.bind(on_release=lambda btn, k=key: self.select_game(k))
            box.add_widget(b)
            self.game_buttons[key] = b
        self.select_game(self.game_key)

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()

    # -- choices ----------------------------------------------------------------------------

    def select_game(self, key: str) -> None:
        self.game_key = key
        for k, b in self.game_buttons.items():
            b.state = "down" if k == key else "normal"
        try:
            game = games.get(key)
        except (ImportError, AttributeError) as exc:
            self.settings = {}
            self._show_unavailable(_("{game} is not available yet ({error}).").format(
                game=games.titles()[key], error=exc))
            return
        self.settings = dict(game.settings())
        saved = self.app.store.get_setting(f"ui.rules.{key}", None) if self.app else None
        self._build_players(game)
        self._build_settings(key, game)
        self.refresh()
        if isinstance(saved, dict):
            self._check_saved_rules(key, dict(self.settings), saved)

    def _check_saved_rules(self, key: str, defaults: dict[str, Any], saved: dict[str, Any]) -> None:
        """The rules used last time for this game, if still valid: checked on a worker thread (a
        board file they name is read and built there, never on the UI thread, which keeps
        answering) and applied when the answer comes back, unless another game was chosen or a
        setting changed meanwhile. Rules that are not valid leave the defaults shown."""
        self._rules_ticket += 1
        ticket = self._rules_ticket

        def check() -> None:
            try:
                settings = dict(games.make(key, {**defaults, **saved}).settings())
                game = games.make(key, settings)
            except Exception:  # noqa: BLE001 - saved rules that cannot be used: the defaults stay
                return
            Clock.schedule_once(lambda _dt: self._saved_rules_checked(ticket, key, settings, game))

        threading.Thread(target=check, name="rules-check", daemon=True).start()

    def _saved_rules_checked(self, ticket: int, key: str, settings: dict[str, Any], game: Any) -> None:
        if ticket != self._rules_ticket or key != self.game_key:
            return
        self.settings = settings
        typed = self.seats()
        self._build_players(game)
        for role, text in typed.items():
            if role in self.name_inputs and text:
                self.name_inputs[role].text = text
        self._build_settings(key, game)

    def _show_unavailable(self, text: str) -> None:
        self.ids.players.clear_widgets()
        self.ids.rules.clear_widgets()
        self.ids.players.add_widget(TextLabel(text=text, color=theme.MUTED, size_hint_y=None, height=80))
        self.ids.start.disabled = True

    def _build_players(self, game: Any) -> None:
        box = self.ids.players
        box.clear_widgets()
        self.name_inputs = {}
        self.seat_choices = {}
        robots = seating.remembered(self.app, self.game_key)
        remembered = self.app.prefs.last_seats(self.game_key) if self.app else {}
        known = self.app.store.player_names() if self.app else []
        for role in game.players:
            row = BoxLayout(size_hint_y=None, height=52, spacing=6)
            dot = KeyLabel(text=game.player_label(role), font_size=theme.FONT, size_hint_x=None, width=110,
                           color=theme.text_colour(role))
            inp = TextInput(text=remembered.get(role, ""),
                            hint_text=_("{player}'s name").format(player=game.player_label(role)))
            row.add_widget(dot)
            choice = seating.SeatChoice(role, inp, robots.get(role))
            self.seat_choices[role] = choice
            row.add_widget(choice.slot)
            row.add_widget(choice.who)
            if known:
                sp = Spinner(text=_("Names"), values=known, size_hint_x=None, width=100, font_size=theme.FONT_SMALL,
                             background_normal="", background_color=theme.PANEL_HI)
                sp.bind(text=lambda s, v, i=inp: self._pick_name(s, v, i))
                row.add_widget(sp)
                choice.names = sp
                choice.refresh()
            box.add_widget(row)
            self.name_inputs[role] = inp
        if self.game_key == "katenmuis":
            row = BoxLayout(size_hint_y=None, height=52, spacing=6)
            row.add_widget(Label(text=_("Roles"), size_hint_x=None, width=110, color=theme.MUTED))
            for mode, text in (("pick", _("As entered")), ("rolloff", _("Throw for roles"))):
                t = BigToggle(text=text, group="roles", allow_no_selection=False,
                              state="down" if self.roles_mode == mode else "normal")
                t.bind(on_release=lambda b, m=mode: setattr(self, "roles_mode", m))
                row.add_widget(t)
                self.role_buttons[mode] = t
            box.add_widget(row)
        self.ids.start.disabled = False

    def _pick_name(self, spinner: Spinner, value: str, inp: TextInput) -> None:
        if value != _("Names"):
            inp.text = value
            spinner.text = _("Names")

    def _choices(self, key: str, name: str) -> list[str] | None:
        try:
            module = importlib.import_module(games.GAMES[key][0])
            extra = getattr(module, "SETTING_CHOICES", {})
        except ImportError:
            extra = {}
        choices = dict(KNOWN_CHOICES)
        choices.update(extra)
        values = choices.get(name)
        return list(values) if values else None

    def _stepper(self, label: str, value: int, on_step: Any, id_key: str) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=52, spacing=6)
        row.add_widget(TextLabel(text=label, size_hint_x=0.42))
        minus = BigButton(text="-", size_hint_x=None, width=56)
        num = KeyLabel(text=str(value), font_size=theme.FONT_BIG)
        plus = BigButton(text="+", size_hint_x=None, width=56)
        minus.bind(on_release=lambda b: on_step(-1))
        plus.bind(on_release=lambda b: on_step(+1))
        for w in (minus, num, plus):
            row.add_widget(w)
        self.ids[id_key] = num
        return row

    def _build_settings(self, key: str, game: Any = None) -> None:
        box = self.ids.rules
        box.clear_widgets()
        for name, value in self.settings.items():
            if name in HIDDEN_SETTINGS:
                continue
            choices = self._choices(key, name)
            if isinstance(value, dict) and value and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value.values()
            ):
                for sub, v in value.items():
                    box.add_widget(self._stepper(
                        _("{setting}: {part}").format(setting=pretty(name), part=pretty(sub)), v,
                        lambda d, n=name, k=sub: self.step(n, d, k), f"setting_{name}_{sub}",
                    ))
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                box.add_widget(self._stepper(pretty(name), value, lambda d, n=name: self.step(n, d), f"setting_{name}"))
                continue
            row = BoxLayout(size_hint_y=None, height=52, spacing=6)
            row.add_widget(TextLabel(text=pretty(name), size_hint_x=0.42))
            if isinstance(value, bool):
                t = BigToggle(text=_("on") if value else _("off"), state="down" if value else "normal")
                t.bind(on_release=lambda b, n=name: self.set_setting(n, b.state == "down"))
                row.add_widget(t)
            elif choices:
                for c in choices:
                    t = BigToggle(text=value_words(name, str(c)), group=f"set-{name}", allow_no_selection=False,
                                  state="down" if c == value else "normal", font_size=theme.FONT_SMALL)
                    t.bind(on_release=lambda b, n=name, v=c: self.set_setting(n, v))
                    row.add_widget(t)
            elif isinstance(value, list | tuple):
                row.add_widget(TextLabel(text=", ".join(pretty(str(v)) for v in value), color=theme.MUTED))
            else:
                row.add_widget(TextLabel(text=value_words(name, str(value)),
                                         color=theme.MUTED))
            box.add_widget(row)
        self._show_interpretations(game)

    def step(self, name: str, delta: int, sub: str | None = None) -> None:
        if sub is None:
            value: Any = int(self.settings.get(name, 0)) + delta
            if value < 0:
                return
            label_key = f"setting_{name}"
        else:
            value = dict(self.settings[name])
            value[sub] = int(value[sub]) + delta
            if value[sub] < 0:
                return
            label_key = f"setting_{name}_{sub}"
            # a composition with a fixed total (Chop! Chop!'s 38 slabs): the filler type
            # ("crockery", else the largest other) gives or takes the difference
            others = [k for k in value if k != sub]
            filler = "crockery" if "crockery" in others else max(others, key=lambda k: value[k], default=None)
            try:
                games.make(self.game_key, {**self.settings, name: value})
            except (ValueError, TypeError):
                if filler is not None and value[filler] - delta >= 0:
                    value[filler] -= delta
        if not self.set_setting(name, value):
            return
        if sub is None:
            lab = self.ids.get(label_key)
            if lab is not None:
                lab.text = str(self.settings[name])
        else:
            for k, v in self.settings[name].items():
                lab = self.ids.get(f"setting_{name}_{k}")
                if lab is not None:
                    lab.text = str(v)

    def set_setting(self, name: str, value: Any) -> bool:
        self._rules_ticket += 1  # a choice made now wins over saved rules still being checked
        trial = dict(self.settings)
        trial[name] = value
        try:
            game = games.make(self.game_key, trial)
        except (ValueError, TypeError) as exc:
            self.app.toast(str(exc), "bad")
            return False
        before = tuple(self.name_inputs)
        self.settings = trial
        if tuple(game.players) != before:  # e.g. more mice players: new name rows
            typed = self.seats()
            robots = seating.companions(self.seat_choices)
            self._build_players(game)
            for role, text in typed.items():
                if role in self.name_inputs and text:
                    self.name_inputs[role].text = text
            for role, choice in self.seat_choices.items():
                choice.set(robots.get(role))
        self._show_interpretations()
        return True

    def _show_interpretations(self, game: Any = None) -> None:
        try:
            lines = (game or games.make(self.game_key, self.settings)).interpretations()
        except (ValueError, TypeError, ImportError) as exc:
            lines = [_("These settings are not valid: {error}").format(error=exc)]
        self.ids.interpretations.text = "\n".join(f"• {line}" for line in lines) or _("No open points.")

    # -- start / resume ---------------------------------------------------------------------

    def refresh(self) -> None:
        app = self.app
        if app is None:
            return
        from ui.screens.unfinished import UnfinishedRow, describe, seat_names

        unfinished = app.store.unfinished_games()
        self.unfinished_count = len(unfinished)
        # a row is made again only when what it says changed (each choice of game refreshes Home:
        # with many unfinished games, making every row again each time was most of a choice's cost)
        lang = i18n.language()
        wanted = [(record, (record.id, lang, describe(app.store, record))) for record in unfinished]
        if [key for _r, key in wanted] != list(self._row_keys.values()):
            box = self.ids.unfinished
            box.clear_widgets()
            old, made = self.unfinished_rows, self._row_keys
            self.unfinished_rows, self._row_keys = {}, {}
            for record, key in wanted:
                row = old[record.id] if made.get(record.id) == key else \
                    UnfinishedRow(app.store, record, self.continue_game, self.delete_game, key[2])
                box.add_widget(row)
                self.unfinished_rows[record.id] = row
                self._row_keys[record.id] = key
        mine = [g for g in unfinished if g.game == self.game_key]
        if mine:
            g = mine[0]
            title = games.titles().get(g.game, g.game)
            names = " – ".join(seat_names(g))
            self.resume_text = _("Continue {game}: {players}").format(game=title, players=names)
        else:
            self.resume_text = ""

    def continue_game(self, game_id: int) -> None:
        self.app.continue_game(game_id)

    def delete_game(self, game_id: int) -> None:
        """Ask, in words, then delete (the game is kept in the database, marked abandoned)."""
        from ui.screens.unfinished import confirm_delete

        app = self.app
        try:
            record = app.store.game(game_id)
        except StoreError as exc:
            app.toast(str(exc), "bad")
            return

        def delete() -> None:
            try:
                app.store.abandon_game(game_id)
            except StoreError as exc:
                app.toast(str(exc), "bad")
                return
            app.forget_session(game_id)
            app.toast(_("The game was deleted."), "info")
            self.refresh()

        self.confirm_view = confirm_delete(app.store, record, delete)

    def show_rules(self, show: bool = True) -> None:
        self.rules_open = show
        box = self.ids.rules_box
        box.clear_widgets()
        if show:
            for part in self._rules_parts:
                box.add_widget(part)
            Clock.schedule_once(lambda _dt: self.ids.home_scroll.scroll_to(self.ids.rules_box), 0)

    def seats(self) -> dict[str, str]:
        return {role: clean_name(inp.text) for role, inp in self.name_inputs.items()}

    def start(self) -> None:
        """Start a new game; first ask when this game has an unfinished one."""
        from ui.screens.unfinished import ask_new_or_continue

        mine = self.app.store.unfinished_games(self.game_key)
        if mine:
            self.ask_view = ask_new_or_continue(self.app.store, mine[0],
                                                lambda: self.continue_game(mine[0].id), self.start_new)
            return
        self.start_new()

    def start_new(self) -> None:
        seats = self.seats()
        if self.game_key == "katenmuis" and self.roles_mode == "rolloff":
            RollOffView(self, seats).open()
            return
        self.remember_rules()
        robots = seating.companions(self.seat_choices)
        seating.remember(self.app, self.game_key, robots)
        self.app.start_game(self.game_key, seats, dict(self.settings), robots)

    def remember_rules(self) -> None:
        self.app.store.set_setting(f"ui.rules.{self.game_key}", dict(self.settings))

    def resume(self) -> None:
        """Continue the selected game's newest unfinished one."""
        self.app.resume_game(self.game_key)


class RollOffView(ModalView):
    """K1: each player throws both dice; the higher total is Cat; a tie throws again."""

    def __init__(self, home: HomeScreen, seats: dict[str, str]) -> None:
        super().__init__(size_hint=(0.8, 0.85), auto_dismiss=False, background="", background_color=theme.PANEL, overlay_color=(0, 0, 0, 0.75))
        from companion.games.katenmuis import RollOff

        self.home = home
        self.players = [seats.get("cat") or _("Player 1"), seats.get("mouse") or _("Player 2")]
        self.rolloff = RollOff()
        box = BoxLayout(orientation="vertical", padding=16, spacing=10)
        self.title = KeyLabel(text="", size_hint_y=None, height=48)
        self.log = TextLabel(text="", size_hint_y=None, height=48)
        self.log.bind(texture_size=lambda w, ts: setattr(w, "height", max(48, ts[1])))
        self.picker = DicePicker(n_dice=2, size_hint_y=None)
        self.picker.bind(minimum_height=self.picker.setter("height"))
        self.picker.bind(on_throw=lambda _w, v: self.throw(v))
        cancel = BigButton(text=_("Cancel"), size_hint_y=None, height=52)
        cancel.bind(on_release=lambda *_: self.dismiss())
        for w in (self.title, self.log, self.picker, cancel):
            box.add_widget(w)
        self.add_widget(box)
        self._prompt()

    def _prompt(self) -> None:
        who = self.rolloff.next_thrower
        if who is not None:
            self.title.text = _("Roll-off: {player} throws both dice").format(player=self.players[who])

    def throw(self, values: tuple[int, ...]) -> None:
        who = self.players[self.rolloff.next_thrower or 0]
        self.rolloff.throw(values)
        if self.rolloff.cat is not None:
            said = _("{player} throws {total}: {cat} is Cat.")
        elif self.rolloff.pending is not None:
            said = _("{player} throws {total}.")
        else:
            said = _("{player} throws {total} too: a tie, throw again.")
        cat_name = self.players[self.rolloff.cat] if self.rolloff.cat is not None else ""
        self.log.text = said.format(player=who, total=sum(values), cat=cat_name)
        if self.rolloff.cat is not None:
            cat = self.players[self.rolloff.cat]
            mouse = self.players[1 - self.rolloff.cat]
            self.dismiss()
            self.home.app.toast(_("{cat} is Cat and moves first; {mouse} is Mouse.").format(cat=cat, mouse=mouse),
                                "good")
            self.home.remember_rules()
            self.home.app.start_game("katenmuis", {"cat": cat, "mouse": mouse}, dict(self.home.settings))
        else:
            self._prompt()
