"""The games' pictures, drawn by the project with Kivy canvas instructions (no image files).

Every function draws into ``canvas`` inside a rectangle or around a centre given in window
pixels, so the same picture serves the tile picker, the board, the tracker and the dice picker:

- :func:`tile`: the seven Chop! Chop! tiles (cheese, crockery, +1, +2, arrow, fork, knife) on a
  light card; :func:`tile_picture` the picture alone (a turned square on the board);
- :func:`piece`: a board token ("cat", "mouse:2", "cat:red", "pawn:white", "cube:E", "slab",
  "cheese", "hole") as a figure: a cat's head with ears and whiskers, a grey mouse with round
  ears on its side's colour, a chess-like pawn, a cube with its arrow;
- :func:`die`: a die face in a die's real colours (:data:`DIE_LOOK`: body and pips);
- :func:`cheese_meter`: cheese held out of what the mice need, as wedges.

The colours of each picture are in :data:`TILE_COLOURS` (tests look for them in the rendered
pixels).
"""

from __future__ import annotations

import math
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, PopMatrix, PushMatrix, Rectangle, Rotate, RoundedRectangle, Triangle

from ui import theme

Colour = theme.Colour
hx = theme.hex_colour

CARD = hx("#fff7e6")
CARD_EDGE = hx("#b89b6e")
INK = hx("#2b2118")

TILE_COLOURS: dict[str, Colour] = {
    "cheese": hx("#ffcc33"),
    "crockery": hx("#3d7fd9"),
    "plus1": hx("#2e9e5b"),
    "plus2": hx("#1f7a45"),
    "arrow": hx("#e0452b"),
    "fork": hx("#8a96a8"),
    "knife": hx("#8a5a35"),
}
"""The main colour of each tile's picture (the cheese's yellow, the crockery's blue rim, ...)."""
TILES = tuple(TILE_COLOURS)

DIE_LOOK: dict[str, tuple[Colour, Colour]] = {
    "white": (hx("#f7f7f2"), hx("#1e1e26")),
    "grey": (hx("#9ea3ab"), hx("#15161a")),
    "gray": (hx("#9ea3ab"), hx("#15161a")),
    "blue": (hx("#2f6fd6"), hx("#ffffff")),
    "red": (hx("#d93a3a"), hx("#ffffff")),
    "green": (hx("#2f9e5a"), hx("#ffffff")),
    "yellow": (hx("#f2cf1d"), hx("#1e1e26")),
    "black": (hx("#26262b"), hx("#ffffff")),
    "orange": (hx("#f08a24"), hx("#ffffff")),
    "purple": (hx("#7d4cc2"), hx("#ffffff")),
}
"""Die colour name (the games' ``dice_colours()``) -> (body, pips). Unknown names: white."""

PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.73), (0.73, 0.27)],
    3: [(0.25, 0.75), (0.5, 0.5), (0.75, 0.25)],
    4: [(0.27, 0.27), (0.27, 0.73), (0.73, 0.27), (0.73, 0.73)],
    5: [(0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)],
    6: [(0.27, 0.2), (0.27, 0.5), (0.27, 0.8), (0.73, 0.2), (0.73, 0.5), (0.73, 0.8)],
}

_textures: dict[tuple[str, int, Colour], Any] = {}


def die_look(colour: str) -> tuple[Colour, Colour]:
    """(body, pips) of a die called ``colour`` ("grey", "Blue"; "" or unknown: white)."""
    return DIE_LOOK.get(colour.strip().lower(), DIE_LOOK["white"])


def text_texture(text: str, size: float, colour: Colour = INK) -> Any:
    key = (text, int(size), tuple(colour))
    if key not in _textures:
        lab = CoreLabel(text=text, font_size=int(size), color=colour, bold=True)
        lab.refresh()
        _textures[key] = lab.texture
    return _textures[key]


def _text(text: str, cx: float, cy: float, size: float, colour: Colour) -> None:
    tex = text_texture(text, size, colour)
    Color(1, 1, 1, 1)
    Rectangle(texture=tex, pos=(cx - tex.size[0] / 2, cy - tex.size[1] / 2), size=tex.size)


