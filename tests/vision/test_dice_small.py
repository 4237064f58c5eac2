"""The reader's pass for small dice (``DiceConfig.small_size``, off by default): a frame whose fine
pass left a die asked about, or found small dice, is looked at again at 640 px, and the small dice
read surely there are added or take the place of unsure readings (docs/readme/dice.md, thirteenth
round), unless a box lies at the frame's edge or is a side face with the top face above it
(twentieth round)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import dice
from vision.cli import score_image
from vision.dice import DiceConfig, read_dice
from vision.dice_boxes import at_the_edge as bx_edge, new_small, take_small
from vision.dice_oblique import face_above, strip_above, stretched_crops
from vision.synth import dice as synth_dice

ROOT = Path(__file__).resolve().parents[2]
OFF = DiceConfig()  # the pass is off by default (docs/readme/dice.md, thirteenth and twentieth rounds)
ON = DiceConfig(small_size=640)


def _scenes(seed: int, n: int) -> list[tuple[np.ndarray, dict]]:
    rng = np.random.default_rng(seed)
    return [synth_dice.render_scene(rng, synth_dice.SceneParams(
        width=640, height=480, n_dice=(4, 6), die_px=(11.0, 14.0), tilt_deg=(0.0, 20.0))) for _ in range(n)]


def test_dice_too_small_for_the_first_pass_are_read_at_640(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    judged: list[float] = []  # sides of the boxes the classifier reads after the 640 pass
    detect_at, judge = dice._detect_at, dice._judge
    monkeypatch.setattr(dice, "_detect_at", lambda im, size, cfg: seen.append(size) or detect_at(im, size, cfg))
    monkeypatch.setattr(dice, "_judge", lambda im, dets, cfg: (
        judged.extend(max(b[2] - b[0], b[3] - b[1]) for b, _ in dets) if seen[-1] == 640 else None)
        or judge(im, dets, cfg))
    on = off = labels = 0
    for img, lab in _scenes(3, 4):  # 11-14 px dice in a 640 x 480 frame: 5-7 px at the usual 320
        a, b = score_image(lab["dice"], read_dice(img, ON)), score_image(lab["dice"], read_dice(img, OFF))
        assert a["wrong"] == b["wrong"] == 0  # never a made-up value
        assert a["extra"] <= b["extra"]
        on, off, labels = on + a["right"], off + b["right"], labels + a["labels"]
    assert labels == 16 and off <= 4 and on >= off + 3  # measured: 8 read right, 4 without the pass
    assert judged and max(judged) < 24  # only boxes of small dice are read (a 640 x 480 frame: 1 px a px)


def test_the_pass_is_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []
    real = dice._detect_at
    monkeypatch.setattr(dice, "_detect_at", lambda im, size, cfg: sizes.append(size) or real(im, size, cfg))
    for img, _lab in _scenes(3, 2):
        read_dice(img)
    assert sizes and 640 not in sizes
    read_dice(_scenes(3, 2)[1][0], ON)
    assert 640 in sizes
    assert DiceConfig().small_above > 0 and DiceConfig().small_edge >= 0


def test_a_frame_of_dice_read_surely_at_their_size_gets_no_second_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    img, lab = synth_dice.render_scene(np.random.default_rng(5), synth_dice.SceneParams(
        n_dice=(4, 4), die_px=(40.0, 48.0), tilt_deg=(0.0, 10.0), blur_sigma=(0.0, 0.0), noise_sigma=(0.0, 0.0)))
    sizes: list[int] = []
    real = dice._detect_at
    monkeypatch.setattr(dice, "_detect_at", lambda im, size, cfg: sizes.append(size) or real(im, size, cfg))
    found = read_dice(img, ON)
    assert sorted(r.value or 0 for r in found) == sorted(d["value"] for d in lab["dice"])
    assert ON.small_size not in sizes  # dice-dev's frames keep their time


def _f(box: tuple[float, float, float, float], conf: float, value: int = 3) -> tuple:
    return (box, 0.99, value, conf)


def test_merging_the_small_dice_with_the_first_pass() -> None:
    whole = _f((100, 100, 130, 135), 0.4)  # a small die boxed with its side faces, read unsurely
    sure = _f((200, 100, 230, 130), 0.97)  # a die read surely
    top = _f((104, 100, 124, 116), 0.96, 5)  # the first's top face, read surely at 640
    again = _f((203, 102, 228, 128), 0.99, 2)  # the sure die seen again
    new = _f((300, 300, 314, 314), 0.96, 4)  # a die the first pass missed
    faint = _f((400, 300, 414, 314), 0.9, 6)  # one read less surely at 640: not taken
    shaky = _f((105, 101, 123, 117), 0.9, 5)
    got = take_small([whole, sure], [top, again, new, faint], 0.65, 0.95)
    assert sorted(got) == sorted([sure, top, new])
    assert sorted(take_small([whole, sure], [shaky], 0.65, 0.95)) == sorted([whole, sure])
    # not read at all: the sure die's box and its pips, a pip of the unsure die's box
    pip = ((106, 104, 112, 110), 0.5)
    lone = ((300, 300, 314, 314), 0.5)
    assert new_small([(again[0], 0.9), pip, lone, ((207, 105, 213, 111), 0.4)], [whole, sure], 0.65, 96) == [lone]
    # a box round the whole frame (the coarse pass) hides no pips: what lies in it is read
    frame = _f((0, 0, 640, 480), 0.3)
    assert new_small([pip, lone], [frame], 0.65, 96) == [pip, lone]


def _rf_train(names: tuple[str, ...]) -> list[tuple[np.ndarray, dict]]:
    for base in (ROOT.parent, ROOT.parent.parent):
        path = base / "shared" / "datasets" / "rf-dice-public" / "labels.json"
        if path.is_file():
            doc = json.loads(path.read_text())
            out = [(cv2.imread(str(path.parent / e["file"])), e) for e in doc["images"]
                   if e["split"] == "train" and Path(e["file"]).stem in names]
            assert len(out) == len(names)
            return out
    pytest.skip("shared/datasets/rf-dice-public not present")


def test_small_dice_on_a_printed_board_are_read() -> None:
    # train photos (never the test split) of dice of 10-16 px on and beside a Catan board
    photos = _rf_train(("IMG_0734", "IMG_0749", "IMG_0769", "IMG_0815"))
    on = off = 0
    for img, e in photos:
        a, b = score_image(e["dice"], read_dice(img, ON)), score_image(e["dice"], read_dice(img, OFF))
        assert a["wrong"] <= b["wrong"]
        on, off = on + a["right"], off + b["right"]
    assert on >= off + 3, (on, off)


def test_the_pass_keeps_to_the_region_of_interest() -> None:
    img, _lab = _scenes(3, 2)[1]
    roi = dice.RegionOfInterest(rect=(0.0, 0.0, 1.0, 1.0), mode="exclude")
    everywhere = read_dice(img, ON)
    assert len(everywhere) > len(read_dice(img, OFF))
    assert read_dice(img, replace(ON, roi=dice.RegionOfInterest(rect=(0.0, 0.0, 640.0, 480.0), mode="exclude"))) == []
    assert read_dice(img, replace(ON, roi=roi)) == everywhere


def test_a_small_die_at_the_frames_edge_is_not_taken_from_the_pass() -> None:
    # a train photo (held out when choosing, never the test split): a 6 at the left edge seen
    # obliquely, boxed at 640 with its side face (16 px, square: cut_ratio cannot tell it is cut)
    # and read 4 at 0.97; near the edge the pass's box tells nothing, so that die is not taken
    # (docs/readme/dice.md, twentieth round)
    (img, e), = _rf_train(("i_93c61139",))
    edge = [r for r in read_dice(img, replace(ON, small_edge=-1.0)) if r.box[0] <= 2.0]
    assert [r.value for r in edge] == [4]  # without the rule: a wrong value
    assert all(r.box[0] > 2.0 or r.value is None for r in read_dice(img, ON))
    assert score_image(e["dice"], read_dice(img, ON))["wrong"] == 0
    assert bx_edge((0.6, 93.6, 17.0, 109.9), 480, 640, 2.0) and not bx_edge((3.0, 93.6, 17.0, 109.9), 480, 640, 2.0)


def test_a_side_face_with_the_top_face_above_it_is_not_taken_from_the_pass() -> None:
    # a train photo (held out when choosing, never the test split) from a low camera: at 640 the
    # detector boxes two small white dice by their front faces (19 px, read 5 and 2 at 0.97-0.99;
    # their top faces, a 3 and a 6, are thin strips above); the strip above each box reads as a
    # die face, so neither side face is read as a die (docs/readme/dice.md, twentieth round)
    (img, e), = _rf_train(("i_ef883eb6",))

    def near(found: list, x: float, y: float) -> list:
        return [r.value for r in found if abs((r.box[0] + r.box[2]) / 2 - x) < 6 and abs((r.box[1] + r.box[3]) / 2 - y) < 6]

    without = read_dice(img, replace(ON, small_above=0.0))
    assert near(without, 102.3, 104.3) == [5] and near(without, 341.8, 201.3) == [2]
    found = read_dice(img, ON)
    assert set(near(found, 102.3, 104.3) + near(found, 341.8, 201.3)) <= {None}  # no value: at most asked
    assert score_image(e["dice"], found)["wrong"] <= score_image(e["dice"], without)["wrong"]


def test_the_strip_above_a_box() -> None:
    assert strip_above((10, 100, 30, 120), 0.5) == (10.0, 90.0, 30.0, 101.0)
    img = np.full((60, 60, 3), 200, np.uint8)
    crops = stretched_crops(img, [(10, 10, 40, 20), (0, 0, 60, 60)], 1.15)
    assert crops.shape == (2, 40, 40, 3) and np.allclose(crops, 0)  # normalised as the reader's crops
    probs = np.array([[0.1, 0.85, 0.05, 0, 0, 0, 0], [0.9, 0.05, 0.05, 0, 0, 0, 0]])
    assert face_above(probs, 0.8).tolist() == [True, False]
