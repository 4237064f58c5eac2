"""Choose a second look's rule (``vision.dice_whole.SecondLook``) on held-out train photos, never on
a test split (issue 29, seventeenth and eighteenth rounds; docs/readme/dice.md).

    .venv/bin/python scripts/dice_whole_sweep.py VAL MODEL [VAL2 MODEL2 ...] [--json]

Each VAL is a folder of sets written by ``scripts/train_dice.py`` or ``scripts/train_dice_whole.py``
with ``--holdout K --val-out VAL`` (split "val") and MODEL the second look's classifier(s), trained
without those photos (comma-separated: averaged). Every photo is read by the shipped reader once
(its detector passes and classifiers are remembered per photo, so each rule costs only the rules
after them and the second look's reads), then with each rule
of the grid; per rule the figures of every set, summed over the folds given (value recall,
precision, wrong values, unreadable, extra: ``vision.cli.score_image`` with the set's pairing).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import dice as D  # noqa: E402
from vision.cli import box_convention, matcher, score_image  # noqa: E402
from vision.dice_whole import SecondLook  # noqa: E402

NEVER = 2.0
GRID = {"veto": (0.9, 0.95, 0.99, NEVER), "agree": (0.5, 0.65, 0.8, 0.9, NEVER), "sure": (0.98, NEVER)}


def remember_stages() -> None:
    """``vision.dice``'s detector passes and classifiers remembered per photo (keyed by the
    image's memory, which the caller keeps alive): the rules after them are what differs."""
    det, cls = D._detect_at, D.classify
    seen_d: dict[Any, Any] = {}
    seen_c: dict[Any, Any] = {}

    def detect_at(image: np.ndarray, size: int, config: D.DiceConfig) -> Any:
        key = (image.__array_interface__["data"][0], image.shape, size)
        if key not in seen_d:
            seen_d[key] = det(image, size, config)
        return seen_d[key]

    def classify(image: np.ndarray, boxes: Any, config: D.DiceConfig) -> Any:
        key = (image.__array_interface__["data"][0], image.shape, tuple(tuple(b) for b in boxes))
        if key not in seen_c:
            seen_c[key] = cls(image, boxes, config)
        return seen_c[key].copy()

    D._detect_at = detect_at  # type: ignore[assignment]
    D.classify = classify  # type: ignore[assignment]


def load(val: Path) -> list[tuple[str, Any, list[tuple[np.ndarray, dict]]]]:
    """Every set in ``val``: its name, pairing and (photo, entry) of its "val" split."""
    out = []
    for lab in sorted(val.glob("*/labels.json")):
        doc = json.loads(lab.read_text())
        entries = [e for e in doc["images"] if e.get("split") == "val"]
        photos = [(cv2.imread(str(Path(e["file"]) if Path(e["file"]).is_absolute() else lab.parent / e["file"])), e)
                  for e in entries]
        out.append((lab.parent.name, matcher(box_convention(doc)), photos))
    return out


def figures(sets: list, cfg: D.DiceConfig) -> dict[str, dict[str, int]]:
    tot: dict[str, dict[str, int]] = {}
    for name, match, photos in sets:
        t = tot.setdefault(name, {})
        for img, e in photos:
            s = score_image(e["dice"], D.read_dice(img, cfg), match)
            for k, v in s.items():
                t[k] = t.get(k, 0) + v
    return tot


def line(fig: dict[str, int]) -> str:
    return (f"{fig['right'] / max(1, fig['labels']):.3f} / {fig['right_preds'] / max(1, fig['preds']):.3f} / "
            f"{fig['wrong']} / {fig['unreadable']} / {fig['extra']}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs", nargs="+", help="VAL MODEL [VAL MODEL ...] (MODEL: comma-separated, averaged)")
    ap.add_argument("--grow", type=float, default=1.7)
    ap.add_argument("--below", type=float, default=0.99)
    for k, v in GRID.items():
        ap.add_argument(f"--{k}", default=",".join(map(str, v)), help=f"SecondLook.{k} values tried (comma-separated)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if len(a.pairs) % 2:
        ap.error("give VAL MODEL pairs")
    cv2.setNumThreads(1)
    remember_stages()
    folds = [(load(Path(v)), tuple(Path(x) for x in m.split(","))) for v, m in zip(a.pairs[::2], a.pairs[1::2])]
    base = D.DiceConfig()
    rules: list[SecondLook | None] = [None] + [
        SecondLook(Path(), a.grow, a.below, v, g, s)
        for v, g, s in itertools.product(*([float(x) for x in getattr(a, k).split(",")] for k in GRID))]
    rows = []
    for rule in rules:
        tot: dict[str, dict[str, int]] = {}
        for sets, model in folds:
            cfg = base if rule is None else replace(base, second=replace(rule, model=model))
            for name, fig in figures(sets, cfg).items():
                t = tot.setdefault(name, {})
                for k, v in fig.items():
                    t[k] = t.get(k, 0) + v
        all_ = {k: sum(f[k] for f in tot.values()) for k in next(iter(tot.values()))}
        key = "shipped" if rule is None else f"veto {rule.veto} agree {rule.agree} sure {rule.sure}"
        rows.append({"rule": key, **{n: tot[n] for n in sorted(tot)}, "all": all_})
        if a.json:
            print(json.dumps(rows[-1]), flush=True)
        else:
            print(f"| {key} | " + " | ".join(line(tot[n]) for n in sorted(tot)) + f" | {line(all_)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
