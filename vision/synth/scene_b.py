"""A second family of 3-D board scenes, made differently from ``vision.synth.board3d``: a
held-out test for the board reader (training and evaluation only; never imported by the reader).

It shares only the rasteriser (``vision.synth.raster3d``), the shadow map of ``board3d`` and the
positions of play (``vision.synth.board3d_play``); what is in the scene and how it looks differ:

- pieces (``vision.synth.pieces_b``): rounded or wooden cut-out mice and cats, glossy plastic,
  painted wood or felt, colours sometimes taken from the board's own print; thin card or thick
  bevelled slabs with printed backs; a printed (not cut) opened hole; hexagonal, block or dome
  counters; cubes with rounded edges and chevron, triangle or ring arrows; peg or halma pawns;
- the print and the table (``vision.synth.scene_b_world``): another printer's saturation, hue
  and density, banding, cream paper; the paper bent and one edge curling up (up to ~4 mm);
  glossy paper mirroring the window as a broad glare and the lamp as a hot spot; dark wood,
  glass, patterned tablecloths, laminate; a cup, cards or a phone by the board casting shadows;
  a bare hand and forearm reaching in;
- light, in linear light: daylight from a window (cool, soft shadows, falling off across the
  table) and a warm lamp nearby (hard shadows, falling off with distance), one or both;
- the camera: a phone or webcam (16:9 or 4:3 frames, 55-85 degrees), barrel and tangential
  distortion, the board at any turn and tilt 0-45 degrees, sometimes partly off one edge;
  exposure errors, a grey-world auto white balance fooled by the table, vignetting, a tone
  curve, motion blur or defocus, luma and chroma noise, sharpening, JPEG.

Groups of scenes share the pieces, camera, light and table: the first is the game's start
(``learn``), the next follow seeded random legal play (with Chop! Chop!'s transient face-up
tiles). Labels: ``vision.synth.board_scenes``'s format, ``"renderer": "3d-b"``; the
homography is the pinhole one of the table plane (z = 0).

    write_b_dataset(root, count, seed=0, games=None, group_size=8) -> count
    make_setup_b(board, rng) -> SetupB;  render_b_scene(board, layout, setup, rng, hand=False) -> SceneB
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.boards import Board
from vision.boarddefaults import GAMES, board_for
from vision.synth.board import FORMAT
from vision.synth.board3d import ShadowMap
from vision.synth.board3d_play import Layout, group_layouts
from vision.synth.board_scenes import homography_json
from vision.synth.pieces3d import Placed
from vision.synth.pieces_b import piece_meshes_b, piece_set_b
from vision.synth.raster3d import Mesh, Pinhole, facing, first_hits, join, surface, tagged
from vision.synth.scene_b_world import (HAND, OBJECT, PRINT_PX_PER_MM, TABLE_ORIGIN_MM, Warp, hand_b, make_warp,
                                        print_look, table_b, table_things)

RENDERER = "3d-b"
FRAMES = [((1280, 720), 0.6), ((1280, 960), 0.25), ((1024, 768), 0.15)]


@dataclass
class CameraB(Pinhole):
    w: int
    h: int
    f: float
    cx: float
    cy: float
    R: np.ndarray
    C: np.ndarray
    k: tuple[float, float, float, float]
    """(k1, k2, p1, p2): a frame pixel's normalised d looks at pinhole d (1 + k1 r^2 + k2 r^4)
    plus the tangential terms; k1 > 0 is barrel distortion."""
    tilt_deg: float

    def undistort_map(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Normalised frame coordinates -> normalised pinhole coordinates."""
        k1, k2, p1, p2 = self.k
        r2 = x * x + y * y
        rad = 1 + k1 * r2 + k2 * r2 * r2
        return (x * rad + 2 * p1 * x * y + p2 * (r2 + 2 * x * x), y * rad + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y)

    def distort(self, px: np.ndarray) -> np.ndarray:
        """Where pinhole pixels appear in the frame."""
        u = (np.asarray(px, np.float64) - [self.cx, self.cy]) / self.f
        d = u.copy()
        with np.errstate(over="ignore", invalid="ignore"):  # far off the frame: no fixed point, NaN
            for _ in range(30):
                fx, fy = self.undistort_map(d[:, 0], d[:, 1])
                d = d + (u - np.column_stack([fx, fy])) * 0.8
        return d * self.f + [self.cx, self.cy]

    def homography(self) -> np.ndarray:
        K = np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1.0]])
        hm = K @ np.column_stack([self.R[:, 0], self.R[:, 1], -self.R @ self.C])
        return hm / hm[2, 2]

    def canvas(self) -> tuple[CameraB, int, int]:
        """The pinhole camera to render with: this one grown by the margins (ox, oy) that the
        frame's corners and edges look at through the lens (barrel distortion sees more)."""
        xs = np.concatenate([np.linspace(0, self.w - 1, 33), np.zeros(33), np.linspace(0, self.w - 1, 33), np.full(33, self.w - 1.0)])
        ys = np.concatenate([np.zeros(33), np.linspace(0, self.h - 1, 33), np.full(33, self.h - 1.0), np.linspace(0, self.h - 1, 33)])
        ux, uy = self.undistort_map((xs - self.cx) / self.f, (ys - self.cy) / self.f)
        px, py = ux * self.f + self.cx, uy * self.f + self.cy
        ox = int(math.ceil(max(0.0, -px.min(), px.max() - (self.w - 1)))) + 2
        oy = int(math.ceil(max(0.0, -py.min(), py.max() - (self.h - 1)))) + 2
        return (CameraB(self.w + 2 * ox, self.h + 2 * oy, self.f, self.cx + ox, self.cy + oy, self.R, self.C, self.k,
                        self.tilt_deg), ox, oy)

    def rays(self) -> np.ndarray:
        yy, xx = np.mgrid[0:self.h, 0:self.w].astype(np.float64)
        d = np.stack([(xx - self.cx) / self.f, (yy - self.cy) / self.f, np.ones_like(xx)], axis=2)
        return d @ self.R


