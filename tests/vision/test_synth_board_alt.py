"""The independent scene renderer writes datasets that the evaluation reads unchanged."""

from __future__ import annotations

import json
from pathlib import Path

from vision.boardcli import main
from vision.synth.board_scenes import evaluate_dir


def test_alt_dataset_is_readable_and_evaluated(tmp_path: Path) -> None:
    root = tmp_path / "alt"
    assert main(["synth", str(root), "--count", "6", "--seed", "3", "--renderer", "alt",
                 "--games", "katenmuis,qubism"]) == 0
    data = json.loads((root / "labels.json").read_text())
    assert data["format"] == "companion-board-scenes/1" and len(data["scenes"]) == 6
    assert all(sc["renderer"] == "alt" and (root / sc["file"]).is_file() for sc in data["scenes"])
    assert {sc["board"] for sc in data["scenes"]} == {"katenmuis", "qubism"}
    report = evaluate_dir(root)
    assert report["scenes"] == 4 and report["found_rate"] == 1.0
    assert report["square_accuracy"] > 0.85
