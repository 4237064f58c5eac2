"""Printable boards: render a board file with its squares, labels and ArUco markers.

    render_board(board, px_per_mm) -> BGR image of the board at that scale (board mm -> pixels)
    print_board(board, path, paper="A4", markers_only=False) -> writes a 300 dpi PNG or a PDF

Every board is printed with its chess-style coordinates (``companion.boards.coords``): column
letters along the top and bottom and row numbers down both sides, in the margin between the
play area and the markers; a coordinate is moved outwards past an off-grid square (a Kilkenny
mouse, a start corner) and never enters a marker's quiet zone, so existing prints and the
camera's calibration are unchanged. A square's own label is drawn only where it fits inside
the square (shrunk, or on two lines); one that cannot fit is left out, never overprinted.

A4 prints at true scale (the board file is laid out for A4 landscape); A3 scales the whole
board up (by 420/297 for an A4 board): markers and squares scale together, so the camera's
homography is unchanged. US Letter (279.4 x 215.9 mm) prints at true scale too, the printed part
of the board (:func:`printed_extent`: squares, markers with their quiet zones, coordinates)
centred on the page, when it fits there; when it does not, :class:`PrintError` says so in a
sentence (print it on A4). ``markers_only`` prints the four markers with cut lines and their ids
for users who stick them on an original board (see ``vision.calibrate``).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.boards import Board, Marker
from companion.boards.coords import axes, coordinate
from companion.i18n import _
from vision.errors import VisionError

DPI = 300
PAPERS = {"A4": (297.0, 210.0), "A3": (420.0, 297.0), "LETTER": (279.4, 215.9)}  # landscape, mm
PAPER_NAMES = {"A4": "A4", "A3": "A3", "LETTER": "Letter"}

# Colours (BGR) of the printed board.
PAPER = (255, 255, 255)
INK = (40, 40, 40)
LINE = (90, 90, 90)
FILL_A = (238, 244, 247)
FILL_B = (212, 226, 236)
TABLE = (150, 190, 222)
HOLE = (70, 95, 140)
MOUSE_SQ = (190, 230, 190)


class PrintError(VisionError):
    """A board cannot be printed as asked (unknown paper, unknown file type, no markers)."""


def aruco_dictionary(name: str) -> cv2.aruco.Dictionary:
    code = getattr(cv2.aruco, name, None)
    if not isinstance(code, int):
        raise PrintError(f"unknown ArUco dictionary {name!r} (e.g. DICT_4X4_50)")
    return cv2.aruco.getPredefinedDictionary(code)


def _square_fill(board: Board, sid: str) -> tuple[int, int, int]:
    sq = board.squares[sid]
    kind = sq.kind.lower()
    regions = {name.lower() for name, ids in board.regions.items() if sid in ids}
    if kind == "hole" or any("hole" in r for r in regions):
        return HOLE
    if kind == "mouse" or any("mice" in r or "mouse" in r for r in regions):
        return MOUSE_SQ
    if any("table" in r for r in regions):
        return TABLE
    if sq.cell is not None:
        r, c = sq.cell
        return FILL_A if (r + c) % 2 == 0 else FILL_B
    idx = list(board.squares).index(sid)
    return FILL_A if idx % 2 == 0 else FILL_B


def _pts(poly: tuple[tuple[float, float], ...], s: float, shift: tuple[float, float]) -> np.ndarray:
    arr = (np.asarray(poly, np.float64) * s + np.asarray(shift)) * 16.0
    return np.round(arr).astype(np.int32).reshape(-1, 1, 2)


Rect = tuple[float, float, float, float]
"""x0, y0, x1, y1 in board millimetres."""

MARKER_PAD_MM = 3.0  # the white quiet zone draw_marker paints around each marker
PAGE_EDGE_MM = 3.0  # printers leave a few millimetres blank
MIN_TEXT_MM = 2.2  # the smallest text printed (about 6 pt)


def _text_mm(text: str, height_mm: float) -> tuple[float, float]:
    """Width and height in mm of ``text`` as :func:`_text` draws it ``height_mm`` high."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = 100.0 / 22.0
    thick = max(1, int(round(100.0 / 10)))
    (w, h), base = cv2.getTextSize(text, font, scale, thick)
    return w / 100.0 * height_mm, (h + base * 0.5) / 100.0 * height_mm


def _bbox(poly: tuple[tuple[float, float], ...]) -> Rect:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return (min(xs), min(ys), max(xs), max(ys))


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _obstacles(board: Board) -> list[Rect]:
    """Where nothing else may be printed: every square and every marker with its quiet zone."""
    out = [_bbox(sq.polygon) for sq in board.squares.values()]
    for m in board.markers:
        out.append((m.x_mm - MARKER_PAD_MM, m.y_mm - MARKER_PAD_MM,
                    m.x_mm + m.size_mm + MARKER_PAD_MM, m.y_mm + m.size_mm + MARKER_PAD_MM))
    return out


