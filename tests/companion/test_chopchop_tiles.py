"""Chop! Chop! rule C5 (RULES.md §2): landing on each tile, for cat and mouse."""

from __future__ import annotations

import pytest

from companion.games.base import CHANCE, IllegalAction
from companion.games.chopchop import (
    CatOnCheese,
    CheeseTaken,
    ChopChop,
    ForkUseless,
    LosesNextTurn,
    Move,
    NoMove,
    Reveal,
    Spear,
    Teleport,
    ThrowsAgain,
    TileRevealed,
    TurnSkipped,
)
from companion.games.chopchop_tracker import tracker
from tests.companion.chopchop_helpers import GAME, M1, M2, kinds, position, rolled

# -- C5: landing, per tile, cat and mouse ------------------------------------------------------


def test_C5_landing_on_no_slab_does_nothing() -> None:
    s = rolled(position(mice={M1: "1,1"}, cleared=["1,2"]), 1)
    effects = s.apply(Move(M1, "1,2"))
    assert kinds(effects) == ["Moved"] and s.to_move() == CHANCE and s.side == "cat"


@pytest.mark.parametrize("piece", ["cat", M1])
def test_C5_crockery_does_nothing_and_is_removed(piece: str) -> None:
    side = "cat" if piece == "cat" else "mice"
    s = rolled(position(cat="1,1", mice={M1: "4,1"}, side=side), 1)
    start = s.position(piece)
    dest = "1,2" if piece == "cat" else "4,2"
    s.apply(Move(piece, dest))
    assert s.phase == "reveal" and s.current_player() == ("cat" if piece == "cat" else "mice1")
    effects = s.apply(Reveal("crockery"))
    assert effects[0] == TileRevealed(dest, "crockery", piece)
    assert dest not in s.face_down and s.position(piece) == dest and start != dest
    assert s.side == ("mice" if piece == "cat" else "cat")


def test_C5_cheese_mouse_takes_it() -> None:
    s = rolled(position(mice={M1: "1,1"}), 1)
    s.apply(Move(M1, "1,2"))
    effects = s.apply(Reveal("cheese"))
    assert CheeseTaken(M1, "1,2", 1) in effects
    assert s.cheese_held == 1 and "1,2" not in s.face_up_cheese and "1,2" not in s.face_down


def test_C5_cheese_cat_sits_on_it_face_up_then_nobody_enters() -> None:
    s = rolled(position(cat="1,1", side="cat"), 1)
    s.apply(Move("cat", "1,2"))
    effects = s.apply(Reveal("cheese"))
    assert CatOnCheese("1,2") in effects and s.face_up_cheese == {"1,2"} and s.cheese_held == 0
    t = tracker(s)
    assert t.cat_on_cheese and t.squares["1,2"].status == "cheese" and t.squares["1,2"].piece == "cat"
    # the cat moves off; later neither it nor a mouse may enter or cross the cheese
    s.side = "cat"
    rolled(s, 1)
    s.apply(Move("cat", "1,1"))
    assert s.board_view()["1,2"] == "cheese"
    s = position(cat="1,1", mice={M1: "1,3"}, side="cat", cheese_up=["1,2"])
    rolled(s, 2)
    assert "1,2" not in s.legal_destinations("cat") and "1,3" not in s.legal_destinations("cat")
    s.side, s.phase = "mice", "roll"
    rolled(s, 1)
    assert "1,2" not in s.legal_destinations(M1)


@pytest.mark.parametrize("piece", ["cat", M1])
def test_C5_plus1_moves_one_more_and_lands_again(piece: str) -> None:
    side = "cat" if piece == "cat" else "mice"
    s = rolled(position(cat="1,1", mice={M1: "4,1"}, side=side, cleared=["1,0", "4,0"]), 1)
    here = s.position(piece)
    dest = "1,2" if piece == "cat" else "4,2"
    s.apply(Move(piece, dest))
    effects = s.apply(Reveal("plus1"))
    assert "ExtraSteps" in kinds(effects) and s.phase == "bonus" and s.to_move() == s.side_player()
    dests = s.legal_destinations(piece)
    assert here not in dests  # the square just left (here also the pre-roll square)
    assert all(len(p) == 1 for ps in dests.values() for p in ps)
    nxt = sorted(dests)[0]
    s.apply(Move(piece, nxt))
    if s.phase == "reveal":  # lands again (C5)
        s.apply(Reveal("crockery"))
    assert s.position(piece) == nxt and s.phase == "roll" and s.side != side


