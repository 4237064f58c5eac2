"""Bench telling a game's dice apart by colour: the real reader on rendered throws.

    .venv/bin/python bench/dicecolour.py [--scenes 150] [--seed 3] [--cast 0.12]

Renders throws of a game's own dice (Chop! Chop!: a blue cat die and a grey mouse die; Kilkenny
Cats: red, blue, green and yellow dice), each die's colour jittered a little (dice differ, and
so do prints), under a random colour cast of the room's light (white balance off by up to
``--cast`` per channel: what a camera's automatic white balance leaves of a warm lamp or cool
daylight) and the renderer's own uneven light, blur, noise and JPEG. Each scene is read by
``vision.dice.read_dice``; then, for every die of the game, ``companion.dicecolour.pick`` is
asked which of the dice read is that die (what the camera does when several dice moved), and
for every die read ``looks_like`` is asked whose die it is (the "that looks like the blue die"
warning). Printed per game: right, can't tell, wrong. Then, on the bench's mixed synthetic
set (``bench/dice.py``'s, any dice colours), how often the reader's colour name of a die found
is the rendered one.
"""

from __future__ import annotations

import argparse
import colorsys
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion import dicecolour  # noqa: E402
from vision.synth import dice as synth_dice  # noqa: E402
from vision.cli import boxes_match  # noqa: E402
from vision.dice import read_dice  # noqa: E402

GAMES: dict[str, dict[str, tuple[float, float, float]]] = {  # colour name -> typical body, HSV 0..1
    "chopchop": {"blue": (0.60, 0.75, 0.70), "grey": (0.0, 0.0, 0.62)},
    "kilkenny": {"red": (0.99, 0.80, 0.75), "blue": (0.60, 0.80, 0.65),
                 "green": (0.36, 0.70, 0.55), "yellow": (0.14, 0.80, 0.90)},
}


def body_bgr(hsv: tuple[float, float, float], rng: np.random.Generator) -> tuple[float, float, float]:
    h, s, v = hsv
    h = (h + rng.uniform(-0.025, 0.025)) % 1.0
    s = float(np.clip(s * rng.uniform(0.8, 1.15), 0, 1))
    v = float(np.clip(v * rng.uniform(0.8, 1.15), 0, 1))
    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return (b * 255, g * 255, r * 255)


def run(game: str, scenes: int, seed: int, cast_range: float) -> dict[str, int]:
    rng = np.random.default_rng(seed)
    colours = list(GAMES[game])
    tally = {k: 0 for k in ("pick_right", "pick_unsure", "pick_wrong", "missed",
                            "look_right", "look_unsure", "look_wrong")}
    for _ in range(scenes):
        bodies = tuple(body_bgr(GAMES[game][c], rng) for c in colours)
        params = synth_dice.SceneParams(bodies=bodies, die_px=(28.0, 70.0), translucent_prob=0.0)
        img, lab = synth_dice.render_scene(rng, params)
        cast = rng.uniform(1 - cast_range, 1 + cast_range, 3).astype(np.float32)
        img = np.clip(img.astype(np.float32) * cast, 0, 255).astype(np.uint8)
        read = read_dice(img)
        owner: list[str | None] = []  # whose die each reading is (by the rendered labels)
        for r in read:
            hit = [k for k, d in enumerate(lab["dice"]) if boxes_match(list(r.box), d["box"])]
            owner.append(colours[lab["dice"][hit[0]]["die"]] if hit else None)
        for colour in (colours[d["die"]] for d in lab["dice"]):
            if colour not in owner:
                tally["missed"] += 1
                continue
            i = dicecolour.pick([r.body for r in read], colour, colours)
            tally["pick_unsure" if i is None else ("pick_right" if owner[i] == colour else "pick_wrong")] += 1
        for r, who in zip(read, owner):
            if who is None:
                continue
            seen = dicecolour.looks_like(r.body, colours)
            tally["look_unsure" if seen is None else ("look_right" if seen == who else "look_wrong")] += 1
    return tally


def colour_names(scenes: int, seed: int) -> tuple[int, int]:
    """(dice found whose colour name is the rendered one, dice found) on mixed scenes."""
    rng = np.random.default_rng(seed)
    right = found = 0
    for _ in range(scenes):
        img, lab = synth_dice.render_scene(rng, synth_dice.SceneParams())
        read = read_dice(img)
        for d in lab["dice"]:
            hit = [r for r in read if boxes_match(list(r.box), d["box"])]
            if hit:
                found += 1
                right += hit[0].colour == d["colour"]
    return right, found


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=150)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--cast", type=float, default=0.12, help="white balance off by up to this per channel")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    print("| game | dice asked for | picked right | can't tell | picked wrong | dice read alone: right | can't tell | wrong |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for game in GAMES:
        t = run(game, a.scenes, a.seed, a.cast)
        asked = t["pick_right"] + t["pick_unsure"] + t["pick_wrong"]
        looked = t["look_right"] + t["look_unsure"] + t["look_wrong"]
        print(f"| {game} | {asked} | {t['pick_right'] / asked:.3f} | {t['pick_unsure'] / asked:.3f} "
              f"| {t['pick_wrong'] / asked:.3f} | {t['look_right'] / looked:.3f} | {t['look_unsure'] / looked:.3f} "
              f"| {t['look_wrong'] / looked:.3f} |  (not found by the reader: {t['missed']})")
    right, found = colour_names(100, 7)
    print(f"\ncolour names, 100 mixed synthetic scenes (seed 7): {right} of {found} dice found right ({right / found:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
