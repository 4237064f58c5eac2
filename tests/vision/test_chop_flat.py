"""Chop! Chop!: a slab read where its back's pattern, as the start photo showed it there, is
missing is not the slab (``vision.chop_flat``): the shadowed floor, a plain tile face."""

from __future__ import annotations

import numpy as np

from vision.chop_flat import flat_slabs, keep_slab_textures, texture
from vision.chop_known import UNSURE
from vision.chop_squares import CLASSES


def _paw(level: float = 0.4) -> np.ndarray:
    """A slab back: a dark tile with a bright mark in its middle (16 x 16 x 3, light-normalised)."""
    p = np.full((16, 16, 3), level, np.float32)
    p[6:10, 6:10] = level * 2.2
    return p


def _flat(level: float = 0.4) -> np.ndarray:
    return np.full((16, 16, 3), level, np.float32) + np.linspace(0, 0.01, 16, dtype=np.float32)[None, :, None]


def _probs(rows: list[dict[str, float]]) -> np.ndarray:
    return np.array([[r.get(c, 0.0) for c in CLASSES] for r in rows])


def test_a_shadow_keeps_a_slab_backs_texture_and_the_plain_floor_has_none() -> None:
    t = texture(np.stack([_paw(0.4), _paw(0.1), _flat(0.4)]))
    assert abs(t[0] - t[1]) < 1e-5  # a shadow scales the spread and the level alike
    assert t[2] < 0.1 * t[0]


class _Reader:
    def __init__(self) -> None:
        self.chop_slab_texture: dict[int, float] = {}


def test_a_slab_read_without_its_backs_pattern_is_its_next_reading_unsure() -> None:
    reader = _Reader()
    start = np.stack([_paw()] * 4)
    keep_slab_textures(reader, start, {"a": "slab", "b": "slab", "c": "slab", "d": "mouse:1"},
                       {"a": 0, "b": 1, "c": 2, "d": 3})
    assert set(reader.chop_slab_texture) == {0, 1, 2}
    now = np.stack([_paw(0.15), _flat(0.15), _flat(0.3), _paw()])
    decided: list[tuple[str | None, float]] = [("slab", 0.9), ("slab", 0.95), ("slab", 0.8), ("mouse", 0.9)]
    probs = _probs([{"slab": 0.9}, {"slab": 0.7, "-": 0.2, "mouse": 0.1}, {"slab": 0.6, "cheese": 0.3, "-": 0.1},
                    {"mouse": 0.9}])
    assert flat_slabs(decided, ["slab", "slab", "slab", "floor"], now, reader.chop_slab_texture, probs, 0.15, 0.3) == 2
    assert decided[0] == ("slab", 0.9)  # its pattern in a shadow: still the slab
    assert decided[1] == (None, UNSURE)  # the shadowed floor, asked
    assert decided[2] == ("cheese", UNSURE)  # a plain face: the classifier's next reading, asked
    assert decided[3] == ("mouse", 0.9)


def test_plain_slab_backs_or_no_start_change_nothing_and_no_fifth_mouse() -> None:
    flat = np.stack([_flat()] * 6)
    plain = {i: float(v) for i, v in enumerate(texture(flat))}
    decided: list[tuple[str | None, float]] = [("slab", 0.9)] * 6
    assert flat_slabs(decided, ["slab"] * 6, flat, plain, None, 0.15, 0.3) == 0  # no pattern to miss
    assert flat_slabs(decided, ["slab"] * 6, flat, {}, None, 0.15, 0.3) == 0  # nothing learned
    paws = {i: float(texture(_paw()[None])[0]) for i in range(6)}
    mice: list[tuple[str | None, float]] = [("mouse", 0.9)] * 4 + [("slab", 0.9), ("slab", 0.9)]
    probs = _probs([{"mouse": 0.9}] * 4 + [{"mouse": 0.6, "slab": 0.3, "-": 0.1}, {"slab": 0.9}])
    now = np.stack([_paw()] * 4 + [_flat(), _paw()])
    assert flat_slabs(mice, ["floor"] * 4 + ["slab", "slab"], now, paws, probs, 0.15, 0.3) == 1
    assert mice[4] == (None, UNSURE) and mice[5] == ("slab", 0.9)  # four mice already: the floor
