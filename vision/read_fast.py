"""The board reader's per-frame bookkeeping done in fewer steps, with the same numbers (issue 31:
no read slower). Each helper returns exactly what the plain loop it replaces returned, to the bit:

* ``class_minima``: each look class's least distance over its prototypes (``BoardReader.read``
  went through every learned example in Python, one ``min`` each);
* ``BoxPatches``: every spot's P x P patch of a top-down view (``SpotFeatures._patches``) cut by
  one ``cv2.resize`` over the boxes of one size stacked, not one call per box: INTER_AREA weighs
  each output pixel by its own footprint, and the stack's footprints are the boxes' own (the
  stacked scale is the box's, dyadic for the printed boards' boxes, so no rounding moves them);
* ``MedianMemo``: the median of a learned list, worked out once while the list stays the same;
* ``ArrayMemo``: a learned list of number lists as a float64 array, converted once while the list
  stays the same (a pawn's learned shapes: 1,536 numbers each, converted for every spot asked about);
* ``mean_of``, ``var_of``, ``std_of``: ``a.mean()``, ``a.var()``, ``a.std()`` of a whole array (the
  same numpy scalar, bit for bit) by the ufunc calls numpy's own ``_mean`` and ``_var`` make, without
  their argument handling (most of their time on the small arrays a Qubism read measures by the
  hundred: a cube top's middle, a glyph's pixels, the ring around it);
* ``channel_mean3``: ``a.mean(axis=-1)`` of float32 pixels of 3 channels (the spots' patches made grey,
  several times a read), from the channels' planes added by OpenCV: numpy's reduction over an axis of
  3 goes through its inner loop once an output element (about 150 instructions an element under
  callgrind, 12 with the planes);
* ``pixel_means``: each patch's mean colour, the pixels summed in numpy's order from a copy with the
  pixels first (0.40 M instructions in place of 0.64 M for 64 inner patches).
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


_F8 = np.dtype(np.float64)
_SUM = np.add.reduce


def mean_of(a: np.ndarray) -> np.floating:
    """``a.mean()`` (all of ``a``; bool and integer arrays summed in float64, float arrays in their
    own type, then divided by the count as an ``intp``), bit for bit, as a numpy scalar."""
    n = np.intp(a.size)
    s = _SUM(a, None, _F8) if a.dtype.kind in "biu" else _SUM(a, None)
    out: np.floating = s.dtype.type(s / n)
    return out


def mean_var_of(a: np.ndarray) -> tuple[np.floating, np.floating]:
    """``a.mean()`` and ``a.var()`` of a float array (all of it), bit for bit, as numpy scalars: the
    mean as ``var`` keeps it (a one-element array of ``a``'s type: the same quotient, rounded alike),
    the squared deviations summed in that type."""
    n = np.intp(a.size)
    m = np.add.reduce(a, axis=None, keepdims=True)
    np.true_divide(m, n, out=m, casting="unsafe")
    x = np.subtract(a, m)
    np.square(x, out=x)
    s = _SUM(x, None)
    var: np.floating = s.dtype.type(s / n)
    return m.reshape(-1)[0], var


def var_of(a: np.ndarray) -> np.floating:
    """``a.var()`` of a float array (all of it), bit for bit, as a numpy scalar."""
    return mean_var_of(a)[1]


def std_of(a: np.ndarray) -> np.floating:
    """``a.std()`` of a float array (all of it), bit for bit, as a numpy scalar."""
    v = var_of(a)
    out: np.floating = v.dtype.type(np.sqrt(v))
    return out


def channel_mean3(a: np.ndarray) -> np.ndarray:
    """``a.mean(axis=-1)`` of a float32 array whose last axis holds 3 channels, bit for bit (any other
    array: numpy's own). numpy sums an axis of 3 in order, ``(c0 + c1) + c2`` in float32, and divides
    by the count; the planes (``cv2.split``) are added by ``cv2.add`` in that order (float32 adds, one
    rounding each) and divided by 3 in float32 (numpy divides by an ``intp``, in float64 then rounded
    to float32: the same quotient, as a float64 quotient of floats rounds to the float32 one). A
    sum of zeros may come out -0.0 where numpy gives 0.0 (equal as numbers)."""
    if a.dtype != np.float32 or a.ndim < 2 or a.shape[-1] != 3 or a.size == 0:
        plain: np.ndarray = a.mean(axis=-1)
        return plain
    c0, c1, c2 = cv2.split(np.ascontiguousarray(a).reshape(-1, 1, 3))
    out = cv2.add(c0, c1)
    cv2.add(out, c2, dst=out)
    out /= np.float32(3)
    return out.reshape(a.shape[:-1])


def pixel_means(a: np.ndarray) -> np.ndarray:
    """``a.reshape(len(a), -1, c).mean(axis=1)`` of ``a`` [N, ..., c] (each item's mean colour), bit for
    bit: numpy sums the pixels one after another into each item's channels either way; with the
    pixels first ([pixels, N, c], one contiguous copy) each step adds N * c values at once, not c. One
    channel (c = 1): numpy sums each item's pixels pairwise, so that is left to numpy."""
    n, c = a.shape[0], a.shape[-1]
    if n == 0 or a.size == 0 or c < 2:
        plain: np.ndarray = a.reshape(n, -1, c).mean(axis=1)
        return plain
    firsts: np.ndarray = np.ascontiguousarray(np.moveaxis(a.reshape(n, -1, c), 1, 0)).mean(axis=0)
    return firsts


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


class ArrayMemo:
    """``np.asarray(values, np.float64)`` of a learned list of number lists kept under a key, converted
    again only when the list is another object or its length changed (learned lists only grow; their
    rows are never changed in place)."""

    def __init__(self) -> None:
        self._hit: dict[str, tuple[list[list[float]], int, np.ndarray]] = {}

    def __call__(self, key: str, values: list[list[float]]) -> np.ndarray:
        hit = self._hit.get(key)
        if hit is not None and hit[0] is values and hit[1] == len(values):
            return hit[2]
        arr = np.asarray(values, np.float64)
        self._hit[key] = (values, len(values), arr)
        return arr