def test_C5_plus2_may_return_to_pre_roll_square_not_to_square_just_left() -> None:
    s = rolled(position(mice={M1: "1,1"}), 2)
    s.apply(Move(M1, "2,2", "2,1"))  # 1,1 -> 2,1 -> 2,2
    assert s.pre_roll == "1,1" and s.just_left == "2,1"
    s.apply(Reveal("plus2"))
    dests = s.legal_destinations(M1)
    assert "1,1" in dests  # back to the pre-roll square, via 1,2
    assert dests["1,1"] == [("1,2", "1,1")]
    assert all(p[0] != "2,1" for ps in dests.values() for p in ps)  # never straight back
    assert "2,0" not in dests  # reachable only through 2,1
    s.apply(Move(M1, "1,1"))
    assert s.mice[M1] == "1,1" and s.side == "cat"  # no slab there any more: turn over


@pytest.mark.parametrize("piece", ["cat", M1])
def test_C5_plus2_for_cat_and_mouse(piece: str) -> None:
    side = "cat" if piece == "cat" else "mice"
    s = rolled(position(cat="0,6", mice={M1: "4,1"}, side=side), 1)
    dest = "0,5" if piece == "cat" else "4,2"
    s.apply(Move(piece, dest))
    s.apply(Reveal("plus2"))
    dests = s.legal_destinations(piece)
    assert dests and all(len(p) == 2 for ps in dests.values() for p in ps)


def test_C5_plus_with_no_legal_follow_up_passes() -> None:
    # mouse at 0,1 steps to 0,0 (corner); 1,0 is a face-up cheese: +1 has nowhere to go
    s = rolled(position(mice={M1: "0,1"}, cheese_up=["1,0"]), 1)
    s.apply(Move(M1, "0,0"))
    effects = s.apply(Reveal("plus1"))
    assert isinstance(effects[-1], NoMove) or any(isinstance(e, NoMove) for e in effects)
    assert s.mice[M1] == "0,0" and s.side == "cat" and s.phase == "roll"


def test_C5_arrow_mouse_anywhere_it_may_stand_except_hole_mouse_cheese() -> None:
    s = rolled(position(mice={M1: "1,1", M2: "4,6"}, cheese_up=["5,7"]), 1)
    s.apply(Move(M1, "1,2"))
    s.apply(Reveal("arrow"))
    assert s.phase == "arrow" and s.to_move() == "mice1"
    targets = set(s.arrow_targets())
    assert "2,3" in targets  # under the table is fine for mice
    assert not {sq for sq in targets if sq.startswith("top:")}
    assert not targets & set(GAME.geometry.holes)  # not even the empty opened hole 0,3
    assert "4,6" not in targets and "5,7" not in targets and "1,2" not in targets
    assert GAME.geometry.board.squares.keys() - targets == {
        "1,2", "4,6", "5,7", "0,3", "2,7", "5,4", "3,0", *GAME.geometry.table_top}
    with pytest.raises(IllegalAction, match="cannot go to D6"):
        s.apply(Teleport("0,3"))
    s.apply(Teleport("5,0"))  # a face-down slab: lands again
    assert s.mice[M1] == "5,0" and s.phase == "reveal"
    effects = s.apply(Reveal("cheese"))
    assert CheeseTaken(M1, "5,0", 1) in effects


def test_C5_arrow_cat_not_under_table_hole_mouse_or_cheese() -> None:
    s = rolled(position(cat="1,1", mice={M2: "4,6"}, side="cat", cheese_up=["5,7"]), 1)
    s.apply(Move("cat", "1,2"))
    s.apply(Reveal("arrow"))
    targets = set(s.arrow_targets())
    assert GAME.geometry.table_top <= targets
    assert not targets & GAME.geometry.under_table
    assert not targets & set(GAME.geometry.holes)
    assert "4,6" not in targets and "5,7" not in targets
    with pytest.raises(IllegalAction):
        s.apply(Teleport("4,6"))  # no capture by arrow
    s.apply(Teleport("top:3,5"))
    assert s.cat == "top:3,5" and s.side == "mice"


