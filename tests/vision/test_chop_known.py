"""Chop! Chop!'s squares against the last confirmed position (``vision.chop_known``): a slab never
comes back and a face-up cheese is a turned slab (C5), so a slab or a cheese read where the
rules no longer allow one is something flat, read again unsure; figures are left as read. The
rendered test reads a third-family group (never trained on) as the app does, knowing the
position confirmed before each frame."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tests.vision.group_reads import c_group
from vision.boarddefaults import board_for
from vision.chop_cat import cat_off_cheese
from vision.chop_count import missing_mice
from vision.chop_known import UNSURE, allowed_now, follow_confirmed, mouse_stays_on_hole, new_game
from vision.chop_squares import ALLOWED, CLASSES
from vision.imageload import load_image
from vision.pieces import BoardReader, comparable


def _probs(rows: list[dict[str, float]]) -> np.ndarray:
    return np.array([[r.get(c, 0.0) for c in CLASSES] for r in rows])


def test_what_a_slab_square_can_hold_after_the_confirmed_position() -> None:
    assert allowed_now("slab", "slab") == {"-", "slab", "cheese", "cat", "mouse"}
    assert allowed_now("slab", "cheese") == {"-", "cheese", "cat", "mouse"}  # a fork may take it
    assert allowed_now("slab", "cat") == {"-", "cheese", "cat", "mouse"}  # the cat may sit on a cheese
    assert allowed_now("slab", "mouse:2") == {"-", "cat", "mouse"}
    assert allowed_now("slab", None) == {"-", "cat", "mouse"}
    assert allowed_now("hole", None) == {"hole", "mouse"}  # only slab squares change
    assert allowed_now("table", "cat") == {"-", "cat", "mouse"}


def test_a_slab_where_none_can_be_is_the_cheese_that_lay_there_or_the_floor_unsure() -> None:
    squares = ["1,1", "1,2", "1,3", "1,4", "1,5", "1,6"]
    kinds = ["slab"] * 6
    confirmed = {"1,1": "cheese", "1,2": "mouse:1", "1,3": "slab", "1,4": "cat", "1,6": "slab"}
    decided: list[tuple[str | None, float]] = [("slab", 0.99), ("slab", 0.8), ("slab", 0.97), ("cheese", 0.7),
                                               ("cheese", 0.6), ("mouse", 0.9)]
    probs = _probs([{"slab": 0.99}, {"slab": 0.6, "mouse": 0.3, "cheese": 0.05, "-": 0.05},
                    {"slab": 0.97}, {"cheese": 0.7, "-": 0.3}, {"cheese": 0.6, "-": 0.1, "mouse": 0.3},
                    {"mouse": 0.9}])
    assert follow_confirmed(decided, kinds, squares, confirmed, probs) == 3
    assert decided[0] == ("cheese", UNSURE)  # the face-up cheese stays face up (C5)
    assert decided[1] == (None, UNSURE)  # no slab and no cheese can be there: the floor, not a figure
    assert decided[2] == ("slab", 0.97)  # its slab is still face down
    assert decided[3] == ("cheese", 0.7)  # the cat left the cheese it sat on
    assert decided[4] == (None, UNSURE)  # no slab was there: no cheese can be
    assert decided[5] == ("mouse", 0.9)  # figures are left as read (a fork may have freed a square)


def test_nothing_changes_without_a_confirmed_position_or_in_a_new_game() -> None:
    squares = [f"{r},{c}" for r in range(2) for c in range(4)]
    decided: list[tuple[str | None, float]] = [("slab", 0.95)] * 8
    kept = list(decided)
    assert follow_confirmed(decided, ["slab"] * 8, squares, {}) == 0
    # the slabs laid again on squares the confirmed position had emptied: a new game
    assert follow_confirmed(decided, ["slab"] * 8, squares, {"0,0": "mouse:1"}) == 0
    assert decided == kept
    few: list[tuple[str | None, float]] = [("slab", 0.95)] + [(None, 0.9)] * 7
    assert follow_confirmed(few, ["slab"] * 8, squares, {"0,0": "mouse:1"}) == 1
    assert few[0] == (None, UNSURE)


def _frame_steps(decided: list[tuple[str | None, float]], kinds: list[str], squares: list[str],
                 confirmed: dict[str, str], probs: np.ndarray, holes: list[int], flat: list[int],
                 once: bool) -> list[tuple[str | None, float]]:
    """``vision.chop_frame``'s steps against the confirmed position in its order, the mice's look
    (``far_from_mice``: a hole spot's mouse read as the hole) at ``holes`` and the flat slabs
    (``chop_flat``: a slab read as the floor, unsure) at ``flat``; ``once``: the new game told
    once and passed, as chop_frame does, else told by each step."""
    out = list(decided)
    new = new_game(out, squares, confirmed, kinds) if once else None
    mouse_stays_on_hole(out, kinds, squares, confirmed, probs, 0.1, new)
    for i in holes:
        if kinds[i] == "hole" and out[i][0] == "mouse":
            out[i] = ("hole", 0.6)
    follow_confirmed(out, kinds, squares, confirmed, probs, new)
    cat_off_cheese(out, squares, confirmed, probs, kinds, new)
    changed = 0
    for i in flat:
        if out[i][0] == "slab":
            out[i], changed = (None, UNSURE), changed + 1
    missing_mice(out, [[s] for s in squares], confirmed, probs, kinds=kinds,
                 new=(None if new and changed else new) if once else None)
    return out


def test_a_frame_s_new_game_told_once_leaves_every_reading_as_each_step_telling_it() -> None:
    # session 27 (mend): chop_frame tells new_game once instead of four times; random frames,
    # some of them new games (many slabs back), some ended by a flat slab, read the same
    rng = np.random.default_rng(27)
    kinds_all = ["slab"] * 5 + ["hole", "table", "floor"]
    before = ["slab", "slab", "cheese", "mouse:1", "mouse:2", "cat", None, None]
    told = {"new": 0, "ended": 0}
    for _ in range(600):
        n = int(rng.integers(8, 30))
        squares = [f"{i // 8},{i % 8}" for i in range(n)]
        kinds = [str(rng.choice(kinds_all)) for _ in range(n)]
        laid = rng.random() < 0.5  # many clear slabs read: a new game is likely
        decided: list[tuple[str | None, float]] = []
        for k in kinds:
            can = sorted(ALLOWED[k] | {"slab", "cheese"} if k == "slab" else ALLOWED[k])
            t = "slab" if laid and k == "slab" and rng.random() < 0.7 else str(rng.choice(can))
            decided.append((None if t == "-" else t, float(rng.choice([0.3, 0.6, 0.95]))))
        confirmed = {s: str(t) for s in squares if (t := rng.choice(before)) is not None}
        probs = rng.dirichlet(np.ones(len(CLASSES)) * 0.5, size=n)
        holes = [int(i) for i in rng.choice(n, size=3)]
        flat = [int(i) for i in rng.choice(n, size=int(rng.integers(0, 6)))]
        once = _frame_steps(decided, kinds, squares, confirmed, probs, holes, flat, True)
        assert once == _frame_steps(decided, kinds, squares, confirmed, probs, holes, flat, False)
        if new_game(decided, squares, confirmed, kinds):
            told["new"] += 1
            told["ended"] += not new_game(once, squares, confirmed, kinds)
    assert told["new"] >= 50 and told["ended"] >= 5, told  # both paths were taken


def test_a_new_game_is_the_slabs_laid_on_the_squares_that_had_lost_theirs() -> None:
    # an early position: only five slab squares had no slab (three held figures); the next frame
    # shows clear slabs on all five, the figures back at the start: the slabs were laid again
    squares = [f"{r},{c}" for r in range(3) for c in range(8)]
    kinds = ["slab"] * 24
    confirmed = {s: "slab" for s in squares[5:]} | {"0,0": "mouse:1", "0,1": "mouse:4", "0,2": "cat"}
    decided: list[tuple[str | None, float]] = [("slab", 0.99)] * 24
    assert new_game(decided, squares, confirmed, kinds)
    assert not new_game(decided, squares, confirmed)  # five: under the count alone
    kept = list(decided)
    assert follow_confirmed(decided, kinds, squares, confirmed) == 0
    assert decided == kept
    # a late position: twenty squares had lost their slab; four read as clear slabs, fourteen as
    # the empty floor: not the slabs laid again; six clear slabs back still are, whatever else
    late = {s: "slab" for s in squares[20:]}
    seen: list[tuple[str | None, float]] = [("slab", 0.95)] * 4 + [(None, 0.9)] * 16 + [("slab", 0.99)] * 4
    assert not new_game(seen, squares, late, kinds)
    assert follow_confirmed(seen, kinds, squares, late) == 4
    assert seen[:4] == [(None, UNSURE)] * 4 and seen[20:] == [("slab", 0.99)] * 4
    six: list[tuple[str | None, float]] = [("slab", 0.95)] * 6 + [(None, 0.9)] * 14 + [("slab", 0.99)] * 4
    assert new_game(six, squares, late) and new_game(six, squares, late, kinds)


@pytest.fixture(scope="module")
def group_c(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, object]]]:
    # the third family (never trained on): seed 4027's Chop! Chop! group 2 (red slabs, the evening
    # lamp at gain 9.9; its face-up cheese read as slabs by the reader alone), at 640x480
    return c_group(tmp_path_factory, "chopchop", 2, 8, 16, 4027, frame=(640, 480))  # type: ignore[return-value]


def _read_group(group: tuple[Path, list[dict[str, object]]], confirmed: bool) -> tuple[Counter[tuple[str, str]], int]:
    root, scenes = group
    board = board_for("chopchop")
    reader = BoardReader(board)
    start = next(s for s in scenes if s.get("learn"))
    reader.learn(load_image(root / str(start["file"])).image, dict(start["squares"]))  # type: ignore[call-overload]
    out: Counter[tuple[str, str]] = Counter()
    back = 0
    before: dict[str, str] = {}
    for s in scenes:
        if s is start:
            continue
        reader.confirmed = dict(before) if confirmed else {}
        before = before if confirmed else {}
        reading = reader.read(load_image(root / str(s["file"])).image, track=False)
        truth = comparable(board, dict(s["squares"]))  # type: ignore[call-overload]
        got = reader.read_spots(reading)
        skip = set(s.get("occluded", ())) | set(s.get("unreportable", ()))  # type: ignore[call-overload]
        for sid in reader.observable:
            if sid not in skip:
                out[((truth.get(sid) or "-").split(":")[0], (got.get(sid) or "-").split(":")[0])] += 1
        back += sum(1 for sid, (token, _) in reading.squares.items()  # a slab where the last position had none
                    if before and token == "slab" and before.get(sid) != "slab")
        before = dict(s["squares"])  # type: ignore[call-overload]  # confirmed by the players after the read
    return out, back


@pytest.mark.slow
def test_third_family_face_up_cheese_read_as_slabs_are_the_cheese_once_the_position_was_confirmed(
        group_c: tuple[Path, list[dict[str, object]]]) -> None:
    # measured: the reader alone reads 4 of this group's face-up cheese as slabs; knowing the
    # position confirmed before each frame, 1 (a cheese turned and left by the cat since: a slab
    # there in the confirmed position), 3 squares more right
    alone, _ = _read_group(group_c, confirmed=False)
    known, back = _read_group(group_c, confirmed=True)
    right = {k: sum(n for (w, g), n in c.items() if w == g) for k, c in (("alone", alone), ("known", known))}
    assert alone[("cheese", "slab")] >= 3, alone
    assert known[("cheese", "slab")] <= 1, known
    assert right["known"] >= right["alone"] + 3, (alone, known)
    assert sum(n for (w, g), n in known.items() if w != g and g in ("slab", "cheese")) < sum(
        n for (w, g), n in alone.items() if w != g and g in ("slab", "cheese"))
    assert back == 0


def test_a_caught_mouse_never_comes_back_so_the_least_likely_extra_mouse_is_read_again() -> None:
    squares = ["0,3", "1,1", "1,2", "2,2"]
    kinds = ["hole", "slab", "slab", "slab"]
    confirmed = {"0,3": "mouse:1", "1,1": "slab", "2,2": "mouse:3"}  # two mice left (C6)
    decided: list[tuple[str | None, float]] = [("mouse", 0.9), ("mouse", 0.9), (None, 0.9), ("mouse", 0.8)]
    probs = _probs([{"mouse": 0.9, "hole": 0.1}, {"mouse": 0.6, "cheese": 0.3, "cat": 0.1},
                    {"-": 0.9}, {"mouse": 0.8, "-": 0.2}])
    assert follow_confirmed(decided, kinds, squares, confirmed, probs) == 1
    assert decided[1] == ("cheese", UNSURE)  # the least likely mouse: a cheese turned since
    assert decided[0] == ("mouse", 0.9) and decided[3] == ("mouse", 0.8)
    again: list[tuple[str | None, float]] = [("mouse", 0.9), ("mouse", 0.9), (None, 0.9), ("mouse", 0.8)]
    assert follow_confirmed(again, kinds, squares, {**confirmed, "1,2": "mouse:2"}, probs) == 0


def test_where_a_cheese_lay_a_floor_or_mouse_reading_over_a_figure_likeness_is_the_cheese() -> None:
    squares = ["1,1", "1,2", "1,3", "1,4"]
    kinds = ["slab"] * 4
    confirmed = {"1,1": "cheese", "1,2": "cheese", "1,3": "cheese", "1,4": "slab", "0,3": "mouse:1",
                 "2,7": "mouse:2", "5,4": "mouse:3", "3,0": "mouse:4"}
    decided: list[tuple[str | None, float]] = [(None, 0.9), ("mouse", 0.9), (None, 0.9), (None, 0.9)]
    probs = _probs([{"mouse": 0.9, "-": 0.05, "cheese": 0.05},  # the four-mice rule left the floor
                    {"mouse": 0.9, "cheese": 0.1},  # a pale tile taken for a pale mouse
                    {"-": 0.9, "mouse": 0.1},  # the floor: a fork took it
                    {"mouse": 0.9, "-": 0.1}])  # no cheese lay there
    assert follow_confirmed(decided, kinds, squares, confirmed, probs) == 2
    assert decided == [("cheese", UNSURE), ("cheese", UNSURE), (None, 0.9), (None, 0.9)]
    cat: list[tuple[str | None, float]] = [("cat", 0.8), (None, 0.9), (None, 0.9), (None, 0.9)]
    follow_confirmed(cat, kinds, squares, confirmed, probs)
    assert cat[0] == ("cat", 0.8)  # the one cat is left where it is read


@pytest.fixture(scope="module")
def group_c0(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, object]]]:
    # the third family: seed 4026's Chop! Chop! group 0 (white meeple mice, white face-up tiles
    # with a small yellow wedge, the camera nearly overhead), at 640x480
    return c_group(tmp_path_factory, "chopchop", 0, 8, 0, 4026, frame=(640, 480))  # type: ignore[return-value]


@pytest.mark.slow
def test_third_family_a_pale_cheese_beside_pale_mice_stays_the_cheese_once_confirmed(
        group_c0: tuple[Path, list[dict[str, object]]]) -> None:
    # measured: the reader alone reads this group's face-up cheese as the floor 4 times (the
    # four-mice rule drops it as the least likely mouse) and as a mouse 2 times; knowing the
    # position confirmed before each frame, as the floor once (a cheese not yet face up there)
    alone, _ = _read_group(group_c0, confirmed=False)
    known, _ = _read_group(group_c0, confirmed=True)
    assert alone[("cheese", "-")] + alone[("cheese", "mouse")] >= 5, alone
    assert known[("cheese", "-")] + known[("cheese", "mouse")] <= 1, known
    assert sum(n for (w, g), n in known.items() if w != g) <= sum(n for (w, g), n in alone.items() if w != g) - 4


def test_a_mouse_on_a_hole_in_the_confirmed_position_read_as_the_opened_hole_stays_the_mouse() -> None:
    # the start-picture comparison read "opened" (the figure turned); the classifier finds the mouse
    squares = ["3,0", "0,3", "2,7", "5,4", "1,1"]
    kinds = ["hole", "hole", "hole", "hole", "slab"]
    confirmed = {"3,0": "mouse:1", "0,3": "hole", "2,7": "mouse:2", "5,4": "mouse:3", "1,1": "mouse:4"}
    decided: list[tuple[str | None, float]] = [("hole", 0.72), ("hole", 0.7), ("hole", 0.68), ("hole", 0.6),
                                               (None, 0.8)]
    probs = _probs([{"mouse": 0.74, "hole": 0.26}, {"mouse": 0.8, "hole": 0.2}, {"mouse": 0.45, "hole": 0.55},
                    {"mouse": 0.52, "hole": 0.48}, {"mouse": 0.9, "-": 0.1}])
    assert mouse_stays_on_hole(decided, kinds, squares, confirmed, probs, 0.05) == 1
    assert decided[0] == ("mouse", UNSURE)  # its mouse never left: still on its hole (C3, C4)
    assert decided[1] == ("hole", 0.7)  # the opened hole was empty: the rule says nothing there
    assert decided[2] == ("hole", 0.68)  # the classifier finds the hole likelier: the mouse left
    assert decided[3] == ("hole", 0.6)  # within the margin: as read
    assert decided[4] == (None, 0.8)  # only holes (a mouse elsewhere may have been caught, C6)


def test_a_mouse_kept_on_its_hole_needs_a_confirmed_position_and_the_classifier_and_no_new_game() -> None:
    kinds = ["hole"] + ["slab"] * 8
    squares = ["3,0"] + [f"{r},{c}" for r in range(1, 3) for c in range(1, 5)]
    decided: list[tuple[str | None, float]] = [("hole", 0.7)] + [(None, 0.9)] * 8
    probs = _probs([{"mouse": 0.8, "hole": 0.2}] + [{"-": 1.0}] * 8)
    assert mouse_stays_on_hole(list(decided), kinds, squares, {}, probs, 0.05) == 0
    assert mouse_stays_on_hole(list(decided), kinds, squares, {"3,0": "mouse:1"}, None, 0.05) == 0
    laid = [("hole", 0.7)] + [("slab", 0.95)] * 8  # the slabs laid again where none lay: a new game
    assert mouse_stays_on_hole(list(laid), kinds, squares, {"3,0": "mouse:1"}, probs, 0.05) == 0
    assert mouse_stays_on_hole(list(decided), kinds, squares, {"3,0": "mouse:1"}, probs, 0.05) == 1
