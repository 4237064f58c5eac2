"""``BoardSpots._gain`` takes the paper margin's values and its kept rows by index (session 30,
qspeed): the same coefficients, bit for bit, as session 29's boolean-mask form, kept here."""

from __future__ import annotations

import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.piece_spots import _taken
from vision.pieces import BoardReader


def _gain_masks(reader: BoardReader, warped: np.ndarray) -> np.ndarray:
    """Session 29's ``_gain`` (values and kept rows by boolean masks)."""
    ys, xs = reader._ref_xy
    vals = warped[ys, xs].astype(np.float64)
    basis = reader._ref_basis
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


def _lit(reader: BoardReader, seed: int, dark_share: float) -> np.ndarray:
    """The empty print under a smooth coloured light, a share of it shaded (pieces, shadows)."""
    rng = np.random.default_rng(seed)
    h, w = reader.empty.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 0.8 + 0.2 * (xx / w)[..., None] * rng.uniform(0.5, 1.0, 3) - 0.1 * (yy / h)[..., None]
    img = (reader.empty * light + rng.normal(0, 0.02, reader.empty.shape)).astype(np.float32)
    dark = rng.random((h, w)) < dark_share
    img[dark] *= 0.5  # pixels the light fit drops
    return img


@pytest.mark.parametrize("game", ["qubism", "chopchop"])
def test_gain_by_index_is_the_mask_forms_bits(game: str) -> None:
    reader = BoardReader(board_for(game))
    # 0.15: some rows dropped, three fits; 0.5: no row kept after the first fit (the early break)
    for seed, share in ((0, 0.0), (1, 0.15), (2, 0.5), (3, 0.995)):
        warped = _lit(reader, seed, share)
        new, old = reader._gain(warped), _gain_masks(reader, warped)
        assert new.dtype == old.dtype and new.shape == old.shape
        assert np.array_equal(new, old), (game, seed, share)
        assert not np.array_equal(reader._gain(_lit(reader, seed + 10, share)), new)  # it depends on the light


def test_taken_is_numpys_two_array_index() -> None:
    rng = np.random.default_rng(4)
    img = rng.random((37, 53, 3)).astype(np.float32)
    ys, xs = rng.integers(0, 37, 500), rng.integers(0, 53, 500)
    assert np.array_equal(_taken(img, ys, xs), img[ys, xs])
    view = img[:, ::2]  # not contiguous: numpy's own indexing
    assert np.array_equal(_taken(view, ys, xs // 2), view[ys, xs // 2])
