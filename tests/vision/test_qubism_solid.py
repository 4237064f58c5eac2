"""Qubism: a cube the count kept for the white pawn gives way to the pawn by which solid reaches past
its square along the line of sight (vision.qubism_solid)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from vision.qubism_solid import BEHIND, behind_change, kept_solid

CELL, S = 35.0, 2.0  # mm a square, pixels a mm


def _reader(foot: tuple[float, float], dark_at: list[tuple[float, float]]) -> SimpleNamespace:
    """A stand-in for the board reader after ``features``: a flat grey print 8 squares wide, the
    camera straight above ``foot`` (board mm; a 600 mm high camera), and the top-down view the print
    with a dark disc of 5 mm radius at each of ``dark_at`` (board mm)."""
    side = int(8 * CELL * S)
    empty = np.full((side, side, 3), 0.8, np.float32)
    warped = empty.copy()
    ys, xs = (np.mgrid[0:side, 0:side] + 0.5) / S
    for x, y in dark_at:
        warped[(xs - x) ** 2 + (ys - y) ** 2 <= 25] = 0.3
    k = 600 / (600 - 0.6 * CELL)  # the plane 0.6 squares up, scaled about the foot

    def lift(pose: object, size: object, z: float) -> np.ndarray:
        return np.array([[k, 0, (1 - k) * foot[0]], [0, k, (1 - k) * foot[1]], [0, 0, 1.0]])

    return SimpleNamespace(
        config=SimpleNamespace(px_per_mm=S), cell_mm=CELL, _last_warped=warped, _last_image_size=(1280, 720),
        _empty_at=lambda f: (empty,), _camera_px_per_mm=lambda pose: 1.0, _lift=lift,
        _spot_centres_px=np.array([[2.5 * CELL * S, 4.5 * CELL * S], [5.5 * CELL * S, 4.5 * CELL * S]]),
        _basis=lambda x, y: np.column_stack([np.ones_like(x)] + [np.zeros_like(x)] * 5),
        _last_coef=np.vstack([np.ones((1, 3)), np.zeros((5, 3))]))


def test_the_change_behind_is_read_away_from_the_camera() -> None:
    # spot 0's middle at (87.5, 157.5) mm; a dark mark 20 mm past it in +x
    mark = [(2.5 * CELL + 20, 4.5 * CELL)]
    seen_from_left = _reader((-200.0, 4.5 * CELL), mark)  # the camera beyond -x: +x is behind
    seen_from_right = _reader((600.0, 4.5 * CELL), mark)  # beyond +x: the mark lies in front
    assert BEHIND[0] * CELL < 20 < BEHIND[1] * CELL
    left = behind_change(seen_from_left, object(), [0, 1])
    right = behind_change(seen_from_right, object(), [0, 1])
    assert left[0] > 0.3 and left[1] < 1e-6  # behind spot 0; nothing behind spot 1
    assert right[0] < 1e-6  # the same mark in front of the square is not behind it


def test_a_mark_beside_the_line_of_sight_is_not_behind() -> None:
    mark = [(2.5 * CELL + 20, 4.5 * CELL + 12)]  # 20 mm along, 12 mm across: outside the band
    assert behind_change(_reader((-200.0, 4.5 * CELL), mark), object(), [0])[0] < 1e-6


def test_the_kept_spot_gives_way_only_when_both_cues_agree() -> None:
    spots = [7, 3, 5]
    # the first (kept) is farther in look and reaches farther behind than 3 and 5: the nearest look of those
    assert kept_solid(spots, np.array([1.1, 0.2, 0.1]), np.array([0.6, 0.1, 0.2])) == [5, 7, 3]
    # nearer look but more behind: kept as ordered
    assert kept_solid(spots, np.array([1.1, 0.2, 0.1]), np.array([0.1, 0.3, 0.4])) == spots
    # less behind but farther look: kept as ordered
    assert kept_solid(spots, np.array([0.1, 0.2, 0.3]), np.array([0.6, 0.1, 0.2])) == spots
    assert kept_solid([4], np.array([1.0]), np.array([1.0])) == [4]
