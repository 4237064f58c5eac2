"""The world around the board in the third 3-D scene family (``vision.synth.scene_c``): the print
(a black-and-white laser print or a faded inkjet), the paper (folded in quarters and tented
along its creases, or laminated flat), the table (real textures cut from the dice photo sets'
train splits, or a glossy oilcloth), things beside the board (a drinking glass, a stray die,
the camera stand), what casts a shadow from above (a head), and a child's hand in a striped
sleeve (training and evaluation only; never imported by the reader).

Colours are linear light (BGR 0..1), as ``scene_c`` shades.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.boards import Board
from vision.printing import render_board
from vision.synth.raster3d import Mesh, box, ellipsoid, join, mesh, moved, polygon, revolve, tagged

PRINT_PX_PER_MM = 4.0
TABLE_PX = 1800
TABLE_ORIGIN_MM = 700.0
"""The table texture's pixel (0, 0) lies at world (-700, -700) mm; 1 px per mm."""
HAND, OBJECT = 3000, 3001
PHOTO_SETS = ("epanemu-dice", "rune55-trays")
"""Dice photo sets whose train pictures lend table textures (CC BY 4.0: see their LICENSE files;
the textures live only in rendered scenes, never in the repository)."""


def datasets_dir() -> Path:
    """The dice photo sets: ``COMPANION_DATASETS``, else ``../shared/datasets`` beside the
    checkout (or beside its parent: a worktree's)."""
    import os

    if os.environ.get("COMPANION_DATASETS"):
        return Path(os.environ["COMPANION_DATASETS"])
    root = Path(__file__).resolve().parents[2]
    for base in (root.parent, root.parent.parent):
        if (base / "shared" / "datasets").is_dir():
            return base / "shared" / "datasets"
    return root.parent / "shared" / "datasets"


def lin(srgb: np.ndarray) -> np.ndarray:
    return np.clip(np.asarray(srgb, np.float32), 0, 1) ** 2.2


