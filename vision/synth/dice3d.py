"""Dice rendered in 3-D: a numpy ray caster (issue 29, twelfth round). A training and test tool,
never imported by the runtime reader.

Each die is a cube with rounded edges (the signed distance of a rounded box) whose pips are
painted on the face or engraved as spherical dents (the distance field carved by spheres), on
all six faces: opposite faces sum to 7 and 1-2-3 run counter-clockwise round their common corner
(the standard, "Western" handedness). Bodies are opaque, marbled (veins from a turbulent sine
field in the die's own coordinates) or translucent (the table seen through, tinted). A pinhole
camera looks at the table from 0-45 degrees off vertical, so side faces show; one or two
directional lights shade the dice (diffuse, specular, occlusion in the dents) and cast their
shadows on the table, with a dark contact line under each die. The table is a texture laid on
the plane z = 0 and seen in perspective: the project's own printed boards (vision.printing),
printed art made here (hexes, number tokens with dots, text, pictures), felt, wood, cloth and
desks (vision.synth.ground). Negatives are cube-like and round things: blank cubes, keyboard
keys with letters, number tokens, pawns and meeples, and a hand at the edge.

Labels are the datasets format (``{"value", "box"}`` per die): the value of the face whose
normal is nearest the table's up, the box around that face as the camera sees it. A die whose
top face is mostly hidden (another die, a hand) or cut by the frame gets ``"whole": True`` and the
box around all of it (scripts/train_dice.py then teaches neither way there).

``render_scene3d(rng)`` -> (BGR uint8, {"width", "height", "dice": [...]}); ``debug=True`` adds
"ids" (which object each pixel shows, 0 the table), "faces" (the value of the die face each
pixel shows: positive on a top face, negative on the others, 0 elsewhere) and "label_ids" (each
label's object in "ids"). A seed reproduces a scene exactly.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.synth.dice3d_art import die_style, glyph_decal, hand, place, texture
from vision.synth.ground import _hsv2bgr, _smooth_noise

# pip centres on a unit face (u, v in 0..1)
PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.27, 0.5), (0.27, 0.75), (0.73, 0.25), (0.73, 0.5), (0.73, 0.75)],
}
# the die's own faces: +x, -x, +y, -y, +z, -z carry these values. Opposite faces sum to 7, and at
# the corner (+x, +y, +z) the faces 2, 3, 1 follow each other counter-clockwise seen from outside
# (x, y, z is right-handed): 1-2-3 counter-clockwise, the standard handedness.
FACE_VALUES = (2, 5, 3, 4, 1, 6)
FACE_NORMALS = np.float32([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]])
MAX_STEPS = 56


@dataclass
class Params3D:
    """Ranges for one scene."""

    width: int = 640
    height: int = 640
    n_dice: tuple[int, int] = (1, 20)
    die_px: tuple[float, float] = (13.0, 110.0)  # top face side at the view's centre, pixels
    tilt_deg: tuple[float, float] = (0.0, 45.0)
    n_negatives: tuple[int, int] = (0, 6)
    hand_prob: float = 0.25
    marbled_prob: float = 0.25
    translucent_prob: float = 0.2
    engraved_prob: float = 0.5
    spot_prob: float = 0.0  # a scene lit by one strong lamp from above (glare on glossy faces, dark room)
    hidden_from: float = 0.2  # a top face more hidden than this is not a target ("whole")
    table: str = "any"  # what lies on the table: "any" (boards, printed art, tables), or "plain" (one colour)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Camera3D:
    """A pinhole camera at ``pos`` looking at the table; rows of ``rot`` are its x (right), y
    (down) and z (forward) axes in world coordinates."""

    pos: np.ndarray
    rot: np.ndarray
    f: float
    cx: float
    cy: float

    def project(self, pts: np.ndarray) -> np.ndarray:
        pc = (pts - self.pos) @ self.rot.T
        return np.stack([self.f * pc[:, 0] / pc[:, 2] + self.cx, self.f * pc[:, 1] / pc[:, 2] + self.cy], 1)

    def rays(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        """Unit ray directions (world) through the pixel centres of [x0, x1) x [y0, y1)."""
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        d = np.stack([(xx - self.cx) / self.f, (yy - self.cy) / self.f, np.ones_like(xx)], -1) @ self.rot
        return d / np.linalg.norm(d, axis=-1, keepdims=True)


def make_camera(tilt_deg: float, azimuth: float, dist: float, f: float, w: int, h: int) -> Camera3D:
    t = math.radians(tilt_deg)
    pos = np.float32([dist * math.sin(t) * math.cos(azimuth), dist * math.sin(t) * math.sin(azimuth),
                      dist * math.cos(t)])
    fwd = -pos / np.linalg.norm(pos)
    right = np.float32([-math.sin(azimuth), math.cos(azimuth), 0.0])
    down = np.cross(fwd, right)
    return Camera3D(pos, np.stack([right, down, fwd]).astype(np.float32), f, w / 2, h / 2)


# ------------------------------------------------------------------ objects


@dataclass
class Obj:
    """One thing on the table. ``rot`` turns its own coordinates into the world's; ``half`` its
    half sizes (world units; a die's side is ``2 * half[0]``); ``kind``: die, cube, key, token,
    pawn."""

    kind: str
    centre: np.ndarray
    rot: np.ndarray
    half: np.ndarray
    radius: float  # edge rounding (own units, fraction of the smallest half size)
    body: np.ndarray  # BGR 0..255
    pip: np.ndarray
    value: int = 0  # a die's top value
    engraved: bool = False
    marble: np.ndarray | None = None  # (vein colour, frequencies...) for marbled bodies
    alpha: float = 1.0  # < 1: translucent
    decal: np.ndarray | None = None  # a key's or token's top print (grey 0..1 mask)
    shine: tuple[float, float] = (0.3, 30.0)  # specular strength, exponent
    pip_r: float = 0.09
    faces: np.ndarray = field(default_factory=lambda: np.zeros((6, 6, 3), np.float32))  # pip centres (own units)


def _rotations() -> list[np.ndarray]:
    """The 24 turns of a cube (signed permutation matrices of determinant +1)."""
    out = []
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        for sx in (1, -1):
            for sy in (1, -1):
                for sz in (1, -1):
                    m = np.zeros((3, 3), np.float32)
                    for r, (c, s) in enumerate(zip(perm, (sx, sy, sz))):
                        m[r, c] = s
                    if np.linalg.det(m) > 0:
                        out.append(m)
    return out


ROTATIONS = _rotations()


def _yaw(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.float32([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _lean(rng: np.random.Generator, most_deg: float) -> np.ndarray:
    """A small turn about a horizontal axis (a die on cloth, against another)."""
    a = math.radians(rng.uniform(0, most_deg))
    ax = rng.uniform(0, 2 * math.pi)
    k = np.float32([math.cos(ax), math.sin(ax), 0])
    kx = np.float32([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return (np.eye(3, dtype=np.float32) + math.sin(a) * kx + (1 - math.cos(a)) * kx @ kx).astype(np.float32)


def pip_centres(pip_r: float, engraved: bool, depth: float) -> np.ndarray:
    """(6, 6, 4) per face: up to six pips (x, y, z, sphere radius) in the die's own units (side 1;
    unused slots far away). Engraved pips are spheres sunk ``depth`` into the face."""
    out = np.full((6, 6, 4), 50.0, np.float32)
    out[..., 3] = 0.01
    for f, (n, v) in enumerate(zip(FACE_NORMALS, FACE_VALUES)):
        a = int(np.argmax(np.abs(n)))
        u_ax, v_ax = [i for i in range(3) if i != a]
        for k, (u, vv) in enumerate(PIPS[v]):
            p = np.zeros(3, np.float32)
            p[a] = 0.5 * n[a]
            p[u_ax], p[v_ax] = u - 0.5, vv - 0.5
            if engraved:  # a sphere through the pip's rim, its lowest point ``depth`` under the face
                rs = (pip_r * pip_r + depth * depth) / (2 * depth)
                p[a] += n[a] * (rs - depth)
                out[f, k] = [*p, rs]
            else:
                out[f, k] = [*p, pip_r]
    return out


def make_die(rng: np.random.Generator, x: float, y: float, side: float, value: int, style: dict[str, Any]) -> Obj:
    turns = [r for r in ROTATIONS if (r @ FACE_NORMALS[FACE_VALUES.index(value)])[2] > 0.5]
    rot = _yaw(rng.uniform(0, 2 * math.pi)) @ _lean(rng, style.get("lean", 0.0)) @ turns[int(rng.integers(len(turns)))]
    half = np.float32([side / 2] * 3)
    engraved = bool(style["engraved"])
    pip_r = float(rng.uniform(0.07, 0.11)) * (1.25 if value == 1 and rng.random() < 0.3 else 1.0)
    o = Obj("die", np.float32([x, y, side / 2]), rot.astype(np.float32), half, float(rng.uniform(0.05, 0.12)),
            style["body"], style["pip"], value, engraved, style.get("marble"), style["alpha"],
            shine=(float(rng.uniform(0.05, 0.7)), float(rng.uniform(8, 80))), pip_r=pip_r)
    o.faces = pip_centres(pip_r, engraved, float(rng.uniform(0.02, 0.05)))
    return o


def make_negative(rng: np.random.Generator, x: float, y: float, side: float) -> Obj:
    """A thing that is not a die: a blank cube, a keyboard key, a number token, a pawn or meeple."""
    kind = ("cube", "key", "token", "pawn")[int(rng.choice(4, p=[0.3, 0.25, 0.3, 0.15]))]
    body = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(30, 250)).astype(np.float32)
    ink = np.float32([25, 25, 25]) if float(body.mean()) > 130 else np.float32([235, 235, 235])
    yaw = _yaw(rng.uniform(0, 2 * math.pi))
    decal = None
    if kind == "cube":
        half = np.float32([side / 2] * 3) * np.float32(rng.uniform(0.8, 1.2, 3))
        rr = float(rng.uniform(0.05, 0.2))
    elif kind == "key":
        half = np.float32([side / 2, side / 2, side * rng.uniform(0.15, 0.3)])
        rr = float(rng.uniform(0.15, 0.35))
        decal = glyph_decal(rng, "".join(rng.choice(list("ABCDEFGHJKLMNPRSTUVWXYZ1234567890"), int(rng.integers(1, 3)))))
    elif kind == "token":
        r = side * rng.uniform(0.5, 1.0)
        half = np.float32([r, r, side * rng.uniform(0.06, 0.2)])
        rr = 0.0
        body = _hsv2bgr(rng.uniform(10, 30), rng.uniform(20, 90), rng.uniform(170, 250)).astype(np.float32)
        ink = np.float32([30, 30, 30]) if rng.random() < 0.6 else np.float32([30, 30, 190])
        decal = glyph_decal(rng, str(int(rng.choice([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]))), dots=True)
    else:
        half = np.float32([side * 0.45, side * 0.45, side * rng.uniform(0.8, 1.4)])
        rr = 0.0
    z = float(half[2])
    o = Obj(kind, np.float32([x, y, z]), yaw, half, rr, body, ink, decal=decal,
            shine=(float(rng.uniform(0.05, 0.5)), float(rng.uniform(8, 60))))
    return o


# ------------------------------------------------------------------ distance fields


def _sdf(o: Obj, p: np.ndarray) -> np.ndarray:
    """Signed distance in the object's own units (p: N x 3, own coordinates scaled by half[0]*2)."""
    h = o.half / (2 * o.half[0])
    if o.kind == "token":
        d_r = np.hypot(p[:, 0], p[:, 1]) - h[0]
        d_z = np.abs(p[:, 2]) - h[2]
        return np.minimum(np.maximum(d_r, d_z), 0) + np.hypot(np.maximum(d_r, 0), np.maximum(d_z, 0))
    if o.kind == "pawn":  # a body of revolution: a cone-ish foot and a head
        q = p.copy()
        q[:, 2] += h[2]
        r = np.hypot(q[:, 0], q[:, 1])
        hh = 2 * h[2]
        body_r = h[0] * (1.0 - 0.55 * np.clip(q[:, 2] / hh, 0, 1))
        d_body = np.maximum(r - body_r, np.maximum(-q[:, 2], q[:, 2] - hh * 0.8)) * 0.8
        head = np.sqrt(r * r + (q[:, 2] - hh * 0.8) ** 2) - h[0] * 0.55
        return np.minimum(d_body, head)
    rr = o.radius * float(h.min())
    b = h - rr
    q = np.abs(p) - b
    d = np.linalg.norm(np.maximum(q, 0), axis=1) + np.minimum(q.max(1), 0) - rr
    if o.kind == "die" and o.engraved:
        f = _face_of(p)
        c = o.faces[f]  # N x 6 x 4
        ds = np.sqrt(((p[:, None, :] - c[..., :3]) ** 2).sum(-1)) - c[..., 3]
        d = np.maximum(d, -ds.min(1))
    return d


