"""vision.read_fast: the reader's bookkeeping in fewer steps gives the plain loops' numbers, to the bit
(issue 31: no read slower, no read changed)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.boarddefaults import board_for
from vision.pieces import BoardReader
from vision.piece_looks import P
from vision.read_fast import BoxPatches, MedianMemo, channel_mean3, class_minima, pixel_means


def _loop_minima(names: list[str], dist: np.ndarray) -> dict[str, float]:
    per: dict[str, float] = {}
    for n, d in zip(names, dist):
        per[n] = min(per.get(n, 1e9), float(d))
    return per


def test_class_minima_is_the_loops_result_in_the_loops_order() -> None:
    rng = np.random.default_rng(3)
    kinds = ["cat:red", "empty", "mouse", "cat:black", "hole", "slab"]
    for trial in range(200):
        names = [kinds[k] for k in rng.integers(0, len(kinds), int(rng.integers(1, 40)))]
        dist = rng.gamma(2.0, 3.0, len(names))
        if trial % 5 == 0:
            dist[rng.integers(0, len(names))] = np.nan  # skipped, as min() skips it
        if trial % 7 == 0:
            dist[rng.integers(0, len(names))] = 3e9  # nothing above 1e9
        got, want = class_minima(names, dist), _loop_minima(names, dist)
        assert list(got) == list(want)  # the order sorted() breaks ties by
        assert got == want
    assert class_minima(["a", "a"], np.array([np.nan, np.nan])) == {"a": 1e9}
    assert class_minima([], np.zeros(0)) == {}


@pytest.mark.parametrize("game", ["chopchop", "kilkenny", "katenmuis", "qubism"])
def test_box_patches_are_the_box_by_box_resize(game: str) -> None:
    reader = BoardReader(board_for(game))
    rng = np.random.default_rng(5)
    w, h = reader.size
    for img in (rng.random((h, w, 3)).astype(np.float32), rng.random((h, w, 3)), rng.random((h, w)).astype(np.float32)):
        want = np.stack([cv2.resize(img[y0:y1, x0:x1], (P, P), interpolation=cv2.INTER_AREA)
                         for x0, y0, x1, y1 in reader.boxes]).astype(np.float32)
        got = reader._patches(img) if img.ndim == 3 else BoxPatches(reader.boxes, P).cut(img)
        assert got.dtype == np.float32 and got.shape == want.shape
        assert np.array_equal(got, want)


def test_box_patches_of_mixed_sizes_keep_each_box_in_its_place() -> None:
    img = np.random.default_rng(9).random((60, 80, 3)).astype(np.float32)
    boxes = [(0, 0, 24, 24), (30, 5, 54, 29), (10, 30, 60, 55), (0, 28, 24, 52), (55, 30, 80, 60)]
    want = np.stack([cv2.resize(img[y0:y1, x0:x1], (8, 8), interpolation=cv2.INTER_AREA) for x0, y0, x1, y1 in boxes])
    assert np.array_equal(BoxPatches(boxes, 8).cut(img), want)


def test_median_memo_follows_the_list() -> None:
    memo = MedianMemo()
    ref = [0.2, 0.4, 0.9]
    assert memo("cat", ref) == pytest.approx(0.4)
    ref.append(1.0)  # learned one more: worked out again
    assert memo("cat", ref) == pytest.approx(0.65)
    assert memo("cat", [0.1]) == pytest.approx(0.1)  # another list under the key
    assert memo("mouse", ref) == pytest.approx(0.65)


def test_channel_mean3_is_numpys_mean_over_the_channels_to_the_bit() -> None:
    rng = np.random.default_rng(5)
    for trial in range(300):
        shape = tuple(int(k) for k in rng.integers(1, 20, int(rng.integers(1, 4)))) + (3,)
        a = (rng.random(shape) * rng.choice([1.0, 1e-3, 1e3, 1e-30], shape)).astype(np.float32)
        if trial % 3 == 0:
            a = a[..., ::-1]  # a view, not contiguous
        want, got = a.mean(axis=-1), channel_mean3(a)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want, equal_nan=True), trial
    # the spots' patches as the reader has them: a central square of [N, P, P, 3], values 0-2
    patches = (rng.random((64, P, P, 3)) * 2).astype(np.float32)
    inner = patches[:, 4:12, 4:12]
    assert np.array_equal(channel_mean3(inner), inner.mean(axis=3))
    assert np.array_equal(channel_mean3(patches), patches.mean(axis=3))


def test_channel_mean3_leaves_other_arrays_to_numpy() -> None:
    f64 = np.arange(12.0).reshape(4, 3)
    assert channel_mean3(f64).dtype == np.float64 and np.array_equal(channel_mean3(f64), f64.mean(axis=-1))
    four = np.ones((2, 4), np.float32)
    assert channel_mean3(four).shape == (2,)
    assert channel_mean3(np.zeros((0, 3), np.float32)).shape == (0,)


def test_pixel_means_are_numpys_mean_colours_to_the_bit() -> None:
    rng = np.random.default_rng(7)
    for trial in range(400):
        n, h, w = (int(k) for k in rng.integers(1, 40, 3))
        c = (1, 2, 3, 4)[trial % 4]  # one channel: numpy's own (pairwise) sum
        dtype = (np.float32, np.float64)[trial % 2]
        a = (rng.random((n, h + 8, w, c)) * rng.choice([1.0, 1e-3, 1e3], (n, h + 8, w, c))).astype(dtype)[:, 4:4 + h]
        if trial % 5 == 0:
            a = a[:1]
        want, got = a.reshape(len(a), -1, c).mean(axis=1), pixel_means(a)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want), trial
