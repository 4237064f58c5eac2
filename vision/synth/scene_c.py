"""A third family of 3-D board scenes, made differently from ``vision.synth.board3d`` and
``vision.synth.scene_b``: an unseen check of the board reader (training and evaluation only;
never imported by the reader).

It shares only the rasteriser (``raster3d``), ``board3d``'s shadow map and the positions of play
(``board3d_play``); what is seen differs:

- the camera: a Raspberry Pi camera on a stand beside the board (1640x1232, 1920x1080 or
  1280x720), a normal lens (mild barrel) or a wide one (an equidistant fisheye blend, strong
  compression at the edges), tilt 0-45 degrees; rolling-shutter skew when the stand is bumped;
- light: a ceiling lamp nearly straight above (the camera's stand and a player's head cast
  soft shadows across the board), a fluorescent tube with a green tint, or a dim evening lamp
  (high gain: heavy noise and the ISP's smearing denoise); LED or tube flicker banding;
- the print and paper (``scene_c_world``): a black-and-white laser print or a faded inkjet;
  folded in quarters (creases, tented) or laminated (a sharp mirror image of the ceiling light);
- the table: textures cut from the dice photo sets' train pictures, or an oilcloth; a drinking
  glass, a stray die, the stand's foot beside the board; a child's hand in a striped sleeve;
- pieces (``pieces_c``): lathe-turned figures, meeples or flat discs with stickers, in matte
  paint, lacquer, metallic paint or translucent acrylic; greyboard tiles with a paw print back,
  a cheese wedge, a dark shaft of a hole; cubes with an arrow on a paper sticker.

Groups share pieces, camera, light and table: the first is the start (``learn``), the rest
follow seeded random legal play (with Chop! Chop!'s transient face-up tiles). Labels are
``board_scenes``' format with ``"renderer": "3d-c"``; the homography is the pinhole one of the
table plane (z = 0).

    write_c_dataset(root, count, seed=0, games=None, group_size=8) -> count
    make_setup_c(board, rng) -> SetupC;  render_c_scene(board, layout, setup, rng, hand=False) -> SceneC
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
from vision.synth.pieces_c import piece_meshes_c, piece_set_c
from vision.synth.raster3d import Mesh, facing, first_hits, join, surface, tagged
from vision.synth.scene_c_camera import CameraC, _hidden, _lens_maps, camera_c, finish
from vision.synth.scene_c_world import (OBJECT, PRINT_PX_PER_MM, TABLE_ORIGIN_MM, Paper, child_hand, creases,
                                        head_caster, make_paper, print_c, stand_casters, table_c, things_c)

RENDERER = "3d-c"
MATERIAL_IDS = {"matte": 0, "lacquer": 1, "metal": 2, "acrylic": 3}


@dataclass
class LampC:
    position: np.ndarray
    colour: np.ndarray
    """Linear BGR at the board's middle."""
    soft_mm: float


@dataclass
class SetupC:
    pieces: dict[str, Any]
    camera: CameraC
    light_kind: str
    lamps: list[LampC]
    ambient: np.ndarray
    table: np.ndarray
    table_kind: str
    print_img: np.ndarray
    print_kind: str
    paper: Paper
    things: list[Mesh]
    thing_materials: list[str]
    casters: list[Mesh]
    """Shadow-only meshes (the camera and its arm, a head): cast shadows, never drawn."""
    panel: tuple[float, float]
    """Half sizes (mm) of the ceiling fixture a laminated board mirrors (at the first lamp)."""
    gain: float
    """The sensor's analogue gain: noise grows with it."""
    flicker: tuple[float, float, float]
    """(amplitude, period in rows, phase) of flicker banding (0 amplitude: none)."""
    wb: np.ndarray
    shading: float
    """Colour lens shading (the Pi camera's tinted corners)."""
    jpeg: int
    rolling: float
    """Largest rolling-shutter skew (px across the frame) when the stand is bumped."""


