"""Exact odds (companion/odds.py) against the real engine: Bellman equations built from the
engine's own apply(), a hand-derived position, and Monte-Carlo games."""

from __future__ import annotations

import math
import random

import pytest

from companion.games.katenmuis import KatEnMuis, KatEnMuisState, Throw
from companion.odds import N_POSITIONS, cat_win_probability, odds_for_state, table


def make(game: KatEnMuis, cat: int, mouse: int, turn: str, cat_skip: bool, mouse_skip: bool) -> KatEnMuisState:
    return KatEnMuisState(
        game,
        square={"cat": cat, "mouse": mouse},
        turn=turn,
        skip={"cat": cat_skip, "mouse": mouse_skip},
        bank={"cat": 0, "mouse": 0},
        pot={"cat": 5, "mouse": 5},
        winner=None,
    )


@pytest.mark.parametrize("shortcut", ["reached", "strictly_past"])
def test_table_satisfies_the_engines_own_equations(shortcut: str) -> None:
    """For sampled positions, one step of the real engine reproduces the table (error < 1e-12)."""
    game = KatEnMuis(shortcut_from=shortcut)
    t = table(shortcut)
    assert t.residual < 1e-12
    rng = random.Random(7)
    for _ in range(600):
        c, m = rng.randrange(66), rng.randrange(66)
        turn = rng.choice(["cat", "mouse"])
        flags = {"cat": False, "mouse": False}
        flags["mouse" if turn == "cat" else "cat"] = rng.random() < 0.5
        state = make(game, c, m, turn, flags["cat"], flags["mouse"])
        win = 0.0
        chips = 0.0
        for action, p in state.chance_outcomes():
            nxt = make(game, c, m, turn, flags["cat"], flags["mouse"])
            nxt.apply(action)
            q = float(p)
            chips += q * (nxt.bank["cat"] - (10 if nxt.winner == "cat" else 0))
            if nxt.winner is not None:
                win += q * (nxt.winner == "cat")
                continue
            args = (nxt.square["cat"], nxt.square["mouse"], nxt.turn, nxt.skip["cat"], nxt.skip["mouse"])
            win += q * t.cat_wins(*args)
            chips += q * t.cat_transfer(*args)
        assert abs(win - t.cat_wins(c, m, turn, flags["cat"], flags["mouse"])) < 1e-12
        assert abs(chips - t.cat_transfer(c, m, turn, flags["cat"], flags["mouse"])) < 1e-11


def test_cat_on_60_to_throw_by_hand() -> None:
    """Cat on 60 throws: total 6 (5/36) or double six past 55 (1/36) wins at once; 2 -> 62 (1/36);
    3 -> 63 (2/36); 4 -> 64 incl. double 2, no shortcut from 60 (3/36); 5 -> 65, loses her next
    turn (4/36); 7..11 incl. double 5 turn back to 48 (20/36)."""
    t = table("reached")
    m = 10
    expected = (
        6 / 36
        + 1 / 36 * t.cat_wins(62, m, "mouse")
        + 2 / 36 * t.cat_wins(63, m, "mouse")
        + 3 / 36 * t.cat_wins(64, m, "mouse")
        + 4 / 36 * t.cat_wins(65, m, "mouse", cat_skips=True)
        + 20 / 36 * t.cat_wins(48, m, "mouse")
    )
    assert t.cat_wins(60, m, "cat") == pytest.approx(expected, abs=1e-14)
    # both on 65 (one step short): only double six wins, anything else turns back to 48
    both = t.cat_wins(65, 65, "cat")
    assert both == pytest.approx(1 / 36 + 35 / 36 * t.cat_wins(48, 65, "mouse"), abs=1e-14)
    # a finished game
    assert t.cat_wins(66, 30) == 1.0 and t.cat_wins(30, 66) == 0.0


def test_lost_turn_is_taken_in_the_key() -> None:
    t = table()
    # Cat to throw but she loses this turn: the same as Mouse to throw with nobody flagged
    assert t.cat_wins(20, 20, "cat", cat_skips=True) == t.cat_wins(20, 20, "mouse")
    # both flagged: both turns are lost, Cat throws
    assert t.cat_wins(20, 20, "cat", True, True) == t.cat_wins(20, 20, "cat")
    assert t.cat_wins(20, 20, "mouse", cat_skips=True) < t.cat_wins(20, 20, "mouse")
    with pytest.raises(ValueError):
        t.cat_wins(70, 0)
    with pytest.raises(ValueError):
        t.cat_wins(0, 0, "dog")


def test_table_is_cached_and_covers_every_position() -> None:
    assert table("reached") is table("reached")
    assert table("reached") is not table("strictly_past")
    assert N_POSITIONS == 66 * 66 * 4
    start = table().odds()
    assert start.cat_wins + start.mouse_wins == pytest.approx(1.0, abs=1e-12)
    assert start.cat_chips + start.mouse_chips == pytest.approx(10.0, abs=1e-9)


def _monte_carlo(game: KatEnMuis, n: int, seed: int, setup: dict[str, object] | None = None) -> tuple[float, float, float]:
    rng = random.Random(seed)
    wins = 0
    gains: list[float] = []
    for _ in range(n):
        state = game.new_state()
        for key, value in (setup or {}).items():
            setattr(state, key, dict(value) if isinstance(value, dict) else value)
        start = state.bank["cat"]
        while state.winner is None:
            state.apply(Throw((rng.randint(1, 6), rng.randint(1, 6))))
        wins += state.winner == "cat"
        gains.append(state.bank["cat"] - start)
    mean = sum(gains) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1))
    return wins / n, mean, sd / math.sqrt(n)


@pytest.mark.parametrize("shortcut", ["reached", "strictly_past"])
def test_monte_carlo_from_the_start_agrees(shortcut: str) -> None:
    game = KatEnMuis(shortcut_from=shortcut)
    n = 10000
    p_mc, gain_mc, gain_se = _monte_carlo(game, n, seed=20261121)
    exact = odds_for_state(game.new_state())
    sigma = math.sqrt(exact.cat_wins * (1 - exact.cat_wins) / n)
    assert abs(p_mc - exact.cat_wins) < 3 * sigma
    assert abs(gain_mc - exact.cat_chips) < 3 * gain_se


def test_monte_carlo_from_a_mid_game_position_agrees() -> None:
    game = KatEnMuis()
    setup = {"square": {"cat": 44, "mouse": 58}, "turn": "mouse", "skip": {"cat": True, "mouse": False}}
    n = 6000
    p_mc, gain_mc, gain_se = _monte_carlo(game, n, seed=5, setup=setup)
    state = game.new_state()
    state.square, state.turn, state.skip = {"cat": 44, "mouse": 58}, "mouse", {"cat": True, "mouse": False}
    exact = odds_for_state(state)
    sigma = math.sqrt(exact.cat_wins * (1 - exact.cat_wins) / n)
    assert abs(p_mc - exact.cat_wins) < 3 * sigma
    assert abs(gain_mc - exact.cat_chips) < 3 * gain_se
    assert 0.05 < exact.cat_wins < 0.6  # a real mid-game position, not a foregone one


def test_cat_win_probability_of_a_live_state() -> None:
    state = KatEnMuis().new_state()
    assert cat_win_probability(state) == table().cat_wins(0, 0, "cat")
    state.apply(Throw((2, 3)))  # Cat on 5: loses her next turn
    assert cat_win_probability(state) == table().cat_wins(5, 0, "mouse", cat_skips=True)
    state.square["cat"] = 61
    state.turn = "cat"
    state.skip["cat"] = False
    state.apply(Throw((2, 3)))
    assert cat_win_probability(state) == 1.0
