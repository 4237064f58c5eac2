"""Board files: one physical board each, as TOML.

A board file describes the squares (ids, polygons in millimetres, labels), adjacency, named
regions, the printed ArUco markers and the game settings the board implies. Engines use ids,
adjacency and regions; the UI draws the polygons; vision maps camera pixels to squares through
the markers. Shipped boards live beside this module as ``<name>.toml``; a user's own board is
any file in the same format.

Format::

    [board]
    name = "chopchop"            # file stem for shipped boards
    game = "chopchop"            # registry key of the game it serves
    title = "Chop! Chop!"
    width_mm = 260.0             # the printed area, markers included
    height_mm = 200.0

    [grid]                       # optional: generates squares "r,c" for a rows x cols grid
    rows = 6
    cols = 8
    origin_mm = [30.0, 20.0]     # top-left corner of square (0,0)
    cell_mm = 25.0
    skip = ["2,3"]               # optional: grid cells that are not squares

    [[squares]]                  # explicit squares (in addition to the grid ones)
    id = "hole-n"
    polygon = [[x, y], ...]      # millimetres, board coordinates (x right, y down)
    label = "N"                  # optional, what is printed
    kind = "hole"                # optional, free text

    [adjacency]                  # optional; grids get orthogonal neighbours automatically
    "hole-n" = ["0,3"]           # extra links, made symmetric

    [regions]                    # optional named sets of square ids
    table_top = ["2,3", "2,4"]

    [[markers]]                  # ArUco markers (OpenCV DICT_4X4_50 unless [board].aruco says)
    id = 0
    x_mm = 5.0                   # top-left corner of the marker's black square
    y_mm = 5.0
    size_mm = 20.0

    [[older_markers]]            # optional: markers of an earlier print of this board
    layout = 1                   # which earlier layout (default 1); ids differ from [[markers]]
    id = 12                      # and from every other layout, so the ids seen tell the print
    x_mm = 31.0
    y_mm = 17.5
    size_mm = 24.0

    [settings]                   # game settings this board implies
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from companion.i18n import _
from companion.limits import (
    MAX_BOARD_FILE_BYTES,
    MAX_BOARD_SQUARES,
    MAX_POLYGON_POINTS,
    FileTooLargeError,
    read_text_capped,
)

Point = tuple[float, float]


class BoardError(ValueError):
    """A board file is missing, unreadable or inconsistent; the message says which and why."""


@dataclass(frozen=True)
class Square:
    id: str
    polygon: tuple[Point, ...]
    label: str = ""
    kind: str = ""
    cell: tuple[int, int] | None = None
    """(row, column) for grid squares."""

    @property
    def centre(self) -> Point:
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        return (sum(xs) / len(xs), sum(ys) / len(ys))


@dataclass(frozen=True)
class Marker:
    id: int
    x_mm: float
    y_mm: float
    size_mm: float

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Top-left, top-right, bottom-right, bottom-left (OpenCV's ArUco corner order)."""
        x, y, s = self.x_mm, self.y_mm, self.size_mm
        return ((x, y), (x + s, y), (x + s, y + s), (x, y + s))


@dataclass(frozen=True)
class Board:
    name: str
    game: str
    title: str
    width_mm: float
    height_mm: float
    squares: dict[str, Square]
    adjacency: dict[str, tuple[str, ...]]
    regions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    markers: tuple[Marker, ...] = ()
    settings: dict[str, Any] = field(default_factory=dict)
    aruco: str = "DICT_4X4_50"
    grid: tuple[int, int] | None = None
    """(rows, cols) when the board has a grid section."""
    older_markers: tuple[tuple[Marker, ...], ...] = ()
    """Marker layouts of earlier prints of this board (ids unlike ``markers`` and each other):
    a print of any of them is still found; see :meth:`printed_as`."""

    def square(self, square_id: str) -> Square:
        try:
            return self.squares[square_id]
        except KeyError:
            raise BoardError(f"board {self.name!r} has no square {square_id!r}") from None

    @property
    def marker_ids(self) -> frozenset[int]:
        """The ids of every marker layout this board has been printed with."""
        return frozenset(m.id for layout in (self.markers, *self.older_markers) for m in layout)

    def printed_as(self, seen_ids: Iterable[int]) -> Board:
        """This board as printed with the marker layout whose ids are among ``seen_ids`` most
        (the current layout when none is seen or on a tie): ``markers`` is that layout,
        ``older_markers`` the others. The squares are the same in every layout."""
        seen = set(seen_ids)
        layouts = (self.markers, *self.older_markers)
        best = max(range(len(layouts)), key=lambda k: (len(seen & {m.id for m in layouts[k]}), -k))
        if best == 0:
            return self
        others = tuple(layout for k, layout in enumerate(layouts) if k != best)
        return replace(self, markers=layouts[best], older_markers=others)

    def neighbours(self, square_id: str) -> tuple[str, ...]:
        return self.adjacency.get(square_id, ())

    def region(self, name: str) -> tuple[str, ...]:
        return self.regions.get(name, ())