def _corners(board: Board) -> np.ndarray:
    bw, bh = board.width_mm, board.height_mm
    return np.array([[0, 0, 0], [bw, 0, 0], [bw, bh, 0], [0, bh, 0]], np.float64)


def _markers_out(board: Board, cam: CameraB, margin: float = 2.0) -> int:
    out = 0
    for mk in board.markers:
        q = cam.distort(cam.project(np.column_stack([np.asarray(mk.corners(), np.float64), np.zeros(4)])))
        out += bool(q[:, 0].min() < margin or q[:, 1].min() < margin or q[:, 0].max() > cam.w - margin
                    or q[:, 1].max() > cam.h - margin)
    return out


def camera_b(board: Board, rng: np.random.Generator, max_tilt_deg: float = 45.0) -> CameraB:
    """A phone or webcam over the board: any turn, tilt up to ``max_tilt_deg``, the board
    filling 60-95 % of the frame, and in one group in six partly off one edge (at most one
    marker out of the frame)."""
    sizes = [s for s, _ in FRAMES]
    w, h = sizes[int(rng.choice(len(sizes), p=[p for _, p in FRAMES]))]
    hfov = math.radians(float(rng.uniform(55, 85)))
    f = (w / 2) / math.tan(hfov / 2)
    tilt_deg = float(rng.uniform(0, max_tilt_deg))
    tilt, azim = math.radians(tilt_deg), float(rng.uniform(-math.pi, math.pi))
    view = np.array([math.sin(tilt) * math.cos(azim), math.sin(tilt) * math.sin(azim), math.cos(tilt)])
    fwd = -view
    roll = float(rng.uniform(-math.pi, math.pi))  # the board at any turn in the frame
    ref = np.array([math.cos(roll), math.sin(roll), 0.0])
    x_ax = ref - fwd * float(ref @ fwd)
    x_ax = x_ax / np.linalg.norm(x_ax) if np.linalg.norm(x_ax) > 1e-6 else np.array([1.0, 0.0, 0.0])
    R = np.stack([x_ax, np.cross(x_ax, fwd), fwd])
    k1 = float(rng.uniform(0.0, 0.22))
    k = (k1, float(rng.uniform(-0.03, 0.05)), float(rng.normal(0, 0.004)), float(rng.normal(0, 0.004)))
    cx, cy = w / 2 + rng.normal(0, 10), h / 2 + rng.normal(0, 10)
    look = np.array([board.width_mm / 2, board.height_mm / 2, 0.0]) + [*rng.normal(0, 8, 2), 0.0]
    fill = float(rng.uniform(0.6, 0.95))
    lo, hi = 100.0, 5000.0
    for _ in range(40):
        d = (lo + hi) / 2
        cam = CameraB(w, h, f, cx, cy, R, look + view * d, k, tilt_deg)
        px = cam.distort(cam.project(_corners(board)))
        span = max(np.ptp(px[:, 0]) / w, np.ptp(px[:, 1]) / h)
        inside = px[:, 0].min() > 8 and px[:, 1].min() > 8 and px[:, 0].max() < w - 8 and px[:, 1].max() < h - 8
        lo, hi = (d, hi) if (span > fill or not inside) else (lo, d)
    cam = CameraB(w, h, f, cx, cy, R, look + view * hi, k, tilt_deg)
    if rng.random() < 1 / 6:  # a corner of the board off the frame: slide the camera sideways
        px = cam.distort(cam.project(_corners(board)))
        corner = int(rng.integers(0, 4))
        d = px[corner] - px.mean(axis=0)
        d /= max(1e-9, float(np.linalg.norm(d)))
        want = float(rng.uniform(0.04, 0.15)) * float(np.ptp(px, axis=0).max())  # px of the board past the edge
        mm_per_px = hi / f
        best = cam
        for step in np.linspace(0, 2.5, 26)[1:]:
            shift = -(d[0] * R[0] + d[1] * R[1]) * want * step * mm_per_px
            trial = CameraB(w, h, f, cx, cy, R, cam.C + shift, k, tilt_deg)
            if _markers_out(board, trial) > 1:
                break
            best = trial
            q = trial.distort(trial.project(_corners(board)))
            if max(-q[:, 0].min(), -q[:, 1].min(), q[:, 0].max() - w, q[:, 1].max() - h) >= want:
                break
        cam = best
    return cam


