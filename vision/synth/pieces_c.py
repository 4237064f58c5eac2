"""Pieces of the third 3-D scene family (``vision.synth.scene_c``): shapes and materials neither
``vision.synth.pieces3d`` nor ``vision.synth.pieces_b`` draws (training and evaluation only;
never imported by the reader).

One physical set per group (:func:`piece_set_c`): a figure style and a material, drawn apart:

- styles: lathe-turned figures (a chess pawn's foot, collar and ball; the cat taller with
  pointed ears, the mouse short with two round ears), meeples (the classic silhouette
  extruded 7-10 mm, the cat with ears and a tail), or flat discs 3-6 mm thick with a round
  sticker on top (a cat's face with ears, a mouse's with round ears);
- materials: matte paint, glossy lacquer, metallic paint (dark diffuse, a coloured sharp
  highlight) or translucent acrylic (``scene_c`` blends what lies behind through it);
- Chop! Chop! tiles: greyboard 1.6-2.6 mm with square edges, grey cardboard showing at the
  cut, a back with a border and a paw print; the face-up cheese a wedge with holes; the
  opened hole a dark round shaft (darker towards its middle), the closed one a lid of planks;
- Qubism: sharp-edged wooden, painted or acrylic cubes with an arrow on a square paper
  sticker (a block arrow with a notched tail, a compass needle half dark, or a thin
  fletched arrow); pawns as meeples or two stacked draughtsmen.

``piece_meshes_c`` returns each placed piece with its material (``scene_c`` shades by it).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from companion.boards import Board
from vision.synth.pieces3d import Placed, square_frame
from vision.synth.raster3d import Mesh, box, ellipsoid, join, mesh, moved, polygon, revolve

Colour = tuple[float, float, float]
MATERIALS = ("matte", "lacquer", "metal", "acrylic")
GLOSS = {"matte": 0.03, "lacquer": 0.45, "metal": 0.8, "acrylic": 0.7}


def _col(v: Any) -> Colour:
    a = np.clip(np.asarray(v, np.float64), 0, 255)
    return (float(a[0]), float(a[1]), float(a[2]))


def _jit(rng: np.random.Generator, c: Colour, s: float) -> Colour:
    return _col(np.asarray(c, np.float64) + rng.normal(0, s, 3))


def _circle(cx: float, cy: float, r: float, n: int = 16) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)])


def extrude_y(outline: np.ndarray, thick: float, colour: Colour, gloss: float) -> Mesh:
    """A convex outline in the x-z plane extruded ``thick`` mm along y (a standing cut-out part)."""
    n = len(outline)
    a = np.column_stack([outline[:, 0], np.full(n, -thick / 2), outline[:, 1]])
    v = np.vstack([a, a + [0.0, thick, 0.0]])
    f = [(0, i, i + 1) for i in range(1, n - 1)] + [(n, n + i + 1, n + i) for i in range(1, n - 1)]
    f += [t for i in range(n) for j in [(i + 1) % n] for t in ((i, n + j, j), (i, n + i, n + j))]
    return mesh(v, np.array(f), colour, smooth=False, gloss=gloss)


def slab(outline: np.ndarray, z0: float, z1: float, colour: Colour, side: Colour, gloss: float) -> Mesh:
    """A convex outline (x-y, counter-clockwise) as a flat-topped prism from z0 to z1."""
    n = len(outline)
    v = np.vstack([np.column_stack([outline, np.full(n, z0)]), np.column_stack([outline, np.full(n, z1)])])
    f = [t for i in range(n) for j in [(i + 1) % n] for t in ((i, j, n + j), (i, n + j, n + i))]
    return join([mesh(v, np.array(f), side, smooth=False, gloss=gloss), polygon(outline, z1, colour, gloss)])


# --------------------------------------------------------------------------------------------
# figures (local: standing on z = 0 at the origin)


def turned(h: float, r: float, colour: Colour, gloss: float, kind: str) -> Mesh:
    """A lathe-turned figure: foot, collar, waist, a ball (``kind`` "cat": taller neck and
    pointed ears on the ball; "mouse": two round ears; "pawn": the plain ball)."""
    rb = h * (0.2 if kind != "cat" else 0.17)
    zc = h - rb
    prof = [(r, 0.0), (r, h * 0.06), (r * 0.82, h * 0.1), (r * 0.86, h * 0.15), (r * 0.5, h * 0.22),
            (r * 0.36, zc - rb * 1.3), (r * 0.6, zc - rb * 1.05), (r * 0.3, zc - rb * 0.9)]
    prof += [(rb * math.sin(t), zc - rb * math.cos(t)) for t in np.linspace(0.5, math.pi - 0.05, 7)]
    parts = [revolve(prof, colour, 22, gloss, cap=False)]
    if kind == "cat":
        for sx in (-1, 1):
            cone = revolve([(rb * 0.38, 0.0), (0.01, rb * 0.9)], colour, 8, gloss)
            parts.append(moved(cone, 0.0, (sx * rb * 0.5, 0.0, zc + rb * 0.6)))
    elif kind == "mouse":
        for sx in (-1, 1):
            parts.append(moved(ellipsoid(rb * 0.45, rb * 0.12, rb * 0.45, colour, 10, gloss), 0.0,
                               (sx * rb * 0.75, 0.0, zc + rb * 0.75)))
    return join(parts)


def meeple(h: float, thick: float, colour: Colour, gloss: float, kind: str) -> Mesh:
    """The classic meeple (front in x-z), extruded along y; a cat with ears and a tail, a mouse
    with round ears."""
    w = h * 0.9
    parts = [np.array([[-w * 0.5, 0.0], [-w * 0.1, 0.0], [0.0, h * 0.25], [w * 0.1, 0.0], [w * 0.5, 0.0],
                       [w * 0.22, h * 0.55], [-w * 0.22, h * 0.55]]),  # legs and body (convex pieces below)
             np.array([[-w * 0.5, h * 0.5], [-w * 0.42, h * 0.6], [w * 0.42, h * 0.6], [w * 0.5, h * 0.5],
                       [w * 0.2, h * 0.42], [-w * 0.2, h * 0.42]]),
             _circle(0.0, h * 0.78, h * 0.18, 14)]
    convex = [np.array([[-w * 0.5, 0.0], [-w * 0.1, 0.0], [-w * 0.03, h * 0.3], [-w * 0.22, h * 0.55]]),
              np.array([[w * 0.1, 0.0], [w * 0.5, 0.0], [w * 0.22, h * 0.55], [w * 0.03, h * 0.3]]),
              np.array([[-w * 0.22, h * 0.25], [w * 0.22, h * 0.25], [w * 0.22, h * 0.62], [-w * 0.22, h * 0.62]]),
              parts[1], parts[2]]
    if kind == "cat":
        convex += [np.array([[-h * 0.17, h * 0.84], [-h * 0.04, h * 0.94], [-h * 0.15, h * 1.04]]),
                   np.array([[h * 0.04, h * 0.94], [h * 0.17, h * 0.84], [h * 0.15, h * 1.04]])]
    elif kind == "mouse":
        convex += [_circle(-h * 0.15, h * 0.93, h * 0.09, 10), _circle(h * 0.15, h * 0.93, h * 0.09, 10)]
    m = join([extrude_y(p, thick, colour, gloss) for p in convex])
    if kind == "cat":  # a tail curling up behind
        tail = join([moved(ellipsoid(thick * 0.22, thick * 0.22, thick * 0.22, colour, 8, gloss),
                           offset=(w * 0.15 * math.sin(t * 3), thick * 0.5 + 2 + t * 5, h * 0.05 + h * 0.35 * t))
                     for t in np.linspace(0, 1, 6)])
        m = join([m, tail])
    return m


def disc(r: float, t: float, colour: Colour, gloss: float, sticker: Colour, ink: Colour, kind: str) -> Mesh:
    """A flat disc with a round sticker on top showing a cat's face (pointed ears) or a mouse's
    (round ears); ``kind`` "white"/"black" (Qubism draughtsmen) has a ring groove instead."""
    body = revolve([(r * 0.96, 0.0), (r, t * 0.15), (r, t * 0.85), (r * 0.96, t)], colour, 28, gloss)
    top = t + 0.05
    parts = [body, polygon(_circle(0, 0, r * 0.7, 24), top, sticker, 0.1)]
    if kind == "cat":
        parts += [polygon(_circle(0, r * 0.08, r * 0.32, 14), top + 0.03, ink, 0.1),
                  polygon(np.array([[-r * 0.32, r * 0.02], [-r * 0.08, -r * 0.2], [-r * 0.34, -r * 0.46]]), top + 0.03, ink, 0.1),
                  polygon(np.array([[r * 0.08, -r * 0.2], [r * 0.32, r * 0.02], [r * 0.34, -r * 0.46]]), top + 0.03, ink, 0.1)]
    elif kind == "mouse":
        parts += [polygon(_circle(0, r * 0.1, r * 0.26, 14), top + 0.03, ink, 0.1),
                  polygon(_circle(-r * 0.28, -r * 0.24, r * 0.16, 10), top + 0.03, ink, 0.1),
                  polygon(_circle(r * 0.28, -r * 0.24, r * 0.16, 10), top + 0.03, ink, 0.1)]
    else:
        parts = [body, moved(body, offset=(0, 0, t))] + [polygon(_circle(0, 0, r * 0.55, 24), 2 * t + 0.05,
                                                                 _col(np.asarray(colour) * 0.85), gloss)]
    return join(parts)


# --------------------------------------------------------------------------------------------
# Qubism cubes


def _arrow_sticker(style: str) -> list[tuple[np.ndarray, bool]]:
    """Convex parts of an arrow pointing north (-y) in units of the cube's side; True: ink,
    False: the needle's light half."""
    if style == "block":
        return [(np.array([[-0.09, 0.3], [0.09, 0.3], [0.09, -0.02], [-0.09, -0.02]]), True),
                (np.array([[-0.25, -0.02], [0.25, -0.02], [0.0, -0.32]]), True),
                (np.array([[-0.09, 0.3], [0.0, 0.22], [0.09, 0.3], [0.09, 0.36], [-0.09, 0.36]]), False)]
    if style == "needle":
        return [(np.array([[0.0, -0.34], [0.12, 0.0], [-0.12, 0.0]]), True),
                (np.array([[0.12, 0.0], [0.0, 0.34], [-0.12, 0.0]]), False)]
    # fletched: a thin shaft, an open V head, two tail feathers
    out = [(np.array([[-0.025, 0.32], [0.025, 0.32], [0.025, -0.3], [-0.025, -0.3]]), True)]
    for sx in (-1, 1):
        out.append((np.array([[0.0, -0.33], [sx * 0.2, -0.13], [sx * 0.16, -0.09], [0.0, -0.26]])[:: sx], True))
        out.append((np.array([[0.0, 0.18], [sx * 0.13, 0.3], [sx * 0.13, 0.36], [0.0, 0.25]])[:: sx], True))
    return out


