"""bench/variants.py: each camera variation keeps its labels on the dice it moved."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _variants():
    spec = importlib.util.spec_from_file_location("bench_variants", ROOT / "bench" / "variants.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _scene() -> tuple[np.ndarray, list[list[float]]]:
    img = np.full((200, 300, 3), 90, np.uint8)
    boxes = [[20.0, 30.0, 60.0, 70.0], [200.0, 120.0, 250.0, 170.0]]
    for x1, y1, x2, y2 in boxes:
        cv2.rectangle(img, (int(x1), int(y1)), (int(x2) - 1, int(y2) - 1), (255, 255, 255), -1)
    return img, boxes


@pytest.mark.parametrize("name", ["big", "small", "warm", "cool", "dim", "tilt", "rot", "blur", "wide"])
def test_boxes_follow_the_dice(name: str) -> None:
    """The white squares stand where the moved boxes say, and nowhere else."""
    v = _variants()
    img, boxes = _scene()
    out, moved = v.VARIANTS[name](img, boxes, np.random.default_rng(1))
    assert len(moved) == len(boxes)
    grey = cv2.cvtColor(out, cv2.COLOR_BGR2GRAY)
    lit = grey > (170 if name != "dim" else 120)
    inside = np.zeros_like(lit)
    for x1, y1, x2, y2 in moved:
        assert 0 <= x1 < x2 <= out.shape[1] and 0 <= y1 < y2 <= out.shape[0]
        cx, cy = int((x1 + x2) / 2), int((y1 + y2) / 2)
        assert lit[cy, cx], f"{name}: no die at the centre of {moved}"
        inside[int(y1):int(y2) + 1, int(x1):int(x2) + 1] = True
    assert lit[~inside].mean() < 0.002, f"{name}: dice lit outside their boxes"


def test_write_variant_keeps_values(tmp_path: Path) -> None:
    v = _variants()
    img, boxes = _scene()
    ds = tmp_path / "ds"
    (ds / "images").mkdir(parents=True)
    cv2.imwrite(str(ds / "images" / "a.png"), img)
    (ds / "labels.json").write_text(json.dumps({"images": [
        {"file": "images/a.png", "split": "test", "dice": [{"value": 3, "box": boxes[0]}, {"value": 6, "box": boxes[1]}]},
        {"file": "images/b.png", "split": "train", "dice": []}]}))
    out = v.write_variant(ds, tmp_path / "rot", "rot")
    doc = json.loads((out / "labels.json").read_text())
    assert [e["file"] for e in doc["images"]] == ["images/a_rot.png"]  # test split only
    assert [d["value"] for d in doc["images"][0]["dice"]] == [3, 6]
    assert cv2.imread(str(out / "images" / "a_rot.png")).shape == (300, 200, 3)
