"""Spot features: the first stage of the board reader (``vision.pieces``).

Warps the board to a top-down view at ``px_per_mm`` from the marker homography (refined by
aligning the print when some markers are hidden), normalises the light with a smooth
per-channel gain fitted on the paper margin, and gives each spot (squares sharing a polygon are
one spot) its occupancy evidence against the empty print, seen at the camera's own resolution
and, for games of figures, also in a raised plane, plus its look features. Also cuts out a
cube's top face for the arrow reading (``vision.arrows``).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.boards import Board
from vision.arrows import ARROW_SIDE, channel_mean
from vision.boardlocate import BoardPose, camera_from_homography
from vision.lens import warp_through
from vision.piece_config import PieceConfig
from vision.piece_looks import (CENTRE_WINDOW, INNER, P, WINDOW, _centre_change, _detrend, _look_features, _smooth,
                                appearance, total_evidence)
from vision.printing import render_board
from vision.printpose import PrintPose, camera_px_per_mm, needs_print_pose, print_pose
from vision.print_shift import displaced
from vision.read_fast import BoxPatches, channel_mean3
from vision.stillcam import CameraPool


def _taken(img: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """``img[ys, xs]`` of an [H, W, C] image: the flattened image's rows taken by index (the
    same values, fewer instructions than numpy's two-array indexing)."""
    if img.ndim == 3 and img.flags.c_contiguous:
        out: np.ndarray = img.reshape(-1, img.shape[2]).take(ys * img.shape[1] + xs, axis=0)
        return out
    return img[ys, xs]


def _spot_groups(board: Board) -> list[list[str]]:
    by_poly: dict[tuple[tuple[float, float], ...], list[str]] = {}
    for sid, sq in board.squares.items():
        key = tuple((round(x, 2), round(y, 2)) for x, y in sq.polygon)
        by_poly.setdefault(key, []).append(sid)
    return list(by_poly.values())


def _square_for(ids: list[str], token: str | None) -> str:
    """Which square id of a spot a token stands on (a cat on the table top, mice under it)."""
    if len(ids) == 1 or token is None:
        return ids[0]
    tops = [i for i in ids if i.startswith("top:")]
    floor = [i for i in ids if not i.startswith("top:")]
    if token.split(":")[0] == "cat" and tops:
        return tops[0]
    return floor[0] if floor else ids[0]


def comparable(board: Board, view: dict[str, str]) -> dict[str, str]:
    """An engine's board_view as the camera can see it: spot key -> look class (+ arrow)."""
    spot_of = {sid: ids[0] for ids in _spot_groups(board) for sid in ids}
    out: dict[str, str] = {}
    for sid, token in view.items():
        if sid not in spot_of:
            continue
        base = token.split(":", 1)[0]
        out[spot_of[sid]] = token if base == "cube" else appearance(token)
    return out


