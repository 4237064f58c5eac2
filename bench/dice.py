"""Bench the dice reader: accuracy and median time per frame, one thread.

    .venv/bin/python bench/dice.py [--synth-n 100] [--seed 7] [--datasets ../shared/datasets] [--real all]

Prints the figures of ``companion dice eval`` on the test split of every real set (dice-dev,
rune55-trays, epanemu-dice, rf-dice-public: each paired by its own box convention, see
``bench/dice_real.py``) and on synthetic sets
rendered deterministically from the seed: "mixed" (wide variation: colours, tilt up to 45
degrees, busy backgrounds, blur, noise, shadows, touching dice; 640x640), "close" (a close
camera: 1-3 dice of 110-200 px, a fifth to a third of the frame) and "wide" (a camera over the
whole table: 1280x960 frames, dice of 24-40 px). Only "mixed" is at the size the 15 ms bar is
about; the other two show how the reader copes with cameras unlike dice-dev's.

"hand" (half as many 640x640 scenes as "mixed", seed + 300) puts a hand over part of the dice,
reaching for one: dice with more than a fifth of their top face under it are counted apart
(read right, misread, asked about; a misread one is a made-up value), the others as usual.

``--d3-n N`` (default 50, 0: off) adds "3-D": scenes ray-cast by ``vision.synth.dice3d`` (dice
in perspective with side faces, busy printed art, 13-110 px dice, marbled and translucent bodies,
blank cubes, keys, tokens and a hand as negatives); dice whose top face is hidden are counted apart
as under "hand".

``--crowd-n N`` (default 40, 0: off) adds "crowded": 640x640 tables of 20-40 dice packed
against each other (``vision.synth.crowd``), with three more counts: *duplicates* (a labelled
die found twice: predictions centred on a labelled die's top face beyond those paired with one), *merged*
(a prediction whose box holds the centres of two or more labelled dice) and *missed* (labelled
dice no prediction matches).

``--variants`` adds dice-dev's test photos as other cameras and rooms would take them
(``bench/variants.py``: 2x and 0.6x resolution, warm and cool light, a dim room with noise and
JPEG, a tilted camera, a quarter turn, focus blur, a wider view over a wood table): real dice,
other imaging.

``--det-model``, ``--cls-model`` and ``--fast-model`` read with another detector, full classifier
or quick classifier (``--fast-model none``: the full classifier reads every crop); ``--small-size 640``
with the pass for small dice (thirteenth round; off by default). ``--second-model M[,M2]`` reads
with another second look at the dice asked about (``vision.dice_whole.SecondLook``; ``none``:
without it) and ``--second-veto``, ``--second-agree``, ``--second-sure``, ``--second-below``,
``--second-grow`` change its rule. The seventeenth round's ``--whole-*`` spellings still work,
but ``SecondLook``'s defaults are now the eighteenth round's (crop 1.15, ``sure`` 0.85): its
whole-die reader is read as trained with ``--whole-grow 1.7`` added to its commands.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from vision.synth import crowd as synth_crowd  # noqa: E402
from vision.synth import dice as synth_dice  # noqa: E402
from vision.synth import dice3d as synth_dice3d  # noqa: E402
from vision.cli import _grown_contains, boxes_match, evaluate, score_image  # noqa: E402
from vision.dice import CROP_GROW, DiceConfig  # noqa: E402
from vision.dice_whole import SecondLook  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
import variants  # noqa: E402
from dice_real import REAL_SETS, datasets_dir, evaluate_real, table  # noqa: E402


def show(fig: dict) -> None:
    print(f"{fig['dataset']} [{fig['split']}]: {fig['images']} images, {fig['dice']} dice")
    for k in ("detect_recall", "value_recall", "precision", "images_fully_right"):
        print(f"  {k:20s} {fig[k]:.4f}")
    print(f"  unreadable {fig['unreadable']}, extra predictions {fig['extra_predictions']}, "
          f"wrong values {fig.get('wrong_values', 0)}")
    if "hidden" in fig:
        print(f"  dice under a hand {fig['hidden']}: read right {fig['hidden_right']}, "
              f"misread {fig['hidden_wrong']}, asked {fig['hidden_asked']}")
    if "duplicates" in fig:
        print(f"  duplicates {fig['duplicates']}, merged {fig['merged']}, missed {fig['missed']}")
    print(f"  median ms/frame      {fig['median_ms']:.2f} wall (p90 {fig['p90_ms']:.2f}), {fig['median_cpu_ms']:.2f} CPU")


def crowd_counts(entry: dict, preds: list) -> dict[str, int]:
    """``score_image``'s counts plus duplicates, merged and missed dice (see the docstring)."""
    s = score_image(entry["dice"], preds)
    labels = [d["box"] for d in entry["dice"]]
    centred = sum(1 for p in preds if any(_grown_contains(b, (p.box[0] + p.box[2]) / 2, (p.box[1] + p.box[3]) / 2, 0.0)
                                          for b in labels))
    merged = sum(1 for p in preds if sum(_grown_contains(list(p.box), (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, 0.0)
                                         for b in labels) >= 2)
    return {**s, "duplicates": max(0, centred - s["found"]), "merged": merged, "missed": s["labels"] - s["found"]}


def evaluate_crowd(dataset: Path, cfg: DiceConfig) -> dict:
    return evaluate(dataset, "test", cfg, crowd_counts)[0]


def hand_counts(entry: dict, preds: list) -> dict[str, int]:
    """``score_image``'s counts on the dice in view, with the dice a hand hides (more than a fifth
    of the top face under it: ``vision.synth.dice.HIDDEN_FROM``) counted apart: a reading on one
    is *hidden_right*, *hidden_wrong* (a made-up value: what must not happen) or *hidden_asked*."""
    shown = [d["box"] for d in entry["dice"]]
    hid = {"hidden": 0, "hidden_right": 0, "hidden_wrong": 0, "hidden_asked": 0}
    on_hidden = []
    for h in entry.get("hidden", []):
        hid["hidden"] += 1
        mine = [p for p in preds if boxes_match(list(p.box), h["box"])
                and not any(boxes_match(list(p.box), b) for b in shown)]
        on_hidden += mine
        if any(p.value == h["value"] for p in mine):
            hid["hidden_right"] += 1
        elif any(p.value is not None for p in mine):
            hid["hidden_wrong"] += 1
        elif mine:
            hid["hidden_asked"] += 1
    return {**score_image(entry["dice"], [p for p in preds if p not in on_hidden]), **hid}


def evaluate_hands(dataset: Path, cfg: DiceConfig) -> dict:
    return evaluate(dataset, "test", cfg, hand_counts)[0]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", default=str(datasets_dir(ROOT)), help="the folder of the real sets")
    ap.add_argument("--real", default="all", help="real sets to read (comma-separated names, 'all' or 'none')")
    ap.add_argument("--split", default="test", help="the real sets' split read ('val': the sets that "
                                                   "scripts/train_dice.py --holdout --val-out writes)")
    ap.add_argument("--dataset", default=None, help="the set --variants varies (default: DATASETS/dice-dev)")
    ap.add_argument("--synth-n", type=int, help="images per synthetic set (0: none)", default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--crowd-n", type=int, default=40, help="crowded tables to render (0: none)")
    ap.add_argument("--d3-n", type=int, default=50,
                    help="scenes ray-cast in 3-D (vision.synth.dice3d, seed + 2000; 0: none)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--min-value-prob", type=float, default=None, help="another DiceConfig.min_value_prob")
    ap.add_argument("--det-size", type=int, default=None, help="another DiceConfig.det_size (the detector's input)")
    ap.add_argument("--det-scale", type=float, default=None, help="another DiceConfig.det_scale")
    ap.add_argument("--det-model", help="another detector (ONNX) instead of the shipped one")
    ap.add_argument("--cls-model", help="another full classifier (ONNX) instead of the shipped one "
                                        "(comma-separated: several, their probabilities averaged)")
    ap.add_argument("--fast-model", help="another quick classifier (ONNX) read first, or 'none': every crop "
                                         "read by the full one")
    ap.add_argument("--small-size", type=int, default=None,
                    help="DiceConfig.small_size: 640 reads with the pass for small dice (thirteenth round; default 0: off)")
    ap.add_argument("--small-edge", type=float, default=None,
                    help="DiceConfig.small_edge: a small die of that pass this near the frame's edge (px) is not "
                         "taken from it (negative: no such rule; twentieth round)")
    ap.add_argument("--small-above", type=float, default=None,
                    help="DiceConfig.small_above: nor one whose strip above is read as a die face this surely "
                         "(0: no such rule; twentieth round)")
    ap.add_argument("--small-above-height", type=float, default=None, help="DiceConfig.small_above_height")
    ap.add_argument("--second-model", "--whole-model", dest="second_model",
                    help="the second look's classifiers (ONNX, comma-separated: averaged; vision.dice_whole), "
                         "or 'none': without it")
    for k, what in (("veto", " (above 1: never)"), ("agree", " (above 1: never)"), ("sure", " (above 1: never)"),
                    ("below", ""), ("grow", "")):
        ap.add_argument(f"--second-{k}", f"--whole-{k}", dest=f"second_{k}", type=float, default=None,
                        help=f"SecondLook.{k}{what}")
    ap.add_argument("--keep", help="write the synthetic and variant sets here (reused when present)")
    ap.add_argument("--variants", action="store_true", help="also dice-dev's test photos as other cameras take them")
    ap.add_argument("--only-variants", action="store_true", help="only those (no synthetic sets)")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    cfg = DiceConfig()
    if a.det_model:
        cfg = replace(cfg, det_model=Path(a.det_model))
    if a.cls_model:
        cfg = replace(cfg, cls_models=tuple((Path(m), CROP_GROW) for m in a.cls_model.split(",")))
    if a.min_value_prob is not None:
        cfg = replace(cfg, min_value_prob=a.min_value_prob)
    if a.det_size is not None:
        cfg = replace(cfg, det_size=a.det_size)
    if a.det_scale is not None:
        cfg = replace(cfg, det_scale=a.det_scale)
    if a.small_size is not None:
        cfg = replace(cfg, small_size=a.small_size)
    if a.small_edge is not None:
        cfg = replace(cfg, small_edge=a.small_edge)
    if a.small_above is not None:
        cfg = replace(cfg, small_above=a.small_above)
    if a.small_above_height is not None:
        cfg = replace(cfg, small_above_height=a.small_above_height)
    if a.fast_model:
        cfg = replace(cfg, cls_fast=None if a.fast_model == "none" else (Path(a.fast_model), CROP_GROW))
    if a.second_model:
        cfg = replace(cfg, second=None if a.second_model == "none" else
                      SecondLook(tuple(Path(m) for m in a.second_model.split(","))))
    if cfg.second is not None:
        rule = {k: getattr(a, f"second_{k}") for k in ("veto", "agree", "sure", "below", "grow")}
        cfg = replace(cfg, second=replace(cfg.second, **{k: v for k, v in rule.items() if v is not None}))
    results = []
    a.dataset = a.dataset or str(Path(a.datasets) / "dice-dev")
    names = [] if a.real == "none" else list(REAL_SETS) if a.real == "all" else a.real.split(",")
    for name in names:
        if (Path(a.datasets) / name / "labels.json").is_file():
            results.append(evaluate_real(Path(a.datasets) / name, cfg, a.split))
        else:
            print(f"(no {Path(a.datasets) / name}: skipped)")
    sets = {
        "mixed": (a.synth_n, synth_dice.SceneParams()),
        "close": (max(10, a.synth_n // 2), synth_dice.SceneParams(n_dice=(1, 3), die_px=(110.0, 200.0))),
        "wide": (max(10, a.synth_n // 2), synth_dice.SceneParams(width=1280, height=960, n_dice=(2, 8),
                                                                   die_px=(24.0, 40.0), blur_sigma=(0.0, 0.6))),
    }
    if a.synth_n <= 0:
        sets = {}  # --synth-n 0: no synthetic sets (e.g. only the crowded one)
    if a.only_variants:
        sets = {}
        a.crowd_n = 0
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = a.keep or tmp_dir
        if (a.variants or a.only_variants) and (Path(a.dataset) / "labels.json").is_file():
            for name in variants.VARIANTS:
                ds = Path(tmp) / f"var-{name}"
                if not (ds / "labels.json").is_file():
                    variants.write_variant(Path(a.dataset), ds, name)
                fig = evaluate(ds, "test", cfg)[0]
                fig["dataset"] = f"dice-dev test as {name}"
                results.append(fig)
        for k, (name, (n, params)) in enumerate(sets.items()):
            ds = Path(tmp) / f"{name}-{a.seed + 100 * k}-{n}"
            if not (ds / "labels.json").is_file():
                synth_dice.write_dataset(ds, n, seed=a.seed + 100 * k, params=params)
            fig = evaluate(ds, "test", cfg)[0]
            fig["dataset"] = f"synthetic {name} seed={a.seed + 100 * k}"
            results.append(fig)
        if a.synth_n > 0 and not a.only_variants:  # a hand reaching over the dice (never in sets above: their seeds are unchanged)
            n, hseed = max(10, a.synth_n // 2), a.seed + 300
            ds = Path(tmp) / f"hand-{hseed}-{n}"
            if not (ds / "labels.json").is_file():
                synth_dice.write_dataset(ds, n, seed=hseed, params=synth_dice.SceneParams(hand_prob=1.0))
            fig = evaluate_hands(ds, cfg)
            fig["dataset"] = f"synthetic hand seed={hseed}"
            results.append(fig)
        if a.d3_n > 0 and not a.only_variants:  # side faces, printed art, small dice, negatives
            ds = Path(tmp) / f"d3-{a.seed + 2000}-{a.d3_n}"
            if not (ds / "labels.json").is_file():
                synth_dice3d.write_dataset3d(ds, a.d3_n, seed=a.seed + 2000)
            fig = evaluate_hands(ds, cfg)
            fig["dataset"] = f"synthetic 3-D seed={a.seed + 2000}"
            results.append(fig)
        if a.crowd_n > 0:
            ds = Path(tmp) / f"crowded-{a.seed + 1000}-{a.crowd_n}"
            if not (ds / "labels.json").is_file():
                synth_crowd.write_crowd_dataset(ds, a.crowd_n, seed=a.seed + 1000)
            fig = evaluate_crowd(ds, cfg)
            fig["dataset"] = f"synthetic crowded seed={a.seed + 1000}"
            results.append(fig)
    for fig in results:
        print(json.dumps(fig)) if a.json else show(fig)
    if not a.json:
        print()
        for row in table(results):
            print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
