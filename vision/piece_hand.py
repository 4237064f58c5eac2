"""A hand, an arm or their shadow over many squares, told from pieces (issue 31), read by the
board reader (``vision.pieces``) for the games in ``PieceConfig.hand``.

A piece sits inside its square: seen from above it covers part of it and shows its own edge
against the paper around it, so the grey levels of its spot spread more than the print's (the
look's spread rises), and it keeps its colour: where the reader has learned that piece, a spot
showing it lies near its learned look. A hand or an arm reaching over the board, and the shadow
it casts, is one large region crossing square borders: it changes a patch of many touching
squares at once, evenly over each (its smooth skin or sleeve hides the print's lines, or its
shadow dims them alike: the spread does not rise), and in a light the start photo never showed
(a child's hand under a dim bluish lamp darkens the paper towards a blue cat). Such a spot is
read as a piece far from that piece's learned look, with a colour only tinted, not a piece's.

``hand_spots`` finds them: the spots read as a learned piece farther than ``HandRule.far`` from
its look, whose spread rose less than ``HandRule.flat`` (look units) over their print's, whose
chroma score stays under ``HandRule.tint`` (the raised plane's, where the game reads one) and
that are not darker than ``HandRule.deep`` (a shadow leaves some light: a dark figure, which
hides the print, is far darker), at least ``HandRule.together`` of them in one group of at
least ``HandRule.least`` touching spots (neighbours and diagonals) that all show something the
learned looks do not explain (evidence >= 1, read as nothing or far from their reading). They
are asked (read as empty, unsure) rather than read as pieces.

A start's cat seen faded (at the edge of its light) puts a learned look near such a shadow's
tinted look, so a spot under the shadow may lie within ``HandRule.far`` of its piece's look. A
shadow is one smooth field over several squares: it changes the paper around a spot as it changes
the spot (``apart_from_around``); a piece changes its own square, not the paper beside it. Where
``HandRule.smooth`` is set, a spot read as a piece whose change lies that near the change of the
shadowed paper around it is counted with the far spots (the far spots' own hits as without it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.piece_config import HandRule
from vision.piece_looks import LOOK_SCALE, _look_distance, appearance

if TYPE_CHECKING:
    from vision.piece_spots import SpotFeatures


def hand_spots(reader: SpotFeatures, score: np.ndarray, looks: np.ndarray, decided: list[tuple[str | None, float]],
               learned: dict[str, list[list[float]]], rule: HandRule) -> list[int]:
    """The spots of ``decided`` (token, confidence per spot) read as a piece that lie under a
    hand, an arm or their shadow (see the module's text); ``learned``: each learned look class's
    looks, ``score``: the spots' evidence, ``looks``: their looks."""
    occupied = (np.asarray(score) >= 1) & ~reader._never_empty
    kinds = [appearance(t) if t is not None and occupied[i] else None for i, (t, _) in enumerate(decided)]
    far = np.zeros(len(decided), bool)
    for kind in {k for k in kinds if k is not None and learned.get(k)}:
        at = [i for i, k in enumerate(kinds) if k == kind]
        d = _look_distance(np.asarray(learned[kind], np.float64)[None, :, :], looks[at][:, None, :]).min(axis=1)
        far[at] = d > rule.far
    moved = (looks - reader._last_look_empty) / LOOK_SCALE  # look units, from the print's
    plane = reader.last_top_scores if reader.config.top_plane.get(reader.board.game) else reader.last_base_scores
    level = (moved[:, 3] < rule.flat) & (plane[:, 1] < rule.tint) & (moved[:, 2] > rule.deep)
    unread = occupied & np.array([t is None for t, _ in decided], bool)  # changed by no piece
    out = _hits(reader, far, far & level, unread, rule)
    if rule.smooth:  # a start's cat seen faded, near a tinted shadow's look: the paper around it
        like = (apart_from_around(reader, moved, kinds, rule.around) <= rule.smooth) & ~far
        if (like & level).any():  # those spots added, the others' hits kept as they were
            both = _hits(reader, far | like, (far | like) & level, unread, rule)
            out = sorted(set(out) | {i for i in both if like[i]})
    return out


def _hits(reader: SpotFeatures, far: np.ndarray, even: np.ndarray, unread: np.ndarray, rule: HandRule) -> list[int]:
    """The ``even`` spots of the groups of touching ``far`` or ``unread`` spots at least
    ``rule.least`` large with at least ``rule.together`` even spots."""
    if even.sum() < rule.together:
        return []
    out: list[int] = []
    for group in _groups(reader, far | unread):
        hit = [i for i in group if even[i]]
        if len(group) >= rule.least and len(hit) >= rule.together:
            out += hit
    return sorted(out)


def apart_from_around(reader: SpotFeatures, moved: np.ndarray, kinds: list[str | None], least: float) -> np.ndarray:
    """[spots] how far (look units: chroma and brightness) the change from the print (``moved``) of
    each spot read as a piece (``kinds``) lies from the paper's around it: the median change of its
    touching spots read as no piece, where that changed at least ``least`` (nan where it changed less,
    with fewer than three, or not read as a piece: no shadow around to compare with). A shadow is
    one smooth field over several squares, near nothing; a piece changes its own square, not the
    paper beside it."""
    out = np.full(len(kinds), np.nan)
    paper = np.array([k is None for k in kinds], bool)
    near = _near(reader)
    for i in (i for i, k in enumerate(kinds) if k is not None):
        ref = [j for j in near[i] if paper[j]]
        if len(ref) >= 3:
            around = np.median(moved[ref, :3], axis=0)
            if float(np.linalg.norm(around)) >= least:  # the paper around in a shadow (or a light) too
                out[i] = float(np.linalg.norm(moved[i, :3] - around))
    return out


_NEAR: dict[tuple[bytes, float], list[list[int]]] = {}


def _near(reader: SpotFeatures) -> list[list[int]]:
    """Each spot's touching spots (centres within 1.5 square sides, itself included), worked out
    once a board."""
    centres = np.asarray(reader._spot_centres_px, np.float64)
    key = (centres.tobytes(), float(reader.cell_mm * reader.config.px_per_mm))
    near = _NEAR.get(key)
    if near is None:
        close = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2) <= 1.5 * key[1]
        near = _NEAR[key] = [[int(j) for j in np.nonzero(row)[0]] for row in close]
    return near


def _groups(reader: SpotFeatures, mask: np.ndarray) -> list[list[int]]:
    """The spots of ``mask`` in groups touching each other (centres within 1.5 square sides:
    neighbours and diagonals, as ``vision.katenmuis_read.crowded``; each board's neighbours
    worked out once)."""
    near = _near(reader)
    out = []
    todo = {int(i) for i in np.nonzero(mask)[0]}
    while todo:
        group, stack = [], [todo.pop()]
        while stack:
            i = stack.pop()
            group.append(i)
            for j in near[i]:
                if j in todo:
                    todo.discard(j)
                    stack.append(j)
        out.append(group)
    return out
