"""A second, independent synthetic scene renderer, for evaluation only (``--renderer alt``).

The reader must not be tuned to one renderer (issue 6: scenes made by another renderer will be
used too), so this one differs from ``vision.synth.board`` in everything but the dataset format
and the printed board itself:

- camera: a look-at camera on a sphere around a random board point, any roll, a wider range of
  focal lengths (50-75 degrees horizontal field of view), mild radial lens distortion;
- light: a directional light (Lambert shading plus a specular highlight on pieces) and ambient,
  pieces casting hard-ish shadows along the light, vignetting, white balance, a printer's colour
  response and a tinted paper;
- pieces: triangle meshes drawn with a painter's algorithm: Kat en Muis counters as bevelled
  cylinders, Chop! Chop!'s cat as a meeple (cone and ball head with ears) and mice as ellipsoids
  with round ears and a tail, slabs and cheese as bevelled tiles, Kilkenny cats as
  tapered bodies with a ball head and ears, Qubism pawns as chess pawns, cubes with one of three
  glyphs (a slender triangle, a chevron, a line arrow with an open head), dark or light on the
  cube, cubes turned a little off the grid;
- occluders: a sleeved arm with a mitten-like hand, a phone or a mug; sensor shot and read
  noise, defocus or motion blur, JPEG.

Labels are those of ``vision.synth.board`` (``labels.json``, format companion-board-scenes/1), so
``companion board eval`` and ``bench/board.py --renderer alt`` read them unchanged; the dataset is
written by ``vision.synth.board_scenes.write_scenes``, with positions from
``vision.synth.board.random_position`` (they are game positions, not rendering).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.boards import Board, Marker
from vision.synth.board_scenes import homography_json, write_scenes
from vision.printing import render_board

W, H = 1280, 720
ART_PX_PER_MM = 3.0

Face = tuple[np.ndarray, np.ndarray, tuple[float, float, float]]
"""(N x 3 world points, part centre (3,), BGR colour)."""


# --------------------------------------------------------------------------------------------
# camera


@dataclass
class LensCamera:
    f: float
    cx: float
    cy: float
    R: np.ndarray
    C: np.ndarray
    k1: float

    @property
    def K(self) -> np.ndarray:
        return np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1.0]])

    def cam(self, pts: np.ndarray) -> np.ndarray:
        return (self.R @ (np.asarray(pts, np.float64).reshape(-1, 3) - self.C).T).T

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Pinhole projection (the lens distortion is applied to the whole frame at the end)."""
        p = self.cam(pts)
        return np.column_stack([self.f * p[:, 0] / p[:, 2] + self.cx, self.f * p[:, 1] / p[:, 2] + self.cy])

    def homography(self) -> np.ndarray:
        h = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], -self.R @ self.C])
        return h / h[2, 2]


def alt_camera(board: Board, rng: np.random.Generator) -> LensCamera:
    hfov = math.radians(float(rng.uniform(50, 75)))
    f = (W / 2) / math.tan(hfov / 2)
    tilt = math.radians(float(rng.uniform(0, 35)))
    azim = float(rng.uniform(-math.pi, math.pi))
    roll = float(rng.uniform(-math.pi, math.pi)) if rng.random() < 0.35 else float(rng.normal(0, 0.3))
    look = np.array([board.width_mm * rng.uniform(0.42, 0.58), board.height_mm * rng.uniform(0.42, 0.58), 0.0])
    view = np.array([math.sin(tilt) * math.cos(azim), math.sin(tilt) * math.sin(azim), math.cos(tilt)])
    fwd = -view
    # camera axes: x right, y down, z forward; roll about the forward axis
    ref = np.array([math.cos(roll), math.sin(roll), 0.0])
    x_ax = ref - fwd * float(ref @ fwd)
    x_ax /= np.linalg.norm(x_ax)
    y_ax = np.cross(x_ax, fwd)  # image y: right-handed with x and the view direction
    R = np.stack([x_ax, y_ax, fwd])
    corners = np.array([[0, 0, 0], [board.width_mm, 0, 0], [board.width_mm, board.height_mm, 0],
                        [0, board.height_mm, 0]], np.float64)
    target_fill = float(rng.uniform(0.55, 0.95))
    cx, cy = W / 2 + rng.normal(0, 8), H / 2 + rng.normal(0, 8)
    k1 = float(rng.uniform(-0.01, 0.006))
    lo, hi = 150.0, 3000.0
    cam = LensCamera(f, cx, cy, R, look + view * 600, k1)
    for _ in range(40):  # bisection on the distance: the board fills target_fill and stays inside
        d = (lo + hi) / 2
        cam = LensCamera(f, cx, cy, R, look + view * d, k1)
        px = cam.project(corners)
        span = max(np.ptp(px[:, 0]) / W, np.ptp(px[:, 1]) / H)
        inside = px[:, 0].min() > 12 and px[:, 1].min() > 12 and px[:, 0].max() < W - 12 and px[:, 1].max() < H - 12
        if span > target_fill or not inside:
            lo = d
        else:
            hi = d
    return LensCamera(f, cx, cy, R, look + view * hi, k1)