def _too_many(source: str, n: int) -> BoardError:
    return BoardError(_("{source} has {n} squares, more than the {limit} a board may have: check its [grid] "
                        "and [[squares]].").format(source=source, n=n, limit=MAX_BOARD_SQUARES))


def _polygon(raw: Any, where: str) -> tuple[Point, ...]:
    if not isinstance(raw, list | tuple):
        raise BoardError(f"{where}: polygon must be a list of [x, y] pairs in millimetres")
    if len(raw) > MAX_POLYGON_POINTS:
        raise BoardError(_("{where}: a polygon has at most {limit} points, not {n}.").format(
            where=where, limit=MAX_POLYGON_POINTS, n=len(raw)))
    try:
        pts = tuple((float(p[0]), float(p[1])) for p in raw)
    except (TypeError, ValueError, IndexError, KeyError):
        raise BoardError(f"{where}: polygon must be a list of [x, y] pairs in millimetres") from None
    if len(pts) < 3:
        raise BoardError(f"{where}: polygon needs at least 3 points")
    return pts


def parse_board(data: Mapping[str, Any], source: str = "<board>") -> Board:
    """Build a :class:`Board` from parsed TOML; raise :class:`BoardError` on any problem."""
    head = data.get("board")
    if not isinstance(head, Mapping):
        raise BoardError(f"{source}: missing [board] section")
    try:
        name = str(head.get("name") or Path(source).stem)
        game = str(head["game"])
        title = str(head.get("title", name))
        width = float(head["width_mm"])
        height = float(head["height_mm"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BoardError(f"{source}: [board] needs game, width_mm, height_mm ({exc})") from None

    squares: dict[str, Square] = {}
    adjacency: dict[str, set[str]] = {}
    grid_shape: tuple[int, int] | None = None
    grid = data.get("grid")
    listed = data.get("squares", ())
    if not isinstance(listed, list | tuple):
        raise BoardError(f"{source}: [[squares]] must be a list of tables")
    if grid is not None:
        if not isinstance(grid, Mapping):
            raise BoardError(f"{source}: [grid] must be a table")
        try:
            rows, cols = int(grid["rows"]), int(grid["cols"])
            ox, oy = (float(v) for v in grid.get("origin_mm", (0.0, 0.0)))
            cell = float(grid["cell_mm"])
            skip = {str(s) for s in grid.get("skip", ())}
        except (KeyError, TypeError, ValueError) as exc:
            raise BoardError(f"{source}: [grid] needs rows, cols, cell_mm ({exc})") from None
        if rows < 0 or cols < 0:
            raise BoardError(f"{source}: [grid] rows and cols cannot be negative")
        if rows * cols + len(listed) > MAX_BOARD_SQUARES:  # checked before a square is made
            raise _too_many(source, rows * cols + len(listed))
        grid_shape = (rows, cols)
        for r in range(rows):
            for c in range(cols):
                sid = f"{r},{c}"
                if sid in skip:
                    continue
                x, y = ox + c * cell, oy + r * cell
                squares[sid] = Square(
                    id=sid,
                    polygon=((x, y), (x + cell, y), (x + cell, y + cell), (x, y + cell)),
                    cell=(r, c),
                    kind="grid",
                )
        for sid, sq in squares.items():
            assert sq.cell is not None
            r, c = sq.cell
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                other = f"{r + dr},{c + dc}"
                if other in squares:
                    adjacency.setdefault(sid, set()).add(other)

    if len(listed) > MAX_BOARD_SQUARES:
        raise _too_many(source, len(listed))
    for i, raw in enumerate(listed):
        where = f"{source}: squares[{i}]"
        if not isinstance(raw, Mapping) or "id" not in raw:
            raise BoardError(f"{where}: needs an id")
        sid = str(raw["id"])
        if sid in squares and squares[sid].kind != "grid":
            raise BoardError(f"{where}: duplicate square id {sid!r}")
        cell_raw = raw.get("cell")
        try:
            rc = (int(cell_raw[0]), int(cell_raw[1])) if cell_raw is not None else None
        except (TypeError, ValueError, IndexError, KeyError):
            raise BoardError(f"{where}: cell must be [row, column]") from None
        squares[sid] = Square(
            id=sid,
            polygon=_polygon(raw.get("polygon"), where),
            label=str(raw.get("label", "")),
            kind=str(raw.get("kind", "")),
            cell=rc,
        )

    for section in ("adjacency", "regions", "settings"):
        if not isinstance(data.get(section, {}), Mapping):
            raise BoardError(f"{source}: [{section}] must be a table")
    for sid, links in dict(data.get("adjacency", {})).items():
        if sid not in squares:
            raise BoardError(f"{source}: adjacency names unknown square {sid!r}")
        if not isinstance(links, list | tuple):
            raise BoardError(f"{source}: adjacency of {sid!r} must be a list of square ids")
        for other in links:
            other = str(other)
            if other not in squares:
                raise BoardError(f"{source}: adjacency of {sid!r} names unknown square {other!r}")
            adjacency.setdefault(sid, set()).add(other)
            adjacency.setdefault(other, set()).add(sid)

    regions: dict[str, tuple[str, ...]] = {}
    for rname, ids in dict(data.get("regions", {})).items():
        if not isinstance(ids, list | tuple):
            raise BoardError(f"{source}: region {rname!r} must be a list of square ids")
        ids_t = tuple(str(i) for i in ids)
        unknown = [i for i in ids_t if i not in squares]
        if unknown:
            raise BoardError(f"{source}: region {rname!r} names unknown squares {unknown}")
        regions[str(rname)] = ids_t

    markers = _markers(data, "markers", source)
    older: dict[int, list[Marker]] = {}
    for layout, marker in zip(_layouts(data, source), _markers(data, "older_markers", source)):
        older.setdefault(layout, []).append(marker)
    all_ids = [m.id for m in markers] + [m.id for layout in older.values() for m in layout]
    if len(set(all_ids)) != len(all_ids):
        raise BoardError(f"{source}: marker ids must be distinct, across [[markers]] and every "
                         "layout of [[older_markers]] (the ids seen tell which print it is)")

    return Board(
        name=name,
        game=game,
        title=title,
        width_mm=width,
        height_mm=height,
        squares=squares,
        adjacency={k: tuple(sorted(v)) for k, v in adjacency.items()},
        regions=regions,
        markers=tuple(markers),
        older_markers=tuple(tuple(older[k]) for k in sorted(older)),
        settings=dict(data.get("settings", {})),
        aruco=str(head.get("aruco", "DICT_4X4_50")),
        grid=grid_shape,
    )


def _markers(data: Mapping[str, Any], section: str, source: str) -> list[Marker]:
    raw_markers = data.get(section, ())
    if not isinstance(raw_markers, list | tuple):
        raise BoardError(f"{source}: [[{section}]] must be a list of tables")
    out: list[Marker] = []
    for i, raw in enumerate(raw_markers):
        try:
            out.append(Marker(int(raw["id"]), float(raw["x_mm"]), float(raw["y_mm"]), float(raw["size_mm"])))
        except (KeyError, TypeError, ValueError) as exc:
            raise BoardError(f"{source}: {section}[{i}] needs id, x_mm, y_mm, size_mm ({exc})") from None
    return out


def _layouts(data: Mapping[str, Any], source: str) -> list[int]:
    """The ``layout`` number of each ``[[older_markers]]`` entry (1 when not given)."""
    out: list[int] = []
    raw_markers = data.get("older_markers", ())
    for i, raw in enumerate(raw_markers if isinstance(raw_markers, list | tuple) else ()):
        try:
            out.append(int(raw.get("layout", 1)) if isinstance(raw, Mapping) else 1)
        except (TypeError, ValueError):
            raise BoardError(f"{source}: older_markers[{i}]: layout must be a whole number") from None
    return out


def load_board_file(path: str | Path) -> Board:
    """Load a user's board file."""
    p = Path(path)
    try:
        text = read_text_capped(p, MAX_BOARD_FILE_BYTES, _("a board file"))
    except FileTooLargeError as exc:
        raise BoardError(str(exc)) from None
    except OSError as exc:
        raise BoardError(f"cannot read board file {p}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BoardError(f"board file {p} is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"board file {p} is not valid TOML: {exc}") from None
    return parse_board(data, str(p))


def shipped_boards() -> list[str]:
    """Names of the board files shipped with the project."""
    root = resources.files(__name__)
    return sorted(
        entry.name.removesuffix(".toml") for entry in root.iterdir() if entry.name.endswith(".toml")
    )


def is_board_path(name: str) -> bool:
    """Whether a ``board`` setting names a file (not a shipped board)."""
    return isinstance(name, str) and (name.endswith(".toml") or "/" in name)


def board_setting(name: str) -> str:
    """The ``board`` setting to store: a shipped board's name as given, a file as an absolute
    path (a game saved with ``--board my.toml`` resumes from any folder)."""
    if not is_board_path(name):
        return name  # a shipped board's name, or a wrong value load_board refuses with a sentence
    try:
        return str(Path(name).expanduser().resolve())
    except (OSError, RuntimeError):
        return name


def load_board(name: str) -> Board:
    """A shipped board by name (e.g. ``"chopchop"``), or a path to a board file."""
    if not isinstance(name, str) or not name:
        raise BoardError(f"a board is a shipped board's name or a board file's path, not {name!r}")
    if is_board_path(name):
        return load_board_file(name)
    resource = resources.files(__name__).joinpath(f"{name}.toml")
    if not resource.is_file():
        known = ", ".join(shipped_boards()) or "none"
        raise BoardError(f"no shipped board {name!r}; shipped boards: {known}")
    data = tomllib.loads(resource.read_text(encoding="utf-8"))
    return parse_board(data, f"{name}.toml")
