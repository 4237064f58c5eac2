"""Checks shared by the tests of the 3-D scene families (``vision.synth.board3d``, ``scene_b``,
``scene_c``)."""

from __future__ import annotations

from typing import Any, Sequence

DRAWN_AS = {"slab": "slab", "cheese": "cheese", "hole_open": "hole"}
"""A Chop! Chop! square's piece as drawn -> its label (an open hole is labelled ``hole``)."""


def assert_labels_drawn(squares: dict[str, str], placed: Sequence[Any]) -> None:
    """Every label of ``squares`` is drawn on its square among ``placed`` (each with ``square``
    and ``token``); a label on the table top over a square where something is drawn, there."""
    drawn: dict[str, list[str]] = {}
    for p in placed:
        drawn.setdefault(p.square, []).append(DRAWN_AS.get(p.token, p.token))
    for sid, token in squares.items():
        floor = sid[4:] if sid.startswith("top:") and sid[4:] in drawn else sid
        assert token in drawn.get(floor, []), (sid, token, drawn.get(floor))
