"""Chop! Chop! rules C1–C8 (RULES.md §2), one test per rule id (C5, the tiles: test_chopchop_tiles.py)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from companion.boards import BoardError
from companion.games import make
from companion.games.base import CHANCE, IllegalAction
from companion.games.chopchop import (
    Captured,
    ChopChop,
    HoleOpened,
    Move,
    NoMove,
    PlaceCat,
    Reveal,
    Roll,
    Won,
)
from companion.games.chopchop_tracker import tracker
from tests.companion.chopchop_helpers import GAME, M1, M2, M3, M4, kinds, position, rolled

# -- the board ----------------------------------------------------------------------------------


def test_board_file_default_geometry() -> None:
    geo = GAME.geometry
    assert geo.holes == ("0,3", "2,7", "5,4", "3,0")
    assert len(geo.slabs) == 38 and not set(geo.slabs) & (geo.under_table | set(geo.holes))
    assert geo.under_table == {"2,3", "2,4", "2,5", "3,3", "3,4", "3,5"}
    assert geo.table_top == {"top:2,3", "top:2,4", "top:2,5", "top:3,3", "top:3,4", "top:3,5"}
    # the table top touches the floor beside its edge, never the squares under it
    assert set(geo.adjacency["top:2,3"]) == {"top:2,4", "top:3,3", "1,3", "2,2"}
    assert "top:2,3" in geo.adjacency["1,3"] and "2,3" in geo.adjacency["1,3"]
    assert geo.front == {"0,3": "1,3", "2,7": "2,6", "5,4": "4,4", "3,0": "3,1"}
    assert [m.id for m in geo.board.markers] == [4, 5, 6, 7]
    b = geo.board
    assert b.width_mm <= 297 and b.height_mm <= 210
    # markers outside the playing area with at least 6 mm margin
    xs = [p[0] for sq in b.squares.values() for p in sq.polygon]
    for m in b.markers:
        assert m.size_mm == 24 and (m.x_mm + m.size_mm <= min(xs) - 6 or m.x_mm >= max(xs) + 6)
        assert 0 <= m.x_mm and m.x_mm + m.size_mm <= b.width_mm and m.y_mm + m.size_mm <= b.height_mm


def test_another_geometry_is_another_file(tmp_path: Path) -> None:
    # a 3 x 4 floor, a 1 x 1 table at (1,1), two holes: no code change needed
    text = """
