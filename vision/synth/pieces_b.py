"""Pieces of the second 3-D scene family (``vision.synth.scene_b``): other shapes and materials
than ``vision.synth.pieces3d`` (training and evaluation only; never imported by the reader).

One physical set (:func:`piece_set_b`) is drawn per group of scenes: a shape style, a material
(glossy plastic, painted wood, felt) and colours, some taken from the board's own print so the
pieces are close to the paper around them. :func:`piece_meshes_b` builds what stands on one
square (board millimetres: x right, y down the print, z up, standing on ``base_z``):

- mice: a rounded body with round ears and a curled tail made of beads, or a flat wooden
  cut-out (meeple-like: body, head, ear and tail as extruded convex parts), tall or short;
- cats (Chop! Chop!, Kilkenny): a wooden cut-out of a sitting cat (ears, tail), or a rounded
  pear-shaped cat with cone ears and a tail of beads;
- Kat en Muis counters: hexagonal tokens, rounded square blocks or domes, a symbol on top;
- Chop! Chop! slabs: thin card (2-3.5 mm) or thick wood (7-9 mm), bevelled, with a printed back
  (stripes, a disc, a checker); the face-up cheese a wheel with a wedge cut out; the hole slab
  a wall with a dark arch (closed) and, turned over, a printed black hole (opened);
- Qubism: cubes with rounded edges and a chevron, a triangle or an arrow in a ring on top;
  pawns as pegs (a cylinder and a ball) or halma cones.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from companion.boards import Board
from vision.synth.pieces3d import KILKENNY_BASE, Placed, square_frame
from vision.synth.raster3d import Mesh, ellipsoid, join, mesh, moved, polygon, revolve

Colour = tuple[float, float, float]

MATERIALS = {"plastic": 0.65, "wood": 0.06, "felt": 0.0}
"""Specular strength per material (``scene_b`` shades gloss 0 as felt: rough, speckled)."""


def _col(v: Any) -> Colour:
    a = np.clip(np.asarray(v, np.float64), 0, 255)
    return (float(a[0]), float(a[1]), float(a[2]))


def _jit(rng: np.random.Generator, c: Colour, s: float) -> Colour:
    return _col(np.asarray(c, np.float64) + rng.normal(0, s, 3))


def print_colour(print_img: np.ndarray, board: Board, rng: np.random.Generator) -> Colour:
    """A colour of the board's own print (BGR 0..255) at a random square, a little changed."""
    sids = list(board.squares)
    cx, cy = board.squares[sids[int(rng.integers(0, len(sids)))]].centre
    ppm = print_img.shape[1] / board.width_mm
    y, x = int(cy * ppm), int(cx * ppm)
    patch = print_img[max(0, y - 6):y + 6, max(0, x - 6):x + 6].reshape(-1, 3)
    return _jit(rng, _col(np.median(patch, axis=0) * 255), 14)


# --------------------------------------------------------------------------------------------
# primitives this family adds


def loft(rings: list[tuple[np.ndarray, float]], colour: Colour, gloss: float, smooth: bool = False) -> Mesh:
    """A solid through convex outlines (each N x 2, counter-clockwise, same N) at rising
    heights, closed by a fan on top and at the bottom."""
    n = len(rings[0][0])
    v = np.vstack([np.column_stack([p, np.full(n, z)]) for p, z in rings])
    faces: list[tuple[int, int, int]] = []
    for k in range(len(rings) - 1):
        for i in range(n):
            j = (i + 1) % n
            a0, a1, b0, b1 = k * n + i, k * n + j, (k + 1) * n + i, (k + 1) * n + j
            faces += [(a0, a1, b1), (a0, b1, b0)]
    side = mesh(v, np.array(faces), colour, smooth=smooth, gloss=gloss)
    caps = [polygon(rings[-1][0], rings[-1][1], colour, gloss), polygon(rings[0][0][::-1], rings[0][1], colour, gloss)]
    return join([side, *caps])


