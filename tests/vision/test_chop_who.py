"""Chop! Chop!'s who-is-where (vision.chop_who): the cat on the table top and the mouse under it
both reported, which mouse is which from the last confirmed position, and the legal moves a
reading shows."""

from __future__ import annotations

from typing import Any

import numpy as np

from companion import games
from vision.chop_who import (camera_moves, chop_pairs, cheese_lesson, name_mice, one_move_paths, pair_token, pairs_by_rules,
                             spot_squares)
from vision.synth.board3d_play import random_action


def test_a_mouse_that_stayed_keeps_its_name_and_the_one_that_moved_is_the_missing_one() -> None:
    last = {"0,3": "mouse:1", "2,7": "mouse:2", "5,4": "mouse:3", "3,0": "mouse:4", "top:2,3": "cat"}
    seen = ["0,3", "2,6", "5,4", "3,0"]
    assert name_mice(seen, last) == {"0,3": "mouse:1", "2,6": "mouse:2", "5,4": "mouse:3", "3,0": "mouse:4"}


def test_two_mice_that_may_each_have_gone_to_two_new_squares_are_asked_about() -> None:
    last = {"0,3": "mouse:1", "2,7": "mouse:2", "5,4": "mouse:3"}
    seen = ["0,3", "1,1", "4,4"]  # mice 2 and 3 both moved: which went where cannot be told
    assert name_mice(seen, last) == {"0,3": "mouse:1", "1,1": None, "4,4": None}
    # the moves the rules allow tell them apart: mouse 2 cannot reach 4,4 nor mouse 3 1,1
    near = {("2,7", "1,1"), ("5,4", "4,4")}
    assert name_mice(seen, last, lambda a, b: (a, b) in near) == {"0,3": "mouse:1", "1,1": "mouse:2",
                                                                 "4,4": "mouse:3"}


def test_a_caught_mouse_is_not_given_to_a_mouse_seen_elsewhere() -> None:
    last = {"1,1": "mouse:1", "4,4": "mouse:2"}
    assert name_mice(["4,4"], last) == {"4,4": "mouse:2"}
    assert name_mice([], last) == {}


def test_the_cat_over_a_mouse_is_reported_on_both_squares_and_as_one_pair() -> None:
    ids = ["top:2,3", "2,3"]
    assert spot_squares(ids, "cat", 0.9, both=True) == {"top:2,3": ("cat", 0.9), "2,3": ("mouse", 0.9)}
    # the cat alone: the floor under it is hidden, so unsure rather than surely empty
    assert spot_squares(ids, "cat", 0.9, both=False) == {"top:2,3": ("cat", 0.9), "2,3": (None, 0.5)}
    assert spot_squares(["4,4"], "cat", 0.9, both=False) is None
    assert pair_token(["mouse", "cat"]) == pair_token(["cat", "mouse:2"]) == "cat+mouse"


_GROUPS = [["2,3", "top:2,3"], ["2,4", "top:2,4"], ["0,3"], ["4,4"], ["5,4"], ["1,1"]]


def _read(**spots: str) -> list[tuple[str | None, float]]:
    """One reading per spot of ``_GROUPS`` (keyword: the spot's first square, ``_`` for ``,``)."""
    return [(spots.get(ids[0].replace(",", "_")), 0.9) for ids in _GROUPS]


def test_the_cat_come_onto_the_table_over_a_mouse_keeps_it_under_it_while_it_is_seen_nowhere_else() -> None:
    # C3, C6: the mouse under the table is out of the cat's reach; the cat's move did not move it
    confirmed = {"2,3": "mouse:1", "0,3": "mouse:2", "5,4": "mouse:3", "4,4": "cat"}
    assert pairs_by_rules(_read(**{"2_3": "cat", "0_3": "mouse", "5_4": "mouse"}), _GROUPS, confirmed) == [0]
    # one of the others not seen either: still there (the cat's arrival moved no mouse)
    assert pairs_by_rules(_read(**{"2_3": "cat", "0_3": "mouse"}), _GROUPS, confirmed) == [0]
    # every mouse of the confirmed position is read (session 30: the app confirms every move, so
    # the move was the cat's and the mouse under it did not leave; 1,1 is read wrongly): still there
    assert pairs_by_rules(_read(**{"2_3": "cat", "0_3": "mouse", "5_4": "mouse", "1_1": "mouse"}),
                          _GROUPS, confirmed) == [0]
    # a mouse the confirmed position had elsewhere read away from where it stood, and as many mice
    # read as it had: the one under the table may be the one read elsewhere
    assert pairs_by_rules(_read(**{"2_3": "cat", "0_3": "mouse", "4_4": "mouse", "1_1": "mouse"}),
                          _GROUPS, confirmed) == []
    # no mouse stood under that table square, or the cat is read elsewhere: nothing
    assert pairs_by_rules(_read(**{"2_4": "cat", "0_3": "mouse"}), _GROUPS, confirmed) == []
    assert pairs_by_rules(_read(**{"4_4": "cat", "0_3": "mouse"}), _GROUPS, confirmed) == []
    assert pairs_by_rules(_read(**{"2_3": "cat"}), _GROUPS, {}) == []


