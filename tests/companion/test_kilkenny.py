"""Kilkenny Cats: one test per rule id (RULES.md section 3, L1-L5), the edge cases, perft counts."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from companion import games
from companion.boards import load_board
from companion.games.base import CHANCE, IllegalAction
from companion.games.kilkenny import (
    Captured,
    KilkennyCats,
    KilkennyState,
    Move,
    Moved,
    NoMove,
    Parked,
    Thrown,
    Throw,
    Won,
)


def make_state(cats: dict[str, str], turn: str = "red", throw: int | None = None, **settings: Any) -> KilkennyState:
    game = KilkennyCats(**settings)
    return game.state_from_json({"cats": cats, "turn": turn, "throw": throw})


def targets(state: KilkennyState) -> set[tuple[str, str]]:
    return {(a.frm, a.to) for a in state.legal_actions() if isinstance(a, Move)}


# -- setup ---------------------------------------------------------------------------------------


def test_setup_sides_and_start_squares_follow_rules() -> None:
    two = KilkennyCats()
    assert two.players == ("red", "blue")
    assert two.side_of == {"red": "south", "blue": "north"}
    s = two.new_state()
    red = sorted(sq for sq, c in s.cats.items() if c == "red")
    assert red == sorted(f"{r},{c}" for r in (9, 10) for c in range(5, 9))
    blue = sorted(sq for sq, c in s.cats.items() if c == "blue")
    assert blue == sorted(f"{r},{c}" for r in (3, 4) for c in range(5, 9))
    assert two.mice_of["red"] == {"-1,6", "-1,7"} and two.mice_of["blue"] == {"14,6", "14,7"}
    three = KilkennyCats(players=3)
    assert three.side_of == {"red": "south", "blue": "north", "green": "west"}
    assert three.mice_of["green"] == {"6,14", "7,14"}
    four = KilkennyCats(players=4)
    assert four.mice_of["yellow"] == {"6,-1", "7,-1"}
    assert len(four.new_state().cats) == 32
    assert set(four.new_state().board_view().values()) == {f"cat:{c}" for c in four.players}
    assert len(KilkennyCats(cats=3).new_state().cats) == 6
    with pytest.raises(ValueError):
        KilkennyCats(players=5)
    assert games.make("kilkenny", KilkennyCats(players=3, colours=["orange", "purple", "teal"]).settings()).players == (
        "orange", "purple", "teal")


def test_board_file_has_the_mice_and_markers() -> None:
    board = load_board("kilkenny")
    assert len(board.squares) == 14 * 14 + 8
    mice = {sid for sid, sq in board.squares.items() if sq.kind == "mouse"}
    assert mice == {"-1,6", "-1,7", "14,6", "14,7", "6,-1", "7,-1", "6,14", "7,14"}
    assert [m.id for m in board.markers] == [8, 9, 10, 11]
    xs = [p[0] for sq in board.squares.values() for p in sq.polygon]
    ys = [p[1] for sq in board.squares.values() for p in sq.polygon]
    for m in board.markers:
        x0, y0, x1, y1 = m.x_mm, m.y_mm, m.x_mm + m.size_mm, m.y_mm + m.size_mm
        assert x1 + 6 <= min(xs) or x0 - 6 >= max(xs) or y1 + 6 <= min(ys) or y0 - 6 >= max(ys)
        assert 0 <= x0 and x1 <= 297 and 0 <= y0 and y1 <= 210  # A4 landscape


# -- L1 -----------------------------------------------------------------------------------------


def test_L1_throw_then_move_exactly_that_far_in_8_directions() -> None:
    s = make_state({"7,7": "red", "0,0": "blue"})
    assert s.to_move() == CHANCE and s.current_player() == "red"
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == [Throw("red", v) for v in range(1, 7)]
    assert all(p == Fraction(1, 6) for _, p in outcomes) and sum(p for _, p in outcomes) == 1
    assert s.apply(Throw("red", 3)) == [Thrown("red", 3)]
    assert s.to_move() == "red"
    assert set(s.legal_targets("7,7")) == {"4,7", "4,10", "7,10", "10,10", "10,7", "10,4", "7,4", "4,4"}
    effects = s.apply(Move("7,7", "4,10"))
    assert effects == [Moved("red", "7,7", "4,10")]
    assert s.cats == {"4,10": "red", "0,0": "blue"} and s.to_move() == CHANCE and s.turn == "blue"


def test_L1_wrong_colour_die_is_rejected_clearly() -> None:
    s = make_state({"7,7": "red", "0,0": "blue"})
    before = s.to_json()
    with pytest.raises(IllegalAction, match="blue die.*Red's turn"):
        s.apply(Throw("blue", 4))
    with pytest.raises(IllegalAction, match="1 to 6"):
        s.apply(Throw("red", 7))
    with pytest.raises(IllegalAction, match="throw"):
        s.apply(Move("7,7", "4,7"))
    assert s.to_json() == before


def test_L1_wrong_distance_and_crooked_line_are_refused_with_reasons() -> None:
    s = make_state({"7,7": "red", "0,0": "blue"}, throw=3)
    with pytest.raises(IllegalAction, match="threw 3.*2 squares"):
        s.apply(Move("7,7", "5,7"))
    with pytest.raises(IllegalAction, match="not a straight line"):
        s.apply(Move("7,7", "5,8"))
    with pytest.raises(IllegalAction, match="no red cat"):
        s.apply(Move("0,0", "3,0"))
    with pytest.raises(IllegalAction, match="no square"):
        s.apply(Move("7,7", "20,7"))


def test_L1_a_blocked_line() -> None:
    # every square passed over must be empty, whatever colour stands there
    s = make_state({"7,7": "red", "6,7": "red", "7,8": "blue", "0,0": "blue"}, throw=2)
    assert "5,7" not in s.legal_targets("7,7")
    assert "7,9" not in s.legal_targets("7,7")
    with pytest.raises(IllegalAction, match="blocked: a blue cat is on I7"):
        s.apply(Move("7,7", "7,9"))
    with pytest.raises(IllegalAction, match="blocked: a red cat is on H8"):
        s.apply(Move("7,7", "5,7"))
    # a line that would leave the board is no move at all
    edge = make_state({"0,1": "red", "13,13": "blue"}, throw=3)
    assert set(edge.legal_targets("0,1")) == {"3,1", "3,4", "0,4"}


# -- L2 -----------------------------------------------------------------------------------------


def test_L2_a_capture_on_the_last_square_of_a_line() -> None:
    s = make_state({"7,7": "red", "4,4": "blue", "13,13": "blue"}, throw=3)
    assert "4,4" in s.legal_targets("7,7")
    effects = s.apply(Move("7,7", "4,4"))
    assert effects == [Moved("red", "7,7", "4,4"), Captured("red", "blue", "4,4")]
    assert s.cats == {"4,4": "red", "13,13": "blue"}
    assert Captured("red", "blue", "4,4").describe({"red": "Ann", "blue": "Bo"}) == "Ann captures Bo's cat on E10"


def test_L2_one_piece_per_square_never_on_your_own_cat() -> None:
    s = make_state({"7,7": "red", "7,10": "red", "0,0": "blue"}, throw=3)
    assert "7,10" not in s.legal_targets("7,7")
    with pytest.raises(IllegalAction, match="own cats"):
        s.apply(Move("7,7", "7,10"))


# -- L3 -----------------------------------------------------------------------------------------


def test_L3_own_mice_only_by_exact_count() -> None:
    s = make_state({"2,6": "red", "9,9": "red", "12,6": "blue"}, throw=3)
    assert "-1,6" in s.legal_targets("2,6")
    assert "-1,6" not in s.legal_targets("2,6", value=4)
    assert all(not t.startswith("-") for t in s.legal_targets("2,6", 4))  # an overshoot is no move
    effects = s.apply(Move("2,6", "-1,6"))
    assert effects == [Moved("red", "2,6", "-1,6"), Parked("red", "-1,6")]


def test_L3_never_another_colours_mice() -> None:
    s = make_state({"11,6": "red", "2,6": "blue", "6,2": "red"}, throw=3)
    assert "14,6" not in s.legal_targets("11,6")  # blue's mice
    assert "6,-1" not in s.legal_targets("6,2")  # an unused colour's mice in a 2-player game
    with pytest.raises(IllegalAction, match="not a red mouse"):
        s.apply(Move("11,6", "14,6"))
    b = make_state({"0,0": "red", "2,6": "blue"}, turn="blue", throw=3)
    assert "-1,6" not in b.legal_targets("2,6")


def test_L3_diagonal_entry_to_a_mice_square() -> None:
    # a straight diagonal line ending on the mouse outside the edge counts, by exact count
    s = make_state({"2,9": "red", "13,0": "blue"}, throw=3)
    assert "-1,6" in s.legal_targets("2,9")
    s.cats["9,9"] = "red"
    assert s.apply(Move("2,9", "-1,6"))[-1] == Parked("red", "-1,6")
    assert s.cats["-1,6"] == "red"
    east = make_state({"0,0": "red", "3,11": "green", "13,13": "blue"}, turn="green", throw=3, players=3)
    assert "6,14" in east.legal_targets("3,11")  # south-east diagonal into green's mouse
    assert "7,14" not in east.legal_targets("3,11", value=4)


def test_L3_a_parked_cat_never_moves_again() -> None:
    s = make_state({"-1,6": "red", "9,9": "red", "0,0": "blue"}, throw=1)
    assert s.legal_targets("-1,6") == []
    assert all(a.frm == "9,9" for a in s.legal_actions() if isinstance(a, Move))
    with pytest.raises(IllegalAction, match="never moves again"):
        s.apply(Move("-1,6", "0,6"))
    # and a second cat may not land on an occupied mouse
    t = make_state({"-1,6": "red", "1,6": "red", "0,0": "blue"}, throw=2)
    assert "-1,6" not in t.legal_targets("1,6")


# -- L4 -----------------------------------------------------------------------------------------


def test_L4_forced_move_only_moves_are_offered() -> None:
    s = make_state({"13,0": "red", "0,13": "blue"}, throw=6)
    acts = s.legal_actions()
    assert acts and all(isinstance(a, Move) for a in acts)  # no pass while a move exists
    assert set(targets(s)) == {("13,0", "7,0"), ("13,0", "7,6"), ("13,0", "13,6")}


def test_L4_a_player_with_no_legal_move_loses_the_turn() -> None:
    # red's only free cat is boxed in by blue cats; with a 2 every line is blocked at once
    boxed = make_state({"0,0": "red", "-1,6": "red", "0,1": "blue", "1,0": "blue", "1,1": "blue"})
    effects = boxed.apply(Throw("red", 2))
    assert effects == [Thrown("red", 2), NoMove("red", 2)]
    assert boxed.to_move() == CHANCE and boxed.current_player() == "blue"
    assert "loses the turn" in effects[1].describe()
    assert boxed.apply(Throw("blue", 2)) == [Thrown("blue", 2)]


# -- L5 -----------------------------------------------------------------------------------------


def test_L5_first_with_cats_on_both_mice_wins() -> None:
    s = make_state({"-1,6": "red", "3,7": "red", "12,12": "red", "0,0": "blue"}, throw=4)
    effects = s.apply(Move("3,7", "-1,7"))
    assert effects[-1] == Won("red", "mice")
    assert s.is_over() and s.outcome() == {"winner": "red", "scores": {"red": 1, "blue": 0}, "how": "mice"}
    assert s.legal_actions() == [] and s.chance_outcomes() == []
    with pytest.raises(IllegalAction):
        s.apply(Throw("blue", 1))


def test_L5_the_extension_win_last_colour_that_can_move() -> None:
    # blue's last free cat is captured; its other cat is parked: red is the only colour that can move
    s = make_state({"7,7": "red", "4,4": "blue", "14,6": "blue"}, throw=3)
    effects = s.apply(Move("7,7", "4,4"))
    assert effects[-1] == Won("red", "last mobile")
    assert s.outcome() is not None and s.outcome()["winner"] == "red"  # type: ignore[index]


def test_L5_extension_when_the_last_free_cat_parks() -> None:
    s = make_state({"11,6": "blue", "7,7": "red"}, turn="blue", throw=3)
    effects = s.apply(Move("11,6", "14,6"))
    assert effects[-2:] == [Parked("blue", "14,6"), Won("red", "last mobile")]


def test_a_colour_that_cannot_move_is_passed_over() -> None:
    s = make_state({"7,7": "red", "-1,6": "red", "14,6": "blue", "12,1": "green"}, throw=1, players=3)
    s.apply(Move("7,7", "7,8"))
    # blue has only a parked cat: green throws next
    assert s.current_player() == "green"
    with pytest.raises(IllegalAction, match="green"):
        s.apply(Throw("blue", 3))


def test_json_round_trip_and_board_view() -> None:
    g = KilkennyCats(players=4)
    s = g.new_state()
    s.apply(Throw("red", 2))
    back = g.state_from_json(s.to_json())
    assert back == s and back.legal_actions() == s.legal_actions()
    assert s.board_view()["9,5"] == "cat:red"


# -- perft-style counts -------------------------------------------------------------------------


def brute_force_moves(state: KilkennyState, value: int) -> set[tuple[str, str]]:
    """Every (cat, square) pair checked against the rules by plain geometry, independently."""
    game = state.game
    board = load_board("kilkenny")
    cells = {sid: sq.cell for sid, sq in board.squares.items()}
    by_cell = {c: sid for sid, c in cells.items()}
    mice = {sid for sid, sq in board.squares.items() if sq.kind == "mouse"}
    colour = state.turn
    out = set()
    for frm, col in state.cats.items():
        if col != colour or frm in mice:
            continue
        r0, c0 = cells[frm]  # type: ignore[misc]
        for to, cell in cells.items():
            r1, c1 = cell  # type: ignore[misc]
            dr, dc = r1 - r0, c1 - c0
            if (dr, dc) == (0, 0) or not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
                continue
            if max(abs(dr), abs(dc)) != value:
                continue
            sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
            between = [by_cell.get((r0 + k * sr, c0 + k * sc)) for k in range(1, value)]
            if any(b is None or b in mice or b in state.cats for b in between):
                continue
            if state.cats.get(to) == colour:
                continue
            if to in mice and to not in game.mice_of[colour]:
                continue
            out.add((frm, to))
    return out


def _midgame() -> KilkennyState:
    return make_state({
        "9,5": "red", "9,6": "red", "7,6": "red", "2,7": "red", "10,8": "red", "12,2": "red",
        "3,5": "blue", "4,6": "blue", "6,6": "blue", "8,9": "blue", "11,7": "blue", "14,6": "blue",
    })


def _four_player() -> KilkennyState:
    s = KilkennyCats(players=4).new_state()
    for a in (Throw("red", 1), Move("9,5", "8,5"), Throw("blue", 2), Move("4,6", "6,6"),
              Throw("green", 4), Move("5,4", "5,8"), Throw("yellow", 3)):
        s.apply(a)
    return s


PERFT = {
    # (position, throw) -> number of legal moves, pinned; checked against the brute force too
    ("start", 1): 32, ("start", 2): 32, ("start", 3): 32, ("start", 4): 20, ("start", 5): 18, ("start", 6): 6,
    ("midgame", 1): 46, ("midgame", 2): 39, ("midgame", 3): 32, ("midgame", 4): 29, ("midgame", 5): 25,
    ("midgame", 6): 21,
    ("four", 1): 32, ("four", 2): 28, ("four", 3): 25, ("four", 4): 11, ("four", 5): 6, ("four", 6): 1,
}


def _position(name: str) -> KilkennyState:
    if name == "start":
        return KilkennyCats().new_state()
    if name == "midgame":
        return _midgame()
    return _four_player()


@pytest.mark.parametrize(("name", "value"), sorted(PERFT))
def test_perft_counts_match_brute_force_and_pinned_numbers(name: str, value: int) -> None:
    s = _position(name)
    s.throw = value
    assert targets(s) == brute_force_moves(s, value)
    assert len(s.legal_actions()) == PERFT[(name, value)]