def _poly(points: list[tuple[float, float]]) -> None:
    """A filled convex polygon."""
    verts: list[float] = []
    for x, y in points:
        verts += [x, y, 0, 0]
    Mesh(vertices=verts, indices=list(range(len(points))), mode="triangle_fan")


def _disc(cx: float, cy: float, r: float) -> None:
    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))


def _darker(c: Colour, f: float = 0.7) -> Colour:
    return (c[0] * f, c[1] * f, c[2] * f, c[3])


def _square(x: float, y: float, w: float, h: float) -> tuple[float, float, float]:
    """The centred square in a rect: (left, bottom, side)."""
    s = min(w, h)
    return (x + (w - s) / 2, y + (h - s) / 2, s)


# -- the Chop! Chop! tiles -----------------------------------------------------------------------

def tile(canvas: Any, kind: str, x: float, y: float, w: float, h: float) -> None:
    """A tile on its light card with a brown edge, the picture filling the card."""
    x0, y0, s = _square(x, y, w, h)
    with canvas:
        Color(*CARD_EDGE)
        RoundedRectangle(pos=(x0, y0), size=(s, s), radius=[s * 0.14])
        Color(*CARD)
        RoundedRectangle(pos=(x0 + s * 0.04, y0 + s * 0.04), size=(s * 0.92, s * 0.92), radius=[s * 0.11])
    tile_picture(canvas, kind, x0 + s * 0.08, y0 + s * 0.08, s * 0.84, s * 0.84)


def tile_picture(canvas: Any, kind: str, x: float, y: float, w: float, h: float) -> None:
    """The picture of tile ``kind`` alone (no card), centred in the rect."""
    x0, y0, s = _square(x, y, w, h)
    draw = _TILE_DRAW.get(kind)
    with canvas:
        if draw is None:  # a tile type from another box: its name's first letters
            _text(kind[:2].title(), x0 + s / 2, y0 + s / 2, s * 0.5, INK)
        else:
            draw(x0, y0, s)


def _cheese(x: float, y: float, s: float) -> None:
    c = TILE_COLOURS["cheese"]
    # a wedge seen from the side: the top face (lighter), the cut face with holes
    Color(*c)
    _poly([(x + s * 0.08, y + s * 0.22), (x + s * 0.92, y + s * 0.22), (x + s * 0.92, y + s * 0.58),
           (x + s * 0.08, y + s * 0.40)])
    Color(*hx("#ffe48a"))
    Triangle(points=[x + s * 0.08, y + s * 0.40, x + s * 0.92, y + s * 0.58, x + s * 0.70, y + s * 0.80])
    Color(*hx("#d99a1e"))
    for hx_, hy, hr in ((0.30, 0.32, 0.055), (0.55, 0.40, 0.075), (0.78, 0.30, 0.05), (0.70, 0.48, 0.035),
                        (0.62, 0.64, 0.04)):
        _disc(x + s * hx_, y + s * hy, s * hr)
    Color(*hx("#a8701a"))
    Line(points=[x + s * 0.08, y + s * 0.22, x + s * 0.92, y + s * 0.22, x + s * 0.92, y + s * 0.58,
                 x + s * 0.70, y + s * 0.80, x + s * 0.08, y + s * 0.40, x + s * 0.08, y + s * 0.22],
         width=max(1.0, s * 0.018))