def test_the_cat_that_stood_over_a_mouse_keeps_it_only_when_every_other_mouse_is_read() -> None:
    confirmed = {"2,3": "mouse:1", "top:2,3": "cat", "0,3": "mouse:2", "5,4": "mouse:3"}
    # the turns since were the mice's: the others are seen, so the hidden one is the one under it
    assert pairs_by_rules(_read(**{"2_3": "cat", "0_3": "mouse", "1_1": "mouse"}), _GROUPS, confirmed) == [0]
    # two mice unseen (a hand, a miss): the one under the cat may be one that moved out
    assert pairs_by_rules(_read(**{"2_3": "cat", "0_3": "mouse"}), _GROUPS, confirmed) == []
    # all three read: it left
    assert pairs_by_rules(_read(**{"2_3": "cat", "0_3": "mouse", "5_4": "mouse", "1_1": "mouse"}),
                          _GROUPS, confirmed) == []


def test_a_new_game_gives_no_mouse_under_the_cat_by_the_rules() -> None:
    confirmed = {"2,3": "mouse:1", "0,3": "mouse:2", "4,4": "cat"}
    groups = [*_GROUPS, *[[f"9,{k}"] for k in range(6)]]
    decided = [*_read(**{"2_3": "cat"}), *[("slab", 0.95)] * 6]  # six clear slabs where none lay: laid again
    assert pairs_by_rules(decided, groups, confirmed) == []
    assert pairs_by_rules(decided[:len(_GROUPS)], _GROUPS, confirmed) == [0]


def test_the_mouse_the_rules_put_under_the_cat_is_reported_unsure() -> None:
    from types import SimpleNamespace

    reader = SimpleNamespace(groups=_GROUPS, confirmed={"2,3": "mouse:1", "0,3": "mouse:2", "4,4": "cat"},
                             _chop_kinds=["table", "table", "hole", "slab", "hole", "slab"],
                             _last_patches=np.zeros((6, 16, 16, 3)), _last_empty_patches=np.zeros((6, 16, 16, 3)))
    decided = _read(**{"2_3": "cat"})
    both = chop_pairs(reader, decided, ["cat", "mouse"], np.zeros((2, 4)))
    assert both == {0: 0.5}
    assert spot_squares(_GROUPS[0], "cat", 0.9, both[0]) == {"top:2,3": ("cat", 0.9), "2,3": ("mouse", 0.5)}


def _turn_with_mouse_under_cat(seed: int = 26) -> tuple[Any, Any]:
    """Seeded legal play to a mice turn where a mouse may go under the table-top cat."""
    rng = np.random.default_rng(seed)
    state = games.make("chopchop", {}).new_state()
    for _ in range(60):
        if not state.is_chance() and str(state.cat or "").startswith("top:"):
            moves = [a for a in state.legal_actions() if type(a).__name__ == "Move"
                     and a.piece.startswith("mouse") and a.to == str(state.cat)[4:]]
            if moves:
                return state, moves[0]
        state.apply(random_action(state, rng))
    raise AssertionError("no such turn")


def _observe(view: dict[str, str], conf: float = 0.9) -> dict[str, tuple[str | None, float]]:
    from vision.boarddefaults import board_for

    out: dict[str, tuple[str | None, float]] = {s: (None, conf) for s in board_for("chopchop").squares}
    for s, t in view.items():
        out[s] = (t.split(":")[0] if t.startswith("mouse") else t, conf)
    return out


def test_the_move_the_reading_shows_is_the_one_legal_move_and_names_its_mouse() -> None:
    state, move = _turn_with_mouse_under_cat()
    after = state.clone()
    after.apply(move)
    seen = _observe(after.board_view())
    seen[move.to] = (None, 0.5)  # the cat on the table top hides the mouse under it
    fits = camera_moves(state, seen)
    assert fits.sure and fits.actions == (move,)
    assert fits.results[0][move.to] == move.piece  # the mouse named: the game knows which one moved
    # before the players moved, nothing fits; the state is never changed
    view = dict(state.board_view())
    assert camera_moves(state, _observe(view)).actions == ()
    assert dict(state.board_view()) == view


