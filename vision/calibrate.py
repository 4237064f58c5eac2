"""Calibrate an original board: map its squares once, save a board file in the usual format.

The user sticks the four printed markers (``companion board print GAME --markers-only``) on the
original board's corners, takes one photo, and marks either

- the four corners of the grid (top-left, top-right, bottom-right, bottom-left) for grid boards
  (Chop! Chop!, Kilkenny Cats, Qubism), or
- the centre of every track square in order for the Kat en Muis track (then, optionally, the
  start spots in board-file order).

The photo's markers give the homography pixels -> board millimetres, in the frame of the game's
board file markers (ids, positions and size as printed by ``--markers-only``). The mapped
squares are written as polygons in millimetres, so the rest of the system works unchanged.

    calibrate_grid(board, image, corners_px) -> parsed-TOML data (dict)
    calibrate_track(board, image, centres_px) -> parsed-TOML data (dict)
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.boards import Board, Marker, Square, parse_board
from companion.i18n import _
from companion.limits import MAX_JSON_FILE_BYTES, read_text_capped
from companion.outfile import check_output
from vision.boarddefaults import board_for, dump_board_toml
from vision.boardlocate import locate_board
from vision.errors import VisionError
from vision.imageload import load_image


class CalibrationError(VisionError):
    """The photo or the marked points do not allow a calibration; the message says why."""


def _marker_frame(board: Board, image: np.ndarray) -> tuple[np.ndarray, list[Marker]]:
    """Homography pixels -> board millimetres from the markers, and the markers.

    The frame is the markers' own: the marker positions of the game's board file. A user who
    sticks the markers at other spots still gets a consistent frame (the reader uses the same
    marker positions), only the millimetres are then not true millimetres.
    """
    pose = locate_board(image, board)
    if not pose.found or pose.homography is None:
        raise CalibrationError("the markers are not visible well enough in the photo "
                               f"(need ids {[m.id for m in board.markers]})")
    if len(pose.used) < 2:
        raise CalibrationError("only one marker is visible: take the photo with all four in view")
    return np.linalg.inv(pose.homography), list(board.printed_as(pose.used).markers)  # the print's own


def _to_mm(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.float64(pts).reshape(-1, 1, 2), h).reshape(-1, 2)


def _base_data(board: Board, markers: list[Marker], width: float, height: float) -> dict[str, Any]:
    return {
        "board": {"name": f"{board.name}-own", "game": board.game, "title": f"{board.title} (own board)",
                  "width_mm": round(width, 2), "height_mm": round(height, 2), "aruco": board.aruco},
        "markers": [{"id": m.id, "x_mm": m.x_mm, "y_mm": m.y_mm, "size_mm": m.size_mm} for m in markers],
        "regions": {k: list(v) for k, v in board.regions.items()},
        "settings": dict(board.settings) if all(not isinstance(v, dict) for v in board.settings.values()) else {},
    }


def _extent(markers: list[Marker], polys: list[np.ndarray]) -> tuple[float, float]:
    xs = [m.x_mm + m.size_mm for m in markers] + [float(p[:, 0].max()) for p in polys]
    ys = [m.y_mm + m.size_mm for m in markers] + [float(p[:, 1].max()) for p in polys]
    return max(xs) + 5, max(ys) + 5


def _square_entry(sq: Square, poly: np.ndarray, cell: tuple[int, int] | None = None) -> dict[str, Any]:
    """One ``[[squares]]`` entry of a board file: the square's id, label and kind, a new polygon."""
    item: dict[str, Any] = {"id": sq.id, "polygon": [[round(float(x), 2), round(float(y), 2)] for x, y in poly]}
    if cell is not None:
        item["cell"] = [cell[0], cell[1]]
    if sq.label:
        item["label"] = sq.label
    if sq.kind:
        item["kind"] = sq.kind
    return item


MIN_CORNER_GAP_PX = 8.0
"""Two corners of a grid closer than this (pixels) are the same point: a slip of the mouse."""


def check_corners(corners_px: list[tuple[float, float]]) -> None:
    """Refuse (:class:`CalibrationError`) four corners that are no grid: not finite numbers, two of
    them (nearly) the same point, three on one line, or not going round a convex quadrilateral
    in the order top-left, top-right, bottom-right, bottom-left."""
    pts = np.asarray(corners_px, np.float64)
    if pts.shape != (4, 2) or not np.all(np.isfinite(pts)):
        raise CalibrationError("give the grid's 4 corners as pixel numbers: top-left top-right bottom-right bottom-left")
    for i in range(4):
        for j in range(i + 1, 4):
            if float(np.linalg.norm(pts[i] - pts[j])) < MIN_CORNER_GAP_PX:
                raise CalibrationError(
                    f"corners {i + 1} and {j + 1} are the same point ({pts[i][0]:g},{pts[i][1]:g}): give the "
                    "grid's 4 different corners, top-left top-right bottom-right bottom-left")
    crosses = []
    for i in range(4):
        a, b, c = pts[i], pts[(i + 1) % 4], pts[(i + 2) % 4]
        crosses.append(float((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])))
    side = max(float(np.linalg.norm(pts[i] - pts[(i + 1) % 4])) for i in range(4))
    if any(abs(x) < 0.01 * side * side for x in crosses) or not (all(x > 0 for x in crosses) or all(x < 0 for x in crosses)):
        raise CalibrationError(
            "the 4 corners do not go round the grid (three on one line, or crossed): click them in order "
            "top-left, top-right, bottom-right, bottom-left")


