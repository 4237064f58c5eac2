"""The board, drawn from a board file's polygons, with pieces, highlights and touch.

``BoardView.board`` is a :class:`companion.boards.Board`; ``tokens`` is the state's
``board_view()`` (square id -> token); ``highlights`` the squares to light up (legal
destinations); ``selected`` the square picked first. Touching a square fires
``on_square(square_id)``.
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, Triangle
from kivy.properties import BooleanProperty, DictProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.stencilview import StencilView

from companion.boards import Board
from ui import art, theme

KIND_FILL = {
    "hole": theme.hex_colour("#6d5840"),
    "table": theme.hex_colour("#c9a77c"),
    "table_top": theme.hex_colour("#c9a77c", 0.92),
    "start": theme.hex_colour("#e6d3ae"),
    "mouse": theme.hex_colour("#e9d2a8"),
    "pot": theme.hex_colour("#f7c873"),
}

def _texture(text: str, size: float, colour: tuple[float, float, float, float], bold: bool = False) -> Any:
    lab = CoreLabel(text=text, font_size=size, color=colour, bold=bold)
    lab.refresh()
    return lab.texture


class BoardView(StencilView):
    board: Any = ObjectProperty(None, allownone=True)
    tokens = DictProperty({})
    highlights = ListProperty([])
    selected = StringProperty("")
    tints = DictProperty({})
    """square id -> rgba fill (e.g. revealed / empty squares in Chop! Chop!)."""
    marks = DictProperty({})
    """square id -> short text drawn in the square's corner (e.g. a revealed tile)."""

    zoom_rect: Any = ObjectProperty(None, allownone=True)
    """(min x, min y, max x, max y) in mm to show instead of the whole board, or None."""
    zoomed = BooleanProperty(False)
    min_touch = 48
    """Squares smaller than this on screen: the first touch zooms in around the finger."""

    __events__ = ("on_square",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._scale = 1.0
        self._off = (0.0, 0.0)
        self._min = (0.0, 0.0)
        self._tex_cache: dict[tuple[str, int, bool], Any] = {}
        self.bind(
            pos=self.redraw, size=self.redraw, board=self.redraw, tokens=self.redraw,
            highlights=self.redraw, selected=self.redraw, tints=self.redraw, marks=self.redraw,
            zoom_rect=self.redraw,
        )

    # -- geometry ----------------------------------------------------------------------------

    def bounds(self) -> tuple[float, float, float, float]:
        b: Board = self.board
        xs = [p[0] for s in b.squares.values() for p in s.polygon]
        ys = [p[1] for s in b.squares.values() for p in s.polygon]
        return (min(xs), min(ys), max(xs), max(ys))

    def cell_mm(self) -> float:
        """A typical square's side in mm (the median of the squares' smaller sides)."""
        sides = []
        for sq in self.board.squares.values():
            xs = [p[0] for p in sq.polygon]
            ys = [p[1] for p in sq.polygon]
            sides.append(min(max(xs) - min(xs), max(ys) - min(ys)))
        sides.sort()
        return sides[len(sides) // 2] if sides else 1.0

    def square_px(self) -> float:
        """A typical square's side on screen now, in pixels."""
        if self.board is None or not self.board.squares:
            return 0.0
        self._fit()
        return self.cell_mm() * self._scale

    def needs_zoom(self) -> bool:
        if self.board is None or self.zoom_rect is not None:
            return False
        return self.square_px() < self.min_touch

    def zoom_at(self, x: float, y: float) -> None:
        """Show a window of the board around pixel (x, y) with squares >= min_touch px."""
        self._fit()
        mx, my = self.to_mm(x, y)
        scale = (self.min_touch + 8) / self.cell_mm()
        w_mm, h_mm = self.width / scale, self.height / scale
        bx0, by0, bx1, by1 = self.bounds()
        x0 = min(max(mx - w_mm / 2, bx0), max(bx0, bx1 - w_mm))
        y0 = min(max(my - h_mm / 2, by0), max(by0, by1 - h_mm))
        self.zoom_rect = (x0, y0, x0 + w_mm, y0 + h_mm)
        self.zoomed = True

    def zoom_to(self, squares: list[str]) -> None:
        """Show these squares (a selected piece and its targets), as close as a finger needs
        but never cutting any of them off."""
        pts = [p for sid in squares if sid in self.board.squares for p in self.board.squares[sid].polygon]
        if not pts:
            return
        cell = self.cell_mm()
        x0, x1 = min(p[0] for p in pts) - cell / 2, max(p[0] for p in pts) + cell / 2
        y0, y1 = min(p[1] for p in pts) - cell / 2, max(p[1] for p in pts) + cell / 2
        scale = min((self.min_touch + 8) / cell, self.width / (x1 - x0), self.height / (y1 - y0))
        w_mm, h_mm = self.width / scale, self.height / scale
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        self.zoom_rect = (cx - w_mm / 2, cy - h_mm / 2, cx + w_mm / 2, cy + h_mm / 2)
        self.zoomed = True

    def zoom_out(self) -> None:
        self.zoom_rect = None
        self.zoomed = False

    def to_mm(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self._off[0]) / self._scale + self._min[0], (self._off[1] - y) / self._scale + self._min[1])

    def _fit(self) -> None:
        minx, miny, maxx, maxy = self.zoom_rect if self.zoom_rect is not None else self.bounds()
        bw, bh = max(maxx - minx, 1e-6), max(maxy - miny, 1e-6)
        self._scale = min(self.width / bw, self.height / bh) * 0.98
        ox = self.x + (self.width - bw * self._scale) / 2
        oy = self.y + (self.height - bh * self._scale) / 2
        self._off = (ox, oy + bh * self._scale)  # top-left in window px
        self._min = (minx, miny)

    def to_px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (
            self._off[0] + (x_mm - self._min[0]) * self._scale,
            self._off[1] - (y_mm - self._min[1]) * self._scale,
        )

    def square_rect(self, sid: str) -> tuple[float, float, float, float]:
        """(x, y, w, h) in widget-parent pixels of a square's bounding box."""
        pts = [self.to_px(*p) for p in self.board.squares[sid].polygon]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))

    def squares_at(self, x: float, y: float) -> list[str]:
        if self.board is None:
            return []
        return [
            sid for sid, sq in self.board.squares.items() if _inside(x, y, [self.to_px(*p) for p in sq.polygon])
        ]

    def square_at(self, x: float, y: float) -> str | None:
        """The square touched; where squares overlap (a table top over the floor under it),
        a lit one first, then one with a piece, then the one drawn on top."""
        hits = self.squares_at(x, y)
        if self.highlights and self.square_px() < self.min_touch:
            # small squares: a touch near a lit square takes it (lit squares are few and apart)
            best, best_d = None, float(self.min_touch) * 0.75
            for sid in self.highlights:
                if sid in self.board.squares:
                    cx, cy = self.square_centre(sid)
                    d = ((cx - x) ** 2 + (cy - y) ** 2) ** 0.5
                    if d < best_d:
                        best, best_d = sid, d
            if best is not None:
                return best
        if not hits:
            return None
        for pool in (self.highlights, [self.selected], list(self.tokens)):
            for sid in reversed(hits):
                if sid in pool:
                    return sid
        return hits[-1]

    def _overlaps(self) -> dict[str, int]:
        """square id -> its index among squares sharing the same polygon (0 = alone/first)."""
        groups: dict[tuple[tuple[float, float], ...], list[str]] = {}
        for sid, sq in self.board.squares.items():
            groups.setdefault(tuple(sorted(sq.polygon)), []).append(sid)
        out: dict[str, int] = {}
        for ids in groups.values():
            for i, sid in enumerate(ids):
                out[sid] = i + 1 if len(ids) > 1 else 0
        return out

    def square_centre(self, sid: str) -> tuple[float, float]:
        cx, cy = self.board.squares[sid].centre
        return self.to_px(cx, cy)

    # -- drawing -----------------------------------------------------------------------------

    def _tex(self, text: str, size: int, colour: Any = theme.BOARD_TEXT, bold: bool = False) -> Any:
        key = (text + repr(colour), size, bold)
        if key not in self._tex_cache:
            self._tex_cache[key] = _texture(text, size, colour, bold)
        return self._tex_cache[key]

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        if self.board is None or not self.board.squares or self.width < 10:
            return
        self._fit()
        b: Board = self.board
        hl = set(self.highlights)
        with self.canvas:
            for sid, sq in b.squares.items():
                pts = [self.to_px(*p) for p in sq.polygon]
                fill = self.tints.get(sid) or KIND_FILL.get(sq.kind, theme.BOARD)
                Color(*fill)
                _fill_polygon(pts)
                if sid in hl:
                    Color(*theme.HIGHLIGHT)
                    _fill_polygon(pts)
                Color(*theme.BOARD_LINE)
                Line(points=[c for p in pts + pts[:1] for c in p], width=1.1)
            for sid, sq in b.squares.items():
                x, y, w, h = self.square_rect(sid)
                if sq.label:
                    size = int(max(10, min(18, h * 0.32)))
                    tex = self._tex(sq.label, size)
                    if tex.size[0] > w - 4:
                        tex = self._tex(sq.label[:1].upper(), size)
                    if tex.size[0] <= w - 2:
                        Color(1, 1, 1, 1)
                        Rectangle(texture=tex, pos=(x + 3, y + h - tex.size[1] - 1), size=tex.size)
                mark = self.marks.get(sid)
                if mark in art.TILE_COLOURS:  # a turned slab: its tile's picture (a badge over a piece)
                    if sid not in self.tokens:
                        side = min(w, h) * 0.72
                        art.tile_picture(self.canvas, mark, x + (w - side) / 2, y + (h - side) / 2, side, side)
                elif mark:
                    size = int(max(11, min(16, h * 0.28)))
                    tex = self._tex(mark, size, theme.hex_colour("#3b2f2f"), bold=True)
                    Color(1, 1, 1, 1)
                    Rectangle(texture=tex, pos=(x + w - tex.size[0] - 2, y + 1), size=tex.size)
            overlaps = self._overlaps()
            for i, (sid, token) in enumerate(sorted(self.tokens.items())):
                if sid in b.squares:
                    self._draw_token(sid, str(token), i, overlaps.get(sid, 0))
            for sid, mark in self.marks.items():
                if mark in art.TILE_COLOURS and sid in self.tokens and sid in b.squares:
                    x, y, w, h = self.square_rect(sid)
                    side = min(w, h) * 0.46
                    art.tile(self.canvas, mark, x + w - side - 1, y + 1, side, side)
            if self.selected and self.selected in b.squares:
                x, y, w, h = self.square_rect(self.selected)
                Color(*theme.SELECTED)
                Line(rectangle=(x + 2, y + 2, w - 4, h - 4), width=3)

    def _draw_token(self, sid: str, token: str, index: int, layer: int = 0) -> None:
        x, y, w, h = self.square_rect(sid)
        cx, cy = x + w / 2, y + h / 2
        r = min(w, h) * 0.42
        if layer:  # two squares in one place (table top / under the table): split the cell
            r = min(w, h) * 0.27
            cx, cy = (x + w * 0.3, y + h * 0.7) if layer == 2 else (x + w * 0.7, y + h * 0.3)
        for i, one in enumerate(token.split("+")):  # "cat+mouse": two counters on one square
            if "+" in token:
                one_r = r * 0.62
                art.piece(self.canvas, one, cx + (i * 2 - 1) * one_r * 0.85, cy, one_r, index)
            else:
                art.piece(self.canvas, one, cx, cy, r, index)

    # -- touch -------------------------------------------------------------------------------

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        if self.needs_zoom():
            self.zoom_at(*touch.pos)  # squares too small for a finger: look closer first
            return True
        sid = self.square_at(*touch.pos)
        if sid is not None:
            self.dispatch("on_square", sid)
            return True
        if self.zoom_rect is not None:
            self.zoom_out()
            return True
        return False

    def on_square(self, square_id: str) -> None:
        pass


def _fill_polygon(pts: list[tuple[float, float]]) -> None:
    verts: list[float] = []
    for x, y in pts:
        verts += [x, y, 0, 0]
    Mesh(vertices=verts, indices=list(range(len(pts))), mode="triangle_fan")


def _inside(x: float, y: float, pts: list[tuple[float, float]]) -> bool:
    inside = False
    n = len(pts)
    j = n - 1
    for i in range(n):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / ((yj - yi) or 1e-9) + xi:
            inside = not inside
        j = i
    return inside
