"""RULES.md C8, the mice's dead ends: the game ends once the mice can no longer win, judged at
the end of each turn, with (a) too little cheese left, (b) no face-down slab a mouse can walk to,
(c) a mouse walled in on its unopened hole for good; the cat wins or a draw (``out_of_cheese``).

Every position is built by hand on the default board (holes 0,3 2,7 5,4 3,0) and ends a real
turn: a mice throw of 1 and a step onto a face-down slab whose tile is then told.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from companion import i18n
from companion.games.chopchop import ChopChop, ChopChopState, Move, Reveal, Teleport, Won
from companion.games.chopchop_end import cannot_win_reason
from companion.games.chopchop_paths import mouse_reach
from tests.companion.chopchop_helpers import GAME, M1, M2, M3, M4, position, rolled

FAR = ("5,6", "5,7", "4,7", "0,6", "0,7", "1,7", "5,5")
"""Face-down squares far from every test's mice, turned off the board to set the tile counts."""


def turned(s: ChopChopState, tile: str, n: int, squares: Iterable[str] = FAR) -> ChopChopState:
    """``n`` more ``tile`` slabs revealed (taken off ``squares``, else off any face-down square)."""
    pool = [sq for sq in squares if sq in s.face_down] + sorted(s.face_down - set(squares))
    for sq in pool[:n]:
        s.face_down.discard(sq)
        s.revealed.append((sq, tile, "cat"))
    return s


def mice_step(s: ChopChopState, mouse: str, to: str, tile: str) -> list[object]:
    """The mice throw 1, ``mouse`` steps onto the face-down ``to``, which shows ``tile``."""
    assert to in s.face_down
    rolled(s, 1)
    s.apply(Move(mouse, to))
    return list(s.apply(Reveal(tile)))


def won(effects: list[object]) -> Won:
    last = effects[-1]
    assert isinstance(last, Won), effects
    return last


# -- (a) too little cheese left ---------------------------------------------------------------

UP = ("5,0", "5,1", "5,2")  # face-up cheese that walls in nothing


@pytest.mark.parametrize("forks_turned,over", [(1, False), (2, True)])
def test_c8a_cheese_held_plus_face_down_plus_forkable_under_the_need(forks_turned: int, over: bool) -> None:
    # held 3, face-up 3 (so 4 cheese face down), forks face down 4 - forks_turned:
    # 3 + 4 + min(3, 3) = 10 goes on; 3 + 4 + min(3, 2) = 9 ends
    s = turned(position(mice={M1: "1,1"}, held=3, cheese_up=UP), "fork", forks_turned)
    effects = mice_step(s, M1, "1,2", "crockery")
    assert s.is_over() is over
    if over:
        assert won(effects).reason == "not enough cheese is left"
        assert s.outcome() == {"winner": "cat", "scores": {"cat": 1, "mice1": 0}, "side": "cat",
                               "reason": "not enough cheese is left", "cheese": 3, "mice_caught": 0}
    else:
        assert s.phase == "roll" and s.side == "cat"


def test_c8a_with_the_draw_setting_the_game_is_a_draw() -> None:
    game = ChopChop(out_of_cheese="draw")
    s = turned(position(mice={M1: "1,1"}, held=3, cheese_up=UP, game=game), "fork", 2)
    effects = mice_step(s, M1, "1,2", "crockery")
    assert won(effects) == Won("draw", "not enough cheese is left")
    out = s.outcome()
    assert out is not None and out["winner"] is None and out["side"] == "draw"
    assert out["scores"] == {"cat": 0, "mice1": 0}


def test_c8a_counts_the_face_up_cheese_only_as_far_as_forks_are_left() -> None:
    # held 3, face-up 3, 4 cheese face down, forks 4 left: 3 + 4 + min(3, 4) = 10 goes on;
    # one face-up cheese more (cheese face down 3): 3 + 3 + min(4, 4) = 10 still goes on
    s = position(mice={M1: "1,1"}, held=3, cheese_up=(*UP, "4,0"))
    mice_step(s, M1, "1,2", "crockery")
    assert not s.is_over()
    # the mice take a cheese: held 4, face down 2, face-up 4: 4 + 2 + 4 = 10 goes on
    s = position(mice={M1: "1,1"}, held=3, cheese_up=(*UP, "4,0"))
    mice_step(s, M1, "1,2", "cheese")
    assert not s.is_over() and s.cheese_held == 4


