"""Chop! Chop! properties (hypothesis), session integration and the golden playthrough."""

from __future__ import annotations

import json
import os
import random
import tempfile
from fractions import Fraction
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import make
from companion.games.base import CHANCE, IllegalAction
from companion.games.chopchop import (
    CAT,
    TILE_TYPES,
    ChopChop,
    ChopChopState,
    Move,
    PlaceCat,
    Reveal,
    Roll,
    mice_cannot_win,
)
from companion.games.chopchop_end import cannot_win_reason
from companion.games.chopchop_tracker import tracker
from companion.session import Session
from companion.store import Store
from tests.companion.chopchop_helpers import keen_action, random_action

GOLDEN = Path(__file__).parent / "golden" / "chopchop_playthrough.json"


def check_invariants(s: ChopChopState) -> None:
    geo = s.geo
    t = tracker(s)
    # tile counts: remaining sums to the slabs still face down = 38 minus the slabs turned
    assert t.contradiction is None
    assert t.face_down == len(geo.slabs) - len(s.revealed)
    assert sum(c.remaining or 0 for c in t.counts.values()) == t.face_down
    assert sum(c.revealed for c in t.counts.values()) + t.face_down == 38
    if t.chance:
        assert sum(p for p in t.chance.values() if p is not None) == 1
    if s.to_move() == CHANCE:
        outs = s.chance_outcomes()
        assert outs and sum(p for _, p in outs) == 1 and all(p >= 0 for _, p in outs)
    elif s.to_move() is not None:
        assert s.legal_actions()
    # C3: nobody stands where it may not
    if s.cat is not None:
        assert s.cat not in geo.under_table and s.cat not in geo.holes and s.cat in geo.board.squares
        if s.cat in s.face_up_cheese:  # only the cat that turned that cheese, sitting on it
            assert (s.cat, "cheese", CAT) in s.revealed
        assert s.cat not in s.face_down or (s.phase == "reveal" and s.piece == CAT)
    where = [sq for sq in s.mice.values() if sq is not None]
    assert len(set(where)) == len(where) and s.cat not in where
    for m, sq in s.mice.items():
        if sq is None:
            continue
        assert sq not in geo.table_top and sq not in s.face_up_cheese
        assert sq not in s.face_down or (s.phase == "reveal" and s.piece == m)
    view = s.board_view()
    assert sum(1 for v in view.values() if v == "cat" or v.startswith("mouse")) == len(where) + (s.cat is not None)


def play(seed: int, mice_players: int, keen: bool, check: bool = True) -> tuple[ChopChopState, list[object]]:
    rng = random.Random(seed)
    game = ChopChop(mice_players=mice_players)
    s = game.new_state()
    actions: list[object] = []
    while not s.is_over():
        a = keen_action(s, rng) if keen else random_action(s, rng)
        s.apply(a)
        actions.append(a)
        if check:
            check_invariants(s)
        assert len(actions) < 20000
    return s, actions


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**9), mice_players=st.integers(1, 4), keen=st.booleans())
def test_random_full_games_keep_invariants_and_end_with_one_winner(seed: int, mice_players: int, keen: bool) -> None:
    s, _ = play(seed, mice_players, keen)
    out = s.outcome()
    assert out is not None and s.to_move() is None and not s.legal_actions() and not s.chance_outcomes()
    scores = out["scores"]
    assert out["side"] in ("cat", "mice")
    assert sum(1 for v in scores.values() if v == 1) == (1 if out["side"] == "cat" else mice_players)
    if out["side"] == "mice":
        assert s.mice_have_won()
    elif out["reason"] == "all the mice are caught":
        assert not s.mice_left()
    else:
        assert mice_cannot_win(out["reason"]) and cannot_win_reason(s) == out["reason"]  # C8


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), steps=st.integers(0, 400))
def test_json_round_trip_and_illegal_actions_change_nothing(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    s = ChopChop(mice_players=2).new_state()
    for _ in range(steps):
        if s.is_over():
            break
        s.apply(random_action(s, rng))
    assert s.game.state_from_json(json.loads(json.dumps(s.to_json()))) == s
    before = s.to_json()
    for bad in (Roll(9), Reveal("spoon"), Move("mouse:1", "top:2,3"), PlaceCat("0,0"), Move("cat", "2,3")):
        try:
            s.apply(bad)
        except IllegalAction as exc:
            assert str(exc)
        assert s.to_json() == before


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**9), steps=st.integers(1, 250), mice_players=st.integers(1, 4))
def test_legal_actions_are_exactly_the_accepted_ones(seed: int, steps: int, mice_players: int) -> None:
    rng = random.Random(seed)
    s = ChopChop(mice_players=mice_players).new_state()
    for _ in range(steps):
        if s.is_over():
            break
        s.apply(random_action(s, rng))
    if s.to_move() in (None, CHANCE):
        return
    for a in s.legal_actions():
        s.clone().apply(a)  # every listed action is accepted
    if s.phase in ("move", "bonus"):
        listed = set(s.legal_actions())
        for piece in s.game.pieces:
            for sq in s.geo.board.squares:
                a = Move(piece, sq, "")
                if a not in listed and not any(isinstance(x, Move) and x.piece == piece and x.to == sq for x in listed):
                    try:
                        s.clone().apply(a)
                        raise AssertionError(f"{a} accepted but not listed")
                    except IllegalAction:
                        pass


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), mice_players=st.integers(1, 4))
def test_session_undo_and_replay_agree_with_live_state(seed: int, mice_players: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp) / "c.db")
        session = Session.start(store, "chopchop", settings={"mice_players": mice_players})
        history: list[dict[str, object]] = [session.state.to_json()]
        for _ in range(150):
            if session.state.is_over():
                break
            if len(history) > 1 and rng.random() < 0.2:
                session.undo()
                history.pop()
                assert session.state.to_json() == history[-1]
            else:
                state = session.state
                assert isinstance(state, ChopChopState)
                session.apply(random_action(state, rng), source="test")
                history.append(session.state.to_json())
        again = Session.load(store, session.game_id)
        assert again.state == session.state
        assert [t.action for t in again.turns] == [t.action for t in session.turns]
        store.close()


