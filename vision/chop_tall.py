"""Chop! Chop!: how tall a figure stands, seen up its own body through the board's pose.

The cat is the one big piece: taller than a mouse whatever its colour. A look (mean colour,
spread) cannot say so when the cat and the mice are made alike; the pose can. The plane ``z``
up over a spot shows, in the image, where the ground farther out is (``SpotFeatures._lift``).
Climbing that line from the spot's foot, a standing figure shows its own colour up to its top;
above it the image shows what lies behind it.

``figure_heights``: for each asked spot, the figure's colour just above its foot (the median
over the planes ``FOOT`` of a short row across the line) and, climbing in steps of ``STEP``
square sides, the highest plane up to which (one step missed at most) the image is clearly
nearer that colour than what should lie behind: the empty print at the ground point the plane
shows, lit as this frame's paper, or this frame's slab colour where a spot read as a slab lies
there; where another figure lies there the plane says nothing (counted as missed). A camera
looking nearly straight down shows no height at all (``LEAN_MIN``): the heights are None.

``tallest_cat`` (the hook ``tall_cat``, after ``vision.chop_body``): the one clearly tallest
figure is the cat, where the classifier does not back the cat read (``BACKED``).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.boardlocate import camera_from_homography
from vision.chop_squares import ALLOWED, CLASSES, likeliest_allowed

CLASSES_FIGURES = {CLASSES.index("mouse"), CLASSES.index("cat")}
"""The classifier's columns of the figures."""

STEP = 0.05
"""Height step, in square sides."""
TOP = 1.6
"""The highest plane climbed, in square sides."""
FOOT = (0.12, 0.3)
"""The planes (square sides up) whose colours make the figure's own colour."""
ACROSS = (-0.1, -0.05, 0.0, 0.05, 0.1)
"""Sample offsets across the line climbed (square sides), at every plane."""
CLEAR = 0.6
"""A plane shows the figure where the image is nearer its colour than this share of its distance
to what should lie behind."""
LEAN_MIN = 0.3
"""The plane one square side up seen shifted less than this (square sides, the figures' median):
no height is seen."""


def _lifts(pose: Any, size: tuple[int, int], zs_mm: np.ndarray) -> np.ndarray:
    """[len(zs_mm), 3, 3]: board mm of each plane ``z`` mm up -> the board mm where it is seen
    (``SpotFeatures._lift``'s, for many planes from one camera estimate)."""
    cam = camera_from_homography(pose.sampling()[0], size)  # a lens's pinhole camera
    fx, fy = cam.foot
    k = cam.height / np.maximum(cam.height - np.asarray(zs_mm, np.float64), 1e-3)  # CameraGuess.plane_scale
    out = np.zeros((len(k), 3, 3))
    out[:, 0, 0] = out[:, 1, 1] = k
    out[:, 0, 2], out[:, 1, 2], out[:, 2, 2] = (1 - k) * fx, (1 - k) * fy, 1.0
    return out


