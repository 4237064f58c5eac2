"""Chop! Chop!'s rules applied to a frame's readings (``vision.pieces.BoardReader`` calls this).

The reader first reads every spot on its own (nearest look, see ``vision.pieces``); Chop! Chop!'s
rules (``/work/shared/RULES.md`` section 2) then say what each spot can hold at all, and how many
of each piece there are, like chesscog's use of the rules after its per-square classifiers:

- a hole (C3) holds a mouse or an opened hole slab (read in ``BoardReader._hole_or_mouse``);
- the table top and the floor under it (one spot on the print) hold the cat and mice only:
  no slab and no tile was ever laid there;
- a face-down slab or a face-up tile can only lie on one of the 38 slab squares (C1), and a
  face-up tile that stays on the board can only be a cheese (C5): an occupied slab square whose
  look is near none of the learned looks (slab, cat, mice) is that cheese. It needs no learned
  look of its own (the start photo never shows one);
- a slab square that changed too little to count as occupied on its own (a grey slab on a pale
  square, a slab in a shadow) is a slab when its look is much nearer the learned slab look than
  its own empty print (``PieceConfig.chop_slab_dist``, ``chop_slab_share``);
- the cat never leaves the board and there is one (C1, C6): of the spots read as the cat, the one
  whose look is most the cat's rather than a mouse's is the cat, the others are mice; with no
  spot read as the cat and more than four mice read, the most cat-like of them is the cat. Four
  mice at most (C1): extra mouse readings farthest from the mouse look become unsure.

Every reading changed here gets a lower confidence, so the cross-check asks rather than trusts
(``companion.crosscheck`` ignores readings under the threshold).

A hole holds a mouse or an opened hole slab. A hole slab that was never opened still holds its
mouse (C4: leaving it opens it), and a mouse that never left stands where it stood: a hole spot
that looks as it did in the start photo is the closed slab with its mouse; one that changed was
opened, and a mouse on it is read only when its middle is clearly a mouse's look, and then
unsure (the app asks). Under the camera of the start photo (the board's corners where they
were), "looks as it did" is the same picture (``PieceModel.hole_starts``: the mouse that never
left stands where it stood); under another camera, the same ring around the middle (the slab's
side up, ``PieceModel.rings``). Both are learned by ``board learn`` from the start.
The mice's looks alone cannot tell a dark mouse, or a mouse on a pale slab, from an opened
hole: their mean colours are alike.

At the start (C1) the cat stands on a table-top square of its player's choice: ``start_cat``
finds it (the table-top spot that changed most), so ``board learn`` learns the cat's look from
the start photo without being told where it stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.piece_looks import P, _look_distance, _look_features

Decided = list[tuple[str | None, float]]


def spot_kinds(groups: list[list[str]], slabs: set[str], holes: set[str]) -> list[str]:
    """Each spot's kind: ``hole``, ``table`` (table top with the floor under it), ``slab`` (one
    of the squares that start with a face-down slab) or ``floor`` (any other)."""
    out = []
    for ids in groups:
        if holes & set(ids):
            out.append("hole")
        elif any(s.startswith("top:") for s in ids):
            out.append("table")
        elif slabs & set(ids):
            out.append("slab")
        else:
            out.append("floor")
    return out


def _class_distances(looks: np.ndarray, names: list[str], protos: np.ndarray) -> dict[str, np.ndarray]:
    dist = _look_distance(looks[:, None, :], protos[None, :, :])
    return {c: dist[:, [k for k, n in enumerate(names) if n == c]].min(axis=1) for c in sorted(set(names))}


def apply_rules(kinds: list[str], score: np.ndarray, looks: np.ndarray, empty_looks: np.ndarray,
                decided: Decided, names: list[str], protos: np.ndarray, learned: set[str],
                slab_dist: float = 0.6, slab_share: float = 0.4, weak: float = 0.3,
                far: float = 1.6, figure_far: float = 3.0, parts: np.ndarray | None = None,
                shade_max: float = 1.0, print_chroma: bool = False) -> None:
    """Chop! Chop!'s rules on one frame's per-spot readings, in place (see the module doc).

    ``kinds`` from ``spot_kinds``; ``score`` the occupancy evidence (1: occupied); ``looks`` and
    ``empty_looks`` the spots' look features and their empty print's; ``learned`` the look
    classes learned from known positions (the others are built-in guesses); ``parts`` the
    evidence's parts per spot (structure, chroma, brightness, spread): a figure read where only
    the brightness changed (each other part under ``shade_max``) is a shadow (with
    ``print_chroma``, the chroma the table top and floor share taken off: ``_print_chroma_less``)."""
    if not len(names):
        return
    d = _class_distances(looks, names, protos)
    big = np.full(len(kinds), 1e9)
    d_empty = _look_distance(looks, empty_looks)

    def dist(c: str) -> np.ndarray:
        return d.get(c, big)

    # this frame's slab look (same light for all): the median of the spots read as slabs
    slabs = [i for i, (t, _) in enumerate(decided) if t == "slab" and score[i] >= 1]
    d_frame_slab = _look_distance(looks, np.median(looks[slabs], axis=0)) if len(slabs) >= 5 else big

    for i, kind in enumerate(kinds):
        if kind == "hole":
            continue
        token, conf = decided[i]
        allowed = ["cat", "mouse"] + (["slab", "cheese"] if kind == "slab" else [])
        if token is None:
            if (kind == "slab" and score[i] >= weak and "slab" in learned
                    and dist("slab")[i] < slab_dist and dist("slab")[i] < slab_share * d_empty[i]):
                decided[i] = ("slab", float(0.5 + 0.4 * (1 - dist("slab")[i] / max(d_empty[i], 1e-6))))
            continue
        base = token.split(":", 1)[0]
        if kind == "slab" and learned and "cheese" not in learned:
            near_learned = min(float(dist(c)[i]) for c in learned if c in allowed) if learned & set(allowed) else 1e9
            near_learned = min(near_learned, float(d_frame_slab[i]))
            keep = base in learned and float(dist(base)[i]) < figure_far  # a figure far from its learned look
            if near_learned > far and not keep and base in allowed + ["hole"]:
                # a face-up tile on a slab square (C5: only a cheese stays) unlike every learned look
                decided[i] = ("cheese", float(min(conf, 0.5 + 0.1 * min(near_learned - far, 3.0))))
                continue
        if base not in allowed:
            best = min(allowed, key=lambda c: float(dist(c)[i]))
            decided[i] = (best, conf * 0.7)
    if parts is not None:
        parts = _print_chroma_less(parts, kinds) if print_chroma else parts
        for i, (token, _) in enumerate(decided):
            if (token is not None and token.split(":")[0] in ("cat", "mouse") and kinds[i] != "hole"
                    and float(np.max(parts[i, [0, 1, 3]])) < shade_max):
                decided[i] = (None, 0.6)  # darker only: the print's lines, colour and texture unchanged
    _one_cat(kinds, decided, dist("cat"), dist("mouse"))


def shade_mice(kinds: list[str], decided: Decided, parts: np.ndarray, probs: np.ndarray | None,
               shade_max: float, strict: float) -> int:
    """A mouse read on the table top or the floor (the rules' or the classifier's reading, after
    ``merge``) where the print changed in brightness only is nothing, as ``apply_rules`` reads a
    shadow: structure, spread and the chroma less the print's shared chroma
    (``_print_chroma_less``) each under ``shade_max``; kept where the classifier is at least
    ``strict`` sure of the mouse. A mouse is a solid figure: it changes the print's lines. In
    place; how many were cleared."""
    p = _print_chroma_less(parts, kinds)
    j = 4  # vision.chop_squares.CLASSES.index("mouse") (not imported: chop_squares imports this module)
    n = 0
    for i, (token, _) in enumerate(decided):
        if (token is None or token.split(":")[0] != "mouse" or kinds[i] not in ("table", "floor")
                or float(np.max(p[i, [0, 1, 3]])) >= shade_max
                or (probs is not None and float(probs[i, j]) >= strict)):
            continue
        decided[i] = (None, 0.6)
        n += 1
    return n


def _print_chroma_less(parts: np.ndarray, kinds: list[str]) -> np.ndarray:
    """``parts`` (structure, chroma, brightness, spread per spot) with the chroma of the table-top
    and floor spots less its median over them (never below 0): those spots are nearly all empty
    (five figures at most, C1), so a chroma change they share is the print's, not a figure's: a
    black-and-white laser print of the board's coloured table top shows no colour where the
    empty print has it, and every empty table spot then reads a chroma change (third family,
    seed 4261: 0.66-0.69 on every table spot, empty or not)."""
    ground = [i for i, k in enumerate(kinds) if k in ("table", "floor")]
    if len(ground) < 3:
        return parts
    out = np.array(parts, np.float64, copy=True)
    shared = max(float(np.median(out[ground, 1])), 0.0)
    out[ground, 1] = np.maximum(out[ground, 1] - shared, 0.0)
    return out


def _one_cat(kinds: list[str], decided: Decided, d_cat: np.ndarray, d_mouse: np.ndarray) -> None:
    """One cat (never on a hole), four mice at most: see the module doc."""
    rel = d_cat - d_mouse  # lower: more the cat's look than a mouse's
    cats = [i for i, (t, _) in enumerate(decided) if t == "cat"]
    mice = [i for i, (t, _) in enumerate(decided) if t is not None and t.split(":")[0] == "mouse"]
    if len(cats) > 1:
        keep = min(cats, key=lambda i: float(rel[i]))
        for i in cats:
            if i != keep:
                decided[i] = ("mouse", decided[i][1] * 0.7)
                mice.append(i)
        cats = [keep]
    if not cats:
        # the cat never leaves the board (C1, C6): read nowhere, it is the most cat-like mouse
        cand = [i for i in mice if kinds[i] != "hole"]
        if cand:
            i = min(cand, key=lambda j: float(rel[j]))
            decided[i] = ("cat", decided[i][1] * 0.7)
            mice.remove(i)
    if len(mice) > 4:
        mice.sort(key=lambda i: float(d_mouse[i]))
        for i in mice[4:]:
            if kinds[i] != "hole":
                decided[i] = (decided[i][0], min(decided[i][1], 0.4))


def start_like(known: dict[str, str], holes: Sequence[str], slabs: Sequence[str]) -> bool:
    """A known position as C1 lays it: every slab square with its slab, a mouse on every hole
    (so no hole slab was ever left: all are closed)."""
    return (all(str(known.get(h, "")).startswith("mouse") for h in holes)
            and all(known.get(s) == "slab" for s in slabs))


def start_cat(kinds: list[str], score: np.ndarray) -> int | None:
    """The spot of the cat in a start photo (C1: on a table-top square, nothing else there):
    the table-top spot that changed most, when it clearly changed (evidence >= 1)."""
    table = [i for i, k in enumerate(kinds) if k == "table"]
    if not table:
        return None
    i = max(table, key=lambda j: float(score[j]))
    return i if score[i] >= 1 else None


def hole_faces(patches: np.ndarray) -> np.ndarray:
    """[N, P, P, 3] light-normalised spot patches -> [N, P*P]: each one's grey levels, smoothed,
    less their mean, at unit length (compared by a dot product: 1 the same picture). The same bits
    whatever ``patches``' layout in memory: numpy sums a row that is not innermost in memory one
    element after another, not pairwise, so the patches are made C-contiguous first (no copy for
    the reader's own, which are; tests/vision/test_read_layout.py)."""
    g = np.ascontiguousarray(patches).mean(axis=3)
    g = (g[:, :-2, :] + 2 * g[:, 1:-1, :] + g[:, 2:, :]) / 4
    g = np.concatenate([g[:, :1], g, g[:, -1:]], axis=1)  # the edge rows repeated
    g = (g[:, :, :-2] + 2 * g[:, :, 1:-1] + g[:, :, 2:]) / 4
    g = np.concatenate([g[:, :, :1], g, g[:, :, -1:]], axis=2).reshape(len(patches), -1)
    g = g - g.mean(axis=1, keepdims=True)
    out: np.ndarray = g / (np.linalg.norm(g, axis=1, keepdims=True) + 1e-6)
    return out


_yy, _xx = np.mgrid[0:P, 0:P]
_RING = ((np.minimum(np.minimum(_yy, _xx), np.minimum(P - 1 - _yy, P - 1 - _xx)) >= 1)
         & ((_yy < 4) | (_yy >= 12) | (_xx < 4) | (_xx >= 12)))
"""A spot's ring: its patch outside the middle (``INNER``), less the outermost pixel (grid line)."""


def ring_looks(patches: np.ndarray) -> np.ndarray:
    """[N, P, P, 3] light-normalised spot patches -> [N, 4] look features of their rings."""
    ring = patches[:, _RING][:, None, :, :]
    out: np.ndarray = _look_features(ring)
    return out


def ring_reading(ring: np.ndarray, rings: list[list[float]], token: str, conf: float,
                 d_mouse: float, ring_dist: float, mouse_dist: float) -> tuple[str, float]:
    """A hole spot's reading under another camera than the start's: a mouse read on a hole whose
    ring changed from the start (farther than ``ring_dist`` from every learned start ring: the
    slab was opened) is the opened hole, unless its middle is within ``mouse_dist`` of a learned
    mouse (then a mouse, unsure)."""
    if not rings:
        return token, conf
    d_ring = float(_look_distance(np.asarray(rings, np.float64), ring).min())
    if d_ring < ring_dist or token != "mouse":
        return token, conf  # the look alone decides (a closed slab's ring: its mouse is read there)
    if d_mouse < mouse_dist:
        return "mouse", 0.55
    return "hole", float(min(0.95, 0.6 + 0.2 * min(d_ring / ring_dist - 1, 1.0)
                             + 0.15 * min(d_mouse / mouse_dist - 1, 1.0)))


@dataclass(frozen=True)
class HolePictures:
    """One frame's hole spots and their pictures, computed once for the rules
    (``BoardReader._chop_hole``) and the classifier's features (``vision.chop_squares``)."""

    spots: tuple[int, ...]
    """The spots holding a hole, in spot order."""
    holes: tuple[int, ...]
    """Each one's index among the board's holes (``PieceModel.hole_starts`` order)."""
    same: bool
    """The camera of the start photo (its hole pictures can be compared picture to picture)."""
    faces: np.ndarray | None
    """[len(spots), P*P] ``hole_faces``, when ``same``."""
    rings: np.ndarray | None
    """[len(spots), 4] ``ring_looks``, when the start's rings were learned."""

    def row(self, spot: int) -> int:
        """The row of ``spot`` in ``faces`` and ``rings`` (-1: not a hole spot)."""
        return self.spots.index(spot) if spot in self.spots else -1


def hole_pictures(groups: list[list[str]], holes: Sequence[str], patches: np.ndarray, starts: int,
                  rings: bool, same: bool) -> HolePictures:
    """The hole spots of a frame (``groups``: the reader's spots; ``holes``: the board's) with
    their pictures: ``hole_faces`` when the start photo's ``starts`` hole pictures exist (one per
    hole) and it is the ``same`` camera, ``ring_looks`` when the start's ``rings`` were learned."""
    where = [(i, next((k for k, h in enumerate(holes) if h in ids), -1)) for i, ids in enumerate(groups)]
    where = [(i, k) for i, k in where if k >= 0]
    spots = tuple(i for i, _ in where)
    same = same and starts == len(holes) and bool(spots)
    picked = patches[list(spots)]
    return HolePictures(spots, tuple(k for _, k in where), same,
                        hole_faces(picked) if same else None,
                        ring_looks(picked) if rings and spots else None)


def same_camera(corners: list[float], now: np.ndarray, tol_px: float) -> bool:
    """The board's four corners (8 numbers, pixels) where the start photo showed them, within
    ``tol_px`` of where they are now: the same camera, so spots can be compared picture to picture."""
    return len(corners) == 8 and float(np.abs(np.asarray(corners) - now.ravel()).max()) <= tol_px


def hole_reading(face: np.ndarray, starts: list[list[float]], token: str, conf: float,
                 d_mouse: float, same: float, mouse_dist: float) -> tuple[str, float]:
    """A hole spot's reading (``token``, ``conf`` from its look alone) against the hole spots as
    the start showed them (``starts``: ``hole_faces`` of each hole with its mouse on its closed
    slab). Nearly the same picture as one of them (correlation >= ``same``): the closed slab
    with its mouse. Otherwise the slab was opened (C4): a mouse read there is the opened hole,
    unless its middle is within ``mouse_dist`` of a learned mouse (then a mouse, unsure)."""
    if not starts:
        return token, conf
    sim = float((np.asarray(starts, np.float64) @ face).max())
    if sim >= same:
        return "mouse", float(max(conf, 0.8))
    if token != "mouse":
        return token, conf
    if d_mouse < mouse_dist:
        return "mouse", 0.55
    return "hole", float(min(0.9, 0.6 + 0.3 * (same - sim)))