def make_setup_c(board: Board, rng: np.random.Generator, max_tilt_deg: float = 45.0, lens: bool = True,
                 frame: tuple[int, int] | None = None) -> SetupC:
    """Pieces, camera, light, table and print for one group of scenes."""
    pieces = piece_set_c(board, rng)
    cam = camera_c(board, rng, max_tilt_deg, lens, frame)
    centre = np.array([board.width_mm / 2, board.height_mm / 2, 0.0])
    kind = str(rng.choice(["ceiling", "tube", "evening"], p=[0.45, 0.3, 0.25]))
    lamps: list[LampC] = []
    if kind == "ceiling":
        pos = centre + [*rng.normal(0, 220, 2), float(rng.uniform(1300, 2100))]
        col = np.array([0.9, 0.97, 1.0]) if rng.random() < 0.5 else np.array([0.6, 0.82, 1.0])
        lamps.append(LampC(pos, col, float(rng.uniform(3, 10))))
        ambient = np.array([1.0, 0.97, 0.95]) * float(rng.uniform(0.15, 0.35))
    elif kind == "tube":  # a fluorescent tube: two points along it, green-tinted
        mid = centre + [*rng.normal(0, 250, 2), float(rng.uniform(1200, 1800))]
        along = float(rng.uniform(0, math.pi))
        tint = np.array([float(rng.uniform(0.8, 0.92)), 1.0, float(rng.uniform(0.75, 0.9))])
        for t in (-1, 1):
            lamps.append(LampC(mid + 300 * t * np.array([math.cos(along), math.sin(along), 0.0]), tint / 2, 4.0))
        ambient = tint * float(rng.uniform(0.2, 0.35))
    else:  # a dim evening room: one warm lamp off to the side, a little bluish light from elsewhere
        el, az = math.radians(float(rng.uniform(25, 60))), float(rng.uniform(-math.pi, math.pi))
        dist = float(rng.uniform(500, 1100))
        pos = centre + dist * np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
        lamps.append(LampC(pos, np.array([0.35, 0.65, 1.0]), float(rng.uniform(0.5, 2.0))))
        ambient = np.array([0.9, 0.75, 0.6]) * float(rng.uniform(0.06, 0.15))
    print_kind = "laser" if rng.random() < 0.5 else "faded"
    laminated = rng.random() < 0.35
    paper = make_paper(board, rng, laminated)
    print_img = print_c(board, rng, print_kind)
    if not laminated:
        print_img = creases(print_img, rng, print_kind == "laser")
    table, table_kind = table_c(rng)
    things, mats = things_c(board, rng)
    casters, stand = stand_casters(board, cam.C, rng)
    things.append(stand)
    mats.append("metal")
    if kind == "ceiling" or rng.random() < 0.4:
        casters.append(head_caster(board, rng))
    dim = kind == "evening"
    gain = float(rng.uniform(6, 14)) if dim else float(rng.uniform(1, 4))
    flick = (float(rng.uniform(0.03, 0.1)), float(rng.uniform(60, 220)), float(rng.uniform(0, 2 * math.pi))) \
        if (kind == "tube" or rng.random() < 0.3) else (0.0, 1.0, 0.0)
    wb = rng.uniform(0.88, 1.12, 3) * (np.array([1.0, 1.06, 1.0]) if kind == "tube" else 1.0)
    return SetupC(pieces, cam, kind, lamps, ambient, table, table_kind, print_img, print_kind, paper, things, mats,
                  casters, (float(rng.uniform(60, 300)), float(rng.uniform(40, 120))), gain, flick, wb,
                  float(rng.uniform(0.0, 0.12)), int(rng.integers(60, 94)), float(rng.uniform(4, 18)))


@dataclass
class SceneC:
    image: np.ndarray
    objects: np.ndarray
    """Object number per frame pixel (0 table or print; k the k-th placed piece; HAND, OBJECT)."""
    placed: list[Placed]
    occluded: list[str]
    markers_visible: list[int]
    markers_hidden: list[int]
    homography: np.ndarray
    skew: float


