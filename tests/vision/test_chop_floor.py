"""Chop! Chop!: a slab read where the classifier is sure there is none (``vision.chop_floor``).
The rules read an occupied slab square by its nearest learned look, learned at the start where
every slab square holds its slab (C1): a shadowed empty floor on a faded print reads as the
slab. Where the classifier is at least ``sure`` sure no slab lies, and of what may still lie
there (no second cat, no fifth mouse, C1) another reading is likelier than the slab, the spot
takes it, unsure; a slab the rules are sure of is kept."""

from __future__ import annotations

import numpy as np

from vision.chop_floor import UNSURE, slab_unlike
from vision.chop_squares import CLASSES
from vision.piece_config import PieceConfig


def _probs(rows: list[dict[str, float]]) -> np.ndarray:
    return np.array([[r.get(c, 0.0) for c in CLASSES] for r in rows])


def test_a_slab_where_the_classifier_is_sure_there_is_none_takes_its_likelier_reading_unsure() -> None:
    # third family, dev 4301 scene 5 (a faded print in the stand's shadow): the rules' slab at
    # 0.59, the classifier's slab 0.02, nothing 0.45, a mouse 0.52 with four mice read already
    kinds = ["slab", "slab", "hole", "table", "slab", "slab", "slab"] + ["slab"] * 4
    out: list[tuple[str | None, float]] = [("slab", 0.59), ("slab", 0.99), ("mouse", 0.9), ("cat", 0.8),
                                           ("mouse", 0.8), ("mouse", 0.7), ("mouse", 0.6)] + [("slab", 0.95)] * 4
    rules = list(out)
    probs = _probs([{"-": 0.45, "slab": 0.02, "mouse": 0.52, "cheese": 0.01}, {"slab": 0.99, "-": 0.01},
                    {"mouse": 0.9, "hole": 0.1}, {"cat": 0.8, "-": 0.2}, {"mouse": 0.8, "-": 0.2},
                    {"mouse": 0.7, "-": 0.3}, {"mouse": 0.6, "-": 0.4}] + [{"slab": 0.97, "-": 0.03}] * 4)
    assert slab_unlike(out, rules, kinds, probs, 0.5, 0.95, 0.05) == 1
    assert out[0] == (None, 0.45)  # not a fifth mouse (C1): nothing, asked
    assert out[1:] == rules[1:]
    # with room for a mouse, the mouse, never above UNSURE
    few = [("slab", 0.59), ("cat", 0.8)] + [("slab", 0.95)] * 5
    assert slab_unlike(few, list(few), ["slab", "table"] + ["slab"] * 5,
                       _probs([{"mouse": 0.9, "slab": 0.1}, {"cat": 1.0}] + [{"slab": 1.0}] * 5), 0.5, 0.95, 0.05) == 1
    assert few[0] == ("mouse", UNSURE)
    # in a frame where hardly a slab reads clearly (under five), the classifier's doubt says nothing
    dim = [("slab", 0.59), ("cat", 0.8)] + [("slab", 0.8)] * 5
    assert slab_unlike(dim, list(dim), ["slab", "table"] + ["slab"] * 5,
                       _probs([{"mouse": 0.9, "slab": 0.1}, {"cat": 1.0}] + [{"slab": 0.8, "-": 0.2}] * 5),
                       0.5, 0.95, 0.05) == 0


def test_a_slab_is_kept_where_the_rules_are_sure_or_the_classifier_is_not_or_it_is_still_the_likeliest() -> None:
    kinds = ["slab", "slab", "slab", "slab", "table"] + ["slab"] * 5
    out: list[tuple[str | None, float]] = [("slab", 0.97), ("slab", 0.7), ("slab", 0.7), ("slab", 0.7),
                                           ("cat", 0.9)] + [("slab", 0.95)] * 5
    rules = list(out)
    probs = _probs([
        {"-": 0.9, "slab": 0.1},  # the rules sure of their slab (slab_kept's first, 0.95)
        {"-": 0.45, "slab": 0.55},  # the classifier not sure there is none
        {"cat": 0.6, "slab": 0.3, "-": 0.1},  # a second cat cannot be (C1): of the rest the slab is likeliest
        {"cheese": 0.27, "slab": 0.25, "-": 0.18, "cat": 0.3},  # within the margin (0.05, chop_classifier_likelier): kept
        {"cat": 1.0}] + [{"slab": 1.0}] * 5)
    assert slab_unlike(out, rules, kinds, probs, 0.5, 0.95, 0.05) == 0
    assert out == rules


def test_only_slab_squares_change_and_a_second_cat_is_never_made() -> None:
    kinds = ["hole", "slab", "table"] + ["slab"] * 5
    out: list[tuple[str | None, float]] = [("mouse", 0.8), ("slab", 0.6), ("cat", 0.9)] + [("slab", 0.99)] * 5
    probs = _probs([{"slab": 0.0, "mouse": 0.8, "hole": 0.2}, {"cat": 0.55, "cheese": 0.3, "slab": 0.15},
                    {"cat": 0.9, "-": 0.1}] + [{"slab": 1.0}] * 5)
    rules = list(out)
    assert slab_unlike(out, rules, kinds, probs, 0.5, 0.95, 0.05) == 1
    assert out[1] == ("cheese", 0.3)  # the cat stands elsewhere: the face-up cheese, asked
    assert out[0] == rules[0] and out[2:] == rules[2:]


def test_the_rule_is_on_by_default() -> None:
    assert PieceConfig().chop_slab_unlike is True