def _face_of(p: np.ndarray) -> np.ndarray:
    """Which of the die's faces (index into FACE_NORMALS) a point is nearest to."""
    a = np.argmax(np.abs(p), 1)
    s = p[np.arange(len(p)), a] < 0
    return (2 * a + s).astype(np.int64)


def _march(o: Obj, cam: Camera3D, x0: int, y0: int, x1: int, y1: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rays of the pixel rectangle into the object: (hit mask, depth, own-unit hit points, own-unit
    ray directions) for the rectangle's pixels (flattened)."""
    scale = float(2 * o.half[0])
    d = cam.rays(x0, y0, x1, y1).reshape(-1, 3)
    ro = ((cam.pos - o.centre) @ o.rot) / scale
    rd = d @ o.rot
    # start on the bounding sphere
    rad = float(np.linalg.norm(o.half / scale)) + 0.05
    b = rd @ ro
    c = float(ro @ ro) - rad * rad
    disc = b * b - c
    live = disc > 0
    t = np.where(live, -b - np.sqrt(np.maximum(disc, 0)), 0).astype(np.float32)
    t_far = np.where(live, -b + np.sqrt(np.maximum(disc, 0)), 0).astype(np.float32)
    hit = np.zeros(len(d), bool)
    idx = np.nonzero(live)[0]
    for _ in range(MAX_STEPS):
        if not len(idx):
            break
        p = ro + rd[idx] * t[idx, None]
        dist = _sdf(o, p)
        done = dist < 1e-3
        hit[idx[done]] = True
        t[idx] += np.where(done, 0, dist * 0.9)
        keep = ~done & (t[idx] < t_far[idx])
        idx = idx[keep]
    pts = ro + rd * t[:, None]
    return hit, t * scale, pts, rd


def _normals(o: Obj, p: np.ndarray) -> np.ndarray:
    e = 1e-3
    k = np.float32([[1, -1, -1], [-1, -1, 1], [-1, 1, -1], [1, 1, 1]])
    n = sum(k[i] * _sdf(o, p + e * k[i])[:, None] for i in range(4))
    return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-9)


