"""The 3-D dice renderer (vision.synth.dice3d): the labelled value is the top face's, side faces
show at an angle, the die is a standard one, a seed reproduces a scene, one scene is quick."""

from __future__ import annotations

import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice import read_dice
from vision.synth import dice3d_art
from vision.synth.dice3d import FACE_NORMALS, FACE_VALUES, Params3D, render_scene3d

ROOT = Path(__file__).resolve().parents[2]
# engraved, opaque dice, no clutter: what the tests count on
PLAIN = dict(n_negatives=(0, 0), hand_prob=0.0, marbled_prob=0.0, translucent_prob=0.0, table="plain")


def test_a_standard_die() -> None:
    """Opposite faces sum to 7, and 1, 2, 3 run counter-clockwise round their corner seen from
    outside: the triple product of their normals is +1 (a mirrored die gives -1)."""
    for k in range(0, 6, 2):
        assert FACE_VALUES[k] + FACE_VALUES[k + 1] == 7
        assert np.all(FACE_NORMALS[k] == -FACE_NORMALS[k + 1])
    n1, n2, n3 = (FACE_NORMALS[FACE_VALUES.index(v)] for v in (1, 2, 3))
    assert np.linalg.det(np.stack([n1, n2, n3])) == pytest.approx(1.0)


