"""bench/players.py itself: seeded games, the rows it prints and writes, the Wilson interval.

Tiny runs only (one or two games a row, the cheap baselines, the companion at "easy" once), so
this stays a few seconds whatever the companion's players cost at "strong".
"""

from __future__ import annotations

import math

import pytest

from bench import players as bench
from bench.baselines import GreedyPlayer, RandomPlayer
from companion import games

VERDICTS = {"win", "loss", "draw", "unfinished"}


def check_row(row: dict[str, object], games_a_row: int) -> None:
    assert row["games"] == games_a_row
    wins, draws, unfinished = row["wins"], row["draws"], row["unfinished"]
    assert isinstance(wins, int) and isinstance(draws, int) and isinstance(unfinished, int)
    assert 0 <= wins + draws + unfinished <= games_a_row
    rate = row["win_rate"]
    assert isinstance(rate, float) and 0.0 <= rate <= 1.0 and rate == wins / games_a_row
    lo, hi = row["ci95"]  # type: ignore[misc]
    assert 0.0 <= lo <= rate <= hi <= 1.0
    decisions = row["decisions"]
    assert isinstance(decisions, int) and decisions > 0  # every seat decides in these games
    median, p95 = row["median_ms"], row["p95_ms"]
    assert isinstance(median, float) and isinstance(p95, float)
    assert 0.0 < median <= p95
    line = bench.format_row(row)
    assert str(row["game"]) in line and f"{wins}/{games_a_row}" in line and "median" in line


def test_wilson_interval() -> None:
    assert bench.wilson(0, 0) == (0.0, 1.0)
    lo, hi = bench.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert bench.wilson(0, 10)[0] == 0.0 and bench.wilson(10, 10)[1] == 1.0
    for wins, n in [(0, 3), (1, 3), (7, 40), (40, 40)]:
        lo, hi = bench.wilson(wins, n)
        assert lo <= wins / n <= hi
        assert hi - lo > bench.wilson(wins * 10, n * 10)[1] - bench.wilson(wins * 10, n * 10)[0]  # narrows with n


def test_play_one_is_seeded_and_times_the_subject_only() -> None:
    verdict, times = bench.play_one("chopchop", "cat", "greedy", "random", "-", 3)
    assert verdict in VERDICTS
    assert times and all(t > 0 and math.isfinite(t) for t in times)
    again, times2 = bench.play_one("chopchop", "cat", "greedy", "random", "-", 3)
    assert again == verdict and len(times2) == len(times)  # the same game: as many decisions
    # the companion's own player, at "easy", in the seat measured
    verdict, times = bench.play_one("qubism", "black", "companion", "greedy", "easy", 1)
    assert verdict in VERDICTS and times


def test_run_gives_a_row_per_seat_player_and_opponent(capsys: pytest.CaptureFixture[str]) -> None:
    rows = bench.run(["qubism"], ["easy"], ["random", "greedy"], 2, 5, 1, True)
    players_seen = [(r["seat"], r["player"], r["opponent"]) for r in rows]
    assert players_seen == [
        (seat, player, opp)
        for seat in games.get("qubism").players
        for player, opp in [("random", "random"), ("greedy", "greedy"),
                            ("companion/easy", "random"), ("companion/easy", "greedy")]
    ]
    for row in rows:
        check_row(row, 2)
    printed = capsys.readouterr().out.splitlines()
    assert printed == [bench.format_row(r) for r in rows]


def test_random_baselines_finish_a_game_without_dice() -> None:
    """Qubism has no dice: two position-seeded random players would step back and forth for
    ever; the bench's draw afresh each time, so their games end (and replay from the seed)."""
    results = [bench.play_one("qubism", "white", "random", "random", "-", seed) for seed in range(4)]
    assert [verdict for verdict, _t in results].count("unfinished") == 0
    assert [v for v, _t in results] == [bench.play_one("qubism", "white", "random", "random", "-", s)[0]
                                        for s in range(4)]


def test_baselines_pick_legal_actions() -> None:
    game = games.get("chopchop")
    state = game.new_state()
    for cls in (RandomPlayer, GreedyPlayer):
        player = cls(game, "cat", "normal", 1)
        assert player.choose(state) in state.legal_actions()
    with pytest.raises(SystemExit, match="random or greedy"):
        bench.baseline("minimax", game, "cat", 1)


def test_chopchop_race_model_bounds_and_forks() -> None:
    """bench/chopchop_race.py: the mice win every shuffle when they turn every slab, none when
    the cat does; keeping forks never loses a shuffle that losing them wins; the race is lost
    exactly when the cheese and usable forks left cannot make 10."""
    import random

    from bench import chopchop_race as race
    from tests.companion.chopchop_helpers import position

    tiles = ["cheese"] * 10 + ["fork"] * 4 + ["other"] * 24
    assert all(race.mice_win(random.Random(i), 0.0, tiles, 10, False) for i in range(50))
    assert not any(race.mice_win(random.Random(i), 1.0, tiles, 10, True) for i in range(50))
    for i in range(300):
        lost = race.mice_win(random.Random(i), 0.4, tiles, 10, False)
        kept = race.mice_win(random.Random(i), 0.4, tiles, 10, True)
        assert kept or not lost
    wins = sum(race.mice_win(random.Random(i), 0.4, tiles, 10, False) for i in range(2000))
    kept_wins = sum(race.mice_win(random.Random(i), 0.4, tiles, 10, True) for i in range(2000))
    assert wins < kept_wins  # forks turned with no free face-up cheese do cost games
    assert not race.race_lost(position())
    # five face-up cheese, four forks left: ten can no longer be held
    assert race.race_lost(position(cheese_up=["1,1", "1,2", "4,1", "4,2", "5,6"]))
    assert not race.race_lost(position(cheese_up=["1,1", "1,2", "4,1", "4,2"]))
