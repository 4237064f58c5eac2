"""Kilkenny Cats played whole: random games end, and the session's undo/replay agree with live state."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalAction
from companion.games.kilkenny import KilkennyCats, KilkennyState, Move, Throw
from companion.session import Session
from companion.store import Store

CAP = 20_000  # random games measured end within ~2,000 actions; the cap only guards against a cycle


def random_step(state: KilkennyState, rng: random.Random) -> None:
    if state.is_chance():
        outcomes = state.chance_outcomes()
        state.apply(rng.choice(outcomes)[0])
    else:
        state.apply(rng.choice(state.legal_actions()))


def check_invariants(state: KilkennyState) -> None:
    game = state.game
    counts = {p: 0 for p in game.players}
    for sq, colour in state.cats.items():
        counts[colour] += 1
        if sq in game.geometry.mice:
            assert sq in game.mice_of[colour], f"{colour} cat on a foreign mouse {sq}"
    assert all(n <= game.n_cats for n in counts.values())
    if not state.is_over():
        assert state.mobile_cats(state.turn), "the player on turn can move some cat"
        assert len([p for p in game.players if state.mobile_cats(p)]) >= 2


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_games_end_with_a_consistent_winner(seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = KilkennyCats(players=players)
    state = game.new_state()
    steps = 0
    while not state.is_over() and steps < CAP:
        random_step(state, rng)
        steps += 1
        if steps % 97 == 0:
            check_invariants(state)
            assert game.state_from_json(state.to_json()) == state
    assert state.is_over(), f"no end after {CAP} actions"
    check_invariants(state)
    out = state.outcome()
    assert out is not None
    winner = out["winner"]
    if out["how"] == "mice":
        assert all(state.cats.get(m) == winner for m in game.mice_of[winner])
    else:
        assert [p for p in game.players if state.mobile_cats(p)] == [winner]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_session_undo_and_replay_agree_with_the_live_state(tmp_path_factory: pytest.TempPathFactory, seed: int, players: int) -> None:
    rng = random.Random(seed)
    db = tmp_path_factory.mktemp("kk") / "k.db"
    store = Store.open(db)
    session = Session.start(store, "kilkenny", settings={"players": players})
    history = [session.state.clone()]
    for _ in range(120):
        if session.is_over():
            break
        if history[:-1] and rng.random() < 0.15:
            session.undo()
            history.pop()
            assert session.state == history[-1]
            continue
        state = session.state
        assert isinstance(state, KilkennyState)
        if state.is_chance():
            action = rng.choice(state.chance_outcomes())[0]
        else:
            action = rng.choice(state.legal_actions())
        session.apply(action.to_json(), source="test")
        history.append(session.state.clone())
    reopened = Session.load(store, session.game_id)
    assert reopened.state == session.state
    assert [t.action for t in reopened.turns] == [t.action for t in session.turns]
    store.close()


def test_session_resume_undo_and_clear_errors(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "k.db")
    session = Session.start(store, "kilkenny", {"red": "Ann", "blue": "Bo"}, {"players": 2})
    with pytest.raises(IllegalAction, match="blue die"):
        session.apply(Throw("blue", 2), source="camera")
    session.apply(Throw("red", 2), source="camera")
    with pytest.raises(IllegalAction, match="already thrown 2"):
        session.apply(Throw("red", 5), source="camera")
    assert len(store.events(session.game_id)) == 1
    session.apply(Move("9,5", "7,5"))
    store.close()
    store = Store.open(tmp_path / "k.db")
    again = Session.resume(store, "kilkenny")
    assert again is not None and again.state == session.state
    assert again.narrate(again.turns[-1].effects) == ["Ann moves a cat from F5 to F7"]
    assert again.undo() is not None
    assert isinstance(again.state, KilkennyState)
    assert again.state.throw == 2 and again.state.cats["9,5"] == "red"
    store.close()
