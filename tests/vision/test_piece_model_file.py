"""A learned piece model's file across versions (``vision.piece_looks.PieceModel``): session 23's
Chop! Chop! start pictures of the slab squares (``slab_starts``, kept only by a switch that was
never on by default) were removed in session 24 (docs/readme/board.md, switches); a model file
saved with them still loads, and a model saved now no longer writes them."""

from __future__ import annotations

import json
from pathlib import Path

from vision.piece_looks import PieceModel


def test_a_model_saved_with_slab_start_pictures_still_loads_and_is_saved_without_them(tmp_path: Path) -> None:
    model = PieceModel("chopchop", {"mouse": [[0.2, 0.1, -0.4, 0.3]]}, start_corners=[float(v) for v in range(8)])
    model.save(tmp_path / "m.json")
    data = json.loads((tmp_path / "m.json").read_text())
    assert "slab_starts" not in data
    data["slab_starts"] = {"slab:3": [0.5] * 12}  # as session 23 wrote it with the switch on
    (tmp_path / "old.json").write_text(json.dumps(data))
    old = PieceModel.load(tmp_path / "old.json")
    assert old.looks == model.looks and old.start_corners == model.start_corners
    old.save(tmp_path / "again.json")
    assert "slab_starts" not in json.loads((tmp_path / "again.json").read_text())