def _crockery(x: float, y: float, s: float) -> None:
    rim = TILE_COLOURS["crockery"]
    # a plate (blue rim, white middle) behind a cup with a handle
    Color(*rim)
    _disc(x + s * 0.40, y + s * 0.56, s * 0.36)
    Color(1, 1, 1, 1)
    _disc(x + s * 0.40, y + s * 0.56, s * 0.29)
    Color(*hx("#c9dcf5"))
    Line(circle=(x + s * 0.40, y + s * 0.56, s * 0.20), width=max(1.0, s * 0.015))
    # the cup
    Color(*rim)
    Line(circle=(x + s * 0.86, y + s * 0.30, s * 0.09), width=max(1.5, s * 0.035))
    _poly([(x + s * 0.52, y + s * 0.44), (x + s * 0.88, y + s * 0.44), (x + s * 0.83, y + s * 0.10),
           (x + s * 0.57, y + s * 0.10)])
    Color(1, 1, 1, 1)
    Rectangle(pos=(x + s * 0.57, y + s * 0.30), size=(s * 0.26, s * 0.05))
    Color(*rim)
    Ellipse(pos=(x + s * 0.46, y + s * 0.04), size=(s * 0.48, s * 0.08))


def _badge(x: float, y: float, s: float, text: str, colour: Colour) -> None:
    Color(*_darker(colour, 0.75))
    _disc(x + s * 0.5, y + s * 0.5, s * 0.46)
    Color(*colour)
    _disc(x + s * 0.5, y + s * 0.5, s * 0.41)
    _text(text, x + s * 0.5, y + s * 0.5, s * 0.5, (1, 1, 1, 1))


def _arrow(x: float, y: float, s: float) -> None:
    c = TILE_COLOURS["arrow"]
    Color(*c)
    Rectangle(pos=(x + s * 0.08, y + s * 0.40), size=(s * 0.50, s * 0.20))
    Triangle(points=[x + s * 0.52, y + s * 0.16, x + s * 0.94, y + s * 0.50, x + s * 0.52, y + s * 0.84])
    Color(*_darker(c, 0.7))
    Line(points=[x + s * 0.08, y + s * 0.40, x + s * 0.52, y + s * 0.40, x + s * 0.52, y + s * 0.16,
                 x + s * 0.94, y + s * 0.50, x + s * 0.52, y + s * 0.84, x + s * 0.52, y + s * 0.60,
                 x + s * 0.08, y + s * 0.60, x + s * 0.08, y + s * 0.40], width=max(1.0, s * 0.02))


def _tilted(x: float, y: float, s: float) -> None:
    PushMatrix()
    Rotate(angle=-35, origin=(x + s / 2, y + s / 2))


def _fork(x: float, y: float, s: float) -> None:
    c = TILE_COLOURS["fork"]
    _tilted(x, y, s)
    cx = x + s * 0.5
    Color(*_darker(c, 0.75))
    RoundedRectangle(pos=(cx - s * 0.055, y + s * 0.02), size=(s * 0.11, s * 0.50), radius=[s * 0.05])
    Color(*c)
    _poly([(cx - s * 0.06, y + s * 0.50), (cx + s * 0.06, y + s * 0.50), (cx + s * 0.16, y + s * 0.64),
           (cx - s * 0.16, y + s * 0.64)])
    Rectangle(pos=(cx - s * 0.16, y + s * 0.62), size=(s * 0.32, s * 0.06))
    for i in range(4):
        tx = cx - s * 0.16 + i * s * 0.095
        Rectangle(pos=(tx, y + s * 0.64), size=(s * 0.04, s * 0.32))
    PopMatrix()


def _knife(x: float, y: float, s: float) -> None:
    _tilted(x, y, s)
    cx = x + s * 0.5
    Color(*TILE_COLOURS["knife"])
    RoundedRectangle(pos=(cx - s * 0.07, y + s * 0.02), size=(s * 0.14, s * 0.38), radius=[s * 0.05])
    Color(*hx("#f1e3cf"))
    for ry in (0.12, 0.28):
        _disc(cx, y + s * ry, s * 0.025)
    Color(*hx("#b9c2cf"))
    _poly([(cx - s * 0.07, y + s * 0.40), (cx + s * 0.07, y + s * 0.40), (cx + s * 0.09, y + s * 0.80),
           (cx - s * 0.07, y + s * 0.98)])
    Color(*hx("#6e7886"))
    Line(points=[cx - s * 0.07, y + s * 0.40, cx - s * 0.07, y + s * 0.98, cx + s * 0.09, y + s * 0.80,
                 cx + s * 0.07, y + s * 0.40], width=max(1.0, s * 0.015))
    PopMatrix()


