"""One missing marker looked for where the board's pose puts it (``boardlocate._guided``).

    look_for(gray, corners_mm, to_pinhole, lens, marker_id, detector, dictionary, config)
        -> the marker's 4 frame corners, or None

The pose of the markers already found says where a missing marker should be: that corner of the
board is cut out as a top-down view through the pose's lens (``vision.lens.warp_through``), so a
marker bent by a wide webcam is straight there, and searched in three ways, the cheapest first:

1. the detector on the view: the expected id taken;
2. a quad it rejected (its bits read wrong: a shadow or glare across the marker makes Otsu's one
   threshold split its cells wrongly) lying where the marker should be, taken when its cells
   show the expected pattern by local contrast (``verified``: each white cell clearly brighter
   than the black cells beside it; a shadow changes the light slowly, the print sharply),
   clearly better than any other marker of the dictionary in any turn;
3. no quad at all (the outline never closes: its black border against a dark table past the
   paper's edge, a finger over a corner, noise breaking it): the marker's print itself, slid
   over the view (``cv2.matchTemplate``) and aligned by ECC (a homography) to its bits' edges,
   on the view divided by its local white (``lit``), taken when it correlates, stays where the
   pose puts it and is ``verified``. Skipped, for the time, where the print is not even roughly
   there (a piece or a hand over it).

The corners found are taken back through the view's transform and the lens to frame pixels.
"""

from __future__ import annotations

from typing import Any, Protocol

import cv2
import numpy as np

from vision.lens import Lens, warp_through


class LookConfig(Protocol):
    @property
    def guided_px_per_cell(self) -> float: ...

    @property
    def guided_margin(self) -> float: ...


CELL_PX = 8
"""Pixels per cell of a candidate's straightened view (its middle read, as the detector does)."""
AGREE = 0.9
"""Share of the expected pattern's white-black cell pairs that must show it."""
LEAD = 0.05
"""How much better than any other marker and turn the expected pattern must be shown."""
EDGE_PX = 3.0
"""A marker found with a corner nearer the frame's edge than this is not taken (as the detector's
``minDistanceToBorder``): the camera should be moved to see it whole (``vision.aim``)."""
PLACE = 0.5
"""A candidate's corners within this share of a marker side of where the pose puts them."""


def _patterns(dictionary: Any, cells: int) -> np.ndarray:
    """Every marker of ``dictionary`` in its 4 turns as bits, [n, 4, cells, cells] (1 white)."""
    out = []
    for i in range(int(dictionary.bytesList.shape[0])):
        img = cv2.aruco.generateImageMarker(dictionary, i, cells * 10)
        bits = (img[5::10, 5::10] > 127).astype(np.int8)
        out.append([np.rot90(bits, -r) for r in range(4)])
    return np.array(out, np.int8)


_PATTERNS: dict[bytes, np.ndarray] = {}


def patterns(dictionary: Any) -> np.ndarray:
    cells = int(dictionary.markerSize) + 2
    key = bytes([cells]) + np.asarray(dictionary.bytesList).tobytes()
    got = _PATTERNS.get(key)
    if got is None:
        got = _PATTERNS[key] = _patterns(dictionary, cells)
    return got


