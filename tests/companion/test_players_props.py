"""The computer players of every game (``companion.players.make``), whatever search each uses.

Written against the registry only, so it covers each game's own player once registered and the
random fallback before that. For every game in ``companion.games.GAMES`` (with several settings:
Chop! Chop! with 1 and 2 mice players, Kilkenny Cats with 2, 3 and 4, Qubism with each cube
model), every seat and every strength, at positions reached by a seeded random walk:

- ``choose(state)`` is one of ``state.legal_actions()``; the same seed gives the same choice,
  also from a new player object;
- ``analyse(state)`` is not empty, its actions are legal and distinct, best first (the winning
  chances it knows do not increase down the list), each chance ``None`` or within [0, 1];
- neither changes the state it is given (``to_json`` before and after).

Cost: the searching players run at "easy" in the hypothesis examples, at "normal" on one fixed
position per seat and at "strong" once per game, so the file stays well under a minute.
A whole seeded game companion against companion (easy) played twice gives the same actions.

Kat en Muis has no decisions at all (RULES.md K3: a turn is a throw and the rules): its seats
get the registry's fallback, which refuses to choose where nobody is to choose.
"""

from __future__ import annotations

import json
import math
import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion import games, players
from companion.games.base import CHANCE, Action, Game, State
from companion.games.qubism import CUBE_MODELS

SETTINGS: dict[str, list[dict[str, Any]]] = {
    "chopchop": [{"mice_players": 1}, {"mice_players": 2}],
    "kilkenny": [{"players": 2}, {"players": 3}, {"players": 4}],
    "qubism": [{"cube_model": m} for m in CUBE_MODELS],
}
"""The settings each game is tried with (a game not named here: its defaults)."""

NO_DECISIONS = frozenset({"katenmuis"})
"""Games in which no player ever chooses (checked by ``test_kat_en_muis_never_asks_a_player``)."""

MAX_PLIES = 1000
"""A whole game companion against companion stops here if it has not ended (still compared)."""


def _label(key: str, cfg: dict[str, Any]) -> str:
    return key + "".join(f"-{v}" for v in cfg.values())


GAME_CASES = [(key, cfg) for key in games.GAMES for cfg in SETTINGS.get(key, [{}])]
DECIDING_CASES = [(key, cfg) for key, cfg in GAME_CASES if key not in NO_DECISIONS]
SEAT_CASES = [
    pytest.param(key, cfg, seat, id=f"{_label(key, cfg)}-{seat}")
    for key, cfg in DECIDING_CASES
    for seat in games.make(key, cfg).players
]


def _key(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def _action_key(action: Action) -> str:
    return json.dumps(action.to_json(), sort_keys=True)


def _chance(state: State, rng: random.Random) -> Action:
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _p in outcomes], [float(p) for _a, p in outcomes])[0]


def walk(game: Game, seed: int, length: int, seat: str) -> State | None:
    """The first position at or after ``length`` random plies where ``seat`` is to choose (the
    last one before the end if the game ends first; ``None`` if ``seat`` never chose)."""
    rng = random.Random(seed)
    state = game.new_state()
    last: State | None = None
    plies = 0
    while (mover := state.to_move()) is not None:
        if mover == seat:
            if plies >= length:
                return state
            last = state.clone()
        if mover == CHANCE:
            action = _chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
        plies += 1
    return last


def check_player(game: Game, state: State, strength: str, seed: int, same_seed_again: bool = False) -> None:
    """Every promise of a player, for the seat to move in ``state``."""
    seat = state.to_move()
    assert seat is not None and seat != CHANCE
    before = _key(state)
    legal = {_action_key(a) for a in state.legal_actions()}

    player = players.make(game, seat, strength, seed)
    choice = player.choose(state)
    assert _key(state) == before, "choose() changed the state it was given"
    assert _action_key(choice) in legal, f"{choice} is not legal in {before}"

    options = players.make(game, seat, strength, seed).analyse(state)
    assert _key(state) == before, "analyse() changed the state it was given"
    assert options, "analyse() gave no option"
    keys = [_action_key(o.action) for o in options]
    assert set(keys) <= legal, f"analyse() gave illegal actions: {sorted(set(keys) - legal)}"
    assert len(set(keys)) == len(keys), "analyse() gave an action twice"
    known = [o.win_chance for o in options if o.win_chance is not None]
    for chance in known:
        assert not math.isnan(chance) and 0.0 <= chance <= 1.0, chance
    assert all(a >= b - 1e-9 for a, b in zip(known, known[1:])), f"not best first: {known}"

    if same_seed_again:
        again = players.make(game, seat, strength, seed).choose(state)
        assert _action_key(again) == _action_key(choice), "the same seed chose differently"
        assert _key(state) == before


# -- Kat en Muis: nothing to choose -------------------------------------------------------------


def test_kat_en_muis_never_asks_a_player() -> None:
    """K3: every turn is a throw and the rules; no state ever waits for a player's choice, so the
    registry's fallback serves its seats and refuses to choose (the companion only throws)."""
    game = games.get("katenmuis")
    for seed in range(10):
        rng = random.Random(seed)
        state = game.new_state()
        for _ in range(5000):
            mover = state.to_move()
            assert mover in (CHANCE, None) and state.legal_actions() == []
            if mover is None:
                break
            state.apply(_chance(state, rng))
        assert state.is_over()
    for seat in game.players:
        for strength in players.STRENGTHS:
            player = players.make(game, seat, strength, 1)
            assert isinstance(player, players.RandomPlayer)
            with pytest.raises(players.PlayerError, match=f"not {seat}'s turn to choose"):
                player.choose(game.new_state())