def test_c8a_is_judged_at_the_end_of_the_cats_turn_too() -> None:
    # held 8, 2 cheese face down, every fork turned: 8 + 2 + 0 = 10 goes on; then the cat sits
    # on one of the two: 8 + 1 + min(1, 0) = 9, and the cat's turn ends the game
    s = turned(position(mice={M1: "1,1"}, held=8), "fork", 4)
    mice_step(s, M1, "1,2", "crockery")
    assert not s.is_over() and s.side == "cat"
    rolled(s, 1)
    s.apply(Move("cat", "1,3"))
    effects = s.apply(Reveal("cheese"))
    assert won(effects).reason == "not enough cheese is left" and s.winner == "cat"


def test_c8a_not_applied_while_the_cheese_or_the_fork_count_is_unknown() -> None:
    # held 8, face-up 2, no cheese or fork face down: 8 + 0 + min(2, 0) = 8 ends ...
    s = turned(position(mice={M1: "1,1"}, held=8, cheese_up=UP[:2]), "fork", 4)
    mice_step(s, M1, "1,2", "crockery")
    assert s.is_over() and s.won_reason == "not enough cheese is left"
    # ... but not with an 11th cheese turned (the cheese count unknown; slabs still in reach)
    s = turned(position(mice={M1: "1,1"}, held=8, cheese_up=UP[:2]), "fork", 4)
    turned(s, "cheese", 1)
    assert s.tile_counts()["cheese"][1] is None
    mice_step(s, M1, "1,2", "crockery")
    assert not s.is_over()
    # ... nor with a 5th fork turned (the fork count unknown)
    s = turned(position(mice={M1: "1,1"}, held=8, cheese_up=UP[:2]), "fork", 5)
    assert s.tile_counts()["fork"][1] is None
    mice_step(s, M1, "1,2", "crockery")
    assert not s.is_over()
    # a count of another type contradicted (a 5th knife) does not stop (a)
    s = turned(position(mice={M1: "1,1"}, held=8, cheese_up=UP[:2]), "fork", 4)
    turned(s, "knife", 5)
    assert s.tile_counts()["knife"][1] is None
    mice_step(s, M1, "1,2", "crockery")
    assert s.is_over() and s.won_reason == "not enough cheese is left"


# -- (b) no face-down slab a mouse can walk to ------------------------------------------------

POCKET_WALLS = ("0,2", "1,2", "2,0", "2,1")
"""Face-up cheese closing the corner pocket 0,0 / 0,1 / 1,0 / 1,1 (0,1 its last slab)."""
POCKET = {"0,0", "0,1", "1,0", "1,1"}


def pocket(*, game: ChopChop = GAME, walls: Iterable[str] = POCKET_WALLS, held: int = 0) -> ChopChopState:
    """Mouse 1 in the corner pocket, the other mice caught; one slab left in its reach (0,1)."""
    return position(mice={M1: "0,0", M2: None, M3: None, M4: None}, cleared=("1,0", "1,1"), cheese_up=walls,
                    game=game, held=held)


@pytest.mark.parametrize("setting,winner,side", [("cat", "cat", "cat"), ("draw", None, "draw")])
def test_c8b_no_face_down_slab_in_any_mouse_reach_ends_the_game(setting: str, winner: str | None,
                                                                 side: str) -> None:
    s = pocket(game=ChopChop(out_of_cheese=setting))
    assert cannot_win_reason(s) is None  # the slab at 0,1 is still in reach
    effects = mice_step(s, M1, "0,1", "crockery")
    assert won(effects).reason == "no mouse can reach a face-down slab any more"
    out = s.outcome()
    assert out is not None and out["winner"] == winner and out["side"] == side
    assert s.face_down  # slabs are left, out of reach