def shown(means: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """Share of the 4-neighbour cell pairs that ``bits`` ([..., cells, cells]) says differ (one
    white, one black) in which the white cell is clearly the brighter in ``means`` (cells' mean
    grey), for each pattern of ``bits``."""
    good = np.zeros(bits.shape[:-2])
    total = np.zeros(bits.shape[:-2])
    for a, b, ba, bb in ((means[:, :-1], means[:, 1:], bits[..., :, :-1], bits[..., :, 1:]),
                         (means[:-1, :], means[1:, :], bits[..., :-1, :], bits[..., 1:, :])):
        differ = ba != bb
        ok = np.where(ba == 1, a > 1.25 * b + 6.0, b > 1.25 * a + 6.0)
        good += np.sum(ok & differ, axis=(-2, -1))
        total += np.sum(differ, axis=(-2, -1))
    out: np.ndarray = good / np.maximum(total, 1)
    return out


def cell_means(view: np.ndarray, quad: np.ndarray, cells: int) -> np.ndarray:
    """Mean grey of the middle 40 % of each cell of the marker whose corners are ``quad``."""
    side = cells * CELL_PX
    dst = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    flat = cv2.warpPerspective(view, m, (side, side), flags=cv2.INTER_LINEAR).astype(np.float64)
    lo, hi = int(round(0.3 * CELL_PX)), int(round(0.7 * CELL_PX))
    out: np.ndarray = flat.reshape(cells, CELL_PX, cells, CELL_PX)[:, lo:hi, :, lo:hi].mean(axis=(1, 3))
    return out


def verified(view: np.ndarray, quad: np.ndarray, marker_id: int, dictionary: Any) -> bool:
    """Does the quad (corners in the marker's own order) show marker ``marker_id`` the right way
    round, clearly better than any other marker or turn?"""
    pats = patterns(dictionary)
    scores = shown(cell_means(view, quad, pats.shape[-1]), pats)
    mine = float(scores[marker_id, 0])
    scores[marker_id, 0] = -1.0
    return mine >= AGREE and mine - float(scores.max()) >= LEAD


def _placed(rejected: Any, expected: np.ndarray) -> list[np.ndarray]:
    """Rejected quads whose corners each lie near one expected corner, in the expected order."""
    if not len(rejected):
        return []
    side = float(np.linalg.norm(expected[0] - expected[1]))
    quads = np.asarray(rejected, np.float64).reshape(-1, 4, 2)
    d = np.linalg.norm(quads[:, None, :, :] - expected[None, :, None, :], axis=3)  # [quad, expected, corner]
    order = d.argmin(axis=2)
    near = np.take_along_axis(d, order[:, :, None], axis=2)[:, :, 0].max(axis=1) <= PLACE * side
    distinct = np.sort(order, axis=1)
    ok = near & np.all(distinct == np.arange(4), axis=1)
    return [quads[i][order[i]] for i in np.nonzero(ok)[0]]


MATCH_MIN = 0.5
"""Least normalised correlation of the print slid over the view for ECC to be tried."""
HINT = 0.8
"""Share of the pattern's cell pairs the print's best place must roughly show for ECC to run."""
ECC_MIN = 0.75
"""Least correlation of the expected marker's print aligned to the view (``aligned``)."""


def lit(view: np.ndarray, px_per_cell: float) -> np.ndarray:
    """The view divided by its local white (the brightest within 2.5 cells, smoothed): a shadow
    or a lamp's fall-off across the marker taken out, its print left (float32, white about 255)."""
    size = int(round(5 * px_per_cell)) | 1
    white = cv2.dilate(cv2.GaussianBlur(view, (5, 5), 0), cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    white = cv2.blur(white.astype(np.float32), (size, size))
    out: np.ndarray = view.astype(np.float32) * (255.0 / np.maximum(white, 8.0))
    return out


def aligned(view: np.ndarray, expected: np.ndarray, marker_id: int, dictionary: Any, px_per_cell: float
            ) -> np.ndarray | None:
    """The marker's print (its black border and bits, nothing around it) aligned to the view by
    ECC from where the pose puts it (``expected``: 4 view corners): a marker whose outline the
    detector cannot close (its border against a dark table past the paper's edge, the outline
    broken by noise) is still found by its bits' edges. Taken when the print correlates by
    ``ECC_MIN``, stays near where the pose puts it and its cells show its pattern (``verified``)."""
    cells = int(dictionary.markerSize) + 2
    side = int(round(cells * px_per_cell))
    template = cv2.aruco.generateImageMarker(dictionary, marker_id, side).astype(np.float32)
    start = expected
    edge = np.array([[-0.5, -0.5], [side - 0.5, -0.5], [side - 0.5, side - 0.5], [-0.5, side - 0.5]])
    # where the print matches best, shifted only (the view is top-down: the marker is a square
    # of about the template's size there): ECC then starts within its reach
    span = float(np.linalg.norm(expected[0] - expected[1]))
    lo = np.maximum(np.floor(expected.min(axis=0) - PLACE * span), 0).astype(int)
    hi = np.minimum(np.ceil(expected.max(axis=0) + PLACE * span) + 1, view.shape[::-1]).astype(int)
    if min(hi - lo) < side:
        return None
    window = lit(view[lo[1]:hi[1], lo[0]:hi[0]], px_per_cell)  # within reach of where the pose puts it
    expected, start = expected - lo, start - lo  # window pixels from here on
    score = cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED)
    _, peak, _, best = cv2.minMaxLoc(score)
    if peak < MATCH_MIN:
        return None  # nothing like it there (a hand or a piece over it): no ECC
    shift = np.array(best, np.float64) - 0.5 - expected.min(axis=0)
    if float(np.linalg.norm(shift)) <= PLACE * span:
        expected = expected + shift
    pats = patterns(dictionary)
    if float(shown(cell_means(window, expected, cells), pats[marker_id, 0])) < HINT:
        return None  # its pattern not even roughly there: covered (no ECC, a few ms saved)
    start_warp = cv2.getPerspectiveTransform(edge.astype(np.float32), expected.astype(np.float32))
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 15, 1e-3)
    try:
        cc, warp = cv2.findTransformECC(template, window, start_warp.astype(np.float32), cv2.MOTION_HOMOGRAPHY,
                                        criteria, None)
    except cv2.error:
        return None  # did not converge
    if not cc >= ECC_MIN:
        return None
    quad = cv2.perspectiveTransform(edge.reshape(-1, 1, 2), np.asarray(warp, np.float64)).reshape(4, 2)
    if float(np.linalg.norm(quad - start, axis=1).max()) > PLACE * span:
        return None
    return quad + lo if verified(window, quad, marker_id, dictionary) else None


