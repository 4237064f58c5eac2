"""A third board scene renderer, truly 3-D: z-buffered meshes, shadow maps, real occlusion
(training and evaluation only; never imported by the runtime reader).

What it models (see ``vision.synth.pieces3d`` for the pieces and ``vision.synth.raster3d``
for the rasteriser):

- the board as ``companion board print`` draws it (``vision.printing.render_board``), at its
  printed size, with a printer's colour response and a tinted paper, lying on a table textured
  by code (wood planks, a woven cloth, a gingham cloth);
- pieces as meshes with real height and thickness, hiding what is behind them; a per-pixel
  depth buffer decides what is seen;
- one or two directional lights (warm, neutral, cold or coloured; a brightness gradient across
  the table) casting shadows through shadow maps (soft edges by percentage-closer filtering),
  contact darkening under pieces, a person's soft shadow across part of the board;
- a sleeved arm with a hand reaching in (a mesh that occludes and casts a shadow; the squares
  it hides are labelled ``occluded``);
- a pinhole camera tilted 0-45 degrees at any turn, with radial lens distortion, vignetting,
  white balance, blur (defocus or shake), shot and read noise and JPEG.

Scenes come in groups sharing one set of pieces, one camera and one light: the first is the
game's start as the engine sets it up (Chop! Chop!: the cat placed on the table as C1 lays it),
labelled ``learn``; the next are positions reached by seeded random legal play of the engine
(``companion.games``), so cheeses lie face up, holes are opened, mice are caught, the cat
stands over a mouse on the table, two Kat en Muis counters share a square.

Not modelled: a physical table for Chop! Chop! (the table top is the print), the transient
face-up tiles other than cheese, textures on pieces, reflections, a curled or creased print,
motion of pieces between the learn and later scenes other than play, rolling shutter.

    write_3d_dataset(root, count, seed=0, games=None, group_size=8) -> count
    render_3d_scene(board, layout, setup, rng, arm=False) -> Scene3D
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.boards import Board
from vision.boarddefaults import GAMES, board_for
from vision.printing import render_board
from vision.synth.board import FORMAT
from vision.synth.board3d_play import Layout, group_layouts
from vision.synth.board_scenes import homography_json
from vision.synth.pieces3d import Placed, piece_meshes, piece_set
from vision.synth.raster3d import (Mesh, Pinhole, ellipsoid, facing, first_hits, join, moved, rasterise, revolve, surface,
                                   tagged)

W, H = 1280, 720
PRINT_PX_PER_MM = 4.0
ARM, HAND = 1000, 1001
"""Object numbers of the occluder (pieces are numbered from 1; 0 is the table and the print)."""


# --------------------------------------------------------------------------------------------
# camera


@dataclass
class Camera3D(Pinhole):
    f: float
    cx: float
    cy: float
    R: np.ndarray
    C: np.ndarray
    k1: float
    k2: float
    tilt_deg: float

    def distort(self, px: np.ndarray) -> np.ndarray:
        """Where pinhole pixels appear in the final (distorted) frame."""
        u = (np.asarray(px, np.float64) - [self.cx, self.cy]) / self.f
        d = u.copy()
        for _ in range(20):  # the frame maps distorted d -> pinhole d * (1 + k1 r^2 + k2 r^4)
            r2 = (d * d).sum(axis=1, keepdims=True)
            d = u / (1 + self.k1 * r2 + self.k2 * r2 * r2)
        return d * self.f + [self.cx, self.cy]

    def homography(self) -> np.ndarray:
        K = np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1.0]])
        h = K @ np.column_stack([self.R[:, 0], self.R[:, 1], -self.R @ self.C])
        return h / h[2, 2]

    def rays(self) -> np.ndarray:
        """World direction of every pixel (H x W x 3), camera z component 1."""
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float64)
        d = np.stack([(xx - self.cx) / self.f, (yy - self.cy) / self.f, np.ones_like(xx)], axis=2)
        return d @ self.R  # R^T applied to each row vector


def camera_3d(board: Board, rng: np.random.Generator, max_tilt_deg: float = 45.0) -> Camera3D:
    """A camera looking at the board from up to ``max_tilt_deg`` off vertical, any turn."""
    hfov = math.radians(float(rng.uniform(50, 75)))
    f = (W / 2) / math.tan(hfov / 2)
    tilt_deg = float(rng.uniform(0, max_tilt_deg))
    tilt = math.radians(tilt_deg)
    azim = float(rng.uniform(-math.pi, math.pi))
    roll = float(rng.uniform(-math.pi, math.pi)) if rng.random() < 0.3 else float(rng.normal(0, 0.25))
    look = np.array([board.width_mm * rng.uniform(0.44, 0.56), board.height_mm * rng.uniform(0.44, 0.56), 0.0])
    view = np.array([math.sin(tilt) * math.cos(azim), math.sin(tilt) * math.sin(azim), math.cos(tilt)])
    fwd = -view
    ref = np.array([math.cos(roll), math.sin(roll), 0.0])
    x_ax = ref - fwd * float(ref @ fwd)
    if np.linalg.norm(x_ax) < 1e-6:
        x_ax = np.array([1.0, 0.0, 0.0])
    x_ax /= np.linalg.norm(x_ax)
    y_ax = np.cross(x_ax, fwd)  # the world (x right, y down the print, z up) is left-handed
    R = np.stack([x_ax, y_ax, fwd])
    corners = np.array([[0, 0, 0], [board.width_mm, 0, 0], [board.width_mm, board.height_mm, 0],
                        [0, board.height_mm, 0]], np.float64)
    fill = float(rng.uniform(0.6, 0.93))
    cx, cy = W / 2 + rng.normal(0, 6), H / 2 + rng.normal(0, 6)
    k1 = float(rng.uniform(-0.12, 0.03))
    k2 = float(rng.uniform(-0.02, 0.02))
    lo, hi = 120.0, 4000.0
    for _ in range(40):  # distance: the board fills ``fill`` of the frame and stays inside it
        d = (lo + hi) / 2
        cam = Camera3D(f, cx, cy, R, look + view * d, k1, k2, tilt_deg)
        px = cam.distort(cam.project(corners))
        span = max(np.ptp(px[:, 0]) / W, np.ptp(px[:, 1]) / H)
        inside = px[:, 0].min() > 10 and px[:, 1].min() > 10 and px[:, 0].max() < W - 10 and px[:, 1].max() < H - 10
        if span > fill or not inside:
            lo = d
        else:
            hi = d
    return Camera3D(f, cx, cy, R, look + view * hi, k1, k2, tilt_deg)


# --------------------------------------------------------------------------------------------
# light and surroundings, shared by a group


LIGHT_TINTS = {"warm": (0.70, 0.86, 1.0), "neutral": (1.0, 1.0, 1.0), "cold": (1.0, 0.94, 0.80)}


@dataclass
class Light:
    direction: np.ndarray
    """Unit vector towards the light."""
    colour: np.ndarray
    """BGR intensity."""
    soft_mm: float
    """Penumbra radius of its shadows (a larger lamp, a nearer lamp)."""


@dataclass
class Setup:
    """What a group of scenes shares: the pieces, the camera, the light, the table and the print."""
    pieces: dict[str, Any]
    camera: Camera3D
    lights: list[Light]
    ambient: np.ndarray
    gradient: tuple[float, float, float]
    """(direction angle, strength per 100 mm, 0) of the light's brightness across the table."""
    table: np.ndarray
    print_img: np.ndarray
    white_balance: np.ndarray
    vignette: float
    noise: tuple[float, float]
    tint: str
    extra: dict[str, Any] = field(default_factory=dict)