def test_c8b_a_follow_up_belongs_to_its_turn() -> None:
    # the last slab in reach shows an arrow: no slab is in reach now, but the turn is not over
    s = pocket()
    effects = mice_step(s, M1, "0,1", "arrow")
    assert not s.is_over() and s.phase == "arrow" and not any(isinstance(e, Won) for e in effects)
    s.apply(Teleport("4,6"))  # out of the pocket, onto a slab
    s.apply(Reveal("crockery"))
    assert not s.is_over() and s.side == "cat"  # judged at the turn's end: slabs are in reach again
    # a +1 found there: the turn ends after the extra step, and is judged then
    s = pocket()
    mice_step(s, M1, "0,1", "plus1")
    assert not s.is_over() and s.phase == "bonus"
    s.apply(Move(M1, "1,1"))
    assert s.is_over() and s.won_reason == "no mouse can reach a face-down slab any more"


def test_c8b_the_cheese_under_the_cat_is_a_wall_other_pieces_are_not() -> None:
    # the cat sitting on the face-up cheese at 0,2 walls the pocket in as well
    s = pocket()
    s.cat = "0,2"
    mice_step(s, M1, "0,1", "crockery")
    assert s.is_over()
    # the cat (no cheese under it) or another mouse in the gap is no wall: the game goes on
    for blocker in ("cat", M2):
        s = pocket(walls=POCKET_WALLS[1:])
        s.face_down.discard("0,2")
        s.revealed.append(("0,2", "crockery", "cat"))
        if blocker == "cat":
            s.cat = "0,2"
        else:
            s.mice[M2] = "0,2"
        mice_step(s, M1, "0,1", "crockery")
        assert not s.is_over(), blocker


def test_c8b_the_table_top_is_a_wall_and_the_floor_under_it_is_not() -> None:
    reach = mouse_reach(GAME.geometry, "1,3", frozenset())
    assert "2,3" in reach and not any(sq.startswith("top:") for sq in reach)
    assert mouse_reach(GAME.geometry, "0,0", frozenset(POCKET_WALLS)) == POCKET


def test_c8b_not_applied_once_the_mice_hold_what_they_need() -> None:
    # 10 cheese held: the mice only need to get home; (b) does not end the game
    s = pocket(held=10)
    mice_step(s, M1, "0,1", "crockery")
    assert not s.is_over()


# -- (c) a mouse walled in on its unopened hole ------------------------------------------------

AROUND_2_7 = ("1,7", "3,7", "2,6")
"""Face-up cheese on every square beside mouse 2's hole 2,7. With 3 face-up cheese and no fork
left, (a) holds too below 10 cheese (7 + min(3, 0) < 10): (c) shows with 10 cheese held, or with
the cheese count unknown."""


@pytest.mark.parametrize("setting,winner,side", [("cat", "cat", "cat"), ("draw", None, "draw")])
def test_c8c_a_walled_in_mouse_with_no_fork_left_ends_the_game(setting: str, winner: str | None,
                                                               side: str) -> None:
    game = ChopChop(out_of_cheese=setting)
    s = turned(position(mice={M1: "1,1"}, cheese_up=AROUND_2_7, held=10, game=game), "fork", 3)
    mice_step(s, M1, "1,2", "crockery")
    assert not s.is_over()  # one fork is still face down and in reach: it can free mouse 2
    s = turned(position(mice={M1: "1,1"}, cheese_up=AROUND_2_7, held=10, game=game), "fork", 3)
    mice_step(s, M1, "1,2", "fork")  # the last fork: there is cheese to spear
    assert not s.is_over() and s.phase == "fork"
    s = turned(position(mice={M1: "1,1"}, cheese_up=AROUND_2_7, held=10, game=game), "fork", 4)
    effects = mice_step(s, M1, "1,2", "crockery")
    assert won(effects).reason == "mouse 2 can never leave its hole"
    out = s.outcome()
    assert out is not None and out["winner"] == winner and out["side"] == side and out["cheese"] == 10


