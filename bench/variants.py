"""dice-dev's photos as other cameras would take them: a labelled set per variation.

    .venv/bin/python bench/variants.py OUT_DIR [--dataset ../shared/datasets/dice-dev] [--split test]

Real dice, real pips, real tables, with what a different camera or room changes: resolution
(``big``: 2x, ``small``: 0.6x), colour of the light (``warm``, ``cool``), a dim room with sensor
noise and strong JPEG compression (``dim``), a tilted camera (``tilt``: a perspective warp of
about 30 degrees, boxes mapped through it), a camera turned a quarter (``rot``), focus blur
(``blur``) and a frame wider than dice-dev's, the photo set on a wood-like table texture
(``wide``). ``bench/dice.py --variants`` reads these; they never feed training.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]

Box = list[float]
Variant = Callable[[np.ndarray, list[Box], np.random.Generator], tuple[np.ndarray, list[Box]]]


def _scale(f: float) -> Variant:
    def go(img: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> tuple[np.ndarray, list[Box]]:
        interp = cv2.INTER_CUBIC if f > 1 else cv2.INTER_AREA
        out = cv2.resize(img, None, fx=f, fy=f, interpolation=interp)
        return out, [[v * f for v in b] for b in boxes]
    return go


def _light(gains: tuple[float, float, float], gamma: float) -> Variant:
    def go(img: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> tuple[np.ndarray, list[Box]]:
        x = (img.astype(np.float32) / 255.0) ** gamma * np.float32(gains)
        return np.clip(x * 255, 0, 255).astype(np.uint8), boxes
    return go


def dim(img: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> tuple[np.ndarray, list[Box]]:
    """A dim room: underexposed midtones, sensor noise, a phone's strong JPEG compression."""
    x = (img.astype(np.float32) / 255.0) ** 1.3 * 0.8 * 255
    x += rng.normal(0, 5.0, x.shape).astype(np.float32)
    x = np.clip(x, 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", x, [cv2.IMWRITE_JPEG_QUALITY, 45])
    assert ok
    return cv2.imdecode(enc, cv2.IMREAD_COLOR), boxes


def tilt(img: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> tuple[np.ndarray, list[Box]]:
    """The far edge of the table shrinks: a camera tilted about 30 degrees from straight down."""
    h, w = img.shape[:2]
    k = 0.18 * w
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[k, 0], [w - k, 0], [w, h], [0, h]])
    if rng.random() < 0.5:  # the far edge on either side
        dst = np.float32([[0, 0], [w, 0], [w - k, h], [k, h]])
    m = cv2.getPerspectiveTransform(src, dst)
    out = cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    moved = []
    for x1, y1, x2, y2 in boxes:
        pts = cv2.perspectiveTransform(np.float32([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]]]), m)[0]
        moved.append([float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max())])
    return out, moved


def rot(img: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> tuple[np.ndarray, list[Box]]:
    h = img.shape[0]
    out = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)  # (x, y) -> (h - 1 - y, x)
    return out, [[h - 1 - y2, x1, h - 1 - y1, x2] for x1, y1, x2, y2 in boxes]


def blur(img: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> tuple[np.ndarray, list[Box]]:
    return cv2.GaussianBlur(img, (0, 0), 1.4), boxes


def wide(img: np.ndarray, boxes: list[Box], rng: np.random.Generator) -> tuple[np.ndarray, list[Box]]:
    """The photo as the middle of a 1.6x wider view over a wood-grain table."""
    h, w = img.shape[:2]
    W, H = int(w * 1.6), int(h * 1.25)
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
    grain = np.sin(xs / 9.0 + 3 * np.sin(ys / 60.0)) * 0.5 + 0.5
    base = np.float32([40, 85, 140])  # brown, BGR
    wood = base[None, None, :] * (0.75 + 0.35 * grain[..., None])
    wood += rng.normal(0, 6, wood.shape).astype(np.float32)
    out = np.clip(wood, 0, 255).astype(np.uint8)
    ox, oy = (W - w) // 2, (H - h) // 2
    out[oy:oy + h, ox:ox + w] = img
    return out, [[x1 + ox, y1 + oy, x2 + ox, y2 + oy] for x1, y1, x2, y2 in boxes]


VARIANTS: dict[str, Variant] = {
    "big": _scale(2.0),
    "small": _scale(0.6),
    "warm": _light((0.72, 0.95, 1.12), 1.1),
    "cool": _light((1.12, 1.0, 0.8), 0.9),
    "dim": dim,
    "tilt": tilt,
    "rot": rot,
    "blur": blur,
    "wide": wide,
}


def write_variant(dataset: Path, out: Path, name: str, split: str = "test", seed: int = 0) -> Path:
    doc = json.loads((dataset / "labels.json").read_text())
    fn = VARIANTS[name]
    rng = np.random.default_rng(seed)
    (out / "images").mkdir(parents=True, exist_ok=True)
    entries: list[dict[str, Any]] = []
    for e in doc["images"]:
        if e.get("split") != split:
            continue
        img = cv2.imread(str(dataset / e["file"]), cv2.IMREAD_COLOR)
        if img is None:
            raise SystemExit(f"cannot read {dataset / e['file']}")
        new, boxes = fn(img, [d["box"] for d in e["dice"]], rng)
        f = f"images/{Path(e['file']).stem}_{name}.png"
        cv2.imwrite(str(out / f), new)
        entries.append({"file": f, "split": split, "width": new.shape[1], "height": new.shape[0],
                        "dice": [{"value": d["value"], "box": [round(v, 1) for v in b]}
                                 for d, b in zip(e["dice"], boxes)]})
    (out / "labels.json").write_text(json.dumps({"name": f"{doc.get('name', 'dice')}-{name}",
                                                 "source": f"bench/variants.py {name} of {dataset}",
                                                 "images": entries}, indent=1))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--dataset", default=str(ROOT.parent / "shared" / "datasets" / "dice-dev"))
    ap.add_argument("--split", default="test")
    ap.add_argument("--only", nargs="*", default=list(VARIANTS))
    a = ap.parse_args()
    for name in a.only:
        print(write_variant(Path(a.dataset), Path(a.out) / name, name, a.split))
    return 0


if __name__ == "__main__":
    sys.exit(main())
