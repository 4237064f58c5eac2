"""The detector's own proposals as classifier crops (scripts/train_dice.py ``--mine``): false ones
as "not a die" (hard negatives: holes, dots, knobs, printed art), true ones with their label (the
detector's box jitter). With ``procs`` the scenes are shared out among forked processes (they
read the caller's scenes as they are)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from dice_scenes import PART, pooled
from vision import dice_boxes
from vision.cli import boxes_match, inside_match

Crop = Callable[[np.ndarray, list[float]], np.ndarray]
Mined = list[tuple[np.ndarray, int]]


def mine(data: list, out: Path, crop: Crop, procs: int = 0) -> Mined:
    """``crop`` of every proposal of the detector ``out/dice_det.onnx`` on the scenes ``data``."""
    global _MINING
    if procs:
        _MINING = (data, out, crop)
        try:
            return pooled(_mine_part, [(a, min(a + PART, len(data))) for a in range(0, len(data), PART)], procs)
        finally:
            _MINING = None
    return _mine(data, out, crop)


_MINING: tuple[list, Path, Crop] | None = None  # what mine() shares with its processes


def _mine_part(job: tuple[int, int]) -> list:
    assert _MINING is not None
    data, out, crop = _MINING
    return _mine(data[job[0]:job[1]], out, crop)


def _mine(data: list, out: Path, crop: Crop) -> Mined:
    from vision.dice import DiceConfig, detect

    cfg = DiceConfig(det_model=out / "dice_det.onnx", det_threshold=0.2, crowd_threshold=0.0)  # both passes, no crowd rule
    res = []
    for img, dice in data:
        props = detect(img, cfg)
        if any(d.get("inside") for d in dice):  # a set boxing more than the top face (dice_sets)
            res += mine_inside(img, dice, props, crop)
            continue
        for box, _score in props:
            ious = [dice_boxes.iou(box, d["box"]) for d in dice]
            best = int(np.argmax(ious)) if ious else -1
            if best >= 0 and ious[best] >= 0.5 and dice[best].get("whole"):
                continue  # a die whose top face is mostly hidden (vision.synth.dice3d): neither way
            if best >= 0 and ious[best] >= 0.5:
                res.append((crop(img, list(box)), int(dice[best]["value"])))
            elif not any(boxes_match(list(box), d["box"]) for d in dice) or max(ious, default=0) < 0.15:
                # a false hit: background, a pip, or a box around several dice
                res.append((crop(img, list(box)), 0))
    return res


def mine_inside(img: np.ndarray, dice: list[dict], props: list, crop: Crop) -> Mined:
    """Mined crops of a photo whose boxes hold more than the top face: each die's surest proposal
    inside its box (``inside_match``) is read as its value; other proposals inside a box are left
    out (a side face, or the top face again: not known which); proposals near no die are not dice."""
    res, taken = [], set()
    for box, _score in sorted(props, key=lambda p: -p[1]):
        hits = [j for j, d in enumerate(dice) if inside_match(list(box), d["box"])]
        if hits:
            j = max(hits, key=lambda j: dice_boxes.iou(box, dice[j]["box"]))
            if j not in taken:
                taken.add(j)
                res.append((crop(img, list(box)), int(dice[j]["value"])))
        elif not any(boxes_match(list(box), d["box"]) for d in dice):
            res.append((crop(img, list(box)), 0))
    return res
