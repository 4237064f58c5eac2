"""What other test-time views of an unsure die would change: turned, shifted and wider crops.

    .venv/bin/python bench/dice.py --variants --keep DIR       # writes the bench's sets (once)
    .venv/bin/python bench/dice_views.py DIR [--dataset ../shared/datasets/dice-dev] [--json]

The reader re-reads a crop it is unsure of (top probability under ``DiceConfig.tta_below``) turned
by 90, 180 and 270 degrees and averages the four answers (``vision.dice.classify``). This bench
asks whether other views would pay: the crop shifted by 5, 10 or 15 % of the die's side in each
of four directions, the box grown by 1.0, 1.3 or 1.5 instead of ``CROP_GROW``, or all of them.

It runs the shipped reader on dice-dev's test split and on every set under DIR (each folder with
a ``labels.json``: bench/dice.py's variants, synthetic, hand and crowded sets), and for each die
it reports whose upright crop was unsure, reads every view with the shipped classifier. Each
scheme averages a set of views; its value is reported when its probability reaches
``min_value_prob``, as the reader does. A reading is then right (a labelled die of that value
under it, boxes matched as in ``companion dice eval``; on the hand set, a die under the hand
counts too), wrong, extra (no labelled die) or asked
about; a reading the reader asked about for another reason (a die cut by the frame, an overlap,
a weak crowd peak) stays asked about. Printed per scheme against the shipped one: wrong or extra
values it removes and adds, right values it loses and wins, and what the extra views cost.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import dice as D  # noqa: E402
from vision import dice_models as DM  # noqa: E402
from vision.cli import boxes_match  # noqa: E402
from vision.imageload import load_image  # noqa: E402

SHIFTS = (0.05, 0.1, 0.15)
GROWS = (1.0, 1.3, 1.5)
Views = dict[str, np.ndarray]
Record = dict[str, Any]


def views(img: np.ndarray, box: tuple[float, float, float, float], cfg: D.DiceConfig) -> Views | None:
    """Every view of one die (upright, turned 3 ways, shifted 4 ways per SHIFTS, grown per GROWS),
    or None when its crop is read surely, by the quick classifier (at least ``fast_sure``) or by
    the full one upright (at least ``tta_below``): the reader never re-reads those."""
    path, grow = cfg.cls_models[0]
    if cfg.cls_fast is not None:
        fast, fast_grow = cfg.cls_fast
        if D.read_crops(fast, D._crops(img, [box], fast_grow)).max() >= cfg.fast_sure:
            return None
    crop = D._crops(img, [box], grow)
    up = D.read_crops(path, crop)
    if up.max() >= cfg.tta_below:
        return None
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1)
    moved = [(x1 + dx * side, y1 + dy * side, x2 + dx * side, y2 + dy * side)
             for s in SHIFTS for dx, dy in ((s, 0), (-s, 0), (0, s), (0, -s))]
    return {"up": up,
            "turns": D.read_crops(path, np.concatenate([np.rot90(crop, k, axes=(1, 2)) for k in (1, 2, 3)])),
            "shifts": D.read_crops(path, D._crops(img, moved, grow)),
            "grows": np.concatenate([D.read_crops(path, D._crops(img, [box], g)) for g in GROWS])}


def _mean(*parts: Callable[[Views], np.ndarray]) -> Callable[[Views], np.ndarray]:
    return lambda v: np.concatenate([p(v) for p in parts]).mean(0)


def _shift(k: int) -> Callable[[Views], np.ndarray]:
    return lambda v: v["shifts"][4 * k: 4 * k + 4]


def _grow(k: int) -> Callable[[Views], np.ndarray]:
    return lambda v: v["grows"][k: k + 1]


def _turns(v: Views) -> np.ndarray:
    return np.concatenate([v["up"], v["turns"]])


SHIPPED = _mean(_turns)
SCHEMES: dict[str, tuple[Callable[[Views], np.ndarray], int]] = {  # name: (probabilities, extra crops read)
    "upright only": (lambda v: v["up"][0], -3),
    **{f"turns + shifts {s:.2f}": (_mean(_turns, _shift(k)), 4) for k, s in enumerate(SHIFTS)},
    **{f"turns + grown {g}": (_mean(_turns, _grow(k)), 1) for k, g in enumerate(GROWS)},
    "turns + grown 1.3, 1.5": (_mean(_turns, _grow(1), _grow(2)), 2),
    "turns + shifts 0.05 + grown 1.3": (_mean(_turns, _shift(0), _grow(1)), 5),
    "every view": (lambda v: np.concatenate([_turns(v), v["shifts"], v["grows"]]).mean(0), 15),
}


def collect(dataset: Path, name: str, cfg: D.DiceConfig) -> list[Record]:
    """One record per reading whose upright crop was unsure: its labels, the reader's value, views."""
    doc = json.loads((dataset / "labels.json").read_text())
    out = []
    for e in doc["images"]:
        if e.get("split", "test") != "test":
            continue
        img = load_image(dataset / e["file"]).image
        for r in D.read_dice(img, cfg):
            v = views(img, r.box, cfg)
            if v is None:
                continue
            labs = [d["value"] for d in e["dice"] + e.get("hidden", []) if boxes_match(list(r.box), d["box"])]
            out.append({"set": name, "file": e["file"], "labels": labs, "value": r.value, "views": v})
    return out


