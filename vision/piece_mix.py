"""A piece's colour seen partly: how much of a spot's colour is a learned piece's, read by the
board reader (``vision.pieces``) for games whose pieces all differ in colour from the print
(Kilkenny Cats: ``PieceConfig.colour_share``).

A spot's look is the mean colour of its middle. Where a piece covers only part of it (a flat
wooden cut-out standing edge-on, a thin figure), that mean is a mix of the piece's colour and
the print's, and its look lies far from both, so the nearest-look rule and the shadow checks
(a straight shadow edge, a colour that hardly changed) take it for a shadow. Mixing light adds
colours, so the chromaticity (b, g shares) of a mix lies on the straight segment from the
print's chromaticity to the piece's, whatever the light level: ``share`` is how far along that
segment the spot lies, the share of the spot's light that is the piece's colour (0 the print, 1
the piece; beyond 1 a piece more saturated than learned; a dark piece on half the pixels gives
less than half), and ``off`` how far off the segment (in ``LOOK_SCALE`` units). A shadow keeps the print's chromaticity
(share near 0); a shadow lit by another light than the rest (the warm lamp blocked, the cold
window left) moves it part of the way towards a blue or a yellow piece (measured up to 0.7 of
the way); a piece seen whole lies at 0.5 to 1.5.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.boardlocate import BoardPose, camera_from_homography
from vision.piece_config import BehindRule, ShadedRule
from vision.piece_looks import LOOK_SCALE

if TYPE_CHECKING:
    from vision.piece_spots import SpotFeatures


def colour_shares(look: np.ndarray, empty_look: np.ndarray, names: list[str],
                  protos: np.ndarray) -> dict[str, tuple[float, float]]:
    """Per look class: (share, off) of the spot's chromaticity on the segment from its empty
    print's (``empty_look``) to the class's learned looks (``protos`` rows, named by
    ``names``; the example it lies least off counts)."""
    p = np.asarray(look, np.float64)[:2]
    q = np.asarray(empty_look, np.float64)[:2]
    v = np.asarray(protos, np.float64).reshape(len(names), -1)[:, :2] - q
    length2 = (v * v).sum(axis=1)
    ok = length2 >= 1e-9  # a piece coloured like the print has no segment to lie on
    share = ((p - q) * v).sum(axis=1) / np.where(ok, length2, 1.0)
    off = np.linalg.norm(p - (q + np.clip(share, 0.0, 1.0)[:, None] * v), axis=1) / float(LOOK_SCALE[0])
    out: dict[str, tuple[float, float]] = {}
    for k, name in enumerate(names):
        if ok[k] and (name not in out or off[k] < out[name][1]):
            out[name] = (float(share[k]), float(off[k]))
    return out


def partly_seen(look: np.ndarray, empty_look: np.ndarray, names: list[str], protos: np.ndarray,
                min_share: float, max_off: float) -> str | None:
    """The one class whose colour makes up at least ``min_share`` of the spot's, the spot lying
    within ``max_off`` of that class's segment (the least off of such classes), else None."""
    shares = colour_shares(look, empty_look, names, protos)
    fits = {c: off for c, (share, off) in shares.items() if share >= min_share and off <= max_off}
    return min(fits, key=lambda c: fits[c]) if fits else None


def shaded_piece(look: np.ndarray, empty_look: np.ndarray, names: list[str], protos: np.ndarray,
                 spreads: tuple[float, float], rule: ShadedRule) -> str | None:
    """A small piece covering part of its spot: the class whose colour makes up at least the
    rule's ``share`` of the spot's, the spot lying within ``off`` of its segment (the least off),
    when the spot's spread scores (board plane, raised plane) both show a piece's shading."""
    if min(spreads) < rule.spread:
        return None
    return partly_seen(look, empty_look, names, protos, rule.share, rule.off)


def tinted_light(look: np.ndarray, empty_look: np.ndarray, token: str, dist: float, names: list[str],
                 protos: np.ndarray, spreads: tuple[float, float], chromas: tuple[float, float],
                 rule: ShadedRule) -> bool:
    """A spot read as ``token`` at look distance ``dist`` that is only tinted towards its colour
    (far from its look, less than ``tint_share`` of the way to it, its chroma scores under
    ``tint_chroma``) and shows no piece's shading in either plane (spread scores under
    ``tint_spread``)."""
    if dist <= rule.tint_dist or max(spreads) >= rule.tint_spread or max(chromas) >= rule.tint_chroma:
        return False
    share = colour_shares(look, empty_look, names, protos).get(token, (0.0, 0.0))[0]
    return share < rule.tint_share


