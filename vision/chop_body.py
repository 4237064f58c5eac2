"""Chop! Chop!: a standing figure's body over the square behind it (issue 31, session 19).

A figure stands on one square, but at a tilted camera its body shows in the image over the
square behind it (farther from the camera): the plane ``h`` up is seen where the ground
``h * k`` farther out is (``SpotFeatures._lift``, from the board's pose). The cat is the tallest
figure: on the second 3-D family it covers the whole square behind it, and that square's own
reading (the rules' nearest look, the classifier) takes the cat's body there for a mouse, a slab
or the floor. The classifier itself says what it sees there: the cat.

- ``front_spots``: each spot's front neighbour, the spot one square nearer the camera along the
  direction a standing figure leans in the image (from the pose), when the camera is tilted
  enough for a figure to lean at all;
- ``cat_body``: a spot whose front neighbour is read as the cat and where the classifier finds
  the cat likelier than anything else shows the cat's body, not a piece of its own. There is one
  cat (C1) and it is read where it stands, so a mouse read there is the cat's body: the spot
  takes the classifier's likeliest reading that is no figure (what lies there: a slab, the
  floor), unsure. Any other reading there is kept but unsure too, since the body hides what
  lies under it. Unsure readings are asked about, never trusted (``companion.crosscheck``).
  (A mouse the classifier is not sure of behind the cat is not enough: on an unseen tilted
  second-family group that cost a true mouse.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.chop_squares import ALLOWED, CLASSES, HEIGHT_CELLS, likeliest_allowed

LEAN_MIN = 0.1
"""Below this shift (square sides, of the plane ``HEIGHT_CELLS`` up) the camera looks nearly
straight down: no figure leans over another square."""
UNSURE = 0.5
"""The confidence of a reading under the cat's body (under ``PieceConfig.min_confidence``: asked)."""


def front_spots(reader: Any, pose: Any, image_size: tuple[int, int]) -> list[int]:
    """For each of ``reader``'s spots the spot one square nearer the camera whose standing
    figure's body shows over it in the image (-1: none, or the camera looks nearly straight
    down). ``image_size``: (width, height) of the frame."""
    lift = reader._lift(pose, image_size, HEIGHT_CELLS * reader.cell_mm)
    c = np.asarray(reader._spot_centres_px, np.float64) / reader.config.px_per_mm  # board mm
    shift = (c @ lift[:2, :2].T + lift[:2, 2]) - c  # where the plane up there shows, less where it stands
    size = np.linalg.norm(shift, axis=1)
    step = shift / np.maximum(size, 1e-9)[:, None] * reader.cell_mm  # one square along the lean
    leans = size >= LEAN_MIN * reader.cell_mm
    d = np.linalg.norm((c + step)[None, :, :] - c[:, None, :], axis=2)  # [i, j]: where j's figure leans, from i
    np.fill_diagonal(d, np.inf)
    d[:, ~leans] = np.inf
    near = d.argmin(axis=1)
    return [int(j) if d[i, j] < 0.5 * reader.cell_mm else -1 for i, j in enumerate(near)]


def cat_body(out: list[tuple[str | None, float]], kinds: list[str], probs: np.ndarray,
             front: list[int]) -> int:
    """Readings under the cat's body (module doc), in place: a spot off the holes whose front
    neighbour is read as the cat and whose classifier ``probs`` (``CLASSES``) find the cat
    likeliest. A mouse read there takes the likeliest reading that is no figure, unsure; any
    other reading becomes unsure. Returns how many readings changed."""
    p = np.asarray(probs, np.float64)
    cat = CLASSES.index("cat")
    n = 0
    for i, (token, conf) in enumerate(out):
        j = front[i]
        if kinds[i] == "hole" or j < 0 or out[j][0] != "cat" or int(p[i].argmax()) != cat:
            continue
        base = None if token is None else token.split(":")[0]
        if base == "mouse":  # the likeliest reading that is no figure; its own confidence, capped
            out[i] = (likeliest_allowed(p[i], ALLOWED[kinds[i]] - {"cat", "mouse"}, UNSURE)[0], min(conf, UNSURE))
        elif base != "cat" and conf > UNSURE:
            out[i] = (token, UNSURE)
        else:
            continue
        n += 1
    return n