@dataclass
class LightB:
    direction: np.ndarray
    colour: np.ndarray
    """Linear BGR."""
    soft_mm: float
    position: np.ndarray | None = None
    """A lamp's position (mm): its light falls off with the square of the distance."""
    falloff_mm: float = 0.0
    """A window's light falls off across the table over this distance (0: none)."""


@dataclass
class SetupB:
    pieces: dict[str, Any]
    camera: CameraB
    lights: list[LightB]
    ambient: np.ndarray
    table: list[np.ndarray]
    """The table top's texture pyramid (1 px per mm, then halves)."""
    table_kind: str
    print_img: list[np.ndarray]
    """The print's pyramid (PRINT_PX_PER_MM, then halves)."""
    warp: Warp
    things: list[Mesh]
    gloss_paper: float
    """Strength of the window's and lamp's reflection on the paper (0: matt)."""
    window_size: tuple[float, float]
    glare_dir: np.ndarray
    """Where the mirrored window lies (unit vector from the paper): chosen so that its
    reflection falls on the board somewhere, as in the photos where it spoils a patch."""
    exposure: float
    awb: float
    wb_error: np.ndarray
    vignette: float
    noise: tuple[float, float, float]
    """(shot, read, chroma) noise."""
    sharpen: float
    contrast: float