def _sample(tex: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    out = []
    for a in range(0, len(x), 30000):  # remap's maps hold at most 32767 columns
        mx = x[a:a + 30000].astype(np.float32).reshape(1, -1)
        my = y[a:a + 30000].astype(np.float32).reshape(1, -1)
        out.append(cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT).reshape(-1, tex.shape[2]))
    return np.vstack(out).astype(np.float64) if out else np.zeros((0, tex.shape[2]))


def _plane_hit(cam: CameraC, rays: np.ndarray, paper: Paper, board: Board) -> tuple[np.ndarray, np.ndarray]:
    """Distance along each ray to the table or the paper (a few mm above it), and whether on the paper."""
    dz = rays[:, 2]
    safe = np.where(dz < -1e-9, dz, -1.0)
    s = -cam.C[2] / safe
    b = paper.border if paper.laminated else 0.0
    for _ in range(3):
        p = cam.C + rays * s[:, None]
        on = (p[:, 0] >= -b) & (p[:, 0] < board.width_mm + b) & (p[:, 1] >= -b) & (p[:, 1] < board.height_mm + b)
        z = np.where(on, paper.z(p[:, 0], p[:, 1]) + (0.6 if paper.laminated else 0.0), 0.0)
        s = (z - cam.C[2]) / safe
    p = cam.C + rays * s[:, None]
    on = (p[:, 0] >= -b) & (p[:, 0] < board.width_mm + b) & (p[:, 1] >= -b) & (p[:, 1] < board.height_mm + b)
    return s, on


def _light(setup: SetupC, pts: np.ndarray, normals: np.ndarray, shadows: list[ShadowMap], rng: np.random.Generator,
           board: Board, ao: np.ndarray, plane_lit: tuple[np.ndarray, list[np.ndarray]] | None = None
           ) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """(diffuse light, per lamp its direction and what reaches the points) at points, linear BGR
    (``plane_lit``: which points lie on the table or paper, and each lamp's light on a GRID_MM grid
    of the plane to look them up in)."""
    centre = np.array([board.width_mm / 2, board.height_mm / 2, 0.0])
    diff = setup.ambient[None, :] * ao[:, None]
    spec_dirs: list[tuple[np.ndarray, np.ndarray]] = []
    for li, (lamp, sm) in enumerate(zip(setup.lamps, shadows)):
        to_l = lamp.position - pts
        dist = np.linalg.norm(to_l, axis=1, keepdims=True)
        L = to_l / dist
        atten = (float(np.linalg.norm(lamp.position - centre)) / dist[:, 0]) ** 2
        lit = sm.lit(pts, lamp.soft_mm, rng) if plane_lit is None else _lit_mixed(sm, lamp, pts, plane_lit[0], plane_lit[1][li], rng)
        lam = np.clip((normals * L).sum(axis=1), 0, None)
        diff = diff + (lam * lit * atten)[:, None] * lamp.colour[None, :]
        spec_dirs.append((L, (lit * atten * (lam > 0))[:, None] * lamp.colour[None, :]))
    return diff, spec_dirs


GRID_MARGIN = 260.0
GRID_MM = 1.5


def plane_lit_maps(setup: SetupC, board: Board, shadows: list[ShadowMap], rng: np.random.Generator) -> list[np.ndarray]:
    """Each lamp's unshadowed fraction on a GRID_MM grid of the table and paper around the board
    (the plane's pixels look it up instead of filtering the shadow map each)."""
    xs = np.arange(-GRID_MARGIN, board.width_mm + GRID_MARGIN, GRID_MM)
    ys = np.arange(-GRID_MARGIN, board.height_mm + GRID_MARGIN, GRID_MM)
    gx, gy = np.meshgrid(xs, ys)
    on = (gx >= 0) & (gx < board.width_mm) & (gy >= 0) & (gy < board.height_mm)
    gz = np.where(on, setup.paper.z(gx, gy), 0.0)
    pts = np.column_stack([gx.ravel(), gy.ravel(), gz.ravel()])
    return [sm.lit(pts, lamp.soft_mm, rng).reshape(gx.shape).astype(np.float32) for lamp, sm in zip(setup.lamps, shadows)]