def calibrate_grid(board: Board, image: np.ndarray, corners_px: list[tuple[float, float]]
                   ) -> dict[str, Any]:
    """A grid board from the grid's outer corners (TL, TR, BR, BL) in photo pixels."""
    if len(corners_px) != 4:
        raise CalibrationError("give the grid's 4 corners: top-left top-right bottom-right bottom-left")
    check_corners(corners_px)
    cells = [sq.cell for sq in board.squares.values() if sq.cell is not None]
    if not cells:
        raise CalibrationError(f"board {board.name!r} has no grid to calibrate by corners")
    rows, cols = board.grid if board.grid else (max(c[0] for c in cells) + 1, max(c[1] for c in cells) + 1)
    h, markers = _marker_frame(board, image)
    corners_mm = _to_mm(h, np.asarray(corners_px))
    # cell (r, c) corners by bilinear interpolation in the grid's own (perspective) frame
    g = cv2.getPerspectiveTransform(np.float32([[0, 0], [cols, 0], [cols, rows], [0, rows]]),
                                    np.float32(corners_mm))
    squares, polys = [], []
    for sid, sq in board.squares.items():
        if sq.cell is None:
            continue
        r, c = sq.cell
        unit = np.float64([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]])
        poly = _to_mm(g, unit)
        polys.append(poly)
        squares.append(_square_entry(sq, poly, cell=(r, c)))
    width, height = _extent(markers, polys)
    data = _base_data(board, markers, width, height)
    data["squares"] = squares
    data["adjacency"] = {k: list(v) for k, v in board.adjacency.items()}
    return data


def calibrate_track(board: Board, image: np.ndarray, centres_px: list[tuple[float, float]]
                    ) -> dict[str, Any]:
    """A track board (Kat en Muis) from the centres of its squares, in the board file's order."""
    track = [sid for sid, sq in board.squares.items() if sq.kind != "start"]
    starts = [sid for sid, sq in board.squares.items() if sq.kind == "start"]
    if starts and len(centres_px) == len(track) + len(starts):
        track = track + starts  # the start spots were tapped too, after the track
    elif len(centres_px) != len(track):
        more = f" (or {len(track) + len(starts)} with the start spots last)" if starts else ""
        raise CalibrationError(f"tap all {len(track)} squares in order{more}; got {len(centres_px)} points")
    h, markers = _marker_frame(board, image)
    centres = _to_mm(h, np.asarray(centres_px))
    gaps = np.linalg.norm(np.diff(centres, axis=0), axis=1)
    if not np.all(np.isfinite(centres)) or float(np.min(gaps, initial=np.inf)) < 1.0:
        raise CalibrationError("two squares in a row were tapped at the same point: tap each square's "
                               "centre once, in order")
    half = float(np.median(gaps)) * 0.47
    squares, polys = [], []
    for sid, (cx, cy) in zip(track, centres):
        sq = board.squares[sid]
        poly = np.float64([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half],
                           [cx - half, cy + half]])
        polys.append(poly)
        squares.append(_square_entry(sq, poly))
    width, height = _extent(markers, polys)
    data = _base_data(board, markers, width, height)
    data["squares"] = squares
    data["adjacency"] = {k: [o for o in v if o in track] for k, v in board.adjacency.items() if k in track}
    data["regions"] = {k: [s for s in v if s in track] for k, v in board.regions.items()}
    return data


def save_board(data: dict[str, Any], path: str | Path) -> Board:
    """Write the calibrated board file and check it loads."""
    board = parse_board(data, str(path))
    Path(path).write_text(dump_board_toml(data), encoding="utf-8")
    return board


def _read_points(path: str) -> list[tuple[float, float]]:
    pts = []
    try:
        text = read_text_capped(path, MAX_JSON_FILE_BYTES, _("a points file"))
    except (OSError, ValueError) as exc:
        raise CalibrationError(f"cannot read the points file {path}: {exc}") from None
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.replace(",", " ").split()
        try:
            pts.append((float(parts[0]), float(parts[1])))
        except (IndexError, ValueError):
            raise CalibrationError(f"{path}: a line must be 'x,y' in pixels, not {line!r}") from None
    return pts


def calibrate_cli(args: argparse.Namespace) -> int:
    check_output(args.output, (".toml",), getattr(args, "force", False))
    board = board_for(args.board)
    try:  # corners and points are in the photo's pixels: checked, never scaled
        image = load_image(args.image).image
    except VisionError as exc:
        raise CalibrationError(str(exc)) from None
    if args.points_file:
        data = calibrate_track(board, image, _read_points(args.points_file))
    elif args.corners:
        data = calibrate_grid(board, image, list(args.corners))
    else:
        raise CalibrationError("give --corners (grid boards) or --points-file (the Kat en Muis track)")
    out = save_board(data, args.output)
    print(f"wrote {args.output}: {len(out.squares)} squares, markers {[m.id for m in out.markers]}")
    return 0
