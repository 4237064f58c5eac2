"""The second look at the dice asked about (vision.dice_whole.SecondLook, issue 29 seventeenth and
eighteenth rounds): agree-or-ask, so it turns asked dice into read ones only where it reads them
surely, and a die read with a value it reads surely as another value is asked about, never given
that value. Runs without torch."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision import dice as D
from vision.dice_whole import SecondLook, combine, looked_at

BOX = (10.0, 10.0, 30.0, 30.0)
RULE = SecondLook(Path("whole.onnx"), veto=0.9, agree=0.8, sure=0.97)


def probs(value: int, p: float) -> np.ndarray:
    """A whole-die reading: ``value`` with ``p``, the rest spread over the other classes."""
    row = np.full(7, (1 - p) / 6, np.float32)
    row[value] = p
    return row


def test_a_die_read_surely_as_another_value_is_asked_about_never_given_it() -> None:
    found = [(BOX, 0.99, 3, 0.9)]
    out = combine(found, np.stack([probs(5, 0.95)]), RULE, 0.65)
    assert out == [(BOX, 0.99, 3, 0.0)]  # asked (confidence under min_value_prob), value not 5
    # not sure enough of the other value: the first reading stands
    assert combine(found, np.stack([probs(5, 0.85)]), RULE, 0.65) == found
    # the same value: stands
    assert combine(found, np.stack([probs(3, 0.99)]), RULE, 0.65) == found


def test_an_asked_die_gets_the_value_both_readers_agree_on() -> None:
    found = [(BOX, 0.9, 4, 0.5)]  # the first reader's best value 4, unsure
    out = combine(found, np.stack([probs(4, 0.85)]), RULE, 0.65)
    assert out == [(BOX, 0.9, 4, 0.65)]
    # another value at the same certainty: still asked (under sure)
    assert combine(found, np.stack([probs(2, 0.85)]), RULE, 0.65) == found
    # ... very sure of another value: that value
    out = combine(found, np.stack([probs(2, 0.98)]), RULE, 0.65)
    assert out[0][2] == 2 and out[0][3] >= 0.65
    # agreeing but unsure: still asked
    assert combine(found, np.stack([probs(4, 0.7)]), RULE, 0.65) == found
    # never under the reader's own bar (min_value_prob above 1: no value is ever given)
    assert combine(found, np.stack([probs(4, 1.0)]), RULE, 1.01) == found


def test_a_die_given_a_value_by_it_never_outranks_a_sure_reading() -> None:
    rule = SecondLook(Path("w.onnx"), agree=0.5)
    found = [(BOX, 0.9, 6, 0.3), ((12.0, 12.0, 32.0, 32.0), 1.0, 2, 0.7)]
    out = combine(found, np.stack([probs(6, 0.99), probs(2, 0.99)]), rule, 0.65)
    assert out[0] == (BOX, 0.9, 6, 0.65)  # the reader's bar, under the other's 0.7
    # through the reader's overlap rule, the first reader's sure die stays read
    from vision.dice_boxes import ask_overlapping
    kept = ask_overlapping(out, 0.2)
    assert [(f[2], f[3]) for f in kept] == [(2, 0.7), (6, 0.0)]


def test_sure_readings_and_rows_not_read_are_left_alone() -> None:
    found = [(BOX, 1.0, 3, 0.995), (BOX, 0.9, 2, 0.4), (BOX, 0.9, 2, 0.8)]
    assert looked_at(found, RULE, 0.65) == [1, 2]
    # without a veto only the dice asked about can change: only they are read (no cost on the rest)
    assert looked_at(found, SecondLook(Path("w.onnx"), veto=2.0), 0.65) == [1]
    found = found[:2]
    rows = np.stack([probs(5, 1.0), np.full(7, np.nan, np.float32)])
    assert combine(found, rows, RULE, 0.65) == found


def test_above_one_means_never() -> None:
    rule = SecondLook(Path("w.onnx"), veto=2.0, agree=2.0, sure=2.0)
    found = [(BOX, 0.99, 3, 0.9), (BOX, 0.9, 4, 0.5)]
    assert combine(found, np.stack([probs(5, 1.0), probs(4, 1.0)]), rule, 0.65) == found


@pytest.mark.parametrize("kw", [{"below": 1.5}, {"below": -0.1}, {"veto": -1.0}, {"agree": float("nan")},
                                {"grow": 0.8}])
def test_a_rule_out_of_range_is_a_clear_error(kw: dict) -> None:
    with pytest.raises(ValueError, match="SecondLook"):
        SecondLook(Path("w.onnx"), **kw)


DATASETS = Path(__file__).resolve().parents[3] / "shared" / "datasets"
if not DATASETS.is_dir():
    DATASETS = Path(__file__).resolve().parents[4] / "shared" / "datasets"


def test_the_shipped_rule_reads_only_asked_dice_and_its_models_are_small() -> None:
    rule = D.DiceConfig().second
    assert rule is not None and rule.veto > 1 and rule.agree > 1 and rule.sure == 0.85
    assert rule.grow == D.CROP_GROW and len(rule.paths) == 2
    for path in rule.paths:
        assert path.is_file() and path.stat().st_size < 8_000_000


def test_several_classifiers_are_averaged_and_none_is_a_clear_error() -> None:
    assert SecondLook(Path("a.onnx")).paths == (Path("a.onnx"),)
    assert SecondLook((Path("a.onnx"), Path("b.onnx"))).paths == (Path("a.onnx"), Path("b.onnx"))
    with pytest.raises(ValueError, match="SecondLook"):
        SecondLook(())


def test_a_die_the_wide_pair_doubts_gets_its_value_from_the_second_look() -> None:
    """A dice-dev test photo: the wide pair (the full classifiers since the nineteenth round) asks
    about a red die showing 1 (it leans to "not a die"); the int8 pair, the second look, reads it
    surely, so every one of the twelve dice is read, each with its labelled value."""
    import json

    import cv2
    from dataclasses import replace

    from vision.cli import box_convention, matcher, score_image

    root = DATASETS / "dice-dev"
    if not (root / "labels.json").is_file():
        pytest.skip(f"no {root}")
    doc = json.loads((root / "labels.json").read_text())
    entry = next(e for e in doc["images"] if e["file"].endswith("IMG_20191208_111328.jpg"))
    assert entry["split"] == "test"
    img = cv2.imread(str(root / entry["file"]))
    match = matcher(box_convention(doc))
    before = score_image(entry["dice"], D.read_dice(img, replace(D.DiceConfig(), second=None)), match)
    after = score_image(entry["dice"], D.read_dice(img), match)
    assert (before["right"], before["unreadable"], before["wrong"]) == (11, 1, 0)
    assert (after["right"], after["unreadable"], after["wrong"]) == (12, 0, 0)


def test_the_felt_tray_the_second_look_once_read_is_read_by_the_wide_pair_alone() -> None:
    """The rune55-trays test photo (marbled and translucent dice on felt) whose tenth die the
    eighteenth round's second look read: the wide pair reads all ten, each with its value."""
    import json

    import cv2
    from dataclasses import replace

    from vision.cli import box_convention, matcher, score_image

    root = DATASETS / "rune55-trays"
    if not (root / "labels.json").is_file():
        pytest.skip(f"no {root}")
    doc = json.loads((root / "labels.json").read_text())
    entry = next(e for e in doc["images"] if e["file"].endswith("PXL_20240219_191317949.jpg"))
    img = cv2.imread(str(root / entry["file"]))
    first = score_image(entry["dice"], D.read_dice(img, replace(D.DiceConfig(), second=None)), matcher(box_convention(doc)))
    assert (first["right"], first["unreadable"], first["wrong"]) == (10, 0, 0)