def _lit_mixed(sm: ShadowMap, lamp: LampC, pts: np.ndarray, plane: np.ndarray, grid: np.ndarray,
               rng: np.random.Generator) -> np.ndarray:
    out = np.ones(len(pts))
    gx, gy = (pts[:, 0] + GRID_MARGIN) / GRID_MM, (pts[:, 1] + GRID_MARGIN) / GRID_MM
    inside = plane & (gx >= 0) & (gy >= 0) & (gx < grid.shape[1] - 1) & (gy < grid.shape[0] - 1)
    out[inside] = _sample(grid[..., None], gx[inside], gy[inside])[:, 0]
    rest = ~plane
    if rest.any():
        out[rest] = sm.lit(pts[rest], lamp.soft_mm, rng)
    return out


def render_c_scene(board: Board, layout: Layout, setup: SetupC, rng: np.random.Generator,
                   hand: bool = False, skew: bool | None = None) -> SceneC:
    """One frame of ``layout`` under ``setup``, and what is where in it (``skew``: rolling shutter;
    None: drawn, more likely with a hand moving)."""
    frame = setup.camera
    cam, ox, oy = frame.canvas()
    w, h = cam.w, cam.h
    placed: list[Placed] = []
    mats: list[str] = []
    for sid, tokens, under in layout.stands:
        cx, cy = board.squares[sid].centre
        base = float(setup.paper.z(np.array([cx]), np.array([cy]))[0]) + (0.6 if setup.paper.laminated else 0.0)
        for p, mat in piece_meshes_c(board, sid, tokens, setup.pieces, rng, under, base):
            placed.append(p)
            mats.append(mat)
    meshes = [tagged(p.mesh, i + 1) for i, p in enumerate(placed)] + list(setup.things)
    mat_of = {i + 1: MATERIAL_IDS[m] for i, m in enumerate(mats)}
    if hand:
        sids = list(board.squares)
        tx, ty = board.squares[sids[int(rng.integers(0, len(sids)))]].centre
        meshes.append(child_hand(board, rng, (float(tx), float(ty))))
    m = join(meshes)
    tri_mat = np.array([mat_of.get(int(o), 0) for o in m.obj], np.int64) if len(m.f) else np.zeros(0, np.int64)
    thing_start = sum(len(x.f) for x in meshes[:len(placed)])
    for mesh_t, mat in zip(setup.things, setup.thing_materials):  # things carry their own material
        tri_mat[thing_start:thing_start + len(mesh_t.f)] = MATERIAL_IDS[mat]
        thing_start += len(mesh_t.f)
    glass = (m.obj == OBJECT) & (tri_mat == MATERIAL_IDS["acrylic"])  # a drinking glass: its faint shadow left out
    keep = ~glass
    shadow_mesh = join([Mesh(m.v, m.f[keep], m.n, m.colour[keep], m.obj[keep], m.gloss[keep]), *setup.casters])
    rays = cam.rays().reshape(-1, 3)
    s_plane, on_paper = _plane_hit(cam, rays, setup.paper, board)
    tri_buf, tri, on_mesh, pts, normals = first_hits(cam, m, rays, s_plane, (h, w))
    paper = on_paper & ~on_mesh
    normals[paper] = setup.paper.normal(pts[paper, 0], pts[paper, 1])
    albedo = _plane_albedo(setup, board, pts, on_paper)
    gloss = np.where(on_paper, 0.5 if setup.paper.laminated else 0.02, 0.3 if setup.table_kind == "oilcloth" else 0.03)
    mat_px = np.full(len(pts), -1, np.int64)
    behind = pts.copy()
    if on_mesh.any():
        p_m, n_m = surface(m, tri[on_mesh], cam.C, rays[on_mesh])
        pts[on_mesh], normals[on_mesh] = p_m, n_m
        albedo[on_mesh] = m.colour[tri[on_mesh]] ** 2.2
        gloss[on_mesh] = m.gloss[tri[on_mesh]]
        mat_px[on_mesh] = tri_mat[tri[on_mesh]]
    view = facing(cam.C, pts, normals)
    above = ShadowMap(np.array([0.0, 0.0, 1.0]), m, board, 1.0)
    hmap = np.where(np.isfinite(above.depth), np.clip(above.depth / 10.0, 0, 1), 0.0).astype(np.float32)
    uv = (pts @ above.basis[:2].T - above.origin) / above.res
    ao = 1 - 0.45 * _sample(cv2.GaussianBlur(hmap, (0, 0), 2.5)[..., None], uv[:, 0], uv[:, 1])[:, 0]
    ao = np.where(on_mesh, 0.55 + 0.45 * np.clip(normals[:, 2], 0, 1), ao)
    shadows = [ShadowMap(_unit(lp.position - [board.width_mm / 2, board.height_mm / 2, 0.0]), shadow_mesh, board)
               for lp in setup.lamps]
    grids = plane_lit_maps(setup, board, shadows, rng)
    diff, spec_dirs = _light(setup, pts, normals, shadows, rng, board, ao, (~on_mesh, grids))
    metal = mat_px == MATERIAL_IDS["metal"]
    kd = np.where(metal, 0.35, 1.0)
    img = albedo * diff * kd[:, None]
    for L, amount in spec_dirs:
        half = view + L
        half /= np.maximum(np.linalg.norm(half, axis=1, keepdims=True), 1e-9)
        nh = np.clip((normals * half).sum(axis=1), 0, 1)
        sp = 1.4 * gloss * nh ** (10 + 200 * gloss)
        tint = np.where(metal[:, None], albedo * 3.0, 1.0)  # metallic paint: the highlight takes the paint's colour
        img += sp[:, None] * amount * tint
    if setup.paper.laminated:
        img += _mirrored_fixture(setup, pts, normals, view, paper)
    acrylic = (mat_px == MATERIAL_IDS["acrylic"]) & (gloss > 0.3)  # a sticker on acrylic stays opaque
    if acrylic.any():  # see-through: what lies behind, refracted a little, tinted, more opaque at a grazing look
        idx = np.nonzero(acrylic)[0]
        bpts = behind[idx] + np.column_stack([normals[idx, :2] * -3.0, np.zeros(len(idx))])
        b_alb = _plane_albedo(setup, board, bpts, np.ones(len(idx), bool) & on_paper[idx])
        b_diff, _ = _light(setup, bpts, np.tile([0.0, 0.0, 1.0], (len(idx), 1)), shadows, rng, board, np.ones(len(idx)),
                           (np.ones(len(idx), bool), grids))
        cos_v = np.abs((normals[idx] * view[idx]).sum(axis=1))
        alpha = 0.35 + 0.55 * (1 - cos_v) ** 2
        see = b_alb * b_diff * (0.55 + 0.45 * albedo[idx] / np.maximum(albedo[idx].max(axis=1, keepdims=True), 1e-3))
        img[idx] = alpha[:, None] * img[idx] + (1 - alpha[:, None]) * see
    img = img.reshape(h, w, 3).astype(np.float32)
    objects = np.where(tri_buf >= 0, m.obj[np.maximum(tri_buf, 0)], 0).astype(np.int32)
    occluded, hidden = _hidden(board, frame, cam, objects)
    sk = 0.0
    bumped = skew if skew is not None else bool(rng.random() < (0.5 if hand else 0.1))
    if bumped:
        sk = float(rng.uniform(0.4, 1.0)) * setup.rolling * (1 if rng.random() < 0.5 else -1)
    mx, my = _lens_maps(frame, ox, oy, sk)
    image = finish(img, setup, rng, mx, my)
    obj_frame = cv2.remap(objects.astype(np.float32), mx, my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
    return SceneC(image, obj_frame.astype(np.int32), placed, occluded, [mk.id for mk in board.markers if mk.id not in hidden],
                  hidden, frame.homography(), sk)


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, np.float64)
    return v / max(1e-12, float(np.linalg.norm(v)))


