"""Pointing the camera at the board: how many of its corner markers are seen, and which way to
move the camera to see the rest, in one plain sentence (the set-up wizard's guidance).

    aim = aim_at(image, board)          # or aim_from(seen, board, (width, height))
    aim.sentence()                      # "3 of 4 corners seen: move the camera left"

The direction comes from where the board's missing markers would be: the homography fitted to
the markers that are seen puts each missing one in picture coordinates. Partly off the left edge
of the picture: move the camera left; off the top: up; off two opposite edges at once: the board is
bigger than the picture, raise the camera; inside the picture: something covers that corner.
With no usable fit the sentence asks for the whole board in view. :class:`SteadyAim` says when
every corner has been seen for a few frames in a row (the wizard's tick).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.boards import Board
from companion.i18n import N_, _
from vision.boardlocate import LocateConfig, detect_markers, fit_pose

MOVES: dict[str, str] = {
    "hold": N_("{seen} of {total} corners seen: hold still"),
    "left": N_("{seen} of {total} corners seen: move the camera left"),
    "right": N_("{seen} of {total} corners seen: move the camera right"),
    "up": N_("{seen} of {total} corners seen: move the camera up"),
    "down": N_("{seen} of {total} corners seen: move the camera down"),
    "up left": N_("{seen} of {total} corners seen: move the camera up and left"),
    "up right": N_("{seen} of {total} corners seen: move the camera up and right"),
    "down left": N_("{seen} of {total} corners seen: move the camera down and left"),
    "down right": N_("{seen} of {total} corners seen: move the camera down and right"),
    "raise": N_("{seen} of {total} corners seen: raise the camera, the board is bigger than the picture"),
    "covered": N_("{seen} of {total} corners seen: a corner is covered or in shadow, clear it"),
    "whole": N_("{seen} of {total} corners seen: move the camera until the whole board is in the picture"),
    "none": N_("No corners seen: is the board in view and lit?"),
}
"""Each advice as it is said (translated when shown)."""


@dataclass(frozen=True)
class Aim:
    seen: int
    """How many of the board's corner markers are seen."""
    total: int
    move: str
    """A key of :data:`MOVES`: "hold", "left", "up right", "raise", "covered", "whole", "none"."""

    @property
    def all_seen(self) -> bool:
        return self.total > 0 and self.seen == self.total

    def sentence(self) -> str:
        return _(MOVES[self.move]).format(seen=self.seen, total=self.total)


def _corners(board: Board, marker_id: int) -> list[tuple[float, float]]:
    return list(next(m for m in board.markers if m.id == marker_id).corners())


def aim_from(seen: dict[int, np.ndarray], board: Board, image_size: tuple[int, int],
             config: LocateConfig | None = None) -> Aim:
    """The advice for the markers ``seen`` (id -> 4 pixel corners) in a picture of ``image_size``
    (width, height)."""
    wanted = {m.id for m in board.markers}
    seen = {i: c for i, c in seen.items() if i in wanted}
    total, n = len(wanted), len(seen)
    if n == 0:
        return Aim(0, total, "none")
    if n == total:
        return Aim(n, total, "hold")
    pose = fit_pose(board, seen, config, image_size)
    if pose.homography is None:
        return Aim(n, total, "whole")
    missing = sorted(wanted - set(seen))
    # a marker partly out of the picture is not found: any of its corners beyond an edge counts
    pts = pose.to_pixels(np.array([p for i in missing for p in _corners(board, i)]))
    w, h = image_size
    sides: set[str] = set()
    for x, y in pts:
        if not (np.isfinite(x) and np.isfinite(y)):
            return Aim(n, total, "whole")
        if x < 0:
            sides.add("left")
        elif x > w:
            sides.add("right")
        if y < 0:
            sides.add("up")
        elif y > h:
            sides.add("down")
    if not sides:
        return Aim(n, total, "covered")
    if {"left", "right"} <= sides or {"up", "down"} <= sides:
        return Aim(n, total, "raise")
    vertical = next((s for s in ("up", "down") if s in sides), "")
    horizontal = next((s for s in ("left", "right") if s in sides), "")
    return Aim(n, total, f"{vertical} {horizontal}".strip())


def aim_at(image: np.ndarray, board: Board, config: LocateConfig | None = None) -> Aim:
    """Find the board's markers in ``image`` (BGR or grey) and say which way to move the camera."""
    h, w = image.shape[:2]
    return aim_from(detect_markers(image, board, config), board, (w, h), config)


class SteadyAim:
    """Every corner seen in ``frames`` pictures in a row: the board is found steadily."""

    def __init__(self, frames: int = 5) -> None:
        self.frames = frames
        self.run = 0

    def update(self, aim: Aim) -> bool:
        self.run = self.run + 1 if aim.all_seen else 0
        return self.steady

    @property
    def steady(self) -> bool:
        return self.run >= self.frames