def figure_heights(reader: Any, image: np.ndarray, pose: Any, spots: list[int],
                   tokens: list[str | None]) -> list[float | None]:
    """Each of ``spots``' figure height (square sides; module doc), or None for every spot when
    the camera looks nearly straight down (``TOP`` for a spot whose colour the image keeps all the
    way up: its top is not seen, what lies behind looks like it). ``reader``: the ``BoardReader`` right after reading
    ``image`` (its light fit ``_last_coef``, its spots' patches); ``tokens``: every spot's
    reading, which says what lies behind a figure: the print, a slab (this frame's slab
    colour), or another figure (that plane says nothing)."""
    if not spots:
        return []
    s = reader.config.px_per_mm
    cell = reader.cell_mm
    zs = np.arange(STEP, TOP + 1e-9, STEP)
    lifts = _lifts(pose, (image.shape[1], image.shape[0]), np.append(zs, 1.0) * cell)
    c = np.asarray(reader._spot_centres_px, np.float64)[spots] / s  # board mm
    along = (c @ lifts[-1, :2, :2].T + lifts[-1, :2, 2]) - c  # where the plane one side up shows
    if float(np.median(np.linalg.norm(along, axis=1))) < LEAN_MIN * cell:
        return [None] * len(spots)
    to_image, lens = pose.sampling()
    along /= np.maximum(np.linalg.norm(along, axis=1, keepdims=True), 1e-9)
    across = np.column_stack([-along[:, 1], along[:, 0]])
    off = np.asarray(ACROSS) * cell
    pts = c[:, None, :] + off[None, :, None] * across[:, None, :]  # [n, a, 2] board mm at each plane
    ground = np.empty((len(spots), len(zs), len(off), 2))
    for k in range(len(zs)):
        ground[:, k] = pts @ lifts[k, :2, :2].T + lifts[k, :2, 2]  # where plane z shows: board mm on the ground
    flat = ground.reshape(-1, 2)
    img_pts = cv2.perspectiveTransform(flat.reshape(-1, 1, 2), to_image).reshape(-1, 2)
    x, y = img_pts[:, 0].astype(np.float32), img_pts[:, 1].astype(np.float32)
    if lens is not None:
        lx, ly = lens.distort_xy(x, y)
        x, y = lx.astype(np.float32), ly.astype(np.float32)
    seen = cv2.remap(image, x.reshape(1, -1), y.reshape(1, -1), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).reshape(-1, 3).astype(np.float64) / 255
    bx, by = (flat[:, 0] * s).astype(np.float32), (flat[:, 1] * s).astype(np.float32)
    empty = cv2.remap(reader.empty, bx.reshape(1, -1), by.reshape(1, -1), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE).reshape(-1, 3).astype(np.float64)
    gain = np.maximum(reader._basis(bx.astype(np.float64), by.astype(np.float64)) @ reader._last_coef, 0.05)
    behind = empty * gain
    where = _spot_at(reader, bx, by)
    base = np.array(["" if t is None else t.split(":")[0] for t in tokens] + [""])[where]  # -1: ""
    slabs = [i for i, t in enumerate(tokens) if t is not None and t.split(":")[0] == "slab"]
    if slabs:
        patches = np.asarray(reader._last_patches, np.float64)[slabs]
        on_slab = base == "slab"
        behind[on_slab] = np.median(patches.reshape(-1, 3), axis=0) * gain[on_slab]
    other = ((base == "cat") | (base == "mouse")) & (where != np.repeat(np.asarray(spots), len(zs) * len(off)))
    shape = (len(spots), len(zs), len(off))
    seen = seen.reshape(*shape, 3)
    foot = (zs >= FOOT[0] - 1e-9) & (zs <= FOOT[1] + 1e-9)
    own = np.median(seen[:, foot].reshape(len(spots), -1, 3), axis=1)[:, None, None, :]
    d_own = np.sqrt(((seen - own) ** 2).sum(axis=3))
    d_behind = np.sqrt(((seen - behind.reshape(*shape, 3)) ** 2).sum(axis=3))
    # a plane shows the figure where most points across do (3 of 5) and no other figure lies behind
    there = (2 * (d_own < CLEAR * d_behind).sum(axis=2) > len(off)) & ~other.reshape(shape).any(axis=2)
    # the climb stops at the second plane in a row (above the foot) that does not show the figure
    miss = ~there & (zs > FOOT[1])[None, :]
    stop = np.append(miss[:, 1:] & miss[:, :-1], np.ones((len(spots), 1), bool), axis=1).argmax(axis=1) + 1
    seen_to = there & (np.arange(len(zs))[None, :] < stop[:, None])
    out: list[float | None] = [float(zs[np.nonzero(row)[0][-1]]) if row.any() else 0.0 for row in seen_to]
    return out