def rounded_rect(hx: float, hy: float, r: float, per_corner: int = 4) -> np.ndarray:
    """A rounded rectangle's outline (counter-clockwise), ``r`` the corner radius."""
    r = max(1e-3, min(r, hx, hy))
    pts = []
    for k, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        a0 = k * math.pi / 2
        for t in np.linspace(a0, a0 + math.pi / 2, per_corner):
            pts.append((sx * (hx - r) + r * math.cos(t), sy * (hy - r) + r * math.sin(t)))
    return np.array(pts)


def rounded_block(hx: float, hy: float, h: float, r: float, colour: Colour, gloss: float, steps: int = 3) -> Mesh:
    """A block whose top edges are rounded with radius ``r`` (a rounded cube, a beveled slab)."""
    rings = [(rounded_rect(hx, hy, r), 0.0)]
    for t in np.linspace(0, math.pi / 2, steps + 1):
        inset = r * (1 - math.cos(t))
        rings.append((rounded_rect(hx - inset, hy - inset, max(r - inset, 0.05)), h - r + r * math.sin(t)))
    return loft(rings, colour, gloss, smooth=True)


def prism_xz(outline: np.ndarray, thick: float, colour: Colour, gloss: float) -> Mesh:
    """A convex outline in the x-z plane (counter-clockwise seen from -y) extruded along y:
    a flat cut-out standing upright, ``thick`` mm."""
    n = len(outline)
    front = np.column_stack([outline[:, 0], np.full(n, -thick / 2), outline[:, 1]])
    back = front + [0.0, thick, 0.0]
    v = np.vstack([front, back])
    faces = [(0, i + 1, i) for i in range(1, n - 1)] + [(n, n + i, n + i + 1) for i in range(1, n - 1)]
    for i in range(n):
        j = (i + 1) % n
        faces += [(i, j, n + j), (i, n + j, n + i)]
    return mesh(v, np.array(faces), colour, smooth=False, gloss=gloss)


def _ellipse(cx: float, cz: float, rx: float, rz: float, n: int = 14) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.column_stack([cx + rx * np.cos(a), cz + rz * np.sin(a)])


def beads(points: list[tuple[float, float, float]], r: float, colour: Colour, gloss: float) -> Mesh:
    """A chain of small spheres (a tail)."""
    return join([moved(ellipsoid(r, r, r, colour, 8, gloss), offset=p) for p in points])


# --------------------------------------------------------------------------------------------
# figures (local: standing on z = 0 at the origin, facing -y)


def mouse_rounded(length: float, colour: Colour, gloss: float, tall: float) -> Mesh:
    r = length / 2
    body = moved(ellipsoid(r * 0.55, r, r * 0.5 * tall, colour, 18, gloss), offset=(0, r * 0.1, r * 0.5 * tall))
    head = moved(ellipsoid(r * 0.36, r * 0.45, r * 0.34, colour, 12, gloss), offset=(0, -r * 0.8, r * 0.45 * tall))
    ear_c = _col(np.asarray(colour) * 0.8 + np.array([120, 110, 200]) * 0.2)
    ears = [moved(ellipsoid(r * 0.24, r * 0.05, r * 0.24, ear_c, 10, gloss), 0.3 * sx,
                  (sx * r * 0.3, -r * 0.62, r * 0.75 * tall)) for sx in (-1, 1)]
    tail = beads([(r * 0.35 * math.sin(t * 2.2), r * (1.05 + 0.5 * t), r * 0.08) for t in np.linspace(0, 1, 7)],
                 r * 0.06, colour, gloss)
    return join([body, head, *ears, tail])


def mouse_cutout(length: float, colour: Colour, gloss: float, tall: float) -> Mesh:
    """A flat wooden mouse standing on its feet, seen from the side along x."""
    r = length / 2
    h = r * 1.1 * tall
    parts = [_ellipse(0.1 * r, h * 0.45, r * 0.75, h * 0.45),  # body
             np.array([[-r * 0.55, h * 0.25], [-r * 1.05, h * 0.22], [-r * 0.5, h * 0.75]]),  # snout
             _ellipse(-r * 0.35, h * 0.85, r * 0.22, r * 0.22, 10),  # ear
             np.array([[r * 0.75, h * 0.08], [r * 1.15, h * 0.3], [r * 1.1, h * 0.38], [r * 0.7, h * 0.2]])]
    thick = max(4.0, r * 0.45)
    m = join([prism_xz(p, thick, colour, gloss) for p in parts])
    return moved(m, math.pi / 2)  # the length along y


