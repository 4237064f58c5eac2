"""A Qubism cube left asked read from its top cut a little off its place (``vision.qubism_shift``, session 25):
the ink readers find no clear ink in the crop at the cube's place but one beside it."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_qubism_needle import NEEDLE, TURNS, _face
from tests.vision.test_qubism_thin_arrows import FLETCHED
from vision.qubism_glyph import GlyphRule
from vision.qubism_needle import NeedleRule, asked_arrows
from vision.qubism_read import CubeTops
from vision.qubism_shift import ShiftRule, offsets, shifted_arrows, shifted_direction

PLAIN = np.full((48, 48), 0.7, np.float32)
"""A crop showing no ink (the cube's place, its glyph cut off or blurred)."""


@pytest.mark.parametrize("degrees,want", TURNS)
def test_an_asked_cube_takes_the_direction_its_top_shows_beside_its_place(degrees: float, want: str) -> None:
    arrow = _face(FLETCHED, degrees + 6.0, 0.25, 0.5, sticker=0.76)
    needle = _face(NEEDLE, degrees, 0.45, 0.3, sticker=0.8)
    place = np.array([[40.0, 40.0], [80.0, 40.0], [120.0, 40.0]])
    for beside in (arrow, needle):
        decided: list[tuple[str | None, float]] = [("cube:?", 0.55), ("cube:?", 0.55), ("cube:E", 0.7)]
        asked_arrows(decided, [0, 1, 2], np.array([PLAIN, PLAIN, PLAIN]), {}, frozenset(), GlyphRule(), NeedleRule())
        assert decided[0] == ("cube:?", 0.55)  # the failure: at its place no ink, asked

        def cut(centres: np.ndarray) -> np.ndarray:
            return np.array([beside for _ in centres])
        changed = shifted_arrows(decided, [0, 1, 2], place, 30.0, cut, frozenset({1}), GlyphRule(), NeedleRule(),
                                 ShiftRule())
        # read beside its place, its confidence kept; a top found off its place and a cube read: as they were
        assert decided == [(f"cube:{want}", 0.55), ("cube:?", 0.55), ("cube:E", 0.7)] and changed == [0]


def test_the_crops_are_cut_one_to_three_per_cent_of_a_square_off_the_place() -> None:
    seen: list[np.ndarray] = []

    def cut(centres: np.ndarray) -> np.ndarray:
        seen.append(centres)
        return np.array([PLAIN for _ in centres])
    decided: list[tuple[str | None, float]] = [("cube:?", 0.5)]
    shifted_arrows(decided, [0], np.array([[100.0, 50.0]]), 30.0, cut, frozenset(), GlyphRule(), NeedleRule(), ShiftRule())
    off = np.abs(seen[0] - [100.0, 50.0])
    assert len(seen[0]) == 8 and decided == [("cube:?", 0.5)]  # no ink anywhere: still asked
    assert sorted(np.round(off.max(axis=1), 3)) == [0.45] * 4 + [0.9] * 4 and np.all(off.min(axis=1) == 0)


def test_crops_reading_two_ways_or_one_crop_alone_leave_the_cube_asked() -> None:
    assert shifted_direction(["N", None, "N", None], ShiftRule()) == "N"
    assert shifted_direction(["N", None, "S", "N"], ShiftRule()) is None  # two ways: asked
    assert shifted_direction(["N", None, None, None], ShiftRule()) is None  # one crop alone: asked
    assert shifted_direction([None] * 8, ShiftRule()) is None
    assert len(offsets(ShiftRule())) == 8 and len(offsets(ShiftRule(shifts=(0.03,)))) == 4


def test_the_cube_stage_reads_so_by_default() -> None:
    assert CubeTops().shifted == ShiftRule()


def test_the_shifted_crops_are_read_only_until_the_answer_is_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Session 27 (qspeed2): once two crops read two ways, or too few are left to agree, the rest are not
    read (each costs a mirror-axis read); the cube's answer is the one all eight crops give."""
    import vision.qubism_shift as qshift
    script: list[str | None] = []
    calls: list[int] = []

    def fake(crop: np.ndarray, mask: None, glyph: GlyphRule, rule: NeedleRule) -> str | None:
        calls.append(1)
        return script[len(calls) - 1]
    monkeypatch.setattr(qshift, "asked_arrow", fake)
    crops = np.zeros((8, 4, 4), np.float32)
    cases = [(["N", "S", "N", "N", "N", "N", "N", "N"], 2), ([None] * 8, 7), ([None] * 7 + ["E"], 7),
             ([None, "W", None, None, None, None, None, "W"], 8), (["E", None, "E", None, "N", "E", "E", "E"], 5)]
    for reads, read in cases:
        script[:], calls[:] = reads, []
        got = qshift.read_until_settled(crops, GlyphRule(), NeedleRule(), ShiftRule())
        assert len(calls) == read and got == reads[:read]
        assert shifted_direction(got, ShiftRule()) == shifted_direction(reads, ShiftRule())