_TILE_DRAW: dict[str, Any] = {
    "cheese": _cheese,
    "crockery": _crockery,
    "plus1": lambda x, y, s: _badge(x, y, s, "+1", TILE_COLOURS["plus1"]),
    "plus2": lambda x, y, s: _badge(x, y, s, "+2", TILE_COLOURS["plus2"]),
    "arrow": _arrow,
    "fork": _fork,
    "knife": _knife,
}


# -- pieces -------------------------------------------------------------------------------------

def piece(canvas: Any, token: str, cx: float, cy: float, r: float, index: int = 0) -> None:
    """A board token drawn as a figure of radius ``r`` around (cx, cy)."""
    kind = token.split(":")[0]
    extra = token.split(":")[1] if ":" in token else ""
    colour = theme.piece_colour(token, index)
    with canvas:
        if kind == "cube":
            _cube(cx, cy, r, extra or "N")
        elif kind == "slab":
            _slab(cx, cy, r, colour)
        elif kind == "hole":
            Color(*hx("#3b2f2f"))
            _disc(cx, cy, r * 0.8)
            Color(0.08, 0.06, 0.05, 1)
            _disc(cx, cy + r * 0.06, r * 0.62)
        elif kind == "cheese":
            s = r * 2.1
            _cheese(cx - s / 2, cy - s / 2, s)
        elif kind == "cat":
            _cat(cx, cy, r, colour)
        elif kind.startswith("mouse") or kind.startswith("mice"):
            _mouse(cx, cy, r, colour, extra if extra.isdigit() else "")
        elif kind == "pawn":
            _pawn(cx, cy, r, colour)
        else:
            _disc_piece(cx, cy, r, colour, kind[:1].upper())


def _shadow(cx: float, cy: float, r: float) -> None:
    Color(0, 0, 0, 0.3)
    Ellipse(pos=(cx - r + r * 0.08, cy - r - r * 0.12), size=(2 * r, 2 * r))


def _disc_piece(cx: float, cy: float, r: float, colour: Colour, letter: str) -> None:
    _shadow(cx, cy, r)
    Color(*colour)
    _disc(cx, cy, r)
    _text(letter, cx, cy, max(10.0, r), theme.ink_on(colour))


def _slab(cx: float, cy: float, r: float, colour: Colour) -> None:
    s = r * 1.8
    Color(*_darker(colour, 0.75))
    RoundedRectangle(pos=(cx - s / 2, cy - s / 2 - r * 0.08), size=(s, s), radius=[s * 0.12])
    Color(*colour)
    RoundedRectangle(pos=(cx - s / 2, cy - s / 2 + r * 0.04), size=(s, s * 0.96), radius=[s * 0.12])
    Color(*hx("#c3a987"))
    Line(rounded_rectangle=(cx - s * 0.36, cy - s * 0.33, s * 0.72, s * 0.7, s * 0.08), width=max(1.0, r * 0.05))