def _plane_albedo(setup: SetupC, board: Board, pts: np.ndarray, on_paper: np.ndarray) -> np.ndarray:
    """The print's or the table's colour (linear) at plane points; a laminate's border is clear plastic."""
    out = np.zeros_like(pts)
    inside = on_paper & (pts[:, 0] >= 0) & (pts[:, 0] < board.width_mm) & (pts[:, 1] >= 0) & (pts[:, 1] < board.height_mm)
    tab = ~inside
    out[tab] = _sample(setup.table, pts[tab, 0] + TABLE_ORIGIN_MM, pts[tab, 1] + TABLE_ORIGIN_MM)
    border = on_paper & ~inside
    out[border] = out[border] * 0.85 + 0.1
    out[inside] = _sample(setup.print_img, pts[inside, 0] * PRINT_PX_PER_MM - 0.5, pts[inside, 1] * PRINT_PX_PER_MM - 0.5)
    return out


def _mirrored_fixture(setup: SetupC, pts: np.ndarray, normals: np.ndarray, view: np.ndarray,
                      paper: np.ndarray) -> np.ndarray:
    """A laminated board mirrors the ceiling fixture: a bright sharp-edged panel (or, for the
    evening lamp, a small bright shade) where the reflected ray meets it."""
    out = np.zeros_like(pts)
    idx = np.nonzero(paper)[0]
    if not len(idx):
        return out
    r = 2 * (normals[idx] * view[idx]).sum(axis=1, keepdims=True) * normals[idx] - view[idx]
    for lamp in setup.lamps[:1] if setup.light_kind != "tube" else setup.lamps:
        up = r[:, 2] > 1e-3
        t = np.where(up, (lamp.position[2] - pts[idx, 2]) / np.maximum(r[:, 2], 1e-3), -1.0)
        hit = pts[idx, :2] + r[:, :2] * t[:, None] - lamp.position[:2]
        hx, hy = setup.panel if setup.light_kind != "evening" else (70.0, 70.0)
        if setup.light_kind == "tube":
            hx, hy = 160.0, 18.0
        inside = np.clip((hx - np.abs(hit[:, 0])) / 6.0, 0, 1) * np.clip((hy - np.abs(hit[:, 1])) / 6.0, 0, 1) * up
        out[idx] += inside[:, None] * lamp.colour[None, :] * 0.6 * (3.0 if setup.light_kind == "tube" else 1.0)
    return out