def _noise(rng: np.random.Generator, h: int, w: int, cell: float) -> np.ndarray:
    small = rng.random((max(2, int(h / cell)), max(2, int(w / cell)))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


# --------------------------------------------------------------------------------------------
# the print and the paper


def print_c(board: Board, rng: np.random.Generator, kind: str) -> np.ndarray:
    """The board (linear BGR at PRINT_PX_PER_MM) as printed: ``"laser"`` black toner only
    (grey levels from the luminance, toner grain in the greys, sometimes a pale streak where
    the drum ran low) or ``"faded"`` (an inkjet with one ink running out, colours washed out,
    a thin white line every few mm where nozzles are clogged)."""
    art = render_board(board, PRINT_PX_PER_MM).astype(np.float32) / 255
    h, w = art.shape[:2]
    paper = np.array([rng.uniform(0.93, 1.0), rng.uniform(0.94, 1.0), rng.uniform(0.93, 0.99)], np.float32)
    if kind == "laser":
        lum = art @ np.array([0.114, 0.587, 0.299], np.float32)
        cover = np.clip(1 - lum, 0, 1) ** float(rng.uniform(0.8, 1.25))  # toner cover
        grain = 1 + 0.35 * (rng.random((h, w)).astype(np.float32) - 0.5) * (4 * cover * (1 - cover))
        cover = np.clip(cover * grain, 0, 1)
        if rng.random() < 0.5:  # the drum runs low along one band of the page
            x0 = float(rng.uniform(0, w))
            band = np.exp(-((np.arange(w, dtype=np.float32) - x0) / float(rng.uniform(20, 80))) ** 2)
            cover = cover * (1 - float(rng.uniform(0.15, 0.4)) * band[None, :])
        black = float(rng.uniform(0.06, 0.14))
        img = paper[None, None, :] * (1 - cover[..., None] * (1 - black))
    else:
        ink = 1 - art  # per channel: what the inks take away
        ink *= np.array(rng.uniform(0.55, 0.85, 3), np.float32)  # washed out
        low = int(rng.integers(0, 3))
        ink[..., low] *= float(rng.uniform(0.3, 0.7))  # one cartridge running out
        period = float(rng.uniform(4, 12)) * PRINT_PX_PER_MM
        rows = (np.mod(np.arange(h, dtype=np.float32) + float(rng.uniform(0, period)), period) < 1.2).astype(np.float32)
        ink *= (1 - 0.5 * rows)[:, None, None]
        img = paper[None, None, :] * (1 - np.clip(ink, 0, 1))
    mottle = 1 + 0.02 * (_noise(rng, h, w, 8) - 0.5)
    return lin(img * mottle[..., None])


@dataclass(frozen=True)
class Paper:
    """The paper's shape: folded in quarters (a crease across each middle, the paper tented up
    along one and down along the other), or laminated (flat, a clear plastic border round it)."""
    ridge: float
    """mm the crease along x = width/2 stands up (negative: a valley)."""
    valley: float
    """mm the edges rise along y away from the crease at y = height/2."""
    width: float
    height: float
    laminated: bool
    border: float
    """mm of laminate past the paper's edges."""

    def z(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        x = np.asarray(x, np.float64)
        y = np.asarray(y, np.float64)
        if self.laminated:
            return np.zeros(np.broadcast(x, y).shape)
        u = np.clip(1 - np.abs(x - self.width / 2) / (self.width / 2), 0, 1)
        v = np.clip(np.abs(y - self.height / 2) / (self.height / 2), 0, 1)
        return np.maximum(self.ridge * u + self.valley * v - min(0.0, self.ridge), 0.0)

    def normal(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        e = 0.3
        gx = (self.z(x + e, y) - self.z(x - e, y)) / (2 * e)
        gy = (self.z(x, y + e) - self.z(x, y - e)) / (2 * e)
        n = np.stack([-gx, -gy, np.ones_like(gx)], axis=-1)
        return n / np.linalg.norm(n, axis=-1, keepdims=True)


def make_paper(board: Board, rng: np.random.Generator, laminated: bool) -> Paper:
    if laminated:
        return Paper(0.0, 0.0, board.width_mm, board.height_mm, True, float(rng.uniform(3, 6)))
    return Paper(float(rng.uniform(-2.0, 4.0)), float(rng.uniform(0.0, 3.0)), board.width_mm, board.height_mm,
                 False, 0.0)


def creases(print_img: np.ndarray, rng: np.random.Generator, laser: bool) -> np.ndarray:
    """The fold lines on the print: a laser print's toner cracks white along them, an inkjet
    shows a faint grey line of broken fibres."""
    h, w = print_img.shape[:2]
    out = print_img.copy()
    for vertical in (True, False):
        n = w if vertical else h
        at = n // 2 + int(rng.integers(-3, 4))
        m = h if vertical else w
        broken = (_noise(rng, 1, m, 3)[0] > 0.35).astype(np.float32)
        for d in (-1, 0, 1):
            line = out[:, at + d] if vertical else out[at + d, :]
            if laser:
                line[:] = line + (np.float32(0.85) - line) * (broken * (0.8 if d == 0 else 0.35))[:, None]
            else:
                line[:] = line * (1 - 0.12 * (1 if d == 0 else 0.4))
    return out


# --------------------------------------------------------------------------------------------
# the table


def _free_crop(img: np.ndarray, boxes: list[list[float]], want: int) -> np.ndarray | None:
    """The largest square of ``img`` with no labelled die in it, if its side is at least ``want``."""
    free = np.ones(img.shape[:2], np.uint8)
    for x1, y1, x2, y2 in boxes:
        cv2.rectangle(free, (int(x1) - 12, int(y1) - 12), (int(x2) + 12, int(y2) + 12), 0, -1)
    free[:4, :] = free[-4:, :] = 0
    free[:, :4] = free[:, -4:] = 0
    dist = cv2.distanceTransform(free, cv2.DIST_C, 3)
    r = int(dist.max())
    if 2 * r < want:
        return None
    y, x = np.unravel_index(int(np.argmax(dist)), dist.shape)
    return img[y - r + 1:y + r, x - r + 1:x + r]


def photo_texture(rng: np.random.Generator) -> tuple[np.ndarray, str] | None:
    """A table texture from a dice photo's train picture: a die-free square crop, mirrored
    and tiled over the table, 1.0-1.8 mm a photo pixel (None when no photo set is there)."""
    root = datasets_dir()
    sets = [s for s in PHOTO_SETS if (root / s / "labels.json").is_file()]
    if not sets:
        return None
    name = sets[int(rng.integers(0, len(sets)))]
    images = [im for im in json.loads((root / name / "labels.json").read_text())["images"] if im["split"] == "train"]
    for _ in range(12):
        im = images[int(rng.integers(0, len(images)))]
        img = cv2.imread(str(root / name / im["file"]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        crop = _free_crop(img, [d["box"] for d in im["dice"]], 140)
        if crop is None:
            continue
        mm = float(rng.uniform(1.0, 1.8))
        side = max(8, int(round(crop.shape[0] * mm)))
        tile = cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        tile = np.vstack([np.hstack([tile, tile[:, ::-1]]), np.hstack([tile[::-1], tile[::-1, ::-1]])])
        reps = TABLE_PX // tile.shape[0] + 1
        tex = np.tile(tile, (reps, reps, 1))[:TABLE_PX, :TABLE_PX]
        lo = tex.reshape(-1, 3).mean(axis=0)  # flatten the photo's own light a little
        small = cv2.resize(tex.mean(axis=2), (TABLE_PX // 8, TABLE_PX // 8), interpolation=cv2.INTER_AREA)
        shade = cv2.resize(cv2.GaussianBlur(small, (0, 0), 5), (TABLE_PX, TABLE_PX))[..., None]
        tex = tex * (0.6 + 0.4 * float(lo.mean()) / np.maximum(shade, 1e-3))
        return lin(np.clip(tex, 0, 1)), f"photo:{name}/{im['file']}"
    return None


def oilcloth(rng: np.random.Generator) -> np.ndarray:
    """A wipe-clean oilcloth: big checks in two colours, a lemon-and-leaf print on them."""
    n = TABLE_PX
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    cell = float(rng.uniform(30, 70))
    a = float(rng.uniform(0, math.pi / 2))
    u, v = xx * math.cos(a) + yy * math.sin(a), -xx * math.sin(a) + yy * math.cos(a)
    check = ((np.floor(u / cell) + np.floor(v / cell)) % 2).astype(np.float32)
    c1 = rng.uniform(0.75, 0.95, 3).astype(np.float32)
    c2 = np.array(rng.uniform(0.1, 0.7, 3), np.float32)
    tex = c1 * (1 - check[..., None]) + c2 * check[..., None]
    mask = np.zeros((n, n), np.float32)
    leaf = np.zeros((n, n), np.float32)
    step = int(cell * 1.5)
    for y0 in range(0, n, step):
        for x0 in range(0, n, step):
            if rng.random() < 0.6:
                cx, cy = x0 + int(rng.integers(0, step)), y0 + int(rng.integers(0, step))
                cv2.ellipse(mask, (cx, cy), (int(cell * 0.3), int(cell * 0.22)), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
                cv2.ellipse(leaf, (cx + int(cell * 0.3), cy - int(cell * 0.15)), (int(cell * 0.2), int(cell * 0.08)),
                            float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    tex = tex * (1 - mask[..., None]) + np.array([0.2, 0.85, 0.95], np.float32) * mask[..., None]
    tex = tex * (1 - leaf[..., None]) + np.array([0.2, 0.55, 0.2], np.float32) * leaf[..., None]
    return lin(np.clip(tex, 0, 1))


def table_c(rng: np.random.Generator) -> tuple[np.ndarray, str]:
    """(linear BGR table texture, its kind): a photographed surface two times in three, else an oilcloth."""
    if rng.random() < 0.65:
        got = photo_texture(rng)
        if got is not None:
            return got
    return oilcloth(rng), "oilcloth"


# --------------------------------------------------------------------------------------------
# things, casters, a child's hand


def _beside(board: Board, rng: np.random.Generator, gap: float) -> tuple[float, float]:
    edge = int(rng.integers(0, 4))
    t = float(rng.uniform(0.15, 0.85))
    bw, bh = board.width_mm, board.height_mm
    return [(bw * t, -gap), (bw + gap, bh * t), (bw * t, bh + gap), (-gap, bh * t)][edge]


def die_mesh(side: float) -> Mesh:
    """A white die with black pips (1 on top, 2 and 3 on two sides)."""
    hs = side / 2
    parts = [box(hs, hs, 0.0, side, (235, 235, 232), 0.3)]
    a = np.linspace(0, 2 * math.pi, 10, endpoint=False)
    pip = np.column_stack([np.cos(a), np.sin(a)]) * side * 0.09
    parts.append(polygon(pip, side + 0.05, (20, 20, 20), 0.2))
    for dx, dz in ((-0.25, 0.75), (0.25, 0.25)):
        v = np.column_stack([pip[:, 0] + dx * side, np.full(10, -hs - 0.05), pip[:, 1] + dz * side])
        parts.append(mesh(v, np.array([(0, i, i + 1) for i in range(1, 9)]), (20, 20, 20), smooth=False, gloss=0.2))
    return join(parts)


def things_c(board: Board, rng: np.random.Generator) -> tuple[list[Mesh], list[str]]:
    """A drinking glass and/or a stray die beside the board (each with its material)."""
    out: list[Mesh] = []
    mats: list[str] = []
    if rng.random() < 0.5:
        r = float(rng.uniform(30, 40))
        x, y = _beside(board, rng, r + float(rng.uniform(4, 30)))
        glass = revolve([(r * 0.85, 0), (r * 0.88, 4), (r, 110), (r * 0.97, 110.5)], (235, 240, 235), 28, 0.9, cap=False)
        water = revolve([(r * 0.84, 4), (r * 0.93, 60)], (220, 225, 215), 28, 0.9)
        out.append(tagged(moved(join([glass, water]), 0.0, (x, y, 0)), OBJECT))
        mats.append("acrylic")
    if rng.random() < 0.5:
        x, y = _beside(board, rng, float(rng.uniform(12, 60)))
        out.append(tagged(moved(die_mesh(float(rng.uniform(12, 17))), float(rng.uniform(0, 6.3)), (x, y, 0)), OBJECT))
        mats.append("lacquer")
    return out, mats


def stand_casters(board: Board, cam_pos: np.ndarray, rng: np.random.Generator) -> tuple[list[Mesh], Mesh]:
    """What casts a shadow from above but is not in the picture: the camera on its stand's arm
    (over the board), and the stand's foot and pole beside the board (seen when in the frame)."""
    centre = np.array([board.width_mm / 2, board.height_mm / 2])
    out = cam_pos[:2] - centre
    out = out / max(1e-6, float(np.linalg.norm(out))) if np.linalg.norm(out) > 1 else np.array([0.0, 1.0])
    reach = min(board.width_mm / 2 / max(abs(out[0]), 1e-6), board.height_mm / 2 / max(abs(out[1]), 1e-6))
    foot_xy = centre + out * max(reach + float(rng.uniform(50, 90)), float(np.linalg.norm(cam_pos[:2] - centre)))
    top = cam_pos + [0.0, 0.0, 8.0]
    arm_dir = foot_xy - cam_pos[:2]
    ln = float(np.linalg.norm(arm_dir))
    ang = math.atan2(arm_dir[1], arm_dir[0])
    arm = moved(box(ln / 2, 7, -5, 5, (30, 30, 30), 0.3), ang, (float(cam_pos[0] + arm_dir[0] / 2),
                                                             float(cam_pos[1] + arm_dir[1] / 2), float(top[2])))
    cam_box = moved(box(22, 22, -14, 4, (25, 25, 25), 0.3), ang, (float(cam_pos[0]), float(cam_pos[1]), float(top[2])))
    pole = moved(revolve([(8, 0), (8, float(top[2]))], (40, 40, 42), 12, 0.5), 0.0, (float(foot_xy[0]), float(foot_xy[1]), 6))
    foot = moved(box(45, 30, 0, 5, (30, 30, 32), 0.4), ang, (float(foot_xy[0]), float(foot_xy[1]), 0))
    return [arm, cam_box], tagged(join([pole, foot]), OBJECT)


def head_caster(board: Board, rng: np.random.Generator) -> Mesh:
    """A player's head and shoulders leaning over one edge of the board, 350-600 mm up."""
    x, y = _beside(board, rng, float(rng.uniform(-60, 80)))
    z = float(rng.uniform(350, 600))
    head = moved(ellipsoid(80, 95, 110, (60, 60, 60), 12, 0.0), 0.0, (x, y, z))
    cx, cy = board.width_mm / 2, board.height_mm / 2
    d = np.array([x - cx, y - cy]) / max(1e-6, math.hypot(x - cx, y - cy))
    shoulders = moved(ellipsoid(110, 230, 70, (60, 60, 60), 12, 0.0), math.atan2(d[1], d[0]),
                      (x + d[0] * 140, y + d[1] * 140, z - 170))
    return join([head, shoulders])


def child_hand(board: Board, rng: np.random.Generator, target: tuple[float, float]) -> Mesh:
    """A child's small hand, fingers curled, reaching over ``target`` from a striped sleeve."""
    skin = [(150, 180, 225), (120, 150, 200), (80, 105, 150), (55, 70, 100)][int(rng.integers(0, 4))]
    sk = (float(skin[0]), float(skin[1]), float(skin[2]))
    palm = moved(ellipsoid(32, 27, 11, sk, 16, 0.1), offset=(30, 0, 0))
    parts = [palm]
    for y0, ln in zip((-18, -6, 6, 17), (32, 38, 36, 28)):
        f = moved(ellipsoid(ln / 2 + 2, 6, 6, sk, 10, 0.1), offset=(-ln / 2 + 4, y0, -4))
        parts.append(f)
    parts.append(moved(ellipsoid(16, 7, 6, sk, 10, 0.1), 0.9 if rng.random() < 0.5 else -0.9, (30, 26, -3)))
    fore = moved(ellipsoid(110, 20, 18, sk, 14, 0.1), offset=(160, 0, 10))
    parts.append(fore)
    c1 = tuple(float(v) for v in rng.uniform(30, 230, 3))
    c2 = tuple(float(v) for v in rng.uniform(30, 230, 3))
    for k in range(8):  # a striped sleeve: rings of two colours
        ring = revolve([(27, 0), (29, 14), (28, 28)], c1 if k % 2 else c2, 16, 0.02)  # type: ignore[arg-type]
        ring = Mesh(ring.v[:, [2, 1, 0]] * [1, 1, 1], ring.f, ring.n[:, [2, 1, 0]], ring.colour, ring.obj, ring.gloss)
        parts.append(moved(ring, 0.0, (200 + 28 * k, 0, 12 + 5 * k)))
    ang = float(rng.uniform(-math.pi, math.pi))
    hz = float(rng.uniform(18, 70))
    tx, ty = target
    c, s = math.cos(ang), math.sin(ang)
    return tagged(moved(join(parts), ang, (tx + 12 * c, ty + 12 * s, hz)), HAND)
