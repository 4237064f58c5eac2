"""The synthetic scenes scripts/train_dice.py trains on (``vision.synth.dice`` photos of dice
and ``vision.synth.crowd`` crowded tables), made in this process or shared out among several
(``procs``). The reader never imports this."""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.synth import crowd as synth_crowd
from vision.synth import dice as synth_dice
from vision.synth import dice3d as synth_dice3d

Scene = tuple[np.ndarray, list[dict]]


def make_synth(n: int, seed: int, close: float = 0.15, hue_pips: float = 0.0, procs: int = 0) -> list[Scene]:
    """``n`` photos of dice on tables, a share ``close`` of them from a close camera."""
    if procs:
        return pooled(_synth_part, [(seed, k, m, close, hue_pips) for k, m in parts(n)], procs)
    return _synth_scenes(n, np.random.default_rng(seed), close, hue_pips)


def _synth_scenes(n: int, rng: np.random.Generator, close: float, hue_pips: float) -> list[Scene]:
    out = []
    for _ in range(n):
        r = rng.random()
        w, h = (640, 640) if r < 0.5 else ((800, 600) if r < 0.75 else (480, 640))
        p = synth_dice.SceneParams(width=w, height=h, hue_pips=hue_pips)
        if rng.random() < close:  # a close camera: few big dice
            p = replace(p, n_dice=(1, 4), die_px=(80.0, 220.0))
        img, lab = synth_dice.render_scene(rng, p)
        out.append((img, lab["dice"]))
    return out


def warp_photo(img: np.ndarray, dice: list[dict], rng: np.random.Generator, most: float = 0.2) -> Scene:
    """The photo as a camera tilted or turned another way would see it: each corner moved inward
    by up to ``most`` of the side, on its own (a random homography: a keystone to any side, a
    shear, a squash), and each die's box the box around its moved corners."""
    h, w = img.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + rng.uniform(0, most, (4, 2)).astype(np.float32) * np.float32([[w, h], [-w, h], [-w, -h], [w, -h]])
    m = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    moved = []
    for d in dice:
        x1, y1, x2, y2 = d["box"]
        pts = cv2.perspectiveTransform(np.float32([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]]]), m)[0]
        moved.append({**d, "box": [float(pts[:, 0].min()), float(pts[:, 1].min()),
                                   float(pts[:, 0].max()), float(pts[:, 1].max())]})
    return out, moved


def make_crowds(n: int, seed: int, procs: int = 0) -> list[Scene]:
    """Crowded tables (``vision.synth.crowd``: 20-40 dice packed together, some hiding part of
    another), so both models see touching dice and neighbours' pips at a crop's edge. The
    seeds (50000 + seed) are far from the bench's (1007, 3007)."""
    if procs:
        return pooled(_crowd_part, [(50_000 + seed, k, m) for k, m in parts(n)], procs)
    return _crowd_scenes(n, np.random.default_rng(50_000 + seed))


def _crowd_scenes(n: int, rng: np.random.Generator) -> list[Scene]:
    out = []
    for _ in range(n):
        img, lab = synth_crowd.render_crowd(rng)
        out.append((img, lab["dice"]))
    return out


# --synth3d-looks: the odds of the 3-D scenes' dice (``vision.synth.dice3d.Params3D``); "hard" is
# what the classifier is unsure of on the real sets (issue 29's fourteenth round): marbled,
# translucent and spot-lit dice, mostly 24-110 px (felt trays, a lamp), so fewer, bigger dice
LOOKS: dict[str, dict[str, Any]] = {
    "any": {},
    "hard": {"marbled_prob": 0.5, "translucent_prob": 0.35, "spot_prob": 0.35, "die_px": (24.0, 110.0),
             "n_dice": (1, 14)},
}


def make_synth3d(n: int, seed: int, procs: int = 0, cache: str | Path | None = None, looks: str = "any"
                 ) -> list[Scene]:
    """Dice ray-cast in 3-D (``vision.synth.dice3d``: side faces, busy printed art, small dice,
    marbled and translucent bodies, negatives), their odds ``LOOKS[looks]``. Seeds 70000 + seed
    ("any") or 80000 + seed (other looks), far from the bench's. With
    ``cache`` (a .pkl file) the scenes are read from it when it holds ``n`` scenes of this seed,
    else made and written there (JPEG bytes: several runs on one machine share one rendering)."""
    cache = Path(cache) if cache else None
    if cache is not None and cache.is_file():
        with cache.open("rb") as f:
            key, packed = pickle.load(f)
        if key == ((n, seed) if looks == "any" else (n, seed, looks)):
            return [(cv2.imdecode(np.frombuffer(b, np.uint8), cv2.IMREAD_COLOR), d) for b, d in packed]
    if looks not in LOOKS:
        raise SystemExit(f"--synth3d-looks {looks}: not one of {', '.join(LOOKS)}")
    base = 70_000 if looks == "any" else 80_000
    if procs:
        scenes = pooled(_synth3d_part, [(base + seed, k, m, looks) for k, m in parts(n)], procs)
    else:
        scenes = _synth3d_scenes(n, np.random.default_rng(base + seed), looks)
    if cache is not None:
        packed = [(cv2.imencode(".png", img)[1].tobytes(), d) for img, d in scenes]
        tmp = cache.with_suffix(".tmp")
        with tmp.open("wb") as f:
            pickle.dump(((n, seed) if looks == "any" else (n, seed, looks), packed), f)
        tmp.replace(cache)
    return scenes


def _synth3d_scenes(n: int, rng: np.random.Generator, looks: str = "any") -> list[Scene]:
    out = []
    for _ in range(n):
        r = rng.random()
        w, h = (640, 640) if r < 0.5 else ((640, 480) if r < 0.75 else (480, 640))
        img, lab = synth_dice3d.render_scene3d(rng, synth_dice3d.Params3D(width=w, height=h, **LOOKS[looks]))
        out.append((img, lab["dice"]))
    return out


def _synth3d_part(job: tuple) -> list:
    seed, k, m, looks = job
    return _synth3d_scenes(m, _part_rng(seed, k), looks)


# procs > 0: the scenes are made in parts of PART, part k from seed's k-th spawned generator, so
# the data is the same for any number of processes (but not what procs=0 draws from one generator)
PART = 50


def parts(n: int) -> list[tuple[int, int]]:
    return [(k, min(PART, n - k * PART)) for k in range((n + PART - 1) // PART)]


def _part_rng(seed: int, k: int) -> np.random.Generator:
    """What ``SeedSequence(seed).spawn(k + 1)[k]`` gives: a stream of its own for each part."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k,)))


def _synth_part(job: tuple) -> list:
    seed, k, m, close, hue_pips = job
    return _synth_scenes(m, _part_rng(seed, k), close, hue_pips)


def _crowd_part(job: tuple) -> list:
    seed, k, m = job
    return _crowd_scenes(m, _part_rng(seed, k))


def pooled(fn: Callable[[Any], list], jobs: list, procs: int) -> list:
    """``fn`` over ``jobs`` in ``procs`` forked processes, the results joined in the jobs' order
    (the processes see the caller's memory as it was: fork, not spawn)."""
    with multiprocessing.get_context("fork").Pool(procs) as pool:
        return [x for part in pool.map(fn, jobs, chunksize=1) for x in part]