def cube_c(side: float, colour: Colour, gloss: float, pset: dict[str, Any], direction: str) -> Mesh:
    turn = {"N": 0.0, "E": math.pi / 2, "S": math.pi, "W": -math.pi / 2}.get(direction, 0.0)
    c, s = math.cos(turn), math.sin(turn)
    hs = side / 2
    parts = [box(hs, hs, 0.0, side, colour, gloss)]
    paper, ink = pset["sticker"], pset["ink"]
    k = pset["sticker_size"]
    parts.append(polygon(np.array([[-k, -k], [k, -k], [k, k], [-k, k]]) * side, side + 0.05, paper, 0.1))
    for poly, dark in _arrow_sticker(pset["arrow_style"]):
        if not dark and pset["arrow_style"] == "block":
            continue  # the notch is the sticker's own colour
        p = poly * side
        rot = np.column_stack([p[:, 0] * c - p[:, 1] * s, p[:, 0] * s + p[:, 1] * c])
        parts.append(polygon(rot, side + 0.1, ink if dark else _col(np.asarray(ink) * 0.3 + 255 * 0.55), 0.1))
    return join(parts)


# --------------------------------------------------------------------------------------------
# Chop! Chop! tiles


def _tile_outline(half: float, r: float) -> np.ndarray:
    pts = []
    for k, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        for t in np.linspace(k * math.pi / 2, (k + 1) * math.pi / 2, 3):
            pts.append((sx * (half - r) + r * math.cos(t), sy * (half - r) + r * math.sin(t)))
    return np.array(pts)


