"""A board seen by one marker: its pose from the print (``SpotFeatures.refine`` calls it first).

    pose = print_pose(board, cache, gray, pose)   # refined, or the marker's own with doubtful=True

One marker's four corners fix a homography exactly, but only near that marker: a corner off by
a pixel or two tilts the far side of the board by several squares (a 24 mm marker on a 297 mm
board: the error grows about tenfold with the distance). The print's own alignment
(``SpotFeatures.refine``, ECC over the whole board) does not converge from there: a grid off by
several cells correlates as well one cell over. So the print is aligned outward from the marker,
region by region: first the print within ``STEPS[0]`` mm of the marker (where the marker's pose
is good to a fraction of a square), then each larger region starting from the last region's
pose, so that the new ring is always predicted to well under half a square and the grid cannot
slip (affine while the region is small, a homography once it can show the perspective, lastly
the whole board). Every step compares both prints high-passed (light and soft shadows out) and
leaves out where the blurred view differs from the blurred print (pieces, a hand, a hard
shadow), as ``refine`` does; the view is cut from an image pyramid level near the view's own
resolution (no aliasing of a far board).

The result is taken only when the print confirms it: the whole board's high-passed correlation
with the print rises by at least ``GAIN`` over the marker's pose to at least ``LEAST``, and the
marker itself stays where it was found (its corners within ``ANCHOR`` of a side). Otherwise the
marker's pose is kept and marked ``doubtful`` (the reader then asks rather than reads:
``BoardPose.doubted``), unless the alignment ended where the marker's pose already was (then that
pose is confirmed).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.boards import Board
from vision.boardlocate import ASKED, BoardPose
from vision.printing import render_board

K = 1.0
"""View resolution of the alignment and of its score (px per board mm; at 0.5 the regions of
the held-out scenes tried were aligned half as often)."""
HIGHPASS_MM = 4.0
MASK_LOG = 0.24
"""Left out where the blurred view's brightness differs from the blurred print's by more than this
(log ratio, after the median), as ``PieceConfig.refine_mask_log``."""
STEPS = (30.0, 50.0, 75.0, 110.0, 160.0, 400.0)
"""The regions aligned in turn: the marker's box grown by this many mm on every side (clipped to
the board; the last one is the whole board)."""
AFFINE_BELOW = 75.0
"""Regions grown by less than this are aligned by an affine map (too small to show perspective)."""
ITERATIONS = 20
GAIN = 0.08
"""The whole board's correlation must rise by this much for the aligned pose to be taken."""
LEAST = 0.3
"""... and reach at least this (a Chop! Chop! board under its slabs, whose grid an alignment can
slip by a square, reached 0.16; poses found right on the held-out sets tried, 0.41 to 0.79)."""
ANCHOR = 0.25
"""The marker's corners may move by at most this share of its side."""
SAME_CELLS = 0.3
"""An alignment that moves no square centre by more than this share of a square confirms the
marker's pose as it is."""
MEMO_PX = 1.0
"""A marker found within this many pixels (every corner) of where it was when the last alignment
was taken: the camera has not moved, so that alignment is tried first (re-scored, not re-run)."""
MEMO_KEEP = 0.8
"""... and taken if the whole board's correlation under it is still at least this share of what it
was then (a grid one square off still correlates about half as well: 0.43 against 0.87)."""


def needs_print_pose(pose: BoardPose, markers: int) -> bool:
    """A fitted (not kept) homography pose from one marker of several."""
    return (pose.found and pose.homography is not None and pose.lens is None and not pose.kept
            and len(pose.used) == 1 and markers > 1)


def print_pose(board: Board, cache: dict[tuple[int, ...], PrintPose], gray: np.ndarray,
               pose: BoardPose) -> BoardPose:
    """``pose`` from one marker (``needs_print_pose``) refined from the print of the marker
    layout it belongs to (``Board.printed_as``), or kept and marked doubtful; ``cache`` keeps
    each layout's print (a reader's own dict)."""
    return printer(board.printed_as(pose.corners), cache).align(gray, pose)


def printer(board: Board, cache: dict[tuple[int, ...], PrintPose]) -> PrintPose:
    """The print of ``board``'s marker layout, made once per layout and kept in ``cache``."""
    key = tuple(m.id for m in board.markers)
    if key not in cache:
        cache[key] = PrintPose(board)
    return cache[key]