def _unit(v: np.ndarray) -> np.ndarray:
    return np.asarray(v, np.float64) / float(np.linalg.norm(v))


def table_texture(rng: np.random.Generator) -> np.ndarray:
    """A table top 1100 x 1000 mm at 1 px/mm (x from -400 mm, y from -400 mm), BGR 0..1."""
    h, w = 1000, 1100
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    kind = int(rng.integers(0, 3))
    noise = cv2.resize(rng.random((h // 20, w // 20)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    if kind == 0:  # wood planks along x
        base = np.array([rng.uniform(0.2, 0.45), rng.uniform(0.35, 0.6), rng.uniform(0.5, 0.8)], np.float32)
        plank = float(rng.uniform(90, 160))
        idx = np.floor(yy / plank)
        fine = cv2.resize(rng.random((h, w // 40)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        rings = 0.5 + 0.5 * np.sin((yy + 12 * noise + 6 * fine) * float(rng.uniform(0.25, 0.6)))
        shade = 0.85 + 0.12 * rings + 0.08 * np.sin(idx * 12.9898) + 0.05 * fine
        gap = (np.mod(yy, plank) < 1.5).astype(np.float32)
        tex = base[None, None, :] * (shade * (1 - 0.6 * gap))[..., None]
    elif kind == 1:  # woven cloth
        base = rng.uniform(0.15, 0.85, 3).astype(np.float32)
        weave = 0.5 + 0.5 * np.sin(xx * 2.6) * np.sin(yy * 2.6)
        tex = base[None, None, :] * (0.88 + 0.1 * weave + 0.1 * (noise - 0.5))[..., None]
    else:  # gingham
        a = rng.uniform(0.1, 0.8, 3).astype(np.float32)
        sq = float(rng.uniform(15, 30))
        bx = (np.mod(xx, 2 * sq) < sq).astype(np.float32)
        by = (np.mod(yy, 2 * sq) < sq).astype(np.float32)
        mix = (bx + by) / 2
        tex = (a[None, None, :] * mix[..., None] + (1 - mix[..., None]) * 0.92) * (0.95 + 0.1 * noise[..., None])
    return np.clip(tex, 0, 1).astype(np.float32)


def make_setup(board: Board, rng: np.random.Generator, max_tilt_deg: float = 45.0) -> Setup:
    """A set of pieces, a camera, lights and a table for one group of scenes."""
    pieces = piece_set(board, rng)
    cam = camera_3d(board, rng, max_tilt_deg)
    tint = str(rng.choice(["warm", "neutral", "cold", "coloured"], p=[0.35, 0.25, 0.25, 0.15]))
    lights: list[Light] = []
    for k in range(1 if rng.random() < 0.55 else 2):
        el = math.radians(float(rng.uniform(30, 80)))
        az = float(rng.uniform(-math.pi, math.pi))
        d = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
        named = LIGHT_TINTS.get(tint if k == 0 else str(rng.choice(["warm", "neutral", "cold"])))
        t = np.asarray(named if named is not None else rng.uniform(0.6, 1.0, 3), np.float64)  # else a coloured lamp
        lights.append(Light(d, t * (1.0 if k == 0 else rng.uniform(0.3, 0.7)),
                            float(rng.uniform(0.3, 2.5))))
    ambient = np.asarray(LIGHT_TINTS[str(rng.choice(["neutral", "cold", "warm"]))], np.float64) * rng.uniform(0.25, 0.55)
    # exposure: the paper in the middle of the board near 0.8-0.97
    centre_light = ambient + sum(lt.colour * lt.direction[2] for lt in lights)
    scale = float(rng.uniform(0.8, 0.97)) / float(np.max(centre_light))
    ambient = ambient * scale
    for lt in lights:
        lt.colour = lt.colour * scale
    art = render_board(board, PRINT_PX_PER_MM).astype(np.float32) / 255
    gamma = rng.uniform(0.85, 1.2, 3).astype(np.float32)
    paper = rng.uniform(0.9, 1.0, 3).astype(np.float32)
    wb = np.array([rng.uniform(0.88, 1.1), 1.0, rng.uniform(0.88, 1.12)], np.float64)
    return Setup(pieces, cam, lights, ambient,
                 (float(rng.uniform(-math.pi, math.pi)), float(rng.uniform(0.0, 0.3)), 0.0),
                 table_texture(rng), (art ** gamma) * paper, wb, float(rng.uniform(0.05, 0.3)),
                 (float(rng.uniform(0.0005, 0.003)), float(rng.uniform(0.002, 0.01))), tint)


# --------------------------------------------------------------------------------------------
# occluders


def _along(m: Mesh, start: np.ndarray, end: np.ndarray) -> Mesh:
    """A mesh built along +z from 0 to 1 (length 1), stretched from ``start`` to ``end``."""
    d = end - start
    length = float(np.linalg.norm(d))
    z = d / length
    x = np.cross([0.0, 0.0, 1.0], z) if abs(z[2]) < 0.99 else np.array([1.0, 0.0, 0.0])
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    rot = np.column_stack([x, y, z])
    v = (m.v * [1.0, 1.0, length]) @ rot.T + start
    n = (m.n / [1.0, 1.0, length]) @ rot.T
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    return Mesh(v, m.f, n, m.colour, m.obj, m.gloss)


def arm_mesh(board: Board, rng: np.random.Generator, target: tuple[float, float]) -> Mesh:
    """A sleeved forearm from beyond the board's edge and a hand over ``target`` (mm)."""
    ang = float(rng.uniform(-math.pi, math.pi))
    reach = float(rng.uniform(250, 380))
    hand_z = float(rng.uniform(45, 80))
    tx, ty = target
    wrist = np.array([tx - math.cos(ang) * 45, ty - math.sin(ang) * 45, hand_z + 8])
    start = np.array([tx - math.cos(ang) * reach, ty - math.sin(ang) * reach, float(rng.uniform(150, 240))])
    sleeve = tuple(float(v) for v in rng.uniform(20, 220, 3))
    skin = [(150, 180, 225), (95, 125, 175), (60, 80, 110)][int(rng.integers(0, 3))]
    r0, r1 = float(rng.uniform(38, 48)), float(rng.uniform(24, 30))
    fore = _along(revolve([(r0, 0.0), (r1 * 1.15, 0.75), (r1, 1.0)], sleeve, 20, 0.02), start, wrist)  # type: ignore[arg-type]
    hand = moved(ellipsoid(50, 40, 13, skin, 18, 0.1), ang, (tx, ty, hand_z))
    thumb = moved(ellipsoid(28, 11, 10, skin, 10, 0.1), ang + 0.9, (tx + math.cos(ang + 1.3) * 30,
                                                                 ty + math.sin(ang + 1.3) * 30, hand_z - 3))
    return join([tagged(fore, ARM), tagged(join([hand, thumb]), HAND)])


def person_shadow(board: Board, rng: np.random.Generator) -> np.ndarray:
    """A soft shadow (0..1) of a person by the table on the table grid of ``table_texture``."""
    mask = np.zeros((1000, 1100), np.float32)
    edge = int(rng.integers(0, 4))
    bw, bh = board.width_mm, board.height_mm
    cx = [rng.uniform(0, bw), bw + rng.uniform(0, 60), rng.uniform(0, bw), -rng.uniform(0, 60)][edge]
    cy = [-rng.uniform(0, 60), rng.uniform(0, bh), bh + rng.uniform(0, 60), rng.uniform(0, bh)][edge]
    axes = (int(rng.uniform(90, 200)), int(rng.uniform(180, 320)))
    cv2.ellipse(mask, (int(cx + 400), int(cy + 400)), axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    return cv2.GaussianBlur(mask, (0, 0), float(rng.uniform(20, 55))) * float(rng.uniform(0.35, 0.75))


# --------------------------------------------------------------------------------------------
# shadow maps


class ShadowMap:
    """Depth along a light's direction, seen orthographically over the board and its margin."""

    def __init__(self, direction: np.ndarray, m: Mesh, board: Board, res_mm: float = 0.5) -> None:
        L = _unit(direction)
        e1 = np.cross(L, [0.0, 1.0, 0.0]) if abs(L[1]) < 0.9 else np.cross(L, [1.0, 0.0, 0.0])
        e1 /= np.linalg.norm(e1)
        e2 = np.cross(L, e1)
        self.basis = np.stack([e1, e2, L])
        box = np.array([[x, y, z] for x in (-80, board.width_mm + 80) for y in (-80, board.height_mm + 80)
                        for z in (0, 60)])
        ab = box @ self.basis[:2].T
        self.origin = ab.min(axis=0)
        self.res = res_mm
        size = np.ceil((ab.max(axis=0) - self.origin) / res_mm).astype(int) + 1
        self.depth = np.full((int(size[1]), int(size[0])), -np.inf)
        if len(m.f):
            lv = m.v @ self.basis.T
            xy = (lv[:, :2] - self.origin) / res_mm
            ids = np.arange(len(m.f))
            rasterise(xy[m.f], lv[m.f, 2], ids, self.depth, np.full(self.depth.shape, -1, np.int64))

    def lit(self, pts: np.ndarray, soft_mm: float, rng: np.random.Generator, bias: float = 0.4) -> np.ndarray:
        """Fraction (0..1) of the light reaching each point (N x 3), percentage-closer filtered."""
        lv = pts @ self.basis.T
        uv = (lv[:, :2] - self.origin) / self.res
        hgt, wid = self.depth.shape
        n_s = 12
        sigma = soft_mm / self.res / 1.5
        offs = rng.normal(0, sigma, (n_s, 2)) if soft_mm > 0 else np.zeros((1, 2))
        # only points near something that casts a shadow need the filtered look-up
        reach = int(math.ceil(3 * sigma)) + 2
        near = cv2.dilate(np.isfinite(self.depth).astype(np.uint8), np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
        u0 = np.round(uv[:, 0]).astype(np.int64)
        v0 = np.round(uv[:, 1]).astype(np.int64)
        ok0 = (u0 >= 0) & (u0 < wid) & (v0 >= 0) & (v0 < hgt)
        idx = np.nonzero(ok0)[0]
        idx = idx[near[v0[idx], u0[idx]] > 0]
        out = np.full(len(pts), float(len(offs)))
        if len(idx):
            acc = np.zeros(len(idx))
            for o in offs:
                u = np.round(uv[idx, 0] + o[0]).astype(np.int64)
                v = np.round(uv[idx, 1] + o[1]).astype(np.int64)
                ok = (u >= 0) & (u < wid) & (v >= 0) & (v < hgt)
                d = np.full(len(idx), -np.inf)
                d[ok] = self.depth[v[ok], u[ok]]
                acc += lv[idx, 2] + bias >= d
            out[idx] = acc
        return out / len(offs)


# --------------------------------------------------------------------------------------------
# one scene


@dataclass
class Scene3D:
    image: np.ndarray
    objects: np.ndarray
    """Object number per pixel of the final frame (0: table or print; pieces from 1; ARM, HAND)."""
    placed: list[Placed]
    """Every piece drawn, object number = index + 1."""
    occluded: list[str]
    markers_visible: list[int]
    markers_hidden: list[int]
    homography: np.ndarray


def _sample(tex: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Bilinear texture samples at pixel coordinates (N,), reflected at the border."""
    mx = x.astype(np.float32).reshape(1, -1)
    my = y.astype(np.float32).reshape(1, -1)
    out = np.zeros((1, mx.shape[1], tex.shape[2]), np.float32)
    step = 30000  # cv2.remap's maps are limited to 32767 columns
    for a in range(0, mx.shape[1], step):
        got = cv2.remap(tex, mx[:, a:a + step], my[:, a:a + step], cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REFLECT)
        out[:, a:a + step] = got.reshape(1, -1, tex.shape[2])
    return out[0].astype(np.float64)


def _cover(mask: np.ndarray, quad: np.ndarray) -> float:
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int), [W, H])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(poly, [np.int32(np.round(quad - [x0, y0])).reshape(-1, 1, 2)], 1)
    area = poly.sum()
    return float((mask[y0:y1, x0:x1] * poly).sum() / area) if area else 0.0


def render_3d_scene(board: Board, layout: Layout, setup: Setup, rng: np.random.Generator,
                    arm: bool = False, person: bool = False) -> Scene3D:
    """One frame of ``layout`` under ``setup``'s camera and light, and what is where in it."""
    cam = setup.camera
    placed: list[Placed] = []
    for sid, tokens, under in layout.stands:
        placed += piece_meshes(board, sid, tokens, setup.pieces, rng, under)
    meshes = [tagged(p.mesh, i + 1) for i, p in enumerate(placed)]
    if arm:
        sids = list(board.squares)
        target = board.squares[sids[int(rng.integers(0, len(sids)))]].centre
        meshes.append(arm_mesh(board, rng, (float(target[0]), float(target[1]))))
    m = join(meshes)
    rays = cam.rays().reshape(-1, 3)
    # the table plane z = 0 (the print lies on it): distance along each ray
    dz = rays[:, 2]
    s_plane = np.where(dz < -1e-9, -cam.C[2] / np.where(dz < -1e-9, dz, -1.0), 1e9)
    tri_buf, tri, on_mesh, pts, normals = first_hits(cam, m, rays, s_plane, (H, W))
    albedo = np.zeros_like(pts)
    gloss = np.zeros(len(pts))
    if on_mesh.any():
        p_m, n_m = surface(m, tri[on_mesh], cam.C, rays[on_mesh])
        pts[on_mesh] = p_m
        normals[on_mesh] = n_m
        albedo[on_mesh] = m.colour[tri[on_mesh]]
        gloss[on_mesh] = m.gloss[tri[on_mesh]]
    plane = ~on_mesh
    px, py = pts[plane, 0], pts[plane, 1]
    inside = (px >= 0) & (px < board.width_mm) & (py >= 0) & (py < board.height_mm)
    alb = _sample(setup.table, px + 400, py + 400)
    alb[inside] = _sample(setup.print_img, px[inside] * PRINT_PX_PER_MM - 0.5, py[inside] * PRINT_PX_PER_MM - 0.5)
    albedo[plane] = alb
    view = facing(cam.C, pts, normals)
    # contact darkening: how much stands above a point's neighbourhood, from straight above
    above = ShadowMap(np.array([0.0, 0.0, 1.0]), m, board, 1.0)
    hmap = np.where(np.isfinite(above.depth), np.clip(above.depth / 10.0, 0, 1), 0.0).astype(np.float32)
    ao_map = cv2.GaussianBlur(hmap, (0, 0), 2.5)
    uv = (pts @ above.basis[:2].T - above.origin) / above.res
    ao = 1 - 0.45 * _sample(ao_map[..., None], uv[:, 0], uv[:, 1])[:, 0]
    ao = np.where(on_mesh, 1.0, ao)
    occlusion_ao = 0.55 + 0.45 * np.clip(normals[:, 2], 0, 1)
    light = (setup.ambient[None, :] * (ao * occlusion_ao)[:, None])
    spec = np.zeros_like(pts)
    ga, gs, _ = setup.gradient
    centre = np.array([board.width_mm / 2, board.height_mm / 2])
    grad = 1 + gs * ((pts[:, 0] - centre[0]) * math.cos(ga) + (pts[:, 1] - centre[1]) * math.sin(ga)) / 100
    grad = np.clip(grad, 0.25, 2.0)
    shade_person = np.zeros(len(pts))
    if person:
        ps = person_shadow(board, rng)
        shade_person = _sample(ps[..., None], pts[:, 0] + 400, pts[:, 1] + 400)[:, 0]
    for k, lt in enumerate(setup.lights):
        smap = ShadowMap(lt.direction, m, board)
        lit = smap.lit(pts, lt.soft_mm, rng)
        lam = np.clip(normals @ lt.direction, 0, None)
        amount = lam * lit * grad * ((1 - shade_person) if k == 0 else 1.0)
        light += amount[:, None] * lt.colour[None, :]
        half = view + lt.direction
        half /= np.maximum(np.linalg.norm(half, axis=1, keepdims=True), 1e-9)
        sp = gloss * np.clip((normals * half).sum(axis=1), 0, 1) ** 40 * lit * (lam > 0)
        spec += sp[:, None] * lt.colour[None, :]
    img = (albedo * light + spec).reshape(H, W, 3)
    objects = np.where(tri_buf >= 0, m.obj[np.maximum(tri_buf, 0)], 0).astype(np.int32)
    # labels: hidden squares and markers (in the pinhole frame)
    hand = ((objects == ARM) | (objects == HAND)).astype(np.float32)
    anything = (objects > 0).astype(np.float32)
    occluded = sorted(sid for sid, sq in board.squares.items()
                      if _cover(hand, cam.project(np.column_stack([np.asarray(sq.polygon, np.float64), np.zeros(len(sq.polygon))]))) > 0.15)
    hidden: list[int] = []
    for mk in board.markers:
        quad = cam.project(np.column_stack([np.asarray(mk.corners(), np.float64), np.zeros(4)]))
        seen = cam.distort(quad)
        if (_cover(anything, quad) > 0.02 or seen[:, 0].min() < 2 or seen[:, 1].min() < 2
                or seen[:, 0].max() > W - 2 or seen[:, 1].max() > H - 2):
            hidden.append(mk.id)
    # camera: vignetting, white balance, lens, blur, noise, JPEG
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    rr = ((xx - W / 2) ** 2 + (yy - H / 2) ** 2) / (W / 2) ** 2
    img = (img * (1 - setup.vignette * rr)[..., None] * setup.white_balance[None, None, :]).astype(np.float32)
    if abs(cam.k1) > 1e-5 or abs(cam.k2) > 1e-5:
        x = (xx - cam.cx) / cam.f
        y = (yy - cam.cy) / cam.f
        r2 = x * x + y * y
        k = 1 + cam.k1 * r2 + cam.k2 * r2 * r2
        mx = (x * k * cam.f + cam.cx).astype(np.float32)
        my = (y * k * cam.f + cam.cy).astype(np.float32)
        img = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        objects = cv2.remap(objects.astype(np.float32), mx, my, cv2.INTER_NEAREST,
                            borderMode=cv2.BORDER_REPLICATE).astype(np.int32)
    if rng.random() < 0.3:
        kern = np.zeros((9, 9), np.float32)
        a = float(rng.uniform(0, math.pi))
        ln = float(rng.uniform(1, 3))
        cv2.line(kern, (int(round(4 - ln * math.cos(a))), int(round(4 - ln * math.sin(a)))),
                 (int(round(4 + ln * math.cos(a))), int(round(4 + ln * math.sin(a)))), 1.0, 1)
        img = cv2.filter2D(img, -1, kern / kern.sum())
    else:
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.3, 1.5)))
    img = np.clip(img, 0, 1)
    shot, read = setup.noise
    img = img + np.sqrt(img * shot) * rng.standard_normal(img.shape).astype(np.float32)
    img += rng.normal(0, read, img.shape).astype(np.float32)
    out = np.clip(img * 255, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 93))])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert ok and decoded is not None
    return Scene3D(decoded, objects, placed, occluded, [mk.id for mk in board.markers if mk.id not in hidden],
                   hidden, cam.homography())


# --------------------------------------------------------------------------------------------
# datasets


def write_3d_dataset(root: Path, count: int, seed: int = 0, games: list[str] | None = None,
                     group_size: int = 8, max_tilt_deg: float = 45.0, maps: bool = False,
                     transient_tiles: bool = False) -> int:
    """Write ``count`` scenes (spread over ``games``, in groups of ``group_size`` sharing the
    pieces, camera and light; the first of a group is the start position, ``learn``) and
    labels.json under ``root`` (format: ``vision.synth.board_scenes``). With ``maps``, each
    scene's object map too (``objects/<n>.png``, 16-bit: 0 table and print, k the k-th entry
    of the scene's ``pieces``, 1000 arm, 1001 hand). With ``transient_tiles``, a Chop! Chop!
    tile other than cheese that a piece has just turned lies face up under it while its move is
    due (labelled ``face_up``; off by default, so the baseline's datasets stay as they were)."""
    root = Path(root)
    (root / "images").mkdir(parents=True, exist_ok=True)
    if maps:
        (root / "objects").mkdir(exist_ok=True)
    games = list(games or GAMES)
    rng = np.random.default_rng(seed + 31337)
    per_game = {g: count // len(games) + (1 if i < count % len(games) else 0) for i, g in enumerate(games)}
    scenes: list[dict[str, Any]] = []
    n = 0
    for game in games:
        board = board_for(game)
        made = 0
        group_no = 0
        while made < per_game[game]:
            left = per_game[game] - made
            size = min(group_size, left)
            if left - size == 1:  # no group of one (a learn scene alone): the last one grows
                size += 1
            setup = make_setup(board, rng, max_tilt_deg)
            layouts = group_layouts(board, size, rng, transient_tiles)
            for k, layout in enumerate(layouts):
                learn = k == 0
                scene = render_3d_scene(board, layout, setup, rng, arm=not learn and rng.random() < 0.3,
                                        person=rng.random() < (0.15 if learn else 0.3))
                name = f"images/{n:05d}.jpg"
                cv2.imwrite(str(root / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 97])
                scenes.append(scene_labels(board, name, f"{game}-3d-{group_no}", learn, layout, setup, scene))
                if maps:
                    obj_name = f"objects/{n:05d}.png"
                    cv2.imwrite(str(root / obj_name), scene.objects.astype(np.uint16))
                    scenes[-1]["objects"] = obj_name
                    scenes[-1]["pieces"] = [{"square": p.square, "token": p.token, "object": i + 1,
                                             "top_mm": [round(v, 2) for v in p.top]}
                                            for i, p in enumerate(scene.placed)]
                n += 1
                made += 1
            group_no += 1
    (root / "labels.json").write_text(json.dumps({"format": FORMAT, "scenes": scenes}, indent=1),
                                      encoding="utf-8")
    return n


def scene_labels(board: Board, name: str, group: str, learn: bool, layout: Layout, setup: Setup,
                 scene: Scene3D) -> dict[str, Any]:
    """One scene's entry in labels.json."""
    cam = setup.camera
    return {"file": name, "board": board.name, "group": group, "learn": learn, "renderer": "3d",
            "width": W, "height": H, "squares": dict(layout.squares),
            "unreportable": list(layout.unreportable),
            **({"face_up": dict(layout.face_up)} if layout.face_up else {}),
            "occluded": scene.occluded, "markers_visible": scene.markers_visible,
            "markers_hidden": scene.markers_hidden, "homography": homography_json(scene.homography),
            "camera": {"tilt_deg": round(cam.tilt_deg, 2), "f_px": round(cam.f, 2), "k1": round(cam.k1, 4),
                       "k2": round(cam.k2, 4)},
            "light": {"tint": setup.tint, "lights": len(setup.lights)}}