def cat_cutout(h: float, colour: Colour, gloss: float) -> Mesh:
    """A flat wooden sitting cat (front view in x-z, extruded along y)."""
    w = h * 0.55
    parts = [_ellipse(0, h * 0.3, w * 0.5, h * 0.3),
             _ellipse(0, h * 0.7, w * 0.36, h * 0.2),
             np.array([[-w * 0.36, h * 0.78], [-w * 0.12, h * 0.86], [-w * 0.3, h * 1.0]]),
             np.array([[w * 0.12, h * 0.86], [w * 0.36, h * 0.78], [w * 0.3, h * 1.0]]),
             np.array([[w * 0.35, h * 0.02], [w * 0.7, h * 0.1], [w * 0.72, h * 0.45], [w * 0.6, h * 0.45],
                       [w * 0.55, h * 0.14]])]
    return join([prism_xz(p, max(5.0, h * 0.28), colour, gloss) for p in parts])


def cat_rounded(h: float, colour: Colour, gloss: float) -> Mesh:
    r = h * 0.3
    body = revolve([(r * 0.8, 0), (r, h * 0.15), (r * 0.9, h * 0.4), (r * 0.55, h * 0.58), (r * 0.3, h * 0.62)],
                   colour, 20, gloss)
    head = moved(ellipsoid(r * 0.62, r * 0.55, r * 0.52, colour, 14, gloss), offset=(0, -r * 0.15, h * 0.72))
    ears = [moved(revolve([(r * 0.18, 0), (0.01, r * 0.4)], colour, 6, gloss), offset=(sx * r * 0.35, -r * 0.1, h * 0.82))
            for sx in (-1, 1)]
    tail = beads([(r * (0.6 + 0.5 * t), r * (0.8 - 0.4 * t * t), h * 0.08 + h * 0.3 * t) for t in np.linspace(0, 1, 6)],
                 r * 0.13, colour, gloss)
    return join([body, head, *ears, tail])


def token_km(r: float, t: float, colour: Colour, gloss: float, style: str, symbol: Colour, cat: bool) -> Mesh:
    """A Kat en Muis counter with a symbol on top (ears for the cat, a round ear pair for the mouse)."""
    if style == "hex":
        a = np.linspace(0, 2 * math.pi, 6, endpoint=False) + math.pi / 6
        hexa = np.column_stack([np.cos(a), np.sin(a)])
        body = loft([(hexa * r, 0.0), (hexa * r, t - 0.6), (hexa * (r - 0.6), t)], colour, gloss)
        top = t
    elif style == "block":
        body = rounded_block(r * 0.85, r * 0.85, t + 2, 1.2, colour, gloss)
        top = t + 2
    else:  # a dome
        body = revolve([(r, 0), (r, t * 0.3)] + [(r * math.cos(q), t * 0.3 + t * 1.2 * math.sin(q))
                                                 for q in np.linspace(0.3, 1.45, 5)], colour, 24, gloss)
        top = t * 1.5
    face = _ellipse(0, 0, r * 0.3, r * 0.3, 12)
    if cat:
        marks = [face, np.array([[-r * 0.3, 0.0], [-r * 0.05, -r * 0.2], [-r * 0.3, -r * 0.5]]),
                 np.array([[r * 0.05, -r * 0.2], [r * 0.3, 0.0], [r * 0.3, -r * 0.5]])]
    else:
        marks = [face * 0.8, _ellipse(-r * 0.3, -r * 0.28, r * 0.15, r * 0.15, 10),
                 _ellipse(r * 0.3, -r * 0.28, r * 0.15, r * 0.15, 10)]
    return join([body, *[polygon(p, top + 0.08, symbol, gloss) for p in marks]])


