"""Qubism played whole: random games end or reach the cap consistently; session undo/replay.

Qubism can cycle (pawns and cubes can shuttle back and forth forever), so random games run to
a cap; every reached state is checked for consistency (pieces, pool, Q6, a pawn move exists).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalAction
from companion.games.qubism import PawnMove, PlaceCube, Qubism, QubismState, SlideCube, Tip
from companion.session import Session
from companion.store import Store

CAP = 400


def random_step(state: QubismState, rng: random.Random, pawn_bias: float) -> None:
    if state.is_chance():
        state.apply(rng.choice(state.chance_outcomes())[0])
        return
    actions = state.legal_actions()
    pawns = [a for a in actions if isinstance(a, PawnMove)]
    state.apply(rng.choice(pawns if pawns and rng.random() < pawn_bias else actions))


def check_consistent(state: QubismState) -> None:
    game = state.game
    assert state.pool + len(state.cubes) == game.n_cubes
    assert not set(state.pawns.values()) & set(state.cubes)
    assert state.pawns["white"] != state.pawns["black"]
    assert state.cut_off() == []  # Q6 holds in every reached position
    assert all(a in "NESW" or sq == state.tipping for sq, a in state.cubes.items())
    if state.is_over():
        w = state.winner
        assert w is not None and state.pawns[w] in game.goal_of[w]
    elif not state.is_chance():
        assert state.pawn_targets(), "Q6 leaves the mover a pawn move"
        for p in game.players:
            assert state.pawns[p] not in game.goal_of[p]
    assert game.state_from_json(state.to_json()) == state


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    model=st.sampled_from(["observed", "forward", "back"]),
    pawn_bias=st.sampled_from([0.0, 0.3]),
)
def test_random_games_end_or_reach_the_cap_consistently(seed: int, model: str, pawn_bias: float) -> None:
    rng = random.Random(seed)
    state = Qubism(cube_model=model).new_state()
    steps = 0
    while not state.is_over() and steps < CAP:
        random_step(state, rng, pawn_bias)
        steps += 1
        check_consistent(state)
    assert state.is_over() or steps == CAP


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_session_undo_and_replay_agree_with_the_live_state(tmp_path_factory: pytest.TempPathFactory, seed: int) -> None:
    rng = random.Random(seed)
    store = Store.open(tmp_path_factory.mktemp("q") / "q.db")
    session = Session.start(store, "qubism")
    history = [session.state.clone()]
    for _ in range(60):
        if session.is_over():
            break
        if history[:-1] and rng.random() < 0.2:
            session.undo()
            history.pop()
            assert session.state == history[-1]
            continue
        state = session.state
        assert isinstance(state, QubismState)
        action = rng.choice(state.chance_outcomes())[0] if state.is_chance() else rng.choice(state.legal_actions())
        session.apply(action.to_json(), source="test")
        history.append(session.state.clone())
    reopened = Session.load(store, session.game_id)
    assert reopened.state == session.state
    assert [t.action for t in reopened.turns] == [t.action for t in session.turns]
    store.close()


def test_session_stores_resumes_and_undoes_a_slide_and_its_tip(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "q.db")
    session = Session.start(store, "qubism", {"white": "Ann", "black": "Bo"})
    session.apply(PlaceCube("2,0", "E"))
    with pytest.raises(IllegalAction, match="wall|not empty|off the board"):
        session.apply(PlaceCube("0,3", "W"))  # points at Black's pawn
    session.apply(SlideCube("2,0", 2))
    session.apply(Tip("2,2", "N"), source="camera")
    assert session.narrate(session.turns[-1].effects) == ["the cube on C3 now points north"]
    store.close()
    store = Store.open(tmp_path / "q.db")
    again = Session.resume(store, "qubism")
    assert again is not None and again.state == session.state
    again.undo()
    assert isinstance(again.state, QubismState)
    assert again.state.tipping == "2,2" and again.state.current_player() == "black"
    again.undo()
    assert again.state.to_move() == "black" and again.state.cubes == {"2,0": "E"}
    store.close()


def test_a_full_game_finishes_in_the_store(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "q.db")
    session = Session.start(store, "qubism")
    for to in ["3,2", "1,2", "3,1", "2,2", "2,1", "3,2", "1,1", "3,3", "0,1"]:
        session.apply(PawnMove(to))
    assert session.is_over()
    assert store.game(session.game_id).outcome == {"winner": "white", "scores": {"white": 1, "black": 0}}
    store.close()
