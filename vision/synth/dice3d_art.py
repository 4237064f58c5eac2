"""What lies on the table and what reaches over it in the 3-D dice scenes (vision.synth.dice3d):
the project's printed boards, printed art made here (a hex map with number tokens, cards,
pictures and text), tables, felt and cloth; the print on keys and tokens; a hand; the dice's
colours and materials, and where things lie on the table. Training and
test tools, never imported by the runtime reader."""

from __future__ import annotations

import math
from typing import Any, Protocol

import cv2
import numpy as np

from vision.synth.ground import _hsv2bgr, random_background


class StyleOdds(Protocol):
    """The odds of a die's looks that :func:`die_style` reads (``vision.synth.dice3d.Params3D``
    has them; named here so that this module need not import the one that imports it)."""

    marbled_prob: float
    translucent_prob: float
    engraved_prob: float


def texture(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """What lies on the table, BGR float: a printed board, printed art, or a table, felt, cloth."""
    r = rng.random()
    if r < 0.2:
        try:
            return board_texture(rng, h, w)
        except (AttributeError, cv2.error):  # an OpenCV without aruco (a training machine): printed art instead
            return printed_art(rng, h, w)
    if r < 0.5:
        return printed_art(rng, h, w)
    return random_background(rng, h, w)


def board_texture(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    from vision.boarddefaults import GAMES, board_for
    from vision.printing import render_board

    board = board_for(str(GAMES[int(rng.integers(len(GAMES)))]))
    art = render_board(board, float(rng.uniform(1.0, 3.0)), markers=rng.random() < 0.7).astype(np.float32)
    k = max(h / art.shape[0], w / art.shape[1]) * rng.uniform(0.5, 1.5)
    art = cv2.resize(art, (max(1, int(art.shape[1] * k)), max(1, int(art.shape[0] * k))), interpolation=cv2.INTER_AREA)
    out = random_background(rng, h, w)
    y0, x0 = int(rng.integers(-art.shape[0] // 2, h // 2)), int(rng.integers(-art.shape[1] // 2, w // 2))
    ya, xa, yb, xb = max(0, y0), max(0, x0), min(h, y0 + art.shape[0]), min(w, x0 + art.shape[1])
    if yb > ya and xb > xa:
        out[ya:yb, xa:xb] = art[ya - y0: yb - y0, xa - x0: xb - x0]
    return out


def printed_art(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Busy print made by code: a hex map with pictures in the tiles and number tokens (a number
    with dots under it), cards with text, pictures of round and square things, a page of text."""
    img = np.empty((h, w, 3), np.uint8)  # (OpenCV 5 writes text on 8-bit images only)
    img[:] = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 120), rng.uniform(150, 250))
    kind = rng.random()
    if kind < 0.45:  # hex map
        r = float(rng.uniform(40, 140))
        cols = [_hsv2bgr(rng.uniform(0, 180), rng.uniform(60, 230), rng.uniform(70, 230)).tolist() for _ in range(6)]
        for j in range(-1, int(h / (1.5 * r)) + 2):
            for i in range(-1, int(w / (math.sqrt(3) * r)) + 2):
                cx = i * math.sqrt(3) * r + (j % 2) * math.sqrt(3) * r / 2
                cy = j * 1.5 * r
                pts = np.int32([[cx + r * math.sin(a), cy + r * math.cos(a)] for a in np.arange(6) * math.pi / 3])
                c = cols[int(rng.integers(6))]
                cv2.fillPoly(img, [pts], c, cv2.LINE_AA)
                cv2.polylines(img, [pts], True, (200, 220, 235), max(1, int(r / 25)), cv2.LINE_AA)
                for _ in range(int(rng.integers(0, 5))):  # little pictures: trees, sheep, bricks, hills
                    px, py = cx + rng.uniform(-0.5, 0.5) * r, cy + rng.uniform(-0.5, 0.5) * r
                    s = r * rng.uniform(0.08, 0.2)
                    c2 = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(20, 255)).tolist()
                    if rng.random() < 0.5:
                        cv2.circle(img, (int(px), int(py)), int(s), c2, -1, cv2.LINE_AA)
                    else:
                        cv2.rectangle(img, (int(px - s), int(py - s)), (int(px + s), int(py + s * 0.6)), c2, -1)
                if rng.random() < 0.6:  # a number token
                    tr = r * rng.uniform(0.28, 0.4)
                    cv2.circle(img, (int(cx), int(cy)), int(tr), (190, 225, 240), -1, cv2.LINE_AA)
                    num = str(int(rng.choice([2, 3, 4, 5, 6, 8, 9, 10, 11, 12])))
                    ink = (30, 30, 180) if num in ("6", "8") else (30, 30, 30)
                    sc = tr / 22
                    (tw, th), _ = cv2.getTextSize(num, cv2.FONT_HERSHEY_DUPLEX, sc, 2)
                    cv2.putText(img, num, (int(cx - tw / 2), int(cy + th / 2 - tr * 0.1)), cv2.FONT_HERSHEY_DUPLEX,
                                sc, ink, max(1, int(sc * 2)), cv2.LINE_AA)
                    for k in range(int(rng.integers(1, 6))):
                        cv2.circle(img, (int(cx + (k - 2) * tr * 0.22), int(cy + tr * 0.6)), max(1, int(tr * 0.07)),
                                   ink, -1, cv2.LINE_AA)
    else:  # cards, pictures and text
        for _ in range(int(rng.integers(5, 30))):
            x, y = int(rng.integers(-50, w)), int(rng.integers(-50, h))
            s = int(rng.integers(30, max(31, w // 3)))
            c = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(40, 255)).tolist()
            t = rng.random()
            if t < 0.35:
                cv2.rectangle(img, (x, y), (x + s, y + int(s * rng.uniform(0.5, 1.5))), c, -1)
                cv2.rectangle(img, (x, y), (x + s, y + int(s * rng.uniform(0.5, 1.5))), (30, 30, 30), 1)
            elif t < 0.6:
                cv2.circle(img, (x, y), s // 3, c, -1, cv2.LINE_AA)
                for _k in range(int(rng.integers(0, 7))):  # dots on it: pips' look-alikes
                    cv2.circle(img, (x + int(rng.integers(-s // 5, s // 5 + 1)), y + int(rng.integers(-s // 5, s // 5 + 1))),
                               max(1, s // 25), (20, 20, 20), -1, cv2.LINE_AA)
            elif t < 0.8:
                cv2.rectangle(img, (x, y), (x + s // 2, y + s // 2), c, -1)
                cv2.rectangle(img, (x + s // 10, y + s // 10), (x + s // 2 - s // 10, y + s // 2 - s // 10),
                              _hsv2bgr(rng.uniform(0, 180), 100, 200).tolist(), 2)
            else:
                words = "".join(rng.choice(list("abcdefghijklmnoprstuvw   ABCDEF123456"), int(rng.integers(4, 24))))
                cv2.putText(img, words, (x, y), int(rng.choice([0, 2, 3, 4])), rng.uniform(0.3, 1.5),
                            (20, 20, 20) if rng.random() < 0.8 else c, int(rng.integers(1, 3)), cv2.LINE_AA)
    out = img.astype(np.float32)
    if rng.random() < 0.5:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.2))
    return out


def glyph_decal(rng: np.random.Generator, text: str, dots: bool = False) -> np.ndarray:
    """A 64x64 print (1 = ink) of ``text`` centred, with a row of dots under it (a number token)."""
    m = np.zeros((64, 64), np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX if rng.random() < 0.5 else cv2.FONT_HERSHEY_DUPLEX
    scale = 1.3 if len(text) == 1 else 0.95
    (tw, th), _ = cv2.getTextSize(text, font, scale, 2)
    cv2.putText(m, text, (32 - tw // 2, 34 + th // 2 - (6 if dots else 0)), font, scale, 255, 2, cv2.LINE_AA)
    if dots:
        n = int(rng.integers(1, 6))
        for k in range(n):
            cv2.circle(m, (int(32 + (k - (n - 1) / 2) * 6), 50), 2, 255, -1, cv2.LINE_AA)
    return cv2.flip(m, 0).astype(np.float32) / 255.0


def hand(mask: np.ndarray, cx: float, cy: float, s: float, ang: float) -> None:
    """A hand reaching in from the frame's edge: palm, four fingers, a thumb, the arm behind."""
    a = math.radians(ang)
    fx, fy = math.sin(a), -math.cos(a)  # where the fingers point
    rx, ry = -fy, fx
    cv2.ellipse(mask, (int(cx), int(cy)), (int(s * 0.5), int(s * 0.6)), math.degrees(a), 0, 360, 1, -1)
    for k in range(4):
        off = (k - 1.5) * s * 0.22
        bx, by = cx + rx * off + fx * s * 0.4, cy + ry * off + fy * s * 0.4
        ln = s * (0.55 + 0.15 * (k in (1, 2)))
        cv2.line(mask, (int(bx), int(by)), (int(bx + fx * ln), int(by + fy * ln)), 1, max(2, int(s * 0.17)))
    cv2.line(mask, (int(cx + rx * s * 0.45), int(cy + ry * s * 0.45)),
             (int(cx + rx * s * 0.85 + fx * s * 0.3), int(cy + ry * s * 0.85 + fy * s * 0.3)), 1, max(2, int(s * 0.2)))
    cv2.line(mask, (int(cx), int(cy)), (int(cx - fx * s * 2), int(cy - fy * s * 2)), 1, max(3, int(s * 0.8)))


def die_style(rng: np.random.Generator, p: StyleOdds) -> dict[str, Any]:
    """Body, pips and material of a die (or of a set of dice that look alike)."""
    r = rng.random()
    if r < 0.2:
        body = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 40), rng.uniform(200, 255))
    elif r < 0.32:
        body = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 60), rng.uniform(15, 70))
    elif r < 0.45:  # neon
        body = _hsv2bgr(rng.uniform(0, 180), rng.uniform(200, 255), rng.uniform(200, 255))
    else:
        body = _hsv2bgr(rng.uniform(0, 180), rng.uniform(90, 255), rng.uniform(70, 240))
    lum = float(body @ np.float32([0.114, 0.587, 0.299]))
    if rng.random() < 0.25:  # gold, silver, coloured pips
        pip = _hsv2bgr(rng.uniform(0, 180), rng.uniform(80, 255), rng.uniform(120, 255))
        if abs(float(pip @ np.float32([0.114, 0.587, 0.299])) - lum) < 70:
            pip = np.float32([20, 20, 20]) if lum > 130 else np.float32([240, 240, 240])
    else:
        pip = np.float32([20, 20, 20]) + rng.uniform(0, 25) if lum > 140 else np.float32([240, 240, 240]) - rng.uniform(0, 30)
    marble = None
    if rng.random() < p.marbled_prob:
        vein = _hsv2bgr(rng.uniform(0, 180), rng.uniform(0, 255), rng.uniform(30, 255))
        marble = np.concatenate([vein, rng.normal(0, 1, (4, 3)).ravel() * rng.uniform(2, 7),
                                 rng.uniform(0, 6.3, 4), [rng.uniform(0.3, 0.9)]]).astype(np.float32)
    alpha = float(rng.uniform(0.35, 0.75)) if rng.random() < p.translucent_prob else 1.0
    return {"body": body.astype(np.float32), "pip": np.asarray(pip, np.float32), "marble": marble, "alpha": alpha,
            "engraved": rng.random() < p.engraved_prob, "lean": 4.0 if rng.random() < 0.3 else 0.0}


def place(rng: np.random.Generator, n: int, spread: float, sizes: list[float], touching: float
           ) -> list[tuple[float, float]]:
    """Centres on the table (world units) whose footprints don't overlap."""
    out: list[tuple[float, float, float]] = []
    for s in sizes[:n]:
        for _ in range(40):
            if out and rng.random() < touching:
                bx, by, bs = out[int(rng.integers(len(out)))]
                a = rng.uniform(0, 2 * math.pi)
                r = (bs + s) * 0.5 * rng.uniform(1.45, 1.7)
                x, y = bx + r * math.cos(a), by + r * math.sin(a)
            else:
                x, y = rng.uniform(-spread, spread, 2)
            if all(math.hypot(x - ox, y - oy) > (s + os_) * 0.5 * 1.45 for ox, oy, os_ in out):
                out.append((float(x), float(y), float(s)))
                break
    return [(x, y) for x, y, _ in out]
