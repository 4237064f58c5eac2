"""What stands where: per-square contents of a located board, with a confidence.

    reader = BoardReader(board)              # precomputes the empty board's look
    reader.learn(image, {"cat-start": "cat", "mouse-start": "mouse"})   # a known position
    reading = reader.read(image)             # BoardReading: found, pose, squares
    reading.squares == {square id: (token or None, confidence)}

    read_board(image, board, model=None) -> BoardReading   (one-shot; built-in piece looks)

How: the board is warped to a top-down view at ``px_per_mm`` from the marker homography. Each
spot (square; squares with the same polygon, like Chop! Chop!'s table top over the floor, are
one spot) is compared with the empty printed board rendered from the board file (blurred to the
camera's own resolution when the board is far away), after a photometric normalisation: a
smooth per-channel gain fitted on the white paper margin around the playing area. The evidence
that a spot is occupied combines (L2) structure (normalised cross-correlation with the empty
print, insensitive to light level), colour (chromaticity, insensitive to shade), brightness and
spread.

Tall pieces lean in a top-down view (away from the point below the camera). The camera is
estimated from the homography (``vision.boardlocate.camera_from_homography``: focal length and
position), so for games whose pieces are all figures (Kilkenny, Qubism) each spot is also read
in a raised plane (``top_plane`` square sides up) against the empty print as seen there: a
piece on a neighbouring square that leans over this spot does not reach up there, so both
planes must show something. Looks are read in the raised plane too (no ground, no contact
shadow). An occupied spot's token is the nearest learned piece look: looks are learned from
known positions (the start position, or any confirmed one) and fall back to built-in guesses.
A frame's readings are then checked as a whole: pieces of one kind look alike within a frame
(a frame's own looks recruit weak spots; a crowd of look-alikes read as a kind the game has
fewer of is another kind), and the game's piece set bounds what can be read (Qubism: one pawn
each, nine cubes; Kat en Muis: one cat, one mouse; a pawn, cat or mouse read nowhere is looked
for among the weak spots).
A Qubism cube's arrow is read on the cube's top face (the plane of its top, from the camera):
matched against cube tops learned from known positions, turned four ways (any glyph: arrow,
triangle, chevron, light or dark), or, with nothing learned, from the shape of the dark glyph.
Tokens are the engines' ``board_view`` tokens (mice are read as ``"mouse"``: the camera cannot
tell mice apart; ``comparable()`` maps engine views to what the camera can see).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.boards import Board
from companion.limits import MAX_JSON_FILE_BYTES, read_text_capped
from vision.boardlocate import BoardPose, BoardTracker, LocateConfig, camera_from_homography, locate_board
from vision.errors import InvalidImageError, VisionError
from vision.printing import render_board

P = 16  # patch side, pixels
ARROW_SIDE = 32  # cube-top view side, pixels
_TURNS = {"N": 0, "E": 1, "S": 2, "W": 3}
"""Quarter turns (np.rot90, counter-clockwise) that make an arrow pointing this way point north."""
INNER = slice(4, 12)  # central half of a patch
_g = np.exp(-0.5 * ((np.arange(P) - (P - 1) / 2) / 4.5) ** 2)
WINDOW = (np.outer(_g, _g) / np.outer(_g, _g).sum()).astype(np.float32)
"""Weights of the structure comparison: the middle of a spot counts most (pieces on
neighbouring squares lean into the edges)."""

DEFAULT_LOOKS: dict[str, dict[str, tuple[int, int, int]]] = {
    # built-in guesses (BGR) used until looks are learned from a known position
    "katenmuis": {"cat": (40, 40, 190), "mouse": (45, 45, 45)},
    "chopchop": {"slab": (170, 120, 70), "cheese": (60, 205, 240), "hole": (50, 70, 95),
                 "cat": (40, 110, 220), "mouse": (150, 150, 150)},
    "kilkenny": {"cat:red": (40, 40, 200), "cat:blue": (190, 100, 30), "cat:green": (50, 160, 40),
                 "cat:yellow": (30, 210, 235)},
    "qubism": {"pawn:white": (225, 228, 230), "pawn:black": (40, 40, 45), "cube": (150, 200, 225)},
}


class PieceError(VisionError):
    """Pieces cannot be read (the board was not found, or a known position does not fit)."""


def appearance(token: str) -> str:
    """The look class of a token: every cube looks alike (arrow read apart), mice alike."""
    base = token.split(":", 1)[0]
    if base in ("cube", "mouse"):
        return base
    return token


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


@dataclass
class PieceConfig:
    px_per_mm: float = 2.0
    min_confidence: float = 0.6
    ncc_scale: float = 0.6
    """1 - NCC with the empty print at which a spot counts as occupied."""
    chroma_scale: float = 0.1
    """Chromaticity change (L1) at which a spot counts as occupied."""
    dark_scale: float = 1.0
    """Drop of log brightness at which a spot counts as occupied on darkness alone."""
    light_scale: float = 0.35
    """Rise of log brightness at which a spot counts as occupied on brightness alone."""
    spread_scale: float = 0.15
    """Rise of the spread of grey levels in the middle of a spot (shading, edges of a piece)."""
    hidden_scale: float = 0.2
    """Drop of the spread of grey levels (the printed label or lines hidden under a piece)."""
    top_plane: dict[str, float] = field(default_factory=lambda: {"kilkenny": 0.45, "qubism": 0.4})
    """Games whose pieces are all figures at least about half a square tall: a spot is also
    read in the plane this many square sides above the board (found from the camera pose), so
    a piece leaning over from a neighbour, which does not reach up there above this spot, is
    not taken for a piece here; looks are read there too (no ground, no contact shadow)."""
    top_weight: float = 2.0
    """The top-plane score counts this much more (it only has to show that something is there)."""
    cube_top: float = 0.8
    """Height of a cube's top face in square sides (where the arrow is read)."""
    combine: str = "l2"
    shadow_step_frac: float = 0.35
    """Games whose pieces are all figures (those with a ``top_plane``): a spot whose change
    from the empty print is explained but for this share by a straight shadow edge (see
    ``_step_fraction``) is a cast shadow on an empty square, not a piece."""
    centre_share: float = 0.25
    """Games with a ``top_plane``: a spot whose middle, in the raised plane, changes less than
    this share of what the chosen piece's learned examples showed there is not that piece
    (a neighbour leaning over, a shadow): read as empty. Not applied before a piece is learned."""
    frame_min: int = 5
    frame_clear: float = 1.0
    frame_agree: int = 4
    crowd_dist: float = 0.3
    frame_weak: float = 0.3
    frame_look_dist: float = 1.0
    """See ``BoardReader._frame_looks`` and ``_crowds``: this frame's looks of its kinds of
    pieces (evidence >= ``frame_clear``), weak spots (evidence >= ``frame_weak``) near one of
    them when ``frame_agree`` spots agree, crowds of look-alikes (within ``crowd_dist``)."""
    hole_mouse_dist: float = 1.3
    """A Chop! Chop! hole holds a mouse or an opened hole slab (rule C3: nothing else). The
    mice's looks are learned on the holes themselves (they start there), so a hole spot whose
    look is farther than this (look-feature distance) from every learned mouse is an opened
    hole, unless opened holes' looks have been learned too (then the nearer wins)."""
    counts: dict[str, dict[str, int]] = field(default_factory=lambda: {
        "qubism": {"pawn:white": 1, "pawn:black": 1, "cube": 9},
        "katenmuis": {"cat": 1, "mouse": 1},
        "chopchop": {"cat": 1, "mouse": 4}})
    """The game's own piece set: at most this many pieces of a look class can be on the board
    (Qubism: one pawn each, nine cubes; Kat en Muis: one cat, one mouse; Chop! Chop!: one cat,
    four mice). See ``count_games`` and ``BoardReader._crowds``."""
    count_games: tuple[str, ...] = ("qubism", "katenmuis")
    """Games whose readings are cut to ``counts`` spot by spot (not Chop! Chop!: there a mouse
    misread as the cat would cost the real cat; measured worse). Extra readings of a class
    keep the spots whose look is nearest it; the others take their next class with room, if
    near enough (``demote_dist``), or are read as empty."""
    always: dict[str, tuple[str, ...]] = field(default_factory=lambda: {
        "qubism": ("pawn:white", "pawn:black"), "katenmuis": ("cat", "mouse")})
    """Pieces that never leave the board (Qubism's pawns, Kat en Muis's cat and mouse): when no
    spot reads as one, it is the empty-read spot with evidence >= ``always_min_score`` (weak,
    or dropped by the middle check), no straight shadow edge, and that kind as its nearest
    look, that shows it best: evidence times how much nearer its look is to the kind's than to
    its own empty print. Low confidence (0.3-0.7), so the cross-check asks when unsure."""
    always_min_score: float = 0.5
    demote_dist: float = 2.0
    """A reading dropped for the count takes its next-nearest class with room only within this
    look distance of that class's learned looks (any distance while only built-in guesses are
    known), else it is read as empty."""
    refine: bool = True
    """Refine poses fitted on fewer than all markers by aligning the print (see ``refine``)."""
    refine_px_per_mm: float = 1.0
    refine_max_cells: float = 0.45
    refine_highpass_mm: float = 4.0
    """The alignment compares the prints high-passed at this scale (mm): lines, not light."""
    refine_mask_log: float = 0.24
    """Left out of the alignment: where the blurred view's brightness differs from the blurred
    print's by more than this (log ratio, after the median): pieces, hands, hard shadows."""
    refine_iterations: int = 30
    """Largest correction accepted at any square, in square sides (under half a square, so a
    grid cannot slip by a whole cell)."""
    locate: LocateConfig = field(default_factory=LocateConfig)


