"""Small dice seen obliquely: is a box of the reader's pass for small dice a die's top face, or the
side face nearest the camera with the top face above it?

A small die seen from a low camera shows its top face as a thin strip (a third to a half as high
as wide) above its front face, which is about square. The detector, taught square-ish top faces,
boxes the front face then, and the classifier reads the front face's pips: a wrong value
(docs/readme/dice.md, thirteenth and twentieth rounds). The strip just above such a box holds the
top face; above a top face (seen from above or obliquely) lies the table or another die's side.
:func:`strip_above` gives that strip, :func:`stretched_crops` the classifier's crops of such strips
stretched to squares (undoing the foreshortening), and the reader (``vision.dice``) does not take a
small die whose strip above is read surely as a die face (``DiceConfig.small_above``): its value is
the face above, whose box the detector did not give, so it is left to the first pass (asked about
there, or missed) rather than read from its side.

"Above" is up in the image: the camera looks down at the table from the player's side, the image
upright (as in every set the reader is measured on).
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.dice_models import CLS_SIZE, normalised


def strip_above(box: Sequence[float], height: float) -> tuple[float, float, float, float]:
    """The strip ``height`` times the box's height above it, as wide as the box (its lower edge a
    twentieth of the box inside it, so the face's edge shared with the box is in view)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    h = y2 - y1
    return (x1, y1 - height * h, x2, y1 + 0.05 * h)


def _stretch(img: np.ndarray, rect: Sequence[float], grow: float) -> np.ndarray:
    """The rectangle ``rect`` (grown by ``grow`` each way) warped onto CLS_SIZE^2, uint8."""
    x1, y1, x2, y2 = (float(v) for v in rect)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    w, h = max(2.0, (x2 - x1) * grow), max(2.0, (y2 - y1) * grow)
    src = np.float32([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx - w / 2, cy + h / 2]])
    dst = np.float32([[0, 0], [CLS_SIZE, 0], [0, CLS_SIZE]])
    m = cv2.getAffineTransform(src, dst)
    return cv2.warpAffine(img, m, (CLS_SIZE, CLS_SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def stretched_crops(img: np.ndarray, rects: Sequence[Sequence[float]], grow: float) -> np.ndarray:
    """The classifier's crops (N x CLS_SIZE x CLS_SIZE x 3, normalised as the classifiers read them,
    ``vision.dice_models.normalised``) of rectangles of any shape, each stretched to a square."""
    return normalised(np.stack([_stretch(img, r, grow) for r in rects]))


def face_above(probs: np.ndarray, sure: float) -> np.ndarray:
    """Which strips (rows of classifier probabilities: not a die, 1..6) are read surely as a die
    face: a value's probability at least ``sure``."""
    if not len(probs):
        return np.zeros(0, bool)
    return probs[:, 1:].max(1) >= sure
