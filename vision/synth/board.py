"""Synthetic labelled board scenes, for tests, evaluation and the benchmark.

A scene is the printable board (``vision.printing.render_board``) seen by a pinhole camera at a
random pose (tilt up to 35 degrees, any turn, board filling 45-90 % of the frame), on a table,
lit unevenly (gradient, spot, colour cast), with a cast shadow, pieces drawn as projected 3-D
solids with shading and soft contact shadows (counters as discs with a rim, cats and mice as
figures with a head and ears, slabs and cheese as tiles, cubes with an arrow on top, pawns),
sometimes a hand over part of the board (covering one marker in some scenes, never all), then
blurred, noisy and JPEG-compressed. Output 1280x720 BGR.

The dataset format and its evaluation are in ``vision.synth.board_scenes``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.boards import Board
from vision.printing import render_board

W, H = 1280, 720
RENDER_PX_PER_MM = 4.0
FORMAT = "companion-board-scenes/1"

# Piece palettes (BGR); a group draws its colours from these with jitter.
COUNTER_COLOURS = {"red": (40, 40, 190), "black": (45, 45, 45), "blue": (170, 90, 30),
                   "green": (60, 150, 40), "yellow": (40, 200, 230), "white": (235, 235, 235)}
KILKENNY_COLOURS = {"red": (40, 40, 200), "blue": (190, 100, 30), "green": (50, 160, 40),
                    "yellow": (30, 210, 235), "orange": (20, 120, 240), "purple": (140, 40, 120)}


# --------------------------------------------------------------------------------------------
# positions


def _spots(board: Board) -> dict[str, list[str]]:
    """Square ids with identical polygons are one physical spot (a table top over the floor)."""
    by_poly: dict[tuple[tuple[float, float], ...], list[str]] = {}
    for sid, sq in board.squares.items():
        key = tuple((round(x, 2), round(y, 2)) for x, y in sq.polygon)
        by_poly.setdefault(key, []).append(sid)
    return {ids[0]: ids for ids in by_poly.values()}


def random_position(board: Board, rng: np.random.Generator, reference: bool = False
                    ) -> dict[str, str]:
    """A plausible position (square -> token) for the board's game."""
    game = board.game
    ids = list(board.squares)
    pos: dict[str, str] = {}
    if game == "katenmuis":
        track = [s for s in ids if board.squares[s].kind != "start"] or ids
        starts = [s for s in ids if board.squares[s].kind == "start"]
        if reference and len(starts) >= 2:
            pos[starts[0]] = "cat"
            pos[starts[1]] = "mouse"
        else:
            a, b = rng.choice(track + starts, 2, replace=False)
            pos[str(a)], pos[str(b)] = "cat", "mouse"
            if rng.random() < 0.15:  # K7: the cat caught up with the mouse
                pos = {str(a): "cat+mouse"}
    elif game == "chopchop":
        holes = list(board.region("holes"))
        tops = list(board.region("table_top"))
        under = set(board.region("under_table"))
        floor = [s for s in ids if s not in holes and s not in tops and s not in under
                 and ":" not in s]
        under_ids = [s for s in ids if s in under]
        slabs = list(board.region("slabs")) or floor
        n_slab = len(slabs) if reference else int(rng.integers(5, len(slabs) + 1))
        for s in rng.choice(slabs, n_slab, replace=False):
            pos[str(s)] = "slab"
        free = [s for s in floor if s not in pos]
        n_mice = 4 if reference else int(rng.integers(0, 5))
        mouse_spots = holes + free + under_ids
        rng.shuffle(mouse_spots)
        for i in range(n_mice):
            s = holes[i] if reference and i < len(holes) else mouse_spots.pop()
            if s in pos:
                continue
            pos[s] = f"mouse:{i + 1}"
        free = [s for s in floor if s not in pos]
        if free and (reference or rng.random() < 0.6):
            for s in rng.choice(free, min(len(free), 1 if reference else int(rng.integers(1, 3))),
                                replace=False):
                pos[str(s)] = "cheese"
        for h in holes:
            if h not in pos:
                pos[h] = "hole"
        cat_spots = [s for s in tops + floor if s not in pos] or tops
        pos[str(rng.choice(cat_spots))] = "cat"
        # One spot shows one piece: drop floor tokens under a table-top piece.
        for t in tops:
            if t in pos:
                pos.pop(t.split(":", 1)[1], None)
    elif game == "kilkenny":
        colours = dict(board.settings.get("colours", {})) or {
            "south": "red", "north": "blue", "west": "green", "east": "yellow"}
        names = list(colours.values())
        n_col = 4 if reference else int(rng.integers(2, 5))
        cols = names[:n_col]
        if reference:
            for side, col in list(colours.items())[:n_col]:
                for s in board.region(f"start:{side}"):
                    pos[s] = f"cat:{col}"
            if not pos:
                reference = False
        if not reference:
            free = list(ids)
            rng.shuffle(free)
            for col in cols:
                for _ in range(int(rng.integers(1, 9))):
                    pos[free.pop()] = f"cat:{col}"
    elif game == "qubism":
        players = [k.split(":", 1)[1] for k in board.regions if k.startswith("start:")] or [
            "white", "black"]
        free = list(ids)
        rng.shuffle(free)
        for p in players[:2]:
            start = board.region(f"start:{p}")
            s = start[0] if reference and start else free.pop()
            if s in free:
                free.remove(s)
            pos[s] = f"pawn:{p}"
        n_cubes = 4 if reference else int(rng.integers(0, 10))
        dirs = "NESW"
        for i in range(n_cubes):
            pos[free.pop()] = f"cube:{dirs[i % 4] if reference else dirs[int(rng.integers(0, 4))]}"
    return pos