@dataclass
class PieceModel:
    """Learned piece looks: look class -> list of feature vectors."""

    game: str = ""
    looks: dict[str, list[list[float]]] = field(default_factory=dict)
    arrows: list[list[float]] = field(default_factory=list)
    """Cube tops learned from known arrows, turned to point north (ARROW_SIDE^2 grey values)."""
    centre: dict[str, list[float]] = field(default_factory=dict)
    """Look class -> how much its examples changed the middle of their spot in the raised
    plane (``_centre_change``; games with a ``top_plane`` only)."""

    def add(self, cls: str, feat: np.ndarray) -> None:
        self.looks.setdefault(cls, []).append([float(v) for v in feat])

    def prototypes(self) -> tuple[list[str], np.ndarray]:
        """Every learned example as (class names, [N, 4] features); nearest example wins."""
        names, feats = [], []
        for cls, rows in self.looks.items():
            for row in rows:
                names.append(cls)
                feats.append(row)
        return names, np.asarray(feats, np.float64).reshape(len(names), NFEAT)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps({"game": self.game, "looks": self.looks, "arrows": self.arrows,
                                          "centre": self.centre}), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> PieceModel:
        from companion.i18n import _

        try:
            data = json.loads(read_text_capped(path, MAX_JSON_FILE_BYTES, _("learned piece looks")))
            return cls(str(data.get("game", "")), {str(k): list(v) for k, v in data["looks"].items()},
                       [list(map(float, a)) for a in data.get("arrows", [])],
                       {str(k): list(map(float, v)) for k, v in data.get("centre", {}).items()})
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise PieceError(f"cannot load piece model {path}: {exc}") from None

    @classmethod
    def defaults(cls, game: str) -> PieceModel:
        model = cls(game)
        for name, bgr in DEFAULT_LOOKS.get(game, {}).items():
            rgb = np.asarray(bgr, np.float64)[None, None, :] / 255.0
            model.add(name, _look_features(np.broadcast_to(rgb, (1, 8, 8, 3)))[0])
        return model