# --------------------------------------------------------------------------------------------
# datasets


def _plan(count: int, games: list[str], group_size: int) -> list[tuple[str, int, int, int]]:
    """(game, group number, scenes in it, index of its first scene in the game) for every group."""
    per_game = {g: count // len(games) + (1 if i < count % len(games) else 0) for i, g in enumerate(games)}
    plan = []
    for game in games:
        made = group_no = 0
        while made < per_game[game]:
            left = per_game[game] - made
            size = min(group_size, left) + (1 if left - min(group_size, left) == 1 else 0)
            plan.append((game, group_no, size, made))
            made += size
            group_no += 1
    return plan


def write_c_group(root: Path, game: str, group_no: int, size: int, first: int, seed: int,
                  max_tilt_deg: float = 45.0, frame: tuple[int, int] | None = None) -> list[dict[str, Any]]:
    """Render one group (its own random stream: a group written alone is the same as in a set)
    into ``root``/images; its labels."""
    done = Path(root) / "groups" / f"{game}-{group_no}.json"
    if done.is_file():  # written before (an interrupted run goes on where it stopped)
        return list(json.loads(done.read_text(encoding="utf-8")))
    board = board_for(game)
    rng = np.random.default_rng([seed, 31337, GAMES.index(game) if game in GAMES else len(GAMES), group_no])
    setup = make_setup_c(board, rng, max_tilt_deg, frame=frame)
    out = []
    for k, layout in enumerate(group_layouts(board, size, rng, transient=True)):
        scene = render_c_scene(board, layout, setup, rng, hand=k > 0 and rng.random() < 0.3)
        name = f"images/{game}-{first + k:04d}.jpg"
        cv2.imwrite(str(Path(root) / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 97])
        out.append(scene_c_labels(board, name, f"{game}-3dc-{group_no}", k == 0, layout, setup, scene))
    done.parent.mkdir(parents=True, exist_ok=True)
    done.write_text(json.dumps(out), encoding="utf-8")
    return out


def _group_job(args: tuple[Path, str, int, int, int, int, float, tuple[int, int] | None]) -> list[dict[str, Any]]:
    import os

    os.nice(5)
    cv2.setNumThreads(1)
    return write_c_group(*args)


def write_c_dataset(root: Path, count: int, seed: int = 0, games: list[str] | None = None, group_size: int = 8,
                    max_tilt_deg: float = 45.0, jobs: int = 1, frame: tuple[int, int] | None = None) -> int:
    """Write ``count`` scenes (spread over ``games``; groups of ``group_size`` sharing pieces,
    camera, light and table, the first the start, ``learn``) and labels.json under ``root``
    (``jobs`` groups rendered at once in worker processes; the same scenes whatever ``jobs``;
    ``frame``: every frame this size, for quick tests). Each group's labels are kept in
    groups/<game>-<n>.json as it is done, and a group found there is not rendered again."""
    root = Path(root)
    (root / "images").mkdir(parents=True, exist_ok=True)
    plan = _plan(count, list(games or GAMES), group_size)
    args = [(root, g, no, size, first, seed, max_tilt_deg, frame) for g, no, size, first in plan]
    # the games' groups taken in turn (a run stopped early has some of every game in groups/)
    order = sorted(range(len(plan)), key=lambda i: (plan[i][1], plan[i][0]))
    groups: dict[int, list[dict[str, Any]]] = {}
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for i, got in zip(order, pool.imap(_group_job, [args[i] for i in order], chunksize=1)):
                groups[i] = got
    else:
        for i in order:
            groups[i] = write_c_group(*args[i])
    scenes = [sc for i in range(len(plan)) for sc in groups[i]]
    (root / "labels.json").write_text(json.dumps({"format": FORMAT, "scenes": scenes}, indent=1), encoding="utf-8")
    return len(scenes)


def scene_c_labels(board: Board, name: str, group: str, learn: bool, layout: Layout, setup: SetupC,
                   scene: SceneC) -> dict[str, Any]:
    """One scene's entry in labels.json."""
    cam = setup.camera
    return {"file": name, "board": board.name, "group": group, "learn": learn, "renderer": RENDERER,
            "width": cam.w, "height": cam.h, "squares": dict(layout.squares),
            "unreportable": list(layout.unreportable),
            **({"face_up": dict(layout.face_up)} if layout.face_up else {}),
            "occluded": scene.occluded, "markers_visible": scene.markers_visible,
            "markers_hidden": scene.markers_hidden, "homography": homography_json(scene.homography),
            "camera": {"tilt_deg": round(cam.tilt_deg, 2), "f_px": round(cam.f, 2), "fisheye": round(cam.a, 3),
                       "skew_px": round(scene.skew, 2)},
            "light": {"kind": setup.light_kind, "gain": round(setup.gain, 2), "flicker": round(setup.flicker[0], 3)},
            "print": setup.print_kind, "paper": "laminated" if setup.paper.laminated else "folded",
            "table": setup.table_kind,
            "pieces": {k: v for k, v in setup.pieces.items() if isinstance(v, str)}}


def main() -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Write a dataset of the third 3-D scene family (labels.json + images).")
    ap.add_argument("root", type=Path)
    ap.add_argument("--count", type=int, default=96)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", default="", help="comma-separated games (default: all four)")
    ap.add_argument("--jobs", type=int, default=1, help="groups rendered at once (the same scenes whatever the number)")
    a = ap.parse_args()
    n = write_c_dataset(a.root, a.count, a.seed, a.games.split(",") if a.games else None, jobs=a.jobs)
    print(f"{n} scenes in {a.root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
