"""Synthetic dice scenes: images plus labels in the datasets format.

Renders dice as small cubes seen by a camera tilted 0..45 degrees, with varied body and pip
colours, sizes, rotations, bevels, translucency, shadows, uneven light, busy backgrounds,
touching dice, blur, noise and JPEG artefacts. Used by the tests, the training script and
the bench. Everything is driven by a ``numpy.random.Generator`` so a seed reproduces a set.

``render_scene(rng)`` -> (image_bgr, labels) where labels is one datasets entry without "file".
``render_throw(rng)`` -> list of (t, frame) of a throw: dice rolling, a hand passing over, rest.
``write_dataset(dir, n, seed)`` writes ``labels.json`` + ``images/`` like ../shared/datasets.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.colour_names import LUMA, colour_name  # noqa: F401 (colour_name: the dice's names)
from vision.synth.ground import _hsv2bgr, _lighting, _smooth_noise, random_background

# pip centres on a unit face, per value
PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.27, 0.5), (0.27, 0.75), (0.73, 0.25), (0.73, 0.5), (0.73, 0.75)],
}

TEX = 96  # face texture size in pixels
HIDDEN_FROM = 0.2  # a die with more than this of its top face under a hand is "hidden"


@dataclass
class SceneParams:
    """Ranges for one scene; defaults give wide variation."""

    width: int = 640
    height: int = 640
    n_dice: tuple[int, int] = (1, 14)
    die_px: tuple[float, float] = (18.0, 80.0)  # top face side, pixels (before tilt)
    tilt_deg: tuple[float, float] = (0.0, 45.0)
    touching_prob: float = 0.35
    blur_sigma: tuple[float, float] = (0.0, 1.4)
    noise_sigma: tuple[float, float] = (0.0, 7.0)
    jpeg_quality: tuple[int, int] = (45, 95)
    translucent_prob: float = 0.15
    # share of dice whose pips differ from the body more by hue than by brightness (red pips on a
    # black die, black on dark red, gold on brown: 25-80 apart in luma); 0 draws nothing for it,
    # so the scenes of a seed stay as they were (the bench's sets)
    hue_pips: float = 0.0
    # a hand over part of the dice (reaching for one): dice whose top face it covers more than
    # HIDDEN_FROM of are not labelled but listed under "hidden" (read or asked about, never misread)
    hand_prob: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    # body colours (BGR) of the dice, in order, instead of random ones (a game's own dice);
    # the scene then has exactly this many dice (fewer if they don't fit), the pips contrast
    # with each body, and each label says which body it is ("die": the index)
    bodies: tuple[tuple[float, float, float], ...] = ()


# ---------------------------------------------------------------- colours


def random_die_colours(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Body and pip colours (BGR float) with enough contrast between them."""
    kind = rng.random()
    if kind < 0.2:  # white / ivory
        body = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 40), rng.uniform(200, 255))
    elif kind < 0.32:  # black / dark grey
        body = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 60), rng.uniform(15, 70))
    elif kind < 0.38:  # grey
        body = _hsv2bgr(0, 0, rng.uniform(90, 170))
    else:  # saturated colour, any hue, dark to light
        body = _hsv2bgr(rng.uniform(0, 180), rng.uniform(110, 255), rng.uniform(70, 250))
    lum = float(body @ LUMA)
    r = rng.random()
    if r < 0.12:  # coloured pips (gold, red, blue...) that still contrast
        for _ in range(20):
            pip = _hsv2bgr(rng.uniform(0, 180), rng.uniform(80, 255), rng.uniform(40, 255))
            if abs(float(pip @ LUMA) - lum) > 80:
                return body, pip
    if lum > 140:
        pip = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 80), rng.uniform(5, 60))
    elif lum < 90:
        pip = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 40), rng.uniform(200, 255))
    else:
        pip = (
            _hsv2bgr(0, 0, rng.uniform(225, 255))
            if rng.random() < 0.6
            else _hsv2bgr(0, 0, rng.uniform(5, 40))
        )
    return body, pip