def _cat(cx: float, cy: float, r: float, colour: Colour) -> None:
    """A cat's head: ears, eyes, pink nose, whiskers, on a round base in the cat's colour."""
    ink = INK if theme.luminance(colour) > 0.45 else hx("#f7f1e6")
    _shadow(cx, cy, r)
    Color(*_darker(colour, 0.6))
    _disc(cx, cy, r)
    Color(*colour)
    _disc(cx, cy, r * 0.9)
    # ears
    Triangle(points=[cx - r * 0.78, cy + r * 0.18, cx - r * 0.62, cy + r * 1.0, cx - r * 0.12, cy + r * 0.62])
    Triangle(points=[cx + r * 0.78, cy + r * 0.18, cx + r * 0.62, cy + r * 1.0, cx + r * 0.12, cy + r * 0.62])
    Color(*hx("#f4a7b9"))
    Triangle(points=[cx - r * 0.62, cy + r * 0.40, cx - r * 0.56, cy + r * 0.82, cx - r * 0.28, cy + r * 0.58])
    Triangle(points=[cx + r * 0.62, cy + r * 0.40, cx + r * 0.56, cy + r * 0.82, cx + r * 0.28, cy + r * 0.58])
    # eyes
    Color(1, 1, 1, 1)
    for side in (-1, 1):
        Ellipse(pos=(cx + side * r * 0.36 - r * 0.17, cy + r * 0.02), size=(r * 0.34, r * 0.36))
    Color(0.1, 0.12, 0.08, 1)
    for side in (-1, 1):
        Ellipse(pos=(cx + side * r * 0.36 - r * 0.06, cy + r * 0.05), size=(r * 0.12, r * 0.3))
    # nose and mouth
    Color(*hx("#e8617f"))
    Triangle(points=[cx - r * 0.12, cy - r * 0.12, cx + r * 0.12, cy - r * 0.12, cx, cy - r * 0.28])
    Color(*ink)
    w = max(1.0, r * 0.05)
    Line(circle=(cx - r * 0.12, cy - r * 0.3, r * 0.12, 90, 270), width=w)  # a smile: "w"
    Line(circle=(cx + r * 0.12, cy - r * 0.3, r * 0.12, 90, 270), width=w)
    for side in (-1, 1):
        for dy in (-0.22, -0.36):
            Line(points=[cx + side * r * 0.3, cy + r * (dy + 0.02), cx + side * r * 0.95, cy + r * (dy + 0.08 * (1 if dy > -0.3 else -1))],
                 width=max(1.0, r * 0.035))


def _mouse(cx: float, cy: float, r: float, colour: Colour, number: str) -> None:
    """A grey mouse's face with big round ears, on a ring in its side's colour; its number
    (Chop! Chop!'s mice 1-4) on its chin."""
    body, ear = hx("#9aa0a8"), hx("#f4b6c2")
    _shadow(cx, cy, r)
    Color(*colour)
    _disc(cx, cy, r)
    Color(*hx("#6c727b"))
    _disc(cx - r * 0.5, cy + r * 0.42, r * 0.42)
    _disc(cx + r * 0.5, cy + r * 0.42, r * 0.42)
    Color(*ear)
    _disc(cx - r * 0.5, cy + r * 0.42, r * 0.28)
    _disc(cx + r * 0.5, cy + r * 0.42, r * 0.28)
    Color(*body)
    Ellipse(pos=(cx - r * 0.56, cy - r * 0.78), size=(r * 1.12, r * 1.2))
    Color(0.08, 0.08, 0.1, 1)
    _disc(cx - r * 0.22, cy + r * 0.02, r * 0.1)
    _disc(cx + r * 0.22, cy + r * 0.02, r * 0.1)
    Color(*hx("#e8617f"))
    _disc(cx, cy - r * 0.2, r * 0.1)
    if number:
        _text(number, cx, cy - r * 0.55, max(10.0, r * 0.62), INK)


def _pawn(cx: float, cy: float, r: float, colour: Colour) -> None:
    """A chess-like pawn seen from the side: base, body, collar, round head."""
    edge = hx("#f2f2f2") if theme.luminance(colour) < 0.35 else hx("#2a2a30")
    w = max(1.2, r * 0.07)
    Color(0, 0, 0, 0.3)
    Ellipse(pos=(cx - r * 0.8, cy - r * 1.06), size=(r * 1.7, r * 0.42))
    ellipses = [(cx - r * 0.72, cy - r * 0.98, r * 1.44, r * 0.42), (cx - r * 0.42, cy + r * 0.08, r * 0.84, r * 0.26),
                (cx - r * 0.38, cy + r * 0.22, r * 0.76, r * 0.76)]
    body = [(cx - r * 0.42, cy - r * 0.78), (cx + r * 0.42, cy - r * 0.78), (cx + r * 0.2, cy + r * 0.2),
            (cx - r * 0.2, cy + r * 0.2)]
    Color(*edge)  # the outline: each shape a little larger, then the fill over it
    for ex, ey, ew, eh in ellipses:
        Ellipse(pos=(ex - w, ey - w), size=(ew + 2 * w, eh + 2 * w))
    _poly([(px + (w if px > cx else -w), py) for px, py in body])
    Color(*colour)
    _poly(body)
    for ex, ey, ew, eh in ellipses:
        Ellipse(pos=(ex, ey), size=(ew, eh))
    Color(1, 1, 1, 0.35)
    _disc(cx - r * 0.12, cy + r * 0.72, r * 0.12)


