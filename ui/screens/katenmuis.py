"""Kat en Muis: the track with both counters, the chip ledger (banks, pots, transfers as they
happen), lost-turn and throw-again badges, and Cat's live winning chance."""

from __future__ import annotations

import threading
from typing import Any

from kivy.clock import Clock
from kivy.logger import Logger
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.games.base import Effect, State
from companion.i18n import _
from ui import theme
from ui.screens.game import GameScreen


def chips_text(n: int) -> str:
    """A balance as shown: "25", or "owes 3" below zero (RULES.md K2)."""
    return str(n) if n >= 0 else _("owes {chips}").format(chips=-n)


def cat_chance(state: Any) -> float | None:
    """Cat's chance of winning from this position (companion.odds), or None if unavailable."""
    try:
        from companion import odds
    except ImportError:
        return None
    for name in ("cat_win_probability", "win_probability", "cat_wins"):
        fn = getattr(odds, name, None)
        if callable(fn):
            try:
                value = fn(state)
            except Exception:
                return None
            if isinstance(value, dict):
                value = value.get("cat")
            try:
                return float(value)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                return None
    return None


_odds_ready: set[str] = set()
_odds_failed: set[str] = set()
_odds_building: set[str] = set()
_odds_lock = threading.Lock()


def odds_ready(setting: str, then: Any = None) -> bool:
    """Whether Cat's odds table for this ``shortcut_from`` setting is built. If not, build it on a
    worker thread (about a second on a desktop core, several on a Pi: never on the UI thread) and
    call ``then()`` on the UI thread once it is. A build that fails is not retried in this process
    (:func:`odds_failed` says so): the panel says the chance is not available."""
    if setting in _odds_ready or setting in _odds_failed:
        return True
    with _odds_lock:
        if setting in _odds_building:
            return False
        _odds_building.add(setting)

    def build() -> None:
        try:
            from companion import odds

            odds.table(setting)
            _odds_ready.add(setting)
        except Exception:  # noqa: BLE001  (the game goes on without the chance)
            Logger.exception("Kat en Muis: the odds table for %s could not be built", setting)
            _odds_failed.add(setting)
        finally:
            _odds_building.discard(setting)
        if then is not None:
            Clock.schedule_once(lambda _dt: then(), 0)

    threading.Thread(target=build, name="odds-table", daemon=True).start()
    return False


def odds_failed(setting: str) -> bool:
    """Whether building the odds table of this setting failed (see :func:`odds_ready`)."""
    return setting in _odds_failed


class PlayerLedger(BoxLayout):
    """One player's row: name and role, bank, pot, badges."""

    role = StringProperty("")
    name = StringProperty("")
    bank = StringProperty("")
    pot = StringProperty("")
    badge = StringProperty("")
    loses = BooleanProperty(False)
    """The badge says this player loses their next turn (shown in the warning colour)."""
    owes = BooleanProperty(False)
    """The bank is below zero."""
    tint = ColorProperty(list(theme.MUTED))
    ink = ColorProperty(list(theme.TEXT))


class KatEnMuisPanel(BoxLayout):
    odds = StringProperty("")
    transfer = StringProperty("")
    legend = StringProperty("")


class KatEnMuisScreen(GameScreen):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("narration_height", 56)  # the track's squares get the room for "15/" over "52"
        super().__init__(**kwargs)

    def build_panel(self, panel: Any) -> None:
        self.ids.board.min_touch = 0  # nothing to touch on the track: never zoom
        self.ledger = KatEnMuisPanel()
        panel.add_widget(self.ledger)

    def _odds_built(self) -> None:
        if self.session is not None:
            self.refresh_panel(self.session.state)

    def on_session_changed(self) -> None:
        self.ledger.transfer = ""
        self._throws_again = ""

    def on_effects(self, effects: list[Effect]) -> None:
        from companion.games import katenmuis as km

        names = self.session.seats if self.session else {}
        moves = []
        self._throws_again = ""
        for e in effects:
            if isinstance(e, km.Paid):
                moves.append(_("{payer} pays {payee} {chips}").format(
                    payer=names.get(e.payer, e.payer), payee=names.get(e.payee, e.payee), chips=e.amount))
            elif isinstance(e, km.Won):
                moves.append(_("{player} takes the pots: {chips}").format(
                    player=names.get(e.player, e.player), chips=e.pots))
            elif isinstance(e, km.ThrowsAgain):
                self._throws_again = e.player
        self.ledger.transfer = "; ".join(moves)

    def refresh_board(self, state: State) -> None:
        super().refresh_board(state)
        view = self.ids.get("board")
        if view is None or self.board is None:
            return
        from companion.games import katenmuis as km

        player = state.current_player()
        if player is None:
            view.highlights = []
            self.ledger.legend = ""
            return
        self.ledger.legend = _("Dots: where {player} can land").format(player=self.player_name(player))
        game: Any = state.game
        start = getattr(state, "square")[player]
        stops = set()
        for dice in km.THROWS:
            res = km.resolve_throw(start, dice, game.shortcut_from)
            if res.kind != "forfeit":
                stops.add(km.red_square_id(player, res.stop))
        view.highlights = sorted(s for s in stops if s in self.board.squares)

    def refresh_panel(self, state: State) -> None:
        s: Any = state
        if self.session is None:
            return
        rows = {"cat": self.ledger.ids.cat_row, "mouse": self.ledger.ids.mouse_row}
        for role, row in rows.items():
            row.role = self.session.game.player_label(role)
            row.tint = theme.piece_colour(role)
            row.ink = theme.text_colour(role)
            row.name = self.session.name(role)
            row.bank = chips_text(int(s.bank[role]))
            row.owes = int(s.bank[role]) < 0
            row.pot = str(int(s.pot[role]))
            badges = []
            if s.skip.get(role):
                badges.append(_("loses next turn"))
            if getattr(self, "_throws_again", "") == role and not state.is_over():
                badges.append(_("throws again"))
            if s.winner == role:
                badges.append(_("winner"))
            row.badge = " · ".join(badges)
            row.loses = bool(s.skip.get(role))
        setting = str(getattr(state.game, "shortcut_from", "reached"))
        ready = state.is_over() or odds_ready(setting, self._odds_built)
        chance = None if state.is_over() or not ready or odds_failed(setting) else cat_chance(state)
        if state.is_over():
            self.ledger.odds = ""
        elif not ready:
            self.ledger.odds = _("Cat's chance: working it out…")
        elif chance is None:
            self.ledger.odds = _("Cat's chance: not available")
        else:
            self.ledger.odds = _("Cat wins {percent}%").format(percent=f"{chance * 100:.0f}")
        self.ledger.chance = chance