def _distort_maps(cam: LensCamera) -> tuple[np.ndarray, np.ndarray]:
    """Maps for cv2.remap: output (distorted) pixel -> source (pinhole) pixel."""
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    x = (xx - cam.cx) / cam.f
    y = (yy - cam.cy) / cam.f
    k = 1 + cam.k1 * (x * x + y * y)
    return (x * k * cam.f + cam.cx).astype(np.float32), (y * k * cam.f + cam.cy).astype(np.float32)


# --------------------------------------------------------------------------------------------
# meshes


def _revolve(profile: list[tuple[float, float]], colour: tuple[float, float, float], n: int = 18,
             scale: tuple[float, float] = (1.0, 1.0)) -> list[Face]:
    """A solid of revolution about the z axis from (radius, height) pairs, bottom to top."""
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    ca, sa = np.cos(a) * scale[0], np.sin(a) * scale[1]
    rings = [np.column_stack([r * ca, r * sa, np.full(n, z)]) for r, z in profile]
    centre = np.array([0, 0, (profile[0][1] + profile[-1][1]) / 2])
    faces: list[Face] = []
    for lo, hi in zip(rings[:-1], rings[1:]):
        for i in range(n):
            j = (i + 1) % n
            quad = np.array([lo[i], lo[j], hi[j], hi[i]])
            faces.append((quad, np.array([0, 0, quad[:, 2].mean()]), colour))
    if profile[-1][0] > 1e-6:
        faces.append((rings[-1], centre - [0, 0, 1e3], colour))
    return faces


def _sphere(r: float, colour: tuple[float, float, float], z0: float, n: int = 14,
            scale: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> list[Face]:
    prof = [(r * math.sin(t), z0 + r * (1 - math.cos(t))) for t in np.linspace(0.01, math.pi - 0.01, 8)]
    faces = _revolve(prof, colour, n)
    out: list[Face] = []
    c = np.array([0, 0, z0 + r])
    sc = np.array(scale)
    for pts, _, col in faces[:-1]:
        out.append((c + (pts - c) * sc, c, col))
    return out


def _box(hx: float, hy: float, z0: float, z1: float, colour: tuple[float, float, float],
         bevel: float = 0.0) -> list[Face]:
    b = min(bevel, hx * 0.4, hy * 0.4, (z1 - z0) * 0.45)
    if b <= 0:
        prof_xy = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
        lay = [(z0, prof_xy), (z1, prof_xy)]
    else:
        inner = [(-hx + b, -hy + b), (hx - b, -hy + b), (hx - b, hy - b), (-hx + b, hy - b)]
        outer = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)]
        lay = [(z0, outer), (z1 - b, outer), (z1, inner)]
    faces: list[Face] = []
    centre = np.array([0, 0, (z0 + z1) / 2])
    for (za, pa), (zb, pb) in zip(lay[:-1], lay[1:]):
        for i in range(4):
            j = (i + 1) % 4
            quad = np.array([[*pa[i], za], [*pa[j], za], [*pb[j], zb], [*pb[i], zb]])
            faces.append((quad, centre, colour))
    top = np.array([[x, y, lay[-1][0]] for x, y in lay[-1][1]])
    faces.append((top, centre, colour))
    return faces


def _place(faces: list[Face], x: float, y: float, angle: float) -> list[Face]:
    c, s = math.cos(angle), math.sin(angle)
    rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    off = np.array([x, y, 0.0])
    return [(pts @ rot.T + off, ctr @ rot.T + off, col) for pts, ctr, col in faces]


