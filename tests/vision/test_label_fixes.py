"""dice-dev's train-split label fixes (scripts/dice_dev_train_fixes.json, vision.label_fixes):
they apply to the dataset as it is, and a fix that no longer matches is an error."""

from __future__ import annotations

import json
from typing import Any

import pytest

from vision import label_fixes as lf
from vision.cli import boxes_match

from .conftest import DICE_DEV


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    if not (DICE_DEV / "labels.json").is_file():
        pytest.skip("shared/datasets/dice-dev not present")
    return dict(json.loads((DICE_DEV / "labels.json").read_text()))


def test_the_train_fixes_apply_to_dice_dev_train_photos_only(doc: dict[str, Any]) -> None:
    fixes = lf.fixes_for(doc)
    assert fixes is not None and fixes["images"]
    fixed = lf.apply_fixes(doc, fixes)
    before = {e["file"]: e for e in doc["images"]}
    after = {e["file"]: e for e in fixed["images"]}
    changed = added = 0
    for name, fx in fixes["images"].items():
        assert before[name]["split"] == "train"  # the test split is corrected in shared/ itself
        for f in fx.get("fix", []):
            hit = [d for d in after[name]["dice"] if lf._same_box(d["box"], f["box"])]
            assert [d["value"] for d in hit] == [f["value"]] and f["value"] != f["was"]
            changed += 1
        for f in fx.get("add", []):
            assert not any(boxes_match(d["box"], f["box"]) for d in before[name]["dice"])
            assert {"value": f["value"], "box": [float(v) for v in f["box"]]} in after[name]["dice"]
            added += 1
    assert (changed, added) == (5, 4)
    assert sum(len(e["dice"]) for e in fixed["images"]) == sum(len(e["dice"]) for e in doc["images"]) + 4
    assert doc == json.loads((DICE_DEV / "labels.json").read_text())  # the document given is untouched


def test_a_fix_that_no_longer_matches_is_an_error(doc: dict[str, Any]) -> None:
    fixes = lf.load_fixes()
    once = lf.apply_fixes(doc, fixes)
    with pytest.raises(lf.LabelFixError, match="expected one label saying"):
        lf.apply_fixes(once, fixes)  # fixed twice: the labels say the new values already
    with pytest.raises(lf.LabelFixError, match="not for"):
        lf.apply_fixes({**doc, "name": "another"}, fixes)
    with pytest.raises(lf.LabelFixError, match="no such image"):
        lf.apply_fixes(doc, {"dataset": "dice-dev", "images": {"images/nothing.jpg": {}}})


def test_fixes_are_for_one_dataset_by_name() -> None:
    assert lf.fixes_for({"name": "synth-dice", "images": []}) is None