class PrintPose:
    """A board's print as the alignment compares it (grey, high-passed, ``K`` px per mm)."""

    def __init__(self, board: Board) -> None:
        self.size_mm = (float(board.width_mm), float(board.height_mm))
        hi = cv2.cvtColor(render_board(board, 4 * K, markers=True), cv2.COLOR_BGR2GRAY)
        self.prints: dict[float, np.ndarray] = {}
        for k in (K,):
            size = (int(round(self.size_mm[0] * k)), int(round(self.size_mm[1] * k)))
            self.prints[k] = cv2.resize(hi, size, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        self.high = _high(self.prints[K], HIGHPASS_MM * K)
        self.markers = {m.id: np.asarray(m.corners(), np.float64) for m in board.markers}
        self.memo: tuple[int, np.ndarray, np.ndarray, float] | None = None
        """The last alignment taken: its marker, the marker's corners in the image, the homography
        and its score."""

    def align(self, gray: np.ndarray, pose: BoardPose) -> BoardPose:
        """``pose`` (one marker's, ``needs_print_pose``) refined from the print, or kept and
        marked doubtful."""
        assert pose.homography is not None
        mk = self.markers.get(pose.used[0])
        if mk is None:
            return pose
        h0 = pose.homography / pose.homography[2, 2]
        levels = _pyramid(gray)
        seen_at = _project(h0, mk)
        if self.memo is not None and self.memo[0] == pose.used[0] \
                and float(np.abs(self.memo[1] - seen_at).max()) <= MEMO_PX:
            # the camera has not moved since the last alignment: it still holds if the print says so
            kept = self.memo[2]
            after = self.score(levels, kept)
            if after >= max(LEAST, MEMO_KEEP * self.memo[3]) and after >= self.score(levels, h0) + GAIN:
                return replace(pose, homography=kept)
        h: np.ndarray | None = h0
        box = (float(mk[:, 0].min()), float(mk[:, 1].min()), float(mk[:, 0].max()), float(mk[:, 1].max()))
        full = (0.0, 0.0, self.size_mm[0], self.size_mm[1])
        for grow in STEPS:
            region = (max(box[0] - grow, 0.0), max(box[1] - grow, 0.0),
                      min(box[2] + grow, full[2]), min(box[3] + grow, full[3]))
            motion = cv2.MOTION_AFFINE if grow < AFFINE_BELOW else cv2.MOTION_HOMOGRAPHY
            got = self._step(levels, h, region, motion, K) if h is not None else None
            if got is None:
                # a larger region that does not converge (a hand, covers): the last region
                # aligned by a homography is still judged by the whole board's score
                h = h if grow > AFFINE_BELOW else None
                break
            h = got
            if region == full:
                break
        if h is not None and self._anchored(h, h0, mk):
            before, after = self.score(levels, h0), self.score(levels, h)
            if after >= before + GAIN and after >= LEAST:
                self.memo = (pose.used[0], seen_at, h, after)
                return replace(pose, homography=h)
            if self._moved_cells(h, h0) <= SAME_CELLS:
                return pose
        return replace(pose, doubtful=True, confidence=min(pose.confidence, ASKED))

    def _view(self, levels: list[np.ndarray], h: np.ndarray, region: tuple[float, float, float, float],
              margin: float, k: float) -> tuple[np.ndarray, np.ndarray]:
        """The image over ``region`` (board mm) and ``margin`` mm about it, top-down at ``k``
        px per mm, grey float 0..1; and the view's pixel -> board mm transform."""
        x0, y0, x1, y1 = region
        to_mm = np.array([[1 / k, 0, x0 - margin], [0, 1 / k, y0 - margin], [0, 0, 1.0]])
        size = (int(round((x1 - x0 + 2 * margin) * k)), int(round((y1 - y0 + 2 * margin) * k)))
        seen = _warp_level(levels, h, to_mm, size, ((x0 + x1) / 2, (y0 + y1) / 2), k)
        return seen.astype(np.float32) / 255, to_mm

    def _step(self, levels: list[np.ndarray], h: np.ndarray, region: tuple[float, float, float, float],
              motion: int, k: float) -> np.ndarray | None:
        """One region aligned (ECC on both prints high-passed, pieces masked out), starting at
        ``h``; the new pose's homography, or None when the alignment does not converge."""
        x0, y0, x1, y1 = (int(round(v * k)) for v in region)
        tmpl = self.prints[k][y0:y1, x0:x1]
        th, tw = tmpl.shape
        margin = 0.15 * max(region[2] - region[0], region[3] - region[1])
        seen, to_mm = self._view(levels, h, region, margin, k)
        mp = int(round(margin * k))
        sig = HIGHPASS_MM * k
        blur_t = np.maximum(cv2.GaussianBlur(tmpl, (0, 0), 1.5 * sig), 0.05)
        blur_s = cv2.GaussianBlur(seen, (0, 0), 1.5 * sig)[mp:mp + th, mp:mp + tw]
        ratio = blur_s / blur_t
        ratio /= float(np.median(ratio)) + 1e-6
        mask = np.zeros(seen.shape, np.uint8)
        mask[mp:mp + th, mp:mp + tw] = np.abs(np.log(np.maximum(ratio, 1e-3))) < MASK_LOG
        use = mask if mask.sum() >= 0.3 * th * tw else np.ones_like(mask)  # (too much masked: all)
        start = np.array([[1, 0, mp], [0, 1, mp], [0, 0, 1]], np.float32)
        if motion == cv2.MOTION_AFFINE:
            start = start[:2].copy()
        try:
            _, found = cv2.findTransformECC(_high(tmpl, sig), _high(seen, sig), start, motion,
                                            (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ITERATIONS, 1e-4),
                                            use, 1)
        except cv2.error:
            return None
        w = np.asarray(found, np.float64)
        if w.shape[0] == 2:
            w = np.vstack([w, [0.0, 0.0, 1.0]])
        tmpl_to_mm = np.array([[1 / k, 0, x0 / k], [0, 1 / k, y0 / k], [0, 0, 1.0]])
        out = h @ to_mm @ w @ np.linalg.inv(tmpl_to_mm)
        return None if not np.all(np.isfinite(out)) or abs(out[2, 2]) < 1e-12 else out / out[2, 2]

    def score(self, levels: list[np.ndarray], h: np.ndarray) -> float:
        """The whole board's correlation with the print under ``h`` (both high-passed)."""
        full = (0.0, 0.0, self.size_mm[0], self.size_mm[1])
        seen, _ = self._view(levels, h, full, 0.0, K)
        high = _high(seen[:self.high.shape[0], :self.high.shape[1]], HIGHPASS_MM * K)
        a = self.high - self.high.mean()
        b = high - high.mean()
        return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-9))

    def _anchored(self, h: np.ndarray, h0: np.ndarray, mk: np.ndarray) -> bool:
        """The marker the pose came from still lies where it was found."""
        a, b = _project(h, mk), _project(h0, mk)
        side = float(np.linalg.norm(b[0] - b[2])) / np.sqrt(2)
        return bool(float(np.abs(a - b).max()) <= ANCHOR * side)

    def _moved_cells(self, h: np.ndarray, h0: np.ndarray) -> float:
        """How far ``h`` moves the board's points from ``h0``, in 20 mm squares at the board's
        scale there (a coarse grid over the whole board)."""
        gx, gy = np.meshgrid(np.linspace(0, self.size_mm[0], 7), np.linspace(0, self.size_mm[1], 5))
        pts = np.column_stack([gx.ravel(), gy.ravel()])
        a, b = _project(h, pts), _project(h0, pts)
        step = np.linalg.norm(_project(h0, pts + [20.0, 0.0]) - b, axis=1)
        return float((np.linalg.norm(a - b, axis=1) / np.maximum(step, 1e-6)).max())