def _ears(r: float, zc: float, colour: tuple[float, float, float], pointed: bool) -> list[Face]:
    faces: list[Face] = []
    for side in (-1, 1):
        if pointed:
            tri = np.array([[side * r * 0.25, -r * 0.2, zc + r * 0.6], [side * r * 0.85, -r * 0.1, zc + r * 0.45],
                            [side * r * 0.65, -r * 0.15, zc + r * 1.35]])
            faces.append((tri, np.array([0, 1.0, zc]), colour))
        else:
            ear = _sphere(r * 0.38, colour, zc + r * 0.45, 8, (1.0, 0.45, 1.0))
            faces += [(p + [side * r * 0.7, 0, 0], ctr + [side * r * 0.7, 0, 0], col) for p, ctr, col in ear]
    return faces


# --------------------------------------------------------------------------------------------
# piece sets


def _jit(rng: np.random.Generator, c: tuple[float, float, float], s: float) -> tuple[float, float, float]:
    v = np.clip(np.asarray(c, np.float64) + rng.normal(0, s, 3), 0, 255)
    return (float(v[0]), float(v[1]), float(v[2]))


def alt_look(board: Board, rng: np.random.Generator) -> dict[str, Any]:
    """Colours and shapes of one physical set of pieces (BGR)."""
    g = board.game
    look: dict[str, Any] = {"scale": float(rng.uniform(0.9, 1.1))}
    if g == "katenmuis":
        pal = [(35, 35, 200), (30, 30, 30), (200, 110, 20), (40, 170, 60), (20, 190, 240), (240, 240, 240),
               (30, 140, 250), (150, 50, 160), (180, 150, 240)]
        a, b = rng.choice(len(pal), 2, replace=False)
        look["cat"], look["mouse"] = _jit(rng, pal[a], 12), _jit(rng, pal[b], 12)
        look["height"] = float(rng.uniform(4, 9))
    elif g == "chopchop":
        look["slab"] = _jit(rng, [(60, 100, 40), (120, 70, 40), (90, 60, 130), (110, 110, 110)][int(rng.integers(0, 4))], 10)
        look["cheese"] = _jit(rng, (40, 190, 245), 10)
        look["hole"] = _jit(rng, (40, 50, 60), 8)
        look["cat"] = _jit(rng, [(30, 100, 230), (35, 35, 35), (200, 200, 205)][int(rng.integers(0, 3))], 10)
        look["mouse"] = _jit(rng, [(140, 140, 140), (70, 100, 140), (225, 225, 230)][int(rng.integers(0, 3))], 10)
    elif g == "kilkenny":
        base = {"red": (30, 30, 190), "blue": (170, 80, 20), "green": (40, 140, 30), "yellow": (20, 200, 235),
                "orange": (10, 110, 235), "purple": (130, 30, 110), "white": (235, 235, 235), "black": (30, 30, 30)}
        cols = list(dict(board.settings.get("colours", {})).values()) or ["red", "blue", "green", "yellow"]
        for col in cols:
            look[f"cat:{col}"] = _jit(rng, base.get(col, (128, 128, 128)), 14)
        look["height"] = float(rng.uniform(10, 15))
    elif g == "qubism":
        look["pawn:white"] = _jit(rng, (215, 232, 240), 6)
        look["pawn:black"] = _jit(rng, (35, 30, 30), 6)
        kind = int(rng.integers(0, 3))
        look["cube"] = _jit(rng, [(120, 170, 215), (195, 195, 190), (120, 60, 30)][kind], 10)
        look["arrow"] = (235.0, 235.0, 235.0) if kind == 2 else _jit(rng, (25, 25, 30), 5)
        look["glyph"] = ["triangle", "chevron", "line"][int(rng.integers(0, 3))]
    return look


def _glyph(kind: str) -> list[np.ndarray]:
    """Glyph polygons pointing north (-y) in units of the cube side."""
    if kind == "triangle":
        return [np.array([[0.0, -0.36], [0.15, 0.34], [-0.15, 0.34]])]
    if kind == "chevron":
        return [np.array([[0.0, -0.34], [0.34, 0.02], [0.34, 0.2], [0.0, -0.13], [-0.34, 0.2], [-0.34, 0.02]])]
    shaft = np.array([[-0.04, -0.2], [0.04, -0.2], [0.04, 0.36], [-0.04, 0.36]])
    left = np.array([[0.0, -0.36], [0.03, -0.3], [-0.24, -0.06], [-0.29, -0.12]])
    right = left * [-1, 1]
    return [shaft, left, right]