def look_for(gray: np.ndarray, corners_mm: np.ndarray, to_pinhole: np.ndarray, lens: Lens | None,
             marker_id: int, detector: Any, dictionary: Any, cfg: LookConfig) -> np.ndarray | None:
    """The 4 frame-pixel corners of marker ``marker_id`` (its board corners ``corners_mm``: TL,
    TR, BR, BL) looked for where ``to_pinhole`` (3x3 board mm -> pinhole pixels) and ``lens``
    put it, or None."""
    cells = int(dictionary.markerSize) + 2
    size = float(np.linalg.norm(corners_mm[1] - corners_mm[0]))
    pad = cfg.guided_margin * size
    n = int(round((1 + 2 * cfg.guided_margin) * cells * cfg.guided_px_per_cell))
    k = (size + 2 * pad) / n
    x0, y0 = float(corners_mm[:, 0].min()) - pad, float(corners_mm[:, 1].min()) - pad
    to_view_mm = np.array([[k, 0, x0], [0, k, y0], [0, 0, 1.0]])
    to_pin = np.asarray(to_pinhole, np.float64) @ to_view_mm
    view = warp_through(gray, to_pin, lens, (n, n))
    found, ids, rejected = detector.detectMarkers(view)
    quad = None
    if ids is not None:
        for c, i in zip(found, ids.ravel()):
            if int(i) == marker_id:
                quad = np.asarray(c, np.float64).reshape(4, 2)
                break
    if quad is None and len(rejected):
        expected = (corners_mm - [x0, y0]) / k
        for q in _placed(rejected, expected):
            if verified(view, q, marker_id, dictionary):
                quad = q
                break
    if quad is None:
        quad = aligned(view, (corners_mm - [x0, y0]) / k, marker_id, dictionary, cfg.guided_px_per_cell)
    if quad is None:
        return None
    pts = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), to_pin).reshape(4, 2)
    if lens is not None:
        pts = lens.distort(pts)
    h, w = gray.shape[:2]
    if pts.min() < EDGE_PX or float(pts[:, 0].max()) > w - 1 - EDGE_PX or float(pts[:, 1].max()) > h - 1 - EDGE_PX:
        return None  # partly out of the picture (the view there is the frame's edge repeated)
    return pts