def coordinate_labels(board: Board) -> list[tuple[str, tuple[float, float], float]]:
    """The coordinates printed around ``board``: (text, centre in mm, text height in mm).

    Each column letter goes above and below its column, each row number left and right of its
    row, as close to the play area as it fits: pushed outwards past any square in the way,
    shrunk down to :data:`MIN_TEXT_MM`, left out where it would touch a marker's quiet zone or
    leave the page."""
    frame = axes(board)
    if frame is None:
        return []
    cols: dict[str, list[Rect]] = {}
    rows: dict[str, list[Rect]] = {}
    for sid, sq in board.squares.items():
        if coordinate(board, sid) is None or sq.cell is None:
            continue
        box = _bbox(sq.polygon)
        cols.setdefault(frame.column_label(sq.cell[1]) or "", []).append(box)
        rows.setdefault(frame.row_label(sq.cell[0]) or "", []).append(box)
    boxes = [b for bs in cols.values() for b in bs]
    if not boxes:
        return []
    cell = float(np.median([min(b[2] - b[0], b[3] - b[1]) for b in boxes]))
    play = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    blocked = _obstacles(board)
    page = (PAGE_EDGE_MM, PAGE_EDGE_MM, board.width_mm - PAGE_EDGE_MM, board.height_mm - PAGE_EDGE_MM)
    want = min(max(cell * 0.3, MIN_TEXT_MM), 5.0)
    out: list[tuple[str, tuple[float, float], float]] = []

    markers = blocked[len(board.squares):]

    def spot(text: str, along: float, edge: float, axis: str, outward: int, height: float,
             reach: float) -> Rect | None:
        """The first free place for ``text`` going outwards from ``edge`` up to ``reach`` mm,
        past squares but never past a marker's quiet zone or off the page."""
        w, h = _text_mm(text, height)
        half = (w if axis == "x" else h) / 2
        gap = 0.8
        while gap <= reach:
            d = edge + outward * (gap + half)
            cx, cy = (d, along) if axis == "x" else (along, d)
            rect = (cx - w / 2 - 0.3, cy - h / 2 - 0.3, cx + w / 2 + 0.3, cy + h / 2 + 0.3)
            inside = page[0] <= rect[0] and rect[2] <= page[2] and page[1] <= rect[1] and rect[3] <= page[3]
            if not inside or any(_overlaps(rect, m) for m in markers):
                return None
            if not any(_overlaps(rect, b) for b in blocked):
                return rect
            gap += 0.5
        return None

    def place(text: str, along: float, edge: float, axis: str, outward: int) -> None:
        # near the edge at a good size; else full size past the squares in the way (a start
        # corner, a Kilkenny mouse); else smaller, down to the smallest printed size
        tries = [(h, 8.0) for h in np.arange(want, max(MIN_TEXT_MM, want * 0.6) - 1e-9, -0.4)]
        tries += [(want, 30.0)]
        tries += [(h, 8.0) for h in np.arange(want * 0.6, MIN_TEXT_MM - 1e-9, -0.2)]
        for height, reach in tries:
            rect = spot(text, along, edge, axis, outward, float(height), reach)
            if rect is not None:
                out.append((text, ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2), float(height)))
                blocked.append(rect)
                return

    for letter, bs in cols.items():
        xc = float(np.mean([(b[0] + b[2]) / 2 for b in bs]))
        place(letter, xc, play[1], "y", -1)
        place(letter, xc, play[3], "y", +1)
    for number, bs in rows.items():
        yc = float(np.mean([(b[1] + b[3]) / 2 for b in bs]))
        place(number, yc, play[0], "x", -1)
        place(number, yc, play[2], "x", +1)
    return out


def _fit_label(text: str, box: Rect, start_mm: float) -> tuple[list[str], float] | None:
    """The lines and text height (mm) at which ``text`` fits inside ``box`` (the upper part of
    a square, 90 % of its width), shrinking from ``start_mm``, else on two lines; None when it
    cannot fit readably."""
    width = (box[2] - box[0]) * 0.9
    room = (box[3] - box[1]) * 0.9
    for lines in ([text], text.split(" ", 1) if " " in text else None):
        if not lines:
            continue
        height = start_mm
        while height >= MIN_TEXT_MM - 1e-9:
            widest = max(_text_mm(line, height)[0] for line in lines)
            tall = len(lines) * height * 1.3
            if widest <= width and tall <= room:
                return lines, height
            height -= 0.2
    return None


