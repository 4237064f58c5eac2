"""Shadows learned from a known position, read by the board reader (``vision.pieces``) for the
games in ``PieceConfig.shadow_looks`` (Kilkenny Cats).

A shadow on the paper is the print lit by less light: under one light (a lamp, a window, a
dim evening bulb) every shadow in the picture darkens the print the same way and tints it
with the light left over, whatever casts it (a figure, a hand, the camera's stand). Its look
relative to the print's look (chroma moved, log brightness dropped) lies on a line from no
change (the print lit fully) to the darkest a shadow gets there (deep under a figure); a spot
at a shadow's soft edge lies part of the way along. A dark figure can share a shadow's colour
(a dark blue metal cat under a dim evening lamp: both are the paper's blue-grey), but the known
position shows where this light's shadows lie and the cats' learned looks where the cats do: a
spot read as a cat far from the cat's look that lies much nearer a learned shadow line is a
shadow on an empty square.

Learned on the empty spots of a known position that would be read as occupied (evidence >= 1)
and changed at least ``ShadowLooks.least`` look units from their print. A spot behind a known
piece (the piece between it and the point below the camera, within 1.5 squares) may show that
piece's body rather than a shadow: it is left out when its colour lies part of the way towards
that piece's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.boardlocate import BoardPose, camera_from_homography
from vision.piece_config import ShadowLooks
from vision.piece_looks import LOOK_SCALE, appearance
from vision.piece_mix import colour_shares

if TYPE_CHECKING:
    from vision.piece_spots import SpotFeatures

_SCALE = LOOK_SCALE[:3]
"""A shadow's line: chroma b, chroma g and log brightness moved (look units); the spread of grey
levels says where an edge crosses the spot, not how deep the shadow is."""


def shadow_distance(rel_look: np.ndarray, shadows: np.ndarray, reach: float) -> float:
    """Look distance from a spot's look relative to its print's (``rel_look``, look minus
    print's) to the nearest shadow line: from no change to ``reach`` times each learned example
    (``shadows`` rows, relative looks); inf without examples."""
    if not len(shadows):
        return float("inf")
    x = np.asarray(rel_look, np.float64)[:3] / _SCALE
    s = np.asarray(shadows, np.float64).reshape(len(shadows), -1)[:, :3] / _SCALE
    length2 = (s * s).sum(axis=1)
    t = np.clip((s @ x) / np.maximum(length2, 1e-12), 0.0, reach)
    return float(np.linalg.norm(x[None, :] - t[:, None] * s, axis=1).min())


def behind_known(centres_mm: np.ndarray, spots: list[int], pieces: list[int], foot: tuple[float, float],
                 cell_mm: float) -> dict[int, list[int]]:
    """Those of ``spots`` with some of ``pieces`` on a neighbouring square between them and the
    camera (at least half a square nearer the point below it, within 1.5 squares), and those
    pieces: where a piece's body may be what the camera sees of the spot."""
    if not spots or not pieces:
        return {}
    c = np.asarray(centres_mm, np.float64)
    a, b = c[spots], c[pieces]
    u = np.asarray(foot, np.float64) - a
    u /= np.linalg.norm(u, axis=1, keepdims=True) + 1e-9
    d = b[None, :, :] - a[:, None, :]  # [spot, piece]: from the spot to the piece
    hit = (np.linalg.norm(d, axis=2) <= 1.5 * cell_mm) & ((d * u[:, None, :]).sum(axis=2) > 0.5 * cell_mm)
    return {spots[k]: [pieces[j] for j in np.nonzero(hit[k])[0]] for k in np.nonzero(hit.any(axis=1))[0]}


def shadow_examples(looks: np.ndarray, empty_looks: np.ndarray, score: np.ndarray, empty: list[int],
                    shows: dict[int, set[str]], names: list[str], protos: np.ndarray,
                    rule: ShadowLooks) -> list[list[float]]:
    """Relative looks (look minus print's) of the known ``empty`` spots that would be read as
    occupied (``score`` >= 1) and changed at least ``rule.least`` from their print, but not of
    one whose colour lies part of the way (``rule.body_share``, within ``rule.body_off`` of the
    line: ``vision.piece_mix.colour_shares``) towards a piece class it may show (``shows``: the
    classes of the pieces in front of it)."""
    out: list[list[float]] = []
    for i in empty:
        if score[i] < 1:
            continue
        rel = np.asarray(looks[i], np.float64) - np.asarray(empty_looks[i], np.float64)
        if float(np.linalg.norm(rel[:3] / _SCALE)) < rule.least:
            continue
        if shows.get(i):
            shares = colour_shares(looks[i], empty_looks[i], names, protos)
            if any(c in shares and shares[c][0] >= rule.body_share and shares[c][1] <= rule.body_off
                   for c in shows[i]):
                continue  # a piece's body leaning over, not a shadow
        out.append([float(v) for v in rel])
    return out


def learn_shadows(reader: SpotFeatures, image: np.ndarray, pose: BoardPose, score: np.ndarray, looks: np.ndarray,
                  position: dict[str, str], names: list[str], protos: np.ndarray, shadows: list[list[float]],
                  rule: ShadowLooks) -> None:
    """Add the shadows of a known position (square -> token, empty squares left out;
    ``features`` read first; ``names``, ``protos``: the learned looks) to ``shadows``, keeping
    the latest ``rule.most``."""
    known = {i: next((appearance(position[s]) for s in ids if s in position), None)
             for i, ids in enumerate(reader.groups)}
    empty = [i for i, t in known.items() if t is None and not reader._never_empty[i]]
    pieces = [i for i, t in known.items() if t is not None]
    shows: dict[int, set[str]] = {}
    if pose.homography is not None and pieces:
        foot = camera_from_homography(pose.sampling()[0], (image.shape[1], image.shape[0])).foot
        centres = reader._spot_centres_px / reader.config.px_per_mm
        shows = {i: {str(known[j]) for j in front}
                 for i, front in behind_known(centres, empty, pieces, foot, reader.cell_mm).items()}
    shadows += shadow_examples(looks, reader._last_look_empty, score, empty, shows, names, protos, rule)
    del shadows[:-rule.most]


def in_shadow(rel_look: np.ndarray, piece_dist: float, shadows: list[list[float]], rule: ShadowLooks) -> bool:
    """A spot read as a piece at look distance ``piece_dist`` (farther than ``rule.far``) whose
    look relative to its print's (``rel_look``) lies within ``rule.near`` of a learned shadow
    line and at most ``rule.ratio`` times as far from it as from the piece's look."""
    if not shadows or piece_dist <= rule.far:
        return False
    d = shadow_distance(rel_look, np.asarray(shadows, np.float64), rule.reach)
    return d <= rule.near and d <= rule.ratio * piece_dist