def tile_mesh(kind: str, half: float, pset: dict[str, Any], rng: np.random.Generator) -> Mesh:
    """One Chop! Chop! tile of ``kind`` ("slab", "cheese", "hole_open", "hole_closed", "tile:<t>")."""
    t = pset["thick"]
    out = _tile_outline(half, pset["corner"])
    top = t + 0.05
    if kind == "slab":
        ink = pset["back_ink"]
        parts = [slab(out, 0.0, t, pset["back"], pset["card"], 0.08)]
        parts.append(polygon(_tile_outline(half * 0.86, pset["corner"]), top, ink, 0.05))
        parts.append(polygon(_tile_outline(half * 0.78, pset["corner"]), top + 0.02, pset["back"], 0.05))
        parts.append(polygon(_circle(0, half * 0.12, half * 0.24, 16), top + 0.04, ink, 0.05))  # a paw print
        for a in (-2.4, -1.9, -1.25, -0.7):
            parts.append(polygon(_circle(half * 0.36 * math.cos(a), half * 0.12 + half * 0.38 * math.sin(a),
                                         half * 0.09, 10), top + 0.04, ink, 0.05))
        return join(parts)
    face = slab(out, 0.0, t, pset["face"], pset["card"], 0.08)
    if kind == "cheese":
        a0 = float(rng.uniform(0, 2 * math.pi))
        tri = np.array([[math.cos(a0 + k * 2.3), math.sin(a0 + k * 2.3)] for k in (0, 1, 2)]) * half * 0.7
        tri = tri * [1.0, 0.75]
        e1, e2 = tri[1] - tri[0], tri[2] - tri[0]
        if e1[0] * e2[1] - e1[1] * e2[0] < 0:
            tri = tri[::-1]
        mid = tri.mean(axis=0)
        spots = [mid, mid + (tri[0] - mid) * 0.45, mid + (tri[1] - mid) * 0.5]
        holes = [polygon(_circle(float(c[0]), float(c[1]), half * 0.07, 8), top + 0.04, pset["cheese_hole"], 0.05)
                 for c in spots]
        return join([face, polygon(tri, top, pset["cheese"], 0.05), *holes])
    if kind == "hole_open":  # the hole: dark, darker towards its middle
        rings = [polygon(_circle(0, 0, half * (0.62 - 0.1 * k), 22), top + 0.02 * k, _col(np.asarray(pset["hole"]) * (1 - 0.22 * k)), 0.02)
                 for k in range(4)]
        return join([face, *rings])
    if kind == "hole_closed":  # a round lid of planks
        parts = [face, polygon(_circle(0, 0, half * 0.6, 22), top, pset["lid"], 0.05)]
        for x in (-0.2, 0.2):
            parts.append(polygon(np.array([[x - 0.015, -0.55], [x + 0.015, -0.55], [x + 0.015, 0.55], [x - 0.015, 0.55]]) * half,
                                 top + 0.03, _col(np.asarray(pset["lid"]) * 0.5), 0.05))
        return join(parts)
    sym = kind.split(":", 1)[1]  # another face-up tile for a moment: a simple dark sign
    sign: Colour = (50, 50, 140) if sym.startswith("plus") else (60, 60, 60)
    return join([face, polygon(np.array([[-0.5, -0.1], [0.5, -0.1], [0.5, 0.1], [-0.5, 0.1]]) * half, top, sign),
                 polygon(np.array([[-0.1, -0.5], [0.1, -0.5], [0.1, 0.5], [-0.1, 0.5]]) * half, top, sign)])


