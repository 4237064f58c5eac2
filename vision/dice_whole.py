"""A second look at the dice the reader asks about (issue 29, seventeenth and eighteenth rounds;
docs/readme/dice.md).

    combine(found, probs, rule, min_value_prob) -> found   (vision.dice reads the crops)

After the reader's classifiers, a die read with less than ``min_value_prob`` is asked about. A
``SecondLook`` (``DiceConfig.second``) reads its crop again with other classifiers (ONNX, {not a
die, 1..6}; several are averaged) and combines their answer with the first reader's (agree-or-ask):

- a die read with a value that the second look reads as another value with at least ``veto`` is
  asked about (never given the other value);
- a die asked about whose first reader's best value the second look reads too, with at least
  ``agree``, gets that value;
- a die asked about that the second look reads with at least ``sure`` gets its value
  (``veto``, ``agree``, ``sure`` above 1: never).

Neither gives a value read under ``min_value_prob`` (the reader's bar). A die so given gets the
confidence ``min_value_prob``: below any die the first reader read surely, so the reader's rules
on overlapping boxes (one reading per die, the overlapping one asked about) keep the first
reader's sure readings.

**Shipped** (eighteenth round): two *wide* classifiers (``scripts/train_dice.py --cls-arch wide``,
about 2.3 times the full classifier's work, read only for the dice asked about), on the reader's own
crop (``grow`` 1.15), no veto, ``sure`` 0.85: chosen on held-out train photos, it read more dice on
every new set with no wrong value added. The seventeenth round's *whole-die reader*
(``scripts/train_dice_whole.py``: a crop grown to 1.7 times the box so that it holds the side faces,
never turned, taught the top face's value; ``SecondLook(model, grow=1.7, agree=0.98, sure=2)``)
gained 2 dice of 2,336 and is no longer shipped.

Readings are ``(box, P(die), value, confidence)`` as in ``vision.dice._judge``; a confidence of
at least ``min_value_prob`` means the value is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

Found = tuple[tuple[float, float, float, float], float, int, float]


@dataclass(frozen=True)
class SecondLook:
    """The second look's classifiers and its rule (see the module docstring)."""

    model: Path | tuple[Path, ...]  # an ONNX classifier, or several: their probabilities averaged
    grow: float = 1.15  # the crop: the box's longer side times this (vision.dice.CROP_GROW), centred
    below: float = 0.99  # readings at least this sure are left alone
    # the shipped rule, chosen on held-out train photos (docs/readme/dice.md, eighteenth round): no
    # veto, an asked die given the value the wide pair reads with 0.85 (0.8 added a wrong value)
    veto: float = 2.0  # another value read this surely: the die is asked about (above 1: never)
    agree: float = 2.0  # the same value read this surely: an asked die gets it (above 1: never)
    sure: float = 0.85  # any value read this surely: an asked die gets it (above 1: never)

    def __post_init__(self) -> None:
        if not 0.0 <= self.below <= 1.0:
            raise ValueError(f"SecondLook.below must be between 0 and 1, got {self.below}")
        for name in ("veto", "agree", "sure"):
            if not getattr(self, name) >= 0.0:  # (NaN too)
                raise ValueError(f"SecondLook.{name} must be at least 0 (above 1: never), got {getattr(self, name)}")
        if self.grow < 1.0:
            raise ValueError(f"SecondLook.grow must be at least 1 (the box itself), got {self.grow}")
        if isinstance(self.model, tuple) and not self.model:
            raise ValueError("SecondLook.model: at least one classifier")

    @property
    def paths(self) -> tuple[Path, ...]:
        """The classifiers read (their probabilities averaged)."""
        return self.model if isinstance(self.model, tuple) else (self.model,)


def combine(found: Sequence[Found], probs: np.ndarray, rule: SecondLook, min_value_prob: float) -> list[Found]:
    """``found`` with the second look's ``probs`` (N x 7: not a die, 1..6, one row per
    reading, rows of readings it did not look at ignored: see :func:`looked_at`) applied."""
    out = []
    for f, p in zip(found, probs):
        box, p_die, v, conf = f
        if conf < rule.below and np.isfinite(p).all():
            wv = int(np.argmax(p[1:])) + 1
            wp = float(p[wv])
            if conf >= min_value_prob:
                if wv != v and wp >= rule.veto:
                    f = (box, p_die, v, 0.0)
            elif wp >= min_value_prob and ((wv == v and wp >= rule.agree) or wp >= rule.sure):
                # given at the reader's bar, never above a die read surely by the first reader:
                # the rules on overlapping boxes keep the surer reading
                f = (box, p_die, wv, min_value_prob)
        out.append(f)
    return out


def looked_at(found: Sequence[Found], rule: SecondLook, min_value_prob: float) -> list[int]:
    """The readings the second look reads: those under ``rule.below`` that its answer may
    change (without a veto, ``veto`` above 1, only the dice asked about)."""
    least = rule.below if rule.veto <= 1.0 else min(rule.below, min_value_prob)
    return [i for i, f in enumerate(found) if f[3] < least]
