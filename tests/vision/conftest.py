from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import pytest

# ../shared/datasets beside the checkout, or beside its parent (a worktree's: ../../shared)
DATASETS = next((p / "shared" / "datasets" for p in Path(__file__).resolve().parents[3:5]
                 if (p / "shared" / "datasets").is_dir()), Path(__file__).resolve().parents[3] / "shared" / "datasets")
DICE_DEV = DATASETS / "dice-dev"

cv2.setNumThreads(1)


@pytest.fixture(scope="session")
def dice_dev() -> tuple[Path, list[dict[str, Any]]]:
    """dice-dev's root and its test-split entries (skips when the shared datasets are absent)."""
    if not (DICE_DEV / "labels.json").is_file():
        pytest.skip("shared/datasets/dice-dev not present")
    doc = json.loads((DICE_DEV / "labels.json").read_text())
    return DICE_DEV, [e for e in doc["images"] if e["split"] == "test"]
