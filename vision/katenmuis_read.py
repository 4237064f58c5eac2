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

Both counters never leave the board. When the count drops an occupied spot for a second piece
of one kind while the other kind is read nowhere, that spot holds the missing counter, whatever
its colour or material (a dark metal cat under an evening lamp read as a second mouse):
``missing_from_dropped``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.piece_looks import _step_fraction

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


def beyond_edges(reader: SpotFeatures, cand: list[int], step_frac: np.ndarray) -> list[int]:
    """The spots of ``cand`` the search for a missing piece may take: those a straight shadow
    edge does not explain (``step_frac`` >= ``shadow_step_frac``), or for games with
    ``PieceConfig.shadow_edge`` those it explains but for at least ``always_edge`` (measured
    here: ``step_frac`` holds only the occupied spots')."""
    cfg = reader.config
    if reader.board.game not in cfg.shadow_edge or not cand:
        return [i for i in cand if step_frac[i] >= cfg.shadow_step_frac]
    frac = _step_fraction(reader._last_patches[cand], reader._last_empty_patches[cand])
    return [i for i, f in zip(cand, frac) if f >= cfg.always_edge]


def missing_from_dropped(decided: list[tuple[str | None, float]], dropped: dict[int, str], missing: str,
                         d_cls: dict[str, np.ndarray], crowd: np.ndarray, score: np.ndarray) -> int | None:
    """A piece that never leaves the board (``missing``) read nowhere, while the count dropped
    occupied spots for one piece of a kind too many (``dropped``: spot -> the kind it was read
    as, now read empty): such a spot holds a solid counter, whatever its colour or material,
    and the only counter missing is ``missing``. Of the dropped spots not under a hand's crowd
    and showing at least the evidence (``score``) of the spot kept for their kind (a solid
    counter's change, not a weak shadow's), the one nearest ``missing``'s look takes a piece;
    which of it and the spot kept for its kind holds which is the assignment of the two kinds
    to the two spots with the smaller sum of look distances (a dark metal cat under an evening lamp looks nearer the mouse than the cat, but
    nearer the cat than the real mouse does). Unsure either way (0.5: the cross-check asks).
    Sets ``decided``; returns the spot that took ``missing``, or None."""
    kept_score = {c: max((float(score[k]) for k, (t, _) in enumerate(decided) if t == c), default=0.0)
                  for c in set(dropped.values())}
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

