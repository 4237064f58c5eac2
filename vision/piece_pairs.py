"""Two pieces on one square: Kat en Muis's cat and mouse together (rule K7, the engine's
``"cat+mouse"``), read by the board reader (``vision.pieces``).

A spot's look is one mean colour, so a cat and a mouse side by side on one square read as the
one of them whose colour dominates, and the other one is read nowhere. When exactly one of a
pair's pieces is read and the other nowhere (each never leaves the board), the read one's spot
is looked at pixel by pixel: each pixel of the spot's light-normalised patch (its middle, where
both counters lie) is given to the nearer of the two pieces' learned colours, or to the empty
print at that pixel unless a piece's colour is nearer by ``PRINT_MARGIN`` (labels, lines,
light squares stay the print's, and so does a counter coloured like the paper).
When each piece holds at least ``PieceConfig.pair_share`` of the pixels, the spot holds both.

A counter lying entirely on the other hides it: then only one is seen, the other is reported
missing and the cross-check asks (``companion.crosscheck``); nothing is guessed.
"""

from __future__ import annotations

import numpy as np

from vision.piece_looks import LOOK_SCALE

PRINT_MARGIN = 1.0
"""A pixel counts for a piece only when nearer its colour than the print's by this much (scaled
colour features): a light counter coloured like the paper does not claim the paper's pixels."""
MIDDLE = slice(2, 14)
"""The part of a 16 x 16 spot patch that is looked at (the square's middle, its edge left out)."""


def _colour_features(px: np.ndarray) -> np.ndarray:
    """[..., 3] light-normalised colours -> [..., 3]: chroma b, chroma g, log brightness (the
    first three look features, per pixel), scaled by ``LOOK_SCALE``."""
    tot = px.sum(axis=-1, keepdims=True) + 1e-4
    chroma = px[..., :2] / tot
    bright = np.log(tot / 3 + 0.02)
    out: np.ndarray = np.concatenate([chroma, bright], axis=-1) / LOOK_SCALE[:3]
    return out


def look_colour(look: np.ndarray) -> np.ndarray:
    """A look (chroma b, chroma g, log brightness, spread) as its scaled colour features."""
    out: np.ndarray = np.asarray(look, np.float64)[:3] / LOOK_SCALE[:3]
    return out


def pair_shares(patch: np.ndarray, empty: np.ndarray, colours: list[np.ndarray]) -> list[float]:
    """The share of a spot's middle pixels nearer each of ``colours`` (scaled colour features,
    see ``look_colour``) than to the other colours and to the empty print at that pixel."""
    seen = _colour_features(patch[MIDDLE, MIDDLE].astype(np.float64)).reshape(-1, 3)
    print_ = _colour_features(empty[MIDDLE, MIDDLE].astype(np.float64)).reshape(-1, 3)
    d = np.stack([np.linalg.norm(seen - c[None, :], axis=1) + PRINT_MARGIN for c in colours]
                 + [np.linalg.norm(seen - print_, axis=1)], axis=1)
    owner = d.argmin(axis=1)
    return [float((owner == k).mean()) for k in range(len(colours))]