def test_session_store_resume_and_undo_across_a_reveal(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    store = Store.open(db)
    session = Session.start(store, "chopchop", {"cat": "Anna", "mice1": "Bram"}, {"mice_players": 1})
    session.apply(PlaceCat("top:2,4"))
    session.apply(Roll(1), source="camera")
    session.apply(Move("mouse:1", "0,2"))
    assert session.state.to_move() == CHANCE
    effects = session.apply(Reveal("cheese"), source="camera")
    assert "Mouse 1 takes the cheese at C6 (mice hold 1)" in session.narrate(effects)
    try:
        session.apply(Reveal("cheese"))
        raise AssertionError("a second reveal was accepted")
    except IllegalAction as exc:
        assert "die must be thrown" in str(exc)
    assert len(store.events(session.game_id)) == 4
    undone = session.undo()
    assert undone is not None and undone.action == Reveal("cheese")
    state = session.state
    assert isinstance(state, ChopChopState)
    assert state.phase == "reveal" and "0,2" in state.face_down and tracker(state).cheese_held == 0
    session.apply(Reveal("knife"))
    store.close()
    with Store.open(db) as store2:
        resumed = Session.resume(store2, "chopchop")
        assert resumed is not None and resumed.state == session.state
        st2 = resumed.state
        assert isinstance(st2, ChopChopState)
        assert tracker(st2).misses_next_turn == ("mice",) and resumed.seats == {"cat": "Anna", "mice1": "Bram"}


def test_a_finished_game_is_recorded_with_its_winner(tmp_path: Path) -> None:
    data = json.loads(GOLDEN.read_text())
    with Store.open(tmp_path / "c.db") as store:
        session = Session.start(store, "chopchop", settings=data["settings"])
        for ev in data["events"]:
            session.apply(ev, source="golden")
        assert session.record.finished is not None
        assert session.record.outcome is not None and session.record.outcome["side"] == data["outcome"]["side"]


def make_golden() -> dict[str, object]:
    """The golden game: a seeded keen game with 2 mice players that the mice win."""
    settings_ = {"mice_players": 2}
    game = make("chopchop", settings_)
    for seed in range(1000):
        rng = random.Random(seed)
        s = game.new_state()
        assert isinstance(s, ChopChopState)
        events = []
        kinds: set[str] = set()
        midway: dict[str, object] = {}
        while not s.is_over():
            a = keen_action(s, rng)
            for e in s.apply(a):
                kinds.add(type(e).__name__)
            events.append(a.to_json())
            if len(events) == 60:
                midway = tracker(s).to_json()
        out = s.outcome()
        wanted = {"Captured", "LosesNextTurn", "TurnSkipped", "ThrowsAgain", "CatOnCheese", "ExtraSteps",
                  "FreeMove", "NoMove", "HoleOpened", "CheeseTaken"}
        if out and out["side"] == "mice" and wanted <= kinds and len(events) < 400:
            return {"settings": settings_, "seed": seed, "events": events, "tracker_after_60": midway,
                    "tracker": tracker(s).to_json(), "outcome": out}
    raise AssertionError("no suitable golden game")


def test_golden_playthrough_events_in_final_tracker_out(tmp_path: Path) -> None:
    if os.environ.get("CHOPCHOP_REGOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(make_golden(), indent=1) + "\n")
    data = json.loads(GOLDEN.read_text())
    with Store.open(tmp_path / "g.db") as store:
        session = Session.start(store, "chopchop", settings=data["settings"])
        for i, ev in enumerate(data["events"], 1):
            session.apply(ev, source="golden")
            if i == 60:
                mid = session.state
                assert isinstance(mid, ChopChopState)
                assert tracker(mid).to_json() == data["tracker_after_60"]
        state = session.state
        assert isinstance(state, ChopChopState)
        assert tracker(state).to_json() == data["tracker"]
        assert state.outcome() == data["outcome"]
    # and the same through the bare engine
    game = make("chopchop", data["settings"])
    s = game.new_state()
    for ev in data["events"]:
        s.apply(game.action_from_json(ev))
    assert isinstance(s, ChopChopState) and tracker(s).to_json() == data["tracker"]


def test_tracker_chance_is_exact_fraction_over_types() -> None:
    s = ChopChop().new_state()
    t = tracker(s)
    assert t.chance == {k: Fraction(n, 38) for k, n in zip(TILE_TYPES, (10, 8, 4, 4, 4, 4, 4))}