def hue_pip_colours(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A body and pips apart more in hue than in brightness (BGR float): saturated pips on a dark
    body, or dark pips on a deep colour, 25-80 apart in luma."""
    for _ in range(40):
        if rng.random() < 0.6:  # dark body (black, navy, brown), coloured pips
            body = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 200), rng.uniform(15, 70))
            pip = _hsv2bgr(rng.uniform(0, 180), rng.uniform(150, 255), rng.uniform(120, 255))
        else:  # deep colour, near-black or other deep pips
            body = _hsv2bgr(rng.uniform(0, 180), rng.uniform(150, 255), rng.uniform(90, 200))
            pip = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(10, 70))
        if 25 <= abs(float((body - pip) @ LUMA)) <= 80:
            return body, pip
    return body, pip


# ---------------------------------------------------------------- die faces


def face_texture(rng: np.random.Generator, value: int | None, body: np.ndarray, pip: np.ndarray,
                 style: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
    """A TEX x TEX face (BGR float) and its alpha (rounded corners)."""
    tex = np.empty((TEX, TEX, 3), np.float32)
    tex[:] = body
    if style.get("marble", 0.0) > 0.8:  # swirled plastic: veins of a second colour
        other = body * rng.uniform(0.3, 0.7) if rng.random() < 0.5 else np.float32(rng.uniform(0, 255, 3))
        n = _smooth_noise(rng, TEX, TEX, int(rng.integers(3, 7)))
        veins = np.abs(np.sin(n * rng.uniform(8, 20)))[..., None] ** rng.uniform(0.5, 3.0)
        mix = (1 - veins) * rng.uniform(0.4, 1.0)
        tex[:] = tex * (1 - mix) + other * mix
    # soft body shading
    g = np.linspace(-1, 1, TEX, dtype=np.float32)
    shade = 1.0 + style["face_grad"] * (g[None, :] * style["gx"] + g[:, None] * style["gy"])
    tex *= shade[..., None]
    if value is not None:
        r = style["pip_r"] * TEX
        for cx, cy in PIPS[value]:
            # jitter layout a little per die style
            cx = 0.5 + (cx - 0.5) * style["spread"]
            cy = 0.5 + (cy - 0.5) * style["spread"]
            centre = (int(cx * TEX * 16), int(cy * TEX * 16))
            if style.get("dimple", 0.0) > 0.5:  # a dimple: its far side in shadow
                cv2.circle(tex, centre, int(r * 16), (pip * 0.55).tolist(), -1, cv2.LINE_AA, shift=4)
                off = (int(centre[0] + style["glint_dx"] * r * 8), int(centre[1] + style["glint_dy"] * r * 8))
                cv2.circle(tex, off, int(r * 13), pip.tolist(), -1, cv2.LINE_AA, shift=4)
            else:
                cv2.circle(tex, centre, int(r * 16), pip.tolist(), -1, cv2.LINE_AA, shift=4)
            if style.get("pip_gloss", 0.0) > 0.7:  # glossy paint: a glint on each pip
                g = (int(centre[0] - style["glint_dx"] * r * 16), int(centre[1] - style["glint_dy"] * r * 16))
                cv2.circle(tex, g, int(r * 16 * 0.35), (255.0, 255.0, 255.0), -1, cv2.LINE_AA, shift=4)
            if style["pip_ring"] > 0.5:  # engraved pips have a darker rim
                cv2.circle(tex, centre, int(r * 16), (body * 0.55).tolist(), max(1, int(r / 5)),
                           cv2.LINE_AA, shift=4)
        if value == 1 and style["big_one"] > 0.7:
            cv2.circle(tex, (TEX // 2, TEX // 2), int(r * 1.7), pip.tolist(), -1, cv2.LINE_AA)
    # bevel: darker/lighter rim
    alpha = np.zeros((TEX, TEX), np.float32)
    rad = int(style["corner"] * TEX)
    cv2.rectangle(alpha, (rad, 0), (TEX - 1 - rad, TEX - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, rad), (TEX - 1, TEX - 1 - rad), 1.0, -1)
    for cx, cy in ((rad, rad), (TEX - 1 - rad, rad), (rad, TEX - 1 - rad), (TEX - 1 - rad, TEX - 1 - rad)):
        cv2.circle(alpha, (cx, cy), rad, 1.0, -1, cv2.LINE_AA)
    rim = cv2.GaussianBlur(alpha, (0, 0), TEX * 0.04)
    tex *= (1.0 - style["bevel"] * (1.0 - rim))[..., None]
    return tex, alpha


def _paste_quad(img: np.ndarray, tex: np.ndarray, alpha: np.ndarray, quad: np.ndarray,
                opacity: float = 1.0) -> None:
    """Warp a texture onto a quad (4x2, corners in texture order TL,TR,BR,BL) in place."""
    h, w = img.shape[:2]
    x0 = int(max(0, math.floor(quad[:, 0].min()) - 1))
    y0 = int(max(0, math.floor(quad[:, 1].min()) - 1))
    x1 = int(min(w, math.ceil(quad[:, 0].max()) + 2))
    y1 = int(min(h, math.ceil(quad[:, 1].max()) + 2))
    if x1 <= x0 or y1 <= y0:
        return
    src = np.float32([[0, 0], [TEX, 0], [TEX, TEX], [0, TEX]])
    dst = (quad - np.float32([x0, y0])).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    size = (x1 - x0, y1 - y0)
    t = cv2.warpPerspective(tex, m, size, flags=cv2.INTER_AREA if size[0] < TEX else cv2.INTER_LINEAR)
    a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR) * opacity
    roi = img[y0:y1, x0:x1]
    roi[:] = roi * (1 - a[..., None]) + t * a[..., None]


@dataclass
class Die:
    x: float  # ground position (world units = pixels at tilt 0)
    y: float
    size: float
    yaw: float
    value: int
    body: np.ndarray
    pip: np.ndarray
    style: dict[str, float]
    opacity: float = 1.0
    lift: float = 0.0  # height above the table (rolling / bouncing)
    roll: tuple[float, float] = (0.0, 0.0)  # small tilt of the die itself while rolling


def _die_style(rng: np.random.Generator) -> dict[str, float]:
    return {
        "pip_r": rng.uniform(0.07, 0.12),
        "spread": rng.uniform(0.85, 1.12),
        "pip_ring": rng.random(),
        "big_one": rng.random(),
        "corner": rng.uniform(0.05, 0.22),
        "bevel": rng.uniform(0.0, 0.45),
        "face_grad": rng.uniform(0.0, 0.2),
        "gx": rng.uniform(-1, 1),
        "gy": rng.uniform(-1, 1),
        "side_dark": rng.uniform(0.45, 0.85),
        "spec": rng.random(),
        "marble": rng.random(),  # > 0.8: swirled two-colour body
        "dimple": rng.random(),  # > 0.5: pips are dimples (shaded crescent)
        "pip_gloss": rng.random(),  # > 0.7: a glint on every pip
        "glint_dx": rng.uniform(-0.4, 0.4),
        "glint_dy": rng.uniform(-0.4, 0.4),
    }


class Camera:
    """Scaled orthographic camera tilted by ``tilt`` about the image x axis, then rotated by ``psi``."""

    def __init__(self, tilt_deg: float, psi: float, cx: float, cy: float) -> None:
        self.tilt = math.radians(tilt_deg)
        self.psi = psi
        self.cx, self.cy = cx, cy

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World (N,3) with z up, centred at (cx, cy) -> image (N,2)."""
        x = pts[:, 0] - self.cx
        y = (pts[:, 1] - self.cy) * math.cos(self.tilt) - pts[:, 2] * math.sin(self.tilt)
        c, s = math.cos(self.psi), math.sin(self.psi)
        u = c * x - s * y + self.cx
        v = s * x + c * y + self.cy
        return np.stack([u, v], 1).astype(np.float32)


def _cube_corners(d: Die) -> np.ndarray:
    s = d.size / 2
    base = np.float32([[-s, -s], [s, -s], [s, s], [-s, s]])
    c, sn = math.cos(d.yaw), math.sin(d.yaw)
    rot = base @ np.float32([[c, sn], [-sn, c]])
    bottom = np.column_stack([rot[:, 0] + d.x, rot[:, 1] + d.y, np.full(4, d.lift)])
    # a rolling die leans: shift the top face a little
    top = bottom.copy()
    top[:, 2] += d.size
    top[:, 0] += d.roll[0] * d.size
    top[:, 1] += d.roll[1] * d.size
    return np.vstack([bottom, top]).astype(np.float32)


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def draw_die(img: np.ndarray, d: Die, cam: Camera, rng: np.random.Generator,
             shadow: tuple[float, float, float] | None) -> np.ndarray:
    """Draw one die (shadow, visible sides, top). Returns the projected top quad (4x2)."""
    corners = cam.project(_cube_corners(d))
    bottom, top = corners[:4], corners[4:]
    if shadow is not None:
        dx, dy, strength = shadow
        sh = np.vstack([bottom, bottom + np.float32([dx, dy]) * d.size * (1 + d.lift / d.size)])
        hull = cv2.convexHull(sh.astype(np.float32))
        h, w = img.shape[:2]
        x0, y0, bw, bh = cv2.boundingRect(hull)
        pad = int(d.size * 0.4) + 2
        xa, ya = max(0, x0 - pad), max(0, y0 - pad)
        xb, yb = min(w, x0 + bw + pad), min(h, y0 + bh + pad)
        if xb > xa and yb > ya:
            m = np.zeros((yb - ya, xb - xa), np.float32)
            cv2.fillPoly(m, [(hull.reshape(-1, 2) - [xa, ya]).astype(np.int32)], 1.0, cv2.LINE_AA)
            m = cv2.GaussianBlur(m, (0, 0), max(0.5, d.size * 0.12))
            img[ya:yb, xa:xb] *= (1 - strength * m)[..., None]
    # side faces: corner pairs (i, i+1); visible when the projected face is front-facing
    for i in range(4):
        j = (i + 1) % 4
        quad = np.float32([top[i], top[j], bottom[j], bottom[i]])
        area = 0.5 * (_cross(quad[1] - quad[0], quad[2] - quad[0]) + _cross(quad[2] - quad[0], quad[3] - quad[0]))
        if area >= -1.0:
            continue
        # other faces of the die show other numbers
        side_val = int(rng.integers(1, 7))
        tex, alpha = face_texture(rng, side_val, d.body * d.style["side_dark"], d.pip * d.style["side_dark"], d.style)
        _paste_quad(img, tex, alpha * 0 + 1.0 if d.style["corner"] < 0.1 else alpha, quad, d.opacity)
    tex, alpha = face_texture(rng, d.value, d.body, d.pip, d.style)
    if d.style["spec"] > 0.75:  # specular highlight
        hl = np.zeros((TEX, TEX), np.float32)
        if rng.random() < 0.5:  # a soft sheen
            cv2.circle(hl, (int(rng.integers(10, TEX - 10)), int(rng.integers(10, TEX - 10))),
                       int(rng.integers(6, 25)), 1.0, -1)
            hl = cv2.GaussianBlur(hl, (0, 0), 6) * rng.uniform(0.3, 0.8)
        else:  # a sharp glare: a bright streak or window reflection, can wash out a pip
            c = (int(rng.integers(5, TEX - 5)), int(rng.integers(5, TEX - 5)))
            axes = (int(rng.integers(4, 30)), int(rng.integers(2, 10)))
            cv2.ellipse(hl, c, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
            hl = cv2.GaussianBlur(hl, (0, 0), rng.uniform(1.0, 3.0)) * rng.uniform(0.5, 0.9)
        tex = tex * (1 - hl[..., None]) + 255 * hl[..., None]
    _paste_quad(img, tex, alpha, top, d.opacity)
    return top


def _place_dice(rng: np.random.Generator, n: int, w: int, h: int, sizes: np.ndarray,
                touching_prob: float, margin: float) -> list[tuple[float, float]]:
    placed: list[tuple[float, float, float]] = []
    for i in range(n):
        s = sizes[i]
        # big dice near the frame: shrink the margin so they still fit (or skip the die)
        m = min(margin, min(w, h) / 2 - s - 1)
        if m < 0:
            continue
        for _attempt in range(60):
            if placed and rng.random() < touching_prob:
                px, py, ps = placed[int(rng.integers(0, len(placed)))]
                ang = rng.uniform(0, 2 * math.pi)
                dist = (ps + s) / 2 * rng.uniform(1.0, 1.25) * 1.12
                x, y = px + dist * math.cos(ang), py + dist * math.sin(ang)
            else:
                x = rng.uniform(m + s, w - m - s)
                y = rng.uniform(m + s, h - m - s)
            if not (m + s * 0.7 < x < w - m - s * 0.7 and m + s * 0.7 < y < h - m - s * 0.7):
                continue
            if all(math.hypot(x - px, y - py) > (s + ps) / 2 * 1.45 for px, py, ps in placed):
                placed.append((x, y, s))
                break
    return [(p[0], p[1]) for p in placed]


def draw_hand(img: np.ndarray, rng: np.random.Generator, cx: float, cy: float, scale: float) -> None:
    """A hand-like skin-coloured blob with fingers (throw sequences, a hand over the dice)."""
    skin = _hsv2bgr(rng.uniform(5, 20), rng.uniform(60, 160), rng.uniform(90, 230)).tolist()
    _hand_shape(img, cx, cy, scale, skin)


def _hand_shape(img: np.ndarray, cx: float, cy: float, scale: float, skin: Any) -> None:
    cv2.ellipse(img, (int(cx), int(cy)), (int(scale * 0.5), int(scale * 0.6)), 20, 0, 360, skin, -1)
    for k in range(4):
        a = math.radians(-60 + k * 25)
        x2 = cx + math.sin(a) * scale * 1.1
        y2 = cy - math.cos(a) * scale * 1.1
        cv2.line(img, (int(cx), int(cy)), (int(x2), int(y2)), skin, max(3, int(scale * 0.18)))
    cv2.line(img, (int(cx), int(cy + scale * 0.5)), (int(cx + scale), int(cy + scale * 2)), skin, int(scale * 0.6))


def _finish(img: np.ndarray, rng: np.random.Generator, p: SceneParams) -> np.ndarray:
    s = rng.uniform(*p.blur_sigma)
    if s > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), s)
    n = rng.uniform(*p.noise_sigma)
    if n > 0.5:
        img = img + rng.normal(0, n, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    q = int(rng.integers(p.jpeg_quality[0], p.jpeg_quality[1] + 1))
    if q < 100:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def _pip_for(body: np.ndarray) -> np.ndarray:
    """White pips on a dark or coloured body, black ones on a light body."""
    lum = float(body @ LUMA)
    return np.float32([25, 25, 25]) if lum > 150 else np.float32([240, 240, 240])


def _make_dice(rng: np.random.Generator, p: SceneParams, w: int, h: int) -> list[Die]:
    n = int(rng.integers(p.n_dice[0], p.n_dice[1] + 1))
    if p.bodies:
        n = len(p.bodies)
    # dice of one scene share a size range (one camera distance), with spread
    mean = math.exp(rng.uniform(math.log(p.die_px[0]), math.log(p.die_px[1])))
    sizes = np.clip(mean * rng.uniform(0.8, 1.25, n), p.die_px[0] * 0.9, p.die_px[1] * 1.1)
    n = min(n, max(1, int(w * h / (mean * mean * 9))))
    sizes = sizes[:n]
    # margin: a tilted camera shifts the top face by up to one die size; keep it in the frame
    pos = _place_dice(rng, n, w, h, sizes, p.touching_prob, margin=4 + float(sizes.max(initial=0)))
    shared_colours = rng.random() < 0.3
    cols = random_die_colours(rng)
    dice = []
    for (x, y), s in zip(pos, sizes):
        body, pip = cols if shared_colours else random_die_colours(rng)
        if p.hue_pips and rng.random() < p.hue_pips:
            body, pip = hue_pip_colours(rng)
        if p.bodies:
            body = np.float32(p.bodies[len(dice)])
            pip = _pip_for(body)
        op = rng.uniform(0.7, 0.92) if rng.random() < p.translucent_prob else 1.0
        dice.append(Die(x, y, float(s), rng.uniform(0, 2 * math.pi), int(rng.integers(1, 7)),
                        body, pip, _die_style(rng), op))
    return dice


def _compose(rng: np.random.Generator, p: SceneParams, bg: np.ndarray, light: np.ndarray,
             dice: list[Die], cam: Camera, shadow: tuple[float, float, float] | None,
             hand: tuple[float, float, float] | None = None, finish_rng: np.random.Generator | None = None,
             hide_covered: float = 0.0) -> tuple[np.ndarray, list[dict[str, Any]], list[dict[str, Any]]]:
    """The scene drawn, its labels, and (``hide_covered`` > 0) the dice whose top face the hand
    covers more than that fraction of: those are left out of the labels ("hidden")."""
    img = bg.copy()
    # draw far dice first (higher world y is nearer the camera for positive tilt)
    order = sorted(range(len(dice)), key=lambda i: cam.project(np.float32([[dice[i].x, dice[i].y, 0]]))[0, 1]
                   if cam.tilt > 0 else 0)
    labels: list[dict[str, Any]] = []
    quads = []
    for i in order:
        d = dice[i]
        top = draw_die(img, d, cam, rng, shadow)
        quads.append((i, top))
    img *= light[..., None]
    h, w = img.shape[:2]
    covering = None
    if hand is not None:
        draw_hand(img, rng, *hand)
        if hide_covered > 0:
            covering = np.zeros((h, w), np.uint8)
            _hand_shape(covering, *hand, 1)
    hidden: list[dict[str, Any]] = []
    for i, top in quads:
        x1, y1 = float(top[:, 0].min()), float(top[:, 1].min())
        x2, y2 = float(top[:, 0].max()), float(top[:, 1].max())
        if x1 < 0 or y1 < 0 or x2 > w or y2 > h:
            continue
        box = [round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1)]
        if covering is not None:
            face = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(face, np.round(top).astype(np.int32), 1)
            covered = float((face & covering).sum()) / max(1, int(face.sum()))
            if covered > hide_covered:
                hidden.append({"value": dice[i].value, "box": box, "covered": round(covered, 3)})
                continue
        labels.append({"value": dice[i].value, "box": box, "colour": colour_name(dice[i].body)})
        if p.bodies:
            labels[-1]["die"] = i  # which of the given bodies
    return _finish(img, finish_rng if finish_rng is not None else rng, p), labels, hidden


