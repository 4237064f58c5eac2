"""Crowded synthetic dice tables: 20-40 dice touching each other in heaps and rows.

    render_crowd(rng, params=None) -> (image_bgr, labels)      # labels: a datasets entry without "file"
    write_crowd_dataset(dir, n, seed, params=None)               # labels.json + images/ like ../shared/datasets

The dice of ``vision.synth.dice`` (same faces, colours, styles, shadows, light, backgrounds,
blur, noise and JPEG) are packed together: each new die is pushed against one already on the
table until their footprints touch (a gap of 0 to 4 % of a side), so most dice touch two or
more others at any yaw; dice not wholly in the (turned) camera's frame are left off. Seen by a camera tilted up to ``tilt_deg``, a nearer, taller die hides
part of a farther die's top face. A die whose top face would be less than ``min_visible`` in
view is left off the table altogether, so every die drawn is labelled and every label's top
face is mostly in view: the labels match the picture. Deterministic from the generator.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.synth import dice as sd


@dataclass(frozen=True)
class CrowdParams:
    width: int = 640
    height: int = 640
    n_dice: tuple[int, int] = (20, 40)
    die_px: tuple[float, float] = (30.0, 54.0)  # mean top-face side of a scene, pixels
    size_spread: tuple[float, float] = (0.88, 1.15)  # per die, times the scene's mean
    tilt_deg: tuple[float, float] = (0.0, 30.0)
    gap: tuple[float, float] = (0.0, 0.04)  # between touching footprints, fraction of a side
    heaps: tuple[int, int] = (1, 4)  # clusters the dice are pushed into
    min_visible: float = 0.8  # least fraction of a top face in view for a die to stay
    shared_colour_prob: float = 0.3  # all dice of the scene one colour
    blur_sigma: tuple[float, float] = (0.0, 1.0)
    noise_sigma: tuple[float, float] = (0.0, 5.0)
    jpeg_quality: tuple[int, int] = (60, 95)
    styled: bool = True  # False: plain dice (no marbling, glare, dimples), for label checks


_PLAIN_STYLE = {"pip_r": 0.1, "spread": 1.0, "pip_ring": 0.0, "big_one": 0.0, "corner": 0.12, "bevel": 0.2,
                "face_grad": 0.05, "gx": 0.3, "gy": -0.3, "side_dark": 0.6, "spec": 0.0, "marble": 0.0,
                "dimple": 0.0, "pip_gloss": 0.0, "glint_dx": 0.0, "glint_dy": 0.0}


def _footprint(x: float, y: float, size: float, yaw: float) -> np.ndarray:
    s = size / 2
    c, sn = math.cos(yaw), math.sin(yaw)
    base = np.float32([[-s, -s], [s, -s], [s, s], [-s, s]])
    return (base @ np.float32([[c, sn], [-sn, c]]) + np.float32([x, y])).astype(np.float32)


def _overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    area, _ = cv2.intersectConvexConvex(a, b)
    return float(area) > 1e-3


def _pack(rng: np.random.Generator, p: CrowdParams, n: int, sizes: np.ndarray
          ) -> list[tuple[float, float, float, float]]:
    """(x, y, size, yaw) of dice pushed into heaps, footprints touching, none overlapping."""
    w, h = p.width, p.height
    placed: list[tuple[float, float, float, float]] = []
    prints: list[np.ndarray] = []
    n_heaps = int(rng.integers(p.heaps[0], p.heaps[1] + 1))
    for i in range(n):
        s, yaw = float(sizes[i]), float(rng.uniform(0, math.pi / 2))
        margin = 1.5 * s  # a tilted camera moves the top face by up to a side
        room = min(w, h) / 2 - margin  # dice stay in a disc: in view however the camera is turned
        for _attempt in range(40):
            if len(placed) < n_heaps:  # seed a heap anywhere
                r, a = room * math.sqrt(rng.uniform(0, 1)), rng.uniform(0, 2 * math.pi)
                x, y = w / 2 + r * math.cos(a), h / 2 + r * math.sin(a)
                fp = _footprint(x, y, s, yaw)
                if any(_overlaps(fp, q) for q in prints):
                    continue
            else:  # push against a placed die, from a random direction, until it touches
                ax, ay, as_, _ = placed[int(rng.integers(0, len(placed)))]
                ang = rng.uniform(0, 2 * math.pi)
                dx, dy = math.cos(ang), math.sin(ang)
                lo, hi = 0.0, (as_ + s) * 1.5
                if any(_overlaps(_footprint(ax + dx * hi, ay + dy * hi, s, yaw), q) for q in prints):
                    continue  # that side is taken further out too
                for _ in range(14):  # bisect the distance where it stops overlapping
                    mid = (lo + hi) / 2
                    if any(_overlaps(_footprint(ax + dx * mid, ay + dy * mid, s, yaw), q) for q in prints):
                        lo = mid
                    else:
                        hi = mid
                d = hi + s * rng.uniform(*p.gap)
                x, y = ax + dx * d, ay + dy * d
                fp = _footprint(x, y, s, yaw)
                if any(_overlaps(fp, q) for q in prints):
                    continue
            if math.hypot(x - w / 2, y - h / 2) > room:
                continue
            placed.append((x, y, s, yaw))
            prints.append(fp)
            break
    return placed


def _in_frame(pts: np.ndarray, w: int, h: int) -> bool:
    return bool(pts[:, 0].min() >= 1 and pts[:, 1].min() >= 1 and pts[:, 0].max() <= w - 2 and pts[:, 1].max() <= h - 2)


def _order(dice: list[sd.Die]) -> list[int]:
    """Far dice first (higher world y is nearer the camera)."""
    return sorted(range(len(dice)), key=lambda i: dice[i].y)


def _hull(d: sd.Die, cam: sd.Camera) -> np.ndarray:
    pts = cam.project(sd._cube_corners(d))
    return cv2.convexHull(pts).reshape(-1, 2)


def top_face_map(dice: list[sd.Die], cam: sd.Camera, w: int, h: int) -> np.ndarray:
    """int32 map: the index of the die whose top face is seen at each pixel, -1 elsewhere
    (a die's sides hide what they cover, as they are drawn)."""
    ids = np.full((h, w), -1, np.int32)
    for i in _order(dice):
        cv2.fillConvexPoly(ids, np.round(_hull(dice[i], cam)).astype(np.int32), -1)
        top = cam.project(sd._cube_corners(dice[i]))[4:]
        cv2.fillConvexPoly(ids, np.round(top).astype(np.int32), i)
    return ids


def _visible(dice: list[sd.Die], cam: sd.Camera, w: int, h: int) -> np.ndarray:
    ids = top_face_map(dice, cam, w, h)
    seen = np.bincount(ids.ravel() + 1, minlength=len(dice) + 1)[1:]
    full = np.zeros(len(dice))
    for i, d in enumerate(dice):
        m = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(m, np.round(cam.project(sd._cube_corners(d))[4:]).astype(np.int32), 1)
        full[i] = max(1, int(m.sum()))
    return seen / full


def _scene(rng: np.random.Generator, p: CrowdParams) -> tuple[list[sd.Die], sd.Camera]:
    """The dice and the camera; packed again (up to 5 times) while fewer than ``n_dice[0]`` stay."""
    for _try in range(5):
        dice, cam = _scene_once(rng, p)
        if len(dice) >= p.n_dice[0]:
            break
    return dice, cam


def _scene_once(rng: np.random.Generator, p: CrowdParams) -> tuple[list[sd.Die], sd.Camera]:
    w, h = p.width, p.height
    n = int(rng.integers(p.n_dice[0], p.n_dice[1] + 1))
    mean = math.exp(rng.uniform(math.log(p.die_px[0]), math.log(p.die_px[1])))
    sizes = mean * rng.uniform(*p.size_spread, n)
    spots = _pack(rng, p, n, sizes)
    shared = rng.random() < p.shared_colour_prob
    cols = sd.random_die_colours(rng)
    dice = []
    for x, y, s, yaw in spots:
        body, pip = cols if shared else sd.random_die_colours(rng)
        style = sd._die_style(rng) if p.styled else dict(_PLAIN_STYLE)
        dice.append(sd.Die(x, y, s, yaw, int(rng.integers(1, 7)), body, pip, style))
    cam = sd.Camera(float(rng.uniform(*p.tilt_deg)), float(rng.uniform(0, 2 * math.pi)), w / 2, h / 2)
    # the turned camera puts the heaps' far corners out of view: only dice wholly in the frame stay
    dice = [d for d in dice if _in_frame(cam.project(sd._cube_corners(d)), w, h)]
    # leave off the dice whose top face is mostly hidden (the worst first: others then show more)
    while dice:
        vis = _visible(dice, cam, w, h)
        worst = int(np.argmin(vis))
        if vis[worst] >= p.min_visible:
            break
        del dice[worst]
    return dice, cam


def render_crowd_with_map(rng: np.random.Generator, params: CrowdParams | None = None
                          ) -> tuple[np.ndarray, dict[str, Any], np.ndarray]:
    """:func:`render_crowd` plus the :func:`top_face_map` of the scene (label ``k`` is die ``k``)."""
    p = params or CrowdParams()
    w, h = p.width, p.height
    dice, cam = _scene(rng, p)
    img = sd.random_background(rng, h, w)
    light = sd._lighting(rng, h, w)
    shadow = None
    if rng.random() < 0.7:
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.1, 0.4)
        shadow = (r * math.cos(a), r * math.sin(a), float(rng.uniform(0.2, 0.5)))
    tops: dict[int, np.ndarray] = {}
    for i in _order(dice):
        tops[i] = sd.draw_die(img, dice[i], cam, rng, shadow)
    img *= light[..., None]
    finish = sd.SceneParams(width=w, height=h, blur_sigma=p.blur_sigma, noise_sigma=p.noise_sigma,
                            jpeg_quality=p.jpeg_quality)
    out = sd._finish(img, rng, finish)
    labels = []
    for i in range(len(dice)):
        t = tops[i]
        labels.append({"value": dice[i].value,
                       "box": [round(float(t[:, 0].min()), 1), round(float(t[:, 1].min()), 1),
                               round(float(t[:, 0].max()), 1), round(float(t[:, 1].max()), 1)],
                       "colour": sd.colour_name(dice[i].body)})
    return out, {"width": w, "height": h, "dice": labels}, top_face_map(dice, cam, w, h)


def render_crowd(rng: np.random.Generator, params: CrowdParams | None = None
                 ) -> tuple[np.ndarray, dict[str, Any]]:
    """One crowded table -> (BGR uint8 image, {"width", "height", "dice": [{value, box, colour}]})."""
    img, labels, _ids = render_crowd_with_map(rng, params)
    return img, labels


def write_crowd_dataset(out_dir: str | Path, n: int, seed: int = 0, params: CrowdParams | None = None,
                        split: str = "test") -> Path:
    """Write ``n`` crowded tables as a dataset folder (labels.json + images/)."""
    out = Path(out_dir)
    (out / "images").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    entries = []
    for i in range(n):
        img, lab = render_crowd(rng, params)
        f = f"images/crowd_{seed}_{i:05d}.png"
        cv2.imwrite(str(out / f), img)
        entries.append({"file": f, "split": split, **lab})
    doc = {"name": "synth-crowd", "source": f"vision.synth.crowd seed={seed}", "license": "generated",
           "box": "x1,y1,x2,y2 in pixels around the top face of each die; value = pips on the top face",
           "images": entries}
    (out / "labels.json").write_text(json.dumps(doc, indent=1))
    return out
