"""The board, drawn from a board file's polygons, with pieces, highlights and touch.

``BoardView.board`` is a :class:`companion.boards.Board`; ``tokens`` is the state's
``board_view()`` (square id -> token); ``highlights`` the squares to light up (legal
destinations); ``tinted`` squares where any one will do (tinted, and marked like a highlight);
``selected`` the square picked first; ``paths`` the ways a piece can go when two lead to one
square (drawn as numbered arrows). Touching a square fires ``on_square(square_id)``, touching a
path's number ``on_path(index)``.

Readable at arm's length (issue 28): square labels are drawn at 16 px or more, or not at all
(never cut short); chess-style coordinates (``companion.boards.coords``) stand left of and below
the board at 16 px; marks for the squares to touch (a dark and a white ring and a dot, >= 3:1
against any square's fill) are drawn above the pieces. What was drawn is kept in
``drawn_labels`` for the design test (tests/ui/test_design.py). Words printed on squares
("Cat", "red mouse") are drawn in the language in use; squares that share their place (Chop!
Chop!'s table top over the floor under it) get no label: their pieces fill the cell, and the
coordinates name them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, Triangle
from kivy.properties import BooleanProperty, DictProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.stencilview import StencilView

from companion.boards import Board
from companion.boards.coords import axes
from companion.i18n import N_, _
from ui import art, theme

LABEL_WORDS: dict[str, str] = {
    "table": N_("table"), "Cat": N_("Cat"), "Mouse": N_("Mouse"),
    "red mouse": N_("red mouse"), "blue mouse": N_("blue mouse"), "green mouse": N_("green mouse"),
    "yellow mouse": N_("yellow mouse"),
}
"""The words the board files print on squares (English), translated when drawn; numbers such
as Kat en Muis's "15/52" are drawn as printed."""


def label_text(label: str) -> str:
    """A square's printed label in the language now in use."""
    return _(LABEL_WORDS[label]) if label in LABEL_WORDS else label

KIND_FILL = {
    "hole": theme.hex_colour("#6d5840"),
    "table": theme.hex_colour("#c9a77c"),
    "table_top": theme.hex_colour("#c9a77c", 0.92),
    "start": theme.hex_colour("#e6d3ae"),
    "mouse": theme.hex_colour("#e9d2a8"),
    "pot": theme.hex_colour("#f7c873"),
}

LABEL_MIN = 16
"""Smallest text drawn on or around a board, pixels (issue 28: readable at arm's length)."""
COORD_LEFT = 28
COORD_BOTTOM = 24
"""Room kept left of and below the board for its coordinates, pixels."""
BADGE_RADIUS = 24
"""A path's number: a 48 px touch target."""


@dataclass(frozen=True)
class DrawnLabel:
    """One label the board drew, or left out because it would not fit whole."""

    where: str
    """"square 15", "column A", "row 3", "mark 2,3", "path 1"."""
    intended: str
    drawn: str
    """The text drawn: the intended one, or "" (none rather than a wrong one)."""
    font_size: float
    ink: Any
    fill: Any
    """The colour under it, or None for the board's own background (the coordinates)."""


