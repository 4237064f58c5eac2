"""Corrections to a dataset's labels kept beside the code that trains on it (the datasets in
``../shared`` are read-only): ``scripts/dice_dev_train_fixes.json`` for dice-dev's train split.

    apply_fixes(doc, fixes) -> a copy of the labels document with the fixes in

A fix names an image file and either changes the value of the label at a box ("fix": the label
whose box is within 2 px of it on every side, which must still say "was") or adds a die the
source left out ("add"). A fix that no longer matches its dataset is an error, never skipped:
labels fixed twice, or a dataset changed under the fixes, must be looked at again."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from vision.errors import VisionError

TRAIN_FIXES = Path(__file__).resolve().parents[1] / "scripts" / "dice_dev_train_fixes.json"


class LabelFixError(VisionError):
    """A label fix that does not match the dataset it is for."""


def load_fixes(path: Path = TRAIN_FIXES) -> dict[str, Any]:
    return dict(json.loads(Path(path).read_text()))


def fixes_for(doc: dict[str, Any], path: Path = TRAIN_FIXES) -> dict[str, Any] | None:
    """The fixes in ``path`` when they are for ``doc``'s dataset (by its name), else None."""
    fixes = load_fixes(path)
    return fixes if doc.get("name") == fixes["dataset"] else None


def _same_box(a: list[float], b: list[float], tol: float = 2.0) -> bool:
    return all(abs(float(x) - float(y)) <= tol for x, y in zip(a, b))


def apply_fixes(doc: dict[str, Any], fixes: dict[str, Any]) -> dict[str, Any]:
    """``doc`` (a labels.json document) with ``fixes`` applied; ``doc`` itself is left as it was."""
    if doc.get("name") != fixes["dataset"]:
        raise LabelFixError(f"label fixes for {fixes['dataset']!r}, not for {doc.get('name')!r}")
    out = copy.deepcopy(doc)
    by_file = {e["file"]: e for e in out["images"]}
    for name, fx in fixes["images"].items():
        entry = by_file.get(name)
        if entry is None:
            raise LabelFixError(f"label fix for {name}: no such image in the dataset")
        for f in fx.get("fix", []):
            hits = [d for d in entry["dice"] if _same_box(d["box"], f["box"])]
            if len(hits) != 1 or hits[0]["value"] != f["was"]:
                raise LabelFixError(f"label fix for {name} at {f['box']}: expected one label saying {f['was']}, "
                                    f"found {[d['value'] for d in hits]}")
            hits[0]["value"] = int(f["value"])
        for f in fx.get("add", []):
            if any(_same_box(d["box"], f["box"], tol=8.0) for d in entry["dice"]):
                raise LabelFixError(f"label fix for {name}: a die at {f['box']} is labelled already")
            entry["dice"].append({"value": int(f["value"]), "box": [float(v) for v in f["box"]]})
    return out
