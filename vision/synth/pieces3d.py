"""Piece meshes with real height and thickness for ``vision.synth.board3d``.

One physical set of pieces (:func:`piece_set`: colours and sizes, light or dark variants) is
drawn per scene group. :func:`piece_meshes` builds the meshes standing on one square, in board
millimetres (x right, y down the print, z up):

- Kat en Muis: counters (bevelled discs 3-6 mm thick); two on one square ("cat+mouse") lie
  side by side or stacked;
- Chop! Chop!: tile slabs 4-6 mm thick, face down (their back) or face up (a cheese picture;
  on request the other tiles too, under the piece that just turned them);
  the hole slabs, closed (a door picture) or opened (a round hole cut through, the printed floor
  showing); a cat figurine (body, head, ears, tail) and mice (body, head, ears, tail) standing
  on the floor, on a hole slab or on the cheese the cat sits on; a cat on the table top over a
  mouse under it share the square (the table top is the print: there is no table object);
- Kilkenny Cats: small cat figurines in the players' colours;
- Qubism: pawns (turned profile) and 28-31 mm cubes with an arrow on top.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.boards import Board
from vision.synth.raster3d import Mesh, box, ellipsoid, frame_with_hole, join, moved, polygon, revolve

Colour = tuple[float, float, float]

KILKENNY_BASE: dict[str, Colour] = {
    "red": (35, 35, 195), "blue": (175, 85, 25), "green": (45, 145, 35), "yellow": (25, 200, 235),
    "orange": (15, 115, 235), "purple": (135, 35, 115), "white": (232, 232, 232), "black": (32, 32, 32)}


@dataclass(frozen=True)
class Placed:
    """One piece as drawn: where its top is (world mm), for checking labels against pixels."""
    square: str
    token: str
    top: tuple[float, float, float]
    mesh: Mesh


def _jit(rng: np.random.Generator, c: Colour, s: float) -> Colour:
    v = np.clip(np.asarray(c, np.float64) + rng.normal(0, s, 3), 0, 255)
    return (float(v[0]), float(v[1]), float(v[2]))


def _pick(rng: np.random.Generator, options: list[Colour], s: float = 10) -> Colour:
    return _jit(rng, options[int(rng.integers(0, len(options)))], s)


def piece_set(board: Board, rng: np.random.Generator) -> dict[str, Any]:
    """Colours and sizes of one physical set of pieces (BGR 0..255, mm)."""
    g = board.game
    s: dict[str, Any] = {"scale": float(rng.uniform(0.92, 1.06))}
    if g == "katenmuis":
        pal = [(35, 35, 200), (30, 30, 30), (200, 110, 20), (40, 170, 60), (20, 190, 240), (240, 240, 240),
               (30, 140, 250), (150, 50, 160)]
        a, b = rng.choice(len(pal), 2, replace=False)
        s["cat"], s["mouse"] = _jit(rng, pal[int(a)], 10), _jit(rng, pal[int(b)], 10)
        s["thick"] = float(rng.uniform(3, 6))
    elif g == "chopchop":
        s["slab_back"] = _pick(rng, [(70, 110, 50), (120, 80, 45), (95, 65, 135), (120, 120, 115), (60, 140, 190)])
        s["slab_edge"] = _jit(rng, (190, 205, 215), 10)
        s["tile_face"] = _jit(rng, (205, 230, 240), 8)
        s["cheese"] = _jit(rng, (40, 195, 245), 8)
        s["door"] = _jit(rng, (40, 70, 120), 8)
        s["thick"] = float(rng.uniform(4, 6))
        s["dark_mice"] = bool(rng.random() < 0.5)
        s["mouse"] = _pick(rng, [(60, 60, 65), (50, 75, 100), (30, 30, 32)] if s["dark_mice"]
                           else [(175, 175, 178), (215, 218, 222), (150, 170, 190)])
        s["cat"] = _pick(rng, [(30, 110, 230), (35, 35, 38), (205, 205, 210), (80, 90, 110)])
        s["cat_h"] = float(rng.uniform(26, 34))
    elif g == "kilkenny":
        cols = list(dict(board.settings.get("colours", {})).values()) or ["red", "blue", "green", "yellow"]
        # in a fixed order (a set's order of strings changes with each process's hash seed, and
        # every colour draws its jitter from rng: the same seed gave other images run to run)
        for col in dict.fromkeys([*cols, "red", "blue", "green", "yellow"]):
            s[f"cat:{col}"] = _jit(rng, KILKENNY_BASE.get(col, (128, 128, 128)), 12)
        s["cat_h"] = float(rng.uniform(12, 18))
    elif g == "qubism":
        s["pawn:white"] = _jit(rng, (218, 232, 240), 6)
        s["pawn:black"] = _jit(rng, (38, 32, 30), 6)
        kind = int(rng.integers(0, 3))
        s["cube"] = _jit(rng, [(125, 175, 215), (200, 200, 195), (125, 65, 35)][kind], 8)
        s["arrow"] = _jit(rng, (235, 235, 235), 5) if kind == 2 else _jit(rng, (28, 28, 32), 5)
        s["cube_side"] = float(rng.uniform(28, 31))
        s["pawn_h"] = float(rng.uniform(20, 28))
    return s


# --------------------------------------------------------------------------------------------
# figurines (local: standing on z = 0 at the origin, facing -y)


def cat_figure(h: float, colour: Colour) -> Mesh:
    r = h * 0.28
    body = revolve([(r, 0), (r * 0.98, h * 0.08), (r * 0.8, h * 0.35), (r * 0.55, h * 0.6), (r * 0.42, h * 0.66)],
                   colour, 22, 0.25)
    head = moved(ellipsoid(r * 0.62, r * 0.58, r * 0.55, colour, 16), offset=(0, -r * 0.1, h * 0.74))
    ears = [moved(revolve([(r * 0.2, 0), (0.01, r * 0.45)], colour, 8), offset=(sx * r * 0.32, -r * 0.05, h * 0.74 + r * 0.35))
            for sx in (-1, 1)]
    tail = moved(ellipsoid(r * 0.16, r * 0.16, h * 0.28, colour, 8), offset=(0, r * 0.95, h * 0.3))
    return join([body, head, *ears, tail])


def mouse_figure(length: float, colour: Colour) -> Mesh:
    r = length / 2
    body = moved(ellipsoid(r * 0.62, r, r * 0.6, colour, 16), offset=(0, 0, r * 0.6))
    head = moved(ellipsoid(r * 0.42, r * 0.5, r * 0.4, colour, 12), offset=(0, -r * 0.95, r * 0.75))
    ears = [moved(ellipsoid(r * 0.26, r * 0.08, r * 0.26, colour, 8), offset=(sx * r * 0.35, -r * 0.75, r * 1.15))
            for sx in (-1, 1)]
    tail = moved(box(r * 0.06, r * 0.55, 0, r * 0.1, colour), offset=(0, r * 1.4, 0.3))
    return join([body, head, *ears, tail])


def pawn_figure(h: float, colour: Colour) -> Mesh:
    r = h * 0.38
    body = revolve([(r, 0), (r, h * 0.08), (r * 0.75, h * 0.16), (r * 0.38, h * 0.55), (r * 0.55, h * 0.62),
                    (r * 0.3, h * 0.66)], colour, 24, 0.3)
    head = moved(ellipsoid(r * 0.45, r * 0.45, r * 0.45, colour, 16), offset=(0, 0, h - r * 0.45))
    return join([body, head])


def counter(r: float, t: float, colour: Colour) -> Mesh:
    b = min(0.8, t * 0.25)
    return revolve([(r, 0), (r, t - b), (r - b, t)], colour, 28, 0.2)


ARROW_PARTS = [np.array([[-0.07, 0.36], [0.07, 0.36], [0.07, -0.08], [-0.07, -0.08]]),
               np.array([[-0.24, -0.06], [0.24, -0.06], [0.0, -0.38]])]
"""An arrow pointing north (-y), in units of the cube's side: shaft and head (convex parts)."""


