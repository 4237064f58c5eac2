"""The world around the board in the second 3-D scene family (``vision.synth.scene_b``): the
table, the print as another printer and paper give it, the paper's warp, and things at the
table's edge and a hand (training and evaluation only; never imported by the reader).

Colours here are linear light (BGR 0..1): ``scene_b`` shades in linear light and applies a
camera's tone curve at the end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.boards import Board
from vision.printing import render_board
from vision.synth.pieces_b import beads, rounded_block
from vision.synth.raster3d import Mesh, box, ellipsoid, join, moved, revolve, tagged

TABLE_ORIGIN_MM = 800.0
"""The table texture's pixel (0, 0) lies at world (-800, -800) mm; 1 px per mm."""
TABLE_PX = 2000
PRINT_PX_PER_MM = 4.0
HAND, OBJECT = 2000, 2001
"""Object numbers of a hand and arm, and of a thing on the table (pieces are numbered from 1)."""


def to_linear(srgb: np.ndarray) -> np.ndarray:
    return np.asarray(srgb, np.float32) ** 2.2


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    small = rng.random((max(2, h // cell), max(2, w // cell))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def table_b(rng: np.random.Generator) -> tuple[np.ndarray, str]:
    """A table top (linear BGR, TABLE_PX square, 1 px/mm) and its kind: dark wood, glass over a
    dark floor, a patterned tablecloth (flowers, stripes or dots), or a light laminate."""
    n = TABLE_PX
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    kind = str(rng.choice(["dark wood", "glass", "tablecloth", "laminate"], p=[0.3, 0.2, 0.35, 0.15]))
    lo = _smooth_noise(rng, n, n, 60)
    if kind == "dark wood":  # walnut: dark, fine grain along a turned direction
        a = float(rng.uniform(0, math.pi))
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        warp = 25 * _smooth_noise(rng, n, n, 120)
        grain = 0.5 + 0.5 * np.sin((v + warp) * float(rng.uniform(0.6, 1.4)))
        streak = _smooth_noise(rng, n, n, 8) * 0.5 + 0.5 * cv2.resize(rng.random((n, 6)).astype(np.float32), (n, n))
        base = np.array([rng.uniform(0.05, 0.12), rng.uniform(0.09, 0.18), rng.uniform(0.15, 0.28)], np.float32)
        shade = 0.75 + 0.2 * grain + 0.25 * streak * 0.5 + 0.1 * lo
        tex = base * shade[..., None]
        _ = u
    elif kind == "glass":  # a dark floor seen through glass, a faint green edge
        base = np.array([0.05, 0.07, 0.06], np.float32) * float(rng.uniform(0.6, 1.6))
        tex = base * (0.7 + 0.6 * lo)[..., None]
        tex += np.float32(0.02) * _smooth_noise(rng, n, n, 4)[..., None]
    elif kind == "tablecloth":
        grey = float(rng.uniform(0.3, 0.85))
        bg = (grey + (rng.uniform(0.15, 0.85, 3) - grey) * rng.uniform(0.2, 0.7)).astype(np.float32)
        ink = (rng.uniform(0.02, 0.6, 3) * rng.uniform(0.5, 1.0) + 0.1 * grey).astype(np.float32)
        pattern = str(rng.choice(["flowers", "stripes", "dots"]))
        mask = np.zeros((n, n), np.float32)
        if pattern == "stripes":
            period = float(rng.uniform(12, 40))
            a = float(rng.uniform(0, math.pi))
            mask = (np.mod(xx * math.cos(a) + yy * math.sin(a), period) < period * 0.35).astype(np.float32)
        else:
            step = int(rng.uniform(25, 60))
            for y0 in range(0, n, step):
                for x0 in range(0, n, step):
                    cx = x0 + (step // 2 if (y0 // step) % 2 else 0)
                    if pattern == "dots":
                        cv2.circle(mask, (cx, y0), max(3, step // 6), 1.0, -1)
                    else:
                        r = step // 5
                        for k in range(5):
                            a = k * 2 * math.pi / 5 + float(rng.uniform(0, 0.3))
                            cv2.circle(mask, (int(cx + r * math.cos(a)), int(y0 + r * math.sin(a))), max(2, r // 2 + 1), 1.0, -1)
            mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), 0.8), np.float32)
        weave = 0.94 + 0.06 * np.sin(xx * 2.9) * np.sin(yy * 2.9)
        tex = (bg * (1 - mask[..., None]) + ink * mask[..., None]) * (weave * (0.9 + 0.15 * lo))[..., None]
        tex = to_linear(np.clip(tex, 0, 1))
    else:  # light laminate with a faint speckle
        base = to_linear(rng.uniform(0.6, 0.9, 3).astype(np.float32))
        tex = base * (0.92 + 0.08 * _smooth_noise(rng, n, n, 3) + 0.05 * lo)[..., None]
    return np.clip(tex, 0, 1).astype(np.float32), kind


def print_look(board: Board, rng: np.random.Generator) -> np.ndarray:
    """The printed board (linear BGR at PRINT_PX_PER_MM) as another printer renders it:
    saturation and hue shifted, a tone curve, horizontal banding along the paper feed, cream
    or grey paper, a little ink mottle."""
    art = render_board(board, PRINT_PX_PER_MM)
    hsv = cv2.cvtColor(art, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 0] = np.mod(hsv[..., 0] + float(rng.uniform(-7, 7)), 180)
    hsv[..., 1] = np.clip(hsv[..., 1] * float(rng.uniform(0.7, 1.2)), 0, 255)
    img = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32) / 255
    dens = float(rng.uniform(0.85, 1.25))  # ink density: darker or paler prints
    img = 1 - (1 - img) ** (1 / dens)
    h, w = img.shape[:2]
    period = float(rng.uniform(6, 30)) * PRINT_PX_PER_MM
    band = 1 + float(rng.uniform(0, 0.04)) * np.sin(np.arange(h, dtype=np.float32) * 2 * math.pi / period
                                                    + float(rng.uniform(0, 6)))
    mottle = 1 + 0.025 * (_smooth_noise(rng, h, w, 6) - 0.5)
    paper = np.array([rng.uniform(0.85, 0.96), rng.uniform(0.92, 0.99), rng.uniform(0.95, 1.0)], np.float32)
    ink = 1 - img  # ink only darkens: banding and mottle change the ink, the paper shows through
    img = paper * (1 - np.clip(ink * band[:, None, None] * mottle[..., None], 0, 1))
    return to_linear(np.clip(img, 0, 1))


@dataclass(frozen=True)
class Warp:
    """The paper's shape: z (mm) above the table of a point (x, y) of the print: a gentle bend
    across the board and one edge curling up."""
    bend: float
    bend_axis: float
    curl: float
    curl_edge: int
    curl_len: float
    width: float
    height: float

    def z(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        x = np.asarray(x, np.float64)
        y = np.asarray(y, np.float64)
        u = ((x - self.width / 2) * math.cos(self.bend_axis) + (y - self.height / 2) * math.sin(self.bend_axis))
        half = max(self.width, self.height) / 2
        z = self.bend * (1 - (u / half) ** 2)
        dist = [y, self.width - x, self.height - y, x][self.curl_edge]
        z = z + self.curl * np.exp(-np.clip(dist, 0, None) / self.curl_len)
        return np.maximum(z, 0.0)

    def normal(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        e = 0.5
        gx = (self.z(x + e, y) - self.z(x - e, y)) / (2 * e)
        gy = (self.z(x, y + e) - self.z(x, y - e)) / (2 * e)
        n = np.stack([-gx, -gy, np.ones_like(gx)], axis=-1)
        return n / np.linalg.norm(n, axis=-1, keepdims=True)


def make_warp(board: Board, rng: np.random.Generator) -> Warp:
    flat = rng.random() < 0.25
    return Warp(0.0 if flat else float(rng.uniform(-2.0, 3.0)), float(rng.uniform(0, math.pi)),
                0.0 if flat else float(rng.uniform(0, 4.0)), int(rng.integers(0, 4)), float(rng.uniform(8, 25)),
                board.width_mm, board.height_mm)


# --------------------------------------------------------------------------------------------
# things by the board and a hand


def _edge_spot(board: Board, rng: np.random.Generator, gap: float) -> tuple[float, float]:
    """A point ``gap`` mm outside a random edge of the board."""
    edge = int(rng.integers(0, 4))
    bw, bh = board.width_mm, board.height_mm
    t = float(rng.uniform(0.1, 0.9))
    return [(bw * t, -gap), (bw + gap, bh * t), (bw * t, bh + gap), (-gap, bh * t)][edge]


def table_things(board: Board, rng: np.random.Generator) -> list[Mesh]:
    """A cup, a fan of cards or a phone beside the board (0-2 of them), casting shadows onto it."""
    out: list[Mesh] = []
    for _ in range(int(rng.choice([0, 1, 1, 2]))):
        kind = str(rng.choice(["cup", "cards", "phone"]))
        if kind == "cup":
            r = float(rng.uniform(38, 48))
            x, y = _edge_spot(board, rng, r + float(rng.uniform(5, 40)))
            grey = float(rng.uniform(40, 230))
            col = tuple(float(v) for v in grey + (rng.uniform(30, 230, 3) - grey) * rng.uniform(0, 0.6))
            body = revolve([(r * 0.8, 0), (r, 8), (r * 1.05, 95), (r * 0.97, 97)], col, 28, 0.5, cap=False)  # type: ignore[arg-type]
            drink = tuple(float(v) for v in rng.choice([(20, 35, 60), (30, 60, 110), (200, 215, 225)]))
            inside = revolve([(r * 0.97, 97), (r * 0.93, 80)], (200, 200, 200), 28, 0.3)  # the rim's inside
            body = join([body, inside, moved(revolve([(r * 0.93, 0), (r * 0.93, 0.1)], drink, 28, 0.6), offset=(0, 0, 80))])  # type: ignore[arg-type]
            handle = beads([(r + 12 * math.sin(t), 0, 30 + 45 * t) for t in np.linspace(0.1, 0.9, 8)], 6, col, 0.5)  # type: ignore[arg-type]
            out.append(moved(join([body, handle]), float(rng.uniform(0, 6.3)), (x, y, 0)))
        elif kind == "cards":
            x, y = _edge_spot(board, rng, float(rng.uniform(40, 70)))
            back = tuple(float(v) for v in rng.uniform(20, 200, 3))
            turn = float(rng.uniform(0, 6.3))
            cards = [moved(rounded_block(31, 44, 0.4, 2.5, back, 0.2, 1), turn + float(rng.normal(0, 0.06)),  # type: ignore[arg-type]
                           (x + float(rng.normal(0, 1.5)), y + float(rng.normal(0, 1.5)), 0.4 * k))
                     for k in range(int(rng.integers(3, 12)))]
            out.append(join(cards))
        else:
            x, y = _edge_spot(board, rng, float(rng.uniform(45, 80)))
            phone = rounded_block(37, 75, 8, 3, (25, 25, 28), 0.9, 2)
            screen = box(33, 70, 8, 8.05, (12, 10, 10), 0.95)
            out.append(moved(join([phone, screen]), float(rng.uniform(0, 6.3)), (x, y, 0)))
    return [tagged(m, OBJECT) for m in out]


def _pitched(m: Mesh, pitch: float) -> Mesh:
    """The mesh turned about y (its +x end rising by ``pitch`` radians)."""
    c, s = math.cos(pitch), math.sin(pitch)
    rot = np.array([[c, 0, -s], [0, 1, 0], [s, 0, c]])
    return Mesh(m.v @ rot.T, m.f, m.n @ rot.T, m.colour, m.obj, m.gloss)


def hand_b(board: Board, rng: np.random.Generator, target: tuple[float, float]) -> Mesh:
    """A bare forearm and an open hand, its fingertips reaching over ``target`` (mm)."""
    ang = float(rng.uniform(-math.pi, math.pi))
    skin = tuple(float(v) for v in [(140, 170, 215), (110, 140, 190), (70, 95, 140), (45, 60, 90)][int(rng.integers(0, 4))])
    tx, ty = target
    hz = float(rng.uniform(30, 110))
    palm = moved(ellipsoid(50, 42, 14, skin, 18, 0.15), offset=(48, 0, 0))  # type: ignore[arg-type]
    parts = [palm]
    curl = float(rng.uniform(-0.5, -0.1))  # fingers bent down towards the board
    for y0, spread, ln in zip((-28, -9, 9, 27), (-0.1, -0.03, 0.03, 0.1), (52, 62, 60, 48)):
        finger = _pitched(moved(ellipsoid(ln / 2 + 4, 9, 8, skin, 12, 0.15), offset=(-ln / 2, 0, 0)), curl)  # type: ignore[arg-type]
        parts.append(moved(finger, spread, (8, y0, 0)))
    thumb = _pitched(moved(ellipsoid(24, 10, 9, skin, 12, 0.15), offset=(-22, 0, 0)), curl / 2)  # type: ignore[arg-type]
    parts.append(moved(thumb, -0.8 if rng.random() < 0.5 else 0.8, (45, 40 if rng.random() < 0.5 else -40, -2)))
    length = float(rng.uniform(260, 360))
    rise = float(rng.uniform(0.15, 0.55))
    fore = _pitched(moved(ellipsoid(length / 2, 30, 26, skin, 20, 0.15), offset=(length / 2, 0, 0)), rise)  # type: ignore[arg-type]
    parts.append(moved(fore, 0.0, (80, 0, 4)))
    sleeve = tuple(float(v) for v in rng.uniform(20, 220, 3))
    if rng.random() < 0.6:  # a sleeve over the far part of the forearm
        cuff = _pitched(moved(ellipsoid(length * 0.35, 40, 36, sleeve, 20, 0.05), offset=(length * 0.75, 0, 0)), rise)  # type: ignore[arg-type]
        parts.append(moved(cuff, 0.0, (80, 0, 4)))
    # local -x points from the wrist to the fingertips: turn so the fingers reach the target
    c, s = math.cos(ang), math.sin(ang)
    return tagged(moved(join(parts), ang, (tx + 20 * c, ty + 20 * s, hz)), HAND)