def make_setup_b(board: Board, rng: np.random.Generator, max_tilt_deg: float = 45.0) -> SetupB:
    """Pieces, camera, light, table and print for one group of scenes."""
    print_img = print_look(board, rng)
    pieces = piece_set_b(board, rng, print_img ** (1 / 2.2))
    cam = camera_b(board, rng, max_tilt_deg)
    which = str(rng.choice(["window", "lamp", "both"], p=[0.3, 0.2, 0.5]))
    lights: list[LightB] = []
    centre = np.array([board.width_mm / 2, board.height_mm / 2, 0.0])
    if which in ("window", "both"):
        el, az = math.radians(float(rng.uniform(18, 60))), float(rng.uniform(-math.pi, math.pi))
        d = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
        day = np.array([1.0, 0.96, 0.86]) * rng.uniform(0.9, 1.1, 3)
        lights.append(LightB(d, day, float(rng.uniform(4, 14)), None, float(rng.uniform(250, 900))))
    if which in ("lamp", "both"):
        el, az = math.radians(float(rng.uniform(35, 80))), float(rng.uniform(-math.pi, math.pi))
        dist = float(rng.uniform(350, 900))
        pos = centre + dist * np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
        warm = np.array([0.45, 0.72, 1.0]) * rng.uniform(0.9, 1.1, 3)
        lights.append(LightB((pos - centre) / dist, warm * (1.0 if which == "lamp" else rng.uniform(0.4, 1.0)),
                             float(rng.uniform(0.2, 1.5)), pos))
    ambient = np.array([1.0, 0.92, 0.85]) * float(rng.uniform(0.08, 0.3))
    # exposure: the middle of the board's paper at 0.5-0.8 of full scale, then an error
    centre_light = ambient + sum(lt.colour * lt.direction[2] for lt in lights)
    scale = float(rng.uniform(0.5, 0.8)) / float(np.max(centre_light))
    for lt in lights:
        lt.colour = lt.colour * scale
    table, kind = table_b(rng)
    glossy = rng.random() < 0.4
    spot = np.array([rng.uniform(0.1, 0.9) * board.width_mm, rng.uniform(0.1, 0.9) * board.height_mm, 0.0])
    v = (cam.C - spot) / np.linalg.norm(cam.C - spot)
    glare_dir = np.array([-v[0], -v[1], v[2]]) + rng.normal(0, 0.05, 3)
    return SetupB(pieces, cam, lights, ambient * scale, pyramid(table), kind, pyramid(print_img), make_warp(board, rng),
                  table_things(board, rng), float(rng.uniform(0.1, 0.35)) if glossy else 0.0,
                  (float(rng.uniform(0.06, 0.15)), float(rng.uniform(0.08, 0.2))), glare_dir / np.linalg.norm(glare_dir),
                  float(np.exp(rng.normal(0, 0.22))), float(rng.uniform(0.3, 1.0)),
                  rng.uniform(0.9, 1.1, 3) * [1, 1 / 1.0, 1], float(rng.uniform(0.1, 0.45)),
                  (float(rng.uniform(0.001, 0.006)), float(rng.uniform(0.002, 0.008)), float(rng.uniform(0.005, 0.03))),
                  float(rng.uniform(0.0, 1.0)), float(rng.uniform(0.0, 0.6)))


@dataclass
class SceneB:
    image: np.ndarray
    objects: np.ndarray
    """Object number per frame pixel (0 table or print; k the k-th placed piece; HAND, OBJECT)."""
    placed: list[Placed]
    occluded: list[str]
    markers_visible: list[int]
    markers_hidden: list[int]
    homography: np.ndarray