def piece_faces(board: Board, sid: str, token: str, look: dict[str, Any], rng: np.random.Generator
                ) -> tuple[list[Face], list[tuple[np.ndarray, tuple[float, float, float]]]]:
    """World faces of one piece on square ``sid``, and flat decals (glyphs) on its top."""
    sq = board.squares[sid]
    xs = [p[0] for p in sq.polygon]
    ys = [p[1] for p in sq.polygon]
    size = min(max(xs) - min(xs), max(ys) - min(ys)) * look["scale"]
    cx, cy = sq.centre
    cx += float(rng.normal(0, size * 0.05))
    cy += float(rng.normal(0, size * 0.05))
    ang = float(rng.uniform(-math.pi, math.pi))
    base = token.split(":")[0]
    col = look.get(token) or look.get(base) or (128.0, 128.0, 128.0)
    decals: list[tuple[np.ndarray, tuple[float, float, float]]] = []
    if token == "cat+mouse":  # K7: both counters on one square, one over the other's edge
        r, h = size * 0.3, look["height"]
        faces = []
        for k, part in ((-1, "cat"), (1, "mouse")):
            c_part = look.get(part) or (128.0, 128.0, 128.0)
            faces += _place(_revolve([(r, 0), (r, h - 1.2), (r - 1.2, h)], c_part), k * size * 0.19, 0, 0)
    elif board.game == "katenmuis":
        r, h = size * 0.36, look["height"]
        faces = _revolve([(r, 0), (r, h - 1.2), (r - 1.2, h)], col)
    elif base == "cat" and board.game == "chopchop":
        r, h = size * 0.34, min(size * 0.85, 20.0)
        faces = _revolve([(r, 0), (r * 0.9, h * 0.1), (r * 0.45, h * 0.55), (r * 0.3, h * 0.62)], col)
        faces += _sphere(r * 0.5, col, h * 0.58) + _ears(r * 0.5, h * 0.58 + r * 0.5, col, True)
    elif base == "mouse":
        r = size * 0.26
        faces = _sphere(r, col, 0.0, 12, (1.0, 1.5, 0.8)) + [
            (p + [0, -r * 1.1, r * 0.3], c + [0, -r * 1.1, r * 0.3], cl) for p, c, cl in _ears(r * 0.55, r * 0.5, col, False)]
    elif base in ("slab", "hole"):
        faces = _box(size * 0.44, size * 0.44, 0, 2.5, col, 0.8)
        ang = float(rng.normal(0, 0.05))
        if base == "hole":
            hole = np.array([[size * 0.22 * math.cos(t), size * 0.22 * math.sin(t), 2.55]
                             for t in np.linspace(0, 2 * math.pi, 16, endpoint=False)])
            decals.append((hole, (15.0, 15.0, 18.0)))
    elif base == "cheese":
        faces = _box(size * 0.3, size * 0.22, 0, 5.0, col, 0.6)
    elif base == "cat":  # Kilkenny
        r, h = size * 0.36, look["height"]
        faces = _revolve([(r, 0), (r * 0.95, h * 0.15), (r * 0.55, h * 0.62)], col)
        faces += _sphere(r * 0.55, col, h * 0.58) + _ears(r * 0.55, h * 0.58 + r * 0.55, col, True)
    elif base == "pawn":
        s = size
        faces = _revolve([(s * 0.28, 0), (s * 0.28, 2.5), (s * 0.2, 4.0), (s * 0.1, 11.0), (s * 0.16, 12.5),
                          (s * 0.08, 14.0)], col)
        faces += _sphere(s * 0.13, col, 13.5)
    elif base == "cube":
        side = size * float(rng.uniform(0.72, 0.86))
        ang = float(rng.normal(0, 0.12))
        faces = _box(side / 2, side / 2, 0, side, col, 0.7)
        d = token.split(":")[1] if ":" in token else "N"
        turn = {"N": 0.0, "E": math.pi / 2, "S": math.pi, "W": -math.pi / 2}[d] + ang
        c, s_ = math.cos(turn), math.sin(turn)
        for poly in _glyph(str(look.get("glyph", "triangle"))):
            p = poly * side
            rot = np.column_stack([p[:, 0] * c - p[:, 1] * s_, p[:, 0] * s_ + p[:, 1] * c])
            decals.append((np.column_stack([cx + rot[:, 0], cy + rot[:, 1], np.full(len(rot), side + 0.05)]),
                           tuple(look.get("arrow", (30.0, 30.0, 30.0)))))
        return _place(faces, cx, cy, ang), decals
    else:
        faces = _revolve([(size * 0.3, 0), (size * 0.3, 5)], col)
    placed = _place(faces, cx, cy, ang)
    if decals:
        c, s_ = math.cos(ang), math.sin(ang)
        decals = [(np.column_stack([cx + p[:, 0] * c - p[:, 1] * s_, cy + p[:, 0] * s_ + p[:, 1] * c, p[:, 2]]), cl)
                  for p, cl in decals]
    return placed, decals


