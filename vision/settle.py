"""Report a throw once the dice are at rest and their reading is stable.

Feed frames in order (``Settler.feed(t, frame)``); it returns a ``Throw`` exactly once per throw:

* motion (frame differencing on a small grey copy) means dice roll or a hand is over the scene:
  nothing is read or reported, and the settler is armed for a new throw;
* once nothing moved for ``config.quiet_s``, dice are read on each frame; when the same reading
  (values and positions) holds for ``config.window_s`` the throw is reported and the settler
  disarms until motion is seen again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.dice import DieReading, read_dice


@dataclass(frozen=True)
class SettleConfig:
    window_s: float = 0.7  # the reading must hold this long
    quiet_s: float = 0.2  # no motion for this long before reading at all
    diff_size: int = 160  # frames are shrunk to this long side for differencing
    pixel_delta: int = 14  # grey-level change counted as a moved pixel
    motion_fraction: float = 0.002  # moved-pixel fraction that counts as motion
    min_dice: int = 1  # a resting scene with fewer dice is not a throw
    armed_at_start: bool = True  # report dice already at rest when watching starts
    max_reads_per_s: float = 10.0  # limit work while waiting for stability


@dataclass(frozen=True)
class Throw:
    t: float  # timestamp of the frame that completed the stable window
    readings: tuple[DieReading, ...]
    started: float  # when the stable window began

    @property
    def values(self) -> list[int]:
        return sorted(r.value for r in self.readings if r.value is not None)

    @property
    def unreadable(self) -> int:
        return sum(1 for r in self.readings if r.value is None)

    def to_json(self, source: str = "camera") -> dict[str, Any]:
        return {"dice": self.values, "unreadable": self.unreadable, "source": source, "t": self.t,
                "details": [r.to_json() for r in self.readings]}


def new_dice(a: list[DieReading], b: list[DieReading] | None) -> list[DieReading]:
    """The dice of ``a`` that were not lying in ``b``: not in the same place with the same face
    (the die just thrown, among others lying still since the last throw)."""
    if b is None:
        return list(a)
    used: set[int] = set()
    fresh = []
    for r in a:
        cx, cy = (r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2
        tol = 0.35 * max(r.box[2] - r.box[0], r.box[3] - r.box[1], 1.0)
        for j, s in enumerate(b):
            if j in used:
                continue
            sx, sy = (s.box[0] + s.box[2]) / 2, (s.box[1] + s.box[3]) / 2
            if abs(sx - cx) <= tol and abs(sy - cy) <= tol and s.value == r.value:
                used.add(j)
                break
        else:
            fresh.append(r)
    return fresh


def same_dice(a: list[DieReading] | None, b: list[DieReading] | None) -> bool:
    """The same dice lying in the same places with the same faces (not a new throw)."""
    return a is not None and b is not None and len(a) == len(b) and not new_dice(a, b)


@dataclass
class Settler:
    config: SettleConfig = field(default_factory=SettleConfig)
    reader: Callable[[np.ndarray], list[DieReading]] = read_dice
    state: str = "idle"  # "moving" | "quiet" | "reported" (what the scene is doing now)
    motion: float = 0.0  # last moved-pixel fraction

    def __post_init__(self) -> None:
        self._prev: np.ndarray | None = None
        self._armed = self.config.armed_at_start
        self._last_motion = -1e18
        self._cand: list[DieReading] | None = None
        self._cand_since = 0.0
        self._last_read = -1e18

    def _small(self, frame: np.ndarray) -> np.ndarray:
        g = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        h, w = g.shape[:2]
        s = self.config.diff_size / max(h, w)
        g = cv2.resize(g, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(g, (3, 3), 0)

    def feed(self, t: float, frame: np.ndarray) -> Throw | None:
        cfg = self.config
        small = self._small(frame)
        if self._prev is not None and self._prev.shape == small.shape:
            diff = cv2.absdiff(small, self._prev)
            self.motion = float(np.count_nonzero(diff > cfg.pixel_delta)) / diff.size
        else:
            self.motion = 0.0 if self._prev is None else 1.0
        self._prev = small
        if self.motion > cfg.motion_fraction:
            self.state = "moving"
            self._last_motion = t
            self._armed = True
            self._cand = None
            return None
        if not self._armed:
            self.state = "reported"
            return None
        if t - self._last_motion < cfg.quiet_s:
            self.state = "moving"
            return None
        self.state = "quiet"
        if t - self._last_read < 1.0 / cfg.max_reads_per_s:
            return None
        self._last_read = t
        reading = self.reader(frame)
        if self._cand is None or not same_dice(reading, self._cand):
            self._cand, self._cand_since = reading, t
            return None
        if t - self._cand_since >= cfg.window_s and len(reading) >= cfg.min_dice:
            self._armed = False
            self._cand = None
            self.state = "reported"
            return Throw(t, tuple(reading), self._cand_since)
        return None


def settled_throws(frames: Iterable[tuple[float, np.ndarray]], config: SettleConfig | None = None,
                   reader: Callable[[np.ndarray], list[DieReading]] = read_dice) -> Iterator[Throw]:
    """Every throw in a stream of (timestamp, frame), each reported once when at rest."""
    s = Settler(config or SettleConfig(), reader)
    for t, frame in frames:
        th = s.feed(t, frame)
        if th is not None:
            yield th