def _turn_with_two_mice_for_one_square(seed: int = 3) -> tuple[Any, Any, Any]:
    """Seeded legal play to a mice turn where two mice may go to one square."""
    rng = np.random.default_rng(seed)
    state = games.make("chopchop", {}).new_state()
    for _ in range(200):
        if not state.is_chance() and not state.is_over():
            moves = [a for a in state.legal_actions() if type(a).__name__ == "Move" and a.piece.startswith("mouse")]
            for a in moves:
                other = next((b for b in moves if b.piece != a.piece and b.to == a.to), None)
                if other is not None:
                    return state, a, other
        if state.is_over():
            state = games.make("chopchop", {}).new_state()
        else:
            state.apply(random_action(state, rng))
    raise AssertionError("no such turn")


def test_where_the_squares_left_are_hidden_two_mice_fit_and_are_asked_about() -> None:
    state, move, other = _turn_with_two_mice_for_one_square()
    after = state.clone()
    after.apply(move)
    seen = _observe(after.board_view())
    assert camera_moves(state, seen).actions == (move,)  # both squares left in view: the one that moved
    for a in (move, other):
        seen[state.mice[a.piece]] = (None, 0.3)  # a hand over both squares the mice stood on
    fits = camera_moves(state, seen)
    assert set(fits.actions) == {move, other} and not fits.sure


def test_the_ways_of_one_move_onto_a_slab_are_one_proposal_and_two_mice_are_not() -> None:
    rng = np.random.default_rng(5)
    state = games.make("chopchop", {}).new_state()
    ways: list[Any] = []
    for _ in range(400):  # seeded legal play to a turn with two ways onto one slab square
        if not state.is_chance() and not state.is_over():
            moves = [a for a in state.legal_actions() if type(a).__name__ == "Move" and a.via]
            ways = [b for b in moves if moves and (b.piece, b.to) == (moves[0].piece, moves[0].to)]
            if len(ways) > 1:
                break
        state = games.make("chopchop", {}).new_state() if state.is_over() else state
        state.apply(random_action(state, rng))
    assert len(ways) > 1
    after = state.clone()
    after.apply(ways[0])
    fits = camera_moves(state, _observe(after.board_view()))
    assert set(fits.actions) == set(ways) and not fits.sure and fits.paths
    seen = _observe(after.board_view())
    seen[ways[0].to] = (seen[ways[0].to][0], 0.5)  # the piece on its end square read unsure: asked
    unsure = camera_moves(state, seen, 0.8)
    assert set(unsure.actions) == set(ways) and not unsure.paths
    assert one_move_paths(ways) and not one_move_paths(ways[:1])
    other = next(a for a in state.legal_actions() if type(a).__name__ == "Move" and a.to != ways[0].to)
    assert not one_move_paths([ways[0], other])  # two destinations: asked
    twin, mate = _turn_with_two_mice_for_one_square()[1:]
    assert not one_move_paths([twin, mate])  # two mice onto one square: asked