def _dents(faces: np.ndarray, ids: np.ndarray, k: int, value: int) -> int:
    """Pips of the top face of the die drawn as ``k`` in ``ids`` counted on the renderer's face map: the top face's pixels
    (``faces == value``) with holes where the engraved pips' dents face away from up."""
    top = ((ids == k) & (faces == value)).astype(np.uint8)
    filled = top.copy()
    cnts, _ = cv2.findContours(top, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cv2.drawContours(filled, cnts, -1, 1, -1)
    holes = (filled > 0) & (top == 0)
    n, _lab, stats, _c = cv2.connectedComponentsWithStats(holes.astype(np.uint8), connectivity=8)
    return sum(1 for j in range(1, n) if stats[j, cv2.CC_STAT_AREA] >= 3)


def test_straight_down_the_label_is_the_top_face() -> None:
    p = Params3D(**PLAIN, tilt_deg=(0.0, 0.0), die_px=(60.0, 80.0), n_dice=(3, 6), engraved_prob=1.0)
    checked = 0
    for seed in range(1, 5):
        img, lab = render_scene3d(np.random.default_rng(seed), p, debug=True)
        ids, faces = lab["ids"], lab["faces"]
        assert sorted(lab["label_ids"]) == list(range(1, ids.max() + 1))  # every die drawn is labelled
        for k, d in zip(lab["label_ids"], lab["dice"]):
            if d.get("whole"):  # cut by the frame
                continue
            x1, y1, x2, y2 = d["box"]
            cx, cy = int((x1 + x2) / 2), int((y1 + y2) / 2)
            assert ids[cy, cx] == k
            assert abs(int(faces[cy, cx])) == d["value"]  # the box's centre shows the labelled face
            assert _dents(faces, ids, k, d["value"]) == d["value"]  # and it carries that many pips
            seen = (ids[int(y1):int(y2), int(x1):int(x2)] == k)
            assert seen.mean() > 0.45  # straight down the die fills its box (half at least: a square turned 45°)
            checked += 1
    assert checked >= 8


def test_straight_down_the_reader_agrees() -> None:
    """The shipped reader (trained on other pictures) reads the rendered dice as labelled."""
    right = wrong = total = 0
    for seed in range(4):
        p = Params3D(**PLAIN, tilt_deg=(0.0, 0.0), die_px=(45.0, 60.0), n_dice=(3, 6))
        img, lab = render_scene3d(np.random.default_rng(100 + seed), p)
        got = read_dice(img)
        for d in lab["dice"]:
            if d.get("whole"):
                continue
            total += 1
            cx, cy = (d["box"][0] + d["box"][2]) / 2, (d["box"][1] + d["box"][3]) / 2
            hit = [r for r in got if r.box[0] <= cx <= r.box[2] and r.box[1] <= cy <= r.box[3]]
            if hit and hit[0].value == d["value"]:
                right += 1
            elif hit and hit[0].value is not None:
                wrong += 1
    assert total >= 10
    assert wrong == 0 and right >= 0.8 * total, (right, wrong, total)


def test_at_an_angle_sides_show_and_the_top_is_labelled() -> None:
    p = Params3D(**PLAIN, tilt_deg=(35.0, 45.0), die_px=(60.0, 80.0), n_dice=(4, 6), engraved_prob=1.0)
    sides = counted = 0
    for seed in range(3):
        img, lab = render_scene3d(np.random.default_rng(200 + seed), p, debug=True)
        ids, faces = lab["ids"], lab["faces"]
        sides += int((faces < 0).sum())
        for k, d in zip(lab["label_ids"], lab["dice"]):
            if d.get("whole"):
                continue
            x1, y1, x2, y2 = (int(v) for v in d["box"])
            region = faces[y1:y2, x1:x2][ids[y1:y2, x1:x2] == k]
            # the labelled face is the die's most seen face inside its box, and it is the up one
            assert np.bincount(np.abs(region), minlength=7)[1:].argmax() + 1 == d["value"]
            # nothing in front of it and big enough for its pips to be told apart: count them
            if set(np.unique(ids[y1:y2, x1:x2])) <= {0, k} and y2 - y1 >= 40:
                assert _dents(faces, ids, k, d["value"]) == d["value"]
                counted += 1
    assert sides > 1000  # side faces are drawn (negative in the face map)
    assert counted >= 5


def test_a_seed_reproduces_a_scene() -> None:
    a, la = render_scene3d(np.random.default_rng(5))
    b, lb = render_scene3d(np.random.default_rng(5))
    c, lc = render_scene3d(np.random.default_rng(6))
    assert np.array_equal(a, b) and la == lb
    assert not np.array_equal(a, c)


def test_a_hidden_top_face_is_no_target() -> None:
    """A die under the hand or another die keeps only a whole-die box ("whole": no target)."""
    hidden = 0
    for seed in range(12):
        p = Params3D(tilt_deg=(30.0, 45.0), n_dice=(8, 14), hand_prob=1.0, die_px=(40.0, 60.0))
        _img, lab = render_scene3d(np.random.default_rng(300 + seed), p, debug=True)
        for k, d in zip(lab["label_ids"], lab["dice"]):
            top = int(((lab["ids"] == k) & (lab["faces"] == d["value"])).sum())
            if d.get("whole"):
                hidden += 1
                x1, y1, x2, y2 = d["box"]
                assert x2 > x1 and y2 > y1
            else:
                assert top > 0
    assert hidden > 0


def test_one_scene_is_quick() -> None:
    rng = np.random.default_rng(9)
    render_scene3d(rng)
    t = time.process_time()
    for _ in range(3):
        img, _lab = render_scene3d(rng)
        assert img.shape == (640, 640, 3) and img.dtype == np.uint8
    per = (time.process_time() - t) / 3
    assert per < 4.0, per  # ~0.5 s of CPU on the 2-core VM


def test_busy_printed_art_and_negatives() -> None:
    """Printed art: a hex map with number tokens (digits and dots) or cards and text; things that
    are not dice (blank cubes, keys, tokens, pawns) are drawn but never labelled."""
    art = dice3d_art.printed_art(np.random.default_rng(1), 300, 400)
    assert art.shape == (300, 400, 3) and float(art.std()) > 10
    p = Params3D(n_dice=(1, 1), n_negatives=(6, 6), hand_prob=0.0, die_px=(40.0, 50.0))
    _img, lab = render_scene3d(np.random.default_rng(11), p, debug=True)
    assert len(lab["dice"]) == 1
    assert lab["ids"].max() >= 4  # negatives drawn beside the one die
    assert (lab["faces"][lab["ids"] > 1] == 0).all()  # no pips on them


def test_training_scenes_are_shared_through_a_cache(tmp_path: Path) -> None:
    """scripts/dice_scenes.make_synth3d: the scenes written to the cache are the ones made, read
    back as they were (several training runs on one machine share one rendering), and a cache of
    another count or seed is made afresh."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import dice_scenes
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    cache = tmp_path / "s3d.pkl"
    made = dice_scenes.make_synth3d(2, 4, cache=cache)
    assert cache.is_file()
    again = dice_scenes.make_synth3d(2, 4, cache=cache)
    assert all(np.array_equal(a[0], b[0]) and a[1] == b[1] for a, b in zip(made, again))
    other = dice_scenes.make_synth3d(2, 5, cache=cache)
    assert not np.array_equal(other[0][0], made[0][0])
    hard = dice_scenes.make_synth3d(2, 4, cache=cache, looks="hard")  # other looks: made afresh too
    assert not np.array_equal(hard[0][0], made[0][0])
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(hard, dice_scenes.make_synth3d(2, 4, cache=cache, looks="hard")))
    with pytest.raises(SystemExit, match="not one of"):
        dice_scenes.make_synth3d(1, 4, looks="shiny")


def test_a_spot_lamp_gives_the_dice_glare() -> None:
    """Params3D.spot_prob: one strong lamp from high above in a dim room, glossy dice: glare on
    the dice."""
    plain = Params3D(**PLAIN, tilt_deg=(0.0, 20.0), die_px=(50.0, 60.0), n_dice=(3, 5))
    glare = []
    for spot in (0.0, 1.0):
        g = []
        for seed in range(6):
            img, lab = render_scene3d(np.random.default_rng(40 + seed), replace(plain, spot_prob=spot), debug=True)
            g.append(float((img[lab["ids"] > 0].min(1) >= 250).mean()))  # die pixels white in all three channels
        glare.append(float(np.mean(g)))
    assert glare[1] > 3 * glare[0], glare  # measured: 0.155 against 0.024


def test_mining_leaves_a_hidden_top_face_alone() -> None:
    """scripts/dice_mine: the detector's proposals on a die marked "whole" (its top face hidden)
    are mined neither as its value nor as "not a die"."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import dice_mine
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    from vision.dice import MODELS, crop_for_classifier

    p = Params3D(**PLAIN, tilt_deg=(0.0, 0.0), die_px=(50.0, 60.0), n_dice=(4, 6))
    img, lab = render_scene3d(np.random.default_rng(21), p)
    dice = [d for d in lab["dice"] if not d.get("whole")]
    plain = dice_mine.mine([(img, dice)], MODELS, crop_for_classifier)
    hidden = dice_mine.mine([(img, [{**dice[0], "whole": True}] + dice[1:])], MODELS, crop_for_classifier)
    gone = Counter(y for _c, y in plain) - Counter(y for _c, y in hidden)
    assert len(hidden) < len(plain)
    assert set(gone) == {dice[0]["value"]}  # only that die's crops are left out, no "not a die" in their place
    assert len(plain) - len(hidden) == sum(gone.values())