def cube_with_arrow(side: float, colour: Colour, arrow: Colour, direction: str) -> Mesh:
    turn = {"N": 0.0, "E": math.pi / 2, "S": math.pi, "W": -math.pi / 2}.get(direction, 0.0)
    c, s = math.cos(turn), math.sin(turn)
    parts = [box(side / 2, side / 2, 0, side, colour, 0.12)]
    for poly in ARROW_PARTS:
        p = poly * side
        rot = np.column_stack([p[:, 0] * c - p[:, 1] * s, p[:, 0] * s + p[:, 1] * c])
        parts.append(polygon(rot, side + 0.06, arrow, 0.1))
    return join(parts)


def _cheese_tile(half: float, t: float, face: Colour, cheese: Colour, edge: Colour, turn: float) -> Mesh:
    wedge = np.array([[-0.6, 0.45], [0.65, 0.45], [0.5, -0.5]]) * half
    c, s = math.cos(turn), math.sin(turn)
    wedge = wedge @ np.array([[c, s], [-s, c]])
    holes = []
    for hx, hy, hr in ((0.1, 0.15, 0.12), (0.35, 0.05, 0.08), (0.05, 0.3, 0.07)):
        a = np.linspace(0, 2 * math.pi, 10, endpoint=False)
        ring = np.column_stack([hx + hr * np.cos(a), hy + hr * np.sin(a)]) * half
        holes.append(polygon(ring @ np.array([[c, s], [-s, c]]), t + 0.12, tuple(v * 0.8 for v in cheese)))  # type: ignore[arg-type]
    return join([_slab(half, t, face, edge), polygon(wedge, t + 0.06, cheese), *holes])