def render_scene(rng: np.random.Generator, params: SceneParams | None = None
                 ) -> tuple[np.ndarray, dict[str, Any]]:
    """One random scene -> (BGR uint8 image, {"width","height","dice":[{value, box, colour}]})."""
    p = params or SceneParams()
    w, h = p.width, p.height
    tilt = rng.uniform(*p.tilt_deg) if rng.random() < 0.6 else rng.uniform(0, 10)
    cam = Camera(tilt, rng.uniform(0, 2 * math.pi), w / 2, h / 2)
    # render the ground larger so a tilted camera still fills the frame
    bg = random_background(rng, h, w)
    light = _lighting(rng, h, w)
    dice = _make_dice(rng, p, w, h)
    shadow = None
    if rng.random() < 0.7:
        a = rng.uniform(0, 2 * math.pi)
        r = rng.uniform(0.1, 0.6)
        shadow = (r * math.cos(a), r * math.sin(a), rng.uniform(0.2, 0.6))
    hand = None
    if p.hand_prob > 0 and dice and rng.random() < p.hand_prob:
        # a hand reaching for a die: its fingers over part of it and maybe its neighbours
        d = dice[int(rng.integers(0, len(dice)))]
        hand = (d.x + rng.uniform(-0.8, 0.8) * d.size, d.y + rng.uniform(0.4, 1.4) * d.size,
                d.size * rng.uniform(1.5, 3.0))
    img, labels, hidden = _compose(rng, p, bg, light, dice, cam, shadow, hand, hide_covered=HIDDEN_FROM)
    out: dict[str, Any] = {"width": w, "height": h, "dice": labels}
    if hand is not None:
        out["hidden"] = hidden
    return img, out


