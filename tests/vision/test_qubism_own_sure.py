"""A cube its own glyph read clearly (``NeedleRule.own_sure``) is checked by a needle's darker end only, not
along the ink's mirror axis nor by its strokes' sweep (session 28, qspeed3: the mirror axis's cost)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_qubism_needle import NEEDLE, TURNS, _face
from tests.vision.test_qubism_thin_arrows import FLETCHED
from vision import qubism_needle as qn
from vision.qubism_needle import NeedleRule, needle_checked

_WRONG = {"N": "S", "S": "N", "E": "W", "W": "E"}


@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_clear_own_read_is_not_read_along_its_axis(degrees: float, want: str, monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = _WRONG[want]
    fletched = _face(FLETCHED, degrees + 6.0, 0.25, 0.5, sticker=0.76)  # no needle: its mirror axis reads it
    calls: list[int] = []
    axis = qn._axis_of

    def counted(inks: object, k: int, glyph: object, rule: NeedleRule) -> str | None:
        calls.append(k)
        return axis(inks, k, glyph, rule)  # type: ignore[arg-type]

    monkeypatch.setattr(qn, "_axis_of", counted)
    for conf, rule, read, want_token in ((0.7, NeedleRule(), 0, wrong), (0.6, NeedleRule(), 0, wrong),
                                         (0.55, NeedleRule(), 1, want), (0.7, NeedleRule(own_sure=2.0), 1, want)):
        calls.clear()
        decided: list[tuple[str | None, float]] = [(f"cube:{wrong}", conf)]
        needle_checked(decided, [0], np.array([fletched]), {0: wrong}, frozenset(), rule)
        assert decided == [(f"cube:{want_token}", conf)] and len(calls) == read, (conf, rule.own_sure, calls)


@pytest.mark.parametrize("degrees,want", TURNS)
def test_a_clear_own_read_still_takes_a_needles_darker_end(degrees: float, want: str) -> None:
    wrong = _WRONG[want]
    needle = _face(NEEDLE, degrees, 0.45, 0.3, sticker=0.8)
    decided: list[tuple[str | None, float]] = [(f"cube:{wrong}", 0.9)]
    needle_checked(decided, [0], np.array([needle]), {0: wrong}, frozenset(), NeedleRule())
    assert decided == [(f"cube:{want}", 0.9)]


def test_a_shape_readers_clear_read_is_still_read_along_its_axis() -> None:
    fletched = _face(FLETCHED, 6.0, 0.25, 0.5, sticker=0.76)  # north
    decided: list[tuple[str | None, float]] = [("cube:S", 0.9)]
    needle_checked(decided, [0], np.array([fletched]), {}, frozenset(), NeedleRule())  # not its own glyph's read
    assert decided == [("cube:N", 0.9)]