def test_the_bench_names_the_mice_of_each_scene_from_the_one_before_and_learns_cheese_in_play(
        tmp_path: Any, capsys: Any) -> None:
    import json

    from bench.board import CheeseInPlay, MiceNamed
    from vision.synth.board3d import write_3d_dataset
    from vision.synth.board_scenes import evaluate_dir

    assert write_3d_dataset(tmp_path, 3, seed=4, games=["chopchop"], group_size=3) == 3
    scenes = json.loads((tmp_path / "labels.json").read_text())["scenes"]
    named, taught = MiceNamed(), CheeseInPlay(tmp_path)
    seen: list[tuple[str, str]] = []

    def observe(scene: Any, before: Any, reader: Any, reading: Any) -> None:
        seen.append((scene["file"], before["file"]))
        named.observe(scene, before, reader, reading)
        taught.observe(scene, before, reader, reading)

    known: list[dict[str, str]] = []  # the confirmed position each read is made with

    def learned(scene: Any, reader: Any) -> None:  # --confirmed: the start is the first confirmed position
        seen.append((scene["file"], "learned"))
        reader.confirmed = dict(scene["squares"])
        read = reader.read
        reader.read = lambda img, track=True: (known.append(dict(reader.confirmed)), read(img, track=track))[1]

    evaluate_dir(tmp_path, observe=observe, learned=learned)
    assert seen == [(scenes[0]["file"], "learned"), (scenes[1]["file"], scenes[0]["file"]),
                    (scenes[2]["file"], scenes[1]["file"])]
    assert known[0] == scenes[0]["squares"] and known[0]  # the group's first read knows its start
    # the bench's --confirmed: each read knows the position before it, the first its learned start
    from bench.board import run
    from vision.pieces import BoardReader

    told: list[dict[str, str]] = []
    plain_read = BoardReader.read

    def read(self: Any, img: Any, track: bool = True) -> Any:
        told.append(dict(self.confirmed))
        return plain_read(self, img, track=track)

    BoardReader.read = read  # type: ignore[method-assign]
    try:
        run("3d", tmp_path, 3, 4, ["chopchop"], confirmed=True)
    finally:
        BoardReader.read = plain_read  # type: ignore[method-assign]
    assert told == [scenes[0]["squares"], scenes[1]["squares"]]
    mice = sum(t.startswith("mouse:") and s not in sc.get("occluded", ()) for sc in scenes[1:]
               for s, t in sc["squares"].items())
    c = named.counts
    assert c["mice"] == mice > 0 and c["right"] + c["asked"] + c["wrong"] + c["not read"] == mice
    named.print()
    assert f"mice named right {c['right']} of {mice}" in capsys.readouterr().out
    done: set[str] = set()
    lessons = [cheese_lesson(sc["squares"], done) for sc in scenes[1:]]
    assert taught.learned == sum(bool(x) for x in lessons)  # each new face-up cheese, once


def test_a_confirmed_face_up_cheese_is_taught_once_with_the_cat_where_the_game_has_it() -> None:
    done: set[str] = set()
    view = {"1,1": "cheese", "top:2,3": "cat", "4,4": "mouse:1", "0,0": "slab"}
    assert cheese_lesson(view, done) == {"1,1": "cheese", "top:2,3": "cat"}
    assert cheese_lesson(view, done) == {}  # already learned in this game
    assert cheese_lesson({**view, "5,5": "cheese"}, done) == {"5,5": "cheese", "top:2,3": "cat"}
    assert cheese_lesson({"0,0": "slab", "top:2,3": "cat"}, set()) == {}


def test_a_mouse_hidden_under_the_table_top_cat_is_not_reported_missing() -> None:
    from companion.crosscheck import crosscheck

    expected = {"top:2,3": "cat", "2,3": "mouse:2", "0,3": "mouse:1"}
    seen: dict[str, tuple[str | None, float]] = {"0,3": ("mouse", 0.9)}
    seen.update(spot_squares(["top:2,3", "2,3"], "cat", 0.9, both=False) or {})
    assert [m.kind for m in crosscheck(expected, seen)] == ["unsure"]  # asked at most, never "missing"
    seen.update(spot_squares(["top:2,3", "2,3"], "cat", 0.9, both=True) or {})
    assert crosscheck(expected, seen) == []


def test_the_cat_placed_at_the_start_is_the_placement_the_reading_shows() -> None:
    state = games.make("chopchop", {}).new_state()  # C1: the cat player places the cat first
    place = next(a for a in state.legal_actions() if type(a).__name__ == "PlaceCat")
    after = state.clone()
    after.apply(place)
    fits = camera_moves(state, _observe(after.board_view()))
    assert fits.sure and fits.actions == (place,)
    assert camera_moves(state, _observe(state.board_view())).actions == ()


def _look(bgr: tuple[float, float, float]) -> list[float]:
    """A look (chroma b, chroma g, log brightness, spread) of one flat colour."""
    total = sum(bgr)
    return [bgr[0] / total, bgr[1] / total, float(np.log(total / 3 + 0.02)), 0.0]