def pawn_b(h: float, colour: Colour, gloss: float, style: str) -> Mesh:
    if style == "peg":
        r = h * 0.26
        stem = revolve([(r, 0), (r, h * 0.12), (r * 0.7, h * 0.18), (r * 0.62, h * 0.7)], colour, 20, gloss)
        ball = moved(ellipsoid(r * 0.85, r * 0.85, r * 0.85, colour, 16, gloss), offset=(0, 0, h - r * 0.85))
        return join([stem, ball])
    r = h * 0.34  # a halma cone
    cone = revolve([(r, 0), (r * 0.95, h * 0.06), (r * 0.3, h * 0.72)], colour, 22, gloss)
    ball = moved(ellipsoid(r * 0.42, r * 0.42, r * 0.42, colour, 14, gloss), offset=(0, 0, h - r * 0.42))
    return join([cone, ball])


def _arrow_print(style: str) -> list[np.ndarray]:
    """Convex parts of an arrow pointing north (-y), in units of the cube's side."""
    if style == "chevron":
        return [np.array([[0.0, -0.34], [0.3, -0.04], [0.18, 0.06], [0.0, -0.12]]),
                np.array([[0.0, -0.34], [0.0, -0.12], [-0.18, 0.06], [-0.3, -0.04]]),
                np.array([[0.0, -0.12], [0.3, 0.18], [0.18, 0.28], [0.0, 0.1]]),
                np.array([[0.0, -0.12], [0.0, 0.1], [-0.18, 0.28], [-0.3, 0.18]])]
    if style == "triangle":
        return [np.array([[0.0, -0.36], [0.3, 0.26], [-0.3, 0.26]])]
    # an arrow inside a ring: the ring as short segments, the arrow as shaft and head
    parts = []
    for k in range(16):
        a0, a1 = k * math.pi / 8, (k + 1) * math.pi / 8
        parts.append(np.array([[0.4 * math.cos(a0), 0.4 * math.sin(a0)], [0.4 * math.cos(a1), 0.4 * math.sin(a1)],
                               [0.34 * math.cos(a1), 0.34 * math.sin(a1)], [0.34 * math.cos(a0), 0.34 * math.sin(a0)]]))
    parts += [np.array([[-0.05, 0.28], [0.05, 0.28], [0.05, -0.05], [-0.05, -0.05]]),
              np.array([[-0.17, -0.03], [0.17, -0.03], [0.0, -0.29]])]
    return parts


def cube_b(side: float, colour: Colour, ink: Colour, gloss: float, style: str, direction: str) -> Mesh:
    turn = {"N": 0.0, "E": math.pi / 2, "S": math.pi, "W": -math.pi / 2}.get(direction, 0.0)
    c, s = math.cos(turn), math.sin(turn)
    parts = [rounded_block(side / 2, side / 2, side, side * 0.09, colour, gloss)]
    for poly in _arrow_print(style):
        p = poly * side
        parts.append(polygon(np.column_stack([p[:, 0] * c - p[:, 1] * s, p[:, 0] * s + p[:, 1] * c]), side + 0.07, ink, 0.05))
    return join(parts)


# --------------------------------------------------------------------------------------------
# Chop! Chop! slabs


def _slab_b(half: float, t: float, top: Colour, edge: Colour, bevel: float) -> Mesh:
    m = rounded_block(half, half, t, bevel, edge, 0.05, steps=2)
    up = m.n[m.f[:, 0], 2] > 0.9  # the flat top face takes the print
    flat = np.abs(m.v[m.f[:, 0], 2] - t) < 1e-6
    m.colour[up & flat] = np.asarray(top) / 255.0
    return m