def test_c8c_applies_below_the_need_when_a_is_not_applied() -> None:
    s = turned(position(mice={M1: "1,1"}, cheese_up=AROUND_2_7, held=7), "fork", 4)
    turned(s, "cheese", 1)  # an 11th cheese: the cheese count unknown, (a) not applied
    mice_step(s, M1, "1,2", "crockery")
    assert s.is_over() and s.won_reason == "mouse 2 can never leave its hole"


def test_c8c_the_fork_count_unknown_leaves_it_open_while_slabs_are_in_reach() -> None:
    s = turned(position(mice={M1: "1,1"}, cheese_up=AROUND_2_7, held=10), "fork", 5)  # a 5th fork
    assert s.tile_counts()["fork"][1] is None
    mice_step(s, M1, "1,2", "crockery")
    assert not s.is_over()


def test_c8c_no_slab_in_reach_means_no_fork_can_come() -> None:
    # 10 cheese held (so (a) and (b) do not apply), forks face down, but the only mouse out is
    # in the corner pocket with no slab left: mouse 2 can never be freed, its hole never opened
    s = position(mice={M1: "0,0", M3: None, M4: None}, cleared=("1,0", "1,1"),
                 cheese_up=(*POCKET_WALLS, *AROUND_2_7), held=10)
    assert s.tile_counts()["fork"][1] == 4
    mice_step(s, M1, "0,1", "crockery")
    assert s.is_over() and s.won_reason == "mouse 2 can never leave its hole"


def test_c8c_an_opened_hole_is_not_a_mouse_walled_in_on_its_slab() -> None:
    # mouse 2 left its hole and came back before the walls: its hole is opened, (c) does not apply
    s = turned(position(mice={M1: "1,1"}, cheese_up=AROUND_2_7, held=10), "fork", 4)
    s.opened.add("2,7")
    mice_step(s, M1, "1,2", "crockery")
    assert not s.is_over()


# -- the words ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang,cat,draw", [
    ("en", "The mice can no longer win: not enough cheese is left. The cat wins",
     "The mice can no longer win: mouse 2 can never leave its hole. It is a draw"),
    ("nl", "kaas", "muis 2"),
    ("fr", "fromage", "souris 2"),
])
def test_c8_the_end_is_said_with_its_reason_and_result(lang: str, cat: str, draw: str) -> None:
    try:
        i18n.set_language(lang)
        said_cat = Won("cat", "not enough cheese is left").describe()
        said_draw = Won("draw", "mouse 2 can never leave its hole").describe()
        said_reach = Won("cat", "no mouse can reach a face-down slab any more").describe()
    finally:
        i18n.set_language("en")
    assert cat in said_cat and draw in said_draw
    if lang != "en":  # translated, with the reason in the sentence
        assert "can no longer" not in said_cat + said_draw + said_reach
    assert Won("cat", "all the mice are caught").describe() == "The cat wins: all the mice are caught"


def test_c8_a_game_stored_past_its_c8_end_resumes_ended_there(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    # a game saved by a companion without C8 went on past the point where the mice could no
    # longer win; resumed now, it ends there (no error replaying the actions stored after it)
    import random
    from pathlib import Path

    from companion.games import chopchop_state
    from companion.session import Session
    from companion.store import Store
    from tests.companion.chopchop_helpers import random_action

    db = Path(str(tmp_path)) / "old.db"
    with Store.open(db) as store:
        monkeypatch.setattr(chopchop_state, "cannot_win_reason", lambda state: None)  # the old engine
        session = Session.start(store, "chopchop")
        rng = random.Random(1)
        for _i in range(400):
            if session.state.is_over():
                break
            session.apply(random_action(session.state, rng))  # type: ignore[arg-type]
        stored = len(session.turns)
        monkeypatch.undo()
        resumed = Session.load(store, session.game_id)
    assert resumed.state.is_over() and resumed.state.outcome()["reason"] == "not enough cheese is left"
    assert len(resumed.turns) < stored
