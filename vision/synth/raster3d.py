"""Triangle meshes and a software z-buffer for ``vision.synth.board3d`` (numpy and OpenCV on the
CPU: no GPU, no OpenGL context; the same seed gives the same pixels on every machine).

A :class:`Mesh` is world-space triangles (millimetres; x right and y down the board, z up) with
per-vertex normals, a colour per triangle and an object number (which piece, the arm, ...).
:func:`rasterise` keeps, per pixel, the nearest triangle of any projection whose depth is
affine in the image (``1/z`` for the pinhole camera, the distance along the light for an
orthographic shadow map); the surface point, its normal and colour are then recovered per
pixel from the triangle's plane (:func:`surface`), so shading is per pixel (deferred).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np


class Pinhole:
    """A pinhole camera's projection for the 3-D families' camera dataclasses, which hold ``f``,
    ``cx``, ``cy`` (pixels), ``R`` (world to camera rotation) and ``C`` (the camera's centre, mm);
    each family adds its own lens on top."""

    f: float
    cx: float
    cy: float
    R: np.ndarray
    C: np.ndarray

    def cam(self, pts: np.ndarray) -> np.ndarray:
        """World points in the camera's frame."""
        return (self.R @ (np.asarray(pts, np.float64).reshape(-1, 3) - self.C).T).T

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Pinhole pixels of world points (before any lens distortion)."""
        p = self.cam(pts)
        z = np.maximum(p[:, 2], 1e-6)
        return np.column_stack([self.f * p[:, 0] / z + self.cx, self.f * p[:, 1] / z + self.cy])


@dataclass
class Mesh:
    v: np.ndarray
    """(N, 3) vertices, world mm."""
    f: np.ndarray
    """(M, 3) vertex indices."""
    n: np.ndarray
    """(N, 3) unit vertex normals."""
    colour: np.ndarray
    """(M, 3) BGR in 0..1 per triangle."""
    obj: np.ndarray
    """(M,) object number per triangle."""
    gloss: np.ndarray
    """(M,) specular strength per triangle (0: matt paper, 0.3: shiny plastic)."""


def mesh(v: np.ndarray, f: np.ndarray, colour: tuple[float, float, float], smooth: bool,
         gloss: float = 0.15) -> Mesh:
    """A one-colour mesh; ``smooth`` shares normals between neighbouring triangles, otherwise
    every triangle is flat (its vertices are duplicated)."""
    v = np.asarray(v, np.float64)
    f = np.asarray(f, np.int64)
    if not smooth:
        v = v[f].reshape(-1, 3)
        f = np.arange(len(v)).reshape(-1, 3)
    fn = np.cross(v[f[:, 1]] - v[f[:, 0]], v[f[:, 2]] - v[f[:, 0]])
    n = np.zeros_like(v)
    for k in range(3):
        np.add.at(n, f[:, k], fn)
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    col = np.tile(np.asarray(colour, np.float64) / 255.0, (len(f), 1))
    return Mesh(v, f, n, col, np.zeros(len(f), np.int64), np.full(len(f), gloss))


def join(meshes: list[Mesh]) -> Mesh:
    """One mesh of many (indices shifted)."""
    if not meshes:
        return Mesh(np.zeros((0, 3)), np.zeros((0, 3), np.int64), np.zeros((0, 3)), np.zeros((0, 3)),
                    np.zeros(0, np.int64), np.zeros(0))
    off = np.cumsum([0] + [len(m.v) for m in meshes[:-1]])
    return Mesh(np.vstack([m.v for m in meshes]), np.vstack([m.f + o for m, o in zip(meshes, off)]),
                np.vstack([m.n for m in meshes]), np.vstack([m.colour for m in meshes]),
                np.concatenate([m.obj for m in meshes]), np.concatenate([m.gloss for m in meshes]))


def moved(m: Mesh, rot_z: float = 0.0, offset: tuple[float, float, float] = (0.0, 0.0, 0.0),
          scale: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> Mesh:
    """The mesh scaled (about the origin), turned about z, then moved."""
    c, s = math.cos(rot_z), math.sin(rot_z)
    rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    sc = np.asarray(scale, np.float64)
    v = (m.v * sc) @ rot.T + np.asarray(offset, np.float64)
    n = (m.n / sc) @ rot.T
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    return Mesh(v, m.f.copy(), n, m.colour.copy(), m.obj.copy(), m.gloss.copy())


def tagged(m: Mesh, obj: int) -> Mesh:
    return Mesh(m.v, m.f, m.n, m.colour, np.full(len(m.f), obj, np.int64), m.gloss)


# --------------------------------------------------------------------------------------------
# primitives (z up, standing on z = 0 unless given)


def revolve(profile: list[tuple[float, float]], colour: tuple[float, float, float], n: int = 24,
            gloss: float = 0.2, cap: bool = True) -> Mesh:
    """A smooth solid of revolution about z from (radius, height) pairs, bottom to top."""
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    verts = [np.column_stack([r * np.cos(a), r * np.sin(a), np.full(n, z)]) for r, z in profile]
    v = np.vstack(verts)
    faces = []
    for k in range(len(profile) - 1):
        for i in range(n):
            j = (i + 1) % n
            a0, a1, b0, b1 = k * n + i, k * n + j, (k + 1) * n + i, (k + 1) * n + j
            faces += [(a0, a1, b1), (a0, b1, b0)]
    side = mesh(v, np.array(faces), colour, smooth=True, gloss=gloss)
    if not cap or profile[-1][0] < 1e-6:
        return side
    top_ring = verts[-1]
    centre = np.array([[0.0, 0.0, profile[-1][1]]])
    tv = np.vstack([top_ring, centre])
    tf = np.array([(i, (i + 1) % n, n) for i in range(n)])
    return join([side, mesh(tv, tf, colour, smooth=False, gloss=gloss)])


def ellipsoid(rx: float, ry: float, rz: float, colour: tuple[float, float, float], n: int = 16,
              gloss: float = 0.25) -> Mesh:
    """A smooth ellipsoid centred on the origin."""
    rings = max(6, n // 2)
    prof = [(math.sin(t), -math.cos(t)) for t in np.linspace(1e-3, math.pi - 1e-3, rings)]
    m = revolve(prof, colour, n, gloss, cap=False)
    return moved(m, scale=(rx, ry, rz))


def box(hx: float, hy: float, z0: float, z1: float, colour: tuple[float, float, float],
        gloss: float = 0.08) -> Mesh:
    """An axis-aligned box (flat faces)."""
    x = [-hx, hx]
    y = [-hy, hy]
    z = [z0, z1]
    v = np.array([[x[i & 1], y[(i >> 1) & 1], z[i >> 2]] for i in range(8)], np.float64)
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    f = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    return mesh(v, np.array(f), colour, smooth=False, gloss=gloss)


def polygon(pts: np.ndarray, z: float, colour: tuple[float, float, float], gloss: float = 0.05) -> Mesh:
    """A flat convex polygon (a fan) at height ``z``, facing up."""
    pts = np.asarray(pts, np.float64)
    v = np.column_stack([pts, np.full(len(pts), z)])
    f = np.array([(0, i, i + 1) for i in range(1, len(pts) - 1)])
    return mesh(v, f, colour, smooth=False, gloss=gloss)


def frame_with_hole(half: float, radius: float, z0: float, z1: float, colour: tuple[float, float, float],
                    hole_colour: tuple[float, float, float], n: int = 32) -> Mesh:
    """A square slab (side 2 * half) with a round hole cut through it."""
    a = np.linspace(0, 2 * math.pi, n, endpoint=False) + math.pi / n
    circ = np.column_stack([radius * np.cos(a), radius * np.sin(a)])
    sq = np.column_stack([np.cos(a), np.sin(a)])
    sq = sq / np.max(np.abs(sq), axis=1, keepdims=True) * half
    parts = []
    for z in (z0, z1):
        v = np.vstack([np.column_stack([circ, np.full(n, z)]), np.column_stack([sq, np.full(n, z)])])
        f = [t for i in range(n) for j in [(i + 1) % n] for t in ((i, j, n + j), (i, n + j, n + i))]
        parts.append(mesh(v, np.array(f), colour, smooth=False))
    wall = np.vstack([np.column_stack([circ, np.full(n, z0)]), np.column_stack([circ, np.full(n, z1)])])
    f = [t for i in range(n) for j in [(i + 1) % n] for t in ((i, j, n + j), (i, n + j, n + i))]
    parts.append(mesh(wall, np.array(f), hole_colour, smooth=True, gloss=0.0))
    outer = box(half, half, z0, z1, colour)
    keep = np.abs(outer.n[outer.f[:, 0], 2]) < 0.5  # only the slab's four sides
    parts.append(Mesh(outer.v, outer.f[keep], outer.n, outer.colour[keep], outer.obj[keep], outer.gloss[keep]))
    return join(parts)


# --------------------------------------------------------------------------------------------
# rasterisation


def rasterise(xy: np.ndarray, q: np.ndarray, ids: np.ndarray, qbuf: np.ndarray, idbuf: np.ndarray) -> None:
    """Draw triangles into ``qbuf``/``idbuf`` (in place): pixel (x, y) takes triangle ``ids[t]``
    where it lies inside ``xy[t]`` (3 x 2, pixel centres at integers) and its affine depth
    ``q`` (larger is nearer) beats what is there."""
    h, w = qbuf.shape
    lo = np.floor(xy.min(axis=1)).astype(np.int64)
    hi = np.ceil(xy.max(axis=1)).astype(np.int64)
    lo = np.maximum(lo, 0)
    hi[:, 0] = np.minimum(hi[:, 0], w - 1)
    hi[:, 1] = np.minimum(hi[:, 1], h - 1)
    area = ((xy[:, 1, 0] - xy[:, 0, 0]) * (xy[:, 2, 1] - xy[:, 0, 1])
            - (xy[:, 2, 0] - xy[:, 0, 0]) * (xy[:, 1, 1] - xy[:, 0, 1]))
    ok = (hi[:, 0] >= lo[:, 0]) & (hi[:, 1] >= lo[:, 1]) & (np.abs(area) > 1e-9)
    span = hi - lo
    small = ok & (span[:, 0] < SMALL) & (span[:, 1] < SMALL)
    todo = np.nonzero(ok & ~small)[0]
    small_ids = np.nonzero(small)[0]
    for a in range(0, len(small_ids), 8192):
        _small(xy, q, ids, small_ids[a:a + 8192], lo, hi, area, qbuf, idbuf)
    for t in todo:
        x0, y0 = lo[t]
        x1, y1 = hi[t]
        p = xy[t]
        xs = np.arange(x0, x1 + 1, dtype=np.float64)[None, :]
        ys = np.arange(y0, y1 + 1, dtype=np.float64)[:, None]
        a = area[t]
        w0 = ((p[1, 0] - xs) * (p[2, 1] - ys) - (p[2, 0] - xs) * (p[1, 1] - ys)) / a
        w1 = ((p[2, 0] - xs) * (p[0, 1] - ys) - (p[0, 0] - xs) * (p[2, 1] - ys)) / a
        w2 = 1.0 - w0 - w1
        inside = (w0 >= -1e-9) & (w1 >= -1e-9) & (w2 >= -1e-9)
        if not inside.any():
            continue
        qq = w0 * q[t, 0] + w1 * q[t, 1] + w2 * q[t, 2]
        sub = qbuf[y0:y1 + 1, x0:x1 + 1]
        upd = inside & (qq > sub)
        sub[upd] = qq[upd]
        idbuf[y0:y1 + 1, x0:x1 + 1][upd] = ids[t]


SMALL = 8
"""Triangles whose bounding box is under SMALL x SMALL pixels are drawn together, vectorised."""


def _small(xy: np.ndarray, q: np.ndarray, ids: np.ndarray, sel: np.ndarray, lo: np.ndarray, hi: np.ndarray,
           area: np.ndarray, qbuf: np.ndarray, idbuf: np.ndarray) -> None:
    """Draw the small triangles ``sel`` at once: every pixel of each one's box is tested, the
    nearest per pixel wins (``np.maximum.at``), then the winners write their ids."""
    w = qbuf.shape[1]
    oy, ox = np.divmod(np.arange(SMALL * SMALL), SMALL)
    xs = lo[sel, 0][:, None] + ox[None, :]
    ys = lo[sel, 1][:, None] + oy[None, :]
    valid = (xs <= hi[sel, 0][:, None]) & (ys <= hi[sel, 1][:, None])
    p = xy[sel]
    a = area[sel][:, None]
    fx, fy = xs.astype(np.float64), ys.astype(np.float64)
    w0 = ((p[:, 1, 0:1] - fx) * (p[:, 2, 1:2] - fy) - (p[:, 2, 0:1] - fx) * (p[:, 1, 1:2] - fy)) / a
    w1 = ((p[:, 2, 0:1] - fx) * (p[:, 0, 1:2] - fy) - (p[:, 0, 0:1] - fx) * (p[:, 2, 1:2] - fy)) / a
    w2 = 1.0 - w0 - w1
    inside = valid & (w0 >= -1e-9) & (w1 >= -1e-9) & (w2 >= -1e-9)
    if not inside.any():
        return
    qq = (w0 * q[sel, 0:1] + w1 * q[sel, 1:2] + w2 * q[sel, 2:3])[inside]
    pix = (ys * w + xs)[inside]
    tid = np.broadcast_to(ids[sel][:, None], inside.shape)[inside]
    qflat = qbuf.reshape(-1)
    before = qflat[pix].copy()
    np.maximum.at(qflat, pix, qq)
    win = (qq >= qflat[pix]) & (qq > before)
    idbuf.reshape(-1)[pix[win]] = tid[win]


def surface(m: Mesh, tri: np.ndarray, origin: np.ndarray, rays: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """World points and interpolated unit normals where ``rays`` (K x 3, from ``origin``) meet
    triangles ``tri`` (K,) of ``m`` (each ray meets its triangle's plane)."""
    a, b, c = (m.v[m.f[tri, k]] for k in range(3))
    nf = np.cross(b - a, c - a)
    denom = (nf * rays).sum(axis=1)
    denom = np.where(np.abs(denom) < 1e-12, 1e-12, denom)
    s = ((nf * (a - origin)).sum(axis=1)) / denom
    p = origin + rays * s[:, None]
    # barycentric weights of p in its triangle
    v0, v1, v2 = b - a, c - a, p - a
    d00 = (v0 * v0).sum(1)
    d01 = (v0 * v1).sum(1)
    d11 = (v1 * v1).sum(1)
    d20 = (v2 * v0).sum(1)
    d21 = (v2 * v1).sum(1)
    den = d00 * d11 - d01 * d01
    den = np.where(np.abs(den) < 1e-12, 1e-12, den)
    wb = (d11 * d20 - d01 * d21) / den
    wc = (d00 * d21 - d01 * d20) / den
    wa = 1 - wb - wc
    n = (wa[:, None] * m.n[m.f[tri, 0]] + wb[:, None] * m.n[m.f[tri, 1]] + wc[:, None] * m.n[m.f[tri, 2]])
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    return p, n


class FirstHits(NamedTuple):
    """What each pixel's ray meets first: a triangle of a mesh, else the ground (table or print)."""

    tri_buf: np.ndarray
    """(h, w) the triangle seen at each pixel, -1 where the ground is."""
    tri: np.ndarray
    """The same, flat (N = h w)."""
    on_mesh: np.ndarray
    """(N,) a triangle is seen."""
    pts: np.ndarray
    """(N, 3) where each ray meets the ground (the caller writes the triangles' points in)."""
    normals: np.ndarray
    """(N, 3) straight up, (0, 0, 1) (the caller writes the triangles' and a bent print's in)."""


def first_hits(cam: Pinhole, m: Mesh, rays: np.ndarray, s_plane: np.ndarray, shape: tuple[int, int]) -> FirstHits:
    """``m`` drawn by ``cam`` into a frame of ``shape`` (h, w) whose rays (N x 3) meet the ground at
    the distances ``s_plane`` (N,): at each pixel the nearest triangle wholly in front of the
    camera (5 mm on) that lies before the ground."""
    h, w = shape
    qbuf = (1.0 / s_plane).reshape(h, w)
    tri_buf = np.full((h, w), -1, np.int64)
    if len(m.f):
        pc = cam.cam(m.v)
        front = (pc[m.f, 2] > 5.0).all(axis=1)
        rasterise(cam.project(m.v)[m.f[front]], 1.0 / pc[m.f[front], 2], np.nonzero(front)[0], qbuf, tri_buf)
    tri = tri_buf.reshape(-1)
    pts = cam.C + rays * s_plane[:, None]
    normals = np.zeros_like(pts)
    normals[:, 2] = 1.0
    return FirstHits(tri_buf, tri, tri >= 0, pts, normals)


def facing(origin: np.ndarray, pts: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Unit vectors from ``pts`` (N x 3) towards ``origin`` (the camera); ``normals`` turned (in
    place) to face it."""
    view = origin - pts
    view /= np.maximum(np.linalg.norm(view, axis=1, keepdims=True), 1e-9)
    normals[(normals * view).sum(axis=1) < 0] *= -1
    return view