def _high(img: np.ndarray, sigma: float) -> np.ndarray:
    out: np.ndarray = img - cv2.GaussianBlur(img, (0, 0), sigma)
    return out


def _project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    out: np.ndarray = cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)
    return out


def _pyramid(gray: np.ndarray) -> list[np.ndarray]:
    levels = [gray]
    while min(levels[-1].shape[:2]) >= 128:
        levels.append(cv2.pyrDown(levels[-1]))
    return levels


def camera_px_per_mm(h: np.ndarray, x: float, y: float) -> float:
    """How many image pixels one board millimetre covers at (``x``, ``y``) (board mm) under the
    homography ``h`` (board mm to image pixels): the root of its local Jacobian's determinant."""
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
    v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    jac = np.array([[h[0, 0] - u * h[2, 0], h[0, 1] - u * h[2, 1]],
                    [h[1, 0] - v * h[2, 0], h[1, 1] - v * h[2, 1]]]) / w
    return float(np.sqrt(abs(np.linalg.det(jac))))


def _warp_level(levels: list[np.ndarray], h: np.ndarray, to_mm: np.ndarray, size: tuple[int, int],
                centre: tuple[float, float], k: float) -> np.ndarray:
    """The view ``size`` whose pixels ``h @ to_mm`` takes to image pixels, sampled from the
    pyramid level with at least ``k`` pixels per board mm at ``centre`` (board mm): a far
    board's view is not aliased."""
    scale = camera_px_per_mm(h, *centre)
    level = 0
    while level + 1 < len(levels) and scale / 2 ** (level + 1) >= k:
        level += 1
    m = np.diag([0.5 ** level, 0.5 ** level, 1.0]) @ h @ to_mm
    out: np.ndarray = cv2.warpPerspective(levels[level], m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                          borderMode=cv2.BORDER_REPLICATE)
    return out