def print_refs(ep: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The references ``SpotFeatures._scores`` compares spots with, from the empty print's
    patches ``ep`` ([N, P, P, 3]): detrended grey, its windowed norm, and the looks."""
    eg0 = _detrend(_smooth(channel_mean3(ep)))
    return eg0, np.sqrt((WINDOW * eg0 ** 2).sum(axis=(1, 2))) + 1e-6, _look_features(ep[:, INNER, INNER])


class SpotFeatures:
    """A board's spots and their per-frame evidence (the base of ``vision.pieces.BoardReader``)."""

    def __init__(self, board: Board, config: PieceConfig) -> None:
        self.board = board
        self.config = cfg = config
        s = cfg.px_per_mm
        self.size = (int(round(board.width_mm * s)), int(round(board.height_mm * s)))
        hi = render_board(board, s * 2, markers=True)
        empty = cv2.resize(hi, self.size, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        self.empty = empty
        self.groups = _spot_groups(board)
        self.observable = [g[0] for g in self.groups]
        # Chop! Chop!'s holes always hold a mouse or an opened hole slab: never read as empty.
        holes = set(board.region("holes")) if board.game == "chopchop" else set()
        self._never_empty = np.array([bool(holes & set(g)) for g in self.groups], bool)
        self.boxes: list[tuple[int, int, int, int]] = []
        for ids in self.groups:
            poly = np.asarray(board.squares[ids[0]].polygon) * s
            x0, y0 = np.floor(poly.min(axis=0)).astype(int)
            x1, y1 = np.ceil(poly.max(axis=0)).astype(int)
            x0, y0 = max(x0, 0), max(y0, 0)
            x1, y1 = min(x1, self.size[0]), min(y1, self.size[1])
            self.boxes.append((int(x0), int(y0), int(max(x1, x0 + 2)), int(max(y1, y0 + 2))))
        self._box_patches = BoxPatches(self.boxes, P)
        self.empty_patches = self._patches(empty)
        eg = _smooth(channel_mean3(self.empty_patches))
        self._eg0 = _detrend(eg)
        self._eg_norm = np.sqrt((WINDOW * self._eg0 ** 2).sum(axis=(1, 2))) + 1e-6
        self._e_struct = self._eg_norm
        self.empty_looks = _look_features(self.empty_patches[:, INNER, INNER])
        self._ecc_template: np.ndarray | None = None
        self._print_poses: dict[tuple[int, ...], PrintPose] = {}
        self._ecc_high = self._ecc_blur = np.zeros((1, 1), np.float32)
        self._empty_cache: dict[float, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        self._lifts: tuple[BoardPose | None, dict[tuple[tuple[int, int], float], np.ndarray]] = (None, {})
        self._camera_pool = CameraPool()  # _lift's camera, pooled over a still camera's views (vision.stillcam)
        # White paper outside every square and marker: the photometric reference.
        ref = np.all(empty > 0.93, axis=2).astype(np.uint8)
        block = np.zeros_like(ref)
        for sq in board.squares.values():
            cv2.fillPoly(block, [np.int32(np.asarray(sq.polygon) * s).reshape(-1, 1, 2)], 1)
        for m in (m for layout in (board.markers, *board.older_markers) for m in layout):  # any print's
            x, y = int(m.x_mm * s), int(m.y_mm * s)
            side = int(m.size_mm * s)
            block[max(y - 4, 0):y + side + 4, max(x - 4, 0):x + side + 4] = 1
        block = cv2.dilate(block, np.ones((int(3 * s) | 1, int(3 * s) | 1), np.uint8))
        ys, xs = np.nonzero(ref & (1 - block))
        if len(xs) > 4000:
            pick = np.random.default_rng(0).choice(len(xs), 4000, replace=False)
            ys, xs = ys[pick], xs[pick]
        self._ref_xy = (ys, xs)
        self._ref_basis = self._basis(xs.astype(np.float64), ys.astype(np.float64))
        centres = np.array([[(b[0] + b[2]) / 2, (b[1] + b[3]) / 2] for b in self.boxes])
        self._spot_centres_px = centres
        self._spot_basis = self._basis(centres[:, 0], centres[:, 1])
        sides = [min(np.ptp(np.asarray(board.squares[g[0]].polygon), axis=0)) for g in self.groups]
        self.cell_mm = float(np.median(sides)) if sides else 20.0

    # -- geometry and photometry --------------------------------------------------------------

    def _basis(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        u = x / self.size[0] - 0.5
        v = y / self.size[1] - 0.5
        return np.column_stack([np.ones_like(u), u, v, u * u, u * v, v * v])

    def _patches(self, img: np.ndarray) -> np.ndarray:
        """Each spot's box of a top-down view resized to P x P (INTER_AREA), [N, P, P, 3]
        float32 (cut by ``vision.read_fast.BoxPatches``: the same numbers as box by box)."""
        return self._box_patches.cut(img)

    def warp(self, image: np.ndarray, pose: BoardPose, lift: np.ndarray | None = None) -> np.ndarray:
        """Top-down view at px_per_mm; ``lift`` (3x3, board mm -> board mm) reads a raised plane."""
        s = self.config.px_per_mm
        h, lens = pose.sampling()  # through the lens when the pose has one
        m = h @ (lift if lift is not None else np.eye(3)) @ np.diag([1 / s, 1 / s, 1.0])
        return warp_through(image, m, lens, self.size)

    def _gain(self, warped: np.ndarray) -> np.ndarray:
        """Coefficients of the smooth per-channel light (fitted on the paper margin), [6, 3]."""
        ys, xs = self._ref_xy
        if len(xs) < 30:
            g = np.median(warped.reshape(-1, 3), axis=0) + 1e-3
            coef = np.zeros((6, 3))
            coef[0] = g
            return coef
        vals = _taken(warped, ys, xs).astype(np.float64)
        basis = self._ref_basis
        rows: np.ndarray | None = None  # every reference pixel
        coef = np.zeros((basis.shape[1], 3))
        for _ in range(3):
            # the kept rows taken by index (the same values as by a boolean mask, fewer instructions)
            coef, *_ = np.linalg.lstsq(basis if rows is None else basis.take(rows, axis=0),
                                       vals if rows is None else vals.take(rows, axis=0), rcond=None)
            pred = basis @ coef
            ratio = (vals / np.maximum(pred, 1e-3)).mean(axis=1)
            rows = np.flatnonzero((ratio > 0.85) & (ratio < 1.2))
            if len(rows) < 30:
                break
        return coef

    # -- features -------------------------------------------------------------------------------

    def _scores(self, patches: np.ndarray, eg0: np.ndarray, eg_norm: np.ndarray,
                empty_looks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Occupancy evidence [N, 4] (structure, chroma, brightness, spread) and looks [N, 4]."""
        cfg = self.config
        wg0 = _detrend(_smooth(channel_mean3(patches)))
        ncc = (WINDOW * wg0 * eg0).sum(axis=(1, 2)) / (
            np.sqrt((WINDOW * wg0 ** 2).sum(axis=(1, 2))) * eg_norm + 1e-6)
        looks = _look_features(patches[:, INNER, INNER])
        d_chroma = np.abs(looks[:, :2] - empty_looks[:, :2]).sum(axis=1)
        d_bright = looks[:, 2] - empty_looks[:, 2]
        flat_scale = cfg.flat_structure.get(self.board.game)
        if flat_scale:
            # a plain printed square has no structure to compare with: what the spot's middle
            # shows (edges, shading: a white pawn's rim on a light square) counts instead
            energy = np.sqrt((CENTRE_WINDOW * wg0 ** 2).sum(axis=(1, 2))) / (patches.mean(axis=(1, 2, 3)) + 0.05)
            struct_score = np.where(eg_norm >= 0.03, (1 - ncc) / cfg.ncc_scale, energy / flat_scale)
        else:
            struct_score = np.where(eg_norm >= 0.03, (1 - ncc) / cfg.ncc_scale, 0.0)
        bright_score = np.maximum(-d_bright / cfg.dark_scale, d_bright / cfg.light_scale)
        spread_score = np.maximum((looks[:, 3] - empty_looks[:, 3]) / cfg.spread_scale,
                                  (empty_looks[:, 3] - looks[:, 3]) / cfg.hidden_scale)
        return np.column_stack([struct_score, d_chroma / cfg.chroma_scale, bright_score, spread_score]), looks

    def _lift(self, pose: BoardPose, image_size: tuple[int, int], z_mm: float) -> np.ndarray:
        """Board mm of the plane ``z_mm`` up -> the board mm where it is seen (scaling about
        the point below the camera, estimated from the pose); worked out once for a pose (the
        frame's: ``cube_top`` asks for every cube)."""
        if self._lifts[0] is not pose:
            self._lifts = (pose, {})
        lift = self._lifts[1].get((image_size, z_mm))
        if lift is None:
            pooled = self.board.game in self.config.pooled_lift  # vision.stillcam
            cam = (self._camera_pool.camera(self, pose, image_size) if pooled
                   else camera_from_homography(pose.sampling()[0], image_size))  # a lens's pinhole camera
            k = cam.plane_scale(z_mm)
            fx, fy = cam.foot
            lift = np.array([[k, 0, (1 - k) * fx], [0, k, (1 - k) * fy], [0, 0, 1.0]])
            self._lifts[1][(image_size, z_mm)] = lift
        return lift

    def _gain_at(self, lift_px: np.ndarray, coef: np.ndarray, spots: list[int] | None = None) -> np.ndarray:
        """The fitted light (``coef``: ``_gain``'s) at the spots (all, or ``spots``) seen in a
        plane whose board pixels ``lift_px`` (3x3) maps to where they show, at least 0.05."""
        return self._gain_seen(lift_px, coef, spots)[0]

    def _gain_seen(self, lift_px: np.ndarray, coef: np.ndarray,
                   spots: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``_gain_at``'s gain, and where each spot's centre shows in that plane (board pixels)."""
        centres = self._spot_centres_px if spots is None else self._spot_centres_px[spots]
        ctr = (centres @ lift_px[:2, :2].T) + lift_px[:2, 2]
        gain: np.ndarray = np.maximum(self._basis(ctr[:, 0], ctr[:, 1]) @ coef, 0.05).astype(np.float32)
        return gain, ctr

    def looks_at(self, image: np.ndarray, pose: BoardPose, z_mm: float,
                 spots: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The looks of ``spots`` in the plane ``z_mm`` up, and the empty print's there (looks
        [len(spots), 4]), lit as the last frame read (``features`` first). Each spot's patch is
        warped on its own (twice its side, then averaged down, as ``_patches`` does)."""
        s = self.config.px_per_mm
        lift = self._lift(pose, (image.shape[1], image.shape[0]), z_mm)
        lift_px = np.diag([s, s, 1.0]) @ lift @ np.diag([1 / s, 1 / s, 1.0])
        pinhole, lens = pose.sampling()  # through the lens when the pose has one
        to_image = pinhole @ lift @ np.diag([1 / s, 1 / s, 1.0])
        seen = np.empty((len(spots), P, P, 3), np.float32)
        empty = np.empty_like(seen)
        for k, i in enumerate(spots):
            x0, y0, x1, y1 = self.boxes[i]
            sx, sy = (x1 - x0) / (2 * P), (y1 - y0) / (2 * P)  # output pixel centres on the box's
            box = np.array([[sx, 0, x0 + sx / 2 - 0.5], [0, sy, y0 + sy / 2 - 0.5], [0, 0, 1.0]])
            crop = warp_through(image, to_image @ box, lens, (2 * P, 2 * P))
            seen[k] = cv2.resize(crop, (P, P), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
            e = cv2.warpAffine(self.empty, (lift_px @ box)[:2], (2 * P, 2 * P),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
            empty[k] = cv2.resize(e, (P, P), interpolation=cv2.INTER_AREA)
        seen /= self._gain_at(lift_px, self._last_coef, spots)[:, None, None, :]
        return _look_features(seen[:, INNER, INNER]), _look_features(empty[:, INNER, INNER])

    def features(self, image: np.ndarray, pose: BoardPose) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(occupancy score per spot, look features per spot, normalised patches)."""
        warped = self.warp(image, pose).astype(np.float32) / 255
        coef = self._gain(warped)
        gain = np.maximum(self._spot_basis @ coef, 0.05).astype(np.float32)
        patches = self._patches(warped) / gain[:, None, None, :]
        self._last_warped = warped
        self._last_gain = gain
        self._last_coef = coef
        self._last_image_size = (image.shape[1], image.shape[0])
        empty, eg0_b, egn_b, elooks_b, ep_b = self._empty_at(self._camera_px_per_mm(pose))
        self._last_look_empty = elooks_b  # the empty print's looks where looks are read (raised plane: below)
        self._last_patches, self._last_empty_patches = patches, ep_b
        scores, looks = self._scores(patches, eg0_b, egn_b, elooks_b)
        if (shift_mm := self.config.print_shift.get(self.board.game)) is not None:  # vision.print_shift
            occ = np.nonzero((total_evidence(scores, self.config.combine) >= 1) & ~self._never_empty)[0]
            scores = displaced(warped, empty, patches, scores, self.boxes, occ,
                               int(np.ceil(shift_mm * self.config.px_per_mm)), self.config.ncc_scale, self.config.combine)
        self.last_base_scores = scores
        frac = self.config.top_plane.get(self.board.game)
        if frac:
            # the same spots read in a raised plane, against the empty print seen there
            lift = self._lift(pose, self._last_image_size, frac * self.cell_mm)
            top = self.warp(image, pose, lift).astype(np.float32) / 255
            s = self.config.px_per_mm
            lift_px = np.diag([s, s, 1.0]) @ lift @ np.diag([1 / s, 1 / s, 1.0])
            e_top = cv2.warpAffine(empty, lift_px[:2], self.size,
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
            tpatches = self._patches(top) / self._gain_at(lift_px, coef)[:, None, None, :]
            ep = self._patches(e_top)
            eg0, eg_norm, t_empty_looks = print_refs(ep)
            tscores, tlooks = self._scores(tpatches, eg0, eg_norm, t_empty_looks)
            self._last_look_empty = t_empty_looks
            self.last_centre = _centre_change(tpatches, ep)
            self._last_top_patches, self._last_top_empty = tpatches, ep
            self.last_top_scores = tscores
            # occupied only when something is there in both planes; look read up there
            top_any = total_evidence(tscores, self.config.combine, keepdims=True)
            scores = np.minimum(scores, top_any * self.config.top_weight)
            looks = tlooks
        else:
            self.last_centre = np.full(len(self.groups), np.nan)
        self.last_scores = scores
        self.last_scores[self._never_empty] = np.maximum(self.last_scores[self._never_empty], 9.0)
        score = total_evidence(self.last_scores, self.config.combine)
        return score, looks, patches

    def refine(self, image: np.ndarray, pose: BoardPose, gray: np.ndarray | None = None) -> BoardPose:
        """A pose fitted on fewer than all markers (a hand over some), refined by aligning the
        printed board itself (its lines, edges and markers) with the empty print (ECC,
        homography). Both are high-passed (smooth light and soft shadows go, the print's lines
        stay) and places that differ from the print as a whole (pieces, a hand, a hard shadow:
        seen in a blurred comparison, which thin misaligned lines hardly change) are masked
        out, so they cannot pull the board. Kept only when the alignment converges, improves
        and moves no square by ``refine_max_cells`` or more (``refine_sure_cells`` when the
        correlation rises by ``refine_sure_gain``). ``gray``: the image in grey when
        the caller has it already."""
        cfg = self.config
        if pose.homography is None or len(pose.used) >= len(self.board.markers) or not cfg.refine:
            return pose
        if gray is None:
            gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        if needs_print_pose(pose, len(self.board.markers)):  # one marker: the print's pose first
            pose = print_pose(self.board, self._print_poses, gray, pose)
        k = cfg.refine_px_per_mm
        size = (int(self.board.width_mm * k), int(self.board.height_mm * k))
        to_px = np.diag([k, k, 1.0])
        h0, lens = pose.sampling()
        m = h0 @ np.linalg.inv(to_px)
        seen = warp_through(gray, m, lens, size, cv2.INTER_AREA).astype(np.float32) / 255
        sigma = cfg.refine_highpass_mm * k
        if self._ecc_template is None:
            e = cv2.resize(self.empty, size, interpolation=cv2.INTER_AREA)
            t = cv2.cvtColor(e, cv2.COLOR_BGR2GRAY).astype(np.float32)
            self._ecc_template = t
            self._ecc_high = t - cv2.GaussianBlur(t, (0, 0), sigma)
            self._ecc_blur = np.maximum(cv2.GaussianBlur(t, (0, 0), 2 * sigma * 0.75), 0.05)
        blur = cv2.GaussianBlur(seen, (0, 0), 2 * sigma * 0.75)
        ratio = np.asarray(blur, np.float32) / self._ecc_blur
        ratio /= float(np.median(ratio)) + 1e-6
        mask = (np.abs(np.log(np.maximum(ratio, 1e-3))) < cfg.refine_mask_log).astype(np.uint8)
        high = seen - cv2.GaussianBlur(seen, (0, 0), sigma)
        warp = np.eye(3, dtype=np.float32)
        try:
            cc0 = float(cv2.computeECC(self._ecc_high, high, mask))
            cc, found = cv2.findTransformECC(self._ecc_high, high, warp, cv2.MOTION_HOMOGRAPHY,
                                             (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT,
                                              cfg.refine_iterations, 1e-4), mask, 1)
            warp = np.asarray(found, np.float32)
        except cv2.error:
            return pose
        spots = (self._spot_centres_px / cfg.px_per_mm * k).reshape(-1, 1, 2)
        moved = float(np.abs(cv2.perspectiveTransform(spots, warp.astype(np.float64)) - spots).max()) / k
        most = cfg.refine_sure_cells if cc >= cc0 + cfg.refine_sure_gain else cfg.refine_max_cells
        if not np.isfinite(cc) or cc < cc0 + 0.005 or moved > most * self.cell_mm:
            return pose
        fix = np.linalg.inv(to_px) @ warp.astype(np.float64) @ to_px  # board mm -> board mm
        assert pose.homography is not None
        h = pose.homography @ fix
        pin = None if pose.pinhole is None else pose.pinhole @ fix / (pose.pinhole @ fix)[2, 2]
        return BoardPose(True, h / h[2, 2], pose.markers, pose.used, pose.error_px, pose.confidence,
                         pose.kept, pose.corners, pose.lens, pin, pose.doubtful)

    def _camera_px_per_mm(self, pose: BoardPose) -> float:
        """How many camera pixels one board millimetre covers, around the middle of the board."""
        assert pose.homography is not None
        return camera_px_per_mm(pose.homography, self.board.width_mm / 2, self.board.height_mm / 2)

    def _empty_at(self, cam_px_per_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The empty print as a camera this coarse sees it (sampled at its resolution), and its
        patch references: a far-away board is compared with an equally blurred print."""
        f = cam_px_per_mm / self.config.px_per_mm
        if f >= 0.85:
            return self.empty, self._eg0, self._eg_norm, self.empty_looks, self.empty_patches
        key = round(max(f, 0.2), 1)
        hit = self._empty_cache.get(key)
        if hit is None:
            small = cv2.resize(self.empty, (max(8, int(self.size[0] * key)), max(8, int(self.size[1] * key))),
                               interpolation=cv2.INTER_AREA)
            empty = cv2.resize(small, self.size, interpolation=cv2.INTER_LINEAR)
            ep = self._patches(empty)
            hit = (empty, *print_refs(ep), ep)
            self._empty_cache[key] = hit
        return hit

    def cube_top(self, image: np.ndarray, pose: BoardPose, i: int, side: int = ARROW_SIDE) -> np.ndarray:
        """Grey top-down view of spot ``i`` in the plane of a cube's top face ([side, side])."""
        cell = self.cell_mm
        lift = self._lift(pose, (image.shape[1], image.shape[0]), self.config.cube_top * cell)
        x0, y0, x1, y1 = self.boxes[i]
        s = self.config.px_per_mm
        cx, cy = (x0 + x1) / 2 / s, (y0 + y1) / 2 / s
        span = cell * 1.0
        to_mm = np.array([[span / side, 0, cx - span / 2], [0, span / side, cy - span / 2], [0, 0, 1.0]])
        h, lens = pose.sampling()
        crop = warp_through(image, h @ lift @ to_mm, lens, (side, side), cv2.INTER_AREA)
        return channel_mean(crop.astype(np.float32)) / 255