def _albedo(o: Obj, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Surface colour (N x 3) and which face value each point shows (die; 0 otherwise)."""
    col = np.repeat(o.body[None], len(p), 0).astype(np.float32)
    vals = np.zeros(len(p), np.int32)
    if o.marble is not None:
        m = o.marble
        turb = sum(np.sin(p @ m[3 + 3 * i: 6 + 3 * i] + m[15 + i]) / (i + 1) for i in range(4))
        v = 0.5 + 0.5 * np.sin(p @ m[3:6] * 2 + 3.0 * turb)
        v = np.clip((v - 0.5) * 3 + 0.5, 0, 1)[:, None] ** 2 * m[19]
        col = col * (1 - v) + m[:3] * v
    if o.kind == "die":
        f = _face_of(p)
        vals = np.asarray(FACE_VALUES, np.int32)[f]
        c = o.faces[f]
        if o.engraved:  # paint fills the dent: inside the pip's rim on the face
            n = FACE_NORMALS[f]
            rel = p[:, None, :] - c[..., :3]
            inplane = rel - (rel * n[:, None, :]).sum(-1, keepdims=True) * n[:, None, :]
            dist = np.sqrt((inplane ** 2).sum(-1)).min(1) - o.pip_r
        else:
            dist = np.sqrt(((p[:, None, :] - c[..., :3]) ** 2).sum(-1)).min(1) - o.pip_r
        w = np.clip(0.5 - dist / 0.02, 0, 1)[:, None]
        col = col * (1 - w) + o.pip * w
    elif o.decal is not None:
        h = o.half / (2 * o.half[0])
        top = p[:, 2] > h[2] - 0.02
        u = np.clip((p[:, 0] / (2 * h[0]) + 0.5) * 63, 0, 63)
        v = np.clip((p[:, 1] / (2 * h[1]) + 0.5) * 63, 0, 63)
        ink = o.decal[v.astype(np.int32), u.astype(np.int32)] * top
        col = col * (1 - ink[:, None]) + o.pip * ink[:, None]
    return col, vals


# ------------------------------------------------------------------ scene


@dataclass
class Light:
    dir: np.ndarray  # towards the light, unit
    power: float


def _hull_fill(mask: np.ndarray, pts: np.ndarray, value: float = 1.0) -> None:
    if len(pts) >= 3 and np.all(np.isfinite(pts)):
        hull = cv2.convexHull(np.round(pts * 4).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, value, cv2.LINE_AA, shift=2)


def _corners(o: Obj) -> np.ndarray:
    s = np.float32([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * o.half
    return s @ o.rot.T + o.centre


def top_face(o: Obj) -> tuple[int, np.ndarray]:
    """The die's top value (the face whose normal is nearest the table's up) and that face's four
    corners in world coordinates."""
    ups = (o.rot @ FACE_NORMALS.T)[2]
    f = int(np.argmax(ups))
    n = FACE_NORMALS[f]
    a = int(np.argmax(np.abs(n)))
    u, v = [i for i in range(3) if i != a]
    e = 0.5 - 0.3 * o.radius
    pts = []
    for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        p = np.zeros(3, np.float32)
        p[a] = 0.5 * n[a]
        p[u], p[v] = su * e, sv * e
        pts.append(p)
    own = np.float32(pts) * (2 * o.half[0])
    return FACE_VALUES[f], own @ o.rot.T + o.centre


def render_scene3d(rng: np.random.Generator, params: Params3D | None = None, debug: bool = False
                   ) -> tuple[np.ndarray, dict[str, Any]]:
    p = params or Params3D()
    w, h = p.width, p.height
    # camera: the die's side is 1 world unit; its size at the view's centre sets the distance
    tilt = float(rng.uniform(*p.tilt_deg)) if rng.random() < 0.7 else float(rng.uniform(0, min(12.0, p.tilt_deg[1])))
    f = float(max(w, h) * rng.uniform(0.75, 1.5))
    px = math.exp(rng.uniform(math.log(p.die_px[0]), math.log(p.die_px[1])))
    dist = f / px
    cam = make_camera(tilt, rng.uniform(0, 2 * math.pi), dist, f, w, h)
    # the table seen by each pixel, and a texture covering that
    rays = cam.rays(0, 0, w, h)
    tt = -cam.pos[2] / np.minimum(rays[..., 2], -1e-3)
    table = cam.pos[:2] + rays[..., :2] * tt[..., None]
    lo, hi = table.reshape(-1, 2).min(0) - 2, table.reshape(-1, 2).max(0) + 2
    k = min(px * rng.uniform(0.6, 1.4), 2000.0 / float(max(hi - lo)))  # texture pixels per world unit
    th, tw = int((hi[1] - lo[1]) * k) + 1, int((hi[0] - lo[0]) * k) + 1
    tex = texture(rng, th, tw) if p.table == "any" else np.full((th, tw, 3), rng.uniform(60, 230, 3), np.float32)

    def to_tex(xy: np.ndarray) -> np.ndarray:  # table (x, y) -> texture (column, row), seen from above
        return np.stack([(xy[..., 0] - lo[0]) * k, (hi[1] - xy[..., 1]) * k], -1)
    # objects
    half_view = 0.5 * min(w, h) / px  # world units from the centre to the frame's nearer edge
    n = int(rng.integers(p.n_dice[0], p.n_dice[1] + 1))
    n = min(n, max(1, int((2 * half_view) ** 2 / 9)))
    base = 1.0
    sizes = [base * float(rng.uniform(0.85, 1.2)) for _ in range(n)]
    m_neg = int(rng.integers(p.n_negatives[0], p.n_negatives[1] + 1))
    neg_sizes = [float(rng.uniform(0.6, 1.8)) for _ in range(m_neg)]
    spots = place(rng, n + m_neg, half_view * 0.95, sizes + neg_sizes, float(rng.uniform(0, 0.5)))
    shared = die_style(rng, p) if rng.random() < 0.35 else None
    objs: list[Obj] = []
    for i, (x, y) in enumerate(spots):
        if i < n:
            style = shared if shared is not None else die_style(rng, p)
            objs.append(make_die(rng, x, y, sizes[i], int(rng.integers(1, 7)), style))
        else:
            objs.append(make_negative(rng, x, y, neg_sizes[i - n]))
    if p.n_negatives[1] > 0 and rng.random() < 0.15:  # a keyboard: a grid of keys
        gx, gy = rng.uniform(-half_view, half_view, 2)
        yaw = rng.uniform(0, 2 * math.pi)
        for r_ in range(3):
            for c_ in range(int(rng.integers(4, 9))):
                x = gx + math.cos(yaw) * c_ * 1.25 - math.sin(yaw) * r_ * 1.25
                y = gy + math.sin(yaw) * c_ * 1.25 + math.cos(yaw) * r_ * 1.25
                if all(math.hypot(x - o.centre[0], y - o.centre[1]) > 1.3 for o in objs):
                    key = make_negative(rng, x, y, 1.0)
                    if key.kind != "key":
                        continue
                    key.rot = _yaw(yaw)
                    objs.append(key)
    # lights
    lights = []
    spot = bool(p.spot_prob) and rng.random() < p.spot_prob  # (no draw when off: the bench's scenes as before)
    for _ in range(1 if spot or rng.random() < 0.6 else 2):
        el = math.radians(rng.uniform(45 if spot else 25, 85))
        az = rng.uniform(0, 2 * math.pi)
        lights.append(Light(np.float32([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)]),
                            float(rng.uniform(1.0, 1.5) if spot else rng.uniform(0.4, 0.9))))
    ambient = float(rng.uniform(0.12, 0.3) if spot else rng.uniform(0.25, 0.55))
    if spot:  # a lamp's glare: glossy faces
        for o in objs:
            o.shine = (float(rng.uniform(0.4, 1.0)), o.shine[1])
    tint = np.float32(rng.uniform(0.85, 1.15, 3))
    # the table's light: shadows drawn in texture space
    shade = np.full((th, tw), ambient, np.float32)
    contact = np.zeros((th, tw), np.float32)
    for o in objs:
        foot = _corners(o)[:, :2]
        _hull_fill(contact, to_tex(foot))
    contact = cv2.GaussianBlur(contact, (0, 0), max(0.8, 0.12 * k))
    shade *= 1 - 0.6 * np.clip(contact, 0, 1)
    for li in lights:
        sh = np.zeros((th, tw), np.float32)
        for o in objs:
            c = _corners(o)
            ground = c[:, :2] - c[:, 2:3] / li.dir[2] * li.dir[:2]
            _hull_fill(sh, to_tex(np.concatenate([ground, c[:, :2]])), 1.0 if o.alpha >= 1 else 1 - o.alpha)
        sh = cv2.GaussianBlur(sh, (0, 0), max(0.7, k * rng.uniform(0.03, 0.2)))
        shade += li.power * li.dir[2] * (1 - np.clip(sh, 0, 1))
    tex = tex * shade[..., None] * tint
    maps = to_tex(table).astype(np.float32)
    img = cv2.remap(tex, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    zbuf = np.full((h, w), np.inf, np.float32)
    ids = np.zeros((h, w), np.int32)
    faces = np.zeros((h, w), np.int32)
    top_alone: dict[int, int] = {}
    for i in sorted(range(len(objs)), key=lambda j: -float(np.linalg.norm(cam.pos - objs[j].centre))):
        o = objs[i]
        q = cam.project(_corners(o))
        x0, y0 = max(0, int(q[:, 0].min()) - 2), max(0, int(q[:, 1].min()) - 2)
        x1, y1 = min(w, int(q[:, 0].max()) + 3), min(h, int(q[:, 1].max()) + 3)
        if x1 <= x0 or y1 <= y0:
            continue
        hit, depth, pts, rd = _march(o, cam, x0, y0, x1, y1)
        if not hit.any():
            continue
        sel = np.nonzero(hit)[0]
        ph = pts[sel]
        nrm = _normals(o, ph)
        col, vals = _albedo(o, ph)
        nw = nrm @ o.rot.T
        light = np.full(len(sel), ambient, np.float32)
        spec = np.zeros(len(sel), np.float32)
        vdir = -(rd[sel] @ o.rot.T)
        for li in lights:
            lam = np.clip(nw @ li.dir, 0, None)
            light += li.power * lam
            hv = li.dir + vdir
            hv /= np.linalg.norm(hv, axis=1, keepdims=True)
            spec += li.power * np.clip((nw * hv).sum(1), 0, 1) ** o.shine[1] * (lam > 0)
        ao = np.clip(_sdf(o, ph + 0.04 * nrm) / 0.04, 0.35, 1.0)
        shaded = col * (light * ao)[:, None] * tint + 255 * o.shine[0] * spec[:, None]
        ry, rx = np.divmod(sel, x1 - x0)
        yy, xx = ry + y0, rx + x0
        if o.alpha < 1:  # the table through the die, bent a little and tinted
            shift = (nw[:, :2] * 3).astype(np.int32)
            behind = img[np.clip(yy + shift[:, 1], 0, h - 1), np.clip(xx + shift[:, 0], 0, w - 1)]
            pipw = (np.abs(col - o.pip).sum(1) < 30)[:, None]
            a = np.where(pipw, 1.0, o.alpha)
            shaded = shaded * a + behind * (o.body / 255.0) * 1.1 * (1 - a)
        # a die's top face: its flat part (a pip's dent or the rounded rim is not)
        up = ((nw[:, 2] > 0.9) & (vals == top_face(o)[0]) & (np.abs(ph).max(1) > 0.496)
              if o.kind == "die" else np.zeros(len(sel), bool))
        if o.kind == "die":
            top_alone[i] = int(up.sum())
        front = depth[sel] < zbuf[yy, xx]
        yy, xx = yy[front], xx[front]
        img[yy, xx] = shaded[front]
        zbuf[yy, xx] = depth[sel][front]
        ids[yy, xx] = i + 1
        faces[yy, xx] = np.where(up[front], vals[front], -vals[front]) if o.kind == "die" else 0
    # a hand at the edge
    hand_mask = np.zeros((h, w), np.uint8)
    if rng.random() < p.hand_prob:
        skin = _hsv2bgr(rng.uniform(5, 20), rng.uniform(50, 160), rng.uniform(80, 230)).tolist()
        side = int(rng.integers(4))
        s = float(rng.uniform(0.15, 0.35)) * min(w, h)
        cx, cy = [(rng.uniform(0, w), -s * 0.3), (w + s * 0.3, rng.uniform(0, h)),
                  (rng.uniform(0, w), h + s * 0.3), (-s * 0.3, rng.uniform(0, h))][side]
        ang = [180, 270, 0, 90][side] + rng.uniform(-30, 30)
        hand(hand_mask, cx, cy, s, ang)
        hm = cv2.GaussianBlur(hand_mask.astype(np.float32), (0, 0), 1.0)[..., None]
        shading = 0.75 + 0.5 * _smooth_noise(rng, h, w, 4)[..., None]
        img = img * (1 - hm) + np.float32(skin) * shading * hm
    # labels
    labels, label_ids = [], []
    for i, o in enumerate(objs):
        if o.kind != "die":
            continue
        value, corners = top_face(o)
        q = cam.project(corners)
        x1_, y1_, x2_, y2_ = float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())
        seen = int(((ids == i + 1) & (faces == value) & (hand_mask == 0)).sum())
        alone = top_alone.get(i, 0)
        inside = x1_ >= 0 and y1_ >= 0 and x2_ <= w and y2_ <= h
        if alone and inside and seen >= (1 - p.hidden_from) * alone:
            labels.append({"value": value, "box": [round(x1_, 1), round(y1_, 1), round(x2_, 1), round(y2_, 1)]})
            label_ids.append(i + 1)
        else:
            qa = cam.project(_corners(o))
            box = [float(np.clip(qa[:, 0].min(), 0, w)), float(np.clip(qa[:, 1].min(), 0, h)),
                   float(np.clip(qa[:, 0].max(), 0, w)), float(np.clip(qa[:, 1].max(), 0, h))]
            if box[2] > box[0] and box[3] > box[1]:
                labels.append({"value": value, "box": [round(v, 1) for v in box], "whole": True})
                label_ids.append(i + 1)
    out = _finish(img, rng)
    lab: dict[str, Any] = {"width": w, "height": h, "dice": labels}
    if debug:
        lab["ids"], lab["faces"], lab["label_ids"] = ids, faces, label_ids
    return out, lab


def _finish(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Camera: focus blur, sensor noise, JPEG."""
    s = rng.uniform(0, 1.3)
    if s > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), s)
    n = rng.uniform(0, 6)
    if n > 0.5:
        img = img + rng.normal(0, n, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


def write_dataset3d(out_dir: str | Path, n: int, seed: int = 0, params: Params3D | None = None) -> Path:
    """``n`` scenes as a dataset folder (labels.json + images/, split "test"), as bench/dice.py
    reads them: dice whose top face is hidden go under "hidden" (counted apart), not "dice"."""
    out = Path(out_dir)
    (out / "images").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    entries = []
    for i in range(n):
        img, lab = render_scene3d(rng, params)
        f = f"images/d3_{seed}_{i:05d}.png"
        cv2.imwrite(str(out / f), img)
        shown = [d for d in lab["dice"] if not d.get("whole")]
        hidden = [{"value": d["value"], "box": d["box"]} for d in lab["dice"] if d.get("whole")]
        entries.append({"file": f, "split": "test", "width": lab["width"], "height": lab["height"],
                        "dice": shown, "hidden": hidden})
    doc = {"name": "synth-dice3d", "source": f"vision.synth.dice3d seed={seed}", "license": "generated",
           "box": "x1,y1,x2,y2 in pixels around the top face of each die; value = pips on the top face",
           "images": entries}
    (out / "labels.json").write_text(json.dumps(doc, indent=1))
    return out
