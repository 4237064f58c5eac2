"""A second look at the top of a die's box, for the dice reader (``vision.dice``).

A small die seen obliquely is often boxed whole by the detector: its top face is then a flat strip
along the box's upper edge and its front face fills the rest, and the classifier, reading the
square crop of the whole box, reads the front face's value (rf-dice-public's wrong values, all of
them, on the held-out train photos: docs/readme/dice.md, thirteenth and fifteenth rounds). The
strip, stretched back to a square (as a view of the table's plane would show that face), is read by
the same classifiers; when they read another value there surely, the die is asked about instead of
read. A box round the top face alone (a die seen from above) has only the face's upper edge in that
strip, which the classifiers do not read surely as a die.

Only ever turns a value into a question: never gives a value of its own.
"""

from __future__ import annotations

from typing import Callable, Sequence

import cv2
import numpy as np

Box = tuple[float, float, float, float]
Reading = tuple[Box, float, int, float]  # box, P(die), value, confidence of that value
# the strip, as fractions of the box (x1, y1, x2, y2): the middle 70 % of its width, from 2 % to
# 32 % of its height (chosen on the held-out train photos, fifteenth round)
TOP_STRIP: Box = (0.15, 0.02, 0.85, 0.32)


def strip(box: Sequence[float], part: Sequence[float] = TOP_STRIP) -> Box:
    """The part ``part`` (fractions of the box) of ``box``, in image pixels."""
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = x2 - x1, y2 - y1
    return (x1 + part[0] * w, y1 + part[1] * h, x1 + part[2] * w, y1 + part[3] * h)


def stretched_crop(img: np.ndarray, box: Sequence[float], size: int, grow: float) -> np.ndarray:
    """``box`` grown by ``grow`` on each axis and stretched to a ``size`` square (its width and
    height scaled apart, unlike the classifier's square crops), normalised as they are (float32 HWC)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    w, h = max(x2 - x1, 1.0) * grow, max(y2 - y1, 1.0) * grow
    src = np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx - w / 2, cy + h / 2]], np.float32)
    dst = np.array([[0, 0], [size, 0], [0, size]], np.float32)
    m = cv2.getAffineTransform(src, dst)
    c = cv2.warpAffine(img, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    out = c.astype(np.float32)
    out -= out.mean()
    out /= out.std() + 8.0
    return out


def ask_side_faces(img: np.ndarray, found: list[Reading], read: Callable[[np.ndarray], np.ndarray],
                   sure: float, bar: float, size: int, grow: float, below: float = 1.0,
                   quick: Callable[[np.ndarray], np.ndarray] | None = None, quick_die: float = 0.5) -> list[Reading]:
    """Readings (box, P(die), value, confidence) with a value (confidence at least ``sure``, and
    under ``below``) whose box's top strip, stretched to a square, ``read`` (crops N x size x size
    x 3 -> probabilities N x 7: not a die, 1..6) reads as another value with at least ``bar``:
    confidence 0 (asked about). With ``quick`` (a cheaper classifier, same output), only the strips
    it reads as a die with at least ``quick_die`` are read by ``read`` (most strips of a box round
    the top face alone show no die: the cost stays small). The others are returned as they were,
    in the same order (``bar`` 0: all of them)."""
    idx = [k for k, f in enumerate(found) if sure <= f[3] < below]
    if bar <= 0 or not idx:
        return found
    crops = np.stack([stretched_crop(img, strip(found[k][0]), size, grow) for k in idx])
    if quick is not None:
        keep = np.nonzero(1.0 - quick(crops)[:, 0] >= quick_die)[0]
        idx, crops = [idx[k] for k in keep], crops[keep]
        if not idx:
            return found
    probs = read(crops)
    out = list(found)
    for k, p in zip(idx, probs):
        v = int(np.argmax(p[1:])) + 1
        if v != found[k][2] and float(p[v]) >= bar:
            box, p_die, value, _conf = found[k]
            out[k] = (box, p_die, value, 0.0)
    return out
