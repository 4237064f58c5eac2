"""Kat en Muis's two counters told from a hand (issue 31), read by the board reader
(``vision.pieces``).

The game has one cat and one mouse, each a small counter on one square. A hand reaching over
the board (or its arm, or its shadow) changes a patch of several neighbouring squares at once,
and one of them may look more like the cat than the cat itself does (a white cat on white
paper hardly changes its square). The game's counts keep the nearest look of a class, so the
hand's spot was kept and the real cat dropped. Two counters fill two squares at most: a spot
that is one of ``least`` or more occupied spots touching each other (a "crowd") is under
something larger than a counter. Such spots come after every spot standing alone when the
count chooses, and a piece read there is unsure (the cross-check asks).

A counter coloured like the paper (a white cat) shows little but structure: its look is as
near the print's look as the cat's, so when the count looks for a missing piece among the weak
spots, how much nearer a spot's look is to the piece's than to its print only counts as far as
the piece's learned look differs from the print's (``look_weight``); otherwise the evidence
alone decides.

A counter may stand in a shadow's edge itself (the camera stand's shadow band across the track):
a straight edge then explains much of its spot's change, and the search for a missing piece
skipped it while a weak spot elsewhere on that edge, whose change had not been measured against
an edge, was taken instead. The search now measures every spot it could take and skips only
those an edge explains but for less than ``PieceConfig.always_edge`` (the bare edge), not
those a counter standing in it leaves less explained.

A counter is a solid whatever its colour or material (see-through acrylic, metal, lacquer, a
paper-white disc): it hides the print's lines and labels and shows its own edges. A change of
light keeps the print and only scales it smoothly: a shadow's interior, a soft shadow's gradient,
its straight edge, glare. Where a smooth light field (constant and gradient, per channel, in log)
with one straight step explains all but a small share of a spot's change from its print
(``light_share``) and the spot is not darker than a shadow gets (``PieceConfig.solid_light``,
``SolidRule``), the spot holds no counter (``lit``): the count keeps a counter's spot by its look
distance per unit of evidence among the spots light does not explain (``count_weight``: a paper-
like counter's learned look lies as near a dimmed print as the counter's own spot, so the nearest
look alone kept a shadow's spot and dropped the counter), the search for a missing counter skips
such spots, and a dropped spot light does not explain may be the missing counter
(``solid_score``, ``missing_from_dropped``).

Both counters never leave the board. When the count drops an occupied spot for a second piece
of one kind while the other kind is read nowhere, that spot holds the missing counter, whatever
its colour or material (a dark metal cat under an evening lamp read as a second mouse):
``missing_from_dropped``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.piece_looks import INNER, LOOK_SCALE, _STEPS_T, P, _look_features, _step_fraction

if TYPE_CHECKING:
    from vision.piece_spots import SpotFeatures


def crowded(centres_mm: np.ndarray, occupied: np.ndarray, cell_mm: float, least: int) -> np.ndarray:
    """[N] bool: occupied spots in a group of at least ``least`` occupied spots, each within
    1.5 square sides of another of the group (neighbours and diagonal neighbours)."""
    c = np.asarray(centres_mm, np.float64)
    occ = np.asarray(occupied, bool)
    near = np.linalg.norm(c[:, None, :] - c[None, :, :], axis=2) <= 1.5 * cell_mm
    near &= occ[:, None] & occ[None, :]
    label = np.full(len(c), -1)
    for start in np.nonzero(occ)[0]:
        if label[start] >= 0:
            continue
        label[start] = start
        todo = [int(start)]
        while todo:
            i = todo.pop()
            for j in np.nonzero(near[i] & (label < 0))[0]:
                label[j] = start
                todo.append(int(j))
    sizes = np.bincount(label[label >= 0], minlength=len(c)) if occ.any() else np.zeros(len(c), int)
    out: np.ndarray = occ & (sizes[np.maximum(label, 0)] >= least)
    return out


def look_weight(proto_to_print: float, scale: float = 2.0) -> float:
    """How much a piece's look (vs its print's) can tell a spot holding it: 0 for a piece
    coloured like the print, 1 for one ``scale`` look units away from it or more."""
    return float(np.clip(proto_to_print / scale, 0.0, 1.0))


def spot_crowds(reader: SpotFeatures, score: np.ndarray) -> np.ndarray:
    """[N] bool: the reader's occupied spots (evidence ``score`` >= 1) in a crowd of
    ``PieceConfig.crowd`` or more touching ones; none for games without a crowd size."""
    least = reader.config.crowd.get(reader.board.game)
    if not least:
        return np.zeros(len(score), bool)
    return crowded(reader._spot_centres_px / reader.config.px_per_mm, (score >= 1) & ~reader._never_empty,
                   reader.cell_mm, least)


_yy, _xx = np.mgrid[0:P, 0:P].astype(np.float64) / P - (P - 1) / (2 * P)
_FIELD = np.column_stack([np.ones(P * P), _xx.ravel(), _yy.ravel()])
_SMOOTH = (_FIELD @ np.linalg.pinv(_FIELD)).T.astype(np.float32)
"""Projection onto a smooth light field over a patch (constant and gradient)."""
_EDGES = (_STEPS_T - _SMOOTH @ _STEPS_T).astype(np.float32)
_EDGE_W = 1 / np.maximum((_EDGES.astype(np.float64) ** 2).sum(axis=0), 1e-9)
"""Straight steps through a patch (``piece_looks._STEPS``), less their smooth part, [P*P, K]."""


def light_share(patches: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """[N] share of each patch's change from its print (log ratio, all channels, its mean
    included) that a change of light cannot explain: a smooth field (constant and gradient per
    channel) and one straight step on top of it. A shadow, its soft or straight edge, glare:
    little left; a counter hiding the print's lines and showing its own edges: much."""
    n = patches.shape[0]
    if not n:
        return np.zeros(0)
    lr = (np.log(patches + 0.03) - np.log(empty + 0.03)).transpose(0, 3, 1, 2).reshape(n * 3, P * P)
    tot = (lr.astype(np.float64) ** 2).reshape(n, -1).sum(axis=1)
    rest = lr - lr @ _SMOOTH
    left = (rest.astype(np.float64) ** 2).reshape(n, -1).sum(axis=1)
    step = ((rest @ _EDGES).reshape(n, 3, -1).astype(np.float64) ** 2).sum(axis=1) * _EDGE_W[None, :]
    out: np.ndarray = np.maximum(left - step.max(axis=1), 0.0) / (tot + 1e-6)
    return out


