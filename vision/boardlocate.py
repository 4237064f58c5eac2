"""Where the board is in a camera image: ArUco markers -> homography board mm -> pixels.

    locate_board(image, board, config=None) -> BoardPose
    BoardTracker(board).update(image) -> BoardPose   (keeps the last good pose through occlusions)

Every visible marker of the board gives 4 point correspondences (its corners in board mm and in
pixels). One marker is enough for a homography; with more, the homography is fitted to all
corners by least squares inside RANSAC, so one badly detected marker cannot pull it off.
Markers of other boards (other ids) are ignored. A board reprinted with its markers moved
(``Board.older_markers``: Qubism's before November 2026) is found in either print: the ids
seen pick the layout (``Board.printed_as``), whose marker positions give the pose. The pose
reports which markers were used, the reprojection error in pixels and a confidence in [0, 1].

The tracker keeps the last good pose while markers are hidden (a hand over one corner) as long
as the markers still visible agree with it (the board has not moved), and refits from scratch
whenever all markers are visible or the visible ones disagree with the old pose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.boards import Board
from vision.errors import InvalidImageError, VisionError
from vision.lens import Lens
from vision.markerlook import look_for
from vision.printing import aruco_dictionary


ASKED = 0.5
"""A doubtful pose's squares are read at most at this confidence (under the reader's threshold:
the players are asked)."""


class BoardNotFound(VisionError):
    """No marker of the board is visible, so the board cannot be located."""


@dataclass(frozen=True)
class LocateConfig:
    detect_scale: float = 0.5
    """Detect on the image resized by this factor first (corners refined at full size); when
    not every marker is found there, detect again at full size."""
    ransac_px: float = 8.0
    max_error_px: float = 4.0
    """Reprojection error (px, RMS) above which the pose is not trusted."""
    upscale: float = 1.5
    """When markers are missing and those found are small, detect again on the image enlarged
    this much (small, blurred markers are found there)."""
    small_marker_px: float = 40.0
    moved_px: float = 6.0
    """A visible marker this far from where the kept pose puts it means the board moved."""
    max_lens: float = 0.6
    """Strongest radial lens distortion (division-model coefficient, radii in image widths)
    that may explain markers a homography alone does not fit (see ``_lens_pose``)."""
    sharpen: float = 2.0
    """When fewer than two markers are found, detect again on the frame sharpened (unsharp
    mask of this sigma, px; 0: never): a blurred camera's markers."""
    open_px: tuple[int, ...] = (3, 5)
    """While fewer than two markers are found still, detect again on the frame opened over
    squares of each of these sides in turn (px; empty: never): markers crossed by thin light
    lines (``_opened_markers``)."""
    guided: bool = True
    """When markers are still missing and at least two were found, look for each missing one
    where the others' pose puts it, in a top-down view of that corner (``_guided``)."""
    guided_px_per_cell: float = 10.0
    """Pixels per marker cell of that top-down view."""
    guided_margin: float = 1.0
    """The view reaches this many marker sides beyond the marker on every side."""
    near_margin: float | None = 1.0
    """The full-size pass after markers were missed at ``detect_scale``, when two or more were
    found there, looks only this many marker sides (plus ``near_px``) around where their pose
    puts each marker (``_near_markers``; None: the whole frame)."""
    near_px: float = 24.0


