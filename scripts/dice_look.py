"""Look at what the dice reader gets wrong on a set's photos: every labelled die missed, asked
about or misread and every extra prediction, one line each and a crop of each on contact sheets.

    .venv/bin/python scripts/dice_look.py VAL OUT [--split val] [--only a,b] [--small-size 640]

VAL is a folder of sets (``scripts/dice_sets.py``'s ``--holdout`` photos: never a test split when
choosing anything). OUT gets ``<set>.jsonl`` (one line a case: kind, the label's and the
prediction's boxes and values, the die's side in pixels, the detector's best score near a missed
die, the classifier's top probabilities of an asked one) and ``<set>-<kind>.png`` sheets (each
crop about twice the label box, the label in green, the prediction in red, its value and size written
under it). Pairs are made as ``vision.cli.score_image`` makes them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision import dice  # noqa: E402
from vision.cli import box_convention, matcher  # noqa: E402
from vision.dice import DiceConfig, DieReading  # noqa: E402

TILE = 96


def pair(labels: list[dict], preds: list[DieReading], match) -> dict[int, int]:  # type: ignore[no-untyped-def]
    """prediction index -> label index, as ``score_image`` pairs them."""
    order = sorted(range(len(preds)), key=lambda i: -preds[i].confidence)
    taken: set[int] = set()
    pairs: dict[int, int] = {}
    for same in (True, False):
        for i in order:
            if i in pairs:
                continue
            for j, lab in enumerate(labels):
                if j in taken or not match(list(preds[i].box), lab["box"]):
                    continue
                if same and preds[i].value != lab["value"]:
                    continue
                pairs[i] = j
                taken.add(j)
                break
    return pairs


def tile(img: np.ndarray, label: list[float] | None, pred: tuple[float, ...] | None, text: str) -> np.ndarray:
    ref = label if label is not None else pred
    assert ref is not None
    cx, cy = (ref[0] + ref[2]) / 2, (ref[1] + ref[3]) / 2
    side = max(ref[2] - ref[0], ref[3] - ref[1]) * 2.2 + 8
    s = (TILE - 14) / side
    m = np.float32([[s, 0, TILE / 2 - cx * s], [0, s, (TILE - 14) / 2 - cy * s]])
    t = cv2.warpAffine(img, m, (TILE, TILE), flags=cv2.INTER_LINEAR, borderValue=(40, 40, 40))
    for b, col in ((label, (0, 200, 0)), (pred, (0, 0, 255))):
        if b is not None:
            p1 = (int(b[0] * s + m[0, 2]), int(b[1] * s + m[1, 2]))
            p2 = (int(b[2] * s + m[0, 2]), int(b[3] * s + m[1, 2]))
            cv2.rectangle(t, p1, p2, col, 1)
    t[TILE - 14:] = 0
    cv2.putText(t, text, (2, TILE - 3), cv2.FONT_HERSHEY_PLAIN, 0.8, (255, 255, 255), 1)
    return t


def sheet(tiles: list[np.ndarray], cols: int = 12) -> np.ndarray:
    rows = (len(tiles) + cols - 1) // cols
    out = np.zeros((rows * TILE, cols * TILE, 3), np.uint8)
    for k, t in enumerate(tiles):
        out[(k // cols) * TILE:(k // cols + 1) * TILE, (k % cols) * TILE:(k % cols + 1) * TILE] = t
    return out


def near_score(img: np.ndarray, box: list[float], cfg: DiceConfig) -> float:
    """The detector's best score (fine pass, any threshold) of a box centred in ``box``."""
    low = DiceConfig(**{**cfg.__dict__, "det_threshold": 0.02, "crowd_threshold": 0.0})
    props = dice._fine_pass(img, low)[1]
    best = 0.0
    for b, sc in props:
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        if box[0] <= cx <= box[2] and box[1] <= cy <= box[3]:
            best = max(best, sc)
    return best


def look(ds: Path, out: Path, split: str, cfg: DiceConfig) -> dict[str, int]:
    doc = json.loads((ds / "labels.json").read_text())
    match = matcher(box_convention(doc))
    lines, tiles, counts = [], {}, {}  # type: ignore[var-annotated]
    for e in doc["images"]:
        if e.get("split") != split:
            continue
        img = cv2.imread(str(ds / e["file"]))
        labels = e["dice"]
        preds = dice.read_dice(img, cfg)
        pairs = pair(labels, preds, match)
        paired = {j: i for i, j in pairs.items()}
        cases = []
        for j, lab in enumerate(labels):
            i = paired.get(j)
            side = max(lab["box"][2] - lab["box"][0], lab["box"][3] - lab["box"][1])
            if i is None:
                cases.append(("missed", lab, None, {"near": round(near_score(img, lab["box"], cfg), 3)}))
            elif preds[i].value is None:
                p = dice.classify(img, [preds[i].box], DiceConfig(**{**cfg.__dict__, "cls_fast": None}))[0]
                cases.append(("asked", lab, preds[i], {"probs": [round(float(v), 2) for v in p]}))
            elif preds[i].value != lab["value"]:
                cases.append(("wrong", lab, preds[i], {}))
            else:
                cases.append(("right", lab, preds[i], {}))
        for i, p in enumerate(preds):
            if i not in pairs:
                cases.append(("extra" if p.value is not None else "extra-asked", None, p, {}))
        for kind, lab, p, more in cases:
            counts[kind] = counts.get(kind, 0) + 1
            lb = lab["box"] if lab else None
            ref = lb or list(p.box)
            side = round(max(ref[2] - ref[0], ref[3] - ref[1]), 1)
            lines.append({"kind": kind, "file": e["file"], "label": lb, "value": lab["value"] if lab else None,
                          "pred": [round(v, 1) for v in p.box] if p else None, "read": p.value if p else None,
                          "conf": round(p.confidence, 3) if p else None, "side": side, **more})
            if kind != "right":
                txt = f"{lab['value'] if lab else '-'}>{p.value if p and p.value else '?' if p else 'x'} {side:.0f}"
                tiles.setdefault(kind, []).append(tile(img, lb, p.box if p else None, txt))
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{ds.name}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    for kind, ts in tiles.items():
        cv2.imwrite(str(out / f"{ds.name}-{kind}.png"), sheet(ts))
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sets", help="a folder of sets (each with labels.json)")
    ap.add_argument("out")
    ap.add_argument("--split", default="val")
    ap.add_argument("--only", default="", help="sets to look at (comma-separated; default all)")
    ap.add_argument("--small-size", type=int, default=None, help="DiceConfig.small_size (640: the pass for small dice)")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    cfg = DiceConfig() if a.small_size is None else DiceConfig(small_size=a.small_size)
    for ds in sorted(Path(a.sets).iterdir()):
        if (ds / "labels.json").is_file() and (not a.only or ds.name in a.only.split(",")):
            print(ds.name, look(ds, Path(a.out), a.split, cfg), flush=True)


if __name__ == "__main__":
    main()