def _text(img: np.ndarray, text: str, centre: tuple[float, float], height_px: float,
          colour: tuple[int, int, int]) -> None:
    if not text or height_px < 4:
        return
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = height_px / 22.0
    thick = max(1, int(round(height_px / 10)))
    (w, h), _base = cv2.getTextSize(text, font, scale, thick)
    org = (int(round(centre[0] - w / 2)), int(round(centre[1] + h / 2)))
    cv2.putText(img, text, org, font, scale, colour, thick, cv2.LINE_AA)


def draw_marker(img: np.ndarray, dictionary: cv2.aruco.Dictionary, marker: Marker, s: float,
                shift: tuple[float, float] = (0.0, 0.0)) -> None:
    """Draw one marker at its board position (s px per mm), with a white quiet zone."""
    x0 = int(round(marker.x_mm * s + shift[0]))
    y0 = int(round(marker.y_mm * s + shift[1]))
    side = int(round(marker.size_mm * s))
    pad = int(round(3 * s))
    cv2.rectangle(img, (x0 - pad, y0 - pad), (x0 + side + pad, y0 + side + pad), PAPER, -1)
    # Generate at the exact bit grid (6 cells) and scale with nearest neighbour: crisp cells.
    cells = 6
    base = cv2.aruco.generateImageMarker(dictionary, marker.id, cells * 10)
    tile = cv2.resize(base, (side, side), interpolation=cv2.INTER_NEAREST)
    h, w = img.shape[:2]
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + side, w), min(y0 + side, h)
    if xb > xa and yb > ya:
        img[ya:yb, xa:xb] = cv2.cvtColor(tile[ya - y0:yb - y0, xa - x0:xb - x0], cv2.COLOR_GRAY2BGR)


def render_board(board: Board, px_per_mm: float, markers: bool = True,
                 labels: bool = True) -> np.ndarray:
    """The board as printed: BGR uint8, (height_mm * s) x (width_mm * s) pixels, 1 px = 1/s mm."""
    s = float(px_per_mm)
    w, h = int(round(board.width_mm * s)), int(round(board.height_mm * s))
    img = np.full((h, w, 3), PAPER, np.uint8)
    shift = (0.0, 0.0)
    line = max(1, int(round(0.5 * s)))
    for sid, sq in board.squares.items():
        pts = _pts(sq.polygon, s, shift)
        cv2.fillPoly(img, [pts], _square_fill(board, sid), cv2.LINE_AA, shift=4)
    for sq in board.squares.values():
        cv2.polylines(img, [_pts(sq.polygon, s, shift)], True, LINE, line, cv2.LINE_AA, shift=4)
    if labels:
        for sid, sq in board.squares.items():
            xs = [p[0] for p in sq.polygon]
            ys = [p[1] for p in sq.polygon]
            size = min(max(xs) - min(xs), max(ys) - min(ys))
            cx, cy = sq.centre
            fill = _square_fill(board, sid)
            colour = (235, 235, 235) if sum(fill) < 400 else INK
            if sq.label:
                fit = _fit_label(sq.label, _bbox(sq.polygon), size * 0.22)
                if fit is not None:
                    lines, height = fit
                    for i, line in enumerate(lines):
                        y = min(ys) + height * (1.0 + 1.3 * i)
                        _text(img, line, (cx * s, y * s), height * s, colour)
        for text, (x, y), height in coordinate_labels(board):
            _text(img, text, (x * s, y * s), height * s, INK)
    if markers:
        dictionary = aruco_dictionary(board.aruco)
        for m in board.markers:
            draw_marker(img, dictionary, m, s, shift)
    return img