@dataclass
class BoardPose:
    found: bool
    homography: np.ndarray | None = None
    """3x3, board millimetres -> image pixels."""
    markers: tuple[int, ...] = ()
    """Ids of the markers seen in this image."""
    used: tuple[int, ...] = ()
    """Ids of the markers the homography was fitted to (or checked against when kept)."""
    error_px: float = float("inf")
    confidence: float = 0.0
    kept: bool = False
    """True when the tracker kept an earlier pose because markers were hidden."""
    corners: dict[int, np.ndarray] = field(default_factory=dict)
    lens: Lens | None = None
    """The lens's radial distortion when the markers needed one (``_lens_pose``), else None."""
    pinhole: np.ndarray | None = None
    """With ``lens``: 3x3, board millimetres -> pinhole pixels (``homography`` is then the
    homography closest to the lens over the play area)."""
    doubtful: bool = False
    """One marker's pose that the print did not confirm (``vision.printpose``): the reader asks."""

    def sampling(self) -> tuple[np.ndarray, Lens | None]:
        """How to cut views of the board from the image: (3x3 board mm -> pixels, lens or
        None); through the lens when the pose has one (``vision.lens.warp_through``)."""
        if self.lens is not None and self.pinhole is not None:
            return self.pinhole, self.lens
        if self.homography is None:
            raise BoardNotFound("the board was not found in this image")
        return self.homography, None

    def project(self, pts_mm: np.ndarray) -> np.ndarray:
        """Board mm [n, 2] -> image pixels, through the lens when the pose has one."""
        h, lens = self.sampling()
        p = cv2.perspectiveTransform(np.asarray(pts_mm, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)
        return p if lens is None else lens.distort(p)

    def to_pixels(self, pts_mm: np.ndarray) -> np.ndarray:
        if self.homography is None:
            raise BoardNotFound("the board was not found in this image")
        p = np.asarray(pts_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(p, self.homography).reshape(-1, 2)

    def doubted(self, squares: dict[str, tuple[str | None, float]]) -> dict[str, tuple[str | None, float]]:
        """A reading's squares (id -> (token, confidence)), each at most at ``ASKED`` when this
        pose is doubtful."""
        if not self.doubtful:
            return squares
        return {sid: (token, min(conf, ASKED)) for sid, (token, conf) in squares.items()}

    def summary(self) -> dict[str, object]:
        return {
            "found": self.found,
            "markers": list(self.markers),
            "used": list(self.used),
            "error_px": None if not np.isfinite(self.error_px) else round(float(self.error_px), 3),
            "confidence": round(float(self.confidence), 3),
            "kept": self.kept,
            "doubtful": self.doubtful,
        }


_DETECTORS: dict[str, cv2.aruco.ArucoDetector] = {}


def _detector(name: str) -> cv2.aruco.ArucoDetector:
    det = _DETECTORS.get(name)
    if det is None:
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        params.cornerRefinementWinSize = 4
        # each cell's bit read from its middle (8 px a cell, 30 % of it left out on every
        # side), not from 4 nearest pixels reaching to the cell's edges: blurred, noisy or
        # lens-bent markers were seen as quads but their bits read wrong (second 3-D family:
        # 75 % -> 95 % of the visible markers found on the full frame; no false marker)
        params.perspectiveRemovePixelPerCell = 8
        params.perspectiveRemoveIgnoredMarginPerCell = 0.3
        det = cv2.aruco.ArucoDetector(aruco_dictionary(name), params)
        _DETECTORS[name] = det
    return det


def as_gray(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.size == 0 or image.ndim not in (2, 3):
        raise InvalidImageError("expected a non-empty grey or BGR image array")
    if image.dtype != np.uint8:
        raise InvalidImageError(f"expected an 8-bit image, got {image.dtype}")
    if image.ndim == 3:
        if image.shape[2] == 4:
            return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return image


def _take(found: dict[int, np.ndarray], wanted: set[int], corners: Any, ids: Any, scale: float = 1.0,
          better: bool = False) -> None:
    """Add a detection pass's markers of ``wanted`` ids (corners divided by ``scale``) to
    ``found``; with ``better`` its corners replace those of an earlier, coarser pass. An id
    the pass saw twice is taken from neither place (a piece's print read as a marker: which
    one is the board's is for another pass to say)."""
    if ids is None:
        return
    seen = [int(i) for i in np.asarray(ids).ravel()]
    for c, i in zip(corners, seen):
        if i in wanted and seen.count(i) == 1 and (better or i not in found):
            found[i] = np.asarray(c, np.float64).reshape(4, 2) / scale


def detect_markers(image: np.ndarray, board: Board, config: LocateConfig | None = None
                   ) -> dict[int, np.ndarray]:
    """Marker id -> its 4 corners in pixels (TL, TR, BR, BL), for this board's markers only."""
    cfg = config or LocateConfig()
    gray = as_gray(image)
    det = _detector(board.aruco)
    wanted = set(board.marker_ids)
    found: dict[int, np.ndarray] = {}

    def missing() -> bool:
        return len(found) < len(board.printed_as(found).markers)

    if cfg.detect_scale != 1.0 and min(gray.shape) * cfg.detect_scale >= 240:
        small = cv2.resize(gray, None, fx=cfg.detect_scale, fy=cfg.detect_scale,
                           interpolation=cv2.INTER_AREA)
        corners, ids, _ = det.detectMarkers(small)
        if ids is not None and len(corners):
            pts = np.concatenate([c.reshape(-1, 2) for c in corners]) / cfg.detect_scale
            pts = pts.astype(np.float32).reshape(-1, 1, 2)
            cv2.cornerSubPix(gray, pts, (5, 5), (-1, -1),
                             (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.05))
            corners = [pts[4 * i:4 * i + 4].reshape(1, 4, 2) for i in range(len(corners))]
        _take(found, wanted, corners, ids)
        if missing():
            # at full size; what only the small image showed is kept (it was dropped before)
            corners, ids, _ = det.detectMarkers(_near_markers(gray, board, found, cfg))
            _take(found, wanted, corners, ids, better=True)
    else:
        corners, ids, _ = det.detectMarkers(gray)
        _take(found, wanted, corners, ids)
    if missing() and cfg.upscale > 1 and not (cfg.guided and len(found) >= 2):
        # (with two markers or more the guided look below enlarges the missing ones instead,
        # where they should be, for a fraction of this pass's time)
        sides = [float(np.linalg.norm(c[0] - c[2])) / np.sqrt(2) for c in found.values()]
        if not sides or float(np.median(sides)) < cfg.small_marker_px:
            # a far-away board: its markers are only a few pixels per cell; look closer
            big = cv2.resize(gray, None, fx=cfg.upscale, fy=cfg.upscale, interpolation=cv2.INTER_CUBIC)
            corners, ids, _ = det.detectMarkers(big)
            _take(found, wanted, corners, ids, cfg.upscale)
    if len(found) < 2 and cfg.sharpen > 0:
        # too few markers to look for the others by: a blurred frame, its edges sharpened
        soft = cv2.GaussianBlur(gray, (0, 0), cfg.sharpen)
        corners, ids, _ = det.detectMarkers(cv2.addWeighted(gray, 2.0, soft, -1.0, 0))
        _take(found, wanted, corners, ids)
    for side in cfg.open_px:
        if len(found) >= 2:
            break
        found.update(_opened_markers(gray, det, wanted, found, side))
    if cfg.guided and len(found) >= 2 and missing():
        found.update(_guided(gray, board, found, cfg))
    return found


def _opened_markers(gray: np.ndarray, det: cv2.aruco.ArucoDetector, wanted: set[int],
                    found: dict[int, np.ndarray], open_px: int) -> dict[int, np.ndarray]:
    """Markers crossed by thin light lines (an inkjet's banding, a crease's or a laminate's
    glint): the lines cut a marker's dark border and cells, so no quad outline is closed. A
    grey opening of ``open_px`` (a minimum then a maximum over that square) removes light lines
    thinner than it and keeps every larger light shape (a marker's white cells and margin) and
    its edges where they were; the markers are detected there, those not in ``found`` returned."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (open_px, open_px))
    corners, ids, _ = det.detectMarkers(cv2.morphologyEx(gray, cv2.MORPH_OPEN, kernel))
    out: dict[int, np.ndarray] = {}
    _take(out, wanted - set(found), corners, ids)
    return out


def _near_markers(gray: np.ndarray, board: Board, found: dict[int, np.ndarray], cfg: LocateConfig) -> np.ndarray:
    """``gray`` where the board's markers can be, white elsewhere, when two or more markers
    ``found`` already fix the pose (else ``gray`` itself): around each marker of the layout,
    where that pose puts it, ``near_margin`` marker sides and ``near_px`` pixels more on every
    side (the detector's thresholds, outlines and corner refinement there see what they saw in
    the whole frame, at the same pixels). The detector's time goes mostly to the candidates of
    a busy frame (pieces, a hand, the table's edges), which it then no longer sees."""
    if cfg.near_margin is None or len(found) < 2:
        return gray
    pose = fit_pose(board, found, cfg, (int(gray.shape[1]), int(gray.shape[0])))
    if not pose.found or pose.homography is None:
        return gray
    out = np.full_like(gray, 255)
    h, w = gray.shape[:2]
    for m in board.printed_as(found).markers:
        px = pose.project(np.array(m.corners(), np.float64))
        if not np.all(np.isfinite(px)):
            return gray
        side = float(np.linalg.norm(px[0] - px[2])) / np.sqrt(2)
        pad = cfg.near_margin * side + cfg.near_px
        x0, y0 = np.floor(px.min(axis=0) - pad)
        x1, y1 = np.ceil(px.max(axis=0) + pad)
        x0, y0, x1, y1 = int(max(x0, 0)), int(max(y0, 0)), int(min(x1, w)), int(min(y1, h))
        if x1 > x0 and y1 > y0:
            out[y0:y1, x0:x1] = gray[y0:y1, x0:x1]
    return out


def _guided(gray: np.ndarray, board: Board, found: dict[int, np.ndarray], cfg: LocateConfig
            ) -> dict[int, np.ndarray]:
    """The missing markers of ``found``'s layout, each looked for where the pose of those
    found puts it (``vision.markerlook.look_for``): that corner of the board cut as a top-down
    view at ``guided_px_per_cell`` through the pose's lens (tilt, distance and the lens's bend
    taken out, a small marker enlarged), only the marker expected there taken. (A marker seen
    at a steep angle, small, blurred, or shaded across, that no whole-frame pass decodes.)"""
    pose = fit_pose(board, found, cfg, (int(gray.shape[1]), int(gray.shape[0])))
    if not pose.found or pose.homography is None:
        return {}
    to_pinhole, lens = pose.sampling()
    det = _detector(board.aruco)
    out: dict[int, np.ndarray] = {}
    for m in board.printed_as(found).markers:
        if m.id in found:
            continue
        pts = look_for(gray, np.array(m.corners(), np.float64), to_pinhole, lens, m.id, det,
                       aruco_dictionary(board.aruco), cfg)
        if pts is not None:
            out[m.id] = pts
    return out


def _correspondences(board: Board, seen: dict[int, np.ndarray], ids: list[int]
                     ) -> tuple[np.ndarray, np.ndarray]:
    by_id = {m.id: m for m in board.markers}
    src = np.array([pt for i in ids for pt in by_id[i].corners()], np.float64)
    dst = np.concatenate([seen[i] for i in ids])
    return src, dst


def marker_drift(pose: BoardPose, board: Board, seen: dict[int, np.ndarray]) -> float:
    """RMS, in pixels, of the markers' corners ``seen`` from where ``pose`` puts them: the camera
    has not moved while it is within ``LocateConfig.moved_px``."""
    src, dst = _correspondences(board, seen, sorted(seen))
    return float(np.sqrt(np.mean(np.sum((pose.project(src) - dst) ** 2, axis=1))))


def _rms(h: np.ndarray, src: np.ndarray, dst: np.ndarray) -> float:
    proj = cv2.perspectiveTransform(src.reshape(-1, 1, 2), h).reshape(-1, 2)
    return float(np.sqrt(np.mean(np.sum((proj - dst) ** 2, axis=1))))


def _confidence(n_markers: int, total: int, error_px: float, cfg: LocateConfig) -> float:
    if n_markers == 0 or not np.isfinite(error_px):
        return 0.0
    coverage = {1: 0.6, 2: 0.85, 3: 0.95}.get(n_markers, 1.0) if total >= 4 else 1.0
    return float(max(0.0, coverage * (1.0 - min(1.0, error_px / (2 * cfg.max_error_px)))))


def fit_pose(board: Board, seen: dict[int, np.ndarray], config: LocateConfig | None = None,
             image_size: tuple[int, int] | None = None) -> BoardPose:
    """Fit the homography to the markers seen (marker id -> 4 pixel corners), in the marker
    layout those ids belong to (an older print's too). With ``image_size`` (width, height),
    three or more markers that no homography fits within ``max_error_px`` are tried once more
    through one radial lens distortion about the image centre (``_lens_pose``)."""
    cfg = config or LocateConfig()
    board = board.printed_as(seen)
    seen = {i: c for i, c in seen.items() if i in {m.id for m in board.markers}}
    ids = sorted(seen)
    if not ids:
        return BoardPose(found=False)
    src, dst = _correspondences(board, seen, ids)
    if len(ids) == 1:
        h, _ = cv2.findHomography(src, dst, 0)
        used = ids
    else:
        h, mask = cv2.findHomography(src, dst, cv2.RANSAC, cfg.ransac_px)
        if h is None:
            return BoardPose(found=False, markers=tuple(ids), corners=seen)
        inl = mask.ravel().reshape(-1, 4).sum(axis=1) >= 3
        used = [i for i, ok in zip(ids, inl) if ok] or ids
        if len(used) < len(ids):
            s2, d2 = _correspondences(board, seen, used)
            h2, _ = cv2.findHomography(s2, d2, 0)
            if h2 is not None:
                h = h2
        else:
            h2, _ = cv2.findHomography(src, dst, 0)  # least squares on all corners
            if h2 is not None:
                h = h2
    if h is None:
        return BoardPose(found=False, markers=tuple(ids), corners=seen)
    s_used, d_used = _correspondences(board, seen, used)
    err = _rms(h, s_used, d_used)
    if (err > cfg.max_error_px or len(used) < len(ids) - 1) and image_size is not None and len(ids) >= 3:
        # A lens bends the markers off any one homography (none fits, or RANSAC keeps two of
        # four): the most markers one radial distortion explains, all or all but one (of three
        # too: a partly hidden marker with one corner off spoils the least squares that RANSAC
        # let it into). (One marker left out by RANSAC is a bad detection, as without a lens:
        # that pose stays.)
        lens = _lens_pose(board, seen, ids, image_size, cfg)
        if lens is None:
            fits = [_lens_pose(board, seen, [i for i in ids if i != j], image_size, cfg) for j in ids]
            lens = min((f for f in fits if f is not None), key=lambda f: f.error_px, default=None)
        if lens is not None:
            return lens
    conf = _confidence(len(used), len(board.markers), err, cfg)
    return BoardPose(found=err <= cfg.max_error_px, homography=h, markers=tuple(ids),
                     used=tuple(used), error_px=err, confidence=conf, corners=seen)


def _undistort(pts: np.ndarray, lam: float, centre: np.ndarray, unit: float) -> np.ndarray:
    """Division model: a pixel ``d`` of the lens looks where a pinhole shows
    ``c + (d - c) / (1 + lam |d - c|^2 / unit^2)``; lam < 0 is barrel distortion."""
    rel = (pts - centre) / unit
    out: np.ndarray = centre + (pts - centre) / (1.0 + lam * np.sum(rel * rel, axis=1, keepdims=True))
    return out


def _lens_pose(board: Board, seen: dict[int, np.ndarray], ids: list[int],
               image_size: tuple[int, int], cfg: LocateConfig) -> BoardPose | None:
    """The pose of a board seen through a lens with radial (barrel) distortion, or None.

    A cheap wide webcam bends straight lines: the markers' 4n corners then fit no homography
    within ``max_error_px`` although every one is detected right. One distortion coefficient
    about the image centre (searched in [-max_lens, max_lens]) is fitted with the homography to
    all corners; when that model fits them within ``max_error_px``, the board is there. The
    pose's homography is then the one closest to that lens model over the whole board (a grid
    of board points seen through the lens), for what needs one homography; the pose keeps the
    lens and the pinhole homography too, and views of the squares are cut through them
    (``BoardPose.sampling``); ``error_px`` is the lens model's RMS.
    """
    src, dst = _correspondences(board, seen, ids)
    centre = np.array([image_size[0] / 2.0, image_size[1] / 2.0])
    unit = float(max(image_size))

    def residual(lam: float) -> tuple[float, np.ndarray | None]:
        und = _undistort(dst, lam, centre, unit)
        h, _ = cv2.findHomography(src, und, 0)
        if h is None:
            return float("inf"), None
        return _rms(h, src, und), h

    grid = np.linspace(-cfg.max_lens, cfg.max_lens, 41)
    errs = [residual(float(g))[0] for g in grid]
    best = int(np.argmin(errs))
    lo, hi = float(grid[max(best - 1, 0)]), float(grid[min(best + 1, len(grid) - 1)])
    for _ in range(20):  # golden-section refinement inside the best grid cell
        a, b = hi - 0.618 * (hi - lo), lo + 0.618 * (hi - lo)
        if residual(a)[0] < residual(b)[0]:
            hi = b
        else:
            lo = a
    lam = 0.5 * (lo + hi)
    err, h_u = residual(lam)
    if h_u is None or not err <= cfg.max_error_px:
        return None
    # points over the play area, seen through the lens (inverse of _undistort by fixed-point
    # iteration), and the homography that best matches them there, where squares are read
    play = np.array([pt for sq in board.squares.values() for pt in sq.polygon], np.float64)
    lo_mm, hi_mm = (play.min(axis=0), play.max(axis=0)) if len(play) else (src.min(axis=0), src.max(axis=0))
    gx, gy = np.meshgrid(np.linspace(lo_mm[0], hi_mm[0], 9), np.linspace(lo_mm[1], hi_mm[1], 9))
    mm = np.column_stack([gx.ravel(), gy.ravel()])
    und = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), h_u).reshape(-1, 2)
    px = und.copy()
    for _ in range(30):
        rel = (px - centre) / unit
        px = centre + (und - centre) * (1.0 + lam * np.sum(rel * rel, axis=1, keepdims=True))
    h, _ = cv2.findHomography(mm, px, 0)
    if h is None:
        return None
    conf = _confidence(len(ids), len(board.markers), err, cfg)
    return BoardPose(found=True, homography=h, markers=tuple(sorted(seen)), used=tuple(ids),
                     error_px=err, confidence=conf, corners=seen,
                     lens=Lens(lam, float(centre[0]), float(centre[1]), unit), pinhole=h_u)


def _size(image: np.ndarray) -> tuple[int, int]:
    return int(image.shape[1]), int(image.shape[0])


def locate_board(image: np.ndarray, board: Board, config: LocateConfig | None = None) -> BoardPose:
    """Detect the board's markers and fit the pose (``found`` False when none is usable)."""
    cfg = config or LocateConfig()
    return fit_pose(board, detect_markers(image, board, cfg), cfg, _size(image))


class BoardTracker:
    """Follows one board over frames; keeps the last good pose while markers are hidden."""

    def __init__(self, board: Board, config: LocateConfig | None = None) -> None:
        self.board = board
        self.config = config or LocateConfig()
        self.pose: BoardPose | None = None
        """The last good pose (fitted or kept)."""

    def reset(self) -> None:
        self.pose = None

    def update(self, image: np.ndarray) -> BoardPose:
        seen = detect_markers(image, self.board, self.config)
        return self.update_with(seen, _size(as_gray(image)))

    def update_with(self, seen: dict[int, np.ndarray], image_size: tuple[int, int] | None = None
                    ) -> BoardPose:
        """Update from detected marker corners (what ``update`` does after detection);
        ``image_size`` (width, height) lets a distorted lens be fitted (``fit_pose``)."""
        cfg = self.config
        printed = self.board.printed_as(seen)
        if seen and printed.markers != self.board.markers:
            self.board, self.pose = printed, None  # another print of the board: start afresh
        layout = {m.id for m in self.board.markers}
        seen = {i: c for i, c in seen.items() if i in layout}
        total = len(self.board.markers)
        fresh = fit_pose(self.board, seen, cfg, image_size)
        old = self.pose
        if len(seen) == total and fresh.found:
            self.pose = fresh  # everything visible: refine from scratch
            return fresh
        if old is not None and old.homography is not None and seen:
            drift = marker_drift(old, self.board, seen)
            if drift <= cfg.moved_px and len(old.used) > len(seen):
                # Board has not moved: the old pose (fitted on more markers) stays. (Fitted on
                # no more than are seen now, the fresh fit is as good, and a one-marker pose is
                # then aligned with the print again: vision.printpose.)
                kept = BoardPose(found=True, homography=old.homography, markers=tuple(sorted(seen)),
                                 used=tuple(sorted(seen)), error_px=drift,
                                 confidence=max(old.confidence * 0.95,
                                                _confidence(len(seen), total, drift, cfg)),
                                 kept=True, corners=seen, lens=old.lens, pinhole=old.pinhole)
                return kept
        if fresh.found:
            self.pose = fresh
            return fresh
        if old is not None and not seen:
            # Nothing visible (a hand over everything, or the camera blinded): report not found
            # but keep the old pose for when the markers come back.
            return BoardPose(found=False)
        return fresh


@dataclass(frozen=True)
class CameraGuess:
    """The camera over the board, estimated from a homography (board mm -> pixels).

    ``foot`` is the point of the board plane straight below the camera (mm, board frame) and
    ``height`` its height over the board (mm). A point ``z`` mm above board point ``p`` is seen
    where the ray through it meets the board: ``foot + (p - foot) * height / (height - z)``;
    that is how far tall pieces lean in a top-down view.
    """

    focal_px: float
    foot: tuple[float, float]
    height: float

    def plane_scale(self, z: float) -> float:
        """Scale about ``foot`` that takes the plane ``z`` mm up to where it appears on the board."""
        return self.height / max(self.height - z, 1e-3)


def camera_from_homography(h: np.ndarray, image_size: tuple[int, int],
                           prior_focal: float | None = None) -> CameraGuess:
    """Estimate focal length (principal point at the image centre, square pixels) and the
    camera's position from a board homography. A nearly square-on view does not determine the
    focal length; then ``prior_focal`` (default: the image width, about a 53 degree field of
    view) is used, which matters little there because pieces then lean little either way."""
    w = image_size[0]
    f0 = float(prior_focal or w)
    # a weak prior on 1/f^2 keeps the estimate sane when the view is square-on
    return camera_at_focal(h, image_size, pooled_focal([focal_equations(h, image_size, f0)], w, f0))


def focal_equations(h: np.ndarray, image_size: tuple[int, int], f0: float | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """A homography's two linear equations ``u * w + v = 0`` in ``w = 1/f^2`` (orthogonal columns
    and equal norms of ``K^-1 H``, principal point at the image centre), scaled to about 1 at the
    prior ``f0`` (default the width; the homography's own scale drops out), so that several views
    of one camera can be pooled (``pooled_focal``)."""
    w, hgt = image_size
    shift = np.array([[1.0, 0, -w / 2], [0, 1.0, -hgt / 2], [0, 0, 1.0]])
    a = shift @ np.asarray(h, np.float64)
    a1, a2 = a[:, 0], a[:, 1]
    u = np.array([a1[0] * a2[0] + a1[1] * a2[1], a1[0] ** 2 + a1[1] ** 2 - a2[0] ** 2 - a2[1] ** 2])
    v = np.array([a1[2] * a2[2], a1[2] ** 2 - a2[2] ** 2])
    scale = float(np.abs(u).max()) / float(f0 or w) ** 2 + float(np.abs(v).max()) + 1e-18
    return u / scale, v / scale


def pooled_focal(equations: list[tuple[np.ndarray, np.ndarray]], width: int, f0: float,
                 prior_views: float = 1.0) -> float:
    """The focal length (px) that best meets the views' ``focal_equations`` together, with a weak
    prior at ``f0`` (a square-on view does not determine it) counted ``prior_views`` times,
    within 0.5-2.5 widths."""
    w_prior = 1 / f0 ** 2
    k = 0.02 / w_prior * float(np.sqrt(prior_views))  # prior weight, relative to the equations' size
    uu = sum(float(u @ u) for u, _ in equations) + k * k
    wv = (-sum(float(u @ v) for u, v in equations) + k * k * w_prior) / uu
    f = float(1 / np.sqrt(wv)) if wv > 0 else f0
    return float(np.clip(f, 0.5 * width, 2.5 * width))


def camera_at_focal(h: np.ndarray, image_size: tuple[int, int], f: float) -> CameraGuess:
    """The camera of a homography for a given focal length (px; principal point at the centre)."""
    w, hgt = image_size
    shift = np.array([[1.0, 0, -w / 2], [0, 1.0, -hgt / 2], [0, 0, 1.0]])
    kinv = np.array([[1 / f, 0, 0], [0, 1 / f, 0], [0, 0, 1.0]])
    m = kinv @ shift @ np.asarray(h, np.float64)
    lam_s = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] * lam_s, m[:, 1] * lam_s, m[:, 2] * lam_s
    if t[2] < 0:
        r1, r2, t = -r1, -r2, -t
    rot = np.column_stack([r1, r2, np.cross(r1, r2)])
    centre = -rot.T @ t
    return CameraGuess(f, (float(centre[0]), float(centre[1])), float(abs(centre[2])))
