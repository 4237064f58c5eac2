"""Kat en Muis engine: one test (or more) per rule K1-K11 of RULES.md section 1."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import games
from companion.boards import load_board
from companion.games.base import CHANCE, IllegalAction
from companion.games.katenmuis import (
    DOUBLE_SQUARES,
    LOSE_TURN_SQUARES,
    SQUARE_NUMBERS,
    THROW_AGAIN_SQUARES,
    DoubleSixForfeit,
    Jumped,
    KatEnMuis,
    KatEnMuisState,
    LosesNextTurn,
    Moved,
    Paid,
    RollOff,
    Shortcut,
    Thrown,
    ThrowsAgain,
    Throw,
    TurnedBack,
    TurnSkipped,
    Won,
    narrate,
    resolve_throw,
)


def pos(
    cat: int = 0,
    mouse: int = 0,
    turn: str = "cat",
    cat_skip: bool = False,
    mouse_skip: bool = False,
    shortcut_from: str = "reached",
) -> KatEnMuisState:
    state = KatEnMuis(shortcut_from=shortcut_from).new_state()
    state.square = {"cat": cat, "mouse": mouse}
    state.turn = turn
    state.skip = {"cat": cat_skip, "mouse": mouse_skip}
    return state


def paid(effects: list[object]) -> list[tuple[str, str, int, str]]:
    return [(e.payer, e.payee, e.amount, e.reason) for e in effects if isinstance(e, Paid)]


def kinds(effects: list[object]) -> list[str]:
    return [type(e).__name__ for e in effects]


# -- K1 roles -----------------------------------------------------------------------------------


def test_K1_higher_total_is_cat_and_tie_throws_again() -> None:
    r = RollOff()
    assert r.next_thrower == 0
    r.throw((3, 4))
    assert r.next_thrower == 1
    assert "tie" in r.throw((5, 2))
    assert r.cat is None and r.next_thrower == 0
    r.throw((1, 2))
    r.throw((6, 1))
    assert r.cat == 1 and r.next_thrower is None
    with pytest.raises(IllegalAction):
        r.throw((1, 1))
    r2 = RollOff()
    r2.throw((6, 6))
    r2.throw((1, 1))
    assert r2.cat == 0


def test_K1_cat_moves_first() -> None:
    state = KatEnMuis().new_state()
    assert state.to_move() == CHANCE
    assert state.current_player() == "cat"


# -- K2 stakes ----------------------------------------------------------------------------------


def test_K2_stakes_in_pots_and_banks() -> None:
    state = KatEnMuis().new_state()
    assert state.bank == {"cat": 25, "mouse": 25}
    assert state.pot == {"cat": 5, "mouse": 5}
    state = KatEnMuis(bank=50, stake=10).new_state()
    assert state.bank == {"cat": 40, "mouse": 40} and state.pots() == 20
    assert state.total_chips() == 100


def test_K2_balances_may_go_below_zero() -> None:
    state = KatEnMuis(bank=2, stake=1).new_state()
    state.square = {"cat": 12, "mouse": 0}
    state.apply(Throw((6, 6)))  # K4: pays 2 from a bank of 1
    assert state.bank == {"cat": -1, "mouse": 3}
    assert state.total_chips() == 4


def test_K2_settings_are_validated() -> None:
    with pytest.raises(ValueError):
        KatEnMuis(shortcut_from="sometimes")
    with pytest.raises(ValueError):
        KatEnMuis(stake=-1)
    assert games.make("katenmuis", {"shortcut_from": "strictly_past"}).settings() == {
        "shortcut_from": "strictly_past",
        "bank": 30,
        "stake": 5,
    }


# -- K3 a turn is one throw ---------------------------------------------------------------------


def test_K3_chance_outcomes_are_the_21_throws_with_exact_odds() -> None:
    outcomes = KatEnMuis().new_state().chance_outcomes()
    assert len(outcomes) == 21
    assert sum(p for _, p in outcomes) == Fraction(1)
    probs = {a.dice: p for a, p in outcomes}  # type: ignore[attr-defined]
    assert probs[(3, 3)] == Fraction(1, 36) and probs[(2, 5)] == Fraction(1, 18)


def test_K3_dice_in_either_order_and_out_of_range() -> None:
    assert Throw((5, 3)) == Throw((3, 5))
    assert Throw((5, 3)).to_json() == {"type": "Throw", "dice": [3, 5]}
    state = KatEnMuis().new_state()
    before = state.to_json()
    with pytest.raises(IllegalAction, match="a die shows 1 to 6, not 7"):
        state.apply(Throw((7, 1)))
    with pytest.raises(IllegalAction, match="not 0"):
        state.apply(Throw((0, 3)))
    with pytest.raises(IllegalAction):
        state.apply(KatEnMuis().action_from_json({"type": "Throw", "dice": [1, 2, 3]}))
    assert state.to_json() == before


def test_K3_one_throw_moves_the_total() -> None:
    state = pos()
    effects = state.apply(Throw((1, 2)))
    assert state.square == {"cat": 3, "mouse": 0}
    assert effects[0] == Thrown("cat", (1, 2))
    assert effects[1] == Moved("cat", 0, 3, (1, 2, 3))
    assert state.current_player() == "mouse"


# -- K4 double six ------------------------------------------------------------------------------


@pytest.mark.parametrize("square", [0, 12, 25, 40, 55])
def test_K4_double_six_up_to_55_pays_two_and_does_not_move(square: int) -> None:
    state = pos(cat=square, mouse=20)
    effects = state.apply(Throw((6, 6)))
    assert state.square["cat"] == square
    assert paid(effects) == [("cat", "mouse", 2, "double six")]
    assert kinds(effects) == ["Thrown", "DoubleSixForfeit", "Paid"]  # no landing effect (25 stays)
    assert state.skip["cat"] is False
    assert state.current_player() == "mouse"


@pytest.mark.parametrize("square", [56, 60, 65])
def test_K4_double_six_past_55_goes_home(square: int) -> None:
    state = pos(cat=square, turn="cat")
    effects = state.apply(Throw((6, 6)))
    assert state.winner == "cat" and state.square["cat"] == 66
    assert Shortcut("cat", 6, 66) in effects


def test_K4_double_six_home_pays_jump_fee_on_the_way() -> None:
    state = pos(cat=56, mouse=6)  # black 6 = red 61
    effects = state.apply(Throw((6, 6)))
    assert paid(effects) == [("cat", "mouse", 1, "jump")]
    assert state.winner == "cat"
    assert state.bank == {"cat": 25 - 1 + 10, "mouse": 26}


def test_K4_mouse_double_six_forfeit() -> None:
    state = pos(cat=3, mouse=30, turn="mouse")
    effects = state.apply(Throw((6, 6)))
    assert paid(effects) == [("mouse", "cat", 2, "double six")]
    assert state.current_player() == "cat"
    assert narrate(effects)[-1] == "Double six before passing 55: Mouse stays on 30 (square G6): pays Cat 2 chips."


# -- K5 shortcuts -------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_K5_reached_boundaries(k: int) -> None:
    low, high = 11 * (k - 1), 11 * k
    assert resolve_throw(low, (k, k), "reached").stop == high
    assert resolve_throw(high - 1, (k, k), "reached").stop == high
    assert resolve_throw(high, (k, k), "reached").stop == high + 2 * k  # counts as its total
    if low > 0:
        assert resolve_throw(low - 1, (k, k), "reached").stop == low - 1 + 2 * k


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_K5_strictly_past_boundaries(k: int) -> None:
    low, high = 11 * (k - 1), 11 * k
    # double 1 goes to 11 from the start under both settings; doubles 2..5 need strictly past low
    assert resolve_throw(low, (k, k), "strictly_past").stop == (high if k == 1 else low + 2 * k)
    assert resolve_throw(low + 1, (k, k), "strictly_past").stop == high
    assert resolve_throw(high - 1, (k, k), "strictly_past").stop == high
    assert resolve_throw(high, (k, k), "strictly_past").stop == high + 2 * k


def test_K5_double_one_from_the_start() -> None:
    state = pos()
    effects = state.apply(Throw((1, 1)))
    assert state.square["cat"] == 11
    assert Shortcut("cat", 1, 11) in effects
    assert paid(effects) == [("mouse", "cat", 2, "square")]  # K8 on 11
    state = pos(shortcut_from="strictly_past")
    effects = state.apply(Throw((1, 1)))
    assert state.square["cat"] == 11  # K5: strictly_past changes doubles 2..5 only
    assert Shortcut("cat", 1, 11) in effects
    assert paid(effects) == [("mouse", "cat", 2, "square")]


@pytest.mark.parametrize("shortcut", ["reached", "strictly_past"])
@pytest.mark.parametrize("start", range(0, 11))
def test_K5_double_one_from_squares_0_to_10_under_both_settings(shortcut: str, start: int) -> None:
    res = resolve_throw(start, (1, 1), shortcut)
    assert (res.stop, res.kind, res.double) == (11, "shortcut", 1)
    assert resolve_throw(11, (1, 1), shortcut).stop == 13  # on 11 itself a double 1 counts 2


def test_K5_mouse_double_one_from_the_start_strictly_past() -> None:
    state = pos(shortcut_from="strictly_past")
    state.apply(Throw((1, 4)))  # Cat to 5: loses the next turn
    effects = state.apply(Throw((1, 1)))
    assert state.square["mouse"] == 11
    assert Shortcut("mouse", 1, 11) in effects
    assert paid(effects) == [("cat", "mouse", 2, "square")]


def test_K5_mouse_shortcut_from_22() -> None:
    state = pos(cat=1, mouse=22, turn="mouse")
    state.apply(Throw((3, 3)))
    assert state.square["mouse"] == 33
    assert state.bank == {"cat": 23, "mouse": 27}


def test_K5_double_five_past_55_counts_its_total_and_can_turn_back() -> None:
    assert resolve_throw(55, (5, 5), "reached").stop == 65
    assert resolve_throw(57, (5, 5), "reached").stop == 48


# -- K6 normal move, turning back at 66 ---------------------------------------------------------


def test_K6_exact_throw_reaches_66() -> None:
    state = pos(cat=61)
    state.apply(Throw((2, 3)))
    assert state.winner == "cat"


def test_K6_beyond_66_goes_to_48() -> None:
    state = pos(cat=62, mouse=0)
    effects = state.apply(Throw((1, 4)))
    assert state.square["cat"] == 48
    assert TurnedBack("cat", 48) in effects
    moved = next(e for e in effects if isinstance(e, Moved))
    assert moved.along == (63, 64, 65, 66, 65, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48)
    assert paid(effects) == []  # 48 has no landing effect


def test_K6_turn_back_pays_jump_fee_on_the_way_back() -> None:
    state = pos(cat=60, mouse=10)  # black 10 = red 57: passed only on the way back
    effects = state.apply(Throw((3, 4)))
    assert state.square["cat"] == 48
    assert paid(effects) == [("cat", "mouse", 1, "jump")]


def test_K6_turn_back_passing_twice_pays_once() -> None:
    state = pos(cat=60, mouse=3)  # black 3 = red 64: passed going up and coming back
    effects = state.apply(Throw((3, 4)))
    assert paid(effects) == [("cat", "mouse", 1, "jump")]


def test_K6_turn_back_over_own_start_square_and_mouse_on_48_is_landing() -> None:
    state = pos(cat=60, mouse=19)  # black 19 = red 48: landing there, not a jump
    effects = state.apply(Throw((3, 4)))
    assert paid(effects) == []
    state = pos(mouse=60, cat=7, turn="mouse")  # red 7 = black 60: passed on the way back
    effects = state.apply(Throw((3, 4)))
    assert paid(effects) == [("mouse", "cat", 1, "jump")]


# -- K7 jumping ---------------------------------------------------------------------------------


def test_K7_jump_fee_cat_over_mouse() -> None:
    state = pos(cat=10, mouse=55)  # black 55 = red 12
    effects = state.apply(Throw((1, 6)))  # 10 -> 17, passing 12
    assert state.square["cat"] == 17
    assert Jumped("cat", "mouse", 12) in effects
    assert paid(effects) == [("cat", "mouse", 1, "jump")]


def test_K7_jump_fee_mouse_over_cat() -> None:
    state = pos(cat=50, mouse=14, turn="mouse")  # red 50 = black 17
    effects = state.apply(Throw((2, 6)))  # 14 -> 22, over 17; 22 earns 2
    assert Jumped("mouse", "cat", 17) in effects
    assert paid(effects) == [("mouse", "cat", 1, "jump"), ("cat", "mouse", 2, "square")]


def test_K7_landing_on_the_same_square_is_no_jump() -> None:
    state = pos(cat=10, mouse=50)  # red 17 = black 50
    effects = state.apply(Throw((3, 4)))  # 10 -> 17
    assert state.square["cat"] == 17
    assert paid(effects) == []
    assert state.board_view() == {"17": "cat+mouse"}


def test_K7_other_counter_at_start_is_not_on_the_track() -> None:
    state = pos(cat=60, mouse=0)
    effects = state.apply(Throw((3, 4)))  # turns back through 66 (black 1), mouse is off track
    assert paid(effects) == []


def test_K7_shortcut_moves_count_as_moves() -> None:
    state = pos(cat=2, mouse=60)  # red 7 = black 60, between 2 and 11
    effects = state.apply(Throw((1, 1)))
    assert paid(effects) == [("cat", "mouse", 1, "jump"), ("mouse", "cat", 2, "square")]


def test_K7_starting_square_is_not_passed() -> None:
    state = pos(cat=10, mouse=57)  # red 10 = black 57, where Cat starts
    effects = state.apply(Throw((1, 2)))
    assert paid(effects) == []


# -- K8 landing effects -------------------------------------------------------------------------

EFFECT_SQUARES = sorted(DOUBLE_SQUARES | SQUARE_NUMBERS | LOSE_TURN_SQUARES | THROW_AGAIN_SQUARES)


@pytest.mark.parametrize("mover", ["cat", "mouse"])
@pytest.mark.parametrize("square", EFFECT_SQUARES)
def test_K8_every_numbered_square(mover: str, square: int) -> None:
    other = "mouse" if mover == "cat" else "cat"
    state = pos(turn=mover)
    state.square[mover] = square - 3
    effects = state.apply(Throw((1, 2)))
    assert state.square[mover] == square
    expected_pay = []
    if square in DOUBLE_SQUARES:
        expected_pay.append((other, mover, 2, "square"))
    if square in SQUARE_NUMBERS:
        expected_pay.append((mover, other, 1, "square number"))
    assert paid(effects) == expected_pay
    assert (LosesNextTurn(mover) in effects) == (square in LOSE_TURN_SQUARES)
    assert state.skip[mover] == (square in LOSE_TURN_SQUARES)
    if square in THROW_AGAIN_SQUARES:
        assert ThrowsAgain(mover) in effects and state.current_player() == mover
    else:
        assert state.current_player() == other
    assert state.total_chips() == 60


def test_K8_plain_square_does_nothing() -> None:
    state = pos(cat=4)
    effects = state.apply(Throw((1, 2)))  # 7
    assert kinds(effects) == ["Thrown", "Moved"]


def test_K8_square_25_pays_and_loses_turn_in_order() -> None:
    state = pos(cat=20)
    effects = state.apply(Throw((1, 4)))
    assert kinds(effects) == ["Thrown", "Moved", "Paid", "LosesNextTurn"]
    assert paid(effects) == [("cat", "mouse", 1, "square number")]
    assert LosesNextTurn("cat") in effects
    assert narrate(effects)[-1] == "Cat lands on 25 (square E6): pays Mouse 1 chip and loses her next turn."
    assert narrate(effects, {"cat": "Anna", "mouse": "Bram"})[-1] == (
        "Anna lands on 25 (square E6): pays Bram 1 chip and loses her next turn."
    )


def test_K8_win_takes_both_pots_and_nothing_else() -> None:
    state = pos(cat=60, mouse=2)  # red 65 = black 2: Cat passes over Mouse then lands on 66
    effects = state.apply(Throw((2, 4)))
    assert kinds(effects) == ["Thrown", "Moved", "Jumped", "Paid", "Won"]
    assert Won("cat", 10) in effects
    assert state.pot == {"cat": 0, "mouse": 0}
    assert state.bank == {"cat": 25 - 1 + 10, "mouse": 26}
    assert narrate(effects)[-1] == "Cat lands on 66 (square K1): wins and takes both pots (10 chips)."


def test_K8_mouse_wins_at_black_66() -> None:
    state = pos(cat=30, mouse=64, turn="mouse")
    state.apply(Throw((1, 1)))  # 64 + 2 (double 1 not in reach) = 66
    assert state.winner == "mouse"
    assert state.outcome() == {
        "winner": "mouse",
        "scores": {"cat": -5, "mouse": 5},
        "banks": {"cat": 25, "mouse": 35},
        "squares": {"cat": 30, "mouse": 66},
    }


def test_K8_narration_mouse_pays_her() -> None:
    state = pos(cat=8)
    effects = state.apply(Throw((1, 2)))  # 11
    assert narrate(effects)[-1] == "Cat lands on 11 (square B5): Mouse pays her 2 chips."


# -- K9 lost turns ------------------------------------------------------------------------------


def test_K9_lost_turn_lets_the_other_throw_twice() -> None:
    state = pos(cat=2)
    effects = state.apply(Throw((1, 2)))  # Cat on 5
    assert state.skip["cat"] is True and state.current_player() == "mouse"
    effects = state.apply(Throw((1, 3)))  # Mouse 4: pays Cat 1
    assert effects[-1] == TurnSkipped("cat")
    assert state.skip["cat"] is False and state.current_player() == "mouse"
    state.apply(Throw((1, 2)))  # Mouse 7
    assert state.current_player() == "cat"


def test_K9_lost_turns_stack_with_extra_throws() -> None:
    state = pos(cat=12, mouse=7)
    state.apply(Throw((1, 2)))  # Cat on 15: loses next turn
    assert state.current_player() == "mouse"
    effects = state.apply(Throw((1, 2)))  # Mouse on 10: throws again
    assert ThrowsAgain("mouse") in effects and state.current_player() == "mouse"
    assert state.skip["cat"] is True
    state.apply(Throw((1, 2)))  # Mouse on 13; Cat's turn is skipped
    assert state.current_player() == "mouse" and state.skip["cat"] is False
    state.apply(Throw((3, 4)))  # Mouse on 20: throws again
    assert state.current_player() == "mouse"
    state.apply(Throw((1, 2)))  # 23
    assert state.current_player() == "cat"


def test_K9_both_lose_a_turn() -> None:
    state = pos(cat=12, mouse=2)
    state.apply(Throw((1, 2)))  # Cat on 15
    effects = state.apply(Throw((1, 2)))  # Mouse on 5; Cat skipped, then Mouse skipped
    assert [e for e in effects if isinstance(e, TurnSkipped)] == [TurnSkipped("cat"), TurnSkipped("mouse")]
    assert state.current_player() == "cat" and state.skip == {"cat": False, "mouse": False}


def test_K9_throw_again_after_a_throw_again() -> None:
    state = pos(cat=4)
    state.apply(Throw((2, 4)))  # 10
    state.apply(Throw((4, 6)))  # 20
    assert state.current_player() == "cat"
    state.apply(Throw((1, 1)))  # 22 (K5 from 11..21 is double 2; double 1 counts 2)
    assert state.square["cat"] == 22 and state.current_player() == "mouse"


# -- K10 order ----------------------------------------------------------------------------------


def test_K10_move_and_jump_fee_before_landing_effects() -> None:
    state = pos(cat=20, mouse=45)  # red 22 = black 45, passed on the way to 25
    effects = state.apply(Throw((2, 3)))
    assert kinds(effects)[:6] == ["Thrown", "Moved", "Jumped", "Paid", "Paid", "LosesNextTurn"]
    assert paid(effects) == [("cat", "mouse", 1, "jump"), ("cat", "mouse", 1, "square number")]
    assert narrate(effects) == [
        "Cat throws 2 and 3.",
        "Cat jumps over Mouse: pays him 1 chip.",
        "Cat lands on 25 (square E6): pays Mouse 1 chip and loses her next turn.",
    ]


# -- K11 end ------------------------------------------------------------------------------------


def test_K11_game_over_takes_no_more_throws() -> None:
    state = pos(cat=64)
    state.apply(Throw((1, 1)))
    assert state.is_over() and state.to_move() is None and state.current_player() is None
    assert state.chance_outcomes() == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(Throw((1, 2)))


# -- JSON, board view, board file ---------------------------------------------------------------


def test_state_json_round_trip() -> None:
    game = KatEnMuis(shortcut_from="strictly_past", bank=20, stake=3)
    state = game.new_state()
    for d in [(1, 4), (2, 2), (6, 6), (3, 5)]:
        state.apply(Throw(d))
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.to_json() == state.to_json()
    with pytest.raises(ValueError):
        game.state_from_json({"square": {}})


def test_board_view_uses_board_file_ids() -> None:
    state = pos(cat=0, mouse=0)
    assert state.board_view() == {"cat-start": "cat", "mouse-start": "mouse"}
    state = pos(cat=3, mouse=1)
    assert state.board_view() == {"3": "cat", "66": "mouse"}
    board = load_board("katenmuis")
    assert set(state.board_view()) <= set(board.squares)


def test_board_file_snakes_eleven_columns_of_six() -> None:
    board = load_board("katenmuis")
    assert board.game == "katenmuis"
    assert {str(k) for k in range(1, 67)} | {"cat-start", "mouse-start"} == set(board.squares)
    assert board.square("1").cell == (0, 0)
    assert board.square("6").cell == (5, 0)
    assert board.square("7").cell == (5, 1)
    assert board.square("12").cell == (0, 1)
    assert board.square("66").cell == (5, 10)
    assert board.square("25").label == "25/42"
    assert [m.id for m in board.markers] == [0, 1, 2, 3]
    xs = [p[0] for s in board.squares.values() for p in s.polygon]
    ys = [p[1] for s in board.squares.values() for p in s.polygon]
    left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
    assert board.width_mm <= 297 and board.height_mm <= 210
    for m in board.markers:  # markers outside the playing area with a 6 mm margin
        mx0, my0, mx1, my1 = m.x_mm, m.y_mm, m.x_mm + m.size_mm, m.y_mm + m.size_mm
        assert m.size_mm == 24
        for s in board.squares.values():
            sx = [p[0] for p in s.polygon]
            sy = [p[1] for p in s.polygon]
            apart = min(sx) >= mx1 + 6 or max(sx) <= mx0 - 6 or min(sy) >= my1 + 6 or max(sy) <= my0 - 6
            assert apart, (m.id, s.id)
    assert (left, top, right, bottom) != (0, 0, 0, 0)


# -- properties ---------------------------------------------------------------------------------

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=60, deadline=None)
@given(
    throws=st.lists(dice, min_size=1, max_size=150),
    shortcut=st.sampled_from(["reached", "strictly_past"]),
    bank=st.integers(0, 40),
    stake=st.integers(0, 10),
)
def test_property_chips_conserved_and_json_round_trips(
    throws: list[tuple[int, int]], shortcut: str, bank: int, stake: int
) -> None:
    game = KatEnMuis(shortcut_from=shortcut, bank=bank, stake=stake)
    state = game.new_state()
    total = state.total_chips()
    for d in throws:
        if state.is_over():
            break
        effects = state.apply(Throw(d))
        assert state.total_chips() == total
        assert state.current_player() is None or not state.skip[state.current_player() or "cat"]
        assert all(0 <= s <= 66 for s in state.square.values())
        assert isinstance(narrate(effects), list)
        assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    if state.is_over():
        assert state.pots() == 0
        outcome = state.outcome()
        assert outcome is not None and sum(outcome["scores"].values()) == 0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shortcut=st.sampled_from(["reached", "strictly_past"]))
def test_property_every_game_from_random_throws_ends(seed: int, shortcut: str) -> None:
    import random

    rng = random.Random(seed)
    state = KatEnMuis(shortcut_from=shortcut).new_state()
    for _ in range(3000):
        if state.is_over():
            break
        state.apply(Throw((rng.randint(1, 6), rng.randint(1, 6))))
    assert state.is_over()
    assert state.square[state.winner or "cat"] == 66


def test_effects_describe_in_plain_words() -> None:
    names = {"cat": "Anna", "mouse": "Bram"}
    assert Paid("mouse", "cat", 2, "square").describe(names) == "Bram pays Anna 2 chips"
    assert LosesNextTurn("cat").describe() == "Cat loses her next turn"
    assert LosesNextTurn("mouse").describe() == "Mouse loses his next turn"
    assert ThrowsAgain("cat").describe(names) == "Anna throws again"
    assert TurnSkipped("mouse").describe() == "Mouse misses this turn"
    assert DoubleSixForfeit("cat", 3).describe() == "Cat throws double six before passing 55 and does not move"
    assert Moved("cat", 3, 8, (4, 5, 6, 7, 8)).describe() == "Cat moves from 3 (square A4) to 8 (square B2)"
    # each counter counts its own numbers: Mouse's 8 is red 59, the same square as printed "59/8"
    assert Moved("mouse", 0, 8, (1, 2, 3, 4, 5, 6, 7, 8)).describe() == "Mouse moves from the start to 8 (square J5)"
    assert KatEnMuis().interpretations()
