"""A figure standing on its square, told from a change of light (issue 31, session 32, kilempty).

In a dim light a Kilkenny cat's colour hardly moves from the print's (chroma score under
``PieceConfig.min_chroma``), and the colourless check (``SpotChecks._colourless``) would read it
empty. A figure still shades (its spread score, ``ShadedRule.spread``, rises on its edges and
shaded sides) and it stands on its square: more of its change from the print lies on its
footprint (``vision.katenmuis_solid.footprint_share``, ``FOOT_R``) than an even change puts
there (0.28, the footprint's share of the square), in the board's plane and in the raised one.
A shadow dims the print evenly and crosses the square. A neighbour's body leaning over the spot
from the square in front (nearer the point below the camera) shades and may fill the footprint
too: a spot with an occupied spot in front (``front_occupied``) is left to the colourless check."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.boardlocate import camera_from_homography
from vision.katenmuis_solid import footprint_share
from vision.piece_mix import behind_same

if TYPE_CHECKING:
    from vision.boardlocate import BoardPose
    from vision.piece_spots import SpotFeatures


def standing_figure(patches: np.ndarray, empty: np.ndarray, spreads: tuple[float, float],
                    spread: float, foot: float) -> bool:
    """``patches``, ``empty``: [2, P, P, 3] the spot seen and its print, in the board's plane and
    the raised one; ``spreads``: its spread scores there. True when both spreads reach ``spread``
    and both footprint shares reach ``foot``."""
    if min(spreads) < spread:
        return False
    return bool(footprint_share(patches, empty).min() >= foot)


def front_occupied(reader: SpotFeatures, pose: BoardPose, size: tuple[int, int], score: np.ndarray) -> set[int]:
    """The spots with an occupied spot (``score`` at least 1) on a neighbouring square between
    them and the camera (``vision.piece_mix.behind_same``), whose body may lean over them;
    ``size``: the image's (width, height)."""
    if pose.homography is None:
        return set()
    foot = camera_from_homography(pose.sampling()[0], size).foot
    occupied: list[str | None] = ["" if s >= 1 else None for s in score]
    return set(behind_same(reader._spot_centres_px / reader.config.px_per_mm, occupied, foot, reader.cell_mm))
