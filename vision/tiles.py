"""Chop! Chop! tiles: propose a turned slab's type from its image, learned from confirmed reveals.

    learner = TileLearner()
    learner.confirm(patch, "cheese")          # a reveal the players confirmed
    kind, confidence = learner.propose(patch) # (None, c) when unsure: ask, never guess
    learner.save(path); TileLearner.load(path)

    patch = square_patch(reader, image, square_id)   # the square from a camera frame

The look of each type is learned from the first reveals the players confirm (a few examples per
type; the printed tiles differ between editions, so nothing is built in). A patch is described
by a hue/saturation histogram of its middle (light-level independent), a coarse grey-level
layout and a small HOG (9 orientations per 16x16 cell of a blurred 32x32 tile: the drawing on the tile), each normalised; the proposal is the nearest confirmed example's type. Its confidence
combines the margin to the nearest example of another type and how close it is compared with
the spread of that type's own examples; below ``min_confidence`` nothing is proposed.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from companion.i18n import _
from companion.limits import MAX_JSON_FILE_BYTES, read_text_capped
from vision.errors import InvalidImageError, VisionError

SIZE = 32


class TileError(VisionError):
    """The tile examples file cannot be read or written."""


def _hog(gray: np.ndarray, cell: int = 8, bins: int = 9) -> np.ndarray:
    """A small histogram of oriented gradients (unsigned, per 8x8 cell, magnitude-weighted)."""
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    ang = (np.arctan2(gy, gx) % np.pi) / np.pi * bins
    b = np.minimum(ang.astype(np.int32), bins - 1)
    n = gray.shape[0] // cell
    out = np.zeros((n, n, bins), np.float32)
    cy, cx = np.divmod(np.arange(gray.size), gray.shape[1])
    np.add.at(out, ((cy // cell).clip(0, n - 1), (cx // cell).clip(0, n - 1), b.ravel()), mag.ravel())
    return out.ravel()


def tile_features(patch: np.ndarray) -> np.ndarray:
    """A BGR tile image (any size; float 0..1 or uint8) -> a normalised feature vector."""
    if not isinstance(patch, np.ndarray) or patch.ndim != 3 or patch.shape[2] != 3 or patch.size == 0:
        raise InvalidImageError("a tile patch is a BGR image (H x W x 3)")
    img = patch
    if img.dtype != np.uint8:
        img = np.clip(np.asarray(img, np.float32) * (255.0 if img.max() <= 1.5 else 1.0), 0, 255)
        img = img.astype(np.uint8)
    img = cv2.resize(img, (SIZE, SIZE), interpolation=cv2.INTER_AREA)
    # Light-level normalisation: stretch the grey levels of the tile.
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lo, hi = np.percentile(gray, 3), np.percentile(gray, 97)
    norm = np.clip((gray - lo) / max(hi - lo, 8.0), 0, 1)
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    mid = hsv[6:26, 6:26]
    hs = cv2.calcHist([mid], [0, 1], None, [12, 4], [0, 180, 0, 256])
    # hue means nothing on greyish pixels: one bin for all of them
    hist = np.concatenate([[hs[:, 0].sum()], hs[:, 1:].ravel()])
    hist /= hist.sum() + 1e-6
    layout = cv2.resize(norm, (6, 6), interpolation=cv2.INTER_AREA).ravel()
    layout = layout - layout.mean()
    layout /= np.linalg.norm(layout) + 1e-6
    hog = _hog(cv2.GaussianBlur(norm, (0, 0), 1.5), cell=16)
    hog /= np.linalg.norm(hog) + 1e-6
    return np.concatenate([np.sqrt(hist) * 1.2, layout * 0.8, hog * 0.8]).astype(np.float32)


class TileLearner:
    """Nearest-neighbour tile types from confirmed examples."""

    def __init__(self, min_confidence: float = 0.55, max_per_type: int = 12) -> None:
        self.min_confidence = min_confidence
        self.max_per_type = max_per_type
        self.examples: dict[str, list[np.ndarray]] = {}

    @property
    def types(self) -> list[str]:
        return sorted(self.examples)

    def confirm(self, patch: np.ndarray, kind: str) -> None:
        """Remember a reveal the players confirmed as ``kind``."""
        rows = self.examples.setdefault(kind, [])
        rows.append(tile_features(patch))
        del rows[:-self.max_per_type]

    def scores(self, patch: np.ndarray) -> dict[str, float]:
        """Distance of the patch to the nearest example of each learned type."""
        f = tile_features(patch)
        return {k: float(min(np.linalg.norm(f - e) for e in rows)) for k, rows in self.examples.items()}

    def _spread(self, kind: str) -> float:
        rows = self.examples[kind]
        if len(rows) < 2:
            return 0.5
        d = [float(np.linalg.norm(a - b)) for i, a in enumerate(rows) for b in rows[i + 1:]]
        return max(float(np.median(d)), 0.6)

    def propose(self, patch: np.ndarray) -> tuple[str | None, float]:
        """(type, confidence), or (None, confidence) when below ``min_confidence``."""
        if not self.examples:
            return None, 0.0
        dist = self.scores(patch)
        ranked = sorted(dist, key=lambda k: dist[k])
        best = ranked[0]
        d1 = dist[best]
        d2 = dist[ranked[1]] if len(ranked) > 1 else d1 * 2 + 0.5
        margin = (d2 - d1) / (d2 + 1e-6)
        closeness = float(np.clip(1.5 - d1 / (2 * self._spread(best)), 0, 1))
        conf = float(np.clip(0.35 + 1.3 * margin, 0, 1) * closeness)
        return (best if conf >= self.min_confidence else None), conf

    def save(self, path: str | Path) -> None:
        data = {"min_confidence": self.min_confidence,
                "examples": {k: [[round(float(v), 5) for v in e] for e in rows]
                             for k, rows in self.examples.items()}}
        try:
            Path(path).write_text(json.dumps(data), encoding="utf-8")
        except OSError as exc:
            raise TileError(f"cannot save tile examples to {path}: {exc}") from None

    @classmethod
    def load(cls, path: str | Path) -> TileLearner:
        try:
            data = json.loads(read_text_capped(path, MAX_JSON_FILE_BYTES, _("tile examples")))
            learner = cls(float(data.get("min_confidence", 0.55)))
            for k, rows in data["examples"].items():
                learner.examples[str(k)] = [np.asarray(r, np.float32) for r in rows]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise TileError(f"cannot load tile examples from {path}: {exc}") from None
        return learner


def square_patch(reader: object, image: np.ndarray, square: str) -> np.ndarray:
    """The top-down, light-normalised image of one square (BGR float 0..1) from a camera frame.

    ``reader`` is a :class:`vision.pieces.BoardReader` for the board in the image.
    """
    from vision.pieces import BoardReader, PieceError

    assert isinstance(reader, BoardReader)
    pose = reader.tracker.update(image)
    if not pose.found:
        raise PieceError("the board was not found in this image")
    warped = reader.warp(image, pose).astype(np.float32) / 255
    idx = next((i for i, ids in enumerate(reader.groups) if square in ids), None)
    if idx is None:
        raise PieceError(f"board {reader.board.name!r} has no square {square!r}")
    gain = reader._gain(warped)[idx]
    x0, y0, x1, y1 = reader.boxes[idx]
    return np.clip(warped[y0:y1, x0:x1] / gain[None, None, :], 0, 1)