def print_intact(structs: tuple[float, float], spreads: tuple[float, float], chromas: tuple[float, float],
                 rule: ShadedRule) -> bool:
    """A spot whose print still shows as printed (structure scores under ``intact_struct``), with
    no piece's shading (spread scores under ``intact_spread``) and its colour moved less than a
    cat's in a shadow (chroma scores under ``tint_chroma``), in both planes: only the light on it
    changed (a shadow, a tinted light), however near a cat's colour it lies."""
    return (max(structs) < rule.intact_struct and max(spreads) < rule.intact_spread
            and max(chromas) < rule.tint_chroma)


def lit_print(shares: tuple[float, float], spreads: tuple[float, float], chromas: tuple[float, float],
              rule: ShadedRule) -> bool:
    """A spot whose change from its print a change of light explains but for less than
    ``lit_share`` (``shares``: ``vision.katenmuis_read.light_share`` in the board's plane and the
    raised one), with no piece's shading (spread scores under ``lit_spread``) and its colour moved
    less than a cat's (chroma scores under ``tint_chroma``), in both planes: the print is all
    there, lit otherwise (a shadow, tinted light), however near a cat's look it lies."""
    return (max(shares) < rule.lit_share and max(spreads) < rule.lit_spread
            and max(chromas) < rule.tint_chroma)


def head_plane(shares_by_plane: dict[float, list[float]], least: float) -> float:
    """The highest plane (square sides up) where a quarter of the known pieces at most show
    less than ``least`` of their colour (``colour_shares`` of their own class), else 0.0: how
    tall the pieces are, learned from a known position."""
    ok = [z for z, shares in shares_by_plane.items() if len(shares) >= 4 and float(np.percentile(shares, 25)) >= least]
    return max(ok, default=0.0)


def behind_same(centres_mm: np.ndarray, tokens: list[str | None], foot: tuple[float, float],
                cell_mm: float) -> list[int]:
    """Spots read as a piece with a piece read the same on a neighbouring square between them
    and the camera (at least half a square nearer the point below it, within 1.5 squares):
    where that piece's body may be all the camera sees of the spot."""
    read = [i for i, t in enumerate(tokens) if t is not None]
    if len(read) < 2:
        return []
    c = np.asarray(centres_mm, np.float64)[read]
    u = np.asarray(foot, np.float64) - c
    u /= np.linalg.norm(u, axis=1, keepdims=True) + 1e-9
    d = c[None, :, :] - c[:, None, :]  # [i, j]: from spot i to spot j
    towards = (d * u[:, None, :]).sum(axis=2)
    near = np.linalg.norm(d, axis=2) <= 1.5 * cell_mm
    same = np.array([[tokens[i] == tokens[j] for j in read] for i in read])
    hit = same & near & (towards > 0.5 * cell_mm)
    return [read[k] for k in np.nonzero(hit.any(axis=1))[0]]


def learn_head(reader: SpotFeatures, image: np.ndarray, pose: BoardPose, known: dict[int, str], names: list[str],
               protos: np.ndarray, rule: BehindRule) -> float:
    """``head_plane`` of a known position (spot index -> look class), read in each of the rule's
    planes (``features`` read first)."""
    shares: dict[float, list[float]] = {}
    spots = list(known)
    for z in rule.planes:
        looks, empty = reader.looks_at(image, pose, z * reader.cell_mm, spots)
        shares[z] = [colour_shares(looks[k], empty[k], names, protos).get(known[i], (0.0, 0.0))[0]
                     for k, i in enumerate(spots)]
    return head_plane(shares, rule.learn_share)


def drop_hidden(reader: SpotFeatures, image: np.ndarray, pose: BoardPose, plane: float,
                decided: list[tuple[str | None, float]], names: list[str], protos: np.ndarray,
                rule: BehindRule) -> None:
    """Spots read as a piece behind one read the same (``behind_same``) that show less than the
    rule's share of its colour in the heads' ``plane``: read as empty, unsure (0.5)."""
    if plane <= 0 or pose.homography is None:
        return
    foot = camera_from_homography(pose.sampling()[0], (image.shape[1], image.shape[0])).foot  # the pinhole's
    centres = reader._spot_centres_px / reader.config.px_per_mm
    hidden = behind_same(centres, [t for t, _ in decided], foot, reader.cell_mm)
    if not hidden:
        return
    looks, empty = reader.looks_at(image, pose, plane * reader.cell_mm, hidden)
    for k, i in enumerate(hidden):
        token = decided[i][0]
        assert token is not None
        if colour_shares(looks[k], empty[k], names, protos).get(token, (1.0, 0.0))[0] < rule.read_share:
            decided[i] = (None, 0.5)