def _tile_picture(kind: str) -> list[tuple[np.ndarray, Colour]]:
    """Convex polygons (in units of half a tile) drawn on a face-up tile other than cheese."""
    dark: Colour = (50, 50, 60)
    metal: Colour = (170, 165, 160)
    bar = np.array([[-0.1, -0.45], [0.1, -0.45], [0.1, 0.45], [-0.1, 0.45]])
    if kind in ("plus1", "plus2"):
        plus = [np.array([[-0.5, -0.08], [0.0, -0.08], [0.0, 0.08], [-0.5, 0.08]]),
                np.array([[-0.33, -0.25], [-0.17, -0.25], [-0.17, 0.25], [-0.33, 0.25]])]
        bars = [bar + [0.25, 0.0]] if kind == "plus1" else [bar * [0.8, 1] + [0.15, 0.0], bar * [0.8, 1] + [0.45, 0.0]]
        return [(p, (40.0, 40.0, 190.0)) for p in plus + bars]
    if kind == "arrow":
        return [(np.array([[-0.55, -0.1], [0.15, -0.1], [0.15, 0.1], [-0.55, 0.1]]), dark),
                (np.array([[0.1, -0.35], [0.6, 0.0], [0.1, 0.35]]), dark)]
    if kind == "fork":
        tines = [np.array([[x - 0.04, -0.6], [x + 0.04, -0.6], [x + 0.04, -0.15], [x - 0.04, -0.15]]) for x in (-0.18, 0.0, 0.18)]
        return [(p, metal) for p in tines + [np.array([[-0.24, -0.2], [0.24, -0.2], [0.08, 0.05], [-0.08, 0.05]]),
                                             np.array([[-0.06, 0.0], [0.06, 0.0], [0.06, 0.65], [-0.06, 0.65]])]]
    if kind == "knife":
        return [(np.array([[-0.08, -0.65], [0.1, -0.6], [0.1, 0.05], [-0.08, 0.05]]), metal),
                (np.array([[-0.09, 0.05], [0.09, 0.05], [0.09, 0.65], [-0.09, 0.65]]), dark)]
    a = np.linspace(0, 2 * math.pi, 20, endpoint=False)  # crockery: a plate
    return [(np.column_stack([0.6 * np.cos(a), 0.6 * np.sin(a)]), (235.0, 235.0, 240.0)),
            (np.column_stack([0.35 * np.cos(a), 0.35 * np.sin(a)]), (200.0, 170.0, 120.0))]


def _slab(half: float, t: float, top: Colour, edge: Colour) -> Mesh:
    m = box(half, half, 0, t, edge, 0.06)
    m.colour[np.abs(m.n[m.f[:, 0], 2]) > 0.5] = np.asarray(top) / 255.0
    return m


# --------------------------------------------------------------------------------------------
# a square's pieces


def square_frame(board: Board, sid: str) -> tuple[float, float, float]:
    """(centre x, centre y, side) of a square, mm."""
    sq = board.squares[sid]
    xs = [p[0] for p in sq.polygon]
    ys = [p[1] for p in sq.polygon]
    return float(sq.centre[0]), float(sq.centre[1]), float(min(max(xs) - min(xs), max(ys) - min(ys)))


