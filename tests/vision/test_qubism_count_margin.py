"""Qubism's piece count: an excess pawn demoted to a cube stays one by its arrow's shape alone only
where the shape reads ``PieceConfig.count_glyph_margin`` clearer than ``cube_glyph_min`` (the shape's
confidence moves by up to 0.14 on a sub-pixel move of the tops: docs/readme/board.md, session 28
qsettle); under that the count reads it empty and the cube stage decides by the top."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.boarddefaults import board_for
from vision.pieces import BoardReader


def _reader(shape: float | None, match: float | None = None, margin: float | None = None) -> BoardReader:
    reader = BoardReader(board_for("qubism"))
    if margin is not None:
        reader.config = replace(reader.config, count_glyph_margin=margin)
    reader._arrow_conf = {} if shape is None else {3: shape}
    reader._top_match = {} if match is None else {3: match}
    reader._margin_empty = set()
    return reader


@pytest.mark.parametrize("shape, count_empty, stage_empty", [
    (0.05, True, True), (0.6, True, True), (0.7, True, False), (0.79, True, False), (0.85, False, False)])
def test_count_keeps_a_cube_only_by_a_shape_clear_past_the_margin(shape: float, count_empty: bool,
                                                                   stage_empty: bool) -> None:
    reader = _reader(shape)
    assert reader.config.count_glyph_margin == pytest.approx(0.15)
    assert reader._no_count_cube(3) is count_empty
    assert reader._no_cube_top(3) is stage_empty  # the first pass's test itself is unchanged
    assert reader._margin_empty == ({3} if count_empty and not stage_empty else set())  # not searched off its place


def test_no_margin_is_the_old_test_and_learned_tops_are_untouched() -> None:
    for shape in (0.05, 0.6, 0.66, 0.7, 0.9):
        reader = _reader(shape, margin=0.0)
        assert reader._no_count_cube(3) is reader._no_cube_top(3)
    for match in (0.5, 0.7):  # a learned cube top: its correlation decides, as before
        reader = _reader(0.7, match=match)
        assert reader._no_count_cube(3) is reader._no_cube_top(3) is (match < reader.config.cube_top_match)
    assert _reader(None)._no_count_cube(3) is False  # no shape read: nothing to say
