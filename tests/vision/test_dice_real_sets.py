"""The real sets' box conventions: how ``companion dice eval`` pairs the reader's top-face boxes
with sets that box the whole die, the wrong values it counts, and how the training script loads
every set's train split (held-out photos, whole-die boxes marked)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import pytest

from vision.cli import box_convention, boxes_match, evaluate, inside_match, score_image
from vision.dice import DieReading
from vision.synth import dice as synth_dice

ROOT = Path(__file__).resolve().parents[2]


def _die(value: int | None, box: tuple[float, float, float, float], conf: float = 0.9) -> DieReading:
    return DieReading(value, box, conf, "white")


def test_the_top_face_lies_inside_the_whole_die_but_a_neighbour_does_not() -> None:
    whole = [100.0, 100.0, 160.0, 180.0]  # a die seen obliquely: top face above, a side below
    assert inside_match([105, 100, 155, 140], whole)  # its top face
    assert not inside_match([150, 100, 210, 140], whole)  # the next die, overlapping the edge
    assert not inside_match([60, 60, 220, 220], whole)  # a box around several dice: mostly outside
    assert boxes_match([60, 60, 220, 220], whole)  # (the centre rule takes it)


def test_conventions_come_from_what_the_labels_say_they_box() -> None:
    assert box_convention({"box": "x1,y1,x2,y2 around the top face of each die"}) == "top"
    assert box_convention({"box": "around the whole visible die (top face and the visible sides)"}) == "inside"
    assert box_convention({"box": "around the die as seen from above (the top face, plus a sliver)"}) == "inside"
    assert box_convention({}) == "top"


def test_a_side_face_read_as_a_die_of_its_own_is_extra_and_a_wrong_value_is_counted() -> None:
    labels = [{"value": 5, "box": [100, 100, 160, 180]}]
    preds = [_die(5, (105, 100, 155, 140), 0.95), _die(2, (105, 140, 155, 178), 0.8)]  # top, then a side
    s = score_image(labels, preds, inside_match)
    assert (s["found"], s["right"], s["extra"], s["wrong"], s["preds"], s["right_preds"]) == (1, 1, 1, 0, 2, 1)
    s = score_image(labels, [_die(3, (105, 100, 155, 140))], inside_match)
    assert (s["found"], s["right"], s["wrong"]) == (1, 0, 1)
    s = score_image(labels, [_die(None, (105, 100, 155, 140))], inside_match)
    assert (s["found"], s["wrong"], s["unreadable"]) == (1, 0, 1)


def test_eval_pairs_each_set_by_its_convention(tmp_path: Path) -> None:
    ds = synth_dice.write_dataset(tmp_path / "set", 2, seed=4)
    doc = json.loads((ds / "labels.json").read_text())
    for e in doc["images"]:  # each box shrunk to the middle third of the top face
        for d in e["dice"]:
            x1, y1, x2, y2 = d["box"]
            w, h = x2 - x1, y2 - y1
            d["box"] = [x1 + w / 3, y1 + h / 3, x2 - w / 3, y2 - h / 3]
    doc["box"] = "around the top face"
    (ds / "labels.json").write_text(json.dumps(doc))
    top = evaluate(ds, "test")[0]
    doc["box"] = "x1,y1,x2,y2 around the whole visible die"
    (ds / "labels.json").write_text(json.dumps(doc))
    whole = evaluate(ds, "test")[0]
    assert top["match"] == "top" and whole["match"] == "inside"
    # the reader's box is nine times the label's: its centre is inside (the centre rule pairs
    # them), but it is not inside the label's box (the whole-die rule does not)
    assert top["detect_recall"] > 0.8 and whole["detect_recall"] == 0.0


def _sets():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import dice_sets
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return dice_sets


def test_training_loads_train_photos_only_holds_some_out_and_marks_whole_boxes(tmp_path: Path) -> None:
    ds = synth_dice.write_dataset(tmp_path / "epanemu-like", 6, seed=5, split="train")
    doc = json.loads((ds / "labels.json").read_text())
    doc["images"][5]["split"] = "test"
    doc["box"] = "around the whole visible die"
    (ds / "labels.json").write_text(json.dumps(doc))
    dice_sets = _sets()
    scenes = dice_sets.load_set(ds, "none", holdout=2, val_dir=tmp_path / "val")
    assert len(scenes) == 3  # 5 train photos, every 2nd held out; the test photo never read
    assert all(d["whole"] and d["inside"] for _img, dice in scenes for d in dice)
    val = json.loads((tmp_path / "val" / "epanemu-like" / "labels.json").read_text())
    assert [e["split"] for e in val["images"]] == ["val", "val"]
    assert [Path(e["file"]).name for e in val["images"]] == [Path(doc["images"][k]["file"]).name for k in (1, 3)]
    assert cv2.imread(val["images"][0]["file"]) is not None  # absolute paths: readable from anywhere
    fig = evaluate(tmp_path / "val" / "epanemu-like", "val")[0]
    assert fig["images"] == 2 and fig["match"] == "inside"
    top = synth_dice.write_dataset(tmp_path / "top", 2, seed=6, split="train")
    both = dice_sets.load_sets([ds, top], "none")
    assert len(both) == 5 + 2 * 2  # the smaller set repeated to about the larger's size
    assert not any(d["whole"] for _img, dice in both[5:] for d in dice)
    weighted = dice_sets.load_sets([ds, top], "none", repeat=[3, 1])
    assert len(weighted) == 3 * 5 + 2 * 2  # the first set's share tripled, the second as balanced
    with pytest.raises(ValueError, match="repeat names 1 sets"):
        dice_sets.load_sets([ds, top], "none", repeat=[3])


@pytest.mark.parametrize("name", ["dice-dev", "rune55-trays", "epanemu-dice", "rf-dice-public"])
def test_the_shared_sets_conventions(name: str) -> None:
    path = ROOT.parent / "shared" / "datasets" / name / "labels.json"
    if not path.is_file():
        path = ROOT.parent.parent / "shared" / "datasets" / name / "labels.json"
    if not path.is_file():
        pytest.skip(f"shared/datasets/{name} not present")
    expected = {"dice-dev": "top", "rf-dice-public": "top", "rune55-trays": "inside", "epanemu-dice": "inside"}
    assert box_convention(json.loads(path.read_text())) == expected[name]