def _smooth(stack: np.ndarray) -> np.ndarray:
    """[N, h, w] -> the same, blurred by a 1-2-1 kernel on both axes (for a robust NCC)."""
    p = np.pad(stack, ((0, 0), (1, 1), (1, 1)), mode="edge")
    v = 0.25 * p[:, :-2, :] + 0.5 * p[:, 1:-1, :] + 0.25 * p[:, 2:, :]
    return 0.25 * v[:, :, :-2] + 0.5 * v[:, :, 1:-1] + 0.25 * v[:, :, 2:]


_yy, _xx = np.mgrid[0:P, 0:P].astype(np.float64) / (P - 1) - 0.5
_PLANE = np.column_stack([np.ones(P * P), _xx.ravel(), _yy.ravel()])
_SW = np.sqrt(WINDOW.ravel().astype(np.float64))
_PLANE_PINV = np.linalg.pinv(_PLANE * _SW[:, None]) * _SW[None, :]


def _detrend(stack: np.ndarray) -> np.ndarray:
    """Remove the best (window-weighted) plane from each patch: smooth shading goes, edges stay."""
    flat = stack.reshape(stack.shape[0], -1).astype(np.float64)
    coef = flat @ _PLANE_PINV.T
    return (flat - coef @ _PLANE.T).reshape(stack.shape).astype(np.float32)


def _look_features(inner: np.ndarray) -> np.ndarray:
    """[N, h, w, 3] normalised inner patches -> [N, 4]: chroma b, chroma g, log brightness, spread."""
    mean = inner.reshape(inner.shape[0], -1, 3).mean(axis=1)
    tot = mean.sum(axis=1, keepdims=True) + 1e-4
    chroma = mean / tot
    bright = tot[:, 0] / 3
    gray = inner.mean(axis=3).reshape(inner.shape[0], -1)
    spread = gray.std(axis=1) / (bright + 0.05)
    return np.column_stack([chroma[:, 0], chroma[:, 1], np.log(bright + 0.02), spread])


def _step_masks() -> np.ndarray:
    """Half-planes through a patch (16 directions, 1 px apart): [K, P*P] of 0/1."""
    yy, xx = np.mgrid[0:P, 0:P].astype(np.float64) - (P - 1) / 2
    rows = []
    for a in np.linspace(0, math.pi, 16, endpoint=False):
        d = (xx * math.cos(a) + yy * math.sin(a)).ravel()
        for o in np.arange(-P / 2 - 1, P / 2 + 1.5, 1.0):
            m = d < o
            if 0 < m.sum() < P * P:
                rows.append(m)
    return np.asarray(rows, np.float64)


_STEPS = _step_masks()
_STEPS_T = np.ascontiguousarray(_STEPS.T.astype(np.float32))
_STEP_W = 1 / _STEPS.sum(axis=1) + 1 / (P * P - _STEPS.sum(axis=1))


