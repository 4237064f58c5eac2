"""Qubism: one test per rule id (RULES.md section 4, Q1-Q7), the edge cases, perft counts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion import games
from companion.boards import load_board
from companion.games.base import CHANCE, Action, IllegalAction
from companion.games.qubism import (
    CubePlaced,
    CubeSlid,
    CubeTipped,
    Moved,
    PawnMove,
    PlaceCube,
    Qubism,
    QubismState,
    SlideCube,
    Tip,
    Won,
)
from tests.companion.qubism_helpers import make_state


def pawn_moves(state: QubismState) -> set[str]:
    return {a.to for a in state.legal_actions() if isinstance(a, PawnMove)}


# -- Q1 -------------------------------------------------------------------------------------------


def test_Q1_setup_pawns_on_their_baselines_white_first() -> None:
    game = games.get("qubism")
    assert isinstance(game, Qubism) and game.players == ("white", "black")
    s = game.new_state()
    assert s.pawns == {"white": "4,2", "black": "0,2"} and s.pool == 9 and s.cubes == {}
    assert s.to_move() == "white"
    assert game.goal_row == {"white": 0, "black": 4}
    assert s.board_view() == {"4,2": "pawn:white", "0,2": "pawn:black"}
    board = load_board("qubism")
    assert len(board.squares) == 25 and [m.id for m in board.markers] == [16, 17, 18, 19]
    xs = [p[0] for sq in board.squares.values() for p in sq.polygon]
    for m in board.markers:  # 30 mm or more outside the play area (an edge cube hides none), on A4
        assert m.x_mm + m.size_mm + 30 <= min(xs) or m.x_mm - 30 >= max(xs)
        assert m.x_mm >= 0 and m.x_mm + m.size_mm <= 297 and m.y_mm >= 0 and m.y_mm + m.size_mm <= 210


# -- Q2 -------------------------------------------------------------------------------------------


def test_Q2_a_turn_is_exactly_one_action_then_the_other_player() -> None:
    s = make_state()
    s.apply(PawnMove("3,2"))
    assert s.to_move() == "black"
    s.apply(PlaceCube("2,2", "E"))
    assert s.to_move() == "white" and s.pool == 8
    s.apply(SlideCube("2,2", 1))
    assert s.to_move() == CHANCE and s.current_player() == "white"
    s.apply(Tip("2,3", "S"))
    assert s.to_move() == "black"
    with pytest.raises(IllegalAction):
        s.apply(Tip("2,3", "S"))


# -- Q3 -------------------------------------------------------------------------------------------


def test_Q3_pawn_steps_one_square_orthogonally_onto_empty_squares() -> None:
    s = make_state(white="2,2", cubes={"2,3": "N"})
    assert pawn_moves(s) == {"1,2", "3,2", "2,1"}
    with pytest.raises(IllegalAction, match="cube stands on D3"):
        s.apply(PawnMove("2,3"))
    with pytest.raises(IllegalAction, match="not reachable"):
        s.apply(PawnMove("1,1"))
    edge = make_state(white="4,0")
    assert pawn_moves(edge) == {"3,0", "4,1"}
    effects = s.apply(PawnMove("3,2"))
    assert effects == [Moved("white", "2,2", "3,2", "step")]


def test_Q3_jump_over_the_other_pawn() -> None:
    s = make_state(white="3,2", black="2,2")
    assert pawn_moves(s) == {"1,2", "4,2", "3,1", "3,3"}
    assert s.apply(PawnMove("1,2")) == [Moved("white", "3,2", "1,2", "jump")]
    with pytest.raises(IllegalAction, match="jump over it"):
        make_state(white="3,2", black="2,2").apply(PawnMove("2,2"))


def test_Q3_jump_blocked_by_a_cube_side_steps_both_ways() -> None:
    s = make_state(white="3,2", black="2,2", cubes={"1,2": "E"})
    assert pawn_moves(s) == {"2,1", "2,3", "4,2", "3,1", "3,3"}
    assert s.pawn_targets()["2,1"] == "side-step" and s.pawn_targets()["2,3"] == "side-step"
    one_side = make_state(white="3,2", black="2,2", cubes={"1,2": "E", "2,3": "W"})
    assert {sq for sq, how in one_side.pawn_targets().items() if how == "side-step"} == {"2,1"}


def test_Q3_jump_blocked_by_the_edge_side_steps() -> None:
    s = make_state(white="2,1", black="2,0")
    assert {sq for sq, how in s.pawn_targets().items() if how == "side-step"} == {"1,0", "3,0"}
    corner = make_state(white="3,0", black="4,0", turn="white")
    assert {sq for sq, how in corner.pawn_targets().items() if how == "side-step"} == {"4,1"}
    assert corner.apply(PawnMove("4,1")) == [Moved("white", "3,0", "4,1", "side-step")]


# -- Q4 -------------------------------------------------------------------------------------------


def test_Q4_place_a_cube_whose_arrow_points_at_an_empty_square() -> None:
    s = make_state(cubes={"2,2": "N"})
    before = s.to_json()
    with pytest.raises(IllegalAction, match="C3 is not empty"):
        s.apply(PlaceCube("2,1", "E"))  # points at a cube
    with pytest.raises(IllegalAction, match="C1 is not empty"):
        s.apply(PlaceCube("3,2", "S"))  # points at a pawn
    with pytest.raises(IllegalAction, match="already a cube"):
        s.apply(PlaceCube("2,2", "S"))
    with pytest.raises(IllegalAction, match="a pawn stands"):
        s.apply(PlaceCube("4,2", "N"))
    with pytest.raises(IllegalAction, match="N, E, S or W"):
        s.apply(PlaceCube("1,1", "X"))
    assert s.to_json() == before
    assert s.apply(PlaceCube("2,1", "W")) == [CubePlaced("white", "2,1", "W", 7)]
    assert s.board_view()["2,1"] == "cube:W"


def test_Q4_placement_next_to_the_edge() -> None:
    s = make_state()
    with pytest.raises(IllegalAction, match="off the board"):
        s.apply(PlaceCube("2,4", "E"))
    with pytest.raises(IllegalAction, match="off the board"):
        s.apply(PlaceCube("0,0", "N"))
    assert {a.arrow for a in s.legal_actions() if isinstance(a, PlaceCube) and a.square == "0,0"} == {"E", "S"}
    assert {a.arrow for a in s.legal_actions() if isinstance(a, PlaceCube) and a.square == "2,4"} == {"N", "S", "W"}
    s.apply(PlaceCube("2,4", "W"))
    assert s.cubes == {"2,4": "W"}


def test_Q4_the_pool_holds_nine_cubes() -> None:
    s = make_state(cubes={f"{r},{c}": "E" for r, c in [(1, 0), (1, 2), (2, 0), (2, 2), (3, 0), (3, 2), (1, 4), (2, 4), (3, 4)]})
    assert s.pool == 0
    assert not [a for a in s.legal_actions() if isinstance(a, PlaceCube)]
    with pytest.raises(IllegalAction, match="all 9 cubes"):
        s.apply(PlaceCube("0,0", "E"))


# -- Q5 -------------------------------------------------------------------------------------------


def test_Q5_slide_along_the_arrow_then_the_new_arrow_is_observed() -> None:
    s = make_state(cubes={"2,0": "E"})
    slides = {a.distance for a in s.legal_actions() if isinstance(a, SlideCube)}
    assert slides == {1, 2, 3, 4}
    assert s.apply(SlideCube("2,0", 3)) == [CubeSlid("white", "2,0", "2,3")]
    assert s.to_move() == CHANCE and s.current_player() == "white"
    assert s.board_view()["2,3"] == "cube:?"
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == [Tip("2,3", a) for a in "NESW"]
    assert sum(p for _, p in outcomes) == 1 and all(p == Fraction(1, 4) for _, p in outcomes)
    with pytest.raises(IllegalAction, match="on D3, not A3"):
        s.apply(Tip("2,0", "N"))
    with pytest.raises(IllegalAction, match="which arrow"):
        s.apply(PawnMove("3,2"))
    # after the tip the arrow may point at a non-empty square or off the board
    assert s.apply(Tip("2,3", "E")) == [CubeTipped("2,3", "E")]
    assert s.cubes == {"2,3": "E"} and s.to_move() == "black"


def test_Q5_a_cube_slide_that_stops_at_a_piece() -> None:
    s = make_state(white="2,3", cubes={"2,0": "E"})
    assert {a.distance for a in s.legal_actions() if isinstance(a, SlideCube)} == {1, 2}
    with pytest.raises(IllegalAction, match="cannot slide over D3"):
        s.apply(SlideCube("2,0", 3))
    t = make_state(cubes={"0,0": "S", "3,0": "N"})
    assert {a.distance for a in t.legal_actions() if isinstance(a, SlideCube) and a.square == "0,0"} == {1, 2}
    with pytest.raises(IllegalAction, match="off the board"):
        make_state(cubes={"2,4": "E"}).apply(SlideCube("2,4", 1))
    with pytest.raises(IllegalAction, match="no cube on B4"):
        s.apply(SlideCube("1,1", 1))


@pytest.mark.parametrize(("model", "arrow"), [("forward", "E"), ("back", "W")])
def test_Q5_cube_model_predicts_the_new_arrow(model: str, arrow: str) -> None:
    s = make_state(cubes={"2,0": "E"}, cube_model=model)
    assert s.apply(SlideCube("2,0", 2)) == [CubeSlid("white", "2,0", "2,2"), CubeTipped("2,2", arrow)]
    assert s.to_move() == "black" and s.cubes == {"2,2": arrow}
    assert games.make("qubism", s.game.settings()) == s.game


# -- Q6 -------------------------------------------------------------------------------------------


def test_Q6_a_placement_that_would_cut_off_either_pawn() -> None:
    # white in the corner behind one cube: a second cube would wall White in
    s = make_state(white="4,0", cubes={"3,0": "E"})
    with pytest.raises(IllegalAction, match="would wall White off from row 5"):
        s.apply(PlaceCube("4,1", "N"))
    # black's side: cubes across row 3 but one gap
    wall = {"3,0": "N", "3,1": "N", "3,3": "N", "3,4": "N"}
    b = make_state(white="4,2", black="0,2", cubes=wall)
    with pytest.raises(IllegalAction, match="wall White off from row 5 and Black off from row 1"):
        b.apply(PlaceCube("3,2", "N"))
    c = make_state(white="4,4", black="2,0", cubes={"1,0": "E", "3,0": "E"})
    with pytest.raises(IllegalAction, match="would wall Black off from row 1") as err:
        c.apply(PlaceCube("2,1", "E"))
    assert "White" not in str(err.value)
    assert not [a for a in c.legal_actions() if a == PlaceCube("2,1", "E")]


def test_Q6_a_slide_that_would_cut_off_a_pawn() -> None:
    s = make_state(white="4,0", cubes={"3,0": "E", "2,1": "S"})
    with pytest.raises(IllegalAction, match="sliding that cube to B1 would wall White off from row 5"):
        s.apply(SlideCube("2,1", 2))
    assert SlideCube("2,1", 1) in s.legal_actions() and SlideCube("2,1", 2) not in s.legal_actions()


# -- Q7 -------------------------------------------------------------------------------------------


def test_Q7_a_pawn_on_its_goal_row_wins() -> None:
    s = make_state(white="1,3", black="3,3")
    assert s.apply(PawnMove("0,3")) == [Moved("white", "1,3", "0,3", "step"), Won("white", "0,3")]
    assert s.is_over() and s.outcome() == {"winner": "white", "scores": {"white": 1, "black": 0}}
    assert s.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        s.apply(PawnMove("1,3"))
    j = make_state(white="3,2", black="2,2", turn="black")
    assert j.apply(PawnMove("4,2"))[-1] == Won("black", "4,2")  # by the jump


def test_json_round_trip_while_a_tip_is_due() -> None:
    s = make_state(cubes={"2,0": "E"})
    s.apply(SlideCube("2,0", 1))
    back = s.game.state_from_json(s.to_json())
    assert back == s and back.to_move() == CHANCE and back.chance_outcomes() == s.chance_outcomes()


# -- perft-style counts ---------------------------------------------------------------------------

STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}


def brute_force_actions(state: QubismState) -> set[Action]:
    """The rules written out again, plainly, over every conceivable action."""
    cells: list[tuple[int, ...]] = [(r, c) for r in range(5) for c in range(5)]
    cubes = {tuple(int(x) for x in k.split(",")): v for k, v in state.cubes.items()}
    pawns = {p: tuple(int(x) for x in sq.split(",")) for p, sq in state.pawns.items()}
    me, other = state.turn, ("black" if state.turn == "white" else "white")
    goal = {"white": 0, "black": 4}

    def on(cell: tuple[int, ...]) -> bool:
        return 0 <= cell[0] < 5 and 0 <= cell[1] < 5

    def free(cell: tuple[int, ...], blocked: set[tuple[int, ...]]) -> bool:
        return on(cell) and cell not in blocked and cell not in pawns.values()

    def nobody_cut(blocked: set[tuple[int, ...]]) -> bool:
        for p, start in pawns.items():
            reach, frontier = {start}, [start]
            while frontier:
                r, c = frontier.pop()
                for dr, dc in STEP.values():
                    n = (r + dr, c + dc)
                    if on(n) and n not in blocked and n not in reach:
                        reach.add(n)
                        frontier.append(n)
            if not any(cell[0] == goal[p] for cell in reach):
                return False
        return True

    def sid(cell: tuple[int, ...]) -> str:
        return f"{cell[0]},{cell[1]}"

    out: set[Action] = set()
    r0, c0 = pawns[me]
    for cell in cells:
        dr, dc = cell[0] - r0, cell[1] - c0
        if abs(dr) + abs(dc) == 1 and cell not in cubes and cell != pawns[other]:
            out.add(PawnMove(sid(cell)))
    orr, oc = pawns[other]
    if abs(orr - r0) + abs(oc - c0) == 1:
        dr, dc = orr - r0, oc - c0
        behind = (orr + dr, oc + dc)
        if on(behind) and behind not in cubes:
            out.add(PawnMove(sid(behind)))
        else:
            for side in ((dc, dr), (-dc, -dr)):
                beside = (orr + side[0], oc + side[1])
                if on(beside) and beside not in cubes:
                    out.add(PawnMove(sid(beside)))
    if state.pool > 0:
        for cell in cells:
            for arrow, (dr, dc) in STEP.items():
                if free(cell, set(cubes)) and free((cell[0] + dr, cell[1] + dc), set(cubes)):
                    if nobody_cut(set(cubes) | {cell}):
                        out.add(PlaceCube(sid(cell), arrow))
    for cell, arrow in cubes.items():
        dr, dc = STEP[arrow]
        for k in range(1, 5):
            path = [(cell[0] + i * dr, cell[1] + i * dc) for i in range(1, k + 1)]
            if all(free(p, set(cubes)) for p in path) and nobody_cut((set(cubes) - {cell}) | {path[-1]}):
                out.add(SlideCube(sid(cell), k))
    return out


POSITIONS: dict[str, tuple[QubismState, int]] = {
    "start": (make_state(), 71),
    "facing": (make_state(white="2,2", black="1,2", cubes={"0,2": "E"}, turn="white"), 69),
    "midgame": (make_state(white="3,1", black="1,3", cubes={"2,0": "E", "2,2": "N", "1,1": "S", "3,3": "W"}, turn="black"), 31),
    "walls": (make_state(white="4,1", black="0,3", cubes={"3,0": "E", "3,1": "E", "3,2": "N", "1,2": "W", "1,3": "S", "1,4": "W"}), 25),
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_perft_counts_match_brute_force_and_pinned_numbers(name: str) -> None:
    state, pinned = POSITIONS[name]
    legal = state.legal_actions()
    assert len(set(legal)) == len(legal)
    assert set(legal) == brute_force_actions(state)
    assert len(legal) == pinned
    for action in legal[:: max(1, len(legal) // 15)]:  # a sample applies cleanly on a copy
        state.clone().apply(action)
