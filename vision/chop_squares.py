"""Chop! Chop!'s squares read by a small learned classifier on height- and light-aware features.

The nearest-look reading of ``vision.pieces`` alone says "mouse" too easily on this board: a
hand's or arm's shadow on a slab, a figure leaning over from the next square, a face-up cheese
and an opened hole all share a mouse's mean colour. Like chesscog, each spot is read by a
per-square classifier and the rules then settle the frame:

- **features** (``spot_features``, one row per spot, all relative to this board, this group's
  learned looks or this frame, so that they carry no one renderer's colours): the spot's kind
  on the print (hole, table top, slab square, floor); its occupancy evidence (structure,
  chroma, brightness, spread) against the empty print after the light correction fitted on
  the paper margin, and the same less this frame's median over the floor and table-top spots
  (nearly all empty: what a printer's other colours or the light add everywhere); its look's
  change from the print, less that median too; its distance to the learned mouse, cat and
  slab looks (learned ones only: no built-in colour guesses) and to this frame's own slab
  look; how the middle differs from the ring around it; a hole's likeness to its own start
  picture and ring (``vision.chop_read``); and **height**: the spot seen in the plane
  ``HEIGHT_CELLS`` square sides up (from the camera pose), where a standing figure's upper
  body appears but a flat thing (a shadow, a cheese, an opened hole, a printed hole) does not:
  its look's distance to the learned figures and to the ground look, and its evidence
  against the empty print seen in that plane, with how far that plane is shifted at this
  tilt; the strongest neighbour's evidence, on the ground and up there (a figure leaning
  over). The raised plane is sampled at the spots' points only (``_sample_spots``), not
  warped whole;
- **classifier**: a one-hidden-layer network (``vision/models/chop_squares.npz``), trained by
  ``vision.synth.chop_train`` on rendered scenes of both 3-D families (``vision.synth.board3d``
  and ``vision.synth.scene_b``) and the alt renderer, of seeds the benches never score;
- **rules** (``decide``): what each spot can hold (C1, C3, C5: a hole holds a mouse or the
  opened hole; slabs, cheese and tiles only lie on slab squares; the table top and the floor
  hold figures only), one cat, four mice at most (the surplus take their next likeliest
  reading). The confidence is the class's probability among those allowed, so the cross-check
  asks where the classifier is unsure. Merged with the rules' readings (``merge``): the one cat
  where the classifier's cat probability is highest across the frame (``cat_here``), a slab the
  rules are sure of kept against an unsure cheese, and a mouse read on a hole unlike every
  learned mouse taken for the opened hole (``far_from_mice``).

Without the model file the reader keeps its rule-based reading (``vision.chop_read``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.chop_read import _RING, HolePictures, hole_pictures, same_camera
from vision.piece_looks import INNER, P, _look_distance
from vision.piece_spots import print_refs

CLASSES = ("-", "slab", "cheese", "hole", "mouse", "cat")
"""What the classifier tells apart ("-": nothing on the spot)."""
KINDS = ("hole", "table", "slab", "floor")
ALLOWED = {"hole": {"hole", "mouse"}, "table": {"-", "cat", "mouse"}, "floor": {"-", "cat", "mouse"},
           "slab": {"-", "slab", "cheese", "cat", "mouse"}}
"""What each kind of spot can hold (rules C1, C3, C5)."""
HEIGHT_CELLS = 0.4
"""Height of the raised plane, in square sides (about a mouse's back)."""
MODEL_PATH = Path(__file__).resolve().parent / "models" / "chop_squares.npz"
_SUB = 3
"""Samples per patch pixel each way where the raised plane is read (``_sample_spots``)."""
N_FEATURES = 52
"""Features per spot made by ``spot_features``."""
MOST = {"cat": 1, "mouse": 4}
"""One cat, four mice at most (C1)."""


def likeliest_allowed(row: np.ndarray | None, allowed: set[str], cap: float,
                      fallback: str = "-") -> tuple[str | None, float]:
    """A reading the rules changed: the classifier's likeliest class among ``allowed`` (``row``:
    one spot's probabilities, as ``CLASSES``), its probability renormalised over them (float64);
    ``fallback`` without the classifier; never surer than ``cap``; None for the floor."""
    if row is None:
        pick, p = fallback, cap
    else:
        q = np.where([c in allowed for c in CLASSES], np.asarray(row, np.float64), 0.0)
        k = int(q.argmax())
        pick, p = CLASSES[k], float(q[k] / max(float(q.sum()), 1e-9))
    return (None if pick == "-" else pick, float(min(p, cap)))


def _logd(d: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.log(np.minimum(np.asarray(d, np.float64), 50.0) + 0.05)
    return out


def frame_holes(reader: Any, pose: Any, patches: np.ndarray) -> HolePictures:
    """The hole spots' pictures of this frame (``vision.chop_read.hole_pictures``), computed once
    for the reader's hole rule and ``spot_features``."""
    m = reader.model
    same = same_camera(m.start_corners, reader._corners(pose), reader.config.chop_same_camera_px)
    return hole_pictures(reader.groups, list(reader.board.region("holes")), patches, len(m.hole_starts),
                         bool(m.rings), same)


def spot_features(reader: Any, image: np.ndarray, pose: Any, looks: np.ndarray, patches: np.ndarray,
                  names: list[str], protos: np.ndarray, holes: HolePictures | None = None) -> np.ndarray:
    """[N spots, F] features of a Chop! Chop! frame (see the module doc). ``reader`` is the
    ``BoardReader`` right after its ``features`` call on ``image`` (``looks``, ``patches``:
    what it returned); ``names``, ``protos``: its look classes (learned first, then guesses);
    ``holes``: this frame's ``frame_holes`` when the reader has them already."""
    n = len(reader.groups)
    kinds = reader._chop_kinds
    ground = np.array([k in ("floor", "table") for k in kinds])
    if not ground.any():
        ground[:] = True

    def rel(v: np.ndarray) -> np.ndarray:  # against this frame's floor (nearly all of it empty)
        out: np.ndarray = v - np.median(v[ground], axis=0)
        return out

    cols: list[np.ndarray] = [np.array([[k == kd for kd in KINDS] for k in kinds], np.float64)]
    parts = np.clip(np.asarray(reader.last_scores, np.float64), 0, 6)
    parts[reader._never_empty] = 0.0  # forced high on holes: no information there
    cols += [parts, rel(parts)]
    empty_looks = np.asarray(reader._last_look_empty, np.float64)
    cols.append(rel(looks - empty_looks))
    dist = _look_distance(looks[:, None, :], protos[None, :, :]) if len(names) else np.full((n, 1), 50.0)
    learned = set(reader.model.looks)
    for c in ("mouse", "cat", "slab"):
        idx = [k for k, nm in enumerate(names) if nm == c and c in learned]
        cols.append(_logd(dist[:, idx].min(axis=1) if idx else np.full(n, 50.0))[:, None])
    cols.append(np.array([[c in learned for c in ("mouse", "cat", "slab")]] * n, np.float64))
    d_empty = _logd(_look_distance(looks, empty_looks))
    cols += [d_empty[:, None], rel(d_empty)[:, None]]
    slabby = [i for i, k in enumerate(kinds) if k == "slab"]
    frame_slab = np.median(looks[slabby], axis=0) if slabby else looks.mean(axis=0)
    cols.append(_logd(_look_distance(looks, frame_slab))[:, None])
    # the middle against the ring around it, and the change from the empty print in each
    grey = patches.mean(axis=3)
    egrey = np.asarray(reader._last_empty_patches, np.float32).mean(axis=3)
    mid, ring = grey[:, INNER, INNER].reshape(n, -1), grey[:, _RING]
    diff = np.abs(grey - egrey)
    shape = np.column_stack([np.log(mid.mean(axis=1) + 0.02) - np.log(ring.mean(axis=1) + 0.02),
                             mid.std(axis=1), ring.std(axis=1),
                             diff[:, INNER, INNER].reshape(n, -1).mean(axis=1), diff[:, _RING].mean(axis=1)])
    cols += [shape, rel(shape[:, 3:])]
    cols.append(_hole_columns(reader, holes if holes is not None else frame_holes(reader, pose, patches)))
    height = _height_columns(reader, image, pose, looks, names, protos)
    cols += [height, rel(height[:, 6:10])]
    score = np.sqrt((np.clip(parts, 0, 6) ** 2).sum(axis=1))
    up = np.sqrt((height[:, 6:10] ** 2).sum(axis=1))
    near = _neighbours(reader)
    cols.append(np.array([[score[near[i]].max(initial=0.0), up[near[i]].max(initial=0.0)] for i in range(n)]))
    out: np.ndarray = np.column_stack(cols).astype(np.float32)
    return out


def _neighbours(reader: Any) -> list[np.ndarray]:
    """Each spot's neighbours (centres within 1.5 square sides), computed once per reader."""
    near: list[np.ndarray] | None = getattr(reader, "_chop_near", None)
    if near is None:
        c = np.asarray(reader._spot_centres_px, np.float64)
        d = np.linalg.norm(c[:, None, :] - c[None, :, :], axis=2) / (reader.config.px_per_mm * reader.cell_mm)
        near = [np.nonzero((row > 0.1) & (row < 1.5))[0] for row in d]
        reader._chop_near = near
    return near


def _hole_columns(reader: Any, holes: HolePictures) -> np.ndarray:
    """A hole spot's likeness to its own start picture (same camera only) and to the start's
    rings; [N, 4]: similarity, has-similarity, log ring distance, has-rings."""
    out = np.zeros((len(reader.groups), 4))
    m = reader.model
    idx = list(holes.spots)
    if not idx:
        return out
    if holes.faces is not None:
        for i, k, f in zip(idx, holes.holes, holes.faces):
            out[i, 0] = float(np.asarray(m.hole_starts[k], np.float64) @ f)
            out[i, 1] = 1.0
    if holes.rings is not None:
        d = _look_distance(np.asarray(m.rings, np.float64)[None, :, :], holes.rings[:, None, :]).min(axis=1)
        out[idx, 2] = _logd(d)
        out[idx, 3] = 1.0
    return out


def _spot_grid(reader: Any) -> tuple[np.ndarray, np.ndarray]:
    """Board-pixel sample points (x, y) of every spot's box, ``_SUB`` per patch pixel each way
    (each [N * P * _SUB, P * _SUB], float32), computed once per reader."""
    grid: tuple[np.ndarray, np.ndarray] | None = getattr(reader, "_chop_grid", None)
    if grid is None:
        k = P * _SUB
        gx, gy = [], []
        for x0, y0, x1, y1 in reader.boxes:
            xs = x0 - 0.5 + (np.arange(k) + 0.5) * (x1 - x0) / k
            ys = y0 - 0.5 + (np.arange(k) + 0.5) * (y1 - y0) / k
            mx, my = np.meshgrid(xs, ys)
            gx.append(mx)
            gy.append(my)
        grid = (np.concatenate(gx).astype(np.float32), np.concatenate(gy).astype(np.float32))
        reader._chop_grid = grid
    return grid


def _sample_spots(src: np.ndarray, m: np.ndarray, grid: tuple[np.ndarray, np.ndarray],
                  lens: Any = None) -> np.ndarray:
    """Each spot's patch ([N, P, P, 3], float32) of ``src`` seen through ``m`` (3x3: board
    pixels -> ``src`` pixels, then through ``lens``, vision.lens.Lens, when there is one): only
    the spots' points are sampled (bilinear), then averaged ``_SUB`` x ``_SUB``, instead of
    warping the whole board."""
    x, y = grid
    m32 = np.asarray(m, np.float32)
    w = m32[2, 0] * x + m32[2, 1] * y + m32[2, 2]
    mx = (m32[0, 0] * x + m32[0, 1] * y + m32[0, 2]) / w
    my = (m32[1, 0] * x + m32[1, 1] * y + m32[1, 2]) / w
    if lens is not None:
        lx, ly = lens.distort_xy(mx, my)
        mx, my = lx.astype(np.float32), ly.astype(np.float32)
    out = cv2.remap(src, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    small = cv2.resize(out, (P, out.shape[0] // _SUB), interpolation=cv2.INTER_AREA)
    pooled: np.ndarray = small.reshape(-1, P, P, 3).astype(np.float32)
    return pooled


def _raised_print(reader: Any, pose: Any, lift_px: np.ndarray,
                  grid: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The empty print as it shows in the raised plane at each spot (the references of
    ``SpotFeatures._scores``: detrended grey, its norm, looks), kept while the camera stays
    (the plane's scale within 0.001, its shift within a board pixel)."""
    key = (round(reader._camera_px_per_mm(pose), 1), round(float(lift_px[0, 0]), 3), round(float(lift_px[0, 2])),
           round(float(lift_px[1, 2])))
    Refs = tuple[np.ndarray, np.ndarray, np.ndarray]
    hit: tuple[tuple[Any, ...], Refs] | None = getattr(reader, "_chop_raised", None)
    if hit is not None and hit[0] == key:
        return hit[1]
    refs = print_refs(_sample_spots(reader._empty_at(reader._camera_px_per_mm(pose))[0], lift_px, grid))
    reader._chop_raised = (key, refs)
    return refs


def _height_columns(reader: Any, image: np.ndarray, pose: Any, looks: np.ndarray, names: list[str],
                    protos: np.ndarray) -> np.ndarray:
    """The spot seen ``HEIGHT_CELLS`` square sides up ([N, 10]): log distance of its look to the
    nearest learned mouse and cat looks and to the spot's ground look, its brightness and spread
    change from the ground, how far (square sides) that plane is shifted from the ground here,
    and its evidence (structure, chroma, brightness, spread) against the empty print seen in
    that plane: a standing figure is there, a flat cheese, hole or shadow is not."""
    n = len(reader.groups)
    lift = reader._lift(pose, (image.shape[1], image.shape[0]), HEIGHT_CELLS * reader.cell_mm)
    s = reader.config.px_per_mm
    lift_px = np.diag([s, s, 1.0]) @ lift @ np.diag([1 / s, 1 / s, 1.0])
    grid = _spot_grid(reader)
    to_image, lens = pose.sampling()  # through the lens when the pose has one
    tp = _sample_spots(image, to_image @ lift @ np.diag([1 / s, 1 / s, 1.0]), grid, lens) / 255
    gain, ctr = reader._gain_seen(lift_px, reader._last_coef)  # ctr: where each spot shows up there
    tp /= gain[:, None, None, :]
    up, tl = reader._scores(tp, *_raised_print(reader, pose, lift_px, grid))
    out = np.zeros((n, 10))
    learned = set(reader.model.looks)
    for j, c in enumerate(("mouse", "cat")):
        idx = [k for k, nm in enumerate(names) if nm == c and c in learned]
        out[:, j] = _logd(_look_distance(tl[:, None, :], protos[idx][None, :, :]).min(axis=1) if idx else 50.0)
    out[:, 2] = _logd(_look_distance(tl, looks))
    out[:, 3] = tl[:, 2] - looks[:, 2]
    out[:, 4] = tl[:, 3] - looks[:, 3]
    out[:, 5] = np.linalg.norm(ctr - reader._spot_centres_px, axis=1) / (s * reader.cell_mm)
    out[:, 6:10] = np.clip(up, 0, 6)
    return out


class SquareModel:
    """The trained classifier: standardise, one tanh hidden layer, softmax over ``CLASSES``; an
    ensemble of such networks (stacked weights, a leading member axis) averages their
    probabilities. A single network's file (2-D ``w1``) is an ensemble of one."""

    def __init__(self, mean: np.ndarray, std: np.ndarray, w1: np.ndarray, b1: np.ndarray,
                 w2: np.ndarray, b2: np.ndarray) -> None:
        self.mean, self.std = mean.astype(np.float32), std.astype(np.float32)
        if w1.ndim == 2:  # one network
            w1, b1, w2, b2 = w1[None], b1[None], w2[None], b2[None]
        self.w1, self.b1, self.w2, self.b2 = (a.astype(np.float32) for a in (w1, b1, w2, b2))

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> SquareModel | None:
        """The model at ``path``, or None when there is none (or it does not fit these features)."""
        try:
            with np.load(path) as z:
                return cls(z["mean"], z["std"], z["w1"], z["b1"], z["w2"], z["b2"])
        except (OSError, KeyError, ValueError):
            return None

    @property
    def features(self) -> int:
        """How many features per spot it was trained on."""
        return int(self.mean.shape[0])

    @property
    def members(self) -> int:
        """How many networks it averages."""
        return int(self.w1.shape[0])

    def save(self, path: Path) -> None:
        one = self.members == 1  # a single network keeps the 2-D layout older readers load
        w = [a[0] if one else a for a in (self.w1, self.b1, self.w2, self.b2)]
        np.savez_compressed(path, mean=self.mean, std=self.std, w1=w[0], b1=w[1], w2=w[2], b2=w[3])

    def probs(self, feats: np.ndarray) -> np.ndarray:
        """[N, F] features -> [N, len(CLASSES)] probabilities (the members' mean)."""
        h = np.tanh(((feats - self.mean) / self.std)[None] @ self.w1 + self.b1[:, None, :])
        z = h @ self.w2 + self.b2[:, None, :]
        z = np.exp(z - z.max(axis=2, keepdims=True))
        out: np.ndarray = (z / z.sum(axis=2, keepdims=True)).mean(axis=0)
        return out

    def renormed(self, mean: np.ndarray, std: np.ndarray) -> SquareModel:
        """The same networks standardising by ``mean`` and ``std`` instead (folded into the first
        layer: the same probabilities), so that they can join an ensemble standardised so."""
        scale = (np.asarray(std, np.float64) / self.std)[None, :, None]
        shift = (np.asarray(mean, np.float64) - self.mean) / self.std
        w1 = self.w1 * scale
        b1 = self.b1 + np.einsum("f,efh->eh", shift, self.w1.astype(np.float64))
        return SquareModel(np.asarray(mean), np.asarray(std), w1, b1, self.w2, self.b2)

    @classmethod
    def stack(cls, models: list[SquareModel]) -> SquareModel:
        """One ensemble of ``models`` (all standardised alike: the first one's mean and std)."""
        first = models[0]
        return cls(first.mean, first.std, *(np.concatenate([getattr(m, k) for m in models])
                                           for k in ("w1", "b1", "w2", "b2")))


_MODEL: list[SquareModel | None] = []


def square_model() -> SquareModel | None:
    """The shipped model, loaded once (None without the file, or when it was trained on other
    features than ``spot_features`` makes: the rules alone then)."""
    if not _MODEL:
        model = SquareModel.load()
        _MODEL.append(model if model is not None and model.features == N_FEATURES else None)
    return _MODEL[0]


def use_model(path: Path) -> SquareModel:
    """Read with the model at ``path`` instead of the shipped one from now on (``bench/board.py
    --chop-model``: scoring a model trained on other sets); a clear error when it cannot be read."""
    model = SquareModel.load(path)
    if model is None or model.features != N_FEATURES:
        what = "not a Chop! Chop! square model" if model is None else (
            f"a model of {model.features} features, not the {N_FEATURES} the reader makes (an older one)")
        raise ValueError(f"{path}: {what}; train one with python -m vision.synth.chop_train DIR... --out FILE")
    _MODEL[:] = [model]
    return model


def decide(probs: np.ndarray, kinds: list[str], rules_cat: int | None = None) -> list[tuple[str | None, float]]:
    """Each spot's reading from the classifier's probabilities and the rules (module doc).
    ``rules_cat``: the spot the rules read as the cat; where the classifier reads the cat
    nowhere and a mouse there, that mouse is not counted among the four (one of the five
    figures is the cat, C1: a cat of a look the classifier never saw reads as a mouse, and
    counting it would drop a true mouse, the least likely, to its next reading)."""
    p = np.asarray(probs, np.float64).copy()
    for i, k in enumerate(kinds):
        p[i, [c not in ALLOWED[k] for c in CLASSES]] = 0.0
        p[i] /= max(float(p[i].sum()), 1e-9)
    pick = p.argmax(axis=1)
    cat = CLASSES.index("cat")
    for c in ("cat", "mouse"):  # one cat, four mice at most: the likeliest keep it
        j = CLASSES.index(c)
        at = sorted((int(i) for i in np.nonzero(pick == j)[0]), key=lambda i: -p[i, j])
        if c == "mouse" and rules_cat is not None and rules_cat in at and not (pick == cat).any():
            at.remove(rules_cat)  # the cat, read as a mouse: not one of the four
        for i in at[MOST[c]:]:
            p[i, j] = 0.0  # the next likeliest reading (not a second cat)
            if (pick == cat).any():
                p[i, cat] = 0.0
            pick[i] = int(p[i].argmax())
    out: list[tuple[str | None, float]] = []
    for i, j in enumerate(pick):
        token = CLASSES[int(j)]
        out.append((None if token == "-" else token, float(p[i, j])))
    return out


MOUSE_COLUMN = 16
"""The column of ``spot_features`` holding the log distance (``_logd``) of the spot's look to
the nearest learned mouse look."""
MOUSE_LEARNED_COLUMN = 19
"""The column of ``spot_features`` saying (1) that a mouse look was learned at all."""


def far_from_mice(out: list[tuple[str | None, float]], kinds: list[str], feats: np.ndarray,
                  far: float) -> int:
    """A hole holds a mouse or the opened hole (C3); the mice's look was learned at the start,
    each on its hole, in this group's light. A mouse read on a hole whose look is farther than
    ``far`` from every learned mouse look is the opened hole (a dark shaft has a dark mouse's
    mean colour and its picture's shape: the start picture and the classifier both took it
    for the mouse). In place; how many changed."""
    f = np.asarray(feats, np.float64)
    d = np.exp(f[:, MOUSE_COLUMN]) - 0.05
    n = 0
    for i, (t, _) in enumerate(out):
        if (kinds[i] == "hole" and t is not None and t.split(":")[0] == "mouse"
                and f[i, MOUSE_LEARNED_COLUMN] > 0.5 and d[i] > far):
            out[i] = ("hole", float(min(0.9, 0.5 + 0.2 * (d[i] - far) / far)))
            n += 1
    return n


def merge(rules: list[tuple[str | None, float]], learned: list[tuple[str | None, float]], kinds: list[str],
          sure: float, strict: float | None = None, hole: float | None = None, probs: np.ndarray | None = None,
          cat_ratio: float | None = None,
          slab_kept: tuple[float, float] | None = None) -> list[tuple[str | None, float]]:
    """The rules' readings (``vision.chop_read``), each replaced by the classifier's where it is
    at least ``sure`` of it (``hole``, when given, on a hole; ``strict``, when given, for a cat
    and, without ``hole``, on a hole); then one cat and four mice at most (the surplus, least
    likely by the classifier first: its reading if that differs, else the rules', else left but
    unsure). With the classifier's ``probs`` and ``cat_ratio``: the cat moves to the spot that
    is most the cat's by the classifier (``cat_here``). With ``slab_kept`` (rules, classifier):
    a spot the rules read as a slab at least the first sure keeps it unless the classifier's
    cheese is at least the second: the rules' slab is the slab's look learned at the start, in
    this group's light, which a face-up cheese does not have (C5), while the classifier's
    cheese may be a slab in a light it never saw."""
    need = [hole if hole is not None and k == "hole"
            else strict if strict is not None and (k == "hole" or c[0] == "cat") else sure
            for k, c in zip(kinds, learned)]
    if slab_kept is not None:
        need = [max(t, slab_kept[1]) if r[0] == "slab" and r[1] >= slab_kept[0] and c[0] == "cheese" else t
                for t, r, c in zip(need, rules, learned)]
    out = [c if c[1] >= t else r for r, c, t in zip(rules, learned, need)]
    if not any(t == "cat" for t, _ in out):  # the cat never leaves the board (C1, C6): the rules' cat
        out = [r if r[0] == "cat" else o for r, o in zip(rules, out)]
    _at_most(out, rules, learned)
    if probs is not None and cat_ratio is not None and cat_here(out, rules, learned, kinds, probs, cat_ratio):
        _at_most(out, rules, learned)
    return out


def likelier(rules: list[tuple[str | None, float]], learned: list[tuple[str | None, float]], kinds: list[str],
             sure: float, hole: float, margin: float) -> list[tuple[str | None, float]]:
    """The rules' readings with, on each slab square and hole where neither is sure (the
    classifier under ``sure``, on a hole under ``hole``, as ``merge`` needs), the classifier's
    reading where it is at least ``margin`` more sure than the rules' (before ``merge``; the cat
    apart, on both sides: one cat, C1, is settled across the frame). There a tile, a figure or
    nothing may lie (C1, C5), or a mouse or the opened hole (C3), and the rules' nearest look (on
    a hole, the start's picture) is often as unsure between them: a face-up cheese read as a mouse
    at 0.34-0.40 where the classifier said cheese at 0.39-0.46 (third family), a mouse on an
    opened hole read as the hole at 0.61-0.71 where the classifier said mouse at 0.80-0.84 (all
    three families). Without the margin, first-family opened holes in a shadow read as mice
    (the classifier 0.01-0.02 ahead); on the table and the floor (figures only) it cost a square:
    not there."""
    out = []
    for r, c, k in zip(rules, learned, kinds):
        top = hole if k == "hole" else sure
        take = k in ("slab", "hole") and r[1] + margin <= c[1] < top and "cat" not in (r[0], c[0])
        out.append(c if take else r)
    return out


def _at_most(out: list[tuple[str | None, float]], rules: list[tuple[str | None, float]],
             learned: list[tuple[str | None, float]]) -> None:
    """One cat and four mice at most, in place (``merge``)."""
    for c in ("cat", "mouse"):
        at = [i for i, (t, _) in enumerate(out) if t == c]
        if len(at) <= MOST[c]:
            continue
        at.sort(key=lambda i: -(learned[i][1] if learned[i][0] == c else 0.0))
        for i in at[MOST[c]:]:
            if learned[i][0] != c:
                out[i] = learned[i]
            elif rules[i][0] != c:
                out[i] = rules[i]
            else:
                out[i] = (c, min(out[i][1], 0.4))


def cat_stands(out: list[tuple[str | None, float]], kinds: list[str], probs: np.ndarray,
               empty: float) -> bool:
    """The cat is a figure standing on its spot (C1: it never leaves the board). A cat read on
    a spot that holds figures only (the table top and the floor under it, the floor without a
    slab square) where the classifier is at least ``empty`` sure that nothing stands there is
    no cat: the look-based rules took an empty spot's look for the cat's while the cat itself
    read as a mouse. The cat moves, unsure, to the spot read as a mouse off the holes whose
    classifier cat probability is highest (``cat_here``'s cue, without its ratio: the spot it
    leaves is surely empty), and that spot takes the classifier's likeliest reading that is no
    figure. (The rules' own mice are no candidates: where they read empty table spots as mice,
    the classifier is as sure of those as of the spot the cat leaves.) In place; True when the
    cat moved."""
    p = np.asarray(probs, np.float64)
    now = [i for i, (t, _) in enumerate(out) if t == "cat"]
    if len(now) != 1 or kinds[now[0]] not in ("table", "floor") or float(p[now[0], 0]) < empty:
        return False
    j = CLASSES.index("cat")
    mice = [i for i, (t, _) in enumerate(out) if t is not None and t.split(":")[0] == "mouse" and kinds[i] != "hole"]
    if not mice:
        return False
    best = max(mice, key=lambda i: float(p[i, j]))
    i = now[0]
    out[i] = likeliest_allowed(p[i], ALLOWED[kinds[i]] - {"cat", "mouse"}, UNSURE_CAT)
    out[best] = ("cat", UNSURE_CAT)
    return True


UNSURE_CAT = 0.5
"""The confidence of a cat moved by ``cat_stands`` (under ``PieceConfig.min_confidence``: asked)."""


def cat_here(out: list[tuple[str | None, float]], rules: list[tuple[str | None, float]],
             learned: list[tuple[str | None, float]], kinds: list[str], probs: np.ndarray,
             ratio: float) -> bool:
    """There is one cat and it never leaves the board (C1, C6), so the classifier's cat
    probabilities are compared across the frame, not each against a threshold: a figure of
    another look than any trained on can read as a mouse (or a slab) everywhere while its cat
    probability is still highest where the cat is. The spot off the holes (C3: never the cat)
    with the highest cat probability becomes the cat, unsure, when it is at least ``ratio``
    times that of the spot read as the cat now (or none is); that spot takes the classifier's
    reading, else the rules', else the classifier's likeliest other one. In place; True when
    the cat moved."""
    p = np.asarray(probs, np.float64)
    j = CLASSES.index("cat")
    spots = [i for i, k in enumerate(kinds) if k != "hole"]
    if not spots:
        return False
    best = max(spots, key=lambda i: float(p[i, j]))
    now = [i for i, (t, _) in enumerate(out) if t == "cat"]
    if best in now or (now and max(float(p[i, j]) for i in now) * ratio >= float(p[best, j])):
        return False
    for i in now:
        if learned[i][0] != "cat":
            out[i] = learned[i]
        elif rules[i][0] != "cat":
            out[i] = rules[i]
        else:
            out[i] = likeliest_allowed(p[i], ALLOWED[kinds[i]] - {"cat"}, 1.0)
    out[best] = ("cat", min(0.5, float(p[best, j]) + 0.3))
    return True