def _step_fraction(patches: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """[N] share of each patch's change from the empty print (log ratio, all channels) that a
    straight shadow edge cannot explain: the patch as the print under two light levels split
    by a line. A cast shadow darkens the print uniformly (small share left); a piece adds its
    own shape, shading and colour (large share)."""
    n = patches.shape[0]
    lr = np.log(patches + 0.03) - np.log(empty + 0.03)
    lr = lr.transpose(0, 3, 1, 2).reshape(n * 3, P * P)
    lr -= lr.mean(axis=1, keepdims=True)
    tot = (lr ** 2).reshape(n, -1).sum(axis=1)
    s_a = (lr @ _STEPS_T).reshape(n, 3, -1)
    explained = (s_a ** 2).sum(axis=1) * _STEP_W[None, :]
    frac: np.ndarray = (tot - explained.max(axis=1)) / (tot + 1e-6)
    return frac


_cy, _cx = np.mgrid[0:P, 0:P].astype(np.float64) - (P - 1) / 2
_CENTRE = np.hypot(_cx, _cy) < 4.0


def _centre_change(patches: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """[N] how much the middle of each patch differs from the empty print (mean over a disc of
    the largest per-channel log ratio beyond 0.1). Read in the raised plane, a figure standing
    on the spot fills its middle there; one leaning over from a neighbour, or its shadow,
    reaches only the edge."""
    d = np.abs(np.log(patches[:, _CENTRE] + 0.03) - np.log(empty[:, _CENTRE] + 0.03)).max(axis=2)
    out: np.ndarray = np.maximum(d - 0.1, 0).mean(axis=1)
    return out


LOOK_SCALE = np.array([0.035, 0.035, 0.45, 0.25])
NFEAT = 4
"""Look features: chroma b, chroma g, log brightness, spread."""


def _look_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Look distance (features scaled by LOOK_SCALE), over the last axis."""
    out: np.ndarray = np.sqrt((((np.asarray(a) - np.asarray(b)) / LOOK_SCALE) ** 2).sum(axis=-1))
    return out


@dataclass
class BoardReading:
    found: bool
    pose: BoardPose
    squares: dict[str, tuple[str | None, float]] = field(default_factory=dict)
    """square id -> (token or None for empty, confidence); unobservable squares are absent."""
    min_confidence: float = 0.6

    def occupied(self, min_confidence: float | None = None) -> dict[str, str]:
        """The confident, occupied squares: like an engine's board_view()."""
        m = self.min_confidence if min_confidence is None else min_confidence
        return {s: t for s, (t, c) in self.squares.items() if t is not None and c >= m}

    def to_json(self) -> dict[str, Any]:
        return {
            "found": self.found,
            "board": self.pose.summary(),
            "squares": {s: {"token": t, "confidence": round(c, 3)} for s, (t, c) in self.squares.items()},
        }


class BoardReader:
    """Reads one board, frame after frame; learns piece looks from known positions."""

    def __init__(self, board: Board, model: PieceModel | None = None,
                 config: PieceConfig | None = None) -> None:
        self.board = board
        self.config = cfg = config or PieceConfig()
        self.model = model if model is not None else PieceModel(board.game)
        self._defaults = PieceModel.defaults(board.game)
        self.tracker = BoardTracker(board, cfg.locate)
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
        self.empty_patches = self._patches(empty)
        eg = _smooth(self.empty_patches.mean(axis=3))
        self._eg0 = _detrend(eg)
        self._eg_norm = np.sqrt((WINDOW * self._eg0 ** 2).sum(axis=(1, 2))) + 1e-6
        self._e_struct = self._eg_norm
        self.empty_looks = _look_features(self.empty_patches[:, INNER, INNER])
        self._ecc_template: np.ndarray | None = None
        self._ecc_high = self._ecc_blur = np.zeros((1, 1), np.float32)
        self._empty_cache: dict[float, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        # White paper outside every square and marker: the photometric reference.
        ref = np.all(empty > 0.93, axis=2).astype(np.uint8)
        block = np.zeros_like(ref)
        for sq in board.squares.values():
            cv2.fillPoly(block, [np.int32(np.asarray(sq.polygon) * s).reshape(-1, 1, 2)], 1)
        for m in board.markers:
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
        out = np.empty((len(self.boxes), P, P, 3), np.float32)
        for i, (x0, y0, x1, y1) in enumerate(self.boxes):
            out[i] = cv2.resize(img[y0:y1, x0:x1], (P, P), interpolation=cv2.INTER_AREA)
        return out

    def warp(self, image: np.ndarray, pose: BoardPose, lift: np.ndarray | None = None) -> np.ndarray:
        """Top-down view at px_per_mm; ``lift`` (3x3, board mm -> board mm) reads a raised plane."""
        s = self.config.px_per_mm
        assert pose.homography is not None
        m = pose.homography @ (lift if lift is not None else np.eye(3)) @ np.diag([1 / s, 1 / s, 1.0])
        return cv2.warpPerspective(image, m, self.size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)

    def _gain(self, warped: np.ndarray) -> np.ndarray:
        """Coefficients of the smooth per-channel light (fitted on the paper margin), [6, 3]."""
        ys, xs = self._ref_xy
        if len(xs) < 30:
            g = np.median(warped.reshape(-1, 3), axis=0) + 1e-3
            coef = np.zeros((6, 3))
            coef[0] = g
            return coef
        vals = warped[ys, xs].astype(np.float64)
        basis = self._ref_basis
        keep = np.ones(len(xs), bool)
        coef = np.zeros((basis.shape[1], 3))
        for _ in range(3):
            coef, *_ = np.linalg.lstsq(basis[keep], vals[keep], rcond=None)
            pred = basis @ coef
            ratio = (vals / np.maximum(pred, 1e-3)).mean(axis=1)
            keep = (ratio > 0.85) & (ratio < 1.2)
            if keep.sum() < 30:
                keep = np.ones(len(xs), bool)
                break
        return coef

    # -- features -------------------------------------------------------------------------------

    def _scores(self, patches: np.ndarray, eg0: np.ndarray, eg_norm: np.ndarray,
                empty_looks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Occupancy evidence [N, 4] (structure, chroma, brightness, spread) and looks [N, 4]."""
        cfg = self.config
        wg0 = _detrend(_smooth(patches.mean(axis=3)))
        ncc = (WINDOW * wg0 * eg0).sum(axis=(1, 2)) / (
            np.sqrt((WINDOW * wg0 ** 2).sum(axis=(1, 2))) * eg_norm + 1e-6)
        looks = _look_features(patches[:, INNER, INNER])
        d_chroma = np.abs(looks[:, :2] - empty_looks[:, :2]).sum(axis=1)
        d_bright = looks[:, 2] - empty_looks[:, 2]
        struct_score = np.where(eg_norm >= 0.03, (1 - ncc) / cfg.ncc_scale, 0.0)
        bright_score = np.maximum(-d_bright / cfg.dark_scale, d_bright / cfg.light_scale)
        spread_score = np.maximum((looks[:, 3] - empty_looks[:, 3]) / cfg.spread_scale,
                                  (empty_looks[:, 3] - looks[:, 3]) / cfg.hidden_scale)
        return np.column_stack([struct_score, d_chroma / cfg.chroma_scale, bright_score, spread_score]), looks

    def _lift(self, pose: BoardPose, image_size: tuple[int, int], z_mm: float) -> np.ndarray:
        """Board mm of the plane ``z_mm`` up -> the board mm where it is seen (scaling about
        the point below the camera, estimated from the pose)."""
        assert pose.homography is not None
        cam = camera_from_homography(pose.homography, image_size)
        k = cam.plane_scale(z_mm)
        fx, fy = cam.foot
        return np.array([[k, 0, (1 - k) * fx], [0, k, (1 - k) * fy], [0, 0, 1.0]])

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
            ctr = (self._spot_centres_px @ lift_px[:2, :2].T) + lift_px[:2, 2]
            tgain = np.maximum(self._basis(ctr[:, 0], ctr[:, 1]) @ coef, 0.05).astype(np.float32)
            tpatches = self._patches(top) / tgain[:, None, None, :]
            ep = self._patches(e_top)
            eg0 = _detrend(_smooth(ep.mean(axis=3)))
            eg_norm = np.sqrt((WINDOW * eg0 ** 2).sum(axis=(1, 2))) + 1e-6
            t_empty_looks = _look_features(ep[:, INNER, INNER])
            tscores, tlooks = self._scores(tpatches, eg0, eg_norm, t_empty_looks)
            self._last_look_empty = t_empty_looks
            self.last_centre = _centre_change(tpatches, ep)
            self._last_top_patches, self._last_top_empty = tpatches, ep
            self.last_top_scores = tscores
            # occupied only when something is there in both planes; look read up there
            top_any = np.sqrt((tscores ** 2).sum(axis=1, keepdims=True)) if self.config.combine == "l2" else tscores.max(axis=1, keepdims=True)
            scores = np.minimum(scores, top_any * self.config.top_weight)
            looks = tlooks
        else:
            self.last_centre = np.full(len(self.groups), np.nan)
        self.last_scores = scores
        self.last_scores[self._never_empty] = np.maximum(self.last_scores[self._never_empty], 9.0)
        score = np.sqrt((self.last_scores ** 2).sum(axis=1)) if self.config.combine == "l2" else self.last_scores.max(axis=1)
        return score, looks, patches

    def refine(self, image: np.ndarray, pose: BoardPose) -> BoardPose:
        """A pose fitted on fewer than all markers (a hand over some), refined by aligning the
        printed board itself (its lines, edges and markers) with the empty print (ECC,
        homography). Both are high-passed (smooth light and soft shadows go, the print's lines
        stay) and places that differ from the print as a whole (pieces, a hand, a hard shadow:
        seen in a blurred comparison, which thin misaligned lines hardly change) are masked
        out, so they cannot pull the board. Kept only when the alignment converges, improves
        and moves no square by ``refine_max_cells`` or more."""
        cfg = self.config
        if pose.homography is None or len(pose.used) >= len(self.board.markers) or not cfg.refine:
            return pose
        k = cfg.refine_px_per_mm
        size = (int(self.board.width_mm * k), int(self.board.height_mm * k))
        to_px = np.diag([k, k, 1.0])
        m = pose.homography @ np.linalg.inv(to_px)
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        seen = cv2.warpPerspective(gray, m, size, flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE).astype(np.float32) / 255
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
        if not np.isfinite(cc) or cc < cc0 + 0.005 or moved > cfg.refine_max_cells * self.cell_mm:
            return pose
        h = m @ warp.astype(np.float64) @ to_px
        return BoardPose(True, h / h[2, 2], pose.markers, pose.used, pose.error_px, pose.confidence,
                         pose.kept, pose.corners)

    def _camera_px_per_mm(self, pose: BoardPose) -> float:
        """How many camera pixels one board millimetre covers, around the middle of the board."""
        assert pose.homography is not None
        h = pose.homography
        x, y = self.board.width_mm / 2, self.board.height_mm / 2
        w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
        u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
        v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
        jac = np.array([[h[0, 0] - u * h[2, 0], h[0, 1] - u * h[2, 1]],
                        [h[1, 0] - v * h[2, 0], h[1, 1] - v * h[2, 1]]]) / w
        return float(np.sqrt(abs(np.linalg.det(jac))))

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
            eg0 = _detrend(_smooth(ep.mean(axis=3)))
            egn = np.sqrt((WINDOW * eg0 ** 2).sum(axis=(1, 2))) + 1e-6
            hit = (empty, eg0, egn, _look_features(ep[:, INNER, INNER]), ep)
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
        assert pose.homography is not None
        m = pose.homography @ lift @ to_mm
        crop = cv2.warpPerspective(image, m, (side, side), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
        return crop.astype(np.float32).mean(axis=2) / 255

    # -- learning and reading ------------------------------------------------------------------

    def learn(self, image: np.ndarray, known: dict[str, str], pose: BoardPose | None = None) -> int:
        """Learn piece looks from a known position (square -> token). Returns looks learned."""
        if pose is None:
            pose = self.tracker.update(_check(image))
        if not pose.found:
            raise PieceError("cannot learn: the board was not found in this image")
        pose = self.refine(image, pose)
        _, looks, _ = self.features(image, pose)
        spot_index = {sid: i for i, ids in enumerate(self.groups) for sid in ids}
        n = 0
        for sid, token in known.items():
            if sid in spot_index:
                self.model.add(appearance(token), looks[spot_index[sid]])
                centre = float(self.last_centre[spot_index[sid]])
                if np.isfinite(centre):
                    self.model.centre.setdefault(appearance(token), []).append(centre)
                n += 1
                parts = token.split(":")
                if parts[0] == "cube" and len(parts) == 2 and parts[1] in _TURNS:
                    glyph = _glyph_map(self.cube_top(image, pose, spot_index[sid]))
                    self.model.arrows.append([float(v) for v in np.rot90(glyph, _TURNS[parts[1]]).ravel()])
        return n

    def _classes(self) -> tuple[list[str], np.ndarray]:
        names, protos = self.model.prototypes()
        dn, dp = self._defaults.prototypes()
        extra = [i for i, n in enumerate(dn) if n not in set(names)]
        if extra:
            names = names + [dn[i] for i in extra]
            protos = np.vstack([protos.reshape(-1, NFEAT), dp[extra]]) if len(protos) else dp[extra]
        return names, protos

    def read(self, image: np.ndarray, track: bool = True) -> BoardReading:
        img = _check(image)
        pose = self.tracker.update(img) if track else locate_board(img, self.board, self.config.locate)
        cfg = self.config
        if not pose.found:
            return BoardReading(False, pose, {}, cfg.min_confidence)
        pose = self.refine(img, pose)
        score, looks, patches = self.features(img, pose)
        names, protos = self._classes()
        out: dict[str, tuple[str | None, float]] = {}
        decided: list[tuple[str | None, float]] = []
        self._look_dist: dict[str, dict[int, float]] = {}
        token: str | None
        step_frac = np.ones(len(self.groups))
        if cfg.top_plane.get(self.board.game) and len(names):
            cand = np.nonzero((score >= 1) & ~self._never_empty)[0]
            if len(cand):
                step_frac[cand] = _step_fraction(self._last_patches[cand], self._last_empty_patches[cand])
        for i, ids in enumerate(self.groups):
            occ_conf = float(1 / (1 + math.exp(-4 * (score[i] - 1))))
            if self._never_empty[i] and names:
                token, conf = self._hole_or_mouse(looks[i], names, protos)
                conf *= occ_conf
            elif score[i] < 1 or not names:
                token = None
                conf = 1 - occ_conf
            elif step_frac[i] < cfg.shadow_step_frac:
                token = None  # a cast shadow's straight edge explains the change
                conf = float(0.5 + 0.5 * (1 - step_frac[i] / cfg.shadow_step_frac))
            elif self._centre_too_weak(i, looks[i], names, protos):
                token = None  # something at the edge only: a neighbour leaning over, a shadow
                conf = 0.6
            else:
                d_all = _look_distance(protos, looks[i])
                per_cls: dict[str, float] = {}
                for n_, dv in zip(names, d_all):
                    per_cls[n_] = min(per_cls.get(n_, 1e9), float(dv))
                ranked = sorted(per_cls, key=lambda k: per_cls[k])
                best = ranked[0]
                d = np.array([per_cls[k] for k in ranked])
                order = np.arange(len(ranked))
                second = float(d[1]) if len(d) > 1 else float(d[0]) + 6
                margin = (second - float(d[0])) / (second + 1e-6)
                conf = occ_conf * min(1.0, 0.4 + margin) * (1.0 if d[order[0]] < 6 else 0.6)
                token = best
                self._look_dist.setdefault(best, {})[i] = float(d[0])
                if best == "cube":
                    arrow, aconf = self._arrow(img, pose, i)
                    token = f"cube:{arrow}" if arrow else "cube:?"
                    conf *= aconf
            decided.append((token, conf))
        self._frame_looks(score, looks, decided, names, protos)
        self._counts(score, looks, names, protos, decided, step_frac, img, pose)
        for ids, (token, conf) in zip(self.groups, decided):
            if token is None:
                for sid in ids:
                    out[sid] = (None, conf)
            else:
                chosen = _square_for(ids, token)
                for sid in ids:
                    out[sid] = (token, conf) if sid == chosen else (None, conf)
        return BoardReading(True, pose, out, cfg.min_confidence)

    def _frame_looks(self, score: np.ndarray, looks: np.ndarray, decided: list[tuple[str | None, float]],
                     names: list[str] | None = None, protos: np.ndarray | None = None) -> None:
        """Pieces of one kind look alike within one frame (same light, same camera), even when
        the light differs from the frame they were learned in (games without a raised plane:
        flat pieces and counters). This frame's look of a kind is the median look of its
        clear pieces (evidence >= ``frame_clear``). Spots with weak evidence
        (``frame_weak`` <= score < 1) whose look is near it and much nearer than to their
        empty print are read as that kind, with a modest confidence, when they and the clear
        ones together are at least ``frame_agree`` (many spots agreeing on one look is itself
        evidence: a slab set under a light unlike the learning frame's); an occupied spot
        nearer the frame look of another kind (``frame_min`` clear ones) than its own learned
        look takes that kind."""
        cfg = self.config
        if cfg.top_plane.get(self.board.game):
            return  # figures: the raised plane and the spot's middle decide (see read)
        clear: dict[str, list[int]] = {}
        for i, (token, _) in enumerate(decided):
            if token is not None and score[i] >= cfg.frame_clear and not self._never_empty[i] and not token.startswith("cube"):
                clear.setdefault(token, []).append(i)
        most = cfg.counts.get(self.board.game, {})
        crowds = self._crowds(looks, decided, clear, names, protos, most) if names and protos is not None else []
        # this frame's looks: (kind, median look, how many clear spots show it)
        frame = [(t, np.median(looks[idx], axis=0), len(idx)) for t, idx in clear.items()] + crowds
        if not frame:
            return
        proposed: dict[int, list[tuple[int, float]]] = {}
        for i, (token, conf) in enumerate(decided):
            if token is not None and i in self._look_dist.get(token, {}) and not self._never_empty[i] and i not in clear.get(token, ()):
                # an occupied spot nearer this frame's look of another kind than its own learned look
                for t, m, n in frame:
                    if n < cfg.frame_min:
                        continue
                    d = float(_look_distance(looks[i], m))
                    if t != token and d < self._look_dist[token][i] and d < cfg.frame_look_dist:
                        decided[i] = (t, conf * 0.8)
                continue
            if token is not None or self._never_empty[i] or not cfg.frame_weak <= score[i] < 1:
                continue
            d_empty = float(_look_distance(looks[i], self._last_look_empty[i]))
            dists = [float(_look_distance(looks[i], m)) for _, m, _ in frame]
            j = int(np.argmin(dists))
            if dists[j] < cfg.frame_look_dist and dists[j] < 0.5 * d_empty:
                proposed.setdefault(j, []).append((i, dists[j]))
        for j, spots in proposed.items():
            t, _, n = frame[j]
            if most.get(t, len(decided)) >= cfg.frame_agree and n + len(spots) >= max(cfg.frame_agree, 1):
                for i, d_best in spots:
                    decided[i] = (t, float(0.5 + 0.3 * (1 - d_best / cfg.frame_look_dist)))

    def _crowds(self, looks: np.ndarray, decided: list[tuple[str | None, float]], clear: dict[str, list[int]],
                names: list[str], protos: np.ndarray, most: dict[str, int]) -> list[tuple[str, np.ndarray, int]]:
        """More clear pieces read as a kind than the game has of it (five mice where there are
        four, cats where there is one), at least ``frame_agree`` of them, are a crowd of
        another kind whose look, in this frame's light, sits near that one's: those within
        ``crowd_dist`` of their median look (more of them than the game has of the kind, else
        nothing changes) are re-read as
        the learned kind the game has enough of that is nearest their common look; the others
        keep their reading (the real ones among them). Returns each crowd as a frame look
        (kind, median look, size): this frame's look of that kind where the crowd stands."""
        cfg = self.config
        out: list[tuple[str, np.ndarray, int]] = []
        many = [k for k in sorted(set(names)) if most.get(k, len(decided)) >= cfg.frame_agree and k in self.model.looks]
        for t in list(clear):
            idx = clear[t]
            n_max = most.get(t, len(decided))
            if len(idx) <= n_max or len(idx) < cfg.frame_agree or not many:
                continue
            crowd = np.median(looks[idx], axis=0)
            moved = [i for i in idx if float(_look_distance(looks[i], crowd)) < cfg.crowd_dist]
            if len(moved) <= n_max or len(moved) < cfg.frame_agree:
                continue  # not more look-alikes than the game has: real pieces and a few misreads
            d_many = {k: float(_look_distance(protos[[n == k for n in names]], crowd).min()) for k in many
                      if k != t and most.get(k, len(decided)) >= len(moved)}
            if not d_many:
                continue
            target = min(d_many, key=lambda k: d_many[k])
            keep = set(idx) - set(moved)
            for i in moved:
                decided[i] = (target, decided[i][1] * 0.8)
            clear[t] = [i for i in idx if i in keep]
            if not clear[t]:
                del clear[t]
            out.append((target, np.median(looks[moved], axis=0), len(moved)))
        return out

    def _counts(self, score: np.ndarray, looks: np.ndarray, names: list[str], protos: np.ndarray,
                decided: list[tuple[str | None, float]], step_frac: np.ndarray, img: np.ndarray,
                pose: BoardPose) -> None:
        """The game's piece counts (``PieceConfig.counts`` and ``always``) applied to a frame's
        readings: too many of a class keeps the nearest looks; a piece that never leaves the
        board and is read nowhere is looked for among the weak spots."""
        cfg = self.config
        most = cfg.counts.get(self.board.game, {}) if self.board.game in cfg.count_games else {}
        if not most or not len(names):
            return
        classes = sorted(set(names))
        dist = _look_distance(looks[:, None, :], protos[None, :, :])
        d_cls = {c: dist[:, [k for k, n in enumerate(names) if n == c]].min(axis=1) for c in classes}

        d_empty = _look_distance(looks, self._last_look_empty)

        def support(i: int, c: str) -> float:
            """How well spot i shows a piece of class c: its evidence, times how much nearer
            its look is to c's than to its own empty print."""
            return float(min(score[i], 4.0) * d_empty[i] / (d_cls[c][i] + 1e-6))

        def kind(token: str | None) -> str | None:
            return None if token is None else appearance(token)

        for c, n_max in most.items():
            if c not in d_cls:
                continue
            spots = [i for i, (t, _) in enumerate(decided) if kind(t) == c and not self._never_empty[i]]
            # pieces on spots that can hold nothing else (Chop! Chop!'s mice on holes) count too
            room_c = max(n_max - sum(kind(t) == c for i, (t, _) in enumerate(decided) if self._never_empty[i]), 0)
            if len(spots) <= room_c:
                continue
            spots.sort(key=lambda i: d_cls[c][i])
            for i in spots[room_c:]:
                room = [k for k in classes if k != c and
                        sum(kind(t) == k for t, _ in decided) < most.get(k, len(decided))]
                alt = min(room, key=lambda k: d_cls[k][i], default=None)
                conf = decided[i][1]
                near = alt is not None and (d_cls[alt][i] < cfg.demote_dist or alt not in self.model.looks)
                if alt is not None and near and not self._centre_weak_for(i, alt):
                    token: str | None = alt
                    if alt == "cube":
                        arrow, aconf = self._arrow(img, pose, i)
                        token = f"cube:{arrow}" if arrow else "cube:?"
                        conf *= aconf
                    decided[i] = (token, 0.5 * conf)
                else:
                    decided[i] = (None, 0.5)
        for c in cfg.always.get(self.board.game, ()):
            if c not in d_cls or any(kind(t) == c for t, _ in decided):
                continue
            nearest = np.array([min(classes, key=lambda k: d_cls[k][i]) == c for i in range(len(decided))])
            cand = [i for i, (t, _) in enumerate(decided)
                    if t is None and not self._never_empty[i] and nearest[i]
                    and score[i] >= cfg.always_min_score and step_frac[i] >= cfg.shadow_step_frac]
            if cand:
                i = max(cand, key=lambda j: support(j, c))
                decided[i] = (c, float(np.clip(0.3 + 0.3 * support(i, c), 0.3, 0.7)))

    def _centre_weak_for(self, i: int, cls: str) -> bool:
        """The raised plane's middle of spot ``i`` changed much less than class ``cls``'s
        learned examples did there (see ``PieceConfig.centre_share``)."""
        centre = float(self.last_centre[i])
        ref = self.model.centre.get(cls)
        if not np.isfinite(centre) or not ref:
            return False
        return centre < self.config.centre_share * float(np.median(ref))

    def _centre_too_weak(self, i: int, look: np.ndarray, names: list[str], protos: np.ndarray) -> bool:
        """The raised plane's middle of spot ``i`` changed much less than the nearest piece
        look's learned examples did there (see ``PieceConfig.centre_share``)."""
        return self._centre_weak_for(i, names[int(np.argmin(_look_distance(protos, look)))])

    def _hole_or_mouse(self, look: np.ndarray, names: list[str], protos: np.ndarray) -> tuple[str, float]:
        """A Chop! Chop! hole spot: a mouse or an opened hole slab (rule C3), with a confidence."""
        d_all = _look_distance(protos, look)
        learned = set(self.model.looks)
        d_mouse = min((float(d) for n, d in zip(names, d_all) if n == "mouse"), default=1e9)
        d_hole = min((float(d) for n, d in zip(names, d_all) if n == "hole"), default=1e9)
        if "mouse" in learned and "hole" not in learned:
            t = self.config.hole_mouse_dist
            token = "mouse" if d_mouse < t else "hole"
            return token, float(np.clip(0.5 + abs(d_mouse - t) / t, 0.0, 1.0))
        token = "mouse" if d_mouse <= d_hole else "hole"
        a, b = sorted((d_mouse, d_hole))
        return token, float(np.clip(0.4 + (b - a) / (b + 1e-6), 0.0, 1.0))

    def _arrow(self, image: np.ndarray, pose: BoardPose, i: int) -> tuple[str | None, float]:
        """A cube's arrow: nearest learned cube top turned four ways, else the glyph's shape."""
        top = self.cube_top(image, pose, i)
        if self.model.arrows:
            return arrow_from_templates(top, self.model.arrows)
        return arrow_direction(np.repeat(top[..., None], 3, axis=2))

    def read_spots(self, reading: BoardReading) -> dict[str, str]:
        """A reading as spot key -> token (for comparing with ``comparable``)."""
        out: dict[str, str] = {}
        for ids in self.groups:
            for sid in ids:
                tok = reading.squares.get(sid, (None, 0.0))[0]
                if tok is not None:
                    out[ids[0]] = tok
        return out


def _glyph_map(top: np.ndarray) -> np.ndarray:
    """A cube top's marking, independent of light and of dark-on-light or light-on-dark:
    the grey levels minus their median, scaled to unit length, lightly blurred."""
    g = cv2.GaussianBlur(top.astype(np.float32), (0, 0), 1.0)
    g = g - float(np.median(g))
    return g / (float(np.sqrt((g * g).sum())) + 1e-6)


def arrow_from_templates(top: np.ndarray, arrows: list[list[float]]) -> tuple[str | None, float]:
    """N/E/S/W of a cube top (grey, square) by matching learned north-pointing tops.

    Each learned top's middle is searched over the (turned) top within a few pixels, since
    the top face is seldom exactly where the estimated camera puts it; best match wins."""
    side = top.shape[0]
    g = _glyph_map(cv2.resize(top, (ARROW_SIDE, ARROW_SIDE)) if side != ARROW_SIDE else top)
    m = ARROW_SIDE // 8
    temps = np.asarray(arrows, np.float32).reshape(-1, ARROW_SIDE, ARROW_SIDE)[:, m:-m, m:-m]
    corr: dict[str, float] = {}
    for d, k in _TURNS.items():
        turned = np.ascontiguousarray(np.rot90(g, k)).astype(np.float32)
        corr[d] = max(float(cv2.matchTemplate(turned, np.ascontiguousarray(t), cv2.TM_CCOEFF_NORMED).max())
                      for t in temps)
    ranked = sorted(corr, key=lambda d: -corr[d])
    best, second = corr[ranked[0]], corr[ranked[1]]
    if best <= 0.1:
        return None, 0.0
    return ranked[0], float(np.clip((best - second) * 4, 0.05, 1.0))


def arrow_direction(patch: np.ndarray) -> tuple[str | None, float]:
    """N/E/S/W of the dark arrow on a cube top in a normalised top-down patch, with confidence.

    The arrow is the dark blob; its head is the end where the blob is widest across its axis.
    """
    big = cv2.resize(patch, (48, 48), interpolation=cv2.INTER_AREA)
    gray = big.mean(axis=2)
    hi = float(np.percentile(gray, 90))
    mask = (gray < min(0.3, 0.35 * hi)).astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask)
    if n <= 1:
        return None, 0.0
    # the biggest dark blob not touching the crop's border much, nearest the middle
    area = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    dist = np.hypot(cents[1:, 0] - 24, cents[1:, 1] - 24)
    k = 1 + int(np.argmax(area / (1 + dist / 12)))
    ys, xs = np.nonzero(labels == k)
    if len(xs) < 12:
        return None, 0.0
    x = xs - xs.mean()
    y = ys - ys.mean()
    cov = np.cov(np.vstack([x, y]))
    evals, evecs = np.linalg.eigh(cov)
    axis = evecs[:, 1]
    along = x * axis[0] + y * axis[1]
    across = -x * axis[1] + y * axis[0]
    pos, neg = along > 0, along < 0
    wpos = float(np.abs(across[pos]).mean()) if pos.any() else 0.0
    wneg = float(np.abs(across[neg]).mean()) if neg.any() else 0.0
    head = axis if wpos > wneg else -axis
    angle = math.degrees(math.atan2(head[1], head[0]))  # image: x right, y down
    dirs = {"E": 0.0, "S": 90.0, "W": 180.0, "N": -90.0}
    best = min(dirs, key=lambda d: abs((angle - dirs[d] + 180) % 360 - 180))
    off = abs((angle - dirs[best] + 180) % 360 - 180)
    elong = 1 - evals[0] / (evals[1] + 1e-6)
    asym = abs(wpos - wneg) / (wpos + wneg + 1e-6)
    conf = float(np.clip(1 - off / 45, 0, 1) * np.clip(elong * 2, 0, 1) * np.clip(asym * 6, 0.3, 1))
    return best, max(conf, 0.05)


def _check(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise InvalidImageError("expected an 8-bit BGR image (H x W x 3)")
    return image


_READERS: dict[str, BoardReader] = {}


def read_board(image: np.ndarray, board: Board, model: PieceModel | None = None,
               config: PieceConfig | None = None) -> BoardReading:
    """One-shot reading of ``image`` (no tracking between calls)."""
    reader = BoardReader(board, model=model, config=config)
    return reader.read(image, track=False)
