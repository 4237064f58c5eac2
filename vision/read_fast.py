"""The board reader's per-frame bookkeeping done in fewer steps, with the same numbers (issue 31:
no read slower). Each helper returns exactly what the plain loop it replaces returned, to the bit:

* ``class_minima``: each look class's least distance over its prototypes (``BoardReader.read``
  went through every learned example in Python, one ``min`` each);
* ``BoxPatches``: every spot's P x P patch of a top-down view (``SpotFeatures._patches``) cut by
  one ``cv2.resize`` over the boxes of one size stacked, not one call per box: INTER_AREA weighs
  each output pixel by its own footprint, and the stack's footprints are the boxes' own (the
  stacked scale is the box's, dyadic for the printed boards' boxes, so no rounding moves them);
* ``MedianMemo``: the median of a learned list, worked out once while the list stays the same.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np


@lru_cache(maxsize=16)
def _grouping(names: tuple[str, ...]) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """The distinct names in first-seen order, a permutation putting each name's entries
    together (in that order), and where each name's run starts."""
    first = list(dict.fromkeys(names))
    rank = {n: k for k, n in enumerate(first)}
    keys = np.array([rank[n] for n in names], np.int64)
    perm = np.argsort(keys, kind="stable")
    starts = np.searchsorted(keys[perm], np.arange(len(first)))
    return tuple(first), perm, starts


def class_minima(names: list[str], dist: np.ndarray) -> dict[str, float]:
    """Name -> the least of ``dist`` over its entries (``names[k]`` names ``dist[k]``), in the
    order the names first appear: what ``per[n] = min(per.get(n, 1e9), float(d))`` over the
    pairs gives (NaN skipped, nothing above 1e9)."""
    if not names:
        return {}
    first, perm, starts = _grouping(tuple(names))
    mins = np.fmin.reduceat(np.asarray(dist)[perm], starts)
    return {n: min(1e9, float(m)) for n, m in zip(first, mins)}


class BoxPatches:
    """Cuts the same boxes (x0, y0, x1, y1, pixels) out of views of one size, each resized to
    ``side`` x ``side`` by INTER_AREA: ``cut(img)`` -> [N, side, side, C] float32, the same as
    ``cv2.resize(img[y0:y1, x0:x1], (side, side), interpolation=cv2.INTER_AREA)`` box by box."""

    def __init__(self, boxes: list[tuple[int, int, int, int]], side: int) -> None:
        self.n, self.side = len(boxes), side
        by_size: dict[tuple[int, int], list[int]] = {}
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            by_size.setdefault((x1 - x0, y1 - y0), []).append(i)
        self._runs = [(np.array(idx, np.intp), w, h, [boxes[i] for i in idx]) for (w, h), idx in by_size.items()]

    def cut(self, img: np.ndarray) -> np.ndarray:
        s = self.side
        chans = img.shape[2] if img.ndim == 3 else 1
        out = np.empty((self.n, s, s, chans), np.float32)
        for idx, w, h, boxes in self._runs:
            stack = np.empty((len(boxes), h, w, chans), img.dtype)
            flat = stack.reshape(len(boxes), h, w) if img.ndim == 2 else stack
            for k, (x0, y0, x1, y1) in enumerate(boxes):
                flat[k] = img[y0:y1, x0:x1]
            small = cv2.resize(stack.reshape(len(boxes) * h, w, chans), (s, len(boxes) * s),
                               interpolation=cv2.INTER_AREA)
            out[idx] = small.reshape(len(boxes), s, s, chans)
        return out if img.ndim == 3 else out[..., 0]


class MedianMemo:
    """``np.median`` of a list kept under a key, worked out again only when the list is another
    object or its length changed (learned lists only grow)."""

    def __init__(self) -> None:
        self._hit: dict[str, tuple[list[float], int, float]] = {}

    def __call__(self, key: str, values: list[float]) -> float:
        hit = self._hit.get(key)
        if hit is not None and hit[0] is values and hit[1] == len(values):
            return hit[2]
        med = float(np.median(values))
        self._hit[key] = (values, len(values), med)
        return med