def slab_mesh(kind: str, half: float, pset: dict[str, Any], rng: np.random.Generator) -> Mesh:
    """One Chop! Chop! slab of ``kind`` ("slab", "cheese", "hole_open", "hole_closed", "tile:<t>")."""
    t, bevel = pset["thick"], pset["bevel"]
    top = t + 0.06
    if kind == "slab":
        parts = [_slab_b(half, t, pset["back"], pset["edge"], bevel)]
        pat = pset["back_pattern"]
        ink = pset["back_ink"]
        if pat == "stripes":
            for k in (-2, 0, 2):
                parts.append(polygon(np.array([[-0.85, k * 0.2 - 0.1], [0.85, k * 0.2 - 0.1 + 0.4], [0.85, k * 0.2 + 0.1 + 0.4],
                                               [-0.85, k * 0.2 + 0.1]]) * half * [1, 0.8], top, ink))
        elif pat == "disc":
            parts.append(polygon(_ellipse(0, 0, half * 0.45, half * 0.45, 20), top, ink))
        else:  # checker
            for i in range(4):
                for j in range(4):
                    if (i + j) % 2 == 0:
                        x0, y0 = -0.8 + 0.4 * i, -0.8 + 0.4 * j
                        parts.append(polygon(np.array([[x0, y0], [x0 + 0.4, y0], [x0 + 0.4, y0 + 0.4], [x0, y0 + 0.4]]) * half, top, ink))
        return join(parts)
    face = _slab_b(half, t, pset["face"], pset["edge"], bevel)
    if kind == "cheese":
        a0 = float(rng.uniform(0, 2 * math.pi))
        wheel = [np.array([[0, 0]] + [[0.62 * math.cos(a), 0.62 * math.sin(a)] for a in np.linspace(a0 + k * 1.1, a0 + (k + 1) * 1.1, 5)])
                 for k in range(5)]  # five sectors of a wheel: one slice is cut out
        rind = _col(np.asarray(pset["cheese"]) * 0.75)
        parts = [polygon(p * half, top, pset["cheese"]) for p in wheel]
        parts += [polygon(_ellipse(0.25 * math.cos(a0 + k), 0.25 * math.sin(a0 + k), 0.07, 0.07, 8) * half, top + 0.05, rind)
                  for k in (1, 3)]
        return join([face, *parts])
    if kind == "hole_open":  # the hole side up: a printed black hole with a rim
        return join([face, polygon(_ellipse(0, 0.05, 0.62, 0.5, 20) * half, top, pset["hole_rim"]),
                     polygon(_ellipse(0, 0.08, 0.5, 0.4, 20) * half, top + 0.04, (18, 16, 20))])
    if kind == "hole_closed":  # a wall with a mouse's arched door
        arch = np.array([[-0.35, 0.7], [0.35, 0.7], [0.35, 0.1], [0.2, -0.2], [0.0, -0.3], [-0.2, -0.2], [-0.35, 0.1]])
        return join([_slab_b(half, t, pset["wall"], pset["edge"], bevel), polygon(arch * half, top, pset["door"])])
    # another face-up tile for a moment: a simple symbol in dark ink
    sym = kind.split(":", 1)[1]
    sym_ink: Colour = (40, 40, 150) if sym.startswith("plus") else (60, 55, 50)
    bars = {"plus1": 1, "plus2": 2}.get(sym, 0)
    parts = [face]
    if bars:
        parts += [polygon(np.array([[-0.6, -0.07], [-0.1, -0.07], [-0.1, 0.07], [-0.6, 0.07]]) * half, top, sym_ink),
                  polygon(np.array([[-0.42, -0.25], [-0.28, -0.25], [-0.28, 0.25], [-0.42, 0.25]]) * half, top, sym_ink)]
        parts += [polygon(np.array([[x, -0.4], [x + 0.14, -0.4], [x + 0.14, 0.4], [x, 0.4]]) * half, top, sym_ink)
                  for x in (0.1, 0.4)[:bars]]
    else:
        parts.append(polygon(_ellipse(0, 0, 0.5, 0.22, 12) * half, top, sym_ink))
    return join(parts)


# --------------------------------------------------------------------------------------------
# a set, a square