# --------------------------------------------------------------------------------------------
# camera


@dataclass
class Camera:
    K: np.ndarray
    R: np.ndarray
    C: np.ndarray

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (x mm, y mm, height mm) -> pixels."""
        p = (self.R @ (np.asarray(pts, np.float64).reshape(-1, 3) - self.C).T)
        uv = self.K @ p
        return (uv[:2] / uv[2]).T

    def depth(self, pts: np.ndarray) -> np.ndarray:
        return (self.R @ (np.asarray(pts, np.float64).reshape(-1, 3) - self.C).T)[2]

    def homography(self) -> np.ndarray:
        h = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], -self.R @ self.C])
        return h / h[2, 2]


def random_camera(board: Board, rng: np.random.Generator, max_tilt_deg: float = 35.0) -> Camera:
    f = float(rng.uniform(850, 1150))
    K = np.array([[f, 0, W / 2 + rng.uniform(-20, 20)], [0, f, H / 2 + rng.uniform(-15, 15)],
                  [0, 0, 1]])
    centre = np.array([board.width_mm / 2, board.height_mm / 2, 0.0])
    tilt = math.radians(float(rng.uniform(0, max_tilt_deg)))
    az = float(rng.uniform(0, 2 * math.pi))
    yaw = float(rng.normal(0, 0.25)) + (math.pi if rng.random() < 0.15 else 0.0)
    target = centre + np.array([rng.uniform(-15, 15), rng.uniform(-10, 10), 0])
    back = np.array([math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), math.cos(tilt)])
    up_hint = np.array([math.sin(yaw), -math.cos(yaw), 0.0])
    corners = np.array([[0, 0, 0], [board.width_mm, 0, 0], [board.width_mm, board.height_mm, 0],
                        [0, board.height_mm, 0]], np.float64)
    fill = float(rng.uniform(0.5, 0.92))
    dist = 500.0
    cam = None
    for _ in range(30):
        C = target + back * dist
        fwd = (target - C) / np.linalg.norm(target - C)
        r = np.cross(up_hint, fwd)
        r /= np.linalg.norm(r)
        d = np.cross(r, fwd)
        R = np.stack([r, d, fwd])
        cam = Camera(K, R, C)
        px = cam.project(corners)
        span = max((px[:, 0].max() - px[:, 0].min()) / W, (px[:, 1].max() - px[:, 1].min()) / H)
        inside = (px[:, 0].min() > 8 and px[:, 1].min() > 8 and px[:, 0].max() < W - 8
                  and px[:, 1].max() < H - 8)
        if abs(span - fill) < 0.02 and inside:
            break
        dist *= span / fill if inside or span < fill else 1.08
        if not inside and span <= fill:
            fill *= 0.97
    assert cam is not None
    return cam


# --------------------------------------------------------------------------------------------
# drawing


def _shade(colour: tuple[int, int, int] | np.ndarray, k: float) -> tuple[int, int, int]:
    c = np.clip(np.asarray(colour, np.float64) * k, 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


def _poly(img: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int]) -> None:
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32).reshape(-1, 1, 2)], colour,
                 cv2.LINE_AA, shift=4)


def _hull(img: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int]) -> None:
    hull = cv2.convexHull(np.float32(pts).reshape(-1, 1, 2)).reshape(-1, 2)
    _poly(img, hull, colour)


def _circle3(cx: float, cy: float, r: float, z: float, n: int = 28) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a), np.full(n, z)])


def _cylinder(img: np.ndarray, cam: Camera, cx: float, cy: float, r: float, z0: float, z1: float,
              colour: tuple[int, int, int], rim: bool = False) -> None:
    bottom, top = _circle3(cx, cy, r, z0), _circle3(cx, cy, r, z1)
    _hull(img, np.vstack([cam.project(bottom), cam.project(top)]), _shade(colour, 0.62))
    _poly(img, cam.project(top), colour)
    if rim:
        _poly(img, cam.project(_circle3(cx, cy, r * 0.78, z1)), _shade(colour, 0.85))
        _poly(img, cam.project(_circle3(cx - r * 0.2, cy - r * 0.2, r * 0.3, z1)),
              _shade(colour, 1.12))


def _box(img: np.ndarray, cam: Camera, cx: float, cy: float, half: float, z1: float,
         colour: tuple[int, int, int], top_colour: tuple[int, int, int] | None = None
         ) -> np.ndarray:
    """A box standing on the board; returns the projected top face (4 pixel points)."""
    x0, x1, y0, y1 = cx - half, cx + half, cy - half, cy + half
    base = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], np.float64)
    top = base + np.array([0, 0, z1])
    light = np.array([-0.4, -0.6, 0.7])
    faces = []
    for i in range(4):
        j = (i + 1) % 4
        quad = np.array([base[i], base[j], top[j], top[i]])
        centre = quad.mean(axis=0)
        normal = np.array([centre[0] - cx, centre[1] - cy, 0.0])
        normal /= np.linalg.norm(normal)
        if np.dot(normal, cam.C - centre) > 0:
            faces.append((float(cam.depth(centre[None])[0]), quad, normal))
    for _, quad, normal in sorted(faces, key=lambda t: -t[0]):
        k = 0.55 + 0.3 * max(0.0, float(np.dot(normal, light / np.linalg.norm(light))))
        _poly(img, cam.project(quad), _shade(colour, k))
    top_px = cam.project(top)
    _poly(img, top_px, top_colour or colour)
    return top_px


def _figure(img: np.ndarray, cam: Camera, cx: float, cy: float, r: float, h: float,
            colour: tuple[int, int, int], ears: bool) -> None:
    _cylinder(img, cam, cx, cy, r, 0, h * 0.65, colour)
    hr = r * 0.62
    hx, hy = cx, cy - r * 0.15
    _cylinder(img, cam, hx, hy, hr, h * 0.65, h, _shade(colour, 1.05))
    if ears:
        for side in (-1, 1):
            tri = np.array([[hx + side * hr * 0.3, hy - hr * 0.5, h],
                            [hx + side * hr * 0.95, hy - hr * 0.3, h],
                            [hx + side * hr * 0.75, hy - hr * 1.3, h * 1.15]])
            _poly(img, cam.project(tri), _shade(colour, 0.8))
    else:
        for side in (-1, 1):
            _poly(img, cam.project(_circle3(hx + side * hr * 0.7, hy - hr * 0.7, hr * 0.4, h)),
                  _shade(colour, 0.9))
    eye = cam.project(_circle3(hx, hy + hr * 0.2, hr * 0.18, h + 0.1, 10))
    _poly(img, eye, (20, 20, 20))


ARROW = np.array([[-0.12, 0.55], [0.12, 0.55], [0.12, -0.05], [0.32, -0.05], [0.0, -0.6],
                  [-0.32, -0.05], [-0.12, -0.05]])  # pointing north (-y), unit = cube side


@dataclass
class PieceLook:
    """One physical set of pieces: colours per token class (BGR)."""

    colours: dict[str, tuple[int, int, int]] = field(default_factory=dict)


def random_look(board: Board, rng: np.random.Generator) -> PieceLook:
    def jitter(c: tuple[int, int, int], amount: float = 18) -> tuple[int, int, int]:
        v = np.clip(np.asarray(c, np.float64) + rng.normal(0, amount, 3), 0, 255)
        return (int(v[0]), int(v[1]), int(v[2]))

    look: dict[str, tuple[int, int, int]] = {}
    game = board.game
    if game == "katenmuis":
        names = list(COUNTER_COLOURS)
        a, b = rng.choice(len(names), 2, replace=False)
        look["cat"], look["mouse"] = jitter(COUNTER_COLOURS[names[a]]), jitter(COUNTER_COLOURS[names[b]])
    elif game == "chopchop":
        look["slab"] = jitter((170, 120, 70), 25)  # face-down slab backs
        look["cheese"] = jitter((60, 205, 240), 10)
        look["hole"] = jitter((60, 90, 120), 10)
        look["cat"] = jitter((40, 110, 220), 20)
        look["mouse"] = jitter((150, 150, 150), 20)
    elif game == "kilkenny":
        for col in list(dict(board.settings.get("colours", {})).values()) or ["red", "blue", "green", "yellow"]:
            look[f"cat:{col}"] = jitter(KILKENNY_COLOURS.get(col, (128, 128, 128)), 12)
    elif game == "qubism":
        look["pawn:white"] = jitter((225, 228, 230), 8)
        look["pawn:black"] = jitter((40, 40, 45), 8)
        look["cube"] = jitter((150, 200, 225), 15)
        look["arrow"] = jitter((30, 30, 30), 6)
    return PieceLook(look)


def _piece_colour(look: PieceLook, token: str) -> tuple[int, int, int]:
    if token in look.colours:
        return look.colours[token]
    base = token.split(":")[0]
    if base in look.colours:
        return look.colours[base]
    for k, v in look.colours.items():
        if k.endswith(token.split(":")[-1]):
            return v
    return (128, 128, 128)


def draw_piece(img: np.ndarray, cam: Camera, board: Board, sid: str, token: str, look: PieceLook,
               rng: np.random.Generator) -> None:
    sq = board.squares[sid]
    xs = [p[0] for p in sq.polygon]
    ys = [p[1] for p in sq.polygon]
    size = min(max(xs) - min(xs), max(ys) - min(ys))
    cx, cy = sq.centre
    cx += float(rng.normal(0, size * 0.04))
    cy += float(rng.normal(0, size * 0.04))
    colour = _piece_colour(look, token)
    base = token.split(":")[0]
    if token == "cat+mouse":  # K7: both counters on one square, the mouse over the cat's edge
        for k, part in ((-1, "cat"), (1, "mouse")):
            _cylinder(img, cam, cx + k * size * 0.19, cy, size * 0.3, 0, 4.0, _piece_colour(look, part), rim=True)
    elif base in ("cat", "mouse") and board.game == "katenmuis":
        _cylinder(img, cam, cx, cy, size * 0.33, 0, 4.0, colour, rim=True)
    elif base in ("cat", "mouse"):
        r = size * (0.36 if base == "cat" else 0.3)
        _figure(img, cam, cx, cy, r, min(size * 0.8, 16.0), colour, ears=base == "cat")
    elif base in ("slab", "hole"):
        top = _box(img, cam, sq.centre[0], sq.centre[1], size * 0.45, 3.0, _shade(colour, 0.8),
                   colour)
        if base == "hole":
            ctr = top.mean(axis=0)
            _poly(img, ctr + (top - ctr) * 0.5, (25, 25, 30))
        else:
            ctr = top.mean(axis=0)
            cv2.polylines(img, [np.int32(ctr + (top - ctr) * 0.75).reshape(-1, 1, 2)], True,
                          _shade(colour, 1.2), 2, cv2.LINE_AA)
    elif base == "cheese":
        _box(img, cam, cx, cy, size * 0.32, 6.0, _shade(colour, 0.85), colour)
        for dx, dy in ((-0.12, -0.1), (0.1, 0.08)):
            _poly(img, cam.project(_circle3(cx + dx * size, cy + dy * size, size * 0.06, 6.05, 12)),
                  _shade(colour, 0.7))
    elif base == "pawn":
        _cylinder(img, cam, cx, cy, size * 0.3, 0, 4.0, colour)
        _cylinder(img, cam, cx, cy, size * 0.14, 4.0, 16.0, colour)
        _cylinder(img, cam, cx, cy, size * 0.2, 16.0, 22.0, _shade(colour, 1.05))
    elif base == "cube":
        side = size * 0.8
        top = _box(img, cam, cx, cy, side / 2, side, colour)
        d = token.split(":")[1] if ":" in token else "N"
        ang = {"N": 0.0, "E": math.pi / 2, "S": math.pi, "W": -math.pi / 2}[d]
        ca, sa = math.cos(ang), math.sin(ang)
        pts = ARROW * side * 0.8
        rot = np.column_stack([pts[:, 0] * ca - pts[:, 1] * sa, pts[:, 0] * sa + pts[:, 1] * ca])
        world = np.column_stack([cx + rot[:, 0], cy + rot[:, 1], np.full(len(rot), side + 0.05)])
        _poly(img, cam.project(world), look.colours.get("arrow", (30, 30, 30)))
        del top


def _contact_shadow(mask: np.ndarray, cam: Camera, board: Board, sid: str) -> None:
    sq = board.squares[sid]
    xs = [p[0] for p in sq.polygon]
    size = max(xs) - min(xs)
    cx, cy = sq.centre
    pts = cam.project(_circle3(cx + size * 0.08, cy + size * 0.1, size * 0.42, 0.0, 20))
    cv2.fillPoly(mask, [np.int32(pts).reshape(-1, 1, 2)], 1.0)


def _hand(rng: np.random.Generator, over: np.ndarray | None) -> np.ndarray:
    """A hand-shaped mask (float 0..1) coming in from an image edge, over point ``over``."""
    mask = np.zeros((H, W), np.float32)
    if over is None:
        over = np.array([rng.uniform(200, W - 200), rng.uniform(150, H - 150)])
    edge = int(rng.integers(0, 4))
    wrist = {0: (over[0] + rng.uniform(-100, 100), -80), 1: (W + 80, over[1] + rng.uniform(-80, 80)),
             2: (over[0] + rng.uniform(-100, 100), H + 80), 3: (-80, over[1] + rng.uniform(-80, 80))}[edge]
    wrist_a = np.asarray(wrist, np.float64)
    direction = over - wrist_a
    direction /= np.linalg.norm(direction) + 1e-9
    normal = np.array([-direction[1], direction[0]])
    scale = float(rng.uniform(0.8, 1.2))
    palm = over - direction * 40 * scale
    cv2.line(mask, tuple(int(v) for v in wrist_a), tuple(int(v) for v in palm), 1.0,
             int(95 * scale))
    cv2.ellipse(mask, (int(palm[0]), int(palm[1])), (int(60 * scale), int(55 * scale)),
                math.degrees(math.atan2(direction[1], direction[0])), 0, 360, 1.0, -1)
    for k, off in enumerate((-1.5, -0.5, 0.5, 1.5)):
        base = palm + direction * 40 * scale + normal * off * 24 * scale
        tip = base + direction * (55 + 10 * (k in (1, 2))) * scale + normal * off * 6
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in tip), 1.0,
                 int(20 * scale))
    thumb_base = palm + normal * 50 * scale
    cv2.line(mask, tuple(int(v) for v in thumb_base),
             tuple(int(v) for v in thumb_base + normal * 35 * scale + direction * 30 * scale), 1.0,
             int(22 * scale))
    return mask


@dataclass
class Scene:
    image: np.ndarray
    board: Board
    squares: dict[str, str]
    occluded: list[str]
    markers_visible: list[int]
    markers_hidden: list[int]
    homography: np.ndarray


_ART: dict[tuple[str, int], np.ndarray] = {}


def _board_art(board: Board) -> np.ndarray:
    key = (board.name, id(board))
    if key not in _ART:
        _ART.clear()
        _ART[key] = render_board(board, RENDER_PX_PER_MM)
    return _ART[key]


def render_scene(board: Board, position: dict[str, str], look: PieceLook,
                 rng: np.random.Generator, hand: bool | None = None, hide_marker: bool | None = None,
                 clean: bool = False) -> Scene:
    """One synthetic camera frame of ``board`` with ``position`` on it, and its labels."""
    cam = random_camera(board, rng)
    hmm = cam.homography()
    s = RENDER_PX_PER_MM
    art = _board_art(board)
    table = np.empty((H, W, 3), np.uint8)
    table[:] = np.clip(rng.normal([70, 100, 135], 25), 20, 230).astype(np.uint8)
    stripes = (np.sin(np.arange(W) / rng.uniform(8, 30) + rng.uniform(0, 6)) * 10).astype(np.int16)
    table = np.clip(table.astype(np.int16) + stripes[None, :, None], 0, 255).astype(np.uint8)
    h_art = hmm @ np.diag([1 / s, 1 / s, 1.0])
    img = cv2.warpPerspective(art, h_art, (W, H), dst=table, flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_TRANSPARENT)
    if clean:
        hand, hide_marker = False, False
    # contact shadows, then pieces far to near
    shadow = np.zeros((H, W), np.float32)
    for sid in position:
        _contact_shadow(shadow, cam, board, sid)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 6)
    img = (img.astype(np.float32) * (1 - 0.35 * shadow[..., None])).astype(np.uint8)
    order = sorted(position, key=lambda sid: -float(cam.depth(np.array([[*board.squares[sid].centre, 0]]))[0]))
    for sid in order:
        draw_piece(img, cam, board, sid, position[sid], look, rng)
    f = img.astype(np.float32)
    if not clean:
        # uneven light: gradient + spot, colour cast, a cast shadow band
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        g = 1.0 + rng.uniform(-0.25, 0.25) * (xx / W - 0.5) + rng.uniform(-0.25, 0.25) * (yy / H - 0.5)
        sx, sy = rng.uniform(0, W), rng.uniform(0, H)
        g += rng.uniform(0, 0.25) * np.exp(-((xx - sx) ** 2 + (yy - sy) ** 2) / (2 * rng.uniform(150, 400) ** 2))
        g *= rng.uniform(0.7, 1.05)
        f *= g[..., None]
        f *= rng.uniform(0.9, 1.1, 3)[None, None, :].astype(np.float32)
        if rng.random() < 0.5:
            sh = np.zeros((H, W), np.float32)
            p0 = np.array([rng.uniform(0, W), 0])
            p1 = np.array([rng.uniform(0, W), H])
            width = rng.uniform(40, 160)
            cv2.line(sh, tuple(int(v) for v in p0), tuple(int(v) for v in p1), 1.0, int(width))
            sh = cv2.GaussianBlur(sh, (0, 0), rng.uniform(10, 30))
            f *= (1 - rng.uniform(0.2, 0.45) * sh)[..., None]
    hidden: list[int] = []
    hand_mask = np.zeros((H, W), np.float32)
    marker_px = {m.id: cam.project(np.column_stack([np.float64(m.corners()), np.zeros(4)]))
                 for m in board.markers}
    if hide_marker is None:
        hide_marker = rng.random() < 0.25
    if hand is None:
        hand = rng.random() < 0.3
    if hide_marker and board.markers:
        target = board.markers[int(rng.integers(0, len(board.markers)))]
        centre = marker_px[target.id].mean(axis=0)
        if rng.random() < 0.5:
            hand_mask = _hand(rng, centre)
        else:  # a cup or the box lid over the marker
            cv2.circle(hand_mask, (int(centre[0]), int(centre[1])),
                       int(np.linalg.norm(marker_px[target.id][0] - marker_px[target.id][2]) * 0.8), 1.0, -1)
    elif hand:
        sq = board.squares[list(board.squares)[int(rng.integers(0, len(board.squares)))]]
        over = cam.project(np.array([[*sq.centre, 0.0]]))[0]
        hand_mask = _hand(rng, over)
    if hand_mask.any():
        # never over every marker
        covered = [mid for mid, px in marker_px.items()
                   if _coverage(hand_mask, px) > 0.02]
        if len(covered) == len(marker_px):
            hand_mask[:] = 0
        skin = np.array(rng.normal([120, 150, 200], 15), np.float32)
        tex = skin[None, None, :] * (0.85 + 0.15 * cv2.GaussianBlur(
            rng.random((H, W)).astype(np.float32), (0, 0), 8)[..., None] * 3)
        soft = cv2.GaussianBlur(hand_mask, (0, 0), 1.5)[..., None]
        drop = cv2.GaussianBlur(np.roll(hand_mask, (25, 20), (0, 1)), (0, 0), 15)[..., None]
        f = f * (1 - 0.4 * drop) * (1 - soft) + tex * soft
    for mid, px in marker_px.items():
        inside = (px[:, 0].min() >= 2 and px[:, 1].min() >= 2 and px[:, 0].max() < W - 2
                  and px[:, 1].max() < H - 2)
        if not inside or _coverage(hand_mask, px) > 0.02:
            hidden.append(mid)
    occluded = []
    if hand_mask.any():
        for sid, sq in board.squares.items():
            px = cam.project(np.column_stack([np.float64(sq.polygon), np.zeros(len(sq.polygon))]))
            if _coverage(hand_mask, px) > 0.15:
                occluded.append(sid)
    if not clean:
        sigma = float(rng.uniform(0, 1.3))
        if sigma > 0.3:
            f = cv2.GaussianBlur(f, (0, 0), sigma)
        f += rng.normal(0, rng.uniform(1, 6), f.shape).astype(np.float32)
    out = np.clip(f, 0, 255).astype(np.uint8)
    if not clean:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 95))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    visible = [m.id for m in board.markers if m.id not in hidden]
    return Scene(out, board, dict(position), sorted(occluded), visible, sorted(hidden), hmm)


def _coverage(mask: np.ndarray, quad_px: np.ndarray) -> float:
    x0, y0 = np.floor(quad_px.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad_px.max(axis=0)).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(poly, [np.int32(quad_px - [x0, y0]).reshape(-1, 1, 2)], 1)
    area = poly.sum()
    if area == 0:
        return 0.0
    return float((mask[y0:y1, x0:x1] * poly).sum() / area)