# --------------------------------------------------------------------------------------------
# a set, a square

KILKENNY_C = {"red": (50, 30, 160), "blue": (150, 70, 40), "green": (70, 150, 60), "yellow": (40, 190, 220),
              "orange": (30, 120, 220), "purple": (120, 50, 110), "white": (220, 225, 225), "black": (40, 38, 36)}
"""Kilkenny cats of this family: other shades of the players' colours."""


def piece_set_c(board: Board, rng: np.random.Generator) -> dict[str, Any]:
    """Style, material and colours of one physical set (BGR 0..255, mm)."""
    g = board.game
    material = str(rng.choice(list(MATERIALS), p=[0.35, 0.25, 0.2, 0.2]))
    s: dict[str, Any] = {"material": material, "style": str(rng.choice(["turned", "meeple", "disc"])),
                         "scale": float(rng.uniform(0.85, 1.1))}
    if g == "katenmuis":
        s["cat"] = _jit(rng, [(30, 30, 150), (30, 30, 30), (150, 60, 20), (40, 140, 200)][int(rng.integers(0, 4))], 12)
        s["mouse"] = _jit(rng, [(160, 160, 165), (235, 235, 235), (60, 150, 90), (180, 150, 90)][int(rng.integers(0, 4))], 12)
    elif g == "chopchop":
        s["style"] = str(rng.choice(["turned", "meeple", "disc"], p=[0.4, 0.4, 0.2]))
        s["thick"] = float(rng.uniform(1.6, 2.6))
        s["corner"] = float(rng.uniform(0.5, 2.5))
        s["back"] = _jit(rng, [(40, 40, 130), (110, 70, 30), (40, 110, 40), (30, 120, 180), (90, 90, 90)][int(rng.integers(0, 5))], 12)
        s["back_ink"] = _jit(rng, (225, 230, 230), 10)
        s["card"] = _jit(rng, (120, 130, 135), 10)
        s["face"] = _jit(rng, (225, 235, 240), 8)
        s["cheese"] = _jit(rng, (40, 200, 245), 10)
        s["cheese_hole"] = _col(np.asarray(s["cheese"]) * 0.7)
        s["hole"] = _jit(rng, (35, 35, 45), 6)
        s["lid"] = _jit(rng, (60, 110, 150), 10)
        dark = rng.random() < 0.5
        s["mouse"] = _jit(rng, [(60, 60, 65), (45, 70, 100)][int(rng.integers(0, 2))] if dark else
                          [(200, 200, 205), (170, 190, 200)][int(rng.integers(0, 2))], 10)
        s["cat"] = _jit(rng, [(30, 100, 210), (30, 30, 30), (230, 230, 230), (100, 60, 140)][int(rng.integers(0, 4))], 10)
    elif g == "kilkenny":
        s["style"] = str(rng.choice(["turned", "meeple", "disc"]))
        for col, base in KILKENNY_C.items():
            s[f"cat:{col}"] = _jit(rng, base, 14)
    elif g == "qubism":
        s["pawn_style"] = str(rng.choice(["meeple", "draughts"]))
        s["pawn:white"] = _jit(rng, (215, 230, 235), 8)
        s["pawn:black"] = _jit(rng, (40, 35, 32), 6)
        wood = rng.random() < 0.4
        s["cube"] = _jit(rng, (120, 175, 210), 12) if wood else _jit(
            rng, [(50, 50, 170), (170, 110, 50), (60, 160, 80), (200, 200, 200), (40, 40, 40)][int(rng.integers(0, 5))], 10)
        s["cube_material"] = "matte" if wood else str(rng.choice(["matte", "lacquer", "acrylic"], p=[0.4, 0.4, 0.2]))
        s["sticker"] = _jit(rng, (235, 240, 240), 8)
        s["sticker_size"] = float(rng.uniform(0.36, 0.44))
        s["ink"] = _jit(rng, [(30, 30, 30), (40, 40, 160), (120, 60, 20)][int(rng.integers(0, 3))], 8)
        s["arrow_style"] = str(rng.choice(["block", "needle", "fletched"]))
        s["cube_side"] = float(rng.uniform(24, 29))
    return s


