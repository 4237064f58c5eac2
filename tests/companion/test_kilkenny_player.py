"""The companion's Kilkenny Cats player: wins when it can, always legal, deterministic, honest hints."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion import players
from companion.games.kilkenny import KilkennyCats, KilkennyState, Move
from companion.players.base import PlayerError
from companion.players.kilkenny import KilkennyPlayer, evaluate


def position(cats: dict[str, str], turn: str, throw: int | None, n: int = 2) -> KilkennyState:
    return KilkennyCats(players=n).state_from_json({"cats": cats, "turn": turn, "throw": throw})


def random_position(n: int, seed: int) -> KilkennyState:
    """A position reached by seeded random play, with a decision due."""
    rng = random.Random(seed)
    game = KilkennyCats(players=n)
    while True:
        state = game.new_state()
        for _ in range(rng.randrange(0, 80)):
            if state.is_over():
                break
            if state.is_chance():
                state.apply(rng.choice([a for a, _p in state.chance_outcomes()]))
            else:
                state.apply(rng.choice(state.legal_actions()))
        while state.is_chance():
            state.apply(rng.choice([a for a, _p in state.chance_outcomes()]))
        if not state.is_over():
            return state


def test_registered_for_kilkenny() -> None:
    game = KilkennyCats()
    assert isinstance(players.make(game, "blue", "strong", 3), KilkennyPlayer)
    with pytest.raises(PlayerError):
        players.make(game, "blue", "expert")


@pytest.mark.parametrize("strength", ["easy", "normal", "strong"])
def test_takes_the_capture_of_the_last_mobile_cat(strength: str) -> None:
    # blue has one cat parked and one that could reach its second mouse with a 6;
    # red's 1 captures it on the diagonal and wins (L5: blue can no longer move)
    state = position({"9,6": "red", "10,2": "red", "12,12": "red", "8,7": "blue", "14,6": "blue"}, "red", 1)
    player = players.make(state.game, "red", strength, 7)
    options = player.analyse(state)
    assert options[0].action == Move("9,6", "8,7")
    assert options[0].win_chance == 1.0
    assert len(options) == len(state.legal_actions()) > 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_takes_the_second_mouse_in_any_seat(n: int) -> None:
    cats = {"-1,6": "red", "3,7": "red", "10,10": "red", "14,6": "blue", "10,7": "blue", "4,4": "blue"}
    for colour, sq in zip(("green", "yellow"), ("6,6", "7,7")):
        cats[sq] = colour
    cats = {sq: c for sq, c in cats.items() if c in KilkennyCats(players=n).players}
    for seat, move in (("red", Move("3,7", "-1,7")), ("blue", Move("10,7", "14,7"))):
        state = position(cats, seat, 4, n)
        for strength in ("easy", "strong"):
            assert players.make(state.game, seat, strength).choose(state) == move


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_choice_is_legal_and_the_position_is_untouched(n: int) -> None:
    for k in range(8):
        state = random_position(n, 1000 * n + k)
        before = state.to_json()
        seat = state.to_move()
        assert seat is not None
        strength = "easy" if k < 4 else ("normal" if k < 6 else "strong")
        choice = players.make(state.game, seat, strength, k).choose(state)
        assert choice in state.legal_actions()
        assert state.to_json() == before


def uncapped(player: players.Player) -> players.Player:
    """The player without its wall-clock cap: the work budget alone decides (a loaded test
    machine must not change the move)."""
    assert isinstance(player, KilkennyPlayer)
    player.level = dataclasses.replace(player.level, cap=1e9)
    return player


def test_deterministic_for_a_seed_and_position() -> None:
    for n in (2, 3):
        state = random_position(n, 77 + n)
        seat = state.to_move()
        assert seat is not None
        first = uncapped(players.make(state.game, seat, "normal", 5)).analyse(state)
        copy = state.game.state_from_json(state.to_json())
        again = uncapped(players.make(state.game, seat, "normal", 5)).analyse(copy)
        assert first == again


def test_analyse_is_best_first_with_chances_in_range() -> None:
    for n, strength in ((2, "easy"), (2, "normal"), (4, "strong")):
        state = random_position(n, 300 + n)
        seat = state.to_move()
        assert seat is not None
        options = players.make(state.game, seat, strength).analyse(state)
        assert {o.action for o in options} == set(state.legal_actions())
        chances = [o.win_chance for o in options if o.win_chance is not None]
        assert chances and options[0].win_chance is not None
        assert all(0.0 <= c <= 1.0 for c in chances)
        assert chances == sorted(chances, reverse=True)
        # the chances known are a prefix: the moves the search did not deepen come last
        known = [o.win_chance is not None for o in options]
        assert known == sorted(known, reverse=True)


def test_evaluation_is_a_distribution_and_sees_a_threat() -> None:
    for n in (2, 3, 4):
        v = evaluate(KilkennyCats(players=n).new_state())
        assert len(v) == n and sum(v) == pytest.approx(1.0)
    # the same material, but blue's cat stands where red's next 3 takes it: red is better off
    threatened = position({"9,6": "red", "10,6": "red", "6,6": "blue", "2,2": "blue"}, "red", None)
    safe = position({"9,6": "red", "10,6": "red", "6,5": "blue", "2,2": "blue"}, "red", None)
    assert evaluate(threatened)[0] > evaluate(safe)[0]


def test_refuses_a_position_where_its_seat_is_not_to_move() -> None:
    state = KilkennyCats().new_state()
    with pytest.raises(PlayerError):
        players.make(state.game, "red").analyse(state)  # a throw is due, not a decision