def test_a_table_spot_showing_the_cats_and_a_mouses_colours_holds_both() -> None:
    from vision.chop_who import cat_over_mouse
    from vision.piece_looks import P

    cat, mouse, paper = (0.2, 0.45, 0.85), (0.45, 0.42, 0.4), (0.9, 0.92, 0.93)
    names = ["cat", "mouse"]
    protos = np.array([_look(cat), _look(mouse)])
    empty = np.full((3, P, P, 3), paper)
    patches = empty.copy()
    patches[0, :, : P // 2] = cat  # the cat on the table top, a mouse beside it under the table
    patches[0, :, P // 2:] = mouse
    patches[1, :, :] = cat  # the cat alone
    patches[2, :, : P // 2] = cat  # both, but not a table spot
    patches[2, :, P // 2:] = mouse
    kinds = ["table", "table", "slab"]
    decided: list[tuple[str | None, float]] = [("cat", 0.9), ("cat", 0.9), ("cat", 0.9)]
    assert cat_over_mouse(kinds, decided, patches, empty, names, protos) == [0]
    # a mouse read on the table spot while the cat is read elsewhere: the cat is not there
    decided = [("mouse", 0.9), ("cat", 0.9), (None, 0.9)]
    assert cat_over_mouse(kinds, decided, patches, empty, names, protos) == []
    decided = [("mouse", 0.9), (None, 0.9), (None, 0.9)]  # the cat read nowhere: it is the one there
    assert cat_over_mouse(kinds, decided, patches, empty, names, protos) == [0]


def test_one_move_back_the_mouse_under_the_table_stays_when_another_piece_made_the_move() -> None:
    # session 30 (third family 4531 scene 9): the cat came onto the table top over mouse 1 and
    # every other mouse is read where it stood, with a hole read as a fifth mouse: the move was
    # the cat's, so the mouse under it did not move (the count alone said nothing)
    confirmed = {"2,3": "mouse:1", "0,3": "mouse:2", "5,4": "mouse:3", "1,1": "mouse:4", "4,4": "cat"}
    both = _read(**{"2_3": "cat", "0_3": "mouse", "5_4": "mouse", "1_1": "mouse", "4_4": "mouse"})
    assert pairs_by_rules(both, _GROUPS, confirmed) == [0]  # every other mouse where it stood
    # one of them read elsewhere: it, or the one under the table, left before the cat came (several
    # moves back, as the bench's --confirmed): the count decides, as before
    assert pairs_by_rules(_read(**{"2_3": "cat", "0_3": "mouse", "5_4": "mouse", "4_4": "mouse"}),
                          _GROUPS, confirmed) == [0]  # three of four read: fewer than it had
    assert pairs_by_rules(_read(**{"2_3": "cat", "0_3": "mouse", "5_4": "mouse", "2_4": "mouse", "4_4": "mouse"}),
                          _GROUPS, confirmed) == []
    # the cat stood there: one other mouse read away from where it stood and one where none stood
    # (that mouse moved), though a false mouse makes the count one too many
    stood = {"2,3": "mouse:1", "top:2,3": "cat", "0,3": "mouse:2", "5,4": "mouse:3"}
    moved = _read(**{"2_3": "cat", "0_3": "mouse", "4_4": "mouse", "1_1": "mouse"})
    assert pairs_by_rules(moved, _GROUPS, stood) == [0]
    # no mouse read where none stood: the one away may have been missed, the one under moved out
    assert pairs_by_rules(_read(**{"2_3": "cat", "0_3": "mouse"}), _GROUPS, stood) == []
    # one other away and a mouse where none stood, but the pair's own floor not a mouse before: nothing
    assert pairs_by_rules(moved, _GROUPS, {**stood, "2,3": "slab"}) == []


def test_one_move_back_known_a_cat_read_nowhere_is_not_found_again_in_a_mouses_colours() -> None:
    # a table spot read as a mouse showing the cat's and a mouse's colours while the cat is read
    # nowhere: with no position one move back it is the cat over the mouse; with it
    # (vision.chop_moved judged the cat, e.g. read off its square after an arrow) the spot stays the
    # mouse: the cat is asked, not proposed onto it (the lead's 4631, session 31)
    from types import SimpleNamespace

    from vision.piece_looks import P

    cat, mouse, paper = (0.2, 0.45, 0.85), (0.45, 0.42, 0.4), (0.9, 0.92, 0.93)
    protos = np.array([_look(cat), _look(mouse)])
    empty = np.full((6, P, P, 3), paper)
    patches = empty.copy()
    patches[0, :, : P // 2] = cat
    patches[0, :, P // 2:] = mouse
    decided = _read(**{"2_3": "mouse"})
    confirmed = {"2,3": "mouse:1", "0,3": "mouse:2", "4,4": "cat"}
    for one_move_back, pairs in ((False, {0: True}), (True, {})):
        reader = SimpleNamespace(groups=_GROUPS, confirmed=confirmed, confirmed_one_move=one_move_back,
                                 _chop_kinds=["table", "table", "hole", "slab", "hole", "slab"],
                                 _last_patches=patches, _last_empty_patches=empty)
        assert chop_pairs(reader, decided, ["cat", "mouse"], protos) == pairs
