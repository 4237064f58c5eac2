"""The table's plane (vision.dice_plane): boxes whose footprint is not a die's top face there are
dropped by the reader."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.dice import DiceConfig, read_dice
from vision.dice_plane import TablePlane
from vision.synth import dice as synth_dice


def _plane(px_per_mm: float, tilt: float = 0.0) -> TablePlane:
    """A camera looking down (``tilt``: a keystone, far rows smaller)."""
    h = np.float64([[px_per_mm, 0, 20], [0, px_per_mm, 30], [0, tilt, 1]])
    return TablePlane(tuple(tuple(float(v) for v in row) for row in h))


def test_a_top_face_fits_and_a_token_a_board_or_a_side_face_does_not() -> None:
    plane = _plane(4.0)  # 4 px a millimetre: a 16 mm die is 64 px
    assert plane.fits((100, 100, 164, 164))
    assert plane.fits((100, 100, 190, 190))  # a die lying turned: its box is up to 1.41 times its side
    assert not plane.fits((100, 100, 120, 120))  # 5 mm: a pip, a crumb
    assert not plane.fits((100, 100, 500, 500))  # 100 mm: a group, a box lid
    assert not plane.fits((100, 100, 164, 300))  # 16 x 50 mm: long and thin
    f = plane.footprint((20, 30, 60, 70))
    assert np.allclose(f, [[0, 0], [10, 0], [10, 10], [0, 10]])


def test_the_same_box_covers_more_table_where_the_table_is_farther() -> None:
    plane = _plane(4.0, tilt=0.004)
    near = (100, 20, 164, 84)  # (small y: the near rows of this homography)
    far = (100, 900, 164, 964)  # the same pixels where the table is farther away: a bigger die
    assert plane.fits(near)
    assert np.ptp(plane.footprint(far)[:, 1]) > 1.5 * np.ptp(plane.footprint(near)[:, 1])


def test_from_a_pose_only_when_the_board_was_found() -> None:
    class Pose:
        found, homography = True, np.eye(3) * 2

    class Lost:
        found, homography = False, None

    t = TablePlane.from_pose(Pose())
    assert t is not None and t.homography[0][0] == 2.0
    assert TablePlane.from_pose(Lost()) is None


def test_the_reader_drops_boxes_the_table_says_are_no_dice() -> None:
    rng = np.random.default_rng(12)
    img, lab = synth_dice.render_scene(rng, synth_dice.SceneParams(n_dice=(4, 4), die_px=(50.0, 56.0),
                                                                  tilt_deg=(0.0, 5.0)))
    plain = read_dice(img)
    assert len(plain) >= 3
    right = read_dice(img, replace(DiceConfig(), table=_plane(53.0 / 16.0)))  # 16 mm dice
    assert [(d.value, d.box) for d in right] == [(d.value, d.box) for d in plain]
    assert read_dice(img, replace(DiceConfig(), table=_plane(53.0 / 80.0))) == []  # these would be 80 mm "dice"
