"""The real sets scripts/train_dice.py trains on: the *train* split of each (a test split is never
read here), their box conventions, a held-out part for choosing models, and their balance.

Each set's ``labels.json`` says what its boxes hold (``vision.cli.box_convention``):

- dice-dev, rf-dice-public: the top face. Box targets for the detector, crops for the classifier.
- rune55-trays: the die seen from above (the top face and a sliver of side): box targets too
  (the sliver is a few pixels), but the detector's proposals are paired with its labels by
  ``vision.cli.inside_match`` when mined.
- epanemu-dice: the whole visible die (top and sides). Its dice are never box targets (no top face
  is known): the detector learns neither way inside their boxes (``"whole"``: its loss there is
  left out) and learns the rest of the photo (cloth, granite, a laptop's keys) as not a die; the
  classifier reads them only at the detector's own proposals (mined, ``"inside"`` pairing).

``--holdout K`` keeps every K-th train photo of each set out of training and writes them as a set
of their own (``DIR/<set>/labels.json``, split "val", the photos' absolute paths) for choosing
among trained models without looking at a test split.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import label_fixes
from vision.cli import box_convention

Scene = tuple[np.ndarray, list[dict]]


def load_set(ds: Path, fixes: str = "auto", holdout: int = 0, val_dir: Path | None = None,
             fold: int | None = None) -> list[Scene]:
    """The train split's photos of ``ds`` with their labels, corrected by ``fixes``
    (``vision.label_fixes``: a JSON file, "auto" or "none"); every die marked ``inside`` (paired by
    ``inside_match``) or ``whole`` (no top-face box) as its set's convention says. With ``holdout``
    every holdout-th photo is left out and, with ``val_dir``, written as a set there: the photos
    ``k`` with ``k % holdout == fold`` (the last of each ``holdout``, ``holdout - 1``, unless
    ``fold`` is given: other folds hold other photos out)."""
    fold = holdout - 1 if fold is None else fold
    if holdout and not 0 <= fold < holdout:
        raise SystemExit(f"holdout fold {fold}: must be 0 to {holdout - 1}")
    doc = json.loads((ds / "labels.json").read_text())
    fx = (None if fixes == "none" else label_fixes.fixes_for(doc) if fixes == "auto"
          else label_fixes.fixes_for(doc, Path(fixes)))  # a file of fixes for another set: none here
    if fx is not None:
        doc = label_fixes.apply_fixes(doc, fx)
        print(f"label fixes: {len(fx['images'])} {fx['dataset']} images corrected", flush=True)
    inside = box_convention(doc) == "inside"
    whole = "whole" in str(doc.get("box", "")).lower()
    out, val = [], []
    train = [e for e in doc["images"] if e["split"] == "train"]
    for k, e in enumerate(train):
        if holdout and k % holdout == fold:
            val.append({**e, "file": str((ds / e["file"]).resolve()), "split": "val"})
            continue
        img = cv2.imread(str(ds / e["file"]))
        if img is None:
            raise SystemExit(f"cannot read {ds / e['file']}: is the dataset complete?")
        out.append((img, [{**d, "inside": inside, "whole": whole} for d in e["dice"]]))
    if val_dir is not None and val:
        vd = val_dir / ds.name
        vd.mkdir(parents=True, exist_ok=True)
        keep: dict[str, Any] = {k: v for k, v in doc.items() if k != "images"}
        (vd / "labels.json").write_text(json.dumps({**keep, "images": val}))
    print(f"{ds.name}: {len(out)} train photos{f', {len(val)} held out' if holdout else ''}"
          f"{' (whole-die boxes: no box targets)' if whole else ''}", flush=True)
    return out


def load_sets(paths: list[Path], fixes: str = "auto", holdout: int = 0, val_dir: Path | None = None,
              balance: bool = True, fold: int | None = None,
              repeat: list[int] | None = None) -> list[Scene]:
    """:func:`load_set` of each; with ``balance`` a set of fewer photos is repeated so that each
    set is about as many photos as the largest (rune55-trays and epanemu-dice have a fifth and a
    quarter of dice-dev's); ``repeat`` (one whole number per set) then multiplies each set's share."""
    if repeat is not None and len(repeat) != len(paths):
        raise ValueError(f"repeat names {len(repeat)} sets, the data {len(paths)}")
    sets = [load_set(p, fixes, holdout, val_dir, fold) for p in paths]
    most = max((len(s) for s in sets), default=0)
    out: list[Scene] = []
    for i, s in enumerate(sets):
        times = max(1, round(most / max(1, len(s)))) if balance and len(sets) > 1 else 1
        out += s * (times * (repeat[i] if repeat else 1))
    return out
