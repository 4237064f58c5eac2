"""Every game ends (RULES.md K/C8/L5/Q7): 200 seeded random games of each of the four games, with
random legal actions and every chance outcome drawn by its exact probability, all end within a
bound (with the settings varied by seed). Before C8, a Chop! Chop! game could run forever."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from companion import games
from companion.games.base import CHANCE

SEEDS = range(200)
SETTINGS: dict[str, Callable[[int], dict[str, Any]]] = {
    "katenmuis": lambda seed: {"shortcut_from": ("reached", "strictly_past")[seed % 2]},
    "chopchop": lambda seed: {"mice_players": 1 + seed % 4, "out_of_cheese": ("cat", "draw")[seed // 4 % 2]},
    "kilkenny": lambda seed: {"players": 2 + seed % 3},
    "qubism": lambda seed: {},
}
BOUND = {"katenmuis": 1_000, "chopchop": 3_000, "kilkenny": 10_000, "qubism": 2_000}
"""The most actions (throws, reveals and decisions) a game may take; 200 seeds measured at most
150, 608, 2848 and 292."""


def play(key: str, seed: int) -> tuple[int, Any]:
    rng = random.Random(seed)
    state = games.make(key, SETTINGS[key](seed)).new_state()
    n = 0
    while not state.is_over() and n < BOUND[key]:
        if state.to_move() == CHANCE:
            outs = state.chance_outcomes()
            action = rng.choices([a for a, _ in outs], [float(p) for _, p in outs])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
        n += 1
    return n, state


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(SETTINGS))
def test_seeded_random_games_of_every_kind_end_within_a_bound(key: str) -> None:
    assert set(SETTINGS) == set(games.GAMES)
    endless = []
    for seed in SEEDS:
        n, state = play(key, seed)
        if not state.is_over():
            endless.append(seed)
            continue
        out = state.outcome()
        assert out is not None and not state.legal_actions() and not state.chance_outcomes(), (key, seed)
    assert not endless, f"{key}: seeds {endless} ran past {BOUND[key]} actions"


def test_c8_ends_random_chopchop_games_that_run_out_of_cheese() -> None:
    # most random games end by C8: the cat sits on cheese until too little is left for the mice
    reasons = [play("chopchop", seed)[1].outcome()["reason"] for seed in range(20)]
    assert any(r == "not enough cheese is left" for r in reasons)
