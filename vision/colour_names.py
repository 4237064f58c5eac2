"""Short names of colours, shared by the dice reader (``vision.dice``) and the synthetic dice
(``vision.synth.dice``), which names the dice it draws the same way. Runtime code: it imports
no generator."""

from __future__ import annotations

import cv2
import numpy as np

LUMA = np.float32([0.114, 0.587, 0.299])  # BGR weights of a colour's brightness


def colour_name(bgr: np.ndarray) -> str:
    """Short colour name of a BGR colour."""
    px = np.uint8(np.clip(bgr, 0, 255)).reshape(1, 1, 3)
    h, s, v = (int(x) for x in cv2.cvtColor(px, cv2.COLOR_BGR2HSV)[0, 0])
    if v < 60 or (v < 90 and s < 120):
        return "black"
    if s < 50:
        return "white" if v > 170 else "grey"
    if h < 8 or h >= 165:
        return "red"
    if h < 20:
        return "orange" if v > 120 else "brown"
    if h < 34:
        return "yellow"
    if h < 85:
        return "green"
    if h < 130:
        return "blue"
    return "purple" if h < 150 else "pink"
