"""Piece looks: the per-spot look features of the board reader (``vision.pieces``) and the
learned looks they are matched against.

A spot is cut into a ``P`` x ``P`` patch of the top-down view; its look is four numbers
(chroma b, chroma g, log brightness, spread of grey levels) read on the patch's middle
(``INNER``). ``PieceModel`` keeps the looks learned from known positions (with built-in guesses
per game), the cube tops learned for the arrows and how much each kind changed the middle of
its spot. The helpers here are the numpy arithmetic the reader runs on every frame: smoothing
and detrending for the structure comparison, look features and distances, the straight-shadow
test (``_step_fraction``) and the change in a spot's middle (``_centre_change``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.limits import MAX_JSON_FILE_BYTES, read_text_capped
from vision.arrows import ARROW_SIDE
from vision.errors import VisionError
from vision.read_fast import channel_mean3, pixel_means

P = 16  # patch side, pixels
INNER = slice(4, 12)  # central half of a patch
_g = np.exp(-0.5 * ((np.arange(P) - (P - 1) / 2) / 4.5) ** 2)
WINDOW = (np.outer(_g, _g) / np.outer(_g, _g).sum()).astype(np.float32)
"""Weights of the structure comparison: the middle of a spot counts most (pieces on
neighbouring squares lean into the edges)."""
_gc = np.exp(-0.5 * ((np.arange(P) - (P - 1) / 2) / 3.0) ** 2)
CENTRE_WINDOW = (np.outer(_gc, _gc) / np.outer(_gc, _gc).sum()).astype(np.float32)
"""Tighter weights for the structure a plain printed square shows (``PieceConfig.flat_structure``):
a piece standing on it, not a neighbour's edge."""

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


def _still(row: object) -> list[float]:
    """A saved ``still_pose`` (empty, or 10 or 23 finite numbers: ``vision.stillpose.pose_record``)."""
    if row == []:
        return []
    return _numbers(row, 23 if isinstance(row, list) and len(row) == 23 else 10)


def total_evidence(parts: np.ndarray, combine: str, keepdims: bool = False) -> np.ndarray:
    """Each spot's occupancy evidence from its parts (rows of ``parts``): their Euclidean norm
    (``combine`` "l2") or their largest (``PieceConfig.combine``); 1 is the occupied-or-not cut."""
    out: np.ndarray = (np.sqrt((parts ** 2).sum(axis=1, keepdims=keepdims)) if combine == "l2"
                       else parts.max(axis=1, keepdims=keepdims))
    return out


def _numbers(row: object, n: int) -> list[float]:
    """``row`` as ``n`` finite numbers, else ``ValueError`` (a hand-edited or foreign model)."""
    if not isinstance(row, list) or len(row) != n:
        raise ValueError(f"expected lists of {n} numbers")
    values = [float(v) for v in row]
    if not all(math.isfinite(v) for v in values):
        raise ValueError("a learned look holds a number that is not finite")
    return values


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

    rings: list[list[float]] = field(default_factory=list)
    """Chop! Chop!: the hole spots' rings in the start photo (look features; ``vision.chop_read``)."""
    start_corners: list[float] = field(default_factory=list)
    """Chop! Chop!: the board's corners in the start photo (pixels, 8 numbers): its camera."""
    hole_starts: list[list[float]] = field(default_factory=list)
    """Chop! Chop!: each hole spot as the start photo showed it, its mouse on its closed slab
    (``vision.chop_read.hole_faces``: P*P numbers)."""
    head_plane: float = 0.0
    """Games with ``PieceConfig.behind``: the highest plane (square sides up) where the pieces of
    the last known position showed their colour (``vision.piece_mix.head_plane``); 0: unknown."""
    shapes: dict[str, list[list[float]]] = field(default_factory=dict)
    """Look class -> its examples' change from the print in known positions, board plane and
    raised plane (``vision.qubism_pawns.spot_shape``: 2*P*P*3 numbers; ``PieceConfig.pawn_shape``)."""
    shape_corners: list[float] = field(default_factory=list)
    """The board's corners (pixels, 8 numbers) in the photo the ``shapes`` were learned from: its camera."""
    shadows: list[list[float]] = field(default_factory=list)
    """Shadows on the empty print in known positions: each a spot's look minus its print's
    (``NFEAT`` numbers; ``vision.piece_shadow``, ``PieceConfig.shadow_looks``)."""
    still_pose: list[float] = field(default_factory=list)
    """Where the board lay in the photo the looks were learned from, and the print's score there
    (``vision.stillpose.pose_record``): a frame whose markers do not decode is read there if the
    print still shows the board there."""

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
                                          "centre": self.centre, "hole_starts": self.hole_starts,
                                          "rings": self.rings, "start_corners": self.start_corners,
                                          "head_plane": self.head_plane, "shapes": self.shapes,
                                          "shape_corners": self.shape_corners, "shadows": self.shadows,
                                          "still_pose": self.still_pose}),
                                   encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> PieceModel:
        from companion.i18n import _

        try:
            data = json.loads(read_text_capped(path, MAX_JSON_FILE_BYTES, _("learned piece looks")))
            looks = {str(k): [_numbers(row, NFEAT) for row in v] for k, v in data["looks"].items()}
            return cls(str(data.get("game", "")), looks,
                       [_numbers(a, ARROW_SIDE * ARROW_SIDE) for a in data.get("arrows", [])],
                       {str(k): list(map(float, v)) for k, v in data.get("centre", {}).items()},
                       [_numbers(r, NFEAT) for r in data.get("rings", [])],
                       _numbers(data["start_corners"], 8) if data.get("start_corners") else [],
                       [_numbers(r, P * P) for r in data.get("hole_starts", [])],
                       _numbers([data.get("head_plane", 0.0)], 1)[0],
                       {str(k): [_numbers(r, 2 * P * P * 3) for r in v] for k, v in data.get("shapes", {}).items()},
                       _numbers(data["shape_corners"], 8) if data.get("shape_corners") else [],
                       [_numbers(r, NFEAT) for r in data.get("shadows", [])],
                       _still(data.get("still_pose", [])))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise PieceError(f"cannot load piece model {path}: {exc} (make it again with 'companion board "
                             "learn')") from None

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
    mean = pixel_means(inner)
    tot = mean.sum(axis=1, keepdims=True) + 1e-4
    chroma = mean / tot
    bright = tot[:, 0] / 3
    gray = channel_mean3(inner).reshape(inner.shape[0], -1)
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