def lit(reader: SpotFeatures, spots: list[int]) -> np.ndarray:
    """[len(spots)] bool: spots whose change a change of light explains (``SolidRule``, the
    game's ``PieceConfig.solid_light``; none for games without it)."""
    rule = reader.config.solid_light.get(reader.board.game)
    if rule is None or not spots or getattr(reader, "_last_patches", None) is None:
        return np.zeros(len(spots), bool)  # (no frame's patches: counted by look alone)
    share = light_share(reader._last_patches[spots], reader._last_empty_patches[spots])
    looks = _look_features(reader._last_patches[spots][:, INNER, INNER])
    fell = (looks[:, 2] - reader._last_look_empty[spots, 2]) / LOOK_SCALE[2]
    out: np.ndarray = (share < rule.share) & (fell > rule.deep)
    return out


def count_weight(reader: SpotFeatures, score: np.ndarray, spots: list[int]) -> dict[int, float]:
    """Spot -> what the count divides a spot's look distance by when it keeps one piece of a kind
    (1 for games without ``PieceConfig.solid_light``): its evidence (up to 4), and nearly nothing
    where a change of light explains it, so a solid counter's spot comes first."""
    if reader.board.game not in reader.config.solid_light:
        return {i: 1.0 for i in spots}
    light = lit(reader, spots)
    return {i: min(float(score[i]), 4.0) * (0.01 if f else 1.0) for i, f in zip(spots, light)}