def _sample(tex: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Bilinear samples (N x channels) of ``tex`` at pixel coordinates, reflected at the border."""
    out = []
    for a in range(0, len(x), 30000):  # cv2.remap's maps hold at most 32767 columns
        mx = x[a:a + 30000].astype(np.float32).reshape(1, -1)
        my = y[a:a + 30000].astype(np.float32).reshape(1, -1)
        out.append(cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT).reshape(-1, tex.shape[2]))
    return np.vstack(out).astype(np.float64) if out else np.zeros((0, tex.shape[2]))


def _sample_mip(levels: list[np.ndarray], x: np.ndarray, y: np.ndarray, footprint: np.ndarray) -> np.ndarray:
    """Samples of a texture pyramid (``levels[k]`` at half the resolution of ``levels[k - 1]``)
    at level-0 pixel coordinates, blending the two levels around ``footprint`` (texture pixels
    per frame pixel): far or grazing table shows blurred, not aliased into moire."""
    lv = np.clip(np.log2(np.maximum(footprint, 1e-6)), 0, len(levels) - 1)
    lo = np.floor(lv).astype(int)
    out = np.zeros((len(x), levels[0].shape[2]))
    for k in range(len(levels)):
        for pick, weight in ((lo == k, 1 - (lv - lo)), (lo + 1 == k, lv - lo)):
            if pick.any():
                sc = 0.5 ** k
                out[pick] += weight[pick, None] * _sample(levels[k], (x[pick] + 0.5) * sc - 0.5, (y[pick] + 0.5) * sc - 0.5)
    return out


def pyramid(tex: np.ndarray, n: int = 5) -> list[np.ndarray]:
    levels = [tex]
    for _ in range(n - 1):
        levels.append(cv2.pyrDown(levels[-1]))
    return levels


def _cover(mask: np.ndarray, quad: np.ndarray) -> float:
    h, w = mask.shape
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int), [w, h])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(poly, [np.int32(np.round(quad - [x0, y0])).reshape(-1, 1, 2)], 1)
    area = poly.sum()
    return float((mask[y0:y1, x0:x1] * poly).sum() / area) if area else 0.0


def _paper_hit(cam: CameraB, rays: np.ndarray, warp: Warp, board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Distance along each ray to the table or the (warped) paper, and whether it is the paper."""
    dz = rays[:, 2]
    down = dz < -1e-9
    safe = np.where(down, dz, -1.0)
    s = np.where(down, -cam.C[2] / safe, 1e9)
    for _ in range(4):  # the paper lies a few mm above the table: a few fixed-point steps
        p = cam.C + rays * s[:, None]
        on = (p[:, 0] >= 0) & (p[:, 0] < board.width_mm) & (p[:, 1] >= 0) & (p[:, 1] < board.height_mm)
        z = np.where(on, warp.z(p[:, 0], p[:, 1]), 0.0)
        s = np.where(down, (z - cam.C[2]) / safe, 1e9)
    p = cam.C + rays * s[:, None]
    on = (p[:, 0] >= 0) & (p[:, 0] < board.width_mm) & (p[:, 1] >= 0) & (p[:, 1] < board.height_mm)
    return s, on


def _window_falloff(lt: LightB, pts: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """A window's light across the table: brighter towards the window, 1 at the board's middle."""
    if lt.falloff_mm <= 0:
        return np.ones(len(pts))
    d = lt.direction[:2] / max(1e-9, float(np.linalg.norm(lt.direction[:2])))
    return np.clip(np.exp(((pts[:, :2] - centre[:2]) @ d) / lt.falloff_mm), 0.3, 2.5)


def _glare(setup: SetupB, normals: np.ndarray, view: np.ndarray) -> np.ndarray:
    """The window (a bright pane with a cross bar) and the lamp (a hot spot) mirrored by glossy
    paper: linear BGR per point, before the paper's gloss strength."""
    r = 2 * (normals * view).sum(axis=1, keepdims=True) * normals - view
    out = np.zeros_like(r)
    for lt in setup.lights:
        if lt.position is None:
            d = setup.glare_dir
            e1 = np.cross(d, [0.0, 0.0, 1.0])
            e1 /= max(1e-9, float(np.linalg.norm(e1)))
            e2 = np.cross(e1, d)
            u, v, fwd = r @ e1, r @ e2, r @ d
            hw, hh = setup.window_size
            pane = (np.clip((hw - np.abs(u)) / 0.03, 0, 1) * np.clip((hh - np.abs(v)) / 0.03, 0, 1) * (fwd > 0))
            bars = np.clip(np.minimum(np.abs(u), np.abs(v)) / 0.012, 0, 1)
            out += (pane * (0.25 + 0.75 * bars))[:, None] * lt.colour[None, :] * 1.6
        else:
            cos = np.clip(r @ lt.direction, 0, 1)
            out += (cos ** 600)[:, None] * lt.colour[None, :] * 6.0
    return out


def render_b_scene(board: Board, layout: Layout, setup: SetupB, rng: np.random.Generator,
                   hand: bool = False) -> SceneB:
    """One frame of ``layout`` under ``setup``, and what is where in it."""
    frame = setup.camera
    cam, ox, oy = frame.canvas()
    w, h = cam.w, cam.h
    placed: list[Placed] = []
    for sid, tokens, under in layout.stands:
        cx, cy = board.squares[sid].centre
        base = float(setup.warp.z(np.array([cx]), np.array([cy]))[0])
        placed += piece_meshes_b(board, sid, tokens, setup.pieces, rng, under, base)
    meshes = [tagged(p.mesh, i + 1) for i, p in enumerate(placed)] + list(setup.things)
    if hand:
        sids = list(board.squares)
        tx, ty = board.squares[sids[int(rng.integers(0, len(sids)))]].centre
        meshes.append(hand_b(board, rng, (float(tx), float(ty))))
    m = join(meshes)
    rays = cam.rays().reshape(-1, 3)
    s_plane, on_paper = _paper_hit(cam, rays, setup.warp, board)
    tri_buf, tri, on_mesh, pts, normals = first_hits(cam, m, rays, s_plane, (h, w))
    paper = on_paper & ~on_mesh
    normals[paper] = setup.warp.normal(pts[paper, 0], pts[paper, 1])
    albedo = np.zeros_like(pts)
    gloss = np.zeros(len(pts))
    table = ~on_mesh & ~on_paper
    # mm of the plane one frame pixel covers: the distance over the focal length, stretched at a grazing view
    mm_per_px = s_plane / cam.f / np.maximum(np.abs(rays[:, 2]) / np.linalg.norm(rays, axis=1), 0.15)
    albedo[table] = _sample_mip(setup.table, pts[table, 0] + TABLE_ORIGIN_MM, pts[table, 1] + TABLE_ORIGIN_MM,
                                mm_per_px[table])
    albedo[paper] = _sample_mip(setup.print_img, pts[paper, 0] * PRINT_PX_PER_MM - 0.5, pts[paper, 1] * PRINT_PX_PER_MM - 0.5,
                                mm_per_px[paper] * PRINT_PX_PER_MM)
    if on_mesh.any():
        p_m, n_m = surface(m, tri[on_mesh], cam.C, rays[on_mesh])
        pts[on_mesh], normals[on_mesh] = p_m, n_m
        albedo[on_mesh] = m.colour[tri[on_mesh]] ** 2.2
        gloss[on_mesh] = m.gloss[tri[on_mesh]]
        felt = np.zeros(len(pts), bool)
        felt[on_mesh] = (gloss[on_mesh] == 0) & (m.obj[tri[on_mesh]] < HAND)
        if felt.any():  # felt: a fine fibre speckle
            albedo[felt] *= (1 + 0.3 * (rng.random(int(felt.sum())) - 0.5))[:, None]
    view = facing(cam.C, pts, normals)
    above = ShadowMap(np.array([0.0, 0.0, 1.0]), m, board, 1.0)  # contact darkening under pieces
    hmap = np.where(np.isfinite(above.depth), np.clip(above.depth / 8.0, 0, 1), 0.0).astype(np.float32)
    uv = (pts @ above.basis[:2].T - above.origin) / above.res
    ao = 1 - 0.5 * _sample(cv2.GaussianBlur(hmap, (0, 0), 2.0)[..., None], uv[:, 0], uv[:, 1])[:, 0]
    ao = np.where(on_mesh, 0.6 + 0.4 * np.clip(normals[:, 2], 0, 1), ao)
    light = setup.ambient[None, :] * ao[:, None]
    spec = np.zeros_like(pts)
    centre = np.array([board.width_mm / 2, board.height_mm / 2, 0.0])
    for lt in setup.lights:
        lit = ShadowMap(lt.direction, m, board).lit(pts, lt.soft_mm, rng)
        if lt.position is not None:
            to_l = lt.position - pts
            dist = np.linalg.norm(to_l, axis=1, keepdims=True)
            L = to_l / dist
            atten = (float(np.linalg.norm(lt.position - centre)) / dist[:, 0]) ** 2
        else:
            L = np.broadcast_to(lt.direction, pts.shape)
            atten = _window_falloff(lt, pts, centre)
        lam = np.clip((normals * L).sum(axis=1), 0, None)
        light += (lam * lit * atten)[:, None] * lt.colour[None, :]
        half = view + L
        half /= np.maximum(np.linalg.norm(half, axis=1, keepdims=True), 1e-9)
        sp = 1.5 * gloss * np.clip((normals * half).sum(axis=1), 0, 1) ** (8 + 120 * gloss) * lit * atten * (lam > 0)
        spec += sp[:, None] * lt.colour[None, :]
    img = albedo * light + spec
    shiny = np.where(paper, setup.gloss_paper, 0.0) + np.where(table & (setup.table_kind == "glass"), 0.5, 0.0)
    if shiny.any():
        img += shiny[:, None] * _glare(setup, normals, view)
    img = img.reshape(h, w, 3).astype(np.float32)
    objects = np.where(tri_buf >= 0, m.obj[np.maximum(tri_buf, 0)], 0).astype(np.int32)
    occluded, hidden = _hidden(board, frame, cam, objects)
    return SceneB(finish(img, setup, rng, ox, oy), _distorted(objects, frame, ox, oy), placed, occluded,
                  [mk.id for mk in board.markers if mk.id not in hidden], hidden, frame.homography())


def _hidden(board: Board, cam: CameraB, canvas: CameraB, objects: np.ndarray) -> tuple[list[str], list[int]]:
    """Squares a hand hides over 15 %; markers anything covers over 2 % or out of the frame
    (``objects`` in the pinhole ``canvas``)."""
    hand = (objects == HAND).astype(np.float32)
    anything = (objects > 0).astype(np.float32)
    flat = [np.column_stack([np.asarray(sq.polygon, np.float64), np.zeros(len(sq.polygon))]) for sq in board.squares.values()]
    occluded = sorted(sid for sid, poly in zip(board.squares, flat) if _cover(hand, canvas.project(poly)) > 0.15)
    hidden: list[int] = []
    for mk in board.markers:
        flat_mk = np.column_stack([np.asarray(mk.corners(), np.float64), np.zeros(4)])
        seen = cam.distort(cam.project(flat_mk))
        if (_cover(anything, canvas.project(flat_mk)) > 0.02 or seen[:, 0].min() < 2 or seen[:, 1].min() < 2
                or seen[:, 0].max() > cam.w - 2 or seen[:, 1].max() > cam.h - 2):
            hidden.append(mk.id)
    return occluded, hidden


def _lens_maps(cam: CameraB, ox: int, oy: int) -> tuple[np.ndarray, np.ndarray]:
    """For each frame pixel, where it looks in the pinhole canvas grown by (ox, oy)."""
    yy, xx = np.mgrid[0:cam.h, 0:cam.w].astype(np.float64)
    ux, uy = cam.undistort_map((xx - cam.cx) / cam.f, (yy - cam.cy) / cam.f)
    return (ux * cam.f + cam.cx + ox).astype(np.float32), (uy * cam.f + cam.cy + oy).astype(np.float32)


def _distorted(objects: np.ndarray, cam: CameraB, ox: int, oy: int) -> np.ndarray:
    mx, my = _lens_maps(cam, ox, oy)
    return cv2.remap(objects.astype(np.float32), mx, my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT).astype(np.int32)


def finish(img: np.ndarray, setup: SetupB, rng: np.random.Generator, ox: int, oy: int) -> np.ndarray:
    """A phone's or webcam's pipeline from linear light (the pinhole canvas, grown by ox, oy)
    to a JPEG-decoded BGR frame: lens, exposure, vignetting, grey-world white balance, blur,
    noise, tone curve, chroma noise, sharpening, JPEG."""
    cam = setup.camera
    mx, my = _lens_maps(cam, ox, oy)
    img = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    h, w = img.shape[:2]
    # auto exposure: centre-weighted mean luminance metered to mid grey (a dark table
    # over-exposes the paper, a white cloth under-exposes it), times the camera's error
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    weight = np.exp(-(((xx - w / 2) / (0.35 * w)) ** 2 + ((yy - h / 2) / (0.35 * h)) ** 2))
    lum = img @ np.array([0.11, 0.59, 0.3], np.float32)
    metered = float((lum * weight).sum() / weight.sum())
    img = img * np.float32(np.clip(0.2 / max(metered, 1e-4), 0.7, 1.8) * setup.exposure)
    rr = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    img *= (1 - setup.vignette * rr)[..., None]
    means = img.reshape(-1, 3).mean(axis=0) + 1e-6
    gains = np.clip((means.mean() / means) ** setup.awb, 0.8, 1.25) * setup.wb_error
    img = (img * gains.astype(np.float32)[None, None, :]).astype(np.float32)
    if rng.random() < 0.3:  # shake (a bumped stand, a phone held by hand): a short straight smear
        ln = int(rng.integers(2, 7))
        kern = np.zeros((ln | 1, ln | 1), np.float32)
        a = float(rng.uniform(0, math.pi))
        c = (ln | 1) // 2
        cv2.line(kern, (int(round(c - c * math.cos(a))), int(round(c - c * math.sin(a)))),
                 (int(round(c + c * math.cos(a))), int(round(c + c * math.sin(a)))), 1.0, 1)
        img = cv2.filter2D(img, -1, kern / kern.sum())
    else:
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.4)))
    shot, read, chroma = setup.noise
    img = np.clip(img, 0, None)
    img = img + np.sqrt(img * shot) * rng.standard_normal(img.shape).astype(np.float32)
    img = img + rng.normal(0, read, img.shape).astype(np.float32)
    x = np.clip(img, 0, 1) ** (1 / 2.2)
    x = (1 - setup.contrast) * x + setup.contrast * (x * x * (3 - 2 * x))  # an S-shaped tone curve
    ycc = cv2.cvtColor(x.astype(np.float32), cv2.COLOR_BGR2YCrCb)
    for ch in (1, 2):  # chroma noise: blotchy, at a quarter of the resolution
        blot = rng.normal(0, chroma, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
        ycc[..., ch] += cv2.resize(blot, (w, h), interpolation=cv2.INTER_LINEAR)
    x = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)
    if setup.sharpen > 0.05:
        x = x + setup.sharpen * (x - cv2.GaussianBlur(x, (0, 0), 1.3))
    out = np.clip(x * 255 + 0.5, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 93))])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert ok and decoded is not None
    return decoded