def render_markers_only(board: Board, px_per_mm: float, paper_mm: tuple[float, float]) -> np.ndarray:
    """The four markers at their true size with dashed cut lines and their ids, on one page."""
    if not board.markers:
        raise PrintError(f"board {board.name!r} has no markers to print")
    s = float(px_per_mm)
    pw, ph = paper_mm
    img = np.full((int(round(ph * s)), int(round(pw * s)), 3), PAPER, np.uint8)
    dictionary = aruco_dictionary(board.aruco)
    names = ["top-left", "top-right", "bottom-right", "bottom-left"]
    cols = 2
    cell_w, cell_h = pw / cols, ph / 2
    for i, m in enumerate(board.markers):
        cx = cell_w * (i % cols) + cell_w / 2
        cy = cell_h * (i // cols) + cell_h / 2
        x, y = cx - m.size_mm / 2, cy - m.size_mm / 2
        draw_marker(img, dictionary, Marker(m.id, x, y, m.size_mm), s)
        margin = 6.0
        x1, y1 = int((x - margin) * s), int((y - margin) * s)
        x2, y2 = int((x + m.size_mm + margin) * s), int((y + m.size_mm + margin) * s)
        dash = max(2, int(3 * s))
        for xa in range(x1, x2, 2 * dash):
            cv2.line(img, (xa, y1), (min(xa + dash, x2), y1), LINE, 1)
            cv2.line(img, (xa, y2), (min(xa + dash, x2), y2), LINE, 1)
        for ya in range(y1, y2, 2 * dash):
            cv2.line(img, (x1, ya), (x1, min(ya + dash, y2)), LINE, 1)
            cv2.line(img, (x2, ya), (x2, min(ya + dash, y2)), LINE, 1)
        where = names[i] if i < len(names) else ""
        _text(img, f"marker {m.id} {where}", (cx * s, (y2 / s + 5) * s), 3.5 * s, INK)
    _text(img, f"{board.title}: cut along the dashed lines, stick each marker on the board's "
          "corner named under it", (pw / 2 * s, 8 * s), 3.2 * s, INK)
    return img


def printed_extent(board: Board) -> Rect:
    """The part of the board that carries print, in board mm: its squares, its markers with
    their quiet zones and its coordinates (the rest is blank paper)."""
    boxes = list(_obstacles(board))
    for text, (x, y), height in coordinate_labels(board):
        w, h = _text_mm(text, height)
        boxes.append((x - w / 2, y - h / 2, x + w / 2, y + h / 2))
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def letter_fit(board: Board) -> tuple[float, float]:
    """Where the board's origin lies on a US Letter page (mm) so that its printed part is centred
    there at true size; :class:`PrintError`, in a sentence, when that part is bigger than the page."""
    pw, ph = PAPERS["LETTER"]
    x0, y0, x1, y1 = printed_extent(board)
    if x1 - x0 > pw or y1 - y0 > ph:
        raise PrintError(_("The {game} board is {w:.0f} × {h:.0f} mm: it does not fit on Letter paper "
                           "({pw:.0f} × {ph:.0f} mm) at its true size. Print it on A4 paper.").format(
                               game=board.title, w=x1 - x0, h=y1 - y0, pw=pw, ph=ph))
    return (pw / 2 - (x0 + x1) / 2, ph / 2 - (y0 + y1) / 2)


def _paste(page: np.ndarray, art: np.ndarray, x0: int, y0: int) -> None:
    """``art`` onto ``page`` with its top-left corner at (x0, y0), cut where it leaves the page."""
    ph, pw = page.shape[:2]
    ah, aw = art.shape[:2]
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + aw, pw), min(y0 + ah, ph)
    if xb > xa and yb > ya:
        page[ya:yb, xa:xb] = art[ya - y0:yb - y0, xa - x0:xb - x0]


def print_board(board: Board, path: str | Path, paper: str = "A4", markers_only: bool = False,
                dpi: int = DPI) -> Path:
    """Write the printable board (or the markers alone) as a PNG or PDF at ``dpi``."""
    out = Path(path)
    kind = out.suffix.lower()
    if kind not in (".png", ".pdf"):
        raise PrintError(f"output must end in .pdf or .png, not {out.name!r}")
    if paper.upper() not in PAPERS:
        raise PrintError(f"unknown paper {paper!r}; use A4, A3 or Letter")
    pw, ph = PAPERS[paper.upper()]
    s = dpi / 25.4
    if markers_only:
        page = render_markers_only(board, s, (pw, ph))
    elif paper.upper() == "LETTER":
        ox, oy = letter_fit(board)
        page = np.full((int(round(ph * s)), int(round(pw * s)), 3), PAPER, np.uint8)
        _paste(page, render_board(board, s), int(round(ox * s)), int(round(oy * s)))
    else:
        base_w, base_h = PAPERS["A4"]
        fit = min(base_w / board.width_mm, base_h / board.height_mm, 1.0)
        scale = fit * (pw / base_w)  # A4: true scale; A3: the A4 layout scaled up
        art = render_board(board, s * scale)
        page = np.full((int(round(ph * s)), int(round(pw * s)), 3), PAPER, np.uint8)
        ah, aw = art.shape[:2]
        ah, aw = min(ah, page.shape[0]), min(aw, page.shape[1])
        y0, x0 = (page.shape[0] - ah) // 2, (page.shape[1] - aw) // 2
        page[y0:y0 + ah, x0:x0 + aw] = art[:ah, :aw]
    if kind == ".png":
        from PIL import Image

        Image.fromarray(cv2.cvtColor(page, cv2.COLOR_BGR2RGB)).save(out, dpi=(dpi, dpi))
    else:
        from PIL import Image

        Image.fromarray(cv2.cvtColor(page, cv2.COLOR_BGR2RGB)).save(out, "PDF", resolution=float(dpi))
    return out