def render_throw(rng: np.random.Generator, params: SceneParams | None = None, fps: float = 15.0,
                 roll_s: float = 1.2, hand_s: float = 0.8, rest_s: float = 2.0,
                 ) -> tuple[list[tuple[float, np.ndarray]], dict[str, Any]]:
    """A throw: dice tumble in, a hand passes over, then everything rests.

    Returns ([(t, frame), ...], labels of the final resting scene). Noise changes every
    frame (a real sensor), the scene does not once at rest.
    """
    p = params or SceneParams(n_dice=(2, 5), die_px=(35, 60), tilt_deg=(0, 20), blur_sigma=(0, 0.6),
                              noise_sigma=(1.0, 3.0), jpeg_quality=(100, 100))
    w, h = p.width, p.height
    cam = Camera(rng.uniform(*p.tilt_deg), 0.0, w / 2, h / 2)
    bg = random_background(rng, h, w)
    light = _lighting(rng, h, w)
    final = _make_dice(rng, p, w, h)
    shadow = (0.3, 0.2, 0.4)
    frames: list[tuple[float, np.ndarray]] = []
    n_roll, n_hand, n_rest = int(roll_s * fps), int(hand_s * fps), int(rest_s * fps)
    start = [(rng.uniform(0, w), -80.0) for _ in final]
    style_seed = int(rng.integers(0, 2**31))
    t = 0.0
    labels: list[dict[str, Any]] = []
    for k in range(n_roll + n_hand + n_rest):
        a = min(1.0, k / max(1, n_roll))
        ease = 1 - (1 - a) ** 2
        dice = []
        for d, (sx, sy) in zip(final, start):
            rolling = a < 1.0
            dice.append(Die(
                sx + (d.x - sx) * ease, sy + (d.y - sy) * ease, d.size,
                d.yaw + (1 - ease) * 9.0,
                int(rng.integers(1, 7)) if rolling else d.value,
                d.body, d.pip, d.style, d.opacity,
                lift=abs(math.sin(a * 9)) * d.size * 0.8 * (1 - a),
                roll=(0.2 * math.sin(a * 13) * (1 - a), 0.2 * math.cos(a * 11) * (1 - a)),
            ))
        hand = None
        if n_roll <= k < n_roll + n_hand:
            b = (k - n_roll) / max(1, n_hand - 1)
            hand = (-150 + b * (w + 300), h * 0.5, min(w, h) * 0.25)
        frame_rng = np.random.default_rng(style_seed)  # same side-face pips each frame
        noise_rng = np.random.default_rng(style_seed + 1 + k)
        img, labels, _ = _compose(frame_rng, p, bg, light, dice, cam, shadow, hand, finish_rng=noise_rng)
        frames.append((t, img))
        t += 1.0 / fps
    return frames, {"width": w, "height": h, "dice": labels}


def write_dataset(out_dir: str | Path, n: int, seed: int = 0, params: SceneParams | None = None,
                  split: str = "test", name: str = "synth-dice") -> Path:
    """Write ``n`` rendered scenes as a dataset folder (labels.json + images/)."""
    out = Path(out_dir)
    (out / "images").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    entries = []
    for i in range(n):
        img, lab = render_scene(rng, params)
        f = f"images/synth_{seed}_{i:05d}.png"
        cv2.imwrite(str(out / f), img)
        entries.append({"file": f, "split": split, **lab})
    doc = {"name": name, "source": f"vision.synth.dice seed={seed}", "license": "generated",
           "box": "x1,y1,x2,y2 in pixels around the top face of each die; value = pips on the top face",
           "images": entries}
    (out / "labels.json").write_text(json.dumps(doc, indent=1))
    return out
