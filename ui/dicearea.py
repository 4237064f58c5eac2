"""Where the camera reads dice: anywhere, off the board, or in a dice tray (a setting).

The ``ui.dice_area`` setting is ``"off_board"`` (the default: dice whose centre lies on the
located board are not read, so counters, slabs and cubes, which the dice reader can take for
dice showing 1, and a die resting on a square are not the throw; while the board is not in
view, dice are read anywhere), ``"anywhere"``, or a tray ``[x1, y1, x2, y2]`` in fractions of
the camera frame (set by two touches on the Camera screen). With a tray the dice reader looks at the tray only, so small dice
in a wide camera view are read more finely (vision.dice's region of interest). No Kivy here.
"""

from __future__ import annotations

from typing import Any
from companion.i18n import _

Area = str | list[float]


def is_area(v: Any) -> bool:
    if v in ("anywhere", "off_board"):
        return True
    if not (isinstance(v, list) and len(v) == 4):
        return False
    if not all(isinstance(c, int | float) and not isinstance(c, bool) and 0.0 <= float(c) <= 1.0 for c in v):
        return False
    return v[2] - v[0] >= 0.05 and v[3] - v[1] >= 0.05


def tray_from_corners(a: tuple[float, float], b: tuple[float, float], size: tuple[int, int]) -> list[float]:
    """The tray between two touched corners (frame pixels), in fractions of a w x h frame."""
    w, h = size
    x1, x2 = sorted((a[0] / w, b[0] / w))
    y1, y2 = sorted((a[1] / h, b[1] / h))
    return [round(min(max(v, 0.0), 1.0), 4) for v in (x1, y1, x2, y2)]


def tray_pixels(area: Area, size: tuple[int, int]) -> tuple[float, float, float, float] | None:
    if not isinstance(area, list):
        return None
    w, h = size
    return (area[0] * w, area[1] * h, area[2] * w, area[3] * h)


def describe(area: Area) -> str:
    """Where dice are read, in the language now in use."""
    if area == "off_board":
        return _("off the board")
    if isinstance(area, list):
        return _("in the tray")
    return _("anywhere")


def is_sure(reading: Any, threshold: float) -> bool:
    """A die whose value is read at least at the confidence threshold (else: ask the players)."""
    return reading.value is not None and reading.confidence >= threshold


def read(frame: Any, area: Area, reader: Any = None) -> list[Any]:
    """The dice on ``frame``: ``reader(frame)`` when one is given (tests give labelled
    readers), else vision.dice's reader, looking only at the tray when the area is one. The
    table's plane is :func:`counted`'s, for every reader alike (:func:`seen`)."""
    if reader is not None:
        return list(reader(frame))
    from vision.dice import read_dice

    return read_dice(frame, reader_config(area, (frame.shape[1], frame.shape[0])))


def seen(frame: Any, area: Area, reader: Any = None, pose: Any = None, board: Any = None) -> list[Any]:
    """The dice the camera counts on ``frame``: :func:`read`, then :func:`counted` with the
    board's pose, so that the table's plane judges each box once."""
    return counted(read(frame, area, reader), area, (frame.shape[1], frame.shape[0]), pose, board)


def table_plane(pose: Any) -> Any:
    """The table's plane (vision.dice_plane.TablePlane) when ``pose`` is a board found by its
    markers, else None."""
    if pose is None or not getattr(pose, "found", False):
        return None
    from vision.dice_plane import TablePlane

    return TablePlane.from_pose(pose)


def reader_config(area: Area, size: tuple[int, int], pose: Any = None) -> Any:
    """The vision.dice config for this area (a region of interest for a tray) and this board
    pose (the table's plane: boxes that cannot be a die's top face there are dropped), or None."""
    rect = tray_pixels(area, size)
    table = table_plane(pose)
    if rect is None and table is None:
        return None
    from vision.dice import DiceConfig, RegionOfInterest

    return DiceConfig(roi=RegionOfInterest(rect=rect) if rect is not None else None, table=table)


def _board_outline(pose: Any, board: Any) -> Any:
    import numpy as np

    pts = [p for sq in board.squares.values() for p in pose.to_pixels(list(sq.polygon))]
    if not pts:
        return None
    import cv2

    return cv2.convexHull(np.float32(pts).reshape(-1, 1, 2))


def on_marker(box: Any, pose: Any) -> bool:
    """A 'die' found on one of the board's printed markers (they look like dice faces)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for quad in getattr(pose, "corners", {}).values():
        xs = [p[0] for p in quad.reshape(-1, 2)]
        ys = [p[1] for p in quad.reshape(-1, 2)]
        pad = 0.25 * (max(xs) - min(xs))
        if min(xs) - pad <= cx <= max(xs) + pad and min(ys) - pad <= cy <= max(ys) + pad:
            return True
    return False


def keep(dice: list[Any], area: Area, size: tuple[int, int], pose: Any = None, board: Any = None) -> list[Any]:
    """The readings that count for this area (any reader's: the filter does not rely on it)."""
    rect = tray_pixels(area, size)
    if rect is not None:
        x1, y1, x2, y2 = rect
        return [d for d in dice if x1 <= (d.box[0] + d.box[2]) / 2 <= x2 and y1 <= (d.box[1] + d.box[3]) / 2 <= y2]
    if area == "off_board" and pose is not None and getattr(pose, "found", False) and board is not None:
        import cv2

        hull = _board_outline(pose, board)
        if hull is None:
            return dice
        return [d for d in dice
                if cv2.pointPolygonTest(hull, ((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2), False) < 0]
    return dice


def counted(dice: list[Any], area: Area, size: tuple[int, int], pose: Any = None, board: Any = None) -> list[Any]:
    """The dice the camera counts: with the board located, none on its printed markers (they
    look like dice faces) and none whose box cannot be a die's top face where it lies on the
    table (its size and shape on the board's plane: a side face, a printed token, a key), whatever
    the area; then those the area keeps."""
    if pose is not None and getattr(pose, "found", False):
        dice = [d for d in dice if not on_marker(d.box, pose)]
    table = table_plane(pose)
    if table is not None:
        dice = [d for d in dice if table.fits(d.box)]
    return keep(dice, area, size, pose, board)