def outcome(rec: Record, p: np.ndarray, threshold: float) -> str:
    v = int(np.argmax(p[1:])) + 1
    if p[v] < threshold:
        return "asked"
    if not rec["labels"]:
        return "extra"
    return "right" if v in rec["labels"] else "wrong"


def compare(recs: list[Record], scheme: Callable[[Views], np.ndarray], threshold: float) -> dict[str, int]:
    n = {"bad_removed": 0, "bad_added": 0, "right_lost": 0, "right_won": 0, "dice_dev_right_lost": 0}
    for rec in recs:
        before = outcome(rec, SHIPPED(rec["views"]), threshold)
        if rec["value"] is None and before != "asked":
            continue  # asked about for another reason: so it stays
        after = outcome(rec, scheme(rec["views"]), threshold)
        if after == before:
            continue
        bad = ("wrong", "extra")
        n["bad_removed"] += before in bad
        n["bad_added"] += after in bad
        n["right_lost"] += before == "right"
        n["right_won"] += after == "right"
        n["dice_dev_right_lost"] += before == "right" and rec["set"] == "dice-dev"
    return n


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", help="a folder of labelled sets (bench/dice.py --keep)")
    ap.add_argument("--dataset", default=str(ROOT.parent / "shared" / "datasets" / "dice-dev"))
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    cfg = D.DiceConfig()
    D.warm_up(cfg)
    sets = {"dice-dev": Path(a.dataset)} if (Path(a.dataset) / "labels.json").is_file() else {}
    if Path(a.sets).is_dir():
        sets.update({p.name: p for p in sorted(Path(a.sets).iterdir()) if (p / "labels.json").is_file()})
    if not sets:
        print(f"no labelled sets in {a.sets}", file=sys.stderr)
        return 2
    recs = []
    for name, ds in sets.items():
        recs += collect(ds, name, cfg)
    # what one more view costs: the classifier's time per crop in a batch of 8 (the reader reads
    # the views of all unsure dice in one batch), median of 200 batches
    net = DM._net(cfg.cls_models[0][0])
    ms = float(np.median([DM._forward_ms(net, DM.CLS_PROBE) for _ in range(200)])) / DM.CLS_PROBE[0]
    rows = []
    for name, (scheme, extra) in SCHEMES.items():
        rows.append({"scheme": name, **compare(recs, scheme, cfg.min_value_prob), "extra_ms_per_unsure_die": round(extra * ms, 2)})
    bad = sum(outcome(r, SHIPPED(r["views"]), cfg.min_value_prob) in ("wrong", "extra") for r in recs if r["value"] is not None)
    if a.json:
        print(json.dumps({"sets": list(sets), "unsure_readings": len(recs), "wrong_or_extra": bad, "schemes": rows}))
        return 0
    print(f"{len(sets)} sets; {len(recs)} readings unsure upright, {bad} of them wrong or extra as the reader reports them")
    print("\n| views averaged | wrong/extra removed | wrong/extra added | right lost | right won "
          "| dice-dev right lost | ms more per unsure die |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['scheme']} | {r['bad_removed']} | {r['bad_added']} | {r['right_lost']} | {r['right_won']} "
              f"| {r['dice_dev_right_lost']} | {r['extra_ms_per_unsure_die']:+.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