# --------------------------------------------------------------------------------------------
# datasets


def write_b_dataset(root: Path, count: int, seed: int = 0, games: list[str] | None = None, group_size: int = 8,
                    max_tilt_deg: float = 45.0) -> int:
    """Write ``count`` scenes (spread over ``games``; groups of ``group_size`` sharing pieces,
    camera, light and table, the first the start, ``learn``) and labels.json under ``root``
    (format: ``vision.synth.board_scenes``)."""
    root = Path(root)
    (root / "images").mkdir(parents=True, exist_ok=True)
    games = list(games or GAMES)
    rng = np.random.default_rng(seed + 90210)
    per_game = {g: count // len(games) + (1 if i < count % len(games) else 0) for i, g in enumerate(games)}
    scenes: list[dict[str, Any]] = []
    n = 0
    for game in games:
        board = board_for(game)
        made = group_no = 0
        while made < per_game[game]:
            left = per_game[game] - made
            size = min(group_size, left) + (1 if left - min(group_size, left) == 1 else 0)
            setup = make_setup_b(board, rng, max_tilt_deg)
            for k, layout in enumerate(group_layouts(board, size, rng, transient=True)):
                scene = render_b_scene(board, layout, setup, rng, hand=k > 0 and rng.random() < 0.35)
                name = f"images/{n:05d}.jpg"
                cv2.imwrite(str(root / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 97])
                scenes.append(scene_b_labels(board, name, f"{game}-3db-{group_no}", k == 0, layout, setup, scene))
                n += 1
                made += 1
            group_no += 1
    (root / "labels.json").write_text(json.dumps({"format": FORMAT, "scenes": scenes}, indent=1), encoding="utf-8")
    return n


def scene_b_labels(board: Board, name: str, group: str, learn: bool, layout: Layout, setup: SetupB,
                   scene: SceneB) -> dict[str, Any]:
    """One scene's entry in labels.json."""
    cam = setup.camera
    return {"file": name, "board": board.name, "group": group, "learn": learn, "renderer": RENDERER,
            "width": cam.w, "height": cam.h, "squares": dict(layout.squares),
            "unreportable": list(layout.unreportable),
            **({"face_up": dict(layout.face_up)} if layout.face_up else {}),
            "occluded": scene.occluded, "markers_visible": scene.markers_visible,
            "markers_hidden": scene.markers_hidden, "homography": homography_json(scene.homography),
            "camera": {"tilt_deg": round(cam.tilt_deg, 2), "f_px": round(cam.f, 2),
                       "k": [round(v, 4) for v in cam.k]},
            "light": {"lights": ["lamp" if lt.position is not None else "window" for lt in setup.lights],
                      "glossy_paper": round(setup.gloss_paper, 2), "exposure": round(setup.exposure, 3)},
            "table": setup.table_kind, "pieces": {k: v for k, v in setup.pieces.items() if isinstance(v, str)}}
