"""Kat en Muis on the third 3-D family (``vision.synth.scene_c``): see-through acrylic counters
under an evening lamp look like the print darkened, as a shadow does, so the edge of the camera
stand's shadow across an empty square was read as the mouse (nearer the mouse's learned look
than the real mouse) and the one-mouse count dropped the real one. A straight shadow edge
explains that square's change; a counter adds its own shape (``PieceConfig.shadow_edge``,
docs/readme/board.md, session 18, kemc)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.vision.group_reads import c_group, wrong_squares
from vision.boarddefaults import board_for
from vision.piece_config import PieceConfig

BOARD = board_for("katenmuis")


@pytest.fixture(scope="module")
def acrylic_evening(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """The third family's seed 4026, Kat en Muis group 1: acrylic meeples on a laminated laser
    print under the evening lamp, 13° tilt; the stand's shadow band crosses squares 1-4 and 18."""
    return c_group(tmp_path_factory, "katenmuis", 1, 8, 8, 4026)


@pytest.mark.slow
def test_a_shadow_edge_is_not_the_see_through_mouse(acrylic_evening: tuple[Path, list[dict[str, Any]]]) -> None:
    # measured (2026-11-27): 11 squares wrong without the check, 4 with it; without it square 18
    # (the shadow's edge) was read as the mouse in five of the seven reads
    root, scenes = acrylic_evening
    new = wrong_squares(scenes, root, BOARD, PieceConfig())
    old = wrong_squares(scenes, root, BOARD, PieceConfig(shadow_edge=(), footprint_swap=()))
    false_18 = [w for w in old if w[1] == "18" and w[3] == "mouse"]
    assert len(false_18) >= 4, old  # the scenes still show the failure
    assert not any(w[1] == "18" for w in new), new
    assert len(new) <= len(old) - 6, (new, old)


@pytest.mark.slow
def test_a_mouse_standing_in_the_shadows_edge_is_found(acrylic_evening: tuple[Path, list[dict[str, Any]]]) -> None:
    # measured (session 19, kilshadow): in scenes 10 and 14 the mouse stands in the band's edge
    # (square 1, then square 4: an edge explains all but 0.25 and 0.32 of its change); the search
    # for the missing mouse skipped it and took the bare edge on the other square (0.11, 0.08),
    # whose change it had not measured against an edge. Skipping every spot an edge explains but
    # for 0.35 misses both mice; skipping only the bare edge (``always_edge``) finds them.
    root, scenes = acrylic_evening
    new = wrong_squares(scenes, root, BOARD, PieceConfig())
    strict = wrong_squares(scenes, root, BOARD, PieceConfig(always_edge=0.35))
    band = {("images/katenmuis-0010.jpg", "1"), ("images/katenmuis-0014.jpg", "4")}
    assert band <= {(w[0], w[1]) for w in strict if w[2] == "mouse"}, strict
    assert not [w for w in new if w[0] in {f for f, _ in band} and w[1] in {"1", "4"}], new
    assert set(new) <= set(strict), (new, strict)