def test_C5_fork_mouse_chooses_a_face_up_cheese() -> None:
    s = rolled(position(cat="4,6", mice={M1: "1,1"}, cheese_up=["5,7", "0,0"]), 1)
    s.apply(Move(M1, "1,2"))
    s.apply(Reveal("fork"))
    assert s.phase == "fork" and s.legal_actions() == [Spear("0,0"), Spear("5,7")]
    with pytest.raises(IllegalAction):
        s.apply(Spear("4,6"))
    effects = s.apply(Spear("5,7"))
    assert CheeseTaken(M1, "5,7", 1, True) in effects
    assert s.face_up_cheese == {"0,0"} and s.cheese_held == 1 and s.side == "cat"


def test_C5_fork_cannot_take_the_cheese_the_cat_sits_on() -> None:
    # the cat sits on the only face-up cheese: the fork does nothing
    s = rolled(position(cat="5,7", mice={M1: "1,1"}, cheese_up=["5,7"]), 1)
    s.apply(Move(M1, "1,2"))
    effects = s.apply(Reveal("fork"))
    assert ForkUseless(M1) in effects and s.cheese_held == 0 and s.face_up_cheese == {"5,7"}
    # once the cat has left it, the next fork takes it
    s = rolled(position(cat="4,7", mice={M1: "1,1"}, cheese_up=["5,7"]), 1)
    s.apply(Move(M1, "1,2"))
    s.apply(Reveal("fork"))
    s.apply(Spear("5,7"))
    assert s.cheese_held == 1 and not s.face_up_cheese


def test_C5_fork_with_no_cheese_and_fork_for_cat_do_nothing() -> None:
    s = rolled(position(mice={M1: "1,1"}), 1)
    s.apply(Move(M1, "1,2"))
    assert ForkUseless(M1) in s.apply(Reveal("fork")) and s.side == "cat"
    s = rolled(position(cat="1,1", side="cat", cheese_up=["0,0"]), 1)
    s.apply(Move("cat", "1,2"))
    assert ForkUseless("cat") in s.apply(Reveal("fork"))
    assert s.face_up_cheese == {"0,0"} and s.side == "mice"


def test_C5_knife_mouse_mice_miss_next_turn_cat_plays_twice() -> None:
    s = rolled(position(cat="4,6", mice={M1: "1,1"}), 1)
    s.apply(Move(M1, "1,2"))
    effects = s.apply(Reveal("knife"))
    assert LosesNextTurn("mice1", "mice") in effects
    assert tracker(s).misses_next_turn == ("mice",)
    assert s.current_player() == "cat"
    rolled(s, 1)
    effects = s.apply(Move("cat", "4,5"))
    effects += s.apply(Reveal("crockery"))
    assert TurnSkipped("mice1", "mice") in effects and ThrowsAgain("cat") in effects
    assert s.current_player() == "cat" and tracker(s).double_turn == "cat"
    rolled(s, 1)
    s.apply(Move("cat", "4,4"))
    s.apply(Reveal("crockery"))
    assert s.current_player() == "mice1" and not s.skip["mice"] and not s.double


def test_C5_knife_cat_mice_play_twice_with_the_same_mouse() -> None:
    game = ChopChop(mice_players=2)
    s = rolled(position(cat="4,6", mice={M1: "1,1", M2: "2,6"}, side="cat", game=game), 1)
    s.apply(Move("cat", "4,5"))
    assert LosesNextTurn("cat", "cat") in s.apply(Reveal("knife"))
    assert s.current_player() == "mice1"
    rolled(s, 1)
    effects = s.apply(Move(M2, "1,6"))
    effects += s.apply(Reveal("crockery"))
    assert TurnSkipped("cat", "cat") in effects and ThrowsAgain("mice1", M2) in effects
    assert s.current_player() == "mice1"  # the same mice player rolls again
    t = tracker(s)
    assert t.double_turn == "mice" and t.same_mouse == M2
    rolled(s, 1)
    assert {a.piece for a in s.legal_actions() if isinstance(a, Move)} == {M2}
    with pytest.raises(IllegalAction, match="mouse 2 must move again"):
        s.apply(Move(M1, "1,0"))
    s.apply(Move(M2, "0,6"))
    s.apply(Reveal("crockery"))
    assert s.current_player() == "cat" and s.bonus_mouse is None
    rolled(s, 1)
    s.apply(s.legal_actions()[0])
    if s.phase == "reveal":
        s.apply(Reveal("crockery"))
    assert s.current_player() == "mice2"  # rotation moves on after the double