def solid_score(reader: SpotFeatures, score: np.ndarray, spots: dict[int, str]) -> tuple[np.ndarray, bool]:
    """(``score`` with the spots of ``spots`` that a change of light explains set to 0, whether
    the game has ``PieceConfig.solid_light``; ``score`` itself and False for the others): the
    spots the count dropped that may hold the missing counter (``missing_from_dropped``)."""
    if reader.board.game not in reader.config.solid_light:
        return score, False
    out = np.array(score, np.float64)
    keys = list(spots)
    out[[i for i, f in zip(keys, lit(reader, keys)) if f]] = 0.0
    return out, True


def beyond_edges(reader: SpotFeatures, cand: list[int], step_frac: np.ndarray) -> list[int]:
    """The spots of ``cand`` the search for a missing piece may take: those a straight shadow
    edge does not explain (``step_frac`` >= ``shadow_step_frac``), or for games with
    ``PieceConfig.shadow_edge`` those it explains but for at least ``always_edge`` (measured
    here: ``step_frac`` holds only the occupied spots')."""
    cfg = reader.config
    if reader.board.game not in cfg.shadow_edge or not cand:
        return [i for i in cand if step_frac[i] >= cfg.shadow_step_frac]
    frac = _step_fraction(reader._last_patches[cand], reader._last_empty_patches[cand])
    return [i for i, f, light in zip(cand, frac, lit(reader, cand)) if f >= cfg.always_edge and not light]


def missing_from_dropped(decided: list[tuple[str | None, float]], dropped: dict[int, str], missing: str,
                         d_cls: dict[str, np.ndarray], crowd: np.ndarray, score: np.ndarray,
                         solid: bool = False) -> int | None:
    """A piece that never leaves the board (``missing``) read nowhere, while the count dropped
    occupied spots for one piece of a kind too many (``dropped``: spot -> the kind it was read
    as, now read empty): such a spot holds a solid counter, whatever its colour or material,
    and the only counter missing is ``missing``. Of the dropped spots not under a hand's crowd
    and showing at least the evidence (``score``) of the spot kept for their kind (a solid
    counter's change, not a weak shadow's), the one nearest ``missing``'s look takes a piece;
    which of it and the spot kept for its kind holds which is the assignment of the two kinds
    to the two spots with the smaller sum of look distances (a dark metal cat under an evening lamp looks nearer the mouse than the cat, but
    nearer the cat than the real mouse does). ``solid`` (``PieceConfig.solid_light``: the count
    kept the strongest spot of a kind, and ``score`` is 0 where light explains a spot): any
    occupied dropped spot may take it. Unsure either way (0.5: the cross-check asks).
    Sets ``decided``; returns the spot that took ``missing``, or None."""
    kept_score = {c: max((float(score[k]) for k, (t, _) in enumerate(decided) if t == c), default=0.0)
                  for c in set(dropped.values())}
    if solid:  # the count kept the strongest of a kind: any occupied spot light does not explain
        kept_score = {c: 1.0 for c in kept_score}
    free = [i for i in dropped if not crowd[i] and decided[i][0] is None and score[i] >= kept_score[dropped[i]]]
    if not free or missing not in d_cls:
        return None
    e = min(free, key=lambda i: float(d_cls[missing][i]))
    other = dropped[e]
    kept = [k for k, (t, _) in enumerate(decided) if t == other and not crowd[k]]
    if len(kept) == 1 and other in d_cls:
        k = kept[0]
        if float(d_cls[missing][k] + d_cls[other][e]) < float(d_cls[missing][e] + d_cls[other][k]):
            decided[e], decided[k] = (other, 0.5), (missing, 0.5)
            return k
    decided[e] = (missing, 0.5)
    return e