# --------------------------------------------------------------------------------------------
# scene


def _fill(img: np.ndarray, px: np.ndarray, colour: tuple[float, float, float]) -> None:
    cv2.fillPoly(img, [np.round(px * 8).astype(np.int32).reshape(-1, 1, 2)],
                 tuple(float(v) for v in colour), cv2.LINE_AA, shift=3)


def _arm(rng: np.random.Generator, over: np.ndarray) -> tuple[np.ndarray, tuple[float, float, float]]:
    """A sleeved arm with a mitten-like hand reaching to ``over``; (mask, sleeve colour)."""
    mask = np.zeros((H, W), np.float32)
    side = int(rng.integers(0, 4))
    start = [np.array([rng.uniform(0, W), -150]), np.array([W + 150, rng.uniform(0, H)]),
             np.array([rng.uniform(0, W), H + 150]), np.array([-150, rng.uniform(0, H)])][side]
    d = over - start
    d /= np.linalg.norm(d) + 1e-9
    n = np.array([-d[1], d[0]])
    sc = float(rng.uniform(0.8, 1.3))
    wrist = over - d * 70 * sc
    poly = np.array([start + n * 60 * sc, wrist + n * 42 * sc, wrist - n * 42 * sc, start - n * 60 * sc])
    cv2.fillPoly(mask, [np.int32(poly).reshape(-1, 1, 2)], 1.0)
    cv2.ellipse(mask, (int(over[0] - d[0] * 20 * sc), int(over[1] - d[1] * 20 * sc)),
                (int(62 * sc), int(45 * sc)), math.degrees(math.atan2(d[1], d[0])), 0, 360, 2.0, -1)
    thumb = wrist + d * 20 * sc + n * 50 * sc
    cv2.line(mask, (int(wrist[0]), int(wrist[1])), (int(thumb[0]), int(thumb[1])), 2.0, int(26 * sc))
    sleeve = _jit(rng, [(120, 60, 30), (40, 40, 40), (60, 120, 60), (200, 200, 200)][int(rng.integers(0, 4))], 15)
    return mask, sleeve