def figure_c(board: Board, token: str, pset: dict[str, Any], side: float) -> tuple[Mesh, str]:
    """(mesh, material) of one standing piece of this family."""
    base = token.split(":", 1)[0]
    sc, style, mat = pset["scale"], pset["style"], pset["material"]
    gl = GLOSS[mat]
    colour = pset.get(token, pset.get(base, (128, 128, 128)))
    if base == "cube":
        sd = min(pset["cube_side"], side * 0.9)
        d = token.split(":", 1)[1] if ":" in token else "N"
        return cube_c(sd, pset["cube"], GLOSS[pset["cube_material"]], pset, d), pset["cube_material"]
    if base == "pawn":
        if pset["pawn_style"] == "meeple":
            return meeple(side * 0.55, side * 0.22, colour, gl, "pawn"), mat
        return disc(side * 0.36, side * 0.11, colour, gl, colour, colour, token.split(":")[-1]), mat
    kind = "cat" if base == "cat" else "mouse"
    size = {"katenmuis": 1.0, "chopchop": 1.0, "kilkenny": 1.25}.get(board.game, 1.0) * side * sc
    if board.game == "kilkenny" or board.game == "katenmuis":
        kind = "cat" if base == "cat" else "mouse"
    if style == "turned":
        h = size * (0.95 if kind == "cat" else 0.65) * (1.3 if board.game == "chopchop" and kind == "cat" else 1.0)
        return turned(h, size * 0.3, colour, gl, kind), mat
    if style == "meeple":
        h = size * (0.85 if kind == "cat" else 0.6) * (1.3 if board.game == "chopchop" and kind == "cat" else 1.0)
        return meeple(h, max(3.0, size * 0.3), colour, gl, kind), mat
    r = size * (0.4 if kind == "cat" else 0.33)
    ink = (25, 25, 25) if np.mean(colour) > 110 else (235, 235, 235)
    return disc(r, max(2.5, size * 0.16), colour, gl, colour, ink, kind), mat