def piece_set_b(board: Board, rng: np.random.Generator, print_img: np.ndarray) -> dict[str, Any]:
    """Shapes, material and colours of one physical set of pieces (BGR 0..255, mm)."""
    g = board.game
    material = str(rng.choice(list(MATERIALS), p=[0.45, 0.4, 0.15]))
    s: dict[str, Any] = {"material": material, "gloss": MATERIALS[material], "scale": float(rng.uniform(0.85, 1.12)),
                         "shape": str(rng.choice(["rounded", "cutout"])), "tall": float(rng.uniform(0.75, 1.35))}
    near_print = rng.random() < 0.35  # colours taken from the board's print

    def pick(options: list[Colour], spread: float = 12) -> Colour:
        if near_print and rng.random() < 0.5:
            return print_colour(print_img, board, rng)
        return _jit(rng, options[int(rng.integers(0, len(options)))], spread)

    if g == "katenmuis":
        s["style"] = str(rng.choice(["hex", "block", "dome"]))
        s["cat"] = pick([(40, 40, 170), (20, 20, 22), (160, 90, 30), (60, 120, 200), (120, 160, 190)])
        s["mouse"] = pick([(150, 150, 150), (240, 238, 235), (90, 160, 80), (70, 180, 220), (170, 120, 160)])
        if np.abs(np.subtract(s["cat"], s["mouse"])).sum() < 90:  # the two players' counters differ
            s["mouse"] = _col(255 - np.asarray(s["cat"]))
        s["symbol"] = _jit(rng, (230, 230, 230) if rng.random() < 0.5 else (30, 30, 30), 8)
        s["thick"] = float(rng.uniform(2.5, 8))
    elif g == "chopchop":
        s["thick"] = float(rng.uniform(2.0, 3.5)) if rng.random() < 0.6 else float(rng.uniform(7, 9))
        s["bevel"] = float(rng.uniform(0.3, min(1.5, s["thick"] * 0.4)))
        s["back"] = pick([(160, 60, 40), (40, 60, 150), (60, 140, 60), (200, 200, 200), (110, 170, 210)])
        s["back_ink"] = _jit(rng, (240, 240, 240) if np.mean(s["back"]) < 120 else (40, 40, 60), 10)
        s["back_pattern"] = str(rng.choice(["stripes", "disc", "checker"]))
        s["edge"] = _jit(rng, (170, 200, 215) if s["thick"] > 5 else (225, 228, 230), 10)
        s["face"] = _jit(rng, (215, 235, 245), 8)
        s["cheese"] = _jit(rng, (30, 185, 240), 10)
        s["wall"] = _jit(rng, (120, 150, 180), 12)
        s["door"] = _jit(rng, (30, 45, 80), 8)
        s["hole_rim"] = _jit(rng, (50, 80, 110), 8)
        dark = rng.random() < 0.5
        s["mouse"] = pick([(70, 72, 75), (40, 60, 90), (25, 25, 28)] if dark else
                          [(190, 190, 195), (225, 228, 232), (140, 165, 185), (150, 200, 230)])
        s["cat"] = pick([(20, 90, 200), (25, 25, 28), (225, 225, 230), (60, 80, 100), (130, 130, 140)])
        s["cat_h"] = float(rng.uniform(22, 40))
        s["mouse_len"] = float(rng.uniform(0.5, 0.75))
    elif g == "kilkenny":
        for col, base in KILKENNY_BASE.items():
            s[f"cat:{col}"] = _jit(rng, base, 18)
        s["cat_h"] = float(rng.uniform(10, 22))
    elif g == "qubism":
        s["pawn_style"] = str(rng.choice(["peg", "halma"]))
        s["pawn:white"] = _jit(rng, (225, 235, 240), 8)
        s["pawn:black"] = _jit(rng, (35, 30, 28), 6)
        s["cube"] = pick([(60, 60, 190), (200, 140, 60), (90, 180, 230), (235, 235, 230), (50, 120, 60)])
        s["ink"] = _jit(rng, (20, 20, 25) if np.mean(s["cube"]) > 110 else (240, 240, 240), 6)
        s["arrow_style"] = str(rng.choice(["chevron", "triangle", "ring"]))
        s["cube_side"] = float(rng.uniform(25, 30))
        s["pawn_h"] = float(rng.uniform(18, 32))
    return s