def render_alt_scene(board: Board, position: dict[str, str], look: dict[str, Any], rng: np.random.Generator,
                     occlude: bool | None = None, hide_marker: bool | None = None) -> dict[str, Any]:
    """One frame and its labels: {"image", "squares", "occluded", "markers_visible", ...}."""
    cam = alt_camera(board, rng)
    hmm = cam.homography()
    art = _ART.get((board.name, board.markers))  # an older print of a board has other markers
    if art is None:
        _ART.clear()
        art = _ART[(board.name, board.markers)] = render_board(board, ART_PX_PER_MM).astype(np.float32) / 255
    # the printer's response and the paper tint
    gamma = rng.uniform(0.85, 1.2, 3).astype(np.float32)
    paper = rng.uniform(0.9, 1.0, 3).astype(np.float32)
    printed = (art ** gamma) * paper
    table = np.empty((H, W, 3), np.float32)
    table[:] = rng.uniform(0.15, 0.75, 3)
    grain = cv2.GaussianBlur(rng.random((H // 4, W // 4)).astype(np.float32), (0, 0), 2)
    table *= (0.85 + 0.3 * cv2.resize(grain, (W, H)))[..., None]
    h_art = hmm @ np.diag([1 / ART_PX_PER_MM, 1 / ART_PX_PER_MM, 1.0])
    img = cv2.warpPerspective(printed, h_art, (W, H), dst=table, flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_TRANSPARENT)
    # light: direction towards the light, ambient share
    el = math.radians(float(rng.uniform(35, 75)))
    az = float(rng.uniform(-math.pi, math.pi))
    L = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    ambient = float(rng.uniform(0.35, 0.6))
    faces: list[Face] = []
    decals: list[tuple[np.ndarray, tuple[float, float, float]]] = []
    shadow = np.zeros((H, W), np.float32)
    for sid, token in position.items():
        f, d = piece_faces(board, sid, token, look, rng)
        faces += f
        decals += d
        pts = np.vstack([p for p, _, _ in f])
        ground = pts - (pts[:, 2:3] / L[2]) * L[None, :]
        hull = cv2.convexHull(np.float32(cam.project(np.column_stack([ground[:, :2], np.zeros(len(ground))]))))
        cv2.fillConvexPoly(shadow, np.int32(hull), 1.0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), float(rng.uniform(1.0, 3.0)))
    img *= (1 - (1 - ambient) * 0.75 * shadow)[..., None]
    # pieces: back faces culled, far to near
    view_dirs = []
    for pts, ctr, col in faces:
        cen = pts.mean(axis=0)
        e1, e2 = pts[1] - pts[0], pts[-1] - pts[0]
        nrm = np.cross(e1, e2)
        if np.linalg.norm(nrm) < 1e-9:
            continue
        nrm /= np.linalg.norm(nrm)
        if nrm @ (cen - ctr) < 0:
            nrm = -nrm
        to_cam = cam.C - cen
        if nrm @ to_cam <= 0:
            continue
        view_dirs.append((float(np.linalg.norm(to_cam)), pts, nrm, col, to_cam / np.linalg.norm(to_cam)))
    for _, pts, nrm, col, v in sorted(view_dirs, key=lambda t: -t[0]):
        lam = ambient + (1 - ambient) * max(0.0, float(nrm @ L))
        hv = (L + v) / np.linalg.norm(L + v)
        spec = 0.25 * max(0.0, float(nrm @ hv)) ** 30
        c = np.clip(np.asarray(col) / 255 * lam + spec, 0, 1.2)
        _fill(img, cam.project(pts), (float(c[0]), float(c[1]), float(c[2])))
    for pts, col in decals:
        lam = ambient + (1 - ambient) * L[2]
        _fill(img, cam.project(pts), tuple(float(v) / 255 * lam for v in col))
    # global light: vignetting, a window gradient, white balance, exposure
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    rr = ((xx - W / 2) ** 2 + (yy - H / 2) ** 2) / (W / 2) ** 2
    light = (1 - rng.uniform(0.05, 0.3) * rr) * (1 + rng.uniform(-0.3, 0.3) * (xx / W - 0.5) * 2 * math.cos(az))
    img *= light[..., None] * rng.uniform(0.75, 1.15)
    img *= np.array([rng.uniform(0.85, 1.1), 1.0, rng.uniform(0.85, 1.15)], np.float32)[None, None, :]
    # occluders
    marker_px = {m.id: cam.project(np.column_stack([np.float64(m.corners()), np.zeros(4)])) for m in board.markers}
    occ = np.zeros((H, W), np.float32)
    if hide_marker is None:
        hide_marker = rng.random() < 0.3
    if occlude is None:
        occlude = rng.random() < 0.3
    occ_colour: tuple[float, float, float] = (0.5, 0.5, 0.5)
    if hide_marker:
        target = board.markers[int(rng.integers(0, len(board.markers)))]
        c = marker_px[target.id].mean(axis=0)
        kind = rng.random()
        if kind < 0.45:
            occ, occ_colour = _arm(rng, c)
        elif kind < 0.75:  # a phone lying over it
            a = float(rng.uniform(0, 180))
            box = cv2.boxPoints(((float(c[0]), float(c[1])), (float(rng.uniform(90, 130)), float(rng.uniform(170, 220))), a))
            cv2.fillConvexPoly(occ, np.int32(box), 1.0)
            occ_colour = (25.0, 25.0, 28.0)
        else:  # a mug seen from above
            rad = int(np.linalg.norm(marker_px[target.id][0] - marker_px[target.id][2]) * rng.uniform(0.7, 1.1))
            cv2.circle(occ, (int(c[0]), int(c[1])), rad, 1.0, -1)
            occ_colour = _jit(rng, (200, 200, 210), 30)
    elif occlude:
        sids = list(board.squares)
        sq = board.squares[sids[int(rng.integers(0, len(sids)))]]
        occ, occ_colour = _arm(rng, cam.project(np.array([[*sq.centre, 0.0]]))[0])
    if occ.any():
        if all(_cover(occ, px) > 0.02 for px in marker_px.values()):
            occ[:] = 0
    if occ.any():
        hand = occ > 1.5
        arm = (occ > 0.5) & ~hand
        skin = np.asarray(_jit(rng, [(150, 180, 225), (90, 120, 170), (60, 80, 110)][int(rng.integers(0, 3))], 10), np.float32) / 255
        colour = np.zeros((H, W, 3), np.float32)
        colour[arm] = np.asarray(occ_colour, np.float32) / 255 if max(occ_colour) > 1 else occ_colour
        colour[hand] = skin
        m = cv2.GaussianBlur((occ > 0.5).astype(np.float32), (0, 0), 1.2)[..., None]
        shade = cv2.GaussianBlur(np.roll((occ > 0.5).astype(np.float32), (18, -14), (0, 1)), (0, 0), 12)[..., None]
        tex = 0.9 + 0.2 * cv2.resize(grain, (W, H))[..., None]
        img = img * (1 - 0.35 * shade) * (1 - m) + colour * tex * m
    hidden = sorted(mid for mid, px in marker_px.items()
                    if _cover(occ, px) > 0.02 or px[:, 0].min() < 2 or px[:, 1].min() < 2
                    or px[:, 0].max() > W - 2 or px[:, 1].max() > H - 2)
    occluded = sorted(sid for sid, sq in board.squares.items()
                      if _cover(occ, cam.project(np.column_stack([np.float64(sq.polygon), np.zeros(len(sq.polygon))]))) > 0.15)
    # lens, sensor, compression
    if abs(cam.k1) > 1e-4:
        mx, my = _distort_maps(cam)
        img = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.3:
        k = np.zeros((7, 7), np.float32)  # a little camera shake (the camera stands on a mount)
        a = float(rng.uniform(0, math.pi))
        ln = float(rng.uniform(1, 2.5))
        cv2.line(k, (int(round(3 - ln * math.cos(a))), int(round(3 - ln * math.sin(a)))),
                 (int(round(3 + ln * math.cos(a))), int(round(3 + ln * math.sin(a)))), 1.0, 1)
        img = cv2.filter2D(img, -1, k / k.sum())
    else:
        sig = float(rng.uniform(0.2, 1.4))
        img = cv2.GaussianBlur(img, (0, 0), sig)
    img = np.clip(img, 0, 1)
    img = img + np.sqrt(img * rng.uniform(0.0005, 0.003)) * rng.standard_normal(img.shape).astype(np.float32)
    img += rng.normal(0, rng.uniform(0.002, 0.012), img.shape).astype(np.float32)
    out = np.clip(img * 255, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 92))])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return {"image": out, "squares": dict(position), "occluded": occluded, "markers_hidden": hidden,
            "markers_visible": [m.id for m in board.markers if m.id not in hidden], "homography": hmm}


