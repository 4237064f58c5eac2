"""The companion's Chop! Chop! player (cat and mice): legal, deterministic, takes what wins."""

from __future__ import annotations

import random

import pytest

from companion import players
from companion.games.base import CHANCE
from companion.games.chopchop import ChopChop, ChopChopState, Move
from companion.players.chopchop import ChopChopPlayer, cat_reach, cat_threat, mice_chance
from tests.companion.chopchop_helpers import position, random_action, rolled


def decision_points(seed: int, mice_players: int, count: int) -> list[ChopChopState]:
    """Positions where a player must choose, from a seeded random game (several games if one
    ends first), every one with more than one legal action where the game offers that."""
    rng = random.Random(seed)
    out: list[ChopChopState] = []
    game = ChopChop(mice_players=mice_players)
    state = game.new_state()
    while len(out) < count:
        if state.is_over():
            state = game.new_state()
        if state.to_move() != CHANCE and len(state.legal_actions()) > 1 and rng.random() < 0.3:
            out.append(state.clone())
        state.apply(random_action(state, rng))
    return out


@pytest.mark.parametrize(("strength", "count"), [("easy", 24), ("normal", 6), ("strong", 2)])
@pytest.mark.parametrize("mice_players", [1, 2])
def test_every_choice_is_legal(strength: str, count: int, mice_players: int) -> None:
    seen: set[str] = set()
    for state in decision_points(7 + mice_players, mice_players, count):
        seat = state.to_move()
        assert seat is not None
        seen.add("cat" if seat == "cat" else "mice")
        player = players.make(state.game, seat, strength, seed=3)
        before = state.to_json()
        action = player.choose(state)
        assert action in state.legal_actions()
        assert state.to_json() == before  # the player decides on copies
    if count >= 6:
        assert seen == {"cat", "mice"}


def test_registry_gives_the_searching_player_for_every_seat() -> None:
    game = ChopChop(mice_players=2)
    for seat in game.players:
        assert isinstance(players.make(game, seat, "easy"), ChopChopPlayer)


def test_same_seed_same_position_same_move_and_analysis() -> None:
    for state in decision_points(21, 1, 4):
        seat = state.to_move()
        assert seat is not None
        a = players.make(state.game, seat, "normal", seed=5).analyse(state)
        b = players.make(state.game, seat, "normal", seed=5).analyse(state.clone())
        assert a == b


def test_analysis_is_best_first_with_chances() -> None:
    for state in decision_points(33, 1, 6):
        seat = state.to_move()
        assert seat is not None
        legal = state.legal_actions()
        for strength in ("easy", "normal"):
            options = players.make(state.game, seat, strength).analyse(state)
            assert sorted(map(str, (o.action for o in options))) == sorted(map(str, legal))
            chances = [o.win_chance for o in options]
            assert all(c is not None and 0.0 <= c <= 1.0 for c in chances)
            if strength == "easy":  # one search depth for all: the chances are in order
                assert chances == sorted(chances, reverse=True)  # type: ignore[type-var]


@pytest.mark.parametrize("strength", ["easy", "normal", "strong"])
def test_cat_takes_a_mouse_in_reach(strength: str) -> None:
    # mouse 1 out on the floor two steps from the cat; the others safe at home (C6)
    state = rolled(position(cat="1,1", mice={"mouse:1": "1,3"}, side="cat"), 2)
    assert Move("cat", "1,3") in state.legal_actions()
    assert players.make(state.game, "cat", strength).choose(state) == Move("cat", "1,3")


@pytest.mark.parametrize("strength", ["easy", "normal", "strong"])
def test_cat_catches_the_last_mouse_and_wins(strength: str) -> None:
    mice: dict[str, str | None] = {"mouse:1": None, "mouse:2": None, "mouse:3": None, "mouse:4": "4,6"}
    state = rolled(position(cat="4,4", mice=mice, side="cat"), 2)
    options = players.make(state.game, "cat", strength).analyse(state)
    assert options[0].action == Move("cat", "4,6")
    assert options[0].win_chance == 1.0