[board]
game = "chopchop"
width_mm = 200.0
height_mm = 150.0
[grid]
rows = 3
cols = 4
cell_mm = 25.0
[[squares]]
id = "top:1,1"
polygon = [[25, 25], [50, 25], [50, 50], [25, 50]]
[adjacency]
"top:1,1" = ["0,1", "1,0", "2,1", "1,2"]
[regions]
table_top = ["top:1,1"]
under_table = ["1,1"]
holes = ["0,0", "2,3"]
slabs = ["0,1", "0,2", "0,3", "1,0", "1,2", "1,3", "2,0", "2,1", "2,2"]
"front:0,0" = ["1,0"]
"front:2,3" = ["1,3"]
"""
    path = tmp_path / "tiny.toml"
    path.write_text(text)
    tiles = {"cheese": 3, "crockery": 2, "plus1": 1, "plus2": 1, "arrow": 1, "fork": 1, "knife": 0}
    game = ChopChop(board=str(path), tiles=tiles, cheese_to_win=3)
    s = game.new_state()
    assert game.mice == ("mouse:1", "mouse:2")
    assert s.legal_actions() == [PlaceCat("top:1,1")]
    s.apply(PlaceCat("top:1,1"))
    s.apply(Roll(1))
    assert sorted(m.to for m in s.legal_actions() if isinstance(m, Move)) == ["0,1", "1,0", "1,3", "2,2"]
    with pytest.raises(ValueError, match="9 slab squares"):
        ChopChop(board=str(path))
    with pytest.raises(BoardError):
        ChopChop(board=str(tmp_path / "missing.toml"))


def test_settings_round_trip_and_validation() -> None:
    g = make("chopchop", {"mice_players": 3})
    assert g.players == ("cat", "mice1", "mice2", "mice3")
    assert make("chopchop", g.settings()) == g
    with pytest.raises(ValueError, match="1 to 4"):
        ChopChop(mice_players=5)
    with pytest.raises(ValueError, match="unknown tile"):
        ChopChop(tiles={"spoon": 38})
    with pytest.raises(ValueError, match="37 slabs"):
        ChopChop(tiles={**GAME.tiles, "cheese": 9})


def test_dice_are_exact() -> None:
    s = position(side="cat")
    assert s.chance_outcomes() == [(Roll(1), Fraction(1, 3)), (Roll(2), Fraction(1, 2)), (Roll(3), Fraction(1, 6))]
    s = position(side="mice")
    assert s.chance_outcomes() == [
        (Roll(1), Fraction(1, 3)), (Roll(2), Fraction(1, 3)), (Roll(3), Fraction(1, 6)), (Roll(4), Fraction(1, 6))
    ]
    with pytest.raises(IllegalAction, match="mouse die has no 5"):
        s.apply(Roll(5))
    s.side = "cat"
    with pytest.raises(IllegalAction, match="cat die has no 4"):
        s.apply(Roll(4))


# -- C1 -----------------------------------------------------------------------------------------


def test_C1_setup_cat_on_table_mice_on_holes_mice_first() -> None:
    s = GAME.new_state()
    assert s.to_move() == "cat" and s.current_player() == "cat"
    assert sorted(a.square for a in s.legal_actions() if isinstance(a, PlaceCat)) == sorted(GAME.geometry.table_top)
    assert s.mice == {M1: "0,3", M2: "2,7", M3: "5,4", M4: "3,0"}
    assert len(s.face_down) == 38
    with pytest.raises(IllegalAction, match="table-top"):
        s.apply(PlaceCat("1,1"))
    with pytest.raises(IllegalAction, match="put the cat on the table"):
        s.apply(Roll(1))
    s.apply(PlaceCat("top:3,4"))
    assert s.cat == "top:3,4"
    assert s.to_move() == CHANCE and s.current_player() == "mice1"
    assert s.board_view()["top:3,4"] == "cat" and s.board_view()["0,3"] == M1
    assert list(s.board_view().values()).count("slab") == 38


def test_C1_mice_players_rotate_and_each_may_move_any_mouse() -> None:
    game = ChopChop(mice_players=3)
    s = game.new_state()
    s.apply(PlaceCat("top:2,3"))
    seen = []
    for _ in range(4):
        seen.append(s.current_player())
        s.apply(Roll(1))
        movers = {a.piece for a in s.legal_actions() if isinstance(a, Move)}
        assert movers == {m for m in (M1, M2, M3, M4) if s.legal_destinations(m)} and len(movers) > 1
        s.apply(s.legal_actions()[0])
        if s.phase == "reveal":
            s.apply(Reveal("crockery"))
        assert s.current_player() == "cat"
        s.apply(Roll(1))
        s.apply(s.legal_actions()[0])
        if s.phase == "reveal":
            s.apply(Reveal("crockery"))
    assert seen == ["mice1", "mice2", "mice3", "mice1"]


# -- C2 -----------------------------------------------------------------------------------------


def test_C2_exact_steps_no_step_back_never_end_at_start() -> None:
    s = rolled(position(mice={M1: "1,1"}), 2)
    dests = s.legal_destinations(M1)
    # every square at an even distance <= 2 except the start; orthogonal steps only
    assert "1,1" not in dests
    for d, paths in dests.items():
        for p in paths:
            assert len(p) == 2 and p[-1] == d
            assert p[0] in GAME.geometry.adjacency["1,1"] and p[1] in GAME.geometry.adjacency[p[0]]
            assert p[1] != "1,1"
    assert set(dests) == {"0,0", "0,2", "2,0", "2,2", "1,3", "3,1"}
    s = rolled(position(mice={M1: "1,1"}), 4)
    assert "1,1" not in s.legal_destinations(M1)  # a 4-step loop back to the start is not a move


def test_C2_no_step_onto_or_through_a_piece_cat_may_end_on_mouse() -> None:
    # mouse 2 at 1,2 blocks mouse 1 at 1,1 from going east; the cat may end but not pass on it
    s = rolled(position(mice={M1: "1,1", M2: "1,2"}), 2)
    assert "1,3" not in s.legal_destinations(M1)  # only way is through 1,2
    assert "1,2" not in s.legal_destinations(M1)
    s = rolled(position(cat="1,1", mice={M2: "1,2"}, side="cat"), 2)
    assert "1,3" not in s.legal_destinations("cat")
    s = rolled(position(cat="1,1", mice={M2: "1,2"}, side="cat"), 1)
    assert "1,2" in s.legal_destinations("cat")


def test_C2_path_choice_matters_only_on_a_slab() -> None:
    # 1,1 -> 2,2 in two steps: via 1,2 or via 2,1 (both face-down): one action per way in
    s = rolled(position(mice={M1: "1,1"}), 2)
    assert Move(M1, "2,2", "1,2") in s.legal_actions() and Move(M1, "2,2", "2,1") in s.legal_actions()
    assert Move(M1, "2,2", "") not in s.legal_actions()
    with pytest.raises(IllegalAction, match="steps onto C4 from"):
        s.apply(Move(M1, "2,2"))
    # with no slab at the destination the way in does not matter
    s = rolled(position(mice={M1: "1,1"}, cleared=["2,2"]), 2)
    assert Move(M1, "2,2", "") in s.legal_actions()
    assert Move(M1, "2,2", "1,2") not in s.legal_actions()
    s.apply(Move(M1, "2,2", "1,2"))  # an explicit way in is still accepted
    assert s.mice[M1] == "2,2"


def test_illegal_move_leaves_state_unchanged_with_readable_message() -> None:
    s = rolled(position(mice={M1: "1,1"}), 2)
    before = s.to_json()
    with pytest.raises(IllegalAction, match=r"cannot reach C5 in exactly 2 steps"):
        s.apply(Move(M1, "1,2"))
    with pytest.raises(IllegalAction, match="mice's turn"):
        s.apply(Move("cat", "1,2"))
    with pytest.raises(IllegalAction, match="not a tile reveal now"):
        s.apply(Reveal("cheese"))
    assert s.to_json() == before


# -- C3 -----------------------------------------------------------------------------------------


def test_C3_cat_never_under_table_into_hole_or_onto_cheese_but_on_table_top() -> None:
    s = rolled(position(cat="1,3", side="cat", cheese_up=["1,4"]), 1)
    dests = set(s.legal_destinations("cat"))
    assert "2,3" not in dests  # under the table
    assert "0,3" not in dests  # a hole (mouse 1 is in it, and the cat never enters holes)
    assert "1,4" not in dests  # face-up cheese
    assert dests == {"1,2", "top:2,3"}
    s = rolled(position(cat="1,3", side="cat", cheese_up=["1,4"]), 2)
    assert not any("1,4" in p for ps in s.legal_destinations("cat").values() for p in ps)  # nor over it
    assert "top:2,4" in s.legal_destinations("cat")  # steps onto the table and along it


def test_C3_mice_under_table_and_into_holes_never_on_table_top() -> None:
    s = rolled(position(mice={M1: "1,3"}), 1)
    dests = set(s.legal_destinations(M1))
    assert "2,3" in dests  # under the table
    assert "0,3" in dests  # back into its (opened) hole
    assert not any(d.startswith("top:") for d in dests)
    s = rolled(position(mice={M1: "1,3"}, cheese_up=["1,2"]), 1)
    assert "1,2" not in s.legal_destinations(M1)


def test_C3_a_full_hole_takes_no_second_mouse() -> None:
    # mouse 2 next to hole 0,3, still holding mouse 1 (unopened): not a destination
    s = rolled(position(mice={M2: "1,3"}), 1)
    assert "0,3" not in s.legal_destinations(M2)
    with pytest.raises(IllegalAction):
        s.apply(Move(M2, "0,3"))
    # once mouse 1 has left, mouse 2 may go in (any hole, not just its own)
    s = rolled(position(mice={M1: "1,2", M2: "1,3"}), 1)
    assert "0,3" in s.legal_destinations(M2)
    effects = s.apply(Move(M2, "0,3"))
    assert s.mice[M2] == "0,3" and "HoleOpened" not in kinds(effects)


# -- C4 -----------------------------------------------------------------------------------------


def test_C4_hole_opened_when_its_mouse_first_leaves() -> None:
    s = rolled(position(), 1)
    assert not s.opened
    effects = s.apply(Move(M1, "0,2"))
    assert HoleOpened("0,3", M1) in effects and s.opened == {"0,3"}
    assert s.board_view()["0,3"] == "hole"
    assert tracker(s).squares["0,3"].status == "hole-open"
    assert tracker(s).squares["2,7"].status == "hole"


# -- C6 -----------------------------------------------------------------------------------------


def test_C6_cat_catches_a_mouse_it_ends_on() -> None:
    s = rolled(position(cat="1,1", mice={M2: "1,2"}, side="cat"), 1)
    effects = s.apply(Move("cat", "1,2"))
    assert Captured(M2, "1,2") in effects and s.mice[M2] is None and s.cat == "1,2"
    assert tracker(s).mice_caught == (M2,) and s.side == "mice"
    assert M2 not in {a.piece for a in (rolled(s, 1).legal_actions()) if isinstance(a, Move)}


def test_C6_a_mouse_in_a_hole_is_safe() -> None:
    s = rolled(position(cat="1,3", side="cat"), 1)
    assert "0,3" not in s.legal_destinations("cat")


def test_C6_last_mouse_in_hole_cat_may_not_land_in_front() -> None:
    mice: dict[str, str | None] = {M1: None, M2: None, M3: None, M4: "3,0"}
    s = rolled(position(cat="1,1", mice=mice, side="cat"), 2)
    assert "3,1" not in s.legal_destinations("cat")
    assert tracker(s).barred_square == "3,1"
    # not when another mouse is still free
    s = rolled(position(cat="1,1", mice={M1: None, M2: None, M3: "5,6", M4: "3,0"}, side="cat"), 2)
    assert "3,1" in s.legal_destinations("cat")
    # not when the last mouse is out of its hole
    s = rolled(position(cat="1,1", mice={M1: None, M2: None, M3: None, M4: "4,0"}, side="cat"), 2)
    assert "3,1" in s.legal_destinations("cat")
    # nor by an arrow
    s = rolled(position(cat="1,1", mice=mice, side="cat"), 1)
    s.apply(Move("cat", "1,2"))
    s.apply(Reveal("arrow"))
    assert "3,1" not in s.arrow_targets()


# -- C7 -----------------------------------------------------------------------------------------


def test_C7_no_legal_move_the_turn_passes() -> None:
    s = position(cat="0,0", side="cat", cheese_up=["0,1", "1,0"])
    effects = s.apply(Roll(2))
    assert NoMove("cat", "no legal move with a 2") in effects
    assert s.side == "mice" and s.to_move() == CHANCE and s.current_player() == "mice1"


def test_C7_no_move_for_the_forced_mouse_in_a_double() -> None:
    s = position(mice={M1: "0,0"}, cheese_up=["0,1", "1,0"])
    s.skip["cat"] = False
    s.bonus_mouse, s.double = M1, True
    effects = s.apply(Roll(1))
    assert any(isinstance(e, NoMove) for e in effects) and s.side == "cat"


# -- C8 -----------------------------------------------------------------------------------------


def test_C8_mice_win_with_cheese_all_holes_open_and_a_mouse_home() -> None:
    mice = {M1: "1,3", M2: "2,6", M3: "4,4", M4: "3,1"}
    s = rolled(position(cat="5,0", mice=mice, held=10), 1)
    effects = s.apply(Move(M1, "0,3"))
    assert Won("mice", "10 cheese, every hole opened and a mouse at home") in effects
    assert s.is_over() and s.outcome() is not None
    assert s.outcome()["winner"] == "mice1" and s.outcome()["scores"] == {"cat": 0, "mice1": 1}  # type: ignore[index]
    with pytest.raises(IllegalAction, match="over"):
        s.apply(Roll(1))


def test_C8_mice_win_at_once_on_the_tenth_cheese() -> None:
    mice = {M1: "1,1", M2: "2,7", M3: "4,4", M4: "3,1"}  # mouse 2 back in its hole
    s = position(cat="5,0", mice=mice, held=9)
    s.opened.add("2,7")
    rolled(s, 1)
    s.apply(Move(M1, "1,2"))
    effects = s.apply(Reveal("cheese"))
    assert kinds(effects)[-1] == "Won" and s.outcome()["side"] == "mice"  # type: ignore[index]


def test_C8_mice_win_at_once_when_the_last_hole_opens() -> None:
    # mouse 2 is home in hole 0,3; mouse 3 leaves its hole (the last one closed) onto a slab
    mice = {M1: "1,1", M2: "0,3", M4: "3,1"}
    s = rolled(position(cat="1,6", mice=mice, held=10), 1)
    s.opened.add("0,3")
    effects = s.apply(Move(M3, "5,5"))
    assert kinds(effects) == ["Moved", "HoleOpened", "Won"] and "5,5" in s.face_down


def test_C8_no_mice_win_while_a_hole_is_unopened_or_nobody_home() -> None:
    s = rolled(position(cat="5,0", mice={M1: "1,1", M2: "2,6", M4: "3,1"}, held=9), 1)
    s.apply(Move(M1, "1,2"))
    s.apply(Reveal("cheese"))
    assert not s.is_over() and s.cheese_held == 10  # mouse 3 still sits on an unopened hole... at home
    s = rolled(position(cat="5,0", mice={M1: "1,1", M2: "2,6", M3: "4,4", M4: "3,1"}, held=9), 1)
    s.apply(Move(M1, "1,2"))
    s.apply(Reveal("cheese"))
    assert not s.is_over()  # all opened, 10 cheese, but no mouse in a hole


def test_C8_cat_wins_when_all_mice_are_caught() -> None:
    s = rolled(position(cat="1,1", mice={M1: None, M2: "1,2", M3: None, M4: None}, side="cat"), 1)
    effects = s.apply(Move("cat", "1,2"))
    assert kinds(effects) == ["Moved", "Captured", "Won"]
    out = s.outcome()
    assert out is not None and out["winner"] == "cat" and out["scores"] == {"cat": 1, "mice1": 0}


def test_C8_several_mice_players_share_the_win() -> None:
    game = ChopChop(mice_players=3)
    mice = {M1: "1,3", M2: "2,6", M3: "4,4", M4: "3,1"}
    s = rolled(position(cat="5,0", mice=mice, held=10, game=game), 1)
    s.apply(Move(M1, "0,3"))
    out = s.outcome()
    assert out is not None and out["winner"] == ["mice1", "mice2", "mice3"]


# -- reveals and the tracker ------------------------------------------------------------------


def test_reveal_probabilities_follow_the_remaining_composition() -> None:
    s = rolled(position(mice={M1: "1,1"}), 1)
    s.apply(Move(M1, "1,2"))
    odds = dict(s.chance_outcomes())
    # position() cleared 1,1 as crockery: 37 face down, crockery 7 left
    assert odds[Reveal("crockery")] == Fraction(7, 37) and odds[Reveal("cheese")] == Fraction(10, 37)
    assert sum(odds.values()) == 1
    t = tracker(s)
    assert t.face_down == 37 and t.counts["crockery"].remaining == 7 and t.chance["cheese"] == Fraction(10, 37)


def test_reveal_not_a_tile_type_is_illegal() -> None:
    s = rolled(position(mice={M1: "1,1"}), 1)
    s.apply(Move(M1, "1,2"))
    with pytest.raises(IllegalAction, match="unknown tile 'spoon'"):
        s.apply(Reveal("spoon"))


def test_contradicted_composition_is_flagged_and_not_claimed() -> None:
    tiles = {**GAME.tiles, "cheese": 1, "crockery": 17}
    game = ChopChop(tiles=tiles)
    s = rolled(position(mice={M1: "1,1"}, game=game), 1)
    s.apply(Move(M1, "1,2"))
    s.apply(Reveal("cheese"))
    s.side, s.phase = "mice", "roll"
    rolled(s, 1)
    s.apply(Move(M1, "1,3"))
    assert dict(s.chance_outcomes())[Reveal("cheese")] == 0  # none believed left ...
    s.apply(Reveal("cheese"))  # ... but a second one is accepted
    t = tracker(s)
    assert t.contradiction is not None and "cheese" in t.contradiction
    assert t.counts["cheese"].remaining is None and t.chance["cheese"] is None
    assert t.counts["cheese"].revealed == 2
    known = [p for p in t.chance.values() if p is not None]
    assert known and sum(known) == 1  # among the types still believed present
    assert sum(p for _, p in s.chance_outcomes()) == 1 or s.phase != "reveal"


def test_tracker_reports_squares_and_reveals() -> None:
    s = rolled(position(mice={M1: "1,1"}), 1)
    s.apply(Move(M1, "1,2"))
    s.apply(Reveal("crockery"))
    t = tracker(s)
    assert t.squares["1,2"].status == "empty" and t.squares["1,2"].revealed == "crockery"
    assert t.squares["1,2"].piece == M1
    assert t.squares["4,0"].status == "face-down" and t.squares["top:2,3"].status == "table"
    assert t.reveals[-1] == ("1,2", "crockery", M1)
    assert t.holes_opened == ("0,3",) and t.holes_closed == ("2,7", "5,4", "3,0")
    assert any("Slabs face down: 36" in line for line in t.lines())


@pytest.mark.parametrize("setting,side,winner", [("cat", "cat", "cat"), ("draw", "draw", None)])
def test_out_of_cheese_dead_end_ends_the_game(setting: str, side: str, winner: str | None) -> None:
    game = ChopChop(out_of_cheese=setting)
    everything_but_one = [sq for sq in game.geometry.slabs if sq != "1,2"]
    s = position(mice={M1: "1,1"}, game=game)
    for sq in everything_but_one:  # counts need not add up for this rule
        s.face_down.discard(sq)
    s.cheese_held = 9
    rolled(s, 1)
    s.apply(Move(M1, "1,2"))
    effects = s.apply(Reveal("crockery"))
    assert isinstance(effects[-1], Won) and effects[-1].reason == "no mouse can reach a face-down slab any more"
    out = s.outcome()
    assert out is not None and out["side"] == side and out["winner"] == winner
    ends = [line for line in game.interpretations() if "can no longer win" in line]
    assert ends and ends[0].endswith("the cat wins." if setting == "cat" else "in a draw.")