ARROW_DIRS = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}


def _cube(cx: float, cy: float, r: float, arrow: str) -> None:
    """A cube seen from above (with a hint of its sides) and its arrow, thick and dark."""
    face = theme.PLAYER_COLOURS["cube"]
    _shadow(cx, cy, r * 0.95)
    Color(*_darker(face, 0.7))
    RoundedRectangle(pos=(cx - r * 0.9, cy - r * 0.98), size=(r * 1.8, r * 1.8), radius=[r * 0.2])
    Color(*face)
    RoundedRectangle(pos=(cx - r * 0.9, cy - r * 0.82), size=(r * 1.8, r * 1.72), radius=[r * 0.2])
    dx, dy = ARROW_DIRS.get(arrow, (0, 1))
    ay = cy + r * 0.04
    tip = (cx + dx * r * 0.72, ay + dy * r * 0.72)
    base = (cx + dx * r * 0.05, ay + dy * r * 0.05)
    side = (-dy * r * 0.5, dx * r * 0.5)
    Color(*hx("#1d2a44"))
    Triangle(points=[tip[0], tip[1], base[0] + side[0], base[1] + side[1], base[0] - side[0], base[1] - side[1]])
    Line(points=[cx - dx * r * 0.62, ay - dy * r * 0.62, base[0], base[1]], width=max(1.5, r * 0.14), cap="square")


# -- dice and the cheese meter ----------------------------------------------------------------

def die(canvas: Any, value: int, x: float, y: float, side: float, colour: str = "", alpha: float = 1.0) -> None:
    """A die face showing ``value`` (1-6 as pips, other numbers as a figure, 0 blank) in the
    colours of the die called ``colour``."""
    body, pip = die_look(colour)
    with canvas:
        Color(*_darker(body, 0.7)[:3], alpha)
        RoundedRectangle(pos=(x, y - side * 0.04), size=(side, side), radius=[side * 0.18])
        Color(*body[:3], alpha)
        RoundedRectangle(pos=(x, y), size=(side, side), radius=[side * 0.18])
        Color(*pip[:3], alpha)
        r = side * 0.09
        for px, py in PIPS.get(value, []):
            _disc(x + px * side, y + py * side, r)
        if value > 0 and value not in PIPS:
            _text(str(value), x + side / 2, y + side / 2, side * 0.5, pip)


def cheese_meter(canvas: Any, held: int, total: int, x: float, y: float, w: float, h: float) -> None:
    """``total`` wedge slots in a row (at most two rows), the first ``held`` filled yellow."""
    total = max(1, total)
    per_row = max((math.ceil(total / rows) for rows in (1, 2, 3)),
                  key=lambda n: min(w / n, h / math.ceil(total / n)))  # the biggest wedges that fit
    rows = math.ceil(total / per_row)
    s = min(w / per_row, h / rows)
    left = x + (w - s * per_row) / 2
    with canvas:
        for i in range(total):
            row, col = divmod(i, per_row)
            sx, sy = left + col * s, y + h - (row + 1) * s
            if i < held:
                _cheese(sx, sy, s)
            else:
                Color(1, 1, 1, 0.45)
                Line(points=[sx + s * 0.1, sy + s * 0.25, sx + s * 0.9, sy + s * 0.25, sx + s * 0.7, sy + s * 0.75,
                             sx + s * 0.1, sy + s * 0.25], width=1.2)
