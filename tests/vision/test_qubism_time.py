"""Qubism's read made faster gives the same answers to the bit (issue 31, session 20, qtime): the
means and variances of small arrays by numpy's own ufunc calls, a frame's top crops measured at
once, the top crops' maps written into buffers, the arrow's 2 x 2 eigen-decomposition by its LAPACK
gufunc, a pawn's learned shapes converted to an array once, and the lens's distortion written into its
arrays."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vision.piece_cubes as piece_cubes
import vision.qubism_read as qubism_read
from vision.arrows import _eigh
from vision.boarddefaults import board_for
from vision.lens import Lens
from vision.pieces import BoardReader
from vision.qubism_pawns import SHAPE_SIZE, likeness
from vision.qubism_read import _plane_maps, top_face, top_faces
from vision.read_fast import ArrayMemo, mean_of, mean_var_of, std_of, var_of
from vision.synth.board3d import make_setup, render_3d_scene
from vision.synth.board3d_play import group_layouts

BOARD = board_for("qubism")


def _same(a: Any, b: Any) -> bool:
    """The same numpy scalar type and the same bits."""
    return type(a) is type(b) and np.asarray(a).tobytes() == np.asarray(b).tobytes()


def test_mean_and_variance_as_numpy_works_them_out() -> None:
    """``mean_of``, ``mean_var_of``, ``var_of`` and ``std_of`` give what ``.mean()``, ``.var()`` and
    ``.std()`` give, type and bits, on the arrays a Qubism read measures: a crop's middle (a strided
    float32 view), a glyph's or ring's pixels (float32), coordinates (float64, int64), masks (bool).
    Summed in float64, or in another order, some of them differ."""
    rng = np.random.default_rng(20)
    for n in range(600):
        floats = [rng.random((48, 48), np.float32)[8:-8, 8:-8],
                  (rng.random(int(rng.integers(1, 1500))) * 0.9).astype(np.float32),
                  rng.random(int(rng.integers(1, 900))) * 37.0]
        for a in floats:
            m, v = mean_var_of(a)
            assert _same(m, a.mean()) and _same(v, a.var()), n
            assert _same(mean_of(a), a.mean()) and _same(var_of(a), a.var()) and _same(std_of(a), a.std()), n
        for a in (rng.integers(0, 48, int(rng.integers(1, 900))), rng.random((36, 36)) > rng.random()):
            assert _same(mean_of(a), a.mean()), n


@pytest.fixture(scope="module")
def frame_tops() -> list[np.ndarray]:
    """The top crops a Qubism read measures (``CubeSpots._settle_cubes``' at every spot looked at, and
    the tops found off their place), captured from a read of a rendered group: the first 3-D family at
    45 degrees of tilt, the start learned, then a position with cubes."""
    rng = np.random.default_rng(4)
    setup = make_setup(BOARD, rng, 45)
    layouts = group_layouts(BOARD, 2, rng)
    images = [render_3d_scene(BOARD, layout, setup, rng, arm=False).image for layout in layouts]
    reader = BoardReader(BOARD)
    reader.learn(images[0], dict(layouts[0].squares))
    seen: list[np.ndarray] = []
    real = qubism_read.top_faces

    def spy(tops: Any) -> list[qubism_read.TopFace]:
        seen.extend(np.array(t, np.float32) for t in tops)
        return real(tops)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(piece_cubes, "top_faces", spy)
        mp.setattr(qubism_read, "top_faces", spy)
        reader.read(images[1], track=False)
    return seen


def test_a_frames_top_crops_measured_at_once_as_one_by_one(frame_tops: list[np.ndarray]) -> None:
    """``top_faces`` of a frame's top crops gives ``top_face(crop, arrow=False)`` of each, every measure to
    the bit (repr: the shortest digits that tell a float apart), on the crops a rendered read measures,
    and on a plain crop (no glyph: all one tone) among them."""
    assert len(frame_tops) >= 15
    crops = np.stack([*frame_tops, np.full((48, 48), 0.6, np.float32)])
    assert [repr(f) for f in top_faces(crops)] == [repr(top_face(c, arrow=False)) for c in crops]
    assert [repr(f) for f in top_faces(list(crops[:3]))] == [repr(top_face(c, arrow=False)) for c in crops[:3]]
    assert top_faces(np.zeros((0, 48, 48), np.float32)) == []


def test_plane_maps_as_the_division_they_replace() -> None:
    """``_plane_maps`` gives what ``((m00 x + m01 y + m02) / w).astype(float32)`` gave, ``w`` held off zero
    by 1e-9, to the bit: for board-like homographies and for one whose ``w`` crosses zero on the grid."""
    rng = np.random.default_rng(7)
    u = ((np.arange(48) + 0.5) / 48 - 0.5) * 35.0
    for n in range(40):
        m = np.array([[3.1, 0.4, 410.0], [-0.2, 2.2, 95.0], [1e-4, 2.5e-3, 1.0]]) * (1 + 0.1 * rng.standard_normal((3, 3)))
        if n == 0:
            m[2] = [0.01, 0.0, -1.0]  # w = 0 at x = 100 mm
        centres = rng.random((12, 2)) * 300 if n else np.array([[100.0, 20.0], [100.0 + 35 / 96, 5.0]])
        xs = centres[:, 0, None, None] + u[None, None, :]
        ys = centres[:, 1, None, None] + u[None, :, None]
        w = m[2, 0] * xs + m[2, 1] * ys + m[2, 2]
        w = np.where(np.abs(w) < 1e-9, 1e-9, w)
        want_x = ((m[0, 0] * xs + m[0, 1] * ys + m[0, 2]) / w).astype(np.float32)
        want_y = ((m[1, 0] * xs + m[1, 1] * ys + m[1, 2]) / w).astype(np.float32)
        got_x, got_y = _plane_maps(m, xs, ys)
        assert got_x.dtype == np.float32 and got_x.tobytes() == want_x.tobytes(), n
        assert got_y.tobytes() == want_y.tobytes(), n


def test_eigh_as_numpys() -> None:
    """``arrows._eigh`` gives ``np.linalg.eigh``'s eigenvalues and eigenvectors to the bit (a glyph's 2 x 2
    covariance), a closed form for a 2 x 2 would not."""
    rng = np.random.default_rng(3)
    for _ in range(300):
        a = rng.standard_normal((2, 40)) * rng.random((2, 1)) * 9
        c = np.cov(a)
        w, v = _eigh(c)
        want_w, want_v = np.linalg.eigh(c)
        assert w.tobytes() == want_w.tobytes() and v.tobytes() == want_v.tobytes()


def test_a_pawns_learned_shapes_converted_once_while_the_list_stays() -> None:
    """``ArrayMemo`` keeps a learned list's array while the list is the same object of the same length,
    converts it again after a row is learned (or a new list replaces it); ``likeness`` reads the array as
    it reads the lists, to the bit."""
    rng = np.random.default_rng(11)
    learned = [[float(v) for v in rng.standard_normal(SHAPE_SIZE)]]
    memo = ArrayMemo()
    first = memo("pawn:white", learned)
    assert memo("pawn:white", learned) is first and first.dtype == np.float64
    shapes = rng.standard_normal((5, SHAPE_SIZE))
    assert likeness(shapes, first).tobytes() == likeness(shapes, learned).tobytes()
    learned.append([float(v) for v in rng.standard_normal(SHAPE_SIZE)])
    second = memo("pawn:white", learned)
    assert second is not first and second.shape == (2, SHAPE_SIZE)
    assert likeness(shapes, second).tobytes() == likeness(shapes, learned).tobytes()
    other = [list(row) for row in learned]
    assert memo("pawn:white", other) is not second
    assert likeness(shapes, np.zeros((0, SHAPE_SIZE))).tolist() == [0.0] * 5


def test_lens_distortion_written_into_its_arrays_as_before() -> None:
    """``Lens.distort_xy`` (every top crop of a frame seen through a lens: ~10^5 points) gives what its
    formula gave computed step by step into new arrays, to the bit: barrel and pincushion lenses, float32
    and float64 points, points past a pincushion lens's edge (where the edge's radius is used)."""
    rng = np.random.default_rng(1)
    for n in range(200):
        lens = Lens(k=float(rng.uniform(-0.5, 0.9)), cx=640.0, cy=float(rng.choice([360.0, 480.0])), unit=1280.0)
        dtype = np.float32 if n % 2 else np.float64
        x = (rng.random((37, 41)) * 2600 - 700).astype(dtype)
        y = (rng.random((37, 41)) * 2000 - 600).astype(dtype)
        dx, dy = (np.asarray(x, np.float64) - lens.cx) / lens.unit, (np.asarray(y, np.float64) - lens.cy) / lens.unit
        u2 = dx * dx + dy * dy
        scale = 2.0 / (1.0 + np.sqrt(np.maximum(1.0 - 4.0 * lens.k * u2, 0.0)))
        got_x, got_y = lens.distort_xy(x, y)
        assert got_x.tobytes() == (lens.cx + dx * scale * lens.unit).tobytes(), n
        assert got_y.tobytes() == (lens.cy + dy * scale * lens.unit).tobytes(), n
        assert got_x is not x and got_y is not y