def _texture(text: str, size: float, colour: tuple[float, float, float, float], bold: bool = False,
             lines: float = 1.0) -> Any:
    lab = CoreLabel(text=text, font_size=size, color=colour, bold=bold, line_height=lines)
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
    tinted = ListProperty([])
    """Squares where any one will do (an Arrow tile's jump, a cube's place): tinted and marked."""
    paths = ListProperty([])
    """Ways to one square (lists of square ids, from first to last): numbered arrows to touch."""
    hinted = ListProperty([])
    """A hint's squares: a thick amber ring, beside the marks of every square to touch."""
    coordinates = BooleanProperty(True)
    """Draw chess-style coordinates around the board (columns A.. below, rows 1.. on the left)."""

    zoom_rect: Any = ObjectProperty(None, allownone=True)
    """(min x, min y, max x, max y) in mm to show instead of the whole board, or None."""
    zoomed = BooleanProperty(False)
    min_touch = 48
    """Squares smaller than this on screen: the first touch zooms in around the finger; zoomed
    out again to show a piece's far targets, a touch that is not plainly on one lit square
    zooms in around the finger too, so every square is chosen at a finger's size."""

    __events__ = ("on_square", "on_path")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._scale = 1.0
        self._off = (0.0, 0.0)
        self._min = (0.0, 0.0)
        self._tex_cache: dict[tuple[str, int, bool], Any] = {}
        self._frame: tuple[Any, Any, dict[int, float], dict[int, float]] | None = None
        self.drawn_labels: list[DrawnLabel] = []
        """Every label of the last drawing (squares and coordinates), for the design test."""
        self.path_badges: list[tuple[int, float, float, float]] = []
        """(path index, x, y, radius) of each path's number as last drawn."""
        self.mark_dots: dict[str, tuple[float, float, float]] = {}
        """square id -> (x, y, radius) of the dot marking it, as last drawn."""
        self._holding = 0
        self._stale = False
        self.bind(
            pos=self.redraw, size=self.redraw, board=self.redraw, tokens=self.redraw,
            highlights=self.redraw, selected=self.redraw, tints=self.redraw, marks=self.redraw,
            zoom_rect=self.redraw, tinted=self.redraw, paths=self.redraw, coordinates=self.redraw,
            hinted=self.redraw,
        )

    @property
    def marked(self) -> set[str]:
        """Every square marked to be touched now (lit or tinted)."""
        return set(self.highlights) | set(self.tinted)

    def axes_frame(self) -> tuple[Any, dict[int, float], dict[int, float]] | None:
        """(the board's coordinate axes, column -> x mm, row -> y mm of the cells' centres), or
        None for a board without coordinates."""
        b = self.board
        if b is None:
            return None
        if self._frame is None or self._frame[0] is not b:
            frame = axes(b)
            xs: dict[int, list[float]] = {}
            ys: dict[int, list[float]] = {}
            for sq in b.squares.values():
                if sq.cell is not None:
                    cx, cy = sq.centre
                    xs.setdefault(sq.cell[1], []).append(cx)
                    ys.setdefault(sq.cell[0], []).append(cy)
            self._frame = (
                b, frame,
                {c: sum(v) / len(v) for c, v in xs.items()},
                {r: sum(v) / len(v) for r, v in ys.items()},
            )
        if self._frame[1] is None:
            return None
        return (self._frame[1], self._frame[2], self._frame[3])

    def _margins(self) -> tuple[float, float]:
        if not self.coordinates or self.axes_frame() is None:
            return (0.0, 0.0)
        return (float(COORD_LEFT), float(COORD_BOTTOM))

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
        ml, mb = self._margins()  # the coordinates' room, left and below
        w, h = max(self.width - ml, 1.0), max(self.height - mb, 1.0)
        self._scale = min(w / bw, h / bh) * 0.98
        ox = self.x + ml + (w - bw * self._scale) / 2
        oy = self.y + mb + (h - bh * self._scale) / 2
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

    def sure_square(self, x: float, y: float) -> str | None:
        """The one lit square within a finger's reach of (x, y) (three quarters of
        :attr:`min_touch` from its centre), or None where there is none or there are several."""
        reach = self.min_touch * 0.75
        near = []
        for sid in self.highlights:
            if sid in self.board.squares:
                cx, cy = self.square_centre(sid)
                if (cx - x) ** 2 + (cy - y) ** 2 < reach * reach:
                    near.append(sid)
        return near[0] if len(near) == 1 else None

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

    def _tex(self, text: str, size: int, colour: Any = theme.BOARD_TEXT, bold: bool = False,
             lines: float = 1.0) -> Any:
        key = (text + repr(colour) + repr(lines), size, bold)
        if key not in self._tex_cache:
            self._tex_cache[key] = _texture(text, size, colour, bold, lines)
        return self._tex_cache[key]

    @contextmanager
    def held(self) -> Iterator[None]:
        """Several properties set at once (a screen's refresh sets tokens, highlights, tints...):
        the board drawn once on leaving, if any changed, instead of once for each."""
        self._holding += 1
        try:
            yield
        finally:
            self._holding -= 1
            if not self._holding and self._stale:
                self.redraw()

    def redraw(self, *_: Any) -> None:
        self._stale = bool(self._holding)
        if self._holding:
            return
        self.canvas.clear()
        self.drawn_labels = []
        self.path_badges = []
        self.mark_dots = {}
        if self.board is None or not self.board.squares or self.width < 10:
            return
        self._fit()
        b: Board = self.board
        free = set(self.tinted)
        fills: dict[str, Any] = {}
        self.square_fills = fills
        """square id -> the opaque colour of its fill as last drawn (for the design test)."""
        with self.canvas:
            for sid, sq in b.squares.items():
                pts = [self.to_px(*p) for p in sq.polygon]
                fill = self.tints.get(sid) or KIND_FILL.get(sq.kind, theme.BOARD)
                fills[sid] = theme.blend(fill, theme.BG)
                Color(*fill)
                _fill_polygon(pts)
                Color(*theme.BOARD_LINE)
                Line(points=[c for p in pts + pts[:1] for c in p], width=1.1)
            overlaps = self._overlaps()
            for sid, sq in b.squares.items():
                x, y, w, h = self.square_rect(sid)
                if sq.label and not overlaps.get(sid):  # (two squares in one place: pieces fill the cell)
                    self._draw_square_label(sid, label_text(sq.label), (x, y, w, h), fills[sid])
                mark = self.marks.get(sid)
                if mark in art.TILE_COLOURS:  # a turned slab: its tile's picture (a badge over a piece)
                    if sid not in self.tokens:
                        side = min(w, h) * 0.72
                        art.tile_picture(self.canvas, mark, x + (w - side) / 2, y + (h - side) / 2, side, side)
                elif mark:
                    size = int(max(LABEL_MIN, min(20, h * 0.3)))
                    ink = theme.readable(theme.hex_colour("#3b2f2f"), fills[sid])
                    tex = self._tex(mark, size, ink, bold=True)
                    shown = tex.size[0] <= w - 2 and tex.size[1] <= h - 2
                    self.drawn_labels.append(DrawnLabel(f"mark {sid}", mark, mark if shown else "", size, ink,
                                                         fills[sid]))
                    if shown:
                        Color(1, 1, 1, 1)
                        Rectangle(texture=tex, pos=(x + w - tex.size[0] - 2, y + 1), size=tex.size)
            for i, (sid, token) in enumerate(sorted(self.tokens.items())):
                if sid in b.squares:
                    self._draw_token(sid, str(token), i, overlaps.get(sid, 0))
            for sid, mark in self.marks.items():
                if mark in art.TILE_COLOURS and sid in self.tokens and sid in b.squares:
                    x, y, w, h = self.square_rect(sid)
                    side = min(w, h) * 0.46
                    art.tile(self.canvas, mark, x + w - side - 1, y + 1, side, side)
            for sid in sorted(free):  # any of these will do: tinted over whatever lies there
                if sid in b.squares:
                    token = str(self.tokens.get(sid, "")).split(":")[0]
                    if token in ("slab", "hole"):  # a slab covers the square: the marks stand on it
                        fills[sid] = theme.piece_colour(token)
                    Color(*theme.FREE_TINT)
                    _fill_polygon([self.to_px(*p) for p in b.squares[sid].polygon])
                    fills[sid] = theme.blend(theme.FREE_TINT, fills[sid])
            if self.selected and self.selected in b.squares:
                x, y, w, h = self.square_rect(self.selected)
                Color(*theme.SELECTED)
                Line(rectangle=(x + 2, y + 2, w - 4, h - 4), width=3)
            for sid in self.hinted:
                if sid in b.squares:
                    x, y, w, h = self.square_rect(sid)
                    Color(*theme.ACCENT)
                    Line(rectangle=(x + 1, y + 1, w - 2, h - 2), width=max(2.5, min(5.0, min(w, h) * 0.1)))
            # the squares to touch, above the pieces: every one of them, however many
            for sid in sorted(self.marked):
                if sid in b.squares:
                    self._draw_mark(sid, sid in free and sid not in self.highlights)
            for index, path in enumerate(self.paths):
                self._draw_path(index, [sid for sid in path if sid in b.squares])
            self._draw_coordinates()

    def _draw_square_label(self, sid: str, label: str, rect: tuple[float, float, float, float], fill: Any) -> None:
        """The square's printed label at 16 px or more in its top-left corner, whole, or none."""
        x, y, w, h = rect
        ink = theme.readable(theme.BOARD_TEXT, fill)
        size = int(max(LABEL_MIN, min(20, h * 0.3)))
        tex = self._tex(label, size, ink)
        shown = tex.size[0] <= w - 4 and tex.size[1] <= h - 2
        cut = max(label.find("/") + 1, label.find(" ") + 1)
        if not shown and 0 < cut < len(label):  # "15/52": "15/" over "52", every character kept
            size = LABEL_MIN
            tex = self._tex(label[:cut].rstrip() + "\n" + label[cut:].lstrip(), size, ink, lines=0.82)
            shown = tex.size[0] <= w - 4 and tex.size[1] <= h - 2
        self.drawn_labels.append(DrawnLabel(f"square {sid}", label, label if shown else "", size, ink, fill))
        if shown:
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(x + 3, y + h - tex.size[1] - 1), size=tex.size)

    def _draw_mark(self, sid: str, free: bool) -> None:
        """A square to touch: a dark ring with a white one inside, and a dot (in the corner when a
        piece stands there). Where any free square will do the ring is thinner (many are lit)."""
        x, y, w, h = self.square_rect(sid)
        side = min(w, h)
        ring = max(1.5, min(3.0, side * 0.07)) if not free else max(1.2, min(2.0, side * 0.05))
        inset = ring / 2 + 0.5  # the rings hug the square's edge, clear of its label
        Color(*theme.MARK_DARK)
        Line(rectangle=(x + inset, y + inset, w - 2 * inset, h - 2 * inset), width=ring)
        Color(*theme.MARK_LIGHT)
        Line(rectangle=(x + 2 * ring + 0.5, y + 2 * ring + 0.5, w - 4 * ring - 1, h - 4 * ring - 1), width=1.0)
        r = max(3.5, min(9.0, side * 0.13))
        labelled = any(lab.drawn and lab.where == f"square {sid}" for lab in self.drawn_labels)
        if labelled:  # a small dot top right, off the number's digits
            r = max(3.0, min(5.0, side * 0.09))
        if sid in self.tokens or labelled:  # beside the piece or the number, top right
            cx, cy = x + w - 2 * ring - r - 2, y + h - 2 * ring - r - 2
        else:
            cx, cy = x + w / 2, y + h / 2
        self.mark_dots[sid] = (cx, cy, r)
        Color(*theme.MARK_LIGHT)
        Ellipse(pos=(cx - r - 1.5, cy - r - 1.5), size=(2 * r + 3, 2 * r + 3))
        Color(*theme.MARK_DARK)
        Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))

    def _draw_path(self, index: int, path: list[str]) -> None:
        """One way to a square: an arrow through the squares' centres, and its number (a 48 px
        badge on the square it passes last, to be touched)."""
        if len(path) < 2:
            return
        pts = [self.square_centre(sid) for sid in path]
        flat = [c for p in pts for c in p]
        Color(*theme.MARK_LIGHT)
        Line(points=flat, width=6)
        Color(*theme.MARK_DARK)
        Line(points=flat, width=3.5)
        (x0, y0), (x1, y1) = pts[-2], pts[-1]
        length = max(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, 1e-6)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        head = min(18.0, length * 0.45)
        bx, by = x1 - ux * head, y1 - uy * head
        Triangle(points=[x1, y1, bx - uy * head * 0.6, by + ux * head * 0.6, bx + uy * head * 0.6, by - ux * head * 0.6])
        cx, cy = pts[-2] if len(pts) > 2 else ((x0 + x1) / 2, (y0 + y1) / 2)
        r = float(BADGE_RADIUS) * 0.75  # drawn smaller than the 48 px circle it answers to
        Color(*theme.MARK_LIGHT)
        Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
        Color(*theme.MARK_DARK)
        Ellipse(pos=(cx - r + 2.5, cy - r + 2.5), size=(2 * r - 5, 2 * r - 5))
        number = str(index + 1)
        tex = self._tex(number, 24, theme.MARK_LIGHT, bold=True)
        Color(1, 1, 1, 1)
        Rectangle(texture=tex, pos=(cx - tex.size[0] / 2, cy - tex.size[1] / 2), size=tex.size)
        self.drawn_labels.append(DrawnLabel(f"path {index + 1}", number, number, 24, theme.MARK_LIGHT,
                                             theme.MARK_DARK))
        self.path_badges.append((index, cx, cy, float(BADGE_RADIUS)))

    def _draw_coordinates(self) -> None:
        """Columns A, B, C.. below the board and rows 1, 2, 3.. on its left, at 16 px, on the
        screen's background (over the board's edge when zoomed in)."""
        frame = self.axes_frame()
        if frame is None or not self.coordinates:
            return
        ax, col_x, row_y = frame
        ml, mb = self._margins()
        minx, miny, maxx, maxy = self.bounds()
        left_px, bottom_px = self.to_px(minx, maxy)
        left = max(self.x, left_px - ml)
        bottom = max(self.y, bottom_px - mb)
        if self.zoom_rect is not None:  # the board runs under the labels' strips
            Color(*theme.BG)
            Rectangle(pos=(left, self.y), size=(ml, self.height))
            Rectangle(pos=(self.x, bottom), size=(self.width, mb))
        ink = theme.TEXT
        for col, x_mm in col_x.items():
            text = ax.column_label(col)
            if text is None:
                continue
            cx, _cy = self.to_px(x_mm, miny)
            if not self.x + ml <= cx <= self.right:
                continue
            tex = self._tex(text, LABEL_MIN, ink, bold=True)
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(cx - tex.size[0] / 2, bottom + (mb - tex.size[1]) / 2), size=tex.size)
            self.drawn_labels.append(DrawnLabel(f"column {text}", text, text, LABEL_MIN, ink, None))
        for row, y_mm in row_y.items():
            text = ax.row_label(row)
            if text is None:
                continue
            _cx, cy = self.to_px(minx, y_mm)
            if not bottom + mb <= cy <= self.top:
                continue
            tex = self._tex(text, LABEL_MIN, ink, bold=True)
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(left + ml - tex.size[0] - 5, cy - tex.size[1] / 2), size=tex.size)
            self.drawn_labels.append(DrawnLabel(f"row {text}", text, text, LABEL_MIN, ink, None))

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

    def path_at(self, x: float, y: float) -> int | None:
        """The path whose number is under (x, y), or None."""
        for index, cx, cy, r in self.path_badges:
            if (cx - x) ** 2 + (cy - y) ** 2 <= r * r:
                return index
        return None

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        index = self.path_at(*touch.pos)
        if index is not None:
            self.dispatch("on_path", index)
            return True
        if self.needs_zoom():
            self.zoom_at(*touch.pos)  # squares too small for a finger: look closer first
            return True
        if self.board is not None and self.square_px() < self.min_touch and self.sure_square(*touch.pos) is None:
            self.zoom_at(*touch.pos)  # zoomed out to show a piece's targets, and the finger
            return True  # covers several squares or none that is lit: closer first, then choose
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

    def on_path(self, index: int) -> None:
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
