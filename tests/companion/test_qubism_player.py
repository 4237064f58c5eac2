"""The companion's Qubism player (companion/players/qubism.py): tactics, legality, determinism."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.baselines import GreedyPlayer
from companion import players
from companion.games.base import Action
from companion.games.qubism import PawnMove, PlaceCube, Qubism, QubismState
from companion.players.qubism import LEVELS, QubismPlayer
from tests.companion.qubism_helpers import make_state


def after(state: QubismState, action: Action) -> list[QubismState]:
    """The positions ``action`` can lead to (one per observed arrow after a slide)."""
    s = state.clone()
    s.apply(action)
    if not s.is_chance():
        return [s]
    outs = []
    for tip, _p in s.chance_outcomes():
        t = s.clone()
        t.apply(tip)
        outs.append(t)
    return outs


def wins_now(state: QubismState) -> bool:
    """Whether the side to move can put its pawn home this turn."""
    goal = state.game.goal_of[state.turn]
    return any(isinstance(a, PawnMove) and a.to in goal for a in state.legal_actions())


def random_position(seed: int, plies: int, **settings: Any) -> QubismState:
    rng = random.Random(seed)
    state = Qubism(**settings).new_state()
    for _ in range(plies):
        if state.is_chance():
            state.apply(rng.choice(state.chance_outcomes())[0])
            continue
        actions = state.legal_actions()
        non_winning = [a for a in actions if not (isinstance(a, PawnMove) and a.to in state.game.goal_of[state.turn])]
        state.apply(rng.choice(non_winning or actions))
        if state.is_over():
            break
    while state.is_chance():
        state.apply(rng.choice(state.chance_outcomes())[0])
    return state


def test_registered_for_qubism() -> None:
    game = Qubism()
    for strength in ("easy", "normal", "strong"):
        assert isinstance(players.make(game, "white", strength, 1), QubismPlayer)


@pytest.mark.parametrize("strength", ["normal", "strong"])
def test_takes_an_immediate_win(strength: str) -> None:
    # White on 1,1 steps home; the cubes and Black invite anything else (Black is also one step away).
    state = make_state("1,1", "3,3", {"2,2": "E", "3,1": "N"})
    player = QubismPlayer(state.game, "white", strength, seed=5)
    action = player.choose(state)
    assert isinstance(action, PawnMove) and action.to in state.game.goal_of["white"]
    options = player.analyse(state)
    assert options[0].action == action
    assert options[0].win_chance == 1.0  # a proven win


@pytest.mark.parametrize("strength", ["normal", "strong"])
def test_blocks_an_immediate_loss(strength: str) -> None:
    # Black on 3,2 is one step from 4,2 and White two steps from row 0: only a cube on 4,2
    # (arrow E, the only free square beside it) stops Black, and then White wins the race.
    cubes = {"4,1": "W", "3,3": "N"}
    state = make_state("2,0", "3,2", cubes)
    assert wins_now(make_state("2,0", "3,2", cubes, turn="black"))
    player = QubismPlayer(state.game, "white", strength, seed=2)
    action = player.choose(state)
    assert action == PlaceCube("4,2", "E")
    assert not any(wins_now(s) for s in after(state, action))


@pytest.mark.parametrize("seat,turn", [("white", "white"), ("black", "black")])
def test_never_chooses_a_placement_that_cuts_off_a_pawn(seat: str, turn: str) -> None:
    # Row 2 is walled but for 2,2: a cube there would end the race for both, and is illegal (Q6).
    cubes = {"2,0": "E", "2,1": "N", "2,3": "S", "2,4": "W"}
    state = make_state("3,2", "1,2", cubes, turn=turn)
    assert state.cut_off(set(cubes) | {"2,2"}) == ["white", "black"]
    for strength in ("easy", "normal", "strong"):
        action = QubismPlayer(state.game, seat, strength, seed=9).choose(state)
        assert action in state.legal_actions()
        assert not (isinstance(action, PlaceCube) and action.square == "2,2")
        assert all(s.cut_off() == [] for s in after(state, action))


@pytest.mark.parametrize("strength", ["easy", "normal", "strong"])
def test_deterministic_for_a_seed(strength: str) -> None:
    state = random_position(11, 8)
    seat = state.turn
    first = QubismPlayer(state.game, seat, strength, seed=4).analyse(state.clone())
    again = QubismPlayer(state.game, seat, strength, seed=4).analyse(state.clone())
    assert first == again
    assert QubismPlayer(state.game, seat, strength, seed=4).choose(state) == first[0].action


def test_analyse_best_first_with_chances() -> None:
    state = random_position(3, 6)
    seat = state.turn
    snapshot = state.to_json()
    player = QubismPlayer(state.game, seat, "normal", seed=1)
    options = player.analyse(state)
    assert state.to_json() == snapshot  # decided on copies
    legal = state.legal_actions()
    assert sorted(map(repr, (o.action for o in options))) == sorted(map(repr, legal))
    assert options[0].action == QubismPlayer(state.game, seat, "normal", seed=1).choose(state)
    chances = [o.win_chance for o in options]
    assert chances[0] is not None
    assert sum(c is not None for c in chances) == 1 + LEVELS["normal"].alternatives
    assert all(0.0 <= c <= 1.0 for c in chances if c is not None)


@pytest.mark.parametrize("seed,plies,model", [(1, 4, "observed"), (2, 12, "observed"), (3, 20, "forward"),
                                               (4, 9, "back")])
def test_every_strength_plays_legal_moves(seed: int, plies: int, model: str) -> None:
    state = random_position(seed, plies, cube_model=model)
    if state.is_over():
        pytest.skip("the random game ended")
    for strength in ("easy", "normal", "strong"):
        player = QubismPlayer(state.game, state.turn, strength, seed=seed)
        assert player.choose(state) in state.legal_actions()


def test_easy_is_quick_and_shallow() -> None:
    state = random_position(5, 6)
    player = QubismPlayer(state.game, state.turn, "easy", seed=0)
    player.choose(state)
    assert player.last_depth == 1
    strong = QubismPlayer(state.game, state.turn, "strong", seed=0)
    strong.choose(state)
    assert strong.last_depth >= 3


def test_normal_walks_home_against_the_greedy_baseline() -> None:
    game = Qubism()
    me = QubismPlayer(game, "black", "normal", seed=1)
    greedy = GreedyPlayer(game, "white", "normal", seed=1)
    rng = random.Random(1)
    state = game.new_state()
    for _ in range(200):
        if state.is_over():
            break
        if state.is_chance():
            state.apply(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply((me if state.turn == "black" else greedy).choose(state))
    assert state.winner == "black"
