"""Chop! Chop!'s learned per-square classifier (``vision.chop_squares``): the rules it keeps (one
cat, four mice at most, what each spot can hold) and the failure modes of issue 31 it fixes, on
a group of rendered 3-D scenes (``vision.synth.board3d``, seed 5150: not a training seed) read
after ``learn`` on the group's start, as the bench does."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tests.vision.group_reads import a_group, c_group, kind_confusion
from vision.boarddefaults import board_for
from vision.chop_squares import (CLASSES, MOUSE_COLUMN, MOUSE_LEARNED_COLUMN, N_FEATURES, decide, far_from_mice,
                                 merge, square_model)
from vision.imageload import load_image
from vision.piece_config import PieceConfig
from vision.pieces import BoardReader, comparable


def _probs(rows: list[dict[str, float]]) -> np.ndarray:
    return np.array([[r.get(c, 0.0) for c in CLASSES] for r in rows])


def test_decide_keeps_one_cat_and_four_mice_and_what_each_spot_can_hold() -> None:
    kinds = ["slab", "slab", "table", "floor", "slab", "slab", "slab", "hole"]
    rows = [{"cat": 0.9, "slab": 0.1}, {"cat": 0.8, "mouse": 0.15, "slab": 0.05}]
    rows += [{"mouse": 0.9, "-": 0.1}, {"mouse": 0.8, "-": 0.2}, {"mouse": 0.7, "slab": 0.3},
             {"mouse": 0.6, "slab": 0.4}, {"mouse": 0.55, "cheese": 0.45}, {"cheese": 0.9, "hole": 0.1}]
    got = decide(_probs(rows), kinds)
    tokens = [t for t, _ in got]
    assert tokens.count("cat") == 1 and tokens[0] == "cat"
    # the second cat becomes a mouse, the sixth mouse; the two least likely mice take their next reading
    assert tokens.count("mouse") == 4 and tokens[2:6] == ["mouse"] * 4
    assert tokens[1] == "slab" and tokens[6] == "cheese"
    assert tokens[7] == "hole"  # a hole holds a mouse or the opened hole, never a cheese (C3)
    assert all(0 <= c <= 1 for _, c in got)


def test_merge_takes_the_classifier_only_where_it_is_sure_and_keeps_the_rules_cat() -> None:
    kinds = ["slab", "slab", "table"]
    rules = [("slab", 0.7), ("mouse", 0.6), ("cat", 0.5)]
    learned = [("cheese", 0.95), ("slab", 0.8), ("mouse", 0.97)]
    got = merge(rules, learned, kinds, 0.9)
    assert got[0] == ("cheese", 0.95)  # sure: the classifier's
    assert got[1] == ("mouse", 0.6)  # unsure: the rules'
    assert got[2] == ("cat", 0.5)  # the cat never leaves the board (C1): read nowhere else, the rules' cat


def test_the_classifier_decides_where_more_sure_than_not_but_the_holes_and_the_cat_need_it_sure() -> None:
    # measured on both 3-D families and two held-out sets (docs/readme/board.md, chop2): where the
    # classifier is 0.5-0.9 sure the rules read worse (second family's mice read as slabs); a
    # false cat puts the real one out (C1), so a cat still needs 0.9; on a hole the rules compare
    # with the start's own picture (C4), and a mouse standing on an opened hole changes it as the
    # opening did: the classifier's reading there from 0.85 (chop3)
    cfg = PieceConfig()
    kinds = ["slab", "hole", "slab", "table", "hole"]
    rules = [("slab", 0.7), ("hole", 0.8), ("cat", 0.99), ("mouse", 0.3), ("hole", 0.9)]
    learned = [("mouse", 0.74), ("mouse", 0.88), ("cheese", 0.3), ("cat", 0.78), ("mouse", 0.8)]
    got = merge(rules, learned, kinds, cfg.chop_classifier_sure, cfg.chop_classifier_sure_strict,
                cfg.chop_classifier_sure_hole)
    assert got == [("mouse", 0.74), ("mouse", 0.88), ("cat", 0.99), ("mouse", 0.3), ("hole", 0.9)]
    # without a hole threshold the strict one holds on holes too (chop2's merge)
    assert merge(rules, learned, kinds, 0.5, 0.9)[1] == ("hole", 0.8)
    assert merge(rules, learned, kinds, 0.5) == [("mouse", 0.74), ("mouse", 0.88), ("cheese", 0.3), ("cat", 0.78),
                                                 ("mouse", 0.8)]


def test_the_cat_is_where_the_classifier_finds_it_most_likely_across_the_frame() -> None:
    # third family (docs/readme/board.md, chopc): the cat, a meeple like the mice (or lying on a
    # slab of its own colour), reads as a mouse or a slab at 0.93-0.99, but its cat probability
    # is still the frame's highest; the rules' cat (by look) is then a mouse
    kinds = ["slab", "table", "slab", "hole", "slab"]
    rules = [("mouse", 1.0), ("cat", 0.45), ("slab", 1.0), ("mouse", 0.8), ("slab", 0.9)]
    learned = [("mouse", 0.96), ("mouse", 0.99), ("slab", 0.9), ("mouse", 0.7), ("slab", 0.93)]
    probs = _probs([{"mouse": 0.95, "cat": 0.04, "-": 0.01}, {"mouse": 0.99, "cat": 0.005, "-": 0.005},
                    {"slab": 0.9, "cat": 0.02, "cheese": 0.08}, {"mouse": 0.7, "hole": 0.3},
                    {"slab": 0.93, "cat": 0.06, "-": 0.01}])
    assert merge(rules, learned, kinds, 0.5, 0.9, 0.85)[:2] == [("mouse", 0.96), ("cat", 0.45)]  # before
    got = merge(rules, learned, kinds, 0.5, 0.9, 0.85, probs, 5.0)
    assert got[4][0] == "cat" and got[4][1] <= 0.5  # the likeliest (0.06 >= 5 x 0.005), unsure: asked
    assert got[1] == ("mouse", 0.99) and got[0] == ("mouse", 0.96) and got[2] == ("slab", 0.9)
    assert [t for t, _ in got].count("cat") == 1
    # not five times as likely: the cat stays where it is read (second family's cats: 0.02-0.06)
    assert merge(rules, learned, kinds, 0.5, 0.9, 0.85, probs, 20.0)[1] == ("cat", 0.45)
    # never on a hole (C3), however likely there
    holey = probs.copy()
    holey[3] = _probs([{"cat": 0.9, "mouse": 0.1}])[0]
    assert merge(rules, learned, kinds, 0.5, 0.9, 0.85, holey, 5.0)[3][0] != "cat"
    # read nowhere: the likeliest spot off the holes
    none = [("mouse", 1.0), ("mouse", 0.6), ("slab", 1.0), ("mouse", 0.8), ("slab", 0.9)]
    got = merge(none, learned, kinds, 0.5, 0.9, 0.85, probs, 5.0)
    assert [t for t, _ in got] == ["mouse", "mouse", "slab", "mouse", "cat"]


def test_a_slab_the_rules_are_sure_of_needs_a_sure_classifier_to_be_the_cheese() -> None:
    # third family seed 4027 (docs/readme/board.md, chopc): slabs under the evening lamp read as
    # cheese at 0.53-0.78 where the rules' slab (the start's learned slab look) was 1.0
    kinds = ["slab", "slab", "slab", "slab"]
    rules = [("slab", 1.0), ("slab", 0.97), ("slab", 0.8), ("mouse", 0.99)]
    learned = [("cheese", 0.7), ("cheese", 0.85), ("cheese", 0.7), ("cheese", 0.7)]
    assert [t for t, _ in merge(rules, learned, kinds, 0.5)] == ["cheese"] * 4  # before
    got = merge(rules, learned, kinds, 0.5, slab_kept=PieceConfig().chop_slab_kept)
    assert got == [("slab", 1.0), ("cheese", 0.85), ("cheese", 0.7), ("cheese", 0.7)]


def test_a_mouse_read_on_a_hole_unlike_every_learned_mouse_is_the_opened_hole() -> None:
    # third family (docs/readme/board.md, chopc): a dark shaft read as the dark mouse that stood
    # there (the start's picture and the classifier alike) lies 1.07-1.83 from the learned mouse
    # look; the mice read on holes of all six bench sets lie within 0.9 of it
    kinds = ["hole", "hole", "slab", "hole", "hole"]
    feats = np.zeros((5, N_FEATURES), np.float32)
    feats[:, MOUSE_LEARNED_COLUMN] = 1.0
    feats[:, MOUSE_COLUMN] = np.log(np.array([1.3, 0.5, 1.5, 1.2, 1.3]) + 0.05)
    feats[4, MOUSE_LEARNED_COLUMN] = 0.0  # no mouse look learned: no rule
    out: list[tuple[str | None, float]] = [("mouse", 0.8), ("mouse", 0.8), ("mouse", 0.9), ("hole", 0.7),
                                           ("mouse", 0.8)]
    assert far_from_mice(out, kinds, feats, PieceConfig().chop_hole_mouse_far or 0.0) == 1
    assert [t for t, _ in out] == ["hole", "mouse", "mouse", "hole", "mouse"]
    assert 0.5 <= out[0][1] <= 0.9


@pytest.fixture(scope="module")
def group(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, object]]]:
    return a_group(tmp_path_factory, "chopchop", 8, 5150)  # rendered once a run (also test_chop_count's)


def _confusion(group: tuple[Path, list[dict[str, object]]], classifier: bool) -> Counter[tuple[str, str]]:
    root, scenes = group
    board = board_for("chopchop")
    reader = BoardReader(board, config=PieceConfig(chop_classifier=classifier))
    start = next(s for s in scenes if s.get("learn"))
    reader.learn(load_image(root / str(start["file"])).image, dict(start["squares"]))  # type: ignore[call-overload]
    out: Counter[tuple[str, str]] = Counter()
    for s in scenes:
        if s is start:
            continue
        reading = reader.read(load_image(root / str(s["file"])).image, track=False)
        assert reading.found
        truth = comparable(board, dict(s["squares"]))  # type: ignore[call-overload]
        got = reader.read_spots(reading)
        skip = set(s.get("occluded", ())) | set(s.get("unreportable", ()))  # type: ignore[call-overload]
        for sid in reader.observable:
            if sid not in skip:
                out[(truth.get(sid) or "-", got.get(sid) or "-")] += 1
    return out


@pytest.mark.slow
def test_rendered_squares_no_false_mice_cheese_read_and_mice_on_holes_kept(
        group: tuple[Path, list[dict[str, object]]]) -> None:
    # before (the rules alone, measured on this group): 248 of 266 squares right; 7 empty squares
    # read as mice (shadows, a figure leaning over), 1 face-up cheese of 3 read, 7 mice on holes
    # read as the opened hole. Session 16's model (first family only): 262, 2 false mice, 1 mouse
    # on a hole missed. Session 17's (both families, relative features; better on the four bench
    # sets): 259, 3 false mice, all beside the arm reaching over the board in scene 7, 2 mice on
    # holes read as the hole (the rules' hole kept: the classifier said mouse at 0.73 and 0.89,
    # under the 0.9 then needed on a hole). Since chop3 (0.85 on a hole): 260, the 0.89 one read.
    # Since session 26 (vision.stillpose.agreed_pose): 259, 4 false mice: scene 4 (one marker
    # visible, the arm over the board) is read under the learned photo's pose, 0.1 mm off at the
    # squares' median instead of its own two-marker pose's 1.7 mm, and square 3,7 beside the arm
    # reads a mouse there (260 and 3 with AGREED_MARKERS = 0; docs/readme/board.md, session 26).
    assert square_model() is not None
    c = _confusion(group, classifier=True)
    total = sum(c.values())
    right = sum(n for (w, g), n in c.items() if w == g)
    assert c[("-", "mouse")] + c[("slab", "mouse")] <= 4
    cheese = sum(n for (w, _), n in c.items() if w == "cheese")
    assert cheese >= 3 and c[("cheese", "cheese")] == cheese
    assert c[("mouse", "hole")] <= 1, c
    assert right >= 259 and right >= 0.97 * total, c


@pytest.mark.slow
def test_the_raised_plane_sampled_at_the_spots_is_the_whole_warp(
        group: tuple[Path, list[dict[str, object]]]) -> None:
    # the raised plane is sampled at the spots' points only (the read's time): the same patches
    # as warping the whole board up there and cutting them out
    from vision.chop_squares import HEIGHT_CELLS, _sample_spots, _spot_grid

    root, scenes = group
    reader = BoardReader(board_for("chopchop"))
    image = load_image(root / str(scenes[1]["file"])).image
    reading = reader.read(image, track=False)
    assert reading.found
    pose = reader.refine(image, reading.pose)
    lift = reader._lift(pose, (image.shape[1], image.shape[0]), HEIGHT_CELLS * reader.cell_mm)
    whole = reader._patches(reader.warp(image, pose, lift).astype(np.float32) / 255)
    s = reader.config.px_per_mm
    spots = _sample_spots(image, pose.homography @ lift @ np.diag([1 / s, 1 / s, 1.0]), _spot_grid(reader)) / 255
    assert spots.shape == whole.shape
    assert float(np.abs(spots - whole).mean()) < 0.004 and float(np.abs(spots - whole).max()) < 0.06
    ground = _sample_spots(image, pose.homography @ np.diag([1 / s, 1 / s, 1.0]), _spot_grid(reader)) / 255
    assert float(np.abs(ground - whole).mean()) > 0.01  # the raised plane is not the ground


def test_the_trainer_fits_separable_classes_and_the_model_file_round_trips(tmp_path: Path) -> None:
    from vision.chop_squares import SquareModel
    from vision.synth.chop_train import train

    rng = np.random.default_rng(0)
    centres = rng.normal(0, 4, (len(CLASSES), 5))
    y = np.repeat(np.arange(len(CLASSES)), 40)
    x = (centres[y] + rng.normal(0, 0.5, (len(y), 5))).astype(np.float32)
    model = train(x, y, hidden=8, epochs=300)
    assert (model.probs(x).argmax(axis=1) == y).mean() > 0.97
    model.save(tmp_path / "m.npz")
    again = SquareModel.load(tmp_path / "m.npz")
    assert again is not None and np.allclose(again.probs(x), model.probs(x), atol=1e-5)
    assert SquareModel.load(tmp_path / "missing.npz") is None  # no model: the reader keeps its rules


def test_an_ensemble_averages_its_members_and_its_file_round_trips(tmp_path: Path) -> None:
    from vision.chop_squares import SquareModel
    from vision.synth.chop_train import ensemble, train

    rng = np.random.default_rng(2)
    centres = rng.normal(0, 1.5, (len(CLASSES), 5))
    y = np.repeat(np.arange(len(CLASSES)), 30)
    x = (centres[y] + rng.normal(0, 1.0, (len(y), 5))).astype(np.float32)
    three = ensemble(x, y, members=3, hidden=6, epochs=200)
    one = train(x, y, hidden=6, epochs=200, norm=(x.mean(axis=0), x.std(axis=0) + 1e-3))
    assert three.members == 3 and three.w1.shape == (3, 5, 6)
    # the first member is train's own model; the others (bootstrap samples) differ from it
    first = SquareModel(three.mean, three.std, three.w1[0], three.b1[0], three.w2[0], three.b2[0])
    assert np.allclose(first.probs(x), one.probs(x), atol=1e-6)
    members = [SquareModel(three.mean, three.std, three.w1[e], three.b1[e], three.w2[e], three.b2[e]) for e in range(3)]
    assert not np.allclose(members[1].probs(x), members[0].probs(x), atol=1e-3)
    assert np.allclose(three.probs(x), np.mean([m.probs(x) for m in members], axis=0), atol=1e-6)
    again_at_once = ensemble(x, y, members=3, hidden=6, epochs=200, jobs=2)  # members fitted in processes
    assert np.array_equal(again_at_once.w1, three.w1) and np.array_equal(again_at_once.w2, three.w2)
    three.save(tmp_path / "e.npz")
    again = SquareModel.load(tmp_path / "e.npz")
    assert again is not None and again.members == 3 and np.allclose(again.probs(x), three.probs(x), atol=1e-6)
    one.save(tmp_path / "one.npz")  # a single network keeps the older 2-D file layout
    with np.load(tmp_path / "one.npz") as z:
        assert z["w1"].shape == (5, 6)


def test_a_kept_network_joins_an_ensemble_standardised_otherwise_with_its_own_probabilities(tmp_path: Path) -> None:
    from vision.chop_squares import SquareModel
    from vision.synth.chop_train import ensemble, train, with_kept

    rng = np.random.default_rng(3)
    centres = rng.normal(0, 1.5, (len(CLASSES), 5))
    y = np.repeat(np.arange(len(CLASSES)), 30)
    x = (centres[y] + rng.normal(0, 1.0, (len(y), 5))).astype(np.float32)
    old = train(x[::2] * 2 + 1, y[::2], hidden=6, epochs=200)  # trained on other spots: its own mean and std
    old.save(tmp_path / "old.npz")
    new = ensemble(x, y, members=2, hidden=6, epochs=200)
    assert not np.allclose(old.mean, new.mean, atol=0.1)
    folded = old.renormed(new.mean, new.std)
    assert np.allclose(folded.mean, new.mean) and np.allclose(folded.probs(x), old.probs(x), atol=1e-5)
    both = with_kept(new, [tmp_path / "old.npz"])
    assert both.members == 3 and np.allclose(both.mean, new.mean)
    assert np.allclose(both.probs(x), (2 * new.probs(x) + old.probs(x)) / 3, atol=1e-5)
    both.save(tmp_path / "both.npz")
    again = SquareModel.load(tmp_path / "both.npz")
    assert again is not None and np.allclose(again.probs(x), both.probs(x), atol=1e-6)


def test_balanced_weighs_every_family_the_same_and_the_trainer_heeds_it() -> None:
    from vision.synth.chop_train import balanced, train

    w = balanced(["a"] * 90 + ["b"] * 10)
    assert np.isclose(w.mean(), 1.0) and np.isclose(w[:90].sum(), w[90:].sum())
    # the same look, read as class 0 by a large family and class 1 by a small one: weighted alike,
    # the small family's reading is about twice as likely as unweighted (measured 0.20 -> 0.43)
    rng = np.random.default_rng(4)
    x = rng.normal(0, 1, (100, 3)).astype(np.float32)
    y = np.array([0] * 90 + [1] * 10)
    plain = train(x, y, hidden=4, epochs=300).probs(x)[:, 1].mean()
    weighed = train(x, y, hidden=4, epochs=300, weight=balanced(["a"] * 90 + ["b"] * 10)).probs(x)[:, 1].mean()
    assert plain < 0.3 and weighed > 0.35


def test_use_model_swaps_the_square_model_and_refuses_a_file_that_is_not_one(tmp_path: Path) -> None:
    import vision.chop_squares as cs
    from vision.synth.chop_train import train

    shipped = square_model()
    rng = np.random.default_rng(1)
    y = np.repeat(np.arange(len(CLASSES)), 10)
    other = train(rng.normal(0, 1, (len(y), cs.N_FEATURES)).astype(np.float32), y, hidden=4, epochs=20)
    other.save(tmp_path / "other.npz")
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    train(rng.normal(0, 1, (len(y), 3)).astype(np.float32), y, hidden=4, epochs=20).save(tmp_path / "old.npz")
    try:
        with pytest.raises(ValueError, match="chop_train"):
            cs.use_model(tmp_path / "bad.npz")
        with pytest.raises(ValueError, match="3 features"):  # trained on other features: refused
            cs.use_model(tmp_path / "old.npz")
        assert square_model() is shipped  # a bad file changes nothing
        cs.use_model(tmp_path / "other.npz")
        got = square_model()
        assert got is not None and got is not shipped and got.w1.shape == (1, cs.N_FEATURES, 4)
    finally:
        cs._MODEL[:] = [shipped]


@pytest.mark.slow
def test_a_read_makes_each_hole_picture_once_with_the_numbers_of_one_spot_alone(
        group: tuple[Path, list[dict[str, object]]], monkeypatch: pytest.MonkeyPatch) -> None:
    # the hole rule (BoardReader._chop_hole) and the classifier's features (_hole_columns) share
    # one frame's hole pictures (the read's time: they were made five times per frame); the
    # shared ones are the very numbers of each spot's picture made alone
    import vision.chop_read as chop_read
    import vision.chop_squares as chop_squares
    import vision.pieces as pieces
    from vision.chop_read import hole_faces, ring_looks

    calls: Counter[str] = Counter()

    def counted(name: str, f: object) -> object:
        def wrapped(patches: np.ndarray) -> np.ndarray:
            calls[name] += 1
            return f(patches)  # type: ignore[operator, no-any-return]
        return wrapped

    for module in (chop_read, chop_squares, pieces):
        for name, f in (("hole_faces", hole_faces), ("ring_looks", ring_looks)):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, counted(name, f))
    root, scenes = group
    reader = BoardReader(board_for("chopchop"))
    start = next(s for s in scenes if s.get("learn"))
    reader.learn(load_image(root / str(start["file"])).image, dict(start["squares"]))  # type: ignore[call-overload]
    assert reader.model.hole_starts and reader.model.rings
    reads = 0
    calls.clear()
    for s in scenes[1:4]:
        if s is start:
            continue
        image = load_image(root / str(s["file"])).image
        assert reader.read(image, track=False).found
        reads += 1
    assert calls["ring_looks"] == reads and 0 < calls["hole_faces"] <= reads, calls
    from vision.chop_squares import frame_holes

    pose = reader.refine(image, reader.read(image, track=False).pose)
    _, _, patches = reader.features(image, pose)
    holes = frame_holes(reader, pose, patches)
    assert len(holes.spots) == 4 and holes.faces is not None and holes.rings is not None
    for r, i in enumerate(holes.spots):
        assert np.array_equal(holes.faces[r], hole_faces(patches[i:i + 1])[0])
        assert np.array_equal(holes.rings[r], ring_looks(patches[i:i + 1])[0])


@pytest.fixture(scope="module")
def group_c(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, object]]]:
    # the third family (never trained on): seed 4027's Chop! Chop! group 2 (a red meeple cat,
    # dark meeple mice, red slabs, the evening lamp at gain 9.9), at 640x480 to stay quick
    return c_group(tmp_path_factory, "chopchop", 2, 8, 16, 4027, frame=(640, 480))  # type: ignore[return-value]


@pytest.mark.slow
def test_third_family_the_cat_by_its_likelihood_slabs_kept_and_holes_unlike_the_mice(
        group_c: tuple[Path, list[dict[str, object]]]) -> None:
    # measured: without chopc's three rules 281 of 313 right (slabs read as cheese 13, opened
    # holes read as the dark mice 8, mice read as the cat 3, the cat read as a slab 3); with
    # them 305 (slab -> cheese 1, hole -> mouse 2, no false cat; left: 4 face-up cheese read
    # as slabs)
    # session 28 (chopab): the opened holes alike (vision.chop_holes) off in both, measured apart below
    before = kind_confusion(group_c, board_for("chopchop"), PieceConfig(chop_cat_ratio=None, chop_slab_kept=None,
                                                                        chop_hole_mouse_far=None, chop_holes_alike=None))
    after = kind_confusion(group_c, board_for("chopchop"), PieceConfig(chop_holes_alike=None))
    right = {k: sum(n for (w, g), n in c.items() if w == g) for k, c in (("before", before), ("after", after))}
    assert right["after"] >= right["before"] + 15 and right["after"] >= 0.96 * sum(after.values()), (before, after)
    assert after[("slab", "cheese")] <= 2 < before[("slab", "cheese")]
    assert after[("mouse", "cat")] == 0 < before[("mouse", "cat")]
    assert after[("cat", "slab")] + after[("cat", "mouse")] <= 1
    assert after[("hole", "mouse")] <= 3 < before[("hole", "mouse")]
    alike = kind_confusion(group_c, board_for("chopchop"), PieceConfig(chop_holes_alike=0.9))
    assert alike[("hole", "mouse")] <= after[("hole", "mouse")], (after, alike)
    assert sum(n for (w, g), n in alike.items() if w == g) >= right["after"], (after, alike)
