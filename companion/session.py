"""The session: the single writer of one game.

Inputs (a die reading, a touch, a button, a camera observation) become actions. An action is
first tried on a copy of the state (an illegal one raises :class:`IllegalAction` and nothing is
stored), then appended to the store (durable), and only then becomes the live state and is
acknowledged to listeners. The live state is always the replay of the event log: undo appends
an ``undo`` event that cancels the latest action still in force.

Every front end (the Kivy app, the terminal, scripts) drives this class; it is not thread-safe
by design: other threads hand their inputs to the UI thread first (see ``ui.bridge``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion import games
from companion.games.base import CHANCE, Action, Effect, Game, IllegalAction, State
from companion.players import STRENGTHS
from companion.store import DamagedGame, EventRecord, GameRecord, Store

__all__ = ["COMPANION_SOURCE", "Session", "Turn", "SessionEvent", "replay", "IllegalAction"]

COMPANION_SOURCE = "companion"
"""The source of an action the companion decided (and a person confirmed on the board)."""


@dataclass(frozen=True)
class Turn:
    """One action in force, with who made it and what it did."""

    seq: int
    action: Action
    effects: tuple[Effect, ...]
    player: str | None
    """The player on move before the action (``"chance"`` for throws and reveals)."""
    turn_player: str | None
    """Whose turn it was (``State.current_player()``: the thrower for a throw)."""
    source: str
    t: float


@dataclass(frozen=True)
class SessionEvent:
    """What listeners receive after every change."""

    kind: str
    """``"applied"``, ``"undone"`` or ``"finished"``."""
    state: State
    turn: Turn | None = None
    effects: tuple[Effect, ...] = field(default_factory=tuple)


Listener = Callable[[SessionEvent], None]


def _action(game: Game, action: Action | Mapping[str, Any]) -> Action:
    if isinstance(action, Action):
        return action
    return game.action_from_json(action)


def replay(game: Game, events: list[EventRecord]) -> tuple[State, list[Turn]]:
    """The state and the turns in force after a sequence of stored events."""
    stack: list[EventRecord] = []
    for ev in events:
        if ev.kind == "action":
            stack.append(ev)
        elif ev.kind == "undo" and stack:
            stack.pop()
    state = game.new_state()
    turns: list[Turn] = []
    for ev in stack:
        if state.is_over():  # the rules now end the game earlier than when it was stored (C8)
            break
        action = game.action_from_json(ev.payload)
        mover, thrower = state.to_move(), state.current_player()
        effects = state.apply(action)
        turns.append(Turn(ev.seq, action, tuple(effects), mover, thrower, ev.source, ev.t))
    return state, turns


class Session:
    """A game in progress (or finished), backed by the store."""

    def __init__(self, store: Store, record: GameRecord) -> None:
        """Raises :class:`~companion.store.DamagedGame` (noted in ``store.damaged``) when the
        game's rows cannot be replayed: an unknown game, bad settings, a companion strength this
        program does not know, or an event the rules cannot apply."""
        self.store = store
        self.record = record
        try:
            for strength in record.companions.values():
                if strength not in STRENGTHS:
                    raise ValueError(f"unknown companion strength {strength!r}")
            self.game: Game = games.make(record.game, record.settings)
            self.state, self.turns = replay(self.game, store.events(record.id))
        except DamagedGame:
            raise
        except Exception as exc:  # any damage in stored rows; the other games stay usable
            raise store.damaged_game(record.id, exc) from None
        self._listeners: list[Listener] = []
        if store.readonly or self.state.is_over() == (record.finished is not None):
            return
        # saved by an older version that was killed between the winning move (or the undo of
        # it) and the game's end (or reopening), two transactions then: made right here
        if self.state.is_over():
            store.finish_game(record.id, self.state.outcome() or {"winner": None, "scores": {}})
        else:
            store.reopen_game(record.id)
        self.record = store.game(record.id)

    # -- starting and resuming --------------------------------------------------------------

    @classmethod
    def start(
        cls,
        store: Store,
        game_key: str,
        seats: Mapping[str, str] | None = None,
        settings: Mapping[str, Any] | None = None,
        companions: Mapping[str, str] | None = None,
    ) -> Session:
        """A new game. ``seats`` maps the game's player ids to names (defaults: the labels);
        ``companions`` maps the player ids the companion plays to its strength (``"easy"``,
        ``"normal"`` or ``"strong"``, see :data:`companion.players.STRENGTHS`); people play
        the others."""
        game = games.make(game_key, settings)
        names = {p: game.player_label(p) for p in game.players}
        for role, name in (seats or {}).items():
            if role not in names:
                raise ValueError(f"{game.title} has no player {role!r}; players: {', '.join(names)}")
            if name.strip():
                names[role] = name
        robots = dict(companions or {})
        for role, strength in robots.items():
            if role not in names:
                raise ValueError(f"{game.title} has no player {role!r}; players: {', '.join(names)}")
            if strength not in STRENGTHS:
                raise ValueError(f"the companion's strength is one of {', '.join(STRENGTHS)}, not {strength!r}")
        gid = store.create_game(game_key, game.settings(), names, robots)
        return cls(store, store.game(gid))

    @classmethod
    def resume(cls, store: Store, game_key: str | None = None) -> Session | None:
        """The newest unfinished game (of that game) that can be read, or ``None``; damaged
        ones are skipped (and noted in ``store.damaged``)."""
        for record in store.unfinished_games(game_key):
            try:
                session = cls(store, record)
            except DamagedGame:
                continue
            if session.record.finished is None:  # (else it was over: recorded just now)
                return session
        return None

    @classmethod
    def load(cls, store: Store, game_id: int) -> Session:
        return cls(store, store.game(game_id))

    # -- reading ----------------------------------------------------------------------------

    @property
    def game_id(self) -> int:
        return self.record.id

    @property
    def seats(self) -> dict[str, str]:
        """player id -> name"""
        return dict(self.record.seats)

    @property
    def companions(self) -> dict[str, str]:
        """player id -> strength, for the seats the companion plays"""
        return dict(self.record.companions)

    def is_companion(self, player: str | None) -> bool:
        """Whether the companion plays ``player`` (a player id; ``None`` and chance: no)."""
        return player is not None and player in self.record.companions

    def by_companion(self, turn: Turn) -> bool:
        """Whether ``turn`` was the companion's: an action it made (source ``"companion"``), or
        a throw or reveal in one of its turns, whoever entered it."""
        if turn.source == COMPANION_SOURCE:
            return True
        return turn.player == CHANCE and self.is_companion(turn.turn_player)

    def name(self, player: str | None) -> str:
        if player is None:
            return "nobody"
        return self.record.seats.get(player, self.game.player_label(player))

    def is_over(self) -> bool:
        return self.state.is_over()

    def can_undo(self) -> bool:
        return bool(self.turns)

    def narrate(self, effects: tuple[Effect, ...] | list[Effect]) -> list[str]:
        return self.game.narrate(list(effects), self.record.seats)

    # -- listeners --------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` after every change; returns a function that unsubscribes."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def _notify(self, event: SessionEvent) -> None:
        for listener in list(self._listeners):
            listener(event)

    # -- writing ----------------------------------------------------------------------------

    def apply(self, action: Action | Mapping[str, Any], source: str = "touch") -> list[Effect]:
        """Apply an action or chance outcome: validated, stored durably, then acknowledged.

        Raises :class:`IllegalAction` (nothing stored) when the rules do not allow it, and
        :class:`~companion.store.StoreError` (nothing applied) when it cannot be saved.
        """
        act = _action(self.game, action)
        if self.state.is_over():
            raise IllegalAction("the game is over; undo the last move or start a new game")
        trial = self.state.clone()
        mover, thrower = trial.to_move(), trial.current_player()
        effects = trial.apply(act)
        outcome = (trial.outcome() or {"winner": None, "scores": {}}) if trial.is_over() else None
        # the move and the game's end: one transaction
        seq = self.store.append_event(self.game_id, "action", act.to_json(), source, finish=outcome)
        self.state = trial
        turn = Turn(seq, act, tuple(effects), mover, thrower, source, time.time())
        self.turns.append(turn)
        if outcome is not None:
            self.record = self.store.game(self.game_id)
        self._notify(SessionEvent("applied", self.state, turn, turn.effects))
        if outcome is not None:
            self._notify(SessionEvent("finished", self.state, turn, turn.effects))
        return effects

    def undo(self, source: str = "touch") -> Turn | None:
        """Cancel the latest action in force; returns it, or ``None`` when there is none."""
        if not self.turns:
            return None
        was_over = self.state.is_over()
        # the undo and the game's reopening: one transaction
        self.store.append_event(self.game_id, "undo", {}, source, reopen=was_over)
        undone = self.turns[-1]
        self.state, self.turns = replay(self.game, self.store.events(self.game_id))
        if was_over:
            self.record = self.store.game(self.game_id)
        self._notify(SessionEvent("undone", self.state, undone, ()))
        return undone

    def undo_to_human(self, source: str = "touch") -> list[Turn]:
        """Undo back to the last decision a person made: the companion's actions (and the
        throws and reveals in its turns) after it, and that action itself. Returns the undone
        turns, latest first; empty when there was nothing to undo."""
        undone: list[Turn] = []
        while self.turns and self.by_companion(self.turns[-1]):
            turn = self.undo(source)
            assert turn is not None
            undone.append(turn)
        turn = self.undo(source)
        if turn is not None:
            undone.append(turn)
        return undone

    def abandon(self) -> None:
        self.store.abandon_game(self.game_id)

    # -- export -----------------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The whole game as JSON: game, settings, seats, the turns in force, the outcome."""
        return {
            "id": self.game_id,
            "game": self.record.game,
            "title": self.game.title,
            "settings": self.game.settings(),
            "seats": self.seats,
            "companions": self.companions,
            "created": self.record.created,
            "finished": self.record.finished,
            "outcome": self.state.outcome(),
            "turns": [
                {
                    "seq": t.seq,
                    "player": t.turn_player if t.player == CHANCE else t.player,
                    "action": t.action.to_json(),
                    "source": t.source,
                    "t": t.t,
                    "narration": self.narrate(t.effects),
                }
                for t in self.turns
            ],
            "final_state": self.state.to_json(),
        }
