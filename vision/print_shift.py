"""The print displaced, not covered (issue 31): a spot's structure evidence measured against its
print moved by up to a couple of millimetres, read by the board reader (``vision.pieces``) for
the games in ``PieceConfig.print_shift``.

A spot's structure evidence compares its print's lines with what the camera sees there
(``SpotFeatures._scores``: one minus their correlation). The paper is not always where the
markers put it: a print folded in quarters stands tented off the table, a wide lens's model is
off by a pixel or two towards the board's edges, a laminated sheet bows. Then the lines of an
empty square are seen one or two millimetres from where they are printed, their correlation
with the print falls (third family, a folded print under a fisheye: 0.25-0.55 on a dozen empty
squares per frame, structure evidence 0.8-1.3), and the spots read as occupied: they make
"crowds" (``vision.katenmuis_read.crowded``) that push a real counter beside them behind a lone
empty spot, which the one-of-a-kind count then keeps. The print is all there, only moved: the
same spot correlates 0.9-0.99 with its print shifted by under two millimetres. A counter hides
the print's lines whatever its material (a see-through one bends and dims them): its spot
correlates 0.45 at most with the print however it is shifted.

``displaced`` searches each occupied spot's best shift of the print (``cv2.matchTemplate`` over
the spot's box, the empty print as the camera's resolution sees it around it) and measures the
structure evidence there as ``_scores`` does. A spot whose evidence with that structure falls
under 1 (the occupancy unit) is the print displaced: its structure evidence is the shifted one.
The other spots keep their evidence as measured (a counter's is not lowered).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.piece_looks import WINDOW, P, _detrend, _smooth, total_evidence


def best_shifts(view: np.ndarray, empty_grey: np.ndarray, boxes: list[tuple[int, int, int, int]],
                margin: int) -> list[tuple[int, int]]:
    """Per box (x0, y0, x1, y1), the shift (dx, dy) within ``margin`` pixels of the print
    (``empty_grey``, padded by ``margin`` on every side) that correlates best with the view
    (``view``, colour) there."""
    out = []
    for x0, y0, x1, y1 in boxes:
        tmpl = cv2.cvtColor(np.ascontiguousarray(view[y0:y1, x0:x1]), cv2.COLOR_BGR2GRAY)
        around = empty_grey[y0:y1 + 2 * margin, x0:x1 + 2 * margin]
        res = np.nan_to_num(cv2.matchTemplate(around, tmpl, cv2.TM_CCOEFF_NORMED), nan=-1.0)
        dy, dx = np.unravel_index(int(np.argmax(res)), res.shape)
        out.append((int(dx) - margin, int(dy) - margin))
    return out


_PADDED: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
"""(id of an empty print, margin) -> (that print, it padded, its grey padded): a reader's few
prints (one per camera resolution) are padded once."""


def _padded(empty: np.ndarray, margin: int) -> tuple[np.ndarray, np.ndarray]:
    hit = _PADDED.get((id(empty), margin))
    if hit is None or hit[0] is not empty:
        if len(_PADDED) > 16:
            _PADDED.clear()
        pad = cv2.copyMakeBorder(np.ascontiguousarray(empty, np.float32), margin, margin, margin, margin,
                                 cv2.BORDER_REPLICATE)
        hit = (empty, pad, cv2.cvtColor(pad, cv2.COLOR_BGR2GRAY))
        _PADDED[(id(empty), margin)] = hit
    return hit[1], hit[2]


def structure_against(patches: np.ndarray, empty_patches: np.ndarray, ncc_scale: float) -> np.ndarray:
    """[N] structure evidence of normalised patches against print patches (``_scores``' first part:
    (1 - windowed correlation of the detrended, smoothed grey) / ``ncc_scale``; 0 where the print
    has no structure)."""
    wg0 = _detrend(_smooth(patches.mean(axis=3)))
    eg0 = _detrend(_smooth(empty_patches.mean(axis=3)))
    eg_norm = np.sqrt((WINDOW * eg0 ** 2).sum(axis=(1, 2))) + 1e-6
    ncc = (WINDOW * wg0 * eg0).sum(axis=(1, 2)) / (np.sqrt((WINDOW * wg0 ** 2).sum(axis=(1, 2))) * eg_norm + 1e-6)
    out: np.ndarray = np.where(eg_norm >= 0.03, (1 - ncc) / ncc_scale, 0.0)
    return out


def displaced(warped: np.ndarray, empty: np.ndarray, patches: np.ndarray, scores: np.ndarray,
              boxes: list[tuple[int, int, int, int]], spots: np.ndarray, margin: int,
              ncc_scale: float, combine: str = "l2") -> np.ndarray:
    """``scores`` ([N, 4] evidence parts, structure first; combined as the L2 norm) with the
    structure part of each of ``spots`` measured against the print shifted by up to ``margin``
    pixels wherever that takes the spot's evidence (its parts' L2 norm, or their largest for
    ``combine`` "max") under 1 (the print displaced, not covered).
    ``warped``: the top-down view, ``empty``: the empty print as the camera sees it, ``patches``:
    the view's normalised spot patches."""
    out = np.array(scores, np.float64)
    if not len(spots):
        return out
    pad, pad_grey = _padded(empty, margin)
    chosen = [boxes[i] for i in spots]
    shifts = best_shifts(warped, pad_grey, chosen, margin)
    moved = np.empty((len(spots), P, P, 3), np.float32)
    for k, ((x0, y0, x1, y1), (dx, dy)) in enumerate(zip(chosen, shifts)):
        crop = pad[y0 + margin + dy:y1 + margin + dy, x0 + margin + dx:x1 + margin + dx]
        moved[k] = cv2.resize(crop, (P, P), interpolation=cv2.INTER_AREA)
    struct = structure_against(patches[spots], moved, ncc_scale)
    rows = out[spots].copy()
    rows[:, 0] = np.minimum(rows[:, 0], struct)
    empty_now = total_evidence(rows, combine) < 1.0
    out[np.asarray(spots)[empty_now]] = rows[empty_now]
    return out