def _spot_at(reader: Any, bx: np.ndarray, by: np.ndarray) -> np.ndarray:
    """The spot whose box holds each board-pixel point (-1: none; where boxes overlap, the first),
    looked up in a picture of the boxes made once per reader."""
    label: np.ndarray | None = getattr(reader, "_chop_spot_label", None)
    if label is None:
        w, h = reader.size
        label = np.full((h, w), -1, np.int16)
        for i in range(len(reader.boxes) - 1, -1, -1):  # the first box drawn last
            x0, y0, x1, y1 = reader.boxes[i]
            label[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = i
        reader._chop_spot_label = label
    xi, yi = np.floor(bx).astype(np.int64), np.floor(by).astype(np.int64)
    ok = (xi >= 0) & (xi < label.shape[1]) & (yi >= 0) & (yi < label.shape[0])
    out: np.ndarray = np.full(len(xi), -1, np.int64)
    out[ok] = label[yi[ok], xi[ok]]
    return out


UNSURE = 0.5
"""The confidence of a reading ``tallest_cat`` changed (under ``PieceConfig.min_confidence``: asked)."""
FIGURE_MIN = 0.2
"""Below this height (square sides) a spot shows no standing figure (a tile, the floor)."""
BACKED = 0.5
"""The spot read as the cat keeps it when the classifier's cat probability there is at least this."""


def tallest_cat(out: list[tuple[str | None, float]], kinds: list[str], probs: np.ndarray,
                heights: dict[int, float], margin: float) -> bool:
    """The cat is the one big piece (C1): taller than every mouse. Of the spots ``heights`` was
    measured on (the frame's figures: read as the cat or a mouse, or the classifier's likeliest
    reading a figure; off the holes), the tallest, when its top was seen (under ``TOP``) and it
    stands at least ``margin`` square sides above every other one, is the cat (unsure), unless
    the classifier backs the spot read as the cat now (its cat probability there at least
    ``BACKED``). The spot read as the cat before takes a mouse when a figure stands there (at
    least ``FIGURE_MIN`` tall and the classifier's likeliest reading a figure), else the
    classifier's likeliest reading that is no figure. In place; True when the cat moved."""
    if len(heights) < 2:
        return False
    p = np.asarray(probs, np.float64)
    order = sorted(heights, key=lambda i: -heights[i])
    best = order[0]
    if heights[best] >= TOP - STEP / 2 or heights[best] < heights[order[1]] + margin or out[best][0] == "cat":
        return False  # its top not seen, or not clearly the tallest, or the cat already
    cat = CLASSES.index("cat")
    if any(t == "cat" and float(p[i, cat]) >= BACKED for i, (t, _) in enumerate(out)):
        return False
    for i, (token, _) in enumerate(out):
        if token != "cat":
            continue
        figure = CLASSES_FIGURES & {int(p[i].argmax())}
        if heights.get(i, 0.0) >= FIGURE_MIN and figure:
            out[i] = ("mouse", UNSURE)
        else:
            out[i] = likeliest_allowed(p[i], ALLOWED[kinds[i]] - {"cat", "mouse"}, UNSURE)
    out[best] = ("cat", UNSURE)
    return True


def tall_cat(reader: Any, image: np.ndarray, pose: Any, out: list[tuple[str | None, float]], kinds: list[str],
             probs: np.ndarray, margin: float) -> bool:
    """``tallest_cat`` over this frame's figures (``out``: the readings so far, in place): the
    spots off the holes read as the cat or a mouse, or whose classifier ``probs`` find a figure
    likeliest; their heights by ``figure_heights``. True when the cat moved."""
    p = np.asarray(probs, np.float64)
    cat = CLASSES.index("cat")
    if any(t == "cat" and float(p[i, cat]) >= BACKED for i, (t, _) in enumerate(out)):
        return False  # the classifier backs the cat read: nothing measured
    spots = [i for i, (t, _) in enumerate(out) if kinds[i] != "hole"
             and ((t is not None and t.split(":")[0] in ("cat", "mouse")) or int(p[i].argmax()) in CLASSES_FIGURES)]
    heights = figure_heights(reader, image, pose, spots, [t for t, _ in out])
    seen = {i: h for i, h in zip(spots, heights) if h is not None}
    return tallest_cat(out, kinds, p, seen, margin)