_ART: dict[tuple[str, tuple[Marker, ...]], np.ndarray] = {}


def _cover(mask: np.ndarray, quad: np.ndarray) -> float:
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int), [W, H])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(poly, [np.int32(quad - [x0, y0]).reshape(-1, 1, 2)], 1)
    area = poly.sum()
    return float(((mask[y0:y1, x0:x1] > 0.5) * poly).sum() / area) if area else 0.0


def write_alt_dataset(root: Path, count: int, seed: int = 0, games: list[str] | None = None,
                      group_size: int = 25) -> int:
    """Like ``vision.synth.board_scenes.write_dataset``, drawn by this renderer."""

    def draw(board: Board, pos: dict[str, str], look: dict[str, Any], rng: np.random.Generator,
             learn: bool) -> tuple[np.ndarray, dict[str, Any]]:
        sc = render_alt_scene(board, pos, look, rng, occlude=False if learn else None,
                              hide_marker=False if learn else None)
        return sc["image"], {"renderer": "alt", "width": W, "height": H, "squares": sc["squares"],
                             "occluded": sc["occluded"], "markers_visible": sc["markers_visible"],
                             "markers_hidden": sc["markers_hidden"], "homography": homography_json(sc["homography"])}

    return write_scenes(root, count, np.random.default_rng(seed + 7919), games, group_size, alt_look, draw)
