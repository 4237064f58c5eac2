"""Kat en Muis: a counter stands on its square's middle; a shadow's edge crosses the square
(issue 31), used by the board reader's count (``vision.pieces``).

The game has one cat and one mouse, always (K1). A counter is smaller than a square and stands
on one (the print and the rules): the change it makes in its square lies in the square's middle,
on its footprint (its body and top over it; its own shadow touches its base). A change of light
(a lamp arm's or a hand's shadow edge, a neighbour's lean) is flat and crosses the square: its
change spreads over the square and past it. A metal disc in a lamp's shadow looks nearer the
learned cat, is read as a second cat and dropped by the one-cat count, while a shadow's edge,
whose look lies near the learned mouse's (a grey disc's look is a dimmed print's), is kept as
the mouse; the search for a missing mouse never runs.

``footprint_share``: the share of a spot's change from its print (absolute log ratio, all
channels) within ``FOOT_R`` square sides of its square's middle. A spot *beats* another when it
shows more on each of three counts, with no margin: its evidence, its footprint share, and the
share of its change a change of light cannot explain (``light_share``). ``footprint_swap``, after
the counts: of the spots the count dropped (not one light explains, ``lit``; in a crowd of
occupied spots, a hand's or shadows' around the counter, only one that beats each occupied
neighbour), the one with the most evidence times footprint share takes the place of the spot
kept for its own kind if it beats it; else of the counter of the other kind if it beats that and
the smaller sum of look distances gives it that kind (when it would give it its own kind, whose
kept spot it does not beat, all is left as read). Unsure (0.5: the cross-check asks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.katenmuis_read import light_share, lit
from vision.piece_looks import P

if TYPE_CHECKING:
    from vision.piece_spots import SpotFeatures

FOOT_R = 0.3
"""A counter's footprint, square sides from its square's middle (set once before measuring, not
tuned; the disc holds 0.28 of the square's area)."""
_yy, _xx = (np.mgrid[0:P, 0:P] + 0.5) / P - 0.5
_FOOT = (np.hypot(_xx, _yy) < FOOT_R)


def footprint_share(patches: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """[N] share of each patch's change from its print (absolute log ratio, summed over the
    channels) within a counter's footprint in the square's middle (``FOOT_R``)."""
    if not len(patches):
        return np.zeros(0)
    lr = np.abs(np.log(patches + 0.03) - np.log(empty + 0.03)).sum(axis=3).astype(np.float64)
    out: np.ndarray = lr[:, _FOOT].sum(axis=1) / (lr.sum(axis=(1, 2)) + 1e-9)
    return out


def footprint_swap(reader: SpotFeatures, decided: list[tuple[str | None, float]], dropped: dict[int, str],
                   d_cls: dict[str, np.ndarray], score: np.ndarray, crowd: np.ndarray,
                   always: tuple[str, ...]) -> None:
    """K1 (module doc): a dropped spot more of a solid on its footprint than a counter read takes
    its place. Only games in ``PieceConfig.footprint_swap`` whose every read piece is one of
    ``always`` (a pair on one square, "cat+mouse", is left as read). Sets ``decided``."""
    if reader.board.game not in reader.config.footprint_swap or getattr(reader, "_last_patches", None) is None:
        return
    read = {i: t for i, (t, _) in enumerate(decided) if t is not None and not reader._never_empty[i]}
    if not dropped or not read or any(t not in always for t in read.values()):
        return
    keys = list(dropped)
    light = dict(zip(keys, lit(reader, keys)))
    free = [i for i in keys if decided[i][0] is None and not light[i]]
    if not free:
        return
    centres = reader._spot_centres_px / reader.config.px_per_mm
    occ = np.nonzero((score >= 1) & ~reader._never_empty)[0]
    in_crowd = [i for i in free if crowd[i]]
    close = np.linalg.norm(centres[in_crowd][:, None, :] - centres[occ][None, :, :], axis=2) <= 1.5 * reader.cell_mm
    near = {i: [int(k) for k in occ[row] if k != i] for i, row in zip(in_crowd, close)}
    idx = sorted(set(free) | set(read) | {k for v in near.values() for k in v})
    foot = dict(zip(idx, footprint_share(reader._last_patches[idx], reader._last_empty_patches[idx])))
    solid = dict(zip(idx, light_share(reader._last_patches[idx], reader._last_empty_patches[idx])))

    def beats(i: int, k: int) -> bool:  # more of a solid on every count, no margin
        return bool(score[i] > score[k] and foot[i] > foot[k] and solid[i] > solid[k])

    # in a crowd (a hand's, or shadows' around the counter) only a spot that beats its neighbours
    free = [i for i in free if not crowd[i] or all(beats(i, k) for k in near[i])]
    if not free:
        return
    e = max(free, key=lambda i: float(score[i]) * foot[i])
    own = [j for j, t in read.items() if t == dropped[e] and beats(e, j)]
    if own:  # the count kept the wrong spot of its kind
        decided[own[0]], decided[e] = (None, 0.5), (dropped[e], 0.5)
        return
    beaten = [j for j in read if beats(e, j)]
    if not beaten:
        return
    j = min(beaten, key=lambda i: float(score[i]) * foot[i])
    kind = read[j]
    others = [k for k in read if k != j]
    if others and kind in d_cls and read[others[0]] in d_cls:
        k, other = others[0], read[others[0]]
        if float(d_cls[other][e] + d_cls[kind][k]) < float(d_cls[kind][e] + d_cls[other][k]):
            return  # e looks like the kind kept on k, which it does not beat: left as read
    decided[j], decided[e] = (None, 0.5), (kind, 0.5)