def _figure(board: Board, token: str, pset: dict[str, Any], rng: np.random.Generator, side: float) -> tuple[Mesh, float]:
    """(mesh, height) of one standing piece."""
    base = token.split(":", 1)[0]
    sc = pset["scale"]
    g = board.game
    if g == "katenmuis":
        t = pset["thick"]
        return counter(side * 0.38 * sc, t, pset.get(base, (128, 128, 128))), t
    if g == "chopchop" and base == "cat":
        h = pset["cat_h"] * sc
        return cat_figure(h, pset["cat"]), h
    if base == "mouse":
        ln = side * 0.62 * sc
        return mouse_figure(ln, pset["mouse"]), ln * 0.62
    if g == "kilkenny":
        h = pset["cat_h"] * sc
        return cat_figure(h, pset.get(token, (128, 128, 128))), h
    if base == "pawn":
        h = pset["pawn_h"] * sc
        return pawn_figure(h, pset.get(token, (128, 128, 128))), h
    if base == "cube":
        sd = min(pset["cube_side"], side * 0.9)
        direction = token.split(":", 1)[1] if ":" in token else "N"
        return cube_with_arrow(sd, pset["cube"], pset["arrow"], direction), sd
    return counter(side * 0.3, 4.0, (128, 128, 128)), 4.0


def piece_meshes(board: Board, sid: str, tokens: list[str], pset: dict[str, Any], rng: np.random.Generator,
                 under: str | None = None) -> list[Placed]:
    """The pieces standing on square ``sid``: ``tokens`` (one, or two for Kat en Muis's
    "cat+mouse" and Chop! Chop!'s cat over a mouse), on top of ``under`` (a Chop! Chop! slab
    kind lying there: "slab", "cheese", "hole_closed", "hole_open", "tile:<type>" (another
    face-up tile: plus1, plus2, arrow, fork, knife, crockery), or None)."""
    cx, cy, side = square_frame(board, sid)
    out: list[Placed] = []
    z = 0.0
    if under is not None:
        t = pset["thick"]
        half = side * float(rng.uniform(0.43, 0.47))
        turn = float(rng.normal(0, 0.04))
        ox, oy = rng.normal(0, side * 0.02, 2)
        if under == "slab":
            m = _slab(half, t, pset["slab_back"], pset["slab_edge"])
        elif under == "cheese":
            m = _cheese_tile(half, t, pset["tile_face"], pset["cheese"], pset["slab_edge"], float(rng.uniform(0, 2 * math.pi)))
        elif under == "hole_open":
            m = frame_with_hole(half, side * 0.26, 0, t, pset["tile_face"], (40, 45, 55))
        elif under.startswith("tile:"):  # another face-up tile, lying there for a moment
            m = join([_slab(half, t, pset["tile_face"], pset["slab_edge"]),
                      *[polygon(poly * half, t + 0.06, colour) for poly, colour in _tile_picture(under[5:])]])
        else:  # a closed hole slab: a door picture
            door = np.array([[-0.3, 0.5], [0.3, 0.5], [0.3, -0.1], [0.15, -0.35], [-0.15, -0.35], [-0.3, -0.1]]) * half
            m = join([_slab(half, t, pset["tile_face"], pset["slab_edge"]), polygon(door, t + 0.06, pset["door"])])
        out.append(Placed(sid, under, (cx + ox, cy + oy, t), moved(m, turn, (cx + ox, cy + oy, 0.0))))
        z = t
    n = len(tokens)
    stacked = n == 2 and board.game == "katenmuis" and rng.random() < 0.5
    ang = float(rng.uniform(0, 2 * math.pi))
    for k, token in enumerate(tokens):
        m, h = _figure(board, token, pset, rng, side)
        jitter = side * (0.05 if board.game != "qubism" else 0.03)
        dx, dy = rng.normal(0, jitter, 2)
        if n == 2 and not stacked:
            ang += math.pi * k
            off = side * (0.2 if board.game == "katenmuis" else 0.17)
            dx, dy = off * math.cos(ang), off * math.sin(ang)
            m = moved(m, scale=(0.8, 0.8, 1.0)) if board.game == "katenmuis" else m
        yaw = float(rng.uniform(-math.pi, math.pi)) if token.split(":")[0] != "cube" else float(rng.normal(0, 0.08))
        x, y = cx + float(dx), cy + float(dy)
        out.append(Placed(sid, token, (x, y, z + h), moved(m, yaw, (x, y, z))))
        if stacked:
            z += h
    return out
