"""The board reader's reads do not depend on how its arrays lie in memory (session 32, chopdet).

numpy reduces an axis in another order when that axis is not the array's innermost in memory
(one element after another across the outer loop, not pairwise), so a reduction's last bits
follow its input's strides. Before session 32's ``read_fast.channel_mean3``, ``_look_features``
made its grey with numpy's ``mean``, whose result keeps its input's stride order: the rings of
Chop! Chop!'s spots (``ring_looks``: a boolean-masked, pixels-first copy) came out strided and
their grey's spread summed in another order than a C array's; 49 confidences of 32 scenes of a
dev set moved by up to 4.35e-7 with the layout of that one array. These tests give the
read-path helpers and a whole read the same values in other layouts (C, Fortran, strided views,
other byte offsets) and ask for the same bits back."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.chop_read import hole_faces, ring_looks
from vision.piece_looks import INNER, P, _detrend, _look_features, _smooth
from vision.read_fast import channel_mean3, pixel_means


def _offset(a: np.ndarray, off: int) -> np.ndarray:
    """A C-contiguous copy of ``a`` starting ``off`` bytes past a 64-byte boundary."""
    buf = np.empty(a.nbytes + 128, np.uint8)
    start = (64 - buf.ctypes.data % 64 + off) % 64
    out = buf[start:start + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


def _strided(a: np.ndarray) -> np.ndarray:
    """The same values as a view of every other element of a wider array."""
    big = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
    big[..., ::2] = a
    return big[..., ::2]


def _pixels_first(a: np.ndarray) -> np.ndarray:
    """The same values laid out patch-innermost (as a boolean mask's pick of pixels comes out)."""
    return np.moveaxis(np.ascontiguousarray(np.moveaxis(a, 0, -2)), -2, 0)


LAYOUTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "fortran": np.asfortranarray, "strided": _strided, "pixels-first": _pixels_first,
    "offset 4": lambda a: _offset(a, 4), "offset 8": lambda a: _offset(a, 8), "offset 40": lambda a: _offset(a, 40)}


def _patches(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.2, 1.2, (n, 1, 1, 3)) * rng.uniform(0.5, 1.0, (n, P, P, 1))
    return (base + rng.normal(0, 0.05, (n, P, P, 3))).astype(np.float32)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("n", [1, 4, 13, 64])
def test_the_spots_looks_rings_and_hole_faces_are_the_same_bits_in_every_layout(n: int) -> None:
    patches = _patches(n, 7 + n)
    want = {"looks": _look_features(patches[:, INNER, INNER]), "rings": ring_looks(patches),
            "faces": hole_faces(patches), "grey": _detrend(_smooth(channel_mean3(patches)))}
    for name, layout in LAYOUTS.items():
        x = layout(patches)
        assert np.array_equal(x, patches)
        got = {"looks": _look_features(x[:, INNER, INNER]), "rings": ring_looks(x),
               "faces": hole_faces(x), "grey": _detrend(_smooth(channel_mean3(x)))}
        for k in want:
            assert _same(got[k], want[k]), (name, k, np.abs(got[k] - want[k]).max())
        # a ring as ring_looks hands it over ([N, 1, pixels, 3], pixels first in memory) in any layout
        ring = patches[:, 2:14, 2:14].reshape(n, 1, -1, 3)
        assert _same(_look_features(layout(ring)), _look_features(np.ascontiguousarray(ring))), name


def test_the_grey_and_mean_colours_come_back_c_contiguous_whatever_the_input() -> None:
    # the reductions after them (the grey's spread, the colours' sums) then add in one order
    patches = _patches(9, 3)
    for layout in LAYOUTS.values():
        x = layout(patches)
        assert channel_mean3(x).flags.c_contiguous and channel_mean3(x[:, INNER, INNER]).flags.c_contiguous
        assert pixel_means(x[:, INNER, INNER]).flags.c_contiguous


def test_a_chop_chop_frame_reads_the_same_from_a_frame_at_another_address_and_after_other_allocations() -> None:
    from vision.boarddefaults import board_for
    from vision.pieces import BoardReader
    from vision.synth.board import random_position
    from vision.synth.board_alt import alt_look, render_alt_scene

    board = board_for("chopchop")
    rng = np.random.default_rng(3207)
    pieces = alt_look(board, rng)
    start = random_position(board, rng, reference=True)
    reader = BoardReader(board)
    reader.learn(render_alt_scene(board, start, pieces, rng, occlude=False, hide_marker=False)["image"],
                 {s: t for s, t in start.items() if t != "cat"})
    image = render_alt_scene(board, random_position(board, rng), pieces, rng, occlude=False,
                             hide_marker=False)["image"]
    want = reader.read(image, track=False).squares
    assert want
    kept = []
    for off in (1, 8, 24, 40):
        kept += [np.full(37 * off + 5, np.nan, np.float32), np.full(1000 + off, np.nan)]  # other free blocks
        got = reader.read(_offset(image, off), track=False).squares
        assert got == want, off