@pytest.mark.parametrize("strength", ["easy", "normal", "strong"])
def test_mice_run_home_with_the_tenth_cheese(strength: str) -> None:
    # ten cheese held, every hole opened: mouse 1 steps into its hole and the mice win (C8)
    mice: dict[str, str | None] = {"mouse:1": "1,3", "mouse:2": "1,6", "mouse:3": "4,6", "mouse:4": "4,1"}
    state = rolled(position(cat="top:2,3", mice=mice, held=10, side="mice"), 1)
    options = players.make(state.game, "mice1", strength).analyse(state)
    assert options[0].action == Move("mouse:1", "0,3")
    assert options[0].win_chance == 1.0
    after = state.clone()
    after.apply(options[0].action)
    assert after.outcome() is not None and after.outcome()["winner"] == "mice1"  # type: ignore[index]


def test_mice_keep_out_of_the_cats_reach() -> None:
    # a throw of 1 with mouse 3 beside the cat: stepping it away (or into its hole) beats
    # leaving it there; the evaluation sees the cat's next throw exactly
    mice: dict[str, str | None] = {"mouse:3": "4,5"}
    state = rolled(position(cat="4,3", mice=mice, side="mice"), 1)
    reach = set().union(*(r for _, r in cat_reach(state)))
    assert "4,5" in reach
    choice = players.make(state.game, "mice1", "normal").choose(state)
    assert isinstance(choice, Move) and choice.piece == "mouse:3"
    after = state.clone()
    after.apply(choice)
    if after.phase == "reveal":
        after.apply(random_action(after, random.Random(0)))
    assert after.mice["mouse:3"] is not None


def test_evaluation_is_a_chance_and_sees_a_lost_race() -> None:
    state = position(cat="top:2,3")
    assert 0.0 < mice_chance(state) < 1.0
    # five face-up cheese and only four forks in the game: the mice can never hold ten
    lost = position(cat="top:2,3", cheese_up=["1,1", "1,2", "4,1", "4,2", "5,6"])
    assert mice_chance(lost) == 0.0


def test_a_seat_that_is_not_to_move_is_refused() -> None:
    state = rolled(position(side="cat"), 2)
    with pytest.raises(players.PlayerError):
        players.make(state.game, "mice1", "easy").choose(state)


@pytest.mark.parametrize("strength", ["easy", "normal", "strong"])
def test_mice_keep_out_of_the_cats_follow_up_reach(strength: str) -> None:
    # the last mouse, on 1,0, throws 1; the cat on 0,4 cannot reach 0,0, 1,1 or 2,0 with its
    # next throw, but a 2 onto the slab at 0,2 then a +2, or a 3 onto 0,1 then a +1 (C5), ends
    # on 1,1: only 0,0 and 2,0 are safe from that turn (without the follow-ups in its
    # evaluation, easy chose 1,1)
    mice: dict[str, str | None] = {"mouse:1": "1,0", "mouse:2": None, "mouse:3": None, "mouse:4": None}
    state = rolled(position(cat="0,4", mice=mice, cleared=["0,0", "1,1", "2,0"]), 1)
    assert {a.to for a in state.legal_actions() if isinstance(a, Move)} == {"0,0", "1,1", "2,0"}
    outcomes = {}
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        direct, _ = cat_threat(after)
        follow, lost = cat_threat(after, follow_ups=True)
        assert isinstance(action, Move)
        outcomes[action.to] = (direct[action.to], follow[action.to], lost)
    assert outcomes["1,1"][0] == 0.0 and outcomes["1,1"][1] > 0.0
    # the cat's 2 or 3 (1/2 + 1/6) times the odds of that follow-up under the slab
    odds = state.reveal_odds()
    assert odds["plus1"] == odds["plus2"]
    assert outcomes["1,1"][1] == pytest.approx((1 / 2 + 1 / 6) * float(odds["plus1"]))
    assert outcomes["0,0"][:2] == (0.0, 0.0) and outcomes["2,0"][:2] == (0.0, 0.0)
    choice = players.make(state.game, "mice1", strength).choose(state)
    assert isinstance(choice, Move) and choice.to in ("0,0", "2,0")