def figure_b(board: Board, token: str, pset: dict[str, Any], side: float) -> tuple[Mesh, float]:
    """(mesh, height) of one standing piece of this family."""
    base = token.split(":", 1)[0]
    sc, gl, shape = pset["scale"], pset["gloss"], pset["shape"]
    g = board.game
    if g == "katenmuis":
        t = pset["thick"]
        m = token_km(side * 0.36 * sc, t, pset.get(base, (128, 128, 128)), gl, pset["style"], pset["symbol"], base == "cat")
        return m, float(m.v[:, 2].max())
    if base == "mouse":
        ln = side * pset.get("mouse_len", 0.62) * sc
        m = (mouse_rounded if shape == "rounded" else mouse_cutout)(ln, pset["mouse"], gl, pset["tall"])
        return m, float(m.v[:, 2].max())
    if base == "cat":
        h = pset["cat_h"] * sc
        colour = pset.get(token, pset.get("cat", (128, 128, 128)))
        m = (cat_rounded if shape == "rounded" else cat_cutout)(h, colour, gl)
        return m, float(m.v[:, 2].max())
    if base == "pawn":
        h = pset["pawn_h"] * sc
        return pawn_b(h, pset.get(token, (128, 128, 128)), gl, pset["pawn_style"]), h
    if base == "cube":
        sd = min(pset["cube_side"], side * 0.92)
        d = token.split(":", 1)[1] if ":" in token else "N"
        return cube_b(sd, pset["cube"], pset["ink"], min(gl, 0.4), pset["arrow_style"], d), sd
    return revolve([(side * 0.3, 0), (side * 0.3, 4.0)], (128, 128, 128), 16, 0.1), 4.0


def piece_meshes_b(board: Board, sid: str, tokens: list[str], pset: dict[str, Any], rng: np.random.Generator,
                   under: str | None = None, base_z: float = 0.0) -> list[Placed]:
    """What stands on square ``sid``: ``tokens`` (two for Kat en Muis's "cat+mouse" and a Chop!
    Chop! cat over a mouse) on ``under`` (a Chop! Chop! slab kind or None), on paper at ``base_z``."""
    cx, cy, side = square_frame(board, sid)
    out: list[Placed] = []
    z = base_z
    if under is not None:
        half = side * float(rng.uniform(0.41, 0.47))
        ox, oy = rng.normal(0, side * 0.03, 2)
        turn = float(rng.normal(0, 0.07))
        m = slab_mesh(under, half, pset, rng)
        out.append(Placed(sid, under, (cx + ox, cy + oy, z + pset["thick"]), moved(m, turn, (cx + ox, cy + oy, z))))
        z += pset["thick"]
    n = len(tokens)
    stacked = n == 2 and board.game == "katenmuis" and rng.random() < 0.4
    ang = float(rng.uniform(0, 2 * math.pi))
    for k, token in enumerate(tokens):
        m, h = figure_b(board, token, pset, side)
        dx, dy = rng.normal(0, side * (0.06 if board.game != "qubism" else 0.035), 2)
        if n == 2 and not stacked:
            off = side * (0.22 if board.game == "katenmuis" else 0.2)
            dx, dy = off * math.cos(ang + math.pi * k), off * math.sin(ang + math.pi * k)
            if board.game == "katenmuis":
                m = moved(m, scale=(0.75, 0.75, 1.0))
        is_cube = token.startswith("cube")
        yaw = float(rng.normal(0, 0.12)) if is_cube else float(rng.uniform(-math.pi, math.pi))
        x, y = cx + float(dx), cy + float(dy)
        out.append(Placed(sid, token, (x, y, z + h), moved(m, yaw, (x, y, z))))
        if stacked:
            z += h
    return out
