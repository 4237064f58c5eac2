"""The whole-die reader's rule (vision.dice_whole, issue 29 seventeenth round): agree-or-ask, so
it turns asked dice into read ones only where both readers agree (or it is very sure), and a die
read with a value it reads surely as another value is asked about, never given that value.
Runs without torch."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision import dice as D
from vision.dice_whole import WholeDie, combine, looked_at

BOX = (10.0, 10.0, 30.0, 30.0)
RULE = WholeDie(Path("whole.onnx"), veto=0.9, agree=0.8, sure=0.97)


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


def test_a_die_given_a_value_by_it_never_outranks_a_sure_reading() -> None:
    rule = WholeDie(Path("w.onnx"), agree=0.5)
    found = [(BOX, 0.9, 6, 0.3), ((12.0, 12.0, 32.0, 32.0), 1.0, 2, 0.7)]
    out = combine(found, np.stack([probs(6, 0.99), probs(2, 0.99)]), rule, 0.65)
    assert out[0] == (BOX, 0.9, 6, 0.65)  # the reader's bar, under the other's 0.7
    # through the reader's overlap rule, the first reader's sure die stays read
    from vision.dice_boxes import ask_overlapping
    kept = ask_overlapping(out, 0.2)
    assert [(f[2], f[3]) for f in kept] == [(2, 0.7), (6, 0.0)]


def test_sure_readings_and_rows_not_read_are_left_alone() -> None:
    found = [(BOX, 1.0, 3, 0.995), (BOX, 0.9, 2, 0.4)]
    assert looked_at(found, RULE) == [1]
    rows = np.stack([probs(5, 1.0), np.full(7, np.nan, np.float32)])
    assert combine(found, rows, RULE, 0.65) == found


def test_above_one_means_never() -> None:
    rule = WholeDie(Path("w.onnx"), veto=2.0, agree=2.0, sure=2.0)
    found = [(BOX, 0.99, 3, 0.9), (BOX, 0.9, 4, 0.5)]
    assert combine(found, np.stack([probs(5, 1.0), probs(4, 1.0)]), rule, 0.65) == found


@pytest.mark.parametrize("kw", [{"below": 1.5}, {"below": -0.1}, {"veto": -1.0}, {"agree": float("nan")},
                                {"grow": 0.8}])
def test_a_rule_out_of_range_is_a_clear_error(kw: dict) -> None:
    with pytest.raises(ValueError, match="WholeDie"):
        WholeDie(Path("w.onnx"), **kw)


def test_off_by_default() -> None:
    assert D.DiceConfig().whole is None  # docs/readme/dice.md, seventeenth round: not shipped