def piece_meshes_c(board: Board, sid: str, tokens: list[str], pset: dict[str, Any], rng: np.random.Generator,
                   under: str | None = None, base_z: float = 0.0) -> list[tuple[Placed, str]]:
    """What stands on square ``sid`` (``tokens`` on the Chop! Chop! tile ``under``, on paper at
    ``base_z``), each with its material."""
    cx, cy, side = square_frame(board, sid)
    out: list[tuple[Placed, str]] = []
    z = base_z
    if under is not None:
        half = side * float(rng.uniform(0.42, 0.47))
        ox, oy = rng.normal(0, side * 0.025, 2)
        m = tile_mesh(under, half, pset, rng)
        out.append((Placed(sid, under, (cx + ox, cy + oy, z + pset["thick"]),
                           moved(m, float(rng.normal(0, 0.06)), (cx + ox, cy + oy, z))), "matte"))
        z += pset["thick"]
    n = len(tokens)
    stacked = n == 2 and board.game == "katenmuis" and pset["style"] == "disc" and rng.random() < 0.5
    ang = float(rng.uniform(0, 2 * math.pi))
    for k, token in enumerate(tokens):
        m, mat = figure_c(board, token, pset, side)
        dx, dy = rng.normal(0, side * (0.05 if board.game != "qubism" else 0.03), 2)
        if n == 2 and not stacked:
            off = side * (0.22 if board.game == "katenmuis" else 0.2)
            dx, dy = off * math.cos(ang + math.pi * k), off * math.sin(ang + math.pi * k)
            if board.game == "katenmuis":
                m = moved(m, scale=(0.72, 0.72, 1.0))
        yaw = float(rng.normal(0, 0.1)) if token.startswith("cube") else float(rng.uniform(-math.pi, math.pi))
        x, y = cx + float(dx), cy + float(dy)
        h = float(m.v[:, 2].max())
        out.append((Placed(sid, token, (x, y, z + h), moved(m, yaw, (x, y, z))), mat))
        if stacked:
            z += h
    return out