# -- every deciding game, seat and strength ----------------------------------------------------


@pytest.mark.parametrize(("key", "cfg", "seat"), SEAT_CASES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(0, 90), player_seed=st.integers(0, 2**16))
def test_easy_player_at_random_positions(key: str, cfg: dict[str, Any], seat: str, seed: int, length: int,
                                         player_seed: int) -> None:
    game = games.make(key, cfg)
    state = walk(game, seed, length, seat)
    assume(state is not None)
    assert state is not None
    check_player(game, state, "easy", player_seed, same_seed_again=True)


@pytest.mark.parametrize(("key", "cfg", "seat"), SEAT_CASES)
def test_normal_player_at_a_fixed_position(key: str, cfg: dict[str, Any], seat: str) -> None:
    game = games.make(key, cfg)
    state = walk(game, seed=20261124, length=24, seat=seat)
    assert state is not None, f"{seat} never chose in the walk"
    check_player(game, state, "normal", seed=5)


@pytest.mark.parametrize("key", sorted(games.GAMES.keys() - NO_DECISIONS))
def test_strong_player_once_per_game(key: str) -> None:
    game = games.get(key)
    seat = game.players[-1]
    state = walk(game, seed=7, length=12, seat=seat)
    assert state is not None
    check_player(game, state, "strong", seed=3)


def test_every_strength_has_a_player_for_every_seat() -> None:
    for key, cfg in GAME_CASES:
        game = games.make(key, cfg)
        for seat in game.players:
            for strength in players.STRENGTHS:
                p = players.make(game, seat, strength, 0)
                assert (p.seat, p.strength, p.game) == (seat, strength, game)
        with pytest.raises(players.PlayerError, match="no player"):
            players.make(game, "nobody", "easy")
        with pytest.raises(players.PlayerError, match="easy, normal, strong"):
            players.make(game, game.players[0], "godlike")


# -- the checks catch a player that breaks a promise -------------------------------------------


class _Broken(players.RandomPlayer):
    def analyse(self, state: State) -> list[players.Option]:
        return [players.Option(o.action, 0.5) for o in super().analyse(state)]


class MutatingPlayer(_Broken):
    def choose(self, state: State) -> Action:
        action = super().choose(state)
        state.apply(action)  # decides on the real state instead of a copy
        return action


class IllegalPlayer(_Broken):
    def choose(self, state: State) -> Action:
        from companion.games.qubism import PawnMove

        legal = state.legal_actions()
        return next(PawnMove(sq) for sq in sorted(self.game.geometry.cells) if PawnMove(sq) not in legal)


class UnseededPlayer(_Broken):
    def choose(self, state: State) -> Action:
        return random.SystemRandom().choice(state.legal_actions())


class TwicePlayer(_Broken):
    def analyse(self, state: State) -> list[players.Option]:
        options = super().analyse(state)
        return options + options[:1]


class WorstFirstPlayer(_Broken):
    def analyse(self, state: State) -> list[players.Option]:
        return [players.Option(o.action, i / 100) for i, o in enumerate(super().analyse(state))]


class OverconfidentPlayer(_Broken):
    def analyse(self, state: State) -> list[players.Option]:
        return [players.Option(o.action, 1.5) for o in super().analyse(state)]


@pytest.mark.parametrize(
    ("name", "complaint"),
    [("MutatingPlayer", "changed the state"), ("IllegalPlayer", "is not legal"),
     ("UnseededPlayer", "same seed chose differently"), ("TwicePlayer", "an action twice"),
     ("WorstFirstPlayer", "not best first"), ("OverconfidentPlayer", "1.5")],
)
def test_the_checks_catch_a_broken_player(monkeypatch: pytest.MonkeyPatch, name: str, complaint: str) -> None:
    monkeypatch.setitem(players.PLAYERS, "qubism", (__name__, name))
    game = games.get("qubism")
    state = walk(game, seed=1, length=6, seat="white")
    assert state is not None and len(state.legal_actions()) > 2
    with pytest.raises(AssertionError, match=complaint):
        for seed in range(20):  # a random choice may agree with itself by luck, not 20 times
            check_player(game, state.clone(), "easy", seed, same_seed_again=True)


# -- reproducibility -----------------------------------------------------------------------------


def play_companions(game: Game, seed: int, max_plies: int = MAX_PLIES,
                    budget_s: float | None = None) -> tuple[list[str], State]:
    """A game with the companion (easy) in every seat, chance drawn from ``seed``: to its end,
    or ``max_plies`` actions, or (if given) the first action after ``budget_s`` seconds."""
    seats = {p: players.make(game, p, "easy", seed * 10 + i) for i, p in enumerate(game.players)}
    rng = random.Random(f"chance:{seed}")
    state = game.new_state()
    played: list[str] = []
    end = None if budget_s is None else time.monotonic() + budget_s
    while len(played) < max_plies and (mover := state.to_move()) is not None:
        if end is not None and time.monotonic() > end:
            break
        action = _chance(state, rng) if mover == CHANCE else seats[mover].choose(state)
        played.append(_action_key(action))
        state.apply(action)
    return played, state


@pytest.mark.parametrize("key", sorted(games.GAMES.keys() - NO_DECISIONS))
def test_a_seeded_companion_game_plays_the_same_twice(key: str) -> None:
    """The whole game, unless it runs long (two deterministic players can repeat positions in
    Qubism, which has no dice): then as far as the first run got in its time, both times."""
    game = games.get(key)
    first, end = play_companions(game, 4, budget_s=4.0)
    second, end2 = play_companions(game, 4, max_plies=len(first))
    assert len(first) > 10
    assert first == second
    assert _key(end) == _key(end2)
